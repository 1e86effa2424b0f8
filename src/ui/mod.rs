//! The desktop window. Views read state and return [`Action`]s; [`App::apply`] is the one
//! place state changes, through the [`model::Model`] that talks to the store.

mod action;
mod campaign;
mod card_editor;
mod card_preview;
mod fonts;
mod forces;
mod frame_log;
mod history;
mod library;
pub mod model;
mod print;
pub mod recovery;
mod resolve;
mod tracker;
mod widgets;

mod help;
mod notices;

use std::path::PathBuf;

use anyhow::{Context, Result, anyhow};
use serde::{Deserialize, Serialize};

use crate::store::{CampaignId, ForceId, Store};

pub use action::{Action, PathPrompt, Theme, View};
pub use help::HelpPage;
pub use notices::NoticeTimers;

pub use campaign::CampaignViewState;
pub use card_editor::CardEditor;
pub use forces::{ForcesState, NewForceDraft};
pub use library::{LibraryAction, LibraryState, LibraryView, SortColumn};
pub use model::{CampaignCommand, CardEntry, CardKey, Command, Facets, Model};
pub use print::{PrintKind, PrintSettings, PrintState};
pub use resolve::{Form as ResolveForm, ResolveAction, ResolveState, RollEntry, Subject};
pub use tracker::TrackerState;

/// How the window is launched.
#[derive(Debug, Clone, Default)]
pub struct Launch {
    /// Close after this many frames (smoke tests under Xvfb).
    pub frames: Option<u64>,
    /// Where the database lives; the platform default when `None`.
    pub data_dir: Option<PathBuf>,
    /// Write each frame's time here (`--frame-log`), for measuring the real window.
    pub frame_log: Option<PathBuf>,
    /// When the program began opening the library: frame times in the log count from here.
    pub started: Option<std::time::Instant>,
}

/// What is remembered between runs in eframe's storage (layout and preferences only; data
/// lives in SQLite).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Prefs {
    pub view: View,
    pub theme: Theme,
    pub library: LibraryState,
    /// The force and campaign open when the app last closed, reopened at start.
    pub open_force: Option<ForceId>,
    pub open_campaign: Option<CampaignId>,
}

/// The whole app.
pub struct App {
    pub prefs: Prefs,
    pub model: Model,
    pub forces: ForcesState,
    pub print: PrintState,
    pub resolve: ResolveState,
    pub campaign: campaign::CampaignViewState,
    pub card_editor: Option<CardEditor>,
    pub path_prompt: Option<PathPrompt>,
    pub show_shortcuts: bool,
    pub help: Option<HelpPage>,
    pub show_notice_log: bool,
    pub notice_timers: NoticeTimers,
    /// Set by File › Quit; the window closes at the end of the frame.
    pub quit_requested: bool,
    /// Native dialogs are skipped in tests and when none can appear.
    pub native_dialogs: bool,
    frames_left: Option<u64>,
    frame_log: Option<frame_log::FrameLog>,
    focus_search: bool,
    fonts_installed: bool,
}

/// The keyboard shortcuts, shown in Help › Shortcuts.
pub const SHORTCUTS: [(&str, &str); 11] = [
    ("Ctrl+N", "New force"),
    ("Ctrl+F", "Search the library"),
    ("Delete", "Remove the selected unit"),
    ("Ctrl+P", "Open Print"),
    ("Ctrl+Z", "Undo"),
    ("Ctrl+Shift+Z / Ctrl+Y", "Redo"),
    (
        "Ctrl+1 … Ctrl+5",
        "Library, Forces, Resolve, Campaign, Print",
    ),
    ("F1", "This list"),
    (
        "Enter",
        "Confirm a dialog; in Add units, add the single match",
    ),
    ("Escape", "Close a dialog without changes"),
    ("Ctrl+Q", "Quit"),
];

