//! Round trips, as properties: random forces of every ruleset — every budget kind, library
//! cards by name or short name, unknown names, inline cards, groups, points, stands, notes —
//! save and load equal, and export → import → export gives the same file.

use crate::store_support;

use proptest::prelude::*;
use quartermaster::rules::{
    self, Budget, Card, CardRef, Force, ForceUnit, RulesetId, armour_battles, force_file,
};
use quartermaster::store::Store;

/// Text as a force file keeps it: trimmed, not empty, any script.
fn text(max: usize) -> impl Strategy<Value = String> {
    proptest::string::string_regex(&format!("[A-Za-z0-9 äöüßéèÆø'′″.()/#&+-]{{1,{max}}}"))
        .unwrap()
        .prop_map(|s| s.trim().to_string())
        .prop_filter("not empty", |s| !s.is_empty())
}

fn ruleset() -> impl Strategy<Value = RulesetId> {
    prop::sample::select(RulesetId::ALL.to_vec())
}

/// Every budget kind, for any ruleset (a force may carry the wrong kind; validation says so).
fn budget() -> impl Strategy<Value = Budget> {
    let groups: Vec<String> = armour_battles::battle_groups()
        .iter()
        .map(|g| g.id.clone())
        .collect();
    prop_oneof![
        any::<u32>().prop_map(Budget::Points),
        any::<u32>().prop_map(Budget::TierPoints),
        prop::sample::select(groups).prop_map(Budget::BattleGroup),
        "[a-z0-9-]{1,24}".prop_map(Budget::BattleGroup),
        prop_oneof![
            Just("encounter".to_string()),
            "[a-z-]{1,16}".prop_map(String::from)
        ]
        .prop_map(Budget::Scenario),
    ]
}

/// A card reference for a force of `ruleset`.
fn card_ref(ruleset: RulesetId) -> impl Strategy<Value = CardRef> {
    let library: Vec<Card> = rules::ruleset(ruleset).library().to_vec();
    let names: Vec<String> = library
        .iter()
        .flat_map(|c| std::iter::once(c.name().to_string()).chain(c.short_names().iter().cloned()))
        .collect();
    prop_oneof![
        4 => prop::sample::select(names).prop_map(CardRef::Library),
        1 => text(40).prop_map(CardRef::Library),
        2 => (prop::sample::select(library), text(60))
            .prop_map(|(card, name)| CardRef::Inline(store_support::renamed(&card, &name))),
    ]
}

fn unit(ruleset: RulesetId) -> impl Strategy<Value = ForceUnit> {
    (
        card_ref(ruleset),
        1..=force_file::MAX_COUNT,
        prop::option::of(text(30)),
        prop::option::of(any::<u32>()),
        prop::option::of(any::<u32>()),
    )
        .prop_map(|(card, count, group, points, stands)| ForceUnit {
            card,
            count,
            group,
            points,
            stands,
        })
}

fn force() -> impl Strategy<Value = Force> {
    ruleset().prop_flat_map(|ruleset| {
        (
            text(80),
            budget(),
            prop::collection::vec(unit(ruleset), 0..14),
            prop_oneof![Just(String::new()), "\\PC{1,300}"],
        )
            .prop_map(move |(name, budget, units, notes)| Force {
                ruleset,
                name,
                budget,
                units,
                notes,
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn forces_save_and_load_equal(force in force(), other in force()) {
        let mut store = Store::open_in_memory().unwrap();
        let id = store.save_force(None, &force).unwrap();
        let stored = store.load_force(id).unwrap();
        prop_assert_eq!(&stored.force, &force);
        prop_assert!(stored.card_changes.is_empty(), "{:?}", stored.card_changes);
        let listed = store.list_forces().unwrap();
        prop_assert_eq!(listed.len(), 1);
        prop_assert_eq!(listed[0].units, force.unit_count());
        prop_assert_eq!(listed[0].ruleset, force.ruleset);

        // Replacing leaves nothing of the old force behind.
        let mut other = other;
        other.name = format!("{} (2)", force.name.chars().take(60).collect::<String>());
        store.save_force(Some(id), &other).unwrap();
        prop_assert_eq!(&store.load_force(id).unwrap().force, &other);
        prop_assert_eq!(store.load_forces().unwrap().into_iter().map(|s| s.force).collect::<Vec<_>>(), vec![other]);
    }

    #[test]
    fn export_import_export_gives_the_same_file(force in force()) {
        let mut home = Store::open_in_memory().unwrap();
        let id = home.save_force(None, &force).unwrap();
        let exported = force_file::to_json(&home.load_force(id).unwrap().force);

        let mut elsewhere = Store::open_in_memory().unwrap();
        let imported = force_file::parse(&exported).unwrap();
        let id = elsewhere.save_force(None, &imported).unwrap();
        let again = force_file::to_json(&elsewhere.load_force(id).unwrap().force);
        prop_assert_eq!(exported, again);
    }
}

#[test]
fn a_file_backed_store_round_trips_every_ruleset_after_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let forces: Vec<Force> = (0..10).map(|i| store_support::sample_force(i, 9)).collect();
    let mut store = Store::open(dir.path()).unwrap();
    let ids: Vec<_> = forces
        .iter()
        .map(|f| store.save_force(None, f).unwrap())
        .collect();
    drop(store);
    let store = Store::open(dir.path()).unwrap();
    for (id, force) in ids.iter().zip(&forces) {
        assert_eq!(&store.load_force(*id).unwrap().force, force);
    }
    let rulesets: std::collections::BTreeSet<_> = forces.iter().map(|f| f.ruleset).collect();
    assert_eq!(rulesets.len(), RulesetId::ALL.len());
    assert!(
        forces
            .iter()
            .all(|f| f.units.iter().any(|u| matches!(u.card, CardRef::Inline(_))))
    );
}
