//! Shared by the store tests and `benches/store.rs`: sample forces and cards, temp data dirs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use quartermaster::campaign::{self, Campaign, LorraineOptions, Sides};
use quartermaster::rules::{self, Budget, Card, CardRef, Force, ForceUnit, RulesetId};

/// `card` with a new name, re-read by its ruleset (as a custom card would be).
pub fn renamed(card: &Card, name: &str) -> Card {
    let mut fields = card.to_inline_json();
    fields
        .as_object_mut()
        .unwrap()
        .insert("name".into(), serde_json::Value::String(name.into()));
    rules::ruleset(card.ruleset())
        .parse_inline_card(&fields, "card")
        .unwrap()
}

/// A deterministic force number `i`: rulesets in turn, `lines` unit lines mixing library cards
/// and inline (custom) cards, groups, points and stands.
pub fn sample_force(i: usize, lines: usize) -> Force {
    let ruleset = RulesetId::ALL[i % RulesetId::ALL.len()];
    let rules = rules::ruleset(ruleset);
    let library = rules.library();
    let units = (0..lines)
        .map(|j| {
            let card = &library[(i * 7 + j * 3) % library.len()];
            let card = if j % 4 == 3 {
                CardRef::Inline(renamed(card, &format!("{} custom {j}", card.name())))
            } else {
                CardRef::Library(card.name().to_string())
            };
            ForceUnit {
                card,
                count: 1 + (j % 3) as u32,
                group: (j % 2 == 0).then(|| format!("Platoon {}", j / 2)),
                points: (ruleset == RulesetId::BoltAction).then_some(50 + j as u32),
                stands: (ruleset == RulesetId::BelleEpoque && j % 3 == 0).then_some(4),
            }
        })
        .collect();
    Force {
        ruleset,
        name: format!("Force {i:05}"),
        budget: match rules.default_budget() {
            Budget::Points(_) => Budget::Points(100 + i as u32),
            Budget::TierPoints(_) => Budget::TierPoints(20 + (i % 10) as u32),
            other => other,
        },
        units,
        notes: format!("Sample force {i}"),
    }
}

/// Custom card number `i`: a library card of a ruleset in turn, renamed.
pub fn sample_card(i: usize) -> Card {
    let ruleset = RulesetId::ALL[i % RulesetId::ALL.len()];
    let library = rules::ruleset(ruleset).library();
    let card = &library[(i / 5) % library.len()];
    renamed(card, &format!("{} variant {i}", card.name()))
}

/// The database file inside a data directory.
pub fn db_file(dir: &Path) -> PathBuf {
    dir.join(quartermaster::store::DB_FILE_NAME)
}

/// The files in `dir/backups`, sorted.
pub fn backups(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("backups"))
        .map(|entries| entries.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// The Lorraine campaign the sharing tests begin: Ann against Bob, default options.
pub fn ann_and_bob_lorraine() -> Campaign {
    campaign::new_lorraine(
        "Lorraine",
        Sides {
            first: "Ann".into(),
            second: "Bob".into(),
        },
        LorraineOptions::default(),
    )
    .unwrap()
}
