//! The Forces view: saved forces on the left, the open force's editor in the middle.
//!
//! Every edit is sent as a whole edited force to the model, which saves it at once and records
//! it for undo. Text fields commit when they lose focus or Enter is pressed, so one rename is one
//! undo step rather than one per keystroke.

use std::collections::HashMap;

use egui::{Color32, RichText};

use crate::rules::ruleset::line_cost;
use crate::rules::validation::BudgetReport;
use crate::rules::{self, Budget, Card, CardRef, Force, RulesetId};

use super::action::Action;
use super::model::{CardEntry, Command, Model, OpenForce};
use super::widgets;

/// Drafts, dialogs and selection of the Forces view.
#[derive(Debug, Default)]
pub struct ForcesState {
    pub add_search: String,
    pub new_force: Option<NewForceDraft>,
    pub selected_unit: Option<usize>,
    /// Text being typed into a field, keyed by the field's id, until it is committed.
    pub drafts: HashMap<String, String>,
}

/// The "New force" dialog's fields.
#[derive(Debug, Clone, PartialEq)]
pub struct NewForceDraft {
    pub ruleset: RulesetId,
    pub name: String,
    /// Starts as the ruleset's own default budget and follows a change of ruleset.
    pub budget: Budget,
}

impl Default for NewForceDraft {
    fn default() -> Self {
        NewForceDraft::for_ruleset(RulesetId::ALL[0])
    }
}

impl NewForceDraft {
    pub fn for_ruleset(ruleset: RulesetId) -> Self {
        NewForceDraft {
            ruleset,
            name: String::new(),
            budget: rules::ruleset(ruleset).default_budget(),
        }
    }

    fn set_ruleset(&mut self, ruleset: RulesetId) {
        if ruleset != self.ruleset {
            self.ruleset = ruleset;
            self.budget = rules::ruleset(ruleset).default_budget();
        }
    }
}

/// Borrows the model and the view state for one frame.
pub struct ForcesView<'a> {
    model: &'a Model,
    state: &'a mut ForcesState,
}

impl<'a> ForcesView<'a> {
    pub fn new(model: &'a Model, state: &'a mut ForcesState) -> Self {
        ForcesView { model, state }
    }

    pub fn ui(self, ui: &mut egui::Ui) -> Vec<Action> {
        let Self { model, state } = self;
        let mut actions = Vec::new();
        egui::Panel::left("force_list")
            .default_size(240.0)
            .show(ui, |ui| {
                force_list(model, state, ui, &mut actions);
            });
        // The add buttons live in their own panel so that adding a unit never moves them:
        // a repeated click must add the same unit again.
        if let Some(open) = &model.open {
            egui::Panel::right("add_units")
                .default_size(250.0)
                .min_size(200.0)
                .show(ui, |ui| {
                    add_unit(model, &open.force, state, ui, &mut actions)
                });
        }
        egui::CentralPanel::default().show(ui, |ui| match &model.open {
            Some(open) => force_editor(model, open, state, ui, &mut actions),
            None => {
                ui.add_space(40.0);
                ui.vertical_centered(|ui| {
                    ui.heading("No force open");
                    ui.label("Pick a force on the left, or start a new one (Ctrl+N).");
                });
            }
        });
        if state.new_force.is_some() {
            new_force_dialog(state, ui, &mut actions);
        }
        actions
    }
}

fn force_list(
    model: &Model,
    state: &mut ForcesState,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    ui.horizontal(|ui| {
        if ui.button("New force").on_hover_text("Ctrl+N").clicked() {
            state.new_force = Some(NewForceDraft::default());
        }
        if ui
            .button("Import…")
            .on_hover_text("Read a force file")
            .clicked()
        {
            actions.push(Action::ImportDialog);
        }
    });
    ui.separator();
    if model.forces.is_empty() {
        ui.label("No forces yet.");
    }
    // Two lines per force at a fixed height: only the rows in view are laid out, so a club's
    // 10,000 forces cost what twenty do.
    let row_height =
        2.0 * ui.text_style_height(&egui::TextStyle::Body) + 2.0 * ui.spacing().button_padding.y;
    let rows = model.forces.len();
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show_rows(ui, row_height, rows, |ui, range| {
            for summary in &model.forces[range] {
                let open = model.open.as_ref().is_some_and(|o| o.id == summary.id);
                let label = format!(
                    "{}\n{} · {}",
                    summary.name,
                    summary.ruleset.title(),
                    crate::rules::words::amount(summary.units, "units")
                );
                let size = egui::vec2(ui.available_width(), row_height);
                let response = ui
                    .allocate_ui_with_layout(
                        size,
                        egui::Layout::top_down_justified(egui::Align::LEFT),
                        |ui| ui.add(egui::Button::selectable(open, label).min_size(size)),
                    )
                    .inner;
                if response.clicked() {
                    actions.push(Action::Model(Command::Open(summary.id)));
                }
                response.context_menu(|ui| {
                    if ui.button("Duplicate").clicked() {
                        actions.push(Action::Model(Command::Duplicate(summary.id)));
                    }
                    if ui.button("Export…").clicked() {
                        actions.push(Action::ExportDialog(summary.id));
                    }
                    if ui.button("Delete").clicked() {
                        actions.push(Action::Model(Command::Delete(summary.id)));
                    }
                });
            }
        });
}

