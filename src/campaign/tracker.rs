//! Turning what the players do at the table into events, checked against the rules and the
//! current state first, so the log only ever holds things that could happen. Rolls are made
//! here (with the caller's seeded roller) and recorded in full in the event.

use super::definition::{ArmourBattlePlan, Sides};
use super::error::CampaignError;
use super::event::{
    ArtilleryCalled, Chain, ChainUse, CommandRolled, Event, FireEvent, FireKind, FireSetup,
    RallyEvent, WildUse,
};
use super::state::{BattleState, Breakdown, MissionStatus, Phase, UnitState, UnitStatus};
use crate::rules::armour_battles::artillery::{self, ArtillerySituation};
use crate::rules::armour_battles::command;
use crate::rules::armour_battles::fire::{self, FireSituation, MoveOrder};
use crate::rules::armour_battles::outcome::FireRoll;
use crate::rules::armour_battles::rally::{self, RallyRoll, RallySituation};
use crate::rules::armour_battles::reliability::{self, MoveResult};
use crate::rules::armour_battles::{self, Side, SpecialRule, UnitCard, UnitKind};
use crate::rules::dice::Roller;

/// Hidden units are revealed when an enemy ends a move this close (inches).
pub const REVEAL_DISTANCE_INCHES: u32 = 15;

fn not_over(state: &BattleState) -> Result<(), CampaignError> {
    match &state.outcome {
        Some(outcome) if state.is_over() => Err(CampaignError::BattleOver(outcome.reason.clone())),
        _ => Ok(()),
    }
}

fn unit<'a>(state: &'a BattleState, id: &str) -> Result<&'a UnitState, CampaignError> {
    state
        .unit(id)
        .ok_or_else(|| CampaignError::UnknownUnit(id.to_string()))
}

fn card(unit: &UnitState) -> Result<&'static UnitCard, CampaignError> {
    armour_battles::unit_card(&unit.card)
        .ok_or_else(|| CampaignError::MissingData(format!("card {}", unit.card)))
}

