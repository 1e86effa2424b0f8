//! Dice maths shared by all five rulesets.
//!
//! Rulesets need exact odds to show players and to compare options, and they need rolls that
//! can be shown, logged and replayed. Keeping both here means every ruleset agrees on what
//! "4+" means, how sixes are counted, how big a pool can be counted exactly, and how a seed
//! becomes dice.
//!
//! - [`Dist`]: an exact distribution with integer (`u128`) weights over a known total, with
//!   [`combine`], [`Dist::map`], [`Dist::sum_of`], [`Dist::count_where`] and [`Dist::repeat`].
//!   Weights never wrap: overflow is a [`DiceError`]. Up to [`MAX_EXACT_D6`] (49) d6 fit.
//! - [`d6`], [`d3`], [`d4`], [`d8`], [`d20`], [`die`], and custom faces via
//!   [`Dist::from_weights`].
//! - [`Pool`] and [`PoolOutcome`]: successes and sixes of n d6 against a target number.
//! - [`Opposed`]: exact attacker-against-defender odds folded into any key.
//! - [`Roller`] and [`RollRecord`]: seeded, portable, replayable rolls, each asked for by a
//!   pool name; or dice rolled at the table ([`TableDice`]) checked against the request.
//! - [`simulate_fire`]: fast seeded Monte Carlo of opposed fire with [`Estimate`]s.

mod common_dice;
mod counting;
mod distribution;
mod error;
mod opposed;
mod pool;
mod roller;
mod simulation;
mod table;
#[cfg(test)]
pub(crate) mod test_support;

pub use common_dice::{d3, d4, d6, d8, d20, die};
pub use distribution::{Dist, MAX_REPEAT, combine};
pub use error::DiceError;
pub use opposed::Opposed;
pub use pool::{MAX_EXACT_D6, Pool, PoolOutcome, is_success};
pub use roller::{DiceSource, MAX_ROLLED_DICE, RollRecord, Roller, seed_from};
pub use simulation::{Estimate, FireTally, MAX_SIMULATED_DICE, simulate_fire};
pub use table::{
    FaceNames, PoolRequest, Source, TableDice, Unread, check_typed, die_words, parse_faces,
    read_faces, read_named,
};
