//! The campaign half of the model: the campaign list, the open campaign and recording its
//! events. Every event is on disk before the view sees it (the store commits each one).

use std::path::PathBuf;

use anyhow::{Context, anyhow, bail};

use super::{Model, folder_watch, loading};
use crate::campaign::{self, CampaignOptions, CampaignRecord, Event, Sides, file};
use crate::rules::RulesetId;
use crate::rules::battle::Side;
use crate::rules::battle::board::Board;
use crate::store::{CampaignId, CampaignSummary, StoreError, StoredCampaign};

/// The campaign on screen and which battle is shown.
#[derive(Debug, Clone)]
pub struct OpenCampaign {
    pub stored: StoredCampaign,
    pub battle: usize,
    /// The folder the campaign is shared to, if any (read on open and on Sync).
    pub shared: Option<PathBuf>,
    /// What the page shows of the record, folded once per change rather than every frame: a
    /// long campaign's results take tens of milliseconds to fold.
    derived: Derived,
    /// The last event this window recorded, with its battle: "Undo this" offers to undo it
    /// while it is still that battle's latest (not after another machine's or program's).
    pub recorded_here: Option<(usize, crate::campaign::EventUid)>,
}

#[derive(Debug, Clone)]
struct Derived {
    results: Vec<campaign::BattleResult>,
    overall: campaign::CampaignResult,
    /// The shown battle's board, and its score turn by turn.
    board: Option<Board>,
    score_by_turn: Vec<Sides<u32>>,
    /// Each battle's signers, so recording an event counts its battle again, not the history.
    signers: Vec<campaign::Signers>,
    /// Who signed the campaign's events, merged from `signers`.
    players: Vec<campaign::PlayerKey>,
    unsigned: usize,
}

/// Battle `index`'s board and its score turn by turn, for the page.
fn shown(record: &CampaignRecord, index: usize) -> (Option<Board>, Vec<Sides<u32>>) {
    let by_turn = record
        .battle(index)
        .map(|b| b.score_by_turn(&record.carried_losses(index)))
        .unwrap_or_default();
    (record.board(index), by_turn)
}

impl Derived {
    fn of(record: &CampaignRecord, battle: usize) -> Self {
        let results = record.results();
        let signers: Vec<campaign::Signers> =
            (0..record.logs.len()).map(|i| record.signers(i)).collect();
        let (board, score_by_turn) = shown(record, battle);
        Derived {
            overall: record.result_of(&results),
            results,
            board,
            score_by_turn,
            players: campaign::Signers::players(&signers),
            unsigned: campaign::Signers::unsigned(&signers),
            signers,
        }
    }

    /// Counts battle `index`'s signers again after it changed, and merges.
    fn signed_in(&mut self, record: &CampaignRecord, index: usize) {
        match self.signers.get_mut(index) {
            Some(slot) => *slot = record.signers(index),
            None => self.signers = (0..record.logs.len()).map(|i| record.signers(i)).collect(),
        }
        self.players = campaign::Signers::players(&self.signers);
        self.unsigned = campaign::Signers::unsigned(&self.signers);
    }
}

impl OpenCampaign {
    /// The campaign opened at `battle`, its results folded.
    pub fn new(stored: StoredCampaign, battle: usize, shared: Option<PathBuf>) -> Self {
        let derived = Derived::of(&stored.record, battle);
        OpenCampaign {
            stored,
            battle,
            shared,
            derived,
            recorded_here: None,
        }
    }

    /// The campaign opened at its first battle not yet finished.
    pub fn at_first_unfinished(stored: StoredCampaign, shared: Option<PathBuf>) -> Self {
        let derived = Derived::of(&stored.record, 0);
        let battle = derived
            .results
            .iter()
            .position(|r| !r.standing.is_finished())
            .unwrap_or(0);
        let (board, score_by_turn) = shown(&stored.record, battle);
        OpenCampaign {
            stored,
            battle,
            shared,
            derived: Derived {
                board,
                score_by_turn,
                ..derived
            },
            recorded_here: None,
        }
    }

    pub fn record(&self) -> &CampaignRecord {
        &self.stored.record
    }

