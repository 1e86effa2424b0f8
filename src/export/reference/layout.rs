//! Setting a quick reference in columns: headings, paragraphs, lists and tables, with house
//! defaults marked.

use std::collections::BTreeSet;

use super::data::{Block, Table, reference_sheet, wanted};
use super::odds::{UnitOdds, unit_odds};
use super::sources;
use super::tags::force_tags;
use crate::export::display::{Duplex, Layout, Rgb};
use crate::export::flow::{SheetFlow, footer_font};
use crate::export::fonts::{FontStyle, faces};
use crate::export::ink::{Ink, Paper};
use crate::export::template::{ReferenceStyle, SheetColors, Templates, templates};
use crate::export::text::{Font, Span, Typesetter, cap_height};
use crate::export::{ExportError, Progress, Stage};
use crate::rules::validation::resolve_cards;
use crate::rules::{Force, RulesetId};

/// Type scales tried, largest first: a short reference sets its type larger to use its
/// page. None is under 1, so the body and tables never go under the template's 8 pt: a long
/// reference takes a second page rather than smaller type.
const SCALES: [f32; 7] = [1.3, 1.25, 1.2, 1.15, 1.1, 1.05, 1.0];

/// Lays out the quick reference of `ruleset` on `paper` (a page id such as `a4`, or a page
/// and an ink). With a `force`, only the sections and rules that force uses are kept. The
/// type is set at the largest scale that needs no more pages than the smallest does.
pub fn layout_reference<'a>(
    ruleset: RulesetId,
    force: Option<&Force>,
    paper: impl Into<Paper<'a>>,
    progress: &mut dyn FnMut(Progress),
) -> Result<Layout, ExportError> {
    if let Some(force) = force
        && force.ruleset != ruleset
    {
        return Err(ExportError::RulesetMismatch {
            force: force.name.clone(),
            force_ruleset: force.ruleset,
            ruleset,
        });
    }
    let paper = paper.into();
    let t = templates()?;
    let page = t.page(paper.page)?;
    let pass = |scale: f32, balance, progress: &mut dyn FnMut(Progress)| {
        lay_out(ruleset, force, page, paper.ink, scale, balance, progress)
    };
    let fewest = pass(SCALES[SCALES.len() - 1], None, &mut |_| {})?
        .flow
        .page_count();
    let mut chosen = None;
    for scale in SCALES {
        let r = pass(scale, None, &mut |_| {})?;
        if r.flow.page_count() <= fewest {
            chosen = Some((scale, r));
            break;
        }
    }
    let (scale, mut r) = match chosen {
        Some(found) => found,
        None => (1.0, pass(1.0, None, progress)?),
    };
    // Balance the last page's columns: lay it out again with its columns cut at the height
    // that shares its content out evenly, unless that would need another page.
    let pages = r.flow.page_count();
    let used = r.flow.last_page_heights();
    let total: f32 = used.iter().sum();
    if t.reference.columns > 1 && total > 0.0 {
        let line = t.reference.body_size_pt * scale * 1.18 * crate::export::fonts::MM_PER_PT;
        let target = total / t.reference.columns.max(1) as f32 + 2.0 * line;
        let balanced = pass(scale, Some((pages - 1, target)), progress)?;
        if balanced.flow.page_count() == pages {
            r = balanced;
        }
    }
    let style = &t.reference;
    let sheet = reference_sheet(ruleset)?;
    let mark = style.house_default_mark.clone();
    let legend = r.any_house_default;
    let title = sheet.title.clone();
    let left = if legend {
        vec![
            format!(
                "{title} · {mark} house default: the project's reading where the book is unclear"
            ),
            format!("{mark} house default: the project's reading where the book is unclear"),
        ]
    } else {
        vec![format!("{title} · Quartermaster"), title]
    };
    let pages = r
        .flow
        .finish_numbered(footer_font(t.footer_size_pt, t.colors.muted), &left);
    Ok(Layout {
        title: format!("{} — quick reference", ruleset.title()),
        pages,
        warnings: force
            .map(crate::export::glyphs::glyph_warnings)
            .unwrap_or_default(),
        notes: Vec::new(),
        duplex: Duplex::Simplex,
    })
}

