//! The README's Bolt Action walk-through, run as a newcomer would type it: every `$
//! quartermaster …` line of its block, in order, in a fresh library, each must succeed, and the
//! output the README shows (ids and app-rolled dice aside) must be what the program prints. A
//! README edit that breaks the walk-through fails here, not in a newcomer's terminal.

use crate::cli_support::shell_words;
use std::path::Path;
use std::process::Command;

/// The code block after the paragraph that opens the walk-through.
fn walkthrough(readme: &str) -> Vec<&str> {
    let start = readme
        .find("A short Bolt Action campaign")
        .expect("the README keeps its Bolt Action walk-through");
    let block = &readme[start..];
    let open = block.find("```\n").expect("its code block") + 4;
    let close = block[open..].find("```").expect("the block's end") + open;
    block[open..close].lines().collect()
}

#[test]
fn every_command_of_the_readme_walkthrough_runs_and_prints_what_it_shows() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(repo.join("README.md")).unwrap();
    let lines = walkthrough(&readme);
    let work = tempfile::tempdir().unwrap();
    let data = work.path().join("data");
    let mut ran = 0;
    let mut last_output = String::new();
    for line in lines {
        if let Some(command) = line.strip_prefix("$ quartermaster ") {
            let mut args = shell_words(command);
            // The fixtures are named from the repository's folder, as the README says to run it.
            for arg in &mut args {
                if arg.starts_with("tests/fixtures/") {
                    *arg = repo.join(&*arg).to_string_lossy().into_owned();
                }
            }
            let output = Command::new(env!("CARGO_BIN_EXE_quartermaster"))
                .arg("--data-dir")
                .arg(&data)
                .args(&args)
                .current_dir(work.path())
                .output()
                .unwrap();
            last_output = String::from_utf8_lossy(&output.stdout).into_owned();
            assert!(
                output.status.success(),
                "README: `quartermaster {command}` failed: {}{last_output}",
                String::from_utf8_lossy(&output.stderr)
            );
            ran += 1;
        } else if line.starts_with('$') || line.trim().is_empty() || line.contains(" id ") {
            // "$ …" (the players go on), or a line naming an event's id (new every run).
        } else {
            // What the README shows the last command printing: each piece between "…" elisions.
            for piece in line.split('…').map(str::trim).filter(|p| !p.is_empty()) {
                assert!(
                    last_output.contains(piece),
                    "README shows '{piece}', the program printed:\n{last_output}"
                );
            }
        }
    }
    assert!(ran >= 12, "the walk-through's commands ran: {ran}");
    assert!(
        work.path().join("bocage.json").is_file(),
        "the export was written"
    );
}

#[test]
fn a_readme_line_splits_as_a_shell_splits_it() {
    assert_eq!(
        shell_words(r#"campaign new bolt-action --force "Baker Company" --first Ann   # a note"#),
        [
            "campaign",
            "new",
            "bolt-action",
            "--force",
            "Baker Company",
            "--first",
            "Ann"
        ]
    );
    assert_eq!(shell_words(r#"note "a # inside""#), ["note", "a # inside"]);
}
