//! The window never goes black: when the library cannot be opened (damaged, not a database,
//! from a newer version, a folder that cannot be recovered), the window opens on this screen
//! instead of quitting with a line on stderr nobody sees. It names the file and the whole
//! problem, lists the backups with their dates, and offers the two ways out: restore a backup,
//! or open another data folder.

use std::path::{Path, PathBuf};

use crate::store::{Store, backups_dir};

use super::{App, Launch, Model, Prefs};

/// What the recovery screen asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecoveryAction {
    /// Replace the library with this backup (the refused file is kept aside), then open it.
    Restore(PathBuf),
    /// Open the library in this folder instead (created there if it has none).
    OpenFolder(PathBuf),
    /// Ask for a folder with the system dialog.
    ChooseFolder,
}

/// One backup file as listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupEntry {
    pub path: PathBuf,
    /// "2026-03-14 09:30 UTC", read from the file name the app gave it.
    pub taken: String,
}

/// The screen's state: the refused library and what the user typed or was told.
#[derive(Debug, Clone)]
pub struct RecoveryScreen {
    pub data_dir: PathBuf,
    /// The whole refusal, as the store worded it.
    pub problem: String,
    pub backups: Vec<BackupEntry>,
    /// The folder field for "Open this folder".
    pub folder: String,
    /// What the last attempt said (a failed restore, say).
    pub message: Option<String>,
}

impl RecoveryScreen {
    pub fn new(data_dir: &Path, problem: String) -> Self {
        Self {
            data_dir: data_dir.to_path_buf(),
            problem,
            backups: list_backups(data_dir),
            folder: String::new(),
            message: None,
        }
    }

    /// Draws the screen; returns what the user asked for.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<RecoveryAction> {
        let Self {
            data_dir,
            problem,
            backups,
            folder,
            message,
        } = self;
        let mut action = None;
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.heading("Quartermaster cannot open its library");
            ui.add_space(8.0);
            ui.label(format!(
                "Library: {}",
                data_dir.join(crate::store::DB_FILE_NAME).display()
            ));
            ui.add_space(4.0);
            ui.label(egui::RichText::new("Problem").strong());
            ui.add(
                egui::Label::new(egui::RichText::new(problem.as_str()).color(super::theme::tokens(ui).danger()))
                    .wrap()
                    .selectable(true),
            );
            ui.add_space(12.0);
            ui.label(egui::RichText::new("Backups").strong());
            if backups.is_empty() {
                ui.label(format!(
                    "No backups in {}.",
                    backups_dir(data_dir).display()
                ));
            }
            for backup in backups.iter() {
                ui.horizontal(|ui| {
                    ui.label(&backup.taken);
                    ui.weak(
                        backup
                            .path
                            .file_name()
                            .map(|n| n.to_string_lossy().into_owned())
                            .unwrap_or_default(),
                    );
                    if ui
                        .button("Restore this backup")
                        .on_hover_text(
                            "Replaces the library with this backup; the refused file is kept in backups/",
                        )
                        .clicked()
                    {
                        action = Some(RecoveryAction::Restore(backup.path.clone()));
                    }
                });
            }
            ui.add_space(12.0);
            ui.label(egui::RichText::new("Another data folder").strong());
            ui.horizontal(|ui| {
                let label = ui.label("Folder");
                ui.add(egui::TextEdit::singleline(folder).hint_text("/path/to/folder"))
                    .labelled_by(label.id);
                if ui.button("Open this folder").clicked() && !folder.trim().is_empty() {
                    action = Some(RecoveryAction::OpenFolder(PathBuf::from(folder.trim())));
                }
                if ui.button("Choose another data folder").clicked() {
                    action = Some(RecoveryAction::ChooseFolder);
                }
            });
            if let Some(text) = message.as_deref() {
                ui.add_space(8.0);
                ui.add(
                    egui::Label::new(egui::RichText::new(text).color(super::theme::tokens(ui).danger()))
                        .wrap()
                        .selectable(true),
                );
            }
        });
        action
    }
}

