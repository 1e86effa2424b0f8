//! What a mechanic answers: a presentation-neutral report of headline values, named
//! distributions with exact weights (or sampled ones, marked as estimates), the dice rolled
//! and where they came from, notes and the house readings used.
//!
//! The command line prints it as text or serialises it as JSON; the window draws it. Every
//! label a person reads is decided here, in the ruleset's module, once.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use crate::rules::dice::{Dist, RollRecord, Source};
use crate::rules::words::percent;
use crate::rules::{HouseDefault, RulesetId};

/// A headline value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A chance, 0..=1.
    Probability(f64),
    /// A whole number (dice, points, hits).
    Count(i64),
    /// A target number, read "4+".
    Target(i64),
    /// A measured or average quantity.
    Number(f64),
    /// Yes or no (a roll's "suppressed").
    Flag(bool),
    /// Words.
    Text(String),
    /// A row of chances (Armour Battles `disruption`: 0, 1, 2, 3+ new points).
    Probabilities(Vec<f64>),
}

impl Value {
    /// The value in words: "4+", "38.5%", "yes".
    pub fn text(&self) -> String {
        match self {
            Value::Probability(p) => percent(*p),
            Value::Count(n) => n.to_string(),
            Value::Target(n) => format!("{n}+"),
            Value::Number(x) => format!("{x:.1}"),
            Value::Flag(true) => "yes".to_string(),
            Value::Flag(false) => "no".to_string(),
            Value::Text(t) => t.clone(),
            Value::Probabilities(ps) => ps
                .iter()
                .map(|p| percent(*p))
                .collect::<Vec<_>>()
                .join(" / "),
        }
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Probability(p) | Value::Number(p) => s.serialize_f64(*p),
            Value::Count(n) | Value::Target(n) => s.serialize_i64(*n),
            Value::Flag(b) => s.serialize_bool(*b),
            Value::Text(t) => s.serialize_str(t),
            Value::Probabilities(ps) => ps.serialize(s),
        }
    }
}

/// One headline value with its label.
#[derive(Debug, Clone, PartialEq)]
pub struct Headline {
    /// Stable, snake_case: the JSON key scripts read (`p_suppressed`).
    pub key: String,
    /// What people read ("P(suppressed)").
    pub label: String,
    pub value: Value,
    /// The value rests on a house reading (RULINGS); the reading is in the report's
    /// `house_defaults`.
    pub house_default: bool,
    /// The value was estimated by sampling (the report's `estimate` says how), not counted.
    pub estimate: bool,
    /// An estimated chance's standard error (as a chance, 0..=1).
    pub std_error: Option<f64>,
}

/// How an estimate reads: "≈" before it, so it never looks exact.
const ABOUT: &str = "≈ ";

/// A sampled chance in words: as [`percent`], but every trial coming out one way never reads
/// as certain or impossible ("100.0%" where the exact chance is 99.996%).
fn sampled_percent(p: f64) -> String {
    if p >= 1.0 {
        ">99.9%".to_string()
    } else if p <= 0.0 {
        "<0.1%".to_string()
    } else {
        percent(p)
    }
}

/// A standard error in percentage points: one decimal, or "<0.1" where that would read 0.0.
fn points(se: f64) -> String {
    let points = se * 100.0;
    if points < 0.05 {
        "<0.1".to_string()
    } else {
        format!("{points:.1}")
    }
}

/// The standard error of a chance `p` sampled from `trials` trials. Every trial one way
/// (p = 0 or 1) would give an error of 0, which no sample can prove: the chance is then taken
/// half a trial in from the edge.
fn sampled_error(p: f64, trials: f64) -> f64 {
    let p = if p <= 0.0 || p >= 1.0 {
        (p * trials + 0.5) / (trials + 1.0)
    } else {
        p
    };
    (p * (1.0 - p) / trials).sqrt()
}

