//! Campaigns, whatever the ruleset: what a campaign is ([`definition`]: its kind, players,
//! options and battle plans), the append-only event log of each battle ([`event`], [`log`]:
//! undo and redo as events), the identity that lets one campaign live on several machines
//! ([`identity`], [`history`]: forks and the choices that settle them, [`merge`], [`file`]),
//! the seed every app roll in a battle takes from its place ([`seed`]), verification of a log
//! by its ruleset's rules ([`verify`]), results ([`result`]) and each event in words
//! ([`describe`]), and a club's league table of several campaigns ([`league`]).
//!
//! A battle fought turn by turn is its ruleset's business: what may be done and the event each
//! action records are decided in `rules/<ruleset>/table_battle.rs` behind
//! [`crate::rules::battle::table::TableRules`], the same for every ruleset; [`fold`] folds a
//! battle's log onto its board. A campaign's battles come from saved forces or from a scripted
//! campaign's data file ([`scripted`]: the Lorraine 1944 briefings); what the first Lorraine
//! tracker recorded is read by [`legacy`]. [`sides`] names each side, everywhere.
//!
//! Pure like `rules/`: a campaign is a fixed [`Campaign`] definition plus one append-only
//! event log per battle; every state shown anywhere is a fold of those logs. `store/`
//! persists them; `ui/` and `cli/` decide new events with [`CampaignRecord::decide`]. One
//! memory is kept across calls: signatures already verified ([`verified`]), so an event read
//! again is not verified again.

pub mod definition;
pub mod describe;
pub mod error;
pub mod event;
pub mod file;
pub mod fold;
pub mod genesis;
pub mod history;
pub mod identity;
pub mod league;
pub mod legacy;
pub mod log;
pub mod machine_file;
pub mod membership;
pub mod merge;
pub mod result;
pub mod roster;
pub mod script;
pub mod scripted;
pub mod seal;
pub mod seed;
pub mod sides;
pub mod signers;
pub mod time;
pub mod verified;
pub mod verify;

pub use crate::rules::text;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

pub use definition::{
    BattlePlan, BoardSetup, Campaign, CampaignKind, CampaignOptions, LorraineOptions, ScriptedPlan,
    Sides, SimpleBattlePlan, battle_title, new_lorraine, new_scripted, new_simple, new_table,
};
pub use error::CampaignError;
pub use event::Event;
pub use history::{Fork, Position};
pub use identity::{CampaignUid, EventUid, Recorder};
pub use result::{BattleResult, CampaignResult};
pub use sides::side_label;
pub use signers::{PlayerKey, Signers};

pub use crate::rules::battle::Category;
use crate::rules::battle::board::{Board, TablePlan};
use crate::rules::battle::table::{self, AnyTable};
use crate::rules::battle::{BattleRules, Decided, Dice, Request, Side};
use crate::rules::dice::{PoolRequest, TableDice};

/// The pools an action asks the players for, and the decision once every pool is given.
pub type TablePools = (Vec<PoolRequest>, Result<Decided<Event>, CampaignError>);

/// The campaign's own actions a [`Request`] may name beside a battle's: the players end the
/// battle, or write a note.
pub const CONCLUDE: &str = "conclude";
pub const NOTE: &str = "note";

/// One recorded event with its place in the battle's log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoggedEvent {
    /// Unique across campaigns and machines.
    pub id: EventUid,
    /// The event it was recorded after in its battle (`None`: the battle's first event).
    pub follows: Option<EventUid>,
    /// 1, 2, 3 … along its line: one more than the event it follows.
    pub seq: u32,
    /// When it was recorded, UTC, ISO 8601.
    pub recorded_at: String,
    /// Who recorded it, on which machine (empty for events from before this was kept).
    #[serde(default, skip_serializing_if = "Recorder::is_unknown")]
    pub by: Recorder,
    /// The revision of the ruleset's rulings it was resolved under (the ruleset's
    /// `rules_revision`); `None` for events recorded before revisions were, which verify
    /// under whichever revision their dice fit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<u32>,
    /// The recording machine's key and signature ([`seal`]); `None` for events recorded
    /// before events were signed, which prove nothing about who recorded them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seal: Option<seal::Seal>,
    pub event: Event,
}

impl LoggedEvent {
    /// The revision of `ruleset`'s rulings the event was resolved under: the one it records,
    /// or for an event from before revisions were recorded, the one its dice show (an Armour
    /// Battles fire that rolled forced back for a unit it dispersed was resolved under revision
    /// 1; anything else reads the same under every revision, and counts as the current one).
    pub fn resolved_under(&self, ruleset: crate::rules::RulesetId) -> u32 {
        if let Some(r) = self.revision {
            return r;
        }
        match &self.event {
            Event::Armour(recorded) => legacy::resolved_under(recorded),
            _ => None,
        }
        .unwrap_or_else(|| crate::rules::ruleset(ruleset).rules_revision())
    }
}

/// A battle's plan with its log.
#[derive(Debug, Clone, PartialEq)]
pub struct Battle<'a> {
    pub plan: &'a BattlePlan,
    pub events: &'a [LoggedEvent],
}

