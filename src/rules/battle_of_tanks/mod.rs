//! Battle of Tanks (Michael Breunig): eight tank cards, each with a tier value; a force's tiers
//! may not exceed the tier points the players agree. [`resolve`] gives exact odds and seeded
//! rolls for fire, repair and spotting.

mod card_data;
pub mod mechanics;
pub mod resolve;
pub mod rulings;
pub mod table_battle;

use serde::{Deserialize, Serialize};

use crate::rules::card::Card;
use crate::rules::error::RulesError;
use crate::rules::force::{Budget, Force};
use crate::rules::force_file::{check_card_name, parse_inline_fields};
use crate::rules::registry::{About, Book, BookSource, embedded, load_seed};
use crate::rules::ruleset::{Ruleset, RulesetId, UnitCost};
use crate::rules::stat::Stat;
use crate::rules::validation::{BudgetCheck, Totals, check_cost_budget, line_costs};

const TITLE: &str = "Battle of Tanks";

/// A tank card (Panzerkarte) with its nine values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TankCard {
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_names: Vec<String>,
    /// Stufe: tier value counted against the tier points.
    pub tier: u32,
    pub hit_points: u32,
    /// Bewegung: centimetres per move order.
    pub movement_cm: u32,
    /// Sichtweite: how far the commander sees, in centimetres.
    pub sight_cm: u32,
    /// Aufklärung: spotting roll needed (x+).
    pub spotting: u8,
    /// Genauigkeit: to-hit roll needed on a stationary target in the open (x+).
    pub accuracy: u8,
    /// Feuerrate: shots per round, split freely over targets in sight.
    pub fire_rate: u32,
    /// Feuerkraft: hit points removed by a turret or hull penetration.
    pub firepower: u32,
    /// Instandsetzung: roll needed to repair a track (x+).
    pub repair: u8,
}

impl TankCard {
    pub fn stats(&self) -> Vec<Stat> {
        vec![
            Stat::new(
                "Tier",
                self.tier.to_string(),
                "Stufe: counts against the agreed tier points.",
            ),
            Stat::new(
                "Hit points",
                self.hit_points.to_string(),
                "The tank is destroyed at 0.",
            ),
            Stat::new(
                "Movement",
                format!("{} cm", self.movement_cm),
                "Bewegung: distance per move order; half when attacking or withdrawing.",
            ),
            Stat::new(
                "Sight",
                format!("{} cm", self.sight_cm),
                "Sichtweite: targets must be within this range.",
            ),
            Stat::new(
                "Spotting",
                format!("{}+", self.spotting),
                "Aufklärung: roll to spot tanks in cover (+2 light, +1 heavy as printed).",
            ),
            Stat::new(
                "Accuracy",
                format!("{}+", self.accuracy),
                "Genauigkeit: to-hit roll on a stationary target in the open.",
            ),
            Stat::new(
                "Fire rate",
                self.fire_rate.to_string(),
                "Feuerrate: shots per round, split over targets as you like.",
            ),
            Stat::new(
                "Firepower",
                self.firepower.to_string(),
                "Feuerkraft: hit points removed by a turret or hull penetration.",
            ),
            Stat::new(
                "Repair",
                format!("{}+", self.repair),
                "Instandsetzung: roll to repair damaged tracks.",
            ),
        ]
    }
}

#[derive(Deserialize)]
struct Data {
    resolution: resolve::ResolutionTables,
}

/// What the book is.
const ABOUT: About = About {
    id: RulesetId::BattleOfTanks,
    title: TITLE,
    summary: "Tank duels with an order bag; tier-point budgets; penetration die K/T/W.",
};

static DATA: Book<Data> = Book::new(ABOUT, || {
    load_seed(
        embedded!("db/seed/battle_of_tanks.json"),
        Card::BattleOfTanks,
    )
});

/// The penetration die and the to-hit and spotting modifiers.
pub fn resolution() -> Option<&'static resolve::ResolutionTables> {
    DATA.tables().map(|d| &d.resolution)
}

/// The Battle of Tanks card answering to `name` (full or short name, any case).
pub fn tank_card(name: &str) -> Option<&'static TankCard> {
    BattleOfTanks.library().iter().find_map(|card| match card {
        Card::BattleOfTanks(tank) if card.answers_to(name) => Some(tank),
        _ => None,
    })
}

/// The Battle of Tanks ruleset.
pub struct BattleOfTanks;

impl Ruleset for BattleOfTanks {
    fn table_battle(&self) -> Option<crate::rules::battle::table::TableEngine> {
        Some(crate::rules::battle::table::TableEngine::of::<
            table_battle::BattleOfTanksBattle,
        >())
    }

    fn book(&self) -> &'static dyn BookSource {
        &DATA
    }

    fn new_card(&self) -> Card {
        Card::BattleOfTanks(TankCard {
            name: "New tank".into(),
            short_names: Vec::new(),
            tier: 5,
            hit_points: 600,
            movement_cm: 50,
            sight_cm: 80,
            spotting: 2,
            accuracy: 3,
            fire_rate: 2,
            firepower: 100,
            repair: 3,
        })
    }

    fn parse_inline_card(&self, value: &serde_json::Value, path: &str) -> Result<Card, RulesError> {
        let card: TankCard = parse_inline_fields(value, path)?;
        check_card_name(&card.name, path)?;
        for (field, value) in [
            ("spotting", card.spotting),
            ("accuracy", card.accuracy),
            ("repair", card.repair),
        ] {
            if !(1..=6).contains(&value) {
                return Err(RulesError::field(
                    format!("{path}.{field}"),
                    format!("{value}+ is not a d6 roll (1–6)"),
                ));
            }
        }
        Ok(Card::BattleOfTanks(card))
    }

    fn mechanics(&self) -> &'static [crate::rules::resolution::Mechanic] {
        &mechanics::MECHANICS
    }

    fn default_budget(&self) -> Budget {
        Budget::TierPoints(20)
    }

    fn unit_cost(&self, card: &Card) -> Option<UnitCost> {
        match card {
            Card::BattleOfTanks(t) => Some(UnitCost {
                amount: u64::from(t.tier),
                unit: "tier points",
            }),
            _ => None,
        }
    }

    fn check_budget(&self, force: &Force, cards: &[Option<&Card>]) -> BudgetCheck {
        let costs = line_costs(force, cards);
        let limit = match force.budget {
            Budget::TierPoints(limit) => Some(limit),
            _ => None,
        };
        let (used, budget, violations) =
            check_cost_budget(force, &costs, limit, "tier points", "a tier-point limit");
        let totals = Totals {
            units: force.unit_count(),
            tier_points: Some(used),
            ..Totals::default()
        };
        BudgetCheck {
            totals,
            budget,
            violations,
        }
    }
}

#[cfg(test)]
mod tests;
