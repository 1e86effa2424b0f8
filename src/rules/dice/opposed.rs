//! Exact odds for an attacker's d6 pool against a defender's d6 pool.
//!
//! Armour Battles fire (and similar opposed rolls elsewhere) compares two pools: net hits,
//! whose sixes win, and so on. Enumerating faces would cost 6^(n_a + n_d) steps; instead
//! each side is reduced to its (successes, sixes) table, at most (n+1)(n+2)/2 cells, and the
//! two tables are multiplied. 12 against 10 dice is 91 × 66 cells, fast enough to recompute
//! whenever the UI needs it.

use super::distribution::combine_within;
use super::pool::MAX_EXACT_D6;
use super::{DiceError, Dist, Pool, PoolOutcome};

/// Both sides of an opposed roll, reduced to their (successes, sixes) tables.
///
/// Build it once per situation and ask it any number of questions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opposed {
    attacker: Dist<PoolOutcome>,
    defender: Dist<PoolOutcome>,
    total: u128,
}

impl Opposed {
    /// The attacker's and the defender's pools, rolled independently.
    ///
    /// # Errors
    /// [`DiceError::TooManyDice`] when both pools together exceed [`MAX_EXACT_D6`] dice.
    pub fn new(attacker: Pool, defender: Pool) -> Result<Self, DiceError> {
        let dice = attacker.dice.saturating_add(defender.dice);
        if dice > MAX_EXACT_D6 {
            return Err(DiceError::TooManyDice {
                dice,
                limit: MAX_EXACT_D6,
            });
        }
        Self::from_outcomes(attacker.outcomes()?, defender.outcomes()?)
    }

    /// Opposes two ready-made tables, e.g. pools a ruleset modified (rerolls, extra dice).
    ///
    /// # Errors
    /// [`DiceError::WeightOverflow`] if the product of the two totals exceeds `u128::MAX`.
    pub fn from_outcomes(
        attacker: Dist<PoolOutcome>,
        defender: Dist<PoolOutcome>,
    ) -> Result<Self, DiceError> {
        let total = attacker
            .total()
            .checked_mul(defender.total())
            .ok_or(DiceError::WeightOverflow)?;
        Ok(Self {
            attacker,
            defender,
            total,
        })
    }

    /// The attacker's (successes, sixes) table.
    pub fn attacker(&self) -> &Dist<PoolOutcome> {
        &self.attacker
    }

    /// The defender's (successes, sixes) table.
    pub fn defender(&self) -> &Dist<PoolOutcome> {
        &self.defender
    }

    /// The number of equally likely face combinations: 6^(n_a + n_d) for plain pools.
    pub fn total(&self) -> u128 {
        self.total
    }

    /// Folds every (attacker, defender) pair into a key chosen by the ruleset and returns
    /// the exact distribution of that key, e.g. `|a, d| a.successes as i32 - d.successes as i32`.
    pub fn fold<K: Ord>(&self, mut key: impl FnMut(PoolOutcome, PoolOutcome) -> K) -> Dist<K> {
        combine_within(&self.attacker, &self.defender, self.total, |a, d| {
            key(*a, *d)
        })
    }

    /// The exact weight (out of [`Opposed::total`]) of the pairs for which `pred` holds.
    ///
    /// Cheaper than [`Opposed::fold`] when a single yes/no question is asked.
    pub fn weight_where(&self, mut pred: impl FnMut(PoolOutcome, PoolOutcome) -> bool) -> u128 {
        let defender = self.defender.entries();
        let mut sum = 0u128;
        for &(a, wa) in self.attacker.entries() {
            // Sum the defender's matching weights first: one multiplication per attacker cell.
            let matching = defender
                .iter()
                .filter(|(d, _)| pred(a, *d))
                .fold(0u128, |s, (_, wd)| s.saturating_add(*wd));
            // A sub-sum of `total`, which fits by construction.
            sum = sum.saturating_add(wa.saturating_mul(matching));
        }
        sum
    }

    /// The probability that `pred` holds.
    pub fn probability_where(&self, pred: impl FnMut(PoolOutcome, PoolOutcome) -> bool) -> f64 {
        self.weight_where(pred) as f64 / self.total as f64
    }

