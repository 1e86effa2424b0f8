//! Re-deriving a recorded Armour Battles event: the same decision [`super::decide`] makes,
//! re-made from the dice and inputs the event carries, for the campaign's verification to
//! compare with what was recorded.
//!
//! What this proves: the event is one the table could have recorded at its place in the log —
//! allowed by the rules and the state, every die replaying from its seed and roll number, and
//! every outcome (Disruption, suppression, dispersal, Army Morale) following from those dice.
//! That the seed was not chosen is the campaign's check (the seed its place in the battle
//! gives), for events marked [`DiceFrom::Battle`].

use super::decide as tracker;
use super::event::{Event, FireEvent, FireKind, FireSetup, RallyEvent};
use super::state::{BattleState, MissionStatus};
use crate::rules::armour_battles::SideName;
use crate::rules::armour_battles::fire::{self, MoveOrder};
use crate::rules::armour_battles::outcome::{self, FireRoll, SuppressionRule};
use crate::rules::armour_battles::rally::RallyRoll;
use crate::rules::armour_battles::{self, Side};
use crate::rules::armour_battles::{artillery, revision};
use crate::rules::battle::{BattleError, DiceFrom};
use crate::rules::dice::{Pool, RollRecord, Roller, TableDice};
use crate::rules::text::note;

/// The event the tracker records for this action in `state`, rolled again from the recorded
/// seed and roll numbers, under the rules of `revision` (the one the event was recorded by:
/// see [`crate::rules::armour_battles::revision`]).
///
/// # Errors
/// The event could not have been recorded here: the message names what the rules refuse, or
/// ([`BattleError::Invalid`]) the field whose value the dice and the rules do not give.
pub fn rederive(state: &BattleState, event: &Event, revision: u32) -> Result<Event, BattleError> {
    if state.log.current && !current_form(event) {
        return Err(BattleError::Invalid {
            field: "dice",
            message: format!(
                "{} recorded the old way after events recorded under the current rules: only events from before may take their own seed or leave a cost unpaid",
                event.kind()
            ),
        });
    }
    // Revision 3 plays nothing between turns; what revisions 1 and 2 let through there still
    // replays under them.
    if revision::halts_between_turns(revision)
        && revision::HALTED_BETWEEN_TURNS.contains(&event.kind())
    {
        super::actions::between_turns(state)?;
    }
    // Seeded dice replay from the seed and the first roll's number; dice rolled at the table
    // are handed back, pool by pool, exactly as typed.
    let resume = |record: &RollRecord| roller_of(event, record.seed, record.index);
    let from = event.dice_from();
    match event {
        Event::CommandRolled(roll) => {
            let first = roll
                .rounds
                .first()
                .ok_or_else(|| BattleError::not_allowed("a command roll without dice"))?;
            tracker::roll_command(state, &mut resume(&first.first), from)
        }
        Event::ChainUsed {
            side,
            face,
            dice,
            spent_on,
        } => tracker::use_chain(state, *side, *face, *dice, *spent_on),
        Event::WildDiceUsed {
            side,
            dice,
            spent_on,
        } => tracker::use_wild(state, *side, *dice, *spent_on),
        Event::StaffOrderUsed { side, purpose } => {
            note(purpose).map_err(BattleError::not_allowed)?;
            tracker::use_staff_order(state, *side, purpose)
        }
        Event::ArtilleryCalled(call) => {
            tracker::call_artillery(state, &call.battery, &mut resume(&call.response), from)
        }
        Event::ArtilleryFired { side, battery } | Event::MissionCancelled { side, battery } => {
            let has_mission = state
                .side(*side)
                .missions
                .iter()
                .any(|m| &m.battery == battery);
            if has_mission {
                Ok(event.clone())
            } else {
                Err(BattleError::not_allowed(format!(
                    "{} has no fire mission for {}",
                    side.label(),
                    quoted(battery)
                )))
            }
        }
        Event::MissionMaintained { battery, .. } => tracker::maintain_mission(state, battery),
        Event::Fire(fire) => rederive_fire(state, fire, revision),
        Event::Rally(rally) => rederive_rally(state, rally),
        Event::Dispersed { unit, morale, .. } => {
            tracker::disperse(state, unit, &mut resume(morale), from)
        }
        Event::ReliabilityChecked { unit, record, .. } => {
            // The order (double or triple move) is not recorded; the dice count tells it.
            let mut tried = Err(BattleError::not_allowed("no move order fits the dice"));
            for order in [MoveOrder::Double, MoveOrder::Triple] {
                tried = tracker::check_reliability(state, unit, order, &mut resume(record), from);
                if tried.as_ref().is_ok_and(|e| e == event) {
                    break;
                }
            }
            tried
        }
        Event::Repaired { unit, staff_order } => tracker::repair(state, unit, *staff_order),
        Event::ReservesCommitted {
            side,
            company,
            chain,
        } => tracker::commit_reserves(state, *side, company, *chain),
        Event::Revealed { unit } => tracker::reveal(state, unit),
        Event::DisruptionSet { unit, value } => tracker::set_disruption(state, unit, *value),
        Event::SuppressionSet { unit, suppressed } => {
            tracker::set_suppressed(state, unit, *suppressed)
        }
        Event::FireMarkerSet { unit, .. } => state
            .unit(unit)
            .map(|_| event.clone())
            .ok_or_else(|| BattleError::UnknownUnit(unit.clone())),
        Event::TurnEnded {} => tracker::end_turn(state),
    }
}

