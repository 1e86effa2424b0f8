//! Bolt Action resolution from the reference sheets: order tests with FUBAR, shooting
//! (shots, to hit, damage, HE), and damage results on armoured targets.
//!
//! Odds are exact distributions from the dice core; rolls take a [`Roller`] and return every
//! die with the seed. The numbers (morale, officer bonuses, hit and penetration modifiers,
//! damage values, the weapons and HE charts, the FUBAR and damage results tables) come from
//! the seed data through [`super::tables`].
//!
//! Readings (see RULINGS.md): a modified need of 7+ is a 6 followed by a 4+, 8+ a 6 then a
//! 5+, 9+ a 6 then a 6, and 10+ cannot hit; a weapon whose PEN is "HE" always fires HE, one
//! shell per firer; a weapon with no PEN damages armour only on a natural 6, superficially;
//! exact odds too large for integer weights become a seeded estimate; HE hits on
//! non-armoured targets become the HE value's number of hits, each at the HE chart's
//! penetration, and a unit hit takes the HE chart's pins instead of one; a vehicle's second
//! Immobilised result knocks it out.

use serde::{Deserialize, Serialize};

use super::tables::{Quality, Tables, Weapon};
use super::vehicle_damage::{MoraleCheck, VehicleAfter, VehicleFate, after_results_odds};
use super::{Category, UnitProfile};
use crate::rules::dice::{DiceError, Dist, RollRecord, Roller, d6, die, seed_from};

pub use crate::rules::resolution::ResolveError;

fn tables() -> Result<&'static Tables, ResolveError> {
    super::DATA.for_resolution(|d| d)
}

/// One roll with what it was for ("to hit", "damage"), so a log reads like the table; the
/// record names its pool ("to_hit"), which dice rolled at the table fill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LabelledRoll {
    pub label: &'static str,
    pub record: RollRecord,
}

// ---------------------------------------------------------------------------------------
// Dice expressions ("1", "D3", "2D6")
// ---------------------------------------------------------------------------------------

/// A number of dice as the charts print it: a fixed number or `nDs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceExpr {
    Fixed(u32),
    Dice { count: u32, sides: u8 },
}

impl DiceExpr {
    /// Parses "3", "D6", "2D6" (any case).
    ///
    /// # Errors
    /// [`ResolveError::BadData`] for anything else.
    pub fn parse(text: &str) -> Result<Self, ResolveError> {
        let text = text.trim().to_ascii_uppercase();
        let bad = || super::DATA.bad_data(format!("'{text}' is not a number or dice like 2D6"));
        match text.split_once('D') {
            None => text.parse().map(DiceExpr::Fixed).map_err(|_| bad()),
            Some((count, sides)) => {
                let count = if count.is_empty() {
                    1
                } else {
                    count.parse().map_err(|_| bad())?
                };
                let sides: u8 = sides.parse().map_err(|_| bad())?;
                if sides == 0 {
                    return Err(bad());
                }
                Ok(DiceExpr::Dice { count, sides })
            }
        }
    }

    /// As the charts print it: "3", "D6", "2D6".
    pub fn label(self) -> String {
        match self {
            DiceExpr::Fixed(n) => n.to_string(),
            DiceExpr::Dice { count: 1, sides } => format!("D{sides}"),
            DiceExpr::Dice { count, sides } => format!("{count}D{sides}"),
        }
    }

    /// The exact distribution of the total.
    ///
    /// # Errors
    /// [`ResolveError::Dice`] for too many dice.
    pub fn dist(self) -> Result<Dist<u32>, ResolveError> {
        Ok(match self {
            DiceExpr::Fixed(n) => Dist::certain(n),
            DiceExpr::Dice { count, sides } => die(u32::from(sides))?.sum_of(count)?,
        })
    }
}

/// Divides all weights and the total by their common factor: same odds, smaller numbers, so
/// more dice fit in `u128` when the distribution is repeated.
pub(super) fn reduced<K: Ord + Clone>(dist: &Dist<K>) -> Result<Dist<K>, ResolveError> {
    let g = dist.iter().fold(dist.total(), |g, (_, w)| gcd(g, w));
    let g = g.max(1);
    Ok(Dist::from_weights(
        dist.iter().map(|(k, w)| (k.clone(), w / g)),
    )?)
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The mixture "roll `count`, then the distribution `each(count)`", over one common total.
pub(super) fn mixture<C: Ord, K: Ord + Clone>(
    count: &Dist<C>,
    mut each: impl FnMut(&C) -> Result<Dist<K>, ResolveError>,
) -> Result<Dist<K>, ResolveError> {
    let parts: Vec<(u128, Dist<K>)> = count
        .iter()
        .map(|(n, w)| Ok((w, each(n)?)))
        .collect::<Result<_, ResolveError>>()?;
    let common = parts.iter().try_fold(1u128, |l, (_, d)| {
        let t = d.total();
        (l / gcd(l, t)).checked_mul(t)
    });
    let common = common.ok_or(DiceError::WeightOverflow)?;
    let mut weights = Vec::new();
    for (w, d) in &parts {
        let scale = w
            .checked_mul(common / d.total())
            .ok_or(DiceError::WeightOverflow)?;
        for (k, dw) in d.iter() {
            weights.push((
                k.clone(),
                dw.checked_mul(scale).ok_or(DiceError::WeightOverflow)?,
            ));
        }
    }
    reduced(&Dist::from_weights(weights)?)
}

// ---------------------------------------------------------------------------------------
// Order tests
// ---------------------------------------------------------------------------------------

/// An order test: the unit's quality, its pins and the best officer bonus it may use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderTest {
    pub quality: Quality,
    pub pins: u32,
    /// The officer's rank id ("captain"), if one lends his morale bonus.
    pub officer: Option<String>,
    /// Added to the target number (−3 to assault an enclosed armoured vehicle without
    /// anti-tank weapons).
    #[serde(default)]
    pub modifier: i32,
}

