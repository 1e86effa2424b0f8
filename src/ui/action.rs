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
}

impl View {
    pub(super) const ALL: [View; 5] = [
        View::Library,
        View::Forces,
        View::Resolve,
        View::Campaign,
        View::Print,
    ];

    pub(super) fn title(self) -> &'static str {
        match self {
            View::Library => "Library",
            View::Forces => "Forces",
            View::Resolve => "Resolve",
            View::Campaign => "Campaign",
            View::Print => "Print",
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
}

/// Something a view asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Navigate(View),
    SetTheme(Theme),
    Library(LibraryAction),
    Model(Command),
    ImportDialog,
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
    Quit,
}
