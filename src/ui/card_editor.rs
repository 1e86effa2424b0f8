//! The custom card editor: one form for every ruleset, drawn from the card's own description
//! of its fields ([`CardData::fields`]) the way the Resolve form is drawn from a mechanic's
//! inputs, and checked as you type by the same parser that reads inline cards from force
//! files, so the app and the files agree on what is valid.

use crate::rules::card::CardData;
use crate::rules::card_field::{CardField, FieldKind, FieldOption, FieldValue};
use crate::rules::{self, Card, RulesetId};
use crate::store::CardId;

use super::action::Action;
use super::model::Command;

/// An open editor: the card being shaped and where it will be saved.
#[derive(Debug, Clone, PartialEq)]
pub struct CardEditor {
    /// The custom card being edited, or `None` for a new one.
    pub id: Option<CardId>,
    pub card: Card,
    /// The Name field has been given the keyboard once (it is, when the editor opens).
    focused: bool,
}

impl CardEditor {
    /// A blank card of `ruleset` with the book's most common values.
    pub fn new_card(ruleset: RulesetId) -> Self {
        CardEditor {
            id: None,
            card: rules::ruleset(ruleset).new_card(),
            focused: false,
        }
    }

    /// A custom copy of a book card.
    pub fn duplicate(card: &Card) -> Self {
        let mut card = card.clone();
        let name = format!("{} (custom)", card.name());
        card.data_mut().set_name(name);
        card.data_mut().make_custom();
        CardEditor {
            id: None,
            card,
            focused: false,
        }
    }

    /// An editor for an existing custom card.
    pub fn edit(id: CardId, card: Card) -> Self {
        CardEditor {
            id: Some(id),
            card,
            focused: false,
        }
    }

    /// The problem with the card as it stands, in the words a force file would get.
    pub fn problem(&self) -> Option<String> {
        let json = self.card.to_inline_json();
        rules::ruleset(self.card.ruleset())
            .parse_inline_card(&json, "card")
            .err()
            .map(|e| e.to_string())
    }

    /// Draws the editor window; returns Save / Cancel actions.
    pub fn window(&mut self, ctx: &egui::Context) -> Vec<Action> {
        // Read before the drop-downs are drawn: an Escape that closes one keeps the editor.
        let escape = super::widgets::escape_closes_dialog(ctx);
        let mut actions = Vec::new();
        let mut open = true;
        let title = format!(
            "{} card — {}",
            if self.id.is_some() { "Edit" } else { "New" },
            self.card.ruleset().title()
        );
        // Near the top of the window, whatever panels (the start card) stand above the view:
        // the whole editor and its Save button fit a laptop's height.
        let top = ctx.content_rect().center_top() + egui::vec2(0.0, 32.0);
        egui::Window::new(title)
            .id(egui::Id::unique("card_editor"))
            .open(&mut open)
            .collapsible(false)
            .pivot(egui::Align2::CENTER_TOP)
            .default_pos(top)
            .show(ctx, |ui| {
                egui::Grid::new("card_fields")
                    .num_columns(2)
                    .spacing([12.0, 6.0])
                    .show(ui, |ui| {
                        let name_label = ui.label("Name");
                        let mut name = self.card.name().to_string();
                        let name_field = ui
                            .add(egui::TextEdit::singleline(&mut name).hint_text("card name"))
                            .labelled_by(name_label.id);
                        // The editor opens ready to type, like every dialog.
                        if !std::mem::replace(&mut self.focused, true) {
                            name_field.request_focus();
                        }
                        if name_field.changed() {
                            self.card.data_mut().set_name(name);
                        }
                        ui.end_row();
                        fields(ui, self.card.data_mut());
                    });
                ui.separator();
                let problem = self.problem();
                match &problem {
                    Some(text) => {
                        ui.colored_label(super::theme::tokens(ui).danger(), format!("✗ {text}"));
                    }
                    None => {
                        ui.label("✓ Valid card");
                    }
                }
                ui.horizontal(|ui| {
                    if ui
                        .add_enabled(problem.is_none(), egui::Button::new("Save card"))
                        .on_hover_text("Enter")
                        .clicked()
                    {
                        actions.push(Action::Model(Command::SaveCustomCard {
                            id: self.id,
                            card: self.card.clone(),
                        }));
                        actions.push(Action::EditCard(None));
                    }
                    if ui.button("Cancel").on_hover_text("Escape").clicked() {
                        actions.push(Action::EditCard(None));
                    }
                });
            });
        // Escape cancels and Enter saves a valid card, as in every other dialog.
        let enter = ctx.input(|i| i.key_pressed(egui::Key::Enter));
        if enter && actions.is_empty() && self.problem().is_none() {
            actions.push(Action::Model(Command::SaveCustomCard {
                id: self.id,
                card: self.card.clone(),
            }));
            actions.push(Action::EditCard(None));
        } else if !open || escape {
            actions.push(Action::EditCard(None));
        }
        actions
    }
}

