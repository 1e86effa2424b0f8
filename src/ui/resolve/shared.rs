//! What every ruleset's Resolve form shares: percentages, the outcome bar chart (egui_plot),
//! "at least N" lines, library pickers and the house-default mark.
//!
//! Kept apart so the per-ruleset files hold only their own situation and wording.

use egui::RichText;
use egui_plot::{Bar, BarChart, GridInput, GridMark, Plot};

use crate::rules::armour_battles::outcome::HouseDefault;
use crate::rules::dice::{Dist, RollRecord};
use crate::rules::{Card, RulesetId, ruleset};
use crate::ui::model::Model;

/// The one percent formatter, shared with the command line.
pub use crate::rules::words::percent as pct;

/// The faces of a roll, as the dice log keeps them.
pub fn faces(record: &RollRecord) -> Vec<u8> {
    record.dice.clone()
}

/// Every outcome of `dist` as a (label, probability) bar, in the distribution's order.
pub fn dist_bars<K: Ord>(dist: &Dist<K>, label: impl Fn(&K) -> String) -> Vec<(String, f64)> {
    dist.probabilities().map(|(k, p)| (label(k), p)).collect()
}

/// Bars below this probability at either end of a chart are left off (the lines beside it
/// still list them): thirty bars of 0.0 % would squeeze out the ones that matter.
const NEGLIGIBLE_TAIL: f64 = 0.0005;

/// Narrowest a bar may be before x labels are thinned out.
const LABEL_WIDTH: f32 = 28.0;

/// The bars worth drawing: `bars` without the negligible outcomes at either end.
fn visible_bars(bars: &[(String, f64)]) -> &[(String, f64)] {
    let first = bars.iter().position(|(_, p)| *p >= NEGLIGIBLE_TAIL);
    let last = bars.iter().rposition(|(_, p)| *p >= NEGLIGIBLE_TAIL);
    match (first, last) {
        (Some(first), Some(last)) => &bars[first..=last],
        _ => bars,
    }
}

/// A bar chart of outcome probabilities, one labelled bar per outcome.
///
/// The plot is read, not explored: zoom, drag and scroll are off so the mouse wheel keeps
/// scrolling the panel, and the y axis is pinned to 0–100 % so heights compare across
/// situations. Its bounds are reset every frame, so the categories, range and labels always
/// come from the bars given now, never from an earlier computation.
pub fn bar_chart(ui: &mut egui::Ui, id: &str, bars: &[(String, f64)]) {
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
    // Thin the x labels so neighbours never overlap.
    let every = ((LABEL_WIDTH * count as f32 / width).ceil() as usize).max(1);
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
                    step_size: 1.0,
                })
                .collect()
        })
        .x_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() < 1e-6 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .y_axis_formatter(|mark, _| format!("{:.0}%", mark.value * 100.0))
        .show(ui, |plot| plot.bar_chart(chart));
}

/// "`prefix`N: p (at least N: q)" for each outcome of a count, the way players ask ("two
/// or more hits?").
pub fn at_least_lines(ui: &mut egui::Ui, prefix: &str, dist: &Dist<u32>) {
    for (n, p) in dist.probabilities() {
        ui.label(format!(
            "{prefix}{n}: {} (at least {n}: {})",
            pct(p),
            pct(dist.at_least(n))
        ));
    }
}

/// Width the "at least" lines need beside a chart.
const LINES_WIDTH: f32 = 260.0;

/// A chart of a count with its "at least" lines beside it, or under it when the panel is too
/// narrow for both (the percentages must never be pushed out of sight).
pub fn count_chart(ui: &mut egui::Ui, id: &str, prefix: &str, dist: &Dist<u32>) {
    let bars = dist_bars(dist, u32::to_string);
    chart_with_lines(ui, id, &bars, |ui| at_least_lines(ui, prefix, dist));
}

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

/// "(house default)" with the ruling as hover text.
pub fn house_default(ui: &mut egui::Ui, ruling: &HouseDefault) {
    ui.label(RichText::new("(house default)").italics().weak())
        .on_hover_text(ruling.ruling);
}

