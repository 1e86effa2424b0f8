//! Revisions of the project's Armour Battles rulings. A ruling that is corrected gets a new
//! revision number (RULINGS "Revisions"): what was recorded under an earlier revision keeps
//! replaying under that revision's rules, and new play is resolved under [`CURRENT`]. Every
//! revision stays here, so a campaign played before a correction verifies for good.

/// The revision new play is resolved under.
pub const CURRENT: u32 = 2;
/// The first revision: everything recorded before revisions were numbered.
pub const FIRST: u32 = 1;

/// One corrected ruling: what the revision before `corrected_in` did, in the words the app
/// shows beside what was recorded under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Correction {
    pub corrected_in: u32,
    pub before: &'static str,
}

/// Every correction, oldest first.
pub const CORRECTIONS: &[Correction] = &[Correction {
    corrected_in: 2,
    before: "forced back rolled for dispersed units",
}];

/// Whether this build has the rules of `revision`.
pub fn is_known(revision: u32) -> bool {
    (FIRST..=CURRENT).contains(&revision)
}

/// Whether a target dispersed by a fire still rolls to be forced back. Revision 1 rolled it
/// (and the Army Morale die after it, so the morale die came later in the roll); revision 2
/// removes the unit without a forced-back roll.
pub fn forced_back_for_dispersed(revision: u32) -> bool {
    revision < 2
}

/// "recorded under revision 1 (forced back rolled for dispersed units; corrected in revision
/// 2)", for an event resolved under an older revision than the current one; `None` for the
/// current revision.
pub fn describe(revision: u32) -> Option<String> {
    if revision >= CURRENT {
        return None;
    }
    let changed: Vec<String> = CORRECTIONS
        .iter()
        .filter(|c| c.corrected_in > revision)
        .map(|c| format!("{}; corrected in revision {}", c.before, c.corrected_in))
        .collect();
    Some(format!(
        "recorded under revision {revision} ({})",
        changed.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forced_back_correction_is_revision_2_and_revision_1_says_what_it_did() {
        assert_eq!(CURRENT, 2);
        assert!(forced_back_for_dispersed(1));
        assert!(!forced_back_for_dispersed(CURRENT));
        assert_eq!(
            describe(1).as_deref(),
            Some(
                "recorded under revision 1 (forced back rolled for dispersed units; corrected in revision 2)"
            )
        );
        assert_eq!(describe(CURRENT), None);
        assert!(is_known(1) && is_known(2) && !is_known(0) && !is_known(3));
    }
}
