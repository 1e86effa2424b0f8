//! Turning what the players do at the table into events, checked against the rules and the
//! current state first, so the log only ever holds things that could happen. Rolls are made
//! here (with the caller's seeded roller) and recorded in full in the event, with where their
//! dice came from ([`DiceFrom`]).
//!
//! Two sets of rules live side by side, chosen per event by that mark, so that logs recorded
//! before the current rules keep verifying exactly as they did: under [`DiceFrom::Chosen`] a
//! bonus die was free and a suppressed unit's fire was taken as recorded; under the current
//! rules a wild die or Staff Order added to a roll must be in the side's stock (and is charged
//! by the state when the event is applied), a suppressed unit cannot fire (the book: it keeps
//! its head down until its suppression is removed), and a reserve company is committed with a
//! die of a chain, from its briefing's turn and never in a turn of Command Failure.

use super::event::{
    ArtilleryCalled, Chain, ChainUse, CommandRolled, Event, Extra, FireEvent, FireKind, FireSetup,
    RallyEvent, WildUse,
};
use super::state::{BattleState, Breakdown, MissionStatus, Phase, UnitState, UnitStatus};
use crate::rules::armour_battles::SideName;
use crate::rules::armour_battles::artillery::{self, ArtillerySituation};
use crate::rules::armour_battles::command;
use crate::rules::armour_battles::fire::MoveOrder;
use crate::rules::armour_battles::outcome::FireRoll;
use crate::rules::armour_battles::rally::RallyRoll;
use crate::rules::armour_battles::reliability::{self, MoveResult};
use crate::rules::armour_battles::{self, Side, SpecialRule, UnitCard, UnitKind};
use crate::rules::battle::{BattleError, DiceFrom, Sides};
use crate::rules::dice::Roller;

/// Hidden units are revealed when an enemy ends a move this close (inches).
pub const REVEAL_DISTANCE_INCHES: u32 = 15;

pub(crate) fn not_over(state: &BattleState) -> Result<(), BattleError> {
    match &state.outcome {
        Some(outcome) if state.is_over() => Err(BattleError::BattleOver(outcome.reason.clone())),
        _ => Ok(()),
    }
}

pub(crate) fn unit<'a>(state: &'a BattleState, id: &str) -> Result<&'a UnitState, BattleError> {
    state
        .unit(id)
        .ok_or_else(|| BattleError::UnknownUnit(id.to_string()))
}

pub(crate) fn card(unit: &UnitState) -> Result<&'static UnitCard, BattleError> {
    armour_battles::unit_card(&unit.card)
        .ok_or_else(|| BattleError::MissingData(format!("card {}", unit.card)))
}

pub(crate) fn in_play(unit: &UnitState) -> Result<(), BattleError> {
    match unit.status {
        UnitStatus::Dispersed { .. } => Err(BattleError::not_allowed(format!(
            "{} has been dispersed",
            unit.label()
        ))),
        UnitStatus::LostEarlier => Err(BattleError::not_allowed(format!(
            "{} was lost in an earlier battle",
            unit.label()
        ))),
        UnitStatus::Reserve { .. } => Err(BattleError::not_allowed(format!(
            "{} is still in reserve: commit its company first",
            unit.label()
        ))),
        _ => Ok(()),
    }
}

/// Rolls both sides' command dice for the next turn.
///
/// # Errors
/// The battle is over, or the current turn still has chains to use.
pub fn roll_command(
    state: &BattleState,
    roller: &mut Roller,
    dice: DiceFrom,
) -> Result<Event, BattleError> {
    may_roll_command(state)?;
    let turn = command::roll_command(
        state.sides.first.command_dice,
        state.sides.second.command_dice,
        state.first_pulse_rule,
        roller,
    )?;
    Ok(command_event(state, &turn, dice))
}

