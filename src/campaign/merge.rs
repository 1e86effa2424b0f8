//! Merging copies of one campaign: the union of their genuine events, nothing replaced, one
//! bad event never blocking the rest.
//!
//! Copies are the same campaign when their ids are (a rooted campaign's id is its genesis's
//! digest: [`super::genesis`]). Events are recognised by id, and an event's id is made from its
//! content ([`super::seal`]), so two different events never share one: a different version of an
//! action is a different event, and two versions recorded after the same event are a fork the
//! players settle, never a silent replacement. Each incoming event is taken or refused **on its
//! own**, for reasons that depend only on the event and the events it follows — never on who
//! else claims its names, on its recording time, or on what arrived before it:
//! - its seal: a copy whose content no longer matches its id (damaged, edited) or whose
//!   signature does not verify for the key it names is refused. In a campaign with a genesis an
//!   unsigned event is refused wherever it sits, unless the genesis sealed it exactly; in one
//!   begun before, only a join may take one, and never after a signed event;
//! - its recorder and time ([`check_event`]): names bounded and printable, a real time within
//!   the years events can have, a known rules revision, within the size limits;
//! - its place: it follows an event held (else it waits for it: a later merge may bring it), its
//!   `seq` is one more, and it follows an event of the battle, never a branch choice; a choice
//!   keeps a branch after the event it follows (or waits for that branch);
//! - its limits, along its line ([`check_limits`]): the same check recording makes;
//! - its dice: every line through it is replayed ([`super::verify::verify_battle_log_after`]),
//!   the events held replayed as held (they were checked when they came in) and each new one
//!   decided again; an event that does not replay is refused with everything recorded after it
//!   in that copy.
//!
//! Who signed decides nothing here: a key's events are taken whether or not it is admitted, and
//! [`super::membership`] decides — from everything held, the same on every machine — which are
//! in play and under which name. Admissions are taken when their seal is good.
//!
//! So the merged record is the events held plus every incoming event whose checks pass and
//! whose predecessors are taken: the same set whichever order copies meet in, and so — laid out
//! by [`super::history::arrange`] — the same record. Merging is idempotent, commutative and
//! associative in everything the copies share (the id, the battles, every battle's events, the
//! admissions); the name and players stay those of the copy merged into (a player may have
//! named it differently at home). `tests` prove it with random histories, damage, reused ids,
//! forged signatures and exchange schedules.

use std::collections::{HashMap, HashSet};

use super::definition::{BattlePlan, Campaign, Sides};
use super::error::CampaignError;
use super::event::Event;
use super::genesis::Genesis;
use super::identity::EventUid;
use super::membership::{Admission, Basis};
use super::seal;
use super::{CampaignRecord, LoggedEvent, verify};
use crate::campaign::CampaignUid;

