//! Armour Battles (Jim Bambra): 11 unit cards and the Lorraine 1944 battle groups.
//!
//! A force is built against a battle group from a mission briefing; it may field no card more
//! often than the briefing does, and no more units in all.

pub mod artillery;
pub mod battle;
pub mod battle_groups;
mod card_data;
pub mod cards;
pub mod command;
pub mod error;
pub mod fire;
pub mod mechanics;
pub mod outcome;
pub mod rally;
mod reference;
pub mod reliability;
pub mod revision;
pub mod table_battle;

use std::collections::BTreeSet;

use serde::Deserialize;

use crate::rules::card::Card;
use crate::rules::error::RulesError;
use crate::rules::force::{Budget, CardRef, Force, ForceUnit};
use crate::rules::force_file::{check_card_name, parse_inline_fields};
use crate::rules::reference::{Table, Tags};
use crate::rules::registry::{About, Book, BookSource, Embedded, embedded, load_seed};
use crate::rules::ruleset::{Briefing, NamedBudget, PresetForce, Ruleset, RulesetId, UnitBoxes};
use crate::rules::validation::{
    BudgetCheck, BudgetReport, Fix, Totals, Violation, amount, wrong_budget_kind,
};

pub use battle_groups::{BattleGroup, Company, Deployment, FirstPulse};
pub use cards::{FireKind, MoveClass, Reaction, Side, SideName, SpecialRule, UnitCard, UnitKind};

const TITLE: &str = "Armour Battles";
const SEED: Embedded = embedded!("db/seed/armour_battles.json");

#[derive(Deserialize)]
struct Data {
    /// The move rates: the cards' move classes say the same (nothing reads the table yet), but
    /// the seed keeps the book's numbers together.
    #[allow(dead_code)]
    moves: serde_json::Value,
    battle_groups: Vec<BattleGroup>,
    fire: fire::FireRules,
    artillery: artillery::ArtilleryRules,
    rally_table: rally::RallyTable,
}

/// What the book is.
const ABOUT: About = About {
    id: RulesetId::ArmourBattles,
    title: TITLE,
    summary: "WWII platoon-scale armour; command dice and dice chains; the Lorraine 1944 campaign.",
};

static DATA: Book<Data> = Book::new(ABOUT, || {
    let book = load_seed::<Data, UnitCard>(SEED, Card::ArmourBattles)?;
    let checks = [book.tables.fire.check(), book.tables.rally_table.check()];
    match checks.into_iter().find_map(Result::err) {
        Some(message) => Err(RulesError::Seed {
            file: SEED.path,
            message,
        }),
        None => Ok(book),
    }
});

/// The six Lorraine battle groups in briefing order.
pub fn battle_groups() -> &'static [BattleGroup] {
    DATA.tables().map_or(&[], |d| d.battle_groups.as_slice())
}

/// The battle group with id `id` (`lorraine-1-german`).
pub fn battle_group(id: &str) -> Option<&'static BattleGroup> {
    battle_groups()
        .iter()
        .find(|g| g.id.eq_ignore_ascii_case(id.trim()))
}

/// The fire modifiers and fire-result numbers (RULINGS "Direct fire", "Fire result").
pub fn fire_rules() -> Result<&'static fire::FireRules, RulesError> {
    DATA.loaded().map(|d| &d.fire)
}

/// The artillery numbers (RULINGS "Artillery").
pub fn artillery_rules() -> Result<&'static artillery::ArtilleryRules, RulesError> {
    DATA.loaded().map(|d| &d.artillery)
}

/// The Rally Table (RULINGS "Rally Table": house defaults, the book's table was lost).
pub fn rally_table() -> Result<&'static rally::RallyTable, RulesError> {
    DATA.loaded().map(|d| &d.rally_table)
}

