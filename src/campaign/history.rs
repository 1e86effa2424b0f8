//! A battle's events as a tree, laid out into the line the table plays and everything else.
//!
//! Every event names the event it follows in its battle (`follows`; none for the first). On one
//! machine that makes a chain. When two machines record after the same event and their logs are
//! merged, that event has two children: a **fork**. The players settle it with a
//! `branch_chosen` event that follows the fork point and names the branch kept; the other
//! branch stays, set aside, and a later choice at the same point can take it back. A choice
//! overrules the ones it names (`replaces`: the choice its player saw); of the choices nobody
//! overruled, if they keep the same branch it is kept, and if they keep different ones the fork
//! stays open as a **disagreement** for the players to settle — never decided by recording
//! time. Two setups of one new battle that are the same plan, at most one of them played on,
//! are one battle set up twice, not a fork.
//!
//! Only events **in play** are laid out ([`super::membership`]: signed by a key admitted under
//! the names it claims); the others, and everything recorded after one of them, are kept apart
//! (`withheld`), so a choice or a branch by a key that is not admitted counts for nothing.
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
    /// Events not in play, and those recorded after one, in seq then id order.
    pub withheld: Vec<LoggedEvent>,
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
    /// Choices nobody overruled that keep different branches: the fork stays open until a
    /// player chooses again, overruling the other (empty when they agree).
    pub disagreement: Vec<&'a LoggedEvent>,
}

impl Fork<'_> {
    /// The fork in a sentence a player can act on (`who` names an event's recorder as the
    /// campaign believes it): who recorded how many versions, or which choices disagree. The
    /// front end says how to choose.
    pub fn describe(&self, battle: u32, who: &dyn Fn(&LoggedEvent) -> String) -> String {
        let place = match self.after {
            None => format!("battle {battle} is forked at its start"),
            Some(_) => format!("battle {battle} is forked after event {}", self.after_seq),
        };
        let branch_by = |first: EventUid| {
            self.branches
                .iter()
                .find(|b| b.first == first)
                .and_then(|b| b.events.first())
                .map_or_else(|| "someone".to_string(), |e| who(e))
        };
        if !self.disagreement.is_empty() {
            let parts: Vec<String> = self
                .disagreement
                .iter()
                .filter_map(|c| {
                    kept_by(c).map(|keep| {
                        let (chooser, recorder) = (who(c), branch_by(keep));
                        let whose = if chooser == recorder {
                            "their own".to_string()
                        } else {
                            format!("{recorder}'s")
                        };
                        format!("{chooser} kept {whose} version (…{})", keep.short())
                    })
                })
                .collect();
            return format!(
                "{place} and the players' choices disagree: {}; the fork stays open until one of them chooses again",
                and_list(&parts)
            );
        }
        let mut by: Vec<(String, usize)> = Vec::new();
        for b in &self.branches {
            let name = b
                .events
                .first()
                .map_or_else(|| "someone".to_string(), |e| who(e));
            match by.iter_mut().find(|(w, _)| *w == name) {
                Some((_, n)) => *n += 1,
                None => by.push((name, 1)),
            }
        }
        let parts: Vec<String> = by
            .iter()
            .map(|(w, n)| match n {
                1 => format!("{w} recorded one"),
                n => format!("{w} recorded {n}"),
            })
            .collect();
        format!(
            "{place} into {} versions ({}): one of the players chooses which goes on",
            self.branches.len(),
            and_list(&parts)
        )
    }
}

