//! One campaign on every machine, through a folder the players already sync (Syncthing,
//! Nextcloud, Dropbox, a network share, a USB stick).
//!
//! Each machine keeps one file in the shared folder, `qm-<campaign id>-<machine id>.jsonl`
//! ([`crate::campaign::machine_file`]): every event that machine holds, one a line, only ever
//! appended to — by the library itself, under its write lock, as soon as an event is recorded
//! or merged ([`crate::store::Store::write_own_file`]). Syncing reads the other machines'
//! files (only what was added since the last read), takes what is new into the library — each
//! event on its own: [`crate::campaign::merge`] — and appends it to this machine's file. Files
//! of older versions (whole campaign files, `qm-<id>-<machine>.json`) and sync tools' conflict
//! copies are read like the others.
//!
//! A damaged line, a forged event or one that does not replay is refused alone and named; an
//! incomplete file is read again next time; a deleted file loses nothing (every machine's file
//! holds what it merged from the others). This machine's file changed by someone else (another
//! computer with a copy of this library) is noticed: the library takes a new machine id and key.
//! Nothing here deletes a file but `--tidy`'s, after asking, and only files whose every event
//! another machine's file holds too.
//!
//! This module sits at the edge, outside the pure core and outside `store/`: it reads a folder
//! that is not the library, and reaches the library only through [`Store`]'s API (no SQL).

mod folder;
pub mod league;
mod report;
pub mod tidy;

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use crate::campaign::{CampaignRecord, CampaignUid, EventUid, LoggedEvent, merge};
use crate::store::{CampaignId, OwnWrite, Store, StoreError};

pub use folder::MAX_FILE_BYTES;
pub use report::{FileOutcome, FileStatus, ForkNotice, RefusedEvent, SyncReport};

/// What can go wrong sharing or syncing.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Campaign(#[from] crate::campaign::CampaignError),
    /// The folder or a file in it could not be read or written.
    #[error("{path}: {message} ({source})")]
    Io {
        path: PathBuf,
        message: &'static str,
        source: std::io::Error,
    },
    /// Nothing to sync with, or nothing that can be joined.
    #[error("{0}")]
    Nothing(String),
    /// The events were merged and stored, but this machine's file could not be written: the
    /// report says what came in.
    #[error(
        "{}; but this machine's file in the folder could not be written: {error} (written at the next sync)",
        .report.summary()
    )]
    NotWritten {
        report: Box<SyncReport>,
        error: Box<StoreError>,
    },
}

fn io<'a>(path: &'a Path, message: &'static str) -> impl FnOnce(std::io::Error) -> SyncError + 'a {
    move |source| SyncError::Io {
        path: path.to_path_buf(),
        message,
        source,
    }
}

/// The setting remembering the folder's files as last read.
fn seen_key(uid: CampaignUid) -> String {
    format!("campaign.{uid}.seen")
}

/// What the last sync of a campaign left: the files as read, and the library's newest event
/// then, so a sync with nothing new reads no file and writes none.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct SeenState {
    files: Vec<folder::Seen>,
    #[serde(default)]
    last_event: i64,
}

/// The text of a campaign file a player names (`campaign import`, the window's Import): the
/// path followed where it leads, then read only if it is a regular file, at most
/// [`crate::campaign::file::MAX_FILE_BYTES`] — never a FIFO (opening one waits forever), a
/// device (`/dev/zero` never ends) or a folder.
///
/// # Errors
/// What is wrong, in words.
pub fn read_campaign_file(path: &Path) -> Result<String, String> {
    let real = fs::canonicalize(path).map_err(|e| e.to_string())?;
    folder::read_text(&real, crate::campaign::file::MAX_FILE_BYTES as u64)
}

/// The shared folder campaign `id` syncs with, if it has one (its events are not read).
///
/// # Errors
/// The library could not be read.
pub fn shared_folder(store: &Store, id: CampaignId) -> Result<Option<PathBuf>, SyncError> {
    Ok(store.shared_folder(id)?)
}

/// The name of a campaign's file for one machine.
pub fn file_name(uid: CampaignUid, machine: &str) -> String {
    crate::store::file_name(uid, machine)
}

/// Shares campaign `id` to `folder`: remembers the folder, merges whatever the folder already
/// holds of this campaign and writes this machine's file. A folder holding another campaign
/// and none of this one is refused (it would then hold two, and nobody could join it).
///
/// # Errors
/// The folder cannot be made or written, or holds another campaign; the library cannot be
/// written.
pub fn share(store: &mut Store, id: CampaignId, folder: &Path) -> Result<SyncReport, SyncError> {
    let _lock = store.sync_lock()?;
    fs::create_dir_all(folder).map_err(io(folder, "cannot create the shared folder"))?;
    let uid = store.campaign_uid(id)?;
    let absolute = fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
    refuse_other_campaign(&absolute, uid)?;
    store.machine_id()?;
    store.set_shared_folder(id, &absolute)?;
    sync_folder_locked(store, id, &absolute)
}

