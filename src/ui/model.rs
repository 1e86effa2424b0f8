//! The app's data model: the store, the forces, the open force, undo history and notices.
//!
//! Views never touch this directly; they return actions and [`Model::apply`] carries them out.
//! Every change is saved at once (there is no Save button to forget) and recorded for undo.

use std::path::{Path, PathBuf};

use crate::rules::validation::{Fix, Validation, validate};
use crate::rules::{self, Card, CardRef, Force, ForceUnit, RulesetId, force_file};
use crate::store::{CardChange, CardId, ForceId, ForceSummary, Store};

use super::history::{Change, History};

mod army;
mod campaign;
mod cards;
mod folder_watch;
mod loading;

pub use army::{ArmyImport, ArmyReport};
pub use campaign::{CampaignCommand, FOLDER_LOOK_EVERY, OpenCampaign, TidySurvey};
pub use cards::{CardEntry, CardFacts, CardKey, Facets, search_text};
pub use folder_watch::Waker;
pub use loading::BACKGROUND_FROM_CARDS;

/// A message for the user. The window shows it for a few seconds; every notice of the session
/// stays in [`Model::notice_log`].
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    /// Unique within the session, so a view can time and dismiss this notice.
    pub id: u64,
    pub text: String,
    pub is_error: bool,
}

/// How many past notices the session keeps for the history.
const NOTICE_LOG_LIMIT: usize = 200;

/// The force being edited, with its check results.
#[derive(Debug, Clone)]
pub struct OpenForce {
    pub id: ForceId,
    pub force: Force,
    pub validation: Validation,
    /// Book cards that changed since the force was saved.
    pub card_changes: Vec<CardChange>,
}

/// Everything that changes data.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    NewForce {
        ruleset: RulesetId,
        name: String,
        budget: rules::Budget,
    },
    NewFromBriefing(String),
    Open(ForceId),
    Close,
    /// Replace the open force with an edited copy (autosaved).
    Edit {
        force: Force,
        label: String,
    },
    ApplyFix(Fix),
    Delete(ForceId),
    Duplicate(ForceId),
    Import(PathBuf),
    /// Read a pasted text list (as "Copy as text" writes it) into a new force.
    ImportList(String),
    Export {
        id: ForceId,
        path: PathBuf,
    },
    SaveCustomCard {
        id: Option<CardId>,
        card: Card,
    },
    DeleteCustomCard(CardId),
    /// Read army data (BattleScribe folders and files) in the background and store it.
    ImportArmyData(Vec<PathBuf>),
    /// Re-price a saved force with the newest imported army data.
    Reprice(ForceId),
    /// Close the report of the last army data import.
    DismissArmyReport,
    Undo,
    Redo,
    /// Take the notice with this id off the screen (it stays in the history).
    DismissNotice(u64),
    Campaign(CampaignCommand),
}

impl Command {
    /// It records, creates or deletes something (opening, closing and dismissing do not): the
    /// second click of a double click must not repeat it.
    pub fn changes_data(&self) -> bool {
        match self {
            Command::Open(_) | Command::Close | Command::DismissNotice(_) => false,
            Command::Campaign(command) => command.changes_data(),
            _ => true,
        }
    }

    /// The command's name alone, without the force, card or path it carries (for a crash
    /// report's "last actions").
    pub fn kind(&self) -> &'static str {
        match self {
            Command::NewForce { .. } => "New force",
            Command::NewFromBriefing(_) => "New from briefing",
            Command::Open(_) => "Open force",
            Command::Close => "Close force",
            Command::Edit { .. } => "Edit force",
            Command::ApplyFix(_) => "Apply fix",
            Command::Delete(_) => "Delete force",
            Command::Duplicate(_) => "Duplicate force",
            Command::Import(_) => "Import force",
            Command::ImportList(_) => "Paste list",
            Command::Export { .. } => "Export force",
            Command::SaveCustomCard { .. } => "Save custom card",
            Command::DeleteCustomCard(_) => "Delete custom card",
            Command::ImportArmyData(_) => "Import army data",
            Command::Reprice(_) => "Re-price force",
            Command::DismissArmyReport => "Dismiss army data report",
            Command::Undo => "Undo",
            Command::Redo => "Redo",
            Command::DismissNotice(_) => "Dismiss notice",
            Command::Campaign(_) => "Campaign",
        }
    }
}

