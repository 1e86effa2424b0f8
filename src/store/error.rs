//! Errors of the store: every message names the database file, the field or the value.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::ids::{BattleId, CampaignId, CardId, ForceId};

/// Everything the store can refuse or fail at.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The data directory or a file in it could not be read, created or written.
    #[error("{path}: {message}: {source}")]
    Io {
        path: PathBuf,
        message: &'static str,
        #[source]
        source: std::io::Error,
    },
    /// The data directory given is an existing file, not a folder.
    #[error(
        "{path} is a file, not a folder: the data directory (--data-dir DIR or QUARTERMASTER_DATA_DIR) must be a folder, existing or not"
    )]
    NotAFolder { path: PathBuf },
    /// No data directory was given and the platform has none (no home directory).
    #[error(
        "no data directory: pass --data-dir DIR or set QUARTERMASTER_DATA_DIR (the platform has no data directory for this user)"
    )]
    NoDataDir,
    /// The file is not a SQLite database, or not one of Quartermaster's. It was not touched.
    #[error("{path} is not a Quartermaster database: {what}; it was left untouched{}", refused_hint(.path, .backup.as_deref()))]
    NotADatabase {
        path: PathBuf,
        what: String,
        /// The newest backup in the data directory's `backups/`, if any.
        backup: Option<PathBuf>,
    },
    /// Army data that cannot be stored (a revision imported before with other contents).
    #[error(transparent)]
    ArmyData(#[from] crate::rules::battlescribe::DataError),
    /// The database fails SQLite's integrity check. It was not touched.
    #[error("{path} is damaged ({problem}); it was left untouched{}", refused_hint(.path, .backup.as_deref()))]
    Damaged {
        path: PathBuf,
        problem: String,
        /// The newest backup in the data directory's `backups/`, if any.
        backup: Option<PathBuf>,
    },
    /// The database was written by a newer Quartermaster. It was not touched.
    #[error(
        "{path} was written by a newer version of Quartermaster (schema version {found}; this version knows up to {supported}); it was left untouched — update Quartermaster to open it"
    )]
    TooNew {
        path: PathBuf,
        found: i64,
        supported: i64,
    },
    /// Another running Quartermaster held the database for longer than the busy timeout.
    #[error(
        "{path} is in use by another running Quartermaster (waited {waited_ms} ms); close it and try again"
    )]
    Busy { path: String, waited_ms: u128 },
    /// Upgrading the schema failed; the transaction rolled back, the database keeps its version.
    #[error(
        "{path}: upgrading the database from schema version {from} to {to} failed at migration {migration}: {message}; nothing was changed (a copy from before the upgrade is at {})",
        .backup.as_ref().map_or("(none — the database was new)".to_string(), |b| b.display().to_string())
    )]
    Migration {
        path: PathBuf,
        from: i64,
        to: i64,
        migration: &'static str,
        message: String,
        backup: Option<PathBuf>,
    },
    /// A value handed to the store is out of range or malformed; `field` is its path.
    #[error("{field}: {message}")]
    Invalid { field: String, message: String },
    /// Saving a force under a name another force already has.
    #[error("a force named '{name}' already exists (names are unique, ignoring case)")]
    DuplicateForceName { name: String },
    /// No force has this id.
    #[error("no force with id {0}")]
    ForceNotFound(ForceId),
    /// No card has this id.
    #[error("no card with id {0}")]
    CardNotFound(CardId),
    /// Book cards come from the rule books and cannot be changed; duplicate one to edit it.
    #[error(
        "card {id} ({name}) is a book card and read-only — duplicate it to make an editable copy"
    )]
    ReadOnlyCard { id: CardId, name: String },
    /// No battle has this id.
    #[error("no battle with id {0}")]
    BattleNotFound(BattleId),
    /// Creating a campaign under a name another campaign already has.
    #[error("a campaign named '{name}' already exists (names are unique, ignoring case)")]
    DuplicateCampaignName { name: String },
    /// Creating (importing) a campaign that is already stored under another name: the same
    /// campaign, recognised by its id.
    #[error(
        "this campaign (id {uid}) is already in the library; merge the file into it with `quartermaster campaign sync NAME FILE`, or import it as a separate copy with --name NEW"
    )]
    DuplicateCampaignId { uid: String },
    /// No campaign has this id.
    #[error("no campaign with id {0}")]
    CampaignNotFound(CampaignId),
    /// A campaign written before the campaign engine: its events are kept but it has no
    /// definition to fold them over.
    #[error(
        "campaign '{name}' predates the campaign engine and cannot be opened (its events are kept)"
    )]
    LegacyCampaign { name: String },
    /// Another running Quartermaster recorded into this battle since its log was read: the
    /// event was not recorded; reload the battle and decide again.
    #[error(
        "battle {battle} was changed by another running Quartermaster (its log now ends at event {stored}, this window knew up to {known}); nothing was recorded — the battle has been reloaded, check the table and record again"
    )]
    BattleChanged {
        battle: BattleId,
        known: u32,
        stored: u32,
    },
    /// A stored value that does not decode: `what` names table, row and column.
    #[error("{path}: stored {what} is unreadable: {message}")]
    Corrupt {
        path: String,
        what: String,
        message: String,
    },
    /// SQLite must finish an interrupted write before the file can be read and cannot (the
    /// folder or file is read-only); `fix` is the command that lets it. Nothing was changed.
    #[error("{path} cannot be opened: {cause}; to fix it, {fix}")]
    Unrecoverable {
        path: PathBuf,
        cause: String,
        fix: String,
    },
    /// The library is open read-only (the file or its folder cannot be written): it can be
    /// browsed and exported, not changed.
    #[error(
        "{path} is open read-only because {reason}, so {doing} is not possible; browsing, odds and export work — {fix}"
    )]
    ReadOnly {
        path: PathBuf,
        reason: String,
        doing: &'static str,
        fix: String,
    },
    /// A backup file that cannot be restored; the current database was not touched.
    #[error("cannot restore from {path}: {problem}; the current database was not touched")]
    BadBackup { path: PathBuf, problem: String },
    /// This machine's key is not admitted under the names it records as (another key holds
    /// them, or claims them too): nothing was recorded; its key was put in the folder for a
    /// player already admitted to admit.
    #[error("by: {message}")]
    NotAdmitted { message: String },
    /// The disk holding the library is full: the write was rolled back, nothing changed.
    #[error(
        "{path}: the disk holding the library is full ({doing}); nothing was changed — free some space on it and try again"
    )]
    DiskFull { path: String, doing: &'static str },
    /// Any other SQLite failure, with what the store was doing.
    #[error("{path}: {doing}: {source}")]
    Sqlite {
        path: String,
        doing: &'static str,
        #[source]
        source: rusqlite::Error,
    },
}

fn refused_hint(file: &Path, backup: Option<&Path>) -> String {
    match backup {
        Some(path) => format!(
            " — the newest backup is {}; restore it with `quartermaster db restore {}`",
            path.display(),
            super::migrate::shell_quote(path)
        ),
        None => {
            let moved = super::migrate::companion(file, ".refused");
            format!(
                " — no backup was found in the data directory's backups/ folder; to start a new library here instead, move the file away (`mv {} {}`)",
                super::migrate::shell_quote(file),
                super::migrate::shell_quote(&moved)
            )
        }
    }
}

impl StoreError {
    /// Shorthand for an invalid value at `field`.
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        StoreError::Invalid {
            field: field.into(),
            message: message.into(),
        }
    }

    /// True when the error means "another instance holds the database".
    pub fn is_busy(&self) -> bool {
        matches!(self, StoreError::Busy { .. })
    }
}
