//! Merging copies of one campaign: the union of their genuine events, nothing replaced, one
//! bad event never blocking the rest.
//!
//! Copies are the same campaign when their ids are. Events are recognised by id, and a sealed
//! event's id is made from its content ([`super::seal`]), so two different events never share
//! one: a different version of an action is a different event, and two versions recorded after
//! the same event are a fork the players settle, never a silent replacement. Each incoming
//! event is taken or refused **on its own**, for reasons that depend only on the event and the
//! events it follows:
//! - its seal: a copy whose content no longer matches its id (damaged, edited) or whose
//!   signature does not verify for the key it names is refused;
//! - its recorder and time ([`check_event`]): names bounded and printable, a real time within
//!   the years events can have, a known rules revision, within the size limits;
//! - its recorder's key: a player and machine are bound to the key that first signed for them
//!   ([`Bindings`]); an event claiming them under another key is refused as forged;
//! - its place: it follows an event held (else it waits for it: a later merge may bring it),
//!   its `seq` is one more, and an unsigned event never follows a signed one (every build that
//!   signs, signs everything, so that is a forgery);
//! - its dice: every line through it is replayed ([`super::verify::verify_battle_log`]); an event
//!   that does not replay is refused with everything recorded after it in that copy.
//!
//! An event of a copy held already with other content can only be an unsealed one (recorded
//! before events were signed): the copy held stays, the other is refused and named.
//!
//! So the merged record is the events held plus every incoming event whose checks pass and
//! whose predecessors are taken: the same set whichever order copies meet in, and so — laid out
//! by [`super::history::arrange`] — the same record. Merging is idempotent, commutative and
//! associative in everything the copies share (the id, the battles, every battle's events);
//! the name and players stay those of the copy merged into (a player may have named it
//! differently at home). `tests` prove it with random histories, damage, reused ids, forged
//! signatures and exchange schedules.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::definition::{BattlePlan, Campaign, Sides};
use super::error::CampaignError;
use super::event::Event;
use super::identity::EventUid;
use super::seal::{self, PublicKey};
use super::{CampaignRecord, LoggedEvent, history, verify};
use crate::campaign::CampaignUid;

/// Most events one battle holds; more are refused (a real battle has a few thousand).
pub const MAX_EVENTS_PER_BATTLE: usize = 20_000;
/// Most notes one battle holds.
pub const MAX_NOTES_PER_BATTLE: usize = 1_000;
/// Longest note, in characters.
pub const MAX_NOTE_CHARS: usize = 2_000;
/// Longest event, as JSON bytes (a fire event with all its dice is about 1 KB).
pub const MAX_EVENT_BYTES: usize = 16 * 1024;

/// An event a merge did not take, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub battle: u32,
    pub id: EventUid,
    pub seq: u32,
    pub kind: &'static str,
    pub reason: String,
    /// It follows an event not held yet: a later merge that brings that event takes it.
    pub waiting: bool,
}

impl Refused {
    fn new(battle: u32, e: &LoggedEvent, reason: impl Into<String>) -> Self {
        Refused {
            battle,
            id: e.id,
            seq: e.seq,
            kind: e.event.kind(),
            reason: reason.into(),
            waiting: false,
        }
    }

    /// "battle 1, event 12 (fire, …1a2b3c4d): why".
    pub fn describe(&self) -> String {
        format!(
            "battle {}, event {} ({}, …{}): {}",
            self.battle,
            self.seq,
            self.kind,
            self.id.short(),
            self.reason
        )
    }
}

/// What a merge brought in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MergeReport {
    /// Events new to the local copy.
    pub added: usize,
    /// Battles new to the local copy.
    pub battles_added: usize,
    /// Numbers of the battles that are forked after the merge and wait for a choice.
    pub forked: Vec<u32>,
    /// Events of the other copy not taken.
    pub refused: Vec<Refused>,
    /// The events taken, each with its battle's place, every event after the one it follows.
    pub taken: Vec<(usize, LoggedEvent)>,
}

/// The keys each player and machine (by their names) has signed with in a campaign. The
/// first key seen for a name pair is the one it is bound to; a copy held may show several for
/// one pair only if they met before either was bound, and then each of them is accepted.
pub type Bindings = HashMap<(String, String), BTreeSet<PublicKey>>;

