//! Lists as text on the command line: `force show NAME --text` / `--markdown` print a list a
//! chat can carry, and `force import --text FILE|-` reads it back, naming each line it cannot
//! place and saving nothing then.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use crate::cli_support::{qm_in as qm, text};

fn qm_stdin(dir: &std::path::Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quartermaster"))
        .arg("--data-dir")
        .arg(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_saved_force_goes_out_as_text_and_comes_back() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lorraine.json");
    assert!(
        qm(
            dir.path(),
            &[
                "force",
                "preset",
                "lorraine-2-german",
                "--out",
                file.to_str().unwrap()
            ]
        )
        .status
        .success()
    );
    let saved = text(&qm(dir.path(), &["force", "save", file.to_str().unwrap()]).stdout);
    let name = saved.trim();

    let list = text(&qm(dir.path(), &["force", "show", name, "--text"]).stdout);
    assert!(
        list.starts_with(&format!(
            "{name}\nArmour Battles · battle group lorraine-2-german\n"
        )),
        "{list}"
    );
    let markdown = text(&qm(dir.path(), &["force", "show", name, "--markdown"]).stdout);
    assert!(markdown.starts_with(&format!("## {name}\n")), "{markdown}");

    // Posted, copied back by someone else under another name, read from standard input.
    let renamed = list.replacen(name, "Kampfgruppe from the forum", 1);
    let out = qm_stdin(dir.path(), &["force", "import", "--text", "-"], &renamed);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("Kampfgruppe from the forum\n"));
    let original: serde_json::Value =
        serde_json::from_slice(&qm(dir.path(), &["force", "show", name, "--json"]).stdout).unwrap();
    let back: serde_json::Value = serde_json::from_slice(
        &qm(
            dir.path(),
            &["force", "show", "Kampfgruppe from the forum", "--json"],
        )
        .stdout,
    )
    .unwrap();
    assert_eq!(
        back["units"], original["units"],
        "the same units, groups and counts"
    );
    assert_eq!(back["budget"], original["budget"]);

    // The markdown form reads back too, from a file.
    let md_file = dir.path().join("list.md");
    std::fs::write(&md_file, markdown.replacen(name, "From markdown", 1)).unwrap();
    let out = qm(
        dir.path(),
        &["force", "import", "--text", md_file.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn lines_it_cannot_place_are_named_and_nothing_is_saved() {
    let dir = tempfile::tempdir().unwrap();
    let list =
        "Raid\nBelloLudi Tanks! · 60 points\n\n2x Medum Tank\n1 × Heavy Tank\n0 Light Tank\n";
    let out = qm_stdin(dir.path(), &["force", "import", "--text", "-"], list);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("nothing imported — 2 lines could not be placed"),
        "{err}"
    );
    assert!(
        err.contains("line 4: no BelloLudi Tanks! card \"Medum Tank\" — did you mean Medium Tank?"),
        "{err}"
    );
    assert!(err.contains("line 6: a count of 0"), "{err}");
    let forces = text(&qm(dir.path(), &["force", "list"]).stdout);
    assert!(forces.starts_with("no forces saved yet"), "{forces}");
}
