//! `quartermaster export cards|roster|reference`: printable PDFs.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use clap::{Subcommand, ValueEnum};

use super::force::read_force_file;
use super::{EXIT_OK, EXIT_PROBLEM, data_dir};
use crate::export::{self, CardMode, CardOptions, ExportDate, Flip};
use crate::rules::{Force, RulesetId, all_rulesets};
use crate::store::Store;

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FlipArg {
    /// Duplex turned over the long edge (the usual default).
    Long,
    /// Duplex turned over the short edge.
    Short,
}

#[derive(Debug, Subcommand)]
pub enum ExportCommand {
    /// True-size unit cards with crop marks.
    Cards {
        /// A force file, a saved force's name, or a Lorraine preset id.
        #[arg(long)]
        force: String,
        /// poker (63×88 mm), bridge (57×89 mm) or tarot (70×120 mm).
        #[arg(long, default_value = "poker")]
        size: String,
        /// a4 or letter.
        #[arg(long, default_value = "a4")]
        page: String,
        /// One card per card type with its count, instead of one per unit.
        #[arg(long)]
        per_type: bool,
        /// Add card backs for duplex printing.
        #[arg(long)]
        backs: bool,
        /// How the duplex printer turns the sheet.
        #[arg(long, value_enum, default_value = "long")]
        flip: FlipArg,
        /// Space between cards in mm (default 3; 0 for a guillotine, which also drops the
        /// bleed between cards).
        #[arg(long, value_name = "MM")]
        gap: Option<f32>,
        #[arg(long)]
        out: PathBuf,
    },
    /// A force sheet: budget, units by group, totals, problems; Lorraine tick boxes.
    Roster {
        /// A force file, a saved force's name, or a Lorraine preset id.
        #[arg(long)]
        force: String,
        #[arg(long, default_value = "a4")]
        page: String,
        /// Date printed on the sheet (YYYY-MM-DD); today by default.
        #[arg(long)]
        date: Option<String>,
        #[arg(long)]
        out: PathBuf,
    },
    /// One or two pages of quick reference for a ruleset, in the project's own words.
    Reference {
        #[arg(long)]
        ruleset: String,
        /// Only the rules this force uses.
        #[arg(long)]
        force: Option<String>,
        #[arg(long, default_value = "a4")]
        page: String,
        #[arg(long)]
        out: PathBuf,
    },
}

/// Writes the PDF, then lists what it could not place on `err` and returns 1 when there is
/// any, so a script never takes a cut card for a good one.
pub fn run(
    command: ExportCommand,
    data_dir_arg: Option<&Path>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u8> {
    let (exported, path, what) = match command {
        ExportCommand::Cards {
            force,
            size,
            page,
            per_type,
            backs,
            flip,
            gap,
            out: path,
        } => {
            let force = find_force(&force, data_dir_arg)?;
            let options = CardOptions {
                size,
                page,
                mode: if per_type {
                    CardMode::PerType
                } else {
                    CardMode::PerUnit
                },
                backs,
                flip: match flip {
                    FlipArg::Long => Flip::LongEdge,
                    FlipArg::Short => Flip::ShortEdge,
                },
                gap_mm: gap,
            };
            let exported =
                export::export_cards(&force, &options, today()?, &mut export::no_progress)?;
            (exported, path, format!("cards of {}", force.name))
        }
        ExportCommand::Roster {
            force,
            page,
            date,
            out: path,
        } => {
            let force = find_force(&force, data_dir_arg)?;
            let date = match date {
                Some(text) => text
                    .parse::<ExportDate>()
                    .map_err(|e| anyhow!("--date: {e}"))?,
                None => today()?,
            };
            let exported = export::export_roster(&force, &page, date, &mut export::no_progress)?;
            (exported, path, format!("roster of {}", force.name))
        }
        ExportCommand::Reference {
            ruleset,
            force,
            page,
            out: path,
        } => {
            let ruleset: RulesetId = ruleset.parse()?;
            let force = force.map(|f| find_force(&f, data_dir_arg)).transpose()?;
            let exported = export::export_reference(
                ruleset,
                force.as_ref(),
                &page,
                today()?,
                &mut export::no_progress,
            )?;
            (
                exported,
                path,
                format!("{} quick reference", ruleset.title()),
            )
        }
    };
    report_written(&exported, &path, &what, out, err)
}

/// Writes an export to `path`, says so on `out`, lists notes on `out` and warnings on
/// `err`; the exit code is 1 when anything could not be placed.
pub(super) fn report_written(
    exported: &export::Exported,
    path: &Path,
    what: &str,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u8> {
    let bytes = &exported.bytes;
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    writeln!(
        out,
        "wrote {what} to {} ({} KB)",
        path.display(),
        bytes.len().div_ceil(1024)
    )?;
    for note in &exported.notes {
        writeln!(out, "note: {note}")?;
    }
    for warning in &exported.warnings {
        writeln!(err, "warning: {warning}")?;
    }
    if exported.warnings.is_empty() {
        Ok(EXIT_OK)
    } else {
        writeln!(
            err,
            "warning: {} thing(s) could not be printed as they should; the PDF was written",
            exported.warnings.len()
        )?;
        Ok(EXIT_PROBLEM)
    }
}

/// A force named on the command line: a force file if one exists at that path, else a saved
/// force of that name, else a Lorraine preset id.
fn find_force(name: &str, data_dir_arg: Option<&Path>) -> Result<Force> {
    let path = Path::new(name);
    if path.is_file() {
        return read_force_file(path);
    }
    if let Some(force) = all_rulesets().find_map(|r| r.preset_force(name)) {
        return Ok(force);
    }
    let dir = data_dir(data_dir_arg)?;
    let store = Store::open(&dir)
        .with_context(|| format!("cannot open the database in {}", dir.display()))?;
    let id = store.find_force(name)?.ok_or_else(|| {
        anyhow!("'{name}' is neither a force file, a saved force (see `force list`) nor a preset id (see `force preset --list`)")
    })?;
    Ok(store.load_force(id)?.force)
}

/// Today's date for the PDF metadata and the roster.
pub(super) fn today() -> Result<ExportDate> {
    ExportDate::today_utc().ok_or_else(|| anyhow!("the system clock is before 1970; pass --date"))
}