/// Refuses a folder that holds another campaign's files and none of campaign `uid`'s.
fn refuse_other_campaign(folder: &Path, uid: CampaignUid) -> Result<(), SyncError> {
    match other_campaign_in(folder, uid)? {
        Some(file) => Err(SyncError::Nothing(format!(
            "{} holds another campaign ({file}) and none of this one's files: share each campaign to a folder of its own",
            folder.display()
        ))),
        None => Ok(()),
    }
}

/// A file of another campaign in `folder`, when it holds such files and none of campaign
/// `uid`'s (the campaign id is in every file's name).
///
/// # Errors
/// The folder cannot be listed.
pub fn other_campaign_in(folder: &Path, uid: CampaignUid) -> Result<Option<String>, SyncError> {
    if !folder.exists() {
        return Ok(None);
    }
    let all = folder::campaign_files(folder, None)
        .map_err(io(folder, "cannot list the shared folder"))?;
    let mine = format!("qm-{uid}");
    let names: Vec<String> = all
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    if names.iter().any(|n| n.starts_with(&mine)) {
        return Ok(None);
    }
    Ok(names.into_iter().next())
}

/// Reads every file of campaign `id` in `folder` (other machines', conflict copies, this
/// machine's own) — only what changed since the last sync — takes what is new into the
/// library and appends it to this machine's file. Events and files that cannot be used are
/// refused one by one and reported.
///
/// # Errors
/// The folder cannot be listed; the library cannot be written ([`SyncError::NotWritten`] when
/// only this machine's file could not: the merge is stored and the report says what came in).
pub fn sync_folder(
    store: &mut Store,
    id: CampaignId,
    folder: &Path,
) -> Result<SyncReport, SyncError> {
    // Two syncs of one library at once (the window and a command) wait for each other.
    let _lock = store.sync_lock()?;
    sync_folder_locked(store, id, folder)
}

/// [`sync_folder`] under the sync lock, already held.
pub(crate) fn sync_folder_locked(
    store: &mut Store,
    id: CampaignId,
    folder: &Path,
) -> Result<SyncReport, SyncError> {
    let looked = FolderLook::start(store, id)?;
    let read = looked.read(folder)?;
    take_read_locked(store, id, read)
}

/// What a look at a campaign's folder starts from: the campaign, this machine and the files as
/// the last sync left them. Taken on the thread that owns the library; [`FolderLook::read`]
/// needs no library, so the window reads the folder on a thread of its own and takes what it
/// read ([`take_read`]) between frames.
#[derive(Debug, Clone)]
pub struct FolderLook {
    uid: CampaignUid,
    machine: String,
    previously: SeenState,
}

/// The files of a campaign's folder as read from where the last sync stopped.
#[derive(Debug)]
pub struct FolderRead {
    look: FolderLook,
    folder: std::path::PathBuf,
    reads: Vec<folder::FileRead>,
    incoming: Vec<folder::Incoming>,
}

impl FolderLook {
    /// The look campaign `id`'s next sync would take.
    ///
    /// # Errors
    /// The library cannot be read.
    pub fn start(store: &mut Store, id: CampaignId) -> Result<FolderLook, SyncError> {
        let uid = store.campaign_uid(id)?;
        let machine = store.machine_id()?;
        let previously: SeenState = store
            .setting(&seen_key(uid))?
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default();
        Ok(FolderLook {
            uid,
            machine,
            previously,
        })
    }

    /// Whether a read would find nothing new: each of the campaign's files in `folder` as
    /// the last sync left it (its length and time) and nothing recorded in campaign `id` here
    /// since. A few `stat`s and one indexed look-up: the window asks on its own thread, so a
    /// quiet folder costs no read, no thread and no frame beyond the look's own.
    pub fn nothing_new(&self, store: &Store, id: CampaignId, folder: &Path) -> bool {
        let Ok(paths) = folder::campaign_files(folder, Some(self.uid)) else {
            return false;
        };
        let as_left = |path: &std::path::PathBuf| {
            let (Some(name), Ok(meta)) = (path.file_name(), std::fs::symlink_metadata(path)) else {
                return false;
            };
            self.previously.files.iter().any(|seen| {
                *seen.name == *name.to_string_lossy()
                    && seen.len == meta.len()
                    && seen.modified_ns == folder::modified_ns(&meta)
            })
        };
        paths.len() == self.previously.files.len()
            && paths.iter().all(as_left)
            && store
                .campaign_last_event(id, self.previously.last_event)
                .is_ok_and(|last| last == self.previously.last_event)
    }

