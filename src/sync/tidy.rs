//! Tidying a shared folder: every library that ever joined a campaign leaves a file in its
//! folder, and a machine that is gone (a departed player, a library copied and re-identified)
//! leaves it there for good. A file goes only when **its machine is gone** — silent for
//! [`SILENT_DAYS`] (the file unchanged that long) or named by the players as departed — **and
//! every line in it is held** here, byte for byte as this library holds it (so a damaged or
//! edited copy never stands in for the genuine one), which this machine's own file, written
//! first, then carries. Never this machine's own file, never a file with a line this library
//! does not hold (waiting, refused, damaged), never a live machine's: in a synced folder a
//! removal reaches every machine, and two tidies at once must not take each other's files.
//! So the folder always keeps a joinable copy.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{SyncError, file_name, folder, io};
use crate::campaign::EventUid;
use crate::store::{CampaignId, Store};

/// How long a machine's file must be unchanged before a tidy takes its machine for gone.
pub const SILENT_DAYS: u64 = 30;

/// The rule, for a front end to say once under the list.
pub const RULE: &str = "a file goes when its machine is gone (silent for 30 days, or named as departed) and this library holds every line of it";

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
    /// Whole days since it was last written, by this computer's clock.
    pub silent_days: u64,
    pub bytes: u64,
    pub events: usize,
    /// This machine's own file.
    pub own: bool,
    /// The players said its machine left (`--departed`).
    pub departed: bool,
    /// Why it cannot be read (then it is never removed).
    pub unreadable: Option<String>,
    /// It can go: its machine is gone and this library holds every line of it.
    pub redundant: bool,
    /// Why it stays, when it is not this machine's and cannot go.
    pub kept: Option<String>,
}

impl FileInfo {
    /// What the tidy makes of it, in a few words.
    pub fn verdict(&self) -> String {
        if self.own {
            "this machine's".to_string()
        } else if let Some(why) = &self.unreadable {
            format!("kept: {why}")
        } else if self.redundant {
            "can go: machine gone, every line held here".to_string()
        } else {
            format!("kept: {}", self.kept.as_deref().unwrap_or("in use"))
        }
    }
}

/// The files of campaign `id` in its shared folder, each read whole, with the ones that can go
/// marked. Syncs first, so this machine's own file holds everything the library does.
/// `departed`: machine ids or names the players say left.
///
/// # Errors
/// The campaign is not shared, or its folder cannot be listed.
pub fn survey(
    store: &mut Store,
    id: CampaignId,
    departed: &[String],
) -> Result<(PathBuf, Vec<FileInfo>), SyncError> {
    let folder = store
        .shared_folder(id)?
        .ok_or_else(|| SyncError::Nothing("this campaign is not shared to a folder".into()))?;
    let _lock = store.sync_lock()?;
    super::sync_folder_locked(store, id, &folder)?;
    let uid = store.campaign_uid(id)?;
    let own = file_name(uid, &store.machine_id()?);
    let paths = folder::campaign_files(&folder, Some(uid))
        .map_err(io(&folder, "cannot list the shared folder"))?;
    let now = store.clock_reading();
    let admissions: HashSet<EventUid> = store
        .membership_basis(id)?
        .admissions
        .iter()
        .map(|a| a.id)
        .collect();
    let mut infos = Vec::new();
    for (n, path) in paths.iter().enumerate() {
        let mut incoming = Vec::new();
        let read = folder::read_file(path, n, None, &mut incoming);
        let meta = fs::symlink_metadata(path).ok();
        let modified_ms = meta
            .as_ref()
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| i64::try_from(d.as_millis()).unwrap_or_default());
        let silent_days = modified_ms
            .map(|m| u64::try_from((now - m).max(0) / 86_400_000).unwrap_or(0))
            .unwrap_or(0);
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
        let ids: Vec<EventUid> = incoming.iter().map(|i| i.event.id).collect();
        let held = store.stored_events(&ids)?;
        let not_held = incoming
            .iter()
            .filter(|i| held.get(&i.event.id) != Some(&i.event))
            .count()
            + read
                .admissions
                .iter()
                .filter(|a| !admissions.contains(&a.id))
                .count();
        let is_own = read.name == own;
        let gone_by_name = read.machine.as_ref().is_some_and(|m| departed.contains(m))
            || read
                .writer
                .as_ref()
                .is_some_and(|w| departed.iter().any(|d| *d == w.machine || *d == w.label()));
        let kept = if is_own || unreadable.is_some() {
            None
        } else if not_held > 0 {
            Some(format!(
                "holds {} not held here",
                crate::rules::words::amount(not_held as u64, "lines")
            ))
        } else if !gone_by_name && silent_days < SILENT_DAYS {
            Some(match silent_days {
                0 => "in use (written today)".to_string(),
                1 => "in use (written yesterday)".to_string(),
                n => format!("in use (written {n} days ago)"),
            })
        } else {
            None
        };
        infos.push(FileInfo {
            file: read.name.clone(),
            machine: read.machine.clone(),
            who: who_wrote(&read, &incoming),
            modified: modified_ms
                .map(crate::campaign::time::format_millis)
                .unwrap_or_default(),
            silent_days,
            bytes: meta.map_or(0, |m| m.len()),
            events: incoming.len(),
            own: is_own,
            departed: gone_by_name,
            redundant: !is_own && unreadable.is_none() && kept.is_none(),
            unreadable,
            kept,
        });
    }
    // Removing anything needs this machine's complete file there to hold it all.
    if !infos.iter().any(|i| i.own) {
        for info in &mut infos {
            if info.redundant {
                info.redundant = false;
                info.kept = Some("this machine's own file is not in the folder yet".into());
            }
        }
    }
    Ok((folder, infos))
}

/// Who writes a file (its header), then who recorded its events, most events first.
fn who_wrote(read: &folder::FileRead, incoming: &[folder::Incoming]) -> Vec<String> {
    let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
    for i in incoming {
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
    writer
        .into_iter()
        .chain(who.into_iter().map(|(w, _)| w))
        .collect()
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

/// Surveys the folder again (syncing first), then removes the files that can go; returns
/// their names.
///
/// # Errors
/// As [`survey`] and [`remove`].
pub fn tidy(
    store: &mut Store,
    id: CampaignId,
    departed: &[String],
) -> Result<Vec<String>, SyncError> {
    let (folder, infos) = survey(store, id, departed)?;
    // Held while removing, so no sync of this library writes meanwhile.
    let _lock = store.sync_lock()?;
    let names: Vec<String> = infos
        .iter()
        .filter(|i| i.redundant)
        .map(|i| i.file.clone())
        .collect();
    remove(&folder, &names)?;
    Ok(names)
}
