//! Bolt Action (reference sheets): troop quality, orders, hit and damage tables, the weapons
//! chart. The sheets carry no points, so a force sets its own cost per unit and a points limit.
//! [`resolve`] gives exact odds and seeded rolls for order tests, shooting and damage.

pub mod army_data;
pub mod battle;
mod card_data;
pub mod close_quarters;
pub mod mechanics;
mod reference;
pub mod resolve;
pub mod rulings;
pub mod table_battle;
pub mod tables;
pub mod unit_fire;
pub mod vehicle_damage;

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::rules::army_data::{ArmyEntry, CategoryRef};
use crate::rules::card::Card;
use crate::rules::error::RulesError;
use crate::rules::force::{Budget, Force};
use crate::rules::force_file::{check_card_name, parse_inline_fields};
use crate::rules::reference::{Table, Tags};
use crate::rules::registry::{About, Book, BookSource, embedded, load_seed};
use crate::rules::ruleset::{LineField, LineValue, Ruleset, RulesetId};
use crate::rules::stat::Stat;
use crate::rules::validation::{BudgetCheck, Totals, Violation, check_cost_budget};

pub use tables::{Quality, Tables, VehicleMovement, Weapon};

const TITLE: &str = "Bolt Action";

/// What a unit is, for its damage value and how it moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Infantry,
    Artillery,
    SoftSkin,
    ArmouredCar,
    LightTank,
    MediumTank,
    HeavyTank,
    SuperHeavyTank,
}

impl Category {
    pub fn label(self) -> &'static str {
        match self {
            Category::Infantry => "Infantry",
            Category::Artillery => "Artillery",
            Category::SoftSkin => "Soft-skinned vehicle",
            Category::ArmouredCar => "Armoured car / carrier",
            Category::LightTank => "Light tank",
            Category::MediumTank => "Medium tank",
            Category::HeavyTank => "Heavy tank",
            Category::SuperHeavyTank => "Super-heavy tank",
        }
    }

    /// The damage-value table row this category uses (infantry and artillery by quality).
    pub fn damage_row(self, quality: Quality) -> &'static str {
        match (self, quality) {
            (Category::Infantry | Category::Artillery, Quality::Inexperienced) => {
                "inexperienced_infantry"
            }
            (Category::Infantry | Category::Artillery, Quality::Regular) => "regular_infantry",
            (Category::Infantry | Category::Artillery, Quality::Veteran) => "veteran_infantry",
            (Category::SoftSkin, _) => "soft_skin",
            (Category::ArmouredCar, _) => "armoured_car",
            (Category::LightTank, _) => "light_tank",
            (Category::MediumTank, _) => "medium_tank",
            (Category::HeavyTank, _) => "heavy_tank",
            (Category::SuperHeavyTank, _) => "super_heavy_tank",
        }
    }

    /// True for anything with an engine: its guns are mounted, not towed or carried.
    pub fn is_vehicle(self) -> bool {
        !matches!(self, Category::Infantry | Category::Artillery)
    }

    /// True for targets rolled on the armoured damage results table.
    pub fn is_armoured(self) -> bool {
        matches!(
            self,
            Category::ArmouredCar
                | Category::LightTank
                | Category::MediumTank
                | Category::HeavyTank
                | Category::SuperHeavyTank
        )
    }
}

/// A Bolt Action unit profile built from the reference sheets' categories and weapons.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitProfile {
    pub name: String,
    pub category: Category,
    pub quality: Quality,
    /// Weapon chart names.
    #[serde(default)]
    pub weapons: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movement: Option<VehicleMovement>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open_topped: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub recce: bool,
    /// One of the project's example cards (the reference sheets print no units).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub example: bool,
    /// The unit's price, options and source revision, for a card from imported army data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub army: Option<Box<ArmyEntry>>,
}

impl UnitProfile {
    /// Takes `entry` as the card's army data: the quality follows its variant and the weapons
    /// are what the unit carries with the options taken.
    pub fn apply_army(&mut self, entry: ArmyEntry) {
        if let Some(quality) = entry.variant.as_deref().and_then(army_data::quality_named) {
            self.quality = quality;
        }
        self.weapons = entry.carried();
        self.army = Some(Box::new(entry));
    }

    /// Models in the unit as fielded, where its army data says (`None` for the book's
    /// examples, whose size the battle's house default sets).
    pub fn models(&self) -> Option<u32> {
        self.army
            .as_ref()
            .map(|a| a.model_count())
            .filter(|n| *n > 0)
    }

    /// The score a hit needs (d6 + pen) to damage this unit.
    pub fn damage_value(&self) -> Option<u8> {
        tables().and_then(|t| t.damage_value(self.category.damage_row(self.quality)))
    }

    /// Morale for order tests: 8, 9 or 10 by quality.
    pub fn morale(&self) -> Option<u8> {
        tables().and_then(|t| t.morale(self.quality))
    }

    pub fn type_label(&self) -> String {
        self.category.label().to_string()
    }

