//! The Forces view: saved forces on the left, the open force's editor in the middle.
//!
//! Every edit is sent as a whole edited force to the model, which saves it at once and records
//! it for undo. Text fields commit when they lose focus or Enter is pressed, so one rename is one
//! undo step rather than one per keystroke.

use std::collections::HashMap;

use egui::RichText;

use crate::rules::force_text::{self, TextStyle};
use crate::rules::validation::BudgetReport;
use crate::rules::{self, Budget, Card, Force, RulesetId};
use crate::store::ForceId;

use super::action::Action;
use super::model::{CardEntry, Command, Model, OpenForce};
use super::theme::{self, Gap, Status, icons};
use super::widgets;

/// Drafts, dialogs and selection of the Forces view.
#[derive(Debug, Default)]
pub struct ForcesState {
    pub add_search: String,
    pub new_force: Option<NewForceDraft>,
    pub selected_unit: Option<usize>,
    /// Text being typed into a field, keyed by the field's id, until it is committed.
    pub drafts: HashMap<String, String>,
    /// The "Paste list" dialog's text, while it is open.
    pub paste: Option<PasteDraft>,
    /// A force to delete that campaigns were set up from, and their names: asked first.
    pub confirm_delete: Option<(ForceId, Vec<String>)>,
    /// When a unit line was last removed (egui time): the remove buttons rest for a moment
    /// after, so a double-click never removes the line that moved up under the pointer.
    pub removed_at: Option<f64>,
    /// The unit line from army data whose options are shown under the table.
    pub options_for: Option<usize>,
}

/// The "Paste list" dialog: what was pasted and how it reads, checked again when it changes.
#[derive(Debug, Clone, PartialEq)]
pub struct PasteDraft {
    pub text: String,
    /// The text the verdict below belongs to.
    pub checked: Option<String>,
    /// "Kampfgruppe Peiper — BelloLudi Tanks!, 3 units", or every line that cannot be placed.
    pub verdict: Result<String, Vec<String>>,
    /// The text field has been given the keyboard once.
    pub focused: bool,
}

impl Default for PasteDraft {
    fn default() -> Self {
        Self {
            text: String::new(),
            checked: None,
            verdict: Err(Vec::new()),
            focused: false,
        }
    }
}

