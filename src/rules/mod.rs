//! Pure game rules: no I/O, no egui, no SQL.
//!
//! Each ruleset is one module behind the [`Ruleset`] trait, registered once in
//! [`registry::RULESETS`]. The books' tables live as JSON under `db/seed/`, embedded at compile
//! time and parsed here, so a rules change is a data change.

pub mod armour_battles;
pub mod battle_of_tanks;
pub mod belle_epoque;
pub mod belloludi;
pub mod bolt_action;
pub mod card;
pub mod dice;
pub mod error;
pub mod force;
pub mod force_file;
pub mod house_default;
pub mod names;
pub mod registry;
pub mod ruleset;
pub mod stat;
pub mod validation;
pub mod words;

pub use card::Card;
pub use error::RulesError;
pub use force::{Budget, CardRef, Force, ForceUnit};
pub use house_default::HouseDefault;
pub use registry::{all_rulesets, ruleset};
pub use ruleset::{Ruleset, RulesetId};
pub use validation::{Validation, Violation};
