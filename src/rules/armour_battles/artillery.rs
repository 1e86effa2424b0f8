//! Off-table artillery missions: the response check, deviation and fire for effect.
//!
//! RULINGS "Artillery" with the book's Indirect Fire section: the battery's Artillery
//! Response Dice at 4+ against 3D at 4+ (more successes fires at once, else in the next
//! Logistics Phase); without the special die, a hit die of 5–6 lands on the marker and
//! anything else scatters 1D″; every unit within the 4″ burst is attacked with the card's
//! 4D at 4+, never modified by range. The target reacts with its artillery reaction
//! (low-profile bracket, sloped second number, open-topped −1D), gains nothing from light
//! cover, and is suppressed unless it rolls *more* sixes than the battery.

use serde::Deserialize;

use super::cards::{FireKind, UnitCard, UnitKind};
use super::error::ResolveError;
use super::fire::{
    Bonus, Builder, Evasion, FireOdds, FirePools, FireRules, Modified, Modifier, card_reaction,
    check_disruption, dice,
};
use super::outcome::{FORCED_BACK_RULING, FireRoll, SuppressionRule, roll_result};
use crate::rules::dice::{Dist, Opposed, Pool, RollRecord, Roller, d6};

/// The artillery numbers, as seed data a user may change.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArtilleryRules {
    /// TN of the Artillery Response Dice (4).
    pub response_tn: i32,
    /// Dice the opponent rolls against the response (3).
    pub opponent_response_dice: u32,
    pub opponent_response_tn: i32,
    /// The hit die lands the mission on target at this face or more (5).
    pub hit_die_on_target_from: u32,
    /// D6 rolled for the scatter distance in inches (1).
    pub scatter_dice: u32,
    /// Burst radius in inches (4).
    pub burst_inches: u32,
    /// TN of the fire for effect (4; never modified by range).
    pub attack_tn: i32,
}

/// One unit under the burst.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ArtillerySituation {
    pub target_suppressed: bool,
    /// Disruption Points already on the target.
    pub target_disruption: u32,
    /// Target in light cover: recorded so the odds can say it gives nothing here.
    pub cover: bool,
    /// The target breaks off (Break-Off or Shoot and Scoot units only): +2D.
    pub break_off: bool,
    /// Wild die / Staff Order added to the battery's dice ("add to a combat roll").
    pub attacker_bonus: Bonus,
    pub target_bonus: Bonus,
}

/// Odds that the battery fires at once rather than in the next Logistics Phase.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResponseOdds {
    pub response_dice: u32,
    pub response_tn: i32,
    pub opponent_dice: u32,
    pub opponent_tn: i32,
    pub p_fires_now: f64,
    pub fires_now_weight: u128,
    pub total: u128,
}

/// Where the mission lands.
#[derive(Debug, Clone, PartialEq)]
pub struct DeviationOdds {
    /// P(the hit die lands it on the marker).
    pub p_on_target: f64,
    /// Deviation in inches (0 = on the marker), exact over `inches.total()`.
    pub inches: Dist<u32>,
    pub burst_inches: u32,
    /// P(deviation ≤ burst radius): with the marker placed on the target, the target is
    /// certainly still under the burst. Farther deviations may still catch it, depending on
    /// the direction and the unit's size.
    pub p_within_burst: f64,
}

/// Everything about one mission against one unit.
#[derive(Debug, Clone, PartialEq)]
pub struct ArtilleryOdds {
    pub response: ResponseOdds,
    pub deviation: DeviationOdds,
    /// Fire for effect against the unit, given it is under the burst.
    pub attack: FireOdds,
}

/// The response check's odds.
///
/// # Errors
/// [`ResolveError::Dice`] for absurd dice counts.
pub fn response_odds(
    response_dice: u32,
    rules: &ArtilleryRules,
) -> Result<ResponseOdds, ResolveError> {
    let ours = Pool::new(response_dice, rules.response_tn);
    let theirs = Pool::new(rules.opponent_response_dice, rules.opponent_response_tn);
    let opposed = Opposed::new(ours, theirs)?;
    let weight = opposed.weight_where(|a, d| a.successes > d.successes);
    Ok(ResponseOdds {
        response_dice,
        response_tn: rules.response_tn,
        opponent_dice: rules.opponent_response_dice,
        opponent_tn: rules.opponent_response_tn,
        p_fires_now: weight as f64 / opposed.total() as f64,
        fires_now_weight: weight,
        total: opposed.total(),
    })
}

