//! What a campaign is before anything happens: its name, players, options and the plan of
//! each battle (who fields what, with which dice). The plan never changes once the campaign
//! is created; everything that happens is an event (see [`super::event`]).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::error::CampaignError;
use super::legacy::LegacyPlan;
use crate::rules::RulesetId;

pub use crate::rules::battle::board::{Opening, TablePlan, TableUnit};
pub use crate::rules::battle::{SIDES, Sides, opponent};

/// Choices made when the campaign is created.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignOptions {
    /// Units dispersed in one battle of a scripted campaign are missing from the later ones
    /// (RULINGS: off).
    #[serde(default)]
    pub carry_losses: bool,
}

/// The options of a Lorraine campaign, as the first campaigns called them.
pub type LorraineOptions = CampaignOptions;

/// A campaign: the players' names, the ruleset and the battles in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Campaign {
    pub name: String,
    pub ruleset: RulesetId,
    /// The scripted campaign its battles come from ([`super::scripted`]: `lorraine`), if one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// Who plays each side: the first and second player (in Lorraine, the US and the Germans).
    pub players: Sides<String>,
    #[serde(default)]
    pub options: CampaignOptions,
    /// Shared, not copied, when the campaign is: a record is copied for every merge and kept
    /// by the window, and at 98 battles the plans (each with its units' whole cards) were most
    /// of what a sync copied and dropped.
    pub battles: Vec<std::sync::Arc<BattlePlan>>,
    /// A campaign between two forces: each force's budget, which its roster (replacements
    /// included) stays within between battles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budgets: Option<Sides<crate::rules::force::Budget>>,
}

/// What kind of campaign it is, which decides how its battles are set up. Derived from the
/// campaign in one place ([`Campaign::kind`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CampaignKind {
    /// Its battles come from a scripted campaign's data file (the Lorraine 1944 briefings, and
    /// their "What next?"), fought turn by turn on the board.
    Scripted,
    /// A series of battles between saved forces, each fought on the board or recorded as its
    /// result and what became of each unit.
    Simple,
}

impl Campaign {
    pub fn kind(&self) -> CampaignKind {
        let briefed = self
            .battles
            .iter()
            .any(|b| matches!(**b, BattlePlan::Armour(_)));
        if self.scenario.is_some() || briefed {
            CampaignKind::Scripted
        } else {
            CampaignKind::Simple
        }
    }

    /// The scripted campaign its battles come from: the one it names, or for a campaign of
    /// the first Lorraine tracker (which named none), Lorraine's.
    pub fn script(&self) -> Option<&'static super::scripted::ScriptedCampaign> {
        match (&self.scenario, self.kind()) {
            (Some(id), _) => super::scripted::find(id),
            (None, CampaignKind::Scripted) => super::scripted::find(super::legacy::SCENARIO),
            (None, CampaignKind::Simple) => None,
        }
    }
}

/// One battle as planned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum BattlePlan {
    /// A battle of the first Lorraine tracker, as its campaign files hold it: played on as the
    /// board plan its briefing gives ([`super::legacy`]).
    Armour(LegacyPlan),
    /// Two saved forces; winner, notes and each unit's fate are recorded.
    Simple(SimpleBattlePlan),
    /// A battle fought turn by turn on a board: the two forces' units with their cards and
    /// what they bring from earlier battles.
    Table(TablePlan),
    /// A scripted campaign's battle, fought on a board: its units and the opening its briefing
    /// gives (each side's dice and Army Morale, the first-pulse rule, when and where).
    Scripted(ScriptedPlan),
}

/// A scripted campaign's battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedPlan {
    pub board: TablePlan,
    pub opening: Opening,
}

/// What a battle fought on a board is played under: its plan, and the opening a briefing gives
/// it where it has one.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardSetup<'a> {
    pub plan: Cow<'a, TablePlan>,
    pub opening: Option<Cow<'a, Opening>>,
}

impl BattlePlan {
    pub fn number(&self) -> u32 {
        match self {
            BattlePlan::Armour(plan) => plan.number,
            BattlePlan::Simple(plan) => plan.number,
            BattlePlan::Table(plan) => plan.number,
            BattlePlan::Scripted(plan) => plan.board.number,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            BattlePlan::Armour(plan) => &plan.name,
            BattlePlan::Simple(plan) => &plan.name,
            BattlePlan::Table(plan) => &plan.name,
            BattlePlan::Scripted(plan) => &plan.board.name,
        }
    }

    /// "Battle 2: Attack/Defend" (see [`battle_title`]).
    pub fn title(&self) -> String {
        battle_title(self.number(), self.name())
    }