impl Headline {
    /// The value in words, an estimate marked as one: "≈ 71.0% ± 0.4".
    pub fn text(&self) -> String {
        let value = match (self.estimate, &self.value) {
            (true, Value::Probability(p)) => sampled_percent(*p),
            (_, value) => value.text(),
        };
        match (self.estimate, self.std_error) {
            (false, _) => value,
            (true, Some(se)) => format!("{ABOUT}{value} ± {}", points(se)),
            (true, None) => format!("{ABOUT}{value}"),
        }
    }
}

impl Serialize for Headline {
    /// `{"key", "label", "value", "house_default"}`, and for an estimate `"estimate": true`
    /// with its `"std_error"` where it has one.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("key", &self.key)?;
        map.serialize_entry("label", &self.label)?;
        map.serialize_entry("value", &self.value)?;
        map.serialize_entry("house_default", &self.house_default)?;
        if self.estimate {
            map.serialize_entry("estimate", &true)?;
            if let Some(se) = self.std_error {
                map.serialize_entry("std_error", &se)?;
            }
        }
        map.end()
    }
}

/// One outcome of a distribution.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// What people read ("2 hits", "shaken").
    pub label: String,
    /// The outcome's number where it is a count, for "at least" lines and scripts.
    pub value: Option<i64>,
    pub weight: u128,
}

/// A named distribution with exact integer weights.
#[derive(Debug, Clone, PartialEq)]
pub struct Distribution {
    pub key: String,
    pub label: String,
    pub total: u128,
    pub outcomes: Vec<Outcome>,
    /// The outcomes are counts in order, so "at least N" reads sensibly.
    pub counts: bool,
    /// The distribution rests on a house reading (RULINGS).
    pub house_default: bool,
    /// The weights are counts of sampled trials, not exact: the figures are estimates.
    pub estimate: bool,
}

impl Distribution {
    /// A distribution labelled outcome by outcome.
    pub fn new<K: Ord>(
        key: impl Into<String>,
        label: impl Into<String>,
        dist: &Dist<K>,
        outcome: impl Fn(&K) -> String,
    ) -> Self {
        Self::of(key, label, dist, false, |k| (outcome(k), None))
    }

    /// A distribution of a count (hits, points): each outcome keeps its number, labelled
    /// by `outcome`.
    pub fn counts<K: Ord + Copy + Into<i64>>(
        key: impl Into<String>,
        label: impl Into<String>,
        dist: &Dist<K>,
        outcome: impl Fn(i64) -> String,
    ) -> Self {
        Self::of(key, label, dist, true, |k| {
            let n: i64 = (*k).into();
            (outcome(n), Some(n))
        })
    }

    /// Each outcome of `dist` as `read` labels it and numbers it (or not).
    fn of<K: Ord>(
        key: impl Into<String>,
        label: impl Into<String>,
        dist: &Dist<K>,
        counts: bool,
        read: impl Fn(&K) -> (String, Option<i64>),
    ) -> Self {
        Distribution {
            key: key.into(),
            label: label.into(),
            total: dist.total(),
            outcomes: dist
                .iter()
                .map(|(k, weight)| {
                    let (label, value) = read(k);
                    Outcome {
                        label,
                        value,
                        weight,
                    }
                })
                .collect(),
            counts,
            house_default: false,
            estimate: false,
        }
    }

    /// The chance of outcome `index`.
    pub fn probability(&self, index: usize) -> f64 {
        match (self.outcomes.get(index), self.total) {
            (Some(o), total) if total > 0 => o.weight as f64 / total as f64,
            _ => 0.0,
        }
    }

    /// The chance of outcome `index` or any later one.
    pub fn at_least(&self, index: usize) -> f64 {
        if self.total == 0 {
            return 0.0;
        }
        let weight: u128 = self.outcomes.iter().skip(index).map(|o| o.weight).sum();
        weight as f64 / self.total as f64
    }

    /// The chance of outcome `index` in words, an estimate marked as one ("≈ 12.3%").
    pub fn chance_text(&self, index: usize) -> String {
        self.marked(self.probability(index))
    }