/// The bindings a record's own signed events make.
pub fn bindings_of(record: &CampaignRecord) -> Bindings {
    let mut bindings = Bindings::new();
    for index in 0..record.logs.len() {
        for e in record.all_events(index) {
            if let Some(s) = e.seal {
                bindings.entry(pair(e)).or_default().insert(s.key);
            }
        }
    }
    bindings
}

fn pair(e: &LoggedEvent) -> (String, String) {
    (e.by.player.clone(), e.by.machine.clone())
}

/// Binds the name pairs `incoming` signs for that are not bound yet: to the key of the first
/// event claiming each, by recording time then id, so every machine binds alike whatever order
/// the events arrive in together.
pub fn bind_new(bindings: &mut Bindings, incoming: &[&LoggedEvent]) {
    let mut sealed: Vec<&&LoggedEvent> = incoming.iter().filter(|e| e.seal.is_some()).collect();
    sealed.sort_by(|a, b| (a.recorded_at.as_str(), a.id).cmp(&(b.recorded_at.as_str(), b.id)));
    for e in sealed {
        if let Some(s) = e.seal {
            bindings
                .entry(pair(e))
                .or_insert_with(|| BTreeSet::from([s.key]));
        }
    }
}

/// The checks an event passes on its own, before its place and dice: sealed as it says, its
/// recorder and time well formed, a rules revision this build knows, within the size limits.
///
/// # Errors
/// What is wrong, in words.
pub fn check_event(campaign: CampaignUid, battle: u32, e: &LoggedEvent) -> Result<(), String> {
    seal::check(campaign, battle, e).map_err(|e| e.to_string())?;
    check_fields(e)
}

/// [`check_event`] but the seal: for an event this machine has just sealed itself.
///
/// # Errors
/// What is wrong, in words.
pub fn check_fields(e: &LoggedEvent) -> Result<(), String> {
    super::time::parse_millis(&e.recorded_at).map_err(|m| format!("recorded_at: {m}"))?;
    super::text::name(&e.by.player).map_err(|m| format!("by.player: {m}"))?;
    super::text::name(&e.by.machine).map_err(|m| format!("by.machine: {m}"))?;
    if let Some(r) = e.revision
        && r == 0
    {
        return Err("revision: 0 (revisions count from 1)".into());
    }
    if let Event::Note { text } = &e.event
        && text.chars().count() > MAX_NOTE_CHARS
    {
        return Err(format!(
            "a note of {} characters; at most {MAX_NOTE_CHARS}",
            text.chars().count()
        ));
    }
    let bytes = serde_json::to_string(e).map_or(usize::MAX, |t| t.len());
    if bytes > MAX_EVENT_BYTES {
        return Err(format!(
            "{bytes} bytes; an event has at most {MAX_EVENT_BYTES}"
        ));
    }
    Ok(())
}

/// What the events of one battle are checked against.
pub struct BattleContext<'a> {
    pub campaign: CampaignUid,
    pub ruleset: crate::rules::RulesetId,
    /// The battle's plan as held (a battle set up by an event is played under that event's).
    pub plan: &'a BattlePlan,
    /// Losses carried in from earlier battles.
    pub carried: Sides<Vec<String>>,
    pub bindings: &'a Bindings,
    /// Replay the lines through new events (off only where the caller replays them itself).
    pub replay: bool,
}

