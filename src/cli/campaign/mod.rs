//! `quartermaster campaign new|list|show|export|import|…`: campaigns in the database.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use clap::Subcommand;

mod flags;
mod import;
mod next;
pub(crate) mod record;
mod show;
mod sync;

pub use show::show_json;
use show::show_text;

use super::{EXIT_OK, data_dir, print_json};
use crate::campaign::{self, CampaignOptions, CampaignRecord, Sides, file};
use crate::rules::RulesetId;
use crate::store::{Store, StoredCampaign};

#[derive(Debug, Subcommand)]
pub enum CampaignCommand {
    /// Start a campaign: a scripted campaign from its briefings (`campaign new lorraine --name
    /// NAME`), or a campaign of any ruleset between two forces: `campaign new RULESET --name
    /// NAME --force F --force G`.
    New {
        /// A scripted campaign's id (`lorraine`: Armour Battles, Lorraine 1944), or a
        /// ruleset's id as `quartermaster rulesets` lists them.
        scenario: String,
        /// The campaign's name (at most 200 characters, unique in the library).
        #[arg(long)]
        name: String,
        /// Who plays the first side (the US in Lorraine), or fields the first force.
        #[arg(long, alias = "us", default_value = "")]
        first: String,
        /// Who plays the second side (the Germans in Lorraine), or fields the second force.
        #[arg(long, alias = "german", default_value = "")]
        second: String,
        /// The two forces of a campaign of another ruleset, first player's first: a saved
        /// force's name, or a force file (an opponent's `force export`).
        #[arg(long = "force", value_name = "FORCE")]
        forces: Vec<String>,
        /// The first battle's name.
        #[arg(long, default_value = "Battle 1")]
        battle: String,
        /// Units dispersed in a battle are missing from later ones (house option, off).
        #[arg(long)]
        carry_losses: bool,
    },
    /// List the campaigns.
    List {
        /// Print JSON: a list of {campaign_id, row, id, name, ruleset, battles, events, …}.
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
        /// List the actions battle N offers now with their parameters (what `campaign record
        /// NAME --battle N act ACTION` takes); the first battle not yet over when no number
        /// is given.
        #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "0")]
        actions: Option<u32>,
    },
    /// Write a campaign as JSON (re-importable) or as a PDF after-action report.
    Export {
        /// The campaign's name (case does not matter).
        name: String,
        /// FILE.json or FILE.pdf.
        #[arg(long)]
        out: PathBuf,
        /// The after-action report's paper: a4 or letter.
        #[arg(long, default_value = "a4")]
        page: String,
        /// The after-action report's ink: full, or low (no filled bands, legible in black
        /// and white).
        #[arg(long, value_enum, default_value = "full")]
        ink: super::export::InkArg,
    },
    /// Read a campaign file written by `campaign export`.
    Import {
        /// A campaign file (JSON) written by `campaign export` or `campaign share`.
        file: PathBuf,
        /// Store it under this name instead of the file's.
        #[arg(long)]
        name: Option<String>,
    },
    /// Add a scripted campaign's battle after its last: Lorraine's "What next?" (all Battle 3
    /// forces, free deployment).
    WhatNext {
        /// The campaign's name (case does not matter).
        name: String,
        /// Play it the scripted campaign's other way: Lorraine's three M7 HMCs and two 105mm
        /// howitzers, +1 Army Morale and +1 Staff Order a side.
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
        /// Join the campaign at PATH under this name (when NAME is another campaign here).
        #[arg(long = "as", value_name = "NEW_NAME")]
        join_as: Option<String>,
        /// List the shared folder's files by machine and remove those of machines gone (silent
        /// for 30 days, or named with --departed) whose every line this library holds (after
        /// asking).
        #[arg(long, conflicts_with_all = ["path", "join_as"])]
        tidy: bool,
        /// With --tidy: remove without asking.
        #[arg(long, requires = "tidy")]
        yes: bool,
        /// With --tidy: a machine the players say left (its machine id or name; repeatable).
        #[arg(long, requires = "tidy", value_name = "MACHINE")]
        departed: Vec<String>,
        /// Print JSON: {folder, files: [{file, status, note}], added, …}.
        #[arg(long)]
        json: bool,
    },
    /// Record a tracker action in a battle and print the event appended.
    Record(flags::RecordArgs),
    /// Set up the next battle of a campaign fought on a board from its roster: every unit as
    /// the last battle left it (losses carried as the ruleset says), and by a house rule a
    /// step up the quality ladder after enough battles survived.
    Next {
        /// The campaign's name (case does not matter).
        name: String,
        /// The new battle's name (default "Battle N").
        #[arg(long, default_value = "")]
        battle: String,
        /// House rule: battles survived for a unit to step up (0: never).
        #[arg(long, default_value_t = crate::campaign::roster::DEFAULT_PROMOTE_AFTER)]
        promote_after: u32,
        /// Buy a replacement between battles: SIDE=CARD, or SIDE=CARD@POINTS where the
        /// ruleset prices units per force line (Bolt Action); SIDE is first or second. The
        /// roster stays within its force's budget.
        #[arg(long, value_name = "SIDE=CARD[@POINTS]")]
        reinforce: Vec<String>,
        /// Show the changes without adding the battle.
        #[arg(long)]
        dry_run: bool,
        /// Print JSON: the changes and the new battle's units.
        #[arg(long)]
        json: bool,
    },
    /// Settle who a name belongs to when two keys claim it (`campaign show` and `sync` say
    /// when): admits the key with this fingerprint under PLAYER (and --machine). Run it on a
    /// machine already admitted, after comparing fingerprints at the table.
    Admit {
        /// The campaign's name (case does not matter).
        name: String,
        /// The player name the key records as.
        player: String,
        /// The machine name the key records as.
        #[arg(long, default_value = "")]
        machine: String,
        /// The key's fingerprint, as `campaign show` lists it (3F9A-C21E).
        #[arg(long, value_name = "FINGERPRINT")]
        key: String,
    },
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
    err: &mut dyn Write,
) -> Result<u8> {
    match command {
        CampaignCommand::New {
            scenario,
            name,
            first,
            second,
            forces,
            battle,
            carry_losses,
        } => {
            let mut store = open(data_dir_arg)?;
            let players = Sides { first, second };
            let created = match campaign::scripted::find(&scenario) {
                Some(script) => {
                    if !forces.is_empty() {
                        bail!("--force: a scripted campaign's forces are its briefings");
                    }
                    let options = CampaignOptions { carry_losses };
                    campaign::new_scripted(&name, script, players, options)?
                }
                None => new_between_forces(
                    &store,
                    &scenario,
                    &name,
                    players,
                    &forces,
                    &battle,
                    carry_losses,
                )?,
            };
            let stored = store.start_campaign(created)?;
            writeln!(out, "{}", stored.record.campaign.name)?;
            for plan in &stored.record.campaign.battles {
                writeln!(out, "  {}", plan.title())?;
            }
            Ok(EXIT_OK)
        }
        CampaignCommand::List { json } => list(data_dir_arg, json, out),
        CampaignCommand::Show {
            name,
            json,
            log,
            actions,
        } => show(data_dir_arg, &name, json, log, actions, out),
        CampaignCommand::Export {
            name,
            out: path,
            page,
            ink,
        } => {
            let paper = crate::export::Paper {
                page: &page,
                ink: ink.into(),
            };
            export(data_dir_arg, &name, &path, paper, out, err)
        }
        CampaignCommand::Import { file: path, name } => {
            let mut store = open(data_dir_arg)?;
            import::run(&mut store, &path, name.as_deref(), out)
        }
        CampaignCommand::WhatNext {
            name,
            extra_artillery,
        } => what_next(data_dir_arg, &name, extra_artillery, out),
        CampaignCommand::Share { name, folder, json } => {
            let mut store = open(data_dir_arg)?;
            sync::share(&mut store, &name, &folder, json, out)
        }
        CampaignCommand::Sync {
            name,
            path,
            join_as,
            tidy,
            yes,
            departed,
            json,
        } => {
            let mut store = open(data_dir_arg)?;
            let options = sync::SyncOptions {
                path: path.as_deref(),
                join_as: join_as.as_deref(),
                tidy,
                yes,
                departed,
                json,
            };
            let stdin = std::io::stdin();
            sync::sync(&mut store, &name, &options, &mut stdin.lock(), out)
        }
        CampaignCommand::Next {
            name,
            battle,
            promote_after,
            reinforce,
            dry_run,
            json,
        } => next::run(
            data_dir_arg,
            &next::NextArgs {
                name: &name,
                battle: &battle,
                promote_after,
                reinforce: &reinforce,
                dry_run,
                json,
            },
            out,
        ),
        CampaignCommand::Record(args) => {
            let mut store = open(data_dir_arg)?;
            record::run(&mut store, args, out)
        }
        CampaignCommand::Admit {
            name,
            player,
            machine,
            key,
        } => {
            let mut store = open(data_dir_arg)?;
            sync::admit(&mut store, &name, &player, &machine, &key, out)
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

/// `campaign show NAME [--json] [--log] [--actions [N]]`.
fn show(
    data_dir_arg: Option<&Path>,
    name: &str,
    json: bool,
    log: bool,
    actions: Option<u32>,
    out: &mut dyn Write,
) -> Result<u8> {
    let store = open(data_dir_arg)?;
    let stored = load(&store, name)?;
    let Some(number) = actions else {
        if json {
            print_json(out, &show_json(&stored.record))?;
        } else {
            show_text(&stored.record, log, out)?;
        }
        return Ok(EXIT_OK);
    };
    let battles = stored.record.campaign.battles.len();
    let index = match number {
        // The battle being fought: the first not yet over.
        0 => stored
            .record
            .results()
            .iter()
            .position(|b| !b.standing.is_finished())
            .unwrap_or(battles.saturating_sub(1)),
        n => usize::try_from(n - 1).unwrap_or(usize::MAX),
    };
    if index >= battles {
        bail!("--actions {number}: the campaign has battles 1 to {battles}");
    }
    show::show_actions(&stored.record, index, out)?;
    Ok(EXIT_OK)
}

/// `campaign what-next NAME [--extra-artillery]`: the scripted campaign's follow-up battle.
fn what_next(
    data_dir_arg: Option<&Path>,
    name: &str,
    extra_artillery: bool,
    out: &mut dyn Write,
) -> Result<u8> {
    let mut store = open(data_dir_arg)?;
    // What the other machines wrote first: a battle another player added a moment ago is not
    // added twice.
    let id = load(&store, name)?.id;
    record::catch_up(&mut store, id, false, out)?;
    let mut stored = store.load_campaign(id)?;
    let variant = extra_artillery.then_some("extra_artillery");
    let number = stored.record.add_follow_up(variant)?;
    store.add_campaign_battle(stored.id, &stored.record.campaign)?;
    writeln!(
        out,
        "Battle {number} added to {}",
        stored.record.campaign.name
    )?;
    for notice in store.take_notices() {
        writeln!(out, "  {notice}")?;
    }
    Ok(EXIT_OK)
}

/// `campaign export NAME --out FILE.json|FILE.pdf [--page P] [--ink I]`.
fn export(
    data_dir_arg: Option<&Path>,
    name: &str,
    path: &Path,
    paper: crate::export::Paper<'_>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u8> {
    let store = open(data_dir_arg)?;
    let stored = load(&store, name)?;
    let mut warnings = Vec::new();
    let bytes = match path.extension().and_then(|e| e.to_str()) {
        Some(ext) if ext.eq_ignore_ascii_case("json") => {
            file::to_json(&stored.record)?.into_bytes()
        }
        Some(ext) if ext.eq_ignore_ascii_case("pdf") => {
            let report = pdf_report(&stored.record, paper)?;
            warnings = report.warnings;
            report.bytes
        }
        _ => bail!("--out {}: give a .json or .pdf file name", path.display()),
    };
    std::fs::write(path, &bytes).with_context(|| format!("cannot write {}", path.display()))?;
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
    // Nothing is shortened silently: what could not be printed whole is named, and the exit
    // code says so.
    for warning in &warnings {
        writeln!(err, "warning: {warning}")?;
    }
    Ok(if warnings.is_empty() {
        EXIT_OK
    } else {
        super::EXIT_PROBLEM
    })
}

/// A campaign of `ruleset` between two forces, its first battle set up from them.
fn new_between_forces(
    store: &Store,
    ruleset: &str,
    name: &str,
    players: Sides<String>,
    forces: &[String],
    battle: &str,
    carry_losses: bool,
) -> Result<campaign::Campaign> {
    if carry_losses {
        bail!(
            "--carry-losses is a scripted campaign's option: a campaign between two forces always carries its roster (`campaign next`)"
        );
    }
    let ruleset: RulesetId = ruleset.parse().map_err(|_| {
        let scripted: Vec<&str> = campaign::scripted::all().map(|s| s.id.as_str()).collect();
        anyhow!(
            "unknown campaign '{ruleset}': a scripted campaign ({}), or a ruleset: {}",
            scripted.join(", "),
            RulesetId::ALL.map(|r| r.as_str()).join(", ")
        )
    })?;
    let [first, second] = forces else {
        bail!(
            "--force: give the two forces, first player's first (--force F --force G); {} given",
            forces.len()
        );
    };
    let first = force_arg(store, first)?;
    let second = force_arg(store, second)?;
    let own: Vec<crate::rules::Card> = store.custom_cards()?.into_iter().map(|(_, c)| c).collect();
    let plan = campaign::roster::first_plan(
        ruleset,
        1,
        battle,
        Sides {
            first: &first,
            second: &second,
        },
        &own,
    )?;
    let budgets = Sides {
        first: first.budget.clone(),
        second: second.budget.clone(),
    };
    Ok(campaign::new_table(name, players, plan, Some(budgets))?)
}

fn pdf_report(
    record: &CampaignRecord,
    paper: crate::export::Paper<'_>,
) -> Result<crate::export::Exported> {
    let date = super::export::today()?;
    crate::export::export_after_action(record, paper, date, &mut crate::export::no_progress)
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

/// A force named on the command line: a saved force by name, or a force file.
fn force_arg(store: &Store, arg: &str) -> Result<crate::rules::Force> {
    if let Some(id) = store.find_force(arg)? {
        return Ok(store.load_force(id)?.force);
    }
    let path = Path::new(arg);
    if path.is_file() {
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        return crate::rules::force_file::parse_bytes(&bytes)
            .with_context(|| format!("--force {}", path.display()));
    }
    bail!("--force {arg}: no saved force and no force file so named")
}
