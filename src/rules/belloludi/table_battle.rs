//! BelloLudi Tanks! fought on the generic [`Board`]: each tank's armour left (its chips),
//! disorder, shaken and broken, each side's commander die and the orders it gave, and the
//! broken group that decides the battle.
//!
//! What the book gives: the commander die sets the orders of the turn (B, 0, 1, 2 or 3; B is
//! a blunder and no order); firing is free but once per turn; a hit deals the commander dice
//! of the gun, a B destroys; shaken and broken by armour left (RULINGS "State"); disorder when
//! all damage dice hit (RULINGS "Shooting"); crashing tanks each roll a commander die and deal
//! its number; a rally order removes one chip, at most one per tank per turn, and a broken
//! group may only rally — with a commander die, 1–3 removing the chip; a group is broken when
//! more than half its tanks are shaken, broken or gone, the army when more than half its
//! groups are; victory points as the book counts them.
//!
//! Revision 2 reads the book where revision 1 had cut it short: a broken group falls back and
//! rallies with the commander die "in the next turns", and is lost only when it leaves the
//! table (the players say so: `leave_table`) or the battle ends with it still broken; a tank
//! that has been shaken scores its victory point once, kept after it rallies ([`WAS_SHAKEN`]).
//! Under revision 1 a group still broken when a turn ended lost at once.
//!
//! House defaults (new, shown with the actions that use them):
//! - Each side is one group with one commander: one commander die per side per turn
//!   ([`ONE_GROUP_RULING`]), so a broken group is a broken army.
//! - The initiative roll-off that starts each turn is the players' ([`INITIATIVE_RULING`]).
//! - The battle ends after [`TURN_LIMIT`] turns, the side with more victory points winning.
//! - A rally also clears disorder (RULINGS "Shooting": disordered "until it rallies").
//! - Between battles of a campaign a surviving tank's chips are mended ([`TableRules::carry`]).
//! - Ambush, cover, smoke and aim orders are positional: a player spends them as `move`.

use crate::rules::battle::board::{Board, BoardUnit, DESTROYED, Effect, TablePlan};
use crate::rules::battle::standing::{Badge, Strength, Tally, Tone, TurnStanding, UnitStanding};
use crate::rules::battle::table::{Resolved, TableRules, mechanic_id, roll_mechanic};
use crate::rules::battle::{
    Action, BattleError, Category, Cost, Request, SIDES, Side, Sides, opponent,
};
use crate::rules::card::Card;
use crate::rules::dice::{FaceNames, Roller};
use crate::rules::resolution::{
    InputSpec, InputValue, Inputs, MechanicId, Report, Value, mechanic,
};
use crate::rules::{HouseDefault, RulesetId};

use super::Vehicle;
use super::resolve::{TankState, VictoryTally, group_is_broken, state_of};

const RULESET: RulesetId = RulesetId::Belloludi;

/// Counter: armour points a tank has left (its card's armour less the chips it took).
pub const ARMOUR: &str = "armour";
/// Mark: all damage dice hit it; −1 to shoot until it rallies.
pub const DISORDERED: &str = "disordered";
/// Mark: armour left below half the card's: −1 to shoot.
pub const SHAKEN: &str = "shaken";
/// Mark: armour left at most a quarter of the card's: it retreats.
pub const BROKEN: &str = "broken";
/// Mark: it has fired this turn (once per turn).
pub const FIRED: &str = "fired";
/// Mark: it has been rallied this turn (once per turn).
pub const RALLIED: &str = "rallied";
/// Mark: it has been shaken (or broken) this battle: its victory point is scored once and
/// kept after a rally.
pub const WAS_SHAKEN: &str = "was_shaken";
/// Side counter: orders left this turn from the commander die.
pub const ORDERS: &str = "orders";
/// Side counter: 1 once the side has rolled its commander die this turn.
pub const COMMANDED: &str = "commanded";

