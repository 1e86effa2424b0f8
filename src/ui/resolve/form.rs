//! Any mechanic's inputs as widgets, drawn from its description: a checkbox per toggle, radio
//! buttons or a combo box per choice, a drag value per number, a card picker per card (the
//! book's and the custom cards, the open force's first). Each widget carries the input's
//! help as its tooltip and says "(house default)" where the input rests on a ruling.

use std::collections::BTreeMap;

use egui::RichText;

use crate::rules::battle::Limit;
use crate::rules::resolution::{
    CardFilter, CardPick, Choice, EntryField, InputKind, InputSpec, InputValue, Inputs, ListEntry,
    Mechanic, Preset,
};
use crate::rules::{HouseDefault, RulesetId};
use crate::ui::model::{CardKey, Model};

/// What the form of one mechanic holds: its values, and which card each card input names
/// (by key, so an edited or custom card is picked up as it is now).
#[derive(Debug, Clone, PartialEq)]
pub struct Form {
    pub inputs: Inputs,
    /// (input key, entry) → card; entry 0 for a single card input.
    pub cards: BTreeMap<(&'static str, usize), CardKey>,
}

impl Form {
    pub fn new(mechanic: &Mechanic) -> Self {
        Form {
            inputs: mechanic.defaults(),
            cards: BTreeMap::new(),
        }
    }

    /// The inputs with each chosen card filled in from the model; a card that no longer
    /// exists counts as not chosen.
    pub fn resolved(&self, model: &Model) -> Inputs {
        let mut inputs = self.inputs.clone();
        let pick = |key: &'static str, entry: usize| {
            let card = model.card(self.cards.get(&(key, entry))?)?;
            Some(CardPick {
                card: card.card.clone(),
                custom: card.custom.is_some(),
            })
        };
        let keys: Vec<&'static str> = inputs.keys().collect();
        for key in keys {
            match inputs.get_mut(key) {
                Some(InputValue::Card(card)) => *card = pick(key, 0),
                Some(InputValue::CardList(list)) => {
                    for (i, entry) in list.iter_mut().enumerate() {
                        entry.card = pick(key, i);
                    }
                }
                _ => {}
            }
        }
        inputs
    }
}

/// Draws `mechanic`'s inputs, editing `form` in place.
pub fn form(ui: &mut egui::Ui, mechanic: &Mechanic, form: &mut Form, model: &Model) {
    presets(ui, &(mechanic.presets)(), form);
    form_fixed(ui, mechanic, form, model, &Fixing::default());
}

/// What a campaign battle decides of a mechanic's inputs: values it fixes (shown, not
/// editable; cards are its units' and are not drawn) and counts it bounds.
#[derive(Debug, Default, Clone, Copy)]
pub struct Fixing<'a> {
    pub values: &'a [(&'static str, InputValue)],
    pub limits: &'a [Limit],
    /// Choice inputs narrowed to some of their options.
    pub choices: &'a [(&'static str, Vec<&'static str>)],
    /// The cards are the battle's units, picked above the form: no card input is drawn.
    pub cards_from_units: bool,
    /// Draw only these inputs (a form split over columns); all when `None`.
    pub only: Option<&'a [&'static str]>,
}

/// Draws `mechanic`'s inputs with those `fixing` decides put in and locked.
pub fn form_fixed(
    ui: &mut egui::Ui,
    mechanic: &Mechanic,
    form: &mut Form,
    model: &Model,
    fixing: &Fixing<'_>,
) {
    settle(mechanic, form, fixing);
    for spec in (mechanic.inputs)() {
        let Some(spec) = bounded(spec, form, fixing) else {
            continue;
        };
        let fixed = fixing.values.iter().any(|(key, _)| *key == spec.key);
        ui.push_id(spec.key, |ui| {
            ui.add_enabled_ui(!fixed, |ui| {
                input(ui, mechanic.ruleset, &spec, form, model);
            })
            .response
            .on_disabled_hover_text("Decided by the battle");
        });
    }
}

