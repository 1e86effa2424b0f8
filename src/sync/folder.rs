//! Reading a shared folder safely and in proportion to what changed.
//!
//! Only regular files are read — never a symbolic link (it could lead out of the folder, to a
//! device or to another campaign's file), a FIFO (opening one waits for a writer forever) or a
//! device — and each is size-capped before and while it is read. A machine's file
//! ([`crate::campaign::machine_file`]) is only ever appended to, so the folder's state
//! remembered from the last read (length, time, how far it was read and the bytes just before)
//! lets a file that grew be read from where the last read stopped; a file that is not as it
//! was is read again from the start. A campaign file (`.json`, as `campaign export` writes and
//! older versions kept in the folder) is read whole when it changes.

use std::fs;
use std::io::{BufRead, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::campaign::machine_file::{self, Line};
use crate::campaign::{Campaign, CampaignUid, LoggedEvent, file};

/// Largest file read from a shared folder (a 100,000-event campaign's file is about 70 MB):
/// the campaign file's one limit, so a whole campaign file is read here as by an import.
pub const MAX_FILE_BYTES: u64 = file::MAX_FILE_BYTES as u64;
/// How many bytes before the point a file was read to are remembered to tell it is unchanged.
const TAIL_BYTES: u64 = 64;

/// A file of the folder as last read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seen {
    pub name: String,
    pub len: u64,
    pub modified_ns: u128,
    /// How far it was read (the end of its last line taken; 0 for a campaign file).
    #[serde(default)]
    pub offset: u64,
    /// The bytes just before `offset`, hex.
    #[serde(default)]
    pub tail: String,
}

/// One event read, with where it came from.
#[derive(Debug, Clone)]
pub struct Incoming {
    /// Battle place (number − 1).
    pub index: usize,
    pub event: LoggedEvent,
    /// Which file (its place in the list read) and where in it its line starts.
    pub file: usize,
    pub line_start: u64,
}

/// What reading one file gave.
#[derive(Debug, Clone, Default)]
pub struct FileRead {
    pub name: String,
    pub path: PathBuf,
    /// Not read: the same as last time.
    pub unchanged: bool,
    /// Why nothing could be used (`None`: read).
    pub unusable: Option<String>,
    /// Whether reading it again later may give more (an incomplete last line, a file being
    /// written): said to the user only when true.
    pub again: bool,
    /// The campaign it belongs to and the machine that writes it, when its header says.
    pub campaign: Option<CampaignUid>,
    pub machine: Option<String>,
    /// Who that machine recorded as when the file was started.
    pub writer: Option<crate::campaign::Recorder>,
    pub definitions: Vec<Campaign>,
    /// The campaign's genesis, when its header carries one (checked against the id).
    pub genesis: Option<crate::campaign::genesis::Genesis>,
    /// The admissions it holds.
    pub admissions: Vec<crate::campaign::membership::Admission>,
    /// Lines that are not events or definitions (damaged, edited): "line N: why".
    pub damaged: Vec<String>,
    /// Where the first damaged line starts: the file is read again from there when it changes
    /// (its owner rewrites a damaged file whole).
    pub first_damage: Option<u64>,
    pub events: usize,
    /// The state to remember when everything read from it was taken.
    pub seen: Option<Seen>,
}

pub fn modified_ns(meta: &fs::Metadata) -> u128 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Every file of `folder` that may hold campaign `uid` (`None`: any campaign): regular files
/// named `qm-<uid>….jsonl` or `….json` — conflict copies included, hidden files (temporary
/// names, ours and sync tools') left alone — by name.
///
/// # Errors
/// The folder cannot be listed.
pub fn campaign_files(folder: &Path, uid: Option<CampaignUid>) -> std::io::Result<Vec<PathBuf>> {
    let prefix = uid.map_or_else(|| "qm-".to_string(), |u| format!("qm-{u}"));
    let mut files: Vec<PathBuf> = fs::read_dir(folder)?
        .filter_map(Result::ok)
        // The entry's own type: a symbolic link is not followed, a FIFO or device not opened.
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.starts_with(&prefix)
                    && (n.ends_with(".json")
                        || n.ends_with(&format!(".{}", machine_file::EXTENSION)))
            })
        })
        .collect();
    files.sort();
    Ok(files)
}

/// Opens `path` for reading only if it is a regular file, without waiting on it.
fn open_regular(path: &Path) -> std::io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // A FIFO swapped in after the listing must not block the open; nor follow a link.
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other(
            "not a regular file (a folder, a FIFO or a device)",
        ));
    }
    Ok(file)
}

