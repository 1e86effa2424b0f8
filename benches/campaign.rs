//! Benchmarks for the campaign engine. The Campaign view folds the shown battle's log on
//! every frame it changes, and recording an event syncs it to disk before the view updates,
//! so both must stay well inside a frame (16 ms) for a long battle. A shared campaign's sync
//! costs what changed, not its history: nothing new at 100,000 events ≤ 50 ms, 10 new events
//! ≤ 100 ms, a join linear in events.
//!
//! Run with `cargo bench --bench campaign`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use quartermaster::campaign::merge::MAX_NOTES_PER_BATTLE;
use quartermaster::campaign::{
    self, CampaignRecord, Event, LorraineOptions, Recorder, Sides, script,
};
use quartermaster::store::{BattleId, Store};

#[path = "support/run.rs"]
mod run;

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
        b.iter(|| black_box(record.board(2)))
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
    // Into a new campaign each time a battle holds as many notes as it may.
    let mut appending = Appending::new(&mut store);
    if run::test_mode() {
        // Past the notes' cap once, so CI sees the bench go on where a full run would.
        appending.record(MAX_NOTES_PER_BATTLE as u64 + 1);
    }
    c.bench_function("record one event (synced)", |b| {
        b.iter_custom(|iters| appending.record(iters))
    });
}

/// Notes recorded one by one into battle 1 of a stored Lorraine campaign, as the window records
/// them.
struct Appending<'a> {
    store: &'a mut Store,
    battle: BattleId,
    at: campaign::Position,
    notes: usize,
}

impl<'a> Appending<'a> {
    fn new(store: &'a mut Store) -> Self {
        let (battle, at) = Self::campaign(store);
        Appending {
            store,
            battle,
            at,
            notes: 0,
        }
    }

    /// A new Lorraine campaign (a name and an id of its own) stored: its battle 1 and where that
    /// battle's next event goes.
    fn campaign(store: &mut Store) -> (BattleId, campaign::Position) {
        let id = quartermaster::store::new_campaign_uid();
        let name = format!("Notes {}", id.0);
        let created =
            campaign::new_lorraine(&name, Sides::default(), LorraineOptions::default()).unwrap();
        let stored = store
            .create_campaign_record(&CampaignRecord::new(id, created))
            .unwrap();
        (
            stored.battle_ids[0],
            stored.record.next_position(0).unwrap(),
        )
    }

