//! Campaigns, battles and the append-only battle event log (the campaign engine fills them).

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;

use uuid::Uuid;

use super::Ctx;
use super::error::StoreError;
use super::ids::{BattleId, CampaignId, EventId};
use super::queries;
use crate::campaign::merge::{self, Bindings};
use crate::campaign::seal::{self, MachineKey, PublicKey, Seal};
use crate::campaign::{
    Campaign, CampaignRecord, CampaignUid, Event, EventUid, LoggedEvent, Position, Recorder,
};
use crate::rules::RulesetId;

/// A new campaign id (UUIDv7: the clock and the random source live here, at the edge).
pub fn new_campaign_uid() -> CampaignUid {
    CampaignUid(Uuid::now_v7())
}

/// A new event id.
pub fn new_event_uid() -> EventUid {
    EventUid(Uuid::now_v7())
}

/// One recorded event of a battle. Events are never changed or deleted; a correction or an
/// undo is a new event.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BattleEvent {
    pub id: EventId,
    /// The id that travels with the event to other machines.
    pub uid: EventUid,
    /// The event it follows in its battle (`None`: the first).
    pub follows: Option<EventUid>,
    pub battle: BattleId,
    /// 1, 2, 3 … within the battle.
    pub seq: u32,
    /// What happened (`fire`, `rally`, `undo`, …), as the campaign engine names it.
    pub kind: String,
    /// The event's data.
    pub payload: serde_json::Value,
    /// When it was recorded, UTC, ISO 8601.
    pub recorded_at: String,
    /// Who recorded it, on which machine.
    pub by: Recorder,
    /// The rules revision it was resolved under (`None`: recorded before revisions were).
    pub revision: Option<u32>,
    /// Its signing key and signature (`None`: recorded before events were signed).
    pub seal: Option<Seal>,
}

pub(crate) fn create_campaign(
    conn: &Connection,
    ctx: &Ctx,
    ruleset: RulesetId,
    name: &str,
    scenario: &str,
) -> Result<CampaignId, StoreError> {
    if name.trim().is_empty() {
        return Err(StoreError::invalid("campaign.name", "must not be empty"));
    }
    conn.prepare_cached(queries::CAMPAIGN_INSERT)
        .and_then(|mut stmt| {
            stmt.execute(params![
                ruleset.as_str(),
                name.trim(),
                scenario,
                new_campaign_uid().0.to_string()
            ])
        })
        .map_err(ctx.err("creating a campaign"))?;
    Ok(CampaignId(conn.last_insert_rowid()))
}

pub(crate) fn create_battle(
    conn: &Connection,
    ctx: &Ctx,
    campaign: CampaignId,
    number: u32,
    title: &str,
) -> Result<BattleId, StoreError> {
    if number == 0 {
        return Err(StoreError::invalid(
            "battle.number",
            "0: battles are numbered from 1",
        ));
    }
    conn.prepare_cached(queries::BATTLE_INSERT)
        .and_then(|mut stmt| stmt.execute(params![campaign, number, title]))
        .map_err(ctx.err("creating a battle"))?;
    Ok(BattleId(conn.last_insert_rowid()))
}

pub(crate) fn append_event(
    conn: &Connection,
    ctx: &Ctx,
    battle: BattleId,
    kind: &str,
    payload: &serde_json::Value,
) -> Result<BattleEvent, StoreError> {
    if kind.trim().is_empty() {
        return Err(StoreError::invalid("event.kind", "must not be empty"));
    }
    need_battle(conn, ctx, battle)?;
    let uid = new_event_uid();
    let (id, seq, recorded_at): (EventId, i64, String) = conn
        .prepare_cached(queries::EVENT_APPEND)
        .and_then(|mut stmt| {
            stmt.query_row(
                params![battle, kind, payload.to_string(), uid.0.to_string()],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
            )
        })
        .map_err(ctx.err("recording a battle event"))?;
    let follows = events_for_battle(conn, ctx, battle)?
        .into_iter()
        .find(|e| e.uid == uid)
        .and_then(|e| e.follows);
    Ok(BattleEvent {
        id,
        uid,
        follows,
        battle,
        seq: u32::try_from(seq).unwrap_or(u32::MAX),
        kind: kind.to_string(),
        payload: payload.clone(),
        recorded_at,
        by: Recorder::default(),
        revision: None,
        seal: None,
    })
}