/// How an order test ends.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OrderResult {
    Passed,
    Failed,
    /// Double six: the order fails and the FUBAR chart gives this result.
    Fubar {
        result: String,
    },
}

/// Exact odds of an order test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderTestOdds {
    /// Pass on 2d6 at or under this (morale − pins + officer bonus).
    pub target: i32,
    /// Total 216: the two dice and the FUBAR d6.
    pub outcome: Dist<OrderResult>,
}

impl OrderTestOdds {
    pub fn p_pass(&self) -> f64 {
        self.outcome.probability(&OrderResult::Passed)
    }

    pub fn p_fubar(&self) -> f64 {
        self.outcome
            .probability_where(|o| matches!(o, OrderResult::Fubar { .. }))
    }

    /// The FUBAR chart's results, given a FUBAR.
    pub fn fubar_results(&self) -> Dist<String> {
        let fubar: Vec<(String, u128)> = self
            .outcome
            .iter()
            .filter_map(|(o, w)| match o {
                OrderResult::Fubar { result } => Some((result.clone(), w)),
                _ => None,
            })
            .collect();
        Dist::from_weights(fubar).unwrap_or_else(|_| Dist::certain(String::new()))
    }
}

impl OrderTest {
    /// The number to roll at or under: morale − pins + officer bonus + modifier.
    ///
    /// # Errors
    /// [`ResolveError::Invalid`] for an officer rank the sheet does not list.
    pub fn target(&self) -> Result<i32, ResolveError> {
        let t = tables()?;
        let morale = morale_of(self.quality)?;
        let bonus = match &self.officer {
            None => 0,
            Some(rank) => t.officer_bonus(rank).ok_or_else(|| {
                let known: Vec<&str> = t.officers.iter().map(|o| o.rank.as_str()).collect();
                ResolveError::invalid(
                    "officer",
                    format!("'{rank}' is not a rank on the sheet ({})", known.join(", ")),
                )
            })?,
        };
        let pins = i32::try_from(self.pins).unwrap_or(i32::MAX);
        Ok(i32::from(morale) - pins + i32::from(bonus) + self.modifier)
    }
}

/// The FUBAR chart's result for a d6.
fn fubar_result(t: &Tables, roll: u8) -> Result<String, ResolveError> {
    t.fubar(i32::from(roll))
        .map(|row| row.result.clone())
        .ok_or_else(|| super::DATA.bad_data(format!("no FUBAR row for a roll of {roll}")))
}

/// How two dice read against `target`, with the FUBAR result if they are a double six.
fn order_result(a: u32, b: u32, target: i32, fubar: &str) -> OrderResult {
    if a == 6 && b == 6 {
        OrderResult::Fubar {
            result: fubar.to_string(),
        }
    } else if i64::from(a + b) <= i64::from(target) {
        OrderResult::Passed
    } else {
        OrderResult::Failed
    }
}

/// Exact odds of an order test.
///
/// # Errors
/// As [`OrderTest::target`].
pub fn order_test_odds(test: &OrderTest) -> Result<OrderTestOdds, ResolveError> {
    let t = tables()?;
    let target = test.target()?;
    let fubar_names: Vec<String> = (1..=6)
        .map(|r| fubar_result(t, r))
        .collect::<Result<_, _>>()?;
    let two = d6().combine(&d6(), |&a, &b| (a, b))?;
    let outcome = two.combine(&d6(), |&(a, b), &f| {
        order_result(a, b, target, &fubar_names[f as usize - 1])
    })?;
    Ok(OrderTestOdds { target, outcome })
}

/// An order test as it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OrderTestRoll {
    pub seed: u64,
    pub target: i32,
    /// The two d6.
    pub dice: RollRecord,
    pub total: u32,
    /// The FUBAR chart's d6, after a double six.
    pub fubar_die: Option<RollRecord>,
    pub outcome: OrderResult,
}

/// Rolls an order test.
///
/// # Errors
/// As [`OrderTest::target`], or [`ResolveError::Dice`] if the roller refuses.
pub fn roll_order_test(
    test: &OrderTest,
    roller: &mut Roller,
) -> Result<OrderTestRoll, ResolveError> {
    let t = tables()?;
    let target = test.target()?;
    let seed = roller.seed();
    let dice = roller.roll_d6("order", 2)?;
    let face = |i: usize| u32::from(dice.dice.get(i).copied().unwrap_or(1));
    let (a, b) = (face(0), face(1));
    let mut fubar_die = None;
    let mut fubar = String::new();
    if a == 6 && b == 6 {
        let record = roller.roll_d6("fubar", 1)?;
        fubar = fubar_result(t, record.dice.first().copied().unwrap_or(1))?;
        fubar_die = Some(record);
    }
    Ok(OrderTestRoll {
        seed,
        target,
        total: a + b,
        outcome: order_result(a, b, target, &fubar),
        dice,
        fubar_die,
    })
}

// ---------------------------------------------------------------------------------------
// Shooting
// ---------------------------------------------------------------------------------------

/// The sheet's hit modifiers that apply to one shooting attack.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HitModifiers {
    pub point_blank: bool,
    /// Pin markers on the firer (−1 each).
    pub pins: u32,
    /// Long range: −1 to hit, and −1 penetration for heavy weapons against armour.
    pub long_range: bool,
    pub inexperienced: bool,
    pub on_the_move: bool,
    /// The target is down infantry or artillery.
    pub target_down: bool,
    pub small_unit: bool,
    pub soft_cover: bool,
    pub hard_cover: bool,
}

