//! The force file: a versioned JSON document a player can share, import and export.
//!
//! ```text
//! {"format":"quartermaster-force","version":1,"ruleset":"<ruleset id>","name":"Kampfgruppe",
//!  "budget":{"points":60},"notes":"",
//!  "units":[{"card":"Medium Tank","count":2,"group":"1st Platoon"},
//!           {"card":{"name":"Sherman", …the ruleset's card fields},"count":1}]}
//! ```
//! `card` is a library card name or an inline card with the ruleset's fields (the README
//! shows a whole file). Every error names the JSON path of the offending field and its value.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::error::RulesError;
use super::force::{Budget, CardRef, Force, ForceUnit};
use super::registry;
use super::ruleset::RulesetId;

/// The `format` value every force file carries.
pub const FORMAT: &str = "quartermaster-force";
/// The format version this app writes and the newest it reads.
pub const VERSION: u32 = 1;
/// Longest force, card, group or notes text accepted, in characters.
pub const MAX_NAME_CHARS: usize = 200;
pub const MAX_NOTES_CHARS: usize = 20_000;
/// Largest count of one unit line; far above any table's needs, far below overflow.
pub const MAX_COUNT: u32 = 999;
/// Most unit lines in one force.
pub const MAX_UNIT_LINES: usize = 2_000;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ForceRecord {
    format: String,
    version: u32,
    ruleset: String,
    name: String,
    budget: Budget,
    #[serde(default)]
    units: Vec<UnitRecord>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    notes: String,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitRecord {
    card: serde_json::Value,
    #[serde(default = "one")]
    count: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    group: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    points: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stands: Option<u32>,
}

fn one() -> u32 {
    1
}

/// Parses a force file's text. Unknown card names are not errors here; validation reports them.
/// The text must be one JSON document with no key twice in any object (a byte-order mark is
/// fine); the error gives the line and column otherwise.
pub fn parse(text: &str) -> Result<Force, RulesError> {
    use super::strict_json;
    strict_json::check(text)
        .map_err(|e| RulesError::field(e.path, format!("{} ({})", e.message, e.at)))?;
    let (text, _) = strict_json::strip_bom(text);
    let de = &mut serde_json::Deserializer::from_str(text);
    let record: ForceRecord = serde_path_to_error::deserialize(de).map_err(|e| {
        let path = strict_json::clean_path(&e.path().to_string());
        let (message, at) = strict_json::located(text, e.inner());
        RulesError::field(path, format!("{message} ({at})"))
    })?;
    force_from_record(record)
}

/// Parses a force file's bytes, refusing text that is not UTF-8.
pub fn parse_bytes(bytes: &[u8]) -> Result<Force, RulesError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        RulesError::field(
            "file",
            format!(
                "not UTF-8 text (invalid byte at offset {})",
                e.valid_up_to()
            ),
        )
    })?;
    parse(text)
}

fn force_from_record(record: ForceRecord) -> Result<Force, RulesError> {
    if record.format != FORMAT {
        return Err(RulesError::field(
            "format",
            format!(
                "expected \"{FORMAT}\", found \"{}\"",
                truncate(&record.format)
            ),
        ));
    }
    if record.version == 0 || record.version > VERSION {
        return Err(RulesError::field(
            "version",
            format!(
                "this app reads version {VERSION}; the file is version {} (written by a newer app?)",
                record.version
            ),
        ));
    }
    let ruleset: RulesetId = record
        .ruleset
        .parse()
        .map_err(|e: RulesError| RulesError::field("ruleset", e.to_string()))?;
    check_text("name", &record.name, MAX_NAME_CHARS)?;
    check_card_name(&record.name, "")?;
    check_text("notes", &record.notes, MAX_NOTES_CHARS)?;
    if record.units.len() > MAX_UNIT_LINES {
        return Err(RulesError::field(
            "units",
            format!(
                "{} lines; at most {MAX_UNIT_LINES} are allowed",
                record.units.len()
            ),
        ));
    }
    let rules = registry::ruleset(ruleset);
    let units = record
        .units
        .into_iter()
        .enumerate()
        .map(|(i, unit)| unit_from_record(rules, i, unit))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Force {
        ruleset,
        name: record.name.trim().to_string(),
        budget: record.budget,
        units,
        notes: record.notes,
    })
}

