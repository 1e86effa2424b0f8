//! Drawing one card, front or back, into a box on a page.
//!
//! Each card is fitted on its own, never overflowed: its content is laid out at the
//! template's largest scale, then at smaller ones, until it fits both the card's height and
//! every line's width (words break only at hyphenation points). No text goes below
//! [`MIN_TEXT_PT`] (statistics below [`MIN_STAT_PT`]); what does not fit at the smallest
//! scale continues on further parts ("Tiger I · 2/2"), each a card of the same size.

mod boxes;
mod header;
mod odds_table;

use std::cell::Cell;

use super::cards::{CardFace, FaceStat};
pub use super::display::Frame;
use super::display::{Item, Rgb, Segment, Stroke};
use super::fonts::FontStyle;
use super::ink::Ink;
use super::template::{CardColors, CardTemplate, SideStyle, TrackerStyle};
use super::text::{Font, MIN_STAT_PT, MIN_TEXT_PT, Span, Typesetter, cap_height, line_height};
use crate::rules::Card;

/// The value column of the statistics table.
#[derive(Clone, Copy)]
struct Column {
    x: f32,
    w: f32,
}

/// How much the scale drops between fitting attempts.
const SCALE_STEP: f32 = 0.05;

/// The most extra space spread above and below a row of statistics, at scale 1: more and
/// the rows stop reading as one table.
const MAX_SPREAD_MM: f32 = 1.6;

/// The size of the special rules on a back, for a template that prints none on its fronts.
const BACK_NOTES_PT: f32 = 6.6;

/// More parts than this means the card's text is beyond any sensible card; the rest is
/// reported rather than printed on a stack of cards.
const MAX_PARTS: usize = 6;

/// Space the bleed adds around a card back's edge, side by side, in millimetres: a back runs
/// this far past the cut so a duplex shift of a millimetre shows no sliver of white. Fronts
/// never bleed, so cutting along a front's visible edge gives the card's true size.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Bleed {
    pub top: f32,
    pub right: f32,
    pub bottom: f32,
    pub left: f32,
}

/// One card laid out: its parts (one card each, the first the main card), relative to the
/// card's top-left corner, and what could not be placed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FittedCard {
    pub parts: Vec<Vec<Item>>,
    pub scale: f32,
    /// The size the name is set in (the same on every part).
    pub title_pt: f32,
    /// Why something is missing or was cut ("a word too long for the card: …").
    pub problems: Vec<String>,
}

/// How a front is drawn besides its content: the ink, and for a print shop's page the bleed
/// its fills run into, the safe zone its text keeps from the cut and no outline on the cut.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct FrontStyle {
    pub ink: Ink,
    /// How far the header band runs past the card's edge (0 on a sheet, where fronts do not
    /// bleed, so cutting along the visible edge gives the true size).
    pub bleed: f32,
    /// The least distance from the cut to any text (a print shop's safe zone); the template's
    /// padding when larger.
    pub safe_mm: f32,
    /// Draw the card's outline (on a sheet, where it is the cutting line; never on a print
    /// shop's page, where a line on the trim would show as a sliver on some cards).
    pub outline: bool,
    /// What this side of the card carries.
    pub content: Content,
}

/// What one side of a card carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Content {
    /// Everything, on the front: the card is printed without a back of its own.
    Whole,
    /// The statistics; the special rules are named in a row and printed in full on the back.
    Front,
    /// The back: the special rules in full and the unit's odds table.
    Back,
}

impl FrontStyle {
    /// A front on a sheet of cards in `ink`.
    pub(crate) fn sheet(ink: Ink) -> Self {
        FrontStyle {
            ink,
            bleed: 0.0,
            safe_mm: 0.0,
            outline: true,
            content: Content::Whole,
        }
    }
}

/// Lays out the front of `face` on a card of `w`×`h` mm on its own: the largest scale at
/// which everything fits one card; else the smallest number of parts, at the largest scale
/// that needs no more.
pub(crate) fn fit_card(
    ts: Typesetter,
    template: &CardTemplate,
    face: &CardFace,
    size: (f32, f32),
    style: FrontStyle,
) -> FittedCard {
    fit_at(ts, template, face, size, &scales(template), style)
}

/// Lays out a deck: every card at one type scale, so a sheet reads as a set. The scale is
/// the largest at which every card that fits one card at all still does (a card that needs
/// more parts anyway does not shrink the rest). Each name takes the size it needs on its own
/// card: one long name shrinks no other card's title.
pub(crate) fn fit_deck(
    ts: Typesetter,
    template: &CardTemplate,
    faces: &[CardFace],
    size: (f32, f32),
    style: FrontStyle,
) -> Vec<FittedCard> {
    let own: Vec<FittedCard> = faces
        .iter()
        .map(|face| fit_card(ts, template, face, size, style))
        .collect();
    let single = own
        .iter()
        .filter(|f| f.parts.len() == 1 && f.problems.is_empty())
        .map(|f| f.scale);
    let deck_scale = single.fold(f32::INFINITY, f32::min);
    let deck_scale = if deck_scale.is_finite() {
        deck_scale
    } else {
        own.iter()
            .map(|f| f.scale)
            .fold(template.max_scale, f32::min)
    };
    let below: Vec<f32> = scales(template)
        .into_iter()
        .filter(|s| *s <= deck_scale + 1e-4)
        .collect();
    faces
        .iter()
        .zip(own)
        .map(|(face, own)| {
            if (own.scale - deck_scale).abs() < 1e-4 {
                own
            } else {
                fit_at(ts, template, face, size, &below, style)
            }
        })
        .collect()
}

