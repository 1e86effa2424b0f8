//! Import re-derives, it does not trust: every event of an imported campaign is recorded again
//! through the same [`super::tracker`] checks the table uses, from the dice and inputs the file
//! carries, and must come out identical.
//!
//! What this proves: each battle's log is one the app could have recorded — its plans are the
//! book's briefings, every event was allowed at its place in the order, every die replays from
//! its seed and roll number, and every outcome (Disruption, suppression, dispersal, Army Morale)
//! follows from those dice by the rules. What it cannot prove: that the dice were rolled once.
//! A player may choose a seed, or roll again and keep the roll they liked; a log is consistent,
//! not honest.

use serde_json::Value;

use super::definition::{ArmourBattlePlan, BattlePlan, Sides, lorraine_battle, what_next};
use super::error::CampaignError;
use super::event::{Event, FireEvent, FireKind, FireSetup, RallyEvent};
use super::state::{BattleState, MissionStatus};
use super::tracker;
use super::{CampaignRecord, LoggedEvent};
use crate::rules::RulesetId;
use crate::rules::armour_battles::artillery;
use crate::rules::armour_battles::fire::{self, MoveOrder};
use crate::rules::armour_battles::outcome::{self, FireRoll, SuppressionRule};
use crate::rules::armour_battles::rally::RallyRoll;
use crate::rules::armour_battles::{self, Side};
use crate::rules::dice::{Pool, RollRecord, Roller};

/// Longest name anywhere in a campaign file (campaign, players, battles, forces, units): the
/// same as a force's or a card's, since a campaign's battles carry force and card names.
pub const MAX_NAME_CHARS: usize = crate::rules::force_file::MAX_NAME_CHARS;
/// Longest free text (notes, purposes, fates).
pub const MAX_TEXT_CHARS: usize = 10_000;
/// Most battles a campaign may hold.
pub const MAX_BATTLES: usize = 100;

/// Checks a whole campaign: its definition against the books and every battle's log.
///
/// # Errors
/// [`CampaignError::Invalid`] for the definition, [`CampaignError::Forged`] naming battle,
/// event and field for the first event that does not follow.
pub fn verify_record(record: &CampaignRecord) -> Result<(), CampaignError> {
    verify_definition(record)?;
    for index in 0..record.campaign.battles.len() {
        verify_battle(record, index)?;
    }
    Ok(())
}

/// Checks every event of battle `index`: its line, and each branch off it (a fork's branches,
/// set aside or waiting for a choice) as the line it was recorded on, from the first event to
/// the branch's end. A choice must name a branch of the fork it follows.
///
/// # Errors
/// As [`verify_battle_log`], for the first line with an event that does not follow.
pub fn verify_battle(record: &CampaignRecord, index: usize) -> Result<(), CampaignError> {
    let Some(plan) = record.campaign.battles.get(index) else {
        return Ok(());
    };
    let carried = record.carried_losses(index);
    let line = record.logs.get(index).map_or(&[][..], Vec::as_slice);
    verify_battle_log(plan, &carried, line)?;
    let aside = record.aside.get(index).map_or(&[][..], Vec::as_slice);
    if aside.is_empty() {
        return Ok(());
    }
    let all: std::collections::HashMap<_, &LoggedEvent> =
        line.iter().chain(aside).map(|e| (e.id, e)).collect();
    let mut has_child: std::collections::HashSet<_> = std::collections::HashSet::new();
    for e in line.iter().chain(aside) {
        if !e.event.is_meta_choice() {
            has_child.insert(e.follows);
        }
    }
    for e in aside {
        if let Event::BranchChosen { keep, .. } = e.event {
            let fits = all
                .get(&keep)
                .is_some_and(|k| k.follows == e.follows && !k.event.is_meta_choice());
            if !fits {
                return Err(forged(
                    plan.number(),
                    e,
                    "keep",
                    format!("{keep} is not a branch after the event this choice follows"),
                ));
            }
            continue;
        }
        if has_child.contains(&Some(e.id)) {
            continue;
        }
        // A branch's end: check its whole line from the start of the battle.
        let mut path = vec![(*e).clone()];
        let mut at = e.follows;
        while let Some(id) = at {
            let Some(parent) = all.get(&id) else { break };
            path.push((*parent).clone());
            at = parent.follows;
        }
        path.reverse();
        verify_battle_log(plan, &carried, &path)?;
    }
    Ok(())
}

