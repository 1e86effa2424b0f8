//! Which units to take out of a force that is over a points-like limit.
//!
//! A one-click fix must really fix: removing one unit of the cheapest sufficient line is not
//! enough when no single unit costs as much as the excess (Battle of Tanks, Luchs + 3 ×
//! T-34-85M at 10 tier points needs two T-34s out). The answer here is the smallest number of
//! units whose removal brings the force within its limit and, among those, the one that
//! removes the fewest points, so the player keeps as much of the force as possible.

use serde::Serialize;

/// One line's share of a removal: take `by` units off line `unit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Removal {
    pub unit: usize,
    pub by: u32,
}

/// Above this many table cells the exact search gives way to the greedy answer, which still
/// removes the fewest units but may overshoot by more points than it must.
const SEARCH_CELLS: usize = 4_000_000;

/// The fewest units to remove from lines `(index, cost of one unit, count)` so that at least
/// `over` points go; among equally few, the smallest total removed. Empty when no removal
/// reaches `over` (only units costing nothing remain).
pub fn fewest_units_removing(lines: &[(usize, u64, u32)], over: u64) -> Vec<Removal> {
    let Some(fewest) = fewest_count(lines, over) else {
        return Vec::new();
    };
    least_overshoot(lines, over, fewest).unwrap_or_else(|| greedy(lines, over))
}

/// The dearest units first: no smaller set can reach `over`.
fn by_cost_descending(lines: &[(usize, u64, u32)]) -> Vec<(usize, u64, u32)> {
    let mut sorted: Vec<_> = lines.iter().copied().filter(|l| l.1 > 0).collect();
    sorted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    sorted
}

fn fewest_count(lines: &[(usize, u64, u32)], over: u64) -> Option<u64> {
    let mut removed = 0u64;
    let mut count = 0u64;
    for (_, cost, units) in by_cost_descending(lines) {
        let still = over.saturating_sub(removed);
        let needed = still.div_ceil(cost).min(u64::from(units));
        removed = removed.saturating_add(needed.saturating_mul(cost));
        count += needed;
        if removed >= over {
            return Some(count);
        }
    }
    None
}

fn greedy(lines: &[(usize, u64, u32)], over: u64) -> Vec<Removal> {
    let mut removed = 0u64;
    let mut out = Vec::new();
    for (unit, cost, units) in by_cost_descending(lines) {
        if removed >= over {
            break;
        }
        let needed = (over - removed).div_ceil(cost).min(u64::from(units));
        removed = removed.saturating_add(needed.saturating_mul(cost));
        out.push(Removal {
            unit,
            by: u32::try_from(needed).unwrap_or(units),
        });
    }
    out.sort_by_key(|r| r.unit);
    out
}