    /// The unit's weapons from the chart, with the tags they carry on this unit (a vehicle's
    /// guns lose the towed-gun tags: Rulings, Bolt Action vehicle weapons); `None` for a
    /// name the chart does not have.
    pub fn mounted_weapons(&self) -> Vec<(String, Option<Weapon>)> {
        self.weapons
            .iter()
            .map(|name| {
                let weapon = tables().and_then(|t| {
                    t.weapon(name)
                        .map(|w| w.mounted(self.category.is_vehicle(), t))
                });
                (name.clone(), weapon)
            })
            .collect()
    }

    pub fn stats(&self) -> Vec<Stat> {
        let weapons: Vec<String> = self
            .mounted_weapons()
            .into_iter()
            .map(|(name, weapon)| match weapon {
                Some(w) => w.summary(),
                None => format!("{name} (not on the chart)"),
            })
            .collect();
        let mut stats = vec![
            Stat::new(
                "Type",
                self.category.label(),
                "Unit category, which sets its damage value.",
            ),
            Stat::new(
                "Quality",
                self.quality.label(),
                "Inexperienced, Regular or Veteran: sets morale (8/9/10) and infantry damage value.",
            ),
            Stat::new(
                "Morale",
                self.morale().map_or("?".into(), |m| m.to_string()),
                "Order tests pass on 2D6 at or under this, −1 per pin, + officer bonus.",
            ),
            Stat::new(
                "DV",
                self.damage_value().map_or("?".into(), |d| format!("{d}+")),
                "Damage value: d6 + PEN must reach it to damage the unit.",
            ),
            Stat::new(
                "Weapons",
                if weapons.is_empty() {
                    "—".to_string()
                } else {
                    weapons.join("; ")
                },
                "Range, shots and PEN (penetration) from the weapons chart; HE weapons add the HE chart's pen and pins.",
            ),
        ];
        if let Some(movement) = self.movement {
            let moves = tables().and_then(|t| t.vehicle_move(movement));
            stats.push(Stat::new(
                "Move",
                moves.map_or("?".into(), |m| {
                    format!("{} {}″ advance / {}″ run", m.label, m.advance, m.run)
                }),
                "Vehicle move rates for advance and run orders.",
            ));
        } else if let Some(foot) = tables().and_then(|t| t.foot_move(self.category)) {
            // Without this a roster's Move column read "—", as if the unit could not move.
            stats.push(Stat::new(
                "Move",
                foot.label(),
                "Move rates on foot for advance and run orders (the sheets give none: an example value).",
            ));
        }
        if let Some(army) = &self.army {
            if let Some(models) = self.models() {
                stats.push(Stat::new(
                    "Models",
                    models.to_string(),
                    "Models in the unit as fielded, with the extra men its options add.",
                ));
            }
            let chosen = army.words();
            stats.push(Stat::new(
                "Data",
                if chosen.is_empty() {
                    format!("{} · {} pts", army.source.label(), army.price())
                } else {
                    format!("{} · {chosen} · {} pts", army.source.label(), army.price())
                },
                "The imported army data that prices this unit (catalogue and revision), the options taken and the price.",
            ));
        }
        let mut notes = Vec::new();
        if self.open_topped {
            notes.push("Open-topped");
        }
        if self.recce {
            notes.push("Recce");
        }
        if !notes.is_empty() {
            stats.push(Stat::new(
                "Notes",
                notes.join(", "),
                "Open-topped: +1 on damage from indirect fire. Recce: reverses at full speed.",
            ));
        }
        stats
    }
}

/// How many of each data unit the force holds against the most its data allows.
fn data_limits(force: &Force, cards: &[Option<&Card>]) -> Vec<Violation> {
    let mut seen: Vec<(&str, &str, u32, u32)> = Vec::new();
    for (unit, card) in force.units.iter().zip(cards) {
        let Some(army) = card.and_then(|c| c.army()) else {
            continue;
        };
        let Some(max) = army.max_in_force else {
            continue;
        };
        match seen.iter_mut().find(|(id, ..)| *id == army.entry_id) {
            Some(entry) => entry.2 += unit.count,
            None => seen.push((&army.entry_id, unit.card.name(), unit.count, max)),
        }
    }
    seen.into_iter()
        .filter(|(_, _, count, max)| count > max)
        .map(|(_, name, count, max)| {
            Violation::new(
                "army_data",
                format!(
                    "{count} × {name}: the data allows {max} in a force — remove {}",
                    count - max
                ),
            )
        })
        .collect()
}

/// What the book is.
const ABOUT: About = About {
    id: RulesetId::BoltAction,
    title: TITLE,
    summary: "WWII company actions with order dice; points set per unit by the players.",
};

static DATA: Book<Tables> = Book::new(ABOUT, || {
    load_seed(embedded!("db/seed/bolt_action.json"), Card::BoltAction)
});

/// The reference sheets' tables.
pub fn tables() -> Option<&'static Tables> {
    DATA.tables()
}

/// The Bolt Action ruleset.
pub struct BoltAction;

