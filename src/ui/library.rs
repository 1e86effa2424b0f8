//! The Library view: every card of every ruleset, filtered by ruleset and text, with a panel
//! showing the selected card's statistics and what each abbreviation means.

use egui_extras::{Column, TableBuilder};

use crate::rules::{self, Card, RulesetId};

/// Filters and selection of the library; kept apart from the card data.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LibraryState {
    /// `None` shows every ruleset.
    pub ruleset: Option<RulesetId>,
    pub search: String,
    /// (ruleset, card name) of the selected card.
    pub selected: Option<(RulesetId, String)>,
}

/// What the library view can ask for.
#[derive(Debug, Clone, PartialEq)]
pub enum LibraryAction {
    FilterRuleset(Option<RulesetId>),
    Search(String),
    Select(RulesetId, String),
}

impl LibraryState {
    pub fn apply(&mut self, action: LibraryAction) {
        match action {
            LibraryAction::FilterRuleset(ruleset) => self.ruleset = ruleset,
            LibraryAction::Search(text) => self.search = text,
            LibraryAction::Select(ruleset, name) => self.selected = Some((ruleset, name)),
        }
    }

    /// The cards passing the filters, in ruleset then book order.
    pub fn visible_cards(&self) -> Vec<&'static Card> {
        let needle = self.search.trim().to_lowercase();
        RulesetId::ALL
            .into_iter()
            .filter(|id| self.ruleset.is_none_or(|r| r == *id))
            .flat_map(|id| rules::ruleset(id).library())
            .filter(|card| {
                needle.is_empty()
                    || card.name().to_lowercase().contains(&needle)
                    || card.type_label().to_lowercase().contains(&needle)
                    || card
                        .short_names()
                        .iter()
                        .any(|n| n.to_lowercase().contains(&needle))
            })
            .collect()
    }

    fn selected_card(&self) -> Option<&'static Card> {
        let (ruleset, name) = self.selected.as_ref()?;
        rules::ruleset(*ruleset)
            .library()
            .iter()
            .find(|c| c.name() == name)
    }
}

/// Borrows the library state for one frame.
pub struct LibraryView<'a> {
    state: &'a LibraryState,
}

impl<'a> LibraryView<'a> {
    pub fn new(state: &'a LibraryState) -> Self {
        LibraryView { state }
    }

    /// Draws the view; returns what the user asked for.
    pub fn ui(self, ui: &mut egui::Ui) -> Vec<LibraryAction> {
        let mut actions = Vec::new();
        egui::Panel::left("rulesets")
            .default_size(200.0)
            .show(ui, |ui| {
                self.ruleset_list(ui, &mut actions);
            });
        egui::Panel::right("card")
            .default_size(340.0)
            .show(ui, |ui| {
                self.card_panel(ui);
            });
        egui::CentralPanel::default().show(ui, |ui| {
            self.search_bar(ui, &mut actions);
            ui.separator();
            self.card_table(ui, &mut actions);
        });
        actions
    }

    fn ruleset_list(&self, ui: &mut egui::Ui, actions: &mut Vec<LibraryAction>) {
        ui.heading("Rulesets");
        if ui
            .selectable_label(self.state.ruleset.is_none(), "All rulesets")
            .clicked()
        {
            actions.push(LibraryAction::FilterRuleset(None));
        }
        for ruleset in rules::all_rulesets() {
            let id = ruleset.id();
            let label = format!("{} ({})", id.title(), ruleset.library().len());
            if ui
                .selectable_label(self.state.ruleset == Some(id), label)
                .on_hover_text(ruleset.summary())
                .clicked()
            {
                actions.push(LibraryAction::FilterRuleset(Some(id)));
            }
        }
    }

    fn search_bar(&self, ui: &mut egui::Ui, actions: &mut Vec<LibraryAction>) {
        ui.horizontal(|ui| {
            ui.label("Search");
            let mut text = self.state.search.clone();
            let response = ui.add(egui::TextEdit::singleline(&mut text).hint_text("name or type"));
            if response.changed() {
                actions.push(LibraryAction::Search(text));
            }
        });
    }

    fn card_table(&self, ui: &mut egui::Ui, actions: &mut Vec<LibraryAction>) {
        let cards = self.state.visible_cards();
        ui.label(format!("{} cards", cards.len()));
        let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
        TableBuilder::new(ui)
            .striped(true)
            .column(Column::initial(260.0).at_least(120.0).resizable(true))
            .column(Column::initial(140.0).resizable(true))
            .column(Column::initial(120.0).resizable(true))
            .column(Column::remainder())
            .header(row_height, |mut header| {
                for title in ["Name", "Ruleset", "Side", "Type"] {
                    header.col(|ui| {
                        ui.strong(title);
                    });
                }
            })
            .body(|body| {
                body.rows(row_height, cards.len(), |mut row| {
                    let card = cards[row.index()];
                    let selected = self
                        .state
                        .selected
                        .as_ref()
                        .is_some_and(|(r, n)| *r == card.ruleset() && n == card.name());
                    row.col(|ui| {
                        if ui.selectable_label(selected, card.name()).clicked() {
                            actions.push(LibraryAction::Select(
                                card.ruleset(),
                                card.name().to_string(),
                            ));
                        }
                    });
                    row.col(|ui| {
                        ui.label(card.ruleset().title());
                    });
                    row.col(|ui| {
                        ui.label(card.side().unwrap_or("—"));
                    });
                    row.col(|ui| {
                        ui.label(card.type_label());
                    });
                });
            });
    }

    fn card_panel(&self, ui: &mut egui::Ui) {
        let Some(card) = self.state.selected_card() else {
            ui.heading("Card");
            ui.label("Select a card to see every statistic.");
            return;
        };
        ui.heading(card.name());
        ui.label(card.ruleset().title());
        ui.separator();
        egui::Grid::new("card_stats")
            .num_columns(2)
            .striped(true)
            .show(ui, |ui| {
                for stat in card.stats() {
                    ui.strong(stat.label).on_hover_text(stat.help);
                    ui.add(egui::Label::new(stat.value).wrap())
                        .on_hover_text(stat.help);
                    ui.end_row();
                }
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_by_ruleset_and_text() {
        let mut state = LibraryState::default();
        let all = state.visible_cards().len();
        assert_eq!(
            all,
            RulesetId::ALL
                .iter()
                .map(|id| rules::ruleset(*id).library().len())
                .sum::<usize>()
        );
        state.apply(LibraryAction::FilterRuleset(Some(RulesetId::ArmourBattles)));
        assert_eq!(state.visible_cards().len(), 11);
        state.apply(LibraryAction::Search("puma".into()));
        let names: Vec<&str> = state.visible_cards().iter().map(|c| c.name()).collect();
        assert_eq!(names, ["SdKfz 234/2 Armoured Car (Puma)"]);
    }
}