    pub fn battle(&self) -> Option<campaign::Battle<'_>> {
        self.stored.record.battle(self.battle)
    }

    /// Every battle's result, as last folded.
    pub fn results(&self) -> &[campaign::BattleResult] {
        &self.derived.results
    }

    /// The campaign's result so far.
    pub fn overall(&self) -> &campaign::CampaignResult {
        &self.derived.overall
    }

    /// The shown battle's board, for a battle fought on one.
    pub fn board(&self) -> Option<&Board> {
        self.derived.board.as_ref()
    }

    /// The shown battle's score (Army Morale in Lorraine) at the start and after each turn.
    pub fn score_by_turn(&self) -> &[Sides<u32>] {
        &self.derived.score_by_turn
    }

    /// Who signed the campaign's events, as [`CampaignRecord::players`] lists them.
    pub fn players(&self) -> &[campaign::PlayerKey] {
        &self.derived.players
    }

    /// How many of the campaign's events carry no signature.
    pub fn unsigned_events(&self) -> usize {
        self.derived.unsigned
    }

    /// Folds again after battle `index` changed: its result (and the later ones' when losses
    /// carry forward) and the shown battle's state.
    pub(super) fn changed(&mut self, index: usize) {
        let record = &self.stored.record;
        if record.campaign.options.carry_losses
            || self.derived.results.len() != record.campaign.battles.len()
        {
            self.derived = Derived::of(record, self.battle);
            return;
        }
        self.derived.signed_in(record, index);
        if let Some(battle) = record.battle(index)
            && let Some(slot) = self.derived.results.get_mut(index)
        {
            *slot = campaign::result::battle_result(&battle, &Sides::default());
        }
        self.derived.overall = record.result_of(&self.derived.results);
        (self.derived.board, self.derived.score_by_turn) = shown(record, self.battle);
    }

    /// Folds everything again (after a reload or a sync).
    pub(super) fn changed_all(&mut self) {
        self.derived = Derived::of(&self.stored.record, self.battle);
    }

    fn show_battle(&mut self, index: usize) {
        self.battle = index;
        (self.derived.board, self.derived.score_by_turn) = shown(&self.stored.record, index);
    }
}

/// The shared folder's files as `campaign sync --tidy` lists them, for the Tidy panel.
#[derive(Debug, Clone)]
pub struct TidySurvey {
    pub id: CampaignId,
    pub folder: PathBuf,
    pub files: Vec<crate::sync::tidy::FileInfo>,
}

/// Everything that changes campaigns.
#[derive(Debug, Clone, PartialEq)]
pub enum CampaignCommand {
    /// A campaign of `ruleset`: its first scripted campaign's (Lorraine 1944, with its
    /// battles) when it has one, else one whose battles are added between saved forces.
    New {
        ruleset: RulesetId,
        name: String,
        players: Sides<String>,
        carry_losses: bool,
    },
    Open(CampaignId),
    Close,
    SelectBattle(usize),
    /// Record one event in the shown battle. Boxed: a fire event is far larger than the
    /// other commands.
    Record(Box<Event>),
    Undo,
    /// Undo exactly this event, if it is still the shown battle's latest: "Undo this" names
    /// an event, and a sync or another program's record must not make it undo another.
    UndoEvent(crate::campaign::EventUid),
    Redo,
    /// A scripted campaign's battle after its last ("What next?"), played as `variant`.
    AddFollowUp {
        variant: Option<String>,
    },
    /// A campaign between two saved forces, started with its first battle between them (only
    /// once the campaign is made: a refused name adds no battle to another campaign).
    NewBetween {
        ruleset: RulesetId,
        name: String,
        players: Sides<String>,
        forces: Sides<String>,
    },
    /// A battle between two saved forces (simple campaigns).
    AddBattle {
        name: String,
        forces: Sides<String>,
    },
    /// The battle after the last, set up from the roster as it left it (house rule: a step up
    /// after `promote_after` battles survived).
    NextBattle {
        promote_after: u32,
        /// Replacements bought: side, card name, points where the player prices them.
        reinforcements: Vec<(Side, String, Option<u64>)>,
    },
    Delete(CampaignId),
    Export(PathBuf),
    Import(PathBuf),
    /// Share the open campaign to a folder a file sync carries between machines.
    Share(PathBuf),
    /// Read the shared folder's files and merge them; write this machine's.
    Sync,
    /// List the shared folder's files by machine, marking those that can go.
    SurveyFolder,
    /// Remove the files the survey marked redundant (checked again first).
    TidyFolder,
    /// Put the survey away.
    CloseSurvey,
    /// Settle a fork of the shown battle: keep the branch starting with this event.
    ChooseBranch(crate::campaign::EventUid),
    /// This machine's player name (`None`: not now; the window does not ask again).
    SetPlayer(Option<String>),
}

impl CampaignCommand {
    /// It records, creates or deletes something: the second click of a double click must not
    /// repeat it.
    pub fn changes_data(&self) -> bool {
        !matches!(
            self,
            CampaignCommand::Open(_)
                | CampaignCommand::Close
                | CampaignCommand::SelectBattle(_)
                | CampaignCommand::Sync
                | CampaignCommand::SurveyFolder
                | CampaignCommand::CloseSurvey
        )
    }
}