/// One layout pass at type `scale`; `balance` caps the columns of one page (its index) at a
/// height.
fn lay_out(
    ruleset: RulesetId,
    force: Option<&Force>,
    page: &crate::export::template::PageSize,
    ink: Ink,
    scale: f32,
    balance: Option<(usize, f32)>,
    progress: &mut dyn FnMut(Progress),
) -> Result<Reference<'static>, ExportError> {
    let t = templates()?;
    let ts = Typesetter { faces: faces()? };
    let sheet = reference_sheet(ruleset)?;
    let accent = t.card_template(ruleset)?.colors.accent;
    let tags = force.map(force_tags);
    let style = &t.reference;
    let mut flow = SheetFlow::new(
        ts,
        (page.width_mm, page.height_mm),
        style.margin_mm,
        0.0,
        style.columns,
        style.gutter_mm,
    );
    flow.balance = balance;
    let mut r = Reference {
        flow,
        style,
        colors: &t.colors,
        accent,
        ruleset,
        ink,
        scale,
        any_house_default: false,
        unit_odds: force.map_or_else(Vec::new, |f| force_odds(t, f)),
    };
    r.title(&sheet.title, &sheet.source, force);
    let total = sheet.sections.len();
    for (index, section) in sheet.sections.iter().enumerate() {
        progress(Progress {
            stage: Stage::Layout,
            done: index + 1,
            total,
        });
        if !wanted(&section.requires, tags.as_ref()) {
            continue;
        }
        let blocks: Vec<&Block> = section
            .blocks
            .iter()
            .filter(|b| wanted(&b.requires, tags.as_ref()))
            .filter(|b| prints_something(ruleset, b, tags.as_ref(), &r.unit_odds))
            .collect();
        r.section(&section.heading, &blocks, tags.as_ref());
    }
    Ok(r)
}

/// False for a block that would print nothing, such as a table of special rules built for a
/// force that has none, so its section's heading is not left standing alone.
fn prints_something(
    ruleset: RulesetId,
    block: &Block,
    tags: Option<&BTreeSet<String>>,
    unit_odds: &[(String, UnitOdds)],
) -> bool {
    (block.unit_odds && !unit_odds.is_empty())
        || block.text.as_ref().is_some_and(|t| !t.trim().is_empty())
        || block.list.as_ref().is_some_and(|l| !l.is_empty())
        || block.table.as_ref().is_some_and(|t| !t.rows.is_empty())
        || block
            .source
            .as_ref()
            .and_then(|source| sources::build(ruleset, source, &block.except, "", tags))
            .is_some_and(|table| !table.rows.is_empty())
}

struct Reference<'a> {
    flow: SheetFlow,
    style: &'a ReferenceStyle,
    colors: &'a SheetColors,
    accent: Rgb,
    ruleset: RulesetId,
    ink: Ink,
    /// Every type size is the style's times this.
    scale: f32,
    any_house_default: bool,
    /// Each card of the force with its odds table, in force order, once.
    unit_odds: Vec<(String, UnitOdds)>,
}

