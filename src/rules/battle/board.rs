//! The table of a battle, whatever its ruleset: each unit's card, its counters (casualties,
//! pins, hits, Disruption, strength), its marks (down, suppressed, tracked, destroyed), the
//! order beside it, each side's counters (command points, Army Morale), the battle's own
//! counters, the turn, and how the battle ended.
//!
//! What a counter or a mark means, which an action may change and how, is the ruleset's (its
//! `table_battle` module); the board only keeps them, so one fold, one log, one view and one
//! after-action report serve every ruleset.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};

use super::bulk::{self, UnitChange};
use super::{BattleError, Request, SIDES, Side, Sides, opponent};
use crate::rules::resolution::{CardPick, InputValue};
use crate::rules::{Card, RulesetId};

/// The mark of a unit out of the battle (destroyed, routed, broken and gone).
pub const DESTROYED: &str = "destroyed";
/// The mark of a unit lost in an earlier battle of a campaign that carries its losses: out of
/// this battle from the start, and no loss of it.
pub const LOST_EARLIER: &str = "lost_earlier";

/// A unit as the battle's plan fields it: its card and what it brings from earlier battles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableUnit {
    /// Unique in the battle ("first-3").
    pub id: String,
    /// As the table names it ("Rifle Squad 2").
    pub label: String,
    pub card: Card,
    /// Counters it starts with (losses carried, experience), by the ruleset's names.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub counters: BTreeMap<String, i64>,
    /// Marks it starts with ("veteran").
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub marks: BTreeSet<String>,
}

// Cards are read and checked before they reach a plan: their numbers are never NaN, so
// equality is an equivalence and plans can be compared as values.
impl Eq for TableUnit {}

/// "M4 75mm 2/2 (Tank Company 1)": copies of a card within a company are numbered the way
/// printed cards and briefing rosters number them, so two alike can be told apart at the
/// table; a single copy keeps the plain "M4 76mm (Tank Company 1)". `alike` holds the ids of
/// every unit of that card in that company, in plan order.
pub fn numbered_label(card: &str, company: &str, alike: &[&str], id: &str) -> String {
    match alike.iter().position(|a| *a == id) {
        Some(at) if alike.len() > 1 => {
            format!("{card} {}/{} ({company})", at + 1, alike.len())
        }
        _ => format!("{card} ({company})"),
    }
}

impl TableUnit {
    /// The unit stepped up a quality ladder from `from` to `to`, its card already changed by
    /// the caller: its label and its card's name say the new quality ("Regular Infantry Squad
    /// 2" → "Veteran Infantry Squad 2"; "Zulu Warriors" → "Zulu Warriors (Elite)").
    pub fn requalified(mut self, from: &str, to: &str) -> TableUnit {
        self.label = requalified(&self.label, from, to);
        let name = requalified(self.card.name(), from, to);
        self.card.data_mut().set_name(name);
        self
    }
}

