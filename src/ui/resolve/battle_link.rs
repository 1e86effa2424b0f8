//! The Armour Battles fire form tied to the open campaign battle: the shooter and the target
//! are picked among the battle's units (named as the tracker and the printed cards name them),
//! and the form then holds the battle's own situation for them — the cards, the target's
//! Disruption and suppression, ambush for a hidden firer — re-read from the table every frame,
//! so a shot recorded elsewhere never leaves it stale.
//!
//! It is the tracker's fire action, not a second path: the odds shown are the mechanic's for
//! [`BattleRules::situation`]'s inputs, and "Roll in Battle N" is the battle's decision
//! ([`CampaignRecord::decide`]: its rules, the seed its history gives) with the mechanic's
//! report of the dice it records. The view's own Roll stays a what-if with a seed of the
//! player's; its dice are never recorded in a battle.

use crate::campaign::{BattlePlan, BattleState, CampaignError, CampaignRecord, Event};
use crate::rules::RulesetId;
use crate::rules::armour_battles::battle::actions::key;
use crate::rules::armour_battles::battle::state::{Phase, UnitState};
use crate::rules::armour_battles::battle::{ArmourBattle, ArmourBattlePlan};
use crate::rules::battle::{BattleRules, Decided, Request};
use crate::rules::dice::TableDice;
use crate::rules::resolution::{Inputs, MechanicId, Report};
use crate::ui::action::Action;
use crate::ui::model::{CampaignCommand, CardKey, Command, Model};

use super::Form;

/// Armour Battles fire: the mechanic a campaign battle links to.
pub const FIRE: MechanicId = MechanicId {
    ruleset: RulesetId::ArmourBattles,
    key: "fire",
};

fn book_card(name: &str) -> CardKey {
    CardKey::Book(RulesetId::ArmourBattles, name.to_string())
}

/// The battle's units picked in the form, by unit id ("us-3").
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BattlePick {
    pub attacker: Option<String>,
    pub target: Option<String>,
    /// The last roll made in the battle from here, with the log length after its event.
    pub rolled: Option<(Report, usize)>,
    /// Why the last roll in the battle was refused, with the log length it was said at.
    pub error: Option<(String, usize)>,
}

/// The open campaign battle when it is an Armour Battles battle being tracked.
pub struct OpenBattle<'a> {
    /// "Battle 1: Meeting Engagement".
    pub name: String,
    pub record: &'a CampaignRecord,
    pub index: usize,
    pub plan: &'a ArmourBattlePlan,
    pub state: BattleState,
    /// Events in its log now.
    pub log_len: usize,
}

pub fn open_battle(model: &Model) -> Option<OpenBattle<'_>> {
    let open = model.campaign.as_ref()?;
    let battle = open.battle()?;
    let BattlePlan::Armour(plan) = battle.plan else {
        return None;
    };
    Some(OpenBattle {
        name: battle.plan.title(),
        record: open.record(),
        index: open.battle,
        plan,
        state: open.state()?.clone(),
        log_len: battle.events.len(),
    })
}

/// "M4 75mm 1/2 (Tank Company 1), US [DP 1, hidden]".
fn unit_text(state: &BattleState, id: &str) -> String {
    state.unit(id).map_or_else(
        || id.to_string(),
        |u| {
            let hidden =
                if u.status == crate::rules::armour_battles::battle::state::UnitStatus::Hidden {
                    ", hidden"
                } else {
                    ""
                };
            format!(
                "{}, {} [DP {}{hidden}]",
                state.unit_label(u),
                u.side.label(),
                u.disruption
            )
        },
    )
}

fn unit_combo(
    ui: &mut egui::Ui,
    label: &str,
    value: &mut Option<String>,
    state: &BattleState,
    units: &[&UnitState],
) -> bool {
    let before = value.clone();
    ui.horizontal(|ui| {
        let label = ui.label(label);
        egui::ComboBox::from_id_salt(label.id)
            .selected_text(
                value
                    .as_deref()
                    .map_or("(choose)".to_string(), |id| unit_text(state, id)),
            )
            .width(260.0)
            .show_ui(ui, |ui| {
                ui.selectable_value(value, None, "(none)");
                for u in units {
                    ui.selectable_value(value, Some(u.id.clone()), unit_text(state, &u.id));
                }
            })
            .response
            .labelled_by(label.id);
    });
    *value != before
}

/// The battle's fire request for the picked units with the form's situation (what the
/// player set; the battle fills in the rest).
fn request(pick: &BattlePick, inputs: &Inputs) -> Request {
    let mut request = Request::new(key::FIRE);
    request.unit = pick.attacker.clone();
    request.target = pick.target.clone();
    request.inputs = crate::ui::tracker::players_inputs(inputs);
    request
}

