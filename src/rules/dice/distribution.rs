//! Exact probability distributions over game outcomes.
//!
//! Players ask "what are my odds?" and rulesets compare options, so outcomes are counted
//! exactly: each outcome carries an integer weight over a known total (6^n for n d6), and the
//! numbers only become `f64` at the very edge. Integer weights make every result reproducible
//! and testable to the last digit, and overflow is reported as an error instead of wrapping.

use std::cmp::Ordering;
use std::num::NonZeroU32;
use std::ops::Add;

use super::DiceError;
use super::counting::{max_copies, pascal, powers};

/// Upper bound on how many dice [`Dist::repeat`] and friends will combine.
///
/// Only dice with a total weight of 1 (a single certain face) can get near it before `u128`
/// runs out; the cap keeps the work bounded for them.
pub const MAX_REPEAT: u32 = 1024;

/// An exact distribution: outcomes of type `K`, each with a positive integer weight.
///
/// The probability of an outcome is `weight / total`. Invariants, kept by every constructor:
/// outcomes are sorted ascending and distinct, every weight is positive, there is at least one
/// outcome, and the weights add up to exactly [`Dist::total`]. Because weights are `u128`,
/// up to [`MAX_EXACT_D6`](super::MAX_EXACT_D6) (49) d6 can be counted exactly.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Dist<K> {
    outcomes: Vec<(K, u128)>,
    total: u128,
}

impl<K: Ord> Dist<K> {
    /// A distribution with a single outcome that always happens (total weight 1).
    pub fn certain(outcome: K) -> Self {
        Self {
            outcomes: vec![(outcome, 1)],
            total: 1,
        }
    }

    /// Builds a distribution from `(outcome, weight)` pairs.
    ///
    /// Repeated outcomes have their weights added and zero weights are dropped, so a die
    /// with faces B,0,1,2,3 weighted 1,4,5,5,5 is `from_weights([(B, 1), (Zero, 4), ...])`.
    ///
    /// # Errors
    /// [`DiceError::WeightOverflow`] if the weights add up to more than `u128::MAX`;
    /// [`DiceError::Empty`] if no weight is positive.
    pub fn from_weights<I>(weights: I) -> Result<Self, DiceError>
    where
        I: IntoIterator<Item = (K, u128)>,
    {
        let weights: Vec<(K, u128)> = weights.into_iter().collect();
        let total = weights
            .iter()
            .try_fold(0u128, |sum, (_, w)| sum.checked_add(*w))
            .ok_or(DiceError::WeightOverflow)?;
        if total == 0 {
            return Err(DiceError::Empty);
        }
        let mut tally = Tally::with_capacity(weights.len());
        for (outcome, weight) in weights {
            tally.add(outcome, weight);
        }
        Ok(tally.finish(total))
    }

    /// A fair die over the given faces: each listed face has weight 1 (repeats add up).
    ///
    /// # Errors
    /// [`DiceError::Empty`] if `faces` is empty.
    pub fn uniform<I>(faces: I) -> Result<Self, DiceError>
    where
        I: IntoIterator<Item = K>,
    {
        Self::from_weights(faces.into_iter().map(|face| (face, 1)))
    }

    /// The sum of all weights: the number of equally likely elementary rolls (6^n for n d6).
    pub fn total(&self) -> u128 {
        self.total
    }

    /// How many distinct outcomes have a positive weight.
    pub fn len(&self) -> usize {
        self.outcomes.len()
    }

    /// Always `false`: a distribution has at least one outcome. Provided for API symmetry.
    pub fn is_empty(&self) -> bool {
        self.outcomes.is_empty()
    }

