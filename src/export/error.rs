//! The one error type of the export layer.

use crate::rules::RulesetId;

/// Everything that can stop an export. Messages name the field and the value.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExportError {
    /// An embedded template file does not parse or breaks a layout rule.
    #[error("template {file}: {message}")]
    Template { file: String, message: String },
    /// No card template or quick reference exists for a ruleset.
    #[error("no {what} for ruleset {ruleset}")]
    MissingTemplate {
        what: &'static str,
        ruleset: RulesetId,
    },
    /// `--size` names no card size in `templates/card-sizes.json`.
    #[error("card size '{given}' is unknown — known: {known}")]
    UnknownCardSize { given: String, known: String },
    /// `--page` names no page size in `templates/page-sizes.json`.
    #[error("page size '{given}' is unknown — known: {known}")]
    UnknownPageSize { given: String, known: String },
    /// The card is larger than the printable part of the page.
    #[error("a {card} card ({card_w}×{card_h} mm) does not fit on page size {page}")]
    CardTooLarge {
        card: String,
        page: String,
        card_w: f32,
        card_h: f32,
    },
    /// A unit line names no card of the force's ruleset, so there is nothing to print.
    #[error("unit {index} '{name}': no {ruleset} card by that name — fix the force first")]
    UnresolvedCard {
        index: usize,
        name: String,
        ruleset: &'static str,
    },
    /// A quick reference was asked for one ruleset with a force of another.
    #[error("force '{force}' belongs to {}, not {}", .force_ruleset.title(), .ruleset.title())]
    RulesetMismatch {
        force: String,
        force_ruleset: RulesetId,
        ruleset: RulesetId,
    },
    /// A back offset beyond what the calibration sheet measures.
    #[error(
        "back offset {x_mm},{y_mm} mm is beyond ±10 mm on an axis: print the calibration sheet and read it again"
    )]
    BackOffset { x_mm: f32, y_mm: f32 },
    /// `--gap` outside 0–20 mm.
    #[error("gap {0} mm between cards is not in 0–20 mm")]
    Gap(f32),
    /// The force has no units, so there are no cards to print.
    #[error("force '{0}' has no units to print")]
    EmptyForce(String),
    /// An embedded font does not parse (a broken build, not user input).
    #[error("embedded font {0} could not be read")]
    Font(&'static str),
    /// The PDF library could not finish the document (a broken build, not user input).
    #[error("the PDF could not be written: {0}")]
    Pdf(String),
    /// A date that is not `YYYY-MM-DD`.
    #[error("date '{0}' is not a valid YYYY-MM-DD date")]
    Date(String),
}
