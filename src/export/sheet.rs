//! Setting cards out on pages: a centred grid with crop marks, and backs for duplex printing.
//!
//! Cards are placed true to size in a grid centred on the page, so that on the back page the
//! mirrored grid lines up exactly with the front when the sheet is turned over.

use super::card_back::draw_back;
use super::card_layout::{Bleed, Frame, fit_card, shifted};
use super::cards::{CardMode, card_faces};
use super::display::{Item, Layout, Page, Stroke};
use super::fonts::{FontStyle, MM_PER_PT, faces};
use super::template::{CardSize, PageSize, SheetStyle, templates};
use super::text::{Font, MIN_TEXT_PT, Typesetter, cap_height};
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

/// What to print and on what.
#[derive(Debug, Clone, PartialEq)]
pub struct CardOptions {
    /// A card size id from `templates/card-sizes.json` (`poker`, `bridge`, `tarot`).
    pub size: String,
    /// A page size id from `templates/page-sizes.json` (`a4`, `letter`).
    pub page: String,
    pub mode: CardMode,
    /// Add a page of card backs after each page of fronts.
    pub backs: bool,
    pub flip: Flip,
    /// Space between cards in mm (0 for a guillotine); `None` for the sheet style's default.
    pub gap_mm: Option<f32>,
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
        }
    }
}

/// The widest gap between cards accepted, in mm: more wastes the sheet for nothing.
pub const MAX_GAP_MM: f32 = 20.0;

/// Where the cards of one page go.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    pub columns: usize,
    pub rows: usize,
    /// Top-left corner of the first card.
    pub x0: f32,
    pub y0: f32,
    pub card_w: f32,
    pub card_h: f32,
    /// Space between columns and between rows.
    pub gap_x: f32,
    pub gap_y: f32,
    /// How far header bands and backs run past the cut on every side.
    pub bleed: f32,
}

impl Grid {
    /// As many cards as fit with `gap` between them, the bleed and the sheet's unprintable
    /// margin around them, centred on the page. Where the gap alone would cost a row or a
    /// column, it narrows (down to none) to keep it.
    pub fn new(
        page: &PageSize,
        card: &CardSize,
        sheet: &SheetStyle,
        gap: f32,
    ) -> Result<Grid, ExportError> {
        if !(0.0..=MAX_GAP_MM).contains(&gap) {
            return Err(ExportError::Gap(gap));
        }
        let clear = sheet.min_margin_mm + sheet.bleed_mm;
        let axis = |space: f32, size: f32| {
            let fit = |g: f32| ((space - 2.0 * clear + g) / (size + g)).floor().max(0.0) as usize;
            let (wanted, most) = (fit(gap), fit(0.0));
            if wanted >= most || most <= 1 {
                (wanted, gap)
            } else {
                let room = space - 2.0 * clear - most as f32 * size;
                (most, (room / (most - 1) as f32).clamp(0.0, gap))
            }
        };
        let (columns, gap_x) = axis(page.width_mm, card.width_mm);
        let (rows, gap_y) = axis(page.height_mm, card.height_mm);
        if columns == 0 || rows == 0 {
            return Err(ExportError::CardTooLarge {
                card: card.id.clone(),
                page: page.id.clone(),
                card_w: card.width_mm,
                card_h: card.height_mm,
            });
        }
        // Neighbours' bleeds may meet in a gap but never reach the next card.
        let mut bleed = sheet.bleed_mm;
        if columns > 1 {
            bleed = bleed.min(gap_x);
        }
        if rows > 1 {
            bleed = bleed.min(gap_y);
        }
        let span = |n: usize, size: f32, gap: f32| n as f32 * size + (n as f32 - 1.0) * gap;
        Ok(Grid {
            columns,
            rows,
            x0: (page.width_mm - span(columns, card.width_mm, gap_x)) / 2.0,
            y0: (page.height_mm - span(rows, card.height_mm, gap_y)) / 2.0,
            card_w: card.width_mm,
            card_h: card.height_mm,
            gap_x,
            gap_y,
            bleed,
        })
    }

    pub fn per_page(&self) -> usize {
        self.columns * self.rows
    }

