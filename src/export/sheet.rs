//! Setting cards out on pages.
//!
//! Three layouts. A **grid** of cards with crop marks at every cut line on both axes, turned
//! a quarter turn where more cards fit that way (bridge on Letter), with backs on the next
//! page for a duplex printer, mirrored so they land behind their fronts and shifted by the
//! printer's measured back offset. A **fold** sheet puts each back beside its front with a
//! fold line, for printers without duplex. **Single** gives each card a page of its exact
//! size, for print shops.
//!
//! Fronts never bleed, so cutting along a front's visible edge gives the card's true size;
//! backs run their colour a little past the cut so a shifted back shows no white. Crop marks
//! are printed on fronts only: the sheet is cut from the front, and on a back they would sit
//! under the bleed.

use super::card_back::draw_back;
use super::card_layout::{Bleed, Content, FittedCard, Frame, FrontStyle, fit_card, fit_deck};
use super::cards::{CardFace, CardMode, card_faces};
use super::display::{Duplex, Item, Layout, Page, Rotation, Segment, Stroke};
use super::fonts::faces;
use super::ink::Ink;
use super::reference::unit_odds;
use super::sheet_margin::margin_items;
use super::template::{CardSize, CardTemplate, PageSize, SheetStyle, templates};
use super::text::Typesetter;
use super::{ExportError, Progress, Stage};
use crate::rules::Force;

/// Which edge the sheet is turned over for duplex printing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Flip {
    /// Turned over the long edge (the usual printer default): backs mirror left to right.
    #[default]
    LongEdge,
    /// Turned over the short edge: backs mirror top to bottom.
    ShortEdge,
}

/// How cards are set out on pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SheetLayout {
    /// As many cards as fit, with crop marks; backs (if asked) on the following page.
    #[default]
    Grid,
    /// Each back beside its front, with a fold line between them, on one side of the sheet.
    Fold,
    /// One card per page, the page the card's exact size.
    Single,
}

impl SheetLayout {
    /// The command-line name (`grid`, `fold`, `single`).
    pub fn key(self) -> &'static str {
        match self {
            SheetLayout::Grid => "grid",
            SheetLayout::Fold => "fold",
            SheetLayout::Single => "single",
        }
    }
}

/// Where a duplex printer puts the back of a sheet relative to where it should be, as read
/// off the calibration sheet from the front: millimetres to the right (x) and down (y).
/// Backs are printed shifted the opposite way, so they land behind their fronts.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct BackOffset {
    pub x_mm: f32,
    pub y_mm: f32,
}

/// The largest back offset accepted, in mm: the calibration scale reads ±10 mm, and a printer
/// further out than that needs fixing, not compensating.
pub const MAX_BACK_OFFSET_MM: f32 = 10.0;

impl BackOffset {
    /// Refuses an offset beyond [`MAX_BACK_OFFSET_MM`] on either axis, or not a number.
    pub fn checked(self) -> Result<Self, ExportError> {
        let fine = |v: f32| v.is_finite() && v.abs() <= MAX_BACK_OFFSET_MM;
        if fine(self.x_mm) && fine(self.y_mm) {
            Ok(self)
        } else {
            Err(ExportError::BackOffset {
                x_mm: self.x_mm,
                y_mm: self.y_mm,
            })
        }
    }

    /// How far to move what is drawn on a back page, in that page's own coordinates. Seen
    /// from the front the back must move by (−x, −y); turning the sheet over mirrors one
    /// axis.
    pub fn shift_on_back(self, flip: Flip) -> (f32, f32) {
        match flip {
            Flip::LongEdge => (self.x_mm, -self.y_mm),
            Flip::ShortEdge => (-self.x_mm, self.y_mm),
        }
    }

    pub fn is_zero(self) -> bool {
        self.x_mm == 0.0 && self.y_mm == 0.0
    }
}

/// What to print and on what.
#[derive(Debug, Clone, PartialEq)]
pub struct CardOptions {
    /// A card size id from `templates/card-sizes.json` (`poker`, `bridge`, `tarot`).
    pub size: String,
    /// A page size id from `templates/page-sizes.json` (`a4`, `letter`).
    pub page: String,
    pub mode: CardMode,
    /// Print card backs: on the following page (grid), on a page of their own (single).
    /// The fold layout always prints them.
    pub backs: bool,
    pub flip: Flip,
    /// Space between cards in mm (0 for a guillotine); `None` for the sheet style's default.
    pub gap_mm: Option<f32>,
    pub layout: SheetLayout,
    pub ink: Ink,
    /// The printer's measured back offset, applied to back pages.
    pub back_offset: BackOffset,
    /// On a print shop's pages (`Single`), a dashed guide of this corner radius in mm where
    /// the die rounds the corners.
    pub corner_guide_mm: Option<f32>,
}

impl Default for CardOptions {
    fn default() -> Self {
        CardOptions {
            size: "poker".to_string(),
            page: "a4".to_string(),
            mode: CardMode::PerUnit,
            backs: false,
            flip: Flip::LongEdge,
            gap_mm: None,
            layout: SheetLayout::Grid,
            ink: Ink::Full,
            back_offset: BackOffset::default(),
            corner_guide_mm: None,
        }
    }
}

impl CardOptions {
    /// True when the layout prints backs.
    pub fn prints_backs(&self) -> bool {
        self.backs || self.layout == SheetLayout::Fold
    }
}

/// The widest gap between cards accepted, in mm: more wastes the sheet for nothing.
pub const MAX_GAP_MM: f32 = 20.0;

/// The shortest crop mark: a shorter one is hard to line a ruler up with.
pub const MIN_MARK_MM: f32 = 3.0;

/// A gap narrower than this, when the wanted gap does not fit, becomes none: a sliver between
/// two cuts is only waste, and shared cuts are quicker.
const MIN_GAP_MM: f32 = 1.0;

/// How cards fit along one side of the page.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Axis {
    count: usize,
    gap: f32,
    /// Margin before the first card.
    start: f32,
    /// How far backs bleed along this axis.
    bleed: f32,
    /// Crop-mark length in the margin before the cards and after them (0: no marks).
    lead_mark: f32,
    trail_mark: f32,
}