/// The "New force" dialog's fields.
#[derive(Debug, Clone, PartialEq)]
pub struct NewForceDraft {
    pub ruleset: RulesetId,
    pub name: String,
    /// Starts as the ruleset's own default budget and follows a change of ruleset.
    pub budget: Budget,
    /// The Name field has been given the keyboard once (it is, when the dialog opens).
    pub focused: bool,
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
            focused: false,
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
                ui.vertical_centered(|ui| {
                    let next = if model.forces.is_empty() {
                        "Start one with New force (Ctrl+N), or read a force file or a posted list."
                    } else {
                        "Pick a force on the left, or start a new one (Ctrl+N)."
                    };
                    theme::empty_state(ui, icons::FORCE, "No force open", next);
                    if ui.add(theme::primary(ui, "New force…")).clicked() {
                        state.new_force = Some(NewForceDraft::default());
                    }
                });
            }
        });
        if state.new_force.is_some() {
            new_force_dialog(state, ui, &mut actions);
        }
        if state.paste.is_some() {
            paste_dialog(model, state, ui, &mut actions);
        }
        if state.confirm_delete.is_some() {
            confirm_delete_dialog(model, state, ui, &mut actions);
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
        if ui
            .button("Paste list")
            .on_hover_text(
                "A list posted as text (in a chat, on a forum): paste it to make a force",
            )
            .clicked()
        {
            state.paste = Some(PasteDraft::default());
        }
    });
    ui.separator();
    if model.forces.is_empty() {
        ui.weak("No forces yet: New force starts one.");
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
                        actions.push(Action::AskDeleteForce(summary.id));
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
        card_changes: _,
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
    });
    // The force's buttons on a line of their own: beside the name they covered it at 1024×700.
    // Delete stands apart at the end, away from the buttons used often.
    ui.horizontal_wrapped(|ui| {
        if ui.button("Duplicate").clicked() {
            actions.push(Action::Model(Command::Duplicate(*id)));
        }
        if ui.button("Export…").clicked() {
            actions.push(Action::ExportDialog(*id));
        }
        for (label, style, hover) in [
            (
                "Copy as text",
                TextStyle::Plain,
                "The list, its budget check and each unit's cost, for a chat message; Paste list reads it back",
            ),
            (
                "Copy as Markdown",
                TextStyle::Markdown,
                "The same list for a forum or a chat that formats Markdown",
            ),
        ] {
            if ui.button(label).on_hover_text(hover).clicked() {
                ui.ctx()
                    .copy_text(force_text::to_text(force, validation, style));
                actions.push(Action::Notice(format!(
                    "Copied {} as {}: paste it into a message",
                    force.name,
                    if style == TextStyle::Plain {
                        "text"
                    } else {
                        "Markdown"
                    }
                )));
            }
        }
        ui.add_space(24.0);
        let delete = RichText::new("Delete").color(theme::tokens(ui).danger());
        if ui.button(delete).clicked() {
            actions.push(Action::AskDeleteForce(*id));
        }
    });
    ui.separator();

    if let Some(budget) = budget_editor(ui, force, &model.army_orgs) {
        actions.push(edit(
            Force {
                budget,
                ..force.clone()
            },
            "Change budget",
        ));
    }
    budget_bar(ui, &validation.budget);
    ui.add_space(theme::tokens(ui).gap(Gap::S));
    // One line whatever the problems: the table below never moves when the last problem is
    // mended by the digit being typed (it used to jump and drop the keyboard).
    verdict(validation, ui);
    ui.add_space(theme::tokens(ui).gap(Gap::M));

    units_table(model, force, state, ui, actions);
    ui.add_space(6.0);
    problems(open, ui, actions);
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

/// Legal or not, in one line of a fixed height: a green pill when legal, else how many problems
/// there are and where they are listed.
fn verdict(validation: &rules::validation::Validation, ui: &mut egui::Ui) {
    let problems = validation.violations.len();
    if problems == 0 {
        theme::pill(ui, Status::Ok, format!("{} Legal", icons::OK));
    } else {
        theme::pill(
            ui,
            Status::Danger,
            format!(
                "{} Not legal: {} (listed under the units)",
                icons::DANGER,
                crate::rules::words::amount(problems as u64, "problems")
            ),
        );
    }
}

