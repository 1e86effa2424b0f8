//! The battle state against the sheet's turn: one die per unit drawn by side, an order per
//! unit, tests for pinned units (FUBAR on a double six), Down and Ambush kept, the turn over
//! when the bag is empty, and a clear refusal for anything a unit may not do.

use super::*;
use crate::rules::Card;
use crate::rules::bolt_action::close_quarters::{CloseQuarters, Fighters, roll_fight};
use crate::rules::bolt_action::resolve::{
    Attack, TargetProfile, order_test_odds, roll_attack, roll_order_test,
};
use crate::rules::bolt_action::{BoltAction, Quality};
use crate::rules::ruleset::Ruleset;

fn profile(name: &str) -> UnitProfile {
    BoltAction
        .library()
        .iter()
        .find_map(|c| match c {
            Card::BoltAction(p) if p.name == name => Some(p.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{name}"))
}

const SQUAD: UnitId = UnitId(0);
const TANK: UnitId = UnitId(1);
const BAZOOKAS: UnitId = UnitId(2);
const VETERANS: UnitId = UnitId(3);
const MMG: UnitId = UnitId(4);

/// Three units against two.
fn battle() -> Battle {
    Battle::new(vec![
        BattleUnit::new(&profile("Regular Infantry Squad"), Side::First, 10),
        BattleUnit::new(&profile("Medium Tank"), Side::First, 1),
        BattleUnit::new(&profile("Bazooka Team"), Side::First, 2),
        BattleUnit::new(&profile("Veteran Infantry Squad"), Side::Second, 8),
        BattleUnit::new(&profile("MMG Team"), Side::Second, 3),
    ])
    .unwrap()
}

/// `unit` drawn for and given `order` (no pins).
fn ordered(b: &Battle, unit: UnitId, order: OrderKind) -> Battle {
    let side = b.units[unit.0].side;
    b.draw(side).unwrap().give_order(unit, order, None).unwrap()
}

fn refusal(result: Result<impl std::fmt::Debug, BattleError>) -> String {
    result.unwrap_err().to_string()
}

#[test]
fn the_bag_holds_one_die_per_unit_drawn_by_side() {
    let b = battle();
    assert_eq!(b.bag, [3, 2]);
    let odds = b.draw_odds().unwrap();
    assert_eq!(odds.weight(&Side::First) * 5, 3 * odds.total());
    let drawn = b.draw(Side::Second).unwrap();
    assert_eq!((drawn.bag, drawn.drawn), ([3, 1], Some(Side::Second)));
    assert_eq!(
        refusal(drawn.draw(Side::First)),
        "a second player's die is already drawn: give it to a unit first"
    );
    assert_eq!(
        refusal(drawn.give_order(SQUAD, OrderKind::Fire, None)),
        "the drawn die is the second player's; Regular Infantry Squad is the first player's"
    );
    let given = drawn.give_order(MMG, OrderKind::Fire, None).unwrap();
    assert_eq!(given.drawn, None);
    assert_eq!(
        refusal(
            given
                .draw(Side::Second)
                .unwrap()
                .give_order(MMG, OrderKind::Down, None)
        ),
        "MMG Team already has a Fire order this turn"
    );
    assert_eq!(
        refusal(battle().give_order(SQUAD, OrderKind::Fire, None)),
        "draw a die before giving an order"
    );
    let empty = given
        .draw(Side::Second)
        .unwrap()
        .give_order(VETERANS, OrderKind::Down, None)
        .unwrap();
    assert_eq!(
        refusal(empty.draw(Side::Second)),
        "no second player's die is left in the bag"
    );
}

#[test]
fn random_draws_follow_the_dice_left() {
    // Over many seeded draws the first side's share tends to 3 in 5.
    let b = battle();
    let mut first = 0u32;
    let trials = 6000;
    let mut roller = Roller::new(3);
    for _ in 0..trials {
        let (next, record) = b.draw_with(&mut roller).unwrap();
        assert_eq!(record.sides, 5);
        first += u32::from(next.drawn == Some(Side::First));
    }
    let p = f64::from(first) / f64::from(trials);
    assert!(
        (p - 0.6).abs() < 4.0 * (0.24f64 / f64::from(trials)).sqrt(),
        "{p}"
    );
}

#[test]
fn a_pinned_unit_tests_its_order_and_a_failure_or_fubar_changes_it() {
    let mut b = battle();
    b.units[SQUAD.0].pins = 2;
    let drawn = b.draw(Side::First).unwrap();
    assert_eq!(
        refusal(drawn.give_order(SQUAD, OrderKind::Advance, None)),
        "Regular Infantry Squad has 2 pins: take an order test first"
    );
    // The test is the order-test mechanic's: Regular 9 − 2 pins + a Captain's 3.
    let test = drawn
        .order_test_for(SQUAD, Some("captain".into()), 0)
        .unwrap()
        .unwrap();
    assert_eq!(order_test_odds(&test).unwrap().target, 10);
    assert_eq!(drawn.order_test_for(TANK, None, 0).unwrap(), None);
    let order = |result: OrderResult| {
        drawn
            .give_order(SQUAD, OrderKind::Advance, Some(&result))
            .unwrap()
            .units[SQUAD.0]
            .order
            .clone()
            .unwrap()
    };
    assert_eq!(order(OrderResult::Passed).order, OrderKind::Advance);
    assert_eq!(order(OrderResult::Failed).order, OrderKind::Down);
    let panic = order(OrderResult::Fubar {
        result: "Panic".into(),
    });
    assert_eq!(
        (panic.order, panic.fubar.as_deref()),
        (OrderKind::Run, Some("Panic"))
    );
    let friendly = order(OrderResult::Fubar {
        result: "Friendly Fire".into(),
    });
    assert_eq!(friendly.order, OrderKind::Fire);
    // Rolled: whatever the dice say, the order follows the test's outcome.
    for seed in 0..60 {
        let roll = roll_order_test(&test, &mut Roller::new(seed)).unwrap();
        let given = drawn
            .give_order(SQUAD, OrderKind::Advance, Some(&roll.outcome))
            .unwrap();
        let got = given.units[SQUAD.0].order.as_ref().unwrap().order;
        let want = match &roll.outcome {
            OrderResult::Passed => OrderKind::Advance,
            OrderResult::Failed => OrderKind::Down,
            OrderResult::Fubar { result } if result == "Panic" => OrderKind::Run,
            OrderResult::Fubar { .. } => OrderKind::Fire,
        };
        assert_eq!(got, want, "seed {seed}");
    }
    // A panicking unit runs but may not assault, and the refusal names the FUBAR, not the
    // Run order the chart gave it (the player asked for none).
    let panicked = drawn
        .give_order(
            SQUAD,
            OrderKind::Run,
            Some(&OrderResult::Fubar {
                result: "Panic".into(),
            }),
        )
        .unwrap();
    assert_eq!(
        refusal(panicked.may(SQUAD, Action::Assault)),
        "Regular Infantry Squad rolled FUBAR (Panic): it cannot assault"
    );
}

#[test]
fn what_a_unit_may_do_follows_its_order() {
    let b = battle();
    assert_eq!(
        refusal(b.may(SQUAD, Action::Shoot)),
        "Regular Infantry Squad has no order yet this turn: it cannot shoot"
    );
    let down = ordered(&b, SQUAD, OrderKind::Down);
    assert_eq!(
        refusal(down.may(SQUAD, Action::Shoot)),
        "Regular Infantry Squad has a Down order: it cannot shoot"
    );
    let run = ordered(&b, SQUAD, OrderKind::Run);
    assert!(run.may(SQUAD, Action::Assault).is_ok() && run.may(SQUAD, Action::Move).is_ok());
    assert!(run.may(SQUAD, Action::Shoot).is_err());
    let tank_runs = ordered(&b, TANK, OrderKind::Run);
    assert_eq!(
        refusal(tank_runs.may(TANK, Action::Assault)),
        "Medium Tank is not infantry: only infantry fight in close quarters"
    );
    let fire = ordered(&b, BAZOOKAS, OrderKind::Fire);
    let fired = fire.shot(BAZOOKAS).unwrap();
    assert_eq!(
        refusal(fired.may(BAZOOKAS, Action::Shoot)),
        "Bazooka Team has already carried out its Fire order this turn"
    );
    let ambush = ordered(&b, MMG, OrderKind::Ambush);
    assert!(ambush.may(MMG, Action::Shoot).is_ok());
    let rally = ordered(&b, VETERANS, OrderKind::Rally);
    assert!(rally.may(VETERANS, Action::Rally).is_ok());
    assert!(rally.may(VETERANS, Action::Move).is_err());
    let mut stuck = b.clone();
    stuck.units[TANK.0].immobilised = true;
    let drawn = stuck.draw(Side::First).unwrap();
    assert_eq!(
        refusal(drawn.give_order(TANK, OrderKind::Advance, None)),
        "Medium Tank is immobilised: it cannot move"
    );
    assert!(drawn.give_order(TANK, OrderKind::Fire, None).is_ok());
}

#[test]
fn rally_sheds_the_die_in_pins() {
    let mut b = battle();
    b.units[VETERANS.0].pins = 4;
    let drawn = b.draw(Side::Second).unwrap();
    let rallying = drawn
        .give_order(VETERANS, OrderKind::Rally, Some(&OrderResult::Passed))
        .unwrap();
    assert_eq!(
        rallying.rally(VETERANS, 3).unwrap().units[VETERANS.0].pins,
        1
    );
    assert_eq!(
        rallying.rally(VETERANS, 6).unwrap().units[VETERANS.0].pins,
        0
    );
    let done = rallying.rally(VETERANS, 1).unwrap();
    assert!(done.rally(VETERANS, 1).is_err(), "one rally per order");
}

/// Gives every die left to the first unit of its side without an order, `order` for all.
fn give_out(mut b: Battle, order: impl Fn(UnitId) -> OrderKind) -> Battle {
    while b.dice_left() > 0 {
        let side = if b.bag[0] > 0 {
            Side::First
        } else {
            Side::Second
        };
        b = b.draw(side).unwrap();
        let id = (0..b.units.len())
            .map(UnitId)
            .find(|&id| b.units[id.0].side == side && b.units[id.0].die_in_bag())
            .unwrap();
        b = b.give_order(id, order(id), None).unwrap();
    }
    b
}

#[test]
fn the_turn_ends_when_the_bag_is_empty_and_down_and_ambush_stay() {
    let b = battle();
    assert_eq!(
        refusal(b.end_turn(&[])),
        "5 dice still in the bag: give them out before the turn ends"
    );
    let orders = |id: UnitId| match id {
        SQUAD => OrderKind::Down,
        MMG => OrderKind::Ambush,
        _ => OrderKind::Fire,
    };
    let spent = give_out(b, orders);
    assert!(spent.turn_over());
    let next = spent.end_turn(&[]).unwrap();
    assert_eq!(next.turn, 2);
    // Down and Ambush keep their dice by the units: one die for each other unit.
    assert_eq!(next.bag, [2, 1]);
    let kept = next.units[SQUAD.0].order.as_ref().unwrap();
    assert!(kept.kept && kept.order == OrderKind::Down);
    assert!(next.units[MMG.0].order.as_ref().unwrap().kept);
    assert!(next.units[TANK.0].order.is_none());
    assert!(
        next.may(MMG, Action::Shoot).is_ok(),
        "an ambush can still fire"
    );
    let drawn = next.draw(Side::First).unwrap();
    assert_eq!(
        refusal(drawn.give_order(SQUAD, OrderKind::Fire, None)),
        "Regular Infantry Squad already has a Down order this turn"
    );
    // A player may take a kept die back: it returns to the bag.
    let released = spent.end_turn(&[SQUAD]).unwrap();
    assert_eq!(released.bag, [3, 1]);
    assert_eq!(
        refusal(spent.end_turn(&[TANK])),
        "Medium Tank does not keep its order: only Ambush and Down orders stay by a unit"
    );
}

#[test]
fn a_destroyed_unit_loses_its_die_and_its_orders() {
    let b = battle();
    // The veterans are wiped out before their die is drawn: it leaves the bag.
    let hit = b.take_hits(VETERANS, 8, 1).unwrap();
    assert!(hit.units[VETERANS.0].destroyed);
    assert_eq!(hit.bag, [3, 1]);
    assert_eq!(
        refusal(
            hit.draw(Side::Second)
                .unwrap()
                .give_order(VETERANS, OrderKind::Fire, None)
        ),
        "Veteran Infantry Squad is destroyed"
    );
    // Casualties and pins add up; a unit that already had its order keeps the bag as it is.
    let fired = ordered(&b, MMG, OrderKind::Fire);
    let hurt = fired
        .take_hits(MMG, 2, 1)
        .unwrap()
        .take_hits(MMG, 0, 1)
        .unwrap();
    assert_eq!(
        (hurt.units[MMG.0].models_left(), hurt.units[MMG.0].pins),
        (1, 2)
    );
    let gone = hurt.take_hits(MMG, 5, 1).unwrap();
    assert_eq!(gone.bag, fired.bag);
    assert_eq!(
        refusal(b.take_hits(TANK, 1, 1)),
        "Medium Tank is a vehicle: use its damage results"
    );
}

#[test]
fn a_vehicle_takes_its_damage_results_from_the_mechanic() {
    let b = battle();
    let bazooka = crate::rules::bolt_action::tables()
        .unwrap()
        .weapon("Bazooka")
        .unwrap();
    let mut seen_down = false;
    for seed in 0..200 {
        let mut tank_hit = b.clone();
        tank_hit.units[TANK.0].pins = 1;
        let start = tank_hit.vehicle_state(TANK).unwrap();
        let attack = Attack {
            target_pins: start.pins,
            ..Attack::new(bazooka, TargetProfile::of(&profile("Medium Tank")).unwrap())
        };
        let roll = roll_attack(&attack, &mut Roller::new(seed)).unwrap();
        let after = roll.vehicle.unwrap();
        let next = tank_hit.vehicle_hit(TANK, &after).unwrap();
        let tank = &next.units[TANK.0];
        assert_eq!(tank.destroyed, after.knocked_out.is_some(), "seed {seed}");
        assert_eq!(tank.pins, after.pins);
        if after.down && after.knocked_out.is_none() {
            // Stunned or the fire put out before it had an order: a down die from its bag.
            seen_down = true;
            assert_eq!(tank.order.as_ref().unwrap().order, OrderKind::Down);
            assert_eq!(next.bag, [2, 2]);
            assert!(next.may(TANK, Action::Shoot).is_err());
        }
    }
    assert!(seen_down);
    assert_eq!(
        refusal(b.vehicle_state(SQUAD)),
        "Regular Infantry Squad is not a vehicle"
    );
    let mut stale = b.vehicle_state(TANK).unwrap();
    let mut pinned = b.clone();
    pinned.units[TANK.0].pins = 3;
    stale.pins = 1;
    assert!(matches!(
        pinned.vehicle_hit(TANK, &stale),
        Err(BattleError::StaleVehicle { pins: 3, .. })
    ));
}

#[test]
fn close_quarters_destroy_the_loser() {
    let b = ordered(&battle(), SQUAD, OrderKind::Run);
    let fight = CloseQuarters {
        attackers: Fighters::new(10, Quality::Regular),
        defenders: Fighters::new(8, Quality::Veteran),
    };
    for seed in 0..40 {
        let end = roll_fight(&fight, &mut Roller::new(seed)).unwrap().end;
        let next = b.close_quarters(SQUAD, VETERANS, end).unwrap();
        let (winner, loser) = match end.winner {
            Winner::Attackers => (SQUAD, VETERANS),
            Winner::Defenders => (VETERANS, SQUAD),
        };
        assert!(next.units[loser.0].destroyed);
        assert_eq!(next.units[winner.0].models_left(), end.left);
        assert!(
            next.may(SQUAD, Action::Assault).is_err(),
            "one assault per order"
        );
        // The veterans' die left the bag with them, or stays for them.
        assert_eq!(next.bag[1], if loser == VETERANS { 1 } else { 2 });
    }
    assert_eq!(
        refusal(b.close_quarters(
            SQUAD,
            BAZOOKAS,
            FightEnd {
                winner: Winner::Attackers,
                left: 10
            }
        )),
        "Bazooka Team is on the same side"
    );
    assert_eq!(
        refusal(battle().close_quarters(
            SQUAD,
            VETERANS,
            FightEnd {
                winner: Winner::Attackers,
                left: 10
            }
        )),
        "Regular Infantry Squad has no order yet this turn: it cannot assault"
    );
}

#[test]
fn seeded_turns_keep_one_die_per_unit_without_an_order() {
    // Random play: draws, orders (tests for pinned units), hits; the bag always holds exactly
    // one die per unit in the fight without an order, and each turn ends with it empty.
    for seed in 0..30u64 {
        let mut roller = Roller::new(seed);
        let mut b = battle();
        for _ in 0..4 {
            while !b.turn_over() {
                let (drawn, _) = b.draw_with(&mut roller).unwrap();
                let side = drawn.drawn.unwrap();
                let candidates: Vec<UnitId> = (0..drawn.units.len())
                    .map(UnitId)
                    .filter(|&id| drawn.units[id.0].side == side && drawn.units[id.0].die_in_bag())
                    .collect();
                let pick = roller.roll("choice", 6, 2).unwrap().dice;
                let id = candidates[usize::from(pick[0]) % candidates.len()];
                let order = OrderKind::ALL[usize::from(pick[1]) - 1];
                let order = if drawn.units[id.0].immobilised {
                    OrderKind::Fire
                } else {
                    order
                };
                let test = drawn.order_test_for(id, None, 0).unwrap();
                let result = test.map(|t| roll_order_test(&t, &mut roller).unwrap().outcome);
                b = drawn.give_order(id, order, result.as_ref()).unwrap();
                // The other side answers with a pin on a random enemy.
                let enemy = (0..b.units.len())
                    .map(UnitId)
                    .find(|&e| b.units[e.0].side != side && !b.units[e.0].destroyed);
                if let Some(e) = enemy.filter(|e| !b.units[e.0].profile.category.is_vehicle()) {
                    b = b.take_hits(e, u32::from(pick[0] == 6), 1).unwrap();
                }
                assert_eq!(b.bag, b.dice_due(), "seed {seed}");
            }
            b = b.end_turn(&[]).unwrap();
            assert_eq!(b.bag, b.dice_due(), "seed {seed}");
        }
        assert_eq!(b.turn, 5);
    }
}