/// The most cards of `size` that fit along `space` with crop marks: in both margins if
/// possible, else in the leading one (top or left) with the other margin only as wide as
/// the printer's edge and the backs' bleed need. The wanted gap narrows rather than cost a
/// card or the marks.
fn fit_axis(space: f32, size: f32, wanted: f32, sheet: &SheetStyle) -> Option<Axis> {
    let m = sheet.min_margin_mm;
    let marked = m + sheet.crop_mark_offset_mm + MIN_MARK_MM;
    let most = ((space - 2.0 * m) / size).floor().max(0.0) as usize;
    let mark = |margin: f32| (margin - m - sheet.crop_mark_offset_mm).min(sheet.crop_mark_mm);
    for count in (1..=most).rev() {
        let n = count as f32;
        for both in [true, false] {
            let fixed = if both { 2.0 * marked } else { marked + m };
            let room = space - n * size - fixed;
            if room < -1e-4 {
                continue;
            }
            let room = room.max(0.0);
            // One-sided, the unmarked margin also holds the backs' bleed, which is never wider
            // than the gap between cards.
            let fits = if count == 1 {
                0.0
            } else if both {
                room / (n - 1.0)
            } else if room / n <= sheet.bleed_mm {
                room / n
            } else {
                (room - sheet.bleed_mm) / (n - 1.0)
            };
            let mut gap = fits.min(wanted);
            if gap < MIN_GAP_MM && gap < wanted {
                gap = 0.0;
            }
            let bleed = match (count, both) {
                (1, true) => sheet.bleed_mm,
                (1, false) => sheet.bleed_mm.min(room),
                _ => sheet.bleed_mm.min(gap),
            };
            let extra = space - n * size - (n - 1.0) * gap;
            let (lead, trail) = if both {
                (extra / 2.0, extra / 2.0)
            } else {
                (extra - m - bleed, m + bleed)
            };
            return Some(Axis {
                count,
                gap,
                start: lead,
                bleed,
                lead_mark: mark(lead),
                trail_mark: if both { mark(trail) } else { 0.0 },
            });
        }
    }
    None
}

/// Lengths of the crop marks in each margin; 0 where there are none.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Marks {
    pub top: f32,
    pub right: f32,
    pub bottom: f32,
    pub left: f32,
}

/// Where the cards of one page go.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    pub columns: usize,
    pub rows: usize,
    /// Top-left corner of the first cell.
    pub x0: f32,
    pub y0: f32,
    /// One cell as it sits on the page: a card, or a front and its back side by side (fold),
    /// turned when `turned`.
    pub cell_w: f32,
    pub cell_h: f32,
    /// Space between columns and between rows.
    pub gap_x: f32,
    pub gap_y: f32,
    /// How far backs run past the cut across and down the page.
    pub bleed_x: f32,
    pub bleed_y: f32,
    /// The card's own size, upright.
    pub card_w: f32,
    pub card_h: f32,
    /// Cards lie a quarter turn round, their tops to the left, because more fit that way.
    pub turned: bool,
    /// Cells hold a front and its back side by side.
    pub fold: bool,
    pub marks: Marks,
}

/// Where a card's own coordinates (0..w across, 0..h down, upright) land on a page.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    /// The part of the page the card covers.
    pub frame: Frame,
    pub rotation: Rotation,
    /// The card's own width and height, upright.
    pub card_w: f32,
    pub card_h: f32,
}

impl Placement {
    /// An upright card at `frame`.
    pub fn upright(frame: Frame) -> Self {
        Placement {
            frame,
            rotation: Rotation::Upright,
            card_w: frame.w,
            card_h: frame.h,
        }
    }

    fn point(&self, u: f32, v: f32) -> (f32, f32) {
        let Frame { x, y, .. } = self.frame;
        match self.rotation {
            Rotation::Upright => (x + u, y + v),
            // The card's top to the page's left: its right edge is the page's top.
            Rotation::Left => (x + v, y + self.card_w - u),
            // The card's top to the page's right.
            Rotation::Right => (x + self.card_h - v, y + u),
            Rotation::Half => (x + self.card_w - u, y + self.card_h - v),
        }
    }

    /// `item`, drawn in the card's own coordinates, on the page.
    pub(crate) fn place(&self, item: &Item) -> Item {
        match item.mapped(|u, v| self.point(u, v)) {
            Item::Text(run) => Item::Text(super::display::TextRun {
                rotation: self.rotation,
                ..run
            }),
            other => other,
        }
    }

    /// The same placement moved by (`dx`, `dy`) on the page.
    fn moved(self, dx: f32, dy: f32) -> Self {
        Placement {
            frame: Frame {
                x: self.frame.x + dx,
                y: self.frame.y + dy,
                ..self.frame
            },
            ..self
        }
    }
}

impl Grid {
    /// As many cells as fit, upright or turned, with crop marks at every cut (see
    /// [`fit_axis`]). A fold cell is a front and its back side by side.
    pub fn new(
        page: &PageSize,
        card: &CardSize,
        sheet: &SheetStyle,
        gap: f32,
        fold: bool,
    ) -> Result<Grid, ExportError> {
        if !(0.0..=MAX_GAP_MM).contains(&gap) {
            return Err(ExportError::Gap(gap));
        }
        let (w, h) = if fold {
            (2.0 * card.width_mm, card.height_mm)
        } else {
            (card.width_mm, card.height_mm)
        };
        let fit = |cell_w: f32, cell_h: f32| {
            let across = fit_axis(page.width_mm, cell_w, gap, sheet)?;
            let down = fit_axis(page.height_mm, cell_h, gap, sheet)?;
            Some((across, down, cell_w, cell_h))
        };
        let upright = fit(w, h);
        let turned = fit(h, w);
        let count = |f: &Option<(Axis, Axis, f32, f32)>| {
            f.as_ref().map_or(0, |(a, d, ..)| a.count * d.count)
        };
        let (chosen, is_turned) = if count(&turned) > count(&upright) {
            (turned, true)
        } else {
            (upright, false)
        };
        let Some((across, down, cell_w, cell_h)) = chosen else {
            return Err(ExportError::CardTooLarge {
                card: card.id.clone(),
                page: page.id.clone(),
                card_w: card.width_mm,
                card_h: card.height_mm,
            });
        };
        Ok(Grid {
            columns: across.count,
            rows: down.count,
            x0: across.start,
            y0: down.start,
            cell_w,
            cell_h,
            gap_x: across.gap,
            gap_y: down.gap,
            bleed_x: across.bleed,
            bleed_y: down.bleed,
            card_w: card.width_mm,
            card_h: card.height_mm,
            turned: is_turned,
            fold,
            marks: Marks {
                top: down.lead_mark,
                bottom: down.trail_mark,
                left: across.lead_mark,
                right: across.trail_mark,
            },
        })
    }

