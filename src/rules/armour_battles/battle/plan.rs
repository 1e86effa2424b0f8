//! An Armour Battles battle plan as the Lorraine tracker recorded it, before battles were
//! fought on the board: both battle groups with their dice, units and deployment, as a mission
//! briefing gives them. Campaign files and battle setups of that time hold it; it is read as
//! it was written and played on as the board plan it stands for
//! ([`crate::rules::armour_battles::table_battle::legacy::board_plan`]).

use serde::{Deserialize, Serialize};

use crate::rules::armour_battles::{Deployment, FirstPulse};
use crate::rules::battle::Sides;

/// An Armour Battles battle: both battle groups with their dice, and how it is fought.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmourBattlePlan {
    pub number: u32,
    /// The mission: "Meeting Engagement".
    pub name: String,
    pub time: String,
    pub place: String,
    pub first_pulse: FirstPulse,
    pub victory: String,
    /// Deployment is the players' choice (the "What next?" battle).
    #[serde(default)]
    pub free_deployment: bool,
    pub sides: Sides<SidePlan>,
}

/// One side's battle group for a battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SidePlan {
    /// The briefing's battle group id (`lorraine-2-us`).
    pub battle_group: String,
    pub command_dice: u32,
    pub staff_orders: u32,
    pub rally_dice: u32,
    pub artillery_response_dice: Option<u32>,
    pub army_morale: u32,
    pub units: Vec<UnitPlan>,
}

/// One unit (a platoon, one model) of a battle group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitPlan {
    /// Unique within the battle: `us-1`, `german-7`.
    pub id: String,
    /// The card name.
    pub card: String,
    /// The company (command group) it belongs to.
    pub company: String,
    pub deployment: Deployment,
}
