//! One vocabulary for resolution, shared by every ruleset and every front end.
//!
//! A [`Mechanic`] describes its inputs ([`InputSpec`]), refuses impossible combinations with
//! the reason ([`ResolveError::Invalid`] naming the input), and answers with a
//! presentation-neutral [`Report`] — exact odds, or a seeded roll. Each ruleset lists its
//! mechanics through [`crate::rules::Ruleset::mechanics`]; the command line only maps its
//! flags onto the inputs and prints the report, the window draws a widget per input and the
//! report as it comes. The rules' own odds and roll functions (tested against enumeration)
//! do the sums; a ruleset's `mechanics.rs` turns their answers into reports.

pub mod error;
pub mod input;
pub mod report;

pub use error::ResolveError;
pub use input::{
    CardFilter, CardPick, Choice, EntryField, InputKind, InputSpec, InputValue, Inputs, ListEntry,
};
pub use report::{DiceRecord, Distribution, Estimate, Headline, Outcome, Report, Value};

use crate::rules::{RulesetId, all_rulesets, ruleset};

/// Which mechanic: its ruleset and key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MechanicId {
    pub ruleset: RulesetId,
    pub key: &'static str,
}

/// A set of input values the book gives for a situation ("Battle 2": its command dice and
/// first-pulse rule), offered in one click.
#[derive(Debug, Clone)]
pub struct Preset {
    pub label: String,
    pub help: &'static str,
    pub values: Vec<(&'static str, InputValue)>,
}

/// One thing a ruleset resolves: a shot, a command roll, a rally.
pub struct Mechanic {
    pub ruleset: RulesetId,
    /// Stable, snake_case: the JSON `mechanic` (`direct_fire`).
    pub key: &'static str,
    /// Its name after the ruleset's in a picker ("fire", "commander die").
    pub label: &'static str,
    /// What it asks for.
    pub inputs: fn() -> Vec<InputSpec>,
    /// Refuses an impossible combination of inputs, naming the input and the reason.
    pub check: fn(&Inputs) -> Result<(), ResolveError>,
    /// Exact odds (or a marked estimate where exact weights cannot be counted).
    pub odds: fn(&Inputs) -> Result<Report, ResolveError>,
    /// The same situation rolled with dice from `seed`.
    pub roll: fn(&Inputs, u64) -> Result<Report, ResolveError>,
    /// Situations the book gives, offered in one click (none for most mechanics).
    pub presets: fn() -> Vec<Preset>,
}

impl Mechanic {
    pub fn id(&self) -> MechanicId {
        MechanicId {
            ruleset: self.ruleset,
            key: self.key,
        }
    }

    /// "Ruleset — mechanic", as a picker lists it.
    pub fn title(&self) -> String {
        format!("{} — {}", self.ruleset.title(), self.label)
    }

    /// Every input at its default.
    pub fn defaults(&self) -> Inputs {
        Inputs::defaults(&(self.inputs)())
    }

    /// Checks, then counts the odds.
    pub fn resolve_odds(&self, inputs: &Inputs) -> Result<Report, ResolveError> {
        (self.check)(inputs)?;
        (self.odds)(inputs)
    }

    /// Checks, then rolls with `seed`.
    pub fn resolve_roll(&self, inputs: &Inputs, seed: u64) -> Result<Report, ResolveError> {
        (self.check)(inputs)?;
        (self.roll)(inputs, seed)
    }
}

impl std::fmt::Debug for Mechanic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Mechanic({} {})", self.ruleset, self.key)
    }
}

impl PartialEq for Mechanic {
    fn eq(&self, other: &Self) -> bool {
        self.ruleset == other.ruleset && self.key == other.key
    }
}

/// Every mechanic of every ruleset, in menu order.
pub fn mechanics() -> impl Iterator<Item = &'static Mechanic> {
    all_rulesets().flat_map(|r| r.mechanics().iter())
}

/// The mechanic `key` of `ruleset`.
pub fn mechanic(id: RulesetId, key: &str) -> Option<&'static Mechanic> {
    ruleset(id).mechanics().iter().find(|m| m.key == key)
}

/// The mechanic `id` names.
pub fn find(id: MechanicId) -> Option<&'static Mechanic> {
    mechanic(id.ruleset, id.key)
}

/// A check that accepts everything, for mechanics with no impossible combinations.
pub fn no_check(_: &Inputs) -> Result<(), ResolveError> {
    Ok(())
}

#[cfg(test)]
mod tests;