impl HitModifiers {
    /// The sum of the modifiers that apply, read from the sheet's table.
    fn total(&self, t: &Tables) -> Result<i32, ResolveError> {
        let value = |id: &str| {
            t.hit
                .modifiers
                .iter()
                .find(|m| m.id == id)
                .map(|m| i32::from(m.value))
                .ok_or_else(|| super::DATA.bad_data(format!("no hit modifier '{id}'")))
        };
        let flags = [
            (self.point_blank, "point_blank"),
            (self.long_range, "long_range"),
            (self.inexperienced, "inexperienced"),
            (self.on_the_move, "on_the_move"),
            (self.target_down, "target_down"),
            (self.small_unit, "small_unit"),
            (self.soft_cover, "soft_cover"),
            (self.hard_cover, "hard_cover"),
        ];
        let mut total = 0i32;
        for (set, id) in flags {
            if set {
                total += value(id)?;
            }
        }
        if self.pins > 0 {
            let pins = i32::try_from(self.pins).unwrap_or(i32::MAX);
            total = total.saturating_add(value("per_pin")?.saturating_mul(pins));
        }
        Ok(total)
    }
}

/// The d6 a shot needs: 3+ minus the modifiers. 7+ to 9+ mean a 6 and then a follow-up
/// ([`follow_up_need`]); 10+ cannot hit; a natural 1 always misses.
///
/// # Errors
/// [`ResolveError::NoData`] / [`ResolveError::BadData`] for missing tables.
pub fn hit_need(modifiers: &HitModifiers) -> Result<i32, ResolveError> {
    let t = tables()?;
    Ok(i32::from(t.hit.base) - modifiers.total(t)?)
}

/// Whether a to-hit d6 hits outright, needs a follow-up, or misses.
fn first_die_hits(face: u32, need: i32) -> bool {
    face != 1 && i64::from(face) >= i64::from(need)
}

/// The follow-up die after a 6 for a modified need past 6+: 7+ → the sheet's 4+, 8+ → 5+,
/// 9+ → 6; `None` for 10+ or more, which cannot hit (RULINGS "To hit").
///
/// # Errors
/// [`ResolveError::NoData`] for missing tables.
pub fn follow_up_need(need: i32) -> Result<Option<u32>, ResolveError> {
    let seven = i32::from(tables()?.hit.seven_plus_follow_up);
    let follow_up = seven + (need - 7);
    Ok(u32::try_from(follow_up).ok().filter(|&f| f <= 6))
}

/// Exact odds that one shot hits (total 6, or 36 when a follow-up die is needed).
///
/// # Errors
/// As [`hit_need`].
pub fn hit_odds(need: i32) -> Result<Dist<bool>, ResolveError> {
    if need <= 6 {
        return Ok(d6().map(|&f| first_die_hits(f, need)));
    }
    match follow_up_need(need)? {
        Some(follow_up) => Ok(d6().combine(&d6(), |&a, &b| a == 6 && b >= follow_up)?),
        None => Ok(d6().map(|_| false)),
    }
}

/// Which armour a shot strikes (penetration modifiers for heavy weapons against armour).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Facing {
    #[default]
    Front,
    SideOrTop,
    Rear,
}

/// What the attack needs to know about its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetProfile {
    /// d6 + PEN must reach this.
    pub damage_value: u8,
    /// Rolled on the damage results table for armoured targets.
    pub armoured: bool,
    pub open_topped: bool,
    /// Its morale (by quality), for a vehicle's On Fire check.
    pub morale: u8,
}

impl TargetProfile {
    /// The profile of a library or force unit.
    ///
    /// # Errors
    /// [`ResolveError::BadData`] when the damage value table has no row for the unit.
    pub fn of(unit: &UnitProfile) -> Result<Self, ResolveError> {
        let damage_value = unit.damage_value().ok_or_else(|| {
            super::DATA.bad_data(format!("no damage value for {}", unit.category.label()))
        })?;
        Ok(Self {
            damage_value,
            armoured: unit.category.is_armoured(),
            open_topped: unit.open_topped,
            morale: morale_of(unit.quality)?,
        })
    }

    /// A target of `category` and `quality`, from the damage value table.
    ///
    /// # Errors
    /// [`ResolveError::BadData`] when the table has no row.
    pub fn of_category(category: Category, quality: Quality) -> Result<Self, ResolveError> {
        let row = category.damage_row(quality);
        let damage_value = tables()?
            .damage_value(row)
            .ok_or_else(|| super::DATA.bad_data(format!("no damage value '{row}'")))?;
        Ok(Self {
            damage_value,
            armoured: category.is_armoured(),
            open_topped: false,
            morale: morale_of(quality)?,
        })
    }
}

/// Morale by troop quality, from the sheet's table.
///
/// # Errors
/// [`ResolveError::BadData`] when the table has no row for `quality`.
pub fn morale_of(quality: Quality) -> Result<u8, ResolveError> {
    tables()?
        .morale(quality)
        .ok_or_else(|| super::DATA.bad_data(format!("no morale for {quality:?}")))
}

/// One shooting attack: a weapon fired by some models at one target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attack<'a> {
    pub weapon: &'a Weapon,
    /// Models firing this weapon (each rolls its shots).
    pub firers: u32,
    /// Fire high explosive (the weapon must have an HE value).
    pub high_explosive: bool,
    pub hit: HitModifiers,
    pub target: TargetProfile,
    pub facing: Facing,
    /// The user marks Massive Damage: two results per damaging hit.
    pub massive_damage: bool,
    /// Fired indirectly (+1 on the damage result against open-topped vehicles).
    pub indirect: bool,
    /// The vehicle is already immobilised (another Immobilised knocks it out).
    pub already_immobilised: bool,
    /// Pins already on the target (they count against a vehicle's On Fire check).
    pub target_pins: u32,
}

impl<'a> Attack<'a> {
    /// One model firing `weapon` at `target` with no modifiers, indirect when the weapon is
    /// an indirect-fire weapon, high explosive when HE is all it fires.
    pub fn new(weapon: &'a Weapon, target: TargetProfile) -> Self {
        Self {
            weapon,
            firers: 1,
            high_explosive: fires_only_he(weapon),
            hit: HitModifiers::default(),
            target,
            facing: Facing::Front,
            massive_damage: false,
            indirect: weapon.special.iter().any(|s| s == "Indirect fire"),
            already_immobilised: false,
            target_pins: 0,
        }
    }
}