/// The events of `incoming` that battle `ctx` takes, beside `held` (its events now), in an
/// order that puts every event after the one it follows; and those it refuses.
pub fn merge_battle(
    ctx: &BattleContext<'_>,
    held: &[LoggedEvent],
    incoming: Vec<LoggedEvent>,
) -> (Vec<LoggedEvent>, Vec<Refused>) {
    let number = ctx.plan.number();
    let held_by_id: HashMap<EventUid, &LoggedEvent> = held.iter().map(|e| (e.id, e)).collect();
    let mut refused = Vec::new();
    // One copy of each id, checked on its own.
    let mut candidates: HashMap<EventUid, LoggedEvent> = HashMap::new();
    for e in incoming {
        if let Some(known) = held_by_id.get(&e.id) {
            if **known != e {
                // A sealed copy that differs is damaged (its id binds its content); an
                // unsealed one cannot be told from the copy held, which stays.
                let why = check_event(ctx.campaign, number, &e).err().unwrap_or_else(|| {
                    "differs from the copy this library holds (recorded before events were signed, so the two cannot be told apart: the copy held is kept)".to_string()
                });
                refused.push(Refused::new(number, &e, why));
            }
            continue;
        }
        if let Err(why) = check_event(ctx.campaign, number, &e) {
            refused.push(Refused::new(number, &e, why));
            continue;
        }
        if let Err(why) = check_setup(ctx, &e) {
            refused.push(Refused::new(number, &e, why));
            continue;
        }
        match candidates.get(&e.id) {
            // Two unsealed versions of one id arrived together: the smaller JSON is taken on
            // every machine alike.
            Some(other) if *other != e => {
                let (keep, drop) = if json(other) <= json(&e) {
                    (other.clone(), e)
                } else {
                    (e, other.clone())
                };
                refused.push(Refused::new(
                    number,
                    &drop,
                    "another version of this unsigned event arrived too; one is kept on every machine alike",
                ));
                candidates.insert(keep.id, keep);
            }
            _ => {
                candidates.insert(e.id, e);
            }
        }
    }
    // Who signed: a name pair bound to another key is a forgery.
    candidates.retain(|_, e| match e.seal {
        Some(s) => {
            let bound = ctx.bindings.get(&pair(e));
            if bound.is_some_and(|keys| !keys.contains(&s.key)) {
                let keys: Vec<String> = bound
                    .into_iter()
                    .flatten()
                    .map(PublicKey::fingerprint)
                    .collect();
                refused.push(Refused::new(
                    number,
                    e,
                    format!(
                        "claims to be recorded by {}, who signs with key {}; this event is signed with {} (forged)",
                        label(e),
                        keys.join(" or "),
                        s.key.fingerprint()
                    ),
                ));
                false
            } else {
                true
            }
        }
        None => true,
    });
    let mut order: Vec<LoggedEvent> = candidates.into_values().collect();
    order.sort_by(|a, b| {
        (a.seq, a.recorded_at.as_str(), a.id).cmp(&(b.seq, b.recorded_at.as_str(), b.id))
    });
    let accepted = attach(number, held, order, &mut refused);
    let accepted = if ctx.replay {
        verify_new(ctx, held, accepted, &mut refused)
    } else {
        accepted
    };
    let accepted = within_limits(number, held, accepted, &mut refused);
    (accepted, refused)
}

fn json(e: &LoggedEvent) -> String {
    serde_json::to_string(e).unwrap_or_default()
}

fn label(e: &LoggedEvent) -> String {
    let label = e.by.label();
    if label.is_empty() {
        "nobody named".into()
    } else {
        label
    }
}

/// A battle's setup must be a plan the ruleset allows for that battle.
fn check_setup(ctx: &BattleContext<'_>, e: &LoggedEvent) -> Result<(), String> {
    match e.event.setup() {
        Some(plan) => verify::check_plan(ctx.ruleset, ctx.plan.number(), plan)
            .map_err(|err| format!("the battle it sets up: {err}")),
        None => Ok(()),
    }
}

/// Takes, in `order` (by seq), each event whose predecessor is held or taken; refuses the
/// others (waiting for their predecessor) and unsigned events after signed ones.
fn attach(
    number: u32,
    held: &[LoggedEvent],
    order: Vec<LoggedEvent>,
    refused: &mut Vec<Refused>,
) -> Vec<LoggedEvent> {
    // Each event's seq and whether it or one before it is signed, parents first.
    let mut known: HashMap<EventUid, (u32, bool)> = HashMap::with_capacity(held.len());
    let mut by_seq: Vec<&LoggedEvent> = held.iter().collect();
    by_seq.sort_by_key(|e| e.seq);
    for e in by_seq {
        let before = e.follows.and_then(|p| known.get(&p)).is_some_and(|p| p.1);
        known.insert(e.id, (e.seq, before || e.seal.is_some()));
    }
    let mut accepted: Vec<LoggedEvent> = Vec::new();
    for e in order {
        let parent = match e.follows {
            None => Some((0, false)),
            Some(p) => known.get(&p).copied(),
        };
        let Some((parent_seq, parent_signed)) = parent else {
            let mut r = Refused::new(
                number,
                &e,
                format!(
                    "follows event …{}, which this library does not hold",
                    e.follows.map(|f| f.short()).unwrap_or_default()
                ),
            );
            r.waiting = true;
            refused.push(r);
            continue;
        };
        if e.seq != parent_seq.saturating_add(1) {
            refused.push(Refused::new(
                number,
                &e,
                format!("numbered {} but follows event number {parent_seq}", e.seq),
            ));
            continue;
        }
        if parent_signed && e.seal.is_none() {
            refused.push(Refused::new(
                number,
                &e,
                "not signed, but recorded after a signed event (every version that signs, signs every event): forged",
            ));
            continue;
        }
        known.insert(e.id, (e.seq, parent_signed || e.seal.is_some()));
        accepted.push(e);
    }
    accepted
}

