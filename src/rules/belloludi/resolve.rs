//! BelloLudi Tanks! resolution: the commander die and its blunders, shooting, tanks crashing,
//! broken groups and armies, and victory points.
//!
//! Players want to know their odds before they commit an order, and want any roll to be
//! shown and replayed. Every odds function here is exact (integer weights from the dice
//! core, probabilities only at the edge); every `roll_…` takes a [`Roller`] and returns each
//! die rolled with the seed. The commander die's faces and weights, the blunder table, the
//! shooting modifiers and the victory points are seed data (`db/seed/belloludi.json`), so a
//! house rule is a data change.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::Vehicle;
use std::sync::OnceLock;

use crate::rules::dice::{Dist, FaceNames, RollRecord, Roller, d6};

pub use crate::rules::resolution::ResolveError;

/// One face of the BelloLudi commander die.
///
/// Ordered B first, then by number, as the book lists them (B, 0, 1, 2, 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum CommanderFace {
    /// B: a blunder when ordering, a bullseye when shooting, nothing in a crash.
    B,
    /// A number: orders given, damage dealt, or hits dealt in a crash.
    Number(u8),
}

impl CommanderFace {
    /// What the face adds to a sum (orders, damage, crash hits): B counts 0.
    pub fn value(self) -> u32 {
        match self {
            CommanderFace::B => 0,
            CommanderFace::Number(n) => u32::from(n),
        }
    }
}

impl TryFrom<String> for CommanderFace {
    type Error = String;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("b") {
            return Ok(CommanderFace::B);
        }
        text.parse::<u8>()
            .map(CommanderFace::Number)
            .map_err(|_| format!("'{text}' is not a commander die face (B or a number)"))
    }
}

impl CommanderFace {
    /// As the die shows it: "B", "0" … "3".
    pub fn printed(self) -> &'static str {
        const NUMBERS: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
        match self {
            CommanderFace::B => "B",
            CommanderFace::Number(n) => NUMBERS.get(usize::from(n)).copied().unwrap_or("?"),
        }
    }
}

impl From<CommanderFace> for String {
    fn from(face: CommanderFace) -> Self {
        face.to_string()
    }
}

impl fmt::Display for CommanderFace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommanderFace::B => f.write_str("B"),
            CommanderFace::Number(n) => write!(f, "{n}"),
        }
    }
}

/// A commander die face and how many faces of the reading die show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaceWeight {
    pub face: CommanderFace,
    pub weight: u32,
}

/// A row of the blunder table (d6).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlunderRow {
    pub roll: u8,
    pub name: String,
    pub effect: String,
    /// Moves the tank makes; `None` for Charge!, which rolls on the charge table.
    #[serde(default)]
    pub moves: Option<u8>,
    /// Charge!: roll another d6 on the charge table for the moves.
    #[serde(default)]
    pub charge: bool,
}

/// A row of the Charge! sub-table: a d6 roll `from..=to` gives `moves` moves forward.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeRow {
    pub from: u8,
    pub to: u8,
    pub moves: u8,
}

/// A shooting modifier, added to the d6 before comparing with [`ShootingTable::hit_on`].
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShotModifier {
    pub id: String,
    pub label: String,
    pub value: i8,
}

/// The shooting procedure's numbers.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShootingTable {
    /// The modified d6 roll that hits (4+).
    pub hit_on: u8,
    /// What the book calls close range, in inches (8″).
    pub close_range_inches: u32,
    pub modifiers: Vec<ShotModifier>,
}

/// Victory points per item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryPointValues {
    pub shaken: u32,
    pub removed: u32,
    pub destroyed: u32,
    pub broken_group: u32,
}

/// The resolution tables from the seed data.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolutionTables {
    /// How a d20 reads as the commander die, for people reading the data file.
    #[serde(default)]
    pub commander_die_note: String,
    /// The commander die's faces in d20 reading order: a roll of the reading die (as many
    /// sides as the weights add up to) shows the first face whose running weight reaches it.
    pub commander_die: Vec<FaceWeight>,
    pub blunders: Vec<BlunderRow>,
    pub charge: Vec<ChargeRow>,
    pub shooting: ShootingTable,
    pub victory_points: VictoryPointValues,
}

