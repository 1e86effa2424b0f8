//! A simple scripted player: each pulse it commits a reserve company when it may, else its
//! first unit that may fire does so at the enemy's first target at effective range, else it
//! uses its next chain. Not a strategy — a repeatable way to drive a whole battle through the
//! same actions the table offers ([`super::actions`]), for tests, demos and the crash test.

use super::actions::{actions, key, param};
use super::plan::ArmourBattlePlan;
use super::state::{BattleState, Phase, UnitStatus};
use crate::rules::battle::Request;
use crate::rules::resolution::InputValue;

/// What the scripted player asks for next, or `None` once the battle is over. The request is
/// decided like any other (the campaign rolls its dice).
pub fn next_request(plan: &ArmourBattlePlan, state: &BattleState) -> Option<Request> {
    let side = match state.phase {
        Phase::Over => return None,
        Phase::AwaitingCommandRoll => return Some(Request::new(key::ROLL_COMMAND)),
        Phase::Pulse { side } => side,
    };
    let offered = actions(plan, state);
    let mine = |k: &'static str| {
        offered
            .iter()
            .filter(move |a| a.key == k && a.side == Some(side) && a.allowed())
    };
    if let Some(commit) = mine(key::COMMIT_RESERVES).find(|a| a.fixed.is_empty()) {
        return Some(commit.request());
    }
    let fired_this_pulse = state
        .units_of(side)
        .any(|u| u.fire_marker && u.status == UnitStatus::OnTable);
    if !fired_this_pulse && let Some(fire) = mine(key::FIRE).find(|a| !a.targets.is_empty()) {
        let mut request = fire.request();
        request.target = fire.targets.first().cloned();
        return Some(request);
    }
    match state.side(side).chains.first() {
        Some(chain) => Some(
            Request::new(key::USE_CHAIN)
                .side(side)
                .with(param::FACE, InputValue::Count(chain.face.into()))
                .with(param::DICE, InputValue::Count(chain.dice.into()))
                .with(param::ON, InputValue::Choice("orders")),
        ),
        None => Some(Request::new(key::END_TURN)),
    }
}
