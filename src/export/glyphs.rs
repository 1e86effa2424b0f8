//! Honest glyphs: text the embedded face cannot draw, or draws in the wrong order, is named
//! at export instead of printing as "?" or backwards without a word.
//!
//! DejaVu Sans covers Latin, Greek and Cyrillic but not CJK, Devanagari, Thai or emoji; it
//! has Hebrew and Arabic letters, but the layout sets every line left to right, so those
//! would read reversed.

use super::fonts::{FontStyle, missing_glyphs};
use crate::rules::Force;

/// True for characters of a right-to-left script (Hebrew, Arabic, Syriac, Thaana, N'Ko and
/// their presentation forms).
fn right_to_left(c: char) -> bool {
    matches!(u32::from(c),
        0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF | 0x10800..=0x10FFF | 0x1E800..=0x1EFFF)
}

/// What is wrong with printing `text`, if anything.
fn problem(text: &str) -> Option<String> {
    let mut missing: Vec<char> = FontStyle::ALL
        .iter()
        .flat_map(|&style| missing_glyphs(text, style).unwrap_or_default())
        .collect();
    missing.sort_unstable();
    missing.dedup();
    let mut problems = Vec::new();
    if !missing.is_empty() {
        let chars = missing
            .iter()
            .map(char::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        problems.push(format!(
            "the embedded font has no glyph for {chars} (printed as ?)"
        ));
    }
    if text.chars().any(right_to_left) {
        problems.push("right-to-left text is printed left to right, so it reads backwards".into());
    }
    (!problems.is_empty()).then(|| problems.join("; "))
}

/// Warnings for every text of `force` that will not print as written, naming the field.
pub(crate) fn glyph_warnings(force: &Force) -> Vec<String> {
    let mut fields: Vec<(String, &str)> = vec![("force name".into(), force.name.as_str())];
    for (i, unit) in force.units.iter().enumerate() {
        let n = i + 1;
        fields.push((format!("unit {n} name"), unit.card.name()));
        if let Some(group) = &unit.group {
            fields.push((format!("unit {n} group"), group.as_str()));
        }
    }
    fields.push(("force notes".into(), force.notes.as_str()));
    fields
        .into_iter()
        .filter_map(|(field, text)| problem(text).map(|p| format!("{field} '{text}': {p}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{ForceUnit, RulesetId};

    /// Finding 10: CJK, emoji, Devanagari and Thai printed as "?", Hebrew and Arabic
    /// reversed, and nothing said so.
    #[test]
    fn missing_glyphs_and_right_to_left_text_are_named_with_their_field() {
        let mut force = crate::rules::Force::new(RulesetId::Belloludi, "Panzer-Lehr 🐻");
        let mut unit = ForceUnit::library("Medium Tank", 1);
        unit.group = Some("כוח משימה".into());
        force.units.push(unit);
        force.units.push(ForceUnit::library("Heavy Tank", 1));
        force.notes = "虎 and हिन्दी and ไทย".into();
        let warnings = glyph_warnings(&force);
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(
            warnings[0].starts_with("force name 'Panzer-Lehr 🐻'") && warnings[0].contains("🐻")
        );
        assert!(warnings[1].starts_with("unit 1 group") && warnings[1].contains("reads backwards"));
        assert!(warnings[2].starts_with("force notes") && warnings[2].contains('虎'));
        let plain = crate::rules::Force::new(RulesetId::Belloludi, "Sturmgeschütz ″ · × — ü");
        assert_eq!(glyph_warnings(&plain), Vec::<String>::new());
    }
}
