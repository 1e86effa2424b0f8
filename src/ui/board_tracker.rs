//! The table of every battle fought on a board, whatever its ruleset: drawn wholly from what
//! the ruleset's rules offer ([`crate::rules::battle::table::AnyTable`]'s actions) and say of
//! the battle ([`crate::rules::battle::standing`]). The turn line says whose go it is and what
//! comes next; each side shows its score against its start (Army Morale), what it has left
//! (chains, wild dice, Staff Orders, command points) and its own actions; each unit's row its
//! standing (Disruption 1/3, suppressed, hidden) and a button per action it has — greyed with
//! the reason when the rules refuse it. An action that takes a target or parameters opens its
//! form below, with the odds the mechanic gives for the situation; a roll is the battle's
//! decision, with the app's dice or the faces the players rolled at the table. The event just
//! recorded here can be undone from the status line. Nothing here decides a rule.
//!
//! Buttons stay where they are: a unit row draws the same buttons whatever the state, so a
//! double click never lands on another action; a destructive action asks first.

use super::action::Action;
use super::drafts::{BattleKey, Drafts, ResultDraft};
use super::just_done::{self, JustDone};
use super::model::{CampaignCommand, Command, Model, OpenCampaign};
use super::resolve::DiceMode;
use super::resolve::report;
use super::resolve::table::{self, Typed};
use super::theme::{self, Gap, Player, Status, icons};
use super::widgets::{self, Answer};
use crate::campaign::describe::describe;
use crate::campaign::{CampaignError, CampaignRecord, Event, roster, side_label};
use crate::rules::battle::board::{Board, BoardUnit, TablePlan};
use crate::rules::battle::standing::{Tally, Tone, TurnStanding, UnitStanding};
use crate::rules::battle::table::{AnyTable, engine, odds_of, turn_standing, unit_standing};
use crate::rules::battle::{self as seam, BattleRules, Request, SIDES, Side, Sides};
use crate::rules::resolution::{InputKind, InputSpec, InputValue, Inputs, Report, TableDice};

/// The width below which the two sides' units are shown one above the other: each half must
/// hold a unit card's short verb buttons on a line or two (the board beside the action panel
/// is ~960 px in a 1600 px window).
const SIDE_BY_SIDE_WIDTH: f32 = 880.0;

/// The battle and the point of its log that the offered actions were decided at.
type OfferedKey = (
    crate::store::CampaignId,
    usize,
    usize,
    Option<crate::campaign::EventUid>,
);

/// What the rules offer now on the battle shown, decided once per change of its log.
fn offered(
    state: &mut BoardTrackerState,
    open: &OpenCampaign,
    log: &crate::campaign::Battle<'_>,
    plan: &TablePlan,
    board: &Board,
) -> Vec<seam::Action> {
    let key = (
        open.stored.id,
        open.battle,
        log.events.len(),
        log.events.last().map(|e| e.id),
    );
    match &state.offered {
        Some((at, actions)) if *at == key => actions.clone(),
        _ => {
            let actions = AnyTable::actions(plan, board);
            state.offered = Some((key, actions.clone()));
            actions
        }
    }
}

/// Frames the first faces field asks for the keyboard after its form opens.
const FOCUS_FRAMES: u8 = 3;

/// The tracker's form, dice and what it last said.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BoardTrackerState {
    /// What the rules offer on the board shown, kept until its log moves on: the board and
    /// the panel beside it both draw from it every frame, and deciding it is the rules' work.
    offered: Option<(OfferedKey, Vec<seam::Action>)>,
    /// The action whose form is open: its request as the player is filling it in.
    pub open: Option<Request>,
    pub dice_mode: DiceMode,
    /// Faces typed for the open action's pools.
    pub texts: Typed,
    shown: usize,
    /// The last refusal, with the log length it was said at.
    pub refusal: Option<(String, usize)>,
    /// The last roll's report, with the log length after its event.
    pub roll: Option<(Report, usize)>,
    /// The last request recorded: its button is greyed for a moment, until the log moves on
    /// (a double click records once).
    pub done: Option<JustDone>,
    /// A destructive request waiting for its yes.
    pub confirm: Option<(Request, String)>,
    /// House rule in the step between battles: battles survived to step up (`None`: the
    /// default, [`roster::DEFAULT_PROMOTE_AFTER`]).
    pub promote_after: Option<u32>,
    /// The form was drawn last frame (a form just opened is scrolled into view once).
    form_shown: bool,
    /// Frames left to give the form's first faces field the keyboard.
    focus_frames: u8,
    /// When the page last scrolled by itself to show the form (egui's time): clicks are held
    /// off it for a moment (see [`super::just_done::hold_clicks`]).
    scrolled_at: Option<f64>,
    /// What the players typed for each battle: its result, the replacements for the next.
    pub forms: Drafts<BattleKey, BattleForm>,
    log_len: usize,
    /// The frame's time (egui's clock): when a button recorded.
    now: f64,
    /// Each unit's buttons as this battle has shown them (action key, its place among the
    /// unit's actions of that key, and its last words), so an action the rules stop offering
    /// (the last enemy vehicle gone, the unit destroyed) leaves a greyed button in its place
    /// and the others do not slide under the pointer.
    slots: std::collections::BTreeMap<String, Vec<Slot>>,
    /// Units whose corrections by hand are shown (their "Correct" pressed), and when one was
    /// last opened or closed (a double click's second click does not close what the first
    /// opened).
    correcting: (std::collections::BTreeSet<String>, Option<f64>),
    /// Each side's own buttons this turn, by their words (a chain spent leaves a greyed
    /// button), and the turn they are of.
    side_slots: (u32, Sides<Vec<String>>),
    /// The battle the slots are of: (campaign id, battle index).
    slots_of: Option<(crate::store::CampaignId, usize)>,
    /// What had the keyboard at the end of the last frame: Enter records the open form only
    /// when it was nothing or one of the form's own fields, never a field elsewhere.
    focus_before: Option<egui::Id>,
}

/// A place on a unit's card: the action's key, its place among the unit's actions of that
/// key, its last words, and whether it is a correction (shown behind "Correct").
type Slot = (&'static str, usize, String, bool);

/// The forms of one battle, as typed: never shown in another battle, emptied once used.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BattleForm {
    /// The players' own end of the battle: the winner picked and the notes typed.
    pub result: ResultDraft,
    /// Replacements picked for the next battle: side, card, points where the player prices
    /// units (Bolt Action).
    pub bought: Vec<(Side, String, Option<u64>)>,
    /// The card each side's replacement picker shows, and the points typed for it.
    pub buying: Sides<(String, u64)>,
}

impl BoardTrackerState {
    fn say(&mut self, text: String) {
        self.refusal = Some((text, self.log_len));
    }

    fn just_done(&self, request: &Request, ui: &egui::Ui) -> bool {
        just_done::greyed(self.done.as_ref(), request, self.log_len, ui)
    }
}

