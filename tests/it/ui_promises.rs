//! The window keeps its promises: preferences survive a quit and a restart, dialogs open ready
//! to type and answer the keyboard, closing never loses typed text silently, a Bolt Action
//! unit with 0 points does not look like one with none, a force a campaign uses is not deleted
//! without a word, a custom card is named as one, and the force view fits 1024×700.

use crate::ui_support::click;
use std::collections::HashMap;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use quartermaster::campaign::Sides;
use quartermaster::rules::{Budget, RulesetId};
use quartermaster::store::Store;
use quartermaster::ui::{
    Action, App, CampaignCommand, Command, Launch, LibraryAction, Model, PathPrompt, Prefs, View,
};

/// eframe's storage as the real window has it: keys to RON-ish strings, kept across the restart.
#[derive(Default)]
pub(crate) struct Storage(HashMap<String, String>);

impl eframe::Storage for Storage {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_string(), value);
    }
    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }
    fn flush(&mut self) {}
}

fn app_over(dir: &std::path::Path, prefs: Prefs) -> App {
    let store = Store::open(dir).expect("the library opens");
    let mut app = App::new(Model::new(store), prefs, &Launch::default());
    app.native_dialogs = false;
    app
}

fn harness_of(app: App, size: egui::Vec2) -> Harness<'static, App> {
    Harness::builder()
        .with_size(size)
        // A window's frame rate: double clicks and rests are timed as a player makes them.
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app)
}

/// The app over an in-memory library without native dialogs, its first frame drawn.
fn harness() -> Harness<'static, App> {
    let mut app = App::for_tests().expect("in-memory store opens");
    app.native_dialogs = false;
    let mut h = harness_of(app, egui::vec2(1280.0, 860.0));
    h.run();
    h
}

/// A BelloLudi campaign `name` with one battle between the saved forces `us` and `german`.
fn simple_campaign(app: &mut App, name: &str, us: &str, german: &str) {
    app.model.apply(Command::Campaign(CampaignCommand::New {
        ruleset: RulesetId::Belloludi,
        name: name.into(),
        players: Sides::default(),
        carry_losses: false,
    }));
    app.model
        .apply(Command::Campaign(CampaignCommand::AddBattle {
            name: "Round 1".into(),
            forces: Sides {
                first: us.into(),
                second: german.into(),
            },
        }));
}

fn new_force(h: &mut Harness<'static, App>, ruleset: RulesetId, name: &str, budget: Budget) {
    h.state_mut().apply(Action::Model(Command::NewForce {
        ruleset,
        name: name.into(),
        budget,
    }));
    h.run();
}

#[test]
fn preferences_survive_quit_and_restart() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness_of(
        app_over(dir.path(), Prefs::default()),
        egui::vec2(1280.0, 860.0),
    );
    h.run();
    new_force(
        &mut h,
        RulesetId::Belloludi,
        "Kept open",
        Budget::Points(60),
    );
    h.state_mut()
        .apply(Action::Model(Command::Campaign(CampaignCommand::New {
            ruleset: RulesetId::ArmourBattles,
            name: "Lezey".into(),
            players: Sides::default(),
            carry_losses: false,
        })));
    h.state_mut()
        .apply(Action::Library(LibraryAction::Search("tiger".into())));
    click(&mut h, "Resolve");
    // Quit as the user does; the real window then hands eframe's storage to save().
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Q);
    h.run();
    assert!(h.state().quit_requested);
    let mut storage = Storage::default();
    eframe::App::save(h.state_mut(), &mut storage);
    let force = h.state().model.open.as_ref().map(|o| o.id);
    let campaign = h.state().model.campaign.as_ref().map(|c| c.stored.id);
    drop(h);

    let prefs = quartermaster::ui::load_prefs(Some(&storage));
    let mut again = harness_of(app_over(dir.path(), prefs), egui::vec2(1280.0, 860.0));
    again.run();
    let app = again.state();
    assert_eq!(app.prefs.view, View::Resolve);
    assert_eq!(app.prefs.library.search, "tiger");
    assert_eq!(app.model.open.as_ref().map(|o| o.id), force);
    assert_eq!(app.model.campaign.as_ref().map(|c| c.stored.id), campaign);
    assert!(force.is_some() && campaign.is_some());
}

