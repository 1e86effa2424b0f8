//! Setting cards out on pages: a centred grid with crop marks, and backs for duplex printing.
//!
//! Cards are placed true to size in a grid centred on the page, so that on the back page the
//! mirrored grid lines up exactly with the front when the sheet is turned over.

use super::card_back::draw_back;
use super::card_layout::{Frame, draw_front, fit_scale};
use super::cards::{CardMode, card_faces};
use super::display::{Item, Layout, Page, Stroke};
use super::fonts::{FontStyle, faces};
use super::template::{CardSize, PageSize, SheetStyle, templates};
use super::text::{Font, Typesetter};
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardOptions {
    /// A card size id from `templates/card-sizes.json` (`poker`, `bridge`, `tarot`).
    pub size: String,
    /// A page size id from `templates/page-sizes.json` (`a4`, `letter`).
    pub page: String,
    pub mode: CardMode,
    /// Add a page of card backs after each page of fronts.
    pub backs: bool,
    pub flip: Flip,
}

impl Default for CardOptions {
    fn default() -> Self {
        CardOptions {
            size: "poker".to_string(),
            page: "a4".to_string(),
            mode: CardMode::PerUnit,
            backs: false,
            flip: Flip::LongEdge,
        }
    }
}

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
    pub gap: f32,
}

impl Grid {
    /// As many cards as fit inside the margins, centred on the page.
    pub fn new(page: &PageSize, card: &CardSize, sheet: &SheetStyle) -> Result<Grid, ExportError> {
        let fit = |space: f32, size: f32| {
            let usable = space - 2.0 * sheet.min_margin_mm + sheet.gap_mm;
            (usable / (size + sheet.gap_mm)).floor().max(0.0) as usize
        };
        let columns = fit(page.width_mm, card.width_mm);
        let rows = fit(page.height_mm, card.height_mm);
        if columns == 0 || rows == 0 {
            return Err(ExportError::CardTooLarge {
                card: card.id.clone(),
                page: page.id.clone(),
                card_w: card.width_mm,
                card_h: card.height_mm,
            });
        }
        let span = |n: usize, size: f32| n as f32 * size + (n as f32 - 1.0) * sheet.gap_mm;
        Ok(Grid {
            columns,
            rows,
            x0: (page.width_mm - span(columns, card.width_mm)) / 2.0,
            y0: (page.height_mm - span(rows, card.height_mm)) / 2.0,
            card_w: card.width_mm,
            card_h: card.height_mm,
            gap: sheet.gap_mm,
        })
    }

    pub fn per_page(&self) -> usize {
        self.columns * self.rows
    }

