//! The Lorraine briefing on a roster: the battle group's numbers, and tick boxes for army
//! morale, staff orders and each unit's disruption, to track the battle on paper.

use crate::rules::Card;
use crate::rules::Force;
use crate::rules::armour_battles::BattleGroup;
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

    /// One row per unit on the table: its disruption boxes (its cohesion) and a box for
    /// suppression.
    fn disruption_table(&mut self, force: &Force) {
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
        for (text, dx) in [
            ("Unit", 0.0),
            ("Disruption", name_w),
            ("Suppressed", name_w + 30.0),
            ("Dispersed", name_w + 52.0),
        ] {
            let item = self.flow.ts.run(x + dx, header_baseline, head, text);
            self.flow.push(item);
        }
        self.flow.y += head.line_height() + 0.8;
        let cards = resolve_cards(force);
        for (unit, card) in force.units.iter().zip(cards) {
            let cohesion = match card {
                Some(Card::ArmourBattles(c)) => u32::from(c.cohesion),
                _ => 3,
            };
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
                for i in 0..cohesion {
                    self.tick_box(x + name_w + i as f32 * step, top);
                }
                self.tick_box(x + name_w + 30.0, top);
                self.tick_box(x + name_w + 52.0, top);
                self.flow.y += row_h;
                self.flow.rule(self.colors.rule, 0.25);
                self.flow.y += 0.4;
            }
        }
    }
}
