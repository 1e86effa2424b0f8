//! The battle tracker for the table: the turn and its command dice, both sides' chains, wild
//! dice, Staff Orders and artillery missions, every unit's state, and one-click fire, artillery
//! and rally resolution that is recorded against the units. Each button builds an event with
//! [`crate::campaign::tracker`] (which refuses what the rules forbid, in words shown here) and
//! emits it; nothing here changes data itself.

use super::action::Action;
use super::model::{CampaignCommand, Command};
use super::resolve::pct;
use crate::campaign::event::{ChainUse, WildUse};
use crate::campaign::state::{BattleState, Breakdown, MissionStatus, Phase, UnitState, UnitStatus};
use crate::campaign::{self, ArmourBattlePlan, Battle, CampaignError, Event, describe, tracker};
use crate::rules::armour_battles::artillery::ArtillerySituation;
use crate::rules::armour_battles::fire::{self, FireMode, FireSituation, MoveOrder, RangeBand};
use crate::rules::armour_battles::rally::RallySituation;
use crate::rules::armour_battles::{self, Side, SpecialRule};
use crate::rules::dice::Roller;

/// The tracker's pickers and the seed for the next roll.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackerState {
    /// The seed the next roll uses; every event records its seed, so any roll replays.
    pub next_seed: u64,
    pub attacker: Option<String>,
    pub target: Option<String>,
    pub range: RangeBand,
    pub flank: bool,
    pub cover: bool,
    pub uphill: bool,
    pub opportunity: bool,
    pub movement: MoveOrder,
    /// Ambush fire from a hidden firer; offered only while the firer is hidden.
    pub ambush: bool,
    /// The target breaks off or disengages as it is fired on.
    pub evading: bool,
    pub battery: Option<String>,
    pub burst_target: Option<String>,
    pub rally_distance: f64,
    pub rally_cover: bool,
    pub rally_no_sight: bool,
    /// The last thing that happened or went wrong, in words, with the log length it was
    /// said at: once the log moves on (an undo, another player's event) it no longer holds.
    pub message: Option<Message>,
    /// Events in the battle's log as this frame began.
    log_len: usize,
}

/// What the tracker last said, in words.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub text: String,
    pub is_error: bool,
    /// The log's length when it was said (an event it announces is the one after).
    log_len: usize,
}

impl Message {
    /// Whether it still describes the log: a refusal until anything is recorded, an event
    /// until anything else is.
    fn current(&self, log_len: usize) -> bool {
        let expected = if self.is_error {
            self.log_len
        } else {
            self.log_len + 1
        };
        expected == log_len
    }
}

impl Default for TrackerState {
    fn default() -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1944, |d| d.as_nanos() as u64);
        Self {
            next_seed: nanos,
            attacker: None,
            target: None,
            range: RangeBand::Effective,
            flank: false,
            cover: false,
            uphill: false,
            opportunity: false,
            movement: MoveOrder::Single,
            ambush: true,
            evading: false,
            battery: None,
            burst_target: None,
            rally_distance: 18.0,
            rally_cover: false,
            rally_no_sight: false,
            message: None,
            log_len: 0,
        }
    }
}

impl TrackerState {
    /// A roller for the next roll; the seed moves on so no two rolls share one.
    fn roller(&mut self) -> Roller {
        let seed = self.next_seed;
        // SplitMix64 step: well spread, never repeats within 2^64 rolls.
        self.next_seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        Roller::new(seed)
    }

    fn say(&mut self, text: String, is_error: bool) {
        self.message = Some(Message {
            text,
            is_error,
            log_len: self.log_len,
        });
    }

    /// The message, if it still describes the log.
    pub fn current_message(&self) -> Option<&Message> {
        self.message.as_ref().filter(|m| m.current(self.log_len))
    }
}

fn record(event: Event) -> Action {
    Action::Model(Command::Campaign(CampaignCommand::Record(Box::new(event))))
}

