//! The window after an army data import: what each file became, what the importer left out
//! (by entry, folded away), and for each saved force priced with an older revision what the
//! newest would change, with Re-price beside it. Closing the window keeps the old prices.

use egui::RichText;

use super::action::Action;
use super::model::{ArmyReport, Command};
use crate::store::FileStatus;

/// Draws the report; returns what the player asked for.
pub fn window(ctx: &egui::Context, report: &ArmyReport) -> Vec<Action> {
    let mut actions = Vec::new();
    let ArmyReport { files, changes } = report;
    egui::Window::new("Army data imported")
        .collapsible(false)
        .default_width(560.0)
        .show(ctx, |ui| {
            for file in files {
                let status = match &file.status {
                    FileStatus::New => "new".to_string(),
                    FileStatus::Newer { previous } => format!("newer than r{previous}"),
                    FileStatus::Unchanged => "already imported, unchanged".to_string(),
                    FileStatus::Older { newest } => format!("older than r{newest}, kept"),
                };
                let what = if file.kind == "game_system" {
                    format!("force organisations: {}", file.organisations.join(", "))
                } else {
                    format!("{} units", file.units)
                };
                ui.label(format!("{} — {status}; {what}", file.source.label()));
            }
            let notes: Vec<String> = files
                .iter()
                .flat_map(|f| f.notes.iter().map(ToString::to_string))
                .collect();
            if !notes.is_empty() {
                egui::CollapsingHeader::new(format!(
                    "Not understood or left out ({}), by entry",
                    notes.len()
                ))
                .show(ui, |ui| {
                    egui::ScrollArea::vertical()
                        .max_height(200.0)
                        .show(ui, |ui| {
                            for note in &notes {
                                ui.label(RichText::new(note).small());
                            }
                        });
                });
            }
            if !changes.is_empty() {
                ui.separator();
                ui.label(RichText::new("Saved forces priced with an older revision").strong());
                ui.label("They keep their prices until you re-price them.");
                for (id, name, lines) in changes {
                    ui.horizontal(|ui| {
                        ui.strong(name);
                        if ui
                            .button("Re-price")
                            .on_hover_text(
                                "Price this force with the newest data (Ctrl+Z undoes it)",
                            )
                            .clicked()
                        {
                            actions.push(Action::Model(Command::Reprice(*id)));
                        }
                    });
                    for line in lines {
                        ui.label(format!("  {line}"));
                    }
                }
            }
            ui.separator();
            let close = if changes.is_empty() {
                "Close"
            } else {
                "Keep old prices"
            };
            if ui.button(close).clicked() {
                actions.push(Action::Model(Command::DismissArmyReport));
            }
        });
    actions
}
