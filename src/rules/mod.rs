//! Pure game rules: no I/O, no egui, no SQL.
//!
//! Each ruleset is one module behind the [`Ruleset`] trait, registered once in
//! [`registry::ruleset`]. The books' tables live as JSON under `db/seed/`, embedded at compile
//! time and parsed here, so a rules change is a data change.
//!
//! # Adding a sixth ruleset
//!
//! The rules, their data and their mechanics are the new module; the front ends need no file
//! of their own: the window draws any mechanic's form and the command line builds its flags
//! from the input description, and both show its [`resolution::Report`]. The compiler lists
//! every edit below once the `RulesetId` variant exists.
//!
//! New files (6, and `resolve/tests.rs`):
//! 1. `db/seed/<id>.json` — the book's cards and tables as data (numbers, never prose).
//! 2. `src/rules/<id>/` — the module: `mod.rs` (the card type, `impl Ruleset` with library,
//!    budget check, optional `warnings`, and `mechanics()`, loading the seed through
//!    `registry::Book`), `resolve.rs` (+ `resolve/tests.rs`: exact odds as `Dist`s and
//!    rolls taking a [`dice::Roller`] that ask for every pool by name, refusing with the one
//!    [`resolution::ResolveError`]), `mechanics.rs` (each mechanic's inputs, checks and
//!    [`resolution::Report`]s — every rule decision and every word shown, once) and
//!    `rulings.rs` (its [`HouseDefault`]s, in the app's words).
//! 3. `templates/reference/<id>.json` — the quick-reference card layout.
//!
//! Edits, one line or one match arm each (8 files; the closed `RulesetId` and `Card` enums
//! are why this is not yet one registry line):
//! 1. `src/rules/mod.rs` — `pub mod <id>;`.
//! 2. `src/rules/ruleset.rs` — the `RulesetId` variant, its id and title.
//! 3. `src/rules/card.rs` — the `Card` variant and its arms.
//! 4. `src/rules/registry.rs` — the registry line: the static, its `ruleset` arm and its
//!    `seed_errors` entry.
//! 5. `src/ui/card_editor.rs`, `src/ui/forces.rs` — a new card's fields, the budget picker.
//! 6. `src/export/cards.rs`, `src/export/reference/tags.rs` — the printed card's lines and
//!    its reference tags.
//!
//! Then `docs/rulings.md` gets a section in the project's words, and the snapshot suite
//! (`tests/snapshots/resolve.cases`) a few command lines of the new ruleset; its JSON is
//! checked against the one shape automatically, and `rules::resolution`'s tests check its
//! input descriptions and reports with no new test code.

pub mod armour_battles;
pub mod battle;
pub mod battle_of_tanks;
pub mod belle_epoque;
pub mod belloludi;
pub mod bolt_action;
pub mod card;
pub mod dice;
pub mod error;
pub mod force;
pub mod force_file;
pub mod force_text;
pub mod house_default;
pub mod names;
pub mod registry;
pub mod resolution;
pub mod roster_code;
pub mod ruleset;
pub mod stat;
pub mod strict_json;
pub mod text;
pub mod validation;
pub mod words;

pub use card::Card;
pub use error::RulesError;
pub use force::{Budget, CardRef, Force, ForceUnit};
pub use house_default::HouseDefault;
pub use registry::{all_rulesets, ruleset};
pub use ruleset::{Ruleset, RulesetId, UnitCost};
pub use validation::{Validation, Violation};
