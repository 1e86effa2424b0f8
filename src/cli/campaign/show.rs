//! `campaign show`: a campaign's battles, forks and log as text, the documented `campaign show
//! --json` object, and the actions a battle offers now with their parameters (`--actions`).

use std::io::Write;

use anyhow::Result;
use serde_json::{Map, Value, json};

use crate::campaign::definition::SIDES;
use crate::campaign::sides::{side_key, side_label};
use crate::campaign::{self, BattlePlan, CampaignRecord, describe, result::Standing};
use crate::rules::battle::board::Board;
use crate::rules::battle::table::{AnyTable, engine};
use crate::rules::battle::{BattleRules, Side};
use crate::rules::resolution::{InputKind, InputSpec, InputValue};

/// `not_started`, `in_progress`, `draw`, or the winner's side as the campaign spells it with
/// `_won`: `us_won` in Lorraine, `first_won` in a campaign between forces.
fn standing_key(record: &CampaignRecord, standing: Standing) -> String {
    match standing {
        Standing::NotStarted => "not_started".into(),
        Standing::InProgress => "in_progress".into(),
        Standing::Draw => "draw".into(),
        Standing::FirstWon | Standing::SecondWon => {
            let side = standing.winner().unwrap_or(Side::First);
            format!("{}_won", side_key(&record.campaign, side))
        }
    }
}

/// How the documented JSON keys a side: `us` for the first, `german` for the second (the keys
/// campaign files have always used).
fn json_side(side: Side) -> &'static str {
    match side {
        Side::First => "us",
        Side::Second => "german",
    }
}

/// One side of a battle: its force, units and losses; for a battle fought on a board its score,
/// each counter its opening sets (`command_dice`, `army_morale` …) and each live one with
/// `_now` (`army_morale_now`).
fn side_json(
    plan: &BattlePlan,
    board: Option<&Board>,
    result: &campaign::BattleResult,
    side: Side,
) -> Value {
    let mut value = Map::new();
    value.insert("units_lost".into(), json!(result.losses.get(side)));
    match plan {
        BattlePlan::Simple(simple) => {
            value.insert("force".into(), json!(simple.forces.get(side)));
            value.insert("units".into(), json!(simple.units.get(side)));
        }
        _ => {
            let Some(setup) = plan.board_setup() else {
                return Value::Object(value);
            };
            let labels: Vec<&str> = setup
                .plan
                .units
                .get(side)
                .iter()
                .map(|u| u.label.as_str())
                .collect();
            value.insert("force".into(), json!(setup.plan.forces.get(side)));
            value.insert("units".into(), json!(labels));
            value.insert(
                "score".into(),
                json!(result.score.as_ref().map(|s| *s.get(side))),
            );
            for (key, n) in setup.opening.iter().flat_map(|o| o.sides.get(side).clone()) {
                value.insert(key, json!(n));
            }
            for (key, n) in board.iter().flat_map(|b| b.sides.get(side)) {
                value.insert(format!("{key}_now"), json!(n));
            }
        }
    }
    Value::Object(value)
}

/// A battle's forks, as the JSON lists them.
fn forks_json(record: &CampaignRecord, index: usize) -> Vec<Value> {
    record
        .forks(index)
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
        .collect()
}

/// Every unit on a battle's board: its id, side, label, card, counters, marks and order.
fn units_json(board: Option<&Board>) -> Vec<Value> {
    board.map_or_else(Vec::new, |board| {
        board
            .units
            .iter()
            .map(|u| {
                json!({
                    "id": u.id,
                    "side": json_side(u.side),
                    "label": u.label,
                    "card": u.name(),
                    "counters": u.counters,
                    "marks": u.marks,
                    "order": u.order,
                })
            })
            .collect()
    })
}

/// One battle of the documented JSON.
fn battle_json(record: &CampaignRecord, index: usize, result: &campaign::BattleResult) -> Value {
    let Some(battle) = record.battle(index) else {
        return Value::Null;
    };
    let board = record.board(index);
    let mut sides = Map::new();
    for side in SIDES {
        sides.insert(
            json_side(side).to_string(),
            side_json(battle.plan, board.as_ref(), result, side),
        );
    }
    let by_turn: Vec<Value> = battle
        .score_by_turn(&record.carried_losses(index))
        .iter()
        .map(|m| json!({"us": m.first, "german": m.second}))
        .collect();
    json!({
        "number": battle.plan.number(),
        "name": battle.plan.name(),
        "forked": record.open_fork(index).is_some(),
        "forks": forks_json(record, index),
        "units": units_json(board.as_ref()),
        "events_aside": record.aside.get(index).map_or(0, Vec::len),
        "result": standing_key(record, result.standing),
        "reason": result.reason,
        "turn": board.as_ref().map(|b| b.turn),
        "events": battle.events.len(),
        "army_morale_by_turn": by_turn,
        "sides": sides,
    })
}

/// The documented `campaign show --json` object.
pub fn show_json(record: &CampaignRecord) -> Value {
    let results = record.results();
    let battles: Vec<Value> = results
        .iter()
        .enumerate()
        .map(|(i, result)| battle_json(record, i, result))
        .collect();
    let overall = record.result();
    json!({
        "id": record.id,
        // The same id as `campaign list --json` gives under this key (its `id` is a row number).
        "campaign_id": record.id,
        "name": record.campaign.name,
        "ruleset": record.campaign.ruleset.as_str(),
        "scenario": record.campaign.script().map(|s| s.id.as_str()),
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
            "leader": overall.leader.map(|s| side_key(&record.campaign, s)),
            "finished": overall.finished,
            "wins": {"us": overall.wins.first, "german": overall.wins.second},
            "army_morale_left": {"us": overall.morale_left.first, "german": overall.morale_left.second},
        },
        "battles": battles,
    })
}

