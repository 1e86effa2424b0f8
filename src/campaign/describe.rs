//! One line of plain words per event, for the log, the command line and the after-action
//! report: the campaign's own events here, a ruleset's in its battle module.

use super::definition::BattlePlan;
use super::event::Event;
use crate::rules::armour_battles::battle::ArmourBattle;
use crate::rules::battle::BattleRules;
use crate::rules::battle::table::AnyTable;

pub use crate::rules::armour_battles::battle::describe::faces;

/// The unit's label in the plan with its copy number ("Panther Ausf G 1/2 (Panzer Company
/// 1)"), as the tracker and the printed cards show it, or its id.
pub fn unit_label(plan: &BattlePlan, id: &str) -> String {
    match plan {
        BattlePlan::Armour(plan) => plan.unit_label(id).unwrap_or_else(|| id.to_string()),
        BattlePlan::Table(plan) => plan.label(id).to_string(),
        BattlePlan::Simple(_) => id.to_string(),
    }
}

/// The event in words.
pub fn describe(event: &Event, plan: &BattlePlan) -> String {
    match event {
        Event::Armour(event) => match plan {
            BattlePlan::Armour(plan) => ArmourBattle::describe(plan, event),
            // An event out of place is still shown (verification names it), in its own words.
            BattlePlan::Simple(_) | BattlePlan::Table(_) => event.kind().replace('_', " "),
        },
        Event::Act(event) => match plan {
            BattlePlan::Table(plan) => AnyTable::describe(plan, event),
            _ => "act".to_string(),
        },
        Event::BattleConcluded { winner, notes } => {
            let who = winner.map_or_else(
                || "a draw".to_string(),
                |s| format!("{} wins", side_name(plan, s)),
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
            format!("{} unit {u}: {fate}", side_name(plan, *s))
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

/// A side as the battle names it: the US and the Germans in Lorraine, each force by its name
/// in a battle between two forces.
fn side_name(plan: &BattlePlan, side: crate::rules::battle::Side) -> String {
    let force = match plan {
        BattlePlan::Armour(_) => None,
        BattlePlan::Simple(simple) => Some(simple.forces.get(side)),
        BattlePlan::Table(table) => Some(table.forces.get(side)),
    };
    match force.map(|f| f.trim()) {
        Some(name) if !name.is_empty() => name.to_string(),
        _ => side.label().to_string(),
    }
}
