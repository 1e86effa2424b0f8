//! The roster's unit table: one row per unit on the table ("Puma 2/3"), the statistics the
//! ruleset plays with as columns, and tick boxes for what the ruleset tracks on each unit
//! (disruption, hits, hit points and a track hit, pins, stands lost). A statistic the card
//! template splits into cells (Belle Epoque's fire at 1–4 UD, Armour Battles' range bands)
//! takes fixed sub-columns under one heading, so "4 (1)" never wraps away from its band.
//! The column headers, and the heading of a group running on, repeat at the top of every
//! page the table runs onto; a name wraps within its column. A table that needs more width
//! than a portrait page has says so ([`Roster::squeezed`]), and the roster is laid out
//! landscape.

use crate::rules::validation::resolve_cards;
use crate::rules::{Card, Force, ForceUnit};

use super::{Roster, cost_of};
use crate::export::card_layout::tracker_boxes;
use crate::export::cards::{CardFace, face_for};
use crate::export::display::{Item, Stroke};
use crate::export::fonts::FontStyle;
use crate::export::template::{CardTemplate, TrackerStyle};
use crate::export::text::{Font, cap_height};
use crate::export::{Progress, Stage};

/// Most boxes side by side in a tracking column before they wrap to another row: Bolt
/// Action's eight Pins on one line.
const BOXES_PER_ROW: u32 = 10;

/// Lines a value may take in its column before the table counts as squeezed.
const SQUEEZED_LINES: usize = 2;

/// A write-in field's width, for tracking large numbers such as hit points.
const WRITE_IN_MM: f32 = 16.0;

/// Space between columns.
const COLUMN_GAP_MM: f32 = 2.0;

/// One printed row: a unit on the table.
struct Row {
    name: String,
    cells: Vec<String>,
    cost: String,
    /// Boxes for each tracker; `None` for a unit that takes no damage on the table.
    boxes: Option<Vec<u32>>,
    known: bool,
}

/// The table's columns: their headers and widths.
struct Columns {
    has_cost: bool,
    widths: Vec<f32>,
    /// Headers as printed: "Unit", the statistics (a split one's cell headers), the cost,
    /// the trackers' labels.
    headers: Vec<String>,
    /// Headings over runs of sub-columns: (first column, how many, heading).
    groups: Vec<(usize, usize, String)>,
}

/// A statistic shown as a column, or as sub-columns when every unit's value splits into
/// the template's cells.
struct StatColumn {
    label: String,
    /// The separator and the cells' headers ("1 UD" … "4 UD").
    split: Option<(String, Vec<String>)>,
}

impl StatColumn {
    fn width(&self) -> usize {
        self.split.as_ref().map_or(1, |(_, headers)| headers.len())
    }
}