/// Checks one battle's log against its plan, event by event.
///
/// # Errors
/// [`CampaignError::Forged`] for the first event that the tracker would not have recorded
/// exactly so at that point.
pub fn verify_battle_log(
    plan: &BattlePlan,
    carried: &Sides<Vec<String>>,
    events: &[LoggedEvent],
) -> Result<(), CampaignError> {
    match plan {
        BattlePlan::Armour(plan) => verify_armour_log(plan, carried, events),
        BattlePlan::Simple(simple) => {
            let mut targets = Targets::default();
            for logged in events {
                let forged =
                    |field: &str, message: String| forged(simple.number, logged, field, message);
                match &logged.event {
                    Event::UnitFate { side, unit, fate } => {
                        if !simple.units.get(*side).iter().any(|u| u == unit) {
                            return Err(forged(
                                "unit",
                                format!("{} has no unit {}", side.label(), quoted(unit)),
                            ));
                        }
                        text(fate, MAX_TEXT_CHARS).map_err(|m| forged("fate", m))?;
                    }
                    Event::Note { text: t } | Event::BattleConcluded { notes: t, .. } => {
                        text(t, MAX_TEXT_CHARS).map_err(|m| forged("text", m))?;
                    }
                    Event::Undo { .. } | Event::Redo { .. } => {
                        targets.step(&logged.event).map_err(|m| forged("seq", m))?;
                    }
                    other => {
                        return Err(forged(
                            "kind",
                            format!("{} belongs to Armour Battles battles", other.kind()),
                        ));
                    }
                }
                if !logged.event.is_meta() {
                    targets.counts(logged.seq);
                }
            }
            Ok(())
        }
    }
}

fn verify_armour_log(
    plan: &ArmourBattlePlan,
    carried: &Sides<Vec<String>>,
    events: &[LoggedEvent],
) -> Result<(), CampaignError> {
    let mut targets = Targets::default();
    let mut replay = Replay::new(BattleState::fold_with(plan, carried, std::iter::empty()));
    let mut situated = false;
    for logged in events {
        let forged = |field: &str, message: String| forged(plan.number, logged, field, message);
        match logged.event {
            Event::Undo { .. } => {
                targets.step(&logged.event).map_err(|m| forged("seq", m))?;
                replay.take_back_last();
                continue;
            }
            Event::Redo { seq } => {
                targets.step(&logged.event).map_err(|m| forged("seq", m))?;
                // Seqs run 1, 2, 3 … (checked before), so the event is found by its place.
                let again = usize::try_from(seq)
                    .ok()
                    .and_then(|s| events.get(s.checked_sub(1)?))
                    .filter(|e| e.seq == seq)
                    .map(|e| &e.event)
                    .ok_or_else(|| forged("seq", format!("no event {seq} to redo")))?;
                replay.apply(again);
                continue;
            }
            _ => {}
        }
        if let Event::Fire(fire) = &logged.event {
            // Every build that records situations records one for every fire, so a fire
            // without one after a fire with one was edited, not recorded before the change.
            match (&fire.situation, situated) {
                (Some(_), _) => situated = true,
                (None, true) => {
                    return Err(forged(
                        "situation",
                        "missing: only fire recorded before situations were may lack one, and this battle already records them".into(),
                    ));
                }
                (None, false) => {}
            }
        }
        let expected = rederive(plan, &replay.state, &logged.event).map_err(|e| match e {
            // A field the re-derivation found wrong (a die count, a TN, the situation).
            CampaignError::Invalid { field, message } => forged(field, message),
            e => forged("event", format!("could not have been recorded here: {e}")),
        })?;
        if let Some((field, message)) = difference(&expected, &logged.event) {
            return Err(forged(&field, message));
        }
        targets.counts(logged.seq);
        replay.apply(&logged.event);
    }
    Ok(())
}