    pub fn per_page(&self) -> usize {
        self.columns * self.rows
    }

    /// The `slot`-th cell of a page (row by row).
    pub fn cell(&self, slot: usize) -> Frame {
        let (row, col) = (slot / self.columns, slot % self.columns);
        Frame {
            x: self.x0 + col as f32 * (self.cell_w + self.gap_x),
            y: self.y0 + row as f32 * (self.cell_h + self.gap_y),
            w: self.cell_w,
            h: self.cell_h,
        }
    }

    fn rotation(&self) -> Rotation {
        if self.turned {
            Rotation::Left
        } else {
            Rotation::Upright
        }
    }

    /// Where the front of the `slot`-th card goes. In a fold cell the front is on the left
    /// (at the bottom when turned), its back beside it.
    pub fn placement(&self, slot: usize) -> Placement {
        let cell = self.cell(slot);
        let frame = match (self.fold, self.turned) {
            (false, _) => cell,
            (true, false) => Frame {
                w: self.card_w,
                ..cell
            },
            (true, true) => Frame {
                y: cell.y + self.card_w,
                h: self.card_w,
                ..cell
            },
        };
        Placement {
            frame,
            rotation: self.rotation(),
            card_w: self.card_w,
            card_h: self.card_h,
        }
    }

    /// The page frame of the front of the `slot`-th card.
    pub fn frame(&self, slot: usize) -> Frame {
        self.placement(slot).frame
    }

    /// Where the back of a fold cell's card goes: beside its front, the same way up, so
    /// folding along the line between them puts it behind the front.
    pub fn fold_back(&self, slot: usize) -> Placement {
        let front = self.placement(slot);
        if self.turned {
            front.moved(0.0, -self.card_w)
        } else {
            front.moved(self.card_w, 0.0)
        }
    }

    /// Where, on the back of the sheet, the back of the card at `front` goes: the point of
    /// the back at (w − u, v) lies behind the front's (u, v), so the back reads the right way
    /// up when the cut card is turned over like a page. Turning the sheet over its long edge
    /// mirrors x, so a turned card's back turns the other way; over its short edge it
    /// mirrors y, so an upright card's back is printed upside down.
    pub fn back_of(front: Placement, page: &PageSize, flip: Flip) -> Placement {
        let f = front.frame;
        let (frame, rotation) = match flip {
            Flip::LongEdge => (
                Frame {
                    x: page.width_mm - f.x - f.w,
                    ..f
                },
                match front.rotation {
                    Rotation::Upright => Rotation::Upright,
                    Rotation::Left => Rotation::Right,
                    Rotation::Right => Rotation::Left,
                    Rotation::Half => Rotation::Half,
                },
            ),
            Flip::ShortEdge => (
                Frame {
                    y: page.height_mm - f.y - f.h,
                    ..f
                },
                match front.rotation {
                    Rotation::Upright => Rotation::Half,
                    Rotation::Half => Rotation::Upright,
                    turned => turned,
                },
            ),
        };
        Placement {
            frame,
            rotation,
            ..front
        }
    }

    pub(crate) fn right(&self) -> f32 {
        self.x0 + self.columns as f32 * (self.cell_w + self.gap_x) - self.gap_x
    }

    pub(crate) fn bottom(&self) -> f32 {
        self.y0 + self.rows as f32 * (self.cell_h + self.gap_y) - self.gap_y
    }

    /// A back's bleed on each side of the card, in the card's own terms.
    fn back_bleed(&self) -> Bleed {
        let (across, down) = if self.turned {
            (self.bleed_y, self.bleed_x)
        } else {
            (self.bleed_x, self.bleed_y)
        };
        Bleed {
            top: down,
            right: across,
            bottom: down,
            left: across,
        }
    }

    /// Every vertical cut line's x (each cell's left and right edge).
    pub fn cuts_x(&self) -> Vec<f32> {
        cuts(self.x0, self.columns, self.cell_w, self.gap_x)
    }

    /// Every horizontal cut line's y.
    pub fn cuts_y(&self) -> Vec<f32> {
        cuts(self.y0, self.rows, self.cell_h, self.gap_y)
    }

    /// Where fold cells fold: x of each column's fold line (upright), or y of each row's
    /// (turned). Empty unless `fold`.
    fn folds(&self) -> (Vec<f32>, Vec<f32>) {
        if !self.fold {
            return (Vec::new(), Vec::new());
        }
        if self.turned {
            let ys = (0..self.rows)
                .map(|row| self.y0 + row as f32 * (self.cell_h + self.gap_y) + self.card_w)
                .collect();
            (Vec::new(), ys)
        } else {
            let xs = (0..self.columns)
                .map(|col| self.x0 + col as f32 * (self.cell_w + self.gap_x) + self.card_w)
                .collect();
            (xs, Vec::new())
        }
    }

