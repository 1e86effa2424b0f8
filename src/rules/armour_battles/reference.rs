//! What the Armour Battles quick reference takes from the rules data: the tags a force can
//! have (its cards' special rules and kinds, its battle group's deployments) and the tables
//! built from the special rules and the Rally Table.

use std::collections::BTreeSet;

use super::{Deployment, SpecialRule, battle_group, rally_table};
use crate::rules::force::Budget;
use crate::rules::reference::{Table, Tags, has, name_of, tag};

/// The tables this ruleset builds for its quick reference.
pub(super) const SOURCES: [&str; 3] = [
    "armour_battles.special_rules",
    "armour_battles.rally_table",
    "armour_battles.rally_dice",
];

/// Every tag an Armour Battles force could have.
pub(super) fn known_tags() -> BTreeSet<String> {
    let mut tags = BTreeSet::new();
    tags.extend(SpecialRule::ALL.map(|r| tag("special_rule", name_of(r))));
    tags.extend(["kind:afv".into(), "kind:off_table_artillery".into()]);
    tags.extend(["deployment:reserve".into(), "deployment:hidden".into()]);
    tags
}

/// The deployments of the battle group a force is built against.
pub(super) fn budget_tags(budget: &Budget, tags: &mut BTreeSet<String>) {
    let Budget::BattleGroup(id) = budget else {
        return;
    };
    let Some(group) = battle_group(id) else {
        return;
    };
    for company in &group.companies {
        match company.deployment {
            Deployment::Reserve { .. } => tags.insert("deployment:reserve".into()),
            Deployment::Hidden {} => tags.insert("deployment:hidden".into()),
            _ => false,
        };
    }
}

/// The table `source` names, if it is one of [`SOURCES`]; `tags` keeps only a force's
/// special rules.
pub(super) fn table(source: &str, tags: Tags<'_>) -> Option<Table> {
    match source {
        "armour_battles.special_rules" => Some(Table::new(
            &["Special rule", "What it does"],
            SpecialRule::ALL
                .iter()
                .filter(|rule| has(tags, &tag("special_rule", name_of(rule))))
                .map(|r| vec![r.title().to_string(), r.explanation().to_string()])
                .collect(),
            &[1.0, 3.0],
        )),
        "armour_battles.rally_table" | "armour_battles.rally_dice" => rally(source),
        _ => None,
    }
}

/// The Rally Table (a house default: the book's values were lost) and its dice.
fn rally(source: &str) -> Option<Table> {
    let t = rally_table().ok()?;
    if source == "armour_battles.rally_dice" {
        let dice = |n: i32| format!("{}{n}D", if n < 0 { "" } else { "+" });
        return Some(Table::new(
            &["Rally dice", "Modifier"],
            vec![
                vec!["In or behind cover".into(), dice(t.cover_dice)],
                vec![
                    "No line of sight to any enemy".into(),
                    dice(t.no_line_of_sight_dice),
                ],
                vec!["Each wild die spent".into(), dice(t.wild_die_dice)],
                vec!["Each staff order spent".into(), dice(t.staff_order_dice)],
                vec![
                    "Opponent, per disruption point".into(),
                    format!("1D at {}+", t.opponent_tn),
                ],
            ],
            &[3.0, 1.0],
        ));
    }
    let mut rows = Vec::new();
    let mut from: Option<u32> = None;
    for band in &t.bands {
        let distance = match (from, band.up_to_inches) {
            (None, Some(to)) => format!("up to {to}″"),
            (Some(f), Some(to)) => format!("over {f}″ to {to}″"),
            (Some(f), None) => format!("over {f}″"),
            (None, None) => "any distance".to_string(),
        };
        rows.push(vec![distance, format!("{}+", band.tn)]);
        from = band.up_to_inches;
    }
    Some(Table::new(&["Nearest enemy", "Rally TN"], rows, &[]))
}