/// Undo and redo targets followed as the log is read: an undo takes back the latest event that
/// counts, a redo puts back the latest undo, and any new event ends what can be redone (as
/// [`super::log::undo_target`] and [`super::log::redo_target`] say, without reading the log again each time).
#[derive(Default)]
struct Targets {
    /// Seqs of the events that count, in order.
    active: Vec<u32>,
    /// Seqs taken back, most recent last.
    redo: Vec<u32>,
}

impl Targets {
    fn counts(&mut self, seq: u32) {
        self.active.push(seq);
        self.redo.clear();
    }

    fn step(&mut self, event: &Event) -> Result<(), String> {
        let (wanted, target, what) = match *event {
            Event::Undo { seq } => (seq, self.active.last().copied(), "undo"),
            Event::Redo { seq } => (seq, self.redo.last().copied(), "redo"),
            _ => return Ok(()),
        };
        if target != Some(wanted) {
            return Err(match target {
                Some(target) => {
                    format!("{what} of event {wanted}, but an {what} here takes event {target}")
                }
                None => format!("{what} of event {wanted}, but there is nothing to {what} here"),
            });
        }
        if let Event::Undo { .. } = event {
            self.active.pop();
            self.redo.push(wanted);
        } else {
            self.redo.pop();
            self.active.push(wanted);
        }
        Ok(())
    }
}

/// The battle state as the events that count so far leave it, with a copy every
/// [`SNAPSHOT_EVERY`] events so an undo folds again from the nearest copy, not from the start.
struct Replay<'a> {
    state: BattleState,
    active: Vec<&'a Event>,
    /// (events that count, state after them); the first is the start.
    snapshots: Vec<(usize, BattleState)>,
}

/// Events between two copies of the state kept for undo.
const SNAPSHOT_EVERY: usize = 512;

impl<'a> Replay<'a> {
    fn new(start: BattleState) -> Self {
        Self {
            snapshots: vec![(0, start.clone())],
            state: start,
            active: Vec::new(),
        }
    }

    fn apply(&mut self, event: &'a Event) {
        self.state.apply_event(event);
        // Notes change nothing the checks read; dropping them keeps the copies small.
        self.state.notes.clear();
        self.active.push(event);
        if self.active.len().is_multiple_of(SNAPSHOT_EVERY) {
            self.snapshots.push((self.active.len(), self.state.clone()));
        }
    }

    fn take_back_last(&mut self) {
        self.active.pop();
        let kept = self.active.len();
        self.snapshots.retain(|(n, _)| *n <= kept);
        if let Some((n, base)) = self.snapshots.last() {
            let mut state = base.clone();
            for event in &self.active[*n..] {
                state.apply_event(event);
            }
            state.notes.clear();
            self.state = state;
        }
    }
}

