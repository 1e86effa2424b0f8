//! Whole-library backup and restore.
//!
//! A backup is a SQLite database file with the same schema, written with SQLite's online
//! backup API (a consistent snapshot even while the app is writing) as one self-contained file.
//! Restoring checks the backup in full first, keeps a copy of the current database in
//! `backups/`, then copies the backup in through SQLite's locks (or, when the current file is
//! damaged or not a database, moves that file aside untouched and puts the backup in its place).

use std::fs;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};
use serde::Serialize;

use super::error::StoreError;
use super::migrate::{self, Check};
use super::{DB_FILE_NAME, DEFAULT_BUSY_TIMEOUT, Store, backups_dir, create};

/// What a restore did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RestoreReport {
    /// Where the database that was replaced now lies (`None` when there was none).
    pub previous: Option<PathBuf>,
    /// The restored file's schema version before it was opened (and upgraded, if older).
    pub backup_schema_version: i64,
    /// Forces in the restored database.
    pub forces: usize,
}

impl Store {
    /// Writes a consistent copy of the whole database to `path` (a SQLite file), replacing any
    /// file there; the copy appears complete or not at all.
    pub fn backup_to(&self, path: &Path) -> Result<(), StoreError> {
        if let Some(live) = self.path()
            && same_file(live, path)
        {
            return Err(StoreError::invalid(
                "--out",
                format!(
                    "{} is the database itself; choose another file",
                    path.display()
                ),
            ));
        }
        migrate::write_backup(&self.conn, path, self.ctx.busy_timeout)
    }

    /// Replaces `data_dir`'s database with `backup`, after checking the backup in full and
    /// keeping a copy of the current database in `backups/`.
    pub fn restore_from(data_dir: &Path, backup: &Path) -> Result<(), StoreError> {
        Store::restore(data_dir, backup).map(|_| ())
    }

    /// [`Store::restore_from`], saying where the previous database went.
    pub fn restore(data_dir: &Path, backup: &Path) -> Result<RestoreReport, StoreError> {
        let bad = |problem: String| StoreError::BadBackup {
            path: backup.to_path_buf(),
            problem,
        };
        // A regular file only (the path followed where it leads): a FIFO would hold the
        // restore forever, a device (`/dev/zero`) feed it without end.
        match fs::metadata(backup) {
            Ok(meta) if meta.is_file() => {}
            Ok(_) => {
                return Err(bad(
                    "not a regular file (a folder, a FIFO or a device)".into()
                ));
            }
            Err(e) => return Err(bad(e.to_string())),
        }
        let source = match migrate::inspect(backup, None, Check::Full, DEFAULT_BUSY_TIMEOUT) {
            Ok(Some(found)) if found.version >= 1 => found,
            Ok(Some(_)) => {
                return Err(bad(
                    "it is an empty database, not a Quartermaster backup".into()
                ));
            }
            Ok(None) => return Err(bad("no such file".into())),
            // The hint that goes with a refused *library* (move it away, restore its folder's
            // backup) is wrong for a file named as the backup: say what the file is and which
            // backups this data folder really has.
            Err(StoreError::NotADatabase { what, .. }) => {
                return Err(bad(format!(
                    "it is not a database backup: {what}{}{}",
                    what_it_looks_like(backup),
                    backups_hint(data_dir)
                )));
            }
            Err(error) => return Err(bad(error.to_string())),
        };
        let live = data_dir.join(DB_FILE_NAME);
        if same_file(&live, backup) {
            return Err(bad("it is the database itself".into()));
        }
        let dir = migrate::make_backups_dir(data_dir)?;
        // The file is replaced: what its last clean close said of it no longer holds.
        super::clean_close::forget(&live);
        let previous = match migrate::inspect(&live, None, Check::Quick, DEFAULT_BUSY_TIMEOUT) {
            Ok(None) => {
                create::set_orphans_aside(&live, &dir)?;
                migrate::write_backup(&source.conn, &live, DEFAULT_BUSY_TIMEOUT)?;
                None
            }
            Ok(Some(current)) => {
                let kept = migrate::backup_path(&dir, current.version, "before-restore");
                migrate::write_backup(&current.conn, &kept, DEFAULT_BUSY_TIMEOUT)?;
                drop(current);
                copy_into_live(&source.conn, &live)?;
                Some(kept)
            }
            Err(StoreError::Busy { path, waited_ms }) => {
                return Err(StoreError::Busy { path, waited_ms });
            }
            Err(_unusable) => {
                // Damaged, too new or not a database: keep its exact bytes by moving it aside.
                let kept = move_aside(&live, &dir)?;
                migrate::write_backup(&source.conn, &live, DEFAULT_BUSY_TIMEOUT)?;
                Some(kept)
            }
        };
        let backup_schema_version = source.version;
        drop(source);
        // Opening upgrades an older backup (with its own backup first) and proves it works.
        let mut store = Store::open(data_dir)?;
        let forces = store.list_forces()?.len();
        // What this library recorded after the backup was made comes back from its shared
        // folders at the next syncs: its own events, not a copy's.
        store.mark_restored()?;
        Ok(RestoreReport {
            previous,
            backup_schema_version,
            forces,
        })
    }
}