impl Model {
    pub(super) fn refresh_campaigns(&mut self) {
        match self.store.list_campaigns() {
            Ok(list) => self.campaigns = list,
            Err(e) => self.error(format!("cannot list campaigns: {e}")),
        }
    }

    pub fn campaigns(&self) -> &[CampaignSummary] {
        &self.campaigns
    }

    /// One campaign command, carried out by the method of its kind.
    pub(super) fn apply_campaign(&mut self, command: CampaignCommand) -> anyhow::Result<()> {
        match command {
            CampaignCommand::New {
                ruleset,
                name,
                players,
                carry_losses,
            } => {
                let scenario = campaign::scripted::of_ruleset(ruleset)
                    .next()
                    .map(|s| s.id.clone());
                self.new_campaign(ruleset, scenario.as_deref(), &name, players, carry_losses)?;
            }
            CampaignCommand::NewBetween {
                ruleset,
                name,
                players,
                forces,
            } => {
                self.new_campaign(ruleset, None, &name, players, false)?;
                self.add_battle("Battle 1", forces)?;
            }
            CampaignCommand::Open(id) => self.open_campaign(id)?,
            CampaignCommand::Share(folder) => {
                let id = self.open_id()?;
                let report = crate::sync::share(&mut self.store, id, &folder)?;
                self.after_sync(id, report)?;
            }
            CampaignCommand::Sync => self.sync_open_campaign()?,
            CampaignCommand::SurveyFolder => {
                let id = self.open_id()?;
                let (folder, files) = crate::sync::tidy::survey(&mut self.store, id, &[])?;
                self.tidy = Some(TidySurvey { id, folder, files });
                self.show_store_notices();
            }
            CampaignCommand::TidyFolder => self.tidy_folder()?,
            CampaignCommand::CloseSurvey => self.tidy = None,
            CampaignCommand::ChooseBranch(keep) => {
                // The other player may have chosen a moment ago: choose on the table as it is.
                self.catch_up_open()?;
                let (_, event) = self
                    .shown_campaign()?
                    .stored
                    .record
                    .choice(self.shown_campaign()?.battle, keep)?;
                self.record(&event)?;
                self.info("Branch chosen: the other one is set aside (it stays in the log)");
            }
            CampaignCommand::SetPlayer(name) => self.set_player(name.as_deref())?,
            CampaignCommand::Close => {
                self.campaign = None;
                self.opening = None;
            }
            CampaignCommand::SelectBattle(index) => {
                if let Some(open) = &mut self.campaign
                    && index < open.stored.record.campaign.battles.len()
                {
                    open.show_battle(index);
                }
            }
            CampaignCommand::Record(event) => self.record(&event)?,
            CampaignCommand::Undo => {
                let event = self.open_battle()?.undo()?;
                self.record(&event)?;
            }
            CampaignCommand::UndoEvent(id) => self.undo_event(id)?,
            CampaignCommand::Redo => {
                let event = self.open_battle()?.redo()?;
                self.record(&event)?;
            }
            CampaignCommand::AddFollowUp { variant } => self.add_follow_up(variant.as_deref())?,
            CampaignCommand::AddBattle { name, forces } => self.add_battle(&name, forces)?,
            CampaignCommand::NextBattle {
                promote_after,
                reinforcements,
            } => self.next_battle(promote_after, &reinforcements)?,
            CampaignCommand::Delete(id) => {
                self.store.delete_campaign(id)?;
                if self.campaign.as_ref().is_some_and(|c| c.stored.id == id) {
                    self.campaign = None;
                }
                self.refresh_campaigns();
                self.info("Campaign deleted");
            }
            CampaignCommand::Export(path) => self.export_campaign(&path)?,
            CampaignCommand::Import(path) => self.import_campaign(&path)?,
        }
        Ok(())
    }

    fn shown_campaign(&self) -> anyhow::Result<&OpenCampaign> {
        self.campaign
            .as_ref()
            .ok_or_else(|| anyhow!("no campaign is open"))
    }

    fn new_campaign(
        &mut self,
        ruleset: RulesetId,
        scenario: Option<&str>,
        name: &str,
        players: Sides<String>,
        carry_losses: bool,
    ) -> anyhow::Result<()> {
        let created = match scenario.and_then(campaign::scripted::find) {
            Some(script) => {
                let options = CampaignOptions { carry_losses };
                campaign::new_scripted(name, script, players, options)?
            }
            None => campaign::new_simple(name, ruleset, players)?,
        };
        let stored = self.store.start_campaign(created)?;
        self.info(format!("Started campaign {}", stored.record.campaign.name));
        self.campaign = Some(OpenCampaign::new(stored, 0, None));
        self.refresh_campaigns();
        Ok(())
    }