pub const COMMAND: &str = "command";
pub const MOVE: &str = "move";
pub const SHOOT: &str = "shoot";
pub const CRASH: &str = "crash";
pub const RALLY: &str = "rally";
pub const END_TURN: &str = "end_turn";
pub const LEAVE_TABLE: &str = "leave_table";

/// The revision of the BelloLudi rulings from which a broken group rallies over the next
/// turns and a shaken tank's victory point is kept (see the module docs).
pub const BROKEN_GROUP_RALLIES: u32 = 2;

/// New house default: the last turn the tracker plays.
pub const TURN_LIMIT: u32 = 6;

/// New house default: one group per side.
pub const ONE_GROUP_RULING: HouseDefault = HouseDefault {
    value: "command",
    ruling: "Each side's tanks are one group under one commander, who rolls one commander die a turn; a broken group is a broken army: it falls back and rallies with the commander die in the next turns, and loses when it leaves the table or the battle ends with it still broken.",
};

/// New house default: the turn limit.
pub const TURN_LIMIT_RULING: HouseDefault = HouseDefault {
    value: "end_turn",
    ruling: "The battle ends after turn 6; a side whose group is still broken loses, else the side with more victory points wins (equal: a draw).",
};

/// The turn limit ruling as revision 1 wrote it into the last turn's event (kept so those
/// events verify as recorded).
const TURN_LIMIT_RULING_REVISION_1: &str = "House default: the battle ends after turn 6; the side with more victory points wins (equal: a draw).";

/// New house default: who moves first is rolled for at the table.
pub const INITIATIVE_RULING: HouseDefault = HouseDefault {
    value: "command",
    ruling: "Each turn starts with the commanders rolling off for the initiative at the table (re-roll ties), the winner choosing which side goes first; the board takes the sides' actions in the order the players record them.",
};

/// The shooting mechanic's inputs the battle sets from the board.
const SHOT_FIXED: &[&str] = &["shooter", "target", "target_armour", "shooter_shaken"];

/// BelloLudi Tanks! on the generic board.
pub struct BelloLudiBattle;

fn vehicle(unit: &BoardUnit) -> Result<&Vehicle, BattleError> {
    match &unit.card {
        Card::Belloludi(v) => Ok(v),
        other => Err(BattleError::Invalid {
            field: "card",
            message: format!("{} is not a BelloLudi tank", other.name()),
        }),
    }
}

fn full_armour(unit: &BoardUnit) -> i64 {
    vehicle(unit).map_or(0, |v| i64::from(v.armour))
}

fn armour_left(unit: &BoardUnit) -> u32 {
    u32::try_from(unit.count(ARMOUR).max(0)).unwrap_or(0)
}

/// How a tank stands on the board.
fn state(unit: &BoardUnit) -> TankState {
    match vehicle(unit) {
        _ if !unit.in_play() => TankState::Destroyed,
        Ok(v) => state_of(v, armour_left(unit)),
        Err(_) => TankState::Steady,
    }
}

fn states(board: &Board, side: Side) -> Vec<TankState> {
    board.side_units(side).map(state).collect()
}

/// More than half the side's tanks shaken, broken or gone.
fn side_broken(board: &Board, side: Side) -> bool {
    group_is_broken(&states(board, side))
}

/// Victory points `side` has scored (the book's tally of the enemy's tanks and group): a
/// tank that has been shaken counts once, rallied or not.
fn victory_points(board: &Board, side: Side) -> u32 {
    let enemy = opponent(side);
    let mut tally = VictoryTally::from_groups(&[states(board, enemy)]);
    tally.shaken += u32::try_from(
        board
            .side_units(enemy)
            .filter(|u| u.has(WAS_SHAKEN) && state(u) == TankState::Steady)
            .count(),
    )
    .unwrap_or(0);
    tally.points().unwrap_or(0)
}

