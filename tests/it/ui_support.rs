//! Pointer help for the window tests: clicks at a spot, as a player's land.

use egui_kittest::Harness;
use quartermaster::ui::App;

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
