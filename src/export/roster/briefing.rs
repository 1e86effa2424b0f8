//! A briefing on a roster (a Lorraine battle group's): its numbers, and tick boxes for what
//! the ruleset tracks — army morale, staff orders, each unit's disruption — to play the
//! battle on paper. The content is the ruleset's ([`Briefing`]); the layout is here.

use crate::rules::ruleset::{Briefing, UnitBoxes};
use crate::rules::validation::resolve_cards;
use crate::rules::{Card, Force};

use super::Roster;
use crate::export::display::{Item, Stroke};
use crate::export::fonts::FontStyle;
use crate::export::text::{Font, cap_height};

/// How many boxes `card` gets in a column.
fn boxes_of(boxes: UnitBoxes, card: Option<&Card>) -> u32 {
    match boxes {
        UnitBoxes::Fixed(n) => n,
        UnitBoxes::FromStat(label, default) => card
            .and_then(|c| c.stats().into_iter().find(|s| s.label == label))
            .and_then(|s| {
                s.value
                    .split(|c: char| !c.is_ascii_digit())
                    .next()?
                    .parse()
                    .ok()
            })
            .unwrap_or(default),
    }
}

impl Roster<'_> {
    /// The briefing's paragraphs, its rows of tick boxes and the per-unit table.
    pub(super) fn briefing(&mut self, force: &Force, briefing: &Briefing) {
        self.heading(&format!("Briefing — {}", briefing.title));
        let w = self.flow.text_width();
        let body = self.body();
        let bold = self.font(FontStyle::Bold, self.style.body_size_pt);
        for (strong, text) in &briefing.paragraphs {
            self.flow
                .paragraph(0.0, w, if *strong { bold } else { body }, text);
        }
        self.flow.y += 2.0;
        for (label, count) in &briefing.tallies {
            self.box_row(label, *count);
        }
        self.unit_table_of_boxes(force, briefing);
    }

    /// A label and `count` tick boxes, wrapping onto more rows if needed.
    fn box_row(&mut self, label: &str, count: u32) {
        let font = self.font(FontStyle::Bold, self.style.body_size_pt);
        let side = self.style.box_mm;
        let step = side + 1.2;
        let label_w = 38.0;
        let (x, w) = (self.flow.left(), self.flow.text_width());
        let per_row = ((w - label_w) / step).floor().max(1.0) as u32;
        let rows = count.div_ceil(per_row).max(1);
        self.flow.ensure(rows as f32 * step);
        let top = self.flow.y;
        let item = self.flow.ts.run(
            x,
            top + side / 2.0 + cap_height(font.size_pt) / 2.0,
            font,
            label,
        );
        self.flow.push(item);
        for i in 0..count {
            self.tick_box(
                x + label_w + (i % per_row) as f32 * step,
                top + (i / per_row) as f32 * step,
            );
        }
        self.flow.y += rows as f32 * step + 1.0;
    }

    fn tick_box(&mut self, x: f32, y: f32) {
        let side = self.style.box_mm;
        self.flow.push(Item::Rect {
            x,
            y,
            w: side,
            h: side,
            fill: None,
            stroke: Some(Stroke::solid(self.colors.text, 0.6)),
        });
    }

    /// One row per unit on the table with each of the briefing's columns of boxes; a unit
    /// that takes no damage on the table says so instead (the briefing's words). Names and
    /// companies wrap in their columns, and the column headers repeat on every page the
    /// table runs onto.
    fn unit_table_of_boxes(&mut self, force: &Force, briefing: &Briefing) {
        let body = self.body();
        let small = self.small().colored(self.colors.muted);
        let head = Font::new(FontStyle::Bold, self.style.small_size_pt, self.colors.muted);
        let side = self.style.box_mm;
        let step = side + 1.2;
        let ts = self.flow.ts;
        let (x, w) = (self.flow.left(), self.flow.text_width());
        let rows = unit_rows(force, &briefing.unit_columns);
        // Each column as wide as its most boxes or its header.
        let widths: Vec<f32> = briefing
            .unit_columns
            .iter()
            .enumerate()
            .map(|(i, (label, boxes))| {
                let most = rows
                    .iter()
                    .filter_map(|r| r.boxes.as_ref()?.get(i).copied())
                    .max()
                    .unwrap_or_else(|| boxes_of(*boxes, None));
                (most as f32 * step).max(ts.width(label, head)) + 4.0
            })
            .collect();
        let boxes_w: f32 = widths.iter().sum();
        let name_w = (w - boxes_w) * 0.58;
        let group_w = w - boxes_w - name_w;
        let group_x = x + name_w;
        let mut xs = Vec::new();
        let mut at = x + name_w + group_w;
        for cw in &widths {
            xs.push(at);
            at += cw;
        }
        let columns = &briefing.unit_columns;
        let header = |flow: &mut crate::export::flow::SheetFlow| {
            let baseline = flow.y + cap_height(head.size_pt);
            let mut items = vec![
                ts.run(x, baseline, head, "Unit"),
                ts.run(group_x, baseline, head, "Company"),
            ];
            for ((label, _), cx) in columns.iter().zip(&xs) {
                items.push(ts.run(*cx, baseline, head, label));
            }
            for item in items {
                flow.push(item);
            }
            flow.y += head.line_height() + 0.8;
        };
        self.flow.y += 1.0;
        self.flow.ensure(head.line_height() + 3.0 * (side + 2.0));
        header(&mut self.flow);
        for row in &rows {
            let names = self.wrap_column(&row.name, body, name_w - 2.0, "unit");
            let groups = match &row.group {
                Some(group) => self.wrap_column(group, small, group_w - 2.0, "company"),
                None => Vec::new(),
            };
            let text_h = (names.len() as f32 * body.line_height())
                .max(groups.len() as f32 * small.line_height());
            let row_h = text_h.max(side) + 1.2;
            if self.flow.room() < row_h {
                self.flow.new_page();
                header(&mut self.flow);
            }
            let top = self.flow.y;
            let first = top + side / 2.0 + cap_height(body.size_pt) / 2.0;
            for (i, line) in names.iter().enumerate() {
                let item = ts.run(x, first + i as f32 * body.line_height(), body, line);
                self.flow.push(item);
            }
            for (i, line) in groups.iter().enumerate() {
                let item = ts.run(group_x, first + i as f32 * small.line_height(), small, line);
                self.flow.push(item);
            }
            match &row.boxes {
                Some(boxes) => {
                    for (count, cx) in boxes.iter().zip(&xs) {
                        for i in 0..*count {
                            self.tick_box(cx + i as f32 * step, top);
                        }
                    }
                }
                None => {
                    if let Some(&cx) = xs.first() {
                        let item = ts.run(cx, first, small, briefing.untracked);
                        self.flow.push(item);
                    }
                }
            }
            self.flow.y += row_h;
            self.flow.rule(self.colors.rule, 0.25);
            self.flow.y += 0.4;
        }
    }

    /// `text` wrapped to `width`, a word too long for it reported.
    fn wrap_column(&mut self, text: &str, font: Font, width: f32, what: &str) -> Vec<String> {
        let (lines, cut) = self.flow.ts.wrap_checked(text, font, width);
        if cut {
            self.warnings.push(format!(
                "roster: {what} '{text}' has a word too long for its column"
            ));
        }
        lines
    }
}

/// One row of a briefing's unit table.
struct UnitRow {
    /// "Panther Ausf G 2/2".
    name: String,
    group: Option<String>,
    /// Boxes under each column; `None` for a unit that takes no damage on the table.
    boxes: Option<Vec<u32>>,
}

/// A row per unit on the table, numbered within its line.
fn unit_rows(force: &Force, columns: &[(&str, UnitBoxes)]) -> Vec<UnitRow> {
    let mut rows = Vec::new();
    for (unit, card) in force.units.iter().zip(resolve_cards(force)) {
        let name = card.map_or(unit.card.name(), Card::name);
        let boxes = card.is_none_or(|c| c.data().tracks_damage()).then(|| {
            columns
                .iter()
                .map(|(_, boxes)| boxes_of(*boxes, card))
                .collect::<Vec<u32>>()
        });
        for copy in 1..=unit.count {
            rows.push(UnitRow {
                name: match unit.count {
                    1 => name.to_string(),
                    n => format!("{name} {copy}/{n}"),
                },
                group: unit.group.clone(),
                boxes: boxes.clone(),
            });
        }
    }
    rows
}
