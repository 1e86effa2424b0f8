//! Belle Epoque resolution: command points, reactivity tests, fire and assaults.
//!
//! Odds are exact distributions from the dice core; rolls take a [`Roller`] and return every
//! die with the seed. The fire table, basic scores, successful-score levels and command dice
//! are the book's tables (see [`super::tables`]); the fire and assault modifiers are seed
//! data too (`resolution` in `db/seed/belle_epoque.json`).
//!
//! Readings: a unit's losses are the difference of the assault totals (a tie costs both one);
//! of those losses the 1st, 3rd, 5th … are stands and the 2nd, 4th … become 1 UD fall backs,
//! unless the unit is stubborn, is infantry defending fortifications, or cannot fall back. A
//! 6 never hits when firing (it only matters for conspicuous targets, where the to-hit number
//! can reach 6).

use serde::{Deserialize, Serialize};

use super::UnitProfile;
use super::tables::{Doctrine, Tables, Trait, TroopType, UnitKind};
use crate::rules::dice::{Dist, RollRecord, Roller, d6, die};
use crate::rules::words::amount;

pub use crate::rules::resolution::ResolveError;

fn tables() -> Result<&'static Tables, ResolveError> {
    super::DATA.for_resolution(|d| d)
}

/// Fire modifiers from the FIRING section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireModifiers {
    /// Added to the to-hit number against a conspicuous target.
    pub conspicuous_bonus: u8,
    /// Extra dice when the firer is uphill from its target.
    pub uphill_extra_dice: u32,
    /// This face always misses.
    pub always_miss: u8,
    /// Faces up to this miss a loose-order target in the open or close-order infantry in
    /// cover.
    pub loose_or_cover_misses: u8,
    /// Faces up to this miss a loose-order target in cover or infantry in fortifications.
    pub cover_or_fortified_misses: u8,
}

/// Successful-score modifiers from the ASSAULT, TACTICAL MODIFIERS and MULTIPLE COMBATS
/// sections.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AssaultModifiers {
    /// This face is always a miss.
    pub always_miss: u8,
    /// This face is always a success.
    pub always_success: u8,
    /// Infantry defending a hill or kopje.
    pub hill: u8,
    /// Infantry defending fortifications.
    pub fortifications: u8,
    /// Dashing troops attacking.
    pub dashing: u8,
    /// Stubborn troops defending.
    pub stubborn: u8,
    /// Cavalry fighting from or against cover or rough terrain fights at this level.
    pub cavalry_in_cover_level: u8,
    /// Level lost per assault fought beyond the first in a turn.
    pub per_extra_assault: u8,
}

/// The fire and assault modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolutionTables {
    pub fire: FireModifiers,
    pub assault: AssaultModifiers,
}

// ---------------------------------------------------------------------------------------
// Command points and reactivity
// ---------------------------------------------------------------------------------------

/// The general's quality, which picks the command die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum General {
    Mediocre,
    Average,
    Superior,
}

impl General {
    /// The id used in the seed data's command dice table.
    pub fn id(self) -> &'static str {
        match self {
            General::Mediocre => "mediocre",
            General::Average => "average",
            General::Superior => "superior",
        }
    }
}

/// Exact odds of the command points roll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandPointsOdds {
    /// One die per started 8 stands.
    pub dice: u32,
    /// d4, d6 or d8 by the general.
    pub sides: u8,
    pub total: Dist<u32>,
}

/// The command dice for `stands` stands and a `general`: (number, sides).
fn command_dice(stands: u32, general: General) -> Result<(u32, u8), ResolveError> {
    let t = tables()?;
    if t.stands_per_command_die == 0 {
        return Err(super::DATA.bad_data("stands_per_command_die is 0".into()));
    }
    let sides = t.command_die(general.id()).ok_or_else(|| {
        super::DATA.bad_data(format!("no command die for a {} general", general.id()))
    })?;
    Ok((stands.div_ceil(t.stands_per_command_die), sides))
}

