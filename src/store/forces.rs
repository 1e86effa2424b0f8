//! Forces as rows: the `forces` table and its unit lines in `force_units`, with each library
//! card pinned as it was when the force was saved.

use super::rows::AllRows;
use std::collections::HashMap;
use std::fmt;
use std::sync::LazyLock;

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;

use super::Ctx;
use super::error::StoreError;
use super::ids::ForceId;
use super::queries;
use crate::rules::validation::resolve_cards;
use crate::rules::{self, Budget, Card, CardRef, Force, ForceUnit, RulesetId, force_file, names};

/// One line of the force list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ForceSummary {
    pub id: ForceId,
    pub name: String,
    pub ruleset: RulesetId,
    /// Units in the force (line counts summed).
    pub units: u64,
    /// When the force was last saved, UTC, ISO 8601 (`2026-03-14T09:30:05.123Z`).
    pub updated_at: String,
}

/// A force as loaded: the force itself and what changed in the book since it was saved.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredForce {
    pub id: ForceId,
    pub force: Force,
    /// Book cards used by the force whose data differs from when the force was saved.
    pub card_changes: Vec<CardChange>,
}

/// One difference between a library card as pinned when the force was saved and the card in
/// the current book data. The unit keeps its card name either way; nothing is dropped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CardChange {
    /// The unit line (0-based) using the card.
    pub unit_index: usize,
    /// The card's name as the book prints it.
    pub card: String,
    /// The card field that changed (`at_dice`, `reaction`, …), or `card` when the book no
    /// longer has the card at all.
    pub field: String,
    /// The value when the force was saved, as JSON text (`—` when the field was absent).
    pub old: String,
    /// The value now (`—` when absent; `missing` when the card is gone).
    pub new: String,
    /// The book data revision the pinned card came from.
    pub saved_revision: Option<u32>,
    /// The book data revision of this build.
    pub current_revision: u32,
}

impl CardChange {
    /// True when the book data no longer has the card.
    pub fn card_removed(&self) -> bool {
        self.field == "card"
    }
}

impl fmt::Display for CardChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line = self.unit_index + 1;
        if self.card_removed() {
            write!(
                f,
                "{} (line {line}): no longer in the book data — the unit keeps its name; replace it or add it as a custom card",
                self.card
            )
        } else {
            write!(
                f,
                "{} (line {line}): {} was {}, the book data now says {}",
                self.card, self.field, self.old, self.new
            )
        }
    }
}

/// A `forces` row as stored.
struct ForceRow {
    id: ForceId,
    ruleset: String,
    name: String,
    budget_kind: String,
    budget_amount: Option<i64>,
    budget_id: Option<String>,
    notes: String,
    budget_org: Option<String>,
}

/// A `force_units` row as stored.
struct UnitRow {
    force_id: ForceId,
    position: i64,
    card_name: String,
    inline_card: Option<String>,
    pinned_card: Option<String>,
    data_revision: Option<i64>,
    count: i64,
    group_name: Option<String>,
    points: Option<i64>,
    stands: Option<i64>,
}

fn row_to_force(row: &Row<'_>) -> rusqlite::Result<ForceRow> {
    Ok(ForceRow {
        id: row.get(0)?,
        ruleset: row.get(1)?,
        name: row.get(2)?,
        budget_kind: row.get(3)?,
        budget_amount: row.get(4)?,
        budget_id: row.get(5)?,
        notes: row.get(6)?,
        budget_org: row.get(7)?,
    })
}

fn row_to_unit(row: &Row<'_>) -> rusqlite::Result<UnitRow> {
    Ok(UnitRow {
        force_id: row.get(0)?,
        position: row.get(1)?,
        card_name: row.get(2)?,
        inline_card: row.get(3)?,
        pinned_card: row.get(4)?,
        data_revision: row.get(5)?,
        count: row.get(6)?,
        group_name: row.get(7)?,
        points: row.get(8)?,
        stands: row.get(9)?,
    })
}

fn row_to_summary(row: &Row<'_>) -> rusqlite::Result<(ForceId, String, String, i64, String)> {
    Ok((
        row.get(0)?,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
        row.get(4)?,
    ))
}

/// Refuses a force that could not be written as a force file: the same limits and the same
/// field paths (`units[3].count`) as importing one.
pub(crate) fn check_force(force: &Force) -> Result<(), StoreError> {
    force_file::parse(&force_file::to_json(force))
        .map(|_| ())
        .map_err(super::from_rules)
}

/// The force of this name, ignoring case (Unicode's simple folding, [`names::fold`]).
pub(crate) fn find(
    conn: &Connection,
    ctx: &Ctx,
    name: &str,
) -> Result<Option<ForceId>, StoreError> {
    let key = names::fold(name);
    Ok(all_names(conn, ctx)?
        .into_iter()
        .find(|(_, n)| names::fold(n) == key)
        .map(|(id, _)| id))
}

