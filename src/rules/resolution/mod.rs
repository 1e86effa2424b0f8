//! One vocabulary for resolution, shared by every ruleset and every front end.
//!
//! A [`Mechanic`] describes its inputs ([`InputSpec`]), refuses impossible combinations with
//! the reason ([`ResolveError::Invalid`] naming the input), and answers with a
//! presentation-neutral [`Report`] — exact odds, or a roll. Each ruleset lists its
//! mechanics through [`crate::rules::Ruleset::mechanics`]; the command line builds its flags
//! from the inputs and prints the report, the window draws a widget per input and the report
//! as it comes. The rules' own odds and roll functions (tested against enumeration) do the
//! sums; a ruleset's `mechanics.rs` turns their answers into reports.
//!
//! # The one path a front end takes
//! - [`Mechanic::resolve_odds`] and [`Mechanic::resolve_roll`] first check the inputs against
//!   their description (`check.rs`: known keys, choices among the options, numbers within
//!   range, cards that pass the filter), then the mechanic's own `check`, then answer;
//!   [`Mechanic::answer`] also turns "no result" into a report saying so.
//! - A roll takes a [`DiceSource`]: a seed, or the faces the players rolled at the table
//!   ([`TableDice`], by pool name). [`Mechanic::table_pools`] says which pools a situation
//!   asks for with the faces given so far, so a front end can prompt for them one by one.
//!
//! # What a mechanic written for this module does (the pattern to follow)
//! - Its inputs are `InputSpec`s; every choice it reads into a rules type comes from a
//!   [`ChoiceTable`] (`TABLE.input(…)` declares it, `TABLE.read(inputs, key)` reads it), so
//!   no key falls through to a default. Where the command line's flag must keep an older
//!   name, the spec says so ([`InputSpec::flag`], [`Choice::flag`]); a card filter's refusal
//!   says why ([`InputSpec::refusing`]).
//! - Its roll function takes the [`Roller`] it is given and asks for every roll by a pool
//!   name (`roller.roll_d6("attack", n)`): those names are what `--dice POOL=FACES` and the
//!   window's dice entries fill, and they are listed in [`Mechanic::pools`]. A pool rolled
//!   only after earlier dice (a FUBAR die after a double six) is simply asked for later.
//! - Its reports name the house rulings they rest on from [`Mechanic::rulings`]' list.
//! - `resolution/tests.rs` then checks it with every other mechanic: its description, its
//!   refusals, its JSON shape, and that dice typed in give the outcome of the same seeded
//!   dice.

mod check;
pub mod error;
pub mod input;
pub mod report;

pub use check::check_value_of;
pub use error::ResolveError;
pub use input::{
    CardFilter, CardPick, Choice, ChoiceTable, EntryField, InputKind, InputSpec, InputValue,
    Inputs, ListEntry, Spelling,
};
pub use report::{DiceRecord, Distribution, Estimate, Headline, Outcome, Report, Value};

pub use crate::rules::dice::{DiceSource, PoolRequest, Roller, Source, TableDice};
use crate::rules::{HouseDefault, RulesetId, all_rulesets, ruleset};

/// Which mechanic: its ruleset and key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MechanicId {
    pub ruleset: RulesetId,
    pub key: &'static str,
}

/// A set of input values the book gives for a situation ("Battle 2": its command dice and
/// first-pulse rule), offered in one click.
#[derive(Debug, Clone)]
pub struct Preset {
    pub label: String,
    pub help: &'static str,
    pub values: Vec<(&'static str, InputValue)>,
}

/// One thing a ruleset resolves: a shot, a command roll, a rally.
pub struct Mechanic {
    pub ruleset: RulesetId,
    /// Stable, snake_case: the JSON `mechanic` (`direct_fire`).
    pub key: &'static str,
    /// Its name after the ruleset's in a picker ("fire", "commander die").
    pub label: &'static str,
    /// What it asks for.
    pub inputs: fn() -> Vec<InputSpec>,
    /// Refuses an impossible combination of inputs, naming the input and the reason.
    pub check: fn(&Inputs) -> Result<(), ResolveError>,
    /// Exact odds (or a marked estimate where exact weights cannot be counted).
    pub odds: fn(&Inputs) -> Result<Report, ResolveError>,
    /// The same situation rolled with the roller's dice (seeded, or rolled at the table).
    pub roll: fn(&Inputs, &mut Roller) -> Result<Report, ResolveError>,
    /// Situations the book gives, offered in one click (none for most mechanics).
    pub presets: fn() -> Vec<Preset>,
    /// Every house ruling (RULINGS) its answers may rest on.
    pub rulings: &'static [HouseDefault],
    /// The names of the pools its rolls ask for (`attack`, `reaction`), as dice rolled at the
    /// table are given.
    pub pools: &'static [&'static str],
    /// The command line picks it only by its own flag, `--<key in kebab case>` (`--crash`),
    /// because its inputs are another mechanic's too; otherwise it is picked by giving its
    /// flags (`--attacker` picks fire).
    pub needs_flag: bool,
}

