//! The Library view: every card of every ruleset (book and custom) in a virtualised table that
//! filters as you type and sorts by column, beside a panel with the selected card's statistics
//! and what each abbreviation means.

use egui_extras::{Column, TableBuilder};
use serde::{Deserialize, Serialize};

use crate::rules::{self, Card, RulesetId};

use super::Action;
use super::card_editor::CardEditor;
use super::model::{Command, Model};

/// Columns the table sorts by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum SortColumn {
    /// Ruleset, then book order.
    #[default]
    Book,
    Name,
    Ruleset,
    Side,
    Type,
}

/// Filters, sort order and selection of the library; kept apart from the card data.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LibraryState {
    /// `None` shows every ruleset.
    pub ruleset: Option<RulesetId>,
    pub side: Option<String>,
    pub type_label: Option<String>,
    pub search: String,
    pub sort: SortColumn,
    pub descending: bool,
    /// (ruleset, card name) of the selected card.
    pub selected: Option<(RulesetId, String)>,
}

/// What the library view can ask for.
#[derive(Debug, Clone, PartialEq)]
pub enum LibraryAction {
    FilterRuleset(Option<RulesetId>),
    FilterSide(Option<String>),
    FilterType(Option<String>),
    Search(String),
    Sort(SortColumn),
    Select(RulesetId, String),
}

impl LibraryState {
    pub fn apply(&mut self, action: LibraryAction) {
        match action {
            LibraryAction::FilterRuleset(ruleset) => {
                self.ruleset = ruleset;
                self.side = None;
                self.type_label = None;
            }
            LibraryAction::FilterSide(side) => self.side = side,
            LibraryAction::FilterType(type_label) => self.type_label = type_label,
            LibraryAction::Search(text) => self.search = text,
            LibraryAction::Sort(column) => {
                if self.sort == column {
                    self.descending = !self.descending;
                } else {
                    self.sort = column;
                    self.descending = false;
                }
            }
            LibraryAction::Select(ruleset, name) => self.selected = Some((ruleset, name)),
        }
    }

    /// The cards passing the filters, sorted as asked. `cards` is in book order.
    pub fn filter<'c>(&self, cards: &[&'c Card]) -> Vec<&'c Card> {
        let needle = self.search.trim().to_lowercase();
        let mut shown: Vec<&Card> = cards
            .iter()
            .copied()
            .filter(|card| self.ruleset.is_none_or(|r| r == card.ruleset()))
            .filter(|card| self.side.as_deref().is_none_or(|s| card.side() == Some(s)))
            .filter(|card| {
                self.type_label
                    .as_deref()
                    .is_none_or(|t| card.type_label() == t)
            })
            .filter(|card| needle.is_empty() || matches_search(card, &needle))
            .collect();
        let key = |card: &&Card| -> String {
            match self.sort {
                SortColumn::Book => String::new(),
                SortColumn::Name => card.name().to_lowercase(),
                SortColumn::Ruleset => card.ruleset().title().to_string(),
                SortColumn::Side => card.side().unwrap_or("").to_string(),
                SortColumn::Type => card.type_label(),
            }
        };
        if self.sort != SortColumn::Book {
            shown.sort_by_cached_key(key);
        }
        if self.descending {
            shown.reverse();
        }
        shown
    }
}

/// True when `needle` (lower case) is in the card's name, short names or type.
pub fn matches_search(card: &Card, needle: &str) -> bool {
    contains_lower(card.name(), needle)
        || card.short_names().iter().any(|n| contains_lower(n, needle))
        || contains_lower(&card.type_label(), needle)
}

fn contains_lower(text: &str, needle: &str) -> bool {
    // Most names are ASCII: compare without allocating where we can.
    if text.is_ascii() && needle.is_ascii() {
        text.as_bytes()
            .windows(needle.len().max(1))
            .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
            || needle.is_empty()
    } else {
        text.to_lowercase().contains(needle)
    }
}

/// Borrows the state and the model for one frame.
pub struct LibraryView<'a> {
    state: &'a LibraryState,
    model: &'a Model,
    focus_search: bool,
}

impl<'a> LibraryView<'a> {
    pub fn new(state: &'a LibraryState, model: &'a Model, focus_search: bool) -> Self {
        LibraryView {
            state,
            model,
            focus_search,
        }
    }

