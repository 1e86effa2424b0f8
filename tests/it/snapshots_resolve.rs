//! Pins the output of `odds` and `roll` for every ruleset and mechanic, text and JSON.
//!
//! The cases are command lines in `tests/snapshots/resolve.cases`; the outputs live in
//! `tests/snapshots/resolve.expected`. Any change fails with a per-case line diff, so output
//! only changes on purpose: regenerate with `UPDATE_SNAPSHOTS=1 cargo test --test it
//! snapshots_resolve` and name the change in the commit message.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Parser;
use quartermaster::cli::{self, Cli};

fn snapshot_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

fn cases() -> Vec<String> {
    let text = std::fs::read_to_string(snapshot_dir().join("resolve.cases")).unwrap();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// Runs one command line in-process; returns the block recorded for it.
fn run_case(line: &str, json: bool) -> String {
    let mut args = vec!["quartermaster".to_string()];
    args.extend(crate::cli_support::shell_words(line));
    if json {
        args.push("--json".into());
    }
    let mut block = format!("=== {line}{}\n", if json { " --json" } else { "" });
    let (code, out, err) = match Cli::try_parse_from(&args) {
        Ok(parsed) => {
            let command = parsed.command.expect("every case names a command");
            let (mut out, mut err) = (Vec::new(), Vec::new());
            // An empty data folder: the cases name book cards only, whatever library the
            // machine running the tests keeps.
            let data = tempfile::tempdir().unwrap();
            let code = cli::run(command, Some(data.path()), &mut out, &mut err);
            (
                code,
                String::from_utf8(out).unwrap(),
                String::from_utf8(err).unwrap(),
            )
        }
        Err(e) => (
            2,
            String::new(),
            e.render()
                .to_string()
                .lines()
                .next()
                .unwrap_or("")
                .to_string()
                + "\n",
        ),
    };
    writeln!(block, "exit {code}").unwrap();
    block.push_str(&out);
    if !err.is_empty() {
        block.push_str("--- stderr\n");
        block.push_str(&err);
    }
    block
}

/// Splits a snapshot file back into its blocks, keyed by their `===` header line.
fn blocks(text: &str) -> Vec<(String, String)> {
    let mut blocks: Vec<(String, String)> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("=== ") {
            blocks.push((line.trim_end().to_string(), String::new()));
        }
        if let Some((_, body)) = blocks.last_mut() {
            body.push_str(line);
        }
    }
    blocks
}

/// A readable line diff of two small texts (longest common subsequence).
fn diff(expected: &str, actual: &str) -> String {
    let a: Vec<&str> = expected.lines().collect();
    let b: Vec<&str> = actual.lines().collect();
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut text) = (0, 0, String::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            writeln!(text, "  + {}", b[j]).unwrap();
            j += 1;
        } else {
            writeln!(text, "  - {}", a[i]).unwrap();
            i += 1;
        }
    }
    text
}

#[test]
fn odds_and_roll_output_matches_the_pinned_snapshots() {
    let cases = cases();
    assert!(
        cases.len() >= 60,
        "at least 60 cases, found {}",
        cases.len()
    );
    let actual: String = cases
        .iter()
        .flat_map(|line| [run_case(line, false), run_case(line, true)])
        .collect();
    let path = snapshot_dir().join("resolve.expected");
    if std::env::var("UPDATE_SNAPSHOTS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected == actual {
        return;
    }
    let old = blocks(&expected);
    let mut report = String::new();
    for (header, body) in blocks(&actual) {
        match old.iter().find(|(h, _)| *h == header) {
            Some((_, before)) if *before == body => {}
            Some((_, before)) => {
                writeln!(report, "{header}\n{}", diff(before, &body)).unwrap();
            }
            None => writeln!(report, "{header}\n  (new case)").unwrap(),
        }
    }
    for (header, _) in &old {
        if !actual.contains(header.as_str()) {
            writeln!(report, "{header}\n  (case removed)").unwrap();
        }
    }
    panic!(
        "odds/roll output changed (UPDATE_SNAPSHOTS=1 to accept, then name the change in the \
         commit message):\n{report}"
    );
}

#[test]
fn case_lines_split_like_a_shell() {
    assert_eq!(
        crate::cli_support::shell_words(r#"odds x --target "M4 75mm" --seed 3"#),
        ["odds", "x", "--target", "M4 75mm", "--seed", "3"]
    );
}

/// Where `value` breaks the one JSON shape (README "JSON output"), as readable paths.
fn shape_problems(value: &serde_json::Value, path: &str, parent_key: &str, out: &mut Vec<String>) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            if map.get("dice").is_some_and(Value::is_array) && map.contains_key("sides") {
                for key in ["seed", "index"] {
                    if !map.contains_key(key) {
                        out.push(format!("{path}: dice record without {key}"));
                    }
                }
            }
            if map.contains_key("outcomes") && !map.contains_key("total") {
                out.push(format!("{path}: outcomes without total"));
            }
            for (key, child) in map {
                shape_problems(child, &format!("{path}.{key}"), key, out);
            }
        }
        Value::Array(items) => {
            let weighted = |v: &Value| v.get("p").is_some() || v.get("probability").is_some();
            if parent_key != "outcomes" && !items.is_empty() && items.iter().all(weighted) {
                out.push(format!(
                    "{path}: a distribution not written as {{total, outcomes}}"
                ));
            }
            for (i, child) in items.iter().enumerate() {
                shape_problems(child, &format!("{path}[{i}]"), "", out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_mechanic_answers_in_the_one_json_shape() {
    let mut problems = Vec::new();
    let mut mechanics = std::collections::BTreeSet::new();
    for line in cases() {
        let block = run_case(&line, true);
        let Some(body) = block.split_once("\nexit 0\n").map(|(_, body)| body) else {
            continue;
        };
        let value: serde_json::Value = serde_json::from_str(body).unwrap();
        for key in ["ruleset", "mechanic", "title"] {
            if !value[key].is_string() {
                problems.push(format!("{line}: no {key}"));
            }
        }
        for key in ["values", "dice", "result", "notes"] {
            if !value[key].is_array() {
                problems.push(format!("{line}: no {key} list"));
            }
        }
        if !value["distributions"].is_object() {
            problems.push(format!("{line}: no distributions by key"));
        }
        for v in value["values"].as_array().into_iter().flatten() {
            let key = v["key"].as_str().unwrap_or_default();
            if key.is_empty() || !v["label"].is_string() || value[key] != v["value"] {
                problems.push(format!("{line}: value {v} not also under its key"));
            }
        }
        for record in value["dice"].as_array().into_iter().flatten() {
            if !record["for"].is_string() {
                problems.push(format!("{line}: a dice record without what it was for"));
            }
        }
        match value["house_defaults"].as_array() {
            Some(list) => {
                for h in list {
                    if !(h["value"].is_string() && h["ruling"].is_string()) {
                        problems.push(format!("{line}: house default without value and ruling"));
                    }
                }
            }
            None => problems.push(format!("{line}: no house_defaults list")),
        }
        let mut found = Vec::new();
        shape_problems(&value, "", "", &mut found);
        problems.extend(found.into_iter().map(|p| format!("{line}: {p}")));
        mechanics.insert(format!("{} {}", value["ruleset"], value["mechanic"]));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Every mechanic of every ruleset answered at least once.
    assert!(mechanics.len() >= 17, "{mechanics:?}");
}