/// Reads file `path` (number `file` of the list), appending its events to `out`, from where
/// `previous` says the last read stopped when it is as it was.
pub fn read_file(
    path: &Path,
    file: usize,
    previous: Option<&Seen>,
    out: &mut Vec<Incoming>,
) -> FileRead {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut read = FileRead {
        name: name.clone(),
        path: path.to_path_buf(),
        ..FileRead::default()
    };
    let handle = match open_regular(path) {
        Ok(handle) => handle,
        Err(e) => {
            read.unusable = Some(format!("cannot be read: {e}"));
            read.again = true;
            return read;
        }
    };
    let Ok(meta) = handle.metadata() else {
        read.unusable = Some("cannot be read".into());
        read.again = true;
        return read;
    };
    let seen = Seen {
        name,
        len: meta.len(),
        modified_ns: modified_ns(&meta),
        ..Seen::default()
    };
    if previous.is_some_and(|p| p.len == seen.len && p.modified_ns == seen.modified_ns) {
        read.unchanged = true;
        read.seen = previous.cloned();
        return read;
    }
    if meta.len() > MAX_FILE_BYTES {
        read.unusable = Some(format!(
            "{} bytes; a campaign file has at most {MAX_FILE_BYTES}: not read",
            meta.len()
        ));
        return read;
    }
    if read.name.ends_with(".json") {
        read_campaign_file(handle, file, seen, &mut read, out);
    } else {
        read_log(handle, file, previous, seen, &mut read, out);
    }
    read
}

