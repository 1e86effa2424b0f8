//! A club's folder of campaigns, read for the league table ([`crate::campaign::league`]).
//!
//! The folder holds what the club already passes around: campaign files as `campaign export`
//! writes them (`*.json`), shared-campaign folders as `campaign share` keeps them (a folder of
//! machine files, `qm-<campaign id>-<machine>.jsonl`), and machine files laid straight in the
//! folder. Each campaign is read as joining it would ([`super::read_paths_to_join`]: every
//! event verified) and as safely as a sync reads (regular files only, size-capped, symbolic
//! links never followed).
//!
//! Read only: nothing in the folder is written, locked, renamed or created, so a league can be
//! drawn from a folder another program is syncing. A file that cannot be used (damaged, cut
//! short, failing verification) is named with the reason and left out; the rest still ranks.
//! The same campaign found twice (an export beside its shared folder) is ranked once, from the
//! copy holding more events.
//!
//! Read again, the folder costs what changed ([`LeagueCache`]): a file whose size, times and
//! inode are as they were when last read is not opened again, and a campaign none of whose
//! files changed is not merged again; a shared campaign with one changed machine file reads
//! that file only (the others' events are kept as read) and merges again.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::{Deserialize, Serialize};

use super::{SyncError, folder, io};
use crate::campaign::league::{League, LeagueSource, rank};
use crate::campaign::{file, machine_file};

/// A file (or folder) of the league folder left out, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    /// Its path inside the league folder (`autumn/qm-….jsonl`).
    pub file: String,
    pub reason: String,
}

/// What the league folder gave: the campaigns to rank, and what was left out.
#[derive(Debug, Clone, Default)]
pub struct LeagueFolder {
    pub sources: Vec<LeagueSource>,
    pub skipped: Vec<Skipped>,
    /// Files opened and read this time: those the cache held unchanged were not.
    pub files_read: usize,
}

/// How one entry of the folder is read.
enum Entry {
    /// A campaign export: parsed and verified whole.
    Export(PathBuf),
    /// A folder that may be a shared campaign's.
    Shared(PathBuf),
    /// A machine file laid in the league folder itself.
    MachineFile(PathBuf),
    /// A symbolic link: named, never followed (it could lead anywhere).
    Link(PathBuf),
}

/// One campaign's worth of the folder: what is read, cached and ranked as one.
enum Unit {
    /// A campaign export, read and verified whole.
    Export(PathBuf),
    /// Machine files of one campaign (a shared folder's, or those laid in the league folder),
    /// merged as joining would.
    Campaign {
        /// The shared folder, or the league folder for machine files laid in it.
        at: PathBuf,
        paths: Vec<PathBuf>,
        /// How the table names it: `autumn/` for a folder, the first file's name otherwise.
        shown_as: String,
    },
    /// Nothing to read: left out for the reason given.
    Left(Skipped),
}

impl Unit {
    /// The files whose changes change what this unit gives.
    fn paths(&self) -> &[PathBuf] {
        match self {
            Unit::Export(path) => std::slice::from_ref(path),
            Unit::Campaign { paths, .. } => paths,
            Unit::Left(_) => &[],
        }
    }
}

/// A file as listed: when none of these changed, neither did its content. Taken from one
/// `stat` each, so an unchanged folder costs no byte read (a content digest would read every
/// byte of every file at each refresh, the cost this cache is there to avoid). The change
/// time and inode catch what size and modification time alone may miss: a file rewritten
/// within the same tick at the same size, a modification time set back (`touch -d`, a copy
/// keeping times), a file swapped in by rename as sync tools write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Stamp {
    len: u64,
    modified_ns: u128,
    changed_ns: i128,
    inode: u64,
}

impl Stamp {
    /// The file's stamp now; `None` when it is gone or no longer a regular file (never cached).
    fn of(path: &Path) -> Option<Stamp> {
        let meta = fs::symlink_metadata(path).ok()?;
        if !meta.is_file() {
            return None;
        }
        let (changed_ns, inode) = change_and_inode(&meta);
        Some(Stamp {
            len: meta.len(),
            modified_ns: folder::modified_ns(&meta),
            changed_ns,
            inode,
        })
    }
}

#[cfg(unix)]
fn change_and_inode(meta: &fs::Metadata) -> (i128, u64) {
    use std::os::unix::fs::MetadataExt;
    (
        i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()),
        meta.ino(),
    )
}