/// Whether the next turn's command dice may be rolled: the battle goes on and no turn is
/// being played.
pub(crate) fn may_roll_command(state: &BattleState) -> Result<(), BattleError> {
    not_over(state)?;
    if let Phase::Pulse { side } = state.phase {
        return Err(BattleError::not_allowed(format!(
            "turn {} is still being played ({} has the pulse); end the turn first",
            state.turn,
            side.label()
        )));
    }
    Ok(())
}

/// The event of the next turn's command roll `turn`.
pub(crate) fn command_event(
    state: &BattleState,
    turn: &command::CommandTurn,
    dice: DiceFrom,
) -> Event {
    let chains = |s: &command::SideCommand| -> Vec<Chain> {
        s.chains
            .iter()
            .map(|c| Chain {
                face: c.face,
                dice: c.dice,
            })
            .collect()
    };
    Event::CommandRolled(CommandRolled {
        turn: state.turn + 1,
        seed: turn.seed,
        rounds: turn
            .rounds
            .iter()
            .map(|r| Sides {
                first: r.first.clone(),
                second: r.second.clone(),
            })
            .collect(),
        first_pulse: turn.first_pulse,
        turn_ends: turn.turn_ends,
        failed: Sides {
            first: turn.first.failed,
            second: turn.second.failed,
        },
        chains: Sides {
            first: chains(&turn.first),
            second: chains(&turn.second),
        },
        wild: Sides {
            first: turn.first.wild_dice(),
            second: turn.second.wild_dice(),
        },
        dice_from: dice,
    })
}

/// `side` uses `dice` dice of its chain of `face` (6: its wild dice) in its pulse.
///
/// # Errors
/// Not the side's pulse, no such chain, too few dice, or a use the chain cannot have.
pub fn use_chain(
    state: &BattleState,
    side: Side,
    face: u8,
    dice: u32,
    spent_on: ChainUse,
) -> Result<Event, BattleError> {
    in_pulse(state, side)?;
    if dice == 0 {
        return Err(BattleError::Invalid {
            field: "dice",
            message: "0: a chain uses at least one die".to_string(),
        });
    }
    let s = state.side(side);
    let available = if face == 6 {
        s.wild
    } else {
        s.chains
            .iter()
            .find(|c| c.face == face)
            .map_or(0, |c| c.dice)
    };
    if available < dice {
        return Err(BattleError::not_allowed(format!(
            "{} has {available} {}: cannot use {dice}",
            side.label(),
            if face == 6 {
                "wild dice".to_string()
            } else {
                format!("dice in its chain of {face}s")
            }
        )));
    }
    if spent_on == ChainUse::RestockStaffOrders && dice < 2 {
        return Err(BattleError::not_allowed(
            "restocking Staff Orders needs a Double Dice Chain or longer",
        ));
    }
    Ok(Event::ChainUsed {
        side,
        face,
        dice,
        spent_on,
    })
}

/// Whether it is `side`'s Command Pulse in a battle still being fought.
pub(crate) fn in_pulse(state: &BattleState, side: Side) -> Result<(), BattleError> {
    not_over(state)?;
    if state.phase != (Phase::Pulse { side }) {
        return Err(BattleError::not_allowed(format!(
            "it is not the {} Command Pulse",
            side.label()
        )));
    }
    Ok(())
}

/// `side` spends wild dice outside a chain.
///
/// # Errors
/// Too few wild dice; instant Staff Orders need two or more.
pub fn use_wild(
    state: &BattleState,
    side: Side,
    dice: u32,
    spent_on: WildUse,
) -> Result<Event, BattleError> {
    not_over(state)?;
    let have = state.side(side).wild;
    if dice == 0 || dice > have {
        return Err(BattleError::not_allowed(format!(
            "{} has {have} wild dice: cannot use {dice}",
            side.label()
        )));
    }
    if spent_on == WildUse::InstantStaffOrders && dice < 2 {
        return Err(BattleError::not_allowed(
            "instant Staff Orders need two or more wild dice",
        ));
    }
    Ok(Event::WildDiceUsed {
        side,
        dice,
        spent_on,
    })
}

