//! The campaign half of the model: the campaign list, the open campaign and recording its
//! events. Every event is on disk before the view sees it (the store commits each one).

use std::path::PathBuf;

use anyhow::{Context, anyhow, bail};

use super::Model;
use crate::campaign::{self, CampaignRecord, Event, LorraineOptions, Sides, file};
use crate::rules::RulesetId;
use crate::store::{CampaignId, CampaignSummary, StoreError, StoredCampaign};

/// The campaign on screen and which battle is shown.
#[derive(Debug, Clone)]
pub struct OpenCampaign {
    pub stored: StoredCampaign,
    pub battle: usize,
    /// The folder the campaign is shared to, if any (read on open and on Sync).
    pub shared: Option<PathBuf>,
}

impl OpenCampaign {
    pub fn record(&self) -> &CampaignRecord {
        &self.stored.record
    }

    pub fn battle(&self) -> Option<campaign::Battle<'_>> {
        self.stored.record.battle(self.battle)
    }
}

/// Everything that changes campaigns.
#[derive(Debug, Clone, PartialEq)]
pub enum CampaignCommand {
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
    Redo,
    AddWhatNext {
        extra_artillery: bool,
    },
    /// A battle between two saved forces (simple campaigns).
    AddBattle {
        name: String,
        forces: Sides<String>,
    },
    Delete(CampaignId),
    Export(PathBuf),
    Import(PathBuf),
    /// Share the open campaign to a folder a file sync carries between machines.
    Share(PathBuf),
    /// Read the shared folder's files and merge them; write this machine's.
    Sync,
    /// Settle a fork of the shown battle: keep the branch starting with this event.
    ChooseBranch(crate::campaign::EventUid),
    /// This machine's player name (`None`: not now; the window does not ask again).
    SetPlayer(Option<String>),
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