    /// Crop marks in the margins in line with every cut, starting the sheet's offset away
    /// from the cards; dashed fold marks in line with every fold, and the fold line itself.
    pub fn crop_marks(&self, sheet: &SheetStyle) -> Vec<Item> {
        let stroke = Stroke::solid(sheet.crop_mark_color, sheet.crop_mark_width_pt);
        let fold_stroke = Stroke {
            dash_pt: Some(2.0),
            ..stroke
        };
        let off = sheet.crop_mark_offset_mm;
        let line = |x1, y1, x2, y2, stroke| {
            Item::Line(Segment {
                x1,
                y1,
                x2,
                y2,
                stroke,
            })
        };
        let (top, bottom) = (self.y0 - off, self.bottom() + off);
        let (left, right) = (self.x0 - off, self.right() + off);
        let Marks {
            top: mt,
            right: mr,
            bottom: mb,
            left: ml,
        } = self.marks;
        let mut marks = Vec::new();
        let (fold_xs, fold_ys) = self.folds();
        let across = |x: f32, stroke: Stroke, marks: &mut Vec<Item>| {
            if mt > 0.0 {
                marks.push(line(x, top - mt, x, top, stroke));
            }
            if mb > 0.0 {
                marks.push(line(x, bottom, x, bottom + mb, stroke));
            }
        };
        let down = |y: f32, stroke: Stroke, marks: &mut Vec<Item>| {
            if ml > 0.0 {
                marks.push(line(left - ml, y, left, y, stroke));
            }
            if mr > 0.0 {
                marks.push(line(right, y, right + mr, y, stroke));
            }
        };
        for x in self.cuts_x() {
            across(x, stroke, &mut marks);
        }
        for y in self.cuts_y() {
            down(y, stroke, &mut marks);
        }
        for &x in &fold_xs {
            across(x, fold_stroke, &mut marks);
            for row in 0..self.rows {
                let y = self.y0 + row as f32 * (self.cell_h + self.gap_y);
                marks.push(line(x, y, x, y + self.cell_h, fold_stroke));
            }
        }
        for &y in &fold_ys {
            down(y, fold_stroke, &mut marks);
            for col in 0..self.columns {
                let x = self.x0 + col as f32 * (self.cell_w + self.gap_x);
                marks.push(line(x, y, x + self.cell_w, y, fold_stroke));
            }
        }
        marks
    }

    /// The x of every mark standing in the top or bottom margin (`top`), which a caption
    /// there must keep clear of.
    pub(crate) fn marks_across(&self, top: bool) -> Vec<f32> {
        let len = if top {
            self.marks.top
        } else {
            self.marks.bottom
        };
        if len <= 0.0 {
            return Vec::new();
        }
        let mut xs = self.cuts_x();
        xs.extend(self.folds().0);
        xs
    }
}

/// How far a print shop's card page runs past the cut on every side: the ~3 mm shops ask
/// for, into which the header band and the back's colour run.
pub const SHOP_BLEED_MM: f32 = 3.0;

/// A print shop's safe zone: text keeps this far inside the cut.
pub const SHOP_SAFE_MM: f32 = 3.0;

/// Colour of the corner guide: a process colour no card uses, so it reads as a guide.
const GUIDE_COLOUR: super::display::Rgb = super::display::Rgb::new(0, 160, 220);

/// Quarter circles of `radius` at the four corners of `trim`, dashed, where a die cutter
/// rounds the card: a guide to check the artwork clears them.
fn corner_guides(trim: Frame, radius: f32) -> Vec<Item> {
    let stroke = Stroke {
        color: GUIDE_COLOUR,
        width_pt: 0.3,
        dash_pt: Some(1.0),
    };
    let corners = [
        (trim.x + radius, trim.y + radius, std::f32::consts::PI),
        (
            trim.x + trim.w - radius,
            trim.y + radius,
            1.5 * std::f32::consts::PI,
        ),
        (trim.x + trim.w - radius, trim.y + trim.h - radius, 0.0),
        (
            trim.x + radius,
            trim.y + trim.h - radius,
            0.5 * std::f32::consts::PI,
        ),
    ];
    corners
        .iter()
        .map(|&(cx, cy, start)| Item::Path {
            points: (0..=12)
                .map(|k| {
                    let angle = start + k as f32 / 12.0 * std::f32::consts::FRAC_PI_2;
                    (cx + radius * angle.cos(), cy + radius * angle.sin())
                })
                .collect(),
            closed: false,
            fill: None,
            stroke: Some(stroke),
        })
        .collect()
}

/// Both edges of `count` cells of `size` from `start`, `gap` apart, in order, shared edges
/// once.
fn cuts(start: f32, count: usize, size: f32, gap: f32) -> Vec<f32> {
    let mut cuts: Vec<f32> = (0..count)
        .flat_map(|i| {
            let near = start + i as f32 * (size + gap);
            [near, near + size]
        })
        .collect();
    dedup(&mut cuts);
    cuts
}

pub(crate) fn dedup(values: &mut Vec<f32>) {
    values.sort_by(f32::total_cmp);
    values.dedup_by(|a, b| (*a - *b).abs() < 0.01);
}

/// One card as cut from the sheet, in its own coordinates: its front and, when its text runs
/// on and backs are printed, what its back holds.
struct Physical {
    front: Vec<Item>,
    back: Option<Vec<Item>>,
}

/// The grid that `options` set cards out on (also where the window's previews cut one out).
pub fn grid_for(options: &CardOptions) -> Result<Grid, ExportError> {
    let t = templates()?;
    Grid::new(
        t.page(&options.page)?,
        t.card(&options.size)?,
        &t.sheet,
        options.gap_mm.unwrap_or(t.sheet.gap_mm),
        options.layout == SheetLayout::Fold,
    )
}

