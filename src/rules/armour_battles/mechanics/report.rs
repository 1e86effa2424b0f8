//! Armour Battles answers as reports: the numbers of `fire`, `artillery`, `rally`, `command`
//! and `reliability`, labelled once for every front end.

use crate::rules::armour_battles::SideName;
use crate::rules::dice::{RollRecord, Roller};

use crate::rules::resolution::{Distribution, Inputs, Outcome, Report, ResolveError, Value};
use crate::rules::words::{amount, plural};

use super::super::artillery::{self, ArtilleryRoll};
use super::super::command::{self, PulseOutcome, SideCommand};
use super::super::fire::{self, FireMode, FireOdds, Modified, Modifier};
use super::super::outcome::{self, FireRoll};
use super::super::rally;
use super::super::reliability::{self, MoveResult};
use super::super::{FireKind, FirstPulse, Side, SpecialRule};
use super::{
    ID, direct_fire, first_pulse, is_artillery, mission, move_order, rally, refused, unit,
};

fn modifier_text(m: &Modifier) -> String {
    if m.change == 0 {
        return m.label.clone();
    }
    let unit = match m.modifies {
        Modified::AttackerTn | Modified::ReactionTn => " TN",
        _ => "D",
    };
    let sign = if m.change > 0 { "+" } else { "−" };
    format!("{} {sign}{}{unit}", m.label, m.change.unsigned_abs())
}

fn modifiers_note(r: &mut Report, modifiers: &[Modifier]) {
    if !modifiers.is_empty() {
        let list: Vec<String> = modifiers.iter().map(modifier_text).collect();
        r.note(format!("Modifiers: {}.", list.join("; ")));
    }
}

/// The pools, the fire result odds and the readings they rest on.
fn fire_values(r: &mut Report, odds: &FireOdds) {
    r.house_defaults.extend(odds.house_defaults.iter().copied());
    r.count("attacker_dice", "Attacker dice", odds.attacker_dice);
    r.value(
        "attacker_tn",
        "Attacker TN",
        Value::Target(i64::from(odds.attacker_tn)),
    );
    r.count("reaction_dice", "Reaction dice", odds.reaction_dice);
    r.value(
        "reaction_tn",
        "Reaction TN",
        Value::Target(i64::from(odds.reaction_tn)),
    );
    r.count(
        "card_attacker_dice",
        "Attacker dice on the card",
        odds.card_attacker_dice,
    );
    r.count(
        "card_reaction_dice",
        "Reaction dice on the card",
        odds.card_reaction_dice,
    );
    let result = &odds.result;
    r.value(
        "disruption",
        "New Disruption Points 0 / 1 / 2 / 3+",
        Value::Probabilities(result.disruption.to_vec()),
    );
    r.chance("p_suppressed", "P(suppressed)", result.p_suppressed);
    r.chance("p_forced_back", "P(forced back)", result.p_forced_back);
    r.chance("p_dispersed", "P(dispersed)", result.p_dispersed);
    r.count(
        "existing_disruption",
        "Disruption Points before",
        result.existing_disruption,
    );
    r.count("cohesion", "Cohesion", result.cohesion);
    r.dist(Distribution {
        key: "new_disruption".into(),
        label: "New Disruption Points".into(),
        total: result.total,
        outcomes: result
            .disruption_weights
            .iter()
            .enumerate()
            .map(|(n, &weight)| Outcome {
                label: if n == 3 { "3+".into() } else { n.to_string() },
                value: Some(n as i64),
                weight,
            })
            .collect(),
        counts: true,
        house_default: false,
        estimate: false,
    });
    r.note(format!("Suppression: {}.", odds.suppression.describe()));
    match &result.forced_back_inches {
        Some(d) => {
            r.dist(Distribution::counts(
                "forced_back_inches",
                "Forced back",
                d,
                |n| format!("{n}″"),
            ));
            r.note(format!(
                "Forced back {}–{}″, average {:.1}″ (6″ + 1D″ per unmatched 6).",
                d.lowest(),
                d.highest(),
                d.expectation(|&x| f64::from(x))
            ));
        }
        None => r.note("Forced back cannot happen."),
    }
    r.dist(Distribution::counts(
        "army_morale_loss",
        "Army Morale lost",
        &result.army_morale_loss,
        |n| n.to_string(),
    ));
    r.note(format!(
        "Dispersed at {} Disruption Points ({} now); the side then loses 1D3 Army Morale.",
        result.cohesion, result.existing_disruption
    ));
    modifiers_note(r, &odds.modifiers);
}

