//! Storage: cards, forces and campaign history in one SQLite file, built so a roster is never
//! lost.
//!
//! The only module that imports rusqlite. SQL lives in `db/migrations/NNNN_name.sql` (the
//! schema, one step per file) and `db/queries/*.sql` (one statement per file), embedded with
//! `include_str!`. Opening a file looks at it read-only first and refuses, untouched, anything
//! that is not a Quartermaster database, is newer than this build or fails SQLite's check; an
//! upgrade writes a backup copy first and runs in one transaction. Every write goes through
//! [`Store::transact`], which commits or rolls back as a whole. The file is in WAL mode with
//! `synchronous = FULL`, so a save that returned has reached the disk, and a crash at any moment
//! leaves the last committed state.

mod access;
mod army_data;
mod background;
mod backup;
mod campaign;
mod cards;
mod checks;
mod clean_close;
mod content;
mod create;
mod data_files;
mod error;
mod forces;
mod ids;
mod migrate;
mod queries;
mod rows;
mod shared;
mod trust;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, TransactionBehavior};
use serde::Serialize;

pub use army_data::{FileStatus, StoredData, StoredFile, newest};
pub use background::{BackgroundCheck, BackgroundReader};
pub use backup::RestoreReport;
pub use campaign::{BattleEvent, CampaignSummary, StoredCampaign, new_campaign_uid, new_event_uid};
pub use cards::{CardOrigin, StoredCard};
pub use data_files::{MAX_ARCHIVE_RATIO, read_paths};
pub use error::StoreError;
pub use forces::{CardChange, ForceSummary, StoredForce};
pub use ids::{BattleId, CampaignId, CardId, EventId, ForceId};
pub use migrate::{APPLICATION_ID, SCHEMA_VERSION, backups_dir, newest_backup, utc_stamp};
pub use shared::{OwnWrite, file_name, write_atomically};

use crate::campaign::seal::MachineKey;
use crate::rules::{Card, Force, RulesError, RulesetId};
use migrate::Check;

/// The database file's name inside the data directory.
pub const DB_FILE_NAME: &str = "quartermaster.sqlite3";
/// The environment variable naming the data directory when `--data-dir` is not given.
pub const DATA_DIR_ENV: &str = "QUARTERMASTER_DATA_DIR";
/// How long a write waits for another running Quartermaster before saying the file is in use.
pub const DEFAULT_BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// Longest settings key, in characters.
const MAX_SETTING_KEY_CHARS: usize = 200;
/// The setting holding this machine's player name (asked once, shown on every event).
pub const SETTING_PLAYER: &str = "player.name";
/// The setting keeping the window's League cache between sessions (what each campaign of the
/// last League folder read gave, by its files' stamps).
pub const SETTING_LEAGUE_CACHE: &str = "league.cache";
/// The setting naming this machine in logs (default: the computer's name).
pub const SETTING_MACHINE_NAME: &str = "machine.name";
/// The setting holding this library's machine id (its file name in a shared folder).
pub const SETTING_MACHINE_ID: &str = "machine.id";
/// The setting holding this library's signing key's secret (it never leaves the library).
const SETTING_MACHINE_KEY: &str = "machine.signing_key";
/// The setting remembering where this library lives (computer and folder): a library found
/// elsewhere was copied (or moved) and takes a machine id and key of its own.
const SETTING_MACHINE_HOME: &str = "machine.home";
/// The machine ids this library had before it was found copied, oldest first.
const SETTING_MACHINE_PREVIOUS: &str = "machine.previous";

/// Now, in milliseconds since 1970 UTC (the clock lives here, at the edge).
fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The computer's name, or "this machine" where it cannot be read. Asked of the system, never
/// of the environment: a shell's `HOSTNAME` comes and goes with how the program was started,
/// and a library's home (the copy check) must not.
fn host_name() -> String {
    #[cfg(unix)]
    let name = Some(
        rustix::system::uname()
            .nodename()
            .to_string_lossy()
            .into_owned(),
    );
    #[cfg(not(unix))]
    let name = std::env::var("COMPUTERNAME").ok();
    name.map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .or_else(|| {
            fs::read_to_string("/etc/hostname")
                .ok()
                .map(|h| h.trim().to_string())
                .filter(|h| !h.is_empty())
        })
        .unwrap_or_else(|| "this machine".to_string())
}

/// The data directory: `QUARTERMASTER_DATA_DIR` if set and not empty, else the platform's
/// (`~/.local/share/quartermaster` on Linux, `~/Library/Application Support/…` on macOS,
/// `%APPDATA%\…` on Windows).
pub fn default_data_dir() -> Result<PathBuf, StoreError> {
    if let Some(dir) = std::env::var_os(DATA_DIR_ENV).filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "Quartermaster")
        .map(|dirs| dirs.data_dir().to_path_buf())
        .ok_or(StoreError::NoDataDir)
}

/// The open database. Holds one connection; the UI keeps one `Store` for the session.
pub struct Store {
    conn: Connection,
    ctx: Ctx,
    integrity: Integrity,
    /// Why this session cannot write (a read-only file or folder); `None` when it can.
    read_only: Option<String>,
    /// Things the library did on its own that the user should hear about (a copied library
    /// taking a new machine id, this machine's shared file not written), for the front ends.
    notices: Vec<String>,
    /// Whether this session has checked that the library is where it was (not a copy).
    home_checked: bool,
    /// The clock and random source the library's records take.
    edge: Edge,
    /// Whether opening checked the file's pages (`quick_check`): not when it was as this
    /// app's last clean close left it ([`clean_close`]).
    page_checked: bool,
    /// A writable session of a file on disk: stamps the file clean when it closes. Last, so it
    /// drops after `conn` has closed (and checkpointed).
    session: Option<clean_close::Session>,
}

/// Reads the computer's clock: milliseconds since 1970 UTC.
pub type Clock = std::sync::Arc<dyn Fn() -> i64 + Send + Sync>;
/// Draws 16 random bytes (a campaign's nonce).
pub type Entropy = std::sync::Arc<dyn Fn() -> [u8; 16] + Send + Sync>;

/// Where time and chance come into the library: the system's clock and random source, or what
/// a test gives instead ([`Store::set_clock`], [`Store::set_entropy`]); and the admissions the
/// library signed on its own since a caller last asked ([`Store::take_admitted`]).
#[derive(Clone)]
struct Edge {
    clock: Clock,
    entropy: Entropy,
    admitted: Vec<crate::campaign::membership::Admission>,
}