/// A weapon whose PEN is "HE" (mortars, howitzers) always fires HE (RULINGS "Damage").
pub fn fires_only_he(weapon: &Weapon) -> bool {
    weapon.pen.is_none() && weapon.he.is_some()
}

/// Where an attack starts on its target: fresh, or as the firing unit's earlier weapons left
/// it when the unit fires as a whole (RULINGS "Board battles", Bolt Action shooting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Before {
    /// Pins the unit's fire has already put on the target with its earlier weapons: this
    /// attack's hits add only what goes beyond them (a unit's fire pins its target once, the
    /// HE chart's pins where they are more).
    pub pinned: u32,
    /// An armoured target as it stands before this attack (its pins, immobilised, halted or
    /// knocked out by an earlier weapon).
    pub vehicle: VehicleAfter,
    /// Every hit pins an armoured target, as the shooting mechanic always counted; `false`:
    /// only a hit from a weapon that could damage it (a PEN value, or HE) does (RULINGS
    /// "Board battles", a house default), the damage results adding their own pins.
    pub any_hit_pins_armour: bool,
}

impl Before {
    /// The attack on its own: nothing pinned yet, the vehicle as the inputs describe it.
    pub fn fresh(attack: &Attack<'_>) -> Self {
        Before {
            pinned: 0,
            vehicle: vehicle_before(attack, 0),
            any_hit_pins_armour: true,
        }
    }

    /// The pins a hit adds when the hit's own pin roll shows `rolled`.
    fn hit_pins(&self, attack: &Attack<'_>, numbers: &AttackNumbers, rolled: u32) -> u32 {
        let harmless = attack.target.armoured && numbers.natural_six_to_damage;
        if harmless && !self.any_hit_pins_armour {
            return 0;
        }
        rolled.saturating_sub(self.pinned)
    }

    /// The vehicle once a hit's `pins` are on it.
    fn vehicle_with(&self, pins: u32) -> VehicleAfter {
        VehicleAfter {
            pins: self.vehicle.pins.saturating_add(pins),
            ..self.vehicle
        }
    }
}

/// What one attack did, all of it together: the joint outcome a unit's next weapon starts
/// from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AttackOutcome {
    pub tally: AttackTally,
    /// Pins its hits added (beyond what [`Before::pinned`] had given).
    pub hit_pins: u32,
    /// Every pin it added: its hits' and its damage results'.
    pub pins: u32,
    /// An armoured target after it.
    pub vehicle: Option<VehicleAfter>,
}

/// A damage result on an armoured target, worst last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DamageEffect {
    CrewStunned,
    Immobilised,
    OnFire,
    KnockedOut,
}

impl DamageEffect {
    /// Reads a damage results row's name.
    fn from_result(name: &str) -> Result<Self, ResolveError> {
        match name {
            "Crew Stunned" => Ok(DamageEffect::CrewStunned),
            "Immobilised" => Ok(DamageEffect::Immobilised),
            "On Fire" => Ok(DamageEffect::OnFire),
            "Knocked Out" => Ok(DamageEffect::KnockedOut),
            other => {
                Err(super::DATA
                    .bad_data(format!("damage result '{other}' is not one the rules know")))
            }
        }
    }

    /// The sheet's name for it.
    pub fn label(self) -> &'static str {
        match self {
            DamageEffect::CrewStunned => "Crew Stunned",
            DamageEffect::Immobilised => "Immobilised",
            DamageEffect::OnFire => "On Fire",
            DamageEffect::KnockedOut => "Knocked Out",
        }
    }
}

/// What one damaging hit does to a vehicle: one result, or two under Massive Damage (the
/// worse one first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct VehicleDamage {
    pub first: DamageEffect,
    pub second: Option<DamageEffect>,
}

/// The fixed numbers of an attack, worked out once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct AttackNumbers {
    /// Shots per firer as charted.
    pub shots: DiceExpr,
    pub need: i32,
    /// The follow-up die after a 6 when `need` is past 6+; `None` otherwise (and for 10+).
    pub follow_up: Option<u32>,
    /// High explosive: asked for, or all the weapon fires.
    pub high_explosive: bool,
    /// Penetration after HE and the vehicle modifiers.
    pub pen: i32,
    /// HE hits per hit on a non-armoured target (None: one hit).
    pub he_hits: Option<DiceExpr>,
    /// Pins on a unit that is hit.
    pub pins: DiceExpr,
    /// Superficial (d6−3) rather than full (d6) damage results.
    pub superficial: bool,
    /// A weapon with no PEN against armour: only a natural 6 to damage counts.
    pub natural_six_to_damage: bool,
    /// Added to damage result rolls (open-topped hit by indirect fire).
    pub result_bonus: i32,
}

