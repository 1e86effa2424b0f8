//! `quartermaster campaign share|sync|player`: one campaign on several machines through a
//! shared folder or a campaign file (the work is [`crate::sync`]'s and the merge
//! [`crate::campaign::merge`]'s; this prints what happened).

use std::io::{BufRead, Write};
use std::path::Path;

use anyhow::{Result, anyhow, bail};

use super::super::{EXIT_OK, EXIT_PROBLEM, print_json};
use crate::store::{SETTING_MACHINE_NAME, SETTING_PLAYER, Store};
use crate::sync::{self, SyncError, SyncReport};

/// `campaign share NAME --folder DIR`.
pub fn share(
    store: &mut Store,
    name: &str,
    folder: &Path,
    json: bool,
    out: &mut dyn Write,
) -> Result<u8> {
    let id = store
        .find_campaign(name)?
        .ok_or_else(|| anyhow!("no campaign named '{name}' (see `quartermaster campaign list`)"))?;
    let report = reported(sync::share(store, id, folder), json, out)?;
    if !json {
        writeln!(
            out,
            "Shared to {}: on another machine, `quartermaster campaign sync \"{name}\" {}` joins it; `campaign sync \"{name}\"` brings it up to date.",
            folder.display(),
            folder.display()
        )?;
    }
    Ok(report)
}

/// What `campaign sync` is asked to do besides merging.
#[derive(Debug, Clone, Default)]
pub struct SyncOptions<'a> {
    pub path: Option<&'a Path>,
    /// Join the campaign at `path` under this name (NAME is taken by another campaign here).
    pub join_as: Option<&'a str>,
    /// List the folder's files and remove the redundant ones.
    pub tidy: bool,
    /// Remove them without asking.
    pub yes: bool,
    /// Machines the players say left (machine ids or names): their files may go before
    /// they have been silent for the set time.
    pub departed: Vec<String>,
    pub json: bool,
}

/// `campaign sync NAME [PATH] [--as NEW] [--tidy [--yes]]`: merge a shared folder or a campaign
/// file into NAME; with no PATH, the folder NAME was shared to. A NAME not in the library is
/// joined from PATH (the second machine); so is one given `--as NEW`, under NEW.
pub fn sync(
    store: &mut Store,
    name: &str,
    options: &SyncOptions<'_>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<u8> {
    let (path, json) = (options.path, options.json);
    if let Some(new_name) = options.join_as {
        let path = path.ok_or_else(|| anyhow!("--as: give the folder or file to join from"))?;
        return join(store, name, new_name, path, json, out);
    }
    let Some(id) = store.find_campaign(name)? else {
        let path = path.ok_or_else(|| {
            anyhow!("no campaign named '{name}': give the shared folder or campaign file to join it from")
        })?;
        return join(store, name, name, path, json, out);
    };
    if options.tidy {
        return tidy(store, id, options, input, out);
    }
    let uid = store.campaign_uid(id)?;
    let result = match path {
        Some(p) if std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file()) => {
            sync::sync_file(store, id, p)
        }
        Some(p) => {
            refuse_another_campaign(p, uid, name)?;
            if sync::shared_folder(store, id)?.is_none() {
                // Syncing with a folder for the first time shares to it.
                sync::share(store, id, p)
            } else {
                sync::sync_folder(store, id, p)
            }
        }
        None => {
            let folder = sync::shared_folder(store, id)?.ok_or_else(|| {
                anyhow!("'{name}' is not shared: `campaign share \"{name}\" --folder DIR` first, or give a file or folder")
            })?;
            sync::sync_folder(store, id, &folder)
        }
    };
    reported(result, json, out)
}

/// A folder whose campaign is not the one named here: syncing the library's campaign of that
/// name with it would share the wrong one. Says how to join it instead.
fn refuse_another_campaign(
    folder: &Path,
    uid: crate::campaign::CampaignUid,
    name: &str,
) -> Result<()> {
    if let Some(file) = sync::other_campaign_in(folder, uid)? {
        bail!(
            "{} holds another campaign ({file}) than this library's '{name}': join it under another name with `quartermaster campaign sync \"{name}\" {} --as \"NEW NAME\"`",
            folder.display(),
            folder.display()
        );
    }
    Ok(())
}

