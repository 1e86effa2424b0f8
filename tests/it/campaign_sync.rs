//! One campaign on several machines through a shared folder: two and three libraries in
//! temporary folders record the same campaign, exchange their files through a simulated file
//! sync (late deliveries, half-written files, conflict copies, deleted files) and end with
//! identical campaigns holding every event anyone recorded. A fork is shown, settled by an
//! event, and the settlement reaches every machine.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use quartermaster::campaign::{self, CampaignRecord, EventUid};
use quartermaster::store::{Store, StoredCampaign};
use quartermaster::sync;

/// One machine: its library and its own view of the shared folder (what its sync tool has
/// delivered so far).
struct Machine {
    _dir: tempfile::TempDir,
    store: Store,
    view: PathBuf,
    id: quartermaster::store::CampaignId,
    recorded: BTreeSet<EventUid>,
}

impl Machine {
    fn stored(&self) -> StoredCampaign {
        self.store.load_campaign(self.id).unwrap()
    }

    /// Records `n` scripted events in battle `index`, settling a fork first if it waits on one
    /// (keeping the branch `pick` names).
    fn play(&mut self, index: usize, n: usize, pick: usize) {
        let mut stored = self.stored();
        if let Some(fork) = stored.record.open_fork(index) {
            let keep = fork.branches[pick % fork.branches.len()].first;
            let (at, event) = stored.record.choice(index, keep).unwrap();
            self.store_event(&mut stored, index, at, &event);
        }
        // The dice come from each event's place and this machine, as the library records them.
        let by = self.store.recorder().unwrap();
        for _ in 0..n {
            let Some(event) = stored.record.scripted(index, &by).unwrap() else {
                break;
            };
            let at = stored.record.next_position(index).unwrap();
            self.store_event(&mut stored, index, at, &event);
        }
    }

    /// Records `event` at `at` in the library and in `stored`, remembering its id.
    fn store_event(
        &mut self,
        stored: &mut StoredCampaign,
        index: usize,
        at: campaign::Position,
        event: &campaign::Event,
    ) {
        let logged = self
            .store
            .record_event(stored.battle_ids[index], at, event)
            .unwrap();
        self.recorded.insert(logged.id);
        stored.record.add(index, logged).unwrap();
    }

    /// Syncs with its view of the folder: what comes in is stored, and the library's
    /// campaign still loads and verifies.
    fn sync(&mut self) -> sync::SyncReport {
        let report = sync::sync_folder(&mut self.store, self.id, &self.view).unwrap();
        campaign::verify::verify_record(&self.stored().record).unwrap();
        report
    }
}

/// `n` machines sharing one Lorraine campaign: the first creates and shares it, the others
/// join from a copy of its file.
fn machines(n: usize) -> Vec<Machine> {
    let first_dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(first_dir.path()).unwrap();
    store.set_setting("player.name", "Player 1").unwrap();
    store.set_setting("machine.name", "machine 1").unwrap();
    let definition = crate::store_support::ann_and_bob_lorraine();
    let stored = store
        .create_campaign_record(&CampaignRecord::new(
            quartermaster::store::new_campaign_uid(),
            definition,
        ))
        .unwrap();
    let view = first_dir.path().join("shared");
    sync::share(&mut store, stored.id, &view).unwrap();
    let record = stored.record.clone();
    let mut all = vec![Machine {
        _dir: first_dir,
        store,
        view,
        id: stored.id,
        recorded: BTreeSet::new(),
    }];
    for m in 2..=n {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path()).unwrap();
        store
            .set_setting("player.name", &format!("Player {m}"))
            .unwrap();
        store
            .set_setting("machine.name", &format!("machine {m}"))
            .unwrap();
        let here = store.create_campaign_record(&record).unwrap();
        let view = dir.path().join("shared");
        sync::share(&mut store, here.id, &view).unwrap();
        all.push(Machine {
            _dir: dir,
            store,
            view,
            id: here.id,
            recorded: BTreeSet::new(),
        });
    }
    all
}