/// What drawing the form under `fixing` makes of its values before the player touches a
/// widget: the fixed values put in, a choice left on an option no longer offered moved to the
/// first one kept, a count or number brought within its (bounded) range. Pure, so what a
/// panel's request holds can be worked out, and tested, without drawing it.
pub fn settle(mechanic: &Mechanic, form: &mut Form, fixing: &Fixing<'_>) {
    for (key, value) in fixing.values {
        form.inputs.set(key, value.clone());
    }
    for spec in (mechanic.inputs)() {
        let narrowed = fixing.choices.iter().any(|(key, _)| *key == spec.key);
        let Some(spec) = bounded(spec, form, fixing) else {
            continue;
        };
        match &spec.kind {
            InputKind::Choice(kept) if narrowed => {
                if let Some(first) = kept.first()
                    && !kept.iter().any(|o| o.key == form.inputs.choice(spec.key))
                {
                    form.inputs.set(spec.key, InputValue::Choice(first.key));
                }
            }
            InputKind::Count { min, max } => {
                let n = form.inputs.count(spec.key).clamp(*min, *max);
                form.inputs.set(spec.key, InputValue::Count(n));
            }
            InputKind::Number { min, max } => {
                let x = form.inputs.number(spec.key).clamp(*min, *max);
                form.inputs.set(spec.key, InputValue::Number(x));
            }
            _ => {}
        }
    }
}

/// `spec` as the form draws it under `fixing` — a count bounded by the battle's limit, a
/// choice narrowed to the options it allows — or `None` when it is not drawn (hidden, not in
/// this column, or a card the battle's units give).
fn bounded(spec: InputSpec, form: &Form, fixing: &Fixing<'_>) -> Option<InputSpec> {
    if !spec.shown(&form.inputs) || fixing.only.is_some_and(|keys| !keys.contains(&spec.key)) {
        return None;
    }
    let fixed = fixing.values.iter().any(|(key, _)| *key == spec.key);
    if (fixed || fixing.cards_from_units) && matches!(spec.kind, InputKind::Card { .. }) {
        return None;
    }
    let limit = fixing.limits.iter().find(|l| l.key == spec.key);
    let narrowed = fixing.choices.iter().find(|(key, _)| *key == spec.key);
    Some(match (&spec.kind, limit, narrowed) {
        (InputKind::Count { min, max }, Some(limit), _) => InputSpec {
            kind: InputKind::Count {
                min: *min,
                max: (*max).min(limit.max).max(*min),
            },
            ..spec
        },
        (InputKind::Choice(options), _, Some((_, allowed))) => {
            let kept: Vec<Choice> = options
                .iter()
                .filter(|o| allowed.contains(&o.key))
                .copied()
                .collect();
            InputSpec {
                kind: InputKind::Choice(std::borrow::Cow::Owned(kept)),
                ..spec
            }
        }
        _ => spec,
    })
}

fn presets(ui: &mut egui::Ui, presets: &[Preset], form: &mut Form) {
    if presets.is_empty() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        for preset in presets {
            if ui
                .button(&preset.label)
                .on_hover_text(preset.help)
                .clicked()
            {
                for (key, value) in &preset.values {
                    form.inputs.set(key, value.clone());
                }
            }
        }
    });
}

fn house_mark(ui: &mut egui::Ui, ruling: Option<&HouseDefault>) {
    if let Some(ruling) = ruling {
        ui.label(RichText::new("(house default)").italics().weak())
            .on_hover_text(ruling.ruling);
    }
}