#[test]
fn new_force_opens_with_name_focused_and_escape_on_a_drop_down_keeps_the_dialog() {
    let mut h = harness();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::N);
    h.run();
    // No click into the field: the dialog opened with the keyboard in Name.
    h.get_by_label("Name").type_text("Typed at once");
    h.run();
    let draft = h
        .state()
        .forces
        .new_force
        .clone()
        .expect("the dialog is open");
    assert_eq!(draft.name, "Typed at once");

    click(&mut h, "Ruleset");
    assert!(
        h.query_by_label("Bolt Action").is_some(),
        "the drop-down is open"
    );
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(
        h.query_by_label("Bolt Action").is_none(),
        "the drop-down closed"
    );
    assert!(h.state().forces.new_force.is_some(), "the dialog stayed");
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(
        h.state().forces.new_force.is_none(),
        "a second Escape closes it"
    );
}

#[test]
fn enter_in_the_export_path_box_exports() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness();
    new_force(&mut h, RulesetId::Belloludi, "Exported", Budget::Points(60));
    let id = h.state().model.open.as_ref().unwrap().id;
    let path = dir.path().join("exported.json");
    h.state_mut()
        .apply(Action::PathPrompt(Some(PathPrompt::Export(
            id,
            path.display().to_string(),
        ))));
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    assert!(path.exists(), "Enter wrote the file without a click");
    assert!(h.state().path_prompt.is_none());
}

#[test]
fn the_share_panel_takes_enter_and_escape() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = App::for_tests().unwrap();
    app.prefs.view = View::Campaign;
    app.model
        .apply(Command::Campaign(CampaignCommand::SetPlayer(Some(
            "Ann".into(),
        ))));
    app.model.apply(Command::Campaign(CampaignCommand::New {
        ruleset: RulesetId::ArmourBattles,
        name: "Shared".into(),
        players: Sides::default(),
        carry_losses: false,
    }));
    let mut h = harness_of(app, egui::vec2(1400.0, 1400.0));
    h.run();
    click(&mut h, "Share this campaign to a folder…");
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(!h.state().campaign.sharing, "Escape closed the panel");

    click(&mut h, "Share this campaign to a folder…");
    let folder = dir.path().join("sync");
    // The panel opened with the keyboard in Folder.
    h.get_by_label("Folder").type_text(folder.to_str().unwrap());
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    let shared = h.state().model.campaign.as_ref().unwrap().shared.clone();
    assert_eq!(shared.as_deref(), Some(folder.as_path()), "Enter shared it");
}

#[test]
fn closing_with_typed_dialog_text_asks_first() {
    let mut h = harness();
    click(&mut h, "Forces");
    click(&mut h, "Paste list");
    h.get_by_label("List")
        .type_text("Kampfgruppe\nBelloLudi Tanks! · 100 points\n2 × Medium Tank");
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Q);
    h.run();
    assert!(!h.state().quit_requested, "not closed");
    assert!(h.query_by_label("Close Quartermaster?").is_some(), "asked");
    click(&mut h, "Keep working");
    assert!(
        h.state().forces.paste.is_some(),
        "the typed list is still there"
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Q);
    h.run();
    click(&mut h, "Close anyway");
    assert!(h.state().quit_requested);
}

#[test]
fn copy_as_text_and_paste_list_make_the_same_force() {
    let mut h = harness();
    new_force(
        &mut h,
        RulesetId::Belloludi,
        "Kampfgruppe",
        Budget::Points(60),
    );
    h.get_by_label_contains("+ Medium Tank · ").click();
    h.run();
    h.get_by_label("Copy as text").click();
    h.step();
    let copied = h
        .output()
        .platform_output
        .commands
        .iter()
        .find_map(|c| match c {
            egui::OutputCommand::CopyText(text) => Some(text.clone()),
            _ => None,
        })
        .expect("the list went to the clipboard");
    assert!(
        copied.starts_with("Kampfgruppe\nBelloLudi Tanks! · 60 points\n"),
        "{copied}"
    );
    h.run();
    click(&mut h, "Paste list");
    h.get_by_label("List")
        .type_text(&copied.replace("Kampfgruppe", "Kampfgruppe Zwei"));
    h.run();
    assert!(
        h.query_by_label_contains("Reads as Kampfgruppe Zwei")
            .is_some()
    );
    click(&mut h, "Import list");
    let open = h.state().model.open.as_ref().unwrap();
    assert_eq!(open.force.name, "Kampfgruppe Zwei");
    assert_eq!(open.force.units.len(), 1);
    assert_eq!(open.force.units[0].card.name(), "Medium Tank");

    // A line it cannot place is named with its number, and nothing is imported.
    click(&mut h, "Paste list");
    h.get_by_label("List")
        .type_text("Typo\nBelloLudi Tanks! · 60 points\n\n1 × Medum Tank");
    h.run();
    assert!(
        h.query_by_label_contains(
            "line 4: no BelloLudi Tanks! card \"Medum Tank\" — did you mean Medium Tank?"
        )
        .is_some()
    );
    assert!(!h.get_by_label("Import list").is_focused());
}

