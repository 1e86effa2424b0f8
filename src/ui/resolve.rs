//! The Resolve view: exact odds and dice rolls for any mechanic of any ruleset — the app's
//! seeded, replayable roll, or the dice the players rolled at the table, typed in.
//!
//! One view for all of them: the form is drawn from the mechanic's input description
//! (`resolve/form.rs`), the odds and rolls are the mechanic's [`Report`]s drawn alike
//! (`resolve/report.rs`), and the dice entry asks for the pools the mechanic names
//! (`resolve/table.rs`). A mechanic an action of the open campaign battle resolves with is
//! linked to it (`resolve/battle_link.rs`).
//!
//! The forms live in [`ResolveState`]; the odds are computed once per (mechanic, inputs) and
//! kept in one cache. Rolls go through [`Action::Resolve`] so the session dice log is only
//! changed in [`super::App::apply`]. The roll buttons sit first on their row and the seed
//! field has a fixed width, so nothing slides under the pointer between two clicks.

pub(in crate::ui) mod answer;
pub(in crate::ui) mod battle_link;
pub(in crate::ui) mod form;
pub(in crate::ui) mod report;
pub(in crate::ui) mod table;

use std::collections::HashMap;

use egui::RichText;

use crate::rules::resolution::{
    self, DiceSource, InputValue, Inputs, Mechanic, MechanicId, Report, ResolveError, TableDice,
};

use super::action::Action;
use super::model::Model;
use super::theme::{self, icons};

pub use form::Form;

/// What one roll resolves: enough to roll it again, cards included as they were.
#[derive(Debug, Clone, PartialEq)]
pub struct Subject {
    pub mechanic: MechanicId,
    pub inputs: Inputs,
}

/// One roll in the session log: what was asked, every die, and the result.
#[derive(Debug, Clone, PartialEq)]
pub struct RollEntry {
    pub subject: Subject,
    /// The seed, or the faces rolled at the table.
    pub source: DiceSource,
    pub title: String,
    /// (what the dice were for, the faces), in the order rolled.
    pub dice: Vec<(String, Vec<u8>)>,
    pub result: String,
    /// Rolled again from a seed already used (the Replay button, or a seed typed back in):
    /// the dice are an old roll's, so they are never recorded in a battle.
    pub replay: bool,
    pub report: Report,
}

impl RollEntry {
    /// The roll's seed; `None` for dice rolled at the table.
    pub fn seed(&self) -> Option<u64> {
        self.source.seed()
    }

    /// "seed 7", or "rolled at the table".
    fn source_text(&self) -> String {
        match self.seed() {
            Some(seed) => format!("seed {seed}"),
            None => "rolled at the table".to_string(),
        }
    }
}

/// Whose dice a roll uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DiceMode {
    /// The app rolls, from the seed shown.
    #[default]
    App,
    /// The players rolled at the table and type the faces in.
    Table,
}

/// What the Resolve view asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum ResolveAction {
    /// Roll `subject` with `seed` (`None`: a fresh one, so pressing Roll twice never reuses
    /// dice) and put it at the top of the log; the seed field then shows the roll's seed.
    Roll { subject: Subject, seed: Option<u64> },
    /// Resolve `subject` with the faces rolled at the table.
    RollTable { subject: Subject, dice: TableDice },
    /// Roll `subject` again with a logged roll's dice: the same dice, marked as a replay.
    Replay {
        subject: Subject,
        source: DiceSource,
    },
    /// Pick a seed from the system clock.
    NewSeed,
}

/// The odds last computed, for the (mechanic, inputs) they answer.
#[derive(Debug, Clone, PartialEq)]
struct Cached {
    subject: Subject,
    odds: Result<Report, String>,
}

