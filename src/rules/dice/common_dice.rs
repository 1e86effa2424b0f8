//! The usual polyhedral dice as exact distributions.
//!
//! Faces are `u32` so sums of big pools cannot overflow the face type. Custom dice (symbols,
//! blanks, unequal weights) are built with [`Dist::from_weights`] instead.

use std::num::NonZeroU32;

use super::{DiceError, Dist};

/// A fair die with faces `1..=sides`, each with weight 1.
///
/// # Errors
/// [`DiceError::NoSides`] if `sides` is 0.
pub fn die(sides: u32) -> Result<Dist<u32>, DiceError> {
    NonZeroU32::new(sides)
        .map(Dist::fair)
        .ok_or(DiceError::NoSides)
}

/// Side counts for the named dice; evaluated in `const` blocks, so a zero would fail to
/// compile rather than panic at run time.
const fn sides(n: u32) -> NonZeroU32 {
    match NonZeroU32::new(n) {
        Some(sides) => sides,
        None => panic!("a die needs at least one side"),
    }
}

/// A six-sided die, faces 1–6.
pub fn d6() -> Dist<u32> {
    Dist::fair(const { sides(6) })
}

/// A three-sided die read from a d6 (1–2 → 1, 3–4 → 2, 5–6 → 3), so each face has weight 2
/// and the total stays 6: pools mixing d3 and d6 keep totals that are powers of 6.
pub fn d3() -> Dist<u32> {
    d6().map(|face| face.div_ceil(2))
}

/// A four-sided die, faces 1–4.
pub fn d4() -> Dist<u32> {
    Dist::fair(const { sides(4) })
}

/// An eight-sided die, faces 1–8.
pub fn d8() -> Dist<u32> {
    Dist::fair(const { sides(8) })
}

/// A twenty-sided die, faces 1–20.
pub fn d20() -> Dist<u32> {
    Dist::fair(const { sides(20) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(dist: &Dist<u32>) -> Vec<(u32, u128)> {
        dist.iter().map(|(k, w)| (*k, w)).collect()
    }

    #[test]
    fn standard_dice_faces() {
        assert_eq!(pairs(&d6()), (1..=6).map(|f| (f, 1)).collect::<Vec<_>>());
        assert_eq!(pairs(&d3()), vec![(1, 2), (2, 2), (3, 2)]);
        assert_eq!(d3().total(), 6);
        assert_eq!(pairs(&d4()), (1..=4).map(|f| (f, 1)).collect::<Vec<_>>());
        assert_eq!(pairs(&d8()), (1..=8).map(|f| (f, 1)).collect::<Vec<_>>());
        assert_eq!(pairs(&d20()), (1..=20).map(|f| (f, 1)).collect::<Vec<_>>());
        assert_eq!(die(0).unwrap_err(), DiceError::NoSides);
        assert_eq!(pairs(&die(1).unwrap()), vec![(1, 1)]);
    }
}
