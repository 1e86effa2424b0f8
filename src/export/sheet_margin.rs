//! What a card sheet prints in its margins besides the crop marks: a caption ("Kampfgruppe
//! Peiper · sheet 2 of 10") and the 50 mm scale bar with "print at 100 %". Both stand
//! between the crop marks, clear of the cards and never within the page's unprintable edge.

use super::display::{Item, Rgb};
use super::fonts::{FontStyle, MM_PER_PT};
use super::scale_bar::{scale_bar, scale_bar_size};
use super::sheet::{Grid, dedup};
use super::template::{PageSize, SheetStyle};
use super::text::{Font, MIN_TEXT_PT, Typesetter, cap_height};

/// Space between the cards (or a caption) and what stands in the margin beside them.
const CLEARANCE_MM: f32 = 0.8;

/// Space between the caption and the scale bar sharing a stretch of margin.
const BETWEEN_MM: f32 = 3.0;

/// A stretch of margin between two crop marks, above or below the cards.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Slot {
    from: f32,
    to: f32,
    top: f32,
    bottom: f32,
    below: bool,
}

impl Slot {
    fn width(&self) -> f32 {
        self.to - self.from
    }

    fn depth(&self) -> f32 {
        self.bottom - self.top
    }
}

/// The margin's caption and scale bar; either is empty when no stretch has room for it.
pub(crate) struct MarginItems {
    pub caption: Option<Item>,
    pub scale_bar: Vec<Item>,
}

/// Every stretch between the marks in the margin below the cards, then above them, widest
/// first within each margin.
fn slots(grid: &Grid, page: &PageSize, sheet: &SheetStyle) -> Vec<Slot> {
    let mut slots = Vec::new();
    for below in [true, false] {
        let (top, bottom) = if below {
            (
                grid.bottom() + CLEARANCE_MM,
                page.height_mm - sheet.min_margin_mm,
            )
        } else {
            (sheet.min_margin_mm, grid.y0 - CLEARANCE_MM)
        };
        if bottom <= top {
            continue;
        }
        let mut stops = vec![grid.x0];
        stops.extend(grid.marks_across(!below));
        stops.push(grid.right());
        dedup(&mut stops);
        let mut margin: Vec<Slot> = stops
            .windows(2)
            .map(|w| Slot {
                from: w[0] + 1.0,
                to: w[1] - 1.0,
                top,
                bottom,
                below,
            })
            .filter(|s| s.width() > 0.0)
            .collect();
        margin.sort_by(|a, b| b.width().total_cmp(&a.width()));
        slots.extend(margin);
    }
    slots
}