impl Attack<'_> {
    /// Works out the attack's fixed numbers from the sheets.
    ///
    /// # Errors
    /// [`ResolveError::Invalid`] for no firers or HE from a weapon without an HE value.
    pub fn numbers(&self) -> Result<AttackNumbers, ResolveError> {
        let t = tables()?;
        if self.firers == 0 {
            return Err(ResolveError::invalid(
                "firers",
                "0 models firing: at least 1 must fire",
            ));
        }
        let he = if self.high_explosive || fires_only_he(self.weapon) {
            let size = self.weapon.he.as_deref().ok_or_else(|| {
                ResolveError::invalid(
                    "he",
                    format!("{} has no HE value on the chart", self.weapon.name),
                )
            })?;
            let row = t
                .he(size)
                .ok_or_else(|| super::DATA.bad_data(format!("no HE chart row for {size}")))?;
            Some((DiceExpr::parse(size)?, row))
        } else {
            None
        };
        let base_pen = match (he, self.weapon.pen) {
            (Some((_, row)), _) => Some(row.pen),
            (None, pen) => pen,
        };
        let mut pen = i32::from(base_pen.unwrap_or(0));
        if self.target.armoured && self.weapon.class == "heavy" {
            pen += self.pen_modifiers(t)?;
        }
        let need = hit_need(&self.hit)?;
        Ok(AttackNumbers {
            // HE is one shell per firer; Shots count for armour-piercing fire only.
            shots: match he {
                Some(_) => DiceExpr::Fixed(1),
                None => DiceExpr::parse(&self.weapon.shots)?,
            },
            need,
            follow_up: if need > 6 {
                follow_up_need(need)?
            } else {
                None
            },
            high_explosive: he.is_some(),
            pen,
            he_hits: match he {
                Some((size, _)) if !self.target.armoured => Some(size),
                _ => None,
            },
            pins: match he {
                Some((_, row)) => DiceExpr::parse(&row.pins)?,
                None => DiceExpr::Fixed(1),
            },
            superficial: base_pen.is_none(),
            natural_six_to_damage: base_pen.is_none() && self.target.armoured,
            result_bonus: i32::from(self.target.open_topped && self.indirect),
        })
    }

    /// Side/top +1, rear +2, long range −1, from the sheet's table.
    fn pen_modifiers(&self, t: &Tables) -> Result<i32, ResolveError> {
        let value = |id: &str| {
            t.penetration_modifiers
                .iter()
                .find(|m| m.id == id)
                .map(|m| i32::from(m.value))
                .ok_or_else(|| super::DATA.bad_data(format!("no penetration modifier '{id}'")))
        };
        let facing = match self.facing {
            Facing::Front => 0,
            Facing::SideOrTop => value("side_or_top")?,
            Facing::Rear => value("rear")?,
        };
        let range = if self.hit.long_range {
            value("long_range")?
        } else {
            0
        };
        Ok(facing + range)
    }
}

impl AttackNumbers {
    /// The to-hit roll in words: "3+ (a 1 always misses)", "8+: a 6, then a 5+", "10+:
    /// cannot hit" — never a need below 2+, since a 1 always misses.
    pub fn to_hit_words(&self) -> String {
        match (self.need, self.follow_up) {
            (need, _) if need <= 6 => format!("{}+ (a 1 always misses)", need.max(2)),
            (need, Some(6)) => format!("{need}+: a 6, then another 6"),
            (need, Some(follow_up)) => format!("{need}+: a 6, then a {follow_up}+"),
            (need, None) => format!("{need}+: cannot hit"),
        }
    }

    /// The damage roll in words: "d6 + 2 ≥ 4", or only a natural 6 for no PEN against armour.
    pub fn damage_words(&self, damage_value: u8) -> String {
        if self.natural_six_to_damage {
            "a natural 6 only (no PEN against armour), superficial".to_string()
        } else {
            format!("d6 + {} ≥ {damage_value}", self.pen)
        }
    }

    /// "D6 shots each" or "1 HE shell each".
    pub fn shots_words(&self) -> String {
        let shots = self.shots.label();
        match (self.high_explosive, self.shots) {
            (true, DiceExpr::Fixed(1)) => "1 HE shell each".to_string(),
            (true, _) => format!("{shots} HE shells each"),
            (false, DiceExpr::Fixed(1)) => "1 shot each".to_string(),
            (false, _) => format!("{shots} shots each"),
        }
    }
}

impl Sampling {
    /// "estimate from 20000 seeded trials (seed 1): standard error at most 0.35 points".
    pub fn describe(self) -> String {
        format!(
            "estimate from {} seeded trials (seed {}): too many dice for exact odds; standard error at most {:.2} percentage points",
            self.trials,
            self.seed,
            self.std_error(0.5) * 100.0
        )
    }
}

/// The damage result for a (modified) roll, clamped into the table.
pub(super) fn damage_effect(t: &Tables, roll: i32) -> Result<DamageEffect, ResolveError> {
    let first = t.damage_results.first();
    let last = t.damage_results.last();
    let row = match (first, last) {
        (Some(first), _) if roll < first.from => first,
        (_, Some(last)) if roll > last.to => last,
        _ => t
            .damage_result(roll)
            .ok_or_else(|| super::DATA.bad_data(format!("no damage result for {roll}")))?,
    };
    DamageEffect::from_result(&row.result)
}

/// The damage result of one die of a damaging hit, by d6 face.
fn effect_for_face(
    t: &Tables,
    numbers: &AttackNumbers,
    face: u32,
) -> Result<DamageEffect, ResolveError> {
    let shift = if numbers.superficial { -3 } else { 0 };
    let roll = i32::try_from(face).unwrap_or(6) + shift + numbers.result_bonus;
    damage_effect(t, roll)
}

/// Exact odds of what one damaging hit does to an armoured target.
fn vehicle_damage_odds(
    t: &Tables,
    numbers: &AttackNumbers,
    massive: bool,
) -> Result<Dist<VehicleDamage>, ResolveError> {
    let effect = result_odds(t, numbers)?;
    if !massive {
        return Ok(effect.map(|&first| VehicleDamage {
            first,
            second: None,
        }));
    }
    Ok(effect.combine(&effect, |&a, &b| VehicleDamage {
        first: a.max(b),
        second: Some(a.min(b)),
    })?)
}

/// What a whole attack did, summed over its shots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize)]
pub struct AttackTally {
    /// Hits on the target (HE hits counted one by one on non-armoured targets).
    pub hits: u32,
    /// Hits that reached the damage value.
    pub damaging: u32,
}

impl AttackTally {
    pub(super) fn merge(&self, other: &AttackTally) -> AttackTally {
        AttackTally {
            hits: self.hits + other.hits,
            damaging: self.damaging + other.damaging,
        }
    }
}