/// Replays every line through the events taken; an event that does not replay is refused with
/// everything taken after it. A branch choice must name a branch after the event it follows.
fn verify_new(
    ctx: &BattleContext<'_>,
    held: &[LoggedEvent],
    mut accepted: Vec<LoggedEvent>,
    refused: &mut Vec<Refused>,
) -> Vec<LoggedEvent> {
    let number = ctx.plan.number();
    loop {
        let all: HashMap<EventUid, &LoggedEvent> =
            held.iter().chain(&accepted).map(|e| (e.id, e)).collect();
        let new: HashSet<EventUid> = accepted.iter().map(|e| e.id).collect();
        let mut parents: HashSet<EventUid> = HashSet::new();
        for e in all.values() {
            if !e.event.is_meta_choice()
                && let Some(p) = e.follows
            {
                parents.insert(p);
            }
        }
        let mut bad: Option<(EventUid, String)> = None;
        let mut leaves: Vec<&LoggedEvent> = accepted
            .iter()
            .filter(|e| !e.event.is_meta_choice() && !parents.contains(&e.id))
            .collect();
        leaves.sort_by_key(|e| e.id);
        for leaf in leaves {
            let mut path = vec![leaf.clone()];
            let mut at = leaf.follows;
            while let Some(id) = at {
                let Some(p) = all.get(&id) else { break };
                path.push((*p).clone());
                at = p.follows;
            }
            path.reverse();
            let plan = verify::plan_of(ctx.plan, &path);
            if let Err(e) = verify::verify_battle_log(ctx.campaign, plan, &ctx.carried, &path) {
                let culprit = match &e {
                    CampaignError::Forged { seq, .. } => usize::try_from(*seq)
                        .ok()
                        .and_then(|s| path.get(s.checked_sub(1)?))
                        .map(|c| c.id),
                    _ => None,
                }
                .filter(|id| new.contains(id))
                .unwrap_or(leaf.id);
                if new.contains(&culprit) {
                    bad = Some((culprit, e.to_string()));
                    break;
                }
            }
        }
        for e in accepted.iter().filter(|e| e.event.is_meta_choice()) {
            if bad.is_some() {
                break;
            }
            if let Event::BranchChosen { keep, .. } = e.event {
                let fits = all
                    .get(&keep)
                    .is_some_and(|k| k.follows == e.follows && !k.event.is_meta_choice());
                if !fits {
                    bad = Some((
                        e.id,
                        format!(
                            "keeps …{}, which is not a branch after the event it follows",
                            keep.short()
                        ),
                    ));
                }
            }
        }
        let Some((culprit, why)) = bad else {
            return accepted;
        };
        // The culprit and everything taken after it go.
        let mut gone: HashSet<EventUid> = HashSet::from([culprit]);
        for e in &accepted {
            if e.follows.is_some_and(|f| gone.contains(&f)) {
                gone.insert(e.id);
            }
        }
        for e in accepted.iter().filter(|e| gone.contains(&e.id)) {
            let reason = if e.id == culprit {
                why.clone()
            } else {
                format!(
                    "recorded after event …{}, which is refused",
                    culprit.short()
                )
            };
            refused.push(Refused::new(number, e, reason));
        }
        accepted.retain(|e| !gone.contains(&e.id));
    }
}