/// A whole campaign file (`campaign export`'s format, as older versions kept in the folder).
fn read_campaign_file(
    handle: fs::File,
    file: usize,
    seen: Seen,
    read: &mut FileRead,
    out: &mut Vec<Incoming>,
) {
    let mut bytes = Vec::new();
    if let Err(e) = handle
        .take(file::MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
    {
        read.unusable = Some(format!("cannot be read: {e}"));
        read.again = true;
        return;
    }
    let Ok(text) = String::from_utf8(bytes) else {
        read.unusable = Some("not UTF-8 text: incomplete or damaged".into());
        read.again = true;
        return;
    };
    match file::read_unverified(&text) {
        Ok(record) => {
            read.campaign = Some(record.id);
            read.definitions.push(record.definition());
            read.genesis.clone_from(&record.genesis);
            read.admissions.clone_from(&record.admissions);
            for index in 0..record.logs.len() {
                for e in record.all_events(index) {
                    out.push(Incoming {
                        index,
                        event: e.clone(),
                        file,
                        line_start: 0,
                    });
                    read.events += 1;
                }
            }
            read.seen = Some(seen);
        }
        Err(e) => {
            // A sync tool may still be writing it: it may read whole next time.
            read.unusable = Some(format!("{e}"));
            read.again = true;
        }
    }
}

/// The bytes of `handle` from `from` to `to`.
fn bytes_between(handle: &mut fs::File, from: u64, to: u64) -> std::io::Result<Vec<u8>> {
    handle.seek(SeekFrom::Start(from))?;
    let mut bytes = Vec::new();
    handle
        .take(to.saturating_sub(from))
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// A machine's file, from where the last read stopped if it is as it was, line by line: no
/// line longer than [`machine_file::MAX_LINE_BYTES`] is held, so a huge file without line ends
/// (or of anything else) costs a megabyte, not its size.
fn read_log(
    mut handle: fs::File,
    file: usize,
    previous: Option<&Seen>,
    mut seen: Seen,
    read: &mut FileRead,
    out: &mut Vec<Incoming>,
) {
    let len = seen.len;
    let resume = previous.filter(|p| {
        p.offset > 0
            && p.offset <= len
            && bytes_between(&mut handle, p.offset.saturating_sub(TAIL_BYTES), p.offset)
                .is_ok_and(|b| hex(&b) == p.tail)
    });
    let start = resume.map_or(0, |p| p.offset);
    if let Err(e) = handle.seek(SeekFrom::Start(start)) {
        read.unusable = Some(format!("cannot be read: {e}"));
        read.again = true;
        return;
    }
    let mut reader = std::io::BufReader::new(handle.take(len - start));
    let mut consumed = 0u64;
    let mut line = Vec::new();
    let mut line_number = 0usize;
    loop {
        line.clear();
        let got = match (&mut reader)
            .take(machine_file::MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut line)
        {
            Ok(got) => got,
            Err(e) => {
                read.unusable = Some(format!("cannot be read: {e}"));
                read.again = true;
                return;
            }
        };
        if got == 0 {
            break;
        }
        if line.last() != Some(&b'\n') {
            if line.len() > machine_file::MAX_LINE_BYTES {
                // Not a line this build wrote: nothing after it is read.
                let what = format!(
                    "{}: longer than {} bytes, not a campaign log's line; the rest of the file is not read",
                    describe_line(start, line_number + 1),
                    machine_file::MAX_LINE_BYTES
                );
                if start == 0 && line_number == 0 {
                    read.unusable = Some(what);
                    return;
                }
                read.damaged.push(what);
            } else {
                // A write caught half-way: the rest comes next time.
                read.again = true;
            }
            break;
        }
        line_number += 1;
        let line_start = start + consumed;
        consumed += got as u64;
        let text =
            std::str::from_utf8(&line[..line.len() - 1]).map_err(|_| "not UTF-8 text".to_string());
        if start == 0 && line_number == 1 {
            match text.and_then(machine_file::parse_header) {
                Ok(header) => {
                    read.campaign = Some(header.id);
                    read.machine = Some(header.machine);
                    read.writer = Some(header.by).filter(|by| !by.is_unknown());
                    read.definitions.push(header.definition);
                    read.genesis = header.genesis;
                }
                // Every line proves itself: a damaged header costs the file its header (which
                // campaign, whose machine), not its events, which are read on and each checked
                // against the campaign being merged, as any line is. Its owner rewrites it.
                Err(e) => {
                    read.damaged.push(format!(
                        "{}: the file's header: {e}; its events are read on their own",
                        describe_line(start, line_number)
                    ));
                    read.first_damage.get_or_insert(line_start);
                }
            }
            continue;
        }
        match text.and_then(machine_file::parse_line) {
            Ok(Line::Event { battle: 0, .. }) => {
                read.damaged
                    .push(format!("{}: battle 0", describe_line(start, line_number)));
                read.first_damage.get_or_insert(line_start);
            }
            Ok(Line::Event { battle, event }) => {
                out.push(Incoming {
                    index: usize::try_from(battle - 1).unwrap_or(usize::MAX),
                    event: *event,
                    file,
                    line_start,
                });
                read.events += 1;
            }
            Ok(Line::Admission(admission)) => read.admissions.push(*admission),
            Ok(Line::Definition(definition)) => read.definitions.push(definition),
            Err(e) => {
                read.damaged
                    .push(format!("{}: {e}", describe_line(start, line_number)));
                read.first_damage.get_or_insert(line_start);
            }
        }
    }
    if start == 0 && line_number == 0 {
        read.unusable = Some("no complete first line yet: incomplete".into());
        read.again = true;
        return;
    }
    let mut handle = reader.into_inner().into_inner();
    seen.offset = start + consumed;
    seen.tail = bytes_between(
        &mut handle,
        seen.offset.saturating_sub(TAIL_BYTES),
        seen.offset,
    )
    .map(|b| hex(&b))
    .unwrap_or_default();
    read.seen = Some(seen);
}

/// The state of file `path` (named `name`) read to its end, without reading it: what this
/// machine's file is remembered as right after this library wrote it (every line of it is the
/// library's already). `None` when its last line is incomplete: the caller reads it instead.
pub fn seen_to_end(path: &Path, name: &str) -> Option<Seen> {
    let mut handle = open_regular(path).ok()?;
    let meta = handle.metadata().ok()?;
    let len = meta.len();
    let tail = bytes_between(&mut handle, len.saturating_sub(TAIL_BYTES), len).ok()?;
    if tail.last() != Some(&b'\n') {
        return None;
    }
    Some(Seen {
        name: name.to_string(),
        len,
        modified_ns: modified_ns(&meta),
        offset: len,
        tail: hex(&tail),
    })
}

/// "line 12" from the start of the file, "a line after byte 5,000" when read from the middle.
fn describe_line(start: u64, number: usize) -> String {
    if start == 0 {
        format!("line {number}")
    } else {
        format!("new line {number} (after byte {start})")
    }
}

/// The state of `seen` with its read point moved back to `offset` (an event there waits for
/// one it follows, so the file is read again from it next time).
pub fn rewind(handle_path: &Path, seen: &mut Seen, offset: u64) {
    if rewind_when_changed(handle_path, seen, offset) {
        // Read again next time even if nothing is added to it.
        seen.modified_ns = 0;
    }
}

/// The state of `seen` with its read point moved back to `offset`, read from there the next
/// time the file changes (a damaged line, which only its owner's rewrite heals). Whether it
/// moved.
pub fn rewind_when_changed(handle_path: &Path, seen: &mut Seen, offset: u64) -> bool {
    if offset >= seen.offset {
        return false;
    }
    seen.offset = offset;
    seen.tail = open_regular(handle_path)
        .and_then(|mut h| bytes_between(&mut h, offset.saturating_sub(TAIL_BYTES), offset))
        .map(|b| hex(&b))
        .unwrap_or_default();
    true
}

/// The whole text of regular file `path`, at most `cap` bytes: what a campaign export is read
/// with when nothing is merged (the league table), as safely as the folder's other files.
///
/// # Errors
/// In words: not a regular file, larger than `cap`, unreadable or not UTF-8.
pub fn read_text(path: &Path, cap: u64) -> Result<String, String> {
    let handle = open_regular(path).map_err(|e| format!("cannot be read: {e}"))?;
    let len = handle
        .metadata()
        .map_err(|e| format!("cannot be read: {e}"))?
        .len();
    if len > cap {
        return Err(format!(
            "{len} bytes; a file of this kind has at most {cap}: not read"
        ));
    }
    let mut bytes = Vec::new();
    handle
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot be read: {e}"))?;
    if bytes.len() as u64 > cap {
        return Err(format!("more than {cap} bytes: not read"));
    }
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text: incomplete or damaged".to_string())
}
