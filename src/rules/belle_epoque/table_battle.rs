//! Belle Epoque fought on the generic battle board ([`TableRules`]): each turn both generals
//! roll their command points, units are activated one after the other by a reactivity test
//! (command points added as the player wishes), and an activated unit fires or assaults.
//!
//! What the book gives: command points for the current turn only (one die per started 8
//! stands, d4/d6/d8 by the general), the reactivity test (d6 at or under the basic score plus
//! the command points spent; a failed test leaves a basic move only), fire (one die a stand,
//! each hit a stand lost), the assault (scores compared, the loser loses the difference, even
//! losses fall back), one assault initiated per turn and the successful-score level falling by
//! one per assault fought beyond the first.
//!
//! A battle starts from each unit's mustered stands in its force (the force line's stands,
//! [`TableRules::muster`]), so command dice, the break point and the score count what the
//! force fielded. The general's rating (d4/d6/d8) is the force's: chosen at the side's first
//! command roll of the battle and fixed for every roll after it (revision 2; under revision 1
//! it was chosen roll by roll).
//!
//! Where the book is silent the battle uses the house defaults below, shown as such: the
//! battle's length ([`TURN_LIMIT`]), when a force breaks ([`BREAK_RULING`]), who wins
//! ([`VICTORY_RULING`]), what a unit keeps between battles ([`CARRY_RULING`]) and the
//! experience step ([`PROMOTE_RULING`]). The bowl of activation tokens is the players': the
//! board lets either side activate any unit not yet activated this turn, once, and the turn
//! ends when the players say the bowl is empty ([`BOWL_RULING`]: ending it with units not yet
//! activated asks first, since a unit that only makes its basic move tests nothing). Fire
//! losses are all taken as stands (the target's player's choice of fall backs for even fire
//! losses, salvo and support fire, evade moves and the hex map's movement are the players' to
//! play and are not recorded).

use std::collections::BTreeMap;

use crate::rules::HouseDefault;
use crate::rules::RulesetId;
use crate::rules::battle::board::{Board, BoardUnit, DESTROYED, Effect, TablePlan, TableUnit};
use crate::rules::battle::standing::{Badge, Strength, Tally, Tone, TurnStanding, UnitStanding};
use crate::rules::battle::table::{
    Resolved, TableRules, allowed_action, mechanic_id, roll_mechanic,
};
use crate::rules::battle::{
    Action, BattleError, Category, Limit, Request, SIDES, Side, Sides, opponent,
};
use crate::rules::card::Card;
use crate::rules::dice::Roller;
use crate::rules::force::ForceUnit;
use crate::rules::resolution::{InputSpec, InputValue, Inputs, MechanicId, Value, mechanic};

use super::resolve as be;
use super::{Reactivity, TroopType, UnitProfile, mechanics};

const RULESET: RulesetId = RulesetId::BelleEpoque;

/// A unit's stands now (its strength: one die each when firing or assaulting).
pub const STANDS: &str = "stands";
/// Assaults the unit has fought this turn, attacking or defending (each beyond the first
/// lowers its successful-score level by one).
pub const ASSAULTS_FOUGHT: &str = "assaults_fought";
/// UD the unit has fallen back after assaults this battle (its even losses).
pub const FALL_BACK: &str = "fall_back";

/// The unit's token has been played this turn.
pub const ACTIVATED: &str = "activated";
/// It failed its reactivity test: a basic move (1 UD) only, no march, fire or assault.
pub const BASIC_MOVE_ONLY: &str = "basic_move_only";
/// It fired this turn (so it may not assault).
pub const FIRED: &str = "fired";
/// It initiated an assault this turn (one a turn).
pub const ASSAULTED: &str = "assaulted";

/// The stands the unit mustered in its force: what half its losses may rejoin up to.
pub const MUSTERED: &str = "mustered";

/// A side's command points left this turn.
pub const COMMAND_POINTS: &str = "command_points";
/// 1 once the side has rolled its command points this turn.
pub const COMMAND_ROLLED: &str = "command_rolled";
/// The side's general, once chosen at its first command roll: 1 mediocre (d4), 2 average
/// (d6), 3 superior (d8).
pub const GENERAL: &str = "general";

/// The general's ratings in the order [`GENERAL`] counts them, as the command mechanic's
/// `general` input names them.
const GENERALS: [&str; 3] = ["mediocre", "average", "superior"];

/// The revision of the Belle Epoque rulings from which the general's rating is the force's,
/// fixed at its first command roll (before it, each roll chose one).
pub const GENERAL_FIXED: u32 = 2;