/// Exact odds of the command points a side of `stands` stands rolls.
///
/// # Errors
/// Data errors; [`ResolveError::Dice`] for more dice than can be counted exactly.
pub fn command_points_odds(
    stands: u32,
    general: General,
) -> Result<CommandPointsOdds, ResolveError> {
    let (dice, sides) = command_dice(stands, general)?;
    Ok(CommandPointsOdds {
        dice,
        sides,
        total: die(u32::from(sides))?.sum_of(dice)?,
    })
}

/// A command points roll as it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CommandPointsRoll {
    pub seed: u64,
    pub dice: RollRecord,
    pub total: u32,
}

/// Rolls the command points.
///
/// # Errors
/// As [`command_points_odds`].
pub fn roll_command_points(
    stands: u32,
    general: General,
    roller: &mut Roller,
) -> Result<CommandPointsRoll, ResolveError> {
    let (count, sides) = command_dice(stands, general)?;
    let seed = roller.seed();
    let dice = roller.roll("command", sides, count)?;
    let total = dice.dice.iter().map(|&f| u32::from(f)).sum();
    Ok(CommandPointsRoll { seed, dice, total })
}

/// Exact odds of a reactivity test: d6 at or under the basic score plus the CPs spent.
pub fn reactivity_odds(basic_score: u8, command_points: u32) -> Dist<bool> {
    let target = u32::from(basic_score).saturating_add(command_points);
    d6().map(|&face| face <= target)
}

/// A reactivity test as it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReactivityRoll {
    pub seed: u64,
    pub target: u32,
    pub die: RollRecord,
    pub passed: bool,
}

/// Rolls a reactivity test.
///
/// # Errors
/// [`ResolveError::Dice`] if the roller refuses.
pub fn roll_reactivity(
    basic_score: u8,
    command_points: u32,
    roller: &mut Roller,
) -> Result<ReactivityRoll, ResolveError> {
    let target = u32::from(basic_score).saturating_add(command_points);
    let seed = roller.seed();
    let die = roller.roll_d6("reactivity", 1)?;
    let face = u32::from(die.dice.first().copied().unwrap_or(6));
    Ok(ReactivityRoll {
        seed,
        target,
        passed: face <= target,
        die,
    })
}

// ---------------------------------------------------------------------------------------
// Fire
// ---------------------------------------------------------------------------------------

/// Where a unit stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    #[default]
    Open,
    Cover,
    Fortifications,
}

/// The target of fire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FireTarget {
    pub doctrine: Doctrine,
    /// Infantry (anything but cavalry), for the cover and fortification misses.
    pub infantry: bool,
    pub terrain: Terrain,
    pub conspicuous: bool,
    /// Stands the target has; hits beyond them are wasted. `None`: uncapped.
    pub stands: Option<u32>,
    /// The target has neither moved nor fired since the game began (or has not moved and
    /// carries smokeless-powder rifles): harder to see.
    #[serde(default)]
    pub unrevealed: bool,
}

/// RULINGS "Visibility": line of sight reaches 4 UD before the target's concealment.
pub const LINE_OF_SIGHT_UDS: u32 = 4;

impl FireTarget {
    /// A library or force unit as a target in `terrain`.
    pub fn of(unit: &UnitProfile, terrain: Terrain) -> Self {
        Self {
            doctrine: unit.doctrine,
            infantry: unit.kind != UnitKind::Cavalry,
            terrain,
            conspicuous: unit.traits.contains(&Trait::Conspicuous),
            stands: Some(unit.stands),
            unrevealed: false,
        }
    }