    /// The time `count` notes took to record; a new campaign (not timed) each time the battle
    /// is full.
    fn record(&mut self, count: u64) -> Duration {
        let mut spent = Duration::ZERO;
        for _ in 0..count {
            if self.notes == MAX_NOTES_PER_BATTLE {
                (self.battle, self.at) = Self::campaign(self.store);
                self.notes = 0;
            }
            let started = Instant::now();
            let logged = self
                .store
                .record_event(
                    self.battle,
                    self.at,
                    &Event::Note {
                        text: "bench".into(),
                    },
                )
                .unwrap();
            spent += started.elapsed();
            black_box(&logged);
            self.at = campaign::Position {
                follows: Some(logged.id),
                seq: logged.seq + 1,
            };
            self.notes += 1;
        }
        spent
    }
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
    let record = with_undo_redo(
        long_battle(1_000),
        u32::try_from(run::size(20_000, 500)).unwrap_or(u32::MAX),
    );
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

/// Merging two 10,000-event copies (target ≤ 100 ms).
fn merge_copies(c: &mut Criterion) {
    let (a, b) = two_copies();
    c.bench_function("merge two 10,000-event logs (1,000 new each)", |bench| {
        bench.iter(|| campaign::merge::merge(black_box(&a), black_box(&b)).unwrap())
    });
    let empty = CampaignRecord::new(a.id, a.campaign.clone());
    c.bench_function("merge a 10,000-event log into an empty copy", |bench| {
        bench.iter(|| campaign::merge::merge(black_box(&empty), black_box(&a)).unwrap())
    });
}

/// Ten machines' files of `record` in `folder`, as a settled folder holds them: each machine's
/// file holds every event. Returns the size of one.
fn machine_files(record: &CampaignRecord, folder: &std::path::Path) -> usize {
    std::fs::create_dir_all(folder).unwrap();
    let nobody = campaign::Recorder::default();
    let mut text =
        campaign::machine_file::header_line(record.id, "m", &nobody, &record.definition(), None)
            .unwrap();
    for index in 0..record.campaign.battles.len() {
        for e in record.all_events(index) {
            text.push_str(
                &campaign::machine_file::event_line(record.battle_number(index), e).unwrap(),
            );
        }
    }
    for machine in 0..10 {
        let name = format!("machine-{machine}");
        let header_end = text.find('\n').unwrap();
        let header = campaign::machine_file::header_line(
            record.id,
            &name,
            &nobody,
            &record.definition(),
            None,
        )
        .unwrap();
        let body = format!("{header}{}", &text[header_end + 1..]);
        std::fs::write(
            folder.join(quartermaster::sync::file_name(record.id, &name)),
            body,
        )
        .unwrap();
    }
    text.len()
}

/// A library holding `record`, shared to `folder` and synced once (its own file written).
fn shared_library(
    record: &CampaignRecord,
    dir: &std::path::Path,
    folder: &std::path::Path,
) -> (Store, quartermaster::store::CampaignId) {
    let mut store = Store::open(dir).unwrap();
    let id = store.create_campaign_record(record).unwrap().id;
    quartermaster::sync::share(&mut store, id, folder).unwrap();
    quartermaster::sync::sync_folder(&mut store, id, folder).unwrap();
    (store, id)
}

/// Ten notes recorded by machine 3 after battle `index`'s last event (`head`), sealed with its
/// key, as the lines its file gains.
fn ten_new_lines(
    record: &CampaignRecord,
    index: usize,
    head: &mut campaign::Position,
    round: u64,
) -> String {
    let key = campaign::seal::MachineKey::from_secret([4; 32]);
    let by = campaign::Recorder {
        player: "Player 4".into(),
        machine: "machine-4".into(),
    };
    let target = record
        .battle(index)
        .and_then(|b| b.undo_target())
        .expect("an event to undo");
    let mut lines = String::new();
    for n in 0..10u64 {
        let mut logged = campaign::history::logged(
            *head,
            campaign::EventUid(uuid::Uuid::nil()),
            format!("2027-01-01T00:{:02}:{:02}.000Z", round % 60, n),
            by.clone(),
            // The battle's last action undone and redone: always allowed, whatever the rules,
            // and no note, so rounds never run into the battle's cap on notes (the long
            // campaign's battles end with many).
            if n.is_multiple_of(2) {
                Event::Undo { seq: target }
            } else {
                Event::Redo { seq: target }
            },
        );
        campaign::seal::seal(&key, record.id, record.battle_number(index), &mut logged);
        lines.push_str(
            &campaign::machine_file::event_line(record.battle_number(index), &logged).unwrap(),
        );
        *head = campaign::Position {
            follows: Some(logged.id),
            seq: logged.seq + 1,
        };
    }
    lines
}

/// A 100,000-event campaign shared by ten machines: a sync with nothing new (target ≤ 50 ms)
/// and one bringing 10 new events from one of the ten files (target ≤ 100 ms). Each machine's
/// file is appended to, so the new events cost a read of what is new, and only the battle they
/// land in is loaded and replayed.
fn sync(c: &mut Criterion) {
    let events = run::size(100_000, 2_000);
    let record =
        script::long_campaign(quartermaster::store::new_campaign_uid(), events, 10).unwrap();
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("shared");
    let bytes = machine_files(&record, &folder);
    println!(
        "shared folder: 10 files of {bytes} bytes ({} events, {} battles each)",
        record.event_count(),
        record.campaign.battles.len()
    );
    let (mut store, id) = shared_library(&record, &root.path().join("data"), &folder);
    let mut group = c.benchmark_group("sync");
    group.sample_size(20);
    group.bench_function(
        format!("nothing new ({events} events, 10 machines)"),
        |bench| {
            bench.iter(|| {
                let report = quartermaster::sync::sync_folder(&mut store, id, &folder).unwrap();
                assert_eq!(report.added, 0);
            })
        },
    );
    // The last battle with an action to undo gains 10 events from machine-4's file each round
    // (the long campaign's last battles may hold only notes: nothing to undo or redo).
    let index = (0..record.campaign.battles.len())
        .rev()
        .find(|&i| record.battle(i).and_then(|b| b.undo_target()).is_some())
        .expect("a battle with an action");
    let mut head = record.next_position(index).unwrap();
    let their_file = folder.join(quartermaster::sync::file_name(record.id, "machine-4"));
    let mut round = 0u64;
    group.bench_function(
        format!("10 new events from one of 10 files ({events} events)"),
        |bench| {
            bench.iter_batched(
                || {
                    round += 1;
                    let lines = ten_new_lines(&record, index, &mut head, round);
                    let mut file = std::fs::OpenOptions::new()
                        .append(true)
                        .open(&their_file)
                        .unwrap();
                    std::io::Write::write_all(&mut file, lines.as_bytes()).unwrap();
                },
                |()| {
                    let report = quartermaster::sync::sync_folder(&mut store, id, &folder).unwrap();
                    assert_eq!(report.added, 10, "{report:?}");
                },
                criterion::BatchSize::PerIteration,
            )
        },
    );
    group.finish();
}

/// Joining a ten-machine folder (each file holding the whole campaign) at 1,000, 10,000 and
/// 100,000 events: each file is read once, each event checked once, so the time grows with the
/// events, not faster.
fn join(c: &mut Criterion) {
    let mut group = c.benchmark_group("join a 10-machine folder");
    group.sample_size(10);
    let sizes = if run::test_mode() {
        vec![1_000usize]
    } else {
        vec![1_000, 10_000, 100_000]
    };
    for events in sizes {
        let record =
            script::long_campaign(quartermaster::store::new_campaign_uid(), events, 10).unwrap();
        let root = tempfile::tempdir().unwrap();
        let folder = root.path().join("shared");
        machine_files(&record, &folder);
        group.bench_function(format!("{events} events"), |bench| {
            bench.iter_batched(
                || tempfile::tempdir().unwrap(),
                |dir| {
                    let mut store = Store::open(dir.path()).unwrap();
                    let found =
                        quartermaster::sync::read_to_join(&folder, "Long campaign").unwrap();
                    assert_eq!(found.record.event_count(), events);
                    quartermaster::sync::join(&mut store, found, "Long campaign", None).unwrap();
                    dir
                },
                criterion::BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3));
    targets = bench, long_logs, merge_copies, sync, join
}
criterion_main!(benches);
