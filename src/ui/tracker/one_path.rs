//! One situation, one answer: a property test that plays a Lorraine battle to a random state,
//! picks an action that rolls (fire, rally, an artillery mission's fire for effect) with a
//! random situation, and asks each front end for it through its own code — the tracker's
//! panels ([`settle_panel`], [`panel_request`], [`rally_inputs`]), `campaign record` (real
//! argument vectors parsed by clap, then [`decide_args`]) and the Resolve view linked to the
//! battle ([`battle_link::situation`], [`battle_link::decide`]). With the app's dice and with
//! the same dice typed at the table, every front end must record the same event with the same
//! report, or refuse with the same words.
//!
//! What the window cannot express is not asked of it: the pickers offer only the units the
//! battle offers, and the tracker's form bounds a bonus by the side's stock. When that bound
//! changes a bonus the player asked for, the command line and the Resolve view (which do not
//! bound it) must both refuse it, and the tracker is left out of that comparison.

use clap::Parser;
use proptest::prelude::*;

use super::{
    ARTILLERY_FORM, FIRE_FORM, Panel, TrackerState, armour_mechanic, panel_request, rally_fixed,
    rally_fixing, rally_inputs, settle_panel,
};
use crate::campaign::{
    ArmourBattlePlan, BattlePlan, CampaignRecord, CampaignUid, Event, EventUid, LorraineOptions,
    Recorder, Sides, new_lorraine,
};
use crate::cli::campaign::CampaignCommand;
use crate::cli::campaign::record::decide_args;
use crate::cli::{Cli, Command};
use crate::rules::armour_battles::battle::ArmourBattle;
use crate::rules::armour_battles::battle::actions::key;
use crate::rules::armour_battles::battle::script::next_request;
use crate::rules::armour_battles::battle::state::{BattleState, Phase, UnitStatus};
use crate::rules::battle::{self as seam, BattleRules, Decided, Request};
use crate::rules::resolution::{InputValue, TableDice};
use crate::ui::resolve::battle_link::{self, BattlePick, OpenBattle};
use crate::ui::resolve::form::{self, Form};

/// What a front end answers: the event with its report, or the refusal in words.
type Answer = Result<Decided<Event>, String>;

const NAME: &str = "Lezey";

fn campaign() -> CampaignRecord {
    let players = Sides {
        first: "Alice".to_string(),
        second: "Bruno".to_string(),
    };
    CampaignRecord::new(
        CampaignUid(uuid::Uuid::from_u128(
            0x0192_f1d2_3c4b_7a00_8123_4567_89ab_cdef,
        )),
        new_lorraine(NAME, players, LorraineOptions::default()).unwrap(),
    )
}

fn recorder(machine: impl Into<String>) -> Recorder {
    Recorder {
        player: "Alice".to_string(),
        machine: machine.into(),
    }
}

fn plan_of(record: &CampaignRecord, index: usize) -> ArmourBattlePlan {
    match &record.campaign.battles[index] {
        BattlePlan::Armour(plan) => plan.clone(),
        _ => panic!("battle {} is not an Armour Battles battle", index + 1),
    }
}

/// Plays `steps` on battle `index`: each step an allowed action the battle offers (its target
/// picked among the allowed ones) or, when the pick falls past them or the rules refuse it,
/// the scripted player's next request; every event recorded by a machine of its own, so the
/// dice differ step by step.
fn play(record: &mut CampaignRecord, index: usize, steps: &[(u16, u16)]) {
    let plan = plan_of(record, index);
    let number = record.campaign.battles[index].number();
    for (n, &(which, aim)) in steps.iter().enumerate() {
        let state = record.state(index).unwrap();
        if state.phase == Phase::Over {
            return;
        }
        let by = recorder(format!("walker-{n}"));
        let allowed: Vec<seam::Action> = ArmourBattle::actions(&plan, &state)
            .into_iter()
            .filter(seam::Action::allowed)
            // Dispersing units at random ends the battle before anything is left to test.
            .filter(|a| !a.destructive)
            .collect();
        let picked = allowed
            .get(usize::from(which) % (allowed.len() + 2))
            .map(|action| {
                let mut request = action.request();
                if !action.targets.is_empty() {
                    let t = usize::from(aim) % action.targets.len();
                    request.target = Some(action.targets[t].clone());
                }
                request
            });
        let decided = picked
            .and_then(|r| record.decide(index, &r, &by).ok())
            .or_else(|| {
                let r = next_request(&plan, &state)?;
                record.decide(index, &r, &by).ok()
            });
        let Some(decided) = decided else {
            return;
        };
        let seq = u32::try_from(record.all_events(index).count() + 1).unwrap();
        let id = EventUid::legacy(record.id, number, seq);
        let at = format!("2026-11-22T10:{:02}:{:02}Z", seq / 60 % 60, seq % 60);
        record.append(index, id, at, by, decided.event).unwrap();
    }
}