impl ResolutionTables {
    /// The blunder table row for a d6 roll.
    pub fn blunder(&self, roll: u8) -> Option<&BlunderRow> {
        self.blunders.iter().find(|b| b.roll == roll)
    }

    /// Moves from the Charge! sub-table for a d6 roll.
    pub fn charge_moves(&self, roll: u8) -> Option<u8> {
        self.charge
            .iter()
            .find(|c| (c.from..=c.to).contains(&roll))
            .map(|c| c.moves)
    }

    fn modifier(&self, id: &str) -> Result<i32, ResolveError> {
        self.shooting
            .modifiers
            .iter()
            .find(|m| m.id == id)
            .map(|m| i32::from(m.value))
            .ok_or_else(|| super::DATA.bad_data(format!("no shooting modifier '{id}'")))
    }
}

fn tables() -> Result<&'static ResolutionTables, ResolveError> {
    super::DATA.for_resolution(|d| &d.resolution)
}

// ---------------------------------------------------------------------------------------
// The commander die
// ---------------------------------------------------------------------------------------

/// The commander die as a distribution (B 1/20, 0 4/20, 1 5/20, 2 5/20, 3 5/20 by default).
///
/// # Errors
/// [`ResolveError::NoData`] without seed data; [`ResolveError::Dice`] if no face has weight.
pub fn commander_die() -> Result<Dist<CommanderFace>, ResolveError> {
    let faces = &tables()?.commander_die;
    Ok(Dist::from_weights(
        faces.iter().map(|f| (f.face, u128::from(f.weight))),
    )?)
}

/// Sides of the die a commander die is read from (20 for the d20 reading).
fn reading_die_sides(faces: &[FaceWeight]) -> Result<u8, ResolveError> {
    let total: u32 = faces.iter().map(|f| f.weight).sum();
    u8::try_from(total)
        .ok()
        .filter(|&sides| sides > 0)
        .ok_or_else(|| {
            super::DATA.bad_data(format!(
                "commander die weights add up to {total}: a reading die needs 1–255 sides"
            ))
        })
}

/// The commander face a roll of the reading die shows.
fn read_face(faces: &[FaceWeight], roll: u8) -> Option<CommanderFace> {
    let mut reached = 0u32;
    faces.iter().find_map(|f| {
        reached += f.weight;
        (u32::from(roll) <= reached).then_some(f.face)
    })
}

/// The commander die's faces as the book prints them, face by face of the reading die (the
/// d20 reading: 1–4 show 0, 5–9 1, 10–14 2, 15–19 3, 20 B): what the players type for a
/// commander die roll.
///
/// # Errors
/// [`ResolveError::NoData`] without seed data.
pub fn commander_names() -> Result<FaceNames, ResolveError> {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    let faces = &tables()?.commander_die;
    Ok(FaceNames::read_from(
        &NAMES,
        faces.iter().map(|f| (f.face.printed(), f.weight)),
    ))
}