    /// The chance of outcome `index` or any later one in words, marked like
    /// [`Distribution::chance_text`].
    pub fn at_least_text(&self, index: usize) -> String {
        self.marked(self.at_least(index))
    }

    fn marked(&self, p: f64) -> String {
        if self.estimate {
            format!("{ABOUT}{}", sampled_percent(p))
        } else {
            percent(p)
        }
    }

    /// Every outcome's label and chance, in order.
    pub fn bars(&self) -> Vec<(String, f64)> {
        (0..self.outcomes.len())
            .map(|i| (self.outcomes[i].label.clone(), self.probability(i)))
            .collect()
    }
}

impl Serialize for Distribution {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Out<'a> {
            label: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            value: Option<i64>,
            weight: String,
            probability: f64,
        }
        let outcomes: Vec<Out> = self
            .outcomes
            .iter()
            .enumerate()
            .map(|(i, o)| Out {
                label: &o.label,
                value: o.value,
                weight: o.weight.to_string(),
                probability: self.probability(i),
            })
            .collect();
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("label", &self.label)?;
        if self.house_default {
            map.serialize_entry("house_default", &true)?;
        }
        if self.estimate {
            map.serialize_entry("estimate", &true)?;
        }
        // Written as a string: exact totals can exceed 64 bits.
        map.serialize_entry("total", &self.total.to_string())?;
        map.serialize_entry("outcomes", &outcomes)?;
        map.end()
    }
}

/// One roll of dice and what it was for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceRecord {
    /// "to hit", "reaction dice".
    pub purpose: String,
    /// The pool's name (`attack`): what dice rolled at the table are given as.
    pub pool: &'static str,
    /// Drawn from a seed, or rolled at the table.
    pub source: Source,
    /// The seed and the roll's number within it (for seeded dice only).
    pub seed: u64,
    pub index: u64,
    pub sides: u8,
    pub dice: Vec<u8>,
    /// Each face as the book prints it, for a die printed with letters (the commander die's
    /// B, the penetration die's K); empty for an ordinary die.
    pub shows: Vec<&'static str>,
}

impl DiceRecord {
    pub fn new(purpose: impl Into<String>, record: &RollRecord) -> Self {
        DiceRecord {
            purpose: purpose.into(),
            pool: record.pool,
            source: record.source,
            seed: record.seed,
            index: record.index,
            sides: record.sides,
            dice: record.dice.clone(),
            shows: Vec::new(),
        }
    }
}

impl Report {
    /// Names the faces of every die the rules asked for with printed faces (`asked`, the
    /// roller's requests), so the report shows the commander die's B and not its d20 number.
    pub fn name_faces(&mut self, asked: &[crate::rules::dice::PoolRequest]) {
        for record in &mut self.dice {
            let Some(request) = asked.iter().find(|r| r.pool == record.pool) else {
                continue;
            };
            let names: Option<Vec<&'static str>> =
                record.dice.iter().map(|&f| request.faces.name(f)).collect();
            if let Some(names) = names {
                record.shows = names;
            }
        }
    }
}

impl Serialize for DiceRecord {
    /// `{"for", "pool", "source", "seed", "index", "sides", "dice"}`, and `"shows"` for a die
    /// printed with letters; dice rolled at the table have no seed and no roll number.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("for", &self.purpose)?;
        map.serialize_entry("pool", self.pool)?;
        map.serialize_entry("source", self.source.as_str())?;
        if self.source == Source::Seed {
            map.serialize_entry("seed", &self.seed)?;
            map.serialize_entry("index", &self.index)?;
        }
        map.serialize_entry("sides", &self.sides)?;
        map.serialize_entry("dice", &self.dice)?;
        if !self.shows.is_empty() {
            map.serialize_entry("shows", &self.shows)?;
        }
        map.end()
    }
}

/// Odds estimated by seeded sampling where exact weights cannot be counted.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    pub trials: u64,
    pub seed: u64,
    /// The largest standard error of any probability shown.
    pub std_error_max: f64,
}

