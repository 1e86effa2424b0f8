//! Close quarters checked against enumeration of every die, with the sheet's procedure
//! written out again here: attackers roll a die per model needing the defenders' damage value
//! (3+ Inexperienced, 4+ Regular, 5+ Veteran), the defenders' survivors strike back, more
//! casualties wins, a side with no model left loses, equal casualties fight again.

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::*;
use crate::rules::bolt_action::resolve::OrderTest;
use crate::rules::dice::Estimate;
use crate::rules::dice::test_support::for_each_d6s;

fn need(q: Quality) -> u32 {
    match q {
        Quality::Inexperienced => 3,
        Quality::Regular => 4,
        Quality::Veteran => 5,
    }
}

fn ratio(n: u128, d: u128) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// What one round does from (a, d), by brute force over the a + d dice of the round (the
/// fallen defenders' dice are rolled but ignored): weights of each ending, of each draw and of
/// the round where nobody falls.
#[derive(Default)]
struct RoundByHand {
    over: BTreeMap<(bool, u32), u128>,
    draws: BTreeMap<(u32, u32), u128>,
    stay: u128,
    all: u128,
}

fn round_by_hand(a: u32, d: u32, attackers: Quality, defenders: Quality) -> RoundByHand {
    let mut out = RoundByHand::default();
    for_each_d6s((a + d) as usize, &mut |f| {
        out.all += 1;
        let (strikes, back) = f.split_at(a as usize);
        let dead = (strikes.iter().filter(|&&x| x >= need(defenders)).count() as u32).min(d);
        let survivors = &back[..(d - dead) as usize];
        let hit_back = (survivors.iter().filter(|&&x| x >= need(attackers)).count() as u32).min(a);
        if dead > hit_back {
            *out.over.entry((true, a - hit_back)).or_default() += 1;
        } else if hit_back > dead || hit_back == a {
            *out.over.entry((false, d - dead)).or_default() += 1;
        } else if dead == 0 {
            out.stay += 1;
        } else {
            *out.draws.entry((a - hit_back, d - dead)).or_default() += 1;
        }
    });
    out
}

fn fight(a: u32, d: u32, attackers: Quality, defenders: Quality) -> CloseQuarters {
    CloseQuarters {
        attackers: Fighters::new(a, attackers),
        defenders: Fighters::new(d, defenders),
    }
}

fn by_key(odds: &FightOdds) -> BTreeMap<(bool, u32), BigRational> {
    odds.ends
        .iter()
        .map(|(e, p)| ((e.winner == Winner::Attackers, e.left), p.clone()))
        .collect()
}

/// The chain's answer for every small fight satisfies its own round, enumerated: each state's
/// chances times the chance of leaving it equal its endings plus its draws times the answers
/// of the fights they lead to. With a fight ending for certain, that system has exactly one
/// solution, so this pins the answer down.
#[test]
fn every_small_fight_satisfies_its_round_enumerated() {
    let qualities = [Quality::Inexperienced, Quality::Regular, Quality::Veteran];
    for attackers in qualities {
        for defenders in qualities {
            let mut answers = BTreeMap::new();
            for a in 1..=3u32 {
                for d in 1..=3u32 {
                    let odds = fight_odds(&fight(a, d, attackers, defenders)).unwrap();
                    let total = odds.ends.values().fold(BigRational::zero(), |s, p| s + p);
                    assert!(total.is_one(), "{a} v {d}: chances add up to 1");
                    answers.insert((a, d), odds);
                }
            }
            for ((a, d), odds) in &answers {
                let round = round_by_hand(*a, *d, attackers, defenders);
                let leave = ratio(round.all - round.stay, round.all);
                let mut right: BTreeMap<(bool, u32), BigRational> = round
                    .over
                    .iter()
                    .map(|(k, w)| (*k, ratio(*w, round.all)))
                    .collect();
                let mut rounds = BigRational::one();
                for (child, w) in &round.draws {
                    let p = ratio(*w, round.all);
                    rounds += &p * &answers[child].expected_rounds;
                    for (k, q) in by_key(&answers[child]) {
                        *right.entry(k).or_insert_with(BigRational::zero) += &p * q;
                    }
                }
                let left: BTreeMap<(bool, u32), BigRational> = by_key(odds)
                    .into_iter()
                    .map(|(k, p)| (k, p * &leave))
                    .collect();
                right.retain(|_, p| !p.is_zero());
                assert_eq!(left, right, "{a} v {d}, {attackers:?} v {defenders:?}");
                assert_eq!(&odds.expected_rounds * &leave, rounds, "rounds, {a} v {d}");
                let decided: u128 = round.over.values().sum();
                assert_eq!(odds.first_round, ratio(decided, round.all));
            }
        }
    }
}

