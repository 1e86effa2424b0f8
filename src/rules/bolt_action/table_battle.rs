//! Bolt Action on the generic battle board ([`Board`]): the campaign's log, undo, sync,
//! verification and the tracker serve it through [`TableRules`].
//!
//! The rules stay decided in one place, the typed [`Battle`] of `battle.rs`: every action
//! reads the board into a `Battle`, carries out the one transition it names there
//! (`draw`/`draw_with`, `give_order`, `shot` with `take_hits` or `vehicle_hit`,
//! `close_quarters`, `vehicle_assault`, `rally`, `end_turn`) and records the difference as
//! the board's [`Effect`]s. The dice go through the registered mechanics
//! (`roll_mechanic`), and the typed outcome is read by replaying the very faces they rolled
//! through the mechanic's own typed roll — so the report, the event and the state agree.
//!
//! What the board keeps (the names players read):
//! - unit counters [`MODELS`] (from the card: a house default, the sheets print no unit
//!   sizes), [`CASUALTIES`], [`PINS`];
//! - unit marks [`IMMOBILISED`], [`DESTROYED`], [`FUBAR`] (the order came from the FUBAR
//!   chart), [`DONE`] (the order has been carried out), [`DOWN`] and [`AMBUSH`] (that order
//!   kept from the turn before, its die out of the bag);
//! - the order die beside a unit in [`BoardUnit::order`] (`fire`, `advance`, `run`,
//!   `ambush`, `rally`, `down`);
//! - the side counter [`DRAWN`]: 1 while a die of that colour is drawn and not yet given.
//!   The bag itself is not stored: it holds one die per unit in play without an order, less
//!   the one drawn.
//!
//! Revisions (RULINGS "Revisions"): under revision 1 a unit fired one weapon a Fire order (its
//! player chose which, and how many models), a FUBAR Friendly Fire shot at the enemy, and a
//! unit that fired from Ambush kept its die over the turn's end. Revision 2 follows the sheet:
//! a unit fires every model's weapon under one order ([`super::unit_fire`]), a Friendly Fire
//! shoots a friendly unit the opposing player picks or goes Down when there is none, and only
//! a unit still waiting in Ambush keeps its die. Events recorded under revision 1 are decided
//! again under it.
//!
//! House defaults (new, the reference sheets give no game length, scenario or unit sizes):
//! the battle ends after turn [`LAST_TURN`] (no seventh turn), or at once when a side has no
//! unit left; the winner is the side that destroyed more enemy units (the score), equal is
//! a draw. A soft-skinned vehicle hit by a damaging shot is destroyed (as the sheet says of
//! assaults). Between battles casualties stay, pins go, an immobilised vehicle is repaired,
//! a destroyed unit is lost. Promotion (Inexperienced → Regular → Veteran) is a HOUSE RULE.

use std::collections::BTreeMap;

use super::battle::{
    self as typed, AMBUSH_FIRED_RELEASED, Action as Step, Battle, BattleUnit, GivenOrder, UnitId,
    bag_index, colour as side_words,
};
use super::close_quarters::{self, AssaultEnd, mechanics as cq};
use super::resolve as ba;
use super::tables::{OrderKind, Quality};
use super::vehicle_damage::{KnockOut, VehicleAfter};
use super::{Category as Kind, UnitProfile, mechanics};
use crate::rules::HouseDefault;
use crate::rules::battle::board::{Board, BoardUnit, DESTROYED, Effect, TablePlan, TableUnit};
use crate::rules::battle::standing::{Badge, Strength, Tally, Tone, TurnStanding, UnitStanding};
use crate::rules::battle::table::{
    Resolved, TableEvent, TableRules, allowed_action, mechanic_defaults, mechanic_id, roll_mechanic,
};
use crate::rules::battle::{
    Action, BattleError, Category, DiceFrom, Limit, Request, SIDES, Side, Sides,
};
use crate::rules::dice::{Roller, TableDice};
use crate::rules::resolution::{
    self, Choice, InputSpec, InputValue, Inputs, MechanicId, ResolveError,
};
use crate::rules::{Card, RulesetId};

/// The revision of the Bolt Action rulings from which a unit fires every model's weapon and a
/// FUBAR Friendly Fire shoots a friendly unit (see the module docs).
pub const WHOLE_UNIT_FIRE: u32 = 2;

/// Models in the unit at the start (a counter; 1 for a vehicle).
pub const MODELS: &str = "models";
/// Models lost.
pub const CASUALTIES: &str = "casualties";
/// Pin markers.
pub const PINS: &str = "pins";
/// A vehicle that can never move again.
pub const IMMOBILISED: &str = "immobilised";
/// The order came from the FUBAR chart (Friendly Fire: fire; Panic: run).
pub const FUBAR: &str = "fubar";
/// The order has been carried out this turn (it shot, assaulted or rallied).
pub const DONE: &str = "done";
/// A Down order kept from the turn before (its die stayed out of the bag).
pub const DOWN: &str = "down";
/// An Ambush order kept from the turn before.
pub const AMBUSH: &str = "ambush";
/// Side counter: 1 while a die of the side's colour is drawn and not yet given.
pub const DRAWN: &str = "drawn";
/// New house default: the battle ends after this turn (the sheets give no game length).
pub const LAST_TURN: u32 = 6;

/// How the turn strip counts turns.
const TURN_WORDS: (&str, Option<u32>) = ("Turn", Some(LAST_TURN));

/// New house defaults for unit sizes (the sheets print no units): an infantry squad, a
/// two-man team (bazooka, light mortar), a crew of three (a fixed team weapon, a gun).
pub const SQUAD_MODELS: i64 = 10;
pub const TEAM_MODELS: i64 = 2;
pub const CREW_MODELS: i64 = 3;

const RULESET: RulesetId = RulesetId::BoltAction;

const ORDER_CHOICES: [Choice; 6] = [
    Choice::new("fire", "Fire"),
    Choice::new("advance", "Advance"),
    Choice::new("run", "Run"),
    Choice::new("ambush", "Ambush"),
    Choice::new("rally", "Rally"),
    Choice::new("down", "Down"),
];

/// How the die came out of the bag: drawn from it (by the app, or with the dice rolled at the
/// table the players say the colour that came out), or the colour named at once.
const DRAW_CHOICES: [Choice; 3] = [
    Choice::new("random", "Draw a die from the bag"),
    Choice::new("first", "A first player's die came out"),
    Choice::new("second", "A second player's die came out"),
];

/// The shooting inputs a player sets; the rest the battle decides from the board.
const SHOOT_PARAMS: [&str; 10] = [
    "weapon",
    "firers",
    "he",
    "point_blank",
    "long_range",
    "small_unit",
    "cover",
    "facing",
    "massive_damage",
    "indirect",
];

const VEHICLE_ASSAULT_PARAMS: [&str; 2] = ["officer", "anti_tank"];

/// Bolt Action as a [`TableRules`].
pub struct BoltActionBattle;

