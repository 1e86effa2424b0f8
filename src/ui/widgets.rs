//! Small widgets shared by the views.

use std::collections::HashMap;

/// A single-line text field that reports its text only when committed (focus lost or Enter),
/// keeping the typing in `drafts[key]` meanwhile.
pub fn committed_text(
    ui: &mut egui::Ui,
    drafts: &mut HashMap<String, String>,
    key: &str,
    current: &str,
    hint: &str,
    width: f32,
) -> Option<String> {
    let mut text = drafts
        .get(key)
        .cloned()
        .unwrap_or_else(|| current.to_string());
    // Sized explicitly: inside a grid a text field otherwise shrinks to its column's width.
    let height = ui.spacing().interact_size.y;
    let response = ui.add_sized(
        [width, height],
        egui::TextEdit::singleline(&mut text)
            .hint_text(hint)
            .id(ui.make_persistent_id(("committed", key))),
    );
    finish(drafts, key, current, text, &response)
}

/// A multi-line text field with the same commit rule as [`committed_text`] (focus lost only).
pub fn committed_multiline(
    ui: &mut egui::Ui,
    drafts: &mut HashMap<String, String>,
    key: &str,
    current: &str,
    hint: &str,
) -> Option<String> {
    let mut text = drafts
        .get(key)
        .cloned()
        .unwrap_or_else(|| current.to_string());
    let response = ui.add(
        egui::TextEdit::multiline(&mut text)
            .hint_text(hint)
            .id(ui.make_persistent_id(("committed", key)))
            .desired_rows(3)
            .desired_width(f32::INFINITY),
    );
    finish(drafts, key, current, text, &response)
}

/// Adds what `add` draws under an id of its own, derived from `salt` and the enclosing scope,
/// not from how many widgets came before it: a field being typed into keeps the keyboard (and
/// its half-typed text) when something above it appears or goes, such as a problem cleared
/// by the first digit typed.
pub fn steady<R>(
    ui: &mut egui::Ui,
    salt: impl std::hash::Hash + std::fmt::Debug,
    add: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    let id = ui.make_persistent_id(salt);
    ui.scope_builder(egui::UiBuilder::new().scope_id(id), add)
        .inner
}

fn finish(
    drafts: &mut HashMap<String, String>,
    key: &str,
    current: &str,
    text: String,
    response: &egui::Response,
) -> Option<String> {
    if response.changed() {
        drafts.insert(key.to_string(), text.clone());
    }
    if response.lost_focus() {
        drafts.remove(key);
        if text != current {
            return Some(text);
        }
    }
    None
}

/// What a player answered to a question asked before a destructive action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Yes,
    No,
}

/// Asks `question` in a window of its own over the view, with `yes` and Cancel, so the button
/// that asked is never the one that confirms: a double click on "Disperse…" asks, it does not
/// disperse. Escape and a click outside cancel. `None` while no answer is given.
pub fn confirm(ui: &egui::Ui, id: &str, question: &str, yes: &str) -> Option<Answer> {
    let mut answer = None;
    let modal = egui::Modal::new(egui::Id::unique(("confirm", id))).show(ui.ctx(), |ui| {
        ui.set_max_width(360.0);
        ui.add(egui::Label::new(question).wrap());
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button("Cancel").clicked() {
                answer = Some(Answer::No);
            }
            // Apart from Cancel, on the far side.
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.button(yes).clicked() {
                    answer = Some(Answer::Yes);
                }
            });
        });
    });
    if answer.is_none() && modal.should_close() {
        answer = Some(Answer::No);
    }
    answer
}

/// Escape was pressed to close a dialog: not when it closed an open drop-down or menu instead.
/// Call it before the dialog is drawn, while the drop-down that takes this Escape is still
/// open.
pub fn escape_closes_dialog(ctx: &egui::Context) -> bool {
    !egui::Popup::is_any_open(ctx) && ctx.input(|i| i.key_pressed(egui::Key::Escape))
}

/// This frame's click is the second or third of a multiple click (a double click): what the
/// window's guard holds back, and what closes no dialog.
pub fn second_click(ctx: &egui::Context) -> bool {
    use egui::PointerButton::Primary;
    ctx.input(|i| {
        i.pointer.button_double_clicked(Primary) || i.pointer.button_triple_clicked(Primary)
    })
}
