//! `quartermaster campaign record NAME --battle N ACTION …`: the tracker's actions from the
//! command line, so scripts and tests can play a battle (on two machines, and sync it).
//!
//! Every action goes through [`crate::campaign::tracker`] exactly as the window's tracker does:
//! no rule is decided here. Each prints the event it appended (with `--json`, the event as the
//! campaign file holds it).

use std::io::Write;

use anyhow::{Context, Result, anyhow, bail};
use serde_json::json;

use super::super::{EXIT_OK, print_json};
use super::flags::{
    ChainUseArg, EvasionArg, MoveArg, RangeArg, RecordAction, RecordArgs, WildUseArg,
};
use crate::campaign::event::{ChainUse, WildUse};
use crate::campaign::{
    BattlePlan, BattleState, CampaignRecord, Event, EventUid, LoggedEvent, describe, tracker,
};
use crate::rules::armour_battles::artillery::ArtillerySituation;
use crate::rules::armour_battles::fire::{
    Bonus, Evasion, FireMode, FireSituation, MoveOrder, RangeBand,
};
use crate::rules::armour_battles::rally::RallySituation;
use crate::rules::dice::Roller;
use crate::store::Store;

/// Records one action and prints the event appended.
pub fn run(store: &mut Store, args: RecordArgs, out: &mut dyn Write) -> Result<u8> {
    let id = store
        .find_campaign(&args.name)?
        .ok_or_else(|| anyhow!("no campaign named '{}'", args.name))?;
    let stored = store.load_campaign(id)?;
    let index = usize::try_from(args.battle)
        .ok()
        .and_then(|n| n.checked_sub(1))
        .filter(|i| *i < stored.record.campaign.battles.len())
        .ok_or_else(|| {
            anyhow!(
                "--battle {}: the campaign has battles 1 to {}",
                args.battle,
                stored.record.campaign.battles.len()
            )
        })?;
    let seed = args.seed.unwrap_or_else(rand::random);
    let event = decide(&stored.record, index, &args.action, &mut Roller::new(seed))?;
    let at = match &event {
        Event::BranchChosen { keep, .. } => stored.record.choice(index, *keep)?.0,
        _ => stored.record.next_position(index)?,
    };
    let logged = store
        .record_event(stored.battle_ids[index], at, &event)
        .context("nothing was recorded")?;
    print_logged(&stored.record, index, &logged, args.json, out)?;
    Ok(EXIT_OK)
}

/// The event the tracker records for `action` on battle `index` as it stands.
fn decide(
    record: &CampaignRecord,
    index: usize,
    action: &RecordAction,
    roller: &mut Roller,
) -> Result<Event> {
    let battle = record
        .battle(index)
        .ok_or_else(|| anyhow!("no battle {}", index + 1))?;
    match action {
        RecordAction::Undo => return Ok(battle.undo()?),
        RecordAction::Redo => return Ok(battle.redo()?),
        RecordAction::Note { text } => {
            crate::campaign::text::note(text).map_err(|m| anyhow!("note: {m}"))?;
            return Ok(Event::Note { text: text.clone() });
        }
        RecordAction::Choose { keep } => {
            let keep = parse_event_id(record, index, keep)?;
            return Ok(record.choice(index, keep)?.1);
        }
        _ => {}
    }
    let (BattlePlan::Armour(plan), Some(state)) = (battle.plan, record.state(index)) else {
        bail!(
            "battle {} is not tracked (only notes, undo and redo are recorded here)",
            index + 1
        );
    };
    Ok(tracked(plan, &state, action, roller)?)
}