impl Reference<'_> {
    fn size(&self, size_pt: f32) -> f32 {
        size_pt * self.scale
    }

    fn body(&self) -> Font {
        Font::new(
            FontStyle::Regular,
            self.size(self.style.body_size_pt),
            self.colors.text,
        )
    }

    fn title(&mut self, title: &str, source: &str, force: Option<&Force>) {
        let (x, w) = (self.flow.left(), self.flow.text_width());
        let font = Font::new(
            FontStyle::Bold,
            self.size(self.style.title_size_pt),
            self.accent,
        );
        let size = self.flow.ts.fit_size(title, font, 9.0, w, 1);
        // Never cut: a title too long for one line at 9 pt takes two.
        self.flow.paragraph(0.0, w, font.sized(size), title);
        let muted = Font::new(
            FontStyle::Regular,
            self.size(self.style.body_size_pt),
            self.colors.muted,
        );
        let scope = match force {
            Some(force) => format!("Only the rules {} uses. ", force.name),
            None => String::new(),
        };
        self.flow
            .paragraph(0.0, w, muted, &format!("{scope}{source}"));
        self.flow.y += 1.0;
        let y = self.flow.y;
        for item in self.ink.band(x, y, w, 0.8, self.accent) {
            self.flow.push(item);
        }
        self.flow.y += 3.0;
        self.flow.start_columns_here();
    }

    fn section(&mut self, heading: &str, blocks: &[&Block], tags: Option<&BTreeSet<String>>) {
        if blocks.is_empty() {
            return;
        }
        let font = Font::new(
            FontStyle::Bold,
            self.size(self.style.heading_size_pt),
            self.accent,
        );
        // Keep a heading with at least a few lines of what follows.
        self.flow
            .ensure(font.line_height() + 4.0 * self.body().line_height());
        if !self.flow.at_column_top() {
            self.flow.y += 1.6;
        }
        self.flow.line(0.0, font, heading);
        self.flow.rule(self.accent, 0.5);
        self.flow.y += 1.0;
        for block in blocks {
            self.block(block, tags);
            self.flow.y += 0.9;
        }
    }

    fn block(&mut self, block: &Block, tags: Option<&BTreeSet<String>>) {
        let mark = if block.house_default {
            self.any_house_default = true;
            Some(self.style.house_default_mark.clone())
        } else {
            None
        };
        if let Some(text) = &block.text {
            self.paragraph(text, mark.as_deref(), None);
        }
        if let Some(items) = &block.list {
            for item in items {
                self.paragraph(item, mark.as_deref(), Some("•"));
            }
        }
        if let Some(table) = &block.table {
            self.table(table, mark.as_deref());
        }
        if block.unit_odds {
            for (name, odds) in self.unit_odds.clone() {
                self.paragraph(&format!("**{name}:** {}", odds.title), None, None);
                self.table(&odds.table, None);
                self.flow.y += 0.9;
            }
        }
        if let Some(source) = &block.source {
            let house = self.style.house_default_mark.clone();
            match sources::build(self.ruleset, source, &block.except, &house, tags) {
                Some(table) if !table.rows.is_empty() => {
                    self.any_house_default |= table.marked_rows;
                    self.table(&table, mark.as_deref());
                }
                _ => {}
            }
        }
    }

    /// A paragraph, optionally bulleted and marked as a house default. `**Bold:**` at the
    /// start of a paragraph sets its lead-in in bold.
    fn paragraph(&mut self, text: &str, mark: Option<&str>, bullet: Option<&str>) {
        let body = self.body();
        let bold = Font::new(FontStyle::Bold, body.size_pt, self.colors.text);
        let w = self.flow.column_width();
        let indent = bullet.map_or(0.0, |b| self.flow.ts.width(&format!("{b} "), body));
        let mut spans = Vec::new();
        if let Some(mark) = mark {
            spans.push(Span::new(
                mark,
                Font::new(FontStyle::Bold, body.size_pt, self.colors.house_default),
            ));
        }
        match split_lead(text) {
            Some((lead, rest)) => {
                spans.push(Span::new(lead, bold));
                spans.push(Span::new(rest, body));
            }
            None => spans.push(Span::new(text, body)),
        }
        let lines = self.flow.ts.wrap_rich(&spans, w - indent);
        for (i, line) in lines.into_iter().enumerate() {
            self.flow.ensure(body.line_height());
            let x = self.flow.x();
            let baseline = self.flow.y + cap_height(body.size_pt);
            if i == 0
                && let Some(b) = bullet
            {
                let item = self.flow.ts.run(x, baseline, body, b);
                self.flow.push(item);
            }
            for (dx, span) in line {
                let item = self
                    .flow
                    .ts
                    .run(x + indent + dx, baseline, span.font, &span.text);
                self.flow.push(item);
            }
            self.flow.y += body.line_height();
        }
    }

    fn table(&mut self, table: &Table, mark: Option<&str>) {
        let ts = self.flow.ts;
        let font = Font::new(
            FontStyle::Regular,
            self.size(self.style.table_size_pt),
            self.colors.text,
        );
        let head = Font::new(
            FontStyle::Bold,
            self.size(self.style.table_size_pt),
            self.colors.text,
        );
        let w = self.flow.column_width();
        let widths = column_widths(ts, table, font, head, w);
        let pad = 0.8;
        let header: Vec<String> = table
            .columns
            .iter()
            .enumerate()
            .map(|(i, c)| match (i, mark) {
                (0, Some(mark)) => format!("{mark} {c}"),
                _ => c.clone(),
            })
            .collect();
        let header_lines = wrap_row(ts, &header, head, &widths, pad);
        let header_h = row_height(&header_lines, head) + 0.8;
        self.flow.ensure(header_h + font.line_height() * 2.0 + 1.0);
        let ink = self.ink;
        let draw_header = |flow: &mut SheetFlow| {
            let (x, y) = (flow.x(), flow.y);
            for item in ink.band(x, y, w, header_h, self.colors.band) {
                flow.push(item);
            }
            put_row(
                flow,
                x,
                y + 0.4,
                &header_lines,
                head,
                &widths,
                pad,
                mark.map(|_| self.colors.house_default),
            );
            flow.y += header_h;
        };
        draw_header(&mut self.flow);
        for row in &table.rows {
            let lines = wrap_row(ts, row, font, &widths, pad);
            let h = row_height(&lines, font) + 0.6;
            if self.flow.room() < h {
                self.flow.next_column();
                draw_header(&mut self.flow);
            }
            let (x, y) = (self.flow.x(), self.flow.y);
            put_row(&mut self.flow, x, y + 0.3, &lines, font, &widths, pad, None);
            self.flow.y += h;
            self.flow.rule(self.colors.rule, 0.25);
        }
    }
}