#[test]
fn bolt_action_points_of_0_do_not_look_like_points_not_set() {
    let mut h = harness();
    new_force(
        &mut h,
        RulesetId::BoltAction,
        "Platoon",
        Budget::Points(500),
    );
    h.get_by_label_contains("+ Regular Infantry Squad").click();
    h.run();
    assert!(h.query_by_label("no points set").is_some());
    let mut force = h.state().model.open.as_ref().unwrap().force.clone();
    force.units[0].points = Some(0);
    h.state_mut().apply(Action::Model(Command::Edit {
        force,
        label: "Set points".into(),
    }));
    h.run();
    assert!(h.query_by_label("no points set").is_none());
    assert!(
        h.query_by_label("0 points").is_some(),
        "a cost of 0 is shown as one"
    );
    assert!(h.state().model.open.as_ref().unwrap().validation.legal);
}

#[test]
fn deleting_a_force_a_campaign_uses_asks_first() {
    let mut h = harness();
    for name in ["Red", "Blue"] {
        new_force(&mut h, RulesetId::Belloludi, name, Budget::Points(60));
        // A battle on the board needs a unit a side.
        let mut force = h.state().model.open.as_ref().unwrap().force.clone();
        force
            .units
            .push(quartermaster::rules::force::ForceUnit::library(
                "Medium Tank",
                1,
            ));
        h.state_mut().apply(Action::Model(Command::Edit {
            force,
            label: "Add a tank".into(),
        }));
        h.run();
    }
    let app = h.state_mut();
    simple_campaign(app, "Autumn league", "Red", "Blue");
    app.prefs.view = View::Forces;
    h.run();
    assert_eq!(h.state().model.open.as_ref().unwrap().force.name, "Blue");
    click(&mut h, "Delete");
    assert!(h.query_by_label("Delete Blue?").is_some(), "asked first");
    assert!(
        h.query_by_label_contains("set up from it: Autumn league")
            .is_some()
    );
    click(&mut h, "Keep it");
    assert_eq!(h.state().model.forces.len(), 2, "kept");
    click(&mut h, "Delete");
    // The dialog's Delete is the one drawn last, over the view.
    h.get_all_by_label("Delete")
        .last()
        .expect("the dialog's button")
        .click();
    h.run();
    assert_eq!(h.state().model.forces.len(), 1, "deleted when confirmed");
}

#[test]
fn a_campaign_name_over_the_limit_is_refused_in_plain_words() {
    let mut h = harness();
    let app = h.state_mut();
    app.model.apply(Command::Campaign(CampaignCommand::New {
        ruleset: RulesetId::ArmourBattles,
        name: "L".repeat(201),
        players: Sides::default(),
        carry_losses: false,
    }));
    let said = &app.model.notices.last().expect("refused").text;
    assert!(said.contains("201 characters long; at most 200"), "{said}");
    assert!(!said.contains("campaign.name"), "no internal key: {said}");
    app.model.apply(Command::Campaign(CampaignCommand::New {
        ruleset: RulesetId::ArmourBattles,
        name: "L".repeat(200),
        players: Sides::default(),
        carry_losses: false,
    }));
    assert!(
        app.model.campaign.is_some(),
        "200, like a force's name, is fine"
    );
}

