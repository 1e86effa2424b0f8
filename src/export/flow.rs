//! Flowing content down the columns of as many pages as it needs (rosters and reference
//! sheets), with a running footer on every page.

use super::display::{Item, Page, Rgb, Segment, Stroke};
use super::fonts::{FontStyle, MM_PER_PT};
use super::scale_bar::{scale_bar, scale_bar_size};
use super::text::{Font, Typesetter, cap_height};

/// How near the paper's edge many printers cannot print.
pub(crate) const PRINTER_EDGE_MM: f32 = 5.0;

/// A cursor that fills columns top to bottom and starts a new page when the last is full.
pub(crate) struct SheetFlow {
    pub ts: Typesetter,
    page_w: f32,
    page_h: f32,
    margin: f32,
    /// Bottom of the text area (room is left for the footer).
    bottom: f32,
    columns: usize,
    gutter: f32,
    column: usize,
    /// Top of the text area on pages after the first.
    top: f32,
    /// The cursor: where the next block starts.
    pub y: f32,
    pages: Vec<Page>,
    /// Caps every column but the last of one page (its index) at this height, so the
    /// page's content is shared out evenly instead of filling the first column.
    pub balance: Option<(usize, f32)>,
    /// How far down each finished column of the current page reached.
    column_ends: Vec<f32>,
}

impl SheetFlow {
    pub(crate) fn new(
        ts: Typesetter,
        (page_w, page_h): (f32, f32),
        margin: f32,
        footer_h: f32,
        columns: usize,
        gutter: f32,
    ) -> Self {
        SheetFlow {
            ts,
            page_w,
            page_h,
            margin,
            bottom: page_h - margin - footer_h,
            columns: columns.max(1),
            gutter,
            column: 0,
            top: margin,
            y: margin,
            pages: vec![Page::new(page_w, page_h)],
            balance: None,
            column_ends: Vec::new(),
        }
    }

    pub(crate) fn page_count(&self) -> usize {
        self.pages.len()
    }

    /// The height of content in each column of the last page so far.
    pub(crate) fn last_page_heights(&self) -> Vec<f32> {
        let mut heights: Vec<f32> = self
            .column_ends
            .iter()
            .map(|end| (end - self.top).max(0.0))
            .collect();
        heights.push((self.y - self.top).max(0.0));
        heights
    }

    /// The bottom of the current column, lowered on a page being balanced.
    fn column_bottom(&self) -> f32 {
        match self.balance {
            Some((page, height))
                if page + 1 == self.pages.len() && self.column + 1 < self.columns =>
            {
                self.bottom.min(self.top + height)
            }
            _ => self.bottom,
        }
    }

    /// Full width of the text area.
    pub(crate) fn text_width(&self) -> f32 {
        self.page_w - 2.0 * self.margin
    }

    pub(crate) fn left(&self) -> f32 {
        self.margin
    }

    /// Left edge of the current column.
    pub(crate) fn x(&self) -> f32 {
        self.margin + self.column as f32 * (self.column_width() + self.gutter)
    }

    pub(crate) fn column_width(&self) -> f32 {
        let columns = self.columns as f32;
        (self.text_width() - (columns - 1.0) * self.gutter) / columns
    }

    /// Space left in the current column.
    pub(crate) fn room(&self) -> f32 {
        self.column_bottom() - self.y
    }

    /// True when nothing has been set in the current column yet.
    pub(crate) fn at_column_top(&self) -> bool {
        self.y <= self.top + 1e-3
    }

    /// From here on, columns start at the cursor (below a title that spans the page).
    pub(crate) fn start_columns_here(&mut self) {
        self.top = self.y;
    }

    /// Moves to the next column or page unless `height` fits below the cursor.
    pub(crate) fn ensure(&mut self, height: f32) {
        if self.y + height > self.column_bottom() + 1e-3 && self.y > self.top + 1e-3 {
            self.next_column();
        }
    }

    pub(crate) fn next_column(&mut self) {
        if self.column + 1 < self.columns {
            self.column_ends.push(self.y);
            self.column += 1;
            self.y = self.top;
        } else {
            self.new_page();
        }
    }

