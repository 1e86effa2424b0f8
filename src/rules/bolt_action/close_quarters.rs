//! Close quarters (the sheet's procedure): infantry against infantry fought in rounds, and
//! infantry assaulting a vehicle.
//!
//! Infantry against infantry (RULINGS "Close quarters"): in each round every attacking model
//! rolls its damage dice (one each, data) needing the defenders' damage value; the defenders
//! remove their casualties and their survivors strike back the same way. The side that
//! inflicted more casualties wins and the loser surrenders and is destroyed; a side with no
//! model left loses; equal casualties are a draw and the survivors fight another round,
//! attackers first again, until one side wins. The odds are an absorbing Markov chain over the
//! models left on each side, solved exactly in rationals: a round in which nobody falls leaves
//! the fight where it was, so each state's answer is its other outcomes divided by the chance
//! of leaving it. No sampling, whatever the sizes.
//!
//! Infantry assaulting a vehicle: a vehicle that ran cannot be assaulted; an enclosed armoured
//! vehicle is assaulted only after an order test at −3 by a unit without anti-tank weapons
//! (the existing order test, FUBAR included); each model hits on 4+ (a 6 if the vehicle
//! advanced); one damage roll, d6 plus the number of hits, against the vehicle's damage
//! value; a soft-skin or open-topped vehicle that is damaged is destroyed, an enclosed one
//! rolls one damage result — full with anti-tank weapons, superficial without — applied as
//! [`super::vehicle_damage`] says (its pin, a second Immobilised, the On Fire check).

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Pow, ToPrimitive, Zero};
use serde::Serialize;

use super::resolve::{
    FIRE_CHECK, LabelledRoll, Named, OrderResult, OrderTest, OrderTestRoll, ResolveError, RollLog,
    TargetProfile, mixture, order_test_odds, reduced, roll_order_test,
};
use super::tables::{CloseQuartersTable, Quality, Tables, VehicleMotion};
use super::vehicle_damage::{VehicleAfter, VehicleFate, after_results_odds};
use super::{Category, resolve::DamageEffect};
use crate::rules::dice::{Dist, Roller, d6};

/// The most models a side may bring: the chain has a state per pair of sizes, so this bounds
/// the work (a few hundredths of a second at this size in a release build).
pub const MAX_MODELS: u32 = 30;

/// Rolls that still leave both sides standing after this many rounds end the roll with a
/// refusal instead of looping on (a fight reaches it with a chance far below 10^-50).
pub const MAX_ROUNDS: u32 = 1000;

fn tables() -> Result<&'static Tables, ResolveError> {
    super::DATA.for_resolution(|d| d)
}

fn rules() -> Result<&'static CloseQuartersTable, ResolveError> {
    super::DATA.for_resolution(|d| &d.close_quarters)
}

/// The damage value of infantry of `quality`: what the other side's dice need.
fn infantry_damage_value(quality: Quality) -> Result<u8, ResolveError> {
    Ok(TargetProfile::of_category(Category::Infantry, quality)?.damage_value)
}

/// One side of a fight between infantry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Fighters {
    pub models: u32,
    pub quality: Quality,
}

impl Fighters {
    pub const fn new(models: u32, quality: Quality) -> Self {
        Self { models, quality }
    }
}

/// Infantry assaulting infantry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CloseQuarters {
    pub attackers: Fighters,
    pub defenders: Fighters,
}

/// Who won a close quarters fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Winner {
    Attackers,
    Defenders,
}

/// How a fight ends: the winner and its models left (the loser is destroyed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct FightEnd {
    pub winner: Winner,
    pub left: u32,
}

impl FightEnd {
    /// "attackers win, 4 left".
    pub fn words(self) -> String {
        let side = match self.winner {
            Winner::Attackers => "attackers",
            Winner::Defenders => "defenders",
        };
        format!("{side} win, {} left", self.left)
    }
}