/// The caption, whole or as its last part ("sheet 2 of 10"), in the widest stretch below the
/// cards (above them when there is no room below); the scale bar beside or under it, else in
/// another stretch. The name gives way before the sheet number does.
pub(crate) fn margin_items(
    ts: Typesetter,
    grid: &Grid,
    page: &PageSize,
    sheet: &SheetStyle,
    text: &str,
) -> MarginItems {
    let font = Font::new(FontStyle::Regular, MIN_TEXT_PT, Rgb::new(110, 110, 110));
    let descent = 0.24 * font.size_pt * MM_PER_PT;
    let caption_h = cap_height(font.size_pt) + descent;
    let short = text.rsplit(" · ").next().unwrap_or(text);
    let slots = slots(grid, page, sheet);
    // (slot, used width, used height) of the caption.
    let mut caption = None;
    'find: for below in [true, false] {
        // The widest stretch of this margin only: a caption reads as the sheet's own.
        let Some(slot) = slots.iter().find(|s| s.below == below) else {
            continue;
        };
        if slot.depth() < caption_h {
            continue;
        }
        for candidate in [text, short] {
            let width = ts.width(candidate, font);
            if width <= slot.width() {
                let baseline = if below {
                    slot.top + cap_height(font.size_pt)
                } else {
                    slot.bottom - descent
                };
                let item = ts.run(slot.from, baseline, font, candidate);
                caption = Some((*slot, width, item));
                break 'find;
            }
        }
    }
    let (bar_w, bar_h) = scale_bar_size(ts);
    let mut place = None;
    for slot in &slots {
        let taken = caption.as_ref().filter(|(s, ..)| s == slot);
        match taken {
            None if slot.width() >= bar_w && slot.depth() >= bar_h => {
                let y = if slot.below {
                    slot.top
                } else {
                    slot.bottom - bar_h
                };
                place = Some((slot.from, y));
            }
            Some((_, used, _)) if slot.width() - used - BETWEEN_MM >= bar_w => {
                let y = if slot.below {
                    slot.top
                } else {
                    slot.bottom - bar_h
                };
                place = Some((slot.to - bar_w, y));
            }
            Some(_)
                if slot.depth() >= caption_h + CLEARANCE_MM + bar_h && slot.width() >= bar_w =>
            {
                // Under the caption below the cards, over it above them.
                let y = if slot.below {
                    slot.top + caption_h + CLEARANCE_MM
                } else {
                    slot.bottom - caption_h - CLEARANCE_MM - bar_h
                };
                place = Some((slot.from, y));
            }
            _ => continue,
        }
        break;
    }
    MarginItems {
        caption: caption.map(|(_, _, item)| item),
        scale_bar: place.map_or_else(Vec::new, |(x, y)| scale_bar(ts, x, y)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::display::{Item, Segment};
    use crate::export::fonts::faces;
    use crate::export::scale_bar::SCALE_BAR_MM;
    use crate::export::sheet::grid_with;
    use crate::export::template::templates;

    /// The span (x0, y0, x1, y1) an item covers, text measured to its ascent and descent.
    fn span(item: &Item) -> (f32, f32, f32, f32) {
        match item {
            Item::Text(run) => (
                run.x,
                run.baseline - cap_height(run.size_pt) - 0.3,
                run.x + run.width,
                run.baseline + 0.24 * run.size_pt * MM_PER_PT,
            ),
            Item::Line(Segment { x1, y1, x2, y2, .. }) => {
                (x1.min(*x2), y1.min(*y2), x1.max(*x2), y1.max(*y2))
            }
            _ => (0.0, 0.0, 0.0, 0.0),
        }
    }

    /// Finding 2 of issue 25: Letter poker sheets had no caption. Issue 37: no sheet said to
    /// print at 100 % or had a scale bar. Every layout has room for both, whole, between the
    /// marks, clear of each other and 5 mm from the edge.
    #[test]
    fn every_sheet_has_its_caption_and_scale_bar_between_the_marks() {
        let t = templates().unwrap();
        let ts = Typesetter {
            faces: faces().unwrap(),
        };
        let text = "Kampfgruppe Peiper · sheet 12 of 12";
        for page_id in ["a4", "letter"] {
            let page = t.page(page_id).unwrap();
            for card in ["poker", "bridge", "tarot"] {
                for fold in [false, true] {
                    for gap in [3.0, 0.0] {
                        let g = grid_with(page_id, card, gap, fold);
                        let what = format!("{page_id} {card} fold {fold} gap {gap}");
                        let items = margin_items(ts, &g, page, &t.sheet, text);
                        let Some(Item::Text(run)) = &items.caption else {
                            panic!("{what}: a caption");
                        };
                        assert_eq!(run.text, text, "{what}");
                        assert!(
                            items.scale_bar.iter().any(|i| matches!(i,
                                Item::Line(Segment { x1, x2, .. }) if (x2 - x1 - SCALE_BAR_MM).abs() < 1e-3)),
                            "{what}: no scale bar"
                        );
                        let caption = span(items.caption.as_ref().unwrap());
                        let mut all = vec![caption];
                        all.extend(items.scale_bar.iter().map(span));
                        let marks: Vec<(f32, f32, f32, f32)> =
                            g.crop_marks(&t.sheet).iter().map(span).collect();
                        for &(x0, y0, x1, y1) in &all {
                            assert!(
                                y0 >= 5.0 - 1e-3 && y1 <= page.height_mm - 5.0 + 1e-3,
                                "{what}"
                            );
                            assert!(x0 >= 5.0 && x1 <= page.width_mm - 5.0, "{what}");
                            let on_cards = y1 > g.y0 && y0 < g.bottom();
                            assert!(!on_cards, "{what}: {x0},{y0} over the cards");
                            for &(mx0, my0, mx1, my1) in &marks {
                                let crosses =
                                    mx0 <= x1 + 0.2 && mx1 >= x0 - 0.2 && my0 <= y1 && my1 >= y0;
                                assert!(!crosses, "{what}: {x0},{y0}–{x1},{y1} crosses a mark");
                            }
                        }
                        for bar in items.scale_bar.iter().map(span) {
                            let (x0, y0, x1, y1) = caption;
                            let overlaps = bar.0 < x1 && bar.2 > x0 && bar.1 < y1 && bar.3 > y0;
                            assert!(!overlaps, "{what}: the scale bar covers the caption");
                        }
                    }
                }
            }
        }
    }
}