/// Exact odds of one shooting attack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttackOdds {
    pub numbers: AttackNumbers,
    /// Total shots fired (all firers).
    pub shots: Dist<u32>,
    /// One shot's to-hit roll.
    pub hit: Dist<bool>,
    /// One hit's damage roll: d6 + PEN ≥ the damage value.
    pub damage_roll: Dist<bool>,
    /// What one damaging hit does to an armoured target (None otherwise).
    pub per_damaging_hit: Option<Dist<VehicleDamage>>,
    /// Hits and damaging hits over the whole attack.
    pub tally: Dist<AttackTally>,
    /// Pins the target takes: the hit's, and on a vehicle one per Crew Stunned, Immobilised
    /// or On Fire result.
    pub pins: Dist<u32>,
    /// An armoured target after the attack: its results applied in order, On Fire checks
    /// rolled (RULINGS "Damage results on vehicles"); None for other targets.
    pub vehicle: Option<Dist<VehicleAfter>>,
    /// Set when the attack had too many dice for exact weights: `tally`, `shots`, `pins` and
    /// `vehicle` then hold the counts of a seeded simulation (RULINGS "To hit": never an
    /// error).
    pub estimate: Option<Sampling>,
}

/// How an estimate was sampled: replayable from its seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Sampling {
    pub trials: u64,
    pub seed: u64,
}

impl Sampling {
    /// The standard error of a probability `p` estimated from these trials.
    pub fn std_error(self, p: f64) -> f64 {
        (p * (1.0 - p) / self.trials.max(1) as f64).sqrt()
    }
}

/// Trials of the estimate made when exact odds overflow: enough for a standard error under
/// half a percentage point, quick enough for the window. Its seed comes from the attack
/// ([`seed_from`]).
pub const ESTIMATE_TRIALS: u64 = 20_000;

impl AttackOdds {
    pub fn hits(&self) -> Dist<u32> {
        self.tally.map(|t| t.hits)
    }

    pub fn damaging_hits(&self) -> Dist<u32> {
        self.tally.map(|t| t.damaging)
    }

    /// The vehicle's lasting state after the attack; armoured targets only.
    pub fn vehicle_fate(&self) -> Option<Dist<VehicleFate>> {
        self.vehicle.as_ref().map(|v| v.map(VehicleAfter::fate))
    }

    /// P(the vehicle is knocked out by this attack), the crew abandoning it included.
    pub fn p_knocked_out(&self) -> f64 {
        self.vehicle.as_ref().map_or(0.0, |v| {
            v.probability_where(|after| after.knocked_out.is_some())
        })
    }
}

/// Whether a damage d6 face damages: d6 + PEN reaching the damage value, or only a natural 6
/// for a weapon with no PEN against armour.
fn damage_test(numbers: &AttackNumbers, damage_value: u8) -> impl Fn(&u32) -> bool + Copy {
    let (pen, six_only) = (numbers.pen, numbers.natural_six_to_damage);
    move |&face: &u32| {
        if six_only {
            face == 6
        } else {
            i64::from(face) + i64::from(pen) >= i64::from(damage_value)
        }
    }
}

/// Exact odds of one shooting attack, or a seeded estimate (marked in
/// [`AttackOdds::estimate`]) when the attack has too many dice for exact weights.
///
/// # Errors
/// As [`Attack::numbers`].
pub fn attack_odds(attack: &Attack<'_>) -> Result<AttackOdds, ResolveError> {
    match exact_attack_odds(attack) {
        Err(ResolveError::Dice(DiceError::WeightOverflow | DiceError::TooManyDice { .. })) => {
            estimated_attack_odds(attack)
        }
        odds => odds,
    }
}

/// [`attack_odds`] by simulation: the per-shot parts stay exact, the totals are counted from
/// [`ESTIMATE_TRIALS`] seeded rolls.
fn estimated_attack_odds(attack: &Attack<'_>) -> Result<AttackOdds, ResolveError> {
    let t = tables()?;
    let numbers = attack.numbers()?;
    let damages = damage_test(&numbers, attack.target.damage_value);
    let seed = seed_from(&format!("{attack:?}"));
    let mut roller = Roller::new(seed);
    let (mut tallies, mut shots, mut pins, mut vehicles) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ESTIMATE_TRIALS {
        let roll = roll_attack(attack, &mut roller)?;
        tallies.push((roll.tally, 1u128));
        shots.push((roll.shots, 1u128));
        pins.push((roll.pins, 1u128));
        if let Some(vehicle) = roll.vehicle {
            vehicles.push((vehicle, 1u128));
        }
    }
    Ok(AttackOdds {
        numbers,
        shots: Dist::from_weights(shots)?,
        hit: hit_odds(numbers.need)?,
        damage_roll: d6().map(damages),
        per_damaging_hit: if attack.target.armoured {
            Some(vehicle_damage_odds(t, &numbers, attack.massive_damage)?)
        } else {
            None
        },
        tally: Dist::from_weights(tallies)?,
        pins: Dist::from_weights(pins)?,
        vehicle: if attack.target.armoured {
            Some(Dist::from_weights(vehicles)?)
        } else {
            None
        },
        estimate: Some(Sampling {
            trials: ESTIMATE_TRIALS,
            seed,
        }),
    })
}

/// The vehicle before any damage result of this attack: its morale, its pins and whether it
/// is already immobilised.
fn vehicle_before(attack: &Attack<'_>, hit_pins: u32) -> VehicleAfter {
    VehicleAfter::new(
        attack.target.morale,
        attack.target_pins.saturating_add(hit_pins),
        attack.already_immobilised,
    )
}

/// The hits and damaging hits of a whole attack, summed over its shots (exact).
fn tally_odds(
    attack: &Attack<'_>,
    numbers: &AttackNumbers,
) -> Result<Dist<AttackTally>, ResolveError> {
    let hit = hit_odds(numbers.need)?;
    let damages = damage_test(numbers, attack.target.damage_value);
    let on_hit: Dist<AttackTally> = match numbers.he_hits {
        Some(he) if !attack.target.armoured => mixture(&he.dist()?, |&k| {
            Ok(d6()
                .count_where(k, damages)?
                .map(|&damaging| AttackTally { hits: k, damaging }))
        })?,
        _ => d6().map(damages).map(|&ok| AttackTally {
            hits: 1,
            damaging: u32::from(ok),
        }),
    };
    let shot =
        reduced(&hit.combine(
            &on_hit,
            |&hit, tally| {
                if hit { *tally } else { AttackTally::default() }
            },
        )?)?;
    let shots = numbers.shots.dist()?.sum_of(attack.firers)?;
    mixture(&shots, |&n| {
        Ok(shot.repeat(n, AttackTally::default(), |acc, s| acc.merge(s))?)
    })
}