fn input(ui: &mut egui::Ui, ruleset: RulesetId, spec: &InputSpec, form: &mut Form, model: &Model) {
    let house = spec.house_default.as_ref();
    match &spec.kind {
        InputKind::Toggle => {
            ui.horizontal_wrapped(|ui| {
                let mut on = form.inputs.flag(spec.key);
                if ui
                    .checkbox(&mut on, spec.label)
                    .on_hover_text(spec.help)
                    .changed()
                {
                    form.inputs.set(spec.key, InputValue::Flag(on));
                }
                house_mark(ui, house);
            });
        }
        InputKind::Choice(options) => choice(ui, spec, options, form),
        InputKind::Count { min, max } => {
            let mut n = form.inputs.count(spec.key).clamp(*min, *max);
            ui.horizontal_wrapped(|ui| {
                let label = ui.label(spec.label).on_hover_text(spec.help);
                ui.add(egui::DragValue::new(&mut n).range(*min..=*max))
                    .labelled_by(label.id)
                    .on_hover_text(spec.help);
                house_mark(ui, house);
            });
            form.inputs.set(spec.key, InputValue::Count(n));
        }
        InputKind::Number { min, max } => {
            let mut x = form.inputs.number(spec.key).clamp(*min, *max);
            ui.horizontal_wrapped(|ui| {
                let label = ui.label(spec.label).on_hover_text(spec.help);
                ui.add(egui::DragValue::new(&mut x).range(*min..=*max).speed(0.5))
                    .labelled_by(label.id)
                    .on_hover_text(spec.help);
                house_mark(ui, house);
            });
            form.inputs.set(spec.key, InputValue::Number(x));
        }
        InputKind::Card { filter, optional } => {
            let mut key = form.cards.get(&(spec.key, 0)).cloned();
            card_combo(
                ui,
                (spec.label, spec.help, *optional),
                &mut key,
                (model, ruleset, *filter),
            );
            set_card(form, spec.key, 0, key);
        }
        InputKind::CardList {
            filter,
            max,
            fields,
        } => card_list(ui, ruleset, spec, (*filter, *max, fields), form, model),
    }
}

fn choice(ui: &mut egui::Ui, spec: &InputSpec, options: &[Choice], form: &mut Form) {
    let mut chosen = form.inputs.choice(spec.key);
    // A few options read best side by side; more go in a combo box.
    if options.len() <= 4 {
        let radios = |ui: &mut egui::Ui, chosen: &mut &'static str| {
            for option in options {
                ui.radio_value(chosen, option.key, option.label)
                    .on_hover_text(spec.help);
            }
            house_mark(ui, spec.house_default.as_ref());
        };
        // Long option names get a line of their own under the label, so a wrapped option
        // never looks like a checkbox of its own.
        let width: usize = options.iter().map(|o| o.label.chars().count() + 4).sum();
        if width + spec.label.chars().count() > 40 {
            ui.label(spec.label).on_hover_text(spec.help);
            ui.indent(spec.key, |ui| {
                ui.horizontal_wrapped(|ui| radios(ui, &mut chosen));
            });
        } else {
            ui.horizontal_wrapped(|ui| {
                ui.label(spec.label).on_hover_text(spec.help);
                radios(ui, &mut chosen);
            });
        }
    } else {
        let shown = options
            .iter()
            .find(|o| o.key == chosen)
            .map_or("(choose)", |o| o.label);
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(spec.label).on_hover_text(spec.help);
            egui::ComboBox::from_id_salt(label.id)
                .selected_text(shown)
                .width(200.0)
                .height(400.0)
                .show_ui(ui, |ui| {
                    for option in options {
                        ui.selectable_value(&mut chosen, option.key, option.label);
                    }
                })
                .response
                .labelled_by(label.id)
                .on_hover_text(spec.help);
            house_mark(ui, spec.house_default.as_ref());
        });
    }
    form.inputs.set(spec.key, InputValue::Choice(chosen));
}

fn set_card(form: &mut Form, key: &'static str, entry: usize, card: Option<CardKey>) {
    match card {
        Some(card) => form.cards.insert((key, entry), card),
        None => form.cards.remove(&(key, entry)),
    };
}

/// The cards of `ruleset` that pass `filter` as (key, label): the open force's first, then
/// the book's, then the custom cards ("Sherman · custom").
type Names = Vec<(CardKey, String)>;