impl Ruleset for BoltAction {
    fn table_battle(&self) -> Option<crate::rules::battle::table::TableEngine> {
        Some(crate::rules::battle::table::TableEngine::of::<
            table_battle::BoltActionBattle,
        >())
    }

    fn book(&self) -> &'static dyn BookSource {
        &DATA
    }

    fn new_card(&self) -> Card {
        Card::BoltAction(UnitProfile {
            name: "New unit".into(),
            category: Category::Infantry,
            quality: Quality::Regular,
            weapons: vec!["Rifle".into()],
            movement: None,
            open_topped: false,
            recce: false,
            example: false,
            army: None,
        })
    }

    fn parse_inline_card(&self, value: &serde_json::Value, path: &str) -> Result<Card, RulesError> {
        let profile: UnitProfile = parse_inline_fields(value, path)?;
        check_card_name(&profile.name, path)?;
        if let Some(t) = tables() {
            for (i, weapon) in profile.weapons.iter().enumerate() {
                if t.weapon(weapon).is_none() {
                    return Err(RulesError::field(
                        format!("{path}.weapons[{i}]"),
                        format!("'{weapon}' is not on the weapons chart"),
                    ));
                }
            }
        }
        Ok(Card::BoltAction(profile))
    }

    fn mechanics(&self) -> &'static [crate::rules::resolution::Mechanic] {
        &mechanics::MECHANICS
    }

    fn default_budget(&self) -> Budget {
        Budget::Points(1000)
    }

    /// The sheets carry no points: the players set each unit's.
    fn line_field(&self) -> Option<LineField> {
        Some(LineField {
            label: "Points",
            column: "Points each",
            suffix: " pts",
            help: "This unit's points cost (the reference sheets give none)",
            unset_help: "Not set yet: drag or type this unit's points cost",
            value: LineValue::Points,
            unit: "points",
            min: 0,
            max: 5000,
        })
    }

    fn reads_game_system(&self, name: &str) -> bool {
        army_data::reads_game_system(name)
    }

    fn army_cards(
        &self,
        units: &[crate::rules::battlescribe::Resolved],
        context: &crate::rules::army_data::ArmyContext<'_>,
        notes: &mut Vec<crate::rules::battlescribe::Note>,
    ) -> Vec<Card> {
        army_data::army_cards(units, context, notes)
    }

    fn check_budget(&self, force: &Force, cards: &[Option<&Card>]) -> BudgetCheck {
        let mut violations = Vec::new();
        let mut costs = Vec::new();
        for (index, (unit, card)) in force.units.iter().zip(cards).enumerate() {
            let Some(card) = card else {
                continue;
            };
            if let Some(army) = card.army() {
                costs.push((index, army.price()));
                violations.extend(
                    army.problems(&unit.card.label())
                        .into_iter()
                        .map(|message| Violation::new("army_data", message)),
                );
                continue;
            }
            match unit.points {
                Some(points) => costs.push((index, u64::from(points))),
                None => violations.push(Violation::new(
                    "missing_points",
                    format!(
                        "{}: no points cost — the reference sheets give none, so set this unit's points",
                        unit.card.label()
                    ),
                )),
            }
        }
        violations.extend(data_limits(force, cards));
        let limit = match &force.budget {
            Budget::Points(limit) => Some(*limit),
            Budget::ForceOrg(org) => Some(org.points),
            _ => None,
        };
        let (used, mut budget, over) = check_cost_budget(
            force,
            &costs,
            limit,
            "points",
            "a points limit or a force organisation",
        );
        violations.extend(over);
        if let Budget::ForceOrg(org) = &force.budget {
            budget.id = Some(org.name.clone());
            let lines: Vec<(u32, Option<&CategoryRef>)> = force
                .units
                .iter()
                .zip(cards)
                .map(|(unit, card)| {
                    let category = card
                        .and_then(|c| c.army())
                        .and_then(|a| a.category.as_ref());
                    (unit.count, category)
                })
                .collect();
            violations.extend(
                org.problems(&lines)
                    .into_iter()
                    .map(|message| Violation::new("force_org", message)),
            );
        }
        BudgetCheck {
            totals: Totals {
                units: force.unit_count(),
                points: Some(used),
                ..Totals::default()
            },
            budget,
            violations,
        }
    }

    fn warnings(&self, force: &Force, cards: &[Option<&Card>]) -> Vec<String> {
        let Budget::ForceOrg(org) = &force.budget else {
            return Vec::new();
        };
        force
            .units
            .iter()
            .zip(cards)
            .filter(|(_, card)| card.is_some_and(|c| c.army().is_none()))
            .map(|(unit, _)| {
                format!(
                    "{}: a card without army data fills no slot of the {}",
                    unit.card.label(),
                    org.name
                )
            })
            .collect()
    }

    fn known_tags(&self) -> BTreeSet<String> {
        reference::known_tags()
    }

    fn reference_sources(&self) -> &'static [&'static str] {
        &reference::SOURCES
    }

    fn reference_table(&self, source: &str, tags: Tags<'_>) -> Option<Table> {
        reference::table(source, tags)
    }
}

#[cfg(test)]
mod tests;
