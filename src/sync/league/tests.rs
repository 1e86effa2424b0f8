//! The league folder read again through its cache: nothing unchanged is opened, a changed
//! file is the only one read again, and what is ranked is what a fresh read gives.

use std::path::Path;

use super::{
    LeagueCache, LeagueFolder, SoFar, rank, read_league_folder, read_league_folder_cached,
};
use crate::campaign::{CampaignRecord, CampaignUid, Recorder, file, machine_file, script};

/// A short signed campaign (two machines' play), the same for the same `n`.
fn campaign(n: u128, events: usize) -> CampaignRecord {
    script::long_campaign(CampaignUid(uuid::Uuid::from_u128(n)), events, 2).unwrap()
}

fn export(record: &CampaignRecord, path: &Path) {
    std::fs::write(path, file::to_json(record).unwrap()).unwrap();
}

/// `record` as machine `machine`'s file in `dir`, holding every event.
fn machine(record: &CampaignRecord, dir: &Path, machine: &str) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let nobody = Recorder::default();
    let mut text =
        machine_file::header_line(record.id, machine, &nobody, &record.definition(), None).unwrap();
    for index in 0..record.campaign.battles.len() {
        for e in record.all_events(index) {
            text.push_str(&machine_file::event_line(record.battle_number(index), e).unwrap());
        }
    }
    let path = dir.join(crate::sync::file_name(record.id, machine));
    std::fs::write(&path, text).unwrap();
    path
}

/// A club's folder: two exports, a shared campaign's folder of two machine files, a damaged
/// file.
fn club(dir: &Path) {
    export(&campaign(1, 6), &dir.join("lezey.json"));
    export(&campaign(2, 7), &dir.join("moncourt.json"));
    let shared = campaign(3, 8);
    machine(&shared, &dir.join("autumn"), "m1");
    machine(&shared, &dir.join("autumn"), "m2");
    std::fs::write(dir.join("notes.json"), "{ not a campaign").unwrap();
}

/// What a read gave, to compare: each campaign's file and events, and what was left out.
fn outcome(read: &LeagueFolder) -> (Vec<(String, usize)>, Vec<String>) {
    (
        read.sources
            .iter()
            .map(|s| (s.file.clone(), s.campaign.events))
            .collect(),
        read.skipped.iter().map(|s| s.file.clone()).collect(),
    )
}

fn read(dir: &Path, cache: &mut LeagueCache) -> LeagueFolder {
    read_league_folder_cached(dir, cache, &|_| {}).unwrap()
}

/// Replaces `path` with `text` as sync tools do: a new file renamed over it.
fn replace(path: &Path, text: &[u8]) {
    let temporary = path.with_extension("partial");
    std::fs::write(&temporary, text).unwrap();
    std::fs::rename(&temporary, path).unwrap();
}

#[test]
fn a_second_read_of_an_unchanged_folder_opens_no_file() {
    let dir = tempfile::tempdir().unwrap();
    club(dir.path());
    let mut cache = LeagueCache::default();
    let first = read(dir.path(), &mut cache);
    assert_eq!(first.files_read, 5);
    assert_eq!(
        outcome(&first),
        (
            vec![
                ("autumn/".to_string(), 8),
                ("lezey.json".to_string(), 6),
                ("moncourt.json".to_string(), 7)
            ],
            vec!["notes.json".to_string()]
        )
    );
    let told = std::sync::Mutex::new(Vec::new());
    let so_far = std::sync::Mutex::new(SoFar::default());
    let again = read_league_folder_cached(dir.path(), &mut cache, &|t| {
        told.lock().unwrap().push((t.done, t.of));
        so_far.lock().unwrap().add(&t);
    })
    .unwrap();
    assert_eq!(again.files_read, 0);
    assert_eq!(outcome(&again), outcome(&first));
    // Campaigns finish in any order on several threads; each is told once.
    let mut told = told.into_inner().unwrap();
    told.sort_unstable();
    assert_eq!(told, [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]);
    // Each campaign kept from the cache is told as it was read: the table so far, once all
    // are told, is the whole read's.
    assert_eq!(so_far.into_inner().unwrap().table(), rank(&again.sources));
}

/// While a folder is read, each campaign is told as it is verified; the table of those told
/// so far grows to the whole read's, whatever order the threads finish in.
#[test]
fn the_table_so_far_grows_to_the_whole_reads() {
    let dir = tempfile::tempdir().unwrap();
    club(dir.path());
    let so_far = std::sync::Mutex::new(SoFar::default());
    let tables = std::sync::Mutex::new(Vec::new());
    let whole = read_league_folder_cached(dir.path(), &mut LeagueCache::default(), &|t| {
        let mut so_far = so_far.lock().unwrap();
        so_far.add(&t);
        tables.lock().unwrap().push(so_far.table());
    })
    .unwrap();
    let tables = tables.into_inner().unwrap();
    let sizes: Vec<usize> = tables.iter().map(|t| t.campaigns.len()).collect();
    // Told first with nothing done, then once a campaign: the file left out adds no row.
    assert_eq!(sizes.first(), Some(&0));
    assert!(sizes.windows(2).all(|w| w[0] <= w[1]), "{sizes:?}");
    assert_eq!(tables.last(), Some(&rank(&whole.sources)));
    assert_eq!(whole.sources.len(), 3);
}

