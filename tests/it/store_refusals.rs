//! Files the store must refuse and leave byte-identical: a database from a newer version, a
//! file that is not a database, another program's database, a damaged database.

use crate::store_support;

use std::path::Path;
use std::process::{Command, Output};

use quartermaster::store::{SCHEMA_VERSION, Store, StoreError};
use rusqlite::Connection;
use store_support::{backups, db_file, sample_force};

fn qm(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quartermaster"))
        .args(args)
        .arg("--data-dir")
        .arg(dir)
        .output()
        .unwrap()
}

/// `force save` of the legal BelloLudi fixture into `dir`.
fn save_legal_force(dir: &Path) -> Output {
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/belloludi_legal.json"
    );
    qm(dir, &["force", "save", fixture])
}

/// A data directory with a real database holding `forces` forces.
fn library(forces: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    for i in 0..forces {
        store.save_force(None, &sample_force(i, 12)).unwrap();
    }
    dir
}

/// Opens the file every way the app would, asserting each refuses it and that its bytes and
/// the backups folder are untouched. Returns the error of `Store::open`.
fn assert_refused_untouched(dir: &Path) -> StoreError {
    let file = db_file(dir);
    let before = std::fs::read(&file).unwrap();
    let backups_before = backups(dir);
    let error = match Store::open(dir) {
        Ok(_) => panic!("opened a file it must refuse"),
        Err(error) => error,
    };
    assert!(
        error.to_string().contains(&file.display().to_string()),
        "names the file: {error}"
    );
    assert!(error.to_string().contains("left untouched"), "{error}");
    assert!(Store::inspect(dir).is_err());
    let check = qm(dir, &["db", "check"]);
    assert_eq!(check.status.code(), Some(1), "db check exits 1");
    let stderr = String::from_utf8_lossy(&check.stderr);
    assert!(
        stderr.starts_with("error: ") && stderr.lines().count() == 1,
        "{stderr}"
    );
    let list = qm(dir, &["force", "list"]);
    assert_eq!(list.status.code(), Some(2));
    let save = save_legal_force(dir);
    assert_eq!(save.status.code(), Some(2));
    assert!(std::fs::read(&file).unwrap() == before, "the file changed");
    assert_eq!(backups(dir), backups_before, "nothing written to backups/");
    error
}

#[test]
fn a_database_from_a_newer_version_is_refused_and_left_byte_identical() {
    let dir = library(3);
    {
        let conn = Connection::open(db_file(dir.path())).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 7)
            .unwrap();
        conn.execute_batch("CREATE TABLE from_the_future (x)")
            .unwrap();
    }
    let error = assert_refused_untouched(dir.path());
    match &error {
        StoreError::TooNew {
            found, supported, ..
        } => {
            assert_eq!((*found, *supported), (SCHEMA_VERSION + 7, SCHEMA_VERSION));
        }
        other => panic!("expected TooNew, got {other}"),
    }
    assert!(
        error.to_string().contains("newer version of Quartermaster"),
        "{error}"
    );
}

#[test]
fn a_file_that_is_not_a_database_is_refused_and_names_the_newest_backup() {
    let dir = library(1);
    // A backup from an earlier upgrade sits in backups/.
    let backup_dir = dir.path().join("backups");
    std::fs::create_dir_all(&backup_dir).unwrap();
    let backup = backup_dir.join("quartermaster-20260101T000000.000Z-v1-before-upgrade.sqlite3");
    Store::open(dir.path()).unwrap().backup_to(&backup).unwrap();
    std::fs::write(
        db_file(dir.path()),
        "Kampfgruppe Peiper,60 points\n".repeat(400),
    )
    .unwrap();
    let error = assert_refused_untouched(dir.path());
    assert!(matches!(error, StoreError::NotADatabase { .. }), "{error}");
    let text = error.to_string();
    assert!(
        text.contains("does not start with the SQLite header"),
        "{text}"
    );
    assert!(
        text.contains(&backup.display().to_string()),
        "names the backup: {text}"
    );
    assert!(text.contains("quartermaster db restore"), "{text}");
}