#[test]
fn a_one_on_one_fight_in_closed_form() {
    // Regular against Regular: each round the attacker kills on 4+ (1/2); if he misses, the
    // defender strikes back on 4+. Nobody falls with chance 1/4, so P(attacker wins) =
    // (1/2) / (1 − 1/4) = 2/3 — counted here over the four faces of the two dice.
    let mut win = 0u128;
    let mut stay = 0u128;
    for a in 1..=6 {
        for b in 1..=6 {
            match (a >= 4, b >= 4) {
                (true, _) => win += 1,
                (false, false) => stay += 1,
                (false, true) => {}
            }
        }
    }
    let odds = fight_odds(&fight(1, 1, Quality::Regular, Quality::Regular)).unwrap();
    assert_eq!(odds.p_wins(Winner::Attackers), ratio(win, 36 - stay));
}

#[test]
fn rolled_fights_follow_their_dice() {
    let cq = fight(6, 5, Quality::Regular, Quality::Veteran);
    for seed in 0..200 {
        let roll = roll_fight(&cq, &mut Roller::new(seed)).unwrap();
        assert_eq!(roll, roll_fight(&cq, &mut Roller::new(seed)).unwrap());
        let (mut a, mut d) = (6, 5);
        for (i, round) in roll.rounds.iter().enumerate() {
            let strikes = &roll.rolls[2 * i];
            assert_eq!(strikes.label, "attackers strike");
            assert_eq!(strikes.record.dice.len() as u32, a);
            let dead = (strikes.record.dice.iter().filter(|&&f| f >= 5).count() as u32).min(d);
            let back = roll
                .rolls
                .get(2 * i + 1)
                .filter(|r| r.label == "defenders strike back")
                .map_or(0, |r| {
                    r.record.dice.iter().filter(|&&f| f >= 4).count() as u32
                })
                .min(a);
            assert_eq!((round.attackers, round.defenders), (a, d));
            assert_eq!((round.dead, round.struck_back), (dead, back), "seed {seed}");
            (a, d) = (a - back, d - dead);
        }
        let last = roll.rounds.last().unwrap();
        let attackers_won = last.dead > last.struck_back;
        assert_eq!(
            roll.end.winner == Winner::Attackers,
            attackers_won,
            "seed {seed}"
        );
    }
}

#[test]
fn rolled_fights_agree_with_the_exact_odds() {
    let cq = fight(5, 5, Quality::Inexperienced, Quality::Regular);
    let exact = chance(&fight_odds(&cq).unwrap().p_wins(Winner::Attackers));
    let mut roller = Roller::new(11);
    let trials = 20_000u64;
    let wins = (0..trials)
        .filter(|_| roll_fight(&cq, &mut roller).unwrap().end.winner == Winner::Attackers)
        .count() as u64;
    let est = Estimate::from_counts(wins, trials);
    assert!(est.z_score(exact) < 4.0, "{est:?} vs {exact}");
}

#[test]
fn sides_outside_the_range_are_refused_naming_the_input() {
    let err = fight_odds(&fight(0, 3, Quality::Regular, Quality::Regular)).unwrap_err();
    assert!(matches!(
        err,
        ResolveError::Invalid {
            field: "models",
            ..
        }
    ));
    let err = fight_odds(&fight(
        3,
        MAX_MODELS + 1,
        Quality::Regular,
        Quality::Regular,
    ))
    .unwrap_err();
    assert!(matches!(
        err,
        ResolveError::Invalid {
            field: "target_models",
            ..
        }
    ));
}

#[test]
fn exact_weights_or_a_marked_rounding() {
    let small = [ratio(1, 3), ratio(2, 3)];
    assert_eq!(as_weights(&small), (vec![1, 2], 3, true));
    // A denominator past 128 bits: rounded onto 2^64, adding up exactly.
    let huge = BigInt::from(3).pow(90u32);
    let third = BigRational::new(BigInt::one(), huge.clone());
    let rest = BigRational::one() - &third;
    let (weights, total, exact) = as_weights(&[third, rest]);
    assert!(!exact);
    assert_eq!(total, 1 << 64);
    assert_eq!(weights.iter().sum::<u128>(), total);
    assert_eq!(weights[0], 0);
}

