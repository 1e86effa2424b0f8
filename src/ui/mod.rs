//! The desktop window. Views read state and return [`Action`]s; [`App::apply`] is the one
//! place state changes, through the [`model::Model`] that talks to the store.

mod action;
mod army_report;
mod board_tracker;
mod campaign;
mod card_editor;
mod card_preview;
mod crash_notice;
mod drafts;
mod event_log;
mod fonts;
mod forces;
mod frame_log;
mod history;
mod just_done;
mod library;
pub mod model;
mod print;
pub mod recovery;
mod resolve;
mod start;
pub mod theme;
mod widget_log;
mod widgets;

mod help;
mod league;
mod league_read;
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
pub use crash_notice::{CrashNotice, CrashNoticeAction};
pub use forces::{ForcesState, NewForceDraft, PasteDraft};
pub use league::{LeagueShown, LeagueState};
pub use league_read::{LeagueDone, LeagueFeed, LeagueRead};
pub use library::{LibraryAction, LibraryState, LibraryView, SortColumn};
pub use model::{CampaignCommand, CardEntry, CardKey, Command, FOLDER_LOOK_EVERY, Facets, Model};

/// The machine name [`App::for_tests`] records on.
pub const TEST_MACHINE: &str = "test machine";

/// The seed of [`App::for_tests`]'s time and chance ([`crate::store::Store::repeatable`]).
pub const TEST_SEED: u64 = 1944;
pub use print::{PrintKind, PrintSettings, PrintState};
pub use resolve::{Form as ResolveForm, ResolveAction, ResolveState, RollEntry, Subject};
pub use widget_log::{WidgetLog, widget_table};

/// How the window is launched.
#[derive(Debug, Clone, Default)]
pub struct Launch {
    /// Close after this many frames (smoke tests under Xvfb).
    pub frames: Option<u64>,
    /// Where the database lives; the platform default when `None`.
    pub data_dir: Option<PathBuf>,
    /// Write each frame's time here (`--frame-log`), for measuring the real window.
    pub frame_log: Option<PathBuf>,
    /// Write the labelled widgets on screen and where they are here (`--widget-log`), for
    /// scripts that click the real window by label.
    pub widget_log: Option<PathBuf>,
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
    /// Large type and spacing for a laptop read from the end of the table (View › Table mode).
    pub table_mode: bool,
    /// The start card was put away before the first force or campaign was made.
    pub start_card_hidden: bool,
    pub library: LibraryState,
    /// The force and campaign open when the app last closed, reopened at start.
    pub open_force: Option<ForceId>,
    pub open_campaign: Option<CampaignId>,
    /// The printer last chosen in the Print view.
    pub printer: String,
    /// Each printer's back offset, as read off its calibration sheet.
    pub back_offsets: std::collections::BTreeMap<String, crate::export::BackOffset>,
}

/// The whole app.
pub struct App {
    pub prefs: Prefs,
    pub model: Model,
    pub forces: ForcesState,
    pub print: PrintState,
    pub resolve: ResolveState,
    pub campaign: campaign::CampaignViewState,
    pub league: LeagueState,
    pub card_editor: Option<CardEditor>,
    pub path_prompt: Option<PathPrompt>,
    pub show_shortcuts: bool,
    pub help: Option<HelpPage>,
    pub show_notice_log: bool,
    pub notice_timers: NoticeTimers,
    /// Set by File › Quit; the window closes at the end of the frame.
    pub quit_requested: bool,
    /// Closing was asked for while a dialog held typed text: which one, while the user is
    /// asked whether to close anyway.
    pub confirm_close: Option<&'static str>,
    /// Native dialogs are skipped in tests and when none can appear.
    pub native_dialogs: bool,
    /// Last run's crash report, until the user dismisses the notice.
    pub crash_notice: Option<CrashNotice>,
    frames_left: Option<u64>,
    frame_log: Option<frame_log::FrameLog>,
    focus_search: bool,
    fonts_installed: bool,
    /// The widget the last single click landed on: a double click's second click on another
    /// widget (what came under the pointer after the first) never acts.
    first_click: Option<egui::Id>,
}