/// The actions battle `index` offers now, each with its key, who acts, its parameters (with
/// their ranges, choices and defaults) and why it is refused when it is: what `campaign record
/// … act` takes.
pub(super) fn show_actions(
    record: &CampaignRecord,
    index: usize,
    out: &mut dyn Write,
) -> Result<()> {
    let (Some(plan), Some(board)) = (record.table_plan(index), record.board(index)) else {
        writeln!(
            out,
            "Battle {} is not fought on a board: it records notes, its result, undo and redo.",
            index + 1
        )?;
        return Ok(());
    };
    let engine = engine(plan.ruleset)?;
    writeln!(
        out,
        "Battle {}: actions on offer now (`campaign record … act KEY`):",
        plan.number
    )?;
    let (offered, refused): (Vec<_>, Vec<_>) = AnyTable::actions(&plan, &board)
        .into_iter()
        .partition(|a| a.allowed());
    for action in &offered {
        let who = match (&action.unit, action.side) {
            (Some(unit), _) => format!(" --unit {unit}"),
            (None, Some(side)) => format!(" --side {}", super::flags::side_word(side)),
            (None, None) => String::new(),
        };
        let targets = if action.targets.is_empty() {
            String::new()
        } else {
            format!(" --target {}", action.targets.join("|"))
        };
        // What the battle fixes is named only where it tells two offers apart (Disruption −1
        // and +1 are both `set_disruption` of one unit).
        let twin = offered
            .iter()
            .filter(|a| a.key == action.key && a.unit == action.unit && a.side == action.side)
            .count()
            > 1;
        let fixed: String = action
            .fixed
            .iter()
            .filter(|_| twin)
            .map(|(k, v)| format!(" --set {k}={}", shown(v)))
            .collect();
        writeln!(
            out,
            "  {} — {}{who}{targets}{fixed}",
            action.label, action.key
        )?;
    }
    if !refused.is_empty() {
        writeln!(
            out,
            "  ({} more the rules refuse now; the window's buttons say why)",
            refused.len()
        )?;
    }
    writeln!(out, "Parameters (`--set KEY=VALUE`):")?;
    let mut keys: Vec<&str> = engine.keys.to_vec();
    keys.sort_unstable();
    for key in keys {
        let params: Vec<String> = (engine.params)(key).iter().map(param_words).collect();
        if !params.is_empty() {
            writeln!(out, "  {key}: {}", params.join("; "))?;
        }
    }
    Ok(())
}

fn shown(value: &InputValue) -> String {
    match value {
        InputValue::Flag(on) => on.to_string(),
        InputValue::Count(n) => n.to_string(),
        InputValue::Number(x) => x.to_string(),
        InputValue::Choice(c) => (*c).to_string(),
        InputValue::Card(_) | InputValue::CardList(_) => "(from the units)".to_string(),
    }
}

/// "face 2–6 (default 5)", "on: orders|restock_staff_orders|repair".
fn param_words(spec: &InputSpec) -> String {
    match &spec.kind {
        InputKind::Toggle => format!("{} true|false", spec.key),
        InputKind::Count { min, max } => format!(
            "{} {min}–{max} (default {})",
            spec.key,
            shown(&spec.default)
        ),
        InputKind::Number { min, max } => format!(
            "{} {min}–{max} (default {})",
            spec.key,
            shown(&spec.default)
        ),
        InputKind::Choice(options) => {
            let keys: Vec<&str> = options.iter().map(|o| o.key).collect();
            format!(
                "{} {} (default {})",
                spec.key,
                keys.join("|"),
                shown(&spec.default)
            )
        }
        InputKind::Card { .. } | InputKind::CardList { .. } => {
            format!("{} (from the units)", spec.key)
        }
    }
}

pub(super) fn show_text(record: &CampaignRecord, log: bool, out: &mut dyn Write) -> Result<()> {
    let c = &record.campaign;
    writeln!(out, "{} ({})", c.name, c.ruleset.title())?;
    writeln!(
        out,
        "  {} against {}",
        side_label(c, Side::First),
        side_label(c, Side::Second)
    )?;
    writeln!(out, "  {}", record.result().summary)?;
    show_players(record, out)?;
    for (i, (battle, result)) in record.battles().zip(record.results()).enumerate() {
        writeln!(out)?;
        writeln!(out, "{}", battle.plan.title())?;
        let standing = match result.standing {
            Standing::NotStarted => "not started".to_string(),
            Standing::InProgress => format!("in progress, turn {}", result.turns),
            Standing::FirstWon | Standing::SecondWon | Standing::Draw => {
                format!(
                    "{} — {}",
                    standing_key(record, result.standing),
                    result.reason
                )
            }
        };
        writeln!(out, "  {standing}")?;
        if let (Some(setup), Some(board)) = (battle.plan.board_setup(), record.board(i)) {
            let standing = (engine(setup.plan.ruleset)?.turn_standing)(&setup.plan, &board);
            for side in SIDES {
                let stock: Vec<String> = standing
                    .stock
                    .get(side)
                    .iter()
                    .map(|t| match t.of {
                        Some(of) => format!("{} {}/{of}", t.label, t.now),
                        None => format!("{} {}", t.label, t.now),
                    })
                    .collect();
                if !stock.is_empty() {
                    writeln!(out, "  {}: {}", side_label(c, side), stock.join(", "))?;
                }
            }
        }
        for side in SIDES {
            let lost = result.losses.get(side);
            if !lost.is_empty() {
                writeln!(out, "  {} lost: {}", side_label(c, side), lost.join(", "))?;
            }
        }
        if let Some(setup) = battle.plan.board_setup()
            && let Ok(engine) = engine(setup.plan.ruleset)
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
