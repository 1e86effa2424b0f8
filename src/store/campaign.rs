//! Campaigns, battles and the append-only battle event log (the campaign engine fills them).

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;

use uuid::Uuid;

use super::Ctx;
use super::error::StoreError;
use super::ids::{BattleId, CampaignId, EventId};
use super::queries;
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

/// One stored event row, as read.
type EventRow = (
    EventId,
    BattleId,
    i64,
    String,
    String,
    String,
    String,
    Option<String>,
    String,
    String,
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
    ))
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
        .map(
            |(id, battle, seq, kind, payload, recorded_at, uid, follows, player, machine)| {
                let follows = follows
                    .map(|f| parse_uid(ctx, format!("battle_events row {id} follows"), &f))
                    .transpose()?
                    .map(EventUid);
                Ok(BattleEvent {
                    id,
                    uid: EventUid(parse_uid(ctx, format!("battle_events row {id} uid"), &uid)?),
                    follows,
                    battle,
                    seq: u32::try_from(seq).unwrap_or(u32::MAX),
                    kind,
                    payload: serde_json::from_str(&payload).map_err(|e| {
                        ctx.corrupt(format!("battle_events row {id} payload"), e.to_string())
                    })?,
                    recorded_at,
                    by: Recorder { player, machine },
                })
            },
        )
        .collect()
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
    let scenario = if campaign.ruleset == RulesetId::ArmourBattles {
        "lorraine"
    } else {
        ""
    };
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

/// Stores an event from a file or another machine as it is: id, place, time and recorder.
fn insert_event(
    conn: &Connection,
    ctx: &Ctx,
    battle: BattleId,
    logged: &LoggedEvent,
) -> Result<(), StoreError> {
    let payload = serde_json::to_string(&logged.event)
        .map_err(|e| StoreError::invalid("event", e.to_string()))?;
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
                logged.by.machine
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

/// Stores what a merge added to campaign `id`: battles it did not have (the definition is
/// replaced by `merged`'s, which only adds battles) and events it did not have. Events already
/// stored are left as they are. Returns how many events were stored.
pub(crate) fn store_merged(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
    merged: &CampaignRecord,
) -> Result<usize, StoreError> {
    // The ids already stored, not the events: decoding every payload of a long campaign to
    // learn what it holds would cost more than the merge itself.
    let (_, body, uid) = campaign_row(conn, ctx, id)?;
    if uid != merged.id {
        return Err(StoreError::invalid(
            "campaign.id",
            format!("{} is not the stored campaign's id", merged.id),
        ));
    }
    if body.is_none() {
        return Err(StoreError::invalid(
            "campaign",
            "predates the campaign engine; nothing can be merged into it",
        ));
    }
    let mut battle_ids: Vec<BattleId> = conn
        .prepare_cached(queries::CAMPAIGN_BATTLES_SELECT)
        .and_then(|mut stmt| {
            stmt.query_map([id], |row| row.get(0))?
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(ctx.err("loading a campaign's battles"))?;
    if merged.campaign.battles.len() > battle_ids.len() {
        let body = body_json(&merged.campaign)?;
        conn.prepare_cached(queries::CAMPAIGN_BODY_UPDATE)
            .and_then(|mut stmt| stmt.execute(params![id, body]))
            .map_err(ctx.err("adding a battle"))?;
        for plan in merged.campaign.battles.iter().skip(battle_ids.len()) {
            battle_ids.push(create_battle(conn, ctx, id, plan.number(), &plan.title())?);
        }
    }
    let mut stored = 0;
    for (index, battle) in battle_ids.iter().enumerate() {
        let known: std::collections::HashSet<String> = conn
            .prepare_cached(queries::EVENT_UIDS)
            .and_then(|mut stmt| {
                stmt.query_map([battle], |row| row.get(0))?
                    .collect::<Result<_, _>>()
            })
            .map_err(ctx.err("reading a battle's log"))?;
        for logged in merged
            .all_events(index)
            .filter(|e| !known.contains(&e.id.0.to_string()))
        {
            insert_event(conn, ctx, *battle, logged)?;
            stored += 1;
        }
    }
    Ok(stored)
}

pub(crate) fn load(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
) -> Result<StoredCampaign, StoreError> {
    let (name, body, uid) = campaign_row(conn, ctx, id)?;
    let Some(body) = body else {
        return Err(StoreError::LegacyCampaign { name });
    };
    let campaign: Campaign = serde_json::from_str(&body)
        .map_err(|e| ctx.corrupt(format!("campaigns row {id} body"), e.to_string()))?;
    let battles: Vec<(BattleId, i64)> = conn
        .prepare_cached(queries::CAMPAIGN_BATTLES_SELECT)
        .and_then(|mut stmt| {
            stmt.query_map([id], |row| Ok((row.get(0)?, row.get(1)?)))?
                .collect()
        })
        .map_err(ctx.err("loading a campaign's battles"))?;
    let mut events = Vec::with_capacity(campaign.battles.len());
    let mut battle_ids = Vec::new();
    for plan in &campaign.battles {
        let battle = battles
            .iter()
            .find(|(_, number)| *number == i64::from(plan.number()))
            .map(|(b, _)| *b)
            .ok_or_else(|| {
                ctx.corrupt(
                    format!("campaign {id} battle {}", plan.number()),
                    "the battle row is missing".to_string(),
                )
            })?;
        let logged = events_for_battle(conn, ctx, battle)?
            .into_iter()
            .map(|e| {
                let event = serde_json::from_value(e.payload).map_err(|err| {
                    ctx.corrupt(
                        format!("battle_events row {} payload", e.id),
                        err.to_string(),
                    )
                })?;
                Ok(LoggedEvent {
                    id: e.uid,
                    follows: e.follows,
                    seq: e.seq,
                    recorded_at: e.recorded_at,
                    by: e.by,
                    event,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        events.push(logged);
        battle_ids.push(battle);
    }
    let record = CampaignRecord::from_events(uid, campaign, events)
        .map_err(|e| ctx.corrupt(format!("campaign {id} events"), e.to_string()))?;
    Ok(StoredCampaign {
        id,
        record,
        battle_ids,
    })
}

/// Adds the last battle of `campaign` (already pushed onto its definition) to the store.
pub(crate) fn add_battle(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
    campaign: &Campaign,
) -> Result<BattleId, StoreError> {
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
    create_battle(conn, ctx, id, plan.number(), &plan.title())
}

/// Records one campaign event at `at` (the place the caller's copy of the log gives it), by
/// `by`; returns it with its new id and time.
pub(crate) fn record_event(
    conn: &Connection,
    ctx: &Ctx,
    battle: BattleId,
    at: Position,
    event: &Event,
    by: &Recorder,
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
    let payload =
        serde_json::to_string(event).map_err(|e| StoreError::invalid("event", e.to_string()))?;
    let uid = new_event_uid();
    let recorded_at: String = conn
        .prepare_cached(queries::EVENT_RECORD)
        .and_then(|mut stmt| {
            stmt.query_row(
                params![
                    battle,
                    uid.0.to_string(),
                    follows,
                    at.seq,
                    event.kind(),
                    payload,
                    by.player,
                    by.machine
                ],
                |row| row.get(0),
            )
        })
        .map_err(ctx.err("recording a battle event"))?;
    Ok(LoggedEvent {
        id: uid,
        follows: at.follows,
        seq: at.seq,
        recorded_at,
        by: by.clone(),
        event: event.clone(),
    })
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
