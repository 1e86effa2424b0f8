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
//! - Damaged tracks stay damaged until a Rückzug order repairs them ([`TRACKS_RULING`] says
//!   why this reading over the example's one round).
//! - The order bag is the players': the board gives each tank one order a round in whatever
//!   order the players draw the stones ([`BAG_RULING`]), and a round ended with tanks still
//!   waiting for an order asks first.
//! - A spotting order (Aufklärung) marks every enemy tank in sight, one spotting roll each:
//!   the spotting tank may mark a further tank under the same order (revision 2; under
//!   revision 1 an order spotted one tank).
//! - A fire order aims the whole fire rate at one target (split fire is the Resolve view's).
//! - Hinterhalt (`ambush`): the tank waits, its order stone staying beside it from round to
//!   round ([`AMBUSHING`]); it takes no other order, and fires once at −1 whenever its player
//!   says (the interruption is the players' to time), which ends the ambush and is its order
//!   for that round.
//! - Between battles of a campaign every surviving tank is repaired ([`TableRules::carry`]).

use super::TankCard;
use crate::rules::battle::board::{Board, BoardUnit, DESTROYED, Effect, TablePlan};
use crate::rules::battle::standing::{Badge, Strength, Tally, Tone, TurnStanding, UnitStanding};
use crate::rules::battle::table::{Resolved, TableRules, mechanic_id, roll_mechanic};
use crate::rules::battle::{Action, BattleError, Category, Request, SIDES, Side, Sides};
use crate::rules::card::Card;
use crate::rules::dice::{FaceNames, Roller};
use crate::rules::resolution::{
    CardPick, InputSpec, InputValue, Inputs, ListEntry, MechanicId, mechanic,
};
use crate::rules::{HouseDefault, RulesetId};

/// The revision of the Battle of Tanks rulings from which a spotting order marks every enemy
/// tank in sight (before it, one).
pub const SPOT_EVERY_TANK: u32 = 2;

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
    ruling: "The battle ends after round 6; the side that destroyed more tier points wins (equal: a draw). Holding the enemy base is concluded by the players.",
};

/// The turn limit ruling as revision 1 wrote it into the last round's event (kept so those
/// events verify as recorded).
const TURN_LIMIT_RULING_REVISION_1: &str = "House default: the battle ends after round 6; the side that destroyed more tier points wins (equal: a draw). Holding the enemy base is concluded by the players.";

/// New house default: firing at a target in cover needs a spot marker.
pub const SPOT_BEFORE_FIRE: HouseDefault = HouseDefault {
    value: "cover",
    ruling: "A target in light or heavy cover must carry a spot marker (Aufklärung) before it is fired at; open ground is spotted automatically.",
};

/// The order bag is drawn at the table.
pub const BAG_RULING: HouseDefault = HouseDefault {
    value: "end_turn",
    ruling: "The order stones are drawn from the bag at the table: the board gives each tank one order a round in whatever order the players record them, and the round ends when the players say every stone is out (ending it with tanks still waiting for an order asks first).",
};

/// RULINGS "Board battles": a spotting order marks every tank in sight.
pub const SPOT_RULING: HouseDefault = HouseDefault {
    value: "spot",
    ruling: "A spotting order (Aufklärung) marks every enemy tank the player says is in sight: after its first target the tank may spot further tanks under the same order, one spotting roll each.",
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

fn mechanic_key(action: &str) -> Option<&'static str> {
    match action {
        FIRE | ATTACK => Some("fire"),
        REPAIR => Some("repair"),
        SPOT => Some("spotting"),
        _ => None,
    }
}

/// The acting tank of a request, on the board and in play.
fn actor<'a>(board: &'a Board, request: &Request) -> Result<&'a BoardUnit, BattleError> {
    board.actor(request, "tank")
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

/// Why `unit` cannot take `order` now under `revision`, if it cannot.
fn refusal(board: &Board, unit: &BoardUnit, order: &str, revision: u32) -> Option<String> {
    if unit.has(AMBUSHING) && !(order == FIRE && unit.order.as_deref() == Some(AMBUSH)) {
        return Some(format!(
            "{} lies in ambush: it takes no other order until it has fired",
            unit.label
        ));
    }
    // A spotting order marks every tank in sight: the same order spots the next one.
    let spotting_on =
        revision >= SPOT_EVERY_TANK && order == SPOT && unit.order.as_deref() == Some(SPOT);
    if let Some(given) = unit
        .order
        .as_ref()
        .filter(|_| !unit.has(AMBUSHING) && !spotting_on)
    {
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
        FIRE | ATTACK | SPOT if board.enemies_in_play(unit.side).is_empty() => {
            Some("no enemy tank is left".to_string())
        }
        _ => None,
    }
}

