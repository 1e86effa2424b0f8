//! `quartermaster campaign record NAME --battle N ACTION …`: a battle's actions from the
//! command line, so scripts and tests can play a battle (on two machines, and sync it).
//!
//! Every action is the `act` it names — `act ACTION` with its unit, target and parameters
//! (`--set KEY=VALUE`, read as the action describes them), or a ruleset's alias of one (the
//! Lorraine tracker's `fire --attacker … --target …`, each flag standing for what its alias
//! says) — made into the same [`Request`] the window makes and decided by the battle's rules
//! through [`CampaignRecord::decide`], with the app's dice from the seed the battle's history
//! gives (there is no `--seed`: nobody chooses it), or with the dice the players rolled at the
//! table (`--dice POOL=FACES`, read as `roll --dice` reads it) through
//! [`CampaignRecord::decide_table`]. The rules check every value against its description
//! first; a refusal names the flag that gave it. No rule is decided here.
//! Each prints the event it appended (with `--json`, the event as the campaign file holds it).

use std::io::Write;

use anyhow::{Context, Result, anyhow, bail};
use clap::ArgMatches;
use serde_json::json;

use super::super::resolve::table_dice;
use super::super::{EXIT_OK, print_json};
use super::flags::{
    AliasCall, OwnAction, RecordAction, RecordArgs, SideArg, WinnerArg, alias_flags,
};
use crate::campaign::{CampaignError, CampaignRecord, Event, EventUid, LoggedEvent, describe};
use crate::cli::{Cards, FlagSet};
use crate::rules::battle::alias::AliasFlag;
use crate::rules::battle::board::{Board, TablePlan};
use crate::rules::battle::table::engine;
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
    // Only the battle acted in is read: a record costs what its battle holds, not the
    // campaign's history (a number out of range reads none, and is refused below).
    let index = usize::try_from(args.battle)
        .ok()
        .and_then(|n| n.checked_sub(1))
        .unwrap_or(usize::MAX);
    let stored = store.load_campaign_for_battles(id, &|at| at == index)?;
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
/// as `by` records it: everything `campaign record` does short of the store.
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
    let dice = table_dice(&args.action.table_dice())?;
    Ok((index, decide(record, index, &args.action, by, &dice)?))
}

/// An action as the command line gave it, every value with the flag that gave it (so a
/// refusal names the flag).
struct Act<'a> {
    key: String,
    side: Option<Side>,
    /// (flag, name) of the unit acting; a company's name for [`AliasFlag::Group`].
    unit: Option<(String, String, bool)>,
    target: Option<(String, String)>,
    /// (flag, key, value as typed).
    params: Vec<(String, String, String)>,
    text: String,
    /// The mechanic whose situation flags were given, its flags, and how they were given.
    situation: Option<Situation<'a>>,
}

/// A mechanic's situation flags as given on the command line: the mechanic, its flags, the
/// matches they were read from, and the inputs they set.
type Situation<'a> = (
    &'static Mechanic,
    FlagSet,
    &'a ArgMatches,
    Vec<(&'static str, InputValue)>,
);