/// Copies every page of `source` into the live database through SQLite's locking, so another
/// connection (a running app) sees the restored data instead of a file swapped under it.
fn copy_into_live(source: &Connection, live: &Path) -> Result<(), StoreError> {
    let fail = |e, doing| migrate::classify(e, live, DEFAULT_BUSY_TIMEOUT, doing, None);
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let mut target =
        Connection::open_with_flags(live, flags).map_err(|e| fail(e, "opening for restore"))?;
    target
        .busy_timeout(DEFAULT_BUSY_TIMEOUT)
        .map_err(|e| fail(e, "setting the busy timeout"))?;
    migrate::copy_database(source, &mut target, DEFAULT_BUSY_TIMEOUT)
        .map_err(|e| fail(e, "restoring"))?;
    target
        .close()
        .map_err(|(_, e)| fail(e, "finishing the restore"))
}

/// Moves the database file (and its -journal/-wal/-shm companions: a journal must never be
/// parted from its database, nor left to be applied to the restored one) into `dir`, unchanged. It gets a
/// `.refused` extension, not `.sqlite3`, so it is never offered as "the newest backup".
fn move_aside(live: &Path, dir: &Path) -> Result<PathBuf, StoreError> {
    let kept = migrate::fresh_path(dir, "replaced-by-restore", "refused");
    fs::rename(live, &kept).map_err(|source| StoreError::Io {
        path: live.to_path_buf(),
        message: "cannot move the current database aside",
        source,
    })?;
    for suffix in ["-journal", "-wal", "-shm"] {
        let companion = migrate::companion(live, suffix);
        if companion.exists() {
            let moved = migrate::companion(&kept, suffix);
            fs::rename(&companion, &moved).map_err(|source| StoreError::Io {
                path: companion.clone(),
                message: "cannot move the database's journal aside",
                source,
            })?;
        }
    }
    Ok(kept)
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// What a file that is not a database seems to be, when it is one of the app's own files.
fn what_it_looks_like(path: &Path) -> String {
    let head: Vec<u8> = fs::read(path)
        .map(|bytes| bytes.into_iter().take(4096).collect())
        .unwrap_or_default();
    let head = String::from_utf8_lossy(&head);
    let quoted = super::migrate::shell_quote(path);
    if head.contains("\"quartermaster-force\"") {
        format!(" — it is a force file: `quartermaster force save {quoted}` imports it")
    } else if head.contains("\"quartermaster-campaign\"") {
        format!(" — it is a campaign file: `quartermaster campaign import {quoted}` imports it")
    } else {
        String::new()
    }
}

/// The data folder's newest backup and how to restore it, or that it has none.
fn backups_hint(data_dir: &Path) -> String {
    match migrate::newest_backup(data_dir) {
        Some(newest) => format!(
            "; this data folder's newest backup is {} (`quartermaster db restore {}`)",
            newest.display(),
            super::migrate::shell_quote(&newest)
        ),
        None => format!(
            "; this data folder has no backups yet in {} (`quartermaster db backup --out FILE` makes one)",
            backups_dir(data_dir).display()
        ),
    }
}
