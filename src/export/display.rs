//! The display list: pages of positioned rectangles, lines and text, in millimetres.
//!
//! Every export is laid out into a [`Layout`] first; the PDF writer and the UI's print preview
//! both draw from it, so what the preview shows is what prints. Coordinates are millimetres
//! from the page's top-left corner, y growing downwards (the PDF writer flips them).

use std::fmt;

use serde::{Deserialize, Deserializer};

use super::fonts::FontStyle;

/// An sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb {
    pub r: u8,
    pub g: u8,
    pub b: u8,
}

impl Rgb {
    pub const BLACK: Rgb = Rgb::new(0, 0, 0);
    pub const WHITE: Rgb = Rgb::new(255, 255, 255);

    pub const fn new(r: u8, g: u8, b: u8) -> Self {
        Rgb { r, g, b }
    }

    /// Parses `#rrggbb`.
    pub fn from_hex(text: &str) -> Option<Rgb> {
        let hex = text.strip_prefix('#')?;
        if hex.len() != 6 || !hex.is_ascii() {
            return None;
        }
        let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        Some(Rgb::new(channel(0)?, channel(2)?, channel(4)?))
    }
}

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }
}

impl<'de> Deserialize<'de> for Rgb {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Rgb::from_hex(&text).ok_or_else(|| {
            serde::de::Error::custom(format!("colour '{text}' is not of the form #rrggbb"))
        })
    }
}

/// How a line or an outline is stroked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stroke {
    pub color: Rgb,
    pub width_pt: f32,
    /// Dash and gap length in points; `None` for a solid line.
    pub dash_pt: Option<f32>,
}

impl Stroke {
    pub fn solid(color: Rgb, width_pt: f32) -> Self {
        Stroke {
            color,
            width_pt,
            dash_pt: None,
        }
    }
}

/// Which way a line of text runs on the page. Cards set a quarter turn round on a sheet
/// (bridge cards on Letter fit eight that way) carry their text turned with them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rotation {
    /// Left to right.
    #[default]
    Upright,
    /// A quarter turn counter-clockwise: the text runs up the page.
    Left,
    /// A quarter turn clockwise: the text runs down the page.
    Right,
    /// Upside down: the back of an upright card printed for a sheet turned over its short
    /// edge, so it reads the right way up when the card is turned over like a page.
    Half,
}

/// One line of text, set in one face, size and colour.
#[derive(Debug, Clone, PartialEq)]
pub struct TextRun {
    /// Start of the baseline (its left end for upright text).
    pub x: f32,
    pub baseline: f32,
    pub size_pt: f32,
    pub style: FontStyle,
    pub color: Rgb,
    pub text: String,
    /// Measured width, so a preview can check it against the box it was fitted to.
    pub width: f32,
    /// Upright unless the card it belongs to is turned on its sheet.
    pub rotation: Rotation,
}

/// A box on the page, in millimetres from the top-left corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Frame {
    /// The same box grown by `by` on every side.
    pub fn grown(self, by: f32) -> Frame {
        Frame {
            x: self.x - by,
            y: self.y - by,
            w: self.w + 2.0 * by,
            h: self.h + 2.0 * by,
        }
    }
}

/// How the printer should turn the paper, written into the PDF's viewer preferences so the
/// print dialog starts with the right choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Duplex {
    /// One side of each sheet (rosters, references, fold-over cards).
    #[default]
    Simplex,
    /// Both sides, turned over the long edge.
    FlipLongEdge,
    /// Both sides, turned over the short edge.
    FlipShortEdge,
}

/// A straight line from (`x1`, `y1`) to (`x2`, `y2`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    pub x1: f32,
    pub y1: f32,
    pub x2: f32,
    pub y2: f32,
    pub stroke: Stroke,
}

/// One drawing instruction.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// An axis-aligned rectangle, filled and/or outlined.
    Rect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        fill: Option<Rgb>,
        stroke: Option<Stroke>,
    },
    /// A straight line.
    Line(Segment),
    Text(TextRun),
    /// A polyline, closed into a polygon when `closed`. A filled path is star-shaped about
    /// the mean of its points (a side's mark, a badge), which the preview's fill relies on.
    Path {
        points: Vec<(f32, f32)>,
        closed: bool,
        fill: Option<Rgb>,
        stroke: Option<Stroke>,
    },
}