// ---------------------------------------------------------------------------------------
// Assaulting a vehicle
// ---------------------------------------------------------------------------------------

fn medium_tank() -> TargetProfile {
    TargetProfile::of_category(Category::MediumTank, Quality::Regular).unwrap()
}

fn assault(
    models: u32,
    anti_tank: bool,
    vehicle: TargetProfile,
    motion: VehicleMotion,
) -> VehicleAssault {
    VehicleAssault {
        models,
        test: OrderTest {
            quality: Quality::Regular,
            pins: 0,
            officer: None,
            modifier: 0,
        },
        anti_tank,
        vehicle,
        motion,
        vehicle_pins: 0,
        already_immobilised: false,
    }
}

/// The damage table with the sheet's shift.
fn result(roll: i32) -> VehicleFate {
    match roll {
        i32::MIN..=1 => VehicleFate::CrewStunned,
        2 => VehicleFate::Immobilised,
        3 => VehicleFate::FirePutOut,
        _ => VehicleFate::KnockedOut {
            cause: KnockOut::DamageResult,
        },
    }
}

use super::super::vehicle_damage::KnockOut;

fn same_ratio<K: Ord + std::fmt::Debug>(exact: &Dist<K>, brute: &BTreeMap<K, u128>) {
    let total: u128 = brute.values().sum();
    let keys: Vec<&K> = exact.iter().map(|(k, _)| k).collect();
    assert_eq!(keys, brute.keys().collect::<Vec<_>>());
    for (k, w) in exact.iter() {
        assert_eq!(w * total, brute[k] * exact.total(), "{k:?}");
    }
}

#[test]
fn bazookas_assaulting_a_still_tank_match_enumeration() {
    // Two models with anti-tank weapons: no order test, 4+ to hit, d6 + hits ≥ 9, then a
    // full damage result; On Fire checks at 9 − 1 (its own pin): fails on 9 or more.
    let odds = assault_odds(&assault(2, true, medium_tank(), VehicleMotion::Still)).unwrap();
    assert_eq!(odds.test_target, None);
    let mut brute = BTreeMap::new();
    for_each_d6s(6, &mut |f| {
        let hits = f[..2].iter().filter(|&&x| x >= 4).count() as u32;
        let end = if hits == 0 || f[2] + hits < 9 {
            AssaultEnd::NoDamage
        } else {
            let fate = match result(f[3] as i32) {
                VehicleFate::FirePutOut if f[4] + f[5] > 8 => VehicleFate::KnockedOut {
                    cause: KnockOut::Abandoned,
                },
                fate => fate,
            };
            AssaultEnd::Damaged(fate)
        };
        *brute.entry(end).or_insert(0u128) += 1;
    });
    same_ratio(&odds.ends, &brute);
}

