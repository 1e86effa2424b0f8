//! Opening a database file without ever damaging it: look first (read-only), refuse what is
//! not ours, too new or damaged, copy before upgrading, then upgrade in one transaction.
//!
//! The runner is a small hand-written one over `PRAGMA user_version` rather than
//! `rusqlite_migration`: that crate's current release is built against an older rusqlite than
//! ours (two `libsqlite3-sys` cannot link into one binary), and the checks that must happen
//! *before* any write — header, application id, version bound, integrity, backup — need a
//! read-only look at the file that a migration library does not do for us.

use std::fs;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, ErrorCode, OpenFlags, TransactionBehavior};

use super::error::StoreError;

/// Stamped into every Quartermaster database (`PRAGMA application_id`): "QMST".
pub const APPLICATION_ID: i32 = 0x514D_5354;

/// The schema version this build writes and the newest it opens.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// One schema step: `db/migrations/NNNN_name.sql`, taking the database from `version - 1`
/// to `version`.
pub(crate) struct Migration {
    pub version: i64,
    pub name: &'static str,
    pub sql: &'static str,
}

/// Every migration in order; a unit test checks this list against the files in `db/migrations`.
pub(crate) const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "0001_initial",
        sql: include_str!("../../db/migrations/0001_initial.sql"),
    },
    Migration {
        version: 2,
        name: "0002_settings",
        sql: include_str!("../../db/migrations/0002_settings.sql"),
    },
    Migration {
        version: 3,
        name: "0003_campaign_engine",
        sql: include_str!("../../db/migrations/0003_campaign_engine.sql"),
    },
    Migration {
        version: 4,
        name: "0004_identity",
        sql: include_str!("../../db/migrations/0004_identity.sql"),
    },
    Migration {
        version: 5,
        name: "0005_signatures",
        sql: include_str!("../../db/migrations/0005_signatures.sql"),
    },
    Migration {
        version: 6,
        name: "0006_army_data",
        sql: include_str!("../../db/migrations/0006_army_data.sql"),
    },
    // Numbered from 100: written beside other branches' migrations, it keeps its file name
    // whatever place in the list it ends up at.
    Migration {
        version: 7,
        name: "0100_trust",
        sql: include_str!("../../db/migrations/0100_trust.sql"),
    },
    Migration {
        version: 8,
        name: "0101_event_times",
        sql: include_str!("../../db/migrations/0101_event_times.sql"),
    },
];

/// How thoroughly to check a file when opening it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Check {
    /// `PRAGMA quick_check`: every page and record, without cross-checking indexes. On an open
    /// after anything but a clean close.
    Quick,
    /// `PRAGMA integrity_check`: everything. For `db check`, upgrades and restores.
    Full,
    /// No page check: the file is as this app's last clean close left it
    /// ([`super::clean_close`]); its header, owner and version are still read.
    Skip,
}

/// A database file looked at read-only and found fit to open.
pub(crate) struct Inspected {
    pub conn: Connection,
    /// `PRAGMA user_version`: 0 for a database with no schema yet.
    pub version: i64,
}

const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// Looks at `path` without writing to it. `Ok(None)`: there is no file. Refuses a file that is
/// not a SQLite database, not Quartermaster's, newer than this build or damaged; `backups`
/// (the data directory's backup folder) is searched for the newest backup to name.
pub(crate) fn inspect(
    path: &Path,
    backups: Option<&Path>,
    check: Check,
    busy_timeout: Duration,
) -> Result<Option<Inspected>, StoreError> {
    let newest = || backups.and_then(newest_backup_in);
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(StoreError::Io {
                path: path.to_path_buf(),
                message: "cannot read the database file",
                source,
            });
        }
    };
    if meta.is_dir() {
        return Err(not_ours(path, "it is a directory".into(), newest()));
    }
    // Quartermaster never leaves an empty file behind (a new library is built elsewhere and
    // linked into place complete), so zero bytes is damage, not a new library.
    if meta.len() == 0 {
        return Err(not_ours(path, "it is empty (0 bytes)".into(), newest()));
    }
    check_header(path).map_err(|what| not_ours(path, what, newest()))?;
    let (conn, (version, app_id, objects)) = match open_read_only(path, busy_timeout) {
        // A read-only folder where no -shm can be made: with no journal or WAL left over,
        // nobody is writing the file, so it reads as unchanging.
        Err(e) if e.sqlite_error_code() == Some(ErrorCode::ReadOnly) && !has_leftovers(path) => {
            open_immutable(path).and_then(|conn| {
                conn.busy_timeout(busy_timeout)?;
                let head = read_head(&conn)?;
                Ok((conn, head))
            })
        }
        Err(e) if needs_recovery(path, &e) => {
            // An interrupted write left a journal only a writer can roll back: let SQLite do
            // exactly that, as designed, then look again.
            recover(path, busy_timeout, &e)?;
            open_read_only(path, busy_timeout)
        }
        other => other,
    }
    .map_err(|e| classify(e, path, busy_timeout, "opening read-only", newest()))?;
    let fail = |e, doing| classify(e, path, busy_timeout, doing, newest());
    if app_id != APPLICATION_ID && (app_id != 0 || objects > 0 || version != 0) {
        let what = if app_id == 0 {
            format!(
                "it is a SQLite database of another program ({objects} tables and indexes, no Quartermaster mark)"
            )
        } else {
            format!("it is a SQLite database of another program (application id {app_id:#x})")
        };
        return Err(not_ours(path, what, newest()));
    }
    if version > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            path: path.to_path_buf(),
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    let problems = integrity(&conn, check).map_err(|e| fail(e, "checking integrity"))?;
    if problems != ["ok"] {
        return Err(StoreError::Damaged {
            path: path.to_path_buf(),
            problem: summarize(&problems),
            backup: newest(),
        });
    }
    Ok(Some(Inspected { conn, version }))
}

