//! The duplex calibration sheet: one sheet, front and back, that tells how far a printer
//! shifts the backs of a duplex print.
//!
//! The front carries millimetre scales across (X) and down (Y), each numbered every 5 mm
//! from −10 to +10 around the point where a perfect back lands, and each twice — X near the
//! top and the bottom, Y at the left and the right — so a back that lands turned as well as
//! shifted shows as two different readings. The back carries one line through each scale.
//! Held up to the light, the numbers where the back's lines cross the front's scales are the
//! printer's back offset, to the right and down as seen from the front (the mean of the two
//! readings of an axis): entered as `--back-offset X,Y` (or in the Print view for that
//! printer), every back is printed shifted the other way. Printing the sheet again with the
//! offset applied should read 0, 0. Both sides also carry the same corner crosses, which
//! line up when the backs are right; a 100 mm ruler and the 50 mm scale bar check that the
//! sheet printed at actual size.

use super::ExportError;
use super::display::{Duplex, Item, Layout, Page, Rgb, Segment, Stroke};
use super::fonts::{FontStyle, faces};
use super::scale_bar::{scale_bar, scale_bar_size};
use super::sheet::{BackOffset, Flip, MAX_BACK_OFFSET_MM};
use super::template::templates;
use super::text::{Font, Typesetter, cap_height};

/// Scale ticks every millimetre; longer and numbered every this many.
const NUMBERED_EVERY_MM: i32 = 5;

/// A numbered tick's length, and every other tick's.
const LONG_TICK_MM: f32 = 6.0;
const SHORT_TICK_MM: f32 = 3.0;

/// The scales' numbers: large enough to read through the paper held to a light.
const SCALE_NUMBER_PT: f32 = 8.0;

/// The ruler that checks the print's scale.
const RULER_MM: f32 = 100.0;

/// How far the back's pointer lines run each side of their scale, so they are easy to find.
const POINTER_REACH_MM: f32 = 18.0;

/// Corner crosses this far in from each edge (inside any printer's margin).
const CROSS_INSET_MM: f32 = 22.0;

const CROSS_ARM_MM: f32 = 6.0;

