//! A side's mark: a small national or regimental sign (a star, a cross, a roundel, the broad
//! arrow, a hide shield) drawn as vector shapes in a card's header, so a US card and a German
//! one differ at a glance, as on a bought card. In low ink a mark keeps its shape as an
//! outline and fills nothing.

use std::f32::consts::{FRAC_PI_2, TAU};

use super::display::{Item, Rgb, Stroke};
use super::fonts::MM_PER_PT;
use super::ink::Ink;
use super::template::{MarkShape, MarkStyle};

/// Width of a mark's outline in low ink, and of the thin line round a filled shape.
const OUTLINE_PT: f32 = 0.5;

/// Points on a circle drawn as a polygon: smooth at a mark's few millimetres.
const CIRCLE_POINTS: usize = 36;

/// The mark `style` in a square of side `size` with its top-left corner at (`x`, `y`).
/// `plain` is the colour of its outline in low ink.
pub(crate) fn draw_mark(
    style: &MarkStyle,
    (x, y): (f32, f32),
    size: f32,
    ink: Ink,
    plain: Rgb,
) -> Vec<Item> {
    let r = size / 2.0;
    let centre = (x + r, y + r);
    let colour = |i: usize| style.colors.get(i).copied().unwrap_or(plain);
    let mut items = Vec::new();
    let mut shape = |points: Vec<(f32, f32)>, fill: Rgb| {
        items.push(polygon(points, fill, ink, plain));
    };
    match style.shape {
        MarkShape::Star => {
            shape(star(centre, r), colour(0));
            if let (Some(edge), Ink::Full) = (style.colors.get(1), ink) {
                items.push(Item::Path {
                    points: star(centre, r),
                    closed: true,
                    fill: None,
                    stroke: Some(Stroke::solid(*edge, OUTLINE_PT)),
                });
            }
        }
        MarkShape::Cross => {
            shape(cross(centre, r, 0.36 * r), colour(1));
            shape(cross(centre, 0.84 * r, 0.19 * r), colour(0));
        }
        MarkShape::Roundel => {
            for (k, share) in [1.0, 0.66, 0.33].into_iter().enumerate() {
                shape(ellipse(centre, share * r, share * r), colour(k));
            }
        }
        MarkShape::BroadArrow => {
            let (cx, cy) = centre;
            let width = 0.3 * r / MM_PER_PT;
            let stroke = Stroke::solid(ink_colour(ink, colour(0), plain), width);
            let apex = (cx, cy - 0.85 * r);
            for end in [
                (cx - 0.62 * r, cy),
                (cx + 0.62 * r, cy),
                (cx, cy + 0.95 * r),
            ] {
                items.push(Item::Path {
                    points: vec![apex, end],
                    closed: false,
                    fill: None,
                    stroke: Some(stroke),
                });
            }
        }
        MarkShape::Shield => {
            let (cx, cy) = centre;
            let stick = Stroke::solid(ink_colour(ink, colour(1), plain), 0.14 * r / MM_PER_PT);
            items.push(Item::Path {
                points: vec![(cx, cy - r), (cx, cy + r)],
                closed: false,
                fill: None,
                stroke: Some(stick),
            });
            items.push(polygon(
                ellipse(centre, 0.5 * r, 0.86 * r),
                colour(0),
                ink,
                plain,
            ));
            // The stick shows across the hide too, as the shield's middle stripe.
            items.push(Item::Path {
                points: vec![(cx, cy - 0.7 * r), (cx, cy + 0.7 * r)],
                closed: false,
                fill: None,
                stroke: Some(stick),
            });
        }
    }
    items
}

/// A closed shape filled in full ink, outlined in low ink.
fn polygon(points: Vec<(f32, f32)>, fill: Rgb, ink: Ink, plain: Rgb) -> Item {
    match ink {
        Ink::Full => Item::Path {
            points,
            closed: true,
            fill: Some(fill),
            stroke: None,
        },
        Ink::Low => Item::Path {
            points,
            closed: true,
            fill: None,
            stroke: Some(Stroke::solid(plain, OUTLINE_PT)),
        },
    }
}