/// Every action the battle offers.
pub const ACTIONS: &[&str] = &["command", "activate", "fire", "assault", "end_turn"];

/// New house default: the book's Encounter scenario gives no length; the battle ends after
/// this turn.
pub const TURN_LIMIT: u32 = 8;

pub const TURN_LIMIT_RULING: HouseDefault = HouseDefault {
    value: "turn_limit",
    ruling: "The book gives no scenario length: the battle ends after turn 8.",
};

/// New house default: the book has no army break rule.
pub const BREAK_RULING: HouseDefault = HouseDefault {
    value: "broken",
    ruling: "A force that has lost half or more of the stands it started with breaks and loses the battle.",
};

/// New house default: the book has no victory measure.
pub const VICTORY_RULING: HouseDefault = HouseDefault {
    value: "score",
    ruling: "A side's score is its stands left in play; at the turn limit (or when both break at once) more stands wins, equal is a draw.",
};

/// New house default: the book has no campaign.
pub const CARRY_RULING: HouseDefault = HouseDefault {
    value: "stands",
    ruling: "Half the stands a surviving unit lost in the battle (rounded down) rejoin before the next, never above the stands it mustered; an eliminated unit is lost for good.",
};

/// RULINGS "Board battles": the general is the force's.
pub const GENERAL_RULING: HouseDefault = HouseDefault {
    value: "general",
    ruling: "The general's rating (mediocre d4, average d6, superior d8) belongs to the force: it is chosen at the side's first command roll of the battle and used for every roll after.",
};

/// The bowl of tokens is drawn at the table.
pub const BOWL_RULING: HouseDefault = HouseDefault {
    value: "end_turn",
    ruling: "The bowl of activation tokens is drawn at the table: either side may activate a unit not yet activated, and the turn ends when the players say the bowl is empty (a unit that only makes its basic move tests nothing, so ending a turn with units not activated asks first).",
};

/// House rule: experience.
pub const PROMOTE_RULING: HouseDefault = HouseDefault {
    value: "reactivity",
    ruling: "Experience (house rule): a unit promoted steps up the reactivity ladder, poor to trained to elite.",
};

/// Belle Epoque on the generic board.
pub struct BelleEpoqueBattle;

/// The inputs of each action's mechanic that the battle fills itself (the rest are the
/// player's).
fn fixed_keys(action: &str) -> &'static [&'static str] {
    match action {
        "command" => &["stands"],
        "activate" => &["unit", "basic_score"],
        "fire" => &[
            "unit",
            "troop_type",
            "stands",
            "target",
            "target_order",
            "target_cavalry",
            "target_stands",
        ],
        "assault" => &[
            "attacker",
            "attacker_stands",
            "attacker_level",
            "attacker_cavalry",
            "attacker_extra_assaults",
            "defender",
            "defender_stands",
            "defender_level",
            "defender_cavalry",
            "defender_extra_assaults",
        ],
        _ => &[],
    }
}

/// The mechanic an action rolls through.
fn mechanic_key(action: &str) -> Option<&'static str> {
    match action {
        "command" => Some("command_points"),
        "activate" => Some("reactivity"),
        "fire" => Some("fire"),
        "assault" => Some("assault"),
        _ => None,
    }
}

fn profile(card: &Card) -> Option<&UnitProfile> {
    match card {
        Card::BelleEpoque(p) => Some(p),
        _ => None,
    }
}

/// The stands of a side's units in play.
fn side_stands(board: &Board, side: Side) -> i64 {
    board
        .side_units(side)
        .filter(|u| u.in_play())
        .map(|u| u.count(STANDS).max(0))
        .sum()
}

fn stands_u32(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

/// Why `unit` may not fire or assault now, if it may not.
fn not_ready(unit: &BoardUnit, action: &str) -> Option<String> {
    let label = &unit.label;
    if !unit.has(ACTIVATED) {
        return Some(format!(
            "{label} must be activated (pass a reactivity test) first"
        ));
    }
    if unit.has(BASIC_MOVE_ONLY) {
        return Some(format!(
            "{label} failed its reactivity test: a basic move only this turn"
        ));
    }
    match action {
        "fire" if unit.has(FIRED) => Some(format!("{label} has already fired this turn")),
        "fire" if unit.has(ASSAULTED) => Some(format!("{label} has assaulted this turn")),
        "assault" if unit.has(FIRED) => Some(format!(
            "{label} fired this turn: only a unit that has not fired may assault"
        )),
        "assault" if unit.has(ASSAULTED) => Some(format!(
            "{label} has initiated its assault this turn (one a turn)"
        )),
        _ => None,
    }
}

/// The general a side chose at its first command roll, as the command mechanic names it.
fn general_of(board: &Board, side: Side) -> Option<&'static str> {
    let rank = usize::try_from(board.side_count(side, GENERAL)).ok()?;
    GENERALS.get(rank.checked_sub(1)?).copied()
}