/// Lays out the two pages of the calibration sheet for `page` (`a4`, `letter`), turned over
/// `flip`, with `offset` already applied to the back (0, 0 to measure a printer afresh).
pub fn layout_calibration(
    page: &str,
    flip: Flip,
    offset: BackOffset,
) -> Result<Layout, ExportError> {
    let t = templates()?;
    let page = t.page(page)?;
    let offset = offset.checked()?;
    let ts = Typesetter { faces: faces()? };
    let (w, h) = (page.width_mm, page.height_mm);
    let ink = Rgb::BLACK;
    let thin = Stroke::solid(ink, 0.35);
    let mut front = Page::new(w, h);
    let mut back = Page::new(w, h);
    // Two reading points an axis: X near the top and the bottom, Y at the left and right.
    let x_scales = [(w / 2.0, 105.0), (w / 2.0, h - 100.0)];
    let y_scales = [(45.0, h / 2.0), (w - 45.0, h / 2.0)];
    for at in x_scales {
        front.items.extend(scale(ts, at, true, thin));
    }
    for at in y_scales {
        front.items.extend(scale(ts, at, false, thin));
    }
    // The back's pointers, drawn where a perfect back puts them as seen from the front.
    let pointer = Stroke::solid(ink, 0.5);
    let mut pointers: Vec<Item> = x_scales
        .iter()
        .map(|&(x, y)| {
            Item::Line(Segment {
                x1: x,
                y1: y - POINTER_REACH_MM,
                x2: x,
                y2: y + POINTER_REACH_MM,
                stroke: pointer,
            })
        })
        .chain(y_scales.iter().map(|&(x, y)| {
            Item::Line(Segment {
                x1: x - POINTER_REACH_MM,
                y1: y,
                x2: x + POINTER_REACH_MM,
                y2: y,
                stroke: pointer,
            })
        }))
        .collect();
    for (cx, cy) in [
        (CROSS_INSET_MM, CROSS_INSET_MM),
        (w - CROSS_INSET_MM, CROSS_INSET_MM),
        (CROSS_INSET_MM, h - CROSS_INSET_MM),
        (w - CROSS_INSET_MM, h - CROSS_INSET_MM),
    ] {
        let cross = cross(cx, cy, thin);
        front.items.extend(cross.iter().cloned());
        pointers.extend(cross);
    }
    let (dx, dy) = offset.shift_on_back(flip);
    back.items.extend(
        pointers
            .iter()
            .map(|item| on_back(item, w, h, flip, (dx, dy))),
    );
    let text = Font::new(FontStyle::Regular, 8.5, ink);
    let bold = Font::new(FontStyle::Bold, 12.0, ink);
    let edge = match flip {
        Flip::LongEdge => "long",
        Flip::ShortEdge => "short",
    };
    let left = 30.0;
    let width = w - 2.0 * left;
    let mut y = 40.0;
    let put = |page: &mut Page, font: Font, line: &str, y: &mut f32| {
        *y += cap_height(font.size_pt);
        page.items.push(ts.run(left, *y, font, line));
        *y += font.line_height() - cap_height(font.size_pt);
    };
    put(
        &mut front,
        bold,
        &format!(
            "Duplex calibration — {}, turned over the {edge} edge",
            page.label
        ),
        &mut y,
    );
    let steps = [
        "Print this sheet on both sides, with the same printer settings as your cards.",
        "Hold it up to a light. The back's lines cross the four scales below.",
        "Read where each line crosses its scale, to the half millimetre: both scales across \
         (X, + to the right) and both down (Y, + downwards). Two readings of an axis that \
         differ mean the back is turned as well as shifted: take their mean.",
        "Enter them as the back offset for this printer: in the Print view, or on the command \
         line as --back-offset X,Y. Backs are then printed shifted the other way.",
        "Print the sheet again with the offset: every line should cross at 0.",
        "Check the ruler at the bottom with a real one: if it is not 100 mm, the print was \
         scaled — print at 100 %, not fit to page.",
    ];
    for (n, step) in steps.iter().enumerate() {
        let (lines, _) = ts.wrap_checked(&format!("{}. {step}", n + 1), text, width);
        for line in lines {
            put(&mut front, text, &line, &mut y);
        }
    }
    let note = if offset.is_zero() {
        "Back of the calibration sheet: no offset applied.".to_string()
    } else {
        format!(
            "Back of the calibration sheet, printed with back offset {},{} mm.",
            offset.x_mm, offset.y_mm
        )
    };
    // Low on the page, where the front has nothing to read through it.
    back.items.push(ts.run(left, h - 40.0, text, &note));
    // Each scale's name beside it: X to its left, Y above it.
    let bold_small = Font::new(FontStyle::Bold, 9.0, ink);
    let x_name = "X, across (mm)";
    for (x, y) in x_scales {
        front.items.push(ts.run(
            x - MAX_BACK_OFFSET_MM - 4.0 - ts.width(x_name, bold_small),
            y,
            bold_small,
            x_name,
        ));
    }
    for (x, y) in y_scales {
        front.items.push(ts.run(
            x - 10.0,
            y - MAX_BACK_OFFSET_MM - 4.0,
            bold_small,
            "Y, down (mm)",
        ));
    }
    front
        .items
        .extend(ruler(ts, ((w - RULER_MM) / 2.0, h - 68.0), thin));
    let (bar_w, _) = scale_bar_size(ts);
    front
        .items
        .extend(scale_bar(ts, (w - bar_w) / 2.0, h - 32.0));
    let mut layout = Layout::new(format!("Duplex calibration — {}", page.label));
    layout.pages = vec![front, back];
    layout.duplex = match flip {
        Flip::LongEdge => Duplex::FlipLongEdge,
        Flip::ShortEdge => Duplex::FlipShortEdge,
    };
    Ok(layout)
}

