//! The Print view: choose what to print, see every page as it will print (painted from the
//! same display list the PDF writer uses), and export the PDF.

use egui::{Color32, FontFamily, FontId, Pos2, Rect, Stroke as EguiStroke, Vec2};

use crate::export::{
    self, BackOffset, CardMode, CardOptions, ExportDate, Flip, FontStyle, Ink, Item, Layout,
    MAX_BACK_OFFSET_MM, Page, Paper, Rgb, Rotation, SheetLayout,
};
use crate::rules::{Force, RulesetId};
use crate::store::ForceId;

use super::action::Action;
use super::fonts::{PRINT_BOLD, PRINT_CONDENSED_BOLD, PRINT_REGULAR};
use super::model::Model;
use super::theme::{self, icons};

/// What to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PrintKind {
    #[default]
    Cards,
    Roster,
    Reference,
    /// The duplex test sheet that measures a printer's back offset.
    Calibration,
}

/// The Print view's choices; the layout is cached until they (or the force) change.
#[derive(Debug, Clone, PartialEq)]
pub struct PrintSettings {
    pub kind: PrintKind,
    pub force: Option<ForceId>,
    pub ruleset: RulesetId,
    /// Reference: only the rules the chosen force uses.
    pub only_used: bool,
    pub size: String,
    pub page: String,
    pub backs: bool,
    pub per_type: bool,
    pub layout: SheetLayout,
    pub ink: Ink,
    pub flip: Flip,
    /// The printer the back offset belongs to (a name the user gives it).
    pub printer: String,
    /// That printer's back offset, from the preferences.
    pub back_offset: BackOffset,
}

impl Default for PrintSettings {
    fn default() -> Self {
        PrintSettings {
            kind: PrintKind::Cards,
            force: None,
            ruleset: RulesetId::ALL[0],
            only_used: false,
            size: "poker".into(),
            page: "a4".into(),
            backs: false,
            per_type: false,
            layout: SheetLayout::Grid,
            ink: Ink::Full,
            flip: Flip::LongEdge,
            printer: String::new(),
            back_offset: BackOffset::default(),
        }
    }
}

/// Settings, the page shown and the laid-out pages.
#[derive(Debug, Default)]
pub struct PrintState {
    pub settings: PrintSettings,
    pub page_index: usize,
    /// The layout with the settings and model revision it was made from.
    cache: Option<(PrintSettings, u64, Result<Layout, String>)>,
}

impl PrintState {
    /// The layout for the current settings. The force is read from the store only when the
    /// settings or the stored data changed, never once per frame.
    pub fn layout(&mut self, model: &Model) -> &Result<Layout, String> {
        let revision = model.revision();
        let stale = self
            .cache
            .as_ref()
            .is_none_or(|(settings, cached, _)| *settings != self.settings || *cached != revision);
        if stale {
            let force = self.settings.force.and_then(|id| model.force(id).ok());
            let layout = lay_out(&self.settings, force.as_ref()).map_err(|e| format!("{e:#}"));
            self.cache = Some((self.settings.clone(), revision, layout));
        }
        match &self.cache {
            Some((_, _, layout)) => layout,
            None => unreachable_layout(),
        }
    }
}

fn unreachable_layout() -> &'static Result<Layout, String> {
    static NONE: std::sync::OnceLock<Result<Layout, String>> = std::sync::OnceLock::new();
    NONE.get_or_init(|| Err("nothing laid out".into()))
}

