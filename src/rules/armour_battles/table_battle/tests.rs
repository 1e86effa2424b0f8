//! Armour Battles on the board: the book's order of a turn's last pulse, and a property test
//! that plays random offered actions — with the app's dice and with dice typed at the table —
//! and re-decides every event from its dice, as verification does.

use proptest::prelude::*;

use super::super::battle::actions::{key, param};
use super::super::battle::state::Phase;
use super::legacy::{board_plan, lorraine_plan};
use super::{ArmourBattlesBattle, view};
use crate::rules::battle::board::{Board, TablePlan};
use crate::rules::battle::table::{TableBattle, TableEvent};
use crate::rules::battle::{BattleError, BattleRules, Dice, Request, Side, Sides};
use crate::rules::dice::TableDice;
use crate::rules::resolution::{InputKind, InputValue};

type Battle = TableBattle<ArmourBattlesBattle>;

/// Lorraine battle `number` as the board plays it, opened by its briefing.
fn lorraine(number: u32) -> (TablePlan, Board) {
    let (plan, opening) = board_plan(&lorraine_plan(number).unwrap()).unwrap();
    let mut board = Battle::start(&plan, &Sides::default());
    <ArmourBattlesBattle as crate::rules::battle::table::TableRules>::open(&mut board, &opening);
    (plan, board)
}

fn faces(pools: &[(&str, &[u8])]) -> Dice {
    let mut dice = TableDice::new();
    for (pool, faces) in pools {
        dice.add(*pool, faces.to_vec());
    }
    Dice::Table(dice)
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
        &faces(&[("us", &[5, 5, 5, 5]), ("german", &[1, 1, 6])]),
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
    assert_eq!(now.phase, Phase::Pulse { side: Side::First }, "the pulse goes on");
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
    act(&plan, &mut board, &Request::new(key::END_TURN), &Dice::Seed(5));
    act(&plan, &mut board, &roll, &Dice::Seed(6));
    assert_eq!(board.turn, 2);
}

/// A random value for parameter `spec` of `action`, within what the battle allows.
fn random_param(
    spec: &crate::rules::resolution::InputSpec,
    action: &crate::rules::battle::Action,
    pick: u64,
) -> InputValue {
    match &spec.kind {
        InputKind::Toggle => InputValue::Flag(pick.is_multiple_of(2)),
        InputKind::Count { min, max } => {
            let top = action.limit(spec.key).map_or(*max, |l| l.max.min(*max));
            let span = u64::try_from((top - min).max(0) + 1).unwrap_or(1);
            InputValue::Count(min + i64::try_from(pick % span).unwrap_or(0))
        }
        InputKind::Number { min, max } => {
            #[allow(clippy::cast_precision_loss)]
            let share = (pick % 101) as f64 / 100.0;
            InputValue::Number(min + (max - min) * share)
        }
        InputKind::Choice(options) => {
            let allowed: Vec<&str> = options
                .iter()
                .map(|o| o.key)
                .filter(|k| {
                    action
                        .choices
                        .iter()
                        .find(|(key, _)| *key == spec.key)
                        .is_none_or(|(_, keys)| keys.contains(k))
                })
                .collect();
            let at = usize::try_from(pick).unwrap_or(0) % allowed.len().max(1);
            allowed.get(at).map_or(spec.default.clone(), |k| InputValue::Choice(k))
        }
        InputKind::Card { .. } | InputKind::CardList { .. } => spec.default.clone(),
    }
}

/// Faces for every pool `request` asks, asked one after another, each answered from `picks`.
fn typed(plan: &TablePlan, board: &Board, request: &Request, picks: &[u64]) -> Option<Dice> {
    let mut given = TableDice::new();
    for round in 0..12 {
        let (asked, answer) = Battle::pools(plan, board, request, &given);
        if answer.is_ok() {
            return Some(Dice::Table(given));
        }
        let next = asked.get(round)?;
        let faces = (0..next.count)
            .map(|i| {
                let pick = picks[(round + i as usize) % picks.len()];
                u8::try_from(pick % u64::from(next.sides)).unwrap_or(0) + 1
            })
            .collect();
        given.add(next.pool, faces);
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Any offered action the rules allow, with random parameters and targets, decided with
    /// the app's dice or with faces typed at the table, records an event that decides again
    /// from its own dice to the same event; the board stays a board the rules read.
    #[test]
    fn random_offered_actions_decide_again_to_the_same_event(
        number in 1u32..=3,
        picks in proptest::collection::vec(any::<u64>(), 80),
    ) {
        let (plan, mut board) = lorraine(number);
        for (step, pick) in picks.iter().enumerate() {
            if board.outcome.is_some() {
                break;
            }
            let offered: Vec<_> = Battle::actions(&plan, &board)
                .into_iter()
                .filter(|a| a.allowed() && !a.destructive)
                .collect();
            // The battle moves on: a third of the steps are what the scripted player does.
            let request = if pick % 3 == 0 || offered.is_empty() {
                let scripted = <ArmourBattlesBattle as crate::rules::battle::table::TableRules>::scripted(&plan, &board);
                match scripted {
                    Some(request) => request,
                    None => break,
                }
            } else {
                let action = &offered[usize::try_from(pick / 3).unwrap_or(0) % offered.len()];
                let mut request = action.request();
                if !action.targets.is_empty() {
                    let at = usize::try_from(pick / 7).unwrap_or(0) % action.targets.len();
                    request.target = Some(action.targets[at].clone());
                }
                let specs = <ArmourBattlesBattle as crate::rules::battle::table::TableRules>::params(action.key);
                for (i, spec) in specs.iter().enumerate() {
                    if action.fixed.iter().any(|(k, _)| *k == spec.key) {
                        continue;
                    }
                    let value = random_param(spec, action, pick.rotate_left(u32::try_from(i).unwrap_or(0) * 7));
                    request.inputs.set(spec.key, value);
                }
                request
            };
            let dice = if pick % 2 == 0 {
                Some(Dice::Seed(*pick))
            } else {
                typed(&plan, &board, &request, &picks[step..])
            };
            let Some(dice) = dice else { continue };
            // An allowed button may still be refused for its parameters (a bonus beyond the
            // stock, a target out of reach): refused, nothing changes.
            let Ok(decided) = Battle::decide(&plan, &board, &request, &dice) else {
                continue;
            };
            let event = decided.event;
            prop_assert_eq!(Battle::rederive(&plan, &board, &event, 4), Ok(event.clone()));
            Battle::apply(&mut board, &event);
            let read = state(&plan, &board);
            prop_assert!(read.units.iter().all(|u| u.disruption <= u.cohesion));
        }
    }
}
