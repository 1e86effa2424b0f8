//! What the Belle Epoque quick reference takes from the rules data: the tags a force can have
//! and the tables built from the book's numbers.

use std::collections::BTreeSet;

use super::tables;
use crate::rules::reference::{Table, Tags, has, name_of, tag};
use crate::rules::words::capitalised;

/// The tables this ruleset builds for its quick reference.
pub(super) const SOURCES: [&str; 6] = [
    "belle_epoque.fire_table",
    "belle_epoque.reactivity",
    "belle_epoque.unit_kinds",
    "belle_epoque.assault_levels",
    "belle_epoque.traits",
    "belle_epoque.command_dice",
];

/// Every tag a Belle Epoque force could have.
pub(super) fn known_tags() -> BTreeSet<String> {
    let mut tags = BTreeSet::new();
    if let Some(t) = tables() {
        tags.extend(t.traits.iter().map(|row| tag("trait", name_of(row.trait_))));
        tags.extend(
            t.unit_kinds
                .iter()
                .map(|row| tag("kind", name_of(row.kind))),
        );
    }
    tags.extend(["doctrine:loose".into(), "doctrine:close".into()]);
    tags
}

/// The table `source` names, if it is one of [`SOURCES`]; `tags` keeps only a force's
/// traits.
pub(super) fn table(source: &str, tags: Tags<'_>) -> Option<Table> {
    let t = tables()?;
    Some(match source {
        "belle_epoque.fire_table" => Table::new(
            &["Type", "1 UD", "2 UD", "3 UD", "4 UD"],
            t.troop_types
                .iter()
                .map(|row| {
                    let mut cells = vec![row.troop_type.letter().to_string()];
                    cells.extend(row.fire.iter().map(|cell| match cell {
                        None => "–".to_string(),
                        Some((n, None)) => n.to_string(),
                        Some((n, Some(m))) => format!("{n} ({m})"),
                    }));
                    cells
                })
                .collect(),
            &[],
        ),
        "belle_epoque.reactivity" => Table::new(
            &["Reactivity", "Loose order", "Close order"],
            t.reactivity
                .iter()
                .map(|r| {
                    vec![
                        r.level.label().to_string(),
                        r.loose.to_string(),
                        r.close.to_string(),
                    ]
                })
                .collect(),
            &[],
        ),
        "belle_epoque.unit_kinds" => Table::new(
            &["Kind", "Max stands", "Basic move", "March"],
            t.unit_kinds
                .iter()
                .map(|k| {
                    vec![
                        k.label.clone(),
                        k.max_stands.to_string(),
                        format!("{} UD", k.basic_move),
                        format!("{} UD", k.march),
                    ]
                })
                .collect(),
            &[2.4, 1.0, 1.0, 0.9],
        ),
        "belle_epoque.assault_levels" => Table::new(
            &["Troops", "Dice that succeed"],
            t.assault_levels
                .iter()
                .map(|a| {
                    let faces: Vec<String> =
                        (1..=a.successful_scores).map(|f| f.to_string()).collect();
                    vec![a.label.clone(), faces.join(", ")]
                })
                .collect(),
            &[2.6, 1.2],
        ),
        "belle_epoque.traits" => Table::new(
            &["Trait", "Effect"],
            t.traits
                .iter()
                .filter(|row| has(tags, &tag("trait", name_of(row.trait_))))
                .map(|row| vec![row.trait_.label().to_string(), row.summary.clone()])
                .collect(),
            &[1.0, 3.5],
        ),
        "belle_epoque.command_dice" => Table::new(
            &["General", "Command die"],
            t.command_dice
                .iter()
                .map(|c| vec![capitalised(&c.general), format!("d{}", c.die)])
                .collect(),
            &[],
        ),
        _ => return None,
    })
}