impl Roster<'_> {
    pub(super) fn unit_table(
        &mut self,
        force: &Force,
        template: &CardTemplate,
        cost_head: &str,
        track: bool,
        progress: &mut dyn FnMut(Progress),
    ) {
        let trackers: &[TrackerStyle] = if track { &template.trackers } else { &[] };
        let cards = resolve_cards(force);
        let lines: Vec<(&ForceUnit, Option<&Card>)> = force.units.iter().zip(cards).collect();
        let stats = split_columns(template, &lines, stat_columns(template, &lines));
        let mut groups: Vec<(Option<&str>, Vec<Row>)> = Vec::new();
        for (unit, card) in &lines {
            let face = card.map(|c| face_for(c, unit));
            let rows = rows_for(unit, *card, face.as_ref(), &stats, trackers);
            let group = unit.group.as_deref();
            match groups.last_mut() {
                Some((g, existing)) if *g == group => existing.extend(rows),
                _ => groups.push((group, rows)),
            }
        }
        let columns = self.columns(stats, cost_head, trackers, &groups);
        self.table_header(&columns);
        let total = force.units.len();
        let mut done = 0;
        let grouped = groups.iter().any(|(g, _)| g.is_some());
        for (group, rows) in &groups {
            // Ungrouped units after a group get a heading of their own, so they are not
            // read as part of the group above them.
            let heading = match group {
                Some(name) => Some(*name),
                None if grouped => Some("Other units"),
                None => None,
            };
            if let Some(name) = heading {
                self.flow.y += 1.0;
                if self.flow.room() < self.group_font().line_height() * 2.5 {
                    self.flow.new_page();
                    self.table_header(&columns);
                }
                self.group_heading(name);
            }
            for row in rows {
                if self.unit_row(row, &columns, trackers) {
                    // The row opened a new page: say whose rows run on, then set it there.
                    if let Some(name) = heading {
                        self.group_heading(&format!("{name} (continued)"));
                    }
                    self.unit_row(row, &columns, trackers);
                }
            }
            done += 1;
            progress(Progress {
                stage: Stage::Layout,
                done: done.min(total),
                total,
            });
        }
    }

    fn group_font(&self) -> Font {
        Font::new(FontStyle::Bold, self.style.body_size_pt, self.accent)
    }

    /// A group's name over its rows.
    fn group_heading(&mut self, name: &str) {
        let width = self.flow.text_width();
        let font = self.group_font();
        self.wrapped(0.0, width, font, name, "group");
    }

    fn columns(
        &mut self,
        stats: Vec<StatColumn>,
        cost_head: &str,
        trackers: &[TrackerStyle],
        groups: &[(Option<&str>, Vec<Row>)],
    ) -> Columns {
        let ts = self.flow.ts;
        let small = self.small();
        let head = self.head_font();
        let width = self.flow.text_width();
        let rows: Vec<&Row> = groups.iter().flat_map(|(_, r)| r).collect();
        let widest_word = |texts: &mut dyn Iterator<Item = &str>, font: Font| {
            texts
                .flat_map(str::split_whitespace)
                .map(|w| ts.width(w, font))
                .fold(0.0, f32::max)
        };
        let natural = |texts: &mut dyn Iterator<Item = &str>, font: Font| {
            texts.map(|t| ts.width(t, font)).fold(0.0, f32::max)
        };
        let gap = COLUMN_GAP_MM;
        let tracker_ws = self.tracker_widths(trackers, &rows);
        let (labels, column_groups) = printed_columns(&stats);
        // A cost that a statistic column already shows for every unit (Battle of Tanks'
        // tier, Belle Epoque's stands) is not printed twice.
        let repeated = stats
            .iter()
            .any(|stat| stat.label.eq_ignore_ascii_case(cost_head))
            || (0..labels.len()).any(|i| rows.iter().all(|r| r.cells[i] == r.cost));
        let cost_w = if cost_head.is_empty() || repeated {
            0.0
        } else {
            natural(&mut rows.iter().map(|r| r.cost.as_str()), small).max(ts.width(cost_head, head))
                + gap
        };
        let unit_min = widest_word(&mut rows.iter().map(|r| r.name.as_str()), self.name_font())
            .max(ts.width("Unit", head))
            + gap;
        let unit_natural = natural(&mut rows.iter().map(|r| r.name.as_str()), self.name_font())
            .max(unit_min)
            .min(width * 0.3);
        // Each statistic column gets at least its widest word, then a share of what is
        // left in proportion to how much more its longest value needs.
        // A name may take two lines; the statistics' values are wanted on one first.
        let mut mins = vec![unit_min.max(unit_natural * 0.6)];
        let mut wants = vec![unit_min.max(unit_natural * 0.6)];
        let in_group = |i: usize| {
            column_groups
                .iter()
                .any(|(first, count, _)| (*first..first + count).contains(&(i + 1)))
        };
        for (i, label) in labels.iter().enumerate() {
            let values = &mut rows.iter().map(|r| r.cells[i].as_str());
            // A sub-column's cells and header are short and never wrap ("4 (1)", "1 UD").
            let min = if in_group(i) {
                natural(values, small).max(ts.width(label, head))
            } else {
                widest_word(values, small).max(widest_word(&mut [label.as_str()].into_iter(), head))
            } + gap;
            let want = natural(&mut rows.iter().map(|r| r.cells[i].as_str()), small)
                .max(ts.width(label, head))
                + gap;
            mins.push(min);
            wants.push(want.max(min));
        }
        let room = width - tracker_ws.iter().sum::<f32>() - cost_w;
        // First every value on at most two lines (a list of rules on three), where the
        // page allows; then the spare room as `share_out` gives it.
        let lines_of = |cell: &str| {
            if cell.contains(", ") {
                SQUEEZED_LINES + 1
            } else {
                SQUEEZED_LINES
            }
        };
        let mut floors = mins.clone();
        for (i, floor) in floors.iter_mut().enumerate().skip(1) {
            let cells: Vec<&str> = rows.iter().map(|r| r.cells[i - 1].as_str()).collect();
            *floor = cells
                .iter()
                .map(|cell| least_width(ts, cell, small, lines_of(cell), *floor, wants[i]))
                .fold(*floor, f32::max);
        }
        let base = if floors.iter().sum::<f32>() <= room {
            floors
        } else {
            mins.clone()
        };
        let mut widths = share_out(&base, &wants, room);
        // Whatever is still left is shared out evenly, so no column looks starved.
        let used: f32 = widths.iter().sum();
        let each = (room - used).max(0.0) / widths.len().max(1) as f32;
        for width in &mut widths {
            *width += each;
        }
        // A value (not a list) wrapping onto a third line — Belle Epoque's assault, Bolt
        // Action's move — means the page is too narrow for the table.
        self.squeezed |= rows.iter().any(|row| {
            row.cells
                .iter()
                .zip(&widths[1..])
                .any(|(cell, w)| ts.wrap(cell, small, w - 1.5).len() > lines_of(cell))
        });
        let mut headers = vec!["Unit".to_string()];
        headers.extend(labels);
        if cost_w > 0.0 {
            widths.push(cost_w);
            headers.push(cost_head.to_string());
        }
        for (tracker, w) in trackers.iter().zip(tracker_ws) {
            widths.push(w);
            headers.push(tracker.label.clone());
        }
        Columns {
            has_cost: cost_w > 0.0,
            widths,
            headers,
            groups: column_groups,
        }
    }

    /// Each tracker column's width: its boxes (at most a row's worth) or a write-in space,
    /// or its header's widest word when that is wider.
    fn tracker_widths(&self, trackers: &[TrackerStyle], rows: &[&Row]) -> Vec<f32> {
        let ts = self.flow.ts;
        let head = self.head_font();
        let side = self.style.box_mm;
        trackers
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let boxes = rows
                    .iter()
                    .filter_map(|r| r.boxes.as_ref().and_then(|b| b.get(k).copied()))
                    .max()
                    .unwrap_or(0)
                    .min(BOXES_PER_ROW);
                let boxes_w = if t.write_in {
                    WRITE_IN_MM
                } else {
                    boxes as f32 * (side + 1.0)
                };
                let label = t
                    .label
                    .split_whitespace()
                    .map(|w| ts.width(w, head))
                    .fold(0.0, f32::max);
                boxes_w.max(label) + COLUMN_GAP_MM
            })
            .collect()
    }

    fn head_font(&self) -> Font {
        Font::new(FontStyle::Bold, self.style.small_size_pt, self.colors.muted)
    }

    fn name_font(&self) -> Font {
        Font::new(FontStyle::Bold, self.style.small_size_pt, self.colors.text)
    }

    fn xs(&self, columns: &Columns) -> Vec<f32> {
        let mut x = self.flow.left();
        columns
            .widths
            .iter()
            .map(|w| {
                let at = x;
                x += w;
                at
            })
            .collect()
    }

    /// Wraps each cell to its column, reporting a word that had to be cut between letters.
    fn wrap_cells(&mut self, texts: &[(&str, Font)], widths: &[f32]) -> Vec<Vec<String>> {
        let ts = self.flow.ts;
        texts
            .iter()
            .zip(widths)
            .map(|((text, font), w)| {
                let (lines, cut) = ts.wrap_checked(text, *font, w - 1.5);
                if cut {
                    self.warnings.push(format!(
                        "roster: '{text}' has a word too long for its column"
                    ));
                }
                lines
            })
            .collect()
    }

    fn table_header(&mut self, columns: &Columns) {
        let font = self.head_font();
        let xs = self.xs(columns);
        let texts: Vec<(&str, Font)> = columns.headers.iter().map(|h| (h.as_str(), font)).collect();
        let lines = self.wrap_cells(&texts, &columns.widths);
        // Sub-columns' headers stand a line lower, under their group's heading.
        let grouped = |i: usize| {
            columns
                .groups
                .iter()
                .any(|(first, count, _)| (*first..first + count).contains(&i))
        };
        let drop = if columns.groups.is_empty() { 0 } else { 1 };
        let count = lines
            .iter()
            .enumerate()
            .map(|(i, l)| l.len() + if grouped(i) { drop } else { 0 })
            .max()
            .unwrap_or(1);
        let h = count as f32 * font.line_height() + 1.6;
        let (x, y, w) = (self.flow.left(), self.flow.y, self.flow.text_width());
        for item in self.ink.band(x, y, w, h, self.colors.band) {
            self.flow.push(item);
        }
        let ts = self.flow.ts;
        let first = y + 0.8 + cap_height(font.size_pt);
        for (first_column, _, label) in &columns.groups {
            self.flow
                .push(ts.run(xs[*first_column] + 0.5, first, font, label));
        }
        for (i, cell) in lines.iter().enumerate() {
            let mut baseline = first + if grouped(i) { font.line_height() } else { 0.0 };
            for line in cell {
                self.flow.push(ts.run(xs[i] + 0.5, baseline, font, line));
                baseline += font.line_height();
            }
        }
        self.flow.y += h + 0.8;
    }

    /// One unit's row; true when it did not fit below the last and started a new page
    /// instead, for the caller to head the page's rows and set the row again.
    fn unit_row(&mut self, row: &Row, columns: &Columns, trackers: &[TrackerStyle]) -> bool {
        let ts = self.flow.ts;
        let small = self.small();
        let name_font = if row.known {
            self.name_font()
        } else {
            self.name_font().colored(self.colors.violation)
        };
        let xs = self.xs(columns);
        let mut texts: Vec<(&str, Font)> = vec![(row.name.as_str(), name_font)];
        texts.extend(row.cells.iter().map(|c| (c.as_str(), small)));
        if columns.has_cost {
            texts.push((row.cost.as_str(), small));
        }
        let lines = self.wrap_cells(&texts, &columns.widths);
        let side = self.style.box_mm;
        let box_rows = trackers
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let count = row
                    .boxes
                    .as_ref()
                    .and_then(|b| b.get(k))
                    .copied()
                    .unwrap_or(0);
                if t.write_in || count == 0 {
                    1
                } else {
                    count.div_ceil(BOXES_PER_ROW)
                }
            })
            .max()
            .unwrap_or(0);
        let boxes_h = box_rows as f32 * (side + 1.0);
        let height = lines
            .iter()
            .zip(&texts)
            .map(|(lines, (_, font))| lines.len() as f32 * font.line_height())
            .fold(boxes_h, f32::max)
            + 1.0;
        if self.flow.room() < height && !self.flow.at_column_top() {
            self.flow.new_page();
            self.table_header(columns);
            return true;
        }
        let top = self.flow.y + 0.5;
        for (i, (lines, (_, font))) in lines.iter().zip(&texts).enumerate() {
            let mut baseline = top + cap_height(small.size_pt);
            for line in lines {
                self.flow.push(ts.run(xs[i] + 0.5, baseline, *font, line));
                baseline += font.line_height();
            }
        }
        let first_tracker = xs.len() - trackers.len();
        for (k, tracker) in trackers.iter().enumerate() {
            let x = xs[first_tracker + k] + 0.5;
            match &row.boxes {
                Some(boxes) => self.tracker_cell(x, top, tracker, boxes[k]),
                None => {
                    // Off-table artillery: nothing on the table to damage.
                    let muted = small.colored(self.colors.muted);
                    let item = ts.run(x, top + cap_height(small.size_pt), muted, "—");
                    self.flow.push(item);
                }
            }
        }
        self.flow.y += height;
        self.flow.rule(self.colors.rule, 0.3);
        self.flow.y += 0.5;
        false
    }

    fn tracker_cell(&mut self, x: f32, top: f32, tracker: &TrackerStyle, count: u32) {
        let side = self.style.box_mm;
        let stroke = Stroke::solid(self.colors.text, 0.5);
        if tracker.write_in {
            self.flow.push(Item::Rect {
                x,
                y: top,
                w: WRITE_IN_MM - 1.0,
                h: side,
                fill: None,
                stroke: Some(stroke),
            });
            return;
        }
        for i in 0..count {
            let (row, col) = (i / BOXES_PER_ROW, i % BOXES_PER_ROW);
            self.flow.push(Item::Rect {
                x: x + col as f32 * (side + 1.0),
                y: top + row as f32 * (side + 1.0),
                w: side,
                h: side,
                fill: None,
                stroke: Some(stroke),
            });
        }
    }
}

