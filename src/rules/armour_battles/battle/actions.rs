//! What may be done at an Armour Battles table now, described for every front end
//! ([`actions`]), the mechanic inputs an action resolves with as the table fixes them
//! ([`situation`]), and the event it records ([`decide`]).
//!
//! Every rolling action resolves through the ruleset's own mechanics (`mechanics.rs`): the
//! odds a front end shows are the mechanic's report for [`situation`]'s inputs, and the roll
//! [`decide`] records is the mechanic's roll for the same inputs and dice, whose report comes
//! back with the event. What the battle adds is decided here, once:
//! - the cards are the units' and the target's Disruption and suppression the table's;
//! - a hidden unit that fires does so from ambush, a unit on the table never does;
//! - a suppressed unit cannot fire, and cannot rally;
//! - a wild die or Staff Order added to a roll is paid from the side's stock — a wild die
//!   first, it is lost at the end of the turn — and refused with what the side holds when it
//!   cannot pay; the state charges it when the event is applied;
//! - a reserve company enters with one die of a chain (the shortest, when the player does not
//!   name one), from its briefing's turn, never in a turn of Command Failure.
//! - after both sides' Command Failure the turn is over: no order, fire, rally or Staff Order
//!   until the next command roll.

use super::decide::{self, bonus_paid, bonus_room, may_be_fired_at, may_fire};
use super::event::{ChainUse, Event, FireKind, FireSetup, WildUse};
use super::state::{BattleState, MissionStatus, Phase, UnitState, UnitStatus};
use crate::rules::armour_battles::SideName;
use crate::rules::armour_battles::fire::{FireMode, MoveOrder};
use crate::rules::armour_battles::mechanics::{self, MECHANICS};
use crate::rules::armour_battles::{self, SpecialRule};
use crate::rules::battle::{
    Action, BattleError, Cost, Decided, DiceFrom, Limit, Request, SIDES, Side, opponent,
};
use crate::rules::card::Card;
use crate::rules::dice::Roller;
use crate::rules::resolution::{CardPick, InputValue, Inputs, Mechanic, MechanicId};

/// The keys of the actions a request may name.
pub mod key {
    pub const ROLL_COMMAND: &str = "roll_command";
    pub const END_TURN: &str = "end_turn";
    pub const USE_CHAIN: &str = "use_chain";
    pub const USE_WILD: &str = "use_wild";
    pub const USE_STAFF_ORDER: &str = "use_staff_order";
    pub const FIRE: &str = "fire";
    pub const ARTILLERY_FIRE: &str = "artillery_fire";
    pub const CALL_ARTILLERY: &str = "call_artillery";
    pub const MAINTAIN_MISSION: &str = "maintain_mission";
    pub const CANCEL_MISSION: &str = "cancel_mission";
    pub const MISSION_DONE: &str = "mission_done";
    pub const RALLY: &str = "rally";
    pub const CHECK_RELIABILITY: &str = "check_reliability";
    pub const REPAIR: &str = "repair";
    pub const COMMIT_RESERVES: &str = "commit_reserves";
    pub const REVEAL: &str = "reveal";
    pub const DISPERSE: &str = "disperse";
    pub const SET_DISRUPTION: &str = "set_disruption";
    pub const SET_SUPPRESSED: &str = "set_suppressed";
    pub const SET_FIRE_MARKER: &str = "set_fire_marker";
}

/// The parameters of actions without a mechanic, as request inputs.
pub mod param {
    /// The face of the chain used (6: the wild dice as a chain).
    pub const FACE: &str = "face";
    /// How many dice.
    pub const DICE: &str = "dice";
    /// What a chain or wild dice are spent on.
    pub const ON: &str = "on";
    /// A new value (Disruption Points set by hand).
    pub const VALUE: &str = "value";
    /// A repair paid with a Staff Order rather than a command die.
    pub const STAFF_ORDER: &str = "staff_order";
    /// Suppressed, or not (set by hand).
    pub const SUPPRESSED: &str = "suppressed";
    /// A Fire Marker placed, or taken off (by hand).
    pub const MARKED: &str = "marked";
    /// The move order of a reliability check (a choice of the move mechanic: double, triple).
    pub const MOVE: &str = "move";
}

/// What a chain can be spent on, as a request names it.
const CHAIN_USES: [(&str, ChainUse); 3] = [
    ("orders", ChainUse::Orders),
    ("restock_staff_orders", ChainUse::RestockStaffOrders),
    ("repair", ChainUse::Repair),
];

/// What wild dice can be spent on, as a request names it.
const WILD_USES: [(&str, WildUse); 3] = [
    ("bonus", WildUse::Bonus),
    ("instant_staff_orders", WildUse::InstantStaffOrders),
    ("stock_staff_orders", WildUse::StockStaffOrders),
];

fn mechanic(key: &str) -> Result<&'static Mechanic, BattleError> {
    MECHANICS
        .iter()
        .find(|m| m.key == key)
        .ok_or_else(|| BattleError::MissingData(format!("the {key} mechanic")))
}

