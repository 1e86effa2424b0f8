//! Battle of Tanks fought on the generic [`Board`]: each tank's hit points, its damaged
//! tracks, the spot markers and the one order each tank's order stone gives it per round.
//!
//! What the book gives: one order per tank per round (one order stone each, drawn from the
//! bag), the orders Bewegen (`move`), Feuern (`fire`), Angriff (`attack`: half a move and fire
//! at +1), Rückzug (`repair`: the repair roll, then half a move) and Aufklärung (`spot`); a K
//! on the penetration die damages the tracks; a tank with no hit points left is destroyed;
//! spot markers and order flags are removed when the round ends; a side wins when every
//! enemy tank is destroyed.
//!
//! House defaults (new, shown beside the actions that use them):
//! - [`SPOT_BEFORE_FIRE`]: a target in cover must carry a spot marker before it is fired at
//!   (the book's spot markers have no other use; open ground is spotted automatically).
//! - [`TURN_LIMIT`]: the book plays until one side is destroyed or holds the enemy base for a
//!   round (a position the board does not keep: the players conclude that battle by hand); the
//!   tracker ends it after six rounds, the side that destroyed more tier points winning.
//! - Damaged tracks stay damaged until a Rückzug order repairs them.
//! - A fire order aims the whole fire rate at one target (split fire is the Resolve view's).
//! - Hinterhalt (`ambush`): the tank waits, its order stone staying beside it from round to
//!   round ([`AMBUSHING`]); it takes no other order, and fires once at −1 whenever its player
//!   says (the interruption is the players' to time), which ends the ambush and is its order
//!   for that round.
//! - Between battles of a campaign every surviving tank is repaired ([`TableRules::carry`]).

use super::TankCard;
use crate::rules::battle::board::{Board, BoardUnit, DESTROYED, Effect, TablePlan, TableUnit};
use crate::rules::battle::table::{Resolved, TableRules, roll_mechanic};
use crate::rules::battle::{
    Action, BattleError, Category, Request, SIDES, Side, Sides, opponent,
};
use crate::rules::card::Card;
use crate::rules::dice::Roller;
use crate::rules::resolution::{
    CardPick, InputSpec, InputValue, Inputs, ListEntry, MechanicId, Report, Value, mechanic,
};
use crate::rules::{HouseDefault, RulesetId};

const RULESET: RulesetId = RulesetId::BattleOfTanks;

/// Counter: the hit points a tank has left (the HIT-POINT marker), from its card.
pub const HIT_POINTS: &str = "hit_points";
/// Mark: a K on the penetration die damaged the tracks; the tank cannot move until repaired.
pub const TRACKED: &str = "tracked";
/// Mark: a spot marker (Aufklärung succeeded); removed when the round ends.
pub const SPOTTED: &str = "spotted";
/// Mark: the tank moved this round (a target that moved is harder to hit).
pub const MOVED: &str = "moved";
/// Mark: the tank lies in ambush (Hinterhalt) until it fires; kept from round to round.
pub const AMBUSHING: &str = "ambushing";

/// Order flags beside a tank this round (the board's order).
pub const MOVE: &str = "move";
pub const FIRE: &str = "fire";
pub const ATTACK: &str = "attack";
pub const REPAIR: &str = "repair";
pub const SPOT: &str = "spot";
pub const AMBUSH: &str = "ambush";
pub const END_TURN: &str = "end_turn";

/// New house default: the last round the tracker plays.
pub const TURN_LIMIT: u32 = 6;

/// New house default: the tracker's turn limit and how it decides the winner.
pub const TURN_LIMIT_RULING: HouseDefault = HouseDefault {
    value: "end_turn",
    ruling: "House default: the battle ends after round 6; the side that destroyed more tier points wins (equal: a draw). Holding the enemy base is concluded by the players.",
};

/// New house default: firing at a target in cover needs a spot marker.
pub const SPOT_BEFORE_FIRE: HouseDefault = HouseDefault {
    value: "cover",
    ruling: "House default: a target in light or heavy cover must carry a spot marker (Aufklärung) before it is fired at; open ground is spotted automatically.",
};

/// The fire mechanic's inputs the battle sets itself (the rest are the player's).
const FIRE_FIXED: &[&str] = &["attacker", "target", "moving", "ambush", "target_moving"];

/// Battle of Tanks on the generic board.
pub struct BattleOfTanksBattle;