#[cfg(not(unix))]
fn change_and_inode(_meta: &fs::Metadata) -> (i128, u64) {
    (0, 0)
}

/// What one unit gave when last read, and the stamps of the files it was read from.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct CachedUnit {
    stamps: Vec<Option<Stamp>>,
    sources: Vec<LeagueSource>,
    skipped: Vec<Skipped>,
}

/// One machine file as last read: what merging its campaign again needs of it.
#[derive(Debug, Clone)]
struct CachedFile {
    stamp: Stamp,
    read: folder::FileRead,
    events: Vec<folder::Incoming>,
}

/// The league folder as last read, for the next read to open only what changed. Kept by the
/// window for its session; entries of files no longer in the folder are dropped at each read,
/// so it never holds more than one folder's worth.
#[derive(Debug, Clone, Default)]
pub struct LeagueCache {
    units: HashMap<PathBuf, CachedUnit>,
    files: HashMap<PathBuf, CachedFile>,
}

/// A [`LeagueCache`] as kept in the library between sessions: what each campaign gave, by
/// the stamps of its files. The machine files' events are left out (a shared campaign with a
/// changed file is read whole again), so what is kept stays a few kilobytes a campaign.
#[derive(Serialize, Deserialize)]
struct SavedCache {
    folder: PathBuf,
    units: Vec<(PathBuf, CachedUnit)>,
}

impl LeagueCache {
    /// The cache of `folder` as text to keep between sessions ([`LeagueCache::saved_for`]
    /// reads it back): the next session's first read then opens only the files that changed.
    #[must_use]
    pub fn to_saved(&self, folder: &Path) -> String {
        let mut units: Vec<(PathBuf, CachedUnit)> = self
            .units
            .iter()
            .map(|(key, unit)| (key.clone(), unit.clone()))
            .collect();
        // The same cache gives the same text: nothing is written again when nothing changed.
        units.sort_by(|a, b| a.0.cmp(&b.0));
        serde_json::to_string(&SavedCache {
            folder: folder.to_path_buf(),
            units,
        })
        .unwrap_or_default()
    }

    /// The cache `saved` kept for `folder`; empty when it was kept for another folder or
    /// cannot be read (a first read then reads every file, as it would have).
    #[must_use]
    pub fn saved_for(saved: &str, folder: &Path) -> LeagueCache {
        match serde_json::from_str::<SavedCache>(saved) {
            Ok(kept) if kept.folder == folder => LeagueCache {
                units: kept.units.into_iter().collect(),
                files: HashMap::new(),
            },
            _ => LeagueCache::default(),
        }
    }

    /// Whether the cache holds nothing (no read was made through it).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.units.is_empty() && self.files.is_empty()
    }
}

/// Reads every campaign in `folder` (see the module's header), all of it.
///
/// # Errors
/// [`SyncError::Io`] when the folder itself cannot be listed.
pub fn read_league_folder(folder: &Path) -> Result<LeagueFolder, SyncError> {
    read_league_folder_cached(folder, &mut LeagueCache::default(), &|_| {})
}

