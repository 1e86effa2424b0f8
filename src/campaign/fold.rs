//! A battle's log folded onto its board: the board as its ruleset starts it (and a scripted
//! campaign's briefing opens it), then every event that counts — an action's effects, a
//! recorded event of the first Lorraine tracker as it changed the table ([`super::legacy`]),
//! the players' end of the battle. Undo, redo and forks decide which events count; notes and
//! choices change nothing on the table.

use super::LoggedEvent;
use super::definition::{BoardSetup, Sides};
use super::event::Event;
use super::log::active_events;
use crate::rules::battle::BattleRules;
use crate::rules::battle::board::{Board, TablePlan};
use crate::rules::battle::table::AnyTable;

/// The board before anything happened, with `carried` losses (card names per side) taken off.
pub fn start(setup: &BoardSetup<'_>, carried: &Sides<Vec<String>>) -> Board {
    AnyTable::opened(&setup.plan, carried, setup.opening.as_deref())
}

/// One event of the log applied to the board.
pub(crate) fn apply(plan: &TablePlan, board: &mut Board, event: &Event) {
    match event {
        Event::BattleConcluded { winner, notes } => AnyTable::conclude(board, *winner, notes),
        Event::Act(act) => AnyTable::apply(board, act),
        Event::Armour(recorded) => super::legacy::apply(plan, board, recorded),
        _ => {}
    }
}

/// The battle's log folded: every event that counts, in order.
pub fn fold(setup: &BoardSetup<'_>, carried: &Sides<Vec<String>>, events: &[LoggedEvent]) -> Board {
    let pairs: Vec<(u32, &Event)> = events.iter().map(|e| (e.seq, &e.event)).collect();
    let mut board = start(setup, carried);
    for (_, event) in active_events(&pairs) {
        apply(&setup.plan, &mut board, event);
    }
    board
}
