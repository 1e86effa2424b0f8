//! Small exact-counting helpers (binomial coefficients, powers) shared by the closed forms.
//!
//! They saturate instead of overflowing so they can never panic; every caller first proves
//! that the grand total fits in `u128`, and each value computed here is a term of that total,
//! so saturation is unreachable in practice.

/// Rows 0..=`n` of Pascal's triangle: `rows[a][b]` is C(a, b).
///
/// Built by addition only, so no intermediate value exceeds the coefficient itself.
pub(super) fn pascal(n: u32) -> Vec<Vec<u128>> {
    let mut rows: Vec<Vec<u128>> = Vec::with_capacity(n as usize + 1);
    let mut row = vec![1u128];
    for _ in 0..n {
        let mut next = Vec::with_capacity(row.len() + 1);
        next.push(1);
        for pair in row.windows(2) {
            next.push(pair[0].saturating_add(pair[1]));
        }
        next.push(1);
        rows.push(std::mem::replace(&mut row, next));
    }
    rows.push(row);
    rows
}

/// `base^0 ..= base^n`, so a closed form can look powers up instead of recomputing them.
pub(super) fn powers(base: u128, n: u32) -> Vec<u128> {
    let mut out = Vec::with_capacity(n as usize + 1);
    let mut p = 1u128;
    out.push(p);
    for _ in 0..n {
        p = p.saturating_mul(base);
        out.push(p);
    }
    out
}

/// The largest `k` with `total^k <= u128::MAX`, capped at `cap`.
///
/// The cap matters for a degenerate one-outcome die, whose powers never overflow.
pub(super) fn max_copies(total: u128, cap: u32) -> u32 {
    if total <= 1 {
        return cap;
    }
    let mut product = 1u128;
    let mut k = 0;
    while k < cap {
        match product.checked_mul(total) {
            Some(next) => {
                product = next;
                k += 1;
            }
            None => break,
        }
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pascal_matches_factorial_formula() {
        let rows = pascal(20);
        let fact = |n: u32| (1..=u128::from(n)).product::<u128>();
        for n in 0..=20u32 {
            for k in 0..=n {
                assert_eq!(
                    rows[n as usize][k as usize],
                    fact(n) / (fact(k) * fact(n - k)),
                    "C({n},{k})"
                );
            }
        }
    }

    #[test]
    fn max_copies_of_d6_is_49() {
        assert_eq!(max_copies(6, u32::MAX), 49);
        assert!(6u128.checked_pow(49).is_some());
        assert!(6u128.checked_pow(50).is_none());
        assert_eq!(max_copies(2, u32::MAX), 127);
        assert_eq!(max_copies(1, 1024), 1024);
        assert_eq!(max_copies(20, 10), 10);
    }

    #[test]
    fn powers_are_exact() {
        assert_eq!(powers(6, 3), vec![1, 6, 36, 216]);
        assert_eq!(powers(0, 2), vec![1, 0, 0]);
    }
}
