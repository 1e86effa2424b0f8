//! The quick-reference files (`templates/reference/<ruleset>.json`): sections of text, lists
//! and tables in the project's own words, each optionally tied to what a force uses.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use serde::Deserialize;

use super::sources;
use crate::export::ExportError;
use crate::export::template::parse_json;
pub use crate::rules::reference::Table;
use crate::rules::{RulesetId, all_rulesets};

/// One ruleset's quick reference.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReferenceSheet {
    pub ruleset: RulesetId,
    pub title: String,
    /// Where the content comes from, printed under the title.
    pub source: String,
    pub sections: Vec<Section>,
}

/// A headed part of the reference.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Section {
    pub heading: String,
    /// Shown for a force only when it has one of these tags; always when empty.
    #[serde(default)]
    pub requires: Vec<String>,
    pub blocks: Vec<Block>,
}

/// A paragraph, a list, a table, or a table built from the rules data; exactly one is set.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Block {
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub list: Option<Vec<String>>,
    #[serde(default)]
    pub table: Option<Table>,
    /// A generated table ([`Ruleset::reference_table`](crate::rules::Ruleset::reference_table)),
    /// so the sheet shows the numbers the rest of the app uses; `modifiers:<mechanic>` lists
    /// every situation a mechanic's odds take.
    #[serde(default)]
    pub source: Option<String>,
    /// For a `modifiers:` source: inputs of the mechanic it leaves out, each with the
    /// heading of the section that states it instead (a table of its own, or a quantity
    /// the rules text explains).
    #[serde(default)]
    pub except: BTreeMap<String, String>,
    /// The project's reading where the book is unclear (RULINGS), marked on the sheet.
    #[serde(default)]
    pub house_default: bool,
    /// Like a section's `requires`, for one block.
    #[serde(default)]
    pub requires: Vec<String>,
    /// For a force's reference: each of its units' odds table, the one its card's back
    /// prints ([`unit_odds`](super::unit_odds)); nothing without a force.
    #[serde(default)]
    pub unit_odds: bool,
}

fn invalid(file: &str, message: String) -> ExportError {
    ExportError::Template {
        file: file.to_string(),
        message,
    }
}

fn check(file: &str, sheet: &ReferenceSheet) -> Result<(), ExportError> {
    let expected = format!("{}.json", sheet.ruleset.as_str());
    if !file.ends_with(&expected) {
        return Err(invalid(
            file,
            format!("ruleset {} does not match the file name", sheet.ruleset),
        ));
    }
    let known = crate::rules::ruleset(sheet.ruleset).known_tags();
    let check_tags = |tags: &[String], at: &str| -> Result<(), ExportError> {
        match tags.iter().find(|t| !known.contains(*t)) {
            Some(tag) => Err(invalid(file, format!("{at}: unknown tag '{tag}'"))),
            None => Ok(()),
        }
    };
    for section in &sheet.sections {
        check_tags(&section.requires, &section.heading)?;
        for (i, block) in section.blocks.iter().enumerate() {
            let at = format!("{} block {}", section.heading, i + 1);
            check_tags(&block.requires, &at)?;
            let set = [
                block.text.is_some(),
                block.list.is_some(),
                block.table.is_some(),
                block.source.is_some(),
                block.unit_odds,
            ];
            if set.iter().filter(|s| **s).count() != 1 {
                return Err(invalid(
                    file,
                    format!("{at}: give exactly one of text, list, table, source, unit_odds"),
                ));
            }
            if let Some(source) = &block.source
                && !sources::exists(sheet.ruleset, source)
            {
                return Err(invalid(file, format!("{at}: unknown source '{source}'")));
            }
            if let Some(key) = block.source.as_deref().and_then(sources::mechanic_key) {
                let inputs = sources::situation_keys(sheet.ruleset, key);
                if let Some(unknown) = block.except.keys().find(|k| !inputs.contains(k)) {
                    return Err(invalid(
                        file,
                        format!("{at}: '{unknown}' is no situation of mechanic '{key}'"),
                    ));
                }
                let headings: Vec<&str> =
                    sheet.sections.iter().map(|s| s.heading.as_str()).collect();
                if let Some((k, h)) = block
                    .except
                    .iter()
                    .find(|(_, h)| !headings.contains(&h.as_str()))
                {
                    return Err(invalid(
                        file,
                        format!("{at}: '{k}' is said to be under '{h}', which is no heading"),
                    ));
                }
            } else if !block.except.is_empty() {
                return Err(invalid(
                    file,
                    format!("{at}: except needs a modifiers: source"),
                ));
            }
            if let Some(table) = &block.table {
                let columns = table.columns.len();
                if let Some(row) = table.rows.iter().find(|r| r.len() != columns) {
                    return Err(invalid(
                        file,
                        format!(
                            "{at}: row {row:?} has {} cells for {columns} columns",
                            row.len()
                        ),
                    ));
                }
                if table.widths.as_ref().is_some_and(|w| w.len() != columns) {
                    return Err(invalid(
                        file,
                        format!("{at}: widths do not match the columns"),
                    ));
                }
            }
        }
    }
    Ok(())
}

static SHEETS: LazyLock<Result<Vec<ReferenceSheet>, ExportError>> = LazyLock::new(|| {
    all_rulesets()
        .map(|ruleset| {
            let file = ruleset.reference_template();
            let sheet: ReferenceSheet = parse_json((file.path, file.text))?;
            check(file.path, &sheet)?;
            Ok(sheet)
        })
        .collect()
});

/// The quick reference of `ruleset`.
pub fn reference_sheet(ruleset: RulesetId) -> Result<&'static ReferenceSheet, ExportError> {
    let sheets = SHEETS.as_ref().map_err(Clone::clone)?;
    sheets
        .iter()
        .find(|s| s.ruleset == ruleset)
        .ok_or(ExportError::MissingTemplate {
            what: "quick reference",
            ruleset,
        })
}

/// True when something tagged `requires` belongs on a sheet for a force with `tags`
/// (`None`: the full reference).
pub(crate) fn wanted(requires: &[String], tags: Option<&BTreeSet<String>>) -> bool {
    match tags {
        None => true,
        Some(tags) => requires.is_empty() || requires.iter().any(|r| tags.contains(r)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ruleset_has_a_reference_that_parses_with_known_tags_and_sources() {
        for id in RulesetId::ALL {
            let sheet = reference_sheet(id).unwrap();
            assert!(!sheet.sections.is_empty(), "{id}");
        }
    }

    #[test]
    fn rulings_values_are_marked_as_house_defaults() {
        for id in RulesetId::ALL {
            let sheet = reference_sheet(id).unwrap();
            let marked = sheet
                .sections
                .iter()
                .flat_map(|s| &s.blocks)
                .any(|b| b.house_default);
            assert!(
                marked,
                "{id}: RULINGS.md settles something for every ruleset"
            );
        }
    }
}