fn force_editor(
    model: &Model,
    open: &OpenForce,
    state: &mut ForcesState,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    let OpenForce {
        id,
        force,
        validation,
        card_changes,
    } = open;
    let edit = |force: Force, label: &str| {
        Action::Model(Command::Edit {
            force,
            label: label.to_string(),
        })
    };

    ui.horizontal(|ui| {
        ui.label(RichText::new(force.ruleset.title()).weak());
        if let Some(name) = widgets::committed_text(
            ui,
            &mut state.drafts,
            &format!("name{}", id.0),
            &force.name,
            "force name",
            260.0,
        ) && !name.trim().is_empty()
        {
            actions.push(edit(
                Force {
                    name: name.trim().to_string(),
                    ..force.clone()
                },
                "Rename force",
            ));
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if ui.button("Delete").clicked() {
                actions.push(Action::Model(Command::Delete(*id)));
            }
            if ui.button("Export…").clicked() {
                actions.push(Action::ExportDialog(*id));
            }
            if ui.button("Duplicate").clicked() {
                actions.push(Action::Model(Command::Duplicate(*id)));
            }
        });
    });
    ui.separator();

    if let Some(budget) = budget_editor(ui, force) {
        actions.push(edit(
            Force {
                budget,
                ..force.clone()
            },
            "Change budget",
        ));
    }
    budget_bar(ui, &validation.budget);
    ui.add_space(4.0);

    for change in card_changes {
        ui.colored_label(Color32::from_rgb(200, 140, 0), format!("⚠ {change}"));
    }
    // Legal, but worth saying (a battle group short of its briefing): said beside the verdict,
    // never counted as a problem.
    for warning in &validation.warnings {
        ui.colored_label(ui.visuals().warn_fg_color, format!("! {warning}"));
    }
    if !validation.violations.is_empty() {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.label(
                RichText::new("Problems")
                    .strong()
                    .color(ui.visuals().error_fg_color),
            );
            for violation in &validation.violations {
                ui.horizontal_wrapped(|ui| {
                    ui.colored_label(
                        ui.visuals().error_fg_color,
                        format!("✗ {}", violation.message),
                    );
                    if let Some(fix) = &violation.fix
                        && ui
                            .small_button("Fix")
                            .on_hover_text("Apply the suggested fix")
                            .clicked()
                    {
                        actions.push(Action::Model(Command::ApplyFix(fix.clone())));
                    }
                });
            }
        });
    } else {
        ui.label(RichText::new("✓ Legal").color(Color32::from_rgb(40, 150, 60)));
    }
    ui.add_space(6.0);

    units_table(model, force, state, ui, actions);
    ui.add_space(6.0);
    ui.label("Notes");
    if let Some(notes) = widgets::committed_multiline(
        ui,
        &mut state.drafts,
        &format!("notes{}", id.0),
        &force.notes,
        "notes: house rules, opponents, results…",
    ) {
        actions.push(edit(
            Force {
                notes,
                ..force.clone()
            },
            "Edit notes",
        ));
    }
}

/// The budget's own field: points, tier points, battle group or scenario.
fn budget_editor(ui: &mut egui::Ui, force: &Force) -> Option<Budget> {
    let mut changed = None;
    ui.horizontal(|ui| {
        let name = ui.label("Budget");
        match &force.budget {
            Budget::Points(points) => {
                let mut value = *points;
                if ui
                    .add(
                        egui::DragValue::new(&mut value)
                            .range(0..=100_000)
                            .suffix(" points"),
                    )
                    .labelled_by(name.id)
                    .changed()
                {
                    changed = Some(Budget::Points(value));
                }
            }
            Budget::TierPoints(points) => {
                let mut value = *points;
                if ui
                    .add(
                        egui::DragValue::new(&mut value)
                            .range(0..=1000)
                            .suffix(" tier points"),
                    )
                    .labelled_by(name.id)
                    .changed()
                {
                    changed = Some(Budget::TierPoints(value));
                }
            }
            named @ (Budget::BattleGroup(_) | Budget::Scenario(_)) => {
                changed = named_budget(ui, "battle_group", force.ruleset, named, name.id);
            }
        }
    });
    changed
}