/// Rolls `count` commander dice (as reading-die faces) and reads them.
fn roll_commander_dice(
    roller: &mut Roller,
    pool: &'static str,
    count: u32,
) -> Result<(RollRecord, Vec<CommanderFace>), ResolveError> {
    let faces = &tables()?.commander_die;
    let record = roller.roll_named(pool, reading_die_sides(faces)?, count, commander_names()?)?;
    let read = record
        .dice
        .iter()
        .map(|&roll| {
            read_face(faces, roll)
                .ok_or_else(|| super::DATA.bad_data(format!("no commander face for {roll}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((record, read))
}

/// What a commander die roll for orders comes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CommandOutcome {
    /// B: all orders lost; the tank blunders. `roll` is the blunder table's d6 and `moves`
    /// the moves the blunder forces (for Charge! read from the charge sub-roll).
    Blunder { roll: u8, moves: u8 },
    /// This many orders (0: the order is not received; the tank may still fire).
    Orders { orders: u32 },
}

/// The moves forced by blunder `roll` (and, for Charge!, `charge_roll`).
fn blunder_moves(t: &ResolutionTables, roll: u8, charge_roll: u8) -> Result<u8, ResolveError> {
    let row = t
        .blunder(roll)
        .ok_or_else(|| super::DATA.bad_data(format!("no blunder row for a roll of {roll}")))?;
    if row.charge {
        return t.charge_moves(charge_roll).ok_or_else(|| {
            super::DATA.bad_data(format!("no charge row for a roll of {charge_roll}"))
        });
    }
    row.moves
        .ok_or_else(|| super::DATA.bad_data(format!("blunder {roll} ({}) has no moves", row.name)))
}

/// Every (blunder d6, charge d6) pair's forced moves, indexed `[roll - 1][charge - 1]`.
fn blunder_grid(t: &ResolutionTables) -> Result<[[u8; 6]; 6], ResolveError> {
    let mut grid = [[0u8; 6]; 6];
    for (r, row) in grid.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = blunder_moves(t, r as u8 + 1, c as u8 + 1)?;
        }
    }
    Ok(grid)
}

/// Exact odds of the command roll: orders 0–3 or a blunder with its forced moves.
///
/// The total is 20 × 6 × 6 = 720: the commander die, the blunder d6 and the charge d6 (the
/// two d6 only matter after a B, but counting them always keeps one common total).
///
/// # Errors
/// [`ResolveError::NoData`] or [`ResolveError::BadData`] for missing or broken tables.
pub fn command_odds() -> Result<Dist<CommandOutcome>, ResolveError> {
    let t = tables()?;
    let grid = blunder_grid(t)?;
    let blunder = d6().combine(&d6(), |&roll, &charge| (roll, charge))?;
    Ok(
        commander_die()?.combine(&blunder, |face, &(roll, charge)| match face {
            CommanderFace::B => CommandOutcome::Blunder {
                roll: roll as u8,
                moves: grid[roll as usize - 1][charge as usize - 1],
            },
            CommanderFace::Number(n) => CommandOutcome::Orders {
                orders: u32::from(*n),
            },
        })?,
    )
}

/// A command roll as it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CommandRoll {
    pub seed: u64,
    /// The reading die (d20) rolled for the commander die.
    pub commander_die: RollRecord,
    pub face: CommanderFace,
    /// The blunder table's d6, after a B.
    pub blunder_die: Option<RollRecord>,
    /// The blunder's name ("Charge!"), after a B.
    pub blunder: Option<String>,
    /// The Charge! sub-roll, after a blunder roll of 6.
    pub charge_die: Option<RollRecord>,
    pub outcome: CommandOutcome,
}

/// Rolls the commander die for orders, and the blunder table after a B.
///
/// # Errors
/// As [`command_odds`], or [`ResolveError::Dice`] if the roller refuses.
pub fn roll_command(roller: &mut Roller) -> Result<CommandRoll, ResolveError> {
    let t = tables()?;
    let seed = roller.seed();
    let (commander_die, faces) = roll_commander_dice(roller, "commander", 1)?;
    let face = faces.first().copied().unwrap_or(CommanderFace::B);
    let mut roll = CommandRoll {
        seed,
        commander_die,
        face,
        blunder_die: None,
        blunder: None,
        charge_die: None,
        outcome: CommandOutcome::Orders {
            orders: face.value(),
        },
    };
    if face == CommanderFace::B {
        let blunder_die = roller.roll_d6("blunder", 1)?;
        let blunder_roll = first_face(&blunder_die);
        let row = t.blunder(blunder_roll).ok_or_else(|| {
            super::DATA.bad_data(format!("no blunder row for a roll of {blunder_roll}"))
        })?;
        let mut charge_roll = 1;
        if row.charge {
            let charge_die = roller.roll_d6("charge", 1)?;
            charge_roll = first_face(&charge_die);
            roll.charge_die = Some(charge_die);
        }
        roll.blunder = Some(row.name.clone());
        roll.blunder_die = Some(blunder_die);
        roll.outcome = CommandOutcome::Blunder {
            roll: blunder_roll,
            moves: blunder_moves(t, blunder_roll, charge_roll)?,
        };
    }
    Ok(roll)
}

/// The single face of a one-die record (1 if it is somehow empty).
fn first_face(record: &RollRecord) -> u8 {
    record.dice.first().copied().unwrap_or(1)
}

// ---------------------------------------------------------------------------------------
// Tank state
// ---------------------------------------------------------------------------------------

/// How a tank stands, worst last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TankState {
    /// Remaining armour at least half the original.
    Steady,
    /// Remaining armour below half the original: −1 to shoot.
    Shaken,
    /// Remaining armour at most a quarter of the original: it retreats.
    Broken,
    /// No armour left, or hit by a bullseye.
    Destroyed,
    /// Gone from the table some other way (a broken tank retreating off it).
    Removed,
}

