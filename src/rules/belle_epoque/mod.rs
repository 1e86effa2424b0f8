//! Belle Epoque (Pierre Laporte): Victorian brigades on a hex board. Units are mustered from
//! stands within per-kind limits; the Encounter scenario wants 24–36 stands a side.
//! [`resolve`] gives exact odds and seeded rolls for command points, reactivity tests, fire
//! and assaults.

mod card_data;
pub mod mechanics;
mod reference;
pub mod resolve;
pub mod rulings;
pub mod table_battle;
pub mod tables;

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::rules::card::Card;
use crate::rules::error::RulesError;
use crate::rules::force::{Budget, Force};
use crate::rules::force_file::{check_card_name, parse_inline_fields};
use crate::rules::reference::{Table, Tags};
use crate::rules::registry::{About, Book, BookSource, embedded, load_seed};
use crate::rules::ruleset::{LineField, LineValue, NamedBudget, Ruleset, RulesetId, UnitCost};
use crate::rules::stat::Stat;
use crate::rules::validation::{
    BudgetCheck, BudgetReport, Fix, Totals, Violation, wrong_budget_kind,
};

pub use tables::{Doctrine, Reactivity, Tables, Trait, TroopType, UnitKind};

const TITLE: &str = "Belle Epoque";

/// A Belle Epoque unit: kind, troop type, training, doctrine, size and traits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitProfile {
    pub name: String,
    pub kind: UnitKind,
    pub troop_type: TroopType,
    pub reactivity: Reactivity,
    pub doctrine: Doctrine,
    /// Stands the unit musters by default.
    pub stands: u32,
    #[serde(default)]
    pub traits: Vec<Trait>,
    /// A unit from the book's worked example rather than a generic profile.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub example: bool,
    /// Labels of values the book does not give for this unit, filled with the project's
    /// example values (Rulings: Example values).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub example_stats: Vec<String>,
}

impl UnitProfile {
    pub fn type_label(&self) -> String {
        tables()
            .and_then(|t| t.kind(self.kind))
            .map_or("?".to_string(), |k| k.label.clone())
    }

    /// "1 die a stand; each roll of 1–3 adds its pips": the successful scores of the unit's
    /// assault level, summed (the old "1–3 per die" read as one to three dice).
    pub fn assault_label(&self) -> String {
        let key = match resolve::AssaultTroops::of(self) {
            resolve::AssaultTroops::Choc => "choc",
            resolve::AssaultTroops::MilitiaOrLooseRegulars => "militia_or_loose_regulars",
            resolve::AssaultTroops::CloseRegulars => "close_regulars",
        };
        tables()
            .and_then(|t| t.assault_levels.iter().find(|l| l.troops == key))
            .map_or("?".to_string(), |l| {
                format!(
                    "1 die a stand; each roll of 1–{} adds its pips",
                    l.successful_scores
                )
            })
    }

    /// Basic score of the reactivity test for this unit.
    pub fn basic_score(&self) -> Option<u8> {
        tables().and_then(|t| t.basic_score(self.reactivity, self.doctrine))
    }

    pub fn stats(&self) -> Vec<Stat> {
        let t = tables();
        let kind = t.and_then(|t| t.kind(self.kind));
        let fire_row = t
            .and_then(|t| t.troop_type(self.troop_type))
            .map_or("?".to_string(), tables::TroopTypeRow::fire_row_label);
        let traits: Vec<&str> = self.traits.iter().map(|tr| tr.label()).collect();
        vec![
            Stat::new(
                "Kind",
                self.type_label(),
                "Unit kind: sets the mustering limit and march distance.",
            ),
            Stat::new(
                "Type",
                self.troop_type.letter(),
                "Troop type A–G: the unit's weapons, which set its fire table row.",
            ),
            Stat::new(
                "Stands",
                self.stands.to_string(),
                "Stands mustered; one die each when firing or assaulting.",
            ),
            Stat::new(
                "Max stands",
                kind.map_or("?".into(), |k| k.max_stands.to_string()),
                "Mustering limit for this kind of unit.",
            ),
            Stat::new(
                "Doctrine",
                self.doctrine.label(),
                "Loose or close order, fixed before the game.",
            ),
            Stat::new(
                "Reactivity",
                format!(
                    "{} (BS {})",
                    self.reactivity.label(),
                    self.basic_score().map_or("?".into(), |b| b.to_string())
                ),
                "Basic score: roll d6 at or under it (plus command points spent) to march, fire or assault.",
            ),
            Stat::new(
                "Move",
                kind.map_or("?".into(), |k| {
                    format!("{} UD basic / {} UD march", k.basic_move, k.march)
                }),
                "UD = unit of distance, one hex.",
            ),
            Stat::new(
                "Fire",
                fire_row,
                "To-hit at 1/2/3/4 UD (moving in brackets): each die at or under the number removes a stand.",
            ),
            Stat::new(
                "Assault",
                self.assault_label(),
                "Assault: one die per stand; each die at or under the number scores (a 6 always misses).",
            ),
            Stat::new(
                "Traits",
                if traits.is_empty() {
                    "—".to_string()
                } else {
                    traits.join(", ")
                },
                "Bold, dashing, stubborn, choc, militia, conspicuous: see the quick reference.",
            ),
        ]
    }
}

/// What the book is.
const ABOUT: About = About {
    id: RulesetId::BelleEpoque,
    title: TITLE,
    summary: "Victorian-era brigades on a hex board; command points, reactivity tests, troop types A–G.",
};

static DATA: Book<Tables> = Book::new(ABOUT, || {
    load_seed(embedded!("db/seed/belle_epoque.json"), Card::BelleEpoque)
});

/// The book's tables.
pub fn tables() -> Option<&'static Tables> {
    DATA.tables()
}

