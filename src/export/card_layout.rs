//! Drawing one card, front or back, into a box on a page.
//!
//! The front is fitted, never overflowed: the whole card is laid out at full size, then at
//! smaller scales down to the template's `min_scale`; if even that is too tall, whatever does
//! not fit is cut off with an ellipsis and the layout records a warning.

use super::cards::{CardFace, FaceStat};
use super::display::{Item, Rgb, Stroke};
use super::fonts::FontStyle;
use super::template::CardTemplate;
use super::text::{Font, Span, Typesetter, cap_height, line_height};

/// A box on the page, in millimetres from the top-left corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

/// The value column of the statistics table.
#[derive(Clone, Copy)]
struct Column {
    x: f32,
    w: f32,
}

/// How much the scale drops between fitting attempts.
const SCALE_STEP: f32 = 0.05;

/// The largest scale, from the template's `max_scale` down to its `min_scale`, at which the
/// front of `face` fits `frame`; `min_scale` when none does.
pub(crate) fn fit_scale(
    ts: Typesetter,
    template: &CardTemplate,
    face: &CardFace,
    frame: Frame,
) -> f32 {
    let mut scale = template.max_scale;
    while scale - SCALE_STEP >= template.min_scale - 1e-4 {
        let front = Front {
            ts,
            t: template,
            face,
            frame,
            scale,
        };
        if front.draw(false).1 {
            return scale;
        }
        scale -= SCALE_STEP;
    }
    template.min_scale
}

/// Draws the front of `face` into `frame` at `scale`. Returns the items and whether content
/// had to be cut short to fit.
pub(crate) fn draw_front(
    ts: Typesetter,
    template: &CardTemplate,
    face: &CardFace,
    frame: Frame,
    scale: f32,
) -> (Vec<Item>, bool) {
    let front = Front {
        ts,
        t: template,
        face,
        frame,
        scale,
    };
    match front.draw(false) {
        (items, true) => (items, false),
        (_, false) => (front.draw(true).0, true),
    }
}

struct Front<'a> {
    ts: Typesetter,
    t: &'a CardTemplate,
    face: &'a CardFace,
    frame: Frame,
    scale: f32,
}

/// Content items with the y of their lowest point, so overflow can be cut.
struct Flow {
    items: Vec<(f32, Item)>,
}

impl Flow {
    fn push(&mut self, bottom: f32, item: Item) {
        self.items.push((bottom, item));
    }
}