impl TankState {
    /// Shaken, broken or gone: what counts towards a broken group.
    pub fn is_out_of_the_fight(self) -> bool {
        self != TankState::Steady
    }
}

/// The state of `vehicle` with `remaining` armour points left (see the ruling: shaken below
/// half, broken at or below a quarter, destroyed at 0).
pub fn state_of(vehicle: &Vehicle, remaining: u32) -> TankState {
    let armour = u32::from(vehicle.armour);
    let hits = armour.saturating_sub(remaining);
    if remaining == 0 {
        TankState::Destroyed
    } else if hits >= vehicle.hits_to_broken() {
        TankState::Broken
    } else if hits >= vehicle.hits_to_shaken() {
        TankState::Shaken
    } else {
        TankState::Steady
    }
}

/// A tank being shot at or crashed into, with the armour it has left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target<'a> {
    pub vehicle: &'a Vehicle,
    /// Armour points left, `1..=vehicle.armour`.
    pub remaining: u32,
}

impl<'a> Target<'a> {
    /// An undamaged tank.
    pub fn fresh(vehicle: &'a Vehicle) -> Self {
        Self {
            vehicle,
            remaining: u32::from(vehicle.armour),
        }
    }

    /// A tank with `remaining` armour points left.
    ///
    /// # Errors
    /// [`ResolveError::Invalid`] unless `1 <= remaining <= armour`.
    pub fn damaged(vehicle: &'a Vehicle, remaining: u32) -> Result<Self, ResolveError> {
        let armour = u32::from(vehicle.armour);
        if remaining == 0 || remaining > armour {
            return Err(ResolveError::Invalid {
                field: "remaining armour",
                message: format!(
                    "{remaining} for {} (armour {armour}): it must be 1–{armour}",
                    vehicle.name
                ),
            });
        }
        Ok(Self { vehicle, remaining })
    }

    /// The state after taking `hits` more hits.
    fn state_after(&self, hits: u32) -> TankState {
        state_of(self.vehicle, self.remaining.saturating_sub(hits))
    }
}

// ---------------------------------------------------------------------------------------
// Shooting
// ---------------------------------------------------------------------------------------

/// The circumstances of one shot; each flag applies one modifier from the shooting table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShotSituation {
    /// Target within close range (8″): +1.
    pub close_range: bool,
    /// Shooter disordered or shaken: −1.
    pub shooter_disordered_or_shaken: bool,
    /// Target not clear / in cover (or under a Cover! order): −1.
    pub target_in_cover: bool,
    /// Target in open order: −1.
    pub target_open_order: bool,
}

impl ShotSituation {
    /// The sum of the modifiers that apply.
    fn modifier(&self, t: &ResolutionTables) -> Result<i32, ResolveError> {
        let flags = [
            (self.close_range, "close_range"),
            (
                self.shooter_disordered_or_shaken,
                "shooter_disordered_or_shaken",
            ),
            (self.target_in_cover, "target_in_cover"),
            (self.target_open_order, "target_open_order"),
        ];
        let mut total = 0;
        for (set, id) in flags {
            if set {
                total += t.modifier(id)?;
            }
        }
        Ok(total)
    }
}