fn actor<'a>(board: &'a Board, request: &Request) -> Result<&'a BoardUnit, BattleError> {
    board.actor(request, "tank")
}

fn target_of<'a>(
    board: &'a Board,
    actor: &BoardUnit,
    request: &Request,
) -> Result<&'a BoardUnit, BattleError> {
    board.enemy_target(actor, request, "tank")
}

/// A tank's marks brought in line with `remaining` armour (and a bullseye's destruction);
/// under revision 2 a tank shaken for the first time keeps that it was.
fn state_effects(unit: &BoardUnit, remaining: u32, revision: u32) -> Vec<Effect> {
    let after = vehicle(unit).map_or(TankState::Steady, |v| state_of(v, remaining));
    let want = |mark: &str| match mark {
        SHAKEN => after == TankState::Shaken,
        BROKEN => after == TankState::Broken,
        _ => after == TankState::Destroyed,
    };
    let mut effects = Vec::new();
    for mark in [SHAKEN, BROKEN, DESTROYED] {
        match (unit.has(mark), want(mark)) {
            (false, true) => effects.push(Effect::mark(&unit.id, mark)),
            (true, false) => effects.push(Effect::clear(&unit.id, mark)),
            _ => {}
        }
    }
    let shaken_now = matches!(after, TankState::Shaken | TankState::Broken);
    if revision >= BROKEN_GROUP_RALLIES && shaken_now && !unit.has(WAS_SHAKEN) {
        effects.push(Effect::mark(&unit.id, WAS_SHAKEN));
    }
    effects
}

/// Armour lost down to `remaining`, and the marks that follow.
fn damage_effects(unit: &BoardUnit, remaining: u32, revision: u32) -> Vec<Effect> {
    let lost = i64::from(armour_left(unit)) - i64::from(remaining);
    let mut effects = Vec::new();
    if lost > 0 {
        effects.push(Effect::add(&unit.id, ARMOUR, -lost));
    }
    effects.extend(state_effects(unit, remaining, revision));
    effects
}

/// The battle ends at once when a side has no tank left in play.
fn wiped_out(board: &Board, effects: &[Effect]) -> Option<Effect> {
    board.wiped_out(effects, |gone| match gone {
        Some(side) => format!("no tank of the {} player is left", side_word(side)),
        // A crash can take the last tank of each side.
        None => "no tank is left on either side".to_string(),
    })
}

