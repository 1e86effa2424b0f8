//! Measuring, wrapping and shrinking text to fit a box.
//!
//! Nothing may overflow a printed card, so every piece of text is fitted here: long values
//! wrap at spaces, and a word too wide for its line breaks at a hyphenation point (after `-`
//! or `/`) before anything else. A word that still does not fit is cut only as a last resort,
//! and the `_checked` variants say so, so a card can shrink or continue instead.

use super::display::{Item, Rgb, TextRun};
use super::fonts::{Faces, FontStyle, MM_PER_PT};

/// The smallest size any printed text may have: below it a card is hard to read at arm's
/// length on a gaming table.
pub(crate) const MIN_TEXT_PT: f32 = 6.0;

/// The smallest size of a statistic's value, which players read most often.
pub(crate) const MIN_STAT_PT: f32 = 7.0;

/// Line pitch as a multiple of the font size.
pub(crate) const LINE_SPACING: f32 = 1.18;

/// The distance from one baseline to the next, in millimetres.
pub(crate) fn line_height(size_pt: f32) -> f32 {
    size_pt * LINE_SPACING * MM_PER_PT
}

/// The height of capital letters above the baseline, roughly, in millimetres.
pub(crate) fn cap_height(size_pt: f32) -> f32 {
    size_pt * 0.73 * MM_PER_PT
}

/// A face, size and colour to set text in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Font {
    pub style: FontStyle,
    pub size_pt: f32,
    pub color: Rgb,
}

impl Font {
    pub(crate) fn new(style: FontStyle, size_pt: f32, color: Rgb) -> Self {
        Font {
            style,
            size_pt,
            color,
        }
    }

    pub(crate) fn sized(self, size_pt: f32) -> Self {
        Font { size_pt, ..self }
    }

    pub(crate) fn colored(self, color: Rgb) -> Self {
        Font { color, ..self }
    }

    pub(crate) fn line_height(self) -> f32 {
        line_height(self.size_pt)
    }
}

/// Measures and sets text in the embedded faces.
#[derive(Clone, Copy)]
pub(crate) struct Typesetter {
    pub faces: &'static Faces,
}

impl Typesetter {
    pub(crate) fn width(&self, text: &str, font: Font) -> f32 {
        self.faces.width_mm(text, font.style, font.size_pt)
    }

    /// A text run with its left baseline at (`x`, `baseline`). Characters the face lacks
    /// become `?` so nothing prints as an empty box.
    pub(crate) fn run(&self, x: f32, baseline: f32, font: Font, text: &str) -> Item {
        let face = self.faces.get(font.style);
        let text: String = text
            .chars()
            .map(|c| {
                if c.is_whitespace() {
                    ' '
                } else if face.has_glyph(c) {
                    c
                } else {
                    '?'
                }
            })
            .collect();
        let width = face.width_mm(&text, font.size_pt);
        Item::Text(TextRun {
            x,
            baseline,
            size_pt: font.size_pt,
            style: font.style,
            color: font.color,
            text,
            width,
            rotation: super::display::Rotation::Upright,
        })
    }

    /// `text` broken into lines no wider than `width`.
    pub(crate) fn wrap(&self, text: &str, font: Font, width: f32) -> Vec<String> {
        self.wrap_checked(text, font, width).0
    }

    /// [`Typesetter::wrap`], and whether a word had to be cut elsewhere than at a hyphenation
    /// point to fit.
    pub(crate) fn wrap_checked(&self, text: &str, font: Font, width: f32) -> (Vec<String>, bool) {
        let mut lines = Vec::new();
        let mut cut = false;
        for paragraph in text.split('\n') {
            cut |= self.wrap_paragraph(paragraph, font, width, &mut lines);
        }
        (lines, cut)
    }