fn lay_out(settings: &PrintSettings, force: Option<&Force>) -> anyhow::Result<Layout> {
    let mut progress = export::no_progress;
    let paper = Paper {
        page: &settings.page,
        ink: settings.ink,
    };
    match settings.kind {
        PrintKind::Cards => {
            let force =
                force.ok_or_else(|| anyhow::anyhow!("Choose a force to print its cards."))?;
            let options = CardOptions {
                size: settings.size.clone(),
                page: settings.page.clone(),
                mode: if settings.per_type {
                    CardMode::PerType
                } else {
                    CardMode::PerUnit
                },
                backs: settings.backs,
                flip: settings.flip,
                layout: settings.layout,
                ink: settings.ink,
                back_offset: settings.back_offset,
                ..CardOptions::default()
            };
            Ok(export::layout_cards(force, &options, &mut progress)?)
        }
        PrintKind::Roster => {
            let force =
                force.ok_or_else(|| anyhow::anyhow!("Choose a force to print its roster."))?;
            let date = ExportDate::today_utc()
                .ok_or_else(|| anyhow::anyhow!("the system clock is wrong"))?;
            Ok(export::layout_roster(force, paper, date, &mut progress)?)
        }
        PrintKind::Reference => {
            let force = force.filter(|f| settings.only_used && f.ruleset == settings.ruleset);
            Ok(export::layout_reference(
                settings.ruleset,
                force,
                paper,
                &mut progress,
            )?)
        }
        PrintKind::Calibration => Ok(export::layout_calibration(
            &settings.page,
            settings.flip,
            settings.back_offset,
        )?),
    }
}

/// Draws the view; returns what the user asked for.
pub fn ui(state: &mut PrintState, model: &Model, ui: &mut egui::Ui) -> Vec<Action> {
    let mut actions = Vec::new();
    egui::Panel::left("print_settings")
        .default_size(250.0)
        .show(ui, |ui| {
            settings_panel(state, model, ui, &mut actions);
        });
    egui::CentralPanel::default().show(ui, |ui| {
        let page_index = state.page_index;
        match state.layout(model) {
            Err(message) => {
                ui.vertical_centered(|ui| {
                    theme::empty_state(ui, icons::CARD, "Nothing to preview", message);
                    if model.forces.is_empty() && ui.add(theme::primary(ui, "New force…")).clicked()
                    {
                        actions.push(Action::NewForceDialog);
                    }
                });
            }
            Ok(layout) => {
                let pages = layout.pages.len();
                let index = page_index.min(pages.saturating_sub(1));
                ui.horizontal(|ui| {
                    if ui
                        .add_enabled(index > 0, egui::Button::new("◀ Previous page"))
                        .clicked()
                    {
                        actions.push(Action::PrintPage(index - 1));
                    }
                    ui.label(format!("Page {} of {pages}", index + 1));
                    if ui
                        .add_enabled(index + 1 < pages, egui::Button::new("Next page ▶"))
                        .clicked()
                    {
                        actions.push(Action::PrintPage(index + 1));
                    }
                });
                // The same list the command line prints: what could not be placed, then
                // what is merely worth knowing (a card continued on a second one).
                for warning in &layout.warnings {
                    ui.colored_label(
                        theme::tokens(ui).warning(),
                        format!("{} {warning}", icons::WARNING),
                    );
                }
                for note in &layout.notes {
                    ui.weak(format!("Note: {note}"));
                }
                if let Some(page) = layout.pages.get(index) {
                    paint_page(ui, page);
                }
            }
        }
    });
    actions
}