#[test]
fn infantry_without_anti_tank_weapons_test_at_minus_three_and_scratch_the_paint() {
    // One Regular rifleman: order test 2d6 ≤ 9 − 3 (double six FUBAR: 1–2 Friendly Fire);
    // then 4+ to hit, d6 + 1 ≥ 9 (a 6 can't reach it with one hit: 7 < 9) — so he can never
    // damage a medium tank, only fail his test or do nothing.
    let odds = assault_odds(&assault(1, false, medium_tank(), VehicleMotion::Still)).unwrap();
    assert_eq!(odds.test_target, Some(6));
    let mut brute = BTreeMap::new();
    for_each_d6s(5, &mut |f| {
        let end = if f[0] == 6 && f[1] == 6 {
            AssaultEnd::Fubar {
                friendly_fire: f[2] <= 2,
            }
        } else if f[0] + f[1] > 6 {
            AssaultEnd::TestFailed
        } else if f[3] < 4 || f[4] + 1 < 9 {
            AssaultEnd::NoDamage
        } else {
            unreachable!("one hit cannot reach 9")
        };
        *brute.entry(end).or_insert(0u128) += 1;
    });
    same_ratio(&odds.ends, &brute);
    // Against a light tank (8+) two riflemen can reach it (two hits and a 6), and the
    // superficial table shows: d6 − 3. The test's three dice and the assault's six are
    // independent, so each is enumerated on its own and their counts multiplied.
    let light = TargetProfile::of_category(Category::LightTank, Quality::Regular).unwrap();
    let odds = assault_odds(&assault(2, false, light, VehicleMotion::Still)).unwrap();
    let mut tests = BTreeMap::new();
    for_each_d6s(3, &mut |f| {
        let end = if f[0] == 6 && f[1] == 6 {
            Some(AssaultEnd::Fubar {
                friendly_fire: f[2] <= 2,
            })
        } else if f[0] + f[1] > 6 {
            Some(AssaultEnd::TestFailed)
        } else {
            None
        };
        *tests.entry(end).or_insert(0u128) += 1;
    });
    let mut assaults = BTreeMap::new();
    for_each_d6s(2 + 1 + 1 + 2, &mut |f| {
        let hits = f[..2].iter().filter(|&&x| x >= 4).count() as u32;
        let end = if hits == 0 || f[2] + hits < 8 {
            AssaultEnd::NoDamage
        } else {
            AssaultEnd::Damaged(match result(f[3] as i32 - 3) {
                VehicleFate::FirePutOut if f[4] + f[5] > 8 => VehicleFate::KnockedOut {
                    cause: KnockOut::Abandoned,
                },
                fate => fate,
            })
        };
        *assaults.entry(end).or_insert(0u128) += 1;
    });
    let mut brute = BTreeMap::new();
    for (test, w) in &tests {
        match test {
            Some(end) => *brute.entry(*end).or_insert(0u128) += w * 6u128.pow(6),
            None => {
                for (end, v) in &assaults {
                    *brute.entry(*end).or_insert(0u128) += w * v;
                }
            }
        }
    }
    same_ratio(&odds.ends, &brute);
}

#[test]
fn open_topped_vehicles_are_destroyed_if_damaged_and_a_running_one_cannot_be_assaulted() {
    let half_track = TargetProfile {
        open_topped: true,
        ..TargetProfile::of_category(Category::ArmouredCar, Quality::Regular).unwrap()
    };
    // Three models against a half-track that advanced: a 6 to hit, d6 + hits ≥ 7.
    let odds = assault_odds(&assault(3, false, half_track, VehicleMotion::Advanced)).unwrap();
    assert_eq!(odds.test_target, None, "open-topped: no −3 test");
    let mut brute = BTreeMap::new();
    for_each_d6s(4, &mut |f| {
        let hits = f[..3].iter().filter(|&&x| x == 6).count() as u32;
        let end = if hits > 0 && f[3] + hits >= 7 {
            AssaultEnd::Destroyed
        } else {
            AssaultEnd::NoDamage
        };
        *brute.entry(end).or_insert(0u128) += 1;
    });
    same_ratio(&odds.ends, &brute);
    let ran = assault_odds(&assault(3, true, medium_tank(), VehicleMotion::Ran));
    assert!(matches!(ran, Err(ResolveError::NoResult(_))));
}

#[test]
fn rolled_assaults_follow_their_dice() {
    let light = TargetProfile::of_category(Category::LightTank, Quality::Regular).unwrap();
    let a = assault(6, false, light, VehicleMotion::Still);
    let mut seen = BTreeMap::new();
    for seed in 0..400 {
        let roll = roll_assault(&a, &mut Roller::new(seed)).unwrap();
        assert_eq!(roll, roll_assault(&a, &mut Roller::new(seed)).unwrap());
        let test = roll.test.as_ref().expect("no anti-tank weapons: a test");
        assert_eq!(test.target, 6);
        let passed = test.outcome == OrderResult::Passed;
        assert_eq!(
            passed,
            !roll.rolls.is_empty(),
            "dice after the test only if passed"
        );
        if let Some(total) = roll.damage_total {
            let die = roll
                .rolls
                .iter()
                .find(|r| r.label == "damage (d6 + hits)")
                .unwrap();
            assert_eq!(total, u32::from(die.record.dice[0]) + roll.hits);
        }
        let kind = match roll.end {
            AssaultEnd::Damaged(_) => "damaged",
            AssaultEnd::NoDamage => "no damage",
            AssaultEnd::TestFailed => "test failed",
            _ => "other",
        };
        *seen.entry(kind).or_insert(0) += 1;
    }
    assert!(
        seen.len() >= 4,
        "fails, no damage and damage all happen: {seen:?}"
    );
}
