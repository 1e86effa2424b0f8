//! Watching an open shared campaign's folder from a thread of its own, so an idle window draws
//! nothing. Without it the window had to draw a frame every two seconds only to look at the
//! folder, and with software rendering that frame cost more than everything else the idle
//! window did (issue #39: 87 % of an idle window's 2–3 % of a core). The thread compares the
//! campaign's files (name, length, time) now and then and wakes the window only when they
//! changed; the window's look then decides, with the library, whether anything is new.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::time::Duration;

use crate::campaign::CampaignUid;
use crate::store::CampaignId;

/// Asks the window for a frame, from any thread.
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// A folder watched for one campaign; dropping it ends the thread.
pub(super) struct FolderWatch {
    pub id: CampaignId,
    pub folder: PathBuf,
    changed: Arc<AtomicBool>,
    /// Whether the thread runs and wakes the window: when it could not start, the window
    /// looks on its own schedule as before.
    wakes: bool,
    _stop: Option<Sender<()>>,
}

impl std::fmt::Debug for FolderWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FolderWatch")
            .field("id", &self.id)
            .field("folder", &self.folder)
            .field("wakes", &self.wakes)
            .finish_non_exhaustive()
    }
}

impl FolderWatch {
    /// Watches campaign `uid`'s files in `folder` every `every`, calling `wake` when they
    /// change. The first look is due at once: whatever changed between the last read and
    /// this start is not missed.
    pub fn start(
        id: CampaignId,
        uid: CampaignUid,
        folder: PathBuf,
        every: Duration,
        wake: Option<Waker>,
    ) -> FolderWatch {
        let changed = Arc::new(AtomicBool::new(true));
        let Some(wake) = wake else {
            return FolderWatch {
                id,
                folder,
                changed,
                wakes: false,
                _stop: None,
            };
        };
        let (stop, stopped) = mpsc::channel::<()>();
        let flag = Arc::clone(&changed);
        let watched = folder.clone();
        // Taken here, not on the thread: a change made right after the start is seen.
        let mut last = crate::sync::folder_stamp(&watched, uid);
        let spawned = std::thread::Builder::new()
            .name("folder-watch".into())
            .spawn(move || {
                // The sender is dropped with the watch: the thread ends at its next tick.
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                    let now = crate::sync::folder_stamp(&watched, uid);
                    if now != last {
                        last = now;
                        flag.store(true, Ordering::Release);
                        wake();
                    }
                }
            });
        FolderWatch {
            id,
            folder,
            changed,
            wakes: spawned.is_ok(),
            _stop: Some(stop),
        }
    }

    /// Whether the folder changed since the last call (and forgets it).
    pub fn take_changed(&self) -> bool {
        self.changed.swap(false, Ordering::AcqRel)
    }

    /// Whether the thread wakes the window on a change.
    pub fn wakes(&self) -> bool {
        self.wakes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// A change to a campaign file wakes the window; other files and a quiet folder do not.
    #[test]
    fn a_changed_file_wakes_the_window_and_nothing_else_does() {
        let dir = tempfile::tempdir().unwrap();
        let uid = CampaignUid(uuid::Uuid::from_u128(7));
        let woken = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&woken);
        let watch = FolderWatch::start(
            CampaignId(1),
            uid,
            dir.path().to_path_buf(),
            Duration::from_millis(5),
            Some(Arc::new(move || {
                counter.fetch_add(1, Ordering::SeqCst);
            })),
        );
        assert!(watch.wakes());
        assert!(watch.take_changed(), "the first look is due at once");
        assert!(!watch.take_changed());

        // Another campaign's file and a stray file: not this campaign's.
        std::fs::write(dir.path().join("notes.txt"), "x").unwrap();
        std::fs::write(
            dir.path().join(format!(
                "qm-{}-m.jsonl",
                CampaignUid(uuid::Uuid::from_u128(8))
            )),
            "x",
        )
        .unwrap();
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(woken.load(Ordering::SeqCst), 0, "woken for nothing");
        assert!(!watch.take_changed());

        std::fs::write(dir.path().join(format!("qm-{uid}-m.jsonl")), "x").unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        while woken.load(Ordering::SeqCst) == 0 && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(
            woken.load(Ordering::SeqCst),
            1,
            "the new file woke the window once"
        );
        assert!(watch.take_changed());
    }
}
