//! A reading the project settled where a book is unclear (RULINGS), carried with the values it
//! produced so every front end can mark them "house default" in words.

use serde::Serialize;

/// A rule the project settled where the book is unclear (RULINGS), attached to the value it
/// produced so the UI can mark that value as a house default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct HouseDefault {
    /// The name of the value it affects, as the CLI's JSON spells it (`p_suppressed`).
    pub value: &'static str,
    /// The ruling in one sentence.
    pub ruling: &'static str,
}
