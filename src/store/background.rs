//! A second, read-only connection to the open file, for the work a window does off its
//! drawing thread: decoding a club's 100,000 custom cards, and the full integrity check a
//! session's first write would otherwise run while the player waits.
//!
//! WAL lets this connection read while the window's connection writes. Its reads are one
//! snapshot each, so cards decoded here are as they were when the read began; the window merges
//! its own edits on top.

use rusqlite::{Connection, OpenFlags};

use super::error::StoreError;
use super::migrate::{self, Check};
use super::{CardId, Ctx, Store, cards};
use crate::rules::Card;

/// A read-only connection to the same file as a [`Store`], movable to another thread.
pub struct BackgroundReader {
    conn: Connection,
    ctx: Ctx,
    /// The store connection's `PRAGMA data_version` when this reader was made: it changes
    /// whenever another connection commits, which tells whether a check made here still holds.
    data_version: i64,
}

impl std::fmt::Debug for BackgroundReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BackgroundReader")
            .field("path", &self.ctx.path)
            .finish_non_exhaustive()
    }
}

/// A full integrity check made by a [`BackgroundReader`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackgroundCheck {
    /// SQLite's findings: `["ok"]` when the file is sound.
    pub problems: Vec<String>,
    data_version: i64,
}

impl BackgroundCheck {
    /// True when the file passed.
    pub fn ok(&self) -> bool {
        self.problems == ["ok"]
    }

    /// The findings on one line, as a refused write names them.
    pub fn summary(&self) -> String {
        migrate::summarize(&self.problems)
    }
}

impl BackgroundReader {
    /// How many custom cards [`BackgroundReader::custom_cards`] will decode.
    pub fn custom_card_count(&self) -> Result<usize, StoreError> {
        cards::count(&self.conn, &self.ctx, cards::CardOrigin::Custom)
    }

    /// Every custom card, in the store's order, calling `progress` with the number decoded
    /// so far every few thousand cards.
    pub fn custom_cards(
        &self,
        progress: &mut dyn FnMut(usize),
    ) -> Result<Vec<(CardId, Card)>, StoreError> {
        cards::list_with_progress(&self.conn, &self.ctx, cards::CardOrigin::Custom, progress)
    }

    /// A campaign with every battle's log, read through this connection (the window opens a
    /// long campaign this way, off its drawing thread).
    pub fn load_campaign(
        &self,
        id: super::CampaignId,
    ) -> Result<super::StoredCampaign, StoreError> {
        super::campaign::load(&self.conn, &self.ctx, id)
    }

    /// Which of these event ids the library holds (a look at a shared folder leaves them out
    /// on its own thread, so taking in a joining machine's whole file does not look up 100,000
    /// ids between two frames).
    pub fn stored_event_ids(
        &self,
        ids: &[crate::campaign::EventUid],
    ) -> Result<std::collections::HashSet<crate::campaign::EventUid>, StoreError> {
        super::campaign::stored_ids(&self.conn, &self.ctx, ids)
    }

    /// `PRAGMA integrity_check` over the whole file.
    pub fn full_check(&self) -> Result<BackgroundCheck, StoreError> {
        let problems = migrate::integrity(&self.conn, Check::Full)
            .map_err(self.ctx.err("checking integrity"))?;
        Ok(BackgroundCheck {
            problems,
            data_version: self.data_version,
        })
    }
}

impl Store {
    /// A read-only connection to this store's file for work on another thread; `None` in
    /// memory, or where the file cannot be opened a second time (it is then read here).
    pub fn background_reader(&self) -> Option<BackgroundReader> {
        self.ctx.data_dir.as_ref()?;
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(&self.ctx.path, flags).ok()?;
        conn.busy_timeout(self.ctx.busy_timeout).ok()?;
        Some(BackgroundReader {
            conn,
            ctx: self.ctx.clone(),
            data_version: self.data_version().ok()?,
        })
    }

    /// A second writing session of this store's file for work on another thread (taking in
    /// what other machines wrote to a shared folder while the window draws); `None` in memory,
    /// read-only, damaged, or where the file cannot be opened a second time.
    ///
    /// It is this session's writer as much as the store is: it starts from the store's
    /// integrity (a clean open's check holds for it while nobody else commits, as for the
    /// store), never stamps the file clean itself, and hands its verdict back through
    /// [`Store::worker_returned`].
    pub fn worker(&self) -> Option<Store> {
        self.ctx.data_dir.as_ref()?;
        if self.read_only.is_some() {
            return None;
        }
        let holds = match self.integrity {
            super::Integrity::Sound => Some(true),
            super::Integrity::CheckedAt(version) => Some(self.data_version().ok()? == version),
            super::Integrity::Unchecked => Some(false),
            super::Integrity::Damaged(_) => None,
        }?;
        let (conn, read_only) = super::access::open(&self.ctx.path, &self.ctx).ok()?;
        if read_only.is_some() {
            return None;
        }
        let mut worker = Store {
            conn,
            ctx: self.ctx.clone(),
            integrity: super::Integrity::Unchecked,
            read_only: None,
            notices: Vec::new(),
            home_checked: self.home_checked,
            edge: super::Edge {
                admitted: Vec::new(),
                ..self.edge.clone()
            },
            page_checked: false,
            session: None,
        };
        worker.configure().ok()?;
        if holds {
            worker.integrity = super::Integrity::CheckedAt(worker.data_version().ok()?);
        }
        Some(worker)
    }

    /// Takes back what a [`Store::worker`] learnt: damage it found is believed here too, and a
    /// write it made under a sound check spares this session's next write its own (the
    /// worker's commit would otherwise look like another program's, and have the window's
    /// next write check 50 MB while the player waits).
    pub fn worker_returned(&mut self, worker: &Store) {
        match (&worker.integrity, &self.integrity) {
            (super::Integrity::Damaged(problem), _) => {
                self.integrity = super::Integrity::Damaged(problem.clone());
            }
            (
                super::Integrity::Sound,
                super::Integrity::Unchecked | super::Integrity::CheckedAt(_),
            ) => {
                self.integrity = super::Integrity::Sound;
            }
            _ => {}
        }
        if worker.home_checked {
            self.home_checked = true;
        }
    }

    /// Takes a background check's verdict. Damage is believed at once (every write is then
    /// refused); a clean result spares the first write its own check only while no other
    /// connection has committed since the reader was made, which that write verifies under its
    /// lock.
    pub fn accept_background_check(&mut self, check: &BackgroundCheck) {
        if !check.ok() {
            self.integrity = super::Integrity::Damaged(check.summary());
        } else if self.integrity == super::Integrity::Unchecked {
            self.integrity = super::Integrity::CheckedAt(check.data_version);
        }
    }

    /// The file's problem found by a full check this session, if any.
    pub fn known_damage(&self) -> Option<&str> {
        match &self.integrity {
            super::Integrity::Damaged(problem) => Some(problem),
            _ => None,
        }
    }

    pub(crate) fn data_version(&self) -> Result<i64, StoreError> {
        data_version(&self.conn).map_err(self.ctx.err("reading the data version"))
    }
}

/// `PRAGMA data_version` of `conn`.
pub(crate) fn data_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA data_version", [], |row| row.get(0))
}
