//! The battle tracker for the table, drawn from what the battle's rules say may be done
//! ([`BattleRules::actions`]): every button is an action of that description — enabled when
//! allowed, greyed with the reason when not — and the fire, artillery and rally panels are the
//! mechanics' own forms with the inputs the battle decides filled in and locked. Odds are the
//! mechanic's report for the battle's situation; a roll is the battle's decision
//! ([`CampaignRecord::decide`], with the seed the battle's history gives) and its report. Nothing
//! here decides a rule or changes data: each button emits the event the rules gave.
//!
//! Buttons stay where they are: each row and panel draws the same buttons in the same places
//! whatever the state (a button that cannot act is greyed, never removed), words come after
//! buttons, and a destructive action (Disperse, cancelling a mission) asks in a window of its
//! own. A button that just did its work is greyed until the log moves on, so a double click
//! records once.

use super::action::Action;
use super::just_done::{self, JustDone};
use super::model::{CampaignCommand, Command, Model, OpenCampaign};
use super::resolve::DiceMode;
use super::resolve::form::{self, Fixing, Form};
use super::resolve::report;
use super::resolve::table::{self, Typed};
use super::widgets::{self, Answer};
use crate::campaign::{ArmourBattlePlan, CampaignError, CampaignRecord, Event, describe};
use crate::rules::RulesetId;
use crate::rules::armour_battles::battle::actions::{key, param};
use crate::rules::armour_battles::battle::state::{
    BattleState, Breakdown, MissionStatus, Phase, SideState, UnitState, UnitStatus,
};
use crate::rules::armour_battles::battle::{self, ArmourBattle};
use crate::rules::battle::{self as seam, BattleRules, Request, SIDES, Side};
use crate::rules::resolution::{self, InputValue, Inputs, Mechanic, Report, TableDice};

/// A panel that resolves with a mechanic: the unit acting, its target and the form.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    pub unit: Option<String>,
    pub target: Option<String>,
    pub form: Form,
}

impl Panel {
    fn new(mechanic: &'static str) -> Self {
        Panel {
            unit: None,
            target: None,
            form: Form::new(armour_mechanic(mechanic)),
        }
    }
}

/// The tracker's pickers, forms and what it last said.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackerState {
    pub fire: Panel,
    pub artillery: Panel,
    /// The rally situation every Rally button rolls with.
    pub rally: Form,
    /// The last refusal in words, with the log length it was said at: once the log moves on
    /// it no longer holds.
    pub refusal: Option<(String, usize)>,
    /// The last roll's report, with the log length after its event.
    pub roll: Option<(Report, usize)>,
    /// The last action a button recorded: that button is greyed for a moment, until the log
    /// moves on (a double click records once).
    pub done: Option<JustDone>,
    /// A destructive action waiting for its yes.
    pub confirm: Option<(Request, String)>,
    /// Whose dice the tracker's rolls use.
    pub dice_mode: DiceMode,
    /// With the dice rolled at the table: the action waiting for its faces.
    pub at_table: AtTable,
    /// Events in the battle's log as this frame began.
    log_len: usize,
    /// The frame's time (egui's clock): when a button recorded.
    now: f64,
}

/// An action rolled at the table: the request its button made and the faces typed per pool.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AtTable {
    pub request: Option<Request>,
    pub texts: Typed,
    /// The pools shown last frame (see [`table::faces_grid`]).
    shown: usize,
    /// Just pressed: the box comes into view with its first field ready for the faces.
    fresh: bool,
    /// Frames left to give the first field the keyboard: the click that pressed the action
    /// may still be ending, and a click ending elsewhere takes focus away again.
    focus_frames: u8,
    /// When the page last scrolled by itself to show the box (egui's time): clicks are held
    /// off it for a moment (see [`super::just_done::hold_clicks`]).
    scrolled_at: Option<f64>,
}

/// Frames the first faces field asks for the keyboard after its action is pressed.
const FOCUS_FRAMES: u8 = 3;

impl Default for TrackerState {
    fn default() -> Self {
        Self {
            fire: Panel::new("fire"),
            artillery: Panel::new("fire"),
            rally: Form::new(armour_mechanic("rally")),
            refusal: None,
            roll: None,
            done: None,
            confirm: None,
            dice_mode: DiceMode::App,
            at_table: AtTable::default(),
            log_len: 0,
            now: 0.0,
        }
    }
}

/// An Armour Battles mechanic by key (the registry holds every one the battle names).
fn armour_mechanic(key: &str) -> &'static Mechanic {
    resolution::mechanic(RulesetId::ArmourBattles, key)
        .or_else(|| resolution::mechanics().next())
        .expect("every build registers mechanics")
}

impl TrackerState {
    fn say(&mut self, text: String) {
        self.refusal = Some((text, self.log_len));
    }

    /// The refusal, if it still describes the log.
    pub fn current_refusal(&self) -> Option<&str> {
        self.refusal
            .as_ref()
            .filter(|(_, at)| *at == self.log_len)
            .map(|(text, _)| text.as_str())
    }

    /// Whether `request`'s button just did its work on the log as it is.
    fn just_done(&self, request: &Request, ui: &egui::Ui) -> bool {
        just_done::greyed(self.done.as_ref(), request, self.log_len, ui)
    }
}

/// What the tracker needs of the open campaign on one frame.
struct Table<'a> {
    record: &'a CampaignRecord,
    index: usize,
    plan: &'a ArmourBattlePlan,
    state: &'a BattleState,
    offered: Vec<seam::Action>,
    model: &'a Model,
}

impl Table<'_> {
    fn offered(&self, key: &str) -> impl Iterator<Item = &seam::Action> {
        self.offered.iter().filter(move |a| a.key == key)
    }

    fn of_unit(&self, key: &str, unit: &str) -> Option<&seam::Action> {
        self.offered(key).find(|a| a.unit.as_deref() == Some(unit))
    }
}