fn mechanic_id(key: &'static str) -> MechanicId {
    MechanicId {
        ruleset: crate::rules::RulesetId::ArmourBattles,
        key,
    }
}

/// The Lorraine battle (1–3) whose battle groups the battle fields ("What next?" fields Battle
/// 3's; a battle between two forces reads Battle 1's): the mechanics read rally dice and the
/// first-pulse rule from it.
fn battle_number(state: &BattleState) -> u32 {
    state.briefing.clamp(1, 3)
}

fn unit_card(unit: &UnitState) -> Result<InputValue, BattleError> {
    let card = decide::card(unit)?;
    Ok(InputValue::Card(Some(CardPick::book(
        &Card::ArmourBattles(card.clone()),
    ))))
}

fn count(n: u32) -> InputValue {
    InputValue::Count(i64::from(n))
}

/// What no one may do between turns (before turn 1's command roll, after a turn ended, and
/// after both sides rolled a Command Failure), until the next command roll: every order (with
/// command dice, wild dice or Staff Orders), every fire and rally, and every roll that follows
/// an order (a call for artillery, a move's breakdown check, a repair). Keeping a mission the
/// failure cancelled stays open: the book lets a Staff Order maintain it. See docs/rulings.md,
/// "Between turns".
const HALTED_BETWEEN_TURNS: [&str; 9] = [
    key::USE_CHAIN,
    key::USE_WILD,
    key::USE_STAFF_ORDER,
    key::FIRE,
    key::ARTILLERY_FIRE,
    key::CALL_ARTILLERY,
    key::RALLY,
    key::CHECK_RELIABILITY,
    key::REPAIR,
];

/// Refuses an action of [`HALTED_BETWEEN_TURNS`] while no Command Pulse is played. The book
/// ("The Game Turn"): a turn starts with both sides' command roll and is played in Command
/// Pulses until every chain is used; "Both Sides Roll a Command Failure": the turn ends at
/// once. Outside a pulse no order is given and no unit is activated or fires (opportunity
/// fire answers an enemy that moves or fires in its pulse); a Staff Order is used only in or
/// after a side's Logistics Phase, the first action of its pulse.
pub(crate) fn between_turns(state: &BattleState) -> Result<(), BattleError> {
    if state.phase != Phase::AwaitingCommandRoll {
        return Ok(());
    }
    let why = match &state.last_command {
        Some(c) if c.turn_ends && c.turn == state.turn => format!(
            "both sides rolled a Command Failure in turn {}: the turn ended at once",
            state.turn
        ),
        Some(_) => format!("turn {} is over", state.turn),
        None => "no command dice are rolled yet".to_string(),
    };
    Err(BattleError::not_allowed(format!(
        "{why}, and no order, fire, rally or Staff Order is used until the next command roll"
    )))
}

fn refusal<T>(result: Result<T, BattleError>) -> Option<String> {
    result.err().map(|e| e.to_string())
}

// ---------------------------------------------------------------------------------------
// What may be done

/// Everything that may be done now, and what may not with the reason, in the order a table
/// reads it: the turn, each side's dice, then each unit.
pub fn actions(state: &BattleState) -> Vec<Action> {
    let mut all = vec![
        Action {
            refused: refusal(decide::may_roll_command(state)),
            mechanic: Some(mechanic_id("command_dice")),
            ..Action::new(key::ROLL_COMMAND, "Roll command dice")
        },
        Action {
            refused: refusal(decide::end_turn(state)),
            ..Action::new(key::END_TURN, "End turn")
        },
    ];
    for side in SIDES {
        side_actions(state, side, &mut all);
    }
    for unit in &state.units {
        unit_actions(state, unit, &mut all);
    }
    // The turn's end is said before any unit's own reason: it is why nothing can act now.
    if let Some(why) = refusal(between_turns(state)) {
        for action in all
            .iter_mut()
            .filter(|a| HALTED_BETWEEN_TURNS.contains(&a.key))
        {
            action.refused = Some(why.clone());
        }
    }
    all
}

