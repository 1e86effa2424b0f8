//! One line of plain words per event, for the log, the command line and the after-action
//! report: the campaign's own events here, a ruleset's battle actions in its own words
//! ([`crate::rules::battle::table::TableRules::describe`]).

use super::definition::BattlePlan;
use super::event::Event;
use super::sides::battle_side_name;
use crate::rules::battle::BattleRules;
use crate::rules::battle::table::AnyTable;

/// The unit's label in the plan ("Panther Ausf G 1/2 (Panzer Company 1)"), as the table and
/// the printed cards show it, or its id.
pub fn unit_label(plan: &BattlePlan, id: &str) -> String {
    match plan.board_setup() {
        Some(setup) => setup.plan.label(id).to_string(),
        None => id.to_string(),
    }
}

/// The event in words.
pub fn describe(event: &Event, plan: &BattlePlan) -> String {
    match event {
        Event::Armour(event) => match plan.board_setup() {
            Some(setup) => super::legacy::describe(&setup.plan, event),
            // An event out of place is still shown (verification names it), in its own words.
            None => event.kind().replace('_', " "),
        },
        Event::Act(event) => match plan.board_setup() {
            Some(setup) => AnyTable::describe(&setup.plan, event),
            None => "act".to_string(),
        },
        Event::BattleConcluded { winner, notes } => {
            let who = winner.map_or_else(
                || "a draw".to_string(),
                |s| format!("{} wins", battle_side_name(plan, s)),
            );
            if notes.is_empty() {
                format!("Battle ended: {who}")
            } else {
                format!("Battle ended: {who} ({notes})")
            }
        }
        Event::UnitFate {
            side: s,
            unit: u,
            fate,
        } => {
            format!("{} unit {u}: {fate}", battle_side_name(plan, *s))
        }
        Event::Note { text } => format!("Note: {text}"),
        Event::Undo { seq } => format!("Undo of event {seq}"),
        Event::BranchChosen { keep, .. } => format!(
            "Fork settled: the branch starting with event {} is kept, the other set aside",
            keep.short()
        ),
        Event::Redo { seq } => format!("Redo of event {seq}"),
        Event::BattleAdded { plan } => format!("{} set up", plan.title()),
    }
}
