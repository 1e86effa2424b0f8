//! `quartermaster campaign new|list|show|export|import|…`: campaigns in the database.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use clap::Subcommand;
use serde_json::{Value, json};

use super::{EXIT_OK, data_dir, print_json};
use crate::campaign::definition::SIDES;
use crate::campaign::{
    self, BattlePlan, CampaignRecord, LorraineOptions, Sides, describe, file, result::Standing,
};
use crate::rules::armour_battles::Side;
use crate::store::{Store, StoredCampaign};

#[derive(Debug, Subcommand)]
pub enum CampaignCommand {
    /// Start a campaign: `campaign new lorraine --name NAME`.
    New {
        /// The campaign: `lorraine` (Armour Battles, Lorraine 1944).
        scenario: String,
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
        #[arg(long)]
        json: bool,
    },
    /// Battles, results and army morale of one campaign.
    Show {
        name: String,
        #[arg(long)]
        json: bool,
        /// Also print every battle's event log.
        #[arg(long)]
        log: bool,
    },
    /// Write a campaign as JSON (re-importable) or as a PDF after-action report.
    Export {
        name: String,
        /// FILE.json or FILE.pdf.
        #[arg(long)]
        out: PathBuf,
    },
    /// Read a campaign file written by `campaign export`.
    Import {
        file: PathBuf,
        /// Store it under this name instead of the file's.
        #[arg(long)]
        name: Option<String>,
    },
    /// Add the book's "What next?" battle (all Battle 3 forces, free deployment).
    WhatNext {
        name: String,
        /// Three M7 HMCs and two 105mm howitzers, +1 Army Morale and +1 Staff Order a side.
        #[arg(long)]
        extra_artillery: bool,
    },
    /// Delete a campaign with all its battles and events.
    Delete { name: String },
    /// Share a campaign to a folder that a file sync carries between machines (one file per
    /// machine in it); reads what the folder already holds.
    Share {
        name: String,
        #[arg(long)]
        folder: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Merge another copy of a campaign: a shared folder or a campaign file (default: the
    /// folder it was shared to). A NAME not in the library is joined from PATH.
    Sync {
        name: String,
        path: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Record a tracker action in a battle and print the event appended.
    Record(super::campaign_record::RecordArgs),
    /// Who this machine records events as (asked once): `campaign player NAME`.
    Player {
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
            writeln!(out, "{}", path.display())?;
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
            super::campaign_sync::share(&mut store, &name, &folder, json, out)
        }
        CampaignCommand::Sync { name, path, json } => {
            let mut store = open(data_dir_arg)?;
            super::campaign_sync::sync(&mut store, &name, path.as_deref(), json, out)
        }
        CampaignCommand::Record(args) => {
            let mut store = open(data_dir_arg)?;
            super::campaign_record::run(&mut store, args, out)
        }
        CampaignCommand::Player { name, machine } => {
            let mut store = open(data_dir_arg)?;
            super::campaign_sync::player(&mut store, name.as_deref(), machine.as_deref(), out)
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
        print_json(out, &campaigns)?;
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

fn standing_key(standing: Standing) -> &'static str {
    match standing {
        Standing::NotStarted => "not_started",
        Standing::InProgress => "in_progress",
        Standing::UsWon => "us_won",
        Standing::GermanWon => "german_won",
        Standing::Draw => "draw",
    }
}

fn unit_status_key(status: &crate::campaign::state::UnitStatus) -> &'static str {
    use crate::campaign::state::UnitStatus;
    match status {
        UnitStatus::OnTable => "on_table",
        UnitStatus::Reserve { .. } => "reserve",
        UnitStatus::Hidden => "hidden",
        UnitStatus::OffTable => "off_table",
        UnitStatus::Dispersed { .. } => "dispersed",
        UnitStatus::LostEarlier => "lost_earlier",
    }
}

fn side_key(side: Side) -> &'static str {
    match side {
        Side::Us => "us",
        Side::German => "german",
    }
}

/// The documented `campaign show --json` object.
pub fn show_json(record: &CampaignRecord) -> Value {
    let results = record.results();
    let battles: Vec<Value> = record
        .battles()
        .enumerate()
        .map(|(i, battle)| {
            let result = &results[i];
            let state = record.state(i);
            let mut sides = serde_json::Map::new();
            for side in SIDES {
                let value = match battle.plan {
                    BattlePlan::Armour(plan) => {
                        let p = plan.sides.get(side);
                        let now = state.as_ref().map(|s| s.side(side));
                        json!({
                            "battle_group": p.battle_group,
                            "units": p.units.iter().map(|u| u.card.as_str()).collect::<Vec<_>>(),
                            "command_dice": p.command_dice,
                            "staff_orders": p.staff_orders,
                            "rally_dice": p.rally_dice,
                            "artillery_response_dice": p.artillery_response_dice,
                            "army_morale": p.army_morale,
                            "army_morale_now": now.map(|s| s.army_morale),
                            "staff_orders_now": now.map(|s| s.staff_orders),
                            "units_lost": result.losses.get(side),
                        })
                    }
                    BattlePlan::Simple(plan) => json!({
                        "force": plan.forces.get(side),
                        "units": plan.units.get(side),
                        "units_lost": result.losses.get(side),
                    }),
                };
                sides.insert(side_key(side).to_string(), value);
            }
            let morale_by_turn: Vec<Value> = state
                .as_ref()
                .map(|s| {
                    s.morale_by_turn
                        .iter()
                        .map(|m| json!({"us": m.us, "german": m.german}))
                        .collect()
                })
                .unwrap_or_default();
            let forks: Vec<Value> = record
                .forks(i)
                .iter()
                .map(|f| {
                    json!({
                        "after_seq": f.after_seq,
                        "after": f.after,
                        "open": f.kept.is_none(),
                        "kept": f.kept,
                        "branches": f.branches.iter().map(|b| {
                            let (from, to) = b.recorded_between();
                            json!({
                                "first": b.first,
                                "recorded_by": b.recorded_by(),
                                "from": from,
                                "to": to,
                                "events": b.events.len(),
                            })
                        }).collect::<Vec<_>>(),
                    })
                })
                .collect();
            let units: Vec<Value> = state
                .as_ref()
                .map(|s| {
                    s.units
                        .iter()
                        .map(|u| {
                            json!({
                                "id": u.id,
                                "side": side_key(u.side),
                                "label": s.unit_label(u),
                                "status": unit_status_key(&u.status),
                                "disruption": u.disruption,
                                "suppressed": u.suppressed,
                            })
                        })
                        .collect()
                })
                .unwrap_or_default();
            json!({
                "number": battle.plan.number(),
                "name": battle.plan.name(),
                "forked": record.open_fork(i).is_some(),
                "forks": forks,
                "units": units,
                "events_aside": record.aside.get(i).map_or(0, Vec::len),
                "result": standing_key(result.standing),
                "reason": result.reason,
                "turn": state.as_ref().map(|s| s.turn),
                "events": battle.events.len(),
                "army_morale_by_turn": morale_by_turn,
                "sides": sides,
            })
        })
        .collect();
    let overall = record.result();
    json!({
        "id": record.id,
        "name": record.campaign.name,
        "ruleset": record.campaign.ruleset.as_str(),
        "players": {"us": record.campaign.players.us, "german": record.campaign.players.german},
        "carry_losses": record.campaign.options.carry_losses,
        "result": {
            "summary": overall.summary,
            "leader": overall.leader.map(side_key),
            "finished": overall.finished,
            "wins": {"us": overall.wins.us, "german": overall.wins.german},
            "army_morale_left": {"us": overall.morale_left.us, "german": overall.morale_left.german},
        },
        "battles": battles,
    })
}

fn show_text(record: &CampaignRecord, log: bool, out: &mut dyn Write) -> Result<()> {
    let c = &record.campaign;
    writeln!(out, "{} ({})", c.name, c.ruleset.title())?;
    writeln!(
        out,
        "  {} against {}",
        campaign::side_label(c, Side::Us),
        campaign::side_label(c, Side::German)
    )?;
    writeln!(out, "  {}", record.result().summary)?;
    for (i, (battle, result)) in record.battles().zip(record.results()).enumerate() {
        writeln!(out)?;
        writeln!(out, "{}", battle.plan.title())?;
        let standing = match result.standing {
            Standing::NotStarted => "not started".to_string(),
            Standing::InProgress => format!("in progress, turn {}", result.turns),
            Standing::UsWon | Standing::GermanWon | Standing::Draw => {
                format!("{} — {}", standing_key(result.standing), result.reason)
            }
        };
        writeln!(out, "  {standing}")?;
        if let (BattlePlan::Armour(plan), Some(state)) = (battle.plan, record.state(i)) {
            for side in SIDES {
                let p = plan.sides.get(side);
                let s = state.side(side);
                writeln!(
                    out,
                    "  {:<7} {} units, {} command dice, staff orders {} (now {}), rally {}, artillery response {}, army morale {}/{}",
                    side.label(),
                    p.units.len(),
                    p.command_dice,
                    p.staff_orders,
                    s.staff_orders,
                    p.rally_dice,
                    p.artillery_response_dice
                        .map_or_else(|| "–".to_string(), |d| d.to_string()),
                    s.army_morale,
                    p.army_morale
                )?;
            }
        }
        for side in SIDES {
            let lost = result.losses.get(side);
            if !lost.is_empty() {
                writeln!(out, "  {} lost: {}", side.label(), lost.join(", "))?;
            }
        }
        show_forks(record, i, out)?;
        if log {
            let undone_seqs = battle.undone();
            for e in battle.events {
                let undone = if undone_seqs.contains(&e.seq) {
                    " (undone)"
                } else {
                    ""
                };
                writeln!(
                    out,
                    "    {:>3} {}{undone}{}",
                    e.seq,
                    describe::describe(&e.event, battle.plan),
                    who(e)
                )?;
            }
            let aside = record.set_aside(i);
            for e in record.aside.get(i).into_iter().flatten() {
                let mark = if aside.contains(&e.id) {
                    "set aside"
                } else if e.event.is_meta_choice() {
                    "choice"
                } else {
                    "branch, not chosen yet"
                };
                writeln!(
                    out,
                    "    {:>3} [{mark}] {}{}",
                    e.seq,
                    describe::describe(&e.event, battle.plan),
                    who(e)
                )?;
            }
        }
    }
    Ok(())
}

/// " — Alice on laptop, 2026-11-25T10:00:00Z" (who recorded an event, and when).
fn who(e: &campaign::LoggedEvent) -> String {
    let by = e.by.label();
    if by.is_empty() {
        format!(" — {}", e.recorded_at)
    } else {
        format!(" — {by}, {}", e.recorded_at)
    }
}

/// Width of one branch's column when an open fork is shown side by side.
const FORK_COLUMN: usize = 58;

/// A battle's forks: an open one with both branches side by side and what to do; settled
/// ones with the branch kept and how to restore the other.
fn show_forks(record: &CampaignRecord, index: usize, out: &mut dyn Write) -> Result<()> {
    let Some(plan) = record.campaign.battles.get(index) else {
        return Ok(());
    };
    for fork in record.forks(index) {
        let number = plan.number();
        let Some(kept) = fork.kept else {
            let place = if fork.after_seq == 0 {
                "at the start".to_string()
            } else {
                format!("after event {}", fork.after_seq)
            };
            writeln!(
                out,
                "  FORKED {place}: {} branches were recorded on different machines. Choose one to go on with:",
                fork.branches.len()
            )?;
            for b in &fork.branches {
                writeln!(
                    out,
                    "    quartermaster campaign record \"{}\" --battle {number} choose --keep {}",
                    record.campaign.name,
                    b.first.short()
                )?;
            }
            let columns: Vec<Vec<String>> =
                fork.branches
                    .iter()
                    .map(|b| {
                        let (from, to) = b.recorded_between();
                        let mut lines = vec![
                            format!("branch {} by {}", b.first.short(), b.recorded_by()),
                            format!("{from} … {to}"),
                        ];
                        lines.extend(b.events.iter().map(|e| {
                            format!("{:>3} {}", e.seq, describe::describe(&e.event, plan))
                        }));
                        lines
                    })
                    .collect();
            let rows = columns.iter().map(Vec::len).max().unwrap_or(0);
            for row in 0..rows {
                let cells: Vec<String> = columns
                    .iter()
                    .map(|c| fit(c.get(row).map_or("", String::as_str), FORK_COLUMN))
                    .collect();
                writeln!(out, "    {}", cells.join(" │ ").trim_end())?;
            }
            continue;
        };
        let chooser = fork
            .choice
            .map(|c| c.by.label())
            .filter(|l| !l.is_empty())
            .map_or_else(String::new, |l| format!(" by {l}"));
        for b in fork.branches.iter().filter(|b| b.first != kept) {
            writeln!(
                out,
                "  Fork after event {}: kept branch {}{chooser}; set aside {} event(s) by {} (restore: `campaign record \"{}\" --battle {number} choose --keep {}`)",
                fork.after_seq,
                kept.short(),
                b.events.len(),
                b.recorded_by(),
                record.campaign.name,
                b.first.short()
            )?;
        }
    }
    Ok(())
}

/// `text` cut or padded to `width` characters.
fn fit(text: &str, width: usize) -> String {
    let count = text.chars().count();
    if count > width {
        let mut cut: String = text.chars().take(width - 1).collect();
        cut.push('…');
        cut
    } else {
        format!("{text}{}", " ".repeat(width - count))
    }
}