fn tank(unit: &BoardUnit) -> Result<&TankCard, BattleError> {
    match &unit.card {
        Card::BattleOfTanks(t) => Ok(t),
        other => Err(BattleError::Invalid {
            field: "card",
            message: format!("{} is not a Battle of Tanks tank", other.name()),
        }),
    }
}

fn mechanic_id(key: &str) -> Result<MechanicId, BattleError> {
    mechanic(RULESET, key)
        .map(|m| m.id())
        .ok_or_else(|| BattleError::MissingData(format!("mechanic {key}")))
}

fn mechanic_key(action: &str) -> Option<&'static str> {
    match action {
        FIRE | ATTACK => Some("fire"),
        REPAIR => Some("repair"),
        SPOT => Some("spotting"),
        _ => None,
    }
}

/// The acting unit of a request, on the board and in play.
fn actor<'a>(board: &'a Board, request: &Request) -> Result<&'a BoardUnit, BattleError> {
    let id = request.unit.as_deref().ok_or(BattleError::Invalid {
        field: "unit",
        message: format!("{} needs the tank that acts", request.action),
    })?;
    let unit = board
        .unit(id)
        .ok_or_else(|| BattleError::UnknownUnit(id.to_string()))?;
    if !unit.in_play() {
        return Err(BattleError::not_allowed(format!(
            "{} is destroyed",
            unit.label
        )));
    }
    Ok(unit)
}

/// The enemy tank a request aims at, on the board and in play.
fn target_of<'a>(
    board: &'a Board,
    actor: &BoardUnit,
    request: &Request,
) -> Result<&'a BoardUnit, BattleError> {
    board.enemy_target(actor, request, "tank")
}

fn hit_points(unit: &BoardUnit) -> i64 {
    unit.count(HIT_POINTS)
}

/// Tier points of `side`'s tanks destroyed (what the other side scores).
fn tiers_lost(board: &Board, side: Side) -> u32 {
    board
        .side_units(side)
        .filter(|u| !u.in_play())
        .filter_map(|u| tank(u).ok())
        .map(|t| t.tier)
        .sum()
}

fn enemies_in_play(board: &Board, side: Side) -> Vec<String> {
    board
        .side_units(opponent(side))
        .filter(|u| u.in_play())
        .map(|u| u.id.clone())
        .collect()
}

/// Why `unit` cannot take `order` now, if it cannot.
fn refusal(board: &Board, unit: &BoardUnit, order: &str) -> Option<String> {
    if unit.has(AMBUSHING) && !(order == FIRE && unit.order.as_deref() == Some(AMBUSH)) {
        return Some(format!(
            "{} lies in ambush: it takes no other order until it has fired",
            unit.label
        ));
    }
    if let Some(given) = unit.order.as_ref().filter(|_| !unit.has(AMBUSHING)) {
        return Some(format!(
            "{} already has its order this round ({})",
            unit.label, given
        ));
    }
    let tracked = unit.has(TRACKED);
    match order {
        MOVE | ATTACK if tracked => Some(format!(
            "{}'s tracks are damaged: it cannot move until a Rückzug order repairs them",
            unit.label
        )),
        REPAIR if !tracked => Some(format!(
            "{}'s tracks are whole: nothing to repair",
            unit.label
        )),
        FIRE | ATTACK | SPOT if enemies_in_play(board, unit.side).is_empty() => {
            Some("no enemy tank is left".to_string())
        }
        _ => None,
    }
}

fn unit_action(board: &Board, unit: &BoardUnit, key: &'static str) -> Action {
    let verb = match key {
        MOVE => "Move (Bewegen)",
        FIRE => "Fire (Feuern)",
        ATTACK => "Attack (Angriff)",
        AMBUSH => "Ambush (Hinterhalt)",
        REPAIR => "Repair tracks (Rückzug)",
        _ => "Spot (Aufklärung)",
    };
    let mut action = Action::new(key, format!("{}: {verb}", unit.label));
    action.side = Some(unit.side);
    action.unit = Some(unit.id.clone());
    action.mechanic = mechanic_key(key).and_then(|k| mechanic_id(k).ok());
    if matches!(key, FIRE | ATTACK | SPOT) {
        action.targets = enemies_in_play(board, unit.side);
        if key == SPOT {
            action.targets.retain(|t| board.unit(t).is_some_and(|u| !u.has(SPOTTED)));
        }
    }
    action.refused = refusal(board, unit, key);
    if key == SPOT && action.refused.is_none() && action.targets.is_empty() {
        action.refused = Some("every enemy tank already carries a spot marker".to_string());
    }
    action
}

