//! Campaigns, battles and the append-only battle event log (the campaign engine fills them).

use super::rows::AllRows;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;

use std::sync::Mutex;

use uuid::Uuid;

use super::Ctx;
use super::error::StoreError;
use super::ids::{BattleId, CampaignId, EventId};
use super::queries;
use crate::campaign::genesis::Genesis;
use crate::campaign::membership::{Admission, Basis, Membership, Standing};
use crate::campaign::merge;
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
        .all_rows(queries::EVENTS_SELECT, [battle], row_to_event)
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
    conn.all_rows(queries::EVENTS_SELECT, [battle], row_to_event)
        .map_err(ctx.err("loading battle events"))?
        .into_iter()
        .map(|row| row_logged(ctx, row))
        .collect()
}

/// The events of these ids the library holds, as it holds them.
pub(crate) fn events_by_uid(
    conn: &Connection,
    ctx: &Ctx,
    ids: &[EventUid],
) -> Result<std::collections::HashMap<EventUid, LoggedEvent>, StoreError> {
    let mut stmt = conn
        .prepare_cached(queries::EVENT_BY_UID)
        .map_err(ctx.err("reading a battle's log"))?;
    let mut found = std::collections::HashMap::new();
    for id in ids {
        let row = stmt
            .query_row([id.0.to_string()], row_to_event)
            .optional()
            .map_err(ctx.err("reading a battle's log"))?;
        if let Some(row) = row {
            found.insert(*id, row_logged(ctx, row)?);
        }
    }
    Ok(found)
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
        conn.all_rows(queries::CAMPAIGN_EVENTS, [id], row_to_event)
    } else {
        conn.all_rows(queries::EVENTS_SINCE, params![id, after], row_to_event)
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

/// Campaign `id`'s genesis, if it has one (begun since campaigns have one).
pub(crate) fn genesis_of(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
) -> Result<Option<Genesis>, StoreError> {
    let text: Option<String> = conn
        .prepare_cached(queries::CAMPAIGN_GENESIS)
        .and_then(|mut stmt| stmt.query_row([id], |row| row.get(0)).optional())
        .map_err(ctx.err("reading a campaign"))?
        .flatten();
    text.map(|t| {
        serde_json::from_str(&t)
            .map_err(|e| ctx.corrupt(format!("campaigns row {id} genesis"), e.to_string()))
    })
    .transpose()
}

/// Campaign `id`'s admissions stored after row `after`, with their rows, in the order stored.
pub(crate) fn admissions_since(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
    after: i64,
) -> Result<Vec<(i64, Admission)>, StoreError> {
    let rows: Vec<(i64, String)> = conn
        .all_rows(queries::ADMISSIONS_SINCE, params![id, after], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })
        .map_err(ctx.err("reading a campaign's admissions"))?;
    rows.into_iter()
        .map(|(row, body)| {
            serde_json::from_str(&body)
                .map(|a| (row, a))
                .map_err(|e| ctx.corrupt(format!("campaign_admissions row {row}"), e.to_string()))
        })
        .collect()
}

/// Stores an admission of campaign `id` (nothing when it is stored already); whether it was
/// new.
pub(crate) fn insert_admission(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
    admission: &Admission,
) -> Result<bool, StoreError> {
    let body = serde_json::to_string(admission)
        .map_err(|e| StoreError::invalid("admission", e.to_string()))?;
    conn.prepare_cached(queries::ADMISSION_INSERT)
        .and_then(|mut stmt| stmt.execute(params![id, admission.id.0.to_string(), body]))
        .map(|n| n > 0)
        .map_err(ctx.err("storing an admission"))
}

/// Everything campaign `id`'s membership is decided from — its root, every key and names that
/// signed an event, its admissions — without reading an event.
pub(crate) fn membership_basis(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
) -> Result<Basis, StoreError> {
    let rows: Vec<(String, String, String)> = conn
        .all_rows(queries::CAMPAIGN_SIGNERS, [id], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?))
        })
        .map_err(ctx.err("reading a campaign's players"))?;
    let mut signed = std::collections::BTreeSet::new();
    for (key, player, machine) in rows {
        let key: PublicKey = serde_json::from_value(serde_json::Value::String(key))
            .map_err(|e| ctx.corrupt(format!("campaign {id} signer"), e.to_string()))?;
        signed.insert((key, Recorder { player, machine }));
    }
    let root = genesis_of(conn, ctx, id)?.map(|g| (g.root(), g.by));
    let admissions = admissions_since(conn, ctx, id, 0)?
        .into_iter()
        .map(|(_, a)| a)
        .collect();
    Ok(Basis {
        root,
        signed,
        admissions,
    })
}

