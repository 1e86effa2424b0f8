//! Roster codes: a short code of what a force fields and the rules revision it was checked
//! under, printed on its roster, so a tournament organiser can tell whether a force file is
//! the list that was printed (`force verify FILE CODE`).
//!
//! The code covers what is played, not what is said about it: the ruleset, the budget, and
//! each unit line's card as the rules resolve it (a short name and the book's full name give
//! the same code; a custom card's every number counts), its count, group, points and stands.
//! The force's name and notes and the order of its lines do not count. It is the first 50
//! bits of a SHA-256 of that canonical content, in Crockford base 32, after the revision:
//! `R2-7KX4P-2M9QD`. Reading it back forgives case, spaces and the letters O, I and L.

use std::fmt;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::validation::resolve_cards;
use super::{Force, RulesetId, registry};

/// Crockford's base-32 alphabet: no I, L, O or U to mistake.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// Base-32 digits in a code: 50 bits, enough that two lists sharing a code by chance is
/// out of reach for a club or a tournament.
const DIGITS: usize = 10;

/// The rules revision a roster code is made under. Until rulesets carry their own rules
/// revision this is the revision of the ruleset's embedded book data, which changes whenever
/// a card's numbers do; switch it here and nowhere else.
pub fn rules_revision(ruleset: RulesetId) -> u32 {
    registry::ruleset(ruleset).data_revision()
}

/// A roster code: the rules revision and the digest of the force's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RosterCode {
    pub revision: u32,
    /// The digest's first 50 bits, one base-32 digit per entry.
    digits: [u8; DIGITS],
}

impl fmt::Display for RosterCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: String = self
            .digits
            .iter()
            .map(|&d| char::from(ALPHABET[usize::from(d)]))
            .collect();
        write!(f, "R{}-{}-{}", self.revision, &text[..5], &text[5..])
    }
}

/// Why a code could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    /// Not of the form `R<revision>-XXXXX-XXXXX`.
    #[error(
        "'{0}' is not a roster code: it reads like R2-7KX4P-2M9QD (R, the rules revision, then ten letters and digits)"
    )]
    Form(String),
}

impl std::str::FromStr for RosterCode {
    type Err = CodeError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || CodeError::Form(text.to_string());
        let compact: String = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-')
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let rest = compact.strip_prefix('R').ok_or_else(bad)?;
        let split = rest.len().checked_sub(DIGITS).ok_or_else(bad)?;
        let (revision, body) = rest.split_at(split);
        let revision: u32 = revision.parse().map_err(|_| bad())?;
        let mut digits = [0u8; DIGITS];
        for (slot, c) in digits.iter_mut().zip(body.chars()) {
            let c = match c {
                'O' => '0',
                'I' | 'L' => '1',
                other => other,
            };
            let at = ALPHABET.iter().position(|&a| char::from(a) == c);
            *slot = u8::try_from(at.ok_or_else(bad)?).map_err(|_| bad())?;
        }
        Ok(RosterCode { revision, digits })
    }
}

/// The code of `force` under the current rules revision.
pub fn roster_code(force: &Force) -> RosterCode {
    code_under(force, rules_revision(force.ruleset))
}

/// The code `force` has under rules revision `revision`.
fn code_under(force: &Force, revision: u32) -> RosterCode {
    let content = canonical(force, revision);
    let digest = Sha256::digest(content.to_string().as_bytes());
    let bits = digest
        .iter()
        .take(8)
        .fold(0u64, |acc, &byte| (acc << 8) | u64::from(byte));
    let mut digits = [0u8; DIGITS];
    for (i, slot) in digits.iter_mut().enumerate() {
        // Five bits at a time from the top of the digest.
        *slot = ((bits >> (64 - 5 * (i + 1))) & 0x1f) as u8;
    }
    RosterCode { revision, digits }
}

/// The content a code stands for, as JSON with its unit lines merged and sorted.
fn canonical(force: &Force, revision: u32) -> Value {
    let mut lines: Vec<(String, u64)> = Vec::new();
    for (unit, card) in force.units.iter().zip(resolve_cards(force)) {
        let card = match card {
            Some(card) => serde_json::to_value(card).unwrap_or(Value::Null),
            None => json!({ "unresolved": unit.card.name().trim().to_lowercase() }),
        };
        let line = json!({
            "card": card,
            "group": unit.group.as_deref().map(str::trim),
            "points": unit.points,
            "stands": unit.stands,
        })
        .to_string();
        match lines.iter_mut().find(|(l, _)| *l == line) {
            Some((_, count)) => *count += u64::from(unit.count),
            None => lines.push((line, u64::from(unit.count))),
        }
    }
    lines.sort();
    json!({
        "format": "quartermaster-roster-code",
        "version": 1,
        "ruleset": force.ruleset.as_str(),
        "revision": revision,
        "budget": serde_json::to_value(&force.budget).unwrap_or(Value::Null),
        "units": lines
            .into_iter()
            .map(|(line, count)| json!({ "line": line, "count": count }))
            .collect::<Vec<_>>(),
    })
}