/// The event the tracker records for this action in `state`, rolled again from the recorded
/// seed and roll numbers.
fn rederive(
    plan: &ArmourBattlePlan,
    state: &BattleState,
    event: &Event,
) -> Result<Event, CampaignError> {
    let resume = |record: &RollRecord| Roller::resume(record.seed, record.index);
    match event {
        Event::CommandRolled(roll) => {
            let first = roll
                .rounds
                .first()
                .ok_or_else(|| CampaignError::not_allowed("a command roll without dice"))?;
            tracker::roll_command(plan, state, &mut resume(&first.us))
        }
        Event::ChainUsed {
            side,
            face,
            dice,
            spent_on,
        } => tracker::use_chain(state, *side, *face, *dice, *spent_on),
        Event::WildDiceUsed {
            side,
            dice,
            spent_on,
        } => tracker::use_wild(state, *side, *dice, *spent_on),
        Event::StaffOrderUsed { side, purpose } => {
            text(purpose, MAX_TEXT_CHARS).map_err(CampaignError::not_allowed)?;
            tracker::use_staff_order(state, *side, purpose)
        }
        Event::ArtilleryCalled(call) => {
            tracker::call_artillery(state, &call.battery, &mut resume(&call.response))
        }
        Event::ArtilleryFired { side, battery } | Event::MissionCancelled { side, battery } => {
            let has_mission = state
                .side(*side)
                .missions
                .iter()
                .any(|m| &m.battery == battery);
            if has_mission {
                Ok(event.clone())
            } else {
                Err(CampaignError::not_allowed(format!(
                    "{} has no fire mission for {}",
                    side.label(),
                    quoted(battery)
                )))
            }
        }
        Event::MissionMaintained { battery, .. } => tracker::maintain_mission(state, battery),
        Event::Fire(fire) => rederive_fire(state, fire),
        Event::Rally(rally) => rederive_rally(state, rally),
        Event::Dispersed { unit, morale, .. } => {
            tracker::disperse(state, unit, &mut resume(morale))
        }
        Event::ReliabilityChecked { unit, record, .. } => {
            // The order (double or triple move) is not recorded; the dice count tells it.
            let mut tried = Err(CampaignError::not_allowed("no move order fits the dice"));
            for order in [MoveOrder::Double, MoveOrder::Triple] {
                tried = tracker::check_reliability(state, unit, order, &mut resume(record));
                if tried.as_ref().is_ok_and(|e| e == event) {
                    break;
                }
            }
            tried
        }
        Event::Repaired { unit, staff_order } => tracker::repair(state, unit, *staff_order),
        Event::ReservesCommitted { side, company } => {
            tracker::commit_reserves(state, *side, company)
        }
        Event::Revealed { unit } => tracker::reveal(state, unit),
        Event::DisruptionSet { unit, value } => tracker::set_disruption(state, unit, *value),
        Event::SuppressionSet { unit, suppressed } => {
            tracker::set_suppressed(state, unit, *suppressed)
        }
        Event::FireMarkerSet { unit, .. } => state
            .unit(unit)
            .map(|_| event.clone())
            .ok_or_else(|| CampaignError::UnknownUnit(unit.clone())),
        Event::TurnEnded {} => tracker::end_turn(state),
        Event::BattleConcluded { winner, notes } => {
            text(notes, MAX_TEXT_CHARS).map_err(CampaignError::not_allowed)?;
            tracker::conclude(state, *winner, notes)
        }
        Event::Note { text: t } => {
            text(t, MAX_TEXT_CHARS).map_err(CampaignError::not_allowed)?;
            Ok(event.clone())
        }
        Event::UnitFate { .. } => Err(CampaignError::not_allowed(
            "unit fates belong to simple battles",
        )),
        Event::Undo { .. } | Event::Redo { .. } => Ok(event.clone()),
        Event::BranchChosen { .. } => Err(CampaignError::not_allowed(
            "a branch choice follows its fork point, never the line",
        )),
    }
}

/// Rolls the fire again from its recorded seed. With a recorded situation the pools are built
/// again from it, the two cards and the target as the table has it, so a die added or taken
/// away (even a missed last one) or a changed bonus no longer matches; a legacy event (no
/// situation: recorded before situations were) can only be rolled again with the pools its
/// dice show.
fn rederive_fire(state: &BattleState, fire: &FireEvent) -> Result<Event, CampaignError> {
    let target = state
        .unit(&fire.target)
        .ok_or_else(|| CampaignError::UnknownUnit(fire.target.clone()))?;
    if fire.fire == FireKind::Artillery {
        let battery = fire.attacker.as_deref().unwrap_or_default();
        let ready = SIDES_BOTH.iter().any(|side| {
            state
                .side(*side)
                .missions
                .iter()
                .any(|m| m.battery == battery && m.status == MissionStatus::FiringNow)
        });
        if !ready {
            return Err(CampaignError::not_allowed(format!(
                "{} has no fire mission ready to fire",
                quoted(battery)
            )));
        }
    }
    let roller = || Roller::resume(fire.seed, fire.attack.index);
    let roll = match &fire.situation {
        Some(setup) => roll_from_situation(state, fire, setup, &mut roller())?,
        None => roll_from_dice(fire, target, &mut roller())?,
    };
    tracker::fire_event_as_recorded(
        state,
        fire.fire,
        fire.attacker.as_deref(),
        &fire.target,
        fire.situation,
        &roll,
    )
}