/// Lays out the unit cards of `force` on pages, with backs when asked.
pub fn layout_cards(
    force: &Force,
    options: &CardOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<Layout, ExportError> {
    let t = templates()?;
    let ts = Typesetter { faces: faces()? };
    let page = t.page(&options.page)?;
    let card = t.card(&options.size)?;
    let template = t.card_template(force.ruleset)?;
    options.back_offset.checked()?;
    let faces = card_faces(force, options.mode)?;
    let total = faces.len();
    let mut layout = Layout::new(format!("{} — unit cards", force.name));
    layout.warnings = super::glyphs::glyph_warnings(force);
    layout.duplex = match (options.backs, options.layout, options.flip) {
        (false, ..) | (true, SheetLayout::Fold, _) => Duplex::Simplex,
        (true, _, Flip::LongEdge) => Duplex::FlipLongEdge,
        (true, _, Flip::ShortEdge) => Duplex::FlipShortEdge,
    };
    let backs = options.prints_backs();
    let size = (card.width_mm, card.height_mm);
    let front_style = FrontStyle {
        content: if backs {
            Content::Front
        } else {
            Content::Whole
        },
        ..front_style(options)
    };
    let fronts = fit_deck(ts, template, &faces, size, front_style);
    let back_style = FrontStyle {
        content: Content::Back,
        bleed: back_bleed(options)?,
        ..front_style
    };
    let mut cards = Vec::new();
    for (index, (face, front)) in faces.iter().zip(fronts).enumerate() {
        let who = match face.copy {
            Some((n, of)) => format!("{} {n}/{of}", face.name),
            None => face.name.clone(),
        };
        report(&mut layout, &who, &card.id, &front);
        // The back carries the rules and odds when there are any; else the design.
        let back = (backs && has_back_content(template, face))
            .then(|| fit_card(ts, template, face, size, back_style));
        if let Some(back) = &back {
            report_back(&mut layout, &who, &card.id, back);
        }
        let back_parts = back.map_or_else(Vec::new, |b| b.parts);
        let count = front.parts.len().max(back_parts.len());
        let mut fronts = front.parts.into_iter();
        let mut back_parts = back_parts.into_iter();
        for _ in 0..count {
            cards.push(match (fronts.next(), back_parts.next()) {
                (Some(front), back) => Physical { front, back },
                // Rules running over more backs than the card has fronts are printed on
                // the fronts of cards of their own.
                (None, Some(rules)) => Physical {
                    front: rules,
                    back: None,
                },
                (None, None) => break,
            });
        }
        progress(Progress {
            stage: Stage::Layout,
            done: index + 1,
            total,
        });
    }
    let sheet = Sheet {
        ts,
        template,
        page,
        card,
        style: &t.sheet,
        options,
    };
    match options.layout {
        SheetLayout::Single => sheet.single(&cards, &mut layout),
        SheetLayout::Grid | SheetLayout::Fold => {
            sheet.grid(&cards, &grid_for(options)?, &force.name, &mut layout);
        }
    }
    offset_notes(options, page, &t.sheet, &mut layout)?;
    Ok(layout)
}

/// What a back offset does to this print, said: ignored where no back is printed behind its
/// front (no `--backs`, a fold sheet, a print shop's pages); a note when it brings backs
/// within the paper's unprintable edge; a warning when it pushes part of a back off the
/// paper.
fn offset_notes(
    options: &CardOptions,
    page: &PageSize,
    sheet: &SheetStyle,
    layout: &mut Layout,
) -> Result<(), ExportError> {
    let offset = options.back_offset;
    if offset.is_zero() {
        return Ok(());
    }
    let given = format!("back offset {},{} mm", offset.x_mm, offset.y_mm);
    let ignored = match (options.backs, options.layout) {
        (_, SheetLayout::Fold) => Some("a fold sheet prints each back beside its front"),
        (_, SheetLayout::Single) => {
            Some("a print shop trims each page on its own; the offset is for your duplex printer")
        }
        (false, SheetLayout::Grid) => Some("no backs are printed (add --backs)"),
        (true, SheetLayout::Grid) => None,
    };
    if let Some(why) = ignored {
        layout.notes.push(format!("{given} ignored: {why}"));
        return Ok(());
    }
    let grid = grid_for(options)?;
    let (dx, dy) = offset.shift_on_back(options.flip);
    // The least distance from a back (with and without its bleed) to the paper's edge.
    let (mut card_edge, mut bleed_edge) = (f32::INFINITY, f32::INFINITY);
    for slot in 0..grid.per_page() {
        let f = Grid::back_of(grid.placement(slot), page, options.flip)
            .moved(dx, dy)
            .frame;
        let gaps = [
            (f.x, grid.bleed_x),
            (f.y, grid.bleed_y),
            (page.width_mm - f.x - f.w, grid.bleed_x),
            (page.height_mm - f.y - f.h, grid.bleed_y),
        ];
        for (gap, bleed) in gaps {
            card_edge = card_edge.min(gap);
            bleed_edge = bleed_edge.min(gap - bleed);
        }
    }
    if card_edge < 0.0 {
        layout.warnings.push(format!(
            "{given} pushes part of the backs off the paper ({:.1} mm past its edge): \
             check the reading on the calibration sheet, or print with --layout fold",
            -card_edge
        ));
    } else if bleed_edge < sheet.min_margin_mm - 0.05 {
        layout.notes.push(format!(
            "{given} brings the backs to {:.1} mm from the paper's edge, inside the {} mm \
             many printers cannot print: a back's edge may print short of the cut",
            bleed_edge.max(0.0),
            sheet.min_margin_mm
        ));
    }
    Ok(())
}

/// Says what one card's front could not hold (a warning) and that it continues (a note).
fn report(layout: &mut Layout, who: &str, size: &str, fitted: &FittedCard) {
    for problem in &fitted.problems {
        layout
            .warnings
            .push(format!("{who} ({size} card): {problem}"));
    }
    let parts = fitted.parts.len();
    if parts > 1 {
        layout.notes.push(format!(
            "{who}: too much text for one {size} card at 6 pt or more; continues on further \
             cards ({parts} parts)"
        ));
    }
}

/// The same for the back: its rules and odds.
fn report_back(layout: &mut Layout, who: &str, size: &str, fitted: &FittedCard) {
    for problem in &fitted.problems {
        layout
            .warnings
            .push(format!("{who} ({size} card back): {problem}"));
    }
    let parts = fitted.parts.len();
    if parts > 1 {
        layout.notes.push(format!(
            "{who}: its rules and odds run over {parts} {size} card backs at 6 pt or more"
        ));
    }
}

/// True when a face has rules to explain or an odds table, so its back carries them.
fn has_back_content(template: &CardTemplate, face: &CardFace) -> bool {
    !face.notes.is_empty() || unit_odds(template, &face.card).is_some()
}

/// How a front is drawn for `options`: with a print shop's bleed, safe zone and no outline
/// on the trim for `single`.
fn front_style(options: &CardOptions) -> FrontStyle {
    match options.layout {
        SheetLayout::Single => FrontStyle {
            bleed: SHOP_BLEED_MM,
            safe_mm: SHOP_SAFE_MM,
            outline: false,
            ..FrontStyle::sheet(options.ink)
        },
        SheetLayout::Grid | SheetLayout::Fold => FrontStyle::sheet(options.ink),
    }
}

/// How far a back's header band runs past its card: a print shop's bleed, the grid's
/// back bleed (its narrowest side), none beside a fold.
fn back_bleed(options: &CardOptions) -> Result<f32, ExportError> {
    Ok(match options.layout {
        SheetLayout::Single => SHOP_BLEED_MM,
        SheetLayout::Fold => 0.0,
        SheetLayout::Grid => {
            let b = grid_for(options)?.back_bleed();
            b.top.min(b.left).min(b.right)
        }
    })
}

/// What every page of a card layout shares.
struct Sheet<'a> {
    ts: Typesetter,
    template: &'a CardTemplate,
    page: &'a PageSize,
    card: &'a CardSize,
    style: &'a SheetStyle,
    options: &'a CardOptions,
}