/// Whether `event` has the form the current rules record: its dice not the recorder's choice,
/// a reserve's order die part of its commit, a chain never spent on reserves alone.
fn current_form(event: &Event) -> bool {
    match event {
        Event::ReservesCommitted { chain, .. } => chain.is_some(),
        Event::ChainUsed { spent_on, .. } => *spent_on != super::event::ChainUse::CommitReserves,
        other => other.rolls().is_empty() || other.dice_from().is_current(),
    }
}

/// Rolls the fire again from its recorded seed. With a recorded situation the pools are built
/// again from it, the two cards and the target as the table has it, so a die added or taken
/// away (even a missed last one) or a changed bonus no longer matches; a legacy event (no
/// situation: recorded before situations were) can only be rolled again with the pools its
/// dice show.
fn rederive_fire(
    state: &BattleState,
    fire: &FireEvent,
    revision: u32,
) -> Result<Event, BattleError> {
    // Every build that records situations records one for every fire, so a fire without one
    // after a fire with one was edited, not recorded before the change.
    if fire.situation.is_none() && state.log.situations {
        return Err(BattleError::Invalid {
            field: "situation",
            message: "missing: only fire recorded before situations were may lack one, and this battle already records them".into(),
        });
    }
    let target = state
        .unit(&fire.target)
        .ok_or_else(|| BattleError::UnknownUnit(fire.target.clone()))?;
    if fire.fire == FireKind::Artillery {
        let battery = fire.attacker.as_deref().unwrap_or_default();
        let ready = SIDES_BOTH.iter().any(|side| {
            state
                .side(*side)
                .missions
                .iter()
                .any(|m| m.battery == battery && m.status == MissionStatus::FiringNow)
        });
        if !ready {
            return Err(BattleError::not_allowed(format!(
                "{} has no fire mission ready to fire",
                quoted(battery)
            )));
        }
    }
    let event = Event::Fire(fire.clone());
    let roller = || roller_of(&event, fire.seed, fire.attack.index);
    let roll = match &fire.situation {
        Some(setup) => roll_from_situation(state, fire, setup, revision, &mut roller())?,
        None => roll_from_dice(fire, target, revision, &mut roller())?,
    };
    tracker::fire_event_as_recorded(
        state,
        fire.fire,
        fire.attacker.as_deref(),
        &fire.target,
        fire.situation,
        &roll,
        fire.dice_from,
    )
}

