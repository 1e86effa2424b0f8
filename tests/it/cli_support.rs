//! Running the real binary against a data folder, for the command-line tests.

use std::process::{Command, Output};

/// `quartermaster --data-dir DIR ARGS…`, waited for.
pub fn qm_in(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quartermaster"))
        .arg("--data-dir")
        .arg(dir)
        .args(args)
        .output()
        .expect("the binary runs")
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