impl Edge {
    /// 32 bytes from the random source: a new signing key's secret.
    fn secret(&self) -> [u8; 32] {
        let mut secret = [0u8; 32];
        secret[..16].copy_from_slice(&(self.entropy)());
        secret[16..].copy_from_slice(&(self.entropy)());
        secret
    }
}

impl Default for Edge {
    fn default() -> Self {
        Edge {
            clock: std::sync::Arc::new(now_millis),
            entropy: std::sync::Arc::new(rand::random),
            admitted: Vec::new(),
        }
    }
}

/// What the full integrity check said about the file this session. A file as this app's last
/// clean close left it is not checked at all ([`clean_close`]: only this app's SQLite writes
/// changed it since a session found it sound). Any other is checked: opening runs only
/// `quick_check` (a full check of a 10,000-card library costs more than the 50 ms an open may
/// take); the first write runs the full one inside its transaction, so a file with damage only
/// the full check sees is read but never written.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Integrity {
    /// Not fully checked yet this session.
    Unchecked,
    Sound,
    /// Passed a full check made by a [`BackgroundReader`] while the store connection's
    /// `data_version` was this: it holds while no other connection has committed since.
    CheckedAt(i64),
    /// Failed the full check: every write is refused with this finding.
    Damaged(String),
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("path", &self.ctx.path)
            .finish_non_exhaustive()
    }
}

/// What error messages need to know about the open database.
#[derive(Clone)]
pub(crate) struct Ctx {
    /// The file, or `:memory:`.
    path: PathBuf,
    /// The data directory, for naming backups in error messages.
    data_dir: Option<PathBuf>,
    busy_timeout: Duration,
}

impl Ctx {
    /// Maps a SQLite error met while `doing` something to the store's words.
    fn err(&self, doing: &'static str) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
        move |error| {
            let backup = self.data_dir.as_deref().and_then(newest_backup);
            migrate::classify(error, &self.path, self.busy_timeout, doing, backup)
        }
    }

    /// The refusal to write in a read-only session, saying why and how to fix it.
    fn read_only(&self, reason: String, doing: &'static str) -> StoreError {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        StoreError::ReadOnly {
            path: self.path.clone(),
            reason,
            doing,
            fix: format!(
                "make it writable (`chmod u+w {} {}`) and start Quartermaster again",
                migrate::shell_quote(dir),
                migrate::shell_quote(&self.path)
            ),
        }
    }

    /// The refusal to write a file that failed the full integrity check.
    fn damaged(&self, problem: String) -> StoreError {
        StoreError::Damaged {
            path: self.path.clone(),
            problem,
            backup: self.data_dir.as_deref().and_then(newest_backup),
        }
    }

    fn corrupt(&self, what: String, message: String) -> StoreError {
        StoreError::Corrupt {
            path: self.path.display().to_string(),
            what,
            message,
        }
    }
}

/// Rules-layer refusals as store errors, keeping the field path.
pub(crate) fn from_rules(error: RulesError) -> StoreError {
    match error {
        RulesError::Field { path, message } => StoreError::Invalid {
            field: path,
            message,
        },
        RulesError::UnknownRuleset(_) => StoreError::invalid("ruleset", error.to_string()),
        other => StoreError::invalid("force", other.to_string()),
    }
}

/// The result of checking a database.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DbReport {
    /// The database file (`None` in memory).
    pub path: Option<PathBuf>,
    /// The file's schema version (`PRAGMA user_version`).
    pub schema_version: i64,
    /// The newest schema version this build knows.
    pub app_schema_version: i64,
    /// `PRAGMA integrity_check` output: `["ok"]` when the file is sound.
    pub integrity: Vec<String>,
    /// `wal` normally.
    pub journal_mode: String,
    pub forces: u64,
    pub book_cards: u64,
    pub custom_cards: u64,
    pub campaigns: u64,
    pub battle_events: u64,
    /// The newest copy in the data directory's `backups/`.
    pub newest_backup: Option<PathBuf>,
    /// Cards, forces and campaigns the app cannot use, one line each (see
    /// [`Store::content_problems`]); empty when all load. A file of an older schema is loaded
    /// as a copy upgraded in memory (the file is not touched).
    pub content_problems: Vec<String>,
}

impl DbReport {
    /// True when the file passed the integrity check.
    pub fn integrity_ok(&self) -> bool {
        self.integrity == ["ok"]
    }

    /// True when the file passed the integrity check and everything in it loads.
    pub fn ok(&self) -> bool {
        self.integrity_ok() && self.content_problems.is_empty()
    }

    /// True when opening the file will upgrade it (a backup is written first).
    pub fn upgrade_pending(&self) -> bool {
        self.schema_version < self.app_schema_version
    }
}

impl Store {
    /// Opens (first start: creates and seeds) `data_dir/quartermaster.sqlite3`.
    pub fn open(data_dir: &Path) -> Result<Store, StoreError> {
        Store::open_with_timeout(data_dir, DEFAULT_BUSY_TIMEOUT)
    }

    /// Like [`Store::open`], waiting at most `busy_timeout` for another running instance.
    pub fn open_with_timeout(data_dir: &Path, busy_timeout: Duration) -> Result<Store, StoreError> {
        if data_dir.exists() && !data_dir.is_dir() {
            return Err(StoreError::NotAFolder {
                path: data_dir.to_path_buf(),
            });
        }
        fs::create_dir_all(data_dir).map_err(|source| StoreError::Io {
            path: data_dir.to_path_buf(),
            message: "cannot create the data directory",
            source,
        })?;
        let path = data_dir.join(DB_FILE_NAME);
        let backups = backups_dir(data_dir);
        create::create_if_missing(&path, &backups, busy_timeout)?;
        let clean = clean_close::take(&path);
        let check = if clean { Check::Skip } else { Check::Quick };
        let found = migrate::inspect(&path, Some(&backups), check, busy_timeout)?;
        let backup = match &found {
            Some(found) if found.version >= 1 && found.version < SCHEMA_VERSION => {
                Some(backup_before_upgrade(found, &path, data_dir, busy_timeout)?)
            }
            _ => None,
        };
        drop(found);
        let ctx = Ctx {
            path: path.clone(),
            data_dir: Some(data_dir.to_path_buf()),
            busy_timeout,
        };
        let (conn, read_only) = access::open(&path, &ctx)?;
        let session = read_only
            .is_none()
            .then(|| clean_close::Session::new(&path, clean));
        let mut store = Store {
            conn,
            ctx,
            integrity: Integrity::Unchecked,
            read_only,
            notices: Vec::new(),
            home_checked: false,
            edge: Edge::default(),
            page_checked: !clean,
            session,
        };
        store.configure()?;
        if clean {
            // Found sound by the session that stamped it, and changed since only by this app's
            // writes through SQLite: the first write checks nothing, unless another connection
            // has committed by then (as after a background check).
            store.integrity = Integrity::CheckedAt(store.data_version()?);
        }
        if let Some(reason) = &store.read_only {
            if store.schema_version()? < SCHEMA_VERSION {
                return Err(store
                    .ctx
                    .read_only(reason.clone(), "upgrading it to this version"));
            }
            return Ok(store);
        }
        migrate::migrate(&mut store.conn, &path, busy_timeout, backup)?;
        store.seed_if_needed()?;
        Ok(store)
    }

