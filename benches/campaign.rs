//! Benchmarks for the campaign engine. The Campaign view folds the shown battle's log on
//! every frame it changes, and recording an event syncs it to disk before the view updates,
//! so both must stay well inside a frame (16 ms) for a long battle.
//!
//! Run with `cargo bench --bench campaign`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use quartermaster::campaign::{
    self, BattlePlan, CampaignRecord, Event, LorraineOptions, Sides, script,
};
use quartermaster::rules::dice::Roller;
use quartermaster::store::Store;

/// Battle 3 played by the scripted player until it ends or `limit` events are logged.
fn long_battle(limit: usize) -> CampaignRecord {
    let created =
        campaign::new_lorraine("Bench", Sides::default(), LorraineOptions::default()).unwrap();
    let mut record = CampaignRecord::new(quartermaster::store::new_campaign_uid(), created);
    let BattlePlan::Armour(plan) = record.campaign.battles[2].clone() else {
        unreachable!("Lorraine battles are tracked")
    };
    let mut roller = Roller::new(1944);
    while record.logs[2].len() < limit {
        let state = record.state(2).unwrap();
        let Some(event) = script::next_event(&plan, &state, &mut roller).unwrap() else {
            break;
        };
        record.append_numbered(2, String::new(), event).unwrap();
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
    let mut at = stored.record.next_position(0).unwrap();
    c.bench_function("record one event (synced)", |b| {
        b.iter(|| {
            let logged = store
                .record_event(
                    stored.battle_ids[0],
                    at,
                    &Event::Note {
                        text: "bench".into(),
                    },
                )
                .unwrap();
            at = campaign::Position {
                follows: Some(logged.id),
                seq: logged.seq + 1,
            };
            logged
        })
    });
}

/// A battle played to its end, then 40,000 undo/redo events on its last event: the long log
/// that made the event log quadratic (17.5 s for `campaign show --log`).
fn with_undo_redo(mut record: CampaignRecord, pairs: u32) -> CampaignRecord {
    let target = record.logs[2].last().map_or(1, |e| e.seq);
    for _ in 0..pairs {
        for event in [Event::Undo { seq: target }, Event::Redo { seq: target }] {
            record.append_numbered(2, String::new(), event).unwrap();
        }
    }
    record
}

/// The whole event log in words (what `campaign show --log` and the window's log do), and
/// re-deriving the whole log as import and `db check` do: both must stay linear (≤ 1 s).
fn long_logs(c: &mut Criterion) {
    let record = with_undo_redo(long_battle(1_000), 20_000);
    let events = record.logs[2].len();
    c.bench_function(&format!("event log in words ({events} events)"), |b| {
        b.iter(|| {
            let battle = record.battle(2).unwrap();
            let undone = battle.undone();
            let lines: Vec<String> = battle
                .events
                .iter()
                .map(|e| {
                    let mut line = campaign::describe::describe(&e.event, battle.plan);
                    if undone.contains(&e.seq) {
                        line.push_str(" (undone)");
                    }
                    line
                })
                .collect();
            black_box(lines)
        })
    });
    c.bench_function(&format!("verify a campaign ({events} events)"), |b| {
        b.iter(|| campaign::verify::verify_record(&record).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3));
    targets = bench, long_logs
}
criterion_main!(benches);