impl Front<'_> {
    fn pad(&self) -> f32 {
        self.t.padding_mm * self.scale.max(0.8)
    }

    fn font(&self, style: FontStyle, size_pt: f32, color: Rgb) -> Font {
        Font::new(style, size_pt * self.scale, color)
    }

    /// Lays the card out; with `clip`, drops what does not fit instead of reporting it.
    fn draw(&self, clip: bool) -> (Vec<Item>, bool) {
        let Frame { x, w, .. } = self.frame;
        let mut fixed = Vec::new();
        let header_bottom = self.header(&mut fixed);
        let footer_top = self.footer(&mut fixed);
        let limit = self.tracker(&mut fixed, footer_top) - 0.6 * self.scale;
        let mut flow = Flow { items: Vec::new() };
        let mut cursor = header_bottom + self.pad() * 0.5;
        cursor = self.body(&mut flow, cursor);
        cursor = self.notes(&mut flow, cursor);
        let fits = cursor <= limit;
        let mut items = vec![frame_rect(self.frame, self.t)];
        items.append(&mut fixed);
        let mut cut = false;
        for (bottom, item) in flow.items {
            if clip && bottom > limit {
                cut = true;
                continue;
            }
            items.push(item);
        }
        if cut {
            let font = self.font(FontStyle::Bold, 8.0, self.t.colors.label);
            let mark_w = self.ts.width("…", font);
            items.push(self.ts.run(x + w - self.pad() - mark_w, limit, font, "…"));
        }
        (items, fits)
    }

    /// The coloured band with the name, type line and count badge; returns its bottom.
    fn header(&self, items: &mut Vec<Item>) -> f32 {
        let Frame { x, y, w, .. } = self.frame;
        let pad = self.pad();
        let colors = &self.t.colors;
        let inner_w = w - 2.0 * pad;
        let title_font = self.font(FontStyle::Bold, self.t.title.size_pt, colors.on_accent);
        let badge = (self.face.count > 1).then(|| format!("×{}", self.face.count));
        let badge_font = title_font.sized(title_font.size_pt * 0.95);
        let badge_w = badge
            .as_deref()
            .map_or(0.0, |b| self.ts.width(b, badge_font) + 2.0);
        let title_w = inner_w - badge_w;
        let min = self.t.title.min_size_pt * self.scale;
        let max_lines = self.t.title.max_lines;
        // A name that fits on one line at a little under full size stays on one line.
        let one_line = self.ts.fit_size(
            &self.face.name,
            title_font,
            title_font.size_pt * 0.8,
            title_w,
            1,
        );
        let size = if self.ts.width(&self.face.name, title_font.sized(one_line)) <= title_w {
            one_line
        } else {
            self.ts
                .fit_size(&self.face.name, title_font, min, title_w, max_lines)
        };
        let title_font = title_font.sized(size);
        let lines = self
            .ts
            .wrap_clamped(&self.face.name, title_font, title_w, max_lines);
        let subtitle = self.subtitle_text();
        let sub_font = self.font(
            FontStyle::Regular,
            self.t.subtitle.size_pt,
            colors.on_accent,
        );
        let sub_size = self
            .ts
            .fit_size(&subtitle, sub_font, sub_font.size_pt * 0.85, inner_w, 1);
        let sub_font = sub_font.sized(sub_size);
        let sub_lines = if subtitle.is_empty() {
            Vec::new()
        } else {
            self.ts.wrap_clamped(&subtitle, sub_font, inner_w, 2)
        };
        let top_pad = pad * 0.8;
        let title_h = lines.len() as f32 * line_height(size);
        let sub_h = sub_lines.len() as f32 * sub_font.line_height();
        let band_h = top_pad + title_h + sub_h + pad * 0.55;
        items.push(Item::Rect {
            x,
            y,
            w,
            h: band_h,
            fill: Some(colors.accent),
            stroke: None,
        });
        let mut baseline = y + top_pad + cap_height(size);
        for line in &lines {
            items.push(self.ts.run(x + pad, baseline, title_font, line));
            baseline += line_height(size);
        }
        if let Some(badge) = badge {
            let bx = x + w - pad - self.ts.width(&badge, badge_font);
            items.push(
                self.ts
                    .run(bx, y + top_pad + cap_height(size), badge_font, &badge),
            );
        }
        let mut sub_baseline = y + top_pad + title_h + cap_height(sub_font.size_pt) + 0.3;
        for line in &sub_lines {
            items.push(self.ts.run(x + pad, sub_baseline, sub_font, line));
            sub_baseline += sub_font.line_height();
        }
        y + band_h
    }

    fn subtitle_text(&self) -> String {
        self.t
            .subtitle
            .stats
            .iter()
            .filter_map(|name| match name.as_str() {
                "$type" => Some(self.face.type_label.clone()),
                label => self.face.stat(label).map(|v| {
                    if v.chars().all(|c| c.is_ascii_digit()) {
                        format!("{label} {v}")
                    } else {
                        v.to_string()
                    }
                }),
            })
            .collect::<Vec<_>>()
            .join(" · ")
    }

    /// The statistics shown as table rows: the template's order, then any it does not name.
    fn body_stats(&self) -> Vec<&FaceStat> {
        let elsewhere = |label: &str| {
            self.t.subtitle.stats.iter().any(|s| s == label)
                || self.t.footer.stats.iter().any(|s| s == label)
                || self.notes_shown_for(label)
        };
        let mut stats: Vec<&FaceStat> = self
            .t
            .body
            .stats
            .iter()
            .filter_map(|name| self.face.stats.iter().find(|s| &s.label == name))
            .collect();
        for stat in &self.face.stats {
            if !stats.iter().any(|s| s.label == stat.label) && !elsewhere(&stat.label) {
                stats.push(stat);
            }
        }
        stats
    }

    /// True when the notes panel stands in for the statistic `label`.
    fn notes_shown_for(&self, label: &str) -> bool {
        self.t
            .notes
            .as_ref()
            .is_some_and(|n| n.stat == label && !self.face.notes.is_empty())
    }

    fn body(&self, flow: &mut Flow, top: f32) -> f32 {
        let Frame { x, w, .. } = self.frame;
        let pad = self.pad();
        let colors = &self.t.colors;
        let body = &self.t.body;
        let inner_w = w - 2.0 * pad;
        let label_w = inner_w * body.label_width;
        let column = Column {
            x: x + pad + label_w,
            w: inner_w - label_w,
        };
        let label_font = self.font(FontStyle::Regular, body.label_size_pt, colors.label);
        let row_pad = 0.75 * self.scale;
        let mut y = top;
        let stats = self.body_stats();
        for (i, stat) in stats.iter().enumerate() {
            let label = body.labels.get(&stat.label).unwrap_or(&stat.label);
            if self.full_width(stat) {
                // The label on a line of its own, the cells across the whole card below it.
                let baseline = y + row_pad + cap_height(label_font.size_pt);
                flow.push(
                    baseline + 0.5,
                    self.ts.run(x + pad, baseline, label_font, label),
                );
                let whole = Column {
                    x: x + pad,
                    w: inner_w,
                };
                let top = y + row_pad + label_font.line_height();
                y = self.value(flow, stat, whole, top) + row_pad;
                self.row_rule(flow, y, i + 1 < stats.len());
                continue;
            }
            let label_lines = self.ts.wrap_clamped(label, label_font, label_w - 1.8, 2);
            let value_top = y + row_pad;
            let value_bottom = self.value(flow, stat, column, value_top);
            let label_h = label_lines.len() as f32 * label_font.line_height();
            let mut baseline = value_top + self.first_baseline(stat);
            for line in &label_lines {
                flow.push(
                    baseline + 0.5,
                    self.ts.run(x + pad, baseline, label_font, line),
                );
                baseline += label_font.line_height();
            }
            y = value_bottom.max(value_top + label_h) + row_pad;
            self.row_rule(flow, y, i + 1 < stats.len());
        }
        y
    }

    /// The hairline under a row, unless it is the last.
    fn row_rule(&self, flow: &mut Flow, y: f32, more: bool) {
        if !more {
            return;
        }
        let Frame { x, w, .. } = self.frame;
        let pad = self.pad();
        flow.push(
            y,
            Item::Line {
                x1: x + pad,
                y1: y,
                x2: x + w - pad,
                y2: y,
                stroke: Stroke::solid(self.t.colors.rule, 0.35),
            },
        );
    }

    /// True when `stat` is set as cells across the card's full width.
    fn full_width(&self, stat: &FaceStat) -> bool {
        self.cells(stat).is_some()
            && self
                .t
                .body
                .cells
                .get(&stat.label)
                .is_some_and(|c| c.full_width)
    }

    fn value_font(&self) -> Font {
        self.font(
            FontStyle::Bold,
            self.t.body.value_size_pt,
            self.t.colors.text,
        )
    }

    fn header_font(&self) -> Font {
        self.font(
            FontStyle::Regular,
            self.t.body.label_size_pt * 0.85,
            self.t.colors.label,
        )
    }

    /// Where the first baseline of a value sits below the row's top, so the label lines up.
    fn first_baseline(&self, stat: &FaceStat) -> f32 {
        let size = self.value_font().size_pt;
        if self.cells(stat).is_some() {
            self.header_font().line_height() + cap_height(size)
        } else if self.t.body.lists.contains(&stat.label) {
            cap_height(size * 0.85)
        } else {
            cap_height(size)
        }
    }

    /// A value split into cells under small headers, when the template asks for it and the
    /// value has as many parts as there are headers.
    fn cells<'s>(&self, stat: &'s FaceStat) -> Option<(Vec<&'s str>, &[String])> {
        let style = self.t.body.cells.get(&stat.label)?;
        let parts: Vec<&str> = stat.value.split(style.separator.as_str()).collect();
        (parts.len() == style.headers.len()).then_some((parts, style.headers.as_slice()))
    }

    /// Draws one value in the value column from `top`; returns its bottom.
    fn value(&self, flow: &mut Flow, stat: &FaceStat, column: Column, top: f32) -> f32 {
        let font = self.value_font();
        if let Some((parts, headers)) = self.cells(stat) {
            let header_font = self.header_font();
            let cell_w = column.w / parts.len() as f32;
            // One size for the row: the largest at which every cell fits on one line; below
            // the floor a cell wraps within its width instead.
            let floor = (font.size_pt * 0.6).min(5.0);
            let size = parts
                .iter()
                .map(|part| self.ts.fit_size(part.trim(), font, floor, cell_w - 0.8, 1))
                .fold(font.size_pt, f32::min);
            let cell_font = font.sized(size);
            let header_base = top + cap_height(header_font.size_pt);
            let value_top = top + header_font.line_height();
            let mut bottom = value_top + cell_font.line_height();
            for (k, (part, header)) in parts.iter().zip(headers).enumerate() {
                let cx = column.x + k as f32 * cell_w;
                let header = self.ts.ellipsize(header, header_font, cell_w - 0.8);
                flow.push(
                    header_base,
                    self.ts.run(cx, header_base, header_font, &header),
                );
                let mut baseline = value_top + cap_height(size);
                for line in self.ts.wrap(part.trim(), cell_font, cell_w - 0.8) {
                    flow.push(baseline + 0.5, self.ts.run(cx, baseline, cell_font, &line));
                    bottom = bottom.max(baseline - cap_height(size) + cell_font.line_height());
                    baseline += cell_font.line_height();
                }
            }
            return bottom;
        }
        let list = self.t.body.lists.iter().any(|l| l == &stat.label);
        let items: Vec<String> = if list {
            stat.value
                .split("; ")
                .map(|item| format!("• {item}"))
                .collect()
        } else {
            vec![stat.value.clone()]
        };
        let item_font = if list {
            font.sized(font.size_pt * 0.85)
        } else {
            font
        };
        let mut baseline = top + cap_height(item_font.size_pt);
        let mut bottom = top;
        for item in items {
            let indent = if list {
                self.ts.width("• ", item_font)
            } else {
                0.0
            };
            for (j, line) in self
                .ts
                .wrap(&item, item_font, column.w - indent)
                .iter()
                .enumerate()
            {
                let lx = if j == 0 { column.x } else { column.x + indent };
                flow.push(baseline + 0.5, self.ts.run(lx, baseline, item_font, line));
                bottom = baseline + item_font.line_height() - cap_height(item_font.size_pt);
                baseline += item_font.line_height();
            }
        }
        bottom
    }

    /// Tick boxes (or a write-in line) for damage taken on the table, standing on the
    /// footer; returns the top of the block.
    fn tracker(&self, items: &mut Vec<Item>, footer_top: f32) -> f32 {
        let Some(tracker) = &self.t.tracker else {
            return footer_top;
        };
        let Frame { x, w, .. } = self.frame;
        let pad = self.pad();
        let colors = &self.t.colors;
        let font = self.font(FontStyle::Bold, self.t.body.label_size_pt, colors.label);
        let box_side = 3.4 * self.scale;
        let step = box_side + 1.0 * self.scale;
        let label_w = self.ts.width(&tracker.label, font) + 1.5;
        let start = x + pad + label_w;
        let right = x + w - pad;
        let count = tracker
            .boxes
            .or_else(|| {
                tracker
                    .boxes_from
                    .as_deref()
                    .and_then(|label| self.face.stat(label))
                    .and_then(leading_number)
            })
            .unwrap_or(0)
            .min(40);
        let per_row = (((right - start) + 1.0 * self.scale) / step)
            .floor()
            .max(1.0) as u32;
        let rows = if tracker.write_in {
            1
        } else {
            count.div_ceil(per_row).max(1)
        };
        let height = rows as f32 * step - 1.0 * self.scale;
        let top = footer_top - 1.0 * self.scale - height;
        let baseline = top + box_side * 0.5 + cap_height(font.size_pt) * 0.5;
        items.push(self.ts.run(x + pad, baseline, font, &tracker.label));
        let stroke = Stroke::solid(colors.accent, 0.6);
        if tracker.write_in {
            items.push(Item::Line {
                x1: start,
                y1: top + box_side,
                x2: right,
                y2: top + box_side,
                stroke,
            });
            return top;
        }
        for i in 0..count {
            let (row, col) = (i / per_row, i % per_row);
            items.push(Item::Rect {
                x: start + col as f32 * step,
                y: top + row as f32 * step,
                w: box_side,
                h: box_side,
                fill: Some(Rgb::WHITE),
                stroke: Some(stroke),
            });
        }
        top
    }

    /// The special rules or traits, each in bold followed by what it does, on a tinted panel.
    fn notes(&self, flow: &mut Flow, top: f32) -> f32 {
        let Some(style) = &self.t.notes else {
            return top;
        };
        if self.face.notes.is_empty() {
            return top;
        }
        let Frame { x, w, .. } = self.frame;
        let pad = self.pad();
        let colors = &self.t.colors;
        let inset = 1.0 * self.scale;
        let text_w = w - 2.0 * pad - 2.0 * inset;
        let bold = self.font(FontStyle::Bold, style.size_pt, colors.text);
        let regular = self.font(FontStyle::Regular, style.size_pt, colors.text);
        let lh = line_height(bold.size_pt);
        let panel_top = top + 0.8 * self.scale;
        let mut y = panel_top + inset;
        let mut texts = Vec::new();
        for note in &self.face.notes {
            let spans = [
                Span::new(format!("{}:", note.title), bold),
                Span::new(note.text.clone(), regular),
            ];
            for line in self.ts.wrap_rich(&spans, text_w) {
                let baseline = y + cap_height(bold.size_pt);
                for (dx, span) in line {
                    texts.push((
                        y + lh,
                        self.ts
                            .run(x + pad + inset + dx, baseline, span.font, &span.text),
                    ));
                }
                y += lh;
            }
            y += 0.6 * self.scale;
        }
        let panel_bottom = y - 0.6 * self.scale + inset;
        flow.push(
            panel_top + 2.0 * lh,
            Item::Rect {
                x: x + pad,
                y: panel_top,
                w: w - 2.0 * pad,
                h: panel_bottom - panel_top,
                fill: Some(colors.panel),
                stroke: None,
            },
        );
        for (bottom, item) in texts {
            flow.push(bottom, item);
        }
        panel_bottom
    }

    /// Group and copy number at the left, the ruleset at the right; returns the footer's top.
    fn footer(&self, items: &mut Vec<Item>) -> f32 {
        let Frame { x, y, w, h } = self.frame;
        let pad = self.pad();
        let font = Font::new(
            FontStyle::Regular,
            self.t.footer.size_pt * self.scale.max(0.85),
            self.t.colors.label,
        );
        let baseline = y + h - pad * 0.75;
        let right_text = self.face.ruleset.title();
        let right_w = self.ts.width(right_text, font);
        items.push(
            self.ts
                .run(x + w - pad - right_w, baseline, font, right_text),
        );
        let mut left: Vec<String> = self
            .t
            .footer
            .stats
            .iter()
            .filter_map(|label| self.face.stat(label).map(|v| format!("{label} {v}")))
            .collect();
        if let Some(group) = &self.face.group {
            left.insert(0, group.clone());
        }
        if let Some((n, of)) = self.face.copy {
            left.push(format!("{n}/{of}"));
        }
        let left = left.join(" · ");
        if !left.is_empty() {
            let text = self
                .ts
                .ellipsize(&left, font, w - 2.0 * pad - right_w - 2.0);
            items.push(self.ts.run(x + pad, baseline, font, &text));
        }
        baseline - cap_height(font.size_pt) - 0.8
    }
}