/// The statistics shown as columns: the card template's table order, then any other the
/// cards have, leaving out the side, the cost (its own column) and the type (in the name's
/// cell would crowd it; it has a column like the rest).
fn stat_columns(template: &CardTemplate, lines: &[(&ForceUnit, Option<&Card>)]) -> Vec<String> {
    let mut labels: Vec<String> = Vec::new();
    let skip = |label: &str| matches!(label, "Side" | "Points");
    let named = template
        .subtitle
        .stats
        .iter()
        .filter(|s| !s.starts_with('$'))
        .chain(&template.body.stats);
    for label in named {
        if !skip(label) && !labels.contains(label) {
            labels.push(label.clone());
        }
    }
    for (_, card) in lines {
        for stat in card.map(Card::stats).unwrap_or_default() {
            if !skip(stat.label) && !labels.iter().any(|l| l == stat.label) {
                labels.push(stat.label.to_string());
            }
        }
    }
    // Only columns some unit of this force has a value for.
    labels.retain(|label| {
        lines
            .iter()
            .filter_map(|(_, c)| *c)
            .any(|c| c.stats().iter().any(|s| s.label == label))
    });
    labels
}

/// The least column width, between `from` and `to`, at which `cell` wraps into at most
/// `lines` lines (to a tenth of a millimetre); `to` when none does.
fn least_width(
    ts: crate::export::text::Typesetter,
    cell: &str,
    font: Font,
    lines: usize,
    from: f32,
    to: f32,
) -> f32 {
    let fits = |w: f32| ts.wrap(cell, font, w - 1.5).len() <= lines;
    if fits(from) || !fits(to) {
        return if fits(from) { from } else { to };
    }
    let (mut low, mut high) = (from, to);
    while high - low > 0.1 {
        let mid = (low + high) / 2.0;
        if fits(mid) {
            high = mid;
        } else {
            low = mid;
        }
    }
    high
}

