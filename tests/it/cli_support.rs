//! Running the real binary against a data folder, for the command-line tests.

use std::process::{Child, Command, Output, Stdio};

/// `quartermaster --data-dir DIR ARGS…`, waited for.
pub fn qm_in(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quartermaster"))
        .arg("--data-dir")
        .arg(dir)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// `quartermaster db torture ARGS… --log LOG --data-dir DIR`, left running to be killed: its
/// standard error kept for when it stops on its own.
pub fn torture(args: &[&str], log: &std::path::Path, dir: &std::path::Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_quartermaster"))
        .args(["db", "torture"])
        .args(args)
        .arg("--log")
        .arg(log)
        .arg("--data-dir")
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

/// [`qm_in`] that must succeed: its standard output.
pub fn ok_in(dir: &std::path::Path, args: &[&str]) -> String {
    let out = qm_in(dir, args);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// [`qm_in`] that must succeed: its standard output.
pub fn qm_ok(dir: &std::path::Path, args: &[&str]) -> String {
    let out = qm_in(dir, args);
    assert!(
        out.status.success(),
        "{args:?}: {}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// `campaign record Lorraine --battle 1 note TEXT`, which must succeed: what it printed.
pub fn note_in(dir: &std::path::Path, note: &str) -> String {
    qm_ok(
        dir,
        &[
            "campaign", "record", "Lorraine", "--battle", "1", "note", note,
        ],
    )
}

/// A command line as a shell splits it: words, double quotes kept together, a `#` comment
/// dropped.
pub fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut started = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                started = true;
            }
            '#' if !quoted && !started => break,
            c if c.is_whitespace() && !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}