fn mode_key(mode: FireMode) -> &'static str {
    match mode {
        FireMode::Direct => "direct_fire",
        FireMode::Opportunity => "opportunity_fire",
    }
}

/// Odds of the fire the inputs describe (direct, opportunity, or an artillery mission).
pub(super) fn fire_odds(inputs: &Inputs) -> Result<Report, ResolveError> {
    let wrong = refused("target_disruption");
    if is_artillery(inputs)? {
        let m = mission(inputs)?;
        let odds = artillery::artillery_odds(m.battery, m.target, &m.situation, m.response_dice)
            .map_err(&wrong)?;
        let mut r = Report::new(
            ID,
            "artillery",
            format!(
                "{} fires a mission at {}",
                inputs.label_of("battery"),
                inputs.label_of("target")
            ),
        );
        let (resp, dev) = (&odds.response, &odds.deviation);
        r.chance(
            "p_fires_now",
            format!(
                "P(fires at once: {}D at {}+ against {}D at {}+)",
                resp.response_dice, resp.response_tn, resp.opponent_dice, resp.opponent_tn
            ),
            resp.p_fires_now,
        );
        r.chance("p_on_target", "P(lands on target)", dev.p_on_target);
        r.chance(
            "p_within_burst",
            format!("P(within the {}″ burst)", dev.burst_inches),
            dev.p_within_burst,
        );
        r.note(
            "Otherwise the mission fires in the next Logistics Phase; off target it scatters 1D″.",
        );
        r.note("The fire for effect below is against the target if it is under the burst.");
        fire_values(&mut r, &odds.attack);
        return Ok(r);
    }
    let shot = direct_fire(inputs)?;
    let odds = fire::fire_odds(shot.attacker, shot.target, &shot.situation).map_err(&wrong)?;
    let mode = shot.situation.mode;
    let side = match odds.fire_kind {
        FireKind::DirectFlank => "flank/rear",
        _ => "front",
    };
    let mut r = Report::new(
        ID,
        mode_key(mode),
        format!(
            "{} fires at {} — {}, {side}",
            inputs.label_of("attacker"),
            inputs.label_of("target"),
            mode_key(mode).replace('_', " ")
        ),
    );
    if let Some(note) = shot.note {
        r.note(note);
    }
    fire_values(&mut r, &odds);
    Ok(r)
}

/// The dice of a direct or opportunity fire action as the report shows them: the campaign
/// tracker records exactly this roll.
///
/// # Errors
/// As the fire mechanic; [`ResolveError::Invalid`] for an artillery mission (fired from the
/// campaign's artillery panel).
pub fn fire_roll(
    inputs: &Inputs,
    roller: &mut Roller,
) -> Result<(FireMode, FireRoll), ResolveError> {
    if is_artillery(inputs)? {
        return Err(ResolveError::invalid(
            "kind",
            "an artillery mission is recorded from the campaign's artillery panel",
        ));
    }
    let shot = direct_fire(inputs)?;
    let roll = fire::roll_fire(shot.attacker, shot.target, &shot.situation, roller)
        .map_err(refused("target_disruption"))?;
    Ok((shot.situation.mode, roll))
}

fn pool_purpose(what: &str, tn: i32, record: &RollRecord) -> String {
    let successes = record.successes(tn);
    format!(
        "{what} ({tn}+: {}, {} × 6)",
        plural(u64::from(successes), "success", "successes"),
        record.count(6)
    )
}