    /// The board this battle is fought on, for every battle but a simple one (a plan of the
    /// first Lorraine tracker read as the board plan it stands for).
    pub fn board_setup(&self) -> Option<BoardSetup<'_>> {
        match self {
            BattlePlan::Table(plan) => Some(BoardSetup {
                plan: Cow::Borrowed(plan),
                opening: None,
            }),
            BattlePlan::Scripted(plan) => Some(BoardSetup {
                plan: Cow::Borrowed(&plan.board),
                opening: Some(Cow::Borrowed(&plan.opening)),
            }),
            BattlePlan::Armour(plan) => {
                let (plan, opening) = super::legacy::board_plan(plan).ok()?;
                Some(BoardSetup {
                    plan: Cow::Owned(plan),
                    opening: Some(Cow::Owned(opening)),
                })
            }
            BattlePlan::Simple(_) => None,
        }
    }

    /// The opening words of its briefing, where it has one.
    pub fn opening(&self) -> Option<Cow<'_, Opening>> {
        self.board_setup().and_then(|s| s.opening)
    }
}

/// A battle of a simple campaign: two saved forces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimpleBattlePlan {
    pub number: u32,
    pub name: String,
    /// The saved forces' names, as `us` = first player and `german` = second player.
    pub forces: Sides<String>,
    /// The unit names of each force, as saved when the battle was added.
    pub units: Sides<Vec<String>>,
}

/// A new campaign of the scripted campaign `script`, with the battles its file lists.
///
/// # Errors
/// [`CampaignError::Invalid`] for an empty name; the script's own refusal when its data does
/// not make a battle (a card the ruleset lacks).
pub fn new_scripted(
    name: &str,
    script: &super::scripted::ScriptedCampaign,
    players: Sides<String>,
    options: CampaignOptions,
) -> Result<Campaign, CampaignError> {
    let name = checked_name(name)?;
    let battles = (1..=script.battles.len())
        .map(|n| {
            script
                .battle(u32::try_from(n).unwrap_or(u32::MAX))
                .map(std::sync::Arc::new)
        })
        .collect::<Result<_, _>>()?;
    Ok(Campaign {
        name,
        ruleset: script.ruleset,
        scenario: Some(script.id.clone()),
        players,
        options,
        battles,
        budgets: None,
    })
}

/// A new Lorraine 1944 campaign with its three battles.
///
/// # Errors
/// As [`new_scripted`]; the Lorraine data file missing.
pub fn new_lorraine(
    name: &str,
    players: Sides<String>,
    options: CampaignOptions,
) -> Result<Campaign, CampaignError> {
    let script = super::scripted::find(super::legacy::SCENARIO)
        .ok_or_else(|| CampaignError::not_allowed("the Lorraine campaign's data is missing"))?;
    new_scripted(name, script, players, options)
}

/// A simple campaign (any ruleset): battles are added later between saved forces.
///
/// # Errors
/// [`CampaignError::Invalid`] for an empty name.
pub fn new_simple(
    name: &str,
    ruleset: RulesetId,
    players: Sides<String>,
) -> Result<Campaign, CampaignError> {
    Ok(Campaign {
        name: checked_name(name)?,
        ruleset,
        scenario: None,
        players,
        options: CampaignOptions::default(),
        battles: Vec::new(),
        budgets: None,
    })
}

/// A campaign between two forces, its first battle `first` (later ones come from its roster).
///
/// # Errors
/// [`CampaignError::Invalid`] for an empty name.
pub fn new_table(
    name: &str,
    players: Sides<String>,
    mut first: TablePlan,
    budgets: Option<Sides<crate::rules::force::Budget>>,
) -> Result<Campaign, CampaignError> {
    first.number = 1;
    if first.name.trim().is_empty() {
        first.name = "Battle 1".to_string();
    }
    Ok(Campaign {
        name: checked_name(name)?,
        ruleset: first.ruleset,
        scenario: None,
        players,
        options: CampaignOptions::default(),
        battles: vec![BattlePlan::Table(first).into()],
        budgets,
    })
}

/// A name the player typed: refused in their words ("the campaign name is 250 characters
/// long; at most 200 are allowed"), not a file's field path.
fn checked_name(name: &str) -> Result<String, CampaignError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(CampaignError::not_allowed(
            "the campaign needs a name: type one in Name",
        ));
    }
    super::text::name(name)
        .map_err(|message| CampaignError::not_allowed(format!("the campaign name {message}")))?;
    Ok(name.to_string())
}

/// "Battle 2: Attack/Defend", or "Battle 1" for a battle named after its number or not named
/// ("Battle 1: Battle 1" said the number twice): how every view heads a battle.
pub fn battle_title(number: u32, name: &str) -> String {
    let name = name.trim();
    if name.is_empty() || name.eq_ignore_ascii_case(&format!("Battle {number}")) {
        format!("Battle {number}")
    } else {
        format!("Battle {number}: {name}")
    }
}

#[cfg(test)]
mod tests {
    use super::battle_title;

    /// A battle named after its number says the number once; a named one says both.
    #[test]
    fn a_battle_named_after_its_number_is_headed_once() {
        assert_eq!(battle_title(1, "Battle 1"), "Battle 1");
        assert_eq!(battle_title(2, " battle 2 "), "Battle 2");
        assert_eq!(battle_title(3, ""), "Battle 3");
        assert_eq!(battle_title(2, "Attack/Defend"), "Battle 2: Attack/Defend");
        assert_eq!(battle_title(1, "Battle 2"), "Battle 1: Battle 2");
    }
}
