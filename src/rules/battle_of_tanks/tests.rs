//! The eight Panzerkarten, typed from the book.

// Book tables read best as rows of tuples.
#![allow(clippy::type_complexity)]

use super::*;
use crate::rules::force::ForceUnit;
use crate::rules::validation::validate;

/// (name, tier, HP, movement, sight, spotting, accuracy, fire rate, firepower, repair)
const BOOK: [(&str, u32, u32, u32, u32, u8, u8, u32, u32, u8); 8] = [
    ("Pz.Kpfw. II Luchs", 4, 310, 60, 100, 1, 3, 10, 30, 3),
    ("AMX 12t", 6, 580, 60, 100, 1, 2, 4, 110, 3),
    ("T-80", 4, 350, 60, 100, 1, 2, 6, 50, 3),
    ("EBR 75 FL 10", 8, 950, 70, 80, 1, 1, 2, 170, 2),
    ("T-34-85M", 6, 720, 40, 80, 2, 3, 1, 180, 3),
    ("IS-2", 7, 1280, 20, 60, 3, 3, 1, 390, 3),
    ("Tiger I", 7, 1400, 20, 60, 3, 2, 2, 160, 4),
    ("E-25", 7, 830, 50, 90, 1, 1, 2, 140, 2),
];

#[test]
fn all_eight_cards_match_the_book() {
    let library = BattleOfTanks.library();
    assert_eq!(library.len(), 8);
    for (card, row) in library.iter().zip(BOOK) {
        let Card::BattleOfTanks(t) = card else {
            panic!("wrong ruleset")
        };
        let (name, tier, hp, mv, sight, spot, acc, rate, fp, repair) = row;
        assert_eq!(t.name, name);
        assert_eq!(
            (
                t.tier,
                t.hit_points,
                t.movement_cm,
                t.sight_cm,
                t.spotting,
                t.accuracy,
                t.fire_rate,
                t.firepower,
                t.repair
            ),
            (tier, hp, mv, sight, spot, acc, rate, fp, repair),
            "{name}"
        );
        assert_eq!(card.stats().len(), 9, "{name}: nine values on the card");
    }
}

#[test]
fn the_books_tier_example_leaves_10_of_20() {
    // 20 tier points: a T-34-85M (6) and a Luchs (4) leave 10.
    let mut force = Force::new(RulesetId::BattleOfTanks, "Example");
    force.budget = Budget::TierPoints(20);
    force.units.push(ForceUnit::library("T-34-85M", 1));
    force.units.push(ForceUnit::library("Luchs", 1));
    let v = validate(&force);
    assert!(v.legal);
    assert_eq!(v.totals.tier_points, Some(10));
}

#[test]
fn going_over_the_tier_points_is_a_violation() {
    let mut force = Force::new(RulesetId::BattleOfTanks, "Heavy");
    force.budget = Budget::TierPoints(20);
    force.units.push(ForceUnit::library("Tiger I", 2));
    force.units.push(ForceUnit::library("IS-2", 1));
    let v = validate(&force);
    assert!(!v.legal);
    assert_eq!(v.violations[0].rule, "over_budget");
    assert_eq!(
        v.violations[0].message,
        "Force costs 21 tier points: the limit is 20 — remove 1 tier point (e.g. 1 Tiger I)"
    );
}

#[test]
fn the_fix_for_a_force_far_over_its_tier_points_removes_enough() {
    // Luchs (4) + 3 × T-34-85M (6) = 22 at a 10-point limit: one T-34 is not enough.
    let mut force = Force::new(RulesetId::BattleOfTanks, "Over");
    force.budget = Budget::TierPoints(10);
    force.units.push(ForceUnit::library("Luchs", 1));
    force.units.push(ForceUnit::library("T-34-85M", 3));
    let v = validate(&force);
    let violation = &v.violations[0];
    assert_eq!(
        violation.message,
        "Force costs 22 tier points: the limit is 10 — remove 12 tier points (e.g. 2 T-34-85M)"
    );
    let mut fixed = force.clone();
    let label = violation.fix.as_ref().and_then(|fix| fix.apply(&mut fixed));
    assert_eq!(label.as_deref(), Some("Remove 2 T-34-85M"));
    assert!(validate(&fixed).legal, "{:?}", validate(&fixed).violations);
    assert_eq!(validate(&fixed).totals.tier_points, Some(10));
}

#[test]
fn a_fix_spanning_lines_names_each_and_mends_the_force() {
    // 4 + 6 + 7 = 17 at a limit of 4: 13 over needs two units, and the least overshoot is
    // T-34-85M + Tiger I (13) rather than two of anything else.
    let mut force = Force::new(RulesetId::BattleOfTanks, "Spread");
    force.budget = Budget::TierPoints(4);
    force.units.push(ForceUnit::library("Luchs", 1));
    force.units.push(ForceUnit::library("T-34-85M", 1));
    force.units.push(ForceUnit::library("Tiger I", 1));
    let v = validate(&force);
    let violation = &v.violations[0];
    assert!(
        violation
            .message
            .ends_with("(e.g. 1 T-34-85M and 1 Tiger I)")
    );
    let mut fixed = force.clone();
    violation.fix.as_ref().and_then(|fix| fix.apply(&mut fixed));
    assert!(validate(&fixed).legal);
    assert_eq!(fixed.units.len(), 1);
}