/// The model behind the window.
pub struct Model {
    /// The library's second writing session for writes made off the drawing thread (a shared
    /// folder's events taken in, army data stored), kept between them (`None` while a thread
    /// has it, or where there is none). First, so it closes before the store: the last
    /// connection to close leaves the file whole and stamped clean.
    worker: Option<Store>,
    store: Store,
    pub forces: Vec<ForceSummary>,
    pub open: Option<OpenForce>,
    pub custom_cards: Vec<(CardId, Card)>,
    /// The cards of the newest revision of each imported catalogue (after the custom cards in
    /// [`Model::card_entries`]).
    pub army_cards: Vec<Card>,
    /// The force organisations of the newest imported game systems.
    pub army_orgs: Vec<rules::army_data::ForceOrg>,
    /// An army data import reading in the background.
    pub army_import: Option<ArmyImport>,
    /// What the last army data import did, until the player closes it.
    pub army_report: Option<ArmyReport>,
    /// Every card's searchable words, remade only when the cards change.
    card_facts: Vec<CardFacts>,
    /// [`Facets`] of `card_facts`, kept in step with it.
    facets: Facets,
    /// Notices on screen now.
    pub notices: Vec<Notice>,
    /// Every notice of the session, newest last (the most recent [`NOTICE_LOG_LIMIT`]).
    pub notice_log: Vec<Notice>,
    next_notice: u64,
    campaigns: Vec<crate::store::CampaignSummary>,
    pub campaign: Option<OpenCampaign>,
    /// A campaign being opened in the background, while it is read.
    pub(super) opening: Option<loading::CampaignLoad>,
    /// The shared folder's files as last surveyed for tidying.
    pub tidy: Option<TidySurvey>,
    /// When the open campaign's shared folder was last looked at.
    last_folder_look: Option<std::time::Instant>,
    /// The look at that folder under way, its files read on a thread of its own.
    pub(super) folder_reading: Option<loading::FolderReading>,
    /// The thread watching that folder, which wakes the window when its files change.
    folder_watch: Option<folder_watch::FolderWatch>,
    /// Asks the window for a frame from another thread (set by the window; `None` in a
    /// model driven by tests, or before the first frame).
    waker: Option<folder_watch::Waker>,
    /// How often the window looks at an open shared campaign's folder (`None`: only on open
    /// and Sync — a model driven by tests, which must settle).
    pub(super) folder_look_every: Option<std::time::Duration>,
    history: History,
    /// Bumped on every change to stored data, so views can cache what they derive from it.
    revision: u64,
    /// Bumped only when the cards change (not on a force edit), for what views derive from
    /// the cards alone: with 100,000 cards, redoing that after every force edit would cost a
    /// visible frame.
    cards_revision: u64,
    /// Who this machine records campaign events as.
    pub player: crate::campaign::Recorder,
    /// The player name was never given nor declined: the Campaign view asks for it.
    pub ask_player: bool,
    /// The custom cards still decoding and the full integrity check, off the drawing thread.
    background: Option<loading::Background>,
}

impl Model {
    /// A model over `store`, with the force list and every card loaded.
    pub fn new(store: Store) -> Self {
        let mut model = Model::empty(store);
        model.refresh();
        model.refresh_campaigns();
        model
    }

    /// A model for the window: the forces and campaigns are read now; a club's custom cards
    /// (from [`BACKGROUND_FROM_CARDS`] on) and the full integrity check follow on another
    /// thread, so the first frame need not wait for them. [`Model::poll_background`] takes
    /// what has arrived.
    pub fn start(store: Store) -> Self {
        Model::start_loading_from(store, BACKGROUND_FROM_CARDS)
    }