fn in_play(unit: &UnitState) -> Result<(), CampaignError> {
    match unit.status {
        UnitStatus::Dispersed { .. } => Err(CampaignError::not_allowed(format!(
            "{} has been dispersed",
            unit.label()
        ))),
        UnitStatus::LostEarlier => Err(CampaignError::not_allowed(format!(
            "{} was lost in an earlier battle",
            unit.label()
        ))),
        UnitStatus::Reserve { .. } => Err(CampaignError::not_allowed(format!(
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
    plan: &ArmourBattlePlan,
    state: &BattleState,
    roller: &mut Roller,
) -> Result<Event, CampaignError> {
    not_over(state)?;
    if let Phase::Pulse { side } = state.phase {
        return Err(CampaignError::not_allowed(format!(
            "turn {} is still being played ({} has the pulse); end the turn first",
            state.turn,
            side.label()
        )));
    }
    let turn = command::roll_command(
        state.sides.us.command_dice,
        state.sides.german.command_dice,
        plan.first_pulse,
        roller,
    )?;
    let chains = |s: &command::SideCommand| -> Vec<Chain> {
        s.chains
            .iter()
            .map(|c| Chain {
                face: c.face,
                dice: c.dice,
            })
            .collect()
    };
    Ok(Event::CommandRolled(CommandRolled {
        turn: state.turn + 1,
        seed: turn.seed,
        rounds: turn
            .rounds
            .iter()
            .map(|r| Sides {
                us: r.us.clone(),
                german: r.german.clone(),
            })
            .collect(),
        first_pulse: turn.first_pulse,
        turn_ends: turn.turn_ends,
        failed: Sides {
            us: turn.us.failed,
            german: turn.german.failed,
        },
        chains: Sides {
            us: chains(&turn.us),
            german: chains(&turn.german),
        },
        wild: Sides {
            us: turn.us.wild_dice(),
            german: turn.german.wild_dice(),
        },
    }))
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
) -> Result<Event, CampaignError> {
    not_over(state)?;
    if state.phase != (Phase::Pulse { side }) {
        return Err(CampaignError::not_allowed(format!(
            "it is not the {} Command Pulse",
            side.label()
        )));
    }
    if dice == 0 {
        return Err(CampaignError::Invalid {
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
        return Err(CampaignError::not_allowed(format!(
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
        return Err(CampaignError::not_allowed(
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

/// `side` spends wild dice outside a chain.
///
/// # Errors
/// Too few wild dice; instant Staff Orders need two or more.
pub fn use_wild(
    state: &BattleState,
    side: Side,
    dice: u32,
    spent_on: WildUse,
) -> Result<Event, CampaignError> {
    not_over(state)?;
    let have = state.side(side).wild;
    if dice == 0 || dice > have {
        return Err(CampaignError::not_allowed(format!(
            "{} has {have} wild dice: cannot use {dice}",
            side.label()
        )));
    }
    if spent_on == WildUse::InstantStaffOrders && dice < 2 {
        return Err(CampaignError::not_allowed(
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
) -> Result<Event, CampaignError> {
    not_over(state)?;
    need_staff_order(state, side)?;
    Ok(Event::StaffOrderUsed {
        side,
        purpose: purpose.trim().to_string(),
    })
}

fn need_staff_order(state: &BattleState, side: Side) -> Result<(), CampaignError> {
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
        return Err(CampaignError::not_allowed(format!(
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
) -> Result<Event, CampaignError> {
    not_over(state)?;
    let u = unit(state, battery)?;
    if u.status != UnitStatus::OffTable {
        return Err(CampaignError::not_allowed(format!(
            "{} is not off-table artillery",
            state.unit_label(u)
        )));
    }
    let side = u.side;
    let s = state.side(side);
    let dice = s.artillery_response_dice.ok_or_else(|| {
        CampaignError::not_allowed(format!(
            "the {} battle group has no Artillery Response Dice",
            side.label()
        ))
    })?;
    if s.missions.iter().any(|m| m.battery == battery) {
        return Err(CampaignError::not_allowed(format!(
            "{} already has a fire mission",
            state.unit_label(u)
        )));
    }
    need_staff_order(state, side)?;
    let seed = roller.seed();
    let response = artillery::roll_response(dice, armour_battles::artillery_rules()?, roller)?;
    Ok(Event::ArtilleryCalled(ArtilleryCalled {
        side,
        battery: battery.to_string(),
        seed,
        response: response.ours,
        opponent: response.theirs,
        fires_now: response.fires_now,
    }))
}

/// Keeps a mission cancelled by a Command Failure, for a Staff Order.
///
/// # Errors
/// No such cancelled mission, or no Staff Order.
pub fn maintain_mission(state: &BattleState, battery: &str) -> Result<Event, CampaignError> {
    not_over(state)?;
    let side = unit(state, battery)?.side;
    let cancelled = state
        .side(side)
        .missions
        .iter()
        .any(|m| m.battery == battery && m.status == MissionStatus::CancelledByFailure);
    if !cancelled {
        return Err(CampaignError::NothingTo("maintain"));
    }
    need_staff_order(state, side)?;
    Ok(Event::MissionMaintained {
        side,
        battery: battery.to_string(),
    })
}

/// Records a fire result rolled elsewhere (the Resolve view) against the battle, with the
/// situation it was rolled in.
///
/// # Errors
/// Unknown or dispersed units, a target in reserve, or a roll made with a different
/// Disruption count or suppression than the target has now.
pub fn fire_event(
    state: &BattleState,
    kind: FireKind,
    attacker: Option<&str>,
    target: &str,
    situation: FireSetup,
    roll: &FireRoll,
) -> Result<Event, CampaignError> {
    let t = unit(state, target)?;
    if situation.target_disruption != t.disruption || situation.target_suppressed != t.suppressed {
        return Err(CampaignError::not_allowed(format!(
            "the roll assumed {} Disruption Points on {}{} (it has {}{}): roll again from the battle",
            situation.target_disruption,
            t.label(),
            if situation.target_suppressed {
                ", suppressed"
            } else {
                ""
            },
            t.disruption,
            if t.suppressed { ", suppressed" } else { "" },
        )));
    }
    fire_event_as_recorded(state, kind, attacker, target, Some(situation), roll)
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
) -> Result<Event, CampaignError> {
    not_over(state)?;
    let t = unit(state, target)?;
    in_play(t)?;
    if t.status == UnitStatus::OffTable {
        return Err(CampaignError::not_allowed(format!(
            "{} is off-table and cannot be fired at",
            t.label()
        )));
    }
    let expected = (t.disruption + roll.result.new_disruption).min(t.cohesion);
    let agrees = roll.result.total_disruption == expected
        || (roll.result.dispersed && t.disruption + roll.result.new_disruption >= t.cohesion);
    if !agrees {
        return Err(CampaignError::not_allowed(format!(
            "the roll assumed a different number of Disruption Points on {} (it has {}): roll again from the battle",
            t.label(),
            t.disruption
        )));
    }
    if let Some(a) = attacker {
        let a = unit(state, a)?;
        in_play(a)?;
        if a.side == t.side {
            return Err(CampaignError::not_allowed(format!(
                "{} and {} are on the same side",
                a.label(),
                t.label()
            )));
        }
        if kind != FireKind::Artillery && a.fire_marker {
            return Err(CampaignError::not_allowed(format!(
                "{} has already fired this turn",
                a.label()
            )));
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
    }))
}

/// Rolls direct or opportunity fire between two units of the battle, taking the target's
/// Disruption and suppression from the table.
///
/// # Errors
/// As [`fire_event`] and [`fire::fire_pools`].
pub fn fire(
    state: &BattleState,
    attacker: &str,
    target: &str,
    situation: FireSituation,
    roller: &mut Roller,
) -> Result<Event, CampaignError> {
    let a = unit(state, attacker)?;
    let t = unit(state, target)?;
    in_play(t)?;
    let situation = FireSituation {
        target_disruption: t.disruption,
        target_suppressed: t.suppressed,
        ambush: situation.ambush || a.status == UnitStatus::Hidden,
        ..situation
    };
    let roll = fire::roll_fire(card(a)?, card(t)?, &situation, roller)?;
    let kind = match situation.mode {
        fire::FireMode::Direct => FireKind::Direct,
        fire::FireMode::Opportunity => FireKind::Opportunity,
    };
    let setup = FireSetup::of_fire(&situation);
    fire_event(state, kind, Some(attacker), target, setup, &roll)
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
) -> Result<Event, CampaignError> {
    let b = unit(state, battery)?;
    let ready = state
        .side(b.side)
        .missions
        .iter()
        .any(|m| m.battery == battery && m.status == MissionStatus::FiringNow);
    if !ready {
        return Err(CampaignError::not_allowed(format!(
            "{} has no fire mission ready to fire",
            b.label()
        )));
    }
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
    )
}

/// Records a rally rolled elsewhere.
///
/// # Errors
/// Unknown unit, or the roll assumed a different Disruption count.
pub fn rally_event(
    state: &BattleState,
    unit_id: &str,
    roll: &RallyRoll,
) -> Result<Event, CampaignError> {
    not_over(state)?;
    let u = unit(state, unit_id)?;
    in_play(u)?;
    if roll.removed + roll.remaining != u.disruption {
        return Err(CampaignError::not_allowed(format!(
            "the rally assumed {} Disruption Points on {} (it has {})",
            roll.removed + roll.remaining,
            state.unit_label(u),
            u.disruption
        )));
    }
    Ok(Event::Rally(RallyEvent {
        unit: unit_id.to_string(),
        seed: roll.seed,
        rally: roll.rally.clone(),
        opponent: roll.opponent.clone(),
        removed: roll.removed,
        remaining: roll.remaining,
    }))
}

/// Rolls a rally for a unit with its side's Rally Dice.
///
/// # Errors
/// As [`rally_event`] and [`rally::rally_pools`] (suppressed units cannot rally).
pub fn rally(
    state: &BattleState,
    unit_id: &str,
    situation: RallySituation,
    roller: &mut Roller,
) -> Result<Event, CampaignError> {
    let u = unit(state, unit_id)?;
    if u.disruption == 0 {
        return Err(CampaignError::not_allowed(format!(
            "{} has no Disruption Points to rally off",
            state.unit_label(u)
        )));
    }
    let situation = RallySituation {
        disruption: u.disruption,
        suppressed: u.suppressed,
        ..situation
    };
    let roll = rally::roll_rally(card(u)?, state.side(u.side).rally_dice, &situation, roller)?;
    rally_event(state, unit_id, &roll)
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
) -> Result<Event, CampaignError> {
    not_over(state)?;
    let u = unit(state, unit_id)?;
    if u.is_dispersed() {
        return Err(CampaignError::not_allowed(format!(
            "{} is already dispersed",
            state.unit_label(u)
        )));
    }
    let sides = armour_battles::fire_rules()?.result.army_morale_loss_die;
    let record = roller
        .roll("army_morale", u8::try_from(sides).unwrap_or(3), 1)
        .map_err(crate::rules::armour_battles::error::ResolveError::from)?;
    let loss = record.dice.iter().map(|&f| u32::from(f)).sum();
    Ok(Event::Dispersed {
        unit: unit_id.to_string(),
        morale: record,
        loss,
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
) -> Result<Event, CampaignError> {
    not_over(state)?;
    let u = unit(state, unit_id)?;
    in_play(u)?;
    let c = card(u)?;
    if !c.has(SpecialRule::PoorReliability) || order == MoveOrder::Single {
        return Err(CampaignError::not_allowed(format!(
            "{} makes no reliability check on a {}",
            state.unit_label(u),
            order.label()
        )));
    }
    if !u.can_move(state.turn) {
        return Err(CampaignError::not_allowed(format!(
            "{} cannot move this turn",
            state.unit_label(u)
        )));
    }
    let roll = reliability::roll_move(c, order, roller)?;
    Ok(Event::ReliabilityChecked {
        unit: unit_id.to_string(),
        broke_down: roll.result == MoveResult::BrokeDown,
        record: roll.record,
    })
}

/// Repairs a broken-down unit with a command die or a Staff Order, from the turn after the
/// breakdown.
///
/// # Errors
/// Not broken down, broken down this very turn, or no Staff Order.
pub fn repair(
    state: &BattleState,
    unit_id: &str,
    staff_order: bool,
) -> Result<Event, CampaignError> {
    not_over(state)?;
    let u = unit(state, unit_id)?;
    match u.breakdown {
        Breakdown::BrokenDown { turn } if turn < state.turn => {}
        Breakdown::BrokenDown { .. } => {
            return Err(CampaignError::not_allowed(format!(
                "{} broke down this turn: it can be repaired from next turn",
                state.unit_label(u)
            )));
        }
        _ => {
            return Err(CampaignError::not_allowed(format!(
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

/// Commits a reserve company.
///
/// # Errors
/// Before the company's turn, in a turn of Command Failure, or nothing in reserve.
pub fn commit_reserves(
    state: &BattleState,
    side: Side,
    company: &str,
) -> Result<Event, CampaignError> {
    not_over(state)?;
    let waiting: Vec<&UnitState> = state
        .units_of(side)
        .filter(|u| u.company == company && matches!(u.status, UnitStatus::Reserve { .. }))
        .collect();
    let Some(from_turn) = waiting
        .iter()
        .filter_map(|u| match u.status {
            UnitStatus::Reserve { from_turn } => Some(from_turn),
            _ => None,
        })
        .max()
    else {
        return Err(CampaignError::not_allowed(format!(
            "{company} has no units in reserve"
        )));
    };
    if state.turn < from_turn {
        return Err(CampaignError::not_allowed(format!(
            "{company} may be committed from turn {from_turn} (this is turn {})",
            state.turn
        )));
    }
    if state.side(side).failed {
        return Err(CampaignError::not_allowed(format!(
            "{} rolled a Command Failure this turn: no reserves may be committed",
            side.label()
        )));
    }
    Ok(Event::ReservesCommitted {
        side,
        company: company.to_string(),
    })
}

/// Places a hidden unit on the table (it fired, or an enemy ended a move within 15″).
///
/// # Errors
/// The unit is not hidden.
pub fn reveal(state: &BattleState, unit_id: &str) -> Result<Event, CampaignError> {
    not_over(state)?;
    let u = unit(state, unit_id)?;
    if u.status != UnitStatus::Hidden {
        return Err(CampaignError::not_allowed(format!(
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
) -> Result<Event, CampaignError> {
    not_over(state)?;
    let u = unit(state, unit_id)?;
    in_play(u)?;
    if value >= u.cohesion {
        return Err(CampaignError::Invalid {
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
) -> Result<Event, CampaignError> {
    not_over(state)?;
    in_play(unit(state, unit_id)?)?;
    Ok(Event::SuppressionSet {
        unit: unit_id.to_string(),
        suppressed,
    })
}

/// Ends the current turn early (fire markers come off).
///
/// # Errors
/// No turn in progress.
pub fn end_turn(state: &BattleState) -> Result<Event, CampaignError> {
    not_over(state)?;
    match state.phase {
        Phase::Pulse { .. } => Ok(Event::TurnEnded {}),
        _ => Err(CampaignError::NothingTo("end: no turn is in progress")),
    }
}

/// The players end the battle.
///
/// # Errors
/// Already over.
pub fn conclude(
    state: &BattleState,
    winner: Option<Side>,
    notes: &str,
) -> Result<Event, CampaignError> {
    not_over(state)?;
    Ok(Event::BattleConcluded {
        winner,
        notes: notes.trim().to_string(),
    })
}

/// The exact odds of the next command roll with both sides' command dice now, shown before
/// the dice are rolled.
///
/// # Errors
/// As [`command::command_odds`].
pub fn command_odds(
    plan: &ArmourBattlePlan,
    state: &BattleState,
) -> Result<command::CommandOdds, CampaignError> {
    Ok(command::command_odds(
        state.sides.us.command_dice,
        state.sides.german.command_dice,
        plan.first_pulse,
    )?)
}

/// The exact odds of [`rally`] with the unit's Disruption and suppression on the table.
///
/// # Errors
/// As [`rally`].
pub fn rally_odds(
    state: &BattleState,
    unit_id: &str,
    situation: RallySituation,
) -> Result<rally::RallyOdds, CampaignError> {
    let u = unit(state, unit_id)?;
    let situation = RallySituation {
        disruption: u.disruption,
        suppressed: u.suppressed,
        ..situation
    };
    Ok(rally::rally_odds(
        card(u)?,
        state.side(u.side).rally_dice,
        &situation,
    )?)
}

/// The exact odds of a move by `unit_id`, breakdown included.
///
/// # Errors
/// Unknown unit; off-table artillery has no move.
pub fn move_odds(
    state: &BattleState,
    unit_id: &str,
    order: MoveOrder,
) -> Result<reliability::MoveOdds, CampaignError> {
    Ok(reliability::move_odds(card(unit(state, unit_id)?)?, order)?)
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
