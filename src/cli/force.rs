//! `quartermaster force …`: validate force files, write book presets, and keep forces in the
//! database (save, list, show, export, delete).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Subcommand;

use super::{EXIT_OK, EXIT_PROBLEM, print_json, saved};
use crate::rules::force_file;
use crate::rules::force_text::TextStyle;
use crate::rules::roster_code::{self, RosterCode, Verdict};
use crate::rules::validation::{Validation, validate};

#[derive(Debug, Subcommand)]
pub enum ForceCommand {
    /// Check a force file: exit 0 legal, 1 illegal (violations listed), 2 unreadable.
    Validate {
        /// The force file (JSON) to check.
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Check a force file against the roster code printed on its roster: exit 0 it is the
    /// list that was printed, 1 it is not, 2 unreadable.
    Verify {
        /// The force file (JSON) to check, or a saved force's name.
        file: PathBuf,
        /// The code from the roster, such as R2-7KX4P-2M9QD (case and dashes do not matter).
        code: String,
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
        /// The force file (JSON) to import.
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
        #[arg(long, conflicts_with_all = ["text", "markdown"])]
        json: bool,
        /// Print the list as text for a chat message: the force, its budget check and each
        /// unit with its cost (`force import --text` reads it back).
        #[arg(long)]
        text: bool,
        /// The same list as Markdown (for forums and chats that format it).
        #[arg(long)]
        markdown: bool,
    },
    /// Import a list into the database: a posted text list (`--text`, as `force show --text`
    /// writes it, hand edits welcome) or a force file; prints the force's name.
    Import {
        /// The list's file, or - to read standard input.
        file: PathBuf,
        /// Read a text list (plain or Markdown) instead of a force file.
        #[arg(long)]
        text: bool,
        /// Replace the saved force of the same name instead of refusing.
        #[arg(long)]
        replace: bool,
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
        ForceCommand::Show {
            name,
            json,
            text,
            markdown,
        } => {
            let style = if markdown {
                Some(TextStyle::Markdown)
            } else {
                text.then_some(TextStyle::Plain)
            };
            match style {
                Some(style) => saved::show_text(data_dir, &name, style, out),
                None => saved::show(data_dir, &name, json, out),
            }
        }
        ForceCommand::Import {
            file,
            text: true,
            replace,
        } => saved::import_text(data_dir, &file, replace, out),
        ForceCommand::Import { file, replace, .. } => saved::save(data_dir, &file, replace, out),
        ForceCommand::Export { name, out: path } => saved::export(data_dir, &name, &path, out),
        ForceCommand::Delete { name } => saved::delete(data_dir, &name, out),
        ForceCommand::Validate { file, json } => validate_file(&file, json, out),
        ForceCommand::Verify { file, code } => verify_file(&file, &code, data_dir, out),
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
    force_file::parse_bytes(&bytes).with_context(|| {
        // A posted list saved to a file reads as broken JSON; say what to do instead.
        let text = String::from_utf8_lossy(&bytes);
        let first = text.trim_start_matches('\u{feff}').trim_start().chars().next();
        if first.is_some_and(|c| c != '{') {
            format!(
                "{}: not a force file (JSON) — for a text list add --text (`quartermaster force import --text {}`)",
                path.display(),
                path.display()
            )
        } else {
            format!("{}", path.display())
        }
    })
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

/// `force verify FILE CODE`: whether the file (or the saved force of that name) is the list
/// a roster with `code` was printed from.
fn verify_file(
    path: &Path,
    code: &str,
    data_dir: Option<&Path>,
    out: &mut dyn Write,
) -> Result<u8> {
    let code: RosterCode = code.parse()?;
    let force = if path.is_file() {
        read_force_file(path)?
    } else {
        saved::load_by_name(data_dir, &path.to_string_lossy())?
    };
    let current = roster_code::rules_revision(force.ruleset);
    let revision = if code.revision == current {
        String::new()
    } else {
        format!(
            " (the code was made under rules revision {}; this app is at revision {current})",
            code.revision
        )
    };
    match roster_code::verify(&force, &code) {
        Verdict::Matches => {
            writeln!(
                out,
                "{}: matches roster code {code} — this is the list that was printed{revision}",
                force.name
            )?;
            Ok(EXIT_OK)
        }
        Verdict::Differs { file } => {
            writeln!(
                out,
                "{}: does NOT match roster code {code} — this file's code is {file}{revision}",
                force.name
            )?;
            Ok(EXIT_PROBLEM)
        }
        Verdict::UnknownRevision { current } => Err(anyhow::anyhow!(
            "roster code {code} was made under rules revision {}, which this app does not have (it is at revision {current}): check it with the Quartermaster that printed it, or a newer one",
            code.revision
        )),
    }
}

pub(super) fn print_validation(name: &str, v: &Validation, out: &mut dyn Write) -> Result<()> {
    let used = v.budget.used;
    // No limit of this ruleset's kind (a wrong budget kind, which the violation below names):
    // what is used, never a "?" for the limit.
    let against = match (v.budget.min, v.budget.limit) {
        (Some(min), Some(max)) => format!("{used} / {min}–{max}"),
        (None, Some(max)) => format!("{used} / {max}"),
        _ => format!("{used}"),
    };
    let used_word = if v.budget.limit.is_none() {
        " used"
    } else {
        ""
    };
    let id = v
        .budget
        .id
        .as_deref()
        .map(|id| format!(" ({id})"))
        .unwrap_or_default();
    writeln!(
        out,
        "{name}: {} — {against} {}{used_word}{id}",
        if v.legal { "legal" } else { "NOT legal" },
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