/// The unmodified d6 needed to hit: `hit_on` minus the modifiers (a 1 still misses and a 6
/// still hits whatever this says).
///
/// # Errors
/// [`ResolveError::NoData`] / [`ResolveError::BadData`] for missing tables.
pub fn hit_need(situation: &ShotSituation) -> Result<i32, ResolveError> {
    let t = tables()?;
    Ok(i32::from(t.shooting.hit_on) - situation.modifier(t)?)
}

/// Whether a d6 showing `face` hits when `need`+ is needed: 1 always misses, 6 always hits.
pub fn is_hit(face: u32, need: i32) -> bool {
    face == 6 || (face != 1 && i64::from(face) >= i64::from(need))
}

/// What the commander dice rolled after a hit do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Damage {
    /// At least one B: the target is destroyed.
    pub bullseye: bool,
    /// The sum of the faces (B counts 0).
    pub points: u32,
    /// No die showed 0: "all dice hit", and the target is thrown into disorder (RULINGS
    /// "Shooting").
    pub all_dice_hit: bool,
}

impl Damage {
    /// Damage from the commander faces of one hit.
    pub fn from_faces(faces: &[CommanderFace]) -> Self {
        Damage {
            bullseye: faces.contains(&CommanderFace::B),
            points: faces.iter().map(|f| f.value()).sum(),
            all_dice_hit: !faces.contains(&CommanderFace::Number(0)),
        }
    }

    /// Whether this hit leaves a target with `remaining` armour in disorder: every die hit,
    /// and the target is still there (a bullseye or the last armour point destroys it).
    pub fn disorders(&self, remaining: u32) -> bool {
        self.all_dice_hit && !self.bullseye && self.points < remaining
    }
}

/// The damage of `commander_dice` commander dice after a hit.
///
/// # Errors
/// [`ResolveError::Dice`] for more dice than can be counted exactly (29 d20s).
pub fn damage_odds(commander_dice: u32) -> Result<Dist<Damage>, ResolveError> {
    let start = Damage::from_faces(&[]);
    Ok(
        commander_die()?.repeat(commander_dice, start, |acc, face| Damage {
            bullseye: acc.bullseye || *face == CommanderFace::B,
            points: acc.points + face.value(),
            all_dice_hit: acc.all_dice_hit && *face != CommanderFace::Number(0),
        })?,
    )
}

/// One shot: a miss, or a hit and its damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ShotOutcome {
    Miss,
    Hit(Damage),
}

/// Exact odds of one shot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShotOdds {
    /// The d6 needed after modifiers (a 1 misses and a 6 hits regardless).
    pub need: i32,
    /// Commander dice the shooter rolls for damage.
    pub commander_dice: u32,
    /// The to-hit roll (total 6).
    pub hit: Dist<bool>,
    /// Damage given a hit (total 20^dice).
    pub damage: Dist<Damage>,
    /// The whole shot (total 6 × 20^dice).
    pub outcome: Dist<ShotOutcome>,
    /// The target's armour before the shot.
    pub remaining_before: u32,
    /// The target's state after the shot (same total as `outcome`).
    pub state_after: Dist<TankState>,
}

impl ShotOdds {
    /// P(the shot hits).
    pub fn p_hit(&self) -> f64 {
        self.hit.probability(&true)
    }

    /// P(a bullseye), counting the to-hit roll.
    pub fn p_bullseye(&self) -> f64 {
        self.outcome
            .probability_where(|o| matches!(o, ShotOutcome::Hit(d) if d.bullseye))
    }

    /// P(every damage die hits and the target, still there, is thrown into disorder).
    pub fn p_disorder(&self) -> f64 {
        let remaining = self.remaining_before;
        self.outcome
            .probability_where(|o| matches!(o, ShotOutcome::Hit(d) if d.disorders(remaining)))
    }

    /// P(the target ends the shot in `state` or worse).
    pub fn p_at_least(&self, state: TankState) -> f64 {
        self.state_after.at_least(&state)
    }
}