/// At most [`MAX_EVENTS_PER_BATTLE`] events and [`MAX_NOTES_PER_BATTLE`] notes a battle: the
/// latest of the events taken go first (with what follows them).
fn within_limits(
    number: u32,
    held: &[LoggedEvent],
    mut accepted: Vec<LoggedEvent>,
    refused: &mut Vec<Refused>,
) -> Vec<LoggedEvent> {
    let is_note = |e: &LoggedEvent| matches!(e.event, Event::Note { .. });
    let mut events = held.len();
    let mut notes = held.iter().filter(|e| is_note(e)).count();
    let mut gone: HashSet<EventUid> = HashSet::new();
    for e in &accepted {
        let over = if e.follows.is_some_and(|f| gone.contains(&f)) {
            Some("recorded after an event refused for the battle's limits".to_string())
        } else if events >= MAX_EVENTS_PER_BATTLE {
            Some(format!(
                "the battle holds {MAX_EVENTS_PER_BATTLE} events, as many as a battle may"
            ))
        } else if is_note(e) && notes >= MAX_NOTES_PER_BATTLE {
            Some(format!(
                "the battle holds {MAX_NOTES_PER_BATTLE} notes, as many as a battle may"
            ))
        } else {
            None
        };
        match over {
            Some(reason) => {
                gone.insert(e.id);
                refused.push(Refused::new(number, e, reason));
            }
            None => {
                events += 1;
                notes += usize::from(is_note(e));
            }
        }
    }
    accepted.retain(|e| !gone.contains(&e.id));
    accepted
}

/// `local` with every event of `other` it takes.
///
/// # Errors
/// [`CampaignError::Merge`] for another campaign, or copies of another ruleset or other
/// campaign options. Everything else is per event, in the report.
pub fn merge(
    local: &CampaignRecord,
    other: &CampaignRecord,
) -> Result<(CampaignRecord, MergeReport), CampaignError> {
    merge_with(local, other, true)
}

/// [`merge`] without replaying the dice, for a caller that has just replayed every battle
/// itself ([`super::file::parse`] does, for its precise messages).
///
/// # Errors
/// As [`merge`].
pub fn merge_unreplayed(
    local: &CampaignRecord,
    other: &CampaignRecord,
) -> Result<(CampaignRecord, MergeReport), CampaignError> {
    merge_with(local, other, false)
}

fn merge_with(
    local: &CampaignRecord,
    other: &CampaignRecord,
    replay: bool,
) -> Result<(CampaignRecord, MergeReport), CampaignError> {
    if local.id != other.id {
        return Err(CampaignError::Merge(format!(
            "that is another campaign ('{}', id {}); this one is '{}', id {}",
            other.campaign.name, other.id, local.campaign.name, local.id
        )));
    }
    let incoming: Vec<(usize, LoggedEvent)> = (0..other.logs.len())
        .flat_map(|i| other.all_events(i).map(move |e| (i, e.clone())))
        .collect();
    merge_events_with(
        local,
        &[other.definition()],
        incoming,
        Bindings::new(),
        replay,
    )
}

/// `local` with every event of `incoming` it takes (each with its battle's place), and the
/// battles the `definitions` of other copies begin with that `local` does not have yet.
///
/// # Errors
/// [`CampaignError::Merge`] for a definition of another ruleset or other campaign options.
pub fn merge_events(
    local: &CampaignRecord,
    definitions: &[Campaign],
    incoming: Vec<(usize, LoggedEvent)>,
) -> Result<(CampaignRecord, MergeReport), CampaignError> {
    merge_events_with(local, definitions, incoming, Bindings::new(), true)
}

/// [`merge_events`] into a copy that holds only some of its battles' events (a library loads
/// only the battles that gain events), with the keys `known` elsewhere in the campaign to have
/// signed for the names the incoming events claim.
///
/// # Errors
/// As [`merge_events`].
pub fn merge_events_bound(
    local: &CampaignRecord,
    definitions: &[Campaign],
    incoming: Vec<(usize, LoggedEvent)>,
    known: Bindings,
) -> Result<(CampaignRecord, MergeReport), CampaignError> {
    merge_events_with(local, definitions, incoming, known, true)
}