/// The problems in a red frame with their fixes, cards changed since saving and a short battle
/// group as warnings: under the units table, so their coming and going moves nothing a player
/// is editing.
fn problems(open: &OpenForce, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
    let t = theme::tokens(ui);
    for change in &open.card_changes {
        ui.colored_label(t.warning(), format!("{} {change}", icons::WARNING));
    }
    // Legal, but worth saying (a battle group short of its briefing): never counted as a
    // problem.
    for warning in &open.validation.warnings {
        ui.colored_label(t.warning(), format!("{} {warning}", icons::WARNING));
    }
    let violations = &open.validation.violations;
    if violations.is_empty() {
        return;
    }
    let danger = t.status(Status::Danger);
    egui::Frame::new()
        .fill(danger.fill)
        .stroke(egui::Stroke::new(1.0, danger.bar))
        .corner_radius(6)
        .inner_margin(t.gap(Gap::M))
        .show(ui, |ui| {
            ui.label(
                RichText::new(format!("{} Problems ({})", icons::DANGER, violations.len()))
                    .strong()
                    .color(danger.text),
            );
            for violation in violations {
                ui.horizontal_wrapped(|ui| {
                    ui.colored_label(danger.text, format!("• {}", violation.message));
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
}

/// The budget's own field: points, tier points, battle group or scenario; and, where army data
/// gives the ruleset force organisations, which one (or a points limit alone).
fn budget_editor(
    ui: &mut egui::Ui,
    force: &Force,
    orgs: &[rules::army_data::ForceOrg],
) -> Option<Budget> {
    let mut changed = None;
    let ruleset = rules::ruleset(force.ruleset);
    let orgs: Vec<&rules::army_data::ForceOrg> = orgs
        .iter()
        .filter(|o| ruleset.reads_game_system(&o.source.name))
        .collect();
    if let (false, Some(points)) = (orgs.is_empty(), force.budget.points()) {
        ui.horizontal(|ui| {
            let label = ui.label("Organisation");
            let current = match &force.budget {
                Budget::ForceOrg(org) => org.name.clone(),
                _ => NO_ORGANISATION.to_string(),
            };
            egui::ComboBox::from_id_salt("force_org")
                .selected_text(&current)
                .show_ui(ui, |ui| {
                    if ui
                        .selectable_label(current == NO_ORGANISATION, NO_ORGANISATION)
                        .clicked()
                        && current != NO_ORGANISATION
                    {
                        changed = Some(Budget::Points(points));
                    }
                    for org in &orgs {
                        if ui
                            .selectable_label(current == org.name, &org.name)
                            .on_hover_text(format!("{}: {}", org.source.label(), org.slot_words()))
                            .clicked()
                            && current != org.name
                        {
                            changed = Some(Budget::ForceOrg(Box::new(org.with_points(points))));
                        }
                    }
                })
                .response
                .labelled_by(label.id);
        });
    }
    let edited = ui
        .horizontal(|ui| {
            let name = ui.label("Budget");
            match &force.budget {
                Budget::Points(points) => {
                    amount_field(ui, *points, 100_000, " points", name.id).map(Budget::Points)
                }
                Budget::TierPoints(points) => {
                    amount_field(ui, *points, 1000, " tier points", name.id).map(Budget::TierPoints)
                }
                named @ (Budget::BattleGroup(_) | Budget::Scenario(_)) => {
                    named_budget(ui, "battle_group", force.ruleset, named, name.id)
                }
                Budget::ForceOrg(org) => {
                    ui.label(&org.name).on_hover_text(org.slot_words());
                    amount_field(ui, org.points, 100_000, " points", name.id)
                        .map(|points| Budget::ForceOrg(Box::new(org.with_points(points))))
                }
            }
        })
        .inner;
    // An organisation chosen above this frame is kept.
    changed.or(edited)
}

/// A budget's amount, dragged or typed; the new amount when it changed.
fn amount_field(
    ui: &mut egui::Ui,
    amount: u32,
    max: u32,
    suffix: &str,
    label: egui::Id,
) -> Option<u32> {
    let mut value = amount;
    ui.add(
        egui::DragValue::new(&mut value)
            .range(0..=max)
            .suffix(suffix)
            // A typed amount counts once it is whole (Enter or leaving the field), as a price does.
            .update_while_editing(false),
    )
    .labelled_by(label)
    .changed()
    .then_some(value)
}

/// The organisation choice that keeps a points limit alone.
const NO_ORGANISATION: &str = "Points limit only";

/// Used against the limit: green within it, amber short of a minimum, red when over.
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
    let status = if budget.is_over() {
        Status::Danger
    } else if budget.min.is_some_and(|min| budget.used < min) {
        Status::Warning
    } else {
        Status::Ok
    };
    let range = match budget.min {
        Some(min) => format!("{min}–{limit}"),
        None => limit.to_string(),
    };
    let t = theme::tokens(ui);
    theme::meter(
        ui,
        theme::Meter {
            label: "Budget used",
            value: format!("{} / {range} {}", budget.used, budget.unit),
            fraction,
            status,
            // Never wider than the column: in table mode a narrow window keeps the figure.
            width: (360.0 * t.scale).min(ui.available_width()),
        },
    );
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
    let extra = ruleset.line_field().map(|field| field.column);
    let cards = rules::validation::resolve_cards(force);
    let now = ui.input(|i| i.time);
    // Longer than a double-click: the second click of one lands on a resting button.
    let resting = state
        .removed_at
        .is_some_and(|at| now - at < REMOVE_REST_SECONDS);
    if resting {
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_secs_f64(REMOVE_REST_SECONDS));
    }
    // A narrow window (1024×700) shortens the group field, still wide enough for a company's
    // name, so more of the cost shows.
    let group_width = if ui.available_width() > 700.0 {
        140.0
    } else {
        120.0
    };
    // The remove buttons come first so a narrow window never hides them; the rest of a wide
    // line scrolls sideways.
    egui::ScrollArea::horizontal()
        .id_salt("units_scroll")
        .show(ui, |ui| {
            egui::Grid::new("units")
                .striped(true)
                .num_columns(7)
                .show(ui, |ui| {
                    ui.strong("");
                    ui.strong("Unit");
                    ui.strong("Count");
                    ui.strong("Group");
                    ui.strong(extra.unwrap_or(""));
                    ui.strong("Cost");
                    ui.end_row();
                    for (index, (unit, card)) in force.units.iter().zip(&cards).enumerate() {
                        let remove = ui
                            .add_enabled(!resting, egui::Button::new("✕").small())
                            .on_hover_text(format!("Remove {} (Delete)", unit.card.label()));
                        if remove.clicked() {
                            actions.push(remove_unit(force, index));
                            state.removed_at = Some(now);
                        }
                        let row = UnitRow {
                            ruleset,
                            force,
                            index,
                            group_width,
                        };
                        unit_row(row, (unit, *card), state, ui, actions);
                        ui.end_row();
                    }
                });
        });
    if force.units.is_empty() {
        ui.label("No units yet: add some on the right.");
    }
    if let Some(index) = state.options_for {
        match force.units.get(index) {
            Some(rules::ForceUnit {
                card: rules::CardRef::Inline(card),
                ..
            }) if card.army().is_some() => options_panel(force, index, card, ui, actions),
            _ => state.options_for = None,
        }
    }
}

/// The quality and options of a unit from army data, each change one undoable edit.
fn options_panel(
    force: &Force,
    index: usize,
    card: &Card,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    let Some(army) = card.army() else {
        return;
    };
    let changed = |entry: rules::army_data::ArmyEntry, what: String| {
        let mut edited = force.clone();
        if let rules::CardRef::Inline(card) = &mut edited.units[index].card {
            card.data_mut().apply_army(entry);
        }
        Action::Model(Command::Edit {
            force: edited,
            label: what,
        })
    };
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.strong(format!("{} — options", card.name()));
            ui.weak(format!(
                "priced by {} · {} pts",
                army.source.label(),
                army.price()
            ));
        });
        if !army.variants.is_empty() {
            ui.horizontal(|ui| {
                let label = ui.label("Quality");
                let current = army.variant.clone().unwrap_or_default();
                egui::ComboBox::from_id_salt(("army_variant", index))
                    .selected_text(&current)
                    .show_ui(ui, |ui| {
                        for variant in &army.variants {
                            let text =
                                format!("{} ({} pts)", variant.name, army.cost + variant.cost);
                            if ui.selectable_label(variant.name == current, text).clicked()
                                && variant.name != current
                            {
                                let mut entry = army.clone();
                                if entry.set_variant(&variant.name).is_ok() {
                                    actions.push(changed(
                                        entry,
                                        format!("{}: {}", card.name(), variant.name),
                                    ));
                                }
                            }
                        }
                    })
                    .response
                    .labelled_by(label.id);
            });
        }
        egui::Grid::new(("army_options", index))
            .num_columns(3)
            .show(ui, |ui| {
                for option in army.offered() {
                    let taken = army.count_of(&option.key);
                    let label = ui.label(match &option.group {
                        Some(group) => format!("{} ({group})", option.name),
                        None => option.name.clone(),
                    });
                    let mut count = taken;
                    let response = if option.max <= 1 {
                        let mut on = taken > 0;
                        let response = ui.checkbox(&mut on, "").labelled_by(label.id);
                        count = u32::from(on);
                        response
                    } else {
                        ui.add(egui::DragValue::new(&mut count).range(0..=option.max))
                            .labelled_by(label.id)
                    };
                    if response.changed() && count != taken {
                        let mut entry = army.clone();
                        entry.set_option(&option.key, count);
                        actions.push(changed(
                            entry,
                            format!("{}: {} × {}", card.name(), count, option.name),
                        ));
                    }
                    ui.weak(format!("+{} pts each", option.cost));
                    ui.end_row();
                }
            });
        if army.offered().next().is_none() {
            ui.weak("The data offers this unit no options.");
        }
    });
}