fn settings_panel(
    state: &mut PrintState,
    model: &Model,
    ui: &mut egui::Ui,
    actions: &mut Vec<Action>,
) {
    let s = &mut state.settings;
    ui.heading("Print");
    ui.horizontal_wrapped(|ui| {
        ui.selectable_value(&mut s.kind, PrintKind::Cards, "Unit cards");
        ui.selectable_value(&mut s.kind, PrintKind::Roster, "Roster");
        ui.selectable_value(&mut s.kind, PrintKind::Reference, "Quick reference");
        ui.selectable_value(&mut s.kind, PrintKind::Calibration, "Calibration");
    });
    ui.separator();
    if s.kind == PrintKind::Calibration {
        ui.label(
            "Print this sheet on both sides, hold it up to a light and read where the back's \
             lines cross the scales: enter the two numbers as this printer's back offset below.",
        );
        page_choice(s, ui);
        flip_choice(s, ui);
        printer_offset(s, ui, actions);
        ui.separator();
        if ui.add(theme::primary(ui, "Export PDF…")).clicked() {
            actions.push(Action::ExportPdfDialog);
        }
        return;
    }
    let force_label = ui.label("Force");
    let current = s
        .force
        .and_then(|id| model.forces.iter().find(|f| f.id == id))
        .map_or("Choose…".to_string(), |f| f.name.clone());
    egui::ComboBox::from_id_salt("print_force")
        .selected_text(current)
        .show_ui(ui, |ui| {
            for summary in &model.forces {
                if ui
                    .selectable_label(s.force == Some(summary.id), &summary.name)
                    .clicked()
                {
                    s.force = Some(summary.id);
                    s.ruleset = summary.ruleset;
                }
            }
        })
        .response
        .labelled_by(force_label.id);
    if model.forces.is_empty() {
        ui.label("No saved forces yet: build one in Forces.");
    }
    let templates = export::templates().ok();
    if s.kind == PrintKind::Reference {
        let ruleset_label = ui.label("Ruleset");
        egui::ComboBox::from_id_salt("print_ruleset")
            .selected_text(s.ruleset.title())
            .show_ui(ui, |ui| {
                for id in RulesetId::ALL {
                    ui.selectable_value(&mut s.ruleset, id, id.title());
                }
            })
            .response
            .labelled_by(ruleset_label.id);
        ui.checkbox(&mut s.only_used, "Only the rules the force uses");
    }
    if s.kind == PrintKind::Cards {
        let size_label = ui.label("Card size");
        egui::ComboBox::from_id_salt("print_size")
            .selected_text(s.size.clone())
            .show_ui(ui, |ui| {
                for size in templates.map(|t| t.cards.as_slice()).unwrap_or_default() {
                    ui.selectable_value(&mut s.size, size.id.clone(), &size.label);
                }
            })
            .response
            .labelled_by(size_label.id);
        ui.checkbox(&mut s.per_type, "One card per type, with its count");
        let layout_label = ui.label("Layout");
        egui::ComboBox::from_id_salt("print_layout")
            .selected_text(layout_name(s.layout))
            .show_ui(ui, |ui| {
                for layout in [SheetLayout::Grid, SheetLayout::Fold, SheetLayout::Single] {
                    ui.selectable_value(&mut s.layout, layout, layout_name(layout));
                }
            })
            .response
            .labelled_by(layout_label.id);
        match s.layout {
            SheetLayout::Fold => {
                ui.weak("Each back beside its front: cut out the pair and fold on the dashes.");
            }
            SheetLayout::Grid | SheetLayout::Single => {
                ui.checkbox(&mut s.backs, "Card backs for duplex printing");
            }
        }
        if s.backs && s.layout != SheetLayout::Fold {
            flip_choice(s, ui);
            printer_offset(s, ui, actions);
        }
    }
    page_choice(s, ui);
    let mut low = s.ink == Ink::Low;
    if ui
        .checkbox(&mut low, "Low ink: no filled bands or backgrounds")
        .on_hover_text(
            "Rules and outlines instead of colour, legible on a black-and-white printer.",
        )
        .changed()
    {
        s.ink = if low { Ink::Low } else { Ink::Full };
    }
    ui.separator();
    if ui.add(theme::primary(ui, "Export PDF…")).clicked() {
        actions.push(Action::ExportPdfDialog);
    }
}

fn layout_name(layout: SheetLayout) -> &'static str {
    match layout {
        SheetLayout::Grid => "Sheet of cards",
        SheetLayout::Fold => "Fold-over backs (no duplex)",
        SheetLayout::Single => "One card per page (print shop)",
    }
}

fn page_choice(s: &mut PrintSettings, ui: &mut egui::Ui) {
    let templates = export::templates().ok();
    let page_label = ui.label("Page");
    egui::ComboBox::from_id_salt("print_page")
        .selected_text(s.page.clone())
        .show_ui(ui, |ui| {
            for page in templates.map(|t| t.pages.as_slice()).unwrap_or_default() {
                ui.selectable_value(&mut s.page, page.id.clone(), &page.label);
            }
        })
        .response
        .labelled_by(page_label.id);
}

