//! Crash reports stay on the machine: a forced panic writes one into the data folder's
//! `crash-reports/` (version, system, the panic and backtrace, the last command — none of the
//! user's data) and prints where; the next window start says so and offers "Copy report" and
//! "Open folder", and stops saying so once the user has seen it.

use crate::ui_support::click;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use quartermaster::store::Store;
use quartermaster::ui::{App, Launch, Model, Prefs};

use crate::cli_support::qm_in as qm;

/// The window's app over the library in `dir`, as the next start would open it.
fn next_start(dir: &std::path::Path) -> Harness<'static, App> {
    let store = Store::open(dir).expect("the library opens");
    let mut app = App::new(Model::new(store), Prefs::default(), &Launch::default());
    app.native_dialogs = false;
    Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut App| app.show(ui), app)
}

fn reports(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir.join("crash-reports"))
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "txt"))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_forced_panic_writes_a_report_without_user_data_and_the_next_start_offers_it() {
    let dir = tempfile::tempdir().unwrap();
    let secret = "Kampfgruppe Geheim";
    let force = dir.path().join("force.json");
    std::fs::write(
        &force,
        format!(
            r#"{{"format":"quartermaster-force","version":1,"ruleset":"belloludi","name":"{secret}","budget":{{"points":60}},"units":[{{"card":"Medium Tank","count":2}}]}}"#
        ),
    )
    .unwrap();
    assert!(
        qm(dir.path(), &["force", "save", force.to_str().unwrap()])
            .status
            .success()
    );

    let crashed = qm(dir.path(), &["force", "show", secret, "--crash-test"]);
    assert_eq!(
        crashed.status.code(),
        Some(101),
        "a panic exits as Rust's do"
    );
    let written = reports(dir.path());
    assert_eq!(written.len(), 1, "one report: {written:?}");
    let stderr = String::from_utf8_lossy(&crashed.stderr);
    assert!(
        stderr.contains(&written[0].display().to_string()),
        "the command line prints the report's path: {stderr}"
    );
    let text = std::fs::read_to_string(&written[0]).unwrap();
    for part in [
        env!("CARGO_PKG_VERSION"),
        std::env::consts::OS,
        "a deliberate panic (--crash-test)",
        "Backtrace",
        "command: force show",
    ] {
        assert!(text.contains(part), "{part} in the report:\n{text}");
    }
    assert!(
        !text.contains(secret) && !text.contains("Medium Tank"),
        "no force name or card in the report:\n{text}"
    );

    let mut h = next_start(dir.path());
    h.run();
    assert!(
        h.query_by_label_contains("stopped unexpectedly last time")
            .is_some(),
        "the next start says so"
    );
    assert!(h.query_by_label("Copy report").is_some());
    click(&mut h, "Open folder");
    let folder = dir.path().join("crash-reports").display().to_string();
    assert!(
        h.state()
            .model
            .notices
            .iter()
            .any(|n| n.text.contains(&folder)),
        "with no file manager here, the folder is named"
    );
    click(&mut h, "Dismiss");
    assert!(
        h.query_by_label_contains("stopped unexpectedly").is_none(),
        "dismissed"
    );
    drop(h);

    let mut again = next_start(dir.path());
    again.run();
    assert!(
        again
            .query_by_label_contains("stopped unexpectedly")
            .is_none(),
        "a report the user has seen is not offered again"
    );
}