/// Refuses an event for a battle that is not stored.
fn need_battle(conn: &Connection, ctx: &Ctx, battle: BattleId) -> Result<(), StoreError> {
    let exists: bool = conn
        .prepare_cached(queries::BATTLE_EXISTS)
        .and_then(|mut stmt| stmt.query_row([battle], |row| row.get(0)))
        .map_err(ctx.err("recording a battle event"))?;
    if exists {
        Ok(())
    } else {
        Err(StoreError::BattleNotFound(battle))
    }
}

/// One stored event row, as read: row id, battle (row id, or number for [`EVENTS_SINCE`]), seq,
/// kind, payload, time, uid, follows, player, machine, revision, signer, signature.
type EventRow = (
    i64,
    i64,
    i64,
    String,
    String,
    String,
    String,
    Option<String>,
    String,
    String,
    Option<i64>,
    Option<String>,
    Option<String>,
);

fn row_to_event(row: &Row<'_>) -> rusqlite::Result<EventRow> {
    Ok((
        row.get(0)?,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
        row.get(4)?,
        row.get(5)?,
        row.get(6)?,
        row.get(7)?,
        row.get(8)?,
        row.get(9)?,
        row.get(10)?,
        row.get(11)?,
        row.get(12)?,
    ))
}

/// A stored seal read back: both halves or neither.
fn seal_of(
    ctx: &Ctx,
    id: i64,
    signer: Option<String>,
    signature: Option<String>,
) -> Result<Option<Seal>, StoreError> {
    match (signer, signature) {
        (None, None) => Ok(None),
        (Some(key), Some(sig)) => {
            serde_json::from_value(serde_json::json!({"key": key, "sig": sig}))
                .map(Some)
                .map_err(|e| ctx.corrupt(format!("battle_events row {id} seal"), e.to_string()))
        }
        _ => Err(ctx.corrupt(
            format!("battle_events row {id} seal"),
            "a signer without a signature, or a signature without a signer".into(),
        )),
    }
}

fn parse_uid(ctx: &Ctx, what: String, text: &str) -> Result<Uuid, StoreError> {
    Uuid::parse_str(text).map_err(|e| ctx.corrupt(what, e.to_string()))
}

