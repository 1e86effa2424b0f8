//! Scripted campaigns: a series of battles a book's briefings give — who fields which units in
//! which companies, each side's dice and morale, what is held in reserve or hidden, how the
//! battle is won — as a data file in `templates/campaigns/`, the format `docs/scripted-
//! campaigns.md` describes. A campaign of one ([`super::definition::new_scripted`]) is its
//! battles as board plans with their openings ([`super::definition::ScriptedPlan`]), fought on
//! the ruleset's board engine like any other; its follow-up battle ("What next?") is added
//! when the players want it.
//!
//! Nothing here names a ruleset: the Lorraine 1944 campaign of Armour Battles is one such
//! file, and another ruleset's scripted campaign is another file in [`FILES`] (a test walks
//! the folder, so a file left out is caught).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use serde::Deserialize;

use super::definition::{BattlePlan, Opening, ScriptedPlan, TablePlan, TableUnit};
use super::error::CampaignError;
use crate::rules::RulesetId;
use crate::rules::battle::board::numbered_label;
use crate::rules::battle::{SIDES, Side, Sides};
use crate::rules::registry::{Embedded, embedded};

/// Every scripted campaign's file.
pub const FILES: &[Embedded] = &[embedded!("templates/campaigns/lorraine.json")];

/// What a scripted campaign's file says it is.
pub const FORMAT: &str = "quartermaster-scripted-campaign";

/// A scripted campaign as its file gives it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedCampaign {
    pub format: String,
    pub version: u32,
    /// How `campaign new` names it (`lorraine`).
    pub id: String,
    pub ruleset: RulesetId,
    pub title: String,
    pub summary: String,
    /// Each side's name ("US", "German"); a unit's id starts with it in lower case (`us-3`).
    pub sides: Sides<String>,
    pub battles: Vec<ScriptedBattle>,
    /// The battle the players may add after the last ("What next?").
    #[serde(default)]
    pub follow_up: Option<FollowUp>,
}

/// One battle's briefing.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedBattle {
    pub name: String,
    pub time: String,
    pub place: String,
    pub victory: String,
    /// The battle's own counters at the start (the ruleset's names).
    #[serde(default)]
    pub counters: BTreeMap<String, i64>,
    pub sides: Sides<ScriptedSide>,
}

/// One side of a briefing: its counters and its companies.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedSide {
    #[serde(default)]
    pub counters: BTreeMap<String, i64>,
    pub groups: Vec<ScriptedGroup>,
}

/// A company: its units by card name, and the counters and marks each starts with (held in
/// reserve until a turn, hidden).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedGroup {
    pub name: String,
    pub units: Vec<String>,
    #[serde(default)]
    pub counters: BTreeMap<String, i64>,
    #[serde(default)]
    pub marks: BTreeSet<String>,
}

/// The battle after the last: one of the briefings again, as the players deploy.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FollowUp {
    /// The briefing it takes its forces from (1, 2, 3 …).
    pub from: u32,
    pub name: String,
    pub time: String,
    /// Counters and marks a unit leaves behind when the players deploy it as they choose.
    #[serde(default)]
    pub free_deployment: Vec<String>,
    #[serde(default)]
    pub variants: Vec<Variant>,
}

/// A way to play the follow-up battle ("extra artillery"): units added, counters raised.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    pub key: String,
    pub name: String,
    pub help: String,
    pub sides: Sides<VariantSide>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantSide {
    /// Units added to a company, after the side's others.
    #[serde(default)]
    pub add: Vec<Added>,
    /// Added to the side's counters.
    #[serde(default)]
    pub counters: BTreeMap<String, i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Added {
    pub group: String,
    pub card: String,
    #[serde(default = "one")]
    pub count: u32,
}

fn one() -> u32 {
    1
}

static SCRIPTED: LazyLock<Vec<Result<ScriptedCampaign, String>>> =
    LazyLock::new(|| FILES.iter().map(read).collect());

/// A file read and checked: its format, and that every battle it gives can be set up.
fn read(file: &Embedded) -> Result<ScriptedCampaign, String> {
    let campaign: ScriptedCampaign =
        crate::rules::registry::parse_embedded(*file).map_err(|e| e.to_string())?;
    if campaign.format != FORMAT {
        return Err(format!(
            "{}: format {:?}, not {FORMAT:?}",
            file.path, campaign.format
        ));
    }
    for number in 1..=campaign.battles.len() + usize::from(campaign.follow_up.is_some()) {
        let number = u32::try_from(number).unwrap_or(u32::MAX);
        campaign
            .expected(number)
            .map_err(|e| format!("{}: battle {number}: {e}", file.path))?;
    }
    Ok(campaign)
}

/// Every scripted campaign this build carries, in file order (a file that fails to read is
/// left out; [`problems`] says why).
pub fn all() -> impl Iterator<Item = &'static ScriptedCampaign> {
    SCRIPTED.iter().filter_map(|c| c.as_ref().ok())
}