    /// The frame of the `slot`-th card of a page (row by row).
    pub fn frame(&self, slot: usize) -> Frame {
        let (row, col) = (slot / self.columns, slot % self.columns);
        Frame {
            x: self.x0 + col as f32 * (self.card_w + self.gap_x),
            y: self.y0 + row as f32 * (self.card_h + self.gap_y),
            w: self.card_w,
            h: self.card_h,
        }
    }

    /// The frame on the back of the sheet that lies behind `front`.
    pub fn back_of(&self, front: Frame, page: &PageSize, flip: Flip) -> Frame {
        match flip {
            Flip::LongEdge => Frame {
                x: page.width_mm - front.x - front.w,
                ..front
            },
            Flip::ShortEdge => Frame {
                y: page.height_mm - front.y - front.h,
                ..front
            },
        }
    }

    fn right(&self) -> f32 {
        self.x0 + self.columns as f32 * (self.card_w + self.gap_x) - self.gap_x
    }

    fn bottom(&self) -> f32 {
        self.y0 + self.rows as f32 * (self.card_h + self.gap_y) - self.gap_y
    }

    /// The bleed on every side of a card.
    fn bleeds(&self) -> Bleed {
        Bleed {
            top: self.bleed,
            right: self.bleed,
            bottom: self.bleed,
            left: self.bleed,
        }
    }

    /// Crop marks in the margins, in line with every cut, clear of the bleed and of the
    /// page's unprintable edge.
    pub fn crop_marks(&self, sheet: &SheetStyle, page: &PageSize) -> Vec<Item> {
        let stroke = Stroke::solid(sheet.crop_mark_color, sheet.crop_mark_width_pt);
        let offset = sheet.crop_mark_offset_mm.max(self.bleed + 0.5);
        let room = |margin: f32| {
            (margin - offset - sheet.min_margin_mm)
                .min(sheet.crop_mark_mm)
                .max(0.0)
        };
        let len_top = room(self.y0);
        let len_bottom = room(page.height_mm - self.bottom());
        let len_left = room(self.x0);
        let len_right = room(page.width_mm - self.right());
        let mut cuts_x: Vec<f32> = Vec::new();
        for col in 0..self.columns {
            let left = self.x0 + col as f32 * (self.card_w + self.gap_x);
            cuts_x.extend([left, left + self.card_w]);
        }
        let mut cuts_y: Vec<f32> = Vec::new();
        for row in 0..self.rows {
            let top = self.y0 + row as f32 * (self.card_h + self.gap_y);
            cuts_y.extend([top, top + self.card_h]);
        }
        dedup(&mut cuts_x);
        dedup(&mut cuts_y);
        let line = |x1, y1, x2, y2| Item::Line {
            x1,
            y1,
            x2,
            y2,
            stroke,
        };
        let mut marks = Vec::new();
        for &x in &cuts_x {
            if len_top > 0.0 {
                marks.push(line(x, self.y0 - offset - len_top, x, self.y0 - offset));
            }
            if len_bottom > 0.0 {
                let b = self.bottom() + offset;
                marks.push(line(x, b, x, b + len_bottom));
            }
        }
        for &y in &cuts_y {
            if len_left > 0.0 {
                marks.push(line(self.x0 - offset - len_left, y, self.x0 - offset, y));
            }
            if len_right > 0.0 {
                let r = self.right() + offset;
                marks.push(line(r, y, r + len_right, y));
            }
        }
        marks
    }
}

fn dedup(values: &mut Vec<f32>) {
    values.sort_by(f32::total_cmp);
    values.dedup_by(|a, b| (*a - *b).abs() < 0.01);
}

/// One card as cut from the sheet: its front and, when its text runs on, what its back holds.
struct Physical {
    front: Vec<Item>,
    back: Option<Vec<Item>>,
}

