//! What the Lorraine tracker recorded before Armour Battles was fought on the board, read as it
//! was written: its battle plans (`"type": "armour"`, a briefing's battle groups) and its
//! nineteen event kinds (`command_rolled`, `fire`, `rally` …). Such a file opens, replays,
//! verifies and is played on:
//!
//! - a plan becomes the board plan and opening the briefing gives ([`board_plan`]): the same
//!   unit ids, labels and counters as the scripted campaign's data file, so a battle begun
//!   under the old tracker goes on under `act` events;
//! - an event changes the board as it changed the tracker's state ([`apply`]);
//! - an event verifies as it always did, under the rules revision it was recorded by
//!   ([`rederive`]: the old tracker's checks, read off the board).

use std::collections::{BTreeMap, BTreeSet};

use super::super::battle::event::Event;
use super::super::battle::plan::{ArmourBattlePlan, SidePlan, UnitPlan};
use super::super::battle::{describe as words, verify};
use super::super::{Deployment, FirstPulse, battle_group, revision, unit_card};
use super::view;
use crate::rules::RulesetId;
use crate::rules::battle::board::{Board, Opening, TablePlan, TableUnit, numbered_label};
use crate::rules::battle::{BattleError, SIDES, Side, Sides};
use crate::rules::card::Card;

/// Lorraine battle `number` (1–3) as the first tracker's campaign files held it: both battle
/// groups of the seed's briefings, units numbered per side in company order. For tests and
/// tools that make such a file again; the campaign's own battles come from its data file.
pub fn lorraine_plan(number: u32) -> Option<ArmourBattlePlan> {
    let group = |side: &str| battle_group(&format!("lorraine-{number}-{side}"));
    let side = |key: &str| -> Option<SidePlan> {
        let g = group(key)?;
        let units = g
            .companies
            .iter()
            .flat_map(|c| c.units.iter().map(move |card| (c, card)))
            .enumerate()
            .map(|(i, (company, card))| UnitPlan {
                id: format!("{key}-{}", i + 1),
                card: card.clone(),
                company: company.name.clone(),
                deployment: company.deployment,
            })
            .collect();
        Some(SidePlan {
            battle_group: g.id.clone(),
            command_dice: g.command_dice,
            staff_orders: g.staff_orders,
            rally_dice: g.rally_dice,
            artillery_response_dice: g.artillery_response_dice,
            army_morale: g.army_morale,
            units,
        })
    };
    let us = group("us")?;
    Some(ArmourBattlePlan {
        number,
        name: us.mission.clone(),
        time: us.time.clone(),
        place: us.place.clone(),
        first_pulse: us.first_pulse,
        victory: us.victory().to_string(),
        free_deployment: false,
        sides: Sides {
            first: side("us")?,
            second: side("german")?,
        },
    })
}

/// An event the Lorraine tracker recorded.
pub type LegacyEvent = Event;
/// A battle plan the Lorraine tracker recorded.
pub type LegacyPlan = ArmourBattlePlan;

/// Every kind of [`LegacyEvent`], as stored beside its payload.
pub const KINDS: [&str; 19] = Event::KINDS;

/// The Lorraine sides' names.
pub const SIDE_NAMES: Sides<&str> = Sides {
    first: "US",
    second: "German",
};

/// The board plan and the opening of a recorded Lorraine plan.
///
/// # Errors
/// [`BattleError::MissingData`] for a card this build does not know.
pub fn board_plan(plan: &ArmourBattlePlan) -> Result<(TablePlan, Opening), BattleError> {
    let mut units: Sides<Vec<TableUnit>> = Sides::default();
    let mut opening = Opening {
        time: plan.time.clone(),
        place: plan.place.clone(),
        victory: plan.victory.clone(),
        ..Opening::default()
    };
    for side in SIDES {
        let side_plan = plan.sides.get(side);
        // The tracker only ever wrote the book's battle groups; another name is a forged file.
        battle_group(&side_plan.battle_group).ok_or_else(|| {
            BattleError::MissingData(format!("battle group {}", side_plan.battle_group))
        })?;
        *units.get_mut(side) = side_units(side_plan, plan.free_deployment)?;
        *opening.sides.get_mut(side) = side_counters(side_plan);
    }
    let briefing = battle_group(&plan.sides.first.battle_group).map_or(1, |g| g.battle);
    opening
        .counters
        .insert(view::battle::BRIEFING.to_string(), i64::from(briefing));
    if plan.first_pulse == FirstPulse::UsAutomatic {
        opening
            .counters
            .insert(view::battle::FIRST_SIDE_FIRST.to_string(), 1);
    }
    Ok((
        TablePlan {
            ruleset: RulesetId::ArmourBattles,
            number: plan.number,
            name: plan.name.clone(),
            forces: Sides {
                first: SIDE_NAMES.first.to_string(),
                second: SIDE_NAMES.second.to_string(),
            },
            units,
        },
        opening,
    ))
}