/// The numbers of a fight, worked out once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FightNumbers {
    /// The d6 each attacking die needs (the defenders' damage value).
    pub attackers_need: u8,
    /// The d6 each defending die needs (the attackers' damage value).
    pub defenders_need: u8,
    pub attacks_per_model: u32,
}

impl CloseQuarters {
    /// The fight's numbers from the sheet.
    ///
    /// # Errors
    /// [`ResolveError::Invalid`] for an empty side or more than [`MAX_MODELS`].
    pub fn numbers(&self) -> Result<FightNumbers, ResolveError> {
        for (field, side) in [
            ("models", self.attackers),
            ("target_models", self.defenders),
        ] {
            if side.models == 0 || side.models > MAX_MODELS {
                return Err(ResolveError::invalid(
                    field,
                    format!(
                        "{} models: a side brings 1 to {MAX_MODELS} models",
                        side.models
                    ),
                ));
            }
        }
        Ok(FightNumbers {
            attackers_need: infantry_damage_value(self.defenders.quality)?,
            defenders_need: infantry_damage_value(self.attackers.quality)?,
            attacks_per_model: rules()?.attacks_per_model,
        })
    }
}

/// Exact odds of a fight.
#[derive(Debug, Clone, PartialEq)]
pub struct FightOdds {
    pub numbers: FightNumbers,
    /// Every way the fight can end, with its exact chance; they add up to 1.
    pub ends: BTreeMap<FightEnd, BigRational>,
    /// The chance the first round decides it (no draw).
    pub first_round: BigRational,
    /// The expected number of rounds.
    pub expected_rounds: BigRational,
}

impl FightOdds {
    /// The exact chance that `winner` wins.
    pub fn p_wins(&self, winner: Winner) -> BigRational {
        self.ends
            .iter()
            .filter(|(end, _)| end.winner == winner)
            .fold(BigRational::zero(), |sum, (_, p)| sum + p)
    }
}

/// Integer weights of `n` dice that each score on `scoring` of six faces: entry k counts the
/// rolls with exactly k successes (they add up to 6^n).
fn success_weights(n: u32, scoring: u32) -> Vec<BigInt> {
    let (yes, no) = (BigInt::from(scoring), BigInt::from(6 - scoring.min(6)));
    let mut row = vec![BigInt::one()];
    for _ in 0..n {
        let mut next = vec![BigInt::zero(); row.len() + 1];
        for (k, w) in row.iter().enumerate() {
            next[k] += w * &no;
            next[k + 1] += w * &yes;
        }
        row = next;
    }
    row
}

fn faces_scoring(need: u8) -> u32 {
    (1..=6u8).filter(|&f| f >= need).count() as u32
}

/// The round's outcome by casualties actually taken (capped at the models there are).
enum Round {
    Over(FightEnd),
    /// Equal casualties and both sides standing: fight on with these models.
    Draw {
        attackers: u32,
        defenders: u32,
    },
}

/// Reads a round: the attackers caused `dead` casualties, the defenders `struck_back`.
fn round_result(attackers: u32, defenders: u32, dead: u32, struck_back: u32) -> Round {
    let (a_left, d_left) = (attackers - struck_back, defenders - dead);
    if dead > struck_back {
        Round::Over(FightEnd {
            winner: Winner::Attackers,
            left: a_left,
        })
    } else if struck_back > dead || a_left == 0 {
        Round::Over(FightEnd {
            winner: Winner::Defenders,
            left: d_left,
        })
    } else {
        Round::Draw {
            attackers: a_left,
            defenders: d_left,
        }
    }
}

/// One state's answer in the chain: every end's numerator and the expected rounds'
/// numerator, all over one denominator (kept in lowest terms across them).
#[derive(Debug, Clone)]
struct StateOdds {
    ends: BTreeMap<FightEnd, BigInt>,
    rounds: BigInt,
    denominator: BigInt,
}

