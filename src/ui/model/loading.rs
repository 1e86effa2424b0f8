//! The window's start with a club's library: forces and campaigns are read at once, while a
//! background thread decodes the custom cards and runs the full integrity check, so the first
//! frame does not wait for 100,000 cards (about 0.3 s) nor the first save for the check
//! (about 0.3 s on a 50 MB file).
//!
//! The thread reads through its own connection ([`BackgroundReader`]), a snapshot; edits made
//! while it works are remembered and read again when its cards arrive.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};

use crate::rules::Card;
use crate::store::{BackgroundCheck, BackgroundReader, CardId, Store, StoreError};

use super::cards::{CardFacts, Facets};

/// From this many custom cards on, the window reads them in the background; fewer decode
/// faster than a frame, so they are read before the first one.
pub const BACKGROUND_FROM_CARDS: usize = 2_000;

/// The custom cards as decoded by the background thread, with their facts.
#[derive(Debug)]
pub(super) struct LoadedCards {
    pub cards: Vec<(CardId, Card)>,
    pub facts: Vec<CardFacts>,
    pub facets: Facets,
}

/// What the background thread sends, once each.
#[derive(Debug)]
pub(super) enum Finished {
    Cards(Result<LoadedCards, StoreError>),
    Check(Result<BackgroundCheck, StoreError>),
    /// The thread ended without sending the cards (it could not start, or it panicked).
    CardsLost,
}

/// Background work under way.
#[derive(Debug)]
pub(super) struct Background {
    received: Receiver<Finished>,
    /// Custom cards decoded so far, and how many there are; `None` once they have arrived or
    /// when they were read before the first frame.
    cards: Option<(Arc<AtomicUsize>, usize)>,
    /// Custom cards saved or deleted while the thread was decoding: its copy of them is stale.
    pub touched: Vec<CardId>,
}

impl Background {
    /// Starts the thread: it decodes the custom cards when `load_cards` (that many), then runs
    /// the full integrity check.
    pub fn start(reader: BackgroundReader, load_cards: Option<usize>) -> Background {
        let (send, received) = mpsc::channel();
        let decoded = Arc::new(AtomicUsize::new(0));
        let progress = decoded.clone();
        let wants_cards = load_cards.is_some();
        let spawned = std::thread::Builder::new()
            .name("library-loader".into())
            .spawn(move || {
                if wants_cards {
                    let cards = reader
                        .custom_cards(&mut |n| progress.store(n, Ordering::Relaxed))
                        .map(|cards| {
                            let facts: Vec<CardFacts> =
                                cards.iter().map(|(_, card)| CardFacts::of(card)).collect();
                            let facets = Facets::of(&facts);
                            LoadedCards {
                                cards,
                                facts,
                                facets,
                            }
                        });
                    // The window may have closed meanwhile; nobody is left to tell.
                    let _ = send.send(Finished::Cards(cards));
                }
                let _ = send.send(Finished::Check(reader.full_check()));
            });
        // A thread that could not start drops its sender: the first poll then reports the
        // cards lost and the model reads them itself.
        drop(spawned);
        Background {
            received,
            cards: load_cards.map(|total| (decoded, total)),
            touched: Vec::new(),
        }
    }

    /// Custom cards decoded so far and in all, while they are still loading.
    pub fn card_progress(&self) -> Option<(usize, usize)> {
        self.cards
            .as_ref()
            .map(|(decoded, total)| (decoded.load(Ordering::Relaxed), *total))
    }

    /// Whether the cards are still to come.
    pub fn cards_pending(&self) -> bool {
        self.cards.is_some()
    }

    /// What has arrived since the last call, and whether the thread is done.
    pub fn poll(&mut self) -> (Vec<Finished>, bool) {
        let mut arrived = Vec::new();
        loop {
            match self.received.try_recv() {
                Ok(message) => {
                    if matches!(message, Finished::Cards(_)) {
                        self.cards = None;
                    }
                    arrived.push(message);
                }
                Err(TryRecvError::Empty) => return (arrived, false),
                Err(TryRecvError::Disconnected) => {
                    if self.cards.take().is_some() {
                        arrived.push(Finished::CardsLost);
                    }
                    return (arrived, true);
                }
            }
        }
    }
}