fn command_action(plan: &TablePlan, board: &Board, side: Side, revision: u32) -> Action {
    let name = plan.side_name(side);
    let stands = side_stands(board, side);
    let mut action = Action::new("command", format!("{name}: roll command points"));
    action.side = Some(side);
    action.mechanic = mechanic_id(RULESET, "command_points");
    action.fixed = vec![("stands", InputValue::Count(stands))];
    if revision >= GENERAL_FIXED
        && let Some(general) = general_of(board, side)
    {
        action.fixed.push(("general", InputValue::Choice(general)));
    }
    action.refused = if board.side_count(side, COMMAND_ROLLED) > 0 {
        Some(format!("{name} has rolled its command points this turn"))
    } else if stands == 0 {
        Some(format!("{name} has no stands left to command"))
    } else {
        None
    };
    action
}

fn activate_action(plan: &TablePlan, board: &Board, unit: &BoardUnit) -> Action {
    let name = plan.side_name(unit.side);
    let points = board.side_count(unit.side, COMMAND_POINTS).max(0);
    let mut action = Action::new("activate", format!("Activate {}", unit.label));
    action.side = Some(unit.side);
    action.unit = Some(unit.id.clone());
    action.mechanic = mechanic_id(RULESET, "reactivity");
    action.fixed = vec![
        ("unit", unit.card_input()),
        ("basic_score", InputValue::Count(0)),
    ];
    action.limits = vec![Limit {
        key: "cps",
        max: points,
        why: if points == 0 {
            format!("{name} has no command points left: the test is at the basic score")
        } else {
            format!("{name} has {points} command points left this turn")
        },
    }];
    action.refused = if board.side_count(unit.side, COMMAND_ROLLED) == 0 {
        Some(format!(
            "{name} has not rolled its command points this turn"
        ))
    } else if unit.has(ACTIVATED) {
        Some(format!("{} has been activated this turn", unit.label))
    } else {
        None
    };
    action
}

fn attack_action(board: &Board, unit: &BoardUnit, key: &'static str) -> Action {
    let enemies: Vec<String> = board
        .side_units(opponent(unit.side))
        .filter(|u| u.in_play())
        .map(|u| u.id.clone())
        .collect();
    let verb = if key == "fire" { "fires" } else { "assaults" };
    let mut action = Action::new(key, format!("{} {verb}", unit.label));
    action.side = Some(unit.side);
    action.unit = Some(unit.id.clone());
    action.mechanic = mechanic_key(key).and_then(|k| mechanic_id(RULESET, k));
    action.fixed = match key {
        "fire" => vec![
            ("unit", unit.card_input()),
            ("troop_type", InputValue::Choice("card")),
            ("stands", InputValue::Count(unit.count(STANDS))),
            ("target_order", InputValue::Choice("card")),
        ],
        _ => vec![
            ("attacker", unit.card_input()),
            ("attacker_stands", InputValue::Count(unit.count(STANDS))),
            ("attacker_level", InputValue::Choice("card")),
            (
                "attacker_extra_assaults",
                InputValue::Count(unit.count(ASSAULTS_FOUGHT)),
            ),
        ],
    };
    action.refused = not_ready(unit, key).or_else(|| {
        enemies
            .is_empty()
            .then(|| "no enemy unit is left in play".to_string())
    });
    action.targets = enemies;
    action
}

/// The unit a request acts with: on the board, in play, of the request's side.
fn acting<'a>(board: &'a Board, request: &Request) -> Result<&'a BoardUnit, BattleError> {
    board.actor(request, "unit")
}

/// The enemy unit a fire or an assault is aimed at: on the board, in play, of the other side.
fn target_of<'a>(
    board: &'a Board,
    request: &Request,
    unit: &BoardUnit,
) -> Result<&'a BoardUnit, BattleError> {
    board.enemy_target(unit, request, "unit")
}

/// The side's stands when the battle began (what a break is measured against).
fn starting_stands(plan: &TablePlan, side: Side) -> i64 {
    side_stands(&BelleEpoqueBattle::start(plan), side)
}

/// The winner by stands left in play (VICTORY_RULING); `None` when equal.
fn leader(board: &Board) -> Option<Side> {
    let (us, german) = (
        side_stands(board, Side::First),
        side_stands(board, Side::Second),
    );
    match us.cmp(&german) {
        std::cmp::Ordering::Greater => Some(Side::First),
        std::cmp::Ordering::Less => Some(Side::Second),
        std::cmp::Ordering::Equal => None,
    }
}