/// The Resolve view's state: the forms, the cached odds and the session dice log.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolveState {
    pub mechanic: MechanicId,
    /// Each mechanic's form, kept while another is shown.
    pub forms: HashMap<MechanicId, Form>,
    /// The seed field: the seed of the roll on screen, or one typed for the next roll.
    pub seed: u64,
    pub dice_mode: DiceMode,
    /// The faces typed for dice rolled at the table.
    pub table: table::TableEntry,
    /// The open campaign battle's units picked for the mechanic on screen.
    pub battle_pick: battle_link::BattlePick,
    /// The latest roll (also at the top of the log).
    pub last: Option<RollEntry>,
    /// Newest first.
    pub log: Vec<RollEntry>,
    /// The last error of a roll, shown under the button while the form is unchanged.
    pub roll_error: Option<String>,
    /// What the form said when `roll_error` was raised: a changed form makes it stale.
    error_for: Option<Subject>,
    cache: Option<Cached>,
}

/// The mechanic a new session opens on: the first ruleset's first (Armour Battles fire).
fn first_mechanic() -> MechanicId {
    crate::rules::registry::all_rulesets()
        .find_map(|r| r.mechanics().first())
        .map_or(
            MechanicId {
                ruleset: crate::rules::RulesetId::ALL[0],
                key: "",
            },
            crate::rules::resolution::Mechanic::id,
        )
}

impl Default for ResolveState {
    /// A new session starts on a fresh seed: a fixed first seed would deal every session's
    /// first roll the same dice.
    fn default() -> Self {
        ResolveState {
            mechanic: first_mechanic(),
            forms: HashMap::new(),
            seed: clock_seed(0),
            dice_mode: DiceMode::App,
            table: table::TableEntry::default(),
            battle_pick: battle_link::BattlePick::default(),
            last: None,
            log: Vec::new(),
            roll_error: None,
            error_for: None,
            cache: None,
        }
    }
}

/// A seed from the system clock, short enough to type; `salt` separates draws within one
/// clock tick.
fn clock_seed(salt: u64) -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    // Fold the 128-bit count so both halves count.
    let folded = (nanos as u64) ^ ((nanos >> 64) as u64);
    folded.wrapping_add(salt.wrapping_mul(0x9E37_79B9_7F4A_7C15)) % 1_000_000_000
}

/// A refusal in words, naming the input by its label as the form shows it.
fn refusal(mechanic: &Mechanic, error: ResolveError) -> String {
    match error {
        ResolveError::Invalid { field, message } => {
            let label = (mechanic.inputs)()
                .into_iter()
                .find(|spec| spec.key == field)
                .map_or(field, |spec| spec.label);
            let mut text = format!("{label}: {message}");
            if let Some(first) = text.get(..1) {
                text.replace_range(..1, &first.to_uppercase());
            }
            text
        }
        other => other.to_string(),
    }
}

/// Resolves `subject`: its odds, or a roll with `dice`. A legal situation with no result is
/// a report saying so.
fn answer(subject: &Subject, dice: Option<DiceSource>) -> Result<Report, String> {
    let mechanic = resolution::find(subject.mechanic).ok_or("No such mechanic.")?;
    mechanic
        .answer(&subject.inputs, dice)
        .map_err(|error| refusal(mechanic, error))
}

/// Rolls `subject` with `source`: the same seed, or the same faces, always give the same
/// result.
pub fn roll_subject(subject: &Subject, source: DiceSource) -> Result<RollEntry, String> {
    let report = answer(subject, Some(source.clone()))?;
    let result = match &report.no_result {
        Some(reason) => reason.clone(),
        None => report.result.join("; "),
    };
    Ok(RollEntry {
        subject: subject.clone(),
        source,
        title: report.title.clone(),
        dice: report
            .dice
            .iter()
            .map(|d| (d.purpose.clone(), d.dice.clone()))
            .collect(),
        result,
        replay: false,
        report,
    })
}

