//! Pools of d6 rolled against a target number, counting successes and sixes.
//!
//! Most of our rulesets roll a handful of d6, count the dice that reach a target number
//! ("4+"), and give sixes a special meaning (suppression, criticals). The joint odds of
//! (successes, sixes) have a closed form, computed here so it is cheap enough to build inside
//! a UI frame or for every cell of a table of hundreds of situations.
//!
//! Target numbers are plain integers and never rejected: a die succeeds when its face is at
//! least the target, so a target of 1 or less means every die succeeds and 7 or more means
//! none does. A six is counted in `sixes` whatever the target.

use serde::{Deserialize, Serialize};

use super::counting::{pascal, powers};
use super::distribution::Tally;
use super::{DiceError, Dist};

/// The most d6 whose outcomes can be counted exactly: 6^49 fits in `u128`, 6^50 does not.
///
/// For opposed rolls the limit applies to attacker and defender dice together.
pub const MAX_EXACT_D6: u32 = 49;

/// Whether a die showing `face` reaches `target` (success when face >= target).
pub fn is_success(face: u32, target: i32) -> bool {
    i64::from(face) >= i64::from(target)
}

/// What one pool of d6 produced: how many dice succeeded and how many showed a six.
///
/// Ordered by successes, then sixes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
pub struct PoolOutcome {
    /// Dice whose face reached the target number.
    pub successes: u32,
    /// Dice showing a six, whether or not six reached the target.
    pub sixes: u32,
}

impl PoolOutcome {
    /// Reads the outcome off rolled d6 faces.
    pub fn from_faces(faces: &[u8], target: i32) -> Self {
        faces.iter().fold(Self::default(), |acc, &face| Self {
            successes: acc.successes + u32::from(is_success(u32::from(face), target)),
            sixes: acc.sixes + u32::from(face == 6),
        })
    }
}

/// A number of d6 rolled against one target number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pool {
    /// How many d6 are rolled.
    pub dice: u32,
    /// The target number: a die succeeds when its face is at least this.
    pub target: i32,
}

impl Pool {
    /// `dice` d6 needing `target`+ each.
    pub const fn new(dice: u32, target: i32) -> Self {
        Self { dice, target }
    }

    /// The exact distribution of the number of successes (total 6^dice).
    ///
    /// # Errors
    /// [`DiceError::TooManyDice`] above [`MAX_EXACT_D6`] dice.
    pub fn successes(&self) -> Result<Dist<u32>, DiceError> {
        Ok(self.outcomes()?.map(|o| o.successes))
    }