/// How long the remove buttons rest after a removal, in seconds.
const REMOVE_REST_SECONDS: f64 = 0.6;

/// Where one unit line of the table sits: its force, its index and the group field's width.
struct UnitRow<'a> {
    ruleset: &'a dyn rules::Ruleset,
    force: &'a Force,
    index: usize,
    group_width: f32,
}

/// One unit line after its remove button: name, count, group, points or stands, cost.
fn unit_row(
    row: UnitRow<'_>,
    (unit, card): (&rules::ForceUnit, Option<&Card>),
    state: &mut ForcesState,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    let UnitRow {
        ruleset,
        force,
        index,
        group_width,
    } = row;
    let selected = state.selected_unit == Some(index);
    let label = ui.selectable_label(selected, unit.card.label());
    let label = match card {
        Some(card) => label.on_hover_text(stat_summary(card)),
        None => label.on_hover_text("Unknown card"),
    };
    if label.clicked() {
        state.selected_unit = Some(index);
    }
    let edited = |change: &dyn Fn(&mut rules::ForceUnit), what: String| {
        let mut edited = force.clone();
        change(&mut edited.units[index]);
        Action::Model(Command::Edit {
            force: edited,
            label: what,
        })
    };
    let mut count = unit.count;
    if widgets::steady(ui, ("line_count", index), |ui| {
        ui.add(
            egui::DragValue::new(&mut count)
                .range(1..=999)
                .update_while_editing(false),
        )
    })
    .labelled_by(label.id)
    .changed()
    {
        actions.push(edited(
            &|u| u.count = count,
            format!("Count of {}", unit.card.label()),
        ));
    }
    let group = unit.group.clone().unwrap_or_default();
    if let Some(group) = widgets::committed_text(
        ui,
        &mut state.drafts,
        &format!("group{index}"),
        &group,
        "group",
        group_width,
    ) {
        let group = Some(group.trim().to_string()).filter(|g| !g.is_empty());
        actions.push(edited(&|u| u.group = group.clone(), "Change group".into()));
    }
    // A unit from army data is priced by its data: its options, not a typed number.
    if let Some(army) = card.and_then(|c| c.army()) {
        let open = state.options_for == Some(index);
        if ui
            .selectable_label(open, format!("Options · {} pts", army.price()))
            .on_hover_text(format!(
                "Priced by {}: {}. Click to choose its quality and options.",
                army.source.label(),
                if army.words().is_empty() {
                    "no options taken".to_string()
                } else {
                    army.words()
                }
            ))
            .clicked()
        {
            state.options_for = if open { None } else { Some(index) };
        }
        ui.label(force_text::line_cost(ruleset, unit, card));
        return;
    }
    // Where the card gives no default, a line whose number is not set is a problem and must
    // not look like one set to 0.
    let field = ruleset.line_field();
    let unset = field.is_some_and(|field| {
        field.get(unit).is_none() && card.and_then(|c| ruleset.unit_cost(c)).is_none()
    });
    match field {
        Some(field) => {
            // Unset, the line counts what its card says (or the least allowed).
            let default = card
                .and_then(|c| ruleset.unit_cost(c))
                .map_or(field.min, |c| u32::try_from(c.amount).unwrap_or(field.max));
            let mut value = field.get(unit).unwrap_or(default);
            // Kept while typed, stored on Enter or when the field is left: "65" is one edit
            // (one undo step), never a 6 stored on its first digit.
            let drag = egui::DragValue::new(&mut value)
                .range(field.min..=field.max)
                .update_while_editing(false);
            let drag = if unset {
                drag.custom_formatter(|_, _| "not set".to_string())
            } else {
                drag.suffix(field.suffix)
            };
            let mut response =
                widgets::steady(ui, ("line_value", index), |ui| ui.add(drag)).labelled_by(label.id);
            let help = if unset { field.unset_help } else { field.help };
            if !help.is_empty() {
                response = response.on_hover_text(help);
            }
            if response.changed() {
                actions.push(edited(
                    &|u| field.set(u, value),
                    format!("Set {}", field.unit),
                ));
            }
        }
        None => {
            ui.label("");
        }
    }
    if unset && let Some(field) = field {
        ui.colored_label(
            theme::tokens(ui).warning(),
            format!("no {} set", field.unit),
        );
    } else {
        ui.label(force_text::line_cost(ruleset, unit, card));
    }
}