/// The best layout of `face` over `scales` (largest first): the first that fits one card,
/// else the one that loses least and needs fewest parts.
fn fit_at(
    ts: Typesetter,
    template: &CardTemplate,
    face: &CardFace,
    (w, h): (f32, f32),
    scales: &[f32],
    style: FrontStyle,
) -> FittedCard {
    let attempt_spread = |scale: f32, spread: f32| {
        let front = Front::new(ts, template, face, (w, h), scale, style);
        front.spread.set(spread);
        let parts = front.parts();
        (parts, front.title_pt.get(), front.rows.get())
    };
    let attempt = |scale: f32| {
        let (parts, title_pt, _) = attempt_spread(scale, 0.0);
        (parts, title_pt)
    };
    let mut best: Option<(f32, Parts, f32)> = None;
    for &scale in scales {
        let (parts, title_pt, rows) = attempt_spread(scale, 0.0);
        if parts.fits_one() {
            // Room to spare goes between the rows (up to a limit), so a short card does not
            // leave a blank band above its tick boxes.
            if rows > 0 && parts.spare > 0.5 {
                let spread = (parts.spare / (2 * rows) as f32).min(MAX_SPREAD_MM * scale);
                let (spread_parts, spread_title, _) = attempt_spread(scale, spread);
                if spread_parts.fits_one() {
                    return spread_parts.finish(scale, spread_title);
                }
            }
            return parts.finish(scale, title_pt);
        }
        let better = match &best {
            None => true,
            Some((_, b, _)) => parts.rank() < b.rank(),
        };
        if better {
            best = Some((scale, parts, title_pt));
        }
    }
    match best {
        Some((scale, parts, title_pt)) => parts.finish(scale, title_pt),
        None => {
            let (parts, title_pt) = attempt(template.min_scale);
            parts.finish(template.min_scale, title_pt)
        }
    }
}

/// The scales tried, largest first.
fn scales(template: &CardTemplate) -> Vec<f32> {
    let mut scales = Vec::new();
    let mut scale = template.max_scale;
    while scale >= template.min_scale - 1e-4 {
        scales.push(scale);
        scale -= SCALE_STEP;
    }
    if scales.is_empty() {
        scales.push(template.min_scale);
    }
    scales
}

/// The result of one fitting attempt.
struct Parts {
    items: Vec<Vec<Item>>,
    /// A word cut between letters, or a line shortened with an ellipsis.
    cut: Vec<String>,
    /// Content beyond [`MAX_PARTS`] cards, or a block taller than a card.
    lost: Vec<String>,
    /// Height left unused on the last part, in mm.
    spare: f32,
}

impl Parts {
    fn fits_one(&self) -> bool {
        self.items.len() == 1 && self.cut.is_empty() && self.lost.is_empty()
    }

    /// Lower is better: nothing lost, nothing cut, then the fewest cards.
    fn rank(&self) -> (usize, usize, usize) {
        (self.lost.len(), self.cut.len(), self.items.len())
    }

    fn finish(self, scale: f32, title_pt: f32) -> FittedCard {
        let mut problems = self.cut;
        problems.extend(self.lost);
        problems.dedup();
        FittedCard {
            parts: self.items,
            scale,
            title_pt,
            problems,
        }
    }
}

/// Which part of a continued card is being drawn. The header is measured for `count` parts
/// and labelled for `shown`: when a card planned as two fits one after all (the longer name
/// "… · 1/2" took a smaller size, leaving room), it is printed as one card with the header it
/// was measured with, never as a lone "1/2".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PartLabel {
    index: usize,
    count: usize,
    shown: usize,
}

struct Front<'a> {
    ts: Typesetter,
    t: &'a CardTemplate,
    face: &'a CardFace,
    /// The template's colours with the face's side's band in place of the accent.
    colors: CardColors,
    /// The side the face belongs to, if the template names one.
    side: Option<&'a SideStyle>,
    frame: Frame,
    scale: f32,
    style: FrontStyle,
    /// What had to be cut while laying out (words broken between letters, ellipses).
    cut: std::cell::RefCell<Vec<String>>,
    /// The part being drawn, while a card runs over several.
    part: Cell<Option<PartLabel>>,
    /// The size the name was last set in.
    title_pt: Cell<f32>,
    /// Extra space above and below each row of statistics, spreading a short card's rows.
    spread: Cell<f32>,
    /// How many rows of statistics the body set (where spare room may go).
    rows: Cell<usize>,
    /// Height left on the part last laid out.
    spare: Cell<f32>,
}

/// The card's content below the header as one strip starting at y = 0: items with the y of
/// their lowest point, and the y values between blocks where a part may end.
struct Flow {
    items: Vec<(f32, Item)>,
    breaks: Vec<f32>,
    /// Column headers of tables, repeated at the top of a part that starts inside one.
    heads: Vec<TableHead>,
}

/// A table's header row and the stretch of the strip its rows take.
struct TableHead {
    /// The header's items with y measured from the header's top.
    items: Vec<Item>,
    height: f32,
    /// Where the rows start and end in the strip.
    rows_from: f32,
    rows_to: f32,
}

impl Flow {
    fn push(&mut self, bottom: f32, item: Item) {
        self.items.push((bottom, item));
    }

    /// Another part may start here.
    fn may_break(&mut self, y: f32) {
        self.breaks.push(y);
    }
}

impl<'a> Front<'a> {
    fn new(
        ts: Typesetter,
        t: &'a CardTemplate,
        face: &'a CardFace,
        (w, h): (f32, f32),
        scale: f32,
        style: FrontStyle,
    ) -> Self {
        let side = side_of(t, face);
        Front {
            ts,
            t,
            face,
            colors: side_colors(t, side),
            side,
            frame: Frame {
                x: 0.0,
                y: 0.0,
                w,
                h,
            },
            scale,
            style,
            cut: std::cell::RefCell::new(Vec::new()),
            part: Cell::new(None),
            title_pt: Cell::new(0.0),
            spread: Cell::new(0.0),
            rows: Cell::new(0),
            spare: Cell::new(0.0),
        }
    }

