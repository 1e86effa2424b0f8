//! Quick-reference sheets: one or two pages per ruleset, in the project's own words, from
//! `templates/reference/`. Given a force, sections it never needs are left out.

mod data;
mod layout;
mod odds;
mod sources;
mod tags;

pub use data::{Block, ReferenceSheet, Section, Table, reference_sheet};
pub use layout::layout_reference;
pub(crate) use odds::check_odds;
pub use odds::{UnitOdds, unit_odds};
pub use sources::{MODIFIERS, situation_inputs, sources};
pub use tags::{force_tags, known_tags};
