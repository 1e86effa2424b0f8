//! Whether the database file is exactly as this app's last clean close left it, so opening it
//! need not check its pages again (every command-line open paid a `quick_check` and every first
//! write an `integrity_check`, both growing with the history held: issue #39).
//!
//! When the last connection of a writable session closes, SQLite checkpoints the WAL into the
//! file and deletes the WAL: the file alone is then the whole database. The session writes a
//! stamp beside it — the file's length, modification time and a digest of its first page (the
//! header and the schema's root). The next writable open takes the stamp away before anything
//! else (a session that then dies leaves none) and trusts the file only when the stamp still
//! describes it and no WAL or journal is left. So each way a file can differ from what a clean
//! close left makes the open check as before: a crash (no stamp, or a WAL left behind), another
//! program's write (its time, length or first page differ), a restore or a copy (likewise), a
//! second instance open at the same time (the first took the stamp; the one closing last
//! writes it). A stamp that cannot be read, written or removed only costs a check.

use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::migrate;

/// SQLite's largest page: the first page is within these bytes whatever the page size.
const FIRST_PAGE_BYTES: usize = 65_536;

/// The stamp's file, beside the database.
fn stamp_path(db: &Path) -> PathBuf {
    migrate::companion(db, ".clean")
}

/// What the stamp says of the file: `<length> <mtime ns> <sha-256 of the first page>`.
fn describe(db: &Path) -> Option<String> {
    use std::io::Read;
    let mut file = fs::File::open(db).ok()?;
    let meta = file.metadata().ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos();
    let mut first = Vec::with_capacity(FIRST_PAGE_BYTES);
    file.by_ref()
        .take(FIRST_PAGE_BYTES as u64)
        .read_to_end(&mut first)
        .ok()?;
    let digest: String = Sha256::digest(&first)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Some(format!("{} {modified} {digest}", meta.len()))
}

/// Takes the stamp away and says whether `db` is as the last clean close left it (then its
/// pages need no check).
pub(crate) fn take(db: &Path) -> bool {
    let stamp = stamp_path(db);
    let Ok(said) = fs::read_to_string(&stamp) else {
        return false;
    };
    // Removed first: a stamp this session could not take away would outlive a crash.
    if fs::remove_file(&stamp).is_err() {
        return false;
    }
    !migrate::has_leftovers(db) && describe(db).is_some_and(|now| now == said)
}

/// Takes the stamp away without looking at it: the file is about to be replaced (a restore).
pub(crate) fn forget(db: &Path) {
    let _ = fs::remove_file(stamp_path(db));
}

/// A writable session of the file at `db`: dropped after the store's connection (it is the
/// store's last field), it stamps the file when that was the last connection to close — once
/// the file is known sound this session ([`Session::vouch`]): a session that opened after a
/// crash and never wrote (so never ran the full check) leaves the next one to check again.
#[derive(Debug)]
pub(crate) struct Session {
    db: PathBuf,
    sound: bool,
}

impl Session {
    /// A session of `db`, `sound` when the file was found as a clean close left it.
    pub(crate) fn new(db: &Path, sound: bool) -> Self {
        Session {
            db: db.to_path_buf(),
            sound,
        }
    }

    /// The file passed the checks a write makes: a clean close may stamp it.
    pub(crate) fn vouch(&mut self) {
        self.sound = true;
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if !self.sound {
            return;
        }
        // A WAL still there: another connection is open (it stamps when it closes) or the
        // checkpoint did not finish; either way the file alone is not the database.
        if migrate::has_leftovers(&self.db) {
            return;
        }
        if let Some(stamp) = describe(&self.db) {
            // Not written: the next open checks, as it would have anyway.
            let _ = fs::write(stamp_path(&self.db), stamp);
        }
    }
}
