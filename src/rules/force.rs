//! A force: the units a player fields under one ruleset and one budget.

use serde::{Deserialize, Serialize};

use super::army_data::ForceOrg;
use super::card::Card;
use super::ruleset::RulesetId;

/// The limit a force is built against. Each ruleset accepts the kinds its book uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Budget {
    /// A points limit (BelloLudi, Bolt Action).
    Points(u32),
    /// A tier-point limit (Battle of Tanks).
    TierPoints(u32),
    /// A book battle group whose composition the force may not exceed (Armour Battles).
    BattleGroup(String),
    /// A scenario's size rules (Belle Epoque "encounter").
    Scenario(String),
    /// A force organisation from imported army data with its points limit (Bolt Action's
    /// Reinforced Platoon): each category's count within its limits.
    ForceOrg(Box<ForceOrg>),
}

impl Budget {
    /// The budget's kind as a snake_case word, as in the force file.
    pub fn kind(&self) -> &'static str {
        match self {
            Budget::Points(_) => "points",
            Budget::TierPoints(_) => "tier_points",
            Budget::BattleGroup(_) => "battle_group",
            Budget::Scenario(_) => "scenario",
            Budget::ForceOrg(_) => "force_org",
        }
    }

    /// The battle group's or scenario's id, for a budget that names one.
    pub fn id(&self) -> Option<&str> {
        match self {
            Budget::BattleGroup(id) | Budget::Scenario(id) => Some(id),
            Budget::Points(_) | Budget::TierPoints(_) | Budget::ForceOrg(_) => None,
        }
    }

    /// The budget in words, as lists print it: "100 points", "12 tier points", "battle group
    /// lorraine-1-us", "scenario encounter", "Reinforced Platoon, 1000 points".
    pub fn words(&self) -> String {
        use super::validation::amount;
        match self {
            Budget::Points(n) => amount(u64::from(*n), "points"),
            Budget::TierPoints(n) => amount(u64::from(*n), "tier points"),
            Budget::BattleGroup(id) => format!("battle group {id}"),
            Budget::Scenario(id) => format!("scenario {id}"),
            Budget::ForceOrg(org) => org.label(),
        }
    }

    /// The points limit, for a budget that has one.
    pub fn points(&self) -> Option<u32> {
        match self {
            Budget::Points(n) => Some(*n),
            Budget::ForceOrg(org) => Some(org.points),
            Budget::TierPoints(_) | Budget::BattleGroup(_) | Budget::Scenario(_) => None,
        }
    }
}

/// Which card a unit uses: a library card by name, or a card written into the force.
#[derive(Debug, Clone, PartialEq)]
pub enum CardRef {
    Library(String),
    Inline(Card),
}

impl CardRef {
    /// The name shown for the unit, whether or not the card exists.
    pub fn name(&self) -> &str {
        match self {
            CardRef::Library(name) => name,
            CardRef::Inline(card) => card.name(),
        }
    }

    /// The name as every list, message and undo step shows it: "Sherman", or "Sherman · custom"
    /// for a card written into the force, so it is never mistaken for the book's.
    pub fn label(&self) -> String {
        match self {
            CardRef::Library(name) => name.clone(),
            // A unit from army data says which catalogue revision prices it.
            CardRef::Inline(card) => match card.army() {
                Some(army) => format!("{} · {}", card.name(), army.source.label()),
                None => format!("{} · custom", card.name()),
            },
        }
    }
}

/// One line of a force: a card, how many, and where it sits.
#[derive(Debug, Clone, PartialEq)]
pub struct ForceUnit {
    pub card: CardRef,
    /// How many of this unit (at least 1).
    pub count: u32,
    /// Company, platoon or group name, if any.
    pub group: Option<String>,
    /// Points per unit where the player sets costs (Bolt Action).
    pub points: Option<u32>,
    /// Stands per unit (Belle Epoque); the card's default when absent.
    pub stands: Option<u32>,
}

impl ForceUnit {
    /// A unit of `count` library cards named `card`, with no group.
    pub fn library(card: impl Into<String>, count: u32) -> Self {
        ForceUnit {
            card: CardRef::Library(card.into()),
            count,
            group: None,
            points: None,
            stands: None,
        }
    }
}

/// A whole force.
#[derive(Debug, Clone, PartialEq)]
pub struct Force {
    pub ruleset: RulesetId,
    pub name: String,
    pub budget: Budget,
    pub units: Vec<ForceUnit>,
    pub notes: String,
}

impl Force {
    /// An empty force with the ruleset's default budget.
    pub fn new(ruleset: RulesetId, name: impl Into<String>) -> Self {
        Force {
            ruleset,
            name: name.into(),
            budget: super::ruleset(ruleset).default_budget(),
            units: Vec::new(),
            notes: String::new(),
        }
    }

    /// Total number of units (counts summed).
    pub fn unit_count(&self) -> u64 {
        self.units.iter().map(|u| u64::from(u.count)).sum()
    }
}
