//! Moving a unit, and the Tiger I's Poor Reliability.
//!
//! A move is the Fixed Move per order plus the variable dice (1D per order, doubled for fast
//! vehicles). A unit with Poor Reliability that makes a double or triple move breaks down
//! when those variable dice show more 1s than 6s: it does not move this turn. The book only
//! says "rolls more 1s than 6s on a double or triple move"; the project reads that as the
//! move's own variable dice (2 on a double move, 3 on a triple), which is marked as a house
//! default.

use super::cards::{SpecialRule, UnitCard, UnitKind};
use super::error::ResolveError;
use super::fire::MoveOrder;
use super::outcome::{Chance, HouseDefault};
use crate::rules::dice::{Dist, RollRecord, Roller, d6};

/// The reading of "more 1s than 6s on a double or triple move".
pub const BREAKDOWN_RULING: HouseDefault = HouseDefault {
    value: "p_breakdown",
    ruling: "Poor Reliability checks the move's variable dice: 2 on a double move, 3 on a triple move; more 1s than 6s breaks down.",
};

/// Where a move ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MoveResult {
    /// Broke down: no move this turn (it may still fire).
    BrokeDown,
    /// Moved this many inches.
    Moved(u32),
}

/// Exact odds of one move.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveOdds {
    pub unit: String,
    pub order: MoveOrder,
    /// Variable dice rolled.
    pub dice: u32,
    /// Whether this move is checked for a breakdown (Poor Reliability, double or triple).
    pub checks_reliability: bool,
    pub breakdown: Chance,
    /// Every outcome, exact over 6^dice.
    pub outcomes: Dist<MoveResult>,
    pub house_defaults: Vec<HouseDefault>,
}

impl MoveOdds {
    pub fn p_breakdown(&self) -> f64 {
        self.breakdown.p()
    }
}

/// The move's numbers: (fixed inches, variable dice, multiplier, checks reliability).
fn move_numbers(unit: &UnitCard, order: MoveOrder) -> Result<(u32, u32, u32, bool), ResolveError> {
    let class = match (unit.kind, unit.move_class) {
        (UnitKind::Afv, Some(class)) => class,
        _ => {
            return Err(ResolveError::MissingStat {
                name: unit.name.clone(),
                field: "move",
            });
        }
    };
    let formula = class.formula();
    let orders = order.orders();
    let checks = unit.has(SpecialRule::PoorReliability) && orders >= 2;
    Ok((
        formula.fixed_inches * orders,
        formula.variable_dice * orders,
        formula.multiplier,
        checks,
    ))
}

fn result_of(faces: &[u32], fixed: u32, multiplier: u32, checks: bool) -> MoveResult {
    let ones = faces.iter().filter(|&&f| f == 1).count();
    let sixes = faces.iter().filter(|&&f| f == 6).count();
    if checks && ones > sixes {
        MoveResult::BrokeDown
    } else {
        MoveResult::Moved(fixed + faces.iter().sum::<u32>() * multiplier)
    }
}

/// Exact odds of `unit` making a single, double or triple move.
///
/// # Errors
/// [`ResolveError::MissingStat`] for off-table artillery (it has no move).
pub fn move_odds(unit: &UnitCard, order: MoveOrder) -> Result<MoveOdds, ResolveError> {
    let (fixed, dice, multiplier, checks) = move_numbers(unit, order)?;
    // State: (ones − sixes, sum of faces); the result only depends on both.
    let rolled = d6().repeat(dice, (0i32, 0u32), |&(net, sum), &face| {
        let step = match face {
            1 => 1,
            6 => -1,
            _ => 0,
        };
        (net + step, sum + face)
    })?;
    let outcomes = rolled.map(|&(net, sum)| {
        if checks && net > 0 {
            MoveResult::BrokeDown
        } else {
            MoveResult::Moved(fixed + sum * multiplier)
        }
    });
    Ok(MoveOdds {
        unit: unit.name.clone(),
        order,
        dice,
        checks_reliability: checks,
        breakdown: Chance {
            weight: outcomes.weight(&MoveResult::BrokeDown),
            total: outcomes.total(),
        },
        outcomes,
        house_defaults: if checks {
            vec![BREAKDOWN_RULING]
        } else {
            Vec::new()
        },
    })
}

/// One rolled move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRoll {
    pub seed: u64,
    pub record: RollRecord,
    pub checks_reliability: bool,
    pub result: MoveResult,
}

/// Rolls one move's variable dice.
///
/// # Errors
/// [`ResolveError::MissingStat`] for off-table artillery.
pub fn roll_move(
    unit: &UnitCard,
    order: MoveOrder,
    roller: &mut Roller,
) -> Result<MoveRoll, ResolveError> {
    let (fixed, dice, multiplier, checks) = move_numbers(unit, order)?;
    let seed = roller.seed();
    let record = roller.roll_d6("move", dice)?;
    let faces: Vec<u32> = record.dice.iter().map(|&f| u32::from(f)).collect();
    Ok(MoveRoll {
        seed,
        result: result_of(&faces, fixed, multiplier, checks),
        checks_reliability: checks,
        record,
    })
}

#[cfg(test)]
mod tests;
