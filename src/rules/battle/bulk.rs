//! One change many units take at once, recorded as one effect ([`Effect::Every`]) rather than
//! one per unit: the end of a turn that takes every order back and clears every unit's
//! marks would otherwise record an effect per unit, and at a few hundred units an event
//! outgrows the size every machine accepts (the campaign's event cap), so a battle the app
//! recorded itself could not be exported, imported or synced.
//!
//! The rules still decide unit by unit; [`compact`] rewrites what they decided into the bulk
//! form when that is shorter, and [`super::board::Board::apply`] expands it again. A bulk
//! change applies only to the units it changes (a counter never set counts as 0, as
//! everywhere), so the board after it is the board after the per-unit effects it replaced.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};

use super::Side;
use super::board::{Board, BoardUnit, Effect};

/// Fewest units sharing one change that are worth a bulk effect: below it the per-unit
/// effects are as short and say each unit's name in the log.
const FEWEST_FOR_BULK: usize = 3;

/// What one change does to a unit, whichever unit: the part a bulk effect shares.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case", deny_unknown_fields)]
pub enum UnitChange {
    /// A counter set to `to` (only where it is not `to` already).
    Set {
        counter: String,
        to: i64,
    },
    Mark {
        mark: String,
    },
    Clear {
        mark: String,
    },
    /// The order beside the unit (`None`: its die goes back to the bag).
    Order {
        #[serde(default)]
        order: Option<String>,
    },
}

impl UnitChange {
    /// The unit and the change of a per-unit effect this form can say; `None` for an `Add`
    /// (no unit is left as it was by one) and for effects on a side or the battle.
    fn of(effect: &Effect) -> Option<(&str, UnitChange)> {
        let change = match effect {
            Effect::Set { counter, to, .. } => UnitChange::Set {
                counter: counter.clone(),
                to: *to,
            },
            Effect::Mark { mark, .. } => UnitChange::Mark { mark: mark.clone() },
            Effect::Clear { mark, .. } => UnitChange::Clear { mark: mark.clone() },
            Effect::Order { order, .. } => UnitChange::Order {
                order: order.clone(),
            },
            _ => return None,
        };
        effect.unit().map(|unit| (unit, change))
    }

    /// What of a unit it touches, as [`touched`] says it.
    fn touches(&self) -> (char, &str) {
        match self {
            UnitChange::Set { counter, .. } => ('c', counter),
            UnitChange::Mark { mark } | UnitChange::Clear { mark } => ('m', mark),
            UnitChange::Order { .. } => ('o', ""),
        }
    }

    /// Whether applying it leaves `unit` different.
    pub fn changes(&self, unit: &BoardUnit) -> bool {
        match self {
            UnitChange::Set { counter, to } => unit.count(counter) != *to,
            UnitChange::Mark { mark } => !unit.has(mark),
            UnitChange::Clear { mark } => unit.has(mark),
            UnitChange::Order { order } => unit.order != *order,
        }
    }

    /// The change made to `unit`, if it changes it.
    pub fn apply(&self, unit: &mut BoardUnit) {
        if !self.changes(unit) {
            return;
        }
        match self {
            UnitChange::Set { counter, to } => {
                unit.counters.insert(counter.clone(), *to);
            }
            UnitChange::Mark { mark } => {
                unit.marks.insert(mark.clone());
            }
            UnitChange::Clear { mark } => {
                unit.marks.remove(mark);
            }
            UnitChange::Order { order } => unit.order.clone_from(order),
        }
    }

    /// In words, after whom it concerns ("no order", "no longer done", "pins 0").
    pub fn words(&self) -> String {
        let words = |key: &str| key.replace('_', " ");
        match self {
            UnitChange::Set { counter, to } => format!("{} {to}", words(counter)),
            UnitChange::Mark { mark } => words(mark),
            UnitChange::Clear { mark } => format!("no longer {}", words(mark)),
            UnitChange::Order { order: Some(order) } => format!("order {}", words(order)),
            UnitChange::Order { order: None } => "no order".to_string(),
        }
    }
}

