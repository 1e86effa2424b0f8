//! Tables built from the rules data, so a quick reference prints the very numbers the rest
//! of the app computes with. Each ruleset builds its own
//! ([`Ruleset::reference_table`](crate::rules::Ruleset::reference_table)); given a force's
//! tags, lists of rules or weapons keep only what the force has. A `modifiers:<mechanic>`
//! source lists the situations a mechanic's odds take, from its input specs.

use std::collections::{BTreeMap, BTreeSet};

use super::data::Table;
use crate::rules::resolution::{InputKind, InputSpec, Mechanic, mechanic};
use crate::rules::{RulesetId, all_rulesets};

/// Every source a reference file may name, ruleset by ruleset.
pub fn sources() -> Vec<&'static str> {
    all_rulesets()
        .flat_map(|r| r.reference_sources().iter().copied())
        .collect()
}

/// A source listing the situations of one of the ruleset's mechanics: `modifiers:fire`.
pub const MODIFIERS: &str = "modifiers:";

pub(crate) fn exists(ruleset: RulesetId, source: &str) -> bool {
    match mechanic_key(source) {
        Some(key) => mechanic(ruleset, key).is_some(),
        None => sources().contains(&source),
    }
}

/// The mechanic a `modifiers:` source names.
pub(crate) fn mechanic_key(source: &str) -> Option<&str> {
    source.strip_prefix(MODIFIERS)
}

/// The inputs of a mechanic that describe the situation its odds are taken in: everything
/// but the cards it is about. These are what a quick reference must state.
pub fn situation_inputs(mechanic: &Mechanic) -> Vec<InputSpec> {
    (mechanic.inputs)()
        .into_iter()
        .filter(|input| {
            !matches!(
                input.kind,
                InputKind::Card { .. } | InputKind::CardList { .. }
            )
        })
        .collect()
}

/// The keys of [`situation_inputs`] of mechanic `key` of `ruleset`.
pub(crate) fn situation_keys(ruleset: RulesetId, key: &str) -> Vec<String> {
    mechanic(ruleset, key).map_or_else(Vec::new, |m| {
        situation_inputs(m)
            .iter()
            .map(|i| i.key.to_string())
            .collect()
    })
}

/// Every situation of a mechanic but those `except` names, as "Situation | Effect" rows in
/// the words the window's odds panel uses; house defaults marked with `mark`.
fn modifiers(
    ruleset: RulesetId,
    key: &str,
    except: &BTreeMap<String, String>,
    mark: &str,
) -> Option<Table> {
    let mechanic = mechanic(ruleset, key)?;
    let mut marked_rows = false;
    let rows = situation_inputs(mechanic)
        .into_iter()
        .filter(|input| !except.contains_key(input.key))
        .map(|input| {
            let label = match input.house_default {
                Some(_) => {
                    marked_rows = true;
                    format!("{mark} {}", input.label)
                }
                None => input.label.to_string(),
            };
            vec![label, input.help.to_string()]
        })
        .collect();
    Some(Table {
        marked_rows,
        ..Table::new(&["Situation", "Effect"], rows, &[1.5, 2.5])
    })
}

/// The table `source` names, built by the ruleset whose source it is; `tags` (a force's)
/// filters lists of rules and weapons; `except` and `mark` serve `modifiers:` sources of
/// `ruleset`. `None` when the rules data is missing (a broken build).
pub(crate) fn build(
    ruleset: RulesetId,
    source: &str,
    except: &BTreeMap<String, String>,
    mark: &str,
    tags: Option<&BTreeSet<String>>,
) -> Option<Table> {
    if let Some(key) = mechanic_key(source) {
        return modifiers(ruleset, key, except, mark);
    }
    all_rulesets()
        .find(|r| r.reference_sources().contains(&source))?
        .reference_table(source, tags)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table source: its ruleset is the one that names it.
    fn build(source: &str, tags: Option<&BTreeSet<String>>) -> Option<Table> {
        let owner = all_rulesets().find(|r| r.reference_sources().contains(&source))?;
        super::build(owner.id(), source, &BTreeMap::new(), "†", tags)
    }

    #[test]
    fn every_source_builds_a_table_with_rows() {
        for source in sources() {
            let table = build(source, None).unwrap_or_else(|| panic!("{source}"));
            assert!(!table.rows.is_empty(), "{source}");
            assert!(
                table.rows.iter().all(|r| r.len() == table.columns.len()),
                "{source}"
            );
        }
    }

    #[test]
    fn a_force_filter_keeps_only_its_rules() {
        let tags: BTreeSet<String> = ["special_rule:break_off".to_string()].into();
        let table = build("armour_battles.special_rules", Some(&tags)).unwrap();
        assert_eq!(table.rows.len(), 1);
        assert_eq!(table.rows[0][0], "Break-Off");
    }

    #[test]
    fn the_rally_table_is_the_rulings_house_default() {
        let table = build("armour_battles.rally_table", None).unwrap();
        let rows: Vec<(&str, &str)> = table
            .rows
            .iter()
            .map(|r| (r[0].as_str(), r[1].as_str()))
            .collect();
        assert_eq!(
            rows,
            [
                ("up to 6″", "6+"),
                ("over 6″ to 12″", "5+"),
                ("over 12″ to 24″", "4+"),
                ("over 24″", "3+")
            ]
        );
    }

    #[test]
    fn the_fire_table_row_matches_the_rulings() {
        let table = build("belle_epoque.fire_table", None).unwrap();
        assert_eq!(table.rows[0], ["A", "5 (3)", "4 (2)", "3 (1)", "2"]);
        assert_eq!(table.rows[6], ["G", "1", "–", "–", "–"]);
    }
}
