//! A card of any ruleset: the unit profile a force is built from.

use serde::{Deserialize, Serialize};

use super::ruleset::RulesetId;
use super::stat::Stat;
use super::{armour_battles, battle_of_tanks, belle_epoque, belloludi, bolt_action};

/// One unit profile. Serialised with a `ruleset` tag so stored cards say which book they follow.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "ruleset", rename_all = "kebab-case")]
pub enum Card {
    ArmourBattles(armour_battles::UnitCard),
    Belloludi(belloludi::Vehicle),
    BattleOfTanks(battle_of_tanks::TankCard),
    BoltAction(bolt_action::UnitProfile),
    BelleEpoque(belle_epoque::UnitProfile),
}

impl Card {
    /// The ruleset the card belongs to.
    pub fn ruleset(&self) -> RulesetId {
        match self {
            Card::ArmourBattles(_) => RulesetId::ArmourBattles,
            Card::Belloludi(_) => RulesetId::Belloludi,
            Card::BattleOfTanks(_) => RulesetId::BattleOfTanks,
            Card::BoltAction(_) => RulesetId::BoltAction,
            Card::BelleEpoque(_) => RulesetId::BelleEpoque,
        }
    }

    /// The card's full name as the book prints it.
    pub fn name(&self) -> &str {
        match self {
            Card::ArmourBattles(c) => &c.name,
            Card::Belloludi(c) => &c.name,
            Card::BattleOfTanks(c) => &c.name,
            Card::BoltAction(c) => &c.name,
            Card::BelleEpoque(c) => &c.name,
        }
    }

    /// Other names players use for it ("Puma", "StuG III").
    pub fn short_names(&self) -> &[String] {
        match self {
            Card::ArmourBattles(c) => &c.short_names,
            Card::BattleOfTanks(c) => &c.short_names,
            Card::Belloludi(_) | Card::BoltAction(_) | Card::BelleEpoque(_) => &[],
        }
    }

    /// True when `query` is the card's name or one of its short names, ignoring case.
    pub fn answers_to(&self, query: &str) -> bool {
        let query = query.trim();
        self.name().eq_ignore_ascii_case(query)
            || self
                .short_names()
                .iter()
                .any(|n| n.eq_ignore_ascii_case(query))
    }

    /// Side or nation for filtering ("US", "German"), where the book gives one.
    pub fn side(&self) -> Option<&'static str> {
        match self {
            Card::ArmourBattles(c) => Some(c.side.label()),
            _ => None,
        }
    }

    /// The card's type for filtering ("Medium AFV", "Cavalry").
    pub fn type_label(&self) -> String {
        match self {
            Card::ArmourBattles(c) => c.type_label(),
            Card::Belloludi(c) => c.type_label(),
            Card::BattleOfTanks(_) => "Tank".to_string(),
            Card::BoltAction(c) => c.type_label(),
            Card::BelleEpoque(c) => c.type_label(),
        }
    }

    /// Every statistic, labelled and explained, in the order the book prints them.
    pub fn stats(&self) -> Vec<Stat> {
        match self {
            Card::ArmourBattles(c) => c.stats(),
            Card::Belloludi(c) => c.stats(),
            Card::BattleOfTanks(c) => c.stats(),
            Card::BoltAction(c) => c.stats(),
            Card::BelleEpoque(c) => c.stats(),
        }
    }

    /// Labels of the values that are the project's examples rather than the book's
    /// (Rulings: Example values): every label of a card the book does not give, the missing
    /// values of a book card, none for a card the book prints whole or a player's own.
    pub fn example_labels(&self) -> Vec<&'static str> {
        match self {
            Card::BoltAction(c) if c.example => c.stats().iter().map(|s| s.label).collect(),
            Card::Belloludi(c) if c.example => vec!["Gun", "Morale"],
            Card::BelleEpoque(c) => c
                .stats()
                .iter()
                .map(|s| s.label)
                .filter(|label| c.example_stats.iter().any(|e| e == label))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// True when the whole card is the project's example: the book gives no such card.
    pub fn is_example_card(&self) -> bool {
        matches!(self, Card::BoltAction(c) if c.example)
    }

    /// The card's own fields without the ruleset tag, as written inline in a force file.
    pub fn to_inline_json(&self) -> serde_json::Value {
        let value = match self {
            Card::ArmourBattles(c) => serde_json::to_value(c),
            Card::Belloludi(c) => serde_json::to_value(c),
            Card::BattleOfTanks(c) => serde_json::to_value(c),
            Card::BoltAction(c) => serde_json::to_value(c),
            Card::BelleEpoque(c) => serde_json::to_value(c),
        };
        // Plain data structs always serialise; Null would only hide a programming error.
        value.unwrap_or(serde_json::Value::Null)
    }
}
