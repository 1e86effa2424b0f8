//! Any mechanic's report drawn the same way: its headline values, each distribution as a bar
//! chart with its figures, the notes, and the house defaults it rests on in words (never the
//! keys they are filed under).

use egui::RichText;

use crate::rules::HouseDefault;
use crate::rules::resolution::{Distribution, Report, Value};

use super::chart::{chart_with_lines, visible_range};

/// "(house default)", with the rulings behind the value as its tooltip.
fn house_mark(ui: &mut egui::Ui, report: &Report, key: &str) {
    let rulings: Vec<&str> = report
        .house_defaults
        .iter()
        .filter(|h| h.value == key)
        .map(|h| h.ruling)
        .collect();
    let hover = if rulings.is_empty() {
        "A house reading where the book is unclear: see House defaults below.".to_string()
    } else {
        rulings.join("\n")
    };
    ui.label(RichText::new("(house default)").italics().weak())
        .on_hover_text(hover);
}

/// Draws `report`.
pub fn show(ui: &mut egui::Ui, report: &Report) {
    ui.label(RichText::new(&report.title).strong());
    if let Some(reason) = &report.no_result {
        ui.label(reason);
        return;
    }
    // A row of chances (Armour Battles `disruption`) is for scripts: its distribution is
    // drawn below.
    for v in report
        .values
        .iter()
        .filter(|v| !matches!(v.value, Value::Probabilities(_)))
    {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("{}: {}", v.label, v.text()));
            if v.house_default {
                house_mark(ui, report, &v.key);
            }
        });
    }
    for d in &report.distributions {
        // A certainty needs no chart.
        if let [only] = d.outcomes.as_slice() {
            ui.label(format!("{}: {} (certain)", d.label, only.label));
            continue;
        }
        ui.add_space(6.0);
        ui.horizontal_wrapped(|ui| {
            ui.strong(&d.label);
            if d.house_default {
                house_mark(ui, report, &d.key);
            }
        });
        distribution(ui, d);
    }
    notes(ui, &report.notes);
    rulings_footer(ui, &report.house_defaults);
}

/// A distribution's chart and its lines: "2: 30.1% (at least 2: 55.0%)" for counts.
fn distribution(ui: &mut egui::Ui, d: &Distribution) {
    let bars = d.bars();
    let shown = visible_range(&bars);
    chart_with_lines(ui, &format!("resolve_{}", d.key), &bars, |ui| {
        for i in shown.clone() {
            let o = &d.outcomes[i];
            let line = match (d.counts, o.value) {
                // Named by the distribution: "Hits 2" is read alone beside the chart.
                // The first outcome's "at least" is always 100 %.
                (true, Some(n)) if i > 0 => format!(
                    "{} {}: {} (at least {n}: {})",
                    d.label,
                    o.label,
                    d.chance_text(i),
                    d.at_least_text(i)
                ),
                (true, Some(_)) => format!("{} {}: {}", d.label, o.label, d.chance_text(i)),
                _ => format!("{}: {}", o.label, d.chance_text(i)),
            };
            ui.label(line);
        }
        let hidden = d.outcomes.len() - (shown.end() - shown.start() + 1);
        if hidden > 0 {
            ui.label(RichText::new(format!("{hidden} more, each below 0.1%")).weak());
        }
    });
}

fn notes(ui: &mut egui::Ui, notes: &[String]) {
    if notes.is_empty() {
        return;
    }
    ui.add_space(6.0);
    for note in notes {
        ui.add(egui::Label::new(RichText::new(note).italics()).wrap());
    }
}

/// The rulings behind the figures on screen, spelled out under them in words.
fn rulings_footer(ui: &mut egui::Ui, rulings: &[HouseDefault]) {
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
