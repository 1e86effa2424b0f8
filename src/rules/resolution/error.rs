//! The one way a resolution is refused, whatever the ruleset.
//!
//! Every mechanic answers with this type so a front end names the input at fault in one place
//! (the command line maps `field` to the flag the user typed, the window to the widget).

use thiserror::Error;

use crate::rules::RulesError;
use crate::rules::dice::DiceError;

/// Why a mechanic could not give odds or roll dice.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ResolveError {
    /// The ruleset's embedded tables did not load (the registry reports the parse error).
    #[error("the {ruleset} tables did not load from the seed data")]
    NoData {
        /// The book's title.
        ruleset: &'static str,
    },
    /// The embedded tables do not fit together (a build-time data bug caught by tests).
    #[error("{ruleset} seed data: {message}")]
    BadData {
        ruleset: &'static str,
        message: String,
    },
    /// An input the rules do not allow, naming the input (its key in the mechanic's input
    /// description) and what is wrong with its value.
    #[error("{field}: {message}")]
    Invalid {
        /// The input's key (`target_disruption`), or a plain name where no single input is
        /// at fault.
        field: &'static str,
        message: String,
    },
    /// A legal situation the rules answer with no result ("beyond sight: no fire"): front
    /// ends show it as the answer, not as a mistake.
    #[error("{0}")]
    NoResult(String),
    /// The dice core refused (too many dice to count exactly, or to roll).
    #[error(transparent)]
    Dice(#[from] DiceError),
}

impl ResolveError {
    /// Shorthand for an invalid input.
    pub fn invalid(field: &'static str, message: impl Into<String>) -> Self {
        ResolveError::Invalid {
            field,
            message: message.into(),
        }
    }
}

impl From<RulesError> for ResolveError {
    fn from(error: RulesError) -> Self {
        ResolveError::BadData {
            ruleset: "rules",
            message: error.to_string(),
        }
    }
}
