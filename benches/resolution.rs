//! What the one input check, the dice-at-the-table prompt and the command line built from the
//! specs cost: the check runs before every odds and roll, the prompt after every face typed,
//! and every `quartermaster` process builds the `odds`/`roll` flags at start.
//!
//! Run with `cargo bench --bench resolution`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use quartermaster::cli::ruleset_command;
use quartermaster::rules::resolution::{self, CardPick, InputValue, Inputs, Mechanic, TableDice};
use quartermaster::rules::{RulesetId, all_rulesets, ruleset};

fn card(id: RulesetId, name: &str) -> InputValue {
    let card = ruleset(id)
        .library()
        .iter()
        .find(|c| c.answers_to(name))
        .expect("a book card");
    InputValue::Card(Some(CardPick::book(card)))
}

/// Armour Battles fire: a Panzer IV H at an M4 75mm in cover.
fn fire() -> (&'static Mechanic, Inputs) {
    let m = resolution::mechanic(RulesetId::ArmourBattles, "fire").expect("fire");
    let mut inputs = m.defaults();
    inputs.set("attacker", card(RulesetId::ArmourBattles, "Panzer IV H"));
    inputs.set("target", card(RulesetId::ArmourBattles, "M4 75mm"));
    inputs.set("cover", InputValue::Flag(true));
    (m, inputs)
}

fn check_and_prompt(c: &mut Criterion) {
    let (m, inputs) = fire();
    c.bench_function("validate_ab_fire", |b| {
        b.iter(|| m.validate(black_box(&inputs)).expect("a legal shot"))
    });
    // The faces of a seeded roll, typed in: the prompt once every pool is given.
    let seeded = m.resolve_roll(&inputs, 7).expect("a roll");
    let mut typed = TableDice::new();
    for d in &seeded.dice {
        typed.add(d.pool, d.dice.clone());
    }
    c.bench_function("table_pools_ab_fire_all_given", |b| {
        b.iter(|| m.table_pools(black_box(&inputs), black_box(&typed)))
    });
}

fn command_line(c: &mut Criterion) {
    c.bench_function("odds_and_roll_commands_for_every_ruleset", |b| {
        b.iter(|| {
            for r in all_rulesets() {
                black_box(ruleset_command(r.id(), false));
                black_box(ruleset_command(r.id(), true));
            }
        })
    });
}

criterion_group!(benches, check_and_prompt, command_line);
criterion_main!(benches);
