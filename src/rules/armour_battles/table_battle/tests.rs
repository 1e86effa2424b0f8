//! Armour Battles on the board: the book's order of a turn's last pulse. (Random offered
//! actions in every Lorraine battle are played by the registry's battle test,
//! `tests/it/battle_registry.rs`.)

use super::super::battle::actions::{key, param};
use super::super::battle::state::Phase;
use super::legacy::{board_plan, lorraine_plan};
use super::{ArmourBattlesBattle, view};
use crate::rules::battle::board::{Board, TablePlan};
use crate::rules::battle::table::played::table;
use crate::rules::battle::table::{TableBattle, TableEvent};
use crate::rules::battle::{BattleError, BattleRules, Dice, Request, Side, Sides};
use crate::rules::resolution::InputValue;

type Battle = TableBattle<ArmourBattlesBattle>;

/// Lorraine battle `number` as the board plays it, opened by its briefing.
fn lorraine(number: u32) -> (TablePlan, Board) {
    let (plan, opening) = board_plan(&lorraine_plan(number).unwrap()).unwrap();
    let mut board = Battle::start(&plan, &Sides::default());
    <ArmourBattlesBattle as crate::rules::battle::table::TableRules>::open(&mut board, &opening);
    (plan, board)
}

/// Decides `request` with `dice` and applies its event; the event is checked as verification
/// would check it (decided again from its own dice: the same event).
fn act(plan: &TablePlan, board: &mut Board, request: &Request, dice: &Dice) -> TableEvent {
    let event = Battle::decide(plan, board, request, dice)
        .unwrap_or_else(|e| panic!("{}: {e}", request.action))
        .event;
    assert_eq!(Battle::rederive(plan, board, &event, 4), Ok(event.clone()));
    Battle::apply(board, &event);
    event
}

fn state(plan: &TablePlan, board: &Board) -> super::super::battle::BattleState {
    view::state_of(plan, board)
}

/// The book ("The Command Pulse", "Opportunity Fire"): a chain orders units, which then act in
/// that pulse, and the enemy may answer a unit that moves or fires with opportunity fire. So
/// the last chain of a turn is used, its unit fires, the enemy's opportunity fire answers — all
/// in that last pulse — and only then is the turn ended and the next rolled.
#[test]
fn the_last_chain_of_a_turn_leaves_its_pulse_to_its_fire_and_the_enemys_opportunity_fire() {
    let (plan, mut board) = lorraine(1);
    // US 5 5 5 5: one chain of four 5s. German 1 1 6: more 1s than 6s, a Command Failure (the
    // Germans go second and pass: they hold no chain; the US gets their two 1s as wild dice).
    let roll = Request::new(key::ROLL_COMMAND);
    act(
        &plan,
        &mut board,
        &roll,
        &table(&[("us", vec![5, 5, 5, 5]), ("german", vec![1, 1, 6])]),
    );
    let now = state(&plan, &board);
    assert_eq!(now.phase, Phase::Pulse { side: Side::First });
    assert!(now.side(Side::Second).chains.is_empty());
    // The last chain of the turn, for orders.
    let chain = Request::new(key::USE_CHAIN)
        .side(Side::First)
        .with(param::FACE, InputValue::Count(5))
        .with(param::DICE, InputValue::Count(4))
        .with(param::ON, InputValue::Choice("orders"));
    act(&plan, &mut board, &chain, &Dice::Seed(1));
    let now = state(&plan, &board);
    assert!(now.side(Side::First).chains.is_empty() && now.side(Side::Second).chains.is_empty());
    assert_eq!(
        now.phase,
        Phase::Pulse { side: Side::First },
        "the pulse goes on"
    );
    // The unit it ordered fires; the enemy answers with opportunity fire.
    let fire = Request::new(key::FIRE).unit("us-1").target("german-1");
    let fired = act(&plan, &mut board, &fire, &Dice::Seed(2));
    assert_eq!(fired.action, key::FIRE);
    let answer = Request::new(key::FIRE)
        .unit("german-3")
        .target("us-1")
        .with("kind", InputValue::Choice("opportunity"));
    let answered = act(&plan, &mut board, &answer, &Dice::Seed(3));
    assert!(
        answered.result[0].contains("(opportunity fire)"),
        "{:?}",
        answered.result
    );
    // The next command roll waits for the turn to be ended.
    let early = Battle::decide(&plan, &board, &roll, &Dice::Seed(4));
    assert!(
        matches!(&early, Err(BattleError::NotAllowed(why)) if why.contains("end the turn first")),
        "{early:?}"
    );
    act(
        &plan,
        &mut board,
        &Request::new(key::END_TURN),
        &Dice::Seed(5),
    );
    act(&plan, &mut board, &roll, &Dice::Seed(6));
    assert_eq!(board.turn, 2);
}