/// Whether a bulk effect selects `unit`: of its side (any, when none) and not excepted.
pub fn selects(side: Option<Side>, except: &[String], unit: &BoardUnit) -> bool {
    side.is_none_or(|s| s == unit.side) && !except.contains(&unit.id)
}

/// What an effect on a unit touches (the unit, and the counter, the mark or its order), for
/// telling whether two effects could depend on their order.
fn touched(effect: &Effect) -> Option<(&str, char, &str)> {
    match effect {
        Effect::Add { unit, counter, .. } | Effect::Set { unit, counter, .. } => {
            Some((unit, 'c', counter))
        }
        Effect::Mark { unit, mark } | Effect::Clear { unit, mark } => Some((unit, 'm', mark)),
        Effect::Order { unit, .. } => Some((unit, 'o', "")),
        _ => None,
    }
}

/// `effects`, decided against `board`, with every change shared by many units said once
/// ([`Effect::Every`]) where that is shorter: the units of one side (or both) that the change
/// would change, but those named as exceptions. The board after them is the same.
///
/// Left as they are when the rules touched one thing of a unit twice (their order could then
/// matter) or already said a bulk change.
pub fn compact(board: &Board, effects: Vec<Effect>) -> Vec<Effect> {
    let mut seen = BTreeSet::new();
    for effect in &effects {
        if matches!(effect, Effect::Every { .. }) {
            return effects;
        }
        if let Some(key) = touched(effect)
            && !seen.insert(key)
        {
            return effects;
        }
    }
    let units: HashMap<&str, &BoardUnit> = board.units.iter().map(|u| (u.id.as_str(), u)).collect();
    // Each change with the effects that make it, on units it changes, in the effects' order.
    let mut groups: BTreeMap<UnitChange, Vec<(usize, &BoardUnit)>> = BTreeMap::new();
    for (at, effect) in effects.iter().enumerate() {
        let Some((id, change)) = UnitChange::of(effect) else {
            continue;
        };
        let Some(unit) = units.get(id).copied() else {
            continue;
        };
        if change.changes(unit) {
            groups.entry(change).or_default().push((at, unit));
        }
    }
    // Where each bulk effect goes (its group's first place) and the places it replaces.
    let mut bulk: BTreeMap<usize, Effect> = BTreeMap::new();
    let mut replaced = BTreeSet::new();
    for (change, members) in groups {
        if members.len() < FEWEST_FOR_BULK {
            continue;
        }
        let first_side = members[0].1.side;
        let side = members
            .iter()
            .all(|(_, u)| u.side == first_side)
            .then_some(first_side);
        let ids: BTreeSet<&str> = members.iter().map(|(_, u)| u.id.as_str()).collect();
        let key = change.touches();
        // Units it would change but the rules left, and units whose same counter, mark or
        // order another effect of the action changes (the bulk change must not undo it).
        let except: Vec<String> = board
            .units
            .iter()
            .filter(|u| selects(side, &[], u) && !ids.contains(u.id.as_str()))
            .filter(|u| change.changes(u) || seen.contains(&(u.id.as_str(), key.0, key.1)))
            .map(|u| u.id.clone())
            .collect();
        if except.len() >= members.len() {
            continue;
        }
        replaced.extend(members.iter().map(|(at, _)| *at));
        bulk.insert(
            members[0].0,
            Effect::Every {
                side,
                change,
                except,
            },
        );
    }
    if bulk.is_empty() {
        return effects;
    }
    effects
        .into_iter()
        .enumerate()
        .filter_map(|(at, effect)| match bulk.remove(&at) {
            Some(every) => Some(every),
            None if replaced.contains(&at) => None,
            None => Some(effect),
        })
        .collect()
}

#[cfg(test)]
mod tests;