/// "a", "a and b", "a, b and c".
fn and_list(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The order of siblings: recording time, then id (both machines sort the same way).
fn sibling_key(e: &LoggedEvent) -> (&str, EventUid) {
    (e.recorded_at.as_str(), e.id)
}

fn is_choice(e: &LoggedEvent) -> bool {
    matches!(e.event, Event::BranchChosen { .. })
}

/// Lays out a battle's events: one per id (an id twice with different content is refused),
/// every event following one that is there, `seq` one more than the event it follows; events
/// not `in_play`, and those after them, withheld.
///
/// # Errors
/// [`CampaignError::Invalid`] naming the event at fault.
pub fn arrange(
    events: Vec<LoggedEvent>,
    in_play: &dyn Fn(&LoggedEvent) -> bool,
) -> Result<Arranged, CampaignError> {
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
    let withheld = withheld_ids(&by_id, in_play);
    let mut out_of_play: Vec<LoggedEvent> = Vec::new();
    if !withheld.is_empty() {
        by_id.retain(|id, e| {
            if withheld.contains(id) {
                out_of_play.push(e.clone());
                false
            } else {
                true
            }
        });
        out_of_play.sort_by_key(|e| (e.seq, e.id));
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
    Ok(Arranged {
        line,
        aside,
        withheld: out_of_play,
    })
}

/// The events not in play and every event recorded after one of them (parents first, by seq).
fn withheld_ids(
    by_id: &HashMap<EventUid, LoggedEvent>,
    in_play: &dyn Fn(&LoggedEvent) -> bool,
) -> HashSet<EventUid> {
    let mut out: HashSet<EventUid> = by_id
        .values()
        .filter(|e| !in_play(e))
        .map(|e| e.id)
        .collect();
    if out.is_empty() {
        return out;
    }
    let mut order: Vec<&LoggedEvent> = by_id.values().collect();
    order.sort_by_key(|e| e.seq);
    for e in order {
        if e.follows.is_some_and(|p| out.contains(&p)) {
            out.insert(e.id);
        }
    }
    out
}

/// Two or more setups of a new battle that are the same plan, at most one of them played on: one
/// battle set up twice (two machines chose alike), not a fork. The one played on is the line's,
/// else the smallest id.
fn same_setup<'a>(
    kids: impl Iterator<Item = &'a LoggedEvent>,
    has_children: &dyn Fn(EventUid) -> bool,
) -> Option<EventUid> {
    let setups: Vec<&LoggedEvent> = kids.filter(|e| !is_choice(e)).collect();
    let first = setups.first()?.event.setup()?;
    if setups.len() < 2 || setups.iter().any(|e| e.event.setup() != Some(first)) {
        return None;
    }
    let played: Vec<EventUid> = setups
        .iter()
        .map(|e| e.id)
        .filter(|id| has_children(*id))
        .collect();
    match played.as_slice() {
        [] => setups.iter().map(|e| e.id).min(),
        [one] => Some(*one),
        _ => None,
    }
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
            _ => same_setup(kids.iter().map(|id| &by_id[id]), &|id| {
                children.contains_key(&Some(id))
            })
            .or_else(|| kept_branch(kids.iter().map(|id| &by_id[id]), &branches)),
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

/// The choices in force among `siblings`: of the valid choices (naming one of `branches`), those
/// no other choice overrules.
fn standing_choices<'a>(
    siblings: impl Iterator<Item = &'a LoggedEvent>,
    branches: &[EventUid],
) -> Vec<&'a LoggedEvent> {
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
    let mut standing: Vec<&LoggedEvent> = valid
        .into_iter()
        .filter(|e| !replaced.contains(&e.id))
        .collect();
    standing.sort_by_key(|e| e.id);
    standing
}

fn kept_by(e: &LoggedEvent) -> Option<EventUid> {
    match e.event {
        Event::BranchChosen { keep, .. } => Some(keep),
        _ => None,
    }
}

/// The choice in force among `siblings`: the choices nobody overruled, when they all keep the
/// same branch (the one with the greatest id stands for them); none when they disagree.
fn effective_choice<'a>(
    siblings: impl Iterator<Item = &'a LoggedEvent>,
    branches: &[EventUid],
) -> Option<&'a LoggedEvent> {
    let standing = standing_choices(siblings, branches);
    let keep = kept_by(standing.first()?);
    standing
        .iter()
        .all(|e| kept_by(e) == keep)
        .then(|| standing.last().copied())
        .flatten()
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
    let has_children = |id: EventUid| children.contains_key(&Some(id));
    let mut points: Vec<(u32, Option<EventUid>)> = children
        .iter()
        .filter(|(_, kids)| kids.iter().filter(|e| !is_choice(e)).count() >= 2)
        .filter(|(_, kids)| same_setup(kids.iter().copied(), &has_children).is_none())
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
            let standing = standing_choices(kids.iter().copied(), &firsts);
            let disagreement = if choice.is_none() && standing.len() >= 2 {
                standing
            } else {
                Vec::new()
            };
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
                disagreement,
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
            _ => same_setup(kids.iter().copied(), &|id| children.contains_key(&Some(id)))
                .or_else(|| kept_branch(kids.iter().copied(), &branches))
                .unwrap_or(branches[0]),
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
    // The choice this one overrules: the one in force, or in a disagreement the newest choice
    // that keeps another branch (a player choosing again settles it with the other's).
    let replaces = fork.choice.map(|c| c.id).or_else(|| {
        fork.disagreement
            .iter()
            .filter(|c| kept_by(c) != Some(keep))
            .map(|c| c.id)
            .max()
    });
    Ok((
        Position {
            follows: fork.after,
            seq: fork.after_seq + 1,
        },
        Event::BranchChosen {
            keep,
            replaces,
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