/// The units an offered action may aim at, as the target picker lists them (none refused).
fn targets_of<'a>(
    battle: &'a BattleState,
    action: Option<&seam::Action>,
) -> Vec<(&'a UnitState, Option<&'a str>)> {
    action.map_or_else(Vec::new, |a| {
        a.targets
            .iter()
            .filter_map(|id| battle.unit(id))
            .map(|u| (u, None))
            .collect()
    })
}

fn record(event: Event) -> Action {
    Action::Model(Command::Campaign(CampaignCommand::Record(Box::new(event))))
}

/// Decides `request` as the battle's rules do and emits its event, or says why not. With the
/// dice rolled at the table, an action that rolls waits in the dice box for its faces instead.
fn act(state: &mut TrackerState, table: &Table<'_>, request: Request, actions: &mut Vec<Action>) {
    if state.dice_mode == DiceMode::Table && rolls(table, &request) {
        if state.at_table.request.as_ref() != Some(&request) {
            state.at_table = AtTable {
                request: Some(request),
                fresh: true,
                focus_frames: FOCUS_FRAMES,
                ..AtTable::default()
            };
        }
        state.refusal = None;
        return;
    }
    let decided = table
        .record
        .decide(table.index, &request, &table.model.player);
    settle(state, request, decided, actions);
}

/// Whether `request` rolls dice now (the rules ask for at least one pool).
fn rolls(table: &Table<'_>, request: &Request) -> bool {
    table
        .record
        .table_pools(table.index, request, &TableDice::new())
        .is_ok_and(|(asked, _)| !asked.is_empty())
}

/// Emits the event the rules decided for `request`, or says why they refused it.
fn settle(
    state: &mut TrackerState,
    request: Request,
    decided: Result<seam::Decided<Event>, CampaignError>,
    actions: &mut Vec<Action>,
) {
    match decided {
        Ok(decided) => {
            let after = state.log_len + 1;
            state.roll = decided.report.map(|report| (report, after));
            state.done = Some(JustDone::new(request, after, state.now));
            state.refusal = None;
            actions.push(record(decided.event));
        }
        Err(error) => state.say(error.to_string()),
    }
}

/// A button for `action`, drawn the same whatever the state so nothing moves under the
/// pointer: greyed only while it has just done its work (until the log moves on). Refused by
/// the rules, its words are faint and a click says why (so does its hover); otherwise its
/// hover says what it costs, and a destructive one asks first.
fn action_button(
    ui: &mut egui::Ui,
    state: &mut TrackerState,
    table: &Table<'_>,
    action: &seam::Action,
    label: &str,
    actions: &mut Vec<Action>,
) {
    let request = action.request();
    let text = if action.destructive {
        format!("{label}…")
    } else {
        label.to_string()
    };
    let text = if action.allowed() {
        egui::RichText::new(text)
    } else {
        egui::RichText::new(text).weak()
    };
    let mut response = ui.add_enabled(!state.just_done(&request, ui), egui::Button::new(text));
    if let Some(why) = &action.refused {
        response = response.on_hover_text(why);
    } else if !action.costs.is_empty() {
        let costs: Vec<String> = action.costs.iter().map(seam::Cost::text).collect();
        response = response.on_hover_text(format!("Costs {}", costs.join(" and ")));
    }
    if !response.clicked() {
        return;
    }
    if let Some(why) = &action.refused {
        state.say(why.clone());
    } else if action.destructive {
        let unit = action
            .unit
            .as_deref()
            .and_then(|id| table.state.unit(id))
            .map(|u| table.state.unit_label(u));
        let question = match (action.key, unit) {
            (key::DISPERSE, Some(unit)) => format!(
                "Disperse {unit}? It is removed from the battle and its side rolls 1D3 Army Morale lost. Only an undo takes it back."
            ),
            (_, Some(unit)) => format!("{} — {unit}?", action.label),
            (_, None) => format!("{}?", action.label),
        };
        state.confirm = Some((request, question));
    } else {
        act(state, table, request, actions);
    }
}

fn phase_text(battle: &BattleState) -> String {
    match battle.phase {
        Phase::AwaitingCommandRoll if battle.turn == 0 => {
            "Ready: roll command dice to start turn 1".to_string()
        }
        Phase::AwaitingCommandRoll => format!(
            "Turn {} over: roll command dice for the next turn",
            battle.turn
        ),
        Phase::Pulse { side } => format!("Turn {}: {} Command Pulse", battle.turn, side.label()),
        Phase::Over => battle.outcome.as_ref().map_or_else(
            || "Battle over".to_string(),
            |o| format!("Battle over: {}", o.reason),
        ),
    }
}

/// The odds the mechanic gives for `request` as the battle fixes it, on one line.
fn odds_line(ui: &mut egui::Ui, table: &Table<'_>, request: &Request) {
    let answer = ArmourBattle::situation(table.plan, table.state, request)
        .map_err(|e| e.to_string())
        .and_then(|(id, inputs)| {
            let mechanic = resolution::find(id).ok_or("no such mechanic")?;
            mechanic.resolve_odds(&inputs).map_err(|e| e.to_string())
        });
    match answer {
        Ok(odds) => report::headline(ui, &odds),
        Err(why) => {
            ui.colored_label(ui.visuals().error_fg_color, why);
        }
    }
}