impl Item {
    /// The same item with every point moved by `f` (millimetres in, millimetres out). A
    /// rectangle keeps its corners' bounding box, so `f` may turn or mirror it; text keeps
    /// its rotation, which the caller sets where `f` turns it.
    pub fn mapped(&self, f: impl Fn(f32, f32) -> (f32, f32)) -> Item {
        match self {
            Item::Rect {
                x,
                y,
                w,
                h,
                fill,
                stroke,
            } => {
                let (ax, ay) = f(*x, *y);
                let (bx, by) = f(x + w, y + h);
                Item::Rect {
                    x: ax.min(bx),
                    y: ay.min(by),
                    w: (bx - ax).abs(),
                    h: (by - ay).abs(),
                    fill: *fill,
                    stroke: *stroke,
                }
            }
            Item::Line(line) => {
                let (x1, y1) = f(line.x1, line.y1);
                let (x2, y2) = f(line.x2, line.y2);
                Item::Line(Segment {
                    x1,
                    y1,
                    x2,
                    y2,
                    ..*line
                })
            }
            Item::Text(run) => {
                let (x, baseline) = f(run.x, run.baseline);
                Item::Text(TextRun {
                    x,
                    baseline,
                    ..run.clone()
                })
            }
            Item::Path {
                points,
                closed,
                fill,
                stroke,
            } => Item::Path {
                points: points.iter().map(|&(x, y)| f(x, y)).collect(),
                closed: *closed,
                fill: *fill,
                stroke: *stroke,
            },
        }
    }
}

/// One page of a layout.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub width: f32,
    pub height: f32,
    pub items: Vec<Item>,
    /// Where the page is cut, when that is not its edge: a print shop's card page is the
    /// card and its bleed, trimmed at the card (the PDF's TrimBox; its BleedBox is the page).
    pub trim: Option<Frame>,
}

impl Page {
    pub fn new(width: f32, height: f32) -> Self {
        Page {
            width,
            height,
            items: Vec::new(),
            trim: None,
        }
    }

    /// Every text run on the page, in drawing order.
    pub fn texts(&self) -> impl Iterator<Item = &TextRun> {
        self.items.iter().filter_map(|item| match item {
            Item::Text(run) => Some(run),
            _ => None,
        })
    }

    /// The page's text runs joined by newlines (for tests and search).
    pub fn plain_text(&self) -> String {
        self.texts()
            .map(|t| t.text.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// A laid-out document, ready to preview or to write as PDF.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Document title (PDF metadata and the preview's window title).
    pub title: String,
    pub pages: Vec<Page>,
    /// What could not be placed as it should: a word cut, text left off, a character the
    /// font cannot draw ("Panther: …"). The command line exits 1 when there are any.
    pub warnings: Vec<String>,
    /// Worth knowing but nothing lost ("Tiger I continues on a second card").
    pub notes: Vec<String>,
    /// One side of the paper or both, and how it turns.
    pub duplex: Duplex,
}

impl Layout {
    /// An empty layout titled `title`.
    pub fn new(title: impl Into<String>) -> Self {
        Layout {
            title: title.into(),
            pages: Vec::new(),
            warnings: Vec::new(),
            notes: Vec::new(),
            duplex: Duplex::Simplex,
        }
    }

    /// All text of all pages (for tests and search).
    pub fn plain_text(&self) -> String {
        self.pages
            .iter()
            .map(Page::plain_text)
            .collect::<Vec<_>>()
            .join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_parse_from_hex() {
        assert_eq!(Rgb::from_hex("#4a5530"), Some(Rgb::new(0x4a, 0x55, 0x30)));
        assert_eq!(Rgb::new(1, 2, 255).to_string(), "#0102ff");
        for bad in ["4a5530", "#4a553", "#zz5530", "#4a55300"] {
            assert_eq!(Rgb::from_hex(bad), None, "{bad}");
        }
    }
}
