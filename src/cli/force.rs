//! `quartermaster force …`: validate force files, write book presets, and keep forces in the
//! database (save, list, show, export, delete).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Subcommand;

use super::{EXIT_OK, EXIT_PROBLEM, print_json, saved};
use crate::rules::force_file;
use crate::rules::validation::{Validation, validate};

#[derive(Debug, Subcommand)]
pub enum ForceCommand {
    /// Check a force file: exit 0 legal, 1 illegal (violations listed), 2 unreadable.
    Validate {
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Write a book battle group as a force file (`--list` shows the ids).
    Preset {
        /// lorraine-1-us … lorraine-3-german
        #[arg(required_unless_present = "list")]
        id: Option<String>,
        /// Where to write the force file.
        #[arg(long, required_unless_present = "list")]
        out: Option<PathBuf>,
        /// List the preset ids.
        #[arg(long)]
        list: bool,
    },
    /// Import a force file into the database; prints the force's name.
    Save {
        file: PathBuf,
        /// Replace the saved force of the same name instead of refusing.
        #[arg(long)]
        replace: bool,
    },
    /// List the forces in the database.
    List {
        /// Print JSON: a list of {id, name, ruleset, units, updated_at}.
        #[arg(long)]
        json: bool,
    },
    /// Show a saved force: its units, its budget check and book cards changed since saving.
    Show {
        /// The force's name (case does not matter).
        name: String,
        /// Print the force file JSON, with "card_changes" when book cards changed.
        #[arg(long)]
        json: bool,
    },
    /// Write a saved force as a force file.
    Export {
        /// The force's name (case does not matter).
        name: String,
        /// Where to write the force file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Delete a saved force.
    Delete {
        /// The force's name (case does not matter).
        name: String,
    },
}

pub fn run(command: ForceCommand, data_dir: Option<&Path>, out: &mut dyn Write) -> Result<u8> {
    match command {
        ForceCommand::Save { file, replace } => saved::save(data_dir, &file, replace, out),
        ForceCommand::List { json } => saved::list(data_dir, json, out),
        ForceCommand::Show { name, json } => saved::show(data_dir, &name, json, out),
        ForceCommand::Export { name, out: path } => saved::export(data_dir, &name, &path, out),
        ForceCommand::Delete { name } => saved::delete(data_dir, &name, out),
        ForceCommand::Validate { file, json } => validate_file(&file, json, out),
        ForceCommand::Preset { list: true, .. } => list_presets(out),
        ForceCommand::Preset {
            id: Some(id),
            out: Some(path),
            ..
        } => write_preset(&id, &path, out),
        ForceCommand::Preset { .. } => bail!("force preset needs an ID and --out FILE, or --list"),
    }
}

/// Reads and parses a force file, naming the file in every error.
pub fn read_force_file(path: &Path) -> Result<crate::rules::Force> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    force_file::parse_bytes(&bytes).with_context(|| format!("{}", path.display()))
}

fn validate_file(path: &Path, json: bool, out: &mut dyn Write) -> Result<u8> {
    let force = read_force_file(path)?;
    let validation = validate(&force);
    if json {
        print_json(out, &validation)?;
    } else {
        print_validation(&force.name, &validation, out)?;
    }
    Ok(if validation.legal {
        EXIT_OK
    } else {
        EXIT_PROBLEM
    })
}

pub(super) fn print_validation(name: &str, v: &Validation, out: &mut dyn Write) -> Result<()> {
    let limit = match (v.budget.min, v.budget.limit) {
        (Some(min), Some(max)) => format!("{min}–{max}"),
        (None, Some(max)) => max.to_string(),
        _ => "?".to_string(),
    };
    let id = v
        .budget
        .id
        .as_deref()
        .map(|id| format!(" ({id})"))
        .unwrap_or_default();
    writeln!(
        out,
        "{name}: {} — {} / {limit} {}{id}",
        if v.legal { "legal" } else { "NOT legal" },
        v.budget.used,
        v.budget.unit
    )?;
    for violation in &v.violations {
        writeln!(out, "  ✗ {}", violation.message)?;
    }
    for warning in &v.warnings {
        writeln!(out, "  ! {warning}")?;
    }
    Ok(())
}

fn list_presets(out: &mut dyn Write) -> Result<u8> {
    for preset in crate::rules::all_rulesets().flat_map(|r| r.preset_forces()) {
        writeln!(
            out,
            "{:<18} {} — {}",
            preset.id, preset.title, preset.summary
        )?;
    }
    Ok(EXIT_OK)
}

fn write_preset(id: &str, path: &Path, out: &mut dyn Write) -> Result<u8> {
    let force = crate::rules::preset_force(id)?;
    std::fs::write(path, force_file::to_json(&force))
        .with_context(|| format!("cannot write {}", path.display()))?;
    writeln!(out, "wrote {} to {}", force.name, path.display())?;
    Ok(EXIT_OK)
}