/// What checking a force file against a printed code found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The file is the list the code was printed for.
    Matches,
    /// It is not: the file's own code under the code's revision differs.
    Differs { file: RosterCode },
    /// The code was made under a rules revision this build does not have (a newer app's):
    /// nothing can be said, and no code of the file is made up for it.
    UnknownRevision { current: u32 },
}

/// Checks `force` against `code`, under the revision the code was made with (a code printed
/// before a rules revision still verifies its list, as RULINGS asks of old records).
pub fn verify(force: &Force, code: &RosterCode) -> Verdict {
    let current = rules_revision(force.ruleset);
    if code.revision > current {
        return Verdict::UnknownRevision { current };
    }
    let file = code_under(force, code.revision);
    if file == *code {
        Verdict::Matches
    } else {
        Verdict::Differs { file }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::armour_battles;
    use crate::rules::{Budget, CardRef, ForceUnit};

    fn lorraine() -> Force {
        armour_battles::preset_force("lorraine-3-german").unwrap()
    }

    #[test]
    fn a_code_reads_back_and_forgives_case_spaces_and_look_alike_letters() {
        let code = roster_code(&lorraine());
        let text = code.to_string();
        assert!(text.starts_with(&format!("R{}-", code.revision)), "{text}");
        assert_eq!(text.len(), format!("R{}", code.revision).len() + 12);
        assert_eq!(text.parse::<RosterCode>(), Ok(code));
        let sloppy = text.to_lowercase().replace('-', " ").replace('0', "o");
        assert_eq!(sloppy.parse::<RosterCode>(), Ok(code));
        for bad in [
            "",
            "R2",
            "X2-7KX4P-2M9QD",
            "R2-7KX4P-2M9Q",
            "R2-7KX4P-2M9QU",
        ] {
            assert!(bad.parse::<RosterCode>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_code_of_a_revision_this_build_does_not_have_is_not_checked() {
        let force = lorraine();
        let mut code = roster_code(&force);
        let current = code.revision;
        code.revision = current + 1;
        assert_eq!(verify(&force, &code), Verdict::UnknownRevision { current });
    }

    #[test]
    fn name_notes_order_and_short_names_do_not_change_the_code_what_is_played_does() {
        let force = lorraine();
        let code = roster_code(&force);
        let mut same = force.clone();
        same.name = "My Germans".to_string();
        same.notes = "bring dice".to_string();
        same.units.reverse();
        assert_eq!(roster_code(&same), code);
        // One line of two is two lines of one.
        let mut split = force.clone();
        let first = split.units[0].clone();
        if first.count > 1 {
            split.units[0].count -= 1;
            split.units.push(ForceUnit { count: 1, ..first });
            assert_eq!(roster_code(&split), code);
        }
        let mut short = force.clone();
        short.units[0].card = CardRef::Library(short.units[0].card.name().to_lowercase());
        assert_eq!(roster_code(&short), code);
        let mut more = force.clone();
        more.units[0].count += 1;
        assert_ne!(roster_code(&more), code);
        let mut regrouped = force.clone();
        regrouped.units[0].group = Some("Elsewhere".to_string());
        assert_ne!(roster_code(&regrouped), code);
        let mut budget = force;
        budget.budget = Budget::BattleGroup("lorraine-2-german".to_string());
        assert_ne!(roster_code(&budget), code);
    }

    #[test]
    fn verifying_says_match_or_gives_the_files_own_code() {
        let force = lorraine();
        let code = roster_code(&force);
        assert_eq!(verify(&force, &code), Verdict::Matches);
        let mut other = force.clone();
        other.units.pop();
        assert_eq!(
            verify(&other, &code),
            Verdict::Differs {
                file: roster_code(&other)
            }
        );
        // A code from an earlier revision is checked under that revision.
        let old = code_under(&force, code.revision.saturating_sub(1));
        assert_eq!(verify(&force, &old), Verdict::Matches);
        assert_ne!(old, code);
    }
}
