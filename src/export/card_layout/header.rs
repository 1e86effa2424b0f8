//! A card's header band and footer line. The band carries the side's colour and mark, the
//! unit's name in condensed bold (never under the template's floor, taking up to three lines
//! and more rather than shrinking further or being cut) and the copy badge ("2/3"), which no
//! long name can push off the card; the footer names the company or group (on two lines if
//! it must; cut only as a last resort, and then said) and the ruleset.

use super::{Content, Front, PartLabel};
use crate::export::display::{Item, Stroke};
use crate::export::fonts::{FontStyle, MM_PER_PT};
use crate::export::marks::draw_mark;
use crate::export::text::{Font, MIN_TEXT_PT, cap_height, line_height};

/// The largest share of the title size a name that fits on one line may shrink to, so a
/// name just too long for one line at full size stays on one line.
const ONE_LINE_SHARE: f32 = 0.8;

/// A title's last word this short or shorter is kept on the line before it.
const WIDOW_CHARS: usize = 3;

/// The side's mark, in millimetres at scale 1.
const MARK_MM: f32 = 6.2;

/// Space between the mark or the badge and the name.
const BESIDE_MM: f32 = 1.4;

/// The smallest size of the copy badge's number: it must read at a glance.
const MIN_BADGE_PT: f32 = 8.0;

/// Room kept between a print shop's safe zone and the top of the name's tallest glyphs.
const SAFE_CLEARANCE_MM: f32 = 0.2;

/// Lines the company name in the footer may take before it is cut (and said to be).
const FOOTER_LINES: usize = 2;

