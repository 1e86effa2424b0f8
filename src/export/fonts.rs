//! The embedded typeface (DejaVu Sans regular and bold, and DejaVu Sans Condensed Bold for
//! card titles) and its metrics.
//!
//! Text is measured here from the font's own advance widths, so wrapping and shrinking in the
//! layout code match what the PDF shows to the tenth of a millimetre. The UI can load the same
//! bytes ([`font_bytes`]) to draw a preview in the same face.

use std::sync::LazyLock;

use printpdf::ParsedFont;
use serde::Deserialize;

use super::ExportError;

const REGULAR_TTF: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
const BOLD_TTF: &[u8] = include_bytes!("../../assets/DejaVuSans-Bold.ttf");
/// The same family's condensed bold: a unit's name keeps a large size in the width a card
/// gives it, as on a bought card, where the regular bold would have to shrink.
const CONDENSED_BOLD_TTF: &[u8] = include_bytes!("../../assets/DejaVuSansCondensed-Bold.ttf");

/// Millimetres per point.
pub const MM_PER_PT: f32 = 25.4 / 72.0;

/// Code points below this have their advances cached in a table.
const TABLE_LEN: usize = 0x2800;

/// The faces a layout uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FontStyle {
    #[default]
    Regular,
    Bold,
    /// Card titles: bold, about 10 % narrower than [`FontStyle::Bold`].
    CondensedBold,
}

impl FontStyle {
    pub const ALL: [FontStyle; 3] = [
        FontStyle::Regular,
        FontStyle::Bold,
        FontStyle::CondensedBold,
    ];
}

/// The TrueType file of `style`, as embedded in the binary.
pub fn font_bytes(style: FontStyle) -> &'static [u8] {
    match style {
        FontStyle::Regular => REGULAR_TTF,
        FontStyle::Bold => BOLD_TTF,
        FontStyle::CondensedBold => CONDENSED_BOLD_TTF,
    }
}

/// One parsed face with its advance widths.
pub(crate) struct Face {
    pub(crate) parsed: ParsedFont,
    /// Advance in font units per code point below [`TABLE_LEN`]; `None` where the face has no
    /// glyph.
    advances: Vec<Option<u16>>,
    units_per_em: f32,
    /// Ascender height as a fraction of the font size.
    pub(crate) ascent: f32,
}

impl Face {
    fn parse(bytes: &[u8], name: &'static str) -> Result<Face, ExportError> {
        let mut warnings = Vec::new();
        let parsed =
            ParsedFont::from_bytes(bytes, 0, &mut warnings).ok_or(ExportError::Font(name))?;
        let units_per_em = f32::from(parsed.font_metrics.units_per_em);
        if units_per_em <= 0.0 {
            return Err(ExportError::Font(name));
        }
        let ascent = parsed.font_metrics.ascent / units_per_em;
        let advances = (0..TABLE_LEN as u32)
            .map(|cp| glyph_advance(&parsed, cp))
            .collect();
        Ok(Face {
            parsed,
            advances,
            units_per_em,
            ascent,
        })
    }

    fn advance(&self, c: char) -> Option<u16> {
        match self.advances.get(c as usize) {
            Some(advance) => *advance,
            None => glyph_advance(&self.parsed, u32::from(c)),
        }
    }

    /// True when the face draws `c` (rather than an empty box).
    pub(crate) fn has_glyph(&self, c: char) -> bool {
        self.advance(c).is_some()
    }

    /// Width of `text` at `size_pt`, in millimetres.
    pub(crate) fn width_mm(&self, text: &str, size_pt: f32) -> f32 {
        let units: u32 = text
            .chars()
            .map(|c| u32::from(self.advance(c).or(self.advance('?')).unwrap_or(0)))
            .sum();
        units as f32 / self.units_per_em * size_pt * MM_PER_PT
    }
}

fn glyph_advance(font: &ParsedFont, codepoint: u32) -> Option<u16> {
    let glyph = font.lookup_glyph_index(codepoint)?;
    (glyph != 0).then(|| font.get_horizontal_advance(glyph))
}

/// Every face, parsed once per process.
pub(crate) struct Faces {
    regular: Face,
    bold: Face,
    condensed_bold: Face,
}