fn unit_from_record(
    rules: &dyn super::Ruleset,
    index: usize,
    unit: UnitRecord,
) -> Result<ForceUnit, RulesError> {
    let path = format!("units[{index}]");
    let card = match &unit.card {
        serde_json::Value::String(name) => {
            check_text(&format!("{path}.card"), name, MAX_NAME_CHARS)?;
            if name.trim().is_empty() {
                return Err(RulesError::field(
                    format!("{path}.card"),
                    "must not be empty",
                ));
            }
            CardRef::Library(name.trim().to_string())
        }
        serde_json::Value::Object(_) => {
            CardRef::Inline(rules.parse_inline_card(&unit.card, &format!("{path}.card"))?)
        }
        other => {
            return Err(RulesError::field(
                format!("{path}.card"),
                format!(
                    "expected a card name or an inline card object, found {}",
                    kind_of(other)
                ),
            ));
        }
    };
    if unit.count == 0 || unit.count > MAX_COUNT {
        return Err(RulesError::field(
            format!("{path}.count"),
            format!("{} is out of range (1–{MAX_COUNT})", unit.count),
        ));
    }
    if let Some(group) = &unit.group {
        check_text(&format!("{path}.group"), group, MAX_NAME_CHARS)?;
    }
    Ok(ForceUnit {
        card,
        count: unit.count,
        group: unit
            .group
            .map(|g| g.trim().to_string())
            .filter(|g| !g.is_empty()),
        points: unit.points,
        stands: unit.stands,
    })
}

/// Writes `force` as a force file (pretty JSON, stable field order, trailing newline).
pub fn to_json(force: &Force) -> String {
    let record = ForceRecord {
        format: FORMAT.to_string(),
        version: VERSION,
        ruleset: force.ruleset.as_str().to_string(),
        name: force.name.clone(),
        budget: force.budget.clone(),
        units: force
            .units
            .iter()
            .map(|unit| UnitRecord {
                card: match &unit.card {
                    CardRef::Library(name) => serde_json::Value::String(name.clone()),
                    CardRef::Inline(card) => card.to_inline_json(),
                },
                count: unit.count,
                group: unit.group.clone(),
                points: unit.points,
                stands: unit.stands,
            })
            .collect(),
        notes: force.notes.clone(),
    };
    // Serialising plain records cannot fail; an empty object would only mask a programming error.
    let mut text = serde_json::to_string_pretty(&record).unwrap_or_default();
    text.push('\n');
    text
}

/// Deserialises an inline card's fields, naming the failing field under `path`.
pub(crate) fn parse_inline_fields<T: DeserializeOwned>(
    value: &serde_json::Value,
    path: &str,
) -> Result<T, RulesError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let child = e.path().to_string();
        let full = if child.is_empty() || child == "." {
            path.to_string()
        } else {
            format!("{path}.{child}")
        };
        RulesError::field(full, e.into_inner().to_string())
    })
}

/// Refuses an empty or over-long card name.
pub(crate) fn check_card_name(name: &str, path: &str) -> Result<(), RulesError> {
    let field = if path.is_empty() {
        "name".to_string()
    } else {
        format!("{path}.name")
    };
    if name.trim().is_empty() {
        return Err(RulesError::field(field, "must not be empty"));
    }
    check_text(&field, name, MAX_NAME_CHARS)
}

/// Refuses over-long text and control characters (NUL, ESC, BEL, …) that would reach a
/// terminal or a printed page; notes may hold line breaks and tabs, names nothing of the kind.
fn check_text(path: &str, text: &str, max_chars: usize) -> Result<(), RulesError> {
    let chars = text.chars().count();
    if chars > max_chars {
        return Err(RulesError::field(
            path,
            format!("{chars} characters; at most {max_chars} are allowed"),
        ));
    }
    let multiline = max_chars == MAX_NOTES_CHARS;
    let allowed = |c: char| multiline && matches!(c, '\n' | '\r' | '\t');
    if let Some((at, c)) = text
        .chars()
        .enumerate()
        .find(|(_, c)| c.is_control() && !allowed(*c))
    {
        return Err(RulesError::field(
            path,
            format!(
                "holds the control character {} at character {}; {}",
                c.escape_unicode(),
                at + 1,
                if multiline {
                    "notes may hold line breaks and tabs, nothing else unprintable"
                } else {
                    "names must be printable"
                }
            ),
        ));
    }
    Ok(())
}

fn truncate(text: &str) -> String {
    text.chars().take(40).collect()
}

fn kind_of(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests;