fn order_key(order: OrderKind) -> &'static str {
    match order {
        OrderKind::Fire => "fire",
        OrderKind::Advance => "advance",
        OrderKind::Run => "run",
        OrderKind::Ambush => "ambush",
        OrderKind::Rally => "rally",
        OrderKind::Down => "down",
    }
}

fn order_of(key: &str) -> Option<OrderKind> {
    OrderKind::ALL.into_iter().find(|o| order_key(*o) == key)
}

/// The mark of an order kept from the turn before, for the orders that may be kept.
fn kept_mark(order: OrderKind) -> Option<&'static str> {
    match order {
        OrderKind::Down => Some(DOWN),
        OrderKind::Ambush => Some(AMBUSH),
        _ => None,
    }
}

fn profile(unit: &BoardUnit) -> Result<&UnitProfile, BattleError> {
    match &unit.card {
        Card::BoltAction(p) => Ok(p),
        _ => Err(BattleError::Invalid {
            field: "card",
            message: format!("{} is not a Bolt Action unit", unit.label),
        }),
    }
}

/// Models a unit of this card fields (new house default, see the consts).
pub fn starting_models(card: &Card) -> i64 {
    let Card::BoltAction(p) = card else {
        return 1;
    };
    if p.category.is_vehicle() {
        return 1;
    }
    if p.category == Kind::Artillery {
        return CREW_MODELS;
    }
    let tags = p
        .mounted_weapons()
        .into_iter()
        .next()
        .and_then(|(_, w)| w)
        .map(|w| w.special)
        .unwrap_or_default();
    let has = |tag: &str| tags.iter().any(|t| t == tag);
    match (has("Team"), has("Fixed")) {
        (true, true) => CREW_MODELS,
        (true, false) => TEAM_MODELS,
        _ => SQUAD_MODELS,
    }
}

fn count(unit: &BoardUnit, counter: &str) -> u32 {
    u32::try_from(unit.count(counter).max(0)).unwrap_or(u32::MAX)
}

/// The board read as the typed battle: unit `i` of the board is `UnitId(i)`.
fn typed_battle(board: &Board) -> Result<Battle, BattleError> {
    let mut units = Vec::with_capacity(board.units.len());
    for u in &board.units {
        let card = profile(u)?;
        // The typed battle names units in its refusals: the table's label reads better.
        let profile = typed::UnitKind {
            name: u.label.clone(),
            quality: card.quality,
            category: card.category,
        };
        let order = match &u.order {
            None => None,
            Some(key) => {
                let order = order_of(key).ok_or_else(|| BattleError::Invalid {
                    field: "order",
                    message: format!("{}: '{key}' is not a Bolt Action order", u.label),
                })?;
                let fubar = u.has(FUBAR).then(|| {
                    if order == OrderKind::Fire {
                        "Friendly Fire".to_string()
                    } else {
                        "Panic".to_string()
                    }
                });
                Some(GivenOrder {
                    order,
                    kept: kept_mark(order).is_some_and(|mark| u.has(mark)),
                    fubar,
                    done: u.has(DONE),
                })
            }
        };
        units.push(BattleUnit {
            profile,
            side: u.side,
            models: count(u, MODELS).max(1),
            casualties: count(u, CASUALTIES),
            pins: count(u, PINS),
            order,
            immobilised: u.has(IMMOBILISED),
            destroyed: !u.in_play(),
        });
    }
    let drawn = SIDES.into_iter().find(|s| board.side_count(*s, DRAWN) > 0);
    let mut bag = [0u32, 0];
    for u in units.iter().filter(|u| !u.destroyed && u.order.is_none()) {
        bag[bag_index(u.side)] += 1;
    }
    if let Some(side) = drawn {
        bag[bag_index(side)] = bag[bag_index(side)].saturating_sub(1);
    }
    Ok(Battle {
        turn: board.turn,
        units,
        bag,
        drawn,
    })
}

/// The board's changes from `before` to `after`: counters, orders, marks, the drawn die and
/// the turn, unit by unit in the board's order.
fn differences(board: &Board, before: &Battle, after: &Battle) -> Vec<Effect> {
    let mut effects = Vec::new();
    for ((unit, a), b) in board.units.iter().zip(&before.units).zip(&after.units) {
        let id = unit.id.as_str();
        let delta = |x: u32, y: u32| i64::from(y) - i64::from(x);
        if a.casualties != b.casualties {
            effects.push(Effect::add(
                id,
                CASUALTIES,
                delta(a.casualties, b.casualties),
            ));
        }
        if a.pins != b.pins {
            effects.push(Effect::add(id, PINS, delta(a.pins, b.pins)));
        }
        let key = |u: &BattleUnit| u.order.as_ref().map(|o| order_key(o.order));
        if key(a) != key(b) {
            effects.push(Effect::order(id, key(b)));
        }
        let marks = |u: &BattleUnit| {
            let given = u.order.as_ref();
            [
                (DONE, given.is_some_and(|o| o.done)),
                (
                    DOWN,
                    given.is_some_and(|o| o.kept && o.order == OrderKind::Down),
                ),
                (
                    AMBUSH,
                    given.is_some_and(|o| o.kept && o.order == OrderKind::Ambush),
                ),
                (FUBAR, given.is_some_and(|o| o.fubar.is_some())),
                (IMMOBILISED, u.immobilised),
                (DESTROYED, u.destroyed),
            ]
        };
        for ((mark, was), (_, is)) in marks(a).into_iter().zip(marks(b)) {
            match (was, is) {
                (false, true) => effects.push(Effect::mark(id, mark)),
                (true, false) => effects.push(Effect::clear(id, mark)),
                _ => {}
            }
        }
    }
    for side in SIDES {
        let was = before.drawn == Some(side);
        let is = after.drawn == Some(side);
        if was != is {
            effects.push(Effect::side_set(side, DRAWN, i64::from(is)));
        }
    }
    if after.turn > before.turn {
        effects.push(Effect::NextTurn);
    }
    effects
}

/// Enemy units destroyed, per side: the house default's victory measure.
fn destroyed_by(board: &Board) -> Sides<u32> {
    let lost = |side: Side| {
        u32::try_from(board.side_units(side).filter(|u| !u.in_play()).count()).unwrap_or(u32::MAX)
    };
    Sides {
        first: lost(Side::Second),
        second: lost(Side::First),
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "the first player",
        Side::Second => "the second player",
    }
}

/// The battle's end once a side has no unit left in play.
fn wiped_out(board: &Board, effects: &[Effect]) -> Option<Effect> {
    board.wiped_out(effects, |gone| match gone {
        Some(side) => format!("{} has no unit left", side_name(side)),
        None => "neither side has a unit left".to_string(),
    })
}

/// The end after the last turn: more enemy units destroyed wins (house default).
fn after_last_turn(board: &Board) -> Effect {
    let score = destroyed_by(board);
    let winner = match score.first.cmp(&score.second) {
        std::cmp::Ordering::Greater => Some(Side::First),
        std::cmp::Ordering::Less => Some(Side::Second),
        std::cmp::Ordering::Equal => None,
    };
    let verdict = winner.map_or("a draw".to_string(), |s| format!("{} wins", side_name(s)));
    Effect::Ends {
        winner,
        reason: format!(
            "turn {LAST_TURN} is over (house default): the first player destroyed {} enemy units, the second player {}; {verdict}",
            score.first, score.second
        ),
    }
}