fn card_names(model: &Model, ruleset: RulesetId, filter: CardFilter) -> (Names, Names) {
    let mut all: Vec<(CardKey, String)> = model
        .card_entries(Some(ruleset))
        .into_iter()
        .filter(|e| filter(e.card))
        .map(|e| (e.key(), e.label().into_owned()))
        .collect();
    let mut first = Vec::new();
    if let Some(open) = &model.open
        && open.force.ruleset == ruleset
    {
        for unit in &open.force.units {
            let name = unit.card.name();
            if let Some(i) = all
                .iter()
                .position(|(key, _)| matches!(key, CardKey::Book(_, book) if book == name))
            {
                first.push(all.remove(i));
            }
        }
    }
    (first, all)
}

/// A combo box of cards (open force first), labelled for screen readers and tests. The list
/// is made only while the box is open: a club library holds 100,000 cards.
fn card_combo(
    ui: &mut egui::Ui,
    (label, help, optional): (&str, &str, bool),
    value: &mut Option<CardKey>,
    (model, ruleset, filter): (&Model, RulesetId, CardFilter),
) {
    let shown = value
        .as_ref()
        .and_then(|key| model.card(key))
        .map_or_else(|| "(choose)".to_string(), |c| c.label().into_owned());
    ui.horizontal_wrapped(|ui| {
        let label = ui.label(label).on_hover_text(help);
        egui::ComboBox::from_id_salt(label.id)
            .selected_text(shown)
            .width(200.0)
            .height(400.0)
            .show_ui(ui, |ui| {
                let (first, rest) = card_names(model, ruleset, filter);
                if optional {
                    ui.selectable_value(value, None, "(none)");
                }
                if !first.is_empty() {
                    ui.label(RichText::new("Open force").small().weak());
                    for (key, name) in first {
                        ui.selectable_value(value, Some(key), name);
                    }
                    ui.separator();
                }
                for (key, name) in rest {
                    ui.selectable_value(value, Some(key), name);
                }
            })
            .response
            .labelled_by(label.id)
            .on_hover_text(help);
    });
}

fn card_list(
    ui: &mut egui::Ui,
    ruleset: RulesetId,
    spec: &InputSpec,
    (filter, max, fields): (CardFilter, usize, &[EntryField]),
    form: &mut Form,
    model: &Model,
) {
    let mut entries: Vec<ListEntry> = form.inputs.list(spec.key).to_vec();
    if entries.is_empty() {
        entries.push(ListEntry::default());
    }
    let mut remove = None;
    for (i, entry) in entries.iter_mut().enumerate() {
        ui.push_id(i, |ui| {
            let label = match i {
                0 => spec.label.to_string(),
                _ => format!("{} {}", spec.label, i + 1),
            };
            let mut key = form.cards.get(&(spec.key, i)).cloned();
            card_combo(
                ui,
                (&label, spec.help, false),
                &mut key,
                (model, ruleset, filter),
            );
            set_card(form, spec.key, i, key);
            // One field a line, under the card it belongs to: wrapped side by side they
            // broke between a label and its number.
            ui.indent(i, |ui| {
                for field in fields {
                    let mut n = entry.number(field.key).clamp(field.min, field.max);
                    ui.horizontal(|ui| {
                        let label = ui.label(format!("{} {}", field.label, i + 1));
                        ui.add(egui::DragValue::new(&mut n).range(field.min..=field.max))
                            .labelled_by(label.id)
                            .on_hover_text(field.help);
                    });
                    entry.numbers.insert(field.key, n);
                }
                if i > 0 && ui.button("Remove").clicked() {
                    remove = Some(i);
                }
            });
        });
    }
    if let Some(i) = remove {
        entries.remove(i);
        // Later entries move up: so do their cards.
        for j in i..entries.len() {
            let next = form.cards.remove(&(spec.key, j + 1));
            set_card(form, spec.key, j, next);
        }
    }
    if entries.len() < max
        && ui
            .button(format!("Add {}", spec.label.to_lowercase()))
            .clicked()
    {
        entries.push(ListEntry::default());
    }
    form.inputs.set(spec.key, InputValue::CardList(entries));
}
