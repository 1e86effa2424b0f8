//! The glue between the generic campaign and a ruleset's battle rules: which of the log's
//! events are the ruleset's ([`Tracked`]), and the fold of a battle's log with its rules.
//! Armour Battles (the Lorraine 1944 campaign) has a state of its own; every other ruleset's
//! battles are fought on a board ([`AnyTable`], one engine dispatched by the plan's ruleset).

use super::LoggedEvent;
use super::definition::Sides;
use super::event::Event;
use super::log::active_events;
use crate::rules::armour_battles::battle::{self, ArmourBattle};
use crate::rules::battle::BattleRules;
use crate::rules::battle::table::{AnyTable, TableEvent};

/// A ruleset's battle rules as the campaign log holds them: its events are one variant of
/// [`Event`].
pub trait Tracked: BattleRules {
    /// The ruleset's event inside a log event, if it is one.
    fn pick(event: &Event) -> Option<&Self::Event>;
    /// The ruleset's event as a log event.
    fn wrap(event: Self::Event) -> Event;
}

impl Tracked for ArmourBattle {
    fn pick(event: &Event) -> Option<&battle::Event> {
        match event {
            Event::Armour(event) => Some(event),
            _ => None,
        }
    }

    fn wrap(event: battle::Event) -> Event {
        Event::Armour(event)
    }
}

impl Tracked for AnyTable {
    fn pick(event: &Event) -> Option<&TableEvent> {
        match event {
            Event::Act(event) => Some(event),
            _ => None,
        }
    }

    fn wrap(event: TableEvent) -> Event {
        Event::Act(event)
    }
}

/// One event of the log applied to a tracked battle: the ruleset's own events by its rules,
/// the players' result as the end of the battle; notes, undo, redo and choices change nothing
/// on the table.
pub(crate) fn apply<R: Tracked>(state: &mut R::State, event: &Event) {
    match event {
        Event::BattleConcluded { winner, notes } => R::conclude(state, *winner, notes),
        other => {
            if let Some(own) = R::pick(other) {
                R::apply(state, own);
            }
        }
    }
}

/// A battle's log folded with its ruleset's rules: every event that counts, in order, from
/// the start with `carried` losses removed.
pub fn fold<R: Tracked>(
    plan: &R::Plan,
    carried: &Sides<Vec<String>>,
    events: &[LoggedEvent],
) -> R::State {
    let pairs: Vec<(u32, &Event)> = events.iter().map(|e| (e.seq, &e.event)).collect();
    let mut state = R::start(plan, carried);
    for (_, event) in active_events(&pairs) {
        apply::<R>(&mut state, event);
    }
    state
}