/// Every force's id and name (a thousand forces are a few microseconds to compare in Rust,
/// which folds case for every alphabet where SQLite folds only A–Z).
fn all_names(conn: &Connection, ctx: &Ctx) -> Result<Vec<(ForceId, String)>, StoreError> {
    conn.all_rows(queries::FORCE_NAMES, [], |row| {
        Ok((row.get(0)?, row.get(1)?))
    })
    .map_err(ctx.err("reading the force names"))
}

/// Inserts (`id` None) or replaces a force with all its unit lines. Call inside a transaction.
pub(crate) fn save(
    conn: &Connection,
    ctx: &Ctx,
    id: Option<ForceId>,
    force: &Force,
) -> Result<ForceId, StoreError> {
    check_force(force)?;
    let key = names::fold(&force.name);
    let taken = all_names(conn, ctx)?
        .into_iter()
        .find(|(other, n)| Some(*other) != id && names::fold(n) == key)
        .map(|(_, n)| n);
    if let Some(name) = taken {
        return Err(StoreError::DuplicateForceName { name });
    }
    let (kind, amount, budget_id) = budget_columns(&force.budget);
    let org = match &force.budget {
        Budget::ForceOrg(org) => Some(
            serde_json::to_string(org).map_err(|e| StoreError::invalid("budget", e.to_string()))?,
        ),
        _ => None,
    };
    // The insert's parameters in order; the update takes the force's id before them.
    let columns = params![
        force.ruleset.as_str(),
        force.name,
        kind,
        amount,
        budget_id,
        force.notes,
        org
    ];
    let id = match id {
        None => {
            conn.prepare_cached(queries::FORCE_INSERT)
                .and_then(|mut stmt| stmt.execute(columns))
                .map_err(ctx.err("saving a force"))?;
            ForceId(conn.last_insert_rowid())
        }
        Some(id) => {
            let changed = conn
                .prepare_cached(queries::FORCE_UPDATE)
                .and_then(|mut stmt| {
                    let id: &dyn rusqlite::ToSql = &id;
                    stmt.execute(rusqlite::params_from_iter(
                        std::iter::once(id).chain(columns.iter().copied()),
                    ))
                })
                .map_err(ctx.err("saving a force"))?;
            if changed == 0 {
                return Err(StoreError::ForceNotFound(id));
            }
            conn.prepare_cached(queries::FORCE_UNITS_DELETE)
                .and_then(|mut stmt| stmt.execute([id]))
                .map_err(ctx.err("replacing a force's units"))?;
            id
        }
    };
    write_units(conn, ctx, id, force)?;
    Ok(id)
}

fn budget_columns(budget: &Budget) -> (&'static str, Option<i64>, Option<&str>) {
    match budget {
        Budget::Points(n) | Budget::TierPoints(n) => (budget.kind(), Some(i64::from(*n)), None),
        // Stored as its points limit; the organisation goes in its own column (migration 0006).
        Budget::ForceOrg(org) => ("points", Some(i64::from(org.points)), None),
        Budget::BattleGroup(id) | Budget::Scenario(id) => (budget.kind(), None, Some(id.as_str())),
    }
}

fn write_units(conn: &Connection, ctx: &Ctx, id: ForceId, force: &Force) -> Result<(), StoreError> {
    let cards = resolve_cards(force);
    let revision = rules::ruleset(force.ruleset).data_revision();
    let mut stmt = conn
        .prepare_cached(queries::FORCE_UNIT_INSERT)
        .map_err(ctx.err("saving a force's units"))?;
    for (position, (unit, card)) in force.units.iter().zip(cards).enumerate() {
        let (inline, pinned, pinned_revision) = match &unit.card {
            CardRef::Inline(card) => (Some(card_json(card)?), None, None),
            CardRef::Library(_) => match card {
                Some(card) => (None, Some(book_json(card)?), Some(revision)),
                None => (None, None, None),
            },
        };
        stmt.execute(params![
            id,
            position as i64,
            unit.card.name(),
            inline,
            pinned,
            pinned_revision,
            unit.count,
            unit.group,
            unit.points,
            unit.stands,
        ])
        .map_err(ctx.err("saving a force's units"))?;
    }
    Ok(())
}

/// A card as stored: JSON tagged with its ruleset.
pub(crate) fn card_json(card: &Card) -> Result<String, StoreError> {
    serde_json::to_string(card).map_err(|e| StoreError::invalid("card", e.to_string()))
}

/// The JSON of each book card of this build, computed once: pinned cards are compared to it.
static BOOK_JSON: LazyLock<HashMap<(RulesetId, &'static str), String>> = LazyLock::new(|| {
    rules::all_rulesets()
        .flat_map(|r| r.library())
        .filter_map(|card| {
            Some((
                (card.ruleset(), card.name()),
                serde_json::to_string(card).ok()?,
            ))
        })
        .collect()
});