/// `side` spends one Staff Order on `purpose`.
///
/// # Errors
/// No Staff Order left.
pub fn use_staff_order(
    state: &BattleState,
    side: Side,
    purpose: &str,
) -> Result<Event, BattleError> {
    not_over(state)?;
    need_staff_order(state, side)?;
    Ok(Event::StaffOrderUsed {
        side,
        purpose: purpose.trim().to_string(),
    })
}

pub(crate) fn need_staff_order(state: &BattleState, side: Side) -> Result<(), BattleError> {
    let s = state.side(side);
    if s.staff_orders == 0 {
        let waiting = if s.staff_orders_next_turn > 0 {
            format!(
                " ({} restocked, usable next turn)",
                s.staff_orders_next_turn
            )
        } else {
            String::new()
        };
        return Err(BattleError::not_allowed(format!(
            "{} has no Staff Order left{waiting}",
            side.label()
        )));
    }
    Ok(())
}

/// Calls a fire mission with a Staff Order and rolls its response check.
///
/// # Errors
/// Not a battery of the side, no response dice, no Staff Order, or already on a mission.
pub fn call_artillery(
    state: &BattleState,
    battery: &str,
    roller: &mut Roller,
    dice: DiceFrom,
) -> Result<Event, BattleError> {
    not_over(state)?;
    let u = unit(state, battery)?;
    if u.status != UnitStatus::OffTable {
        return Err(BattleError::not_allowed(format!(
            "{} is not off-table artillery",
            state.unit_label(u)
        )));
    }
    let side = u.side;
    let s = state.side(side);
    let response_dice = s.artillery_response_dice.ok_or_else(|| {
        BattleError::not_allowed(format!(
            "the {} battle group has no Artillery Response Dice",
            side.label()
        ))
    })?;
    if s.missions.iter().any(|m| m.battery == battery) {
        return Err(BattleError::not_allowed(format!(
            "{} already has a fire mission",
            state.unit_label(u)
        )));
    }
    need_staff_order(state, side)?;
    let seed = roller.seed();
    let response =
        artillery::roll_response(response_dice, armour_battles::artillery_rules()?, roller)?;
    Ok(Event::ArtilleryCalled(ArtilleryCalled {
        side,
        battery: battery.to_string(),
        seed,
        response: response.ours,
        opponent: response.theirs,
        fires_now: response.fires_now,
        dice_from: dice,
    }))
}

/// Keeps a mission cancelled by a Command Failure, for a Staff Order.
///
/// # Errors
/// No such cancelled mission, or no Staff Order.
pub fn maintain_mission(state: &BattleState, battery: &str) -> Result<Event, BattleError> {
    not_over(state)?;
    let side = unit(state, battery)?.side;
    let cancelled = state
        .side(side)
        .missions
        .iter()
        .any(|m| m.battery == battery && m.status == MissionStatus::CancelledByFailure);
    if !cancelled {
        return Err(BattleError::NothingTo("maintain"));
    }
    need_staff_order(state, side)?;
    Ok(Event::MissionMaintained {
        side,
        battery: battery.to_string(),
    })
}

/// Records a fire rolled with `setup` against the battle as it is now: the setup must name the
/// target's Disruption and suppression as the table has them.
///
/// # Errors
/// Unknown or dispersed units, a target in reserve, a roll made with a different Disruption
/// count or suppression than the target has now, and (current rules) a firer that may not
/// fire or a bonus the side cannot pay.
pub fn fire_event(
    state: &BattleState,
    kind: FireKind,
    attacker: Option<&str>,
    target: &str,
    setup: FireSetup,
    roll: &FireRoll,
    dice: DiceFrom,
) -> Result<Event, BattleError> {
    let t = unit(state, target)?;
    if setup.target_disruption != t.disruption || setup.target_suppressed != t.suppressed {
        return Err(BattleError::not_allowed(format!(
            "the roll assumed {} Disruption Points on {}{} (it has {}{}): roll again from the battle",
            setup.target_disruption,
            t.label(),
            if setup.target_suppressed {
                ", suppressed"
            } else {
                ""
            },
            t.disruption,
            if t.suppressed { ", suppressed" } else { "" },
        )));
    }
    fire_event_as_recorded(state, kind, attacker, target, Some(setup), roll, dice)
}