/// Prints a sync's report; a merge stored while this machine's file could not be written is
/// printed too, then said (exit 1: the folder is behind).
fn reported(result: Result<SyncReport, SyncError>, json: bool, out: &mut dyn Write) -> Result<u8> {
    match result {
        Ok(report) => {
            print_report(&report, json, out)?;
            Ok(EXIT_OK)
        }
        Err(SyncError::NotWritten { report, error, .. }) => {
            print_report(&report, json, out)?;
            if !json {
                writeln!(
                    out,
                    "  this machine's file in the folder was not written: {error} (the merge is stored; the file is written at the next sync)"
                )?;
            }
            Ok(EXIT_PROBLEM)
        }
        Err(other) => Err(other.into()),
    }
}

/// The second machine: the campaign from a shared folder (every file of it read once and merged
/// event by event) or a campaign file, stored under `store_as`, and shared back to the folder.
fn join(
    store: &mut Store,
    name: &str,
    store_as: &str,
    path: &Path,
    json: bool,
    out: &mut dyn Write,
) -> Result<u8> {
    crate::campaign::text::name(store_as.trim()).map_err(|m| anyhow!("NAME: {m}"))?;
    let found = sync::read_to_join(path, name)?;
    let events = found.record.event_count();
    // A folder reached through a symbolic link (~/Sync → /mnt/data/Sync) is the folder.
    let folder = std::fs::metadata(path)
        .is_ok_and(|m| m.is_dir())
        .then_some(path);
    let joined = sync::join(store, found, store_as.trim(), folder);
    if !json && matches!(&joined, Ok(_) | Err(SyncError::NotWritten { .. })) {
        writeln!(
            out,
            "{}: {} from {}",
            store_as.trim(),
            crate::rules::words::amount(events as u64, "events"),
            path.display()
        )?;
    }
    reported(joined.map(|(_, report)| report), json, out)
}

/// `campaign admit NAME PLAYER [--machine M] --key FINGERPRINT`: settles who a name belongs to.
pub fn admit(
    store: &mut Store,
    name: &str,
    player: &str,
    machine: &str,
    key: &str,
    out: &mut dyn Write,
) -> Result<u8> {
    let id = store
        .find_campaign(name)?
        .ok_or_else(|| anyhow!("no campaign named '{name}' (see `quartermaster campaign list`)"))?;
    let names = crate::campaign::Recorder {
        player: player.trim().to_string(),
        machine: machine.trim().to_string(),
    };
    let admission = store.admit(id, names.clone(), key)?;
    writeln!(
        out,
        "Admitted key {} as {} in {name}{}: from now on only this key's events are shown under that name",
        admission.admits.fingerprint(),
        names.label(),
        if admission.replaces.is_empty() {
            String::new()
        } else {
            format!(
                " (overruling {})",
                crate::rules::words::amount(admission.replaces.len() as u64, "earlier admissions")
            )
        }
    )?;
    for notice in store.take_notices() {
        writeln!(out, "  {notice}")?;
    }
    Ok(EXIT_OK)
}

