//! `quartermaster campaign import FILE [--name NAME]`: a campaign file written by `campaign
//! export` (or `share`), read safely (a regular file only, size-capped: never a FIFO, a device
//! or a folder), checked in full, and stored. A campaign from before campaigns had a genesis —
//! an old file, or one whose events were not all signed — is sealed on the way in
//! (`docs/trust.md`, "Legacy campaigns"): it becomes a campaign of its own, rooted here.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};

use super::super::EXIT_OK;
use crate::campaign::file;
use crate::store::Store;

pub fn run(store: &mut Store, path: &Path, name: Option<&str>, out: &mut dyn Write) -> Result<u8> {
    let text = crate::sync::read_campaign_file(path)
        .map_err(|why| anyhow!("cannot read {}: {why}", path.display()))?;
    let mut record = file::parse(&text).with_context(|| format!("{}", path.display()))?;
    let mut copy = false;
    if let Some(name) = name {
        crate::campaign::text::name(name.trim()).map_err(|message| anyhow!("--name: {message}"))?;
        // The same campaign is already here: a new name asks for a separate copy, with ids of
        // its own (so the two never merge into each other by mistake).
        let held = store.find_campaign_by_uid(record.id)?.is_some()
            || store.find_sealed_from(record.id)?.is_some();
        if held {
            record = record.as_copy(crate::store::new_campaign_uid());
            copy = true;
        }
        record.campaign.name = name.trim().to_string();
    }
    let mut sealed = false;
    if record.genesis.is_none() {
        if let Some(there) = store.find_sealed_from(record.id)? {
            let here = store.load_campaign(there)?.record.campaign.name;
            bail!(
                "cannot import {}: it was imported before, as '{here}' (use --name to store a separate copy)",
                path.display()
            );
        }
        record = store.seal_campaign(&record)?;
        sealed = true;
    }
    let stored = store.create_campaign_record(&record).with_context(|| {
        format!(
            "cannot import {} (use --name to store it under another name)",
            path.display()
        )
    })?;
    writeln!(out, "{}", stored.record.campaign.name)?;
    if copy {
        writeln!(
            out,
            "  (a separate copy: this library already holds the campaign the file came from)"
        )?;
    }
    if sealed {
        writeln!(
            out,
            "  sealed: the file's campaign was begun before campaigns were rooted, so this library signed a record listing every event it holds; it is a campaign of its own (id {}), shared from here as any other",
            stored.record.id
        )?;
    }
    for notice in store.take_notices() {
        writeln!(out, "  {notice}")?;
    }
    Ok(EXIT_OK)
}
