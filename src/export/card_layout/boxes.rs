//! The row of boxed statistics under a card's header: the numbers a player looks up most
//! (Reaction, AT, Cohesion; Morale and DV; Tier, hit points, accuracy), each large in a box
//! under its label, as on a bought card. The template names them; a card that lacks one
//! leaves its box out, and a boxed statistic is not repeated in the rows below.

use super::{Flow, Front};
use crate::export::display::{Item, Stroke};
use crate::export::fonts::FontStyle;
use crate::export::ink::Ink;
use crate::export::text::{Font, MIN_STAT_PT, MIN_TEXT_PT, NO_BREAK, cap_height};

/// Space between neighbouring boxes, at scale 1.
const GAP_MM: f32 = 1.4;

/// Space inside a box between its edge and its text, at scale 1.
const INSET_MM: f32 = 0.9;

/// The least share of its full size a value shrinks to before it takes a second line.
const ONE_LINE_SHARE: f32 = 0.7;

/// Lines a boxed value may take ("Trained" / "(BS 3)") before it shrinks further.
const VALUE_LINES: usize = 2;

impl Front<'_> {
    /// True when the template boxes the statistic `label` and the face has it.
    pub(super) fn boxed(&self, label: &str) -> bool {
        self.t
            .boxes
            .as_ref()
            .is_some_and(|b| b.stats.iter().any(|s| s == label))
            && self.face.stat(label).is_some()
    }

    /// True when the statistic `label` is the project's example value, not the book's (on a
    /// card the book has; a whole example card says so once).
    fn example(&self, label: &str) -> bool {
        self.face.examples.iter().any(|e| e == label) && !self.face.example_card
    }

    /// The label printed beside a row, with the example mark when the value is the
    /// project's, not the book's (kept on the line of the label's last word).
    pub(super) fn marked_label(&self, label: &str, shown: &str) -> String {
        if self.example(label) {
            format!("{shown}{NO_BREAK}†")
        } else {
            shown.to_string()
        }
    }

    /// The boxes as the first block of the content strip from `top`; returns their bottom.
    pub(super) fn boxes(&self, flow: &mut Flow, top: f32) -> f32 {
        let Some(style) = &self.t.boxes else {
            return top;
        };
        // (label, value, the project's example): an example is marked in the box's corner,
        // so the mark never wraps away from a label that fills its box.
        let stats: Vec<(String, &str, bool)> = style
            .stats
            .iter()
            .filter_map(|label| {
                let value = self.face.stat(label)?;
                let shown = style.labels.get(label).unwrap_or(label);
                Some((shown.clone(), value, self.example(label)))
            })
            .collect();
        if stats.is_empty() {
            return top;
        }
        let frame = self.frame;
        let pad = self.pad();
        let gap = GAP_MM * self.scale;
        let inset = INSET_MM * self.scale;
        let count = stats.len() as f32;
        let box_w = (frame.w - 2.0 * pad - (count - 1.0) * gap) / count;
        let text_w = box_w - 2.0 * inset;
        let label_font = self.font(FontStyle::Regular, style.label_size_pt, self.colors.label);
        let value_font = Font::new(
            FontStyle::Bold,
            (style.value_size_pt * self.scale).max(MIN_STAT_PT),
            self.colors.text,
        );
        // One size for the labels: the largest at which each takes one line ("Damage
        // value", "Reactivity †").
        let label_size = stats
            .iter()
            .map(|(label, ..)| self.ts.fit_size(label, label_font, MIN_TEXT_PT, text_w, 1))
            .fold(label_font.size_pt, f32::min);
        let label_font = label_font.sized(label_size);
        // Each value as large as its box allows on one line, down to a share of the full
        // size; a longer one ("Trained (BS 3)") takes two lines.
        let cells: Vec<(Vec<String>, Vec<String>, Font)> = stats
            .iter()
            .map(|(label, value, _)| {
                let one_line = (value_font.size_pt * ONE_LINE_SHARE).max(MIN_STAT_PT);
                let size = self.ts.fit_size(value, value_font, one_line, text_w, 1);
                let size = if self.ts.width(value, value_font.sized(size)) <= text_w {
                    size
                } else {
                    self.ts
                        .fit_size(value, value_font, MIN_STAT_PT, text_w, VALUE_LINES)
                };
                let font = value_font.sized(size);
                (
                    self.wrap(label, label_font, text_w),
                    self.wrap(value, font, text_w),
                    font,
                )
            })
            .collect();
        let label_lines = cells.iter().map(|(l, ..)| l.len()).max().unwrap_or(1);
        let value_h = cells
            .iter()
            .map(|(_, v, font)| v.len() as f32 * font.line_height())
            .fold(0.0, f32::max);
        let y = top + 0.4 * self.scale;
        // The example mark stands in the boxes' top corner on a line of its own, so it never
        // crowds a label that fills its box; every box of the row keeps the line.
        let mark_font = Font {
            color: self.colors.label,
            ..label_font
        };
        let mark_h = if stats.iter().any(|(.., example)| *example) {
            cap_height(mark_font.size_pt) + 0.3
        } else {
            0.0
        };
        let label_h = label_lines as f32 * label_font.line_height();
        let height = inset + mark_h + label_h + 0.3 + value_h + inset;
        let bottom = y + height;
        for (k, ((label, value, value_font), (.., example))) in cells.iter().zip(&stats).enumerate()
        {
            let value_font = *value_font;
            let x = frame.x + pad + k as f32 * (box_w + gap);
            if self.style.ink == Ink::Full {
                flow.push(
                    bottom,
                    Ink::Full.panel(x, y, box_w, height, self.colors.panel),
                );
            }
            flow.push(
                bottom,
                Item::Rect {
                    x,
                    y,
                    w: box_w,
                    h: height,
                    fill: None,
                    stroke: Some(Stroke::solid(self.colors.accent, 0.6)),
                },
            );
            if *example {
                let mark_w = self.ts.width("†", mark_font);
                let baseline = y + inset + cap_height(mark_font.size_pt);
                flow.push(
                    bottom,
                    self.ts
                        .run(x + box_w - inset - mark_w, baseline, mark_font, "†"),
                );
            }
            let centre = x + box_w / 2.0;
            let mut baseline = y + inset + mark_h + cap_height(label_font.size_pt);
            for line in label {
                flow.push(bottom, self.centred(centre, baseline, label_font, line));
                baseline += label_font.line_height();
            }
            // Values sit at the bottom of their box, so one-line values line up.
            let mut baseline = bottom - inset - value.len() as f32 * value_font.line_height()
                + cap_height(value_font.size_pt)
                + (value_font.line_height() - cap_height(value_font.size_pt)) * 0.35;
            for line in value {
                flow.push(bottom, self.centred(centre, baseline, value_font, line));
                baseline += value_font.line_height();
            }
        }
        flow.may_break(bottom);
        bottom + 0.4 * self.scale
    }

    fn centred(&self, centre: f32, baseline: f32, font: Font, text: &str) -> Item {
        let width = self.ts.width(text, font);
        self.ts.run(centre - width / 2.0, baseline, font, text)
    }
}
