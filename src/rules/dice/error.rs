//! The ways dice maths can refuse a request.
//!
//! Exact odds are counted in `u128`, so a big enough pool cannot be counted at all; the caller
//! must hear that as a typed error rather than get a wrapped, silently wrong answer.

use thiserror::Error;

use super::table::{FaceNames, Unread, die_words};

/// Why a distribution, a roll or a simulation could not be produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum DiceError {
    /// Counting every outcome of this many dice would overflow `u128`.
    ///
    /// For d6 the limit is [`MAX_EXACT_D6`](super::MAX_EXACT_D6) (49 dice); for other dice it
    /// depends on the die's total weight.
    #[error("cannot count {dice} dice exactly: at most {limit} dice of this kind fit")]
    TooManyDice {
        /// How many dice were asked for.
        dice: u32,
        /// The most dice of this kind that can be handled.
        limit: u32,
    },
    /// The weights, or the product of two distributions' totals, do not fit in `u128`.
    #[error("the outcome weights add up to more than u128 can hold")]
    WeightOverflow,
    /// No outcome had a positive weight, so there is nothing to roll.
    #[error("a distribution needs at least one outcome with a positive weight")]
    Empty,
    /// A die must have at least one side.
    #[error("a die needs at least one side")]
    NoSides,
    /// A simulation was asked to run zero trials, which estimates nothing.
    #[error("a simulation needs at least one trial")]
    NoTrials,
    /// The rules asked for a pool of dice rolled at the table, and none was given for it.
    #[error(
        "{pool}{}: no faces given: the rules roll {} here",
        again(*roll),
        die_words(*count, *sides, *faces)
    )]
    NoTableDice {
        /// The pool's name ("attack").
        pool: &'static str,
        sides: u8,
        count: u32,
        /// Which roll of that pool (1 for the first; a reroll round asks again).
        roll: u32,
        /// What its faces are called, for the words of the refusal.
        faces: FaceNames,
    },
    /// Dice rolled at the table: a pool was given more or fewer faces than the rules roll.
    #[error(
        "{pool}: {given} faces given: the rules roll {} here",
        die_words(*wanted, *sides, *faces)
    )]
    WrongTableCount {
        pool: &'static str,
        given: u32,
        wanted: u32,
        sides: u8,
        faces: FaceNames,
    },
    /// Dice rolled at the table, typed so they cannot be read for this die ("1720" as two
    /// d20s, a letter the die does not show); the message names the piece.
    #[error("{pool}: {}", unread.words(*sides, *faces))]
    Unreadable {
        pool: &'static str,
        sides: u8,
        faces: FaceNames,
        unread: Unread,
    },
    /// Dice rolled at the table: a face the pool's die does not have.
    #[error("{pool}: {face} is not a face of a d{sides} (1 to {sides})")]
    NotOnTheDie {
        pool: &'static str,
        face: u8,
        sides: u8,
    },
}

/// " (roll 2)" for a pool's second roll, nothing for its first.
fn again(roll: u32) -> String {
    if roll > 1 {
        format!(" (roll {roll})")
    } else {
        String::new()
    }
}

impl DiceError {
    /// Whether the error is about dice rolled at the table (a front end names its dice entry).
    pub fn is_table_dice(&self) -> bool {
        matches!(
            self,
            DiceError::NoTableDice { .. }
                | DiceError::WrongTableCount { .. }
                | DiceError::Unreadable { .. }
                | DiceError::NotOnTheDie { .. }
        )
    }
}
