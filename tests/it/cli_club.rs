//! What a new user or a club member meets on the command line: no display, a restore of the
//! wrong file, counts of one, a file where a folder belongs, JSON mistakes by line and column,
//! a wrong budget kind, what `campaign export` wrote and which id is which.

use std::process::Command;

use serde_json::Value;

use crate::cli_support::{qm_in, text};

#[test]
fn no_display_is_said_plainly_with_exit_2_and_no_internal_paths() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_quartermaster"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .arg("--data-dir")
        .arg(dir.path().join("data"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains(quartermaster::ui::NO_DISPLAY),
        "the plain message: {err}"
    );
    assert!(
        !err.contains(".rs:") && !err.contains("/.cargo/"),
        "no source paths: {err}"
    );
    assert!(
        !dir.path().join("data").exists(),
        "nothing is created when no window can open"
    );
}

#[test]
fn help_says_running_it_bare_opens_the_window_and_no_command_does() {
    let out = Command::new(env!("CARGO_BIN_EXE_quartermaster"))
        .arg("--help")
        .output()
        .unwrap();
    let help = text(&out.stdout);
    assert!(
        help.contains("with no command to open the window"),
        "{help}"
    );
    assert!(help.contains("No command opens it"), "{help}");
}

#[test]
fn restoring_a_force_file_says_what_it_is_and_names_the_backup_that_exists() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let force = dir.path().join("peiper.json");
    assert!(
        qm_in(
            &data,
            &[
                "force",
                "preset",
                "lorraine-1-us",
                "--out",
                force.to_str().unwrap()
            ]
        )
        .status
        .success()
    );
    assert!(
        qm_in(&data, &["force", "save", force.to_str().unwrap()])
            .status
            .success()
    );
    // A backup in the data folder's backups/, as an upgrade or a restore leaves one.
    let backups = data.join("backups");
    std::fs::create_dir_all(&backups).unwrap();
    let kept = backups.join("quartermaster-20260314T093005.123Z-manual.sqlite3");
    let backup = qm_in(&data, &["db", "backup", "--out", kept.to_str().unwrap()]);
    assert_eq!(
        text(&backup.stdout).trim(),
        format!("wrote a backup of 1 force to {}", kept.display()),
        "one force, not '1 forces'"
    );

    let out = qm_in(&data, &["db", "restore", force.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("it is not a database backup"), "{err}");
    assert!(err.contains("it is a force file"), "{err}");
    assert!(err.contains("force save"), "{err}");
    assert!(
        err.contains(&kept.display().to_string()),
        "the backup that exists is named: {err}"
    );
    assert!(
        !err.contains("no backup was found") && !err.contains("mv "),
        "{err}"
    );

    let check = qm_in(&data, &["db", "check"]);
    let report = text(&check.stdout);
    assert!(
        report.contains("contents   1 force, 50 book cards, 0 custom cards, 0 campaigns"),
        "{report}"
    );
}

#[test]
fn a_data_dir_that_is_a_file_is_named_as_a_file_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("notes.txt");
    std::fs::write(&file, "x").unwrap();
    let out = qm_in(&file, &["force", "list"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("is a file, not a folder"), "{err}");
    assert_eq!(
        err.matches("File exists").count(),
        0,
        "the OS error is not the story: {err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn json_mistakes_are_placed_by_line_and_column_in_characters() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.json");
    // "Ä" is two bytes: an editor's column counts it once.
    std::fs::write(
        &file,
        "{\"format\":\"quartermaster-force\",\n \"version\":1,\n \"name\":\"Ä\" \"ruleset\":\"belloludi\"}",
    )
    .unwrap();
    let out = qm_in(dir.path(), &["force", "validate", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("(line 3, column 13)"), "{err}");
    assert!(!err.contains("byte") && !err.contains(".?"), "{err}");

    let typed = dir.path().join("typed.json");
    let second = r#""budget":{"points":5},"units":[{"card":"Medium Tank","count":"two"}]}"#;
    std::fs::write(
        &typed,
        format!("{{\"format\":\"quartermaster-force\",\"version\":1,\"ruleset\":\"belloludi\",\"name\":\"x\",\n{second}"),
    )
    .unwrap();
    let out = qm_in(dir.path(), &["force", "validate", typed.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert!(err.contains("units[0].count"), "{err}");
    // The value is read to its closing quote: the column of that quote on line 2.
    let closing = second.find(r#""two""#).unwrap() + r#""two""#.len();
    assert!(
        err.contains(&format!("(line 2, column {closing})")),
        "{err}"
    );
}

#[test]
fn a_wrong_budget_kind_prints_what_is_used_never_a_question_mark() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("kind.json");
    std::fs::write(
        &file,
        r#"{"format":"quartermaster-force","version":1,"ruleset":"belloludi","name":"x","budget":{"tier_points":51},"units":[{"card":"Medium Tank"}]}"#,
    )
    .unwrap();
    let out = qm_in(dir.path(), &["force", "validate", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stdout);
    assert!(!said.contains('?'), "{said}");
    assert!(said.starts_with("x: NOT legal — "), "{said}");
    assert!(
        said.lines().next().unwrap().ends_with(" points used"),
        "{said}"
    );
}

#[test]
fn campaign_export_says_what_it_wrote_and_both_jsons_name_the_campaign_id() {
    let dir = tempfile::tempdir().unwrap();
    assert!(
        qm_in(
            dir.path(),
            &["campaign", "new", "lorraine", "--name", "Lezey"]
        )
        .status
        .success()
    );
    for (file, what) in [
        ("lezey.json", "the campaign file (re-importable) of Lezey"),
        ("lezey.pdf", "the after-action report of Lezey"),
    ] {
        let path = dir.path().join(file);
        let out = qm_in(
            dir.path(),
            &[
                "campaign",
                "export",
                "Lezey",
                "--out",
                path.to_str().unwrap(),
            ],
        );
        let said = text(&out.stdout);
        assert!(
            said.starts_with(&format!("wrote {what} (3 battles, ")),
            "{said}"
        );
        assert!(
            said.trim_end().ends_with(&path.display().to_string()),
            "{said}"
        );
    }
    let list: Value =
        serde_json::from_slice(&qm_in(dir.path(), &["campaign", "list", "--json"]).stdout).unwrap();
    let show: Value =
        serde_json::from_slice(&qm_in(dir.path(), &["campaign", "show", "Lezey", "--json"]).stdout)
            .unwrap();
    let row = &list[0];
    assert_eq!(
        row["campaign_id"], show["campaign_id"],
        "one key, one meaning"
    );
    assert_eq!(
        show["campaign_id"], show["id"],
        "show's id is the shared id"
    );
    assert_eq!(row["row"], row["id"], "list keeps its row number under id");
    assert!(row["campaign_id"].as_str().is_some_and(|id| id.len() == 36));
}
