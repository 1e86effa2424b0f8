//! The window used at the table for an hour: dialogs that answer Escape and Enter, buttons
//! that stay under the cursor, notices that go away, File › Quit, and layouts that hold at
//! 1024×700 and at the minimum size. Clicked through with egui_kittest (no display needed).

use crate::ui_support::{choose, click, open_force, type_into};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use quartermaster::rules::RulesetId;
use quartermaster::ui::App;

/// The window at `width` × `height`, its first frame drawn.
fn harness_at(width: f32, height: f32) -> Harness<'static, App> {
    let app = App::for_tests().expect("in-memory store opens");
    let mut h = Harness::builder()
        .with_size(egui::vec2(width, height))
        .with_step_dt(0.5)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    h.run();
    h
}

fn open_new_force_dialog(h: &mut Harness<'static, App>) {
    click(h, "Forces");
    click(h, "New force");
    assert!(h.state().forces.new_force.is_some(), "the dialog is open");
}

/// A new, empty Battle of Tanks force, open in the editor.
fn new_battle_of_tanks_force(h: &mut Harness<'static, App>) {
    open_new_force_dialog(h);
    choose(h, "Ruleset", "Battle of Tanks");
    click(h, "Create");
}

#[test]
fn escape_closes_the_new_force_dialog_without_a_force() {
    let mut h = harness_at(1280.0, 860.0);
    open_new_force_dialog(&mut h);
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(h.state().forces.new_force.is_none());
    assert!(h.state().model.forces.is_empty());
}

#[test]
fn enter_in_the_name_field_creates_the_force_with_the_rulesets_budget() {
    let mut h = harness_at(1280.0, 860.0);
    open_new_force_dialog(&mut h);
    choose(&mut h, "Ruleset", "Bolt Action");
    type_into(&mut h, "Name", "Paras");
    h.key_press(egui::Key::Enter);
    h.run();
    let forces = &h.state().model.forces;
    assert_eq!(forces.len(), 1);
    assert_eq!(forces[0].name, "Paras");
    let open = open_force(&h);
    assert_eq!(open.force.ruleset, RulesetId::BoltAction);
    assert!(
        h.query_by_label_contains("/ 1000 points").is_some(),
        "Bolt Action starts at its default 1000 points"
    );
}

#[test]
fn the_add_buttons_stay_put_while_units_are_added() {
    let mut h = harness_at(1280.0, 860.0);
    new_battle_of_tanks_force(&mut h);
    let label = "+ Tiger I · 7 tier points";
    let before = h.get_by_label(label).rect();
    for _ in 0..3 {
        click(&mut h, label);
        assert_eq!(
            h.get_by_label(label).rect(),
            before,
            "the button did not move"
        );
    }
    let open = h.state().model.open.as_ref().expect("open force");
    assert_eq!(open.force.unit_count(), 3, "three clicks, three Tigers");
    assert!(
        h.query_by_label("3 × 7 = 21 tier points").is_some(),
        "the row shows what its three Tigers cost"
    );
}

#[test]
fn enter_in_the_add_search_adds_the_single_match() {
    let mut h = harness_at(1280.0, 860.0);
    new_battle_of_tanks_force(&mut h);
    let field = egui::accesskit::Role::TextInput;
    h.get_by_role_and_label(field, "Add units").focus();
    h.run();
    h.get_by_role_and_label(field, "Add units")
        .type_text("is-2");
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    let open = h.state().model.open.as_ref().expect("open force");
    assert_eq!(open.force.unit_count(), 1);
    assert_eq!(open.force.units[0].card.name(), "IS-2");
}

#[test]
fn file_quit_asks_the_window_to_close() {
    let mut h = harness_at(1280.0, 860.0);
    click(&mut h, "File");
    h.get_by_label("Quit  (Ctrl+Q)").click();
    h.step();
    assert!(h.state().quit_requested);
}

#[test]
fn a_notice_goes_after_a_few_seconds_and_stays_in_the_history() {
    let mut h = harness_at(1280.0, 860.0);
    h.state_mut().model.info("Saved “Paras”");
    // An area is measured on its first frame and drawn from the second.
    h.step();
    h.step();
    assert!(h.query_by_label("Saved “Paras”").is_some(), "shown at once");
    // Half a second a step: ten steps are five seconds.
    h.run_steps(10);
    assert!(h.state().model.notices.is_empty(), "gone after about 4 s");
    assert!(h.query_by_label("Saved “Paras”").is_none());
    click(&mut h, "Notices (1)");
    assert!(
        h.query_by_label_contains("Saved “Paras”").is_some(),
        "the history keeps it"
    );
}

/// At 1024×700 and at the minimum size the force editor keeps its add buttons and its
/// Group field usable: nothing shrinks to a sliver or leaves the window.
#[test]
fn the_force_editor_holds_at_1024_by_700_and_at_the_minimum_size() {
    for (width, height) in [(1024.0, 700.0), (720.0, 480.0)] {
        let mut h = harness_at(width, height);
        open_new_force_dialog(&mut h);
        click(&mut h, "Lorraine Battle 1 German");
        let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(width, height));
        let add = h.get_by_label_contains("+ Panther Ausf G").rect();
        assert!(window.contains_rect(add), "{width}: add button inside");
        assert!(add.width() >= 120.0, "{width}: add button readable");
        let group = h
            .state()
            .model
            .open
            .as_ref()
            .expect("open force")
            .force
            .units[0]
            .group
            .clone()
            .expect("briefing units carry their company");
        let field = h
            .get_all_by_value(&group)
            .next()
            .expect("the group field")
            .rect();
        assert!(
            field.width() >= 120.0,
            "{width}: the group field fits a name"
        );
    }
}

/// A battle group short of its briefing stays legal, and the editor says what is missing.
#[test]
fn a_battle_group_short_of_its_briefing_is_legal_with_a_warning() {
    let mut h = harness_at(1280.0, 860.0);
    open_new_force_dialog(&mut h);
    click(&mut h, "Lorraine Battle 3 German");
    let mut force = h
        .state()
        .model
        .open
        .as_ref()
        .expect("open force")
        .force
        .clone();
    let tiger = force
        .units
        .iter()
        .position(|u| u.card.name() == "Tiger I")
        .expect("the briefing has a Tiger I");
    force.units[tiger].count -= 1;
    force.units.retain(|u| u.count > 0);
    h.state_mut().apply(quartermaster::ui::Action::Model(
        quartermaster::ui::Command::Edit {
            force,
            label: "Lose the Tiger".into(),
        },
    ));
    h.run();
    assert!(
        h.state()
            .model
            .open
            .as_ref()
            .expect("open")
            .validation
            .legal
    );
    assert!(h.query_by_label_contains("✔ Legal").is_some());
    assert!(
        h.query_by_label_contains("⚠ Lorraine Battle 3 German: Tiger I missing — 13 of 14 units")
            .is_some()
    );
}
