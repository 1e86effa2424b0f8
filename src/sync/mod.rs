//! One campaign on every machine, through a folder the players already sync (Syncthing,
//! Nextcloud, Dropbox, a network share, a USB stick).
//!
//! Each machine writes one file into the shared folder, `qm-<campaign id>-<machine id>.json`:
//! a campaign file (the format `campaign export` writes) holding every event that machine
//! knows. It is only ever rewritten whole and atomically (temporary name, fsync, rename, fsync
//! of the folder), and only ever grows: events are never taken out. Reading the folder merges
//! every file of the campaign into the local library ([`crate::campaign::merge`]).
//!
//! A file that is half-written, truncated, damaged or from a newer version is skipped and
//! named in the report (it is read again next time, once complete); a stale file adds nothing;
//! a deleted file loses nothing, since every machine's file holds what it merged from the
//! others; a sync tool's conflict copy (`… (conflicted copy …).json`,
//! `….sync-conflict-….json`) is read like any other file. Nothing here deletes or edits a file
//! but this machine's own.
//!
//! This module sits at the edge, outside the pure core and outside `store/`: it does file I/O
//! on a folder that is not the library, and reaches the library only through [`Store`]'s API
//! (no SQL), so `store/` stays the one place SQL lives and `campaign/` stays pure.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::campaign::{CampaignRecord, CampaignUid, file, merge};
use crate::rules::words::amount;
use crate::store::{CampaignId, Store, StoreError, StoredCampaign};

/// What can go wrong sharing or syncing.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Campaign(#[from] crate::campaign::CampaignError),
    /// The folder or this machine's file in it could not be read or written.
    #[error("{path}: {message}: {source}")]
    Io {
        path: PathBuf,
        message: &'static str,
        source: std::io::Error,
    },
    /// Nothing to sync with.
    #[error("{0}")]
    Nothing(String),
}

fn io<'a>(path: &'a Path, message: &'static str) -> impl FnOnce(std::io::Error) -> SyncError + 'a {
    move |source| SyncError::Io {
        path: path.to_path_buf(),
        message,
        source,
    }
}

/// One file of the folder, and what became of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileOutcome {
    pub file: String,
    /// `merged` (read, its events are in the library), `skipped` (not usable now: why is in
    /// `note`) or `unchanged` (the same as at the last sync: not read again).
    pub status: &'static str,
    pub note: String,
}

/// What a sync did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SyncReport {
    pub folder: Option<PathBuf>,
    pub files: Vec<FileOutcome>,
    /// Events new to this library.
    pub added: usize,
    pub battles_added: usize,
    /// Battles waiting for a choice of branch after the sync.
    pub forked: Vec<u32>,
    /// This machine's file, when it was (re)written.
    pub wrote: Option<PathBuf>,
}

impl SyncReport {
    /// The files that could not be used, for telling the user.
    pub fn skipped(&self) -> impl Iterator<Item = &FileOutcome> {
        self.files.iter().filter(|f| f.status == "skipped")
    }

    /// One line for a notice or the terminal.
    pub fn summary(&self) -> String {
        let read = self.files.iter().filter(|f| f.status == "merged").count();
        let skipped = self.skipped().count();
        let mut text = format!(
            "{} from {}",
            amount(self.added as u64, "new events"),
            amount(read as u64, "files")
        );
        if self.battles_added > 0 {
            text.push_str(&format!(
                ", {}",
                amount(self.battles_added as u64, "new battles")
            ));
        }
        if skipped > 0 {
            text.push_str(&format!(
                "; {} skipped (incomplete, damaged or another campaign: read again next time)",
                amount(skipped as u64, "files")
            ));
        }
        if self.wrote.is_some() {
            text.push_str("; this machine's file written");
        }
        if !self.forked.is_empty() {
            let list: Vec<String> = self.forked.iter().map(u32::to_string).collect();
            text.push_str(&format!(
                "; battle {} forked: choose a branch",
                list.join(", ")
            ));
        }
        text
    }
}

/// The setting remembering a campaign's shared folder.
fn folder_key(uid: CampaignUid) -> String {
    format!("campaign.{uid}.shared_folder")
}

/// The setting remembering the folder's files as last read (name, size, modification time).
fn seen_key(uid: CampaignUid) -> String {
    format!("campaign.{uid}.seen")
}

/// A file as last read: unchanged size and time means unchanged content for a whole-file
/// atomic writer, so it need not be parsed again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Seen {
    name: String,
    len: u64,
    modified_ns: u128,
}

/// What the last sync of a campaign left: the files it read and how many events this
/// machine's own file held, so an open with nothing new reads no file and writes none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct SeenState {
    files: Vec<Seen>,
    own_events: usize,
}

