//! Fast seeded Monte Carlo of opposed d6 fire.
//!
//! Exact odds cover the plain opposed roll; simulation is for checking them and for rules
//! that chain several rolls, where millions of trials are needed in a fraction of a second.
//! Every die of every trial is rolled, but four dice at a time: one uniform number in
//! `0..6^4` is four faces written in base 6, and a 1,296-entry table built for the target
//! number gives their successes and sixes at once. One 64-bit draw, taken uniformly from
//! `0..6^20` with Lemire's rejection, supplies five such blocks, so the odds are exactly those
//! of rolling each die on its own.

use rand::Rng;
use rand::rngs::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

use super::roller::roll_stream;
use super::{DiceError, Pool, pool::is_success};

/// The most dice per side a simulation accepts; keeps the packed counters from carrying.
pub const MAX_SIMULATED_DICE: u32 = 255;

/// Dice per block and the number of face combinations in one block (6^4).
const BLOCK_DICE: u32 = 4;
const BLOCK_SPAN: usize = 1296;
/// Blocks per 64-bit draw, and the draw range 6^20 = 1296^5.
const BLOCKS_PER_DRAW: u32 = 5;
const DRAW_SPAN: u64 = 6u64.pow(20);
/// Low words below 2^64 mod 6^20 are redrawn so every value of the draw is equally likely.
const DRAW_REJECT_BELOW: u64 = DRAW_SPAN.wrapping_neg() % DRAW_SPAN;

/// Successes live in the low 16 bits of a packed count, sixes in the high 16 bits.
const SIX: u32 = 1 << 16;
const LOW: u32 = SIX - 1;

/// A probability estimated by simulation, with its standard error.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The observed frequency.
    pub p: f64,
    /// The binomial standard error `sqrt(p (1 - p) / trials)`.
    pub std_error: f64,
    /// How many trials were run.
    pub trials: u64,
}

impl Estimate {
    /// The estimate from `hits` successes in `trials` trials (`trials` > 0).
    pub fn from_counts(hits: u64, trials: u64) -> Self {
        let n = trials.max(1) as f64;
        let p = hits as f64 / n;
        Self {
            p,
            std_error: (p * (1.0 - p) / n).sqrt(),
            trials,
        }
    }

    /// How many standard errors `exact` lies from the estimate (infinite when the error is
    /// zero and the values differ).
    pub fn z_score(&self, exact: f64) -> f64 {
        let diff = (self.p - exact).abs();
        if diff == 0.0 {
            0.0
        } else {
            diff / self.std_error
        }
    }
}

/// Counts from a batch of simulated fire actions.
///
/// Each action records the net successes (attacker − defender, may be negative) and
/// whether the attacker rolled more sixes than the defender.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FireTally {
    seed: u64,
    attacker: Pool,
    defender: Pool,
    trials: u64,
    /// `counts[(net + defender.dice) * 2 + sixes_beat]`.
    counts: Vec<u64>,
}

impl FireTally {
    /// The seed the batch was rolled from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The attacking pool.
    pub fn attacker(&self) -> Pool {
        self.attacker
    }

    /// The defending pool.
    pub fn defender(&self) -> Pool {
        self.defender
    }

    /// How many fire actions were simulated.
    pub fn trials(&self) -> u64 {
        self.trials
    }

    /// How many actions ended with each net result, lowest first.
    pub fn net_counts(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        let offset = i64::from(self.defender.dice);
        self.counts
            .chunks_exact(2)
            .enumerate()
            .map(move |(i, pair)| (i as i64 - offset, pair[0] + pair[1]))
    }

    fn estimate_where(&self, mut pred: impl FnMut(i64, bool) -> bool) -> Estimate {
        let offset = i64::from(self.defender.dice);
        let hits = self
            .counts
            .iter()
            .enumerate()
            .filter(|&(i, _)| pred((i / 2) as i64 - offset, i % 2 == 1))
            .map(|(_, &c)| c)
            .sum();
        Estimate::from_counts(hits, self.trials)
    }

    /// P(net successes == `net`).
    pub fn net_exactly(&self, net: i64) -> Estimate {
        self.estimate_where(|n, _| n == net)
    }

    /// P(net successes >= `net`).
    pub fn net_at_least(&self, net: i64) -> Estimate {
        self.estimate_where(|n, _| n >= net)
    }

    /// P(attacker sixes > defender sixes).
    pub fn sixes_beat(&self) -> Estimate {
        self.estimate_where(|_, beat| beat)
    }

    /// P(`lowest` <= net successes <= `highest` and attacker sixes > defender sixes).
    pub fn net_between_and_sixes_beat(&self, lowest: i64, highest: i64) -> Estimate {
        self.estimate_where(|n, beat| beat && (lowest..=highest).contains(&n))
    }

