//! What a hit does to its target: Disruption Points, suppression, Forced Back and dispersal.
//!
//! Direct fire, opportunity fire and artillery all end the same way (RULINGS "Fire result"):
//! the attacker's successes beyond the reaction successes become Disruption Points, sixes
//! decide suppression, a suppressed unit that took a point is Forced Back, and a unit that
//! reaches its Cohesion is dispersed. Only the suppression test differs between direct fire
//! and artillery, so this module does the counting once for both, exactly, from the two
//! pools; `fire` and `artillery` only build the pools.

use std::borrow::Cow;
use std::sync::LazyLock;

use serde::Deserialize;

#[cfg(test)]
pub(crate) mod brute;

use super::error::ResolveError;
use crate::rules::dice::{
    DiceError, Dist, MAX_EXACT_D6, Opposed, Pool, PoolOutcome, RollRecord, Roller, d6, die,
};

/// How suppression is decided, from the sixes both sides rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SuppressionRule {
    /// Direct and opportunity fire: the attacker rolled a six and the target fewer sixes.
    FewerSixes,
    /// Artillery: the attacker rolled a six and the target did not roll more sixes.
    NotMoreSixes,
}

impl SuppressionRule {
    /// Whether the target is suppressed by this pair of rolls.
    ///
    /// An attacker with no successes forces no Reaction Check at all; with target numbers of
    /// 6 or less a six is a success, so that changes nothing, but it keeps the rule honest if
    /// a user edits the data to allow 7+.
    pub fn suppresses(self, attack: PoolOutcome, reaction: PoolOutcome) -> bool {
        if attack.sixes == 0 || attack.successes == 0 {
            return false;
        }
        match self {
            SuppressionRule::FewerSixes => reaction.sixes < attack.sixes,
            SuppressionRule::NotMoreSixes => reaction.sixes <= attack.sixes,
        }
    }

    /// The rule in words, for explanations.
    pub fn describe(self) -> &'static str {
        match self {
            SuppressionRule::FewerSixes => {
                "suppressed when the attacker rolls a 6 and the target rolls fewer 6s"
            }
            SuppressionRule::NotMoreSixes => {
                "suppressed when the artillery rolls a 6 and the target does not roll more 6s"
            }
        }
    }
}

/// The numbers of the fire result (RULINGS "Fire result"), loaded from the seed data.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultRules {
    /// Fixed part of a Forced Back move, in inches (6″: every card's Fixed Move).
    pub forced_back_inches: u32,
    /// D6 added to the Forced Back move for each unmatched six (1).
    pub forced_back_dice_per_unmatched_six: u32,
    /// Sides of the die a dispersed unit's side loses in Army Morale Points (3: a D3).
    pub army_morale_loss_die: u32,
}

/// An exact chance: `weight` equally likely outcomes out of `total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Chance {
    pub weight: u128,
    pub total: u128,
}

impl Chance {
    /// The probability, as `f64` only here at the edge.
    pub fn p(self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            self.weight as f64 / self.total as f64
        }
    }
}

pub use crate::rules::house_default::HouseDefault;

/// RULINGS: the body text's suppression test, not the summary's "more 6s than the target".
pub const DIRECT_SUPPRESSION_RULING: HouseDefault = HouseDefault {
    value: "p_suppressed",
    ruling: "Direct fire suppresses when the attacker rolls at least one 6 and the target rolls fewer 6s (the body text; the summary says \"more 6s than the target\").",
};

/// RULINGS: Forced Back distance is 6″ + 1D″ per unmatched six.
pub const FORCED_BACK_RULING: HouseDefault = HouseDefault {
    value: "forced_back_inches",
    ruling: "Forced Back 6″ (the Fixed Move of every card) + 1D″ per unmatched 6; an artillery hit with equal 6s forces back 6″ with no dice.",
};

/// The exact odds of a fire result, from the two pools.
///
/// Every probability comes with its exact weight out of [`ResultOdds::total`]
/// (6^(attacker dice + reaction dice)).
#[derive(Debug, Clone, PartialEq)]
pub struct ResultOdds {
    /// Equally likely face combinations of both pools.
    pub total: u128,
    /// Exact distribution of the new Disruption Points.
    pub new_disruption: Dist<u32>,
    /// P(0, 1, 2, ≥3 new Disruption Points).
    pub disruption: [f64; 4],
    /// The exact weights behind [`ResultOdds::disruption`].
    pub disruption_weights: [u128; 4],
    /// P(suppressed).
    pub p_suppressed: f64,
    pub suppressed_weight: u128,
    /// P(Forced Back): suppressed, at least one new Disruption Point, and not dispersed by the
    /// same fire (a removed unit is not forced back).
    pub p_forced_back: f64,
    pub forced_back_weight: u128,
    /// Unmatched sixes when Forced Back (the dice of the Forced Back move), given Forced Back.
    pub forced_back_sixes: Option<Dist<u32>>,
    /// Forced Back distance in inches given Forced Back; `None` when it cannot happen.
    pub forced_back_inches: Option<Dist<u32>>,
    /// P(dispersed): existing plus new Disruption Points reach the Cohesion.
    pub p_dispersed: f64,
    pub dispersed_weight: u128,
    /// Army Morale Points the side loses when the unit is dispersed (1D3), given dispersal.
    pub army_morale_loss: Dist<u32>,
    /// Disruption Points the target had before this fire.
    pub existing_disruption: u32,
    /// Disruption Points that disperse the target.
    pub cohesion: u32,
}

