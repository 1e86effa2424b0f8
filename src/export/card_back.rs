//! The back of a card, for duplex printing: the ruleset's colour, an inner frame and its
//! title, the same on every card so a sleeved deck gives nothing away. In low ink the colour
//! is left out and the frame and title carry the design.

use super::card_layout::{Bleed, Frame};
use super::display::{Item, Stroke};
use super::fonts::FontStyle;
use super::ink::Ink;
use super::template::CardTemplate;
use super::text::{Font, MIN_STAT_PT, MIN_TEXT_PT, Typesetter, cap_height};

/// Draws a card back: the ruleset's colour (running `bleed` past the cut), an inner frame
/// and its title.
pub(crate) fn draw_back(
    ts: Typesetter,
    t: &CardTemplate,
    frame: Frame,
    bleed: Bleed,
    ink: Ink,
) -> Vec<Item> {
    let Frame { x, y, w, h } = frame;
    let on = ink.on_band(t.colors.on_accent, t.colors.accent);
    let inset = 3.0;
    let mut items = Vec::new();
    if ink == Ink::Full {
        items.push(Item::Rect {
            x: x - bleed.left,
            y: y - bleed.top,
            w: w + bleed.left + bleed.right,
            h: h + bleed.top + bleed.bottom,
            fill: Some(t.colors.accent),
            stroke: None,
        });
    }
    items.push(Item::Rect {
        x: x + inset,
        y: y + inset,
        w: w - 2.0 * inset,
        h: h - 2.0 * inset,
        fill: None,
        stroke: Some(Stroke::solid(on, 0.8)),
    });
    let inner_w = w - 4.0 * inset;
    let title = Font::new(FontStyle::Bold, t.back.size_pt, on);
    let size = ts.fit_size(&t.back.title, title, MIN_STAT_PT, inner_w, 2);
    let title = title.sized(size);
    let lines = ts.wrap_clamped(&t.back.title, title, inner_w, 2);
    let sub = Font::new(
        FontStyle::Regular,
        (t.back.size_pt * 0.5).max(MIN_TEXT_PT),
        on,
    );
    let block_h = lines.len() as f32 * title.line_height() + sub.line_height();
    let mut baseline = y + (h - block_h) / 2.0 + cap_height(size);
    for line in &lines {
        items.push(centered(ts, x + w / 2.0, baseline, title, line));
        baseline += title.line_height();
    }
    let subtitle = ts.ellipsize(&t.back.subtitle, sub, inner_w);
    items.push(centered(ts, x + w / 2.0, baseline + 0.5, sub, &subtitle));
    let mark = Font::new(FontStyle::Regular, MIN_TEXT_PT, on);
    items.push(centered(
        ts,
        x + w / 2.0,
        y + h - inset - 2.5,
        mark,
        "Quartermaster",
    ));
    items
}

fn centered(ts: Typesetter, center_x: f32, baseline: f32, font: Font, text: &str) -> Item {
    let w = ts.width(text, font);
    ts.run(center_x - w / 2.0, baseline, font, text)
}
