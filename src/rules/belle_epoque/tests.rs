//! Numbers from the Belle Epoque rules.

use super::*;
use crate::rules::force::ForceUnit;
use crate::rules::validation::validate;

fn t() -> &'static Tables {
    tables().unwrap()
}

#[test]
fn mustering_limits() {
    let limits: Vec<(UnitKind, u32)> = t()
        .unit_kinds
        .iter()
        .map(|k| (k.kind, k.max_stands))
        .collect();
    assert_eq!(
        limits,
        [
            (UnitKind::Cavalry, 3),
            (UnitKind::MountedInfantry, 3),
            (UnitKind::FormedInfantry, 4),
            (UnitKind::Tribesmen, 6)
        ]
    );
    let marches: Vec<u32> = t().unit_kinds.iter().map(|k| k.march).collect();
    assert_eq!(marches, [4, 3, 2, 3]);
}

#[test]
fn the_fire_table() {
    use TroopType::*;
    // Rows as printed: to-hit at 1/2/3/4 UD, moving in brackets, '-' none.
    let row = |tt| t().troop_type(tt).unwrap().fire_row_label();
    assert_eq!(row(A), "5 (3) · 4 (2) · 3 (1) · 2");
    assert_eq!(row(B), "5 (3) · 4 (1) · 2 · 1");
    assert_eq!(row(C), "4 (2) · 3 · 1 · –");
    assert_eq!(row(D), "3 (1) · 2 · 2 · 1");
    assert_eq!(row(E), "3 · 2 · 1 · –");
    assert_eq!(row(F), "2 · 1 · 1 · –");
    assert_eq!(row(G), "1 · – · – · –");
    assert_eq!(t().to_hit(B, 2, false), Some(4));
    assert_eq!(t().to_hit(B, 2, true), Some(1));
    assert_eq!(t().to_hit(C, 2, true), None);
    assert_eq!(t().to_hit(A, 5, false), None);
}

#[test]
fn reactivity_assault_traits_and_command_dice() {
    assert_eq!(t().basic_score(Reactivity::Poor, Doctrine::Loose), Some(1));
    assert_eq!(t().basic_score(Reactivity::Poor, Doctrine::Close), Some(2));
    assert_eq!(
        t().basic_score(Reactivity::Trained, Doctrine::Close),
        Some(3)
    );
    assert_eq!(t().basic_score(Reactivity::Elite, Doctrine::Loose), Some(3));
    assert_eq!(t().basic_score(Reactivity::Elite, Doctrine::Close), Some(4));
    let levels: Vec<u8> = t()
        .assault_levels
        .iter()
        .map(|a| a.successful_scores)
        .collect();
    assert_eq!(levels, [2, 3, 4]);
    let traits: Vec<Trait> = t().traits.iter().map(|tr| tr.trait_).collect();
    assert_eq!(
        traits,
        [
            Trait::Bold,
            Trait::Dashing,
            Trait::Stubborn,
            Trait::Choc,
            Trait::Militia,
            Trait::Conspicuous
        ]
    );
    assert_eq!(t().command_die("mediocre"), Some(4));
    assert_eq!(t().command_die("average"), Some(6));
    assert_eq!(t().command_die("superior"), Some(8));
    assert_eq!(t().stands_per_command_die, 8);
    let encounter = t().scenario("encounter").unwrap();
    assert_eq!((encounter.min_stands, encounter.max_stands), (24, 36));
    assert_eq!((encounter.board_width, encounter.board_depth), (13, 9));
}

fn force_of(units: Vec<ForceUnit>) -> Force {
    Force {
        units,
        ..Force::new(RulesetId::BelleEpoque, "Column")
    }
}

#[test]
fn an_encounter_force_needs_24_to_36_stands() {
    // 6 close-order regular battalions of 4 stands = 24: legal, 3 command dice.
    let v = validate(&force_of(vec![ForceUnit::library(
        "Regular Infantry (close order)",
        6,
    )]));
    assert!(v.legal, "{:?}", v.violations);
    assert_eq!(v.totals.stands, Some(24));
    assert_eq!(v.totals.command_dice, Some(3));
    let v = validate(&force_of(vec![ForceUnit::library("Cavalry", 5)]));
    assert_eq!(
        v.violations[0].message,
        "15 stands: the Encounter scenario wants 24–36 a side — add 9"
    );
}

#[test]
fn units_over_the_mustering_limit_are_named() {
    let units = vec![
        ForceUnit {
            stands: Some(7),
            ..ForceUnit::library("Zulu Warriors", 1)
        },
        ForceUnit::library("Regular Infantry (close order)", 5),
    ];
    let v = validate(&force_of(units));
    assert_eq!(
        v.violations[0].message,
        "Zulu Warriors has 7 stands: tribesmen (native warriors) units muster at most 6 — remove 1 stand"
    );
    assert_eq!(
        v.violations.len(),
        1,
        "27 stands is inside the encounter range"
    );
}
