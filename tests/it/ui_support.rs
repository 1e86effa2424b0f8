//! Help for the window tests: the open campaign, what is shown, clicks on a label or at a spot
//! (as a player's land) and picks from a drop-down.

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use quartermaster::campaign::{CampaignRecord, Sides};
use quartermaster::rules::RulesetId;
use quartermaster::store::Store;
use quartermaster::ui::model::{Model, OpenForce};
use quartermaster::ui::{App, CampaignCommand, Command, Launch, Prefs, View};

/// A window over `store` on the Campaign view with a new campaign `name` of `ruleset` open,
/// and, when `battle` gives one, a battle of that name between two saved forces.
pub(crate) fn campaign_app(
    store: Store,
    ruleset: RulesetId,
    name: &str,
    battle: Option<(&str, [&str; 2])>,
) -> App {
    let mut app = App::new(Model::new(store), Prefs::default(), &Launch::default());
    app.native_dialogs = false;
    app.prefs.view = View::Campaign;
    app.model.apply(Command::Campaign(CampaignCommand::New {
        ruleset,
        name: name.into(),
        players: Sides::default(),
        carry_losses: true,
    }));
    if let Some((battle, [first, second])) = battle {
        app.model
            .apply(Command::Campaign(CampaignCommand::AddBattle {
                name: battle.into(),
                forces: Sides {
                    first: first.into(),
                    second: second.into(),
                },
            }));
    }
    app
}

/// The app over an in-memory library in a 1280×860 window, its first frame drawn.
pub(crate) fn window() -> Harness<'static, App> {
    let app = App::for_tests().expect("in-memory store opens");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 860.0))
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    h.run();
    h
}

/// The open campaign's record.
pub(crate) fn record<'a>(h: &'a Harness<'static, App>) -> &'a CampaignRecord {
    &h.state()
        .model
        .campaign
        .as_ref()
        .expect("a campaign is open")
        .stored
        .record
}

/// Whether some widget's label contains `text` (it may appear in several places).
pub(crate) fn shown(h: &Harness<'static, App>, text: &str) -> bool {
    h.query_all_by_label_contains(text).next().is_some()
}

pub(crate) fn click(h: &mut Harness<'static, App>, label: &str) {
    h.get_by_label(label).click();
    h.run();
}

/// Focuses the field named `label` and types `text` into it, as a user would.
pub(crate) fn type_into(h: &mut Harness<'static, App>, label: &str, text: &str) {
    h.get_by_label(label).focus();
    h.run();
    h.get_by_label(label).type_text(text);
    h.run();
}

/// Opens the combo box `combo` and clicks `choice`, the first widget of that exact label.
pub(crate) fn choose(h: &mut Harness<'static, App>, combo: &str, choice: &str) {
    click(h, combo);
    click(h, choice);
}

/// The force open in the editor.
pub(crate) fn open_force<'a>(h: &'a Harness<'static, App>) -> &'a OpenForce {
    h.state().model.open.as_ref().expect("a force is open")
}

/// Opens the drop-down `combo` and picks `option`: the one named exactly (a unit's buttons
/// also carry its name), else one whose name starts so.
pub(crate) fn pick(h: &mut Harness<'static, App>, combo: &str, option: &str) {
    click(h, combo);
    let not_label =
        |n: &egui_kittest::Node<'_>| n.accesskit_node().role() != egui::accesskit::Role::Label;
    match h.query_all_by_label(option).find(not_label) {
        Some(node) => node.click(),
        None => h
            .query_all_by_label_contains(option)
            .find(|n| {
                not_label(n)
                    && n.accesskit_node()
                        .label()
                        .is_some_and(|l| l.starts_with(option))
            })
            .expect("the option is listed")
            .click(),
    }
    h.run();
}

/// A click at one spot, whatever is there, as the next frame will see it.
pub(crate) fn press_at(h: &mut Harness<'static, App>, pos: egui::Pos2) {
    h.event(egui::Event::PointerMoved(pos));
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::default(),
        });
    }
}

/// Two clicks at one spot, a frame apart, as a player's double click lands: the second on
/// whatever is under the pointer after the first.
pub(crate) fn double_click_at(h: &mut Harness<'static, App>, pos: egui::Pos2) {
    for _ in 0..2 {
        press_at(h, pos);
        h.run();
    }
}