/// `text` with the quality word `from` changed to `to`, or `to` added in brackets when the
/// word is not in it.
pub fn requalified(text: &str, from: &str, to: &str) -> String {
    let bare = |w: &str| {
        w.trim_matches(|c| c == '(' || c == ')')
            .eq_ignore_ascii_case(from)
    };
    if text.split(' ').any(bare) {
        text.split(' ')
            .map(|w| {
                if bare(w) {
                    w.replace(w.trim_matches(|c| c == '(' || c == ')'), to)
                } else {
                    w.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        format!("{text} ({to})")
    }
}

/// A battle of a campaign fought on a [`Board`]: two forces, their units with cards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TablePlan {
    pub ruleset: RulesetId,
    pub number: u32,
    pub name: String,
    /// The forces' names, first player under `us`.
    pub forces: Sides<String>,
    pub units: Sides<Vec<TableUnit>>,
}

impl TablePlan {
    /// The unit with this id, and its side.
    pub fn unit(&self, id: &str) -> Option<(Side, &TableUnit)> {
        SIDES.into_iter().find_map(|side| {
            self.units
                .get(side)
                .iter()
                .find(|u| u.id == id)
                .map(|u| (side, u))
        })
    }

    /// "Rifle Squad 2", or the id when no unit has it.
    pub fn label<'a>(&'a self, id: &'a str) -> &'a str {
        self.unit(id).map_or(id, |(_, u)| u.label.as_str())
    }

    /// A side as the table names it: its force's name, else "First player" / "Second
    /// player".
    pub fn side_name(&self, side: Side) -> String {
        let force = self.forces.get(side).trim();
        if !force.is_empty() {
            return force.to_string();
        }
        match side {
            Side::First => "First player".to_string(),
            Side::Second => "Second player".to_string(),
        }
    }
}

/// What a scripted campaign's briefing sets before the first move, beside its plan's units:
/// each side's counters (command dice, Staff Orders, Army Morale) and the battle's own (which
/// rule gives the first pulse), with the words a briefing says (when, where, how it is won).
/// A battle between two saved forces has none: its ruleset's house defaults apply.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Opening {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub time: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub place: String,
    /// How the battle is won, in the briefing's words.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub victory: String,
    /// Each side's counters at the start, by the ruleset's names.
    #[serde(default)]
    pub sides: Sides<BTreeMap<String, i64>>,
    /// The battle's own counters at the start.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub counters: BTreeMap<String, i64>,
}

impl Opening {
    /// The board as the briefing opens it: its counters over what the ruleset started with.
    pub fn set_up(&self, board: &mut Board) {
        for side in SIDES {
            for (key, value) in self.sides.get(side) {
                board.sides.get_mut(side).insert(key.clone(), *value);
            }
        }
        for (key, value) in &self.counters {
            board.counters.insert(key.clone(), *value);
        }
    }
}

/// One unit on the table.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardUnit {
    pub id: String,
    pub side: Side,
    pub label: String,
    pub card: Card,
    pub counters: BTreeMap<String, i64>,
    pub marks: BTreeSet<String>,
    /// The order (or activation) beside it this turn.
    pub order: Option<String>,
}

impl BoardUnit {
    /// A counter's value (0 when never set).
    pub fn count(&self, counter: &str) -> i64 {
        self.counters.get(counter).copied().unwrap_or(0)
    }

    pub fn has(&self, mark: &str) -> bool {
        self.marks.contains(mark)
    }

    /// Still in the battle.
    pub fn in_play(&self) -> bool {
        !self.has(DESTROYED)
    }

    pub fn name(&self) -> &str {
        self.card.name()
    }

    /// Its card as a mechanic's card input: the book's card, as the battle fields it.
    pub fn card_input(&self) -> InputValue {
        InputValue::Card(Some(CardPick::book(&self.card)))
    }

    /// The unit as the roster takes it into the next battle: the same card, these counters, no
    /// marks (what a ruleset's `carry` keeps is its own choice of counters).
    pub fn carried(&self, counters: BTreeMap<String, i64>) -> TableUnit {
        TableUnit {
            id: self.id.clone(),
            label: self.label.clone(),
            card: self.card.clone(),
            counters,
            marks: BTreeSet::new(),
        }
    }
}

/// The battle now: the fold of its events.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Board {
    /// Whose rules it is played by (`None` only for an empty board).
    pub ruleset: Option<RulesetId>,
    /// 1 from the start; [`Effect::NextTurn`] adds one.
    pub turn: u32,
    pub units: Vec<BoardUnit>,
    /// Each side's counters (command points, the commander die's face).
    pub sides: Sides<BTreeMap<String, i64>>,
    /// The battle's own counters, of neither side (whose pulse it is, which side went first).
    pub counters: BTreeMap<String, i64>,
    /// Over: the winner (`None`: a draw) and why.
    pub outcome: Option<(Option<Side>, String)>,
}

impl Board {
    /// Every unit of the plan as it starts (its carried counters and marks), turn 1.
    pub fn from_plan(plan: &TablePlan) -> Board {
        let units = SIDES
            .into_iter()
            .flat_map(|side| {
                plan.units.get(side).iter().map(move |u| BoardUnit {
                    id: u.id.clone(),
                    side,
                    label: u.label.clone(),
                    card: u.card.clone(),
                    counters: u.counters.clone(),
                    marks: u.marks.clone(),
                    order: None,
                })
            })
            .collect();
        Board {
            ruleset: Some(plan.ruleset),
            turn: 1,
            units,
            sides: Sides::default(),
            counters: BTreeMap::new(),
            outcome: None,
        }
    }

    pub fn unit(&self, id: &str) -> Option<&BoardUnit> {
        self.units.iter().find(|u| u.id == id)
    }

    fn unit_mut(&mut self, id: &str) -> Option<&mut BoardUnit> {
        self.units.iter_mut().find(|u| u.id == id)
    }