/// A 100 mm ruler from `(x, y)` (its left end, on its line): a tick every millimetre, longer
/// every 5, numbered every 10, and what it is for.
fn ruler(ts: Typesetter, (x, y): (f32, f32), stroke: Stroke) -> Vec<Item> {
    let font = Font::new(FontStyle::Regular, 7.0, Rgb::BLACK);
    let mut items = vec![Item::Line(Segment {
        x1: x,
        y1: y,
        x2: x + RULER_MM,
        y2: y,
        stroke,
    })];
    for mm in 0..=RULER_MM as i32 {
        let at = x + mm as f32;
        let len = match mm {
            m if m % 10 == 0 => 4.0,
            m if m % 5 == 0 => 2.8,
            _ => 1.6,
        };
        items.push(Item::Line(Segment {
            x1: at,
            y1: y - len,
            x2: at,
            y2: y,
            stroke,
        }));
        if mm % 10 == 0 {
            let label = mm.to_string();
            let width = ts.width(&label, font);
            items.push(ts.run(at - width / 2.0, y - 5.0, font, &label));
        }
    }
    let caption = "100 mm: measure it with a ruler to check the sheet printed at actual size";
    items.push(ts.run(x, y + 1.0 + cap_height(font.size_pt), font, caption));
    items
}

/// A millimetre scale centred on `(cx, cy)`, from −10 to +10 mm across (`across`) or down,
/// numbered every 5 mm. Across, the numbers alternate above the ticks and below the line,
/// so "−10" and "−5" never run together.
fn scale(ts: Typesetter, (cx, cy): (f32, f32), across: bool, stroke: Stroke) -> Vec<Item> {
    let font = Font::new(FontStyle::Regular, SCALE_NUMBER_PT, Rgb::BLACK);
    let reach = MAX_BACK_OFFSET_MM as i32;
    let mut items = Vec::new();
    for mm in -reach..=reach {
        let numbered = mm % NUMBERED_EVERY_MM == 0;
        let len = if numbered {
            LONG_TICK_MM
        } else {
            SHORT_TICK_MM
        };
        let at = mm as f32;
        items.push(if across {
            Item::Line(Segment {
                x1: cx + at,
                y1: cy - len,
                x2: cx + at,
                y2: cy,
                stroke,
            })
        } else {
            Item::Line(Segment {
                x1: cx,
                y1: cy + at,
                x2: cx + len,
                y2: cy + at,
                stroke,
            })
        });
        if numbered {
            let label = match mm {
                0 => "0".to_string(),
                m if m > 0 => format!("+{m}"),
                m => format!("−{}", m.unsigned_abs()),
            };
            let width = ts.width(&label, font);
            let above = (mm / NUMBERED_EVERY_MM) % 2 == 0;
            items.push(if !across {
                ts.run(
                    cx + len + 1.0,
                    cy + at + cap_height(SCALE_NUMBER_PT) / 2.0,
                    font,
                    &label,
                )
            } else if above {
                ts.run(cx + at - width / 2.0, cy - len - 1.0, font, &label)
            } else {
                ts.run(
                    cx + at - width / 2.0,
                    cy + 1.2 + cap_height(SCALE_NUMBER_PT),
                    font,
                    &label,
                )
            });
        }
    }
    let end = MAX_BACK_OFFSET_MM;
    items.push(if across {
        Item::Line(Segment {
            x1: cx - end,
            y1: cy,
            x2: cx + end,
            y2: cy,
            stroke,
        })
    } else {
        Item::Line(Segment {
            x1: cx,
            y1: cy - end,
            x2: cx,
            y2: cy + end,
            stroke,
        })
    });
    items
}

/// A registration cross centred on `(cx, cy)`.
fn cross(cx: f32, cy: f32, stroke: Stroke) -> Vec<Item> {
    vec![
        Item::Line(Segment {
            x1: cx - CROSS_ARM_MM,
            y1: cy,
            x2: cx + CROSS_ARM_MM,
            y2: cy,
            stroke,
        }),
        Item::Line(Segment {
            x1: cx,
            y1: cy - CROSS_ARM_MM,
            x2: cx,
            y2: cy + CROSS_ARM_MM,
            stroke,
        }),
    ]
}