/// Draws the tracker of the open campaign's shown battle.
pub fn ui(
    state: &mut TrackerState,
    model: &Model,
    open: &OpenCampaign,
    plan: &ArmourBattlePlan,
    battle: &BattleState,
    ui: &mut egui::Ui,
) -> Vec<Action> {
    let mut actions = Vec::new();
    let Some(log) = open.battle() else {
        return actions;
    };
    state.log_len = log.events.len();
    state.now = ui.input(|i| i.time);
    let table = Table {
        record: open.record(),
        index: open.battle,
        plan,
        state: battle,
        offered: ArmourBattle::actions(plan, battle),
        model,
    };
    ui.heading(format!("Battle {}: {}", plan.number, plan.name));
    ui.weak(format!(
        "{} · {} · {}",
        plan.time,
        plan.place,
        plan.first_pulse.label()
    ));
    // Buttons first, words after: a phase text that grows or shrinks never moves a button.
    ui.horizontal(|ui| {
        if let Some(roll) = table.offered(key::ROLL_COMMAND).next().cloned() {
            ui.scope(|ui| {
                action_button(ui, state, &table, &roll, "Roll command dice", &mut actions);
            })
            .response
            .on_hover_ui(|ui| odds_line(ui, &table, &roll.request()));
        }
        if let Some(end) = table.offered(key::END_TURN).next().cloned() {
            action_button(ui, state, &table, &end, "End turn", &mut actions);
        }
        actions.extend(undo_redo(ui, &log));
        ui.add(egui::Label::new(egui::RichText::new(phase_text(battle)).strong()).truncate());
    });
    // Always one line, so the first roll of the battle moves nothing below it.
    let command_line = battle.last_command.as_ref().map_or_else(
        || "No command dice rolled yet".to_string(),
        |command| battle::describe::describe(&battle::Event::CommandRolled(command.clone()), plan),
    );
    ui.add(egui::Label::new(command_line).truncate());
    status_line(state, open, &log, ui, &mut actions);
    dice_box(state, &table, ui, &mut actions);
    // A finished battle stays readable, but its log takes nothing more but an undo.
    ui.add_enabled_ui(battle.phase != Phase::Over, |ui| {
        ui.columns(2, |columns| {
            for (ui, side) in columns.iter_mut().zip(SIDES) {
                side_panel(state, &table, side, ui, &mut actions);
            }
        });
        ui.separator();
        fire_panel(state, &table, ui, &mut actions);
        artillery_panel(state, &table, ui, &mut actions);
        last_roll(state, ui);
        ui.separator();
        units_table(state, &table, ui, &mut actions);
    });
    if let Some((request, question)) = state.confirm.clone() {
        match widgets::confirm(ui, "tracker", &question, "Yes, record it") {
            Some(Answer::Yes) => {
                state.confirm = None;
                act(state, &table, request, &mut actions);
            }
            Some(Answer::No) => state.confirm = None,
            None => {}
        }
    }
    actions
}

/// Rows the dice box keeps for its pools, so a pool appearing moves nothing below the box
/// (a fire asks for three at most: attack, reaction, forced back).
const DICE_ROWS: f32 = 3.0;

/// "Dice: App roll / Rolled at the table", and at the table the action waiting for its dice:
/// "Record these dice" first (it never moves), then a faces field per pool the rules ask for.
fn dice_box(
    state: &mut TrackerState,
    table: &Table<'_>,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    ui.horizontal(|ui| {
        ui.label("Dice:");
        ui.radio_value(&mut state.dice_mode, DiceMode::App, "App roll")
            .on_hover_text("The app rolls, from the seed the battle's history gives");
        let chosen = ui
            .radio_value(&mut state.dice_mode, DiceMode::Table, "Rolled at the table")
            .on_hover_text(
                "Press an action that rolls, then type the faces the players rolled; the result is derived from them",
            );
        // Back at the table with an action still waiting: its first field takes the keyboard.
        if chosen.changed() {
            state.at_table.focus_frames = FOCUS_FRAMES;
        }
    });
    if state.dice_mode != DiceMode::Table {
        return;
    }
    let mut first_field = None;
    let shown = egui::Frame::group(ui.style()).show(ui, |ui| {
        let row = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
        ui.set_min_height(row * (DICE_ROWS + 2.0));
        ui.set_min_width(ui.available_width());
        let request = state.at_table.request.clone();
        let (pools, dice, answer) = match &request {
            Some(request) => table_pools(table, request, &state.at_table.texts),
            None => (Vec::new(), TableDice::new(), Ok(())),
        };
        ui.horizontal(|ui| {
            let ready = request.is_some() && answer.is_ok();
            if ui
                .add_enabled(ready, egui::Button::new("Record these dice"))
                .on_hover_text("Work the result out from the faces typed below and record it")
                .clicked()
                && let Some(request) = request.clone()
            {
                record_table_dice(state, table, request, &dice, actions);
            }
            match &request {
                Some(request) => {
                    ui.strong(format!("Dice for {}", request_title(table, request)));
                    if ui.small_button("Cancel").clicked() {
                        state.at_table = AtTable::default();
                    }
                }
                None => {
                    ui.weak("Press an action that rolls (Roll command dice, Fire, Rally…) to type its dice here.");
                }
            }
        });
        if request.is_none() {
            return;
        }
        let grid = table::faces_grid(
            ui,
            "tracker_table_dice",
            &pools,
            &mut state.at_table.texts,
            &mut state.at_table.shown,
        );
        first_field = grid.fields.first().map(|f| f.rect);
        if grid.submitted
            && let Some(request) = request.clone()
        {
            // Enter in the last field: the faces as they are now, as the button records them.
            let (_, dice, answer) = table_pools(table, &request, &state.at_table.texts);
            match answer {
                Ok(()) => {
                    record_table_dice(state, table, request, &dice, actions);
                    // No pointer moves after a key: show the recorded battle without waiting
                    // for one.
                    ui.ctx().request_repaint();
                }
                // Not all in yet: the keyboard stays where the typing goes on.
                Err(_) => {
                    if let Some(last) = grid.fields.last() {
                        last.request_focus();
                    }
                }
            }
            return;
        }
        if state.at_table.focus_frames > 0
            && let Some(first) = grid.fields.first()
        {
            if first.has_focus() {
                state.at_table.focus_frames = 0;
            } else {
                first.request_focus();
                state.at_table.focus_frames -= 1;
                ui.ctx().request_repaint();
            }
        }
        if let Err(error) = &answer
            && !error.table_dice().is_some_and(|e| table::still_typing(ui, e))
        {
            ui.colored_label(ui.visuals().error_fg_color, error.to_string());
        }
    });
    // A button far below (Fire, a unit's Rally) was pressed: show where its dice go.
    if std::mem::take(&mut state.at_table.fresh)
        && bring_into_view(ui, shown.response.rect, first_field)
    {
        state.at_table.scrolled_at = Some(ui.input(|i| i.time));
    }
    // A held click takes the keyboard from the faces: they ask for it again.
    if super::just_done::hold_clicks(ui, ui.clip_rect(), state.at_table.scrolled_at) {
        state.at_table.focus_frames = FOCUS_FRAMES;
    }
}

