//! `quartermaster campaign record NAME --battle N ACTION …`: the tracker's actions from the
//! command line, so scripts and tests can play a battle (on two machines, and sync it).
//!
//! Each action becomes the same [`Request`] the window's tracker makes and is decided by the
//! battle's rules through [`CampaignRecord::decide`], with the app's dice from the seed the
//! battle's history gives (there is no `--seed`: nobody chooses it), or with the dice the
//! players rolled at the table (`--dice POOL=FACES`, read as `roll --dice` reads it) through
//! [`CampaignRecord::decide_table`]. No rule is decided here.
//! Each prints the event it appended (with `--json`, the event as the campaign file holds it).

use std::io::Write;

use anyhow::{Context, Result, anyhow, bail};
use clap::ArgMatches;
use serde_json::json;

use super::super::resolve::table_dice;
use super::super::{EXIT_OK, print_json};
use super::flags::{
    ChainUseArg, CheckMoveArg, RecordAction, RecordArgs, SideArg, WildUseArg, WinnerArg,
    fire_flags, fire_mechanic, rally_flags, rally_mechanic,
};
use crate::campaign::definition::TablePlan;
use crate::campaign::{
    BattleState, CampaignError, CampaignRecord, Event, EventUid, LoggedEvent, describe,
};
use crate::cli::{Cards, FlagSet};
use crate::rules::RulesetId;
use crate::rules::armour_battles::battle::actions::{key, param};
use crate::rules::battle::BattleRules;
use crate::rules::battle::board::Board;
use crate::rules::battle::table::{AnyTable, engine};
use crate::rules::battle::{BattleError, Decided, Request, Side};
use crate::rules::resolution::{
    InputKind, InputSpec, InputValue, Mechanic, ResolveError, TableDice,
};
use crate::store::Store;

/// Records one action and prints the event appended.
pub fn run(store: &mut Store, args: RecordArgs, out: &mut dyn Write) -> Result<u8> {
    let id = store
        .find_campaign(&args.name)?
        .ok_or_else(|| anyhow!("no campaign named '{}'", args.name))?;
    catch_up(store, id, args.json, out)?;
    let stored = store.load_campaign(id)?;
    let by = store.recorder()?;
    let (index, decided) = decide_args(&stored.record, &args, &by)?;
    let event = decided.event;
    let at = match &event {
        Event::BranchChosen { keep, .. } => stored.record.choice(index, *keep)?.0,
        _ => stored.record.next_position(index)?,
    };
    let logged = store
        .record_event(stored.battle_ids[index], at, &event)
        .context("nothing was recorded")?;
    print_logged(&stored.record, index, &logged, args.json, out)?;
    if !args.json {
        for notice in store.take_notices() {
            writeln!(out, "  {notice}")?;
        }
    }
    Ok(EXIT_OK)
}

/// A shared campaign first takes in what the other machines wrote to its folder since the last
/// sync (only what is new is read), so an action is decided on the table as everyone left it:
/// recording after an event another player recorded a moment ago makes no fork. A folder that
/// cannot be read (an unplugged stick) is said, and the action recorded all the same.
pub(super) fn catch_up(
    store: &mut Store,
    id: crate::store::CampaignId,
    json: bool,
    out: &mut dyn Write,
) -> Result<()> {
    let Some(folder) = crate::sync::shared_folder(store, id)? else {
        return Ok(());
    };
    let report = match crate::sync::sync_folder(store, id, &folder) {
        Ok(report) => report,
        Err(crate::sync::SyncError::NotWritten { report, .. }) => *report,
        Err(e) => {
            if !json {
                writeln!(out, "  (the shared folder was not read: {e})")?;
            }
            return Ok(());
        }
    };
    if !json {
        if report.added > 0
            || !report.refused.is_empty()
            || report.reidentified.is_some()
            || !report.conflicts.is_empty()
        {
            writeln!(out, "Sync first: {}", report.summary())?;
        }
        for notice in report.notices.iter().chain(&report.conflicts) {
            writeln!(out, "  {notice}")?;
        }
    }
    Ok(())
}