fn flip_choice(s: &mut PrintSettings, ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        ui.label("Duplex turns over the");
        ui.selectable_value(&mut s.flip, Flip::LongEdge, "long edge");
        ui.selectable_value(&mut s.flip, Flip::ShortEdge, "short edge");
    });
}

/// The printer the backs are printed on and its back offset as read off the calibration
/// sheet; both go to the preferences through actions, kept per printer name.
fn printer_offset(s: &PrintSettings, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
    let printer_label = ui.label("Printer");
    let mut name = s.printer.clone();
    if ui
        .add(egui::TextEdit::singleline(&mut name).hint_text("e.g. office laser"))
        .labelled_by(printer_label.id)
        .changed()
    {
        actions.push(Action::ChoosePrinter(name));
    }
    let mut offset = s.back_offset;
    let range = -MAX_BACK_OFFSET_MM..=MAX_BACK_OFFSET_MM;
    let mut changed = false;
    for (name, value) in [
        ("Back offset X (mm)", &mut offset.x_mm),
        ("Back offset Y (mm)", &mut offset.y_mm),
    ] {
        ui.horizontal(|ui| {
            let label = ui.label(name);
            changed |= ui
                .add(
                    egui::DragValue::new(value)
                        .range(range.clone())
                        .speed(0.1)
                        .fixed_decimals(1),
                )
                .labelled_by(label.id)
                .changed();
        });
    }
    if changed {
        actions.push(Action::SetBackOffset(offset));
    }
    ui.weak("As read off the calibration sheet (+ right, + down): backs shift the other way.");
}

fn color(rgb: Rgb) -> Color32 {
    theme::printed(rgb.r, rgb.g, rgb.b)
}

/// Millimetres per PostScript point.
const MM_PER_PT: f32 = 25.4 / 72.0;

/// Paints one page, scaled to fit the space left, on white paper.
fn paint_page(ui: &mut egui::Ui, page: &Page) {
    let whole = export::Frame {
        x: 0.0,
        y: 0.0,
        w: page.width,
        h: page.height,
    };
    paint_region(ui, page, whole, ui.available_size() - Vec2::splat(8.0));
}