/// [`fire_event`] with the situation as the log has it: `None` for fire recorded before
/// situations were (only [`super::verify`] passes that, for legacy events).
pub(crate) fn fire_event_as_recorded(
    state: &BattleState,
    kind: FireKind,
    attacker: Option<&str>,
    target: &str,
    situation: Option<FireSetup>,
    roll: &FireRoll,
    dice: DiceFrom,
) -> Result<Event, BattleError> {
    not_over(state)?;
    let t = unit(state, target)?;
    may_be_fired_at(t)?;
    let expected = (t.disruption + roll.result.new_disruption).min(t.cohesion);
    let agrees = roll.result.total_disruption == expected
        || (roll.result.dispersed && t.disruption + roll.result.new_disruption >= t.cohesion);
    if !agrees {
        return Err(BattleError::not_allowed(format!(
            "the roll assumed a different number of Disruption Points on {} (it has {}): roll again from the battle",
            t.label(),
            t.disruption
        )));
    }
    if let Some(a) = attacker {
        let a = unit(state, a)?;
        in_play(a)?;
        if a.side == t.side {
            return Err(BattleError::not_allowed(format!(
                "{} and {} are on the same side",
                a.label(),
                t.label()
            )));
        }
        if kind != FireKind::Artillery {
            may_fire(state, a, dice)?;
        }
        if let (Some(setup), true) = (&situation, dice.is_current()) {
            can_pay(state, a.side, setup.attacker_bonus)?;
            can_pay(state, t.side, setup.target_bonus)?;
            let hidden = a.status == UnitStatus::Hidden;
            if kind != FireKind::Artillery && setup.ambush != hidden {
                return Err(BattleError::not_allowed(format!(
                    "{} {}: a hidden unit that fires does so from ambush (+1D), a unit on the table never does",
                    state.unit_label(a),
                    if hidden { "is hidden" } else { "is not hidden" }
                )));
            }
        }
    }
    Ok(Event::Fire(FireEvent {
        fire: kind,
        situation,
        attacker: attacker.map(str::to_string),
        target: target.to_string(),
        seed: roll.seed,
        attacker_tn: roll.attacker_tn,
        reaction_tn: roll.reaction_tn,
        attack: roll.attack.clone(),
        reaction: roll.reaction.clone(),
        forced_back: roll.forced_back_roll.clone(),
        morale: roll.morale_roll.clone(),
        new_disruption: roll.result.new_disruption,
        suppressed: roll.result.suppressed,
        forced_back_inches: roll.result.forced_back_inches,
        dispersed: roll.result.dispersed,
        army_morale_loss: roll.result.army_morale_loss,
        dice_from: dice,
    }))
}

/// Whether `unit` may be fired at: in play and on the table (hidden units may be: firing at
/// one reveals it to the table in all but name).
pub(crate) fn may_be_fired_at(unit: &UnitState) -> Result<(), BattleError> {
    in_play(unit)?;
    if unit.status == UnitStatus::OffTable {
        return Err(BattleError::not_allowed(format!(
            "{} is off-table and cannot be fired at",
            unit.label()
        )));
    }
    Ok(())
}

/// Whether `unit` may fire directly now: in play, on the table, no Fire Marker and (current
/// rules) not suppressed.
pub(crate) fn may_fire(
    state: &BattleState,
    unit: &UnitState,
    dice: DiceFrom,
) -> Result<(), BattleError> {
    in_play(unit)?;
    if unit.status == UnitStatus::OffTable {
        return Err(BattleError::not_allowed(format!(
            "{} is off-table artillery: it fires missions, not direct fire",
            state.unit_label(unit)
        )));
    }
    if unit.fire_marker {
        return Err(BattleError::not_allowed(format!(
            "{} has already fired this turn",
            unit.label()
        )));
    }
    if dice.is_current() && unit.suppressed {
        return Err(BattleError::not_allowed(format!(
            "{} is suppressed and cannot fire: remove its suppression first (a Remove Unit \
             Suppression order, or a wild die or Staff Order once activated)",
            state.unit_label(unit)
        )));
    }
    Ok(())
}