    /// Outcomes in ascending order with their exact weights.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&K, u128)> + '_ {
        self.outcomes.iter().map(|(k, w)| (k, *w))
    }

    /// Outcomes in ascending order with their probabilities.
    pub fn probabilities(&self) -> impl ExactSizeIterator<Item = (&K, f64)> + '_ {
        self.outcomes
            .iter()
            .map(|(k, w)| (k, ratio(*w, self.total)))
    }

    /// The smallest outcome.
    pub fn lowest(&self) -> &K {
        // Non-empty by invariant.
        &self.outcomes[0].0
    }

    /// The largest outcome.
    pub fn highest(&self) -> &K {
        &self.outcomes[self.outcomes.len() - 1].0
    }

    /// The exact weight of one outcome (0 if it cannot happen).
    pub fn weight(&self, outcome: &K) -> u128 {
        match self.outcomes.binary_search_by(|(k, _)| k.cmp(outcome)) {
            Ok(i) => self.outcomes[i].1,
            Err(_) => 0,
        }
    }

    /// The probability of exactly `outcome`.
    pub fn probability(&self, outcome: &K) -> f64 {
        ratio(self.weight(outcome), self.total)
    }

    /// The exact weight of all outcomes `>= outcome`.
    pub fn weight_at_least(&self, outcome: &K) -> u128 {
        let start = self.outcomes.partition_point(|(k, _)| k < outcome);
        sum_weights(&self.outcomes[start..])
    }

    /// The probability of an outcome `>= outcome`.
    pub fn at_least(&self, outcome: &K) -> f64 {
        ratio(self.weight_at_least(outcome), self.total)
    }

    /// The exact weight of all outcomes `<= outcome`.
    pub fn weight_at_most(&self, outcome: &K) -> u128 {
        let end = self.outcomes.partition_point(|(k, _)| k <= outcome);
        sum_weights(&self.outcomes[..end])
    }

    /// The probability of an outcome `<= outcome`.
    pub fn at_most(&self, outcome: &K) -> f64 {
        ratio(self.weight_at_most(outcome), self.total)
    }

    /// The exact weight of the outcomes for which `pred` holds.
    pub fn weight_where(&self, mut pred: impl FnMut(&K) -> bool) -> u128 {
        self.outcomes
            .iter()
            .filter(|(k, _)| pred(k))
            .fold(0u128, |sum, (_, w)| sum.saturating_add(*w))
    }

    /// The probability that `pred` holds.
    pub fn probability_where(&self, pred: impl FnMut(&K) -> bool) -> f64 {
        ratio(self.weight_where(pred), self.total)
    }

    /// The expected value of `value(outcome)`.
    pub fn expectation(&self, mut value: impl FnMut(&K) -> f64) -> f64 {
        self.outcomes
            .iter()
            .map(|(k, w)| value(k) * ratio(*w, self.total))
            .sum()
    }

    /// Relabels every outcome; outcomes that map to the same label merge. Never fails,
    /// because the total is unchanged.
    pub fn map<L: Ord>(&self, mut f: impl FnMut(&K) -> L) -> Dist<L> {
        let mut tally = Tally::with_capacity(self.outcomes.len());
        for (k, w) in &self.outcomes {
            tally.add(f(k), *w);
        }
        tally.finish(self.total)
    }

    /// The distribution of `f(x, y)` for `x` from `self` and `y` from `other`, rolled
    /// independently. The total is the product of both totals.
    ///
    /// # Errors
    /// [`DiceError::WeightOverflow`] if the product of the totals exceeds `u128::MAX`.
    pub fn combine<B, L: Ord>(
        &self,
        other: &Dist<B>,
        f: impl FnMut(&K, &B) -> L,
    ) -> Result<Dist<L>, DiceError> {
        let total = self
            .total
            .checked_mul(other.total)
            .ok_or(DiceError::WeightOverflow)?;
        Ok(combine_within(self, other, total, f))
    }

    /// The most independent copies of this die that can be counted exactly.
    pub fn max_dice(&self) -> u32 {
        max_copies(self.total, MAX_REPEAT)
    }

    /// Rolls this die `dice` times and folds the faces into a running value, starting from
    /// `start`: the distribution of `step(...step(step(start, d1), d2)..., dn)`.
    ///
    /// This is how to build anything that depends on a whole pool, e.g. (blanks, total) for
    /// a custom die. The total weight is `self.total()^dice`.
    ///
    /// # Errors
    /// [`DiceError::TooManyDice`] if `self.total()^dice` would overflow `u128` or `dice`
    /// exceeds [`MAX_REPEAT`]; the error carries the limit for this die.
    pub fn repeat<L: Ord + Clone>(
        &self,
        dice: u32,
        start: L,
        mut step: impl FnMut(&L, &K) -> L,
    ) -> Result<Dist<L>, DiceError> {
        self.check_dice(dice)?;
        let mut acc = Dist::certain(start);
        for _ in 0..dice {
            acc = acc.combine(self, &mut step)?;
        }
        Ok(acc)
    }

    /// The distribution of the sum of `dice` rolls of this die (`K::default()` for zero dice).
    ///
    /// Sums use `K`'s own `+`, so pick a face type wide enough for the largest sum (the
    /// standard dice use `u32`).
    ///
    /// # Errors
    /// [`DiceError::TooManyDice`] as for [`Dist::repeat`].
    pub fn sum_of(&self, dice: u32) -> Result<Dist<K>, DiceError>
    where
        K: Clone + Default + Add<Output = K>,
    {
        self.repeat(dice, K::default(), |acc, face| acc.clone() + face.clone())
    }

    /// Rolls this die `dice` times and counts the rolls for which `pred` holds
    /// (e.g. "face >= 4"). Closed-form binomial, so it is cheap even for big pools.
    ///
    /// # Errors
    /// [`DiceError::TooManyDice`] as for [`Dist::repeat`].
    pub fn count_where(
        &self,
        dice: u32,
        pred: impl FnMut(&K) -> bool,
    ) -> Result<Dist<u32>, DiceError> {
        let total = self.check_dice(dice)?;
        let yes = self.weight_where(pred);
        let no = self.total - yes;
        let choose = pascal(dice);
        let row = &choose[dice as usize];
        let yes_pow = powers(yes, dice);
        let no_pow = powers(no, dice);
        let mut tally = Tally::with_capacity(dice as usize + 1);
        for k in 0..=dice {
            let (k_i, rest_i) = (k as usize, (dice - k) as usize);
            let weight = row[k_i]
                .saturating_mul(yes_pow[k_i])
                .saturating_mul(no_pow[rest_i]);
            tally.add(k, weight);
        }
        Ok(tally.finish(total))
    }

    /// Returns `self.total^dice` or the typed "too many dice" error.
    fn check_dice(&self, dice: u32) -> Result<u128, DiceError> {
        let too_many = DiceError::TooManyDice {
            dice,
            limit: self.max_dice(),
        };
        if dice > MAX_REPEAT {
            return Err(too_many);
        }
        self.total.checked_pow(dice).ok_or(too_many)
    }
}