/// The fire rolled again with the pools its situation gives, after checking the situation
/// names the target as the table has it and the recorded pools are those pools.
fn roll_from_situation(
    state: &BattleState,
    fire: &FireEvent,
    setup: &FireSetup,
    roller: &mut Roller,
) -> Result<FireRoll, CampaignError> {
    let target = state
        .unit(&fire.target)
        .ok_or_else(|| CampaignError::UnknownUnit(fire.target.clone()))?;
    let invalid = |field: &'static str, message: String| CampaignError::Invalid { field, message };
    if setup.target_disruption != target.disruption {
        return Err(invalid(
            "situation.target_disruption",
            format!(
                "{}: the target had {} Disruption Points",
                setup.target_disruption, target.disruption
            ),
        ));
    }
    if setup.target_suppressed != target.suppressed {
        return Err(invalid(
            "situation.target_suppressed",
            format!(
                "{}: the target was {}suppressed",
                setup.target_suppressed,
                if target.suppressed { "" } else { "not " }
            ),
        ));
    }
    let card_of = |id: &str| {
        let unit = state
            .unit(id)
            .ok_or_else(|| CampaignError::UnknownUnit(id.to_string()))?;
        armour_battles::unit_card(&unit.card)
            .ok_or_else(|| CampaignError::MissingData(format!("card {}", unit.card)))
    };
    let attacker = fire
        .attacker
        .as_deref()
        .ok_or_else(|| invalid("attacker", "a fire with a situation names its firer".into()))?;
    let (a, t) = (card_of(attacker)?, card_of(&fire.target)?);
    let rules = armour_battles::fire_rules()?;
    let (pools, rule) = match fire.fire {
        FireKind::Artillery => {
            let situation = setup.artillery_situation().ok_or_else(|| {
                invalid(
                    "situation",
                    "sets a range, flank, uphill, move, ambush or evasion artillery does not use"
                        .into(),
                )
            })?;
            let pools = artillery::artillery_pools(
                a,
                t,
                &situation,
                rules,
                armour_battles::artillery_rules()?,
            )?;
            (pools, SuppressionRule::NotMoreSixes)
        }
        FireKind::Direct | FireKind::Opportunity => {
            let situation = setup.fire_situation(fire.fire);
            (
                fire::fire_pools(a, t, &situation, rules)?,
                SuppressionRule::FewerSixes,
            )
        }
    };
    let recorded = |r: Option<&RollRecord>| r.map_or(0, |r| r.dice.len());
    let checks = [
        (
            "attack.dice",
            recorded(Some(&fire.attack)),
            pools.attack.dice as usize,
            "attack dice",
        ),
        // No reaction is rolled when the attack scores nothing; whether one was due is for
        // the roll itself to say (below), so only a recorded reaction's size is checked here.
        (
            "reaction.dice",
            recorded(fire.reaction.as_ref()),
            fire.reaction
                .as_ref()
                .map_or(0, |_| pools.reaction.dice as usize),
            "reaction dice",
        ),
    ];
    for (field, got, want, what) in checks {
        if got != want {
            return Err(invalid(
                field,
                format!("{got} {what} recorded, but the situation and the cards give {want}"),
            ));
        }
    }
    for (field, got, want) in [
        ("attacker_tn", fire.attacker_tn, pools.attack.target),
        ("reaction_tn", fire.reaction_tn, pools.reaction.target),
    ] {
        if got != want {
            return Err(invalid(
                field,
                format!("{got}+ recorded, but the situation and the cards give {want}+"),
            ));
        }
    }
    roll(pools.attack, pools.reaction, rule, target, roller)
}

