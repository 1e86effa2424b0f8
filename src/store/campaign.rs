//! Campaigns, battles and the append-only battle event log (the campaign engine fills them).

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;

use super::Ctx;
use super::error::StoreError;
use super::ids::{BattleId, CampaignId, EventId};
use super::queries;
use crate::campaign::{Campaign, CampaignRecord, Event, LoggedEvent};
use crate::rules::RulesetId;

/// One recorded event of a battle. Events are never changed or deleted; a correction or an
/// undo is a new event.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BattleEvent {
    pub id: EventId,
    pub battle: BattleId,
    /// 1, 2, 3 … within the battle.
    pub seq: u32,
    /// What happened (`fire`, `rally`, `undo`, …), as the campaign engine names it.
    pub kind: String,
    /// The event's data.
    pub payload: serde_json::Value,
    /// When it was recorded, UTC, ISO 8601.
    pub recorded_at: String,
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
        .and_then(|mut stmt| stmt.execute(params![ruleset.as_str(), name.trim(), scenario]))
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
    let exists: bool = conn
        .prepare_cached(queries::BATTLE_EXISTS)
        .and_then(|mut stmt| stmt.query_row([battle], |row| row.get(0)))
        .map_err(ctx.err("recording a battle event"))?;
    if !exists {
        return Err(StoreError::BattleNotFound(battle));
    }
    let (id, seq, recorded_at): (EventId, i64, String) = conn
        .prepare_cached(queries::EVENT_APPEND)
        .and_then(|mut stmt| {
            stmt.query_row(params![battle, kind, payload.to_string()], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?))
            })
        })
        .map_err(ctx.err("recording a battle event"))?;
    Ok(BattleEvent {
        id,
        battle,
        seq: u32::try_from(seq).unwrap_or(u32::MAX),
        kind: kind.to_string(),
        payload: payload.clone(),
        recorded_at,
    })
}

fn row_to_event(
    row: &Row<'_>,
) -> rusqlite::Result<(EventId, BattleId, i64, String, String, String)> {
    Ok((
        row.get(0)?,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
        row.get(4)?,
        row.get(5)?,
    ))
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
        .map(|(id, battle, seq, kind, payload, recorded_at)| {
            Ok(BattleEvent {
                id,
                battle,
                seq: u32::try_from(seq).unwrap_or(u32::MAX),
                kind,
                payload: serde_json::from_str(&payload).map_err(|e| {
                    ctx.corrupt(format!("battle_events row {id} payload"), e.to_string())
                })?,
                recorded_at,
            })
        })
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
    let body = body_json(campaign)?;
    conn.prepare_cached(queries::CAMPAIGN_RECORD_INSERT)
        .and_then(|mut stmt| {
            stmt.execute(params![
                campaign.ruleset.as_str(),
                campaign.name.trim(),
                scenario,
                body
            ])
        })
        .map_err(ctx.err("creating a campaign"))?;
    let id = CampaignId(conn.last_insert_rowid());
    let mut battle_ids = Vec::new();
    for (i, plan) in campaign.battles.iter().enumerate() {
        let battle = create_battle(conn, ctx, id, plan.number(), &plan.title())?;
        for logged in record.logs.get(i).map_or(&[][..], Vec::as_slice) {
            let payload = serde_json::to_string(&logged.event)
                .map_err(|e| StoreError::invalid("event", e.to_string()))?;
            conn.prepare_cached(queries::EVENT_IMPORT)
                .and_then(|mut stmt| {
                    stmt.execute(params![
                        battle,
                        logged.seq,
                        logged.event.kind(),
                        payload,
                        logged.recorded_at
                    ])
                })
                .map_err(ctx.err("importing a battle event"))?;
        }
        battle_ids.push(battle);
    }
    Ok(StoredCampaign {
        id,
        record: record.clone(),
        battle_ids,
    })
}

pub(crate) fn load(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
) -> Result<StoredCampaign, StoreError> {
    let row: Option<(String, Option<String>)> = conn
        .prepare_cached(queries::CAMPAIGN_SELECT)
        .and_then(|mut stmt| {
            stmt.query_row([id], |row| Ok((row.get(0)?, row.get(1)?)))
                .optional()
        })
        .map_err(ctx.err("loading a campaign"))?;
    let Some((name, body)) = row else {
        return Err(StoreError::CampaignNotFound(id));
    };
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
    let mut record = CampaignRecord::new(campaign);
    let mut battle_ids = Vec::new();
    for (i, plan) in record.campaign.battles.iter().enumerate() {
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
        let events = events_for_battle(conn, ctx, battle)?;
        record.logs[i] = events
            .into_iter()
            .map(|e| {
                let event = serde_json::from_value(e.payload).map_err(|err| {
                    ctx.corrupt(
                        format!("battle_events row {} payload", e.id),
                        err.to_string(),
                    )
                })?;
                Ok(LoggedEvent {
                    seq: e.seq,
                    recorded_at: e.recorded_at,
                    event,
                })
            })
            .collect::<Result<_, StoreError>>()?;
        battle_ids.push(battle);
    }
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

/// Records one campaign event; returns it with its number and time.
pub(crate) fn record_event(
    conn: &Connection,
    ctx: &Ctx,
    battle: BattleId,
    after: u32,
    event: &Event,
) -> Result<LoggedEvent, StoreError> {
    // The event was decided on the log as the caller last saw it; if another running copy has
    // recorded since, appending would interleave two tables' worth of play.
    let last: u32 = conn
        .prepare_cached(queries::EVENT_LAST_SEQ)
        .and_then(|mut stmt| stmt.query_row([battle], |row| row.get(0)))
        .map_err(ctx.err("reading a battle's log"))?;
    if last != after {
        return Err(StoreError::BattleChanged {
            battle,
            known: after,
            stored: last,
        });
    }
    let payload =
        serde_json::to_value(event).map_err(|e| StoreError::invalid("event", e.to_string()))?;
    let stored = append_event(conn, ctx, battle, event.kind(), &payload)?;
    Ok(LoggedEvent {
        seq: stored.seq,
        recorded_at: stored.recorded_at,
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
