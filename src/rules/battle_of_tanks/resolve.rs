//! Battle of Tanks resolution: fire (sight check, fire rate split over targets, to-hit,
//! penetration die, damage), track repair and spotting.
//!
//! Odds are exact distributions from the dice core; rolls take a [`Roller`] and return every
//! die with the seed. The penetration die is not described in the book, so its faces are
//! seed data (`db/seed/battle_of_tanks.json`, default 2 blank, 1 K, 1 T, 2 W), as are the
//! to-hit and spotting modifiers.

use serde::{Deserialize, Serialize};

use super::TankCard;
use std::sync::OnceLock;

use crate::rules::dice::{Dist, FaceNames, RollRecord, Roller, d6};

pub use crate::rules::resolution::ResolveError;

/// A face of the penetration die (Durchschlagswürfel).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum PenetrationFace {
    /// Bounced off or missed the vitals: no effect.
    #[serde(rename = "blank")]
    Blank,
    /// K (Kette): the tracks are damaged; no hit points lost.
    #[serde(rename = "K")]
    Tracks,
    /// T (Turm): the turret is penetrated.
    #[serde(rename = "T")]
    Turret,
    /// W (Wanne): the hull is penetrated.
    #[serde(rename = "W")]
    Hull,
}

impl PenetrationFace {
    /// As the die shows it: a blank face, K, T or W.
    pub fn printed(self) -> &'static str {
        match self {
            PenetrationFace::Blank => "–",
            PenetrationFace::Tracks => "K",
            PenetrationFace::Turret => "T",
            PenetrationFace::Hull => "W",
        }
    }
}

/// The penetration die's faces as it shows them, face by face of the reading die (–, –, K,
/// T, W, W by default): what the players type for a penetration roll.
///
/// # Errors
/// [`ResolveError::NoData`] without seed data.
pub fn penetration_names() -> Result<FaceNames, ResolveError> {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    let faces = &tables()?.penetration_die;
    Ok(FaceNames::read_from(
        &NAMES,
        faces.iter().map(|f| (f.face.printed(), f.weight)),
    ))
}

/// A penetration die face and how many faces of the reading die show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PenetrationWeight {
    pub face: PenetrationFace,
    pub weight: u32,
}

/// To-hit modifiers, added to the accuracy (Genauigkeit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToHitModifiers {
    /// Firing on the move (Angriff).
    pub moving: i8,
    pub light_cover: i8,
    pub heavy_cover: i8,
    /// Firing from ambush (Hinterhalt).
    pub ambush: i8,
    /// This face and lower always miss.
    pub always_miss: u8,
}

/// Spotting (Aufklärung) modifiers, added to the spotting value; open ground is automatic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpottingModifiers {
    pub light_cover: u8,
    pub heavy_cover: u8,
}

/// The resolution tables from the seed data.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolutionTables {
    /// Where the penetration die's faces come from, for people reading the data file.
    #[serde(default)]
    pub penetration_die_note: String,
    /// The penetration die in reading order: a roll of the reading die (as many sides as the
    /// weights add up to) shows the first face whose running weight reaches it.
    pub penetration_die: Vec<PenetrationWeight>,
    pub to_hit: ToHitModifiers,
    pub spotting: SpottingModifiers,
}

fn tables() -> Result<&'static ResolutionTables, ResolveError> {
    super::DATA.for_resolution(|d| &d.resolution)
}

/// The penetration die as a distribution.
///
/// # Errors
/// [`ResolveError::NoData`] without seed data; [`ResolveError::Dice`] if no face has weight.
pub fn penetration_die() -> Result<Dist<PenetrationFace>, ResolveError> {
    let faces = &tables()?.penetration_die;
    Ok(Dist::from_weights(
        faces.iter().map(|f| (f.face, u128::from(f.weight))),
    )?)
}

