//! BelloLudi resolution checked against the book and against brute-force enumeration of
//! every face (the enumeration reads a d20 the book's way, sharing no code with the odds).

use std::collections::BTreeMap;

use super::*;
use crate::rules::dice::Estimate;

use crate::rules::belloludi::tests::library_vehicle;

/// The book's d20 reading: "0 represents B, 1-4 represent 0, 5-9 represent 1, 10-14
/// represent 2 and 15-19 represent 3" (a d20's 20 is its 0). `None` is B.
fn book_reading(d20: u32) -> Option<u32> {
    match d20 {
        1..=4 => Some(0),
        5..=9 => Some(1),
        10..=14 => Some(2),
        15..=19 => Some(3),
        _ => None,
    }
}

/// Calls `f` for every way `n` d20s can land.
fn for_each_d20s(n: usize, f: &mut impl FnMut(&[u32])) {
    fn go(faces: &mut Vec<u32>, n: usize, f: &mut impl FnMut(&[u32])) {
        if faces.len() == n {
            f(faces);
            return;
        }
        for face in 1..=20 {
            faces.push(face);
            go(faces, n, f);
            faces.pop();
        }
    }
    go(&mut Vec::new(), n, f);
}

fn pairs<K: Ord + Clone>(dist: &Dist<K>) -> Vec<(K, u128)> {
    dist.iter().map(|(k, w)| (k.clone(), w)).collect()
}

fn assert_sums_to_total<K: Ord>(dist: &Dist<K>) {
    assert_eq!(dist.iter().map(|(_, w)| w).sum::<u128>(), dist.total());
}

#[test]
fn the_commander_die_is_the_d20_reading() {
    let die = commander_die().unwrap();
    assert_eq!(die.total(), 20);
    assert_eq!(
        pairs(&die),
        vec![
            (CommanderFace::B, 1),
            (CommanderFace::Number(0), 4),
            (CommanderFace::Number(1), 5),
            (CommanderFace::Number(2), 5),
            (CommanderFace::Number(3), 5),
        ]
    );
    let faces = &tables().unwrap().commander_die;
    for d20 in 1..=20u8 {
        let expected = match book_reading(u32::from(d20)) {
            Some(n) => CommanderFace::Number(n as u8),
            None => CommanderFace::B,
        };
        assert_eq!(read_face(faces, d20), Some(expected), "d20 {d20}");
    }
}

#[test]
fn command_odds_match_enumeration() {
    let odds = command_odds().unwrap();
    assert_eq!(odds.total(), 720);
    assert_sums_to_total(&odds);
    let mut brute = BTreeMap::new();
    for d20 in 1..=20 {
        for blunder in 1..=6u8 {
            for charge in 1..=6u32 {
                let outcome = match book_reading(d20) {
                    Some(orders) => CommandOutcome::Orders { orders },
                    None => CommandOutcome::Blunder {
                        roll: blunder,
                        // Back men! two moves; Charge! 1–2/3–4/5–6 → 1/2/3; others one.
                        moves: match blunder {
                            1 => 2,
                            6 => charge.div_ceil(2) as u8,
                            _ => 1,
                        },
                    },
                };
                *brute.entry(outcome).or_insert(0u128) += 1;
            }
        }
    }
    assert_eq!(pairs(&odds), brute.into_iter().collect::<Vec<_>>());
    // B is 1 in 20; a Charge! of three moves is 1/20 × 1/6 × 2/6.
    let blunder = odds.probability_where(|o| matches!(o, CommandOutcome::Blunder { .. }));
    assert_eq!(blunder, 1.0 / 20.0);
    let big_charge = odds.weight(&CommandOutcome::Blunder { roll: 6, moves: 3 });
    assert_eq!(big_charge, 2);
}

#[test]
fn hit_rolls_follow_the_modifiers_with_natural_1_and_6() {
    let plain = ShotSituation::default();
    assert_eq!(hit_need(&plain).unwrap(), 4);
    let close = ShotSituation {
        close_range: true,
        ..plain
    };
    assert_eq!(hit_need(&close).unwrap(), 3);
    let everything_against = ShotSituation {
        close_range: false,
        shooter_disordered_or_shaken: true,
        target_in_cover: true,
        target_open_order: true,
    };
    assert_eq!(hit_need(&everything_against).unwrap(), 7);
    // A 6 always hits, a 1 always misses.
    assert!(is_hit(6, 7));
    assert!(!is_hit(5, 7));
    assert!(!is_hit(1, -3));
    assert!(is_hit(2, -3));
    // The book's shaken tank: "in order to reach a score of four, you are going to have
    // to roll a five".
    let shaken = ShotSituation {
        shooter_disordered_or_shaken: true,
        ..plain
    };
    assert_eq!(hit_need(&shaken).unwrap(), 5);
}

