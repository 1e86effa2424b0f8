//! The roster's unit table: one row per unit on the table ("Puma 2/3"), the statistics the
//! ruleset plays with as columns, and tick boxes for what the ruleset tracks on each unit
//! (disruption, hits, hit points, pins, stands lost). The column headers repeat at the top
//! of every page the table runs onto.

use crate::rules::validation::resolve_cards;
use crate::rules::{Card, Force, ForceUnit};

use super::{Roster, cost_of};
use crate::export::cards::{CardFace, face_for};
use crate::export::display::{Item, Stroke};
use crate::export::fonts::FontStyle;
use crate::export::template::{CardTemplate, TrackerStyle};
use crate::export::text::{Font, cap_height};
use crate::export::{Progress, Stage};

/// Most boxes side by side in the tracking column before they wrap to another row.
const BOXES_PER_ROW: u32 = 6;

/// A write-in field's width, for tracking large numbers such as hit points.
const WRITE_IN_MM: f32 = 16.0;

/// One printed row: a unit on the table.
struct Row {
    name: String,
    cells: Vec<String>,
    cost: String,
    boxes: Option<u32>,
    known: bool,
}

/// The table's columns: their headers and widths.
struct Columns {
    has_cost: bool,
    widths: Vec<f32>,
    /// Headers as printed: "Unit", the statistics, the cost, the tracker's label.
    headers: Vec<String>,
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
        let tracker = template.tracker.as_ref().filter(|_| track);
        let cards = resolve_cards(force);
        let lines: Vec<(&ForceUnit, Option<&Card>)> = force.units.iter().zip(cards).collect();
        let stats = stat_columns(template, &lines);
        let mut groups: Vec<(Option<&str>, Vec<Row>)> = Vec::new();
        for (unit, card) in &lines {
            let face = card.map(|c| face_for(c, unit));
            let rows = rows_for(unit, *card, face.as_ref(), &stats, tracker);
            let group = unit.group.as_deref();
            match groups.last_mut() {
                Some((g, existing)) if *g == group => existing.extend(rows),
                _ => groups.push((group, rows)),
            }
        }
        let columns = self.columns(stats, cost_head, tracker, &groups);
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
                let font = Font::new(FontStyle::Bold, self.style.body_size_pt, self.accent);
                self.flow.y += 1.0;
                if self.flow.room() < font.line_height() * 2.5 {
                    self.flow.new_page();
                    self.table_header(&columns);
                }
                self.flow.line(0.0, font, name);
            }
            for row in rows {
                self.unit_row(row, &columns, tracker);
            }
            done += 1;
            progress(Progress {
                stage: Stage::Layout,
                done: done.min(total),
                total,
            });
        }
    }

    fn columns(
        &self,
        stats: Vec<String>,
        cost_head: &str,
        tracker: Option<&TrackerStyle>,
        groups: &[(Option<&str>, Vec<Row>)],
    ) -> Columns {
        let ts = self.flow.ts;
        let small = self.small();
        let head = self.head_font();
        let side = self.style.box_mm;
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
        let gap = 2.0;
        let tracker_w = tracker.map_or(0.0, |t| {
            let boxes = rows
                .iter()
                .filter_map(|r| r.boxes)
                .max()
                .unwrap_or(0)
                .min(BOXES_PER_ROW);
            let boxes_w = if t.write_in {
                WRITE_IN_MM
            } else {
                boxes as f32 * (side + 1.0)
            };
            boxes_w.max(ts.width(&t.label, head)) + gap
        });
        // A cost that is itself a statistic (Belle Epoque stands) is not printed twice.
        let cost_w = if cost_head.is_empty()
            || stats.iter().any(|s| s.eq_ignore_ascii_case(cost_head))
        {
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
        let mut mins = vec![unit_min.max(unit_natural * 0.6)];
        let mut wants = vec![unit_natural];
        for (i, label) in stats.iter().enumerate() {
            let values = &mut rows.iter().map(|r| r.cells[i].as_str());
            let min = widest_word(values, small)
                .max(widest_word(&mut [label.as_str()].into_iter(), head))
                + gap;
            let want = natural(&mut rows.iter().map(|r| r.cells[i].as_str()), small)
                .max(ts.width(label, head))
                + gap;
            mins.push(min);
            wants.push(want.max(min));
        }
        let room = width - tracker_w - cost_w;
        let min_sum: f32 = mins.iter().sum();
        let extra_wanted: f32 = wants.iter().zip(&mins).map(|(w, m)| w - m).sum();
        let spare = (room - min_sum).max(0.0);
        let mut widths: Vec<f32> = mins
            .iter()
            .zip(&wants)
            .map(|(m, w)| {
                let share = if extra_wanted > 0.0 {
                    (w - m) / extra_wanted
                } else {
                    0.0
                };
                m + (spare * share).min(w - m)
            })
            .collect();
        // Whatever is still left is shared out evenly, so no column looks starved.
        let used: f32 = widths.iter().sum();
        let each = (room - used).max(0.0) / widths.len().max(1) as f32;
        for width in &mut widths {
            *width += each;
        }
        let mut headers = vec!["Unit".to_string()];
        headers.extend(stats);
        if cost_w > 0.0 {
            widths.push(cost_w);
            headers.push(cost_head.to_string());
        }
        if let Some(t) = tracker {
            widths.push(tracker_w);
            headers.push(t.label.clone());
        }
        Columns {
            has_cost: cost_w > 0.0,
            widths,
            headers,
        }
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

    fn table_header(&mut self, columns: &Columns) {
        let ts = self.flow.ts;
        let font = self.head_font();
        let xs = self.xs(columns);
        let lines: Vec<Vec<String>> = columns
            .headers
            .iter()
            .zip(&columns.widths)
            .map(|(h, w)| ts.wrap(h, font, w - 1.5))
            .collect();
        let count = lines.iter().map(Vec::len).max().unwrap_or(1);
        let h = count as f32 * font.line_height() + 1.6;
        let (x, y, w) = (self.flow.left(), self.flow.y, self.flow.text_width());
        self.flow.push(Item::Rect {
            x,
            y,
            w,
            h,
            fill: Some(self.colors.band),
            stroke: None,
        });
        for (i, cell) in lines.iter().enumerate() {
            let mut baseline = y + 0.8 + cap_height(font.size_pt);
            for line in cell {
                self.flow.push(ts.run(xs[i] + 0.5, baseline, font, line));
                baseline += font.line_height();
            }
        }
        self.flow.y += h + 0.8;
    }

    fn unit_row(&mut self, row: &Row, columns: &Columns, tracker: Option<&TrackerStyle>) {
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
        let wrapped: Vec<(Vec<String>, Font)> = texts
            .iter()
            .zip(&columns.widths)
            .map(|((text, font), w)| (ts.wrap(text, *font, w - 1.5), *font))
            .collect();
        let side = self.style.box_mm;
        let box_rows = row.boxes.map_or(0, |n| n.div_ceil(BOXES_PER_ROW).max(1));
        let boxes_h = if tracker.is_some() {
            box_rows as f32 * (side + 1.0)
        } else {
            0.0
        };
        let height = wrapped
            .iter()
            .map(|(lines, font)| lines.len() as f32 * font.line_height())
            .fold(boxes_h, f32::max)
            + 1.4;
        if self.flow.room() < height {
            self.flow.new_page();
            self.table_header(columns);
        }
        let top = self.flow.y + 0.5;
        for (i, (lines, font)) in wrapped.iter().enumerate() {
            let mut baseline = top + cap_height(small.size_pt);
            for line in lines {
                self.flow.push(ts.run(xs[i] + 0.5, baseline, *font, line));
                baseline += font.line_height();
            }
        }
        if let (Some(t), Some(&x)) = (tracker, xs.last()) {
            self.tracker_cell(x + 0.5, top, t, row.boxes.unwrap_or(0));
        }
        self.flow.y += height;
        self.flow.rule(self.colors.rule, 0.3);
        self.flow.y += 0.6;
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

/// The rows of one unit line: one per unit, numbered when there are several.
fn rows_for(
    unit: &ForceUnit,
    card: Option<&Card>,
    face: Option<&CardFace>,
    stats: &[String],
    tracker: Option<&TrackerStyle>,
) -> Vec<Row> {
    let name = face.map_or_else(|| unit.card.name().to_string(), |f| f.name.clone());
    let cells: Vec<String> = stats
        .iter()
        .map(|label| {
            face.and_then(|f| {
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
            })
            .unwrap_or_else(|| "—".to_string())
        })
        .collect();
    let cost = card
        .and_then(|c| cost_of(c, unit))
        .map_or(String::new(), |c| c.to_string());
    let boxes = tracker.map(|t| {
        t.boxes
            .or_else(|| {
                t.boxes_from
                    .as_deref()
                    .and_then(|label| face.and_then(|f| f.stat(label)))
                    .and_then(|v| {
                        v.chars()
                            .take_while(char::is_ascii_digit)
                            .collect::<String>()
                            .parse()
                            .ok()
                    })
            })
            .unwrap_or(0)
            .min(40)
    });
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
            boxes,
            known: card.is_some(),
        })
        .collect()
}