fn typed_error(e: typed::BattleError) -> BattleError {
    match e {
        typed::BattleError::Rules(e) => BattleError::Resolve(e),
        typed::BattleError::Dice(e) => BattleError::from(e),
        other => BattleError::not_allowed(other.to_string()),
    }
}

fn unit_index(board: &Board, id: Option<&str>) -> Result<usize, BattleError> {
    let id = id.ok_or(BattleError::Invalid {
        field: "unit",
        message: "name the unit that acts".into(),
    })?;
    board
        .units
        .iter()
        .position(|u| u.id == id)
        .ok_or_else(|| BattleError::UnknownUnit(id.to_string()))
}

/// The target: a unit of the other side still in play (a friendly one for a FUBAR Friendly
/// Fire under revision 2).
fn target_index(
    board: &Board,
    acting: usize,
    request: &Request,
    friendly: bool,
) -> Result<usize, BattleError> {
    let id = request.target.as_deref().ok_or(BattleError::Invalid {
        field: "target",
        message: if friendly {
            "Friendly Fire: the opposing player chooses a friendly unit as the target".into()
        } else {
            "choose the enemy unit".into()
        },
    })?;
    let index = unit_index(board, Some(id))?;
    let (unit, target) = (&board.units[acting], &board.units[index]);
    if friendly {
        if target.side != unit.side || index == acting {
            return Err(BattleError::not_allowed(format!(
                "{} rolled FUBAR (Friendly Fire): it fires at a friendly unit the opposing player picks, not at {}",
                unit.label, target.label
            )));
        }
    } else if target.side == unit.side {
        return Err(BattleError::not_allowed(format!(
            "{} is on {}'s own side",
            target.label, unit.label
        )));
    }
    if !target.in_play() {
        return Err(BattleError::not_allowed(format!(
            "{} is destroyed",
            target.label
        )));
    }
    Ok(index)
}

fn is_vehicle(unit: &BoardUnit) -> bool {
    matches!(&unit.card, Card::BoltAction(p) if p.category.is_vehicle())
}

fn is_infantry(unit: &BoardUnit) -> bool {
    matches!(&unit.card, Card::BoltAction(p) if p.category == Kind::Infantry)
}

fn models_left(unit: &BoardUnit) -> i64 {
    (unit.count(MODELS).max(1) - unit.count(CASUALTIES)).max(0)
}

/// Models that fire in one attack under revision 1 (one weapon a Fire order): a vehicle, a
/// gun or a team fires its weapon once; a squad fires with every model left.
fn firers(unit: &BoardUnit) -> i64 {
    match &unit.card {
        Card::BoltAction(p) if p.category.is_vehicle() || p.category == Kind::Artillery => 1,
        card if starting_models(card) != SQUAD_MODELS => 1,
        _ => models_left(unit).max(1),
    }
}

/// A Choice parameter of the request, if given.
fn choice_param(request: &Request, key: &str) -> Option<&'static str> {
    match request.inputs.get(key) {
        Some(InputValue::Choice(choice)) => Some(choice),
        _ => None,
    }
}

/// The mechanic's defaults for `key`.
fn defaults(key: &str) -> Result<(MechanicId, Inputs), BattleError> {
    mechanic_defaults(RULESET, key)
}

/// The player's parameters of `action` under `revision` that are inputs of the mechanic,
/// over `inputs`.
fn with_params(inputs: &mut Inputs, action: &str, request: &Request, revision: u32) {
    for spec in BoltActionBattle::params_at(action, revision) {
        if inputs.get(spec.key).is_none() {
            continue;
        }
        if let Some(value) = request.inputs.get(spec.key) {
            inputs.set(spec.key, value.clone());
        }
    }
}

fn order_test_situation(
    board: &Board,
    request: &Request,
) -> Result<(MechanicId, Inputs), BattleError> {
    let unit = &board.units[unit_index(board, request.unit.as_deref())?];
    if unit.count(PINS) <= 0 {
        return Err(BattleError::not_allowed(format!(
            "{} has no pins: its order needs no test",
            unit.label
        )));
    }
    let (id, mut inputs) = defaults("order_test")?;
    inputs.set("unit", unit.card_input());
    inputs.set("pins", InputValue::Count(unit.count(PINS)));
    with_params(&mut inputs, "order", request, WHOLE_UNIT_FIRE);
    Ok((id, inputs))
}

/// Whether `unit` carries out a FUBAR Friendly Fire: a Fire order from the chart.
fn friendly_fire(unit: &BoardUnit) -> bool {
    unit.has(FUBAR) && unit.order.as_deref() == Some("fire")
}

/// The shot as the rules of `revision` take it: the whole unit's fire at its target (a
/// friendly one for a Friendly Fire), or under revision 1 one weapon fired by the models the
/// player said.
fn shooting_situation(
    board: &Board,
    request: &Request,
    revision: u32,
) -> Result<(MechanicId, Inputs), BattleError> {
    let acting = unit_index(board, request.unit.as_deref())?;
    let whole = revision >= WHOLE_UNIT_FIRE;
    let friendly = whole && friendly_fire(&board.units[acting]);
    let target = &board.units[target_index(board, acting, request, friendly)?];
    let unit = &board.units[acting];
    let (id, mut inputs) = defaults("shooting")?;
    inputs.set("unit", unit.card_input());
    inputs.set("pins", InputValue::Count(unit.count(PINS)));
    if whole {
        inputs.set("weapon", InputValue::Choice(mechanics::UNIT_FIRE));
        inputs.set("firers", InputValue::Count(models_left(unit).max(1)));
    } else {
        inputs.set("firers", InputValue::Count(firers(unit)));
    }
    inputs.set(
        "moving",
        InputValue::Flag(unit.order.as_deref() == Some("advance")),
    );
    inputs.set("target", target.card_input());
    inputs.set(
        "target_down",
        InputValue::Flag(target.order.as_deref() == Some("down") && !is_vehicle(target)),
    );
    inputs.set("immobilised", InputValue::Flag(target.has(IMMOBILISED)));
    inputs.set("target_pins", InputValue::Count(target.count(PINS)));
    with_params(&mut inputs, "shoot", request, revision);
    let most = firers(unit);
    if !whole && inputs.count("firers") > most {
        return Err(BattleError::Invalid {
            field: "firers",
            message: format!(
                "{} models firing: {} has {most} that can",
                inputs.count("firers"),
                unit.label
            ),
        });
    }
    Ok((id, inputs))
}