    /// Reads `folder`'s files of the campaign, each from where the last sync stopped (only
    /// what is new; nothing at all from a file unchanged since).
    ///
    /// # Errors
    /// The folder cannot be listed.
    pub fn read(self, folder: &Path) -> Result<FolderRead, SyncError> {
        let paths = folder::campaign_files(folder, Some(self.uid))
            .map_err(io(folder, "cannot list the shared folder"))?;
        let mut incoming = Vec::new();
        let mut copies = std::collections::HashMap::new();
        let mut reads = Vec::new();
        for (n, path) in paths.iter().enumerate() {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            let before = self
                .previously
                .files
                .iter()
                .find(|s| Some(&s.name) == name.as_ref());
            let mut from_file = Vec::new();
            reads.push(folder::read_file(path, n, before, &mut from_file));
            once_each(&mut incoming, &mut copies, from_file);
        }
        Ok(FolderRead {
            look: self,
            folder: folder.to_path_buf(),
            reads,
            incoming,
        })
    }
}

/// Campaign `uid`'s files in `folder` as they stand: each one's name, length and time, by
/// name (`None`: the folder cannot be listed). Two stamps that differ mean a file came, went
/// or changed; the window's folder watcher compares them so an idle window reads nothing.
#[must_use]
pub fn folder_stamp(folder: &Path, uid: CampaignUid) -> Option<Vec<(PathBuf, u64, u128)>> {
    let paths = folder::campaign_files(folder, Some(uid)).ok()?;
    Some(
        paths
            .into_iter()
            .map(|path| {
                let (len, modified) = std::fs::symlink_metadata(&path)
                    .map_or((0, 0), |meta| (meta.len(), folder::modified_ns(&meta)));
                (path, len, modified)
            })
            .collect(),
    )
}

impl FolderRead {
    /// The ids of the events read.
    pub fn event_ids(&self) -> Vec<EventUid> {
        self.incoming.iter().map(|i| i.event.id).collect()
    }

    /// Leaves out the events read that the library holds (`held`, from [`Self::event_ids`]):
    /// the take leaves them out all the same, so this only moves that work to where the read
    /// was made.
    pub fn drop_held(&mut self, held: &HashSet<EventUid>) {
        self.incoming.retain(|i| !held.contains(&i.event.id));
    }
}

/// Takes into campaign `id` what a [`FolderRead`] read, as [`sync_folder`] does; `None` when
/// the library synced the folder since the read began (the read is then out of date: the next
/// look reads again from where that sync stopped).
///
/// # Errors
/// As [`sync_folder`].
pub fn take_read(
    store: &mut Store,
    id: CampaignId,
    read: FolderRead,
) -> Result<Option<SyncReport>, SyncError> {
    let _lock = store.sync_lock()?;
    let now = FolderLook::start(store, id)?;
    if now.uid != read.look.uid
        || now.machine != read.look.machine
        || now.previously != read.look.previously
    {
        return Ok(None);
    }
    take_read_locked(store, id, read).map(Some)
}

fn take_read_locked(
    store: &mut Store,
    id: CampaignId,
    read: FolderRead,
) -> Result<SyncReport, SyncError> {
    let FolderRead {
        look: FolderLook {
            uid,
            machine,
            previously,
        },
        folder,
        reads,
        incoming,
    } = read;
    let mut report = SyncReport {
        folder: Some(folder),
        ..SyncReport::default()
    };
    let last_event = store.campaign_last_event(id, previously.last_event)?;
    let own = file_name(uid, &machine);
    let own_there = reads.iter().any(|r| r.name == own);
    if incoming.is_empty()
        && reads.iter().all(|r| r.unchanged)
        && own_there
        && last_event == previously.last_event
    {
        // The common open: nobody wrote and nothing was recorded here since.
        report.files = reads.iter().map(FileOutcome::unchanged).collect();
        return Ok(report);
    }
    let outcome = take_in(store, id, uid, &reads, incoming, &mut report)?;
    let mut seen = SeenState {
        files: reads.iter().filter_map(|r| r.seen.clone()).collect(),
        last_event: 0,
    };
    // An event waiting for one it follows is read again next time: its file from its line.
    for (file, offset) in outcome.rewind {
        let Some(read) = reads.get(file) else {
            continue;
        };
        if let Some(state) = seen.files.iter_mut().find(|s| s.name == read.name) {
            folder::rewind(&read.path, state, offset);
        }
    }
    // A damaged line is read again when its file changes (its owner rewrites it whole).
    for (file, offset) in outcome.damaged {
        let Some(read) = reads.get(file) else {
            continue;
        };
        if let Some(state) = seen.files.iter_mut().find(|s| s.name == read.name) {
            folder::rewind_when_changed(&read.path, state, offset);
        }
    }
    let written = write_own(store, id, &mut report);
    seen.last_event = store.campaign_last_event(id, last_event)?;
    // This machine's file as just written need not be read again; one not written stays as
    // it was read (forgetting it would have every later sync read it whole).
    if let Some(path) = report.wrote.clone()
        && let Some(state) = own_state(&path, &own)
    {
        seen.files.retain(|s| s.name != own);
        seen.files.push(state);
    }
    if previously != seen {
        let text = serde_json::to_string(&seen).unwrap_or_default();
        store.set_setting(&seen_key(uid), &text)?;
    }
    report.notices.extend(store.take_notices());
    match written {
        Ok(()) => Ok(report),
        Err(error) => Err(SyncError::NotWritten {
            report: Box::new(report),
            error: Box::new(error),
        }),
    }
}