/// The dice and result of one fire action.
fn fire_roll_values(r: &mut Report, roll: &FireRoll, existing: u32) {
    r.dice(
        pool_purpose("attack", roll.attacker_tn, &roll.attack),
        &roll.attack,
    );
    match &roll.reaction {
        Some(reaction) => r.dice(
            pool_purpose("reaction", roll.reaction_tn, reaction),
            reaction,
        ),
        None => r.note("No Reaction Check: the attacker scored no success."),
    }
    if let Some(forced) = &roll.forced_back_roll {
        r.dice("forced back", forced);
    }
    if let Some(morale) = &roll.morale_roll {
        r.dice("Army Morale", morale);
    }
    let res = &roll.result;
    r.count(
        "new_disruption",
        "New Disruption Points",
        res.new_disruption,
    );
    r.count(
        "total_disruption",
        "Disruption Points now",
        res.total_disruption,
    );
    r.value("suppressed", "Suppressed", Value::Flag(res.suppressed));
    r.value("dispersed", "Dispersed", Value::Flag(res.dispersed));
    if let Some(inches) = res.forced_back_inches {
        r.count("forced_back_inches", "Forced back (inches)", inches);
    }
    if let Some(loss) = res.army_morale_loss {
        r.count("army_morale_loss", "Army Morale lost", loss);
    }
    let mut line = format!(
        "{} against {}: {} ({existing} → {})",
        plural(
            u64::from(roll.attack_outcome.successes),
            "success",
            "successes"
        ),
        roll.reaction_outcome.successes,
        amount(u64::from(res.new_disruption), "new Disruption Points"),
        res.total_disruption
    );
    if res.suppressed {
        line.push_str(", suppressed");
    }
    r.result(line);
    if let Some(inches) = res.forced_back_inches {
        r.result(format!("forced back {inches}″"));
    }
    if res.dispersed {
        r.result(match res.army_morale_loss {
            Some(loss) => format!(
                "dispersed: the side loses {}",
                amount(u64::from(loss), "Army Morale Points")
            ),
            None => "dispersed".to_string(),
        });
    }
}

/// A fire action rolled with `seed`, as a report.
pub(super) fn fire_roll_report(
    inputs: &Inputs,
    roller: &mut Roller,
) -> Result<Report, ResolveError> {
    let existing = inputs.count_u32("target_disruption");
    if is_artillery(inputs)? {
        let m = mission(inputs)?;
        let roll =
            artillery::roll_artillery(m.battery, m.target, &m.situation, m.response_dice, roller)
                .map_err(refused("target_disruption"))?;
        let mut r = Report::new(
            ID,
            "artillery",
            format!(
                "{} shells {}",
                inputs.label_of("battery"),
                inputs.label_of("target")
            ),
        );
        r.house_defaults = vec![outcome::FORCED_BACK_RULING];
        artillery_roll_values(&mut r, &roll);
        fire_roll_values(&mut r, &roll.attack, existing);
        return Ok(r);
    }
    let (mode, roll) = fire_roll(inputs, roller)?;
    Ok(fire_report(inputs, mode, &roll))
}

/// The report of a direct or opportunity fire action's roll (the one [`fire_roll`] gives).
pub fn fire_report(inputs: &Inputs, mode: FireMode, roll: &FireRoll) -> Report {
    let mut r = Report::new(
        ID,
        mode_key(mode),
        format!(
            "{} fires at {}",
            inputs.label_of("attacker"),
            inputs.label_of("target")
        ),
    );
    r.house_defaults = vec![
        outcome::DIRECT_SUPPRESSION_RULING,
        outcome::FORCED_BACK_RULING,
    ];
    fire_roll_values(&mut r, roll, inputs.count_u32("target_disruption"));
    r
}

/// The exact odds of an artillery mission's fire for effect alone: the burst on one unit once
/// the mission fires (a campaign battle calls the mission and checks its response first).
///
/// # Errors
/// As the fire mechanic.
pub fn burst_odds(inputs: &Inputs) -> Result<Report, ResolveError> {
    let m = mission(inputs)?;
    let odds = artillery::artillery_odds(m.battery, m.target, &m.situation, m.response_dice)
        .map_err(refused("target_disruption"))?;
    let mut r = Report::new(ID, "artillery", burst_title(inputs));
    fire_values(&mut r, &odds.attack);
    Ok(r)
}

/// An artillery mission's fire for effect on one unit under the burst, its dice from `roller`.
///
/// # Errors
/// As the fire mechanic.
pub fn burst_roll(inputs: &Inputs, roller: &mut Roller) -> Result<FireRoll, ResolveError> {
    let m = mission(inputs)?;
    artillery::roll_artillery_fire(
        m.battery,
        m.target,
        &m.situation,
        super::super::fire_rules()?,
        super::super::artillery_rules()?,
        roller,
    )
    .map_err(refused("target_disruption"))
}

/// The report of a fire for effect ([`burst_roll`]'s dice).
pub fn burst_report(inputs: &Inputs, roll: &FireRoll) -> Report {
    let mut r = Report::new(ID, "artillery", burst_title(inputs));
    r.house_defaults = vec![outcome::FORCED_BACK_RULING];
    fire_roll_values(&mut r, roll, inputs.count_u32("target_disruption"));
    r
}

fn burst_title(inputs: &Inputs) -> String {
    format!(
        "{} fires for effect on {}",
        inputs.label_of("battery"),
        inputs.label_of("target")
    )
}