/// Scrolls the dice box (`frame`) into view when it is out of it, with its first faces field
/// (`field`) where the pointer is as far as the page can scroll: the player's eyes are there.
/// Returns whether it scrolled.
fn bring_into_view(ui: &egui::Ui, frame: egui::Rect, field: Option<egui::Rect>) -> bool {
    let view = ui.clip_rect();
    if view.contains_rect(frame) {
        return false;
    }
    let pointer = ui.ctx().pointer_latest_pos().filter(|p| view.contains(*p));
    match (pointer, field) {
        (Some(pointer), Some(field)) => {
            // Aligned to the top of the view, a rect starting this far above the field puts
            // the field's middle at the pointer's height.
            let above = pointer.y - view.top();
            let target = egui::Rect::from_min_size(
                egui::pos2(field.left(), field.center().y - above),
                egui::vec2(field.width(), 1.0),
            );
            ui.scroll_to_rect_animation(
                target,
                Some(egui::Align::Min),
                egui::style::ScrollAnimation::none(),
            );
        }
        _ => ui.scroll_to_rect_animation(frame, None, egui::style::ScrollAnimation::none()),
    }
    true
}

/// The pools the battle's rules ask of `request` for the faces typed, the dice taken from
/// them, and whether they make a complete roll (else why not).
fn table_pools(
    table: &Table<'_>,
    request: &Request,
    texts: &Typed,
) -> (Vec<table::Asked>, TableDice, Result<(), CampaignError>) {
    table::ask_pools(texts, |dice| {
        match table.record.table_pools(table.index, request, dice) {
            Ok((asked, answer)) => (asked, answer.map(|_| ())),
            Err(e) => (Vec::new(), Err(e)),
        }
    })
}

/// Records `request` with the faces typed at the table. The box empties, so a second click (or
/// Enter) has nothing to record.
fn record_table_dice(
    state: &mut TrackerState,
    table: &Table<'_>,
    request: Request,
    dice: &TableDice,
    actions: &mut Vec<Action>,
) {
    let decided = table
        .record
        .decide_table(table.index, &request, &table.model.player, dice);
    state.at_table = AtTable::default();
    settle(state, request, decided, actions);
}

/// "Fire: M4 75mm 1/2 (Tank Company 1) → Panzer IV H 1/3 (Panzer Company 2)", "Roll command
/// dice": the action as its button names it, with its unit and target.
fn request_title(table: &Table<'_>, request: &Request) -> String {
    let label = table
        .offered
        .iter()
        .find(|a| a.key == request.action && a.unit == request.unit)
        .map_or_else(|| request.action.replace('_', " "), |a| a.label.clone());
    let name = |id: &Option<String>| {
        id.as_deref()
            .and_then(|id| table.state.unit(id))
            .map(|u| table.state.unit_label(u))
    };
    match (name(&request.unit), name(&request.target)) {
        (Some(unit), Some(target)) => format!("{label}: {unit} → {target}"),
        (Some(unit), None) => format!("{label}: {unit}"),
        _ => label,
    }
}

/// One line, always one line high, so nothing below it moves: the event this window just
/// recorded (with "Undo this", which undoes exactly that event, while it is the battle's
/// latest), or the refusal just met; otherwise the latest event that counts.
fn status_line(
    state: &TrackerState,
    open: &OpenCampaign,
    log: &crate::campaign::Battle<'_>,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    let latest = log
        .undo_target()
        .and_then(|seq| log.events.iter().find(|e| e.seq == seq));
    let mine = latest.filter(|e| open.recorded_here == Some((open.battle, e.id)));
    ui.horizontal(|ui| {
        ui.set_min_height(ui.spacing().interact_size.y);
        if let Some(refusal) = state.current_refusal() {
            ui.add(
                egui::Label::new(egui::RichText::new(refusal).color(ui.visuals().error_fg_color))
                    .truncate(),
            );
        } else if let Some(event) = mine {
            if ui
                .small_button("Undo this")
                .on_hover_text("Records an undo of exactly this event")
                .clicked()
            {
                actions.push(Action::Model(Command::Campaign(
                    CampaignCommand::UndoEvent(event.id),
                )));
            }
            ui.add(egui::Label::new(describe::describe(&event.event, log.plan)).truncate());
        } else if let Some(event) = latest
            // The command roll already has its own line above.
            && !matches!(event.event, Event::Armour(battle::Event::CommandRolled(_)))
        {
            ui.add(
                egui::Label::new(
                    egui::RichText::new(format!(
                        "Latest: {}",
                        describe::describe(&event.event, log.plan)
                    ))
                    .weak(),
                )
                .truncate(),
            );
        }
    });
}

/// "Left: 3×4, 2×6 · 1 wild die · 2 Staff Orders".
fn left_this_pulse(s: &SideState) -> String {
    let chains: Vec<String> = s
        .chains
        .iter()
        .map(|c| format!("{}×{}", c.dice, c.face))
        .collect();
    let chains = match chains.as_slice() {
        [] => "no chains".to_string(),
        all => all.join(", "),
    };
    let wild = match s.wild {
        0 => "no wild dice".to_string(),
        1 => "1 wild die".to_string(),
        n => format!("{n} wild dice"),
    };
    let staff = match s.staff_orders {
        1 => "1 Staff Order".to_string(),
        n => format!("{n} Staff Orders"),
    };
    format!("Left: {chains} · {wild} · {staff}")
}