impl App {
    pub fn new(mut model: Model, prefs: Prefs, launch: &Launch) -> Self {
        model.reopen(prefs.open_force, prefs.open_campaign);
        App {
            prefs,
            model,
            forces: ForcesState::default(),
            print: PrintState::default(),
            resolve: ResolveState::default(),
            campaign: campaign::CampaignViewState::default(),
            card_editor: None,
            path_prompt: None,
            show_shortcuts: false,
            help: None,
            show_notice_log: false,
            notice_timers: NoticeTimers::default(),
            quit_requested: false,
            native_dialogs: true,
            frames_left: launch.frames,
            frame_log: launch.frame_log.as_deref().and_then(|path| {
                let started = launch.started.unwrap_or_else(std::time::Instant::now);
                frame_log::FrameLog::create(path, started)
                    .inspect_err(|e| {
                        eprintln!("cannot write the frame log {}: {e}", path.display())
                    })
                    .ok()
            }),
            focus_search: false,
            fonts_installed: false,
        }
    }

    /// An app over an in-memory store with no native dialogs: for tests.
    pub fn for_tests() -> Result<Self> {
        let store = Store::open_in_memory()?;
        let mut app = App::new(Model::new(store), Prefs::default(), &Launch::default());
        app.native_dialogs = false;
        Ok(app)
    }