/// The form's "From the campaign battle" section. Picking units sets the cards in the fire
/// form; the battle's situation for them is written into the form every frame.
pub fn form(pick: &mut BattlePick, form: &mut Form, battle: &OpenBattle<'_>, ui: &mut egui::Ui) {
    ui.strong(format!("From the campaign battle: {}", battle.name));
    if form.inputs.choice("kind") == "artillery" {
        ui.label("Artillery missions are called and fired from the Campaign view, which keeps the mission's state.");
        return;
    }
    let state = &battle.state;
    if state.phase == Phase::Over {
        ui.label("This battle is over: its log takes no more fire.");
        return;
    }
    let offered = ArmourBattle::actions(battle.plan, state);
    let shooters: Vec<&UnitState> = offered
        .iter()
        .filter(|a| a.key == key::FIRE)
        .filter_map(|a| state.unit(a.unit.as_deref()?))
        .collect();
    let fire = pick.attacker.as_deref().and_then(|id| {
        offered
            .iter()
            .find(|a| a.key == key::FIRE && a.unit.as_deref() == Some(id))
    });
    if pick.attacker.is_some() && fire.is_none() {
        pick.attacker = None;
    }
    let targets: Vec<&UnitState> = fire
        .map(|a| a.targets.iter().filter_map(|id| state.unit(id)).collect())
        .unwrap_or_default();
    // A target dispersed (or otherwise gone) since it was picked is no longer one.
    if pick
        .target
        .as_deref()
        .is_some_and(|id| !targets.iter().any(|u| u.id == id))
    {
        pick.target = None;
    }
    if unit_combo(ui, "Attacker unit", &mut pick.attacker, state, &shooters)
        && let Some(u) = pick.attacker.as_deref().and_then(|id| state.unit(id))
    {
        form.cards.insert(("attacker", 0), book_card(&u.card));
    }
    if unit_combo(ui, "Target unit", &mut pick.target, state, &targets)
        && let Some(u) = pick.target.as_deref().and_then(|id| state.unit(id))
    {
        form.cards.insert(("target", 0), book_card(&u.card));
    }
    // The card combos below may have been changed by hand: then the pick no longer applies.
    let card_of = |id: &Option<String>| {
        id.as_deref()
            .and_then(|id| state.unit(id))
            .map(|u| book_card(&u.card))
    };
    for (unit, key) in [
        (&mut pick.attacker, "attacker"),
        (&mut pick.target, "target"),
    ] {
        if card_of(unit).is_some() && card_of(unit).as_ref() != form.cards.get(&(key, 0)) {
            *unit = None;
        }
    }
    if let Some(why) = fire.and_then(|a| a.refused.as_deref()) {
        ui.colored_label(super::super::theme::tokens(ui).danger(), why);
    }
    if let Some(inputs) = situation(pick, form, battle) {
        for key in ["target_disruption", "target_suppressed", "ambush"] {
            if let Some(value) = inputs.get(key) {
                form.inputs.set(key, value.clone());
            }
        }
        ui.label(format!(
            "From the battle: the target's Disruption ({}) and suppression ({}); {}.",
            inputs.count("target_disruption"),
            if inputs.flag("target_suppressed") {
                "yes"
            } else {
                "no"
            },
            if inputs.flag("ambush") {
                "the hidden firer fires from ambush"
            } else {
                "no ambush (the firer is on the table)"
            }
        ));
    }
}

/// The battle's inputs for the picked units and the form's situation, when both are picked
/// and the battle allows the shot.
pub fn situation(pick: &BattlePick, form: &Form, battle: &OpenBattle<'_>) -> Option<Inputs> {
    pick.attacker.as_ref()?;
    pick.target.as_ref()?;
    ArmourBattle::situation(battle.plan, &battle.state, &request(pick, &form.inputs))
        .ok()
        .map(|(_, inputs)| inputs)
}

/// What the battle records for a roll from here: its rules' decision for the picked units and
/// the form's `inputs`, with the seed its history gives or with the faces typed at the table.
pub(in crate::ui) fn decide(
    pick: &BattlePick,
    inputs: &Inputs,
    battle: &OpenBattle<'_>,
    table: Option<&TableDice>,
    player: &crate::campaign::Recorder,
) -> Result<Decided<Event>, CampaignError> {
    let request = &request(pick, inputs);
    match table {
        Some(dice) => battle
            .record
            .decide_table(battle.index, request, player, dice),
        None => battle.record.decide(battle.index, request, player),
    }
}

/// "Roll in Battle N" under the Resolve view's own roll, and what it rolled: the battle's
/// decision for the picked units, recorded at once. Drawn before any result text, so it stays
/// under the pointer.
pub fn roll_button(
    pick: &mut BattlePick,
    battle: &OpenBattle<'_>,
    inputs: &Inputs,
    table: Option<TableDice>,
    player: &crate::campaign::Recorder,
    ui: &mut egui::Ui,
) -> Option<Action> {
    if pick.attacker.is_none() || pick.target.is_none() {
        return None;
    }
    let rolled_now = pick
        .rolled
        .as_ref()
        .is_some_and(|(_, at)| *at == battle.log_len);
    let (text, hover) = match table {
        Some(_) => (
            format!("Record these dice in {}", battle.name),
            "Record this shot in the campaign battle with the faces typed above: its rules, its log, the dice rolled at the table",
        ),
        None => (
            format!("Roll in {}", battle.name),
            "Roll this shot in the campaign battle and record it: the battle's dice (the seed its history gives), its rules, its log",
        ),
    };
    let clicked = ui
        .add_enabled(!rolled_now, egui::Button::new(text))
        .on_hover_text(hover)
        .on_disabled_hover_text(
            "Recorded: the battle moves on before it takes another roll from here",
        )
        .clicked();
    let mut action = None;
    if clicked {
        match decide(pick, inputs, battle, table.as_ref(), player) {
            Ok(decided) => {
                pick.error = None;
                pick.rolled = decided.report.map(|report| (report, battle.log_len + 1));
                action = Some(Action::Model(Command::Campaign(CampaignCommand::Record(
                    Box::new(decided.event),
                ))));
            }
            Err(error) => pick.error = Some((error.to_string(), battle.log_len)),
        }
    }
    if let Some((error, at)) = &pick.error
        && *at == battle.log_len
    {
        ui.colored_label(super::super::theme::tokens(ui).danger(), error);
    }
    if let Some((report, at)) = &pick.rolled
        && *at == battle.log_len
    {
        egui::Frame::group(ui.style()).show(ui, |ui| super::report::roll(ui, report));
    }
    action
}
