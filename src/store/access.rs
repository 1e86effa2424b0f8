//! Read-write when the file and its folder allow it, read-only otherwise: a library on a
//! read-only disk, a shared folder or a restored archive can still be browsed, its odds worked
//! out and its forces exported; only saving says why not.

use std::path::Path;

use rusqlite::{Connection, ErrorCode, OpenFlags};

use super::error::StoreError;
use super::{Ctx, migrate};

/// Opens `path` for writing, or, where the file or its folder cannot be written, for reading
/// only; the second value then says why.
pub(crate) fn open(path: &Path, ctx: &Ctx) -> Result<(Connection, Option<String>), StoreError> {
    // No CREATE: the file exists (it was inspected); if it vanished, say so, never start an
    // empty one in its place.
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let folder_writable = path.parent().is_none_or(writable);
    let first = match Connection::open_with_flags(path, flags) {
        // A writable file in a read-only folder cannot be written either: WAL mode needs its
        // -wal and -shm files beside it, and every write would fail.
        Ok(conn) if !conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(true) && folder_writable => {
            return Ok((conn, None));
        }
        // SQLite opened it read-only itself: the file is write-protected.
        Ok(conn) => {
            drop(conn);
            "the database file is write-protected".to_string()
        }
        Err(e) if denied(&e) => format!("it cannot be opened for writing ({e})"),
        Err(e) => return Err(ctx.err("opening")(e)),
    };
    let reason = match path.parent() {
        Some(dir) if !folder_writable => format!("the folder {} is read-only", dir.display()),
        _ => first,
    };
    let read_only = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = match Connection::open_with_flags(path, read_only).and_then(readable) {
        Ok(conn) => conn,
        // A WAL file whose -shm cannot be created in a read-only folder: with nothing left
        // over, nobody can be writing it there, so it may be read as unchanging.
        Err(e) if !migrate::has_leftovers(path) => migrate::open_immutable(path)
            .and_then(readable)
            .map_err(|_| ctx.err("opening read-only")(e))?,
        Err(e) => return Err(ctx.err("opening read-only")(e)),
    };
    conn.busy_timeout(ctx.busy_timeout)
        .map_err(ctx.err("setting the busy timeout"))?;
    Ok((conn, Some(reason)))
}

fn readable(conn: Connection) -> rusqlite::Result<Connection> {
    conn.query_row("SELECT COUNT(*) FROM sqlite_schema", [], |row| {
        row.get::<_, i64>(0)
    })?;
    Ok(conn)
}

fn denied(error: &rusqlite::Error) -> bool {
    matches!(
        error.sqlite_error_code(),
        Some(ErrorCode::ReadOnly | ErrorCode::CannotOpen | ErrorCode::PermissionDenied)
    )
}

/// Whether a file can be created in `dir` (the folder's permissions alone do not tell for
/// every file system or user).
fn writable(dir: &Path) -> bool {
    let probe = dir.join(format!(".quartermaster-write-test-{}", std::process::id()));
    let made = std::fs::File::create(&probe).is_ok();
    let _ = std::fs::remove_file(&probe);
    made
}