/// The action removing unit line `index`.
pub fn remove_unit(force: &Force, index: usize) -> Action {
    let mut edited = force.clone();
    let name = edited
        .units
        .get(index)
        .map(|u| u.card.label())
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
                // One line each, however long the name ("… · Blue Army r1 · 50 points"): the
                // rows are laid out at one fixed height.
                let button = egui::Button::new(label)
                    .wrap_mode(egui::TextWrapMode::Truncate)
                    .min_size(egui::vec2(ui.available_width(), row_height));
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
        label: format!("Add {}", entry.label()),
    })
}

fn new_force_dialog(state: &mut ForcesState, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
    // Read before the drop-downs are drawn: an Escape that closes one keeps the dialog.
    let escape = widgets::escape_closes_dialog(ui.ctx());
    let Some(draft) = &mut state.new_force else {
        return;
    };
    let mut open = true;
    let mut cancel = false;
    let mut create = false;
    let mut briefing = None;
    // A modal: Tab goes round the dialog's own fields, never out to the menu bar behind it.
    let modal = egui::Modal::new(egui::Id::unique("new_force_dialog")).show(ui.ctx(), |ui| {
        ui.heading("New force");
        ui.add_space(4.0);
        {
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
                // The dialog opens ready to type the name.
                if !std::mem::replace(&mut draft.focused, true) {
                    name_field.request_focus();
                }
                // Enter creates from the name field, and from anywhere else in the dialog once a
                // ruleset or budget is picked with the mouse (not while a drop-down is open).
                let enter = ui.input(|i| i.key_pressed(egui::Key::Enter));
                if enter
                    && (name_field.lost_focus()
                        || (!egui::Popup::is_any_open(ui.ctx())
                            && ui
                                .memory(|m| m.focused())
                                .is_none_or(|f| f != name_field.id)))
                {
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
        }
    });
    // A click outside closes it, as the window's ✕ did; not a double click's second click,
    // which lands outside when a drop-down item was picked over the dialog's edge.
    if modal.backdrop_response.clicked() && !widgets::second_click(ui.ctx()) {
        open = false;
    }
    if cancel || escape {
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
    } else if let Some(id) = briefing {
        actions.push(Action::Model(Command::NewFromBriefing(id)));
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
        Budget::ForceOrg(org) => {
            ui.label(&org.name).on_hover_text(org.slot_words());
            ui.add(
                egui::DragValue::new(&mut org.points)
                    .range(0..=100_000)
                    .suffix(" points"),
            )
            .labelled_by(label);
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

/// "Paste list": a pasted text list, read as it is typed, made into a force when it reads.
fn paste_dialog(
    model: &Model,
    state: &mut ForcesState,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    let escape = widgets::escape_closes_dialog(ui.ctx());
    let Some(draft) = &mut state.paste else {
        return;
    };
    // Enter makes a new line in the list, so Ctrl+Enter imports it (taken before the list's
    // field sees it).
    let ctrl_enter = ui.input_mut(|i| {
        i.consume_shortcut(&egui::KeyboardShortcut::new(
            egui::Modifiers::COMMAND,
            egui::Key::Enter,
        ))
    });
    if draft.checked.as_deref() != Some(draft.text.as_str()) {
        draft.verdict = if draft.text.trim().is_empty() {
            Err(Vec::new())
        } else {
            match model.read_list(&draft.text) {
                Ok(parsed) => Ok(format!(
                    "{} — {}, {}",
                    parsed.force.name,
                    parsed.force.ruleset.title(),
                    crate::rules::words::amount(parsed.force.unit_count(), "units")
                )),
                Err(errors) => Err(errors.0.iter().map(ToString::to_string).collect()),
            }
        };
        draft.checked = Some(draft.text.clone());
    }
    let mut open = true;
    let mut import = false;
    let mut cancel = false;
    egui::Window::new("Paste list")
        .open(&mut open)
        .collapsible(false)
        .resizable(true)
        .default_width(520.0)
        .show(ui.ctx(), |ui| {
            ui.label("Paste a list as players post it: the force's name, then the ruleset and budget, then one unit a line (\"2 × Medium Tank\").");
            let label = ui.label("List");
            let field = egui::ScrollArea::vertical()
                .max_height(260.0)
                .show(ui, |ui| {
                    ui.add(
                        egui::TextEdit::multiline(&mut draft.text)
                            .desired_rows(10)
                            .desired_width(f32::INFINITY)
                            .hint_text("Kampfgruppe Peiper\nBelloLudi Tanks! · 100 points\n2 × Medium Tank"),
                    )
                    .labelled_by(label.id)
                })
                .inner;
            if !std::mem::replace(&mut draft.focused, true) {
                field.request_focus();
            }
            match &draft.verdict {
                Ok(reads) => {
                    ui.colored_label(theme::tokens(ui).ok(), format!("Reads as {reads}"));
                }
                Err(errors) => {
                    for error in errors {
                        ui.colored_label(theme::tokens(ui).danger(), format!("✗ {error}"));
                    }
                }
            }
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(draft.verdict.is_ok(), egui::Button::new("Import list"))
                    .on_hover_text("Ctrl+Enter")
                    .clicked()
                {
                    import = true;
                }
                if ui.button("Cancel").on_hover_text("Escape").clicked() {
                    cancel = true;
                }
            });
        });
    if (import || ctrl_enter) && draft.verdict.is_ok() {
        actions.push(Action::Model(Command::ImportList(draft.text.clone())));
        state.paste = None;
    } else if cancel || escape || !open {
        state.paste = None;
    }
}

/// Deleting a force that campaigns were set up from: said first, with a way back.
fn confirm_delete_dialog(
    model: &Model,
    state: &mut ForcesState,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    let escape = widgets::escape_closes_dialog(ui.ctx());
    let Some((id, campaigns)) = &state.confirm_delete else {
        return;
    };
    let name = model
        .forces
        .iter()
        .find(|f| f.id == *id)
        .map_or("this force".to_string(), |f| f.name.clone());
    let mut keep = escape;
    let mut delete = false;
    egui::Modal::new(egui::Id::unique("confirm_delete_force")).show(ui.ctx(), |ui| {
        ui.heading(format!("Delete {name}?"));
        ui.label(format!(
            "{} set up from it: {}. Their battles keep their own copy of its units, but no new battle can be set up from it.",
            if campaigns.len() == 1 { "A campaign was" } else { "Campaigns were" },
            campaigns.join(", ")
        ));
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button("Keep it").clicked() {
                keep = true;
            }
            ui.add_space(40.0);
            if ui
                .button("Delete")
                .on_hover_text("Ctrl+Z brings it back")
                .clicked()
            {
                delete = true;
            }
        });
    });
    if delete {
        actions.push(Action::Model(Command::Delete(*id)));
        state.confirm_delete = None;
    } else if keep {
        state.confirm_delete = None;
    }
}