/// The commander dice a shooter rolls for damage.
fn shooter_dice(shooter: &Vehicle) -> Result<u32, ResolveError> {
    match shooter.shooting {
        0 => Err(ResolveError::Invalid {
            field: "shooter",
            message: format!("{} rolls 0 commander dice: it cannot shoot", shooter.name),
        }),
        n => Ok(u32::from(n)),
    }
}

/// Exact odds of `shooter` firing once at `target`.
///
/// # Errors
/// [`ResolveError::Invalid`] for a shooter without dice; data and dice errors as above.
pub fn shot_odds(
    shooter: &Vehicle,
    target: Target<'_>,
    situation: &ShotSituation,
) -> Result<ShotOdds, ResolveError> {
    let commander_dice = shooter_dice(shooter)?;
    let need = hit_need(situation)?;
    let hit = d6().map(|&face| is_hit(face, need));
    let damage = damage_odds(commander_dice)?;
    let outcome = hit.combine(&damage, |&hit, damage| {
        if hit {
            ShotOutcome::Hit(*damage)
        } else {
            ShotOutcome::Miss
        }
    })?;
    let state_after = outcome.map(|o| match o {
        ShotOutcome::Miss => target.state_after(0),
        ShotOutcome::Hit(d) if d.bullseye => TankState::Destroyed,
        ShotOutcome::Hit(d) => target.state_after(d.points),
    });
    Ok(ShotOdds {
        need,
        commander_dice,
        hit,
        damage,
        outcome,
        remaining_before: target.remaining,
        state_after,
    })
}

/// One shot as it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShotRoll {
    pub seed: u64,
    pub need: i32,
    /// The to-hit d6.
    pub to_hit: RollRecord,
    pub hit: bool,
    /// The reading dice (d20) rolled for the commander dice, after a hit.
    pub damage_dice: Option<RollRecord>,
    /// The commander faces those dice show.
    pub faces: Vec<CommanderFace>,
    pub damage: Option<Damage>,
    pub remaining_before: u32,
    pub remaining_after: u32,
    pub state_after: TankState,
    /// Every damage die hit and the target survived: it is in disorder.
    pub disordered: bool,
}

/// Rolls one shot of `shooter` at `target`.
///
/// # Errors
/// As [`shot_odds`].
pub fn roll_shot(
    shooter: &Vehicle,
    target: Target<'_>,
    situation: &ShotSituation,
    roller: &mut Roller,
) -> Result<ShotRoll, ResolveError> {
    let commander_dice = shooter_dice(shooter)?;
    let need = hit_need(situation)?;
    let seed = roller.seed();
    let to_hit = roller.roll_d6("to_hit", 1)?;
    let hit = is_hit(u32::from(first_face(&to_hit)), need);
    let mut roll = ShotRoll {
        seed,
        need,
        to_hit,
        hit,
        damage_dice: None,
        faces: Vec::new(),
        damage: None,
        remaining_before: target.remaining,
        remaining_after: target.remaining,
        state_after: target.state_after(0),
        disordered: false,
    };
    if hit {
        let (record, faces) = roll_commander_dice(roller, "damage", commander_dice)?;
        let damage = Damage::from_faces(&faces);
        roll.disordered = damage.disorders(target.remaining);
        roll.remaining_after = if damage.bullseye {
            0
        } else {
            target.remaining.saturating_sub(damage.points)
        };
        roll.state_after = state_of(target.vehicle, roll.remaining_after);
        roll.damage_dice = Some(record);
        roll.faces = faces;
        roll.damage = Some(damage);
    }
    Ok(roll)
}

// ---------------------------------------------------------------------------------------
// Crashing
// ---------------------------------------------------------------------------------------

/// Hits dealt when two tanks crash: each rolls a commander die and deals its number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct CrashHits {
    /// Hits the first tank takes (the second tank's die).
    pub to_first: u32,
    /// Hits the second tank takes (the first tank's die).
    pub to_second: u32,
}

/// Exact odds of a crash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrashOdds {
    /// Hits both ways (total 400).
    pub hits: Dist<CrashHits>,
    pub first_after: Dist<TankState>,
    pub second_after: Dist<TankState>,
}