    /// Opens `data_dir`'s existing database for reading only, whatever the permissions:
    /// everything loads, every write is refused with [`StoreError::ReadOnly`].
    pub fn open_read_only(data_dir: &Path) -> Result<Store, StoreError> {
        let path = data_dir.join(DB_FILE_NAME);
        let backups = backups_dir(data_dir);
        let Some(found) =
            migrate::inspect(&path, Some(&backups), Check::Quick, DEFAULT_BUSY_TIMEOUT)?
        else {
            return Err(StoreError::Io {
                path,
                message: "there is no database to open read-only",
                source: std::io::ErrorKind::NotFound.into(),
            });
        };
        let ctx = Ctx {
            path,
            data_dir: Some(data_dir.to_path_buf()),
            busy_timeout: DEFAULT_BUSY_TIMEOUT,
        };
        if found.version < SCHEMA_VERSION {
            return Err(ctx.read_only(
                "opened read-only on request".into(),
                "upgrading it to this version",
            ));
        }
        Ok(Store {
            conn: found.conn,
            ctx,
            integrity: Integrity::Unchecked,
            read_only: Some("opened read-only on request".into()),
            notices: Vec::new(),
            home_checked: false,
            edge: Edge::default(),
            page_checked: false,
            session: None,
        })
    }

    /// Whether opening ran SQLite's `quick_check` over the file's pages: only when the file
    /// was not as this app's last clean close left it (a crash, another program's write, a
    /// restore or a copy since).
    pub fn page_checked_at_open(&self) -> bool {
        self.page_checked
    }

    /// Why the database cannot be written this session (`None`: it can).
    pub fn read_only_reason(&self) -> Option<&str> {
        self.read_only.as_deref()
    }

    /// A fresh database in memory, migrated and seeded (tests, UI tests).
    pub fn open_in_memory() -> Result<Store, StoreError> {
        let ctx = Ctx {
            path: PathBuf::from(":memory:"),
            data_dir: None,
            busy_timeout: DEFAULT_BUSY_TIMEOUT,
        };
        let conn = Connection::open_in_memory().map_err(ctx.err("opening"))?;
        let mut store = Store {
            conn,
            ctx,
            integrity: Integrity::Sound,
            read_only: None,
            notices: Vec::new(),
            home_checked: false,
            edge: Edge::default(),
            page_checked: false,
            session: None,
        };
        store.configure()?;
        migrate::migrate(
            &mut store.conn,
            Path::new(":memory:"),
            DEFAULT_BUSY_TIMEOUT,
            None,
        )?;
        store.transact("seeding the book cards", cards::seed_books)?;
        Ok(store)
    }

    /// Refreshes the book cards when this build's data is newer; a plain read otherwise, so an
    /// open that has nothing to seed writes nothing.
    fn seed_if_needed(&mut self) -> Result<(), StoreError> {
        if cards::books_need_seeding(&self.conn, &self.ctx)? {
            self.transact("seeding the book cards", cards::seed_books)?;
        }
        Ok(())
    }