/// Turns a tracker result into an action, or a message when the rules refuse it.
fn emit(
    state: &mut TrackerState,
    plan: &ArmourBattlePlan,
    result: Result<Event, CampaignError>,
    actions: &mut Vec<Action>,
) {
    match result {
        Ok(event) => {
            let plan = campaign::BattlePlan::Armour(plan.clone());
            state.say(describe::describe(&event, &plan), false);
            actions.push(record(event));
        }
        Err(error) => state.say(error.to_string(), true),
    }
}

// Odds shown on hover before a roll: computed only while the pointer is over the button.

fn command_odds_text(plan: &ArmourBattlePlan, battle: &BattleState, ui: &mut egui::Ui) {
    match tracker::command_odds(plan, battle) {
        Ok(o) => {
            ui.label(format!(
                "Command Failure: US {} · German {} · both {}",
                pct(o.us_failure.p()),
                pct(o.german_failure.p()),
                pct(o.both_fail.p())
            ));
            ui.label(format!(
                "First pulse: US {} · German {} · turn ends {}",
                pct(o.p_us_first()),
                pct(o.p_german_first()),
                pct(o.p_turn_ends())
            ));
        }
        Err(error) => {
            ui.label(error.to_string());
        }
    }
}

fn rally_odds_text(battle: &BattleState, unit: &str, situation: RallySituation, ui: &mut egui::Ui) {
    match tracker::rally_odds(battle, unit, situation) {
        Ok(o) => {
            ui.label(format!(
                "{}D at {}+ against {}D at {}+",
                o.rally_dice, o.rally_tn, o.opponent_dice, o.opponent_tn
            ));
            let lines: Vec<String> = (1..=o.disruption)
                .map(|n| format!("at least {n} removed: {}", pct(o.p_removed_at_least(n))))
                .collect();
            ui.label(lines.join("\n"));
            if !o.house_defaults.is_empty() {
                ui.weak("Rally Table: house default (RULINGS.md)");
            }
        }
        Err(error) => {
            ui.label(error.to_string());
        }
    }
}

