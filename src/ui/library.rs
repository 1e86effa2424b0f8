//! The Library view: every card of every ruleset (book and custom) in a virtualised table that
//! filters as you type and sorts by column, beside a panel with the selected card's statistics
//! and what each abbreviation means.

use std::borrow::Cow;

use egui_extras::{Column, TableBuilder};
use serde::{Deserialize, Serialize};

use crate::rules::{self, Card, RulesetId};

use super::action::Action;
use super::card_editor::CardEditor;
use super::card_preview::{self, CardPreview};
use super::model::{CardEntry, CardKey, Command, Model, search_text};
use super::print;
use super::theme::{self, icons};

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
    /// The selected card (by id: a custom card may share a book card's name).
    pub selected_card: Option<CardKey>,
}

/// What the Library shows, derived from the cards and the filters once per change of either
/// rather than once per frame: with a club's 100,000 cards, filtering, sorting and labelling
/// every card 60 times a second would take the whole frame.
#[derive(Debug, Default)]
struct Derived {
    /// Cards per ruleset, in [`RulesetId::ALL`] order.
    counts: Vec<usize>,
    sides: Vec<String>,
    types: Vec<String>,
    /// Positions in [`Model::card_entries`] of the cards shown, in the order shown.
    shown: Vec<usize>,
    total: usize,
}

impl Derived {
    /// Reads the model's [`Facets`] and card facts rather than the cards: after an edit with
    /// 100,000 cards, labelling and counting each card again would cost most of a frame.
    fn new(state: &LibraryState, model: &Model, all: &[CardEntry<'_>]) -> Derived {
        let facets = model.facets();
        Derived {
            counts: RulesetId::ALL.iter().map(|id| facets.count(*id)).collect(),
            sides: facets.sides(state.ruleset),
            types: facets.types(state.ruleset),
            shown: Derived::shown(state, model, all),
            total: all.len(),
        }
    }

    fn shown(state: &LibraryState, model: &Model, all: &[CardEntry<'_>]) -> Vec<usize> {
        let needle = state.search.trim().to_lowercase();
        let facts = model.card_facts();
        state.filter_searched(all, model.search_cards(state.ruleset, &needle), |i| {
            Cow::Borrowed(facts[i].type_label.as_str())
        })
    }
}

/// The filter fields of [`LibraryState`] (not the selection) with the cards' revision: what
/// [`Derived`] depends on (the cards' revision: a force edit changes nothing here).
type DerivedKey = (
    u64,
    Option<RulesetId>,
    Option<String>,
    Option<String>,
    String,
    SortColumn,
    bool,
);

/// What the library view can ask for.
#[derive(Debug, Clone, PartialEq)]
pub enum LibraryAction {
    FilterRuleset(Option<RulesetId>),
    FilterSide(Option<String>),
    FilterType(Option<String>),
    Search(String),
    Sort(SortColumn),
    Select(CardKey),
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
            LibraryAction::Select(key) => self.selected_card = Some(key),
        }
    }