fn close_quarters_situation(
    board: &Board,
    request: &Request,
) -> Result<(MechanicId, Inputs), BattleError> {
    let acting = unit_index(board, request.unit.as_deref())?;
    let target = &board.units[target_index(board, acting, request, false)?];
    if is_vehicle(target) {
        return Err(BattleError::not_allowed(format!(
            "{} is a vehicle: assault it as one",
            target.label
        )));
    }
    let unit = &board.units[acting];
    let (id, mut inputs) = defaults("close_quarters")?;
    inputs.set("unit", unit.card_input());
    inputs.set("models", InputValue::Count(models_left(unit)));
    inputs.set("target", target.card_input());
    inputs.set("target_models", InputValue::Count(models_left(target)));
    Ok((id, inputs))
}

/// How the vehicle moved this turn, as its order shows.
fn vehicle_motion(vehicle: &BoardUnit) -> &'static str {
    match vehicle.order.as_deref() {
        _ if vehicle.has(IMMOBILISED) => "still",
        Some("run") => "ran",
        Some("advance") => "advanced",
        _ => "still",
    }
}

fn vehicle_assault_situation(
    board: &Board,
    request: &Request,
) -> Result<(MechanicId, Inputs), BattleError> {
    let acting = unit_index(board, request.unit.as_deref())?;
    let target = &board.units[target_index(board, acting, request, false)?];
    if !is_vehicle(target) {
        return Err(BattleError::not_allowed(format!(
            "{} is not a vehicle: fight it in close quarters",
            target.label
        )));
    }
    let unit = &board.units[acting];
    let (id, mut inputs) = defaults("vehicle_assault")?;
    inputs.set("unit", unit.card_input());
    inputs.set("models", InputValue::Count(models_left(unit)));
    // The sheet's −3 test is an order test: it counts the unit's pins as every order test
    // does (a pinned unit has also tested for its Run order: new house default, the sheet
    // does not say the two are one).
    inputs.set("pins", InputValue::Count(unit.count(PINS)));
    inputs.set("target", target.card_input());
    inputs.set("vehicle_move", InputValue::Choice(vehicle_motion(target)));
    inputs.set("immobilised", InputValue::Flag(target.has(IMMOBILISED)));
    inputs.set("target_pins", InputValue::Count(target.count(PINS)));
    with_params(&mut inputs, "assault_vehicle", request, WHOLE_UNIT_FIRE);
    Ok((id, inputs))
}

/// The typed outcome of a mechanic's roll: the faces it rolled (from `from` on) replayed
/// through the mechanic's own typed roll, so no rule is read twice.
fn replay<T>(
    roller: &Roller,
    from: usize,
    roll: impl FnOnce(&mut Roller) -> Result<T, ResolveError>,
) -> Result<T, BattleError> {
    let mut faces = TableDice::new();
    for record in roller.rolled().iter().skip(from) {
        faces.add(record.pool, record.dice.clone());
    }
    Ok(roll(&mut Roller::table(faces))?)
}

/// A mechanic rolled with the battle's roller; a situation the rules give no result for
/// (a vehicle that ran cannot be assaulted) is refused, not recorded.
fn rolled(
    key: &str,
    inputs: &Inputs,
    roller: &mut Roller,
) -> Result<(resolution::Report, usize), BattleError> {
    let from = roller.rolled().len();
    let report = roll_mechanic(RULESET, key, inputs, roller)?;
    if let Some(why) = &report.no_result {
        return Err(BattleError::not_allowed(why.clone()));
    }
    Ok((report, from))
}

/// A step carried out: the typed battle after it, the mechanic's report, words.
type Step3 = (Battle, Option<resolution::Report>, Vec<String>);

fn draw(battle: &Battle, request: &Request, roller: &mut Roller) -> Result<Step3, BattleError> {
    let next = match choice_param(request, "side").unwrap_or("random") {
        "first" => battle.draw(Side::First),
        "second" => battle.draw(Side::Second),
        _ => battle.draw_with(roller).map(|(next, _)| next),
    }
    .map_err(typed_error)?;
    let words = next
        .drawn
        .map(|s| format!("a {} die is drawn", side_words(s)))
        .into_iter()
        .collect();
    Ok((next, None, words))
}

fn give_order(
    board: &Board,
    battle: &Battle,
    request: &Request,
    roller: &mut Roller,
    revision: u32,
) -> Result<Step3, BattleError> {
    let index = unit_index(board, request.unit.as_deref())?;
    let id = UnitId(index);
    let asked = choice_param(request, "order")
        .and_then(order_of)
        .ok_or(BattleError::Invalid {
            field: "order",
            message: "choose the order: fire, advance, run, ambush, rally or down".into(),
        })?;
    battle.may_order(id).map_err(typed_error)?;
    let (next, report) = if board.units[index].count(PINS) > 0 {
        let (_, inputs) = order_test_situation(board, request)?;
        let test = mechanics::order_test(&inputs)?;
        let (report, from) = rolled("order_test", &inputs, roller)?;
        let outcome = replay(roller, from, |r| ba::roll_order_test(&test, r))?.outcome;
        let next = battle.give_order(id, asked, Some(&outcome));
        (next, Some(report))
    } else {
        (battle.give_order(id, asked, None), None)
    };
    let mut next = next.map_err(typed_error)?;
    let mut words: Vec<String> = next.units[index]
        .order
        .as_ref()
        .map(|o| format!("order: {}", o.order.label()))
        .into_iter()
        .collect();
    // Friendly Fire with no friendly unit left to fire at: it goes Down at once (sheet 004).
    let friendly = next.units[index]
        .order
        .as_ref()
        .is_some_and(|o| o.order == OrderKind::Fire && o.fubar.is_some());
    let comrades = board
        .side_units(board.units[index].side)
        .any(|u| u.id != board.units[index].id && u.in_play());
    if revision >= WHOLE_UNIT_FIRE && friendly && !comrades {
        next = next.friendly_fire_down(id).map_err(typed_error)?;
        words.push("Friendly Fire: no friendly unit to fire at; it goes Down".to_string());
    }
    Ok((next, report, words))
}

fn shoot(
    board: &Board,
    battle: &Battle,
    request: &Request,
    roller: &mut Roller,
    revision: u32,
) -> Result<Step3, BattleError> {
    let shooter = UnitId(unit_index(board, request.unit.as_deref())?);
    battle.may(shooter, Step::Shoot).map_err(typed_error)?;
    let whole = revision >= WHOLE_UNIT_FIRE;
    let friendly = whole && friendly_fire(&board.units[shooter.0]);
    let target = target_index(board, shooter.0, request, friendly)?;
    let (_, inputs) = shooting_situation(board, request, revision)?;
    let (report, from) = rolled("shooting", &inputs, roller)?;
    let (tally, pins, vehicle) = if whole {
        let fire = mechanics::unit_fire(&inputs)?;
        let roll = replay(roller, from, |r| fire.roll(r))?;
        (roll.tally, roll.pins, roll.vehicle)
    } else {
        let attack = mechanics::attack(&inputs)?;
        let roll = replay(roller, from, |r| ba::roll_attack(&attack, r))?;
        (roll.tally, roll.pins, roll.vehicle)
    };
    let shot = battle.shot(shooter).map_err(typed_error)?;
    let next = if is_vehicle(&board.units[target]) {
        let after = match vehicle {
            Some(after) => after,
            // Soft-skinned: its pins, and destroyed by a damaging hit (house default).
            None => {
                let mut after = shot.vehicle_state(UnitId(target)).map_err(typed_error)?;
                after.pins += pins;
                if tally.damaging > 0 {
                    after.knocked_out = Some(KnockOut::DamageResult);
                }
                after
            }
        };
        shot.vehicle_hit(UnitId(target), &after)
    } else {
        shot.take_hits(UnitId(target), tally.damaging, pins)
    };
    Ok((next.map_err(typed_error)?, Some(report), Vec::new()))
}

