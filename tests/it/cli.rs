//! The command line end to end, through the real binary.

use std::path::PathBuf;
use std::process::{Command, Output};

fn qm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quartermaster"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

fn temp_file(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn rulesets_lists_all_five() {
    let out = qm(&["rulesets", "--json"]);
    assert!(out.status.success());
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "armour-battles",
            "belloludi",
            "battle-of-tanks",
            "bolt-action",
            "belle-epoque"
        ]
    );
}

#[test]
fn units_json_has_name_ruleset_and_stats() {
    let out = qm(&["units", "--ruleset", "battle-of-tanks", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let cards: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let tiger = cards
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "Tiger I")
        .unwrap();
    assert_eq!(tiger["ruleset"], "battle-of-tanks");
    assert_eq!(tiger["hit_points"], 1400);
    assert_eq!(tiger["stats"]["Firepower"], "160");
    let text = stdout(&qm(&["units", "--ruleset", "armour-battles"]));
    assert!(text.contains("Sturmgeschütz III"), "{text}");
    assert!(text.contains("Reaction 7D/6D"), "{text}");
}

#[test]
fn an_unknown_ruleset_is_a_one_line_error_with_exit_2() {
    let out = qm(&["units", "--ruleset", "warhammer"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: unknown ruleset 'warhammer'"),
        "{err}"
    );
}

#[test]
fn validate_exit_codes_legal_illegal_unreadable() {
    let legal = qm(&["force", "validate", &fixture("belloludi_legal.json")]);
    assert_eq!(
        legal.status.code(),
        Some(0),
        "{}{}",
        stdout(&legal),
        stderr(&legal)
    );
    assert!(stdout(&legal).starts_with("Kampfgruppe Peiper: legal — 51 / 60 points"));

    let illegal = qm(&[
        "force",
        "validate",
        &fixture("battle_of_tanks_over.json"),
        "--json",
    ]);
    assert_eq!(illegal.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&illegal.stdout).unwrap();
    assert_eq!(v["legal"], false);
    assert_eq!(v["totals"]["tier_points"], 21);
    assert_eq!(v["budget"]["limit"], 20);
    assert_eq!(v["violations"][0]["rule"], "over_budget");

    let dir = tempfile::tempdir().unwrap();
    let broken = temp_file(
        &dir,
        "broken.json",
        r#"{"format":"quartermaster-force","version":1,"#,
    );
    let out = qm(&["force", "validate", &broken]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1);
    assert!(
        err.contains("broken.json") && err.contains("EOF while parsing"),
        "{err}"
    );

    let missing = qm(&["force", "validate", "/no/such/file.json"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("cannot read /no/such/file.json"));
}

#[test]
fn presets_write_legal_force_files() {
    let list = stdout(&qm(&["force", "preset", "--list"]));
    for side in ["us", "german"] {
        for battle in 1..=3 {
            assert!(
                list.contains(&format!("lorraine-{battle}-{side}")),
                "{list}"
            );
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b1.json");
    let out = qm(&[
        "force",
        "preset",
        "lorraine-1-german",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let check = qm(&["force", "validate", path.to_str().unwrap(), "--json"]);
    assert_eq!(check.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(v["totals"]["units"], 7);
    assert_eq!(v["budget"]["id"], "lorraine-1-german");

    let unknown = qm(&[
        "force",
        "preset",
        "lorraine-4-us",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert_eq!(unknown.status.code(), Some(2));
}

#[test]
fn an_over_strength_battle_group_names_the_card_and_the_fix() {
    let out = qm(&[
        "force",
        "validate",
        &fixture("lorraine_1_german_three_panthers.json"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains("3 Panther Ausf G: Lorraine Battle 1 German allows 2 — remove 1"),
        "{text}"
    );
}

#[test]
fn an_unknown_card_suggests_the_nearest_name() {
    let dir = tempfile::tempdir().unwrap();
    let file = temp_file(
        &dir,
        "typo.json",
        r#"{"format":"quartermaster-force","version":1,"ruleset":"armour-battles","name":"Typo",
            "budget":{"battle_group":"lorraine-1-german"},"units":[{"card":"Panter","count":1}]}"#,
    );
    let out = qm(&["force", "validate", &file, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["violations"][0]["rule"], "unknown_card");
    assert!(
        v["violations"][0]["message"]
            .as_str()
            .unwrap()
            .contains("did you mean Panther Ausf G"),
        "{v}"
    );
}

#[test]
fn two_force_files_run_together_are_refused_with_exit_2_and_where_the_second_starts() {
    let dir = tempfile::tempdir().unwrap();
    let one = std::fs::read_to_string(fixture("belloludi_legal.json")).unwrap();
    let both = temp_file(&dir, "both.json", &format!("{one}{one}"));
    let out = qm(&["force", "validate", &both]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        // The second document starts at the first column of the line after the first one.
        stderr(&out).contains(&format!(
            "more data after the end of the JSON document (one file holds one document) (line {}, column 1)",
            one.lines().count() + 1
        )),
        "{}",
        stderr(&out)
    );
    let data = dir.path().join("data");
    let save = Command::new(env!("CARGO_BIN_EXE_quartermaster"))
        .args(["force", "save", &both, "--data-dir"])
        .arg(&data)
        .output()
        .unwrap();
    assert_eq!(save.status.code(), Some(2));
    let with_bom = temp_file(&dir, "bom.json", &format!("\u{feff}{one}"));
    assert_eq!(qm(&["force", "validate", &with_bom]).status.code(), Some(0));
}

#[test]
fn control_characters_echoed_in_an_error_are_shown_escaped_and_long_values_cut() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().display().to_string();
    let name = "Kampf\u{1b}]0;pwned\u{7}\u{1b}[2J\r";
    let out = qm(&["force", "show", name, "--data-dir", &data]);
    assert_eq!(out.status.code(), Some(2));
    let text = stderr(&out);
    assert!(!text.bytes().any(|b| b < 0x20 && b != b'\n'), "{text:?}");
    assert!(text.contains(r"Kampf\x1b]0;pwned\x07\x1b[2J\r"), "{text}");

    let long = "x".repeat(100_000);
    let out = qm(&["force", "show", &long, "--data-dir", &data]);
    let text = stderr(&out);
    assert_eq!(text.lines().count(), 1);
    assert!(text.chars().count() < 1_000, "{} characters", text.len());
    assert!(text.contains("characters cut)"), "{text}");
}

#[test]
fn a_reader_closing_the_pipe_early_ends_the_listing_quietly_with_exit_0() {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_quartermaster"))
        .args(["units", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Like `| head` finishing first: the pipe is closed before the listing is written.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}

/// Issue 25: a roster prints a code of its force's content and rules revision; `force
/// verify FILE CODE` says whether a force file is the list that was printed.
#[test]
fn force_verify_tells_the_printed_list_from_another() {
    use quartermaster::rules::roster_code::roster_code;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("l3g.json").display().to_string();
    assert!(
        qm(&["force", "preset", "lorraine-3-german", "--out", &file])
            .status
            .success()
    );
    let force =
        quartermaster::rules::force_file::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let code = roster_code(&force).to_string();
    // The roster prints it.
    let roster = quartermaster::export::layout_roster(
        &force,
        "a4",
        "2025-03-14".parse().unwrap(),
        &mut quartermaster::export::no_progress,
    )
    .unwrap();
    assert!(roster.plain_text().contains(&code));
    let ok = qm(&["force", "verify", &file, &code]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    assert!(
        stdout(&ok).contains("matches roster code"),
        "{}",
        stdout(&ok)
    );
    // Case, spaces and dashes do not matter.
    let sloppy = code.to_lowercase().replace('-', " ");
    assert_eq!(
        qm(&["force", "verify", &file, &sloppy]).status.code(),
        Some(0)
    );
    // One Panther more is another list: exit 1, naming the file's own code.
    let mut more = force.clone();
    more.units[0].count += 1;
    let other = temp_file(
        &dir,
        "more.json",
        &quartermaster::rules::force_file::to_json(&more),
    );
    let differs = qm(&["force", "verify", &other, &code]);
    assert_eq!(differs.status.code(), Some(1));
    assert!(
        stdout(&differs).contains(&roster_code(&more).to_string()),
        "{}",
        stdout(&differs)
    );
    let bad = qm(&["force", "verify", &file, "not-a-code"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("is not a roster code"),
        "{}",
        stderr(&bad)
    );
}

/// Issue 25: the finishing kit on the command line.
#[test]
fn export_calibration_fold_low_ink_and_back_offsets() {
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name).display().to_string();
    let cal = qm(&[
        "export",
        "calibration",
        "--page",
        "letter",
        "--out",
        &out("cal.pdf"),
    ]);
    assert_eq!(cal.status.code(), Some(0), "{}", stderr(&cal));
    assert!(std::fs::read(out("cal.pdf")).unwrap().starts_with(b"%PDF-"));
    let cards = qm(&[
        "export",
        "cards",
        "--force",
        "lorraine-1-us",
        "--layout",
        "fold",
        "--ink",
        "low",
        "--out",
        &out("fold.pdf"),
    ]);
    assert_eq!(cards.status.code(), Some(0), "{}", stderr(&cards));
    let shifted = qm(&[
        "export",
        "cards",
        "--force",
        "lorraine-1-us",
        "--backs",
        "--back-offset",
        "-1.5,2",
        "--out",
        &out("offset.pdf"),
    ]);
    assert_eq!(shifted.status.code(), Some(0), "{}", stderr(&shifted));
    for bad in ["12,0", "1.5", "a,b"] {
        let refused = qm(&[
            "export",
            "cards",
            "--force",
            "lorraine-1-us",
            "--back-offset",
            bad,
            "--out",
            &out("bad.pdf"),
        ]);
        assert_eq!(refused.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&refused).contains("back-offset"),
            "{}",
            stderr(&refused)
        );
    }
}