impl Front<'_> {
    /// The copy badge's text: "2/3" for one of a line's units, "×3" for a card standing for
    /// three; none for a card of its own.
    fn badge_text(&self) -> Option<String> {
        match self.face.copy {
            Some((n, of)) => Some(format!("{n}/{of}")),
            None => (self.face.count > 1).then(|| format!("×{}", self.face.count)),
        }
    }

    fn mark_size(&self) -> f32 {
        MARK_MM * self.scale.clamp(0.9, 1.2)
    }

    /// The name as measured (the part label it was planned with) and as shown (see
    /// [`PartLabel`]): both take the same room.
    fn title_texts(&self) -> (String, String) {
        // A back's parts are its rules' ("Tiger I · rules 1/2"), counted apart from the front's.
        let rules = if self.style.content == Content::Back {
            "rules "
        } else {
            ""
        };
        match self.part.get() {
            Some(PartLabel {
                index,
                count,
                shown,
            }) => (
                format!("{} · {rules}{index}/{count}", self.face.name),
                if shown > 1 {
                    format!("{} · {rules}{index}/{shown}", self.face.name)
                } else {
                    self.face.name.clone()
                },
            ),
            None => (self.face.name.clone(), self.face.name.clone()),
        }
    }

    /// The title's size: the largest at which the name fits one line (down to 80 % of the
    /// full size), else two or three lines down to the floor; at the floor it takes what
    /// lines it needs.
    fn title_size(&self, text: &str, font: Font, width: f32) -> f32 {
        let floor = self.t.title.min_size_pt;
        let full = font.size_pt.max(floor);
        // A short last word ("Sturmgeschütz" / "III") is not left alone on a line: such a
        // name keeps one line down to the floor.
        let name = &self.face.name;
        let widow = name.split_whitespace().count() > 1
            && name
                .split_whitespace()
                .last()
                .is_some_and(|w| w.chars().count() <= WIDOW_CHARS);
        for lines in 1..=self.t.title.max_lines.max(1) {
            let least = if lines == 1 && !widow {
                (full * ONE_LINE_SHARE).max(floor)
            } else {
                floor
            };
            let size = self
                .ts
                .fit_size(text, font.sized(full), least, width, lines);
            let (wrapped, cut) = self.ts.wrap_checked(text, font.sized(size), width);
            if !cut && wrapped.len() <= lines {
                return size;
            }
        }
        floor
    }

    /// The coloured band with the mark, the name, the type line and the copy badge; returns
    /// its bottom.
    pub(super) fn header(&self, items: &mut Vec<Item>) -> f32 {
        let frame = self.frame;
        let pad = self.pad();
        let colors = &self.colors;
        let ink = self.style.ink;
        let on_band = ink.on_band(colors.on_accent, colors.text);
        let inner_w = frame.w - 2.0 * pad;
        let mark = self.side.and_then(|s| s.mark.as_ref());
        let mark_w = mark.map_or(0.0, |_| self.mark_size() + BESIDE_MM);
        let title_font = Font::new(
            self.t.title.face,
            (self.t.title.size_pt * self.scale).max(self.t.title.min_size_pt),
            on_band,
        );
        let badge = self.badge_text();
        let badge_font = Font::new(
            FontStyle::Bold,
            (title_font.size_pt * 0.7).max(MIN_BADGE_PT),
            on_band,
        );
        let badge_w = badge
            .as_deref()
            .map_or(0.0, |b| self.ts.width(b, badge_font) + 2.4 + BESIDE_MM);
        let title_w = inner_w - mark_w - badge_w;
        let (measured, shown) = self.title_texts();
        let size = self.title_size(&measured, title_font, title_w);
        self.title_pt.set(size);
        let title_font = title_font.sized(size);
        let line_count = self.wrap(&measured, title_font, title_w).len();
        let lines = self.wrap(&shown, title_font, title_w);
        let subtitle = self.subtitle_text();
        let sub_w = inner_w - mark_w;
        let sub_font = self.font(FontStyle::Regular, self.t.subtitle.size_pt, on_band);
        let sub_size = self.ts.fit_size(
            &subtitle,
            sub_font,
            (sub_font.size_pt * 0.85).max(MIN_TEXT_PT),
            sub_w,
            1,
        );
        let sub_font = sub_font.sized(sub_size);
        let sub_lines = if subtitle.is_empty() {
            Vec::new()
        } else {
            self.wrap(&subtitle, sub_font, sub_w)
        };
        // A print shop's safe zone holds for the face's whole ascent, not only its capitals.
        let ascent = crate::export::fonts::ascent(self.t.title.face).unwrap_or(1.0);
        let above_caps = (ascent * size - cap_height(size) / MM_PER_PT) * MM_PER_PT;
        let top_pad = if self.style.safe_mm > 0.0 {
            (pad * 0.8).max(self.style.safe_mm + above_caps.max(0.0) + SAFE_CLEARANCE_MM)
        } else {
            pad * 0.8
        };
        let title_h = line_count.max(lines.len()) as f32 * line_height(size);
        let sub_h = sub_lines.len() as f32 * sub_font.line_height();
        let text_h = title_h + sub_h;
        let mark_h = if mark.is_some() {
            self.mark_size()
        } else {
            0.0
        };
        let band_h = top_pad + text_h.max(mark_h) + pad * 0.55;
        let bleed = self.style.bleed;
        items.extend(ink.band(
            frame.x - bleed,
            frame.y - bleed,
            frame.w + 2.0 * bleed,
            band_h + bleed,
            colors.accent,
        ));
        let text_x = frame.x + pad + mark_w;
        if let Some(mark) = mark {
            let y = frame.y + top_pad + (text_h.max(mark_h) - mark_h) / 2.0;
            items.extend(draw_mark(
                mark,
                (frame.x + pad, y),
                self.mark_size(),
                ink,
                colors.text,
            ));
        }
        let first = frame.y + top_pad + cap_height(size);
        let mut baseline = first;
        for line in &lines {
            items.push(self.ts.run(text_x, baseline, title_font, line));
            baseline += line_height(size);
        }
        if let Some(badge) = badge {
            items.extend(self.badge(&badge, badge_font, first));
        }
        let mut sub_baseline = frame.y + top_pad + title_h + cap_height(sub_font.size_pt) + 0.3;
        for line in &sub_lines {
            items.push(self.ts.run(text_x, sub_baseline, sub_font, line));
            sub_baseline += sub_font.line_height();
        }
        frame.y + band_h
    }

    /// The badge at the band's right edge, its number's baseline on the name's first line:
    /// the number in an outlined box.
    fn badge(&self, text: &str, font: Font, baseline: f32) -> Vec<Item> {
        let right = self.frame.x + self.frame.w - self.pad();
        let width = self.ts.width(text, font) + 2.4;
        let cap = cap_height(font.size_pt);
        let (top, height) = (baseline - cap - 1.0, cap + 2.0);
        vec![
            Item::Rect {
                x: right - width,
                y: top,
                w: width,
                h: height,
                fill: None,
                stroke: Some(Stroke::solid(font.color, 0.7)),
            },
            self.ts.run(right - width + 1.2, baseline, font, text),
        ]
    }

    pub(super) fn subtitle_text(&self) -> String {
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

    /// The company or group at the left, the ruleset at the right; returns the footer's top.
    /// A long company name takes a second line; only one longer still is cut, and that is
    /// reported with the whole name.
    pub(super) fn footer(&self, items: &mut Vec<Item>) -> f32 {
        let frame = self.frame;
        let pad = self.pad();
        let font = Font::new(
            FontStyle::Regular,
            (self.t.footer.size_pt * self.scale.max(0.85)).max(MIN_TEXT_PT),
            self.colors.label,
        );
        let descent = 0.24 * font.size_pt * MM_PER_PT;
        let bottom = frame.y + frame.h - (pad * 0.75).max(self.style.safe_mm + descent + 0.1);
        let right_text = self.face.ruleset.title();
        let right_w = self.ts.width(right_text, font);
        items.push(
            self.ts
                .run(frame.x + frame.w - pad - right_w, bottom, font, right_text),
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
        let left = left.join(" · ");
        let mut lines: Vec<String> = Vec::new();
        if !left.is_empty() {
            let width = frame.w - 2.0 * pad - right_w - 2.0;
            let (wrapped, cut) = self
                .ts
                .wrap_clamped_checked(&left, font, width, FOOTER_LINES);
            if cut {
                self.report_cut(format!(
                    "the company name '{left}' is too long for the footer and was shortened to '{}'",
                    wrapped.join(" ")
                ));
            }
            lines = wrapped;
        }
        let count = lines.len().max(1);
        let first = bottom - (count - 1) as f32 * font.line_height();
        for (k, line) in lines.iter().enumerate() {
            let baseline = first + k as f32 * font.line_height();
            items.push(self.ts.run(frame.x + pad, baseline, font, line));
        }
        first - cap_height(font.size_pt) - 0.8
    }
}