/// Opens `path` read-only and reads its version, application id and schema size.
fn open_read_only(
    path: &Path,
    busy_timeout: Duration,
) -> rusqlite::Result<(Connection, (i64, i32, i64))> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(busy_timeout)?;
    let head = read_head(&conn)?;
    Ok((conn, head))
}

/// Version, application id and schema size.
fn read_head(conn: &Connection) -> rusqlite::Result<(i64, i32, i64)> {
    conn.query_row(
        "SELECT (SELECT user_version FROM pragma_user_version),
                (SELECT application_id FROM pragma_application_id),
                (SELECT COUNT(*) FROM sqlite_schema)",
        [],
        |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
    )
}

/// Opens `path` read-only as a file nobody changes (SQLite's `immutable`): no locks, no -shm.
/// Only for a file in a folder nobody can write, with no journal or WAL beside it.
pub(crate) fn open_immutable(path: &Path) -> rusqlite::Result<Connection> {
    let uri = format!(
        "file:{}?immutable=1",
        path.display()
            .to_string()
            .replace('%', "%25")
            .replace('?', "%3f")
            .replace('#', "%23")
    );
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
        | OpenFlags::SQLITE_OPEN_NO_MUTEX
        | OpenFlags::SQLITE_OPEN_URI;
    Connection::open_with_flags(uri, flags)
}

/// Whether an interrupted or unfinished write left a journal or WAL with content beside `path`.
pub(crate) fn has_leftovers(path: &Path) -> bool {
    ["-journal", "-wal"]
        .iter()
        .any(|suffix| fs::metadata(companion(path, suffix)).is_ok_and(|m| m.len() > 0))
}

/// True for the read-only refusals that mean "a writer must recover this file first" (a hot
/// rollback journal, or a WAL index only a writer can rebuild).
fn needs_recovery(path: &Path, error: &rusqlite::Error) -> bool {
    let leftovers = ["-journal", "-wal"]
        .iter()
        .any(|suffix| companion(path, suffix).exists());
    match error.sqlite_error_code() {
        Some(ErrorCode::ReadOnly) => true,
        Some(ErrorCode::CannotOpen) => leftovers,
        _ => false,
    }
}

/// Lets SQLite roll back a hot journal (or rebuild a WAL index) by reading through a writable
/// connection. Where even that is impossible, the error names the cause and the fix.
fn recover(path: &Path, busy_timeout: Duration, first: &rusqlite::Error) -> Result<(), StoreError> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let attempt = Connection::open_with_flags(path, flags).and_then(|conn| {
        conn.busy_timeout(busy_timeout)?;
        conn.query_row("SELECT COUNT(*) FROM sqlite_schema", [], |row| {
            row.get::<_, i64>(0)
        })?;
        conn.close().map_err(|(_, e)| e)
    });
    match attempt {
        Ok(()) => Ok(()),
        Err(e)
            if matches!(
                e.sqlite_error_code(),
                Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
            ) =>
        {
            Err(classify(e, path, busy_timeout, "recovering", None))
        }
        Err(e) => Err(unrecoverable(path, first, &e)),
    }
}