/// Column widths from their least (`mins`: the widest word) and their wish (`wants`: the
/// longest value on one line) within `room`: the spare room completes the columns that need
/// least to reach their wish first (so "Medium AFV" and "Average 6+1D″" take one line each),
/// and what is left is shared among the long values (a list of special rules) by how much
/// more each wants.
fn share_out(mins: &[f32], wants: &[f32], room: f32) -> Vec<f32> {
    let mut widths = mins.to_vec();
    let mut spare = (room - mins.iter().sum::<f32>()).max(0.0);
    let mut open: Vec<usize> = (0..mins.len()).filter(|&i| wants[i] > mins[i]).collect();
    open.sort_by(|&a, &b| (wants[a] - mins[a]).total_cmp(&(wants[b] - mins[b])));
    let mut rest = Vec::new();
    for i in open {
        let need = wants[i] - mins[i];
        if rest.is_empty() && need <= spare {
            widths[i] = wants[i];
            spare -= need;
        } else {
            rest.push(i);
        }
    }
    // The long values share what is left by how much each still wants.
    let wanted: f32 = rest.iter().map(|&i| wants[i] - widths[i]).sum();
    for &i in &rest {
        widths[i] += spare * (wants[i] - widths[i]) / wanted.max(1e-3);
    }
    widths
}