/// Told from the reading threads as each of the folder's campaigns (files or folders) is done,
/// so a window can say how far the read has got and rank what is read while the rest is
/// verified ([`SoFar`]).
pub type Progress<'a> = &'a (dyn Fn(Told<'_>) + Sync);

/// One campaign done, as [`Progress`] is told of it.
#[derive(Debug, Clone, Copy)]
pub struct Told<'a> {
    /// Campaigns done, this one included, of `of`.
    pub done: usize,
    pub of: usize,
    /// This campaign's place in the folder's order (the whole read's table is in that order).
    pub at: usize,
    /// What it gave (nothing for one left out).
    pub gave: &'a [LeagueSource],
}

/// The campaigns told so far, in the folder's order whatever order they were read in.
#[derive(Debug, Default)]
pub struct SoFar {
    gave: BTreeMap<usize, Vec<LeagueSource>>,
}

impl SoFar {
    /// Keeps what `told` gave (a campaign left out gives nothing).
    pub fn add(&mut self, told: &Told<'_>) {
        if !told.gave.is_empty() {
            self.gave.insert(told.at, told.gave.to_vec());
        }
    }

    /// The table of the campaigns told so far, each ranked once as a whole read ranks it;
    /// once every campaign is told, the whole read's table.
    #[must_use]
    pub fn table(&self) -> League {
        let mut read = LeagueFolder {
            sources: self.gave.values().flatten().cloned().collect(),
            ..LeagueFolder::default()
        };
        once_each_campaign(&mut read);
        rank(&read.sources)
    }
}

/// Reads every campaign in `folder` as [`read_league_folder`] does, opening only the files
/// that changed since `cache` was filled, and refills it. Campaigns are read side by side on
/// up to [`MAX_READERS`] threads (verifying signatures is most of the work, and each campaign
/// is verified on its own); the table is the same whatever the order they finish in.
/// `progress` is told of each campaign as it is done ([`Progress`]).
///
/// # Errors
/// [`SyncError::Io`] when the folder itself cannot be listed (the cache is left as it was).
pub fn read_league_folder_cached(
    folder: &Path,
    cache: &mut LeagueCache,
    progress: Progress<'_>,
) -> Result<LeagueFolder, SyncError> {
    let units = units(folder, list(folder)?);
    let total = units.len();
    progress(Told {
        done: 0,
        of: total,
        at: 0,
        gave: &[],
    });
    let outcomes = read_side_by_side(&units, cache, progress);
    let mut old = std::mem::take(cache);
    let mut read = LeagueFolder::default();
    for (unit, outcome) in units.iter().zip(outcomes) {
        // What the cache held and is still true moves over, uncopied.
        for path in &outcome.carried {
            if let Some(file) = old.files.remove(path) {
                cache.files.insert(path.clone(), file);
            }
        }
        cache.files.extend(outcome.new_files);
        read.files_read += outcome.files_read;
        let key = unit.paths().first();
        let gave = match outcome.unit {
            Some(gave) => gave,
            None => match key.and_then(|k| old.units.remove(k)) {
                Some(kept) => kept,
                None => continue,
            },
        };
        read.sources.extend(gave.sources.iter().cloned());
        read.skipped.extend(gave.skipped.iter().cloned());
        if let Some(key) = key {
            cache.units.insert(key.clone(), gave);
        }
    }
    once_each_campaign(&mut read);
    Ok(read)
}

/// At most this many threads read a league folder: a few cores' worth is most of the gain,
/// and the window is left a core to draw with.
pub const MAX_READERS: usize = 4;

/// What reading (or not reading) one unit gave.
#[derive(Default)]
struct Outcome {
    /// Read again (`None`: unchanged, kept from the cache as it is).
    unit: Option<CachedUnit>,
    /// Machine files read now, to keep.
    new_files: Vec<(PathBuf, CachedFile)>,
    /// Machine files the cache held unchanged, to keep as they are.
    carried: Vec<PathBuf>,
    files_read: usize,
}

/// Each unit read, or found unchanged in `cache`, on a few threads taking the next unit as
/// they finish one; the outcomes in the units' order.
fn read_side_by_side(units: &[Unit], cache: &LeagueCache, progress: Progress<'_>) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let readers = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .clamp(1, MAX_READERS)
        .min(units.len().max(1));
    let mut outcomes: Vec<(usize, Outcome)> = std::thread::scope(|scope| {
        let reader = || {
            let mut mine = Vec::new();
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                let Some(unit) = units.get(n) else {
                    return mine;
                };
                let outcome = read_or_keep(unit, cache);
                let gave = outcome
                    .unit
                    .as_ref()
                    .or_else(|| unit.paths().first().and_then(|key| cache.units.get(key)));
                progress(Told {
                    done: done.fetch_add(1, Ordering::Relaxed) + 1,
                    of: units.len(),
                    at: n,
                    gave: gave.map_or(&[], |g| g.sources.as_slice()),
                });
                mine.push((n, outcome));
            }
        };
        let others: Vec<_> = (1..readers).map(|_| scope.spawn(reader)).collect();
        let mut all = reader();
        for other in others {
            // A reader that panicked has a bug behind it: passed on, not hidden as a short
            // table.
            all.extend(
                other
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e)),
            );
        }
        all
    });
    outcomes.sort_by_key(|(n, _)| *n);
    outcomes.into_iter().map(|(_, outcome)| outcome).collect()
}