impl Act<'_> {
    fn new(key: impl Into<String>) -> Self {
        Act {
            key: key.into(),
            side: None,
            unit: None,
            target: None,
            params: Vec::new(),
            text: String::new(),
            situation: None,
        }
    }
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
    let act = match action {
        RecordAction::Own(OwnAction::Undo) => return Ok(plain(battle.undo()?)),
        RecordAction::Own(OwnAction::Redo) => return Ok(plain(battle.redo()?)),
        RecordAction::Own(OwnAction::Choose { keep }) => {
            let keep = parse_event_id(record, index, keep)?;
            return Ok(plain(record.choice(index, keep)?.1));
        }
        RecordAction::Own(OwnAction::Note { text }) => {
            let request = Request::new(crate::campaign::NOTE).text(text.clone());
            return Ok(record.decide(index, &request, by)?);
        }
        RecordAction::Own(OwnAction::Conclude { winner, notes }) => {
            let mut request = Request::new(crate::campaign::CONCLUDE).text(notes.clone());
            request.side = match winner {
                WinnerArg::First => Some(Side::First),
                WinnerArg::Second => Some(Side::Second),
                WinnerArg::Draw => None,
            };
            return Ok(record.decide(index, &request, by)?);
        }
        RecordAction::Own(OwnAction::Act {
            action,
            side,
            unit,
            target,
            set,
            text,
            ..
        }) => own_act(action, *side, unit.as_ref(), target.as_ref(), set, text)?,
        RecordAction::Alias(call) => alias_act(call)?,
    };
    let (Some(plan), Some(board)) = (record.table_plan(index), record.board(index)) else {
        bail!(
            "battle {} is not fought on a board (only notes, the result, undo and redo are recorded here)",
            index + 1
        );
    };
    let request = act_request(&plan, &board, &act)?;
    if dice.is_empty() {
        return record
            .decide(index, &request, by)
            .map_err(|e| name_the_flag(&act, e));
    }
    let (asked, answer) = record.table_pools(index, &request, dice)?;
    if let Err(e) = answer {
        if !e.is_about_table_dice() {
            return Err(name_the_flag(&act, e));
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
        .map_err(|e| name_the_flag(&act, e))
}

/// `act ACTION --side … --unit … --target … --set KEY=VALUE … --text …`.
fn own_act<'a>(
    key: &str,
    side: Option<SideArg>,
    unit: Option<&String>,
    target: Option<&String>,
    set: &[String],
    text: &str,
) -> Result<Act<'a>> {
    let mut act = Act::new(key.trim().replace('-', "_").to_lowercase());
    act.side = side.map(Side::from);
    act.unit = unit.map(|u| ("--unit".to_string(), u.clone(), false));
    act.target = target.map(|t| ("--target".to_string(), t.clone()));
    act.text = text.to_string();
    for pair in set {
        let (k, v) = pair
            .split_once('=')
            .ok_or_else(|| anyhow!("--set {pair}: write it KEY=VALUE"))?;
        act.params.push((
            format!("--set {}", k.trim()),
            k.trim().replace('-', "_"),
            v.trim().to_string(),
        ));
    }
    Ok(act)
}

/// An alias as the `act` it stands for: each of its flags as what the alias says it sets, its
/// mechanic's situation flags as `odds` reads them.
fn alias_act(call: &AliasCall) -> Result<Act<'_>> {
    let AliasCall {
        ruleset,
        alias,
        matches,
    } = call;
    let mut act = Act::new(alias.action);
    for &(flag, what) in alias.flags {
        let dashed = format!("--{flag}");
        let text = matches
            .get_raw(flag)
            .and_then(|mut v| v.next())
            .map(|v| v.to_string_lossy().into_owned());
        if let Some((_, value, why)) = alias.refusing.iter().find(|(f, v, _)| {
            *f == flag && text.as_deref().is_some_and(|t| t.replace('_', "-") == *v)
        }) {
            bail!("{dashed} {value}: {why}");
        }
        match what {
            AliasFlag::Side => act.side = matches.get_one::<SideArg>(flag).copied().map(Side::from),
            AliasFlag::Unit | AliasFlag::Group => {
                act.unit = text.map(|t| (dashed, t, what == AliasFlag::Group));
            }
            AliasFlag::Target => act.target = text.map(|t| (dashed, t)),
            AliasFlag::Text => act.text = text.unwrap_or_default(),
            AliasFlag::Param(key) => {
                // A switch (`--staff-order`) is set or not; any other flag has a value.
                let given = match matches.try_get_one::<bool>(flag) {
                    Ok(Some(true)) => Some("true".to_string()),
                    Ok(_) => None,
                    Err(_) => text,
                };
                if let Some(value) = given {
                    act.params.push((dashed, key.to_string(), value));
                }
            }
        }
    }
    if let Some((mechanic, flags)) = alias_flags(*ruleset, alias) {
        let fixed: Vec<(&'static str, InputValue)> = alias
            .mechanic
            .map_or(&[][..], |m| m.situation)
            .iter()
            .map(|(k, v)| (*k, InputValue::Choice(v)))
            .collect();
        let inputs = situation_inputs(mechanic, &flags, matches, &fixed, *ruleset)?;
        act.situation = Some((mechanic, flags, matches, inputs));
    }
    Ok(act)
}