fn exact_attack_odds(attack: &Attack<'_>) -> Result<AttackOdds, ResolveError> {
    let t = tables()?;
    let numbers = attack.numbers()?;
    let hit = hit_odds(numbers.need)?;
    let damage_roll = d6().map(damage_test(&numbers, attack.target.damage_value));
    let shots = numbers.shots.dist()?.sum_of(attack.firers)?;
    let tally = tally_odds(attack, &numbers)?;
    let pin_dice = numbers.pins.dist()?;
    let (pins, per_damaging_hit, vehicle) = if attack.target.armoured {
        let per_hit = vehicle_damage_odds(t, &numbers, attack.massive_damage)?;
        let per_result = result_odds(t, &numbers)?;
        let results_per_hit = if attack.massive_damage { 2 } else { 1 };
        let hit_and_damaging = tally.map(|t| (t.hits > 0, t.damaging));
        let after = mixture(&hit_and_damaging, |&(any_hit, damaging)| {
            if !any_hit {
                return Ok(Dist::certain(vehicle_before(attack, 0)));
            }
            mixture(&pin_dice, |&hit_pins| {
                after_results_odds(
                    vehicle_before(attack, hit_pins),
                    &per_result,
                    damaging * results_per_hit,
                )
            })
        })?;
        let added = after.map(|v| v.pins.saturating_sub(attack.target_pins));
        (added, Some(per_hit), Some(after))
    } else {
        let any_hit = tally.map(|t| t.hits > 0);
        let pins = any_hit.combine(&pin_dice, |&hit, &p| if hit { p } else { 0 })?;
        (reduced(&pins)?, None, None)
    };
    Ok(AttackOdds {
        numbers,
        shots,
        hit,
        damage_roll,
        per_damaging_hit,
        tally,
        pins,
        vehicle,
        estimate: None,
    })
}

/// A damage result as it was applied to the vehicle, with its On Fire check if one was rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct AppliedResult {
    pub effect: DamageEffect,
    pub check: Option<MoraleCheck>,
    /// The vehicle was already knocked out: the result only counts its pin.
    pub after_knock_out: bool,
}

/// A shooting attack as it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AttackRoll {
    pub seed: u64,
    pub numbers: AttackNumbers,
    /// Every roll in order: shots, to hit, 7+ follow-ups, HE hits, damage, damage results,
    /// pins, On Fire checks.
    pub rolls: Vec<LabelledRoll>,
    pub shots: u32,
    pub tally: AttackTally,
    /// Each damaging hit's results on an armoured target, in order.
    pub vehicle_results: Vec<VehicleDamage>,
    /// Every damage result in the order applied, with its On Fire check.
    pub applied: Vec<AppliedResult>,
    /// Pins the target took (the hit's and the damage results').
    pub pins: u32,
    /// Pins its hits added (beyond what the unit's earlier weapons had given).
    pub hit_pins: u32,
    /// An armoured target after the attack.
    pub vehicle: Option<VehicleAfter>,
}

/// Rolls one shooting attack.
///
/// # Errors
/// As [`attack_odds`], or [`ResolveError::Dice`] if the roller refuses.
pub fn roll_attack(attack: &Attack<'_>, roller: &mut Roller) -> Result<AttackRoll, ResolveError> {
    roll_attack_from(attack, &Before::fresh(attack), roller)
}

/// Rolls one shooting attack on a target as `before` leaves it (a unit's later weapon).
///
/// # Errors
/// As [`roll_attack`].
pub fn roll_attack_from(
    attack: &Attack<'_>,
    before: &Before,
    roller: &mut Roller,
) -> Result<AttackRoll, ResolveError> {
    let t = tables()?;
    let numbers = attack.numbers()?;
    let seed = roller.seed();
    let mut log = RollLog {
        roller,
        rolls: Vec::new(),
    };
    let shots = log.expr(SHOTS, numbers.shots, attack.firers)?;
    let to_hit = log.d6(TO_HIT, shots)?;
    let shot_hits = if numbers.need <= 6 {
        count(&to_hit, |f| first_die_hits(f, numbers.need))
    } else if let Some(needed) = follow_up_need(numbers.need)? {
        let sixes = count(&to_hit, |f| f == 6);
        count(&log.d6(FOLLOW_UP, sixes)?, |f| f >= needed)
    } else {
        0
    };
    let hits = match numbers.he_hits {
        Some(he) => log.expr(HE_HITS, he, shot_hits)?,
        None => shot_hits,
    };
    let damages = damage_test(&numbers, attack.target.damage_value);
    let damaging = count(&log.d6(DAMAGE, hits)?, |f| damages(&f));
    let tally = AttackTally { hits, damaging };
    let mut vehicle_results = Vec::new();
    let mut effects = Vec::new();
    if attack.target.armoured {
        let per_hit: u32 = if attack.massive_damage { 2 } else { 1 };
        let results = log.d6(DAMAGE_RESULTS, damaging * per_hit)?;
        for chunk in results.chunks(per_hit as usize) {
            let rolled = chunk
                .iter()
                .map(|&f| effect_for_face(t, &numbers, f))
                .collect::<Result<Vec<_>, _>>()?;
            let first = rolled.iter().copied().max();
            let second = rolled.iter().copied().min().filter(|_| rolled.len() > 1);
            if let Some(first) = first {
                vehicle_results.push(VehicleDamage { first, second });
            }
            effects.extend(rolled);
        }
    }
    let hit_pins = if shot_hits > 0 {
        let rolled = log.expr(PINS, numbers.pins, 1)?;
        before.hit_pins(attack, &numbers, rolled)
    } else {
        0
    };
    let (vehicle, applied) = if attack.target.armoured {
        let start = before.vehicle_with(hit_pins);
        let (after, applied) = log.apply_results(start, &effects)?;
        (Some(after), applied)
    } else {
        (None, Vec::new())
    };
    Ok(AttackRoll {
        seed,
        numbers,
        rolls: log.rolls,
        shots,
        tally,
        vehicle_results,
        applied,
        pins: vehicle.map_or(hit_pins, |v| v.pins.saturating_sub(before.vehicle.pins)),
        hit_pins,
        vehicle,
    })
}