    /// The distribution of attacker successes minus defender successes (may be negative;
    /// rulesets that cannot lose hits clamp at zero themselves).
    pub fn net_successes(&self) -> Dist<i64> {
        self.fold(|a, d| i64::from(a.successes) - i64::from(d.successes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::test_support::{for_each_roll, pow6};
    use std::collections::BTreeMap;

    /// Counts (attacker successes, attacker sixes, defender successes, defender sixes) for
    /// every face of every die, without any of the code under test.
    fn brute_force(attacker: Pool, defender: Pool) -> BTreeMap<(u32, u32, u32, u32), u128> {
        let count = |faces: &[u8], target: i32| {
            let successes = faces.iter().filter(|&&f| i32::from(f) >= target).count();
            let sixes = faces.iter().filter(|&&f| f == 6).count();
            (successes, sixes)
        };
        let (a_side, d_side) = (attacker.dice as usize + 1, defender.dice as usize + 1);
        // A flat array keeps the 6^n inner loop cheap in debug builds.
        let mut cells = vec![0u128; a_side * a_side * d_side * d_side];
        for_each_roll(attacker.dice + defender.dice, |faces| {
            let (a, d) = faces.split_at(attacker.dice as usize);
            let (a_s, a_x) = count(a, attacker.target);
            let (d_s, d_x) = count(d, defender.target);
            cells[((a_s * a_side + a_x) * d_side + d_s) * d_side + d_x] += 1;
        });
        let mut out = BTreeMap::new();
        for (i, &w) in cells.iter().enumerate() {
            if w > 0 {
                let d_x = i % d_side;
                let d_s = i / d_side % d_side;
                let a_x = i / (d_side * d_side) % a_side;
                let a_s = i / (d_side * d_side * a_side);
                out.insert((a_s as u32, a_x as u32, d_s as u32, d_x as u32), w);
            }
        }
        out
    }

    #[test]
    fn joint_four_way_table_matches_enumeration() {
        let grid = [
            (0, 0),
            (1, 1),
            (2, 3),
            (3, 4),
            (4, 3),
            (5, 2),
            (2, 5),
            (0, 4),
            (5, 0),
        ];
        let targets = [(4, 4), (3, 5), (6, 2), (1, 7), (7, 0)];
        let cases = grid
            .iter()
            .flat_map(|&sizes| targets.iter().map(move |&t| (sizes, t)))
            // One 4-against-4 case: 6^8 rolls is slow-ish in debug builds.
            .chain([((4, 4), (4, 5))]);
        for ((na, nd), (ta, td)) in cases {
            {
                let attacker = Pool::new(na, ta);
                let defender = Pool::new(nd, td);
                let opposed = Opposed::new(attacker, defender).unwrap();
                assert_eq!(opposed.total(), pow6(na + nd));
                let joint = opposed.fold(|a, d| (a.successes, a.sixes, d.successes, d.sixes));
                assert_eq!(joint.total(), pow6(na + nd));
                let got: BTreeMap<_, _> = joint.iter().map(|(k, w)| (*k, w)).collect();
                assert_eq!(
                    got,
                    brute_force(attacker, defender),
                    "{na}@{ta} vs {nd}@{td}"
                );
            }
        }
    }

    #[test]
    fn weight_where_matches_fold() {
        let opposed = Opposed::new(Pool::new(4, 4), Pool::new(3, 5)).unwrap();
        let brute = brute_force(Pool::new(4, 4), Pool::new(3, 5));
        let expected: u128 = brute
            .iter()
            .filter(|((_, ax, _, dx), _)| ax > dx)
            .map(|(_, w)| *w)
            .sum();
        assert_eq!(opposed.weight_where(|a, d| a.sixes > d.sixes), expected);
        let folded = opposed.fold(|a, d| a.sixes > d.sixes);
        assert_eq!(folded.weight(&true), expected);
        // The two suppression wordings in the brief are the same event.
        assert_eq!(
            opposed.weight_where(|a, d| a.sixes >= 1 && d.sixes < a.sixes),
            expected
        );
    }

    #[test]
    fn net_successes_matches_enumeration() {
        let net = Opposed::new(Pool::new(4, 3), Pool::new(3, 4))
            .unwrap()
            .net_successes();
        let mut expected = BTreeMap::<i64, u128>::new();
        for ((a_s, _, d_s, _), w) in brute_force(Pool::new(4, 3), Pool::new(3, 4)) {
            *expected.entry(i64::from(a_s) - i64::from(d_s)).or_default() += w;
        }
        let got: BTreeMap<i64, u128> = net.iter().map(|(k, w)| (*k, w)).collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn big_opposed_sums_to_total() {
        let opposed = Opposed::new(Pool::new(12, 4), Pool::new(10, 5)).unwrap();
        let net = opposed.net_successes();
        assert_eq!(net.total(), pow6(22));
        assert_eq!(net.iter().map(|(_, w)| w).sum::<u128>(), pow6(22));
        assert_eq!(opposed.weight_where(|_, _| true), pow6(22));
        let limit = Opposed::new(Pool::new(30, 4), Pool::new(19, 4)).unwrap();
        assert_eq!(limit.total(), pow6(49));
        assert_eq!(
            Opposed::new(Pool::new(30, 4), Pool::new(20, 4)).unwrap_err(),
            DiceError::TooManyDice {
                dice: 50,
                limit: 49
            }
        );
    }
}