/// `--tidy`: the folder's files by machine, and the redundant ones removed after asking.
fn tidy(
    store: &mut Store,
    id: crate::store::CampaignId,
    options: &SyncOptions<'_>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<u8> {
    let (yes, json, departed) = (options.yes, options.json, &options.departed);
    let (folder, files) = sync::tidy::survey(store, id, departed)?;
    let redundant: Vec<String> = files
        .iter()
        .filter(|f| f.redundant)
        .map(|f| f.file.clone())
        .collect();
    if json {
        let removed = if yes {
            sync::tidy::tidy(store, id, departed)?
        } else {
            Vec::new()
        };
        print_json(
            out,
            &serde_json::json!({"folder": folder, "files": files, "removed": removed}),
        )?;
        return Ok(EXIT_OK);
    }
    writeln!(out, "{}:", folder.display())?;
    for f in &files {
        let who = if f.who.is_empty() {
            "nobody named".to_string()
        } else {
            f.who.join(", ")
        };
        let mark = f.verdict();
        writeln!(
            out,
            "  {}  {}  {}  {}, {}  [{mark}]",
            f.file,
            who,
            short_time(&f.modified),
            crate::rules::words::amount(f.bytes, "bytes"),
            crate::rules::words::amount(f.events as u64, "events"),
        )?;
    }
    if redundant.is_empty() {
        writeln!(out, "Nothing to remove: {}.", sync::tidy::RULE)?;
        return Ok(EXIT_OK);
    }
    if !yes {
        write!(
            out,
            "Remove the {} that can go? Nothing is lost: their machines are gone, and this machine's file holds each of their events. [y/N] ",
            crate::rules::words::amount(redundant.len() as u64, "files")
        )?;
        out.flush()?;
        let mut answer = String::new();
        input.read_line(&mut answer)?;
        if !matches!(answer.trim(), "y" | "Y" | "yes" | "Yes") {
            writeln!(out, "Nothing removed.")?;
            return Ok(EXIT_OK);
        }
    }
    let removed = sync::tidy::tidy(store, id, departed)?;
    writeln!(
        out,
        "Removed {}.",
        crate::rules::words::amount(removed.len() as u64, "files")
    )?;
    Ok(EXIT_OK)
}

/// "2026-11-25 10:00" from a recording time.
fn short_time(iso: &str) -> String {
    iso.get(..16)
        .map_or_else(|| iso.to_string(), |t| t.replace('T', " "))
}

fn print_report(report: &SyncReport, json: bool, out: &mut dyn Write) -> Result<()> {
    if json {
        return print_json(out, report);
    }
    writeln!(out, "{}", report.summary())?;
    for skipped in report.skipped() {
        writeln!(out, "  skipped {}: {}", skipped.file, skipped.note)?;
    }
    for f in report
        .files
        .iter()
        .filter(|f| f.status == sync::FileStatus::Merged && f.note.contains("damaged"))
    {
        writeln!(out, "  {}: {}", f.file, f.note)?;
    }
    for refused in &report.refused {
        writeln!(
            out,
            "  refused event …{} (battle {}, {}) from {}: {}",
            refused.event, refused.battle, refused.kind, refused.file, refused.reason
        )?;
    }
    for notice in &report.notices {
        writeln!(out, "  {notice}")?;
    }
    for conflict in &report.conflicts {
        writeln!(out, "  {conflict}")?;
    }
    if let Some(path) = &report.wrote {
        writeln!(out, "  wrote {}", path.display())?;
    }
    Ok(())
}

/// `campaign player [NAME] [--machine NAME]`: who this machine records events as, and the key
/// it signs them with.
pub fn player(
    store: &mut Store,
    name: Option<&str>,
    machine: Option<&str>,
    out: &mut dyn Write,
) -> Result<u8> {
    for (key, value, field) in [
        (SETTING_PLAYER, name, "NAME"),
        (SETTING_MACHINE_NAME, machine, "--machine"),
    ] {
        if let Some(value) = value {
            crate::campaign::text::name(value.trim()).map_err(|m| anyhow!("{field}: {m}"))?;
            store.set_setting(key, value.trim())?;
        }
    }
    let by = store.recorder()?;
    let player = if by.player.is_empty() {
        "(no player name yet: `quartermaster campaign player NAME`)".to_string()
    } else {
        by.player
    };
    let key = if store.read_only_reason().is_none() {
        format!(", key {}", store.machine_key()?.public().fingerprint())
    } else {
        String::new()
    };
    writeln!(out, "{player} on {}{key}", by.machine)?;
    for notice in store.take_notices() {
        writeln!(out, "  {notice}")?;
    }
    Ok(EXIT_OK)
}
