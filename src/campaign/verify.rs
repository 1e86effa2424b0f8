//! Import re-derives, it does not trust: every event of an imported campaign is decided again
//! by its ruleset's battle rules ([`crate::rules::battle::BattleRules::rederive`]) from the dice
//! and inputs the file carries, and must come out identical.
//!
//! What this proves: each battle's log is one the app could have recorded — its plans are the
//! book's briefings, every event was allowed at its place in the order, every die replays from
//! its seed and roll number, and every outcome (Disruption, suppression, dispersal, Army Morale)
//! follows from those dice by the rules. For events recorded since seeds are derived from the
//! battle's history ([`crate::rules::battle::DiceFrom::Battle`]), it also proves the seed was
//! not chosen: it must be the one [`super::seed::battle_seed`] gives for the event's campaign,
//! battle, the event it follows and the machine that recorded it, so a roll can only be made
//! again through a visible undo. What it cannot prove of older events: that their dice were
//! rolled once — their recorder chose the seed.

use serde_json::Value;

use super::definition::{BattlePlan, BoardSetup, CampaignKind, SIDES, Sides, TablePlan};
use super::error::CampaignError;
use super::event::Event;
use super::identity::CampaignUid;
use super::text::{name, note};
use super::{CampaignRecord, LoggedEvent};
use crate::rules::RulesetId;
use crate::rules::battle::board::Board;
use crate::rules::battle::table::AnyTable;
use crate::rules::battle::{BattleError, BattleRules, DiceFrom};

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
    verify_battle_log(record.id, plan_of(plan, line), &carried, line)?;
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
        verify_battle_log(record.id, plan_of(plan, &path), &carried, &path)?;
    }
    Ok(())
}

/// The plan a line of a battle is played under: the one its first event set up, for a battle
/// added during the campaign (two setups of one battle are two branches), else the battle's.
pub fn plan_of<'a>(slot: &'a BattlePlan, line: &'a [LoggedEvent]) -> &'a BattlePlan {
    line.first().and_then(|e| e.event.setup()).unwrap_or(slot)
}

/// Checks one battle's log (of campaign `campaign`) against its plan, event by event.
///
/// # Errors
/// [`CampaignError::Forged`] for the first event that the tracker would not have recorded
/// exactly so at that point.
pub fn verify_battle_log(
    campaign: CampaignUid,
    plan: &BattlePlan,
    carried: &Sides<Vec<String>>,
    events: &[LoggedEvent],
) -> Result<(), CampaignError> {
    verify_battle_log_after(campaign, plan, carried, events, 0)
}

