//! A saved force against newer army data: what a newer revision would change for each of its
//! units ([`line_changes`]), and the force re-priced by it ([`reprice`]) when its player says
//! so. Nothing here changes a force on its own: a force keeps the prices it was built with.

use serde::Serialize;

use super::entry::{ArmyEntry, DataRef};
use crate::rules::card::Card;
use crate::rules::force::{CardRef, Force};

/// What a newer revision changes for one unit line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineChange {
    /// 0-based unit line.
    pub line: usize,
    pub unit: String,
    /// The revision the line is priced with.
    pub from: DataRef,
    /// The newest revision imported.
    pub to: u32,
    /// "195 → 200 pts", "option removed: Pintle-mounted MMG", "no longer in the data".
    pub changes: Vec<String>,
}

impl std::fmt::Display for LineChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (line {}, r{} → r{}): {}",
            self.unit,
            self.line + 1,
            self.from.revision,
            self.to,
            self.changes.join("; ")
        )
    }
}

/// The newest card of the same catalogue and unit as `entry`, if a newer revision has it, or
/// `Err(revision)` when the newest revision of that catalogue no longer has the unit.
fn newer_of<'c>(entry: &ArmyEntry, newest: &'c [Card]) -> Option<Result<&'c Card, u32>> {
    let mut latest: Option<u32> = None;
    for card in newest {
        let Some(other) = card.army() else {
            continue;
        };
        if other.source.id != entry.source.id {
            continue;
        }
        latest = Some(latest.map_or(other.source.revision, |r| r.max(other.source.revision)));
        if other.entry_id == entry.entry_id && other.source.revision > entry.source.revision {
            return Some(Ok(card));
        }
    }
    match latest {
        Some(revision) if revision > entry.source.revision => Some(Err(revision)),
        _ => None,
    }
}

/// For each unit line priced with an older revision than the newest in `newest` (the newest
/// revision's cards of each catalogue), what that revision would change.
pub fn line_changes(force: &Force, newest: &[Card]) -> Vec<LineChange> {
    let mut out = Vec::new();
    for (line, unit) in force.units.iter().enumerate() {
        let CardRef::Inline(card) = &unit.card else {
            continue;
        };
        let Some(entry) = card.army() else {
            continue;
        };
        let (to, changes) = match newer_of(entry, newest) {
            None => continue,
            Some(Ok(newer)) => {
                let Some(newer_entry) = newer.army() else {
                    continue;
                };
                let changes = entry.changes(newer_entry);
                (newer_entry.source.revision, changes)
            }
            Some(Err(revision)) => (
                revision,
                vec![format!(
                    "no longer in {} r{revision}: keeps its r{} price",
                    entry.source.name, entry.source.revision
                )],
            ),
        };
        // A line the newer revision prices the same is not a change to list.
        if !changes.is_empty() {
            out.push(LineChange {
                line,
                unit: card.name().to_string(),
                from: entry.source.clone(),
                to,
                changes,
            });
        }
    }
    out
}

/// `force` with every unit line priced by the newest revision that has its unit (the
/// variant and options taken carried over by name), and what could not be carried over.
/// Lines whose unit the newest revision no longer has keep their old card.
pub fn reprice(force: &Force, newest: &[Card]) -> (Force, Vec<String>) {
    let mut out = force.clone();
    let mut lost = Vec::new();
    for unit in &mut out.units {
        let CardRef::Inline(card) = &mut unit.card else {
            continue;
        };
        let Some(entry) = card.army().cloned() else {
            continue;
        };
        match newer_of(&entry, newest) {
            Some(Ok(newer)) => {
                let Some(newer_entry) = newer.army() else {
                    continue;
                };
                let (repriced, dropped) = entry.repriced(newer_entry);
                let name = card.name().to_string();
                let mut fresh = newer.clone();
                fresh.data_mut().apply_army(repriced);
                *card = fresh;
                lost.extend(dropped.into_iter().map(|d| format!("{name}: {d}")));
            }
            Some(Err(revision)) => lost.push(format!(
                "{}: not in {} r{revision}, kept at its r{} price",
                card.name(),
                entry.source.name,
                entry.source.revision
            )),
            None => {}
        }
    }
    (out, lost)
}

/// The revisions a force is priced with ("Blue Army r1"), each once.
pub fn revisions_of(force: &Force) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let org = match &force.budget {
        crate::rules::force::Budget::ForceOrg(org) => Some(org.source.label()),
        _ => None,
    };
    for label in org
        .into_iter()
        .chain(force.units.iter().filter_map(|u| match &u.card {
            CardRef::Inline(card) => card.army().map(|a| a.source.label()),
            CardRef::Library(_) => None,
        }))
    {
        if !out.contains(&label) {
            out.push(label);
        }
    }
    out
}
