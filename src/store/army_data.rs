//! The `army_data` table: the BattleScribe game systems and catalogues a player imported, one
//! row per revision, with the cards and force organisations read from each. An import is one
//! transaction: a file that cannot be stored (a revision reused with other contents) leaves
//! nothing of the import behind.

use super::rows::AllRows;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;

use super::Ctx;
use super::error::StoreError;
use super::queries;
use crate::rules::army_data::{DataRef, ForceOrg, Import, ImportFile, ImportedFile};
use crate::rules::battlescribe::{DataError, FileKind, Note};
use crate::rules::{Card, RulesetId};

/// One stored revision of a game system or catalogue.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoredData {
    pub ruleset: RulesetId,
    /// `game_system` or `catalogue`.
    pub kind: String,
    pub source: DataRef,
    pub digest: String,
    pub file_name: String,
    /// Cards read from a catalogue.
    #[serde(skip)]
    pub cards: Vec<Card>,
    /// How many cards (units) it gave.
    pub units: usize,
    #[serde(skip)]
    pub force_orgs: Vec<ForceOrg>,
    /// The force organisations' names.
    pub organisations: Vec<String>,
    pub notes: Vec<Note>,
    pub imported_at: String,
}

/// What storing one file of an import did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FileStatus {
    /// A catalogue or system not imported before.
    New,
    /// A newer revision than the newest stored (which was this one).
    Newer { previous: u32 },
    /// The same revision, byte for byte: nothing stored.
    Unchanged,
    /// An older revision than the newest stored: kept for forces priced with it.
    Older { newest: u32 },
}

/// One file of an import as stored.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoredFile {
    pub kind: &'static str,
    pub source: DataRef,
    pub file: String,
    pub status: FileStatus,
    pub units: usize,
    pub organisations: Vec<String>,
    pub notes: Vec<Note>,
}

fn kind_word(kind: FileKind) -> &'static str {
    match kind {
        FileKind::GameSystem => "game_system",
        FileKind::Catalogue => "catalogue",
    }
}

fn json<T: Serialize>(value: &T, what: &str) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::invalid(what, e.to_string()))
}

/// Stores every file of `import`. Call inside a transaction: an error leaves nothing behind.
pub(crate) fn store_import(
    conn: &Connection,
    ctx: &Ctx,
    import: &Import,
) -> Result<Vec<StoredFile>, StoreError> {
    let stored = list(conn, ctx)?;
    let mut out = Vec::new();
    for file in &import.files {
        out.push(store_file(conn, ctx, import.ruleset, file, &stored)?);
    }
    Ok(out)
}

fn store_file(
    conn: &Connection,
    ctx: &Ctx,
    ruleset: RulesetId,
    file: &ImportedFile,
    stored: &[StoredData],
) -> Result<StoredFile, StoreError> {
    let digest: Option<String> = conn
        .prepare_cached(queries::ARMY_DATA_DIGEST)
        .and_then(|mut stmt| {
            stmt.query_row(params![file.source.id, file.source.revision], |row| {
                row.get(0)
            })
            .optional()
        })
        .map_err(ctx.err("reading the army data's revisions"))?;
    let newest = stored
        .iter()
        .filter(|s| s.source.id == file.source.id)
        .map(|s| s.source.revision)
        .max();
    let status = match (digest, newest) {
        (Some(digest), _) if digest == file.digest => FileStatus::Unchanged,
        (Some(_), _) => {
            return Err(StoreError::ArmyData(DataError::RevisionReused {
                file: file.file.clone(),
                line: 1,
                name: file.source.name.clone(),
                revision: file.source.revision,
            }));
        }
        (None, None) => FileStatus::New,
        (None, Some(newest)) if newest > file.source.revision => FileStatus::Older { newest },
        (None, Some(previous)) => FileStatus::Newer { previous },
    };
    if status != FileStatus::Unchanged {
        let (cards, orgs, notes) = (
            json(&file.cards, "cards")?,
            json(&file.force_orgs, "force organisations")?,
            json(&file.notes, "notes")?,
        );
        conn.prepare_cached(queries::ARMY_DATA_INSERT)
            .and_then(|mut stmt| {
                stmt.execute(params![
                    ruleset.as_str(),
                    kind_word(file.kind),
                    file.source.id,
                    file.source.name,
                    file.source.revision,
                    file.digest,
                    file.file,
                    file.game_system_id,
                    file.text,
                    cards,
                    orgs,
                    notes,
                ])
            })
            .map_err(ctx.err("storing army data"))?;
    }
    Ok(StoredFile {
        kind: kind_word(file.kind),
        source: file.source.clone(),
        file: file.file.clone(),
        status,
        units: file.cards.len(),
        organisations: file.force_orgs.iter().map(|o| o.name.clone()).collect(),
        notes: file.notes.clone(),
    })
}