/// Exact search over (units taken, points removed). Any set of `k` units reaching `over`
/// with the fewest possible `k` removes less than `over + dearest` (dropping one unit from a
/// bigger total would still reach `over` with fewer units), which bounds the table.
fn least_overshoot(lines: &[(usize, u64, u32)], over: u64, k: u64) -> Option<Vec<Removal>> {
    let lines = by_cost_descending(lines);
    let dearest = lines.first()?.1;
    let k = usize::try_from(k).ok()?;
    let cap = usize::try_from(over.checked_add(dearest)?).ok()?;
    let cells = lines.len().checked_mul(k + 1)?.checked_mul(cap)?;
    if cells > SEARCH_CELLS {
        return None;
    }
    // reach[j * cap + s]: j units removing s points can be taken from the lines seen so far.
    // taken[l][j * cap + s]: how many of line l that state took (u32::MAX: unreachable).
    let mut reach = vec![false; (k + 1) * cap];
    reach[0] = true;
    let mut taken = Vec::with_capacity(lines.len());
    for &(_, cost, units) in &lines {
        let cost = usize::try_from(cost).ok()?;
        // Leaving the line out comes first, so among equal answers the earlier (and dearer)
        // lines are the ones named: the same line the one-unit fix has always suggested.
        let mut next = reach.clone();
        let mut choice: Vec<u32> = reach
            .iter()
            .map(|&r| if r { 0 } else { u32::MAX })
            .collect();
        for j in 0..=k {
            for s in 0..cap {
                if !reach[j * cap + s] {
                    continue;
                }
                let most = (k - j).min(units as usize);
                for t in 1..=most {
                    let sum = s + t * cost;
                    if sum >= cap {
                        break;
                    }
                    let cell = (j + t) * cap + sum;
                    if !next[cell] {
                        next[cell] = true;
                        choice[cell] = t as u32;
                    }
                }
            }
        }
        reach = next;
        taken.push(choice);
    }
    let over = usize::try_from(over).ok()?;
    let best = (over..cap).find(|&s| reach[k * cap + s])?;
    let (mut j, mut s) = (k, best);
    let mut out = Vec::new();
    for (l, &(unit, cost, _)) in lines.iter().enumerate().rev() {
        let t = taken[l][j * cap + s];
        if t == u32::MAX {
            return None;
        }
        if t > 0 {
            out.push(Removal { unit, by: t });
        }
        j -= t as usize;
        s -= t as usize * usize::try_from(cost).ok()?;
    }
    out.sort_by_key(|r| r.unit);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every way of removing units, walked one by one: (units removed, points removed, set).
    fn brute(lines: &[(usize, u64, u32)], over: u64) -> Option<(u64, u64)> {
        let mut best: Option<(u64, u64)> = None;
        let mut counts = vec![0u32; lines.len()];
        loop {
            let units: u64 = counts.iter().map(|&c| u64::from(c)).sum();
            let points: u64 = counts
                .iter()
                .zip(lines)
                .map(|(&c, l)| u64::from(c) * l.1)
                .sum();
            if points >= over && best.is_none_or(|b| (units, points) < b) {
                best = Some((units, points));
            }
            let mut i = 0;
            loop {
                if i == lines.len() {
                    return best;
                }
                if counts[i] < lines[i].2 {
                    counts[i] += 1;
                    break;
                }
                counts[i] = 0;
                i += 1;
            }
        }
    }

    fn totals(lines: &[(usize, u64, u32)], removal: &[Removal]) -> (u64, u64) {
        removal.iter().fold((0, 0), |(u, p), r| {
            let cost = lines.iter().find(|l| l.0 == r.unit).map_or(0, |l| l.1);
            (u + u64::from(r.by), p + u64::from(r.by) * cost)
        })
    }

    #[test]
    fn two_t34s_when_one_is_not_enough() {
        // Battle of Tanks: Luchs (tier 4) + 3 × T-34-85M (tier 6) at 10 → 22, 12 over.
        let lines = [(0, 4, 1), (1, 6, 3)];
        assert_eq!(
            fewest_units_removing(&lines, 12),
            vec![Removal { unit: 1, by: 2 }]
        );
    }

    #[test]
    fn prefers_the_smaller_overshoot_among_equally_few_units() {
        // 7 over: one 10 would do, but one 8 removes less.
        let lines = [(0, 10, 2), (1, 8, 1), (2, 3, 4)];
        assert_eq!(
            fewest_units_removing(&lines, 7),
            vec![Removal { unit: 1, by: 1 }]
        );
    }

    #[test]
    fn agrees_with_walking_every_removal() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..400 {
            let line_count = 1 + next(4) as usize;
            let lines: Vec<_> = (0..line_count)
                .map(|i| (i, next(12), 1 + next(4) as u32))
                .collect();
            let total: u64 = lines.iter().map(|l| l.1 * u64::from(l.2)).sum();
            let over = 1 + next(total.max(1) + 3);
            let got = fewest_units_removing(&lines, over);
            match brute(&lines, over) {
                None => assert!(got.is_empty(), "{lines:?} over {over}: {got:?}"),
                Some(best) => assert_eq!(totals(&lines, &got), best, "{lines:?} over {over}"),
            }
        }
    }

    #[test]
    fn a_huge_count_is_answered_without_a_table() {
        let lines = [(0, 1, u32::MAX)];
        assert_eq!(
            fewest_units_removing(&lines, 3_000_000_000),
            vec![Removal {
                unit: 0,
                by: 3_000_000_000
            }]
        );
    }
}
