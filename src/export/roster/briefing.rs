//! The Lorraine briefing on a roster: the battle group's numbers, and tick boxes for army
//! morale, staff orders and each unit's disruption, to track the battle on paper.

use crate::rules::Card;
use crate::rules::Force;
use crate::rules::armour_battles::{BattleGroup, UnitKind};
use crate::rules::validation::resolve_cards;

use super::Roster;
use crate::export::display::{Item, Stroke};
use crate::export::fonts::FontStyle;
use crate::export::text::{Font, cap_height};

impl Roster<'_> {
    /// The battle group's briefing numbers with tick boxes for army morale, staff orders and
    /// each unit's disruption.
    pub(super) fn briefing(&mut self, force: &Force, group: &BattleGroup) {
        self.heading(&format!("Briefing — {}", group.title()));
        let w = self.flow.text_width();
        let body = self.body();
        let bold = self.font(FontStyle::Bold, self.style.body_size_pt);
        self.flow.paragraph(
            0.0,
            w,
            body,
            &format!("{} · {} · {}", group.mission, group.time, group.place),
        );
        let mut numbers = vec![
            ("Units", group.units.to_string()),
            ("Command dice", group.command_dice.to_string()),
            (
                "Staff orders",
                format!(
                    "{} (store up to {})",
                    group.staff_orders, group.command_dice
                ),
            ),
            ("Rally dice", group.rally_dice.to_string()),
        ];
        if let Some(dice) = group.artillery_response_dice {
            numbers.push(("Artillery response dice", dice.to_string()));
        }
        numbers.push(("Army morale", group.army_morale.to_string()));
        let line = numbers
            .iter()
            .map(|(label, value)| format!("{label} {value}"))
            .collect::<Vec<_>>()
            .join(" · ");
        self.flow.paragraph(0.0, w, bold, &line);
        self.flow.paragraph(
            0.0,
            w,
            body,
            &format!("First pulse: {}.", group.first_pulse.label()),
        );
        self.flow
            .paragraph(0.0, w, body, &format!("Victory: {}", group.victory()));
        let deployments: Vec<String> = group
            .companies
            .iter()
            .map(|c| format!("{}: {}", c.name, c.deployment.label()))
            .collect();
        self.flow.paragraph(
            0.0,
            w,
            body,
            &format!("Deployment — {}.", deployments.join("; ")),
        );
        self.flow.y += 2.0;
        self.box_row("Army morale", group.army_morale);
        self.box_row("Staff orders held", group.command_dice);
        self.disruption_table(force);
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

    /// One row per unit on the table: its disruption boxes (its cohesion) and boxes for
    /// suppressed and dispersed; off-table artillery, which nothing on the table can
    /// disrupt, says so instead. Names and companies wrap in their columns, and the column
    /// headers repeat on every page the table runs onto.
    fn disruption_table(&mut self, force: &Force) {
        let body = self.body();
        let small = self.small().colored(self.colors.muted);
        let head = Font::new(FontStyle::Bold, self.style.small_size_pt, self.colors.muted);
        let side = self.style.box_mm;
        let step = side + 1.2;
        let ts = self.flow.ts;
        let (x, w) = (self.flow.left(), self.flow.text_width());
        let rows = disruption_rows(force);
        let most = rows.iter().filter_map(|r| r.cohesion).max().unwrap_or(3);
        let box_column =
            |label: &str, boxes: u32| (boxes as f32 * step).max(ts.width(label, head)) + 4.0;
        let columns = [
            ("Disruption", box_column("Disruption", most)),
            ("Suppressed", box_column("Suppressed", 1)),
            ("Dispersed", box_column("Dispersed", 1)),
        ];
        let boxes_w: f32 = columns.iter().map(|(_, cw)| cw).sum();
        let name_w = (w - boxes_w) * 0.58;
        let group_w = w - boxes_w - name_w;
        let group_x = x + name_w;
        let mut xs = Vec::new();
        let mut at = x + name_w + group_w;
        for (_, cw) in &columns {
            xs.push(at);
            at += cw;
        }
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
            let row_h = text_h.max(side) + 1.6;
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
            match row.cohesion {
                Some(cohesion) => {
                    for i in 0..cohesion {
                        self.tick_box(xs[0] + i as f32 * step, top);
                    }
                    self.tick_box(xs[1], top);
                    self.tick_box(xs[2], top);
                }
                None => {
                    let item = ts.run(xs[0], first, small, "off table: never disrupted");
                    self.flow.push(item);
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

/// One row of the disruption table.
struct DisruptionRow {
    /// "Panther Ausf G 2/2".
    name: String,
    group: Option<String>,
    /// Disruption boxes; `None` for off-table artillery.
    cohesion: Option<u32>,
}

/// A row per unit on the table, numbered within its line.
fn disruption_rows(force: &Force) -> Vec<DisruptionRow> {
    let mut rows = Vec::new();
    for (unit, card) in force.units.iter().zip(resolve_cards(force)) {
        let name = card.map_or(unit.card.name(), Card::name);
        let cohesion = match card {
            Some(Card::ArmourBattles(c)) if c.kind == UnitKind::OffTableArtillery => None,
            Some(Card::ArmourBattles(c)) => Some(u32::from(c.cohesion)),
            _ => Some(3),
        };
        for copy in 1..=unit.count {
            rows.push(DisruptionRow {
                name: match unit.count {
                    1 => name.to_string(),
                    n => format!("{name} {copy}/{n}"),
                },
                group: unit.group.clone(),
                cohesion,
            });
        }
    }
    rows
}
