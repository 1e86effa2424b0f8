//! The JSON a file must be before its fields are read: one value and nothing after it, no key
//! twice in any object, and a leading UTF-8 byte-order mark allowed (editors on Windows add one).
//!
//! serde reads a struct's duplicate field as an error but a free-form object (an inline card)
//! keeps the last value, and a streaming deserializer stops after the first value, so
//! `cat a.json b.json` read as one force. This pass closes both gaps and says where, as a line
//! and column (counted in characters, as editors count them), so the user can find the spot.

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// Where and why a text is not strict JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrictJsonError {
    /// The JSON path of the offending value (`units[2].card` for a key twice in that object),
    /// or `file`.
    pub path: String,
    /// Byte offset from the start of the text as given (a byte-order mark counts).
    pub offset: usize,
    /// Where that is for a person: 1-based line and column in characters.
    pub at: Position,
    pub message: String,
}

impl fmt::Display for StrictJsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ({})", self.path, self.message, self.at)
    }
}

/// A place in a text as an editor shows it: 1-based line, 1-based column in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl Position {
    /// The line and column of byte `offset` in `text` (an offset inside a character counts as
    /// that character).
    pub fn of(text: &str, offset: usize) -> Position {
        let before = text.get(..offset.min(text.len())).unwrap_or_else(|| {
            let cut = (0..=offset.min(text.len()))
                .rev()
                .find(|i| text.is_char_boundary(*i))
                .unwrap_or(0);
            &text[..cut]
        });
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Position {
            line: before.matches('\n').count() + 1,
            column: before[line_start..].chars().count() + 1,
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// serde_json's error for `text` as a message and a position in characters: its own "at line
/// L column C" counts columns in bytes, which is wrong past the first "é" on a line.
pub fn located(text: &str, e: &serde_json::Error) -> (String, Position) {
    let offset = byte_offset(text, e.line(), e.column());
    (without_position(e), Position::of(text, offset))
}

/// A JSON path as serde_path_to_error writes it, without the `?` it puts where a syntax error
/// left the key unknown (`units[0].?` is `units[0]`), and `file` for the whole document.
pub fn clean_path(path: &str) -> String {
    let mut path = path;
    while let Some(rest) = path.strip_suffix(".?").or_else(|| path.strip_suffix("?")) {
        path = rest;
    }
    if path.is_empty() || path == "." {
        "file".to_string()
    } else {
        path.to_string()
    }
}

/// The UTF-8 byte-order mark.
const BOM: char = '\u{feff}';

/// `text` without a leading byte-order mark, and how many bytes that removed.
pub fn strip_bom(text: &str) -> (&str, usize) {
    match text.strip_prefix(BOM) {
        Some(rest) => (rest, BOM.len_utf8()),
        None => (text, 0),
    }
}

/// Checks that `text` (after any byte-order mark) is exactly one JSON value with no duplicate
/// keys at any depth.
///
/// # Errors
/// The first problem, with its path and byte offset.
pub fn check(text: &str) -> Result<(), StrictJsonError> {
    let (body, skipped) = strip_bom(text);
    let at = |e: &serde_json::Error| skipped + byte_offset(body, e.line(), e.column());
    let position = |e: &serde_json::Error| located(body, e).1;
    let mut de = serde_json::Deserializer::from_str(body);
    match serde_path_to_error::deserialize::<_, Unique>(&mut de) {
        Ok(Unique) => {}
        Err(e) => {
            let path = e.path().to_string();
            let inner = e.into_inner();
            return Err(StrictJsonError {
                path: clean_path(&path),
                offset: at(&inner),
                at: position(&inner),
                message: without_position(&inner),
            });
        }
    }
    de.end().map_err(|e| StrictJsonError {
        path: "file".to_string(),
        offset: at(&e),
        at: position(&e),
        message: "more data after the end of the JSON document (one file holds one document)"
            .to_string(),
    })
}

/// serde_json's message without its "at line L column C" tail (the offset replaces it).
fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(cut) => text[..cut].to_string(),
        None => text,
    }
}

/// The byte offset of a 1-based line and column (serde_json counts columns in bytes).
fn byte_offset(text: &str, line: usize, column: usize) -> usize {
    let before: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (before + column.saturating_sub(1)).min(text.len())
}

/// Any JSON value, refusing an object that names a key twice.
struct Unique;

impl<'de> Deserialize<'de> for Unique {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(UniqueVisitor)
    }
}

struct UniqueVisitor;

impl<'de> Visitor<'de> for UniqueVisitor {
    type Value = Unique;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_str<E>(self, _: &str) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_unit<E>(self) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Unique, A::Error> {
        while seq.next_element::<Unique>()?.is_some() {}
        Ok(Unique)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Unique, A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format!(
                    "the key \"{}\" appears twice in one object",
                    key.escape_debug()
                )));
            }
            map.next_value::<Unique>()?;
        }
        Ok(Unique)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_value_with_unique_keys_passes() {
        assert_eq!(
            check(r#"{"a": [1, {"b": 2, "c": null}], "d": "x"}"#),
            Ok(())
        );
        assert_eq!(check("\u{feff}{\"a\": 1}\n"), Ok(()));
    }

    #[test]
    fn trailing_data_is_refused_at_its_offset() {
        let e = check("{\"a\": 1}\n{\"a\": 2}\n").unwrap_err();
        assert_eq!((e.path.as_str(), e.offset), ("file", 9));
        assert!(e.message.contains("more data"), "{e}");
    }

    #[test]
    fn a_duplicate_key_is_refused_with_its_path_even_deep_inside() {
        let e = check(r#"{"units": [{"card": {"name": "A", "name": "B"}}]}"#).unwrap_err();
        assert_eq!(e.path, "units[0].card");
        assert!(e.message.contains("\"name\" appears twice"), "{e}");
        assert!(e.offset > 30 && e.offset < 48, "{e}");
    }

    #[test]
    fn a_byte_order_mark_counts_in_offsets() {
        let e = check("\u{feff}{\"a\": 1} x").unwrap_err();
        assert_eq!(e.offset, 3 + 9);
    }
}