/// How the simulated file sync delivers a file.
#[derive(Clone, Copy, Debug)]
enum Delivery {
    Whole,
    /// The first half only, at the file's own name (a transfer caught half-way).
    HalfWritten,
    /// Beside an existing file of that name, as a sync tool's conflict copy.
    ConflictCopy,
    /// The file is deleted at the destination.
    Deleted,
}

/// Delivers every file of `from`'s view into `to`'s view, the way `how` says.
fn deliver(from: &Path, to: &Path, how: Delivery) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue; // temporary files are not synced
        }
        let target = to.join(&name);
        let bytes = std::fs::read(&path).unwrap();
        match how {
            Delivery::Whole => std::fs::write(&target, &bytes).unwrap(),
            Delivery::HalfWritten => std::fs::write(&target, &bytes[..bytes.len() / 2]).unwrap(),
            Delivery::ConflictCopy => {
                let (stem, ext) = name.rsplit_once('.').unwrap();
                let copy = to.join(format!("{stem} (conflicted copy 2026-11-25).{ext}"));
                std::fs::write(copy, &bytes).unwrap();
            }
            Delivery::Deleted => {
                let _ = std::fs::remove_file(&target);
            }
        }
    }
}

/// What every machine must agree on: the campaign's id, battles and events laid out.
fn shared(record: &CampaignRecord) -> String {
    serde_json::to_string(&(
        &record.id,
        &record.campaign.battles,
        &record.logs,
        &record.aside,
    ))
    .unwrap()
}

fn every_id(record: &CampaignRecord) -> BTreeSet<EventUid> {
    (0..record.campaign.battles.len())
        .flat_map(|i| record.all_events(i).map(|e| e.id).collect::<Vec<_>>())
        .collect()
}

/// Everyone delivers whole files to everyone and syncs, twice: what a settled sync tool does.
fn settle(all: &mut [Machine]) {
    for _ in 0..2 {
        for i in 0..all.len() {
            all[i].sync();
            for j in 0..all.len() {
                if i != j {
                    let (from, to) = (all[i].view.clone(), all[j].view.clone());
                    deliver(&from, &to, Delivery::Whole);
                }
            }
        }
        for m in all.iter_mut() {
            m.sync();
        }
    }
}

fn assert_converged(all: &[Machine]) {
    let first = all[0].stored().record;
    let recorded: BTreeSet<EventUid> = all.iter().flat_map(|m| m.recorded.clone()).collect();
    assert!(!recorded.is_empty());
    for m in all {
        let record = m.stored().record;
        assert_eq!(shared(&record), shared(&first));
        assert!(recorded.is_subset(&every_id(&record)), "an event was lost");
        campaign::verify::verify_record(&record).unwrap();
    }
}

#[test]
fn two_machines_recording_different_battles_converge_through_a_troubled_folder() {
    let mut all = machines(2);
    all[0].play(0, 12, 0);
    all[1].play(1, 9, 0);
    all[0].sync();
    all[1].sync();
    // Late and broken deliveries: the laptop gets a half-written file first.
    let (a, b) = (all[0].view.clone(), all[1].view.clone());
    deliver(&a, &b, Delivery::HalfWritten);
    let report = all[1].sync();
    // The complete lines of the half are taken; the cut one waits for the rest.
    assert!(report.added < 12, "{report:?}");
    assert!(report.read_again(), "{}", report.summary());
    // The laptop records on meanwhile; nothing it holds is touched by the broken file.
    all[1].play(1, 5, 0);
    let before = every_id(&all[1].stored().record);
    all[1].sync();
    assert!(before.is_subset(&every_id(&all[1].stored().record)));
    // Then the whole file arrives, and a conflict copy of the other's file, and a deletion.
    deliver(&a, &b, Delivery::Whole);
    deliver(&b, &a, Delivery::ConflictCopy);
    let report = all[0].sync();
    assert!(report.added > 0, "{report:?}");
    deliver(&a, &b, Delivery::Deleted);
    // Someone empties the laptop's view of the folder, its own file included.
    for entry in std::fs::read_dir(&b).unwrap() {
        std::fs::remove_file(entry.unwrap().path()).unwrap();
    }
    let before = every_id(&all[1].stored().record);
    assert!(
        all[1].sync().wrote.is_some(),
        "a deleted own file is written again"
    );
    assert_eq!(
        every_id(&all[1].stored().record),
        before,
        "and nothing is lost"
    );
    settle(&mut all);
    assert_converged(&all);
}