    fn open_campaign(&mut self, id: CampaignId) -> anyhow::Result<()> {
        // A long campaign is read (and folded) off the drawing thread; the page says it is
        // opening meanwhile, and the sync on open follows its arrival.
        let shared = crate::sync::shared_folder(&self.store, id)?;
        let events = self
            .campaigns
            .iter()
            .find(|c| c.id == id)
            .map_or(0, |c| c.events as usize);
        if events >= loading::BACKGROUND_FROM_EVENTS
            && let Some(reader) = self.store.background_reader()
        {
            self.campaign = None;
            self.opening = Some(loading::CampaignLoad::start(reader, id, shared, events));
            return Ok(());
        }
        let stored = self
            .store
            .load_campaign(id)
            .map_err(|e| self.unreadable_campaign(e))?;
        self.campaign_arrived(OpenCampaign::at_first_unfinished(stored, shared));
        Ok(())
    }

    fn sync_open_campaign(&mut self) -> anyhow::Result<()> {
        let open = self.shown_campaign()?;
        let folder = open
            .shared
            .clone()
            .ok_or_else(|| anyhow!("this campaign is not shared to a folder yet"))?;
        let id = open.stored.id;
        let report = self.sync_reporting(id, &folder)?;
        self.after_sync(id, report)
    }

    fn tidy_folder(&mut self) -> anyhow::Result<()> {
        let id = self.open_id()?;
        let removed = crate::sync::tidy::tidy(&mut self.store, id, &[])?;
        self.info(format!(
            "Removed {} from the shared folder: {}",
            crate::rules::words::amount(removed.len() as u64, "files"),
            removed.join(", ")
        ));
        let (folder, files) = crate::sync::tidy::survey(&mut self.store, id, &[])?;
        self.tidy = Some(TidySurvey { id, folder, files });
        Ok(())
    }

    fn set_player(&mut self, name: Option<&str>) -> anyhow::Result<()> {
        match name.map(str::trim).filter(|n| !n.is_empty()) {
            Some(name) => {
                crate::campaign::text::name(name).map_err(|m| anyhow!("player name: {m}"))?;
                self.store.set_setting(crate::store::SETTING_PLAYER, name)?;
                self.info(format!("Events you record are marked \"{name}\""));
            }
            None => self.store.set_setting(SETTING_PLAYER_ASKED, "1")?,
        }
        self.load_player();
        Ok(())
    }

    fn undo_event(&mut self, id: crate::campaign::EventUid) -> anyhow::Result<()> {
        let battle = self.open_battle()?;
        let latest = battle
            .undo_target()
            .and_then(|seq| battle.events.iter().find(|e| e.seq == seq));
        match latest {
            Some(latest) if latest.id == id => {
                let event = battle.undo()?;
                self.record(&event)
            }
            _ => bail!(
                "nothing was undone: the event shown is no longer this battle's latest (another machine or program recorded since)"
            ),
        }
    }

    /// The battle `record` gained (its last) stored and shown.
    fn battle_added(&mut self, mut record: CampaignRecord) -> anyhow::Result<()> {
        let open = self
            .campaign
            .as_mut()
            .ok_or_else(|| anyhow!("no campaign is open"))?;
        let (battle, setup) = self
            .store
            .add_campaign_battle(open.stored.id, &record.campaign)?;
        let index = record.campaign.battles.len() - 1;
        record.add(index, setup)?;
        record.add_admissions(self.store.take_admitted())?;
        open.stored.record = record;
        open.stored.battle_ids.push(battle);
        open.battle = index;
        open.changed_all();
        self.show_store_notices();
        self.refresh_campaigns();
        Ok(())
    }

    fn add_follow_up(&mut self, variant: Option<&str>) -> anyhow::Result<()> {
        // A battle another player added a moment ago is not added twice.
        self.catch_up_open()?;
        let mut record = self.shown_campaign()?.stored.record.clone();
        let number = record.add_follow_up(variant)?;
        let name = record
            .campaign
            .battles
            .last()
            .map_or("", |b| b.name())
            .to_string();
        self.battle_added(record)?;
        self.info(format!("Added battle {number}: {name}"));
        Ok(())
    }