/// A FUBAR Friendly Fire with no friendly unit to hit: the unit does not fire and goes Down.
fn go_down(board: &Board, battle: &Battle, request: &Request) -> Result<Step3, BattleError> {
    let id = UnitId(unit_index(board, request.unit.as_deref())?);
    let next = battle.friendly_fire_down(id).map_err(typed_error)?;
    Ok((
        next,
        None,
        vec!["Friendly Fire: no friendly unit to fire at; it goes Down".to_string()],
    ))
}

fn assault(
    board: &Board,
    battle: &Battle,
    request: &Request,
    roller: &mut Roller,
) -> Result<Step3, BattleError> {
    let attacker = UnitId(unit_index(board, request.unit.as_deref())?);
    battle.may(attacker, Step::Assault).map_err(typed_error)?;
    let defender = UnitId(target_index(board, attacker.0, request, false)?);
    let (_, inputs) = close_quarters_situation(board, request)?;
    let fight = cq::fight(&inputs)?;
    let (report, from) = rolled("close_quarters", &inputs, roller)?;
    let end = replay(roller, from, |r| close_quarters::roll_fight(&fight, r))?.end;
    let next = battle
        .close_quarters(attacker, defender, end)
        .map_err(typed_error)?;
    Ok((next, Some(report), Vec::new()))
}

fn assault_vehicle(
    board: &Board,
    battle: &Battle,
    request: &Request,
    roller: &mut Roller,
) -> Result<Step3, BattleError> {
    let attacker = UnitId(unit_index(board, request.unit.as_deref())?);
    battle.may(attacker, Step::Assault).map_err(typed_error)?;
    let vehicle = UnitId(target_index(board, attacker.0, request, false)?);
    let (_, inputs) = vehicle_assault_situation(board, request)?;
    let assault = cq::assault(&inputs)?;
    let (report, from) = rolled("vehicle_assault", &inputs, roller)?;
    let roll = replay(roller, from, |r| close_quarters::roll_assault(&assault, r))?;
    let after = match roll.end {
        AssaultEnd::Destroyed => {
            let mut after: VehicleAfter = battle.vehicle_state(vehicle).map_err(typed_error)?;
            after.knocked_out = Some(KnockOut::DamageResult);
            Some(after)
        }
        AssaultEnd::Damaged(_) => roll.vehicle,
        _ => None,
    };
    let test = roll.test.map(|t| t.outcome);
    let next = battle
        .vehicle_assault(attacker, vehicle, test.as_ref(), after.as_ref())
        .map_err(typed_error)?;
    Ok((next, Some(report), Vec::new()))
}

fn rally(
    board: &Board,
    battle: &Battle,
    request: &Request,
    roller: &mut Roller,
) -> Result<Step3, BattleError> {
    let id = UnitId(unit_index(board, request.unit.as_deref())?);
    battle.may(id, Step::Rally).map_err(typed_error)?;
    let d6 = roller.roll("rally", 6, 1)?;
    let shed = d6.dice.iter().map(|&f| u32::from(f)).sum();
    let next = battle.rally(id, shed).map_err(typed_error)?;
    Ok((next, None, vec![format!("rally: d6 = {shed}, pins shed")]))
}

/// The refusal of a draw of `how` (`random`, `first`, `second`), if any.
fn draw_refusal(battle: &Battle, how: &str) -> Option<String> {
    let tried = match how {
        "first" => battle.draw(Side::First),
        "second" => battle.draw(Side::Second),
        _ if battle.dice_left() > 0 && battle.drawn.is_none() => return None,
        _ => battle.draw(Side::First),
    };
    tried.err().map(|e| e.to_string())
}

fn unit_action(key: &'static str, label: String, unit: &BoardUnit) -> Action {
    Action {
        side: Some(unit.side),
        unit: Some(unit.id.clone()),
        ..Action::new(key, label)
    }
}

/// The unit's weapons as the chart names them (the shooting form's choices).
fn weapon_keys(unit: &BoardUnit) -> Vec<&'static str> {
    let mut keys = vec![""];
    if let (Card::BoltAction(p), Some(t)) = (&unit.card, super::tables()) {
        keys.extend(
            p.weapons
                .iter()
                .filter_map(|w| t.weapon(w).map(|w| w.name.as_str())),
        );
    }
    keys
}

/// The draws, the actions of each unit in play that `units` keeps (by id) and the end of the
/// turn, as the board offers them under `revision`.
fn offered(
    plan: &TablePlan,
    board: &Board,
    revision: u32,
    units: impl Fn(&str) -> bool,
) -> Vec<Action> {
    let Ok(battle) = typed_battle(board) else {
        return Vec::new();
    };
    // The colour named by the side's own name ("Rifles' die came out"), as players say it.
    let label = |c: &Choice| match c.key {
        "first" | "second" => {
            let side = if c.key == "first" {
                Side::First
            } else {
                Side::Second
            };
            format!(
                "{} die came out",
                crate::rules::words::possessive(&plan.side_name(side))
            )
        }
        _ => c.label.to_string(),
    };
    let mut actions: Vec<Action> = DRAW_CHOICES
        .iter()
        .map(|c| Action {
            fixed: vec![("side", InputValue::Choice(c.key))],
            refused: draw_refusal(&battle, c.key),
            ..Action::new("draw", label(c))
        })
        .collect();
    for (index, unit) in board.units.iter().enumerate() {
        if unit.in_play() && units(&unit.id) {
            actions.extend(unit_actions(board, &battle, index, revision));
        }
    }
    let mut end = Action::new("end_turn", format!("End turn {}", board.turn));
    if !battle.turn_over() {
        let left = battle.dice_left() + u32::from(battle.drawn.is_some());
        end.refused = Some(format!(
            "{left} order dice still to give: the turn ends when the bag is empty"
        ));
    }
    actions.push(end);
    actions
}

