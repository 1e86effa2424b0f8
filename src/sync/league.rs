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

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{SyncError, folder, io};
use crate::campaign::league::LeagueSource;
use crate::campaign::{file, machine_file};

/// A file (or folder) of the league folder left out, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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

/// Reads every campaign in `folder` (see the module's header).
///
/// # Errors
/// [`SyncError::Io`] when the folder itself cannot be listed.
pub fn read_league_folder(folder: &Path) -> Result<LeagueFolder, SyncError> {
    let entries = list(folder)?;
    let mut read = LeagueFolder::default();
    let mut machine_files = Vec::new();
    for entry in entries {
        match entry {
            Entry::Export(path) => read_export(&path, &mut read),
            Entry::Shared(path) => read_shared(&path, &mut read),
            Entry::MachineFile(path) => machine_files.push(path),
            Entry::Link(path) => read.skipped.push(Skipped {
                file: shown(&path, 1),
                reason: "a symbolic link: not followed (put the file or folder itself here)"
                    .to_string(),
            }),
        }
    }
    for (_, paths) in by_campaign(machine_files) {
        read_machine_files(folder, &paths, &mut read);
    }
    once_each_campaign(&mut read);
    Ok(read)
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
        Ok(record) => read.sources.push(LeagueSource { file: name, record }),
        Err(reason) => read.skipped.push(Skipped { file: name, reason }),
    }
}

/// A folder holding machine files is one shared campaign; a folder without any is not the
/// league's business and is passed over.
fn read_shared(dir: &Path, read: &mut LeagueFolder) {
    let name = shown(dir, 1);
    let paths = match folder::campaign_files(dir, None) {
        Ok(paths) => paths,
        Err(e) => {
            read.skipped.push(Skipped {
                file: format!("{name}/"),
                reason: format!("cannot be listed: {e}"),
            });
            return;
        }
    };
    if paths.is_empty() {
        return;
    }
    take_found(dir, true, &paths, &format!("{name}/"), read);
}

fn read_machine_files(folder: &Path, paths: &[PathBuf], read: &mut LeagueFolder) {
    let shown_as = paths.first().map(|p| shown(p, 1)).unwrap_or_default();
    take_found(folder, true, paths, &shown_as, read);
}

/// Reads one campaign from `paths` and records what it gave, and what it left out by file.
fn take_found(at: &Path, is_dir: bool, paths: &[PathBuf], shown_as: &str, read: &mut LeagueFolder) {
    let prefix = if shown_as.ends_with('/') {
        shown_as.to_string()
    } else {
        String::new()
    };
    match super::read_paths_to_join(at, is_dir, paths, "") {
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
            read.sources.push(LeagueSource {
                file: shown_as.to_string(),
                record: found.record,
            });
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
        let Some(held) = kept.iter_mut().find(|k| k.record.id == source.record.id) else {
            kept.push(source);
            continue;
        };
        let dropped = if source.record.event_count() > held.record.event_count() {
            std::mem::replace(held, source)
        } else {
            source
        };
        read.skipped.push(Skipped {
            reason: format!(
                "the same campaign ('{}') as {}, ranked once from the copy with more events",
                held.record.campaign.name, held.file
            ),
            file: dropped.file,
        });
    }
    read.sources = kept;
}