/// Draws every field of the card, then hands the edits back to the card, which keeps its
/// own values consistent (an off-table battery loses its range bands).
fn fields(ui: &mut egui::Ui, card: &mut dyn CardData) {
    let edits: Vec<(&'static str, FieldValue)> = card
        .fields()
        .iter()
        .filter_map(|field| Some((field.key, field_row(ui, field)?)))
        .collect();
    for (key, value) in edits {
        card.set_field(key, value);
    }
}

/// One row of the grid: the field's label and its widget; the edit, if the user made one.
fn field_row(ui: &mut egui::Ui, field: &CardField) -> Option<FieldValue> {
    let CardField {
        key: _,
        label,
        help,
        kind,
        value,
    } = field;
    let name = ui.label(*label);
    let name = if help.is_empty() {
        name
    } else {
        name.on_hover_text(*help)
    };
    let edit = match (kind, value) {
        (FieldKind::Text { hint }, FieldValue::Text(text)) => {
            let mut text = text.clone();
            ui.add(egui::TextEdit::singleline(&mut text).hint_text(*hint))
                .labelled_by(name.id)
                .changed()
                .then_some(FieldValue::Text(text))
        }
        (FieldKind::Choice(options), FieldValue::Choice(chosen)) => {
            choice(ui, label, options, *chosen, name.id)
        }
        (FieldKind::Count { min, max }, FieldValue::Count(n)) => {
            let mut n = *n;
            let response = ui
                .add(egui::DragValue::new(&mut n).range(*min..=*max))
                .labelled_by(name.id);
            let response = if help.is_empty() {
                response
            } else {
                response.on_hover_text(*help)
            };
            response.changed().then_some(FieldValue::Count(n))
        }
        (FieldKind::Toggle, FieldValue::Flag(on)) => {
            let mut on = *on;
            ui.checkbox(&mut on, "")
                .labelled_by(name.id)
                .changed()
                .then_some(FieldValue::Flag(on))
        }
        (FieldKind::Many(options), FieldValue::Many(on)) => many(ui, options, on),
        (FieldKind::Shown, FieldValue::Shown(shown)) => {
            match shown {
                Ok(text) => ui.strong(text),
                Err(problem) => ui.colored_label(super::theme::tokens(ui).danger(), problem),
            };
            None
        }
        // A description whose value does not fit its kind is a programming error; show it
        // plainly rather than guess.
        _ => {
            ui.label("?");
            None
        }
    };
    ui.end_row();
    edit
}

fn choice(
    ui: &mut egui::Ui,
    label: &str,
    options: &[FieldOption],
    chosen: usize,
    name: egui::Id,
) -> Option<FieldValue> {
    let mut picked = chosen;
    egui::ComboBox::from_id_salt(label)
        .selected_text(options.get(chosen).map_or("?", |o| o.label.as_str()))
        .show_ui(ui, |ui| {
            for (i, option) in options.iter().enumerate() {
                ui.selectable_value(&mut picked, i, &option.label);
            }
        })
        .response
        .labelled_by(name);
    (picked != chosen).then_some(FieldValue::Choice(picked))
}

/// Most options listed before the list scrolls.
const MANY_BEFORE_SCROLLING: usize = 10;
/// Options whose labels are all this short sit side by side.
const SHORT_OPTION_CHARS: usize = 12;

/// A checkbox per option: side by side when the labels are short, one a line otherwise, and
/// scrolling when there are many (a whole weapons chart).
fn many(ui: &mut egui::Ui, options: &[FieldOption], on: &[bool]) -> Option<FieldValue> {
    let mut edit = None;
    let mut boxes = |ui: &mut egui::Ui| {
        for (i, option) in options.iter().enumerate() {
            let mut checked = on.get(i).copied().unwrap_or(false);
            let response = ui.checkbox(&mut checked, &option.label);
            let response = if option.help.is_empty() {
                response
            } else {
                response.on_hover_text(&option.help)
            };
            if response.changed() {
                edit = Some(FieldValue::Toggled(i, checked));
            }
        }
    };
    if options.len() > MANY_BEFORE_SCROLLING {
        ui.vertical(|ui| {
            egui::ScrollArea::vertical()
                .max_height(180.0)
                .show(ui, |ui| boxes(ui));
        });
    } else if options
        .iter()
        .all(|o| o.label.chars().count() <= SHORT_OPTION_CHARS)
    {
        ui.horizontal_wrapped(|ui| boxes(ui));
    } else {
        ui.vertical(|ui| boxes(ui));
    }
    edit
}