    /// Applies one action.
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::Navigate(view) => self.prefs.view = view,
            Action::SetTheme(theme) => self.prefs.theme = theme,
            Action::Library(action) => self.prefs.library.apply(action),
            // In the Campaign view, undo and redo act on the open battle's log.
            Action::Model(Command::Undo) if self.campaign_active() => {
                self.model.apply(Command::Campaign(CampaignCommand::Undo));
            }
            Action::Model(Command::Redo) if self.campaign_active() => {
                self.model.apply(Command::Campaign(CampaignCommand::Redo));
            }
            Action::Model(command) => {
                let navigates = matches!(
                    command,
                    Command::NewForce { .. }
                        | Command::NewFromBriefing(_)
                        | Command::Open(_)
                        | Command::Duplicate(_)
                        | Command::Import(_)
                );
                self.model.apply(command);
                if navigates {
                    self.prefs.view = View::Forces;
                    self.forces.selected_unit = None;
                }
            }
            Action::ImportDialog => self.import_dialog(),
            Action::ExportDialog(id) => self.export_dialog(id),
            Action::PathPrompt(prompt) => self.path_prompt = prompt,
            Action::ShowShortcuts(show) => self.show_shortcuts = show,
            Action::NewForceDialog => {
                self.prefs.view = View::Forces;
                self.forces.new_force = Some(NewForceDraft::default());
            }
            Action::EditCard(editor) => self.card_editor = editor,
            Action::PrintPage(index) => self.print.page_index = index,
            Action::ExportPdfDialog => self.export_pdf_dialog(),
            Action::WritePdf(path) => self.write_pdf(&path),
            Action::Resolve(action) => self.resolve.apply(action),
            Action::Help(page) => self.help = page,
            Action::ShowNoticeLog(show) => self.show_notice_log = show,
            Action::PickShareFolder => self.pick_share_folder(),
            Action::Quit => self.quit_requested = true,
        }
    }

    /// The prefs to store now: the open force and campaign included.
    pub fn prefs_to_save(&self) -> Prefs {
        Prefs {
            open_force: self.model.open.as_ref().map(|o| o.id),
            open_campaign: self.model.campaign.as_ref().map(|c| c.stored.id),
            ..self.prefs.clone()
        }
    }

    fn campaign_active(&self) -> bool {
        self.prefs.view == View::Campaign && self.model.campaign.is_some()
    }

    fn pick_share_folder(&mut self) {
        let picked = self.native_dialogs.then(|| {
            rfd::FileDialog::new()
                .set_title("Share this campaign to a folder")
                .pick_folder()
        });
        match picked.flatten() {
            Some(path) => self.campaign.share_path = path.display().to_string(),
            // No dialog here (or it was cancelled): the typed path field stays.
            None => self.model.info(
                "No folder dialog is available here: type the folder's path in the Folder field",
            ),
        }
    }

    fn import_dialog(&mut self) {
        let picked = self.native_dialogs.then(|| {
            rfd::FileDialog::new()
                .set_title("Import a force file")
                .add_filter("Force file", &["json"])
                .pick_file()
        });
        match picked.flatten() {
            Some(path) => self.apply(Action::Model(Command::Import(path))),
            // No dialog (or it was cancelled): offer a typed path rather than nothing.
            None => self.path_prompt = Some(PathPrompt::Import(String::new())),
        }
    }

    fn export_dialog(&mut self, id: ForceId) {
        let name = self
            .model
            .forces
            .iter()
            .find(|f| f.id == id)
            .map_or("force".to_string(), |f| f.name.clone());
        let file_name = format!("{}.json", sanitize_file_name(&name));
        let picked = self.native_dialogs.then(|| {
            rfd::FileDialog::new()
                .set_title("Export force file")
                .add_filter("Force file", &["json"])
                .set_file_name(&file_name)
                .save_file()
        });
        match picked.flatten() {
            Some(path) => self.apply(Action::Model(Command::Export { id, path })),
            None => {
                let default = default_export_dir().join(&file_name);
                self.path_prompt = Some(PathPrompt::Export(id, default.display().to_string()));
            }
        }
    }

    fn export_pdf_dialog(&mut self) {
        let file_name = print::file_name(&mut self.print, &self.model);
        let picked = self.native_dialogs.then(|| {
            rfd::FileDialog::new()
                .set_title("Export PDF")
                .add_filter("PDF", &["pdf"])
                .set_file_name(&file_name)
                .save_file()
        });
        match picked.flatten() {
            Some(path) => self.write_pdf(&path),
            None => {
                let default = default_export_dir().join(&file_name);
                self.path_prompt = Some(PathPrompt::Pdf(default.display().to_string()));
            }
        }
    }

    fn write_pdf(&mut self, path: &std::path::Path) {
        let written = print::pdf_bytes(&mut self.print, &self.model).and_then(|bytes| {
            std::fs::write(path, &bytes)
                .with_context(|| format!("cannot write {}", path.display()))?;
            Ok(bytes.len())
        });
        match written {
            Ok(size) => self.model.info(format!(
                "Saved {} ({} KB)",
                path.display(),
                size.div_ceil(1024)
            )),
            Err(error) => self.model.error(format!("PDF not saved: {error:#}")),
        }
    }

    /// Draws the whole window into `ui` and applies what the views asked for.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        if !self.fonts_installed {
            fonts::install(ui.ctx());
            // A blinking cursor repaints the window several times a second for as long as a
            // text field has focus; a steady one costs nothing while the user thinks.
            ui.ctx().all_styles_mut(|style| {
                style.visuals.text_cursor.blink = false;
                // A popup measures itself within this on the frame it opens: egui's 400 points
                // cut the Resolve picker's list of every mechanic short (the screen still
                // bounds it).
                style.spacing.default_area_size.y = 1200.0;
            });
            self.fonts_installed = true;
        }
        apply_theme(ui.ctx(), self.prefs.theme);
        if self.model.poll_background() {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(100));
        }
        let mut actions = self.shortcuts(ui.ctx());
        actions.extend(self.top_bar(ui));
        actions.extend(self.status_bar(ui));
        actions.extend(notices::show(ui, &self.model, &mut self.notice_timers));
        match self.prefs.view {
            View::Library => {
                let focus = std::mem::take(&mut self.focus_search);
                actions.extend(LibraryView::new(&self.prefs.library, &self.model, focus).ui(ui));
            }
            View::Forces => {
                actions.extend(forces::ForcesView::new(&self.model, &mut self.forces).ui(ui))
            }
            View::Resolve => actions.extend(resolve::ui(&mut self.resolve, &self.model, ui)),
            View::Campaign => actions.extend(campaign::ui(&mut self.campaign, &self.model, ui)),
            View::Print => {
                if self.print.settings.force.is_none() {
                    self.print.settings.force = self.model.open.as_ref().map(|o| o.id);
                }
                actions.extend(print::ui(&mut self.print, &self.model, ui));
            }
        }
        if let Some(editor) = &mut self.card_editor {
            actions.extend(editor.window(ui.ctx()));
        }
        if let Some(prompt) = &mut self.path_prompt {
            actions.extend(path_prompt_window(ui.ctx(), prompt));
        }
        if self.show_shortcuts {
            actions.extend(shortcuts_window(ui.ctx()));
        }
        if let Some(page) = self.help {
            actions.extend(help::window(ui.ctx(), page, &self.model));
        }
        if self.show_notice_log {
            actions.extend(notices::log_window(ui.ctx(), &self.model));
        }
        for action in actions {
            self.apply(action);
        }
    }

    fn shortcuts(&mut self, ctx: &egui::Context) -> Vec<Action> {
        use egui::{Key, KeyboardShortcut, Modifiers};
        let mut actions = Vec::new();
        let typing = ctx.memory(|m| m.focused().is_some()) && ctx.egui_wants_keyboard_input();
        let pressed = |m: Modifiers, k: Key| {
            ctx.input_mut(|i| i.consume_shortcut(&KeyboardShortcut::new(m, k)))
        };
        if pressed(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z)
            || pressed(Modifiers::COMMAND, Key::Y)
        {
            actions.push(Action::Model(Command::Redo));
        } else if pressed(Modifiers::COMMAND, Key::Z) {
            actions.push(Action::Model(Command::Undo));
        }
        if pressed(Modifiers::COMMAND, Key::N) {
            actions.push(Action::NewForceDialog);
        }
        if pressed(Modifiers::COMMAND, Key::F) {
            actions.push(Action::Navigate(View::Library));
            self.focus_search = true;
        }
        if pressed(Modifiers::COMMAND, Key::P) {
            actions.push(Action::Navigate(View::Print));
        }
        if pressed(Modifiers::NONE, Key::F1) {
            actions.push(Action::ShowShortcuts(!self.show_shortcuts));
        }
        if pressed(Modifiers::COMMAND, Key::Q) {
            actions.push(Action::Quit);
        }
        for (key, view) in [Key::Num1, Key::Num2, Key::Num3, Key::Num4, Key::Num5]
            .into_iter()
            .zip(View::ALL)
        {
            if pressed(Modifiers::COMMAND, key) {
                actions.push(Action::Navigate(view));
            }
        }
        if !typing
            && self.prefs.view == View::Forces
            && pressed(Modifiers::NONE, Key::Delete)
            && let (Some(open), Some(index)) = (&self.model.open, self.forces.selected_unit)
            && index < open.force.units.len()
        {
            actions.push(forces::remove_unit(&open.force, index));
            self.forces.selected_unit = None;
        }
        actions
    }

    fn top_bar(&self, ui: &mut egui::Ui) -> Vec<Action> {
        let mut actions = Vec::new();
        egui::Panel::top("top_bar").show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.menu_button("File", |ui| {
                    if ui.button("New force…  (Ctrl+N)").clicked() {
                        actions.push(Action::NewForceDialog);
                    }
                    if ui.button("Import force file…").clicked() {
                        actions.push(Action::ImportDialog);
                    }
                    ui.separator();
                    if ui.button("Quit  (Ctrl+Q)").clicked() {
                        actions.push(Action::Quit);
                    }
                });
                ui.menu_button("Edit", |ui| {
                    let undo = self.model.undo_label().map(|l| format!("Undo {l}"));
                    if ui
                        .add_enabled(
                            undo.is_some(),
                            egui::Button::new(undo.unwrap_or("Undo".into())),
                        )
                        .on_hover_text("Ctrl+Z")
                        .clicked()
                    {
                        actions.push(Action::Model(Command::Undo));
                    }
                    let redo = self.model.redo_label().map(|l| format!("Redo {l}"));
                    if ui
                        .add_enabled(
                            redo.is_some(),
                            egui::Button::new(redo.unwrap_or("Redo".into())),
                        )
                        .on_hover_text("Ctrl+Shift+Z / Ctrl+Y")
                        .clicked()
                    {
                        actions.push(Action::Model(Command::Redo));
                    }
                });
                ui.menu_button("View", |ui| {
                    for (theme, label) in [
                        (Theme::System, "Follow system"),
                        (Theme::Light, "Light"),
                        (Theme::Dark, "Dark"),
                    ] {
                        if ui.radio(self.prefs.theme == theme, label).clicked() {
                            actions.push(Action::SetTheme(theme));
                        }
                    }
                });
                ui.menu_button("Help", |ui| {
                    if ui.button("Shortcuts  (F1)").clicked() {
                        actions.push(Action::ShowShortcuts(true));
                    }
                    for page in HelpPage::ALL {
                        if ui.button(page.menu_label()).clicked() {
                            actions.push(Action::Help(Some(page)));
                        }
                    }
                    if ui.button("Past notices").clicked() {
                        actions.push(Action::ShowNoticeLog(true));
                    }
                });
                ui.separator();
                for (index, view) in View::ALL.into_iter().enumerate() {
                    let hint = format!("Ctrl+{}", index + 1);
                    let hint = if view == View::Print {
                        format!("{hint} or Ctrl+P")
                    } else {
                        hint
                    };
                    if ui
                        .selectable_label(self.prefs.view == view, view.title())
                        .on_hover_text(hint)
                        .clicked()
                    {
                        actions.push(Action::Navigate(view));
                    }
                }
            });
        });
        actions
    }

    fn status_bar(&self, ui: &mut egui::Ui) -> Vec<Action> {
        let mut actions = Vec::new();
        egui::Panel::bottom("status").show(ui, |ui| {
            ui.horizontal(|ui| {
                let past = self.model.notice_log.len();
                if past > 0
                    && ui
                        .small_button(format!("Notices ({past})"))
                        .on_hover_text("Every message of this session")
                        .clicked()
                {
                    actions.push(Action::ShowNoticeLog(true));
                }
                let path = self
                    .model
                    .store_path()
                    .map_or("in memory".to_string(), |p| p.display().to_string());
                ui.label(
                    egui::RichText::new(format!("Database: {path}"))
                        .small()
                        .weak(),
                );
                ui.label(
                    egui::RichText::new("· every change is saved at once")
                        .small()
                        .weak(),
                );
                if let Some((decoded, total)) = self.model.card_loading() {
                    ui.spinner();
                    ui.label(
                        egui::RichText::new(format!("Loading custom cards: {decoded} of {total}"))
                            .small(),
                    );
                }
            });
        });
        actions
    }
}