/// Rolls `count` penetration dice on the reading die and reads them.
fn roll_penetration(
    roller: &mut Roller,
    count: u32,
) -> Result<(RollRecord, Vec<PenetrationFace>), ResolveError> {
    let faces = &tables()?.penetration_die;
    let total: u32 = faces.iter().map(|f| f.weight).sum();
    let sides = u8::try_from(total).ok().filter(|&s| s > 0).ok_or_else(|| {
        super::DATA.bad_data(format!(
            "penetration die weights add up to {total}: a reading die needs 1–255 sides"
        ))
    })?;
    let record = roller.roll_named("penetration", sides, count, penetration_names()?)?;
    let read = record
        .dice
        .iter()
        .map(|&roll| {
            let mut reached = 0u32;
            faces
                .iter()
                .find_map(|f| {
                    reached += f.weight;
                    (u32::from(roll) <= reached).then_some(f.face)
                })
                .ok_or_else(|| super::DATA.bad_data(format!("no penetration face for {roll}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((record, read))
}

/// Cover as the book's list sorts it (woods and fences light; houses, walls, rocks heavy).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cover {
    #[default]
    Open,
    Light,
    Heavy,
}

impl Cover {
    /// "open ground", "light cover", "heavy cover".
    pub fn label(self) -> &'static str {
        match self {
            Cover::Open => "open ground",
            Cover::Light => "light cover",
            Cover::Heavy => "heavy cover",
        }
    }
}

/// The circumstances of fire at one target.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FireSituation {
    /// Firing on the move (Angriff order).
    pub moving: bool,
    /// Firing from ambush (Hinterhalt order).
    pub ambush: bool,
    /// The target moved this turn: +1 like a moving firer (RULINGS "Moving target").
    #[serde(default)]
    pub target_moving: bool,
    /// The target's cover.
    pub cover: Cover,
    /// The target is hull-down behind heavy cover and the attacker declared a turret shot:
    /// no heavy-cover modifier, but only T penetrates.
    pub hull_down_turret_shot: bool,
    /// The tanks face each other hull to hull: only T penetrates.
    pub hull_to_hull: bool,
}

impl FireSituation {
    /// Only turret (T) results count: a hull-down turret shot or hull to hull.
    pub fn turret_only(&self) -> bool {
        self.hull_down_turret_shot || self.hull_to_hull
    }

    /// Refuses the combinations the book rules out: an ambush fired on the move, a hull-down
    /// turret shot at a target not behind heavy cover.
    ///
    /// # Errors
    /// [`ResolveError::Invalid`] naming `ambush` or `hull_down`.
    pub fn check(&self) -> Result<(), ResolveError> {
        if self.ambush && self.moving {
            return Err(ResolveError::Invalid {
                field: "ambush",
                message: "an ambush (Hinterhalt) is fired by a tank that is not moving, so it \
                          cannot be combined with firing on the move (Angriff)"
                    .to_string(),
            });
        }
        if self.hull_down_turret_shot && self.cover != Cover::Heavy {
            return Err(ResolveError::Invalid {
                field: "hull_down",
                message: format!(
                    "the target is in {}: a hull-down target stands behind heavy cover",
                    self.cover.label()
                ),
            });
        }
        Ok(())
    }

    fn modifier(&self, m: &ToHitModifiers) -> Result<i32, ResolveError> {
        self.check()?;
        let cover = match (self.cover, self.hull_down_turret_shot) {
            (_, true) => 0,
            (Cover::Open, false) => 0,
            (Cover::Light, false) => m.light_cover,
            (Cover::Heavy, false) => m.heavy_cover,
        };
        // Each moving tank adds the same modifier: both moving is twice it.
        let moving = i32::from(m.moving) * (i32::from(self.moving) + i32::from(self.target_moving));
        let ambush = if self.ambush { m.ambush } else { 0 };
        Ok(i32::from(cover) + moving + i32::from(ambush))
    }
}

/// The d6 needed to hit: accuracy plus modifiers (faces at or below `always_miss` still miss).
///
/// Book check: accuracy 3+, own move +1, heavy cover +2 → "Somit müsste Spieler A eine 6
/// würfeln".
///
/// # Errors
/// [`ResolveError::Invalid`] for a turret shot at a target not in heavy cover.
pub fn to_hit_need(attacker: &TankCard, situation: &FireSituation) -> Result<i32, ResolveError> {
    let m = tables()?.to_hit;
    Ok(i32::from(attacker.accuracy) + situation.modifier(&m)?)
}

/// Whether a to-hit d6 showing `face` hits when `need`+ is needed.
fn is_hit(face: u32, need: i32, always_miss: u8) -> bool {
    face > u32::from(always_miss) && i64::from(face) >= i64::from(need)
}

/// How one hit's penetration die counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HitEffect {
    /// Blank, or a face that does not count for this shot.
    NoEffect,
    /// K: tracks damaged, no hit points lost.
    Tracks,
    /// T or W (only T for turret-only shots): firepower in hit points lost.
    Penetration,
}

/// What a penetration face does, given whether only turret hits count.
pub fn hit_effect(face: PenetrationFace, turret_only: bool) -> HitEffect {
    match (face, turret_only) {
        (PenetrationFace::Turret, _) | (PenetrationFace::Hull, false) => HitEffect::Penetration,
        (PenetrationFace::Tracks, false) => HitEffect::Tracks,
        _ => HitEffect::NoEffect,
    }
}

/// One target of a fire order: who, how many of the firer's shots, and the situation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FireTarget<'a> {
    pub card: &'a TankCard,
    /// Shots (Geschosse) aimed at this target.
    pub shots: u32,
    /// Distance in centimetres; `None` when the player has already checked sight.
    pub range_cm: Option<u32>,
    /// Hit points the target has left.
    pub remaining_hp: u32,
    pub situation: FireSituation,
}

