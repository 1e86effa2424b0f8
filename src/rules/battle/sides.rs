//! The two sides of a battle and a value for each.
//!
//! Armour Battles names its sides US and German; every other ruleset's first and second
//! player are kept under the same two keys (`us` = first, `german` = second), because campaign
//! files and stored battles have always been written so.

use serde::{Deserialize, Serialize};

/// One of the two sides: Armour Battles' US and German, any other ruleset's first and second
/// player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Us,
    German,
}

impl Side {
    /// The Lorraine names ("US", "German"); a campaign of another ruleset names its sides by
    /// its own words (`campaign::CampaignKind::side_name`).
    pub fn label(self) -> &'static str {
        match self {
            Side::Us => "US",
            Side::German => "German",
        }
    }
}

/// A value per side; serialised as `{"us": …, "german": …}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sides<T> {
    pub us: T,
    pub german: T,
}

impl<T> Sides<T> {
    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::Us => &self.us,
            Side::German => &self.german,
        }
    }

    pub fn get_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::Us => &mut self.us,
            Side::German => &mut self.german,
        }
    }
}

/// The other side.
pub fn opponent(side: Side) -> Side {
    match side {
        Side::Us => Side::German,
        Side::German => Side::Us,
    }
}

/// Both sides, US (first player) first: the order briefings, rolls and pages use.
pub const SIDES: [Side; 2] = [Side::Us, Side::German];
