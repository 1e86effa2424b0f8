//! An Armour Battles battle at the table: the first implementation of the battle seam
//! ([`crate::rules::battle`]).
//!
//! - [`plan`]: both battle groups as a briefing gives them (the Lorraine 1944 campaign's three,
//!   and the book's "What next?");
//! - [`state`]: the table as the events leave it — turn, pulse, both sides' chains, wild dice,
//!   Staff Orders, Army Morale and missions, every unit's status, Disruption and suppression;
//! - [`event`]: what happens, with every die;
//! - [`actions`]: what may be done now, described for every front end, the mechanic inputs an
//!   action resolves with and the event it records — through the ruleset's mechanics, so the
//!   tracker, `campaign record` and the Resolve view give one answer;
//! - [`decide`]: the rules' checks and the events they allow (also used to verify);
//! - [`verify`]: a recorded event re-derived from its dice; [`describe`]: an event in words;
//!   [`script`]: a scripted player for tests and demos.

pub mod actions;
pub mod decide;
pub mod describe;
pub mod event;
pub mod plan;
pub mod script;
pub mod state;
pub mod verify;

pub use event::Event;
pub use plan::ArmourBattlePlan;
pub use state::BattleState;

use super::error::ResolveError as AbError;
use crate::rules::battle::{
    Action, BattleError, BattleRules, Decided, Dice, Facts, Request, SIDES, Side, Sides, Summary,
};
use crate::rules::dice::{PoolRequest, TableDice};
use crate::rules::resolution::{Inputs, MechanicId};

/// Armour Battles' battle rules, as the campaign sees them.
pub struct ArmourBattle;

impl BattleRules for ArmourBattle {
    type Plan = ArmourBattlePlan;
    type State = BattleState;
    type Event = Event;

    fn start(plan: &ArmourBattlePlan, carried: &Sides<Vec<String>>) -> BattleState {
        BattleState::start_with(plan, carried)
    }

    fn apply(state: &mut BattleState, event: &Event) {
        state.apply(event);
    }

    fn conclude(state: &mut BattleState, winner: Option<Side>, notes: &str) {
        state.conclude(winner, notes);
    }

    fn summary(state: &BattleState) -> Summary {
        let mut losses: Sides<Vec<String>> = Sides::default();
        for side in SIDES {
            *losses.get_mut(side) = state.losses(side).map(|u| u.card.clone()).collect();
        }
        Summary {
            outcome: state.outcome.as_ref().map(|o| (o.winner, o.reason.clone())),
            turns: state.turn,
            score: Some(state.morale()),
            losses,
        }
    }

    fn actions(plan: &ArmourBattlePlan, state: &BattleState) -> Vec<Action> {
        actions::actions(plan, state)
    }

    fn situation(
        plan: &ArmourBattlePlan,
        state: &BattleState,
        request: &Request,
    ) -> Result<(MechanicId, Inputs), BattleError> {
        actions::situation(plan, state, request)
    }

    fn decide(
        plan: &ArmourBattlePlan,
        state: &BattleState,
        request: &Request,
        dice: &Dice,
    ) -> Result<Decided<Event>, BattleError> {
        actions::decide(plan, state, request, dice)
    }

    fn pools(
        plan: &ArmourBattlePlan,
        state: &BattleState,
        request: &Request,
        given: &TableDice,
    ) -> (Vec<PoolRequest>, Result<Decided<Event>, BattleError>) {
        actions::pools(plan, state, request, given)
    }

    fn rederive(
        plan: &ArmourBattlePlan,
        state: &BattleState,
        event: &Event,
        revision: u32,
    ) -> Result<Event, BattleError> {
        verify::rederive(plan, state, event, revision)
    }

    fn revisions() -> std::ops::RangeInclusive<u32> {
        crate::rules::armour_battles::revision::FIRST
            ..=crate::rules::armour_battles::revision::CURRENT
    }

    fn describe(plan: &ArmourBattlePlan, event: &Event) -> String {
        describe::describe(event, plan)
    }

    fn facts(event: &Event) -> Facts<'_> {
        event.facts()
    }
}

/// An Armour Battles refusal in the battle's words: the message as the rules give it.
impl From<AbError> for BattleError {
    fn from(error: AbError) -> Self {
        match error {
            AbError::Dice(e) => e.into(),
            AbError::Data(e) => e.into(),
            other => BattleError::NotAllowed(other.to_string()),
        }
    }
}