    /// How far the target can be seen, in UD, and why it is less than the line of sight:
    /// 1 UD less for each of unrevealed, in cover, in loose order; none for a conspicuous
    /// target (RULINGS "Visibility").
    pub fn sight(&self) -> (u32, Vec<&'static str>) {
        if self.conspicuous {
            return (LINE_OF_SIGHT_UDS, Vec::new());
        }
        let reasons: Vec<&'static str> = [
            (self.unrevealed, "has neither moved nor fired"),
            (self.terrain != Terrain::Open, "is in cover"),
            (self.doctrine == Doctrine::Loose, "is in loose order"),
        ]
        .into_iter()
        .filter_map(|(applies, why)| applies.then_some(why))
        .collect();
        let uds = LINE_OF_SIGHT_UDS.saturating_sub(reasons.len() as u32);
        (uds, reasons)
    }
}

/// One unit's fire at one target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fire {
    pub troop_type: TroopType,
    /// Stands firing: one die each.
    pub stands: u32,
    /// Range in UD (1–4).
    pub range_uds: u32,
    /// The firer made a basic move this activation (bracketed numbers).
    pub moving: bool,
    /// The firer is uphill from its target: one extra die.
    pub uphill: bool,
    pub target: FireTarget,
}

/// The numbers of one fire action, worked out once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FireNumbers {
    /// Faces at or below this hit (after the conspicuous bonus).
    pub to_hit: u8,
    /// Faces at or below this miss anyway (cover and fortifications).
    pub misses_up_to: u8,
    /// This face always misses.
    pub always_miss: u8,
    pub dice: u32,
}

impl FireNumbers {
    /// Whether a die showing `face` removes a stand.
    pub fn hits(&self, face: u32) -> bool {
        face <= u32::from(self.to_hit)
            && face > u32::from(self.misses_up_to)
            && face != u32::from(self.always_miss)
    }
}

impl Fire {
    /// Refuses what cannot be fired: no stands, a range off the table, a loose-order target
    /// that is cavalry (cavalry fights in close order).
    ///
    /// # Errors
    /// [`ResolveError::Invalid`] naming `stands`, `range` or `target_order`.
    pub fn check(&self) -> Result<(), ResolveError> {
        if self.stands == 0 {
            return Err(ResolveError::invalid(
                "stands",
                "0 stands: at least 1 must fire",
            ));
        }
        if !(1..=4).contains(&self.range_uds) {
            return Err(ResolveError::invalid(
                "range",
                format!("{} UD: the fire table covers 1–4 UD", self.range_uds),
            ));
        }
        if self.target.doctrine == Doctrine::Loose && !self.target.infantry {
            return Err(ResolveError::invalid(
                "target_order",
                "cavalry fights in close order: a loose-order target is infantry",
            ));
        }
        Ok(())
    }

    /// Works out the to-hit number, the cover misses and the dice.
    ///
    /// # Errors
    /// [`ResolveError::Invalid`] for no stands or a range outside 1–4 UD;
    /// [`ResolveError::NoResult`] where the table has no number.
    pub fn numbers(&self) -> Result<FireNumbers, ResolveError> {
        let t = tables()?;
        let m = t.resolution.fire;
        self.check()?;
        let (sight, reasons) = self.target.sight();
        if self.range_uds > sight {
            return Err(ResolveError::NoResult(format!(
                "the target is {} UD away, beyond line of sight: {sight} UD (4 UD, less 1 because it {}): no fire",
                self.range_uds,
                reasons.join(", ")
            )));
        }
        let to_hit = t
            .to_hit(self.troop_type, self.range_uds as usize, self.moving)
            .ok_or_else(|| {
                ResolveError::NoResult(format!(
                    "a type {} unit{} has no to-hit number at {} UD: no fire",
                    self.troop_type.letter(),
                    if self.moving { " that moved" } else { "" },
                    self.range_uds
                ))
            })?;
        let to_hit = if self.target.conspicuous {
            to_hit.saturating_add(m.conspicuous_bonus)
        } else {
            to_hit
        };
        let extra = if self.uphill { m.uphill_extra_dice } else { 0 };
        Ok(FireNumbers {
            to_hit,
            misses_up_to: self.target.misses_up_to(&m),
            always_miss: m.always_miss,
            dice: self.stands.saturating_add(extra),
        })
    }
}