impl StateOdds {
    /// Divides every numerator and the denominator by their common factor.
    fn lowest_terms(mut self) -> Self {
        let g = self
            .ends
            .values()
            .fold(self.denominator.gcd(&self.rounds), |g, n| g.gcd(n));
        if !g.is_zero() && !g.is_one() {
            for n in self.ends.values_mut() {
                *n /= &g;
            }
            self.rounds /= &g;
            self.denominator /= &g;
        }
        self
    }
}

/// Exact odds of a fight: the chain solved from the smallest fights up, in integers (a state's
/// round has 6^(dice) equally likely rolls; the chances leave integers only once, at the end).
///
/// # Errors
/// As [`CloseQuarters::numbers`].
pub fn fight_odds(fight: &CloseQuarters) -> Result<FightOdds, ResolveError> {
    let numbers = fight.numbers()?;
    let per = numbers.attacks_per_model;
    let (size_a, size_d) = (fight.attackers.models, fight.defenders.models);
    let attack_rows: Vec<Vec<BigInt>> = (0..=size_a * per)
        .map(|n| success_weights(n, faces_scoring(numbers.attackers_need)))
        .collect();
    let defend_rows: Vec<Vec<BigInt>> = (0..=size_d * per)
        .map(|n| success_weights(n, faces_scoring(numbers.defenders_need)))
        .collect();
    let six_to = |n: u32| BigInt::from(6).pow(n);
    let mut solved: BTreeMap<(u32, u32), StateOdds> = BTreeMap::new();
    let mut first_round = BigRational::zero();
    for a in 1..=size_a {
        for d in 1..=size_d {
            // Every weight below is over all = 6^(dice on both sides).
            let all = six_to((a + d) * per);
            let mut over: BTreeMap<FightEnd, BigInt> = BTreeMap::new();
            let mut draws: Vec<(BigInt, (u32, u32))> = Vec::new();
            let mut stay = BigInt::zero();
            for (k, wk) in attack_rows[(a * per) as usize].iter().enumerate() {
                let dead = (k as u32).min(d);
                // The defenders who fell roll no dice: count their share of `all` back in.
                let wk = wk * six_to(dead * per);
                for (j, wj) in defend_rows[((d - dead) * per) as usize].iter().enumerate() {
                    let struck_back = (j as u32).min(a);
                    let w = &wk * wj;
                    match round_result(a, d, dead, struck_back) {
                        Round::Over(end) => *over.entry(end).or_insert_with(BigInt::zero) += w,
                        Round::Draw { .. } if dead == 0 => stay += w,
                        Round::Draw {
                            attackers,
                            defenders,
                        } => {
                            draws.push((w, (attackers, defenders)));
                        }
                    }
                }
            }
            if (a, d) == (size_a, size_d) {
                let decided = over.values().fold(BigInt::zero(), |s, w| s + w);
                first_round = BigRational::new(decided, all.clone());
            }
            // value = (over + Σ draw × child) / (all − stay), every child over one lcm.
            let children = draws
                .iter()
                .map(|(_, at)| solved.get(at).ok_or_else(|| unsolved(at.0, at.1)))
                .collect::<Result<Vec<_>, _>>()?;
            let common = children
                .iter()
                .fold(BigInt::one(), |l, c| l.lcm(&c.denominator));
            let mut ends: BTreeMap<FightEnd, BigInt> =
                over.into_iter().map(|(e, w)| (e, w * &common)).collect();
            let mut rounds = &all * &common;
            for ((w, _), child) in draws.iter().zip(&children) {
                let scale = w * (&common / &child.denominator);
                rounds += &scale * &child.rounds;
                for (end, n) in &child.ends {
                    *ends.entry(*end).or_insert_with(BigInt::zero) += &scale * n;
                }
            }
            let state = StateOdds {
                ends,
                rounds,
                denominator: (all - stay) * common,
            };
            solved.insert((a, d), state.lowest_terms());
        }
    }
    let root = solved
        .remove(&(size_a, size_d))
        .ok_or_else(|| unsolved(size_a, size_d))?;
    let exact = |n: BigInt| BigRational::new(n, root.denominator.clone());
    Ok(FightOdds {
        numbers,
        ends: root.ends.into_iter().map(|(e, n)| (e, exact(n))).collect(),
        first_round,
        expected_rounds: exact(root.rounds),
    })
}