/// The distribution of `f(x, y)` for independent `x` from `a` and `y` from `b`.
///
/// Same as [`Dist::combine`], as a free function for symmetry.
///
/// # Errors
/// [`DiceError::WeightOverflow`] if the product of the totals exceeds `u128::MAX`.
pub fn combine<A: Ord, B, K: Ord>(
    a: &Dist<A>,
    b: &Dist<B>,
    f: impl FnMut(&A, &B) -> K,
) -> Result<Dist<K>, DiceError> {
    a.combine(b, f)
}

/// The product loop behind [`combine`], for callers that already proved `total` fits.
pub(super) fn combine_within<A, B, K: Ord>(
    a: &Dist<A>,
    b: &Dist<B>,
    total: u128,
    mut f: impl FnMut(&A, &B) -> K,
) -> Dist<K> {
    let mut tally = Tally::with_capacity(a.outcomes.len().max(b.outcomes.len()));
    let fits_u64 = |total: u128| u64::try_from(total).is_ok();
    if fits_u64(a.total) && fits_u64(b.total) {
        // Every weight is at most its total, so it fits in u64: sums of `b` weights stay
        // below `b.total` and each widening product is exact. Much faster than u128 maths.
        for (x, wx) in &a.outcomes {
            let wx = *wx as u64;
            fold_runs(
                &b.outcomes,
                |y| f(x, y),
                0u64,
                |sum, wy| sum + *wy as u64,
                |key, sum| {
                    tally.add(key, u128::from(wx) * u128::from(sum));
                },
            );
        }
    } else {
        for (x, wx) in &a.outcomes {
            // Every sum and product below is a part of `total`, which the caller proved fits.
            fold_runs(
                &b.outcomes,
                |y| f(x, y),
                0u128,
                |sum, wy| sum.saturating_add(*wy),
                |key, sum| {
                    tally.add(key, wx.saturating_mul(sum));
                },
            );
        }
    }
    tally.finish(total)
}