    /// The unit a player names: by its id, its label, its label without the company in brackets
    /// ("M4 75mm 1/2" for "M4 75mm 1/2 (Tank Company 1)") or its card when only one unit
    /// carries it; any case.
    ///
    /// # Errors
    /// No unit is so named (with the nearest names, or every label), or several are (with
    /// their labels).
    pub fn find_unit(&self, name: &str) -> Result<&BoardUnit, String> {
        let wanted = name.trim().to_lowercase();
        let short = |label: &str| label.split(" (").next().unwrap_or(label).to_lowercase();
        let by = |pick: &dyn Fn(&BoardUnit) -> bool| -> Vec<&BoardUnit> {
            self.units.iter().filter(|u| pick(u)).collect()
        };
        let exact = by(&|u| u.id.to_lowercase() == wanted || u.label.to_lowercase() == wanted);
        let shortened = by(&|u| short(&u.label) == wanted);
        let carrying = by(&|u| u.name().to_lowercase() == wanted);
        match (exact.as_slice(), shortened.as_slice(), carrying.as_slice()) {
            ([one, ..], _, _) | ([], [one], _) | ([], [], [one]) => Ok(one),
            ([], [], []) => {
                let labels: Vec<&str> = self.units.iter().map(|u| u.label.as_str()).collect();
                let nearest = crate::rules::names::nearest_among(
                    self.units
                        .iter()
                        .map(|u| (u.label.as_str(), vec![u.label.as_str(), u.id.as_str()])),
                    name,
                );
                Err(if nearest.is_empty() {
                    format!(
                        "no unit {} in this battle (units: {})",
                        name.trim(),
                        labels.join(", ")
                    )
                } else {
                    format!(
                        "no unit {} in this battle; did you mean {}?",
                        name.trim(),
                        nearest.join(", ")
                    )
                })
            }
            ([], several, carrying) => {
                let several = if several.is_empty() {
                    carrying
                } else {
                    several
                };
                let labels: Vec<&str> = several.iter().map(|u| u.label.as_str()).collect();
                Err(format!(
                    "{} names several units: {}",
                    name.trim(),
                    labels.join(", ")
                ))
            }
        }
    }

    /// The units of `side`, in the plan's order.
    pub fn side_units(&self, side: Side) -> impl Iterator<Item = &BoardUnit> {
        self.units.iter().filter(move |u| u.side == side)
    }

    /// The enemy unit `request` aims `actor` at, still in the battle; `what` names a target in
    /// the ruleset's words ("tank", "unit").
    ///
    /// # Errors
    /// No target given, no such unit, a unit of the actor's own side or one out of the battle.
    pub fn enemy_target(
        &self,
        actor: &BoardUnit,
        request: &super::Request,
        what: &str,
    ) -> Result<&BoardUnit, super::BattleError> {
        let id = request
            .target
            .as_deref()
            .ok_or_else(|| super::BattleError::Invalid {
                field: "target",
                message: format!("{} needs an enemy {what} as its target", request.action),
            })?;
        let target = self
            .unit(id)
            .ok_or_else(|| super::BattleError::UnknownUnit(id.to_string()))?;
        if target.side == actor.side {
            return Err(super::BattleError::not_allowed(format!(
                "{} is on {}'s own side: the target must be an enemy {what}",
                target.label, actor.label
            )));
        }
        if !target.in_play() {
            return Err(super::BattleError::not_allowed(format!(
                "{} is out of the battle",
                target.label
            )));
        }
        Ok(target)
    }

    /// The unit `request` acts with: named, on the board, still in the battle and of the
    /// request's side, if it names one; `what` names a unit in the ruleset's words ("tank").
    ///
    /// # Errors
    /// No unit named, no such unit, one out of the battle or of the other side.
    pub fn actor(&self, request: &Request, what: &str) -> Result<&BoardUnit, BattleError> {
        let id = request.unit.as_deref().ok_or(BattleError::Invalid {
            field: "unit",
            message: format!(
                "{} needs the {what} that acts",
                request.action.replace('_', " ")
            ),
        })?;
        let unit = self
            .unit(id)
            .ok_or_else(|| BattleError::UnknownUnit(id.to_string()))?;
        if !unit.in_play() {
            return Err(BattleError::not_allowed(format!(
                "{} is out of the battle",
                unit.label
            )));
        }
        if request.side.is_some_and(|side| side != unit.side) {
            return Err(BattleError::not_allowed(format!(
                "{} is not of the side acting",
                unit.label
            )));
        }
        Ok(unit)
    }

