//! The six battle groups of the Lorraine 1944 campaign, as the briefings give them.

use crate::rules::armour_battles::SideName;
use serde::{Deserialize, Serialize};

use super::cards::Side;

/// How a company enters the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Deployment {
    /// Placed on the table at the start.
    OnTable {},
    /// Committed as reserves from `from_turn` on (never in a turn of command failure).
    Reserve { from_turn: u32 },
    /// Placed hidden; revealed when it fires or an enemy ends within 15″.
    Hidden {},
    /// Off-table artillery, called with staff orders.
    OffTable {},
}

impl Deployment {
    pub fn label(self) -> String {
        match self {
            Deployment::OnTable {} => "On table".to_string(),
            Deployment::Reserve { from_turn } => format!("Reserve from turn {from_turn}"),
            Deployment::Hidden {} => "Hidden".to_string(),
            Deployment::OffTable {} => "Off-table".to_string(),
        }
    }
}

/// Who takes the first command pulse.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstPulse {
    /// Compare command dice: a failing side goes second, else most 6s, then 5s …
    Roll,
    /// The US player has the first pulse, even after a command failure.
    UsAutomatic,
}

impl FirstPulse {
    pub fn label(self) -> &'static str {
        match self {
            FirstPulse::Roll => {
                "Roll: most 6s (then 5s, 4s…) goes first; a command failure goes second"
            }
            FirstPulse::UsAutomatic => "US automatically, even after a command failure",
        }
    }
}

/// A company (command group) of a battle group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Company {
    pub name: String,
    /// Card names, one entry per unit.
    pub units: Vec<String>,
    pub deployment: Deployment,
}

/// One side's battle group for one battle of the campaign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleGroup {
    /// `lorraine-1-us` … `lorraine-3-german`.
    pub id: String,
    pub battle: u32,
    pub side: Side,
    pub mission: String,
    pub time: String,
    pub place: String,
    /// Units in the group, off-table artillery included, as the briefing states it.
    pub units: u32,
    pub command_dice: u32,
    pub staff_orders: u32,
    pub rally_dice: u32,
    pub artillery_response_dice: Option<u32>,
    pub army_morale: u32,
    pub first_pulse: FirstPulse,
    pub companies: Vec<Company>,
}

impl BattleGroup {
    /// "Lorraine Battle 1 German".
    pub fn title(&self) -> String {
        format!("Lorraine Battle {} {}", self.battle, self.side.label())
    }

    /// "Attack/Defend — 1300 hours, 20 September 1944, Near Lezey": the briefing in one line,
    /// a preset force's notes.
    pub fn briefing_line(&self) -> String {
        format!("{} — {}, {}", self.mission, self.time, self.place)
    }

    /// How many units of the card named `card` the group holds.
    pub fn count_of(&self, card: &str) -> u32 {
        let count = self
            .companies
            .iter()
            .flat_map(|c| &c.units)
            .filter(|u| u.as_str() == card)
            .count();
        u32::try_from(count).unwrap_or(u32::MAX)
    }

    /// The distinct card names of the group, in briefing order.
    pub fn card_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for unit in self.companies.iter().flat_map(|c| &c.units) {
            if !names.contains(&unit.as_str()) {
                names.push(unit);
            }
        }
        names
    }

    /// How the winner is decided; the same for all six briefings.
    pub fn victory(&self) -> &'static str {
        "The side that reduces the other to 0 Army Morale Points wins; a dispersed unit costs its side 1D3."
    }
}
