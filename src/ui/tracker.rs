//! The battle tracker for the table: the turn and its command dice, both sides' chains, wild
//! dice, Staff Orders and artillery missions, every unit's state, and one-click fire, artillery
//! and rally resolution that is recorded against the units. Each button builds an event with
//! [`crate::campaign::tracker`] (which refuses what the rules forbid, in words shown here) and
//! emits it; nothing here changes data itself.

use super::Action;
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
    pub battery: Option<String>,
    pub burst_target: Option<String>,
    pub rally_distance: f64,
    pub rally_cover: bool,
    pub rally_no_sight: bool,
    /// The last thing that happened or went wrong, in words.
    pub message: Option<(String, bool)>,
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
            battery: None,
            burst_target: None,
            rally_distance: 18.0,
            rally_cover: false,
            rally_no_sight: false,
            message: None,
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
            state.message = Some((describe::describe(&event, &plan), false));
            actions.push(record(event));
        }
        Err(error) => state.message = Some((error.to_string(), true)),
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
    ui.heading(format!("Battle {}: {}", plan.number, plan.name));
    ui.weak(format!(
        "{} · {} · {}",
        plan.time,
        plan.place,
        plan.first_pulse.label()
    ));
    ui.horizontal(|ui| {
        ui.strong(phase_text(battle));
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
            .clicked()
        {
            actions.push(Action::Model(Command::Campaign(CampaignCommand::Redo)));
        }
    });
    if let Some(command) = &battle.last_command {
        let plan_any = campaign::BattlePlan::Armour(plan.clone());
        ui.label(describe::describe(
            &Event::CommandRolled(command.clone()),
            &plan_any,
        ));
    }
    if let Some((text, is_error)) = &state.message {
        let color = if *is_error {
            ui.visuals().error_fg_color
        } else {
            ui.visuals().text_color()
        };
        ui.colored_label(color, text);
    }
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
    if s.failed {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            "Command Failure this turn: no reserves; missions cancelled unless kept",
        );
    }
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
                if ui.button("Commit reserves (one die)").clicked() {
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
            .map_or_else(|| mission.battery.clone(), UnitState::label);
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
        .map_or_else(|| "choose…".to_string(), |u| u.label());
    egui::ComboBox::from_id_salt(salt)
        .selected_text(selected)
        .width(220.0)
        .show_ui(ui, |ui| {
            for u in units {
                let marker = if u.fire_marker { " (fired)" } else { "" };
                ui.selectable_value(
                    pick,
                    Some(u.id.clone()),
                    format!("{}, {}{marker}", u.label(), u.side.label()),
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
            ui,
            "fire_attacker",
            "Attacker",
            &shooters,
            &mut state.attacker,
        );
        unit_combo(ui, "fire_target", "Target", &targets, &mut state.target);
    });
    ui.horizontal_wrapped(|ui| {
        for (range, text) in [
            (RangeBand::Short, "Short"),
            (RangeBand::Effective, "Effective"),
            (RangeBand::Long, "Long"),
        ] {
            ui.radio_value(&mut state.range, range, text);
        }
        ui.checkbox(&mut state.flank, "Flank/rear");
        ui.checkbox(&mut state.cover, "Target in cover");
        ui.checkbox(&mut state.uphill, "Target uphill");
        ui.checkbox(&mut state.opportunity, "Opportunity fire");
    });
    let (Some(attacker), Some(target)) = (
        state.attacker.as_deref().and_then(|id| battle.unit(id)),
        state.target.as_deref().and_then(|id| battle.unit(id)),
    ) else {
        ui.weak("Choose a firing unit and its target.");
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
        attacker_move: MoveOrder::Single,
        ambush: attacker.status == UnitStatus::Hidden,
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
        unit_combo(ui, "battery", "Battery", &ready, &mut state.battery);
        unit_combo(
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
                state.message = Some((
                    "Choose the battery and the unit under the burst".to_string(),
                    true,
                ));
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
            ui.label(format!("{} {}", u.side.label(), u.label()));
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