impl<'a> FireTarget<'a> {
    /// An undamaged target taking `shots` shots in the open, range unchecked.
    pub fn new(card: &'a TankCard, shots: u32) -> Self {
        Self {
            card,
            shots,
            range_cm: None,
            remaining_hp: card.hit_points,
            situation: FireSituation::default(),
        }
    }
}

/// What a volley at one target did, summed over its shots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Volley {
    pub hits: u32,
    pub penetrations: u32,
    pub track_hits: u32,
}

/// Exact odds of a volley at one target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FireOdds {
    pub target: String,
    pub shots: u32,
    /// The d6 needed to hit (faces at or below `always_miss` still miss).
    pub need: i32,
    /// Faces up to this always miss (a 1).
    pub always_miss: u8,
    pub turret_only: bool,
    pub firepower: u32,
    pub remaining_hp: u32,
    /// One shot's to-hit roll (total 6).
    pub hit: Dist<bool>,
    /// One hit's penetration die as it counts here.
    pub per_hit: Dist<HitEffect>,
    /// Hits, penetrations and track hits over all shots.
    pub volley: Dist<Volley>,
    /// Hit points removed (penetrations × firepower).
    pub damage: Dist<u32>,
}

impl FireOdds {
    /// The to-hit roll in words, never below what can hit: "2+ (a 1 always misses)", not
    /// "0+".
    pub fn need_words(&self) -> String {
        let lowest = i32::from(self.always_miss) + 1;
        format!(
            "{}+ (a {} always misses)",
            self.need.max(lowest),
            self.always_miss
        )
    }

    /// P(one shot hits).
    pub fn p_hit_per_shot(&self) -> f64 {
        self.hit.probability(&true)
    }

    /// P(the volley removes all the target's remaining hit points).
    pub fn p_destroyed(&self) -> f64 {
        self.damage.at_least(&self.remaining_hp)
    }

    /// P(at least one track hit).
    pub fn p_tracks_hit(&self) -> f64 {
        self.volley.probability_where(|v| v.track_hits > 0)
    }

    /// The exact distribution of hits.
    pub fn hits(&self) -> Dist<u32> {
        self.volley.map(|v| v.hits)
    }

    /// The exact distribution of penetrations.
    pub fn penetrations(&self) -> Dist<u32> {
        self.volley.map(|v| v.penetrations)
    }
}

/// Checks one target: shots, hit points and sight.
fn check_target(attacker: &TankCard, target: &FireTarget<'_>) -> Result<(), ResolveError> {
    if target.shots == 0 {
        return Err(ResolveError::Invalid {
            field: "shots",
            message: format!(
                "0 shots at {}: give each target at least 1",
                target.card.name
            ),
        });
    }
    if target.remaining_hp == 0 || target.remaining_hp > target.card.hit_points {
        return Err(ResolveError::Invalid {
            field: "hit_points",
            message: format!(
                "{} for {} ({} hit points): it must be 1–{}",
                target.remaining_hp,
                target.card.name,
                target.card.hit_points,
                target.card.hit_points
            ),
        });
    }
    match target.range_cm {
        Some(range_cm) if range_cm > attacker.sight_cm => Err(ResolveError::NoResult(format!(
            "{} is {range_cm} cm away, beyond {}'s sight of {} cm: no fire",
            target.card.name, attacker.name, attacker.sight_cm
        ))),
        _ => Ok(()),
    }
}

