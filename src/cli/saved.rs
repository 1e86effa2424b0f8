//! `quartermaster force save|list|show|export|delete`: the forces kept in the database.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, anyhow};
use serde_json::Value;

use super::force::{print_validation, read_force_file};
use super::{EXIT_OK, data_dir, print_json};
use crate::rules::validation::validate;
use crate::rules::{Force, force_file, force_text};
use crate::store::{ForceId, Store, StoredForce};

fn open(data_dir_arg: Option<&Path>) -> Result<Store> {
    let dir = data_dir(data_dir_arg)?;
    Store::open(&dir).with_context(|| format!("cannot open the database in {}", dir.display()))
}

/// Imports a force file. The file is read and checked before the database is opened, so bad
/// input never touches it.
pub fn save(
    data_dir_arg: Option<&Path>,
    file: &Path,
    replace: bool,
    out: &mut dyn Write,
) -> Result<u8> {
    let force = read_force_file(file)?;
    let mut store = open(data_dir_arg)?;
    store_force(&mut store, &force, replace, &file.display().to_string())?;
    writeln!(out, "{}", force.name)?;
    Ok(EXIT_OK)
}

/// Saves `force` as a new force, or over the one of its name with `replace`; `what` names the
/// input in the error.
fn store_force(store: &mut Store, force: &Force, replace: bool, what: &str) -> Result<()> {
    let existing = if replace {
        store.find_force(&force.name)?
    } else {
        None
    };
    store.save_force(existing, force).with_context(|| {
        if replace {
            format!("cannot save {what}")
        } else {
            format!("cannot save {what} (use --replace to overwrite)")
        }
    })?;
    Ok(())
}

/// Imports a text list (a file, or standard input for `-`): every line it cannot place is
/// named and nothing is saved; what it assumed is said after the name.
pub fn import_text(
    data_dir_arg: Option<&Path>,
    file: &Path,
    replace: bool,
    out: &mut dyn Write,
) -> Result<u8> {
    let text = if file == Path::new("-") {
        std::io::read_to_string(std::io::stdin()).context("cannot read standard input")?
    } else {
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?
    };
    let mut store = open(data_dir_arg)?;
    let cards = store.custom_cards()?;
    let (data, force_orgs) = store.army_library()?;
    let custom: Vec<&crate::rules::Card> = cards
        .iter()
        .map(|(_, card)| card)
        .chain(data.iter())
        .collect();
    let library = force_text::Library {
        cards: &custom,
        force_orgs: &force_orgs,
    };
    let where_from = if file == Path::new("-") {
        "standard input".to_string()
    } else {
        file.display().to_string()
    };
    let parsed = force_text::parse_with(&text, library).map_err(|errors| {
        anyhow!(
            "{where_from}: nothing imported — {} could not be placed: {errors}",
            crate::rules::words::plural(errors.0.len() as u64, "line", "lines")
        )
    })?;
    let force = parsed.force;
    store_force(&mut store, &force, replace, &force.name)?;
    writeln!(out, "{}", force.name)?;
    for note in parsed.notes {
        writeln!(out, "note: {note}")?;
    }
    print_validation(&force.name, &validate(&force), out)?;
    Ok(EXIT_OK)
}

/// A saved force as a list for a chat message.
pub fn show_text(
    data_dir_arg: Option<&Path>,
    name: &str,
    style: force_text::TextStyle,
    out: &mut dyn Write,
) -> Result<u8> {
    let store = open(data_dir_arg)?;
    let stored = load_named(&store, name)?;
    let force = &stored.force;
    write!(
        out,
        "{}",
        force_text::to_text(force, &validate(force), style)
    )?;
    Ok(EXIT_OK)
}

pub fn list(data_dir_arg: Option<&Path>, json: bool, out: &mut dyn Write) -> Result<u8> {
    let store = open(data_dir_arg)?;
    let forces = store.list_forces()?;
    if json {
        print_json(out, &forces)?;
        return Ok(EXIT_OK);
    }
    if forces.is_empty() {
        let place = store
            .path()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        writeln!(out, "no forces saved yet in {place}")?;
    }
    for force in &forces {
        writeln!(
            out,
            "{:>5}  {:<32} {:<16} {:>4} units  {}",
            force.id,
            force.name,
            force.ruleset.as_str(),
            force.units,
            force.updated_at
        )?;
    }
    Ok(EXIT_OK)
}

/// The saved force called `name`, or an error pointing at `force list`.
fn load_named(store: &Store, name: &str) -> Result<StoredForce> {
    let id: ForceId = store.find_force(name)?.ok_or_else(|| {
        let place = store
            .path()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        anyhow!("no force named '{name}' in {place} (see `quartermaster force list`)")
    })?;
    Ok(store.load_force(id)?)
}

/// The saved force called `name` in the database of `data_dir_arg` (`force verify NAME`).
pub fn load_by_name(data_dir_arg: Option<&Path>, name: &str) -> Result<Force> {
    let store = open(data_dir_arg)?;
    Ok(load_named(&store, name)?.force)
}

pub fn show(
    data_dir_arg: Option<&Path>,
    name: &str,
    json: bool,
    out: &mut dyn Write,
) -> Result<u8> {
    let store = open(data_dir_arg)?;
    let stored = load_named(&store, name)?;
    if json {
        let mut value: Value = serde_json::from_str(&force_file::to_json(&stored.force))?;
        if !stored.card_changes.is_empty()
            && let Value::Object(map) = &mut value
        {
            map.insert(
                "card_changes".into(),
                serde_json::to_value(&stored.card_changes)?,
            );
        }
        print_json(out, &value)?;
        return Ok(EXIT_OK);
    }
    print_force(&stored.force, out)?;
    print_validation(&stored.force.name, &validate(&stored.force), out)?;
    if !stored.card_changes.is_empty() {
        writeln!(out, "Book cards changed since this force was saved:")?;
        for change in &stored.card_changes {
            writeln!(out, "  ⚠ {change}")?;
        }
    }
    Ok(EXIT_OK)
}

fn print_force(force: &Force, out: &mut dyn Write) -> Result<()> {
    writeln!(
        out,
        "{} — {}, {}",
        force.name,
        force.ruleset.title(),
        force.budget.words()
    )?;
    for unit in &force.units {
        let mut line = format!("  {:>3} × {}", unit.count, unit.card.label());
        if let Some(points) = unit.points {
            line.push_str(&format!(", {points} pts"));
        }
        if let Some(stands) = unit.stands {
            line.push_str(&format!(", {stands} stands"));
        }
        if let Some(group) = &unit.group {
            line.push_str(&format!("  [{group}]"));
        }
        writeln!(out, "{line}")?;
    }
    if !force.notes.is_empty() {
        writeln!(out, "Notes: {}", force.notes)?;
    }
    Ok(())
}

pub fn export(
    data_dir_arg: Option<&Path>,
    name: &str,
    path: &Path,
    out: &mut dyn Write,
) -> Result<u8> {
    let store = open(data_dir_arg)?;
    let stored = load_named(&store, name)?;
    std::fs::write(path, force_file::to_json(&stored.force))
        .with_context(|| format!("cannot write {}", path.display()))?;
    writeln!(out, "wrote {} to {}", stored.force.name, path.display())?;
    Ok(EXIT_OK)
}

pub fn delete(data_dir_arg: Option<&Path>, name: &str, out: &mut dyn Write) -> Result<u8> {
    let mut store = open(data_dir_arg)?;
    let stored = load_named(&store, name)?;
    store.delete_force(stored.id)?;
    writeln!(out, "deleted {}", stored.force.name)?;
    Ok(EXIT_OK)
}
