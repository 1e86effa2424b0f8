//! A small line chart drawn with lines and rectangles, for Army Morale turn by turn. Drawn
//! from the display list's own items so the print preview and the PDF show the same chart.

use crate::export::display::{Item, Rgb, Stroke};
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
/// below. Nothing is drawn outside the box.
pub(super) fn line_chart(
    ts: Typesetter,
    b: &ChartBox,
    series: &[Series],
    caption: &str,
) -> Vec<Item> {
    let mut items = Vec::new();
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
    let axis_max = top_value.div_ceil(step) * step;

    legend(ts, b, series, &mut items);
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
        return items;
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
    items.push(Item::Line {
        x1: plot.left,
        y1: plot.top,
        x2: plot.left,
        y2: plot.bottom,
        stroke: Stroke::solid(b.axis, 0.5),
    });

    turn_labels(ts, b, &plot, &mut items);
    let caption = ts.ellipsize(caption, font, b.w);
    items.push(ts.run(b.x, b.y + b.h - line_h + cap, font, &caption));

    for s in series {
        let xy: Vec<(f32, f32)> = s
            .values
            .iter()
            .enumerate()
            .map(|(i, v)| (plot.x(i), plot.y(*v)))
            .collect();
        for pair in xy.windows(2) {
            if let [(x1, y1), (x2, y2)] = pair {
                items.push(Item::Line {
                    x1: *x1,
                    y1: *y1,
                    x2: *x2,
                    y2: *y2,
                    stroke: s.stroke,
                });
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
    items
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

impl Plot {
    fn x(&self, index: usize) -> f32 {
        if self.points < 2 {
            return (self.left + self.right) / 2.0;
        }
        self.left + (self.right - self.left) * index as f32 / (self.points - 1) as f32
    }

    fn y(&self, value: u32) -> f32 {
        let share = value.min(self.axis_max) as f32 / self.axis_max.max(1) as f32;
        self.bottom - (self.bottom - self.top) * share
    }
}

fn hline(x1: f32, x2: f32, y: f32, stroke: Stroke) -> Item {
    Item::Line {
        x1,
        y1: y,
        x2,
        y2: y,
        stroke,
    }
}

/// A sample of each line with its label, left to right along the top.
fn legend(ts: Typesetter, b: &ChartBox, series: &[Series], items: &mut Vec<Item>) {
    let font = b.font;
    let cap = cap_height(font.size_pt);
    let mut x = b.x + b.w;
    // Right-aligned: laid out from the last series backwards.
    for s in series.iter().rev() {
        let room = (x - b.x - LEGEND_SAMPLE_MM - 1.5).max(0.0);
        let label = ts.ellipsize(&s.label, font, room);
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