/// This machine's file as just written: read to its end. Its length and last bytes tell that
/// (the history it holds is not read again); a file whose last line is incomplete is read.
fn own_state(path: &Path, name: &str) -> Option<folder::Seen> {
    if let Some(seen) = folder::seen_to_end(path, name) {
        return Some(seen);
    }
    let mut incoming = Vec::new();
    let read = folder::read_file(path, usize::MAX, None, &mut incoming);
    read.seen.map(|mut s| {
        s.name = name.to_string();
        s
    })
}

/// What taking the events in left to do.
struct TakenIn {
    /// (file, offset): files to read again from a line whose event waits.
    rewind: Vec<(usize, u64)>,
    /// (file, offset): files to read again from a damaged line when they change.
    damaged: Vec<(usize, u64)>,
}

impl TakenIn {
    /// Says each refused event in `report`, counted against the file it came in; a waiting
    /// event's file is read again from its line, a damaged or edited copy's when its file
    /// changes.
    fn note_refused(
        &mut self,
        refused: &[merge::Refused],
        sources: &Sources,
        reads: &[folder::FileRead],
        per_file: &mut [(usize, usize)],
        report: &mut SyncReport,
    ) {
        for refused in refused {
            let place = sources.of_event(refused.id, refused.copy.as_deref());
            let (file, line) = place.unwrap_or((usize::MAX, 0));
            if refused.waiting && file != usize::MAX {
                self.rewind.push((file, line));
            } else if refused.copy.is_some() && file != usize::MAX {
                self.damaged.push((file, line));
            }
            if let Some(slot) = per_file.get_mut(file) {
                slot.1 += 1;
            }
            report.refused.push(RefusedEvent {
                file: reads.get(file).map(|r| r.name.clone()).unwrap_or_default(),
                battle: refused.battle,
                event: refused.id.short(),
                kind: refused.kind.to_string(),
                reason: refused.reason.clone(),
                waiting: refused.waiting,
            });
        }
    }
}

/// Says in `report` each fork the events `taken` left open, battle by battle.
fn note_forks(merged: &CampaignRecord, taken: &[(usize, LoggedEvent)], report: &mut SyncReport) {
    let touched: std::collections::BTreeSet<usize> = taken.iter().map(|(i, _)| *i).collect();
    for index in touched {
        if let Some(fork) = merged.open_fork(index) {
            report.forks.push(fork_notice(merged, index, &fork));
        }
    }
    report.forked = report.forks.iter().map(|f| f.battle).collect();
}

/// Where each copy of each event came from, for naming the file a refused copy came in.
struct Sources {
    by_id: BTreeMap<EventUid, Vec<(usize, u64, LoggedEvent)>>,
}

impl Sources {
    fn of(incoming: &[folder::Incoming]) -> Self {
        let mut by_id: BTreeMap<EventUid, Vec<(usize, u64, LoggedEvent)>> = BTreeMap::new();
        for i in incoming {
            by_id
                .entry(i.event.id)
                .or_default()
                .push((i.file, i.line_start, i.event.clone()));
        }
        Sources { by_id }
    }

    /// The file and line that brought event `id` (the copy `copy`, when it is a refused copy).
    fn of_event(&self, id: EventUid, copy: Option<&LoggedEvent>) -> Option<(usize, u64)> {
        let copies = self.by_id.get(&id)?;
        copies
            .iter()
            .find(|(_, _, e)| copy.is_none_or(|c| c == e))
            .or_else(|| copies.first())
            .map(|(f, l, _)| (*f, *l))
    }
}

