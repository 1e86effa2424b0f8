//! What a campaign is before anything happens: its name, players, options and the plan of
//! each battle (who fields what, with which dice). The plan never changes once the campaign
//! is created; everything that happens is an event (see [`super::event`]).

use serde::{Deserialize, Serialize};

use super::error::CampaignError;
use crate::rules::RulesetId;

pub use crate::rules::armour_battles::battle::plan::{
    ArmourBattlePlan, SidePlan, UnitPlan, lorraine_battle, numbered_label, what_next,
};
pub use crate::rules::battle::board::{TablePlan, TableUnit};
pub use crate::rules::battle::{SIDES, Sides, opponent};

/// Choices made when the campaign is created.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LorraineOptions {
    /// Units dispersed in one battle are missing from the later ones (RULINGS: off).
    #[serde(default)]
    pub carry_losses: bool,
}

/// A campaign: the players' names, the ruleset and the battles in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Campaign {
    pub name: String,
    pub ruleset: RulesetId,
    /// Lorraine: who plays the US and who the Germans; a simple campaign: the two players.
    pub players: Sides<String>,
    #[serde(default)]
    pub options: LorraineOptions,
    pub battles: Vec<BattlePlan>,
    /// A campaign between two forces: each force's budget, which its roster (replacements
    /// included) stays within between battles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budgets: Option<Sides<crate::rules::force::Budget>>,
}

/// What kind of campaign it is, which decides how its battles are set up and fought. Derived
/// from the ruleset in one place ([`CampaignKind::of`]), so the file keeps only the ruleset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CampaignKind {
    /// The Lorraine 1944 campaign of Armour Battles: its battles are the book's briefings (and
    /// its "What next?"), fought turn by turn with the battle tracker.
    Lorraine,
    /// A series of battles between saved forces, each recorded as its result and what became of
    /// each unit.
    Simple,
}

impl CampaignKind {
    /// The kind of campaign a ruleset's campaigns are.
    pub fn of(ruleset: RulesetId) -> Self {
        match ruleset {
            RulesetId::ArmourBattles => CampaignKind::Lorraine,
            _ => CampaignKind::Simple,
        }
    }

    /// The side's own name: "US" and "German" in Lorraine, "First player" and "Second
    /// player" in a simple campaign.
    pub fn side_name(self, side: crate::rules::battle::Side) -> &'static str {
        match (self, side) {
            (CampaignKind::Lorraine, side) => side.label(),
            (CampaignKind::Simple, crate::rules::battle::Side::First) => "First player",
            (CampaignKind::Simple, crate::rules::battle::Side::Second) => "Second player",
        }
    }

    /// Whether its battles come from the book's briefings (rather than from saved forces).
    pub fn from_briefings(self) -> bool {
        self == CampaignKind::Lorraine
    }
}

impl Campaign {
    pub fn kind(&self) -> CampaignKind {
        CampaignKind::of(self.ruleset)
    }
}

/// One battle as planned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum BattlePlan {
    /// An Armour Battles battle the tracker runs turn by turn.
    Armour(ArmourBattlePlan),
    /// Any other ruleset: two saved forces; winner, notes and each unit's fate are recorded.
    Simple(SimpleBattlePlan),
    /// Any other ruleset's battle fought turn by turn on a board: the two forces' units with
    /// their cards and what they bring from earlier battles.
    Table(TablePlan),
}

impl BattlePlan {
    pub fn number(&self) -> u32 {
        match self {
            BattlePlan::Armour(plan) => plan.number,
            BattlePlan::Simple(plan) => plan.number,
            BattlePlan::Table(plan) => plan.number,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            BattlePlan::Armour(plan) => &plan.name,
            BattlePlan::Simple(plan) => &plan.name,
            BattlePlan::Table(plan) => &plan.name,
        }
    }

    /// "Battle 2: Attack/Defend".
    pub fn title(&self) -> String {
        format!("Battle {}: {}", self.number(), self.name())
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

/// A new Lorraine 1944 campaign with its three battles.
///
/// # Errors
/// [`CampaignError::Invalid`] for an empty name; [`CampaignError::MissingData`] when the
/// embedded briefings failed to load.
pub fn new_lorraine(
    name: &str,
    players: Sides<String>,
    options: LorraineOptions,
) -> Result<Campaign, CampaignError> {
    let name = checked_name(name)?;
    let battles = (1..=3)
        .map(|n| lorraine_battle(n).map(BattlePlan::Armour))
        .collect::<Result<_, _>>()?;
    Ok(Campaign {
        name,
        ruleset: RulesetId::ArmourBattles,
        players,
        options,
        battles,
        budgets: None,
    })
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
        players,
        options: LorraineOptions::default(),
        battles: Vec::new(),
        budgets: None,
    })
}

/// A campaign of any ruleset but Armour Battles between two forces, its first battle `first`
/// (later ones come from its roster).
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
        players,
        options: LorraineOptions::default(),
        battles: vec![BattlePlan::Table(first)],
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
