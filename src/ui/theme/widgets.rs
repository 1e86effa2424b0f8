//! The widgets views draw by meaning: a status pill, a headline tile, a filled bar with its
//! words above it, a large action, an empty state. Each takes its colours and sizes from the
//! tokens, and says what it shows to screen readers (and to the UI tests) in plain words.

use egui::{Align2, CornerRadius, FontId, Response, RichText, Sense, Stroke, StrokeKind, Vec2};

use super::{Gap, Status, tokens};

/// Roundness of tiles, cards and large actions.
const RADIUS: u8 = 8;
/// A tile's width before table mode: "100.0 %" at the headline size, with room around it.
const TILE_WIDTH: f32 = 150.0;
/// A bar's thickness before table mode: thick enough to read its length across a table.
const BAR_HEIGHT: f32 = 10.0;

/// The button for a view's main step (Export PDF…, New force…): filled in the accent colour,
/// so the eye finds it first.
pub fn primary(ui: &egui::Ui, text: &str) -> egui::Button<'static> {
    let accent = tokens(ui).palette.accent;
    egui::Button::new(RichText::new(text).color(accent.text).strong()).fill(accent.fill)
}

/// A short status in a rounded, tinted pill: "✔ Legal", "Over budget".
pub fn pill(ui: &mut egui::Ui, status: Status, text: impl Into<String>) -> Response {
    let t = tokens(ui);
    let swatch = t.status(status);
    egui::Frame::new()
        .fill(swatch.fill)
        .corner_radius(CornerRadius::same(u8::MAX))
        .inner_margin(egui::Margin::symmetric(
            t.gap(Gap::M) as i8,
            t.gap(Gap::Xs) as i8,
        ))
        .show(ui, |ui| {
            ui.label(RichText::new(text).color(swatch.text).strong())
        })
        .inner
}

/// The size each of `count` tiles takes in a row across the space left, so they line up
/// and stay on one line down to a narrow window (never narrower than a figure needs).
pub fn tile_size(ui: &egui::Ui, count: usize) -> Vec2 {
    let t = tokens(ui);
    let height = t.headline() + 2.0 * t.body() + t.gap(Gap::Xs) + 2.0 * t.gap(Gap::M);
    let count = count.max(1) as f32;
    // A gap's room at the end too: the last tile stays clear of a scroll bar.
    let share = (ui.available_width() - count * t.gap(Gap::M)) / count;
    let width = share.clamp(TILE_WIDTH * 0.7, TILE_WIDTH) * t.scale;
    egui::vec2(width, height)
}

/// A headline figure over its caption on a tile tinted by `status`: "40.0 %" over
/// "dispersed". `spoken` is what it reads as to a screen reader ("P(dispersed): 40.0%").
pub fn tile(
    ui: &mut egui::Ui,
    size: Vec2,
    status: Status,
    figure: &str,
    caption: &str,
    spoken: &str,
) -> Response {
    let t = tokens(ui);
    let swatch = t.status(status);
    let pad = t.gap(Gap::M);
    let figure = ui.painter().layout_no_wrap(
        figure.to_string(),
        FontId::proportional(t.headline()),
        swatch.text,
    );
    // An estimate's "≈ 71.0% ± 0.4" may need more than the row's share: that tile grows.
    let size = egui::vec2(size.x.max(figure.size().x + 2.0 * pad), size.y);
    let (rect, response) = ui.allocate_exact_size(size, Sense::hover());
    if ui.is_rect_visible(rect) {
        let painter = ui.painter();
        painter.rect(
            rect,
            RADIUS,
            swatch.fill,
            Stroke::new(1.0, swatch.bar),
            StrokeKind::Inside,
        );
        let top = rect.min + egui::vec2(pad, pad);
        let below = top.y + figure.size().y + t.gap(Gap::Xs);
        painter.galley(top, figure, swatch.text);
        let caption = painter.layout(
            caption.to_string(),
            FontId::proportional(t.body()),
            swatch.text,
            rect.width() - 2.0 * pad,
        );
        painter.galley(egui::pos2(top.x, below), caption, swatch.text);
    }
    let spoken = spoken.to_string();
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &spoken));
    response
}

/// A bar `fraction` full (0..=1) in `status`'s bar colour over the neutral track.
pub fn filled_bar(ui: &mut egui::Ui, fraction: f32, status: Status, width: f32) -> Response {
    let t = tokens(ui);
    let height = BAR_HEIGHT * t.scale;
    let (rect, response) = ui.allocate_exact_size(egui::vec2(width, height), Sense::hover());
    if ui.is_rect_visible(rect) {
        let radius = (height / 2.0) as u8;
        let painter = ui.painter();
        painter.rect_filled(rect, radius, t.palette.track);
        let filled = rect.with_max_x(rect.min.x + rect.width() * fraction.clamp(0.0, 1.0));
        if filled.width() > 0.0 {
            painter.rect_filled(filled, radius, t.status(status).bar);
        }
    }
    response
}