    /// The frame of the `slot`-th card of a page (row by row).
    pub fn frame(&self, slot: usize) -> Frame {
        let (row, col) = (slot / self.columns, slot % self.columns);
        Frame {
            x: self.x0 + col as f32 * (self.card_w + self.gap),
            y: self.y0 + row as f32 * (self.card_h + self.gap),
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
        self.x0 + self.columns as f32 * (self.card_w + self.gap) - self.gap
    }

    fn bottom(&self) -> f32 {
        self.y0 + self.rows as f32 * (self.card_h + self.gap) - self.gap
    }

    /// Crop marks in the margins, in line with every cut.
    pub fn crop_marks(&self, sheet: &SheetStyle) -> Vec<Item> {
        let stroke = Stroke::solid(sheet.crop_mark_color, sheet.crop_mark_width_pt);
        let offset = sheet.crop_mark_offset_mm;
        let room = |margin: f32| (margin - offset - 1.0).min(sheet.crop_mark_mm).max(0.0);
        let (len_v, len_h) = (room(self.y0), room(self.x0));
        let mut cuts_x: Vec<f32> = Vec::new();
        for col in 0..self.columns {
            let left = self.x0 + col as f32 * (self.card_w + self.gap);
            cuts_x.extend([left, left + self.card_w]);
        }
        let mut cuts_y: Vec<f32> = Vec::new();
        for row in 0..self.rows {
            let top = self.y0 + row as f32 * (self.card_h + self.gap);
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
        if len_v > 0.0 {
            for &x in &cuts_x {
                marks.push(line(x, self.y0 - offset - len_v, x, self.y0 - offset));
                let b = self.bottom() + offset;
                marks.push(line(x, b, x, b + len_v));
            }
        }
        if len_h > 0.0 {
            for &y in &cuts_y {
                marks.push(line(self.x0 - offset - len_h, y, self.x0 - offset, y));
                let r = self.right() + offset;
                marks.push(line(r, y, r + len_h, y));
            }
        }
        marks
    }
}

fn dedup(values: &mut Vec<f32>) {
    values.sort_by(f32::total_cmp);
    values.dedup_by(|a, b| (*a - *b).abs() < 0.01);
}

/// Lays out the unit cards of `force` on pages: fronts, and backs when asked.
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
    let grid = Grid::new(page, card, &t.sheet)?;
    let faces = card_faces(force, options.mode)?;
    let total = faces.len();
    let mut layout = Layout {
        title: format!("{} — unit cards", force.name),
        pages: Vec::new(),
        warnings: Vec::new(),
    };
    let sheets = total.div_ceil(grid.per_page());
    // One scale for the whole force, so its cards look alike: the largest every card fits.
    let scale = faces
        .iter()
        .map(|face| fit_scale(ts, template, face, grid.frame(0)))
        .fold(template.max_scale, f32::min);
    for (sheet_index, chunk) in faces.chunks(grid.per_page()).enumerate() {
        let mut front = Page::new(page.width_mm, page.height_mm);
        let mut back = Page::new(page.width_mm, page.height_mm);
        for (slot, face) in chunk.iter().enumerate() {
            let frame = grid.frame(slot);
            let (mut items, cut) = draw_front(ts, template, face, frame, scale);
            if cut {
                layout.warnings.push(format!(
                    "{}: cut short to fit a {} card",
                    face.name, card.label
                ));
            }
            front.items.append(&mut items);
            if options.backs {
                let behind = grid.back_of(frame, page, options.flip);
                back.items.extend(draw_back(ts, template, behind));
            }
            progress(Progress {
                stage: Stage::Layout,
                done: sheet_index * grid.per_page() + slot + 1,
                total,
            });
        }
        front.items.extend(grid.crop_marks(&t.sheet));
        front.items.push(page_caption(
            ts,
            t.footer_size_pt,
            &grid,
            page,
            &force.name,
            sheet_index + 1,
            sheets,
        ));
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
    grid.crop_marks(sheet)
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

/// "Kampfgruppe Peiper · sheet 2 of 10", centred in the bottom margin.
fn page_caption(
    ts: Typesetter,
    size_pt: f32,
    grid: &Grid,
    page: &PageSize,
    force: &str,
    sheet: usize,
    sheets: usize,
) -> Item {
    let font = Font::new(
        FontStyle::Regular,
        size_pt.min(6.0),
        super::display::Rgb::new(110, 110, 110),
    );
    let text = format!("{force} · sheet {sheet} of {sheets}");
    let text = ts.ellipsize(&text, font, grid.card_w - 4.0);
    let margin = page.height_mm - grid.bottom();
    let baseline = grid.bottom() + (margin * 0.55).min(4.5);
    // Beside the first cut rather than centred, where a crop mark may stand.
    ts.run(grid.x0 + 2.0, baseline, font, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(page: &str, card: &str) -> Grid {
        let t = templates().unwrap();
        Grid::new(t.page(page).unwrap(), t.card(card).unwrap(), &t.sheet).unwrap()
    }

    #[test]
    fn nine_poker_or_bridge_cards_fit_a4_and_letter_and_four_tarot() {
        for page in ["a4", "letter"] {
            assert_eq!(grid(page, "poker").per_page(), 9, "{page}");
            assert_eq!(grid(page, "bridge").per_page(), 9, "{page}");
            assert_eq!(grid(page, "tarot").per_page(), 4, "{page}");
        }
    }

    #[test]
    fn cards_stay_inside_the_margins_and_backs_mirror_onto_the_same_spot() {
        let t = templates().unwrap();
        let page = t.page("letter").unwrap();
        let g = grid("letter", "poker");
        for slot in 0..g.per_page() {
            let f = g.frame(slot);
            assert!(f.x >= 5.0 && f.y >= 5.0);
            assert!(f.x + f.w <= page.width_mm - 5.0 && f.y + f.h <= page.height_mm - 5.0);
            // Turning the sheet over the long edge maps x to width − x.
            let back = g.back_of(f, page, Flip::LongEdge);
            assert!((page.width_mm - (back.x + back.w) - f.x).abs() < 1e-4);
            assert_eq!(back.y, f.y);
        }
        // Slot 0 (top left) is backed by the top-right slot of the back page.
        let back0 = g.back_of(g.frame(0), page, Flip::LongEdge);
        assert!((back0.x - g.frame(2).x).abs() < 1e-4);
    }

    #[test]
    fn crop_marks_sit_in_the_margin_on_every_cut() {
        let g = grid("a4", "poker");
        let marks = g.crop_marks(&templates().unwrap().sheet);
        // 4 vertical cuts × top and bottom + 4 horizontal cuts × left and right.
        assert_eq!(marks.len(), 16);
        for mark in marks {
            let Item::Line { x1, y1, x2, y2, .. } = mark else {
                panic!("a line");
            };
            let inside = |x: f32, y: f32| {
                x > g.x0 + 0.01 && x < g.right() - 0.01 && y > g.y0 + 0.01 && y < g.bottom() - 0.01
            };
            assert!(!inside(x1, y1) && !inside(x2, y2));
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
        let err = Grid::new(t.page("a4").unwrap(), &huge, &t.sheet).unwrap_err();
        assert!(err.to_string().contains("does not fit on page size a4"));
    }
}