/// Numbers of campaign `id`'s battles set up by an event.
pub(crate) fn setups(conn: &Connection, ctx: &Ctx, id: CampaignId) -> Result<Vec<u32>, StoreError> {
    conn.all_rows(queries::CAMPAIGN_SETUPS, [id], |row| row.get::<_, i64>(0))
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

impl CampaignSummary {
    /// This summary after a sync stored `events` in the campaign and added `battles`: what
    /// listing the campaigns again would read, without counting every event again (4 ms at
    /// 100,000 events, in the frame that takes another machine's note in).
    pub fn took<'a>(
        &mut self,
        events: impl IntoIterator<Item = &'a crate::campaign::LoggedEvent>,
        battles: usize,
    ) {
        for event in events {
            self.events = self.events.saturating_add(1);
            if self
                .last_event_at
                .as_ref()
                .is_none_or(|last| *last < event.recorded_at)
            {
                self.last_event_at = Some(event.recorded_at.clone());
            }
        }
        self.battles = self
            .battles
            .saturating_add(u32::try_from(battles).unwrap_or(u32::MAX));
    }
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
        .all_rows(queries::CAMPAIGN_NAMES, [], |row| {
            Ok((row.get(0)?, row.get(1)?))
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
    if let Some(genesis) = &record.genesis {
        let text = serde_json::to_string(genesis)
            .map_err(|e| StoreError::invalid("genesis", e.to_string()))?;
        conn.prepare_cached(queries::CAMPAIGN_GENESIS_UPDATE)
            .and_then(|mut stmt| stmt.execute(params![id, text]))
            .map_err(ctx.err("creating a campaign"))?;
    }
    for admission in &record.admissions {
        insert_admission(conn, ctx, id, admission)?;
    }
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
    Ok((name, body, checked_uid(ctx, id, uid)?))
}

/// Campaign `id`'s uid as its row holds it, which every campaign has from schema 4.
fn checked_uid(ctx: &Ctx, id: CampaignId, uid: Option<String>) -> Result<CampaignUid, StoreError> {
    let uid = uid.ok_or_else(|| {
        ctx.corrupt(
            format!("campaigns row {id} uid"),
            "missing (every campaign has one from schema 4)".into(),
        )
    })?;
    Ok(CampaignUid(parse_uid(
        ctx,
        format!("campaigns row {id} uid"),
        &uid,
    )?))
}

/// Campaign `id`'s name and uid, its definition left unread: a sync asks for the uid at every
/// look, and reading a 98-battle definition (1.2 MB) for it cost more than the look.
fn identity(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
) -> Result<(String, CampaignUid), StoreError> {
    let row: Option<(String, Option<String>)> = conn
        .prepare_cached(queries::CAMPAIGN_IDENTITY)
        .and_then(|mut stmt| {
            stmt.query_row([id], |row| Ok((row.get(0)?, row.get(1)?)))
                .optional()
        })
        .map_err(ctx.err("loading a campaign"))?;
    let (name, uid) = row.ok_or(StoreError::CampaignNotFound(id))?;
    Ok((name, checked_uid(ctx, id, uid)?))
}

/// Campaign `id`'s uid.
pub(crate) fn uid_of(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
) -> Result<CampaignUid, StoreError> {
    Ok(identity(conn, ctx, id)?.1)
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
    admissions: &[Admission],
) -> Result<usize, StoreError> {
    let (_, body, _) = campaign_row(conn, ctx, id)?;
    let Some(body) = body else {
        return Err(StoreError::invalid(
            "campaign",
            "predates the campaign engine; nothing can be merged into it",
        ));
    };
    let mut battle_ids: Vec<BattleId> = conn
        .all_rows(queries::CAMPAIGN_BATTLES_SELECT, [id], |row| row.get(0))
        .map_err(ctx.err("loading a campaign's battles"))?;
    // Most merges bring events only: the definition as stored is compared as parsed (kept
    // from the load before the merge), not written out again to compare texts (at 98 battles
    // that was 1.2 MB of JSON written for every sync).
    if !definition_is(&body, campaign) {
        let new_body = body_json(campaign)?;
        conn.prepare_cached(queries::CAMPAIGN_BODY_UPDATE)
            .and_then(|mut stmt| stmt.execute(params![id, new_body]))
            .map_err(ctx.err("adding a battle"))?;
    }
    for plan in campaign.battles.iter().skip(battle_ids.len()) {
        battle_ids.push(create_battle(conn, ctx, id, plan.number(), &plan.title())?);
    }
    for admission in admissions {
        insert_admission(conn, ctx, id, admission)?;
    }
    // Another sync of this library (the window and a command at once) may have stored some of
    // them since they were found new: under the write lock, those are skipped.
    let ids: Vec<EventUid> = events.iter().map(|(_, e)| e.id).collect();
    let stored = stored_ids(conn, ctx, &ids)?;
    let mut count = 0;
    for (index, logged) in events {
        if stored.contains(&logged.id) {
            continue;
        }
        let battle = battle_ids.get(*index).copied().ok_or_else(|| {
            StoreError::invalid("event", format!("no battle {} to store it in", index + 1))
        })?;
        insert_event(conn, ctx, battle, logged)?;
        count += 1;
    }
    Ok(count)
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
    let campaign = parse_definition(&body)
        .map_err(|e| ctx.corrupt(format!("campaigns row {id} body"), e.to_string()))?;
    let battles = battle_rows(conn, ctx, id)?;
    let ids = campaign
        .battles
        .iter()
        .map(|plan| battle_row(ctx, id, &battles, plan))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((uid, campaign, ids))
}

/// A campaign definition read from its stored text, the last one parsed kept by that text: one
/// command reads the definition several times (a sync, the battle it records in, this
/// machine's shared file), and at 98 battles (1.2 MB) parsing it cost more than the rest of a
/// record. Kept by content, so a changed definition is never mistaken for the kept one.
fn parse_definition(body: &str) -> Result<Campaign, serde_json::Error> {
    if let Ok(last) = LAST_DEFINITION.lock()
        && let Some((text, campaign)) = last.as_ref()
        && text == body
    {
        return Ok(campaign.clone());
    }
    let campaign: Campaign = serde_json::from_str(body)?;
    if let Ok(mut last) = LAST_DEFINITION.lock() {
        *last = Some((body.to_string(), campaign.clone()));
    }
    Ok(campaign)
}

/// The definition last parsed, by its text ([`parse_definition`]).
static LAST_DEFINITION: Mutex<Option<(String, Campaign)>> = Mutex::new(None);

/// Whether the stored definition `body` is `campaign`: compared as parsed, without a copy.
/// A text that does not parse is not it (and is written over).
fn definition_is(body: &str, campaign: &Campaign) -> bool {
    if let Ok(last) = LAST_DEFINITION.lock()
        && let Some((text, kept)) = last.as_ref()
        && text == body
    {
        return kept == campaign;
    }
    parse_definition(body).is_ok_and(|stored| stored == *campaign)
}

fn battle_rows(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
) -> Result<Vec<(BattleId, i64)>, StoreError> {
    conn.all_rows(queries::CAMPAIGN_BATTLES_SELECT, [id], |row| {
        Ok((row.get(0)?, row.get(1)?))
    })
    .map_err(ctx.err("loading a campaign's battles"))
}

/// The numbers of campaign `id`'s battles, in order.
pub(crate) fn battle_numbers(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
) -> Result<Vec<u32>, StoreError> {
    Ok(battle_rows(conn, ctx, id)?
        .into_iter()
        .map(|(_, number)| to_count(number))
        .collect())
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
    let genesis = genesis_of(conn, ctx, id)?;
    let admissions = admissions_since(conn, ctx, id, 0)?
        .into_iter()
        .map(|(_, a)| a)
        .collect();
    let record = CampaignRecord::from_parts(uid, genesis, campaign, events, admissions)
        .map_err(|e| ctx.corrupt(format!("campaign {id} events"), e.to_string()))?;
    Ok(StoredCampaign {
        id,
        record,
        battle_ids,
    })
}

/// Campaign `id` holding only the logs of the battles `wanted` names — every battle's when
/// losses carry forward (a battle's losses decide the next one's units) — with its membership
/// decided from the whole campaign's signers and admissions: what recording in one battle, or
/// merging into a few, needs, read in proportion to those battles rather than to the
/// campaign's history.
pub(crate) fn load_for_battles(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
    wanted: &dyn Fn(usize) -> bool,
) -> Result<StoredCampaign, StoreError> {
    let (uid, campaign, battle_ids) = outline(conn, ctx, id)?;
    if campaign.options.carry_losses {
        return load(conn, ctx, id);
    }
    let events = battle_ids
        .iter()
        .enumerate()
        .map(|(at, battle)| {
            if wanted(at) {
                battle_log(conn, ctx, *battle)
            } else {
                Ok(Vec::new())
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let basis = membership_basis(conn, ctx, id)?;
    let genesis = genesis_of(conn, ctx, id)?;
    let corrupt = |e: crate::campaign::CampaignError| {
        ctx.corrupt(format!("campaign {id} events"), e.to_string())
    };
    let mut record =
        CampaignRecord::from_parts(uid, genesis, campaign, events, basis.admissions.clone())
            .map_err(corrupt)?;
    record.with_basis(basis).map_err(corrupt)?;
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
    signer: (&Recorder, &MachineKey, &Membership),
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
    let event = Event::BattleAdded {
        plan: crate::campaign::BattlePlan::clone(plan),
    };
    let first = Position {
        follows: None,
        seq: 1,
    };
    let logged = record_event(conn, ctx, battle, first, &event, signer, now)?;
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
    signer: (&Recorder, &MachineKey, &Membership),
    now: i64,
) -> Result<LoggedEvent, StoreError> {
    let (by, key, membership) = signer;
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
    let taken = !event.is_meta_choice() && in_play_after(conn, ctx, battle, &follows, membership)?;
    if taken || parent_seq.map(|s| s + 1) != Some(at.seq) {
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
    check_line_limits(conn, ctx, battle, at, event)?;
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
    let recorded_at = recording_time(conn, ctx, battle, campaign, at, now)?;
    let mut logged = LoggedEvent {
        id: EventUid(Uuid::nil()),
        follows: at.follows,
        seq: at.seq,
        recorded_at,
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

/// Whether an event in play already follows `follows` in battle `battle` (a choice aside): one
/// signed by a key not admitted under the names it claims is no table's play, and recording
/// beside it makes the fork its settlement will show.
fn in_play_after(
    conn: &Connection,
    ctx: &Ctx,
    battle: BattleId,
    follows: &Option<String>,
    membership: &Membership,
) -> Result<bool, StoreError> {
    let signers: Vec<(Option<String>, String, String)> = conn
        .prepare_cached(queries::EVENT_AFTER)
        .and_then(|mut stmt| {
            stmt.query_map(params![battle, follows], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?))
            })?
            .collect()
        })
        .map_err(ctx.err("reading a battle's log"))?;
    Ok(signers.into_iter().any(|(signer, player, machine)| {
        let Some(key) =
            signer.and_then(|k| serde_json::from_value(serde_json::Value::String(k)).ok())
        else {
            return true;
        };
        membership
            .standing(key, &Recorder { player, machine })
            .is_none_or(Standing::in_play)
    }))
}

/// The limits of the line an event recorded at `at` joins ([`merge::check_limits`]): what a
/// merge would refuse is refused here, in the same words, so what one machine records every
/// machine takes.
fn check_line_limits(
    conn: &Connection,
    ctx: &Ctx,
    battle: BattleId,
    at: Position,
    event: &Event,
) -> Result<(), StoreError> {
    let is_note = matches!(event, Event::Note { .. });
    let notes_before: i64 = match (is_note, at.follows) {
        (true, Some(parent)) => conn
            .prepare_cached(queries::EVENT_LINE_NOTES)
            .and_then(|mut stmt| {
                stmt.query_row(params![battle, parent.0.to_string()], |row| row.get(0))
            })
            .map_err(ctx.err("reading a battle's log"))?,
        _ => 0,
    };
    merge::check_limits(
        at.seq,
        is_note,
        usize::try_from(notes_before).unwrap_or(usize::MAX),
    )
    .map_err(|m| StoreError::invalid("event", m))
}

/// When an event recorded `now` at `at` is recorded: now, when the computer's clock shows a
/// date events can have; else just after the event it follows (or after the campaign began),
/// so a computer without a set clock (a Raspberry Pi with no clock battery) still records.
fn recording_time(
    conn: &Connection,
    ctx: &Ctx,
    battle: BattleId,
    campaign: CampaignId,
    at: Position,
    now: i64,
) -> Result<String, StoreError> {
    use crate::campaign::time;
    if time::in_range(now) {
        return Ok(time::format_millis(now));
    }
    let before: Option<String> = match at.follows {
        Some(parent) => conn
            .prepare_cached(queries::EVENT_TIME)
            .and_then(|mut stmt| {
                stmt.query_row(params![battle, parent.0.to_string()], |row| row.get(0))
                    .optional()
            })
            .map_err(ctx.err("reading a battle's log"))?,
        None => genesis_of(conn, ctx, campaign)?.map(|g| g.created_at),
    };
    let after = before
        .and_then(|t| time::parse_millis(&t).ok())
        .map_or_else(time::earliest_millis, |t| t + 1);
    Ok(time::format_millis(after))
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

/// Refuses to record as names the campaign does not admit this key under: names another key
/// holds, or names another key claims too (its events would be set aside on every machine).
/// Returns whether this machine, a member, should admit its own names now (its first event
/// under them), so they are firm before anyone can claim them.
pub(crate) fn check_recorder(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
    by: &Recorder,
    key: &MachineKey,
) -> Result<(bool, Membership), StoreError> {
    let mine = key.public();
    let mut basis = membership_basis(conn, ctx, id)?;
    basis.signed.insert((mine, by.clone()));
    let membership = Membership::resolve(&basis);
    let Some(Standing::Withheld { others, held }) = membership.standing(mine, by) else {
        let admit_self = membership.is_member(&mine)
            && matches!(membership.standing(mine, by), Some(Standing::Claimant));
        return Ok((admit_self, membership));
    };
    let theirs: Vec<String> = others.iter().map(PublicKey::fingerprint).collect();
    let name = identity(conn, ctx, id)?.0;
    let names = if by.machine.is_empty() {
        format!("\"{}\"", by.player)
    } else {
        format!("\"{}\" --machine \"{}\"", by.player, by.machine)
    };
    let what = if *held {
        format!(
            "'{}' is held in this campaign by key {}",
            by.label(),
            theirs.join(" and key ")
        )
    } else {
        format!(
            "key {} claims '{}' too, and no player has admitted either",
            theirs.join(" and key "),
            by.label()
        )
    };
    Err(StoreError::NotAdmitted {
        message: format!(
            "{what}: events recorded here under that name would be set aside on every machine. If this machine is that player's (key {}), a player already admitted settles it, once this machine's key has reached the folder: `quartermaster campaign admit \"{name}\" {names} --key {}`; or give this machine another name: `quartermaster campaign player --machine NAME`",
            mine.fingerprint(),
            mine.fingerprint()
        ),
    })
}

/// A member's admission of its own names, signed with `key` at `recorded_at`: stored with the
/// first event it records under them.
pub(crate) fn admit_self(
    conn: &Connection,
    ctx: &Ctx,
    id: CampaignId,
    by: &Recorder,
    key: &MachineKey,
    recorded_at: &str,
) -> Result<Admission, StoreError> {
    let uid = uid_of(conn, ctx, id)?;
    let admission = Admission::new(
        key,
        uid,
        recorded_at.to_string(),
        by.clone(),
        key.public(),
        by.clone(),
        Vec::new(),
    );
    insert_admission(conn, ctx, id, &admission)?;
    Ok(admission)
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
        queries::CAMPAIGN_ADMISSIONS_DELETE,
        queries::CAMPAIGN_SIGNERS_DELETE,
        queries::CAMPAIGN_BATTLES_DELETE,
        queries::CAMPAIGN_DELETE,
    ] {
        conn.prepare_cached(query)
            .and_then(|mut stmt| stmt.execute([id]))
            .map_err(ctx.err("deleting a campaign"))?;
    }
    Ok(())
}