/// The words for a file SQLite must recover and cannot, with the command that lets it.
fn unrecoverable(path: &Path, first: &rusqlite::Error, last: &rusqlite::Error) -> StoreError {
    let dir = path.parent().unwrap_or(Path::new("."));
    let journal = companion(path, "-journal");
    let wal = companion(path, "-wal");
    let leftover = if journal.exists() {
        format!("an interrupted write left {} behind", journal.display())
    } else if wal.exists() {
        format!(
            "{} holds writes not yet copied into the file",
            wal.display()
        )
    } else {
        "SQLite must finish an interrupted write".to_string()
    };
    StoreError::Unrecoverable {
        path: path.to_path_buf(),
        cause: format!(
            "{leftover}, which SQLite must apply or roll back before anyone can read the library, but it cannot write there ({first}; {last})"
        ),
        fix: format!(
            "make the folder and its database files writable — `chmod u+w {} {}*` — then run any quartermaster command; do not delete or move the -journal or -wal file, it holds what SQLite needs to repair the library",
            shell_quote(dir),
            shell_quote(path)
        ),
    }
}

/// `path` with `suffix` appended to its name (`-journal`, `-wal`, `-shm`).
pub(crate) fn companion(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// A path in single quotes for a POSIX shell.
pub(crate) fn shell_quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', "'\\''"))
}

fn check_header(path: &Path) -> Result<(), String> {
    use std::io::Read;
    let mut head = [0u8; 16];
    let mut file = fs::File::open(path).map_err(|e| format!("cannot read it ({e})"))?;
    let read = file
        .read(&mut head)
        .map_err(|e| format!("cannot read it ({e})"))?;
    if read < head.len() || &head != SQLITE_MAGIC {
        let shown: String = head[..read]
            .iter()
            .map(|b| {
                if b.is_ascii_graphic() || *b == b' ' {
                    char::from(*b)
                } else {
                    '.'
                }
            })
            .collect();
        return Err(format!(
            "it does not start with the SQLite header (it starts with \"{shown}\")"
        ));
    }
    Ok(())
}

fn not_ours(path: &Path, what: String, backup: Option<PathBuf>) -> StoreError {
    StoreError::NotADatabase {
        path: path.to_path_buf(),
        what,
        backup,
    }
}

/// The result rows of SQLite's check: `["ok"]` when the file is sound.
pub(crate) fn integrity(conn: &Connection, check: Check) -> rusqlite::Result<Vec<String>> {
    let pragma = match check {
        Check::Quick => "quick_check",
        Check::Full => "integrity_check",
        Check::Skip => return Ok(vec!["ok".to_string()]),
    };
    let mut problems = Vec::new();
    conn.pragma(None, pragma, 20, |row| {
        problems.push(row.get::<_, String>(0)?);
        Ok(())
    })?;
    Ok(problems)
}

/// SQLite's findings on one line: the first three, and how many more there are.
pub(crate) fn summarize(problems: &[String]) -> String {
    let lines: Vec<&str> = problems
        .iter()
        .flat_map(|p| p.lines())
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with("*** in database"))
        .collect();
    let mut text = lines.iter().take(3).copied().collect::<Vec<_>>().join("; ");
    if lines.len() > 3 {
        text.push_str(&format!("; and {} more", lines.len() - 3));
    }
    format!("integrity check: {text}")
}

/// Turns a SQLite error met while opening or checking `path` into the store's own words.
pub(crate) fn classify(
    error: rusqlite::Error,
    path: &Path,
    busy_timeout: Duration,
    doing: &'static str,
    backup: Option<PathBuf>,
) -> StoreError {
    match error.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreError::Busy {
            path: path.display().to_string(),
            waited_ms: busy_timeout.as_millis(),
        },
        Some(ErrorCode::NotADatabase) => not_ours(path, error.to_string(), backup),
        Some(ErrorCode::DatabaseCorrupt) => StoreError::Damaged {
            path: path.to_path_buf(),
            problem: error.to_string(),
            backup,
        },
        // SQLite says "disk I/O error" for a write the full disk refused as often as "full".
        Some(ErrorCode::DiskFull) => StoreError::DiskFull {
            path: path.display().to_string(),
            doing,
        },
        Some(ErrorCode::SystemIoFailure) if disk_full(path) => StoreError::DiskFull {
            path: path.display().to_string(),
            doing,
        },
        _ => StoreError::Sqlite {
            path: path.display().to_string(),
            doing,
            source: error,
        },
    }
}