/// A draw always leaves fewer models on both sides, so smaller fights are solved first: this
/// only fires if that stops being true.
fn unsolved(a: u32, d: u32) -> ResolveError {
    super::DATA.bad_data(format!(
        "close quarters: the fight {a} against {d} was not solved before it was needed"
    ))
}

/// The pools of a fight, as dice rolled at the table are given: the attackers' dice, then the
/// defenders' survivors', round after round.
const ATTACKERS_STRIKE: Named = ("attackers", "attackers strike");
const DEFENDERS_STRIKE: Named = ("defenders", "defenders strike back");
/// Every pool a fight asks for.
pub const FIGHT_POOLS: &[&str] = &[ATTACKERS_STRIKE.0, DEFENDERS_STRIKE.0];

/// One round as it was rolled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundRoll {
    pub attackers: u32,
    pub defenders: u32,
    /// Casualties the attackers caused, then the defenders.
    pub dead: u32,
    pub struck_back: u32,
}

/// A fight as it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FightRoll {
    pub seed: u64,
    pub numbers: FightNumbers,
    pub rolls: Vec<LabelledRoll>,
    pub rounds: Vec<RoundRoll>,
    pub end: FightEnd,
}

/// Rolls a fight round by round until one side wins.
///
/// # Errors
/// As [`CloseQuarters::numbers`]; [`ResolveError::NoResult`] after [`MAX_ROUNDS`] rounds of
/// draws; [`ResolveError::Dice`] if the roller refuses.
pub fn roll_fight(fight: &CloseQuarters, roller: &mut Roller) -> Result<FightRoll, ResolveError> {
    let numbers = fight.numbers()?;
    let seed = roller.seed();
    let mut log = RollLog {
        roller,
        rolls: Vec::new(),
    };
    let per = numbers.attacks_per_model;
    let (mut a, mut d) = (fight.attackers.models, fight.defenders.models);
    let mut rounds = Vec::new();
    while rounds.len() < MAX_ROUNDS as usize {
        let strikes = log.d6(ATTACKERS_STRIKE, a * per)?;
        let dead = count_at_least(&strikes, numbers.attackers_need).min(d);
        let back = log.d6(DEFENDERS_STRIKE, (d - dead) * per)?;
        let struck_back = count_at_least(&back, numbers.defenders_need).min(a);
        rounds.push(RoundRoll {
            attackers: a,
            defenders: d,
            dead,
            struck_back,
        });
        match round_result(a, d, dead, struck_back) {
            Round::Over(end) => {
                return Ok(FightRoll {
                    seed,
                    numbers,
                    rolls: log.rolls,
                    rounds,
                    end,
                });
            }
            Round::Draw {
                attackers,
                defenders,
            } => (a, d) = (attackers, defenders),
        }
    }
    Err(ResolveError::NoResult(format!(
        "still a draw after {MAX_ROUNDS} rounds: roll again"
    )))
}

fn count_at_least(faces: &[u32], need: u8) -> u32 {
    faces.iter().filter(|&&f| f >= u32::from(need)).count() as u32
}

// ---------------------------------------------------------------------------------------
// Infantry assaulting a vehicle
// ---------------------------------------------------------------------------------------

/// Infantry assaulting a vehicle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VehicleAssault {
    /// Models in the assaulting unit.
    pub models: u32,
    /// The assaulting unit's order test, taken if the assault needs one.
    pub test: OrderTest,
    /// The unit carries anti-tank weapons.
    pub anti_tank: bool,
    pub vehicle: TargetProfile,
    pub motion: VehicleMotion,
    /// Pins already on the vehicle.
    pub vehicle_pins: u32,
    pub already_immobilised: bool,
}

