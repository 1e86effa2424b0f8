//! What the Bolt Action quick reference takes from the rules data: the tags a force can have
//! and the tables built from the reference sheets' numbers.

use std::collections::BTreeSet;

use super::tables;
use crate::rules::reference::{Table, Tags, has, tag};

/// Bolt Action unit categories, by their data names.
const CATEGORIES: [&str; 8] = [
    "infantry",
    "artillery",
    "soft_skin",
    "armoured_car",
    "light_tank",
    "medium_tank",
    "heavy_tank",
    "super_heavy_tank",
];

/// The tables this ruleset builds for its quick reference.
pub(super) const SOURCES: [&str; 12] = [
    "bolt_action.orders",
    "bolt_action.qualities",
    "bolt_action.officers",
    "bolt_action.fubar",
    "bolt_action.hit_modifiers",
    "bolt_action.damage_values",
    "bolt_action.penetration_modifiers",
    "bolt_action.weapons",
    "bolt_action.he_chart",
    "bolt_action.damage_rolls",
    "bolt_action.damage_results",
    "bolt_action.vehicle_moves",
];

/// Every tag a Bolt Action force could have.
pub(super) fn known_tags() -> BTreeSet<String> {
    let mut tags = BTreeSet::new();
    tags.extend(CATEGORIES.map(|c| tag("category", c)));
    tags.extend(["armoured", "vehicle", "weapon:he", "open_topped", "recce"].map(String::from));
    if let Some(t) = tables() {
        tags.extend(t.weapons.iter().map(|w| tag("weapon", &w.name)));
    }
    tags
}

fn signed(value: i8) -> String {
    if value > 0 {
        format!("+{value}")
    } else {
        format!("−{}", value.unsigned_abs())
    }
}

fn roll_range(from: i32, to: i32) -> String {
    match (from, to) {
        (f, t) if f == t => f.to_string(),
        (f, t) if f <= -1 => format!("{t} or less"),
        (f, t) if t >= 7 => format!("{f}+"),
        (f, t) => format!("{f}–{t}"),
    }
}

/// The table `source` names, if it is one of [`SOURCES`]; `tags` keeps only a force's
/// weapons.
pub(super) fn table(source: &str, tags: Tags<'_>) -> Option<Table> {
    let t = tables()?;
    let text = |s: &str| s.to_string();
    Some(match source {
        "bolt_action.orders" => Table::new(
            &["Order", "What the unit does"],
            t.orders
                .iter()
                .map(|o| vec![o.order.clone(), o.summary.clone()])
                .collect(),
            &[1.0, 3.5],
        ),
        "bolt_action.qualities" => Table::new(
            &["Quality", "Morale", "Infantry DV"],
            t.qualities
                .iter()
                .map(|q| {
                    vec![
                        text(q.quality.label()),
                        q.morale.to_string(),
                        format!("{}+", q.infantry_damage_value),
                    ]
                })
                .collect(),
            &[],
        ),
        "bolt_action.officers" => Table::new(
            &["Officer", "Order test bonus"],
            t.officers
                .iter()
                .map(|o| vec![o.title.clone(), format!("+{}", o.bonus)])
                .collect(),
            &[],
        ),
        "bolt_action.fubar" | "bolt_action.damage_results" => {
            let rows = if source == "bolt_action.fubar" {
                &t.fubar
            } else {
                &t.damage_results
            };
            Table::new(
                &["Roll", "Result", "Effect"],
                rows.iter()
                    .map(|r| {
                        vec![
                            roll_range(r.from, r.to),
                            r.result.clone(),
                            r.summary.clone(),
                        ]
                    })
                    .collect(),
                &[0.9, 1.3, 3.2],
            )
        }
        "bolt_action.hit_modifiers" => Table::new(
            &["To hit (base 3+)", "Roll"],
            t.hit
                .modifiers
                .iter()
                .map(|m| {
                    let per = if m.per_count { " each" } else { "" };
                    vec![m.label.clone(), format!("{}{per}", signed(m.value))]
                })
                .collect(),
            &[3.0, 1.0],
        ),
        "bolt_action.damage_values" => Table::new(
            &["Target", "Damage value"],
            t.damage_values
                .iter()
                .map(|d| vec![d.label.clone(), format!("{}+", d.value)])
                .collect(),
            &[3.0, 1.0],
        ),
        "bolt_action.penetration_modifiers" => Table::new(
            &["Against armour", "PEN"],
            t.penetration_modifiers
                .iter()
                .map(|m| vec![m.label.clone(), signed(m.value)])
                .collect(),
            &[3.0, 1.0],
        ),
        "bolt_action.weapons" => Table::new(
            &["Weapon", "Range", "Shots", "PEN", "Special"],
            t.weapons
                .iter()
                .filter(|w| has(tags, &tag("weapon", &w.name)))
                .map(|w| {
                    let mut special = w.special.clone();
                    if let Some(he) = &w.he {
                        special.push(format!("HE ({he})"));
                    }
                    vec![
                        w.name.clone(),
                        w.range.clone(),
                        w.shots.clone(),
                        w.pen_label(),
                        special.join(", "),
                    ]
                })
                .collect(),
            &[2.6, 1.1, 0.8, 0.7, 2.2],
        ),
        "bolt_action.he_chart" => Table::new(
            &["HE", "PEN", "Pins"],
            t.he_chart
                .iter()
                .map(|h| vec![h.he.clone(), format!("+{}", h.pen), h.pins.clone()])
                .collect(),
            &[],
        ),
        "bolt_action.damage_rolls" => Table::new(
            &["Damage", "Roll on the results table"],
            t.damage_rolls
                .iter()
                .map(|d| vec![d.label.clone(), d.roll.clone()])
                .collect(),
            &[2.0, 1.6],
        ),
        "bolt_action.vehicle_moves" => Table::new(
            &["Vehicle", "Advance", "Run"],
            t.vehicle_moves
                .iter()
                .map(|m| {
                    vec![
                        m.label.clone(),
                        format!("{}″", m.advance),
                        format!("{}″", m.run),
                    ]
                })
                .collect(),
            &[2.2, 1.0, 1.0],
        ),
        _ => return None,
    })
}