/// A line drawn at a front-view position, as the back page must draw it: mirrored the way
/// the sheet turns, then shifted by the back offset.
fn on_back(item: &Item, w: f32, h: f32, flip: Flip, (dx, dy): (f32, f32)) -> Item {
    item.mapped(|x, y| match flip {
        Flip::LongEdge => (w - x + dx, y + dy),
        Flip::ShortEdge => (x + dx, h - y + dy),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::display::TextRun;

    /// The pointer across, as the front sees it through the paper: the back's vertical line.
    fn pointer_x(layout: &Layout, flip: Flip) -> f32 {
        let back = &layout.pages[1];
        let w = back.width;
        back.items
            .iter()
            .find_map(|item| match item {
                Item::Line(Segment { x1, x2, y1, y2, .. })
                    if (x1 - x2).abs() < 1e-4 && (y2 - y1).abs() > 2.0 * POINTER_REACH_MM - 1.0 =>
                {
                    Some(match flip {
                        Flip::LongEdge => w - x1,
                        Flip::ShortEdge => *x1,
                    })
                }
                _ => None,
            })
            .unwrap_or(f32::NAN)
    }

    #[test]
    fn the_back_pointer_sits_on_the_scales_zero_and_moves_against_an_offset() {
        for page in ["a4", "letter"] {
            for flip in [Flip::LongEdge, Flip::ShortEdge] {
                let plain = layout_calibration(page, flip, BackOffset::default()).unwrap();
                assert_eq!(plain.pages.len(), 2);
                let zero = plain.pages[0].width / 2.0;
                assert!(
                    (pointer_x(&plain, flip) - zero).abs() < 1e-3,
                    "{page} {flip:?}"
                );
                // A printer that puts backs 2 mm to the right gets them printed 2 mm left.
                let offset = BackOffset {
                    x_mm: 2.0,
                    y_mm: 0.0,
                };
                let corrected = layout_calibration(page, flip, offset).unwrap();
                assert!(
                    (pointer_x(&corrected, flip) - (zero - 2.0)).abs() < 1e-3,
                    "{page} {flip:?}"
                );
            }
        }
        let far = BackOffset {
            x_mm: 0.0,
            y_mm: -11.0,
        };
        assert!(layout_calibration("a4", Flip::LongEdge, far).is_err());
    }

    /// Issue 37: "−10−5" ran together, one reading point an axis, no ruler. The numbers of
    /// each scale across stand clear of each other, there are two scales an axis with a
    /// pointer each on the back, and a 100 mm ruler numbered every 10 mm.
    #[test]
    fn two_scales_an_axis_legible_numbers_and_a_100_mm_ruler() {
        for page in ["a4", "letter"] {
            let layout = layout_calibration(page, Flip::LongEdge, BackOffset::default()).unwrap();
            let front = &layout.pages[0];
            let names = |name: &str| front.texts().filter(|t| t.text == name).count();
            assert_eq!(names("X, across (mm)"), 2, "{page}");
            assert_eq!(names("Y, down (mm)"), 2, "{page}");
            let long = |item: &&Item, across: bool| match item {
                Item::Line(Segment { x1, y1, x2, y2, .. }) => {
                    let (dx, dy) = ((x2 - x1).abs(), (y2 - y1).abs());
                    let straight = if across { dx < 1e-4 } else { dy < 1e-4 };
                    straight && dx.max(dy) > 2.0 * POINTER_REACH_MM - 1.0
                }
                _ => false,
            };
            let back = &layout.pages[1];
            assert_eq!(back.items.iter().filter(|i| long(i, true)).count(), 2);
            assert_eq!(back.items.iter().filter(|i| long(i, false)).count(), 2);
            // No two numbers of the page overlap.
            let numbers: Vec<&TextRun> = front
                .texts()
                .filter(|t| {
                    t.text
                        .chars()
                        .all(|c| c.is_ascii_digit() || "+−".contains(c))
                })
                .collect();
            for (i, a) in numbers.iter().enumerate() {
                for b in &numbers[i + 1..] {
                    let apart = a.x + a.width + 0.3 <= b.x
                        || b.x + b.width + 0.3 <= a.x
                        || (a.baseline - b.baseline).abs() >= 2.5;
                    assert!(apart, "{page}: '{}' and '{}' run together", a.text, b.text);
                }
            }
            let ruler = front.items.iter().any(|i| {
                matches!(i, Item::Line(Segment { x1, x2, y1, y2, .. })
                    if (y1 - y2).abs() < 1e-4 && ((x2 - x1).abs() - RULER_MM).abs() < 1e-3)
            });
            assert!(ruler, "{page}: no 100 mm ruler");
            assert!(front.texts().any(|t| t.text == "100"), "{page}");
        }
    }
}