#[test]
fn a_custom_card_is_named_as_one_in_the_fix_the_undo_notice_and_the_campaign_chips() {
    let mut h = harness();
    let mut sherman = quartermaster::rules::ruleset(RulesetId::Belloludi).library()[1].clone();
    if let quartermaster::rules::Card::Belloludi(card) = &mut sherman {
        card.name = "Sherman".into();
    }
    h.state_mut().apply(Action::Model(Command::SaveCustomCard {
        id: None,
        card: sherman,
    }));
    new_force(&mut h, RulesetId::Belloludi, "Shermans", Budget::Points(20));
    for _ in 0..3 {
        h.get_by_label_contains("+ Sherman · custom").click();
        h.run();
    }
    assert!(
        h.query_by_label_contains(" Sherman · custom)").is_some(),
        "the Fix message names the custom card as one"
    );
    let problem = h.state().model.open.as_ref().unwrap().validation.violations[0]
        .message
        .clone();
    assert!(problem.contains("Sherman · custom"), "{problem}");
    click(&mut h, "Fix");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    let undone = &h.state().model.notices.last().unwrap().text;
    assert!(undone.contains("Sherman · custom"), "{undone}");

    new_force(&mut h, RulesetId::Belloludi, "Others", Budget::Points(100));
    let mut force = h.state().model.open.as_ref().unwrap().force.clone();
    force
        .units
        .push(quartermaster::rules::force::ForceUnit::library(
            "Medium Tank",
            1,
        ));
    h.state_mut().apply(Action::Model(Command::Edit {
        force,
        label: "Add a tank".into(),
    }));
    h.run();
    let app = h.state_mut();
    simple_campaign(app, "League", "Shermans", "Others");
    app.prefs.view = View::Campaign;
    h.run();
    // The battle's units: each custom Sherman named as one on the board.
    assert!(
        h.get_all_by_label_contains("Sherman · custom").count() >= 1,
        "the units name the custom card as one"
    );
}

#[test]
fn the_force_view_at_1024_by_700_shows_every_remove_button() {
    let mut app = App::for_tests().unwrap();
    app.native_dialogs = false;
    let mut h = harness_of(app, egui::vec2(1024.0, 700.0));
    h.run();
    new_force(
        &mut h,
        RulesetId::BoltAction,
        "Narrow",
        Budget::Points(1000),
    );
    for unit in ["+ Regular Infantry Squad", "+ MMG Team", "+ Medium Tank"] {
        h.get_by_label_contains(unit).click();
        h.run();
        // Past the rest after an add: a later click is a new click, not a double-click.
        h.run_steps(40);
    }
    let removes: Vec<_> = h.get_all_by_label_contains("✕").collect();
    assert_eq!(removes.len(), 3);
    for remove in removes {
        let rect = remove.rect();
        assert!(
            rect.max.x <= 1024.0 && rect.max.y <= 700.0,
            "a remove button off screen at {rect:?}"
        );
    }
    for label in ["Delete", "Export…", "Copy as text"] {
        let rect = h.get_by_label(label).rect();
        assert!(rect.max.x <= 1024.0, "{label} off screen at {rect:?}");
    }
}

/// Pricing a Bolt Action unit right after adding it, the book's normal flow: "65" typed into
/// its points is stored as 65. The first digit used to clear the last problem, the Problems box
/// went, the table jumped, the field lost the keyboard and the unit kept 6.
#[test]
fn a_price_typed_into_a_new_bolt_action_unit_is_kept_whole() {
    let mut h = harness();
    new_force(
        &mut h,
        RulesetId::BoltAction,
        "Platoon",
        Budget::Points(1000),
    );
    h.get_by_label_contains("+ Regular Infantry Squad").click();
    h.run();
    assert!(h.query_by_label("no points set").is_some());
    h.get_by_value("not set").click();
    h.run();
    // Typed keys go to the field with the keyboard, whichever node sends them.
    let typing = |h: &mut Harness<'static, App>, text: &str| {
        h.get_by_label("Notes").type_text(text);
        h.run();
    };
    typing(&mut h, "6");
    typing(&mut h, "5");
    h.key_press(egui::Key::Enter);
    h.run();
    let open = h.state().model.open.as_ref().unwrap();
    assert_eq!(open.force.units[0].points, Some(65));
    assert!(open.validation.legal);
    assert!(
        h.query_by_label_contains(" Legal").is_some(),
        "the force reads legal"
    );
}

