//! First start without a window for ruin: a new library is built completely in a temporary file
//! beside its final name, synced, and only then linked into place.
//!
//! Building the database where it will live meant a kill in the first few milliseconds could
//! leave an empty or half-written file with a hot journal, which every later start refused.
//! Now the final name either does not exist (the next start builds again) or names a complete,
//! synced library. The link never replaces a file: when two instances race, the first one's
//! library wins and the other's copy is thrown away.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rusqlite::{Connection, OpenFlags};

use super::error::StoreError;
use super::{Ctx, Store, cards, migrate};

/// Temporary files older than this are leftovers of a start that was killed (a build takes
/// well under a second), safe to remove.
const STALE_AFTER: Duration = Duration::from_secs(120);

/// Creates a complete, seeded, synced library at `path` unless a file is already there.
pub(crate) fn create_if_missing(
    path: &Path,
    backups: &Path,
    busy_timeout: Duration,
) -> Result<(), StoreError> {
    if fs::symlink_metadata(path).is_ok() {
        return Ok(());
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    remove_stale_builds(dir, path);
    set_orphans_aside(path, backups)?;
    let temp = temp_path(path);
    let io = |message, source| StoreError::Io {
        path: temp.clone(),
        message,
        source,
    };
    let built = build(&temp, busy_timeout).and_then(|()| {
        fs::File::open(&temp)
            .and_then(|f| f.sync_all())
            .map_err(|e| io("cannot sync the new database to disk", e))
    });
    if let Err(error) = built {
        discard(&temp);
        return Err(error);
    }
    let placed = link_into_place(&temp, path);
    discard(&temp);
    migrate::sync_parent(path);
    placed.map_err(|source| StoreError::Io {
        path: path.to_path_buf(),
        message: "cannot move the new database into place",
        source,
    })
}

/// Migrates and seeds a new database at `temp`, then switches it to WAL so the finished file
/// is exactly what later opens expect (no header change left to do at the final name).
fn build(temp: &Path, busy_timeout: Duration) -> Result<(), StoreError> {
    let ctx = Ctx {
        path: temp.to_path_buf(),
        data_dir: None,
        busy_timeout,
    };
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(temp, flags).map_err(ctx.err("creating"))?;
    // A file this build has just created holds nothing a check could find wrong.
    let mut store = Store {
        conn,
        ctx,
        integrity: super::Integrity::Sound,
        read_only: None,
        notices: Vec::new(),
        home_checked: false,
        edge: super::Edge::default(),
        page_checked: false,
        session: None,
    };
    store
        .conn
        .pragma_update(None, "synchronous", "FULL")
        .map_err(store.ctx.err("setting synchronous writes"))?;
    migrate::migrate(&mut store.conn, temp, busy_timeout, None)?;
    store.transact("seeding the book cards", cards::seed_books)?;
    let Store { conn, ctx, .. } = store;
    let _mode: String = conn
        .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))
        .map_err(ctx.err("turning on WAL mode"))?;
    // Closing the last connection checkpoints and removes the -wal: one self-contained file.
    conn.close()
        .map_err(|(_, e)| ctx.err("closing the new database")(e))
}

/// Hard-links `temp` to `path`, which fails rather than replace a file another instance put
/// there first; where the file system has no hard links, renames unless `path` appeared.
fn link_into_place(temp: &Path, path: &Path) -> std::io::Result<()> {
    match fs::hard_link(temp, path) {
        Ok(()) => Ok(()),
        // Another instance finished first: its library is the one to open.
        Err(e) if e.kind() == ErrorKind::AlreadyExists => Ok(()),
        Err(_) if fs::symlink_metadata(path).is_ok() => Ok(()),
        Err(_) => fs::rename(temp, path),
    }
}

/// `.quartermaster.sqlite3.creating-<pid>-<nanos>` beside `path`.
fn temp_path(path: &Path) -> PathBuf {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
        .subsec_nanos();
    path.with_file_name(format!(
        "{}{}-{nanos}",
        build_prefix(path),
        std::process::id()
    ))
}

fn build_prefix(path: &Path) -> String {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    format!(".{name}.creating-")
}

/// A journal or WAL whose database is gone would be applied to the new library (SQLite cannot
/// tell it belongs to another file), so it is moved into `backups/`, bytes kept.
pub(crate) fn set_orphans_aside(path: &Path, backups: &Path) -> Result<(), StoreError> {
    for suffix in ["-journal", "-wal", "-shm"] {
        let orphan = migrate::companion(path, suffix);
        // Re-checked for each file: another instance that just linked its new library in may
        // already be using its own -wal, which must stay.
        if fs::symlink_metadata(&orphan).is_err() || fs::symlink_metadata(path).is_ok() {
            continue;
        }
        let io = |message, source| StoreError::Io {
            path: orphan.clone(),
            message,
            source,
        };
        fs::create_dir_all(backups).map_err(|e| io("cannot create the backups folder", e))?;
        let kept = migrate::fresh_path(backups, "orphaned", &format!("sqlite3{suffix}"));
        fs::rename(&orphan, &kept).map_err(|e| {
            io(
                "cannot move a leftover journal of a missing database aside",
                e,
            )
        })?;
    }
    Ok(())
}

/// Removes a temporary build and its journal (a half-built file is worth nothing).
fn discard(temp: &Path) {
    for suffix in ["", "-journal", "-wal", "-shm"] {
        let _ = migrate::remove_if_present(&PathBuf::from(format!("{}{suffix}", temp.display())));
    }
}

/// Best effort: removes builds left by starts that were killed long ago.
fn remove_stale_builds(dir: &Path, path: &Path) {
    let prefix = build_prefix(path);
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE_AFTER);
        if name.starts_with(&prefix) && old {
            let _ = fs::remove_file(entry.path());
        }
    }
}
