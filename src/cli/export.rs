//! `quartermaster export cards|roster|reference`: printable PDFs.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use clap::{Subcommand, ValueEnum};

use super::force::read_force_file;
use super::{EXIT_OK, EXIT_PROBLEM, data_dir};
use crate::export::{
    self, BackOffset, CardMode, CardOptions, ExportDate, Flip, Ink, Paper, SheetLayout,
};
use crate::rules::{Force, RulesetId, all_rulesets};
use crate::store::Store;

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FlipArg {
    /// Duplex turned over the long edge (the usual default).
    Long,
    /// Duplex turned over the short edge.
    Short,
}

impl From<FlipArg> for Flip {
    fn from(flip: FlipArg) -> Self {
        match flip {
            FlipArg::Long => Flip::LongEdge,
            FlipArg::Short => Flip::ShortEdge,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum LayoutArg {
    /// As many cards as fit a sheet, with crop marks; --backs on the following page.
    Grid,
    /// Each back beside its front with a fold line, for printers without duplex.
    Fold,
    /// One card per page at the card's exact size, for print shops.
    Single,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum InkArg {
    /// Coloured bands and backs.
    Full,
    /// No filled bands or backgrounds: rules and outlines, legible in black and white.
    Low,
}

impl From<InkArg> for Ink {
    fn from(ink: InkArg) -> Self {
        match ink {
            InkArg::Full => Ink::Full,
            InkArg::Low => Ink::Low,
        }
    }
}

/// Parses `--back-offset X,Y` (millimetres, as read off the calibration sheet).
fn parse_back_offset(text: &str) -> Result<BackOffset, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    // "nan" and "inf" parse as floats; they are no reading of the calibration sheet.
    let number = |part: &str| {
        part.replace('−', "-")
            .parse::<f32>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("'{part}' is not a number of millimetres"))
    };
    match parts.as_slice() {
        [x, y] => BackOffset {
            x_mm: number(x)?,
            y_mm: number(y)?,
        }
        .checked()
        .map_err(|e| e.to_string()),
        _ => Err(format!(
            "'{text}' is not X,Y: give the two numbers read off the calibration sheet, such as 1.5,-0.5"
        )),
    }
}

/// Parses `--corner-guide MM`: a corner radius of a card, more than 0 and at most 10 mm.
fn parse_corner_radius(text: &str) -> Result<f32, String> {
    let radius: f32 = text
        .trim()
        .parse()
        .ok()
        .filter(|r: &f32| r.is_finite())
        .ok_or_else(|| format!("'{text}' is not a number of millimetres"))?;
    if radius > 0.0 && radius <= MAX_CORNER_RADIUS_MM {
        Ok(radius)
    } else {
        Err(format!(
            "a corner radius of {radius} mm is not in 0–{MAX_CORNER_RADIUS_MM} mm"
        ))
    }
}

/// The largest corner radius a guide is drawn for: rounder than this is no playing card.
const MAX_CORNER_RADIUS_MM: f32 = 10.0;

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
        /// grid (a sheet of cards), fold (each back beside its front) or single (one card
        /// per page at its exact size).
        #[arg(long, value_enum, default_value = "grid")]
        layout: LayoutArg,
        /// full, or low: no filled bands or backgrounds, legible in black and white.
        #[arg(long, value_enum, default_value = "full")]
        ink: InkArg,
        /// Where your printer puts backs, read off `export calibration`: X,Y in mm, to the
        /// right and down as seen from the front. Backs are shifted the other way.
        #[arg(long, value_name = "X,Y", value_parser = parse_back_offset, allow_hyphen_values = true)]
        back_offset: Option<BackOffset>,
        /// With --layout single: a dashed guide where a die rounds the corners, this radius
        /// in mm (poker cards are commonly 3 to 3.5).
        #[arg(long, value_name = "MM", value_parser = parse_corner_radius)]
        corner_guide: Option<f32>,
        /// Where to write the PDF.
        #[arg(long, value_name = "FILE.pdf")]
        out: PathBuf,
    },
    /// A force sheet: budget, units by group, totals, problems; Lorraine tick boxes.
    Roster {
        /// A force file, a saved force's name, or a Lorraine preset id.
        #[arg(long)]
        force: String,
        /// a4 or letter.
        #[arg(long, default_value = "a4")]
        page: String,
        /// Date printed on the sheet (YYYY-MM-DD); today by default.
        #[arg(long)]
        date: Option<String>,
        /// full, or low: no filled bands, legible in black and white.
        #[arg(long, value_enum, default_value = "full")]
        ink: InkArg,
        /// Where to write the PDF.
        #[arg(long, value_name = "FILE.pdf")]
        out: PathBuf,
    },
    /// One or two pages of quick reference for a ruleset, in the project's own words.
    Reference {
        /// The ruleset's id (one of the ids `rulesets` lists).
        #[arg(long, help = format!("The ruleset: {}", crate::rules::id_list()))]
        ruleset: String,
        /// Only the rules this force uses.
        #[arg(long)]
        force: Option<String>,
        /// a4 or letter.
        #[arg(long, default_value = "a4")]
        page: String,
        /// full, or low: no filled bands, legible in black and white.
        #[arg(long, value_enum, default_value = "full")]
        ink: InkArg,
        /// Where to write the PDF.
        #[arg(long, value_name = "FILE.pdf")]
        out: PathBuf,
    },
    /// A duplex test sheet: print it on both sides, read where the back's lines cross the
    /// front's millimetre scales, and pass that as --back-offset to `export cards`.
    Calibration {
        /// a4 or letter.
        #[arg(long, default_value = "a4")]
        page: String,
        /// How the duplex printer turns the sheet.
        #[arg(long, value_enum, default_value = "long")]
        flip: FlipArg,
        /// An offset to check: printed with it, the back's lines should cross at 0.
        #[arg(long, value_name = "X,Y", value_parser = parse_back_offset, allow_hyphen_values = true)]
        back_offset: Option<BackOffset>,
        /// Where to write the PDF.
        #[arg(long, value_name = "FILE.pdf")]
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
            layout,
            ink,
            back_offset,
            corner_guide,
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
                flip: flip.into(),
                gap_mm: gap,
                layout: match layout {
                    LayoutArg::Grid => SheetLayout::Grid,
                    LayoutArg::Fold => SheetLayout::Fold,
                    LayoutArg::Single => SheetLayout::Single,
                },
                ink: ink.into(),
                back_offset: back_offset.unwrap_or_default(),
                corner_guide_mm: corner_guide,
            };
            let exported =
                export::export_cards(&force, &options, today()?, &mut export::no_progress)?;
            (exported, path, format!("cards of {}", force.name))
        }
        ExportCommand::Roster {
            force,
            page,
            date,
            ink,
            out: path,
        } => {
            let force = find_force(&force, data_dir_arg)?;
            let date = match date {
                Some(text) => text
                    .parse::<ExportDate>()
                    .map_err(|e| anyhow!("--date: {e}"))?,
                None => today()?,
            };
            let paper = Paper {
                page: &page,
                ink: ink.into(),
            };
            let exported = export::export_roster(&force, paper, date, &mut export::no_progress)?;
            (exported, path, format!("roster of {}", force.name))
        }
        ExportCommand::Reference {
            ruleset,
            force,
            page,
            ink,
            out: path,
        } => {
            let ruleset: RulesetId = ruleset.parse()?;
            let force = force.map(|f| find_force(&f, data_dir_arg)).transpose()?;
            let paper = Paper {
                page: &page,
                ink: ink.into(),
            };
            let exported = export::export_reference(
                ruleset,
                force.as_ref(),
                paper,
                today()?,
                &mut export::no_progress,
            )?;
            (
                exported,
                path,
                format!("{} quick reference", ruleset.title()),
            )
        }
        ExportCommand::Calibration {
            page,
            flip,
            back_offset,
            out: path,
        } => {
            let exported = export::export_calibration(
                &page,
                flip.into(),
                back_offset.unwrap_or_default(),
                today()?,
            )?;
            (exported, path, "duplex calibration sheet".to_string())
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
        let count = exported.warnings.len() as u64;
        writeln!(
            err,
            "warning: {} could not be printed as {} should; the PDF was written",
            crate::rules::words::plural(count, "thing", "things"),
            if count == 1 { "it" } else { "they" }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 37: `--back-offset nan,0` was refused as "NaN,0 mm is beyond ±10 mm".
    #[test]
    fn a_back_offset_that_is_not_a_number_is_refused_as_such() {
        let err = parse_back_offset("nan,0").unwrap_err();
        assert_eq!(err, "'nan' is not a number of millimetres");
        assert!(parse_back_offset("1,inf").unwrap_err().contains("'inf'"));
        assert_eq!(
            parse_back_offset("1.5,−0.5"),
            Ok(BackOffset {
                x_mm: 1.5,
                y_mm: -0.5
            })
        );
        assert!(parse_back_offset("11,0").unwrap_err().contains("±10 mm"));
        assert!(parse_corner_radius("NaN").is_err());
        assert_eq!(parse_corner_radius("3.5"), Ok(3.5));
        assert!(parse_corner_radius("0").is_err());
    }
}
