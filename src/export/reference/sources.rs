//! Tables built from the rules data, so a quick reference prints the very numbers the rest
//! of the app computes with. Each ruleset builds its own ([`Ruleset::reference_table`](crate::rules::Ruleset::reference_table));
//! given a force's tags, lists of rules or weapons keep only what the force has.

use std::collections::BTreeSet;

use super::data::Table;
use crate::rules::all_rulesets;

/// Every source a reference file may name, ruleset by ruleset.
pub fn sources() -> Vec<&'static str> {
    all_rulesets()
        .flat_map(|r| r.reference_sources().iter().copied())
        .collect()
}

pub(crate) fn exists(source: &str) -> bool {
    sources().contains(&source)
}

/// The table `source` names; `tags` (a force's) filters lists of rules and weapons.
/// `None` when the rules data is missing (a broken build).
pub(crate) fn build(source: &str, tags: Option<&BTreeSet<String>>) -> Option<Table> {
    all_rulesets()
        .find(|r| r.reference_sources().contains(&source))?
        .reference_table(source, tags)
}

#[cfg(test)]
mod tests {
    use super::*;

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
