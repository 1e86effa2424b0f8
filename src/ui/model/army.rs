//! Importing the player's army data from the window: the files are read, unzipped and parsed
//! on a thread of their own (a 2 MB catalogue takes a few hundred milliseconds, a folder of
//! them seconds), so the window stays responsive and shows a progress bar; the same thread
//! stores the import in one transaction through the library's worker ([`Store::worker`]: on the
//! drawing thread the write and reading the cards back made a 30 ms frame). What it left out
//! and what it would change in each saved force are shown until the player dismisses them.
//! Nothing is re-priced until the player asks ([`super::Command::Reprice`]).

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Mutex};

use crate::rules::Card;
use crate::rules::army_data::{self, Import, ImportFile, LineChange};
use crate::rules::battlescribe::DataError;
use crate::store::{ForceId, Store, StoreError, StoredFile};

/// An import under way: files read so far and in all, and the thread's answer.
#[derive(Debug)]
pub struct ArmyImport {
    progress: Arc<Mutex<(usize, usize)>>,
    done: Receiver<Result<Imported, DataError>>,
}

/// What the import thread did with the files it read.
#[derive(Debug)]
pub enum Imported {
    /// Stored by the worker, which comes back with what the library now holds.
    Stored {
        worker: Box<Store>,
        stored: Result<StoredImport, StoreError>,
    },
    /// Read only (there was no worker): the window stores it.
    Read(Import),
}

/// An import as stored, with the army data the library then holds.
#[derive(Debug)]
pub struct StoredImport {
    pub files: Vec<StoredFile>,
    /// The newest revision's cards and force organisations, as the window shows them (read
    /// back after the import was stored, so an error here leaves the import stored).
    pub army: Result<(Vec<Card>, Vec<army_data::ForceOrg>), StoreError>,
    pub changes: Vec<(ForceId, String, Vec<LineChange>)>,
}

/// The army data the window shows: the newest revision's cards and force organisations.
pub fn shown_army(store: &Store) -> Result<(Vec<Card>, Vec<army_data::ForceOrg>), StoreError> {
    Ok((store.army_cards()?, store.army_force_orgs()?))
}

impl StoredImport {
    /// Stores `import` in `store` in one transaction and reads back what it now holds.
    pub fn store(store: &mut Store, import: &Import) -> Result<StoredImport, StoreError> {
        let files = store.import_army_data(import)?;
        Ok(StoredImport {
            files,
            army: shown_army(store),
            // What the import would change in each saved force: shown, not needed to import.
            changes: store.army_changes().unwrap_or_default(),
        })
    }
}

impl ArmyImport {
    /// Starts reading `paths` against the game systems stored before (`known`); `worker`, when
    /// there is one, stores what was read on the same thread.
    pub fn start(paths: Vec<PathBuf>, known: Vec<ImportFile>, worker: Option<Store>) -> ArmyImport {
        let progress = Arc::new(Mutex::new((0, 0)));
        let told = progress.clone();
        let (send, done) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("army-data-import".into())
            .spawn(move || {
                let result = crate::store::read_paths(&paths).and_then(|files| {
                    if let Ok(mut p) = told.lock() {
                        *p = (0, files.len());
                    }
                    army_data::read_import(&files, &known, &mut |done, total| {
                        if let Ok(mut p) = told.lock() {
                            *p = (done, total);
                        }
                    })
                });
                let imported = result.map(|import| match worker {
                    Some(mut worker) => {
                        let stored = StoredImport::store(&mut worker, &import);
                        Imported::Stored {
                            worker: Box::new(worker),
                            stored,
                        }
                    }
                    None => Imported::Read(import),
                });
                let _ = send.send(imported);
            });
        if let Err(error) = spawned {
            let (send, done) = mpsc::channel();
            let _ = send.send(Err(DataError::Unreadable {
                file: "the import".into(),
                message: format!("cannot start reading: {error}"),
            }));
            return ArmyImport { progress, done };
        }
        ArmyImport { progress, done }
    }

    /// Files read so far and in all (0 of 0 while the files are still being found).
    pub fn progress(&self) -> (usize, usize) {
        self.progress.lock().map_or((0, 0), |p| *p)
    }

    /// The thread's answer, once it has one.
    pub fn poll(&self) -> Option<Result<Imported, DataError>> {
        match self.done.try_recv() {
            Ok(result) => Some(result),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(DataError::Unreadable {
                file: "the import".into(),
                message: "the reading thread stopped without an answer".into(),
            })),
        }
    }
}

/// What an import did, shown until the player closes it.
#[derive(Debug, Clone, PartialEq)]
pub struct ArmyReport {
    pub files: Vec<StoredFile>,
    /// Each saved force priced with an older revision, with what the newest would change.
    pub changes: Vec<(ForceId, String, Vec<LineChange>)>,
}