/// The Armour Battles card answering to `name` (full or short name, any case).
pub fn unit_card(name: &str) -> Option<&'static UnitCard> {
    ArmourBattles.library().iter().find_map(|card| match card {
        Card::ArmourBattles(unit) if card.answers_to(name) => Some(unit),
        _ => None,
    })
}

/// A book battle group as a force, one line per card per company.
pub fn preset_force(id: &str) -> Result<Force, RulesError> {
    let group = battle_group(id).ok_or_else(|| RulesError::UnknownPreset(id.to_string()))?;
    let mut units: Vec<ForceUnit> = Vec::new();
    for company in &group.companies {
        for card in &company.units {
            match units
                .iter_mut()
                .find(|u| u.card.name() == card && u.group.as_deref() == Some(&company.name))
            {
                Some(unit) => unit.count += 1,
                None => units.push(ForceUnit {
                    group: Some(company.name.clone()),
                    ..ForceUnit::library(card.clone(), 1)
                }),
            }
        }
    }
    Ok(Force {
        ruleset: RulesetId::ArmourBattles,
        name: group.title(),
        budget: Budget::BattleGroup(group.id.clone()),
        units,
        notes: group.briefing_line(),
    })
}

/// The Armour Battles ruleset.
pub struct ArmourBattles;

impl Ruleset for ArmourBattles {
    fn book(&self) -> &'static dyn BookSource {
        &DATA
    }

    fn rules_revision(&self) -> u32 {
        revision::CURRENT
    }

    fn revision_note(&self, number: u32, kind: &str) -> Option<String> {
        revision::describe(number, kind)
    }

    fn new_card(&self) -> Card {
        let mut card = UnitCard {
            name: "New unit".into(),
            short_names: Vec::new(),
            side: Side::First,
            kind: UnitKind::Afv,
            weight: None,
            move_class: None,
            reaction: None,
            weapon: "75mm Gun".into(),
            range: None,
            at_dice: 7,
            cohesion: 3,
            special_rules: Vec::new(),
        };
        card.keep_consistent();
        Card::ArmourBattles(card)
    }

    fn parse_inline_card(&self, value: &serde_json::Value, path: &str) -> Result<Card, RulesError> {
        let card: UnitCard = parse_inline_fields(value, path)?;
        check_card_name(&card.name, path)?;
        if let Some(r) = card.range
            && !(r.short < r.effective && r.effective < r.long)
        {
            return Err(RulesError::field(
                format!("{path}.range"),
                format!(
                    "{}/{}/{}: short, effective and long range must each be longer than the last",
                    r.short, r.effective, r.long
                ),
            ));
        }
        Ok(Card::ArmourBattles(card))
    }

    fn mechanics(&self) -> &'static [crate::rules::resolution::Mechanic] {
        &mechanics::MECHANICS
    }

    fn table_battle(&self) -> Option<crate::rules::battle::table::TableEngine> {
        Some(crate::rules::battle::table::TableEngine::of::<
            table_battle::ArmourBattlesBattle,
        >())
    }

    fn default_budget(&self) -> Budget {
        Budget::BattleGroup("lorraine-1-us".to_string())
    }

    fn named_budgets(&self) -> Vec<NamedBudget> {
        battle_groups()
            .iter()
            .map(|g| NamedBudget {
                budget: Budget::BattleGroup(g.id.clone()),
                title: g.title(),
                detail: format!("{} — {}", g.mission, g.time),
            })
            .collect()
    }

    fn preset_forces(&self) -> Vec<PresetForce> {
        battle_groups()
            .iter()
            .map(|g| PresetForce {
                id: g.id.clone(),
                title: g.title(),
                collection: "Lorraine 1944",
                summary: format!("{}, {} units", g.mission, g.units),
                help: format!("{} — {}", g.mission, g.time),
            })
            .collect()
    }

    fn preset_force(&self, id: &str) -> Option<Force> {
        preset_force(id).ok()
    }

    fn briefing(&self, budget: &Budget) -> Option<Briefing> {
        let Budget::BattleGroup(id) = budget else {
            return None;
        };
        battle_group(id).map(briefing)
    }

    fn known_tags(&self) -> BTreeSet<String> {
        reference::known_tags()
    }

    fn budget_tags(&self, budget: &Budget, tags: &mut BTreeSet<String>) {
        reference::budget_tags(budget, tags);
    }

    fn reference_sources(&self) -> &'static [&'static str] {
        &reference::SOURCES
    }

    fn reference_table(&self, source: &str, tags: Tags<'_>) -> Option<Table> {
        reference::table(source, tags)
    }

    fn warnings(&self, force: &Force, cards: &[Option<&Card>]) -> Vec<String> {
        let Budget::BattleGroup(id) = &force.budget else {
            return Vec::new();
        };
        battle_group(id)
            .and_then(|group| shortfall_warning(force, cards, group))
            .into_iter()
            .collect()
    }

    fn check_budget(&self, force: &Force, cards: &[Option<&Card>]) -> BudgetCheck {
        let totals = Totals {
            units: force.unit_count(),
            ..Totals::default()
        };
        let Budget::BattleGroup(id) = &force.budget else {
            return BudgetCheck {
                totals,
                budget: BudgetReport {
                    kind: force.budget.kind(),
                    unit: "units",
                    used: force.unit_count(),
                    ..BudgetReport::default()
                },
                violations: vec![wrong_budget_kind(
                    force,
                    "a mission battle group (e.g. lorraine-1-german)",
                )],
            };
        };
        let mut budget = BudgetReport {
            kind: "battle_group",
            id: Some(id.clone()),
            used: force.unit_count(),
            unit: "units",
            ..BudgetReport::default()
        };
        let Some(group) = battle_group(id) else {
            let known: Vec<&str> = battle_groups().iter().map(|g| g.id.as_str()).collect();
            return BudgetCheck {
                totals,
                budget,
                violations: vec![Violation::new(
                    "unknown_battle_group",
                    format!("No battle group '{id}' — known: {}", known.join(", ")),
                )],
            };
        };
        budget.limit = Some(u64::from(group.units));
        let violations = composition_violations(force, cards, group);
        BudgetCheck {
            totals,
            budget,
            violations,
        }
    }
}

