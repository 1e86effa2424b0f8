//! Benchmarks for the League's reading of a club's folder (issue #39): the first read of a
//! folder (every file opened, every signature verified), the first read of a later session
//! (through the cache the library kept: no unchanged file opened), a refresh with nothing
//! changed (no file opened) and a refresh after one file changed (only it read). The window
//! times the same reads over 200 campaigns of 1,000 events with `ui_league::time_the_league`;
//! this keeps a folder a tenth of that (20 campaigns of 1,000 events) so the bench stays
//! quick, unless `QM_LEAGUE_CAMPAIGNS` says how many (200 for the folder).
//!
//! Run with `cargo bench --bench league`.

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use quartermaster::campaign::{CampaignUid, file, script, verified};
use quartermaster::sync::league::{LeagueCache, read_league_folder_cached};

const EVENTS: usize = 1_000;

/// How many campaigns the folder holds: 20 unless `QM_LEAGUE_CAMPAIGNS` says.
fn campaigns() -> u128 {
    std::env::var("QM_LEAGUE_CAMPAIGNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20)
}

/// `campaigns()` signed campaign exports of `EVENTS` events each, every one its own campaign.
fn club(dir: &Path) {
    for n in 0..campaigns() {
        let id = CampaignUid(uuid::Uuid::from_u128(0x1ea9_0000 + n));
        let record = script::long_campaign(id, EVENTS, 4).unwrap();
        let text = file::to_json(&record).unwrap();
        std::fs::write(dir.join(format!("campaign-{n:03}.json")), text).unwrap();
    }
}

/// `path` replaced by the same bytes in a new file, as sync tools write.
fn rewrite(path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    let temporary = path.with_extension("partial");
    std::fs::write(&temporary, bytes).unwrap();
    std::fs::rename(&temporary, path).unwrap();
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    club(dir.path());
    let name = format!("{} campaigns × {EVENTS} events", campaigns());
    let mut group = c.benchmark_group("league");
    group.sample_size(10);
    group.bench_function(format!("first read, {name}"), |b| {
        b.iter(|| {
            verified::forget();
            let mut cache = LeagueCache::default();
            black_box(read_league_folder_cached(dir.path(), &mut cache, &|_| {}).unwrap())
        })
    });
    let mut cache = LeagueCache::default();
    read_league_folder_cached(dir.path(), &mut cache, &|_| {}).unwrap();
    // A later window session: the cache as the library kept it, read back and read through.
    let saved = cache.to_saved(dir.path());
    group.bench_function(format!("first read of a later session, {name}"), |b| {
        b.iter(|| {
            verified::forget();
            let mut kept = LeagueCache::saved_for(&saved, dir.path());
            let read = read_league_folder_cached(dir.path(), &mut kept, &|_| {}).unwrap();
            assert_eq!(read.files_read, 0);
            black_box(read)
        })
    });
    group.bench_function(format!("refresh, nothing changed, {name}"), |b| {
        b.iter(|| {
            let read = read_league_folder_cached(dir.path(), &mut cache, &|_| {}).unwrap();
            assert_eq!(read.files_read, 0);
            black_box(read)
        })
    });
    let changed = dir.path().join("campaign-000.json");
    group.bench_function(format!("refresh, one file changed, {name}"), |b| {
        b.iter(|| {
            rewrite(&changed);
            let read = read_league_folder_cached(dir.path(), &mut cache, &|_| {}).unwrap();
            assert_eq!(read.files_read, 1);
            black_box(read)
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(10));
    targets = bench
}
criterion_main!(benches);
