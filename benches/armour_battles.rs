//! Benchmarks for Armour Battles fire odds: a full query must be cheap enough to recompute
//! on every UI change (target ≤ 100 µs for 12 AT dice against 10 reaction dice), and the
//! whole 1,920-situation table must fit in a frame budget (target ≤ 100 ms).
//!
//! Run with `cargo bench --bench armour_battles`; `-- 10v7` runs only the two 10-against-7
//! folds (net hits; net hits with suppression) that `benches/icepool_compare.py` compares
//! with the same two icepool programs.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use quartermaster::rules::armour_battles::fire::{Bonus, FireSituation, fire_odds};
use quartermaster::rules::armour_battles::outcome::{ResultOdds, SuppressionRule, result_odds};
use quartermaster::rules::armour_battles::{fire_rules, unit_card};
use quartermaster::rules::dice::{Opposed, Pool};
use quartermaster::rules::resolution::{CardPick, InputValue, Value, mechanic};
use quartermaster::rules::{Card, RulesetId, ruleset};

/// The Armour Battles book card named `name`.
fn library_card(name: &str) -> &'static Card {
    ruleset(RulesetId::ArmourBattles)
        .library()
        .iter()
        .find(|c| c.name() == name)
        .expect("book card")
}

fn fire(c: &mut Criterion) {
    let mut group = c.benchmark_group("armour_battles_fire");
    let rules = fire_rules().expect("seed data");

    // Tiger I 10D + ambush + wild die = 12 AT dice; Panther 7D + light cover + uphill +
    // wild die = 10 reaction dice. The whole query: situation → pools → exact result odds.
    let tiger = unit_card("Tiger").expect("card");
    let panther = unit_card("Panther").expect("card");
    let situation = FireSituation {
        ambush: true,
        attacker_bonus: Bonus::from_count(1).expect("one wild die"),
        cover: true,
        uphill: true,
        target_bonus: Bonus::from_count(1).expect("one wild die"),
        ..FireSituation::default()
    };
    let odds = fire_odds(tiger, panther, &situation).expect("legal situation");
    assert_eq!((odds.attacker_dice, odds.reaction_dice), (12, 10));
    group.bench_function("fire_odds_12v10", |b| {
        b.iter(|| fire_odds(black_box(tiger), black_box(panther), black_box(&situation)))
    });
    // The same query through the mechanic, as the window and the command line ask it: inputs
    // → situation → exact odds → the labelled report.
    let mechanic = mechanic(RulesetId::ArmourBattles, "fire").expect("registered");
    let mut inputs = mechanic.defaults();
    let card = |name| InputValue::Card(Some(CardPick::book(library_card(name))));
    inputs.set("attacker", card("Tiger I"));
    inputs.set("target", card("Panther Ausf G"));
    for key in ["ambush", "cover", "uphill"] {
        inputs.set(key, InputValue::Flag(true));
    }
    inputs.set("attacker_wild", InputValue::Count(1));
    inputs.set("target_wild", InputValue::Count(1));
    let report = mechanic.resolve_odds(&inputs).expect("legal situation");
    assert_eq!(report.get("attacker_dice"), Some(&Value::Count(12)));
    assert_eq!(report.get("reaction_dice"), Some(&Value::Count(10)));
    group.bench_function("fire_report_12v10", |b| {
        b.iter(|| mechanic.resolve_odds(black_box(&inputs)))
    });
    group.bench_function("result_odds_12v10", |b| {
        b.iter(|| {
            result_odds(
                black_box(Pool::new(12, 4)),
                black_box(Pool::new(10, 5)),
                SuppressionRule::FewerSixes,
                0,
                3,
                &rules.result,
            )
        })
    });

    // The distribution icepool is compared on: net hits of 10 dice against 7, both at 4+.
    group.bench_function("net_hits_10v7", |b| {
        b.iter(|| {
            Opposed::new(black_box(Pool::new(10, 4)), black_box(Pool::new(7, 4)))
                .expect("17 dice fit")
                .net_successes()
        })
    });

    // The same with suppression, as icepool's second program computes it: (net hits,
    // attacker sixes > defender sixes), so each side of the comparison does the same work.
    group.bench_function("net_hits_and_suppression_10v7", |b| {
        b.iter(|| {
            Opposed::new(black_box(Pool::new(10, 4)), black_box(Pool::new(7, 4)))
                .expect("17 dice fit")
                .fold(|a, d| {
                    (
                        i64::from(a.successes) - i64::from(d.successes),
                        a.sixes > d.sixes,
                    )
                })
        })
    });

    // AT 1–12 × reaction 1–10 × attacker TN 3–6 × reaction TN 4–5 × direct/artillery:
    // 1,920 full result queries (disruption, suppression, Forced Back distances, dispersal).
    group.sample_size(20);
    group.bench_function("fire_table_1920", |b| {
        b.iter(|| {
            let mut table: Vec<ResultOdds> = Vec::with_capacity(1920);
            for attack in 1..=12 {
                for reaction in 1..=10 {
                    for attack_tn in 3..=6 {
                        for reaction_tn in 4..=5 {
                            for rule in [SuppressionRule::FewerSixes, SuppressionRule::NotMoreSixes]
                            {
                                table.push(
                                    result_odds(
                                        Pool::new(attack, attack_tn),
                                        Pool::new(reaction, reaction_tn),
                                        rule,
                                        0,
                                        3,
                                        &rules.result,
                                    )
                                    .expect("fits"),
                                );
                            }
                        }
                    }
                }
            }
            assert_eq!(table.len(), 1920);
            table
        })
    });
    group.finish();
}

criterion_group!(benches, fire);
criterion_main!(benches);
