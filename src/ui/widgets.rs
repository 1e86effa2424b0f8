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
        egui::TextEdit::singleline(&mut text).hint_text(hint),
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
            .desired_rows(3)
            .desired_width(f32::INFINITY),
    );
    finish(drafts, key, current, text, &response)
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

/// Escape was pressed to close a dialog: not when it closed an open drop-down or menu instead.
/// Call it before the dialog is drawn, while the drop-down that takes this Escape is still
/// open.
pub fn escape_closes_dialog(ctx: &egui::Context) -> bool {
    !egui::Popup::is_any_open(ctx) && ctx.input(|i| i.key_pressed(egui::Key::Escape))
}
