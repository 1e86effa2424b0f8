//! A unit's whole fire against the sheets' numbers: who carries what, the odds of a Regular
//! squad (8 rifles and an LMG team) counted by hand, the same fire rolled with typed dice, and
//! rifle hits that cannot pin a tank.

use super::*;
use crate::rules::dice::TableDice;
use crate::rules::resolution::{CardPick, InputValue, Inputs, Value, mechanic};
use crate::rules::{Card, RulesetId, ruleset};

fn profile(name: &str) -> UnitProfile {
    match ruleset(RulesetId::BoltAction)
        .library()
        .iter()
        .find(|c| c.name() == name)
    {
        Some(Card::BoltAction(p)) => p.clone(),
        _ => panic!("no book card {name}"),
    }
}

fn loadout_of(name: &str, models: u32) -> Vec<(String, u32)> {
    loadout(&profile(name), models)
        .into_iter()
        .map(|(w, n)| (w.name.clone(), n))
        .collect()
}

fn owned(pairs: &[(&str, u32)]) -> Vec<(String, u32)> {
    pairs.iter().map(|(w, n)| ((*w).to_string(), *n)).collect()
}

const RIFLE: &str = "Rifle";
const LMG: &str = "Light Machine Gun (LMG)";
const SMG: &str = "Submachine Gun (SMG)";

#[test]
fn each_model_carries_one_weapon_the_lmg_team_two() {
    // RULINGS "Board battles": the LMG team's 3 shots, the loader firing nothing.
    assert_eq!(
        loadout_of("Regular Infantry Squad", 10),
        owned(&[(RIFLE, 8), (LMG, 1)])
    );
    assert_eq!(
        loadout_of("Veteran Infantry Squad", 10),
        owned(&[(RIFLE, 7), (SMG, 1), (LMG, 1)])
    );
    // Casualties fall on the riflemen first, then on the team's loader.
    assert_eq!(
        loadout_of("Regular Infantry Squad", 3),
        owned(&[(RIFLE, 1), (LMG, 1)])
    );
    assert_eq!(loadout_of("Regular Infantry Squad", 1), owned(&[(LMG, 1)]));
    assert_eq!(
        loadout_of("Veteran Infantry Squad", 2),
        owned(&[(SMG, 1), (LMG, 1)])
    );
    assert!(loadout_of("Regular Infantry Squad", 0).is_empty());
    // A vehicle fires each weapon once; a team weapon's crew fires it once.
    assert_eq!(
        loadout_of("Medium Tank", 1),
        owned(&[("Medium AT gun", 1), ("Medium Machine Gun (MMG)", 1)])
    );
    assert_eq!(
        loadout_of("MMG Team", 3),
        owned(&[("Medium Machine Gun (MMG)", 1)])
    );
}

fn card(name: &str) -> InputValue {
    let card = ruleset(RulesetId::BoltAction)
        .library()
        .iter()
        .find(|c| c.name() == name)
        .unwrap_or_else(|| panic!("no book card {name}"));
    InputValue::Card(Some(CardPick::book(card)))
}

/// The shooting mechanic's inputs for `unit`'s whole fire, `models` strong, at `target`.
fn whole_fire(unit: &str, models: i64, target: &str) -> Inputs {
    let shooting = mechanic(RulesetId::BoltAction, "shooting").unwrap();
    let mut inputs = shooting.defaults();
    inputs.set("unit", card(unit));
    inputs.set("weapon", InputValue::Choice("unit"));
    inputs.set("firers", InputValue::Count(models));
    inputs.set("target", card(target));
    inputs
}

fn number(report: &crate::rules::resolution::Report, key: &str) -> f64 {
    match report.get(key) {
        Some(Value::Number(x)) => *x,
        other => panic!("{key}: {other:?}"),
    }
}

#[test]
fn a_regular_squads_odds_count_eight_rifle_shots_and_the_lmgs_three() {
    // Sheet 004: 3+ to hit (4 in 6), a Regular squad's damage value 4+ with no PEN (3 in 6):
    // each of the 11 shots hits with 2/3 and kills with 1/3.
    let shooting = mechanic(RulesetId::BoltAction, "shooting").unwrap();
    let inputs = whole_fire("Regular Infantry Squad", 10, "Regular Infantry Squad");
    let report = shooting.answer(&inputs, None).unwrap();
    assert!((number(&report, "expected_hits") - 22.0 / 3.0).abs() < 1e-12);
    assert!((number(&report, "expected_casualties") - 11.0 / 3.0).abs() < 1e-12);
    let hits = report.distribution("hits").unwrap();
    let none = hits.probability(0);
    assert!((none - (1.0f64 / 3.0).powi(11)).abs() < 1e-15, "{none}");
    // One pin for the unit's fire, however many weapons hit.
    let pins = report.distribution("pins").unwrap();
    assert_eq!(pins.bars().len(), 2, "{:?}", pins.bars());
    assert!((pins.probability(1) - (1.0 - (1.0f64 / 3.0).powi(11))).abs() < 1e-12);
    assert!(report.estimate.is_none(), "exact");
}

#[test]
fn the_whole_fire_rolls_the_rifles_then_the_lmg() {
    let shooting = mechanic(RulesetId::BoltAction, "shooting").unwrap();
    let inputs = whole_fire("Regular Infantry Squad", 10, "Regular Infantry Squad");
    // Rifles: 8 dice, 5 hit on 3+; 3 of 5 damage on 4+. LMG: 3 dice, 2 hit; 1 damages.
    let dice = TableDice::new()
        .with("to_hit", vec![6, 6, 5, 4, 3, 2, 1, 1])
        .with("damage", vec![6, 5, 4, 1, 1])
        .with("to_hit", vec![6, 2, 5])
        .with("damage", vec![4, 3]);
    let report = shooting.resolve_roll(&inputs, dice).unwrap();
    let count = |key: &str| match report.get(key) {
        Some(Value::Count(n)) => *n,
        other => panic!("{key}: {other:?}"),
    };
    assert_eq!(
        (
            count("shots"),
            count("hits"),
            count("damaging_hits"),
            count("pins")
        ),
        (11, 7, 4, 1)
    );
}

#[test]
fn rifle_hits_cannot_pin_a_tank_only_its_damage_results_do() {
    // An Inexperienced squad: 4+ to hit (3+ less 1), and against armour a rifle (no PEN)
    // damages on a natural 6 only: 1 in 12 a shot. The tank is pinned only through a damage
    // result, so it stays unpinned with (11/12)^10 (RULINGS "Board battles", house default).
    let shooting = mechanic(RulesetId::BoltAction, "shooting").unwrap();
    let inputs = whole_fire("Inexperienced Infantry Squad", 10, "Medium Tank");
    let report = shooting.answer(&inputs, None).unwrap();
    let pins = report.distribution("pins").unwrap();
    let unpinned = pins.probability(0);
    assert!(
        (unpinned - (11.0f64 / 12.0).powi(10)).abs() < 1e-12,
        "{unpinned}"
    );
    assert!(
        report
            .house_defaults
            .iter()
            .any(|r| r.ruling.contains("only when its weapon could damage it"))
    );
}
