//! Pure game rules: no I/O, no egui, no SQL.
//!
//! Each ruleset is one module behind the [`Ruleset`] trait, registered once in
//! [`registry::ruleset`]. The books' tables live as JSON under `db/seed/`, embedded at compile
//! time and parsed here, so a rules change is a data change.
//!
//! # Adding a sixth ruleset
//!
//! The rules, their data and their mechanics are the new module; the front ends need one
//! flags file and no form file: the window draws any mechanic from its input description
//! and its [`resolution::Report`]. The compiler lists every edit below once the `RulesetId`
//! variant exists.
//!
//! New files (7, and `resolve/tests.rs`):
//! 1. `db/seed/<id>.json` — the book's cards and tables as data (numbers, never prose).
//! 2. `src/rules/<id>/` — the module: `mod.rs` (the card type, `impl Ruleset` with library,
//!    budget check, optional `warnings`, and `mechanics()`, loading the seed through
//!    `registry::Book`), `resolve.rs` (+ `resolve/tests.rs`: exact odds as `Dist`s and
//!    seeded rolls taking a [`dice::Roller`], refusing with the one
//!    [`resolution::ResolveError`]), `mechanics.rs` (each mechanic's inputs, checks and
//!    [`resolution::Report`]s — every rule decision and every word shown, once) and
//!    `rulings.rs` (its [`HouseDefault`]s, in the app's words).
//! 3. `templates/reference/<id>.json` — the quick-reference card layout.
//! 4. `src/cli/resolve/<id>.rs` — only the clap flags and their mapping onto the
//!    mechanics' inputs (`RulesetFlags`).
//!
//! Edits, one line or one match arm each (9 files; the closed `RulesetId` and `Card` enums
//! are why this is not yet one registry line):
//! 1. `src/rules/mod.rs` — `pub mod <id>;`.
//! 2. `src/rules/ruleset.rs` — the `RulesetId` variant, its id and title.
//! 3. `src/rules/card.rs` — the `Card` variant and its arms.
//! 4. `src/rules/registry.rs` — the registry line: the static, its `ruleset` arm and its
//!    `seed_errors` entry.
//! 5. `src/cli/resolve/mod.rs` — the `OddsCommand`/`RollCommand` variants and their two
//!    dispatch arms.
//! 6. `src/ui/card_editor.rs`, `src/ui/forces.rs` — a new card's fields, the budget picker.
//! 7. `src/export/cards.rs`, `src/export/reference/tags.rs` — the printed card's lines and
//!    its reference tags.
//!
//! Then `docs/rulings.md` gets a section in the project's words, and the snapshot suite
//! (`tests/snapshots/resolve.cases`) a few command lines of the new ruleset; its JSON is
//! checked against the one shape automatically, and `rules::resolution`'s tests check its
//! input descriptions and reports with no new test code.

pub mod card;
pub mod card_field;
pub mod dice;
pub mod error;
pub mod force;
pub mod force_file;
pub mod house_default;
pub mod names;
pub mod reference;
pub mod registry;
pub mod resolution;
pub mod ruleset;
pub mod stat;
pub mod strict_json;
pub mod validation;
pub mod words;

pub use error::RulesError;
pub use force::{Budget, CardRef, Force, ForceUnit};
pub use house_default::HouseDefault;
pub use registry::{all_rulesets, id_list, preset_force};
pub use ruleset::{Ruleset, UnitCost};
pub use validation::{Validation, Violation};

registry::rulesets! {
    "armour-battles" => ArmourBattles: armour_battles::{ArmourBattles, UnitCard},
    "belloludi" => Belloludi: belloludi::{BelloLudi, Vehicle},
    "battle-of-tanks" => BattleOfTanks: battle_of_tanks::{BattleOfTanks, TankCard},
    "bolt-action" => BoltAction: bolt_action::{BoltAction, UnitProfile},
    "belle-epoque" => BelleEpoque: belle_epoque::{BelleEpoque, UnitProfile},
}
