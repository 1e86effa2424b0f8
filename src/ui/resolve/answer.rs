//! The answer at a glance: the two or three chances that decide an action as large tiles
//! coloured by how bad the outcome is for the one it befalls ("39.5% dispersed · 54.0%
//! suppressed"), and each distribution as filled bars with its figures beside them. Resolve
//! draws a report with these; the battle view's action panel is meant to reuse them.

use crate::rules::resolution::{Distribution, Headline, Report, Value};

use super::super::theme::{self, Gap, Status};

/// At most this many tiles: more would be a table again, not a glance.
const MOST_TILES: usize = 3;

/// Words in a chance's key that mean the unit is lost, and so read as danger.
const LOST: [&str; 5] = [
    "dispersed",
    "destroyed",
    "knocked_out",
    "bullseye",
    "broken",
];
/// Words that mean a setback short of that, and so read as a warning.
const SETBACK: [&str; 12] = [
    "suppressed",
    "forced_back",
    "shaken",
    "disorder",
    "fubar",
    "failure",
    "blunder",
    "tracks",
    "turn_ends",
    "both_fail",
    "breakdown",
    "tie",
];

/// How bad the outcome a chance is of is, read from its key (`p_dispersed`): the report
/// names outcomes, the window colours them.
pub fn severity(key: &str) -> Status {
    if LOST.iter().any(|w| key.contains(w)) {
        Status::Danger
    } else if SETBACK.iter().any(|w| key.contains(w)) {
        Status::Warning
    } else {
        Status::Info
    }
}

/// The chances that decide the action: the report's chances, the worst outcomes first (in
/// the report's order within one severity), at most [`MOST_TILES`].
pub fn deciding(report: &Report) -> Vec<&Headline> {
    let rank = |s: Status| match s {
        Status::Danger => 0,
        Status::Warning => 1,
        _ => 2,
    };
    let mut chances: Vec<&Headline> = report
        .values
        .iter()
        .filter(|v| matches!(v.value, Value::Probability(_)))
        .collect();
    chances.sort_by_key(|v| rank(severity(&v.key)));
    chances.truncate(MOST_TILES);
    chances
}

/// "P(dispersed)" as a tile's caption: "dispersed".
pub fn caption(label: &str) -> &str {
    label
        .strip_prefix("P(")
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or(label)
}

/// The deciding chances as a row of tiles; returns the ones drawn, so the caller lists the
/// other values without them.
pub fn tiles<'r>(ui: &mut egui::Ui, report: &'r Report) -> Vec<&'r Headline> {
    let shown = deciding(report);
    tile_row(ui, &shown, |v| (severity(&v.key), caption(&v.label)));
    shown
}

/// `values` as one row of tiles, each with its status and caption from `look`.
fn tile_row(ui: &mut egui::Ui, values: &[&Headline], look: impl Fn(&Headline) -> (Status, &str)) {
    if values.is_empty() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = theme::tokens(ui).gap(Gap::M);
        let size = theme::tile_size(ui, values.len());
        for v in values {
            let text = v.text();
            let (status, caption) = look(v);
            theme::tile(
                ui,
                size,
                status,
                &text,
                caption,
                &format!("{}: {text}", v.label),
            );
        }
    });
}

/// The answer in the battle view's action panel: the deciding chances as tiles, or, where
/// the action's report gives no chance (a whole unit's fire), its expected figures ("3.7
/// expected casualties"); returns the values drawn, for the caller to list the rest.
pub fn panel_tiles<'r>(ui: &mut egui::Ui, report: &'r Report) -> Vec<&'r Headline> {
    let chances = tiles(ui, report);
    if !chances.is_empty() {
        return chances;
    }
    let expected: Vec<&Headline> = report
        .values
        .iter()
        .filter(|v| matches!(v.value, Value::Number(_)))
        .take(MOST_TILES)
        .collect();
    tile_row(ui, &expected, |v| (Status::Info, v.label.as_str()));
    expected
}