fn artillery_roll_values(r: &mut Report, roll: &ArtilleryRoll) {
    let (resp, dev) = (&roll.response, &roll.deviation);
    r.dice(
        format!(
            "response ({})",
            plural(u64::from(resp.successes), "success", "successes")
        ),
        &resp.ours,
    );
    r.dice(
        format!(
            "opponent response ({})",
            plural(u64::from(resp.opponent_successes), "success", "successes")
        ),
        &resp.theirs,
    );
    r.dice("hit + scatter", &dev.record);
    r.value("fires_now", "Fires at once", Value::Flag(resp.fires_now));
    r.value("on_target", "On target", Value::Flag(dev.on_target));
    r.count("deviation_inches", "Deviation (inches)", dev.inches);
    r.result(if resp.fires_now {
        "fires at once"
    } else {
        "fires in the next Logistics Phase"
    });
    r.result(if dev.on_target {
        "on target".to_string()
    } else if dev.within_burst {
        format!("scatters {}″ — still within the burst", dev.inches)
    } else {
        format!(
            "scatters {}″ — check whether the target is still under the burst",
            dev.inches
        )
    });
}

// ---------------------------------------------------------------------------------------
// Rally

pub(super) fn rally_odds(inputs: &Inputs) -> Result<Report, ResolveError> {
    let (unit, dice, situation) = rally(inputs)?;
    let odds = rally::rally_odds(unit, dice, &situation).map_err(refused("disruption"))?;
    let mut r = Report::new(
        ID,
        "rally",
        format!(
            "{} rallies with {}",
            inputs.label_of("unit"),
            amount(u64::from(odds.disruption), "Disruption Points")
        ),
    );
    r.house_defaults = odds.house_defaults.clone();
    r.count(
        "rally_dice",
        format!("Rally dice (battle group {}D)", odds.base_dice),
        odds.rally_dice,
    );
    r.value(
        "rally_tn",
        "Rally TN",
        Value::Target(i64::from(odds.rally_tn)),
    );
    r.count(
        "opponent_dice",
        "Opponent dice (one per point)",
        odds.opponent_dice,
    );
    r.value(
        "opponent_tn",
        "Opponent TN",
        Value::Target(i64::from(odds.opponent_tn)),
    );
    r.count(
        "base_rally_dice",
        "Battle group's rally dice",
        odds.base_dice,
    );
    if let Some(row) = rally_row(situation.distance_inches) {
        r.value("rally_table_row", "Rally Table row", Value::Text(row));
        r.mark("rally_table_row");
    }
    r.dist(Distribution::counts(
        "removed",
        "Disruption Points removed",
        &odds.removed,
        |n| n.to_string(),
    ));
    modifiers_note(&mut r, &odds.modifiers);
    Ok(r)
}

/// The Rally Table row a unit `distance` inches from the closest enemy rallies by:
/// "over 6″ up to 12″: 5+ (10″ away)".
fn rally_row(distance: f64) -> Option<String> {
    let table = super::super::rally_table().ok()?;
    let row = table.row_at(distance)?;
    let from = row
        .checked_sub(1)
        .and_then(|i| table.bands.get(i))
        .and_then(|b| b.up_to_inches);
    let band = table.bands.get(row)?;
    let range = match (from, band.up_to_inches) {
        (None, Some(to)) => format!("up to {to}″"),
        (Some(from), Some(to)) => format!("over {from}″ up to {to}″"),
        (Some(from), None) => format!("over {from}″"),
        (None, None) => "any distance".to_string(),
    };
    Some(format!("{range}: {}+ ({distance}″ away)", band.tn))
}

pub(super) fn rally_roll(inputs: &Inputs, roller: &mut Roller) -> Result<Report, ResolveError> {
    Ok(rally_report(inputs, &rally_dice(inputs, roller)?))
}

/// A rally, its dice from `roller` (the dice [`rally_report`] words).
///
/// # Errors
/// As the rally mechanic.
pub fn rally_dice(inputs: &Inputs, roller: &mut Roller) -> Result<rally::RallyRoll, ResolveError> {
    let (unit, dice, situation) = rally(inputs)?;
    rally::roll_rally(unit, dice, &situation, roller).map_err(refused("disruption"))
}

