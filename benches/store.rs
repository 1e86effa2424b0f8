//! Benchmarks for the store: loading a whole library (10,000 custom cards and 1,000 forces)
//! must take at most 100 ms, saving one force at most 2 ms (with `synchronous = FULL`, so that
//! includes syncing the write-ahead log to disk).
//!
//! Run with `cargo bench --bench store`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use quartermaster::store::{ForceId, Store};

#[path = "../tests/it/store_support/mod.rs"]
mod support;

#[path = "support/run.rs"]
mod run;

/// Custom cards and forces in the library (fewer in test mode, [`run::size`]).
fn card_count() -> usize {
    run::size(10_000, 500)
}

fn force_count() -> usize {
    run::size(1_000, 50)
}

/// A force halfway through the library.
fn middle_force() -> ForceId {
    ForceId(i64::try_from(force_count() / 2).unwrap_or(1))
}
const LINES: usize = 10;

/// A data directory holding the benchmark library.
fn library() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = Store::open(dir.path()).expect("open");
    for i in 0..card_count() {
        store
            .save_custom_card(None, &support::sample_card(i))
            .expect("save card");
    }
    for i in 0..force_count() {
        store
            .save_force(None, &support::sample_force(i, LINES))
            .expect("save force");
    }
    dir
}

fn load(c: &mut Criterion) {
    let dir = library();
    let mut group = c.benchmark_group("load");
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("open_and_load_library_10k_cards_1k_forces", |b| {
        b.iter(|| {
            let store = Store::open(dir.path()).expect("open");
            let cards = store.custom_cards().expect("cards");
            let forces = store.load_forces().expect("forces");
            assert_eq!((cards.len(), forces.len()), (card_count(), force_count()));
            black_box((cards, forces))
        })
    });
    let store = Store::open(dir.path()).expect("open");
    group.bench_function("load_library_10k_cards_1k_forces", |b| {
        b.iter(|| {
            let cards = store.custom_cards().expect("cards");
            let summaries = store.list_forces().expect("list");
            let forces = store.load_forces().expect("forces");
            black_box((cards, summaries, forces))
        })
    });
    group.bench_function("list_forces_1k", |b| {
        b.iter(|| black_box(store.list_forces().expect("list")))
    });
    group.bench_function("load_one_force", |b| {
        b.iter(|| black_box(store.load_force(middle_force()).expect("load")))
    });
    group.finish();
}

fn save(c: &mut Criterion) {
    let dir = library();
    let mut store = Store::open(dir.path()).expect("open");
    let mut group = c.benchmark_group("save");
    let id = middle_force();
    let mut force = store.load_force(id).expect("load").force;
    let mut n = 0u32;
    group.bench_function("save_force_replace_10_lines", |b| {
        b.iter(|| {
            n += 1;
            force.units[0].count = 1 + n % 5;
            store.save_force(Some(id), &force).expect("save")
        })
    });
    let template = support::sample_force(3, LINES);
    let mut i = 0;
    group.bench_function("save_force_new_10_lines", |b| {
        b.iter(|| {
            i += 1;
            let mut force = template.clone();
            force.name = format!("New force {i}");
            store.save_force(None, &force).expect("save")
        })
    });
    group.finish();
}

criterion_group!(benches, load, save);
criterion_main!(benches);