    /// P(net successes >= `net` and attacker sixes > defender sixes).
    pub fn net_at_least_and_sixes_beat(&self, net: i64) -> Estimate {
        self.estimate_where(|n, beat| beat && n >= net)
    }
}

/// Simulates `trials` opposed fire actions from `seed`, rolling every die of both pools in
/// each action, and tallies net successes and "attacker sixes > defender sixes".
///
/// The same arguments always give the same tally. The generator is roll number 0 of `seed`
/// as defined in [`Roller`](super::Roller).
///
/// # Errors
/// [`DiceError::NoTrials`] for zero trials; [`DiceError::TooManyDice`] when a side has more
/// than [`MAX_SIMULATED_DICE`] dice.
pub fn simulate_fire(
    attacker: Pool,
    defender: Pool,
    trials: u64,
    seed: u64,
) -> Result<FireTally, DiceError> {
    if trials == 0 {
        return Err(DiceError::NoTrials);
    }
    for pool in [attacker, defender] {
        if pool.dice > MAX_SIMULATED_DICE {
            return Err(DiceError::TooManyDice {
                dice: pool.dice,
                limit: MAX_SIMULATED_DICE,
            });
        }
    }
    let att = SideTables::new(attacker);
    let def = SideTables::new(defender);
    let mut blocks = BlockStream::new(roll_stream(seed, 0));
    let offset = defender.dice;
    let mut counts = vec![0u64; ((attacker.dice + defender.dice + 1) * 2) as usize];
    for _ in 0..trials {
        let a = att.roll(&mut blocks);
        let d = def.roll(&mut blocks);
        let net_index = (a & LOW) + offset - (d & LOW);
        let beat = u32::from((a >> 16) > (d >> 16));
        if let Some(slot) = counts.get_mut((net_index * 2 + beat) as usize) {
            *slot += 1;
        }
    }
    Ok(FireTally {
        seed,
        attacker,
        defender,
        trials,
        counts,
    })
}

/// Lookup tables for one side: how many whole blocks of four dice, plus one partial block.
struct SideTables {
    full_blocks: u32,
    full: Box<[u32; BLOCK_SPAN]>,
    partial: Option<Box<[u32; BLOCK_SPAN]>>,
}

impl SideTables {
    fn new(pool: Pool) -> Self {
        let rest = pool.dice % BLOCK_DICE;
        Self {
            full_blocks: pool.dice / BLOCK_DICE,
            full: block_table(pool.target, BLOCK_DICE),
            partial: (rest > 0).then(|| block_table(pool.target, rest)),
        }
    }

    /// Rolls the whole side; returns successes | sixes << 16.
    #[inline]
    fn roll(&self, blocks: &mut BlockStream) -> u32 {
        let mut packed = 0;
        for _ in 0..self.full_blocks {
            packed += self.full[blocks.next_block()];
        }
        if let Some(partial) = &self.partial {
            packed += partial[blocks.next_block()];
        }
        packed
    }
}

/// For every block value, the packed successes and sixes of its first `dice` faces; the
/// faces are the base-6 digits of the value, plus one. Ignoring the higher digits keeps the
/// partial block exact, because 6^dice divides 6^4.
fn block_table(target: i32, dice: u32) -> Box<[u32; BLOCK_SPAN]> {
    let mut table = Box::new([0u32; BLOCK_SPAN]);
    for (value, entry) in table.iter_mut().enumerate() {
        let mut digits = value as u32;
        for _ in 0..dice {
            let face = digits % 6 + 1;
            digits /= 6;
            *entry += u32::from(is_success(face, target)) + if face == 6 { SIX } else { 0 };
        }
    }
    table
}

/// Hands out uniform block values (`0..1296`), five per accepted 64-bit draw.
struct BlockStream {
    rng: Xoshiro256PlusPlus,
    word: u64,
    left: u32,
}

impl BlockStream {
    fn new(rng: Xoshiro256PlusPlus) -> Self {
        Self {
            rng,
            word: 0,
            left: 0,
        }
    }

    #[inline]
    fn next_block(&mut self) -> usize {
        if self.left == 0 {
            self.word = self.draw();
            self.left = BLOCKS_PER_DRAW;
        }
        let block = self.word % BLOCK_SPAN as u64;
        self.word /= BLOCK_SPAN as u64;
        self.left -= 1;
        block as usize
    }

