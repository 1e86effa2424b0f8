//! Tables built from the rules data, so a quick reference prints the very numbers the rest
//! of the app computes with. Given a force's tags, lists of rules or weapons keep only what
//! the force has.

use std::collections::{BTreeMap, BTreeSet};

use super::data::Table;
use crate::rules::RulesetId;
use crate::rules::armour_battles::{self, SpecialRule};
use crate::rules::resolution::{InputKind, InputSpec, Mechanic, mechanic};
use crate::rules::{belle_epoque, belloludi, bolt_action};

/// Every source a reference file may name.
pub const SOURCES: [&str; 22] = [
    "armour_battles.special_rules",
    "armour_battles.rally_table",
    "armour_battles.rally_dice",
    "belloludi.costs",
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
    "belle_epoque.fire_table",
    "belle_epoque.reactivity",
    "belle_epoque.unit_kinds",
    "belle_epoque.assault_levels",
    "belle_epoque.traits",
    "belle_epoque.command_dice",
];

/// A source listing the situations of one of the ruleset's mechanics: `modifiers:fire`.
pub const MODIFIERS: &str = "modifiers:";

pub(crate) fn exists(ruleset: RulesetId, source: &str) -> bool {
    match mechanic_key(source) {
        Some(key) => mechanic(ruleset, key).is_some(),
        None => SOURCES.contains(&source),
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
        ..table(&["Situation", "Effect"], rows, &[1.5, 2.5])
    })
}

fn table(columns: &[&str], rows: Vec<Vec<String>>, widths: &[f32]) -> Table {
    Table {
        columns: columns.iter().map(|c| c.to_string()).collect(),
        rows,
        widths: (!widths.is_empty()).then(|| widths.to_vec()),
        marked_rows: false,
    }
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

/// The table `source` names; `tags` (a force's) filters lists of rules and weapons;
/// `except` and `mark` serve `modifiers:` sources. `None` when the rules data is missing (a
/// broken build).
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
    let has = |tag: String| tags.is_none_or(|tags| tags.contains(&tag));
    match source {
        "armour_battles.special_rules" => Some(table(
            &["Special rule", "What it does"],
            SpecialRule::ALL
                .iter()
                .filter(|rule| has(format!("special_rule:{}", snake(rule))))
                .map(|r| vec![r.title().to_string(), r.explanation().to_string()])
                .collect(),
            &[1.0, 3.0],
        )),
        "armour_battles.rally_table" | "armour_battles.rally_dice" => rally(source),
        "belloludi.costs" => belloludi_costs(),
        s if s.starts_with("bolt_action.") => bolt_action_table(s, &has),
        s if s.starts_with("belle_epoque.") => belle_epoque_table(s, &has),
        _ => None,
    }
}

fn snake(value: impl serde::Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name,
        _ => String::new(),
    }
}

/// The Rally Table (a house default: the book's values were lost) and its dice.
fn rally(source: &str) -> Option<Table> {
    let t = armour_battles::rally_table().ok()?;
    if source == "armour_battles.rally_dice" {
        let dice = |n: i32| format!("{}{n}D", if n < 0 { "" } else { "+" });
        return Some(table(
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
    Some(table(&["Nearest enemy", "Rally TN"], rows, &[]))
}

fn belloludi_costs() -> Option<Table> {
    let c = belloludi::components()?;
    let mut rows = Vec::new();
    for s in &c.speed {
        rows.push(vec![
            "Speed".to_string(),
            format!("{}″ off-road / {}″ road", s.off_road, s.road),
            s.points.to_string(),
        ]);
    }
    for s in &c.shooting {
        let class = match s.commander_dice {
            1 => Some(belloludi::Class::Light),
            2 => Some(belloludi::Class::Medium),
            3 => Some(belloludi::Class::Heavy),
            _ => None,
        };
        let gun = c.guns.iter().find(|g| Some(g.class) == class);
        rows.push(vec![
            "Shooting".to_string(),
            match gun {
                Some(g) => format!("{}CD · {} ({}″)", s.commander_dice, g.name, g.range),
                None => format!("{}CD", s.commander_dice),
            },
            s.points.to_string(),
        ]);
    }
    for a in &c.armour {
        rows.push(vec![
            "Armour".to_string(),
            a.armour.to_string(),
            a.points.to_string(),
        ]);
    }
    Some(table(
        &["Component", "Choice", "Points"],
        rows,
        &[1.0, 2.6, 0.8],
    ))
}

fn bolt_action_table(source: &str, has: &dyn Fn(String) -> bool) -> Option<Table> {
    let t = bolt_action::tables()?;
    let text = |s: &str| s.to_string();
    Some(match source {
        "bolt_action.orders" => table(
            &["Order", "What the unit does"],
            t.orders
                .iter()
                .map(|o| vec![o.order.clone(), o.summary.clone()])
                .collect(),
            &[1.0, 3.5],
        ),
        "bolt_action.qualities" => table(
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
        "bolt_action.officers" => table(
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
            table(
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
        "bolt_action.hit_modifiers" => table(
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
        "bolt_action.damage_values" => table(
            &["Target", "Damage value"],
            t.damage_values
                .iter()
                .map(|d| vec![d.label.clone(), format!("{}+", d.value)])
                .collect(),
            &[3.0, 1.0],
        ),
        "bolt_action.penetration_modifiers" => table(
            &["Against armour", "PEN"],
            t.penetration_modifiers
                .iter()
                .map(|m| vec![m.label.clone(), signed(m.value)])
                .collect(),
            &[3.0, 1.0],
        ),
        "bolt_action.weapons" => table(
            &["Weapon", "Range", "Shots", "PEN", "Special"],
            t.weapons
                .iter()
                .filter(|w| has(format!("weapon:{}", w.name.to_lowercase())))
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
        "bolt_action.he_chart" => table(
            &["HE", "PEN", "Pins"],
            t.he_chart
                .iter()
                .map(|h| vec![h.he.clone(), format!("+{}", h.pen), h.pins.clone()])
                .collect(),
            &[],
        ),
        "bolt_action.damage_rolls" => table(
            &["Damage", "Roll on the results table"],
            t.damage_rolls
                .iter()
                .map(|d| vec![d.label.clone(), d.roll.clone()])
                .collect(),
            &[2.0, 1.6],
        ),
        "bolt_action.vehicle_moves" => table(
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

fn belle_epoque_table(source: &str, has: &dyn Fn(String) -> bool) -> Option<Table> {
    let t = belle_epoque::tables()?;
    Some(match source {
        "belle_epoque.fire_table" => table(
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
        "belle_epoque.reactivity" => table(
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
        "belle_epoque.unit_kinds" => table(
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
        "belle_epoque.assault_levels" => table(
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
        "belle_epoque.traits" => table(
            &["Trait", "Effect"],
            t.traits
                .iter()
                .filter(|row| has(format!("trait:{}", snake(row.trait_))))
                .map(|row| vec![row.trait_.label().to_string(), row.summary.clone()])
                .collect(),
            &[1.0, 3.5],
        ),
        "belle_epoque.command_dice" => table(
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

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(source: &str, tags: Option<&BTreeSet<String>>) -> Option<Table> {
        let ruleset = match source.split('.').next() {
            Some("armour_battles") => RulesetId::ArmourBattles,
            Some("belloludi") => RulesetId::Belloludi,
            Some("bolt_action") => RulesetId::BoltAction,
            _ => RulesetId::BelleEpoque,
        };
        super::build(ruleset, source, &BTreeMap::new(), "†", tags)
    }

    #[test]
    fn every_source_builds_a_table_with_rows() {
        for source in SOURCES {
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
