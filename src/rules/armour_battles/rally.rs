//! Rallying a unit: removing Disruption Points with the battle group's Rally Dice.
//!
//! The book names a Rally Table whose values were an image and are lost; RULINGS "Rally
//! Table" gives the project's defaults, kept in the seed data (`rally_table`) so a group can
//! play its own: the TN by distance to the closest enemy, +1D in or behind cover, +1D with
//! no line of sight to the enemy, +1D per wild die or Staff Order. The opponent rolls one
//! die per current Disruption Point at 4+; each rally success beyond his removes a point,
//! never more than the unit has. Suppressed units cannot rally.

use serde::Deserialize;

use super::cards::{UnitCard, UnitKind};
use super::error::ResolveError;
use super::fire::{Bonus, Builder, Modified, Modifier, check_disruption, dice};
use super::outcome::HouseDefault;
use crate::rules::dice::{Dist, Opposed, Pool, RollRecord, Roller};

/// One row of the Rally Table: units up to `up_to_inches` from the closest enemy rally at
/// `tn`+; the last row has no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RallyBand {
    #[serde(default)]
    pub up_to_inches: Option<u32>,
    pub tn: i32,
}

/// The Rally Table and its dice modifiers.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RallyTable {
    /// Rows by increasing distance; the last has no `up_to_inches`.
    pub bands: Vec<RallyBand>,
    pub cover_dice: i32,
    pub no_line_of_sight_dice: i32,
    pub wild_die_dice: i32,
    pub staff_order_dice: i32,
    /// The opponent's TN for the dice he rolls per Disruption Point.
    pub opponent_tn: i32,
}

impl RallyTable {
    /// Checks the rows are in order and end with an open row.
    pub(crate) fn check(&self) -> Result<(), String> {
        let Some((last, rows)) = self.bands.split_last() else {
            return Err("rally_table.bands is empty".to_string());
        };
        if last.up_to_inches.is_some() {
            return Err("rally_table.bands: the last row must have no up_to_inches".to_string());
        }
        let mut previous = None;
        for (i, row) in rows.iter().enumerate() {
            let Some(limit) = row.up_to_inches else {
                return Err(format!(
                    "rally_table.bands[{i}]: only the last row may omit up_to_inches"
                ));
            };
            if previous.is_some_and(|p| limit <= p) {
                return Err(format!(
                    "rally_table.bands[{i}].up_to_inches {limit}: rows must grow in distance"
                ));
            }
            previous = Some(limit);
        }
        Ok(())
    }

    /// The index in `bands` of the row used for a unit `distance` inches from the closest
    /// enemy.
    pub fn row_at(&self, distance: f64) -> Option<usize> {
        self.bands.iter().position(|band| {
            band.up_to_inches
                .is_none_or(|limit| distance <= f64::from(limit))
        })
    }

    /// The rally TN for a unit `distance` inches from the closest enemy.
    pub fn tn_at(&self, distance: f64) -> Option<i32> {
        self.row_at(distance)
            .and_then(|row| self.bands.get(row))
            .map(|band| band.tn)
    }
}

/// RULINGS: the lost Rally Table's values.
pub const RALLY_TN_RULING: HouseDefault = HouseDefault {
    value: "rally_tn",
    ruling: "Rally TN by distance to the closest enemy: up to 6″ 6+, up to 12″ 5+, up to 24″ 4+, farther 3+ (the book's table is lost).",
};

/// RULINGS: a unit never loses more points than it has.
pub const REMOVED_RULING: HouseDefault = HouseDefault {
    value: "removed",
    ruling: "Points removed = rally successes − opponent successes, never more than the unit has.",
};

/// One rally attempt.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RallySituation {
    /// Inches to the closest enemy unit.
    pub distance_inches: f64,
    /// In or behind cover.
    pub cover: bool,
    /// No line of sight to any enemy.
    pub no_line_of_sight: bool,
    pub bonus: Bonus,
    /// The unit's current Disruption Points.
    pub disruption: u32,
    pub suppressed: bool,
}

/// Both pools of a rally and how they were built.
#[derive(Debug, Clone, PartialEq)]
pub struct RallyPools {
    pub rally: Pool,
    pub opponent: Pool,
    /// The battle group's Rally Dice before modifiers.
    pub base_dice: u32,
    pub modifiers: Vec<Modifier>,
}

/// Exact odds of one rally attempt.
#[derive(Debug, Clone, PartialEq)]
pub struct RallyOdds {
    pub unit: String,
    pub rally_dice: u32,
    pub rally_tn: i32,
    pub opponent_dice: u32,
    pub opponent_tn: i32,
    pub base_dice: u32,
    pub modifiers: Vec<Modifier>,
    /// Disruption Points removed, exact over `removed.total()`.
    pub removed: Dist<u32>,
    /// The unit's Disruption Points before the attempt.
    pub disruption: u32,
    pub house_defaults: Vec<HouseDefault>,
}

impl RallyOdds {
    /// P(at least `n` points removed).
    pub fn p_removed_at_least(&self, n: u32) -> f64 {
        self.removed.at_least(&n)
    }
}