fn ink_colour(ink: Ink, full: Rgb, plain: Rgb) -> Rgb {
    match ink {
        Ink::Full => full,
        Ink::Low => plain,
    }
}

/// A five-pointed star of outer radius `r`, point up.
fn star((cx, cy): (f32, f32), r: f32) -> Vec<(f32, f32)> {
    (0..10)
        .map(|k| {
            let angle = -FRAC_PI_2 + k as f32 * TAU / 10.0;
            let radius = if k % 2 == 0 { r } else { 0.382 * r };
            (cx + radius * angle.cos(), cy + radius * angle.sin())
        })
        .collect()
}

/// A cross of arms reaching `reach` from the centre, `half` wide on each side of their axis.
fn cross((cx, cy): (f32, f32), reach: f32, half: f32) -> Vec<(f32, f32)> {
    let (a, h) = (reach, half);
    [
        (-h, -a),
        (h, -a),
        (h, -h),
        (a, -h),
        (a, h),
        (h, h),
        (h, a),
        (-h, a),
        (-h, h),
        (-a, h),
        (-a, -h),
        (-h, -h),
    ]
    .iter()
    .map(|(dx, dy)| (cx + dx, cy + dy))
    .collect()
}

fn ellipse((cx, cy): (f32, f32), rx: f32, ry: f32) -> Vec<(f32, f32)> {
    (0..CIRCLE_POINTS)
        .map(|k| {
            let angle = k as f32 * TAU / CIRCLE_POINTS as f32;
            (cx + rx * angle.cos(), cy + ry * angle.sin())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn style(shape: MarkShape, colors: &[Rgb]) -> MarkStyle {
        MarkStyle {
            shape,
            colors: colors.to_vec(),
        }
    }

    const SHAPES: [(MarkShape, usize); 5] = [
        (MarkShape::Star, 2),
        (MarkShape::Cross, 2),
        (MarkShape::Roundel, 3),
        (MarkShape::BroadArrow, 1),
        (MarkShape::Shield, 2),
    ];

    /// Every point of every mark lies in its square.
    #[test]
    fn every_mark_stays_in_its_square() {
        for (shape, n) in SHAPES {
            let mark = style(shape, &vec![Rgb::new(200, 30, 30); n]);
            for item in draw_mark(&mark, (10.0, 20.0), 6.0, Ink::Full, Rgb::BLACK) {
                let Item::Path { points, .. } = item else {
                    panic!("{shape:?}: only paths");
                };
                for (x, y) in points {
                    assert!((10.0 - 1e-3..=16.0 + 1e-3).contains(&x), "{shape:?} x {x}");
                    assert!((20.0 - 1e-3..=26.0 + 1e-3).contains(&y), "{shape:?} y {y}");
                }
            }
        }
    }

    /// Issue 37: in low ink a mark keeps its shape as an outline and fills nothing.
    #[test]
    fn in_low_ink_a_mark_is_an_outline() {
        for (shape, n) in SHAPES {
            let mark = style(shape, &vec![Rgb::new(200, 30, 30); n]);
            let items = draw_mark(&mark, (0.0, 0.0), 6.0, Ink::Low, Rgb::BLACK);
            assert!(!items.is_empty());
            for item in items {
                let Item::Path { fill, stroke, .. } = item else {
                    panic!("{shape:?}: only paths");
                };
                assert_eq!(fill, None, "{shape:?}");
                assert_eq!(stroke.map(|s| s.color), Some(Rgb::BLACK), "{shape:?}");
            }
        }
    }

    #[test]
    fn a_star_has_five_points_at_its_radius() {
        let points = star((0.0, 0.0), 3.0);
        let outer = points
            .iter()
            .filter(|(x, y)| ((x * x + y * y).sqrt() - 3.0).abs() < 1e-4)
            .count();
        assert_eq!(outer, 5);
        assert!((points[0].1 + 3.0).abs() < 1e-4, "the first point is up");
    }
}