/// The report's own JSON keys, which no headline value may take.
const RESERVED: [&str; 14] = [
    "ruleset",
    "mechanic",
    "title",
    "can_fire",
    "reason",
    "values",
    "distributions",
    "seed",
    "source",
    "dice",
    "result",
    "notes",
    "house_defaults",
    "estimate",
];

/// A mechanic's whole answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub ruleset: RulesetId,
    /// Stable, snake_case (`direct_fire`).
    pub mechanic: &'static str,
    /// One line saying what was resolved ("Panzer IV H fires at M4 75mm").
    pub title: String,
    /// Set when the situation is legal but gives no result ("beyond sight: no fire").
    pub no_result: Option<String>,
    pub values: Vec<Headline>,
    pub distributions: Vec<Distribution>,
    /// The seed of a roll; `None` for odds and for dice rolled at the table.
    pub seed: Option<u64>,
    /// Where a roll's dice came from; `None` for odds.
    pub source: Option<Source>,
    pub dice: Vec<DiceRecord>,
    /// A roll's outcome in words, line by line.
    pub result: Vec<String>,
    pub notes: Vec<String>,
    pub house_defaults: Vec<HouseDefault>,
    pub estimate: Option<Estimate>,
}

impl Report {
    /// An empty report of `mechanic`.
    pub fn new(ruleset: RulesetId, mechanic: &'static str, title: impl Into<String>) -> Self {
        Report {
            ruleset,
            mechanic,
            title: title.into(),
            no_result: None,
            values: Vec::new(),
            distributions: Vec::new(),
            seed: None,
            source: None,
            dice: Vec::new(),
            result: Vec::new(),
            notes: Vec::new(),
            house_defaults: Vec::new(),
            estimate: None,
        }
    }

    /// An empty report of `mechanic` resting on `rulings` (the ruleset's house defaults for
    /// it).
    pub fn ruled(
        ruleset: RulesetId,
        mechanic: &'static str,
        title: impl Into<String>,
        rulings: &[HouseDefault],
    ) -> Self {
        Report {
            house_defaults: rulings.to_vec(),
            ..Report::new(ruleset, mechanic, title)
        }
    }

    /// A legal situation with no result, and why.
    pub fn no_result(mut self, reason: impl Into<String>) -> Self {
        self.no_result = Some(reason.into());
        self
    }

    /// Adds a headline value, marked as a house default when one of the report's
    /// `house_defaults` is filed under `key`.
    pub fn value(&mut self, key: impl Into<String>, label: impl Into<String>, value: Value) {
        let key = key.into();
        // A headline value is also written under its own key in the JSON.
        debug_assert!(!RESERVED.contains(&key.as_str()), "{key} is a report key");
        let house_default = self.rests_on_house_default(&key);
        self.values.push(Headline {
            key,
            label: label.into(),
            value,
            house_default,
            estimate: false,
            std_error: None,
        });
    }

    /// Shorthand for a probability.
    pub fn chance(&mut self, key: impl Into<String>, label: impl Into<String>, p: f64) {
        self.value(key, label, Value::Probability(p));
    }

    /// Shorthand for a whole number.
    pub fn count(&mut self, key: impl Into<String>, label: impl Into<String>, n: impl Into<i64>) {
        self.value(key, label, Value::Count(n.into()));
    }

    /// Adds a distribution, marked as a house default like [`Report::value`].
    pub fn dist(&mut self, mut distribution: Distribution) {
        distribution.house_default |= self.rests_on_house_default(&distribution.key);
        self.distributions.push(distribution);
    }

    /// Marks the values and distributions under `keys` as estimated by the sampling in
    /// `estimate` (set as the report's), each chance with its standard error.
    pub fn estimated(&mut self, estimate: Estimate, keys: &[&str]) {
        let trials = estimate.trials.max(1) as f64;
        for v in self
            .values
            .iter_mut()
            .filter(|v| keys.contains(&v.key.as_str()))
        {
            v.estimate = true;
            if let Value::Probability(p) = v.value {
                v.std_error = Some(sampled_error(p, trials));
            }
        }
        for d in self
            .distributions
            .iter_mut()
            .filter(|d| keys.contains(&d.key.as_str()))
        {
            d.estimate = true;
        }
        self.estimate = Some(estimate);
    }