/// The keyboard shortcuts, shown in Help › Shortcuts.
pub const SHORTCUTS: [(&str, &str); 12] = [
    ("Ctrl+N", "New force"),
    ("Ctrl+F", "Search the library"),
    ("Delete", "Remove the selected unit"),
    ("Ctrl+P", "Open Print"),
    ("Ctrl+Z", "Undo"),
    ("Ctrl+Shift+Z / Ctrl+Y", "Redo"),
    (
        "Ctrl+1 … Ctrl+6",
        "Library, Forces, Resolve, Campaign, Print, League",
    ),
    ("Ctrl+T", "Table mode: large type for the end of the table"),
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
        // A thread that cannot start leaves the parse to the first preview, as before.
        let _ = std::thread::Builder::new()
            .name("fonts".into())
            .spawn(crate::export::fonts::prepare);
        model.reopen(prefs.open_force, prefs.open_campaign);
        let mut print = PrintState::default();
        print.settings.printer = prefs.printer.clone();
        print.settings.back_offset = prefs
            .back_offsets
            .get(&prefs.printer)
            .copied()
            .unwrap_or_default();
        let crash_notice = model
            .store_path()
            .and_then(std::path::Path::parent)
            .and_then(CrashNotice::load);
        App {
            prefs,
            model,
            forces: ForcesState::default(),
            print,
            resolve: ResolveState::default(),
            campaign: campaign::CampaignViewState::default(),
            league: LeagueState::default(),
            card_editor: None,
            path_prompt: None,
            show_shortcuts: false,
            help: None,
            show_notice_log: false,
            notice_timers: NoticeTimers::default(),
            quit_requested: false,
            confirm_close: None,
            native_dialogs: true,
            crash_notice,
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
            first_click: None,
            fonts_installed: false,
        }
    }

    /// An app over an in-memory store with no native dialogs, recording on [`TEST_MACHINE`]:
    /// for tests.
    pub fn for_tests() -> Result<Self> {
        let mut store = Store::open_in_memory()?;
        // Tests see the same page on every machine: the log's "on <machine>" is not the host
        // name of whichever computer runs them.
        store.set_setting(crate::store::SETTING_MACHINE_NAME, TEST_MACHINE)?;
        // Nor do their dice follow a random id: time and chance are fixed.
        store.repeatable(TEST_SEED);
        let mut app = App::new(Model::new(store), Prefs::default(), &Launch::default());
        app.native_dialogs = false;
        Ok(app)
    }

    /// Applies one action.
    pub fn apply(&mut self, action: Action) {
        crate::crash::note(action.kind());
        match action {
            Action::Navigate(view) => self.prefs.view = view,
            Action::SetTheme(theme) => self.prefs.theme = theme,
            Action::SetTableMode(on) => self.prefs.table_mode = on,
            Action::HideStartCard => self.prefs.start_card_hidden = true,
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
                        | Command::ImportList(_)
                        | Command::Reprice(_)
                );
                // The New force dialog closes when its force is made, not when its button is
                // drawn clicked: a click the double-click guard held back leaves it open, its
                // typed name kept.
                let makes_new = matches!(
                    command,
                    Command::NewForce { .. } | Command::NewFromBriefing(_)
                );
                let note = self
                    .frame_log
                    .is_some()
                    .then(|| frame_log::applied_note(&command));
                let revision = self.model.revision();
                self.model.apply(command);
                // Only what was done is noted: a refused command leaves the data as it was.
                if let (Some(log), Some(note)) = (&mut self.frame_log, note)
                    && self.model.revision() != revision
                {
                    log.applied(&note);
                }
                if makes_new {
                    self.forces.new_force = None;
                }
                if navigates {
                    self.prefs.view = View::Forces;
                    self.forces.selected_unit = None;
                }
            }
            Action::ImportDialog => self.import_dialog(),
            Action::ArmyDataDialog => self.army_data_dialog(),
            Action::ExportDialog(id) => self.export_dialog(id),
            Action::PathPrompt(prompt) => self.path_prompt = prompt,
            Action::ShowShortcuts(show) => self.show_shortcuts = show,
            Action::NewForceDialog => {
                self.prefs.view = View::Forces;
                self.forces.new_force = Some(NewForceDraft::default());
            }
            Action::EditCard(editor) => self.card_editor = editor,
            Action::PrintPage(index) => self.print.page_index = index,
            Action::ChoosePrinter(name) => {
                self.print.settings.back_offset = self
                    .prefs
                    .back_offsets
                    .get(&name)
                    .copied()
                    .unwrap_or_default();
                self.print.settings.printer = name.clone();
                self.prefs.printer = name;
            }
            Action::SetBackOffset(offset) => {
                let offset = offset.checked().unwrap_or_default();
                self.print.settings.back_offset = offset;
                self.prefs
                    .back_offsets
                    .insert(self.print.settings.printer.clone(), offset);
            }
            Action::ExportPdfDialog => self.export_pdf_dialog(),
            Action::WritePdf(path) => self.write_pdf(&path),
            Action::Resolve(action) => self.resolve.apply(action),
            Action::Help(page) => self.help = page,
            Action::ShowNoticeLog(show) => self.show_notice_log = show,
            Action::PickShareFolder => self.pick_share_folder(),
            Action::PickLeagueFolder => self.pick_league_folder(),
            Action::ReadLeague(folder) => self.read_league(folder),
            Action::CrashNotice(done) => self.crash_notice_done(done),
            Action::Notice(text) => self.model.info(text),
            Action::AskDeleteForce(id) => {
                let campaigns = self.model.campaigns_using(id);
                if campaigns.is_empty() {
                    self.apply(Action::Model(Command::Delete(id)));
                } else {
                    self.forces.confirm_delete = Some((id, campaigns));
                }
            }
            Action::Quit => match self.unsaved_dialog_text() {
                Some(what) => self.confirm_close = Some(what),
                None => self.quit_requested = true,
            },
            Action::ConfirmQuit(close) => {
                self.confirm_close = None;
                self.quit_requested = close;
            }
        }
    }

    /// The dialog or field holding text the user typed that closing would lose, if any.
    pub fn unsaved_dialog_text(&self) -> Option<&'static str> {
        let typed = |text: &str| !text.trim().is_empty();
        if self.forces.paste.as_ref().is_some_and(|p| typed(&p.text)) {
            Some("The Paste list dialog")
        } else if self
            .forces
            .new_force
            .as_ref()
            .is_some_and(|d| typed(&d.name))
        {
            Some("The New force dialog")
        } else if self.card_editor.is_some() {
            Some("The card editor")
        } else if matches!(&self.path_prompt, Some(PathPrompt::Import(text) | PathPrompt::ArmyData(text)) if typed(text))
        {
            Some("The file path box")
        } else if self.campaign.sharing && typed(&self.campaign.share_path) {
            Some("The Share panel")
        } else if !self.forces.drafts.is_empty() {
            Some("A field you are typing in")
        } else {
            None
        }
    }

    /// The user copied the report, opened its folder or dismissed the notice: either way they
    /// have been told, so the next start does not tell them again.
    fn crash_notice_done(&mut self, done: CrashNoticeAction) {
        let Some(notice) = &self.crash_notice else {
            return;
        };
        if let Some(newest) = notice.newest()
            && let Err(error) = crate::crash::mark_seen(&notice.data_dir, newest)
        {
            self.model
                .error(format!("cannot note that the report was seen: {error}"));
        }
        let folder = crate::crash::reports_dir(&notice.data_dir);
        match done {
            CrashNoticeAction::Copied => self
                .model
                .info("Report copied: paste it into a message to whoever helps you"),
            CrashNoticeAction::OpenFolder => {
                if !(self.native_dialogs && crash_notice::open_folder(&folder)) {
                    self.model
                        .info(format!("The reports are in {}", folder.display()));
                }
            }
            CrashNoticeAction::Dismiss => self.crash_notice = None,
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

    fn pick_league_folder(&mut self) {
        let picked = self.native_dialogs.then(|| {
            rfd::FileDialog::new()
                .set_title("The club's folder of campaigns")
                .pick_folder()
        });
        match picked.flatten() {
            Some(path) => {
                self.league.folder = path.display().to_string();
                self.read_league(path);
            }
            // No dialog here (or it was cancelled): the typed path field stays.
            None => self.model.info(
                "No folder dialog is available here: type the folder's path in the Folder field",
            ),
        }
    }

    /// The League view's folder the first time it opens: the open campaign's shared folder,
    /// read at once; otherwise the field stays empty for the user to fill.
    fn league_default_folder(&mut self) -> Option<Action> {
        if std::mem::replace(&mut self.league.defaulted, true) || !self.league.folder.is_empty() {
            return None;
        }
        let shared = self.model.campaign.as_ref()?.shared.clone()?;
        self.league.folder = shared.display().to_string();
        Some(Action::ReadLeague(shared))
    }

    /// Starts reading the club's folder (read only) for the League view, in the background;
    /// a read already under way is left to finish (one at a time).
    fn read_league(&mut self, folder: PathBuf) {
        if self.league.reading.is_some() {
            return;
        }
        let cache = std::mem::take(&mut self.league.cache);
        let saved = if cache.is_empty() {
            self.league.kept = self.model.saved_league();
            self.league.kept.clone()
        } else {
            None
        };
        let wake = self.model.waker();
        self.league.reading = Some(LeagueRead::start(folder, cache, saved, wake));
    }

    /// Takes the League's read once it is done; returns whether it arrived now. Called after
    /// the views are drawn, so the frame after a read starts always shows it begun.
    fn poll_league(&mut self) -> bool {
        let Some(done) = self.league.reading.as_ref().and_then(LeagueRead::poll) else {
            return false;
        };
        self.league.reading = None;
        match done {
            Ok(LeagueDone {
                folder,
                read,
                cache,
                saved,
            }) => {
                self.league.cache = cache;
                if self.league.kept.as_ref() != Some(&saved) {
                    self.model.keep_league(&saved);
                    self.league.kept = Some(saved);
                }
                match read {
                    Ok((league, skipped, files_read)) => {
                        self.league.error = None;
                        self.league.shown = Some(LeagueShown {
                            league,
                            skipped,
                            folder,
                            files_read,
                        });
                    }
                    Err(e) => {
                        self.league.error = Some(format!("The league cannot be drawn: {e}"));
                        self.league.shown = None;
                    }
                }
            }
            Err(e) => self.league.error = Some(format!("The league cannot be drawn: {e}")),
        }
        true
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

    /// A BattleScribe data folder to import; a typed path (a folder or a file) without a dialog.
    fn army_data_dialog(&mut self) {
        let picked = self.native_dialogs.then(|| {
            rfd::FileDialog::new()
                .set_title("Import BattleScribe data (the folder of .gst and .cat files)")
                .pick_folder()
        });
        match picked.flatten() {
            Some(path) => self.apply(Action::Model(Command::ImportArmyData(vec![path]))),
            None => self.path_prompt = Some(PathPrompt::ArmyData(String::new())),
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
            self.fonts_installed = true;
        }
        theme::apply(ui.ctx(), self.prefs.theme, self.prefs.table_mode);
        if self.model.poll_background() {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(100));
        }
        // Another machine's events appear without pressing Sync: a watcher thread wakes the
        // window when the shared folder changes.
        if !self.model.has_waker() {
            let ctx = ui.ctx().clone();
            self.model.set_waker(move || ctx.request_repaint());
        }
        if let Some(again) = self.model.poll_folder() {
            ui.ctx().request_repaint_after(again);
        }
        let mut actions = self.shortcuts(ui.ctx());
        actions.extend(self.top_bar(ui));
        if let Some(notice) = &self.crash_notice {
            actions.extend(notice.ui(ui));
        }
        actions.extend(self.status_bar(ui));
        actions.extend(notices::show(ui, &self.model, &mut self.notice_timers));
        if self.prefs.view == View::Library
            && start::wanted(&self.model, self.prefs.start_card_hidden)
        {
            actions.extend(start::card(ui));
        }
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
            View::League => {
                actions.extend(self.league_default_folder());
                actions.extend(league::ui(&mut self.league, ui));
            }
        }
        if let Some(editor) = &mut self.card_editor {
            actions.extend(editor.window(ui.ctx()));
        }
        if let Some(prompt) = &mut self.path_prompt {
            actions.extend(path_prompt_window(ui.ctx(), prompt));
        }
        if let Some(report) = &self.model.army_report {
            actions.extend(army_report::window(ui.ctx(), report));
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
        if let Some(what) = self.confirm_close {
            actions.extend(confirm_close_window(ui.ctx(), what));
        }
        // One guard for the whole window: the second (or third) click of a double click never
        // records, creates or deletes, whatever came under the pointer after the first (a
        // drop-down closing onto a button, a button the first click moved or re-enabled).
        let clicked = ui.ctx().interaction_snapshot(|s| s.clicked);
        if widgets::second_click(ui.ctx()) {
            // Repeating on the same widget is fine for what is meant to repeat (+ a unit three
            // times); nothing acts on a widget the first click did not land on.
            let same = clicked.is_some() && clicked == self.first_click;
            actions.retain(|action| !action.changes_data() || (same && action.repeats()));
        } else if clicked.is_some() {
            self.first_click = clicked;
        }
        // After the views: the frame after a League read starts always shows it begun.
        let league_arrived = self.poll_league();
        for action in actions {
            self.apply(action);
        }
        if league_arrived {
            ui.ctx().request_repaint();
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
        if pressed(Modifiers::COMMAND, Key::T) {
            actions.push(Action::SetTableMode(!self.prefs.table_mode));
        }
        for (key, view) in [
            Key::Num1,
            Key::Num2,
            Key::Num3,
            Key::Num4,
            Key::Num5,
            Key::Num6,
        ]
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
                ui.menu_button("View", |ui| actions.extend(self.view_menu(ui)));
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

    /// The View menu: light, dark or the system's look, and table mode.
    fn view_menu(&self, ui: &mut egui::Ui) -> Vec<Action> {
        let mut actions = Vec::new();
        for (theme, label) in [
            (Theme::System, "Follow system"),
            (Theme::Light, "Light"),
            (Theme::Dark, "Dark"),
        ] {
            if ui.radio(self.prefs.theme == theme, label).clicked() {
                actions.push(Action::SetTheme(theme));
            }
        }
        ui.separator();
        let mut table_mode = self.prefs.table_mode;
        if ui
            .checkbox(&mut table_mode, "Table mode")
            .on_hover_text(
                "Large type and spacing, to read the laptop from the end of the table (Ctrl+T)",
            )
            .changed()
        {
            actions.push(Action::SetTableMode(table_mode));
        }
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
                // Words only, no spinner: the count moves on at each of the frames the load asks
                // for, and an animation would take a software-drawn window's core from it.
                if let Some((decoded, total)) = self.model.card_loading() {
                    ui.label(
                        egui::RichText::new(format!("Loading custom cards: {decoded} of {total}…"))
                            .small(),
                    );
                }
            });
        });
        actions
    }
}