/// The end of the battle after `effects`, if they end it: a side with no unit in play, or a
/// force broken (BREAK_RULING).
fn ending(plan: &TablePlan, board: &Board, effects: &[Effect]) -> Option<Effect> {
    let gone = board.wiped_out(effects, |gone| match gone {
        Some(side) => format!("{} has no unit left in play", plan.side_name(side)),
        None => "neither side has a unit left in play".to_string(),
    });
    if gone.is_some() {
        return gone;
    }
    let after = board.after(effects);
    let broken = |side: Side| {
        let start = starting_stands(plan, side);
        start > 0 && side_stands(&after, side) * 2 <= start
    };
    let words = |side: Side| plan.side_name(side);
    let (winner, reason) = match (broken(Side::First), broken(Side::Second)) {
        (false, false) => return None,
        (true, false) => (
            Some(Side::Second),
            format!("{} has lost half its stands and breaks", words(Side::First)),
        ),
        (false, true) => (
            Some(Side::First),
            format!(
                "{} has lost half its stands and breaks",
                words(Side::Second)
            ),
        ),
        (true, true) => (
            leader(&after),
            "both forces have lost half their stands and break; more stands left wins".to_string(),
        ),
    };
    Some(Effect::Ends { winner, reason })
}

/// Stands lost by `unit`: its counter down, and out of the battle when none are left.
fn lose_stands(effects: &mut Vec<Effect>, unit: &BoardUnit, lost: u32) {
    if lost == 0 {
        return;
    }
    effects.push(Effect::add(&unit.id, STANDS, -i64::from(lost)));
    if i64::from(lost) >= unit.count(STANDS) {
        effects.push(Effect::mark(&unit.id, DESTROYED));
    }
}

impl BelleEpoqueBattle {
    fn resolve_command(
        plan: &TablePlan,
        board: &Board,
        request: &Request,
        roller: &mut Roller,
        revision: u32,
    ) -> Result<Resolved, BattleError> {
        let side = request.side.ok_or(BattleError::Invalid {
            field: "side",
            message: "command needs the side rolling".to_string(),
        })?;
        let (_, inputs) = Self::situation(plan, board, request)?;
        let report = roll_mechanic(RULESET, "command_points", &inputs, roller)?;
        let total = report.count_of("total");
        let mut effects = vec![
            Effect::side_set(side, COMMAND_POINTS, total),
            Effect::side_set(side, COMMAND_ROLLED, 1),
        ];
        // The first roll names the force's general; every later roll uses the same.
        if revision >= GENERAL_FIXED && general_of(board, side).is_none() {
            let chosen = inputs.choice("general");
            let rank = GENERALS
                .iter()
                .position(|g| *g == chosen)
                .map_or(2, |i| i + 1);
            effects.push(Effect::side_set(
                side,
                GENERAL,
                i64::try_from(rank).unwrap_or(2),
            ));
        }
        Ok(Resolved {
            effects,
            report: Some(report),
            result: Vec::new(),
        })
    }

    fn resolve_activate(
        plan: &TablePlan,
        board: &Board,
        request: &Request,
        roller: &mut Roller,
    ) -> Result<Resolved, BattleError> {
        let unit = acting(board, request)?;
        let (_, inputs) = Self::situation(plan, board, request)?;
        let spent = inputs.count("cps");
        let left = board.side_count(unit.side, COMMAND_POINTS).max(0);
        if spent > left {
            let name = plan.side_name(unit.side);
            return Err(BattleError::not_allowed(if left == 0 {
                format!("{name} has no command points left this turn")
            } else {
                format!("{name} has only {left} command points left, not {spent}")
            }));
        }
        let report = roll_mechanic(RULESET, "reactivity", &inputs, roller)?;
        let passed = matches!(report.get("passed"), Some(Value::Flag(true)));
        let mut effects = Vec::new();
        if spent > 0 {
            effects.push(Effect::side_add(unit.side, COMMAND_POINTS, -spent));
        }
        effects.push(Effect::mark(&unit.id, ACTIVATED));
        if !passed {
            effects.push(Effect::mark(&unit.id, BASIC_MOVE_ONLY));
        }
        Ok(Resolved {
            effects,
            report: Some(report),
            result: Vec::new(),
        })
    }