impl Battle<'_> {
    fn pairs(&self) -> Vec<(u32, &Event)> {
        self.events.iter().map(|e| (e.seq, &e.event)).collect()
    }

    /// The board of a battle fought on one, as its log leaves it.
    pub fn board(&self) -> Option<Board> {
        self.board_with(&Sides::default())
    }

    /// [`Self::board`] with the cards lost in earlier battles (a campaign that carries its
    /// losses) taken off at the start.
    pub fn board_with(&self, carried: &Sides<Vec<String>>) -> Option<Board> {
        let setup = self.plan.board_setup()?;
        Some(fold::fold(&setup, carried, self.events))
    }

    /// The ruleset's score of each side at the start and at the end of every turn so far (the
    /// current turn's as it stands): Army Morale turn by turn in Armour Battles. A dispersal
    /// counts in the turn it happened.
    pub fn score_by_turn(&self, carried: &Sides<Vec<String>>) -> Vec<Sides<u32>> {
        let Some(setup) = self.plan.board_setup() else {
            return Vec::new();
        };
        let pairs: Vec<(u32, &Event)> = self.events.iter().map(|e| (e.seq, &e.event)).collect();
        let mut board = fold::start(&setup, carried);
        let score = |board: &Board| AnyTable::summary(board).score.unwrap_or_default();
        let mut turns = vec![score(&board)];
        for (_, event) in log::active_events(&pairs) {
            fold::apply(&setup.plan, &mut board, event);
            let turn = usize::try_from(board.turn).unwrap_or(usize::MAX);
            while turns.len() <= turn {
                turns.push(score(&board));
            }
            if let Some(last) = turns.last_mut() {
                *last = score(&board);
            }
        }
        turns
    }

    /// The seq an undo would take back.
    pub fn undo_target(&self) -> Option<u32> {
        log::undo_target(&self.pairs())
    }

    /// The seq a redo would put back.
    pub fn redo_target(&self) -> Option<u32> {
        log::redo_target(&self.pairs())
    }

    pub fn is_undone(&self, seq: u32) -> bool {
        log::is_undone(&self.pairs(), seq)
    }

    /// Every seq currently undone, for showing a whole log (one pass, not one per event).
    pub fn undone(&self) -> std::collections::HashSet<u32> {
        log::undone(&self.pairs())
    }

    /// Whether anything has been recorded (undo/redo included).
    pub fn started(&self) -> bool {
        self.events.iter().any(|e| e.event.setup().is_none())
    }

    /// The undo event for the latest event that counts.
    ///
    /// # Errors
    /// [`CampaignError::NothingTo`] when nothing counts.
    pub fn undo(&self) -> Result<Event, CampaignError> {
        self.undo_target()
            .map(|seq| Event::Undo { seq })
            .ok_or(CampaignError::NothingTo("undo"))
    }

    /// The redo event for the latest undo.
    ///
    /// # Errors
    /// [`CampaignError::NothingTo`] when there is nothing to redo.
    pub fn redo(&self) -> Result<Event, CampaignError> {
        self.redo_target()
            .map(|seq| Event::Redo { seq })
            .ok_or(CampaignError::NothingTo("redo"))
    }
}

/// A whole campaign: its definition and every battle's log, in battle order.
///
/// Each battle's events are kept laid out as [`history::arrange`] lays them out: `logs` holds
/// the line the table plays, `aside` everything else in play (branches of a fork, set aside or
/// not yet chosen, and the choices), `withheld` the events not in play (signed by a key not
/// admitted under the names it claims: [`membership`]). Change them only through the methods
/// here, which keep that so.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignRecord {
    /// The same on every machine that holds this campaign: its genesis's digest, for a campaign
    /// begun since campaigns have one.
    pub id: CampaignUid,
    /// How the campaign began, signed by its creator ([`genesis`]); `None` for a campaign begun
    /// before campaigns had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub genesis: Option<genesis::Genesis>,
    pub campaign: Campaign,
    /// One line per battle of `campaign.battles`, same order.
    pub logs: Vec<Vec<LoggedEvent>>,
    /// Per battle, the events off the line.
    pub aside: Vec<Vec<LoggedEvent>>,
    /// Per battle, the events not in play (empty lists are not written).
    #[serde(default, skip_serializing_if = "none_withheld")]
    pub withheld: Vec<Vec<LoggedEvent>>,
    /// Members' admissions of keys ([`membership::Admission`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub admissions: Vec<membership::Admission>,
    /// Who the campaign believes, resolved from the above.
    #[serde(skip)]
    trust: Trust,
}

/// A record's membership and what it was resolved from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Trust {
    /// What is known beyond the record's own events and admissions (a copy holding only some
    /// battles knows every pair that signed the others).
    extra: membership::Basis,
    basis: membership::Basis,
    membership: membership::Membership,
}

fn none_withheld(withheld: &[Vec<LoggedEvent>]) -> bool {
    withheld.iter().all(Vec::is_empty)
}

impl CampaignRecord {
    pub fn new(id: CampaignUid, campaign: Campaign) -> Self {
        let logs = vec![Vec::new(); campaign.battles.len()];
        let aside = logs.clone();
        Self {
            id,
            genesis: None,
            campaign,
            withheld: logs.clone(),
            logs,
            aside,
            admissions: Vec::new(),
            trust: Trust::default(),
        }
    }

    /// A new campaign begun by `genesis` (its id is the genesis's).
    pub fn begun(genesis: genesis::Genesis) -> Self {
        let mut record = Self::new(genesis.id(), genesis.definition.clone());
        record.trust.basis.root = Some((genesis.root(), genesis.by.clone()));
        record.genesis = Some(genesis);
        record.trust.membership = membership::Membership::resolve(&record.trust.basis);
        record
    }

    /// Who this campaign believes: which keys are admitted under which names.
    pub fn membership(&self) -> &membership::Membership {
        &self.trust.membership
    }