/// Merges `incoming` (read from `reads`) into campaign `id` and fills the report.
fn take_in(
    store: &mut Store,
    id: CampaignId,
    uid: CampaignUid,
    reads: &[folder::FileRead],
    incoming: Vec<folder::Incoming>,
    report: &mut SyncReport,
) -> Result<TakenIn, SyncError> {
    let mut taken_in = TakenIn {
        rewind: Vec::new(),
        damaged: Vec::new(),
    };
    let mut per_file: Vec<(usize, usize)> = vec![(0, 0); reads.len()];
    // Files of another campaign (a header saying so) are not this campaign's.
    let foreign: HashSet<usize> = reads
        .iter()
        .enumerate()
        .filter(|(_, r)| r.campaign.is_some_and(|c| c != uid))
        .map(|(n, _)| n)
        .collect();
    let incoming: Vec<folder::Incoming> = incoming
        .into_iter()
        .filter(|i| !foreign.contains(&i.file))
        .collect();
    for (n, read) in reads.iter().enumerate() {
        if let (Some(at), false) = (read.first_damage, foreign.contains(&n)) {
            taken_in.damaged.push((n, at));
        }
    }
    // Events already held are not merged again (nor loaded: a battle is loaded only when it
    // gains an event) — unless a copy differs, which is named as damaged.
    let ids: Vec<EventUid> = {
        let set: HashSet<EventUid> = incoming.iter().map(|i| i.event.id).collect();
        set.into_iter().collect()
    };
    let held = store.stored_event_ids(&ids)?;
    let fresh: Vec<folder::Incoming> = incoming
        .into_iter()
        .filter(|i| !held.contains(&i.event.id))
        .collect();
    let definitions: Vec<crate::campaign::Campaign> = reads
        .iter()
        .enumerate()
        .filter(|(n, _)| !foreign.contains(n))
        .flat_map(|(_, r)| r.definitions.iter().cloned())
        .collect();
    let basis = store.membership_basis(id)?;
    let admissions: Vec<crate::campaign::membership::Admission> = {
        let known: HashSet<EventUid> = basis.admissions.iter().map(|a| a.id).collect();
        let mut seen = HashSet::new();
        reads
            .iter()
            .enumerate()
            .filter(|(n, _)| !foreign.contains(n))
            .flat_map(|(_, r)| r.admissions.iter())
            .filter(|a| !known.contains(&a.id) && seen.insert((a.id, a.seal)))
            .cloned()
            .collect()
    };
    let (_, campaign, _) = store.campaign_outline(id)?;
    // The (key, names) pairs of the events taken: a claim on a held name is said when its
    // events come.
    let mut claimed: HashSet<(crate::campaign::seal::PublicKey, crate::campaign::Recorder)> =
        HashSet::new();
    let grows = definitions
        .iter()
        .any(|d| d.battles.len() > campaign.battles.len());
    if !fresh.is_empty() || grows || !admissions.is_empty() {
        let sources = Sources::of(&fresh);
        // The battles that gain events, as the library holds them (all of them when losses
        // carry forward: a battle's losses decide the next one's units).
        let affected: HashSet<usize> = fresh.iter().map(|i| i.index).collect();
        let local = store
            .load_campaign_for_battles(id, &|index| affected.contains(&index))?
            .record;
        let events: Vec<(usize, LoggedEvent)> =
            fresh.into_iter().map(|i| (i.index, i.event)).collect();
        let (merged, merge_report) = merge::merge_events_known(
            &local,
            merge::Incoming {
                definitions,
                events,
                admissions,
                legacy: false,
            },
            basis,
        )?;
        if !merge_report.taken.is_empty()
            || !merge_report.admissions.is_empty()
            || merged.campaign.battles.len() > campaign.battles.len()
        {
            store.store_incoming(
                id,
                &merged.campaign,
                &merge_report.taken,
                &merge_report.admissions,
            )?;
        }
        report.added = merge_report.taken.len();
        claimed.extend(
            merge_report
                .taken
                .iter()
                .filter_map(|(_, e)| e.seal.map(|s| (s.key, e.by.clone()))),
        );
        report.admissions = merge_report.admissions.len();
        report
            .new_admissions
            .extend(merge_report.admissions.iter().cloned());
        report.taken = merge_report.taken.clone();
        report.battles_added = merged
            .campaign
            .battles
            .len()
            .saturating_sub(campaign.battles.len());
        for (_, e) in &merge_report.taken {
            if let Some((file, _)) = sources.of_event(e.id, None) {
                per_file[file].0 += 1;
            }
        }
        taken_in.note_refused(
            &merge_report.refused,
            &sources,
            reads,
            &mut per_file,
            report,
        );
        note_forks(&merged, &merge_report.taken, report);
        note_foreign_writer(store, uid, &merge_report.taken, report)?;
    }
    // A member admits the first claims it sees, so they are firm before anyone disputes them.
    let admitted = store.admit_claimants(id)?;
    report.admitted = admitted.len();
    report.new_admissions.extend(admitted);
    // Said in the report (a front end holding the campaign reloads on it), not kept.
    store.take_admitted();
    report.admissions += report.admitted;
    report.conflicts = conflicts_to_say(&store.membership(id)?, &claimed, &campaign.name);
    for (n, read) in reads.iter().enumerate() {
        let (taken, refused) = per_file[n];
        report
            .files
            .push(FileOutcome::of(read, taken, refused, foreign.contains(&n)));
    }
    Ok(taken_in)
}

/// What a sync says about names: every conflict the players must settle, and every claim on a
/// held name whose events this sync took (set aside: said once, when they come).
fn conflicts_to_say(
    membership: &crate::campaign::membership::Membership,
    claimed: &HashSet<(crate::campaign::seal::PublicKey, crate::campaign::Recorder)>,
    campaign: &str,
) -> Vec<String> {
    let mut said: Vec<String> = membership
        .conflicts()
        .iter()
        .map(|c| c.describe(campaign))
        .collect();
    said.extend(
        membership
            .claims_on_held_names()
            .into_iter()
            .filter(|c| {
                c.keys
                    .iter()
                    .any(|k| !c.members.contains(k) && claimed.contains(&(*k, c.names.clone())))
            })
            .map(|c| c.describe(campaign)),
    );
    said
}

