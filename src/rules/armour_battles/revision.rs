//! Revisions of the project's Armour Battles rulings. A ruling that is corrected gets a new
//! revision number (RULINGS "Revisions"): what was recorded under an earlier revision keeps
//! replaying under that revision's rules, and new play is resolved under [`CURRENT`]. Every
//! revision stays here, so a campaign played before a correction verifies for good.

/// The revision new play is resolved under.
pub const CURRENT: u32 = 4;
/// The first revision: everything recorded before revisions were numbered.
pub const FIRST: u32 = 1;

/// One corrected ruling: what the revision before `corrected_in` did, in the words the app
/// shows beside what was recorded under it, and the kinds of event it can have changed (the
/// note is not put beside a command roll for a ruling about fire).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Correction {
    pub corrected_in: u32,
    pub before: &'static str,
    pub concerns: &'static [&'static str],
}

/// Every correction, oldest first.
pub const CORRECTIONS: &[Correction] = &[
    Correction {
        corrected_in: 2,
        before: "forced back rolled for dispersed units",
        concerns: &["fire"],
    },
    Correction {
        corrected_in: 3,
        before: "orders, fire, rallies and Staff Orders allowed between turns",
        concerns: &HALTED_BETWEEN_TURNS,
    },
    Correction {
        corrected_in: 4,
        before: "the last chain of a turn ended the turn at once, before its unit's fire and the enemy's opportunity fire",
        concerns: &["chain_used"],
    },
];

/// The kinds of event that revision 3 refuses between turns (before a turn's command roll,
/// after both sides' Command Failure): every order, fire and rally, and what follows an order.
pub const HALTED_BETWEEN_TURNS: [&str; 8] = [
    "chain_used",
    "wild_dice_used",
    "staff_order_used",
    "artillery_called",
    "fire",
    "rally",
    "reliability_checked",
    "repaired",
];

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

/// Whether play between turns is refused until the next command roll (docs/rulings.md,
/// "Between turns"). Revisions 1 and 2 allowed it, and what was recorded under them still
/// replays.
pub fn halts_between_turns(revision: u32) -> bool {
    revision >= 3
}

/// "recorded under revision 1 (forced back rolled for dispersed units; corrected in revision
/// 2)", for an event of `kind` resolved under an older revision than the current one, naming
/// the corrections since that concern its kind; `None` when none does.
pub fn describe(revision: u32, kind: &str) -> Option<String> {
    let changed: Vec<String> = CORRECTIONS
        .iter()
        .filter(|c| c.corrected_in > revision && c.concerns.contains(&kind))
        .map(|c| format!("{}; corrected in revision {}", c.before, c.corrected_in))
        .collect();
    if changed.is_empty() {
        return None;
    }
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
        assert!(forced_back_for_dispersed(1));
        assert!(!forced_back_for_dispersed(2) && !forced_back_for_dispersed(CURRENT));
        assert_eq!(
            describe(1, "fire").as_deref(),
            Some(
                "recorded under revision 1 (forced back rolled for dispersed units; corrected in revision 2; \
                 orders, fire, rallies and Staff Orders allowed between turns; corrected in revision 3)"
            )
        );
        assert_eq!(describe(CURRENT, "fire"), None);
        assert_eq!(describe(3, "fire"), None);
    }

    #[test]
    fn the_between_turns_correction_is_revision_3_and_named_only_beside_what_it_concerns() {
        assert_eq!(CURRENT, 4);
        assert!(!halts_between_turns(1) && !halts_between_turns(2));
        assert!(halts_between_turns(CURRENT));
        assert_eq!(
            describe(2, "rally").as_deref(),
            Some(
                "recorded under revision 2 (orders, fire, rallies and Staff Orders allowed between turns; corrected in \
                 revision 3)"
            )
        );
        // A command roll and a note read the same under every revision.
        assert_eq!(describe(1, "command_rolled"), None);
        assert_eq!(describe(2, "revealed"), None);
        assert!(is_known(1) && is_known(2) && is_known(3) && is_known(4));
        assert!(!is_known(0) && !is_known(5));
        assert_eq!(
            describe(3, "chain_used").as_deref(),
            Some(
                "recorded under revision 3 (the last chain of a turn ended the turn at once, before its unit's fire and the enemy's opportunity fire; corrected in revision 4)"
            )
        );
    }
}