    fn wrap_paragraph(&self, text: &str, font: Font, width: f32, lines: &mut Vec<String>) -> bool {
        let mut line = String::new();
        let mut cut = false;
        for word in words(text) {
            let word = word.as_str();
            let candidate = if line.is_empty() {
                word.to_string()
            } else {
                format!("{line} {word}")
            };
            if self.width(&candidate, font) <= width {
                line = candidate;
                continue;
            }
            // A hyphenated word may start on this line and end on the next.
            let (pieces, broken) = self.split_word(word, font, width);
            cut |= broken;
            let mut pieces = pieces.into_iter();
            if let Some(first) = pieces.next() {
                let joined = if line.is_empty() {
                    first.clone()
                } else {
                    format!("{line} {first}")
                };
                if !line.is_empty() && self.width(&joined, font) > width {
                    lines.push(std::mem::take(&mut line));
                    line = first;
                } else {
                    line = joined;
                }
            }
            for piece in pieces {
                lines.push(std::mem::take(&mut line));
                line = piece;
            }
        }
        if !line.is_empty() || lines.is_empty() {
            lines.push(line);
        }
        cut
    }

    /// A word in pieces for lines of `width`: whole when it fits; else broken after its
    /// hyphens and slashes, joining as many parts per piece as fit; else (a part still too
    /// wide) cut between letters, which the flag reports.
    fn split_word(&self, word: &str, font: Font, width: f32) -> (Vec<String>, bool) {
        if self.width(word, font) <= width {
            return (vec![word.to_string()], false);
        }
        // Each part with what joins it to the one before: nothing after a hyphen or a slash,
        // a no-break space (dropped where the line breaks) otherwise.
        let mut parts: Vec<(String, &str)> = Vec::new();
        let mut part = String::new();
        let mut joint = "";
        for c in word.chars() {
            if c == NO_BREAK {
                parts.push((std::mem::take(&mut part), joint));
                joint = "\u{a0}";
                continue;
            }
            part.push(c);
            if matches!(c, '-' | '/' | '\u{2011}' | '\u{2010}') {
                parts.push((std::mem::take(&mut part), joint));
                joint = "";
            }
        }
        if !part.is_empty() {
            parts.push((part, joint));
        }
        // A bracketed group that fits a line is one unit: a line breaks before its bracket,
        // not inside it ("Trained" / "(BS 3)").
        let mut units: Vec<(String, &str)> = Vec::new();
        let mut open = false;
        for (part, joint) in parts {
            match units.last_mut() {
                Some((last, _))
                    if open && self.width(&format!("{last}{joint}{part}"), font) <= width =>
                {
                    last.push_str(joint);
                    last.push_str(&part);
                }
                _ => units.push((part, joint)),
            }
            if let Some((last, _)) = units.last() {
                open = last.matches('(').count() > last.matches(')').count();
            }
        }
        let mut pieces: Vec<String> = Vec::new();
        let mut cut = false;
        let mut piece = String::new();
        for (part, joint) in units {
            let joined = format!("{piece}{joint}{part}");
            if piece.is_empty() || self.width(&joined, font) <= width {
                piece = if piece.is_empty() { part } else { joined };
                continue;
            }
            pieces.push(std::mem::take(&mut piece));
            piece = part;
        }
        pieces.push(piece);
        let mut out = Vec::new();
        for piece in pieces {
            if self.width(&piece, font) > width {
                cut = true;
                out.extend(self.break_word(&piece, font, width));
            } else {
                out.push(piece);
            }
        }
        (out, cut)
    }

    /// A word too wide for one line, cut into pieces that fit (at least one character each).
    fn break_word(&self, word: &str, font: Font, width: f32) -> Vec<String> {
        let mut pieces = Vec::new();
        let mut piece = String::new();
        for c in word.chars() {
            piece.push(c);
            if piece.chars().count() > 1 && self.width(&piece, font) > width {
                piece.pop();
                pieces.push(std::mem::take(&mut piece));
                piece.push(c);
            }
        }
        pieces.push(piece);
        pieces
    }

