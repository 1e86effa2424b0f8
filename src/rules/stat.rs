//! A card statistic as shown to a player: label, value and what the abbreviation means.
//!
//! The UI's card panel, the CLI's `units` table and the PDF cards all print the same list,
//! so each ruleset describes its cards once, here.

use serde::Serialize;

/// One labelled value of a card, with a plain-words explanation for tooltips.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stat {
    /// Short label as printed on the card ("AT", "Reaction").
    pub label: &'static str,
    /// The value as a player reads it ("7D/6D", "6+1D″").
    pub value: String,
    /// What the label means, for tooltips and quick reference.
    pub help: &'static str,
}

impl Stat {
    pub fn new(label: &'static str, value: impl Into<String>, help: &'static str) -> Self {
        Stat {
            label,
            value: value.into(),
            help,
        }
    }
}
