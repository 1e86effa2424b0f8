//! The rules of an Armour Battles battle at the table, as the Lorraine tracker always played
//! them, now read off the generic board by [`super::table_battle`]:
//!
//! - [`state`]: the table as the rules read it — turn, pulse, both sides' chains, wild dice,
//!   Staff Orders, Army Morale and missions, every unit's status, Disruption and suppression —
//!   and what one event does to it;
//! - [`event`]: what happens, with every die (also the kinds recorded before battles were
//!   fought on the board, which old campaign files hold);
//! - [`actions`]: what may be done now, described for every front end, the mechanic inputs an
//!   action resolves with and the event it records — through the ruleset's mechanics, so the
//!   window, `campaign record` and the Resolve view give one answer;
//! - [`decide`]: the rules' checks and the events they allow (also used to verify);
//! - [`verify`]: a recorded event re-derived from its dice; [`describe`]: an event in words;
//!   [`plan`]: a battle plan as the old tracker recorded it.

pub mod actions;
pub mod decide;
pub mod describe;
pub mod event;
pub mod plan;
pub mod state;
pub mod verify;

pub use event::Event;
pub use state::BattleState;

use super::error::ResolveError as AbError;
use crate::rules::battle::BattleError;

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