    /// The exact joint distribution of (successes, sixes) (total 6^dice).
    ///
    /// Each die falls in one of three classes: a six, a face 1–5 that succeeds, or a face
    /// 1–5 that fails. With `x` sixes and `m` plain successes the weight is the multinomial
    /// `dice! / (x! m! r!) * hit^m * miss^r`, where `hit` and `miss` count the faces 1–5 in
    /// each class and `r = dice - x - m`.
    ///
    /// # Errors
    /// [`DiceError::TooManyDice`] above [`MAX_EXACT_D6`] dice.
    pub fn outcomes(&self) -> Result<Dist<PoolOutcome>, DiceError> {
        let n = self.dice;
        let too_many = DiceError::TooManyDice {
            dice: n,
            limit: MAX_EXACT_D6,
        };
        if n > MAX_EXACT_D6 {
            return Err(too_many);
        }
        let total = 6u128.checked_pow(n).ok_or(too_many)?;
        let hit = (1..=5).filter(|&f| is_success(f, self.target)).count() as u128;
        let miss = 5 - hit;
        let six_succeeds = is_success(6, self.target);
        let choose = pascal(n);
        let hit_pow = powers(hit, n);
        let miss_pow = powers(miss, n);
        // Everything below is a term of 6^n, proven to fit above.
        let weight = |sixes: u32, plain: u32| -> u128 {
            let rest = n - sixes - plain;
            choose[n as usize][sixes as usize]
                .saturating_mul(choose[(n - sixes) as usize][plain as usize])
                .saturating_mul(hit_pow[plain as usize])
                .saturating_mul(miss_pow[rest as usize])
        };
        let mut tally = Tally::with_capacity(((n + 1) * (n + 2) / 2) as usize);
        // Loops run in ascending (successes, sixes) order so the tally only appends.
        if six_succeeds {
            for successes in 0..=n {
                for sixes in 0..=successes {
                    let outcome = PoolOutcome { successes, sixes };
                    tally.add(outcome, weight(sixes, successes - sixes));
                }
            }
        } else {
            for successes in 0..=n {
                for sixes in 0..=(n - successes) {
                    let outcome = PoolOutcome { successes, sixes };
                    tally.add(outcome, weight(sixes, successes));
                }
            }
        }
        Ok(tally.finish(total))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::d6;
    use crate::rules::dice::test_support::{for_each_roll, pow6};
    use std::collections::BTreeMap;

    /// Every die face of every roll, counted one by one.
    fn brute_force(n: u32, target: i32) -> BTreeMap<(u32, u32), u128> {
        let mut counts = BTreeMap::new();
        for_each_roll(n, |faces| {
            let successes = faces.iter().filter(|&&f| i32::from(f) >= target).count() as u32;
            let sixes = faces.iter().filter(|&&f| f == 6).count() as u32;
            *counts.entry((successes, sixes)).or_insert(0u128) += 1;
        });
        counts
    }

    #[test]
    fn joint_table_matches_enumeration() {
        for n in 0..=5u32 {
            for target in -1..=8 {
                let exact = Pool::new(n, target).outcomes().unwrap();
                assert_eq!(exact.total(), pow6(n), "{n} dice {target}+");
                let sum: u128 = exact.iter().map(|(_, w)| w).sum();
                assert_eq!(sum, pow6(n));
                let got: BTreeMap<(u32, u32), u128> = exact
                    .iter()
                    .map(|(o, w)| ((o.successes, o.sixes), w))
                    .collect();
                assert_eq!(got, brute_force(n, target), "{n} dice {target}+");
            }
        }
    }

    #[test]
    fn successes_match_count_where() {
        for n in [0, 1, 7, 20, 49] {
            for target in [0, 2, 4, 6, 7] {
                let via_pool = Pool::new(n, target).successes().unwrap();
                let via_die = d6().count_where(n, |&f| is_success(f, target)).unwrap();
                assert_eq!(via_pool, via_die, "{n} dice {target}+");
            }
        }
    }

    #[test]
    fn extreme_targets() {
        let all = Pool::new(3, 1).successes().unwrap();
        assert_eq!(all.iter().collect::<Vec<_>>(), vec![(&3, 216)]);
        let none = Pool::new(3, 7).outcomes().unwrap();
        assert_eq!(none.weight_where(|o| o.successes > 0), 0);
        assert_eq!(
            none.weight(&PoolOutcome {
                successes: 0,
                sixes: 3
            }),
            1
        );
    }

    #[test]
    fn largest_pool_sums_exactly() {
        let table = Pool::new(MAX_EXACT_D6, 4).outcomes().unwrap();
        assert_eq!(table.total(), pow6(49));
        let sum = table.iter().try_fold(0u128, |s, (_, w)| s.checked_add(w));
        assert_eq!(sum, Some(pow6(49)));
        assert_eq!(
            Pool::new(50, 4).outcomes().unwrap_err(),
            DiceError::TooManyDice {
                dice: 50,
                limit: 49
            }
        );
    }

    #[test]
    fn from_faces_counts() {
        let o = PoolOutcome::from_faces(&[1, 4, 6, 6, 3], 4);
        assert_eq!(
            o,
            PoolOutcome {
                successes: 3,
                sixes: 2
            }
        );
        assert_eq!(PoolOutcome::from_faces(&[6], 7).successes, 0);
    }
}