/// The deviation's odds: the hit die, then the scatter dice when it misses.
///
/// # Errors
/// [`ResolveError::Dice`] for absurd scatter dice counts.
pub fn deviation_odds(rules: &ArtilleryRules) -> Result<DeviationOdds, ResolveError> {
    let scatter = d6().sum_of(rules.scatter_dice)?;
    let on_from = rules.hit_die_on_target_from;
    let inches = d6().combine(&scatter, |&hit, &sum| if hit >= on_from { 0 } else { sum })?;
    let on_weight = d6().weight_at_least(&on_from);
    Ok(DeviationOdds {
        p_on_target: on_weight as f64 / d6().total() as f64,
        p_within_burst: inches.at_most(&rules.burst_inches),
        burst_inches: rules.burst_inches,
        inches,
    })
}

/// Builds the battery's and the target's pools for fire for effect.
///
/// # Errors
/// A non-artillery attacker, an off-table target, a break-off the target cannot make, or
/// existing Disruption Points at or above the target's Cohesion.
pub fn artillery_pools(
    artillery: &UnitCard,
    target: &UnitCard,
    situation: &ArtillerySituation,
    fire: &FireRules,
    rules: &ArtilleryRules,
) -> Result<FirePools, ResolveError> {
    if artillery.kind != UnitKind::OffTableArtillery {
        return Err(ResolveError::NotArtillery {
            name: artillery.name.clone(),
        });
    }
    let card_reaction_dice = card_reaction(target, FireKind::Artillery)?;
    check_disruption(target, situation.target_disruption)?;
    if situation.break_off {
        Evasion::BreakOff.check(target, None)?;
    }
    let mut b = Builder::new();
    b.bonus(
        Modified::AttackerDice,
        situation.attacker_bonus,
        fire.wild_die_dice,
        fire.staff_order_dice,
    );
    if situation.cover {
        // Shown with no effect, so the reader sees cover was considered.
        b.modifiers.push(Modifier {
            modifies: Modified::ReactionDice,
            label: "light cover: no bonus against artillery".to_string(),
            change: 0,
        });
    }
    if situation.break_off {
        b.add(
            Modified::ReactionDice,
            Evasion::BreakOff.label(),
            fire.evading_dice,
        );
    }
    b.bonus(
        Modified::ReactionDice,
        situation.target_bonus,
        fire.wild_die_dice,
        fire.staff_order_dice,
    );
    if situation.target_suppressed {
        b.add(
            Modified::ReactionTn,
            "target suppressed",
            fire.suppressed_reaction_tn - fire.reaction_tn,
        );
    }
    let attack_dice = dice(b.total(Modified::AttackerDice, i32::from(artillery.at_dice)));
    let reaction_dice = dice(b.total(
        Modified::ReactionDice,
        i32::try_from(card_reaction_dice).unwrap_or(i32::MAX),
    ));
    let reaction_tn = b.total(Modified::ReactionTn, fire.reaction_tn);
    Ok(FirePools {
        fire_kind: FireKind::Artillery,
        attack: Pool::new(attack_dice, rules.attack_tn),
        reaction: Pool::new(reaction_dice, reaction_tn),
        card_attacker_dice: u32::from(artillery.at_dice),
        card_reaction_dice,
        modifiers: b.modifiers,
        evasion: situation.break_off.then_some(Evasion::BreakOff),
        house_defaults: vec![FORCED_BACK_RULING],
    })
}

/// Exact odds of a mission by `artillery` against `target`, with the seed data's numbers.
///
/// # Errors
/// As [`artillery_pools`]; [`ResolveError::Data`] if the seed data failed to load.
pub fn artillery_odds(
    artillery: &UnitCard,
    target: &UnitCard,
    situation: &ArtillerySituation,
    response_dice: u32,
) -> Result<ArtilleryOdds, ResolveError> {
    artillery_odds_with(
        artillery,
        target,
        situation,
        response_dice,
        super::fire_rules()?,
        super::artillery_rules()?,
    )
}

/// [`artillery_odds`] under the given (possibly user-changed) numbers.
///
/// # Errors
/// As [`artillery_pools`].
pub fn artillery_odds_with(
    artillery: &UnitCard,
    target: &UnitCard,
    situation: &ArtillerySituation,
    response_dice: u32,
    fire: &FireRules,
    rules: &ArtilleryRules,
) -> Result<ArtilleryOdds, ResolveError> {
    let pools = artillery_pools(artillery, target, situation, fire, rules)?;
    let attack = FireOdds::new(
        artillery,
        target,
        None,
        pools,
        SuppressionRule::NotMoreSixes,
        situation.target_disruption,
        &fire.result,
    )?;
    Ok(ArtilleryOdds {
        response: response_odds(response_dice, rules)?,
        deviation: deviation_odds(rules)?,
        attack,
    })
}

