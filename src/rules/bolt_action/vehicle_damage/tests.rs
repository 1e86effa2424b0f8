//! Damage results on vehicles checked against enumeration of every die, with the sheet's
//! procedure written out again here (not through [`VehicleAfter::apply`]): each Crew
//! Stunned, Immobilised or On Fire adds a pin, a second Immobilised knocks out, On Fire checks
//! 2d6 ≤ morale − pins.

use std::collections::BTreeMap;

use super::*;
use crate::rules::bolt_action::resolve::{Attack, TargetProfile, attack_odds, roll_attack};
use crate::rules::bolt_action::tables;
use crate::rules::bolt_action::{Category, Quality};
use crate::rules::dice::Roller;
use crate::rules::dice::test_support::for_each_d6s;

/// The damage table: ≤1 Crew Stunned, 2 Immobilised, 3 On Fire, 4+ Knocked Out.
fn table(roll: i32) -> DamageEffect {
    match roll {
        i32::MIN..=1 => DamageEffect::CrewStunned,
        2 => DamageEffect::Immobilised,
        3 => DamageEffect::OnFire,
        _ => DamageEffect::KnockedOut,
    }
}

/// The sheet's procedure for `results` faces, each with its own pair of check dice (used only
/// when an On Fire check is rolled): (knocked out, immobilised, pins).
fn by_hand(
    morale: i32,
    mut pins: i32,
    mut immobilised: bool,
    results: &[i32],
    checks: &[(u32, u32)],
) -> (bool, bool, i32) {
    let mut knocked_out = false;
    for (&roll, &(a, b)) in results.iter().zip(checks) {
        let effect = table(roll);
        if effect != DamageEffect::KnockedOut {
            pins += 1;
        }
        if knocked_out {
            continue;
        }
        match effect {
            DamageEffect::KnockedOut => knocked_out = true,
            DamageEffect::Immobilised => {
                knocked_out = immobilised;
                immobilised = true;
            }
            DamageEffect::OnFire => knocked_out = (a + b) as i32 > morale - pins,
            DamageEffect::CrewStunned => {}
        }
    }
    (knocked_out, immobilised, pins)
}

fn summary(v: &VehicleAfter) -> (bool, bool, i32) {
    (v.knocked_out.is_some(), v.immobilised, v.pins as i32)
}

fn same_ratio<K: Ord + std::fmt::Debug>(exact: &Dist<K>, brute: &BTreeMap<K, u128>, what: &str) {
    let total: u128 = brute.values().sum();
    let keys: Vec<&K> = exact.iter().map(|(k, _)| k).collect();
    let brute_keys: Vec<&K> = brute.keys().collect();
    assert_eq!(keys, brute_keys, "{what}");
    for (k, w) in exact.iter() {
        assert_eq!(w * total, brute[k] * exact.total(), "{what}: {k:?}");
    }
}

#[test]
fn results_in_sequence_match_enumeration() {
    for superficial in [false, true] {
        let shift = if superficial { -3 } else { 0 };
        let per_result = d6().map(|&f| table(f as i32 + shift));
        for n in 0..=2usize {
            for morale in [8, 9, 10] {
                for pins in 0..=3 {
                    for immobilised in [false, true] {
                        let start = VehicleAfter::new(morale as u8, pins, immobilised);
                        let exact = after_results_odds(start, &per_result, n as u32)
                            .unwrap()
                            .map(summary);
                        let mut brute = BTreeMap::new();
                        for_each_d6s(3 * n, &mut |f| {
                            let results: Vec<i32> =
                                f[..n].iter().map(|&r| r as i32 + shift).collect();
                            let checks: Vec<(u32, u32)> =
                                f[n..].chunks(2).map(|c| (c[0], c[1])).collect();
                            let key = by_hand(morale, pins as i32, immobilised, &results, &checks);
                            *brute.entry(key).or_insert(0u128) += 1;
                        });
                        let what = format!("{n} results, morale {morale}, {pins} pins");
                        same_ratio(&exact, &brute, &what);
                    }
                }
            }
        }
    }
}

#[test]
fn three_results_match_enumeration() {
    let per_result = d6().map(|&f| table(f as i32));
    let start = VehicleAfter::new(9, 1, false);
    let exact = after_results_odds(start, &per_result, 3)
        .unwrap()
        .map(summary);
    let mut brute = BTreeMap::new();
    for_each_d6s(9, &mut |f| {
        let results: Vec<i32> = f[..3].iter().map(|&r| r as i32).collect();
        let checks: Vec<(u32, u32)> = f[3..].chunks(2).map(|c| (c[0], c[1])).collect();
        *brute
            .entry(by_hand(9, 1, false, &results, &checks))
            .or_insert(0u128) += 1;
    });
    same_ratio(&exact, &brute, "three results");
}

