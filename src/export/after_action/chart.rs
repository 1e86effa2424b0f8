//! A small line chart drawn with lines and rectangles, for Army Morale turn by turn. Drawn
//! from the display list's own items so the print preview and the PDF show the same chart.

use crate::export::display::{Item, Rgb, Segment, Stroke};
use crate::export::text::{Font, Typesetter, cap_height};

/// One line of the chart: a value per turn (index 0 is the start).
pub(super) struct Series {
    pub label: String,
    pub values: Vec<u32>,
    pub stroke: Stroke,
}

/// Where the chart goes and what it is drawn with.
pub(super) struct ChartBox {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
    /// Labels, legend and caption.
    pub font: Font,
    pub grid: Rgb,
    pub axis: Rgb,
}

/// Side of the square marking each value.
const MARKER_MM: f32 = 1.3;
/// Length of the line sample in the legend.
const LEGEND_SAMPLE_MM: f32 = 7.0;

/// The chart's items: legend on top, y labels on the left, turn numbers and a caption
/// below, and the texts that had to be shortened to fit (said, never silent). Nothing is
/// drawn outside the box.
pub(super) fn line_chart(
    ts: Typesetter,
    b: &ChartBox,
    series: &[Series],
    caption: &str,
) -> (Vec<Item>, Vec<String>) {
    let mut items = Vec::new();
    let mut cut = Vec::new();
    let font = b.font;
    let line_h = font.line_height();
    let cap = cap_height(font.size_pt);
    let top_value = series
        .iter()
        .flat_map(|s| s.values.iter().copied())
        .max()
        .unwrap_or(0)
        .max(1);
    let points = series.iter().map(|s| s.values.len()).max().unwrap_or(0);
    let step = top_value.div_ceil(6).max(1);
    // One step of headroom, so a line at full strength runs below the plot's top edge, not
    // along it.
    let axis_max = (top_value / step + 1) * step;

    legend(ts, b, series, &mut items, &mut cut);
    let y_label_w = ts.width(&axis_max.to_string(), font) + 1.5;
    let plot = Plot {
        left: b.x + y_label_w,
        right: b.x + b.w - MARKER_MM,
        top: b.y + line_h + 2.0,
        bottom: b.y + b.h - 2.0 * line_h - 1.0,
        axis_max,
        points,
    };
    if plot.right - plot.left < 5.0 || plot.bottom - plot.top < 5.0 {
        return (items, cut);
    }

    let mut value = 0;
    while value <= axis_max {
        let y = plot.y(value);
        let color = if value == 0 { b.axis } else { b.grid };
        items.push(hline(plot.left, plot.right, y, Stroke::solid(color, 0.4)));
        let text = value.to_string();
        let tw = ts.width(&text, font);
        items.push(ts.run(plot.left - 1.0 - tw, y + cap / 2.0, font, &text));
        value += step;
    }
    items.push(Item::Line(Segment {
        x1: plot.left,
        y1: plot.top,
        x2: plot.left,
        y2: plot.bottom,
        stroke: Stroke::solid(b.axis, 0.5),
    }));

    turn_labels(ts, b, &plot, &mut items);
    let shown = ts.ellipsize(caption, font, b.w);
    if shown != caption {
        cut.push(caption.to_string());
    }
    items.push(ts.run(b.x, b.y + b.h - line_h + cap, font, &shown));

    for s in series {
        let xy: Vec<(f32, f32)> = s
            .values
            .iter()
            .enumerate()
            .map(|(i, v)| (plot.x(i), plot.y(*v)))
            .collect();
        for pair in xy.windows(2) {
            if let [(x1, y1), (x2, y2)] = pair {
                items.push(Item::Line(Segment {
                    x1: *x1,
                    y1: *y1,
                    x2: *x2,
                    y2: *y2,
                    stroke: s.stroke,
                }));
            }
        }
        for (x, y) in xy {
            items.push(Item::Rect {
                x: x - MARKER_MM / 2.0,
                y: y - MARKER_MM / 2.0,
                w: MARKER_MM,
                h: MARKER_MM,
                fill: Some(s.stroke.color),
                stroke: None,
            });
        }
    }
    (items, cut)
}

/// The plotting area and the scale from values to millimetres.
struct Plot {
    left: f32,
    right: f32,
    top: f32,
    bottom: f32,
    axis_max: u32,
    points: usize,
}

/// Space between the y axis (and the right edge) and the first (last) point, so no line
/// runs along the plot's border.
const INSET_MM: f32 = 2.0;

impl Plot {
    fn x(&self, index: usize) -> f32 {
        if self.points < 2 {
            return (self.left + self.right) / 2.0;
        }
        let (left, right) = (self.left + INSET_MM, self.right - INSET_MM);
        left + (right - left) * index as f32 / (self.points - 1) as f32
    }