impl ResultOdds {
    /// P(at least `n` new Disruption Points).
    pub fn p_disruption_at_least(&self, n: u32) -> f64 {
        self.new_disruption.at_least(&n)
    }
}

/// The (new Disruption Points, suppressed, unmatched sixes when Forced Back) of one roll.
fn classify(rule: SuppressionRule, attack: PoolOutcome, reaction: PoolOutcome) -> (u32, bool, u32) {
    let new_points = attack.successes.saturating_sub(reaction.successes);
    let suppressed = rule.suppresses(attack, reaction);
    let unmatched = if suppressed && new_points > 0 {
        attack.sixes.saturating_sub(reaction.sixes)
    } else {
        0
    };
    (new_points, suppressed, unmatched)
}

/// Exact fire-result odds for `attack` against `reaction`.
///
/// `existing` Disruption Points are already on the target; `cohesion` disperses it.
///
/// # Errors
/// [`ResolveError::Dice`] when the pools (plus the Forced Back dice) are too many to count
/// exactly in `u128` (far beyond anything a card can roll).
pub fn result_odds(
    attack: Pool,
    reaction: Pool,
    rule: SuppressionRule,
    existing: u32,
    cohesion: u32,
    rules: &ResultRules,
) -> Result<ResultOdds, ResolveError> {
    let opposed = Opposed::new(attack, reaction)?;
    let dispersal_at = cohesion.saturating_sub(existing);
    let tallies = ResultTallies::of(&opposed, rule, dispersal_at);
    let total = opposed.total();
    let new_disruption = Dist::from_weights(
        tallies
            .points
            .iter()
            .enumerate()
            .map(|(points, &w)| (points as u32, w)),
    )?;
    let mut disruption_weights = [0u128; 4];
    for (&points, weight) in new_disruption.iter() {
        let bucket = points.min(3) as usize;
        disruption_weights[bucket] += weight;
    }
    let forced_back_weight = tallies.forced_back.iter().sum::<u128>();
    let dispersed_weight = new_disruption.weight_at_least(&dispersal_at);
    let forced_back_sixes = (forced_back_weight > 0)
        .then(|| {
            Dist::from_weights(
                tallies
                    .forced_back
                    .iter()
                    .enumerate()
                    .map(|(unmatched, &w)| (unmatched as u32, w)),
            )
        })
        .transpose()?;
    let forced_back_inches = forced_back_sixes
        .as_ref()
        .map(|sixes| forced_back_distance(sixes, rules))
        .transpose()?;
    let p = |weight: u128| weight as f64 / total as f64;
    Ok(ResultOdds {
        total,
        disruption: disruption_weights.map(p),
        disruption_weights,
        new_disruption,
        p_suppressed: p(tallies.suppressed),
        suppressed_weight: tallies.suppressed,
        p_forced_back: p(forced_back_weight),
        forced_back_weight,
        forced_back_sixes,
        forced_back_inches,
        p_dispersed: p(dispersed_weight),
        dispersed_weight,
        army_morale_loss: die(rules.army_morale_loss_die)?,
        existing_disruption: existing,
        cohesion,
    })
}

/// The exact weights a fire result needs, out of the opposed roll's total.
struct ResultTallies {
    /// Weight of each number of new Disruption Points (index = points).
    points: Vec<u128>,
    suppressed: u128,
    /// Weight of being Forced Back with each number of unmatched sixes (index = sixes).
    forced_back: Vec<u128>,
}

