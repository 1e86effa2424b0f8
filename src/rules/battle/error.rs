//! Why a battle action was refused, in words a player can act on — the same words in the
//! window's tracker, on the command line and in an import's refusal.

use thiserror::Error;

use crate::rules::RulesError;
use crate::rules::dice::DiceError;
use crate::rules::resolution::ResolveError;

#[derive(Debug, Error, Clone, PartialEq)]
pub enum BattleError {
    /// The ruleset's embedded battle data (briefings, cards) is missing something.
    #[error("the embedded battle data has no {0}")]
    MissingData(String),
    /// A value out of range, naming the field ("disruption: 3: …").
    #[error("{field}: {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    #[error("no unit {0} in this battle")]
    UnknownUnit(String),
    /// The rules or the table forbid it now; the message says why.
    #[error("{0}")]
    NotAllowed(String),
    #[error("the battle is over: {0}")]
    BattleOver(String),
    #[error("nothing to {0}")]
    NothingTo(&'static str),
    /// The mechanic refused the situation (an input out of its range, a move the card cannot
    /// make…), naming the input.
    #[error(transparent)]
    Resolve(#[from] ResolveError),
}

impl BattleError {
    pub fn not_allowed(message: impl Into<String>) -> Self {
        BattleError::NotAllowed(message.into())
    }
}

impl From<DiceError> for BattleError {
    fn from(e: DiceError) -> Self {
        BattleError::Resolve(ResolveError::Dice(e))
    }
}

impl From<RulesError> for BattleError {
    fn from(e: RulesError) -> Self {
        BattleError::Resolve(e.into())
    }
}