#[test]
fn a_changed_file_is_the_only_one_read_again() {
    let dir = tempfile::tempdir().unwrap();
    club(dir.path());
    let mut cache = LeagueCache::default();
    read(dir.path(), &mut cache);

    // An export played on: read again, and ranked as it now is.
    export(&campaign(2, 10), &dir.path().join("moncourt.json"));
    let after_export = read(dir.path(), &mut cache);
    assert_eq!(after_export.files_read, 1);
    assert_eq!(
        outcome(&after_export),
        outcome(&read_league_folder(dir.path()).unwrap())
    );
    assert!(
        outcome(&after_export)
            .0
            .contains(&("moncourt.json".to_string(), 10))
    );

    // One machine file of the shared campaign rewritten (same bytes, a new file): only it is
    // opened, its campaign merged again from it and the other file's events as read before.
    let m2 = dir
        .path()
        .join("autumn")
        .join(crate::sync::file_name(campaign(3, 0).id, "m2"));
    let bytes = std::fs::read(&m2).unwrap();
    replace(&m2, &bytes);
    let after_machine = read(dir.path(), &mut cache);
    assert_eq!(after_machine.files_read, 1);
    assert_eq!(outcome(&after_machine), outcome(&after_export));

    // Damaged now: named, the rest of the campaign still ranked from the other file.
    replace(&m2, b"{ cut short");
    let damaged = read(dir.path(), &mut cache);
    assert_eq!(damaged.files_read, 1);
    assert_eq!(
        outcome(&damaged),
        outcome(&read_league_folder(dir.path()).unwrap())
    );
    assert_eq!(read(dir.path(), &mut cache).files_read, 0);
}

#[test]
fn a_file_taken_away_leaves_the_table_and_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    club(dir.path());
    let mut cache = LeagueCache::default();
    read(dir.path(), &mut cache);
    std::fs::remove_file(dir.path().join("lezey.json")).unwrap();
    let after = read(dir.path(), &mut cache);
    assert_eq!(after.files_read, 0);
    assert!(!outcome(&after).0.iter().any(|(f, _)| f == "lezey.json"));
    assert!(!cache.units.keys().any(|k| k.ends_with("lezey.json")));
    assert_eq!(
        cache.files.len(),
        2,
        "the shared campaign's two machine files"
    );
}

/// The cache kept between sessions: a later session's first read opens no unchanged file and
/// ranks what a fresh read ranks; a changed shared campaign is read whole again (its machine
/// files' events are not kept); a cache kept for another folder, or damaged, is not used.
#[test]
fn a_cache_kept_between_sessions_opens_only_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    club(dir.path());
    let mut cache = LeagueCache::default();
    let first = read(dir.path(), &mut cache);
    let saved = cache.to_saved(dir.path());
    assert!(LeagueCache::default().to_saved(dir.path()).len() < saved.len());

    let mut next_session = LeagueCache::saved_for(&saved, dir.path());
    assert!(
        next_session.files.is_empty(),
        "machine files' events are not kept"
    );
    let again = read(dir.path(), &mut next_session);
    assert_eq!(again.files_read, 0);
    assert_eq!(outcome(&again), outcome(&first));
    assert_eq!(
        crate::campaign::league::rank(&again.sources),
        crate::campaign::league::rank(&first.sources)
    );
    assert_eq!(
        next_session.to_saved(dir.path()),
        saved,
        "the same text for the same cache"
    );

    let m1 = dir
        .path()
        .join("autumn")
        .join(crate::sync::file_name(campaign(3, 0).id, "m1"));
    let bytes = std::fs::read(&m1).unwrap();
    replace(&m1, &bytes);
    let mut next_session = LeagueCache::saved_for(&saved, dir.path());
    let changed = read(dir.path(), &mut next_session);
    assert_eq!(
        changed.files_read, 2,
        "both machine files of the changed campaign"
    );
    assert_eq!(outcome(&changed), outcome(&first));

    let elsewhere = tempfile::tempdir().unwrap();
    assert!(LeagueCache::saved_for(&saved, elsewhere.path()).is_empty());
    assert!(LeagueCache::saved_for("{ not a cache", dir.path()).is_empty());
    assert!(LeagueCache::saved_for(&saved[..saved.len() / 2], dir.path()).is_empty());
}