    fn add_battle(&mut self, name: &str, forces: Sides<String>) -> anyhow::Result<()> {
        self.catch_up_open()?;
        let ruleset = self.shown_campaign()?.stored.record.campaign.ruleset;
        // A ruleset with a battle engine fights its battles on the board; the others record
        // each battle's result.
        let board = if crate::rules::battle::table::engine(ruleset).is_ok() {
            let first = self.saved_force(&forces.first)?;
            let second = self.saved_force(&forces.second)?;
            let own = self.own_cards()?;
            Some(campaign::roster::first_plan(
                ruleset,
                0,
                name,
                Sides {
                    first: &first,
                    second: &second,
                },
                &own,
            )?)
        } else {
            None
        };
        let units = Sides {
            first: self.force_units(&forces.first)?,
            second: self.force_units(&forces.second)?,
        };
        let mut record = self.shown_campaign()?.stored.record.clone();
        match board {
            Some(plan) => record.add_table_battle(plan)?,
            None => record.add_simple_battle(name, forces, units)?,
        };
        self.battle_added(record)
    }

    fn own_cards(&self) -> anyhow::Result<Vec<crate::rules::Card>> {
        Ok(self
            .store
            .custom_cards()?
            .into_iter()
            .map(|(_, c)| c)
            .collect())
    }

    fn next_battle(
        &mut self,
        promote_after: u32,
        reinforcements: &[(Side, String, Option<u64>)],
    ) -> anyhow::Result<()> {
        self.catch_up_open()?;
        let mut record = self.shown_campaign()?.stored.record.clone();
        let last = record.campaign.battles.len().saturating_sub(1);
        let own = self.own_cards()?;
        let mut bought: Sides<Vec<campaign::roster::Reinforcement>> = Sides::default();
        for (side, card, points) in reinforcements {
            bought.get_mut(*side).push(campaign::roster::reinforcement(
                record.campaign.ruleset,
                card,
                *points,
                &own,
            )?);
        }
        let (plan, changes) = record.next_table_plan(last, "", promote_after, &bought)?;
        let number = record.add_table_battle(plan)?;
        self.battle_added(record)?;
        self.info(format!(
            "Battle {number} set up from the roster ({} changes applied)",
            changes.len()
        ));
        Ok(())
    }

    fn export_campaign(&mut self, path: &std::path::Path) -> anyhow::Result<()> {
        let record = &self.shown_campaign()?.stored.record;
        let bytes = match path.extension().and_then(|e| e.to_str()) {
            Some(ext) if ext.eq_ignore_ascii_case("pdf") => after_action_pdf(record)?,
            _ => file::to_json(record)?.into_bytes(),
        };
        std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
        let name = record.campaign.name.clone();
        self.info(format!("Exported {name} to {}", path.display()));
        Ok(())
    }

    fn import_campaign(&mut self, path: &std::path::Path) -> anyhow::Result<()> {
        let text = crate::sync::read_campaign_file(path)
            .map_err(|why| anyhow!("cannot read {}: {why}", path.display()))?;
        let mut record = file::parse(&text).with_context(|| format!("{}", path.display()))?;
        if self.store.find_campaign_by_uid(record.id)?.is_some()
            || self.store.find_sealed_from(record.id)?.is_some()
        {
            // Already here: the window's import makes a separate copy ("Sync" merges).
            record = record.as_copy(crate::store::new_campaign_uid());
        }
        if record.genesis.is_none() {
            // Begun before campaigns were rooted: sealed here (docs/trust.md).
            record = self.store.seal_campaign(&record)?;
        }
        let base = record.campaign.name.clone();
        let mut n = 2;
        while self.store.find_campaign(&record.campaign.name)?.is_some() {
            record.campaign.name = format!("{base} ({n})");
            n += 1;
        }
        let stored = self.store.create_campaign_record(&record)?;
        self.info(format!("Imported campaign {}", stored.record.campaign.name));
        self.campaign = Some(OpenCampaign::new(stored, 0, None));
        self.refresh_campaigns();
        Ok(())
    }

    fn open_id(&self) -> anyhow::Result<CampaignId> {
        self.campaign
            .as_ref()
            .map(|c| c.stored.id)
            .ok_or_else(|| anyhow!("no campaign is open"))
    }

    /// A campaign read (here or in the background) is shown, and synced with its folder: what
    /// the other machines recorded since (a folder that is not there now — an unplugged stick
    /// — is said, not fatal).
    pub(super) fn campaign_arrived(&mut self, open: OpenCampaign) {
        let shared = open.shared.clone();
        self.campaign = Some(open);
        if let Some(folder) = shared {
            self.sync_open(&folder);
        }
    }

