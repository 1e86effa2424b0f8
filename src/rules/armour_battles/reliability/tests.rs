//! Moves and the Tiger I's Poor Reliability against enumeration and seeded rolls.

use super::*;
use crate::rules::armour_battles::outcome::brute::{self, pow6};
use crate::rules::armour_battles::unit_card;
use crate::rules::dice::Estimate;

fn card(name: &str) -> &'static UnitCard {
    unit_card(name).unwrap_or_else(|| panic!("no card {name}"))
}

#[test]
fn a_tiger_breaks_down_on_more_ones_than_sixes_of_its_move_dice() {
    for (order, dice) in [(MoveOrder::Double, 2u32), (MoveOrder::Triple, 3)] {
        let odds = move_odds(card("Tiger"), order).unwrap();
        assert_eq!(odds.dice, dice);
        assert!(odds.checks_reliability);
        let mut broke = 0u128;
        let mut moved = std::collections::BTreeMap::<u32, u128>::new();
        brute::for_each_roll(dice, |faces| {
            let ones = faces.iter().filter(|&&f| f == 1).count();
            let sixes = faces.iter().filter(|&&f| f == 6).count();
            if ones > sixes {
                broke += 1;
            } else {
                let inches = 6 * dice + faces.iter().map(|&f| u32::from(f)).sum::<u32>();
                *moved.entry(inches).or_default() += 1;
            }
        });
        assert_eq!(
            (odds.breakdown.weight, odds.breakdown.total),
            (broke, pow6(dice))
        );
        for (inches, w) in moved {
            assert_eq!(odds.outcomes.weight(&MoveResult::Moved(inches)), w);
        }
        assert_eq!(odds.house_defaults, [BREAKDOWN_RULING]);
    }
    // Double move: 1-1, or a 1 with a 2–5 (either order): 1 + 8 = 9 of 36.
    assert_eq!(
        move_odds(card("Tiger"), MoveOrder::Double)
            .unwrap()
            .breakdown
            .weight,
        9
    );
}

#[test]
fn single_moves_and_reliable_units_never_break_down() {
    assert_eq!(
        move_odds(card("Tiger"), MoveOrder::Single)
            .unwrap()
            .p_breakdown(),
        0.0
    );
    assert_eq!(
        move_odds(card("Panther"), MoveOrder::Triple)
            .unwrap()
            .p_breakdown(),
        0.0
    );
    // Fast vehicles double their variable dice: a Puma's double move is 12 + 2D×2″, 16–36″.
    let puma = move_odds(card("Puma"), MoveOrder::Double).unwrap();
    assert_eq!(*puma.outcomes.lowest(), MoveResult::Moved(16));
    assert_eq!(*puma.outcomes.highest(), MoveResult::Moved(36));
    assert!(move_odds(card("M7"), MoveOrder::Single).is_err());
}

#[test]
fn seeded_moves_agree_and_replay() {
    let odds = move_odds(card("Tiger"), MoveOrder::Triple).unwrap();
    let mut roller = Roller::new(8);
    let trials = 20_000u64;
    let mut broke = 0u64;
    for _ in 0..trials {
        let roll = roll_move(card("Tiger"), MoveOrder::Triple, &mut roller).unwrap();
        assert_eq!(roll.record.dice.len(), 3);
        broke += u64::from(roll.result == MoveResult::BrokeDown);
    }
    let est = Estimate::from_counts(broke, trials);
    assert!(est.z_score(odds.p_breakdown()) < 4.0, "{est:?}");
    let a = roll_move(card("Tiger"), MoveOrder::Double, &mut Roller::new(4)).unwrap();
    assert_eq!(
        roll_move(card("Tiger"), MoveOrder::Double, &mut Roller::new(4)).unwrap(),
        a
    );
    assert_eq!(a.seed, 4);
}