    /// The ids of `side`'s enemies still in the battle, in the plan's order.
    pub fn enemies_in_play(&self, side: Side) -> Vec<String> {
        self.side_units(opponent(side))
            .filter(|u| u.in_play())
            .map(|u| u.id.clone())
            .collect()
    }

    /// The board once `effects` are applied.
    pub fn after(&self, effects: &[Effect]) -> Board {
        let mut after = self.clone();
        for effect in effects {
            after.apply(effect);
        }
        after
    }

    /// The end of the battle once `effects` leave a side with no unit in play: the other
    /// side wins, or a draw when neither has one left. `reason` words it in the ruleset's
    /// terms: for the side left with nothing, or `None` when both are.
    pub fn wiped_out(
        &self,
        effects: &[Effect],
        reason: impl Fn(Option<Side>) -> String,
    ) -> Option<Effect> {
        // Read off the effects rather than a copy of the board after them: deciding an action
        // costs what it touches, not a copy of every unit and its card.
        let mut destroyed: HashMap<&str, bool> = HashMap::new();
        for effect in effects {
            match effect {
                Effect::Mark { unit, mark } if mark == DESTROYED => {
                    destroyed.insert(unit, true);
                }
                Effect::Clear { unit, mark } if mark == DESTROYED => {
                    destroyed.insert(unit, false);
                }
                Effect::Every {
                    change: UnitChange::Mark { mark } | UnitChange::Clear { mark },
                    ..
                } if mark == DESTROYED => {
                    return self
                        .after(effects)
                        .wiped_out_after_by(BoardUnit::in_play, reason);
                }
                _ => {}
            }
        }
        let in_play = |u: &BoardUnit| {
            destroyed
                .get(u.id.as_str())
                .map_or_else(|| u.in_play(), |gone| !gone)
        };
        self.wiped_out_after_by(in_play, reason)
    }

    /// The end of the battle when, by `in_play`, a side has no unit left.
    fn wiped_out_after_by(
        &self,
        in_play: impl Fn(&BoardUnit) -> bool,
        reason: impl Fn(Option<Side>) -> String,
    ) -> Option<Effect> {
        let gone: Vec<Side> = SIDES
            .into_iter()
            .filter(|&side| !self.side_units(side).any(&in_play))
            .collect();
        match gone.as_slice() {
            [] => None,
            [side] => Some(Effect::Ends {
                winner: Some(opponent(*side)),
                reason: reason(Some(*side)),
            }),
            _ => Some(Effect::Ends {
                winner: None,
                reason: reason(None),
            }),
        }
    }

    /// A side's counter (0 when never set).
    pub fn side_count(&self, side: Side, counter: &str) -> i64 {
        self.sides.get(side).get(counter).copied().unwrap_or(0)
    }

    /// One of the battle's own counters (0 when never set).
    pub fn battle_count(&self, counter: &str) -> i64 {
        self.counters.get(counter).copied().unwrap_or(0)
    }

    /// Units lost in the campaign's earlier battles taken off before the first move: for each
    /// card named in `carried`, one unit of that card still in the battle.
    pub fn remove_carried_losses(&mut self, carried: &Sides<Vec<String>>) {
        for side in SIDES {
            for card in carried.get(side) {
                if let Some(unit) = self
                    .units
                    .iter_mut()
                    .find(|u| u.side == side && u.in_play() && u.name() == card)
                {
                    unit.marks.insert(LOST_EARLIER.to_string());
                    unit.marks.insert(DESTROYED.to_string());
                }
            }
        }
    }

    /// The card names of the units of `side` lost in this battle (not those lost before it):
    /// what a campaign that carries its losses takes off in the next.
    pub fn lost_cards(&self, side: Side) -> Vec<String> {
        self.side_units(side)
            .filter(|u| !u.in_play() && !u.has(LOST_EARLIER))
            .map(|u| u.name().to_string())
            .collect()
    }