    fn pad(&self) -> f32 {
        (self.t.padding_mm * self.scale.max(0.8)).max(self.style.safe_mm)
    }

    /// A font at the card's scale, never below the smallest legible size.
    fn font(&self, style: FontStyle, size_pt: f32, color: Rgb) -> Font {
        Font::new(style, (size_pt * self.scale).max(MIN_TEXT_PT), color)
    }

    fn report_cut(&self, what: String) {
        self.cut.borrow_mut().push(what);
    }

    /// Wraps, remembering a word that had to be cut between letters.
    fn wrap(&self, text: &str, font: Font, width: f32) -> Vec<String> {
        let (lines, cut) = self.ts.wrap_checked(text, font, width);
        if cut {
            self.report_cut(format!("a word too long for the card in '{text}'"));
        }
        lines
    }

    fn wrap_clamped(&self, text: &str, font: Font, width: f32, max_lines: usize) -> Vec<String> {
        let (lines, cut) = self.ts.wrap_clamped_checked(text, font, width, max_lines);
        if cut {
            self.report_cut(format!("'{text}' shortened to fit"));
        }
        lines
    }

    fn ellipsize(&self, text: &str, font: Font, width: f32) -> String {
        let fitted = self.ts.ellipsize(text, font, width);
        if fitted != text {
            self.report_cut(format!("'{text}' shortened to fit"));
        }
        fitted
    }

    /// Lays the card out and splits its content over as many parts as it needs.
    fn parts(&self) -> Parts {
        let mut flow = Flow {
            items: Vec::new(),
            breaks: vec![0.0],
            heads: Vec::new(),
        };
        let mut end = 0.0;
        if self.style.content == Content::Back {
            end = self.notes(&mut flow, end);
            end = self.odds_table(&mut flow, end);
        } else {
            end = self.boxes(&mut flow, end);
            end = self.body(&mut flow, end);
            if self.style.content == Content::Whole {
                end = self.notes(&mut flow, end);
            }
            end = self.example_legend(&mut flow, end);
        }
        flow.may_break(end);
        flow.breaks.sort_by(f32::total_cmp);
        // What the content itself had to cut; the parts' headers and footers add theirs.
        let content_cut = self.cut.take();
        let mut lost = Vec::new();
        let mut count = 1;
        loop {
            let (mut items, rest) = self.split(&flow, end, count, count);
            if rest.is_none() && items.len() < count {
                // Planned as `count` parts, it needed fewer: label them by what they are.
                self.cut.borrow_mut().clear();
                let shown = items.len();
                items = self.split(&flow, end, count, shown).0;
            }
            if rest.is_none() || count >= MAX_PARTS {
                if let Some(from) = rest {
                    lost.push(format!(
                        "text beyond {MAX_PARTS} cards left off (from {from:.0} mm of {end:.0} mm)"
                    ));
                }
                let mut cut = content_cut;
                cut.extend(self.cut.take());
                return Parts {
                    items,
                    cut,
                    lost,
                    spare: self.spare.get(),
                };
            }
            count += 1;
            self.cut.borrow_mut().clear();
        }
    }

    /// The parts of a card assumed to have `count` parts, labelled as `shown` parts; the y
    /// where content left over starts when `count` is too few.
    fn split(
        &self,
        flow: &Flow,
        end: f32,
        count: usize,
        shown: usize,
    ) -> (Vec<Vec<Item>>, Option<f32>) {
        let mut parts = Vec::new();
        let mut start = 0.0;
        for index in 1..=count {
            self.part.set((count > 1).then_some(PartLabel {
                index,
                count,
                shown,
            }));
            let mut items = Vec::new();
            if self.style.outline {
                items.push(frame_rect(self.frame, self.t, &self.colors));
            }
            let header_bottom = self.header(&mut items);
            let footer_top = self.footer(&mut items);
            let bottom = if index == 1 && self.style.content != Content::Back {
                self.tracker(&mut items, footer_top)
            } else {
                footer_top
            } - 0.6 * self.scale;
            let mut top = header_bottom + self.pad() * 0.5;
            // A part that starts among a table's rows repeats the table's header.
            let head = flow
                .heads
                .iter()
                .find(|h| index > 1 && start >= h.rows_from - 1e-3 && start < h.rows_to - 1e-3);
            if let Some(head) = head {
                items.extend(head.items.iter().map(|i| shifted(i, 0.0, top)));
                top += head.height;
            }
            let room = bottom - top;
            let stop = if end - start <= room + 1e-3 {
                end
            } else {
                let fitting = flow
                    .breaks
                    .iter()
                    .copied()
                    .filter(|&b| b > start + 1e-3 && b - start <= room + 1e-3)
                    .fold(None, |_, b| Some(b));
                // A single block taller than a whole card still goes on, overflowing, rather
                // than looping forever; the fitting loop then prefers a smaller scale.
                fitting.unwrap_or_else(|| {
                    flow.breaks
                        .iter()
                        .copied()
                        .find(|&b| b > start + 1e-3)
                        .unwrap_or(end)
                })
            };
            if stop - start > room + 1e-3 {
                self.report_cut("a block of text taller than the card".to_string());
            }
            self.spare.set(room - (stop - start));
            let dy = top - start;
            for (item_bottom, item) in &flow.items {
                if *item_bottom > start + 1e-3 && *item_bottom <= stop + 1e-3 {
                    items.push(shifted(item, 0.0, dy));
                }
            }
            parts.push(items);
            start = stop;
            if start >= end - 1e-3 {
                return (parts, None);
            }
        }
        (parts, Some(start))
    }

