//! What a ruleset gives its quick reference beyond the text of its template: tables built
//! from its rules data (so the sheet prints the very numbers the app computes with) and the
//! tags saying what a force uses (so a sheet can leave out what the force never needs).
//!
//! The layout of the sheet is `export/`'s; the content is the ruleset's
//! ([`Ruleset::reference_table`](super::Ruleset::reference_table),
//! [`Ruleset::known_tags`](super::Ruleset::known_tags),
//! [`CardData::reference_tags`](super::card::CardData::reference_tags)).

use std::collections::BTreeSet;

use serde::Deserialize;

/// A table of text cells.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Relative column widths; measured from the content when absent.
    #[serde(default)]
    pub widths: Option<Vec<f32>>,
    /// Some rows carry the house-default mark (a generated table), so the sheet explains it.
    #[serde(skip)]
    pub marked_rows: bool,
}

impl Table {
    /// A table with these column headers and rows; no `widths` means "measure the content".
    pub fn new(columns: &[&str], rows: Vec<Vec<String>>, widths: &[f32]) -> Self {
        Table {
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows,
            widths: (!widths.is_empty()).then(|| widths.to_vec()),
            marked_rows: false,
        }
    }
}

/// A force's tags (`None`: the full reference, everything shown).
pub type Tags<'a> = Option<&'a BTreeSet<String>>;

/// True when a force with `tags` has `tag` (always, for the full reference).
pub fn has(tags: Tags<'_>, tag: &str) -> bool {
    tags.is_none_or(|tags| tags.contains(tag))
}

/// "kind:name", lower case: the form of every tag.
pub fn tag(kind: &str, name: impl AsRef<str>) -> String {
    format!("{kind}:{}", name.as_ref().to_lowercase())
}

/// The snake_case name serde gives a value ("break_off").
pub fn name_of(value: impl serde::Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name,
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_lower_case_snake_names() {
        #[derive(serde::Serialize)]
        #[serde(rename_all = "snake_case")]
        enum Rule {
            BreakOff,
        }
        assert_eq!(
            tag("special_rule", name_of(Rule::BreakOff)),
            "special_rule:break_off"
        );
        assert_eq!(tag("weapon", "Rifle"), "weapon:rifle");
        let tags: BTreeSet<String> = ["weapon:rifle".to_string()].into();
        assert!(has(Some(&tags), "weapon:rifle") && !has(Some(&tags), "weapon:smg"));
        assert!(has(None, "weapon:smg"));
    }
}