    /// [`Model::start`], reading the custom cards in the background from `from_cards` on.
    pub fn start_loading_from(store: Store, from_cards: usize) -> Self {
        let Some(reader) = store.background_reader() else {
            let mut model = Model::new(store);
            model.folder_look_every = Some(FOLDER_LOOK_EVERY);
            return model;
        };
        let mut model = Model::empty(store);
        model.folder_look_every = Some(FOLDER_LOOK_EVERY);
        let count = reader.custom_card_count().ok();
        if let Some(total) = count.filter(|n| *n >= from_cards) {
            model.read_forces();
            model.reindex_cards();
            model.background = Some(loading::Background::start(reader, Some(total)));
        } else {
            model.refresh();
            model.background = Some(loading::Background::start(reader, None));
        }
        model.refresh_campaigns();
        model
    }

    fn empty(store: Store) -> Self {
        let mut model = Model {
            store,
            forces: Vec::new(),
            open: None,
            custom_cards: Vec::new(),
            army_cards: Vec::new(),
            army_orgs: Vec::new(),
            army_import: None,
            army_report: None,
            card_facts: Vec::new(),
            facets: Facets::default(),
            notices: Vec::new(),
            notice_log: Vec::new(),
            next_notice: 0,
            campaigns: Vec::new(),
            campaign: None,
            opening: None,
            tidy: None,
            last_folder_look: None,
            folder_reading: None,
            worker: None,
            folder_watch: None,
            waker: None,
            folder_look_every: None,
            history: History::default(),
            revision: 0,
            cards_revision: 0,
            player: crate::campaign::Recorder::default(),
            ask_player: false,
            background: None,
        };
        model.load_player();
        model
    }

    /// Takes what the background thread has finished; returns whether it is still at work
    /// (the window then looks again shortly).
    pub fn poll_background(&mut self) -> bool {
        let opening = self.poll_opening() | self.poll_army_import();
        let Some(background) = &mut self.background else {
            return opening;
        };
        let (arrived, done) = background.poll();
        for finished in arrived {
            match finished {
                loading::Finished::Cards(Ok(loaded)) => self.cards_arrived(loaded),
                loading::Finished::Cards(Err(error)) => {
                    self.error(format!("cannot list custom cards: {error}"));
                }
                loading::Finished::CardsLost => {
                    if let Err(error) = self.cards_changed() {
                        self.error(format!("cannot list custom cards: {error:#}"));
                    }
                }
                loading::Finished::Check(Ok(check)) => {
                    self.store.accept_background_check(&check);
                    if let Some(damage) = self.store.known_damage() {
                        self.error(format!(
                            "{damage}. Browsing and printing still work; nothing will be saved."
                        ));
                    }
                }
                // The first save runs the check itself.
                loading::Finished::Check(Err(_)) => {}
            }
        }
        if done {
            self.background = None;
        }
        !done || opening
    }

    /// Looks at the open shared campaign's folder when it is time to (see
    /// [`campaign::FOLDER_LOOK_EVERY`]), and takes in what a look read; returns when to look
    /// again (`None`: no shared campaign is open).
    pub fn poll_folder(&mut self) -> Option<std::time::Duration> {
        self.look_at_folder()
    }

    /// The League's cache as an earlier session kept it (`None`: none kept, or the library
    /// could not be read: the League then reads every file, as a first read does).
    pub fn saved_league(&self) -> Option<String> {
        self.store
            .setting(crate::store::SETTING_LEAGUE_CACHE)
            .ok()
            .flatten()
    }

    /// Keeps the League's cache for the next session. Not kept (a library busy or read only)
    /// costs the next session one full read, so it is said once, not treated as an error.
    pub fn keep_league(&mut self, saved: &str) {
        if let Err(e) = self
            .store
            .set_setting(crate::store::SETTING_LEAGUE_CACHE, saved)
        {
            self.info(format!(
                "The League's table was not kept for next time ({e}); it will be read again."
            ));
        }
    }

    /// Lets threads of the model (the folder watcher) ask the window for a frame, so an idle
    /// window need not draw one on a timer to find out whether something happened.
    pub fn set_waker(&mut self, wake: impl Fn() + Send + Sync + 'static) {
        self.waker = Some(std::sync::Arc::new(wake));
        // A watch started without it would never wake the window.
        self.folder_watch = None;
    }

