//! The League's folder read on a thread of its own, so the window keeps drawing while 200
//! campaigns are read and verified: the thread tells how many of the folder's files it has
//! done, ranks the campaigns verified so far (a first read of a big folder shows its table
//! growing rather than a spinner for seconds), and hands back the ranked table with the cache
//! it read through (the window keeps the cache for its session, so the next refresh opens only
//! what changed).

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::model::Waker;
use crate::campaign::league::{League, rank};
use crate::sync::league::{LeagueCache, Skipped, SoFar, Told, read_league_folder_cached};

/// What a finished read gives back.
#[derive(Debug)]
pub struct LeagueDone {
    pub folder: PathBuf,
    /// The table, the files left out and how many files were opened (the others were as last
    /// read), or why the folder could not be read.
    pub read: Result<(League, Vec<Skipped>, usize), String>,
    /// The cache, refilled (or as it was, when the folder could not be read).
    pub cache: LeagueCache,
    /// The cache as text for the library to keep between sessions, made on the reading thread.
    pub saved: String,
}

/// What the reading side and the window share while a read is under way.
#[derive(Debug, Default)]
struct Shared {
    /// Files (or shared folders) done, and in all.
    progress: [AtomicUsize; 2],
    so_far: Mutex<Growing>,
}

/// The campaigns verified so far, and their table as last ranked.
#[derive(Debug, Default)]
struct Growing {
    so_far: SoFar,
    /// `None` until a campaign is verified.
    table: Option<Arc<League>>,
    ranked_at: Option<Instant>,
}

/// The table so far is ranked again at most this often: the window shows ten frames a second,
/// and ranking at every campaign of a folder of thousands would cost as much as reading it.
const RANK_EVERY: Duration = Duration::from_millis(100);

/// A read under way.
#[derive(Debug)]
pub struct LeagueRead {
    pub folder: PathBuf,
    shared: Arc<Shared>,
    received: Receiver<LeagueDone>,
}

/// The reading side of a [`LeagueRead`]: tells it how the read goes, then hands the read over.
pub struct LeagueFeed {
    shared: Arc<Shared>,
    send: Sender<LeagueDone>,
    /// Asks the window for a frame once the read is done.
    wake: Option<Waker>,
}

impl LeagueFeed {
    /// One campaign done (or the count at the start): counted, and ranked with those before.
    pub fn told(&self, told: &Told<'_>) {
        let progress = &self.shared.progress;
        // Readers finish side by side: the count only goes forward.
        progress[0].fetch_max(told.done, Ordering::Relaxed);
        progress[1].store(told.of, Ordering::Relaxed);
        if told.gave.is_empty() {
            return;
        }
        // Ranked here, on the reading threads: a frame only takes the table as last ranked.
        // A poisoned lock (a reader panicked) only stops the table growing.
        if let Ok(mut growing) = self.shared.so_far.lock() {
            growing.so_far.add(told);
            if growing
                .ranked_at
                .is_none_or(|at| at.elapsed() >= RANK_EVERY)
            {
                growing.table = Some(Arc::new(growing.so_far.table()));
                growing.ranked_at = Some(Instant::now());
            }
        }
    }

    /// The read is done. The window may have closed meanwhile; nobody is then left to tell.
    pub fn done(self, done: LeagueDone) {
        let _ = self.send.send(done);
        if let Some(wake) = &self.wake {
            wake();
        }
    }
}

impl LeagueRead {
    /// Starts reading `folder` through `cache`, or when that is empty through the cache an
    /// earlier session `saved` (so a League opened again reads only the files that changed);
    /// `wake` asks the window for a frame when the read is done.
    pub fn start(
        folder: PathBuf,
        mut cache: LeagueCache,
        saved: Option<String>,
        wake: Option<Waker>,
    ) -> LeagueRead {
        let (read, mut feed) = LeagueRead::pending(folder.clone());
        feed.wake = wake;
        let spawned = std::thread::Builder::new()
            .name("league-reader".into())
            .spawn(move || {
                if let Some(saved) = saved.filter(|_| cache.is_empty()) {
                    cache = LeagueCache::saved_for(&saved, &folder);
                }
                let read = read_league_folder_cached(&folder, &mut cache, &|t| feed.told(&t))
                    .map(|read| (rank(&read.sources), read.skipped, read.files_read))
                    .map_err(|e| e.to_string());
                let saved = cache.to_saved(&folder);
                feed.done(LeagueDone {
                    folder,
                    read,
                    cache,
                    saved,
                });
            });
        // A thread that could not start drops its sender: the first poll says so.
        drop(spawned);
        read
    }

    /// A read of `folder` told by whoever holds the feed (the reading thread, or a test).
    pub fn pending(folder: PathBuf) -> (LeagueRead, LeagueFeed) {
        let shared = Arc::new(Shared::default());
        let (send, received) = mpsc::channel();
        let feed = LeagueFeed {
            shared: shared.clone(),
            send,
            wake: None,
        };
        (
            LeagueRead {
                folder,
                shared,
                received,
            },
            feed,
        )
    }

    /// Files done so far and in all (0 of 0 while the folder is still being listed).
    pub fn progress(&self) -> (usize, usize) {
        let progress = &self.shared.progress;
        (
            progress[0].load(Ordering::Relaxed),
            progress[1].load(Ordering::Relaxed),
        )
    }

    /// The table of the campaigns verified so far, once there is one.
    pub fn table_so_far(&self) -> Option<Arc<League>> {
        self.shared.so_far.lock().ok()?.table.clone()
    }

    /// The read once it is done (`Err`: the thread ended without one, its cache lost);
    /// `None` while it is under way.
    pub fn poll(&self) -> Option<Result<LeagueDone, String>> {
        match self.received.try_recv() {
            Ok(done) => Some(Ok(done)),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(format!(
                "reading {} stopped without an answer",
                self.folder.display()
            ))),
        }
    }
}
