//! A battle's events as a tree, laid out into the line the table plays and everything else.
//!
//! Every event names the event it follows in its battle (`follows`; none for the first). On one
//! machine that makes a chain. When two machines record after the same event and their logs are
//! merged, that event has two children: a **fork**. The players settle it with a
//! `branch_chosen` event that follows the fork point and names the branch kept; the other
//! branch stays, set aside, and a later choice at the same point can take it back. Where
//! several choices name one fork point the one recorded last counts (recording time, then id,
//! so every machine picks the same one).
//!
//! [`arrange`] turns any set of a battle's events — in any order, from any number of machines —
//! into the same layout: the **line** (from the first event, following the kept branch at every
//! settled fork, up to the end or to the first unsettled fork) and the rest, **aside**, in a
//! fixed order. Undo and redo name events by `seq`, their place on their own line (their depth
//! in the tree), so they mean the same thing on every machine.

use std::collections::{HashMap, HashSet};

use super::LoggedEvent;
use super::error::CampaignError;
use super::event::Event;
use super::identity::{EventUid, Recorder};

/// Where the next event of a battle goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// The event it follows (`None`: the battle's first event).
    pub follows: Option<EventUid>,
    pub seq: u32,
}

/// A battle's events laid out.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Arranged {
    pub line: Vec<LoggedEvent>,
    pub aside: Vec<LoggedEvent>,
}

/// One branch of a fork: its events from the fork point to its end, on the branch's own line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch<'a> {
    pub first: EventUid,
    pub events: Vec<&'a LoggedEvent>,
}

impl Branch<'_> {
    /// Who recorded the branch's events ("Alice on laptop", several joined with " and ").
    pub fn recorded_by(&self) -> String {
        let mut who: Vec<String> = Vec::new();
        for e in &self.events {
            let label = e.by.label();
            if !label.is_empty() && !who.contains(&label) {
                who.push(label);
            }
        }
        if who.is_empty() {
            "someone (not recorded)".to_string()
        } else {
            who.join(" and ")
        }
    }

    /// When its first and last events were recorded.
    pub fn recorded_between(&self) -> (String, String) {
        let first = self.events.first().map(|e| e.recorded_at.clone());
        let last = self.events.last().map(|e| e.recorded_at.clone());
        (first.unwrap_or_default(), last.unwrap_or_default())
    }
}

/// Two or more branches after one event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fork<'a> {
    /// The event both branches follow (`None`: the start of the battle).
    pub after: Option<EventUid>,
    /// Its seq (0 at the start).
    pub after_seq: u32,
    pub branches: Vec<Branch<'a>>,
    /// The branch the players kept; `None` while the fork is open.
    pub kept: Option<EventUid>,
    /// The choice event that settled it.
    pub choice: Option<&'a LoggedEvent>,
}

/// The order of siblings: recording time, then id (both machines sort the same way).
fn sibling_key(e: &LoggedEvent) -> (&str, EventUid) {
    (e.recorded_at.as_str(), e.id)
}

fn is_choice(e: &LoggedEvent) -> bool {
    matches!(e.event, Event::BranchChosen { .. })
}

/// Lays out a battle's events: one per id (an id twice with different content is refused),
/// every event following one that is there, `seq` one more than the event it follows.
///
/// # Errors
/// [`CampaignError::Invalid`] naming the event at fault.
pub fn arrange(events: Vec<LoggedEvent>) -> Result<Arranged, CampaignError> {
    let mut by_id: HashMap<EventUid, LoggedEvent> = HashMap::with_capacity(events.len());
    for e in events {
        match by_id.get(&e.id) {
            Some(known) if *known != e => {
                return Err(invalid(format!(
                    "event {} appears twice with different content (seq {} and {})",
                    e.id, known.seq, e.seq
                )));
            }
            Some(_) => {}
            None => {
                by_id.insert(e.id, e);
            }
        }
    }
    let mut children: HashMap<Option<EventUid>, Vec<EventUid>> = HashMap::new();
    for e in by_id.values() {
        let parent_seq = match e.follows {
            None => 0,
            Some(parent) => by_id.get(&parent).map(|p| p.seq).ok_or_else(|| {
                invalid(format!(
                    "event {} (seq {}) follows {parent}, which is not in the log",
                    e.id, e.seq
                ))
            })?,
        };
        // Depth one more than the parent's: this also rules out cycles.
        if e.seq != parent_seq.saturating_add(1) {
            return Err(invalid(format!(
                "event {} is numbered {} but follows event number {parent_seq}",
                e.id, e.seq
            )));
        }
        children.entry(e.follows).or_default().push(e.id);
    }
    for list in children.values_mut() {
        list.sort_by(|a, b| sibling_key(&by_id[a]).cmp(&sibling_key(&by_id[b])));
    }
    let line_ids = walk(&by_id, &children);
    let on_line: HashSet<EventUid> = line_ids.iter().copied().collect();
    let line = line_ids
        .iter()
        .filter_map(|id| by_id.get(id).cloned())
        .collect();
    let mut aside: Vec<LoggedEvent> = by_id
        .into_values()
        .filter(|e| !on_line.contains(&e.id))
        .collect();
    aside.sort_by(|a, b| (a.seq, sibling_key(a)).cmp(&(b.seq, sibling_key(b))));
    Ok(Arranged { line, aside })
}

