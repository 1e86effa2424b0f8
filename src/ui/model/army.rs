//! Importing the player's army data from the window: the files are read, unzipped and parsed
//! on a thread of their own (a 2 MB catalogue takes a few hundred milliseconds, a folder of
//! them seconds), so the window stays responsive and shows a progress bar; the import is
//! stored in one transaction when the thread is done, and what it left out and what it would
//! change in each saved force are shown until the player dismisses them. Nothing is re-priced
//! until the player asks ([`super::Command::Reprice`]).

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Mutex};

use crate::rules::army_data::{self, Import, ImportFile, LineChange};
use crate::rules::battlescribe::DataError;
use crate::store::{ForceId, StoredFile};

/// An import under way: files read so far and in all, and the thread's answer.
#[derive(Debug)]
pub struct ArmyImport {
    progress: Arc<Mutex<(usize, usize)>>,
    done: Receiver<Result<Import, DataError>>,
}

impl ArmyImport {
    /// Starts reading `paths` against the game systems stored before (`known`).
    pub fn start(paths: Vec<PathBuf>, known: Vec<ImportFile>) -> ArmyImport {
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
                let _ = send.send(result);
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
    pub fn poll(&self) -> Option<Result<Import, DataError>> {
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