/// Whether the file system holding `path` has no room left (under a few pages of SQLite's).
fn disk_full(path: &Path) -> bool {
    #[cfg(unix)]
    {
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        rustix::fs::statvfs(dir)
            .is_ok_and(|s| u128::from(s.f_bavail) * u128::from(s.f_frsize) < 64 * 1024)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// Applies every migration newer than the database's version in one IMMEDIATE transaction,
/// with the version bound re-checked inside it (another instance may have upgraded meanwhile).
/// Returns the version the database had.
pub(crate) fn migrate(
    conn: &mut Connection,
    path: &Path,
    busy_timeout: Duration,
    backup: Option<PathBuf>,
) -> Result<i64, StoreError> {
    let fail = |e, doing| classify(e, path, busy_timeout, doing, None);
    // A plain read first: an up-to-date file (every open but the first after an update) needs
    // no write lock, so opening never waits for another instance's write.
    let current: i64 = conn
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .map_err(|e| fail(e, "reading the schema version"))?;
    if current == SCHEMA_VERSION {
        return Ok(current);
    }
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| fail(e, "starting the upgrade"))?;
    let from: i64 = tx
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .map_err(|e| fail(e, "reading the schema version"))?;
    if from > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            path: path.to_path_buf(),
            found: from,
            supported: SCHEMA_VERSION,
        });
    }
    if from == SCHEMA_VERSION {
        return Ok(from);
    }
    let failed = |migration: &'static str, message: String| StoreError::Migration {
        path: path.to_path_buf(),
        from,
        to: SCHEMA_VERSION,
        migration,
        message,
        backup: backup.clone(),
    };
    for migration in MIGRATIONS.iter().filter(|m| m.version > from) {
        tx.execute_batch(migration.sql)
            .map_err(|e| failed(migration.name, e.to_string()))?;
    }
    let finish = || -> rusqlite::Result<Vec<String>> {
        tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        tx.pragma_update(None, "application_id", APPLICATION_ID)?;
        let mut broken = Vec::new();
        tx.pragma_query(None, "foreign_key_check", |row| {
            broken.push(format!(
                "{} row {}",
                row.get::<_, String>(0)?,
                row.get::<_, Option<i64>>(1)?.unwrap_or_default()
            ));
            Ok(())
        })?;
        Ok(broken)
    };
    let last = MIGRATIONS.last().map_or("none", |m| m.name);
    let broken = finish().map_err(|e| failed(last, e.to_string()))?;
    if !broken.is_empty() {
        return Err(failed(
            last,
            format!("broken references: {}", broken.join(", ")),
        ));
    }
    tx.commit().map_err(|e| fail(e, "committing the upgrade"))?;
    Ok(from)
}

/// The backups folder of a data directory.
pub fn backups_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("backups")
}

/// [`backups_dir`], created if it is not there yet.
pub(crate) fn make_backups_dir(data_dir: &Path) -> Result<PathBuf, StoreError> {
    let dir = backups_dir(data_dir);
    std::fs::create_dir_all(&dir).map_err(|source| StoreError::Io {
        path: dir.clone(),
        message: "cannot create the backups folder",
        source,
    })?;
    Ok(dir)
}

/// The newest `*.sqlite3` file in `data_dir/backups/` (names start with a UTC timestamp).
pub fn newest_backup(data_dir: &Path) -> Option<PathBuf> {
    newest_backup_in(&backups_dir(data_dir))
}

fn newest_backup_in(dir: &Path) -> Option<PathBuf> {
    fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "sqlite3"))
        .max()
}

/// A fresh path in `dir` for a backup of a schema-`version` database:
/// `quartermaster-<UTC time>-v<version>-<reason>.sqlite3`.
pub(crate) fn backup_path(dir: &Path, version: i64, reason: &str) -> PathBuf {
    fresh_path(dir, &format!("v{version}-{reason}"), "sqlite3")
}

/// A path in `dir` named `quartermaster-<UTC time>-<label>.<extension>` that does not exist yet.
pub(crate) fn fresh_path(dir: &Path, label: &str, extension: &str) -> PathBuf {
    let stamp = utc_stamp(SystemTime::now());
    let base = format!("quartermaster-{stamp}-{label}");
    let mut path = dir.join(format!("{base}.{extension}"));
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("{base}-{n}.{extension}"));
        n += 1;
    }
    path
}

