//! The `cards` table: the books' cards (read-only, refreshed from the app's data) and the
//! player's custom cards.

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;

use super::Ctx;
use super::error::StoreError;
use super::forces::card_json;
use super::ids::CardId;
use super::queries;
use crate::rules::{self, Card, RulesetId};

/// Where a card comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CardOrigin {
    /// A rule book's card: read-only, refreshed when the app's book data changes.
    Book,
    /// A card the player made (from scratch or by duplicating a book card).
    Custom,
}

/// A card with its row id, origin and the book data revision it came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoredCard {
    pub id: CardId,
    pub origin: CardOrigin,
    /// The book data revision (book cards; custom cards duplicated from one).
    pub data_revision: Option<u32>,
    pub card: Card,
}

/// Writes the books' cards into the table where it has none of a ruleset's or older ones.
/// Returns how many rulesets were (re)seeded. Call inside a transaction.
pub(crate) fn seed_books(conn: &Connection, ctx: &Ctx) -> Result<usize, StoreError> {
    let mut seeded = 0;
    for ruleset in rules::all_rulesets() {
        let id = ruleset.id().as_str();
        let revision = i64::from(ruleset.data_revision());
        if books_up_to_date(conn, ctx, ruleset)? {
            continue;
        }
        let mut upsert = conn
            .prepare_cached(queries::BOOK_CARD_UPSERT)
            .map_err(ctx.err("seeding book cards"))?;
        for card in ruleset.library() {
            upsert
                .execute(params![id, card.name(), revision, card_json(card)?])
                .map_err(ctx.err("seeding book cards"))?;
        }
        conn.prepare_cached(queries::BOOK_CARDS_PRUNE)
            .and_then(|mut stmt| stmt.execute(params![id, revision]))
            .map_err(ctx.err("removing book cards the book no longer has"))?;
        seeded += 1;
    }
    Ok(seeded)
}

/// Whether any ruleset's book cards are missing or older than this build's data (a read).
pub(crate) fn books_need_seeding(conn: &Connection, ctx: &Ctx) -> Result<bool, StoreError> {
    for ruleset in rules::all_rulesets() {
        if !books_up_to_date(conn, ctx, ruleset)? {
            return Ok(true);
        }
    }
    Ok(false)
}

fn books_up_to_date(
    conn: &Connection,
    ctx: &Ctx,
    ruleset: &dyn rules::Ruleset,
) -> Result<bool, StoreError> {
    let revision = i64::from(ruleset.data_revision());
    let (stored, count): (Option<i64>, i64) = conn
        .prepare_cached(queries::BOOK_REVISION)
        .and_then(|mut stmt| {
            stmt.query_row([ruleset.id().as_str()], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })
        })
        .map_err(ctx.err("reading the book cards' revision"))?;
    Ok(stored.is_some_and(|s| s >= revision)
        && usize::try_from(count).is_ok_and(|c| c == ruleset.library().len()))
}

fn row_to_card(row: &Row<'_>) -> rusqlite::Result<(CardId, String)> {
    Ok((row.get(0)?, row.get(1)?))
}

/// Every card of one origin, by ruleset and name.
pub(crate) fn list(
    conn: &Connection,
    ctx: &Ctx,
    origin: CardOrigin,
) -> Result<Vec<(CardId, Card)>, StoreError> {
    list_with_progress(conn, ctx, origin, &mut |_| {})
}

/// How often [`list_with_progress`] reports.
const PROGRESS_EVERY: usize = 5_000;

/// [`list`], calling `progress` with the number of cards decoded every few thousand cards.
pub(crate) fn list_with_progress(
    conn: &Connection,
    ctx: &Ctx,
    origin: CardOrigin,
    progress: &mut dyn FnMut(usize),
) -> Result<Vec<(CardId, Card)>, StoreError> {
    let origin = origin_text(origin);
    let mut stmt = conn
        .prepare_cached(queries::CARDS_SELECT)
        .map_err(ctx.err("listing cards"))?;
    let mut rows = stmt.query([origin]).map_err(ctx.err("listing cards"))?;
    let mut cards = Vec::new();
    while let Some(row) = rows.next().map_err(ctx.err("listing cards"))? {
        let (id, body) = row_to_card(row).map_err(ctx.err("listing cards"))?;
        cards.push((id, decode(ctx, id, &body)?));
        if cards.len().is_multiple_of(PROGRESS_EVERY) {
            progress(cards.len());
        }
    }
    progress(cards.len());
    Ok(cards)
}

/// How many cards of one origin there are.
pub(crate) fn count(conn: &Connection, ctx: &Ctx, origin: CardOrigin) -> Result<usize, StoreError> {
    let n: i64 = conn
        .prepare_cached(queries::CARDS_COUNT)
        .and_then(|mut stmt| stmt.query_row([origin_text(origin)], |row| row.get(0)))
        .map_err(ctx.err("counting cards"))?;
    Ok(usize::try_from(n).unwrap_or(0))
}