/// A double click on Duplicate makes one copy, not "(copy)" and "(copy) (copy)".
#[test]
fn double_clicking_duplicate_makes_one_copy() {
    let mut h = harness();
    new_force(&mut h, RulesetId::Belloludi, "Tigers", Budget::Points(100));
    let before = h.state().model.forces.len();
    let at = h.get_by_label("Duplicate").rect().center();
    crate::ui_support::double_click_at(&mut h, at);
    let names: Vec<String> = h
        .state()
        .model
        .forces
        .iter()
        .map(|f| f.name.clone())
        .collect();
    assert_eq!(names.len(), before + 1, "{names:?}");
    assert!(
        !names.iter().any(|n| n.contains("(copy) (copy)")),
        "{names:?}"
    );
}

/// A double click on a ruleset in New force's drop-down picks it: the second click, landing on
/// whatever lies under the closed list, makes no force and the typed name stays.
#[test]
fn double_clicking_a_ruleset_in_new_force_picks_it_and_makes_nothing() {
    let mut h = harness();
    let before = h.state().model.forces.len();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::N);
    h.run();
    h.get_by_label("Name").type_text("Zulu impi");
    h.run();
    click(&mut h, "Ruleset");
    let at = h.get_by_label("Belle Epoque").rect().center();
    crate::ui_support::double_click_at(&mut h, at);
    h.run();
    assert_eq!(h.state().model.forces.len(), before, "no force was made");
    let draft = h
        .state()
        .forces
        .new_force
        .clone()
        .expect("the dialog is still open");
    assert_eq!(draft.name, "Zulu impi");
    assert_eq!(draft.ruleset, RulesetId::BelleEpoque);
}

/// The keyboard in New force: Tab goes round the dialog and never out to the menu bar; Enter
/// creates the force after the ruleset was chosen with the mouse.
#[test]
fn new_force_keeps_tab_inside_and_enter_creates_after_a_mouse_pick() {
    let mut h = harness();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::N);
    h.run();
    h.get_by_label("Name").type_text("Rorke's Drift");
    h.run();
    // Round the dialog twice over: the keyboard stays on its own widgets.
    for _ in 0..12 {
        h.key_press(egui::Key::Tab);
        h.run();
        for menu in ["File", "Edit", "View", "Help"] {
            assert!(
                h.query_by_label(menu).is_none_or(|m| !m.is_focused()),
                "Tab left the dialog for the {menu} menu"
            );
        }
    }
    click(&mut h, "Ruleset");
    click(&mut h, "Belle Epoque");
    h.key_press(egui::Key::Enter);
    h.run();
    let open = h.state().model.open.as_ref().expect("the force was made");
    assert_eq!(open.force.name, "Rorke's Drift");
    assert_eq!(open.force.ruleset, RulesetId::BelleEpoque);
}

/// Paste list imports with Ctrl+Enter (Enter is a new line in the list).
#[test]
fn paste_list_imports_with_ctrl_enter() {
    let mut h = harness();
    click(&mut h, "Forces");
    click(&mut h, "Paste list");
    h.get_by_label("List")
        .type_text("Kampfgruppe\nBelloLudi Tanks! · 60 points\n1 × Medium Tank");
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Enter);
    h.run();
    let open = h
        .state()
        .model
        .open
        .as_ref()
        .expect("the list was imported");
    assert_eq!(open.force.name, "Kampfgruppe");
    assert!(h.state().forces.paste.is_none(), "the dialog closed");
}

/// The card editor opens with the keyboard in Name.
#[test]
fn the_card_editor_opens_ready_to_type_the_name() {
    let mut h = harness();
    click(&mut h, "BelloLudi Tanks! (5)");
    click(&mut h, "Sherman");
    click(&mut h, "Duplicate to edit");
    use egui_kittest::kittest::NodeT;
    let name = h
        .get_all_by_value("Sherman (custom)")
        .find(|n| n.accesskit_node().role() == egui::accesskit::Role::TextInput)
        .expect("the editor's name field");
    assert!(name.is_focused(), "Name has the keyboard");
}