/// The shared folder campaign `id` syncs with, if it has one.
///
/// # Errors
/// The library could not be read.
pub fn shared_folder(store: &Store, record: &CampaignRecord) -> Result<Option<PathBuf>, SyncError> {
    Ok(store.setting(&folder_key(record.id))?.map(PathBuf::from))
}

/// The name of a campaign's file for one machine.
pub fn file_name(uid: CampaignUid, machine: &str) -> String {
    format!("qm-{uid}-{machine}.json")
}

/// Shares campaign `id` to `folder`: remembers the folder, merges whatever the folder already
/// holds of this campaign and writes this machine's file.
///
/// # Errors
/// The folder cannot be made or written; the library cannot be written.
pub fn share(store: &mut Store, id: CampaignId, folder: &Path) -> Result<SyncReport, SyncError> {
    fs::create_dir_all(folder).map_err(io(folder, "cannot create the shared folder"))?;
    let uid = store.load_campaign(id)?.record.id;
    let absolute = fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
    store.set_setting(&folder_key(uid), &absolute.display().to_string())?;
    sync_folder(store, id, &absolute)
}

/// Reads every file of campaign `id` in `folder` (other machines', conflict copies, this
/// machine's own), merges what is new into the library, then rewrites this machine's file if
/// the library holds more than it does. Files that cannot be used are skipped and reported.
///
/// # Errors
/// The folder cannot be listed; the library or this machine's file cannot be written.
pub fn sync_folder(
    store: &mut Store,
    id: CampaignId,
    folder: &Path,
) -> Result<SyncReport, SyncError> {
    sync_folder_from(store, id, None, folder).map(|(report, _)| report)
}

/// [`sync_folder`] for a campaign the caller holds already (the window's open campaign, just
/// loaded): it is not read from the library again, and when anything came in the merged record
/// comes back, as stored, so the caller need not read it again either.
///
/// # Errors
/// As [`sync_folder`].
pub fn sync_loaded(
    store: &mut Store,
    local: &StoredCampaign,
    folder: &Path,
) -> Result<(SyncReport, Option<CampaignRecord>), SyncError> {
    sync_folder_from(store, local.id, Some(local), folder)
}

fn sync_folder_from(
    store: &mut Store,
    id: CampaignId,
    loaded: Option<&StoredCampaign>,
    folder: &Path,
) -> Result<(SyncReport, Option<CampaignRecord>), SyncError> {
    let uid = store.campaign_uid(id)?;
    let previously: SeenState = store
        .setting(&seen_key(uid))?
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default();
    let mut report = SyncReport {
        folder: Some(folder.to_path_buf()),
        ..SyncReport::default()
    };
    let files = campaign_files(folder, uid)?;
    // The common open: nobody wrote since the last sync and nothing was recorded here. Then
    // no file is read, the campaign is not loaded and nothing is written.
    let stats: Vec<Option<Seen>> = files
        .iter()
        .map(|path| {
            let name = path.file_name()?.to_string_lossy().into_owned();
            stat(path, &name)
        })
        .collect();
    let own_name = file_name(uid, &store.machine_id()?);
    let all_seen = stats
        .iter()
        .all(|s| s.as_ref().is_some_and(|s| previously.files.contains(s)));
    let own_there = stats.iter().flatten().any(|s| s.name == own_name);
    if all_seen && own_there && store.campaign_event_count(id)? == previously.own_events {
        report.files = stats
            .iter()
            .flatten()
            .map(|s| outcome(&s.name, "unchanged", String::new()))
            .collect();
        return Ok((report, None));
    }
    let read;
    let local = match loaded {
        Some(local) => local,
        None => {
            read = store.load_campaign(id)?;
            &read
        }
    };
    let mut merged = local.record.clone();
    let mut seen = SeenState::default();
    for (path, now) in files.iter().zip(stats) {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Some(now) = &now
            && previously.files.contains(now)
        {
            seen.files.push(now.clone());
            report
                .files
                .push(outcome(&name, "unchanged", String::new()));
            continue;
        }
        match read_copy(path).and_then(|copy| Ok(merge::merge(&merged, &copy)?)) {
            Ok((next, _)) => {
                merged = next;
                seen.files.extend(now);
                report.files.push(outcome(&name, "merged", String::new()));
            }
            // Read again next time: it may be a file a sync tool is still writing.
            Err(why) => report
                .files
                .push(outcome(&name, "skipped", why.to_string())),
        }
    }
    finish(store, local, &merged, &mut report)?;
    let own_current = seen.files.iter().any(|s| s.name == own_name);
    let total = local.record.event_count() + report.added;
    if !own_current || total != previously.own_events || report.battles_added > 0 {
        // `merged` is what the library now holds: written as it is, not loaded again.
        report.wrote = write_own(&merged, &folder.join(&own_name))?;
        seen.files.retain(|s| s.name != own_name);
        seen.files.extend(stat(&folder.join(&own_name), &own_name));
    }
    seen.own_events = total;
    if previously != seen {
        let text = serde_json::to_string(&seen).unwrap_or_default();
        store.set_setting(&seen_key(uid), &text)?;
    }
    let added = report.added > 0 || report.battles_added > 0;
    Ok((report, added.then_some(merged)))
}