fn tracked(
    plan: &crate::campaign::ArmourBattlePlan,
    state: &BattleState,
    action: &RecordAction,
    roller: &mut Roller,
) -> Result<Event, crate::campaign::CampaignError> {
    match action {
        RecordAction::Command => tracker::roll_command(plan, state, roller),
        RecordAction::Chain {
            side,
            face,
            dice,
            on,
        } => {
            let on = match on {
                ChainUseArg::Orders => ChainUse::Orders,
                ChainUseArg::RestockStaffOrders => ChainUse::RestockStaffOrders,
                ChainUseArg::CommitReserves => ChainUse::CommitReserves,
                ChainUseArg::Repair => ChainUse::Repair,
            };
            tracker::use_chain(state, (*side).into(), *face, *dice, on)
        }
        RecordAction::Wild { side, dice, on } => {
            let on = match on {
                WildUseArg::Bonus => WildUse::Bonus,
                WildUseArg::InstantStaffOrders => WildUse::InstantStaffOrders,
                WildUseArg::StockStaffOrders => WildUse::StockStaffOrders,
            };
            tracker::use_wild(state, (*side).into(), *dice, on)
        }
        RecordAction::StaffOrder { side, purpose } => {
            tracker::use_staff_order(state, (*side).into(), purpose)
        }
        RecordAction::Fire {
            attacker,
            target,
            opportunity,
            range,
            flank,
            cover,
            uphill,
            attacker_move,
            ambush,
            evasion,
            bonus,
        } => {
            let situation = FireSituation {
                mode: if *opportunity {
                    FireMode::Opportunity
                } else {
                    FireMode::Direct
                },
                range: match range {
                    RangeArg::Short => RangeBand::Short,
                    RangeArg::Effective => RangeBand::Effective,
                    RangeArg::Long => RangeBand::Long,
                },
                flank: *flank,
                cover: *cover,
                uphill: *uphill,
                attacker_move: match attacker_move {
                    MoveArg::Single => MoveOrder::Single,
                    MoveArg::Double => MoveOrder::Double,
                    MoveArg::Triple => MoveOrder::Triple,
                },
                ambush: *ambush,
                evasion: evasion.map(|e| match e {
                    EvasionArg::BreakOff => Evasion::BreakOff,
                    EvasionArg::ShootAndScoot => Evasion::ShootAndScoot,
                    EvasionArg::Disengage => Evasion::Disengage,
                }),
                attacker_bonus: bonus.attacker(),
                target_bonus: bonus.target(),
                ..FireSituation::default()
            };
            tracker::fire(state, attacker, target, situation, roller)
        }
        RecordAction::Artillery { battery } => tracker::call_artillery(state, battery, roller),
        RecordAction::ArtilleryFire {
            battery,
            target,
            cover,
            break_off,
            bonus,
        } => {
            let situation = ArtillerySituation {
                cover: *cover,
                break_off: *break_off,
                attacker_bonus: bonus.attacker(),
                target_bonus: bonus.target(),
                ..ArtillerySituation::default()
            };
            tracker::artillery_fire(state, battery, target, situation, roller)
        }
        RecordAction::Rally {
            unit,
            distance,
            cover,
            no_line_of_sight,
            wild_die,
            staff_order,
        } => {
            let situation = RallySituation {
                distance_inches: *distance,
                cover: *cover,
                no_line_of_sight: *no_line_of_sight,
                bonus: Bonus {
                    wild_die: *wild_die,
                    staff_order: *staff_order,
                },
                ..RallySituation::default()
            };
            tracker::rally(state, unit, situation, roller)
        }
        RecordAction::EndTurn => tracker::end_turn(state),
        RecordAction::Undo
        | RecordAction::Redo
        | RecordAction::Note { .. }
        | RecordAction::Choose { .. } => Err(crate::campaign::CampaignError::not_allowed(
            "not a tracker action",
        )),
    }
}

/// An event id as `campaign show` prints it: in full, or its last eight digits (or more) when
/// only one event of the battle ends so.
fn parse_event_id(record: &CampaignRecord, index: usize, text: &str) -> Result<EventUid> {
    let text = text.trim().to_lowercase();
    let matches: Vec<EventUid> = record
        .all_events(index)
        .map(|e| e.id)
        .filter(|id| id.0.to_string() == text || id.0.simple().to_string().ends_with(&text))
        .collect();
    match matches.as_slice() {
        [one] => Ok(*one),
        [] => bail!(
            "--keep {text}: no event of battle {} has this id",
            index + 1
        ),
        _ => bail!("--keep {text}: several events end so; give more of the id"),
    }
}

/// "battle 1, event 7 (fire) by Alice on laptop: …", or the event as JSON.
pub fn print_logged(
    record: &CampaignRecord,
    index: usize,
    logged: &LoggedEvent,
    json: bool,
    out: &mut dyn Write,
) -> Result<()> {
    let plan = record
        .campaign
        .battles
        .get(index)
        .ok_or_else(|| anyhow!("no battle {}", index + 1))?;
    if json {
        return print_json(
            out,
            &json!({"battle": plan.number(), "logged": logged, "text": describe::describe(&logged.event, plan)}),
        );
    }
    let who = logged.by.label();
    let who = if who.is_empty() {
        String::new()
    } else {
        format!(" by {who}")
    };
    writeln!(
        out,
        "battle {}, event {} ({}, id {}){who}: {}",
        plan.number(),
        logged.seq,
        logged.event.kind(),
        logged.id.short(),
        describe::describe(&logged.event, plan)
    )?;
    Ok(())
}
