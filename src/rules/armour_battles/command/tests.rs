//! Command dice against the book's examples, enumeration and seeded rolls.

use super::*;
use crate::rules::armour_battles::battle_group;
use crate::rules::armour_battles::outcome::brute::{self, pow6};
use crate::rules::dice::{Estimate, Source};

/// The book's first-pulse procedure on raw faces, written independently of `first_pulse`.
fn decide(us: &[u8], german: &[u8], us_automatic: bool) -> PulseOutcome {
    let n = |faces: &[u8], face: u8| faces.iter().filter(|&&f| f == face).count();
    let us_fails = n(us, 1) > n(us, 6);
    let german_fails = n(german, 1) > n(german, 6);
    if us_fails && german_fails {
        PulseOutcome::TurnEnds
    } else if us_automatic || german_fails {
        PulseOutcome::UsFirst
    } else if us_fails {
        PulseOutcome::GermanFirst
    } else {
        for face in (2..=6).rev() {
            if n(us, face) != n(german, face) {
                return if n(us, face) > n(german, face) {
                    PulseOutcome::UsFirst
                } else {
                    PulseOutcome::GermanFirst
                };
            }
        }
        PulseOutcome::Reroll
    }
}

#[test]
fn command_failure_odds_equal_enumeration() {
    for dice in 0..=6u32 {
        let exact = command_failure_odds(dice).unwrap();
        let mut failures = 0u128;
        brute::for_each_roll(dice, |faces| {
            let ones = faces.iter().filter(|&&f| f == 1).count();
            let sixes = faces.iter().filter(|&&f| f == 6).count();
            failures += u128::from(ones > sixes);
        });
        assert_eq!(
            (exact.weight, exact.total),
            (failures, pow6(dice)),
            "{dice} dice"
        );
    }
    // One die fails on a 1; two dice on 1-1 or a 1 with a 2-5.
    assert_eq!(command_failure_odds(1).unwrap().weight, 1);
    assert_eq!(command_failure_odds(2).unwrap().weight, 9);
}

#[test]
fn first_pulse_odds_equal_enumeration() {
    for (us, german) in [(1u32, 1u32), (2, 3), (3, 3), (4, 2), (1, 5)] {
        for rule in [FirstPulse::Roll, FirstPulse::UsAutomatic] {
            let odds = command_odds(us, german, rule).unwrap();
            let mut counts = std::collections::BTreeMap::<PulseOutcome, u128>::new();
            brute::for_each_roll(us + german, |faces| {
                let (u, g) = faces.split_at(us as usize);
                *counts
                    .entry(decide(u, g, rule == FirstPulse::UsAutomatic))
                    .or_default() += 1;
            });
            let got: std::collections::BTreeMap<PulseOutcome, u128> =
                odds.round.iter().map(|(k, w)| (*k, w)).collect();
            assert_eq!(got, counts, "{us} v {german} {rule:?}");
            assert_eq!(odds.round.total(), pow6(us + german));
            let ties = counts.get(&PulseOutcome::Reroll).copied().unwrap_or(0);
            assert_eq!(odds.first_pulse.total(), pow6(us + german) - ties);
            let both = odds.both_fail.p();
            assert!((odds.p_turn_ends() * (1.0 - odds.p_reroll()) - both).abs() < 1e-12);
            if rule == FirstPulse::UsAutomatic {
                assert_eq!(odds.p_german_first(), 0.0);
                assert!((odds.p_us_first() - (1.0 - both)).abs() < 1e-12);
            }
        }
    }
    // The battle groups' own dice: 4 v 3 in Battle 1, up to 6 v 5 in Battle 3.
    let odds = command_odds(6, 6, FirstPulse::Roll).unwrap();
    assert!((odds.p_us_first() - odds.p_german_first()).abs() < 1e-12);
    assert!(command_odds(9, 3, FirstPulse::Roll).is_err());
    assert!(command_odds(0, 3, FirstPulse::Roll).is_err());
}