fn side_panel(
    state: &mut TrackerState,
    table: &Table<'_>,
    side: Side,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    let battle = table.state;
    let s = battle.side(side);
    let active = battle.phase == (Phase::Pulse { side });
    let title = egui::RichText::new(side.label()).heading();
    ui.label(if active {
        title.strong().underline()
    } else {
        title
    });
    let fraction = if s.army_morale_start == 0 {
        0.0
    } else {
        s.army_morale as f32 / s.army_morale_start as f32
    };
    super::theme::meter(
        ui,
        super::theme::Meter {
            label: "Army Morale",
            value: format!("{} / {}", s.army_morale, s.army_morale_start),
            fraction,
            status: super::theme::Status::of_remaining(fraction),
            width: ui.available_width().min(260.0),
        },
    );
    let waiting = if s.staff_orders_next_turn > 0 {
        format!(" (+{} next turn)", s.staff_orders_next_turn)
    } else {
        String::new()
    };
    ui.add(
        egui::Label::new(format!(
            "Command dice {} · Staff Orders {}{waiting} · Rally dice {}{}",
            s.command_dice,
            s.staff_orders,
            s.rally_dice,
            s.artillery_response_dice
                .map_or_else(String::new, |d| format!(" · Artillery response {d}"))
        ))
        .wrap(),
    );
    // The failure belongs to its turn: once the turn is over it no longer applies.
    if s.failed && matches!(battle.phase, Phase::Pulse { .. }) {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            "Command Failure this turn: no reserves; missions cancelled unless kept",
        );
    }
    if matches!(battle.phase, Phase::Pulse { .. }) {
        ui.add(egui::Label::new(left_this_pulse(s)).truncate())
            .on_hover_text(
                "What this side can still spend before the turn ends: each chain is one pulse's \
             orders; wild dice add to a roll or buy Staff Orders",
            );
    }
    let mine: Vec<seam::Action> = table
        .offered
        .iter()
        .filter(|a| a.side == Some(side))
        .cloned()
        .collect();
    ui.horizontal_wrapped(|ui| {
        for chain in &s.chains {
            let face = i64::from(chain.face);
            let of_chain: Vec<&seam::Action> = mine
                .iter()
                .filter(|a| {
                    matches!(a.key, key::USE_CHAIN | key::COMMIT_RESERVES) && fixes_face(a, face)
                })
                .collect();
            ui.menu_button(format!("{}×{}", chain.dice, chain.face), |ui| {
                for action in of_chain {
                    let label = action.label.clone();
                    action_button(ui, state, table, action, &label, actions);
                }
            })
            .response
            .on_hover_text("A Dice Chain: one pulse's orders");
        }
        if s.wild > 0 {
            ui.menu_button(format!("{} wild", s.wild), |ui| {
                for action in mine.iter().filter(|a| {
                    a.key == key::USE_WILD || (a.key == key::USE_CHAIN && fixes_face(a, 6))
                }) {
                    let label = action.label.clone();
                    action_button(ui, state, table, action, &label, actions);
                }
            });
        }
        if let Some(order) = mine.iter().find(|a| a.key == key::USE_STAFF_ORDER) {
            action_button(ui, state, table, order, "Use a Staff Order", actions);
        }
    });
    for mission in &s.missions {
        let label = battle
            .unit(&mission.battery)
            .map_or_else(|| mission.battery.clone(), |u| battle.unit_label(u));
        ui.horizontal_wrapped(|ui| {
            let status = match mission.status {
                MissionStatus::FiringNow => "fires for effect now",
                MissionStatus::Pending => "fires next Logistics Phase",
                MissionStatus::CancelledByFailure => "cancelled by Command Failure",
            };
            for action in mine.iter().filter(|a| {
                a.unit.as_deref() == Some(mission.battery.as_str())
                    && matches!(a.key, key::MAINTAIN_MISSION | key::CANCEL_MISSION)
            }) {
                let label = action.label.clone();
                action_button(ui, state, table, action, &label, actions);
            }
            ui.label(format!("{label}: {status}"));
        });
    }
}

/// Whether `action` spends dice of the chain of `face`.
fn fixes_face(action: &seam::Action, face: i64) -> bool {
    action
        .fixed
        .iter()
        .any(|(k, v)| *k == param::FACE && *v == InputValue::Count(face))
}

/// A picker of the battle's units by their labels ("M4 75mm 1/2 (Tank Company 1), US"),
/// each saying why it cannot act when it cannot.
fn unit_combo(
    ui: &mut egui::Ui,
    salt: &str,
    label: &str,
    battle: &BattleState,
    units: &[(&UnitState, Option<&str>)],
    pick: &mut Option<String>,
) {
    let text = ui.label(label);
    let selected = pick
        .as_deref()
        .and_then(|id| battle.unit(id))
        .map_or_else(|| "choose…".to_string(), |u| battle.unit_label(u));
    egui::ComboBox::from_id_salt(salt)
        .selected_text(selected)
        .width(240.0)
        .show_ui(ui, |ui| {
            for (u, why) in units {
                let note = why.map_or_else(String::new, |why| format!(" — {why}"));
                ui.selectable_value(
                    pick,
                    Some(u.id.clone()),
                    format!("{}, {}{note}", battle.unit_label(u), u.side.label()),
                );
            }
        })
        .response
        .labelled_by(text.id);
}

/// The fire panel's request as its pickers and form stand: the player's inputs only (the
/// cards are the units', and what the battle decides it fills in itself).
fn panel_request(action: &'static str, panel: &Panel) -> Request {
    let mut request = Request::new(action);
    request.unit = panel.unit.clone();
    request.target = panel.target.clone();
    request.inputs = players_inputs(&panel.form.inputs);
    request
}

