//! Benchmarks for the campaign engine. The Campaign view folds the shown battle's log on
//! every frame it changes, and recording an event syncs it to disk before the view updates,
//! so both must stay well inside a frame (16 ms) for a long battle.
//!
//! Run with `cargo bench --bench campaign`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use quartermaster::campaign::{self, CampaignRecord, Event, LorraineOptions, Recorder, Sides};
use quartermaster::store::Store;

/// Battle 3 played by the scripted player until it ends or `limit` events are logged.
fn long_battle(limit: usize) -> CampaignRecord {
    let created =
        campaign::new_lorraine("Bench", Sides::default(), LorraineOptions::default()).unwrap();
    let mut record = CampaignRecord::new(quartermaster::store::new_campaign_uid(), created);
    while record.logs[2].len() < limit {
        let Some(event) = record.scripted(2, &Recorder::default()).unwrap() else {
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

/// A 10,000-event battle: battle 3 played to its end by the scripted player, then notes.
fn ten_thousand(record: &mut CampaignRecord, machine: u128, from: usize, to: usize) {
    for n in from..to {
        let by = campaign::Recorder {
            player: format!("player {machine}"),
            machine: format!("machine {machine}"),
        };
        let event = record.scripted(2, &by).unwrap().unwrap_or(Event::Note {
            text: format!("note {n}"),
        });
        let id = campaign::EventUid(uuid::Uuid::from_u128((machine << 64) | n as u128));
        let at = format!("2026-11-25T10:00:00.{n:06}Z");
        record.append(2, id, at, by, event).unwrap();
    }
}

/// Two copies of one campaign, 10,000 events each in battle 3: 9,000 shared, then 1,000
/// recorded on each machine alone (a fork, as when both play on before syncing).
fn two_copies() -> (CampaignRecord, CampaignRecord) {
    let created =
        campaign::new_lorraine("Bench", Sides::default(), LorraineOptions::default()).unwrap();
    let mut shared = CampaignRecord::new(quartermaster::store::new_campaign_uid(), created);
    ten_thousand(&mut shared, 0, 0, 9_000);
    let (mut a, mut b) = (shared.clone(), shared);
    ten_thousand(&mut a, 1, 9_000, 10_000);
    ten_thousand(&mut b, 2, 9_000, 10_000);
    (a, b)
}

/// Merging two 10,000-event copies (target ≤ 100 ms), and reading a shared folder of ten
/// machines' files when the campaign is opened (target: adds ≤ 50 ms).
fn sync(c: &mut Criterion) {
    let (a, b) = two_copies();
    c.bench_function("merge two 10,000-event logs (1,000 new each)", |bench| {
        bench.iter(|| campaign::merge::merge(black_box(&a), black_box(&b)).unwrap())
    });
    let empty = CampaignRecord::new(a.id, a.campaign.clone());
    c.bench_function("merge a 10,000-event log into an empty copy", |bench| {
        bench.iter(|| campaign::merge::merge(black_box(&empty), black_box(&a)).unwrap())
    });

    // Ten machines' files of the same campaign in one folder, as the players' sync left it.
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("shared");
    std::fs::create_dir_all(&folder).unwrap();
    let (merged, _) = campaign::merge::merge(&a, &b).unwrap();
    let text = campaign::file::to_json(&merged).unwrap();
    for machine in 0..9 {
        let name = quartermaster::sync::file_name(merged.id, &format!("machine-{machine}"));
        std::fs::write(folder.join(name), &text).unwrap();
    }
    let mut store = Store::open(&root.path().join("data")).unwrap();
    let stored = store.create_campaign_record(&merged).unwrap();
    quartermaster::sync::share(&mut store, stored.id, &folder).unwrap();
    println!(
        "shared folder: 10 files of {} bytes ({} events each)",
        text.len(),
        merged.event_count()
    );
    c.bench_function(
        "open: read a shared folder of 10 machines' files",
        |bench| {
            bench.iter(|| quartermaster::sync::sync_folder(&mut store, stored.id, &folder).unwrap())
        },
    );
    // One machine wrote since: its file is read and merged (10 new events, notes in battle 1:
    // battle 3 waits on the fork the two copies made).
    let mut newer = merged.clone();
    for n in 0..10u128 {
        let id = campaign::EventUid(uuid::Uuid::from_u128((3 << 64) | n));
        let note = Event::Note {
            text: format!("note {n}"),
        };
        newer
            .append(
                0,
                id,
                format!("2026-11-25T11:00:00.{n:06}Z"),
                campaign::Recorder::default(),
                note,
            )
            .unwrap();
    }
    let newer_text = campaign::file::to_json(&newer).unwrap();
    let mut group = c.benchmark_group("sync");
    group.sample_size(10);
    // What reading the folder adds to opening the campaign, which loads it from the library
    // in any case (about 25 ms for these 20,000 events): the sync is handed that copy.
    group.bench_function("open: one of 10 files changed (10 new events)", |bench| {
        bench.iter_batched(
            || {
                // A fresh library and folder each time, so the 10 events are new to it.
                let dir = tempfile::tempdir().unwrap();
                let folder = dir.path().join("shared");
                std::fs::create_dir_all(&folder).unwrap();
                for machine in 0..9 {
                    let name =
                        quartermaster::sync::file_name(merged.id, &format!("machine-{machine}"));
                    std::fs::write(folder.join(name), &text).unwrap();
                }
                let mut s = Store::open(&dir.path().join("data")).unwrap();
                let id = s.create_campaign_record(&merged).unwrap().id;
                quartermaster::sync::share(&mut s, id, &folder).unwrap();
                let changed = folder.join(quartermaster::sync::file_name(merged.id, "machine-0"));
                std::fs::write(changed, &newer_text).unwrap();
                let loaded = s.load_campaign(id).unwrap();
                (dir, folder, s, loaded)
            },
            |(dir, folder, mut s, loaded)| {
                let (report, _) =
                    quartermaster::sync::sync_loaded(&mut s, &loaded, &folder).unwrap();
                assert_eq!(report.added, 10);
                (dir, report)
            },
            criterion::BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3));
    targets = bench, long_logs, sync
}
criterion_main!(benches);