/// What one frame needs of the open battle.
struct Frame<'a> {
    record: &'a CampaignRecord,
    index: usize,
    plan: &'a TablePlan,
    board: &'a Board,
    offered: Vec<seam::Action>,
    model: &'a Model,
}

impl Frame<'_> {
    fn side_name(&self, side: Side) -> String {
        side_label(&self.record.campaign, side)
    }

    /// A unit's label, with its side's name when a unit of the other side has the same label
    /// ("Regular Infantry Squad (Rifles)"): targets and screen readers must tell them apart.
    fn unit_name(&self, id: &str) -> String {
        let Some(unit) = self.board.unit(id) else {
            return id.to_string();
        };
        if self.ambiguous(unit) {
            format!("{} ({})", unit.label, self.side_name(unit.side))
        } else {
            unit.label.clone()
        }
    }

    fn ambiguous(&self, unit: &BoardUnit) -> bool {
        self.board
            .units
            .iter()
            .any(|u| u.id != unit.id && u.label == unit.label)
    }
}

fn record(event: Event) -> Action {
    Action::Model(Command::Campaign(CampaignCommand::Record(Box::new(event))))
}

/// The turn strip pinned above the board: the battle's name, the whole-battle steps (the next
/// one as the primary button) with Undo and Redo, whose go it is, and the latest event — in
/// view however far the board below is scrolled.
pub fn strip(
    state: &mut BoardTrackerState,
    model: &Model,
    open: &OpenCampaign,
    plan: &TablePlan,
    ui: &mut egui::Ui,
) -> Vec<Action> {
    let mut actions = Vec::new();
    let Some((log, frame)) = frame_of(state, model, open, plan, ui) else {
        return actions;
    };
    let board = frame.board;
    let t = theme::tokens(ui);
    ui.add_space(t.gap(Gap::S));
    ui.horizontal(|ui| {
        ui.label(
            egui::RichText::new(crate::campaign::battle_title(plan.number, &plan.name))
                .size(t.heading())
                .strong(),
        );
        let mut about = vec![
            plan.ruleset.title().to_string(),
            format!("{} against {}", plan.forces.first, plan.forces.second),
        ];
        if let Some(opening) = log.plan.opening() {
            about.extend([opening.time.clone(), opening.place.clone()]);
        }
        ui.add(egui::Label::new(egui::RichText::new(about.join(" · ")).weak()).truncate());
    });
    let turn = turn_standing(plan, board);
    // Buttons first, words after, so a growing text never moves a button; wrapped, so in a
    // laptop's window beside the action panel End turn, Undo and Redo stay on the page.
    ui.horizontal_wrapped(|ui| {
        // One primary button: of a step offered several ways (a die drawn by the app, or the
        // colour the players drew), the first.
        let mut primary_shown = false;
        // Each button straight in the wrapped row (greyed, not gone, once the battle is
        // over), so the row wraps button by button and Undo stays where it was.
        for action in frame
            .offered
            .iter()
            .filter(|a| a.unit.is_none() && a.side.is_none())
        {
            let next = !primary_shown && is_next_step(&turn, action, None);
            primary_shown |= next;
            action_button(ui, state, &frame, action, next, &mut actions);
        }
        // Undo and Redo wrap together.
        ui.horizontal(|ui| actions.extend(undo_redo(ui, &log)));
    });
    turn_banner(ui, &frame, &turn);
    status_line(state, &model.player, open, &log, ui, &mut actions);
    ui.add_space(t.gap(Gap::S));
    if let Some((request, question)) = state.confirm.clone() {
        match widgets::confirm(ui, "board_tracker", &question, "Yes, record it") {
            Some(Answer::Yes) => {
                state.confirm = None;
                decide(state, &frame, request, None, &mut actions);
            }
            Some(Answer::No) => state.confirm = None,
            None => {}
        }
    }
    actions
}

/// Draws the board of a board battle under its [`strip`]: each side's standing and unit
/// cards, the form below them in a narrow window, the players' own result, the house defaults.
pub fn ui(
    state: &mut BoardTrackerState,
    model: &Model,
    open: &OpenCampaign,
    plan: &TablePlan,
    beside: bool,
    ui: &mut egui::Ui,
) -> Vec<Action> {
    let mut actions = Vec::new();
    let record = open.record();
    let Some((log, frame)) = frame_of(state, model, open, plan, ui) else {
        return actions;
    };
    let board = frame.board;
    let turn = turn_standing(plan, board);
    // Side by side where there is room for a unit's row of buttons in each half; one above
    // the other in a small window, so no side is cut off at the right.
    let side_by_side = ui.available_width() >= SIDE_BY_SIDE_WIDTH;
    ui.add_enabled_ui(board.outcome.is_none(), |ui| {
        if side_by_side {
            ui.columns(2, |columns| {
                for (ui, side) in columns.iter_mut().zip(SIDES) {
                    side_column(state, &frame, &turn, side, ui, &mut actions);
                }
            });
        } else {
            for side in SIDES {
                side_column(state, &frame, &turn, side, ui, &mut actions);
            }
        }
    });
    // Beside the board (the action panel) where the window is wide enough; else below the
    // units, so a form opening or a report appearing moves no unit's button either way.
    if !beside {
        form_below(state, &frame, ui, &mut actions);
    }
    if board.outcome.is_none() {
        ui.separator();
        ui.weak("The rules end the battle themselves; the players may end it here (a side withdraws, a scenario's objective is held).");
        actions.extend(super::campaign::result_row(
            &mut state.forms.of((open.stored.id, open.battle)).result,
            &plan.forces,
            &log,
            ui,
        ));
    }
    // The house defaults the battle rests on where the book is silent, always one click away.
    if let Ok(engine) = engine(plan.ruleset)
        && !engine.rulings.is_empty()
    {
        egui::CollapsingHeader::new(format!(
            "House defaults of this battle ({}): where the book is silent",
            engine.rulings.len()
        ))
        .id_salt("board_rulings")
        .show(ui, |ui| {
            if !engine.turn_order.is_empty() {
                ui.label(format!("A turn: {}", engine.turn_order));
            }
            for ruling in engine.rulings {
                ui.label(format!("• {}", ruling.ruling));
            }
        });
    }
    // Below everything, so the new battle's buttons never come under a second click.
    if board.outcome.is_some() && open.battle + 1 == record.campaign.battles.len() {
        ui.separator();
        actions.extend(between_battles(
            state,
            (open.stored.id, open.battle),
            record,
            ui,
        ));
    }
    state.focus_before = ui.memory(|m| m.focused());
    actions
}

/// The battle shown and what this frame's drawing reads of it (the board, what the rules
/// offer), once [`begin_frame`] has run; `None` when no board battle is open.
fn frame_of<'a>(
    state: &mut BoardTrackerState,
    model: &'a Model,
    open: &'a OpenCampaign,
    plan: &'a TablePlan,
    ui: &egui::Ui,
) -> Option<(crate::campaign::Battle<'a>, Frame<'a>)> {
    let (Some(log), Some(board)) = (open.battle(), open.board()) else {
        return None;
    };
    begin_frame(state, open, log.events.len(), ui);
    let offered = offered(state, open, &log, plan, board);
    let frame = Frame {
        record: open.record(),
        index: open.battle,
        plan,
        offered,
        board,
        model,
    };
    Some((log, frame))
}