/// [`verify_battle_log`] for a log whose first `verified` events were verified when they came
/// into the library: they are replayed, not decided again, so taking one new event costs what
/// that event costs, not what the battle before it does.
///
/// # Errors
/// As [`verify_battle_log`].
pub fn verify_battle_log_after(
    campaign: CampaignUid,
    plan: &BattlePlan,
    carried: &Sides<Vec<String>>,
    events: &[LoggedEvent],
    verified: usize,
) -> Result<(), CampaignError> {
    for (i, logged) in events.iter().enumerate() {
        if let Event::BattleAdded { plan: set_up } = &logged.event {
            // A setup opens its battle, and its battle is played under it.
            if i > 0 || logged.seq != 1 || logged.follows.is_some() {
                return Err(forged(
                    plan.number(),
                    logged,
                    "kind",
                    "a battle is set up by its first event only".into(),
                ));
            }
            if set_up != plan {
                return Err(forged(
                    plan.number(),
                    logged,
                    "plan",
                    "not the plan this battle is played under".into(),
                ));
            }
        }
    }
    if let Some(setup) = plan.board_setup() {
        return verify_tracked(campaign, plan.number(), &setup, carried, (events, verified));
    }
    match plan {
        BattlePlan::Armour(_) => Err(CampaignError::MissingData(format!(
            "card of battle {}",
            plan.number()
        ))),
        BattlePlan::Table(_) | BattlePlan::Scripted(_) => Ok(()),
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
                                format!(
                                    "{} has no unit {}",
                                    super::sides::battle_side_name(plan, *side),
                                    quoted(unit)
                                ),
                            ));
                        }
                        note(fate).map_err(|m| forged("fate", m))?;
                    }
                    Event::Note { text: t } | Event::BattleConcluded { notes: t, .. } => {
                        note(t).map_err(|m| forged("text", m))?;
                    }
                    Event::Undo { .. } | Event::Redo { .. } => {
                        targets.step(&logged.event).map_err(|m| forged("seq", m))?;
                    }
                    // Its place and plan were checked above.
                    Event::BattleAdded { .. } => {}
                    other => {
                        return Err(forged(
                            "kind",
                            format!("{} belongs to tracked battles", other.kind()),
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

/// A tracked battle's log, event by event: each is decided again by the ruleset's rules on the
/// board the events before it left, and must come out as recorded.
fn verify_tracked(
    campaign: CampaignUid,
    number: u32,
    setup: &BoardSetup<'_>,
    carried: &Sides<Vec<String>>,
    (events, verified): (&[LoggedEvent], usize),
) -> Result<(), CampaignError> {
    let plan: &TablePlan = &setup.plan;
    let mut targets = Targets::default();
    let mut replay = Replay::new(plan, super::fold::start(setup, carried));
    // The newest revision an event of this battle was recorded under: rules only go forward,
    // so a later event may not claim older rules (or none) to do what they allowed.
    let mut floor: Option<u32> = None;
    for (at, logged) in events.iter().enumerate() {
        let forged = |field: &str, message: String| forged(number, logged, field, message);
        match logged.event {
            // Its place and plan were checked by the caller; its revision is the battle's
            // first floor (the events after a setup go forward from it too).
            Event::BattleAdded { .. } => {
                if let Some(r) = logged.revision {
                    floor = Some(floor.map_or(r, |f| f.max(r)));
                }
                continue;
            }
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
        match (floor, logged.revision) {
            (Some(newest), Some(r)) if r < newest => {
                return Err(forged(
                    "revision",
                    format!(
                        "{r}: older than revision {newest}, which an earlier event of this battle was recorded under; \
                         the rules only go forward (record it with an up-to-date Quartermaster)"
                    ),
                ));
            }
            (Some(newest), None) => {
                return Err(forged(
                    "revision",
                    format!(
                        "missing, after an event recorded under revision {newest}; \
                         only events from before revisions were recorded may go without one"
                    ),
                ));
            }
            (_, Some(r)) => floor = Some(floor.map_or(r, |f| f.max(r))),
            (None, None) => {}
        }
        if at < verified {
            targets.counts(logged.seq);
            replay.apply(&logged.event);
            continue;
        }
        // Replayed under the revision it was recorded under; an event from before revisions
        // were recorded under whichever revision its dice fit, the current one first.
        let known = match &logged.event {
            Event::Armour(_) => super::legacy::revisions(),
            _ => AnyTable::revisions(plan),
        };
        let revisions: Vec<u32> = match logged.revision {
            Some(r) if known.contains(&r) => vec![r],
            Some(r) => {
                return Err(forged(
                    "revision",
                    format!(
                        "{r}: newer than the rules of this build (revision {}); update Quartermaster",
                        known.end()
                    ),
                ));
            }
            None => known.rev().collect(),
        };
        let mut first_refusal = None;
        for r in revisions {
            let checked = rederive(plan, &replay.state, &logged.event, r)
                .map_err(|e| match e {
                    // A field the re-derivation found wrong (a die count, a TN, the situation,
                    // a parameter out of its range).
                    BattleError::Invalid { field, message }
                    | BattleError::Resolve(crate::rules::resolution::ResolveError::Invalid {
                        field,
                        message,
                    }) => forged(field, message),
                    e => forged("event", format!("could not have been recorded here: {e}")),
                })
                .and_then(|expected| match difference(&expected, &logged.event) {
                    Some((field, message)) => Err(forged(&field, message)),
                    None => Ok(()),
                });
            match checked {
                Ok(()) => {
                    first_refusal = None;
                    break;
                }
                Err(e) => {
                    first_refusal.get_or_insert(e);
                }
            }
        }
        if let Some(refusal) = first_refusal {
            return Err(refusal);
        }
        // Last: dice that follow from their seed and the rules, but a seed somebody chose.
        check_seeds(campaign, number, logged).map_err(|m| forged("seed", m))?;
        targets.counts(logged.seq);
        replay.apply(&logged.event);
    }
    Ok(())
}

/// The event the rules give for `event` on `board`: the campaign's own events checked here,
/// the ruleset's decided again by its rules.
fn rederive(
    plan: &TablePlan,
    board: &Board,
    event: &Event,
    revision: u32,
) -> Result<Event, BattleError> {
    match event {
        Event::Note { text } => {
            note(text).map_err(BattleError::not_allowed)?;
            Ok(event.clone())
        }
        Event::BattleConcluded { notes, .. } => {
            note(notes).map_err(BattleError::not_allowed)?;
            match AnyTable::summary(board).outcome {
                Some((_, reason)) => Err(BattleError::BattleOver(reason)),
                None => Ok(event.clone()),
            }
        }
        Event::UnitFate { .. } => Err(BattleError::not_allowed(
            "unit fates belong to simple battles",
        )),
        Event::Undo { .. } | Event::Redo { .. } => Ok(event.clone()),
        Event::BranchChosen { .. } => Err(BattleError::not_allowed(
            "a branch choice follows its fork point, never the line",
        )),
        Event::BattleAdded { .. } => Err(BattleError::not_allowed(
            "a battle is set up by its first event only",
        )),
        Event::Act(act) => AnyTable::rederive(plan, board, act, revision).map(Event::Act),
        Event::Armour(recorded) => {
            super::legacy::rederive(plan, board, recorded, revision).map(Event::Armour)
        }
    }
}

/// An app roll recorded under the current rules must carry the seed its place in the battle
/// gives: nobody chose it.
fn check_seeds(campaign: CampaignUid, battle: u32, logged: &LoggedEvent) -> Result<(), String> {
    let facts = logged.event.facts();
    if facts.dice_from != DiceFrom::Battle {
        return Ok(());
    }
    let want = super::seed::battle_seed(campaign, battle, logged.follows, &logged.by.machine);
    match facts.rolls.iter().find(|r| r.seed != want) {
        Some(roll) => Err(format!(
            "{}: an app roll in a battle takes the seed its place gives ({want}: the campaign, the battle, the event it follows and the machine), not one chosen",
            roll.seed
        )),
        None => Ok(()),
    }
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

/// The board as the events that count so far leave it, with a copy every [`SNAPSHOT_EVERY`]
/// events so an undo folds again from the nearest copy, not from the start.
struct Replay<'a> {
    plan: &'a TablePlan,
    state: Board,
    active: Vec<&'a Event>,
    /// (events that count, board after them); the first is the start.
    snapshots: Vec<(usize, Board)>,
}

/// Events between two copies of the state kept for undo.
const SNAPSHOT_EVERY: usize = 512;

impl<'a> Replay<'a> {
    fn new(plan: &'a TablePlan, start: Board) -> Self {
        Self {
            plan,
            snapshots: vec![(0, start.clone())],
            state: start,
            active: Vec::new(),
        }
    }

    fn apply(&mut self, event: &'a Event) {
        super::fold::apply(self.plan, &mut self.state, event);
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
                super::fold::apply(self.plan, &mut state, event);
            }
            self.state = state;
        }
    }
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
        // The first element that differs, one missing from either side included: an effect
        // slipped in is named, not the whole list.
        (Value::Array(w), Value::Array(g)) => (0..w.len().max(g.len()))
            .map(|i| {
                (
                    i,
                    w.get(i).unwrap_or(&Value::Null),
                    g.get(i).unwrap_or(&Value::Null),
                )
            })
            .find(|(_, a, b)| a != b)
            .and_then(|(i, a, b)| first_difference(a, b, format!("{at}[{i}]"))),
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
pub(crate) fn quoted(name: &str) -> String {
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

/// The definition against the books: Lorraine battles are the briefings exactly (cards, battle
/// groups, dice, morale, unit ids), numbered 1, 2, 3 …; names are bounded and printable.
pub(crate) fn verify_definition(record: &CampaignRecord) -> Result<(), CampaignError> {
    let campaign = &record.campaign;
    let invalid = |field: &'static str, message: String| CampaignError::Invalid { field, message };
    name(&campaign.name).map_err(|m| invalid("campaign.name", m))?;
    for side in SIDES {
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
        check_plan(campaign.ruleset, number, plan)?;
        check_kind(campaign, number, plan)?;
    }
    Ok(())
}

/// Battle `number` of a `ruleset` campaign may be `plan`: numbered so; a Lorraine battle is
/// the book's briefing exactly (a battle after the third is the "What next?" battle, with or
/// without the extra artillery); a simple battle's names are bounded and printable.
///
/// # Errors
/// [`CampaignError::Invalid`] naming the field.
pub fn check_plan(ruleset: RulesetId, number: u32, plan: &BattlePlan) -> Result<(), CampaignError> {
    let invalid = |field: &'static str, message: String| CampaignError::Invalid { field, message };
    if plan.number() != number {
        return Err(invalid(
            "campaign.battles.number",
            format!(
                "battle {number} is numbered {} (battles are numbered 1, 2, 3 …)",
                plan.number()
            ),
        ));
    }
    match plan {
        BattlePlan::Armour(recorded) => super::legacy::check_plan(recorded, number)?,
        BattlePlan::Scripted(scripted) => {
            let mut books = Vec::new();
            for script in super::scripted::of_ruleset(ruleset) {
                books.extend(script.expected(number)?);
            }
            if !books.contains(plan) {
                return Err(invalid(
                    "campaign.battles",
                    match books.first() {
                        Some(book) => format!(
                            "battle {number} is not the book's briefing: {}",
                            plan_difference(plan, book)
                        ),
                        None => format!("battle {number} is no scripted campaign's briefing"),
                    },
                ));
            }
            check_table(ruleset, number, &scripted.board)?;
        }
        BattlePlan::Simple(simple) => {
            name(&simple.name).map_err(|m| invalid("battle.name", m))?;
            for side in SIDES {
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
        BattlePlan::Table(table) => check_table(ruleset, number, table)?,
    }
    Ok(())
}

/// A plan of the campaign's kind: a scripted campaign's battles are its briefings, a
/// campaign between forces holds none.
///
/// # Errors
/// [`CampaignError::Invalid`] for a plan of the other kind.
pub fn check_kind(
    campaign: &super::Campaign,
    number: u32,
    plan: &BattlePlan,
) -> Result<(), CampaignError> {
    let briefed = matches!(plan, BattlePlan::Armour(_) | BattlePlan::Scripted(_));
    if briefed == (campaign.kind() == CampaignKind::Scripted) {
        return Ok(());
    }
    Err(CampaignError::Invalid {
        field: "campaign.battles",
        message: if briefed {
            format!("battle {number} is a briefed battle in a campaign between forces")
        } else {
            format!("battle {number}: a scripted campaign's battles come from its briefings")
        },
    })
}

/// A board plan's names, ids and ruleset.
fn check_table(ruleset: RulesetId, number: u32, table: &TablePlan) -> Result<(), CampaignError> {
    let invalid = |field: &'static str, message: String| CampaignError::Invalid { field, message };
    if table.ruleset != ruleset {
        return Err(invalid(
            "campaign.battles",
            format!(
                "battle {number} is a {} battle in a {} campaign",
                table.ruleset.as_str(),
                ruleset.as_str()
            ),
        ));
    }
    name(&table.name).map_err(|m| invalid("battle.name", m))?;
    let mut ids = std::collections::HashSet::new();
    for side in SIDES {
        name(table.forces.get(side)).map_err(|m| invalid("battle.forces", m))?;
        let units = table.units.get(side);
        if units.len() > 10_000 {
            return Err(invalid(
                "battle.units",
                format!("{} units; at most 10000", units.len()),
            ));
        }
        for unit in units {
            name(&unit.label).map_err(|m| invalid("battle.units.label", m))?;
            if !ids.insert(unit.id.as_str()) {
                return Err(invalid(
                    "battle.units.id",
                    format!("two units are {}", quoted(&unit.id)),
                ));
            }
        }
    }
    Ok(())
}

/// Where a plan differs from the book's, for the message.
pub(crate) fn plan_difference(plan: &BattlePlan, book: &BattlePlan) -> String {
    match (serde_json::to_value(book), serde_json::to_value(plan)) {
        (Ok(want), Ok(got)) => first_difference(&want, &got, String::new()).map_or_else(
            || "it differs".to_string(),
            |(field, want, got)| format!("{field} is {} (the book: {})", short(&got), short(&want)),
        ),
        _ => "it differs".to_string(),
    }
}