/// The fire rolled again with the pools its situation gives, after checking the situation
/// names the target as the table has it and the recorded pools are those pools.
fn roll_from_situation(
    state: &BattleState,
    fire: &FireEvent,
    setup: &FireSetup,
    revision: u32,
    roller: &mut Roller,
) -> Result<FireRoll, BattleError> {
    let target = state
        .unit(&fire.target)
        .ok_or_else(|| BattleError::UnknownUnit(fire.target.clone()))?;
    let invalid = |field: &'static str, message: String| BattleError::Invalid { field, message };
    if setup.target_disruption != target.disruption {
        return Err(invalid(
            "situation.target_disruption",
            format!(
                "{}: the target had {} Disruption Points",
                setup.target_disruption, target.disruption
            ),
        ));
    }
    if setup.target_suppressed != target.suppressed {
        return Err(invalid(
            "situation.target_suppressed",
            format!(
                "{}: the target was {}suppressed",
                setup.target_suppressed,
                if target.suppressed { "" } else { "not " }
            ),
        ));
    }
    let card_of = |id: &str| {
        let unit = state
            .unit(id)
            .ok_or_else(|| BattleError::UnknownUnit(id.to_string()))?;
        armour_battles::unit_card(&unit.card)
            .ok_or_else(|| BattleError::MissingData(format!("card {}", unit.card)))
    };
    let attacker = fire
        .attacker
        .as_deref()
        .ok_or_else(|| invalid("attacker", "a fire with a situation names its firer".into()))?;
    let (a, t) = (card_of(attacker)?, card_of(&fire.target)?);
    let rules = armour_battles::fire_rules()?;
    let (pools, rule) = match fire.fire {
        FireKind::Artillery => {
            let situation = setup.artillery_situation().ok_or_else(|| {
                invalid(
                    "situation",
                    "sets a range, flank, uphill, move, ambush or evasion artillery does not use"
                        .into(),
                )
            })?;
            let pools = artillery::artillery_pools(
                a,
                t,
                &situation,
                rules,
                armour_battles::artillery_rules()?,
            )?;
            (pools, SuppressionRule::NotMoreSixes)
        }
        FireKind::Direct | FireKind::Opportunity => {
            let situation = setup.fire_situation(fire.fire);
            (
                fire::fire_pools(a, t, &situation, rules)?,
                SuppressionRule::FewerSixes,
            )
        }
    };
    let recorded = |r: Option<&RollRecord>| r.map_or(0, |r| r.dice.len());
    let checks = [
        (
            "attack.dice",
            recorded(Some(&fire.attack)),
            pools.attack.dice as usize,
            "attack dice",
        ),
        // No reaction is rolled when the attack scores nothing; whether one was due is for
        // the roll itself to say (below), so only a recorded reaction's size is checked here.
        (
            "reaction.dice",
            recorded(fire.reaction.as_ref()),
            fire.reaction
                .as_ref()
                .map_or(0, |_| pools.reaction.dice as usize),
            "reaction dice",
        ),
    ];
    for (field, got, want, what) in checks {
        if got != want {
            return Err(invalid(
                field,
                format!("{got} {what} recorded, but the situation and the cards give {want}"),
            ));
        }
    }
    for (field, got, want) in [
        ("attacker_tn", fire.attacker_tn, pools.attack.target),
        ("reaction_tn", fire.reaction_tn, pools.reaction.target),
    ] {
        if got != want {
            return Err(invalid(
                field,
                format!("{got}+ recorded, but the situation and the cards give {want}+"),
            ));
        }
    }
    roll(pools.attack, pools.reaction, rule, target, revision, roller)
}

/// The fire rolled from `roller` with these pools against `target` as the table has it, under
/// the rules of `revision`.
fn roll(
    attack: Pool,
    reaction: Pool,
    rule: SuppressionRule,
    target: &super::state::UnitState,
    revision: u32,
    roller: &mut Roller,
) -> Result<FireRoll, BattleError> {
    let rules = armour_battles::fire_rules()?;
    Ok(outcome::roll_result(
        attack,
        reaction,
        rule,
        target.disruption,
        target.cohesion,
        &rules.result,
        revision,
        roller,
    )?)
}

/// A legacy fire (no situation recorded) rolled again with the pools its dice show.
fn roll_from_dice(
    fire: &FireEvent,
    target: &super::state::UnitState,
    revision: u32,
    roller: &mut Roller,
) -> Result<FireRoll, BattleError> {
    for (field, tn) in [
        ("attacker_tn", fire.attacker_tn),
        ("reaction_tn", fire.reaction_tn),
    ] {
        if !(2..=6).contains(&tn) {
            return Err(BattleError::Invalid {
                field: if field == "attacker_tn" {
                    "attacker_tn"
                } else {
                    "reaction_tn"
                },
                message: format!("{tn}: target numbers run from 2+ to 6+"),
            });
        }
    }
    let count = |record: Option<&RollRecord>| {
        record.map_or(0, |r| u32::try_from(r.dice.len()).unwrap_or(u32::MAX))
    };
    let rule = match fire.fire {
        FireKind::Artillery => SuppressionRule::NotMoreSixes,
        FireKind::Direct | FireKind::Opportunity => SuppressionRule::FewerSixes,
    };
    roll(
        Pool::new(count(Some(&fire.attack)), fire.attacker_tn),
        Pool::new(count(fire.reaction.as_ref()), fire.reaction_tn),
        rule,
        target,
        revision,
        roller,
    )
}

const SIDES_BOTH: [Side; 2] = [Side::First, Side::Second];