impl Sheet<'_> {
    /// The back of a card in its own coordinates: what continues there, or the design.
    fn back_items(&self, physical: &Physical, bleed: Bleed) -> Vec<Item> {
        match &physical.back {
            Some(items) => items.clone(),
            None => {
                let own = Frame {
                    x: 0.0,
                    y: 0.0,
                    w: self.card.width_mm,
                    h: self.card.height_mm,
                };
                draw_back(self.ts, self.template, own, bleed, self.options.ink)
            }
        }
    }

    /// One page per card for a print shop: the card and [`SHOP_BLEED_MM`] of bleed all
    /// round, trimmed at the card (the page's TrimBox), each followed by its back when asked
    /// (a shop aligns each page on its own: no back offset).
    fn single(&self, cards: &[Physical], layout: &mut Layout) {
        let (w, h) = (self.card.width_mm, self.card.height_mm);
        let bleed = SHOP_BLEED_MM;
        let trim = Frame {
            x: bleed,
            y: bleed,
            w,
            h,
        };
        let at = Placement::upright(trim);
        let all_round = Bleed {
            top: bleed,
            right: bleed,
            bottom: bleed,
            left: bleed,
        };
        let guides = self
            .options
            .corner_guide_mm
            .map_or_else(Vec::new, |radius| corner_guides(trim, radius));
        let new_page = || Page {
            trim: Some(trim),
            ..Page::new(w + 2.0 * bleed, h + 2.0 * bleed)
        };
        for physical in cards {
            let mut front = new_page();
            front
                .items
                .extend(physical.front.iter().map(|i| at.place(i)));
            front.items.extend(guides.iter().cloned());
            layout.pages.push(front);
            if self.options.backs {
                let mut back = new_page();
                back.items.extend(
                    self.back_items(physical, all_round)
                        .iter()
                        .map(|i| at.place(i)),
                );
                back.items.extend(guides.iter().cloned());
                layout.pages.push(back);
            }
        }
    }

    /// Grid or fold sheets: fronts with crop marks and a caption; for a grid with backs, a
    /// page of backs after each page of fronts.
    fn grid(&self, cards: &[Physical], grid: &Grid, force_name: &str, layout: &mut Layout) {
        let options = self.options;
        let duplex = options.backs && options.layout == SheetLayout::Grid;
        let (dx, dy) = options.back_offset.shift_on_back(options.flip);
        let bleed = grid.back_bleed();
        let sheets = cards.len().div_ceil(grid.per_page());
        for (sheet_index, chunk) in cards.chunks(grid.per_page()).enumerate() {
            let mut front = Page::new(self.page.width_mm, self.page.height_mm);
            let mut back = Page::new(self.page.width_mm, self.page.height_mm);
            for (slot, physical) in chunk.iter().enumerate() {
                let at = grid.placement(slot);
                front
                    .items
                    .extend(physical.front.iter().map(|i| at.place(i)));
                if grid.fold {
                    let beside = grid.fold_back(slot);
                    front.items.extend(
                        self.back_items(physical, Bleed::default())
                            .iter()
                            .map(|i| beside.place(i)),
                    );
                } else if duplex {
                    let behind = Grid::back_of(at, self.page, options.flip).moved(dx, dy);
                    back.items.extend(
                        self.back_items(physical, bleed)
                            .iter()
                            .map(|i| behind.place(i)),
                    );
                }
            }
            let caption = format!("{force_name} · sheet {} of {sheets}", sheet_index + 1);
            front.items.extend(grid.crop_marks(self.style));
            let margins = margin_items(self.ts, grid, self.page, self.style, &caption);
            if margins.caption.is_none() {
                layout.notes.push(format!(
                    "sheet {} of {sheets}: no room for its caption on {}",
                    sheet_index + 1,
                    self.page.label
                ));
            }
            if margins.scale_bar.is_empty() {
                layout.warnings.push(format!(
                    "sheet {} of {sheets}: no room for the 50 mm scale bar on {}",
                    sheet_index + 1,
                    self.page.label
                ));
            }
            front.items.extend(margins.caption);
            front.items.extend(margins.scale_bar);
            layout.pages.push(front);
            if duplex {
                layout.pages.push(back);
            }
        }
    }
}