#[test]
fn short_garbage_and_binary_noise_are_refused() {
    for bytes in [
        b"x".to_vec(),
        vec![0u8; 5000],
        (0..=255u8).cycle().take(9000).collect(),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(db_file(dir.path()), &bytes).unwrap();
        let error = assert_refused_untouched(dir.path());
        assert!(matches!(error, StoreError::NotADatabase { .. }), "{error}");
        assert!(error.to_string().contains("no backup was found"), "{error}");
    }
}

#[test]
fn another_programs_sqlite_database_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    {
        let conn = Connection::open(db_file(dir.path())).unwrap();
        conn.execute_batch("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT); INSERT INTO photos (path) VALUES ('a.jpg');")
            .unwrap();
    }
    let error = assert_refused_untouched(dir.path());
    assert!(error.to_string().contains("another program"), "{error}");
}

#[test]
fn a_damaged_database_fails_the_integrity_check_and_is_left_alone() {
    let dir = library(60);
    let file = db_file(dir.path());
    {
        // A clean, single-file database (no -wal) to damage.
        let conn = Connection::open(&file).unwrap();
        conn.pragma_update(None, "journal_mode", "DELETE").unwrap();
    }
    let mut bytes = std::fs::read(&file).unwrap();
    let page = 4096;
    assert!(bytes.len() > page * 8, "{} bytes", bytes.len());
    // Scribble over the middle of a few b-tree pages, as a bad disk or a stray write would.
    for p in [3, 5, 7] {
        for b in &mut bytes[p * page + 8..p * page + 600] {
            *b = 0xA5;
        }
    }
    std::fs::write(&file, &bytes).unwrap();
    let error = assert_refused_untouched(dir.path());
    assert!(matches!(error, StoreError::Damaged { .. }), "{error}");
    assert!(error.to_string().contains("is damaged"), "{error}");
}

#[test]
fn a_zero_length_database_is_refused_not_taken_for_a_new_library() {
    let dir = library(1);
    let backup = dir
        .path()
        .join("backups")
        .join("quartermaster-20260101T000000.000Z-manual.sqlite3");
    std::fs::create_dir_all(backup.parent().unwrap()).unwrap();
    Store::open(dir.path()).unwrap().backup_to(&backup).unwrap();
    std::fs::write(db_file(dir.path()), b"").unwrap();
    let error = assert_refused_untouched(dir.path());
    assert!(matches!(error, StoreError::NotADatabase { .. }), "{error}");
    let text = error.to_string();
    assert!(text.contains("empty (0 bytes)"), "{text}");
    assert!(text.contains(&backup.display().to_string()), "{text}");
    assert_eq!(std::fs::metadata(db_file(dir.path())).unwrap().len(), 0);

    // Without a backup, the message says how to start a new library instead.
    let bare = tempfile::tempdir().unwrap();
    std::fs::write(db_file(bare.path()), b"").unwrap();
    let text = Store::open(bare.path()).unwrap_err().to_string();
    assert!(text.contains("mv '"), "{text}");
}

/// Index damage that `quick_check` (run at every open) does not see, only `integrity_check`.
fn damage_an_index(dir: &Path) {
    let conn = Connection::open(db_file(dir)).unwrap();
    conn.pragma_update(None, "writable_schema", true).unwrap();
    conn.execute(
        "UPDATE sqlite_schema SET sql = replace(sql, '(name COLLATE NOCASE)', '(notes COLLATE NOCASE)')
         WHERE name = 'forces_by_name'",
        [],
    )
    .unwrap();
}

#[test]
fn a_database_failing_the_full_check_is_read_but_never_written() {
    let dir = library(3);
    damage_an_index(dir.path());
    let file = db_file(dir.path());
    let before = std::fs::read(&file).unwrap();

    // Reading still works: the forces can be seen and exported.
    let mut store = Store::open(dir.path()).unwrap();
    assert_eq!(store.list_forces().unwrap().len(), 3);
    for _ in 0..2 {
        let error = store.save_force(None, &sample_force(9, 3)).unwrap_err();
        assert!(matches!(error, StoreError::Damaged { .. }), "{error}");
        assert!(error.to_string().contains("missing from index"), "{error}");
    }
    assert!(store.set_setting("theme", "dark").is_err());
    drop(store);

    let save = save_legal_force(dir.path());
    assert_eq!(save.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&save.stderr);
    assert!(stderr.contains("is damaged"), "{stderr}");
    assert_eq!(qm(dir.path(), &["db", "check"]).status.code(), Some(1));
    assert!(std::fs::read(&file).unwrap() == before, "the file changed");
    assert_eq!(
        Store::open(dir.path())
            .unwrap()
            .list_forces()
            .unwrap()
            .len(),
        3
    );
}