    fn y(&self, value: u32) -> f32 {
        let share = value.min(self.axis_max) as f32 / self.axis_max.max(1) as f32;
        self.bottom - (self.bottom - self.top) * share
    }
}

fn hline(x1: f32, x2: f32, y: f32, stroke: Stroke) -> Item {
    Item::Line(Segment {
        x1,
        y1: y,
        x2,
        y2: y,
        stroke,
    })
}

/// A sample of each line with its label, left to right along the top.
fn legend(
    ts: Typesetter,
    b: &ChartBox,
    series: &[Series],
    items: &mut Vec<Item>,
    cut: &mut Vec<String>,
) {
    let font = b.font;
    let cap = cap_height(font.size_pt);
    let mut x = b.x + b.w;
    // Right-aligned: laid out from the last series backwards.
    for s in series.iter().rev() {
        let room = (x - b.x - LEGEND_SAMPLE_MM - 1.5).max(0.0);
        let label = ts.ellipsize(&s.label, font, room);
        if label != s.label {
            cut.push(s.label.clone());
        }
        let label_w = ts.width(&label, font);
        let text_x = x - label_w;
        let sample_x = text_x - 1.5 - LEGEND_SAMPLE_MM;
        if sample_x < b.x {
            break;
        }
        let mid = b.y + cap / 2.0;
        items.push(hline(sample_x, sample_x + LEGEND_SAMPLE_MM, mid, s.stroke));
        items.push(ts.run(text_x, b.y + cap, font, &label));
        x = sample_x - 5.0;
    }
}

/// Turn numbers under the axis (0 is the start), thinned out so they never overlap.
fn turn_labels(ts: Typesetter, b: &ChartBox, plot: &Plot, items: &mut Vec<Item>) {
    let font = b.font;
    if plot.points == 0 {
        return;
    }
    let widest = ts.width(&(plot.points - 1).to_string(), font) + 1.5;
    let spacing = if plot.points < 2 {
        f32::MAX
    } else {
        (plot.right - plot.left) / (plot.points - 1) as f32
    };
    let every = ((widest / spacing).ceil() as usize).max(1);
    let baseline = plot.bottom + 1.0 + cap_height(font.size_pt);
    for index in (0..plot.points).step_by(every) {
        let text = index.to_string();
        let tw = ts.width(&text, font);
        let x = (plot.x(index) - tw / 2.0).clamp(b.x, b.x + b.w - tw);
        items.push(ts.run(x, baseline, font, &text));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::fonts::{FontStyle, faces};

    /// Finding 9: a side at full Army Morale was drawn along the chart's top border, and
    /// the first turn along the y axis.
    #[test]
    fn lines_at_full_strength_and_at_the_first_turn_stay_inside_the_plot() {
        let ts = Typesetter {
            faces: faces().unwrap(),
        };
        let red = Stroke::solid(Rgb::new(200, 0, 0), 0.8);
        let b = ChartBox {
            x: 10.0,
            y: 10.0,
            w: 120.0,
            h: 46.0,
            font: Font::new(FontStyle::Regular, 6.8, Rgb::BLACK),
            grid: Rgb::new(200, 200, 200),
            axis: Rgb::new(90, 90, 90),
        };
        let series = [Series {
            label: "US".into(),
            values: vec![12, 12, 9, 12],
            stroke: red,
        }];
        let (items, _) = line_chart(ts, &b, &series, "Army Morale by turn");
        let lines = |wanted: &dyn Fn(&Stroke) -> bool| -> Vec<(f32, f32, f32, f32)> {
            items
                .iter()
                .filter_map(|i| match i {
                    Item::Line(s) if wanted(&s.stroke) => Some((s.x1, s.y1, s.x2, s.y2)),
                    _ => None,
                })
                .collect()
        };
        let frame = lines(&|s| s.color == b.grid || s.color == b.axis);
        let plot_top = frame.iter().map(|l| l.1.min(l.3)).fold(f32::MAX, f32::min);
        let axis_x = frame
            .iter()
            .filter(|l| (l.0 - l.2).abs() < 1e-3)
            .map(|l| l.0)
            .fold(f32::MAX, f32::min);
        // The legend's sample of the line sits above the plot; the rest is the data.
        let legend_row = b.y + b.font.line_height();
        let data: Vec<_> = lines(&|s| *s == red)
            .into_iter()
            .filter(|l| l.1 > legend_row)
            .collect();
        assert_eq!(data.len(), 3);
        for (x1, y1, x2, y2) in &data {
            assert!(y1.min(*y2) > plot_top + 0.5, "a line on the top border");
            assert!(x1.min(*x2) > axis_x + 0.5, "a line on the y axis");
        }
    }
}