fn unit_actions(board: &Board, battle: &Battle, index: usize, revision: u32) -> Vec<Action> {
    let unit = &board.units[index];
    let id = UnitId(index);
    let refusal = |r: Result<(), typed::BattleError>| r.err().map(|e| e.to_string());
    let enemies = |wanted: &dyn Fn(&BoardUnit) -> bool| -> Vec<String> {
        board
            .units
            .iter()
            .filter(|t| t.side != unit.side && t.in_play() && wanted(t))
            .map(|t| t.id.clone())
            .collect()
    };
    let mut actions = Vec::new();

    let mut order = unit_action("order", format!("Order {}", unit.label), unit);
    order.refused = refusal(battle.may_order(id));
    let allowed: Vec<&'static str> = ORDER_CHOICES
        .iter()
        .map(|c| c.key)
        .filter(|k| !(unit.has(IMMOBILISED) && matches!(*k, "advance" | "run")))
        .collect();
    order.choices = vec![("order", allowed)];
    if unit.count(PINS) > 0 {
        order.mechanic = mechanic_id(RULESET, "order_test");
        order.fixed = vec![("unit", unit.card_input())];
    }
    actions.push(order);

    if revision >= WHOLE_UNIT_FIRE {
        actions.extend(whole_unit_fire(board, battle, index));
    } else {
        let mut shoot = unit_action("shoot", format!("{} shoots", unit.label), unit);
        shoot.mechanic = mechanic_id(RULESET, "shooting");
        shoot.fixed = vec![("unit", unit.card_input())];
        shoot.targets = enemies(&|_| true);
        shoot.refused = refusal(battle.may(id, Step::Shoot));
        shoot.choices = vec![("weapon", weapon_keys(unit))];
        shoot.limits = vec![Limit {
            key: "firers",
            max: firers(unit),
            why: format!("{} has {} models that can fire", unit.label, firers(unit)),
        }];
        actions.push(shoot);
    }

    if is_infantry(unit) {
        let mut assault = unit_action("assault", format!("{} assaults", unit.label), unit);
        assault.mechanic = mechanic_id(RULESET, "close_quarters");
        assault.fixed = vec![("unit", unit.card_input())];
        assault.targets = enemies(&|t| !is_vehicle(t));
        assault.refused = refusal(battle.may(id, Step::Assault));
        // The loser of close quarters is destroyed.
        assault.destructive = true;
        actions.push(assault);
        let vehicles = enemies(&is_vehicle);
        if !vehicles.is_empty() {
            let mut on_vehicle = unit_action(
                "assault_vehicle",
                format!("{} assaults a vehicle", unit.label),
                unit,
            );
            on_vehicle.mechanic = mechanic_id(RULESET, "vehicle_assault");
            on_vehicle.fixed = vec![("unit", unit.card_input())];
            on_vehicle.targets = vehicles;
            on_vehicle.refused = refusal(battle.may(id, Step::Assault));
            actions.push(on_vehicle);
        }
    }

    let mut rally = unit_action("rally", format!("{} rallies", unit.label), unit);
    rally.refused = refusal(battle.may(id, Step::Rally));
    actions.push(rally);
    actions
}

/// The whole unit fires at one target, every model its weapon, its models fixed by the board;
/// after a FUBAR Friendly Fire at a friendly unit the opposing player picks, or, with none to
/// hit, it goes Down (sheet 004, FUBAR chart).
fn whole_unit_fire(board: &Board, battle: &Battle, index: usize) -> Vec<Action> {
    let unit = &board.units[index];
    let refused = battle
        .may(UnitId(index), Step::Shoot)
        .err()
        .map(|e| e.to_string());
    let friendly = friendly_fire(unit);
    let (label, targets) = if friendly {
        let comrades = board
            .side_units(unit.side)
            .filter(|u| u.id != unit.id && u.in_play())
            .map(|u| u.id.clone())
            .collect();
        (
            format!(
                "{} fires at a friendly unit (FUBAR Friendly Fire: the opposing player picks it)",
                unit.label
            ),
            comrades,
        )
    } else {
        (
            format!("{} fires (every model its weapon)", unit.label),
            board.enemies_in_play(unit.side),
        )
    };
    let mut shoot = unit_action("shoot", label, unit);
    shoot.mechanic = mechanic_id(RULESET, "shooting");
    shoot.fixed = vec![
        ("unit", unit.card_input()),
        ("weapon", InputValue::Choice(mechanics::UNIT_FIRE)),
        ("firers", InputValue::Count(models_left(unit).max(1))),
    ];
    shoot.targets = targets;
    shoot.refused = refused.clone();
    let mut actions = vec![shoot];
    if friendly {
        let mut down = unit_action(
            "go_down",
            format!(
                "{}: no friendly unit to hit, it goes Down (FUBAR)",
                unit.label
            ),
            unit,
        );
        down.refused = refused;
        actions.push(down);
    }
    actions
}

/// The scripted player's order for a unit: Rally when pinned, else Fire.
fn scripted_order(unit: &BoardUnit) -> &'static str {
    if unit.count(PINS) > 0 {
        "rally"
    } else {
        "fire"
    }
}

/// The house defaults of a Bolt Action battle on the board (docs/rulings.md).
pub const UNIT_SIZE_RULING: HouseDefault = HouseDefault {
    value: "models",
    ruling: "The sheets give no unit sizes: a team starts with 2 models, a crewed weapon or gun with 3, other infantry with 10, a vehicle as 1.",
};
pub const LENGTH_RULING: HouseDefault = HouseDefault {
    value: "winner",
    ruling: "The battle ends after turn 6, or at once when a side has no unit left; after turn 6 the side that destroyed more enemy units wins.",
};
pub const SOFT_SKIN_RULING: HouseDefault = HouseDefault {
    value: "destroyed",
    ruling: "A soft-skinned vehicle is destroyed by any damaging hit from shooting, as the sheet says for assaults.",
};
pub const ASSAULT_PINS_RULING: HouseDefault = HouseDefault {
    value: "order_test",
    ruling: "The -3 test to assault a vehicle without anti-tank weapons is a test of its own, and counts the unit's pins.",
};
pub const CARRY_RULING: HouseDefault = HouseDefault {
    value: "carry",
    ruling: "Between battles a unit keeps its casualties, sheds its pins, and an immobilised vehicle is repaired; a destroyed unit is lost.",
};
pub const PROMOTE_RULING: HouseDefault = HouseDefault {
    value: "quality",
    ruling: "Experience (house rule): a unit steps up Inexperienced, Regular, Veteran after the battles survived the campaign sets.",
};

