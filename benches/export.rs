//! Benchmarks for PDF export: 90 unit cards (10 A4 pages) must export in at most 150 ms and
//! 1 MiB; the layout alone is what the UI's print preview recomputes. The campaign
//! after-action report is measured for a finished battle of about 200 events.
//!
//! Run with `cargo bench --bench export`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use quartermaster::campaign::{self, CampaignRecord, Event, LorraineOptions, Recorder, Sides};
use quartermaster::export::{
    CardOptions, ExportDate, Progress, export_after_action, export_cards, export_reference,
    export_roster, layout_after_action, layout_cards,
};
use quartermaster::rules::{RulesetId, armour_battles};

#[path = "../tests/it/export_support/mod.rs"]
mod support;
use support::ninety_units;

fn none(_: Progress) {}

fn cards(c: &mut Criterion) {
    let force = ninety_units();
    let date: ExportDate = "2025-03-14".parse().expect("date");
    let options = CardOptions::default();
    let bytes = export_cards(&force, &options, date, &mut none)
        .expect("export")
        .bytes;
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

/// A Lorraine campaign whose Battle 3 the scripted player fights to its end (seed 23: 176
/// events), with a note after every eighth event: about 200 events in all.
fn finished_battle() -> CampaignRecord {
    let created = campaign::new_lorraine(
        "Bench",
        Sides {
            first: "Alice".into(),
            second: "Bruno".into(),
        },
        LorraineOptions::default(),
    )
    .expect("campaign");
    let mut record = CampaignRecord::new(quartermaster::store::new_campaign_uid(), created);
    let mut played = 0;
    let log = |record: &mut CampaignRecord, event: Event| {
        let seq = record.logs[2].len() as u32 + 1;
        let at = format!("2026-11-22T{:02}:{:02}:00Z", 9 + seq / 60, seq % 60);
        record
            .append_numbered(2, at, event)
            .expect("the battle is not forked");
    };
    while let Some(event) = record
        .scripted(2, &Recorder::default())
        .expect("the script's event")
    {
        log(&mut record, event);
        played += 1;
        if played % 8 == 0 {
            let text = format!("Turn notes after {played} events");
            log(&mut record, Event::Note { text });
        }
    }
    record
}

fn after_action(c: &mut Criterion) {
    let record = finished_battle();
    let date: ExportDate = "2025-03-14".parse().expect("date");
    let events = record.logs[2].len();
    let bytes = export_after_action(&record, "a4", date, &mut none).expect("export");
    let pages = layout_after_action(&record, "a4", date, &mut none)
        .expect("layout")
        .pages
        .len();
    println!(
        "after-action report, battle of {events} events: {pages} pages, {} bytes",
        bytes.bytes.len()
    );
    let mut group = c.benchmark_group("export");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("after_action_pdf", |b| {
        b.iter(|| export_after_action(black_box(&record), "a4", date, &mut none))
    });
    group.bench_function("after_action_layout_only", |b| {
        b.iter(|| layout_after_action(black_box(&record), "a4", date, &mut none))
    });
    group.finish();
}

criterion_group!(benches, cards, after_action);
criterion_main!(benches);
