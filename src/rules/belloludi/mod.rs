//! BelloLudi Tanks!: vehicles priced from three components — speed, shooting dice and armour.
//!
//! The book's rows (light, medium, heavy) are library cards; a custom vehicle picks one
//! component of each kind freely, and its cost is the sum of the three component prices.
//! [`resolve`] turns the commander die, shooting, crashes and victory into exact odds and
//! seeded rolls.

mod card_data;
pub mod mechanics;
mod reference;
pub mod resolve;
pub mod rulings;
pub mod table_battle;

use serde::{Deserialize, Serialize};

use crate::rules::card::Card;
use crate::rules::error::RulesError;
use crate::rules::force::{Budget, Force};
use crate::rules::force_file::{check_card_name, parse_inline_fields};
use crate::rules::reference::{Table, Tags};
use crate::rules::registry::{About, Book, BookSource, embedded, load_seed};
use crate::rules::ruleset::{Ruleset, RulesetId, UnitCost};
use crate::rules::stat::Stat;
use crate::rules::validation::{BudgetCheck, Totals, check_cost_budget, line_costs};

const TITLE: &str = "BelloLudi Tanks!";

/// The three weight classes; each names a speed and a gun row of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    Light,
    Medium,
    Heavy,
}

/// A speed component: inches off-road / on road and its price.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpeedCost {
    pub class: Class,
    pub off_road: u32,
    pub road: u32,
    pub points: u32,
}

/// A shooting component: commander dice rolled for damage and its price.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShootingCost {
    pub commander_dice: u8,
    pub points: u32,
}

/// An armour component and its price.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmourCost {
    pub armour: u8,
    pub points: u32,
}

/// A gun row: its name and range in inches.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gun {
    pub class: Class,
    pub name: String,
    pub range: u32,
}

/// The component cost table.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Components {
    pub speed: Vec<SpeedCost>,
    pub shooting: Vec<ShootingCost>,
    pub armour: Vec<ArmourCost>,
    pub guns: Vec<Gun>,
}

/// A BelloLudi vehicle: one speed, one shooting and one armour component.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vehicle {
    pub name: String,
    pub speed: Class,
    /// Commander dice rolled for damage on a hit (1–3); also sets the gun class.
    pub shooting: u8,
    pub armour: u8,
    /// Morale as the book's table prints it ("3/1"); custom vehicles derive theirs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub morale: Option<String>,
    /// A costed example from the book's text rather than a table row.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub example: bool,
}

/// A component of a vehicle that the cost table does not price.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CostError {
    Shooting(u8),
    Armour(u8),
    Speed(Class),
}

impl std::fmt::Display for CostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CostError::Shooting(d) => write!(f, "shooting {d}CD is not in the table (1–3)"),
            CostError::Armour(a) => write!(f, "armour {a} is not in the table (3, 5 or 7)"),
            CostError::Speed(c) => write!(f, "speed class {c:?} is not in the table"),
        }
    }
}

impl Vehicle {
    /// Points: speed + shooting + armour component prices.
    pub fn points(&self) -> Result<u32, CostError> {
        let table = components().ok_or(CostError::Speed(self.speed))?;
        let speed = table
            .speed
            .iter()
            .find(|s| s.class == self.speed)
            .ok_or(CostError::Speed(self.speed))?;
        let shooting = table
            .shooting
            .iter()
            .find(|s| s.commander_dice == self.shooting)
            .ok_or(CostError::Shooting(self.shooting))?;
        let armour = table
            .armour
            .iter()
            .find(|a| a.armour == self.armour)
            .ok_or(CostError::Armour(self.armour))?;
        Ok(speed.points + shooting.points + armour.points)
    }