fn apply_theme(ctx: &egui::Context, theme: Theme) {
    let preference = match theme {
        Theme::System => egui::ThemePreference::System,
        Theme::Light => egui::ThemePreference::Light,
        Theme::Dark => egui::ThemePreference::Dark,
    };
    if ctx.options(|o| o.theme_preference) != preference {
        ctx.set_theme(preference);
    }
}

fn path_prompt_window(ctx: &egui::Context, prompt: &mut PathPrompt) -> Vec<Action> {
    let mut actions = Vec::new();
    let (title, verb) = match prompt {
        PathPrompt::Import(_) => ("Import force file", "Import"),
        PathPrompt::Export(..) => ("Export force file", "Export"),
        PathPrompt::Pdf(_) => ("Export PDF", "Save PDF"),
    };
    let kind = prompt.clone();
    let text = match prompt {
        PathPrompt::Import(text) | PathPrompt::Export(_, text) | PathPrompt::Pdf(text) => text,
    };
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(
                "No file dialog is available here (or it was cancelled). Type the file's path:",
            );
            let response = ui
                .horizontal(|ui| {
                    let label = ui.label("Path");
                    ui.add(
                        egui::TextEdit::singleline(text)
                            .desired_width(420.0)
                            .hint_text("/path/to/force.json"),
                    )
                    .labelled_by(label.id)
                })
                .inner;
            let submit = response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ui.horizontal(|ui| {
                if ui.button(verb).clicked() || submit {
                    let path = PathBuf::from(text.trim());
                    actions.push(Action::PathPrompt(None));
                    actions.push(match kind {
                        PathPrompt::Export(id, _) => Action::Model(Command::Export { id, path }),
                        PathPrompt::Import(_) => Action::Model(Command::Import(path)),
                        PathPrompt::Pdf(_) => Action::WritePdf(path),
                    });
                }
                if ui.button("Cancel").on_hover_text("Escape").clicked()
                    || ui.input(|i| i.key_pressed(egui::Key::Escape))
                {
                    actions.push(Action::PathPrompt(None));
                }
            });
        });
    actions
}