/// Used against the limit, red when over.
fn budget_bar(ui: &mut egui::Ui, budget: &BudgetReport) {
    let Some(limit) = budget.limit else {
        ui.label(format!("{} {} used", budget.used, budget.unit));
        return;
    };
    let fraction = if limit == 0 {
        1.0
    } else {
        budget.used as f32 / limit as f32
    };
    let over = budget.is_over() || budget.min.is_some_and(|min| budget.used < min);
    let range = match budget.min {
        Some(min) => format!("{min}–{limit}"),
        None => limit.to_string(),
    };
    let text = format!("{} / {range} {}", budget.used, budget.unit);
    let mut bar = egui::ProgressBar::new(fraction.min(1.0))
        .text(text)
        .desired_width(360.0);
    if over {
        bar = bar.fill(Color32::from_rgb(190, 40, 40));
    }
    ui.add(bar);
}

fn units_table(
    model: &Model,
    force: &Force,
    state: &mut ForcesState,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    let _ = model;
    let ruleset = rules::ruleset(force.ruleset);
    let line_field = ruleset.line_field();
    let extra = line_field.map(|field| field.label);
    let cards = rules::validation::resolve_cards(force);
    egui::Grid::new("units")
        .striped(true)
        .num_columns(7)
        .show(ui, |ui| {
            ui.strong("Unit");
            ui.strong("Count");
            ui.strong("Group");
            ui.strong(extra.unwrap_or(""));
            ui.strong("Cost");
            ui.strong("");
            ui.end_row();
            for (index, (unit, card)) in force.units.iter().zip(&cards).enumerate() {
                let selected = state.selected_unit == Some(index);
                let mut name = unit.card.name().to_string();
                if matches!(unit.card, CardRef::Inline(_)) {
                    name.push_str(" (custom)");
                }
                let label = ui.selectable_label(selected, name);
                let label = match card {
                    Some(card) => label.on_hover_text(stat_summary(card)),
                    None => label.on_hover_text("Unknown card"),
                };
                if label.clicked() {
                    state.selected_unit = Some(index);
                }
                let mut count = unit.count;
                if ui
                    .add(egui::DragValue::new(&mut count).range(1..=999))
                    .labelled_by(label.id)
                    .changed()
                {
                    let mut edited = force.clone();
                    edited.units[index].count = count;
                    actions.push(Action::Model(Command::Edit {
                        force: edited,
                        label: format!("Count of {}", unit.card.name()),
                    }));
                }
                let group = unit.group.clone().unwrap_or_default();
                if let Some(group) = widgets::committed_text(
                    ui,
                    &mut state.drafts,
                    &format!("group{index}"),
                    &group,
                    "group",
                    140.0,
                ) {
                    let mut edited = force.clone();
                    edited.units[index].group =
                        Some(group.trim().to_string()).filter(|g| !g.is_empty());
                    actions.push(Action::Model(Command::Edit {
                        force: edited,
                        label: "Change group".into(),
                    }));
                }
                match line_field {
                    Some(field) => {
                        // Unset, the line counts what its card says (or the least allowed).
                        let default = card
                            .and_then(|c| ruleset.unit_cost(c))
                            .map_or(field.min, |c| u32::try_from(c.amount).unwrap_or(field.max));
                        let mut value = field.get(unit).unwrap_or(default);
                        if ui
                            .add(egui::DragValue::new(&mut value).range(field.min..=field.max))
                            .labelled_by(label.id)
                            .changed()
                        {
                            let mut edited = force.clone();
                            field.set(&mut edited.units[index], value);
                            actions.push(Action::Model(Command::Edit {
                                force: edited,
                                label: format!("Set {}", field.unit),
                            }));
                        }
                    }
                    None => {
                        ui.label("");
                    }
                }
                ui.label(line_cost_words(unit, *card));
                if ui
                    .small_button("✕")
                    .on_hover_text("Remove (Delete)")
                    .clicked()
                {
                    actions.push(remove_unit(force, index));
                }
                ui.end_row();
            }
        });
    if force.units.is_empty() {
        ui.label("No units yet: add some below.");
    }
}

