//! Benchmarks for board battles at 8, 64 and 254 units: what an end of turn records (its
//! size, printed beside each group: it must fit the campaign's 16 KiB event cap) and what
//! verifying an event costs (deciding it again on the board before it and comparing). Both
//! should follow what the action touched, not the units on the table: goal ≤ 0.2 ms to
//! verify at 254 units.
//!
//! Run with `cargo bench --bench board`; `cargo test --benches` runs each once.

use std::collections::BTreeSet;
use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use quartermaster::campaign::merge::MAX_EVENT_BYTES;
use quartermaster::rules::RulesetId;
use quartermaster::rules::battle::board::{Board, TablePlan, TableUnit};
use quartermaster::rules::battle::table::{TableEngine, TableEvent, engine};
use quartermaster::rules::battle::{Dice, Request, Sides};
use quartermaster::rules::registry::ruleset;

const UNITS: [usize; 3] = [8, 64, 254];

/// `units` Bolt Action units, half a side, cycling through the book's first cards.
fn plan(units: usize) -> TablePlan {
    let library = ruleset(RulesetId::BoltAction).library();
    let side = |prefix: &str| -> Vec<TableUnit> {
        (0..units / 2)
            .map(|i| {
                let card = library[i % library.len().min(6)].clone();
                TableUnit {
                    id: format!("{prefix}-{}", i + 1),
                    label: format!("{} {}", card.name(), i + 1),
                    card,
                    counters: Default::default(),
                    marks: BTreeSet::new(),
                }
            })
            .collect()
    };
    TablePlan {
        ruleset: RulesetId::BoltAction,
        number: 1,
        name: "Bench".into(),
        forces: Sides {
            first: "Allies".into(),
            second: "Axis".into(),
        },
        units: Sides {
            first: side("first"),
            second: side("second"),
        },
    }
}

/// The turn played out: every order given and carried out, one unit in seven Down and one in
/// seven waiting in Ambush (their dice kept).
fn turn_over(plan: &TablePlan, engine: &TableEngine) -> Board {
    let mut board = (engine.start)(plan, &Sides::default());
    for (i, unit) in board.units.iter_mut().enumerate() {
        let (order, done) = match i % 7 {
            0 => ("down", false),
            1 => ("ambush", false),
            2 => ("fire", true),
            _ => ("advance", true),
        };
        unit.order = Some(order.to_string());
        if done {
            unit.marks.insert("done".to_string());
        }
    }
    board
}

fn decided(engine: &TableEngine, plan: &TablePlan, board: &Board, request: &Request) -> TableEvent {
    (engine.decide)(plan, board, request, &Dice::Seed(7))
        .unwrap_or_else(|e| panic!("{request:?} refused: {e}"))
        .event
}

fn end_turn(c: &mut Criterion) {
    let engine = engine(RulesetId::BoltAction).unwrap();
    let mut group = c.benchmark_group("board_end_turn");
    for units in UNITS {
        let plan = plan(units);
        let board = turn_over(&plan, &engine);
        let event = decided(&engine, &plan, &board, &Request::new("end_turn"));
        let bytes = serde_json::to_string(&event).unwrap().len();
        println!("board_end_turn/{units} units: {bytes} bytes (cap {MAX_EVENT_BYTES})");
        assert!(bytes < MAX_EVENT_BYTES, "{bytes} bytes at {units} units");
        group.bench_with_input(BenchmarkId::new("verify", units), &units, |b, _| {
            b.iter(|| {
                let again = (engine.rederive)(&plan, &board, &event, engine.revision).unwrap();
                assert!(black_box(again) == event);
            })
        });
        group.bench_with_input(BenchmarkId::new("apply", units), &units, |b, _| {
            b.iter_batched_ref(
                || board.clone(),
                |board| {
                    for effect in &event.effects {
                        board.apply(effect);
                    }
                },
                criterion::BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

/// A die drawn at the start of a turn: an event that touches one side's counter, however many
/// units are on the table.
fn draw(c: &mut Criterion) {
    let engine = engine(RulesetId::BoltAction).unwrap();
    let mut group = c.benchmark_group("board_draw");
    for units in UNITS {
        let plan = plan(units);
        let board = (engine.start)(&plan, &Sides::default());
        let request = Request::new("draw").with(
            "side",
            quartermaster::rules::resolution::InputValue::Choice("first"),
        );
        let event = decided(&engine, &plan, &board, &request);
        group.bench_with_input(BenchmarkId::new("verify", units), &units, |b, _| {
            b.iter(|| {
                let again = (engine.rederive)(&plan, &board, &event, engine.revision).unwrap();
                assert!(black_box(again) == event);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, end_turn, draw);
criterion_main!(benches);