/// The Belle Epoque ruleset.
pub struct BelleEpoque;

impl Ruleset for BelleEpoque {
    fn table_battle(&self) -> Option<crate::rules::battle::table::TableEngine> {
        Some(crate::rules::battle::table::TableEngine::of::<
            table_battle::BelleEpoqueBattle,
        >())
    }

    fn book(&self) -> &'static dyn BookSource {
        &DATA
    }

    fn new_card(&self) -> Card {
        Card::BelleEpoque(UnitProfile {
            name: "New unit".into(),
            kind: UnitKind::FormedInfantry,
            troop_type: TroopType::B,
            reactivity: Reactivity::Trained,
            doctrine: Doctrine::Close,
            stands: 4,
            traits: Vec::new(),
            example: false,
            example_stats: Vec::new(),
        })
    }

    fn parse_inline_card(&self, value: &serde_json::Value, path: &str) -> Result<Card, RulesError> {
        let profile: UnitProfile = parse_inline_fields(value, path)?;
        check_card_name(&profile.name, path)?;
        if profile.stands == 0 {
            return Err(RulesError::field(
                format!("{path}.stands"),
                "0 stands: a unit needs at least 1",
            ));
        }
        Ok(Card::BelleEpoque(profile))
    }

    fn mechanics(&self) -> &'static [crate::rules::resolution::Mechanic] {
        &mechanics::MECHANICS
    }

    fn default_budget(&self) -> Budget {
        Budget::Scenario("encounter".to_string())
    }

    fn named_budgets(&self) -> Vec<NamedBudget> {
        let scenarios = tables().map(|t| t.scenarios.as_slice()).unwrap_or_default();
        scenarios
            .iter()
            .map(|s| NamedBudget {
                budget: Budget::Scenario(s.id.clone()),
                title: format!("{} scenario", s.label),
                detail: format!("{}–{} stands a side", s.min_stands, s.max_stands),
            })
            .collect()
    }

    /// A force may muster a unit at fewer (or more) stands than its card's.
    fn line_field(&self) -> Option<LineField> {
        Some(LineField {
            label: "Stands",
            column: "Stands",
            suffix: "",
            help: "",
            unset_help: "",
            value: LineValue::Stands,
            unit: "stands",
            min: 1,
            max: 20,
        })
    }

    /// A unit's default stands: what it adds to the scenario's count unless the force says
    /// otherwise.
    fn unit_cost(&self, card: &Card) -> Option<UnitCost> {
        match card {
            Card::BelleEpoque(p) => Some(UnitCost {
                amount: u64::from(p.stands),
                unit: "stands",
            }),
            _ => None,
        }
    }

    fn check_budget(&self, force: &Force, cards: &[Option<&Card>]) -> BudgetCheck {
        let mut violations = Vec::new();
        let mut stands: u64 = 0;
        for (index, (unit, card)) in force.units.iter().zip(cards).enumerate() {
            let Some(Card::BelleEpoque(profile)) = card else {
                continue;
            };
            let unit_stands = unit.stands.unwrap_or(profile.stands);
            stands += u64::from(unit_stands) * u64::from(unit.count);
            if let Some(violation) =
                mustering_violation(index, &unit.card.label(), profile.kind, unit_stands)
            {
                violations.push(violation);
            }
        }
        let per_die = tables().map_or(8, |t| u64::from(t.stands_per_command_die));
        let totals = Totals {
            units: force.unit_count(),
            stands: Some(stands),
            command_dice: Some(stands.div_ceil(per_die)),
            ..Totals::default()
        };
        let mut budget = BudgetReport {
            kind: force.budget.kind(),
            used: stands,
            unit: "stands",
            ..BudgetReport::default()
        };
        match &force.budget {
            Budget::Scenario(id) => {
                budget.id = Some(id.clone());
                match tables().and_then(|t| t.scenario(id)) {
                    Some(scenario) => {
                        budget.min = Some(u64::from(scenario.min_stands));
                        budget.limit = Some(u64::from(scenario.max_stands));
                        violations.extend(scenario_violation(
                            &scenario.label,
                            scenario.min_stands,
                            scenario.max_stands,
                            stands,
                        ));
                    }
                    None => violations.push(Violation::new(
                        "unknown_scenario",
                        format!("No scenario '{id}' — known: encounter"),
                    )),
                }
            }
            _ => violations.push(wrong_budget_kind(force, "a scenario (e.g. encounter)")),
        }
        BudgetCheck {
            totals,
            budget,
            violations,
        }
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

fn mustering_violation(index: usize, name: &str, kind: UnitKind, stands: u32) -> Option<Violation> {
    let limit = tables()?.kind(kind)?;
    if stands <= limit.max_stands {
        return None;
    }
    let extra = stands - limit.max_stands;
    Some(Violation::new(
        "mustering",
        format!(
            "{name} has {stands} stands: {} units muster at most {} — remove {}",
            limit.label.to_lowercase(),
            limit.max_stands,
            crate::rules::words::amount(u64::from(extra), "stands")
        ),
    ))
    .map(|v| {
        v.with_fix(Fix::SetStands {
            unit: index,
            stands: limit.max_stands,
        })
    })
}

fn scenario_violation(label: &str, min: u32, max: u32, stands: u64) -> Option<Violation> {
    if stands < u64::from(min) {
        Some(Violation::new(
            "scenario_size",
            format!(
                "{stands} stands: the {label} scenario wants {min}–{max} a side — add {}",
                u64::from(min) - stands
            ),
        ))
    } else if stands > u64::from(max) {
        Some(Violation::new(
            "scenario_size",
            format!(
                "{stands} stands: the {label} scenario wants {min}–{max} a side — remove {}",
                stands - u64::from(max)
            ),
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests;
