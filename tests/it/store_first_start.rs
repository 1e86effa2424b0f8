//! First start under faults: a kill at any moment of the very first start must leave a data
//! folder the next start opens, and leftovers of interrupted writes (a hot journal, a journal
//! whose database is gone) are recovered as SQLite designed them, never parted from their file.

use crate::store_support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use quartermaster::store::{Store, StoreError};
use rusqlite::Connection;
use store_support::{backups, db_file, sample_force};

/// Kills of a first start; each in its own fresh data folder.
const KILLS: u64 = 100;

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn a_kill_at_any_moment_of_the_first_start_leaves_a_folder_that_opens() {
    let root = tempfile::tempdir().unwrap();
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    let mut rng = seed | 1;
    let mut finished_before_kill = 0;
    for round in 0..KILLS {
        let data = root.path().join(format!("data-{round}"));
        let wait = Duration::from_millis(xorshift(&mut rng) % 51);
        let mut child = Command::new(env!("CARGO_BIN_EXE_quartermaster"))
            .args(["force", "list", "--data-dir"])
            .arg(&data)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(wait);
        if child.try_wait().unwrap().is_some() {
            finished_before_kill += 1;
        }
        let _ = child.kill(); // SIGKILL on Unix
        child.wait().unwrap();

        let store = Store::open(&data)
            .unwrap_or_else(|e| panic!("seed {seed} round {round} (killed at {wait:?}): {e}"));
        let report = store.check().unwrap();
        assert!(
            report.integrity_ok(),
            "seed {seed} round {round}: {report:?}"
        );
        assert!(
            report.book_cards > 0,
            "seed {seed} round {round}: not seeded"
        );
        assert!(store.list_forces().unwrap().is_empty());
    }
    eprintln!("first-start kills: {KILLS}, {finished_before_kill} finished before the kill");
    assert!(
        finished_before_kill < KILLS,
        "no kill landed inside a first start"
    );
}

/// A copy of a library taken while a write was under way in rollback-journal mode: the copy's
/// `-journal` is hot, exactly what a kill mid-write leaves.
fn library_with_hot_journal(dir: &Path) {
    {
        let mut store = Store::open(dir).unwrap();
        if store.list_forces().unwrap().is_empty() {
            store.save_force(None, &sample_force(1, 4)).unwrap();
        }
    }
    let live = db_file(dir);
    let scratch = tempfile::tempdir().unwrap();
    let copy = scratch.path().join("copy.sqlite3");
    std::fs::copy(&live, &copy).unwrap();
    let conn = Connection::open(&copy).unwrap();
    conn.pragma_update(None, "journal_mode", "DELETE").unwrap();
    conn.pragma_update(None, "cache_size", 1).unwrap();
    conn.execute_batch("BEGIN IMMEDIATE; UPDATE forces SET notes = 'half written';")
        .unwrap();
    let journal = scratch.path().join("copy.sqlite3-journal");
    assert!(journal.exists(), "the write has a journal");
    std::fs::copy(&copy, &live).unwrap();
    std::fs::copy(&journal, dir.join("quartermaster.sqlite3-journal")).unwrap();
    drop(conn);
}

#[test]
fn a_hot_journal_is_rolled_back_and_the_last_commit_opens() {
    let dir = tempfile::tempdir().unwrap();
    library_with_hot_journal(dir.path());
    let store = Store::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let forces = store.load_forces().unwrap();
    assert_eq!(forces.len(), 1);
    assert_eq!(
        forces[0].force.notes,
        sample_force(1, 4).notes,
        "rolled back"
    );
    assert!(store.check().unwrap().integrity_ok());
}

#[test]
fn db_check_and_restore_recover_a_hot_journal_too() {
    let dir = tempfile::tempdir().unwrap();
    library_with_hot_journal(dir.path());
    let report = Store::inspect(dir.path()).unwrap().unwrap();
    assert!(report.integrity_ok());
    assert_eq!(report.forces, 1);

    let other = tempfile::tempdir().unwrap();
    library_with_hot_journal(other.path());
    let backup = other.path().join("backup.sqlite3");
    Store::open(other.path())
        .unwrap()
        .backup_to(&backup)
        .unwrap();
    library_with_hot_journal(dir.path());
    let restored = Store::restore(dir.path(), &backup).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(restored.forces, 1);
    assert_eq!(
        Store::open(dir.path())
            .unwrap()
            .load_forces()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn a_journal_whose_database_is_gone_is_kept_aside_not_applied_to_a_new_library() {
    let dir = tempfile::tempdir().unwrap();
    library_with_hot_journal(dir.path());
    std::fs::remove_file(db_file(dir.path())).unwrap();
    let store = Store::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    assert!(store.check().unwrap().integrity_ok());
    assert!(store.list_forces().unwrap().is_empty(), "a new library");
    assert!(!dir.path().join("quartermaster.sqlite3-journal").exists());
    assert!(
        backups(dir.path())
            .iter()
            .any(|p| p.to_string_lossy().ends_with("orphaned.sqlite3-journal")),
        "{:?}",
        backups(dir.path())
    );
}

#[test]
fn a_refused_database_is_moved_aside_with_its_journal_by_restore() {
    let dir = tempfile::tempdir().unwrap();
    let source = tempfile::tempdir().unwrap();
    let backup = source.path().join("backup.sqlite3");
    {
        let mut store = Store::open(source.path()).unwrap();
        store.save_force(None, &sample_force(2, 3)).unwrap();
        store.backup_to(&backup).unwrap();
    }
    library_with_hot_journal(dir.path());
    // Not a database any more, but its journal is still beside it.
    std::fs::write(db_file(dir.path()), b"garbage, not SQLite at all.....").unwrap();
    let refused = Store::open(dir.path()).unwrap_err();
    assert!(
        matches!(refused, StoreError::NotADatabase { .. }),
        "{refused}"
    );
    let report = Store::restore(dir.path(), &backup).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.forces, 1);
    let previous = report.previous.unwrap();
    assert!(
        Path::new(&format!("{}-journal", previous.display())).exists(),
        "the journal went with its file"
    );
    assert!(!dir.path().join("quartermaster.sqlite3-journal").exists());
    let store = Store::open(dir.path()).unwrap();
    assert_eq!(
        store.load_forces().unwrap()[0].force.name,
        sample_force(2, 3).name
    );
}
