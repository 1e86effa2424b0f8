//! `quartermaster campaign share|sync|player`: one campaign on several machines through a
//! shared folder or a campaign file (the work is [`crate::sync`]'s and the merge
//! [`crate::campaign::merge`]'s; this prints what happened).

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};

use super::super::{EXIT_OK, print_json};
use crate::campaign::{CampaignRecord, file, merge};
use crate::store::{SETTING_MACHINE_NAME, SETTING_PLAYER, Store};
use crate::sync::{self, SyncReport};

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
    let report = sync::share(store, id, folder)?;
    print_report(&report, json, out)?;
    if !json {
        writeln!(
            out,
            "Shared to {}: on another machine, `quartermaster campaign sync \"{name}\" {}` joins it; `campaign sync \"{name}\"` brings it up to date.",
            folder.display(),
            folder.display()
        )?;
    }
    Ok(EXIT_OK)
}

/// `campaign sync NAME [PATH]`: merge a shared folder or a campaign file into NAME; with no
/// PATH, the folder NAME was shared to. A NAME not in the library is created from PATH (the
/// second machine joining).
pub fn sync(
    store: &mut Store,
    name: &str,
    path: Option<&Path>,
    json: bool,
    out: &mut dyn Write,
) -> Result<u8> {
    let Some(id) = store.find_campaign(name)? else {
        let path = path.ok_or_else(|| {
            anyhow!("no campaign named '{name}': give the shared folder or campaign file to join it from")
        })?;
        return join(store, name, path, json, out);
    };
    let report = match path {
        Some(p) if p.is_file() => sync::sync_file(store, id, p)?,
        Some(p) => {
            let record = store.load_campaign(id)?.record;
            if sync::shared_folder(store, &record)?.is_none() {
                // Syncing with a folder for the first time shares to it.
                sync::share(store, id, p)?
            } else {
                sync::sync_folder(store, id, p)?
            }
        }
        None => {
            let record = store.load_campaign(id)?.record;
            let folder = sync::shared_folder(store, &record)?.ok_or_else(|| {
                anyhow!("'{name}' is not shared: `campaign share \"{name}\" --folder DIR` first, or give a file or folder")
            })?;
            sync::sync_folder(store, id, &folder)?
        }
    };
    print_report(&report, json, out)?;
    Ok(EXIT_OK)
}

/// The second machine: the campaign from a shared folder (every file of one campaign merged)
/// or a campaign file, stored under `name`, and shared back to the folder.
fn join(store: &mut Store, name: &str, path: &Path, json: bool, out: &mut dyn Write) -> Result<u8> {
    crate::campaign::text::name(name.trim()).map_err(|m| anyhow!("NAME: {m}"))?;
    let mut record = if path.is_dir() {
        from_folder(path)?
    } else {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        file::parse(&text).with_context(|| format!("{}", path.display()))?
    };
    if let Some(existing) = store.find_campaign_by_uid(record.id)? {
        let here = store.load_campaign(existing)?.record.campaign.name;
        bail!(
            "this campaign is already in the library as '{here}': `campaign sync \"{here}\" {}`",
            path.display()
        );
    }
    record.campaign.name = name.trim().to_string();
    let stored = store.create_campaign_record(&record)?;
    writeln!(
        out,
        "{}: {} from {}",
        stored.record.campaign.name,
        crate::rules::words::amount(stored.record.event_count() as u64, "events"),
        path.display()
    )?;
    if path.is_dir() {
        let report = sync::share(store, stored.id, path)?;
        print_report(&report, json, out)?;
    }
    Ok(EXIT_OK)
}

/// Every machine's file of the one campaign in `folder`, merged: the first fully verified,
/// the others by the merge.
fn from_folder(folder: &Path) -> Result<CampaignRecord> {
    let mut found: Option<CampaignRecord> = None;
    let mut entries: Vec<_> = std::fs::read_dir(folder)
        .with_context(|| format!("cannot list {}", folder.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("qm-") && n.ends_with(".json"))
        })
        .collect();
    entries.sort();
    for path in entries {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        // Unreadable files (half-written, damaged) are left for the next sync.
        found = match found.take() {
            None => file::parse(&text).ok(),
            Some(base) => match file::read_unverified(&text) {
                Ok(copy) if copy.id != base.id => bail!(
                    "{} holds more than one campaign; join one by its file: `campaign sync NAME FILE`",
                    folder.display()
                ),
                Ok(copy) => Some(merge::merge(&base, &copy).map_or(base, |(merged, _)| merged)),
                Err(_) => Some(base),
            },
        };
    }
    found.ok_or_else(|| {
        anyhow!(
            "{} holds no readable campaign file (qm-….json)",
            folder.display()
        )
    })
}

fn print_report(report: &SyncReport, json: bool, out: &mut dyn Write) -> Result<()> {
    if json {
        return print_json(out, report);
    }
    writeln!(out, "{}", report.summary())?;
    for skipped in report.skipped() {
        writeln!(out, "  skipped {}: {}", skipped.file, skipped.note)?;
    }
    if let Some(path) = &report.wrote {
        writeln!(out, "  wrote {}", path.display())?;
    }
    Ok(())
}

/// `campaign player [NAME] [--machine NAME]`: who this machine records events as.
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
    writeln!(out, "{player} on {}", by.machine)?;
    Ok(EXIT_OK)
}