/// The battle `args` name (its index) and what the battle's rules decide for its action there
/// as `by` records it: everything `campaign record` does short of the store, so the one-path
/// test can set its answer beside the window's.
pub(crate) fn decide_args(
    record: &CampaignRecord,
    args: &RecordArgs,
    by: &crate::campaign::Recorder,
) -> Result<(usize, Decided<Event>)> {
    let index = usize::try_from(args.battle)
        .ok()
        .and_then(|n| n.checked_sub(1))
        .filter(|i| *i < record.campaign.battles.len())
        .ok_or_else(|| {
            anyhow!(
                "--battle {}: the campaign has battles 1 to {}",
                args.battle,
                record.campaign.battles.len()
            )
        })?;
    let dice = table_dice(args.action.table_dice())?;
    Ok((index, decide(record, index, &args.action, by, &dice)?))
}

/// The event the battle's rules record for `action` on battle `index` as it stands (with the
/// mechanic's report of its roll), rolled by the app or, when `dice` holds faces, with the dice
/// rolled at the table.
fn decide(
    record: &CampaignRecord,
    index: usize,
    action: &RecordAction,
    by: &crate::campaign::Recorder,
    dice: &TableDice,
) -> Result<Decided<Event>> {
    let battle = record
        .battle(index)
        .ok_or_else(|| anyhow!("no battle {}", index + 1))?;
    let plain = |event| Decided {
        event,
        report: None,
    };
    let request = match action {
        RecordAction::Undo => return Ok(plain(battle.undo()?)),
        RecordAction::Redo => return Ok(plain(battle.redo()?)),
        RecordAction::Choose { keep } => {
            let keep = parse_event_id(record, index, keep)?;
            return Ok(plain(record.choice(index, keep)?.1));
        }
        RecordAction::Note { text } => Request::new(crate::campaign::NOTE).text(text.clone()),
        RecordAction::Conclude { winner, notes } => {
            let mut request = Request::new(crate::campaign::CONCLUDE).text(notes.clone());
            request.side = match winner {
                WinnerArg::Us => Some(Side::First),
                WinnerArg::German => Some(Side::Second),
                WinnerArg::Draw => None,
            };
            request
        }
        RecordAction::Act {
            action: key,
            side,
            unit,
            target,
            set,
            ..
        } => {
            let board = record.board(index).ok_or_else(|| {
                anyhow!(
                    "battle {} is not fought on a board: `act` records a board battle's actions",
                    index + 1
                )
            })?;
            let plan = match record.campaign.battles.get(index) {
                Some(crate::campaign::BattlePlan::Table(plan)) => plan,
                _ => bail!("battle {} is not fought on a board", index + 1),
            };
            act_request(
                plan,
                &board,
                key,
                *side,
                unit.as_deref(),
                target.as_deref(),
                set,
            )?
        }
        tracked => {
            let state = record.state(index).ok_or_else(|| {
                anyhow!(
                    "battle {} is not tracked (only notes, the result, undo and redo are recorded here)",
                    index + 1
                )
            })?;
            request(&state, tracked)?
        }
    };
    if dice.is_empty() {
        return record
            .decide(index, &request, by)
            .map_err(|e| name_the_flag(action, e));
    }
    let (asked, answer) = record.table_pools(index, &request, dice)?;
    if let Err(e) = answer {
        if !e.is_about_table_dice() {
            return Err(name_the_flag(action, e));
        }
        let pools: Vec<String> = asked
            .iter()
            .map(|p| format!("{} ({})", p.pool, p.dice()))
            .collect();
        bail!(
            "--dice {e}; {} rolls {} (give each as --dice POOL=FACES)",
            action.name(),
            pools.join(", then ")
        );
    }
    record
        .decide_table(index, &request, by, dice)
        .map_err(|e| name_the_flag(action, e))
}

