//! The window's look, clicked through with egui_kittest: the theme chosen in View (and kept
//! across a restart), table mode from View and Ctrl+T, and the first-run start card's three
//! actions.

use crate::ui_support::{click, window};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use quartermaster::ui::theme::{self, Palette};
use quartermaster::ui::{App, Theme, View};

use super::ui_promises::Storage;

/// Opens the View menu, clicks `item` and closes the menu. A change of type scale repaints
/// for a few frames while egui settles the new sizes.
fn view_menu(h: &mut Harness<'static, App>, item: &str) {
    click(h, "View");
    h.get_by_label(item).click();
    h.run_steps(8);
    h.key_press(egui::Key::Escape);
    h.run_steps(8);
}

fn body_size(h: &Harness<'static, App>) -> f32 {
    h.ctx.global_style().text_styles[&egui::TextStyle::Body].size
}

#[test]
fn view_switches_light_and_dark_and_the_choice_outlives_a_restart() {
    let mut h = window();
    view_menu(&mut h, "Dark");
    assert_eq!(h.state().prefs.theme, Theme::Dark);
    assert_eq!(h.ctx.theme(), egui::Theme::Dark);
    // The panels are the theme's own, not egui's stock grey.
    assert_eq!(h.ctx.global_style().visuals.panel_fill, Palette::DARK.panel);
    assert_eq!(theme::tokens_of(&h.ctx).palette, Palette::DARK);

    view_menu(&mut h, "Light");
    assert_eq!(h.ctx.theme(), egui::Theme::Light);
    assert_eq!(
        h.ctx.global_style().visuals.panel_fill,
        Palette::LIGHT.panel
    );
    assert_eq!(
        h.ctx.global_style().visuals.error_fg_color,
        Palette::LIGHT.danger.text,
        "stock widgets say danger in the theme's colour"
    );

    let mut storage = Storage::default();
    eframe::App::save(h.state_mut(), &mut storage);
    let prefs = quartermaster::ui::load_prefs(Some(&storage));
    assert_eq!(prefs.theme, Theme::Light);
}

#[test]
fn table_mode_scales_type_and_buttons_from_view_and_ctrl_t() {
    let mut h = window();
    let tab = h.get_by_label("Forces").rect();
    assert_eq!(body_size(&h), theme::BODY);

    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::T);
    h.run();
    assert!(h.state().prefs.table_mode);
    assert!((body_size(&h) - theme::BODY * theme::TABLE_SCALE).abs() < 1e-4);
    let large = h.get_by_label("Forces").rect();
    assert!(
        large.height() > tab.height() * 1.2 && large.width() > tab.width() * 1.2,
        "the tab grew with the type: {tab:?} → {large:?}"
    );
    assert!(
        (theme::tokens_of(&h.ctx).headline() - theme::HEADLINE * theme::TABLE_SCALE).abs() < 1e-4
    );

    // Off again from the View menu; sizes come back exactly (no compounding).
    view_menu(&mut h, "Table mode");
    assert!(!h.state().prefs.table_mode);
    assert_eq!(body_size(&h), theme::BODY);
    assert_eq!(h.get_by_label("Forces").rect(), tab);

    let mut storage = Storage::default();
    h.state_mut().prefs.table_mode = true;
    eframe::App::save(h.state_mut(), &mut storage);
    assert!(
        quartermaster::ui::load_prefs(Some(&storage)).table_mode,
        "remembered"
    );
}

#[test]
fn the_start_card_takes_each_first_step_and_goes_once_a_force_exists() {
    let mut h = window();
    for (action, view) in [
        ("Work out a shot", View::Resolve),
        ("Start a campaign", View::Campaign),
        ("Build a force", View::Forces),
    ] {
        click(&mut h, "Library");
        click(&mut h, action);
        assert_eq!(h.state().prefs.view, view, "{action}");
    }
    assert!(
        h.state().forces.new_force.is_some(),
        "Build a force opens the New force dialog"
    );
    h.get_by_label("Name").type_text("First platoon");
    h.run();
    click(&mut h, "Create");
    click(&mut h, "Library");
    assert!(
        h.query_by_label("Build a force").is_none(),
        "with a force of the player's the card has done its work"
    );
}

#[test]
fn hide_puts_the_start_card_away_for_good() {
    let mut h = window();
    assert!(h.query_by_label("Work out a shot").is_some());
    click(&mut h, "Hide");
    assert!(h.query_by_label("Work out a shot").is_none());
    let mut storage = Storage::default();
    eframe::App::save(h.state_mut(), &mut storage);
    assert!(quartermaster::ui::load_prefs(Some(&storage)).start_card_hidden);
}