fn side_units(side: &SidePlan, free: bool) -> Result<Vec<TableUnit>, BattleError> {
    side.units
        .iter()
        .map(|u| {
            let card = unit_card(&u.card)
                .ok_or_else(|| BattleError::MissingData(format!("card {}", u.card)))?;
            let alike: Vec<&str> = side
                .units
                .iter()
                .filter(|o| o.card == u.card && o.company == u.company)
                .map(|o| o.id.as_str())
                .collect();
            let mut counters = BTreeMap::new();
            let mut marks = BTreeSet::new();
            match u.deployment {
                Deployment::Reserve { from_turn } if !free => {
                    counters.insert(
                        view::counter::RESERVE_FROM.to_string(),
                        i64::from(from_turn),
                    );
                }
                Deployment::Hidden {} if !free => {
                    marks.insert(view::mark::HIDDEN.to_string());
                }
                _ => {}
            }
            Ok(TableUnit {
                id: u.id.clone(),
                label: numbered_label(&u.card, &u.company, &alike, &u.id),
                card: Card::ArmourBattles(card.clone()),
                counters,
                marks,
            })
        })
        .collect()
}

fn side_counters(side: &SidePlan) -> BTreeMap<String, i64> {
    let mut counters: BTreeMap<String, i64> = [
        (view::side::COMMAND_DICE, side.command_dice),
        (view::side::STAFF_ORDERS, side.staff_orders),
        (view::side::RALLY_DICE, side.rally_dice),
        (view::side::ARMY_MORALE, side.army_morale),
    ]
    .into_iter()
    .map(|(key, value)| (key.to_string(), i64::from(value)))
    .collect();
    if let Some(dice) = side.artillery_response_dice {
        counters.insert(
            view::side::ARTILLERY_RESPONSE_DICE.to_string(),
            i64::from(dice),
        );
    }
    counters
}

/// `event` applied to the board as it was to the tracker's state. Lenient like every fold.
pub fn apply(plan: &TablePlan, board: &mut Board, event: &Event) {
    let mut state = as_recorded(plan, board);
    state.apply(event);
    view::write(&state, board);
}

/// The event the rules of `revision` give for `event`'s dice in the battle as `board` holds
/// it: verification compares it with the recorded one.
///
/// # Errors
/// The event could not have been recorded here.
pub fn rederive(
    plan: &TablePlan,
    board: &Board,
    event: &Event,
    revision: u32,
) -> Result<Event, BattleError> {
    verify::rederive(&as_recorded(plan, board), event, revision)
}

/// The battle as the first tracker's rules read it: its last chain ended the turn at once.
fn as_recorded(plan: &TablePlan, board: &Board) -> super::super::battle::BattleState {
    let mut state = view::state_of(plan, board);
    state.last_pulse_open = false;
    state
}

/// The revisions the recorded events replay under, oldest first.
pub fn revisions() -> std::ops::RangeInclusive<u32> {
    revision::FIRST..=revision::CURRENT
}

/// The revision an event from before revisions were recorded was resolved under, where its
/// dice show it: a fire that rolled forced back for a unit it dispersed was resolved under
/// revision 1 (RULINGS "Revisions").
pub fn resolved_under(event: &Event) -> Option<u32> {
    match event {
        Event::Fire(fire) if fire.dispersed && fire.forced_back.is_some() => Some(revision::FIRST),
        _ => None,
    }
}

/// The event in the Lorraine tracker's words.
pub fn describe(plan: &TablePlan, event: &Event) -> String {
    words::describe(event, &|id| plan.label(id).to_string())
}

/// The side named in a recorded event's words: "US" or "German".
pub fn side_name(side: Side) -> &'static str {
    SIDE_NAMES.get(side)
}
