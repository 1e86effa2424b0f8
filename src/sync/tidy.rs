//! Tidying a shared folder: every library that ever joined a campaign leaves a file in its
//! folder, and a machine that is gone (a departed player, a library copied and re-identified)
//! leaves it there for good. A file can go when every event in it is also in another file that
//! stays — then removing it loses nothing; never a file holding an event found nowhere else,
//! never a file that cannot be read (its events are unknown), never this machine's own.

use std::collections::{BTreeSet, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{SyncError, file_name, folder, io};
use crate::campaign::EventUid;
use crate::store::{CampaignId, Store};

/// One file of the folder, for the list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileInfo {
    pub file: String,
    /// The machine id its header names (`None`: a campaign file or an unreadable one).
    pub machine: Option<String>,
    /// Who writes it (as its header says), then who recorded its events, most events first
    /// ("Ann on laptop").
    pub who: Vec<String>,
    /// When it was last written (UTC).
    pub modified: String,
    pub bytes: u64,
    pub events: usize,
    /// This machine's own file.
    pub own: bool,
    /// Why it cannot be read (then it is never removed).
    pub unreadable: Option<String>,
    /// Every event in it is in another file that stays: it can go.
    pub redundant: bool,
}

/// The files of campaign `id` in its shared folder, each read whole, with the ones that can go
/// marked.
///
/// # Errors
/// The campaign is not shared, or its folder cannot be listed.
pub fn survey(store: &mut Store, id: CampaignId) -> Result<(PathBuf, Vec<FileInfo>), SyncError> {
    let folder = store
        .shared_folder(id)?
        .ok_or_else(|| SyncError::Nothing("this campaign is not shared to a folder".into()))?;
    let uid = store.campaign_uid(id)?;
    let own = file_name(uid, &store.machine_id()?);
    let paths = folder::campaign_files(&folder, Some(uid))
        .map_err(io(&folder, "cannot list the shared folder"))?;
    let mut infos = Vec::new();
    let mut contents: Vec<Option<HashSet<EventUid>>> = Vec::new();
    for (n, path) in paths.iter().enumerate() {
        let mut incoming = Vec::new();
        let read = folder::read_file(path, n, None, &mut incoming);
        let meta = fs::symlink_metadata(path).ok();
        let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
        for i in &incoming {
            let label = i.event.by.label();
            if !label.is_empty() {
                *counts.entry(label).or_default() += 1;
            }
        }
        let writer = read.writer.as_ref().map(crate::campaign::Recorder::label);
        let mut who: Vec<(String, usize)> = counts
            .into_iter()
            .filter(|(w, _)| Some(w) != writer.as_ref())
            .collect();
        who.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let who: Vec<String> = writer
            .into_iter()
            .chain(who.into_iter().map(|(w, _)| w))
            .collect();
        let unreadable = read
            .unusable
            .clone()
            .or_else(|| {
                (!read.damaged.is_empty()).then(|| format!("{} damaged lines", read.damaged.len()))
            })
            .or_else(|| {
                read.campaign
                    .filter(|c| *c != uid)
                    .map(|_| "another campaign's file".to_string())
            });
        contents.push(
            unreadable
                .is_none()
                .then(|| incoming.iter().map(|i| i.event.id).collect()),
        );
        infos.push(FileInfo {
            file: read.name.clone(),
            machine: read.machine.clone(),
            who,
            modified: meta
                .as_ref()
                .and_then(|m| m.modified().ok())
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| {
                    crate::campaign::time::format_millis(
                        i64::try_from(d.as_millis()).unwrap_or_default(),
                    )
                })
                .unwrap_or_default(),
            bytes: meta.map_or(0, |m| m.len()),
            events: incoming.len(),
            own: read.name == own,
            unreadable,
            redundant: false,
        });
    }
    let keep: Vec<bool> = infos.iter().map(|i| i.own).collect();
    for n in redundant(&contents, &keep) {
        infos[n].redundant = true;
    }
    Ok((folder, infos))
}

