//! `quartermaster db check|backup|restore`: the database as a whole.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Subcommand;
use serde_json::json;

use super::{EXIT_OK, EXIT_PROBLEM, data_dir, print_json, torture};
use crate::rules::words::amount;
use crate::store::{DB_FILE_NAME, DbReport, Store};

#[derive(Debug, Subcommand)]
pub enum DbCommand {
    /// Check the database without changing it: schema version, integrity, and that every card,
    /// force and campaign loads and every stored roll replays (exit 1 naming each problem).
    Check {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Write a copy of the whole library (a SQLite database file) to FILE.
    Backup {
        /// Where to write the backup.
        #[arg(long)]
        out: PathBuf,
    },
    /// Replace the library with a backup; the current database is kept in backups/.
    Restore {
        /// A file written by `db backup` (or one of the data directory's backups/).
        file: PathBuf,
    },
    /// Crash-test helper: saves random forces until killed, logging every acknowledged save.
    #[command(hide = true)]
    Torture {
        /// Append-only log: an "intent" line before each save, an "ack" line after it returns.
        #[arg(long)]
        log: PathBuf,
        /// Seed for the random forces (and their names).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Stop after this many saves (default: run until killed).
        #[arg(long)]
        count: Option<u64>,
        /// Record campaign events (a scripted Lorraine campaign) instead of saving forces.
        #[arg(long)]
        campaign: bool,
    },
}

pub fn run(
    command: DbCommand,
    data_dir_arg: Option<&Path>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u8> {
    let dir = data_dir(data_dir_arg)?;
    match command {
        DbCommand::Check { json } => check(&dir, json, out, err),
        DbCommand::Backup { out: path } => backup(&dir, &path, out),
        DbCommand::Restore { file } => restore(&dir, &file, out),
        DbCommand::Torture {
            log,
            seed,
            count,
            campaign: true,
        } => torture::run_campaign(&dir, &log, seed, count),
        DbCommand::Torture {
            log, seed, count, ..
        } => torture::run(&dir, &log, seed, count),
    }
}

fn check(dir: &Path, json: bool, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8> {
    let report = match Store::inspect(dir) {
        Ok(Some(report)) => report,
        Ok(None) => {
            writeln!(
                err,
                "error: no database at {} yet (it is created on first start)",
                dir.join(DB_FILE_NAME).display()
            )?;
            return Ok(EXIT_PROBLEM);
        }
        Err(error) => {
            // Damaged, too new, not a database: the check's finding, not bad input.
            writeln!(err, "error: {error}")?;
            return Ok(EXIT_PROBLEM);
        }
    };
    let ok = report.ok();
    if json {
        let mut value = serde_json::to_value(&report)?;
        if let Some(map) = value.as_object_mut() {
            map.insert("ok".into(), json!(ok));
            map.insert("upgrade_pending".into(), json!(report.upgrade_pending()));
        }
        print_json(out, &value)?;
    } else {
        print_report(&report, out)?;
    }
    Ok(if ok { EXIT_OK } else { EXIT_PROBLEM })
}

fn print_report(report: &DbReport, out: &mut dyn Write) -> Result<()> {
    if let Some(path) = &report.path {
        writeln!(out, "database   {}", path.display())?;
    }
    let upgrade = if report.upgrade_pending() {
        " — will be upgraded on next start (a backup is written first)"
    } else {
        ""
    };
    writeln!(
        out,
        "schema     version {} (this app: {}){upgrade}",
        report.schema_version, report.app_schema_version
    )?;
    writeln!(out, "integrity  {}", report.integrity.join("; "))?;
    writeln!(out, "journal    {}", report.journal_mode)?;
    match report.content_problems.as_slice() {
        [] if report.integrity_ok() && !report.upgrade_pending() => {
            writeln!(out, "content    every card, force and campaign loads")?;
        }
        [] => {}
        problems => {
            writeln!(out, "content    {} problems:", problems.len())?;
            for problem in problems {
                writeln!(out, "  - {problem}")?;
            }
        }
    }
    let counted = [
        (report.forces, "forces"),
        (report.book_cards, "book cards"),
        (report.custom_cards, "custom cards"),
        (report.campaigns, "campaigns"),
        (report.battle_events, "battle events"),
    ]
    .map(|(count, what)| amount(count, what))
    .join(", ");
    writeln!(out, "contents   {counted}")?;
    match &report.newest_backup {
        Some(path) => writeln!(out, "backups    newest: {}", path.display())?,
        None => writeln!(out, "backups    none yet")?,
    }
    Ok(())
}

fn backup(dir: &Path, path: &Path, out: &mut dyn Write) -> Result<u8> {
    let store = Store::open(dir)
        .with_context(|| format!("cannot open the database in {}", dir.display()))?;
    store.backup_to(path)?;
    let forces = store.list_forces()?.len();
    writeln!(
        out,
        "wrote a backup of {} to {}",
        amount(forces as u64, "forces"),
        path.display()
    )?;
    Ok(EXIT_OK)
}

fn restore(dir: &Path, file: &Path, out: &mut dyn Write) -> Result<u8> {
    let report = Store::restore(dir, file)?;
    writeln!(
        out,
        "restored {} from {}",
        amount(report.forces as u64, "forces"),
        file.display()
    )?;
    if let Some(previous) = &report.previous {
        writeln!(
            out,
            "the previous database is kept at {}",
            previous.display()
        )?;
    }
    Ok(EXIT_OK)
}