    fn configure(&mut self) -> Result<(), StoreError> {
        let Store {
            conn,
            ctx,
            read_only,
            ..
        } = self;
        conn.busy_timeout(ctx.busy_timeout)
            .map_err(ctx.err("setting the busy timeout"))?;
        conn.pragma_update(None, "foreign_keys", true)
            .map_err(ctx.err("turning on foreign keys"))?;
        if read_only.is_some() {
            return Ok(());
        }
        // WAL: readers never block the writer, and a crash mid-write leaves the last commit.
        // FULL: the WAL is synced at every commit, so a save that returned survives power loss.
        let _mode: String = conn
            .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))
            .map_err(ctx.err("turning on WAL mode"))?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(ctx.err("setting synchronous writes"))?;
        Ok(())
    }

    /// The one way to write: runs `work` in an IMMEDIATE transaction (waiting for another
    /// instance's write at most the busy timeout) and commits it, or rolls it all back on error.
    pub(crate) fn transact<T>(
        &mut self,
        doing: &'static str,
        work: impl FnOnce(&Connection, &Ctx) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let Store {
            conn,
            ctx,
            integrity,
            read_only,
            session,
            ..
        } = self;
        if let Some(reason) = read_only {
            return Err(ctx.read_only(reason.clone(), doing));
        }
        if let Integrity::Damaged(problem) = integrity {
            return Err(ctx.damaged(problem.clone()));
        }
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(ctx.err(doing))?;
        if let Integrity::CheckedAt(version) = *integrity {
            // A background check holds if nobody else has written since it was made; the lock
            // now held keeps it so until this write.
            let unchanged = background::data_version(&tx)
                .map_err(ctx.err("reading the data version"))?
                == version;
            *integrity = if unchanged {
                Integrity::Sound
            } else {
                Integrity::Unchecked
            };
        }
        if *integrity == Integrity::Unchecked {
            // Checked under the write lock: nobody can change the file between check and write.
            let problems =
                migrate::integrity(&tx, Check::Full).map_err(ctx.err("checking integrity"))?;
            if problems != ["ok"] {
                let problem = migrate::summarize(&problems);
                *integrity = Integrity::Damaged(problem.clone());
                return Err(ctx.damaged(problem));
            }
            *integrity = Integrity::Sound;
        }
        if let Some(session) = session {
            session.vouch();
        }
        // Dropping `tx` on an early return rolls everything back.
        let value = work(&tx, ctx)?;
        tx.commit().map_err(ctx.err(doing))?;
        Ok(value)
    }

    /// The database file (`None` in memory).
    pub fn path(&self) -> Option<&Path> {
        self.ctx.data_dir.as_ref().map(|_| self.ctx.path.as_path())
    }

    /// The data directory holding the file and its `backups/` (`None` in memory).
    pub fn data_dir(&self) -> Option<&Path> {
        self.ctx.data_dir.as_deref()
    }

    /// Every force, summarised, sorted by name.
    pub fn list_forces(&self) -> Result<Vec<ForceSummary>, StoreError> {
        forces::list(&self.conn, &self.ctx)
    }

    /// One force's summary, as [`Store::list_forces`] lists it.
    pub fn force_summary(&self, id: ForceId) -> Result<ForceSummary, StoreError> {
        forces::summary(&self.conn, &self.ctx, id)
    }

    /// One force, with the book-card changes since it was saved.
    pub fn load_force(&self, id: ForceId) -> Result<StoredForce, StoreError> {
        forces::load(&self.conn, &self.ctx, id)
    }

    /// Every force in full, sorted by name (two queries, for loading a whole library).
    pub fn load_forces(&self) -> Result<Vec<StoredForce>, StoreError> {
        forces::load_all(&self.conn, &self.ctx)
    }

    /// The force of this name, ignoring case in any alphabet and surrounding spaces.
    pub fn find_force(&self, name: &str) -> Result<Option<ForceId>, StoreError> {
        forces::find(&self.conn, &self.ctx, name)
    }

    /// Saves a new force (`id` None) or replaces one. The force must be writable as a force
    /// file (the errors name the field, as importing would), and its name must be unused by any
    /// other force, ignoring case. Library cards are pinned as they are now.
    pub fn save_force(
        &mut self,
        id: Option<ForceId>,
        force: &Force,
    ) -> Result<ForceId, StoreError> {
        self.transact("saving a force", |conn, ctx| {
            forces::save(conn, ctx, id, force)
        })
    }

    /// Deletes a force and its unit lines.
    pub fn delete_force(&mut self, id: ForceId) -> Result<(), StoreError> {
        self.transact("deleting a force", |conn, ctx| {
            forces::delete(conn, ctx, id)
        })
    }

    /// Every stored revision of imported army data, newest of each first.
    pub fn army_data(&self) -> Result<Vec<StoredData>, StoreError> {
        army_data::list(&self.conn, &self.ctx)
    }

    /// The game systems imported before, for reading catalogues given without theirs.
    pub fn stored_game_systems(
        &self,
    ) -> Result<Vec<crate::rules::army_data::ImportFile>, StoreError> {
        army_data::game_systems(&self.conn, &self.ctx)
    }

    /// Stores an import of army data whole, or nothing of it. Saved forces are not touched:
    /// each keeps the revision it was priced with ([`Store::army_changes`] says what a newer
    /// one would change).
    pub fn import_army_data(
        &mut self,
        import: &crate::rules::army_data::Import,
    ) -> Result<Vec<StoredFile>, StoreError> {
        self.transact("importing army data", |conn, ctx| {
            army_data::store_import(conn, ctx, import)
        })
    }

    /// The cards of the newest revision of every imported catalogue.
    pub fn army_cards(&self) -> Result<Vec<Card>, StoreError> {
        let all = self.army_data()?;
        Ok(newest(&all)
            .into_iter()
            .flat_map(|d| d.cards.iter().cloned())
            .collect())
    }

    /// The cards of every imported revision (a list names the revision its units were priced
    /// with) and the newest force organisations: what a pasted list is read against.
    pub fn army_library(
        &self,
    ) -> Result<(Vec<Card>, Vec<crate::rules::army_data::ForceOrg>), StoreError> {
        let all = self.army_data()?;
        let orgs = newest(&all)
            .into_iter()
            .flat_map(|d| d.force_orgs.iter().cloned())
            .collect();
        Ok((all.into_iter().flat_map(|d| d.cards).collect(), orgs))
    }

    /// The force organisations of the newest revision of every imported game system.
    pub fn army_force_orgs(&self) -> Result<Vec<crate::rules::army_data::ForceOrg>, StoreError> {
        let all = self.army_data()?;
        Ok(newest(&all)
            .into_iter()
            .flat_map(|d| d.force_orgs.iter().cloned())
            .collect())
    }

    /// For every saved force priced with an older revision than the newest imported, what
    /// the newest would change, by unit line. Nothing is changed.
    pub fn army_changes(
        &self,
    ) -> Result<Vec<(ForceId, String, Vec<crate::rules::army_data::LineChange>)>, StoreError> {
        let newest = self.army_cards()?;
        Ok(self
            .load_forces()?
            .into_iter()
            .filter_map(|stored| {
                let changes = crate::rules::army_data::line_changes(&stored.force, &newest);
                (!changes.is_empty()).then_some((stored.id, stored.force.name, changes))
            })
            .collect())
    }

    /// The player's custom cards, by ruleset and name.
    pub fn custom_cards(&self) -> Result<Vec<(CardId, Card)>, StoreError> {
        cards::list(&self.conn, &self.ctx, CardOrigin::Custom)
    }

    /// The book cards as stored (of one ruleset, or all), by ruleset and name.
    pub fn book_cards(
        &self,
        ruleset: Option<RulesetId>,
    ) -> Result<Vec<(CardId, Card)>, StoreError> {
        cards::list(&self.conn, &self.ctx, CardOrigin::Book).map(|c| cards::of_ruleset(c, ruleset))
    }

    /// One card by id, book or custom.
    pub fn card(&self, id: CardId) -> Result<StoredCard, StoreError> {
        cards::get(&self.conn, &self.ctx, id)
    }

    /// Saves a new custom card (`id` None) or replaces one. Book cards are read-only.
    pub fn save_custom_card(
        &mut self,
        id: Option<CardId>,
        card: &Card,
    ) -> Result<CardId, StoreError> {
        self.transact("saving a custom card", |conn, ctx| {
            cards::save_custom(conn, ctx, id, card, None)
        })
    }

    /// "Duplicate to edit": copies any card (a book card, typically) into a new custom card
    /// named `<name> (copy)`, keeping the book data revision it came from.
    pub fn duplicate_card(&mut self, id: CardId) -> Result<CardId, StoreError> {
        self.transact("duplicating a card", |conn, ctx| {
            let source = cards::get(conn, ctx, id)?;
            let copy = cards::renamed(&source.card, &format!("{} (copy)", source.card.name()))?;
            cards::save_custom(conn, ctx, None, &copy, source.data_revision)
        })
    }

    /// Deletes a custom card. Forces that use it keep their own copy (inline).
    pub fn delete_custom_card(&mut self, id: CardId) -> Result<(), StoreError> {
        self.transact("deleting a custom card", |conn, ctx| {
            cards::delete_custom(conn, ctx, id)
        })
    }

    /// A setting's value.
    pub fn setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        use rusqlite::OptionalExtension;
        self.conn
            .prepare_cached(queries::SETTING_SELECT)
            .and_then(|mut stmt| stmt.query_row([key], |row| row.get(0)).optional())
            .map_err(self.ctx.err("reading a setting"))
    }

    /// Sets a setting's value.
    pub fn set_setting(&mut self, key: &str, value: &str) -> Result<(), StoreError> {
        if key.trim().is_empty() || key.chars().count() > MAX_SETTING_KEY_CHARS {
            return Err(StoreError::invalid(
                "setting.key",
                format!(
                    "'{}' must be 1–{MAX_SETTING_KEY_CHARS} characters",
                    key.chars().take(40).collect::<String>()
                ),
            ));
        }
        self.transact("saving a setting", |conn, ctx| {
            conn.prepare_cached(queries::SETTING_UPSERT)
                .and_then(|mut stmt| stmt.execute([key, value]))
                .map(|_| ())
                .map_err(ctx.err("saving a setting"))
        })
    }

    /// Starts a campaign.
    pub fn create_campaign(
        &mut self,
        ruleset: RulesetId,
        name: &str,
        scenario: &str,
    ) -> Result<CampaignId, StoreError> {
        self.transact("creating a campaign", |conn, ctx| {
            campaign::create_campaign(conn, ctx, ruleset, name, scenario)
        })
    }

    /// Adds battle number `number` (from 1) to a campaign.
    pub fn create_battle(
        &mut self,
        campaign: CampaignId,
        number: u32,
        title: &str,
    ) -> Result<BattleId, StoreError> {
        self.transact("creating a battle", |conn, ctx| {
            campaign::create_battle(conn, ctx, campaign, number, title)
        })
    }

    /// Records one event at the end of a battle's log (append-only).
    pub fn append_event(
        &mut self,
        battle: BattleId,
        kind: &str,
        payload: &serde_json::Value,
    ) -> Result<BattleEvent, StoreError> {
        self.transact("recording a battle event", |conn, ctx| {
            campaign::append_event(conn, ctx, battle, kind, payload)
        })
    }

    /// Every campaign, by name.
    pub fn list_campaigns(&self) -> Result<Vec<CampaignSummary>, StoreError> {
        campaign::list(&self.conn, &self.ctx)
    }

    /// A campaign's id (the one every machine knows it by), without loading it.
    pub fn campaign_uid(&self, id: CampaignId) -> Result<crate::campaign::CampaignUid, StoreError> {
        campaign::uid_of(&self.conn, &self.ctx, id)
    }

    /// The names of the campaigns whose battles were set up from the saved force `name` of
    /// `ruleset` (simple campaigns name their two forces; Lorraine battles use the briefings).
    pub fn campaigns_using_force(
        &self,
        name: &str,
        ruleset: crate::rules::RulesetId,
    ) -> Result<Vec<String>, StoreError> {
        let wanted = crate::rules::names::fold(name);
        let mut using = Vec::new();
        for summary in self.list_campaigns()? {
            if summary.ruleset != ruleset.as_str() || !summary.openable {
                continue;
            }
            let stored = self.load_campaign(summary.id)?;
            let uses = stored
                .record
                .campaign
                .battles
                .iter()
                .any(|plan| match &**plan {
                    crate::campaign::BattlePlan::Simple(simple) => {
                        [&simple.forces.first, &simple.forces.second]
                            .iter()
                            .any(|force| crate::rules::names::fold(force) == wanted)
                    }
                    crate::campaign::BattlePlan::Table(table) => {
                        [&table.forces.first, &table.forces.second]
                            .iter()
                            .any(|force| crate::rules::names::fold(force) == wanted)
                    }
                    crate::campaign::BattlePlan::Armour(_)
                    | crate::campaign::BattlePlan::Scripted(_) => false,
                });
            if uses {
                using.push(summary.name);
            }
        }
        Ok(using)
    }

    /// The campaign named `name` (ignoring case).
    pub fn find_campaign(&self, name: &str) -> Result<Option<CampaignId>, StoreError> {
        campaign::find(&self.conn, &self.ctx, name)
    }

    /// Stores a new campaign (or an imported one, events and all) in one transaction.
    pub fn create_campaign_record(
        &mut self,
        record: &crate::campaign::CampaignRecord,
    ) -> Result<StoredCampaign, StoreError> {
        self.transact("creating a campaign", |conn, ctx| {
            campaign::insert_record(conn, ctx, record)
        })
    }

    /// A campaign with every battle's log.
    pub fn load_campaign(&self, id: CampaignId) -> Result<StoredCampaign, StoreError> {
        campaign::load(&self.conn, &self.ctx, id)
    }

    /// The campaign with the logs of the battles `wanted` names alone (see
    /// [`campaign::load_for_battles`]): enough to decide and record an action in one battle, or
    /// to merge events into a few, at a cost that follows those battles.
    pub fn load_campaign_for_battles(
        &self,
        id: CampaignId,
        wanted: &dyn Fn(usize) -> bool,
    ) -> Result<StoredCampaign, StoreError> {
        campaign::load_for_battles(&self.conn, &self.ctx, id, wanted)
    }

    /// Stores the battle just added to `campaign` (its last one), with its setup recorded as
    /// the battle's first event (signed, and written to the shared folder at once, as any
    /// event): two machines that add the same battle differently make a fork, not a split.
    pub fn add_campaign_battle(
        &mut self,
        id: CampaignId,
        campaign: &crate::campaign::Campaign,
    ) -> Result<(BattleId, crate::campaign::LoggedEvent), StoreError> {
        let key = self.machine_key()?;
        let by = self.recorder()?;
        let now = self.now();
        let added = self.transact("adding a battle", |conn, ctx| {
            let (admit_self, membership) = campaign::check_recorder(conn, ctx, id, &by, &key)?;
            let added =
                campaign::add_battle(conn, ctx, id, campaign, (&by, &key, &membership), now)?;
            let admitted = if admit_self {
                Some(campaign::admit_self(
                    conn,
                    ctx,
                    id,
                    &by,
                    &key,
                    &added.1.recorded_at,
                )?)
            } else {
                None
            };
            Ok((added, admitted))
        });
        let (added, admitted) = match added {
            Ok(done) => done,
            Err(refused @ StoreError::NotAdmitted { .. }) => {
                self.ask_admission_in(id);
                return Err(refused);
            }
            Err(other) => return Err(other),
        };
        self.edge.admitted.extend(admitted);
        self.share_now(id);
        Ok(added)
    }

    /// Records one campaign event at `at` — the place [`crate::campaign::CampaignRecord::
    /// next_position`] (or `choice`) gives it on the caller's copy of the log — as recorded by
    /// this machine's player, resolved under the ruleset's current rules revision, its id made
    /// from its content and signed with this machine's key; it is on disk when this returns,
    /// and so is this machine's file in the campaign's shared folder, if it has one (a folder
    /// that cannot be written is a notice, [`Store::take_notices`]: the event is kept and the
    /// file catches up at the next sync). When another running copy has recorded after the same
    /// event since, nothing is written and [`StoreError::BattleChanged`] says to reload.
    pub fn record_event(
        &mut self,
        battle: BattleId,
        at: crate::campaign::Position,
        event: &crate::campaign::Event,
    ) -> Result<crate::campaign::LoggedEvent, StoreError> {
        // The key first: a library found copied takes a new one, and a machine name with it.
        let key = self.machine_key()?;
        let by = self.recorder()?;
        let now = self.now();
        let recorded = self.transact("recording a battle event", |conn, ctx| {
            let owner = campaign::campaign_of(conn, ctx, battle)?;
            let (admit_self, membership) = campaign::check_recorder(conn, ctx, owner, &by, &key)?;
            let logged = campaign::record_event(
                conn,
                ctx,
                battle,
                at,
                event,
                (&by, &key, &membership),
                now,
            )?;
            let admitted = if admit_self {
                Some(campaign::admit_self(
                    conn,
                    ctx,
                    owner,
                    &by,
                    &key,
                    &logged.recorded_at,
                )?)
            } else {
                None
            };
            Ok((owner, logged, admitted))
        });
        let (campaign_id, logged, admitted) = match recorded {
            Ok(done) => done,
            Err(refused @ StoreError::NotAdmitted { .. }) => {
                self.ask_admission(battle);
                return Err(refused);
            }
            Err(other) => return Err(other),
        };
        self.edge.admitted.extend(admitted);
        self.share_now(campaign_id);
        Ok(logged)
    }

    /// Writes campaign `id`'s new events to this machine's shared file, keeping a notice when
    /// that fails (the event stays recorded; the next sync writes it).
    fn share_now(&mut self, id: CampaignId) {
        // Most campaigns are not shared: a read tells, without taking the write lock.
        if self.shared_folder(id).is_ok_and(|f| f.is_none()) {
            return;
        }
        match self.write_own_file(id, false) {
            Ok(OwnWrite::Changed(path)) => self.notices.push(format!(
                "{} was changed by someone else (another computer writing under this machine's id?): the next sync reads it",
                path.display()
            )),
            Ok(_) => {}
            Err(e) => self.notices.push(format!(
                "the event is recorded, but this machine's shared file was not written ({e}); the next sync writes it"
            )),
        }
    }

    /// Brings this machine's file in campaign `id`'s shared folder up to date with the library,
    /// under the library's write lock (see [`OwnWrite`]). `rewrite`: write it whole even when
    /// it is not as the library left it.
    pub fn write_own_file(
        &mut self,
        id: CampaignId,
        rewrite: bool,
    ) -> Result<OwnWrite, StoreError> {
        self.transact("writing this machine's shared file", |conn, ctx| {
            shared::write_own(conn, ctx, id, rewrite)
        })
    }

    /// What the library did on its own since last asked that the user should hear about.
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// The campaign with this id (the same on every machine), if stored.
    pub fn find_campaign_by_uid(
        &self,
        uid: crate::campaign::CampaignUid,
    ) -> Result<Option<CampaignId>, StoreError> {
        campaign::find_by_uid(&self.conn, &self.ctx, uid)
    }

    /// Stores what a merge takes into campaign `id` — its definition as merged, the new events,
    /// each with its battle's place ([`crate::campaign::merge`] decided which), and the new
    /// admissions — in one transaction. Returns how many events were stored (one another sync
    /// of this library stored meanwhile is not stored twice).
    pub fn store_incoming(
        &mut self,
        id: CampaignId,
        campaign: &crate::campaign::Campaign,
        events: &[(usize, crate::campaign::LoggedEvent)],
        admissions: &[crate::campaign::membership::Admission],
    ) -> Result<usize, StoreError> {
        self.transact("merging a campaign", |conn, ctx| {
            campaign::store_incoming(conn, ctx, id, campaign, events, admissions)
        })
    }

    /// Campaign `id`'s id, definition and battle rows, without reading its events.
    pub fn campaign_outline(
        &self,
        id: CampaignId,
    ) -> Result<
        (
            crate::campaign::CampaignUid,
            crate::campaign::Campaign,
            Vec<BattleId>,
        ),
        StoreError,
    > {
        campaign::outline(&self.conn, &self.ctx, id)
    }

    /// One battle's events, in the order stored.
    pub fn battle_log(
        &self,
        battle: BattleId,
    ) -> Result<Vec<crate::campaign::LoggedEvent>, StoreError> {
        campaign::battle_log(&self.conn, &self.ctx, battle)
    }

    /// Which of these event ids the library holds.
    pub fn stored_event_ids(
        &self,
        ids: &[crate::campaign::EventUid],
    ) -> Result<std::collections::HashSet<crate::campaign::EventUid>, StoreError> {
        campaign::stored_ids(&self.conn, &self.ctx, ids)
    }

    /// The events of these ids the library holds, as it holds them (what a tidy compares a
    /// file's copies with).
    pub fn stored_events(
        &self,
        ids: &[crate::campaign::EventUid],
    ) -> Result<
        std::collections::HashMap<crate::campaign::EventUid, crate::campaign::LoggedEvent>,
        StoreError,
    > {
        campaign::events_by_uid(&self.conn, &self.ctx, ids)
    }

    /// Everything campaign `id`'s membership is decided from (its root, every key and names that
    /// signed an event, its admissions), without reading its events.
    pub fn membership_basis(
        &self,
        id: CampaignId,
    ) -> Result<crate::campaign::membership::Basis, StoreError> {
        campaign::membership_basis(&self.conn, &self.ctx, id)
    }

    /// The row id of campaign `id`'s newest event: it changes exactly when something is
    /// recorded or merged, so a sync tells "nothing new here" without counting. `known`: the
    /// row id it was at some earlier time (0: not known), so only newer rows are read.
    pub fn campaign_last_event(&self, id: CampaignId, known: i64) -> Result<i64, StoreError> {
        campaign::last_event_row(&self.conn, &self.ctx, id, known)
    }

    /// The shared folder campaign `id` syncs with, if any (no event is read).
    pub fn shared_folder(&self, id: CampaignId) -> Result<Option<PathBuf>, StoreError> {
        let uid = self.campaign_uid(id)?;
        Ok(self
            .setting(&shared::folder_key(uid))?
            .map(|t| shared::path_from_setting(&t)))
    }

    /// Remembers `folder` as campaign `id`'s shared folder.
    pub fn set_shared_folder(&mut self, id: CampaignId, folder: &Path) -> Result<(), StoreError> {
        let uid = self.campaign_uid(id)?;
        self.set_setting(&shared::folder_key(uid), &shared::path_to_setting(folder))
    }

    /// Who this machine records events as: the player name and machine name settings (the
    /// machine name defaults to the computer's name).
    pub fn recorder(&self) -> Result<crate::campaign::Recorder, StoreError> {
        Ok(crate::campaign::Recorder {
            player: self.setting(SETTING_PLAYER)?.unwrap_or_default(),
            machine: self
                .setting(SETTING_MACHINE_NAME)?
                .filter(|m| !m.trim().is_empty())
                .unwrap_or_else(host_name),
        })
    }

    /// This library's machine id, made (and saved) the first time it is asked for: the name of
    /// its file in a shared folder. A library found copied takes a new one first.
    pub fn machine_id(&mut self) -> Result<String, StoreError> {
        let mut pending = self.check_home()?;
        let id = match self.setting(SETTING_MACHINE_ID)? {
            Some(id) => id,
            None => {
                let id = uuid::Uuid::now_v7().to_string();
                pending.push((SETTING_MACHINE_ID, id.clone()));
                id
            }
        };
        self.set_settings("saving this machine's id", &pending)?;
        Ok(id)
    }

    /// This library's signing key, made (from the system's random source) the first time it is
    /// asked for and kept in the library. A library found copied takes a new one first.
    pub fn machine_key(&mut self) -> Result<MachineKey, StoreError> {
        let mut pending = self.check_home()?;
        let key = match self.setting(SETTING_MACHINE_KEY)? {
            Some(text) => MachineKey::from_secret_text(&text).map_err(|m| {
                self.ctx
                    .corrupt(format!("setting {SETTING_MACHINE_KEY}"), m)
            })?,
            None => {
                let key = MachineKey::from_secret(self.edge.secret());
                pending.push((SETTING_MACHINE_KEY, key.secret_text()));
                key
            }
        };
        self.set_settings("saving this machine's key", &pending)?;
        Ok(key)
    }

    /// Saves several settings in one transaction (nothing when there are none).
    fn set_settings(
        &mut self,
        doing: &'static str,
        settings: &[(&str, String)],
    ) -> Result<(), StoreError> {
        if settings.is_empty() {
            return Ok(());
        }
        self.transact(doing, |conn, ctx| {
            for (key, value) in settings {
                conn.prepare_cached(queries::SETTING_UPSERT)
                    .and_then(|mut stmt| stmt.execute([*key, value.as_str()]))
                    .map_err(ctx.err("saving a setting"))?;
            }
            Ok(())
        })
    }

    /// Where this library lives: the computer's name and the data folder.
    fn home_mark(&self) -> Option<String> {
        let dir = self.ctx.data_dir.as_deref()?;
        let dir = fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        Some(format!("{} | {}", host_name(), dir.display()))
    }

    /// Notices, once a session, a library that is not where it was last used: a data folder
    /// copied to another computer (or a backup restored on one) must not write under the same
    /// machine id and sign with the same key as the original, or the two would overwrite each
    /// other's file in every shared folder. It takes a new machine id and key, keeping its
    /// history. (A library merely moved does the same: harmless, its old file in a shared
    /// folder is then a departed machine's, which `campaign sync --tidy` removes.)
    fn check_home(&mut self) -> Result<Vec<(&'static str, String)>, StoreError> {
        if self.home_checked || self.read_only.is_some() {
            return Ok(Vec::new());
        }
        self.home_checked = true;
        let Some(home) = self.home_mark() else {
            return Ok(Vec::new());
        };
        match self.setting(SETTING_MACHINE_HOME)? {
            Some(was) if was == home => Ok(Vec::new()),
            Some(_) if self.setting(SETTING_MACHINE_ID)?.is_some() => {
                self.reidentify(
                    "this library was copied or moved here from another computer or folder",
                )?;
                Ok(Vec::new())
            }
            // Saved with whatever the caller saves next: one write, not two.
            _ => Ok(vec![(SETTING_MACHINE_HOME, home)]),
        }
    }

    /// Gives this library a new machine id and signing key (keeping every event and the old id
    /// in `machine.previous`), and a machine name telling it apart from the other copy's; says
    /// so in a notice. Returns the new machine id.
    pub fn reidentify(&mut self, why: &str) -> Result<String, StoreError> {
        let old = self.setting(SETTING_MACHINE_ID)?;
        let id = uuid::Uuid::now_v7().to_string();
        let key = MachineKey::from_secret(self.edge.secret());
        let name = self.recorder()?.machine;
        let base = name
            .rsplit_once(" (")
            .filter(|(_, rest)| rest.len() == 10 && rest.ends_with(')'))
            .map_or(name.as_str(), |(base, _)| base)
            .to_string();
        let new_name = format!("{base} ({})", key.public().fingerprint());
        let mut previous: Vec<String> = self
            .setting(SETTING_MACHINE_PREVIOUS)?
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        previous.extend(old.clone());
        let home = self.home_mark().unwrap_or_default();
        let settings = vec![
            (SETTING_MACHINE_ID, id.clone()),
            (SETTING_MACHINE_KEY, key.secret_text()),
            (SETTING_MACHINE_NAME, new_name.clone()),
            (SETTING_MACHINE_HOME, home),
            (
                SETTING_MACHINE_PREVIOUS,
                serde_json::to_string(&previous).unwrap_or_default(),
            ),
        ];
        self.set_settings("taking a new machine id", &settings)?;
        self.home_checked = true;
        self.notices.push(format!(
            "{why}: from now on it records as a new machine, \"{new_name}\" (key {}), so its events and the other copy's are told apart; everything recorded before is kept",
            key.public().fingerprint()
        ));
        Ok(id)
    }

    /// Deletes a campaign with its battles and events.
    pub fn delete_campaign(&mut self, id: CampaignId) -> Result<(), StoreError> {
        self.transact("deleting a campaign", |conn, ctx| {
            campaign::delete(conn, ctx, id)
        })
    }

    /// A battle's events in order.
    pub fn events_for_battle(&self, battle: BattleId) -> Result<Vec<BattleEvent>, StoreError> {
        campaign::events_for_battle(&self.conn, &self.ctx, battle)
    }

    /// The schema version of the open file.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        self.conn
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(self.ctx.err("reading the schema version"))
    }

    /// Schema version, full integrity check, what the database holds and whether all of it
    /// loads — a file of an older schema as it will load once upgraded (a copy in memory is
    /// upgraded and loaded; the file is not touched).
    pub fn check(&self) -> Result<DbReport, StoreError> {
        let mut report = report(&self.conn, &self.ctx, self.path().map(Path::to_path_buf))?;
        if !report.integrity_ok() {
            return Ok(report);
        }
        if report.schema_version == SCHEMA_VERSION {
            report.content_problems = self.content_problems()?;
        } else if (1..SCHEMA_VERSION).contains(&report.schema_version) {
            report.content_problems = self.upgraded_copy()?.content_problems()?;
        }
        Ok(report)
    }

    /// This library copied into memory and upgraded to this version's schema (what `db check`
    /// loads an older file as).
    fn upgraded_copy(&self) -> Result<Store, StoreError> {
        let ctx = Ctx {
            path: self.ctx.path.clone(),
            data_dir: None,
            busy_timeout: self.ctx.busy_timeout,
        };
        let mut conn = Connection::open_in_memory().map_err(ctx.err("copying into memory"))?;
        rusqlite::backup::Backup::new(&self.conn, &mut conn)
            .and_then(|b| b.run_to_completion(1000, Duration::ZERO, None))
            .map_err(ctx.err("copying into memory"))?;
        migrate::migrate(&mut conn, &self.ctx.path, self.ctx.busy_timeout, None)?;
        Ok(Store {
            conn,
            ctx,
            integrity: Integrity::Sound,
            read_only: Some("checking only".into()),
            notices: Vec::new(),
            home_checked: false,
            edge: Edge::default(),
            page_checked: false,
            session: None,
        })
    }

    /// Checks `data_dir`'s database without creating, upgrading or writing anything.
    /// `Ok(None)`: there is no database there yet.
    pub fn inspect(data_dir: &Path) -> Result<Option<DbReport>, StoreError> {
        let path = data_dir.join(DB_FILE_NAME);
        let backups = backups_dir(data_dir);
        let Some(found) =
            migrate::inspect(&path, Some(&backups), Check::Full, DEFAULT_BUSY_TIMEOUT)?
        else {
            return Ok(None);
        };
        let ctx = Ctx {
            path,
            data_dir: Some(data_dir.to_path_buf()),
            busy_timeout: DEFAULT_BUSY_TIMEOUT,
        };
        // A read-only connection: a store over it can load everything and write nothing.
        let store = Store {
            conn: found.conn,
            ctx,
            integrity: Integrity::Unchecked,
            read_only: Some("checking only".into()),
            notices: Vec::new(),
            home_checked: false,
            edge: Edge::default(),
            page_checked: false,
            session: None,
        };
        store.check().map(Some)
    }
}