impl Mechanic {
    /// A mechanic of `ruleset` under `key`, called `label` in a picker, asking for `inputs`
    /// and answering with `odds` and `roll`. As it stands it has no check of its own, no
    /// presets, no rulings and no named pools, and is picked by its inputs' flags: the
    /// `with_…` methods and [`Self::needing_flag`] say where a mechanic differs.
    pub const fn new(
        ruleset: RulesetId,
        key: &'static str,
        label: &'static str,
        inputs: fn() -> Vec<InputSpec>,
        odds: fn(&Inputs) -> Result<Report, ResolveError>,
        roll: fn(&Inputs, &mut Roller) -> Result<Report, ResolveError>,
    ) -> Self {
        Self {
            ruleset,
            key,
            label,
            inputs,
            check: no_check,
            odds,
            roll,
            presets: Vec::new,
            rulings: &[],
            pools: &[],
            needs_flag: false,
        }
    }

    pub const fn with_check(mut self, check: fn(&Inputs) -> Result<(), ResolveError>) -> Self {
        self.check = check;
        self
    }

    pub const fn with_presets(mut self, presets: fn() -> Vec<Preset>) -> Self {
        self.presets = presets;
        self
    }

    pub const fn with_rulings(mut self, rulings: &'static [HouseDefault]) -> Self {
        self.rulings = rulings;
        self
    }