/// The shot's outcome and the target's state by enumerating d6 × d20^n.
fn brute_shot(
    need: i32,
    dice: usize,
    target: &Vehicle,
    remaining: u32,
) -> (BTreeMap<ShotOutcome, u128>, BTreeMap<TankState, u128>, u128) {
    let mut outcomes = BTreeMap::new();
    let mut states = BTreeMap::new();
    let mut disordered = 0u128;
    let armour = u32::from(target.armour);
    let state = |left: u32| {
        if left == 0 {
            TankState::Destroyed
        } else if left * 4 <= armour {
            TankState::Broken
        } else if left * 2 < armour {
            TankState::Shaken
        } else {
            TankState::Steady
        }
    };
    for d6 in 1..=6i32 {
        let hit = d6 == 6 || (d6 != 1 && d6 >= need);
        for_each_d20s(dice, &mut |faces| {
            let (outcome, after) = if hit {
                let bullseye = faces.iter().any(|&f| book_reading(f).is_none());
                let points: u32 = faces.iter().filter_map(|&f| book_reading(f)).sum();
                // "All dice hit": no die reads 0; a survivor is then in disorder.
                let all_dice_hit = faces.iter().all(|&f| book_reading(f) != Some(0));
                if all_dice_hit && !bullseye && points < remaining {
                    disordered += 1;
                }
                let after = if bullseye {
                    TankState::Destroyed
                } else {
                    state(remaining.saturating_sub(points))
                };
                (
                    ShotOutcome::Hit(Damage {
                        bullseye,
                        points,
                        all_dice_hit,
                    }),
                    after,
                )
            } else {
                (ShotOutcome::Miss, state(remaining))
            };
            *outcomes.entry(outcome).or_insert(0) += 1;
            *states.entry(after).or_insert(0) += 1;
        });
    }
    (outcomes, states, disordered)
}

#[test]
fn shot_odds_match_enumeration() {
    let situations = [
        ShotSituation::default(),
        ShotSituation {
            close_range: true,
            target_in_cover: true,
            ..ShotSituation::default()
        },
        ShotSituation {
            shooter_disordered_or_shaken: true,
            target_in_cover: true,
            target_open_order: true,
            ..ShotSituation::default()
        },
    ];
    for shooter in ["Light Tank", "Medium Tank", "Heavy Tank"] {
        for target_name in ["Light Tank", "Medium Tank", "Heavy Tank"] {
            let target = library_vehicle(target_name);
            for remaining in 1..=u32::from(target.armour) {
                for situation in &situations {
                    let shooter = library_vehicle(shooter);
                    let odds = shot_odds(
                        shooter,
                        Target::damaged(target, remaining).unwrap(),
                        situation,
                    )
                    .unwrap();
                    let dice = usize::from(shooter.shooting);
                    assert_eq!(odds.outcome.total(), 6 * 20u128.pow(dice as u32));
                    assert_sums_to_total(&odds.outcome);
                    assert_sums_to_total(&odds.state_after);
                    assert_sums_to_total(&odds.damage);
                    let (outcomes, states, disordered) =
                        brute_shot(odds.need, dice, target, remaining);
                    assert_eq!(
                        odds.p_disorder(),
                        disordered as f64 / odds.outcome.total() as f64
                    );
                    assert_eq!(
                        pairs(&odds.outcome),
                        outcomes.into_iter().collect::<Vec<_>>()
                    );
                    assert_eq!(
                        pairs(&odds.state_after),
                        states.into_iter().collect::<Vec<_>>()
                    );
                }
            }
        }
    }
}