fn path_prompt_window(ctx: &egui::Context, prompt: &mut PathPrompt) -> Vec<Action> {
    let mut actions = Vec::new();
    let (title, verb) = match prompt {
        PathPrompt::Import(_) => ("Import force file", "Import"),
        PathPrompt::Export(..) => ("Export force file", "Export"),
        PathPrompt::Pdf(_) => ("Export PDF", "Save PDF"),
        PathPrompt::ArmyData(_) => ("Import BattleScribe data", "Import"),
    };
    let kind = prompt.clone();
    let hint = match prompt {
        PathPrompt::ArmyData(_) => "/path/to/BattleScribe data folder (or a .cat, .gstz…)",
        _ => "/path/to/force.json",
    };
    let text = match prompt {
        PathPrompt::Import(text)
        | PathPrompt::Export(_, text)
        | PathPrompt::Pdf(text)
        | PathPrompt::ArmyData(text) => text,
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
                            .hint_text(hint),
                    )
                    .labelled_by(label.id)
                })
                .inner;
            // The box opens with the keyboard in it, so Enter writes at once.
            if ui.ctx().memory(|m| m.focused().is_none()) {
                response.request_focus();
            }
            // An empty path names no file: the verb waits for one rather than report
            // "nothing imported — : not a BattleScribe file".
            let typed = !text.trim().is_empty();
            let submit = typed
                && (response.has_focus() || response.lost_focus())
                && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ui.horizontal(|ui| {
                let button = ui
                    .add_enabled(typed, egui::Button::new(verb))
                    .on_disabled_hover_text("Type the path first");
                if button.clicked() || submit {
                    let path = PathBuf::from(text.trim());
                    actions.push(Action::PathPrompt(None));
                    actions.push(match kind {
                        PathPrompt::Export(id, _) => Action::Model(Command::Export { id, path }),
                        PathPrompt::Import(_) => Action::Model(Command::Import(path)),
                        PathPrompt::Pdf(_) => Action::WritePdf(path),
                        PathPrompt::ArmyData(_) => {
                            Action::Model(Command::ImportArmyData(vec![path]))
                        }
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

/// "Close Quartermaster?" when a dialog holds typed text; Keep working is where the pointer
/// was (the close button is far from the dialog), Close anyway is set apart.
fn confirm_close_window(ctx: &egui::Context, what: &str) -> Vec<Action> {
    let mut actions = Vec::new();
    let escape = widgets::escape_closes_dialog(ctx);
    egui::Modal::new(egui::Id::unique("confirm_close")).show(ctx, |ui| {
        ui.heading("Close Quartermaster?");
        ui.label(format!(
            "{what} holds text you typed that is not saved; closing loses it."
        ));
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button("Keep working").clicked() || escape {
                actions.push(Action::ConfirmQuit(false));
            }
            ui.add_space(40.0);
            if ui.button("Close anyway").clicked() {
                actions.push(Action::ConfirmQuit(true));
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
/// The file in the data folder that keeps the window's size and the [`Prefs`] (eframe writes
/// it at quit and every 30 s).
pub const PREFS_FILE: &str = "app.ron";

/// What is said when there is no display to open the window on.
pub const NO_DISPLAY: &str = "no display found: the window needs X11 or Wayland; every command works without one — `quartermaster --help`";

/// The window's options for the data folder `data_dir`: its preferences go to
/// `data_dir/app.ron`. eframe 0.37 takes this as the file to write, not a folder: given the
/// folder it failed at quit (EISDIR) and nothing was ever kept.
pub fn native_options(data_dir: &std::path::Path) -> eframe::NativeOptions {
    eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Quartermaster")
            .with_app_id("quartermaster")
            .with_icon(app_icon())
            .with_inner_size([1200.0, 780.0])
            .with_min_inner_size([720.0, 480.0]),
        persist_window: true,
        // Window size and preferences belong with the data they describe (a second data
        // folder gets its own), not in one place per user.
        persistence_path: Some(data_dir.join(PREFS_FILE)),
        ..Default::default()
    }
}

/// The preferences kept in `storage` (the defaults when there are none or they do not read).
pub fn load_prefs(storage: Option<&dyn eframe::Storage>) -> Prefs {
    storage
        .and_then(|s| eframe::get_value(s, PREFS_KEY))
        .unwrap_or_default()
}

/// False on Linux and the BSDs when neither X11 nor Wayland is there to open a window on
/// (macOS and Windows always have their own).
fn display_available() -> bool {
    if cfg!(any(target_os = "macos", windows)) {
        return true;
    }
    ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"]
        .iter()
        .any(|name| std::env::var_os(name).is_some_and(|v| !v.is_empty()))
}

/// An error from the windowing libraries without the source paths of the machine that built
/// the program ("os error at /home/…/winit-0.30/src/…rs:772: …"), which mean nothing to a user.
fn without_source_paths(text: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    for word in text.split(' ') {
        if word.contains(".rs:") {
            if words.last().is_some_and(|w| w == "at") {
                words.pop();
            }
            // "…mod.rs:772:" ended a clause: keep its colon on the word before.
            if word.ends_with(':')
                && let Some(last) = words.last_mut()
            {
                last.push(':');
            }
            continue;
        }
        words.push(word.to_string());
    }
    words.join(" ")
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let view_started = std::time::Instant::now();
        self.show(ui);
        if let Some(log) = &mut self.frame_log {
            log.record(
                frame.info().cpu_usage,
                self.model.card_loading().is_some(),
                self.model.campaign_opening().is_some(),
                self.model.army_importing().is_some(),
                self.league.reading.is_some(),
                view_started.elapsed(),
            );
        }
        // The window's own close button: held back, like File › Quit, while a dialog holds
        // typed text (a smoke run's last frame and a confirmed quit close regardless).
        let closing = ui.ctx().input(|i| i.viewport().close_requested());
        let ours = self.quit_requested || self.frames_left == Some(0);
        if closing
            && !ours
            && let Some(what) = self.unsaved_dialog_text()
        {
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.confirm_close = Some(what);
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
    if !display_available() {
        anyhow::bail!(NO_DISPLAY);
    }
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
    let options = native_options(&data_dir);
    eframe::run_native(
        "Quartermaster",
        options,
        Box::new(move |cc| {
            if let Some(path) = &launch.widget_log {
                cc.egui_ctx.add_plugin(WidgetLog::new(path));
            }
            let prefs = load_prefs(cc.storage);
            let opened = opening
                .join()
                .unwrap_or_else(|_| Err(anyhow!("opening the database stopped unexpectedly")));
            Ok(Box::new(recovery::Start::new(
                opened, &data_dir, prefs, launch,
            )))
        }),
    )
    .map_err(|e| {
        anyhow!(
            "could not open the window: {}",
            without_source_paths(&e.to_string())
        )
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preferences_are_a_file_inside_the_data_folder() {
        let dir = std::path::Path::new("/tmp/qm-data");
        let options = native_options(dir);
        assert_eq!(options.persistence_path, Some(dir.join("app.ron")));
        assert!(options.persist_window, "the window's size is kept too");
    }

    #[test]
    fn window_errors_lose_the_builders_source_paths() {
        let raw = "Winit error: os error at /root/.cargo/registry/src/index/winit-0.30.13/src/platform_impl/linux/mod.rs:772: neither WAYLAND_DISPLAY nor DISPLAY is set";
        assert_eq!(
            without_source_paths(raw),
            "Winit error: os error: neither WAYLAND_DISPLAY nor DISPLAY is set"
        );
    }
}