    /// Marks the value or distribution under `key` as resting on a house reading that is
    /// filed under another key (one ruling can shape several values).
    pub fn mark(&mut self, key: &str) {
        for v in self.values.iter_mut().filter(|v| v.key == key) {
            v.house_default = true;
        }
        for d in self.distributions.iter_mut().filter(|d| d.key == key) {
            d.house_default = true;
        }
    }

    fn rests_on_house_default(&self, key: &str) -> bool {
        self.house_defaults.iter().any(|h| h.value == key)
    }

    /// Records dice rolled for `purpose`.
    pub fn dice(&mut self, purpose: impl Into<String>, record: &RollRecord) {
        if record.source == Source::Seed {
            self.seed.get_or_insert(record.seed);
        }
        self.dice.push(DiceRecord::new(purpose, record));
    }

    pub fn note(&mut self, note: impl Into<String>) {
        self.notes.push(note.into());
    }

    pub fn result(&mut self, line: impl Into<String>) {
        self.result.push(line.into());
    }

    /// The headline value under `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.values.iter().find(|v| v.key == key).map(|v| &v.value)
    }

    /// The whole number under `key`; 0 when the report has none (a roll that hit nothing
    /// says no damage).
    pub fn count_of(&self, key: &str) -> i64 {
        match self.get(key) {
            Some(Value::Count(n)) => *n,
            _ => 0,
        }
    }

    /// [`Report::count_of`] as an unsigned count (never below 0).
    pub fn u32_of(&self, key: &str) -> u32 {
        u32::try_from(self.count_of(key).max(0)).unwrap_or(u32::MAX)
    }

    /// Whether the flag under `key` is set (false when the report has none).
    pub fn flag_of(&self, key: &str) -> bool {
        matches!(self.get(key), Some(Value::Flag(true)))
    }

    /// The distribution under `key`.
    pub fn distribution(&self, key: &str) -> Option<&Distribution> {
        self.distributions.iter().find(|d| d.key == key)
    }
}

impl Serialize for Report {
    /// The one JSON shape (README "JSON output"): `ruleset`, `mechanic`, `title`, each
    /// headline value under its own key (the keys scripts read) and again with its label
    /// in `values`, `distributions` by key, for a roll its `source` (and `seed` when
    /// seeded), `dice`, `result`, `notes`, `house_defaults`, and `estimate` when sampled.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("ruleset", self.ruleset.as_str())?;
        map.serialize_entry("mechanic", self.mechanic)?;
        map.serialize_entry("title", &self.title)?;
        if let Some(reason) = &self.no_result {
            map.serialize_entry("can_fire", &false)?;
            map.serialize_entry("reason", reason)?;
        }
        for v in &self.values {
            map.serialize_entry(&v.key, &v.value)?;
        }
        map.serialize_entry("values", &self.values)?;
        let distributions: serde_json::Map<String, serde_json::Value> = self
            .distributions
            .iter()
            .map(|d| (d.key.clone(), serde_json::to_value(d).unwrap_or_default()))
            .collect();
        map.serialize_entry("distributions", &distributions)?;
        if let Some(source) = self.source {
            map.serialize_entry("source", source.as_str())?;
        }
        if let Some(seed) = self.seed {
            map.serialize_entry("seed", &seed)?;
        }
        map.serialize_entry("dice", &self.dice)?;
        map.serialize_entry("result", &self.result)?;
        map.serialize_entry("notes", &self.notes)?;
        map.serialize_entry("house_defaults", &self.house_defaults)?;
        if self.estimate.is_some() {
            map.serialize_entry("estimate", &self.estimate)?;
        }
        map.end()
    }
}
