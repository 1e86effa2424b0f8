//! Benchmarks for PDF export: 90 unit cards (10 A4 pages) must export in at most 150 ms and
//! 1 MiB; the layout alone is what the UI's print preview recomputes.
//!
//! Run with `cargo bench --bench export`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use quartermaster::export::{
    CardOptions, ExportDate, Progress, export_cards, export_reference, export_roster, layout_cards,
};
use quartermaster::rules::{Force, ForceUnit, RulesetId, armour_battles};

fn none(_: Progress) {}

/// 90 Armour Battles units: the Lorraine Battle 3 US group five times and five more M4s.
fn ninety_units() -> Force {
    let mut force = armour_battles::preset_force("lorraine-3-us").expect("preset");
    let base = force.units.clone();
    for _ in 0..4 {
        force.units.extend(base.iter().cloned());
    }
    force.units.push(ForceUnit::library("M4 75mm", 5));
    assert_eq!(force.unit_count(), 90);
    force
}

fn cards(c: &mut Criterion) {
    let force = ninety_units();
    let date: ExportDate = "2025-03-14".parse().expect("date");
    let options = CardOptions::default();
    let bytes = export_cards(&force, &options, date, &mut none).expect("export");
    println!(
        "90 poker cards on A4: {} bytes ({:.1}% of 1 MiB)",
        bytes.len(),
        bytes.len() as f64 / f64::from(1 << 20) * 100.0
    );
    let mut group = c.benchmark_group("export");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("90_cards_pdf", |b| {
        b.iter(|| export_cards(black_box(&force), &options, date, &mut none))
    });
    group.bench_function("90_cards_layout_only", |b| {
        b.iter(|| layout_cards(black_box(&force), &options, &mut none))
    });
    let with_backs = CardOptions {
        backs: true,
        ..CardOptions::default()
    };
    group.bench_function("90_cards_with_backs_pdf", |b| {
        b.iter(|| export_cards(black_box(&force), &with_backs, date, &mut none))
    });
    let lorraine = armour_battles::preset_force("lorraine-3-us").expect("preset");
    group.bench_function("roster_pdf", |b| {
        b.iter(|| export_roster(black_box(&lorraine), "a4", date, &mut none))
    });
    group.bench_function("reference_pdf", |b| {
        b.iter(|| export_reference(RulesetId::ArmourBattles, None, "a4", date, &mut none))
    });
    group.finish();
}

criterion_group!(benches, cards);
criterion_main!(benches);