/// Checks a whole fire order: every target valid and the shots within the fire rate.
///
/// # Errors
/// [`ResolveError::Invalid`] for no targets, zero shots, bad hit points or more shots than
/// the fire rate (Feuerrate); [`ResolveError::NoResult`] for a target beyond sight.
pub fn check_fire_order(
    attacker: &TankCard,
    targets: &[FireTarget<'_>],
) -> Result<(), ResolveError> {
    if targets.is_empty() {
        return Err(ResolveError::Invalid {
            field: "target",
            message: "no target: name at least one".into(),
        });
    }
    for target in targets {
        check_target(attacker, target)?;
    }
    let shots: u32 = targets.iter().map(|t| t.shots).sum();
    if shots > attacker.fire_rate {
        return Err(ResolveError::Invalid {
            field: "shots",
            message: format!(
                "{shots} shots: {} has a fire rate of {}",
                attacker.name, attacker.fire_rate
            ),
        });
    }
    Ok(())
}

/// One shot's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum ShotResult {
    Miss,
    Hit(HitEffect),
}

/// Exact odds of `attacker` firing `target.shots` shots at one target.
///
/// # Errors
/// As [`check_fire_order`] for this one target (the fire rate included).
pub fn fire_odds(attacker: &TankCard, target: &FireTarget<'_>) -> Result<FireOdds, ResolveError> {
    check_fire_order(attacker, std::slice::from_ref(target))?;
    let t = tables()?;
    let need = to_hit_need(attacker, &target.situation)?;
    let turret_only = target.situation.turret_only();
    let hit = d6().map(|&face| is_hit(face, need, t.to_hit.always_miss));
    let per_hit = penetration_die()?.map(|&face| hit_effect(face, turret_only));
    let shot = hit.combine(&per_hit, |&hit, &effect| {
        if hit {
            ShotResult::Hit(effect)
        } else {
            ShotResult::Miss
        }
    })?;
    let start = Volley {
        hits: 0,
        penetrations: 0,
        track_hits: 0,
    };
    let volley = shot.repeat(target.shots, start, |v, shot| match shot {
        ShotResult::Miss => *v,
        ShotResult::Hit(effect) => Volley {
            hits: v.hits + 1,
            penetrations: v.penetrations + u32::from(*effect == HitEffect::Penetration),
            track_hits: v.track_hits + u32::from(*effect == HitEffect::Tracks),
        },
    })?;
    let firepower = attacker.firepower;
    Ok(FireOdds {
        target: target.card.name.clone(),
        shots: target.shots,
        need,
        always_miss: t.to_hit.always_miss,
        turret_only,
        firepower,
        remaining_hp: target.remaining_hp,
        hit,
        per_hit,
        damage: volley.map(|v| v.penetrations.saturating_mul(firepower)),
        volley,
    })
}

/// Exact odds for every target of a fire order, after checking the split against the fire
/// rate. Targets are independent: each volley's dice are its own.
///
/// # Errors
/// As [`check_fire_order`].
pub fn fire_order_odds(
    attacker: &TankCard,
    targets: &[FireTarget<'_>],
) -> Result<Vec<FireOdds>, ResolveError> {
    check_fire_order(attacker, targets)?;
    targets.iter().map(|t| fire_odds(attacker, t)).collect()
}

/// A volley at one target as it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VolleyRoll {
    pub target: String,
    pub need: i32,
    /// One d6 per shot.
    pub to_hit: RollRecord,
    /// One reading die per hit (none when nothing hit).
    pub penetration: Option<RollRecord>,
    pub faces: Vec<PenetrationFace>,
    pub volley: Volley,
    pub damage: u32,
    pub remaining_before: u32,
    pub remaining_after: u32,
    pub destroyed: bool,
}

/// A fire order as it happened: the seed and each target's volley.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FireRoll {
    pub seed: u64,
    pub volleys: Vec<VolleyRoll>,
}