fn side_actions(state: &BattleState, side: Side, all: &mut Vec<Action>) {
    let s = state.side(side);
    let on = |what: &'static str| (param::ON, InputValue::Choice(what));
    let chain_action = |label: String, face: u8, dice: u32, spent_on: ChainUse, what| Action {
        side: Some(side),
        fixed: vec![
            (param::FACE, count(face.into())),
            (param::DICE, count(dice)),
            on(what),
        ],
        costs: vec![chain_cost(side, face, dice)],
        refused: refusal(decide::use_chain(state, side, face, dice, spent_on)),
        ..Action::new(key::USE_CHAIN, label)
    };
    for chain in &s.chains {
        let (face, dice) = (chain.face, chain.dice);
        all.push(chain_action(
            format!("{}: orders", dice_of(face, dice)),
            face,
            dice,
            ChainUse::Orders,
            "orders",
        ));
        if dice > 1 {
            all.push(chain_action(
                format!("{}: orders", dice_of(face, 1)),
                face,
                1,
                ChainUse::Orders,
                "orders",
            ));
        }
        all.push(chain_action(
            format!("{}: restock Staff Orders", dice_of(face, dice)),
            face,
            dice,
            ChainUse::RestockStaffOrders,
            "restock_staff_orders",
        ));
        for company in reserve_companies(state, side) {
            all.push(commit_action(state, side, &company, Some(face)));
        }
    }
    if s.wild > 0 {
        all.push(chain_action(
            format!("{}: a chain for orders", dice_of(6, s.wild)),
            6,
            s.wild,
            ChainUse::Orders,
            "orders",
        ));
        let wild_action = |label: String, dice: u32, spent_on: WildUse, what| Action {
            side: Some(side),
            fixed: vec![(param::DICE, count(dice)), on(what)],
            costs: vec![chain_cost(side, 6, dice)],
            refused: refusal(decide::use_wild(state, side, dice, spent_on)),
            ..Action::new(key::USE_WILD, label)
        };
        all.push(wild_action(
            format!("{}: +1D (a suppression removed, say)", dice_of(6, 1)),
            1,
            WildUse::Bonus,
            "bonus",
        ));
        all.push(wild_action(
            format!("{}: instant Staff Orders", dice_of(6, s.wild)),
            s.wild,
            WildUse::InstantStaffOrders,
            "instant_staff_orders",
        ));
        all.push(wild_action(
            format!("{}: a Staff Order next turn", dice_of(6, 1)),
            1,
            WildUse::StockStaffOrders,
            "stock_staff_orders",
        ));
    }
    // Any chain or wild dice, as many as the player says: what a command line names that no
    // button above fixes (two of a chain of three), refused by the rules in their own words.
    for (key, label, refused) in [
        (
            key::USE_CHAIN,
            "Use a chain (face, dice, what for)",
            refusal(decide::in_pulse(state, side)),
        ),
        (
            key::USE_WILD,
            "Spend wild dice (how many, what for)",
            refusal(decide::use_wild(state, side, s.wild.max(1), WildUse::Bonus)),
        ),
    ] {
        all.push(Action {
            side: Some(side),
            refused,
            ..Action::new(key, label)
        });
    }
    all.push(Action {
        side: Some(side),
        costs: vec![staff_order(side)],
        refused: refusal(decide::use_staff_order(state, side, "")),
        ..Action::new(key::USE_STAFF_ORDER, "Use a Staff Order")
    });
    for mission in &s.missions {
        let battery = Some(mission.battery.clone());
        if mission.status == MissionStatus::CancelledByFailure {
            all.push(Action {
                side: Some(side),
                unit: battery.clone(),
                costs: vec![staff_order(side)],
                refused: refusal(decide::maintain_mission(state, &mission.battery)),
                ..Action::new(key::MAINTAIN_MISSION, "Keep mission (Staff Order)")
            });
        }
        all.push(Action {
            side: Some(side),
            unit: battery,
            destructive: true,
            ..Action::new(key::CANCEL_MISSION, "Cancel mission")
        });
    }
}

/// "5s ×3", "one 5", "wild ×2", "one wild die": the dice a button spends.
fn dice_of(face: u8, dice: u32) -> String {
    match (face, dice) {
        (6, 1) => "One wild die".to_string(),
        (6, n) => format!("Wild ×{n}"),
        (f, 1) => format!("One {f}"),
        (f, n) => format!("{f}s ×{n}"),
    }
}

fn chain_cost(side: Side, face: u8, dice: u32) -> Cost {
    Cost {
        side,
        what: if face == 6 {
            "wild dice".to_string()
        } else {
            format!("dice of the {face}s chain")
        },
        count: dice,
    }
}

fn staff_order(side: Side) -> Cost {
    Cost {
        side,
        what: "Staff Order".into(),
        count: 1,
    }
}

/// The companies of `side` with units still in reserve, in plan order.
fn reserve_companies(state: &BattleState, side: Side) -> Vec<String> {
    let mut companies: Vec<String> = Vec::new();
    for u in state.units_of(side) {
        if matches!(u.status, UnitStatus::Reserve { .. }) && !companies.contains(&u.company) {
            companies.push(u.company.clone());
        }
    }
    companies
}

/// The chain a Commit Reserves order takes its die from when the player names none: the
/// shortest (then the lowest face), which costs the side the least.
fn cheapest_chain(state: &BattleState, side: Side) -> Option<u8> {
    state
        .side(side)
        .chains
        .iter()
        .min_by_key(|c| (c.dice, c.face))
        .map(|c| c.face)
}

