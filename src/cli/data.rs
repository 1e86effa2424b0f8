//! `quartermaster data …`: the player's own army data (BattleScribe game systems and
//! catalogues). `data import PATH…` reads folders, `.gst`, `.cat`, `.gstz` and `.catz` files,
//! stores each revision whole or nothing, lists what it could not use by entry, and says per
//! saved force what a newer revision would change; `data reprice FORCE` applies it when the
//! player chooses; `data list` shows what is stored.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use clap::Subcommand;
use serde::Serialize;

use super::{EXIT_OK, data_dir, print_json};
use crate::rules::army_data::{self, LineChange};
use crate::store::{FileStatus, Store, StoredFile};

#[derive(Debug, Subcommand)]
pub enum DataCommand {
    /// Import BattleScribe data: a folder, or .gst, .cat, .gstz and .catz files (a game system
    /// and its catalogues, or catalogues of a game system imported before). Saved forces keep
    /// the prices they were built with; what a newer revision changes is listed per force.
    Import {
        /// Folders or files to import.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Print JSON: {files, changes}.
        #[arg(long)]
        json: bool,
    },
    /// List the imported game systems and catalogues, every revision kept.
    List {
        /// Print JSON: a list of {ruleset, kind, source, digest, file_name, units, organisations, notes, imported_at}.
        #[arg(long)]
        json: bool,
    },
    /// Re-price a saved force with the newest imported revision of its data (the options
    /// taken carried over by name), saying what changed and what could not be carried over.
    Reprice {
        /// The force's name (case does not matter).
        force: String,
    },
}

pub fn run(command: DataCommand, data_dir_arg: Option<&Path>, out: &mut dyn Write) -> Result<u8> {
    match command {
        DataCommand::Import { paths, json } => import(data_dir_arg, &paths, json, out),
        DataCommand::List { json } => list(data_dir_arg, json, out),
        DataCommand::Reprice { force } => reprice(data_dir_arg, &force, out),
    }
}

fn open(data_dir_arg: Option<&Path>) -> Result<Store> {
    let dir = data_dir(data_dir_arg)?;
    Store::open(&dir).with_context(|| format!("cannot open the database in {}", dir.display()))
}

/// What `data import --json` prints.
#[derive(Serialize)]
struct ImportReport<'a> {
    files: &'a [StoredFile],
    changes: Vec<ForceChanges>,
}

/// A saved force and what the newest data would change for it.
#[derive(Serialize)]
struct ForceChanges {
    force: String,
    lines: Vec<LineChange>,
}

fn import(
    data_dir_arg: Option<&Path>,
    paths: &[PathBuf],
    json: bool,
    out: &mut dyn Write,
) -> Result<u8> {
    // Every file is read and checked before the database is written: a bad one imports
    // nothing.
    let files = crate::store::read_paths(paths).map_err(|e| anyhow!("nothing imported — {e}"))?;
    let mut store = open(data_dir_arg)?;
    let known = store.stored_game_systems()?;
    let import = army_data::read_import(&files, &known, &mut |_, _| {})
        .map_err(|e| anyhow!("nothing imported — {e}"))?;
    let stored = store
        .import_army_data(&import)
        .map_err(|e| anyhow!("nothing imported — {e}"))?;
    let changes: Vec<ForceChanges> = store
        .army_changes()?
        .into_iter()
        .map(|(_, force, lines)| ForceChanges { force, lines })
        .collect();
    if json {
        print_json(
            out,
            &ImportReport {
                files: &stored,
                changes,
            },
        )?;
        return Ok(EXIT_OK);
    }
    for file in &stored {
        let status = match &file.status {
            FileStatus::New => "new".to_string(),
            FileStatus::Newer { previous } => format!("newer than r{previous}"),
            FileStatus::Unchanged => "already imported, unchanged".to_string(),
            FileStatus::Older { newest } => {
                format!("older than r{newest}, kept for forces priced with it")
            }
        };
        let what = if file.kind == "game_system" {
            format!("force organisations: {}", file.organisations.join(", "))
        } else {
            crate::rules::words::plural(file.units as u64, "unit", "units")
        };
        writeln!(
            out,
            "{} ({}, {}): {status} — {what}",
            file.source.label(),
            file.kind.replace('_', " "),
            file.file
        )?;
    }
    let notes: Vec<String> = stored
        .iter()
        .flat_map(|f| f.notes.iter().map(ToString::to_string))
        .collect();
    if !notes.is_empty() {
        writeln!(
            out,
            "Not understood or left out ({}), by entry:",
            notes.len()
        )?;
        for note in notes {
            writeln!(out, "  {note}")?;
        }
    }
    print_changes(&changes, out)?;
    Ok(EXIT_OK)
}

fn print_changes(changes: &[ForceChanges], out: &mut dyn Write) -> Result<()> {
    if changes.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "Saved forces priced with an older revision keep their prices; `quartermaster data reprice FORCE` re-prices one:"
    )?;
    for force in changes {
        writeln!(out, "  {}:", force.force)?;
        for line in &force.lines {
            writeln!(out, "    {line}")?;
        }
    }
    Ok(())
}

fn list(data_dir_arg: Option<&Path>, json: bool, out: &mut dyn Write) -> Result<u8> {
    let store = open(data_dir_arg)?;
    let all = store.army_data()?;
    if json {
        print_json(out, &all)?;
        return Ok(EXIT_OK);
    }
    if all.is_empty() {
        writeln!(
            out,
            "no army data imported yet: `quartermaster data import FOLDER` reads a BattleScribe data folder"
        )?;
    }
    let newest = crate::store::newest(&all);
    for data in &all {
        let what = if data.kind == "game_system" {
            format!("force organisations: {}", data.organisations.join(", "))
        } else {
            crate::rules::words::plural(data.units as u64, "unit", "units")
        };
        let is_newest = newest.iter().any(|n| std::ptr::eq(*n, data));
        writeln!(
            out,
            "{:<32} {:<12} {}{} — {what}; {} not understood; imported {}",
            data.source.label(),
            data.kind.replace('_', " "),
            data.ruleset.title(),
            if is_newest { ", newest" } else { "" },
            data.notes.len(),
            data.imported_at
        )?;
    }
    Ok(EXIT_OK)
}

fn reprice(data_dir_arg: Option<&Path>, name: &str, out: &mut dyn Write) -> Result<u8> {
    let mut store = open(data_dir_arg)?;
    let id = store
        .find_force(name)?
        .ok_or_else(|| anyhow!("no force named '{name}' (see `quartermaster force list`)"))?;
    let stored = store.load_force(id)?;
    let newest = store.army_cards()?;
    let changes = army_data::line_changes(&stored.force, &newest);
    if changes.is_empty() {
        writeln!(
            out,
            "{}: priced with the newest imported data already ({})",
            stored.force.name,
            army_data::revisions_of(&stored.force).join(", ")
        )?;
        return Ok(EXIT_OK);
    }
    let (force, lost) = army_data::reprice(&stored.force, &newest);
    store.save_force(Some(id), &force)?;
    writeln!(out, "{}: re-priced", force.name)?;
    for change in &changes {
        writeln!(out, "  {change}")?;
    }
    for what in lost {
        writeln!(out, "  ! {what}")?;
    }
    super::force::print_validation(
        &force.name,
        &crate::rules::validation::validate(&force),
        out,
    )?;
    Ok(EXIT_OK)
}