#[test]
fn a_medium_tank_is_shaken_after_3_hits_and_broken_after_4() {
    // "When a medium tank, originally with an armour of 5, has received 3 hits, it
    // becomes shaken … When the same tank receives four hits, and has one armour left, it
    // is deemed broken."
    let medium = library_vehicle("Medium Tank");
    assert_eq!(state_of(medium, 5), TankState::Steady);
    assert_eq!(state_of(medium, 3), TankState::Steady);
    assert_eq!(state_of(medium, 2), TankState::Shaken);
    assert_eq!(state_of(medium, 1), TankState::Broken);
    assert_eq!(state_of(medium, 0), TankState::Destroyed);
    // A medium tank with 3 armour left shot by a heavy tank: 3 more points destroy it.
    let heavy = library_vehicle("Heavy Tank");
    let odds = shot_odds(
        heavy,
        Target::damaged(medium, 3).unwrap(),
        &ShotSituation::default(),
    )
    .unwrap();
    assert_eq!(odds.p_hit(), 0.5);
    // Any B among three dice: 1 − (19/20)^3.
    let p_b = 1.0 - (19.0f64 / 20.0).powi(3);
    assert!((odds.p_bullseye() - 0.5 * p_b).abs() < 1e-12);
    assert!(odds.p_at_least(TankState::Shaken) > odds.p_at_least(TankState::Destroyed));
}

#[test]
fn targets_must_have_armour_left() {
    let medium = library_vehicle("Medium Tank");
    assert!(Target::damaged(medium, 5).is_ok());
    let err = Target::damaged(medium, 6).unwrap_err();
    assert_eq!(
        err.to_string(),
        "remaining armour: 6 for Medium Tank (armour 5): it must be 1–5"
    );
    assert!(Target::damaged(medium, 0).is_err());
}

#[test]
fn crash_odds_match_enumeration() {
    let light = library_vehicle("Light Tank");
    let heavy = library_vehicle("Heavy Tank");
    let odds = crash_odds(Target::fresh(light), Target::damaged(heavy, 4).unwrap()).unwrap();
    assert_eq!(odds.hits.total(), 400);
    assert_sums_to_total(&odds.hits);
    let mut brute = BTreeMap::new();
    for a in 1..=20 {
        for b in 1..=20 {
            let hits = CrashHits {
                to_first: book_reading(b).unwrap_or(0),
                to_second: book_reading(a).unwrap_or(0),
            };
            *brute.entry(hits).or_insert(0u128) += 1;
        }
    }
    assert_eq!(pairs(&odds.hits), brute.into_iter().collect::<Vec<_>>());
    // The light tank (armour 3) is destroyed by a 3 (5/20); shaken by a 2 (5/20).
    assert_eq!(odds.first_after.weight(&TankState::Destroyed), 5 * 20);
    assert_eq!(odds.first_after.weight(&TankState::Shaken), 5 * 20);
    // Nothing happens on 0 or B: 5/20 each way.
    assert_eq!(
        odds.hits.weight(&CrashHits {
            to_first: 0,
            to_second: 0
        }),
        25
    );
}

#[test]
fn seeded_rolls_replay() {
    let medium = library_vehicle("Medium Tank");
    let heavy = library_vehicle("Heavy Tank");
    let situation = ShotSituation::default();
    for seed in 0..50 {
        let a = roll_shot(
            medium,
            Target::fresh(heavy),
            &situation,
            &mut Roller::new(seed),
        )
        .unwrap();
        let b = roll_shot(
            medium,
            Target::fresh(heavy),
            &situation,
            &mut Roller::new(seed),
        )
        .unwrap();
        assert_eq!(a, b);
        assert_eq!(a.seed, seed);
        assert!(a.to_hit.is_genuine());
        assert_eq!(a.hit, is_hit(u32::from(a.to_hit.dice[0]), a.need));
        if let Some(record) = &a.damage_dice {
            assert!(record.is_genuine());
            assert_eq!(record.dice.len(), 2);
            assert_eq!(record.sides, 20);
        } else {
            assert!(!a.hit);
        }
        let c1 = roll_command(&mut Roller::new(seed)).unwrap();
        assert_eq!(c1, roll_command(&mut Roller::new(seed)).unwrap());
        let crash = roll_crash(
            Target::fresh(medium),
            Target::fresh(heavy),
            &mut Roller::new(seed),
        )
        .unwrap();
        assert_eq!(crash.dice.dice.len(), 2);
    }
}