/// The player's side of one situation, as random numbers the test reads against the table.
#[derive(Debug, Clone)]
struct Situation {
    /// Fire, rally or artillery fire (the first of them the table offers, from this one on).
    what: u8,
    unit: u16,
    target: u16,
    /// Direct mostly, opportunity often, now and then an artillery kind the battle refuses.
    kind: u8,
    range: u8,
    moving: u8,
    flank: bool,
    uphill: bool,
    cover: bool,
    evading: u8,
    attacker_wild: u8,
    target_wild: u8,
    /// The command line also gives what the battle decides (ambush, the target's Disruption
    /// and suppression), as the table holds it.
    echo: bool,
    /// Half-inches to the closest enemy, for a rally.
    distance: u16,
    no_los: bool,
    /// The faces rolled at the table come from this.
    faces: u64,
}

prop_compose! {
    fn situations()(
        (what, unit, target, kind, range, moving) in
            (0u8..3, any::<u16>(), any::<u16>(), 0u8..8, 0u8..3, 0u8..5),
        (flank, uphill, cover, evading, attacker_wild, target_wild) in
            (any::<bool>(), any::<bool>(), any::<bool>(), 0u8..8, 0u8..6, 0u8..6),
        (echo, distance, no_los, faces) in
            (any::<bool>(), 0u16..80, any::<bool>(), any::<u64>()),
    ) -> Situation {
        Situation {
            what, unit, target, kind, range, moving, flank, uphill, cover, evading,
            attacker_wild: BONUSES[usize::from(attacker_wild)],
            target_wild: BONUSES[usize::from(target_wild)],
            echo, distance, no_los, faces,
        }
    }
}

const KINDS: [&str; 8] = [
    "direct",
    "direct",
    "direct",
    "direct",
    "opportunity",
    "opportunity",
    "opportunity",
    "artillery",
];
const RANGES: [&str; 3] = ["short", "effective", "long"];
/// Mostly a single move: opportunity fire refuses the others.
const MOVES: [&str; 5] = ["single", "single", "single", "double", "triple"];
/// Mostly not evading: a card without the evasion refuses it.
const EVASIONS: [&str; 8] = [
    "none",
    "none",
    "none",
    "none",
    "auto",
    "break_off",
    "shoot_and_scoot",
    "disengage",
];
/// Mostly no bonus: a side without the stock refuses it.
const BONUSES: [u8; 6] = [0, 0, 0, 0, 1, 2];

/// The action the situation asks for: its key, the unit and the target picked as the window's
/// pickers list them (every unit the action is offered to, refused or not; a target among
/// those it may aim at). `None` when the table offers none of the three.
fn pick(state: &BattleState, offered: &[seam::Action], s: &Situation) -> Option<seam::Action> {
    let order = [key::FIRE, key::RALLY, key::ARTILLERY_FIRE];
    (0..3).find_map(|i| {
        let wanted = order[(usize::from(s.what) + i) % 3];
        let of: Vec<&seam::Action> = offered
            .iter()
            .filter(|a| a.key == wanted)
            // A shot needs a target the picker lists.
            .filter(|a| wanted == key::RALLY || !a.targets.is_empty())
            .filter(|a| a.unit.as_deref().and_then(|u| state.unit(u)).is_some())
            // Mostly a unit that may act, so most cases roll; now and then any the picker lists.
            .filter(|a| s.unit.is_multiple_of(4) || a.allowed())
            .collect();
        let action = of.get(usize::from(s.unit) % of.len().max(1))?;
        Some((*action).clone())
    })
}