/// Lays out the unit cards of `force` on pages: fronts, and backs when asked.
/// The grid that `options` set cards out on (also where the window's previews cut one out).
pub fn grid_for(options: &CardOptions) -> Result<Grid, ExportError> {
    let t = templates()?;
    Grid::new(
        t.page(&options.page)?,
        t.card(&options.size)?,
        &t.sheet,
        options.gap_mm.unwrap_or(t.sheet.gap_mm),
    )
}

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
    let grid = grid_for(options)?;
    let faces = card_faces(force, options.mode)?;
    let total = faces.len();
    let mut layout = Layout::new(format!("{} — unit cards", force.name));
    layout.warnings = super::glyphs::glyph_warnings(force);
    let mut cards = Vec::new();
    for (index, face) in faces.iter().enumerate() {
        // Each card on its own: a wordy card never makes its neighbours smaller.
        let fitted = fit_card(
            ts,
            template,
            face,
            (card.width_mm, card.height_mm),
            grid.bleeds(),
        );
        let who = match face.copy {
            Some((n, of)) => format!("{} {n}/{of}", face.name),
            None => face.name.clone(),
        };
        for problem in &fitted.problems {
            layout
                .warnings
                .push(format!("{who} ({} card): {problem}", card.id));
        }
        let parts = fitted.parts.len();
        if parts > 1 {
            let place = if options.backs {
                "continues on its back"
            } else {
                "continues on further cards"
            };
            layout.notes.push(format!(
                "{who}: too much text for one {} card at 6 pt or more; {place} ({parts} parts)",
                card.id
            ));
        }
        let mut parts = fitted.parts.into_iter();
        while let Some(front) = parts.next() {
            let back = if options.backs { parts.next() } else { None };
            cards.push(Physical { front, back });
        }
        progress(Progress {
            stage: Stage::Layout,
            done: index + 1,
            total,
        });
    }
    let sheets = cards.len().div_ceil(grid.per_page());
    for (sheet_index, chunk) in cards.chunks(grid.per_page()).enumerate() {
        let mut front = Page::new(page.width_mm, page.height_mm);
        let mut back = Page::new(page.width_mm, page.height_mm);
        for (slot, physical) in chunk.iter().enumerate() {
            let frame = grid.frame(slot);
            front
                .items
                .extend(physical.front.iter().map(|i| shifted(i, frame.x, frame.y)));
            if options.backs {
                let behind = grid.back_of(frame, page, options.flip);
                match &physical.back {
                    Some(items) => back
                        .items
                        .extend(items.iter().map(|i| shifted(i, behind.x, behind.y))),
                    None => back
                        .items
                        .extend(draw_back(ts, template, behind, grid.bleeds())),
                }
            }
        }
        let caption = format!("{} · sheet {} of {sheets}", force.name, sheet_index + 1);
        let mut marks = grid.crop_marks(&t.sheet, page);
        match page_caption(ts, &grid, page, &t.sheet, &caption) {
            Some(item) => {
                keep_clear_of(&mut marks, &item);
                front.items.push(item);
            }
            None => layout.notes.push(format!(
                "sheet {} of {sheets}: no room for its caption on {}",
                sheet_index + 1,
                page.label
            )),
        }
        front.items.extend(marks);
        layout.pages.push(front);
        if options.backs {
            back.items
                .extend(mirrored_marks(&grid, page, &t.sheet, options.flip));
            layout.pages.push(back);
        }
    }
    Ok(layout)
}

/// Crop marks for a back page: the front's marks, mirrored the way the sheet turns.
fn mirrored_marks(grid: &Grid, page: &PageSize, sheet: &SheetStyle, flip: Flip) -> Vec<Item> {
    grid.crop_marks(sheet, page)
        .into_iter()
        .map(|item| match (item, flip) {
            (
                Item::Line {
                    x1,
                    y1,
                    x2,
                    y2,
                    stroke,
                },
                Flip::LongEdge,
            ) => Item::Line {
                x1: page.width_mm - x1,
                y1,
                x2: page.width_mm - x2,
                y2,
                stroke,
            },
            (
                Item::Line {
                    x1,
                    y1,
                    x2,
                    y2,
                    stroke,
                },
                Flip::ShortEdge,
            ) => Item::Line {
                x1,
                y1: page.height_mm - y1,
                x2,
                y2: page.height_mm - y2,
                stroke,
            },
            (other, _) => other,
        })
        .collect()
}