/// The window's campaign list is not read again after a sync: it takes the report in
/// (`CampaignSummary::took`). Taken in, it reads as listing the campaigns again does.
#[test]
fn a_sync_report_brings_the_campaign_list_where_listing_it_again_does() {
    let mut all = machines(2);
    all[0].play(0, 5, 0);
    all[0].play(1, 3, 0);
    all[0].sync();
    let (a, b) = (all[0].view.clone(), all[1].view.clone());
    deliver(&a, &b, Delivery::Whole);
    let mut before = all[1].store.list_campaigns().unwrap().remove(0);
    let report = all[1].sync();
    assert_eq!(report.added, 8, "{report:?}");
    before.took(report.taken.iter().map(|(_, e)| e), report.battles_added);
    assert_eq!(before, all[1].store.list_campaigns().unwrap().remove(0));
}

#[test]
fn a_sync_that_finds_nothing_new_leaves_the_next_ones_reading_no_file() {
    let mut all = machines(2);
    all[0].play(0, 6, 0);
    settle(&mut all);
    // Another copy of a file the laptop has read (a sync tool's conflict copy): it holds no
    // event the laptop lacks, so nothing is taken and this machine's file is not written.
    let (a, b) = (all[0].view.clone(), all[1].view.clone());
    deliver(&a, &b, Delivery::ConflictCopy);
    let report = all[1].sync();
    assert_eq!(
        (report.added, report.wrote.as_ref()),
        (0, None),
        "{report:?}"
    );
    assert!(report.files_read() > 0, "{report:?}");
    // From then on nothing changed: no file is read, this machine's own included.
    for _ in 0..2 {
        let report = all[1].sync();
        assert_eq!(report.files_read(), 0, "{report:?}");
    }
}

#[test]
fn three_machines_recording_one_battle_fork_settle_it_and_converge() {
    let mut all = machines(3);
    all[0].play(0, 3, 0);
    all[0].sync();
    let first = all[0].view.clone();
    for m in all.iter_mut().skip(1) {
        deliver(&first, &m.view, Delivery::Whole);
        m.sync();
    }
    // All three play on from the same event: three branches.
    for (i, m) in all.iter_mut().enumerate() {
        m.play(0, 2 + i, 0);
        m.sync();
    }
    let views: Vec<PathBuf> = all.iter().map(|m| m.view.clone()).collect();
    deliver(&views[1], &views[0], Delivery::ConflictCopy);
    deliver(&views[2], &views[0], Delivery::HalfWritten);
    let report = all[0].sync();
    assert_eq!(report.forked, vec![1], "{report:?}");
    let record = all[0].stored().record;
    let fork = record.open_fork(0).expect("battle 1 is forked");
    // The third file's complete lines are in; its cut one waits for the rest.
    assert!(fork.branches.len() >= 2, "{}", fork.branches.len());
    assert_eq!(fork.after_seq, 3);
    // Settled on machine 1 by an event; it plays on.
    all[0].play(0, 2, 1);
    assert!(all[0].stored().record.open_fork(0).is_none());
    // Everything reaches everyone; the third branch makes a new fork, settled too.
    settle(&mut all);
    for m in all.iter_mut() {
        if m.stored().record.open_fork(0).is_some() {
            m.play(0, 1, 0);
            break;
        }
    }
    settle(&mut all);
    assert_converged(&all);
    let record = all[2].stored().record;
    assert!(record.open_fork(0).is_none());
    assert!(
        !record.set_aside(0).is_empty(),
        "branches not kept stay in the log"
    );
    assert!(record.forks(0).iter().all(|f| f.kept.is_some()));
}

