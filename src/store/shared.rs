//! This machine's file in a campaign's shared folder ([`crate::campaign::machine_file`]),
//! written only here: from the library's rows, while the library's write lock is held (one
//! IMMEDIATE transaction), so two running copies of the app — the window and a command line —
//! never write it from a stale copy, and it only ever grows. A new event costs an append the
//! size of the event, made (and synced to disk) as soon as it is recorded.
//!
//! The library remembers the file as it left it — its length, its last bytes, and the marks
//! the file system changes on any write (modification and change times, inode) — so telling
//! that nobody touched it costs one `stat`, however long the file. A file that is not so any
//! more — longer, shorter, a damaged byte anywhere, put back or replaced — was written by
//! someone else: another computer with a copy of this library, a sync tool putting back an older
//! copy, a hostile player. It is then not appended to here; `sync` reads it (taking anything
//! genuine that is new) and has it written again whole from the library, which heals it.
//! Leftover temporary files of this machine's (a write killed half-way) are removed on the
//! next write.

use std::fs;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

use super::error::StoreError;
use super::ids::CampaignId;
use super::{Ctx, campaign, queries};
use crate::campaign::{CampaignUid, Recorder, machine_file};

/// How many of the file's last bytes are remembered to tell whether it is as left.
const TAIL_BYTES: u64 = 64;

/// The setting remembering a campaign's shared folder.
pub(crate) fn folder_key(uid: CampaignUid) -> String {
    format!("campaign.{uid}.shared_folder")
}

/// A folder's path as a setting holds it: as it is when it is UTF-8, else its bytes in hex
/// after `hex:` (a shared folder's path is absolute, so no real path starts so), never a
/// lossy copy that names another folder.
pub(crate) fn path_to_setting(path: &Path) -> String {
    if let Some(text) = path.to_str() {
        return text.to_string();
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        format!("hex:{}", hex(path.as_os_str().as_bytes()))
    }
    #[cfg(not(unix))]
    {
        path.display().to_string()
    }
}

/// A folder's path from a setting [`path_to_setting`] wrote.
pub(crate) fn path_from_setting(text: &str) -> PathBuf {
    #[cfg(unix)]
    if let Some(digits) = text.strip_prefix("hex:") {
        use std::os::unix::ffi::OsStrExt;
        let bytes: Option<Vec<u8>> = (0..digits.len())
            .step_by(2)
            .map(|i| {
                digits
                    .get(i..i + 2)
                    .and_then(|d| u8::from_str_radix(d, 16).ok())
            })
            .collect();
        if let Some(bytes) = bytes {
            return PathBuf::from(std::ffi::OsStr::from_bytes(&bytes));
        }
    }
    PathBuf::from(text)
}

/// The setting remembering this machine's file as last written.
fn own_key(uid: CampaignUid) -> String {
    format!("campaign.{uid}.own_file")
}

/// The name of campaign `uid`'s file for machine `machine`.
pub fn file_name(uid: CampaignUid, machine: &str) -> String {
    format!("qm-{uid}-{machine}.{}", machine_file::EXTENSION)
}

/// This machine's file as the library last left it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct OwnFile {
    name: String,
    len: u64,
    /// The row id of the last event written.
    written: i64,
    /// The row id of the last admission written.
    #[serde(default)]
    admitted: i64,
    /// How many battles of the definition it holds.
    battles: usize,
    /// Its last bytes, hex.
    tail: String,
    /// What the file system said of it just after the library wrote it (`None`: not known, a
    /// state from before this was kept).
    #[serde(default)]
    mark: Option<FileMark>,
}

/// What changes whenever a file is written, whoever writes it: its modification and change
/// times (the change time cannot be set back by anyone but the kernel) and its inode (a file
/// replaced by another has another).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct FileMark {
    modified_ns: u128,
    changed_ns: i128,
    inode: u64,
    device: u64,
}

impl FileMark {
    pub(crate) fn of(meta: &fs::Metadata) -> FileMark {
        let modified_ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            FileMark {
                modified_ns,
                changed_ns: i128::from(meta.ctime()) * 1_000_000_000
                    + i128::from(meta.ctime_nsec()),
                inode: meta.ino(),
                device: meta.dev(),
            }
        }
        #[cfg(not(unix))]
        {
            FileMark {
                modified_ns,
                ..FileMark::default()
            }
        }
    }
}

/// What bringing this machine's file up to date did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OwnWrite {
    /// The campaign is not shared to a folder.
    NotShared,
    /// It holds everything the library does.
    UpToDate(PathBuf),
    /// New events were appended.
    Appended { path: PathBuf, events: usize },
    /// It was written whole (it was not there, or was replaced on request).
    Written { path: PathBuf, events: usize },
    /// It is not as this library left it: not written. The caller reads it.
    Changed(PathBuf),
}