fn target_of(action: &seam::Action, s: &Situation) -> Option<String> {
    let targets = &action.targets;
    (!targets.is_empty()).then(|| targets[usize::from(s.target) % targets.len()].clone())
}

/// The fire form's inputs as the player sets them.
fn fire_inputs(s: &Situation, artillery: bool) -> Vec<(&'static str, InputValue)> {
    let mut inputs = vec![
        ("cover", InputValue::Flag(s.cover)),
        (
            "attacker_wild",
            InputValue::Count(i64::from(s.attacker_wild)),
        ),
        ("target_wild", InputValue::Count(i64::from(s.target_wild))),
    ];
    if artillery {
        // `campaign record artillery-fire` takes only breaking off.
        let evading = if breaks_off(s) { "break_off" } else { "none" };
        inputs.push(("evading", InputValue::Choice(evading)));
    } else {
        inputs.extend([
            ("kind", InputValue::Choice(KINDS[usize::from(s.kind)])),
            ("range", InputValue::Choice(RANGES[usize::from(s.range)])),
            ("move", InputValue::Choice(MOVES[usize::from(s.moving)])),
            ("flank", InputValue::Flag(s.flank)),
            ("uphill", InputValue::Flag(s.uphill)),
            (
                "evading",
                InputValue::Choice(EVASIONS[usize::from(s.evading)]),
            ),
        ]);
    }
    inputs
}

/// An artillery target breaks off (the only evasion `campaign record artillery-fire` takes).
fn breaks_off(s: &Situation) -> bool {
    !s.evading.is_multiple_of(2)
}

fn rally_bonus(s: &Situation) -> u8 {
    s.attacker_wild
}

fn distance(s: &Situation) -> f64 {
    f64::from(s.distance) / 2.0
}

// ---------------------------------------------------------------------------------------
// The tracker

/// The tracker's request for the situation, and whether its form bounded a value the player
/// asked for (a bonus beyond the side's stock).
fn tracker_request(
    plan: &ArmourBattlePlan,
    state: &BattleState,
    offered: &[seam::Action],
    action: &seam::Action,
    s: &Situation,
) -> (Request, bool) {
    match action.key {
        key::RALLY => {
            let mut tracker = TrackerState::default();
            let rally = &mut tracker.rally;
            rally
                .inputs
                .set("distance", InputValue::Number(distance(s)));
            rally.inputs.set("cover", InputValue::Flag(s.cover));
            rally.inputs.set("no_los", InputValue::Flag(s.no_los));
            rally
                .inputs
                .set("wild", InputValue::Count(i64::from(rally_bonus(s))));
            let values = rally_fixed();
            form::settle(armour_mechanic("rally"), rally, &rally_fixing(&values));
            let mut action = action.clone();
            rally_inputs(&tracker, &mut action);
            (action.request(), false)
        }
        panel_key => {
            let artillery = panel_key == key::ARTILLERY_FIRE;
            let mut panel = Panel::new("fire");
            panel.unit = action.unit.clone();
            panel.target = target_of(action, s);
            let asked = fire_inputs(s, artillery);
            for (k, v) in &asked {
                panel.form.inputs.set(k, v.clone());
            }
            let columns: &[Option<&'static [&'static str]>] = if artillery {
                &ARTILLERY_FORM
            } else {
                &FIRE_FORM
            };
            settle_panel(
                (plan, state, offered),
                panel_key,
                Some(action),
                &mut panel,
                columns,
            );
            let bounded = asked
                .iter()
                .any(|(k, v)| panel.form.inputs.get(k) != Some(v));
            (panel_request(panel_key, &panel), bounded)
        }
    }
}

