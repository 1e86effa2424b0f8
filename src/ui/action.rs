//! What a view may ask the app to do, and the small vocabulary those requests use. Views
//! return these; only [`super::App::apply`] acts on them, so a view never changes state.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::store::ForceId;

use super::card_editor::CardEditor;
use super::help::HelpPage;
use super::library::LibraryAction;
use super::model::Command;
use super::resolve::ResolveAction;

/// The top-level views.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum View {
    #[default]
    Library,
    Forces,
    Resolve,
    Campaign,
    Print,
    League,
}

impl View {
    pub(super) const ALL: [View; 6] = [
        View::Library,
        View::Forces,
        View::Resolve,
        View::Campaign,
        View::Print,
        View::League,
    ];

    pub(super) fn title(self) -> &'static str {
        match self {
            View::Library => "Library",
            View::Forces => "Forces",
            View::Resolve => "Resolve",
            View::Campaign => "Campaign",
            View::Print => "Print",
            View::League => "League",
        }
    }
}

/// Light, dark, or whatever the system uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Theme {
    #[default]
    System,
    Light,
    Dark,
}

/// A file path the user is asked to type because no native dialog appeared.
#[derive(Debug, Clone, PartialEq)]
pub enum PathPrompt {
    Import(String),
    Export(ForceId, String),
    Pdf(String),
    /// A BattleScribe data folder or file to import.
    ArmyData(String),
}

/// Something a view asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Navigate(View),
    SetTheme(Theme),
    /// Large type and spacing on (View › Table mode, Ctrl+T) or off.
    SetTableMode(bool),
    /// Put the first-run start card away.
    HideStartCard,
    Library(LibraryAction),
    Model(Command),
    ImportDialog,
    /// Pick a BattleScribe data folder to import.
    ArmyDataDialog,
    ExportDialog(ForceId),
    PathPrompt(Option<PathPrompt>),
    ShowShortcuts(bool),
    NewForceDialog,
    EditCard(Option<CardEditor>),
    PrintPage(usize),
    /// The printer backs are printed on, by the name the user gives it: its saved back
    /// offset applies.
    ChoosePrinter(String),
    /// The chosen printer's back offset, as read off the calibration sheet; saved.
    SetBackOffset(crate::export::BackOffset),
    ExportPdfDialog,
    WritePdf(PathBuf),
    Resolve(ResolveAction),
    /// Open a Help page, or close it (`None`).
    Help(Option<HelpPage>),
    ShowNoticeLog(bool),
    /// Pick the folder to share the open campaign to (a native dialog where there is one).
    PickShareFolder,
    /// Pick the club's folder for the League view (a native dialog where there is one).
    PickLeagueFolder,
    /// Read this folder's campaigns (read only) and rank them in the League view.
    ReadLeague(PathBuf),
    /// The answer to "close with unsaved text?": true closes, false keeps working.
    ConfirmQuit(bool),
    /// Tell the user something (a view has no model to tell it to).
    Notice(String),
    /// Delete this force, asking first when a campaign was set up from it.
    AskDeleteForce(ForceId),
    /// What the user did with the notice of last run's crash report.
    CrashNotice(super::crash_notice::CrashNoticeAction),
    Quit,
}

impl Action {
    /// It records, creates or deletes data (a force, a card, a campaign's event): what the
    /// window's double-click guard holds back. Asking (a dialog, a confirmation) does not.
    pub fn changes_data(&self) -> bool {
        match self {
            Action::Model(command) => command.changes_data(),
            Action::WritePdf(_) => true,
            _ => false,
        }
    }

    /// Clicking its button again at once means doing it again (+ a unit three times, a count
    /// stepped): a force edit, undone one by one. Everything else that changes data acts once
    /// per double click.
    pub fn repeats(&self) -> bool {
        matches!(self, Action::Model(Command::Edit { .. }))
    }

    /// What was asked, by name only (no force, card or path), for a crash report's "last
    /// actions".
    pub fn kind(&self) -> String {
        let name = match self {
            Action::Navigate(view) => return format!("Navigate: {}", view.title()),
            Action::SetTheme(_) => "Set theme",
            Action::SetTableMode(_) => "Set table mode",
            Action::HideStartCard => "Hide start card",
            Action::Library(_) => "Library",
            Action::Model(command) => return format!("Model: {}", command.kind()),
            Action::ImportDialog => "Import dialog",
            Action::ArmyDataDialog => "Army data dialog",
            Action::ExportDialog(_) => "Export dialog",
            Action::PathPrompt(_) => "Path prompt",
            Action::ShowShortcuts(_) => "Shortcuts",
            Action::NewForceDialog => "New force dialog",
            Action::EditCard(_) => "Card editor",
            Action::PrintPage(_) => "Print page",
            Action::ExportPdfDialog => "Export PDF dialog",
            Action::WritePdf(_) => "Write PDF",
            Action::Resolve(_) => "Resolve",
            Action::Help(_) => "Help",
            Action::ShowNoticeLog(_) => "Notice log",
            Action::PickShareFolder => "Pick share folder",
            Action::PickLeagueFolder => "Pick league folder",
            Action::ReadLeague(_) => "Read league folder",
            Action::CrashNotice(_) => "Crash notice",
            Action::AskDeleteForce(_) => "Delete force",
            Action::Notice(_) => "Notice",
            Action::ConfirmQuit(_) => "Confirm quit",
            Action::ChoosePrinter(_) => "Choose printer",
            Action::SetBackOffset(_) => "Set back offset",
            Action::Quit => "Quit",
        };
        name.to_string()
    }
}