/// Builds the rally and opponent pools.
///
/// # Errors
/// A suppressed unit, off-table artillery, a distance that is not a number of inches, or
/// Disruption Points at or above the unit's Cohesion.
pub fn rally_pools(
    unit: &UnitCard,
    rally_dice: u32,
    situation: &RallySituation,
    table: &RallyTable,
) -> Result<RallyPools, ResolveError> {
    if unit.kind == UnitKind::OffTableArtillery {
        return Err(ResolveError::Situation {
            field: "unit",
            value: unit.name.clone(),
            reason: "off-table artillery takes no Disruption Points and never rallies",
        });
    }
    if situation.suppressed {
        return Err(ResolveError::SuppressedCannotRally);
    }
    check_disruption(unit, situation.disruption)?;
    let distance = situation.distance_inches;
    let tn = (distance.is_finite() && distance >= 0.0)
        .then(|| table.tn_at(distance))
        .flatten()
        .ok_or_else(|| ResolveError::Situation {
            field: "distance_inches",
            value: distance.to_string(),
            reason: "the distance to the closest enemy must be 0 or more inches",
        })?;
    let mut b = Builder::new();
    b.add_if(
        situation.cover,
        Modified::RallyDice,
        "in or behind cover",
        table.cover_dice,
    );
    if situation.no_line_of_sight {
        b.add(
            Modified::RallyDice,
            "no line of sight to the enemy",
            table.no_line_of_sight_dice,
        );
    }
    b.bonus(
        Modified::RallyDice,
        situation.bonus,
        table.wild_die_dice,
        table.staff_order_dice,
    );
    let dice_count = dice(b.total(
        Modified::RallyDice,
        i32::try_from(rally_dice).unwrap_or(i32::MAX),
    ));
    Ok(RallyPools {
        rally: Pool::new(dice_count, tn),
        opponent: Pool::new(situation.disruption, table.opponent_tn),
        base_dice: rally_dice,
        modifiers: b.modifiers,
    })
}

/// Points removed by one pair of rolls.
fn removed(rally_successes: u32, opponent_successes: u32, disruption: u32) -> u32 {
    rally_successes
        .saturating_sub(opponent_successes)
        .min(disruption)
}

/// Exact odds of rallying `unit` with the battle group's `rally_dice` and the seed Rally
/// Table.
///
/// # Errors
/// As [`rally_pools`]; [`ResolveError::Data`] if the seed data failed to load.
pub fn rally_odds(
    unit: &UnitCard,
    rally_dice: u32,
    situation: &RallySituation,
) -> Result<RallyOdds, ResolveError> {
    rally_odds_with(unit, rally_dice, situation, super::rally_table()?)
}

/// [`rally_odds`] with the given Rally Table.
///
/// # Errors
/// As [`rally_pools`].
pub fn rally_odds_with(
    unit: &UnitCard,
    rally_dice: u32,
    situation: &RallySituation,
    table: &RallyTable,
) -> Result<RallyOdds, ResolveError> {
    let pools = rally_pools(unit, rally_dice, situation, table)?;
    let opposed = Opposed::new(pools.rally, pools.opponent)?;
    let disruption = situation.disruption;
    let removed = opposed.fold(|a, d| removed(a.successes, d.successes, disruption));
    Ok(RallyOdds {
        unit: unit.name.clone(),
        rally_dice: pools.rally.dice,
        rally_tn: pools.rally.target,
        opponent_dice: pools.opponent.dice,
        opponent_tn: pools.opponent.target,
        base_dice: pools.base_dice,
        modifiers: pools.modifiers,
        removed,
        disruption,
        house_defaults: vec![RALLY_TN_RULING, REMOVED_RULING],
    })
}

/// One rolled rally attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RallyRoll {
    pub seed: u64,
    pub rally_tn: i32,
    pub opponent_tn: i32,
    pub rally: RollRecord,
    /// The opponent's dice, one per Disruption Point.
    pub opponent: RollRecord,
    pub rally_successes: u32,
    pub opponent_successes: u32,
    pub removed: u32,
    /// Disruption Points left on the unit.
    pub remaining: u32,
}

/// Rolls one rally attempt with the seed Rally Table.
///
/// # Errors
/// As [`rally_pools`]; [`ResolveError::Data`] if the seed data failed to load.
pub fn roll_rally(
    unit: &UnitCard,
    rally_dice: u32,
    situation: &RallySituation,
    roller: &mut Roller,
) -> Result<RallyRoll, ResolveError> {
    roll_rally_with(unit, rally_dice, situation, super::rally_table()?, roller)
}

/// [`roll_rally`] with the given Rally Table.
///
/// # Errors
/// As [`rally_pools`].
pub fn roll_rally_with(
    unit: &UnitCard,
    rally_dice: u32,
    situation: &RallySituation,
    table: &RallyTable,
    roller: &mut Roller,
) -> Result<RallyRoll, ResolveError> {
    let pools = rally_pools(unit, rally_dice, situation, table)?;
    let seed = roller.seed();
    let (rally, ours) = roller.roll_pool("rally", pools.rally)?;
    let (opponent, theirs) = roller.roll_pool("opponent", pools.opponent)?;
    let points = removed(ours.successes, theirs.successes, situation.disruption);
    Ok(RallyRoll {
        seed,
        rally_tn: pools.rally.target,
        opponent_tn: pools.opponent.target,
        rally,
        opponent,
        rally_successes: ours.successes,
        opponent_successes: theirs.successes,
        removed: points,
        remaining: situation.disruption - points,
    })
}

#[cfg(test)]
mod tests;