    /// The statistics shown as table rows: the template's order, then any it does not name.
    fn body_stats(&self) -> Vec<&FaceStat> {
        let elsewhere = |label: &str| {
            self.boxed(label)
                || self.t.subtitle.stats.iter().any(|s| s == label)
                || self.t.footer.stats.iter().any(|s| s == label)
                || self
                    .t
                    .body
                    .cells
                    .values()
                    .any(|c| c.under.as_deref() == Some(label))
                || self.notes_shown_for(label)
        };
        let mut stats: Vec<&FaceStat> = self
            .t
            .body
            .stats
            .iter()
            .filter(|name| !self.boxed(name))
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
        self.style.content == Content::Whole
            && self
                .t
                .notes
                .as_ref()
                .is_some_and(|n| n.stat == label && !self.face.notes.is_empty())
    }

    fn body(&self, flow: &mut Flow, top: f32) -> f32 {
        let Frame { x, w, .. } = self.frame;
        let pad = self.pad();
        let colors = &self.colors;
        let body = &self.t.body;
        let inner_w = w - 2.0 * pad;
        let label_w = inner_w * body.label_width;
        let column = Column {
            x: x + pad + label_w,
            w: inner_w - label_w,
        };
        let label_font = self.font(FontStyle::Regular, body.label_size_pt, colors.label);
        let row_pad = 0.75 * self.scale + self.spread.get();
        let mut y = top;
        let stats = self.body_stats();
        self.rows.set(stats.len());
        for (i, stat) in stats.iter().enumerate() {
            let label = body.labels.get(&stat.label).unwrap_or(&stat.label);
            let marked = self.marked_label(&stat.label, label);
            let label = &marked;
            if stat.label == "Weapons" && !self.face.weapons.is_empty() {
                y = self.weapon_table(flow, y + row_pad, label) + row_pad;
                self.row_rule(flow, y, i + 1 < stats.len());
                flow.may_break(y);
                continue;
            }
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
                flow.may_break(y);
                continue;
            }
            let label_lines = self.wrap_clamped(label, label_font, label_w - 1.8, 2);
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
            flow.may_break(y);
        }
        y
    }

    /// Weapons as a table across the card: name, range, shots and PEN, with the weapon's
    /// tags on a line under its name. Returns the bottom.
    fn weapon_table(&self, flow: &mut Flow, top: f32, label: &str) -> f32 {
        let Frame { x, w, .. } = self.frame;
        let pad = self.pad();
        let colors = &self.colors;
        let inner_w = w - 2.0 * pad;
        let head = self.header_font();
        let label_font = self.font(FontStyle::Regular, self.t.body.label_size_pt, colors.label);
        let name_font = self.list_font();
        let cell_font = name_font;
        let tag_font = Font::new(
            FontStyle::Regular,
            name_font.size_pt.max(MIN_STAT_PT),
            colors.label,
        );
        let weapons = &self.face.weapons;
        let gap = 1.2 * self.scale;
        let column = |header: &str, values: &mut dyn Iterator<Item = &str>| {
            values
                .map(|v| self.ts.width(v, cell_font))
                .fold(self.ts.width(header, head), f32::max)
                + gap
        };
        let range_w = column("Range", &mut weapons.iter().map(|r| r.range.as_str()));
        let shots_w = column("Shots", &mut weapons.iter().map(|r| r.shots.as_str()));
        let pen_w = column("PEN", &mut weapons.iter().map(|r| r.pen.as_str())) - gap;
        let name_w = inner_w - range_w - shots_w - pen_w - gap;
        let xs = [
            x + pad,
            x + pad + name_w + gap,
            x + pad + name_w + gap + range_w,
            x + pad + name_w + gap + range_w + shots_w,
        ];
        let baseline = top + cap_height(label_font.size_pt);
        let mut head_items = vec![self.ts.run(xs[0], baseline, label_font, label)];
        for (cx, header) in xs[1..].iter().zip(["Range", "Shots", "PEN"]) {
            head_items.push(self.ts.run(*cx, baseline, head, header));
        }
        for item in &head_items {
            flow.push(baseline + 0.5, item.clone());
        }
        let mut y = top + label_font.line_height().max(head.line_height());
        let rows_from = y;
        for row in weapons {
            let mut baseline = y + cap_height(name_font.size_pt);
            let cells = [&row.range, &row.shots, &row.pen];
            for (cx, cell) in xs[1..].iter().zip(cells) {
                flow.push(baseline + 0.5, self.ts.run(*cx, baseline, cell_font, cell));
            }
            for line in self.wrap(&row.name, name_font, name_w) {
                flow.push(
                    baseline + 0.5,
                    self.ts.run(xs[0], baseline, name_font, &line),
                );
                baseline += name_font.line_height();
            }
            y = baseline - cap_height(name_font.size_pt);
            if !row.special.is_empty() {
                let indent = 2.0 * self.scale;
                let mut tag_baseline = y + cap_height(tag_font.size_pt);
                for line in self.wrap(&row.special, tag_font, inner_w - indent) {
                    flow.push(
                        tag_baseline + 0.5,
                        self.ts.run(xs[0] + indent, tag_baseline, tag_font, &line),
                    );
                    tag_baseline += tag_font.line_height();
                }
                y = tag_baseline - cap_height(tag_font.size_pt);
            }
            y += 0.4 * self.scale;
            flow.may_break(y);
        }
        flow.heads.push(TableHead {
            items: head_items.iter().map(|i| shifted(i, 0.0, -top)).collect(),
            height: rows_from - top,
            rows_from,
            rows_to: y,
        });
        y
    }

    /// Says which values are the project's examples rather than the book's.
    fn example_legend(&self, flow: &mut Flow, top: f32) -> f32 {
        let text = if self.face.example_card {
            "Example card: the rule book prints no such unit; these values are Quartermaster's."
        } else if self.face.examples.is_empty() {
            return top;
        } else {
            "† Quartermaster's example value: the rule book gives none."
        };
        let Frame { x, w, .. } = self.frame;
        let pad = self.pad();
        let font = self.font(FontStyle::Regular, MIN_TEXT_PT, self.colors.label);
        let mut y = top + 0.8 * self.scale;
        for line in self.wrap(text, font, w - 2.0 * pad) {
            let baseline = y + cap_height(font.size_pt);
            flow.push(
                y + font.line_height(),
                self.ts.run(x + pad, baseline, font, &line),
            );
            y += font.line_height();
        }
        flow.may_break(y);
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
            Item::Line(Segment {
                x1: x + pad,
                y1: y,
                x2: x + w - pad,
                y2: y,
                stroke: Stroke::solid(self.colors.rule, 0.35),
            }),
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
        let font = self.font(FontStyle::Bold, self.t.body.value_size_pt, self.colors.text);
        font.sized(font.size_pt.max(MIN_STAT_PT))
    }

    /// The font of one item of a listed value (a weapon), a little smaller than a value.
    fn list_font(&self) -> Font {
        let font = self.value_font();
        font.sized((font.size_pt * 0.85).max(MIN_STAT_PT))
    }

    fn header_font(&self) -> Font {
        self.font(
            FontStyle::Regular,
            self.t.body.label_size_pt * 0.85,
            self.colors.label,
        )
    }

    /// Where the first baseline of a value sits below the row's top, so the label lines up.
    fn first_baseline(&self, stat: &FaceStat) -> f32 {
        let size = self.value_font().size_pt;
        if self.cells(stat).is_some() {
            self.header_font().line_height() + cap_height(size)
        } else if self.t.body.lists.contains(&stat.label) {
            cap_height(self.list_font().size_pt)
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

    /// One line of cells across `column` from `top`, each wrapped within its width; returns
    /// the bottom.
    fn cell_row(
        &self,
        flow: &mut Flow,
        parts: &[&str],
        column: Column,
        top: f32,
        font: Font,
    ) -> f32 {
        let cell_w = column.w / parts.len().max(1) as f32;
        let size = font.size_pt;
        let mut bottom = top + font.line_height();
        for (k, part) in parts.iter().enumerate() {
            let cx = column.x + k as f32 * cell_w;
            let mut baseline = top + cap_height(size);
            for line in self.wrap(part.trim(), font, cell_w - 0.8) {
                flow.push(baseline + 0.5, self.ts.run(cx, baseline, font, &line));
                bottom = bottom.max(baseline - cap_height(size) + font.line_height());
                baseline += font.line_height();
            }
        }
        bottom
    }

    /// The label and cells of the statistic a cell row carries under its own (`under` in
    /// the template), when the face has it with `count` parts.
    fn under(&self, stat: &FaceStat, count: usize) -> Option<(&str, Vec<&str>)> {
        let style = self.t.body.cells.get(&stat.label)?;
        let label = style.under.as_deref()?;
        let value = self.face.stat(label)?;
        let parts: Vec<&str> = value.split(style.separator.as_str()).collect();
        let shown = self.t.body.labels.get(label).map_or(label, String::as_str);
        (parts.len() == count).then_some((shown, parts))
    }

    /// Draws one value in the value column from `top`; returns its bottom.
    fn value(&self, flow: &mut Flow, stat: &FaceStat, column: Column, top: f32) -> f32 {
        let font = self.value_font();
        if let Some((parts, headers)) = self.cells(stat) {
            let header_font = self.header_font();
            let cell_w = column.w / parts.len() as f32;
            // One size for the row: the largest at which every cell fits on one line; below
            // the floor a cell wraps within its width instead.
            let floor = MIN_STAT_PT.min(font.size_pt);
            let size = parts
                .iter()
                .map(|part| self.ts.fit_size(part.trim(), font, floor, cell_w - 0.8, 1))
                .fold(font.size_pt, f32::min);
            let cell_font = font.sized(size);
            let header_base = top + cap_height(header_font.size_pt);
            let value_top = top + header_font.line_height();
            for (k, header) in headers.iter().enumerate() {
                let cx = column.x + k as f32 * cell_w;
                let header = self.ellipsize(header, header_font, cell_w - 0.8);
                flow.push(
                    header_base,
                    self.ts.run(cx, header_base, header_font, &header),
                );
            }
            let mut bottom = self.cell_row(flow, &parts, column, value_top, cell_font);
            if let Some((label, under)) = self.under(stat, parts.len()) {
                let label_font = self.font(
                    FontStyle::Regular,
                    self.t.body.label_size_pt,
                    self.colors.label,
                );
                let label_x = self.frame.x + self.pad();
                let mut row_top = bottom;
                if column.x - label_x > self.ts.width(label, label_font) + 1.0 {
                    // Beside its cells in the label column, like the row's own label.
                    let baseline = row_top + cap_height(size);
                    flow.push(
                        baseline + 0.5,
                        self.ts.run(label_x, baseline, label_font, label),
                    );
                } else {
                    let baseline = row_top + cap_height(label_font.size_pt);
                    flow.push(
                        baseline + 0.5,
                        self.ts.run(label_x, baseline, label_font, label),
                    );
                    row_top += label_font.line_height();
                }
                bottom = self.cell_row(flow, &under, column, row_top, cell_font);
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
        let item_font = if list { self.list_font() } else { font };
        let mut baseline = top + cap_height(item_font.size_pt);
        let mut bottom = top;
        for item in items {
            let indent = if list {
                self.ts.width("• ", item_font)
            } else {
                0.0
            };
            for (j, line) in self
                .wrap(&item, item_font, column.w - indent)
                .iter()
                .enumerate()
            {
                let lx = if j == 0 { column.x } else { column.x + indent };
                flow.push(baseline + 0.5, self.ts.run(lx, baseline, item_font, line));
                bottom = baseline + item_font.line_height() - cap_height(item_font.size_pt);
                baseline += item_font.line_height();
            }
            if list {
                flow.may_break(bottom + 0.5);
            }
        }
        bottom
    }

    /// Tick boxes (or a write-in line) for what is tracked on the table, standing on the
    /// footer: one row per tracker, repeated for each unit the card stands for; none for a
    /// unit that takes no damage on the table (off-table artillery). Returns the top.
    fn tracker(&self, items: &mut Vec<Item>, footer_top: f32) -> f32 {
        if self.t.trackers.is_empty() || !self.face.tracks_damage {
            return footer_top;
        }
        let Frame { x, w, .. } = self.frame;
        let pad = self.pad();
        let colors = &self.colors;
        let font = self.font(FontStyle::Bold, self.t.body.label_size_pt, colors.label);
        let box_side = 3.4 * self.scale;
        let gap = 1.0 * self.scale;
        let step = box_side + gap;
        let copies = self.face.count.max(1);
        let label_for = |tracker: &TrackerStyle, copy: u32| match copies {
            1 => tracker.label.clone(),
            _ => format!("{} {copy}", tracker.label),
        };
        let label_w = self
            .t
            .trackers
            .iter()
            .map(|t| self.ts.width(&label_for(t, copies), font))
            .fold(0.0, f32::max)
            + 1.5;
        let start = x + pad + label_w;
        let right = x + w - pad;
        let per_row = (((right - start) + gap) / step).floor().max(1.0) as u32;
        // (tracker, boxes, rows of boxes) in drawing order.
        let rows: Vec<(&TrackerStyle, u32, u32)> = self
            .t
            .trackers
            .iter()
            .map(|tracker| {
                let count = tracker_boxes(tracker, self.face);
                let rows = if tracker.write_in {
                    1
                } else {
                    count.div_ceil(per_row).max(1)
                };
                (tracker, count, rows)
            })
            .collect();
        let block: f32 = rows.iter().map(|(_, _, r)| *r as f32 * step).sum();
        let height = copies as f32 * block - gap;
        let top = footer_top - gap - height;
        let stroke = Stroke::solid(colors.accent, 0.6);
        let mut row_top = top;
        for copy in 1..=copies {
            for (tracker, count, box_rows) in &rows {
                let baseline = row_top + box_side * 0.5 + cap_height(font.size_pt) * 0.5;
                items.push(
                    self.ts
                        .run(x + pad, baseline, font, &label_for(tracker, copy)),
                );
                if tracker.write_in {
                    items.push(Item::Line(Segment {
                        x1: start,
                        y1: row_top + box_side,
                        x2: right,
                        y2: row_top + box_side,
                        stroke,
                    }));
                }
                for i in 0..*count {
                    if tracker.write_in {
                        break;
                    }
                    let (row, col) = (i / per_row, i % per_row);
                    items.push(Item::Rect {
                        x: start + col as f32 * step,
                        y: row_top + row as f32 * step,
                        w: box_side,
                        h: box_side,
                        fill: Some(Rgb::WHITE),
                        stroke: Some(stroke),
                    });
                }
                row_top += *box_rows as f32 * step;
            }
        }
        top
    }

    /// The special rules or traits, each in bold followed by what it does, on a tinted panel
    /// (a strip behind each line, so the panel can continue on the next part).
    fn notes(&self, flow: &mut Flow, top: f32) -> f32 {
        // A back prints the rules in full even where the front names them in a row.
        let size_pt = match (&self.t.notes, self.style.content) {
            (Some(style), _) => style.size_pt,
            (None, Content::Back) => BACK_NOTES_PT,
            (None, _) => return top,
        };
        if self.face.notes.is_empty() {
            return top;
        }
        let Frame { x, w, .. } = self.frame;
        let pad = self.pad();
        let colors = &self.colors;
        let inset = 1.0 * self.scale;
        let gap = 0.6 * self.scale;
        let text_w = w - 2.0 * pad - 2.0 * inset;
        let bold = self.font(FontStyle::Bold, size_pt, colors.text);
        let regular = self.font(FontStyle::Regular, size_pt, colors.text);
        let lh = line_height(bold.size_pt);
        let panel_top = top + 0.8 * self.scale;
        let mut lines = Vec::new();
        for (n, note) in self.face.notes.iter().enumerate() {
            let spans = [
                Span::new(format!("{}:", note.title), bold),
                Span::new(note.text.clone(), regular),
            ];
            let (wrapped, cut) = self.ts.wrap_rich_checked(&spans, text_w);
            if cut {
                self.report_cut(format!("a word too long for the card in '{}'", note.title));
            }
            let last = wrapped.len().saturating_sub(1);
            for (i, line) in wrapped.into_iter().enumerate() {
                let after = if i == last && n + 1 < self.face.notes.len() {
                    gap
                } else {
                    0.0
                };
                lines.push((line, after));
            }
        }
        let mut y = panel_top + inset;
        let count = lines.len();
        for (i, (line, after)) in lines.into_iter().enumerate() {
            let strip_top = if i == 0 { panel_top } else { y };
            let strip_bottom = y + lh + after + if i + 1 == count { inset } else { 0.0 };
            flow.push(
                y + lh,
                self.style.ink.tint(
                    x + pad,
                    strip_top,
                    w - 2.0 * pad,
                    strip_bottom - strip_top,
                    colors.panel,
                    colors.accent,
                ),
            );
            let baseline = y + cap_height(bold.size_pt);
            for (dx, span) in line {
                flow.push(
                    y + lh,
                    self.ts
                        .run(x + pad + inset + dx, baseline, span.font, &span.text),
                );
            }
            y += lh + after;
            flow.may_break(y);
        }
        y + inset
    }
}

/// The side of the template `face` belongs to, if any.
pub(crate) fn side_of<'t>(t: &'t CardTemplate, face: &CardFace) -> Option<&'t SideStyle> {
    t.sides
        .iter()
        .find(|side| side.holds(&face.name, |label| face.stat(label).map(str::to_string)))
}

/// The side of the template a book or custom `card` belongs to, if any.
pub(crate) fn side_of_card<'t>(t: &'t CardTemplate, card: &Card) -> Option<&'t SideStyle> {
    let stats = card.data().printed_stats();
    t.sides.iter().find(|side| {
        side.holds(card.name(), |label| {
            stats
                .iter()
                .find(|s| s.label == label)
                .map(|s| s.value.clone())
        })
    })
}

