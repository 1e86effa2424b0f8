//! Outcome bar charts (egui_plot) with their lines of figures beside or under them.
//!
//! The categories, range and labels come from the bars given each frame, never from an
//! earlier computation, and the figures move under the chart before they would be squeezed
//! out of sight.

use egui_plot::{AxisHints, Bar, BarChart, GridInput, GridMark, Plot};

use crate::rules::words::percent as pct;

/// Bars below this probability at either end of a chart are left off (the lines beside it
/// still list them): thirty bars of 0.0 % would squeeze out the ones that matter.
const NEGLIGIBLE_TAIL: f64 = 0.0005;

/// Room the y axis labels ("100%") take from a chart's width.
const Y_AXIS_WIDTH: f32 = 40.0;

/// Room one x label needs: the widest label's characters at the axis font, with a gap.
fn label_width(labels: &[String]) -> f32 {
    let chars = labels.iter().map(|l| l.chars().count()).max().unwrap_or(1);
    (chars as f32 * 7.0 + 10.0).max(28.0)
}

/// The bars worth drawing: `bars` without the negligible outcomes at either end.
pub fn visible_range(bars: &[(String, f64)]) -> std::ops::RangeInclusive<usize> {
    let first = bars.iter().position(|(_, p)| *p >= NEGLIGIBLE_TAIL);
    let last = bars.iter().rposition(|(_, p)| *p >= NEGLIGIBLE_TAIL);
    match (first, last) {
        (Some(first), Some(last)) => first..=last,
        _ => 0..=bars.len().saturating_sub(1),
    }
}

fn visible_bars(bars: &[(String, f64)]) -> &[(String, f64)] {
    bars.get(visible_range(bars)).unwrap_or(bars)
}

/// A bar chart of outcome probabilities, one labelled bar per outcome.
///
/// The plot is read, not explored: zoom, drag and scroll are off so the mouse wheel keeps
/// scrolling the panel, and the y axis is pinned to 0–100 % so heights compare across
/// situations. Its bounds are reset every frame, so the categories, range and labels always
/// come from the bars given now, never from an earlier computation.
fn bar_chart(ui: &mut egui::Ui, id: &str, bars: &[(String, f64)]) {
    let bars = visible_bars(bars);
    if bars.is_empty() {
        return;
    }
    let labels: Vec<String> = bars.iter().map(|(label, _)| label.clone()).collect();
    let count = bars.len();
    let chart = BarChart::new(
        id,
        bars.iter()
            .enumerate()
            .map(|(i, (label, p))| Bar::new(i as f64, *p).name(label).width(0.6))
            .collect(),
    )
    .color(ui.visuals().selection.bg_fill)
    .element_formatter(Box::new(|bar, _| {
        format!("{}: {}", bar.name, pct(bar.value))
    }));
    let width = chart_width(count).min(ui.available_width().max(160.0));
    // Thin the x labels so neighbours never overlap: every `every`-th bar is labelled, and
    // the axis is told that labels this far apart fit (its own default hides any label
    // closer than 60 points to the next, which left most charts unlabelled).
    let label_room = label_width(&labels);
    let per_bar = (width - Y_AXIS_WIDTH).max(1.0) / count as f32;
    let every = ((label_room / per_bar).ceil() as usize).max(1);
    let x_axis = AxisHints::new_x()
        .label_spacing(label_room * 0.5..=label_room)
        .formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() < 1e-6 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        });
    Plot::new(id)
        .reset()
        .width(width)
        .height(160.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .show_grid([false, true])
        .default_x_bounds(-0.6, count as f64 - 0.4)
        .default_y_bounds(0.0, 1.05)
        .x_grid_spacer(move |_: GridInput| {
            (0..count)
                .step_by(every)
                .map(|i| GridMark {
                    value: i as f64,
                    step_size: every as f64,
                })
                .collect()
        })
        .custom_x_axes(vec![x_axis])
        .y_axis_formatter(|mark, _| format!("{:.0}%", mark.value * 100.0))
        .show(ui, |plot| plot.bar_chart(chart));
}

/// Width the "at least" lines need beside a chart.
const LINES_WIDTH: f32 = 260.0;

/// A chart's width for `bars` bars: wide enough to read at a glance, never a whole panel.
fn chart_width(bars: usize) -> f32 {
    (72.0 * bars as f32).clamp(240.0, 520.0)
}

/// A bar chart with `lines` beside it, or under it in a narrow panel.
pub fn chart_with_lines(
    ui: &mut egui::Ui,
    id: &str,
    bars: &[(String, f64)],
    lines: impl FnOnce(&mut egui::Ui),
) {
    if ui.available_width() >= chart_width(visible_bars(bars).len()) + LINES_WIDTH {
        ui.horizontal(|ui| {
            bar_chart(ui, id, bars);
            ui.vertical(lines);
        });
    } else {
        bar_chart(ui, id, bars);
        lines(ui);
    }
}