impl OwnWrite {
    /// The file, when it was written to.
    pub fn wrote(&self) -> Option<&Path> {
        match self {
            OwnWrite::Appended { path, .. } | OwnWrite::Written { path, .. } => Some(path),
            _ => None,
        }
    }
}

fn setting(conn: &Connection, ctx: &Ctx, key: &str) -> Result<Option<String>, StoreError> {
    conn.prepare_cached(queries::SETTING_SELECT)
        .and_then(|mut stmt| stmt.query_row([key], |row| row.get(0)).optional())
        .map_err(ctx.err("reading a setting"))
}

fn set_setting(conn: &Connection, ctx: &Ctx, key: &str, value: &str) -> Result<(), StoreError> {
    conn.prepare_cached(queries::SETTING_UPSERT)
        .and_then(|mut stmt| stmt.execute([key, value]))
        .map(|_| ())
        .map_err(ctx.err("saving a setting"))
}

fn io<'a>(path: &'a Path, message: &'static str) -> impl FnOnce(std::io::Error) -> StoreError + 'a {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        message,
        source,
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The last [`TAIL_BYTES`] of the file at `path` (of length `len`), hex.
fn tail_of(path: &Path, len: u64) -> std::io::Result<String> {
    let mut file = fs::File::open(path)?;
    let from = len.saturating_sub(TAIL_BYTES);
    file.seek(SeekFrom::Start(from))?;
    let mut bytes = Vec::new();
    file.take(TAIL_BYTES).read_to_end(&mut bytes)?;
    Ok(hex(&bytes))
}

/// Brings this machine's file of campaign `id` up to date with the library (`rewrite`: writes
/// it whole even if it is not as left — the caller has read it and found nothing foreign).
/// Runs inside the write transaction.
pub(crate) fn write_own(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
    rewrite: bool,
) -> Result<OwnWrite, StoreError> {
    let uid = campaign::uid_of(conn, ctx, id)?;
    let Some(folder) = setting(conn, ctx, &folder_key(uid))? else {
        return Ok(OwnWrite::NotShared);
    };
    let folder = path_from_setting(&folder);
    let Some(machine) = setting(conn, ctx, super::SETTING_MACHINE_ID)? else {
        return Ok(OwnWrite::NotShared);
    };
    let name = file_name(uid, &machine);
    let path = folder.join(&name);
    remove_leftovers(&folder, uid, &machine);
    let state: OwnFile = setting(conn, ctx, &own_key(uid))?
        .and_then(|t| serde_json::from_str(&t).ok())
        .filter(|s: &OwnFile| s.name == name)
        .unwrap_or_default();
    let whole = match fs::symlink_metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => true,
        Err(e) => return Err(io(&path, "cannot read this machine's shared file")(e)),
        Ok(meta) => {
            let as_left = meta.is_file()
                && state.len > 0
                && meta.len() == state.len
                && state.mark.is_none_or(|m| m == FileMark::of(&meta))
                && tail_of(&path, meta.len()).is_ok_and(|t| t == state.tail);
            if !as_left && !rewrite {
                return Ok(OwnWrite::Changed(path));
            }
            !as_left
        }
    };
    let (mut state, outcome) = if whole {
        let definition = definition(conn, ctx, id)?;
        let (state, events) = write_whole(conn, ctx, id, uid, &machine, &definition, &path)?;
        (state, OwnWrite::Written { path, events })
    } else {
        let (state, events) = append(conn, ctx, id, &path, state)?;
        let outcome = match events {
            0 => OwnWrite::UpToDate(path),
            events => OwnWrite::Appended { path, events },
        };
        (state, outcome)
    };
    if let Some(written) = outcome.wrote() {
        state.mark = fs::metadata(written).ok().map(|m| FileMark::of(&m));
    } else if state.mark.is_none() {
        state.mark = fs::metadata(folder.join(&name))
            .ok()
            .map(|m| FileMark::of(&m));
    }
    set_setting(conn, ctx, &own_key(uid), &to_text(&state))?;
    Ok(outcome)
}

fn to_text(state: &OwnFile) -> String {
    serde_json::to_string(state).unwrap_or_default()
}

/// The campaign's definition as its file's header holds it: the battles it began with (and
/// any added by a version that did not record setups as events), not those set up by events.
fn definition(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
) -> Result<crate::campaign::Campaign, StoreError> {
    let (_, mut definition, _) = campaign::outline(conn, ctx, id)?;
    let by_event = campaign::setups(conn, ctx, id)?;
    let keep = definition
        .battles
        .iter()
        .take_while(|plan| !by_event.contains(&plan.number()))
        .count();
    definition.battles.truncate(keep);
    Ok(definition)
}