impl ResultTallies {
    /// Counts the three results from the two exact tables.
    ///
    /// This is [`Opposed::fold`] specialised to three small counters. A keyed fold over 12
    /// against 10 dice makes about 6,000 sorted-map updates; but for one attacker outcome the
    /// new points depend only on the defender's successes, suppression only on his sixes,
    /// and Forced Back on his sixes among the outcomes with fewer successes (but not so few
    /// that the target is dispersed: `dispersal_at` new points remove it). So the defender's
    /// table is first summed into those margins, and each attacker outcome then takes a
    /// handful of products. Every sum is a part of the opposed total, which `Opposed::new`
    /// proved fits in `u128`.
    fn of(opposed: &Opposed, rule: SuppressionRule, dispersal_at: u32) -> Self {
        let (attacker, defender) = (opposed.attacker(), opposed.defender());
        let most_sixes = |table: &Dist<PoolOutcome>| {
            table
                .iter()
                .map(|(o, _)| o.sixes as usize)
                .max()
                .unwrap_or(0)
        };
        let (d_successes, d_sixes) = (
            defender.highest().successes as usize + 1,
            most_sixes(defender) + 1,
        );
        // by_successes[s], by_sixes[x]; fewer[s][x]: weight with fewer than s successes and x sixes.
        let mut by_successes = vec![0u128; d_successes];
        let mut by_sixes = vec![0u128; d_sixes];
        let mut fewer = vec![vec![0u128; d_sixes]; d_successes + 1];
        for (d, w) in defender.iter() {
            by_successes[d.successes as usize] += w;
            by_sixes[d.sixes as usize] += w;
            fewer[d.successes as usize + 1][d.sixes as usize] += w;
        }
        // Running sums down the successes: row s then counts every row below it.
        for s in 1..=d_successes {
            let (below, rest) = fewer.split_at_mut(s);
            for (cell, prior) in rest[0].iter_mut().zip(&below[s - 1]) {
                *cell += prior;
            }
        }
        let most = attacker.highest().successes as usize;
        let mut out = Self {
            points: vec![0; most + 1],
            suppressed: 0,
            forced_back: vec![0; most_sixes(attacker) + 1],
        };
        for (&a, wa) in attacker.iter() {
            for (ds, &w) in by_successes.iter().enumerate() {
                out.points[(a.successes as usize).saturating_sub(ds)] += wa * w;
            }
            if a.sixes == 0 || a.successes == 0 {
                continue;
            }
            // Defender sixes that leave the target suppressed: 0..limit.
            let limit = match rule {
                SuppressionRule::FewerSixes => a.sixes as usize,
                SuppressionRule::NotMoreSixes => a.sixes as usize + 1,
            }
            .min(d_sixes);
            // Forced Back: the defender's successes leave 1 to dispersal_at − 1 new points.
            let fewer_successes = &fewer[(a.successes as usize).min(d_successes)];
            let dispersing = (a.successes + 1).saturating_sub(dispersal_at) as usize;
            let dispersed_by = &fewer[dispersing.min(d_successes)];
            for dx in 0..limit {
                out.suppressed += wa * by_sixes[dx];
                let survives = fewer_successes[dx].saturating_sub(dispersed_by[dx]);
                out.forced_back[a.sixes as usize - dx] += wa * survives;
            }
        }
        out
    }
}

/// The Forced Back distance given the unmatched sixes: `fixed + (k × per_six)` d6 for `k`
/// unmatched sixes, mixed by the odds of each `k`.
///
/// The mixture has a common total: every `k` is padded to the largest `k` by multiplying its
/// weights by 6^(largest − own dice), i.e. by rolling dice that are then ignored.
fn forced_back_distance(sixes: &Dist<u32>, rules: &ResultRules) -> Result<Dist<u32>, ResolveError> {
    let per_six = rules.forced_back_dice_per_unmatched_six;
    let most_dice = sixes.highest().saturating_mul(per_six);
    let pad_total = d6()
        .total()
        .checked_pow(most_dice)
        .ok_or(DiceError::TooManyDice {
            dice: most_dice,
            limit: MAX_EXACT_D6,
        })?;
    sixes
        .total()
        .checked_mul(pad_total)
        .ok_or(DiceError::WeightOverflow)?;
    // Weights by inches, so the result is built in ascending order.
    let longest = rules.forced_back_inches + most_dice * 6;
    let mut weights = vec![0u128; longest as usize + 1];
    for (&unmatched, weight) in sixes.iter() {
        let roll = d6_sum(unmatched * per_six)?;
        let pad = pad_total / roll.total();
        for (&sum, w) in roll.iter() {
            // Each product is a part of sixes.total() * pad_total, checked above.
            let slot = &mut weights[(rules.forced_back_inches + sum) as usize];
            *slot = slot.saturating_add(weight.saturating_mul(w).saturating_mul(pad));
        }
    }
    Ok(Dist::from_weights(
        weights
            .into_iter()
            .enumerate()
            .map(|(inches, w)| (inches as u32, w)),
    )?)
}

/// How many d6 sums are built once and kept: far more than any Forced Back needs (one die
/// per unmatched six).
const CACHED_D6_SUMS: usize = 24;

/// The sums of 0, 1, 2 … d6. Building them cost as much as the rest of a fire query, and
/// every query needs the same few.
static D6_SUMS: LazyLock<Vec<Dist<u32>>> = LazyLock::new(|| {
    let mut sums = vec![Dist::certain(0u32)];
    while sums.len() <= CACHED_D6_SUMS {
        let Some(next) = sums
            .last()
            .and_then(|last| last.combine(&d6(), |sum, face| sum + face).ok())
        else {
            break;
        };
        sums.push(next);
    }
    sums
});