/// Most events one line of a battle holds (its seq); more are refused (a real battle has a few
/// thousand).
pub const MAX_EVENTS_PER_BATTLE: usize = 20_000;
/// Most notes one line of a battle holds.
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
    /// The copy refused, when it is another copy of an event held or taken (damaged or
    /// edited): so a report names the file that carried it, not the genuine copy's.
    pub copy: Option<Box<LoggedEvent>>,
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
            copy: None,
        }
    }

    fn waiting(battle: u32, e: &LoggedEvent, reason: impl Into<String>) -> Self {
        Refused {
            waiting: true,
            ..Self::new(battle, e, reason)
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
    /// Admissions new to the local copy.
    pub admissions: Vec<Admission>,
    /// Admissions refused (damaged, forged, another campaign's), and why.
    pub refused_admissions: Vec<(EventUid, String)>,
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

/// The limits of a battle's line, checked for an event at seq `seq` that is a note or not,
/// after an event whose line (itself and every event before it) holds `notes_before` notes:
/// the same check when recording as when merging, so what one machine records every machine
/// takes.
///
/// # Errors
/// The limit reached, in words.
pub fn check_limits(seq: u32, is_note: bool, notes_before: usize) -> Result<(), String> {
    if usize::try_from(seq).unwrap_or(usize::MAX) > MAX_EVENTS_PER_BATTLE {
        return Err(format!(
            "the battle's line holds {MAX_EVENTS_PER_BATTLE} events, as many as a battle may"
        ));
    }
    if is_note && notes_before >= MAX_NOTES_PER_BATTLE {
        return Err(format!(
            "the battle's line holds {MAX_NOTES_PER_BATTLE} notes, as many as a battle may"
        ));
    }
    Ok(())
}

/// Which unsigned events a merge may take.
#[derive(Debug, Clone, Copy)]
pub enum Unsigned<'a> {
    /// None: a campaign with a genesis signs every event from the first.
    Refused,
    /// None by a folder: a campaign begun before geneses holds its own unsigned events from
    /// before, and takes no more but in a campaign file, which an import seals.
    NotByFolder,
    /// Those the campaign's genesis sealed, exactly.
    Sealed(&'a Genesis),
    /// A join or import of a campaign begun before signatures: those with no signed event
    /// before them.
    Legacy,
}

/// What the events of one battle are checked against.
pub struct BattleContext<'a> {
    pub campaign: CampaignUid,
    pub ruleset: crate::rules::RulesetId,
    /// The battle's plan as held (a battle set up by an event is played under that event's).
    pub plan: &'a BattlePlan,
    /// Losses carried in from earlier battles.
    pub carried: Sides<Vec<String>>,
    /// Which unsigned events may be taken.
    pub unsigned: Unsigned<'a>,
    /// Replay the lines through new events (off only where the caller replays them itself).
    pub replay: bool,
}

/// Whether `e` is sealed as it says: its seal checks, or the genesis sealed it exactly; an
/// unsigned event only where `unsigned` allows it.
fn check_seal(ctx: &BattleContext<'_>, number: u32, e: &LoggedEvent) -> Result<(), String> {
    if let Unsigned::Sealed(genesis) = ctx.unsigned
        && let Some(sealed) = genesis.sealed_check(number, e)
    {
        return sealed.and_then(|()| check_fields(e));
    }
    if e.seal.is_none() {
        match ctx.unsigned {
            Unsigned::Legacy => {}
            Unsigned::Refused | Unsigned::Sealed(_) => {
                return Err(
                    "not signed: every event of this campaign is signed from its first, so an unsigned one is forged"
                        .to_string(),
                );
            }
            Unsigned::NotByFolder => {
                return Err(
                    "not signed: an event from before events were signed proves nothing, so it travels only in a campaign file (`campaign export` on a machine that holds it, then `campaign import`, which seals it)"
                        .to_string(),
                );
            }
        }
    }
    check_event(ctx.campaign, number, e)
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
    // One copy of each id, checked on its own: a copy whose checks fail is damage or forgery
    // and cannot stand for the genuine one, which is taken from wherever it comes.
    let mut candidates: HashMap<EventUid, LoggedEvent> = HashMap::new();
    let mut bad_copies: Vec<LoggedEvent> = Vec::new();
    for e in incoming {
        if let Some(known) = held_by_id.get(&e.id) {
            if **known != e {
                bad_copies.push(e);
            }
            continue;
        }
        if let Some(taken) = candidates.get(&e.id) {
            if *taken != e {
                bad_copies.push(e);
            }
            continue;
        }
        if let Err(why) = check_seal(ctx, number, &e).and_then(|()| check_setup(ctx, &e)) {
            let mut r = Refused::new(number, &e, why);
            r.copy = Some(Box::new(e));
            refused.push(r);
            continue;
        }
        candidates.insert(e.id, e);
    }
    for e in bad_copies {
        // The copy held or taken checks; this one differs from it, so it cannot.
        let why = check_seal(ctx, number, &e).err().unwrap_or_else(|| {
            "differs from the copy of this event held (two unsigned versions of one id: the one held stays)".to_string()
        });
        let mut r = Refused::new(number, &e, why);
        r.copy = Some(Box::new(e));
        refused.push(r);
    }
    let mut order: Vec<LoggedEvent> = candidates.into_values().collect();
    order.sort_by_key(|e| (e.seq, e.id));
    let accepted = attach(ctx, held, order, &mut refused);
    let accepted = within_limits(number, held, accepted, &mut refused);
    let accepted = if ctx.replay {
        verify_new(ctx, held, accepted, &mut refused)
    } else {
        accepted
    };
    (accepted, refused)
}

/// A battle's setup must be a plan the ruleset allows for that battle.
fn check_setup(ctx: &BattleContext<'_>, e: &LoggedEvent) -> Result<(), String> {
    match e.event.setup() {
        Some(plan) => verify::check_plan(ctx.ruleset, ctx.plan.number(), plan)
            .map_err(|err| format!("the battle it sets up: {err}")),
        None => Ok(()),
    }
}

/// What [`attach`] knows of an event held or taken.
#[derive(Clone, Copy)]
struct Placed {
    seq: u32,
    /// It or an event before it is signed.
    signed: bool,
    choice: bool,
}

/// Takes, in `order` (by seq), each event whose predecessor is held or taken; refuses the
/// others (waiting for their predecessor), events after a choice, and unsigned events after
/// signed ones.
fn attach(
    ctx: &BattleContext<'_>,
    held: &[LoggedEvent],
    order: Vec<LoggedEvent>,
    refused: &mut Vec<Refused>,
) -> Vec<LoggedEvent> {
    let number = ctx.plan.number();
    let mut known: HashMap<EventUid, Placed> = HashMap::with_capacity(held.len());
    let mut by_seq: Vec<&LoggedEvent> = held.iter().collect();
    by_seq.sort_by_key(|e| e.seq);
    for e in by_seq {
        let before = e
            .follows
            .and_then(|p| known.get(&p))
            .is_some_and(|p| p.signed);
        known.insert(
            e.id,
            Placed {
                seq: e.seq,
                signed: before || e.seal.is_some(),
                choice: e.event.is_meta_choice(),
            },
        );
    }
    let mut gone: HashSet<EventUid> = HashSet::new();
    let mut accepted: Vec<LoggedEvent> = Vec::new();
    for e in order {
        let parent = match e.follows {
            None => Some(Placed {
                seq: 0,
                signed: false,
                choice: false,
            }),
            Some(p) => known.get(&p).copied(),
        };
        let Some(parent) = parent else {
            if e.follows.is_some_and(|p| gone.contains(&p)) {
                gone.insert(e.id);
                refused.push(Refused::new(
                    number,
                    &e,
                    "recorded after an event that is refused",
                ));
            } else {
                refused.push(Refused::waiting(
                    number,
                    &e,
                    format!(
                        "follows event …{}, which this library does not hold",
                        e.follows.map(|f| f.short()).unwrap_or_default()
                    ),
                ));
            }
            continue;
        };
        let why = if parent.choice {
            Some("follows a branch choice: an event follows an event of the battle, never a choice (hung there, it would count on no line)".to_string())
        } else if e.seq != parent.seq.saturating_add(1) {
            Some(format!(
                "numbered {} but follows event number {}",
                e.seq, parent.seq
            ))
        } else if parent.signed && e.seal.is_none() && matches!(ctx.unsigned, Unsigned::Legacy) {
            Some("not signed, but recorded after a signed event (every version that signs, signs every event): forged".to_string())
        } else {
            None
        };
        if let Some(why) = why {
            gone.insert(e.id);
            refused.push(Refused::new(number, &e, why));
            continue;
        }
        known.insert(
            e.id,
            Placed {
                seq: e.seq,
                signed: parent.signed || e.seal.is_some(),
                choice: e.event.is_meta_choice(),
            },
        );
        accepted.push(e);
    }
    accepted
}

/// Replays every line through the events taken; an event that does not replay is refused with
/// everything taken after it. A branch choice must keep a branch after the event it follows; one
/// whose branch is not held yet waits for it.
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
            if let Some(p) = e.follows {
                parents.insert(p);
            }
        }
        let mut bad: Option<(EventUid, String, bool)> = None;
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
            // The events this library holds were verified when they came in, and come first on
            // the path (a held event follows only held ones): only what is new is decided again.
            let verified = path.iter().take_while(|e| !new.contains(&e.id)).count();
            if let Err(e) =
                verify::verify_battle_log_after(ctx.campaign, plan, &ctx.carried, &path, verified)
            {
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
                    bad = Some((culprit, e.to_string(), false));
                    break;
                }
            }
        }
        for e in accepted.iter().filter(|e| e.event.is_meta_choice()) {
            if bad.is_some() {
                break;
            }
            if let Event::BranchChosen { keep, .. } = e.event {
                match all.get(&keep) {
                    None => {
                        bad = Some((
                            e.id,
                            format!(
                                "keeps …{}, which this library does not hold yet",
                                keep.short()
                            ),
                            true,
                        ));
                    }
                    Some(k) if k.follows != e.follows || k.event.is_meta_choice() => {
                        bad = Some((
                            e.id,
                            format!(
                                "keeps …{}, which is not a branch after the event it follows",
                                keep.short()
                            ),
                            false,
                        ));
                    }
                    Some(_) => {}
                }
            }
        }
        let Some((culprit, why, waiting)) = bad else {
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
            let r = if e.id == culprit && waiting {
                Refused::waiting(number, e, why.clone())
            } else if e.id == culprit {
                Refused::new(number, e, why.clone())
            } else {
                Refused::new(
                    number,
                    e,
                    format!(
                        "recorded after event …{}, which is refused",
                        culprit.short()
                    ),
                )
            };
            refused.push(r);
        }
        accepted.retain(|e| !gone.contains(&e.id));
    }
}