fn shortcuts_window(ctx: &egui::Context) -> Vec<Action> {
    let mut open = true;
    egui::Window::new("Shortcuts")
        .open(&mut open)
        .collapsible(false)
        .show(ctx, |ui| {
            egui::Grid::new("shortcuts")
                .num_columns(2)
                .striped(true)
                .show(ui, |ui| {
                    for (keys, what) in SHORTCUTS {
                        ui.strong(keys);
                        ui.label(what);
                        ui.end_row();
                    }
                });
        });
    if open && !ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
        Vec::new()
    } else {
        vec![Action::ShowShortcuts(false)]
    }
}

pub(crate) fn sanitize_file_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect::<String>()
        .trim()
        .to_string()
}

fn default_export_dir() -> PathBuf {
    directories::UserDirs::new()
        .and_then(|d| d.document_dir().map(PathBuf::from))
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_default()
}

const PREFS_KEY: &str = "quartermaster-prefs";

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        self.show(ui);
        if let Some(log) = &mut self.frame_log {
            log.record(frame.info().cpu_usage, self.model.card_loading().is_some());
        }
        if self.quit_requested {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        if let Some(frames) = &mut self.frames_left {
            if *frames == 0 {
                ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
            } else {
                *frames -= 1;
                // Smoke runs must reach their frame count without input.
                ui.ctx().request_repaint();
            }
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, PREFS_KEY, &self.prefs_to_save());
    }
}