impl ResolveState {
    /// Applies one action.
    pub fn apply(&mut self, action: ResolveAction) {
        match action {
            ResolveAction::Roll { subject, seed } => {
                let seed = seed.unwrap_or_else(|| self.fresh_seed());
                let used = self.seed_used(seed);
                if self.roll(&subject, DiceSource::Seed(seed), used) {
                    // The field shows the seed of the roll on screen: copying it copies the
                    // dice shown.
                    self.seed = seed;
                }
            }
            ResolveAction::RollTable { subject, dice } => {
                self.roll(&subject, DiceSource::Table(dice), false);
            }
            ResolveAction::Replay { subject, source } => {
                let seed = source.seed();
                if self.roll(&subject, source, true)
                    && let Some(seed) = seed
                {
                    self.seed = seed;
                }
            }
            ResolveAction::NewSeed => self.seed = self.fresh_seed(),
        }
    }

    /// The seed the Roll button rolls with: the field's, unless it still shows the roll on
    /// screen (then a fresh one, so two presses never deal the same dice).
    fn next_seed(&self) -> Option<u64> {
        match self.last.as_ref().and_then(RollEntry::seed) {
            Some(shown) if shown == self.seed => None,
            _ => Some(self.seed),
        }
    }

    /// Rolls and logs `subject`; returns whether it rolled.
    fn roll(&mut self, subject: &Subject, source: DiceSource, replay: bool) -> bool {
        match roll_subject(subject, source) {
            Ok(entry) => {
                let entry = RollEntry { replay, ..entry };
                self.roll_error = None;
                self.error_for = None;
                self.last = Some(entry.clone());
                self.log.insert(0, entry);
                true
            }
            Err(error) => {
                self.roll_error = Some(error);
                self.error_for = Some(subject.clone());
                false
            }
        }
    }

    fn seed_used(&self, seed: u64) -> bool {
        self.log.iter().any(|entry| entry.seed() == Some(seed))
    }

    /// A seed from the clock that no roll in the log has used.
    fn fresh_seed(&self) -> u64 {
        (0..)
            .map(clock_seed)
            .find(|&seed| seed != self.seed && !self.seed_used(seed))
            .unwrap_or(0)
    }

    /// The shown mechanic.
    pub fn current(&self) -> &'static Mechanic {
        resolution::find(self.mechanic)
            .or_else(|| resolution::mechanics().next())
            .expect("every build registers mechanics")
    }

    /// The shown mechanic's form, made at its defaults on first use.
    pub fn form_mut(&mut self) -> &mut Form {
        let mechanic = self.current();
        self.forms
            .entry(mechanic.id())
            .or_insert_with(|| Form::new(mechanic))
    }

    /// Sets an input of the shown mechanic (tests, and links from other views).
    pub fn set(&mut self, key: &'static str, value: InputValue) {
        self.form_mut().inputs.set(key, value);
    }

    /// What the Roll button rolls now.
    pub fn subject(&mut self, model: &Model) -> Subject {
        let mechanic = self.mechanic;
        Subject {
            mechanic,
            inputs: self.form_mut().resolved(model),
        }
    }

    /// What is being resolved: linked to a battle, the battle's situation for the picked units
    /// (the same inputs its tracker and its rolls use), else the form as it stands.
    fn linked_subject(
        &mut self,
        model: &Model,
        battle: Option<&battle_link::OpenBattle<'_>>,
    ) -> Subject {
        let mut subject = self.subject(model);
        if let Some(battle) = battle
            && let Some(form) = self.forms.get(&subject.mechanic)
            && let Some(inputs) = battle_link::situation(&self.battle_pick, form, battle)
        {
            subject.inputs = inputs;
        }
        subject
    }

    /// Drops a roll error once the form no longer says what failed: an old "Choose the
    /// target" must not sit under a situation that can be rolled.
    fn forget_stale_error(&mut self, now: &Subject) {
        if self.roll_error.is_some() && self.error_for.as_ref() != Some(now) {
            self.roll_error = None;
            self.error_for = None;
        }
    }

    /// The odds of `subject`, computed once per (mechanic, inputs): a Bolt Action volley or
    /// a large assault is too slow to count again every frame.
    fn odds(&mut self, subject: &Subject) -> &Result<Report, String> {
        if self.cache.as_ref().is_none_or(|c| c.subject != *subject) {
            self.cache = Some(Cached {
                subject: subject.clone(),
                odds: answer(subject, None),
            });
        }
        &self.cache.as_ref().expect("just filled").odds
    }
}