fn commit_action(state: &BattleState, side: Side, company: &str, chain: Option<u8>) -> Action {
    let face = chain.or_else(|| cheapest_chain(state, side));
    // The company's first unit in the briefing: the same unit names the company whether or not
    // it has been committed yet.
    let first = state
        .units_of(side)
        .find(|u| u.company == company && u.reserve_from.is_some());
    let refused = match face {
        Some(face) => refusal(decide::commit_reserves(state, side, company, Some(face))),
        None => refusal(decide::may_commit(state, side, company)).or_else(|| {
            Some(format!(
                "{} has no Dice Chain left to give the order",
                side.label()
            ))
        }),
    };
    let label = match chain {
        Some(face) => format!("{}: commit {company}", dice_of(face, 1)),
        None => format!("Commit {company}"),
    };
    Action {
        side: Some(side),
        unit: first.map(|u| u.id.clone()),
        // Named only when the player picked the chain; otherwise the decision takes the
        // cheapest one as the table then stands.
        fixed: chain
            .map(|f| vec![(param::FACE, count(f.into()))])
            .unwrap_or_default(),
        costs: face
            .map(|f| Cost {
                side,
                what: format!("die of its {f}s chain"),
                count: 1,
            })
            .into_iter()
            .collect(),
        refused,
        ..Action::new(key::COMMIT_RESERVES, label)
    }
}

/// A unit's actions, the same list in the same order whatever the table (a button that cannot
/// act says why, it never moves): the enemy it may fire at, its rally, what its card and its
/// briefing give it (a reserve company's commit, a hidden unit's reveal, a Tiger's reliability
/// checks and repairs, a battery's missions), the corrections by hand, and its dispersal.
fn unit_actions(state: &BattleState, u: &UnitState, all: &mut Vec<Action>) {
    let live = !u.is_dispersed() && u.status != UnitStatus::LostEarlier;
    if !live {
        return;
    }
    let on = |action: Action| Action {
        side: Some(u.side),
        unit: Some(u.id.clone()),
        ..action
    };
    if u.status == UnitStatus::OffTable {
        battery_actions(state, u, all);
    } else {
        let first_of_company = state
            .units_of(u.side)
            .find(|o| o.company == u.company && o.reserve_from.is_some())
            .is_some_and(|f| f.id == u.id);
        if first_of_company {
            all.push(commit_action(state, u.side, &u.company, None));
        }
        if u.hidden_at_start {
            all.push(on(Action {
                refused: refusal(decide::reveal(state, &u.id)),
                ..Action::new(key::REVEAL, "Reveal")
            }));
        }
        all.push(on(Action {
            mechanic: Some(mechanic_id("fire")),
            targets: target_ids(state, u.side),
            fixed: vec![("ambush", InputValue::Flag(u.status == UnitStatus::Hidden))],
            limits: vec![bonus_limit(state, u.side, "attacker_wild")],
            refused: refusal(may_fire(state, u, DiceFrom::Battle)),
            ..Action::new(key::FIRE, "Fire")
        }));
        all.push(on(Action {
            mechanic: Some(mechanic_id("rally")),
            fixed: rally_fixed(state, u),
            limits: vec![bonus_limit(state, u.side, "wild")],
            refused: refusal(decide::may_rally(state, u)),
            ..Action::new(key::RALLY, "Rally")
        }));
        if armour_battles::unit_card(&u.card).is_some_and(|c| c.has(SpecialRule::PoorReliability)) {
            reliability_actions(state, u, all);
        }
        corrections(state, u, all);
    }
    // By hand, as the corrections are: a dispersal the tracker rolls comes with its fire.
    all.push(on(Action {
        destructive: true,
        correction: true,
        refused: refusal(decide::disperse(
            state,
            &u.id,
            &mut Roller::new(0),
            DiceFrom::Battle,
        )),
        ..Action::new(key::DISPERSE, "Disperse")
    }));
}

/// An off-table battery's mission: called with a Staff Order, fired for effect when ready,
/// kept after a Command Failure with another, or over.
fn battery_actions(state: &BattleState, u: &UnitState, all: &mut Vec<Action>) {
    let on = |action: Action| Action {
        side: Some(u.side),
        unit: Some(u.id.clone()),
        ..action
    };
    let ready = decide::mission_ready(state, u);
    all.push(on(Action {
        costs: vec![staff_order(u.side)],
        refused: refusal(decide::call_artillery(
            state,
            &u.id,
            &mut Roller::new(0),
            DiceFrom::Battle,
        )),
        ..Action::new(key::CALL_ARTILLERY, "Call fire mission")
    }));
    all.push(on(Action {
        mechanic: Some(mechanic_id("fire")),
        targets: target_ids(state, u.side),
        fixed: artillery_fixed(state, u),
        limits: vec![bonus_limit(state, u.side, "attacker_wild")],
        refused: refusal(ready.clone()),
        ..Action::new(key::ARTILLERY_FIRE, "Fire for effect")
    }));
    all.push(on(Action {
        refused: refusal(decide::end_mission(state, &u.id, true).and(ready)),
        ..Action::new(key::MISSION_DONE, "Mission done")
    }));
}

