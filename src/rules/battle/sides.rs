//! The two sides of a battle and a value for each.
//!
//! The first and second player are kept under the keys `us` (first) and `german` (second),
//! because campaign files and stored battles have always been written so; what a side is
//! called is its player's or force's name (`campaign::sides`).

use serde::{Deserialize, Serialize};

/// One of the two sides: the first and second player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    #[serde(rename = "us")]
    First,
    #[serde(rename = "german")]
    Second,
}

/// A value per side; serialised as `{"us": …, "german": …}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sides<T> {
    #[serde(rename = "us")]
    pub first: T,
    #[serde(rename = "german")]
    pub second: T,
}

impl<T> Sides<T> {
    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::First => &self.first,
            Side::Second => &self.second,
        }
    }

    pub fn get_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::First => &mut self.first,
            Side::Second => &mut self.second,
        }
    }
}

/// The other side.
pub fn opponent(side: Side) -> Side {
    match side {
        Side::First => Side::Second,
        Side::Second => Side::First,
    }
}

/// Both sides, the first player first: the order briefings, rolls and pages use.
pub const SIDES: [Side; 2] = [Side::First, Side::Second];