pub(crate) fn events_for_battle(
    conn: &Connection,
    ctx: &Ctx,
    battle: BattleId,
) -> Result<Vec<BattleEvent>, StoreError> {
    let rows = conn
        .prepare_cached(queries::EVENTS_SELECT)
        .and_then(|mut stmt| {
            stmt.query_map([battle], row_to_event)?
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(ctx.err("loading battle events"))?;
    rows.into_iter()
        .map(|row| {
            let (id, battle, ..) = row;
            let e = row_event(ctx, row)?;
            Ok(BattleEvent {
                id: EventId(id),
                uid: e.uid,
                follows: e.follows,
                battle: BattleId(battle),
                seq: e.seq,
                kind: e.kind,
                payload: e.payload,
                recorded_at: e.recorded_at,
                by: e.by,
                revision: e.revision,
                seal: e.seal,
            })
        })
        .collect()
}

/// A row's fields decoded.
struct RowEvent {
    uid: EventUid,
    follows: Option<EventUid>,
    seq: u32,
    kind: String,
    payload: serde_json::Value,
    recorded_at: String,
    by: Recorder,
    revision: Option<u32>,
    seal: Option<Seal>,
}

fn row_event(ctx: &Ctx, row: EventRow) -> Result<RowEvent, StoreError> {
    let (
        id,
        _,
        seq,
        kind,
        payload,
        recorded_at,
        uid,
        follows,
        player,
        machine,
        revision,
        signer,
        signature,
    ) = row;
    let follows = follows
        .map(|f| parse_uid(ctx, format!("battle_events row {id} follows"), &f))
        .transpose()?
        .map(EventUid);
    Ok(RowEvent {
        uid: EventUid(parse_uid(ctx, format!("battle_events row {id} uid"), &uid)?),
        follows,
        seq: u32::try_from(seq).unwrap_or(u32::MAX),
        kind,
        payload: serde_json::from_str(&payload)
            .map_err(|e| ctx.corrupt(format!("battle_events row {id} payload"), e.to_string()))?,
        recorded_at,
        by: Recorder { player, machine },
        revision: revision.and_then(|r| u32::try_from(r).ok()),
        seal: seal_of(ctx, id, signer, signature)?,
    })
}

/// A row as the campaign engine's event.
fn row_logged(ctx: &Ctx, row: EventRow) -> Result<LoggedEvent, StoreError> {
    let id = row.0;
    let e = row_event(ctx, row)?;
    let event = serde_json::from_value(e.payload)
        .map_err(|err| ctx.corrupt(format!("battle_events row {id} payload"), err.to_string()))?;
    Ok(LoggedEvent {
        id: e.uid,
        follows: e.follows,
        seq: e.seq,
        recorded_at: e.recorded_at,
        by: e.by,
        revision: e.revision,
        seal: e.seal,
        event,
    })
}

/// Battle `battle`'s events as the campaign engine has them, in the order stored.
pub(crate) fn battle_log(
    conn: &Connection,
    ctx: &Ctx,
    battle: BattleId,
) -> Result<Vec<LoggedEvent>, StoreError> {
    conn.prepare_cached(queries::EVENTS_SELECT)
        .and_then(|mut stmt| {
            stmt.query_map([battle], row_to_event)?
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(ctx.err("loading battle events"))?
        .into_iter()
        .map(|row| row_logged(ctx, row))
        .collect()
}

/// Campaign `id`'s events stored after row `after`, each with its battle's number, in the
/// order stored (which puts every event after the one it follows).
pub(crate) fn events_since(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
    after: i64,
) -> Result<Vec<(i64, u32, LoggedEvent)>, StoreError> {
    // From the start, the campaign's own battles lead (a range of row ids would read every
    // campaign's rows); from a row on, the range leads (it holds only what is new).
    let rows = if after <= 0 {
        conn.prepare_cached(queries::CAMPAIGN_EVENTS)
            .and_then(|mut stmt| {
                stmt.query_map([id], row_to_event)?
                    .collect::<Result<Vec<_>, _>>()
            })
    } else {
        conn.prepare_cached(queries::EVENTS_SINCE)
            .and_then(|mut stmt| {
                stmt.query_map(params![id, after], row_to_event)?
                    .collect::<Result<Vec<_>, _>>()
            })
    };
    rows.map_err(ctx.err("reading a campaign's new events"))?
        .into_iter()
        .map(|row| {
            let (rowid, number) = (row.0, u32::try_from(row.1).unwrap_or(u32::MAX));
            Ok((rowid, number, row_logged(ctx, row)?))
        })
        .collect()
}

/// The row id of campaign `id`'s newest event (0 when none), reading only the rows after
/// `known` when that row is one of the campaign's.
pub(crate) fn last_event_row(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
    known: i64,
) -> Result<i64, StoreError> {
    conn.prepare_cached(queries::CAMPAIGN_LAST_EVENT)
        .and_then(|mut stmt| stmt.query_row(params![id, known], |row| row.get(0)))
        .map_err(ctx.err("reading a campaign's log"))
}

/// Which of `ids` are stored.
pub(crate) fn stored_ids(
    conn: &Connection,
    ctx: &Ctx,
    ids: &[EventUid],
) -> Result<std::collections::HashSet<EventUid>, StoreError> {
    let mut stmt = conn
        .prepare_cached(queries::EVENT_UID_EXISTS)
        .map_err(ctx.err("reading a battle's log"))?;
    let mut found = std::collections::HashSet::new();
    for id in ids {
        let there: bool = stmt
            .query_row([id.0.to_string()], |row| row.get(0))
            .map_err(ctx.err("reading a battle's log"))?;
        if there {
            found.insert(*id);
        }
    }
    Ok(found)
}

/// The keys that signed events of campaign `id` as each of these (player, machine) pairs.
pub(crate) fn signers(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
    pairs: &[(String, String)],
) -> Result<Bindings, StoreError> {
    let mut stmt = conn
        .prepare_cached(queries::CAMPAIGN_SIGNERS)
        .map_err(ctx.err("reading a campaign's players"))?;
    let mut bindings = Bindings::new();
    for (player, machine) in pairs {
        let keys: Vec<String> = stmt
            .query_map(params![id, player, machine], |row| row.get(0))
            .and_then(|rows| rows.collect())
            .map_err(ctx.err("reading a campaign's players"))?;
        for key in keys {
            let key: PublicKey = serde_json::from_value(serde_json::Value::String(key))
                .map_err(|e| ctx.corrupt(format!("campaign {id} signer"), e.to_string()))?;
            bindings
                .entry((player.clone(), machine.clone()))
                .or_default()
                .insert(key);
        }
    }
    Ok(bindings)
}

/// The keys campaign `id` binds each claimed (player, machine, key) to, as far as judging the
/// claim needs: the claimed key alone when an event the library holds was signed with it under
/// those names (one indexed look-up, not a read of every event they signed); otherwise every
/// key signing under those names (none: the names are not bound yet).
pub(crate) fn claimed_signers(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
    claims: &[(String, String, PublicKey)],
) -> Result<Bindings, StoreError> {
    let mut stmt = conn
        .prepare_cached(queries::CAMPAIGN_SIGNED_BY)
        .map_err(ctx.err("reading a campaign's players"))?;
    let mut bindings = Bindings::new();
    let mut unproven: Vec<(String, String)> = Vec::new();
    for (player, machine, key) in claims {
        let text = serde_json::to_value(key)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let signed: bool = stmt
            .query_row(params![id, player, machine, text], |row| row.get(0))
            .map_err(ctx.err("reading a campaign's players"))?;
        let names = (player.clone(), machine.clone());
        if signed {
            bindings.entry(names).or_default().insert(*key);
        } else if !unproven.contains(&names) {
            unproven.push(names);
        }
    }
    for (names, keys) in signers(conn, ctx, id, &unproven)? {
        bindings.entry(names).or_default().extend(keys);
    }
    Ok(bindings)
}

/// Numbers of campaign `id`'s battles set up by an event.
pub(crate) fn setups(conn: &Connection, ctx: &Ctx, id: CampaignId) -> Result<Vec<u32>, StoreError> {
    conn.prepare_cached(queries::CAMPAIGN_SETUPS)
        .and_then(|mut stmt| {
            stmt.query_map([id], |row| row.get::<_, i64>(0))?
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(ctx.err("reading a campaign's battles"))
        .map(|n| {
            n.into_iter()
                .filter_map(|n| u32::try_from(n).ok())
                .collect()
        })
}

/// One campaign in the list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CampaignSummary {
    pub id: CampaignId,
    pub ruleset: String,
    pub name: String,
    pub created_at: String,
    /// False for a campaign written before the campaign engine (cannot be opened).
    pub openable: bool,
    pub battles: u32,
    pub events: u32,
    /// When its last event was recorded.
    pub last_event_at: Option<String>,
    /// The campaign's own id, the same on every machine (`campaign show --json` calls it `id`);
    /// `id` above is this library's row number.
    #[serde(rename = "campaign_id")]
    pub uid: Option<String>,
}

/// A campaign as stored: its record and the battle row of each battle, same order.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredCampaign {
    pub id: CampaignId,
    pub record: CampaignRecord,
    pub battle_ids: Vec<BattleId>,
}

fn to_count(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

pub(crate) fn list(conn: &Connection, ctx: &Ctx) -> Result<Vec<CampaignSummary>, StoreError> {
    conn.prepare_cached(queries::CAMPAIGNS_LIST)
        .and_then(|mut stmt| {
            stmt.query_map([], |row| {
                Ok(CampaignSummary {
                    id: row.get(0)?,
                    ruleset: row.get(1)?,
                    name: row.get(2)?,
                    created_at: row.get(3)?,
                    openable: row.get(4)?,
                    battles: to_count(row.get(5)?),
                    events: to_count(row.get(6)?),
                    last_event_at: row.get(7)?,
                    uid: row.get(8)?,
                })
            })?
            .collect()
        })
        .map_err(ctx.err("listing campaigns"))
}

pub(crate) fn find(
    conn: &Connection,
    ctx: &Ctx,
    name: &str,
) -> Result<Option<CampaignId>, StoreError> {
    let key = crate::rules::names::fold(name);
    let all: Vec<(CampaignId, String)> = conn
        .prepare_cached(queries::CAMPAIGN_NAMES)
        .and_then(|mut stmt| {
            stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
                .collect()
        })
        .map_err(ctx.err("finding a campaign"))?;
    Ok(all
        .into_iter()
        .find(|(_, n)| crate::rules::names::fold(n) == key)
        .map(|(id, _)| id))
}

fn body_json(campaign: &Campaign) -> Result<String, StoreError> {
    serde_json::to_string(campaign).map_err(|e| StoreError::invalid("campaign", e.to_string()))
}

/// Inserts a whole record (a new campaign, or an imported one with its events). Call inside
/// a transaction.
pub(crate) fn insert_record(
    conn: &Connection,
    ctx: &Ctx,
    record: &CampaignRecord,
) -> Result<StoredCampaign, StoreError> {
    let campaign = &record.campaign;
    if campaign.name.trim().is_empty() {
        return Err(StoreError::invalid("campaign.name", "must not be empty"));
    }
    if find(conn, ctx, &campaign.name)?.is_some() {
        return Err(StoreError::DuplicateCampaignName {
            name: campaign.name.clone(),
        });
    }
    let scenario = campaign.script().map_or("", |s| s.id.as_str());
    if find_by_uid(conn, ctx, record.id)?.is_some() {
        return Err(StoreError::DuplicateCampaignId {
            uid: record.id.to_string(),
        });
    }
    let body = body_json(campaign)?;
    conn.prepare_cached(queries::CAMPAIGN_RECORD_INSERT)
        .and_then(|mut stmt| {
            stmt.execute(params![
                campaign.ruleset.as_str(),
                campaign.name.trim(),
                scenario,
                body,
                record.id.0.to_string()
            ])
        })
        .map_err(ctx.err("creating a campaign"))?;
    let id = CampaignId(conn.last_insert_rowid());
    let mut battle_ids = Vec::new();
    for (i, plan) in campaign.battles.iter().enumerate() {
        let battle = create_battle(conn, ctx, id, plan.number(), &plan.title())?;
        for logged in record.all_events(i) {
            insert_event(conn, ctx, battle, logged)?;
        }
        battle_ids.push(battle);
    }
    Ok(StoredCampaign {
        id,
        record: record.clone(),
        battle_ids,
    })
}

/// Stores an event as it is: id, place, time, recorder, revision and seal.
fn insert_event(
    conn: &Connection,
    ctx: &Ctx,
    battle: BattleId,
    logged: &LoggedEvent,
) -> Result<(), StoreError> {
    let payload = serde_json::to_string(&logged.event)
        .map_err(|e| StoreError::invalid("event", e.to_string()))?;
    let seal = logged
        .seal
        .map(|s| serde_json::to_value(s).unwrap_or_default());
    let half = |name: &str| -> Option<String> {
        seal.as_ref()
            .and_then(|v| v.get(name))
            .and_then(|v| v.as_str())
            .map(str::to_string)
    };
    conn.prepare_cached(queries::EVENT_IMPORT)
        .and_then(|mut stmt| {
            stmt.execute(params![
                battle,
                logged.id.0.to_string(),
                logged.follows.map(|f| f.0.to_string()),
                logged.seq,
                logged.event.kind(),
                payload,
                logged.recorded_at,
                logged.by.player,
                logged.by.machine,
                logged.revision,
                half("key"),
                half("sig"),
            ])
        })
        .map_err(ctx.err("storing a battle event"))?;
    Ok(())
}

/// Campaign `id`'s row: name, definition (`None` before the campaign engine) and uid.
fn campaign_row(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
) -> Result<(String, Option<String>, CampaignUid), StoreError> {
    let row: Option<(String, Option<String>, Option<String>)> = conn
        .prepare_cached(queries::CAMPAIGN_SELECT)
        .and_then(|mut stmt| {
            stmt.query_row([id], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
                .optional()
        })
        .map_err(ctx.err("loading a campaign"))?;
    let (name, body, uid) = row.ok_or(StoreError::CampaignNotFound(id))?;
    let uid = uid.ok_or_else(|| {
        ctx.corrupt(
            format!("campaigns row {id} uid"),
            "missing (every campaign has one from schema 4)".into(),
        )
    })?;
    let uid = CampaignUid(parse_uid(ctx, format!("campaigns row {id} uid"), &uid)?);
    Ok((name, body, uid))
}

/// Campaign `id`'s uid.
pub(crate) fn uid_of(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
) -> Result<CampaignUid, StoreError> {
    Ok(campaign_row(conn, ctx, id)?.2)
}

/// The campaign with this id, if stored.
pub(crate) fn find_by_uid(
    conn: &Connection,
    ctx: &Ctx,
    uid: CampaignUid,
) -> Result<Option<CampaignId>, StoreError> {
    conn.prepare_cached(queries::CAMPAIGN_BY_UID)
        .and_then(|mut stmt| {
            stmt.query_row([uid.0.to_string()], |row| row.get(0))
                .optional()
        })
        .map_err(ctx.err("finding a campaign"))
}

/// Stores what a merge takes into campaign `id`: its definition as merged (`campaign`, which
/// only adds battles or changes the plan of a battle set up by an event) and the new events,
/// each with its battle's place. Returns how many events were stored.
pub(crate) fn store_incoming(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
    campaign: &Campaign,
    events: &[(usize, LoggedEvent)],
) -> Result<usize, StoreError> {
    let (_, body, _) = campaign_row(conn, ctx, id)?;
    let Some(body) = body else {
        return Err(StoreError::invalid(
            "campaign",
            "predates the campaign engine; nothing can be merged into it",
        ));
    };
    let mut battle_ids: Vec<BattleId> = conn
        .prepare_cached(queries::CAMPAIGN_BATTLES_SELECT)
        .and_then(|mut stmt| {
            stmt.query_map([id], |row| row.get(0))?
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(ctx.err("loading a campaign's battles"))?;
    let new_body = body_json(campaign)?;
    if new_body != body {
        conn.prepare_cached(queries::CAMPAIGN_BODY_UPDATE)
            .and_then(|mut stmt| stmt.execute(params![id, new_body]))
            .map_err(ctx.err("adding a battle"))?;
    }
    for plan in campaign.battles.iter().skip(battle_ids.len()) {
        battle_ids.push(create_battle(conn, ctx, id, plan.number(), &plan.title())?);
    }
    for (index, logged) in events {
        let battle = battle_ids.get(*index).copied().ok_or_else(|| {
            StoreError::invalid("event", format!("no battle {} to store it in", index + 1))
        })?;
        insert_event(conn, ctx, battle, logged)?;
    }
    Ok(events.len())
}

/// Campaign `id`'s definition and battle rows, without its events.
pub(crate) fn outline(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
) -> Result<(CampaignUid, Campaign, Vec<BattleId>), StoreError> {
    let (name, body, uid) = campaign_row(conn, ctx, id)?;
    let Some(body) = body else {
        return Err(StoreError::LegacyCampaign { name });
    };
    let campaign: Campaign = serde_json::from_str(&body)
        .map_err(|e| ctx.corrupt(format!("campaigns row {id} body"), e.to_string()))?;
    let battles = battle_rows(conn, ctx, id)?;
    let ids = campaign
        .battles
        .iter()
        .map(|plan| battle_row(ctx, id, &battles, plan))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((uid, campaign, ids))
}

fn battle_rows(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
) -> Result<Vec<(BattleId, i64)>, StoreError> {
    conn.prepare_cached(queries::CAMPAIGN_BATTLES_SELECT)
        .and_then(|mut stmt| {
            stmt.query_map([id], |row| Ok((row.get(0)?, row.get(1)?)))?
                .collect()
        })
        .map_err(ctx.err("loading a campaign's battles"))
}

fn battle_row(
    ctx: &Ctx,
    id: CampaignId,
    battles: &[(BattleId, i64)],
    plan: &crate::campaign::BattlePlan,
) -> Result<BattleId, StoreError> {
    battles
        .iter()
        .find(|(_, number)| *number == i64::from(plan.number()))
        .map(|(b, _)| *b)
        .ok_or_else(|| {
            ctx.corrupt(
                format!("campaign {id} battle {}", plan.number()),
                "the battle row is missing".to_string(),
            )
        })
}

pub(crate) fn load(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
) -> Result<StoredCampaign, StoreError> {
    let (uid, campaign, battle_ids) = outline(conn, ctx, id)?;
    let events = battle_ids
        .iter()
        .map(|battle| battle_log(conn, ctx, *battle))
        .collect::<Result<Vec<_>, _>>()?;
    let record = CampaignRecord::from_events(uid, campaign, events)
        .map_err(|e| ctx.corrupt(format!("campaign {id} events"), e.to_string()))?;
    Ok(StoredCampaign {
        id,
        record,
        battle_ids,
    })
}

/// Adds the last battle of `campaign` (already pushed onto its definition) to the store, and
/// records its setup as the battle's first event, sealed with `key` at `now` by `by`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn add_battle(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
    campaign: &Campaign,
    by: &Recorder,
    key: &MachineKey,
    now: i64,
) -> Result<(BattleId, LoggedEvent), StoreError> {
    let plan = campaign
        .battles
        .last()
        .ok_or_else(|| StoreError::invalid("campaign.battles", "no battle to add"))?;
    let body = body_json(campaign)?;
    let updated = conn
        .prepare_cached(queries::CAMPAIGN_BODY_UPDATE)
        .and_then(|mut stmt| stmt.execute(params![id, body]))
        .map_err(ctx.err("adding a battle"))?;
    if updated == 0 {
        return Err(StoreError::CampaignNotFound(id));
    }
    let battle = create_battle(conn, ctx, id, plan.number(), &plan.title())?;
    let event = Event::BattleAdded { plan: plan.clone() };
    let first = Position {
        follows: None,
        seq: 1,
    };
    let logged = record_event(conn, ctx, battle, first, &event, by, key, now)?;
    Ok((battle, logged))
}

/// Records one campaign event at `at` (the place the caller's copy of the log gives it), by
/// `by` at `now` (milliseconds since 1970, UTC), resolved under the ruleset's current revision
/// and sealed with `key`; returns it with its id (made from its content) and time.
#[allow(clippy::too_many_arguments)]
pub(crate) fn record_event(
    conn: &Connection,
    ctx: &Ctx,
    battle: BattleId,
    at: Position,
    event: &Event,
    by: &Recorder,
    key: &MachineKey,
    now: i64,
) -> Result<LoggedEvent, StoreError> {
    let follows = at.follows.map(|f| f.0.to_string());
    let parent_seq: Option<u32> = match &follows {
        None => Some(0),
        Some(uid) => conn
            .prepare_cached(queries::EVENT_SEQ)
            .and_then(|mut stmt| {
                stmt.query_row(params![battle, uid], |row| row.get(0))
                    .optional()
            })
            .map_err(ctx.err("reading a battle's log"))?,
    };
    // The event was decided on the log as the caller last saw it. Something already after the
    // same event means another running copy (or a merge) recorded since: appending would make
    // a fork out of one table's play. A branch choice is the exception: it follows the fork.
    let taken: i64 = if event.is_meta_choice() {
        0
    } else {
        conn.prepare_cached(queries::EVENT_AFTER)
            .and_then(|mut stmt| stmt.query_row(params![battle, follows], |row| row.get(0)))
            .map_err(ctx.err("reading a battle's log"))?
    };
    if taken > 0 || parent_seq.map(|s| s + 1) != Some(at.seq) {
        let last: u32 = conn
            .prepare_cached(queries::EVENT_LAST_SEQ)
            .and_then(|mut stmt| stmt.query_row([battle], |row| row.get(0)))
            .map_err(ctx.err("reading a battle's log"))?;
        return Err(StoreError::BattleChanged {
            battle,
            known: at.seq.saturating_sub(1),
            stored: last,
        });
    }
    need_battle(conn, ctx, battle)?;
    let (campaign, uid, ruleset, number): (CampaignId, String, String, i64) = conn
        .prepare_cached(queries::BATTLE_CAMPAIGN)
        .and_then(|mut stmt| {
            stmt.query_row([battle], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
            })
        })
        .map_err(ctx.err("recording a battle event"))?;
    let uid = CampaignUid(parse_uid(
        ctx,
        format!("campaigns row {campaign} uid"),
        &uid,
    )?);
    let ruleset: RulesetId = ruleset.parse().map_err(|e: crate::rules::RulesError| {
        ctx.corrupt(format!("campaigns row {campaign} ruleset"), e.to_string())
    })?;
    let mut logged = LoggedEvent {
        id: EventUid(Uuid::nil()),
        follows: at.follows,
        seq: at.seq,
        recorded_at: crate::campaign::time::format_millis(now),
        by: by.clone(),
        revision: Some(crate::rules::ruleset(ruleset).rules_revision()),
        seal: None,
        event: event.clone(),
    };
    seal::seal(
        key,
        uid,
        u32::try_from(number).unwrap_or(u32::MAX),
        &mut logged,
    );
    merge::check_fields(&logged).map_err(|m| StoreError::invalid("event", m))?;
    insert_event(conn, ctx, battle, &logged)?;
    Ok(logged)
}

/// The campaign battle `battle` belongs to.
pub(crate) fn campaign_of(
    conn: &Connection,
    ctx: &Ctx,
    battle: BattleId,
) -> Result<CampaignId, StoreError> {
    conn.prepare_cached(queries::BATTLE_CAMPAIGN)
        .and_then(|mut stmt| stmt.query_row([battle], |row| row.get(0)).optional())
        .map_err(ctx.err("recording a battle event"))?
        .ok_or(StoreError::BattleNotFound(battle))
}

/// Refuses to record as names another key already signs with in campaign `id` (this library
/// copied, then renamed back): every other machine would refuse the event as forged.
pub(crate) fn refuse_taken_names(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
    by: &Recorder,
    key: &MachineKey,
) -> Result<(), StoreError> {
    let names = (by.player.clone(), by.machine.clone());
    let mine = key.public();
    let bound = claimed_signers(conn, ctx, id, &[(names.0.clone(), names.1.clone(), mine)])?;
    match bound.get(&names) {
        Some(keys) if !keys.contains(&mine) => {
            let theirs: Vec<String> = keys.iter().map(PublicKey::fingerprint).collect();
            Err(StoreError::invalid(
                "by",
                format!(
                    "'{}' already signs this campaign's events with another key ({}); events recorded here under that name would be refused everywhere else as forged: give this machine another name with `quartermaster campaign player --machine NAME`",
                    by.label(),
                    theirs.join(", ")
                ),
            ))
        }
        _ => Ok(()),
    }
}

pub(crate) fn delete(conn: &Connection, ctx: &Ctx, id: CampaignId) -> Result<(), StoreError> {
    let marked = conn
        .prepare_cached(queries::CAMPAIGN_MARK_DELETING)
        .and_then(|mut stmt| stmt.execute([id]))
        .map_err(ctx.err("deleting a campaign"))?;
    if marked == 0 {
        return Err(StoreError::CampaignNotFound(id));
    }
    for query in [
        queries::CAMPAIGN_EVENTS_DELETE,
        queries::CAMPAIGN_BATTLES_DELETE,
        queries::CAMPAIGN_DELETE,
    ] {
        conn.prepare_cached(query)
            .and_then(|mut stmt| stmt.execute([id]))
            .map_err(ctx.err("deleting a campaign"))?;
    }
    Ok(())
}