    /// All cards: the books' then the custom ones.
    fn all_cards(&self) -> Vec<&'a Card> {
        RulesetId::ALL
            .into_iter()
            .flat_map(|id| rules::ruleset(id).library())
            .chain(self.model.custom_cards.iter().map(|(_, c)| c))
            .collect()
    }

    /// Draws the view; returns what the user asked for.
    pub fn ui(self, ui: &mut egui::Ui) -> Vec<Action> {
        let mut actions = Vec::new();
        let all = self.all_cards();
        egui::Panel::left("rulesets")
            .default_size(210.0)
            .show(ui, |ui| {
                self.filters(ui, &all, &mut actions);
            });
        egui::Panel::right("card")
            .default_size(340.0)
            .show(ui, |ui| {
                self.card_panel(ui, &all, &mut actions);
            });
        egui::CentralPanel::default().show(ui, |ui| {
            self.search_bar(ui, &mut actions);
            ui.separator();
            self.card_table(ui, &all, &mut actions);
        });
        actions
    }

    fn filters(&self, ui: &mut egui::Ui, all: &[&Card], actions: &mut Vec<Action>) {
        let state = self.state;
        ui.heading("Rulesets");
        if ui
            .selectable_label(state.ruleset.is_none(), "All rulesets")
            .clicked()
        {
            actions.push(Action::Library(LibraryAction::FilterRuleset(None)));
        }
        for ruleset in rules::all_rulesets() {
            let id = ruleset.id();
            let label = format!("{} ({})", id.title(), ruleset.library().len());
            if ui
                .selectable_label(state.ruleset == Some(id), label)
                .on_hover_text(ruleset.summary())
                .clicked()
            {
                actions.push(Action::Library(LibraryAction::FilterRuleset(Some(id))));
            }
        }
        ui.separator();
        let in_ruleset: Vec<&Card> = all
            .iter()
            .copied()
            .filter(|c| state.ruleset.is_none_or(|r| r == c.ruleset()))
            .collect();
        let mut sides: Vec<&str> = in_ruleset.iter().filter_map(|c| c.side()).collect();
        sides.sort_unstable();
        sides.dedup();
        if !sides.is_empty() {
            choice_list(
                ui,
                "Side",
                &sides,
                state.side.as_deref(),
                |v| Action::Library(LibraryAction::FilterSide(v)),
                actions,
            );
        }
        let mut types: Vec<String> = in_ruleset.iter().map(|c| c.type_label()).collect();
        types.sort_unstable();
        types.dedup();
        let types: Vec<&str> = types.iter().map(String::as_str).collect();
        choice_list(
            ui,
            "Type",
            &types,
            state.type_label.as_deref(),
            |v| Action::Library(LibraryAction::FilterType(v)),
            actions,
        );
        ui.separator();
        if ui.button("New custom card…").clicked() {
            let ruleset = state.ruleset.unwrap_or(RulesetId::Belloludi);
            actions.push(Action::EditCard(Some(CardEditor::new_card(ruleset))));
        }
    }

    fn search_bar(&self, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
        ui.horizontal(|ui| {
            ui.label("Search");
            let mut text = self.state.search.clone();
            let response = ui.add(
                egui::TextEdit::singleline(&mut text)
                    .hint_text("name, short name or type  (Ctrl+F)")
                    .desired_width(320.0),
            );
            if self.focus_search {
                response.request_focus();
            }
            if response.changed() {
                actions.push(Action::Library(LibraryAction::Search(text)));
            }
            if !self.state.search.is_empty()
                && ui.small_button("✕").on_hover_text("Clear").clicked()
            {
                actions.push(Action::Library(LibraryAction::Search(String::new())));
            }
        });
    }

    fn card_table(&self, ui: &mut egui::Ui, all: &[&Card], actions: &mut Vec<Action>) {
        let cards = self.state.filter(all);
        ui.label(format!("{} of {} cards", cards.len(), all.len()));
        let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
        let state = self.state;
        TableBuilder::new(ui)
            .striped(true)
            .column(
                Column::initial(260.0)
                    .at_least(120.0)
                    .resizable(true)
                    .clip(true),
            )
            .column(Column::initial(140.0).resizable(true))
            .column(Column::initial(90.0).resizable(true))
            .column(Column::remainder())
            .header(row_height, |mut header| {
                for (title, column) in [
                    ("Name", SortColumn::Name),
                    ("Ruleset", SortColumn::Ruleset),
                    ("Side", SortColumn::Side),
                    ("Type", SortColumn::Type),
                ] {
                    header.col(|ui| {
                        let arrow = match (state.sort == column, state.descending) {
                            (true, false) => " ⏶",
                            (true, true) => " ⏷",
                            _ => "",
                        };
                        if ui
                            .button(format!("{title}{arrow}"))
                            .on_hover_text("Sort by this column")
                            .clicked()
                        {
                            actions.push(Action::Library(LibraryAction::Sort(column)));
                        }
                    });
                }
            })
            .body(|body| {
                // Only the visible rows are laid out, so 10,000 cards cost what 30 do.
                body.rows(row_height, cards.len(), |mut row| {
                    let card = cards[row.index()];
                    let selected = state
                        .selected
                        .as_ref()
                        .is_some_and(|(r, n)| *r == card.ruleset() && n == card.name());
                    row.col(|ui| {
                        if ui.selectable_label(selected, card.name()).clicked() {
                            actions.push(Action::Library(LibraryAction::Select(
                                card.ruleset(),
                                card.name().to_string(),
                            )));
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

    fn card_panel(&self, ui: &mut egui::Ui, all: &[&Card], actions: &mut Vec<Action>) {
        let selected = self.state.selected.as_ref().and_then(|(ruleset, name)| {
            all.iter()
                .copied()
                .find(|c| c.ruleset() == *ruleset && c.name() == name)
        });
        let Some(card) = selected else {
            ui.heading("Card");
            ui.label("Select a card to see every statistic. Hover a label for what it means.");
            return;
        };
        let custom = self
            .model
            .custom_cards
            .iter()
            .find(|(_, c)| c == card)
            .map(|(id, _)| *id);
        ui.heading(card.name());
        ui.label(format!(
            "{} · {}",
            card.ruleset().title(),
            if custom.is_some() {
                "custom card"
            } else {
                "book card (read-only)"
            }
        ));
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
        if let Card::ArmourBattles(unit) = card {
            for rule in &unit.special_rules {
                ui.label(
                    egui::RichText::new(format!("{}: {}", rule.title(), rule.explanation()))
                        .small(),
                );
            }
        }
        ui.separator();
        ui.horizontal(|ui| match custom {
            Some(id) => {
                if ui.button("Edit").clicked() {
                    actions.push(Action::EditCard(Some(CardEditor::edit(id, card.clone()))));
                }
                if ui.button("Delete").clicked() {
                    actions.push(Action::Model(Command::DeleteCustomCard(id)));
                }
            }
            None => {
                if ui
                    .button("Duplicate to edit")
                    .on_hover_text("Book cards are read-only; make a custom copy")
                    .clicked()
                {
                    actions.push(Action::EditCard(Some(CardEditor::duplicate(card))));
                }
            }
        });
    }
}

fn choice_list(
    ui: &mut egui::Ui,
    label: &str,
    choices: &[&str],
    current: Option<&str>,
    action: impl Fn(Option<String>) -> Action,
    actions: &mut Vec<Action>,
) {
    let name = ui.label(label);
    egui::ComboBox::from_id_salt(label)
        .selected_text(current.unwrap_or("Any"))
        .show_ui(ui, |ui| {
            if ui.selectable_label(current.is_none(), "Any").clicked() {
                actions.push(action(None));
            }
            for choice in choices {
                if ui
                    .selectable_label(current == Some(*choice), *choice)
                    .clicked()
                {
                    actions.push(action(Some(choice.to_string())));
                }
            }
        })
        .response
        .labelled_by(name.id);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book() -> Vec<&'static Card> {
        RulesetId::ALL
            .into_iter()
            .flat_map(|id| rules::ruleset(id).library())
            .collect()
    }

    #[test]
    fn filters_by_ruleset_side_type_and_text() {
        let cards = book();
        let mut state = LibraryState::default();
        assert_eq!(state.filter(&cards).len(), cards.len());
        state.apply(LibraryAction::FilterRuleset(Some(RulesetId::ArmourBattles)));
        assert_eq!(state.filter(&cards).len(), 11);
        state.apply(LibraryAction::FilterSide(Some("German".into())));
        assert_eq!(state.filter(&cards).len(), 6);
        state.apply(LibraryAction::FilterType(Some("Light AFV".into())));
        let names: Vec<&str> = state.filter(&cards).iter().map(|c| c.name()).collect();
        assert_eq!(names, ["SdKfz 234/2 Armoured Car (Puma)"]);
        state.apply(LibraryAction::FilterType(None));
        state.apply(LibraryAction::Search("PUMA".into()));
        assert_eq!(state.filter(&cards).len(), 1);
    }

    #[test]
    fn sorting_by_name_then_reversed() {
        let cards = book();
        let mut state = LibraryState {
            ruleset: Some(RulesetId::BattleOfTanks),
            ..Default::default()
        };
        state.apply(LibraryAction::Sort(SortColumn::Name));
        let names: Vec<&str> = state.filter(&cards).iter().map(|c| c.name()).collect();
        assert_eq!(names.first(), Some(&"AMX 12t"));
        assert_eq!(names.last(), Some(&"Tiger I"));
        state.apply(LibraryAction::Sort(SortColumn::Name));
        let names: Vec<&str> = state.filter(&cards).iter().map(|c| c.name()).collect();
        assert_eq!(names.first(), Some(&"Tiger I"));
    }
}