fn unit_action(board: &Board, unit: &BoardUnit, key: &'static str, revision: u32) -> Action {
    let spotting_on = key == SPOT && unit.order.as_deref() == Some(SPOT);
    let verb = match key {
        MOVE => "Move (Bewegen)",
        FIRE => "Fire (Feuern)",
        ATTACK => "Attack (Angriff)",
        AMBUSH => "Ambush (Hinterhalt)",
        REPAIR => "Repair tracks (Rückzug)",
        _ if spotting_on => "Spot another tank in sight (same order)",
        _ => "Spot (Aufklärung)",
    };
    let mut action = Action::new(key, format!("{}: {verb}", unit.label));
    action.side = Some(unit.side);
    action.unit = Some(unit.id.clone());
    action.mechanic = mechanic_key(key).and_then(|k| mechanic_id(RULESET, k));
    if matches!(key, FIRE | ATTACK | SPOT) {
        action.targets = board.enemies_in_play(unit.side);
        if key == SPOT {
            action
                .targets
                .retain(|t| board.unit(t).is_some_and(|u| !u.has(SPOTTED)));
        }
    }
    action.refused = refusal(board, unit, key, revision);
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

/// The battle ends at once when a side has no tank left in play.
fn wiped_out(board: &Board, effects: &[Effect]) -> Option<Effect> {
    board.wiped_out(effects, |gone| match gone {
        Some(side) => format!(
            "every tank of the {} player is destroyed",
            if side == Side::First {
                "first"
            } else {
                "second"
            }
        ),
        None => "every tank of both players is destroyed".to_string(),
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
    let damage = report.count_of("damage").min(left);
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
    } else if report.count_of("track_hits") > 0 && !target.has(TRACKED) {
        effects.push(Effect::mark(&target.id, TRACKED));
    }
    debug_assert_eq!(report.flag_of("destroyed"), damage >= left);
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
    if report.flag_of("repaired") {
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
    if report.flag_of("spotted") {
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
        result: vec![format!(
            "{} moves up to {} cm",
            unit.label,
            tank(unit)?.movement_cm
        )],
    })
}

/// The round ends: order flags and spot markers come off, and after the last round the
/// battle is decided by tier points destroyed.
fn resolve_end_turn(board: &Board, revision: u32) -> Resolved {
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
        result.push(if revision >= SPOT_EVERY_TANK {
            format!("House default: {}", TURN_LIMIT_RULING.ruling)
        } else {
            TURN_LIMIT_RULING_REVISION_1.to_string()
        });
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
    ruling: "Damaged tracks stay damaged until a Rückzug order repairs them. The book's example says a K stops the tank for one round, but its Rückzug order exists to repair tracks (a repair roll against the card's Instandsetzung), which would never be needed if tracks mended by themselves; the tracker follows the order's rule, and players who prefer the example repair at the next Rückzug.",
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
        BAG_RULING,
        SPOT_RULING,
        TRACKS_RULING,
        ONE_TARGET_RULING,
        AMBUSH_RULING,
        CARRY_RULING,
    ];
    const BETWEEN_BATTLES: &'static [(&'static str, &'static str)] =
        &[(TRACKED, "damaged tracks repaired")];
    const REVISION: u32 = SPOT_EVERY_TANK;
    const CORRECTED: &'static str = "a spotting order spotted one tank";
    const RULESET: RulesetId = RULESET;
    const ACTIONS: &'static [&'static str] = &[MOVE, FIRE, ATTACK, REPAIR, SPOT, AMBUSH, END_TURN];
    const TURN_ORDER: &'static str = "Order stones are drawn from the bag one at a time; the owner of each gives one of their tanks an order and carries it out; the round ends when every stone is out (a tank in ambush keeps its stone).";

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

    fn actions(_plan: &TablePlan, board: &Board, revision: u32) -> Vec<Action> {
        let mut actions: Vec<Action> = board
            .units
            .iter()
            .filter(|u| u.in_play())
            .flat_map(|u| {
                [MOVE, FIRE, ATTACK, REPAIR, SPOT, AMBUSH]
                    .map(|key| unit_action(board, u, key, revision))
            })
            .collect();
        actions.push(end_round_action(board));
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
        inputs.set("attacker", unit.card_input());
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
        revision: u32,
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
            END_TURN => Ok(resolve_end_turn(board, revision)),
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

    /// The penetration die shows –, K, T and W.
    fn face_names(pool: &str, _sides: u8) -> FaceNames {
        match pool {
            "penetration" => super::resolve::penetration_names().unwrap_or_default(),
            _ => FaceNames::Numbers,
        }
    }

    /// A tank's card on the board: hit points against its card's, its order and marks.
    fn unit_standing(_plan: &TablePlan, unit: &BoardUnit) -> UnitStanding {
        let full = tank(unit).map_or(0, |t| i64::from(t.hit_points));
        let now = hit_points(unit);
        let mut badges = Vec::new();
        if let Some(order) = unit.order.as_deref().filter(|_| !unit.has(AMBUSHING)) {
            let label = match order {
                MOVE => "Bewegen",
                FIRE => "Feuern",
                ATTACK => "Angriff",
                REPAIR => "Rückzug",
                SPOT => "Aufklärung",
                other => other,
            };
            badges.push(Badge::new(label, Tone::Neutral));
        }
        if unit.has(AMBUSHING) {
            badges.push(Badge::new("Hinterhalt (ambush)", Tone::Good));
        }
        if unit.has(TRACKED) {
            badges.push(Badge::new("Tracks damaged", Tone::Warning));
        }
        if unit.has(SPOTTED) {
            badges.push(Badge::new("Spotted", Tone::Warning));
        }
        if unit.has(MOVED) {
            badges.push(Badge::new("Moved", Tone::Neutral));
        }
        UnitStanding::of(
            unit,
            Some(Strength::new(now, full, "hit points")),
            Vec::new(),
            badges,
        )
    }

    fn turn_standing(_plan: &TablePlan, board: &Board) -> TurnStanding {
        round_of(board)
    }

    /// Each side in turn gives its next tank without an order: a tracked tank repairs, any
    /// other fires at the first enemy tank in the open; when no tank is left to order, the
    /// round ends (so the battle ends by round [`TURN_LIMIT`] at the latest).
    fn scripted(plan: &TablePlan, board: &Board) -> Option<Request> {
        if board.outcome.is_some() {
            return None;
        }
        let ordered = |side: Side| board.side_units(side).filter(|u| u.order.is_some()).count();
        let mut sides = SIDES;
        if ordered(Side::First) > ordered(Side::Second) {
            sides.reverse();
        }
        let actions = Self::actions(plan, board, SPOT_EVERY_TANK);
        for side in sides {
            for unit in board
                .side_units(side)
                .filter(|u| u.in_play() && u.order.is_none())
            {
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

/// Tanks of `side` in play still waiting for this round's order stone.
fn waiting(board: &Board, side: Side) -> usize {
    board
        .side_units(side)
        .filter(|u| u.in_play() && u.order.is_none() && !u.has(AMBUSHING))
        .count()
}

/// End the round: the bag is the players', so it is always allowed, but with tanks still
/// waiting for an order the players are asked first (BAG_RULING).
fn end_round_action(board: &Board) -> Action {
    let mut action = Action::new(END_TURN, format!("End round {}", board.turn));
    let left: usize = SIDES.into_iter().map(|s| waiting(board, s)).sum();
    if left > 0 {
        let tanks = if left == 1 { "tank has" } else { "tanks have" };
        action.confirm = Some(format!(
            "{left} {tanks} no order yet this round; the round ends when every order stone is out of the bag: end round {} now?",
            board.turn
        ));
    }
    action
}

/// The round: each side's stones still in the bag, the next step.
fn round_of(board: &Board) -> TurnStanding {
    let mut stock: Sides<Vec<Tally>> = Sides::default();
    for side in SIDES {
        let left = i64::try_from(waiting(board, side)).unwrap_or(0);
        *stock.get_mut(side) = vec![Tally::new("Order stones in the bag", left, Tone::Neutral)];
    }
    let step = if SIDES.into_iter().any(|s| waiting(board, s) > 0) {
        (
            None,
            "Draw an order stone and order that player's tank".to_string(),
            None,
        )
    } else {
        (
            None,
            format!("Every stone is out: end round {}", board.turn),
            Some(END_TURN),
        )
    };
    TurnStanding::of(board, ("Round", Some(TURN_LIMIT)), stock, step)
}

#[cfg(test)]
mod tests;