/// Whether `side` holds the wild die and Staff Order of `bonus`.
pub(crate) fn can_pay(state: &BattleState, side: Side, bonus: Extra) -> Result<(), BattleError> {
    let s = state.side(side);
    if bonus.wild_die && s.wild == 0 {
        return Err(BattleError::not_allowed(format!(
            "{} has no wild die to add (+1D costs one of this turn's wild dice)",
            side.label()
        )));
    }
    if bonus.staff_order {
        need_staff_order(state, side)?;
    }
    Ok(())
}

/// The wild die and Staff Order `side` pays for `count` extra dice (at most one of each per
/// action): a wild die first — it is lost at the end of the turn, a Staff Order is not — then
/// a Staff Order.
///
/// # Errors
/// More than 2, or more than the side holds, with what it holds.
pub fn bonus_paid(state: &BattleState, side: Side, count: u32) -> Result<Extra, BattleError> {
    let s = state.side(side);
    let (wild, orders) = (s.wild > 0, s.staff_orders > 0);
    let paid = match count {
        0 => Some(Extra::default()),
        1 if wild => Some(Extra {
            wild_die: true,
            staff_order: false,
        }),
        1 if orders => Some(Extra {
            wild_die: false,
            staff_order: true,
        }),
        2 if wild && orders => Some(Extra {
            wild_die: true,
            staff_order: true,
        }),
        _ => None,
    };
    paid.ok_or_else(|| {
        BattleError::not_allowed(format!(
            "{} cannot pay for {}: it holds {} and {} (each extra die costs one; at most one of each per action)",
            side.label(),
            holding(count, "extra die", "extra dice"),
            holding(s.wild, "wild die", "wild dice"),
            holding(s.staff_orders, "Staff Order", "Staff Orders")
        ))
    })
}

