//! Armour Battles' state read off the generic [`Board`], and written back: the names of the
//! counters and marks it keeps there, and the two directions between them and [`BattleState`].
//!
//! The board is what the campaign folds, stores nothing of its own and shows in every front
//! end; the rules read it as their typed state ([`state_of`]), decide an event with the code
//! that always decided it, apply it to that state ([`BattleState::apply`]) and write the result
//! back ([`write`]): the action's effects are the difference between the two boards
//! ([`Board::changes_to`]). So one fold serves the five rulesets, and the rules of this one
//! stay where they were checked.

use super::super::battle::event::Chain;
use super::super::battle::state::{
    BattleState, Breakdown, LogForm, Mission, MissionStatus, Outcome, Phase, SideState, UnitState,
    UnitStatus,
};
use super::super::{FirstPulse, UnitCard};
use crate::rules::battle::board::{Board, BoardUnit, DESTROYED, LOST_EARLIER, TablePlan};
use crate::rules::battle::{SIDES, Side, Sides};
use crate::rules::card::Card;

/// A unit's counters.
pub mod counter {
    /// Disruption Points on it.
    pub const DISRUPTION: &str = "disruption";
    /// The briefing holds it in reserve until this turn.
    pub const RESERVE_FROM: &str = "reserve_from";
    /// The turn it was dispersed in.
    pub const DISPERSED_IN: &str = "dispersed_in";
    /// The turn a Poor Reliability check broke it down in (0: running).
    pub const BROKEN_DOWN_IN: &str = "broken_down_in";
    /// The turn it was repaired in (it moves again from the next).
    pub const REPAIRED_IN: &str = "repaired_in";
    /// A battery's fire mission: 1 fires now, 2 fires in the next Logistics Phase, 3 cancelled
    /// by a Command Failure (0: none).
    pub const MISSION: &str = "mission";
    /// The turn its mission was called.
    pub const MISSION_CALLED: &str = "mission_called";
}

/// A unit's marks.
pub mod mark {
    pub const RESERVE: &str = "reserve";
    pub const HIDDEN: &str = "hidden";
    /// Off-table artillery (from its card).
    pub const OFF_TABLE: &str = "off_table";
    pub const SUPPRESSED: &str = "suppressed";
    pub const FIRE_MARKER: &str = "fire_marker";
}

/// Each side's counters.
pub mod side {
    pub const COMMAND_DICE: &str = "command_dice";
    pub const RALLY_DICE: &str = "rally_dice";
    /// Absent for a battle group without artillery.
    pub const ARTILLERY_RESPONSE_DICE: &str = "artillery_response_dice";
    pub const ARMY_MORALE: &str = "army_morale";
    pub const ARMY_MORALE_START: &str = "army_morale_start";
    pub const STAFF_ORDERS: &str = "staff_orders";
    /// Restocked this turn: usable from the next.
    pub const STAFF_ORDERS_NEXT_TURN: &str = "staff_orders_next_turn";
    pub const WILD_DICE: &str = "wild_dice";
    /// 1 after a Command Failure this turn.
    pub const COMMAND_FAILURE: &str = "command_failure";
    /// The dice of this turn's chain of `face` (2–5).
    pub fn chain(face: u8) -> String {
        format!("chain_{face}s")
    }
}

/// The battle's own counters.
pub mod battle {
    /// Whose Command Pulse it is: 1 the first side's, 2 the second's, 0 between turns.
    pub const PULSE: &str = "pulse";
    /// Who had this turn's first pulse (1, 2; 0 none).
    pub const FIRST_PULSE: &str = "first_pulse";
    /// The Lorraine battle (1–3) whose battle groups the mechanics read (0: the first).
    pub const BRIEFING: &str = "briefing";
    /// 1 when the first side has the first pulse whatever the dice (Battles 2 and 3).
    pub const FIRST_SIDE_FIRST: &str = "first_side_first";
    /// 1 once a fire recorded its situation (a later one without is an edit).
    pub const LOG_SITUATIONS: &str = "log_situations";
    /// 1 once an event was recorded under the current rules.
    pub const LOG_CURRENT: &str = "log_current";
}

