//! Finding cards by name and suggesting the nearest names for a typo.

use super::card::Card;

/// The library card answering to `query` (name or short name, any case).
pub fn find<'a>(library: &'a [Card], query: &str) -> Option<&'a Card> {
    library.iter().find(|c| c.answers_to(query))
}

/// The form two names are compared in for uniqueness: surrounding spaces dropped and every
/// letter lowercased by Unicode's simple rules, so "Ä-Zug" and "ä-zug" are one name (SQLite's
/// own NOCASE folds only A–Z).
pub fn fold(name: &str) -> String {
    name.trim().chars().flat_map(char::to_lowercase).collect()
}

/// Weakest Jaro-Winkler similarity still offered as a suggestion.
const MIN_SIMILARITY: f64 = 0.7;
/// How far behind the best suggestion another may be and still be offered.
const MAX_BEHIND_BEST: f64 = 0.1;

/// Up to three library names closest to `query`, best first, for "did you mean" hints.
pub fn nearest(library: &[Card], query: &str) -> Vec<String> {
    nearest_among(
        library.iter().map(|card| {
            let names = std::iter::once(card.name())
                .chain(card.short_names().iter().map(String::as_str))
                .collect();
            (card.name(), names)
        }),
        query,
    )
}

/// Up to three of `candidates` closest to `query`, best first: each candidate is the name
/// offered and the names it answers to (its own among them).
pub fn nearest_among<'a>(
    candidates: impl IntoIterator<Item = (&'a str, Vec<&'a str>)>,
    query: &str,
) -> Vec<String> {
    let query = query.trim().to_lowercase();
    let mut scored: Vec<(f64, &str)> = candidates
        .into_iter()
        .map(|(name, answers_to)| {
            let best = answers_to
                .iter()
                .map(|n| similarity(&query, &n.to_lowercase()))
                .fold(0.0, f64::max);
            (best, name)
        })
        .filter(|(score, _)| *score >= MIN_SIMILARITY)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    // Names far behind the best guess are noise, not help.
    let best = scored.first().map_or(0.0, |(score, _)| *score);
    scored.retain(|(score, _)| best - score <= MAX_BEHIND_BEST);
    let mut names: Vec<String> = Vec::new();
    for (_, name) in scored {
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
        if names.len() == 3 {
            break;
        }
    }
    names
}

/// Similarity in 0..=1: Jaro-Winkler, boosted when one name contains the other.
fn similarity(a: &str, b: &str) -> f64 {
    let jw = strsim::jaro_winkler(a, b);
    if !a.is_empty() && (b.contains(a) || a.contains(b)) {
        jw.max(0.9)
    } else {
        jw
    }
}
