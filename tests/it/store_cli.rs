//! The database commands end to end, through the real binary: `force save|list|show|export|
//! delete`, `db check|backup|restore`, `--data-dir` and `QUARTERMASTER_DATA_DIR`, and malformed
//! force files refused with the field named and nothing written.

use crate::store_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use quartermaster::rules::{RulesetId, force_file};
use quartermaster::store::Store;
use rusqlite::Connection;
use store_support::{backups, db_file, sample_force};

fn qm_env(dir: Option<&Path>, env: Option<&Path>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_quartermaster"));
    command.args(args).env_remove("QUARTERMASTER_DATA_DIR");
    if let Some(dir) = dir {
        command.arg("--data-dir").arg(dir);
    }
    if let Some(env) = env {
        command.env("QUARTERMASTER_DATA_DIR", env);
    }
    command.output().unwrap()
}

fn qm(dir: &Path, args: &[&str]) -> Output {
    qm_env(Some(dir), None, args)
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.display().to_string()
}

#[test]
fn save_list_show_export_and_delete_a_force() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let out = qm(&data, &["force", "save", &fixture("belloludi_legal.json")]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "Kampfgruppe Peiper\n");
    assert!(db_file(&data).is_file());

    // Saving the same name again is refused; --replace overwrites.
    let again = qm(&data, &["force", "save", &fixture("belloludi_legal.json")]);
    assert_eq!(again.status.code(), Some(2));
    assert!(
        stderr(&again).contains("'Kampfgruppe Peiper' already exists"),
        "{}",
        stderr(&again)
    );
    assert!(stderr(&again).contains("--replace"));
    let replaced = qm(
        &data,
        &[
            "force",
            "save",
            "--replace",
            &fixture("belloludi_legal.json"),
        ],
    );
    assert!(replaced.status.success(), "{}", stderr(&replaced));
    assert!(
        qm(
            &data,
            &[
                "force",
                "save",
                &fixture("lorraine_1_german_three_panthers.json")
            ]
        )
        .status
        .success()
    );

    let list = qm(&data, &["force", "list", "--json"]);
    assert!(list.status.success());
    let list: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Kampfgruppe Peiper", "Too Many Panthers"]);
    for key in ["id", "name", "ruleset", "units", "updated_at"] {
        assert!(list[0].get(key).is_some(), "{key} in {list}");
    }
    assert_eq!(list[0]["ruleset"], "belloludi");
    assert_eq!(list[0]["units"], 3);
    let text = stdout(&qm(&data, &["force", "list"]));
    assert!(
        text.contains("Kampfgruppe Peiper") && text.contains("armour-battles"),
        "{text}"
    );

    // show --json is the force file (case-insensitive name), no card_changes when none.
    let show = qm(&data, &["force", "show", "kampfgruppe PEIPER", "--json"]);
    assert!(show.status.success(), "{}", stderr(&show));
    let shown: serde_json::Value = serde_json::from_slice(&show.stdout).unwrap();
    let original: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("belloludi_legal.json")).unwrap())
            .unwrap();
    assert_eq!(shown, original);
    let show = stdout(&qm(&data, &["force", "show", "Too Many Panthers"]));
    assert!(
        show.contains("Panther Ausf G") && show.contains("NOT legal"),
        "{show}"
    );

    // export writes the force file; importing it elsewhere and exporting gives the same bytes.
    let exported = dir.path().join("out.json");
    let out = qm(
        &data,
        &[
            "force",
            "export",
            "Kampfgruppe Peiper",
            "--out",
            exported.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let first = std::fs::read_to_string(&exported).unwrap();
    assert_eq!(
        force_file::parse(&first).unwrap(),
        force_file::parse(&std::fs::read_to_string(fixture("belloludi_legal.json")).unwrap())
            .unwrap()
    );
    let other = dir.path().join("other");
    assert!(
        qm(&other, &["force", "save", exported.to_str().unwrap()])
            .status
            .success()
    );
    let second = dir.path().join("again.json");
    assert!(
        qm(
            &other,
            &[
                "force",
                "export",
                "Kampfgruppe Peiper",
                "--out",
                second.to_str().unwrap()
            ]
        )
        .status
        .success()
    );
    assert_eq!(std::fs::read_to_string(&second).unwrap(), first);

    let delete = qm(&data, &["force", "delete", "too many panthers"]);
    assert!(delete.status.success(), "{}", stderr(&delete));
    assert_eq!(stdout(&delete), "deleted Too Many Panthers\n");
    let missing = qm(&data, &["force", "show", "Too Many Panthers"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("no force named 'Too Many Panthers'"),
        "{}",
        stderr(&missing)
    );
    assert_eq!(
        qm(&data, &["force", "delete", "Too Many Panthers"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn show_json_reports_card_changes() {
    let dir = tempfile::tempdir().unwrap();
    assert!(
        qm(
            dir.path(),
            &[
                "force",
                "save",
                &fixture("lorraine_1_german_three_panthers.json")
            ]
        )
        .status
        .success()
    );
    {
        let conn = Connection::open(db_file(dir.path())).unwrap();
        let pinned: String = conn
            .query_row(
                "SELECT pinned_card FROM force_units WHERE position = 0",
                [],
                |r| r.get(0),
            )
            .unwrap();
        let mut card: serde_json::Value = serde_json::from_str(&pinned).unwrap();
        card["cohesion"] = serde_json::json!(99);
        conn.execute(
            "UPDATE force_units SET pinned_card = ?1 WHERE position = 0",
            [card.to_string()],
        )
        .unwrap();
    }
    let show = qm(
        dir.path(),
        &["force", "show", "Too Many Panthers", "--json"],
    );
    assert!(show.status.success(), "{}", stderr(&show));
    let shown: serde_json::Value = serde_json::from_slice(&show.stdout).unwrap();
    let changes = shown["card_changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{shown}");
    assert_eq!(changes[0]["unit_index"], 0);
    assert_eq!(changes[0]["field"], "cohesion");
    assert_eq!(changes[0]["old"], "99");
    assert_eq!(
        shown["units"].as_array().unwrap().len(),
        3,
        "no unit dropped"
    );
    let text = stdout(&qm(dir.path(), &["force", "show", "Too Many Panthers"]));
    assert!(
        text.contains("Book cards changed") && text.contains("cohesion was 99"),
        "{text}"
    );
}

#[test]
fn the_data_dir_comes_from_the_option_else_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let from_env = dir.path().join("env");
    let from_arg = dir.path().join("arg");
    let out = qm_env(
        None,
        Some(&from_env),
        &["force", "save", &fixture("belloludi_legal.json")],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(db_file(&from_env).is_file());
    // --data-dir wins over the environment.
    let out = qm_env(
        Some(&from_arg),
        Some(&from_env),
        &["force", "list", "--json"],
    );
    assert_eq!(stdout(&out).trim(), "[]");
    let out = qm_env(None, Some(&from_env), &["force", "list", "--json"]);
    assert!(stdout(&out).contains("Kampfgruppe Peiper"));
    // The option may also come before the subcommand.
    let out = Command::new(env!("CARGO_BIN_EXE_quartermaster"))
        .arg("--data-dir")
        .arg(&from_env)
        .args(["force", "list"])
        .output()
        .unwrap();
    assert!(
        stdout(&out).contains("Kampfgruppe Peiper"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn malformed_force_files_name_the_field_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let good = std::fs::read_to_string(fixture("belloludi_legal.json")).unwrap();
    let with_count = |count: &str| good.replacen("\"count\": 2", &format!("\"count\": {count}"), 1);
    assert_ne!(
        with_count("7"),
        good,
        "the fixture has a count of 2 to replace"
    );
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "truncated JSON",
            good.as_bytes()[..good.len() / 2].to_vec(),
            "EOF",
        ),
        (
            "wrong type",
            with_count("\"two\"").into_bytes(),
            "units[0].count",
        ),
        (
            "unknown ruleset",
            good.replace("\"belloludi\"", "\"warhammer\"").into_bytes(),
            "ruleset",
        ),
        (
            "negative count",
            with_count("-1").into_bytes(),
            "units[0].count",
        ),
        (
            "1e12 count",
            with_count("1e12").into_bytes(),
            "units[0].count",
        ),
        (
            "huge integer count",
            with_count("1000000000000").into_bytes(),
            "units[0].count",
        ),
        (
            "count over the limit",
            with_count("1000").into_bytes(),
            "units[0].count",
        ),
        (
            "10 MB name",
            good.replace("Kampfgruppe Peiper", &"K".repeat(10 * 1024 * 1024))
                .into_bytes(),
            "name: 10485760 characters",
        ),
        (
            "invalid UTF-8",
            {
                let mut bytes = good.clone().into_bytes();
                let at = good.find("Peiper").unwrap();
                bytes[at] = 0xFF;
                bytes
            },
            "not UTF-8",
        ),
    ];
    // Once with no database yet (none may be created), once with a force already saved.
    for existing in [false, true] {
        if existing {
            assert!(
                qm(
                    &data,
                    &[
                        "force",
                        "save",
                        &fixture("lorraine_1_german_three_panthers.json")
                    ]
                )
                .status
                .success()
            );
        }
        let before = existing.then(|| stdout(&qm(&data, &["force", "list", "--json"])));
        for (what, bytes, expected) in &cases {
            let file = write(dir.path(), "bad.json", bytes);
            let out = qm(&data, &["force", "save", &file]);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{what}: {err}");
            assert!(
                err.starts_with("error: ") && err.lines().count() == 1,
                "{what}: {err}"
            );
            assert!(err.contains("bad.json"), "{what} names the file: {err}");
            assert!(
                err.contains(expected),
                "{what} should name {expected}: {err}"
            );
            assert!(
                err.len() < 600,
                "{what}: the message stays short ({} bytes)",
                err.len()
            );
            if existing {
                assert_eq!(
                    Some(stdout(&qm(&data, &["force", "list", "--json"]))),
                    before,
                    "{what}"
                );
            } else {
                assert!(!db_file(&data).exists(), "{what}: a database was created");
            }
        }
    }
}

#[test]
fn db_check_backup_and_restore() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let none = qm(&data, &["db", "check"]);
    assert_eq!(none.status.code(), Some(1));
    assert!(stderr(&none).contains("no database"), "{}", stderr(&none));

    let mut store = Store::open(&data).unwrap();
    let forces: Vec<_> = (0..6).map(|i| sample_force(i, 5)).collect();
    for force in &forces {
        store.save_force(None, force).unwrap();
    }
    drop(store);

    let check = qm(&data, &["db", "check", "--json"]);
    assert!(check.status.success(), "{}", stderr(&check));
    let report: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(report["ok"], true);
    assert_eq!(
        report["schema_version"],
        quartermaster::store::SCHEMA_VERSION
    );
    assert_eq!(report["integrity"], serde_json::json!(["ok"]));
    assert_eq!(report["forces"], 6);
    let text = stdout(&qm(&data, &["db", "check"]));
    assert!(
        text.contains("integrity  ok") && text.contains("6 forces"),
        "{text}"
    );

    let backup = dir.path().join("library.qmbackup");
    let out = qm(&data, &["db", "backup", "--out", backup.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("6 forces"));
    // A backup is one self-contained SQLite file.
    assert!(!PathBuf::from(format!("{}-wal", backup.display())).exists());
    let bytes = std::fs::read(&backup).unwrap();
    assert!(bytes.starts_with(b"SQLite format 3\0"));

    // Change the library, then restore: the backup's forces come back, the changed database
    // is kept in backups/.
    let mut store = Store::open(&data).unwrap();
    let first = store.list_forces().unwrap()[0].id;
    store.delete_force(first).unwrap();
    let mut extra = sample_force(9, 2);
    extra.ruleset = RulesetId::Belloludi;
    extra.units.clear();
    store.save_force(None, &extra).unwrap();
    let out = qm(&data, &["db", "restore", backup.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("restored 6 forces"),
        "{}",
        stdout(&out)
    );
    // The store that was open all along sees the restored data.
    let names: Vec<String> = store
        .list_forces()
        .unwrap()
        .into_iter()
        .map(|f| f.name)
        .collect();
    let mut expected: Vec<String> = forces.iter().map(|f| f.name.clone()).collect();
    expected.sort();
    assert_eq!(names, expected);
    for force in &forces {
        let id = store.find_force(&force.name).unwrap().unwrap();
        assert_eq!(&store.load_force(id).unwrap().force, force);
    }
    let kept = backups(&data);
    assert_eq!(kept.len(), 1, "{kept:?}");
    let kept_store_names: Vec<String> = {
        let conn = Connection::open(&kept[0]).unwrap();
        let mut stmt = conn
            .prepare("SELECT name FROM forces ORDER BY name")
            .unwrap();
        stmt.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    assert!(
        kept_store_names.contains(&extra.name),
        "the replaced database is kept: {kept_store_names:?}"
    );
    assert!(qm(&data, &["db", "check"]).status.success());
}

#[test]
fn restore_refuses_a_bad_backup_and_replaces_a_damaged_database() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut store = Store::open(&data).unwrap();
    store.save_force(None, &sample_force(1, 4)).unwrap();
    let backup = dir.path().join("good.sqlite3");
    store.backup_to(&backup).unwrap();
    drop(store);

    // A garbage "backup" is refused and the database is untouched.
    let garbage = write(
        dir.path(),
        "garbage.sqlite3",
        "not a backup at all".repeat(100),
    );
    let before = std::fs::read(db_file(&data)).unwrap();
    let out = qm(&data, &["db", "restore", &garbage]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot restore from") && stderr(&out).contains("not touched"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(db_file(&data)).unwrap(), before);

    // The database is then damaged beyond opening: restore moves it aside, byte for byte.
    let damaged = "this database was overwritten by mistake".repeat(200);
    std::fs::write(db_file(&data), &damaged).unwrap();
    let refused = qm(&data, &["force", "list"]);
    assert!(
        stderr(&refused).contains("not a Quartermaster database"),
        "{}",
        stderr(&refused)
    );
    let out = qm(&data, &["db", "restore", backup.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let kept = backups(&data);
    assert_eq!(kept.len(), 1);
    assert_eq!(std::fs::read(&kept[0]).unwrap(), damaged.as_bytes());
    // The refused file is kept, but never offered as a backup to restore.
    assert!(kept[0].to_string_lossy().ends_with(".refused"), "{kept:?}");
    assert_eq!(quartermaster::store::newest_backup(&data), None);
    let list = stdout(&qm(&data, &["force", "list", "--json"]));
    assert!(list.contains(&sample_force(1, 4).name), "{list}");
}

/// `units` lists the data directory's custom cards beside the books', marked as custom, and
/// never creates a library just to list cards.
#[test]
fn units_lists_custom_cards_marked_as_custom() {
    let dir = tempfile::tempdir().unwrap();
    let empty = qm(dir.path(), &["units", "--ruleset", "belloludi"]);
    assert!(empty.status.success(), "{}", stderr(&empty));
    assert!(
        !db_file(dir.path()).exists(),
        "no library is created to list cards"
    );

    let mut store = Store::open(dir.path()).unwrap();
    let sherman = quartermaster::rules::ruleset(RulesetId::Belloludi)
        .library()
        .iter()
        .find(|c| c.name() == "Sherman")
        .unwrap()
        .clone();
    let id = store.save_custom_card(None, &sherman).unwrap();
    drop(store);

    let text = stdout(&qm(dir.path(), &["units", "--ruleset", "belloludi"]));
    assert!(text.contains("Sherman · custom"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&stdout(&qm(
        dir.path(),
        &["units", "--ruleset", "belloludi", "--json"],
    )))
    .unwrap();
    let cards = json.as_array().unwrap();
    assert_eq!(cards.len(), 6, "five book cards and the custom one");
    let custom: Vec<_> = cards.iter().filter(|c| c["custom"] == true).collect();
    assert_eq!(custom.len(), 1);
    assert_eq!(custom[0]["name"], "Sherman");
    assert_eq!(custom[0]["card_id"], id.0);
    assert_eq!(custom[0]["stats"]["Points"], "17");
}

/// A library with a custom card and a Lorraine campaign whose first battle has a few events.
fn library_with_a_campaign(dir: &Path) {
    use quartermaster::campaign::{self, CampaignRecord, LorraineOptions, Sides};
    let mut store = Store::open(dir).unwrap();
    store
        .save_custom_card(None, &store_support::sample_card(3))
        .unwrap();
    store.save_force(None, &sample_force(1, 4)).unwrap();
    let definition =
        campaign::new_lorraine("Lezey", Sides::default(), LorraineOptions::default()).unwrap();
    let stored = store
        .create_campaign_record(&CampaignRecord::new(
            quartermaster::store::new_campaign_uid(),
            definition,
        ))
        .unwrap();
    let mut record = stored.record.clone();
    let by = store.recorder().unwrap();
    for _ in 0..12 {
        let Some(event) = record.scripted(0, &by).unwrap() else {
            break;
        };
        let at = record.next_position(0).unwrap();
        let logged = store
            .record_event(stored.battle_ids[0], at, &event)
            .unwrap();
        record.add(0, logged).unwrap();
    }
}

#[test]
fn db_check_loads_every_card_force_and_campaign_and_replays_every_roll() {
    let dir = tempfile::tempdir().unwrap();
    library_with_a_campaign(dir.path());
    let check = qm(dir.path(), &["db", "check"]);
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
    assert!(stdout(&check).contains("every card, force and campaign loads"));

    // Sound pages, unusable content: a card body that is no card, and a die changed in the
    // stored log (behind the append-only trigger's back).
    {
        let conn = Connection::open(db_file(dir.path())).unwrap();
        conn.execute_batch(
            "UPDATE cards SET body = '{\"ruleset\": \"belloludi\", \"name\": \"X\"}'
               WHERE id = (SELECT MAX(id) FROM cards WHERE origin = 'custom');
             DROP TRIGGER battle_events_no_update;
             UPDATE battle_events SET payload = replace(payload, '\"dice\":[', '\"dice\":[6,')
               WHERE id = (SELECT MIN(id) FROM battle_events WHERE kind = 'act');",
        )
        .unwrap();
    }
    let check = qm(dir.path(), &["db", "check"]);
    assert_eq!(check.status.code(), Some(1), "{}", stdout(&check));
    let text = stdout(&check);
    assert!(text.contains("content    2 problems:"), "{text}");
    assert!(text.contains("  - card "), "{text}");
    assert!(
        text.contains("  - campaign 1 'Lezey': its export would not import: "),
        "{text}"
    );
    let json = qm(dir.path(), &["db", "check", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["ok"], false);
    assert_eq!(report["integrity"], serde_json::json!(["ok"]));
    assert_eq!(report["content_problems"].as_array().unwrap().len(), 2);
}