    /// The effects that turn this board into `after`: what an action did, read off the two
    /// boards (a counter at 0 and one never set are the same).
    pub fn changes_to(&self, after: &Board) -> Vec<Effect> {
        let mut effects = Vec::new();
        for unit in &after.units {
            let Some(before) = self.unit(&unit.id) else {
                continue;
            };
            for key in counter_keys(&before.counters, &unit.counters) {
                let by = unit.count(key) - before.count(key);
                if by != 0 {
                    effects.push(Effect::add(&unit.id, key, by));
                }
            }
            for mark in unit.marks.difference(&before.marks) {
                effects.push(Effect::mark(&unit.id, mark));
            }
            for mark in before.marks.difference(&unit.marks) {
                effects.push(Effect::clear(&unit.id, mark));
            }
            if unit.order != before.order {
                effects.push(Effect::order(&unit.id, unit.order.as_deref()));
            }
        }
        for side in SIDES {
            let (was, now) = (self.sides.get(side), after.sides.get(side));
            for key in counter_keys(was, now) {
                let by = after.side_count(side, key) - self.side_count(side, key);
                if by != 0 {
                    effects.push(Effect::side_add(side, key, by));
                }
            }
        }
        for key in counter_keys(&self.counters, &after.counters) {
            let to = after.battle_count(key);
            if to != self.battle_count(key) {
                effects.push(Effect::battle_set(key, to));
            }
        }
        for _ in self.turn..after.turn {
            effects.push(Effect::NextTurn);
        }
        if after.outcome != self.outcome
            && let Some((winner, reason)) = &after.outcome
        {
            effects.push(Effect::Ends {
                winner: *winner,
                reason: reason.clone(),
            });
        }
        effects
    }

    /// One effect applied. Lenient like every fold: an effect on a unit that is not on the
    /// board changes nothing.
    pub fn apply(&mut self, effect: &Effect) {
        match effect {
            Effect::Add { unit, counter, by } => {
                if let Some(u) = self.unit_mut(unit) {
                    *u.counters.entry(counter.clone()).or_default() += by;
                }
            }
            Effect::Set { unit, counter, to } => {
                if let Some(u) = self.unit_mut(unit) {
                    u.counters.insert(counter.clone(), *to);
                }
            }
            Effect::Mark { unit, mark } => {
                if let Some(u) = self.unit_mut(unit) {
                    u.marks.insert(mark.clone());
                }
            }
            Effect::Clear { unit, mark } => {
                if let Some(u) = self.unit_mut(unit) {
                    u.marks.remove(mark);
                }
            }
            Effect::Order { unit, order } => {
                if let Some(u) = self.unit_mut(unit) {
                    u.order = order.clone();
                }
            }
            Effect::SideAdd { side, counter, by } => {
                *self
                    .sides
                    .get_mut(*side)
                    .entry(counter.clone())
                    .or_default() += by;
            }
            Effect::SideSet { side, counter, to } => {
                self.sides.get_mut(*side).insert(counter.clone(), *to);
            }
            Effect::BattleSet { counter, to } => {
                self.counters.insert(counter.clone(), *to);
            }
            Effect::Every {
                side,
                change,
                except,
            } => {
                for u in &mut self.units {
                    if bulk::selects(*side, except, u) {
                        change.apply(u);
                    }
                }
            }
            Effect::NextTurn => self.turn += 1,
            Effect::Ends { winner, reason } => self.outcome = Some((*winner, reason.clone())),
        }
    }

    /// Labels of the units of `side` out of the battle (not those lost before it began).
    pub fn losses(&self, side: Side) -> Vec<String> {
        self.side_units(side)
            .filter(|u| !u.in_play() && !u.has(LOST_EARLIER))
            .map(|u| u.label.clone())
            .collect()
    }
}

/// Every key of two counter maps, once each, in order.
fn counter_keys<'a>(
    before: &'a BTreeMap<String, i64>,
    after: &'a BTreeMap<String, i64>,
) -> BTreeSet<&'a str> {
    before
        .keys()
        .chain(after.keys())
        .map(String::as_str)
        .collect()
}

/// One change an action makes to the board, recorded in its event (so a log read elsewhere
/// shows what happened without this build's rules, and verification compares them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// A unit's counter changes by `by` (2 casualties, 1 pin, −1 pin rallied).
    Add {
        unit: String,
        counter: String,
        by: i64,
    },
    Set {
        unit: String,
        counter: String,
        to: i64,
    },
    Mark {
        unit: String,
        mark: String,
    },
    Clear {
        unit: String,
        mark: String,
    },
    /// The order beside a unit (`None`: its die goes back to the bag).
    Order {
        unit: String,
        #[serde(default)]
        order: Option<String>,
    },
    SideAdd {
        side: Side,
        counter: String,
        by: i64,
    },
    SideSet {
        side: Side,
        counter: String,
        to: i64,
    },
    /// One of the battle's own counters (whose pulse it is).
    BattleSet {
        counter: String,
        to: i64,
    },
    /// One change to many units: each unit of `side` (of both, when none) but those in
    /// `except` that it changes ([`super::bulk`]). The end of a turn records the rule so,
    /// not each unit, so its event does not grow with the units on the table.
    Every {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side: Option<Side>,
        change: UnitChange,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        except: Vec<String>,
    },
    NextTurn,
    /// The rules end the battle (a force broken, the last unit gone).
    Ends {
        winner: Option<Side>,
        reason: String,
    },
}