/// Why a scripted campaign's file could not be read, for each that could not.
pub fn problems() -> Vec<&'static str> {
    SCRIPTED
        .iter()
        .filter_map(|c| c.as_ref().err().map(String::as_str))
        .collect()
}

/// The scripted campaign named `id` (any case).
pub fn find(id: &str) -> Option<&'static ScriptedCampaign> {
    all().find(|c| c.id.eq_ignore_ascii_case(id.trim()))
}

/// The scripted campaigns of `ruleset`.
pub fn of_ruleset(ruleset: RulesetId) -> impl Iterator<Item = &'static ScriptedCampaign> {
    all().filter(move |c| c.ruleset == ruleset)
}

impl ScriptedCampaign {
    /// A side's name in the campaign ("US").
    pub fn side_name(&self, side: Side) -> &str {
        self.sides.get(side)
    }

    /// How files and ids spell a side (`us`, `german`).
    pub fn side_key(&self, side: Side) -> String {
        key_of(self.sides.get(side))
    }

    /// Battle `number` (1, 2, 3 …) as its briefing gives it.
    ///
    /// # Errors
    /// No such battle, or a card the ruleset does not have.
    pub fn battle(&self, number: u32) -> Result<BattlePlan, CampaignError> {
        let index = usize::try_from(number).ok().and_then(|n| n.checked_sub(1));
        let briefing = index.and_then(|i| self.battles.get(i)).ok_or_else(|| {
            CampaignError::not_allowed(format!(
                "{} has battles 1 to {}",
                self.title,
                self.battles.len()
            ))
        })?;
        self.plan_of(number, briefing, None)
    }

