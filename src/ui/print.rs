//! The Print view: choose what to print, see every page as it will print (painted from the
//! same display list the PDF writer uses), and export the PDF.

use egui::{Color32, FontFamily, FontId, Pos2, Rect, Stroke as EguiStroke, Vec2};

use crate::export::{self, CardMode, CardOptions, ExportDate, FontStyle, Item, Layout, Page, Rgb};
use crate::rules::{Force, RulesetId};
use crate::store::ForceId;

use super::action::Action;
use super::fonts::{PRINT_BOLD, PRINT_REGULAR};
use super::model::Model;

/// What to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PrintKind {
    #[default]
    Cards,
    Roster,
    Reference,
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
                ..CardOptions::default()
            };
            Ok(export::layout_cards(force, &options, &mut progress)?)
        }
        PrintKind::Roster => {
            let force =
                force.ok_or_else(|| anyhow::anyhow!("Choose a force to print its roster."))?;
            let date = ExportDate::today_utc()
                .ok_or_else(|| anyhow::anyhow!("the system clock is wrong"))?;
            Ok(export::layout_roster(
                force,
                &settings.page,
                date,
                &mut progress,
            )?)
        }
        PrintKind::Reference => {
            let force = force.filter(|f| settings.only_used && f.ruleset == settings.ruleset);
            Ok(export::layout_reference(
                settings.ruleset,
                force,
                &settings.page,
                &mut progress,
            )?)
        }
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
                ui.add_space(40.0);
                ui.vertical_centered(|ui| ui.label(message.as_str()));
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
                    ui.colored_label(Color32::from_rgb(200, 140, 0), format!("⚠ {warning}"));
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
    ui.horizontal(|ui| {
        ui.selectable_value(&mut s.kind, PrintKind::Cards, "Unit cards");
        ui.selectable_value(&mut s.kind, PrintKind::Roster, "Roster");
        ui.selectable_value(&mut s.kind, PrintKind::Reference, "Quick reference");
    });
    ui.separator();
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
        ui.checkbox(&mut s.backs, "Card backs for duplex printing");
    }
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
    ui.separator();
    if ui.button("Export PDF…").clicked() {
        actions.push(Action::ExportPdfDialog);
    }
}

fn color(rgb: Rgb) -> Color32 {
    Color32::from_rgb(rgb.r, rgb.g, rgb.b)
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
    painter.rect_filled(response.rect, 0.0, Color32::WHITE);
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
            Item::Line {
                x1,
                y1,
                x2,
                y2,
                stroke,
            } => {
                let width = (stroke.width_pt * MM_PER_PT * scale).max(0.5);
                painter.line_segment(
                    [at(*x1, *y1), at(*x2, *y2)],
                    EguiStroke::new(width, color(stroke.color)),
                );
            }
            Item::Text(run) => {
                let size_mm = run.size_pt * MM_PER_PT;
                let ascent = export::ascent(run.style).unwrap_or(0.8);
                let family = match run.style {
                    FontStyle::Regular => PRINT_REGULAR,
                    FontStyle::Bold => PRINT_BOLD,
                };
                painter.text(
                    at(run.x, run.baseline - ascent * size_mm),
                    egui::Align2::LEFT_TOP,
                    &run.text,
                    FontId::new(size_mm * scale, FontFamily::Name(family.into())),
                    color(run.color),
                );
            }
        }
    }
}

/// The PDF bytes of the current layout.
pub fn pdf_bytes(state: &mut PrintState, model: &Model) -> anyhow::Result<Vec<u8>> {
    let subject = match state.settings.kind {
        PrintKind::Cards => "unit cards",
        PrintKind::Roster => "force roster",
        PrintKind::Reference => "quick reference",
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