/// One unit: kept when none of its files changed since `cache` was filled, read otherwise.
fn read_or_keep(unit: &Unit, cache: &LeagueCache) -> Outcome {
    let stamps: Vec<Option<Stamp>> = unit.paths().iter().map(|p| Stamp::of(p)).collect();
    let unchanged = unit
        .paths()
        .first()
        .and_then(|k| cache.units.get(k))
        .is_some_and(|c| c.stamps == stamps && stamps.iter().all(Option::is_some));
    if unchanged {
        return Outcome {
            carried: unit.paths().to_vec(),
            ..Outcome::default()
        };
    }
    let mut gave = LeagueFolder::default();
    let mut outcome = read_unit(unit, cache, &mut gave);
    outcome.files_read = gave.files_read;
    outcome.unit = Some(CachedUnit {
        stamps,
        sources: gave.sources,
        skipped: gave.skipped,
    });
    outcome
}

/// The folder's entries as campaigns to read: machine files laid in the folder grouped by
/// campaign, each shared folder listed.
fn units(folder: &Path, entries: Vec<Entry>) -> Vec<Unit> {
    let mut units = Vec::new();
    let mut machine_files = Vec::new();
    for entry in entries {
        match entry {
            Entry::Export(path) => units.push(Unit::Export(path)),
            Entry::Shared(dir) => units.extend(shared(&dir)),
            Entry::MachineFile(path) => machine_files.push(path),
            Entry::Link(path) => units.push(Unit::Left(Skipped {
                file: shown(&path, 1),
                reason: "a symbolic link: not followed (put the file or folder itself here)"
                    .to_string(),
            })),
        }
    }
    for (_, paths) in by_campaign(machine_files) {
        let shown_as = paths.first().map(|p| shown(p, 1)).unwrap_or_default();
        units.push(Unit::Campaign {
            at: folder.to_path_buf(),
            paths,
            shown_as,
        });
    }
    units
}

/// Reads one unit that changed (or was never read), its machine files through the cache.
fn read_unit(unit: &Unit, cache: &LeagueCache, gave: &mut LeagueFolder) -> Outcome {
    let mut outcome = Outcome::default();
    match unit {
        Unit::Export(path) => {
            gave.files_read += 1;
            read_export(path, gave);
        }
        Unit::Campaign {
            at,
            paths,
            shown_as,
        } => {
            let mut files_read = 0;
            let mut read_file = |n: usize, path: &Path, out: &mut Vec<folder::Incoming>| {
                let stamp = Stamp::of(path);
                let known = cache
                    .files
                    .get(path)
                    .filter(|c| stamp.is_some_and(|s| s == c.stamp));
                if let Some(known) = known {
                    out.extend(known.events.iter().cloned().map(|mut i| {
                        i.file = n;
                        i
                    }));
                    outcome.carried.push(path.to_path_buf());
                    return known.read.clone();
                }
                files_read += 1;
                let mut events = Vec::new();
                let read = folder::read_file(path, n, None, &mut events);
                // A file that could not be opened is tried again next time, whatever its stamp.
                if let (Some(stamp), None) = (stamp, &read.unusable) {
                    outcome.new_files.push((
                        path.to_path_buf(),
                        CachedFile {
                            stamp,
                            read: read.clone(),
                            events: events.clone(),
                        },
                    ));
                }
                out.extend(events);
                read
            };
            take_found(at, paths, shown_as, gave, &mut read_file);
            gave.files_read += files_read;
        }
        Unit::Left(skipped) => gave.skipped.push(skipped.clone()),
    }
    outcome
}

/// The folder's entries worth reading, by name. Hidden names (sync tools' temporary files) and
/// anything but JSON files and folders are passed over quietly; a symbolic link is named and
/// not followed.
fn list(folder: &Path) -> Result<Vec<Entry>, SyncError> {
    let mut names: Vec<fs::DirEntry> = fs::read_dir(folder)
        .map_err(io(folder, "cannot read the league folder"))?
        .filter_map(Result::ok)
        .collect();
    names.sort_by_key(fs::DirEntry::file_name);
    let mut entries = Vec::new();
    for entry in names {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        // The entry's own type: a link is not followed.
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            entries.push(Entry::Shared(path));
        } else if kind.is_symlink() {
            // Named, so nobody wonders why a campaign is missing from the table.
            entries.push(Entry::Link(path));
        } else if !kind.is_file() {
            // A FIFO or a device: never opened.
        } else if name.starts_with("qm-") && is_campaign_name(&name) {
            entries.push(Entry::MachineFile(path));
        } else if name.ends_with(".json") {
            entries.push(Entry::Export(path));
        }
    }
    Ok(entries)
}

fn is_campaign_name(name: &str) -> bool {
    name.ends_with(".json") || name.ends_with(&format!(".{}", machine_file::EXTENSION))
}

