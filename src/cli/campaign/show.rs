//! `campaign show`: a campaign's battles, forks and log as text, and the documented
//! `campaign show --json` object.

use std::io::Write;

use anyhow::Result;
use serde_json::{Value, json};

use crate::campaign::definition::SIDES;
use crate::campaign::{self, BattlePlan, CampaignRecord, describe, result::Standing};
use crate::rules::armour_battles::Side;

fn standing_key(standing: Standing) -> &'static str {
    match standing {
        Standing::NotStarted => "not_started",
        Standing::InProgress => "in_progress",
        Standing::UsWon => "us_won",
        Standing::GermanWon => "german_won",
        Standing::Draw => "draw",
    }
}

fn unit_status_key(
    status: &crate::rules::armour_battles::battle::state::UnitStatus,
) -> &'static str {
    use crate::rules::armour_battles::battle::state::UnitStatus;
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
        Side::First => "us",
        Side::Second => "german",
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
                    BattlePlan::Table(plan) => json!({
                        "force": plan.forces.get(side),
                        "units": plan.units.get(side).iter().map(|u| u.label.as_str()).collect::<Vec<_>>(),
                        "units_lost": result.losses.get(side),
                        "score": result.score.as_ref().map(|s| *s.get(side)),
                    }),
                };
                sides.insert(side_key(side).to_string(), value);
            }
            let morale_by_turn: Vec<Value> = state
                .as_ref()
                .map(|s| {
                    s.morale_by_turn
                        .iter()
                        .map(|m| json!({"us": m.first, "german": m.second}))
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
            let board = battle.board();
            let units: Vec<Value> = match &board {
                Some(board) => board
                    .units
                    .iter()
                    .map(|u| {
                        json!({
                            "id": u.id,
                            "side": side_key(u.side),
                            "label": u.label,
                            "card": u.name(),
                            "counters": u.counters,
                            "marks": u.marks,
                            "order": u.order,
                        })
                    })
                    .collect(),
                None => units,
            };
            json!({
                "number": battle.plan.number(),
                "name": battle.plan.name(),
                "forked": record.open_fork(i).is_some(),
                "forks": forks,
                "units": units,
                "events_aside": record.aside.get(i).map_or(0, Vec::len),
                "result": standing_key(result.standing),
                "reason": result.reason,
                "turn": state.as_ref().map(|s| s.turn).or(board.as_ref().map(|b| b.turn)),
                "events": battle.events.len(),
                "army_morale_by_turn": morale_by_turn,
                "sides": sides,
            })
        })
        .collect();
    let overall = record.result();
    json!({
        "id": record.id,
        // The same id as `campaign list --json` gives under this key (its `id` is a row number).
        "campaign_id": record.id,
        "name": record.campaign.name,
        "ruleset": record.campaign.ruleset.as_str(),
        "players": {"us": record.campaign.players.first, "german": record.campaign.players.second},
        "carry_losses": record.campaign.options.carry_losses,
        "signers": record.players().iter().map(|p| json!({
            "player": p.by.player,
            "machine": p.by.machine,
            "key": p.key,
            "fingerprint": p.key.fingerprint(),
            "since": p.since,
            "events": p.events,
        })).collect::<Vec<_>>(),
        "unsigned_events": record.unsigned_events(),
        "result": {
            "summary": overall.summary,
            "leader": overall.leader.map(side_key),
            "finished": overall.finished,
            "wins": {"us": overall.wins.first, "german": overall.wins.second},
            "army_morale_left": {"us": overall.morale_left.first, "german": overall.morale_left.second},
        },
        "battles": battles,
    })
}

pub(super) fn show_text(record: &CampaignRecord, log: bool, out: &mut dyn Write) -> Result<()> {
    let c = &record.campaign;
    writeln!(out, "{} ({})", c.name, c.ruleset.title())?;
    writeln!(
        out,
        "  {} against {}",
        campaign::side_label(c, Side::First),
        campaign::side_label(c, Side::Second)
    )?;
    writeln!(out, "  {}", record.result().summary)?;
    show_players(record, out)?;
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
                writeln!(
                    out,
                    "  {} lost: {}",
                    campaign::side_label(c, side),
                    lost.join(", ")
                )?;
            }
        }
        if let BattlePlan::Table(plan) = battle.plan
            && let Ok(engine) = crate::rules::battle::table::engine(plan.ruleset)
        {
            if !engine.turn_order.is_empty() {
                writeln!(out, "  A turn: {}", engine.turn_order)?;
            }
            for ruling in engine.rulings {
                writeln!(out, "  House default: {}", ruling.ruling)?;
            }
        }
        show_forks(record, i, log, out)?;
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
                    who(record, e)
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
                    who(record, e)
                )?;
            }
            for e in record.withheld_of(i) {
                writeln!(
                    out,
                    "    {:>3} [not in play] {}{}",
                    e.seq,
                    describe::describe(&e.event, battle.plan),
                    who(record, e)
                )?;
            }
        }
    }
    Ok(())
}