#[test]
fn the_cli_shows_a_fork_side_by_side_settles_it_and_the_choice_reaches_the_other_machine() {
    let root = tempfile::tempdir().unwrap();
    let (a, b, folder) = (
        root.path().join("laptop"),
        root.path().join("desktop"),
        root.path().join("shared"),
    );
    let qm = |data: &Path, args: &[&str]| -> String {
        let out = Command::new(env!("CARGO_BIN_EXE_quartermaster"))
            .arg("--data-dir")
            .arg(data)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let f = folder.to_str().unwrap();
    qm(&a, &["campaign", "new", "lorraine", "--name", "Lorraine"]);
    qm(&a, &["campaign", "player", "Ann", "--machine", "laptop"]);
    qm(&b, &["campaign", "player", "Bob", "--machine", "desktop"]);
    let rolled = qm(
        &a,
        &["campaign", "record", "Lorraine", "--battle", "1", "command"],
    );
    assert!(rolled.contains("by Ann on laptop"), "{rolled}");
    qm(&a, &["campaign", "share", "Lorraine", "--folder", f]);
    qm(&b, &["campaign", "sync", "Lorraine", f]);
    // Both record the next step after the same event: the laptop's note is in the folder, but
    // the folder has not carried it to the desktop yet (out of its reach while it records).
    let note = crate::cli_support::note_in;
    note(&a, "Smoke on the ridge");
    let away = root.path().join("in-transit");
    std::fs::rename(&folder, &away).unwrap();
    let recorded = note(&b, "Rain from the west");
    assert!(recorded.contains("was not read"), "{recorded}");
    std::fs::rename(&away, &folder).unwrap();
    let synced = qm(&b, &["campaign", "sync", "Lorraine"]);
    assert!(
        synced.contains("battle 1 is forked after event 1"),
        "{synced}"
    );
    let show = qm(&b, &["campaign", "show", "Lorraine", "--log"]);
    assert!(show.contains("FORKED after event 1"), "{show}");
    assert!(
        show.contains("by Ann on laptop") && show.contains("by Bob on desktop"),
        "{show}"
    );
    assert!(show.contains(" │ "), "side by side: {show}");
    let refused = Command::new(env!("CARGO_BIN_EXE_quartermaster"))
        .arg("--data-dir")
        .arg(&b)
        .args([
            "campaign", "record", "Lorraine", "--battle", "1", "end-turn",
        ])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("forked"));
    // Bob keeps Ann's branch.
    let json: serde_json::Value =
        serde_json::from_str(&qm(&b, &["campaign", "show", "Lorraine", "--json"])).unwrap();
    let fork = &json["battles"][0]["forks"][0];
    let anns = fork["branches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|br| br["recorded_by"] == "Ann on laptop")
        .unwrap();
    let keep = anns["first"].as_str().unwrap();
    let chosen = qm(
        &b,
        &[
            "campaign", "record", "Lorraine", "--battle", "1", "choose", "--keep", keep,
        ],
    );
    assert!(chosen.contains("Fork settled"), "{chosen}");
    qm(&b, &["campaign", "sync", "Lorraine"]);
    qm(&a, &["campaign", "sync", "Lorraine"]);
    // Without --log, a settled fork is counted, not listed (a long campaign settles dozens).
    let short = qm(&a, &["campaign", "show", "Lorraine"]);
    assert!(short.contains("1 fork settled"), "{short}");
    assert!(!short.contains("kept branch"), "{short}");
    let show = qm(&a, &["campaign", "show", "Lorraine", "--log"]);
    assert!(!show.contains("FORKED"), "{show}");
    assert!(show.contains("kept branch"), "{show}");
    assert!(
        show.contains("[set aside] Note: Rain from the west — Bob on desktop"),
        "{show}"
    );
    // Play goes on on the laptop after the settled fork.
    qm(
        &a,
        &[
            "campaign", "record", "Lorraine", "--battle", "1", "note", "Going on",
        ],
    );
}