#[test]
fn chains_follow_the_books_examples() {
    let record = |dice: Vec<u8>| RollRecord {
        source: Source::Table,
        ..RollRecord::d6_showing("us", &dice)
    };
    // "If you rolled 6, 5, 5, 4, 3 you have four Dice Chains."
    let side = SideCommand::new(Side::First, record(vec![6, 5, 5, 4, 3]));
    assert!(!side.failed);
    assert_eq!(
        side.chains,
        [
            DiceChain { face: 5, dice: 2 },
            DiceChain { face: 4, dice: 1 },
            DiceChain { face: 3, dice: 1 }
        ]
    );
    assert_eq!(side.wild_sixes, 1);
    assert_eq!(side.chains.len() + 1, 4);
    // "If you rolled 5, 4, 3, 1, 1 you trigger a Command Failure and give your opponent the
    // two 1s. You then have three Dice Chains available."
    let side = SideCommand::new(Side::Second, record(vec![5, 4, 3, 1, 1]));
    assert!(side.failed);
    assert_eq!(
        (side.ones_given, side.ones_discarded, side.chains.len()),
        (2, 0, 3)
    );
    // Equal 1s and 6s: no failure, the 1s are discarded.
    let side = SideCommand::new(Side::First, record(vec![1, 6, 2]));
    assert!(!side.failed);
    assert_eq!(
        (side.ones_given, side.ones_discarded, side.dice_available()),
        (0, 1, 2)
    );
}

#[test]
fn seeded_turns_agree_with_the_odds() {
    let rule = battle_group("lorraine-1-us").unwrap().first_pulse;
    let odds = command_odds(4, 3, rule).unwrap();
    let mut roller = Roller::new(21);
    let trials = 20_000u64;
    let (mut us_first, mut ends) = (0u64, 0u64);
    for _ in 0..trials {
        let turn = roll_command(4, 3, rule, &mut roller).unwrap();
        us_first += u64::from(turn.first_pulse == Some(Side::First));
        ends += u64::from(turn.turn_ends);
        // Failures hand their 1s over as wild dice.
        if !turn.turn_ends {
            assert_eq!(turn.first.wild_received, turn.second.ones_given);
            assert_eq!(turn.second.wild_received, turn.first.ones_given);
        }
    }
    for (hits, p) in [(us_first, odds.p_us_first()), (ends, odds.p_turn_ends())] {
        let est = Estimate::from_counts(hits, trials);
        assert!(est.z_score(p) < 4.0, "{est:?} vs {p}");
    }
}

#[test]
fn the_us_goes_first_in_battles_2_and_3_even_after_a_failure() {
    let rule = battle_group("lorraine-2-us").unwrap().first_pulse;
    assert_eq!(rule, FirstPulse::UsAutomatic);
    let mut seen_us_failure = false;
    for seed in 0..300 {
        let turn = roll_command(5, 4, rule, &mut Roller::new(seed)).unwrap();
        assert_eq!(turn.rounds.len(), 1);
        if turn.turn_ends {
            assert!(turn.first.failed && turn.second.failed);
        } else {
            assert_eq!(turn.first_pulse, Some(Side::First));
            seen_us_failure |= turn.first.failed;
        }
    }
    assert!(seen_us_failure);
}

#[test]
fn ties_reroll_everything_and_every_roll_replays() {
    // One die each ties often (both roll the same 2–6).
    let seed = (0..1000)
        .find(|&s| {
            roll_command(1, 1, FirstPulse::Roll, &mut Roller::new(s))
                .unwrap()
                .rounds
                .len()
                > 1
        })
        .expect("a tie within 1000 seeds");
    let turn = roll_command(1, 1, FirstPulse::Roll, &mut Roller::new(seed)).unwrap();
    let again = roll_command(1, 1, FirstPulse::Roll, &mut Roller::new(seed)).unwrap();
    assert_eq!(turn, again);
    assert_eq!(turn.seed, seed);
    let (last, earlier) = turn.rounds.split_last().unwrap();
    assert!(
        earlier
            .iter()
            .all(|r| r.outcome == PulseOutcome::Reroll && r.first.dice == r.second.dice)
    );
    assert_ne!(last.outcome, PulseOutcome::Reroll);
    // Rolls are numbered in order: US, German, US, German …
    let indices: Vec<u64> = turn
        .rounds
        .iter()
        .flat_map(|r| [r.first.index, r.second.index])
        .collect();
    assert_eq!(indices, (0..indices.len() as u64).collect::<Vec<_>>());
    assert_eq!(turn.first.record, last.first);
}