/// Share of the view's width each side column (form, rolls) may take at most.
const SIDE_SHARE: f32 = 0.3;
/// Narrowest a side column gets: a combo box and its label still fit.
const SIDE_MIN: f32 = 180.0;

/// Draws the whole Resolve view.
pub fn ui(state: &mut ResolveState, model: &Model, ui: &mut egui::Ui) -> Vec<Action> {
    let mut actions = Vec::new();
    let battle = battle_link::open_battle(model, state.mechanic);
    // The side columns give way as the window narrows: the odds in the middle keep at least
    // 40 % of the width (720 px wide still shows the odds and their distributions).
    let side_max = (ui.available_width() * SIDE_SHARE).max(SIDE_MIN);
    egui::Panel::left("resolve_form")
        .resizable(true)
        .default_size(330.0_f32.min(side_max))
        .size_range(SIDE_MIN..=side_max)
        .show(ui, |ui| {
            picker(ui, state);
            ui.separator();
            egui::ScrollArea::vertical().show(ui, |ui| {
                let mechanic = state.current();
                if let Some(battle) = &battle {
                    let form = state
                        .forms
                        .entry(mechanic.id())
                        .or_insert_with(|| Form::new(mechanic));
                    battle_link::form(&mut state.battle_pick, form, battle, ui);
                    ui.separator();
                }
                form::form(ui, mechanic, state.form_mut(), model);
            });
        });
    let subject = state.linked_subject(model, battle.as_ref());
    // After the form and before the roll panel, so an edit hides the old error this frame.
    state.forget_stale_error(&subject);
    // Rolls and the log get their own column so the Roll button stays in view however long
    // the odds run.
    egui::Panel::right("resolve_rolls")
        .resizable(true)
        .default_size(380.0_f32.min(side_max))
        .size_range(SIDE_MIN..=side_max)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                actions.extend(roll_panel(state, &subject, battle.as_ref(), model, ui))
            });
        });
    egui::CentralPanel::default().show(ui, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.heading(state.current().title());
            match state.odds(&subject) {
                Ok(odds) => report::show(ui, odds),
                // What is still missing is the next step: said large, in the middle.
                Err(error) => {
                    ui.vertical_centered(|ui| {
                        theme::empty_state(ui, icons::DICE, "Set up the action", error);
                    });
                }
            }
        });
    });
    actions
}

/// The mechanic picker: every mechanic of every ruleset, "Ruleset — mechanic".
fn picker(ui: &mut egui::Ui, state: &mut ResolveState) {
    ui.horizontal(|ui| {
        let label = ui.label("Ruleset");
        egui::ComboBox::from_id_salt(label.id)
            .selected_text(state.current().title())
            .width(220.0)
            // Every mechanic without scrolling, however many there are: only the window's
            // height limits the list.
            .height(f32::INFINITY)
            .show_ui(ui, |ui| {
                for mechanic in resolution::mechanics() {
                    ui.selectable_value(&mut state.mechanic, mechanic.id(), mechanic.title());
                }
            })
            .response
            .labelled_by(label.id);
    });
}

fn entry_ui(ui: &mut egui::Ui, entry: &RollEntry) {
    let replay = if entry.replay { " (replay)" } else { "" };
    ui.label(format!("{} — {}{replay}", entry.title, entry.source_text()));
    for (what, dice) in &entry.dice {
        let faces: Vec<String> = dice.iter().map(u8::to_string).collect();
        ui.label(format!("{what}: {}", faces.join(" ")));
    }
    ui.label(RichText::new(&entry.result).strong());
}