/// Which files can go: taken one at a time (smallest first, then by place), a file goes when
/// every event in it is in some other file still there. `contents[n]` is `None` for a file whose
/// events are unknown (never removed); `keep[n]` marks files never removed (this machine's).
pub fn redundant(contents: &[Option<HashSet<EventUid>>], keep: &[bool]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..contents.len()).collect();
    order.sort_by_key(|&n| (contents[n].as_ref().map_or(usize::MAX, HashSet::len), n));
    let mut gone: BTreeSet<usize> = BTreeSet::new();
    for n in order {
        let Some(events) = &contents[n] else { continue };
        if keep.get(n).copied().unwrap_or(false) {
            continue;
        }
        let elsewhere = |id: &EventUid| {
            contents.iter().enumerate().any(|(m, other)| {
                m != n && !gone.contains(&m) && other.as_ref().is_some_and(|o| o.contains(id))
            })
        };
        if events.iter().all(elsewhere) {
            gone.insert(n);
        }
    }
    gone.into_iter().collect()
}

/// Removes the files named in `names` from `folder` (those a [`survey`] marked redundant).
///
/// # Errors
/// A file cannot be removed (the ones before it are gone).
pub fn remove(folder: &Path, names: &[String]) -> Result<(), SyncError> {
    for name in names {
        let path = folder.join(name);
        fs::remove_file(&path).map_err(io(&path, "cannot remove"))?;
    }
    Ok(())
}

/// Checks that the survey's redundant files still are, then removes them; returns their
/// names.
///
/// # Errors
/// As [`survey`] and [`remove`].
pub fn tidy(store: &mut Store, id: CampaignId) -> Result<Vec<String>, SyncError> {
    let (folder, infos) = survey(store, id)?;
    let names: Vec<String> = infos
        .iter()
        .filter(|i| i.redundant)
        .map(|i| i.file.clone())
        .collect();
    remove(&folder, &names)?;
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn id(n: u8) -> EventUid {
        EventUid(uuid::Uuid::from_u128(u128::from(n)))
    }

    proptest! {
        /// Over random files of random events: the files removed lose no event (every event
        /// of every readable file is still in a file that stays), files kept or unreadable
        /// stay, and no file that stays could go (each holds an event no other staying file
        /// has).
        #[test]
        fn tidying_removes_exactly_the_redundant_files(
            files in prop::collection::vec(
                prop::option::weighted(0.9, prop::collection::hash_set(0u8..12, 0..8)),
                1..7,
            ),
            own in 0usize..7,
        ) {
            let contents: Vec<Option<HashSet<EventUid>>> = files
                .iter()
                .map(|f| f.as_ref().map(|s| s.iter().map(|n| id(*n)).collect()))
                .collect();
            let keep: Vec<bool> = (0..contents.len()).map(|n| n == own).collect();
            let gone: HashSet<usize> = redundant(&contents, &keep).into_iter().collect();
            let stays = |n: usize| !gone.contains(&n);
            let all: HashSet<EventUid> = contents.iter().flatten().flatten().copied().collect();
            for e in &all {
                prop_assert!(
                    (0..contents.len()).any(|n| stays(n) && contents[n].as_ref().is_some_and(|c| c.contains(e))),
                    "event {e} lost"
                );
            }
            for n in 0..contents.len() {
                if keep[n] || contents[n].is_none() {
                    prop_assert!(stays(n));
                }
                if stays(n) && !keep[n] && let Some(events) = &contents[n] {
                    let unique = events.iter().any(|e| {
                        !(0..contents.len()).any(|m| m != n && stays(m) && contents[m].as_ref().is_some_and(|c| c.contains(e)))
                    });
                    prop_assert!(unique, "file {n} stays but holds nothing of its own");
                }
            }
        }
    }
}