impl FireTarget {
    /// Faces that miss this target whatever the to-hit number.
    fn misses_up_to(&self, m: &FireModifiers) -> u8 {
        let sheltered = self.terrain != Terrain::Open;
        match (self.terrain, self.doctrine, self.infantry) {
            (Terrain::Fortifications, _, true) => m.cover_or_fortified_misses,
            (_, Doctrine::Loose, _) if sheltered => m.cover_or_fortified_misses,
            (_, Doctrine::Close, true) if sheltered => m.loose_or_cover_misses,
            (Terrain::Open, Doctrine::Loose, _) => m.loose_or_cover_misses,
            _ => 0,
        }
    }
}

/// Exact odds of one fire action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FireOdds {
    pub numbers: FireNumbers,
    /// One die (total 6).
    pub per_die: Dist<bool>,
    /// Successful dice (total 6^dice).
    pub hits: Dist<u32>,
    /// Stands the target loses (hits, capped at its stands).
    pub stands_lost: Dist<u32>,
}

/// Exact odds of one fire action.
///
/// # Errors
/// As [`Fire::numbers`]; [`ResolveError::Dice`] beyond 49 dice.
pub fn fire_odds(fire: &Fire) -> Result<FireOdds, ResolveError> {
    let numbers = fire.numbers()?;
    let per_die = d6().map(|&f| numbers.hits(f));
    let hits = d6().count_where(numbers.dice, |&f| numbers.hits(f))?;
    let cap = fire.target.stands.unwrap_or(u32::MAX);
    Ok(FireOdds {
        numbers,
        per_die,
        stands_lost: hits.map(|&h| h.min(cap)),
        hits,
    })
}

/// A fire action as it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FireRoll {
    pub seed: u64,
    pub numbers: FireNumbers,
    pub dice: RollRecord,
    pub hits: u32,
    pub stands_lost: u32,
}

/// Rolls one fire action.
///
/// # Errors
/// As [`fire_odds`].
pub fn roll_fire(fire: &Fire, roller: &mut Roller) -> Result<FireRoll, ResolveError> {
    let numbers = fire.numbers()?;
    let seed = roller.seed();
    let dice = roller.roll_d6("fire", numbers.dice)?;
    let hits = dice
        .dice
        .iter()
        .filter(|&&f| numbers.hits(u32::from(f)))
        .count() as u32;
    Ok(FireRoll {
        seed,
        numbers,
        stands_lost: hits.min(fire.target.stands.unwrap_or(u32::MAX)),
        hits,
        dice,
    })
}

// ---------------------------------------------------------------------------------------
// Assault
// ---------------------------------------------------------------------------------------

/// The SS chart's troop classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AssaultTroops {
    /// Militia, or regulars in loose order: 1/2.
    MilitiaOrLooseRegulars,
    /// Regulars in close order: 1/2/3.
    CloseRegulars,
    /// Choc troops: 1/2/3/4.
    Choc,
}

impl AssaultTroops {
    /// The id of its row in the seed data's assault levels.
    pub fn id(self) -> &'static str {
        match self {
            AssaultTroops::MilitiaOrLooseRegulars => "militia_or_loose_regulars",
            AssaultTroops::CloseRegulars => "close_regulars",
            AssaultTroops::Choc => "choc",
        }
    }

    /// The class a library unit fights as: choc or militia by trait, else by doctrine.
    pub fn of(unit: &UnitProfile) -> Self {
        if unit.traits.contains(&Trait::Choc) {
            AssaultTroops::Choc
        } else if unit.traits.contains(&Trait::Militia) || unit.doctrine == Doctrine::Loose {
            AssaultTroops::MilitiaOrLooseRegulars
        } else {
            AssaultTroops::CloseRegulars
        }
    }
}

