//! Full colour or low ink: the one place that decides how a coloured area prints.
//!
//! Home printers run out of colour first and many print black only, so every export can be
//! laid out in low ink: no filled band or background anywhere (nothing larger than a tick
//! box is filled), each becomes a rule or an outline, and text that sat on a band takes the
//! plain text colour so it reads in black and white. Layout code asks here for each band,
//! panel and tint instead of drawing filled rectangles itself.

use super::display::{Item, Rgb, Segment, Stroke};

/// How much ink a print may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Ink {
    /// Coloured bands, tinted panels, filled card backs.
    #[default]
    Full,
    /// Rules and outlines in place of every filled area.
    Low,
}

/// The paper a sheet (a roster, a quick reference) is printed on and how much ink it may
/// use. A page id alone (`"a4"`) means full ink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paper<'a> {
    /// A page size id from `templates/page-sizes.json` (`a4`, `letter`).
    pub page: &'a str,
    pub ink: Ink,
}

impl<'a> From<&'a str> for Paper<'a> {
    fn from(page: &'a str) -> Self {
        Paper {
            page,
            ink: Ink::Full,
        }
    }
}

impl<'a> From<&'a String> for Paper<'a> {
    fn from(page: &'a String) -> Self {
        Paper::from(page.as_str())
    }
}

/// Above this luma a colour is a light tint: drawn as a line it would vanish, so low ink
/// draws it in [`TINT_LINE`] instead.
const LIGHT_LUMA: f32 = 180.0;

/// The grey a light tint becomes as a line: dark enough for a black-only printer.
const TINT_LINE: Rgb = Rgb::new(110, 110, 110);

/// Stroke width of a band's rule in low ink: heavy enough to mark a header off.
const BAND_RULE_PT: f32 = 1.2;

/// Stroke width of an outline or bar standing for a tinted area in low ink.
const OUTLINE_PT: f32 = 0.6;

impl Ink {
    /// The command-line and preferences name (`full`, `low`).
    pub fn key(self) -> &'static str {
        match self {
            Ink::Full => "full",
            Ink::Low => "low",
        }
    }

    /// A heading band (a card's header, a table's header row): filled in full ink; in low
    /// ink a rule along its bottom edge (its other edges are the card's or the page's).
    pub(crate) fn band(self, x: f32, y: f32, w: f32, h: f32, fill: Rgb) -> Vec<Item> {
        match self {
            Ink::Full => vec![filled(x, y, w, h, fill)],
            Ink::Low => vec![Item::Line(Segment {
                x1: x,
                y1: y + h,
                x2: x + w,
                y2: y + h,
                stroke: Stroke::solid(line_color(fill), BAND_RULE_PT),
            })],
        }
    }

    /// A boxed area (a roster's budget line): filled in full ink, outlined in low ink.
    pub(crate) fn panel(self, x: f32, y: f32, w: f32, h: f32, fill: Rgb) -> Item {
        match self {
            Ink::Full => filled(x, y, w, h, fill),
            Ink::Low => Item::Rect {
                x,
                y,
                w,
                h,
                fill: None,
                stroke: Some(Stroke::solid(line_color(fill), OUTLINE_PT)),
            },
        }
    }

    /// One strip of a tinted background (a card's notes panel, line by line): filled in full
    /// ink; in low ink a bar down its left edge, so the strips of a panel make one bar.
    pub(crate) fn tint(self, x: f32, y: f32, w: f32, h: f32, fill: Rgb, bar: Rgb) -> Item {
        match self {
            Ink::Full => filled(x, y, w, h, fill),
            Ink::Low => Item::Line(Segment {
                x1: x,
                y1: y,
                x2: x,
                y2: y + h,
                stroke: Stroke::solid(line_color(bar), OUTLINE_PT),
            }),
        }
    }

    /// The colour of text set on a band: `on` (white on colour) in full ink, `plain` in low
    /// ink, where the band is only a rule.
    pub(crate) fn on_band(self, on: Rgb, plain: Rgb) -> Rgb {
        match self {
            Ink::Full => on,
            Ink::Low => plain,
        }
    }
}

fn filled(x: f32, y: f32, w: f32, h: f32, fill: Rgb) -> Item {
    Item::Rect {
        x,
        y,
        w,
        h,
        fill: Some(fill),
        stroke: None,
    }
}

/// Rec. 601 luma, 0–255.
fn luma(c: Rgb) -> f32 {
    0.299 * f32::from(c.r) + 0.587 * f32::from(c.g) + 0.114 * f32::from(c.b)
}

fn line_color(c: Rgb) -> Rgb {
    if luma(c) > LIGHT_LUMA { TINT_LINE } else { c }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn low_ink_fills_nothing_and_keeps_light_tints_visible() {
        let tint = Rgb::new(0xee, 0xee, 0xe8);
        let accent = Rgb::new(0x4a, 0x55, 0x30);
        for item in Ink::Low
            .band(0.0, 0.0, 60.0, 8.0, accent)
            .into_iter()
            .chain([Ink::Low.panel(0.0, 0.0, 60.0, 8.0, tint)])
            .chain([Ink::Low.tint(0.0, 0.0, 60.0, 3.0, tint, tint)])
        {
            match item {
                Item::Rect { fill, stroke, .. } => {
                    assert_eq!(fill, None);
                    assert_eq!(stroke.map(|s| s.color), Some(TINT_LINE));
                }
                Item::Line(Segment { stroke, .. }) => assert!(luma(stroke.color) <= LIGHT_LUMA),
                Item::Text(_) | Item::Path { .. } => panic!("no text or path"),
            }
        }
        assert_eq!(
            Ink::Full.band(0.0, 0.0, 60.0, 8.0, accent),
            [filled(0.0, 0.0, 60.0, 8.0, accent)]
        );
        assert_eq!(Ink::Low.on_band(Rgb::WHITE, Rgb::BLACK), Rgb::BLACK);
    }
}