impl TableRules for BoltActionBattle {
    const RULINGS: &'static [HouseDefault] = &[
        UNIT_SIZE_RULING,
        LENGTH_RULING,
        SOFT_SKIN_RULING,
        ASSAULT_PINS_RULING,
        super::rulings::UNIT_FIRE_RULING,
        super::rulings::ARMOUR_PINS_RULING,
        CARRY_RULING,
        PROMOTE_RULING,
    ];
    const BETWEEN_BATTLES: &'static [(&'static str, &'static str)] = &[
        (PINS, "pins shed"),
        (IMMOBILISED, "immobilised vehicle repaired"),
    ];
    const REVISION: u32 = WHOLE_UNIT_FIRE;
    const RENAMED_POOLS: &'static [(&'static str, &'static str, u32)] =
        &[("damage_result", "damage_results", WHOLE_UNIT_FIRE)];
    const CORRECTED: &'static str = "a unit fired one weapon a Fire order, a FUBAR Friendly Fire shot at the enemy, and a unit that fired from Ambush kept its die";
    const RULESET: RulesetId = RULESET;
    const ACTIONS: &'static [&'static str] = &[
        "draw",
        "order",
        "shoot",
        "go_down",
        "assault",
        "assault_vehicle",
        "rally",
        "end_turn",
    ];
    const TURN_ORDER: &'static str = "A die is drawn from the bag and its colour's player orders one unit of theirs; the turn ends when the bag is empty (units keeping Ambush or Down keep their dice out).";
    const PROMOTES: bool = true;

    fn start(plan: &TablePlan) -> Board {
        let mut board = Board::from_plan(plan);
        for unit in &mut board.units {
            let models = starting_models(&unit.card);
            unit.counters.entry(MODELS.to_string()).or_insert(models);
        }
        board
    }

    fn actions(plan: &TablePlan, board: &Board, revision: u32) -> Vec<Action> {
        offered(plan, board, revision, |_| true)
    }

    /// Only the asked unit's actions (and the draws and the end of the turn): each unit's
    /// lists its targets, so every unit's would cost the square of the units on the table.
    fn actions_for(
        plan: &TablePlan,
        board: &Board,
        revision: u32,
        request: &Request,
    ) -> Vec<Action> {
        offered(plan, board, revision, |unit| {
            request.unit.as_deref() == Some(unit)
        })
    }

    fn params(action: &str) -> Vec<InputSpec> {
        Self::params_at(action, WHOLE_UNIT_FIRE)
    }

    fn params_at(action: &str, revision: u32) -> Vec<InputSpec> {
        let from = |mechanic: &str, keys: &[&str]| -> Vec<InputSpec> {
            resolution::mechanic(RULESET, mechanic)
                .map(|m| {
                    (m.inputs)()
                        .into_iter()
                        .filter(|s| keys.contains(&s.key))
                        .collect()
                })
                .unwrap_or_default()
        };
        match action {
            "draw" => vec![InputSpec::choice(
                "side",
                "Die drawn",
                "Draw from the bag (the app draws, or say the colour that came out of your own bag).",
                &DRAW_CHOICES,
                "random",
            )],
            "order" => {
                let mut specs = vec![InputSpec::choice(
                    "order",
                    "Order",
                    "The order given; a pinned unit tests for it (a double six is FUBAR).",
                    &ORDER_CHOICES,
                    "fire",
                )];
                specs.extend(from("order_test", &["officer"]));
                specs
            }
            // The whole unit fires: which weapons and how many models is the board's.
            "shoot" if revision >= WHOLE_UNIT_FIRE => from(
                "shooting",
                &SHOOT_PARAMS
                    .into_iter()
                    .filter(|k| !matches!(*k, "weapon" | "firers"))
                    .collect::<Vec<_>>(),
            ),
            "shoot" => from("shooting", &SHOOT_PARAMS),
            "assault_vehicle" => from("vehicle_assault", &VEHICLE_ASSAULT_PARAMS),
            _ => Vec::new(),
        }
    }

    fn situation(
        _plan: &TablePlan,
        board: &Board,
        request: &Request,
    ) -> Result<(MechanicId, Inputs), BattleError> {
        match request.action {
            "order" => order_test_situation(board, request),
            "shoot" => shooting_situation(board, request, WHOLE_UNIT_FIRE),
            "assault" => close_quarters_situation(board, request),
            "assault_vehicle" => vehicle_assault_situation(board, request),
            other => Err(BattleError::not_allowed(format!(
                "{} rolls through no mechanic",
                other.replace('_', " ")
            ))),
        }
    }

    fn resolve(
        _plan: &TablePlan,
        board: &Board,
        request: &Request,
        roller: &mut Roller,
        revision: u32,
    ) -> Result<Resolved, BattleError> {
        let battle = typed_battle(board)?;
        if request.action == "end_turn" && battle.turn >= LAST_TURN {
            // Checked as any end of turn, then the battle ends instead of a seventh.
            battle.end_turn(&[]).map_err(typed_error)?;
            return Ok(Resolved {
                effects: vec![after_last_turn(board)],
                report: None,
                result: Vec::new(),
            });
        }
        let (next, report, result) = match request.action {
            "draw" => draw(&battle, request, roller)?,
            "order" => give_order(board, &battle, request, roller, revision)?,
            "shoot" => shoot(board, &battle, request, roller, revision)?,
            "go_down" if revision >= WHOLE_UNIT_FIRE => go_down(board, &battle, request)?,
            "assault" => assault(board, &battle, request, roller)?,
            "assault_vehicle" => assault_vehicle(board, &battle, request, roller)?,
            "rally" => rally(board, &battle, request, roller)?,
            "end_turn" => (
                battle
                    .end_turn_under(&[], revision.min(AMBUSH_FIRED_RELEASED))
                    .map_err(typed_error)?,
                None,
                vec![format!("turn {} begins", battle.turn + 1)],
            ),
            other => {
                return Err(BattleError::not_allowed(format!(
                    "no action '{other}' in Bolt Action"
                )));
            }
        };
        let mut effects = differences(board, &battle, &next);
        effects.extend(wiped_out(board, &effects));
        Ok(Resolved {
            effects,
            report,
            result,
        })
    }

    fn category(action: &str) -> Category {
        match action {
            "shoot" | "assault" | "assault_vehicle" => Category::Fire,
            "rally" => Category::Rally,
            _ => Category::Command,
        }
    }

    /// Enemy units destroyed (house default: the sheets give no scenario).
    fn score(board: &Board) -> Option<Sides<u32>> {
        Some(destroyed_by(board))
    }

    /// Casualties stay and the unit size with them; pins go; an immobilised vehicle is
    /// repaired; a destroyed unit (or one with no model left) is lost. House defaults.
    fn carry(_started: &BoardUnit, unit: &BoardUnit) -> Option<TableUnit> {
        if !unit.in_play() || models_left(unit) == 0 {
            return None;
        }
        let mut counters = BTreeMap::new();
        counters.insert(MODELS.to_string(), unit.count(MODELS));
        if unit.count(CASUALTIES) > 0 {
            counters.insert(CASUALTIES.to_string(), unit.count(CASUALTIES));
        }
        Some(unit.carried(counters))
    }

    /// HOUSE RULE: one step up the quality ladder (Inexperienced → Regular → Veteran), the
    /// unit's card and name saying its new quality.
    fn promote(unit: &TableUnit) -> Option<TableUnit> {
        let Card::BoltAction(profile) = &unit.card else {
            return None;
        };
        let quality = match profile.quality {
            Quality::Inexperienced => Quality::Regular,
            Quality::Regular => Quality::Veteran,
            Quality::Veteran => return None,
        };
        let promoted = TableUnit {
            card: Card::BoltAction(UnitProfile {
                quality,
                ..profile.clone()
            }),
            ..unit.clone()
        };
        Some(promoted.requalified(profile.quality.label(), quality.label()))
    }

    /// A unit's card on the board: models left, pins, its order and what marks it.
    fn unit_standing(_plan: &TablePlan, unit: &BoardUnit) -> UnitStanding {
        let profile = profile(unit).ok();
        let vehicle = is_vehicle(unit);
        let strength = (!vehicle)
            .then(|| Strength::new(models_left(unit), unit.count(MODELS).max(1), "models"));
        let mut tallies = Vec::new();
        let pins = unit.count(PINS);
        if pins > 0 {
            // An order test needs morale − pins or under: four or less is a test rarely passed.
            let morale = profile.and_then(UnitProfile::morale).map_or(9, i64::from);
            let tone = if morale - pins <= 4 {
                Tone::Danger
            } else {
                Tone::Warning
            };
            tallies.push(Tally::new("Pins", pins, tone));
        }
        let mut badges = Vec::new();
        if let Some(order) = unit.order.as_deref().and_then(order_of) {
            let (label, tone) = if unit.has(DONE) {
                (format!("{} (done)", order.label()), Tone::Inactive)
            } else {
                (order.label().to_string(), Tone::Neutral)
            };
            badges.push(Badge::new(label, tone));
        }
        if unit.has(AMBUSH) {
            badges.push(Badge::new("Waiting in ambush", Tone::Good));
        }
        if unit.has(DOWN) {
            badges.push(Badge::new("Down", Tone::Warning));
        }
        if unit.has(FUBAR) {
            let result = if friendly_fire(unit) {
                "FUBAR: Friendly Fire"
            } else {
                "FUBAR: Panic"
            };
            badges.push(Badge::new(result, Tone::Danger));
        }
        if unit.has(IMMOBILISED) {
            badges.push(Badge::new("Immobilised", Tone::Danger));
        }
        if let Some(p) = profile {
            badges.push(Badge::new(p.quality.label(), Tone::Neutral));
        }
        UnitStanding::of(unit, strength, tallies, badges)
    }

    /// The turn: whose die is out, the dice each side has in the bag, the next step.
    fn turn_standing(plan: &TablePlan, board: &Board) -> TurnStanding {
        let mut stock: Sides<Vec<Tally>> = Sides::default();
        let Ok(battle) = typed_battle(board) else {
            return TurnStanding::of(board, TURN_WORDS, stock, (None, String::new(), None));
        };
        for side in SIDES {
            let left = i64::from(battle.bag[bag_index(side)]);
            *stock.get_mut(side) = vec![Tally::new("Order dice in the bag", left, Tone::Neutral)];
        }
        let step = match battle.drawn {
            Some(side) => (
                Some(side),
                // The side by its force ("Rifles: give the die to a unit"), as the table calls it.
                format!(
                    "{}: give the die to one of your units",
                    plan.side_name(side)
                ),
                Some("order"),
            ),
            None if battle.dice_left() > 0 => (
                None,
                "Draw the next order die from the bag".to_string(),
                Some("draw"),
            ),
            None => (
                None,
                format!("The bag is empty: end turn {}", board.turn),
                Some("end_turn"),
            ),
        };
        TurnStanding::of(board, TURN_WORDS, stock, step)
    }

    /// A draw and a plain order as the players say them: "Rifles' die came out of the bag",
    /// "Regular Infantry Squad 1 (Rifles) takes a Fire order" (the generic line reads "draw
    /// (side first). Rifles: drawn 1"). An order with a test or a FUBAR keeps the full line.
    fn describe(plan: &TablePlan, event: &TableEvent) -> Option<String> {
        match event.action.as_str() {
            "draw" => {
                let side = event.effects.iter().find_map(|e| match e {
                    Effect::SideSet { side, counter, to } if counter == DRAWN && *to == 1 => {
                        Some(*side)
                    }
                    _ => None,
                })?;
                let die = format!(
                    "{} die",
                    crate::rules::words::possessive(&plan.side_name(side))
                );
                // Dice rolled to draw are marked as every roll in the log is.
                let how = match (event.rolls.is_empty(), event.dice_from) {
                    (true, _) => "",
                    (false, DiceFrom::Table) => " (drawn with dice rolled at the table)",
                    (false, _) => " (drawn with dice rolled by the app)",
                };
                Some(format!("{die} came out of the bag{how}"))
            }
            "order" if event.rolls.is_empty() => {
                let unit = plan.label(event.unit.as_deref()?);
                let order = event.effects.iter().find_map(|e| match e {
                    Effect::Order {
                        order: Some(order), ..
                    } => Some(order.as_str()),
                    _ => None,
                })?;
                let order = ORDER_CHOICES
                    .iter()
                    .find(|c| c.key == order)
                    .map_or(order, |c| c.label);
                let others = event.effects.iter().filter(|e| {
                    !matches!(e, Effect::Order { .. })
                        && !matches!(e, Effect::SideSet { counter, .. } if counter == DRAWN)
                });
                let a = article(order);
                (others.count() == 0).then(|| format!("{unit} takes a{a} {order} order"))
            }
            _ => None,
        }
    }

    /// Gives the drawn die to the side's first unit without one (Rally when pinned, else
    /// Fire), shoots with every unit whose order allows it at the first target it may take (a
    /// unit with more than three pins holds its fire: its need would pass 6+), rallies,
    /// draws at random, ends the turn. Every turn ends after at most three actions a unit,
    /// and the battle after turn [`LAST_TURN`].
    fn scripted(plan: &TablePlan, board: &Board) -> Option<Request> {
        if board.outcome.is_some() {
            return None;
        }
        let battle = typed_battle(board).ok()?;
        if let Some(side) = battle.drawn {
            let unit = board
                .units
                .iter()
                .find(|u| u.side == side && u.in_play() && u.order.is_none())?;
            return Some(
                Request::new("order")
                    .unit(unit.id.clone())
                    .with("order", InputValue::Choice(scripted_order(unit))),
            );
        }
        let actions = Self::actions(plan, board, WHOLE_UNIT_FIRE);
        let allowed = |key: &str, unit: &BoardUnit| allowed_action(&actions, key, &unit.id);
        for unit in board.units.iter().filter(|u| u.in_play()) {
            if allowed("rally", unit).is_some() {
                return Some(Request::new("rally").unit(unit.id.clone()));
            }
            let armed = matches!(&unit.card, Card::BoltAction(p) if !p.weapons.is_empty());
            if let Some(shoot) = allowed("shoot", unit)
                && armed
                && unit.count(PINS) <= 3
                && let Some(target) = shoot.targets.first()
            {
                return Some(
                    Request::new("shoot")
                        .unit(unit.id.clone())
                        .target(target.clone()),
                );
            }
            if allowed("go_down", unit).is_some() {
                return Some(Request::new("go_down").unit(unit.id.clone()));
            }
        }
        if battle.dice_left() > 0 {
            return Some(Request::new("draw").with("side", InputValue::Choice("random")));
        }
        Some(Request::new("end_turn"))
    }
}

#[cfg(test)]
mod tests;

/// "n" before an order's name that starts with a vowel sound ("an Advance order").
fn article(word: &str) -> &'static str {
    if word.starts_with(['A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u']) {
        "n"
    } else {
        ""
    }
}