/// From this many events on, the window opens a campaign in the background: a 100,000-event
/// campaign takes about half a second to read and fold.
pub const BACKGROUND_FROM_EVENTS: usize = 5_000;

/// A campaign being opened in the background: read and folded by a thread of its own.
#[derive(Debug)]
pub struct CampaignLoad {
    pub id: crate::store::CampaignId,
    /// How many events it holds, for the page to say.
    pub events: usize,
    received: Receiver<Result<super::campaign::OpenCampaign, StoreError>>,
}

impl CampaignLoad {
    /// Starts reading campaign `id` through `reader`.
    pub fn start(
        reader: BackgroundReader,
        id: crate::store::CampaignId,
        shared: Option<std::path::PathBuf>,
        events: usize,
    ) -> CampaignLoad {
        let (send, received) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("campaign-loader".into())
            .spawn(move || {
                let open = reader.load_campaign(id).map(|stored| {
                    super::campaign::OpenCampaign::at_first_unfinished(stored, shared)
                });
                // The window may have closed, or opened another campaign, meanwhile.
                let _ = send.send(open);
            });
        // A thread that could not start drops its sender: the poll then says so.
        drop(spawned);
        CampaignLoad {
            id,
            events,
            received,
        }
    }

    /// The campaign once it has arrived (`Some(Err)`: it could not be read, or the thread
    /// ended without it); `None` while it is still being read.
    pub fn poll(&self) -> Option<Result<super::campaign::OpenCampaign, String>> {
        match self.received.try_recv() {
            Ok(loaded) => Some(loaded.map_err(|e| e.to_string())),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(
                "the campaign could not be read in the background".to_string(),
            )),
        }
    }
}

/// A look at the open campaign's shared folder, its files read by a thread of its own: reading
/// what another machine wrote (a whole file when one joins: 50 MB at 100,000 events) must not
/// hold a frame. With a [`Store::worker`] the same thread takes what it read into the library
/// (merging into a battle of 1,000 events and committing took 14 ms, most of a frame); without
/// one (a library in memory) what it read is taken in between frames.
#[derive(Debug)]
pub struct FolderReading {
    pub id: crate::store::CampaignId,
    received: Receiver<Result<Looked, String>>,
}

/// What a look at the folder brought back.
#[derive(Debug)]
pub enum Looked {
    /// The files as read, for the window to take in.
    Read(crate::sync::FolderRead),
    /// Taken in by the worker, which comes back with the report (`None`: the library synced
    /// the folder since the read began, so the read was out of date).
    Taken {
        worker: Box<Store>,
        taken: Result<Option<crate::sync::SyncReport>, crate::sync::SyncError>,
    },
}

impl FolderReading {
    /// Starts reading `folder` from where `look` says the last sync stopped.
    /// `reader`, where the library can be opened a second time, leaves out the events it
    /// holds already on the same thread; `worker` then takes the rest in.
    pub fn start(
        look: crate::sync::FolderLook,
        id: crate::store::CampaignId,
        folder: std::path::PathBuf,
        reader: Option<BackgroundReader>,
        worker: Option<Store>,
    ) -> FolderReading {
        let (send, received) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("folder-reader".into())
            .spawn(move || {
                let read = look.read(&folder).map(|mut read| {
                    let held = reader.map(|r| r.stored_event_ids(&read.event_ids()));
                    if let Some(Ok(held)) = held {
                        read.drop_held(&held);
                    }
                    read
                });
                let looked = match (read, worker) {
                    (Ok(read), Some(mut worker)) => {
                        let taken = crate::sync::take_read(&mut worker, id, read);
                        Ok(Looked::Taken {
                            worker: Box::new(worker),
                            taken,
                        })
                    }
                    (read, _) => read.map(Looked::Read),
                };
                // The window may have closed, or opened another campaign, meanwhile.
                let _ = send.send(looked.map_err(|e| e.to_string()));
            });
        drop(spawned);
        FolderReading { id, received }
    }

    /// What the look brought back once the thread is done (`Some(Err)`: the folder could not
    /// be listed, or the thread ended without an answer); `None` while it is still at work.
    pub fn poll(&self) -> Option<Result<Looked, String>> {
        match self.received.try_recv() {
            Ok(looked) => Some(looked),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                Some(Err("the shared folder could not be read".to_string()))
            }
        }
    }
}