/// One side of an assault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssaultSide {
    /// Stands fighting: one die each.
    pub stands: u32,
    pub troops: AssaultTroops,
    pub dashing: bool,
    pub stubborn: bool,
    pub cavalry: bool,
    /// Assaults this unit has already fought this turn.
    pub extra_assaults: u32,
    /// False when a fall back cannot be made (impassable terrain, or it would not move
    /// away from every opponent): even losses are then stands too.
    pub can_fall_back: bool,
}

impl AssaultSide {
    /// A side of `stands` stands of `troops` with no traits.
    pub fn new(stands: u32, troops: AssaultTroops) -> Self {
        Self {
            stands,
            troops,
            dashing: false,
            stubborn: false,
            cavalry: false,
            extra_assaults: 0,
            can_fall_back: true,
        }
    }

    /// A library or force unit as an assault side.
    pub fn of(unit: &UnitProfile) -> Self {
        Self {
            dashing: unit.traits.contains(&Trait::Dashing),
            stubborn: unit.traits.contains(&Trait::Stubborn),
            cavalry: unit.kind == UnitKind::Cavalry,
            ..Self::new(unit.stands, AssaultTroops::of(unit))
        }
    }
}

/// The defender's position.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Position {
    #[default]
    Open,
    /// A sector giving tactical benefit: hill, kopje.
    Hill,
    Fortifications,
}

/// One assault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assault {
    pub attacker: AssaultSide,
    pub defender: AssaultSide,
    pub position: Position,
    /// Fought from or against cover or rough terrain (cavalry then fight at level 1).
    pub cover_or_rough: bool,
}

/// Losses of one side, split into stands and fall backs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize)]
pub struct Losses {
    /// The losses the assault inflicts (the difference of the totals, or 1 for a tie).
    pub losses: u32,
    /// Stands removed (never more than the unit has).
    pub stands: u32,
    /// UD fallen back for the even losses.
    pub fall_back_uds: u32,
    /// Every stand lost.
    pub eliminated: bool,
}

impl Losses {
    /// "2 stands + 1 UD fall back", "1 stand", "3 stands (eliminated)": the one wording of a
    /// side's losses for every front end.
    pub fn label(&self) -> String {
        let mut text = amount(u64::from(self.stands), "stands");
        if self.fall_back_uds > 0 {
            text.push_str(&format!(" + {} UD fall back", self.fall_back_uds));
        }
        if self.eliminated {
            text.push_str(" (eliminated)");
        }
        text
    }

    /// The same losses without the raw count, so outcomes that look alike on the table merge.
    pub fn as_casualties(&self) -> Losses {
        Losses { losses: 0, ..*self }
    }
}

/// A side's successful scores in words: "SS 1–3", or "SS 1" when modifiers leave only the 1
/// that always scores (never "SS 1–0" or "1–−1").
pub fn level_words(level: i32) -> String {
    if level <= 1 {
        "SS 1".to_string()
    } else {
        format!("SS 1–{level}")
    }
}

/// What an assault came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct AssaultOutcome {
    pub attacker: Losses,
    pub defender: Losses,
}

/// An assault read from its dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct AssaultResult {
    pub attacker_score: u32,
    pub defender_score: u32,
    pub outcome: AssaultOutcome,
}

