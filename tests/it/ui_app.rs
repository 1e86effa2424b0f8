//! The desktop app clicked through by label with egui_kittest: no display needed, a real
//! in-memory SQLite store behind it.

use crate::ui_support::{choose, click, open_force, type_into, window};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use quartermaster::rules::RulesetId;
use quartermaster::ui::{App, Command, View};

/// Makes a force from the book briefing `briefing` and opens Print with Ctrl+P.
fn open_preset_in_print(h: &mut Harness<'static, App>, briefing: &str) {
    click(h, "Forces");
    click(h, "New force");
    click(h, briefing);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::P);
    h.run();
}

fn new_force(h: &mut Harness<'static, App>, ruleset: &str, name: &str) {
    click(h, "Forces");
    click(h, "New force");
    choose(h, "Ruleset", ruleset);
    type_into(h, "Name", name);
    click(h, "Create");
}

#[test]
fn a_belloludi_force_with_a_custom_8_12_2cd_armour_5_vehicle_costs_17() {
    let mut h = window();
    // Make the custom vehicle in the library: the editor shows the live component cost.
    click(&mut h, "BelloLudi Tanks! (5)");
    click(&mut h, "New custom card…");
    for (field, choice) in [
        ("Speed", "8″/12″ (1 pt)"),
        ("Shooting", "2CD (8 pts)"),
        ("Armour", "5 (8 pts)"),
    ] {
        click(&mut h, field);
        click(&mut h, choice);
    }
    assert!(
        h.query_by_label("17 points").is_some(),
        "8″/12″ + 2CD + armour 5 is 17 points"
    );
    click(&mut h, "Save card");
    assert_eq!(h.state().model.custom_cards.len(), 1);

    new_force(&mut h, "BelloLudi Tanks!", "Shermans");
    assert_eq!(h.state().prefs.view, View::Forces);
    click(&mut h, "+ New vehicle · custom · 17 points");
    let open = open_force(&h);
    assert_eq!(open.force.name, "Shermans");
    assert_eq!(open.validation.totals.points, Some(17));
    assert!(h.query_by_label_contains("17 / 100 points").is_some());
}

#[test]
fn going_over_a_tier_budget_shows_the_violation() {
    let mut h = window();
    new_force(&mut h, "Battle of Tanks", "Heavies");
    for _ in 0..3 {
        click(&mut h, "+ Tiger I · 7 tier points");
    }
    let open = h.state().model.open.as_ref().unwrap();
    assert_eq!(open.force.ruleset, RulesetId::BattleOfTanks);
    assert_eq!(open.validation.totals.tier_points, Some(21));
    assert!(
        h.query_by_label_contains("Force costs 21 tier points: the limit is 20")
            .is_some(),
        "the violation is shown"
    );
    // One click on the suggested fix brings it back under the limit.
    click(&mut h, "Fix");
    assert!(h.state().model.open.as_ref().unwrap().validation.legal);
}

#[test]
fn loading_lorraine_battle_1_german_shows_its_7_units() {
    let mut h = window();
    click(&mut h, "Forces");
    click(&mut h, "New force");
    click(&mut h, "Lorraine Battle 1 German");
    let open = h.state().model.open.as_ref().unwrap();
    assert_eq!(open.force.unit_count(), 7);
    assert!(open.validation.legal);
    assert!(h.query_by_label_contains("7 / 7 units").is_some());
    for unit in ["Panther Ausf G", "Panzer IV H", "Sturmgeschütz III"] {
        assert!(h.query_by_label(unit).is_some(), "{unit} listed");
    }
}

#[test]
fn deleting_a_force_and_undoing_brings_it_back() {
    let mut h = window();
    new_force(&mut h, "Battle of Tanks", "Doomed");
    h.get_by_label_contains("+ T-80 · ").click();
    h.run();
    assert_eq!(h.state().model.forces.len(), 1);
    click(&mut h, "Delete");
    assert!(h.state().model.forces.is_empty());
    assert!(h.state().model.open.is_none());
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    let forces = &h.state().model.forces;
    assert_eq!(forces.len(), 1);
    assert_eq!(forces[0].name, "Doomed");
    assert_eq!(forces[0].units, 1, "the unit came back too");
    // Redo deletes it again.
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    h.run();
    assert!(h.state().model.forces.is_empty());
}

#[test]
fn a_failed_import_shows_an_error_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("broken.json");
    std::fs::write(
        &bad,
        r#"{"format":"quartermaster-force","version":1,"ruleset":"belloludi""#,
    )
    .unwrap();
    let mut h = window();
    h.state_mut()
        .apply(quartermaster::ui::Action::Model(Command::NewForce {
            ruleset: RulesetId::Belloludi,
            name: "Keep me".into(),
            budget: quartermaster::rules::Budget::Points(50),
        }));
    h.run();
    let before: Vec<String> = h
        .state()
        .model
        .forces
        .iter()
        .map(|f| f.name.clone())
        .collect();
    // No native dialog in tests: the app asks for a typed path instead.
    click(&mut h, "Import…");
    assert!(
        h.query_by_label_contains("No file dialog").is_some(),
        "the typed-path fallback is offered"
    );
    type_into(&mut h, "Path", bad.to_str().unwrap());
    click(&mut h, "Import");
    let after: Vec<String> = h
        .state()
        .model
        .forces
        .iter()
        .map(|f| f.name.clone())
        .collect();
    assert_eq!(before, after, "the force list is unchanged");
    let notice = h.state().model.notices.last().expect("an error notice");
    assert!(notice.is_error);
    assert!(notice.text.contains("broken.json"), "{}", notice.text);
    assert!(
        h.query_by_label_contains("cannot import").is_some(),
        "the error is on screen"
    );
}