/// The limits of each event's line ([`check_limits`]): the notes along its line counted from
/// the events it follows, held or taken; an event over them is refused with what follows it.
fn within_limits(
    number: u32,
    held: &[LoggedEvent],
    accepted: Vec<LoggedEvent>,
    refused: &mut Vec<Refused>,
) -> Vec<LoggedEvent> {
    let is_note = |e: &LoggedEvent| matches!(e.event, Event::Note { .. });
    // Notes on each held event's line, itself included (parents first).
    let mut notes: HashMap<EventUid, usize> = HashMap::with_capacity(held.len() + accepted.len());
    let mut by_seq: Vec<&LoggedEvent> = held.iter().collect();
    by_seq.sort_by_key(|e| e.seq);
    for e in by_seq {
        let before = e.follows.and_then(|p| notes.get(&p)).copied().unwrap_or(0);
        notes.insert(e.id, before + usize::from(is_note(e)));
    }
    let mut gone: HashSet<EventUid> = HashSet::new();
    let mut kept = Vec::with_capacity(accepted.len());
    for e in accepted {
        let before = e.follows.and_then(|p| notes.get(&p)).copied().unwrap_or(0);
        let over = if e.follows.is_some_and(|f| gone.contains(&f)) {
            Some("recorded after an event refused for the battle's limits".to_string())
        } else {
            check_limits(e.seq, is_note(&e), before).err()
        };
        match over {
            Some(reason) => {
                gone.insert(e.id);
                refused.push(Refused::new(number, &e, reason));
            }
            None => {
                notes.insert(e.id, before + usize::from(is_note(&e)));
                kept.push(e);
            }
        }
    }
    kept
}