/// Replays the rally's two rolls and checks the points removed follow from them for some
/// Rally Table target number (the distance is not recorded).
fn rederive_rally(state: &BattleState, rally: &RallyEvent) -> Result<Event, BattleError> {
    let unit = state
        .unit(&rally.unit)
        .ok_or_else(|| BattleError::UnknownUnit(rally.unit.clone()))?;
    if unit.suppressed {
        return Err(BattleError::not_allowed(format!(
            "{} is suppressed and cannot rally",
            state.unit_label(unit)
        )));
    }
    let table = armour_battles::rally_table()?;
    let bonus_dice = |bonus: super::event::Extra| {
        i64::from(table.wild_die_dice.max(0)) * i64::from(bonus.wild_die)
            + i64::from(table.staff_order_dice.max(0)) * i64::from(bonus.staff_order)
    };
    // Cover and line of sight are not recorded; the bonus is under the current rules (an old
    // rally may have added either die unrecorded).
    let paid = if rally.dice_from.is_current() {
        rally.bonus
    } else {
        super::event::Extra {
            wild_die: true,
            staff_order: true,
        }
    };
    let base = i64::from(state.side(unit.side).rally_dice);
    let least = if rally.dice_from.is_current() {
        base + bonus_dice(paid)
    } else {
        1
    };
    let most = base
        + i64::from(table.cover_dice.max(0))
        + i64::from(table.no_line_of_sight_dice.max(0))
        + bonus_dice(paid);
    let dice = i64::try_from(rally.rally.dice.len()).unwrap_or(i64::MAX);
    if dice < least.max(1) || dice > most {
        return Err(BattleError::Invalid {
            field: "rally.dice",
            message: format!(
                "{dice} rally dice: this side rolls {} to {most}",
                least.max(1)
            ),
        });
    }
    let mut roller = roller_of(&Event::Rally(rally.clone()), rally.seed, rally.rally.index);
    let again = roller.roll_d6("rally", u32::try_from(dice).unwrap_or(u32::MAX))?;
    let opponent = roller.roll_d6("opponent", unit.disruption)?;
    let theirs = opponent.successes(table.opponent_tn);
    let fits = |tn: i32| {
        again
            .successes(tn)
            .saturating_sub(theirs)
            .min(unit.disruption)
            == rally.removed
    };
    if !(2..=6).any(fits) {
        return Err(BattleError::Invalid {
            field: "removed",
            message: format!(
                "{}: no Rally Table target number gives that from these dice",
                rally.removed
            ),
        });
    }
    let removed = rally.removed.min(unit.disruption);
    let roll = RallyRoll {
        seed: rally.seed,
        rally_tn: 0,
        opponent_tn: table.opponent_tn,
        rally: again,
        opponent,
        rally_successes: 0,
        opponent_successes: theirs,
        removed,
        remaining: unit.disruption - removed,
    };
    tracker::rally_event(state, &rally.unit, &roll, rally.bonus, rally.dice_from)
}

/// The roller that gives `event`'s dice again: from `seed` at roll number `index` (its first
/// roll's), or, for dice rolled at the table, the recorded faces under the pool names the
/// rules ask them by.
fn roller_of(event: &Event, seed: u64, index: u64) -> Roller {
    if event.dice_from() == DiceFrom::Table {
        Roller::table(table_dice(event))
    } else {
        Roller::resume(seed, index)
    }
}

/// The faces an event rolled at the table, by the pools the rules ask for them in.
fn table_dice(event: &Event) -> TableDice {
    let mut dice = TableDice::new();
    let mut add = |pool: &str, record: Option<&RollRecord>| {
        if let Some(record) = record {
            dice.add(pool, record.dice.clone());
        }
    };
    match event {
        Event::CommandRolled(c) => {
            for round in &c.rounds {
                add("us", Some(&round.first));
                add("german", Some(&round.second));
            }
        }
        Event::ArtilleryCalled(a) => {
            add("response", Some(&a.response));
            add("opponent_response", Some(&a.opponent));
        }
        Event::Fire(f) => {
            add("attack", Some(&f.attack));
            add("reaction", f.reaction.as_ref());
            add("forced_back", f.forced_back.as_ref());
            add("army_morale", f.morale.as_ref());
        }
        Event::Rally(r) => {
            add("rally", Some(&r.rally));
            add("opponent", Some(&r.opponent));
        }
        Event::Dispersed { morale, .. } => add("army_morale", Some(morale)),
        Event::ReliabilityChecked { record, .. } => add("move", Some(record)),
        _ => {}
    }
    dice
}

/// A name shown in a message, quoted and cut to a readable length.
fn quoted(name: &str) -> String {
    let text = serde_json::Value::String(name.to_string()).to_string();
    if text.chars().count() > 80 {
        format!("{}…", text.chars().take(79).collect::<String>())
    } else {
        text
    }
}