/// The fire rolled from `roller` with these pools against `target` as the table has it.
fn roll(
    attack: Pool,
    reaction: Pool,
    rule: SuppressionRule,
    target: &super::state::UnitState,
    roller: &mut Roller,
) -> Result<FireRoll, CampaignError> {
    let rules = armour_battles::fire_rules()?;
    Ok(outcome::roll_result(
        attack,
        reaction,
        rule,
        target.disruption,
        target.cohesion,
        &rules.result,
        roller,
    )?)
}

/// A legacy fire (no situation recorded) rolled again with the pools its dice show.
fn roll_from_dice(
    fire: &FireEvent,
    target: &super::state::UnitState,
    roller: &mut Roller,
) -> Result<FireRoll, CampaignError> {
    for (field, tn) in [
        ("attacker_tn", fire.attacker_tn),
        ("reaction_tn", fire.reaction_tn),
    ] {
        if !(2..=6).contains(&tn) {
            return Err(CampaignError::Invalid {
                field: if field == "attacker_tn" {
                    "attacker_tn"
                } else {
                    "reaction_tn"
                },
                message: format!("{tn}: target numbers run from 2+ to 6+"),
            });
        }
    }
    let count = |record: Option<&RollRecord>| {
        record.map_or(0, |r| u32::try_from(r.dice.len()).unwrap_or(u32::MAX))
    };
    let rule = match fire.fire {
        FireKind::Artillery => SuppressionRule::NotMoreSixes,
        FireKind::Direct | FireKind::Opportunity => SuppressionRule::FewerSixes,
    };
    roll(
        Pool::new(count(Some(&fire.attack)), fire.attacker_tn),
        Pool::new(count(fire.reaction.as_ref()), fire.reaction_tn),
        rule,
        target,
        roller,
    )
}

const SIDES_BOTH: [Side; 2] = [Side::Us, Side::German];

/// Replays the rally's two rolls and checks the points removed follow from them for some
/// Rally Table target number (the distance is not recorded).
fn rederive_rally(state: &BattleState, rally: &RallyEvent) -> Result<Event, CampaignError> {
    let unit = state
        .unit(&rally.unit)
        .ok_or_else(|| CampaignError::UnknownUnit(rally.unit.clone()))?;
    if unit.suppressed {
        return Err(CampaignError::not_allowed(format!(
            "{} is suppressed and cannot rally",
            state.unit_label(unit)
        )));
    }
    let table = armour_battles::rally_table()?;
    let most = i64::from(state.side(unit.side).rally_dice)
        + i64::from(table.cover_dice.max(0))
        + i64::from(table.no_line_of_sight_dice.max(0))
        + i64::from(table.wild_die_dice.max(0))
        + i64::from(table.staff_order_dice.max(0));
    let dice = i64::try_from(rally.rally.dice.len()).unwrap_or(i64::MAX);
    if dice == 0 || dice > most {
        return Err(CampaignError::Invalid {
            field: "rally.dice",
            message: format!("{dice} rally dice: this side rolls 1 to {most}"),
        });
    }
    let mut roller = Roller::resume(rally.seed, rally.rally.index);
    let again = roller
        .roll_d6("rally", u32::try_from(dice).unwrap_or(u32::MAX))
        .map_err(armour_battles::error::ResolveError::from)?;
    let opponent = roller
        .roll_d6("opponent", unit.disruption)
        .map_err(armour_battles::error::ResolveError::from)?;
    let theirs = opponent.successes(table.opponent_tn);
    let fits = |tn: i32| {
        again
            .successes(tn)
            .saturating_sub(theirs)
            .min(unit.disruption)
            == rally.removed
    };
    if !(2..=6).any(fits) {
        return Err(CampaignError::Invalid {
            field: "removed",
            message: format!(
                "{}: no Rally Table target number gives that from these dice",
                rally.removed
            ),
        });
    }
    let removed = rally.removed.min(unit.disruption);
    let roll = RallyRoll {
        seed: rally.seed,
        rally_tn: 0,
        opponent_tn: table.opponent_tn,
        rally: again,
        opponent,
        rally_successes: 0,
        opponent_successes: theirs,
        removed,
        remaining: unit.disruption - removed,
    };
    tracker::rally_event(state, &rally.unit, &roll)
}