/// The inputs of a form the player sets: not the cards, not what the battle decides.
pub(in crate::ui) fn players_inputs(form: &Inputs) -> Inputs {
    let mut inputs = Inputs::default();
    for key in form.keys() {
        if let Some(value) = form.get(key)
            && !matches!(value, InputValue::Card(_))
            && !BATTLE_DECIDES.contains(&key)
        {
            inputs.set(key, value.clone());
        }
    }
    inputs
}

/// Fire inputs the battle always fixes from the table (the form shows them locked).
const BATTLE_DECIDES: [&str; 3] = ["target_disruption", "target_suppressed", "ambush"];

/// What a panel's form may not be set to: what the chosen unit's action fixes, bounds and
/// narrows, and the bound of the target's side's bonus.
struct Constraints {
    fixed: Vec<(&'static str, InputValue)>,
    limits: Vec<seam::Limit>,
    choices: Vec<(&'static str, Vec<&'static str>)>,
}

impl Constraints {
    fn fixing<'a>(&'a self, only: Option<&'a [&'static str]>) -> Fixing<'a> {
        Fixing {
            values: &self.fixed,
            limits: &self.limits,
            choices: &self.choices,
            cards_from_units: true,
            only,
        }
    }
}

/// The fire form's inputs in two columns: the shot on the left, the target's side on the right.
const FIRE_COLUMNS: [&[&str]; 2] = [
    &["kind", "range", "move", "flank", "ambush", "attacker_wild"],
    &[
        "cover",
        "uphill",
        "evading",
        "target_suppressed",
        "target_disruption",
        "target_wild",
    ],
];

fn constraints(
    (plan, battle, offered): Standing<'_>,
    action: Option<&seam::Action>,
    request: &Request,
) -> Constraints {
    // Before a unit is picked the form still offers only what any unit of the panel may do.
    let choices = action
        .or_else(|| offered.iter().find(|a| a.key == request.action))
        .map(|a| a.choices.clone())
        .unwrap_or_default();
    let mut fixed = action.map(|a| a.fixed.clone()).unwrap_or_default();
    let mut limits = action.map(|a| a.limits.clone()).unwrap_or_default();
    if let Ok((_, inputs)) = ArmourBattle::situation(plan, battle, request) {
        for key in ["target_disruption", "target_suppressed", "ambush"] {
            if let Some(value) = inputs.get(key) {
                fixed.retain(|(k, _)| *k != key);
                fixed.push((key, value.clone()));
            }
        }
    }
    if let Some(target) = request.target.as_deref().and_then(|t| battle.unit(t)) {
        let room = battle::decide::bonus_room(battle, target.side);
        limits.push(seam::Limit {
            key: "target_wild",
            max: i64::from(room),
            why: format!("{} holds the bonus dice it may add", target.side.label()),
        });
    }
    Constraints {
        fixed,
        limits,
        choices,
    }
}

/// The battle as it stands, as a panel's constraints read it: its plan, the table, the
/// actions offered.
type Standing<'a> = (&'a ArmourBattlePlan, &'a BattleState, &'a [seam::Action]);

/// Settles a fire or artillery panel's form under what the battle fixes, bounds and narrows
/// for its unit's `action` and its target — as drawing the form settles it, column by
/// column — and returns those constraints for drawing it. The panel's request
/// ([`panel_request`]) is then what a click records.
fn settle_panel(
    standing: Standing<'_>,
    key: &'static str,
    action: Option<&seam::Action>,
    panel: &mut Panel,
    columns: &[Option<&'static [&'static str]>],
) -> Constraints {
    let constraints = constraints(standing, action, &panel_request(key, panel));
    for only in columns {
        form::settle(
            armour_mechanic("fire"),
            &mut panel.form,
            &constraints.fixing(*only),
        );
    }
    constraints
}

/// The fire panel's form, drawn in [`FIRE_COLUMNS`].
const FIRE_FORM: [Option<&[&str]>; 2] = [Some(FIRE_COLUMNS[0]), Some(FIRE_COLUMNS[1])];
/// The artillery panel's form, drawn whole.
const ARTILLERY_FORM: [Option<&[&str]>; 1] = [None];

fn fire_panel(
    state: &mut TrackerState,
    table: &Table<'_>,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    ui.strong("Direct or opportunity fire");
    let battle = table.state;
    let shooters: Vec<(&UnitState, Option<&str>)> = table
        .offered(key::FIRE)
        .filter_map(|a| {
            let u = battle.unit(a.unit.as_deref()?)?;
            Some((u, a.refused.as_deref()))
        })
        .collect();
    let action = state
        .fire
        .unit
        .as_deref()
        .and_then(|id| table.of_unit(key::FIRE, id))
        .cloned();
    if action.is_none() {
        state.fire.unit = None;
    }
    let targets = targets_of(battle, action.as_ref());
    if state
        .fire
        .target
        .as_deref()
        .is_some_and(|id| !targets.iter().any(|(u, _)| u.id == id))
    {
        state.fire.target = None;
    }
    ui.horizontal_wrapped(|ui| {
        unit_combo(
            ui,
            "fire_attacker",
            "Attacker",
            battle,
            &shooters,
            &mut state.fire.unit,
        );
        unit_combo(
            ui,
            "fire_target",
            "Target",
            battle,
            &targets,
            &mut state.fire.target,
        );
    });
    let standing = (table.plan, table.state, table.offered.as_slice());
    let constraints = settle_panel(
        standing,
        key::FIRE,
        action.as_ref(),
        &mut state.fire,
        &FIRE_FORM,
    );
    egui::CollapsingHeader::new("Situation")
        .id_salt("fire_situation")
        .default_open(true)
        .show(ui, |ui| {
            ui.columns(2, |columns| {
                for (ui, keys) in columns.iter_mut().zip(FIRE_COLUMNS) {
                    form::form_fixed(
                        ui,
                        armour_mechanic("fire"),
                        &mut state.fire.form,
                        table.model,
                        &constraints.fixing(Some(keys)),
                    );
                }
            });
        });
    let request = panel_request(key::FIRE, &state.fire);
    let chosen = action.is_some() && request.target.is_some();
    // The button before any words, so a longer or shorter odds line never moves it.
    let clicked = ui
        .add_enabled(
            chosen && !state.just_done(&request, ui),
            egui::Button::new(match state.dice_mode {
                DiceMode::App => "Roll fire and apply",
                DiceMode::Table => "Fire: type its dice",
            }),
        )
        .on_disabled_hover_text("Choose a firing unit and its target")
        .clicked();
    if clicked {
        match action.as_ref().and_then(|a| a.refused.clone()) {
            Some(why) => state.say(why),
            None => act(state, table, request.clone(), actions),
        }
    }
    if request.unit.is_some() && request.target.is_some() {
        odds_line(ui, table, &request);
    } else {
        ui.weak("Choose a firing unit and its target.");
    }
}