/// `local` with every event and admission of `other` it takes.
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
    let mut local = local.clone();
    if local.genesis.is_none() {
        local.genesis.clone_from(&other.genesis);
    }
    // Two copies of a campaign begun before geneses, merged whole (two campaign files): their
    // unsigned events from before signatures may meet here, never after a signed one.
    let legacy = local.genesis.is_none();
    let incoming = Incoming {
        definitions: vec![other.definition()],
        events: incoming,
        admissions: other.admissions.clone(),
        legacy,
    };
    merge_incoming(local, incoming, replay)
}

/// What a merge brings to a copy: the definitions the other copies began with, their events
/// (each with its battle's place) and their admissions.
#[derive(Debug, Clone, Default)]
pub struct Incoming {
    pub definitions: Vec<Campaign>,
    pub events: Vec<(usize, LoggedEvent)>,
    pub admissions: Vec<Admission>,
    /// A join or import of a campaign begun before signatures: its unsigned events may come.
    pub legacy: bool,
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
    let incoming = Incoming {
        definitions: definitions.to_vec(),
        events: incoming,
        admissions: Vec::new(),
        legacy: local.event_count() == 0,
    };
    merge_incoming(local.clone(), incoming, true)
}

/// [`merge_events`] with admissions, into a copy that may hold only some of its battles'
/// events (a library loads only the battles that gain events: `known` says who signed the
/// others, [`CampaignRecord::with_basis`]).
///
/// # Errors
/// As [`merge_events`].
pub fn merge_events_known(
    local: &CampaignRecord,
    incoming: Incoming,
    known: Basis,
) -> Result<(CampaignRecord, MergeReport), CampaignError> {
    let mut local = local.clone();
    local.with_basis(known)?;
    merge_incoming(local, incoming, true)
}

/// The unsigned events `record` may take.
fn unsigned_rule(record: &CampaignRecord, legacy: bool) -> Unsigned<'_> {
    match &record.genesis {
        Some(genesis) if genesis.sealed.is_empty() => Unsigned::Refused,
        Some(genesis) => Unsigned::Sealed(genesis),
        None if legacy => Unsigned::Legacy,
        None => Unsigned::NotByFolder,
    }
}

