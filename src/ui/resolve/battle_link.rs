//! The Armour Battles fire form tied to the open campaign battle: the shooter and the target
//! are picked among the battle's units, the target's Disruption and suppression come from
//! the table, and a roll is recorded in the battle's log with one click.
//!
//! The roll is not copied: the event is rebuilt from the same setup and seed, which gives the
//! same dice, and `campaign::tracker::fire_event` checks it against the battle as it is now.

use crate::campaign::definition::SIDES;
use crate::campaign::event::{FireKind, FireSetup};
use crate::campaign::state::{Phase, UnitStatus};
use crate::campaign::{BattlePlan, BattleState, Event, tracker};
use crate::rules::armour_battles::fire;
use crate::rules::dice::Roller;
use crate::ui::model::Model;

use super::{Prepared, Setup, ShotKind, prepare};

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
pub fn form(pick: &mut BattlePick, setup: &mut Setup, battle: &OpenBattle, ui: &mut egui::Ui) {
    ui.strong(format!("From the campaign battle: {}", battle.name));
    if setup.kind == ShotKind::Artillery {
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
            setup.attacker = Some(u.card.clone());
            // A hidden unit that opens fire does so from ambush (the tracker reads it so too).
            setup.ambush = u.status == UnitStatus::Hidden;
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
        setup.target = Some(u.card.clone());
    }
    // The card combos above may have been changed by hand: then the pick no longer applies.
    let card_of =
        |id: &Option<String>| id.as_deref().and_then(|id| state.unit(id)).map(|u| &u.card);
    if card_of(&pick.attacker).is_some() && card_of(&pick.attacker) != setup.attacker.as_ref() {
        pick.attacker = None;
    }
    if card_of(&pick.target).is_some() && card_of(&pick.target) != setup.target.as_ref() {
        pick.target = None;
    }
    if let Some(t) = pick.target.as_deref().and_then(|id| state.unit(id)) {
        setup.target_disruption = t.disruption;
        setup.target_suppressed = t.suppressed;
        ui.label(format!(
            "Target Disruption ({}) and suppression ({}) come from the battle.",
            t.disruption,
            if t.suppressed { "yes" } else { "no" }
        ));
    }
}

/// The battle event for a roll of `setup` with `seed` by the picked units, or why it cannot
/// be recorded.
pub fn fire_event(
    setup: &Setup,
    seed: u64,
    pick: &BattlePick,
    state: &BattleState,
) -> Result<Event, String> {
    let (Some(attacker), Some(target)) = (pick.attacker.as_deref(), pick.target.as_deref()) else {
        return Err("Pick the attacker and target units of the battle first.".into());
    };
    let kind = match setup.kind {
        ShotKind::Direct => FireKind::Direct,
        ShotKind::Opportunity => FireKind::Opportunity,
        ShotKind::Artillery => {
            return Err("Artillery is fired from the Campaign view's artillery panel.".into());
        }
    };
    let Prepared::Fire {
        attacker: a,
        target: t,
        situation,
        ..
    } = prepare(setup)?
    else {
        return Err("Only direct and opportunity fire can be applied here.".into());
    };
    let roll =
        fire::roll_fire(a, t, &situation, &mut Roller::new(seed)).map_err(|e| e.to_string())?;
    // A disengage is rolled as opportunity fire; record it as what was rolled.
    let kind = match situation.mode {
        fire::FireMode::Opportunity => FireKind::Opportunity,
        fire::FireMode::Direct => kind,
    };
    let setup = FireSetup::of_fire(&situation);
    tracker::fire_event(state, kind, Some(attacker), target, setup, &roll)
        .map_err(|e| e.to_string())
}