/// The player's inputs for `action`, read from a request.
fn player_inputs(inputs: &mut Inputs, action: &str, request: &Request) {
    for spec in BattleOfTanksBattle::params(action) {
        if let Some(value) = request.inputs.get(spec.key) {
            inputs.set(spec.key, value.clone());
        }
    }
}

fn book(card: &Card) -> InputValue {
    InputValue::Card(Some(CardPick::book(card)))
}

fn count_of(report: &Report, key: &str) -> i64 {
    match report.get(key) {
        Some(Value::Count(n)) => *n,
        _ => 0,
    }
}

fn flag_of(report: &Report, key: &str) -> bool {
    matches!(report.get(key), Some(Value::Flag(true)))
}

/// The battle ends at once when a side has no tank left in play.
fn wiped_out(board: &Board, effects: &[Effect]) -> Option<Effect> {
    let mut after = board.clone();
    for e in effects {
        after.apply(e);
    }
    SIDES.into_iter().find_map(|side| {
        let any_left = after.side_units(side).any(BoardUnit::in_play);
        (!any_left).then(|| Effect::Ends {
            winner: Some(opponent(side)),
            reason: format!(
                "every tank of the {} player is destroyed",
                if side == Side::First { "first" } else { "second" }
            ),
        })
    })
}

fn resolve_fire(
    board: &Board,
    request: &Request,
    inputs: &Inputs,
    roller: &mut Roller,
) -> Result<Resolved, BattleError> {
    let unit = actor(board, request)?;
    let target = target_of(board, unit, request)?;
    // A hull-down target stands behind heavy cover whatever the cover input says.
    let in_cover = inputs.choice("cover") != "open" || inputs.flag("hull_down");
    if in_cover && !target.has(SPOTTED) {
        return Err(BattleError::not_allowed(format!(
            "{} is in cover and carries no spot marker: spot it first ({})",
            target.label, SPOT_BEFORE_FIRE.ruling
        )));
    }
    let report = roll_mechanic(RULESET, "fire", inputs, roller)?;
    let left = hit_points(target);
    let damage = count_of(&report, "damage").min(left);
    let mut effects = vec![Effect::order(&unit.id, Some(request.action))];
    if unit.has(AMBUSHING) {
        effects.push(Effect::clear(&unit.id, AMBUSHING));
    }
    if request.action == ATTACK {
        effects.push(Effect::mark(&unit.id, MOVED));
    }
    if damage > 0 {
        effects.push(Effect::add(&target.id, HIT_POINTS, -damage));
    }
    if damage >= left {
        effects.push(Effect::mark(&target.id, DESTROYED));
    } else if count_of(&report, "track_hits") > 0 && !target.has(TRACKED) {
        effects.push(Effect::mark(&target.id, TRACKED));
    }
    debug_assert_eq!(flag_of(&report, "destroyed"), damage >= left);
    effects.extend(wiped_out(board, &effects));
    Ok(Resolved {
        effects,
        report: Some(report),
        result: Vec::new(),
    })
}

fn resolve_repair(
    board: &Board,
    request: &Request,
    inputs: &Inputs,
    roller: &mut Roller,
) -> Result<Resolved, BattleError> {
    let unit = actor(board, request)?;
    let report = roll_mechanic(RULESET, "repair", inputs, roller)?;
    let mut effects = vec![Effect::order(&unit.id, Some(REPAIR))];
    if flag_of(&report, "repaired") {
        // Repaired, the tank withdraws half a move.
        effects.push(Effect::clear(&unit.id, TRACKED));
        effects.push(Effect::mark(&unit.id, MOVED));
    }
    Ok(Resolved {
        effects,
        report: Some(report),
        result: Vec::new(),
    })
}

fn resolve_spot(
    board: &Board,
    request: &Request,
    inputs: &Inputs,
    roller: &mut Roller,
) -> Result<Resolved, BattleError> {
    let unit = actor(board, request)?;
    let target = target_of(board, unit, request)?;
    let report = roll_mechanic(RULESET, "spotting", inputs, roller)?;
    let mut effects = vec![Effect::order(&unit.id, Some(SPOT))];
    if flag_of(&report, "spotted") {
        effects.push(Effect::mark(&target.id, SPOTTED));
    }
    Ok(Resolved {
        effects,
        report: Some(report),
        result: Vec::new(),
    })
}