/// `local` with everything of `incoming` it takes: events, admissions, and (for a campaign
/// begun before geneses) the battles other copies' definitions begin with.
///
/// # Errors
/// As [`merge_events`].
pub fn merge_all(
    local: &CampaignRecord,
    incoming: Incoming,
) -> Result<(CampaignRecord, MergeReport), CampaignError> {
    merge_incoming(local.clone(), incoming, true)
}

fn merge_incoming(
    local: CampaignRecord,
    incoming: Incoming,
    replay: bool,
) -> Result<(CampaignRecord, MergeReport), CampaignError> {
    let battles_before = local.campaign.battles.len();
    let mut merged = local;
    if merged.genesis.is_none() {
        // A campaign begun before geneses grows by the definitions of other copies; one with a
        // genesis only by events setting battles up.
        for definition in &incoming.definitions {
            extend_definition(&mut merged, definition)?;
        }
    } else if let Some(other) = incoming
        .definitions
        .iter()
        .find(|d| d.ruleset != merged.campaign.ruleset || d.options != merged.campaign.options)
    {
        return Err(CampaignError::Merge(format!(
            "the two copies differ in ruleset or campaign options ('{}')",
            other.name
        )));
    }
    let mut by_battle: Vec<Vec<LoggedEvent>> = Vec::new();
    for (index, e) in incoming.events {
        if index >= super::verify::MAX_BATTLES {
            continue;
        }
        if by_battle.len() <= index {
            by_battle.resize(index + 1, Vec::new());
        }
        by_battle[index].push(e);
    }
    let mut report = MergeReport::default();
    take_admissions(&mut merged, incoming.admissions, &mut report);
    let rule_record = merged.clone();
    let unsigned = unsigned_rule(&rule_record, incoming.legacy);
    let mut touched: Vec<usize> = Vec::new();
    for (index, from_other) in by_battle.into_iter().enumerate() {
        if from_other.is_empty() {
            continue;
        }
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        if index > merged.campaign.battles.len() {
            report.refused.extend(from_other.iter().map(|e| {
                Refused::waiting(
                    number,
                    e,
                    format!("battle {number} comes after a battle this library does not have yet"),
                )
            }));
            continue;
        }
        let new_slot = index == merged.campaign.battles.len();
        let slot_plan = if new_slot {
            // A battle set up by an event: one of its setups (the smallest id: every machine
            // picks the same) until the players choose; each line is replayed under its own.
            let setup = from_other
                .iter()
                .filter(|e| e.seq == 1 && e.event.setup().is_some())
                .min_by_key(|e| e.id)
                .and_then(|e| e.event.setup());
            match setup {
                Some(plan) => std::sync::Arc::new(plan.clone()),
                None => {
                    report.refused.extend(from_other.iter().map(|e| {
                        Refused::waiting(
                            number,
                            e,
                            format!("battle {number} is not set up here yet"),
                        )
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
            unsigned,
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
            let battles = merged.logs.len();
            merged.withheld.resize(battles, Vec::new());
        }
        report.added += taken.len();
        report
            .taken
            .extend(taken.iter().map(|e| (index, e.clone())));
        if let Some(line) = merged.logs.get_mut(index) {
            line.extend(taken);
        }
        touched.push(index);
    }
    merged.relay(&touched)?;
    report.battles_added = merged.campaign.battles.len().saturating_sub(battles_before);
    report.forked = merged.forked();
    Ok((merged, report))
}

/// Takes the admissions whose seal is good and that `merged` does not hold yet.
fn take_admissions(
    merged: &mut CampaignRecord,
    admissions: Vec<Admission>,
    report: &mut MergeReport,
) {
    let mut fresh: Vec<Admission> = Vec::new();
    for a in admissions {
        if merged.admissions.iter().chain(&fresh).any(|b| b.id == a.id) {
            continue;
        }
        match a.check(merged.id) {
            Ok(()) => fresh.push(a),
            Err(why) => report.refused_admissions.push((a.id, why)),
        }
    }
    fresh.sort_by_key(|a| a.id);
    report.admissions.clone_from(&fresh);
    merged.admissions.extend(fresh);
    merged.admissions.sort_by_key(|a| a.id);
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
        let battles = record.logs.len();
        record.withheld.resize(battles, Vec::new());
    }
    Ok(())
}

#[cfg(test)]
mod tests;