fn book_json(card: &Card) -> Result<String, StoreError> {
    match BOOK_JSON.get(&(card.ruleset(), card.name())) {
        Some(json) => Ok(json.clone()),
        None => card_json(card),
    }
}

/// Deletes a force and its unit lines.
pub(crate) fn delete(conn: &Connection, ctx: &Ctx, id: ForceId) -> Result<(), StoreError> {
    let deleted = conn
        .prepare_cached(queries::FORCE_DELETE)
        .and_then(|mut stmt| stmt.execute([id]))
        .map_err(ctx.err("deleting a force"))?;
    if deleted == 0 {
        return Err(StoreError::ForceNotFound(id));
    }
    Ok(())
}

/// Every force, summarised, by name.
pub(crate) fn list(conn: &Connection, ctx: &Ctx) -> Result<Vec<ForceSummary>, StoreError> {
    let mut stmt = conn
        .prepare_cached(queries::FORCES_LIST)
        .map_err(ctx.err("listing forces"))?;
    let rows = stmt
        .query_map([], row_to_summary)
        .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
        .map_err(ctx.err("listing forces"))?;
    rows.into_iter()
        .map(|row| summary_from_row(ctx, row))
        .collect()
}

/// One force's summary, as [`list`] gives it, for updating a list after one change.
pub(crate) fn summary(
    conn: &Connection,
    ctx: &Ctx,
    id: ForceId,
) -> Result<ForceSummary, StoreError> {
    let row = conn
        .prepare_cached(queries::FORCE_SUMMARY)
        .and_then(|mut stmt| stmt.query_row([id], row_to_summary).optional())
        .map_err(ctx.err("summarising a force"))?
        .ok_or(StoreError::ForceNotFound(id))?;
    summary_from_row(ctx, row)
}

fn summary_from_row(
    ctx: &Ctx,
    (id, name, ruleset, units, updated_at): (ForceId, String, String, i64, String),
) -> Result<ForceSummary, StoreError> {
    Ok(ForceSummary {
        id,
        ruleset: parse_ruleset(ctx, id, &ruleset)?,
        name,
        units: u64::try_from(units).unwrap_or_default(),
        updated_at,
    })
}

/// One force with its unit lines and card changes.
pub(crate) fn load(conn: &Connection, ctx: &Ctx, id: ForceId) -> Result<StoredForce, StoreError> {
    let head = conn
        .prepare_cached(queries::FORCE_SELECT)
        .and_then(|mut stmt| stmt.query_row([id], row_to_force).optional())
        .map_err(ctx.err("loading a force"))?
        .ok_or(StoreError::ForceNotFound(id))?;
    let units = conn
        .all_rows(queries::FORCE_UNITS_SELECT, [id], row_to_unit)
        .map_err(ctx.err("loading a force's units"))?;
    decode(ctx, head, units)
}

/// Every force, by name, in two queries.
pub(crate) fn load_all(conn: &Connection, ctx: &Ctx) -> Result<Vec<StoredForce>, StoreError> {
    let heads = conn
        .all_rows(queries::FORCES_SELECT_ALL, [], row_to_force)
        .map_err(ctx.err("loading forces"))?;
    let mut units: HashMap<ForceId, Vec<UnitRow>> = HashMap::with_capacity(heads.len());
    conn.prepare_cached(queries::FORCE_UNITS_SELECT_ALL)
        .and_then(|mut stmt| {
            let mut rows = stmt.query([])?;
            while let Some(row) = rows.next()? {
                let unit = row_to_unit(row)?;
                units.entry(unit.force_id).or_default().push(unit);
            }
            Ok(())
        })
        .map_err(ctx.err("loading forces' units"))?;
    heads
        .into_iter()
        .map(|head| {
            let lines = units.remove(&head.id).unwrap_or_default();
            decode(ctx, head, lines)
        })
        .collect()
}

fn parse_ruleset(ctx: &Ctx, id: ForceId, text: &str) -> Result<RulesetId, StoreError> {
    text.parse().map_err(|e: rules::RulesError| {
        ctx.corrupt(format!("forces row {id} ruleset"), e.to_string())
    })
}