fn merge_events_with(
    local: &CampaignRecord,
    definitions: &[Campaign],
    incoming: Vec<(usize, LoggedEvent)>,
    known: Bindings,
    replay: bool,
) -> Result<(CampaignRecord, MergeReport), CampaignError> {
    let mut merged = local.clone();
    for definition in definitions {
        extend_definition(&mut merged, definition)?;
    }
    let mut by_battle: Vec<Vec<LoggedEvent>> = Vec::new();
    for (index, e) in incoming {
        if index >= super::verify::MAX_BATTLES {
            continue;
        }
        if by_battle.len() <= index {
            by_battle.resize(index + 1, Vec::new());
        }
        by_battle[index].push(e);
    }
    let mut bindings = bindings_of(local);
    for (names, keys) in known {
        bindings.entry(names).or_default().extend(keys);
    }
    let all: Vec<&LoggedEvent> = by_battle.iter().flatten().collect();
    bind_new(&mut bindings, &all);
    let mut report = MergeReport::default();
    for (index, from_other) in by_battle.into_iter().enumerate() {
        if from_other.is_empty() {
            continue;
        }
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        if index > merged.campaign.battles.len() {
            report.refused.extend(from_other.iter().map(|e| {
                let mut r = Refused::new(
                    number,
                    e,
                    format!("battle {number} comes after a battle this library does not have yet"),
                );
                r.waiting = true;
                r
            }));
            continue;
        }
        let new_slot = index == merged.campaign.battles.len();
        let slot_plan = if new_slot {
            // A battle set up by an event: the first setup of it, until the players choose.
            let mut setups: Vec<&LoggedEvent> = from_other
                .iter()
                .filter(|e| e.seq == 1 && e.event.setup().is_some())
                .collect();
            setups.sort_by(|a, b| {
                (a.recorded_at.as_str(), a.id).cmp(&(b.recorded_at.as_str(), b.id))
            });
            match setups.first().and_then(|e| e.event.setup()) {
                Some(plan) => plan.clone(),
                None => {
                    report.refused.extend(from_other.iter().map(|e| {
                        let mut r = Refused::new(
                            number,
                            e,
                            format!("battle {number} is not set up here yet"),
                        );
                        r.waiting = true;
                        r
                    }));
                    continue;
                }
            }
        } else {
            merged.campaign.battles[index].clone()
        };
        let held: Vec<LoggedEvent> = merged.all_events(index).cloned().collect();
        let carried = merged.carried_losses(index);
        let ctx = BattleContext {
            campaign: merged.id,
            ruleset: merged.campaign.ruleset,
            plan: &slot_plan,
            carried,
            bindings: &bindings,
            replay,
        };
        let (taken, mut no) = merge_battle(&ctx, &held, from_other);
        report.refused.append(&mut no);
        if taken.is_empty() {
            continue;
        }
        if new_slot {
            merged.campaign.battles.push(slot_plan);
            merged.logs.push(Vec::new());
            merged.aside.push(Vec::new());
        }
        report.added += taken.len();
        report
            .taken
            .extend(taken.iter().map(|e| (index, e.clone())));
        let mut all = held;
        all.extend(taken);
        let arranged = history::arrange(all)?;
        merged.logs[index] = arranged.line;
        merged.aside[index] = arranged.aside;
        merged.refresh_plan(index);
    }
    report.battles_added = merged
        .campaign
        .battles
        .len()
        .saturating_sub(local.campaign.battles.len());
    report.forked = merged.forked();
    Ok((merged, report))
}

/// Adds to `record` the battles `definition` begins with beyond its own (checked against the
/// books, as on import). A battle both have, set up differently, stays as `record` has it: the
/// other copy's events of it then do not replay here and are refused one by one.
fn extend_definition(
    record: &mut CampaignRecord,
    definition: &Campaign,
) -> Result<(), CampaignError> {
    let mine = &record.campaign;
    if mine.ruleset != definition.ruleset || mine.options != definition.options {
        return Err(CampaignError::Merge(
            "the two copies differ in ruleset or campaign options".to_string(),
        ));
    }
    for (i, plan) in definition
        .battles
        .iter()
        .enumerate()
        .skip(mine.battles.len())
    {
        if record.campaign.battles.len() != i {
            break;
        }
        verify::check_plan(
            record.campaign.ruleset,
            u32::try_from(i + 1).unwrap_or(u32::MAX),
            plan,
        )?;
        record.campaign.battles.push(plan.clone());
        record.logs.push(Vec::new());
        record.aside.push(Vec::new());
    }
    Ok(())
}

#[cfg(test)]
mod tests;