    fn resolve_fire(
        plan: &TablePlan,
        board: &Board,
        request: &Request,
        roller: &mut Roller,
    ) -> Result<Resolved, BattleError> {
        let unit = acting(board, request)?;
        let target = target_of(board, request, unit)?;
        let (_, inputs) = Self::situation(plan, board, request)?;
        let report = roll_mechanic(RULESET, "fire", &inputs, roller)?;
        if let Some(reason) = &report.no_result {
            // Nothing rolled: the unit keeps its fire for a target it can reach.
            return Err(BattleError::not_allowed(reason.clone()));
        }
        let lost = stands_u32(report.count_of("stands_lost"));
        let mut effects = vec![Effect::mark(&unit.id, FIRED)];
        lose_stands(&mut effects, target, lost);
        effects.extend(ending(plan, board, &effects));
        Ok(Resolved {
            effects,
            report: Some(report),
            result: Vec::new(),
        })
    }

    fn resolve_assault(
        plan: &TablePlan,
        board: &Board,
        request: &Request,
        roller: &mut Roller,
    ) -> Result<Resolved, BattleError> {
        let attacker = acting(board, request)?;
        let defender = target_of(board, request, attacker)?;
        let (_, inputs) = Self::situation(plan, board, request)?;
        let report = roll_mechanic(RULESET, "assault", &inputs, roller)?;
        let faces = |pool: &str| {
            report
                .dice
                .iter()
                .find(|d| d.pool == pool)
                .map(|d| d.dice.clone())
                .unwrap_or_default()
        };
        let assault = mechanics::assault(&inputs)?;
        let result = be::assault_from_faces(&assault, &faces("attacker"), &faces("defender"))?;
        let mut effects = vec![
            Effect::mark(&attacker.id, ASSAULTED),
            Effect::add(&attacker.id, ASSAULTS_FOUGHT, 1),
            Effect::add(&defender.id, ASSAULTS_FOUGHT, 1),
        ];
        for (unit, losses) in [
            (attacker, result.outcome.attacker),
            (defender, result.outcome.defender),
        ] {
            lose_stands(&mut effects, unit, losses.stands);
            if losses.fall_back_uds > 0 {
                effects.push(Effect::add(
                    &unit.id,
                    FALL_BACK,
                    i64::from(losses.fall_back_uds),
                ));
            }
        }
        effects.extend(ending(plan, board, &effects));
        Ok(Resolved {
            effects,
            report: Some(report),
            result: Vec::new(),
        })
    }

    /// The turn's tokens, assaults and command points cleared; the next turn, or the end after
    /// the last (TURN_LIMIT_RULING, winner by VICTORY_RULING).
    fn end_turn(plan: &TablePlan, board: &Board) -> Resolved {
        let mut effects = Vec::new();
        for unit in &board.units {
            for mark in [ACTIVATED, BASIC_MOVE_ONLY, FIRED, ASSAULTED] {
                if unit.has(mark) {
                    effects.push(Effect::clear(&unit.id, mark));
                }
            }
            if unit.count(ASSAULTS_FOUGHT) != 0 {
                effects.push(Effect::set(&unit.id, ASSAULTS_FOUGHT, 0));
            }
        }
        for side in SIDES {
            // Command points are for the current turn only.
            for counter in [COMMAND_POINTS, COMMAND_ROLLED] {
                if board.side_count(side, counter) != 0 {
                    effects.push(Effect::side_set(side, counter, 0));
                }
            }
        }
        if board.turn >= TURN_LIMIT {
            let winner = leader(board);
            let standing = |side| side_stands(board, side);
            effects.push(Effect::Ends {
                winner,
                reason: format!(
                    "turn {} is over: {} stands left to {} ({} to {})",
                    board.turn,
                    standing(Side::First),
                    standing(Side::Second),
                    plan.side_name(Side::First),
                    plan.side_name(Side::Second)
                ),
            });
        } else {
            effects.push(Effect::NextTurn);
        }
        Resolved {
            effects,
            report: None,
            result: vec![format!("turn {} ends", board.turn)],
        }
    }

    /// Units in the order a scripted player takes them: first and second player in turn.
    fn interleaved(board: &Board) -> Vec<&BoardUnit> {
        let us: Vec<&BoardUnit> = board.side_units(Side::First).collect();
        let german: Vec<&BoardUnit> = board.side_units(Side::Second).collect();
        let mut order = Vec::new();
        for i in 0..us.len().max(german.len()) {
            order.extend(us.get(i).copied());
            order.extend(german.get(i).copied());
        }
        order
    }
}