/// The fixed numbers of an assault on a vehicle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct AssaultNumbers {
    /// The d6 each model needs to hit.
    pub hit_need: u8,
    /// Whether the unit must pass an order test at the sheet's modifier first.
    pub order_test: bool,
    /// A damaged vehicle is destroyed outright (soft-skinned or open-topped).
    pub destroyed_if_damaged: bool,
    /// Damage results are superficial (d6 − 3): no anti-tank weapons.
    pub superficial: bool,
}

/// How an assault on a vehicle ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "end", rename_all = "snake_case")]
pub enum AssaultEnd {
    /// The order test failed: the unit goes down instead.
    TestFailed,
    /// A double six on the order test.
    Fubar { friendly_fire: bool },
    /// No hit, or the damage roll fell short.
    NoDamage,
    /// An enclosed vehicle's damage result, applied: its lasting state.
    Damaged(VehicleFate),
    /// A soft-skinned or open-topped vehicle damaged: destroyed.
    Destroyed,
}

impl AssaultEnd {
    pub fn words(&self) -> String {
        match self {
            AssaultEnd::TestFailed => "order test failed".into(),
            AssaultEnd::Fubar { friendly_fire } => format!(
                "FUBAR: {}",
                if *friendly_fire {
                    "Friendly Fire"
                } else {
                    "Panic"
                }
            ),
            AssaultEnd::NoDamage => "no damage".into(),
            AssaultEnd::Destroyed => "destroyed".into(),
            AssaultEnd::Damaged(fate) => fate.words().to_string(),
        }
    }

    /// The vehicle is destroyed or knocked out.
    pub fn vehicle_lost(&self) -> bool {
        match self {
            AssaultEnd::Destroyed => true,
            AssaultEnd::Damaged(fate) => fate.is_knocked_out(),
            _ => false,
        }
    }
}

impl VehicleAssault {
    /// Works out the assault's fixed numbers; a vehicle that ran is no result.
    ///
    /// # Errors
    /// [`ResolveError::NoResult`] when the vehicle ran; [`ResolveError::Invalid`] for no
    /// models.
    pub fn numbers(&self) -> Result<AssaultNumbers, ResolveError> {
        let rules = rules()?;
        if self.models == 0 || self.models > MAX_MODELS {
            return Err(ResolveError::invalid(
                "models",
                format!(
                    "{} models: a unit brings 1 to {MAX_MODELS} models",
                    self.models
                ),
            ));
        }
        let hit_need = match self.motion {
            VehicleMotion::Still => rules.vehicle_hit_need.still,
            VehicleMotion::Advanced => rules.vehicle_hit_need.advanced,
            VehicleMotion::Ran => {
                return Err(ResolveError::NoResult(
                    "a vehicle that ran this turn cannot be assaulted (unless it was immobilised or brought to a halt: then it stood still)".into(),
                ));
            }
        };
        let enclosed = self.vehicle.armoured && !self.vehicle.open_topped;
        Ok(AssaultNumbers {
            hit_need,
            order_test: enclosed && !self.anti_tank,
            destroyed_if_damaged: !enclosed,
            superficial: !self.anti_tank,
        })
    }

    /// The order test it takes, with the sheet's modifier, when it needs one.
    fn order_test(&self) -> Result<OrderTest, ResolveError> {
        Ok(OrderTest {
            modifier: self.test.modifier + i32::from(rules()?.no_anti_tank_order_modifier),
            ..self.test.clone()
        })
    }

    fn start(&self) -> VehicleAfter {
        VehicleAfter::new(
            self.vehicle.morale,
            self.vehicle_pins,
            self.already_immobilised,
        )
    }
}

/// What one damage result is, by d6 face, for an assault (full or superficial).
fn assault_result(t: &Tables, superficial: bool, face: u32) -> Result<DamageEffect, ResolveError> {
    let shift = if superficial { -3 } else { 0 };
    super::resolve::damage_effect(t, i32::try_from(face).unwrap_or(6) + shift)
}