/// A fork for the report: who recorded its branches and the fork in a sentence.
fn fork_notice(
    record: &CampaignRecord,
    index: usize,
    fork: &crate::campaign::Fork<'_>,
) -> ForkNotice {
    let mut who: Vec<String> = Vec::new();
    for b in &fork.branches {
        let name = b
            .events
            .first()
            .map_or_else(|| "someone".to_string(), |e| record.recorded_by(e));
        if !who.contains(&name) {
            who.push(name);
        }
    }
    let battle = record.battle_number(index);
    ForkNotice {
        battle,
        who,
        sentence: fork.describe(battle, &|e| record.recorded_by(e)),
    }
}

/// Events signed with this library's own key that it did not hold, found in the folder: another
/// library signs with its key (a copy of it), unless this library was restored from a backup
/// since its last sync (then they are its own, recorded after the backup was made). Of two
/// copies finding each other, the one whose newest own event is the older takes a new machine
/// id and key, so exactly one of them does.
fn note_foreign_writer(
    store: &mut Store,
    uid: CampaignUid,
    taken: &[(usize, LoggedEvent)],
    report: &mut SyncReport,
) -> Result<(), SyncError> {
    let mine = store.machine_key()?.public();
    let foreign: Vec<&LoggedEvent> = taken
        .iter()
        .map(|(_, e)| e)
        .filter(|e| e.seal.is_some_and(|s| s.key == mine))
        .collect();
    if foreign.is_empty() {
        return Ok(());
    }
    if store.take_restored(uid)? {
        report.notices.push(format!(
            "{} this library recorded after the backup it was restored from came back from the folder",
            crate::rules::words::amount(foreign.len() as u64, "events")
        ));
        return Ok(());
    }
    let newest_theirs = foreign.iter().map(|e| (e.recorded_at.clone(), e.id)).max();
    let just_taken: HashSet<EventUid> = taken.iter().map(|(_, e)| e.id).collect();
    let newest_mine = store.newest_own_event(uid, &mine, &just_taken)?;
    if newest_mine < newest_theirs {
        let new_id = store.reidentify(
            "another computer signs with this library's key (a copy of this library)",
        )?;
        report.reidentified = Some(new_id);
    }
    Ok(())
}

/// Brings this machine's file up to date; a file someone else changed is rewritten whole (its
/// events were just read: anything new in it is in the library now).
fn write_own(store: &mut Store, id: CampaignId, report: &mut SyncReport) -> Result<(), StoreError> {
    let mut written = store.write_own_file(id, false)?;
    if let OwnWrite::Changed(_) = written {
        written = store.write_own_file(id, true)?;
    }
    report.wrote = written.wrote().map(Path::to_path_buf);
    Ok(())
}

/// Merges one campaign file (an export, or a machine's file from a shared folder) into
/// campaign `id`.
///
/// # Errors
/// The file cannot be read or is another campaign; the library cannot be written.
pub fn sync_file(store: &mut Store, id: CampaignId, path: &Path) -> Result<SyncReport, SyncError> {
    let _lock = store.sync_lock()?;
    let uid = store.campaign_uid(id)?;
    store.machine_id()?;
    let mut incoming = Vec::new();
    let read = folder::read_file(path, 0, None, &mut incoming);
    if let Some(why) = &read.unusable {
        return Err(SyncError::Nothing(format!("{}: {why}", path.display())));
    }
    if let Some(other) = read.campaign.filter(|c| *c != uid) {
        return Err(SyncError::Nothing(format!(
            "{} is another campaign (id {other}); this one is id {uid}",
            path.display()
        )));
    }
    let mut report = SyncReport::default();
    take_in(
        store,
        id,
        uid,
        std::slice::from_ref(&read),
        incoming,
        &mut report,
    )?;
    if let Some(f) = report.files.first_mut() {
        f.file = path.display().to_string();
    }
    let written = write_own(store, id, &mut report);
    report.notices.extend(store.take_notices());
    written.map_err(|error| SyncError::NotWritten {
        report: Box::new(report.clone()),
        error: Box::new(error),
    })?;
    Ok(report)
}

/// A campaign read from a shared folder or a campaign file, for joining it: every file of the
/// one campaign in the folder read once and merged, event by event.
#[derive(Debug, Clone)]
pub struct Found {
    pub record: CampaignRecord,
    pub report: SyncReport,
    seen: Vec<folder::Seen>,
}

/// Reads the campaign to join from `path`: a campaign file, or a shared folder's files. A
/// folder holding several campaigns gives the one named `name` (by its definition's name).
///
/// # Errors
/// Nothing usable there; several campaigns and none named so.
pub fn read_to_join(path: &Path, name: &str) -> Result<Found, SyncError> {
    // The path the player gives is followed (a shared folder reached through a link, as
    // `share` prints it); the folder's own entries are not.
    let is_dir = fs::metadata(path).is_ok_and(|m| m.is_dir());
    let paths = if is_dir {
        folder::campaign_files(path, None).map_err(io(path, "cannot list the folder"))?
    } else {
        vec![fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())]
    };
    read_paths_to_join(path, is_dir, &paths, name, &mut |n, p, out| {
        folder::read_file(p, n, None, out)
    })
}