    pub(super) fn apply_campaign(&mut self, command: CampaignCommand) -> anyhow::Result<()> {
        match command {
            CampaignCommand::New {
                ruleset,
                name,
                players,
                carry_losses,
            } => {
                let created = if ruleset == RulesetId::ArmourBattles {
                    campaign::new_lorraine(&name, players, LorraineOptions { carry_losses })?
                } else {
                    campaign::new_simple(&name, ruleset, players)?
                };
                let stored = self.store.create_campaign_record(&CampaignRecord::new(
                    crate::store::new_campaign_uid(),
                    created,
                ))?;
                self.info(format!("Started campaign {}", stored.record.campaign.name));
                self.campaign = Some(OpenCampaign {
                    stored,
                    battle: 0,
                    shared: None,
                });
                self.refresh_campaigns();
            }
            CampaignCommand::Open(id) => {
                let stored = self
                    .store
                    .load_campaign(id)
                    .map_err(|e| self.unreadable_campaign(e))?;
                // Open at the first battle not yet finished.
                let battle = stored
                    .record
                    .results()
                    .iter()
                    .position(|r| !r.standing.is_finished())
                    .unwrap_or(0);
                let shared = crate::sync::shared_folder(&self.store, &stored.record)?;
                self.campaign = Some(OpenCampaign {
                    stored,
                    battle,
                    shared: shared.clone(),
                });
                // What the other machines recorded since, on open (a folder that is not there
                // now — an unplugged stick — is said, not fatal).
                if let Some(folder) = shared {
                    self.sync_open(&folder);
                }
            }
            CampaignCommand::Share(folder) => {
                let id = self.open_id()?;
                let report = crate::sync::share(&mut self.store, id, &folder)?;
                self.after_sync(id, &report, None)?;
            }
            CampaignCommand::Sync => {
                let open = self
                    .campaign
                    .as_ref()
                    .ok_or_else(|| anyhow!("no campaign is open"))?;
                let folder = open
                    .shared
                    .clone()
                    .ok_or_else(|| anyhow!("this campaign is not shared to a folder yet"))?;
                let id = open.stored.id;
                let (report, merged) =
                    crate::sync::sync_loaded(&mut self.store, &open.stored, &folder)?;
                self.after_sync(id, &report, merged)?;
            }
            CampaignCommand::ChooseBranch(keep) => {
                let open = self
                    .campaign
                    .as_ref()
                    .ok_or_else(|| anyhow!("no campaign is open"))?;
                let (_, event) = open.stored.record.choice(open.battle, keep)?;
                self.record(&event)?;
                self.info("Branch chosen: the other one is set aside (it stays in the log)");
            }
            CampaignCommand::SetPlayer(name) => {
                match name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
                    Some(name) => {
                        crate::campaign::verify::name(name)
                            .map_err(|m| anyhow!("player name: {m}"))?;
                        self.store.set_setting(crate::store::SETTING_PLAYER, name)?;
                        self.info(format!("Events you record are marked \"{name}\""));
                    }
                    None => self.store.set_setting(SETTING_PLAYER_ASKED, "1")?,
                }
                self.load_player();
            }
            CampaignCommand::Close => self.campaign = None,
            CampaignCommand::SelectBattle(index) => {
                if let Some(open) = &mut self.campaign
                    && index < open.stored.record.campaign.battles.len()
                {
                    open.battle = index;
                }
            }
            CampaignCommand::Record(event) => self.record(&event)?,
            CampaignCommand::Undo => {
                let event = self.open_battle()?.undo()?;
                self.record(&event)?;
            }
            CampaignCommand::Redo => {
                let event = self.open_battle()?.redo()?;
                self.record(&event)?;
            }
            CampaignCommand::AddWhatNext { extra_artillery } => {
                let open = self
                    .campaign
                    .as_mut()
                    .ok_or_else(|| anyhow!("no campaign is open"))?;
                let mut record = open.stored.record.clone();
                let number = record.add_what_next(extra_artillery)?;
                let battle = self
                    .store
                    .add_campaign_battle(open.stored.id, &record.campaign)?;
                open.stored.record = record;
                open.stored.battle_ids.push(battle);
                open.battle = open.stored.record.campaign.battles.len() - 1;
                self.info(format!("Added battle {number}: What Next?"));
                self.refresh_campaigns();
            }
            CampaignCommand::AddBattle { name, forces } => {
                let units = Sides {
                    us: self.force_units(&forces.us)?,
                    german: self.force_units(&forces.german)?,
                };
                let open = self
                    .campaign
                    .as_mut()
                    .ok_or_else(|| anyhow!("no campaign is open"))?;
                let mut record = open.stored.record.clone();
                record.add_simple_battle(&name, forces, units)?;
                let battle = self
                    .store
                    .add_campaign_battle(open.stored.id, &record.campaign)?;
                open.stored.record = record;
                open.stored.battle_ids.push(battle);
                open.battle = open.stored.record.campaign.battles.len() - 1;
                self.refresh_campaigns();
            }
            CampaignCommand::Delete(id) => {
                self.store.delete_campaign(id)?;
                if self.campaign.as_ref().is_some_and(|c| c.stored.id == id) {
                    self.campaign = None;
                }
                self.refresh_campaigns();
                self.info("Campaign deleted");
            }
            CampaignCommand::Export(path) => {
                let open = self
                    .campaign
                    .as_ref()
                    .ok_or_else(|| anyhow!("no campaign is open"))?;
                let record = &open.stored.record;
                let bytes = match path.extension().and_then(|e| e.to_str()) {
                    Some(ext) if ext.eq_ignore_ascii_case("pdf") => after_action_pdf(record)?,
                    _ => file::to_json(record)?.into_bytes(),
                };
                std::fs::write(&path, bytes)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                self.info(format!(
                    "Exported {} to {}",
                    record.campaign.name,
                    path.display()
                ));
            }
            CampaignCommand::Import(path) => {
                let text = std::fs::read_to_string(&path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                let mut record =
                    file::parse(&text).with_context(|| format!("{}", path.display()))?;
                if self.store.find_campaign_by_uid(record.id)?.is_some() {
                    // Already here: the window's import makes a separate copy ("Sync" merges).
                    record = record.as_copy(crate::store::new_campaign_uid());
                }
                let base = record.campaign.name.clone();
                let mut n = 2;
                while self.store.find_campaign(&record.campaign.name)?.is_some() {
                    record.campaign.name = format!("{base} ({n})");
                    n += 1;
                }
                let stored = self.store.create_campaign_record(&record)?;
                self.info(format!("Imported campaign {}", stored.record.campaign.name));
                self.campaign = Some(OpenCampaign {
                    stored,
                    battle: 0,
                    shared: None,
                });
                self.refresh_campaigns();
            }
        }
        Ok(())
    }

