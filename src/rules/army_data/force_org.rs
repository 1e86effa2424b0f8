//! A force organisation from army data (Bolt Action's Reinforced Platoon): which categories
//! of unit a force holds, at least and at most how many of each, within a points limit.
//! Ruleset-free: any ruleset whose budget may be a force organisation checks it here.

use serde::{Deserialize, Serialize};

use super::entry::{CategoryRef, DataRef};
use crate::rules::battlescribe::{Bound, DataFile};

/// One category of a force organisation with its limits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Slot {
    pub category: CategoryRef,
    #[serde(default)]
    pub min: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
}

/// A force organisation with the points limit the players agreed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForceOrg {
    /// "Reinforced Platoon".
    pub name: String,
    /// The game system it comes from.
    pub source: DataRef,
    /// The data's id of the force entry.
    pub entry_id: String,
    pub points: u32,
    pub slots: Vec<Slot>,
}

impl ForceOrg {
    /// The same organisation with another points limit.
    pub fn with_points(&self, points: u32) -> ForceOrg {
        ForceOrg {
            points,
            ..self.clone()
        }
    }

    /// "Reinforced Platoon, 1000 points".
    pub fn label(&self) -> String {
        format!("{}, {} points", self.name, self.points)
    }

    /// "Headquarters 1–2, Infantry 2–6, Support up to 4".
    pub fn slot_words(&self) -> String {
        self.slots
            .iter()
            .map(|s| match (s.min, s.max) {
                (0, Some(max)) => format!("{} up to {max}", s.category.name),
                (min, Some(max)) if min == max => format!("{} {min}", s.category.name),
                (min, Some(max)) => format!("{} {min}–{max}", s.category.name),
                (min, None) => format!("{} {min}+", s.category.name),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Each slot's count against its limits, as violations in plain words. `units` is one
    /// entry per unit line: its count and the category its card fills, if it has one.
    pub fn problems(&self, units: &[(u32, Option<&CategoryRef>)]) -> Vec<String> {
        let mut problems = Vec::new();
        for slot in &self.slots {
            let count: u32 = units
                .iter()
                .filter(|(_, c)| c.is_some_and(|c| c.id == slot.category.id))
                .map(|(n, _)| *n)
                .sum();
            if count < slot.min {
                problems.push(format!(
                    "{}: {count} of at least {} — the {} needs {} more",
                    slot.category.name,
                    slot.min,
                    self.name,
                    slot.min - count
                ));
            }
            if let Some(max) = slot.max
                && count > max
            {
                problems.push(format!(
                    "{}: {count} — the {} allows {max}; remove {}",
                    slot.category.name,
                    self.name,
                    count - max
                ));
            }
        }
        let mut strays: Vec<&str> = Vec::new();
        for (_, category) in units {
            if let Some(category) = category
                && !self.slots.iter().any(|s| s.category.id == category.id)
                && !strays.contains(&category.name.as_str())
            {
                strays.push(&category.name);
            }
        }
        for stray in strays {
            problems.push(format!(
                "{stray}: the {} has no place for this category",
                self.name
            ));
        }
        problems
    }
}

/// The force organisations a game system sets out, with `points` as their limit until the
/// players choose theirs.
pub fn force_orgs(system: &DataFile, source: &DataRef, points: u32) -> Vec<ForceOrg> {
    system
        .force_entries
        .iter()
        .map(|entry| ForceOrg {
            name: entry.name.clone(),
            source: source.clone(),
            entry_id: entry.id.clone(),
            points,
            slots: entry
                .categories
                .iter()
                .map(|link| {
                    let limit = |bound: Bound| {
                        link.constraints
                            .iter()
                            .filter(|c| c.bound == bound)
                            .find_map(|c| c.selections())
                    };
                    let name = system
                        .categories
                        .iter()
                        .find(|c| c.id == link.target_id)
                        .map_or(link.name.clone(), |c| c.name.clone());
                    Slot {
                        category: CategoryRef {
                            id: link.target_id.clone(),
                            name,
                        },
                        min: limit(Bound::Min).unwrap_or(0),
                        max: limit(Bound::Max),
                    }
                })
                .collect(),
        })
        .collect()
}