    /// The follow-up battle as battle `number`, played as `variant` (its key) or plainly.
    ///
    /// # Errors
    /// The campaign has no follow-up, or no such variant; its briefing does not set up.
    pub fn follow_up(
        &self,
        number: u32,
        variant: Option<&str>,
    ) -> Result<BattlePlan, CampaignError> {
        let follow = self.follow_up.as_ref().ok_or_else(|| {
            CampaignError::not_allowed(format!("{} has no battle after its last", self.title))
        })?;
        let variant =
            match variant {
                None => None,
                Some(key) => Some(follow.variants.iter().find(|v| v.key == key).ok_or_else(
                    || {
                        let keys: Vec<&str> =
                            follow.variants.iter().map(|v| v.key.as_str()).collect();
                        CampaignError::not_allowed(format!(
                            "{} has no way '{key}' to play its next battle (ways: {})",
                            self.title,
                            keys.join(", ")
                        ))
                    },
                )?),
            };
        let from = usize::try_from(follow.from)
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| self.battles.get(i))
            .ok_or_else(|| CampaignError::MissingData(format!("battle {}", follow.from)))?;
        let mut briefing = from.clone();
        briefing.name = variant.map_or(&follow.name, |v| &v.name).clone();
        briefing.time = follow.time.clone();
        for side in SIDES {
            for group in &mut briefing.sides.get_mut(side).groups {
                group
                    .counters
                    .retain(|k, _| !follow.free_deployment.contains(k));
                group.marks.retain(|m| !follow.free_deployment.contains(m));
            }
        }
        self.plan_of(number, &briefing, variant)
    }

    /// Every plan battle `number` of a campaign of this script may have: its briefing, or past
    /// the last, the follow-up battle in each of its variants.
    ///
    /// # Errors
    /// As [`Self::battle`].
    pub fn expected(&self, number: u32) -> Result<Vec<BattlePlan>, CampaignError> {
        if usize::try_from(number).is_ok_and(|n| n <= self.battles.len()) {
            return Ok(vec![self.battle(number)?]);
        }
        let mut plans = vec![self.follow_up(number, None)?];
        if let Some(follow) = &self.follow_up {
            for variant in &follow.variants {
                plans.push(self.follow_up(number, Some(&variant.key))?);
            }
        }
        Ok(plans)
    }

    fn plan_of(
        &self,
        number: u32,
        briefing: &ScriptedBattle,
        variant: Option<&Variant>,
    ) -> Result<BattlePlan, CampaignError> {
        let mut units: Sides<Vec<TableUnit>> = Sides::default();
        let mut opening = Opening {
            time: briefing.time.clone(),
            place: briefing.place.clone(),
            victory: briefing.victory.clone(),
            counters: briefing.counters.clone(),
            ..Opening::default()
        };
        for side in SIDES {
            let plan = briefing.sides.get(side);
            let added = variant.map(|v| v.sides.get(side));
            let mut entries: Vec<(&ScriptedGroup, &str)> = plan
                .groups
                .iter()
                .flat_map(|g| g.units.iter().map(move |card| (g, card.as_str())))
                .collect();
            for add in added.map_or(&[][..], |a| a.add.as_slice()) {
                let group = plan
                    .groups
                    .iter()
                    .find(|g| g.name == add.group)
                    .ok_or_else(|| CampaignError::MissingData(format!("company {}", add.group)))?;
                for _ in 0..add.count {
                    entries.push((group, add.card.as_str()));
                }
            }
            *units.get_mut(side) = self.units(side, &entries)?;
            let mut counters = plan.counters.clone();
            for (key, by) in added.map_or(&BTreeMap::new(), |a| &a.counters) {
                *counters.entry(key.clone()).or_default() += by;
            }
            *opening.sides.get_mut(side) = counters;
        }
        Ok(BattlePlan::Scripted(ScriptedPlan {
            board: TablePlan {
                ruleset: self.ruleset,
                number,
                name: briefing.name.clone(),
                forces: Sides {
                    first: self.sides.first.clone(),
                    second: self.sides.second.clone(),
                },
                units,
            },
            opening,
        }))
    }

    /// A side's units, numbered `us-1`, `us-2` … in order, each copy of a card within its
    /// company numbered in its label as the printed cards number them.
    fn units(
        &self,
        side: Side,
        entries: &[(&ScriptedGroup, &str)],
    ) -> Result<Vec<TableUnit>, CampaignError> {
        let key = self.side_key(side);
        let ids: Vec<String> = (1..=entries.len()).map(|n| format!("{key}-{n}")).collect();
        let library = crate::rules::ruleset(self.ruleset).library();
        entries
            .iter()
            .zip(&ids)
            .map(|((group, card), id)| {
                let card = library.iter().find(|c| c.name() == *card).ok_or_else(|| {
                    CampaignError::Invalid {
                        field: "scripted.card",
                        message: format!("{} has no card {card}", self.ruleset.title()),
                    }
                })?;
                let alike: Vec<&str> = entries
                    .iter()
                    .zip(&ids)
                    .filter(|((g, c), _)| g.name == group.name && *c == card.name())
                    .map(|(_, id)| id.as_str())
                    .collect();
                Ok(TableUnit {
                    id: id.clone(),
                    label: numbered_label(card.name(), &group.name, &alike, id),
                    card: card.clone(),
                    counters: group.counters.clone(),
                    marks: group.marks.clone(),
                })
            })
            .collect()
    }
}

/// "us" for "US", "first_player" for "First player": how a file spells a side's name.
pub fn key_of(name: &str) -> String {
    name.trim()
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '_' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every scripted campaign the build carries reads (a file that does not is left out of
    /// every list, so nothing else would say it went missing).
    #[test]
    fn every_embedded_scripted_campaign_reads() {
        assert_eq!(problems(), Vec::<&str>::new());
        assert_eq!(all().count(), FILES.len());
        assert!(find("lorraine").is_some());
    }
}
