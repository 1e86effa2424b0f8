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

use rustc_hash::{FxHashMap, FxHashSet};

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
    /// The form `compact` groups by, borrowing this change's names.
    fn as_ref(&self) -> ChangeRef<'_> {
        match self {
            UnitChange::Set { counter, to } => ChangeRef::Set(counter, *to),
            UnitChange::Mark { mark } => ChangeRef::Mark(mark),
            UnitChange::Clear { mark } => ChangeRef::Clear(mark),
            UnitChange::Order { order } => ChangeRef::Order(order.as_deref()),
        }
    }

    /// Whether applying it leaves `unit` different.
    pub fn changes(&self, unit: &BoardUnit) -> bool {
        self.as_ref().changes(unit)
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

/// A [`UnitChange`] borrowing its names from the effect that says it: [`compact`] groups every
/// per-unit effect of an action by it, and cloning each effect's names would cost more than the
/// grouping.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum ChangeRef<'a> {
    Set(&'a str, i64),
    Mark(&'a str),
    Clear(&'a str),
    Order(Option<&'a str>),
}

impl<'a> ChangeRef<'a> {
    /// The unit and the change of a per-unit effect this form can say; `None` for an `Add`
    /// (no unit is left as it was by one) and for effects on a side or the battle.
    fn of(effect: &'a Effect) -> Option<(&'a str, ChangeRef<'a>)> {
        let change = match effect {
            Effect::Set { counter, to, .. } => ChangeRef::Set(counter, *to),
            Effect::Mark { mark, .. } => ChangeRef::Mark(mark),
            Effect::Clear { mark, .. } => ChangeRef::Clear(mark),
            Effect::Order { order, .. } => ChangeRef::Order(order.as_deref()),
            _ => return None,
        };
        effect.unit().map(|unit| (unit, change))
    }

    fn owned(self) -> UnitChange {
        match self {
            ChangeRef::Set(counter, to) => UnitChange::Set {
                counter: counter.to_string(),
                to,
            },
            ChangeRef::Mark(mark) => UnitChange::Mark {
                mark: mark.to_string(),
            },
            ChangeRef::Clear(mark) => UnitChange::Clear {
                mark: mark.to_string(),
            },
            ChangeRef::Order(order) => UnitChange::Order {
                order: order.map(str::to_string),
            },
        }
    }

    /// What of a unit it touches, as [`touched`] says it.
    fn touches(self) -> Touch<'a> {
        match self {
            ChangeRef::Set(counter, _) => Touch::Counter(counter),
            ChangeRef::Mark(mark) | ChangeRef::Clear(mark) => Touch::Mark(mark),
            ChangeRef::Order(_) => Touch::Order,
        }
    }

    fn changes(self, unit: &BoardUnit) -> bool {
        match self {
            ChangeRef::Set(counter, to) => unit.count(counter) != to,
            ChangeRef::Mark(mark) => !unit.has(mark),
            ChangeRef::Clear(mark) => unit.has(mark),
            ChangeRef::Order(order) => unit.order.as_deref() != order,
        }
    }
}

/// What of a unit an effect touches: a counter, a mark or its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Touch<'a> {
    Counter(&'a str),
    Mark(&'a str),
    Order,
}

/// Whether a bulk effect selects `unit`: of its side (any, when none) and not excepted.
pub fn selects(side: Option<Side>, except: &[String], unit: &BoardUnit) -> bool {
    side.is_none_or(|s| s == unit.side) && !except.contains(&unit.id)
}

/// What an effect on a unit touches (the unit, and the counter, the mark or its order), for
/// telling whether two effects could depend on their order.
fn touched(effect: &Effect) -> Option<(&str, Touch<'_>)> {
    match effect {
        Effect::Add { unit, counter, .. } | Effect::Set { unit, counter, .. } => {
            Some((unit, Touch::Counter(counter)))
        }
        Effect::Mark { unit, mark } | Effect::Clear { unit, mark } => {
            Some((unit, Touch::Mark(mark)))
        }
        Effect::Order { unit, .. } => Some((unit, Touch::Order)),
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
    if effects.iter().any(|e| matches!(e, Effect::Every { .. })) {
        return effects;
    }
    // Units by their place on the board: the checks below run for every unit once per kind of
    // change, so they look up places, not names; and names are hashed with Fx, not SipHash
    // (these are the rules' own names, and SipHash's cost was most of a 254-unit end of turn).
    let n = board.units.len();
    let place: FxHashMap<&str, usize> = board
        .units
        .iter()
        .enumerate()
        .map(|(at, u)| (u.id.as_str(), at))
        .collect();
    // The units on the board each thing is touched on, by place; and each effect's unit's place.
    let mut touched_on: FxHashMap<Touch, Vec<bool>> = FxHashMap::default();
    let mut off_board = FxHashSet::default();
    let mut places = Vec::with_capacity(effects.len());
    for effect in &effects {
        let Some((unit, touch)) = touched(effect) else {
            places.push(None);
            continue;
        };
        let at = place.get(unit).copied();
        places.push(at);
        let first = match at {
            Some(at) => {
                let on = touched_on.entry(touch).or_insert_with(|| vec![false; n]);
                !std::mem::replace(&mut on[at], true)
            }
            None => off_board.insert((unit, touch)),
        };
        if !first {
            return effects;
        }
    }
    // Each change with the effects that make it, on units it changes, in the effects' order.
    let mut groups: FxHashMap<ChangeRef, Vec<(usize, usize)>> = FxHashMap::default();
    for (at, effect) in effects.iter().enumerate() {
        let (Some((_, change)), Some(unit)) = (ChangeRef::of(effect), places[at]) else {
            continue;
        };
        if change.changes(&board.units[unit]) {
            groups.entry(change).or_default().push((at, unit));
        }
    }
    // Where each bulk effect goes (its group's first place) and the places it replaces: each
    // effect is in one group at most, so the groups' order does not matter.
    let mut bulk: Vec<Option<Effect>> = Vec::new();
    let mut replaced = vec![false; effects.len()];
    for (change, members) in groups {
        if members.len() < FEWEST_FOR_BULK {
            continue;
        }
        let first_side = board.units[members[0].1].side;
        let side = members
            .iter()
            .all(|&(_, u)| board.units[u].side == first_side)
            .then_some(first_side);
        let mut member = vec![false; n];
        for &(_, u) in &members {
            member[u] = true;
        }
        let other_effect = touched_on.get(&change.touches());
        // Units it would change but the rules left, and units whose same counter, mark or
        // order another effect of the action changes (the bulk change must not undo it).
        let except: Vec<String> = board
            .units
            .iter()
            .enumerate()
            .filter(|&(at, u)| side.is_none_or(|s| s == u.side) && !member[at])
            .filter(|&(at, u)| change.changes(u) || other_effect.is_some_and(|on| on[at]))
            .map(|(_, u)| u.id.clone())
            .collect();
        if except.len() >= members.len() {
            continue;
        }
        for &(at, _) in &members {
            replaced[at] = true;
        }
        if bulk.is_empty() {
            bulk.resize_with(effects.len(), || None);
        }
        bulk[members[0].0] = Some(Effect::Every {
            side,
            change: change.owned(),
            except,
        });
    }
    if bulk.is_empty() {
        return effects;
    }
    effects
        .into_iter()
        .enumerate()
        .filter_map(|(at, effect)| match bulk[at].take() {
            Some(every) => Some(every),
            None if replaced[at] => None,
            None => Some(effect),
        })
        .collect()
}

#[cfg(test)]
mod tests;