    pub const fn with_pools(mut self, pools: &'static [&'static str]) -> Self {
        self.pools = pools;
        self
    }

    pub const fn needing_flag(mut self) -> Self {
        self.needs_flag = true;
        self
    }

    pub fn id(&self) -> MechanicId {
        MechanicId {
            ruleset: self.ruleset,
            key: self.key,
        }
    }

    /// "Ruleset — mechanic", as a picker lists it.
    pub fn title(&self) -> String {
        format!("{} — {}", self.ruleset.title(), self.label)
    }

    /// Every input at its default.
    pub fn defaults(&self) -> Inputs {
        Inputs::defaults(&(self.inputs)())
    }

    /// Checks `inputs` against their description, then the mechanic's own check.
    ///
    /// # Errors
    /// [`ResolveError::Invalid`] naming the input at fault and what it may be.
    pub fn validate(&self, inputs: &Inputs) -> Result<(), ResolveError> {
        check::check_inputs(self, inputs)?;
        (self.check)(inputs)
    }

    /// Checks, then counts the odds.
    ///
    /// # Errors
    /// As [`Mechanic::validate`], then the mechanic's refusals.
    pub fn resolve_odds(&self, inputs: &Inputs) -> Result<Report, ResolveError> {
        self.validate(inputs)?;
        (self.odds)(inputs)
    }

    /// Checks, then rolls with `dice`: a seed (`resolve_roll(&inputs, 7)`) or the faces
    /// rolled at the table, each pool checked against what the rules ask for.
    ///
    /// # Errors
    /// As [`Mechanic::resolve_odds`]; for table dice also [`ResolveError::Dice`] for a pool
    /// missing, of the wrong count or with a face not on its die, and
    /// [`ResolveError::Invalid`] (`dice`) for a pool given that the roll never asked for.
    pub fn resolve_roll(
        &self,
        inputs: &Inputs,
        dice: impl Into<DiceSource>,
    ) -> Result<Report, ResolveError> {
        self.validate(inputs)?;
        self.roll_with(inputs, &mut dice.into().roller())
    }

    /// Rolls with `roller`, then refuses table dice the roll never asked for.
    fn roll_with(&self, inputs: &Inputs, roller: &mut Roller) -> Result<Report, ResolveError> {
        let mut report = (self.roll)(inputs, roller)?;
        let unused = roller.unused();
        if !unused.is_empty() {
            let given: Vec<String> = unused
                .iter()
                .map(|(pool, n)| {
                    if *n > 1 {
                        format!("{pool} ({n} rolls)")
                    } else {
                        pool.clone()
                    }
                })
                .collect();
            let mut asked: Vec<&str> = roller.asked().iter().map(|r| r.pool).collect();
            asked.dedup();
            let asked = if asked.is_empty() {
                "no dice".to_string()
            } else {
                asked.join(", ")
            };
            return Err(ResolveError::invalid(
                "dice",
                format!(
                    "{} given but not rolled: this roll asks for {asked} (pools of {}: {})",
                    given.join(", "),
                    self.title(),
                    self.pools.join(", ")
                ),
            ));
        }
        report.source = Some(roller.source());
        report.name_faces(roller.asked());
        Ok(report)
    }

    /// The odds (`dice` None) or a roll, with a legal situation that has no result ("beyond
    /// sight: no fire") answered as a report saying so: what every front end shows.
    ///
    /// # Errors
    /// As [`Mechanic::resolve_roll`], except [`ResolveError::NoResult`].
    pub fn answer(
        &self,
        inputs: &Inputs,
        dice: Option<DiceSource>,
    ) -> Result<Report, ResolveError> {
        let answer = match dice {
            None => self.resolve_odds(inputs),
            Some(dice) => self.resolve_roll(inputs, dice),
        };
        match answer {
            Err(ResolveError::NoResult(reason)) => {
                Ok(Report::new(self.ruleset, self.key, self.title()).no_result(reason))
            }
            other => other,
        }
    }

    /// Which pools a roll of this situation asks for, given the faces rolled at the table so
    /// far: every request in order, up to the first the given faces do not answer (a pool
    /// asked for only after earlier dice appears once they are given), and the answer.
    pub fn table_pools(&self, inputs: &Inputs, given: &TableDice) -> TablePools {
        if let Err(error) = self.validate(inputs) {
            return TablePools {
                asked: Vec::new(),
                answer: Err(error),
            };
        }
        let mut roller = Roller::table(given.clone());
        let answer = match self.roll_with(inputs, &mut roller) {
            Err(ResolveError::NoResult(reason)) => {
                Ok(Report::new(self.ruleset, self.key, self.title()).no_result(reason))
            }
            other => other,
        };
        TablePools {
            asked: roller.asked().to_vec(),
            answer,
        }
    }
}

/// The pools a situation asks for with the faces given so far ([`Mechanic::table_pools`]).
#[derive(Debug, Clone, PartialEq)]
pub struct TablePools {
    /// Every roll asked for, in order; the last is the one to type next when `answer` says
    /// its faces are missing or wrong.
    pub asked: Vec<PoolRequest>,
    /// The roll's report once every pool is given, else why not.
    pub answer: Result<Report, ResolveError>,
}

impl TablePools {
    /// Whether the answer is only waiting for faces (none given yet, or not fitting).
    pub fn waiting_for_dice(&self) -> bool {
        matches!(&self.answer, Err(ResolveError::Dice(e)) if e.is_table_dice())
    }
}

impl std::fmt::Debug for Mechanic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Mechanic({} {})", self.ruleset, self.key)
    }
}

impl PartialEq for Mechanic {
    fn eq(&self, other: &Self) -> bool {
        self.ruleset == other.ruleset && self.key == other.key
    }
}

/// Every mechanic of every ruleset, in menu order.
pub fn mechanics() -> impl Iterator<Item = &'static Mechanic> {
    all_rulesets().flat_map(|r| r.mechanics().iter())
}

/// The mechanic `key` of `ruleset`.
pub fn mechanic(id: RulesetId, key: &str) -> Option<&'static Mechanic> {
    ruleset(id).mechanics().iter().find(|m| m.key == key)
}

/// The mechanic `id` names.
pub fn find(id: MechanicId) -> Option<&'static Mechanic> {
    mechanic(id.ruleset, id.key)
}

/// A check that accepts everything, for mechanics with no impossible combinations.
fn no_check(_: &Inputs) -> Result<(), ResolveError> {
    Ok(())
}

#[cfg(test)]
mod tests;