/// Which statistic columns split into the template's cells: those whose every unit's value
/// splits into as many parts as the cells have headers.
fn split_columns(
    template: &CardTemplate,
    lines: &[(&ForceUnit, Option<&Card>)],
    labels: Vec<String>,
) -> Vec<StatColumn> {
    labels
        .into_iter()
        .map(|label| {
            let split = template.body.cells.get(&label).and_then(|cells| {
                let fits = lines.iter().all(|(unit, card)| {
                    let value = card
                        .map(|c| face_for(c, unit))
                        .and_then(|f| f.stat(&label).map(str::to_string));
                    value.is_some_and(|v| {
                        v.split(cells.separator.as_str()).count() == cells.headers.len()
                    })
                });
                fits.then(|| (cells.separator.clone(), cells.headers.clone()))
            });
            StatColumn { label, split }
        })
        .collect()
}

/// The rows of one unit line: one per unit, numbered when there are several.
fn rows_for(
    unit: &ForceUnit,
    card: Option<&Card>,
    face: Option<&CardFace>,
    stats: &[StatColumn],
    trackers: &[TrackerStyle],
) -> Vec<Row> {
    let name = face.map_or_else(|| unit.card.name().to_string(), |f| f.name.clone());
    let mut cells: Vec<String> = Vec::new();
    for stat in stats {
        let label = &stat.label;
        let value = face.and_then(|f| {
            if label == "Weapons" && !f.weapons.is_empty() {
                return Some(
                    f.weapons
                        .iter()
                        .map(|w| w.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                );
            }
            f.stat(label).map(str::to_string)
        });
        match (&stat.split, value) {
            (Some((separator, _)), Some(value)) => {
                cells.extend(
                    value
                        .split(separator.as_str())
                        .map(|p| p.trim().to_string()),
                );
            }
            (_, value) => {
                cells.push(value.unwrap_or_else(|| "—".to_string()));
                cells.extend(std::iter::repeat_n(String::new(), stat.width() - 1));
            }
        }
    }
    let cost = card
        .and_then(|c| cost_of(c, unit))
        .map_or(String::new(), |c| c.to_string());
    let boxes = match face {
        Some(f) if !f.tracks_damage => None,
        _ => Some(
            trackers
                .iter()
                .map(|t| face.map_or(t.boxes.unwrap_or(0), |f| tracker_boxes(t, f)))
                .collect(),
        ),
    };
    let card_name = if card.is_some() {
        name
    } else {
        format!("{name} (unknown card)")
    };
    (1..=unit.count.max(1))
        .map(|copy| Row {
            name: match unit.count {
                0 | 1 => card_name.clone(),
                n => format!("{card_name} {copy}/{n}"),
            },
            cells: cells.clone(),
            cost: cost.clone(),
            boxes: boxes.clone(),
            known: card.is_some(),
        })
        .collect()
}

/// The statistics as printed columns, a split one's cells each a column: the column labels,
/// and each split statistic as (its first column counting the unit's as 0, how many, label).
fn printed_columns(stats: &[StatColumn]) -> (Vec<String>, Vec<(usize, usize, String)>) {
    let mut labels: Vec<String> = Vec::new();
    let mut groups = Vec::new();
    for stat in stats {
        match &stat.split {
            Some((_, headers)) => {
                groups.push((1 + labels.len(), headers.len(), stat.label.clone()));
                labels.extend(headers.iter().cloned());
            }
            None => labels.push(stat.label.clone()),
        }
    }
    (labels, groups)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 37: short values wrapped ("Medium" / "AFV") while a list of special rules took
    /// the room; now a column whose value fits with a little room has it whole.
    #[test]
    fn spare_room_completes_the_short_columns_first() {
        let mins = [10.0, 10.0, 10.0];
        let wants = [14.0, 12.0, 60.0];
        let widths = share_out(&mins, &wants, 50.0);
        assert_eq!(&widths[..2], [14.0, 12.0]);
        assert!((widths.iter().sum::<f32>() - 50.0).abs() < 1e-3);
        // Room for the shortest wish only: the others share what is left by their wish.
        let widths = share_out(&mins, &wants, 33.0);
        assert_eq!(widths[1], 12.0);
        assert!(widths[2] > widths[0] && (widths.iter().sum::<f32>() - 33.0).abs() < 1e-3);
    }
}