    /// The cards passing the filters, sorted as asked. `cards` is in book order.
    pub fn filter<'c>(&self, cards: &[CardEntry<'c>]) -> Vec<CardEntry<'c>> {
        self.filter_indices(cards)
            .into_iter()
            .map(|i| cards[i])
            .collect()
    }

    /// Where in `cards` the cards passing the filters are, in the order asked.
    pub fn filter_indices(&self, cards: &[CardEntry<'_>]) -> Vec<usize> {
        let needle = self.search.trim().to_lowercase();
        let searched: Vec<usize> = (0..cards.len())
            .filter(|&i| needle.is_empty() || matches_search(cards[i].card, &needle))
            .collect();
        self.filter_searched(cards, searched, |i| Cow::Owned(cards[i].card.type_label()))
    }

    /// [`LibraryState::filter_indices`] for cards already searched (`searched`: positions in
    /// `cards` matching the search text); `type_of(i)` is card `i`'s type label.
    fn filter_searched<'t>(
        &self,
        cards: &[CardEntry<'_>],
        searched: Vec<usize>,
        type_of: impl Fn(usize) -> Cow<'t, str>,
    ) -> Vec<usize> {
        let mut shown: Vec<usize> = searched
            .into_iter()
            .filter(|&i| {
                let e = &cards[i];
                self.ruleset.is_none_or(|r| r == e.card.ruleset())
                    && self
                        .side
                        .as_deref()
                        .is_none_or(|s| e.card.side() == Some(s))
                    && self.type_label.as_deref().is_none_or(|t| type_of(i) == t)
            })
            .collect();
        let key = |&i: &usize| -> String {
            let card = cards[i].card;
            match self.sort {
                SortColumn::Book => String::new(),
                SortColumn::Name => card.name().to_lowercase(),
                SortColumn::Ruleset => card.ruleset().title().to_string(),
                SortColumn::Side => card.side().unwrap_or("").to_string(),
                SortColumn::Type => type_of(i).into_owned(),
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
    search_text(card).contains(needle)
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

    /// What the filters show, from the cache while neither the cards nor the filters changed.
    fn derived(&self, ctx: &egui::Context) -> std::sync::Arc<Derived> {
        type Cached = (DerivedKey, std::sync::Arc<Derived>);
        let s = self.state;
        let key: DerivedKey = (
            self.model.cards_revision(),
            s.ruleset,
            s.side.clone(),
            s.type_label.clone(),
            s.search.clone(),
            s.sort,
            s.descending,
        );
        let id = egui::Id::unique("library_derived");
        let cached = ctx.data(|d| d.get_temp::<Cached>(id));
        if let Some((cached_key, derived)) = &cached
            && *cached_key == key
        {
            return derived.clone();
        }
        let all = self.model.card_entries(None);
        let derived = std::sync::Arc::new(match cached {
            // A keystroke or a sort: the counts and the side and type lists still hold.
            Some((old_key, old)) if (old_key.0, old_key.1) == (key.0, key.1) => Derived {
                counts: old.counts.clone(),
                sides: old.sides.clone(),
                types: old.types.clone(),
                shown: Derived::shown(s, self.model, &all),
                total: all.len(),
            },
            _ => Derived::new(s, self.model, &all),
        });
        ctx.data_mut(|d| d.insert_temp::<Cached>(id, (key, derived.clone())));
        derived
    }

    /// Draws the view; returns what the user asked for.
    pub fn ui(self, ui: &mut egui::Ui) -> Vec<Action> {
        let mut actions = Vec::new();
        let derived = self.derived(ui.ctx());
        egui::Panel::left("rulesets")
            .default_size(210.0)
            .show(ui, |ui| {
                self.filters(ui, &derived, &mut actions);
            });
        egui::Panel::right("card")
            .default_size(340.0)
            .show(ui, |ui| {
                // Scrolls when the start card or a small window leaves it short: the card's
                // buttons stay reachable under its preview.
                // Shrunk to its content sideways, so the panel keeps the width it is given.
                egui::ScrollArea::vertical()
                    .auto_shrink([true, false])
                    .show(ui, |ui| self.card_panel(ui, &mut actions));
            });
        egui::CentralPanel::default().show(ui, |ui| {
            self.search_bar(ui, &mut actions);
            ui.separator();
            self.card_table(ui, &derived, &mut actions);
        });
        actions
    }

    fn filters(&self, ui: &mut egui::Ui, derived: &Derived, actions: &mut Vec<Action>) {
        let state = self.state;
        ui.heading("Rulesets");
        if ui
            .selectable_label(state.ruleset.is_none(), "All rulesets")
            .clicked()
        {
            actions.push(Action::Library(LibraryAction::FilterRuleset(None)));
        }
        for (ruleset, count) in rules::all_rulesets().zip(&derived.counts) {
            let id = ruleset.id();
            let label = format!("{} ({count})", id.title());
            if ui
                .selectable_label(state.ruleset == Some(id), label)
                .on_hover_text(ruleset.summary())
                .clicked()
            {
                actions.push(Action::Library(LibraryAction::FilterRuleset(Some(id))));
            }
        }
        ui.separator();
        let sides: Vec<&str> = derived.sides.iter().map(String::as_str).collect();
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
        let types: Vec<&str> = derived.types.iter().map(String::as_str).collect();
        choice_list(
            ui,
            "Type",
            &types,
            state.type_label.as_deref(),
            |v| Action::Library(LibraryAction::FilterType(v)),
            actions,
        );
        ui.separator();
        match state.ruleset {
            Some(ruleset) => {
                if ui
                    .button("New custom card…")
                    .on_hover_text(format!("A new {} card", ruleset.title()))
                    .clicked()
                {
                    actions.push(Action::EditCard(Some(CardEditor::new_card(ruleset))));
                }
            }
            // With every ruleset shown, ask which one rather than guess.
            None => {
                ui.menu_button("New custom card ▸", |ui| {
                    for ruleset in RulesetId::ALL {
                        if ui.button(ruleset.title()).clicked() {
                            actions.push(Action::EditCard(Some(CardEditor::new_card(ruleset))));
                        }
                    }
                });
            }
        }
        ui.separator();
        // The button's place holds the progress bar while an import reads, so nothing moves
        // under the pointer and a second click cannot start a second import.
        match self.model.army_importing() {
            Some((done, total)) => {
                let words = format!("Importing: {done} of {total} files");
                theme::progress(ui, done, total, words, ui.available_width());
            }
            None => {
                if ui
                    .button("Import BattleScribe data…")
                    .on_hover_text(
                        "Your own BattleScribe or New Recruit data folder (.gst, .cat, .gstz, .catz): its units become cards priced by the data. The app ships none.",
                    )
                    .clicked()
                {
                    actions.push(Action::ArmyDataDialog);
                }
            }
        }
    }

    fn search_bar(&self, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
        ui.horizontal(|ui| {
            let label = ui.label("Search");
            let mut text = self.state.search.clone();
            // Named by its label, so a screen reader (and a script) finds it as "Search".
            let response = ui
                .add(
                    egui::TextEdit::singleline(&mut text)
                        .hint_text("name, short name or type  (Ctrl+F)")
                        .desired_width(320.0),
                )
                .labelled_by(label.id);
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

    fn card_table(&self, ui: &mut egui::Ui, derived: &Derived, actions: &mut Vec<Action>) {
        let cards = &derived.shown;
        ui.label(format!("{} of {} cards", cards.len(), derived.total));
        let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
        let state = self.state;
        // The name takes what is left, so a narrow window shortens names (clipped, full on
        // hover) instead of pushing the Type column out of sight; every cell centres its text
        // vertically so a row reads as one line.
        TableBuilder::new(ui)
            .striped(true)
            .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
            .column(Column::remainder().at_least(110.0).clip(true))
            .column(
                Column::initial(130.0)
                    .at_least(70.0)
                    .resizable(true)
                    .clip(true),
            )
            .column(
                Column::initial(80.0)
                    .at_least(50.0)
                    .resizable(true)
                    .clip(true),
            )
            .column(
                Column::initial(120.0)
                    .at_least(70.0)
                    .resizable(true)
                    .clip(true),
            )
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
                    let Some(entry) = self.model.card_entry_at(cards[row.index()]) else {
                        return;
                    };
                    let card = entry.card;
                    let selected = state.selected_card.as_ref().is_some_and(|k| entry.is(k));
                    row.col(|ui| {
                        if ui.selectable_label(selected, entry.label()).clicked() {
                            actions.push(Action::Library(LibraryAction::Select(entry.key())));
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

    fn card_panel(&self, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
        let selected = self
            .state
            .selected_card
            .as_ref()
            .and_then(|key| self.model.card(key));
        let Some(entry) = selected else {
            ui.vertical_centered(|ui| {
                theme::empty_state(
                    ui,
                    icons::CARD,
                    "No card selected",
                    "Select a card to see every statistic. Hover a label for what it means.",
                );
            });
            return;
        };
        let (card, custom) = (entry.card, entry.custom);
        ui.heading(card.name());
        let origin = match (custom, card.army()) {
            (Some(_), _) => "custom card".to_string(),
            (None, Some(army)) if entry.data => {
                format!("from army data {} (read-only)", army.source.label())
            }
            _ => "book card (read-only)".to_string(),
        };
        let mut about = format!("{} · {origin}", card.ruleset().title());
        if let Some(cost) = entry.cost() {
            about.push_str(&format!(" · {cost}"));
        }
        ui.label(about);
        // Under the title, above a preview of any height: the card's buttons never scroll away.
        card_buttons(ui, card, custom, actions);
        ui.separator();
        let stats = |ui: &mut egui::Ui| {
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
            for note in card.rule_notes() {
                ui.label(egui::RichText::new(format!("{}: {}", note.title, note.text)).small());
            }
        };
        // Beside the stats where the panel is wide enough, below them where it is not.
        if ui.available_width() >= 520.0 {
            ui.horizontal_top(|ui| {
                ui.vertical(|ui| {
                    ui.set_max_width(ui.available_width() - 240.0);
                    stats(ui);
                });
                ui.vertical(|ui| self.printed_card(ui, &entry, 230.0));
            });
        } else {
            stats(ui);
            ui.separator();
            self.printed_card(ui, &entry, ui.available_width().min(300.0));
        }
    }
}

impl LibraryView<'_> {
    /// The card as it will print (a poker card), laid out once per card and stored change.
    fn printed_card(&self, ui: &mut egui::Ui, entry: &CardEntry<'_>, width: f32) {
        type Cached = (CardKey, u64, std::sync::Arc<Result<CardPreview, String>>);
        let key = entry.key();
        let revision = self.model.cards_revision();
        let id = egui::Id::unique("library_card_preview");
        let cached: Option<Cached> = ui.ctx().data(|d| d.get_temp(id));
        let preview = match cached {
            Some((k, r, preview)) if k == key && r == revision => preview,
            _ => {
                let preview = std::sync::Arc::new(card_preview::preview(
                    entry.card.ruleset(),
                    self.model.unit_for(entry),
                ));
                ui.ctx()
                    .data_mut(|d| d.insert_temp::<Cached>(id, (key, revision, preview.clone())));
                preview
            }
        };
        ui.weak("As printed (poker card)");
        match preview.as_ref() {
            Ok(preview) => {
                let aspect = preview.frame.h / preview.frame.w;
                print::paint_region(
                    ui,
                    &preview.page,
                    preview.frame,
                    egui::vec2(width, width * aspect),
                );
                for warning in &preview.warnings {
                    ui.colored_label(theme::tokens(ui).warning(), warning);
                }
            }
            Err(error) => {
                ui.colored_label(theme::tokens(ui).danger(), error);
            }
        }
    }
}

/// Edit or delete a custom card (Delete set apart, in the danger colour); copy a book card.
fn card_buttons(
    ui: &mut egui::Ui,
    card: &Card,
    custom: Option<crate::store::CardId>,
    actions: &mut Vec<Action>,
) {
    ui.horizontal(|ui| match custom {
        Some(id) => {
            if ui.button("Edit").clicked() {
                actions.push(Action::EditCard(Some(CardEditor::edit(id, card.clone()))));
            }
            ui.add_space(theme::tokens(ui).gap(theme::Gap::L));
            let delete = egui::RichText::new("Delete").color(theme::tokens(ui).danger());
            if ui.button(delete).clicked() {
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

    fn book() -> Vec<CardEntry<'static>> {
        RulesetId::ALL
            .into_iter()
            .flat_map(|id| rules::ruleset(id).library())
            .map(|card| CardEntry {
                card,
                custom: None,
                data: false,
            })
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
        let names: Vec<&str> = state.filter(&cards).iter().map(|e| e.card.name()).collect();
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
        let names: Vec<&str> = state.filter(&cards).iter().map(|e| e.card.name()).collect();
        assert_eq!(names.first(), Some(&"AMX 12t"));
        assert_eq!(names.last(), Some(&"Tiger I"));
        state.apply(LibraryAction::Sort(SortColumn::Name));
        let names: Vec<&str> = state.filter(&cards).iter().map(|e| e.card.name()).collect();
        assert_eq!(names.first(), Some(&"Tiger I"));
    }
}