/// The successful-score levels of both sides, as (attacker, defender); may be 0 or less
/// after several assaults (a 1 still succeeds).
///
/// # Errors
/// Data errors; [`ResolveError::Invalid`] for a side with no stands.
pub fn assault_levels(assault: &Assault) -> Result<(i32, i32), ResolveError> {
    let t = tables()?;
    let m = t.resolution.assault;
    for (side, field) in [
        (&assault.attacker, "attacker stands"),
        (&assault.defender, "defender stands"),
    ] {
        if side.stands == 0 {
            return Err(ResolveError::invalid(
                field,
                "0 stands: a side needs at least 1",
            ));
        }
    }
    let base = |troops: AssaultTroops| {
        t.assault_levels
            .iter()
            .find(|l| l.troops == troops.id())
            .map(|l| i32::from(l.successful_scores))
            .ok_or_else(|| super::DATA.bad_data(format!("no assault level '{}'", troops.id())))
    };
    let cavalry_level = i32::from(m.cavalry_in_cover_level);
    let extra = |side: &AssaultSide| {
        i32::try_from(side.extra_assaults)
            .unwrap_or(i32::MAX)
            .saturating_mul(i32::from(m.per_extra_assault))
    };
    let a = &assault.attacker;
    let mut attacker = base(a.troops)? + if a.dashing { i32::from(m.dashing) } else { 0 };
    if a.cavalry && assault.cover_or_rough {
        attacker = cavalry_level;
    }
    let d = &assault.defender;
    let position = match (assault.position, d.cavalry) {
        (Position::Hill, false) => i32::from(m.hill),
        (Position::Fortifications, false) => i32::from(m.fortifications),
        _ => 0,
    };
    let mut defender =
        base(d.troops)? + position + if d.stubborn { i32::from(m.stubborn) } else { 0 };
    if d.cavalry && assault.cover_or_rough {
        defender = cavalry_level;
    }
    Ok((
        attacker.saturating_sub(extra(a)),
        defender.saturating_sub(extra(d)),
    ))
}

/// What a die showing `face` scores at `level`: its face when successful, else 0.
fn die_score(face: u32, level: i32, m: &AssaultModifiers) -> u32 {
    let success = face == u32::from(m.always_success)
        || (face != u32::from(m.always_miss) && i64::from(face) <= i64::from(level));
    if success { face } else { 0 }
}

/// Splits `losses` into stands and fall backs for a side.
fn split_losses(losses: u32, side: &AssaultSide, converts: bool) -> Losses {
    let (stands, fall_back) = if converts {
        (losses.div_ceil(2), losses / 2)
    } else {
        (losses, 0)
    };
    let eliminated = stands >= side.stands;
    Losses {
        losses,
        stands: stands.min(side.stands),
        fall_back_uds: if eliminated { 0 } else { fall_back },
        eliminated,
    }
}

impl Assault {
    /// The outcome for given totals.
    fn outcome(&self, attacker_score: u32, defender_score: u32) -> AssaultOutcome {
        let (to_attacker, to_defender) = match attacker_score.cmp(&defender_score) {
            std::cmp::Ordering::Equal => (1, 1),
            std::cmp::Ordering::Greater => (0, attacker_score - defender_score),
            std::cmp::Ordering::Less => (defender_score - attacker_score, 0),
        };
        let a = &self.attacker;
        let d = &self.defender;
        let attacker_converts = !a.stubborn && a.can_fall_back;
        let fortified = self.position == Position::Fortifications && !d.cavalry;
        let defender_converts = !d.stubborn && !fortified && d.can_fall_back;
        AssaultOutcome {
            attacker: split_losses(to_attacker, a, attacker_converts),
            defender: split_losses(to_defender, d, defender_converts),
        }
    }
}

/// Reads an assault from given dice (the attacker's and the defender's faces).
///
/// # Errors
/// As [`assault_levels`]; [`ResolveError::Invalid`] when the number of faces is not the
/// number of stands or a face is not 1–6.
pub fn assault_from_faces(
    assault: &Assault,
    attacker_faces: &[u8],
    defender_faces: &[u8],
) -> Result<AssaultResult, ResolveError> {
    let m = tables()?.resolution.assault;
    let (attacker_level, defender_level) = assault_levels(assault)?;
    let score = |faces: &[u8], side: &AssaultSide, level: i32, field| {
        if faces.len() != side.stands as usize || faces.iter().any(|f| !(1..=6).contains(f)) {
            return Err(ResolveError::invalid(
                field,
                format!(
                    "{faces:?}: give one d6 face (1–6) per stand ({} stands)",
                    side.stands
                ),
            ));
        }
        Ok(faces
            .iter()
            .map(|&f| die_score(u32::from(f), level, &m))
            .sum::<u32>())
    };
    let attacker_score = score(
        attacker_faces,
        &assault.attacker,
        attacker_level,
        "attacker dice",
    )?;
    let defender_score = score(
        defender_faces,
        &assault.defender,
        defender_level,
        "defender dice",
    )?;
    Ok(AssaultResult {
        attacker_score,
        defender_score,
        outcome: assault.outcome(attacker_score, defender_score),
    })
}