/// "(house default)" with the ruling as hover text, when `key` was computed with one of
/// `defaults` (the rules API attaches them to the values they produced).
pub fn house_mark(ui: &mut egui::Ui, defaults: &[HouseDefault], key: &str) {
    if let Some(h) = defaults.iter().find(|h| h.value == key) {
        house_default(ui, h);
    }
}

/// A line of text followed by the house-default mark of the ruling it rests on.
pub fn label_with_default(
    ui: &mut egui::Ui,
    text: impl Into<egui::WidgetText>,
    ruling: &HouseDefault,
) {
    ui.horizontal(|ui| {
        ui.label(text);
        house_default(ui, ruling);
    });
}

/// The rulings behind the odds on screen, spelled out under them in words (never the JSON key
/// a ruling is filed under).
pub fn rulings_footer(ui: &mut egui::Ui, rulings: &[HouseDefault]) {
    if rulings.is_empty() {
        return;
    }
    ui.add_space(6.0);
    // Body size: these readings change the numbers above, so they must be readable at the
    // table, not fine print.
    ui.label(RichText::new("House defaults (Help › Rulings):").strong());
    for d in rulings {
        ui.add(egui::Label::new(RichText::new(format!("• {}", d.ruling)).weak()).wrap());
    }
}

/// A library card of ruleset `id` by its exact name.
pub fn library_card(id: RulesetId, name: Option<&str>) -> Option<&'static Card> {
    let name = name?;
    ruleset(id)
        .library()
        .iter()
        .find(|card| card.name() == name)
}

/// The library card names of ruleset `id` that pass `keep`, the open force's first.
pub fn library_names(
    model: &Model,
    id: RulesetId,
    keep: impl Fn(&Card) -> bool,
) -> (Vec<String>, Vec<String>) {
    let library = ruleset(id).library();
    let mut first: Vec<String> = Vec::new();
    if let Some(open) = &model.open
        && open.force.ruleset == id
    {
        for unit in &open.force.units {
            let name = unit.card.name();
            if library.iter().any(|c| c.name() == name && keep(c))
                && !first.iter().any(|n| n == name)
            {
                first.push(name.to_string());
            }
        }
    }
    let rest = library
        .iter()
        .filter(|c| keep(c) && !first.iter().any(|n| n == c.name()))
        .map(|c| c.name().to_string())
        .collect();
    (first, rest)
}

/// A combo box of card names (open force first), labelled for screen readers and tests.
pub fn card_combo(
    ui: &mut egui::Ui,
    label: &str,
    value: &mut Option<String>,
    names: &(Vec<String>, Vec<String>),
) {
    ui.horizontal(|ui| {
        let label = ui.label(label);
        egui::ComboBox::from_id_salt(label.id)
            .selected_text(value.as_deref().unwrap_or("(choose)"))
            .width(200.0)
            .show_ui(ui, |ui| {
                if !names.0.is_empty() {
                    ui.label(RichText::new("Open force").small().weak());
                    for name in &names.0 {
                        ui.selectable_value(value, Some(name.clone()), name);
                    }
                    ui.separator();
                }
                for name in &names.1 {
                    ui.selectable_value(value, Some(name.clone()), name);
                }
            })
            .response
            .labelled_by(label.id);
    });
}

/// A labelled drag value for a small count.
pub fn count_field(
    ui: &mut egui::Ui,
    label: &str,
    value: &mut u32,
    range: std::ops::RangeInclusive<u32>,
) -> egui::Response {
    ui.horizontal(|ui| {
        let label = ui.label(label);
        ui.add(egui::DragValue::new(value).range(range))
            .labelled_by(label.id)
    })
    .inner
}

/// A roll as the dice log shows it, before the hub adds the subject and the seed.
#[derive(Debug, Clone, PartialEq)]
pub struct Rolled {
    pub title: String,
    /// (what the dice were for, the faces), in the order rolled.
    pub dice: Vec<(String, Vec<u8>)>,
    pub result: String,
}