/// The report of a rally's roll.
pub fn rally_report(inputs: &Inputs, roll: &rally::RallyRoll) -> Report {
    let mut r = Report::new(ID, "rally", format!("{} rallies", inputs.label_of("unit")));
    r.house_defaults = vec![rally::RALLY_TN_RULING, rally::REMOVED_RULING];
    r.dice(
        pool_purpose("rally", roll.rally_tn, &roll.rally),
        &roll.rally,
    );
    r.dice(
        pool_purpose("opponent", roll.opponent_tn, &roll.opponent),
        &roll.opponent,
    );
    r.count("removed", "Disruption Points removed", roll.removed);
    r.count("remaining", "Disruption Points left", roll.remaining);
    r.result(format!(
        "{} removed, {} left",
        amount(u64::from(roll.removed), "Disruption Points"),
        roll.remaining
    ));
    r
}

// ---------------------------------------------------------------------------------------
// Command dice

fn pulse_label(outcome: &PulseOutcome) -> String {
    match outcome {
        PulseOutcome::UsFirst => "US first",
        PulseOutcome::GermanFirst => "German first",
        PulseOutcome::TurnEnds => "turn ends",
        PulseOutcome::Reroll => "full tie: reroll",
    }
    .to_string()
}

pub(super) fn command_odds(inputs: &Inputs) -> Result<Report, ResolveError> {
    let (battle, rule) = first_pulse(inputs)?;
    let (us, german) = (inputs.count_u32("us_dice"), inputs.count_u32("german_dice"));
    let mut r = Report::new(
        ID,
        "command_dice",
        format!("Command dice, Battle {battle}: US {us}D, German {german}D"),
    );
    r.note(format!("First pulse: {}.", rule.label()));
    let limit = command::MAX_EXACT_COMMAND_DICE;
    if us > limit || german > limit {
        // Command Failure alone stays exact far past the first-pulse limit.
        let wrong = refused("disruption");
        let (us_failure, german_failure) = (
            command::command_failure_odds(us).map_err(&wrong)?,
            command::command_failure_odds(german).map_err(&wrong)?,
        );
        r.chance("p_us_failure", "P(US Command Failure)", us_failure.p());
        r.chance(
            "p_german_failure",
            "P(German Command Failure)",
            german_failure.p(),
        );
        r.chance(
            "p_both_fail",
            "P(both fail: the turn ends), per roll",
            us_failure.p() * german_failure.p(),
        );
        r.note(format!(
            "Exact first-pulse odds handle at most {limit} dice a side: only Command Failure is shown."
        ));
        return Ok(r);
    }
    let odds = command::command_odds(us, german, rule).map_err(refused("disruption"))?;
    r.chance("p_us_failure", "P(US Command Failure)", odds.us_failure.p());
    r.chance(
        "p_german_failure",
        "P(German Command Failure)",
        odds.german_failure.p(),
    );
    r.chance(
        "p_both_fail",
        "P(both fail: the turn ends), per roll",
        odds.both_fail.p(),
    );
    if rule == FirstPulse::Roll {
        r.chance("p_reroll", "P(full tie: reroll), per roll", odds.p_reroll());
    }
    r.chance(
        "p_us_first",
        "P(US first pulse), after any rerolls",
        odds.p_us_first(),
    );
    r.chance(
        "p_german_first",
        "P(German first pulse), after any rerolls",
        odds.p_german_first(),
    );
    r.chance(
        "p_turn_ends",
        "P(turn ends at once), after any rerolls",
        odds.p_turn_ends(),
    );
    r.dist(Distribution::new(
        "first_pulse",
        "First pulse",
        &odds.first_pulse,
        pulse_label,
    ));
    Ok(r)
}

fn side_line(side: &SideCommand) -> String {
    format!("{}: {}", side.side.label(), side.summary())
}

pub(super) fn command_roll(inputs: &Inputs, roller: &mut Roller) -> Result<Report, ResolveError> {
    command_report(inputs, &command_dice(inputs, roller)?)
}

/// Both sides' command dice for a turn, from `roller` (the dice [`command_report`] words).
///
/// # Errors
/// As the command dice mechanic.
pub fn command_dice(
    inputs: &Inputs,
    roller: &mut Roller,
) -> Result<command::CommandTurn, ResolveError> {
    let (_, rule) = first_pulse(inputs)?;
    let (us, german) = (inputs.count_u32("us_dice"), inputs.count_u32("german_dice"));
    command::roll_command(us, german, rule, roller).map_err(refused("disruption"))
}

