//! Any mechanic's report drawn the same way: the chances that decide it as tiles, its other
//! headline values, each distribution as filled bars with its figures, the notes, and the
//! house defaults it rests on in words (never the keys they are filed under).

use egui::RichText;

use crate::rules::HouseDefault;
use crate::rules::resolution::{Report, Value};

use super::super::theme::{self, Gap};
use super::answer;

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
    let t = theme::tokens(ui);
    ui.label(RichText::new(&report.title).strong());
    if let Some(reason) = &report.no_result {
        ui.label(reason);
        return;
    }
    ui.add_space(t.gap(Gap::S));
    let tiles = answer::tiles(ui, report);
    let marked: Vec<_> = tiles.iter().filter(|v| v.house_default).collect();
    if !marked.is_empty() {
        ui.horizontal_wrapped(|ui| {
            for v in marked {
                ui.label(RichText::new(answer::caption(&v.label)).weak());
                house_mark(ui, report, &v.key);
            }
        });
    }
    ui.add_space(t.gap(Gap::S));
    // A row of chances (Armour Battles `disruption`) is for scripts: its distribution is
    // drawn below. The tiles' chances are not said twice.
    for v in report.values.iter().filter(|v| {
        !matches!(v.value, Value::Probabilities(_)) && !tiles.iter().any(|s| s.key == v.key)
    }) {
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
        ui.add_space(t.gap(Gap::M));
        ui.horizontal_wrapped(|ui| {
            ui.strong(&d.label);
            if d.house_default {
                house_mark(ui, report, &d.key);
            }
        });
        answer::distribution(ui, d);
    }
    notes(ui, &report.notes);
    rulings_footer(ui, &report.house_defaults);
}

/// A report's headline values on one wrapped line ("Attacker dice: 7 · Attacker TN: 4+ · …"),
/// where a full report would not fit (the battle tracker's odds beside its buttons).
pub fn headline(ui: &mut egui::Ui, report: &Report) {
    if let Some(reason) = &report.no_result {
        ui.label(reason);
        return;
    }
    let shown = answer::panel_tiles(ui, report);
    let values: Vec<String> = report
        .values
        .iter()
        .filter(|v| !matches!(v.value, Value::Probabilities(_)))
        .filter(|v| !shown.iter().any(|s| s.key == v.key))
        .map(|v| format!("{}: {}", v.label, v.value.text()))
        .collect();
    if !values.is_empty() {
        ui.add(egui::Label::new(RichText::new(values.join(" · ")).weak()).wrap());
    }
}

/// A roll's dice, line by line, and its result in strong words.
pub fn roll(ui: &mut egui::Ui, report: &Report) {
    ui.label(RichText::new(&report.title).strong());
    for record in &report.dice {
        let faces: Vec<String> = record.dice.iter().map(u8::to_string).collect();
        ui.add(egui::Label::new(format!("{}: {}", record.purpose, faces.join(" "))).wrap());
    }
    for line in &report.result {
        ui.add(egui::Label::new(RichText::new(line).strong()).wrap());
    }
    notes(ui, &report.notes);
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
