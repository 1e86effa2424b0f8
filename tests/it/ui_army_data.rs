//! Army data in the window, clicked through with egui_kittest: Library › Import BattleScribe
//! data… reads the test data off the drawing thread and reports it; a unit from the data is
//! added to a force, its quality and options picked with their prices; a second revision
//! lists the force's changes and re-prices it only when Re-price is clicked.

use crate::ui_support::click;
use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use quartermaster::rules::{Budget, CardRef, RulesetId};
use quartermaster::ui::{Action, App, Command};

fn harness() -> Harness<'static, App> {
    harness_of(App::for_tests().expect("in-memory store opens"))
}

fn harness_of(app: App) -> Harness<'static, App> {
    Harness::builder()
        .with_size(egui::vec2(1280.0, 900.0))
        .build_ui_state(|ui, app: &mut App| app.show(ui), app)
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/battlescribe")
        .join(name)
}

/// Runs frames until the background import has been stored (the outcome does not depend on
/// how long the thread takes: the loop only waits for it).
fn until_imported(h: &mut Harness<'static, App>) {
    for _ in 0..3000 {
        h.run();
        if h.state().model.army_importing().is_none() {
            h.run();
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("the import never finished");
}

/// The window with Library › Import BattleScribe data… clicked: with no native dialog in
/// tests, a box for a typed path, the keyboard in it.
fn path_box() -> Harness<'static, App> {
    path_box_of(harness())
}

fn path_box_of(mut h: Harness<'static, App>) -> Harness<'static, App> {
    h.run();
    click(&mut h, "Import BattleScribe data…");
    h.get_by_label("Path").focus();
    h.run();
    h
}

/// The price of the open force's line `index`, by its data.
fn price(h: &Harness<'static, App>, index: usize) -> u64 {
    let open = h.state().model.open.as_ref().expect("a force is open");
    match &open.force.units[index].card {
        CardRef::Inline(card) => card.army().expect("a data unit").price(),
        CardRef::Library(_) => panic!("a data unit is written into the force"),
    }
}

#[test]
fn the_library_imports_a_data_folder_in_the_background_and_lists_its_units() {
    imports_a_data_folder_and_lists_its_units(harness());
}

/// A library on disk has a worker (`Store::worker`): the import thread stores what it read
/// itself, and the window shows the same.
#[test]
fn a_library_on_disk_stores_the_import_on_the_reading_thread() {
    let library = tempfile::tempdir().unwrap();
    let store = quartermaster::store::Store::open(library.path()).unwrap();
    assert!(store.worker().is_some());
    let app = App::new(
        quartermaster::ui::Model::start_loading_from(store, usize::MAX),
        quartermaster::ui::Prefs::default(),
        &quartermaster::ui::Launch::default(),
    );
    imports_a_data_folder_and_lists_its_units(harness_of(app));
    let again = quartermaster::store::Store::open(library.path()).unwrap();
    assert_eq!(
        again.army_cards().unwrap().len(),
        6,
        "stored in the library"
    );
}

fn imports_a_data_folder_and_lists_its_units(h: Harness<'static, App>) {
    let dir = tempfile::tempdir().unwrap();
    for name in ["test_system.gst", "blue_army.cat"] {
        std::fs::copy(fixture(name), dir.path().join(name)).unwrap();
    }
    let mut h = path_box_of(h);
    h.get_by_label("Path")
        .type_text(dir.path().to_str().unwrap());
    h.run();
    h.get_by_label("Import").click();
    until_imported(&mut h);
    assert!(h.query_by_label("Army data imported").is_some());
    assert!(
        h.query_by_label("Blue Army r1 — new; 6 units").is_some(),
        "each file says what it became"
    );
    assert!(
        h.query_by_label_contains("Not understood or left out (6)")
            .is_some()
    );
    click(&mut h, "Close");
    assert!(h.state().model.army_report.is_none());
    click(&mut h, "Bolt Action (25)");
    click(&mut h, "Line Squad · Blue Army r1");
    assert!(
        h.query_by_label_contains("from army data Blue Army r1 (read-only)")
            .is_some()
    );
    assert!(
        h.query_by_label_contains("Blue Army r1 · Regular · 50 pts")
            .is_some()
    );
}

/// A path box left empty once imported "" and said "nothing imported — : not a BattleScribe
/// file"; its Import waits for a path, and Enter in the empty box does nothing.
#[test]
fn an_empty_path_imports_nothing_and_says_nothing_went_wrong() {
    let mut h = path_box();
    click(&mut h, "Import");
    h.key_press(egui::Key::Enter);
    h.run();
    assert!(
        h.state().model.army_importing().is_none(),
        "nothing started"
    );
    assert!(h.query_by_label("Path").is_some(), "the box is still open");
    assert!(h.query_by_label_contains("nothing imported").is_none());
}

#[test]
fn a_data_unit_takes_its_quality_and_options_and_a_new_revision_waits_for_re_price() {
    let mut h = harness();
    h.run();
    h.state_mut()
        .apply(Action::Model(Command::ImportArmyData(vec![
            fixture("test_system.gst"),
            fixture("blue_army.cat"),
        ])));
    until_imported(&mut h);
    click(&mut h, "Close");
    h.state_mut().apply(Action::Model(Command::NewForce {
        ruleset: RulesetId::BoltAction,
        name: "Blue Platoon".into(),
        budget: Budget::Points(1000),
    }));
    h.run();
    h.get_by_label("+ Line Squad · Blue Army r1 · 50 points")
        .click();
    h.run();
    click(&mut h, "Options · 50 pts");
    click(&mut h, "Quality");
    click(&mut h, "Veteran (65 pts)");
    assert_eq!(price(&h, 0), 65);
    click(&mut h, "LMG (Squad weapons)");
    assert_eq!(price(&h, 0), 65 + 20);
    assert!(h.query_by_label("Options · 85 pts").is_some());
    click(&mut h, "Organisation");
    click(&mut h, "Reinforced Platoon");
    let open = h.state().model.open.as_ref().unwrap();
    assert!(matches!(&open.force.budget, Budget::ForceOrg(org) if org.points == 1000));
    assert!(
        open.validation
            .violations
            .iter()
            .any(|v| v.message.starts_with("Headquarters: 0 of at least 1")),
        "the platoon's slots are checked"
    );

    h.state_mut()
        .apply(Action::Model(Command::ImportArmyData(vec![fixture(
            "blue_army_r2.cat",
        )])));
    until_imported(&mut h);
    assert!(h.query_by_label_contains("LMG: 20 → 25 pts each").is_some());
    assert_eq!(
        price(&h, 0),
        85,
        "nothing is re-priced until the player asks"
    );
    click(&mut h, "Re-price");
    assert_eq!(price(&h, 0), 65 + 25);
    click(&mut h, "Close");
    // One undo brings the old prices back.
    h.state_mut().apply(Action::Model(Command::Undo));
    h.run();
    assert_eq!(price(&h, 0), 85);
}
