//! Printing: unit cards, force rosters, quick-reference sheets and campaign after-action
//! reports as PDF.
//!
//! Every export is two steps. A layout function (`layout_cards`, `layout_roster`,
//! `layout_reference`, `layout_after_action`) turns rules data and a template into a [`Layout`] — pages of
//! positioned rectangles, lines and text in millimetres — which the UI can draw as a print
//! preview. [`write_pdf`] turns the same layout into PDF bytes. The `export_*` functions do
//! both for the command line. Only this module imports printpdf.

mod after_action;
mod calibration;
mod card_back;
mod card_layout;
pub mod cards;
mod date;
pub mod display;
mod error;
mod flow;
pub mod fonts;
mod glyphs;
mod ink;
mod marks;
mod pdf;
pub mod reference;
mod roster;
mod scale_bar;
mod sheet;
mod sheet_margin;
pub mod template;
mod text;

pub use after_action::layout_after_action;
pub use calibration::layout_calibration;
pub use card_layout::Frame;
pub use cards::{CardFace, CardMode, FaceStat, RuleNote, card_faces};
pub use date::ExportDate;
pub use display::{Duplex, Item, Layout, Page, Rgb, Rotation, Segment, Stroke, TextRun};
pub use error::ExportError;
pub use fonts::{FontStyle, ascent, font_bytes, missing_glyphs, text_width_mm};
pub use ink::{Ink, Paper};
pub use pdf::{PdfInfo, write_pdf};
pub use reference::layout_reference;
pub use roster::layout_roster;
pub use scale_bar::{PRINT_AT_ACTUAL_SIZE, SCALE_BAR_MM};
pub use sheet::{
    BackOffset, CardOptions, Flip, Grid, MAX_BACK_OFFSET_MM, MAX_GAP_MM, MIN_MARK_MM, Placement,
    SHOP_BLEED_MM, SHOP_SAFE_MM, SheetLayout, grid_for, layout_cards,
};
pub use template::{Templates, templates};

use crate::campaign::CampaignRecord;
use crate::rules::{Force, RulesetId};

/// Which step of an export is running.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Laying out cards, rows or sections (`done` of `total` laid out).
    Layout,
    /// Turning pages into PDF operations (`done` of `total` pages).
    Pdf,
    /// The file's bytes are ready.
    Saved,
}

/// Progress of a running export, for a progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub stage: Stage,
    pub done: usize,
    pub total: usize,
}

/// An exported PDF and what its layout could not place.
#[derive(Debug, Clone, PartialEq)]
pub struct Exported {
    pub bytes: Vec<u8>,
    /// Something missing or cut (see [`Layout::warnings`]); the file is still complete
    /// otherwise.
    pub warnings: Vec<String>,
    /// Worth knowing, nothing lost (see [`Layout::notes`]).
    pub notes: Vec<String>,
}

impl Exported {
    fn new(bytes: Vec<u8>, layout: Layout) -> Self {
        Exported {
            bytes,
            warnings: layout.warnings,
            notes: layout.notes,
        }
    }
}

/// A progress callback that ignores progress.
pub fn no_progress(_: Progress) {}

/// The unit cards of `force` as PDF bytes, with what could not be placed.
pub fn export_cards(
    force: &Force,
    options: &CardOptions,
    date: ExportDate,
    progress: &mut dyn FnMut(Progress),
) -> Result<Exported, ExportError> {
    let layout = layout_cards(force, options, progress)?;
    let info = PdfInfo {
        subject: format!("{} unit cards", force.ruleset.title()),
        ..PdfInfo::new(date)
    };
    Ok(Exported::new(write_pdf(&layout, &info, progress)?, layout))
}

/// The roster of `force` on `paper` (a page id such as `a4`, or a page and an ink) as PDF
/// bytes, dated `date`.
pub fn export_roster<'a>(
    force: &Force,
    paper: impl Into<Paper<'a>>,
    date: ExportDate,
    progress: &mut dyn FnMut(Progress),
) -> Result<Exported, ExportError> {
    let layout = layout_roster(force, paper, date, progress)?;
    let info = PdfInfo {
        subject: format!("{} force roster", force.ruleset.title()),
        ..PdfInfo::new(date)
    };
    Ok(Exported::new(write_pdf(&layout, &info, progress)?, layout))
}

/// The quick reference of `ruleset` on `paper` as PDF bytes; with a `force`, only what it
/// uses.
pub fn export_reference<'a>(
    ruleset: RulesetId,
    force: Option<&Force>,
    paper: impl Into<Paper<'a>>,
    date: ExportDate,
    progress: &mut dyn FnMut(Progress),
) -> Result<Exported, ExportError> {
    let layout = layout_reference(ruleset, force, paper, progress)?;
    let info = PdfInfo {
        subject: format!("{} quick reference", ruleset.title()),
        ..PdfInfo::new(date)
    };
    Ok(Exported::new(write_pdf(&layout, &info, progress)?, layout))
}

/// The duplex calibration sheet for `page`, turned over `flip`, with `offset` applied to its
/// back, as PDF bytes dated `date`.
pub fn export_calibration(
    page: &str,
    flip: Flip,
    offset: BackOffset,
    date: ExportDate,
) -> Result<Exported, ExportError> {
    let layout = layout_calibration(page, flip, offset)?;
    let info = PdfInfo {
        subject: "duplex calibration sheet".to_string(),
        ..PdfInfo::new(date)
    };
    Ok(Exported::new(
        write_pdf(&layout, &info, &mut no_progress)?,
        layout,
    ))
}

/// The after-action report of a campaign on `paper` (a page id such as `a4`, or a page and
/// an ink) as PDF bytes, dated `date`, with what could not be printed whole: a page per
/// battle fought, more when a battle's log runs over, and one line for the battles not
/// fought yet.
pub fn export_after_action<'a>(
    record: &CampaignRecord,
    paper: impl Into<Paper<'a>>,
    date: ExportDate,
    progress: &mut dyn FnMut(Progress),
) -> Result<Exported, ExportError> {
    let layout = layout_after_action(record, paper, date, progress)?;
    let info = PdfInfo {
        subject: format!(
            "{} campaign after-action report",
            record.campaign.ruleset.title()
        ),
        ..PdfInfo::new(date)
    };
    Ok(Exported::new(write_pdf(&layout, &info, progress)?, layout))
}