/// What the tracker records on a click: a refused action says why without deciding (the fire
/// panel and a unit's Rally button); an artillery panel asks the rules. With dice rolled at the
/// table an action that rolls waits for its faces and is then decided with them.
fn tracker_answer(
    record: &CampaignRecord,
    index: usize,
    action: &seam::Action,
    request: &Request,
    table: Option<&TableDice>,
    by: &Recorder,
) -> Answer {
    if action.key != key::ARTILLERY_FIRE
        && let Some(why) = &action.refused
    {
        return Err(why.clone());
    }
    let rolls = record
        .table_pools(index, request, &TableDice::new())
        .is_ok_and(|(asked, _)| !asked.is_empty());
    let decided = match table {
        Some(dice) if rolls => record.decide_table(index, request, by, dice),
        _ => record.decide(index, request, by),
    };
    decided.map_err(|e| e.to_string())
}

// ---------------------------------------------------------------------------------------
// The Resolve view linked to the battle

fn resolve_answer(
    record: &CampaignRecord,
    index: usize,
    state: &BattleState,
    action: &seam::Action,
    s: &Situation,
    table: Option<&TableDice>,
    by: &Recorder,
) -> Answer {
    let plan = match &record.campaign.battles[index] {
        BattlePlan::Armour(plan) => plan,
        _ => unreachable!(),
    };
    let open = OpenBattle {
        name: record.campaign.battles[index].title(),
        record,
        index,
        plan,
        state: state.clone(),
        log_len: record.battle(index).unwrap().events.len(),
    };
    let mut form = Form::new(armour_mechanic("fire"));
    for (k, v) in fire_inputs(s, false) {
        form.inputs.set(k, v);
    }
    let pick = BattlePick {
        attacker: action.unit.clone(),
        target: target_of(action, s),
        ..BattlePick::default()
    };
    // As the view does: the battle's situation for the picked units when it allows the shot,
    // else the form as the player left it.
    let inputs = battle_link::situation(&pick, &form, &open).unwrap_or_else(|| form.inputs.clone());
    battle_link::decide(&pick, &inputs, &open, table, by).map_err(|e| e.to_string())
}

// ---------------------------------------------------------------------------------------
// `campaign record`

fn flag(key: &str) -> String {
    let spec = (armour_mechanic("fire").inputs)()
        .into_iter()
        .find(|spec| spec.key == key)
        .unwrap_or_else(|| panic!("fire has no input {key}"));
    format!("--{}", spec.flag_name())
}

/// `campaign record` for the situation, as a player types it.
fn command_line(
    state: &BattleState,
    index: usize,
    action: &seam::Action,
    s: &Situation,
    dice: &[String],
) -> Vec<String> {
    let mut argv: Vec<String> = ["quartermaster", "campaign", "record", NAME, "--battle"]
        .map(String::from)
        .to_vec();
    argv.push((index + 1).to_string());
    let unit = action.unit.clone().unwrap();
    // A bonus is asked for as a count of extra dice: the battle pays it from a wild die
    // first, then a Staff Order.
    match action.key {
        key::RALLY => {
            argv.extend(["rally".into(), "--unit".into(), unit]);
            argv.extend(["--distance".into(), distance(s).to_string()]);
            if s.cover {
                argv.push("--cover".into());
            }
            if s.no_los {
                argv.push("--no-line-of-sight".into());
            }
            if rally_bonus(s) > 0 {
                argv.extend(["--wild".into(), rally_bonus(s).to_string()]);
            }
        }
        key::ARTILLERY_FIRE => {
            let target = target_of(action, s).unwrap();
            argv.extend(["artillery-fire".into(), "--battery".into(), unit]);
            argv.extend(["--target".into(), target]);
            if s.cover {
                argv.push("--cover".into());
            }
            if breaks_off(s) {
                argv.push("--break-off".into());
            }
            if s.attacker_wild > 0 {
                argv.extend(["--attacker-wild".into(), s.attacker_wild.to_string()]);
            }
            if s.target_wild > 0 {
                argv.extend(["--target-wild".into(), s.target_wild.to_string()]);
            }
        }
        _ => {
            let target = target_of(action, s).unwrap();
            argv.extend(["fire".into(), "--attacker".into(), unit.clone()]);
            argv.extend(["--target".into(), target.clone()]);
            let inputs = fire_inputs(s, false);
            let mut form = armour_mechanic("fire").defaults();
            for (k, v) in &inputs {
                form.set(k, v.clone());
            }
            let specs = (armour_mechanic("fire").inputs)();
            // Only the flags that apply to the kind of fire, as the window draws only those.
            let applies = |k: &str| specs.iter().any(|spec| spec.key == k && spec.shown(&form));
            for (k, v) in inputs.into_iter().filter(|(k, _)| applies(k)) {
                match v {
                    InputValue::Flag(true) => argv.push(flag(k)),
                    InputValue::Flag(false) => {}
                    InputValue::Choice(c) => argv.extend([flag(k), c.replace('_', "-")]),
                    InputValue::Count(n) => argv.extend([flag(k), n.to_string()]),
                    other => panic!("{k}: {other:?}"),
                }
            }
            if s.echo {
                let firer = state.unit(&unit).unwrap();
                let aimed = state.unit(&target).unwrap();
                argv.extend([flag("target_disruption"), aimed.disruption.to_string()]);
                if aimed.suppressed {
                    argv.push(flag("target_suppressed"));
                }
                if firer.status == UnitStatus::Hidden && applies("ambush") {
                    argv.push(flag("ambush"));
                }
            }
        }
    }
    for pool in dice {
        argv.extend(["--dice".into(), pool.clone()]);
    }
    argv
}