/// A battle group's briefing as a roster prints it: its numbers, tick boxes for army morale
/// and staff orders, and per unit its disruption (its cohesion), suppression and dispersal.
fn briefing(group: &BattleGroup) -> Briefing {
    let mut numbers = vec![
        ("Units", group.units.to_string()),
        ("Command dice", group.command_dice.to_string()),
        (
            "Staff orders",
            format!(
                "{} (store up to {})",
                group.staff_orders, group.command_dice
            ),
        ),
        ("Rally dice", group.rally_dice.to_string()),
    ];
    if let Some(dice) = group.artillery_response_dice {
        numbers.push(("Artillery response dice", dice.to_string()));
    }
    numbers.push(("Army morale", group.army_morale.to_string()));
    let line = numbers
        .iter()
        .map(|(label, value)| format!("{label} {value}"))
        .collect::<Vec<_>>()
        .join(" · ");
    let deployments: Vec<String> = group
        .companies
        .iter()
        .map(|c| format!("{}: {}", c.name, c.deployment.label()))
        .collect();
    Briefing {
        title: group.title(),
        paragraphs: vec![
            (
                false,
                format!("{} · {} · {}", group.mission, group.time, group.place),
            ),
            (true, line),
            (
                false,
                format!("First pulse: {}.", group.first_pulse.label()),
            ),
            (false, format!("Victory: {}", group.victory())),
            (false, format!("Deployment — {}.", deployments.join("; "))),
        ],
        tallies: vec![
            ("Army morale".to_string(), group.army_morale),
            ("Staff orders held".to_string(), group.command_dice),
        ],
        unit_columns: vec![
            ("Disruption", UnitBoxes::FromStat("Cohesion", 3)),
            ("Suppressed", UnitBoxes::Fixed(1)),
            ("Dispersed", UnitBoxes::Fixed(1)),
        ],
        untracked: "off table: never disrupted",
        notes_line: group.briefing_line(),
    }
}

