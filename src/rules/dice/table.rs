//! Dice the players rolled at the table, handed to the rules in place of seeded dice.
//!
//! Most players roll their own dice. The rules ask for every roll by a pool name ("attack",
//! "reaction", "fubar"), the number of dice and their sides; with [`TableDice`] the
//! [`Roller`](super::Roller) answers each request with the faces the players typed for that
//! pool instead of drawing them from a seed, so the outcome is derived from those faces by
//! exactly the code that derives it from seeded ones.
//!
//! A pool the rules ask for more than once (a reroll round, one volley per target) takes the
//! given rolls of that name in order. A pool whose size depends on earlier dice (a follow-up
//! die after a six, a FUBAR die after a double six) is asked for only once the earlier faces
//! are known: [`Roller::asked`](super::Roller::asked) lists every request a roll made, so a
//! front end can prompt for the pools one after another.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Where the faces of one roll came from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Drawn from a seed: replayable from the seed and the roll's number.
    #[default]
    Seed,
    /// Rolled by the players at the table and typed in.
    Table,
}

impl Source {
    /// Whether the faces came from a seed (records from before table dice existed did).
    pub fn is_seed(&self) -> bool {
        *self == Source::Seed
    }

    /// "seed" or "table", as the JSON writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Seed => "seed",
            Source::Table => "table",
        }
    }
}

/// One roll the rules asked for: the pool's name, how many dice and of how many sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PoolRequest {
    /// The pool's name, as `--dice POOL=FACES` spells it ("attack").
    pub pool: &'static str,
    pub sides: u8,
    pub count: u32,
}

impl PoolRequest {
    /// "7 d6", "1 d20".
    pub fn dice(&self) -> String {
        format!("{} d{}", self.count, self.sides)
    }
}

/// One roll given for a pool: faces, or text as typed (read once the die is known, so "17"
/// is one d20 and "652" three d6).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Given {
    Faces(Vec<u8>),
    Typed(String),
}

/// Faces rolled at the table, by pool name; each pool holds its rolls in the order rolled.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct TableDice {
    pools: BTreeMap<String, Vec<Given>>,
}

impl TableDice {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one roll of `pool` after any given before.
    pub fn add(&mut self, pool: impl Into<String>, faces: Vec<u8>) {
        self.pools
            .entry(pool.into())
            .or_default()
            .push(Given::Faces(faces));
    }

    /// The same dice with one more roll of `pool`.
    pub fn with(mut self, pool: impl Into<String>, faces: Vec<u8>) -> Self {
        self.add(pool, faces);
        self
    }

    /// Adds one roll of `pool` as typed ("6,5,2", "652", "17"), read once the rules say which
    /// die it is.
    ///
    /// # Errors
    /// A message naming the piece that is not a face.
    pub fn add_typed(&mut self, pool: impl Into<String>, text: &str) -> Result<(), String> {
        check_typed(text)?;
        self.pools
            .entry(pool.into())
            .or_default()
            .push(Given::Typed(text.trim().to_string()));
        Ok(())
    }

    /// Whether no faces were given at all.
    pub fn is_empty(&self) -> bool {
        self.pools.values().all(Vec::is_empty)
    }

    /// Every given roll as (pool, occurrence), pools in name order.
    pub fn rolls(&self) -> impl Iterator<Item = (&str, usize)> {
        self.pools
            .iter()
            .flat_map(|(pool, rolls)| (0..rolls.len()).map(move |i| (pool.as_str(), i)))
    }

    /// Whether the `occurrence`-th roll of `pool` (counting from 0) was given.
    pub fn has(&self, pool: &str, occurrence: usize) -> bool {
        self.pools.get(pool).is_some_and(|r| occurrence < r.len())
    }

    /// The faces of the `occurrence`-th roll of `pool` read as `count` dice of `sides` sides;
    /// `None` when that roll was not given.
    pub fn faces(
        &self,
        pool: &str,
        occurrence: usize,
        sides: u8,
        count: u32,
    ) -> Option<Result<Vec<u8>, String>> {
        Some(match self.pools.get(pool)?.get(occurrence)? {
            Given::Faces(faces) => Ok(faces.clone()),
            Given::Typed(text) => read_faces(text, sides, count),
        })
    }

    /// How many rolls of `pool` were given.
    pub fn rolls_of(&self, pool: &str) -> usize {
        self.pools.get(pool).map_or(0, Vec::len)
    }

    /// Parses "attack=6,5,5,2" (or "attack=6552" for single-digit dice) into a pool name and
    /// adds it.
    ///
    /// # Errors
    /// A message naming what is wrong: no `=`, no pool name, or unreadable faces.
    pub fn add_pool(&mut self, text: &str) -> Result<(), String> {
        let Some((pool, faces)) = text.split_once('=') else {
            return Err(format!(
                "'{text}': write POOL=FACES, e.g. attack=6,5,2 or attack=652"
            ));
        };
        let pool = pool.trim();
        if pool.is_empty() {
            return Err(format!("'{text}': the pool's name is missing before '='"));
        }
        self.add_typed(pool, faces)
            .map_err(|e| format!("{pool}: {e}"))
    }
}