    /// The largest size between `max` and `min` (in steps of ¼ pt) at which `text` wraps into
    /// at most `max_lines` lines of `width`; `min` if none does.
    pub(crate) fn fit_size(
        &self,
        text: &str,
        font: Font,
        min_pt: f32,
        width: f32,
        max_lines: usize,
    ) -> f32 {
        let mut size = font.size_pt;
        while size > min_pt {
            if self.wraps_within(text, font.sized(size), width, max_lines) {
                return size;
            }
            size -= 0.25;
        }
        min_pt
    }

    fn wraps_within(&self, text: &str, font: Font, width: f32, max_lines: usize) -> bool {
        let (lines, cut) = self.wrap_checked(text, font, width);
        !cut && lines.len() <= max_lines
            && lines.iter().all(|l| self.width(l, font) <= width + 0.01)
    }

    /// `text` cut short with an ellipsis so it fits `width`.
    pub(crate) fn ellipsize(&self, text: &str, font: Font, width: f32) -> String {
        if self.width(text, font) <= width {
            return text.to_string();
        }
        let mut chars: Vec<char> = text.chars().collect();
        while !chars.is_empty() {
            chars.pop();
            let candidate: String = chars.iter().collect::<String>().trim_end().to_string() + "…";
            if self.width(&candidate, font) <= width {
                return candidate;
            }
        }
        "…".to_string()
    }

    /// Wraps `text` into at most `max_lines` lines; the last kept line ends in an ellipsis
    /// when text had to be dropped.
    pub(crate) fn wrap_clamped(
        &self,
        text: &str,
        font: Font,
        width: f32,
        max_lines: usize,
    ) -> Vec<String> {
        self.wrap_clamped_checked(text, font, width, max_lines).0
    }

    /// [`Typesetter::wrap_clamped`], and whether anything was cut or dropped.
    pub(crate) fn wrap_clamped_checked(
        &self,
        text: &str,
        font: Font,
        width: f32,
        max_lines: usize,
    ) -> (Vec<String>, bool) {
        let (mut lines, mut cut) = self.wrap_checked(text, font, width);
        if lines.len() > max_lines {
            cut = true;
            lines.truncate(max_lines.max(1));
            if let Some(last) = lines.last_mut() {
                *last = self.ellipsize(&format!("{last}…"), font, width);
            }
        }
        (lines, cut)
    }
}

/// A space that does not break a line.
pub(crate) const NO_BREAK: char = '\u{a0}';

/// A bracketed group this short or shorter stays on the line of the word before it: a
/// number's moving value "4 (1)", a reaction's "5D (O)", "Trained (BS 3)".
const SHORT_BRACKET: usize = 6;

/// The words of `text` as lines may break between them: split at spaces but not at
/// [`NO_BREAK`], a bracketed group kept whole and a short one kept with the word before it.
/// Where a line is too narrow for such a group, it still breaks inside it (see
/// `split_word`), never cutting a letter for it.
pub(crate) fn words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut open = false;
    for word in text.split(|c: char| c.is_whitespace() && c != NO_BREAK) {
        if word.is_empty() {
            continue;
        }
        match words.last_mut() {
            Some(last) if open => {
                last.push(NO_BREAK);
                last.push_str(word);
            }
            _ => words.push(word.to_string()),
        }
        let Some(last) = words.last() else { continue };
        let opens = last.matches('(').count();
        let closes = last.matches(')').count();
        open = opens > closes;
        if !open
            && last.starts_with('(')
            && last.chars().count() <= SHORT_BRACKET
            && words.len() > 1
        {
            let group = words.pop().unwrap_or_default();
            if let Some(before) = words.last_mut() {
                before.push(NO_BREAK);
                before.push_str(&group);
            }
        }
    }
    words
}

/// A run of words in one font, part of a mixed-font paragraph.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Span {
    pub text: String,
    pub font: Font,
}

impl Span {
    pub(crate) fn new(text: impl Into<String>, font: Font) -> Self {
        Span {
            text: text.into(),
            font,
        }
    }
}