/// A Poor Reliability card's checks on a double or triple move, and its repairs.
fn reliability_actions(state: &BattleState, u: &UnitState, all: &mut Vec<Action>) {
    let on = |action: Action| Action {
        side: Some(u.side),
        unit: Some(u.id.clone()),
        ..action
    };
    for (order, label, choice) in [
        (MoveOrder::Double, "Double move check", "double"),
        (MoveOrder::Triple, "Triple move check", "triple"),
    ] {
        all.push(on(Action {
            mechanic: Some(mechanic_id("move")),
            fixed: vec![(param::MOVE, InputValue::Choice(choice))],
            refused: refusal(decide::may_check(state, u, order)),
            ..Action::new(key::CHECK_RELIABILITY, label)
        }));
    }
    for (label, with_order) in [
        ("Repair (command die)", false),
        ("Repair (Staff Order)", true),
    ] {
        all.push(on(Action {
            fixed: vec![(param::STAFF_ORDER, InputValue::Flag(with_order))],
            costs: if with_order {
                vec![staff_order(u.side)]
            } else {
                Vec::new()
            },
            refused: refusal(decide::repair(state, &u.id, with_order)),
            ..Action::new(key::REPAIR, label)
        }));
    }
}

/// Corrections by hand, for what happened at the table outside the tracker: a Disruption Point
/// more or less (never to the unit's Cohesion: a dispersal is recorded with its morale roll),
/// the suppression and the Fire Marker put on or taken off.
fn corrections(state: &BattleState, u: &UnitState, all: &mut Vec<Action>) {
    let on = |action: Action| Action {
        side: Some(u.side),
        unit: Some(u.id.clone()),
        correction: true,
        ..action
    };
    for (label, by) in [("Disruption −1", -1), ("Disruption +1", 1)] {
        let value = i64::from(u.disruption) + by;
        let refused = match u32::try_from(value) {
            Ok(value) => refusal(decide::set_disruption(state, &u.id, value)),
            Err(_) => Some(format!("{} has no Disruption Points", u.label())),
        };
        all.push(on(Action {
            fixed: vec![(param::VALUE, InputValue::Count(value))],
            refused,
            ..Action::new(key::SET_DISRUPTION, label)
        }));
    }
    let (suppress, mark) = (!u.suppressed, !u.fire_marker);
    all.push(on(Action {
        fixed: vec![(param::SUPPRESSED, InputValue::Flag(suppress))],
        refused: refusal(decide::set_suppressed(state, &u.id, suppress)),
        ..Action::new(
            key::SET_SUPPRESSED,
            if suppress {
                "Mark suppressed"
            } else {
                "Remove suppression"
            },
        )
    }));
    all.push(on(Action {
        fixed: vec![(param::MARKED, InputValue::Flag(mark))],
        refused: refusal(decide::set_fire_marker(state, &u.id, mark)),
        ..Action::new(
            key::SET_FIRE_MARKER,
            if mark {
                "Place Fire Marker"
            } else {
                "Remove Fire Marker"
            },
        )
    }));
}

/// What the battle decides of a battery's fire for effect: it is artillery fire, with the
/// battle group's response dice, in this battle.
fn artillery_fixed(state: &BattleState, battery: &UnitState) -> Vec<(&'static str, InputValue)> {
    let dice = state
        .side(battery.side)
        .artillery_response_dice
        .unwrap_or(1);
    vec![
        ("kind", InputValue::Choice("artillery")),
        ("response_dice", count(dice)),
        ("battle", count(battle_number(state))),
    ]
}

fn rally_fixed(state: &BattleState, u: &UnitState) -> Vec<(&'static str, InputValue)> {
    vec![
        ("disruption", count(u.disruption)),
        ("suppressed", InputValue::Flag(u.suppressed)),
        ("battle", count(battle_number(state))),
    ]
}

/// The enemy units of `side` that may be fired at.
fn target_ids(state: &BattleState, side: Side) -> Vec<String> {
    decide::targets(state, opponent(side))
        .into_iter()
        .map(|t| t.id.clone())
        .collect()
}

/// What the request spends its dice on (`on`), or `default` when it does not say.
fn chosen<'a>(request: &'a Request, default: &'a str) -> &'a str {
    match request.inputs.get(param::ON) {
        Some(InputValue::Choice(on)) => on,
        _ => default,
    }
}

/// A count the request gives (`None` when it gives none: the whole chain).
fn given_count(request: &Request, key: &str) -> Option<u32> {
    match request.inputs.get(key) {
        Some(InputValue::Count(n)) => Some(u32::try_from(*n).unwrap_or(u32::MAX)),
        _ => None,
    }
}

/// What `on` spends dice on, from one of the tables of uses; refused with `uses` otherwise.
fn spend_on<T: Copy>(table: &[(&str, T)], on: &str, uses: &str) -> Result<T, BattleError> {
    table
        .iter()
        .find(|(k, _)| *k == on)
        .map(|(_, u)| *u)
        .ok_or_else(|| BattleError::Invalid {
            field: "on",
            message: format!("{on:?}: {uses}"),
        })
}

