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
//!
//! Where a book prints its die with letters (BelloLudi's commander die B, 0–3, Battle of
//! Tanks' penetration die –, K, T, W) or the "die" is a colour drawn from a bag (Bolt Action's
//! order dice), the rules still roll a numbered die and read it, but the request carries the
//! names of its faces ([`FaceNames`]): the players type what their die shows ("B", "K,T,W",
//! "second"), and the number it stands for is what the rules read and the log keeps. The
//! numbers keep working as they always did, so old scripts and recorded events are read
//! unchanged.

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

/// What the faces of a die are called, where the book prints something other than numbers.
///
/// The rules always roll a numbered die (its faces 1 to its sides) and read it; the names are
/// how the players see and type it. A number typed for a named die still reads as that face
/// of the numbered die (the d20 a BelloLudi player may roll instead of the commander die),
/// unless the number is itself a name (the commander die's 0–3 are its faces' names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum FaceNames {
    /// Numbered 1 to its sides, as an ordinary die.
    #[default]
    Numbers,
    /// Face `n` (from 1) shows `names[n - 1]`; several faces may show one name (the book's
    /// die read from a d20 or a d6).
    Printed(&'static [&'static str]),
    /// A die drawn from a bag of two colours: the first `first` faces are the first colour's,
    /// the rest the second's.
    Bag {
        first: u8,
        names: (&'static str, &'static str),
    },
}

impl FaceNames {
    /// A die read from a numbered one, as its data gives it: each name with how many faces
    /// of the numbered die show it, in reading order (the commander die: 0 ×4, 1 ×5 … B ×1).
    /// The names are laid out once, in `cache`, so the request can hold them.
    pub fn read_from(
        cache: &'static std::sync::OnceLock<Vec<&'static str>>,
        weights: impl IntoIterator<Item = (&'static str, u32)>,
    ) -> FaceNames {
        let names = cache.get_or_init(|| {
            weights
                .into_iter()
                .flat_map(|(name, weight)| std::iter::repeat_n(name, weight as usize))
                .collect()
        });
        FaceNames::Printed(names)
    }
}

/// What players type for a blank face: a dash of any length, or the word.
const BLANKS: [&str; 5] = ["-", "–", "—", "_", "blank"];

fn same_name(typed: &str, name: &str) -> bool {
    let blank = |t: &str| BLANKS.iter().any(|b| b.eq_ignore_ascii_case(t));
    typed.eq_ignore_ascii_case(name) || (blank(typed) && blank(name))
}

impl FaceNames {
    /// The name face `face` (from 1) shows; `None` for a numbered die.
    pub fn name(self, face: u8) -> Option<&'static str> {
        match self {
            FaceNames::Numbers => None,
            FaceNames::Printed(names) => names.get(usize::from(face).checked_sub(1)?).copied(),
            FaceNames::Bag { first, names } => Some(if face <= first { names.0 } else { names.1 }),
        }
    }

    /// Every name once, in face order: what the die shows ("–, K, T, W").
    pub fn shown(self, sides: u8) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = Vec::new();
        for face in 1..=sides {
            if let Some(name) = self.name(face)
                && !names.contains(&name)
            {
                names.push(name);
            }
        }
        names
    }

    /// The face a typed name stands for on a die of `sides` sides: the first face showing it
    /// (any case; a bag's colour by its first letters too).
    pub fn face_of(self, typed: &str, sides: u8) -> Option<u8> {
        let typed = typed.trim();
        if typed.is_empty() {
            return None;
        }
        let exact = (1..=sides).find(|&f| self.name(f).is_some_and(|n| same_name(typed, n)));
        exact.or_else(|| match self {
            FaceNames::Bag { .. } => {
                let starts = |f: u8| {
                    self.name(f).is_some_and(|n| {
                        n.len() >= typed.len()
                            && n.get(..typed.len())
                                .is_some_and(|p| p.eq_ignore_ascii_case(typed))
                    })
                };
                (1..=sides).find(|&f| starts(f))
            }
            _ => None,
        })
    }

    /// Every name is one character, so faces typed without separators read one a character.
    fn one_character_each(self, sides: u8) -> bool {
        !matches!(self, FaceNames::Numbers)
            && self.shown(sides).iter().all(|n| n.chars().count() == 1)
    }

    /// "B, 0, 1, 2 or 3".
    pub fn list(self, sides: u8) -> String {
        crate::rules::words::or_list(&self.shown(sides))
    }
}

/// One roll the rules asked for: the pool's name, how many dice and of how many sides, and
/// what its faces are called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PoolRequest {
    /// The pool's name, as `--dice POOL=FACES` spells it ("attack").
    pub pool: &'static str,
    pub sides: u8,
    pub count: u32,
    /// The names players type for its faces (numbers for an ordinary die).
    pub faces: FaceNames,
}