/// What every part of the table reads this frame (the log's length, the clock), and a clean
/// slate when another battle is shown: nothing said, rolled or half filled in for the last one
/// shows here. Called by the board and by the panel beside it, whichever draws first.
fn begin_frame(state: &mut BoardTrackerState, open: &OpenCampaign, log_len: usize, ui: &egui::Ui) {
    state.log_len = log_len;
    state.now = ui.input(|i| i.time);
    if state.slots_of != Some((open.stored.id, open.battle)) {
        // Another battle: nothing said, rolled or half filled in for the last one shows here
        // (a report is matched by the log's length, which two battles can share).
        state.slots.clear();
        state.correcting.0.clear();
        state.open = None;
        state.texts = Typed::default();
        state.refusal = None;
        state.roll = None;
        state.done = None;
        state.confirm = None;
        state.slots_of = Some((open.stored.id, open.battle));
    }
}

/// The chosen action's form and the last roll under the units (a narrow window): brought into
/// view when it opens, clicks held a moment so a double click's second lands on nothing new.
fn form_below(
    state: &mut BoardTrackerState,
    frame: &Frame<'_>,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    // Below the units, so a form opening or a report appearing moves no unit's button (a
    // double click on a button lands on the same button); it comes into view instead.
    let opened = state.open.is_some() && !state.form_shown;
    let form = ui.scope(|ui| action_form(state, frame, ui, actions));
    state.form_shown = state.open.is_some();
    // At once, not sliding: the second click of a double click on the unit's button then
    // finds the page held rather than whatever the scroll brought under the pointer.
    if opened && !ui.clip_rect().contains_rect(form.response.rect) {
        ui.scroll_to_rect_animation(
            form.response.rect,
            None,
            egui::style::ScrollAnimation::none(),
        );
        state.scrolled_at = Some(state.now);
    }
    if super::just_done::hold_clicks(ui, ui.clip_rect(), state.scrolled_at) {
        state.focus_frames = FOCUS_FRAMES;
    }
    if let Some((report, at)) = &state.roll
        && *at == state.log_len
    {
        egui::CollapsingHeader::new("Last roll")
            .default_open(true)
            .show(ui, |ui| report::roll(ui, report));
    }
}

/// The action panel beside the board: the chosen action's form with its odds and dice, or what
/// to do to open one, then the last roll. Always there while a board battle is shown, so
/// nothing on the board moves when a form opens or closes.
pub fn panel(
    state: &mut BoardTrackerState,
    model: &Model,
    open: &OpenCampaign,
    plan: &TablePlan,
    ui: &mut egui::Ui,
) -> Vec<Action> {
    let mut actions = Vec::new();
    let Some((_, frame)) = frame_of(state, model, open, plan, ui) else {
        return actions;
    };
    let board = frame.board;
    let t = theme::tokens(ui);
    theme::section_heading(ui, "Action");
    if state.open.is_some() {
        action_form(state, &frame, ui, &mut actions);
        state.form_shown = true;
    } else {
        state.form_shown = false;
        ui.weak(if board.outcome.is_some() {
            "The battle is over: its last roll stays here."
        } else {
            "Press an action on a unit card, or a side's: its form, its odds and its dice come here."
        });
    }
    if let Some((report, at)) = &state.roll
        && *at == state.log_len
    {
        ui.add_space(t.gap(Gap::M));
        egui::CollapsingHeader::new("Last roll")
            .default_open(true)
            .show(ui, |ui| report::roll(ui, report));
    }
    actions
}

/// Whether `action` is the step the rules expect next (drawn as the primary button): its key
/// is the turn's next, it is allowed, and it is the acting side's (`side`, none for the
/// whole battle's steps).
fn is_next_step(turn: &TurnStanding, action: &seam::Action, side: Option<Side>) -> bool {
    turn.next == Some(action.key)
        && action.allowed()
        && (side.is_none() || turn.acting.is_none() || turn.acting == side)
}

/// "Turn 2 of 6: …" (the number of turns where the rules set one), or how the battle ended.
fn status_text(frame: &Frame<'_>, turn: &TurnStanding) -> String {
    match &frame.board.outcome {
        Some((Some(side), reason)) => format!("{} won: {reason}", frame.side_name(*side)),
        Some((None, reason)) => format!("A draw: {reason}"),
        None => {
            let mut text = format!("{} {}", turn.turn_word, turn.turn);
            if let Some(last) = turn.last {
                text.push_str(&format!(" of {last}"));
            }
            if !turn.step.is_empty() {
                text.push_str(&format!(": {}", turn.step));
            }
            text
        }
    }
}

/// The line under the buttons, always one line high: why the last click was refused; else the
/// event this window just recorded, with "Undo this"; else the battle's latest event.
fn status_line(
    state: &mut BoardTrackerState,
    here: &crate::campaign::Recorder,
    open: &OpenCampaign,
    log: &crate::campaign::Battle<'_>,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    let latest = log
        .undo_target()
        .and_then(|seq| log.events.iter().find(|e| e.seq == seq));
    let mine = latest.filter(|e| open.recorded_here == Some((open.battle, e.id)));
    let said = state
        .refusal
        .as_ref()
        .filter(|(_, at)| *at == state.log_len)
        .map(|(text, _)| text.clone());
    ui.horizontal(|ui| {
        ui.set_min_height(ui.spacing().interact_size.y);
        // Who rolls, first on the line (its words after it may be cut, never the choice): a
        // line of the page saved for the units.
        ui.label("Dice:");
        ui.radio_value(&mut state.dice_mode, DiceMode::App, "App roll")
            .on_hover_text("The app rolls, from the seed the battle's history gives");
        ui.radio_value(&mut state.dice_mode, DiceMode::Table, "Rolled at the table")
            .on_hover_text("Type the faces the players rolled; the result is derived from them");
        ui.separator();
        if let Some(text) = said {
            let text = egui::RichText::new(text).color(ui.visuals().error_fg_color);
            ui.add(egui::Label::new(text).truncate());
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
            ui.add(egui::Label::new(describe(&event.event, log.plan)).truncate());
        } else {
            // Just after an undo, what was taken back (the latest that counts is older news).
            let undone = log.events.last().and_then(|e| match e.event {
                Event::Undo { seq } => log.events.iter().find(|u| u.seq == seq),
                _ => None,
            });
            let text = if let Some(undone) = undone {
                format!("Undone: {}", describe(&undone.event, log.plan))
            } else {
                latest.map_or_else(
                    || "Nothing recorded yet".to_string(),
                    |e| {
                        let said = format!("Latest: {}", describe(&e.event, log.plan));
                        // Another machine's event (it came with a sync): say whose it is.
                        if e.by.machine != here.machine && !e.by.is_unknown() {
                            // "recorded by Ann on desktop", or "recorded on desktop" unnamed.
                            let by = if e.by.player.is_empty() { "" } else { "by " };
                            format!("{said} — recorded {by}{}", e.by.label())
                        } else {
                            said
                        }
                    },
                )
            };
            ui.add(egui::Label::new(egui::RichText::new(text).weak()).truncate());
        }
    });
}

/// The battle's Undo and Redo (each records an event; nothing is erased), greyed when there
/// is nothing to take back or put back.
fn undo_redo(ui: &mut egui::Ui, log: &crate::campaign::Battle<'_>) -> Vec<Action> {
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

/// "Disruption 1/3", "Pins 2".
fn tally_text(tally: &Tally) -> String {
    match tally.of {
        Some(of) => format!("{} {}/{of}", tally.label, tally.now),
        None => format!("{} {}", tally.label, tally.now),
    }
}

/// One side: its name (underlined while it acts), its score against its start as a bar, what
/// it has left, its own actions, then its units, each with its standing and its actions.
fn side_column(
    state: &mut BoardTrackerState,
    frame: &Frame<'_>,
    turn: &TurnStanding,
    side: Side,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    let t = theme::tokens(ui);
    let colours = t.player(player_of(side));
    let acting = turn.acting == Some(side) && frame.board.outcome.is_none();
    // The side whose move it is is filled in its colour; the other is outlined in it.
    egui::Frame::new()
        .fill(if acting {
            colours.fill
        } else {
            egui::Color32::TRANSPARENT
        })
        .stroke(egui::Stroke::new(1.5, colours.bar))
        .corner_radius(6)
        .inner_margin(t.gap(Gap::M))
        .show(ui, |ui| {
            ui.set_min_width(ui.available_width());
            let stock = turn.stock.get(side);
            let (bars, left): (Vec<&Tally>, Vec<&Tally>) =
                stock.iter().partition(|t| t.of.is_some());
            // Name, whose move and what is left on one line where it fits.
            ui.horizontal_wrapped(|ui| {
                ui.label(
                    egui::RichText::new(side_title(frame, side))
                        .size(t.heading())
                        .strong()
                        .color(colours.text),
                );
                if acting {
                    theme::pill(ui, Status::Info, format!("{} their move", icons::DICE));
                }
                if !left.is_empty() {
                    let words: Vec<String> = left.iter().map(|t| tally_text(t)).collect();
                    ui.label(format!("Left: {}", words.join(" · ")));
                }
            });
            for bar in bars {
                let of = bar.of.unwrap_or(1).max(1);
                #[allow(clippy::cast_precision_loss)]
                let fraction = bar.now.max(0) as f32 / of as f32;
                // Green while more than half is left, amber to a quarter, red below.
                let status = if fraction > 0.5 {
                    Status::Ok
                } else if fraction > 0.25 {
                    Status::Warning
                } else {
                    Status::Danger
                };
                theme::meter(
                    ui,
                    theme::Meter {
                        label: &bar.label,
                        value: format!("{}/{of}", bar.now),
                        fraction,
                        status,
                        width: ui.available_width(),
                    },
                );
            }
            side_actions(state, frame, turn, side, ui, actions);
        });
    ui.add_space(t.gap(Gap::S));
    for unit in frame.board.side_units(side) {
        let gone = !unit.in_play();
        let card = egui::Frame::new()
            .fill(t.palette.window)
            .stroke(egui::Stroke::new(1.0, t.palette.track))
            .corner_radius(6)
            // Snug, so ten units a side fit a desktop screen.
            .inner_margin(egui::Margin::symmetric(
                t.gap(Gap::M) as i8,
                t.gap(Gap::S) as i8,
            ));
        card.show(ui, |ui| {
            ui.set_min_width(ui.available_width());
            // A unit out of play steps back: faded, its name struck through, said in a grey pill.
            if gone {
                ui.multiply_opacity(0.6);
            }
            let name = if gone {
                egui::RichText::new(&unit.label).strikethrough()
            } else {
                egui::RichText::new(&unit.label).strong()
            };
            ui.horizontal_wrapped(|ui| {
                ui.label(name).on_hover_text(unit.name());
                unit_standing_row(ui, frame.plan, unit);
            });
            let offered: Vec<&seam::Action> = frame
                .offered
                .iter()
                .filter(|a| a.unit.as_deref() == Some(unit.id.as_str()))
                .collect();
            // Each action by its key and its place among the unit's actions of that key (a
            // double and a triple move check are two).
            let placed: Vec<(&'static str, usize, &seam::Action)> = offered
                .iter()
                .enumerate()
                .map(|(i, a)| {
                    let nth = offered[..i].iter().filter(|o| o.key == a.key).count();
                    (a.key, nth, *a)
                })
                .collect();
            let slots = state.slots.entry(unit.id.clone()).or_default();
            for (key, nth, action) in &placed {
                match slots.iter_mut().find(|(k, n, _, _)| k == key && n == nth) {
                    Some(slot) => slot.2.clone_from(&action.label),
                    None => slots.push((key, *nth, action.label.clone(), action.correction)),
                }
            }
            let slots = slots.clone();
            let (corrections, verbs): (Vec<Slot>, Vec<Slot>) =
                slots.into_iter().partition(|slot| slot.3);
            // The rules' verbs on the card; the corrections by hand behind "Correct", on a
            // row of their own: a stranger reads the verbs, not the
            // bookkeeping, and the board stays one screen high.
            let open = state.correcting.0.contains(&unit.id);
            ui.horizontal_wrapped(|ui| {
                for slot in &verbs {
                    unit_slot(ui, state, frame, turn, unit, &placed, slot, actions);
                }
                if !corrections.is_empty() {
                    correct_toggle(ui, state, frame, unit, open);
                }
            });
            if open && !corrections.is_empty() {
                ui.horizontal_wrapped(|ui| {
                    for slot in &corrections {
                        unit_slot(ui, state, frame, turn, unit, &placed, slot, actions);
                    }
                });
            }
        });
    }
}

/// One place on a unit's card: the action offered there now, or a greyed button where one
/// the rules no longer offer stood.
#[allow(clippy::too_many_arguments)]
fn unit_slot(
    ui: &mut egui::Ui,
    state: &mut BoardTrackerState,
    frame: &Frame<'_>,
    turn: &TurnStanding,
    unit: &BoardUnit,
    placed: &[(&'static str, usize, &seam::Action)],
    (key, nth, label, apart): &Slot,
    actions: &mut Vec<Action>,
) {
    match placed.iter().find(|(k, n, _)| k == key && n == nth) {
        Some((_, _, action)) => {
            let next = is_next_step(turn, action, Some(unit.side));
            action_button(ui, state, frame, action, next, actions);
        }
        None => {
            let mut text = egui::RichText::new(on_card(label, &unit.label));
            if *apart {
                text = text.size(theme::tokens(ui).small());
            }
            ui.add_enabled(false, egui::Button::new(text))
                .on_disabled_hover_text("Not offered now");
        }
    }
}

/// The unit's "Correct" button: shows or hides its corrections by hand. A second press
/// within a double click's time changes nothing, so a double click opens the row.
fn correct_toggle(
    ui: &mut egui::Ui,
    state: &mut BoardTrackerState,
    frame: &Frame<'_>,
    unit: &BoardUnit,
    open: bool,
) {
    let shown = format!("{} Correct", icons::EDIT);
    let response = ui
        .add(
            egui::Button::new(egui::RichText::new(&shown).size(theme::tokens(ui).small()))
                .small()
                .selected(open),
        )
        .on_hover_text("Set a counter or a mark by hand to what the table shows");
    let name = format!("Correct ({})", frame.unit_name(&unit.id));
    response
        .widget_info(|| egui::WidgetInfo::selected(egui::Role::Button, true, open, name.clone()));
    let resting = state
        .correcting
        .1
        .is_none_or(|at| state.now - at > CORRECT_TOGGLE_HOLD);
    if response.clicked() && resting {
        state.correcting.1 = Some(state.now);
        if open {
            state.correcting.0.remove(&unit.id);
        } else {
            state.correcting.0.insert(unit.id.clone());
        }
    }
}

/// Seconds after "Correct" is pressed in which another press does nothing: longer than a
/// double click.
const CORRECT_TOGGLE_HOLD: f64 = 0.5;

/// "US" where the side's force is called as the side is, else "US — Baker Company".
fn side_title(frame: &Frame<'_>, side: Side) -> String {
    let (name, force) = (frame.side_name(side), frame.plan.forces.get(side));
    if force.trim().is_empty() || force.trim().eq_ignore_ascii_case(name.trim()) {
        name.to_string()
    } else {
        format!("{name} — {force}")
    }
}

/// The theme's colour of a side.
fn player_of(side: Side) -> Player {
    match side {
        Side::First => Player::First,
        Side::Second => Player::Second,
    }
}

/// The turn and the step it is at, in one band filled in the colour of the side whose move
/// it is (neutral between turns and once the battle is over): where the table looks first.
fn turn_banner(ui: &mut egui::Ui, frame: &Frame<'_>, turn: &TurnStanding) {
    let t = theme::tokens(ui);
    let acting = turn.acting.filter(|_| frame.board.outcome.is_none());
    let swatch = match (&frame.board.outcome, acting) {
        (Some(_), _) => t.status(Status::Info),
        (None, Some(side)) => t.player(player_of(side)),
        (None, None) => t.status(Status::Inactive),
    };
    egui::Frame::new()
        .fill(swatch.fill)
        .stroke(egui::Stroke::new(1.0, swatch.bar))
        .corner_radius(6)
        .inner_margin(egui::Margin::symmetric(
            t.gap(Gap::M) as i8,
            t.gap(Gap::S) as i8,
        ))
        .show(ui, |ui| {
            ui.set_min_width(ui.available_width());
            ui.add(
                egui::Label::new(
                    egui::RichText::new(status_text(frame, turn))
                        .size(t.heading())
                        .strong()
                        .color(swatch.text),
                )
                .wrap(),
            );
        });
}

/// A unit's counters in words ("disruption 1/3", "pins 2") and its marks as pills coloured
/// by what they do to it (suppressed in red, hidden in green).
fn unit_standing_row(ui: &mut egui::Ui, plan: &TablePlan, unit: &BoardUnit) {
    let standing = unit_standing(plan, unit);
    let words = unit_state(unit, &standing);
    if !words.is_empty() {
        ui.weak(words);
    }
    for badge in &standing.badges {
        let status = match badge.tone {
            Tone::Neutral => Status::Info,
            Tone::Good => Status::Ok,
            Tone::Warning => Status::Warning,
            Tone::Danger => Status::Danger,
            Tone::Inactive => Status::Inactive,
        };
        let status = if unit.in_play() {
            status
        } else {
            Status::Inactive
        };
        theme::pill(ui, status, &badge.label);
    }
}

/// A side's own actions (a chain used, a Staff Order, a die drawn), each where it stood earlier
/// this turn: one the rules stop offering leaves a greyed button, so a double click never lands
/// on the next.
fn side_actions(
    state: &mut BoardTrackerState,
    frame: &Frame<'_>,
    turn: &TurnStanding,
    side: Side,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    let offered: Vec<&seam::Action> = frame
        .offered
        .iter()
        .filter(|a| a.unit.is_none() && a.side == Some(side))
        .collect();
    if state.side_slots.0 != frame.board.turn {
        state.side_slots = (frame.board.turn, Sides::default());
    }
    let slots = state.side_slots.1.get_mut(side);
    for action in &offered {
        if !slots.contains(&action.label) {
            slots.push(action.label.clone());
        }
    }
    let slots = slots.clone();
    if slots.is_empty() {
        // Nothing of the side's own this turn (Bolt Action's bag is shared): no empty row.
        return;
    }
    ui.horizontal_wrapped(|ui| {
        for label in slots {
            match offered.iter().find(|a| a.label == label) {
                Some(action) => {
                    let next = is_next_step(turn, action, Some(side));
                    action_button(ui, state, frame, action, next, actions);
                }
                None => {
                    ui.add_enabled(false, egui::Button::new(label))
                        .on_disabled_hover_text("Spent: not offered now");
                }
            }
        }
    });
}

/// "disruption 1/3 · order: fire", as the ruleset reads the unit (its bookkeeping left out;
/// its marks are pills beside these words).
fn unit_state(unit: &BoardUnit, standing: &UnitStanding) -> String {
    // In running words after the unit's name: "pins 1", "disruption 1/3".
    let lower = |text: String| {
        let mut chars = text.chars();
        chars.next().map_or_else(String::new, |first| {
            first.to_lowercase().chain(chars).collect()
        })
    };
    let mut parts: Vec<String> = standing
        .tallies
        .iter()
        .filter(|t| {
            let key = t.label.to_lowercase().replace(' ', "_");
            !roster::BOOKKEEPING.contains(&key.as_str())
        })
        .map(|t| lower(tally_text(t)))
        .collect();
    if let Some(order) = &unit.order {
        parts.push(format!("order: {}", order.replace('_', " ")));
    }
    parts.join(" · ")
}

/// A button for `action`: refused by the rules, its words are faint and a click says why;
/// one that needs a form opens it; otherwise a click records it (or asks first when it is
/// destructive, or waits for the table's dice).
fn action_button(
    ui: &mut egui::Ui,
    state: &mut BoardTrackerState,
    frame: &Frame<'_>,
    action: &seam::Action,
    next: bool,
    actions: &mut Vec<Action>,
) {
    let request = action.request();
    let unit = action.unit.as_deref().and_then(|id| frame.board.unit(id));
    // On the unit's own card its name goes without saying: "Fires", not "Squad 1 fires";
    // the verb alone, its reading in brackets said on hover.
    let words = unit.map_or_else(
        || action.label.clone(),
        |u| on_card(&action.label, &u.label),
    );
    let shown = if unit.is_some() {
        verb_of(&words)
    } else {
        words.clone()
    };
    let mut text = if action.allowed() {
        egui::RichText::new(&shown)
    } else {
        egui::RichText::new(&shown).weak()
    };
    if action.correction {
        text = text.size(theme::tokens(ui).small());
    }
    if action.destructive && action.allowed() {
        text = text.color(theme::tokens(ui).danger());
    }
    // No action once the battle is over (Undo, apart from these, still is).
    let enabled = frame.board.outcome.is_none() && !state.just_done(&request, ui);
    // The step the rules expect next stands out: a stranger sees where the turn goes on.
    let button = if next {
        theme::primary(ui, &shown)
    } else if action.correction {
        egui::Button::new(text).small()
    } else {
        egui::Button::new(text)
    };
    let mut response = ui.add_enabled(enabled, button);
    if let Some(unit) = unit {
        // The button's accessible name says whose it is where its words do not ("Fire" on
        // every unit's row), and its side where two units share a name.
        let mut name = action.label.clone();
        if !name.contains(&unit.label) {
            name = format!("{name} ({})", unit.label);
        }
        if frame.ambiguous(unit) {
            name = format!("{name} ({})", frame.side_name(unit.side));
        }
        if name != shown {
            response.widget_info(|| {
                egui::WidgetInfo::labeled(egui::Role::Button, enabled, name.clone())
            });
        }
    }
    response = match &action.refused {
        Some(why) => response.on_hover_text(why),
        None if !action.costs.is_empty() => {
            let costs: Vec<String> = action.costs.iter().map(seam::Cost::text).collect();
            response.on_hover_text(format!("Spends {}", costs.join(", ")))
        }
        None if words != shown => response.on_hover_text(&words),
        None => response,
    };
    if !response.clicked() {
        return;
    }
    if let Some(why) = &action.refused {
        state.say(why.clone());
        return;
    }
    let forms = !action.targets.is_empty() || !params_of(frame, action).is_empty();
    if forms || (state.dice_mode == DiceMode::Table && rolls(frame, &request)) {
        state.texts.clear();
        state.open = Some(request);
        state.refusal = None;
        // The keyboard goes to the form: its first faces field, or nobody (Enter records).
        response.surrender_focus();
        state.focus_frames = FOCUS_FRAMES;
        return;
    }
    if action.destructive {
        state.confirm = Some((
            request,
            format!("{}? Only an undo brings it back.", action.label),
        ));
        return;
    }
    // Allowed, but the book leaves the moment to the table: ask as the rules word it.
    if let Some(question) = &action.confirm {
        state.confirm = Some((request, question.clone()));
        return;
    }
    decide(state, frame, request, None, actions);
}

/// An action's words on its unit's card: the unit's name taken out ("Order Squad 1 (Rifles)"
/// → "Order", "Squad 1 (Rifles) fires" → "Fires"); the words as they are when that leaves
/// nothing.
fn on_card(label: &str, unit: &str) -> String {
    let rest = label.replacen(unit, "", 1);
    let rest = rest.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut chars = rest.chars();
    match chars.next() {
        Some(first) if rest != label => first.to_uppercase().chain(chars).collect(),
        _ => label.to_string(),
    }
}

/// A card button's words without their reading in brackets: "Fires (every model its
/// weapon)" → "Fires".
fn verb_of(words: &str) -> String {
    match words.split_once(" (") {
        Some((verb, _)) if words.ends_with(')') && !verb.is_empty() => verb.to_string(),
        _ => words.to_string(),
    }
}

/// The parameters the player gives for `action` in this battle's ruleset.
fn params_of(frame: &Frame<'_>, action: &seam::Action) -> Vec<InputSpec> {
    // A parameter the action fixes (which player's die a draw button names) is the button's
    // own: it needs no form.
    engine(frame.plan.ruleset)
        .map(|e| (e.params)(action.key))
        .unwrap_or_default()
        .into_iter()
        .filter(|spec| !action.fixed.iter().any(|(key, _)| *key == spec.key))
        .collect()
}

/// Whether `request` rolls dice (the rules ask for at least one pool).
fn rolls(frame: &Frame<'_>, request: &Request) -> bool {
    frame
        .record
        .table_pools(frame.index, request, &TableDice::new())
        .is_ok_and(|(asked, _)| !asked.is_empty())
}

/// Records what the rules decide for `request` (with the table's faces when given), or says
/// why not.
fn decide(
    state: &mut BoardTrackerState,
    frame: &Frame<'_>,
    request: Request,
    dice: Option<&TableDice>,
    actions: &mut Vec<Action>,
) {
    let decided: Result<seam::Decided<Event>, CampaignError> = match dice {
        Some(dice) => frame
            .record
            .decide_table(frame.index, &request, &frame.model.player, dice),
        None => frame
            .record
            .decide(frame.index, &request, &frame.model.player),
    };
    match decided {
        Ok(decided) => {
            let after = state.log_len + 1;
            state.roll = decided.report.map(|r| (r, after));
            state.done = Some(JustDone::new(request, after, state.now));
            state.refusal = None;
            state.open = None;
            state.texts.clear();
            actions.push(record(decided.event));
        }
        Err(error) => state.say(error.to_string()),
    }
}

/// The open action's form: its target, its parameters, the odds, and its dice.
fn action_form(
    state: &mut BoardTrackerState,
    frame: &Frame<'_>,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    let Some(mut request) = state.open.clone() else {
        return;
    };
    let Some(action) = frame
        .offered
        .iter()
        .find(|a| {
            a.key == request.action
                && a.unit == request.unit
                && (a.side.is_none() || a.side == request.side)
                && a.fixed
                    .iter()
                    .all(|(key, value)| request.inputs.get(key) == Some(value))
        })
        .cloned()
    else {
        state.open = None;
        return;
    };
    let mut submit: Option<Option<Option<TableDice>>> = None;
    let mut fields: Vec<egui::Id> = Vec::new();
    // Enter in the last faces field once its pool is full (the grid takes the faces' keys).
    let mut typed_enter = false;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.set_min_width(ui.available_width());
        // The action's label names its unit already ("Order Rifle Squad 1"); on a line of its
        // own, wrapped, so the form fits the panel beside the board.
        ui.add(egui::Label::new(egui::RichText::new(&action.label).strong()).wrap());
        ui.horizontal(|ui| {
            // The record button first and always here, so nothing moves it.
            let ready = ready_dice(state, frame, &request);
            let label = if state.dice_mode == DiceMode::Table {
                "Record these dice"
            } else {
                "Roll and record"
            };
            if ui
                .add_enabled(ready.is_some(), theme::primary(ui, label))
                .on_hover_text("Enter")
                .clicked()
            {
                submit = Some(ready);
            }
            if ui.small_button("Cancel").clicked() {
                state.open = None;
            }
        });
        if !action.targets.is_empty() {
            let chosen = request
                .target
                .as_deref()
                .map_or_else(|| "(pick a target)".to_string(), |t| frame.unit_name(t));
            egui::ComboBox::from_label("Target")
                .selected_text(chosen)
                .show_ui(ui, |ui| {
                    for target in &action.targets {
                        ui.selectable_value(
                            &mut request.target,
                            Some(target.clone()),
                            frame.unit_name(target),
                        );
                    }
                });
        }
        for spec in params_of(frame, &action) {
            param_field(ui, &action, &spec, &mut request.inputs);
        }
        if action.mechanic.is_some() {
            let odds = AnyTable::situation(frame.plan, frame.board, &request)
                .and_then(|(id, inputs)| odds_of(id.ruleset, id.key, &inputs));
            match odds {
                Ok(report) => report::headline(ui, &report),
                Err(why) => {
                    ui.weak(why.to_string());
                }
            }
        }
        if state.dice_mode == DiceMode::Table {
            let (pools, _, answer) = table::ask_pools(&state.texts, |dice| {
                match frame.record.table_pools(frame.index, &request, dice) {
                    Ok((asked, answer)) => (asked, answer.map(|_| ())),
                    Err(e) => (Vec::new(), Err(e)),
                }
            });
            let grid = table::faces_grid(
                ui,
                "board_table_dice",
                &pools,
                &mut state.texts,
                &mut state.shown,
            );
            typed_enter = grid.submitted;
            fields = grid.fields.iter().map(|f| f.id).collect();
            if let Err(error) = &answer
                && !error
                    .table_dice()
                    .is_some_and(|e| table::still_typing(ui, e))
            {
                ui.colored_label(ui.visuals().error_fg_color, error.to_string());
            }
        }
    });
    if state.open.is_some() {
        state.open = Some(request.clone());
    }
    // The first faces field takes the keyboard for a few frames after the form opens: the
    // click that opened it may still be ending and take focus back.
    if state.focus_frames > 0
        && let Some(first) = fields.first()
    {
        if ui.memory(|m| m.has_focus(*first)) {
            state.focus_frames = 0;
        } else {
            ui.memory_mut(|m| m.request_focus(*first));
            state.focus_frames -= 1;
            ui.ctx().request_repaint();
        }
    }
    if submit.is_none() && (typed_enter || enter_records(state, ui, &fields)) {
        submit = Some(ready_dice(state, frame, &request));
    }
    if let Some(Some(dice)) = submit {
        if action.destructive {
            state.confirm = Some((
                request,
                format!("{}? Only an undo brings it back.", action.label),
            ));
        } else {
            decide(state, frame, request, dice.as_ref(), actions);
        }
    }
}

/// Enter records the open form when the keyboard was the form's last faces field or nobody's,
/// no drop-down or question is open: never an Enter typed into a field elsewhere (in an
/// earlier faces field it moves the keyboard to the next, see [`table::faces_grid`]).
fn enter_records(state: &BoardTrackerState, ui: &egui::Ui, fields: &[egui::Id]) -> bool {
    let keyboard_here = state
        .focus_before
        .is_none_or(|id| fields.last() == Some(&id));
    keyboard_here
        && state.confirm.is_none()
        && !egui::Popup::is_any_open(ui.ctx())
        && ui.input(|i| i.key_pressed(egui::Key::Enter))
}

/// With the app's dice: `Some(None)` once the request is complete. At the table: the faces
/// once every pool the rules ask for is typed (`Some(Some(dice))`).
fn ready_dice(
    state: &BoardTrackerState,
    frame: &Frame<'_>,
    request: &Request,
) -> Option<Option<TableDice>> {
    if state.dice_mode == DiceMode::App {
        return Some(None);
    }
    let (_, dice, answer) = table::ask_pools(&state.texts, |dice| {
        match frame.record.table_pools(frame.index, request, dice) {
            Ok((asked, answer)) => (asked, answer.map(|_| ())),
            Err(e) => (Vec::new(), Err(e)),
        }
    });
    answer.ok().map(|()| Some(dice))
}

/// One parameter's widget, narrowed by what the battle allows.
fn param_field(ui: &mut egui::Ui, action: &seam::Action, spec: &InputSpec, inputs: &mut Inputs) {
    let current = inputs
        .get(spec.key)
        .cloned()
        .unwrap_or_else(|| spec.default.clone());
    ui.horizontal(|ui| {
        let name = ui.label(spec.label).on_hover_text(spec.help);
        match (&spec.kind, current) {
            (InputKind::Toggle, InputValue::Flag(mut on)) => {
                if ui.checkbox(&mut on, "").labelled_by(name.id).changed() {
                    inputs.set(spec.key, InputValue::Flag(on));
                }
            }
            (InputKind::Choice(options), InputValue::Choice(mut key)) => {
                let allowed = action
                    .choices
                    .iter()
                    .find(|(k, _)| *k == spec.key)
                    .map(|(_, keys)| keys.clone());
                let offered: Vec<_> = options
                    .iter()
                    .filter(|o| allowed.as_ref().is_none_or(|keys| keys.contains(&o.key)))
                    .collect();
                // A default the battle does not allow (Run for an immobilised vehicle) is
                // never sent: the first allowed option stands in for it.
                if !offered.iter().any(|o| o.key == key)
                    && let Some(first) = offered.first()
                {
                    key = first.key;
                }
                let shown = options
                    .iter()
                    .find(|o| o.key == key)
                    .map_or(key, |o| o.label);
                egui::ComboBox::from_id_salt(("param", spec.key))
                    .selected_text(shown)
                    .show_ui(ui, |ui| {
                        for option in &offered {
                            ui.selectable_value(&mut key, option.key, option.label);
                        }
                    })
                    .response
                    .labelled_by(name.id);
                inputs.set(spec.key, InputValue::Choice(key));
            }
            (InputKind::Count { min, max }, InputValue::Count(mut n)) => {
                let top = action.limit(spec.key).map_or(*max, |l| l.max.min(*max));
                if ui
                    .add(egui::DragValue::new(&mut n).range(*min..=top))
                    .labelled_by(name.id)
                    .changed()
                {
                    inputs.set(spec.key, InputValue::Count(n));
                }
            }
            (InputKind::Number { min, max }, InputValue::Number(mut x)) => {
                if ui
                    .add(egui::DragValue::new(&mut x).range(*min..=*max).speed(0.5))
                    .labelled_by(name.id)
                    .changed()
                {
                    inputs.set(spec.key, InputValue::Number(x));
                }
            }
            _ => {
                ui.weak("set by the battle");
            }
        }
    });
}

/// The step between battles: what the roster carries into the next battle (losses as the
/// ruleset says, the experience house rule marked), and a button that applies it.
fn between_battles(
    state: &mut BoardTrackerState,
    key: BattleKey,
    record: &CampaignRecord,
    ui: &mut egui::Ui,
) -> Vec<Action> {
    let mut actions = Vec::new();
    let index = key.1;
    ui.heading("Before the next battle");
    let mut promote_after = state.promote_after.unwrap_or(roster::DEFAULT_PROMOTE_AFTER);
    // Only a ruleset with a quality ladder has the experience house rule to offer.
    let promotes =
        crate::rules::battle::table::engine(record.campaign.ruleset).is_ok_and(|e| e.promotes);
    if promotes {
        ui.horizontal(|ui| {
            let name = ui
                .label("House rule: a unit steps up its quality after")
                .on_hover_text("Not in the book: experience as a house rule (0 turns it off)");
            ui.add(egui::DragValue::new(&mut promote_after).range(0..=10))
                .labelled_by(name.id);
            ui.label("battles survived");
        });
    }
    state.promote_after = Some(promote_after);
    let form = state.forms.of(key);
    let ruleset = record.campaign.ruleset;
    let prices_cards = crate::rules::ruleset(ruleset)
        .library()
        .first()
        .is_some_and(|c| crate::rules::ruleset(ruleset).unit_cost(c).is_some());
    let mut bought: Sides<Vec<roster::Reinforcement>> = Sides::default();
    for (side, card, points) in &form.bought {
        if let Ok(r) = roster::reinforcement(ruleset, card, *points, &[]) {
            bought.get_mut(*side).push(r);
        }
    }
    let next = record.next_table_plan(index, "", promote_after, &bought);
    // Each side on a card of its own, in its colour: what its roster carries, what it costs
    // against its budget, and the replacements it buys.
    let side_by_side = ui.available_width() >= SIDE_BY_SIDE_WIDTH;
    let mut drop = None;
    let mut each_side = |ui: &mut egui::Ui, side: Side| {
        let t = theme::tokens(ui);
        let colours = t.player(player_of(side));
        egui::Frame::new()
            .stroke(egui::Stroke::new(1.5, colours.bar))
            .corner_radius(6)
            .inner_margin(t.gap(Gap::M))
            .show(ui, |ui| {
                ui.set_min_width(ui.available_width());
                let name = side_label(&record.campaign, side);
                ui.label(
                    egui::RichText::new(&name)
                        .size(t.heading())
                        .strong()
                        .color(colours.text),
                );
                if let Ok((plan, changes)) = &next {
                    for (_, line) in roster::budget_lines(plan, record.campaign.budgets.as_ref())
                        .into_iter()
                        .filter(|(s, _)| *s == side)
                    {
                        let line = line
                            .strip_prefix(&format!("{}: ", plan.side_name(side)))
                            .map_or(line.clone(), |rest| format!("Roster: {rest}"));
                        let colour = if line.ends_with("over budget") {
                            t.danger()
                        } else {
                            t.palette.text
                        };
                        ui.label(egui::RichText::new(line).color(colour));
                    }
                    let own: Vec<&roster::RosterChange> =
                        changes.iter().filter(|c| c.side == side).collect();
                    if own.is_empty() {
                        ui.weak("Every unit comes to the next battle as it is.");
                    }
                    for c in own {
                        change_row(ui, c);
                    }
                }
                ui.add_space(t.gap(Gap::S));
                ui.horizontal_wrapped(|ui| {
                    let (card, points) = form.buying.get_mut(side);
                    let label = ui.label(format!("Replacement for {name}"));
                    egui::ComboBox::from_id_salt(("buy", side))
                        .selected_text(if card.is_empty() {
                            "choose a card…"
                        } else {
                            card.as_str()
                        })
                        .show_ui(ui, |ui| {
                            for c in crate::rules::ruleset(ruleset).library() {
                                ui.selectable_value(card, c.name().to_string(), c.name());
                            }
                        })
                        .response
                        .labelled_by(label.id);
                    if !prices_cards {
                        let label = ui.label("points");
                        ui.add(egui::DragValue::new(points).range(0..=10_000))
                            .labelled_by(label.id);
                    }
                    if ui
                        .add_enabled(!card.is_empty(), egui::Button::new("Buy"))
                        .clicked()
                    {
                        let cost = (!prices_cards).then_some(*points);
                        form.bought.push((side, std::mem::take(card), cost));
                    }
                });
                for (n, (_, card, _)) in form
                    .bought
                    .iter()
                    .enumerate()
                    .filter(|(_, (s, _, _))| *s == side)
                {
                    ui.horizontal(|ui| {
                        ui.label(format!("Bought: {card}"));
                        if ui.small_button("Remove").clicked() {
                            drop = Some(n);
                        }
                    });
                }
            });
    };
    if side_by_side {
        ui.columns(2, |columns| {
            for (ui, side) in columns.iter_mut().zip(SIDES) {
                each_side(ui, side);
            }
        });
    } else {
        for side in SIDES {
            each_side(ui, side);
        }
    }
    if let Some(n) = drop {
        form.bought.remove(n);
    }
    ui.add_space(theme::tokens(ui).gap(Gap::S));
    match next {
        Ok((plan, _)) => {
            let text = format!("Set up battle {} with these changes", plan.number);
            if ui
                .add(theme::primary(ui, &text))
                .on_hover_text("Adds the next battle with the roster as shown; an undo of the battle's events does not remove it")
                .clicked()
            {
                actions.push(Action::Model(Command::Campaign(
                    CampaignCommand::NextBattle {
                        promote_after,
                        reinforcements: std::mem::take(&mut form.bought),
                    },
                )));
                // Used: nothing typed here shows again.
                *form = BattleForm::default();
            }
        }
        Err(why) => {
            ui.label(egui::RichText::new(why.to_string()).color(ui.visuals().error_fg_color));
        }
    }
    actions
}

/// One change a side's roster takes into the next battle: the unit, then the change coloured
/// by what it does to the unit (lost in red, a house rule's step marked as such).
fn change_row(ui: &mut egui::Ui, change: &roster::RosterChange) {
    let t = theme::tokens(ui);
    let colour = if change.change.contains("lost") {
        t.danger()
    } else {
        t.palette.text
    };
    let words = if change.house_rule {
        format!("{} (house rule)", change.change)
    } else {
        change.change.clone()
    };
    ui.horizontal_wrapped(|ui| {
        ui.label(egui::RichText::new(&change.unit).strong());
        ui.label(egui::RichText::new(words).color(colour));
    });
}

#[cfg(test)]
mod tests {
    use super::{on_card, verb_of};

    #[test]
    fn a_card_button_drops_the_units_own_name() {
        let squad = "Regular Infantry Squad 1 (Rifles)";
        assert_eq!(
            on_card("Order Regular Infantry Squad 1 (Rifles)", squad),
            "Order"
        );
        assert_eq!(
            on_card(
                "Regular Infantry Squad 1 (Rifles) fires (every model its weapon)",
                squad
            ),
            "Fires (every model its weapon)"
        );
        assert_eq!(on_card("Fire", "M4 75mm 1/2 (Tank Company 1)"), "Fire");
        assert_eq!(on_card(squad, squad), squad);
    }

    #[test]
    fn a_card_button_says_the_verb_and_keeps_its_reading_for_the_hover() {
        assert_eq!(verb_of("Fires (every model its weapon)"), "Fires");
        assert_eq!(verb_of("Disruption +1"), "Disruption +1");
        assert_eq!(verb_of("(odd)"), "(odd)");
    }
}