#[test]
fn ctrl_p_opens_print_with_the_open_forces_cards_previewed() {
    let mut h = window();
    open_preset_in_print(&mut h, "Lorraine Battle 2 German");
    assert_eq!(h.state().prefs.view, View::Print);
    // 11 units at 9 poker cards a page: two pages, previewed from the same layout as the PDF.
    assert!(h.query_by_label("Page 1 of 2").is_some());
    click(&mut h, "Next page ▶");
    assert!(h.query_by_label("Page 2 of 2").is_some());
    click(&mut h, "Roster");
    assert!(h.query_by_label("Page 1 of 1").is_some());
    // No native dialog in tests: Export PDF asks for a path, then writes a real PDF there.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("roster.pdf");
    click(&mut h, "Export PDF…");
    assert!(h.query_by_label("Path").is_some(), "a path is asked for");
    // Replace the suggested default path with the temp dir's.
    h.state_mut().path_prompt = Some(quartermaster::ui::PathPrompt::Pdf(
        out.display().to_string(),
    ));
    h.run();
    click(&mut h, "Save PDF");
    let bytes = std::fs::read(&out).expect("the PDF was written");
    assert!(bytes.starts_with(b"%PDF-"));
}

/// The scenario picker and the Stands column are the ruleset's own answers (its named
/// budgets and its line field), not a branch on the ruleset in the view.
#[test]
fn a_belle_epoque_force_picks_its_scenario_and_counts_its_stands() {
    use quartermaster::rules::{Card, ruleset};
    let mut h = window();
    new_force(&mut h, "Belle Epoque", "Impi");
    assert!(
        h.query_all_by_label("Encounter scenario")
            .chain(h.query_all_by_value("Encounter scenario"))
            .next()
            .is_some(),
        "the budget shows the scenario by name"
    );
    let Card::BelleEpoque(unit) = &ruleset(RulesetId::BelleEpoque).library()[0] else {
        panic!("a Belle Epoque card");
    };
    h.get_by_label_contains(&format!("+ {} · ", unit.name))
        .click();
    h.run();
    let open = h.state().model.open.as_ref().unwrap();
    assert_eq!(open.validation.totals.stands, Some(u64::from(unit.stands)));
    assert!(
        h.query_by_label("Stands").is_some(),
        "the line's own column"
    );
}

/// Issue 25: the Print view offers fold-over backs, one card per page, low ink and the
/// duplex calibration sheet, each previewed; a printer's back offset is kept in the
/// preferences under its name and applied to the backs.
#[test]
fn the_print_view_offers_the_finishing_kit_and_keeps_a_printers_back_offset() {
    use quartermaster::export::{BackOffset, Ink, Item, Segment, SheetLayout};
    use quartermaster::ui::Action;
    let mut h = window();
    open_preset_in_print(&mut h, "Lorraine Battle 1 German");
    // Seven cards, four fold-over pairs a sheet: two sheets, with dashed fold lines.
    click(&mut h, "Layout");
    click(&mut h, "Fold-over backs (no duplex)");
    assert_eq!(h.state().print.settings.layout, SheetLayout::Fold);
    assert!(h.query_by_label("Page 1 of 2").is_some());
    let app = h.state_mut();
    let layout = app.print.layout(&app.model).clone();
    let folds = layout.unwrap().pages[0]
        .items
        .iter()
        .filter(|i| matches!(i, Item::Line(Segment { stroke, .. }) if stroke.dash_pt.is_some()))
        .count();
    assert!(folds >= 4, "{folds} fold marks");
    // One card per page, each page the card's size.
    click(&mut h, "Layout");
    click(&mut h, "One card per page (print shop)");
    assert!(h.query_by_label("Page 1 of 7").is_some());
    h.get_by_label("Low ink: no filled bands or backgrounds")
        .click();
    h.run();
    assert_eq!(h.state().print.settings.ink, Ink::Low);
    // The calibration sheet, front and back, for a named printer.
    click(&mut h, "Calibration");
    assert!(h.query_by_label("Page 1 of 2").is_some());
    type_into(&mut h, "Printer", "office laser");
    assert_eq!(h.state().prefs.printer, "office laser");
    h.state_mut().apply(Action::SetBackOffset(BackOffset {
        x_mm: 2.5,
        y_mm: -1.0,
    }));
    h.run();
    let saved = h.state().prefs.back_offsets.get("office laser").copied();
    assert_eq!(
        saved,
        Some(BackOffset {
            x_mm: 2.5,
            y_mm: -1.0
        })
    );
    assert_eq!(h.state().print.settings.back_offset, saved.unwrap());
    assert!(
        h.query_by_label_contains("Back offset X (mm)").is_some(),
        "the offset is shown"
    );
    // Another printer starts from no offset; choosing the first again brings its back.
    h.state_mut().apply(Action::ChoosePrinter("inkjet".into()));
    assert_eq!(h.state().print.settings.back_offset, BackOffset::default());
    h.state_mut()
        .apply(Action::ChoosePrinter("office laser".into()));
    assert_eq!(h.state().print.settings.back_offset, saved.unwrap());
    // The preferences carry it to the next start.
    let prefs = h.state().prefs_to_save();
    let json = serde_json::to_string(&prefs).unwrap();
    let back: quartermaster::ui::Prefs = serde_json::from_str(&json).unwrap();
    assert_eq!(back.back_offsets.get("office laser").copied(), saved);
}
