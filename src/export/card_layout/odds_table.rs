//! The unit's odds table on its card's back ([`unit_odds`]): what each cell is the chance
//! of, then the table, its header row repeated where the back continues on another card.

use super::{Flow, Front, TableHead, shifted};
use crate::export::display::{Item, Segment, Stroke};
use crate::export::fonts::FontStyle;
use crate::export::reference::Table;
use crate::export::reference::unit_odds;
use crate::export::text::{Font, MIN_TEXT_PT, cap_height};

/// The odds table's type, at scale 1.
const TABLE_PT: f32 = 7.0;

/// The least share of the table its first column (the targets' names) keeps.
const FIRST_COLUMN_SHARE: f32 = 0.3;

/// Space between a cell's text and the next column.
const CELL_GAP_MM: f32 = 0.7;

impl Front<'_> {
    /// The table's type: the card's size for it, smaller where the table needs it to fit
    /// its columns (each name's longest word, each chance and header whole), never under
    /// the smallest legible size.
    fn table_font(&self, table: &Table, width: f32) -> Font {
        let base = self.font(FontStyle::Regular, TABLE_PT, self.colors.text);
        let columns = table.columns.len();
        let need = |font: Font| {
            let bold = Font {
                style: FontStyle::Bold,
                ..font
            };
            let column = |k: usize, whole: bool| {
                table
                    .rows
                    .iter()
                    .filter_map(|r| r.get(k))
                    .map(|t| (t, font))
                    .chain(table.columns.get(k).map(|h| (h, bold)))
                    .map(|(text, f)| {
                        if whole {
                            self.ts.width(text, f)
                        } else {
                            text.split_whitespace()
                                .map(|w| self.ts.width(w, f))
                                .fold(0.0, f32::max)
                        }
                    })
                    .fold(0.0, f32::max)
                    + CELL_GAP_MM
            };
            let cells = (1..columns).map(|k| column(k, true)).fold(0.0, f32::max);
            column(0, false) + (columns.max(1) - 1) as f32 * cells
        };
        let mut size = base.size_pt;
        while size > MIN_TEXT_PT && need(base.sized(size)) > width {
            size = (size - 0.25).max(MIN_TEXT_PT);
        }
        base.sized(size)
    }

    /// The odds table from `top`; returns its bottom (`top` when the unit has none).
    pub(super) fn odds_table(&self, flow: &mut Flow, top: f32) -> f32 {
        let Some(odds) = unit_odds(self.t, &self.face.card) else {
            return top;
        };
        let frame = self.frame;
        let pad = self.pad();
        let x = frame.x + pad;
        let width = frame.w - 2.0 * pad;
        let font = self.table_font(&odds.table, width);
        let bold = Font {
            style: FontStyle::Bold,
            ..font
        };
        let caption = self.font(FontStyle::Regular, TABLE_PT * 0.9, self.colors.label);
        let mut y = top + 1.2 * self.scale;
        for line in self.wrap(&odds.title, caption, width) {
            let baseline = y + cap_height(caption.size_pt);
            flow.push(
                y + caption.line_height(),
                self.ts.run(x, baseline, caption, &line),
            );
            y += caption.line_height();
        }
        flow.may_break(y);
        y += 0.4 * self.scale;
        let table = &odds.table;
        let columns = table.columns.len().max(1);
        let widest = |k: usize, measure: &dyn Fn(&str, Font) -> f32| {
            table
                .rows
                .iter()
                .filter_map(|r| r.get(k))
                .map(|text| measure(text, font))
                .chain(table.columns.get(k).map(|h| measure(h, bold)))
                .fold(0.0, f32::max)
                + CELL_GAP_MM
        };
        let whole = |text: &str, f: Font| self.ts.width(text, f);
        let longest_word = |text: &str, f: Font| {
            text.split_whitespace()
                .map(|w| self.ts.width(w, f))
                .fold(0.0, f32::max)
        };
        // The chances' columns as wide as their widest entry; the names take the rest, at
        // least a share of the table and their longest word (a long name wraps in it).
        let cell_need = (1..columns).map(|k| widest(k, &whole)).fold(0.0, f32::max);
        let first_w = if columns > 1 {
            (width - (columns - 1) as f32 * cell_need)
                .min(widest(0, &whole))
                .max(width * FIRST_COLUMN_SHARE)
                .max(widest(0, &longest_word))
        } else {
            width
        };
        let cell_w = if columns > 1 {
            (width - first_w) / (columns - 1) as f32
        } else {
            width
        };
        let column_x = |k: usize| {
            if k == 0 {
                x
            } else {
                x + first_w + (k - 1) as f32 * cell_w
            }
        };
        let column_w = |k: usize| if k == 0 { first_w } else { cell_w } - CELL_GAP_MM;
        // The header row, kept to repeat on a continuation.
        let head_top = y;
        let mut head_items = Vec::new();
        let mut head_h: f32 = 0.0;
        for (k, header) in table.columns.iter().enumerate() {
            let lines = self.wrap(header, bold, column_w(k));
            let mut baseline = y + cap_height(bold.size_pt);
            for line in &lines {
                head_items.push(self.ts.run(column_x(k), baseline, bold, line));
                baseline += bold.line_height();
            }
            head_h = head_h.max(lines.len() as f32 * bold.line_height());
        }
        head_items.push(Item::Line(Segment {
            x1: x,
            y1: y + head_h + 0.2,
            x2: x + width,
            y2: y + head_h + 0.2,
            stroke: Stroke::solid(self.colors.accent, 0.5),
        }));
        y += head_h + 0.6;
        for item in &head_items {
            flow.push(y, item.clone());
        }
        let rows_from = y;
        for row in &table.rows {
            let cells: Vec<Vec<String>> = row
                .iter()
                .enumerate()
                .map(|(k, text)| self.wrap(text, font, column_w(k)))
                .collect();
            let lines = cells.iter().map(Vec::len).max().unwrap_or(1);
            let bottom = y + lines as f32 * font.line_height() + 0.3;
            for (k, cell) in cells.iter().enumerate() {
                let mut baseline = y + cap_height(font.size_pt);
                for line in cell {
                    flow.push(bottom, self.ts.run(column_x(k), baseline, font, line));
                    baseline += font.line_height();
                }
            }
            flow.push(
                bottom,
                Item::Line(Segment {
                    x1: x,
                    y1: bottom,
                    x2: x + width,
                    y2: bottom,
                    stroke: Stroke::solid(self.colors.rule, 0.3),
                }),
            );
            y = bottom + 0.3;
            flow.may_break(y);
        }
        flow.heads.push(TableHead {
            items: head_items
                .iter()
                .map(|i| shifted(i, 0.0, -head_top))
                .collect(),
            height: rows_from - head_top,
            rows_from,
            rows_to: y,
        });
        y
    }
}