fn backup_before_upgrade(
    found: &migrate::Inspected,
    path: &Path,
    data_dir: &Path,
    busy_timeout: Duration,
) -> Result<PathBuf, StoreError> {
    // Upgrading is the moment to be thorough: the quick check passed, now the full one.
    let problems = migrate::integrity(&found.conn, Check::Full).map_err(|e| {
        migrate::classify(
            e,
            path,
            busy_timeout,
            "checking integrity",
            newest_backup(data_dir),
        )
    })?;
    if problems != ["ok"] {
        return Err(StoreError::Damaged {
            path: path.to_path_buf(),
            problem: migrate::summarize(&problems),
            backup: newest_backup(data_dir),
        });
    }
    let dir = migrate::make_backups_dir(data_dir)?;
    let dest = migrate::backup_path(&dir, found.version, "before-upgrade");
    migrate::write_backup(&found.conn, &dest, busy_timeout)?;
    Ok(dest)
}

/// Whether the file holds any table (a file whose version says "empty" but is not).
fn has_tables(conn: &Connection) -> bool {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%')",
        [],
        |row| row.get(0),
    )
    .unwrap_or(false)
}

fn report(conn: &Connection, ctx: &Ctx, path: Option<PathBuf>) -> Result<DbReport, StoreError> {
    let schema_version: i64 = conn
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .map_err(ctx.err("reading the schema version"))?;
    // SQLite packs several findings into one row; one finding per entry reads better.
    let mut integrity: Vec<String> = migrate::integrity(conn, Check::Full)
        .map_err(ctx.err("checking integrity"))?
        .iter()
        .flat_map(|row| row.lines())
        .map(|line| line.trim().to_string())
        .filter(|line| !line.is_empty() && !line.starts_with("*** in database"))
        .collect();
    // Every CHECK constraint the file's own schema declares, whatever its version (SQLite's
    // integrity check evaluates none of them).
    let mut broken = checks::broken_constraints(conn).map_err(ctx.err("checking integrity"))?;
    if schema_version == 0 && has_tables(conn) {
        broken.push(
            "schema version 0 (user_version), but the file holds tables: the version it was written at is lost, so no upgrade can run and every command would fail; restore a backup (`quartermaster db restore FILE`)"
                .to_string(),
        );
    }
    if !broken.is_empty() {
        integrity.retain(|line| line != "ok");
        integrity.extend(broken);
    }
    let journal_mode: String = conn
        .pragma_query_value(None, "journal_mode", |row| row.get(0))
        .map_err(ctx.err("reading the journal mode"))?;
    let counts: [i64; 5] = if schema_version >= 1 {
        conn.query_row(queries::DB_COUNTS, [], |row| {
            Ok([
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
            ])
        })
        .map_err(ctx.err("counting rows"))?
    } else {
        [0; 5]
    };
    let [forces, book_cards, custom_cards, campaigns, battle_events] =
        counts.map(|n| u64::try_from(n).unwrap_or_default());
    Ok(DbReport {
        path,
        schema_version,
        app_schema_version: SCHEMA_VERSION,
        integrity,
        journal_mode,
        forces,
        book_cards,
        custom_cards,
        campaigns,
        battle_events,
        newest_backup: ctx.data_dir.as_deref().and_then(newest_backup),
        content_problems: Vec::new(),
    })
}