/// The card's colours: the template's, with a side's band and the text on it.
pub(crate) fn side_colors(t: &CardTemplate, side: Option<&SideStyle>) -> CardColors {
    let mut colors = t.colors.clone();
    if let Some(side) = side {
        colors.accent = side.band;
        colors.on_accent = side.on_band.unwrap_or(t.colors.on_accent);
    }
    colors
}

/// How many boxes `tracker` draws for `face`: its fixed number, or the leading number of the
/// statistic it counts (at most 40, beyond which boxes stop being useful).
pub(crate) fn tracker_boxes(tracker: &TrackerStyle, face: &CardFace) -> u32 {
    tracker
        .boxes
        .or_else(|| {
            tracker
                .boxes_from
                .as_deref()
                .and_then(|label| face.stat(label))
                .and_then(leading_number)
        })
        .unwrap_or(0)
        .min(40)
}

/// The leading whole number of a value ("3" → 3, "5 (3)" → 5).
fn leading_number(value: &str) -> Option<u32> {
    let digits: String = value.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// `item` moved by (`dx`, `dy`).
pub(crate) fn shifted(item: &Item, dx: f32, dy: f32) -> Item {
    item.mapped(|x, y| (x + dx, y + dy))
}

/// The card's outline in its accent colour.
fn frame_rect(frame: Frame, t: &CardTemplate, colors: &CardColors) -> Item {
    let inset = t.border_width_pt * super::fonts::MM_PER_PT / 2.0;
    Item::Rect {
        x: frame.x + inset,
        y: frame.y + inset,
        w: frame.w - 2.0 * inset,
        h: frame.h - 2.0 * inset,
        fill: None,
        stroke: Some(Stroke::solid(colors.accent, t.border_width_pt)),
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

    const POKER: (f32, f32) = (63.0, 88.0);

    fn setter() -> Typesetter {
        Typesetter {
            faces: faces().unwrap(),
        }
    }

    /// A template that names no statistic at all still prints every one of them.
    #[test]
    fn statistics_a_template_does_not_name_still_appear() {
        let ts = setter();
        for id in RulesetId::ALL {
            let mut template = templates().unwrap().card_template(id).unwrap().clone();
            template.subtitle.stats.clear();
            template.body.stats.clear();
            template.body.cells.clear();
            template.body.lists.clear();
            template.body.labels.clear();
            template.notes = None;
            template.boxes = None;
            let card = &ruleset(id).library()[0];
            let mut face = face_for(card, &ForceUnit::library(card.name(), 1));
            face.stats.push(FaceStat {
                label: "Brand-new stat".into(),
                value: "42".into(),
            });
            let fitted = fit_card(ts, &template, &face, POKER, FrontStyle::sheet(Ink::Full));
            assert_eq!(fitted.problems, Vec::<String>::new(), "{id}");
            // A label may break after its hyphen ("Brand-" / "new stat").
            let text = fitted
                .parts
                .iter()
                .map(|p| texts(p))
                .collect::<String>()
                .replace("- ", "-");
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
        let ts = setter();
        let template = templates()
            .unwrap()
            .card_template(RulesetId::BattleOfTanks)
            .unwrap();
        let card = &ruleset(RulesetId::BattleOfTanks).library()[0];
        let face = face_for(card, &ForceUnit::library(card.name(), 1));
        // Nine short rows leave room on a tarot card, so it grows to the template's maximum.
        let tarot = fit_card(
            ts,
            template,
            &face,
            (70.0, 120.0),
            FrontStyle::sheet(Ink::Full),
        );
        assert_eq!(tarot.scale, template.max_scale);
        assert_eq!(tarot.parts.len(), 1);
    }

    /// Finding 2: a wordy card once shrank every card of its force; now what does not fit
    /// at the smallest legible size goes on a second card instead.
    #[test]
    fn text_that_cannot_fit_continues_on_a_second_card_never_below_six_points() {
        let ts = setter();
        let template = templates()
            .unwrap()
            .card_template(RulesetId::ArmourBattles)
            .unwrap();
        let card = &ruleset(RulesetId::ArmourBattles).library()[0];
        let mut face = face_for(card, &ForceUnit::library(card.name(), 1));
        for n in 0..12 {
            face.notes.push(crate::export::RuleNote {
                title: format!("House rule {n}"),
                text: "When this unit is fired on it may at once move back a normal move and \
                       cannot be activated again this turn."
                    .into(),
            });
        }
        let fitted = fit_card(
            ts,
            template,
            &face,
            (57.0, 89.0),
            FrontStyle::sheet(Ink::Full),
        );
        assert!(fitted.parts.len() >= 2, "{}", fitted.parts.len());
        assert_eq!(fitted.problems, Vec::<String>::new());
        let all: Vec<&Item> = fitted.parts.iter().flatten().collect();
        for item in &all {
            if let Item::Text(run) = item {
                assert!(
                    run.size_pt >= MIN_TEXT_PT - 1e-3,
                    "{} at {}",
                    run.text,
                    run.size_pt
                );
                assert!(run.baseline <= 89.0 && run.x + run.width <= 57.0 + 1e-3);
            }
        }
        let count = fitted.parts.len();
        let text = texts(&fitted.parts[1]);
        assert!(text.contains(&format!("2/{count}")), "{text}");
        assert!(texts(&fitted.parts[count - 1]).contains("House rule 11:"));
    }

    /// Finding 4: a per-type card ("Panther ×3") had tick boxes for one unit only.
    #[test]
    fn a_per_type_card_has_a_row_of_boxes_for_each_unit_it_stands_for() {
        let ts = setter();
        let template = templates()
            .unwrap()
            .card_template(RulesetId::ArmourBattles)
            .unwrap();
        let card = &ruleset(RulesetId::ArmourBattles).library()[0];
        let mut face = face_for(card, &ForceUnit::library(card.name(), 1));
        face.count = 3;
        let fitted = fit_card(ts, template, &face, POKER, FrontStyle::sheet(Ink::Full));
        let items = &fitted.parts[0];
        let text = texts(items);
        for label in ["Disruption 1", "Disruption 2", "Disruption 3", "×3"] {
            assert!(text.contains(label), "{label} in {text}");
        }
        let boxes = items
            .iter()
            .filter(|i| {
                matches!(
                    i,
                    Item::Rect {
                        fill: Some(Rgb::WHITE),
                        ..
                    }
                )
            })
            .count();
        assert_eq!(boxes, 9, "three boxes of cohesion for each of three units");
    }

    /// A boxed value with a bracketed alternative (the StuG's Reaction "6D (5D)") once took
    /// two lines and made its row of boxes taller than its neighbours: its main part now
    /// stands on the boxes' one line with the bracket beside it, smaller.
    #[test]
    fn a_bracketed_boxed_value_and_a_short_last_word_keep_their_lines() {
        let ts = setter();
        let template = templates()
            .unwrap()
            .card_template(RulesetId::ArmourBattles)
            .unwrap();
        let card = ruleset(RulesetId::ArmourBattles)
            .library()
            .iter()
            .find(|c| c.name() == "Sturmgeschütz III")
            .unwrap();
        let face = face_for(card, &ForceUnit::library(card.name(), 1));
        let fitted = fit_card(ts, template, &face, POKER, FrontStyle::sheet(Ink::Full));
        let runs: Vec<&crate::export::display::TextRun> = fitted.parts[0]
            .iter()
            .filter_map(|i| match i {
                Item::Text(run) => Some(run),
                _ => None,
            })
            .collect();
        let run = |text: &str| {
            runs.iter()
                .find(|r| r.text.trim_start() == text)
                .unwrap_or_else(|| panic!("no run {text:?}"))
        };
        let (main, note, at) = (run("6D"), run("(5D)"), run("8D"));
        assert!((main.baseline - note.baseline).abs() < 1e-3);
        assert!(
            (main.baseline - at.baseline).abs() < 1e-3,
            "the row lines up"
        );
        assert!(note.size_pt < main.size_pt);
        assert!(note.x >= main.x + main.width - 1e-3);
        // With its copy badge the name is too long for one line at 80 % of the title size;
        // it stays on one line rather than leave "III" alone on the second.
        let mut face = face;
        face.copy = Some((1, 2));
        let fitted = fit_card(ts, template, &face, POKER, FrontStyle::sheet(Ink::Full));
        let title = fitted.parts[0].iter().find_map(|i| match i {
            Item::Text(run) if run.text.starts_with("Sturmgesch") => Some(run),
            _ => None,
        });
        assert_eq!(title.map(|r| r.text.as_str()), Some("Sturmgeschütz III"));
        assert!(title.is_some_and(|r| r.size_pt >= 10.0));
        // On a bridge card, narrower, "6D (5D)" and the Panther's "7D/6D" still keep one line
        // each (a word broken as "7D/" over "6D" read worse than one set smaller).
        let bridge = (57.0, 89.0);
        let one_line = |name: &str, wanted: &[&str]| {
            let card = ruleset(RulesetId::ArmourBattles)
                .library()
                .iter()
                .find(|c| c.name() == name)
                .unwrap();
            let face = face_for(card, &ForceUnit::library(card.name(), 1));
            let fitted = fit_card(ts, template, &face, bridge, FrontStyle::sheet(Ink::Full));
            let texts: Vec<String> = fitted.parts[0]
                .iter()
                .filter_map(|i| match i {
                    Item::Text(run) => Some(run.text.trim_start().to_string()),
                    _ => None,
                })
                .collect();
            for w in wanted {
                assert!(
                    texts.iter().any(|t| t == w),
                    "{name}: no run {w:?} in {texts:?}"
                );
            }
        };
        one_line("Sturmgeschütz III", &["6D", "(5D)"]);
        one_line("Panther Ausf G", &["7D/6D"]);
    }

    #[test]
    fn leading_numbers_read_the_first_digits() {
        assert_eq!(leading_number("3"), Some(3));
        assert_eq!(leading_number("12 (3)"), Some(12));
        assert_eq!(leading_number("—"), None);
    }
}
