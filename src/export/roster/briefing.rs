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

/// Room for the first column of a briefing's unit table (a unit's disruption boxes), and
/// for each later one (a box under its header).
const FIRST_COLUMN_MM: f32 = 30.0;
const NEXT_COLUMN_MM: f32 = 22.0;

/// Where column `i` starts, from the end of the unit names.
fn column_offset(i: usize) -> f32 {
    match i {
        0 => 0.0,
        i => FIRST_COLUMN_MM + NEXT_COLUMN_MM * (i - 1) as f32,
    }
}

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
        self.unit_table_of_boxes(force, &briefing.unit_columns);
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

    /// One row per unit on the table, with each column's boxes.
    fn unit_table_of_boxes(&mut self, force: &Force, columns: &[(&str, UnitBoxes)]) {
        let body = self.body();
        let small = self.small();
        let side = self.style.box_mm;
        let step = side + 1.2;
        let (x, w) = (self.flow.left(), self.flow.text_width());
        let row_h = side + 1.6;
        self.flow.y += 1.0;
        self.flow.ensure(row_h * 3.0);
        let head = Font::new(FontStyle::Bold, self.style.small_size_pt, self.colors.muted);
        let header_baseline = self.flow.y + cap_height(head.size_pt);
        let name_w = w * 0.5;
        let offsets: Vec<f32> = (0..columns.len())
            .map(|i| name_w + column_offset(i))
            .collect();
        let headers = columns.iter().zip(&offsets).map(|((t, _), dx)| (*t, *dx));
        for (text, dx) in std::iter::once(("Unit", 0.0)).chain(headers) {
            let item = self.flow.ts.run(x + dx, header_baseline, head, text);
            self.flow.push(item);
        }
        self.flow.y += head.line_height() + 0.8;
        let cards = resolve_cards(force);
        for (unit, card) in force.units.iter().zip(cards) {
            let boxes: Vec<u32> = columns
                .iter()
                .map(|(_, boxes)| boxes_of(*boxes, card))
                .collect();
            for copy in 1..=unit.count {
                self.flow.ensure(row_h);
                let top = self.flow.y;
                let name = match unit.count {
                    1 => card.map_or(unit.card.name(), Card::name).to_string(),
                    n => format!("{} {copy}/{n}", card.map_or(unit.card.name(), Card::name)),
                };
                let baseline = top + side / 2.0 + cap_height(body.size_pt) / 2.0;
                let name = self.flow.ts.ellipsize(&name, body, name_w * 0.6);
                let item = self.flow.ts.run(x, baseline, body, &name);
                self.flow.push(item);
                if let Some(group) = &unit.group {
                    let gx = x + name_w * 0.62;
                    let group = self.flow.ts.ellipsize(group, small, name_w * 0.37);
                    let item =
                        self.flow
                            .ts
                            .run(gx, baseline, small.colored(self.colors.muted), &group);
                    self.flow.push(item);
                }
                for (count, dx) in boxes.iter().zip(&offsets) {
                    for i in 0..*count {
                        self.tick_box(x + dx + i as f32 * step, top);
                    }
                }
                self.flow.y += row_h;
                self.flow.rule(self.colors.rule, 0.25);
                self.flow.y += 0.4;
            }
        }
    }
}
