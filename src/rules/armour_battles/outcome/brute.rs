//! Brute-force counting for the resolution tests: every face of every die, sharing no code
//! with the closed forms under test.

use std::collections::BTreeMap;

pub(crate) use crate::rules::dice::test_support::for_each_roll;

/// 6^n.
pub(crate) fn pow6(n: u32) -> u128 {
    (0..n).fold(1u128, |p, _| p * 6)
}

/// (successes, sixes) of `faces` at `tn`+.
pub(crate) fn count(faces: &[u8], tn: i32) -> (u32, u32) {
    let successes = faces.iter().filter(|&&f| i32::from(f) >= tn).count() as u32;
    let sixes = faces.iter().filter(|&&f| f == 6).count() as u32;
    (successes, sixes)
}

/// What one enumerated fire action did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Tallied {
    pub new_points: u32,
    pub suppressed: bool,
    pub forced_back: bool,
    pub dispersed: bool,
}

/// Counts every (new points, suppressed, forced back, dispersed) of `na` dice at `ta`+
/// against `nd` dice at `td`+, by the book's wording. `artillery` switches suppression to
/// "the target must roll more sixes".
pub(crate) fn fire_table(
    (na, ta): (u32, i32),
    (nd, td): (u32, i32),
    artillery: bool,
    existing: u32,
    cohesion: u32,
) -> BTreeMap<Tallied, u128> {
    let mut out = BTreeMap::new();
    for_each_roll(na + nd, |faces| {
        let (a, d) = faces.split_at(na as usize);
        let key = tally(count(a, ta), count(d, td), artillery, existing, cohesion);
        *out.entry(key).or_insert(0) += 1;
    });
    out
}

pub(crate) fn tally(
    (a_s, a_x): (u32, u32),
    (d_s, d_x): (u32, u32),
    artillery: bool,
    existing: u32,
    cohesion: u32,
) -> Tallied {
    let new_points = a_s.saturating_sub(d_s);
    // "Unless your opponent rolls as many 6s ... his unit is suppressed"; artillery: "you
    // must roll more 6s or become suppressed".
    let suppressed = a_x >= 1 && if artillery { d_x <= a_x } else { d_x < a_x };
    Tallied {
        new_points,
        suppressed,
        // A unit dispersed by this fire is removed, not forced back (RULINGS "Fire result").
        forced_back: suppressed && new_points >= 1 && existing + new_points < cohesion,
        dispersed: existing + new_points >= cohesion,
    }
}

/// Forced Back distances (6 + one die per unmatched six) counted over the attack, the
/// reaction and `na` extra dice of which the first `unmatched` are read.
pub(crate) fn forced_back_table(
    (na, ta): (u32, i32),
    (nd, td): (u32, i32),
    artillery: bool,
) -> BTreeMap<u32, u128> {
    let mut out = BTreeMap::new();
    for_each_roll(na + nd + na, |faces| {
        let (a, rest) = faces.split_at(na as usize);
        let (d, extra) = rest.split_at(nd as usize);
        let (ca, cd) = (count(a, ta), count(d, td));
        let t = tally(ca, cd, artillery, 0, 3);
        if t.forced_back {
            let unmatched = ca.1.saturating_sub(cd.1) as usize;
            let inches = 6 + extra[..unmatched]
                .iter()
                .map(|&f| u32::from(f))
                .sum::<u32>();
            *out.entry(inches).or_insert(0) += 1;
        }
    });
    out
}