    /// A uniform value in `0..6^20` (Lemire's multiply-shift with rejection).
    #[inline]
    fn draw(&mut self) -> u64 {
        loop {
            let product = u128::from(self.rng.next_u64()) * u128::from(DRAW_SPAN);
            if (product as u64) >= DRAW_REJECT_BELOW {
                return (product >> 64) as u64;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::Opposed;

    /// Checks net-success and sixes estimates against the exact tables, within 4 standard
    /// errors.
    fn check_against_exact(attacker: Pool, defender: Pool, trials: u64, seed: u64) {
        let tally = simulate_fire(attacker, defender, trials, seed).unwrap();
        assert_eq!(tally.trials(), trials);
        assert_eq!(tally.net_counts().map(|(_, c)| c).sum::<u64>(), trials);
        let exact = Opposed::new(attacker, defender).unwrap();
        let net = exact.net_successes();
        for (k, p) in net.probabilities() {
            let est = tally.net_exactly(*k);
            if p > 0.01 && p < 0.99 {
                assert!(
                    est.z_score(p) < 4.0,
                    "{attacker:?} vs {defender:?} net {k}: est {est:?} exact {p}"
                );
            }
        }
        let beat = exact.probability_where(|a, d| a.sixes > d.sixes);
        let est = tally.sixes_beat();
        assert!(est.z_score(beat) < 4.0, "sixes: {est:?} exact {beat}");
        let both = exact.probability_where(|a, d| a.sixes > d.sixes && a.successes > d.successes);
        let est = tally.net_at_least_and_sixes_beat(1);
        assert!(est.z_score(both) < 4.0, "joint: {est:?} exact {both}");
        let hit = exact.probability_where(|a, d| a.successes >= d.successes + 2);
        let est = tally.net_at_least(2);
        assert!(est.z_score(hit) < 4.0, "net>=2: {est:?} exact {hit}");
    }

    #[test]
    fn monte_carlo_agrees_with_exact() {
        check_against_exact(Pool::new(8, 4), Pool::new(6, 5), 200_000, 1);
        check_against_exact(Pool::new(3, 3), Pool::new(5, 4), 200_000, 2);
        check_against_exact(Pool::new(12, 6), Pool::new(10, 4), 100_000, 3);
        check_against_exact(Pool::new(1, 2), Pool::new(0, 4), 100_000, 4);
        check_against_exact(Pool::new(5, 7), Pool::new(2, 1), 100_000, 5);
    }

    #[test]
    fn block_tables_match_digit_by_digit_counts() {
        for target in [1, 4, 6, 7] {
            for dice in 1..=BLOCK_DICE {
                let table = block_table(target, dice);
                for value in 0..BLOCK_SPAN {
                    let faces: Vec<u8> = (0..dice)
                        .map(|i| ((value / 6usize.pow(i)) % 6 + 1) as u8)
                        .collect();
                    let s = faces.iter().filter(|&&f| i32::from(f) >= target).count() as u32;
                    let x = faces.iter().filter(|&&f| f == 6).count() as u32;
                    assert_eq!(table[value], s + (x << 16));
                }
            }
        }
    }

    #[test]
    fn draw_constants() {
        assert_eq!(DRAW_SPAN, (BLOCK_SPAN as u64).pow(BLOCKS_PER_DRAW));
        assert_eq!(BLOCK_SPAN, 6usize.pow(BLOCK_DICE));
        // 2^64 mod 6^20, computed in u128 as a cross-check.
        assert_eq!(
            u128::from(DRAW_REJECT_BELOW),
            (1u128 << 64) % u128::from(DRAW_SPAN)
        );
    }

    #[test]
    fn seeded_and_reproducible() {
        let a = simulate_fire(Pool::new(8, 4), Pool::new(6, 5), 10_000, 77).unwrap();
        let b = simulate_fire(Pool::new(8, 4), Pool::new(6, 5), 10_000, 77).unwrap();
        let c = simulate_fire(Pool::new(8, 4), Pool::new(6, 5), 10_000, 78).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.seed(), 77);
    }

    #[test]
    fn refuses_bad_requests() {
        assert_eq!(
            simulate_fire(Pool::new(1, 4), Pool::new(1, 4), 0, 1).unwrap_err(),
            DiceError::NoTrials
        );
        assert_eq!(
            simulate_fire(Pool::new(256, 4), Pool::new(1, 4), 10, 1).unwrap_err(),
            DiceError::TooManyDice {
                dice: 256,
                limit: MAX_SIMULATED_DICE
            }
        );
        let max = simulate_fire(Pool::new(255, 4), Pool::new(255, 4), 10, 1).unwrap();
        assert_eq!(max.trials(), 10);
    }

    #[test]
    fn estimate_maths() {
        let e = Estimate::from_counts(25, 100);
        assert_eq!(e.p, 0.25);
        assert!((e.std_error - (0.25f64 * 0.75 / 100.0).sqrt()).abs() < 1e-15);
        assert_eq!(e.z_score(0.25), 0.0);
    }
}