impl Effect {
    pub fn add(unit: &str, counter: &str, by: i64) -> Effect {
        Effect::Add {
            unit: unit.to_string(),
            counter: counter.to_string(),
            by,
        }
    }

    pub fn set(unit: &str, counter: &str, to: i64) -> Effect {
        Effect::Set {
            unit: unit.to_string(),
            counter: counter.to_string(),
            to,
        }
    }

    pub fn mark(unit: &str, mark: &str) -> Effect {
        Effect::Mark {
            unit: unit.to_string(),
            mark: mark.to_string(),
        }
    }

    pub fn clear(unit: &str, mark: &str) -> Effect {
        Effect::Clear {
            unit: unit.to_string(),
            mark: mark.to_string(),
        }
    }

    pub fn order(unit: &str, order: Option<&str>) -> Effect {
        Effect::Order {
            unit: unit.to_string(),
            order: order.map(str::to_string),
        }
    }

    pub fn side_add(side: Side, counter: &str, by: i64) -> Effect {
        Effect::SideAdd {
            side,
            counter: counter.to_string(),
            by,
        }
    }

    pub fn side_set(side: Side, counter: &str, to: i64) -> Effect {
        Effect::SideSet {
            side,
            counter: counter.to_string(),
            to,
        }
    }

    pub fn battle_set(counter: &str, to: i64) -> Effect {
        Effect::BattleSet {
            counter: counter.to_string(),
            to,
        }
    }

    /// The unit it concerns, if one.
    pub fn unit(&self) -> Option<&str> {
        match self {
            Effect::Add { unit, .. }
            | Effect::Set { unit, .. }
            | Effect::Mark { unit, .. }
            | Effect::Clear { unit, .. }
            | Effect::Order { unit, .. } => Some(unit),
            _ => None,
        }
    }

    /// In words, naming units by `label` ("Rifle Squad 2: pins +1").
    pub fn describe(
        &self,
        label: &dyn Fn(&str) -> String,
        side_name: &dyn Fn(Side) -> String,
    ) -> String {
        let signed = |by: i64| {
            if by >= 0 {
                format!("+{by}")
            } else {
                by.to_string()
            }
        };
        let words = |key: &str| key.replace('_', " ");
        match self {
            Effect::Add { unit, counter, by } => {
                format!("{}: {} {}", label(unit), words(counter), signed(*by))
            }
            Effect::Set { unit, counter, to } => {
                format!("{}: {} {to}", label(unit), words(counter))
            }
            Effect::Mark { unit, mark } => format!("{} is {}", label(unit), words(mark)),
            Effect::Clear { unit, mark } => format!("{} is no longer {}", label(unit), words(mark)),
            Effect::Order {
                unit,
                order: Some(order),
            } => {
                format!("{}: order {}", label(unit), words(order))
            }
            Effect::Order { unit, order: None } => format!("{}: no order", label(unit)),
            Effect::SideAdd { side, counter, by } => {
                format!("{}: {} {}", side_name(*side), words(counter), signed(*by))
            }
            Effect::SideSet { side, counter, to } => {
                format!("{}: {} {to}", side_name(*side), words(counter))
            }
            Effect::BattleSet { counter, to } => format!("{} {to}", words(counter)),
            Effect::Every {
                side,
                change,
                except,
            } => {
                let whom = match side {
                    Some(side) => format!("every unit of {}", side_name(*side)),
                    None => "every unit".to_string(),
                };
                let but = if except.is_empty() {
                    String::new()
                } else {
                    let names: Vec<String> = except.iter().map(|u| label(u)).collect();
                    format!(" but {}", names.join(", "))
                };
                format!("{whom}{but}: {}", change.words())
            }
            Effect::NextTurn => "a new turn begins".to_string(),
            Effect::Ends {
                winner: Some(side),
                reason,
            } => format!("{} wins: {reason}", side_name(*side)),
            Effect::Ends {
                winner: None,
                reason,
            } => format!("a draw: {reason}"),
        }
    }
}
