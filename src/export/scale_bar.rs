//! The scale bar every sheet carries: 50 mm marked every 5 mm, and "print at 100 %" under
//! it. A print dialog that fits the page to the printable area shrinks everything by 3–6 %,
//! which is why home-printed cards come out small and sleeves hang loose; the bar lets a
//! player check a print with a ruler, and the words say what to choose before printing.

use super::display::{Item, Rgb, Segment, Stroke};
use super::fonts::{FontStyle, MM_PER_PT};
use super::text::{Font, MIN_TEXT_PT, Typesetter, cap_height};

/// The bar's length: long enough that a 3 % shrink (1.5 mm) shows against a ruler.
pub const SCALE_BAR_MM: f32 = 50.0;

/// What the caption under the bar says (tests and the CI check look for "print at 100 %").
pub const PRINT_AT_ACTUAL_SIZE: &str = "50 mm · print at 100 %, not fit to page";

/// Height of the bar's ticks above its line.
const TICK_MM: f32 = 1.6;

/// Height of the ticks between the numbered ones.
const HALF_TICK_MM: f32 = 0.9;

/// Space between the bar and its caption.
const CAPTION_GAP_MM: f32 = 0.7;

/// Grey of the bar and its caption: visible, but not competing with the content.
const GREY: Rgb = Rgb::new(90, 90, 90);

/// The caption's face: the smallest legible size, so the bar fits a card sheet's margin.
fn caption_font() -> Font {
    Font::new(FontStyle::Regular, MIN_TEXT_PT, GREY)
}

/// The room the bar and its caption take: (width, height) in millimetres.
pub(crate) fn scale_bar_size(ts: Typesetter) -> (f32, f32) {
    let font = caption_font();
    let descent = 0.24 * font.size_pt * MM_PER_PT;
    let width = SCALE_BAR_MM.max(ts.width(PRINT_AT_ACTUAL_SIZE, font));
    let height = TICK_MM + CAPTION_GAP_MM + cap_height(font.size_pt) + descent;
    (width, height)
}

/// The bar with its top-left corner at (`x`, `y`): a 50 mm line with a tick every 5 mm
/// (taller every 10 mm), and the caption under it.
pub(crate) fn scale_bar(ts: Typesetter, x: f32, y: f32) -> Vec<Item> {
    let stroke = Stroke::solid(GREY, 0.4);
    let line = y + TICK_MM;
    let mut items = vec![Item::Line(Segment {
        x1: x,
        y1: line,
        x2: x + SCALE_BAR_MM,
        y2: line,
        stroke,
    })];
    for step in 0..=10 {
        let at = x + step as f32 * 5.0;
        let height = if step % 2 == 0 { TICK_MM } else { HALF_TICK_MM };
        items.push(Item::Line(Segment {
            x1: at,
            y1: line - height,
            x2: at,
            y2: line,
            stroke,
        }));
    }
    let font = caption_font();
    let baseline = line + CAPTION_GAP_MM + cap_height(font.size_pt);
    items.push(ts.run(x, baseline, font, PRINT_AT_ACTUAL_SIZE));
    items
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::fonts::faces;

    #[test]
    fn the_bar_is_50_mm_with_eleven_ticks_and_fits_its_stated_size() {
        let ts = Typesetter {
            faces: faces().unwrap(),
        };
        let items = scale_bar(ts, 10.0, 20.0);
        let lines: Vec<(f32, f32, f32, f32)> = items
            .iter()
            .filter_map(|i| match i {
                Item::Line(Segment { x1, y1, x2, y2, .. }) => Some((*x1, *y1, *x2, *y2)),
                _ => None,
            })
            .collect();
        assert!(
            lines
                .iter()
                .any(|(x1, _, x2, _)| (x2 - x1 - SCALE_BAR_MM).abs() < 1e-4)
        );
        let ticks: Vec<f32> = lines
            .iter()
            .filter(|(x1, _, x2, _)| x1 == x2)
            .map(|(x, ..)| x - 10.0)
            .collect();
        assert_eq!(ticks.len(), 11);
        assert!((ticks[10] - 50.0).abs() < 1e-4);
        let (w, h) = scale_bar_size(ts);
        for item in &items {
            if let Item::Text(run) = item {
                assert!(run.x + run.width <= 10.0 + w + 1e-3);
                assert!(run.baseline <= 20.0 + h);
                assert!(run.text.contains("print at 100 %"));
            }
        }
    }
}