fn bonus_limit(state: &BattleState, side: Side, key: &'static str) -> Limit {
    let s = state.side(side);
    Limit {
        key,
        max: i64::from(bonus_room(state, side)),
        why: format!(
            "{} holds {} and {}",
            side.label(),
            decide::holding(s.wild, "wild die", "wild dice"),
            decide::holding(s.staff_orders, "Staff Order", "Staff Orders")
        ),
    }
}

// ---------------------------------------------------------------------------------------
// The mechanic's inputs as the table fixes them

fn unit_of<'a>(
    state: &'a BattleState,
    id: Option<&str>,
    what: &str,
) -> Result<&'a UnitState, BattleError> {
    let id = id.ok_or_else(|| BattleError::Invalid {
        field: "unit",
        message: format!("name the {what}"),
    })?;
    decide::unit(state, id)
}

/// The player's inputs laid over the mechanic's defaults: an input the mechanic does not have
/// is refused, naming it.
fn player_inputs(mechanic: &Mechanic, given: &Inputs) -> Result<Inputs, BattleError> {
    let mut inputs = mechanic.defaults();
    for key in given.keys() {
        if inputs.get(key).is_none() {
            return Err(BattleError::Invalid {
                field: "inputs",
                message: format!("{key}: {} takes no such input", mechanic.title()),
            });
        }
        if let Some(value) = given.get(key) {
            inputs.set(key, value.clone());
        }
    }
    Ok(inputs)
}

/// Sets input `key` to the table's `value`; a request that asked for another value (a flag
/// given on the command line) is refused, naming the input and what the table holds for
/// `unit`.
fn fix(
    inputs: &mut Inputs,
    asked: &Inputs,
    key: &'static str,
    value: InputValue,
    unit: &str,
) -> Result<(), BattleError> {
    if let Some(given) = asked.get(key)
        && *given != value
    {
        return Err(crate::rules::battle::table::fixed_by_the_battle(
            key, given, &value, unit,
        ));
    }
    inputs.set(key, value);
    Ok(())
}

/// The mechanic `request` resolves with and its inputs as the table fixes them.
///
/// # Errors
/// An action without a mechanic, a unit that is not there, an input the mechanic does not
/// have, or a bonus the side cannot pay.
pub fn situation(
    state: &BattleState,
    request: &Request,
) -> Result<(MechanicId, Inputs), BattleError> {
    match request.action {
        key::FIRE | key::ARTILLERY_FIRE => fire_inputs(state, request),
        key::RALLY => {
            let u = unit_of(state, request.unit.as_deref(), "rallying unit")?;
            let mut inputs = player_inputs(mechanic("rally")?, &request.inputs)?;
            inputs.set("unit", unit_card(u)?);
            for (key, value) in rally_fixed(state, u) {
                fix(
                    &mut inputs,
                    &request.inputs,
                    key,
                    value,
                    &state.unit_label(u),
                )?;
            }
            bonus_paid(state, u.side, inputs.count_u32("wild"))?;
            Ok((mechanic_id("rally"), inputs))
        }
        key::ROLL_COMMAND => {
            let mut inputs = mechanic("command_dice")?.defaults();
            inputs.set("us_dice", count(state.sides.first.command_dice));
            inputs.set("german_dice", count(state.sides.second.command_dice));
            inputs.set("battle", count(battle_number(state)));
            Ok((mechanic_id("command_dice"), inputs))
        }
        key::CHECK_RELIABILITY => {
            let u = unit_of(state, request.unit.as_deref(), "moving unit")?;
            let mut inputs = player_inputs(mechanic("move")?, &request.inputs)?;
            inputs.set("unit", unit_card(u)?);
            Ok((mechanic_id("move"), inputs))
        }
        other => Err(BattleError::not_allowed(format!(
            "{other} is not resolved with a mechanic"
        ))),
    }
}

fn fire_inputs(
    state: &BattleState,
    request: &Request,
) -> Result<(MechanicId, Inputs), BattleError> {
    let artillery = request.action == key::ARTILLERY_FIRE;
    let firer = unit_of(
        state,
        request.unit.as_deref(),
        if artillery { "battery" } else { "firing unit" },
    )?;
    let target = unit_of(state, request.target.as_deref(), "target")?;
    let mut inputs = player_inputs(mechanic("fire")?, &request.inputs)?;
    let kind = inputs.choice("kind");
    if artillery {
        inputs.set("battery", unit_card(firer)?);
        for (key, value) in artillery_fixed(state, firer) {
            fix(
                &mut inputs,
                &request.inputs,
                key,
                value,
                &state.unit_label(firer),
            )?;
        }
    } else {
        if kind == "artillery" {
            return Err(BattleError::Invalid {
                field: "kind",
                message: "artillery: a mission is called and fired from its battery".into(),
            });
        }
        inputs.set("attacker", unit_card(firer)?);
        // Decided once for odds and roll alike: a hidden firer fires from ambush.
        let hidden = InputValue::Flag(firer.status == UnitStatus::Hidden);
        fix(
            &mut inputs,
            &request.inputs,
            "ambush",
            hidden,
            &state.unit_label(firer),
        )?;
    }
    inputs.set("target", unit_card(target)?);
    let aimed = state.unit_label(target);
    fix(
        &mut inputs,
        &request.inputs,
        "target_disruption",
        count(target.disruption),
        &aimed,
    )?;
    fix(
        &mut inputs,
        &request.inputs,
        "target_suppressed",
        InputValue::Flag(target.suppressed),
        &aimed,
    )?;
    bonus_paid(state, firer.side, inputs.count_u32("attacker_wild"))?;
    bonus_paid(state, target.side, inputs.count_u32("target_wild"))?;
    Ok((mechanic_id("fire"), inputs))
}