/// One wrapped line of a mixed-font paragraph: pieces with their x offsets.
pub(crate) type RichLine = Vec<(f32, Span)>;

impl Typesetter {
    /// Wraps a paragraph made of spans in different fonts ("**Break-Off:** may move back…")
    /// into lines no wider than `width`, keeping each word in its span's font.
    pub(crate) fn wrap_rich(&self, spans: &[Span], width: f32) -> Vec<RichLine> {
        self.wrap_rich_checked(spans, width).0
    }

    /// [`Typesetter::wrap_rich`], and whether a word had to be cut to fit.
    pub(crate) fn wrap_rich_checked(&self, spans: &[Span], width: f32) -> (Vec<RichLine>, bool) {
        let mut lines: Vec<RichLine> = Vec::new();
        let mut line: RichLine = Vec::new();
        let mut x = 0.0;
        let mut cut = false;
        for span in spans {
            let space = self.width(" ", span.font);
            for word in words(&span.text) {
                let (pieces, broken) = self.split_word(&word, span.font, width);
                cut |= broken;
                for piece in pieces {
                    let w = self.width(&piece, span.font);
                    let gap = if line.is_empty() { 0.0 } else { space };
                    if !line.is_empty() && x + gap + w > width {
                        lines.push(std::mem::take(&mut line));
                        x = 0.0;
                    }
                    let gap = if line.is_empty() { 0.0 } else { space };
                    push_word(&mut line, x + gap, &piece, span.font, gap > 0.0);
                    x += gap + w;
                }
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
        (lines, cut)
    }
}

/// Appends `word` to the line, merging it into the previous piece when the font is the same
/// (so a line is a few runs, not one run per word).
fn push_word(line: &mut RichLine, x: f32, word: &str, font: Font, spaced: bool) {
    if let Some((_, last)) = line.last_mut()
        && last.font == font
    {
        if spaced {
            last.text.push(' ');
        }
        last.text.push_str(word);
        return;
    }
    line.push((x, Span::new(word, font)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::fonts::faces;

    fn setter() -> Typesetter {
        Typesetter {
            faces: faces().unwrap(),
        }
    }

    const BODY: Font = Font {
        style: FontStyle::Regular,
        size_pt: 8.0,
        color: Rgb::BLACK,
    };

    #[test]
    fn wrapped_lines_fit_and_keep_every_word() {
        let t = setter();
        let text = "When fired on, may at once move back a normal move with +2D reaction; cannot be activated again this turn.";
        let lines = t.wrap(text, BODY, 40.0);
        assert!(lines.len() > 2);
        assert!(lines.iter().all(|l| t.width(l, BODY) <= 40.0));
        assert_eq!(lines.join(" "), text);
    }

    #[test]
    fn a_word_wider_than_the_line_is_cut_not_overflowing() {
        let t = setter();
        let lines = t.wrap("Panzerkampfwagen", BODY, 10.0);
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| t.width(l, BODY) <= 10.0));
        assert_eq!(lines.concat(), "Panzerkampfwagen");
    }

    /// Finding 1: bridge cards printed "Reactio/n" and "Movemen/t".
    #[test]
    fn words_break_only_after_a_hyphen_and_a_cut_is_reported() {
        let t = setter();
        let width = t.width("Reaction", BODY).max(t.width("Cohesion", BODY)) + 0.5;
        let (lines, cut) = t.wrap_checked("Reaction Cohesion", BODY, width);
        assert_eq!(
            (lines, cut),
            (vec!["Reaction".into(), "Cohesion".into()], false)
        );
        let width = t.width("Topped", BODY) + 0.5;
        let (lines, cut) = t.wrap_checked("Open-Topped", BODY, width);
        assert_eq!(lines, ["Open-", "Topped"]);
        assert!(!cut);
        let (_, cut) = t.wrap_checked("Reaction", BODY, t.width("Reactio", BODY));
        assert!(cut, "a word cut between letters is reported");
        assert!(!t.wraps_within("Reaction", BODY, t.width("Reactio", BODY), 3));
    }

    #[test]
    fn long_names_shrink_to_fit_and_stop_at_the_minimum() {
        let t = setter();
        let title = BODY.sized(12.0);
        let size = t.fit_size("Sturmgeschütz III", title, 6.0, 30.0, 1);
        assert!((6.0..12.0).contains(&size));
        assert!(t.width("Sturmgeschütz III", title.sized(size)) <= 30.0);
        assert_eq!(t.fit_size("Sturmgeschütz III", title, 6.0, 5.0, 1), 6.0);
    }

    #[test]
    fn clamped_wrapping_ends_in_an_ellipsis() {
        let t = setter();
        let lines = t.wrap_clamped("one two three four five six seven", BODY, 12.0, 2);
        assert_eq!(lines.len(), 2);
        assert!(lines[1].ends_with('…'));
        assert!(lines.iter().all(|l| t.width(l, BODY) <= 12.0));
    }

    #[test]
    fn mixed_fonts_wrap_as_one_paragraph() {
        let t = setter();
        let bold = Font::new(FontStyle::Bold, 8.0, Rgb::BLACK);
        let spans = [
            Span::new("Break-Off:", bold),
            Span::new(
                "may at once move back a normal move with +2D reaction.",
                BODY,
            ),
        ];
        let lines = t.wrap_rich(&spans, 30.0);
        assert!(lines.len() >= 2);
        assert_eq!(lines[0][0].1.text, "Break-Off:");
        assert_eq!(lines[0][0].1.font.style, FontStyle::Bold);
        for line in &lines {
            let (x, last) = line.last().unwrap();
            assert!(x + t.width(&last.text, last.font) <= 30.0 + 1e-3);
        }
        let words: Vec<String> = lines
            .iter()
            .flat_map(|l| l.iter().map(|(_, s)| s.text.clone()))
            .collect();
        assert_eq!(
            words.join(" "),
            "Break-Off: may at once move back a normal move with +2D reaction."
        );
    }

    /// Issue 37: a roster printed "5 (3) · 4" / "(1)" and "Trained (BS" / "3)".
    #[test]
    fn a_short_bracket_stays_with_its_word_and_a_group_stays_whole() {
        assert_eq!(
            words("5 (3) · 4 (1) · 2"),
            ["5\u{a0}(3)", "·", "4\u{a0}(1)", "·", "2"]
        );
        assert_eq!(words("Trained (BS 3)"), ["Trained\u{a0}(BS\u{a0}3)"]);
        assert_eq!(
            words("a (long bracketed group) here"),
            ["a", "(long\u{a0}bracketed\u{a0}group)", "here"]
        );
        let t = setter();
        let width = t.width("Trained (BS 3)", BODY) + 0.2;
        assert_eq!(
            t.wrap("Trained (BS 3)", BODY, width),
            ["Trained\u{a0}(BS\u{a0}3)"]
        );
        // Too narrow for the group: it breaks inside the brackets rather than cutting.
        let (lines, cut) = t.wrap_checked("Trained (BS 3)", BODY, t.width("Trained", BODY) + 0.2);
        assert!(!cut, "{lines:?}");
        assert_eq!(lines, ["Trained", "(BS\u{a0}3)"]);
        // A label's mark stays with its last word.
        let width = t.width("Troop type", BODY) + 0.5;
        let lines = t.wrap("Troop type\u{a0}†", BODY, width);
        assert_eq!(lines.last().map(|l| l.ends_with('†')), Some(true));
        assert!(lines.iter().all(|l| l != "†"), "{lines:?}");
    }

    #[test]
    fn characters_without_a_glyph_print_as_question_marks() {
        let t = setter();
        let Item::Text(run) = t.run(0.0, 0.0, BODY, "A\u{10FFFD}B\tC") else {
            panic!("a text run");
        };
        assert_eq!(run.text, "A?B C");
    }
}