const SEPARATORS: [char; 3] = [',', ' ', ';'];

/// Whether `text` is faces as the players type them: numbers between separators, or digits.
///
/// # Errors
/// A message naming the piece that is not a face.
pub fn check_typed(text: &str) -> Result<(), String> {
    let text = text.trim();
    let not_a_face =
        |piece: &str| format!("'{piece}' is not a die face (write faces as 6,5,2 or 652)");
    if text.contains(SEPARATORS) {
        for piece in text.split(SEPARATORS).filter(|p| !p.is_empty()) {
            match piece.parse::<u8>() {
                Ok(1..) => {}
                _ => return Err(not_a_face(piece)),
            }
        }
    } else if let Some(bad) = text.chars().find(|c| !c.is_ascii_digit()) {
        return Err(not_a_face(&bad.to_string()));
    }
    Ok(())
}

/// Faces typed quickly, read as `count` dice of `sides` sides: "6,5,5,2", "6 5 5 2" or, for
/// dice up to 9 sides, "6552"; one die above 9 sides may be typed alone ("17"); empty for a
/// pool of no dice.
///
/// # Errors
/// A message naming the piece that is not a face, or asking for commas where digits could be
/// read more than one way ("1720" as d20s).
pub fn read_faces(text: &str, sides: u8, count: u32) -> Result<Vec<u8>, String> {
    check_typed(text)?;
    let text = text.trim();
    let face = |piece: &str| {
        piece
            .parse::<u8>()
            .ok()
            .filter(|&f| f >= 1)
            .ok_or_else(|| format!("'{piece}' is not a die face (write faces as 6,5,2 or 652)"))
    };
    if text.contains(SEPARATORS) {
        return text
            .split(SEPARATORS)
            .filter(|p| !p.is_empty())
            .map(face)
            .collect();
    }
    if text.is_empty() {
        return Ok(Vec::new());
    }
    match (sides, count) {
        // Every character is one die: "65521".
        (..=9, _) => text.chars().map(|c| face(&c.to_string())).collect(),
        (_, 1) => Ok(vec![face(text)?]),
        _ => Err(format!(
            "'{text}': write d{sides} faces with commas (12,3,20): digits alone read more than one way"
        )),
    }
}

/// Faces typed for dice up to 9 sides (or separated): [`read_faces`] for d6.
///
/// # Errors
/// As [`read_faces`].
pub fn parse_faces(text: &str) -> Result<Vec<u8>, String> {
    read_faces(text, 6, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_are_read_with_or_without_separators() {
        assert_eq!(parse_faces("6,5,5,2,1,1,2").unwrap(), [6, 5, 5, 2, 1, 1, 2]);
        assert_eq!(parse_faces("6552112").unwrap(), [6, 5, 5, 2, 1, 1, 2]);
        assert_eq!(parse_faces(" 12, 20 3 ").unwrap(), [12, 20, 3]);
        assert!(parse_faces("").unwrap().is_empty());
        assert!(parse_faces("6,x").unwrap_err().contains("'x'"));
        assert!(parse_faces("605").unwrap_err().contains("'0'"));
        // One die above 9 sides reads whole; several need commas.
        assert_eq!(read_faces("17", 20, 1).unwrap(), [17]);
        assert_eq!(read_faces("20", 20, 1).unwrap(), [20]);
        assert!(read_faces("1720", 20, 2).unwrap_err().contains("commas"));
        assert_eq!(read_faces("17,20", 20, 2).unwrap(), [17, 20]);
    }

    #[test]
    fn a_pool_is_named_before_its_faces() {
        let mut dice = TableDice::new();
        dice.add_pool("attack=652").unwrap();
        assert_eq!(dice.faces("attack", 0, 6, 3), Some(Ok(vec![6, 5, 2])));
        assert!(dice.add_pool("652").unwrap_err().contains("POOL=FACES"));
        assert!(dice.add_pool("=652").unwrap_err().contains("name"));
        assert!(
            dice.add_pool("attack=6x")
                .unwrap_err()
                .starts_with("attack: 'x'")
        );
        let dice = TableDice::new().with("us", vec![1, 2]).with("us", vec![6]);
        assert_eq!(dice.faces("us", 1, 6, 1), Some(Ok(vec![6])));
        assert!(dice.has("us", 1) && !dice.has("us", 2));
        assert_eq!(dice.rolls_of("us"), 2);
        assert_eq!(dice.rolls().count(), 2);
    }
}