/// The action removing unit line `index`.
pub fn remove_unit(force: &Force, index: usize) -> Action {
    let mut edited = force.clone();
    let name = edited
        .units
        .get(index)
        .map(|u| u.card.name().to_string())
        .unwrap_or_default();
    if index < edited.units.len() {
        edited.units.remove(index);
    }
    Action::Model(Command::Edit {
        force: edited,
        label: format!("Remove {name}"),
    })
}

fn stat_summary(card: &Card) -> String {
    card.stats()
        .iter()
        .map(|s| format!("{}: {}", s.label, s.value))
        .collect::<Vec<_>>()
        .join("\n")
}

/// What a unit line costs against the budget, in words ("34 points", "2 × 6 tier points").
fn line_cost_words(unit: &rules::ForceUnit, card: Option<&Card>) -> String {
    match card.and_then(|card| line_cost(card, unit)) {
        None => String::new(),
        Some(each) if unit.count == 1 => each.to_string(),
        Some(each) => format!(
            "{} × {} = {}",
            unit.count,
            each.amount,
            rules::UnitCost {
                amount: each.amount * u64::from(unit.count),
                unit: each.unit
            }
        ),
    }
}

fn add_unit(
    model: &Model,
    force: &Force,
    state: &mut ForcesState,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    let heading = ui.heading("Add units");
    let search = ui
        .add(
            egui::TextEdit::singleline(&mut state.add_search)
                .hint_text("search the library (Enter adds a single match)")
                .desired_width(f32::INFINITY),
        )
        .labelled_by(heading.id);
    let matches = add_matches(model, force.ruleset, &state.add_search, ui.ctx());
    let enter = search.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
    if enter
        && let [only] = matches.as_slice()
        && let Some(entry) = model.card_entry_at(*only)
    {
        actions.push(add_one(model, force, &entry));
        // Keep typing: the next search starts where this one ended.
        search.request_focus();
    }
    ui.label(
        RichText::new(match matches.len() {
            0 => "No card matches".to_string(),
            1 => "1 card".to_string(),
            n => format!("{n} cards"),
        })
        .weak(),
    );
    // One button per row at a fixed height: only the rows in view are laid out, so a library
    // of 100,000 custom cards costs what twenty do, and no button moves as units are added.
    let row_height = ui.spacing().interact_size.y;
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show_rows(ui, row_height, matches.len(), |ui, rows| {
            for &index in &matches[rows] {
                let Some(entry) = model.card_entry_at(index) else {
                    continue;
                };
                let label = match entry.cost() {
                    Some(cost) => format!("+ {} · {cost}", entry.label()),
                    None => format!("+ {}", entry.label()),
                };
                let button =
                    egui::Button::new(label).min_size(egui::vec2(ui.available_width(), row_height));
                if ui
                    .add(button)
                    .on_hover_text(stat_summary(entry.card))
                    .clicked()
                {
                    actions.push(add_one(model, force, &entry));
                }
            }
        });
}

/// The cards of `ruleset` matching `search`, as positions in the model's card list; searched
/// again only when the text or the cards change.
fn add_matches(
    model: &Model,
    ruleset: RulesetId,
    search: &str,
    ctx: &egui::Context,
) -> std::sync::Arc<Vec<usize>> {
    type Cached = ((u64, RulesetId, String), std::sync::Arc<Vec<usize>>);
    let key = (
        model.cards_revision(),
        ruleset,
        search.trim().to_lowercase(),
    );
    let id = egui::Id::unique("add_unit_matches");
    if let Some((cached, matches)) = ctx.data(|d| d.get_temp::<Cached>(id))
        && cached == key
    {
        return matches;
    }
    let matches = std::sync::Arc::new(model.search_cards(Some(ruleset), &key.2));
    ctx.data_mut(|d| d.insert_temp::<Cached>(id, (key, matches.clone())));
    matches
}

/// Adds one unit of `entry` to the force: to its ungrouped line if there is one.
fn add_one(model: &Model, force: &Force, entry: &CardEntry<'_>) -> Action {
    let mut edited = force.clone();
    let unit = model.unit_for(entry);
    match edited
        .units
        .iter_mut()
        .find(|u| u.card == unit.card && u.group.is_none())
    {
        Some(existing) => existing.count = (existing.count + 1).min(999),
        None => edited.units.push(unit),
    }
    Action::Model(Command::Edit {
        force: edited,
        label: format!("Add {}", entry.card.name()),
    })
}