#[test]
fn a_file_as_its_last_clean_close_left_it_opens_and_writes_without_a_check() {
    let dir = library(1);
    for _ in 0..2 {
        let mut store = Store::open(dir.path()).unwrap();
        assert!(!store.page_checked_at_open());
        store.set_setting("theme", "dark").unwrap();
    }
}

#[test]
fn a_session_that_never_closed_leaves_the_next_open_checking_until_a_write() {
    let dir = library(1);
    // A session that dies takes the clean-close stamp away at its open and never writes it.
    drop(Store::open(dir.path()).unwrap());
    std::fs::remove_file(dir.path().join("quartermaster.sqlite3.clean")).unwrap();
    let store = Store::open(dir.path()).unwrap();
    assert!(store.page_checked_at_open());
    // Closed without writing, so without the full check a write makes: still checked.
    drop(store);
    let mut store = Store::open(dir.path()).unwrap();
    assert!(store.page_checked_at_open());
    store.set_setting("theme", "dark").unwrap();
    drop(store);
    assert!(!Store::open(dir.path()).unwrap().page_checked_at_open());
}

#[test]
fn a_session_that_never_closed_and_left_its_wal_is_checked() {
    let dir = library(1);
    // A session that dies holding its connection: its WAL stays beside the file.
    let mut dying = Store::open(dir.path()).unwrap();
    dying.set_setting("theme", "dark").unwrap();
    std::mem::forget(dying);
    assert!(Store::open(dir.path()).unwrap().page_checked_at_open());
}

#[test]
fn a_background_check_finds_damage_before_the_first_write() {
    let dir = library(3);
    damage_an_index(dir.path());
    let mut store = Store::open(dir.path()).unwrap();
    let check = store.background_reader().unwrap().full_check().unwrap();
    assert!(!check.ok());
    store.accept_background_check(&check);
    assert!(
        store.known_damage().unwrap().contains("missing from index"),
        "{:?}",
        store.known_damage()
    );
    let error = store.save_force(None, &sample_force(9, 3)).unwrap_err();
    assert!(matches!(error, StoreError::Damaged { .. }), "{error}");
}

#[test]
fn a_clean_background_check_does_not_outlive_another_writer() {
    let dir = library(3);
    let mut store = Store::open(dir.path()).unwrap();
    let check = store.background_reader().unwrap().full_check().unwrap();
    assert!(check.ok(), "{:?}", check.problems);
    // Another program damages the file after the check: the store's first write must not
    // take the old verdict for the file as it is now.
    damage_an_index(dir.path());
    let conn = Connection::open(db_file(dir.path())).unwrap();
    let version: i64 = conn
        .query_row("PRAGMA schema_version", [], |r| r.get(0))
        .unwrap();
    conn.pragma_update(None, "schema_version", version + 1)
        .unwrap();
    drop(conn);
    store.accept_background_check(&check);
    assert_eq!(store.known_damage(), None);
    let error = store.save_force(None, &sample_force(9, 3)).unwrap_err();
    assert!(matches!(error, StoreError::Damaged { .. }), "{error}");
}

#[test]
fn a_clean_background_check_lets_the_first_write_through() {
    let dir = library(3);
    let mut store = Store::open(dir.path()).unwrap();
    let check = store.background_reader().unwrap().full_check().unwrap();
    store.accept_background_check(&check);
    store.save_force(None, &sample_force(9, 3)).unwrap();
    assert_eq!(store.list_forces().unwrap().len(), 4);
    assert!(
        Store::open_in_memory()
            .unwrap()
            .background_reader()
            .is_none(),
        "a database in memory has no second connection"
    );
}