/// A distribution as one filled bar per outcome, worth drawing (negligible tails left to a
/// line under them), each with its chance and, for counts, the chance of at least as many.
/// Each row reads as "Hits 2: 30.1% (at least 2: 55.0%)".
pub fn distribution(ui: &mut egui::Ui, d: &Distribution) {
    let t = theme::tokens(ui);
    let bars = d.bars();
    let shown = visible_range(&bars);
    let font = egui::FontId::proportional(t.body());
    let label_width = shown
        .clone()
        .map(|i| {
            ui.painter()
                .layout_no_wrap(d.outcomes[i].label.clone(), font.clone(), t.palette.text)
                .size()
                .x
        })
        .fold(0.0_f32, f32::max);
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + t.gap(Gap::S);
    // The widest figures either column can hold, an estimate's "≈" included.
    let measure = |text: &str| {
        ui.painter()
            .layout_no_wrap(text.to_string(), font.clone(), t.palette.text)
            .size()
            .x
    };
    let figure_width = measure("≈ 100.0%") + t.gap(Gap::M);
    let at_least_width = if d.counts {
        measure("at least ≈ 100.0%")
    } else {
        0.0
    };
    let bar_width =
        (ui.available_width() - label_width - figure_width - at_least_width - 2.0 * t.gap(Gap::M))
            .clamp(60.0, 320.0 * t.scale);
    for i in shown.clone() {
        let line = outcome_line(d, i);
        let (rect, response) = ui.allocate_exact_size(
            egui::vec2(ui.available_width(), row_height),
            egui::Sense::hover(),
        );
        if ui.is_rect_visible(rect) {
            let painter = ui.painter();
            let middle = rect.center().y;
            let mut x = rect.min.x;
            painter.text(
                egui::pos2(x + label_width, middle),
                egui::Align2::RIGHT_CENTER,
                &d.outcomes[i].label,
                font.clone(),
                t.palette.text,
            );
            x += label_width + t.gap(Gap::M);
            let bar_height = (row_height * 0.6).min(12.0 * t.scale);
            let bar = egui::Rect::from_min_size(
                egui::pos2(x, middle - bar_height / 2.0),
                egui::vec2(bar_width, bar_height),
            );
            painter.rect_filled(bar, 2, t.palette.track);
            let filled = bar.with_max_x(bar.min.x + bar.width() * d.probability(i) as f32);
            painter.rect_filled(filled, 2, t.status(Status::Info).bar);
            x += bar_width + t.gap(Gap::M);
            painter.text(
                egui::pos2(x, middle),
                egui::Align2::LEFT_CENTER,
                d.chance_text(i),
                font.clone(),
                t.palette.text,
            );
            if d.counts && i > 0 {
                painter.text(
                    egui::pos2(x + figure_width, middle),
                    egui::Align2::LEFT_CENTER,
                    format!("at least {}", d.at_least_text(i)),
                    font.clone(),
                    t.palette.weak_text,
                );
            }
        }
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &line));
    }
    let hidden = d.outcomes.len() - (shown.end() - shown.start() + 1);
    if hidden > 0 {
        ui.weak(format!("{hidden} more, each below 0.1%"));
    }
}

/// Bars below this probability at either end of a distribution are left off (a line under
/// them counts them): thirty bars of 0.0 % would push the ones that matter out of sight.
const NEGLIGIBLE_TAIL: f64 = 0.0005;

/// The outcomes worth a bar: all but the negligible ones at either end.
pub fn visible_range(bars: &[(String, f64)]) -> std::ops::RangeInclusive<usize> {
    let first = bars.iter().position(|(_, p)| *p >= NEGLIGIBLE_TAIL);
    let last = bars.iter().rposition(|(_, p)| *p >= NEGLIGIBLE_TAIL);
    match (first, last) {
        (Some(first), Some(last)) => first..=last,
        _ => 0..=bars.len().saturating_sub(1),
    }
}

/// One outcome in words, named by the distribution so it reads alone: "Hits 2: 30.1% (at
/// least 2: 55.0%)" for counts (the first outcome's "at least" is always 100 %).
fn outcome_line(d: &Distribution, i: usize) -> String {
    let o = &d.outcomes[i];
    match (d.counts, o.value) {
        (true, Some(n)) if i > 0 => format!(
            "{} {}: {} (at least {n}: {})",
            d.label,
            o.label,
            d.chance_text(i),
            d.at_least_text(i)
        ),
        (true, Some(_)) => format!("{} {}: {}", d.label, o.label, d.chance_text(i)),
        _ => format!("{}: {}", o.label, d.chance_text(i)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RulesetId;

    #[test]
    fn losing_the_unit_is_danger_a_setback_a_warning_the_rest_news() {
        assert_eq!(severity("p_dispersed"), Status::Danger);
        assert_eq!(severity("p_knocked_out"), Status::Danger);
        assert_eq!(severity("p_destroyed_2"), Status::Danger);
        assert_eq!(severity("p_suppressed"), Status::Warning);
        assert_eq!(severity("p_fubar"), Status::Warning);
        assert_eq!(severity("p_hit"), Status::Info);
        assert_eq!(severity("p_pass"), Status::Info);
    }

    #[test]
    fn the_worst_outcomes_lead_and_at_most_three_are_tiles() {
        let mut report = Report::new(RulesetId::ArmourBattles, "fire", "fire");
        for (key, p) in [
            ("p_hit", 0.9),
            ("p_suppressed", 0.54),
            ("p_forced_back", 0.12),
            ("p_dispersed", 0.40),
        ] {
            report.chance(key, format!("P({key})"), p);
        }
        report.count("attacker_dice", "Attacker dice", 8);
        let keys: Vec<&str> = deciding(&report).iter().map(|v| v.key.as_str()).collect();
        assert_eq!(keys, ["p_dispersed", "p_suppressed", "p_forced_back"]);
    }

    #[test]
    fn a_caption_drops_the_p_and_its_brackets() {
        assert_eq!(caption("P(dispersed)"), "dispersed");
        assert_eq!(caption("P(bullseye: destroyed)"), "bullseye: destroyed");
        assert_eq!(caption("Chance to pass"), "Chance to pass");
    }
}