fn cli_answer(record: &CampaignRecord, argv: &[String], by: &Recorder) -> Answer {
    let cli = Cli::try_parse_from(argv).unwrap_or_else(|e| panic!("{argv:?}: {e}"));
    let Some(Command::Campaign(CampaignCommand::Record(args))) = cli.command else {
        panic!("{argv:?} is not `campaign record`");
    };
    decide_args(record, &args, by)
        .map(|(_, decided)| decided)
        .map_err(|e| by_key(&e.to_string()))
}

/// The command line names a refused input by its flag ("--kind: …"), the window by its key
/// ("kind: …"): the same refusal, worded for where it was typed.
fn by_key(refusal: &str) -> String {
    for mechanic in ["fire", "rally"] {
        for spec in (armour_mechanic(mechanic).inputs)() {
            if let Some(rest) = refusal.strip_prefix(&format!("--{}: ", spec.flag_name())) {
                return format!("{}: {rest}", spec.key);
            }
        }
    }
    refusal.to_string()
}

// ---------------------------------------------------------------------------------------
// Dice rolled at the table

/// Faces for every pool `request` asks for, pool after pool as the rules ask (a reaction only
/// once the attack scores), each die a face its pool can show; and the same as `--dice`.
fn table_dice(
    record: &CampaignRecord,
    index: usize,
    request: &Request,
    seed: u64,
) -> (TableDice, Vec<String>) {
    let mut next = seed | 1;
    let mut face = |sides: u8| {
        // xorshift: dice that differ case by case, the same for every front end.
        next ^= next << 13;
        next ^= next >> 7;
        next ^= next << 17;
        u8::try_from(next % u64::from(sides)).unwrap() + 1
    };
    let mut dice = TableDice::new();
    let mut args = Vec::new();
    for _ in 0..12 {
        let Ok((asked, answer)) = record.table_pools(index, request, &dice) else {
            break;
        };
        match answer {
            Err(e) if e.is_about_table_dice() => {}
            _ => break,
        }
        // The first roll asked for that no faces answer yet.
        let mut seen = std::collections::BTreeMap::<&str, usize>::new();
        let Some(pool) = asked.iter().find(|p| {
            let occurrence = seen.entry(p.pool).or_default();
            *occurrence += 1;
            !dice.has(p.pool, *occurrence - 1)
        }) else {
            break;
        };
        let faces: Vec<u8> = (0..pool.count).map(|_| face(pool.sides)).collect();
        let text: Vec<String> = faces.iter().map(u8::to_string).collect();
        args.push(format!("{}={}", pool.pool, text.join(",")));
        dice.add(pool.pool, faces);
    }
    (dice, args)
}

