//! Pure game rules: no I/O, no egui, no SQL.
//!
//! Each ruleset is one module behind the [`Ruleset`] trait, its cards behind
//! [`card::CardData`], declared below beside its one line of the registry. The books' tables live as JSON
//! under `db/seed/`, embedded at compile time and parsed here, so a rules change is a data
//! change. The core (forces, validation, cards, reference content) and the front ends ask
//! the registry and the trait; they never name a ruleset.
//!
//! # Adding a sixth ruleset
//!
//! Tried for real with a toy (one card, a points budget, one d6 mechanic): 5 new files and
//! 1 edit to an existing file — its registry line — until `cargo check --all-targets` was
//! clean, and the toy then showed in every picker, `rulesets`, `units`, `odds`/`roll` (the
//! flags are built from its mechanics' inputs), the card editor and the PDFs, and was
//! checked by every test that checks all rulesets.
//!
//! New files:
//! 1. `src/rules/<module>/mod.rs`, the module named after the id with `_` for `-`: the card
//!    type with its [`card::CardData`] (name, statistics, the editor's fields described like
//!    a mechanic's inputs) and `impl Ruleset` (title, library, budget check, a new blank card,
//!    its two templates embedded with `registry::embedded!`, and what the book has: named
//!    budgets, a number each force line sets, preset forces, a briefing, reference tables and
//!    tags), the seed loaded through `registry::Book`. Split as the module grows: the five
//!    keep `card_data.rs`, `reference.rs`, `resolve.rs` (+ `resolve/tests.rs`: exact odds as
//!    `Dist`s, rolls taking a [`dice::Roller`] that ask for every pool by name) and
//!    `rulings.rs` (its [`HouseDefault`]s) beside it.
//! 2. `src/rules/<module>/mechanics.rs`: each mechanic's inputs, checks and
//!    [`resolution::Report`]s — every rule decision and every word shown, once.
//! 3. `db/seed/<module>.json`: the book's cards and tables as data (numbers, never prose).
//! 4. `templates/cards/<id>.json`: the printed card's layout.
//! 5. `templates/reference/<id>.json`: the quick reference.
//!
//! The one edit: the registry line below, `"<id>" => Variant: module::{Rules, CardType},`,
//! with the module's `pub mod <module>;` above it (declared as any module is, so that
//! `cargo fmt` formats it: rustfmt does not look inside the registry's macro). The id is what
//! SQLite rows, force files and campaign files store: never change it.
//!
//! `tests/it/registry.rs` keeps this true: it finds a ruleset module, seed or template on
//! disk that the registry leaves out, and any source outside a ruleset's module and the
//! registry that names it (the Lorraine campaign, Armour Battles' by nature, is listed there
//! with its reasons). Then `docs/rulings.md` gets a section in the project's words, and the
//! snapshot suite (`tests/snapshots/resolve.cases`) a few command lines; its JSON is checked
//! against the one shape, and `rules::resolution`'s tests check its input descriptions and
//! reports with no new test code.

pub mod army_data;
pub mod battle;
pub mod battlescribe;
pub mod card;
pub mod card_field;
pub mod dice;
pub mod error;
pub mod force;
pub mod force_file;
pub mod force_text;
pub mod house_default;
pub mod names;
pub mod reference;
pub mod registry;
pub mod resolution;
pub mod roster_code;
pub mod ruleset;
pub mod stat;
pub mod strict_json;
pub mod text;
pub mod validation;
pub mod words;

pub use error::RulesError;
pub use force::{Budget, CardRef, Force, ForceUnit};
pub use house_default::HouseDefault;
pub use registry::{all_rulesets, id_list, preset_force};
pub use ruleset::{Ruleset, UnitCost};
pub use validation::{Validation, Violation};

pub mod armour_battles;
pub mod battle_of_tanks;
pub mod belle_epoque;
pub mod belloludi;
pub mod bolt_action;

// The registry: one line per ruleset, in menu order (see the module header and
// `registry::rulesets!`).
registry::rulesets! {
    "armour-battles" => ArmourBattles: armour_battles::{ArmourBattles, UnitCard},
    "belloludi" => Belloludi: belloludi::{BelloLudi, Vehicle},
    "battle-of-tanks" => BattleOfTanks: battle_of_tanks::{BattleOfTanks, TankCard},
    "bolt-action" => BoltAction: bolt_action::{BoltAction, UnitProfile},
    "belle-epoque" => BelleEpoque: belle_epoque::{BelleEpoque, UnitProfile},
}