#[test]
fn a_bazooka_knocks_out_a_medium_tank_one_time_in_about_five() {
    // Issue 20's figure: 3+ to hit, d6 + 5 ≥ 9 to damage, then the damage table. On Fire
    // (a 3) puts a second pin on the tank (the hit's and its own): a Regular crew (9) passes
    // on 2d6 ≤ 7, failing 15 in 36.
    let tank = TargetProfile::of_category(Category::MediumTank, Quality::Regular).unwrap();
    let bazooka = tables().unwrap().weapon("Bazooka").unwrap();
    let odds = attack_odds(&Attack::new(bazooka, tank)).unwrap();
    assert!(odds.estimate.is_none());
    let mut knocked_out = 0u128;
    let mut all = 0u128;
    for_each_d6s(5, &mut |f| {
        all += 1;
        let (to_hit, damage, result, a, b) = (f[0], f[1], f[2], f[3], f[4]);
        if to_hit >= 3 && damage + 5 >= 9 {
            let pins_at_check = 2;
            knocked_out += u128::from(result >= 4 || (result == 3 && a + b > 9 - pins_at_check));
        }
    });
    let vehicle = odds.vehicle.as_ref().unwrap();
    let ko = vehicle.weight_where(|v| v.knocked_out.is_some());
    assert_eq!(ko * all, knocked_out * vehicle.total());
    let expected = 1.0 / 6.0 + 1.0 / 18.0 * 15.0 / 36.0;
    assert!((odds.p_knocked_out() - expected).abs() < 1e-12);
    assert_eq!(format!("{:.1}", odds.p_knocked_out() * 100.0), "19.0");
    // The crew abandon it one time in 18 × 36 / 15.
    let fate = odds.vehicle_fate().unwrap();
    let abandoned = VehicleFate::KnockedOut {
        cause: KnockOut::Abandoned,
    };
    assert!((fate.probability(&abandoned) - 15.0 / (18.0 * 36.0)).abs() < 1e-12);
    // Pins: none on a miss; the hit's one; two with any result but Knocked Out.
    assert_eq!(odds.pins.probability(&0), 1.0 / 3.0);
    assert!((odds.pins.probability(&2) - 1.0 / 3.0 * 3.0 / 6.0).abs() < 1e-12);
}

#[test]
fn pins_already_on_the_tank_count_against_its_check() {
    let tank = TargetProfile::of_category(Category::MediumTank, Quality::Veteran).unwrap();
    let bazooka = tables().unwrap().weapon("Bazooka").unwrap();
    for target_pins in 0..=4u32 {
        let attack = Attack {
            target_pins,
            ..Attack::new(bazooka, tank)
        };
        let odds = attack_odds(&attack).unwrap();
        // Veteran morale 10, less the old pins, the hit's and On Fire's.
        let target = 10 - target_pins as i32 - 2;
        let fails = (1..=6)
            .flat_map(|a| (1..=6).map(move |b| a + b))
            .filter(|&t| t > target)
            .count() as f64;
        let expected = 1.0 / 6.0 + 1.0 / 18.0 * fails / 36.0;
        assert!(
            (odds.p_knocked_out() - expected).abs() < 1e-12,
            "{target_pins} pins"
        );
    }
}

#[test]
fn a_roll_counts_a_pin_per_result_and_says_how_the_vehicle_ends() {
    // Issue 20's roll: three vehicle flamethrowers at a medium tank.
    let tank = TargetProfile::of_category(Category::MediumTank, Quality::Regular).unwrap();
    let flamer = tables().unwrap().weapon("Flamethrower (vehicle)").unwrap();
    let attack = Attack {
        firers: 3,
        ..Attack::new(flamer, tank)
    };
    for seed in 0..300 {
        let roll = roll_attack(&attack, &mut Roller::new(seed)).unwrap();
        let record = |label: &str| roll.rolls.iter().find(|r| r.label == label);
        let results: Vec<i32> = record("damage results")
            .map(|r| r.record.dice.iter().map(|&f| i32::from(f)).collect())
            .unwrap_or_default();
        let checks: Vec<(u32, u32)> = roll
            .rolls
            .iter()
            .filter(|r| r.label.starts_with("On Fire"))
            .map(|r| (u32::from(r.record.dice[0]), u32::from(r.record.dice[1])))
            .collect();
        // The checks rolled are those of On Fire results met while still in the fight.
        let mut check_at = checks.iter().copied();
        let mut padded = Vec::new();
        let (mut pins, mut imm, mut ko) = (1, false, false);
        for &r in &results {
            let effect = table(r);
            if effect != DamageEffect::KnockedOut {
                pins += 1;
            }
            padded.push(if effect == DamageEffect::OnFire && !ko {
                check_at.next().expect("a check for each live On Fire")
            } else {
                (1, 1)
            });
            if !ko {
                ko = effect == DamageEffect::KnockedOut
                    || (effect == DamageEffect::Immobilised && imm)
                    || (effect == DamageEffect::OnFire && {
                        let (a, b) = *padded.last().unwrap();
                        (a + b) as i32 > 9 - pins
                    });
                imm |= effect == DamageEffect::Immobilised;
            }
        }
        assert!(check_at.next().is_none(), "seed {seed}: no stray checks");
        let hit = roll.tally.hits > 0;
        let expected = by_hand(9, i32::from(hit), false, &results, &padded);
        let vehicle = roll.vehicle.unwrap();
        assert_eq!(summary(&vehicle), expected, "seed {seed}");
        assert_eq!(expected.0, ko, "seed {seed}");
        assert_eq!(
            roll.pins as i32, expected.2,
            "seed {seed}: a pin per result"
        );
        assert_eq!(roll.applied.len(), results.len());
    }
    // Seed 3: 15 hits, 5 damaging, results On Fire, Immobilised, Crew Stunned, Immobilised,
    // Immobilised: six pins (the hit's and five), and the tank is knocked out either way.
    let roll = roll_attack(&attack, &mut Roller::new(3)).unwrap();
    assert_eq!(roll.tally.damaging, 5);
    assert_eq!(roll.pins, 6);
    assert!(roll.vehicle.unwrap().knocked_out.is_some());
}

#[test]
fn the_check_passes_on_the_right_count_of_two_dice() {
    for target in -3..=14 {
        let brute = (1..=6)
            .flat_map(|a| (1..=6).map(move |b| a + b))
            .filter(|&t| t <= target)
            .count() as u128;
        assert_eq!(check_passes(target), brute, "{target}");
    }
}