/// The line: from the start, the only branch or the kept one at each step, until the end or an
/// open fork.
fn walk(
    by_id: &HashMap<EventUid, LoggedEvent>,
    children: &HashMap<Option<EventUid>, Vec<EventUid>>,
) -> Vec<EventUid> {
    let mut line = Vec::new();
    let mut at: Option<EventUid> = None;
    loop {
        let kids = children.get(&at).map_or(&[][..], Vec::as_slice);
        let branches: Vec<EventUid> = kids
            .iter()
            .copied()
            .filter(|id| !is_choice(&by_id[id]))
            .collect();
        let next = match branches.as_slice() {
            [] => None,
            [only] => Some(*only),
            _ => kept_branch(kids.iter().map(|id| &by_id[id]), &branches),
        };
        match next {
            Some(id) => {
                line.push(id);
                at = Some(id);
            }
            None => return line,
        }
    }
}

/// The choice in force among `siblings`: of the valid choices (naming one of `branches`), those
/// no other choice replaces; of those (made without seeing each other), the last recorded.
fn effective_choice<'a>(
    siblings: impl Iterator<Item = &'a LoggedEvent>,
    branches: &[EventUid],
) -> Option<&'a LoggedEvent> {
    let valid: Vec<&LoggedEvent> = siblings
        .filter(|e| matches!(e.event, Event::BranchChosen { keep, .. } if branches.contains(&keep)))
        .collect();
    let replaced: HashSet<EventUid> = valid
        .iter()
        .filter_map(|e| match e.event {
            Event::BranchChosen { replaces, .. } => replaces,
            _ => None,
        })
        .collect();
    valid
        .into_iter()
        .filter(|e| !replaced.contains(&e.id))
        .max_by(|a, b| sibling_key(a).cmp(&sibling_key(b)))
}

/// The branch the choice in force among `siblings` keeps, if that choice saw every branch.
fn kept_branch<'a>(
    siblings: impl Iterator<Item = &'a LoggedEvent>,
    branches: &[EventUid],
) -> Option<EventUid> {
    effective_choice(siblings, branches).and_then(|e| match &e.event {
        Event::BranchChosen {
            keep, set_aside, ..
        } if branches.iter().all(|b| b == keep || set_aside.contains(b)) => Some(*keep),
        _ => None,
    })
}

/// Every fork of a battle, settled or open, in the order of their fork points.
pub fn forks<'a>(line: &'a [LoggedEvent], aside: &'a [LoggedEvent]) -> Vec<Fork<'a>> {
    // A fork needs two events after the same one; a line where each follows the one before
    // has none of its own, so with nothing set aside there is nothing to look for (the window
    // asks every frame, and a long battle's map of children costs a third of a millisecond).
    let chain = line.first().is_none_or(|first| first.follows.is_none())
        && line.windows(2).all(|w| w[1].follows == Some(w[0].id));
    if aside.is_empty() && chain {
        return Vec::new();
    }
    let all: Vec<&LoggedEvent> = line.iter().chain(aside).collect();
    let mut children: HashMap<Option<EventUid>, Vec<&LoggedEvent>> = HashMap::new();
    for e in &all {
        children.entry(e.follows).or_default().push(e);
    }
    for list in children.values_mut() {
        list.sort_by(|a, b| sibling_key(a).cmp(&sibling_key(b)));
    }
    let seq_of: HashMap<EventUid, u32> = all.iter().map(|e| (e.id, e.seq)).collect();
    let mut points: Vec<(u32, Option<EventUid>)> = children
        .iter()
        .filter(|(_, kids)| kids.iter().filter(|e| !is_choice(e)).count() >= 2)
        .map(|(at, _)| (at.and_then(|id| seq_of.get(&id).copied()).unwrap_or(0), *at))
        .collect();
    points.sort();
    points
        .into_iter()
        .map(|(after_seq, after)| {
            let kids = &children[&after];
            let firsts: Vec<EventUid> = kids
                .iter()
                .filter(|e| !is_choice(e))
                .map(|e| e.id)
                .collect();
            let choice = effective_choice(kids.iter().copied(), &firsts);
            let kept = kept_branch(kids.iter().copied(), &firsts);
            let branches = firsts
                .iter()
                .map(|first| Branch {
                    first: *first,
                    events: branch_line(*first, &children),
                })
                .collect();
            Fork {
                after,
                after_seq,
                branches,
                kept,
                choice,
            }
        })
        .collect()
}

