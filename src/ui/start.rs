//! The start card: what a first run shows above the Library, while the player has made
//! neither a force nor a campaign — the three things people open the app to do, as three
//! large actions, so the README's first steps are in the window too.

use super::action::{Action, View};
use super::model::Model;
use super::theme::{self, Gap, icons};

/// The card is shown while the library holds no force and no campaign of the player's and
/// it has not been put away.
pub fn wanted(model: &Model, hidden: bool) -> bool {
    !hidden && model.forces.is_empty() && model.campaigns().is_empty()
}

/// The three first steps, each a large action: its icon, title, one line, and what it does.
fn steps() -> [(&'static str, &'static str, &'static str, Action); 3] {
    [
        (
            icons::FORCE,
            "Build a force",
            "Pick a ruleset and a budget, then add units: the budget and the rules are checked as you go.",
            Action::NewForceDialog,
        ),
        (
            icons::CAMPAIGN,
            "Start a campaign",
            "Lorraine 1944 for Armour Battles, or battles between two forces of any ruleset.",
            Action::Navigate(View::Campaign),
        ),
        (
            icons::DICE,
            "Work out a shot",
            "Exact odds for one shot, test or assault in any ruleset, then roll or type the dice.",
            Action::Navigate(View::Resolve),
        ),
    ]
}

/// Draws the card across the top of the view.
pub fn card(ui: &mut egui::Ui) -> Vec<Action> {
    let mut actions = Vec::new();
    egui::Panel::top("start_card").show(ui, |ui| {
        let t = theme::tokens(ui);
        ui.add_space(t.gap(Gap::L));
        ui.horizontal(|ui| {
            ui.label(
                egui::RichText::new("Welcome to Quartermaster")
                    .size(t.heading())
                    .strong(),
            );
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui
                    .button("Hide")
                    .on_hover_text("Put this card away for good")
                    .clicked()
                {
                    actions.push(Action::HideStartCard);
                }
            });
        });
        ui.label(
            egui::RichText::new(
                "Start with one of these; the library of every book's cards is below.",
            )
            .color(t.palette.weak_text),
        );
        ui.add_space(t.gap(Gap::M));
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing.x = t.gap(Gap::L);
            for (icon, title, detail, action) in steps() {
                if theme::big_action(ui, icon, title, detail).clicked() {
                    actions.push(action);
                }
            }
        });
        ui.add_space(t.gap(Gap::L));
    });
    actions
}