/// Opens the database and the window, and runs until the window closes.
pub fn run(mut launch: Launch) -> Result<()> {
    launch.started.get_or_insert_with(std::time::Instant::now);
    let data_dir = match &launch.data_dir {
        Some(dir) => dir.clone(),
        None => crate::store::default_data_dir()?,
    };
    // The library opens while the window and its GL context are made (each takes about a
    // tenth of a second); a refused library opens the recovery screen, never a black window.
    let opening = {
        let data_dir = data_dir.clone();
        std::thread::spawn(move || {
            Store::open(&data_dir)
                .map(Model::start)
                .with_context(|| format!("cannot open the database in {}", data_dir.display()))
        })
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Quartermaster")
            .with_app_id("quartermaster")
            .with_icon(app_icon())
            .with_inner_size([1200.0, 780.0])
            .with_min_inner_size([720.0, 480.0]),
        persist_window: true,
        // Window size and preferences belong with the data they describe (a second data
        // folder gets its own), not in one place per user.
        persistence_path: Some(data_dir.clone()),
        ..Default::default()
    };
    eframe::run_native(
        "Quartermaster",
        options,
        Box::new(move |cc| {
            let prefs = cc
                .storage
                .and_then(|s| eframe::get_value(s, PREFS_KEY))
                .unwrap_or_default();
            let opened = opening
                .join()
                .unwrap_or_else(|_| Err(anyhow!("opening the database stopped unexpectedly")));
            Ok(Box::new(recovery::Start::new(
                opened, &data_dir, prefs, launch,
            )))
        }),
    )
    .map_err(|e| anyhow!("could not open the window: {e}"))
}

/// A small generated icon: an olive roundel with a white star, no image file needed.
fn app_icon() -> egui::IconData {
    const SIZE: u32 = 64;
    let mut rgba = Vec::with_capacity((SIZE * SIZE * 4) as usize);
    let centre = (SIZE as f32 - 1.0) / 2.0;
    for y in 0..SIZE {
        for x in 0..SIZE {
            let (dx, dy) = (x as f32 - centre, y as f32 - centre);
            let r = (dx * dx + dy * dy).sqrt();
            let angle = dy.atan2(dx) + std::f32::consts::FRAC_PI_2;
            // A five-pointed star: radius alternates between outer and inner points.
            let star = 13.0 + 9.0 * ((angle * 5.0 / 2.0).cos().abs().powf(6.0));
            let pixel = if r <= star {
                [245, 245, 235, 255]
            } else if r <= 30.0 {
                [85, 98, 60, 255]
            } else {
                [0, 0, 0, 0]
            };
            rgba.extend_from_slice(&pixel);
        }
    }
    egui::IconData {
        rgba,
        width: SIZE,
        height: SIZE,
    }
}