/// Paints the part `region` (millimetres) of `page`, scaled to fit `room`, on white paper:
/// the whole sheet in the Print view, one card of it in the Library.
pub fn paint_region(ui: &mut egui::Ui, page: &Page, region: export::Frame, room: Vec2) {
    let scale = (room.x / region.w).min(room.y / region.h).max(0.1);
    let (response, painter) =
        ui.allocate_painter(Vec2::new(region.w, region.h) * scale, egui::Sense::hover());
    let painter = painter.with_clip_rect(response.rect);
    let origin = response.rect.min;
    let at = |x: f32, y: f32| {
        Pos2::new(
            origin.x + (x - region.x) * scale,
            origin.y + (y - region.y) * scale,
        )
    };
    painter.rect_filled(response.rect, 0.0, theme::PAPER);
    for item in &page.items {
        match item {
            Item::Rect {
                x,
                y,
                w,
                h,
                fill,
                stroke,
            } => {
                let rect = Rect::from_min_max(at(*x, *y), at(x + w, y + h));
                if let Some(fill) = fill {
                    painter.rect_filled(rect, 0.0, color(*fill));
                }
                if let Some(stroke) = stroke {
                    let width = (stroke.width_pt * MM_PER_PT * scale).max(0.5);
                    painter.rect_stroke(
                        rect,
                        0.0,
                        EguiStroke::new(width, color(stroke.color)),
                        egui::StrokeKind::Middle,
                    );
                }
            }
            Item::Line(segment) => {
                let stroke = &segment.stroke;
                let width = (stroke.width_pt * MM_PER_PT * scale).max(0.5);
                let line = [at(segment.x1, segment.y1), at(segment.x2, segment.y2)];
                let egui_stroke = EguiStroke::new(width, color(stroke.color));
                match stroke.dash_pt {
                    // A fold line is dashed in the preview too, so it reads as a fold.
                    Some(dash) => {
                        let dash = (dash * MM_PER_PT * scale).max(2.0);
                        painter.extend(egui::Shape::dashed_line(&line, egui_stroke, dash, dash));
                    }
                    None => {
                        painter.line_segment(line, egui_stroke);
                    }
                }
            }
            Item::Path {
                points,
                closed,
                fill,
                stroke,
            } => {
                let on_screen: Vec<Pos2> = points.iter().map(|&(x, y)| at(x, y)).collect();
                if let (Some(fill), true) = (fill, *closed) {
                    painter.add(fan(&on_screen, color(*fill)));
                }
                if let Some(stroke) = stroke {
                    let width = (stroke.width_pt * MM_PER_PT * scale).max(0.5);
                    let egui_stroke = EguiStroke::new(width, color(stroke.color));
                    painter.add(if *closed {
                        egui::Shape::closed_line(on_screen, egui_stroke)
                    } else {
                        egui::Shape::line(on_screen, egui_stroke)
                    });
                }
            }
            Item::Text(run) => {
                let size_mm = run.size_pt * MM_PER_PT;
                let ascent = export::ascent(run.style).unwrap_or(0.8) * size_mm;
                let family = match run.style {
                    FontStyle::Regular => PRINT_REGULAR,
                    FontStyle::Bold => PRINT_BOLD,
                    FontStyle::CondensedBold => PRINT_CONDENSED_BOLD,
                };
                let font = FontId::new(size_mm * scale, FontFamily::Name(family.into()));
                // The galley's top-left corner: up from the baseline by the ascent, "up" being
                // the page's left or right for text on a turned card.
                let (corner, angle) = match run.rotation {
                    Rotation::Upright => (at(run.x, run.baseline - ascent), 0.0),
                    Rotation::Left => (
                        at(run.x - ascent, run.baseline),
                        -std::f32::consts::FRAC_PI_2,
                    ),
                    Rotation::Right => (
                        at(run.x + ascent, run.baseline),
                        std::f32::consts::FRAC_PI_2,
                    ),
                    Rotation::Half => (at(run.x, run.baseline + ascent), std::f32::consts::PI),
                };
                let galley = painter.layout_no_wrap(run.text.clone(), font, color(run.color));
                painter.add(
                    egui::epaint::TextShape::new(corner, galley, color(run.color))
                        .with_angle(angle),
                );
            }
        }
    }
}

/// A filled polygon as triangles from the mean of its points: exact for the star-shaped
/// paths the layouts draw (a side's mark, a badge), which egui's convex fill is not.
fn fan(points: &[Pos2], fill: Color32) -> egui::Shape {
    let mut mesh = egui::epaint::Mesh::default();
    let n = points.len().max(1) as f32;
    let centre = points
        .iter()
        .fold(Pos2::ZERO, |sum, p| sum + p.to_vec2() / n);
    mesh.colored_vertex(centre, fill);
    for point in points {
        mesh.colored_vertex(*point, fill);
    }
    let count = points.len() as u32;
    for i in 0..count {
        mesh.add_triangle(0, 1 + i, 1 + (i + 1) % count);
    }
    egui::Shape::mesh(mesh)
}

/// The PDF bytes of the current layout.
pub fn pdf_bytes(state: &mut PrintState, model: &Model) -> anyhow::Result<Vec<u8>> {
    let subject = match state.settings.kind {
        PrintKind::Cards => "unit cards",
        PrintKind::Roster => "force roster",
        PrintKind::Reference => "quick reference",
        PrintKind::Calibration => "duplex calibration sheet",
    };
    let layout = state
        .layout(model)
        .as_ref()
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .clone();
    let date =
        ExportDate::today_utc().ok_or_else(|| anyhow::anyhow!("the system clock is wrong"))?;
    let info = export::PdfInfo {
        subject: subject.into(),
        ..export::PdfInfo::new(date)
    };
    Ok(export::write_pdf(&layout, &info, &mut export::no_progress)?)
}

/// A file name for the current layout.
pub fn file_name(state: &mut PrintState, model: &Model) -> String {
    let title = state
        .layout(model)
        .as_ref()
        .map_or("quartermaster".to_string(), |l| l.title.clone());
    format!("{}.pdf", super::sanitize_file_name(&title))
}