/// A branch's own line from its first event: the first (earliest) child at each step, the
/// kept one where a later fork inside it was settled.
fn branch_line<'a>(
    first: EventUid,
    children: &HashMap<Option<EventUid>, Vec<&'a LoggedEvent>>,
) -> Vec<&'a LoggedEvent> {
    let Some(start) = children.values().flatten().find(|e| e.id == first).copied() else {
        return Vec::new();
    };
    let mut out = vec![start];
    let mut at = first;
    while let Some(kids) = children.get(&Some(at)) {
        let branches: Vec<EventUid> = kids
            .iter()
            .filter(|e| !is_choice(e))
            .map(|e| e.id)
            .collect();
        let next = match branches.as_slice() {
            [] => break,
            [only] => *only,
            _ => kept_branch(kids.iter().copied(), &branches).unwrap_or(branches[0]),
        };
        let Some(e) = kids.iter().find(|e| e.id == next) else {
            break;
        };
        out.push(e);
        at = next;
    }
    out
}

/// The ids of events set aside by a settled fork (every event of a branch not kept).
pub fn set_aside(line: &[LoggedEvent], aside: &[LoggedEvent]) -> HashSet<EventUid> {
    let open_branches: HashSet<EventUid> = open_fork(line, aside)
        .map(|f| {
            f.branches
                .iter()
                .flat_map(|b| b.events.iter().map(|e| e.id))
                .collect()
        })
        .unwrap_or_default();
    aside
        .iter()
        .filter(|e| !is_choice(e) && !open_branches.contains(&e.id))
        .map(|e| e.id)
        .collect()
}

/// The fork at the end of the line, if the line stops at one.
pub fn open_fork<'a>(line: &'a [LoggedEvent], aside: &'a [LoggedEvent]) -> Option<Fork<'a>> {
    let head = line.last().map(|e| e.id);
    let waiting = aside
        .iter()
        .filter(|e| e.follows == head && !is_choice(e))
        .count();
    if waiting < 2 {
        return None;
    }
    forks(line, aside)
        .into_iter()
        .find(|f| f.after == head && f.kept.is_none())
}

/// Where the next event goes: after the last event of the line.
///
/// # Errors
/// [`CampaignError::Forked`] while the line ends at an open fork.
pub fn next_position(
    line: &[LoggedEvent],
    aside: &[LoggedEvent],
) -> Result<Position, CampaignError> {
    if let Some(fork) = open_fork(line, aside) {
        return Err(CampaignError::Forked {
            after_seq: fork.after_seq,
            branches: fork.branches.len(),
        });
    }
    Ok(Position {
        follows: line.last().map(|e| e.id),
        seq: line.last().map_or(1, |e| e.seq.saturating_add(1)),
    })
}

/// The choice event keeping the branch that starts with `keep`, and where it goes (after the
/// fork point).
///
/// # Errors
/// `keep` does not start a branch of any fork of this battle.
pub fn choice(
    line: &[LoggedEvent],
    aside: &[LoggedEvent],
    keep: EventUid,
) -> Result<(Position, Event), CampaignError> {
    let fork = forks(line, aside)
        .into_iter()
        .find(|f| f.branches.iter().any(|b| b.first == keep))
        .ok_or_else(|| {
            CampaignError::not_allowed(format!("event {keep} does not start a branch of a fork"))
        })?;
    if fork.kept == Some(keep) {
        return Err(CampaignError::not_allowed(
            "that branch is already the one kept",
        ));
    }
    Ok((
        Position {
            follows: fork.after,
            seq: fork.after_seq + 1,
        },
        Event::BranchChosen {
            keep,
            replaces: fork.choice.map(|c| c.id),
            set_aside: fork
                .branches
                .iter()
                .map(|b| b.first)
                .filter(|first| *first != keep)
                .collect(),
        },
    ))
}

/// A new logged event at `at`.
pub fn logged(
    at: Position,
    id: EventUid,
    recorded_at: String,
    by: Recorder,
    event: Event,
) -> LoggedEvent {
    LoggedEvent {
        id,
        follows: at.follows,
        seq: at.seq,
        recorded_at,
        by,
        revision: None,
        seal: None,
        event,
    }
}

fn invalid(message: String) -> CampaignError {
    CampaignError::Invalid {
        field: "logs",
        message,
    }
}