    /// Looks at the open campaign's shared folder when its files change, taking in what other
    /// machines wrote: the players see each other's events without pressing Sync, so the one
    /// who acts next acts on the table as it is. A thread ([`folder_watch::FolderWatch`])
    /// compares the files every [`FOLDER_LOOK_EVERY`] and wakes the window when they changed,
    /// so an idle window draws nothing; the files are then read on a thread of their own
    /// ([`loading::FolderReading`]) and what they held is taken in between frames. Returns
    /// when to be called again (`None`: when woken).
    pub(super) fn look_at_folder(&mut self) -> Option<std::time::Duration> {
        // While files are read, soon: what they hold is taken in as soon as it is there.
        const READING: std::time::Duration = std::time::Duration::from_millis(50);
        let every = self.folder_look_every?;
        let Some((id, folder)) = self
            .campaign
            .as_ref()
            .and_then(|open| Some((open.stored.id, open.shared.clone()?)))
        else {
            self.folder_reading = None;
            self.folder_watch = None;
            return None;
        };
        if let Some(reading) = &self.folder_reading {
            let Some(read) = reading.poll() else {
                return Some(READING);
            };
            let reading_id = reading.id;
            self.folder_reading = None;
            match read {
                Ok(loading::Looked::Taken { worker, taken }) => {
                    self.worker_back(*worker);
                    if reading_id == id {
                        self.took_from_folder(id, taken);
                    } else {
                        self.refresh_campaigns();
                    }
                }
                // Another campaign's look (the player switched meanwhile), or a folder away
                // for now: nothing to take in (Sync says why when pressed).
                Ok(loading::Looked::Read(read)) if reading_id == id => {
                    let taken = crate::sync::take_read(&mut self.store, id, read);
                    self.took_from_folder(id, taken);
                }
                Ok(loading::Looked::Read(_)) | Err(_) => {}
            }
            return self.next_folder_look(every);
        }
        let watched = self
            .folder_watch
            .as_ref()
            .is_some_and(|w| w.id == id && w.folder == folder);
        if !watched {
            self.folder_watch = self.store.campaign_uid(id).ok().map(|uid| {
                folder_watch::FolderWatch::start(id, uid, folder.clone(), every, self.waker.clone())
            });
        }
        let now = std::time::Instant::now();
        let since_last = self.last_folder_look.map(|at| now.duration_since(at));
        let changed = self.folder_watch.as_ref().is_some_and(|w| w.take_changed());
        let due =
            changed || since_last.is_none_or(|since| since >= self.unwatched_look_every(every));
        if !due {
            return self.next_folder_look(every);
        }
        self.last_folder_look = Some(now);
        match crate::sync::FolderLook::start(&mut self.store, id) {
            Ok(look) if look.nothing_new(&self.store, id, &folder) => self.next_folder_look(every),
            Ok(look) => {
                let reader = self.store.background_reader();
                let worker = self.take_worker();
                self.folder_reading = Some(loading::FolderReading::start(
                    look, id, folder, reader, worker,
                ));
                Some(READING)
            }
            Err(_) => self.next_folder_look(every),
        }
    }

    /// How often the folder is looked at without a change seen: on a timer when nothing
    /// watches it; otherwise seldom, only for what no file change shows (this machine's file
    /// left unwritten by a failed write, retried by the look).
    fn unwatched_look_every(&self, every: std::time::Duration) -> std::time::Duration {
        const SAFETY_NET: std::time::Duration = std::time::Duration::from_secs(60);
        if self.folder_watch.as_ref().is_some_and(|w| w.wakes()) {
            SAFETY_NET
        } else {
            every
        }
    }

    /// When the window must draw again for the next look: at the next unwatched look, or
    /// sooner if the watcher wakes it.
    fn next_folder_look(&self, every: std::time::Duration) -> Option<std::time::Duration> {
        let wait = self.unwatched_look_every(every);
        let since = self
            .last_folder_look
            .map_or(wait, |at| at.elapsed().min(wait));
        Some(wait - since)
    }

    /// Tells what a look at campaign `id`'s folder took in; quiet when nothing came, or when a
    /// sync since made the read out of date.
    fn took_from_folder(
        &mut self,
        id: CampaignId,
        taken: Result<Option<crate::sync::SyncReport>, crate::sync::SyncError>,
    ) {
        let Some(Ok(report)) = taken.transpose().map(unwritten_kept) else {
            return;
        };
        let news = report.added > 0
            || report.admissions > 0
            || !report.refused.is_empty()
            || report.reidentified.is_some();
        if news && let Err(e) = self.after_sync(id, report) {
            self.error(format!("{e:#}"));
        }
    }

    /// Takes in what the other machines wrote to the open campaign's folder before an action
    /// that writes (a choice, a new battle), as the command line's `record` does: a fork
    /// another player settled a moment ago, or a battle another player added, is seen first.
    fn catch_up_open(&mut self) -> anyhow::Result<()> {
        let Some(open) = &self.campaign else {
            return Ok(());
        };
        let Some(folder) = open.shared.clone() else {
            return Ok(());
        };
        let id = open.stored.id;
        match self.sync_reporting(id, &folder) {
            Ok(report) => self.after_sync(id, report),
            // A folder away for now (an unplugged stick): the action goes ahead, as recording
            // does.
            Err(_) => Ok(()),
        }
    }