/// The file's name as the table shows it: its path inside the league folder.
fn shown(path: &Path, folder_depth: usize) -> String {
    let parts: Vec<String> = path
        .components()
        .rev()
        .take(folder_depth)
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.into_iter().rev().collect::<Vec<_>>().join("/")
}

fn read_export(path: &Path, read: &mut LeagueFolder) {
    let name = shown(path, 1);
    let record = folder::read_text(path, file::MAX_FILE_BYTES as u64)
        .and_then(|text| file::parse(&text).map_err(|e| e.to_string()));
    match record {
        Ok(record) => read.sources.push(LeagueSource::new(name, &record)),
        Err(reason) => read.skipped.push(Skipped { file: name, reason }),
    }
}

/// A folder holding machine files is one shared campaign; a folder without any is not the
/// league's business and is passed over.
fn shared(dir: &Path) -> Option<Unit> {
    let name = shown(dir, 1);
    match folder::campaign_files(dir, None) {
        Ok(paths) if paths.is_empty() => None,
        Ok(paths) => Some(Unit::Campaign {
            at: dir.to_path_buf(),
            paths,
            shown_as: format!("{name}/"),
        }),
        Err(e) => Some(Unit::Left(Skipped {
            file: format!("{name}/"),
            reason: format!("cannot be listed: {e}"),
        })),
    }
}

/// Reads one campaign from `paths` and records what it gave, and what it left out by file.
fn take_found(
    at: &Path,
    paths: &[PathBuf],
    shown_as: &str,
    read: &mut LeagueFolder,
    read_file: &mut super::ReadFile<'_>,
) {
    let prefix = if shown_as.ends_with('/') {
        shown_as.to_string()
    } else {
        String::new()
    };
    match super::read_paths_to_join(at, true, paths, "", read_file) {
        Ok(found) => {
            for outcome in &found.report.files {
                if outcome.status == super::FileStatus::Skipped {
                    read.skipped.push(Skipped {
                        file: format!("{prefix}{}", outcome.file),
                        reason: outcome.note.clone(),
                    });
                }
            }
            for refused in &found.report.refused {
                read.skipped.push(Skipped {
                    file: format!("{prefix}{}", refused.file),
                    reason: format!(
                        "battle {}: a {} event ({}) refused, the rest ranked: {}",
                        refused.battle, refused.kind, refused.event, refused.reason
                    ),
                });
            }
            read.sources
                .push(LeagueSource::new(shown_as.to_string(), &found.record));
        }
        Err(e) => read.skipped.push(Skipped {
            file: shown_as.to_string(),
            reason: unfold_path(&e.to_string(), at),
        }),
    }
}

/// A message without the folder's full path in front (the table names the file already).
fn unfold_path(message: &str, at: &Path) -> String {
    let full = at.display().to_string();
    message
        .strip_prefix(&full)
        .map_or_else(|| message.to_string(), |rest| format!("the folder{rest}"))
}

/// Machine files grouped by the campaign id in their names (`qm-<id>-<machine>.jsonl`); a name
/// without one is a group of its own, for its reading to say what is wrong.
fn by_campaign(paths: Vec<PathBuf>) -> BTreeMap<String, Vec<PathBuf>> {
    const ID_CHARS: usize = 36;
    let mut groups: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for path in paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let id = name
            .get(3..3 + ID_CHARS)
            .filter(|id| uuid::Uuid::parse_str(id).is_ok())
            .map_or_else(|| name.clone(), str::to_string);
        groups.entry(id).or_default().push(path);
    }
    groups
}

/// Keeps one copy of each campaign (by its id): the one holding more events, the first read
/// when level; the others are named as left out.
fn once_each_campaign(read: &mut LeagueFolder) {
    let mut kept: Vec<LeagueSource> = Vec::new();
    for source in std::mem::take(&mut read.sources) {
        let Some(held) = kept
            .iter_mut()
            .find(|k| k.campaign.id == source.campaign.id)
        else {
            kept.push(source);
            continue;
        };
        let dropped = if source.campaign.events > held.campaign.events {
            std::mem::replace(held, source)
        } else {
            source
        };
        read.skipped.push(Skipped {
            reason: format!(
                "the same campaign ('{}') as {}, ranked once from the copy with more events",
                held.campaign.name, held.file
            ),
            file: dropped.file,
        });
    }
    read.sources = kept;
}

#[cfg(test)]
mod tests;