/// The data folder's backups, newest first.
pub fn list_backups(data_dir: &Path) -> Vec<BackupEntry> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(backups_dir(data_dir))
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "sqlite3"))
                .collect()
        })
        .unwrap_or_default();
    // Names start with a sortable UTC time, so name order is time order.
    paths.sort_by_key(|p| std::cmp::Reverse(p.file_name().map(|n| n.to_owned())));
    paths
        .into_iter()
        .map(|path| BackupEntry {
            taken: taken_from_name(&path).unwrap_or_else(|| "date unknown".to_string()),
            path,
        })
        .collect()
}

/// "quartermaster-20260314T093005.123Z-…" → "2026-03-14 09:30 UTC".
pub(crate) fn taken_from_name(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let stamp = name.strip_prefix("quartermaster-")?.get(..15)?;
    let digits = |range: std::ops::Range<usize>| {
        stamp
            .get(range)
            .filter(|s| s.bytes().all(|b| b.is_ascii_digit()))
    };
    Some(format!(
        "{}-{}-{} {}:{} UTC",
        digits(0..4)?,
        digits(4..6)?,
        digits(6..8)?,
        digits(9..11)?,
        digits(11..13)?
    ))
}

/// The window's first state: the app over an open library, or the recovery screen.
// One value per window: the size difference between the two states does not matter.
#[allow(clippy::large_enum_variant)]
pub enum Start {
    Ready(App),
    Recovery {
        screen: RecoveryScreen,
        prefs: Prefs,
        launch: Launch,
        frames_left: Option<u64>,
    },
}

impl Start {
    /// The app when the store opened, else the recovery screen naming why it did not.
    pub fn new(
        opened: anyhow::Result<Model>,
        data_dir: &Path,
        prefs: Prefs,
        launch: Launch,
    ) -> Self {
        match opened {
            Ok(model) => Start::Ready(App::new(model, prefs, &launch)),
            Err(error) => Start::Recovery {
                screen: RecoveryScreen::new(data_dir, format!("{error:#}")),
                frames_left: launch.frames,
                prefs,
                launch,
            },
        }
    }

    /// Draws whichever screen is up and carries out the recovery screen's action.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let Start::Recovery { screen, .. } = self else {
            if let Start::Ready(app) = self {
                app.show(ui);
            }
            return;
        };
        let Some(action) = screen.ui(ui) else {
            return;
        };
        let target = match action {
            RecoveryAction::Restore(backup) => Store::restore(&screen.data_dir, &backup)
                .and_then(|_| Store::open(&screen.data_dir))
                .map_err(anyhow::Error::from),
            RecoveryAction::OpenFolder(dir) => Store::open(&dir).map_err(anyhow::Error::from),
            RecoveryAction::ChooseFolder => {
                match rfd::FileDialog::new()
                    .set_title("Choose a data folder")
                    .pick_folder()
                {
                    Some(dir) => Store::open(&dir).map_err(anyhow::Error::from),
                    None => {
                        screen.message = Some(
                            "No folder dialog appeared (or it was cancelled): type the folder's path and press \"Open this folder\"."
                                .to_string(),
                        );
                        return;
                    }
                }
            }
        };
        match target {
            Ok(store) => {
                let Start::Recovery { prefs, launch, .. } = self else {
                    return;
                };
                let app = App::new(Model::start(store), prefs.clone(), launch);
                *self = Start::Ready(app);
            }
            Err(error) => {
                screen.message = Some(format!("{error:#}"));
                screen.backups = list_backups(&screen.data_dir);
            }
        }
    }
}

impl eframe::App for Start {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let frames_left = match self {
            Start::Ready(app) => return eframe::App::ui(app, ui, frame),
            Start::Recovery { frames_left, .. } => frames_left.as_mut().map(|f| {
                let left = *f;
                *f = f.saturating_sub(1);
                left
            }),
        };
        egui::Frame::central_panel(ui.style()).show(ui, |ui| {
            ui.set_min_size(ui.available_size());
            self.show(ui);
        });
        // Smoke runs (--frames) close the recovery screen too.
        match frames_left {
            Some(0) => ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close),
            Some(_) => ui.ctx().request_repaint(),
            None => {}
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if let Start::Ready(app) = self {
            eframe::App::save(app, storage);
        }
    }
}