/// The rolled response check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResponseRoll {
    pub ours: RollRecord,
    pub theirs: RollRecord,
    pub successes: u32,
    pub opponent_successes: u32,
    /// More successes: fires for effect now; otherwise in the next Logistics Phase.
    pub fires_now: bool,
}

/// The rolled deviation: the hit die first, then the scatter dice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviationRoll {
    pub record: RollRecord,
    pub on_target: bool,
    /// How far the marker moves, in inches (0 on target).
    pub inches: u32,
    /// The deviation is within the burst radius, so a target the marker was placed on is
    /// certainly still hit.
    pub within_burst: bool,
}

/// A whole mission: response, deviation, and the fire for effect on one unit (rolled as if
/// the unit is under the burst; see [`DeviationRoll::within_burst`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArtilleryRoll {
    pub seed: u64,
    pub response: ResponseRoll,
    pub deviation: DeviationRoll,
    pub attack: FireRoll,
}

/// Rolls the response check.
///
/// # Errors
/// [`ResolveError::Dice`] for absurd dice counts.
pub fn roll_response(
    response_dice: u32,
    rules: &ArtilleryRules,
    roller: &mut Roller,
) -> Result<ResponseRoll, ResolveError> {
    let (ours, a) = roller.roll_pool("response", Pool::new(response_dice, rules.response_tn))?;
    let (theirs, d) = roller.roll_pool(
        "opponent_response",
        Pool::new(rules.opponent_response_dice, rules.opponent_response_tn),
    )?;
    Ok(ResponseRoll {
        ours,
        theirs,
        successes: a.successes,
        opponent_successes: d.successes,
        fires_now: a.successes > d.successes,
    })
}

/// Rolls the hit die and the scatter dice together.
///
/// # Errors
/// [`ResolveError::Dice`] for absurd dice counts.
pub fn roll_deviation(
    rules: &ArtilleryRules,
    roller: &mut Roller,
) -> Result<DeviationRoll, ResolveError> {
    let record = roller.roll_d6("deviation", 1 + rules.scatter_dice)?;
    let (hit, scatter) = record
        .dice
        .split_first()
        .map_or((6, &[][..]), |(h, s)| (*h, s));
    let on_target = u32::from(hit) >= rules.hit_die_on_target_from;
    let inches = if on_target {
        0
    } else {
        scatter.iter().map(|&f| u32::from(f)).sum()
    };
    Ok(DeviationRoll {
        record,
        on_target,
        inches,
        within_burst: inches <= rules.burst_inches,
    })
}

/// Rolls fire for effect against one unit.
///
/// # Errors
/// As [`artillery_pools`].
pub fn roll_artillery_fire(
    artillery: &UnitCard,
    target: &UnitCard,
    situation: &ArtillerySituation,
    fire: &FireRules,
    rules: &ArtilleryRules,
    roller: &mut Roller,
) -> Result<FireRoll, ResolveError> {
    let pools = artillery_pools(artillery, target, situation, fire, rules)?;
    roll_result(
        pools.attack,
        pools.reaction,
        SuppressionRule::NotMoreSixes,
        situation.target_disruption,
        u32::from(target.cohesion),
        &fire.result,
        roller,
    )
}

/// Rolls a whole mission with the seed data's numbers: response, deviation, fire for effect.
///
/// # Errors
/// As [`artillery_pools`]; [`ResolveError::Data`] if the seed data failed to load.
pub fn roll_artillery(
    artillery: &UnitCard,
    target: &UnitCard,
    situation: &ArtillerySituation,
    response_dice: u32,
    roller: &mut Roller,
) -> Result<ArtilleryRoll, ResolveError> {
    let fire = super::fire_rules()?;
    let rules = super::artillery_rules()?;
    // Check the situation before any die is rolled, so a refusal uses no roll numbers.
    artillery_pools(artillery, target, situation, fire, rules)?;
    let seed = roller.seed();
    let response = roll_response(response_dice, rules, roller)?;
    let deviation = roll_deviation(rules, roller)?;
    let attack = roll_artillery_fire(artillery, target, situation, fire, rules, roller)?;
    Ok(ArtilleryRoll {
        seed,
        response,
        deviation,
        attack,
    })
}

#[cfg(test)]
mod tests;
