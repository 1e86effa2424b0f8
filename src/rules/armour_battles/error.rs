//! Why an Armour Battles odds query or roll was refused.
//!
//! Fire, artillery, rally, command and reliability checks all take a situation a user typed;
//! each impossible situation gets its own variant whose message names the unit, the field and
//! the value, so the CLI and the UI can show it as is.

use thiserror::Error;

use crate::rules::RulesError;
use crate::rules::dice::DiceError;

/// Everything the Armour Battles resolution functions can refuse.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ResolveError {
    /// Off-table artillery cannot fire direct fire; it fires artillery missions.
    #[error("{name} is off-table artillery: it fires artillery missions, not direct fire")]
    ArtilleryCannotFireDirectly { name: String },
    /// Only off-table artillery cards fire artillery missions.
    #[error("{name} is not off-table artillery: only an artillery card fires an artillery mission")]
    NotArtillery { name: String },
    /// Off-table artillery is never on the table, so nothing can shoot at it.
    #[error("{name} is off-table artillery and has no reaction dice: it cannot be fired at")]
    CannotBeTargeted { name: String },
    /// A card without reaction dice or a move line where one is needed (bad inline data).
    #[error("{name} has no {field} on its card")]
    MissingStat { name: String, field: &'static str },
    /// The target already has as many Disruption Points as its Cohesion: it was dispersed.
    #[error(
        "{disruption} Disruption Points on {name}: a unit is dispersed at {cohesion}, so it can have at most {max}"
    )]
    DisruptionTooHigh {
        name: String,
        disruption: u32,
        cohesion: u32,
        max: u32,
    },
    /// The target cannot make the evasive move it was given.
    #[error("{name} cannot {action}: {reason}")]
    CannotEvade {
        name: String,
        action: &'static str,
        reason: &'static str,
    },
    /// A combination of modifiers the book does not allow.
    #[error("{field} = {value}: {reason}")]
    Situation {
        field: &'static str,
        value: String,
        reason: &'static str,
    },
    /// Suppressed units cannot be rallied.
    #[error(
        "a suppressed unit cannot rally: remove its suppression first (Remove Unit Suppression order)"
    )]
    SuppressedCannotRally,
    /// Exact first-pulse odds enumerate every face count; this many dice is past the limit.
    #[error(
        "{side} command dice = {dice}: exact first-pulse odds handle at most {limit} dice a side"
    )]
    TooManyCommandDice {
        side: &'static str,
        dice: u32,
        limit: u32,
    },
    /// A side needs at least one command die.
    #[error("{side} command dice = 0: each side rolls at least one command die")]
    NoCommandDice { side: &'static str },
    /// The first pulse kept tying (practically impossible; bounds the loop).
    #[error("the first command pulse tied {rounds} times in a row")]
    EndlessTie { rounds: u32 },
    /// The dice core refused (too many dice to count exactly, or to roll).
    #[error(transparent)]
    Dice(#[from] DiceError),
    /// The embedded seed data failed to load (a build-time bug caught by tests).
    #[error(transparent)]
    Data(#[from] RulesError),
}