    /// Syncs the campaign just opened with its folder, saying what happened.
    fn sync_open(&mut self, folder: &std::path::Path) {
        let Some(open) = &self.campaign else { return };
        let id = open.stored.id;
        match self.sync_reporting(id, folder) {
            Ok(report) => {
                if let Err(e) = self.after_sync(id, report) {
                    self.error(format!("{e:#}"));
                }
            }
            Err(e) => self.error(format!(
                "could not read the shared folder {}: {e:#} (the campaign is as this machine last had it)",
                folder.display()
            )),
        }
    }

    /// Syncs campaign `id` with `folder`. When only this machine's file could not be written
    /// the merge is kept all the same: the report comes back with the error as a notice.
    fn sync_reporting(
        &mut self,
        id: CampaignId,
        folder: &std::path::Path,
    ) -> anyhow::Result<crate::sync::SyncReport> {
        Ok(unwritten_kept(crate::sync::sync_folder(
            &mut self.store,
            id,
            folder,
        ))?)
    }

    /// Brings what a sync took in into the open campaign (its events added to the copy on
    /// screen; read again only when battles were added) and tells the user what came in,
    /// what was refused and who must choose where a battle forked.
    fn after_sync(
        &mut self,
        id: CampaignId,
        report: crate::sync::SyncReport,
    ) -> anyhow::Result<()> {
        if let Some(open) = self.campaign.as_mut().filter(|o| o.stored.id == id) {
            let mut reload = report.battles_added > 0
                || report.admissions != report.new_admissions.len()
                || open.shared.is_none();
            // Who the campaign believed before: a new member or a new key may change it.
            let before = open.stored.record.membership().clone();
            // New members change who is believed: the copy on screen re-resolves itself
            // (reading a 100,000-event campaign again held a frame for most of a second).
            if !reload && !report.new_admissions.is_empty() {
                reload = open
                    .stored
                    .record
                    .add_admissions(report.new_admissions.iter().cloned())
                    .is_err();
            }
            if !reload {
                for (index, e) in &report.taken {
                    if open.stored.record.add(*index, e.clone()).is_err() {
                        reload = true;
                        break;
                    }
                }
            }
            if !reload {
                // Only the battles that took events, or hold events whose standing changed,
                // are folded again (folding 98 battles of 1,000 events was most of the frame
                // that took one note in, and of the one that took a joining machine's in).
                let mut battles: Vec<usize> = report.taken.iter().map(|(i, _)| *i).collect();
                battles.extend(open.stored.record.battles_moved_since(&before));
                battles.sort_unstable();
                battles.dedup();
                for index in battles {
                    open.changed(index);
                }
            }
            if reload {
                let stored = self.store.load_campaign(id)?;
                let shared = crate::sync::shared_folder(&self.store, id)?;
                if let Some(open) = &mut self.campaign {
                    open.stored = stored;
                    open.shared = shared;
                    open.battle = open
                        .battle
                        .min(open.stored.record.campaign.battles.len().saturating_sub(1));
                    open.changed_all();
                }
            }
        }
        let quiet = report.added == 0
            && report.battles_added == 0
            && report.refused.is_empty()
            && report.skipped().count() == 0
            && report.notices.is_empty()
            && report.conflicts.is_empty()
            && report.wrote.is_none();
        if quiet {
            return Ok(());
        }
        let mut lines: Vec<String> = report
            .skipped()
            .map(|f| format!("{}: {}", f.file, f.note))
            .collect();
        lines.extend(report.refused.iter().map(|r| {
            format!(
                "refused {} (battle {}, {}): {}",
                r.event, r.battle, r.kind, r.reason
            )
        }));
        lines.extend(report.notices.iter().cloned());
        lines.extend(report.conflicts.iter().cloned());
        let text = format!("Sync: {}", report.summary());
        if lines.is_empty() {
            self.info(text);
        } else {
            self.error(format!("{text}\n{}", lines.join("\n")));
        }
        // The list learns from the report what came in.
        let taken = report.taken.iter().map(|(_, e)| e);
        match self.campaigns.iter_mut().find(|c| c.id == id) {
            Some(summary) => summary.took(taken, report.battles_added),
            None => self.refresh_campaigns(),
        }
        Ok(())
    }