/// The first field where the recorded event differs from the re-derived one.
fn difference(expected: &Event, recorded: &Event) -> Option<(String, String)> {
    if expected == recorded {
        return None;
    }
    let (Ok(want), Ok(got)) = (
        serde_json::to_value(expected),
        serde_json::to_value(recorded),
    ) else {
        return Some(("event".into(), "differs from the rules' result".into()));
    };
    // The dice first, then what they decide, in the order the rules decide it; JSON objects
    // keep their keys sorted, which would name an Army Morale loss before the dice behind it.
    let key = PRIORITY
        .iter()
        .find(|k| want.get(**k) != got.get(**k))
        .map(|k| (*k).to_string());
    let (field, want, got) = match key {
        Some(k) => {
            let (w, g) = (want.get(&k).cloned(), got.get(&k).cloned());
            let (w, g) = (w.unwrap_or(Value::Null), g.unwrap_or(Value::Null));
            first_difference(&w, &g, k.clone()).unwrap_or((k, w, g))
        }
        None => first_difference(&want, &got, String::new())
            .unwrap_or_else(|| ("event".into(), want.clone(), got.clone())),
    };
    Some((
        field,
        format!(
            "recorded {}, but the dice and the rules give {}",
            short(&got),
            short(&want)
        ),
    ))
}

/// Fields of an event in the order a reader should hear about them when several differ.
const PRIORITY: &[&str] = &[
    "kind",
    "turn",
    "seed",
    "rounds",
    "attack",
    "reaction",
    "response",
    "opponent",
    "rally",
    "record",
    "forced_back",
    "new_disruption",
    "suppressed",
    "forced_back_inches",
    "dispersed",
    "morale",
    "army_morale_loss",
    "loss",
    "removed",
    "remaining",
];

fn first_difference(want: &Value, got: &Value, at: String) -> Option<(String, Value, Value)> {
    let join = |key: &str| {
        if at.is_empty() {
            key.to_string()
        } else {
            format!("{at}.{key}")
        }
    };
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => {
            for (key, wv) in w {
                let gv = g.get(key).unwrap_or(&Value::Null);
                if wv != gv {
                    return first_difference(wv, gv, join(key));
                }
            }
            g.keys()
                .find(|k| !w.contains_key(*k))
                .map(|k| (join(k), Value::Null, g[k].clone()))
        }
        (Value::Array(w), Value::Array(g)) if w.len() == g.len() => w
            .iter()
            .zip(g)
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .and_then(|(i, (a, b))| first_difference(a, b, format!("{at}[{i}]"))),
        _ if want != got => Some((
            if at.is_empty() { "event".into() } else { at },
            want.clone(),
            got.clone(),
        )),
        _ => None,
    }
}

/// A JSON value cut to a readable length.
fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 80 {
        format!("{}…", text.chars().take(79).collect::<String>())
    } else {
        text
    }
}

/// A name shown in a message, quoted and cut.
fn quoted(name: &str) -> String {
    short(&Value::String(name.to_string()))
}

fn forged(battle: u32, logged: &LoggedEvent, field: &str, message: String) -> CampaignError {
    CampaignError::Forged {
        battle,
        seq: logged.seq,
        kind: logged.event.kind(),
        field: field.to_string(),
        message,
    }
}

