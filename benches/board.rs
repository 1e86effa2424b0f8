//! Benchmarks for board battles at 8, 64 and 254 units: what an end of turn records (its
//! size, printed beside each group: it must fit the campaign's 16 KiB event cap) and what
//! verifying an event costs (deciding it again on the board before it and comparing). Both
//! should follow what the action touched, not the units on the table: goal ≤ 0.2 ms to
//! verify at 254 units.
//!
//! Run with `cargo bench --bench board`; `cargo test --benches` runs each once.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use quartermaster::campaign::merge::MAX_EVENT_BYTES;
use quartermaster::rules::RulesetId;
use quartermaster::rules::battle::big_table;
use quartermaster::rules::battle::board::{Board, TablePlan};
use quartermaster::rules::battle::table::{TableEngine, TableEvent, engine};
use quartermaster::rules::battle::{Dice, Request, Sides};
use quartermaster::rules::bolt_action::table_battle;

const UNITS: [usize; 3] = [8, 64, 254];

/// `units` Bolt Action units, half a side.
fn plan(units: usize) -> TablePlan {
    big_table::plan(RulesetId::BoltAction, units / 2)
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
        let orders = &big_table::ORDERS_ROUND_THE_TABLE;
        let board = big_table::turn_over(&plan, &engine, orders, table_battle::DONE);
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