/// Reads file `path`, number `n` of the list, appending its events to the vector given: how
/// [`read_paths_to_join`] gets each file (the league table answers from its cache what has
/// not changed since it last read it).
type ReadFile<'a> = dyn FnMut(usize, &Path, &mut Vec<folder::Incoming>) -> folder::FileRead + 'a;

/// [`read_to_join`] over the given files of `path` (all of a folder's, or one file), each
/// got through `read_file`: the league table reads a folder's machine files one campaign at a
/// time.
///
/// # Errors
/// As [`read_to_join`].
fn read_paths_to_join(
    path: &Path,
    is_dir: bool,
    paths: &[PathBuf],
    name: &str,
    read_file: &mut ReadFile<'_>,
) -> Result<Found, SyncError> {
    let mut incoming = Vec::new();
    let mut copies = std::collections::HashMap::new();
    let reads: Vec<folder::FileRead> = paths
        .iter()
        .enumerate()
        .map(|(n, p)| {
            // Every machine's file holds (nearly) every event: each is kept once as read.
            let mut from_file = Vec::new();
            let read = read_file(n, p, &mut from_file);
            once_each(&mut incoming, &mut copies, from_file);
            read
        })
        .collect();
    if !is_dir && let Some(why) = reads.first().and_then(|r| r.unusable.clone()) {
        return Err(SyncError::Nothing(format!("{}: {why}", path.display())));
    }
    // The campaigns there, by id, with the names their definitions give.
    let mut campaigns: BTreeMap<CampaignUid, Vec<usize>> = BTreeMap::new();
    for (n, r) in reads.iter().enumerate() {
        if let Some(c) = r.campaign {
            campaigns.entry(c).or_default().push(n);
        }
    }
    let named = |files: &[usize]| -> Option<String> {
        files
            .iter()
            .find_map(|n| reads[*n].definitions.first().map(|d| d.name.clone()))
    };
    let uid = match campaigns.len() {
        0 => {
            return Err(SyncError::Nothing(format!(
                "{} holds no readable campaign file (qm-….jsonl or a campaign export)",
                path.display()
            )));
        }
        1 => campaigns.keys().next().copied(),
        _ => campaigns
            .iter()
            .find(|(_, files)| {
                named(files).is_some_and(|n| {
                    crate::rules::names::fold(&n) == crate::rules::names::fold(name)
                })
            })
            .map(|(c, _)| *c),
    }
    .ok_or_else(|| {
        let list: Vec<String> = campaigns
            .values()
            .map(|files| format!("'{}'", named(files).unwrap_or_default()))
            .collect();
        SyncError::Nothing(format!(
            "{} holds {} campaigns ({}): join one by its name",
            path.display(),
            campaigns.len(),
            list.join(", ")
        ))
    })?;
    let files = &campaigns[&uid];
    let definitions: Vec<crate::campaign::Campaign> = files
        .iter()
        .flat_map(|n| reads[*n].definitions.iter().cloned())
        .collect();
    // A campaign with a genesis began as its genesis says (every header carrying one was
    // checked against the id, so they are all the same); one begun before, with the shortest
    // definition (battles set up later come as events or longer definitions, merged in).
    let genesis = files.iter().find_map(|n| reads[*n].genesis.clone());
    let empty = match genesis {
        Some(genesis) => CampaignRecord::begun(genesis),
        None => {
            let base = definitions
                .iter()
                .min_by_key(|d| d.battles.len())
                .cloned()
                .ok_or_else(|| SyncError::Nothing("no campaign definition found".into()))?;
            CampaignRecord::new(uid, base)
        }
    };
    let incoming: Vec<folder::Incoming> = incoming
        .into_iter()
        .filter(|i| files.contains(&i.file))
        .collect();
    let sources = Sources::of(&incoming);
    let events: Vec<(usize, LoggedEvent)> =
        incoming.into_iter().map(|i| (i.index, i.event)).collect();
    let mut seen_admissions = HashSet::new();
    let admissions = files
        .iter()
        .flat_map(|n| reads[*n].admissions.iter())
        .filter(|a| seen_admissions.insert((a.id, a.seal)))
        .cloned()
        .collect();
    let (mut record, merged) = merge::merge_all(
        &empty,
        merge::Incoming {
            definitions,
            events,
            admissions,
            legacy: false,
        },
    )?;
    // The name the players gave it (the genesis's, or the first file's definition's).
    if let Some(name) = files
        .iter()
        .find_map(|n| reads[*n].definitions.first().map(|d| d.name.clone()))
    {
        record.campaign.name = name;
    }
    let mut report = SyncReport {
        folder: is_dir.then(|| path.to_path_buf()),
        added: merged.taken.len(),
        battles_added: record.campaign.battles.len(),
        forked: merged.forked.clone(),
        ..SyncReport::default()
    };
    for &battle in &merged.forked {
        let index = usize::try_from(battle.saturating_sub(1)).unwrap_or(usize::MAX);
        if let Some(fork) = record.open_fork(index) {
            report.forks.push(fork_notice(&record, index, &fork));
        }
    }
    let claimed = merged
        .taken
        .iter()
        .filter_map(|(_, e)| e.seal.map(|s| (s.key, e.by.clone())))
        .collect();
    report.conflicts = conflicts_to_say(record.membership(), &claimed, &record.campaign.name);
    let mut per_file = vec![(0usize, 0usize); reads.len()];
    for (_, e) in &merged.taken {
        if let Some((f, _)) = sources.of_event(e.id, None) {
            per_file[f].0 += 1;
        }
    }
    for refused in &merged.refused {
        let file = sources
            .of_event(refused.id, refused.copy.as_deref())
            .map(|(f, _)| f);
        if let Some(f) = file {
            per_file[f].1 += 1;
        }
        report.refused.push(RefusedEvent {
            file: file
                .and_then(|f| reads.get(f))
                .map(|r| r.name.clone())
                .unwrap_or_default(),
            battle: refused.battle,
            event: refused.id.short(),
            kind: refused.kind.to_string(),
            reason: refused.reason.clone(),
            waiting: refused.waiting,
        });
    }
    for (n, read) in reads.iter().enumerate() {
        let other = read.campaign.is_some_and(|c| c != uid);
        report
            .files
            .push(FileOutcome::of(read, per_file[n].0, per_file[n].1, other));
    }
    let seen = reads
        .iter()
        .enumerate()
        .filter(|(n, _)| files.contains(n))
        .filter_map(|(_, r)| r.seen.clone())
        .collect();
    Ok(Found {
        record,
        report,
        seen,
    })
}

