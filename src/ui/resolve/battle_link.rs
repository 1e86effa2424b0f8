//! The Armour Battles fire form tied to the open campaign battle: the shooter and the target
//! are picked among the battle's units, the target's Disruption and suppression come from
//! the table, and a roll is recorded in the battle's log with one click.
//!
//! The roll is not copied: the event is rebuilt from the logged inputs and dice through the
//! same function the report's dice came from (`mechanics::fire_roll`), which gives the same
//! dice, and `campaign::tracker::fire_event` checks it against the battle as it is now.

use crate::campaign::definition::SIDES;
use crate::campaign::event::{FireKind, FireSetup};
use crate::campaign::state::{Phase, UnitStatus};
use crate::campaign::{BattlePlan, BattleState, Event, tracker};
use crate::rules::RulesetId;
use crate::rules::armour_battles::fire::FireMode;
use crate::rules::armour_battles::mechanics;
use crate::rules::resolution::{InputValue, MechanicId};
use crate::ui::action::Action;
use crate::ui::model::{CampaignCommand, CardKey, Command, Model};

use super::{Form, RollEntry};

/// Armour Battles fire: the mechanic a campaign battle links to.
pub const FIRE: MechanicId = MechanicId {
    ruleset: RulesetId::ArmourBattles,
    key: "fire",
};

fn book_card(name: &str) -> CardKey {
    CardKey::Book(RulesetId::ArmourBattles, name.to_string())
}

/// The battle's units picked in the form, by unit id ("us-3").
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BattlePick {
    pub attacker: Option<String>,
    pub target: Option<String>,
    /// The dice log length when a roll was last recorded: the same roll is not recorded twice.
    pub recorded_roll: Option<usize>,
    /// Why the last roll could not be recorded.
    pub error: Option<String>,
}

/// The open campaign battle when it is an Armour Battles battle being tracked.
pub struct OpenBattle {
    /// "Battle 1: Meeting Engagement".
    pub name: String,
    pub state: BattleState,
}

pub fn open_battle(model: &Model) -> Option<OpenBattle> {
    let open = model.campaign.as_ref()?;
    let battle = open.battle()?;
    if !matches!(battle.plan, BattlePlan::Armour(_)) {
        return None;
    }
    Some(OpenBattle {
        name: battle.plan.title(),
        state: open.record().state(open.battle)?,
    })
}

/// "us-3 · M4 75mm (Tank Company 1)" with the unit's Disruption when it has any.
fn unit_text(state: &BattleState, id: &str) -> String {
    state.unit(id).map_or_else(
        || id.to_string(),
        |u| {
            let hidden = if u.status == UnitStatus::Hidden {
                ", hidden"
            } else {
                ""
            };
            format!("{id} · {} [DP {}{hidden}]", u.label(), u.disruption)
        },
    )
}

fn unit_combo(
    ui: &mut egui::Ui,
    label: &str,
    value: &mut Option<String>,
    state: &BattleState,
    units: &[String],
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
                for id in units {
                    ui.selectable_value(value, Some(id.clone()), unit_text(state, id));
                }
            })
            .response
            .labelled_by(label.id);
    });
    *value != before
}

/// The form's "From the campaign battle" section. Picking a unit sets the card in the fire
/// form; the target's Disruption and suppression follow the battle every frame, because the
/// battle only accepts a roll made against its current state.
pub fn form(pick: &mut BattlePick, form: &mut Form, battle: &OpenBattle, ui: &mut egui::Ui) {
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
    let shooters: Vec<String> = SIDES
        .iter()
        .flat_map(|&side| tracker::shooters(state, side))
        .map(|u| u.id.clone())
        .collect();
    if unit_combo(ui, "Attacker unit", &mut pick.attacker, state, &shooters) {
        if let Some(u) = pick.attacker.as_deref().and_then(|id| state.unit(id)) {
            form.cards.insert(("attacker", 0), book_card(&u.card));
            // A hidden unit that opens fire does so from ambush (the tracker reads it so too).
            form.inputs
                .set("ambush", InputValue::Flag(u.status == UnitStatus::Hidden));
        }
        // A target on the same side is no longer a target.
        let side = pick
            .attacker
            .as_deref()
            .and_then(|id| state.unit(id))
            .map(|u| u.side);
        if let (Some(side), Some(t)) = (side, pick.target.as_deref().and_then(|id| state.unit(id)))
            && t.side == side
        {
            pick.target = None;
        }
    }
    let attacker_side = pick
        .attacker
        .as_deref()
        .and_then(|id| state.unit(id))
        .map(|u| u.side);
    let targets: Vec<String> = SIDES
        .iter()
        .filter(|&&side| attacker_side.is_none_or(|a| a != side))
        .flat_map(|&side| tracker::targets(state, side))
        .map(|u| u.id.clone())
        .collect();
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
    if let Some(t) = pick.target.as_deref().and_then(|id| state.unit(id)) {
        form.inputs
            .set("target_disruption", InputValue::Count(t.disruption.into()));
        form.inputs
            .set("target_suppressed", InputValue::Flag(t.suppressed));
        ui.label(format!(
            "Target Disruption ({}) and suppression ({}) come from the battle.",
            t.disruption,
            if t.suppressed { "yes" } else { "no" }
        ));
    }
}

/// The battle event for `entry`'s roll by the picked units, or why it cannot be recorded.
fn fire_event(entry: &RollEntry, pick: &BattlePick, state: &BattleState) -> Result<Event, String> {
    let (Some(attacker), Some(target)) = (pick.attacker.as_deref(), pick.target.as_deref()) else {
        return Err("Pick the attacker and target units of the battle first.".into());
    };
    let (mode, roll) = mechanics::fire_roll(&entry.subject.inputs, &mut entry.source.roller())
        .map_err(|e| e.to_string())?;
    // A disengage is rolled as opportunity fire; record it as what was rolled.
    let kind = match mode {
        FireMode::Opportunity => FireKind::Opportunity,
        FireMode::Direct => FireKind::Direct,
    };
    // The situation the dice were rolled in, recorded with them (campaign verify re-derives
    // the pools from it).
    let shot = mechanics::direct_fire(&entry.subject.inputs).map_err(|e| e.to_string())?;
    let setup = FireSetup::of_fire(&shot.situation);
    tracker::fire_event(state, kind, Some(attacker), target, setup, &roll)
        .map_err(|e| e.to_string())
}

/// The "Record in Battle N" button under an Armour Battles roll made with battle units:
/// it records exactly the dice shown.
pub fn record_button(
    pick: &mut BattlePick,
    battle: &OpenBattle,
    entry: &RollEntry,
    log_len: usize,
    ui: &mut egui::Ui,
) -> Option<Action> {
    if pick.attacker.is_none() || pick.target.is_none() {
        return None;
    }
    let recorded = pick.recorded_roll == Some(log_len);
    let text = if recorded {
        format!("Recorded in {}", battle.name)
    } else {
        format!("Record in {}", battle.name)
    };
    let clicked = ui
        .add_enabled(!recorded, egui::Button::new(text))
        .on_hover_text("Apply this roll's result to the picked units of the campaign battle")
        .clicked();
    if let Some(error) = &pick.error {
        ui.colored_label(ui.visuals().error_fg_color, error);
    }
    if !clicked {
        return None;
    }
    match fire_event(entry, pick, &battle.state) {
        Ok(event) => {
            pick.error = None;
            pick.recorded_roll = Some(log_len);
            Some(Action::Model(Command::Campaign(CampaignCommand::Record(
                Box::new(event),
            ))))
        }
        Err(error) => {
            pick.error = Some(error);
            None
        }
    }
}