/// A refusal of a value worded with the flag that gave it, as `odds` words it
/// ("--response-dice: 3: the battle decides it …" rather than "response_dice: …").
fn name_the_flag(act: &Act<'_>, error: CampaignError) -> anyhow::Error {
    let (field, message) = match &error {
        CampaignError::Battle(
            BattleError::Invalid { field, message }
            | BattleError::Resolve(ResolveError::Invalid { field, message }),
        ) => (*field, message.clone()),
        _ => return error.into(),
    };
    if let Some((mechanic, flags, matches, _)) = &act.situation
        && (mechanic.inputs)().iter().any(|spec| spec.key == field)
    {
        return flags.name_the_flag(mechanic, matches, ResolveError::Invalid { field, message });
    }
    match act.params.iter().find(|(_, key, _)| key == field) {
        Some((flag, _, _)) => anyhow!("{flag}: {message}"),
        None => error.into(),
    }
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
    ruleset: crate::rules::RulesetId,
) -> Result<Vec<(&'static str, InputValue)>> {
    // No card is named here (the units are), so no data folder is read.
    let cards = Cards::new(ruleset, None);
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

/// The request an act makes: its units found by id or label (a company by its name or a unit
/// of it: its first unit), each parameter read as the action describes it.
fn act_request(plan: &TablePlan, board: &Board, act: &Act<'_>) -> Result<Request> {
    let engine = engine(plan.ruleset)?;
    let Some(key) = engine.keys.iter().copied().find(|k| *k == act.key) else {
        let mut keys: Vec<&str> = engine.keys.to_vec();
        keys.sort_unstable();
        bail!(
            "no action '{}' in a {} battle (actions: {}; `campaign show NAME --actions` lists those on offer now)",
            act.key,
            plan.ruleset.title(),
            keys.join(", ")
        );
    };
    let find = |flag: &str, name: &str| {
        board
            .find_unit(name)
            .map(|u| u.id.clone())
            .map_err(|e| anyhow!("{flag}: {e}"))
    };
    let mut request = Request::new(key);
    request.side = act.side;
    request.text.clone_from(&act.text);
    if let Some((flag, name, group)) = &act.unit {
        request.unit = Some(if *group {
            first_of_group(board, name).map_or_else(|| find(flag, name), Ok)?
        } else {
            find(flag, name)?
        });
    }
    if let Some((flag, name)) = &act.target {
        request.target = Some(find(flag, name)?);
    }
    let specs = (engine.params)(key);
    for (flag, k, text) in &act.params {
        let spec = specs.iter().find(|s| s.key == k).ok_or_else(|| {
            let names: Vec<&str> = specs.iter().map(|s| s.key).collect();
            anyhow!(
                "{flag}: {key} takes {}",
                if names.is_empty() {
                    "no parameters".to_string()
                } else {
                    names.join(", ")
                }
            )
        })?;
        request.inputs.set(
            spec.key,
            param_value(spec, text).map_err(|m| anyhow!("{flag} {text}: {m}"))?,
        );
    }
    if let Some((_, _, _, inputs)) = &act.situation {
        for (k, value) in inputs {
            request.inputs.set(k, value.clone());
        }
    }
    Ok(request)
}

/// The first unit of the company `name` names: its own (a unit's label ends with its
/// company in brackets), or the company of the unit it names.
fn first_of_group(board: &Board, name: &str) -> Option<String> {
    let company = |label: &str| {
        label
            .rsplit_once(" (")
            .and_then(|(_, rest)| rest.strip_suffix(')'))
            .map(str::to_lowercase)
    };
    let wanted = match board.find_unit(name) {
        Ok(unit) => company(&unit.label)?,
        Err(_) => name.trim().to_lowercase(),
    };
    board
        .units
        .iter()
        .find(|u| company(&u.label).as_deref() == Some(wanted.as_str()))
        .map(|u| u.id.clone())
}

/// A typed value for parameter `spec`: the kind it is read as; its range and choices are the
/// rules' to check, in their words.
fn param_value(spec: &InputSpec, text: &str) -> std::result::Result<InputValue, String> {
    match &spec.kind {
        InputKind::Toggle => match text.to_lowercase().as_str() {
            "true" | "yes" | "on" | "1" => Ok(InputValue::Flag(true)),
            "false" | "no" | "off" | "0" => Ok(InputValue::Flag(false)),
            _ => Err("true or false".to_string()),
        },
        InputKind::Count { .. } => text
            .parse::<i64>()
            .map(InputValue::Count)
            .map_err(|_| "a whole number".to_string()),
        InputKind::Number { .. } => text
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .map(InputValue::Number)
            .ok_or_else(|| "a number".to_string()),
        InputKind::Choice(_) => spec
            .option_named(text)
            .map(InputValue::Choice)
            .map_err(|e| e.to_string()),
        InputKind::Card { .. } | InputKind::CardList { .. } => {
            Err("the battle sets it from the units".to_string())
        }
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

/// "battle 1, event 7 (act, id 3f2a91c0) by Alice on laptop: …", or the event as JSON.
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