fn resolve_move(board: &Board, request: &Request) -> Result<Resolved, BattleError> {
    let unit = actor(board, request)?;
    Ok(Resolved {
        effects: vec![
            Effect::order(&unit.id, Some(MOVE)),
            Effect::mark(&unit.id, MOVED),
        ],
        report: None,
        result: vec![format!("{} moves up to {} cm", unit.label, tank(unit)?.movement_cm)],
    })
}

/// The round ends: order flags and spot markers come off, and after the last round the
/// battle is decided by tier points destroyed.
fn resolve_end_turn(board: &Board) -> Resolved {
    let mut effects = Vec::new();
    for unit in &board.units {
        if unit.order.is_some() && !unit.has(AMBUSHING) {
            effects.push(Effect::order(&unit.id, None));
        }
        for mark in [SPOTTED, MOVED] {
            if unit.has(mark) {
                effects.push(Effect::clear(&unit.id, mark));
            }
        }
    }
    let mut result = Vec::new();
    if board.turn >= TURN_LIMIT {
        let first = tiers_lost(board, Side::Second);
        let second = tiers_lost(board, Side::First);
        let winner = match first.cmp(&second) {
            std::cmp::Ordering::Greater => Some(Side::First),
            std::cmp::Ordering::Less => Some(Side::Second),
            std::cmp::Ordering::Equal => None,
        };
        result.push(TURN_LIMIT_RULING.ruling.to_string());
        effects.push(Effect::Ends {
            winner,
            reason: format!(
                "round {TURN_LIMIT} is over: tier points destroyed {first} (first player) to {second} (second player)"
            ),
        });
    } else {
        effects.push(Effect::NextTurn);
    }
    Resolved {
        effects,
        report: None,
        result,
    }
}


/// More house defaults of a Battle of Tanks battle on the board (docs/rulings.md).
pub const TRACKS_RULING: HouseDefault = HouseDefault {
    value: "tracked",
    ruling: "Damaged tracks stay damaged until a Rueckzug order repairs them.",
};
pub const ONE_TARGET_RULING: HouseDefault = HouseDefault {
    value: "fire",
    ruling: "A fire order puts the tank's whole fire rate on one target.",
};
pub const AMBUSH_RULING: HouseDefault = HouseDefault {
    value: "ambush",
    ruling: "An ambushing tank keeps its order from round to round and fires once at -1 when its player says, which ends the ambush.",
};
pub const CARRY_RULING: HouseDefault = HouseDefault {
    value: "carry",
    ruling: "Between battles every surviving tank is fully repaired; a destroyed tank is lost.",
};