/// Walks `entries`, adding up the weights of consecutive entries that map to the same key
/// and calling `emit` once per run.
///
/// Folds over sorted tables produce long runs of one key (e.g. net hits while only the
/// defender's sixes change), so summing in a register and touching the tally once per run
/// is much cheaper than a tally update per cell.
#[inline]
fn fold_runs<Y, K: PartialEq, S: Copy>(
    entries: &[(Y, u128)],
    mut key_of: impl FnMut(&Y) -> K,
    zero: S,
    mut add: impl FnMut(S, &u128) -> S,
    mut emit: impl FnMut(K, S),
) {
    let mut run: Option<(K, S)> = None;
    for (y, wy) in entries {
        let key = key_of(y);
        run = match run {
            Some((run_key, sum)) if run_key == key => Some((run_key, add(sum, wy))),
            Some((run_key, sum)) => {
                emit(run_key, sum);
                Some((key, add(zero, wy)))
            }
            None => Some((key, add(zero, wy))),
        };
    }
    if let Some((run_key, sum)) = run {
        emit(run_key, sum);
    }
}

impl Dist<u32> {
    /// A fair die with faces `1..=sides`, each with weight 1.
    pub fn fair(sides: NonZeroU32) -> Self {
        Self {
            outcomes: (1..=sides.get()).map(|face| (face, 1)).collect(),
            total: u128::from(sides.get()),
        }
    }
}

/// Read access to the raw parts for sibling modules that fold two tables without keys.
impl<K> Dist<K> {
    pub(super) fn entries(&self) -> &[(K, u128)] {
        &self.outcomes
    }
}

/// `weight / total` as a probability.
fn ratio(weight: u128, total: u128) -> f64 {
    weight as f64 / total as f64
}

fn sum_weights<K>(entries: &[(K, u128)]) -> u128 {
    entries
        .iter()
        .fold(0u128, |sum, (_, w)| sum.saturating_add(*w))
}

/// Accumulates weights per outcome into a sorted vector.
///
/// Tables here are small (tens to a few hundred outcomes), and consecutive additions often
/// hit the same or the next outcome, so a sorted `Vec` with a "same as last time" shortcut
/// beats a map. Callers must have proved the final total fits in `u128`; every partial sum
/// is then below it, so the saturating addition never actually saturates.
pub(super) struct Tally<K> {
    entries: Vec<(K, u128)>,
    last: usize,
}

impl<K: Ord> Tally<K> {
    pub(super) fn with_capacity(capacity: usize) -> Self {
        Self {
            entries: Vec::with_capacity(capacity),
            last: 0,
        }
    }

    #[inline]
    pub(super) fn add(&mut self, outcome: K, weight: u128) {
        if weight == 0 {
            return;
        }
        match self.locate(&outcome) {
            Ok(i) => {
                self.entries[i].1 = self.entries[i].1.saturating_add(weight);
                self.last = i;
            }
            Err(i) => {
                self.entries.insert(i, (outcome, weight));
                self.last = i;
            }
        }
    }

    /// Where `outcome` is (`Ok`) or belongs (`Err`), like `binary_search`.
    ///
    /// Walks a few slots from the last one touched before falling back to a binary search:
    /// generators and folds usually revisit an outcome or move to a nearby one, and outcomes
    /// produced in ascending order then append without any search.
    #[inline]
    fn locate(&self, outcome: &K) -> Result<usize, usize> {
        const WALK: usize = 4;
        let len = self.entries.len();
        if len == 0 {
            return Err(0);
        }
        let mut i = self.last.min(len - 1);
        match self.entries[i].0.cmp(outcome) {
            Ordering::Equal => Ok(i),
            Ordering::Less => {
                for _ in 0..WALK {
                    i += 1;
                    let Some((k, _)) = self.entries.get(i) else {
                        return Err(len);
                    };
                    match k.cmp(outcome) {
                        Ordering::Equal => return Ok(i),
                        Ordering::Greater => return Err(i),
                        Ordering::Less => {}
                    }
                }
                self.search(i + 1, len, outcome)
            }
            Ordering::Greater => {
                for _ in 0..WALK {
                    let Some(before) = i.checked_sub(1) else {
                        return Err(0);
                    };
                    i = before;
                    match self.entries[i].0.cmp(outcome) {
                        Ordering::Equal => return Ok(i),
                        Ordering::Less => return Err(i + 1),
                        Ordering::Greater => {}
                    }
                }
                self.search(0, i, outcome)
            }
        }
    }