// ---------------------------------------------------------------------------------------
// The event an action records

/// The event `request` records with the dice from `roller` (recorded as coming `from` there),
/// and the mechanic's report of its roll: what the battle's [`crate::rules::battle::table::
/// TableRules::resolve`] carries out. A chain or wild dice given without a count spend the
/// whole chain.
///
/// # Errors
/// Why the rules or the table refuse it.
pub(crate) fn decide_with(
    state: &BattleState,
    request: &Request,
    roller: &mut Roller,
    from: DiceFrom,
) -> Result<Decided<Event>, BattleError> {
    let plain = |event: Result<Event, BattleError>| {
        event.map(|event| Decided {
            event,
            report: None,
        })
    };
    let unit = || unit_of(state, request.unit.as_deref(), "unit");
    let side = || {
        request.side.ok_or_else(|| BattleError::Invalid {
            field: "side",
            message: "name the side".into(),
        })
    };
    let number = |key: &'static str| request.inputs.count_u32(key);
    if HALTED_BETWEEN_TURNS.contains(&request.action) {
        between_turns(state)?;
    }
    match request.action {
        key::FIRE => fire(state, request, roller, from),
        key::ARTILLERY_FIRE => artillery_fire(state, request, roller, from),
        key::RALLY => rally(state, request, roller, from),
        key::ROLL_COMMAND => {
            decide::may_roll_command(state)?;
            let (_, inputs) = situation(state, request)?;
            let turn = mechanics::command_dice(&inputs, roller)?;
            Ok(Decided {
                event: decide::command_event(state, &turn, from),
                report: Some(mechanics::command_report(&inputs, &turn)?),
            })
        }
        key::CHECK_RELIABILITY => {
            let u = unit()?;
            let (_, inputs) = situation(state, request)?;
            let order = match inputs.choice(param::MOVE) {
                "triple" => MoveOrder::Triple,
                "double" => MoveOrder::Double,
                _ => MoveOrder::Single,
            };
            decide::may_check(state, u, order)?;
            let roll = mechanics::move_dice(&inputs, roller)?;
            Ok(Decided {
                event: decide::reliability_event(state, &u.id, order, &roll, from)?,
                report: Some(mechanics::move_report(&inputs, &roll)?),
            })
        }
        key::CALL_ARTILLERY => plain(decide::call_artillery(state, &unit()?.id, roller, from)),
        key::DISPERSE => plain(decide::disperse(state, &unit()?.id, roller, from)),
        key::END_TURN => plain(decide::end_turn(state)),
        key::USE_CHAIN => {
            let side = side()?;
            let face = u8::try_from(number(param::FACE)).unwrap_or(u8::MAX);
            let spent_on = spend_on(
                &CHAIN_USES,
                chosen(request, "orders"),
                "a chain is spent on orders, restock_staff_orders or repair (reserves are committed with commit_reserves)",
            )?;
            let s = state.side(side);
            let whole = if face == 6 {
                s.wild
            } else {
                s.chains
                    .iter()
                    .find(|c| c.face == face)
                    .map_or(0, |c| c.dice)
            };
            let dice = given_count(request, param::DICE).unwrap_or(whole);
            plain(decide::use_chain(state, side, face, dice, spent_on))
        }
        key::USE_WILD => {
            let side = side()?;
            let spent_on = spend_on(
                &WILD_USES,
                chosen(request, "bonus"),
                "wild dice are spent as bonus, instant_staff_orders or stock_staff_orders",
            )?;
            let dice = given_count(request, param::DICE).unwrap_or(state.side(side).wild);
            plain(decide::use_wild(state, side, dice, spent_on))
        }
        key::USE_STAFF_ORDER => {
            crate::rules::text::note(&request.text).map_err(|message| BattleError::Invalid {
                field: "purpose",
                message,
            })?;
            plain(decide::use_staff_order(state, side()?, &request.text))
        }
        key::MAINTAIN_MISSION => plain(decide::maintain_mission(state, &unit()?.id)),
        key::CANCEL_MISSION => plain(decide::end_mission(state, &unit()?.id, false)),
        key::MISSION_DONE => plain(decide::end_mission(state, &unit()?.id, true)),
        key::REPAIR => plain(decide::repair(
            state,
            &unit()?.id,
            request.inputs.flag(param::STAFF_ORDER),
        )),
        key::COMMIT_RESERVES => {
            let u = unit()?;
            let face = match request.inputs.get(param::FACE) {
                Some(InputValue::Count(face)) => u8::try_from(*face).ok(),
                _ => cheapest_chain(state, u.side),
            };
            let Some(face) = face else {
                decide::may_commit(state, u.side, &u.company)?;
                return Err(BattleError::not_allowed(format!(
                    "{} has no Dice Chain left to give the order",
                    u.side.label()
                )));
            };
            plain(decide::commit_reserves(
                state,
                u.side,
                &u.company,
                Some(face),
            ))
        }
        key::REVEAL => plain(decide::reveal(state, &unit()?.id)),
        key::SET_DISRUPTION => plain(decide::set_disruption(
            state,
            &unit()?.id,
            number(param::VALUE),
        )),
        key::SET_SUPPRESSED => plain(decide::set_suppressed(
            state,
            &unit()?.id,
            request.inputs.flag(param::SUPPRESSED),
        )),
        key::SET_FIRE_MARKER => plain(decide::set_fire_marker(
            state,
            &unit()?.id,
            request.inputs.flag(param::MARKED),
        )),
        other => Err(BattleError::not_allowed(format!(
            "no action {other:?} in an Armour Battles battle"
        ))),
    }
}

