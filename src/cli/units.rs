//! `quartermaster rulesets` and `quartermaster units`.

use std::io::Write;

use std::path::Path;

use anyhow::{Context, Result};
use serde_json::{Value, json};

use super::{EXIT_OK, print_json};
use crate::rules::{self, Card, RulesetId};
use crate::store::{CardId, Store};

pub fn rulesets(json: bool, out: &mut dyn Write) -> Result<u8> {
    if json {
        let list: Vec<Value> = rules::all_rulesets()
            .map(|r| {
                json!({
                    "id": r.id().as_str(),
                    "title": r.id().title(),
                    "summary": r.summary(),
                    "cards": r.library().len(),
                    "data_revision": r.data_revision(),
                })
            })
            .collect();
        print_json(out, &list)?;
    } else {
        for r in rules::all_rulesets() {
            writeln!(
                out,
                "{:<16} {:<18} {:>3} cards  {}",
                r.id().as_str(),
                r.id().title(),
                r.library().len(),
                r.summary()
            )?;
        }
    }
    Ok(EXIT_OK)
}

/// Lists the books' cards and, where the data directory holds a library, its custom cards
/// (marked "custom"). A missing library is not created just to list cards.
pub fn units(
    ruleset: Option<&str>,
    data_dir: Option<&Path>,
    json: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u8> {
    let ids: Vec<RulesetId> = match ruleset {
        Some(id) => vec![id.parse()?],
        None => RulesetId::ALL.to_vec(),
    };
    let custom = match custom_cards(data_dir) {
        Ok(cards) => cards,
        Err(error) => {
            writeln!(err, "warning: custom cards not listed: {error:#}")?;
            Vec::new()
        }
    };
    let book = ids
        .iter()
        .flat_map(|id| rules::ruleset(*id).library())
        .map(|card| (None, card));
    let custom = custom
        .iter()
        .filter(|(_, card)| ids.contains(&card.ruleset()))
        .map(|(id, card)| (Some(*id), card));
    let cards: Vec<(Option<CardId>, &Card)> = book.chain(custom).collect();
    if json {
        let list: Vec<Value> = cards
            .iter()
            .map(|(id, card)| {
                let mut value = card_json(card);
                if let Value::Object(map) = &mut value {
                    map.insert("custom".into(), Value::Bool(id.is_some()));
                    if let Some(id) = id {
                        map.insert("card_id".into(), json!(id.0));
                    }
                }
                value
            })
            .collect();
        print_json(out, &list)?;
    } else {
        for (id, card) in cards {
            let stats: Vec<String> = card
                .data()
                .printed_stats()
                .into_iter()
                .map(|s| format!("{} {}", s.label, s.value))
                .collect();
            let name = match id {
                Some(_) => format!("{} · custom", card.name()),
                None => card.name().to_string(),
            };
            writeln!(
                out,
                "{:<16} {:<34} {}",
                card.ruleset().as_str(),
                name,
                stats.join(" | ")
            )?;
        }
    }
    Ok(EXIT_OK)
}

/// The custom cards of the library in `data_dir`, or none where there is no library yet.
fn custom_cards(data_dir: Option<&Path>) -> Result<Vec<(CardId, Card)>> {
    let dir = super::data_dir(data_dir)?;
    if !dir.join(crate::store::DB_FILE_NAME).exists() {
        return Ok(Vec::new());
    }
    let store = Store::open(&dir)
        .with_context(|| format!("cannot open the database in {}", dir.display()))?;
    Ok(store.custom_cards()?)
}

/// A card as JSON: its own fields (with `name` and `ruleset`), its type and labelled stats.
pub fn card_json(card: &Card) -> Value {
    let mut value = serde_json::to_value(card).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        map.insert("type".into(), Value::String(card.type_label()));
        if let Some(side) = card.side() {
            map.insert("side_label".into(), Value::String(side.into()));
        }
        // As the card prints them: a BelloLudi light tank's morale "2/–", not the "2/1" a
        // rule never uses.
        let stats: serde_json::Map<String, Value> = card
            .data()
            .printed_stats()
            .into_iter()
            .map(|s| (s.label.to_string(), Value::String(s.value)))
            .collect();
        map.insert("stats".into(), Value::Object(stats));
    }
    value
}