    /// What the membership was resolved from.
    pub fn membership_basis(&self) -> &membership::Basis {
        &self.trust.basis
    }

    /// Who recorded `e`, as the campaign believes it ([`membership::Membership::recorded_by`]).
    pub fn recorded_by(&self, e: &LoggedEvent) -> String {
        self.trust.membership.recorded_by(e)
    }

    /// Resolves who the campaign believes again from its genesis, events and admissions, and
    /// lays out again the battles holding an event whose standing that changed.
    ///
    /// # Errors
    /// As [`history::arrange`].
    fn refresh_trust(&mut self) -> Result<(), CampaignError> {
        let before = self.trust.membership.clone();
        if self.resolve_trust() {
            self.lay_out_moved(&before)?;
        }
        Ok(())
    }

    /// [`Self::refresh_trust`] after one event signed under a new pair (`pair`) or new
    /// admissions: the pairs resolved last stand, so they are not read again from every event
    /// (15 ms at 100,000 events, in the frame that took a joining machine's first event in).
    fn refresh_trust_adding(
        &mut self,
        pair: Option<(seal::PublicKey, Recorder)>,
    ) -> Result<(), CampaignError> {
        let before = self.trust.membership.clone();
        let mut signed = std::mem::take(&mut self.trust.basis.signed);
        signed.extend(pair);
        debug_assert_eq!(signed, self.signed_pairs(), "pairs kept as resolved");
        if self.resolve_from(signed) {
            self.lay_out_moved(&before)?;
        }
        Ok(())
    }

    /// Lays out again each battle holding an event in play under one of `before` and the
    /// membership now but not the other: no other battle's layout can have changed (folding
    /// every battle of a 100,000-event campaign again took a quarter of a second).
    fn lay_out_moved(&mut self, before: &membership::Membership) -> Result<(), CampaignError> {
        for index in self.battles_moved_since(before) {
            self.lay_out(index)?;
        }
        Ok(())
    }

    /// The battles holding an event in play under one of `before` and the membership now but
    /// not the other: those whose line, and so whose result, a change of who the campaign
    /// believes may have changed (each the same as before otherwise).
    pub fn battles_moved_since(&self, before: &membership::Membership) -> Vec<usize> {
        let moved = self.trust.membership.standing_changes(before);
        if moved.is_empty() {
            return Vec::new();
        }
        (0..self.logs.len())
            .filter(|&index| {
                self.all_events(index).any(|e| {
                    e.seal
                        .is_some_and(|s| moved.iter().any(|(key, by)| *key == s.key && *by == e.by))
                })
            })
            .collect()
    }

    /// Every (key, names) pair that signed an event, with those known beyond the events held.
    fn signed_pairs(&self) -> std::collections::BTreeSet<(seal::PublicKey, Recorder)> {
        // Borrowed first: cloning two names per event was most of the cost.
        let mut pairs: std::collections::HashSet<(seal::PublicKey, &str, &str)> =
            std::collections::HashSet::new();
        for index in 0..self.logs.len() {
            for e in self.all_events(index) {
                if let Some(s) = e.seal {
                    pairs.insert((s.key, e.by.player.as_str(), e.by.machine.as_str()));
                }
            }
        }
        let mut signed: std::collections::BTreeSet<(seal::PublicKey, Recorder)> = pairs
            .into_iter()
            .map(|(key, player, machine)| {
                (
                    key,
                    Recorder {
                        player: player.to_string(),
                        machine: machine.to_string(),
                    },
                )
            })
            .collect();
        signed.extend(self.trust.extra.signed.iter().cloned());
        signed
    }

    /// The record's admissions with those known beyond it, in id order.
    fn admissions_known(&self) -> Vec<membership::Admission> {
        let mut admissions = self.admissions.clone();
        for a in &self.trust.extra.admissions {
            if !admissions.iter().any(|b| b.id == a.id) {
                admissions.push(a.clone());
            }
        }
        admissions.sort_by_key(|a| a.id);
        admissions
    }

    /// Resolves membership again (without laying anything out); whether it changed.
    fn resolve_trust(&mut self) -> bool {
        self.resolve_from(self.signed_pairs())
    }

    /// Resolves membership from the pairs `signed`, the genesis and the admissions known;
    /// whether it changed.
    fn resolve_from(
        &mut self,
        signed: std::collections::BTreeSet<(seal::PublicKey, Recorder)>,
    ) -> bool {
        let basis = membership::Basis {
            root: self.genesis.as_ref().map(|g| (g.root(), g.by.clone())),
            signed,
            admissions: self.admissions_known(),
        };
        let membership = membership::Membership::resolve(&basis);
        let changed = membership != self.trust.membership;
        self.trust.basis = basis;
        self.trust.membership = membership;
        changed
    }

    /// Lays battle `index` out again from all its events, as membership now stands.
    fn lay_out(&mut self, index: usize) -> Result<(), CampaignError> {
        let all: Vec<LoggedEvent> = self.all_events(index).cloned().collect();
        let membership = &self.trust.membership;
        let arranged = history::arrange(all, &|e| membership.in_play(e))?;
        self.set_arranged(index, arranged);
        self.refresh_plan(index);
        Ok(())
    }

    fn set_arranged(&mut self, index: usize, arranged: history::Arranged) {
        if self.withheld.len() < self.logs.len() {
            self.withheld.resize(self.logs.len(), Vec::new());
        }
        if let (Some(line), Some(aside), Some(withheld)) = (
            self.logs.get_mut(index),
            self.aside.get_mut(index),
            self.withheld.get_mut(index),
        ) {
            *line = arranged.line;
            *aside = arranged.aside;
            *withheld = arranged.withheld;
        }
    }

