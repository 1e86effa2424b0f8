//! Names and free text players type into a campaign or a battle — the campaign's, the
//! players', a battle's, its forces' and units' names; notes, purposes and fates — bounded in
//! length and printable. Checked wherever such text comes in: typed in the window or on the
//! command line, or read from a file (the campaign's verification calls the same functions).

/// Longest name anywhere in a campaign file (campaign, players, battles, forces, units): the
/// same as a force's or a card's, since a campaign's battles carry force and card names.
pub const MAX_NAME_CHARS: usize = crate::rules::force_file::MAX_NAME_CHARS;
/// Longest free text (notes, purposes, fates).
pub const MAX_TEXT_CHARS: usize = 10_000;

/// Free text or a name: at most `max` characters, no control characters (NUL included) but
/// line breaks and tabs.
///
/// # Errors
/// Too long, or a control character, in words naming the count or the character's place.
pub fn text(value: &str, max: usize) -> Result<(), String> {
    let count = value.chars().count();
    if count > max {
        return Err(format!(
            "is {count} characters long; at most {max} are allowed"
        ));
    }
    if let Some((at, c)) = value
        .chars()
        .enumerate()
        .find(|(_, c)| c.is_control() && !matches!(c, '\n' | '\t'))
    {
        return Err(format!(
            "holds the control character {} at character {}",
            c.escape_unicode(),
            at + 1
        ));
    }
    Ok(())
}

/// A note, a purpose or a fate: [`text`] up to [`MAX_TEXT_CHARS`].
///
/// # Errors
/// As [`text`].
pub fn note(value: &str) -> Result<(), String> {
    text(value, MAX_TEXT_CHARS)
}

/// A name: like [`text`] up to [`MAX_NAME_CHARS`], on one line.
///
/// # Errors
/// As [`text`]; a line break or tab.
pub fn name(value: &str) -> Result<(), String> {
    text(value, MAX_NAME_CHARS)?;
    if value.contains(['\n', '\t']) {
        return Err("must be on one line (no line breaks or tabs)".to_string());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_one_printable_line_of_at_most_200_characters() {
        assert_eq!(name(&"a".repeat(MAX_NAME_CHARS)), Ok(()));
        assert_eq!(
            name(&"a".repeat(MAX_NAME_CHARS + 1)),
            Err("is 201 characters long; at most 200 are allowed".to_string())
        );
        assert!(name("two\nlines").unwrap_err().contains("on one line"));
        assert_eq!(
            name("bell\u{7}"),
            Err("holds the control character \\u{7} at character 5".to_string())
        );
    }

    #[test]
    fn a_note_keeps_its_line_breaks_and_tabs() {
        assert_eq!(note("first line\n\tsecond"), Ok(()));
        assert!(note("nul\0").is_err());
        assert!(note(&"x".repeat(MAX_TEXT_CHARS + 1)).is_err());
    }
}
