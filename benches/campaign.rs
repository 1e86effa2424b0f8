//! Benchmarks for the campaign engine. The Campaign view folds the shown battle's log on
//! every frame it changes, and recording an event syncs it to disk before the view updates,
//! so both must stay well inside a frame (16 ms) for a long battle.
//!
//! Run with `cargo bench --bench campaign`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use quartermaster::campaign::{
    self, BattlePlan, CampaignRecord, Event, LoggedEvent, LorraineOptions, Sides, script,
};
use quartermaster::rules::dice::Roller;
use quartermaster::store::Store;

/// Battle 3 played by the scripted player until it ends or `limit` events are logged.
fn long_battle(limit: usize) -> CampaignRecord {
    let created =
        campaign::new_lorraine("Bench", Sides::default(), LorraineOptions::default()).unwrap();
    let mut record = CampaignRecord::new(created);
    let BattlePlan::Armour(plan) = record.campaign.battles[2].clone() else {
        unreachable!("Lorraine battles are tracked")
    };
    let mut roller = Roller::new(1944);
    while record.logs[2].len() < limit {
        let state = record.state(2).unwrap();
        let Some(event) = script::next_event(&plan, &state, &mut roller).unwrap() else {
            break;
        };
        let seq = record.logs[2].len() as u32 + 1;
        record.logs[2].push(LoggedEvent {
            seq,
            recorded_at: String::new(),
            event,
        });
    }
    record
}

fn bench(c: &mut Criterion) {
    let record = long_battle(1_000);
    let events = record.logs[2].len();
    c.bench_function(&format!("fold battle 3 ({events} events)"), |b| {
        b.iter(|| black_box(record.state(2)))
    });
    c.bench_function("campaign results (3 battles)", |b| {
        b.iter(|| black_box(record.result()))
    });
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let stored = store.create_campaign_record(&record).unwrap();
    c.bench_function(&format!("load campaign ({events} events)"), |b| {
        b.iter(|| black_box(store.load_campaign(stored.id).unwrap()))
    });
    // Last: it keeps appending to the stored log.
    let mut after = stored.record.logs[0].last().map_or(0, |e| e.seq);
    c.bench_function("record one event (synced)", |b| {
        b.iter(|| {
            let logged = store
                .record_event(
                    stored.battle_ids[0],
                    after,
                    &Event::Note {
                        text: "bench".into(),
                    },
                )
                .unwrap();
            after = logged.seq;
            logged
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
