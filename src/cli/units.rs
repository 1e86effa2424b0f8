//! `quartermaster rulesets` and `quartermaster units`.

use std::io::Write;

use anyhow::Result;
use serde_json::{Value, json};

use super::{EXIT_OK, print_json};
use crate::rules::{self, Card, RulesetId};

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

pub fn units(ruleset: Option<&str>, json: bool, out: &mut dyn Write) -> Result<u8> {
    let ids: Vec<RulesetId> = match ruleset {
        Some(id) => vec![id.parse()?],
        None => RulesetId::ALL.to_vec(),
    };
    let cards = ids.iter().flat_map(|id| rules::ruleset(*id).library());
    if json {
        let list: Vec<Value> = cards.map(card_json).collect();
        print_json(out, &list)?;
    } else {
        for card in cards {
            let stats: Vec<String> = card
                .stats()
                .into_iter()
                .map(|s| format!("{} {}", s.label, s.value))
                .collect();
            writeln!(
                out,
                "{:<16} {:<34} {}",
                card.ruleset().as_str(),
                card.name(),
                stats.join(" | ")
            )?;
        }
    }
    Ok(EXIT_OK)
}

/// A card as JSON: its own fields (with `name` and `ruleset`), its type and labelled stats.
pub fn card_json(card: &Card) -> Value {
    let mut value = serde_json::to_value(card).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        map.insert("type".into(), Value::String(card.type_label()));
        if let Some(side) = card.side() {
            map.insert("side_label".into(), Value::String(side.into()));
        }
        let stats: serde_json::Map<String, Value> = card
            .stats()
            .into_iter()
            .map(|s| (s.label.to_string(), Value::String(s.value)))
            .collect();
        map.insert("stats".into(), Value::Object(stats));
    }
    value
}
