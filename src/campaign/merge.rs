//! Merging two copies of one campaign: the union of their events, nothing replaced.
//!
//! Copies are the same campaign when their ids are. Events are recognised by id, so an event
//! both copies hold counts once; an id with two different contents is refused (one copy was
//! edited or damaged). Battles one copy added ("What next?") are added to the other; a battle
//! both added differently is refused. The result is laid out by [`super::history::arrange`] and
//! every battle that gained an event is verified again from its dice, as an import is.
//!
//! Merging is idempotent, commutative and associative in everything the copies share — the
//! id, the battles and every battle's events — whichever order copies meet in; the name and
//! players stay those of the copy merged into (a player may have named it differently at
//! home). `tests` at the bottom prove it with random histories and exchange schedules.

use std::collections::{HashMap, HashSet};

use super::definition::Campaign;
use super::error::CampaignError;
use super::identity::EventUid;
use super::{CampaignRecord, LoggedEvent, history, verify};

/// What a merge brought in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MergeReport {
    /// Events new to the local copy.
    pub added: usize,
    /// Battles new to the local copy.
    pub battles_added: usize,
    /// Numbers of the battles that are forked after the merge and wait for a choice.
    pub forked: Vec<u32>,
}

/// `local` with everything `other` holds that it does not.
///
/// # Errors
/// [`CampaignError::Merge`] for another campaign, a battle both copies added differently or an
/// event id with two contents; [`CampaignError::Forged`] when an event brought in does not
/// replay.
pub fn merge(
    local: &CampaignRecord,
    other: &CampaignRecord,
) -> Result<(CampaignRecord, MergeReport), CampaignError> {
    if local.id != other.id {
        return Err(CampaignError::Merge(format!(
            "that is another campaign ('{}', id {}); this one is '{}', id {}",
            other.campaign.name, other.id, local.campaign.name, local.id
        )));
    }
    let campaign = merged_definition(&local.campaign, &other.campaign)?;
    let mut merged = local.clone();
    let battles_before = merged.campaign.battles.len();
    merged.campaign = campaign;
    merged
        .logs
        .resize(merged.campaign.battles.len(), Vec::new());
    merged
        .aside
        .resize(merged.campaign.battles.len(), Vec::new());
    let mut changed: Vec<usize> = Vec::new();
    let mut added = 0;
    for index in 0..merged.campaign.battles.len() {
        let mine: HashMap<EventUid, &LoggedEvent> =
            local.all_events(index).map(|e| (e.id, e)).collect();
        let mut new = Vec::new();
        for e in other.all_events(index) {
            match mine.get(&e.id) {
                Some(known) if *known != e => {
                    return Err(CampaignError::Merge(format!(
                        "battle {}: event {} differs between the two copies (one was edited or damaged)",
                        index + 1,
                        e.id
                    )));
                }
                Some(_) => {}
                None => new.push(e.clone()),
            }
        }
        if new.is_empty() {
            // Untouched: kept as laid out (laying out a long battle again costs more than the
            // rest of a merge).
            continue;
        }
        added += new.len();
        changed.push(index);
        let mut all: Vec<LoggedEvent> = local.all_events(index).cloned().collect();
        all.extend(new);
        let arranged = history::arrange(all)?;
        merged.logs[index] = arranged.line;
        merged.aside[index] = arranged.aside;
    }
    if merged.campaign.battles.len() > battles_before {
        // Battles from the other copy: they must be the book's, as on import.
        verify::verify_definition(&merged)?;
    }
    verify_changed(&merged, &changed)?;
    let report = MergeReport {
        added,
        battles_added: merged
            .campaign
            .battles
            .len()
            .saturating_sub(local.campaign.battles.len()),
        forked: (0..merged.campaign.battles.len())
            .filter(|&i| merged.open_fork(i).is_some())
            .filter_map(|i| merged.campaign.battles.get(i).map(|b| b.number()))
            .collect(),
    };
    Ok((merged, report))
}

/// Verifies the battles that gained events (and, when losses carry forward, every battle after
/// the first of them, whose losses may have changed).
fn verify_changed(record: &CampaignRecord, changed: &[usize]) -> Result<(), CampaignError> {
    let Some(first) = changed.iter().min().copied() else {
        return Ok(());
    };
    let mut check: HashSet<usize> = changed.iter().copied().collect();
    if record.campaign.options.carry_losses {
        check.extend(first..record.campaign.battles.len());
    }
    let mut indices: Vec<usize> = check.into_iter().collect();
    indices.sort_unstable();
    for index in indices {
        verify::verify_battle(record, index)?;
    }
    Ok(())
}

/// The definition both copies agree on, with the battles only one of them has added.
fn merged_definition(local: &Campaign, other: &Campaign) -> Result<Campaign, CampaignError> {
    if local.ruleset != other.ruleset || local.options != other.options {
        return Err(CampaignError::Merge(
            "the two copies differ in ruleset or campaign options".to_string(),
        ));
    }
    let shared = local.battles.len().min(other.battles.len());
    for i in 0..shared {
        if local.battles[i] != other.battles[i] {
            return Err(CampaignError::Merge(format!(
                "battle {} was set up differently on the two machines (e.g. \"What next?\" with and without the extra artillery); delete it on one of them",
                i + 1
            )));
        }
    }
    let mut merged = local.clone();
    merged
        .battles
        .extend(other.battles.iter().skip(shared).cloned());
    Ok(merged)
}

#[cfg(test)]
mod tests;