/// The grid of `card` cards on `page`, `gap` apart, as fold cells when `fold` (for tests).
#[cfg(test)]
pub(crate) fn grid_with(page: &str, card: &str, gap: f32, fold: bool) -> Grid {
    let t = templates().unwrap();
    Grid::new(
        t.page(page).unwrap(),
        t.card(card).unwrap(),
        &t.sheet,
        gap,
        fold,
    )
    .unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(page: &str, card: &str) -> Grid {
        grid_with(page, card, templates().unwrap().sheet.gap_mm, false)
    }

    /// Finding 5: bridge cards on Letter were six a sheet; turned a quarter turn, eight fit
    /// (two across of 89 mm, four down of 57 mm).
    #[test]
    fn nine_poker_and_bridge_cards_fit_a4_nine_poker_and_eight_bridge_letter_and_four_tarot() {
        for page in ["a4", "letter"] {
            assert_eq!(grid(page, "poker").per_page(), 9, "{page}");
            assert!(!grid(page, "poker").turned);
            assert_eq!(grid(page, "tarot").per_page(), 4, "{page}");
        }
        assert_eq!(grid("a4", "bridge").per_page(), 9);
        let bridge = grid("letter", "bridge");
        assert_eq!((bridge.columns, bridge.rows, bridge.turned), (2, 4, true));
        assert_eq!((bridge.cell_w, bridge.cell_h), (89.0, 57.0));
    }

    /// Fold cells are a front and a back side by side: four poker cards to an A4 sheet with
    /// the pairs turned (two across of 88 mm, two down of 126 mm).
    #[test]
    fn fold_sheets_hold_four_poker_pairs_and_two_tarot_pairs() {
        let poker = grid_with("a4", "poker", 3.0, true);
        assert_eq!((poker.per_page(), poker.turned), (4, true));
        assert_eq!((poker.cell_w, poker.cell_h), (88.0, 126.0));
        // The front is the lower half of a turned pair, its back the upper half.
        let front = poker.placement(0);
        let back = poker.fold_back(0);
        assert_eq!(front.frame.y - back.frame.y, 63.0);
        assert_eq!((front.frame.w, front.frame.h), (88.0, 63.0));
        assert_eq!(back.rotation, front.rotation);
        assert_eq!(grid_with("a4", "tarot", 3.0, true).per_page(), 2);
    }

    #[test]
    fn gaps_narrow_for_marks_and_only_a_guillotine_gap_of_zero_drops_the_bleed() {
        // A4 is 210 mm: three 63 mm cards leave 21 mm, 9 mm a side for the 5 mm edge, the
        // 1 mm offset and a 3 mm mark, so the gap narrows to 1.5 mm.
        let g = grid("a4", "poker");
        assert!((g.gap_x - 1.5).abs() < 1e-4, "{}", g.gap_x);
        assert_eq!((g.gap_y, g.bleed_y), (3.0, 2.0));
        assert!((g.bleed_x - 1.5).abs() < 1e-4);
        let flush = grid_with("a4", "poker", 0.0, false);
        assert_eq!((flush.gap_x, flush.bleed_x, flush.bleed_y), (0.0, 0.0, 0.0));
        let t = templates().unwrap();
        let too_wide = Grid::new(
            t.page("a4").unwrap(),
            t.card("poker").unwrap(),
            &t.sheet,
            25.0,
            false,
        );
        assert_eq!(too_wide, Err(ExportError::Gap(25.0)));
    }

    /// Finding 2: A4 poker had no horizontal crop marks and Letter poker's vertical marks
    /// were 0.8 mm long. Every cut line now has a mark of at least 3 mm in at least one
    /// margin, outside the cards and 5 mm from the paper's edge.
    #[test]
    fn every_cut_line_has_a_crop_mark_of_3_mm_outside_the_cards() {
        let t = templates().unwrap();
        for page_id in ["a4", "letter"] {
            let page = t.page(page_id).unwrap();
            for card in ["poker", "bridge", "tarot"] {
                for fold in [false, true] {
                    let g = grid_with(page_id, card, 3.0, fold);
                    let marks: Vec<(f32, f32, f32, f32)> = g
                        .crop_marks(&t.sheet)
                        .into_iter()
                        .filter_map(|m| match m {
                            Item::Line(s) if s.stroke.dash_pt.is_none() => {
                                Some((s.x1, s.y1, s.x2, s.y2))
                            }
                            _ => None,
                        })
                        .collect();
                    let what = format!("{page_id} {card} fold {fold}");
                    for x in g.cuts_x() {
                        assert!(
                            marks.iter().any(|&(x1, y1, x2, y2)| (x1 - x).abs() < 1e-3
                                && (x2 - x).abs() < 1e-3
                                && (y2 - y1).abs() >= MIN_MARK_MM - 1e-3),
                            "{what}: no mark for the cut at x {x}"
                        );
                    }
                    for y in g.cuts_y() {
                        assert!(
                            marks.iter().any(|&(x1, y1, x2, y2)| (y1 - y).abs() < 1e-3
                                && (y2 - y).abs() < 1e-3
                                && (x2 - x1).abs() >= MIN_MARK_MM - 1e-3),
                            "{what}: no mark for the cut at y {y}"
                        );
                    }
                    for &(x1, y1, x2, y2) in &marks {
                        for (x, y) in [(x1, y1), (x2, y2)] {
                            assert!(x >= 5.0 - 1e-3 && x <= page.width_mm - 5.0 + 1e-3);
                            assert!(y >= 5.0 - 1e-3 && y <= page.height_mm - 5.0 + 1e-3);
                            let inside = x > g.x0 - 0.5
                                && x < g.right() + 0.5
                                && y > g.y0 - 0.5
                                && y < g.bottom() + 0.5;
                            assert!(!inside, "{what}: a mark at {x},{y} touches the cards");
                        }
                    }
                }
            }
        }
    }

    /// Finding 6: nothing, a back's bleed included, comes within 5 mm of the paper's edge,
    /// and a back lands exactly behind its front.
    #[test]
    fn backs_and_their_bleed_stay_5_mm_from_the_edge_and_mirror_onto_the_same_spot() {
        let t = templates().unwrap();
        for (page_id, card) in [("letter", "poker"), ("letter", "bridge"), ("a4", "bridge")] {
            let page = t.page(page_id).unwrap();
            let g = grid(page_id, card);
            let b = g.back_bleed();
            for slot in 0..g.per_page() {
                let front = g.placement(slot);
                for flip in [Flip::LongEdge, Flip::ShortEdge] {
                    let back = Grid::back_of(front, page, flip);
                    let f = back.frame;
                    let (bx, by) = if g.turned {
                        (b.top, b.left)
                    } else {
                        (b.left, b.top)
                    };
                    assert!(f.x - bx >= 5.0 - 1e-3 && f.y - by >= 5.0 - 1e-3);
                    assert!(f.x + f.w + bx <= page.width_mm - 5.0 + 1e-3);
                    assert!(f.y + f.h + by <= page.height_mm - 5.0 + 1e-3);
                    // Turned over like a page, the card shows at (w − u, v) of its back
                    // what lies behind (u, v) of its front: one point of the paper.
                    for (u, v) in [(0.0, 0.0), (10.0, 3.0), (g.card_w, g.card_h)] {
                        let (fx, fy) = front.point(u, v);
                        let (kx, ky) = back.point(g.card_w - u, v);
                        let (px, py) = match flip {
                            Flip::LongEdge => (page.width_mm - kx, ky),
                            Flip::ShortEdge => (kx, page.height_mm - ky),
                        };
                        assert!(
                            (px - fx).abs() < 1e-3 && (py - fy).abs() < 1e-3,
                            "{page_id} {card} {flip:?} at {u},{v}"
                        );
                    }
                }
            }
        }
    }

    /// Turning a card a quarter turn keeps every item inside its frame.
    #[test]
    fn a_turned_card_stays_inside_its_frame() {
        let frame = Frame {
            x: 10.0,
            y: 20.0,
            w: 89.0,
            h: 57.0,
        };
        for rotation in [Rotation::Left, Rotation::Right] {
            let at = Placement {
                frame,
                rotation,
                card_w: 57.0,
                card_h: 89.0,
            };
            let Item::Rect { x, y, w, h, .. } = at.place(&Item::Rect {
                x: 0.0,
                y: 0.0,
                w: 57.0,
                h: 10.0,
                fill: None,
                stroke: None,
            }) else {
                panic!("a rect");
            };
            assert_eq!((w, h), (10.0, 57.0));
            assert!(x >= frame.x && x + w <= frame.x + frame.w + 1e-4);
            assert!(y >= frame.y && y + h <= frame.y + frame.h + 1e-4);
            // The header band sits at the card's top: the page's left for a left turn.
            let expected_x = if rotation == Rotation::Left {
                10.0
            } else {
                89.0
            };
            assert_eq!(x, expected_x);
        }
    }

    #[test]
    fn a_card_larger_than_the_page_is_refused() {
        let t = templates().unwrap();
        let huge = CardSize {
            id: "poster".into(),
            label: "Poster".into(),
            width_mm: 300.0,
            height_mm: 400.0,
        };
        let err = Grid::new(t.page("a4").unwrap(), &huge, &t.sheet, 3.0, false).unwrap_err();
        assert!(err.to_string().contains("does not fit on page size a4"));
    }

    /// Issue 37: an offset pushed the backs' bleed into the printer's edge (2 mm) or off the
    /// page (10 mm) without a word, and was ignored silently without --backs or on a fold.
    #[test]
    fn a_back_offset_says_when_it_is_ignored_or_brings_backs_near_the_edge() {
        let force = crate::rules::armour_battles::preset_force("lorraine-1-us").unwrap();
        let at = |x_mm: f32, backs: bool, layout: SheetLayout| {
            let options = CardOptions {
                backs,
                layout,
                back_offset: BackOffset { x_mm, y_mm: 0.0 },
                ..CardOptions::default()
            };
            layout_cards(&force, &options, &mut |_| {}).unwrap()
        };
        let none = at(0.0, true, SheetLayout::Grid);
        assert!(none.notes.iter().all(|n| !n.contains("back offset")));
        for (backs, layout, why) in [
            (false, SheetLayout::Grid, "no backs are printed"),
            (true, SheetLayout::Fold, "fold sheet"),
            (true, SheetLayout::Single, "print shop"),
        ] {
            let notes = at(2.0, backs, layout).notes;
            assert!(
                notes
                    .iter()
                    .any(|n| n.contains("ignored") && n.contains(why)),
                "{notes:?}"
            );
        }
        // A4 poker: 9 mm from the edge to the cards across, 1.5 mm of bleed: 2 mm to the
        // left leaves the bleed 5.5 mm off, 4 mm leaves 3.5 mm: a note, nothing lost.
        let two = at(2.0, true, SheetLayout::Grid);
        assert!(
            !two.notes
                .iter()
                .any(|n| n.contains("from the paper's edge")),
            "{:?}",
            two.notes
        );
        let four = at(4.0, true, SheetLayout::Grid);
        assert!(
            four.notes
                .iter()
                .any(|n| n.contains("3.5 mm from the paper's edge")),
            "{:?}",
            four.notes
        );
        assert!(four.warnings.is_empty());
        let ten = at(10.0, true, SheetLayout::Grid);
        assert!(
            ten.warnings.iter().any(|w| w.contains("off the paper")),
            "{:?}",
            ten.warnings
        );
    }

    #[test]
    fn back_offsets_move_backs_against_the_reading_and_refuse_more_than_10_mm() {
        let reading = BackOffset {
            x_mm: 2.0,
            y_mm: -1.5,
        };
        // Turned over the long edge the back page's x runs the other way.
        assert_eq!(reading.shift_on_back(Flip::LongEdge), (2.0, 1.5));
        assert_eq!(reading.shift_on_back(Flip::ShortEdge), (-2.0, -1.5));
        let wild = BackOffset {
            x_mm: 12.0,
            y_mm: 0.0,
        };
        assert!(wild.checked().is_err());
        assert_eq!(reading.checked(), Ok(reading));
    }
}
