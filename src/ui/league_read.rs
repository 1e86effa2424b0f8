//! The League's folder read on a thread of its own, so the window keeps drawing while 200
//! campaigns are read and verified: the thread tells how many of the folder's files it has
//! done, and hands back the ranked table with the cache it read through (the window keeps the
//! cache for its session, so the next refresh opens only what changed).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};

use crate::campaign::league::{League, rank};
use crate::sync::league::{LeagueCache, Skipped, read_league_folder_cached};

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

/// A read under way.
#[derive(Debug)]
pub struct LeagueRead {
    pub folder: PathBuf,
    /// Files (or shared folders) done, and in all.
    progress: Arc<[AtomicUsize; 2]>,
    received: Receiver<LeagueDone>,
}

impl LeagueRead {
    /// Starts reading `folder` through `cache`, or when that is empty through the cache an
    /// earlier session `saved` (so a League opened again reads only the files that changed).
    pub fn start(folder: PathBuf, mut cache: LeagueCache, saved: Option<String>) -> LeagueRead {
        let progress = Arc::new([AtomicUsize::new(0), AtomicUsize::new(0)]);
        let told = progress.clone();
        let (send, received) = mpsc::channel();
        let reading = folder.clone();
        let spawned = std::thread::Builder::new()
            .name("league-reader".into())
            .spawn(move || {
                if let Some(saved) = saved.filter(|_| cache.is_empty()) {
                    cache = LeagueCache::saved_for(&saved, &reading);
                }
                let read = read_league_folder_cached(&reading, &mut cache, &|done, total| {
                    // Readers finish side by side: the count only goes forward.
                    told[0].fetch_max(done, Ordering::Relaxed);
                    told[1].store(total, Ordering::Relaxed);
                })
                .map(|read| (rank(&read.sources), read.skipped, read.files_read))
                .map_err(|e| e.to_string());
                // The window may have closed meanwhile; nobody is left to tell.
                let saved = cache.to_saved(&reading);
                let _ = send.send(LeagueDone {
                    folder: reading,
                    read,
                    cache,
                    saved,
                });
            });
        // A thread that could not start drops its sender: the first poll says so.
        drop(spawned);
        LeagueRead {
            folder,
            progress,
            received,
        }
    }

    /// Files done so far and in all (0 of 0 while the folder is still being listed).
    pub fn progress(&self) -> (usize, usize) {
        (
            self.progress[0].load(Ordering::Relaxed),
            self.progress[1].load(Ordering::Relaxed),
        )
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
