//! `quartermaster campaign new|list|show|export|import|…`: campaigns in the database.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use clap::Subcommand;

mod flags;
mod record;
mod show;
mod sync;

pub use show::show_json;
use show::show_text;

use super::{EXIT_OK, data_dir, print_json};
use crate::campaign::{self, CampaignRecord, LorraineOptions, Sides, file};
use crate::store::{Store, StoredCampaign};

#[derive(Debug, Subcommand)]
pub enum CampaignCommand {
    /// Start a campaign: `campaign new lorraine --name NAME`.
    New {
        /// The campaign: `lorraine` (Armour Battles, Lorraine 1944).
        scenario: String,
        /// The campaign's name (at most 200 characters, unique in the library).
        #[arg(long)]
        name: String,
        /// Who plays the US.
        #[arg(long, default_value = "")]
        us: String,
        /// Who plays the Germans.
        #[arg(long, default_value = "")]
        german: String,
        /// Units dispersed in a battle are missing from later ones (house option, off).
        #[arg(long)]
        carry_losses: bool,
    },
    /// List the campaigns.
    List {
        /// Print JSON: a list of {row, id, uid, name, ruleset, battles, events, …}.
        #[arg(long)]
        json: bool,
    },
    /// Battles, results and army morale of one campaign.
    Show {
        /// The campaign's name (case does not matter).
        name: String,
        /// Print JSON: the campaign, its battles, units and forks.
        #[arg(long)]
        json: bool,
        /// Also print every battle's event log.
        #[arg(long)]
        log: bool,
    },
    /// Write a campaign as JSON (re-importable) or as a PDF after-action report.
    Export {
        /// The campaign's name (case does not matter).
        name: String,
        /// FILE.json or FILE.pdf.
        #[arg(long)]
        out: PathBuf,
    },
    /// Read a campaign file written by `campaign export`.
    Import {
        /// A campaign file (JSON) written by `campaign export` or `campaign share`.
        file: PathBuf,
        /// Store it under this name instead of the file's.
        #[arg(long)]
        name: Option<String>,
    },
    /// Add the book's "What next?" battle (all Battle 3 forces, free deployment).
    WhatNext {
        /// The campaign's name (case does not matter).
        name: String,
        /// Three M7 HMCs and two 105mm howitzers, +1 Army Morale and +1 Staff Order a side.
        #[arg(long)]
        extra_artillery: bool,
    },
    /// Delete a campaign with all its battles and events.
    Delete {
        /// The campaign's name (case does not matter).
        name: String,
    },
    /// Share a campaign to a folder that a file sync carries between machines (one file per
    /// machine in it); reads what the folder already holds.
    Share {
        /// The campaign's name (case does not matter).
        name: String,
        /// The synced folder to write this machine's file into (created if missing).
        #[arg(long, value_name = "DIR")]
        folder: PathBuf,
        /// Print JSON: the folder, each file read and what was written.
        #[arg(long)]
        json: bool,
    },
    /// Merge another copy of a campaign: a shared folder or a campaign file (default: the
    /// folder it was shared to). A NAME not in the library is joined from PATH.
    Sync {
        /// The campaign's name (case does not matter); a new one is joined from PATH.
        name: String,
        /// A shared folder or one campaign file (default: the folder it was shared to).
        path: Option<PathBuf>,
        /// Print JSON: {folder, files: [{file, status, note}], added, …}.
        #[arg(long)]
        json: bool,
    },
    /// Record a tracker action in a battle and print the event appended.
    Record(flags::RecordArgs),
    /// Who this machine records events as (asked once): `campaign player NAME`.
    Player {
        /// The player name to record as; without it, prints the current one.
        name: Option<String>,
        /// How this machine is named in logs (default: the computer's name).
        #[arg(long)]
        machine: Option<String>,
    },
}

fn open(data_dir_arg: Option<&Path>) -> Result<Store> {
    let dir = data_dir(data_dir_arg)?;
    Store::open(&dir).with_context(|| format!("cannot open the database in {}", dir.display()))
}

fn load(store: &Store, name: &str) -> Result<StoredCampaign> {
    let id = store
        .find_campaign(name)?
        .ok_or_else(|| anyhow!("no campaign named '{name}' (see `quartermaster campaign list`)"))?;
    Ok(store.load_campaign(id)?)
}