impl TableRules for BelleEpoqueBattle {
    const RULINGS: &'static [HouseDefault] = &[
        TURN_LIMIT_RULING,
        BREAK_RULING,
        VICTORY_RULING,
        GENERAL_RULING,
        BOWL_RULING,
        CARRY_RULING,
        PROMOTE_RULING,
    ];
    const REVISION: u32 = GENERAL_FIXED;
    const CORRECTED: &'static str = "each command roll chose the general's die";
    const RULESET: RulesetId = RULESET;
    const ACTIONS: &'static [&'static str] = ACTIONS;
    const TURN_ORDER: &'static str = "Both players roll their command points; then units are activated one after the other as tokens come out of the bowl (either side, each unit once); the turn ends when the bowl is empty.";
    const PROMOTES: bool = true;

    fn start(plan: &TablePlan) -> Board {
        let mut board = Board::from_plan(plan);
        for unit in &mut board.units {
            if let Some(p) = profile(&unit.card) {
                unit.counters
                    .entry(STANDS.to_string())
                    .or_insert(i64::from(p.stands));
            }
        }
        board
    }

    fn actions(plan: &TablePlan, board: &Board, revision: u32) -> Vec<Action> {
        let mut actions: Vec<Action> = SIDES
            .into_iter()
            .map(|side| command_action(plan, board, side, revision))
            .collect();
        for unit in board.units.iter().filter(|u| u.in_play()) {
            actions.push(activate_action(plan, board, unit));
            actions.push(attack_action(board, unit, "fire"));
            actions.push(attack_action(board, unit, "assault"));
        }
        actions.push(end_turn_action(plan, board));
        actions
    }

    fn params(action: &str) -> Vec<InputSpec> {
        let Some(m) = mechanic_key(action).and_then(|key| mechanic(RULESET, key)) else {
            return Vec::new();
        };
        let fixed = fixed_keys(action);
        (m.inputs)()
            .into_iter()
            .filter(|spec| !fixed.contains(&spec.key))
            .collect()
    }
    fn situation(
        _plan: &TablePlan,
        board: &Board,
        request: &Request,
    ) -> Result<(MechanicId, Inputs), BattleError> {
        let key = mechanic_key(request.action)
            .ok_or_else(|| BattleError::not_allowed("ending the turn rolls no dice"))?;
        let m = mechanic(RULESET, key)
            .ok_or_else(|| BattleError::MissingData(format!("mechanic {key}")))?;
        let mut inputs = m.defaults();
        // The player's choices first, then what the battle fixes over them.
        let fixed = fixed_keys(request.action);
        for (k, v) in request.inputs.iter() {
            if !fixed.contains(&k) && inputs.get(k).is_some() {
                inputs.set(k, v.clone());
            }
        }
        match request.action {
            "command" => {
                let side = request.side.ok_or(BattleError::Invalid {
                    field: "side",
                    message: "command needs the side rolling".to_string(),
                })?;
                inputs.set("stands", InputValue::Count(side_stands(board, side)));
            }
            "activate" => {
                let unit = acting(board, request)?;
                inputs.set("unit", unit.card_input());
                inputs.set("basic_score", InputValue::Count(0));
            }
            "fire" => {
                let unit = acting(board, request)?;
                let target = target_of(board, request, unit)?;
                inputs.set("unit", unit.card_input());
                inputs.set("troop_type", InputValue::Choice("card"));
                inputs.set("stands", InputValue::Count(unit.count(STANDS)));
                inputs.set("target", target.card_input());
                inputs.set("target_order", InputValue::Choice("card"));
                inputs.set("target_cavalry", InputValue::Flag(false));
                inputs.set("target_stands", InputValue::Count(target.count(STANDS)));
            }
            _ => {
                let attacker = acting(board, request)?;
                let defender = target_of(board, request, attacker)?;
                for (unit, who) in [(attacker, "attacker"), (defender, "defender")] {
                    let [card, stands, level, cavalry, extra] = if who == "attacker" {
                        [
                            "attacker",
                            "attacker_stands",
                            "attacker_level",
                            "attacker_cavalry",
                            "attacker_extra_assaults",
                        ]
                    } else {
                        [
                            "defender",
                            "defender_stands",
                            "defender_level",
                            "defender_cavalry",
                            "defender_extra_assaults",
                        ]
                    };
                    inputs.set(card, unit.card_input());
                    inputs.set(stands, InputValue::Count(unit.count(STANDS)));
                    inputs.set(level, InputValue::Choice("card"));
                    // The card says whether it is cavalry.
                    inputs.set(cavalry, InputValue::Flag(false));
                    inputs.set(extra, InputValue::Count(unit.count(ASSAULTS_FOUGHT)));
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
            "command" => Self::resolve_command(plan, board, request, roller, revision),
            "activate" => Self::resolve_activate(plan, board, request, roller),
            "fire" => Self::resolve_fire(plan, board, request, roller),
            "assault" => Self::resolve_assault(plan, board, request, roller),
            "end_turn" => Ok(Self::end_turn(plan, board)),
            other => Err(BattleError::not_allowed(format!(
                "no action '{other}' in Belle Epoque"
            ))),
        }
    }

    fn category(action: &str) -> Category {
        match action {
            "fire" | "assault" => Category::Fire,
            _ => Category::Command,
        }
    }

    fn score(board: &Board) -> Option<Sides<u32>> {
        Some(Sides {
            first: stands_u32(side_stands(board, Side::First)),
            second: stands_u32(side_stands(board, Side::Second)),
        })
    }

    /// The stands a force line musters for each of its units (Belle Epoque's stands per
    /// unit), and so the most half its losses may bring back.
    fn muster(card: &Card, line: &ForceUnit) -> BTreeMap<String, i64> {
        let mut counters = BTreeMap::new();
        if let (Some(stands), Some(_)) = (line.stands, profile(card)) {
            counters.insert(STANDS.to_string(), i64::from(stands));
            counters.insert(MUSTERED.to_string(), i64::from(stands));
        }
        counters
    }

    /// CARRY_RULING: half the stands lost in this battle (rounded down) rejoin, never above
    /// the stands mustered; the eliminated are gone.
    fn carry(started: &BoardUnit, ended: &BoardUnit) -> Option<TableUnit> {
        if !ended.in_play() {
            return None;
        }
        let now = ended.count(STANDS);
        let mustered = mustered(ended).max(now);
        let lost = (started.count(STANDS) - now).max(0);
        let stands = (now + lost / 2).min(mustered);
        let mut counters = BTreeMap::new();
        counters.insert(STANDS.to_string(), stands);
        // A number the force set is carried; a card's own is the card's to give again.
        if ended.counters.contains_key(MUSTERED) {
            counters.insert(MUSTERED.to_string(), mustered);
        }
        Some(ended.carried(counters))
    }

    /// PROMOTE_RULING: poor → trained → elite; `None` at elite.
    fn promote(unit: &TableUnit) -> Option<TableUnit> {
        let p = profile(&unit.card)?;
        let next = match p.reactivity {
            Reactivity::Poor => Reactivity::Trained,
            Reactivity::Trained => Reactivity::Elite,
            Reactivity::Elite => return None,
        };
        let mut promoted = unit.clone();
        promoted.card = Card::BelleEpoque(UnitProfile {
            reactivity: next,
            ..p.clone()
        });
        Some(promoted.requalified(p.reactivity.label(), next.label()))
    }

    /// A unit's card on the board: stands against those mustered, its assaults and fall backs,
    /// what it did this turn.
    fn unit_standing(_plan: &TablePlan, unit: &BoardUnit) -> UnitStanding {
        let now = unit.count(STANDS);
        let full = mustered(unit).max(now);
        let mut tallies = Vec::new();
        if unit.count(ASSAULTS_FOUGHT) > 0 {
            tallies.push(Tally::new(
                "Assaults this turn",
                unit.count(ASSAULTS_FOUGHT),
                Tone::Warning,
            ));
        }
        if unit.count(FALL_BACK) > 0 {
            tallies.push(Tally::new(
                "Fallen back (UD)",
                unit.count(FALL_BACK),
                Tone::Warning,
            ));
        }
        let mut badges = Vec::new();
        if unit.has(ACTIVATED) {
            badges.push(Badge::new("Activated", Tone::Neutral));
        }
        if unit.has(BASIC_MOVE_ONLY) {
            badges.push(Badge::new("Basic move only", Tone::Warning));
        }
        if unit.has(FIRED) {
            badges.push(Badge::new("Fired", Tone::Inactive));
        }
        if unit.has(ASSAULTED) {
            badges.push(Badge::new("Assaulted", Tone::Inactive));
        }
        if let Some(p) = profile(&unit.card) {
            badges.push(Badge::new(p.reactivity.label(), Tone::Neutral));
        }
        UnitStanding::of(
            unit,
            Some(Strength::new(now, full, "stands")),
            tallies,
            badges,
        )
    }

    /// The turn: command points each side has left and its general, the step next.
    fn turn_standing(plan: &TablePlan, board: &Board) -> TurnStanding {
        let mut stock: Sides<Vec<Tally>> = Sides::default();
        for side in SIDES {
            let list = stock.get_mut(side);
            if board.side_count(side, COMMAND_ROLLED) > 0 {
                list.push(Tally::new(
                    "Command points",
                    board.side_count(side, COMMAND_POINTS),
                    Tone::Neutral,
                ));
            }
            list.push(Tally::new(
                "Units to activate",
                i64::try_from(not_activated(board, side)).unwrap_or(0),
                Tone::Neutral,
            ));
            if let Some(general) = general_of(board, side) {
                let die = super::tables()
                    .and_then(|t| t.command_die(general))
                    .map_or(0, i64::from);
                list.push(Tally::new(
                    format!("General's die ({general})"),
                    die,
                    Tone::Neutral,
                ));
            }
        }
        let unrolled = SIDES
            .into_iter()
            .find(|&s| board.side_count(s, COMMAND_ROLLED) == 0 && side_stands(board, s) > 0);
        let waiting = SIDES.into_iter().any(|s| not_activated(board, s) > 0);
        let step = match unrolled {
            Some(side) => (
                Some(side),
                format!("{} rolls its command points", plan.side_name(side)),
                Some("command"),
            ),
            None if waiting => (
                None,
                "Activate the unit whose token comes out of the bowl".to_string(),
                Some("activate"),
            ),
            None => (
                None,
                format!("Every unit has been activated: end turn {}", board.turn),
                Some("end_turn"),
            ),
        };
        TurnStanding::of(board, ("Turn", Some(TURN_LIMIT)), stock, step)
    }

    /// Command points for each side, then unit by unit (first and second player in turn):
    /// activate spending one command point when there is one, then fire at the first enemy at
    /// 1 UD (type G units assault it instead); the turn ends when every unit has acted.
    fn scripted(plan: &TablePlan, board: &Board) -> Option<Request> {
        if board.outcome.is_some() {
            return None;
        }
        let actions = Self::actions(plan, board, GENERAL_FIXED);
        let allowed = |key: &str, unit: &BoardUnit| allowed_action(&actions, key, &unit.id);
        for side in SIDES {
            if board.side_count(side, COMMAND_ROLLED) == 0 && side_stands(board, side) > 0 {
                // The force's general once its first roll chose one; an average one before.
                let general = general_of(board, side).unwrap_or("average");
                return Some(
                    Request::new("command")
                        .side(side)
                        .with("general", InputValue::Choice(general)),
                );
            }
        }
        for unit in Self::interleaved(board).into_iter().filter(|u| u.in_play()) {
            let assaults = profile(&unit.card).is_some_and(|p| p.troop_type == TroopType::G);
            let key = if assaults { "assault" } else { "fire" };
            if let Some(action) = allowed(key, unit)
                && let Some(target) = action.targets.first()
            {
                let request = Request::new(key).unit(&unit.id).target(target);
                return Some(if key == "fire" {
                    request.with("range", InputValue::Count(1))
                } else {
                    request
                });
            }
            if allowed("activate", unit).is_some() {
                let cps = board.side_count(unit.side, COMMAND_POINTS).clamp(0, 1);
                return Some(
                    Request::new("activate")
                        .unit(&unit.id)
                        .with("cps", InputValue::Count(cps)),
                );
            }
        }
        Some(Request::new("end_turn"))
    }
}

/// The stands a unit mustered: the force's number it carries, else its card's.
fn mustered(unit: &BoardUnit) -> i64 {
    match unit.counters.get(MUSTERED) {
        Some(n) => *n,
        None => profile(&unit.card).map_or(0, |p| i64::from(p.stands)),
    }
}

/// Units of `side` in play not yet activated this turn.
fn not_activated(board: &Board, side: Side) -> usize {
    board
        .side_units(side)
        .filter(|u| u.in_play() && !u.has(ACTIVATED))
        .count()
}

/// End the turn: the bowl is the players', so it is always allowed, but with command points
/// not rolled or units not activated the players are asked first (BOWL_RULING).
fn end_turn_action(plan: &TablePlan, board: &Board) -> Action {
    let mut action = Action::new("end_turn", format!("End turn {}", board.turn));
    let mut open = Vec::new();
    for side in SIDES {
        let name = plan.side_name(side);
        if board.side_count(side, COMMAND_ROLLED) == 0 && side_stands(board, side) > 0 {
            open.push(format!("{name} has not rolled its command points"));
        }
        match not_activated(board, side) {
            0 => {}
            1 => open.push(format!("{name} has 1 unit not activated")),
            n => open.push(format!("{name} has {n} units not activated")),
        }
    }
    if !open.is_empty() {
        action.confirm = Some(format!(
            "{}. The turn ends when the bowl is empty: end turn {} now?",
            open.join("; "),
            board.turn
        ));
    }
    action
}

#[cfg(test)]
mod tests;