    /// Adds admissions (checked by the caller) not held yet, and lays the battles out again
    /// if who the campaign believes changed. Returns how many were new.
    ///
    /// # Errors
    /// As [`history::arrange`].
    pub fn add_admissions(
        &mut self,
        admissions: impl IntoIterator<Item = membership::Admission>,
    ) -> Result<usize, CampaignError> {
        let mut added = 0;
        for a in admissions {
            if !self.admissions.iter().any(|b| b.id == a.id) {
                self.admissions.push(a);
                added += 1;
            }
        }
        if added > 0 {
            self.admissions.sort_by_key(|a| a.id);
            self.refresh_trust_adding(None)?;
        }
        Ok(added)
    }

    /// Resolves membership with what is known beyond the events this record holds (a library
    /// loads only the battles a sync touches: `extra` names every pair that signed the others).
    ///
    /// # Errors
    /// As [`history::arrange`].
    pub fn with_basis(&mut self, extra: membership::Basis) -> Result<(), CampaignError> {
        self.trust.extra = extra;
        self.refresh_trust()
    }

    /// Lays out battle `index` again after its events changed outside [`Self::add`] (a merge
    /// taking several at once), resolving membership again first.
    ///
    /// # Errors
    /// As [`history::arrange`].
    pub(crate) fn relay(&mut self, touched: &[usize]) -> Result<(), CampaignError> {
        self.refresh_trust()?;
        for &index in touched {
            self.lay_out(index)?;
        }
        Ok(())
    }

    /// A record from every battle's events in any order, laid out.
    ///
    /// # Errors
    /// As [`history::arrange`]; more event lists than battles.
    pub fn from_events(
        id: CampaignUid,
        campaign: Campaign,
        events: Vec<Vec<LoggedEvent>>,
    ) -> Result<Self, CampaignError> {
        Self::from_parts(id, None, campaign, events, Vec::new())
    }

    /// [`Self::from_events`] with the campaign's genesis and its members' admissions.
    ///
    /// # Errors
    /// As [`Self::from_events`].
    pub fn from_parts(
        id: CampaignUid,
        genesis: Option<genesis::Genesis>,
        campaign: Campaign,
        events: Vec<Vec<LoggedEvent>>,
        admissions: Vec<membership::Admission>,
    ) -> Result<Self, CampaignError> {
        if events.len() > campaign.battles.len() {
            return Err(CampaignError::Invalid {
                field: "logs",
                message: format!(
                    "{} logs for {} battles",
                    events.len(),
                    campaign.battles.len()
                ),
            });
        }
        let mut record = Self::new(id, campaign);
        record.genesis = genesis;
        record.admissions = admissions;
        record.admissions.sort_by_key(|a| a.id);
        for (index, list) in events.into_iter().enumerate() {
            record.logs[index] = list;
        }
        // Membership first (it decides what is in play in every battle), then each battle.
        record.resolve_trust();
        for index in 0..record.logs.len() {
            record.lay_out(index)?;
        }
        Ok(record)
    }

    /// The same campaign as a separate copy with its own id: every event gets a new id (the
    /// new campaign id, its battle and its place among the battle's events), links kept.
    pub fn as_copy(&self, id: CampaignUid) -> CampaignRecord {
        let mut copy = self.clone();
        copy.id = id;
        for index in 0..copy.campaign.battles.len() {
            let number = copy.campaign.battles[index].number();
            let mut renamed: std::collections::HashMap<EventUid, EventUid> =
                std::collections::HashMap::new();
            for (n, e) in self.all_events(index).enumerate() {
                let ordinal = u32::try_from(n + 1).unwrap_or(u32::MAX);
                renamed.insert(e.id, EventUid::legacy(id, number, ordinal));
            }
            let rename = |e: &mut LoggedEvent| {
                e.id = renamed.get(&e.id).copied().unwrap_or(e.id);
                e.follows = e.follows.map(|f| renamed.get(&f).copied().unwrap_or(f));
                if let Event::BranchChosen { keep, .. } = &mut e.event {
                    *keep = renamed.get(keep).copied().unwrap_or(*keep);
                }
            };
            copy.logs[index].iter_mut().for_each(rename);
            copy.aside[index].iter_mut().for_each(rename);
            if let Some(withheld) = copy.withheld.get_mut(index) {
                withheld.iter_mut().for_each(rename);
            }
        }
        // New ids break the signatures: the copy's events are sealed again when it is stored
        // (its genesis lists them), and prove nothing about who recorded them before.
        copy.genesis = None;
        copy.admissions.clear();
        for e in copy
            .logs
            .iter_mut()
            .chain(copy.aside.iter_mut())
            .chain(copy.withheld.iter_mut())
            .flatten()
        {
            e.seal = None;
        }
        copy.trust = Trust::default();
        copy
    }

    /// Every event of battle `index`: on the line, aside, or not in play.
    pub fn all_events(&self, index: usize) -> impl Iterator<Item = &LoggedEvent> {
        let line = self.logs.get(index).map_or(&[][..], Vec::as_slice);
        let aside = self.aside.get(index).map_or(&[][..], Vec::as_slice);
        let withheld = self.withheld.get(index).map_or(&[][..], Vec::as_slice);
        line.iter().chain(aside).chain(withheld)
    }

