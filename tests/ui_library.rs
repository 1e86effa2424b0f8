//! The library window, clicked through by label with egui_kittest (no display needed).

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use quartermaster::ui::{Launch, QuartermasterApp};

fn harness() -> Harness<'static, QuartermasterApp> {
    Harness::builder()
        .with_size(egui::vec2(1200.0, 800.0))
        .build_ui_state(
            |ui, app: &mut QuartermasterApp| app.show(ui),
            QuartermasterApp::new(&Launch::default()),
        )
}

#[test]
fn choosing_a_ruleset_and_a_card_shows_its_statistics() {
    let mut h = harness();
    h.run();
    h.get_by_label("Armour Battles (11)").click();
    h.run();
    assert!(h.query_by_label("Tiger I").is_some());
    assert!(
        h.query_by_label("Light Tank").is_none(),
        "BelloLudi cards are filtered out"
    );
    h.get_by_label("Panther Ausf G").click();
    h.run();
    assert_eq!(
        h.state().library.selected,
        Some((
            quartermaster::rules::RulesetId::ArmourBattles,
            "Panther Ausf G".to_string()
        ))
    );
    assert!(
        h.query_by_label("7D/6D").is_some(),
        "the reaction with its sloped variant is shown"
    );
    assert!(h.query_by_label("9/18/36″").is_some());
}

#[test]
fn every_ruleset_is_listed() {
    let mut h = harness();
    h.run();
    for label in [
        "Armour Battles (11)",
        "BelloLudi Tanks! (5)",
        "Battle of Tanks (8)",
        "Bolt Action (19)",
        "Belle Epoque (7)",
    ] {
        assert!(h.query_by_label(label).is_some(), "{label}");
    }
}
