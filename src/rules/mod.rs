//! Pure game rules: no I/O, no egui, no SQL.
//!
//! Each ruleset is one module behind the [`Ruleset`] trait, registered once in
//! [`registry::ruleset`]. The books' tables live as JSON under `db/seed/`, embedded at compile
//! time and parsed here, so a rules change is a data change.
//!
//! # Adding a sixth ruleset
//!
//! Today this takes about 18 files: 8 new, 10 edited. The rules themselves are new files;
//! the edits are one line or one match arm each, and the compiler lists every one of them
//! once the `RulesetId` variant exists.
//!
//! New files:
//! 1. `db/seed/<id>.json` — the book's cards and tables as data (numbers, never prose).
//! 2. `src/rules/<id>/mod.rs` — the card type, `impl Ruleset` (library, budget check,
//!    optional `warnings`), loading the seed through `registry::Book`.
//! 3. `src/rules/<id>/resolve.rs` (+ `resolve/tests.rs`) — exact odds as `Dist`s and seeded
//!    rolls taking a [`dice::Roller`]; one `ResolveError` with `Invalid { field, message }`
//!    naming the input; the words shown for a result (`…_words`, `label`) decided here.
//! 4. `src/rules/<id>/rulings.rs` — its [`HouseDefault`]s (RULINGS, in the app's words) and
//!    `for_mechanic`, which the JSON and the window both use.
//! 5. `templates/reference/<id>.json` — the quick-reference card layout.
//! 6. `src/cli/resolve/<id>.rs` — only the flags and their mapping to the rules' inputs.
//! 7. `src/ui/resolve/<id>.rs` — the form and the odds panel.
//! 8. `docs/rulings.md` — its rulings in the project's words (a section, not a file, if the
//!    file exists).
//!
//! Edits (one line or arm each):
//! 1. `src/rules/mod.rs` — `pub mod <id>;`.
//! 2. `src/rules/ruleset.rs` — the `RulesetId` variant, its id and title.
//! 3. `src/rules/card.rs` — the `Card` variant and its arms.
//! 4. `src/rules/registry.rs` — the static, its `ruleset` arm and `seed_errors` entry.
//! 5. `src/cli/resolve/mod.rs` — the `OddsOthers`/`RollOthers` variants, the two dispatch
//!    arms and the `with_house_defaults` arm.
//! 6. `src/ui/resolve.rs` — the `Mechanic` and `Subject` variants and their arms.
//! 7. `src/ui/card_editor.rs`, `src/ui/forces.rs` — a new card's fields, the budget picker.
//! 8. `src/export/cards.rs`, `src/export/reference/tags.rs` — the printed card's lines.
//!
//! The snapshot suite (`tests/snapshots/resolve.cases`) then takes a few command lines of the
//! new ruleset, and its JSON is checked against the one shape automatically.

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
pub mod resolution;
pub mod ruleset;
pub mod stat;
pub mod strict_json;
pub mod validation;
pub mod words;

pub use card::Card;
pub use error::RulesError;
pub use force::{Budget, CardRef, Force, ForceUnit};
pub use house_default::HouseDefault;
pub use registry::{all_rulesets, ruleset};
pub use ruleset::{Ruleset, RulesetId, UnitCost};
pub use validation::{Validation, Violation};