    /// Reads who records on this machine and whether the window should still ask.
    pub(in crate::ui) fn load_player(&mut self) {
        let name = self
            .store
            .setting(crate::store::SETTING_PLAYER)
            .ok()
            .flatten();
        let asked = self.store.setting(SETTING_PLAYER_ASKED).ok().flatten();
        self.ask_player =
            name.is_none() && asked.is_none() && self.store.read_only_reason().is_none();
        self.player = self.store.recorder().unwrap_or_default();
    }

    fn open_battle(&self) -> anyhow::Result<campaign::Battle<'_>> {
        self.campaign
            .as_ref()
            .and_then(OpenCampaign::battle)
            .ok_or_else(|| anyhow!("no battle is open"))
    }

    fn record(&mut self, event: &Event) -> anyhow::Result<()> {
        let Some(open) = &mut self.campaign else {
            bail!("no campaign is open");
        };
        let battle = *open
            .stored
            .battle_ids
            .get(open.battle)
            .ok_or_else(|| anyhow!("no battle is open"))?;
        let at = match event {
            Event::BranchChosen { keep, .. } => open.stored.record.choice(open.battle, *keep)?.0,
            _ => open.stored.record.next_position(open.battle)?,
        };
        match self.store.record_event(battle, at, event) {
            Ok(logged) => {
                open.recorded_here = Some((open.battle, logged.id));
                open.stored.record.add(open.battle, logged)?;
                // This machine's names admitted with its first event under them.
                open.stored
                    .record
                    .add_admissions(self.store.take_admitted())?;
                open.changed(open.battle);
            }
            Err(changed @ StoreError::BattleChanged { .. }) => {
                // Another running copy recorded first: show its table, never a mixed log.
                open.stored = self.store.load_campaign(open.stored.id)?;
                open.changed_all();
                self.refresh_campaigns();
                return Err(changed.into());
            }
            Err(other) => return Err(other.into()),
        }
        self.show_store_notices();
        self.refresh_campaigns();
        Ok(())
    }

    /// What the library did on its own (this machine's shared file not written, a copied
    /// library taking a new machine id), said as the app's own warnings.
    fn show_store_notices(&mut self) {
        for notice in self.store.take_notices() {
            self.error(notice);
        }
    }

    /// The whole refusal of a campaign that cannot be opened, with the backup to turn to.
    fn unreadable_campaign(&self, error: StoreError) -> anyhow::Error {
        let backup = self.store.data_dir().and_then(crate::store::newest_backup);
        let hint = match backup {
            Some(path) => format!(
                "the newest backup of the library is {} — restore it with `quartermaster db restore {}` (the current library is kept in backups/)",
                path.display(),
                path.display()
            ),
            None => "the library has no backup yet in its backups/ folder".to_string(),
        };
        anyhow!("cannot open this campaign: {error}; nothing was changed; {hint}")
    }

    /// A saved force by name.
    fn saved_force(&self, name: &str) -> anyhow::Result<crate::rules::Force> {
        let id = self
            .store
            .find_force(name)?
            .ok_or_else(|| anyhow!("no saved force named '{name}'"))?;
        Ok(self.store.load_force(id)?.force)
    }

    fn force_units(&self, name: &str) -> anyhow::Result<Vec<String>> {
        let id = self
            .store
            .find_force(name)?
            .ok_or_else(|| anyhow!("no saved force named '{name}'"))?;
        let force = self.store.load_force(id)?.force;
        Ok(force
            .units
            .iter()
            .flat_map(|u| {
                // A custom card's units are "Sherman · custom" on the chips, as everywhere.
                let label = u.card.label();
                std::iter::repeat_n(label, u.count as usize)
            })
            .collect())
    }
}

/// How often the window looks at an open shared campaign's folder.
pub const FOLDER_LOOK_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

/// Set once the window has asked for the player name and been told "not now".
const SETTING_PLAYER_ASKED: &str = "player.asked";

fn after_action_pdf(record: &CampaignRecord) -> anyhow::Result<Vec<u8>> {
    let date = crate::export::ExportDate::today_utc()
        .ok_or_else(|| anyhow!("the system clock is wrong"))?;
    crate::export::export_after_action(record, "a4", date, &mut crate::export::no_progress)
        .map(|exported| exported.bytes)
        .context("could not lay out the after-action report")
}

/// A sync whose only failure was writing this machine's file keeps what it merged: its report,
/// with that said as a notice.
fn unwritten_kept(
    synced: Result<crate::sync::SyncReport, crate::sync::SyncError>,
) -> Result<crate::sync::SyncReport, crate::sync::SyncError> {
    match synced {
        Err(crate::sync::SyncError::NotWritten {
            mut report, error, ..
        }) => {
            report.notices.push(format!(
                "this machine's file in the folder could not be written ({error}); it is written at the next sync"
            ));
            Ok(*report)
        }
        other => other,
    }
}