/// " — Alice on laptop, 2026-11-25T10:00:00Z, key 3F9A-C21E" (who recorded an event, when,
/// and the key that signed it, or that nothing did), and the rules revision it was resolved
/// under when that is an older one.
fn who(record: &CampaignRecord, e: &campaign::LoggedEvent) -> String {
    // As the campaign believes it: a key not admitted under the names it claims is shown by
    // its key, never as the player it claims to be.
    let by = if e.by.is_unknown() && e.seal.is_none() {
        String::new()
    } else {
        record
            .recorded_by(e)
            .trim_end_matches(" (not signed)")
            .to_string()
    };
    let key = e.seal.map_or_else(
        || ", not signed".to_string(),
        |s| format!(", key {}", s.key.fingerprint()),
    );
    let revision = crate::rules::ruleset(record.campaign.ruleset)
        .revision_note(e.resolved_under(record.campaign.ruleset), e.event.kind())
        .map_or_else(String::new, |note| format!(" — {note}"));
    if by.is_empty() {
        format!(" — {}{key}{revision}", e.recorded_at)
    } else {
        format!(" — {by}, {}{key}{revision}", e.recorded_at)
    }
}

/// The campaign's player list: each signing key with the names it recorded under.
fn show_players(record: &CampaignRecord, out: &mut dyn Write) -> Result<()> {
    let players = record.players();
    let unsigned = record.unsigned_events();
    if players.is_empty() && unsigned == 0 {
        return Ok(());
    }
    writeln!(out, "  Recorded by (compare the keys at the table):")?;
    for p in &players {
        writeln!(
            out,
            "    {} — since {}, {}",
            p.label(),
            p.since,
            crate::rules::words::amount(p.events as u64, "events")
        )?;
    }
    if unsigned > 0 {
        let how = if record.genesis.is_some() {
            "from before events were signed, sealed when the campaign was imported: who recorded them is not proven"
        } else {
            "recorded before events were signed: who recorded them is not proven"
        };
        writeln!(
            out,
            "    {} not signed ({how})",
            crate::rules::words::amount(unsigned as u64, "events")
        )?;
    }
    if record.genesis.is_none() {
        writeln!(
            out,
            "    (begun before campaigns were rooted: a shared folder's attacker can dispute names here; export and import it to seal it)"
        )?;
    }
    let withheld: usize = (0..record.logs.len())
        .map(|i| record.withheld_of(i).len())
        .sum();
    if withheld > 0 {
        writeln!(
            out,
            "  Not in play: {} signed by keys not admitted under the names they claim (`--log` lists them)",
            crate::rules::words::amount(withheld as u64, "events")
        )?;
    }
    for conflict in record.membership().all_conflicts() {
        writeln!(out, "  {}", conflict.describe(&record.campaign.name))?;
    }
    Ok(())
}

/// Width of one branch's column when an open fork is shown side by side.
const FORK_COLUMN: usize = 58;

/// A battle's forks: an open one with both branches side by side and what to do; settled
/// ones with the branch kept and how to restore the other.
fn show_forks(record: &CampaignRecord, index: usize, log: bool, out: &mut dyn Write) -> Result<()> {
    let Some(plan) = record.campaign.battles.get(index) else {
        return Ok(());
    };
    let forks = record.forks(index);
    let settled = forks.iter().filter(|f| f.kept.is_some()).count();
    if !log && settled > 0 {
        // Only open forks call for anything; a long campaign settles dozens.
        writeln!(
            out,
            "  {} settled (`--log` lists them with their set-aside branches)",
            crate::rules::words::amount(settled as u64, "forks")
        )?;
    }
    for fork in forks {
        let number = plan.number();
        let Some(kept) = fork.kept else {
            let place = if fork.after_seq == 0 {
                "at the start".to_string()
            } else {
                format!("after event {}", fork.after_seq)
            };
            writeln!(
                out,
                "  FORKED {place}: {}; to choose:",
                fork.describe(number, &|e| record.recorded_by(e))
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
        if !log {
            continue;
        }
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
