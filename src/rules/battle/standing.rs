//! How the battle stands, in each ruleset's words, for a board drawn at a glance: a unit's
//! strength, its counters and marks as badges ([`UnitStanding`]), and the turn — whose go it
//! is, what each side has left, the next step ([`TurnStanding`]).
//!
//! This is the description the battle view draws from, the way its buttons are drawn from
//! [`super::Action`]s: what a counter means and how serious it is belongs to the ruleset
//! ([`super::table::TableRules::unit_standing`], [`super::table::TableRules::turn_standing`]);
//! how it looks (colours, sizes, icons) belongs to the window's theme. Nothing here decides a
//! rule: a standing is read off the board, never folded into it.

use super::board::{Board, BoardUnit, DESTROYED, TablePlan};
use super::{SIDES, Side, Sides};

/// How serious a counter or a mark is, for the theme's status palette.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tone {
    /// Information: an order given, a quality.
    Neutral,
    /// In the unit's favour (ready, ambushing, hidden).
    Good,
    /// Hurts but does not stop it (pins, a Disruption Point, damaged tracks).
    Warning,
    /// Stops or nearly ends it (suppressed, broken, on its last stand).
    Danger,
    /// Out of the battle, or not yet in it (destroyed, in reserve).
    Inactive,
}

/// What is left of a unit against what it started with: the bar on its card ("8/10 models").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Strength {
    pub now: i64,
    pub full: i64,
    /// The ruleset's word for it, plural: "models", "stands", "hit points", "armour".
    pub noun: &'static str,
}

impl Strength {
    /// `now` of `full` `noun` ("8/10 models"); a unit that has more than it started with
    /// (a carried counter above its card's) shows that as its full strength.
    pub fn new(now: i64, full: i64, noun: &'static str) -> Self {
        Strength {
            now,
            full: full.max(now),
            noun,
        }
    }
}

/// A number shown beside a unit or a side ("Pins 2", "Disruption 1/3", "Wild dice 1").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    pub label: String,
    pub now: i64,
    /// Out of how many, where there is a ceiling (Cohesion, Army Morale at the start).
    pub of: Option<i64>,
    pub tone: Tone,
}

impl Tally {
    pub fn new(label: impl Into<String>, now: i64, tone: Tone) -> Self {
        Tally {
            label: label.into(),
            now,
            of: None,
            tone,
        }
    }

    pub fn of(mut self, full: i64) -> Self {
        self.of = Some(full);
        self
    }
}

/// A mark shown as a badge ("Suppressed", "Down", "Fire", "Hidden", "Veteran").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Badge {
    pub label: String,
    pub tone: Tone,
}

impl Badge {
    pub fn new(label: impl Into<String>, tone: Tone) -> Self {
        Badge {
            label: label.into(),
            tone,
        }
    }
}

/// One unit as its card on the board shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitStanding {
    pub strength: Option<Strength>,
    /// Counters that matter now (zero counters left out), in the ruleset's order.
    pub tallies: Vec<Tally>,
    pub badges: Vec<Badge>,
    /// Out of the battle: drawn greyed and out of the way.
    pub out: bool,
}

impl UnitStanding {
    /// `unit`'s card: its strength, tallies and badges as its ruleset reads them, drawn out
    /// of the way once it is out of the battle.
    pub fn of(
        unit: &BoardUnit,
        strength: Option<Strength>,
        tallies: Vec<Tally>,
        badges: Vec<Badge>,
    ) -> Self {
        UnitStanding {
            strength,
            tallies,
            badges,
            out: !unit.in_play(),
        }
    }
}

/// The turn as the strip above the board shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnStanding {
    pub turn: u32,
    /// The ruleset's word: "Turn", or "Round" in Battle of Tanks.
    pub turn_word: &'static str,
    /// The last turn, where the rules end the battle after a set number ("Turn 2 of 6").
    pub last: Option<u32>,
    /// Whose go it is (whose pulse, whose die came out), when one side's.
    pub acting: Option<Side>,
    /// What happens next, in the players' words ("Draw the next order die", "US uses a
    /// chain").
    pub step: String,
    /// What each side has left (order dice in the bag, chains, wild dice, Staff Orders,
    /// command points, Army Morale).
    pub stock: Sides<Vec<Tally>>,
    /// The action key of the step the rules expect next: the strip's primary button.
    pub next: Option<&'static str>,
}

/// The next step of a turn: whose go it is, in words, and the action key of the strip's
/// primary button.
pub type Step = (Option<Side>, String, Option<&'static str>);

impl TurnStanding {
    /// The turn of `board` in the ruleset's words: `turn_word` ("Turn", "Round"), the `last`
    /// turn where the rules set one, each side's `stock`, and the `step` expected next — none
    /// once the battle is over.
    pub fn of(
        board: &Board,
        (turn_word, last): (&'static str, Option<u32>),
        stock: Sides<Vec<Tally>>,
        step: Step,
    ) -> Self {
        let (acting, step, next) = match &board.outcome {
            Some(_) => (None, "The battle is over".to_string(), None),
            None => step,
        };
        TurnStanding {
            turn: board.turn,
            turn_word,
            last,
            acting,
            step,
            stock,
            next,
        }
    }
}

/// A unit's standing read generically: every non-zero counter as a warning tally and every
/// mark as a badge; what a ruleset without its own reading shows.
pub fn plain_unit(unit: &BoardUnit) -> UnitStanding {
    let words = |key: &str| {
        let mut text = key.replace('_', " ");
        if let Some(first) = text.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        text
    };
    UnitStanding {
        strength: None,
        tallies: unit
            .counters
            .iter()
            .filter(|(_, n)| **n != 0)
            .map(|(key, n)| Tally::new(words(key), *n, Tone::Warning))
            .collect(),
        badges: unit
            .marks
            .iter()
            .filter(|m| m.as_str() != DESTROYED)
            .map(|m| Badge::new(words(m), Tone::Neutral))
            .collect(),
        out: !unit.in_play(),
    }
}

/// The turn read generically: its number, no side acting, each side's counters.
pub fn plain_turn(_plan: &TablePlan, board: &Board) -> TurnStanding {
    let mut stock: Sides<Vec<Tally>> = Sides::default();
    for side in SIDES {
        *stock.get_mut(side) = board
            .sides
            .get(side)
            .iter()
            .map(|(key, n)| Tally::new(key.replace('_', " "), *n, Tone::Neutral))
            .collect();
    }
    TurnStanding {
        turn: board.turn,
        turn_word: "Turn",
        last: None,
        acting: None,
        step: String::new(),
        stock,
        next: None,
    }
}