/// A refusal of an input of the action's situation worded with its flag, as `odds` words it
/// ("--response-dice: 3: the battle decides it …" rather than "response_dice: …").
fn name_the_flag(action: &RecordAction, error: CampaignError) -> anyhow::Error {
    let (mechanic, flags, matches) = match action {
        RecordAction::Fire { situation, .. } | RecordAction::ArtilleryFire { situation, .. } => {
            (fire_mechanic(), fire_flags(), &situation.0)
        }
        RecordAction::Rally { situation, .. } => (rally_mechanic(), rally_flags(), &situation.0),
        _ => return error.into(),
    };
    let (Some(mechanic), CampaignError::Battle(BattleError::Invalid { field, message })) =
        (mechanic, &error)
    else {
        return error.into();
    };
    let declared = (mechanic.inputs)().iter().any(|spec| spec.key == *field);
    if !declared {
        return error.into();
    }
    flags.name_the_flag(
        mechanic,
        matches,
        ResolveError::Invalid {
            field,
            message: message.clone(),
        },
    )
}

/// The unit a flag names, by id or label.
fn unit(state: &BattleState, flag: &str, name: &str) -> Result<String> {
    state
        .find_unit(name)
        .map(|u| u.id.clone())
        .map_err(|e| anyhow!("{flag}: {e}"))
}

fn choice(key: &'static str, value: &'static str) -> (&'static str, InputValue) {
    (key, InputValue::Choice(value))
}

fn count(key: &'static str, n: u32) -> (&'static str, InputValue) {
    (key, InputValue::Count(i64::from(n)))
}