/// The leading whole number of a value ("3" → 3, "5 (3)" → 5).
fn leading_number(value: &str) -> Option<u32> {
    let digits: String = value.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// The card's outline in its accent colour.
fn frame_rect(frame: Frame, t: &CardTemplate) -> Item {
    let inset = t.border_width_pt * super::fonts::MM_PER_PT / 2.0;
    Item::Rect {
        x: frame.x + inset,
        y: frame.y + inset,
        w: frame.w - 2.0 * inset,
        h: frame.h - 2.0 * inset,
        fill: None,
        stroke: Some(Stroke::solid(t.colors.accent, t.border_width_pt)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::cards::face_for;
    use crate::export::fonts::faces;
    use crate::export::template::templates;
    use crate::rules::{ForceUnit, RulesetId, ruleset};

    fn texts(items: &[Item]) -> String {
        items
            .iter()
            .filter_map(|i| match i {
                Item::Text(run) => Some(run.text.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    const POKER: Frame = Frame {
        x: 10.0,
        y: 10.0,
        w: 63.0,
        h: 88.0,
    };

    /// A template that names no statistic at all still prints every one of them.
    #[test]
    fn statistics_a_template_does_not_name_still_appear() {
        let ts = Typesetter {
            faces: faces().unwrap(),
        };
        for id in RulesetId::ALL {
            let mut template = templates().unwrap().card_template(id).unwrap().clone();
            template.subtitle.stats.clear();
            template.body.stats.clear();
            template.body.cells.clear();
            template.body.lists.clear();
            template.body.labels.clear();
            template.notes = None;
            let card = &ruleset(id).library()[0];
            let mut face = face_for(card, &ForceUnit::library(card.name(), 1));
            face.stats.push(FaceStat {
                label: "Brand-new stat".into(),
                value: "42".into(),
            });
            let (items, cut) = draw_front(ts, &template, &face, POKER, 1.0);
            let text = texts(&items);
            assert!(!cut, "{id}");
            for stat in &face.stats {
                assert!(
                    text.contains(&stat.label),
                    "{id}: label {} missing",
                    stat.label
                );
                let first_word = stat.value.split_whitespace().next().unwrap_or_default();
                assert!(
                    text.contains(first_word),
                    "{id}: value {} missing",
                    stat.value
                );
            }
        }
    }

    #[test]
    fn the_largest_scale_that_fits_is_chosen() {
        let ts = Typesetter {
            faces: faces().unwrap(),
        };
        let template = templates()
            .unwrap()
            .card_template(RulesetId::BattleOfTanks)
            .unwrap();
        let card = &ruleset(RulesetId::BattleOfTanks).library()[0];
        let face = face_for(card, &ForceUnit::library(card.name(), 1));
        // Nine short rows leave room on a tarot card, so it grows to the template's maximum.
        let tarot = Frame {
            w: 70.0,
            h: 120.0,
            ..POKER
        };
        assert_eq!(fit_scale(ts, template, &face, tarot), template.max_scale);
        let tiny = Frame {
            w: 40.0,
            h: 40.0,
            ..POKER
        };
        assert_eq!(fit_scale(ts, template, &face, tiny), template.min_scale);
        assert!(draw_front(ts, template, &face, tiny, template.min_scale).1);
    }

    #[test]
    fn leading_numbers_read_the_first_digits() {
        assert_eq!(leading_number("3"), Some(3));
        assert_eq!(leading_number("12 (3)"), Some(12));
        assert_eq!(leading_number("—"), None);
    }
}