fn artillery_panel(
    state: &mut TrackerState,
    table: &Table<'_>,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    let ready: Vec<&seam::Action> = table.offered(key::ARTILLERY_FIRE).collect();
    if ready.is_empty() {
        return;
    }
    let battle = table.state;
    ui.strong("Artillery fire for effect");
    let batteries: Vec<(&UnitState, Option<&str>)> = ready
        .iter()
        .filter_map(|a| Some((battle.unit(a.unit.as_deref()?)?, a.refused.as_deref())))
        .collect();
    let action = state
        .artillery
        .unit
        .as_deref()
        .and_then(|id| table.of_unit(key::ARTILLERY_FIRE, id))
        .cloned();
    if action.is_none() {
        state.artillery.unit = None;
    }
    let targets = targets_of(battle, action.as_ref());
    ui.horizontal_wrapped(|ui| {
        unit_combo(
            ui,
            "battery",
            "Battery",
            battle,
            &batteries,
            &mut state.artillery.unit,
        );
        unit_combo(
            ui,
            "burst_target",
            "Unit under the burst",
            battle,
            &targets,
            &mut state.artillery.target,
        );
    });
    let standing = (table.plan, table.state, table.offered.as_slice());
    let constraints = settle_panel(
        standing,
        key::ARTILLERY_FIRE,
        action.as_ref(),
        &mut state.artillery,
        &ARTILLERY_FORM,
    );
    form::form_fixed(
        ui,
        armour_mechanic("fire"),
        &mut state.artillery.form,
        table.model,
        &constraints.fixing(None),
    );
    let request = panel_request(key::ARTILLERY_FIRE, &state.artillery);
    ui.horizontal(|ui| {
        let ready = action.is_some() && request.target.is_some();
        if ui
            .add_enabled(
                ready && !state.just_done(&request, ui),
                egui::Button::new("Roll and apply"),
            )
            .on_disabled_hover_text("Choose the battery and the unit under the burst")
            .clicked()
        {
            act(state, table, request.clone(), actions);
        }
        if let Some(done) = state
            .artillery
            .unit
            .as_deref()
            .and_then(|id| table.of_unit(key::MISSION_DONE, id))
            .cloned()
        {
            action_button(ui, state, table, &done, "Mission done", actions);
        }
    });
    if request.unit.is_some() && request.target.is_some() {
        odds_line(ui, table, &request);
    }
}

/// Lines kept for the last roll's report whether there is one or not: a report appearing
/// with a roll, or going with the next event, moves no unit's button below it (a double
/// click's second click would land on another unit's row).
const REPORT_ROWS: f32 = 7.0;

/// The last roll's dice and result, while it is still the latest event, in a box of a fixed
/// height (a longer report scrolls inside it).
fn last_roll(state: &TrackerState, ui: &mut egui::Ui) {
    let line = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
    let height = line * REPORT_ROWS;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.set_min_height(height);
        egui::ScrollArea::vertical()
            .id_salt("last_roll")
            .max_height(height)
            .auto_shrink([false, true])
            .show(ui, |ui| match &state.roll {
                Some((roll, at)) if *at == state.log_len => report::roll(ui, roll),
                _ => {
                    ui.weak("The dice and result of the next roll show here.");
                }
            });
    });
}

/// Widest the unit and status columns get before their words wrap: at 1024 pixels the row's
/// actions stay on screen.
const UNIT_WIDTH: f32 = 180.0;
const WHERE_WIDTH: f32 = 100.0;

/// The columns of a unit's row that hold its actions, each in its own column so a button never
/// slides into another's place: the order its status allows (Reveal, Commit, Call fire
/// mission), Rally, the Poor Reliability checks or repairs, and Disperse, apart at the end.
const ACTION_COLUMNS: [&[&str]; 4] = [
    &[key::REVEAL, key::COMMIT_RESERVES, key::CALL_ARTILLERY],
    &[key::RALLY],
    &[key::CHECK_RELIABILITY, key::REPAIR],
    &[key::DISPERSE],
];

fn units_table(
    state: &mut TrackerState,
    table: &Table<'_>,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    let battle = table.state;
    egui::CollapsingHeader::new("Rally situation")
        .id_salt("rally_situation")
        .show(ui, |ui| {
            let values = rally_fixed();
            form::form_fixed(
                ui,
                armour_mechanic("rally"),
                &mut state.rally,
                table.model,
                &rally_fixing(&values),
            );
        });
    ui.strong("Units");
    egui::ScrollArea::horizontal()
        .id_salt("units_scroll")
        .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
        .show(ui, |ui| {
            egui::Grid::new("units")
                .striped(true)
                .num_columns(5 + ACTION_COLUMNS.len())
                .show(ui, |ui| {
                    for (heading, hover) in [
                        (
                            "Unit",
                            "Side, card, copy number and company, as the printed cards",
                        ),
                        (
                            "Where",
                            "On the table, in reserve, hidden, off-table or gone",
                        ),
                        (
                            "Disruption",
                            "Disruption Points / Cohesion (corrected by hand)",
                        ),
                        ("Supp.", "Suppressed (corrected by hand)"),
                        ("Fired", "Fire marker (corrected by hand)"),
                    ] {
                        ui.strong(heading).on_hover_text(hover);
                    }
                    for _ in ACTION_COLUMNS {
                        ui.label("");
                    }
                    ui.end_row();
                    for u in &battle.units {
                        unit_row(state, table, u, ui, actions);
                        ui.end_row();
                    }
                });
        });
}