/// Writes a consistent single-file copy of `source` to `dest` with SQLite's backup API: into a
/// temporary file beside `dest`, synced, then renamed over it, so `dest` is never half written.
pub(crate) fn write_backup(
    source: &Connection,
    dest: &Path,
    busy_timeout: Duration,
) -> Result<(), StoreError> {
    let io = |message, source| StoreError::Io {
        path: dest.to_path_buf(),
        message,
        source,
    };
    let file_name = dest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "backup".into());
    let temp = dest.with_file_name(format!(".{file_name}.partial"));
    remove_if_present(&temp).map_err(|e| io("cannot remove an old partial backup", e))?;
    let fail = |e, doing| classify(e, dest, busy_timeout, doing, None);
    {
        let mut target = Connection::open(&temp).map_err(|e| fail(e, "creating the backup"))?;
        copy_database(source, &mut target, busy_timeout)
            .map_err(|e| fail(e, "copying the database"))?;
        // A backup is one self-contained file: no -wal beside it.
        target
            .pragma_update(None, "journal_mode", "DELETE")
            .map_err(|e| fail(e, "finishing the backup"))?;
        target
            .close()
            .map_err(|(_, e)| fail(e, "closing the backup"))?;
    }
    sync_file(&temp).map_err(|e| io("cannot sync the backup to disk", e))?;
    fs::rename(&temp, dest).map_err(|e| io("cannot move the finished backup into place", e))?;
    sync_parent(dest);
    Ok(())
}

/// Copies every page of `source` into `target` through SQLite's locks, waiting at most
/// `busy_timeout` for a writer to finish.
pub(crate) fn copy_database(
    source: &Connection,
    target: &mut Connection,
    busy_timeout: Duration,
) -> rusqlite::Result<()> {
    let started = Instant::now();
    let backup = Backup::new(source, target)?;
    loop {
        match backup.step(-1)? {
            StepResult::Done => return Ok(()),
            StepResult::More => {}
            // Busy, Locked (and any kind a later rusqlite adds): wait and try again.
            _ => {
                if started.elapsed() >= busy_timeout {
                    return Err(rusqlite::Error::SqliteFailure(
                        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
                        Some("the database stayed locked".into()),
                    ));
                }
                thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

pub(crate) fn remove_if_present(path: &Path) -> std::io::Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

fn sync_file(path: &Path) -> std::io::Result<()> {
    fs::File::open(path)?.sync_all()
}

/// Makes a rename durable where the platform allows syncing a directory (best effort).
pub(crate) fn sync_parent(path: &Path) {
    if let Some(dir) = path.parent()
        && let Ok(handle) = fs::File::open(dir)
    {
        let _ = handle.sync_all();
    }
}

/// `20260314T093005.123Z`: sortable, file-name safe UTC time.
pub fn utc_stamp(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let days = i64::try_from(secs / 86_400).unwrap_or_default();
    let (year, month, day) = crate::campaign::time::civil_from_days(days);
    let rem = secs % 86_400;
    format!(
        "{year:04}{month:02}{day:02}T{:02}{:02}{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        since.subsec_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_migration_file_is_registered_in_order() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("db/migrations");
        let mut files: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".sql"))
            .collect();
        files.sort();
        let registered: Vec<String> = MIGRATIONS
            .iter()
            .map(|m| format!("{}.sql", m.name))
            .collect();
        assert_eq!(files, registered);
        // A file's number is its version, or (from 0100, for migrations written beside other
        // branches') at least increases with it.
        let mut last = 0;
        for (i, m) in MIGRATIONS.iter().enumerate() {
            assert_eq!(m.version, i as i64 + 1);
            let number: i64 = m.name[..4].parse().unwrap();
            assert_eq!(&m.name[4..5], "_", "{}", m.name);
            assert!(
                number == m.version || (number >= 100 && number > last),
                "{}",
                m.name
            );
            last = number;
        }
    }

    #[test]
    fn an_unrecoverable_file_names_its_journal_and_the_command_that_fixes_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("it's here.sqlite3");
        fs::write(companion(&path, "-journal"), b"x").unwrap();
        let e = rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_READONLY_ROLLBACK),
            None,
        );
        let text = unrecoverable(&path, &e, &e).to_string();
        assert!(text.contains("it's here.sqlite3-journal"), "{text}");
        assert!(text.contains("chmod u+w"), "{text}");
        assert!(text.contains(r"'\''s here.sqlite3'*"), "{text}");
    }

    #[test]
    fn stamps_are_calendar_dates() {
        assert_eq!(utc_stamp(UNIX_EPOCH), "19700101T000000.000Z");
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400 + 3661); // 2000-02-29 01:01:01
        assert_eq!(utc_stamp(leap), "20000229T010101.000Z");
        let later = UNIX_EPOCH + Duration::from_millis(1_773_480_605_123); // 2026-03-14 09:30:05
        assert_eq!(utc_stamp(later), "20260314T093005.123Z");
    }
}