fn decode(ctx: &Ctx, head: ForceRow, rows: Vec<UnitRow>) -> Result<StoredForce, StoreError> {
    let id = head.id;
    let ruleset = parse_ruleset(ctx, id, &head.ruleset)?;
    let budget = decode_budget(ctx, &head)?;
    let current_revision = rules::ruleset(ruleset).data_revision();
    let mut units = Vec::with_capacity(rows.len());
    let mut card_changes = Vec::new();
    for (index, row) in rows.into_iter().enumerate() {
        let at = |column: &str| format!("force_units row ({id}, {}) {column}", row.position);
        let card = match &row.inline_card {
            Some(json) => CardRef::Inline(
                serde_json::from_str(json)
                    .map_err(|e| ctx.corrupt(at("inline_card"), e.to_string()))?,
            ),
            None => CardRef::Library(row.card_name.clone()),
        };
        if let (CardRef::Library(name), Some(pinned)) = (&card, &row.pinned_card) {
            let saved_revision = row.data_revision.and_then(|r| u32::try_from(r).ok());
            card_changes.extend(compare_pinned(
                ruleset,
                index,
                name,
                pinned,
                saved_revision,
                current_revision,
            ));
        }
        let count = u32::try_from(row.count)
            .ok()
            .filter(|c| *c >= 1)
            .ok_or_else(|| {
                ctx.corrupt(at("count"), format!("{} is not a unit count", row.count))
            })?;
        let number = |value: Option<i64>, column: &str| -> Result<Option<u32>, StoreError> {
            value
                .map(|v| {
                    u32::try_from(v)
                        .map_err(|_| ctx.corrupt(at(column), format!("{v} is out of range")))
                })
                .transpose()
        };
        units.push(ForceUnit {
            card,
            count,
            group: row.group_name,
            points: number(row.points, "points")?,
            stands: number(row.stands, "stands")?,
        });
    }
    Ok(StoredForce {
        id,
        force: Force {
            ruleset,
            name: head.name,
            budget,
            units,
            notes: head.notes,
        },
        card_changes,
    })
}

fn decode_budget(ctx: &Ctx, head: &ForceRow) -> Result<Budget, StoreError> {
    let amount = || {
        head.budget_amount
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| {
                ctx.corrupt(
                    format!("forces row {} budget_amount", head.id),
                    format!("{:?} is not a budget amount", head.budget_amount),
                )
            })
    };
    let budget_id = || {
        head.budget_id.clone().ok_or_else(|| {
            ctx.corrupt(
                format!("forces row {} budget_id", head.id),
                "missing".to_string(),
            )
        })
    };
    Ok(match head.budget_kind.as_str() {
        "points" => match &head.budget_org {
            None => Budget::Points(amount()?),
            Some(json) => {
                let org: rules::army_data::ForceOrg = serde_json::from_str(json).map_err(|e| {
                    ctx.corrupt(format!("forces row {} budget_org", head.id), e.to_string())
                })?;
                Budget::ForceOrg(Box::new(org.with_points(amount()?)))
            }
        },
        "tier_points" => Budget::TierPoints(amount()?),
        "battle_group" => Budget::BattleGroup(budget_id()?),
        "scenario" => Budget::Scenario(budget_id()?),
        other => {
            return Err(ctx.corrupt(
                format!("forces row {} budget_kind", head.id),
                format!("'{other}' is not a budget kind"),
            ));
        }
    })
}

/// What differs between the card pinned at save time and the book's card of that name now.
fn compare_pinned(
    ruleset: RulesetId,
    unit_index: usize,
    name: &str,
    pinned: &str,
    saved_revision: Option<u32>,
    current_revision: u32,
) -> Vec<CardChange> {
    let library = rules::ruleset(ruleset).library();
    let change = |card: &str, field: String, old: String, new: String| CardChange {
        unit_index,
        card: card.to_string(),
        field,
        old,
        new,
        saved_revision,
        current_revision,
    };
    let Some(current) = names::find(library, name) else {
        return vec![change(
            name,
            "card".into(),
            "in the book".into(),
            "missing".into(),
        )];
    };
    let current_json = BOOK_JSON.get(&(ruleset, current.name()));
    if current_json.is_some_and(|json| json == pinned) {
        return Vec::new();
    }
    // Compare field by field as JSON, so a pinned card from an older build whose fields no
    // longer match today's types still yields a readable difference.
    let old: serde_json::Value = serde_json::from_str(pinned).unwrap_or(serde_json::Value::Null);
    let new = serde_json::to_value(current).unwrap_or(serde_json::Value::Null);
    let (Some(old), Some(new)) = (old.as_object(), new.as_object()) else {
        return vec![change(
            current.name(),
            "card".into(),
            pinned.into(),
            "unreadable".into(),
        )];
    };
    let fields: Vec<&String> = new
        .keys()
        .chain(old.keys().filter(|k| !new.contains_key(*k)))
        .collect();
    fields
        .into_iter()
        .filter(|field| old.get(*field) != new.get(*field))
        .map(|field| {
            change(
                current.name(),
                field.clone(),
                value_text(old.get(field)),
                value_text(new.get(field)),
            )
        })
        .collect()
}

fn value_text(value: Option<&serde_json::Value>) -> String {
    match value {
        None | Some(serde_json::Value::Null) => "—".to_string(),
        Some(serde_json::Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
    }
}