/// The odds table of each card of `force` that has one, in force order, each card once: the
/// tables its cards' backs print.
fn force_odds(t: &Templates, force: &Force) -> Vec<(String, UnitOdds)> {
    let Ok(template) = t.card_template(force.ruleset) else {
        return Vec::new();
    };
    let mut seen = BTreeSet::new();
    resolve_cards(force)
        .into_iter()
        .flatten()
        .filter(|card| seen.insert(card.name().to_string()))
        .filter_map(|card| Some((card.name().to_string(), unit_odds(template, card)?)))
        .collect()
}

/// "**Lead:** rest" → ("Lead:", "rest").
fn split_lead(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix("**")?;
    let end = rest.find("**")?;
    Some((&rest[..end], rest[end + 2..].trim_start()))
}

/// Column widths: each column at least as wide as its widest word (so no word breaks), the
/// rest of the width shared by the file's shares, else by each column's natural width.
fn column_widths(ts: Typesetter, table: &Table, font: Font, head: Font, width: f32) -> Vec<f32> {
    let columns = table.columns.len().max(1);
    let pad = 2.0 * 0.8 + 0.2;
    let cells = |i: usize| {
        table
            .rows
            .iter()
            .map(move |r| (r.get(i).map_or("", String::as_str), font))
            .chain([(table.columns[i].as_str(), head)])
    };
    let mins: Vec<f32> = (0..columns)
        .map(|i| {
            cells(i)
                .flat_map(|(text, f)| text.split_whitespace().map(move |w| ts.width(w, f)))
                .fold(0.0, f32::max)
                + pad
        })
        .collect();
    let shares: Vec<f32> = match &table.widths {
        Some(w) => w.clone(),
        None => (0..columns)
            .map(|i| {
                cells(i)
                    .map(|(text, f)| ts.width(text, f))
                    .fold(0.0, f32::max)
                    .clamp(6.0, width)
            })
            .collect(),
    };
    let total: f32 = shares.iter().sum::<f32>().max(1e-3);
    let wanted: Vec<f32> = shares.iter().map(|s| s / total * width).collect();
    // Widen the columns whose words would not fit, taking the room from the others in
    // proportion to what they have beyond their own minimum.
    let short: f32 = wanted
        .iter()
        .zip(&mins)
        .map(|(w, m)| (m - w).max(0.0))
        .sum();
    let spare: f32 = wanted
        .iter()
        .zip(&mins)
        .map(|(w, m)| (w - m).max(0.0))
        .sum();
    if short <= 0.0 || spare <= 0.0 {
        return wanted;
    }
    let take = (short / spare).min(1.0);
    wanted
        .iter()
        .zip(&mins)
        .map(|(w, m)| if w < m { *m } else { w - (w - m) * take })
        .collect()
}

fn wrap_row(
    ts: Typesetter,
    cells: &[String],
    font: Font,
    widths: &[f32],
    pad: f32,
) -> Vec<Vec<String>> {
    cells
        .iter()
        .zip(widths)
        .map(|(cell, w)| ts.wrap(cell, font, (w - 2.0 * pad).max(2.0)))
        .collect()
}

fn row_height(lines: &[Vec<String>], font: Font) -> f32 {
    lines.iter().map(Vec::len).max().unwrap_or(1) as f32 * font.line_height()
}

#[allow(clippy::too_many_arguments)]
fn put_row(
    flow: &mut SheetFlow,
    x: f32,
    top: f32,
    lines: &[Vec<String>],
    font: Font,
    widths: &[f32],
    pad: f32,
    first_color: Option<Rgb>,
) {
    let ts = flow.ts;
    let mut cx = x;
    for (i, (cell, w)) in lines.iter().zip(widths).enumerate() {
        let mut baseline = top + cap_height(font.size_pt);
        let cell_font = match (i, first_color) {
            (0, Some(color)) => font.colored(color),
            _ => font,
        };
        for line in cell {
            flow.push(ts.run(cx + pad, baseline, cell_font, line));
            baseline += font.line_height();
        }
        cx += w;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bold_lead_in_is_split_off() {
        assert_eq!(
            split_lead("**Move:** up to 6″"),
            Some(("Move:", "up to 6″"))
        );
        assert_eq!(split_lead("plain"), None);
    }
}
