//! Undo and redo over an append-only log. Undo never removes anything: it appends
//! `Undo { seq }`, and folding skips the event it names; `Redo { seq }` puts it back.

use std::collections::HashSet;

use super::event::Event;

/// The events that count, in order: every non-meta event not currently undone.
pub fn active_events<'a>(events: &[(u32, &'a Event)]) -> Vec<(u32, &'a Event)> {
    let mut undone: HashSet<u32> = HashSet::new();
    for (_, event) in events {
        match event {
            Event::Undo { seq } => {
                undone.insert(*seq);
            }
            Event::Redo { seq } => {
                undone.remove(seq);
            }
            _ => {}
        }
    }
    events
        .iter()
        .filter(|(seq, event)| !event.is_meta() && !undone.contains(seq))
        .copied()
        .collect()
}

/// The event an undo would take back: the latest one that still counts.
pub fn undo_target(events: &[(u32, &Event)]) -> Option<u32> {
    active_events(events).last().map(|(seq, _)| *seq)
}

/// The event a redo would put back: the most recent undo not yet redone, as long as no new
/// event was recorded after it (a new event starts a new future, as in any editor).
pub fn redo_target(events: &[(u32, &Event)]) -> Option<u32> {
    let mut stack: Vec<u32> = Vec::new();
    for (_, event) in events {
        match event {
            Event::Undo { seq } => stack.push(*seq),
            Event::Redo { seq } => {
                if stack.last() == Some(seq) {
                    stack.pop();
                }
            }
            _ => stack.clear(),
        }
    }
    stack.last().copied()
}

/// Whether the event numbered `seq` is currently undone.
pub fn is_undone(events: &[(u32, &Event)], seq: u32) -> bool {
    let mut undone = false;
    for (_, event) in events {
        match event {
            Event::Undo { seq: s } if *s == seq => undone = true,
            Event::Redo { seq: s } if *s == seq => undone = false,
            _ => {}
        }
    }
    undone
}
