//! The battle view's layout in the two window sizes players use (a laptop at 1024×700, a
//! desktop at 1600×1000), for every ruleset fought on the board: nothing cut off at the right
//! (no sideways scroll), the turn strip's buttons on screen without scrolling, and opening an action's
//! form moves no unit card (the form sits beside the board, or under it in a narrow window).

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use quartermaster::rules::RulesetId;
use quartermaster::rules::battle::BattleRules;
use quartermaster::rules::battle::table::{AnyTable, engine};
use quartermaster::rules::force::{Force, ForceUnit};
use quartermaster::store::Store;
use quartermaster::ui::App;

const SIZES: [(f32, f32); 2] = [(1024.0, 700.0), (1600.0, 1000.0)];

/// A window of `size` with a battle of `ruleset` open: Lorraine's first battle for Armour
/// Battles, else a battle between two saved forces of the book's first five cards.
fn battle(dir: &std::path::Path, ruleset: RulesetId, size: (f32, f32)) -> Harness<'static, App> {
    let mut store = Store::open(dir).unwrap();
    let cards: Vec<String> = quartermaster::rules::ruleset(ruleset)
        .library()
        .iter()
        .take(5)
        .map(|c| c.name().to_string())
        .collect();
    for name in ["Red", "Blue"] {
        let mut force = Force::new(ruleset, name);
        force.units = cards.iter().map(|c| ForceUnit::library(c, 1)).collect();
        store.save_force(None, &force).unwrap();
    }
    let battle = (ruleset != RulesetId::ArmourBattles).then_some(("Field", ["Red", "Blue"]));
    let app = crate::ui_support::campaign_app(store, ruleset, "Layout", battle);
    let mut h = Harness::builder()
        .with_size(egui::vec2(size.0, size.1))
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    h.run();
    h
}

/// Every unit card's buttons, by accessible name (it names the unit), with where they are.
fn unit_buttons(h: &Harness<'static, App>, labels: &[String]) -> Vec<(String, egui::Rect)> {
    h.query_all_by_role(egui::accesskit::Role::Button)
        .filter_map(|n| {
            let name = n.accesskit_node().label()?;
            labels
                .iter()
                .any(|l| name.contains(l.as_str()))
                .then(|| (name, n.rect()))
        })
        .collect()
}

#[test]
fn every_board_battle_fits_both_window_sizes_and_a_form_moves_no_unit_card() {
    for ruleset in RulesetId::ALL {
        if engine(ruleset).is_err() {
            continue;
        }
        for size in SIZES {
            let dir = tempfile::tempdir().unwrap();
            let mut h = battle(dir.path(), ruleset, size);
            let at = format!("{ruleset} at {}×{}", size.0, size.1);
            let open = h
                .state()
                .model
                .campaign
                .as_ref()
                .expect("the campaign is open");
            let record = open.record().clone();
            let plan = record.table_plan(open.battle).expect("a board battle");
            let board = record.board(open.battle).expect("its board");
            // The page ends where the action panel begins (just left of its heading).
            let page_end = h.get_by_label("Action").rect().min.x - 4.0;
            // Nothing on the page, enabled or greyed, runs past its right edge: the page needs
            // no sideways scroll (a greyed "Record result" or "Redo" out of sight is still lost).
            use egui::accesskit::Role;
            for role in [
                Role::Button,
                Role::RadioButton,
                Role::CheckBox,
                Role::TextInput,
                Role::ComboBox,
            ] {
                for widget in h.query_all_by_role(role) {
                    let rect = widget.rect();
                    if rect.min.x >= page_end {
                        continue;
                    }
                    assert!(
                        rect.max.x <= page_end,
                        "{at}: {role:?} '{:?}' ends at x = {}, the page at {page_end}",
                        widget.accesskit_node().label(),
                        rect.max.x
                    );
                }
            }
            // The turn strip is on screen without scrolling.
            for label in ["Undo", "Redo"] {
                let rect = h.get_by_label(label).rect();
                assert!(
                    rect.min.y >= 0.0 && rect.max.y <= size.1 && rect.max.x <= page_end,
                    "{at}: {label} at {rect:?}"
                );
            }
            // Pinned: the page scrolled to its foot leaves the strip where it was.
            let strip_before = h.get_by_label("Undo").rect();
            let page_top = h.get_by_label("Layout").rect();
            let foot = h.get_by_label_contains("House defaults of this battle");
            let below = foot.rect().max.y > size.1;
            foot.scroll_to_me();
            h.run();
            if below {
                let scrolled = h.query_by_label("Layout").map(|n| n.rect());
                assert_ne!(scrolled, Some(page_top), "{at}: the page scrolled");
            }
            assert_eq!(
                h.get_by_label("Undo").rect(),
                strip_before,
                "{at}: the turn strip stays put"
            );
            // A unit's form opens: no unit card's button moves.
            let labels: Vec<String> = board.units.iter().map(|u| u.label.clone()).collect();
            let before = unit_buttons(&h, &labels);
            assert!(!before.is_empty(), "{at}: unit cards are drawn");
            let action = AnyTable::actions(&plan, &board)
                .into_iter()
                .find(|a| a.unit.is_some() && (!a.targets.is_empty() || a.allowed()))
                .expect("an action on a unit");
            h.state_mut().campaign.board.open = Some(action.request());
            h.run();
            assert!(
                h.state().campaign.board.open.is_some(),
                "{at}: the form is open"
            );
            let after = unit_buttons(&h, &labels);
            for (name, rect) in &before {
                let moved = after.iter().find(|(n, _)| n == name).map(|(_, r)| *r);
                assert_eq!(
                    moved,
                    Some(*rect),
                    "{at}: '{name}' moved when the form opened"
                );
            }
        }
    }
}

/// Ten Bolt Action units a side (four squads, two MMGs, two bazookas, two Panzerschrecks) fit
/// one 1600×1000 screen without scrolling: the last card's buttons are on screen.
#[test]
fn a_bolt_action_battle_of_ten_units_a_side_fits_a_desktop_screen() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let units = [
        ("Regular Infantry Squad", 4),
        ("MMG Team", 2),
        ("Bazooka Team", 2),
        ("Panzerschreck Team", 2),
    ];
    for name in ["Able", "Baker"] {
        let mut force = Force::new(RulesetId::BoltAction, name);
        force.units = units
            .iter()
            .map(|(card, n)| ForceUnit::library(*card, *n))
            .collect();
        store.save_force(None, &force).unwrap();
    }
    let app = crate::ui_support::campaign_app(
        store,
        RulesetId::BoltAction,
        "Ten",
        Some(("Field", ["Able", "Baker"])),
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    h.run();
    let board = {
        let open = h.state().model.campaign.as_ref().expect("open");
        open.record().board(open.battle).expect("a board")
    };
    assert_eq!(board.units.len(), 20, "ten units a side");
    for unit in &board.units {
        let buttons = unit_buttons(&h, std::slice::from_ref(&unit.label));
        assert!(!buttons.is_empty(), "{}: its card is drawn", unit.label);
        for (name, rect) in buttons {
            assert!(
                rect.max.y <= 1000.0 && rect.max.x <= 1600.0,
                "'{name}' at {rect:?} is off the screen"
            );
        }
    }
}