impl PoolRequest {
    /// "7 d6", "1 die: B, 0, 1, 2 or 3", "the colour drawn: first or second".
    pub fn dice(&self) -> String {
        die_words(self.count, self.sides, self.faces)
    }

    /// Faces typed for this pool, read as its die shows them (names or numbers); a count
    /// or a face off the die is the roll's to refuse.
    ///
    /// # Errors
    /// A message naming the piece that is not a face of this die.
    pub fn read(&self, text: &str) -> Result<Vec<u8>, String> {
        read_named(text, self.sides, self.count, self.faces)
    }
}

/// How many dice of which kind, in the words the prompt and the refusals use.
pub fn die_words(count: u32, sides: u8, faces: FaceNames) -> String {
    match faces {
        FaceNames::Numbers => format!("{count} d{sides}"),
        FaceNames::Bag { .. } => format!("the colour drawn: {}", faces.list(sides)),
        FaceNames::Printed(_) => {
            let dice = if count == 1 { "die" } else { "dice" };
            format!("{count} {dice}: {}", faces.list(sides))
        }
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

    /// The faces of the `occurrence`-th roll of `pool` read as `count` dice of `sides` sides
    /// showing `names`; `None` when that roll was not given.
    pub fn faces(
        &self,
        pool: &str,
        occurrence: usize,
        sides: u8,
        count: u32,
        names: FaceNames,
    ) -> Option<Result<Vec<u8>, Unread>> {
        Some(match self.pools.get(pool)?.get(occurrence)? {
            Given::Faces(faces) => Ok(faces.clone()),
            Given::Typed(text) => read_typed(text, sides, count, names),
        })
    }

    /// How many rolls of `pool` were given.
    pub fn rolls_of(&self, pool: &str) -> usize {
        self.pools.get(pool).map_or(0, Vec::len)
    }

    /// Parses "attack=6,5,5,2" (or "attack=6552" for single-digit dice, "penetration=KTW" or
    /// "commander=B" for a die the book prints with letters) into a pool name and adds it.
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

/// A character a face may be typed with: a digit, a letter of a printed face (B, K, T, W), a
/// dash for a blank face.
fn face_character(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '-' | '–' | '—' | '_')
}

/// Typed faces a die cannot read: the piece (its first bytes kept, so the refusal can quote
/// it and stay a plain value) and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Unread {
    piece: [u8; 24],
    len: u8,
    /// Digits that read more than one way on a die above 9 sides ("1720" as two d20s).
    pub needs_commas: bool,
}

impl Unread {
    fn of(piece: &str, needs_commas: bool) -> Self {
        let mut end = piece.len().min(24);
        while !piece.is_char_boundary(end) {
            end -= 1;
        }
        let mut bytes = [0u8; 24];
        bytes[..end].copy_from_slice(&piece.as_bytes()[..end]);
        Unread {
            piece: bytes,
            len: u8::try_from(end).unwrap_or(24),
            needs_commas,
        }
    }

    /// The piece as typed (at most its first 24 bytes).
    pub fn piece(&self) -> &str {
        std::str::from_utf8(&self.piece[..usize::from(self.len)]).unwrap_or("?")
    }

    /// Why, in words, for a die of `sides` sides whose faces show `names`.
    pub fn words(&self, sides: u8, names: FaceNames) -> String {
        let piece = self.piece();
        if self.needs_commas {
            format!(
                "'{piece}': write d{sides} faces with commas (12,3,20): digits alone read more than one way"
            )
        } else if matches!(names, FaceNames::Numbers) {
            not_a_face(piece)
        } else {
            format!(
                "'{piece}' is not a face of this die ({})",
                names.list(sides)
            )
        }
    }
}

fn not_a_face(piece: &str) -> String {
    format!("'{piece}' is not a die face (write faces as 6,5,2 or 652)")
}