    /// Battle `index`'s events not in play.
    pub fn withheld_of(&self, index: usize) -> &[LoggedEvent] {
        self.withheld.get(index).map_or(&[][..], Vec::as_slice)
    }

    /// Every event of every battle (in play or not).
    pub fn event_count(&self) -> usize {
        self.logs
            .iter()
            .chain(&self.aside)
            .chain(&self.withheld)
            .map(Vec::len)
            .sum()
    }

    fn aside_of(&self, index: usize) -> &[LoggedEvent] {
        self.aside.get(index).map_or(&[][..], Vec::as_slice)
    }

    fn line_of(&self, index: usize) -> &[LoggedEvent] {
        self.logs.get(index).map_or(&[][..], Vec::as_slice)
    }

    /// Where the next event of battle `index` goes.
    ///
    /// # Errors
    /// [`CampaignError::Forked`] while the battle waits for a choice of branch.
    pub fn next_position(&self, index: usize) -> Result<Position, CampaignError> {
        history::next_position(self.line_of(index), self.aside_of(index))
    }

    /// The fork battle `index` waits on, if any.
    pub fn open_fork(&self, index: usize) -> Option<Fork<'_>> {
        history::open_fork(self.line_of(index), self.aside_of(index))
    }

    /// Every fork of battle `index`, settled or open.
    pub fn forks(&self, index: usize) -> Vec<Fork<'_>> {
        history::forks(self.line_of(index), self.aside_of(index))
    }

    /// Ids of battle `index`'s events set aside by a settled fork.
    pub fn set_aside(&self, index: usize) -> std::collections::HashSet<EventUid> {
        history::set_aside(self.line_of(index), self.aside_of(index))
    }

    /// The choice event keeping the branch that starts with `keep` in battle `index`, and where
    /// it goes.
    ///
    /// # Errors
    /// `keep` starts no branch, or is already kept.
    pub fn choice(&self, index: usize, keep: EventUid) -> Result<(Position, Event), CampaignError> {
        history::choice(self.line_of(index), self.aside_of(index), keep)
    }

    /// Adds an event already placed (by [`Self::next_position`] or [`Self::choice`], then
    /// stored) to battle `index`, laying the battle out again when it is off the line's end.
    ///
    /// # Errors
    /// No such battle, or the event does not fit the log (as [`history::arrange`]).
    pub fn add(&mut self, index: usize, logged: LoggedEvent) -> Result<(), CampaignError> {
        if self.withheld.len() < self.logs.len() {
            self.withheld.resize(self.logs.len(), Vec::new());
        }
        // A key or names not seen before may change who the campaign believes.
        let new_signer = logged
            .seal
            .map(|s| (s.key, logged.by.clone()))
            .filter(|pair| !self.trust.basis.signed.contains(pair));
        let (Some(line), Some(aside), Some(withheld)) = (
            self.logs.get_mut(index),
            self.aside.get_mut(index),
            self.withheld.get(index),
        ) else {
            return Err(CampaignError::not_allowed(format!(
                "no battle {} in this campaign",
                index + 1
            )));
        };
        let at_end = new_signer.is_none()
            && self.trust.membership.in_play(&logged)
            && logged.follows == line.last().map(|e| e.id)
            && logged.seq == line.last().map_or(1, |e| e.seq + 1)
            && !logged.event.is_meta_choice()
            && !aside.iter().any(|e| e.follows == logged.follows)
            && !withheld.iter().any(|e| e.follows == logged.follows);
        if at_end {
            // The common case, kept linear: no re-layout of a long log per event.
            line.push(logged);
            return Ok(());
        }
        let mut all: Vec<LoggedEvent> = std::mem::take(line);
        all.append(aside);
        if let Some(withheld) = self.withheld.get_mut(index) {
            all.append(withheld);
        }
        all.push(logged);
        if let Some(line) = self.logs.get_mut(index) {
            *line = all;
        }
        if let Some(pair) = new_signer {
            // Lays out again the battles whose events' standing changed; this one in any case.
            self.refresh_trust_adding(Some(pair))?;
        }
        // A choice at the start of a battle set up by events may change its plan.
        self.lay_out(index)
    }

    /// Appends `event` at the end of battle `index`'s line, with an id derived from the
    /// campaign's id, the battle and how many events the battle holds ([`EventUid::legacy`]'s
    /// rule) and no recorder: for scripts, tests and benchmarks recording without a store.
    ///
    /// # Errors
    /// The battle is forked.
    pub fn append_numbered(
        &mut self,
        index: usize,
        recorded_at: String,
        event: Event,
    ) -> Result<&LoggedEvent, CampaignError> {
        let count = self.all_events(index).count();
        let number = self
            .campaign
            .battles
            .get(index)
            .map_or(0, |plan| plan.number());
        let id = EventUid::legacy(
            self.id,
            number,
            u32::try_from(count + 1).unwrap_or(u32::MAX),
        );
        self.append(index, id, recorded_at, Recorder::default(), event)
    }

    /// Appends `event` at the end of battle `index`'s line with the given id, time and
    /// recorder, unsigned, resolved under the ruleset's current revision (scripts, tests and
    /// benchmarks; the app goes through the store, which signs).
    ///
    /// # Errors
    /// The battle is forked.
    pub fn append(
        &mut self,
        index: usize,
        id: EventUid,
        recorded_at: String,
        by: Recorder,
        event: Event,
    ) -> Result<&LoggedEvent, CampaignError> {
        let at = self.next_position(index)?;
        let mut logged = history::logged(at, id, recorded_at, by, event);
        logged.revision = Some(self.rules_revision());
        self.add(index, logged)?;
        self.logs
            .get(index)
            .and_then(|l| l.last())
            .ok_or_else(|| CampaignError::not_allowed("the event was not added"))
    }

    /// Records `event` at `at` in battle `index` as the machine holding `key` does: resolved
    /// under the current revision, its id made from its content and signed. For tests,
    /// benchmarks and scripts; the app records through the store, which does the same.
    ///
    /// # Errors
    /// The event does not fit the log (as [`Self::add`]).
    pub fn record_sealed(
        &mut self,
        index: usize,
        at: Position,
        key: &seal::MachineKey,
        recorded_at: String,
        by: Recorder,
        event: Event,
    ) -> Result<LoggedEvent, CampaignError> {
        let mut logged = history::logged(at, EventUid(uuid::Uuid::nil()), recorded_at, by, event);
        logged.revision = Some(self.rules_revision());
        let number = self.battle_number(index);
        seal::seal(key, self.id, number, &mut logged);
        self.add(index, logged.clone())?;
        Ok(logged)
    }

    /// The revision of the rulings new events of this campaign are resolved under.
    pub fn rules_revision(&self) -> u32 {
        crate::rules::ruleset(self.campaign.ruleset).rules_revision()
    }

    /// Battle `index`'s number (its place from 1).
    pub fn battle_number(&self, index: usize) -> u32 {
        self.campaign.battles.get(index).map_or_else(
            || u32::try_from(index + 1).unwrap_or(u32::MAX),
            |plan| plan.number(),
        )
    }

    /// Whether battle `index` was set up by an event (added during the campaign by a version
    /// that records setups), rather than by the campaign's definition.
    pub fn set_up_by_event(&self, index: usize) -> bool {
        self.all_events(index)
            .any(|e| e.seq == 1 && e.event.setup().is_some())
    }

    /// The plan battle `index` is played under, for a battle set up by an event: the setup on
    /// its line, or while its start is forked, the first setup in sibling order.
    pub fn refresh_plan(&mut self, index: usize) {
        let setup = self
            .line_of(index)
            .first()
            .and_then(|e| e.event.setup())
            .or_else(|| {
                self.aside_of(index)
                    .iter()
                    .find(|e| e.seq == 1)
                    .and_then(|e| e.event.setup())
            })
            .cloned();
        if let (Some(plan), Some(slot)) = (setup, self.campaign.battles.get_mut(index)) {
            *slot = plan.into();
        }
    }

    /// The campaign as it began: its definition with the battles it was created with (and any
    /// added by a version that did not record setups as events), not those set up by events.
    pub fn definition(&self) -> Campaign {
        let mut definition = self.campaign.clone();
        let keep = (0..definition.battles.len())
            .take_while(|&i| !self.set_up_by_event(i))
            .count();
        definition.battles.truncate(keep);
        definition
    }

    /// Numbers of the battles waiting on a fork.
    pub fn forked(&self) -> Vec<u32> {
        (0..self.campaign.battles.len())
            .filter(|&i| self.open_fork(i).is_some())
            .map(|i| self.battle_number(i))
            .collect()
    }

    /// Who signed this campaign's events: each key with the names it recorded under, when it
    /// first did and how many events it signed, in order of first event.
    pub fn players(&self) -> Vec<PlayerKey> {
        let per_battle: Vec<Signers> = (0..self.logs.len()).map(|i| self.signers(i)).collect();
        Signers::players(&per_battle)
    }

    /// How many events carry no signature (recorded before events were signed).
    pub fn unsigned_events(&self) -> usize {
        (0..self.logs.len())
            .map(|i| self.all_events(i).filter(|e| e.seal.is_none()).count())
            .sum()
    }

    /// Who signed battle `index`'s events in play (line and aside: a key not admitted under the
    /// names it claims is no player of the campaign's), and how many carry no signature: one
    /// battle's share of [`Self::players`], so a view that keeps one per battle folds only the
    /// battle that changed.
    pub fn signers(&self, index: usize) -> Signers {
        Signers::of(self.line_of(index).iter().chain(self.aside_of(index)))
    }

    pub fn battle(&self, index: usize) -> Option<Battle<'_>> {
        Some(Battle {
            plan: self.campaign.battles.get(index)?,
            events: self.logs.get(index).map_or(&[], Vec::as_slice),
        })
    }

    pub fn battles(&self) -> impl Iterator<Item = Battle<'_>> {
        (0..self.campaign.battles.len()).filter_map(|i| self.battle(i))
    }

    /// Card names lost in the battles before `index`, per side, when the campaign carries
    /// losses forward (empty otherwise).
    pub fn carried_losses(&self, index: usize) -> Sides<Vec<String>> {
        let mut lost: Sides<Vec<String>> = Sides::default();
        if !self.campaign.options.carry_losses {
            return lost;
        }
        for battle in self.battles().take(index) {
            if let Some(board) = battle.board() {
                for side in definition::SIDES {
                    lost.get_mut(side).extend(board.lost_cards(side));
                }
            }
        }
        lost
    }

    /// The board of battle `index`, for a battle fought on one.
    pub fn board(&self, index: usize) -> Option<Board> {
        self.battle(index)?.board_with(&self.carried_losses(index))
    }

    /// The board plan of battle `index` (a plan of the first Lorraine tracker read as the
    /// board plan it stands for), for a battle fought on one.
    pub fn table_plan(&self, index: usize) -> Option<TablePlan> {
        let setup = self.campaign.battles.get(index)?.board_setup()?;
        Some(setup.plan.into_owned())
    }

    /// The seed an app roll recorded now in battle `index` by `machine` takes: the one its
    /// place gives ([`seed::battle_seed`]), never chosen.
    ///
    /// # Errors
    /// No such battle, or the battle is forked.
    pub fn seed_at(&self, index: usize, machine: &str) -> Result<u64, CampaignError> {
        let at = self.next_position(index)?;
        let number = self
            .campaign
            .battles
            .get(index)
            .map(|plan| plan.number())
            .ok_or_else(|| CampaignError::not_allowed(format!("no battle {}", index + 1)))?;
        Ok(seed::battle_seed(self.id, number, at.follows, machine))
    }

    /// The event the scripted player (tests, demos, the crash test) records next in battle
    /// `index` when `by` records it; `None` once the battle is over or is not tracked.
    ///
    /// # Errors
    /// As [`Self::decide`].
    pub fn scripted(&self, index: usize, by: &Recorder) -> Result<Option<Event>, CampaignError> {
        let request = match (self.table_plan(index), self.board(index)) {
            (Some(plan), Some(board)) => match table::engine(plan.ruleset) {
                Ok(engine) => (engine.scripted)(&plan, &board),
                Err(_) => None,
            },
            _ => None,
        };
        match request {
            Some(request) => Ok(Some(self.decide(index, &request, by)?.event)),
            None => Ok(None),
        }
    }

    /// The event `request` records now in battle `index` when `by` records it, decided by the
    /// battle's rules with the app's dice from the seed the battle's history gives (and the
    /// mechanic's report of them). The players' own end of the battle (`conclude`, with the
    /// winner in [`Request::side`] and the notes in [`Request::text`]) and notes are the
    /// campaign's.
    ///
    /// # Errors
    /// A battle not tracked turn by turn, a forked battle, or the rules' refusal.
    pub fn decide(
        &self,
        index: usize,
        request: &Request,
        by: &Recorder,
    ) -> Result<Decided<Event>, CampaignError> {
        self.decide_with(index, request, by, None)
    }

    /// [`Self::decide`] with the dice the players rolled at the table: the outcome is derived
    /// from these faces, and the event says so.
    ///
    /// # Errors
    /// As [`Self::decide`]; faces of the wrong count or not on the die, a pool missing or one
    /// the action does not roll (each named).
    pub fn decide_table(
        &self,
        index: usize,
        request: &Request,
        by: &Recorder,
        dice: &TableDice,
    ) -> Result<Decided<Event>, CampaignError> {
        self.decide_with(index, request, by, Some(dice))
    }

    /// Which pools `request` asks the players for in battle `index`, with the faces `given`
    /// so far, and the decision once they all answer (see
    /// [`crate::rules::battle::BattleRules::pools`]).
    ///
    /// # Errors
    /// A battle not tracked turn by turn.
    pub fn table_pools(
        &self,
        index: usize,
        request: &Request,
        given: &TableDice,
    ) -> Result<TablePools, CampaignError> {
        let number = self.battle_number(index);
        let (Some(plan), Some(board)) = (self.table_plan(index), self.board(index)) else {
            return Err(CampaignError::NotTracked(number));
        };
        let (asked, answer) = AnyTable::pools(&plan, &board, request, given);
        Ok((
            asked,
            answer
                .map(|d| Decided {
                    event: Event::Act(d.event),
                    report: d.report,
                })
                .map_err(CampaignError::from),
        ))
    }

    fn decide_with(
        &self,
        index: usize,
        request: &Request,
        by: &Recorder,
        table: Option<&TableDice>,
    ) -> Result<Decided<Event>, CampaignError> {
        let battle = self
            .battle(index)
            .ok_or_else(|| CampaignError::not_allowed(format!("no battle {}", index + 1)))?;
        let plain = |event| Decided {
            event,
            report: None,
        };
        match request.action {
            CONCLUDE => {
                text::note(&request.text).map_err(|message| CampaignError::Invalid {
                    field: "notes",
                    message,
                })?;
                let over = self.board(index).and_then(|board| board.outcome);
                if let Some((_, reason)) = over {
                    return Err(crate::rules::battle::BattleError::BattleOver(reason).into());
                }
                return Ok(plain(Event::BattleConcluded {
                    winner: request.side,
                    notes: request.text.trim().to_string(),
                }));
            }
            NOTE => {
                text::note(&request.text).map_err(|message| CampaignError::Invalid {
                    field: "note",
                    message,
                })?;
                return Ok(plain(Event::Note {
                    text: request.text.clone(),
                }));
            }
            _ => {}
        }
        let dice = match table {
            Some(faces) => Dice::Table(faces.clone()),
            None => Dice::Seed(self.seed_at(index, &by.machine)?),
        };
        let (Some(plan), Some(board)) = (self.table_plan(index), self.board(index)) else {
            return Err(CampaignError::NotTracked(battle.plan.number()));
        };
        let d = AnyTable::decide(&plan, &board, request, &dice)?;
        Ok(Decided {
            event: Event::Act(d.event),
            report: d.report,
        })
    }

    /// Every battle's result, in order.
    pub fn results(&self) -> Vec<BattleResult> {
        self.battles()
            .enumerate()
            .map(|(i, b)| result::battle_result(&b, &self.carried_losses(i)))
            .collect()
    }

    /// The campaign's result so far (RULINGS "Campaign").
    pub fn result(&self) -> CampaignResult {
        self.result_of(&self.results())
    }

    /// The campaign's result from its battles' `results`, each side named in its own words.
    pub fn result_of(&self, results: &[BattleResult]) -> CampaignResult {
        let names = Sides {
            first: side_label(&self.campaign, Side::First),
            second: side_label(&self.campaign, Side::Second),
        };
        let measure = match table::engine(self.campaign.ruleset) {
            Ok(engine) if self.campaign.kind() == CampaignKind::Scripted => engine.score_name,
            _ => "the ruleset's score",
        };
        result::campaign_result(results, &names, measure)
    }

    /// The scripted campaign's battle after its last ("What next?"), played as `variant` (a
    /// key its file gives: `extra_artillery`) or plainly: the plan it would add.
    ///
    /// # Errors
    /// Not a scripted campaign, or one without such a battle.
    pub fn follow_up(&self, variant: Option<&str>) -> Result<BattlePlan, CampaignError> {
        let script = self.campaign.script().ok_or_else(|| {
            CampaignError::not_allowed(
                "only a scripted campaign (Lorraine 1944) has a battle after its last",
            )
        })?;
        script.follow_up(self.next_number(), variant)
    }

    /// Adds `plan` as the campaign's last battle, its log empty.
    fn push_battle(&mut self, plan: BattlePlan) {
        self.campaign.battles.push(plan.into());
        self.logs.push(Vec::new());
        self.aside.push(Vec::new());
        let battles = self.logs.len();
        self.withheld.resize(battles, Vec::new());
    }

    /// Adds the scripted campaign's battle after its last, set up in the definition.
    ///
    /// # Errors
    /// As [`Self::follow_up`].
    pub fn add_follow_up(&mut self, variant: Option<&str>) -> Result<u32, CampaignError> {
        let plan = self.follow_up(variant)?;
        let number = plan.number();
        self.push_battle(plan);
        Ok(number)
    }

    /// Adds a battle between two saved forces to a simple campaign.
    ///
    /// # Errors
    /// A Lorraine campaign, or an empty battle name.
    pub fn add_simple_battle(
        &mut self,
        name: &str,
        forces: Sides<String>,
        units: Sides<Vec<String>>,
    ) -> Result<u32, CampaignError> {
        if self.campaign.kind() == CampaignKind::Scripted {
            return Err(CampaignError::not_allowed(
                "a scripted campaign's battles come from its briefings; add its next battle (\"What next?\") instead",
            ));
        }
        if name.trim().is_empty() {
            return Err(CampaignError::Invalid {
                field: "battle.name",
                message: "must not be empty".to_string(),
            });
        }
        let number = self.next_number();
        self.push_battle(BattlePlan::Simple(SimpleBattlePlan {
            number,
            name: name.trim().to_string(),
            forces,
            units,
        }));
        Ok(number)
    }

    /// Adds a battle fought on a board (the first from two forces, or the next from the
    /// roster): set up in the campaign's definition, as a simple battle is.
    ///
    /// # Errors
    /// A Lorraine campaign, a plan of another ruleset, or one the checks refuse.
    pub fn add_table_battle(&mut self, mut plan: TablePlan) -> Result<u32, CampaignError> {
        if self.campaign.kind() == CampaignKind::Scripted || plan.ruleset != self.campaign.ruleset {
            return Err(CampaignError::not_allowed(format!(
                "a {} battle does not belong in a {} campaign",
                plan.ruleset.title(),
                self.campaign.ruleset.title()
            )));
        }
        let number = self.next_number();
        plan.number = number;
        if plan.name.trim().is_empty() {
            plan.name = format!("Battle {number}");
        }
        let plan = BattlePlan::Table(plan);
        verify::check_plan(self.campaign.ruleset, number, &plan)?;
        verify::check_kind(&self.campaign, number, &plan)?;
        self.push_battle(plan);
        Ok(number)
    }

    /// The plan of the battle after battle `index` as its roster carries into it, and the
    /// changes in words (house rule: a step up after `promote_after` battles survived).
    ///
    /// # Errors
    /// Battle `index` is not a board battle, or not over.
    pub fn next_table_plan(
        &self,
        index: usize,
        name: &str,
        promote_after: u32,
        reinforcements: &Sides<Vec<roster::Reinforcement>>,
    ) -> Result<(TablePlan, Vec<roster::RosterChange>), CampaignError> {
        let Some(BattlePlan::Table(plan)) = self.campaign.battles.get(index).map(|p| &**p) else {
            return Err(CampaignError::not_allowed(format!(
                "battle {} is not fought on a board: its roster is not kept",
                index + 1
            )));
        };
        let board = self
            .board(index)
            .ok_or_else(|| CampaignError::not_allowed("the battle has no board"))?;
        if board.outcome.is_none() {
            return Err(CampaignError::not_allowed(format!(
                "battle {} is not over yet: finish it (or record its result) first",
                plan.number
            )));
        }
        let engine = table::engine(plan.ruleset)?;
        let number = self.next_number();
        let name = if name.trim().is_empty() {
            format!("Battle {number}")
        } else {
            name.to_string()
        };
        roster::next_plan(
            &engine,
            plan,
            &board,
            number,
            &name,
            promote_after,
            reinforcements,
            self.campaign.budgets.as_ref(),
        )
    }

    fn next_number(&self) -> u32 {
        self.campaign
            .battles
            .iter()
            .map(|plan| plan.number())
            .max()
            .unwrap_or(0)
            + 1
    }
}