fn move_odds_text(battle: &BattleState, unit: &str, order: MoveOrder, ui: &mut egui::Ui) {
    match tracker::move_odds(battle, unit, order) {
        Ok(o) => {
            ui.label(format!("Breakdown: {}", pct(o.p_breakdown())));
        }
        Err(error) => {
            ui.label(error.to_string());
        }
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

pub fn ui(
    state: &mut TrackerState,
    plan: &ArmourBattlePlan,
    battle: &BattleState,
    log: &Battle<'_>,
    ui: &mut egui::Ui,
) -> Vec<Action> {
    let mut actions = Vec::new();
    state.log_len = log.events.len();
    ui.heading(format!("Battle {}: {}", plan.number, plan.name));
    ui.weak(format!(
        "{} · {} · {}",
        plan.time,
        plan.place,
        plan.first_pulse.label()
    ));
    // Buttons first, words after: a phase text that grows or shrinks never moves a button.
    ui.horizontal(|ui| {
        if ui
            .add_enabled(
                battle.phase == Phase::AwaitingCommandRoll,
                egui::Button::new("Roll command dice"),
            )
            .on_hover_ui(|ui| command_odds_text(plan, battle, ui))
            .clicked()
        {
            let mut roller = state.roller();
            let result = tracker::roll_command(plan, battle, &mut roller);
            emit(state, plan, result, &mut actions);
        }
        if ui
            .add_enabled(
                matches!(battle.phase, Phase::Pulse { .. }),
                egui::Button::new("End turn"),
            )
            .clicked()
        {
            emit(state, plan, tracker::end_turn(battle), &mut actions);
        }
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
        ui.add(egui::Label::new(egui::RichText::new(phase_text(battle)).strong()).truncate());
    });
    // Always one line, so the first roll of the battle moves nothing below it.
    let command_line = battle.last_command.as_ref().map_or_else(
        || "No command dice rolled yet".to_string(),
        |command| {
            let plan_any = campaign::BattlePlan::Armour(plan.clone());
            describe::describe(&Event::CommandRolled(command.clone()), &plan_any)
        },
    );
    ui.add(egui::Label::new(command_line).truncate());
    status_line(state, plan, log, ui, &mut actions);
    // A finished battle stays readable, but its log takes nothing more but an undo.
    ui.add_enabled_ui(battle.phase != Phase::Over, |ui| {
        ui.columns(2, |columns| {
            for (ui, side) in columns.iter_mut().zip(campaign::definition::SIDES) {
                side_panel(state, plan, battle, side, ui, &mut actions);
            }
        });
        ui.separator();
        fire_panel(state, plan, battle, ui, &mut actions);
        artillery_panel(state, plan, battle, ui, &mut actions);
        ui.separator();
        units_table(state, plan, battle, ui, &mut actions);
    });
    actions
}

/// One line, always one line high, so nothing below it moves: what was just done (with a
/// one-click undo while it is the latest event) or refused; after an undo or another
/// player's event, the latest event that counts.
fn status_line(
    state: &TrackerState,
    plan: &ArmourBattlePlan,
    log: &Battle<'_>,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    let plan_any = campaign::BattlePlan::Armour(plan.clone());
    ui.horizontal(|ui| {
        ui.set_min_height(ui.spacing().interact_size.y);
        if let Some(message) = state.current_message() {
            if !message.is_error
                && ui
                    .small_button("Undo this")
                    .on_hover_text("Records an undo of this event (Ctrl+Z)")
                    .clicked()
            {
                actions.push(Action::Model(Command::Campaign(CampaignCommand::Undo)));
            }
            let color = if message.is_error {
                ui.visuals().error_fg_color
            } else {
                ui.visuals().text_color()
            };
            ui.add(egui::Label::new(egui::RichText::new(&message.text).color(color)).truncate());
        } else if let Some(seq) = log.undo_target()
            && let Some(latest) = log.events.iter().find(|e| e.seq == seq)
            // The command roll already has its own line above.
            && !matches!(latest.event, Event::CommandRolled(_))
        {
            ui.add(
                egui::Label::new(
                    egui::RichText::new(format!(
                        "Latest: {}",
                        describe::describe(&latest.event, &plan_any)
                    ))
                    .weak(),
                )
                .truncate(),
            );
        }
    });
}

/// "Left: 3×4, 2×6 · 1 wild die · 2 Staff Orders".
fn left_this_pulse(s: &crate::campaign::state::SideState) -> String {
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
    plan: &ArmourBattlePlan,
    battle: &BattleState,
    side: Side,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
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
    ui.add(egui::ProgressBar::new(fraction).text(format!(
        "Army Morale {} / {}",
        s.army_morale, s.army_morale_start
    )));
    let waiting = if s.staff_orders_next_turn > 0 {
        format!(" (+{} next turn)", s.staff_orders_next_turn)
    } else {
        String::new()
    };
    ui.label(format!(
        "Command dice {} · Staff Orders {}{waiting} · Rally dice {}{}",
        s.command_dice,
        s.staff_orders,
        s.rally_dice,
        s.artillery_response_dice
            .map_or_else(String::new, |d| format!(" · Artillery response {d}"))
    ));
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
    let has_reserves = battle
        .units
        .iter()
        .any(|u| u.side == side && matches!(u.status, UnitStatus::Reserve { .. }));
    ui.horizontal_wrapped(|ui| {
        for chain in &s.chains {
            let text = format!("{}×{}", chain.dice, chain.face);
            ui.menu_button(text, |ui| {
                if ui.button("Use for orders").clicked() {
                    emit(
                        state,
                        plan,
                        tracker::use_chain(battle, side, chain.face, chain.dice, ChainUse::Orders),
                        actions,
                    );
                    ui.close();
                }
                if ui.button("Use one die for orders").clicked() {
                    emit(
                        state,
                        plan,
                        tracker::use_chain(battle, side, chain.face, 1, ChainUse::Orders),
                        actions,
                    );
                    ui.close();
                }
                if ui.button("Restock Staff Orders").clicked() {
                    emit(
                        state,
                        plan,
                        tracker::use_chain(
                            battle,
                            side,
                            chain.face,
                            chain.dice,
                            ChainUse::RestockStaffOrders,
                        ),
                        actions,
                    );
                    ui.close();
                }
                if has_reserves && ui.button("Commit reserves (one die)").clicked() {
                    emit(
                        state,
                        plan,
                        tracker::use_chain(battle, side, chain.face, 1, ChainUse::CommitReserves),
                        actions,
                    );
                    ui.close();
                }
            })
            .response
            .on_hover_text("A Dice Chain: one pulse's orders");
        }
        if s.wild > 0 {
            ui.menu_button(format!("{} wild", s.wild), |ui| {
                if active && ui.button("Use as a chain for orders").clicked() {
                    emit(
                        state,
                        plan,
                        tracker::use_chain(battle, side, 6, s.wild, ChainUse::Orders),
                        actions,
                    );
                    ui.close();
                }
                if ui.button("+1D to a roll").clicked() {
                    emit(
                        state,
                        plan,
                        tracker::use_wild(battle, side, 1, WildUse::Bonus),
                        actions,
                    );
                    ui.close();
                }
                if ui.button("Instant Staff Orders (all)").clicked() {
                    emit(
                        state,
                        plan,
                        tracker::use_wild(battle, side, s.wild, WildUse::InstantStaffOrders),
                        actions,
                    );
                    ui.close();
                }
                if ui.button("Stock one Staff Order for next turn").clicked() {
                    emit(
                        state,
                        plan,
                        tracker::use_wild(battle, side, 1, WildUse::StockStaffOrders),
                        actions,
                    );
                    ui.close();
                }
            });
        }
        if ui
            .add_enabled(s.staff_orders > 0, egui::Button::new("Use a Staff Order"))
            .clicked()
        {
            emit(
                state,
                plan,
                tracker::use_staff_order(battle, side, "order or +1D"),
                actions,
            );
        }
    });
    for mission in &s.missions {
        let label = battle
            .unit(&mission.battery)
            .map_or_else(|| mission.battery.clone(), |u| battle.unit_label(u));
        ui.horizontal(|ui| {
            let status = match mission.status {
                MissionStatus::FiringNow => "fires for effect now",
                MissionStatus::Pending => "fires next Logistics Phase",
                MissionStatus::CancelledByFailure => "cancelled by Command Failure",
            };
            ui.label(format!("{label}: {status}"));
            if mission.status == MissionStatus::CancelledByFailure
                && ui.small_button("Keep (Staff Order)").clicked()
            {
                emit(
                    state,
                    plan,
                    tracker::maintain_mission(battle, &mission.battery),
                    actions,
                );
            }
            if ui.small_button("Cancel").clicked() {
                actions.push(record(Event::MissionCancelled {
                    side,
                    battery: mission.battery.clone(),
                }));
            }
        });
    }
}

fn unit_combo(
    battle: &BattleState,
    ui: &mut egui::Ui,
    salt: &str,
    label: &str,
    units: &[&UnitState],
    pick: &mut Option<String>,
) {
    let text = ui.label(label);
    let selected = pick
        .as_deref()
        .and_then(|id| units.iter().find(|u| u.id == id))
        .map_or_else(|| "choose…".to_string(), |u| battle.unit_label(u));
    egui::ComboBox::from_id_salt(salt)
        .selected_text(selected)
        .width(220.0)
        .show_ui(ui, |ui| {
            for u in units {
                let marker = if u.fire_marker { " (fired)" } else { "" };
                ui.selectable_value(
                    pick,
                    Some(u.id.clone()),
                    format!("{}, {}{marker}", battle.unit_label(u), u.side.label()),
                );
            }
        })
        .response
        .labelled_by(text.id);
}

fn fire_panel(
    state: &mut TrackerState,
    plan: &ArmourBattlePlan,
    battle: &BattleState,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    ui.strong("Direct or opportunity fire");
    let shooters: Vec<&UnitState> = campaign::definition::SIDES
        .into_iter()
        .flat_map(|side| tracker::shooters(battle, side))
        .collect();
    let attacker_side = state
        .attacker
        .as_deref()
        .and_then(|id| battle.unit(id))
        .map(|u| u.side);
    let targets: Vec<&UnitState> = match attacker_side {
        Some(side) => tracker::targets(battle, campaign::definition::opponent(side)),
        None => Vec::new(),
    };
    if state
        .target
        .as_deref()
        .is_some_and(|id| !targets.iter().any(|u| u.id == id))
    {
        state.target = None;
    }
    ui.horizontal_wrapped(|ui| {
        unit_combo(
            battle,
            ui,
            "fire_attacker",
            "Attacker",
            &shooters,
            &mut state.attacker,
        );
        unit_combo(
            battle,
            ui,
            "fire_target",
            "Target",
            &targets,
            &mut state.target,
        );
    });
    ui.horizontal_wrapped(|ui| {
        for (range, text) in [
            (RangeBand::Short, "Short"),
            (RangeBand::Effective, "Effective"),
            (RangeBand::Long, "Long"),
        ] {
            ui.radio_value(&mut state.range, range, text);
        }
        ui.checkbox(&mut state.flank, "Flank/rear").on_hover_text(
            "Fired on from its flank or rear: sloped armour counts its second number",
        );
        ui.checkbox(&mut state.cover, "Target in cover");
        ui.checkbox(&mut state.uphill, "Target uphill");
        ui.checkbox(&mut state.opportunity, "Opportunity fire")
            .on_hover_text("Fired during the enemy's pulse at a unit that moves or fires");
    });
    ui.horizontal_wrapped(|ui| {
        for order in [MoveOrder::Single, MoveOrder::Double, MoveOrder::Triple] {
            ui.radio_value(&mut state.movement, order, order.label())
                .on_hover_text("The firer's move order this pulse");
        }
        let hidden = state
            .attacker
            .as_deref()
            .and_then(|id| battle.unit(id))
            .is_some_and(|u| u.status == UnitStatus::Hidden);
        if hidden {
            ui.checkbox(&mut state.ambush, "Ambush fire")
                .on_hover_text("A hidden firer may fire from ambush (and is revealed)");
        } else {
            ui.add_enabled(false, egui::Checkbox::new(&mut false, "Ambush fire"))
                .on_disabled_hover_text("Only a hidden firer fires from ambush");
        }
        ui.checkbox(&mut state.evading, "Target evading")
            .on_hover_text(
                "The target breaks off (Break-Off, Shoot and Scoot) or disengages; \
                 a disengaging target can only be caught by opportunity fire",
            );
    });
    let (Some(attacker), Some(target)) = (
        state.attacker.as_deref().and_then(|id| battle.unit(id)),
        state.target.as_deref().and_then(|id| battle.unit(id)),
    ) else {
        ui.weak("Choose a firing unit and its target.");
        // Present but disabled, so choosing the units moves nothing below.
        ui.add_enabled(false, egui::Button::new("Roll fire and apply"));
        return;
    };
    let situation = FireSituation {
        mode: if state.opportunity {
            FireMode::Opportunity
        } else {
            FireMode::Direct
        },
        range: state.range,
        flank: state.flank,
        cover: state.cover,
        uphill: state.uphill,
        attacker_move: state.movement,
        ambush: state.ambush && attacker.status == UnitStatus::Hidden,
        evasion: if state.evading {
            armour_battles::unit_card(&target.card).map(fire::Evasion::for_target)
        } else {
            None
        },
        target_suppressed: target.suppressed,
        target_disruption: target.disruption,
        ..FireSituation::default()
    };
    let odds = armour_battles::unit_card(&attacker.card)
        .zip(armour_battles::unit_card(&target.card))
        .map(|(a, t)| fire::fire_odds(a, t, &situation));
    match odds {
        Some(Ok(odds)) => {
            let d = odds.disruption();
            ui.label(format!(
                "{}D at {}+ against {}D at {}+ · new Disruption 0: {} · 1: {} · 2: {} · 3+: {} · suppressed {} · dispersed {}",
                odds.attacker_dice,
                odds.attacker_tn,
                odds.reaction_dice,
                odds.reaction_tn,
                pct(d[0]),
                pct(d[1]),
                pct(d[2]),
                pct(d[3]),
                pct(odds.p_suppressed()),
                pct(odds.p_dispersed()),
            ));
        }
        Some(Err(error)) => {
            ui.colored_label(ui.visuals().error_fg_color, error.to_string());
        }
        None => {}
    }
    if ui.button("Roll fire and apply").clicked() {
        let mut roller = state.roller();
        let (a, t) = (attacker.id.clone(), target.id.clone());
        let result = tracker::fire(battle, &a, &t, situation, &mut roller);
        emit(state, plan, result, actions);
    }
}

fn artillery_panel(
    state: &mut TrackerState,
    plan: &ArmourBattlePlan,
    battle: &BattleState,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    let ready: Vec<&UnitState> = campaign::definition::SIDES
        .into_iter()
        .flat_map(|side| battle.side(side).missions.iter())
        .filter(|m| m.status == MissionStatus::FiringNow)
        .filter_map(|m| battle.unit(&m.battery))
        .collect();
    if ready.is_empty() {
        return;
    }
    ui.strong("Artillery fire for effect");
    let side = state
        .battery
        .as_deref()
        .and_then(|id| battle.unit(id))
        .map(|u| u.side);
    let targets: Vec<&UnitState> = side.map_or_else(Vec::new, |s| {
        tracker::targets(battle, campaign::definition::opponent(s))
    });
    ui.horizontal_wrapped(|ui| {
        unit_combo(battle, ui, "battery", "Battery", &ready, &mut state.battery);
        unit_combo(
            battle,
            ui,
            "burst_target",
            "Unit under the burst",
            &targets,
            &mut state.burst_target,
        );
        if ui.button("Roll and apply").clicked() {
            if let (Some(b), Some(t)) = (state.battery.clone(), state.burst_target.clone()) {
                let mut roller = state.roller();
                let result = tracker::artillery_fire(
                    battle,
                    &b,
                    &t,
                    ArtillerySituation::default(),
                    &mut roller,
                );
                emit(state, plan, result, actions);
            } else {
                state.say(
                    "Choose the battery and the unit under the burst".to_string(),
                    true,
                );
            }
        }
        if let Some(b) = state.battery.clone()
            && ui.button("Mission done").clicked()
            && let Some(side) = side
        {
            actions.push(record(Event::ArtilleryFired { side, battery: b }));
        }
    });
}

fn units_table(
    state: &mut TrackerState,
    plan: &ArmourBattlePlan,
    battle: &BattleState,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    ui.horizontal(|ui| {
        ui.strong("Units");
        let label = ui.label("Rally: inches to the closest enemy");
        ui.add(
            egui::DragValue::new(&mut state.rally_distance)
                .range(0.0..=120.0)
                .suffix("″"),
        )
        .labelled_by(label.id);
        ui.checkbox(&mut state.rally_cover, "in cover");
        ui.checkbox(&mut state.rally_no_sight, "no line of sight to an enemy");
    });
    let mut committed: Vec<(Side, String)> = Vec::new();
    egui::Grid::new("units").striped(true).num_columns(6).show(ui, |ui| {
        for heading in ["Unit", "Where", "Disruption", "Suppressed", "Fire marker", ""] {
            ui.strong(heading);
        }
        ui.end_row();
        for u in &battle.units {
            ui.label(format!("{} {}", u.side.label(), battle.unit_label(u)));
            let broken = match u.breakdown {
                Breakdown::BrokenDown { .. } => " · broken down",
                Breakdown::Repaired { turn } if turn == battle.turn => " · repaired (no move)",
                _ => "",
            };
            ui.label(format!("{}{broken}", u.status.label()));
            let live = !u.is_dispersed() && u.status != UnitStatus::LostEarlier;
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(live && u.disruption > 0, egui::Button::new("−").small())
                    .on_hover_text("Correct by hand")
                    .clicked()
                {
                    emit(state, plan, tracker::set_disruption(battle, &u.id, u.disruption - 1), actions);
                }
                ui.monospace(format!("{}/{}", u.disruption, u.cohesion));
                if ui
                    .add_enabled(live && u.disruption + 1 < u.cohesion, egui::Button::new("+").small())
                    .on_hover_text("Correct by hand")
                    .clicked()
                {
                    emit(state, plan, tracker::set_disruption(battle, &u.id, u.disruption + 1), actions);
                }
            });
            let mut suppressed = u.suppressed;
            if ui
                .add_enabled(live, egui::Checkbox::new(&mut suppressed, ""))
                .on_hover_text("Suppressed")
                .changed()
            {
                emit(state, plan, tracker::set_suppressed(battle, &u.id, suppressed), actions);
            }
            let mut marked = u.fire_marker;
            if ui
                .add_enabled(live, egui::Checkbox::new(&mut marked, ""))
                .on_hover_text("Fire marker")
                .changed()
            {
                actions.push(record(Event::FireMarkerSet { unit: u.id.clone(), marked }));
            }
            ui.horizontal(|ui| {
                if !live {
                    return;
                }
                match u.status {
                    UnitStatus::Hidden
                        if ui.small_button("Reveal").clicked() => {
                            emit(state, plan, tracker::reveal(battle, &u.id), actions);
                        }
                    UnitStatus::Reserve { .. }
                        if !committed.contains(&(u.side, u.company.clone())) => {
                            committed.push((u.side, u.company.clone()));
                            if ui.small_button(format!("Commit {}", u.company)).clicked() {
                                emit(state, plan, tracker::commit_reserves(battle, u.side, &u.company), actions);
                            }
                        }
                    UnitStatus::OffTable
                        if ui.small_button("Call fire mission").clicked() => {
                            let mut roller = state.roller();
                            let result = tracker::call_artillery(battle, &u.id, &mut roller);
                            emit(state, plan, result, actions);
                        }
                    _ => {}
                }
                let situation = RallySituation {
                    distance_inches: state.rally_distance,
                    cover: state.rally_cover,
                    no_line_of_sight: state.rally_no_sight,
                    ..RallySituation::default()
                };
                if u.disruption > 0
                    && ui
                        .small_button("Rally")
                        .on_hover_ui(|ui| rally_odds_text(battle, &u.id, situation, ui))
                        .clicked()
                {
                    let mut roller = state.roller();
                    let result = tracker::rally(battle, &u.id, situation, &mut roller);
                    emit(state, plan, result, actions);
                }
                let unreliable = armour_battles::unit_card(&u.card)
                    .is_some_and(|c| c.has(SpecialRule::PoorReliability));
                if unreliable {
                    if matches!(u.breakdown, Breakdown::BrokenDown { .. }) {
                        if ui.small_button("Repair (command die)").clicked() {
                            emit(state, plan, tracker::repair(battle, &u.id, false), actions);
                        }
                        if ui.small_button("Repair (Staff Order)").clicked() {
                            emit(state, plan, tracker::repair(battle, &u.id, true), actions);
                        }
                    } else {
                        for order in [MoveOrder::Double, MoveOrder::Triple] {
                            if ui
                                .small_button(format!("{} check", order.label()))
                                .on_hover_ui(|ui| move_odds_text(battle, &u.id, order, ui))
                                .clicked()
                            {
                                let mut roller = state.roller();
                                let result = tracker::check_reliability(battle, &u.id, order, &mut roller);
                                emit(state, plan, result, actions);
                            }
                        }
                    }
                }
                if ui
                    .small_button("Disperse")
                    .on_hover_text("Removed by something the tracker did not resolve: rolls 1D3 Army Morale")
                    .clicked()
                {
                    let mut roller = state.roller();
                    let result = tracker::disperse(battle, &u.id, &mut roller);
                    emit(state, plan, result, actions);
                }
            });
            ui.end_row();
        }
    });
}