/// Whether `text` could be faces as the players type them: numbers or the names a die
/// prints, between separators or run together. Which names a die has is known only once the
/// rules say which die it is ([`PoolRequest::read`]).
///
/// # Errors
/// A message naming the piece that is no face of any die.
pub fn check_typed(text: &str) -> Result<(), String> {
    let text = text.trim();
    for piece in text.split(SEPARATORS).filter(|p| !p.is_empty()) {
        if let Some(bad) = piece.chars().find(|c| !face_character(*c)) {
            return Err(not_a_face(&bad.to_string()));
        }
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
    read_named(text, sides, count, FaceNames::Numbers)
}

/// [`read_faces`] for a die whose faces have `names`: each piece is a face's name ("B",
/// "K", "second"), else its number on the numbered die. Names of one character may run
/// together ("KTW").
///
/// # Errors
/// As [`read_faces`]; a piece that is neither a name nor a number says which names the die
/// has.
pub fn read_named(text: &str, sides: u8, count: u32, names: FaceNames) -> Result<Vec<u8>, String> {
    check_typed(text)?;
    read_typed(text, sides, count, names).map_err(|unread| unread.words(sides, names))
}

/// [`read_named`] once the text is known to be faces a die could show.
fn read_typed(text: &str, sides: u8, count: u32, names: FaceNames) -> Result<Vec<u8>, Unread> {
    let text = text.trim();
    let face = |piece: &str| -> Result<u8, Unread> {
        if let Some(face) = names.face_of(piece, sides) {
            return Ok(face);
        }
        match piece.parse::<u8>() {
            Ok(face @ 1..) => Ok(face),
            _ => Err(Unread::of(piece, false)),
        }
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
    let each_character = || text.chars().map(|c| face(&c.to_string())).collect();
    match (sides, count) {
        // One die: the text whole ("17", "B", "second").
        (_, 1) => Ok(vec![face(text)?]),
        // Every character is one die: "65521", "KTW".
        (..=9, _) => each_character(),
        _ if names.one_character_each(sides)
            && text
                .chars()
                .all(|c| names.face_of(&c.to_string(), sides).is_some()) =>
        {
            each_character()
        }
        _ => Err(Unread::of(text, true)),
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
        let numbers = FaceNames::Numbers;
        assert_eq!(
            dice.faces("attack", 0, 6, 3, numbers),
            Some(Ok(vec![6, 5, 2]))
        );
        assert!(dice.add_pool("652").unwrap_err().contains("POOL=FACES"));
        assert!(dice.add_pool("=652").unwrap_err().contains("name"));
        assert!(
            dice.add_pool("attack=6?")
                .unwrap_err()
                .starts_with("attack: '?'")
        );
        // A letter may be a printed face: it is read once the die is known.
        dice.add_pool("attack=6x").unwrap();
        let unread = dice.faces("attack", 1, 6, 2, numbers).unwrap().unwrap_err();
        assert!(unread.words(6, numbers).contains("'x' is not a die face"));
        let dice = TableDice::new().with("us", vec![1, 2]).with("us", vec![6]);
        assert_eq!(dice.faces("us", 1, 6, 1, numbers), Some(Ok(vec![6])));
        assert!(dice.has("us", 1) && !dice.has("us", 2));
        assert_eq!(dice.rolls_of("us"), 2);
        assert_eq!(dice.rolls().count(), 2);
    }

    /// The commander die read from a d20 as the book gives it: 1–4 show 0, 5–9 1, 10–14 2,
    /// 15–19 3, 20 B.
    const COMMANDER: [&str; 20] = [
        "0", "0", "0", "0", "1", "1", "1", "1", "1", "2", "2", "2", "2", "2", "3", "3", "3", "3",
        "3", "B",
    ];

    #[test]
    fn a_printed_die_is_typed_as_it_shows_and_its_numbers_still_read() {
        let commander = FaceNames::Printed(&COMMANDER);
        let read = |text: &str, count| read_named(text, 20, count, commander);
        assert_eq!(read("B", 1), Ok(vec![20]));
        assert_eq!(read("b", 1), Ok(vec![20]));
        assert_eq!(read("0", 1), Ok(vec![1]));
        assert_eq!(read("3", 1), Ok(vec![15]));
        // A d20's own number beyond the names reads as before.
        assert_eq!(read("17", 1), Ok(vec![17]));
        assert_eq!(read("B3", 2), Ok(vec![20, 15]));
        assert_eq!(read("B,17", 2), Ok(vec![20, 17]));
        assert!(read("X", 1).unwrap_err().contains("0, 1, 2, 3 or B"));
        assert_eq!(commander.shown(20), ["0", "1", "2", "3", "B"]);
        let penetration = FaceNames::Printed(&["–", "–", "K", "T", "W", "W"]);
        assert_eq!(read_named("K,T,W", 6, 3, penetration), Ok(vec![3, 4, 5]));
        assert_eq!(read_named("KTW", 6, 3, penetration), Ok(vec![3, 4, 5]));
        assert_eq!(read_named("-", 6, 1, penetration), Ok(vec![1]));
        assert_eq!(read_named("blank,k", 6, 2, penetration), Ok(vec![1, 3]));
        assert_eq!(read_named("3,4,5", 6, 3, penetration), Ok(vec![3, 4, 5]));
        assert_eq!(die_words(2, 6, penetration), "2 dice: –, K, T or W");
    }

    #[test]
    fn a_bag_is_drawn_by_colour() {
        let bag = FaceNames::Bag {
            first: 4,
            names: ("first", "second"),
        };
        assert_eq!(read_named("second", 9, 1, bag), Ok(vec![5]));
        assert_eq!(read_named("First", 9, 1, bag), Ok(vec![1]));
        assert_eq!(read_named("s", 9, 1, bag), Ok(vec![5]));
        // The number on the bag's numbered die, as recorded before names.
        assert_eq!(read_named("7", 9, 1, bag), Ok(vec![7]));
        assert_eq!(die_words(1, 9, bag), "the colour drawn: first or second");
    }
}
