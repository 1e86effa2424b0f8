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

/// The size of a value's bracketed alternative beside its main part, as a share of the full
/// size ("(5D)" after "6D").
const NOTE_SHARE: f32 = 0.55;

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
        // size; a value with a bracketed alternative ("6D (5D)") keeps its main part large and
        // sets the bracket smaller beside it; a longer one ("Trained (BS 3)") takes two lines.
        let cells: Vec<(Vec<String>, BoxedValue)> = stats
            .iter()
            .map(|(label, value, _)| {
                (
                    self.wrap(label, label_font, text_w),
                    self.boxed_value(value, value_font, text_w),
                )
            })
            .collect();
        let label_lines = cells.iter().map(|(l, _)| l.len()).max().unwrap_or(1);
        let value_h = cells
            .iter()
            .map(|(_, v)| v.lines.len() as f32 * v.font.line_height())
            .fold(0.0, f32::max);
        // The room under the row's last baseline: the largest value's, so all line up.
        let descent = cells
            .iter()
            .map(|(_, v)| (v.font.line_height() - cap_height(v.font.size_pt)) * 0.65)
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
        for (k, ((label, value), (.., example))) in cells.iter().zip(&stats).enumerate() {
            let value_font = value.font;
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
            // Values sit at the bottom of their box on one baseline, whatever their size.
            let mut baseline = bottom
                - inset
                - descent
                - (value.lines.len() as f32 - 1.0) * value_font.line_height();
            for line in &value.lines {
                match &value.note {
                    Some((note, note_font)) => {
                        let main_w = self.ts.width(line, value_font);
                        let note_w = self.ts.width(note, *note_font);
                        let left = centre - (main_w + note_w) / 2.0;
                        flow.push(bottom, self.ts.run(left, baseline, value_font, line));
                        let note_x = left + main_w;
                        flow.push(bottom, self.ts.run(note_x, baseline, *note_font, note));
                    }
                    None => flow.push(bottom, self.centred(centre, baseline, value_font, line)),
                }
                baseline += value_font.line_height();
            }
        }
        flow.may_break(bottom);
        bottom + 0.4 * self.scale
    }

    /// How a boxed value is set in `width`: on one line as large as fits down to a share of
    /// `full`; else, for "6D (5D)", the main part on that line with its bracket beside it in
    /// a smaller size; else on up to two lines.
    fn boxed_value(&self, value: &str, full: Font, width: f32) -> BoxedValue {
        let one_line = (full.size_pt * ONE_LINE_SHARE).max(MIN_STAT_PT);
        let size = self.ts.fit_size(value, full, one_line, width, 1);
        if self.ts.width(value, full.sized(size)) <= width {
            return BoxedValue::plain(vec![value.to_string()], full.sized(size));
        }
        if let Some((main, bracket)) = value.split_once(" (")
            && !main.contains(' ')
        {
            let note = format!("{NO_BREAK}({bracket}");
            // The bracket at its share of the size, or (a narrow box) both at the least.
            let tries = [
                ((full.size_pt * NOTE_SHARE).max(MIN_STAT_PT), one_line),
                (MIN_STAT_PT, MIN_STAT_PT),
            ];
            for (note_pt, floor) in tries {
                let note_font = full.sized(note_pt);
                let room = width - self.ts.width(&note, note_font);
                let size = self.ts.fit_size(main, full, floor, room, 1);
                if self.ts.width(main, full.sized(size)) <= room {
                    return BoxedValue {
                        lines: vec![main.to_string()],
                        font: full.sized(size),
                        note: Some((note, note_font.sized(note_pt.min(size)))),
                    };
                }
            }
        }
        // One word ("7D/6D") broken across lines reads worse than one smaller.
        if !value.contains(char::is_whitespace) {
            let size = self.ts.fit_size(value, full, MIN_STAT_PT, width, 1);
            if self.ts.width(value, full.sized(size)) <= width {
                return BoxedValue::plain(vec![value.to_string()], full.sized(size));
            }
        }
        let size = self
            .ts
            .fit_size(value, full, MIN_STAT_PT, width, VALUE_LINES);
        BoxedValue::plain(self.wrap(value, full.sized(size), width), full.sized(size))
    }

    fn centred(&self, centre: f32, baseline: f32, font: Font, text: &str) -> Item {
        let width = self.ts.width(text, font);
        self.ts.run(centre - width / 2.0, baseline, font, text)
    }
}

/// A boxed value as set: its lines in one font, and for a one-line value with a bracketed
/// alternative, that bracket in a smaller font after it.
struct BoxedValue {
    lines: Vec<String>,
    font: Font,
    note: Option<(String, Font)>,
}

impl BoxedValue {
    fn plain(lines: Vec<String>, font: Font) -> Self {
        BoxedValue {
            lines,
            font,
            note: None,
        }
    }
}