fn roll_panel(
    state: &mut ResolveState,
    subject: &Subject,
    battle: Option<&battle_link::OpenBattle<'_>>,
    model: &Model,
    ui: &mut egui::Ui,
) -> Vec<Action> {
    let mut actions = Vec::new();
    ui.heading("Dice");
    ui.horizontal(|ui| {
        ui.radio_value(&mut state.dice_mode, DiceMode::App, "App roll")
            .on_hover_text("The app rolls the dice from the seed shown: replayable");
        ui.radio_value(&mut state.dice_mode, DiceMode::Table, "Rolled at the table")
            .on_hover_text("Type the faces the players rolled; the result is derived from them");
    });
    match state.dice_mode {
        DiceMode::App => actions.extend(seed_row(state, subject, ui)),
        DiceMode::Table => actions.extend(table::entry(state, subject, ui)),
    }
    // The battle's roll before any result text, so a longer or shorter result never moves it.
    if let Some(battle) = battle {
        let dice = match state.dice_mode {
            DiceMode::App => None,
            DiceMode::Table => Some(state.table.dice_for(state.current(), subject)),
        };
        actions.extend(battle_link::roll_button(
            &mut state.battle_pick,
            battle,
            &subject.inputs,
            dice,
            &model.player,
            ui,
        ));
    }
    if let Some(error) = &state.roll_error {
        ui.colored_label(theme::tokens(ui).danger(), error);
    }
    if let Some(entry) = &state.last {
        egui::Frame::group(ui.style()).show(ui, |ui| entry_ui(ui, entry));
    }
    ui.separator();
    ui.strong(format!("Dice log ({})", state.log.len()));
    for (index, entry) in state.log.iter().enumerate() {
        ui.push_id(index, |ui| {
            ui.horizontal(|ui| {
                if ui
                    .button("Replay")
                    .on_hover_text("Roll the same situation again with these dice")
                    .clicked()
                {
                    actions.push(Action::Resolve(ResolveAction::Replay {
                        subject: entry.subject.clone(),
                        source: entry.source.clone(),
                    }));
                }
                let dice: Vec<String> = entry
                    .dice
                    .iter()
                    .map(|(what, d)| {
                        let faces: Vec<String> = d.iter().map(u8::to_string).collect();
                        format!("{what} {}", faces.join(" "))
                    })
                    .collect();
                // Wrapped, so a long volley cannot widen the panel past the window.
                ui.add(
                    egui::Label::new(format!(
                        "#{} {} — {} — {} — {}",
                        state.log.len() - index,
                        entry.source_text(),
                        entry.title,
                        dice.join(" | "),
                        entry.result
                    ))
                    .wrap(),
                );
            });
        });
    }
    actions
}

/// Width of the seed field: a nine-digit seed fits, and a shorter one moves nothing.
const SEED_WIDTH: f32 = 110.0;

/// The app's roll: Roll and New seed first, so they never move, then the seed field.
fn seed_row(state: &mut ResolveState, subject: &Subject, ui: &mut egui::Ui) -> Vec<Action> {
    let mut actions = Vec::new();
    ui.horizontal(|ui| {
        if ui.button("Roll").clicked() {
            actions.push(Action::Resolve(ResolveAction::Roll {
                subject: subject.clone(),
                seed: state.next_seed(),
            }));
        }
        if ui.button("New seed").clicked() {
            actions.push(Action::Resolve(ResolveAction::NewSeed));
        }
        let label = ui.label("Seed");
        ui.add_sized(
            [SEED_WIDTH, ui.spacing().interact_size.y],
            egui::DragValue::new(&mut state.seed).speed(1.0),
        )
        .labelled_by(label.id)
        .on_hover_text(
            "The seed of the roll shown (copy it to replay those dice). Roll again and a fresh seed is drawn; type a logged seed to replay its dice (a replay is never recorded in a battle).",
        );
    });
    actions
}
