//! Campaigns, battles and the append-only battle event log (the campaign engine fills them).

use rusqlite::{Connection, Row, params};
use serde::Serialize;

use super::Ctx;
use super::error::StoreError;
use super::ids::{BattleId, CampaignId, EventId};
use super::queries;
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