#[test]
fn a_blunder_roll_records_its_table_rolls() {
    // Find a seed whose commander die reads B and check the blunder and charge dice.
    let mut seen_blunder = false;
    let mut seen_charge = false;
    for seed in 0..2000 {
        let roll = roll_command(&mut Roller::new(seed)).unwrap();
        match roll.outcome {
            CommandOutcome::Blunder { roll: r, moves } => {
                seen_blunder = true;
                assert_eq!(roll.face, CommanderFace::B);
                assert_eq!(roll.commander_die.dice, vec![20]);
                assert_eq!(roll.blunder_die.as_ref().unwrap().dice, vec![r]);
                if r == 6 {
                    seen_charge = true;
                    let charge = roll.charge_die.as_ref().unwrap().dice[0];
                    assert_eq!(u32::from(moves), u32::from(charge).div_ceil(2));
                    assert_eq!(roll.blunder.as_deref(), Some("Charge!"));
                } else {
                    assert!(roll.charge_die.is_none());
                }
            }
            CommandOutcome::Orders { orders } => {
                assert!(roll.blunder_die.is_none());
                assert_eq!(
                    Some(orders),
                    book_reading(u32::from(roll.commander_die.dice[0]))
                );
            }
        }
    }
    assert!(seen_blunder && seen_charge);
}

#[test]
fn monte_carlo_shots_agree_with_the_exact_odds() {
    let medium = library_vehicle("Medium Tank");
    let target = Target::fresh(medium);
    let situation = ShotSituation {
        close_range: true,
        ..ShotSituation::default()
    };
    let odds = shot_odds(medium, target, &situation).unwrap();
    let mut roller = Roller::new(2024);
    let trials = 20_000u64;
    let mut shaken_or_worse = 0;
    let mut bullseyes = 0;
    for _ in 0..trials {
        let roll = roll_shot(medium, target, &situation, &mut roller).unwrap();
        shaken_or_worse += u64::from(roll.state_after >= TankState::Shaken);
        bullseyes += u64::from(roll.damage.is_some_and(|d| d.bullseye));
    }
    let est = Estimate::from_counts(shaken_or_worse, trials);
    assert!(
        est.z_score(odds.p_at_least(TankState::Shaken)) < 4.0,
        "{est:?}"
    );
    let est = Estimate::from_counts(bullseyes, trials);
    assert!(est.z_score(odds.p_bullseye()) < 4.0, "{est:?}");
}

#[test]
fn broken_groups_armies_and_victory_points() {
    use TankState::*;
    // More than half shaken, broken or gone.
    assert!(!group_is_broken(&[Shaken, Steady]));
    assert!(group_is_broken(&[Shaken, Removed, Steady]));
    assert!(!group_is_broken(&[Shaken, Destroyed, Steady, Steady]));
    assert!(group_is_broken(&[Broken, Destroyed, Shaken, Steady]));
    assert!(!group_is_broken(&[]));
    let groups = vec![
        vec![Shaken, Destroyed, Steady], // broken
        vec![Steady, Steady, Removed],   // holding
        vec![Broken, Shaken, Shaken],    // broken
    ];
    assert!(army_is_broken(&groups));
    assert!(!army_is_broken(&groups[..2]));
    let tally = VictoryTally::from_groups(&groups);
    assert_eq!(
        tally,
        VictoryTally {
            shaken: 4,
            removed: 1,
            destroyed: 1,
            broken_groups: 2
        }
    );
    // 4 + 1 + 1 + 2 × 2.
    assert_eq!(tally.points().unwrap(), 10);
}

#[test]
fn all_dice_hit_throws_a_surviving_target_into_disorder() {
    // A heavy tank (3CD) at an undamaged heavy tank (armour 7): hit on 4+ (3/6), then every
    // die reads 1, 2 or 3 (5/20 each) and the sum leaves armour (under 7).
    let heavy = library_vehicle("Heavy Tank");
    let odds = shot_odds(heavy, Target::fresh(heavy), &ShotSituation::default()).unwrap();
    let mut survivors = 0u32;
    for a in 1..=3 {
        for b in 1..=3 {
            for c in 1..=3 {
                survivors += u32::from(a + b + c < 7);
            }
        }
    }
    let expected = 0.5 * f64::from(survivors) * (5.0f64 / 20.0).powi(3);
    assert!(
        (odds.p_disorder() - expected).abs() < 1e-12,
        "{}",
        odds.p_disorder()
    );
    let mut seen = false;
    for seed in 0..200 {
        let roll = roll_shot(
            heavy,
            Target::fresh(heavy),
            &ShotSituation::default(),
            &mut Roller::new(seed),
        )
        .unwrap();
        let expected =
            roll.damage.is_some_and(|d| d.all_dice_hit && !d.bullseye) && roll.remaining_after > 0;
        assert_eq!(roll.disordered, expected);
        seen |= roll.disordered;
    }
    assert!(seen);
}