/// Free text or a name: at most `max` characters, no control characters (NUL included) but
/// line breaks and tabs.
pub fn text(value: &str, max: usize) -> Result<(), String> {
    let count = value.chars().count();
    if count > max {
        return Err(format!(
            "is {count} characters long; at most {max} are allowed"
        ));
    }
    if let Some((at, c)) = value
        .chars()
        .enumerate()
        .find(|(_, c)| c.is_control() && !matches!(c, '\n' | '\t'))
    {
        return Err(format!(
            "holds the control character {} at character {}",
            c.escape_unicode(),
            at + 1
        ));
    }
    Ok(())
}

/// A name: like [`text`], on one line.
pub fn name(value: &str) -> Result<(), String> {
    text(value, MAX_NAME_CHARS)?;
    if value.contains(['\n', '\t']) {
        return Err("must be on one line (no line breaks or tabs)".to_string());
    }
    Ok(())
}

/// The definition against the books: Lorraine battles are the briefings exactly (cards, battle
/// groups, dice, morale, unit ids), numbered 1, 2, 3 …; names are bounded and printable.
pub(crate) fn verify_definition(record: &CampaignRecord) -> Result<(), CampaignError> {
    let campaign = &record.campaign;
    let invalid = |field: &'static str, message: String| CampaignError::Invalid { field, message };
    name(&campaign.name).map_err(|m| invalid("campaign.name", m))?;
    for side in SIDES_BOTH {
        name(campaign.players.get(side)).map_err(|m| invalid("campaign.players", m))?;
    }
    if campaign.battles.len() > MAX_BATTLES {
        return Err(invalid(
            "campaign.battles",
            format!("{} battles; at most {MAX_BATTLES}", campaign.battles.len()),
        ));
    }
    for (i, plan) in campaign.battles.iter().enumerate() {
        let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
        if plan.number() != number {
            return Err(invalid(
                "campaign.battles.number",
                format!(
                    "battle {} is numbered {} (battles are numbered 1, 2, 3 …)",
                    i + 1,
                    plan.number()
                ),
            ));
        }
        match plan {
            BattlePlan::Armour(armour) => {
                if campaign.ruleset != RulesetId::ArmourBattles {
                    return Err(invalid(
                        "campaign.battles",
                        format!(
                            "battle {number} is an Armour Battles battle in a {} campaign",
                            campaign.ruleset.as_str()
                        ),
                    ));
                }
                let book = if number <= 3 {
                    vec![lorraine_battle(number)?]
                } else {
                    vec![what_next(number, false)?, what_next(number, true)?]
                };
                if !book.contains(armour) {
                    return Err(invalid(
                        "campaign.battles",
                        format!(
                            "battle {number} is not the book's briefing: {}",
                            plan_difference(armour, &book[0])
                        ),
                    ));
                }
            }
            BattlePlan::Simple(simple) => {
                if campaign.ruleset == RulesetId::ArmourBattles {
                    return Err(invalid(
                        "campaign.battles",
                        format!("battle {number}: Lorraine battles come from the briefings"),
                    ));
                }
                name(&simple.name).map_err(|m| invalid("battle.name", m))?;
                for side in SIDES_BOTH {
                    name(simple.forces.get(side)).map_err(|m| invalid("battle.forces", m))?;
                    let units = simple.units.get(side);
                    if units.len() > 10_000 {
                        return Err(invalid(
                            "battle.units",
                            format!("{} units; at most 10000", units.len()),
                        ));
                    }
                    for unit in units {
                        name(unit).map_err(|m| invalid("battle.units", m))?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Where a plan differs from the book's, for the message.
fn plan_difference(plan: &ArmourBattlePlan, book: &ArmourBattlePlan) -> String {
    match (serde_json::to_value(book), serde_json::to_value(plan)) {
        (Ok(want), Ok(got)) => first_difference(&want, &got, String::new()).map_or_else(
            || "it differs".to_string(),
            |(field, want, got)| format!("{field} is {} (the book: {})", short(&got), short(&want)),
        ),
        _ => "it differs".to_string(),
    }
}