/// The distribution of the sum of `dice` d6.
fn d6_sum(dice: u32) -> Result<Cow<'static, Dist<u32>>, DiceError> {
    match D6_SUMS.get(dice as usize) {
        Some(sum) => Ok(Cow::Borrowed(sum)),
        None => Ok(Cow::Owned(d6().sum_of(dice)?)),
    }
}

/// What one fire action did, read off the dice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FireResult {
    /// Disruption Points this fire added.
    pub new_disruption: u32,
    /// Disruption Points on the target afterwards (at most its Cohesion: it is then removed).
    pub total_disruption: u32,
    pub suppressed: bool,
    /// Attacker sixes the target did not match (when suppressed).
    pub unmatched_sixes: u32,
    /// How far the target is Forced Back, when it is; never when the same fire disperses it.
    pub forced_back_inches: Option<u32>,
    /// The target reached its Cohesion and is removed.
    pub dispersed: bool,
    /// Army Morale Points its side loses (when dispersed).
    pub army_morale_loss: Option<u32>,
}

/// Every die of one fire action, in the order rolled, and what they did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FireRoll {
    /// The roller's seed: the whole action replays from it.
    pub seed: u64,
    pub attacker_tn: i32,
    pub reaction_tn: i32,
    /// The attacker's dice.
    pub attack: RollRecord,
    pub attack_outcome: PoolOutcome,
    /// The target's Reaction Check; `None` when the attacker scored no success (the book:
    /// "your opponent doesn't need to make a Reaction Check").
    pub reaction: Option<RollRecord>,
    pub reaction_outcome: PoolOutcome,
    /// The Forced Back dice, when the target is Forced Back.
    pub forced_back_roll: Option<RollRecord>,
    /// The Army Morale die, when the target is dispersed.
    pub morale_roll: Option<RollRecord>,
    pub result: FireResult,
}

impl FireRoll {
    /// Every roll of the action, in order.
    pub fn records(&self) -> Vec<&RollRecord> {
        std::iter::once(&self.attack)
            .chain(self.reaction.as_ref())
            .chain(self.forced_back_roll.as_ref())
            .chain(self.morale_roll.as_ref())
            .collect()
    }
}

/// Rolls one fire action: the attack, the Reaction Check (if needed), then any Forced Back
/// and Army Morale dice.
pub(crate) fn roll_result(
    attack: Pool,
    reaction: Pool,
    rule: SuppressionRule,
    existing: u32,
    cohesion: u32,
    rules: &ResultRules,
    roller: &mut Roller,
) -> Result<FireRoll, ResolveError> {
    let seed = roller.seed();
    let (attack_record, attack_outcome) = roller.roll_pool("attack", attack)?;
    let (reaction_record, reaction_outcome) = if attack_outcome.successes > 0 {
        let (record, outcome) = roller.roll_pool("reaction", reaction)?;
        (Some(record), outcome)
    } else {
        (None, PoolOutcome::default())
    };
    let (new_points, suppressed, unmatched) = classify(rule, attack_outcome, reaction_outcome);
    let dispersed = existing + new_points >= cohesion;
    // A dispersed unit is removed, so it is never forced back (RULINGS "Fire result").
    let forced_back_roll = if suppressed && new_points > 0 && !dispersed {
        Some(roller.roll_d6(
            "forced_back",
            unmatched * rules.forced_back_dice_per_unmatched_six,
        )?)
    } else {
        None
    };
    let forced_back_inches = forced_back_roll.as_ref().map(|record| {
        rules.forced_back_inches + record.dice.iter().map(|&f| u32::from(f)).sum::<u32>()
    });
    let total_disruption = (existing + new_points).min(cohesion.max(existing));
    let morale_roll = if dispersed {
        let sides = u8::try_from(rules.army_morale_loss_die).unwrap_or(u8::MAX);
        Some(roller.roll("army_morale", sides, 1)?)
    } else {
        None
    };
    let army_morale_loss = morale_roll
        .as_ref()
        .map(|record| record.dice.iter().map(|&f| u32::from(f)).sum());
    Ok(FireRoll {
        seed,
        attacker_tn: attack.target,
        reaction_tn: reaction.target,
        attack: attack_record,
        attack_outcome,
        reaction: reaction_record,
        reaction_outcome,
        forced_back_roll,
        morale_roll,
        result: FireResult {
            new_disruption: new_points,
            total_disruption,
            suppressed,
            unmatched_sixes: if suppressed {
                attack_outcome.sixes.saturating_sub(reaction_outcome.sixes)
            } else {
                0
            },
            forced_back_inches,
            dispersed,
            army_morale_loss,
        },
    })
}