    /// One column filling the page inside `margin`, with no footer band (rosters, reports).
    pub(crate) fn single_column(ts: Typesetter, page: (f32, f32), margin: f32) -> Self {
        Self::new(ts, page, margin, 0.0, 1, 0.0)
    }

    pub(crate) fn new_page(&mut self) {
        self.column_ends.clear();
        self.pages.push(Page::new(self.page_w, self.page_h));
        self.column = 0;
        self.top = self.margin;
        self.y = self.margin;
    }

    pub(crate) fn push(&mut self, item: Item) {
        if let Some(page) = self.pages.last_mut() {
            page.items.push(item);
        }
    }

    /// Sets `text` on one line at the cursor, `dx` from the column's left edge, and moves
    /// below it.
    pub(crate) fn line(&mut self, dx: f32, font: Font, text: &str) {
        self.ensure(font.line_height());
        let baseline = self.y + cap_height(font.size_pt);
        let item = self.ts.run(self.x() + dx, baseline, font, text);
        self.push(item);
        self.y += font.line_height();
    }

    /// Sets `text` wrapped to `width`, `dx` from the column's left edge, moving the cursor
    /// below it.
    pub(crate) fn paragraph(&mut self, dx: f32, width: f32, font: Font, text: &str) {
        for line in self.ts.wrap(text, font, width) {
            self.line(dx, font, &line);
        }
    }

    /// A hairline across the current column at the cursor.
    pub(crate) fn rule(&mut self, color: Rgb, width_pt: f32) {
        let (x, w, y) = (self.x(), self.column_width(), self.y);
        self.push(Item::Line(Segment {
            x1: x,
            y1: y,
            x2: x + w,
            y2: y,
            stroke: Stroke::solid(color, width_pt),
        }));
    }

    /// The pages, each with `footer(page, pages)` set in the bottom margin at left and right
    /// and the scale bar in the top margin.
    /// The left text is the first of its candidates that fits beside the right one (so a
    /// long force name gives way to a shorter line rather than being cut); only if none fits
    /// is the last cut short.
    pub(crate) fn finish(
        mut self,
        font: Font,
        footer: impl Fn(usize, usize) -> (Vec<String>, String),
    ) -> Vec<Page> {
        let total = self.pages.len();
        // Halfway into the bottom margin, but never within the 5 mm a printer cannot reach.
        let descent = 0.24 * font.size_pt * MM_PER_PT;
        let baseline =
            (self.page_h - self.margin * 0.5).min(self.page_h - PRINTER_EDGE_MM - 0.5 - descent);
        let (left, right_edge) = (self.margin, self.page_w - self.margin);
        let ts = self.ts;
        // The scale bar in the top margin at the right, clear of the 5 mm edge and of the
        // first line of text.
        let (bar_w, bar_h) = scale_bar_size(ts);
        let bar_y = (self.margin - bar_h - 1.0).max(PRINTER_EDGE_MM + 0.3);
        for (index, page) in self.pages.iter_mut().enumerate() {
            page.items.extend(scale_bar(ts, right_edge - bar_w, bar_y));
            let (candidates, right_text) = footer(index + 1, total);
            let right_w = ts.width(&right_text, font);
            let room = right_edge - left - right_w - 4.0;
            let left_text = candidates
                .iter()
                .find(|text| ts.width(text, font) <= room)
                .cloned()
                .unwrap_or_else(|| {
                    let last = candidates.last().map_or("", String::as_str);
                    ts.ellipsize(last, font, room)
                });
            page.items.push(ts.run(left, baseline, font, &left_text));
            page.items
                .push(ts.run(right_edge - right_w, baseline, font, &right_text));
        }
        self.pages
    }
}

impl SheetFlow {
    /// [`SheetFlow::finish`] with the first of `left` that fits on every page and "page n of
    /// N" on the right.
    pub(crate) fn finish_numbered(self, font: Font, left: &[String]) -> Vec<Page> {
        self.finish(font, |n, of| (left.to_vec(), format!("page {n} of {of}")))
    }
}

/// A footer font in `color`.
pub(crate) fn footer_font(size_pt: f32, color: Rgb) -> Font {
    Font::new(FontStyle::Regular, size_pt, color)
}