/// How many battles [`definition`] holds, from the battle rows rather than the definition.
fn header_battles(conn: &Connection, ctx: &Ctx, id: CampaignId) -> Result<usize, StoreError> {
    let by_event = campaign::setups(conn, ctx, id)?;
    Ok(campaign::battle_numbers(conn, ctx, id)?
        .into_iter()
        .take_while(|number| !by_event.contains(number))
        .count())
}

fn write_whole(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
    uid: CampaignUid,
    machine: &str,
    definition: &crate::campaign::Campaign,
    path: &Path,
) -> Result<(OwnFile, usize), StoreError> {
    let invalid = |m: String| StoreError::invalid("shared file", m);
    let by = Recorder {
        player: setting(conn, ctx, super::SETTING_PLAYER)?.unwrap_or_default(),
        machine: setting(conn, ctx, super::SETTING_MACHINE_NAME)?.unwrap_or_default(),
    };
    let genesis = campaign::genesis_of(conn, ctx, id)?;
    let mut text = machine_file::header_line(uid, machine, &by, definition, genesis.as_ref())
        .map_err(invalid)?;
    let mut written = 0;
    let events = campaign::events_since(conn, ctx, id, 0)?;
    for (row, battle, event) in &events {
        text.push_str(&machine_file::event_line(*battle, event).map_err(invalid)?);
        written = *row;
    }
    let mut admitted = 0;
    for (row, admission) in campaign::admissions_since(conn, ctx, id, 0)? {
        text.push_str(&machine_file::admission_line(&admission).map_err(invalid)?);
        admitted = row;
    }
    write_atomically(path, text.as_bytes())?;
    let len = text.len() as u64;
    let from = usize::try_from(len.saturating_sub(TAIL_BYTES)).unwrap_or_default();
    let state = OwnFile {
        name: file_name_of(path),
        len,
        written,
        admitted,
        battles: definition.battles.len(),
        tail: hex(&text.as_bytes()[from..]),
        mark: None,
    };
    Ok((state, events.len()))
}

fn file_name_of(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Appends what the library stored since the file was last written; returns the file's new
/// state and how many lines (events and admissions) were appended.
fn append(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
    path: &Path,
    mut state: OwnFile,
) -> Result<(OwnFile, usize), StoreError> {
    let invalid = |m: String| StoreError::invalid("shared file", m);
    let mut text = String::new();
    // The definition (1.2 MB at 98 battles) is read only when the header must grow.
    if header_battles(conn, ctx, id)? > state.battles {
        let definition = definition(conn, ctx, id)?;
        text.push_str(&machine_file::definition_line(&definition).map_err(invalid)?);
        state.battles = definition.battles.len();
    }
    let new = campaign::events_since(conn, ctx, id, state.written)?;
    for (row, battle, event) in &new {
        text.push_str(&machine_file::event_line(*battle, event).map_err(invalid)?);
        state.written = *row;
    }
    let mut lines = new.len();
    for (row, admission) in campaign::admissions_since(conn, ctx, id, state.admitted)? {
        text.push_str(&machine_file::admission_line(&admission).map_err(invalid)?);
        state.admitted = row;
        lines += 1;
    }
    if text.is_empty() {
        return Ok((state, 0));
    }
    let mut file = fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(io(path, "cannot open this machine's shared file"))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_data())
        .map_err(io(path, "cannot write this machine's shared file"))?;
    state.len += text.len() as u64;
    state.tail =
        tail_of(path, state.len).map_err(io(path, "cannot read this machine's shared file"))?;
    Ok((state, lines))
}

/// Removes this machine's temporary files of campaign `uid` left in `folder` by a write that
/// was killed (`.qm-<uid>-<machine>.<…>.tmp`, this version's and older ones').
fn remove_leftovers(folder: &Path, uid: CampaignUid, machine: &str) {
    let prefix = format!(".qm-{uid}-{machine}.");
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(&prefix)
            && name.ends_with(".tmp")
            && entry.file_type().is_ok_and(|t| t.is_file())
        {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Writes `bytes` to `path` so that `path` always holds either the old file or the whole new
/// one: a hidden temporary name beside it, synced, renamed over it, then the folder synced.
///
/// # Errors
/// Any step of the write fails (the temporary file is removed; `path` is untouched).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let name = file_name_of(path);
    let temp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| -> std::io::Result<()> {
        let mut file = fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&temp);
        return Err(io(path, "cannot write this machine's shared file")(e));
    }
    // Makes the rename durable where the platform can sync a directory.
    if let Some(dir) = path.parent()
        && let Ok(handle) = fs::File::open(dir)
    {
        let _ = handle.sync_all();
    }
    Ok(())
}