    /// Binary search within `entries[lo..hi]`, returning indices into the whole vector.
    fn search(&self, lo: usize, hi: usize, outcome: &K) -> Result<usize, usize> {
        self.entries[lo..hi]
            .binary_search_by(|(k, _)| k.cmp(outcome))
            .map(|i| i + lo)
            .map_err(|i| i + lo)
    }

    pub(super) fn finish(self, total: u128) -> Dist<K> {
        debug_assert_eq!(
            sum_weights(&self.entries),
            total,
            "weights must sum to total"
        );
        Dist {
            outcomes: self.entries,
            total,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::test_support::{for_each_roll, pow6};
    use crate::rules::dice::{d3, d6, d20};

    #[test]
    fn from_weights_merges_and_drops_zeros() {
        let dist = Dist::from_weights([(2, 3), (1, 0), (2, 1), (5, 2)]).unwrap();
        assert_eq!(dist.iter().collect::<Vec<_>>(), vec![(&2, 4), (&5, 2)]);
        assert_eq!(dist.total(), 6);
        assert_eq!(dist.weight(&1), 0);
        assert_eq!(dist.probability(&5), 2.0 / 6.0);
    }

    #[test]
    fn from_weights_rejects_empty_and_overflow() {
        assert_eq!(
            Dist::<u8>::from_weights([(1, 0)]).unwrap_err(),
            DiceError::Empty
        );
        assert_eq!(Dist::<u8>::uniform([]).unwrap_err(), DiceError::Empty);
        assert_eq!(
            Dist::from_weights([(1u8, u128::MAX), (2, 1)]).unwrap_err(),
            DiceError::WeightOverflow
        );
    }

    #[test]
    fn tails_and_ordering() {
        let d = d6();
        assert_eq!(d.at_least(&4), 0.5);
        assert_eq!(d.weight_at_least(&7), 0);
        assert_eq!(d.weight_at_least(&0), 6);
        assert_eq!(d.at_most(&2), 2.0 / 6.0);
        assert_eq!(d.weight_at_most(&0), 0);
        assert_eq!((*d.lowest(), *d.highest()), (1, 6));
        let keys: Vec<u32> = d.iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, vec![1, 2, 3, 4, 5, 6]);
        assert!((d.expectation(|&k| f64::from(k)) - 3.5).abs() < 1e-12);
    }

    #[test]
    fn sum_of_matches_enumeration() {
        for n in 0..=5u32 {
            let exact = d6().sum_of(n).unwrap();
            assert_eq!(exact.total(), pow6(n));
            let mut brute = std::collections::BTreeMap::<u32, u128>::new();
            for_each_roll(n, |faces| {
                *brute
                    .entry(faces.iter().map(|&f| u32::from(f)).sum())
                    .or_default() += 1;
            });
            let exact_pairs: Vec<(u32, u128)> = exact.iter().map(|(k, w)| (*k, w)).collect();
            let brute_pairs: Vec<(u32, u128)> = brute.into_iter().collect();
            assert_eq!(exact_pairs, brute_pairs, "{n}d6");
        }
    }

    #[test]
    fn combine_is_independent_product() {
        // d3 (each face twice) minus d6: total 36, every cell once.
        let diff = combine(&d3(), &d6(), |&a, &b| i64::from(a) - i64::from(b)).unwrap();
        assert_eq!(diff.total(), 36);
        let mut brute = std::collections::BTreeMap::<i64, u128>::new();
        for a in 1..=6i64 {
            for b in 1..=6i64 {
                *brute.entry((a + 1) / 2 - b).or_default() += 1;
            }
        }
        let pairs: Vec<(i64, u128)> = diff.iter().map(|(k, w)| (*k, w)).collect();
        assert_eq!(pairs, brute.into_iter().collect::<Vec<_>>());
    }

    #[test]
    fn combine_reports_overflow() {
        let big = d6().sum_of(40).unwrap();
        let other = d6().sum_of(10).unwrap();
        assert_eq!(
            big.combine(&other, |a, b| a + b).unwrap_err(),
            DiceError::WeightOverflow
        );
        // 49 dice fit exactly, 50 do not.
        assert!(big.combine(&d6().sum_of(9).unwrap(), |a, b| a + b).is_ok());
    }

    #[test]
    fn too_many_dice_is_a_typed_error() {
        let sum = d6().sum_of(49).unwrap();
        assert_eq!(sum.total(), pow6(49));
        assert_eq!(
            d6().sum_of(50).unwrap_err(),
            DiceError::TooManyDice {
                dice: 50,
                limit: 49
            }
        );
        // d20: 20^29 fits, 20^30 does not.
        assert_eq!(
            d20().count_where(30, |&f| f == 20).unwrap_err(),
            DiceError::TooManyDice {
                dice: 30,
                limit: 29
            }
        );
        assert!(d20().count_where(29, |&f| f == 20).is_ok());
    }

    #[test]
    fn wide_and_narrow_products_agree() {
        // Totals past u64 take the u128 product path; totals below take the u64 one.
        let hits = d6().map(|&f| u32::from(f >= 4));
        let by_steps = hits.sum_of(40).unwrap();
        assert_eq!(by_steps.total(), pow6(40));
        assert_eq!(by_steps, d6().count_where(40, |&f| f >= 4).unwrap());
        let half = d6().sum_of(15).unwrap();
        let halves = half.combine(&half, |a, b| a + b).unwrap();
        assert_eq!(halves, d6().sum_of(30).unwrap());
        let wide = d6()
            .sum_of(25)
            .unwrap()
            .combine(&d6().sum_of(5).unwrap(), |a, b| a + b);
        assert_eq!(wide.unwrap(), halves);
    }

    #[test]
    fn count_where_matches_enumeration() {
        for n in 0..=5u32 {
            for target in 0..=8u32 {
                let exact = d6().count_where(n, |&f| f >= target).unwrap();
                assert_eq!(exact.total(), pow6(n));
                let mut brute = vec![0u128; n as usize + 1];
                for_each_roll(n, |faces| {
                    brute[faces.iter().filter(|&&f| u32::from(f) >= target).count()] += 1;
                });
                for (k, expected) in brute.iter().enumerate() {
                    assert_eq!(exact.weight(&(k as u32)), *expected, "{n} dice {target}+");
                }
            }
        }
    }

    #[test]
    fn repeat_custom_faces() {
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
        enum Face {
            Blank,
            Hits(u8),
        }
        let die = Dist::from_weights([
            (Face::Blank, 1),
            (Face::Hits(0), 4),
            (Face::Hits(1), 5),
            (Face::Hits(2), 5),
            (Face::Hits(3), 5),
        ])
        .unwrap();
        assert_eq!(die.total(), 20);
        // (any blank rolled, total hits) over three dice.
        let pool = die
            .repeat(3, (false, 0u32), |&(blank, hits), face| match face {
                Face::Blank => (true, hits),
                Face::Hits(h) => (blank, hits + u32::from(*h)),
            })
            .unwrap();
        assert_eq!(pool.total(), 8000);
        let weights = [1u128, 4, 5, 5, 5];
        let mut brute = std::collections::BTreeMap::<(bool, u32), u128>::new();
        for a in 0..5 {
            for b in 0..5 {
                for c in 0..5 {
                    let faces = [a, b, c];
                    let blank = faces.contains(&0);
                    let hits: u32 = faces.iter().filter(|&&i| i > 0).map(|&i| i - 1).sum();
                    *brute.entry((blank, hits)).or_default() +=
                        weights[a as usize] * weights[b as usize] * weights[c as usize];
                }
            }
        }
        let pairs: Vec<((bool, u32), u128)> = pool.iter().map(|(k, w)| (*k, w)).collect();
        assert_eq!(pairs, brute.into_iter().collect::<Vec<_>>());
    }

    #[test]
    fn map_merges_outcomes() {
        let parity = d6().map(|f| f % 2);
        assert_eq!(parity.iter().collect::<Vec<_>>(), vec![(&0, 3), (&1, 3)]);
        assert_eq!(parity.total(), 6);
    }

    #[test]
    fn tally_handles_any_insertion_order() {
        let dist =
            Dist::from_weights([(5, 1), (1, 1), (3, 1), (1, 1), (9, 1), (3, 2), (0, 1)]).unwrap();
        let pairs: Vec<(i32, u128)> = dist.iter().map(|(k, w)| (*k, w)).collect();
        assert_eq!(pairs, vec![(0, 1), (1, 2), (3, 3), (5, 1), (9, 1)]);
    }
}