/// Exact odds of `first` and `second` crashing into each other.
///
/// # Errors
/// Data and dice errors as above.
pub fn crash_odds(first: Target<'_>, second: Target<'_>) -> Result<CrashOdds, ResolveError> {
    let die = commander_die()?;
    let hits = die.combine(&die, |a, b| CrashHits {
        to_first: b.value(),
        to_second: a.value(),
    })?;
    Ok(CrashOdds {
        first_after: hits.map(|h| first.state_after(h.to_first)),
        second_after: hits.map(|h| second.state_after(h.to_second)),
        hits,
    })
}

/// A crash as it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CrashRoll {
    pub seed: u64,
    /// Two reading dice (d20): the first tank's, then the second's.
    pub dice: RollRecord,
    pub faces: Vec<CommanderFace>,
    pub hits: CrashHits,
    pub first_remaining: u32,
    pub second_remaining: u32,
    pub first_after: TankState,
    pub second_after: TankState,
}

/// Rolls a crash between `first` and `second`.
///
/// # Errors
/// Data and dice errors as above.
pub fn roll_crash(
    first: Target<'_>,
    second: Target<'_>,
    roller: &mut Roller,
) -> Result<CrashRoll, ResolveError> {
    let seed = roller.seed();
    let (dice, faces) = roll_commander_dice(roller, "crash", 2)?;
    let value = |i: usize| faces.get(i).map_or(0, |f| f.value());
    let hits = CrashHits {
        to_first: value(1),
        to_second: value(0),
    };
    Ok(CrashRoll {
        seed,
        dice,
        faces,
        hits,
        first_remaining: first.remaining.saturating_sub(hits.to_first),
        second_remaining: second.remaining.saturating_sub(hits.to_second),
        first_after: first.state_after(hits.to_first),
        second_after: second.state_after(hits.to_second),
    })
}

// ---------------------------------------------------------------------------------------
// Broken groups, broken armies, victory
// ---------------------------------------------------------------------------------------

/// A group is broken when more than half its tanks are shaken, broken or gone.
///
/// `tanks` lists every tank the group started with, in its current state.
pub fn group_is_broken(tanks: &[TankState]) -> bool {
    let out = tanks.iter().filter(|s| s.is_out_of_the_fight()).count();
    out * 2 > tanks.len()
}

/// An army is broken when more than half its groups are broken.
pub fn army_is_broken<G: AsRef<[TankState]>>(groups: &[G]) -> bool {
    let broken = groups
        .iter()
        .filter(|g| group_is_broken(g.as_ref()))
        .count();
    broken * 2 > groups.len()
}

/// What the opponent scores victory points for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VictoryTally {
    /// Shaken tanks (a broken tank still on the table was shaken first and counts here).
    pub shaken: u32,
    /// Tanks removed from play without being destroyed.
    pub removed: u32,
    pub destroyed: u32,
    pub broken_groups: u32,
}

impl VictoryTally {
    /// Counts one side's groups: each tank once, by its state, plus the broken groups.
    pub fn from_groups<G: AsRef<[TankState]>>(groups: &[G]) -> Self {
        let mut tally = Self::default();
        for group in groups {
            let tanks = group.as_ref();
            for state in tanks {
                match state {
                    TankState::Steady => {}
                    TankState::Shaken | TankState::Broken => tally.shaken += 1,
                    TankState::Removed => tally.removed += 1,
                    TankState::Destroyed => tally.destroyed += 1,
                }
            }
            tally.broken_groups += u32::from(group_is_broken(tanks));
        }
        tally
    }

    /// The victory points this tally is worth to the opponent (1 per shaken, removed or
    /// destroyed tank, 2 per broken group by default).
    ///
    /// # Errors
    /// [`ResolveError::NoData`] without seed data.
    pub fn points(&self) -> Result<u32, ResolveError> {
        let vp = tables()?.victory_points;
        Ok(self.shaken * vp.shaken
            + self.removed * vp.removed
            + self.destroyed * vp.destroyed
            + self.broken_groups * vp.broken_group)
    }
}

#[cfg(test)]
mod tests;