fn side_word(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

/// The commander die's face in a command report: orders given (B counts none).
fn orders_of(report: &Report) -> Option<u32> {
    match report.get("face") {
        Some(Value::Text(face)) => face.parse().ok(),
        _ => None,
    }
}

/// Why `unit` cannot take `key` now, if it cannot.
fn refusal(board: &Board, unit: &BoardUnit, key: &str) -> Option<String> {
    let side = unit.side;
    let broken = side_broken(board, side);
    let orders = board.side_count(side, ORDERS);
    let needs_order = matches!(key, MOVE | CRASH) || (key == RALLY && !broken);
    if broken && key != RALLY {
        return Some(format!(
            "the group is broken: it falls back and may only rally ({})",
            unit.label
        ));
    }
    if needs_order && board.side_count(side, COMMANDED) == 0 {
        return Some("roll the commander die first".to_string());
    }
    if needs_order && orders <= 0 {
        return Some("no order left this turn".to_string());
    }
    match key {
        SHOOT if unit.has(FIRED) => Some(format!("{} has fired this turn", unit.label)),
        SHOOT | CRASH if board.enemies_in_play(side).is_empty() => {
            Some("no enemy tank is left".to_string())
        }
        RALLY if unit.has(RALLIED) => Some(format!("{} has rallied this turn", unit.label)),
        RALLY if unit.count(ARMOUR) >= full_armour(unit) && !unit.has(DISORDERED) => Some(format!(
            "{} has no chip to remove and is not in disorder",
            unit.label
        )),
        _ => None,
    }
}

fn unit_action(board: &Board, unit: &BoardUnit, key: &'static str) -> Action {
    let broken = side_broken(board, unit.side);
    let verb = match key {
        MOVE => "Move (an order)",
        SHOOT => "Shoot",
        CRASH => "Crash into (an order)",
        RALLY if broken => "Rally (commander die)",
        _ => "Rally (an order)",
    };
    let mut action = Action::new(key, format!("{}: {verb}", unit.label));
    action.side = Some(unit.side);
    action.unit = Some(unit.id.clone());
    action.mechanic = match key {
        SHOOT => mechanic_id(RULESET, "shooting"),
        CRASH => mechanic_id(RULESET, "crash"),
        RALLY if broken => mechanic_id(RULESET, "command"),
        _ => None,
    };
    if matches!(key, SHOOT | CRASH) {
        action.targets = board.enemies_in_play(unit.side);
    }
    if matches!(key, MOVE | CRASH) || (key == RALLY && !broken) {
        action.costs.push(Cost {
            side: unit.side,
            what: "order".to_string(),
            count: 1,
        });
    }
    action.refused = refusal(board, unit, key);
    action
}

fn command_action(plan: &TablePlan, board: &Board, side: Side) -> Action {
    let mut action = Action::new(
        COMMAND,
        format!("{}: roll the commander die", plan.side_name(side)),
    );
    action.side = Some(side);
    action.mechanic = mechanic_id(RULESET, "command");
    if board.side_count(side, COMMANDED) > 0 {
        action.refused = Some("the commander die was rolled this turn".to_string());
    } else if side_broken(board, side) {
        action.refused = Some("the group is broken: its tanks may only rally".to_string());
    }
    action
}

fn spend_order(side: Side) -> Effect {
    Effect::side_add(side, ORDERS, -1)
}

fn resolve_command(request: &Request, roller: &mut Roller) -> Result<Resolved, BattleError> {
    let side = request.side.ok_or(BattleError::Invalid {
        field: "side",
        message: "the commander die needs the side that rolls it".to_string(),
    })?;
    let report = roll_mechanic(RULESET, "command", &Inputs::default(), roller)?;
    let orders = orders_of(&report).unwrap_or(0);
    Ok(Resolved {
        effects: vec![
            Effect::side_set(side, COMMANDED, 1),
            Effect::side_set(side, ORDERS, i64::from(orders)),
        ],
        report: Some(report),
        result: Vec::new(),
    })
}

fn resolve_shoot(
    board: &Board,
    request: &Request,
    inputs: &Inputs,
    roller: &mut Roller,
    revision: u32,
) -> Result<Resolved, BattleError> {
    let unit = actor(board, request)?;
    let target = target_of(board, unit, request)?;
    let report = roll_mechanic(RULESET, "shooting", inputs, roller)?;
    let mut effects = vec![Effect::mark(&unit.id, FIRED)];
    let remaining = report.u32_of("remaining_after");
    effects.extend(damage_effects(target, remaining, revision));
    let disordered = report.flag_of("disordered");
    if disordered && remaining > 0 && !target.has(DISORDERED) {
        effects.push(Effect::mark(&target.id, DISORDERED));
    }
    effects.extend(wiped_out(board, &effects));
    Ok(Resolved {
        effects,
        report: Some(report),
        result: Vec::new(),
    })
}

fn resolve_crash(
    board: &Board,
    request: &Request,
    inputs: &Inputs,
    roller: &mut Roller,
    revision: u32,
) -> Result<Resolved, BattleError> {
    let unit = actor(board, request)?;
    let target = target_of(board, unit, request)?;
    let report = roll_mechanic(RULESET, "crash", inputs, roller)?;
    let mut effects = vec![spend_order(unit.side)];
    let first = armour_left(unit).saturating_sub(report.u32_of("hits_to_first"));
    let second = armour_left(target).saturating_sub(report.u32_of("hits_to_second"));
    effects.extend(damage_effects(unit, first, revision));
    effects.extend(damage_effects(target, second, revision));
    effects.extend(wiped_out(board, &effects));
    Ok(Resolved {
        effects,
        report: Some(report),
        result: Vec::new(),
    })
}

/// One chip back (and disorder gone): by an order, or by the commander die when the group
/// is broken.
fn resolve_rally(
    board: &Board,
    request: &Request,
    roller: &mut Roller,
    revision: u32,
) -> Result<Resolved, BattleError> {
    let unit = actor(board, request)?;
    let mut effects = vec![Effect::mark(&unit.id, RALLIED)];
    let mut report = None;
    if side_broken(board, unit.side) {
        let rolled = roll_mechanic(RULESET, "command", &Inputs::default(), roller)?;
        let success = orders_of(&rolled).is_some_and(|n| n >= 1);
        report = Some(rolled);
        if !success {
            return Ok(Resolved {
                effects,
                report,
                result: vec![format!("{} does not rally", unit.label)],
            });
        }
    } else {
        effects.push(spend_order(unit.side));
    }
    if unit.has(DISORDERED) {
        effects.push(Effect::clear(&unit.id, DISORDERED));
    }
    let left = armour_left(unit);
    if unit.count(ARMOUR) < full_armour(unit) {
        effects.push(Effect::add(&unit.id, ARMOUR, 1));
        effects.extend(state_effects(unit, left + 1, revision));
    }
    Ok(Resolved {
        effects,
        report,
        result: vec![format!("{} rallies", unit.label)],
    })
}

/// The turn ends: per-turn marks and the commander dice are cleared; after the last turn a
/// side still broken loses, else victory points decide. Under revision 1 a side still broken
/// lost at the end of any turn.
fn resolve_end_turn(board: &Board, revision: u32) -> Resolved {
    let mut effects = Vec::new();
    for unit in &board.units {
        for mark in [FIRED, RALLIED] {
            if unit.has(mark) {
                effects.push(Effect::clear(&unit.id, mark));
            }
        }
    }
    for side in SIDES {
        for counter in [ORDERS, COMMANDED] {
            if board.side_count(side, counter) != 0 {
                effects.push(Effect::side_set(side, counter, 0));
            }
        }
    }
    let broken: Vec<Side> = SIDES
        .into_iter()
        .filter(|&s| side_broken(board, s))
        .collect();
    let points = |side| victory_points(board, side);
    let by_points = || match points(Side::First).cmp(&points(Side::Second)) {
        std::cmp::Ordering::Greater => Some(Side::First),
        std::cmp::Ordering::Less => Some(Side::Second),
        std::cmp::Ordering::Equal => None,
    };
    let score = format!(
        "victory points {} (first player) to {} (second player)",
        points(Side::First),
        points(Side::Second)
    );
    let mut result = Vec::new();
    let last = board.turn >= TURN_LIMIT;
    let rallies = revision >= BROKEN_GROUP_RALLIES;
    let ends = match broken.as_slice() {
        // The book's broken group rallies "in the next turns": lost at the battle's end.
        _ if rallies && !last => None,
        [side] => Some((
            Some(opponent(*side)),
            format!("the {} player's army is broken; {score}", side_word(*side)),
        )),
        [_, _] => Some((by_points(), format!("both armies are broken; {score}"))),
        _ if last => {
            result.push(if rallies {
                format!("House default: {}", TURN_LIMIT_RULING.ruling)
            } else {
                TURN_LIMIT_RULING_REVISION_1.to_string()
            });
            Some((by_points(), format!("turn {TURN_LIMIT} is over; {score}")))
        }
        _ => None,
    };
    match ends {
        Some((winner, reason)) => effects.push(Effect::Ends { winner, reason }),
        None => effects.push(Effect::NextTurn),
    }
    Resolved {
        effects,
        report: None,
        result,
    }
}

/// The broken group has left the table: its side loses (the book's "until the group has left
/// the table"; where it stands is the players' to say).
fn resolve_leave_table(plan: &TablePlan, request: &Request) -> Result<Resolved, BattleError> {
    let side = request.side.ok_or(BattleError::Invalid {
        field: "side",
        message: "leaving the table needs the side whose group leaves".to_string(),
    })?;
    Ok(Resolved {
        effects: vec![Effect::Ends {
            winner: Some(opponent(side)),
            reason: format!("{}'s broken group has left the table", plan.side_name(side)),
        }],
        report: None,
        result: Vec::new(),
    })
}

/// The broken group leaves the table (offered under revision 2 to a broken side only).
fn leave_table_action(plan: &TablePlan, board: &Board, side: Side) -> Action {
    let mut action = Action::new(
        LEAVE_TABLE,
        format!(
            "{}: the broken group has left the table",
            plan.side_name(side)
        ),
    );
    action.side = Some(side);
    action.destructive = true;
    if !side_broken(board, side) {
        action.refused = Some("only a broken group falls back off the table".to_string());
    }
    action
}

/// End the turn: always allowed, but a side that has not rolled its commander die (and may)
/// is asked about first.
fn end_turn_action(plan: &TablePlan, board: &Board) -> Action {
    let mut action = Action::new(END_TURN, format!("End turn {}", board.turn));
    let waiting: Vec<String> = SIDES
        .into_iter()
        .filter(|&side| command_action(plan, board, side).allowed())
        .map(|side| plan.side_name(side))
        .collect();
    let has = if waiting.len() > 1 { "have" } else { "has" };
    if !waiting.is_empty() {
        action.confirm = Some(format!(
            "{} {has} not rolled the commander die this turn: end turn {} now?",
            waiting.join(" and "),
            board.turn
        ));
    }
    action
}

/// More house defaults of a BelloLudi battle on the board (docs/rulings.md).
pub const RALLY_RULING: HouseDefault = HouseDefault {
    value: "disordered",
    ruling: "A rally clears disorder as well as a chip.",
};
pub const POSITIONAL_RULING: HouseDefault = HouseDefault {
    value: "move",
    ruling: "Ambush, cover, smoke and aim depend on where tanks stand, which the board does not keep: such an order is spent as a move.",
};
pub const CARRY_RULING: HouseDefault = HouseDefault {
    value: "carry",
    ruling: "Between battles a surviving tank's chips are mended and its disorder gone; a destroyed tank is lost.",
};

impl TableRules for BelloLudiBattle {
    const RULINGS: &'static [HouseDefault] = &[
        ONE_GROUP_RULING,
        INITIATIVE_RULING,
        TURN_LIMIT_RULING,
        RALLY_RULING,
        POSITIONAL_RULING,
        CARRY_RULING,
    ];
    const BETWEEN_BATTLES: &'static [(&'static str, &'static str)] = &[
        (DISORDERED, "disorder gone"),
        (SHAKEN, "no longer shaken"),
        (BROKEN, "no longer broken"),
    ];
    const REVISION: u32 = BROKEN_GROUP_RALLIES;
    const CORRECTED: &'static str = "a group still broken when a turn ended lost at once, and a shaken tank's victory point went with its rally";
    const RULESET: RulesetId = RULESET;
    const ACTIONS: &'static [&'static str] =
        &[COMMAND, MOVE, SHOOT, CRASH, RALLY, LEAVE_TABLE, END_TURN];
    const TURN_ORDER: &'static str = "The commanders roll off for the initiative; the side that goes first moves, orders and shoots with all its tanks, then the other side; each commander rolls the commander die once a turn for the orders.";

    fn start(plan: &TablePlan) -> Board {
        let mut board = Board::from_plan(plan);
        for unit in &mut board.units {
            let full = full_armour(unit);
            unit.counters.entry(ARMOUR.to_string()).or_insert(full);
        }
        board
    }

    fn actions(plan: &TablePlan, board: &Board, revision: u32) -> Vec<Action> {
        let mut actions: Vec<Action> = SIDES
            .into_iter()
            .map(|side| command_action(plan, board, side))
            .collect();
        actions.extend(
            board
                .units
                .iter()
                .filter(|u| u.in_play())
                .flat_map(|u| [MOVE, SHOOT, CRASH, RALLY].map(|key| unit_action(board, u, key))),
        );
        if revision >= BROKEN_GROUP_RALLIES {
            actions.extend(
                SIDES
                    .into_iter()
                    .filter(|&side| side_broken(board, side))
                    .map(|side| leave_table_action(plan, board, side)),
            );
        }
        actions.push(end_turn_action(plan, board));
        actions
    }

    fn params(action: &str) -> Vec<InputSpec> {
        match action {
            SHOOT => mechanic(RULESET, "shooting").map_or(Vec::new(), |m| {
                (m.inputs)()
                    .into_iter()
                    .filter(|s| !SHOT_FIXED.contains(&s.key))
                    .collect()
            }),
            _ => Vec::new(),
        }
    }

    fn situation(
        _plan: &TablePlan,
        board: &Board,
        request: &Request,
    ) -> Result<(MechanicId, Inputs), BattleError> {
        let key = match request.action {
            COMMAND | RALLY => "command",
            SHOOT => "shooting",
            CRASH => "crash",
            _ => return Err(BattleError::NothingTo("roll")),
        };
        let m = mechanic(RULESET, key)
            .ok_or_else(|| BattleError::MissingData(format!("mechanic {key}")))?;
        let mut inputs = m.defaults();
        if matches!(request.action, SHOOT | CRASH) {
            let unit = actor(board, request)?;
            let target = target_of(board, unit, request)?;
            // 0 means undamaged to the mechanic.
            let left = |u: &BoardUnit| {
                let n = u.count(ARMOUR);
                InputValue::Count(if n >= full_armour(u) { 0 } else { n })
            };
            inputs.set("shooter", unit.card_input());
            inputs.set("target", target.card_input());
            inputs.set("target_armour", left(target));
            if request.action == CRASH {
                inputs.set("shooter_armour", left(unit));
            } else {
                let hampered = [DISORDERED, SHAKEN, BROKEN].iter().any(|m| unit.has(m));
                inputs.set("shooter_shaken", InputValue::Flag(hampered));
                for spec in Self::params(SHOOT) {
                    if let Some(value) = request.inputs.get(spec.key) {
                        inputs.set(spec.key, value.clone());
                    }
                }
            }
        }
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
            COMMAND => resolve_command(request, roller),
            RALLY => resolve_rally(board, request, roller, revision),
            LEAVE_TABLE => resolve_leave_table(plan, request),
            MOVE => {
                let unit = actor(board, request)?;
                Ok(Resolved {
                    effects: vec![spend_order(unit.side)],
                    report: None,
                    result: vec![format!("{} moves", unit.label)],
                })
            }
            SHOOT | CRASH => {
                let (_, inputs) = Self::situation(plan, board, request)?;
                if request.action == SHOOT {
                    resolve_shoot(board, request, &inputs, roller, revision)
                } else {
                    resolve_crash(board, request, &inputs, roller, revision)
                }
            }
            END_TURN => Ok(resolve_end_turn(board, revision)),
            other => Err(BattleError::not_allowed(format!(
                "no action '{other}' in BelloLudi Tanks!"
            ))),
        }
    }

    fn category(action: &str) -> Category {
        match action {
            SHOOT | CRASH => Category::Fire,
            RALLY => Category::Rally,
            END_TURN => Category::Result,
            _ => Category::Command,
        }
    }

    /// The book's victory points each side has scored.
    fn score(board: &Board) -> Option<Sides<u32>> {
        Some(Sides {
            first: victory_points(board, Side::First),
            second: victory_points(board, Side::Second),
        })
    }

    /// The commander die shows B, 0, 1, 2 and 3 (its d20 reading inside).
    fn face_names(pool: &str, _sides: u8) -> FaceNames {
        match pool {
            "commander" | "damage" | "crash" => {
                super::resolve::commander_names().unwrap_or_default()
            }
            _ => FaceNames::Numbers,
        }
    }

    /// A tank's card on the board: armour left against its card's, and its state.
    fn unit_standing(_plan: &TablePlan, unit: &BoardUnit) -> UnitStanding {
        let full = full_armour(unit);
        let mut badges = Vec::new();
        for (mark, label, tone) in [
            (BROKEN, "Broken", Tone::Danger),
            (SHAKEN, "Shaken", Tone::Warning),
            (DISORDERED, "Disordered", Tone::Warning),
            (FIRED, "Fired", Tone::Inactive),
            (RALLIED, "Rallied", Tone::Neutral),
        ] {
            if unit.has(mark) {
                badges.push(Badge::new(label, tone));
            }
        }
        if unit.has(WAS_SHAKEN) && !unit.has(SHAKEN) && !unit.has(BROKEN) {
            badges.push(Badge::new("Was shaken (1 VP scored)", Tone::Neutral));
        }
        let strength = Strength::new(unit.count(ARMOUR), full, "armour");
        UnitStanding::of(unit, Some(strength), Vec::new(), badges)
    }

    /// The turn: each side's orders left and victory points, whose commander die is next.
    fn turn_standing(plan: &TablePlan, board: &Board) -> TurnStanding {
        let mut stock: Sides<Vec<Tally>> = Sides::default();
        for side in SIDES {
            let list = stock.get_mut(side);
            if board.side_count(side, COMMANDED) > 0 {
                list.push(Tally::new(
                    "Orders left",
                    board.side_count(side, ORDERS),
                    Tone::Neutral,
                ));
            }
            if side_broken(board, side) {
                list.push(Tally::new("Group broken", 1, Tone::Danger));
            }
            list.push(Tally::new(
                "Victory points",
                i64::from(victory_points(board, side)),
                Tone::Good,
            ));
        }
        let rolls = SIDES
            .into_iter()
            .find(|&side| command_action(plan, board, side).allowed());
        let step = match rolls {
            Some(side) => (
                Some(side),
                format!("{} rolls the commander die", plan.side_name(side)),
                Some(COMMAND),
            ),
            None => (
                None,
                format!("Order, shoot and rally; then end turn {}", board.turn),
                Some(END_TURN),
            ),
        };
        TurnStanding::of(board, ("Turn", Some(TURN_LIMIT)), stock, step)
    }

    /// Each side rolls its commander die, then each of its tanks shoots at the first enemy
    /// tank (a broken group rallies instead); then the turn ends — so the battle ends by turn
    /// [`TURN_LIMIT`] at the latest.
    fn scripted(plan: &TablePlan, board: &Board) -> Option<Request> {
        if board.outcome.is_some() {
            return None;
        }
        let actions = Self::actions(plan, board, BROKEN_GROUP_RALLIES);
        let allowed = |key: &str, side: Side| {
            actions
                .iter()
                .find(|a| a.key == key && a.side == Some(side) && a.allowed())
        };
        for side in SIDES {
            let next = allowed(COMMAND, side)
                .or_else(|| allowed(SHOOT, side))
                .or_else(|| allowed(RALLY, side).filter(|_| side_broken(board, side)));
            if let Some(action) = next {
                let mut request = action.request();
                request.target = action.targets.first().cloned();
                return Some(request);
            }
        }
        Some(Request::new(END_TURN))
    }
}

#[cfg(test)]
mod tests;