/// Adds `more` to `all`, leaving out events `all` holds already exactly so (`copies`: where
/// each id's copies are in `all`). Different copies of one id are all kept, for the merge to
/// tell the genuine one.
fn once_each(
    all: &mut Vec<folder::Incoming>,
    copies: &mut std::collections::HashMap<EventUid, Vec<usize>>,
    more: Vec<folder::Incoming>,
) {
    for incoming in more {
        let places = copies.entry(incoming.event.id).or_default();
        if places
            .iter()
            .any(|&p| all[p].index == incoming.index && all[p].event == incoming.event)
        {
            continue;
        }
        places.push(all.len());
        all.push(incoming);
    }
}

/// Stores a campaign read by [`read_to_join`] under `name` and, when it came from a folder,
/// shares it back there: this machine's file written whole, the folder's files remembered as
/// read (so the next sync reads only what is new).
///
/// # Errors
/// The name is taken by another campaign (join under another name: the error says how); the
/// campaign is already in the library; the library or the folder cannot be written.
pub fn join(
    store: &mut Store,
    found: Found,
    name: &str,
    folder: Option<&Path>,
) -> Result<(crate::store::StoredCampaign, SyncReport), SyncError> {
    let _lock = store.sync_lock()?;
    let Found {
        mut record,
        mut report,
        seen,
    } = found;
    if let Some(existing) = store.find_campaign_by_uid(record.id)? {
        let here = store.load_campaign(existing)?.record.campaign.name;
        return Err(SyncError::Nothing(format!(
            "this campaign is already in the library as '{here}': `quartermaster campaign sync \"{here}\"` brings it up to date"
        )));
    }
    if store.find_campaign(name)?.is_some() {
        return Err(SyncError::Nothing(format!(
            "this library already has another campaign named '{name}'; join this one under another name: `quartermaster campaign sync \"{name}\" PATH --as \"NEW NAME\"`"
        )));
    }
    record.campaign.name = name.trim().to_string();
    let stored = store.create_campaign_record(&record)?;
    if let Some(folder) = folder {
        let absolute = fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
        store.machine_id()?;
        store.set_shared_folder(stored.id, &absolute)?;
        let uid = record.id;
        let state = SeenState {
            files: seen,
            last_event: 0,
        };
        store.set_setting(
            &seen_key(uid),
            &serde_json::to_string(&state).unwrap_or_default(),
        )?;
        match sync_folder_locked(store, stored.id, &absolute) {
            Ok(mut again) => {
                report.wrote = again.wrote.take();
                report.notices.append(&mut again.notices);
                report.admitted += again.admitted;
            }
            // Joined and stored; only the folder could not take this machine's file (read-only,
            // full): said with what the join brought, not with the second read's nothing.
            Err(SyncError::NotWritten { error, .. }) => {
                report.notices.extend(store.take_notices());
                return Err(SyncError::NotWritten {
                    report: Box::new(report),
                    error,
                });
            }
            Err(other) => return Err(other),
        }
    }
    report.notices.extend(store.take_notices());
    Ok((stored, report))
}
