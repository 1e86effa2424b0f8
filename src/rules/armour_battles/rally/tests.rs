//! Rallying against the Rally Table defaults, enumeration and seeded rolls.

use super::*;
use crate::rules::armour_battles::outcome::brute::{self, pow6};
use crate::rules::armour_battles::{rally_table, unit_card};
use crate::rules::dice::Estimate;

fn card(name: &str) -> &'static UnitCard {
    unit_card(name).unwrap_or_else(|| panic!("no card {name}"))
}

fn at(distance_inches: f64, disruption: u32) -> RallySituation {
    RallySituation {
        distance_inches,
        disruption,
        ..RallySituation::default()
    }
}

#[test]
fn rally_tn_follows_the_distance_bands() {
    let table = rally_table().unwrap();
    let tns: Vec<i32> = [0.0, 6.0, 6.5, 12.0, 12.1, 24.0, 24.5, 100.0]
        .into_iter()
        .map(|d| table.tn_at(d).unwrap())
        .collect();
    assert_eq!(tns, [6, 6, 5, 5, 4, 4, 3, 3]);
}

#[test]
fn the_row_used_is_the_first_band_that_reaches_the_enemy() {
    let table = rally_table().unwrap();
    let rows: Vec<usize> = [0.0, 6.0, 6.5, 12.0, 24.0, 24.5]
        .into_iter()
        .map(|d| table.row_at(d).unwrap())
        .collect();
    assert_eq!(rows, [0, 0, 1, 1, 2, 3]);
}

#[test]
fn bonuses_add_dice_and_the_opponent_rolls_one_per_point() {
    let s = RallySituation {
        cover: true,
        no_line_of_sight: true,
        bonus: crate::rules::armour_battles::fire::Bonus::from_count(2).unwrap(),
        ..at(30.0, 2)
    };
    let odds = rally_odds(card("M4 75mm"), 4, &s).unwrap();
    assert_eq!((odds.rally_dice, odds.rally_tn), (8, 3));
    assert_eq!((odds.opponent_dice, odds.opponent_tn), (2, 4));
    assert_eq!(odds.modifiers.len(), 4);
    let values: Vec<&str> = odds.house_defaults.iter().map(|h| h.value).collect();
    assert_eq!(values, ["rally_tn", "removed"]);
}

#[test]
fn exact_rally_odds_equal_enumeration() {
    for (dice, distance, disruption) in
        [(4u32, 5.0, 2u32), (4, 10.0, 1), (3, 20.0, 2), (2, 40.0, 0)]
    {
        let odds = rally_odds(card("Panzer IV"), dice, &at(distance, disruption)).unwrap();
        let tn = odds.rally_tn;
        let mut counts = std::collections::BTreeMap::<u32, u128>::new();
        brute::for_each_roll(dice + disruption, |faces| {
            let (ours, theirs) = faces.split_at(dice as usize);
            let (r, o) = (brute::count(ours, tn).0, brute::count(theirs, 4).0);
            let removed = if r > o { (r - o).min(disruption) } else { 0 };
            *counts.entry(removed).or_default() += 1;
        });
        assert_eq!(odds.removed.total(), pow6(dice + disruption));
        let got: std::collections::BTreeMap<u32, u128> =
            odds.removed.iter().map(|(k, w)| (*k, w)).collect();
        assert_eq!(got, counts, "{dice}D at {distance}″ with {disruption} DP");
        assert!(*odds.removed.highest() <= disruption);
    }
}

#[test]
fn suppressed_units_and_bad_input_are_refused() {
    let suppressed = RallySituation {
        suppressed: true,
        ..at(10.0, 1)
    };
    assert_eq!(
        rally_odds(card("Tiger"), 4, &suppressed).unwrap_err(),
        ResolveError::SuppressedCannotRally
    );
    assert!(rally_odds(card("Tiger"), 4, &at(f64::NAN, 1)).is_err());
    assert!(rally_odds(card("Tiger"), 4, &at(-1.0, 1)).is_err());
    assert!(matches!(
        rally_odds(card("Tiger"), 4, &at(10.0, 3)),
        Err(ResolveError::DisruptionTooHigh { .. })
    ));
    assert!(rally_odds(card("M7"), 4, &at(10.0, 1)).is_err());
}

#[test]
fn seeded_rallies_agree_and_replay() {
    let s = RallySituation {
        cover: true,
        ..at(8.0, 2)
    };
    let odds = rally_odds(card("Puma"), 4, &s).unwrap();
    let mut roller = Roller::new(3);
    let trials = 20_000u64;
    let mut removed = [0u64; 3];
    for _ in 0..trials {
        let roll = roll_rally(card("Puma"), 4, &s, &mut roller).unwrap();
        assert_eq!(roll.removed + roll.remaining, 2);
        removed[roll.removed as usize] += 1;
    }
    for (points, hits) in removed.into_iter().enumerate() {
        let est = Estimate::from_counts(hits, trials);
        let p = odds.removed.probability(&(points as u32));
        assert!(est.z_score(p) < 4.0, "{points}: {est:?} vs {p}");
    }
    let a = roll_rally(card("Puma"), 4, &s, &mut Roller::new(9)).unwrap();
    assert_eq!(
        roll_rally(card("Puma"), 4, &s, &mut Roller::new(9)).unwrap(),
        a
    );
    assert_eq!((a.rally.dice.len(), a.opponent.dice.len()), (5, 2));
    assert_eq!(a.seed, 9);
}
