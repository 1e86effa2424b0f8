//! The command line: thin wrappers that parse arguments, call the library and print.
//!
//! Every command writes to the given writers and returns its exit code, so tests can run them
//! in-process as well as through the binary.

pub(crate) mod campaign;
mod data;
mod db;
mod export;
mod force;
mod league;
mod resolve;
mod saved;
pub mod terminal;
mod torture;
mod units;

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand};

pub use campaign::CampaignCommand;
pub use data::DataCommand;
pub use db::DbCommand;
pub use export::ExportCommand;
pub use force::ForceCommand;
pub use resolve::{Cards, FlagSet, OddsCommand, RollCommand, ruleset_command, ruleset_flags};

/// The end of `--help`: what running the program bare does, which no command does.
const AFTER_HELP: &str = "Run `quartermaster` with no command to open the window. No command opens it: every command \
works without a display (over SSH, in scripts, in CI).";

/// Exit code: success, or a legal force.
pub const EXIT_OK: u8 = 0;
/// Exit code: the check ran and found problems (an illegal force).
pub const EXIT_PROBLEM: u8 = 1;
/// Exit code: bad input (unreadable file, unknown name, bad arguments).
pub const EXIT_BAD_INPUT: u8 = 2;

/// Quartermaster: army builder and campaign manager for tabletop wargames.
#[derive(Debug, Parser)]
#[command(name = "quartermaster", version, about, long_about = None, after_help = AFTER_HELP)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Close the window after this many frames (smoke tests).
    #[arg(long, hide = true, global = false)]
    pub frames: Option<u64>,
    /// Write each frame's time to this file (measuring the real window).
    #[arg(long, hide = true, global = false, value_name = "FILE")]
    pub frame_log: Option<PathBuf>,
    /// Keep the labelled widgets on screen and their rectangles in this file (driving the
    /// real window by label).
    #[arg(long, hide = true, global = false, value_name = "FILE")]
    pub widget_log: Option<PathBuf>,
    /// Panic on purpose once started, to check that a crash report is written.
    #[arg(long, hide = true, global = true)]
    pub crash_test: bool,
    /// Where the database lives (default: $QUARTERMASTER_DATA_DIR, else the platform's data
    /// directory).
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the rulesets.
    Rulesets {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// List the library's cards: the books' and the data directory's custom cards.
    Units {
        /// Only this ruleset (one of the ids `rulesets` lists).
        #[arg(long, help = format!("Only this ruleset ({})", crate::rules::id_list()))]
        ruleset: Option<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Check force files; save, list, show, export and delete the forces in the database.
    #[command(subcommand)]
    Force(ForceCommand),
    /// The player's own army data: `data import FOLDER` reads BattleScribe game systems and
    /// catalogues (.gst, .cat, .gstz, .catz); list; reprice a force.
    #[command(subcommand)]
    Data(DataCommand),
    /// Campaigns: `campaign new lorraine --name NAME`, list, show, export, import.
    #[command(subcommand)]
    Campaign(CampaignCommand),
    /// A club's league table: the players of every campaign in FOLDER ranked (read only).
    League {
        /// A folder of campaign exports (`*.json`) and shared-campaign folders.
        folder: PathBuf,
        /// Print JSON: {players, campaigns, skipped, house_defaults}.
        #[arg(long)]
        json: bool,
    },
    /// Check, back up and restore the database.
    #[command(subcommand)]
    Db(DbCommand),
    /// Printable PDFs: unit cards, rosters, quick references.
    #[command(subcommand)]
    Export(ExportCommand),
    /// Exact odds for one fire or combat action: `odds RULESET …`.
    #[command(subcommand)]
    Odds(OddsCommand),
    /// One action resolved with seeded dice that replay from the seed: `roll RULESET … --seed N`.
    #[command(subcommand)]
    Roll(RollCommand),
}

/// Runs `command` against the database in `data_dir` (default: [`crate::store::default_data_dir`]),
/// printing to `out` and errors to `err`; returns the exit code. Control characters in anything
/// printed are shown escaped ([`terminal::Escaping`]); a reader closing the pipe early
/// (`| head`) ends the command quietly with exit 0.
pub fn run(
    command: Command,
    data_dir: Option<&Path>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let mut out = terminal::Escaping::new(out);
    let mut err = terminal::Escaping::new(err);
    let (out, err): (&mut dyn Write, &mut dyn Write) = (&mut out, &mut err);
    let result = match command {
        Command::Rulesets { json } => units::rulesets(json, out),
        Command::Units { ruleset, json } => {
            units::units(ruleset.as_deref(), data_dir, json, out, err)
        }
        Command::Force(command) => force::run(command, data_dir, out),
        Command::Data(command) => data::run(command, data_dir, out),
        Command::Campaign(command) => campaign::run(command, data_dir, out, err),
        Command::League { folder, json } => league::run(&folder, json, out),
        Command::Db(command) => db::run(command, data_dir, out, err),
        Command::Export(command) => export::run(command, data_dir, out, err),
        Command::Odds(command) => resolve::run_odds(command, data_dir, out),
        Command::Roll(command) => resolve::run_roll(command, data_dir, out),
    };
    let result = result.and_then(|code| out.flush().map(|()| code).map_err(Into::into));
    match result {
        Ok(code) => code,
        Err(error) if terminal::is_broken_pipe(&error) => EXIT_OK,
        Err(error) => {
            // One line, the whole chain of context, no backtrace, cut to a readable length.
            let text = terminal::error_line(&error);
            let _ = writeln!(
                err,
                "error: {}",
                terminal::Cut(&text, terminal::MAX_ERROR_CHARS)
            );
            EXIT_BAD_INPUT
        }
    }
}

/// The data directory: `--data-dir`, else `QUARTERMASTER_DATA_DIR`, else the platform's.
fn data_dir(given: Option<&Path>) -> anyhow::Result<PathBuf> {
    match given {
        Some(dir) => Ok(dir.to_path_buf()),
        None => Ok(crate::store::default_data_dir()?),
    }
}

/// Writes `value` as pretty JSON followed by a newline.
fn print_json(out: &mut dyn Write, value: &impl serde::Serialize) -> anyhow::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)?;
    Ok(())
}
