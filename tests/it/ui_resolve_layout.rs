//! The Resolve view at small window sizes: the odds column, its distributions and the Roll
//! button stay inside the window, and charts follow the current situation.

use crate::ui_support::{choose, click};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use quartermaster::rules::resolution::InputValue;
use quartermaster::ui::App;

fn harness(width: f32, height: f32) -> Harness<'static, App> {
    let app = App::for_tests().expect("in-memory store opens");
    Harness::builder()
        .with_size(egui::vec2(width, height))
        .build_ui_state(|ui, app: &mut App| app.show(ui), app)
}

fn open_resolve(h: &mut Harness<'static, App>) {
    h.run();
    click(h, "Resolve");
}

fn open_mechanic(h: &mut Harness<'static, App>, mechanic: &str) {
    open_resolve(h);
    choose(h, "Ruleset", mechanic);
}

/// The label starting with `text` lies wholly inside the window's width, and is not squeezed
/// to nothing.
fn inside(h: &Harness<'static, App>, text: &str, width: f32) {
    let node = h.get_by_label_contains(text);
    let rect = node.rect();
    assert!(
        rect.left() >= 0.0 && rect.right() <= width + 0.5 && rect.width() > 10.0,
        "'{text}' at {rect:?} in a window {width} px wide"
    );
}

#[test]
fn armour_battles_odds_and_distribution_fit_at_1024_and_720() {
    for (width, height) in [(1024.0, 700.0), (720.0, 480.0)] {
        let mut h = harness(width, height);
        // Armour Battles fire is the view's first mechanic.
        open_resolve(&mut h);
        choose(&mut h, "Attacker", "Panzer IV H");
        choose(&mut h, "Target", "M4 75mm");
        inside(&h, "P(dispersed):", width);
        inside(&h, "P(suppressed):", width);
        inside(&h, "New Disruption Points 3+:", width);
        // Roll is first on its row: New seed after it fitting means both fit.
        inside(&h, "New seed", width);
        inside(&h, "Rolled at the table", width);
    }
}

#[test]
fn bolt_action_hit_lines_follow_the_firers_at_720() {
    let width = 720.0;
    let mut h = harness(width, 480.0);
    open_mechanic(&mut h, "Bolt Action — shooting");
    choose(&mut h, "Weapon", "Rifle");
    choose(&mut h, "Target unit", "Regular Infantry Squad");
    for firers in [2u32, 5, 10] {
        h.state_mut()
            .resolve
            .set("firers", InputValue::Count(i64::from(firers)));
        h.run();
        h.run();
        // The last possible count of hits is listed, and it fits: the chart's categories come
        // from this situation, not the first one computed.
        let last = format!("Hits {firers}:");
        inside(&h, &last, width);
        let beyond = format!("Hits {}:", firers + 1);
        assert!(h.query_by_label_contains(&beyond).is_none(), "{beyond}");
    }
}

/// Dice rolled at the table in a small window: the faces fields sit whole in the dice column,
/// beside the odds and not over them, when the second pool's row appears too.
#[test]
fn faces_fields_fit_the_dice_column_at_1024_and_720() {
    for (width, height) in [(1024.0, 700.0), (720.0, 480.0)] {
        let mut h = harness(width, height);
        open_resolve(&mut h);
        click(&mut h, "Rolled at the table");
        choose(&mut h, "Attacker", "Panzer IV H");
        choose(&mut h, "Target", "M4 75mm");
        inside(&h, "attack —", width);
        // Three hits: the reaction pool is asked for next.
        let attack = h.get_by_label_contains("attack —");
        attack.focus();
        h.run();
        h.get_by_label_contains("attack —").type_text("66511111");
        h.run();
        inside(&h, "attack —", width);
        inside(&h, "reaction —", width);
        let field = h.get_by_label_contains("reaction —").rect();
        let odds = h.get_by_label_contains("P(dispersed):").rect();
        assert!(
            !field.intersects(odds),
            "the reaction field {field:?} lies over the odds {odds:?} at {width}"
        );
    }
}