impl TableRules for BattleOfTanksBattle {
    const RULINGS: &'static [HouseDefault] = &[
        TURN_LIMIT_RULING,
        SPOT_BEFORE_FIRE,
        TRACKS_RULING,
        ONE_TARGET_RULING,
        AMBUSH_RULING,
        CARRY_RULING,
    ];
    const RULESET: RulesetId = RULESET;
    const ACTIONS: &'static [&'static str] =
        &[MOVE, FIRE, ATTACK, REPAIR, SPOT, AMBUSH, END_TURN];

    fn start(plan: &TablePlan) -> Board {
        let mut board = Board::from_plan(plan);
        for unit in &mut board.units {
            if let Ok(card) = tank(unit) {
                let full = i64::from(card.hit_points);
                unit.counters.entry(HIT_POINTS.to_string()).or_insert(full);
            }
        }
        board
    }

    fn actions(_plan: &TablePlan, board: &Board) -> Vec<Action> {
        let mut actions: Vec<Action> = board
            .units
            .iter()
            .filter(|u| u.in_play())
            .flat_map(|u| {
                [MOVE, FIRE, ATTACK, REPAIR, SPOT, AMBUSH].map(|key| unit_action(board, u, key))
            })
            .collect();
        actions.push(Action::new(END_TURN, format!("End round {}", board.turn)));
        actions
    }

    fn params(action: &str) -> Vec<InputSpec> {
        let Some(key) = mechanic_key(action) else {
            return Vec::new();
        };
        let Some(m) = mechanic(RULESET, key) else {
            return Vec::new();
        };
        (m.inputs)()
            .into_iter()
            .filter(|s| !FIRE_FIXED.contains(&s.key))
            .collect()
    }

    fn situation(
        _plan: &TablePlan,
        board: &Board,
        request: &Request,
    ) -> Result<(MechanicId, Inputs), BattleError> {
        let key = mechanic_key(request.action).ok_or(BattleError::NothingTo("roll"))?;
        let m = mechanic(RULESET, key)
            .ok_or_else(|| BattleError::MissingData(format!("mechanic {key}")))?;
        let unit = actor(board, request)?;
        let mut inputs = m.defaults();
        inputs.set("attacker", book(&unit.card));
        if key == "fire" {
            let target = target_of(board, unit, request)?;
            let card = tank(target)?;
            let left = hit_points(target);
            let mut entry = ListEntry {
                card: Some(CardPick::book(&target.card)),
                ..ListEntry::default()
            };
            // 0 means an undamaged target and the whole fire rate at it.
            if left != i64::from(card.hit_points) {
                entry.numbers.insert("hit_points", left);
            }
            inputs.set("target", InputValue::CardList(vec![entry]));
            inputs.set("moving", InputValue::Flag(request.action == ATTACK));
            inputs.set("ambush", InputValue::Flag(unit.has(AMBUSHING)));
            inputs.set("target_moving", InputValue::Flag(target.has(MOVED)));
        } else if key == "spotting" {
            target_of(board, unit, request)?;
        }
        player_inputs(&mut inputs, request.action, request);
        Ok((m.id(), inputs))
    }

    fn resolve(
        plan: &TablePlan,
        board: &Board,
        request: &Request,
        roller: &mut Roller,
    ) -> Result<Resolved, BattleError> {
        match request.action {
            MOVE => resolve_move(board, request),
            AMBUSH => {
                let unit = actor(board, request)?;
                Ok(Resolved {
                    effects: vec![
                        Effect::order(&unit.id, Some(AMBUSH)),
                        Effect::mark(&unit.id, AMBUSHING),
                    ],
                    report: None,
                    result: Vec::new(),
                })
            }
            END_TURN => Ok(resolve_end_turn(board)),
            FIRE | ATTACK | REPAIR | SPOT => {
                let (_, inputs) = Self::situation(plan, board, request)?;
                match request.action {
                    REPAIR => resolve_repair(board, request, &inputs, roller),
                    SPOT => resolve_spot(board, request, &inputs, roller),
                    _ => resolve_fire(board, request, &inputs, roller),
                }
            }
            other => Err(BattleError::not_allowed(format!(
                "no action '{other}' in Battle of Tanks"
            ))),
        }
    }

    fn category(action: &str) -> Category {
        match action {
            FIRE | ATTACK => Category::Fire,
            REPAIR => Category::Rally,
            END_TURN => Category::Result,
            _ => Category::Command,
        }
    }

    /// Tier points of enemy tanks each side has destroyed (the house default's measure).
    fn score(board: &Board) -> Option<Sides<u32>> {
        Some(Sides {
            first: tiers_lost(board, Side::Second),
            second: tiers_lost(board, Side::First),
        })
    }

    /// New house default: a surviving tank is repaired between battles (hit points full,
    /// tracks mended, no marker carried); a destroyed tank is lost.
    fn carry(unit: &BoardUnit) -> Option<TableUnit> {
        unit.in_play().then(|| unit.carried(Default::default()))
    }

    /// The tank cards have no crew quality or other ladder: nothing to promote.
    fn promote(_unit: &TableUnit) -> Option<TableUnit> {
        None
    }

    /// Each side in turn gives its next tank without an order: a tracked tank repairs, any
    /// other fires at the first enemy tank in the open; when no tank is left to order, the
    /// round ends (so the battle ends by round [`TURN_LIMIT`] at the latest).
    fn scripted(plan: &TablePlan, board: &Board) -> Option<Request> {
        if board.outcome.is_some() {
            return None;
        }
        let ordered = |side: Side| {
            board
                .side_units(side)
                .filter(|u| u.order.is_some())
                .count()
        };
        let mut sides = SIDES;
        if ordered(Side::First) > ordered(Side::Second) {
            sides.reverse();
        }
        let actions = Self::actions(plan, board);
        for side in sides {
            for unit in board.side_units(side).filter(|u| u.in_play() && u.order.is_none()) {
                let key = if unit.has(TRACKED) { REPAIR } else { FIRE };
                let Some(action) = actions
                    .iter()
                    .find(|a| a.key == key && a.unit.as_deref() == Some(&unit.id))
                else {
                    continue;
                };
                if !action.allowed() {
                    continue;
                }
                let mut request = action.request();
                if let Some(target) = action.targets.first() {
                    request.target = Some(target.clone());
                }
                return Some(request);
            }
        }
        Some(Request::new(END_TURN))
    }
}

#[cfg(test)]
mod tests;