    fn open_id(&self) -> anyhow::Result<CampaignId> {
        self.campaign
            .as_ref()
            .map(|c| c.stored.id)
            .ok_or_else(|| anyhow!("no campaign is open"))
    }

    /// Syncs the campaign just opened with its folder, saying what happened.
    fn sync_open(&mut self, folder: &std::path::Path) {
        let Some(open) = &self.campaign else { return };
        let id = open.stored.id;
        // The campaign was just loaded: the sync reads only the folder, not the library again.
        match crate::sync::sync_loaded(&mut self.store, &open.stored, folder) {
            Ok((report, merged)) => {
                if let Err(e) = self.after_sync(id, &report, merged) {
                    self.error(format!("{e:#}"));
                }
            }
            Err(e) => self.error(format!(
                "could not read the shared folder {}: {e} (the campaign is as this machine last had it)",
                folder.display()
            )),
        }
    }

    /// Reloads the open campaign after a sync and tells the user what came in and what was
    /// skipped.
    fn after_sync(
        &mut self,
        id: CampaignId,
        report: &crate::sync::SyncReport,
        merged: Option<crate::campaign::CampaignRecord>,
    ) -> anyhow::Result<()> {
        let quiet = report.added == 0 && report.battles_added == 0;
        let open = self.campaign.as_ref().filter(|o| o.stored.id == id);
        // Nothing new and already known as shared: what is on screen is the library's (an
        // open with nothing to read reloads nothing).
        let mut reload = open.is_some_and(|o| !quiet || o.shared.is_none());
        // New events in the battles already here: the merged record is what the library now
        // holds, so it is shown without reading it back. New battles have new row ids: read.
        if let (Some(merged), 0, Some(open)) = (merged, report.battles_added, &mut self.campaign)
            && open.stored.id == id
            && open.shared.is_some()
        {
            open.stored.record = merged;
            reload = false;
        }
        if reload {
            let stored = self.store.load_campaign(id)?;
            let shared = crate::sync::shared_folder(&self.store, &stored.record)?;
            if let Some(open) = &mut self.campaign {
                open.stored = stored;
                open.shared = shared;
                open.battle = open
                    .battle
                    .min(open.stored.record.campaign.battles.len().saturating_sub(1));
            }
        }
        if quiet && report.skipped().count() == 0 && report.wrote.is_none() && !reload {
            return Ok(());
        }
        let skipped: Vec<String> = report
            .skipped()
            .map(|f| format!("{}: {}", f.file, f.note))
            .collect();
        let text = format!("Sync: {}", report.summary());
        if skipped.is_empty() {
            self.info(text);
        } else {
            self.error(format!("{text}\n{}", skipped.join("\n")));
        }
        self.refresh_campaigns();
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
            Ok(logged) => open.stored.record.add(open.battle, logged)?,
            Err(changed @ StoreError::BattleChanged { .. }) => {
                // Another running copy recorded first: show its table, never a mixed log.
                open.stored = self.store.load_campaign(open.stored.id)?;
                self.refresh_campaigns();
                return Err(changed.into());
            }
            Err(other) => return Err(other.into()),
        }
        self.refresh_campaigns();
        Ok(())
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

/// Set once the window has asked for the player name and been told "not now".
const SETTING_PLAYER_ASKED: &str = "player.asked";

fn after_action_pdf(record: &CampaignRecord) -> anyhow::Result<Vec<u8>> {
    let date = crate::export::ExportDate::today_utc()
        .ok_or_else(|| anyhow!("the system clock is wrong"))?;
    crate::export::export_after_action(record, "a4", date, &mut crate::export::no_progress)
        .context("could not lay out the after-action report")
}