    /// What asks the window for a frame, for a thread of the window's own (the League's read).
    pub fn waker(&self) -> Option<Waker> {
        self.waker.clone()
    }

    /// Whether [`Model::set_waker`] was called.
    pub fn has_waker(&self) -> bool {
        self.waker.is_some()
    }

    /// Takes a campaign opened in the background once it has arrived; returns whether one is
    /// still being read.
    fn poll_opening(&mut self) -> bool {
        let Some(load) = &self.opening else {
            return false;
        };
        match load.poll() {
            None => true,
            Some(Ok(open)) => {
                self.opening = None;
                self.campaign_arrived(open);
                false
            }
            Some(Err(error)) => {
                self.opening = None;
                self.error(format!("cannot open this campaign: {error}"));
                false
            }
        }
    }

    /// The campaign being opened in the background, and how many events it holds.
    pub fn campaign_opening(&self) -> Option<(crate::store::CampaignId, usize)> {
        self.opening.as_ref().map(|l| (l.id, l.events))
    }

    /// Custom cards decoded so far and in all, while they load in the background.
    pub fn card_loading(&self) -> Option<(usize, usize)> {
        self.background.as_ref()?.card_progress()
    }

    /// The background thread's cards replace the book-only list, with the edits made while it
    /// worked read again on top.
    fn cards_arrived(&mut self, loaded: loading::LoadedCards) {
        let touched = self
            .background
            .as_mut()
            .map(|b| std::mem::take(&mut b.touched))
            .unwrap_or_default();
        let book = cards::book_count();
        self.card_facts.truncate(book);
        self.facets = Facets::of(&self.card_facts);
        self.card_facts.extend(loaded.facts);
        self.facets.merge(loaded.facets);
        self.custom_cards = loaded.cards;
        // The army data's cards come after the custom ones.
        for card in &self.army_cards {
            let facts = CardFacts::of(card);
            self.facets.add(&facts);
            self.card_facts.push(facts);
        }
        for id in touched {
            if let Err(error) = self.card_changed(id) {
                self.error(format!("cannot read custom card {id}: {error:#}"));
            }
        }
        self.revision += 1;
        self.cards_revision += 1;
    }

    /// Reopens the force and campaign that were open when the app last closed, where they
    /// still exist (a deleted one is simply not reopened).
    pub fn reopen(&mut self, force: Option<ForceId>, campaign: Option<crate::store::CampaignId>) {
        if let Some(id) = force.filter(|id| self.forces.iter().any(|f| f.id == *id)) {
            self.apply(Command::Open(id));
        }
        if let Some(id) = campaign.filter(|id| self.campaigns.iter().any(|c| c.id == *id)) {
            self.apply(Command::Campaign(CampaignCommand::Open(id)));
        }
    }

    /// The database path, for the status bar.
    pub fn store_path(&self) -> Option<&Path> {
        self.store.path()
    }

    /// The saved force `id`, as stored (for printing a force that is not open).
    pub fn force(&self, id: ForceId) -> anyhow::Result<Force> {
        match &self.open {
            Some(open) if open.id == id => Ok(open.force.clone()),
            _ => Ok(self.store.load_force(id)?.force),
        }
    }

    pub fn undo_label(&self) -> Option<&str> {
        self.history.undo_label()
    }

    pub fn redo_label(&self) -> Option<&str> {
        self.history.redo_label()
    }

    /// Carries out one command; failures become error notices and change nothing.
    pub fn apply(&mut self, command: Command) {
        if let Err(error) = self.try_apply(command) {
            self.error(format!("{error:#}"));
        }
    }

