//! Campaigns: the Lorraine 1944 campaign of Armour Battles, fought battle by battle with a
//! tracker, and simple campaigns (a series of recorded battles) for the other rulesets.
//!
//! Pure like `rules/`: a campaign is a fixed [`Campaign`] definition plus one append-only
//! event log per battle; every state shown anywhere is a fold of those logs. `store/`
//! persists them, `ui/` and `cli/` record new events through [`tracker`].

pub mod definition;
pub mod describe;
pub mod error;
pub mod event;
pub mod file;
pub mod log;
pub mod result;
pub mod script;
pub mod state;
pub mod tracker;
pub mod verify;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

pub use definition::{
    ArmourBattlePlan, BattlePlan, Campaign, LorraineOptions, Sides, SimpleBattlePlan, new_lorraine,
    new_simple, what_next,
};
pub use error::CampaignError;
pub use event::{Category, Event};
pub use result::{BattleResult, CampaignResult};
pub use state::BattleState;

use crate::rules::armour_battles::Side;

/// One recorded event with its place in the battle's log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoggedEvent {
    /// 1, 2, 3 … within the battle.
    pub seq: u32,
    /// When it was recorded, UTC, ISO 8601.
    pub recorded_at: String,
    pub event: Event,
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

    /// The tracker state (Armour Battles battles only), with losses of earlier battles
    /// applied when the campaign carries them.
    pub fn state(&self, carried: &Sides<Vec<String>>) -> Option<BattleState> {
        match self.plan {
            BattlePlan::Armour(plan) => Some(BattleState::fold_with(plan, carried, self.pairs())),
            BattlePlan::Simple(_) => None,
        }
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
        !self.events.is_empty()
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignRecord {
    pub campaign: Campaign,
    /// One log per battle of `campaign.battles`, same order.
    pub logs: Vec<Vec<LoggedEvent>>,
}

impl CampaignRecord {
    pub fn new(campaign: Campaign) -> Self {
        let logs = vec![Vec::new(); campaign.battles.len()];
        Self { campaign, logs }
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

    /// Card names dispersed in the battles before `index`, per side, when the campaign
    /// carries losses forward (empty otherwise).
    pub fn carried_losses(&self, index: usize) -> Sides<Vec<String>> {
        let mut lost: Sides<Vec<String>> = Sides::default();
        if !self.campaign.options.carry_losses {
            return lost;
        }
        for battle in self.battles().take(index) {
            if let Some(state) = battle.state(&Sides::default()) {
                for side in definition::SIDES {
                    lost.get_mut(side)
                        .extend(state.losses(side).map(|u| u.card.clone()));
                }
            }
        }
        lost
    }

    /// The tracker state of battle `index`.
    pub fn state(&self, index: usize) -> Option<BattleState> {
        self.battle(index)?.state(&self.carried_losses(index))
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
        result::campaign_result(&self.results())
    }

    /// Adds the book's "What next?" battle after the others.
    ///
    /// # Errors
    /// Not a Lorraine campaign, or the briefings failed to load.
    pub fn add_what_next(&mut self, extra_artillery: bool) -> Result<u32, CampaignError> {
        if self.campaign.ruleset != crate::rules::RulesetId::ArmourBattles {
            return Err(CampaignError::not_allowed(
                "the \"What next?\" battle belongs to the Lorraine campaign",
            ));
        }
        let number = self.next_number();
        self.campaign
            .battles
            .push(BattlePlan::Armour(what_next(number, extra_artillery)?));
        self.logs.push(Vec::new());
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
        if self.campaign.ruleset == crate::rules::RulesetId::ArmourBattles {
            return Err(CampaignError::not_allowed(
                "Lorraine battles come from the briefings; add the \"What next?\" battle instead",
            ));
        }
        if name.trim().is_empty() {
            return Err(CampaignError::Invalid {
                field: "battle.name",
                message: "must not be empty".to_string(),
            });
        }
        let number = self.next_number();
        self.campaign
            .battles
            .push(BattlePlan::Simple(SimpleBattlePlan {
                number,
                name: name.trim().to_string(),
                forces,
                units,
            }));
        self.logs.push(Vec::new());
        Ok(number)
    }

    fn next_number(&self) -> u32 {
        self.campaign
            .battles
            .iter()
            .map(BattlePlan::number)
            .max()
            .unwrap_or(0)
            + 1
    }
}

/// The label of a side in a campaign: "US (Alice)".
pub fn side_label(campaign: &Campaign, side: Side) -> String {
    let player = campaign.players.get(side).trim();
    let name = if campaign.ruleset == crate::rules::RulesetId::ArmourBattles {
        side.label().to_string()
    } else {
        match side {
            Side::Us => "First player".to_string(),
            Side::German => "Second player".to_string(),
        }
    };
    if player.is_empty() {
        name
    } else if campaign.ruleset == crate::rules::RulesetId::ArmourBattles {
        format!("{name} ({player})")
    } else {
        player.to_string()
    }
}