/// The faces a chain can have (a 6 is wild, a 1 is discarded or given away).
const CHAIN_FACES: [u8; 4] = [5, 4, 3, 2];

/// 1 for the first side, 2 for the second: how a side is kept in a counter.
pub fn side_number(side: Side) -> i64 {
    match side {
        Side::First => 1,
        Side::Second => 2,
    }
}

fn side_of(number: i64) -> Option<Side> {
    match number {
        1 => Some(Side::First),
        2 => Some(Side::Second),
        _ => None,
    }
}

fn count(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

/// The unit's card, when it is an Armour Battles one.
pub fn card_of(unit: &BoardUnit) -> Option<&UnitCard> {
    match &unit.card {
        Card::ArmourBattles(card) => Some(card),
        _ => None,
    }
}

/// The company a unit belongs to: the words in brackets its label ends with ("Tank Company 1"
/// in "M4 75mm 1/2 (Tank Company 1)"), as the briefings name and number units; a unit of a
/// force without companies is its own.
pub fn company_of(label: &str) -> String {
    label
        .rsplit_once(" (")
        .and_then(|(_, rest)| rest.strip_suffix(')'))
        .map_or_else(|| label.to_string(), str::to_string)
}

/// The battle as the rules read it.
pub fn state_of(plan: &TablePlan, board: &Board) -> BattleState {
    let sides = Sides {
        first: side_state(board, Side::First),
        second: side_state(board, Side::Second),
    };
    let units: Vec<UnitState> = board.units.iter().map(|u| unit_state(plan, u)).collect();
    let mut sides = sides;
    for unit in &board.units {
        let status = match unit.count(counter::MISSION) {
            1 => MissionStatus::FiringNow,
            2 => MissionStatus::Pending,
            3 => MissionStatus::CancelledByFailure,
            _ => continue,
        };
        sides.get_mut(unit.side).missions.push(Mission {
            battery: unit.id.clone(),
            status,
            called_turn: count(unit.count(counter::MISSION_CALLED)),
        });
    }
    let phase = match (&board.outcome, side_of(board.battle_count(battle::PULSE))) {
        (Some(_), _) => Phase::Over,
        (None, Some(side)) => Phase::Pulse { side },
        (None, None) => Phase::AwaitingCommandRoll,
    };
    let failed = Sides {
        first: sides.first.failed,
        second: sides.second.failed,
    };
    BattleState {
        number: plan.number,
        briefing: count(board.battle_count(battle::BRIEFING)).max(1),
        first_pulse_rule: if board.battle_count(battle::FIRST_SIDE_FIRST) == 1 {
            FirstPulse::UsAutomatic
        } else {
            FirstPulse::Roll
        },
        turn: board.turn,
        phase,
        first_pulse: side_of(board.battle_count(battle::FIRST_PULSE)),
        sides,
        units,
        outcome: board.outcome.as_ref().map(|(winner, reason)| Outcome {
            winner: *winner,
            reason: reason.clone(),
        }),
        morale_by_turn: Vec::new(),
        last_command: (board.turn > 0).then(|| last_command(board.turn, failed)),
        log: LogForm {
            situations: board.battle_count(battle::LOG_SITUATIONS) == 1,
            current: board.battle_count(battle::LOG_CURRENT) == 1,
        },
        last_pulse_open: true,
    }
}

/// What the rules still ask of the turn's command roll once it is made: its turn, and whether
/// both sides failed (the turn then ended at once). The dice are in its event.
fn last_command(turn: u32, failed: Sides<bool>) -> super::super::battle::event::CommandRolled {
    super::super::battle::event::CommandRolled {
        turn,
        seed: 0,
        rounds: Vec::new(),
        first_pulse: None,
        turn_ends: failed.first && failed.second,
        failed,
        chains: Sides::default(),
        wild: Sides::default(),
        dice_from: crate::rules::battle::DiceFrom::Chosen,
    }
}

fn side_state(board: &Board, side: Side) -> SideState {
    let n = |key: &str| count(board.side_count(side, key));
    let artillery = board
        .sides
        .get(side)
        .get(self::side::ARTILLERY_RESPONSE_DICE);
    SideState {
        command_dice: n(self::side::COMMAND_DICE),
        rally_dice: n(self::side::RALLY_DICE),
        artillery_response_dice: artillery.map(|d| count(*d)),
        army_morale: n(self::side::ARMY_MORALE),
        army_morale_start: n(self::side::ARMY_MORALE_START),
        staff_orders: n(self::side::STAFF_ORDERS),
        staff_orders_next_turn: n(self::side::STAFF_ORDERS_NEXT_TURN),
        chains: CHAIN_FACES
            .into_iter()
            .filter_map(|face| {
                let dice = n(&self::side::chain(face));
                (dice > 0).then_some(Chain { face, dice })
            })
            .collect(),
        wild: n(self::side::WILD_DICE),
        failed: n(self::side::COMMAND_FAILURE) == 1,
        missions: Vec::new(),
    }
}

/// One unit as the rules read it.
pub fn unit_state(plan: &TablePlan, unit: &BoardUnit) -> UnitState {
    let card = card_of(unit);
    let status = if unit.has(LOST_EARLIER) {
        UnitStatus::LostEarlier
    } else if unit.has(DESTROYED) {
        UnitStatus::Dispersed {
            turn: count(unit.count(counter::DISPERSED_IN)),
        }
    } else if unit.has(mark::OFF_TABLE) {
        UnitStatus::OffTable
    } else if unit.has(mark::RESERVE) {
        UnitStatus::Reserve {
            from_turn: count(unit.count(counter::RESERVE_FROM)),
        }
    } else if unit.has(mark::HIDDEN) {
        UnitStatus::Hidden
    } else {
        UnitStatus::OnTable
    };
    let breakdown = match (
        unit.count(counter::BROKEN_DOWN_IN),
        unit.count(counter::REPAIRED_IN),
    ) {
        (turn, _) if turn > 0 => Breakdown::BrokenDown { turn: count(turn) },
        (_, turn) if turn > 0 => Breakdown::Repaired { turn: count(turn) },
        _ => Breakdown::Running,
    };
    let planned = plan.unit(&unit.id).map(|(_, u)| u);
    UnitState {
        id: unit.id.clone(),
        side: unit.side,
        name: unit.label.clone(),
        card: unit.name().to_string(),
        company: company_of(&unit.label),
        reserve_from: (unit.count(counter::RESERVE_FROM) > 0)
            .then(|| count(unit.count(counter::RESERVE_FROM))),
        hidden_at_start: planned.is_some_and(|u| u.marks.contains(mark::HIDDEN)),
        status,
        disruption: count(unit.count(counter::DISRUPTION)),
        cohesion: card.map_or(3, |c| u32::from(c.cohesion)),
        suppressed: unit.has(mark::SUPPRESSED),
        fire_marker: unit.has(mark::FIRE_MARKER),
        breakdown,
    }
}

/// The board as `state` leaves it, written over `board` (which it was read from).
pub fn write(state: &BattleState, board: &mut Board) {
    board.turn = state.turn;
    board.outcome = state.outcome.as_ref().map(|o| (o.winner, o.reason.clone()));
    let pulse = match state.phase {
        Phase::Pulse { side } => side_number(side),
        Phase::AwaitingCommandRoll | Phase::Over => 0,
    };
    board.counters.insert(battle::PULSE.into(), pulse);
    board.counters.insert(
        battle::FIRST_PULSE.into(),
        state.first_pulse.map_or(0, side_number),
    );
    board.counters.insert(
        battle::LOG_SITUATIONS.into(),
        i64::from(state.log.situations),
    );
    board
        .counters
        .insert(battle::LOG_CURRENT.into(), i64::from(state.log.current));
    for side in SIDES {
        write_side(state.side(side), board.sides.get_mut(side));
    }
    for unit in &mut board.units {
        let Some(now) = state.unit(&unit.id) else {
            continue;
        };
        let mission = state
            .side(unit.side)
            .missions
            .iter()
            .find(|m| m.battery == unit.id);
        write_unit(now, mission, unit);
    }
}

fn write_side(s: &SideState, counters: &mut std::collections::BTreeMap<String, i64>) {
    let mut set = |key: &str, value: u32| {
        counters.insert(key.to_string(), i64::from(value));
    };
    set(self::side::COMMAND_DICE, s.command_dice);
    set(self::side::RALLY_DICE, s.rally_dice);
    set(self::side::ARMY_MORALE, s.army_morale);
    set(self::side::ARMY_MORALE_START, s.army_morale_start);
    set(self::side::STAFF_ORDERS, s.staff_orders);
    set(self::side::STAFF_ORDERS_NEXT_TURN, s.staff_orders_next_turn);
    set(self::side::WILD_DICE, s.wild);
    set(self::side::COMMAND_FAILURE, u32::from(s.failed));
    for face in CHAIN_FACES {
        let dice = s
            .chains
            .iter()
            .find(|c| c.face == face)
            .map_or(0, |c| c.dice);
        set(&self::side::chain(face), dice);
    }
    match s.artillery_response_dice {
        Some(dice) => set(self::side::ARTILLERY_RESPONSE_DICE, dice),
        None => {
            counters.remove(self::side::ARTILLERY_RESPONSE_DICE);
        }
    }
}

fn write_unit(now: &UnitState, mission: Option<&Mission>, unit: &mut BoardUnit) {
    for mark in [
        mark::RESERVE,
        mark::HIDDEN,
        DESTROYED,
        LOST_EARLIER,
        mark::SUPPRESSED,
        mark::FIRE_MARKER,
    ] {
        unit.marks.remove(mark);
    }
    let mut put = |name: &str| {
        unit.marks.insert(name.to_string());
    };
    match now.status {
        UnitStatus::LostEarlier => {
            put(LOST_EARLIER);
            put(DESTROYED);
        }
        UnitStatus::Dispersed { .. } => put(DESTROYED),
        UnitStatus::Reserve { .. } => put(mark::RESERVE),
        UnitStatus::Hidden => put(mark::HIDDEN),
        UnitStatus::OnTable | UnitStatus::OffTable => {}
    }
    if now.suppressed {
        put(mark::SUPPRESSED);
    }
    if now.fire_marker {
        put(mark::FIRE_MARKER);
    }
    let (broken, repaired) = match now.breakdown {
        Breakdown::Running => (0, 0),
        Breakdown::BrokenDown { turn } => (turn, 0),
        Breakdown::Repaired { turn } => (0, turn),
    };
    let dispersed = match now.status {
        UnitStatus::Dispersed { turn } => turn,
        _ => 0,
    };
    let (status, called) = mission.map_or((0, 0), |m| {
        let status = match m.status {
            MissionStatus::FiringNow => 1,
            MissionStatus::Pending => 2,
            MissionStatus::CancelledByFailure => 3,
        };
        (status, m.called_turn)
    });
    for (key, value) in [
        (counter::DISRUPTION, now.disruption),
        (counter::DISPERSED_IN, dispersed),
        (counter::BROKEN_DOWN_IN, broken),
        (counter::REPAIRED_IN, repaired),
        (counter::MISSION, status),
        (counter::MISSION_CALLED, called),
    ] {
        if value == 0 && !unit.counters.contains_key(key) {
            continue;
        }
        unit.counters.insert(key.to_string(), i64::from(value));
    }
}
