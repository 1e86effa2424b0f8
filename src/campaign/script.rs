//! A simple scripted player: each pulse it commits a reserve company when it may, else its
//! first unmarked shooter fires at the enemy's first target at effective range, else it uses
//! its next chain. Not a strategy — a repeatable way to drive a whole battle through the
//! tracker for tests, demos and the crash test.

use super::definition::{ArmourBattlePlan, opponent};
use super::error::CampaignError;
use super::event::{ChainUse, Event};
use super::state::{BattleState, Phase, UnitStatus};
use super::tracker;
use crate::rules::armour_battles::fire::{FireSituation, RangeBand};
use crate::rules::dice::Roller;

/// The next event the scripted player records, or `None` once the battle is over.
///
/// # Errors
/// As the [`tracker`] calls it makes.
pub fn next_event(
    plan: &ArmourBattlePlan,
    state: &BattleState,
    roller: &mut Roller,
) -> Result<Option<Event>, CampaignError> {
    let side = match state.phase {
        Phase::Over => return Ok(None),
        Phase::AwaitingCommandRoll => return tracker::roll_command(plan, state, roller).map(Some),
        Phase::Pulse { side } => side,
    };
    let reserve = state
        .units_of(side)
        .find(|u| matches!(u.status, UnitStatus::Reserve { from_turn } if from_turn <= state.turn))
        .and_then(|u| tracker::commit_reserves(state, side, &u.company).ok());
    if let Some(event) = reserve {
        return Ok(Some(event));
    }
    let shooter = tracker::shooters(state, side)
        .into_iter()
        .find(|u| !u.fire_marker)
        .map(|u| u.id.clone());
    let target = tracker::targets(state, opponent(side))
        .first()
        .map(|u| u.id.clone());
    let fired_this_pulse = state
        .units_of(side)
        .any(|u| u.fire_marker && u.status == UnitStatus::OnTable);
    if let (Some(a), Some(t), false) = (shooter, target, fired_this_pulse) {
        let situation = FireSituation {
            range: RangeBand::Effective,
            ..FireSituation::default()
        };
        return tracker::fire(state, &a, &t, situation, roller).map(Some);
    }
    match state.side(side).chains.first() {
        Some(chain) => {
            tracker::use_chain(state, side, chain.face, chain.dice, ChainUse::Orders).map(Some)
        }
        None => tracker::end_turn(state).map(Some),
    }
}