/// Exact odds of an assault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssaultOdds {
    pub attacker_level: i32,
    pub defender_level: i32,
    /// The attacker's total (total 6^stands).
    pub attacker_score: Dist<u32>,
    pub defender_score: Dist<u32>,
    /// Attacker's total minus the defender's (total 6^(all stands)).
    pub margin: Dist<i64>,
    pub outcome: Dist<AssaultOutcome>,
}

impl AssaultOdds {
    pub fn p_attacker_wins(&self) -> f64 {
        self.margin.probability_where(|&m| m > 0)
    }

    pub fn p_tie(&self) -> f64 {
        self.margin.probability(&0)
    }

    pub fn p_defender_wins(&self) -> f64 {
        self.margin.probability_where(|&m| m < 0)
    }

    pub fn attacker_losses(&self) -> Dist<Losses> {
        self.outcome.map(|o| o.attacker)
    }

    pub fn defender_losses(&self) -> Dist<Losses> {
        self.outcome.map(|o| o.defender)
    }
}

/// Exact odds of an assault.
///
/// # Errors
/// As [`assault_levels`]; [`ResolveError::Dice`] beyond 49 dice in all.
pub fn assault_odds(assault: &Assault) -> Result<AssaultOdds, ResolveError> {
    let m = tables()?.resolution.assault;
    let (attacker_level, defender_level) = assault_levels(assault)?;
    let side = |stands: u32, level: i32| -> Result<Dist<u32>, ResolveError> {
        Ok(d6().map(|&f| die_score(f, level, &m)).sum_of(stands)?)
    };
    let attacker_score = side(assault.attacker.stands, attacker_level)?;
    let defender_score = side(assault.defender.stands, defender_level)?;
    let scores = attacker_score.combine(&defender_score, |&a, &d| (a, d))?;
    Ok(AssaultOdds {
        attacker_level,
        defender_level,
        margin: scores.map(|&(a, d)| i64::from(a) - i64::from(d)),
        outcome: scores.map(|&(a, d)| assault.outcome(a, d)),
        attacker_score,
        defender_score,
    })
}

/// An assault as it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AssaultRoll {
    pub seed: u64,
    pub attacker_level: i32,
    pub defender_level: i32,
    pub attacker_dice: RollRecord,
    pub defender_dice: RollRecord,
    pub result: AssaultResult,
}

/// Rolls an assault: the attacker's dice, then the defender's.
///
/// # Errors
/// As [`assault_odds`], or [`ResolveError::Dice`] if the roller refuses.
pub fn roll_assault(assault: &Assault, roller: &mut Roller) -> Result<AssaultRoll, ResolveError> {
    let (attacker_level, defender_level) = assault_levels(assault)?;
    let seed = roller.seed();
    let attacker_dice = roller.roll_d6("attacker", assault.attacker.stands)?;
    let defender_dice = roller.roll_d6("defender", assault.defender.stands)?;
    let result = assault_from_faces(assault, &attacker_dice.dice, &defender_dice.dice)?;
    Ok(AssaultRoll {
        seed,
        attacker_level,
        defender_level,
        attacker_dice,
        defender_dice,
        result,
    })
}

#[cfg(test)]
mod tests;