/// "Kampfgruppe Peiper · sheet 2 of 10" in the margin below the cards (above them when
/// there is no room below), never within the page's unprintable edge; `None` when neither
/// margin has room. The name gives way before the sheet number does.
fn page_caption(
    ts: Typesetter,
    grid: &Grid,
    page: &PageSize,
    sheet: &SheetStyle,
    text: &str,
) -> Option<Item> {
    let font = Font::new(
        FontStyle::Regular,
        MIN_TEXT_PT,
        super::display::Rgb::new(110, 110, 110),
    );
    let descent = 0.24 * font.size_pt * MM_PER_PT;
    let height = cap_height(font.size_pt) + descent;
    let clearance = 0.8;
    let below_top = grid.bottom() + grid.bleed + clearance;
    let below_room = page.height_mm - sheet.min_margin_mm - below_top;
    let above_bottom = grid.y0 - grid.bleed - clearance;
    let above_room = above_bottom - sheet.min_margin_mm;
    let baseline = if below_room >= height {
        below_top + cap_height(font.size_pt)
    } else if above_room >= height {
        above_bottom - descent
    } else {
        return None;
    };
    let width = grid.right() - grid.x0 - 2.0;
    let text = if ts.width(text, font) <= width {
        text.to_string()
    } else {
        text.rsplit(" · ").next().unwrap_or(text).to_string()
    };
    (ts.width(&text, font) <= width).then(|| ts.run(grid.x0 + 1.0, baseline, font, &text))
}