// ---------------------------------------------------------------------------------------
// The property

/// How the cases went: a run that compared nothing proves nothing.
#[derive(Debug, Default)]
struct Tally {
    /// Decisions compared across the front ends, by action key.
    compared: std::collections::BTreeMap<&'static str, usize>,
    recorded: usize,
    refused: usize,
    /// Decisions where the tracker's form bounded a bonus (the other two compared).
    bounded: usize,
    /// Cases whose table offered none of the three actions.
    nothing: usize,
}

fn one_case(
    steps: &[(u16, u16)],
    battle: usize,
    s: &Situation,
    tally: &mut Tally,
) -> Result<(), TestCaseError> {
    let mut record = campaign();
    let index = battle % record.campaign.battles.len();
    play(&mut record, index, steps);
    let plan = plan_of(&record, index);
    let state = record.state(index).unwrap();
    let offered = ArmourBattle::actions(&plan, &state);
    let Some(action) = pick(&state, &offered, s) else {
        tally.nothing += 1;
        return Ok(());
    };
    let by = recorder("table");
    let (request, bounded) = tracker_request(&plan, &state, &offered, &action, s);
    let (faces, dice_args) = table_dice(&record, index, &request, s.faces);
    for (table, args) in [(None, Vec::new()), (Some(&faces), dice_args)] {
        let argv = command_line(&state, index, &action, s, &args);
        let cli = cli_answer(&record, &argv, &by);
        let resolve = (action.key == key::FIRE)
            .then(|| resolve_answer(&record, index, &state, &action, s, table, &by));
        if let Some(resolve) = &resolve {
            prop_assert_eq!(resolve, &cli, "Resolve view vs command line {:?}", argv);
        }
        if bounded {
            // The tracker's form cannot hold a bonus beyond the stock; everyone else refuses it.
            prop_assert!(
                cli.is_err(),
                "a bonus beyond the stock was recorded: {:?}",
                argv
            );
            tally.bounded += 1;
            continue;
        }
        let tracker = tracker_answer(&record, index, &action, &request, table, &by);
        prop_assert_eq!(&tracker, &cli, "tracker vs command line {:?}", argv);
        *tally.compared.entry(action.key).or_default() += 1;
        match cli {
            Ok(decided) => {
                // And what they all record holds up: it verifies as the battle's next event.
                let mut after = record.clone();
                let seq = u32::try_from(after.all_events(index).count() + 1).unwrap();
                let number = after.campaign.battles[index].number();
                let id = EventUid::legacy(after.id, number, seq);
                let at = "2026-11-22T12:00:00Z".to_string();
                after
                    .append(index, id, at, by.clone(), decided.event)
                    .unwrap();
                let verified = crate::campaign::verify::verify_battle(&after, index);
                prop_assert!(verified.is_ok(), "{:?}: {:?}", argv, verified);
                tally.recorded += 1;
            }
            Err(_) => tally.refused += 1,
        }
    }
    Ok(())
}

/// The tracker, `campaign record` and the linked Resolve view record the same event with the
/// same report for one situation and one set of dice, or refuse it alike.
#[test]
fn every_front_end_records_the_same_event_for_the_same_dice() {
    let cases = (
        prop::collection::vec((any::<u16>(), any::<u16>()), 0..48),
        0usize..3,
        situations(),
    );
    let tally = std::cell::RefCell::new(Tally::default());
    let config = ProptestConfig {
        cases: CASES,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let mut runner = proptest::test_runner::TestRunner::new(config);
    let result = runner.run(&cases, |(steps, battle, situation)| {
        one_case(&steps, battle, &situation, &mut tally.borrow_mut())
    });
    let tally = tally.into_inner();
    eprintln!("{tally:?}");
    if let Err(failure) = result {
        panic!("{failure}");
    }
    assert!(tally.recorded > 0 && tally.refused > 0, "{tally:?}");
    assert!(tally.compared.contains_key(key::FIRE), "{tally:?}");
}

/// Enough cases to meet fire, rally and refusals every run, few enough for a debug build.
const CASES: u32 = 64;