pub fn run(
    command: CampaignCommand,
    data_dir_arg: Option<&Path>,
    out: &mut dyn Write,
) -> Result<u8> {
    match command {
        CampaignCommand::New {
            scenario,
            name,
            us,
            german,
            carry_losses,
        } => {
            if !scenario.eq_ignore_ascii_case("lorraine") {
                bail!("unknown campaign '{scenario}': the book campaign is `lorraine`");
            }
            let created = campaign::new_lorraine(
                &name,
                Sides { us, german },
                LorraineOptions { carry_losses },
            )?;
            let mut store = open(data_dir_arg)?;
            let stored = store.create_campaign_record(&CampaignRecord::new(
                crate::store::new_campaign_uid(),
                created,
            ))?;
            writeln!(out, "{}", stored.record.campaign.name)?;
            for plan in &stored.record.campaign.battles {
                writeln!(out, "  {}", plan.title())?;
            }
            Ok(EXIT_OK)
        }
        CampaignCommand::List { json } => list(data_dir_arg, json, out),
        CampaignCommand::Show { name, json, log } => {
            let store = open(data_dir_arg)?;
            let stored = load(&store, &name)?;
            if json {
                print_json(out, &show_json(&stored.record))?;
            } else {
                show_text(&stored.record, log, out)?;
            }
            Ok(EXIT_OK)
        }
        CampaignCommand::Export { name, out: path } => {
            let store = open(data_dir_arg)?;
            let stored = load(&store, &name)?;
            let bytes = match path.extension().and_then(|e| e.to_str()) {
                Some(ext) if ext.eq_ignore_ascii_case("json") => {
                    file::to_json(&stored.record)?.into_bytes()
                }
                Some(ext) if ext.eq_ignore_ascii_case("pdf") => pdf_report(&stored.record)?,
                _ => bail!("--out {}: give a .json or .pdf file name", path.display()),
            };
            std::fs::write(&path, &bytes)
                .with_context(|| format!("cannot write {}", path.display()))?;
            let what = if bytes.starts_with(b"%PDF") {
                "the after-action report of"
            } else {
                "the campaign file (re-importable) of"
            };
            let battles = stored.record.campaign.battles.len() as u64;
            writeln!(
                out,
                "wrote {what} {} ({}, {} KB) to {}",
                stored.record.campaign.name,
                crate::rules::words::amount(battles, "battles"),
                bytes.len().div_ceil(1024),
                path.display()
            )?;
            Ok(EXIT_OK)
        }
        CampaignCommand::Import { file: path, name } => {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let mut record = file::parse(&text).with_context(|| format!("{}", path.display()))?;
            let mut store = open(data_dir_arg)?;
            let mut copy = false;
            if let Some(name) = name {
                crate::campaign::verify::name(name.trim())
                    .map_err(|message| anyhow::anyhow!("--name: {message}"))?;
                // The same campaign is already here: a new name asks for a separate copy,
                // with ids of its own (so the two never merge into each other by mistake).
                if store.find_campaign_by_uid(record.id)?.is_some() {
                    record = record.as_copy(crate::store::new_campaign_uid());
                    copy = true;
                }
                record.campaign.name = name.trim().to_string();
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
            Ok(EXIT_OK)
        }
        CampaignCommand::WhatNext {
            name,
            extra_artillery,
        } => {
            let mut store = open(data_dir_arg)?;
            let mut stored = load(&store, &name)?;
            let number = stored.record.add_what_next(extra_artillery)?;
            store.add_campaign_battle(stored.id, &stored.record.campaign)?;
            writeln!(
                out,
                "Battle {number} added to {}",
                stored.record.campaign.name
            )?;
            Ok(EXIT_OK)
        }
        CampaignCommand::Share { name, folder, json } => {
            let mut store = open(data_dir_arg)?;
            sync::share(&mut store, &name, &folder, json, out)
        }
        CampaignCommand::Sync { name, path, json } => {
            let mut store = open(data_dir_arg)?;
            sync::sync(&mut store, &name, path.as_deref(), json, out)
        }
        CampaignCommand::Record(args) => {
            let mut store = open(data_dir_arg)?;
            record::run(&mut store, args, out)
        }
        CampaignCommand::Player { name, machine } => {
            let mut store = open(data_dir_arg)?;
            sync::player(&mut store, name.as_deref(), machine.as_deref(), out)
        }
        CampaignCommand::Delete { name } => {
            let mut store = open(data_dir_arg)?;
            let id = store
                .find_campaign(&name)?
                .ok_or_else(|| anyhow!("no campaign named '{name}'"))?;
            store.delete_campaign(id)?;
            writeln!(out, "deleted {name}")?;
            Ok(EXIT_OK)
        }
    }
}

fn pdf_report(record: &CampaignRecord) -> Result<Vec<u8>> {
    let date = super::export::today()?;
    crate::export::export_after_action(record, "a4", date, &mut crate::export::no_progress)
        .context("could not lay out the after-action report")
}

fn list(data_dir_arg: Option<&Path>, json: bool, out: &mut dyn Write) -> Result<u8> {
    let store = open(data_dir_arg)?;
    let campaigns = store.list_campaigns()?;
    if json {
        // `id` has long been the row number here while `campaign show --json` uses it for the
        // shared id: both now carry `campaign_id`, and the row number is also `row`, so a script
        // need not guess; `id` stays for the scripts that read it.
        let rows = campaigns
            .iter()
            .map(|c| {
                let mut value = serde_json::to_value(c)?;
                if let Some(map) = value.as_object_mut() {
                    map.insert("row".into(), serde_json::json!(c.id));
                }
                Ok(value)
            })
            .collect::<Result<Vec<_>>>()?;
        print_json(out, &rows)?;
        return Ok(EXIT_OK);
    }
    if campaigns.is_empty() {
        writeln!(
            out,
            "No campaigns yet: `quartermaster campaign new lorraine --name NAME` starts one."
        )?;
    }
    for c in campaigns {
        let note = if c.openable {
            ""
        } else {
            " (from an older version: cannot be opened)"
        };
        writeln!(
            out,
            "{}  [{}]  {}, {}{note}",
            c.name,
            c.ruleset,
            crate::rules::words::amount(u64::from(c.battles), "battles"),
            crate::rules::words::amount(u64::from(c.events), "events")
        )?;
    }
    Ok(EXIT_OK)
}