/// The briefing's cards the force leaves out: "Lorraine Battle 3 German: Tiger I missing — 13
/// of 14 units". The book plays each battle with its briefing's forces, so a short force is
/// worth a warning, but fielding fewer is no breach.
fn shortfall_warning(
    force: &Force,
    cards: &[Option<&Card>],
    group: &BattleGroup,
) -> Option<String> {
    let fielded = |name: &str| -> u64 {
        force
            .units
            .iter()
            .zip(cards)
            .filter(|(unit, card)| match (&unit.card, card) {
                (CardRef::Inline(_), Some(_)) => unit.card.name() == name,
                (CardRef::Library(_), Some(card)) => card.name() == name,
                (_, None) => false,
            })
            .map(|(unit, _)| u64::from(unit.count))
            .sum()
    };
    let missing: Vec<String> = group
        .card_names()
        .into_iter()
        .filter_map(|name| {
            let short = u64::from(group.count_of(name)).saturating_sub(fielded(name));
            match short {
                0 => None,
                1 => Some(name.to_string()),
                n => Some(format!("{n} × {name}")),
            }
        })
        .collect();
    if missing.is_empty() {
        return None;
    }
    Some(format!(
        "{}: {} missing — {} of {}",
        group.title(),
        missing.join(", "),
        force.unit_count(),
        amount(u64::from(group.units), "units")
    ))
}

/// Each card fielded more often than the group allows, and the unit total.
fn composition_violations(
    force: &Force,
    cards: &[Option<&Card>],
    group: &BattleGroup,
) -> Vec<Violation> {
    // Tally by the card's book name so "Puma" and the full name count together.
    let mut tally: Vec<(&str, u64, usize)> = Vec::new();
    for (index, (unit, card)) in force.units.iter().zip(cards).enumerate() {
        let Some(card) = card else { continue };
        let name = match &unit.card {
            CardRef::Inline(_) => unit.card.name(),
            CardRef::Library(_) => card.name(),
        };
        match tally.iter_mut().find(|(n, _, _)| *n == name) {
            Some(entry) => {
                entry.1 += u64::from(unit.count);
                entry.2 = index;
            }
            None => tally.push((name, u64::from(unit.count), index)),
        }
    }
    let title = group.title();
    let mut violations = Vec::new();
    for (name, fielded, last_index) in tally {
        let allowed = u64::from(group.count_of(name));
        if fielded <= allowed {
            continue;
        }
        let extra = fielded - allowed;
        // A custom card is named as one ("Sherman · custom"), never as the book's.
        let name = force.units[last_index].card.label();
        let name = match &force.units[last_index].card {
            CardRef::Library(_) => group_card_name(name, cards[last_index]),
            CardRef::Inline(_) => name,
        };
        let message = if allowed == 0 {
            format!("{fielded} {name}: {title} has none — remove {extra}")
        } else {
            format!("{fielded} {name}: {title} allows {allowed} — remove {extra}")
        };
        let by =
            u32::try_from(extra.min(u64::from(force.units[last_index].count))).unwrap_or(u32::MAX);
        violations.push(
            Violation::new("composition", message).with_fix(Fix::Reduce {
                unit: last_index,
                by,
            }),
        );
    }
    let total = force.unit_count();
    if total > u64::from(group.units) {
        violations.push(Violation::new(
            "unit_count",
            format!(
                "{total} units: {title} has {} — remove {}",
                group.units,
                total - u64::from(group.units)
            ),
        ));
    }
    violations
}

#[cfg(test)]
mod tests;

/// The book's name of a library line's card ("Puma" is counted and named as the full card).
fn group_card_name(written: String, card: Option<&Card>) -> String {
    card.map_or(written, |c| c.name().to_string())
}