/// The joint outcome of one attack on a target as `before` leaves it, exactly.
///
/// # Errors
/// As [`Attack::numbers`]; [`ResolveError::Dice`] when the attack has too many dice for exact
/// weights (a caller estimates instead).
pub fn attack_outcomes(
    attack: &Attack<'_>,
    before: &Before,
) -> Result<Dist<AttackOutcome>, ResolveError> {
    let t = tables()?;
    let numbers = attack.numbers()?;
    let tally = tally_odds(attack, &numbers)?;
    let hit_pins = reduced(
        &numbers
            .pins
            .dist()?
            .map(|&p| before.hit_pins(attack, &numbers, p)),
    )?;
    let per_result = result_odds(t, &numbers)?;
    let results_per_hit = if attack.massive_damage { 2 } else { 1 };
    let armoured = attack.target.armoured;
    mixture(&tally, |&tally| {
        if tally.hits == 0 {
            return Ok(Dist::certain(AttackOutcome {
                tally,
                hit_pins: 0,
                pins: 0,
                vehicle: armoured.then_some(before.vehicle),
            }));
        }
        mixture(&hit_pins, |&p| {
            if !armoured {
                return Ok(Dist::certain(AttackOutcome {
                    tally,
                    hit_pins: p,
                    pins: p,
                    vehicle: None,
                }));
            }
            let after = after_results_odds(
                before.vehicle_with(p),
                &per_result,
                tally.damaging * results_per_hit,
            )?;
            Ok(after.map(|v| AttackOutcome {
                tally,
                hit_pins: p,
                pins: v.pins.saturating_sub(before.vehicle.pins),
                vehicle: Some(*v),
            }))
        })
    })
}

/// What one damage result does, by face, after the attack's shift (superficial, open-topped).
fn result_odds(t: &Tables, numbers: &AttackNumbers) -> Result<Dist<DamageEffect>, ResolveError> {
    let mut effects = [DamageEffect::CrewStunned; 6];
    for (face, effect) in (1..=6u32).zip(effects.iter_mut()) {
        *effect = effect_for_face(t, numbers, face)?;
    }
    Ok(d6().map(|&f| effects[f as usize - 1]))
}

/// A pool of one attack: its name for table dice and its label in the log.
pub(super) type Named = (&'static str, &'static str);

const SHOTS: Named = ("shots", "shots");
const TO_HIT: Named = ("to_hit", "to hit");
const FOLLOW_UP: Named = ("follow_up", "7+ follow-up");
const HE_HITS: Named = ("he_hits", "HE hits");
const DAMAGE: Named = ("damage", "damage");
const DAMAGE_RESULTS: Named = ("damage_results", "damage results");
const PINS: Named = ("pins", "pins");
/// The 2d6 of an On Fire morale check.
pub(super) const FIRE_CHECK: Named = ("fire_check", "On Fire morale check (2d6)");

/// Rolls dice in labelled groups for one attack, keeping every record; a group of no dice
/// rolls nothing and uses no roll number.
pub(super) struct RollLog<'r> {
    pub(super) roller: &'r mut Roller,
    pub(super) rolls: Vec<LabelledRoll>,
}

impl RollLog<'_> {
    /// Rolls `count` dice with `sides` sides as one labelled record; returns the faces.
    fn roll(
        &mut self,
        (pool, label): Named,
        sides: u8,
        count: u32,
    ) -> Result<Vec<u32>, ResolveError> {
        if count == 0 {
            return Ok(Vec::new());
        }
        let record = self.roller.roll(pool, sides, count)?;
        let faces = record.dice.iter().map(|&f| u32::from(f)).collect();
        self.rolls.push(LabelledRoll { label, record });
        Ok(faces)
    }

    pub(super) fn d6(&mut self, named: Named, count: u32) -> Result<Vec<u32>, ResolveError> {
        self.roll(named, 6, count)
    }

    /// Applies damage `effects` to `vehicle` in order, rolling 2d6 for each On Fire check.
    pub(super) fn apply_results(
        &mut self,
        mut vehicle: VehicleAfter,
        effects: &[DamageEffect],
    ) -> Result<(VehicleAfter, Vec<AppliedResult>), ResolveError> {
        let mut applied = Vec::new();
        for &effect in effects {
            let after_knock_out = vehicle.knocked_out.is_some();
            let mut check = None;
            vehicle.apply(effect, |target| {
                let total = self.d6(FIRE_CHECK, 2)?.iter().sum();
                let passed = i64::from(total) <= i64::from(target);
                check = Some(MoraleCheck {
                    target,
                    total,
                    passed,
                });
                Ok::<bool, ResolveError>(passed)
            })?;
            applied.push(AppliedResult {
                effect,
                check,
                after_knock_out,
            });
        }
        Ok((vehicle, applied))
    }

    /// Rolls `times` copies of a chart value ("D6", "2D6", "3") and returns the total.
    fn expr(&mut self, named: Named, expr: DiceExpr, times: u32) -> Result<u32, ResolveError> {
        Ok(match expr {
            DiceExpr::Fixed(n) => n.saturating_mul(times),
            DiceExpr::Dice { count, sides } => self
                .roll(named, sides, count.saturating_mul(times))?
                .iter()
                .sum(),
        })
    }
}

fn count(faces: &[u32], pred: impl Fn(u32) -> bool) -> u32 {
    faces.iter().filter(|&&f| pred(f)).count() as u32
}

#[cfg(test)]
mod tests;