/// The report of a turn's command roll.
///
/// # Errors
/// As the command dice mechanic.
pub fn command_report(
    inputs: &Inputs,
    turn: &command::CommandTurn,
) -> Result<Report, ResolveError> {
    let (battle, _) = first_pulse(inputs)?;
    let mut r = Report::new(ID, "command_dice", format!("Command dice, Battle {battle}"));
    let rolls = turn.rounds.len();
    for (i, round) in turn.rounds.iter().enumerate() {
        let tie = if i + 1 < rolls { ", full tie" } else { "" };
        let which = if rolls > 1 {
            format!(" (roll {}{tie})", i + 1)
        } else {
            String::new()
        };
        r.dice(format!("US{which}"), &round.first);
        r.dice(format!("German{which}"), &round.second);
    }
    let first = match turn.first_pulse {
        Some(Side::First) => "US",
        Some(Side::Second) => "German",
        None => "none",
    };
    r.value("first_pulse", "First pulse", Value::Text(first.to_string()));
    r.value("turn_ends", "Turn ends", Value::Flag(turn.turn_ends));
    r.result(side_line(&turn.first));
    r.result(side_line(&turn.second));
    r.result(match turn.first_pulse {
        Some(side) => format!("first pulse: {}", side.label()),
        None => "both sides failed: the turn ends at once".to_string(),
    });
    Ok(r)
}

// ---------------------------------------------------------------------------------------
// Moves and Poor Reliability

fn move_label(result: &MoveResult) -> String {
    match result {
        MoveResult::BrokeDown => "breaks down".to_string(),
        MoveResult::Moved(inches) => format!("{inches}″"),
    }
}

pub(super) fn move_odds(inputs: &Inputs) -> Result<Report, ResolveError> {
    let unit = unit(inputs, "unit", "moving unit")?;
    let order = move_order(inputs)?;
    let odds = reliability::move_odds(unit, order).map_err(refused("disruption"))?;
    let mut r = Report::new(
        ID,
        "move",
        format!(
            "{} makes a {} ({} variable dice)",
            inputs.label_of("unit"),
            order.label(),
            odds.dice
        ),
    );
    r.house_defaults = odds.house_defaults.clone();
    r.chance("p_breakdown", "P(breaks down)", odds.p_breakdown());
    r.count("variable_dice", "Variable dice", odds.dice);
    r.value(
        "checks_reliability",
        "Poor Reliability check",
        Value::Flag(odds.checks_reliability),
    );
    let name = inputs.label_of("unit");
    r.note(if !unit.has(SpecialRule::PoorReliability) {
        format!("{name} has no Poor Reliability: it never breaks down.")
    } else if !odds.checks_reliability {
        format!("{name} has Poor Reliability, checked only on a double or triple move: a single move never breaks down.")
    } else {
        "Poor Reliability: more 1s than 6s on the move's variable dice and it breaks down (no move this turn).".to_string()
    });
    r.dist(Distribution::new(
        "distance",
        "Distance moved",
        &odds.outcomes,
        move_label,
    ));
    Ok(r)
}

pub(super) fn move_roll(inputs: &Inputs, roller: &mut Roller) -> Result<Report, ResolveError> {
    move_report(inputs, &move_dice(inputs, roller)?)
}

/// A move's variable dice, from `roller` (the dice [`move_report`] words).
///
/// # Errors
/// As the breakdown mechanic.
pub fn move_dice(
    inputs: &Inputs,
    roller: &mut Roller,
) -> Result<reliability::MoveRoll, ResolveError> {
    let unit = unit(inputs, "unit", "moving unit")?;
    reliability::roll_move(unit, move_order(inputs)?, roller).map_err(refused("disruption"))
}

/// The report of a move's roll.
///
/// # Errors
/// As the breakdown mechanic (a move order it cannot read).
pub fn move_report(inputs: &Inputs, roll: &reliability::MoveRoll) -> Result<Report, ResolveError> {
    let order = move_order(inputs)?;
    let mut r = Report::new(
        ID,
        "move",
        format!("{} makes a {}", inputs.label_of("unit"), order.label()),
    );
    r.house_defaults = vec![reliability::BREAKDOWN_RULING];
    r.dice("move dice", &roll.record);
    match roll.result {
        MoveResult::BrokeDown => {
            r.value("broke_down", "Broke down", Value::Flag(true));
            r.result("broke down: no move this turn (it may still fire)");
        }
        MoveResult::Moved(inches) => {
            r.value("broke_down", "Broke down", Value::Flag(false));
            r.count("inches", "Moved (inches)", inches);
            r.result(format!("moves {inches}″"));
        }
    }
    Ok(r)
}