/// Rolls a fire order, target by target.
///
/// # Errors
/// As [`check_fire_order`], or [`ResolveError::Dice`] if the roller refuses.
pub fn roll_fire(
    attacker: &TankCard,
    targets: &[FireTarget<'_>],
    roller: &mut Roller,
) -> Result<FireRoll, ResolveError> {
    check_fire_order(attacker, targets)?;
    let t = tables()?;
    let seed = roller.seed();
    let mut volleys = Vec::with_capacity(targets.len());
    for target in targets {
        let need = to_hit_need(attacker, &target.situation)?;
        let turret_only = target.situation.turret_only();
        let to_hit = roller.roll_d6("to_hit", target.shots)?;
        let hits = to_hit
            .dice
            .iter()
            .filter(|&&f| is_hit(u32::from(f), need, t.to_hit.always_miss))
            .count() as u32;
        let (penetration, faces) = if hits > 0 {
            let (record, faces) = roll_penetration(roller, hits)?;
            (Some(record), faces)
        } else {
            (None, Vec::new())
        };
        let effects: Vec<HitEffect> = faces.iter().map(|&f| hit_effect(f, turret_only)).collect();
        let count = |e: HitEffect| effects.iter().filter(|&&x| x == e).count() as u32;
        let volley = Volley {
            hits,
            penetrations: count(HitEffect::Penetration),
            track_hits: count(HitEffect::Tracks),
        };
        let damage = volley.penetrations.saturating_mul(attacker.firepower);
        let remaining_after = target.remaining_hp.saturating_sub(damage);
        volleys.push(VolleyRoll {
            target: target.card.name.clone(),
            need,
            to_hit,
            penetration,
            faces,
            volley,
            damage,
            remaining_before: target.remaining_hp,
            remaining_after,
            destroyed: remaining_after == 0,
        });
    }
    Ok(FireRoll { seed, volleys })
}

// ---------------------------------------------------------------------------------------
// Repair and spotting
// ---------------------------------------------------------------------------------------

/// Exact odds of repairing the tracks (Rückzug order): d6 ≥ the repair value.
pub fn repair_odds(card: &TankCard) -> Dist<bool> {
    let need = u32::from(card.repair);
    d6().map(|&face| face >= need)
}

/// A repair roll as it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RepairRoll {
    pub seed: u64,
    pub need: u8,
    pub die: RollRecord,
    pub repaired: bool,
}

/// Rolls a track repair.
///
/// # Errors
/// [`ResolveError::Dice`] if the roller refuses.
pub fn roll_repair(card: &TankCard, roller: &mut Roller) -> Result<RepairRoll, ResolveError> {
    let seed = roller.seed();
    let die = roller.roll_d6("repair", 1)?;
    let face = die.dice.first().copied().unwrap_or(1);
    Ok(RepairRoll {
        seed,
        need: card.repair,
        repaired: face >= card.repair,
        die,
    })
}

/// The d6 a spotter needs against a target in `cover`; `None` when spotting is automatic
/// (open ground). As printed: light cover +2, heavy cover +1 to the spotting value.
///
/// # Errors
/// [`ResolveError::NoData`] without seed data.
pub fn spotting_need(spotter: &TankCard, cover: Cover) -> Result<Option<u32>, ResolveError> {
    let m = tables()?.spotting;
    let value = u32::from(spotter.spotting);
    Ok(match cover {
        Cover::Open => None,
        Cover::Light => Some(value + u32::from(m.light_cover)),
        Cover::Heavy => Some(value + u32::from(m.heavy_cover)),
    })
}

/// Exact odds of spotting a target in `cover` (certain on open ground).
///
/// # Errors
/// [`ResolveError::NoData`] without seed data.
pub fn spotting_odds(spotter: &TankCard, cover: Cover) -> Result<Dist<bool>, ResolveError> {
    Ok(match spotting_need(spotter, cover)? {
        None => Dist::certain(true),
        Some(need) => d6().map(|&face| face >= need),
    })
}

/// A spotting roll as it happened (no die on open ground).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SpottingRoll {
    pub seed: u64,
    pub need: Option<u32>,
    pub die: Option<RollRecord>,
    pub spotted: bool,
}

/// Rolls to spot a target in `cover`.
///
/// # Errors
/// [`ResolveError::NoData`] or [`ResolveError::Dice`].
pub fn roll_spotting(
    spotter: &TankCard,
    cover: Cover,
    roller: &mut Roller,
) -> Result<SpottingRoll, ResolveError> {
    let seed = roller.seed();
    let need = spotting_need(spotter, cover)?;
    let Some(need) = need else {
        return Ok(SpottingRoll {
            seed,
            need: None,
            die: None,
            spotted: true,
        });
    };
    let die = roller.roll_d6("spotting", 1)?;
    let face = u32::from(die.dice.first().copied().unwrap_or(1));
    Ok(SpottingRoll {
        seed,
        need: Some(need),
        die: Some(die),
        spotted: face >= need,
    })
}

#[cfg(test)]
mod tests;