/// Exact odds of an assault on a vehicle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssaultOdds {
    pub numbers: AssaultNumbers,
    /// The order test's target number, when one is taken.
    pub test_target: Option<i32>,
    pub hits: Dist<u32>,
    pub ends: Dist<AssaultEnd>,
}

impl AssaultOdds {
    pub fn p_vehicle_lost(&self) -> f64 {
        self.ends.probability_where(AssaultEnd::vehicle_lost)
    }
}

/// Exact odds of an assault on a vehicle.
///
/// # Errors
/// As [`VehicleAssault::numbers`] and [`OrderTest::target`].
pub fn assault_odds(assault: &VehicleAssault) -> Result<AssaultOdds, ResolveError> {
    let t = tables()?;
    let numbers = assault.numbers()?;
    let need = u32::from(numbers.hit_need);
    let hits = reduced(&d6().count_where(assault.models, |&f| f >= need)?)?;
    let effects = (1..=6)
        .map(|face| assault_result(t, numbers.superficial, face))
        .collect::<Result<Vec<_>, _>>()?;
    let per_result = d6().map(|&f| effects[f as usize - 1]);
    let damage_value = u32::from(assault.vehicle.damage_value);
    let once_in = mixture(&hits, |&h| {
        if h == 0 {
            return Ok(Dist::certain(AssaultEnd::NoDamage));
        }
        let damaged = d6().map(|&f| f + h >= damage_value);
        mixture(&damaged, |&damaged| {
            match (damaged, numbers.destroyed_if_damaged) {
                (false, _) => Ok(Dist::certain(AssaultEnd::NoDamage)),
                (true, true) => Ok(Dist::certain(AssaultEnd::Destroyed)),
                (true, false) => Ok(after_results_odds(assault.start(), &per_result, 1)?
                    .map(|v| AssaultEnd::Damaged(v.fate()))),
            }
        })
    })?;
    let (test_target, ends) = if numbers.order_test {
        let test = order_test_odds(&assault.order_test()?)?;
        let ends = mixture(&test.outcome, |result| match result {
            OrderResult::Passed => Ok(once_in.clone()),
            OrderResult::Failed => Ok(Dist::certain(AssaultEnd::TestFailed)),
            OrderResult::Fubar { result } => Ok(Dist::certain(AssaultEnd::Fubar {
                friendly_fire: result == "Friendly Fire",
            })),
        })?;
        (Some(test.target), ends)
    } else {
        (None, once_in)
    };
    Ok(AssaultOdds {
        numbers,
        test_target,
        hits,
        ends,
    })
}

/// The pools of an assault on a vehicle after its order test ("order", "fubar").
const ASSAULT_HITS: Named = ("to_hit", "to hit");
const ASSAULT_DAMAGE: Named = ("damage", "damage (d6 + hits)");
/// Named as shooting names its damage results: one pool name per meaning (it was
/// "damage_result" before revision 2 of the Bolt Action rulings).
const ASSAULT_RESULT: Named = ("damage_results", "damage result");
/// Every pool an assault on a vehicle asks for.
pub const ASSAULT_POOLS: &[&str] = &[
    "order",
    "fubar",
    ASSAULT_HITS.0,
    ASSAULT_DAMAGE.0,
    ASSAULT_RESULT.0,
    FIRE_CHECK.0,
];

/// An assault on a vehicle as it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AssaultRoll {
    pub seed: u64,
    pub numbers: AssaultNumbers,
    pub test: Option<OrderTestRoll>,
    pub rolls: Vec<LabelledRoll>,
    pub hits: u32,
    /// The damage roll's total (d6 + hits), when rolled.
    pub damage_total: Option<u32>,
    pub end: AssaultEnd,
    /// An enclosed vehicle after its damage result.
    pub vehicle: Option<VehicleAfter>,
}