    fn try_apply(&mut self, command: Command) -> anyhow::Result<()> {
        match command {
            Command::NewForce {
                ruleset,
                name,
                budget,
            } => {
                let force = Force {
                    name: self.unique_name(&name),
                    budget,
                    ..Force::new(ruleset, "")
                };
                self.create(force, "New force")?;
            }
            Command::NewFromBriefing(id) => {
                let mut force = rules::preset_force(&id)?;
                force.name = self.unique_name(&force.name);
                self.create(force, "New force from briefing")?;
            }
            Command::Open(id) => self.open(id)?,
            Command::Close => self.open = None,
            Command::Edit { force, label } => self.edit(force, label)?,
            Command::ApplyFix(fix) => self.apply_fix(fix)?,
            Command::Delete(id) => self.delete(id)?,
            Command::Duplicate(id) => {
                let mut force = self.store.load_force(id)?.force;
                force.name = self.unique_name(&format!("{} (copy)", force.name));
                self.create(force, "Duplicate force")?;
            }
            Command::Import(path) => self.import(&path)?,
            Command::ImportList(text) => {
                let parsed = self.read_list(&text)?;
                let mut force = parsed.force;
                force.name = self.unique_name(&force.name);
                self.create(force, "Paste list")?;
                for note in parsed.notes {
                    self.info(note);
                }
            }
            Command::Export { id, path } => {
                let force = self.store.load_force(id)?.force;
                std::fs::write(&path, force_file::to_json(&force))
                    .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
                self.info(format!("Exported {} to {}", force.name, path.display()));
            }
            Command::SaveCustomCard { id, card } => {
                let name = card.name().to_string();
                let id = self.store.save_custom_card(id, &card)?;
                self.card_changed(id)?;
                self.info(format!("Saved custom card {name}"));
            }
            Command::DeleteCustomCard(id) => {
                self.store.delete_custom_card(id)?;
                self.card_changed(id)?;
            }
            Command::ImportArmyData(paths) => self.start_army_import(paths)?,
            Command::Reprice(id) => self.reprice(id)?,
            Command::DismissArmyReport => self.army_report = None,
            Command::Undo => self.undo()?,
            Command::Redo => self.redo()?,
            Command::Campaign(command) => self.apply_campaign(command)?,
            Command::DismissNotice(id) => self.notices.retain(|n| n.id != id),
        }
        Ok(())
    }

    /// Changes whenever stored forces or cards may have changed.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Changes whenever the cards (book or custom) may have changed.
    pub fn cards_revision(&self) -> u64 {
        self.cards_revision
    }

    /// Reads the whole force list and every custom card: at start only. Edits update the one
    /// entry they change ([`Model::force_changed`]), so a club's 10,000 forces cost nothing
    /// per click.
    fn refresh(&mut self) {
        self.read_forces();
        match self.store.custom_cards() {
            Ok(cards) => self.custom_cards = cards,
            Err(e) => self.error(format!("cannot list custom cards: {e}")),
        }
        self.read_army_data();
        self.reindex_cards();
        self.cards_revision += 1;
    }

    /// The newest imported army data's cards and force organisations.
    fn read_army_data(&mut self) {
        let shown = army::shown_army(&self.store);
        self.show_army(shown);
    }

    /// Shows army data read from the library, or says why it could not be read.
    fn show_army(
        &mut self,
        shown: Result<(Vec<Card>, Vec<rules::army_data::ForceOrg>), crate::store::StoreError>,
    ) {
        match shown {
            Ok((cards, orgs)) => {
                self.army_cards = cards;
                self.army_orgs = orgs;
            }
            Err(e) => self.error(format!("cannot read the imported army data: {e}")),
        }
    }

    /// Files read so far and in all while army data is being imported.
    pub fn army_importing(&self) -> Option<(usize, usize)> {
        self.army_import.as_ref().map(ArmyImport::progress)
    }

    fn start_army_import(&mut self, paths: Vec<PathBuf>) -> anyhow::Result<()> {
        if self.army_import.is_some() {
            anyhow::bail!("army data is being imported already: wait for it to finish");
        }
        let known = self.store.stored_game_systems()?;
        let worker = self.take_worker();
        self.army_import = Some(ArmyImport::start(paths, known, worker));
        Ok(())
    }