fn unit_row(
    state: &mut TrackerState,
    table: &Table<'_>,
    u: &UnitState,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    let battle = table.state;
    // Long names wrap in narrow columns, so the actions stay in view in a small window.
    let cell = |ui: &mut egui::Ui, width: f32, text: String| {
        ui.scope(|ui| {
            ui.set_max_width(width);
            ui.add(egui::Label::new(text).wrap());
        });
    };
    cell(
        ui,
        UNIT_WIDTH,
        format!("{} {}", u.side.label(), battle.unit_label(u)),
    );
    let broken = match u.breakdown {
        Breakdown::BrokenDown { .. } => " · broken down",
        Breakdown::Repaired { turn } if turn == battle.turn => " · repaired (no move)",
        _ => "",
    };
    cell(ui, WHERE_WIDTH, format!("{}{broken}", u.status.label()));
    let live = !u.is_dispersed() && u.status != UnitStatus::LostEarlier;
    let correction = |action: &'static str, key: &'static str, value: InputValue| {
        Request::new(action).unit(u.id.clone()).with(key, value)
    };
    ui.horizontal(|ui| {
        if ui
            .add_enabled(live && u.disruption > 0, egui::Button::new("−").small())
            .on_hover_text("Correct by hand")
            .clicked()
        {
            let request = correction(
                key::SET_DISRUPTION,
                "value",
                InputValue::Count(i64::from(u.disruption) - 1),
            );
            act(state, table, request, actions);
        }
        ui.monospace(format!("{}/{}", u.disruption, u.cohesion));
        if ui
            .add_enabled(
                live && u.disruption + 1 < u.cohesion,
                egui::Button::new("+").small(),
            )
            .on_hover_text("Correct by hand")
            .clicked()
        {
            let request = correction(
                key::SET_DISRUPTION,
                "value",
                InputValue::Count(i64::from(u.disruption) + 1),
            );
            act(state, table, request, actions);
        }
    });
    let mut suppressed = u.suppressed;
    if ui
        .add_enabled(live, egui::Checkbox::new(&mut suppressed, ""))
        .on_hover_text("Suppressed (a correction by hand)")
        .changed()
    {
        let request = correction(key::SET_SUPPRESSED, "flag", InputValue::Flag(suppressed));
        act(state, table, request, actions);
    }
    let mut marked = u.fire_marker;
    if ui
        .add_enabled(live, egui::Checkbox::new(&mut marked, ""))
        .on_hover_text("Fire marker (a correction by hand)")
        .changed()
    {
        let request = correction(key::SET_FIRE_MARKER, "flag", InputValue::Flag(marked));
        act(state, table, request, actions);
    }
    // The row's own actions: a chain's Commit (which names its chain) is in that chain's menu.
    let mine: Vec<seam::Action> = table
        .offered
        .iter()
        .filter(|a| a.unit.as_deref() == Some(u.id.as_str()))
        .filter(|a| a.key != key::COMMIT_RESERVES || !fixes_any_face(a))
        .cloned()
        .collect();
    for keys in ACTION_COLUMNS {
        ui.horizontal(|ui| {
            for action in mine.iter().filter(|a| keys.contains(&a.key)) {
                let mut action = action.clone();
                if action.key == key::RALLY {
                    rally_inputs(state, &mut action);
                }
                let label = action.label.clone();
                action_button(ui, state, table, &action, &label, actions);
            }
        });
    }
}

/// Whether `action` names the chain it spends (a chain menu's entry).
fn fixes_any_face(action: &seam::Action) -> bool {
    action.fixed.iter().any(|(k, _)| *k == param::FACE)
}

/// What the rally situation form locks: unit, Disruption and suppression are each row's
/// (placeholders here); the rest is the players'.
fn rally_fixed() -> [(&'static str, InputValue); 4] {
    [
        ("unit", InputValue::Card(None)),
        ("disruption", InputValue::Count(1)),
        ("suppressed", InputValue::Flag(false)),
        ("battle", InputValue::Count(1)),
    ]
}

fn rally_fixing<'a>(values: &'a [(&'static str, InputValue)]) -> Fixing<'a> {
    Fixing {
        values,
        cards_from_units: true,
        ..Fixing::default()
    }
}

/// A Rally button's request: the rally situation the players set, the row's unit.
fn rally_inputs(state: &TrackerState, action: &mut seam::Action) {
    for key in ["distance", "cover", "no_los", "wild"] {
        if let Some(value) = state.rally.inputs.get(key) {
            action.fixed.retain(|(k, _)| *k != key);
            action.fixed.push((key, value.clone()));
        }
    }
}

/// The battle's Undo and Redo (each records an event; nothing is erased), greyed when there
/// is nothing to take back or put back: every tracker's, in the same words.
pub(super) fn undo_redo(ui: &mut egui::Ui, log: &crate::campaign::Battle<'_>) -> Vec<Action> {
    let mut actions = Vec::new();
    if ui
        .add_enabled(log.undo_target().is_some(), egui::Button::new("Undo"))
        .on_hover_text("Ctrl+Z: records an undo; nothing is erased")
        .clicked()
    {
        actions.push(Action::Model(Command::Campaign(CampaignCommand::Undo)));
    }
    if ui
        .add_enabled(log.redo_target().is_some(), egui::Button::new("Redo"))
        .on_hover_text("Ctrl+Shift+Z")
        .clicked()
    {
        actions.push(Action::Model(Command::Campaign(CampaignCommand::Redo)));
    }
    actions
}

#[cfg(test)]
mod one_path;