/// Merges one campaign file (an export, or a machine's file from a shared folder) into
/// campaign `id`.
///
/// # Errors
/// The file cannot be read, is another campaign, or holds events that do not replay.
pub fn sync_file(store: &mut Store, id: CampaignId, path: &Path) -> Result<SyncReport, SyncError> {
    let local = store.load_campaign(id)?;
    let copy = read_copy(path)?;
    let (merged, _) = merge::merge(&local.record, &copy)?;
    let mut report = SyncReport::default();
    let name = path.display().to_string();
    report.files.push(outcome(&name, "merged", String::new()));
    finish(store, &local, &merged, &mut report)?;
    Ok(report)
}

/// Stores what the merges added and fills the report's totals.
fn finish(
    store: &mut Store,
    local: &StoredCampaign,
    merged: &CampaignRecord,
    report: &mut SyncReport,
) -> Result<(), SyncError> {
    report.battles_added = merged
        .campaign
        .battles
        .len()
        .saturating_sub(local.record.campaign.battles.len());
    report.forked = (0..merged.campaign.battles.len())
        .filter(|&i| merged.open_fork(i).is_some())
        .filter_map(|i| merged.campaign.battles.get(i).map(|b| b.number()))
        .collect();
    report.added = merged.event_count() - local.record.event_count();
    if report.added > 0 || report.battles_added > 0 {
        store.store_merged(local.id, merged)?;
    }
    Ok(())
}

/// A campaign file read without replaying it (the merge verifies what it brings in).
fn read_copy(path: &Path) -> Result<CampaignRecord, SyncError> {
    let meta = fs::metadata(path).map_err(io(path, "cannot read"))?;
    if meta.len() > file::MAX_FILE_BYTES as u64 {
        return Err(SyncError::Nothing(format!(
            "{} bytes; at most {}",
            meta.len(),
            file::MAX_FILE_BYTES
        )));
    }
    let bytes = fs::read(path).map_err(io(path, "cannot read"))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| SyncError::Nothing("not UTF-8 text: incomplete or damaged".to_string()))?;
    Ok(file::read_unverified(&text)?)
}

/// Every file in `folder` that may hold campaign `uid`: `qm-<uid>…json`, conflict copies
/// included; hidden files (temporary names, ours and sync tools') are left alone.
fn campaign_files(folder: &Path, uid: CampaignUid) -> Result<Vec<PathBuf>, SyncError> {
    let prefix = format!("qm-{uid}");
    let mut files: Vec<PathBuf> = fs::read_dir(folder)
        .map_err(io(folder, "cannot list the shared folder"))?
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".json"))
        })
        .collect();
    files.sort();
    Ok(files)
}

fn stat(path: &Path, name: &str) -> Option<Seen> {
    let meta = fs::metadata(path).ok()?;
    let modified_ns = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos();
    Some(Seen {
        name: name.to_string(),
        len: meta.len(),
        modified_ns,
    })
}

fn outcome(file: &str, status: &'static str, note: String) -> FileOutcome {
    FileOutcome {
        file: file.to_string(),
        status,
        note,
    }
}

/// Rewrites this machine's file at `path` with `record` (everything the library holds of
/// the campaign), when that differs from what the file holds. Returns the path when written.
fn write_own(record: &CampaignRecord, path: &Path) -> Result<Option<PathBuf>, SyncError> {
    let text = file::to_json_compact(record)?;
    // Compared only when the sizes match: a file of another size differs anyway, and reading
    // a club campaign's megabytes to learn that would double the cost of a sync.
    let same_size = fs::metadata(path).is_ok_and(|m| m.len() == text.len() as u64);
    if same_size && fs::read(path).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(None);
    }
    write_atomically(path, text.as_bytes())?;
    Ok(Some(path.to_path_buf()))
}

/// Writes `bytes` to `path` so that `path` always holds either the old file or the whole new
/// one: a hidden temporary name beside it, synced, renamed over it, then the folder synced.
///
/// # Errors
/// Any step of the write fails (the temporary file is removed; `path` is untouched).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), SyncError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "campaign.json".into());
    let temp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| -> std::io::Result<()> {
        let mut file = fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&temp);
        return Err(SyncError::Io {
            path: path.to_path_buf(),
            message: "cannot write this machine's file",
            source: e,
        });
    }
    // Makes the rename durable where the platform can sync a directory.
    if let Some(dir) = path.parent()
        && let Ok(handle) = fs::File::open(dir)
    {
        let _ = handle.sync_all();
    }
    Ok(())
}