/// Rolls an assault on a vehicle.
///
/// # Errors
/// As [`assault_odds`], or [`ResolveError::Dice`] if the roller refuses.
pub fn roll_assault(
    assault: &VehicleAssault,
    roller: &mut Roller,
) -> Result<AssaultRoll, ResolveError> {
    let t = tables()?;
    let numbers = assault.numbers()?;
    let seed = roller.seed();
    let test = if numbers.order_test {
        Some(roll_order_test(&assault.order_test()?, roller)?)
    } else {
        None
    };
    let mut log = RollLog {
        roller,
        rolls: Vec::new(),
    };
    let finish = |log: RollLog, hits, damage_total, end, vehicle| AssaultRoll {
        seed,
        numbers,
        test: test.clone(),
        rolls: log.rolls,
        hits,
        damage_total,
        end,
        vehicle,
    };
    match test.as_ref().map(|t| &t.outcome) {
        Some(OrderResult::Failed) => {
            return Ok(finish(log, 0, None, AssaultEnd::TestFailed, None));
        }
        Some(OrderResult::Fubar { result }) => {
            let end = AssaultEnd::Fubar {
                friendly_fire: result == "Friendly Fire",
            };
            return Ok(finish(log, 0, None, end, None));
        }
        _ => {}
    }
    let hits = count_at_least(&log.d6(ASSAULT_HITS, assault.models)?, numbers.hit_need);
    if hits == 0 {
        return Ok(finish(log, 0, None, AssaultEnd::NoDamage, None));
    }
    let total = log.d6(ASSAULT_DAMAGE, 1)?.iter().sum::<u32>() + hits;
    if total < u32::from(assault.vehicle.damage_value) {
        return Ok(finish(log, hits, Some(total), AssaultEnd::NoDamage, None));
    }
    if numbers.destroyed_if_damaged {
        return Ok(finish(log, hits, Some(total), AssaultEnd::Destroyed, None));
    }
    let face = log.d6(ASSAULT_RESULT, 1)?.iter().sum();
    let effect = assault_result(t, numbers.superficial, face)?;
    let (after, _) = log.apply_results(assault.start(), &[effect])?;
    let end = AssaultEnd::Damaged(after.fate());
    Ok(finish(log, hits, Some(total), end, Some(after)))
}

// ---------------------------------------------------------------------------------------
// Exact rationals as report weights
// ---------------------------------------------------------------------------------------

/// Exact chances as integer weights over one total: exact when the common denominator fits
/// in 128 bits (the `bool` is true), otherwise rounded onto 2^64 by largest remainder (the
/// values then agree with the exact ones to 19 decimal places).
pub fn as_weights(chances: &[BigRational]) -> (Vec<u128>, u128, bool) {
    let lcm = chances
        .iter()
        .fold(BigInt::one(), |l, p| num_integer::lcm(l, p.denom().clone()));
    if let Some(total) = lcm.to_u128() {
        let weights: Option<Vec<u128>> = chances
            .iter()
            .map(|p| (p * BigRational::from(lcm.clone())).to_integer().to_u128())
            .collect();
        if let Some(weights) = weights {
            return (weights, total, true);
        }
    }
    let total = 1u128 << 64;
    let scaled: Vec<BigRational> = chances
        .iter()
        .map(|p| p * BigRational::from(BigInt::from(total)))
        .collect();
    let mut weights: Vec<u128> = scaled
        .iter()
        .map(|s| s.floor().to_integer().to_u128().unwrap_or(0))
        .collect();
    let short = total.saturating_sub(weights.iter().sum());
    let mut by_remainder: Vec<usize> = (0..scaled.len()).collect();
    by_remainder.sort_by(|&i, &j| scaled[j].fract().cmp(&scaled[i].fract()));
    for &i in by_remainder.iter().take(short as usize) {
        weights[i] += 1;
    }
    (weights, total, false)
}

/// An exact chance as `f64`.
pub fn chance(p: &BigRational) -> f64 {
    p.to_f64().unwrap_or(0.0)
}

pub mod mechanics;

#[cfg(test)]
mod tests;
