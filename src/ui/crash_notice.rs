//! The notice of last run's crash: the window says a report was left in the data folder and
//! offers to copy it (to paste into a message) or open its folder. The report never leaves the
//! machine unless the user sends it.

use std::path::{Path, PathBuf};

use super::action::Action;

/// What the user did with the notice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrashNoticeAction {
    /// The report's text went to the clipboard.
    Copied,
    /// Show the reports folder in the file manager.
    OpenFolder,
    /// Take the notice away.
    Dismiss,
}

/// The reports written since the user was last told, and the newest one's text.
#[derive(Debug, Clone, PartialEq)]
pub struct CrashNotice {
    pub data_dir: PathBuf,
    /// Newest first.
    pub reports: Vec<PathBuf>,
    /// The newest report, as written.
    pub text: String,
}

impl CrashNotice {
    /// The notice for `data_dir`, when it holds reports the user has not been told about.
    pub fn load(data_dir: &Path) -> Option<Self> {
        let reports = crate::crash::unseen_reports(data_dir);
        let newest = reports.first()?;
        let text = std::fs::read_to_string(newest).unwrap_or_default();
        Some(Self {
            data_dir: data_dir.to_path_buf(),
            reports,
            text,
        })
    }

    /// The newest report's file.
    pub fn newest(&self) -> Option<&Path> {
        self.reports.first().map(PathBuf::as_path)
    }

    /// A band across the window: what happened, where the report is, and the three buttons.
    pub fn ui(&self, ui: &mut egui::Ui) -> Vec<Action> {
        let Self { reports, text, .. } = self;
        let mut actions = Vec::new();
        let Some(newest) = reports.first() else {
            return actions;
        };
        let when = super::recovery::taken_from_name(newest).unwrap_or_default();
        egui::Panel::top("crash_notice").show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.colored_label(
                    super::theme::tokens(ui).warning(),
                    format!(
                        "Quartermaster stopped unexpectedly last time ({when}). A report was saved on this computer — nothing was sent: {}",
                        newest.display()
                    ),
                );
                if reports.len() > 1 {
                    ui.weak(format!("({} reports since last told)", reports.len()));
                }
            });
            ui.horizontal(|ui| {
                if ui
                    .button("Copy report")
                    .on_hover_text("Copy the report's text, to paste into a message to whoever helps you")
                    .clicked()
                {
                    ui.ctx().copy_text(text.clone());
                    actions.push(Action::CrashNotice(CrashNoticeAction::Copied));
                }
                if ui.button("Open folder").clicked() {
                    actions.push(Action::CrashNotice(CrashNoticeAction::OpenFolder));
                }
                if ui.button("Dismiss").clicked() {
                    actions.push(Action::CrashNotice(CrashNoticeAction::Dismiss));
                }
            });
        });
        actions
    }
}

/// Shows `dir` in the system's file manager; false when no opener could be started.
pub fn open_folder(dir: &Path) -> bool {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    std::process::Command::new(opener)
        .arg(dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .is_ok()
}