/// The mechanic inputs a subcommand's situation flags set, read as `odds` reads them over the
/// mechanic's defaults and `situation` (what the action itself is: artillery fire). Only what
/// the flags set (given, or implied by another) and what `situation` sets go into the request:
/// the battle fills in the rest from the table, and refuses a given value it decides itself
/// (ambush, the target's Disruption) that the table contradicts.
fn situation_inputs(
    mechanic: &'static Mechanic,
    flags: &FlagSet,
    matches: &ArgMatches,
    situation: &[(&'static str, InputValue)],
) -> Result<Vec<(&'static str, InputValue)>> {
    // No card is named here (the units are), so no data folder is read.
    let cards = Cards::new(RulesetId::ArmourBattles, None);
    let defaults = mechanic.defaults();
    let mut start = defaults.clone();
    for (key, value) in situation {
        start.set(key, value.clone());
    }
    let inputs = flags.read(mechanic, matches, &cards, start)?;
    let given = flags.given_inputs(mechanic, matches);
    Ok(inputs
        .iter()
        .filter(|(key, value)| given.contains(key) || defaults.get(key) != Some(value))
        .map(|(key, value)| (key, value.clone()))
        .collect())
}

/// The request a tracked action makes, its units found by id or label.
fn request(state: &BattleState, action: &RecordAction) -> Result<Request> {
    let with = |mut request: Request, inputs: Vec<(&'static str, InputValue)>| {
        for (key, value) in inputs {
            request = request.with(key, value);
        }
        request
    };
    Ok(match action {
        RecordAction::Command { .. } => Request::new(key::ROLL_COMMAND),
        RecordAction::EndTurn => Request::new(key::END_TURN),
        RecordAction::Chain {
            side,
            face,
            dice,
            on,
        } => {
            let on = match on {
                ChainUseArg::Orders => "orders",
                ChainUseArg::RestockStaffOrders => "restock_staff_orders",
                ChainUseArg::Repair => "repair",
                ChainUseArg::CommitReserves => bail!(
                    "--on commit-reserves: commit the company with `commit --company NAME`, which spends the chain's die"
                ),
            };
            with(
                Request::new(key::USE_CHAIN).side((*side).into()),
                vec![
                    count(param::FACE, u32::from(*face)),
                    count(param::DICE, *dice),
                    choice(param::ON, on),
                ],
            )
        }
        RecordAction::Wild { side, dice, on } => {
            let on = match on {
                WildUseArg::Bonus => "bonus",
                WildUseArg::InstantStaffOrders => "instant_staff_orders",
                WildUseArg::StockStaffOrders => "stock_staff_orders",
            };
            with(
                Request::new(key::USE_WILD).side((*side).into()),
                vec![count(param::DICE, *dice), choice(param::ON, on)],
            )
        }
        RecordAction::StaffOrder { side, purpose } => Request::new(key::USE_STAFF_ORDER)
            .side((*side).into())
            .text(purpose.clone()),
        RecordAction::Fire {
            attacker,
            target,
            situation,
            ..
        } => {
            let firer = unit(state, "--attacker", attacker)?;
            let aimed = unit(state, "--target", target)?;
            let mechanic = fire_mechanic().ok_or_else(|| anyhow!("no fire mechanic"))?;
            with(
                Request::new(key::FIRE).unit(firer).target(aimed),
                situation_inputs(mechanic, &fire_flags(), &situation.0, &[])?,
            )
        }
        RecordAction::Artillery { battery, .. } => {
            Request::new(key::CALL_ARTILLERY).unit(unit(state, "--battery", battery)?)
        }
        RecordAction::ArtilleryFire {
            battery,
            target,
            situation,
            ..
        } => {
            let battery = unit(state, "--battery", battery)?;
            let aimed = unit(state, "--target", target)?;
            let mechanic = fire_mechanic().ok_or_else(|| anyhow!("no fire mechanic"))?;
            // Artillery fire is the fire mechanic with a battery firing: the flags are read in
            // that situation, so a direct fire's flag (`--range`) is refused as not applying.
            let artillery = [("kind", InputValue::Choice("artillery"))];
            with(
                Request::new(key::ARTILLERY_FIRE)
                    .unit(battery)
                    .target(aimed),
                situation_inputs(mechanic, &fire_flags(), &situation.0, &artillery)?,
            )
        }
        RecordAction::Rally {
            unit: name,
            situation,
            ..
        } => {
            let rallying = unit(state, "--unit", name)?;
            let mechanic = rally_mechanic().ok_or_else(|| anyhow!("no rally mechanic"))?;
            with(
                Request::new(key::RALLY).unit(rallying),
                situation_inputs(mechanic, &rally_flags(), &situation.0, &[])?,
            )
        }
        RecordAction::Commit { company, chain } => {
            let first = state
                .units
                .iter()
                .find(|u| {
                    u.company.eq_ignore_ascii_case(company.trim())
                        && matches!(
                            u.status,
                            crate::rules::armour_battles::battle::state::UnitStatus::Reserve { .. }
                        )
                })
                .map(|u| u.id.clone());
            let first = match first {
                Some(first) => first,
                None => unit(state, "--company", company)?,
            };
            let request = Request::new(key::COMMIT_RESERVES).unit(first);
            match chain {
                Some(face) => request.with(param::FACE, InputValue::Count(i64::from(*face))),
                None => request,
            }
        }
        RecordAction::Reveal { unit: name } => {
            Request::new(key::REVEAL).unit(unit(state, "--unit", name)?)
        }
        RecordAction::Disperse { unit: name, .. } => {
            Request::new(key::DISPERSE).unit(unit(state, "--unit", name)?)
        }
        RecordAction::Reliability {
            unit: name, order, ..
        } => Request::new(key::CHECK_RELIABILITY)
            .unit(unit(state, "--unit", name)?)
            .with(
                param::MOVE,
                InputValue::Choice(match order {
                    CheckMoveArg::Double => "double",
                    CheckMoveArg::Triple => "triple",
                }),
            ),
        RecordAction::Repair {
            unit: name,
            staff_order,
        } => Request::new(key::REPAIR)
            .unit(unit(state, "--unit", name)?)
            .with(param::FLAG, InputValue::Flag(*staff_order)),
        RecordAction::Maintain { battery } => {
            Request::new(key::MAINTAIN_MISSION).unit(unit(state, "--battery", battery)?)
        }
        RecordAction::CancelMission { battery } => {
            Request::new(key::CANCEL_MISSION).unit(unit(state, "--battery", battery)?)
        }
        RecordAction::MissionDone { battery } => {
            Request::new(key::MISSION_DONE).unit(unit(state, "--battery", battery)?)
        }
        RecordAction::Undo
        | RecordAction::Redo
        | RecordAction::Note { .. }
        | RecordAction::Conclude { .. }
        | RecordAction::Choose { .. } => bail!("not a tracker action"),
        RecordAction::Act { .. } => {
            bail!("`act` records a board battle's actions; this is an Armour Battles battle")
        }
    })
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
    // "by Alice on laptop", "on laptop" with no player name, or nothing when neither is known.
    let (player, machine) = (logged.by.player.trim(), logged.by.machine.trim());
    let who = match (player.is_empty(), machine.is_empty()) {
        (true, true) => String::new(),
        (true, false) => format!(" on {machine}"),
        (false, true) => format!(" by {player}"),
        (false, false) => format!(" by {player} on {machine}"),
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

/// The request `act` makes: the action as the battle offers it (its key, by any case), the
/// units found by id or label, each `--set KEY=VALUE` read as the action's parameter says.
fn act_request(
    plan: &TablePlan,
    board: &Board,
    key: &str,
    side: Option<SideArg>,
    unit: Option<&str>,
    target: Option<&str>,
    set: &[String],
) -> Result<Request> {
    let offered = AnyTable::actions(plan, board);
    let wanted = key.trim().replace('-', "_").to_lowercase();
    let Some(action) = offered.iter().find(|a| a.key == wanted) else {
        let mut keys: Vec<&str> = offered.iter().map(|a| a.key).collect();
        keys.sort_unstable();
        keys.dedup();
        bail!(
            "no action '{key}' in this battle now (actions: {})",
            keys.join(", ")
        );
    };
    let find = |flag: &str, name: &str| {
        board
            .find_unit(name)
            .map(|u| u.id.clone())
            .map_err(|e| anyhow!("{flag}: {e}"))
    };
    let mut request = Request::new(action.key);
    request.side = side.map(Side::from);
    if let Some(unit) = unit {
        request.unit = Some(find("--unit", unit)?);
    }
    if let Some(target) = target {
        request.target = Some(find("--target", target)?);
    }
    let specs = engine(plan.ruleset)
        .map(|e| (e.params)(action.key))
        .unwrap_or_default();
    for pair in set {
        let (k, v) = pair
            .split_once('=')
            .ok_or_else(|| anyhow!("--set {pair}: write it KEY=VALUE"))?;
        let k = k.trim().replace('-', "_");
        let spec = specs.iter().find(|s| s.key == k).ok_or_else(|| {
            let names: Vec<&str> = specs.iter().map(|s| s.key).collect();
            anyhow!(
                "--set {pair}: {} takes {}",
                action.key,
                if names.is_empty() {
                    "no parameters".to_string()
                } else {
                    names.join(", ")
                }
            )
        })?;
        request.inputs.set(
            spec.key,
            param_value(spec, v.trim()).map_err(|m| anyhow!("--set {pair}: {m}"))?,
        );
    }
    Ok(request)
}

/// A typed value for parameter `spec`.
fn param_value(spec: &InputSpec, text: &str) -> std::result::Result<InputValue, String> {
    match &spec.kind {
        InputKind::Toggle => match text.to_lowercase().as_str() {
            "true" | "yes" | "on" | "1" => Ok(InputValue::Flag(true)),
            "false" | "no" | "off" | "0" => Ok(InputValue::Flag(false)),
            _ => Err("true or false".to_string()),
        },
        InputKind::Count { min, max } => text
            .parse::<i64>()
            .ok()
            .filter(|n| (*min..=*max).contains(n))
            .map(InputValue::Count)
            .ok_or_else(|| format!("a whole number from {min} to {max}")),
        InputKind::Number { min, max } => text
            .parse::<f64>()
            .ok()
            .filter(|x| (*min..=*max).contains(x))
            .map(InputValue::Number)
            .ok_or_else(|| format!("a number from {min} to {max}")),
        InputKind::Choice(_) => spec
            .option_named(text)
            .map(InputValue::Choice)
            .map_err(|e| e.to_string()),
        InputKind::Card { .. } | InputKind::CardList { .. } => {
            Err("the battle sets it from the units".to_string())
        }
    }
}