/// Work under way: a bar `done` of `total` full with `words` on it, and a frame asked for
/// ten times a second so it moves on. Not animated: an animation asks for every frame the
/// screen can draw, and a window drawn in software then takes a core from the threads doing
/// the work (a League's first read took 14.6 s beside a spinner, 9.2 s beside this bar).
pub fn progress(
    ui: &mut egui::Ui,
    done: usize,
    total: usize,
    words: String,
    width: f32,
) -> Response {
    let fraction = if total == 0 {
        0.0
    } else {
        done as f32 / total as f32
    };
    ui.ctx()
        .request_repaint_after(std::time::Duration::from_millis(100));
    ui.add(
        egui::ProgressBar::new(fraction)
            .desired_width(width)
            .text(words),
    )
}

/// A labelled stock: "Army Morale" and "8 / 9" on a line, its bar under them.
#[derive(Debug, Clone, PartialEq)]
pub struct Meter<'a> {
    pub label: &'a str,
    pub value: String,
    pub fraction: f32,
    pub status: Status,
    pub width: f32,
}

/// Draws `meter`; it reads as "label value" ("Army Morale 8 / 9").
pub fn meter(ui: &mut egui::Ui, meter: Meter<'_>) -> Response {
    let Meter {
        label,
        value,
        fraction,
        status,
        width,
    } = meter;
    let t = tokens(ui);
    let response = ui
        .vertical(|ui| {
            ui.set_width(width);
            ui.spacing_mut().item_spacing.y = t.gap(Gap::Xs);
            let row = ui.allocate_exact_size(
                egui::vec2(width, ui.text_style_height(&egui::TextStyle::Body)),
                Sense::hover(),
            );
            let painter = ui.painter();
            let font = FontId::proportional(t.body());
            painter.text(
                row.0.left_center(),
                Align2::LEFT_CENTER,
                label,
                font.clone(),
                t.palette.weak_text,
            );
            // The figure in its status colour: the words say how bad, not only the bar.
            painter.text(
                row.0.right_center(),
                Align2::RIGHT_CENTER,
                &value,
                font,
                t.status(status).text,
            );
            filled_bar(ui, fraction, status, width);
        })
        .response;
    let spoken = if label.is_empty() {
        value
    } else {
        format!("{label} {value}")
    };
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &spoken));
    response
}

/// A large button for a first step: an icon, a title in heading type and a line under it.
/// It reads as its title alone ("Build a force").
pub fn big_action(ui: &mut egui::Ui, icon: &str, title: &str, detail: &str) -> Response {
    let t = tokens(ui);
    let pad = t.gap(Gap::L);
    // Three lines of detail under the title: every action of a row is as tall as the others.
    let line = ui.text_style_height(&egui::TextStyle::Body);
    let size = egui::vec2(
        260.0 * t.scale,
        t.headline() + t.heading() + 3.0 * line + 2.0 * pad,
    );
    let (rect, response) = ui.allocate_exact_size(size, Sense::click());
    if ui.is_rect_visible(rect) {
        let visuals = ui.style().interact(&response);
        let painter = ui.painter();
        let fill = if response.hovered() {
            t.palette.accent.fill
        } else {
            t.palette.window
        };
        painter.rect(
            rect,
            RADIUS,
            fill,
            Stroke::new(visuals.bg_stroke.width.max(1.0), t.palette.accent.bar),
            StrokeKind::Inside,
        );
        let text = if response.hovered() {
            t.palette.accent.text
        } else {
            t.palette.text
        };
        let mut y = rect.min.y + pad;
        for (words, size, colour) in [
            (icon, t.headline(), t.palette.accent.bar),
            (title, t.heading(), text),
        ] {
            let galley =
                painter.layout_no_wrap(words.to_string(), FontId::proportional(size), colour);
            painter.galley(egui::pos2(rect.min.x + pad, y), galley.clone(), colour);
            y += galley.size().y;
        }
        let detail = painter.layout(
            detail.to_string(),
            FontId::proportional(t.body()),
            if response.hovered() {
                t.palette.accent.text
            } else {
                t.palette.weak_text
            },
            rect.width() - 2.0 * pad,
        );
        painter.galley(egui::pos2(rect.min.x + pad, y), detail, text);
    }
    let title = title.to_string();
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &title));
    response.on_hover_cursor(egui::CursorIcon::PointingHand)
}

/// An empty view's message, centred: an icon, what is missing, and the next step in words.
/// The caller adds the button that takes the step under it.
pub fn empty_state(ui: &mut egui::Ui, icon: &str, title: &str, next_step: &str) {
    let t = tokens(ui);
    ui.add_space(t.gap(Gap::Xl));
    ui.label(
        RichText::new(icon)
            .size(t.headline())
            .color(t.palette.accent.bar),
    );
    ui.label(RichText::new(title).size(t.heading()).strong());
    ui.add_space(t.gap(Gap::S));
    // A line short enough to read in one sweep, however wide the view.
    ui.scope(|ui| {
        ui.set_max_width(ui.available_width().min(560.0 * t.scale));
        ui.add(egui::Label::new(RichText::new(next_step).color(t.palette.weak_text)).wrap());
    });
    ui.add_space(t.gap(Gap::M));
}

/// A group's title inside a view: body size, strong, with a little room above.
pub fn section_heading(ui: &mut egui::Ui, text: &str) -> Response {
    let t = tokens(ui);
    ui.add_space(t.gap(Gap::S));
    ui.label(RichText::new(text).strong().size(t.body() * 1.1))
}