fn new_force_dialog(state: &mut ForcesState, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
    let Some(draft) = &mut state.new_force else {
        return;
    };
    let mut open = true;
    let mut cancel = false;
    let mut create = false;
    let mut briefing = None;
    egui::Window::new("New force")
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .show(ui.ctx(), |ui| {
            egui::Grid::new("new_force").num_columns(2).show(ui, |ui| {
                let name = ui.label("Ruleset");
                let mut ruleset = draft.ruleset;
                egui::ComboBox::from_id_salt("new_ruleset")
                    .selected_text(ruleset.title())
                    .show_ui(ui, |ui| {
                        for id in RulesetId::ALL {
                            ui.selectable_value(&mut ruleset, id, id.title());
                        }
                    })
                    .response
                    .labelled_by(name.id);
                draft.set_ruleset(ruleset);
                ui.end_row();
                let name_label = ui.label("Name");
                let name_field = ui
                    .add(egui::TextEdit::singleline(&mut draft.name).hint_text("force name"))
                    .labelled_by(name_label.id);
                if name_field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    create = true;
                }
                ui.end_row();
                let budget_label = ui.label("Budget");
                budget_field(ui, draft.ruleset, &mut draft.budget, budget_label.id);
                ui.end_row();
            });
            ui.horizontal(|ui| {
                if ui.button("Create").on_hover_text("Enter").clicked() {
                    create = true;
                }
                if ui.button("Cancel").on_hover_text("Escape").clicked() {
                    cancel = true;
                }
            });
            for ruleset in rules::all_rulesets() {
                let presets = ruleset.preset_forces();
                let Some(first) = presets.first() else {
                    continue;
                };
                ui.separator();
                ui.label(format!(
                    "From briefing ({}, {}):",
                    ruleset.title(),
                    first.collection
                ));
                ui.horizontal_wrapped(|ui| {
                    for preset in &presets {
                        if ui
                            .button(&preset.title)
                            .on_hover_text(&preset.help)
                            .clicked()
                        {
                            briefing = Some(preset.id.clone());
                        }
                    }
                });
            }
        });
    if cancel || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
        open = false;
    }
    if create {
        actions.push(Action::Model(Command::NewForce {
            ruleset: draft.ruleset,
            name: if draft.name.trim().is_empty() {
                format!("New {} force", draft.ruleset.title())
            } else {
                draft.name.clone()
            },
            budget: draft.budget.clone(),
        }));
        state.new_force = None;
    } else if let Some(id) = briefing {
        actions.push(Action::Model(Command::NewFromBriefing(id)));
        state.new_force = None;
    } else if !open {
        state.new_force = None;
    }
}

/// The new force's budget, edited in place: an amount, a battle group or the scenario.
fn budget_field(ui: &mut egui::Ui, ruleset: RulesetId, budget: &mut Budget, label: egui::Id) {
    match budget {
        Budget::Points(points) => {
            ui.add(
                egui::DragValue::new(points)
                    .range(0..=100_000)
                    .suffix(" points"),
            )
            .labelled_by(label);
        }
        Budget::TierPoints(points) => {
            ui.add(
                egui::DragValue::new(points)
                    .range(0..=1000)
                    .suffix(" tier points"),
            )
            .labelled_by(label);
        }
        Budget::BattleGroup(_) | Budget::Scenario(_) => {
            if let Some(chosen) = named_budget(ui, "new_group", ruleset, budget, label) {
                *budget = chosen;
            }
        }
    }
}

/// A combo box of the budgets the ruleset names (battle groups, scenarios), each with what
/// it asks as its tooltip; the one chosen, when the user picks another.
fn named_budget(
    ui: &mut egui::Ui,
    salt: &str,
    ruleset: RulesetId,
    current: &Budget,
    label: egui::Id,
) -> Option<Budget> {
    let named = rules::ruleset(ruleset).named_budgets();
    let shown = named.iter().find(|n| &n.budget == current).map_or_else(
        || current.id().unwrap_or_default().to_string(),
        |n| n.title.clone(),
    );
    let mut picked = None;
    egui::ComboBox::from_id_salt(salt)
        .selected_text(shown)
        .show_ui(ui, |ui| {
            for n in &named {
                if ui
                    .selectable_label(&n.budget == current, &n.title)
                    .on_hover_text(&n.detail)
                    .clicked()
                {
                    picked = Some(n.budget.clone());
                }
            }
        })
        .response
        .labelled_by(label);
    picked
}