/// An `army_data` row as stored (`army_data_list.sql`).
struct DataRow {
    ruleset: String,
    kind: String,
    source_id: String,
    name: String,
    revision: i64,
    digest: String,
    file_name: String,
    cards: String,
    force_orgs: String,
    notes: String,
    imported_at: String,
}

fn row_to_file(row: &Row<'_>) -> rusqlite::Result<DataRow> {
    Ok(DataRow {
        ruleset: row.get(1)?,
        kind: row.get(2)?,
        source_id: row.get(3)?,
        name: row.get(4)?,
        revision: row.get(5)?,
        digest: row.get(6)?,
        file_name: row.get(7)?,
        cards: row.get(8)?,
        force_orgs: row.get(9)?,
        notes: row.get(10)?,
        imported_at: row.get(11)?,
    })
}

/// Every stored revision, newest of each first, game systems before catalogues.
pub(crate) fn list(conn: &Connection, ctx: &Ctx) -> Result<Vec<StoredData>, StoreError> {
    let rows: Vec<DataRow> = conn
        .all_rows(queries::ARMY_DATA_LIST, [], row_to_file)
        .map_err(ctx.err("listing army data"))?;
    rows.into_iter().map(|row| decode(ctx, row)).collect()
}

fn decode(ctx: &Ctx, row: DataRow) -> Result<StoredData, StoreError> {
    let corrupt = |column: &str, e: String| {
        ctx.corrupt(
            format!("army_data row {} r{} {column}", row.source_id, row.revision),
            e,
        )
    };
    let cards: Vec<Card> =
        serde_json::from_str(&row.cards).map_err(|e| corrupt("cards", e.to_string()))?;
    let force_orgs: Vec<ForceOrg> =
        serde_json::from_str(&row.force_orgs).map_err(|e| corrupt("force_orgs", e.to_string()))?;
    let notes = serde_json::from_str(&row.notes).map_err(|e| corrupt("notes", e.to_string()))?;
    let ruleset = row
        .ruleset
        .parse()
        .map_err(|e: crate::rules::RulesError| corrupt("ruleset", e.to_string()))?;
    Ok(StoredData {
        ruleset,
        kind: row.kind,
        source: DataRef {
            id: row.source_id,
            name: row.name,
            revision: u32::try_from(row.revision).unwrap_or_default(),
        },
        digest: row.digest,
        file_name: row.file_name,
        units: cards.len(),
        cards,
        organisations: force_orgs.iter().map(|o| o.name.clone()).collect(),
        force_orgs,
        notes,
        imported_at: row.imported_at,
    })
}

/// Every stored game system's XML, for reading a catalogue given without its system.
pub(crate) fn game_systems(conn: &Connection, ctx: &Ctx) -> Result<Vec<ImportFile>, StoreError> {
    conn.prepare_cached(queries::ARMY_DATA_SYSTEMS)
        .and_then(|mut stmt| {
            stmt.query_map([], |row| {
                let (name, text): (String, String) = (row.get(0)?, row.get(1)?);
                Ok(ImportFile {
                    name,
                    bytes: text.into_bytes(),
                })
            })?
            .collect()
        })
        .map_err(ctx.err("reading the stored game systems"))
}

/// The newest revision of each stored file: the data the library offers.
pub fn newest(all: &[StoredData]) -> Vec<&StoredData> {
    let mut out: Vec<&StoredData> = Vec::new();
    for data in all {
        match out.iter_mut().find(|d| d.source.id == data.source.id) {
            Some(have) if have.source.revision < data.source.revision => *have = data,
            Some(_) => {}
            None => out.push(data),
        }
    }
    out
}