impl Faces {
    pub(crate) fn get(&self, style: FontStyle) -> &Face {
        match style {
            FontStyle::Regular => &self.regular,
            FontStyle::Bold => &self.bold,
            FontStyle::CondensedBold => &self.condensed_bold,
        }
    }

    /// Width of `text` in `style` at `size_pt`, in millimetres.
    pub(crate) fn width_mm(&self, text: &str, style: FontStyle, size_pt: f32) -> f32 {
        self.get(style).width_mm(text, size_pt)
    }
}

static FACES: LazyLock<Result<Faces, ExportError>> = LazyLock::new(|| {
    Ok(Faces {
        regular: Face::parse(REGULAR_TTF, "DejaVuSans.ttf")?,
        bold: Face::parse(BOLD_TTF, "DejaVuSans-Bold.ttf")?,
        condensed_bold: Face::parse(CONDENSED_BOLD_TTF, "DejaVuSansCondensed-Bold.ttf")?,
    })
});

/// Parses the faces now, if not yet: the window asks on a thread of its own at start, so the
/// first card preview drawn does not wait for three TrueType files to be parsed.
pub fn prepare() {
    let _ = faces();
}

/// The parsed faces; an error only in a broken build.
pub(crate) fn faces() -> Result<&'static Faces, ExportError> {
    FACES.as_ref().map_err(Clone::clone)
}

/// Width of `text` set in `style` at `size_pt`, in millimetres (for the UI's preview).
pub fn text_width_mm(text: &str, style: FontStyle, size_pt: f32) -> Result<f32, ExportError> {
    Ok(faces()?.width_mm(text, style, size_pt))
}

/// The face's ascender as a share of the font size, so a preview can turn a baseline into
/// the top of a line (`top = baseline − ascent × size`).
pub fn ascent(style: FontStyle) -> Result<f32, ExportError> {
    Ok(faces()?.get(style).ascent)
}

/// The characters of `text` the embedded face cannot draw (they print as `?`).
pub fn missing_glyphs(text: &str, style: FontStyle) -> Result<Vec<char>, ExportError> {
    let face = faces()?.get(style);
    let mut missing: Vec<char> = text
        .chars()
        .filter(|&c| !c.is_control() && !face.has_glyph(c))
        .collect();
    missing.sort_unstable();
    missing.dedup();
    Ok(missing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_face_covers_latin_1_the_inch_mark_and_dashes() {
        let latin1: String = (0x20u8..0x7f).chain(0xa0..=0xff).map(char::from).collect();
        let extra = "″–—×·•…−✗✓°";
        for style in FontStyle::ALL {
            assert_eq!(missing_glyphs(&latin1, style).unwrap(), Vec::<char>::new());
            assert_eq!(missing_glyphs(extra, style).unwrap(), Vec::<char>::new());
        }
    }

    #[test]
    fn widths_grow_with_text_and_size() {
        let faces = faces().unwrap();
        let narrow = faces.width_mm("il", FontStyle::Regular, 10.0);
        let wide = faces.width_mm("WM", FontStyle::Regular, 10.0);
        assert!(narrow > 0.0 && wide > narrow);
        let double = faces.width_mm("Größe", FontStyle::Bold, 20.0);
        let single = faces.width_mm("Größe", FontStyle::Bold, 10.0);
        assert!((double - 2.0 * single).abs() < 1e-3);
        // An em of DejaVu "M" is a little under the font size: 10 pt ≈ 3.5 mm.
        let m = faces.width_mm("M", FontStyle::Regular, 10.0);
        assert!((2.5..3.6).contains(&m), "{m}");
    }

    /// Issue 37: a long name set condensed keeps its size where the bold would shrink.
    #[test]
    fn the_condensed_bold_is_about_a_tenth_narrower_than_the_bold() {
        let faces = faces().unwrap();
        let name = "Sturmgeschütz III Ausf. G (late production)";
        let bold = faces.width_mm(name, FontStyle::Bold, 12.0);
        let condensed = faces.width_mm(name, FontStyle::CondensedBold, 12.0);
        let ratio = condensed / bold;
        assert!((0.85..0.95).contains(&ratio), "{ratio}");
    }
}
