//! Numbers in words, shared by every front end so the command line, the window and the
//! printed sheets say the same thing the same way.

pub use super::validation::amount;

/// A probability as a percentage with one decimal. Tiny non-zero chances read "<0.1%" and
/// near-certain ones ">99.9%", so a possible outcome never looks impossible or certain.
pub fn percent(p: f64) -> String {
    if p > 0.0 && p < 0.0005 {
        "<0.1%".to_string()
    } else if p < 1.0 && p > 0.9995 {
        ">99.9%".to_string()
    } else {
        format!("{:.1}%", p * 100.0)
    }
}

/// "1 success", "3 successes": `count` with the word that fits it, for words whose plural is
/// not the singular plus "s" ([`amount`] handles those).
pub fn plural(count: u64, one: &str, many: &str) -> String {
    if count == 1 {
        format!("1 {one}")
    } else {
        format!("{count} {many}")
    }
}

/// The word with its first letter in upper case ("points" → "Points").
pub fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// "Rifles'", "Ann's", "US's": a name owning something ("Rifles' die"). Only a lower-case
/// final "s" takes the apostrophe alone: "US" is two letters said aloud.
pub fn possessive(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

/// "a", "a or b", "a, b or c": choices as a sentence says them.
pub fn or_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_owns_with_an_apostrophe_and_an_s_unless_it_ends_in_a_plural_s() {
        assert_eq!(possessive("Rifles"), "Rifles'");
        assert_eq!(possessive("Ann"), "Ann's");
        assert_eq!(possessive("US"), "US's");
    }

    #[test]
    fn percentages_keep_possible_outcomes_visible() {
        assert_eq!(percent(0.605), "60.5%");
        assert_eq!(percent(0.0), "0.0%");
        assert_eq!(percent(1.0), "100.0%");
        assert_eq!(percent(0.0001), "<0.1%");
        assert_eq!(percent(0.99991), ">99.9%");
        assert_eq!(amount(1, "points"), "1 point");
        assert_eq!(amount(2, "points"), "2 points");
        assert_eq!(plural(1, "success", "successes"), "1 success");
        assert_eq!(plural(0, "success", "successes"), "0 successes");
        assert_eq!(or_list(&["B", "0", "1"]), "B, 0 or 1");
        assert_eq!(or_list(&["first", "second"]), "first or second");
        assert_eq!(or_list(&["K"]), "K");
    }
}