/// Drops the crop marks a caption would run across; the cards' own outlines still show
/// where to cut there.
fn keep_clear_of(marks: &mut Vec<Item>, caption: &Item) {
    let Item::Text(run) = caption else { return };
    let top = run.baseline - run.size_pt * MM_PER_PT;
    let bottom = run.baseline + 0.3 * run.size_pt * MM_PER_PT;
    marks.retain(|mark| match mark {
        Item::Line { x1, y1, y2, .. } => {
            let across = *x1 >= run.x - 1.0 && *x1 <= run.x + run.width + 1.0;
            let overlaps = y1.min(*y2) <= bottom && y1.max(*y2) >= top;
            !(across && overlaps)
        }
        _ => true,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid_with(page: &str, card: &str, gap: f32) -> Grid {
        let t = templates().unwrap();
        Grid::new(t.page(page).unwrap(), t.card(card).unwrap(), &t.sheet, gap).unwrap()
    }

    fn grid(page: &str, card: &str) -> Grid {
        grid_with(page, card, templates().unwrap().sheet.gap_mm)
    }

    /// Bridge cards on Letter lose their third row: 3 × 89 mm leaves 6.2 mm above and
    /// below, less than the 5 mm unprintable edge plus 2 mm of bleed.
    #[test]
    fn nine_poker_cards_fit_a4_and_letter_nine_bridge_a4_six_letter_and_four_tarot() {
        for page in ["a4", "letter"] {
            assert_eq!(grid(page, "poker").per_page(), 9, "{page}");
            assert_eq!(grid(page, "tarot").per_page(), 4, "{page}");
        }
        assert_eq!(grid("a4", "bridge").per_page(), 9);
        assert_eq!(grid("letter", "bridge").per_page(), 6);
    }

    /// Finding 5: cards touched, so a header band or a back ran exactly to the cut.
    #[test]
    fn cards_have_a_gap_and_bleed_unless_a_guillotine_gap_of_zero_is_asked() {
        let g = grid("a4", "poker");
        assert_eq!((g.gap_x, g.gap_y, g.bleed), (3.0, 3.0, 2.0));
        assert!((g.frame(1).x - (g.frame(0).x + g.card_w) - 3.0).abs() < 1e-4);
        let flush = grid_with("a4", "poker", 0.0);
        assert_eq!((flush.gap_x, flush.bleed), (0.0, 0.0));
        // On Letter three rows of poker cards only fit with a narrower gap between rows.
        let letter = grid("letter", "poker");
        assert_eq!(letter.rows, 3);
        assert!(letter.gap_y < 3.0 && letter.gap_y > 0.0, "{}", letter.gap_y);
        let t = templates().unwrap();
        let too_wide = Grid::new(
            t.page("a4").unwrap(),
            t.card("poker").unwrap(),
            &t.sheet,
            25.0,
        );
        assert_eq!(too_wide, Err(ExportError::Gap(25.0)));
    }

    /// Finding 6: nothing, bleed included, comes within 5 mm of the paper's edge.
    #[test]
    fn cards_and_their_bleed_stay_5_mm_from_the_edge_and_backs_mirror_onto_the_same_spot() {
        let t = templates().unwrap();
        for (page_id, card) in [("letter", "poker"), ("letter", "bridge"), ("a4", "bridge")] {
            let page = t.page(page_id).unwrap();
            let g = grid(page_id, card);
            for slot in 0..g.per_page() {
                let f = g.frame(slot);
                assert!(
                    f.x - g.bleed >= 5.0 && f.y - g.bleed >= 5.0,
                    "{page_id} {card}"
                );
                assert!(f.x + f.w + g.bleed <= page.width_mm - 5.0);
                assert!(f.y + f.h + g.bleed <= page.height_mm - 5.0);
                // Turning the sheet over the long edge maps x to width − x.
                let back = g.back_of(f, page, Flip::LongEdge);
                assert!((page.width_mm - (back.x + back.w) - f.x).abs() < 1e-4);
                assert_eq!(back.y, f.y);
            }
            // Slot 0 (top left) is backed by the top-right slot of the back page.
            let back0 = g.back_of(g.frame(0), page, Flip::LongEdge);
            assert!((back0.x - g.frame(g.columns - 1).x).abs() < 1e-4);
            for mark in g.crop_marks(&t.sheet, page) {
                let Item::Line { x1, y1, x2, y2, .. } = mark else {
                    panic!("a line");
                };
                for (x, y) in [(x1, y1), (x2, y2)] {
                    assert!(x >= 5.0 - 1e-3 && x <= page.width_mm - 5.0 + 1e-3);
                    assert!(y >= 5.0 - 1e-3 && y <= page.height_mm - 5.0 + 1e-3);
                }
            }
        }
    }

    #[test]
    fn crop_marks_sit_outside_the_cards_and_their_bleed() {
        let t = templates().unwrap();
        let g = grid("a4", "poker");
        let marks = g.crop_marks(&t.sheet, t.page("a4").unwrap());
        // 6 vertical cuts × top and bottom; the 7.5 mm side margins leave no room beside the
        // bleed and the 5 mm edge, and the 3 mm gaps show the horizontal cuts.
        assert_eq!(marks.len(), 12);
        for mark in marks {
            let Item::Line { x1, y1, x2, y2, .. } = mark else {
                panic!("a line");
            };
            let b = g.bleed;
            let inside = |x: f32, y: f32| {
                x > g.x0 - b && x < g.right() + b && y > g.y0 - b && y < g.bottom() + b
            };
            assert!(!inside(x1, y1) && !inside(x2, y2));
        }
    }

    /// Finding 6: the bridge caption on Letter once ran off the page ("… · shee…").
    #[test]
    fn the_sheet_caption_is_whole_and_5_mm_from_the_edge() {
        let t = templates().unwrap();
        let ts = Typesetter {
            faces: faces().unwrap(),
        };
        let text = "Kampfgruppe Peiper · sheet 12 of 12";
        // Three rows of poker cards on Letter leave 7 mm above and below: no room for a
        // caption outside the 5 mm edge, so it is left off (and the layout says so).
        let letter = t.page("letter").unwrap();
        let g = grid("letter", "poker");
        assert_eq!(page_caption(ts, &g, letter, &t.sheet, text), None);
        for (page_id, card) in [("letter", "bridge"), ("a4", "poker"), ("a4", "tarot")] {
            let page = t.page(page_id).unwrap();
            let g = grid(page_id, card);
            let Some(Item::Text(run)) = page_caption(ts, &g, page, &t.sheet, text) else {
                panic!("{page_id} {card}: a caption");
            };
            assert_eq!(run.text, text);
            assert!(
                run.baseline + 1.0 <= page.height_mm - 5.0,
                "{page_id} {card}"
            );
            assert!(run.baseline - 2.0 >= 5.0);
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
        let err = Grid::new(t.page("a4").unwrap(), &huge, &t.sheet, 3.0).unwrap_err();
        assert!(err.to_string().contains("does not fit on page size a4"));
    }
}