fn fire(
    state: &BattleState,
    request: &Request,
    roller: &mut Roller,
    from: DiceFrom,
) -> Result<Decided<Event>, BattleError> {
    let firer = unit_of(state, request.unit.as_deref(), "firing unit")?;
    let target = unit_of(state, request.target.as_deref(), "target")?;
    // Whether the unit may fire at all comes before how it fires (as rally asks first whether
    // the unit may rally): the reason a refused Fire button gives is then the reason every
    // front end gives, whatever else the situation asks.
    may_fire(state, firer, DiceFrom::Battle)?;
    may_be_fired_at(target)?;
    let (_, inputs) = situation(state, request)?;
    let shot = mechanics::direct_fire(&inputs)?;
    let (mode, roll) = mechanics::fire_roll(&inputs, roller)?;
    let setup = FireSetup {
        attacker_bonus: bonus_paid(state, firer.side, inputs.count_u32("attacker_wild"))?,
        target_bonus: bonus_paid(state, target.side, inputs.count_u32("target_wild"))?,
        ..FireSetup::of_fire(&shot.situation)
    };
    let kind = match mode {
        FireMode::Direct => FireKind::Direct,
        FireMode::Opportunity => FireKind::Opportunity,
    };
    let event = decide::fire_event(state, kind, Some(&firer.id), &target.id, setup, &roll, from)?;
    let mut report = mechanics::fire_report(&inputs, mode, &roll);
    if let Some(note) = shot.note {
        report.note(note);
    }
    Ok(Decided {
        event,
        report: Some(report),
    })
}

fn artillery_fire(
    state: &BattleState,
    request: &Request,
    roller: &mut Roller,
    from: DiceFrom,
) -> Result<Decided<Event>, BattleError> {
    let (_, inputs) = situation(state, request)?;
    let battery = unit_of(state, request.unit.as_deref(), "battery")?;
    let target = unit_of(state, request.target.as_deref(), "target")?;
    decide::mission_ready(state, battery)?;
    let mission = mechanics::mission(&inputs)?;
    let roll = mechanics::burst_roll(&inputs, roller)?;
    let setup = FireSetup {
        attacker_bonus: bonus_paid(state, battery.side, inputs.count_u32("attacker_wild"))?,
        target_bonus: bonus_paid(state, target.side, inputs.count_u32("target_wild"))?,
        ..FireSetup::of_artillery(&mission.situation)
    };
    let event = decide::fire_event(
        state,
        FireKind::Artillery,
        Some(&battery.id),
        &target.id,
        setup,
        &roll,
        from,
    )?;
    Ok(Decided {
        event,
        report: Some(mechanics::burst_report(&inputs, &roll)),
    })
}

fn rally(
    state: &BattleState,
    request: &Request,
    roller: &mut Roller,
    from: DiceFrom,
) -> Result<Decided<Event>, BattleError> {
    let u = unit_of(state, request.unit.as_deref(), "rallying unit")?;
    decide::may_rally(state, u)?;
    let (_, inputs) = situation(state, request)?;
    let bonus = bonus_paid(state, u.side, inputs.count_u32("wild"))?;
    let roll = mechanics::rally_dice(&inputs, roller)?;
    Ok(Decided {
        event: decide::rally_event(state, &u.id, &roll, bonus, from)?,
        report: Some(mechanics::rally_report(&inputs, &roll)),
    })
}