fn decode(ctx: &Ctx, id: CardId, body: &str) -> Result<Card, StoreError> {
    serde_json::from_str(body)
        .map_err(|e| ctx.corrupt(format!("cards row {id} body"), e.to_string()))
}

fn origin_text(origin: CardOrigin) -> &'static str {
    match origin {
        CardOrigin::Book => "book",
        CardOrigin::Custom => "custom",
    }
}

/// One card by id.
pub(crate) fn get(conn: &Connection, ctx: &Ctx, id: CardId) -> Result<StoredCard, StoreError> {
    let row: Option<(String, Option<i64>, String)> = conn
        .prepare_cached(queries::CARD_SELECT)
        .and_then(|mut stmt| {
            stmt.query_row([id], |row| Ok((row.get(1)?, row.get(2)?, row.get(3)?)))
                .optional()
        })
        .map_err(ctx.err("loading a card"))?;
    let (origin, revision, body) = row.ok_or(StoreError::CardNotFound(id))?;
    let origin = match origin.as_str() {
        "book" => CardOrigin::Book,
        _ => CardOrigin::Custom,
    };
    Ok(StoredCard {
        id,
        origin,
        data_revision: revision.and_then(|r| u32::try_from(r).ok()),
        card: decode(ctx, id, &body)?,
    })
}

/// Refuses a card its ruleset would not accept in a force file, naming the field.
pub(crate) fn check_card(card: &Card) -> Result<(), StoreError> {
    rules::ruleset(card.ruleset())
        .parse_inline_card(&card.to_inline_json(), "card")
        .map(|_| ())
        .map_err(super::from_rules)
}

/// Inserts or updates a custom card; book cards are refused. Call inside a transaction.
pub(crate) fn save_custom(
    conn: &Connection,
    ctx: &Ctx,
    id: Option<CardId>,
    card: &Card,
    data_revision: Option<u32>,
) -> Result<CardId, StoreError> {
    check_card(card)?;
    let body = card_json(card)?;
    let ruleset = card.ruleset().as_str();
    match id {
        None => {
            conn.prepare_cached(queries::CUSTOM_CARD_INSERT)
                .and_then(|mut stmt| {
                    stmt.execute(params![ruleset, card.name(), data_revision, body])
                })
                .map_err(ctx.err("saving a custom card"))?;
            Ok(CardId(conn.last_insert_rowid()))
        }
        Some(id) => {
            let changed = conn
                .prepare_cached(queries::CUSTOM_CARD_UPDATE)
                .and_then(|mut stmt| stmt.execute(params![id, ruleset, card.name(), body]))
                .map_err(ctx.err("saving a custom card"))?;
            if changed == 0 {
                return Err(not_custom(conn, ctx, id));
            }
            Ok(id)
        }
    }
}

/// Deletes a custom card; book cards are refused.
pub(crate) fn delete_custom(conn: &Connection, ctx: &Ctx, id: CardId) -> Result<(), StoreError> {
    let deleted = conn
        .prepare_cached(queries::CUSTOM_CARD_DELETE)
        .and_then(|mut stmt| stmt.execute([id]))
        .map_err(ctx.err("deleting a custom card"))?;
    if deleted == 0 {
        return Err(not_custom(conn, ctx, id));
    }
    Ok(())
}

/// Why `id` could not be changed as a custom card: it is a book card, or there is none.
fn not_custom(conn: &Connection, ctx: &Ctx, id: CardId) -> StoreError {
    match get(conn, ctx, id) {
        Ok(stored) if stored.origin == CardOrigin::Book => StoreError::ReadOnlyCard {
            id,
            name: stored.card.name().to_string(),
        },
        Ok(_) | Err(StoreError::CardNotFound(_)) => StoreError::CardNotFound(id),
        Err(other) => other,
    }
}

/// `card` renamed: its inline fields with a new `name`, re-read by its ruleset.
pub(crate) fn renamed(card: &Card, name: &str) -> Result<Card, StoreError> {
    let mut fields = card.to_inline_json();
    if let Some(map) = fields.as_object_mut() {
        map.insert("name".into(), serde_json::Value::String(name.to_string()));
    }
    rules::ruleset(card.ruleset())
        .parse_inline_card(&fields, "card")
        .map_err(super::from_rules)
}

/// Cards of one ruleset only.
pub(crate) fn of_ruleset(
    cards: Vec<(CardId, Card)>,
    ruleset: Option<RulesetId>,
) -> Vec<(CardId, Card)> {
    match ruleset {
        Some(id) => cards
            .into_iter()
            .filter(|(_, c)| c.ruleset() == id)
            .collect(),
        None => cards,
    }
}