    /// Stores an import the thread has finished reading; returns whether one is still read.
    fn poll_army_import(&mut self) -> bool {
        let Some(job) = &self.army_import else {
            return false;
        };
        let Some(result) = job.poll() else {
            return true;
        };
        self.army_import = None;
        let stored = match result {
            Ok(army::Imported::Stored { worker, stored }) => {
                self.worker_back(*worker);
                stored.map_err(anyhow::Error::from)
            }
            // No worker: the window stores it.
            Ok(army::Imported::Read(import)) => {
                army::StoredImport::store(&mut self.store, &import).map_err(anyhow::Error::from)
            }
            Err(e) => Err(anyhow::anyhow!("nothing imported — {e}")),
        };
        match stored {
            Ok(stored) => {
                self.show_army(stored.army);
                self.reindex_cards();
                self.revision += 1;
                self.cards_revision += 1;
                let files = stored.files;
                let units: usize = files.iter().map(|f| f.units).sum();
                self.info(format!(
                    "Imported {} ({units} units)",
                    files
                        .iter()
                        .map(|f| f.source.label())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                self.army_report = Some(ArmyReport {
                    files,
                    changes: stored.changes,
                });
            }
            Err(error) => self.error(format!("{error:#}")),
        }
        false
    }

    /// The library's second writing session, for a thread to write through (`None` where the
    /// library has none: in memory, read-only, damaged).
    pub(super) fn take_worker(&mut self) -> Option<Store> {
        self.worker.take().or_else(|| self.store.worker())
    }

    /// A worker back from its thread: what it learnt of the file is taken in, and it is kept
    /// for the next write made off the drawing thread.
    pub(super) fn worker_back(&mut self, worker: Store) {
        self.store.worker_returned(&worker);
        if self.worker.is_none() {
            self.worker = Some(worker);
        }
    }

    /// Re-prices saved force `id` with the newest army data, as one undoable edit.
    fn reprice(&mut self, id: ForceId) -> anyhow::Result<()> {
        if self.open.as_ref().is_none_or(|o| o.id != id) {
            self.open(id)?;
        }
        let Some(open) = &self.open else {
            return Ok(());
        };
        let (force, lost) = rules::army_data::reprice(&open.force, &self.army_cards);
        let name = force.name.clone();
        self.edit(force, format!("Re-price {name}"))?;
        if let Some(report) = &mut self.army_report {
            report.changes.retain(|(force, ..)| *force != id);
        }
        self.info(format!("Re-priced {name} with the newest army data"));
        for what in lost {
            self.info(what);
        }
        Ok(())
    }

    fn read_forces(&mut self) {
        self.revision += 1;
        match self.store.list_forces() {
            Ok(mut forces) => {
                forces.sort_by_cached_key(list_order);
                self.forces = forces;
            }
            Err(e) => self.error(format!("cannot list forces: {e}")),
        }
    }

    /// Brings force `id`'s entry in the list up to date with the store (or removes it when
    /// the force is gone), keeping the list in name order.
    fn force_changed(&mut self, id: ForceId) {
        self.revision += 1;
        if let Some(at) = self.forces.iter().position(|f| f.id == id) {
            self.forces.remove(at);
        }
        match self.store.force_summary(id) {
            Ok(summary) => {
                let key = list_order(&summary);
                let at = self.forces.partition_point(|f| list_order(f) < key);
                self.forces.insert(at, summary);
            }
            Err(crate::store::StoreError::ForceNotFound(_)) => {}
            Err(e) => self.error(format!("cannot read force {id}: {e}")),
        }
    }

    /// Reads every custom card again (when the background thread could not).
    fn cards_changed(&mut self) -> anyhow::Result<()> {
        self.revision += 1;
        self.custom_cards = self.store.custom_cards()?;
        self.reindex_cards();
        self.cards_revision += 1;
        Ok(())
    }

    /// Every card's facts and their facets made again.
    fn reindex_cards(&mut self) {
        self.card_facts = cards::facts_index(self);
        self.facets = Facets::of(&self.card_facts);
    }

    /// Custom card `id` was saved or deleted: only its entry is read again and put in its
    /// place (a club's 100,000 cards are not read for one edit).
    fn card_changed(&mut self, id: CardId) -> anyhow::Result<()> {
        self.revision += 1;
        self.cards_revision += 1;
        if let Some(background) = &mut self.background
            && background.cards_pending()
        {
            background.touched.push(id);
        }
        let book = cards::book_count();
        if let Some(at) = self.custom_cards.iter().position(|(mine, _)| *mine == id) {
            self.custom_cards.remove(at);
            let gone = self.card_facts.remove(book + at);
            self.facets.remove(&gone);
        }
        let stored = match self.store.card(id) {
            Ok(stored) if stored.origin == crate::store::CardOrigin::Custom => stored,
            Ok(_) | Err(crate::store::StoreError::CardNotFound(_)) => return Ok(()),
            Err(error) => return Err(error.into()),
        };
        let at = self.custom_cards.partition_point(|(other, card)| {
            cards::store_order((*other, card), (id, &stored.card)).is_lt()
        });
        let facts = CardFacts::of(&stored.card);
        self.facets.add(&facts);
        self.card_facts.insert(book + at, facts);
        self.custom_cards.insert(at, (id, stored.card));
        Ok(())
    }

    fn create(&mut self, force: Force, label: &str) -> anyhow::Result<()> {
        let id = self.store.save_force(None, &force)?;
        self.history.record(Change {
            id,
            before: None,
            after: Some(force.clone()),
            label: format!("{label} {}", force.name),
        });
        self.force_changed(id);
        self.open(id)
    }

    fn open(&mut self, id: ForceId) -> anyhow::Result<()> {
        let stored = self.store.load_force(id)?;
        self.open = Some(OpenForce {
            id,
            validation: validate(&stored.force),
            force: stored.force,
            card_changes: stored.card_changes,
        });
        Ok(())
    }

    fn edit(&mut self, force: Force, label: String) -> anyhow::Result<()> {
        let Some(open) = &self.open else {
            anyhow::bail!("no force is open");
        };
        if open.force == force {
            return Ok(());
        }
        let id = open.id;
        let before = open.force.clone();
        self.store.save_force(Some(id), &force)?;
        self.history.record(Change {
            id,
            before: Some(before),
            after: Some(force.clone()),
            label,
        });
        self.set_open(id, force);
        self.force_changed(id);
        Ok(())
    }

    fn set_open(&mut self, id: ForceId, force: Force) {
        let card_changes = self.open.take().map(|o| o.card_changes).unwrap_or_default();
        self.open = Some(OpenForce {
            id,
            validation: validate(&force),
            force,
            card_changes,
        });
    }

    fn apply_fix(&mut self, fix: Fix) -> anyhow::Result<()> {
        let Some(open) = &self.open else {
            return Ok(());
        };
        let mut force = open.force.clone();
        let Some(label) = fix.apply(&mut force) else {
            return Ok(());
        };
        self.edit(force, label)
    }

    fn delete(&mut self, id: ForceId) -> anyhow::Result<()> {
        let force = self.store.load_force(id)?.force;
        self.store.delete_force(id)?;
        self.history.record(Change {
            id,
            before: Some(force.clone()),
            after: None,
            label: format!("Delete {}", force.name),
        });
        if self.open.as_ref().is_some_and(|o| o.id == id) {
            self.open = None;
        }
        self.force_changed(id);
        self.info(format!("Deleted {} — Ctrl+Z brings it back", force.name));
        Ok(())
    }

    fn import(&mut self, path: &Path) -> anyhow::Result<()> {
        let bytes = std::fs::read(path)
            .map_err(|e| anyhow::anyhow!("cannot import {}: {e}", path.display()))?;
        let mut force = force_file::parse_bytes(&bytes)
            .map_err(|e| anyhow::anyhow!("cannot import {}: {e}", path.display()))?;
        force.name = self.unique_name(&force.name);
        self.create(force, "Import")?;
        Ok(())
    }

    /// The campaigns set up from force `id` (their battles keep their own copy of its units).
    pub fn campaigns_using(&self, id: ForceId) -> Vec<String> {
        let Some(summary) = self.forces.iter().find(|f| f.id == id) else {
            return Vec::new();
        };
        self.store
            .campaigns_using_force(&summary.name, summary.ruleset)
            .unwrap_or_default()
    }

    /// A pasted list read against the book's cards and this library's custom ones.
    pub fn read_list(
        &self,
        text: &str,
    ) -> Result<rules::force_text::ParsedList, rules::force_text::ListErrors> {
        // Every stored revision: a list names the revision its data units were priced with.
        let (data, orgs) = self.store.army_library().unwrap_or_default();
        let custom: Vec<&Card> = self
            .custom_cards
            .iter()
            .map(|(_, card)| card)
            .chain(data.iter())
            .collect();
        rules::force_text::parse_with(
            text,
            rules::force_text::Library {
                cards: &custom,
                force_orgs: &orgs,
            },
        )
    }

    /// Puts the force of `change` into the state `target` (None = deleted).
    fn restore(&mut self, change: &Change, target: Option<&Force>) -> anyhow::Result<ForceId> {
        let exists = self.forces.iter().any(|f| f.id == change.id);
        let id = match (target, exists) {
            (Some(force), true) => self.store.save_force(Some(change.id), force)?,
            (Some(force), false) => {
                let new_id = self.store.save_force(None, force)?;
                self.history.remap(change.id, new_id);
                new_id
            }
            (None, true) => {
                self.store.delete_force(change.id)?;
                change.id
            }
            (None, false) => change.id,
        };
        Ok(id)
    }

    fn undo(&mut self) -> anyhow::Result<()> {
        let Some(mut change) = self.history.pop_undo() else {
            return Ok(());
        };
        let id = self.restore(&change, change.before.as_ref())?;
        change.id = id;
        self.after_history_step(&change, change.before.clone());
        self.info(format!("Undid: {}", change.label));
        self.history.push_redo(change);
        Ok(())
    }

    fn redo(&mut self) -> anyhow::Result<()> {
        let Some(mut change) = self.history.pop_redo() else {
            return Ok(());
        };
        let id = self.restore(&change, change.after.as_ref())?;
        change.id = id;
        self.after_history_step(&change, change.after.clone());
        self.info(format!("Redid: {}", change.label));
        self.history.push_undo(change);
        Ok(())
    }

    fn after_history_step(&mut self, change: &Change, state: Option<Force>) {
        self.force_changed(change.id);
        match state {
            Some(force) => self.set_open(change.id, force),
            None => {
                if self.open.as_ref().is_some_and(|o| o.id == change.id) {
                    self.open = None;
                }
            }
        }
    }

    /// `name`, or `name (2)`, `name (3)` … so force names stay unique.
    fn unique_name(&self, name: &str) -> String {
        let base = if name.trim().is_empty() {
            "New force"
        } else {
            name.trim()
        };
        let taken = |n: &str| self.forces.iter().any(|f| f.name.eq_ignore_ascii_case(n));
        if !taken(base) {
            return base.to_string();
        }
        (2..)
            .map(|i| format!("{base} ({i})"))
            .find(|n| !taken(n))
            .unwrap_or_else(|| base.to_string())
    }

    /// A unit line for `entry`: book cards by name, custom cards written into the force (so
    /// the force file carries them).
    pub fn unit_for(&self, entry: &CardEntry<'_>) -> ForceUnit {
        let card_ref = match entry.custom {
            None if !entry.data => CardRef::Library(entry.card.name().to_string()),
            // A custom card, or a unit from army data: the force keeps its own copy.
            _ => CardRef::Inline(entry.card.clone()),
        };
        ForceUnit {
            card: card_ref,
            count: 1,
            group: None,
            points: None,
            stands: None,
        }
    }

    pub fn info(&mut self, text: impl Into<String>) {
        self.notify(text.into(), false);
    }

    pub fn error(&mut self, text: impl Into<String>) {
        self.notify(text.into(), true);
    }

    fn notify(&mut self, text: String, is_error: bool) {
        self.next_notice += 1;
        let notice = Notice {
            id: self.next_notice,
            text,
            is_error,
        };
        self.notice_log.push(notice.clone());
        if self.notice_log.len() > NOTICE_LOG_LIMIT {
            self.notice_log.remove(0);
        }
        self.notices.push(notice);
    }
}

/// The force list's order: by name ignoring case, then by id (as the store lists them).
fn list_order(summary: &ForceSummary) -> (String, ForceId) {
    (summary.name.to_lowercase(), summary.id)
}