    /// The gun matching the shooting dice: 1CD light, 2CD medium, 3CD heavy, as the table pairs them.
    pub fn gun(&self) -> Option<&'static Gun> {
        let class = match self.shooting {
            1 => Class::Light,
            2 => Class::Medium,
            3 => Class::Heavy,
            _ => return None,
        };
        components()?.guns.iter().find(|g| g.class == class)
    }

    /// Hits that leave the vehicle shaken: remaining armour below half the original.
    pub fn hits_to_shaken(&self) -> u32 {
        let armour = u32::from(self.armour);
        (0..=armour)
            .find(|hits| (armour - hits) * 2 < armour)
            .unwrap_or(armour)
    }

    /// Hits that leave the vehicle broken: remaining armour at most a quarter of the original.
    pub fn hits_to_broken(&self) -> u32 {
        let armour = u32::from(self.armour);
        (0..=armour)
            .find(|hits| (armour - hits) * 4 <= armour)
            .unwrap_or(armour)
    }

    /// The morale line: the book's value, or hits-to-shaken / 1 for a custom vehicle.
    pub fn morale_label(&self) -> String {
        self.morale
            .clone()
            .unwrap_or_else(|| format!("{}/1", self.hits_to_shaken()))
    }

    pub fn type_label(&self) -> String {
        match self.speed {
            Class::Light => "Light",
            Class::Medium => "Medium",
            Class::Heavy => "Heavy",
        }
        .to_string()
            + " chassis"
    }

    pub fn stats(&self) -> Vec<Stat> {
        let speed = components()
            .and_then(|t| t.speed.iter().find(|s| s.class == self.speed))
            .map_or("?".to_string(), |s| format!("{}″/{}″", s.off_road, s.road));
        let gun = self
            .gun()
            .map_or("?".to_string(), |g| format!("{} ({}″)", g.name, g.range));
        let points = self
            .points()
            .map_or_else(|e| format!("invalid: {e}"), |p| p.to_string());
        vec![
            Stat::new("Speed", speed, "Inches moved off-road / on a road."),
            Stat::new("Gun", gun, "Armament and its range in inches."),
            Stat::new(
                "Shooting",
                format!("{}CD", self.shooting),
                "CD = commander dice rolled for damage after a hit; a B (bullseye) destroys the target.",
            ),
            Stat::new(
                "Armour",
                self.armour.to_string(),
                "Armour points; each hit of damage removes one.",
            ),
            Stat::new(
                "Morale",
                self.morale_label(),
                "Hits until shaken / armour left when broken (house reading of the book's column).",
            ),
            Stat::new(
                "Points",
                points,
                "Speed + shooting + armour component prices.",
            ),
        ]
    }
}

#[derive(Deserialize)]
struct Data {
    components: Components,
    resolution: resolve::ResolutionTables,
}

/// What the book is.
const ABOUT: About = About {
    id: RulesetId::Belloludi,
    title: TITLE,
    summary: "Fast tank-on-tank skirmish; vehicles costed from speed, shooting dice and armour.",
};

static DATA: Book<Data> = Book::new(ABOUT, || {
    load_seed(embedded!("db/seed/belloludi.json"), Card::Belloludi)
});

/// The component cost table.
pub fn components() -> Option<&'static Components> {
    DATA.tables().map(|d| &d.components)
}

/// The commander die, blunder table, shooting modifiers and victory points.
pub fn resolution() -> Option<&'static resolve::ResolutionTables> {
    DATA.tables().map(|d| &d.resolution)
}

/// The BelloLudi Tanks! ruleset.
pub struct BelloLudi;

impl Ruleset for BelloLudi {
    fn table_battle(&self) -> Option<crate::rules::battle::table::TableEngine> {
        Some(crate::rules::battle::table::TableEngine::of::<
            table_battle::BelloLudiBattle,
        >())
    }

    fn book(&self) -> &'static dyn BookSource {
        &DATA
    }

    fn new_card(&self) -> Card {
        Card::Belloludi(Vehicle {
            name: "New vehicle".into(),
            speed: Class::Medium,
            shooting: 2,
            armour: 5,
            morale: None,
            example: false,
        })
    }

    fn parse_inline_card(&self, value: &serde_json::Value, path: &str) -> Result<Card, RulesError> {
        let vehicle: Vehicle = parse_inline_fields(value, path)?;
        check_card_name(&vehicle.name, path)?;
        vehicle.points().map_err(|e| {
            let field = match e {
                CostError::Shooting(_) => "shooting",
                CostError::Armour(_) => "armour",
                CostError::Speed(_) => "speed",
            };
            RulesError::field(format!("{path}.{field}"), e.to_string())
        })?;
        Ok(Card::Belloludi(vehicle))
    }

    fn mechanics(&self) -> &'static [crate::rules::resolution::Mechanic] {
        &mechanics::MECHANICS
    }

    fn default_budget(&self) -> Budget {
        Budget::Points(100)
    }

    fn unit_cost(&self, card: &Card) -> Option<UnitCost> {
        match card {
            Card::Belloludi(v) => v.points().ok().map(|p| UnitCost {
                amount: u64::from(p),
                unit: "points",
            }),
            _ => None,
        }
    }

    fn check_budget(&self, force: &Force, cards: &[Option<&Card>]) -> BudgetCheck {
        let costs = line_costs(force, cards);
        let limit = match force.budget {
            Budget::Points(limit) => Some(limit),
            _ => None,
        };
        let (used, budget, violations) =
            check_cost_budget(force, &costs, limit, "points", "a points limit");
        let totals = Totals {
            units: force.unit_count(),
            points: Some(used),
            ..Totals::default()
        };
        BudgetCheck {
            totals,
            budget,
            violations,
        }
    }

    fn scores_victory_points(&self) -> bool {
        true
    }

    fn reference_sources(&self) -> &'static [&'static str] {
        &reference::SOURCES
    }

    fn reference_table(&self, source: &str, _tags: Tags<'_>) -> Option<Table> {
        reference::table(source)
    }
}

#[cfg(test)]
mod tests;
