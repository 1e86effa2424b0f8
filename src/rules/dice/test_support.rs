//! Brute-force helpers for the dice tests: they enumerate every face of every die, sharing
//! no code with the closed forms under test.

/// Calls `f` once for every one of the 6^n ways `n` d6 can land (faces 1–6).
pub(crate) fn for_each_roll(n: u32, mut f: impl FnMut(&[u8])) {
    let mut faces = vec![1u8; n as usize];
    loop {
        f(&faces);
        // Odometer: bump the first die that is not yet a six, resetting those before it.
        let mut i = 0;
        loop {
            if i == faces.len() {
                return;
            }
            if faces[i] < 6 {
                faces[i] += 1;
                break;
            }
            faces[i] = 1;
            i += 1;
        }
    }
}

/// The same walk with faces as `u32`, for the rulesets' enumeration tests (their sums and
/// comparisons are in `u32`).
pub(crate) fn for_each_d6s(n: usize, f: &mut impl FnMut(&[u32])) {
    let n = u32::try_from(n).expect("a die count the tests can walk");
    let mut wide = Vec::new();
    for_each_roll(n, |faces| {
        wide.clear();
        wide.extend(faces.iter().map(|&face| u32::from(face)));
        f(&wide);
    });
}

/// 6^n by repeated multiplication (panics on overflow, which the tests never reach).
pub(super) fn pow6(n: u32) -> u128 {
    (0..n).fold(1u128, |p, _| p * 6)
}

#[test]
fn enumeration_visits_every_roll_once() {
    let mut seen = std::collections::BTreeSet::new();
    for_each_roll(3, |faces| {
        assert!(seen.insert(faces.to_vec()));
    });
    assert_eq!(seen.len() as u128, pow6(3));
    let mut empty = 0;
    for_each_roll(0, |faces| {
        assert!(faces.is_empty());
        empty += 1;
    });
    assert_eq!(empty, 1);
}