/// "no wild die", "1 wild die", "2 wild dice".
pub(crate) fn holding(count: u32, one: &str, many: &str) -> String {
    match count {
        0 => format!("no {one}"),
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

/// How many extra dice `side` could add to one roll now (0, 1 or 2).
pub fn bonus_room(state: &BattleState, side: Side) -> u32 {
    let s = state.side(side);
    u32::from(s.wild > 0) + u32::from(s.staff_orders > 0)
}

/// Rolls a battery's fire for effect on one unit under the burst.
///
/// # Errors
/// As [`fire_event`]; the battery has no mission ready to fire.
pub fn artillery_fire(
    state: &BattleState,
    battery: &str,
    target: &str,
    situation: ArtillerySituation,
    roller: &mut Roller,
    dice: DiceFrom,
) -> Result<Event, BattleError> {
    let b = unit(state, battery)?;
    mission_ready(state, b)?;
    let t = unit(state, target)?;
    in_play(t)?;
    let situation = ArtillerySituation {
        target_disruption: t.disruption,
        target_suppressed: t.suppressed,
        ..situation
    };
    let roll = artillery::roll_artillery_fire(
        card(b)?,
        card(t)?,
        &situation,
        armour_battles::fire_rules()?,
        armour_battles::artillery_rules()?,
        roller,
    )?;
    let setup = FireSetup::of_artillery(&situation);
    fire_event(
        state,
        FireKind::Artillery,
        Some(battery),
        target,
        setup,
        &roll,
        dice,
    )
}

/// Whether battery `b` has a mission ready to fire for effect.
pub(crate) fn mission_ready(state: &BattleState, b: &UnitState) -> Result<(), BattleError> {
    let ready = state
        .side(b.side)
        .missions
        .iter()
        .any(|m| m.battery == b.id && m.status == MissionStatus::FiringNow);
    if ready {
        Ok(())
    } else {
        Err(BattleError::not_allowed(format!(
            "{} has no fire mission ready to fire",
            b.label()
        )))
    }
}

/// Records a rally rolled with `bonus` (its wild die and Staff Order) against the unit as it
/// is now.
///
/// # Errors
/// Unknown unit, the roll assumed a different Disruption count, (current rules) a suppressed
/// unit or a bonus the side cannot pay.
pub fn rally_event(
    state: &BattleState,
    unit_id: &str,
    roll: &RallyRoll,
    bonus: Extra,
    dice: DiceFrom,
) -> Result<Event, BattleError> {
    not_over(state)?;
    let u = unit(state, unit_id)?;
    in_play(u)?;
    if roll.removed + roll.remaining != u.disruption {
        return Err(BattleError::not_allowed(format!(
            "the rally assumed {} Disruption Points on {} (it has {})",
            roll.removed + roll.remaining,
            state.unit_label(u),
            u.disruption
        )));
    }
    if dice.is_current() {
        may_rally(state, u)?;
        can_pay(state, u.side, bonus)?;
    }
    Ok(Event::Rally(RallyEvent {
        unit: unit_id.to_string(),
        seed: roll.seed,
        rally: roll.rally.clone(),
        opponent: roll.opponent.clone(),
        removed: roll.removed,
        remaining: roll.remaining,
        bonus,
        dice_from: dice,
    }))
}

/// Whether `unit` may rally now: in play, with Disruption Points to rally off, not suppressed.
pub(crate) fn may_rally(state: &BattleState, unit: &UnitState) -> Result<(), BattleError> {
    in_play(unit)?;
    if unit.disruption == 0 {
        return Err(BattleError::not_allowed(format!(
            "{} has no Disruption Points to rally off",
            state.unit_label(unit)
        )));
    }
    if unit.suppressed {
        return Err(BattleError::not_allowed(format!(
            "{} is suppressed and cannot rally: remove its suppression first (Remove Unit Suppression order)",
            state.unit_label(unit)
        )));
    }
    Ok(())
}

/// Disperses a unit by hand (something outside the tracker removed it) and rolls the 1D3
/// Army Morale loss.
///
/// # Errors
/// Unknown or already dispersed unit.
pub fn disperse(
    state: &BattleState,
    unit_id: &str,
    roller: &mut Roller,
    dice: DiceFrom,
) -> Result<Event, BattleError> {
    not_over(state)?;
    let u = unit(state, unit_id)?;
    if u.is_dispersed() {
        return Err(BattleError::not_allowed(format!(
            "{} is already dispersed",
            state.unit_label(u)
        )));
    }
    let sides = armour_battles::fire_rules()?.result.army_morale_loss_die;
    let record = roller.roll("army_morale", u8::try_from(sides).unwrap_or(3), 1)?;
    let loss = record.dice.iter().map(|&f| u32::from(f)).sum();
    Ok(Event::Dispersed {
        unit: unit_id.to_string(),
        morale: record,
        loss,
        dice_from: dice,
    })
}

/// Rolls a double or triple move's Poor Reliability check.
///
/// # Errors
/// The unit has no Poor Reliability, the move is single, or it cannot move this turn.
pub fn check_reliability(
    state: &BattleState,
    unit_id: &str,
    order: MoveOrder,
    roller: &mut Roller,
    dice: DiceFrom,
) -> Result<Event, BattleError> {
    let u = unit(state, unit_id)?;
    let roll = reliability::roll_move(card(u)?, order, roller)?;
    reliability_event(state, unit_id, order, &roll, dice)
}

/// The event of a Poor Reliability check rolled as `roll`.
///
/// # Errors
/// As [`check_reliability`].
pub(crate) fn reliability_event(
    state: &BattleState,
    unit_id: &str,
    order: MoveOrder,
    roll: &reliability::MoveRoll,
    dice: DiceFrom,
) -> Result<Event, BattleError> {
    not_over(state)?;
    let u = unit(state, unit_id)?;
    may_check(state, u, order)?;
    Ok(Event::ReliabilityChecked {
        unit: unit_id.to_string(),
        broke_down: roll.result == MoveResult::BrokeDown,
        record: roll.record.clone(),
        dice_from: dice,
    })
}

/// Whether `unit` makes a Poor Reliability check on `order` now.
pub(crate) fn may_check(
    state: &BattleState,
    unit: &UnitState,
    order: MoveOrder,
) -> Result<(), BattleError> {
    in_play(unit)?;
    if !card(unit)?.has(SpecialRule::PoorReliability) || order == MoveOrder::Single {
        return Err(BattleError::not_allowed(format!(
            "{} makes no reliability check on a {}",
            state.unit_label(unit),
            order.label()
        )));
    }
    if !unit.can_move(state.turn) {
        return Err(BattleError::not_allowed(format!(
            "{} cannot move this turn",
            state.unit_label(unit)
        )));
    }
    Ok(())
}

/// Repairs a broken-down unit with a command die or a Staff Order, from the turn after the
/// breakdown.
///
/// # Errors
/// Not broken down, broken down this very turn, or no Staff Order.
pub fn repair(state: &BattleState, unit_id: &str, staff_order: bool) -> Result<Event, BattleError> {
    not_over(state)?;
    let u = unit(state, unit_id)?;
    match u.breakdown {
        Breakdown::BrokenDown { turn } if turn < state.turn => {}
        Breakdown::BrokenDown { .. } => {
            return Err(BattleError::not_allowed(format!(
                "{} broke down this turn: it can be repaired from next turn",
                state.unit_label(u)
            )));
        }
        _ => {
            return Err(BattleError::not_allowed(format!(
                "{} is not broken down",
                state.unit_label(u)
            )));
        }
    }
    if staff_order {
        need_staff_order(state, u.side)?;
    }
    Ok(Event::Repaired {
        unit: unit_id.to_string(),
        staff_order,
    })
}

/// Commits a reserve company. Under the current rules the order takes one die of the side's
/// chain of `chain` (its face) in the side's Command Pulse, and the event carries it; a legacy
/// commit (`None`) spent the die with a separate chain event.
///
/// # Errors
/// Before the company's turn, in a turn of Command Failure, nothing in reserve; with a chain:
/// not the side's pulse, or no such chain.
pub fn commit_reserves(
    state: &BattleState,
    side: Side,
    company: &str,
    chain: Option<u8>,
) -> Result<Event, BattleError> {
    not_over(state)?;
    may_commit(state, side, company)?;
    if let Some(face) = chain {
        use_chain(state, side, face, 1, ChainUse::Orders)?;
    }
    Ok(Event::ReservesCommitted {
        side,
        company: company.to_string(),
        chain,
    })
}

/// Whether `company` of `side` may be committed now: it holds units in reserve, its briefing's
/// turn has come, and the side did not roll a Command Failure this turn.
pub(crate) fn may_commit(
    state: &BattleState,
    side: Side,
    company: &str,
) -> Result<(), BattleError> {
    let from_turn = state
        .units_of(side)
        .filter(|u| u.company == company)
        .filter_map(|u| match u.status {
            UnitStatus::Reserve { from_turn } => Some(from_turn),
            _ => None,
        })
        .max();
    let Some(from_turn) = from_turn else {
        return Err(BattleError::not_allowed(format!(
            "{company} has no units in reserve"
        )));
    };
    if state.turn < from_turn {
        return Err(BattleError::not_allowed(format!(
            "{company} may be committed from turn {from_turn} (this is turn {})",
            state.turn
        )));
    }
    if state.side(side).failed {
        return Err(BattleError::not_allowed(format!(
            "{} rolled a Command Failure this turn: no reserves may be committed",
            side.label()
        )));
    }
    Ok(())
}

/// Places a hidden unit on the table (it fired, or an enemy ended a move within 15″).
///
/// # Errors
/// The unit is not hidden.
pub fn reveal(state: &BattleState, unit_id: &str) -> Result<Event, BattleError> {
    not_over(state)?;
    let u = unit(state, unit_id)?;
    if u.status != UnitStatus::Hidden {
        return Err(BattleError::not_allowed(format!(
            "{} is not hidden",
            state.unit_label(u)
        )));
    }
    Ok(Event::Revealed {
        unit: unit_id.to_string(),
    })
}

/// A hand correction of a unit's Disruption Points (0 up to Cohesion − 1: reaching its
/// Cohesion disperses it, which [`disperse`] records with its morale roll).
///
/// # Errors
/// Out of range, or the unit is dispersed.
pub fn set_disruption(
    state: &BattleState,
    unit_id: &str,
    value: u32,
) -> Result<Event, BattleError> {
    not_over(state)?;
    let u = unit(state, unit_id)?;
    in_play(u)?;
    if value >= u.cohesion {
        return Err(BattleError::Invalid {
            field: "disruption",
            message: format!(
                "{value}: {} disperses at {}; record the dispersal instead",
                state.unit_label(u),
                u.cohesion
            ),
        });
    }
    Ok(Event::DisruptionSet {
        unit: unit_id.to_string(),
        value,
    })
}

/// Sets or clears a unit's suppression.
///
/// # Errors
/// Unknown or dispersed unit.
pub fn set_suppressed(
    state: &BattleState,
    unit_id: &str,
    suppressed: bool,
) -> Result<Event, BattleError> {
    not_over(state)?;
    in_play(unit(state, unit_id)?)?;
    Ok(Event::SuppressionSet {
        unit: unit_id.to_string(),
        suppressed,
    })
}

/// A mission called off (cancelled) or over (it has fired for effect).
///
/// # Errors
/// The battery has no mission.
pub fn end_mission(state: &BattleState, battery: &str, fired: bool) -> Result<Event, BattleError> {
    not_over(state)?;
    let b = unit(state, battery)?;
    if !state
        .side(b.side)
        .missions
        .iter()
        .any(|m| m.battery == battery)
    {
        return Err(BattleError::not_allowed(format!(
            "{} has no fire mission",
            state.unit_label(b)
        )));
    }
    let (side, battery) = (b.side, battery.to_string());
    Ok(if fired {
        Event::ArtilleryFired { side, battery }
    } else {
        Event::MissionCancelled { side, battery }
    })
}

/// Places or removes a unit's Fire Marker by hand.
///
/// # Errors
/// Unknown or dispersed unit.
pub fn set_fire_marker(
    state: &BattleState,
    unit_id: &str,
    marked: bool,
) -> Result<Event, BattleError> {
    not_over(state)?;
    in_play(unit(state, unit_id)?)?;
    Ok(Event::FireMarkerSet {
        unit: unit_id.to_string(),
        marked,
    })
}

/// Ends the current turn early (fire markers come off).
///
/// # Errors
/// No turn in progress.
pub fn end_turn(state: &BattleState) -> Result<Event, BattleError> {
    not_over(state)?;
    match state.phase {
        Phase::Pulse { .. } => Ok(Event::TurnEnded {}),
        _ => Err(BattleError::NothingTo("end: no turn is in progress")),
    }
}

/// Which side has units that can still be targeted (for pickers).
pub fn targets(state: &BattleState, side: Side) -> Vec<&UnitState> {
    state
        .units_of(side)
        .filter(|u| {
            matches!(u.status, UnitStatus::OnTable | UnitStatus::Hidden)
                && u.status != UnitStatus::OffTable
        })
        .collect()
}

/// Units of a side that can fire directly (on the table or hidden, not artillery).
pub fn shooters(state: &BattleState, side: Side) -> Vec<&UnitState> {
    targets(state, side)
        .into_iter()
        .filter(|u| armour_battles::unit_card(&u.card).is_some_and(|c| c.kind == UnitKind::Afv))
        .collect()
}
