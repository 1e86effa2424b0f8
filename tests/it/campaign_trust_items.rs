//! Issue 35, item by item, on real libraries and a real folder (the random folder cases are
//! `campaign_trust`; the merge's own items are in `src/campaign/merge/tests.rs`): a backdated
//! or re-signed claim to a name, a squatted name settled, a damaged byte healed by its owner, a
//! note flood met when recording, a tidy that never removes the only genuine copy nor a live
//! machine's file, and the everyday ones — a folder behind a link, a restore, a line of another
//! machine in this one's file, two syncs at once, a folder that cannot be written, a copy blamed
//! on the right file, a folder path that is not UTF-8, a clock in 1970, FIFOs and devices where a
//! file belongs, `db check` finding what it missed, "What next?" reading the folder first, the
//! computer's name and two lookalike copies.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use quartermaster::campaign::machine_file;
use quartermaster::campaign::seal::{self, MachineKey};
use quartermaster::campaign::{self, CampaignRecord, Event, EventUid, LoggedEvent, Recorder};
use quartermaster::store::{CampaignId, Store, StoreError};
use quartermaster::sync;

use crate::cli_support::{note_in, qm_in as qm_output, qm_ok as qm, text};

/// A library in a folder of its own, recording as a player on a machine.
struct Lib {
    dir: PathBuf,
    store: Store,
    id: Option<CampaignId>,
    names: Recorder,
}

fn lib(root: &Path, player: &str, machine: &str) -> Lib {
    let dir = root.join(player.to_lowercase());
    let mut store = Store::open(&dir).unwrap();
    store.set_setting("player.name", player).unwrap();
    store.set_setting("machine.name", machine).unwrap();
    Lib {
        dir,
        store,
        id: None,
        names: Recorder {
            player: player.into(),
            machine: machine.into(),
        },
    }
}

impl Lib {
    fn begin(&mut self, folder: &Path) {
        let definition = crate::store_support::ann_and_bob_lorraine();
        let stored = self.store.start_campaign(definition).unwrap();
        sync::share(&mut self.store, stored.id, folder).unwrap();
        self.id = Some(stored.id);
    }

    fn join(&mut self, folder: &Path) {
        let found = sync::read_to_join(folder, "Lorraine").unwrap();
        let (stored, _) = sync::join(&mut self.store, found, "Lorraine", Some(folder)).unwrap();
        self.id = Some(stored.id);
    }

    fn sync(&mut self) -> sync::SyncReport {
        let id = self.id.unwrap();
        let folder = self.store.shared_folder(id).unwrap().unwrap();
        sync::sync_folder(&mut self.store, id, &folder).unwrap()
    }

    fn record(&self) -> CampaignRecord {
        self.store.load_campaign(self.id.unwrap()).unwrap().record
    }

    /// Records `event` after battle 1's line (after reading the folder, as the app does).
    fn try_record(&mut self, event: &Event) -> Result<LoggedEvent, StoreError> {
        self.sync();
        let stored = self.store.load_campaign(self.id.unwrap()).unwrap();
        let at = stored.record.next_position(0).unwrap();
        self.store.record_event(stored.battle_ids[0], at, event)
    }

    fn note(&mut self, text: &str) -> LoggedEvent {
        self.try_record(&Event::Note { text: text.into() }).unwrap()
    }

    fn key(&mut self) -> MachineKey {
        self.store.machine_key().unwrap()
    }

    fn own_file(&mut self, folder: &Path) -> PathBuf {
        let uid = self.record().id;
        folder.join(sync::file_name(uid, &self.store.machine_id().unwrap()))
    }
}

/// Ann's library begins the campaign in `root`'s shared folder, Bob's joins it.
fn ann_and_bob(root: &Path) -> (PathBuf, Lib, Lib) {
    let folder = root.join("shared");
    let mut ann = lib(root, "Ann", "club-a");
    ann.begin(&folder);
    let mut bob = lib(root, "Bob", "club-b");
    bob.join(&folder);
    (folder, ann, bob)
}

fn scratch() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        tempfile::tempdir_in(shm).unwrap()
    } else {
        tempfile::tempdir().unwrap()
    }
}

/// An attacker's file in `folder`: the header of an honest file there, then `lines`.
fn write_attacker_file(folder: &Path, uid: campaign::CampaignUid, lines: &[String]) -> PathBuf {
    let honest = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("qm-"))
        .unwrap();
    let header = std::fs::read_to_string(honest)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    let path = folder.join(sync::file_name(uid, "eve"));
    let mut text = std::fs::read_to_string(&path).unwrap_or(header + "\n");
    for line in lines {
        text.push_str(line);
    }
    std::fs::write(&path, text).unwrap();
    path
}

fn eve() -> Recorder {
    Recorder {
        player: "Eve".into(),
        machine: "evil".into(),
    }
}

/// A note signed by `key` under `by`, after `parent` in battle 1, recorded at `at`.
fn signed_note(
    key: &MachineKey,
    uid: campaign::CampaignUid,
    parent: &LoggedEvent,
    by: Recorder,
    at: &str,
    text: &str,
) -> LoggedEvent {
    let mut e = LoggedEvent {
        id: EventUid(uuid::Uuid::nil()),
        follows: Some(parent.id),
        seq: parent.seq + 1,
        recorded_at: at.into(),
        by,
        revision: parent.revision,
        seal: None,
        event: Event::Note { text: text.into() },
    };
    seal::seal(key, uid, 1, &mut e);
    e
}

fn shown_as(record: &CampaignRecord, id: EventUid) -> Option<String> {
    (0..record.logs.len()).find_map(|i| {
        record.logs[i]
            .iter()
            .chain(&record.aside[i])
            .find(|e| e.id == id)
            .map(|e| record.recorded_by(e))
    })
}

/// Item 2: a backdated claim to Bob's names, and a re-signed copy of his event, never take his
/// name: not on the machines that had his events before, not on a late joiner reading all of it
/// at once, and his events are never refused.
#[test]
fn a_backdated_or_re_signed_claim_never_takes_a_name_and_a_late_joiner_agrees() {
    let root = scratch();
    let folder = root.path().join("shared");
    let mut ann = lib(root.path(), "Ann", "club-a");
    ann.begin(&folder);
    ann.note("Ann's first");
    let mut bob = lib(root.path(), "Bob", "club-b");
    bob.join(&folder);
    let bobs = bob.note("Bob's first");
    ann.sync(); // Ann, a member, admits Bob's first claim.
    let uid = ann.record().id;
    let intruder = MachineKey::from_secret([66; 32]);
    let backdated = signed_note(
        &intruder,
        uid,
        &ann.record().logs[0][0],
        bob.names.clone(),
        "2001-01-01T00:00:00.000Z",
        "Bob gives up",
    );
    let mut resigned = bobs.clone();
    seal::seal(&intruder, uid, 1, &mut resigned);
    write_attacker_file(
        &folder,
        uid,
        &[
            machine_file::event_line(1, &backdated).unwrap(),
            machine_file::event_line(1, &resigned).unwrap(),
        ],
    );
    let mut cat = lib(root.path(), "Cat", "club-c");
    cat.join(&folder);
    let report = ann.sync();
    assert!(
        report
            .conflicts
            .iter()
            .any(|c| c.contains("claims \"Bob on club-b\", which key")),
        "{report:?}"
    );
    bob.sync();
    let after = bob.note("Bob goes on");
    for l in [&mut ann, &mut bob, &mut cat] {
        l.sync();
    }
    let records: Vec<CampaignRecord> = [&ann, &bob, &cat].iter().map(|l| l.record()).collect();
    for r in &records[1..] {
        assert_eq!(
            (&r.logs, &r.aside, &r.withheld),
            (&records[0].logs, &records[0].aside, &records[0].withheld)
        );
    }
    for r in &records {
        assert_eq!(shown_as(r, bobs.id).as_deref(), Some("Bob on club-b"));
        assert_eq!(shown_as(r, after.id).as_deref(), Some("Bob on club-b"));
        assert_eq!(shown_as(r, backdated.id), None, "never in play");
        assert_eq!(shown_as(r, resigned.id), None, "never in play");
        assert_eq!(r.withheld[0].len(), 2);
    }
}

/// Item 2: a name claimed before its owner records is no lock-out: the owner is told what to
/// do, his key reaches the folder, a player already admitted settles it, and he records.
#[test]
fn a_squatted_name_is_settled_by_an_admission_and_its_owner_records() {
    let root = scratch();
    let folder = root.path().join("shared");
    let mut ann = lib(root.path(), "Ann", "club-a");
    ann.begin(&folder);
    let first = ann.note("Ann's first");
    let uid = ann.record().id;
    let intruder = MachineKey::from_secret([67; 32]);
    let dans = Recorder {
        player: "Dan".into(),
        machine: "tablet".into(),
    };
    let squat = signed_note(
        &intruder,
        uid,
        &first,
        dans.clone(),
        "2026-11-25T10:00:05.000Z",
        "I am Dan",
    );
    write_attacker_file(
        &folder,
        uid,
        &[machine_file::event_line(1, &squat).unwrap()],
    );
    ann.sync(); // Ann's library admits the first claim to "Dan on tablet" it sees: the squat.
    let mut dan = lib(root.path(), "Dan", "tablet");
    dan.join(&folder);
    let dan_key = dan.key().public().fingerprint();
    let refused = dan
        .try_record(&Event::Note {
            text: "Dan here".into(),
        })
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("'Dan on tablet' is held in this campaign by key")
            && refused.contains(&format!("--key {dan_key}")),
        "{refused}"
    );
    ann.sync(); // Dan's key has reached the folder with his request.
    let id = ann.id.unwrap();
    let admitted = ann.store.admit(id, dans.clone(), &dan_key).unwrap();
    assert_eq!(
        admitted.replaces.len(),
        1,
        "the squatter's admission overruled"
    );
    let dans_note = dan.note("Dan here");
    ann.sync();
    for r in [ann.record(), dan.record()] {
        assert_eq!(shown_as(&r, dans_note.id).as_deref(), Some("Dan on tablet"));
        assert_eq!(shown_as(&r, squat.id), None);
        assert!(r.membership().conflicts().is_empty());
    }
}

/// Item 3: one damaged byte in a machine's newest line — even with the file's time put back —
/// is healed by its owner's next sync, and the others take the event then: nothing waits for
/// ever.
#[test]
fn a_damaged_byte_in_a_machines_newest_line_is_healed_by_its_owner() {
    let root = scratch();
    let (folder, mut ann, mut bob) = ann_and_bob(root.path());
    ann.note("one");
    let two = ann.note("two");
    let own = ann.own_file(&folder);
    let modified = std::fs::metadata(&own).unwrap().modified().unwrap();
    let mut bytes = std::fs::read(&own).unwrap();
    let at = bytes.windows(3).rposition(|w| w == b"two").unwrap();
    bytes[at] = b'T';
    std::fs::write(&own, &bytes).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&own)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    let report = bob.sync();
    assert!(
        report.refused.iter().any(|r| r.event == two.id.short()),
        "{report:?}"
    );
    assert!(!bob.record().all_events(0).any(|e| e.id == two.id));
    ann.sync(); // the owner finds its file changed and writes it again whole
    assert!(std::fs::read_to_string(&own).unwrap().contains("\"two\""));
    let report = bob.sync();
    assert!(report.refused.is_empty(), "{report:?}");
    assert!(bob.record().all_events(0).any(|e| e.id == two.id));
}

/// Every line proves itself, the header included: a damaged byte in a machine file's first
/// line (which campaign, whose machine) once cost every event in the file, so a player who
/// left right after it was damaged lost all he had recorded (1,000 random folders found it).
/// The others now read its events on their own, and its owner writes the header again.
#[test]
fn a_damaged_header_costs_its_file_no_event_and_its_owner_rewrites_it() {
    let root = scratch();
    let (folder, mut ann, mut bob) = ann_and_bob(root.path());
    let one = bob.note("one");
    let two = bob.note("two");
    let own = bob.own_file(&folder);
    let mut bytes = std::fs::read(&own).unwrap();
    let end_of_header = bytes.iter().position(|b| *b == b'\n').unwrap();
    let at = bytes[..end_of_header]
        .iter()
        .position(|b| b.is_ascii_alphabetic())
        .unwrap();
    bytes[at] = if bytes[at] == b'x' { b'y' } else { b'x' };
    std::fs::write(&own, &bytes).unwrap();
    let report = ann.sync();
    for id in [one.id, two.id] {
        assert!(ann.record().all_events(0).any(|e| e.id == id), "{report:?}");
    }
    bob.sync();
    let header = std::fs::read_to_string(&own).unwrap();
    let first = header.lines().next().unwrap();
    assert!(
        quartermaster::campaign::machine_file::parse_header(first).is_ok(),
        "the owner wrote its header again"
    );
}

/// Item 5: a flood of notes on a battle's line is met when recording, in the words a merge
/// uses, and what one machine records every other takes: a note is refused at once, a command
/// roll is recorded and taken.
#[test]
fn a_note_flood_is_refused_when_recording_as_when_merging() {
    let root = scratch();
    let (folder, mut ann, mut bob) = ann_and_bob(root.path());
    let first = ann.note("first");
    let uid = ann.record().id;
    let intruder = MachineKey::from_secret([68; 32]);
    let mut parent = first;
    let mut lines = Vec::new();
    for n in 0..campaign::merge::MAX_NOTES_PER_BATTLE - 1 {
        let e = signed_note(
            &intruder,
            uid,
            &parent,
            eve(),
            "2026-11-25T10:00:05.000Z",
            &format!("flood {n}"),
        );
        lines.push(machine_file::event_line(1, &e).unwrap());
        parent = e;
    }
    write_attacker_file(&folder, uid, &lines);
    let refused = ann
        .try_record(&Event::Note {
            text: "one more".into(),
        })
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("the battle's line holds 1000 notes, as many as a battle may"),
        "{refused}"
    );
    // A move of the battle itself (the first action the rules offer) still records.
    let roll = ann
        .try_record(&ann.record().scripted(0, &ann.names).unwrap().unwrap())
        .unwrap();
    let report = bob.sync();
    assert!(report.refused.is_empty(), "{report:?}");
    assert!(bob.record().logs[0].iter().any(|e| e.id == roll.id));
}

/// Items 6 and 11: a tidy removes a file only when its machine is gone and every line of it is
/// held here byte for byte: never the only genuine copy (another file holding an edited copy
/// under its id does not count), never a live machine's file, even two tidies at once.
#[test]
fn a_tidy_keeps_the_only_genuine_copy_and_live_machines_files() {
    let root = scratch();
    let (folder, mut ann, mut bob) = ann_and_bob(root.path());
    let bobs = bob.note("Bob's, before he leaves");
    let bob_machine = bob.store.machine_id().unwrap();
    // An edited copy of Bob's event, under its id, in Eve's file.
    let mut edited = bobs.clone();
    edited.recorded_at = "2000-01-02T00:00:00.000Z".into();
    let uid = ann.record().id;
    let eves = write_attacker_file(
        &folder,
        uid,
        &[machine_file::event_line(1, &edited).unwrap()],
    );
    // Two tidies at once with nobody departed: nothing goes.
    let id = ann.id.unwrap();
    let (a, b) = (bob.id.unwrap(), ann.dir.clone());
    let handle = std::thread::spawn(move || {
        let mut other = Store::open(&b).unwrap();
        sync::tidy::tidy(&mut other, id, &[]).unwrap()
    });
    let removed_bob = sync::tidy::tidy(&mut bob.store, a, &[]).unwrap();
    let removed_ann = handle.join().unwrap();
    assert!(removed_bob.is_empty() && removed_ann.is_empty());
    // Bob leaves: his file can go (Ann holds his event, byte for byte, and her own file carries
    // it); Eve's edited copy stays, however the players name her machine.
    let removed = sync::tidy::tidy(
        &mut ann.store,
        id,
        &[bob_machine.clone(), "eve".to_string()],
    )
    .unwrap();
    assert_eq!(removed.len(), 1, "{removed:?}");
    assert!(removed[0].contains(&bob_machine));
    assert!(eves.exists());
    let mut dan = lib(root.path(), "Dan", "tablet");
    dan.join(&folder);
    assert!(dan.record().all_events(0).any(|e| *e == bobs));
}

/// Item 8: a folder reached through a symbolic link joins with the path `share` prints.
#[test]
fn a_folder_behind_a_symbolic_link_is_joined() {
    let root = tempfile::tempdir().unwrap();
    let real = root.path().join("mnt-data-Sync");
    let link = root.path().join("Sync");
    std::fs::create_dir_all(&real).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let ann = root.path().join("ann");
    qm(&ann, &["campaign", "new", "lorraine", "--name", "Lorraine"]);
    qm(&ann, &["campaign", "player", "Ann", "--machine", "club-a"]);
    let shared = qm(
        &ann,
        &[
            "campaign",
            "share",
            "Lorraine",
            "--folder",
            link.to_str().unwrap(),
        ],
    );
    assert!(shared.contains("Sync"), "{shared}");
    let bob = root.path().join("bob");
    let joined = qm(
        &bob,
        &["campaign", "sync", "Lorraine", link.to_str().unwrap()],
    );
    assert!(joined.contains("Lorraine: "), "{joined}");
    let trailing = format!("{}/", link.display());
    let cat = root.path().join("cat");
    assert!(qm(&cat, &["campaign", "sync", "Lorraine", &trailing]).contains("Lorraine: "));
}

/// Item 8: restoring this library's own backup is not a copy: the events it recorded after the
/// backup come back from the folder as its own, with its machine id, key and name unchanged.
/// And a genuine line of another machine appended to this machine's file is just an event.
#[test]
fn a_restored_backup_and_another_machines_line_in_this_file_are_no_copy() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("shared");
    let ann = root.path().join("ann");
    let f = folder.to_str().unwrap();
    qm(&ann, &["campaign", "new", "lorraine", "--name", "Lorraine"]);
    qm(&ann, &["campaign", "player", "Ann", "--machine", "club-a"]);
    qm(&ann, &["campaign", "share", "Lorraine", "--folder", f]);
    let note = note_in;
    note(&ann, "before the backup");
    let backup = root.path().join("backup.sqlite3");
    qm(&ann, &["db", "backup", "--out", backup.to_str().unwrap()]);
    note(&ann, "after the backup");
    let key_before = qm(&ann, &["campaign", "player"]);
    qm(&ann, &["db", "restore", backup.to_str().unwrap()]);
    let synced = qm(&ann, &["campaign", "sync", "Lorraine"]);
    assert!(!synced.contains("new machine"), "{synced}");
    assert!(synced.contains("came back from the folder"), "{synced}");
    assert_eq!(qm(&ann, &["campaign", "player"]), key_before);
    assert!(qm(&ann, &["campaign", "show", "Lorraine", "--log"]).contains("after the backup"));
    // Bob's genuine line appended to Ann's file.
    let bob = root.path().join("bob");
    qm(&bob, &["campaign", "player", "Bob", "--machine", "club-b"]);
    qm(&bob, &["campaign", "sync", "Lorraine", f]);
    let recorded = note(&bob, "Bob's");
    assert!(recorded.contains("by Bob on club-b"), "{recorded}");
    let files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let read = |p: &PathBuf| std::fs::read_to_string(p).unwrap();
    let anns = files
        .iter()
        .find(|p| read(p).lines().next().unwrap().contains("club-a"))
        .unwrap();
    let bobs = files
        .iter()
        .find(|p| read(p).lines().next().unwrap().contains("club-b"))
        .unwrap();
    let line = read(bobs).lines().last().unwrap().to_string();
    std::fs::write(anns, read(anns) + &line + "\n").unwrap();
    let synced = qm(&ann, &["campaign", "sync", "Lorraine"]);
    assert!(!synced.contains("new machine"), "{synced}");
    assert_eq!(qm(&ann, &["campaign", "player"]), key_before);
    assert!(qm(&ann, &["campaign", "show", "Lorraine", "--log"]).contains("Bob's"));
}

/// Item 8: two syncs of one library at once (the window and a command) wait for each other:
/// never a raw "UNIQUE constraint failed".
#[test]
fn two_syncs_of_one_library_at_once_wait_for_each_other() {
    let root = tempfile::tempdir().unwrap();
    let (folder, ann, mut bob) = ann_and_bob(root.path());
    for round in 0..6 {
        for n in 0..3 {
            bob.note(&format!("round {round} note {n}"));
        }
        let (dir, id) = (ann.dir.clone(), ann.id.unwrap());
        let syncs: Vec<_> = (0..2)
            .map(|_| {
                let (dir, folder) = (dir.clone(), folder.clone());
                std::thread::spawn(move || {
                    let mut store = Store::open(&dir).unwrap();
                    sync::sync_folder(&mut store, id, &folder).map(|r| r.added)
                })
            })
            .collect();
        let added: Vec<usize> = syncs
            .into_iter()
            .map(|h| h.join().unwrap().expect("no sync fails"))
            .collect();
        assert_eq!(added.iter().sum::<usize>(), 3, "stored once: {added:?}");
    }
}

/// Item 8: joining into a folder that cannot take this machine's file still joins, and says
/// what came in before saying why the file was not written.
#[test]
fn joining_a_folder_that_cannot_be_written_reports_the_join() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("shared");
    let mut ann = lib(root.path(), "Ann", "club-a");
    ann.begin(&folder);
    ann.note("one");
    ann.note("two");
    let mut bob = lib(root.path(), "Bob", "club-b");
    bob.store.set_setting("machine.id", "bobs-machine").unwrap();
    // Root writes a read-only folder: a folder where Bob's file would go stands for one.
    let uid = ann.record().id;
    std::fs::create_dir(folder.join(sync::file_name(uid, "bobs-machine"))).unwrap();
    let found = sync::read_to_join(&folder, "Lorraine").unwrap();
    match sync::join(&mut bob.store, found, "Lorraine", Some(&folder)) {
        Err(sync::SyncError::NotWritten { report, .. }) => {
            assert_eq!(report.added, 2, "{report:?}");
            assert!(report.summary().starts_with("2 new events"), "{report:?}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(bob.store.list_campaigns().unwrap()[0].events, 2);
}

/// Item 8: an edited copy under a genuine id is blamed on the file that carried it, not on the
/// genuine machine's.
#[test]
fn an_edited_copy_is_blamed_on_the_file_that_carried_it() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("shared");
    let mut ann = lib(root.path(), "Ann", "club-a");
    ann.begin(&folder);
    let one = ann.note("one");
    let mut edited = one.clone();
    edited.event = Event::Note {
        text: "edited".into(),
    };
    let uid = ann.record().id;
    let eves = write_attacker_file(
        &folder,
        uid,
        &[machine_file::event_line(1, &edited).unwrap()],
    );
    let mut bob = lib(root.path(), "Bob", "club-b");
    let found = sync::read_to_join(&folder, "Lorraine").unwrap();
    let named = eves.file_name().unwrap().to_string_lossy().into_owned();
    let refused = &found.report.refused;
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert_eq!(refused[0].file, named);
    sync::join(&mut bob.store, found, "Lorraine", Some(&folder)).unwrap();
    ann.note("two");
    let id = bob.store.find_campaign("Lorraine").unwrap().unwrap();
    let report = sync::sync_folder(&mut bob.store, id, &folder).unwrap();
    assert!(report.refused.iter().all(|r| r.file == named), "{report:?}");
}

/// Item 8: a shared folder whose path is not UTF-8 is kept exactly, and written to.
#[test]
fn a_folder_path_that_is_not_utf8_is_kept_exactly() {
    use std::os::unix::ffi::OsStrExt;
    let root = tempfile::tempdir().unwrap();
    let folder = root
        .path()
        .join(std::ffi::OsStr::from_bytes(b"Sync-\xff\xfe"));
    let mut ann = lib(root.path(), "Ann", "club-a");
    ann.begin(&folder);
    let id = ann.id.unwrap();
    assert_eq!(
        ann.store.shared_folder(id).unwrap().unwrap(),
        folder.canonicalize().unwrap()
    );
    let one = ann.note("one");
    let own = std::fs::read_dir(&folder).unwrap().count();
    assert_eq!(own, 1);
    let text = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .next()
        .unwrap();
    assert!(text.contains(&one.id.to_string()));
}

/// Items 8 and 15: a computer whose clock was never set (1970) or runs far ahead (2101) still
/// records — timed just after the event it follows — and is told its clock is wrong.
#[test]
fn a_clock_outside_the_years_events_can_have_still_records_and_is_named() {
    let root = scratch();
    let folder = root.path().join("shared");
    let mut ann = lib(root.path(), "Ann", "club-a");
    ann.begin(&folder);
    let one = ann.note("one");
    for (reading, says) in [(0, "1970-01-01"), (4_133_980_800_000, "2101-01-01")] {
        ann.store.set_clock(Arc::new(move || reading));
        let logged = ann.note("after");
        let parent = campaign::time::parse_millis(&one.recorded_at).unwrap();
        let at = campaign::time::parse_millis(&logged.recorded_at).unwrap();
        assert!(
            at > parent && at < parent + 60_000,
            "{}",
            logged.recorded_at
        );
        let notices = ann.store.take_notices();
        assert!(
            notices
                .iter()
                .any(|n| n.contains(&format!("this computer's clock says {says}"))),
            "{notices:?}"
        );
    }
}

/// Item 9: `campaign import` and `db restore` take regular files only: a FIFO, `/dev/zero` and
/// a folder are refused at once, never read.
#[test]
fn import_and_restore_refuse_fifos_devices_and_folders_at_once() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    qm(&data, &["campaign", "list"]);
    let fifo = root.path().join("pipe.json");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success(),
        "mkfifo"
    );
    for path in [fifo.as_path(), Path::new("/dev/zero"), root.path()] {
        for args in [
            vec!["campaign", "import", path.to_str().unwrap()],
            vec!["db", "restore", path.to_str().unwrap()],
        ] {
            let started = std::time::Instant::now();
            let mut child = Command::new(env!("CARGO_BIN_EXE_quartermaster"))
                .arg("--data-dir")
                .arg(&data)
                .args(&args)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            // A hang is the failure: give it far longer than a refusal takes.
            let out = loop {
                if let Some(status) = child.try_wait().unwrap() {
                    break status;
                }
                if started.elapsed() > std::time::Duration::from_secs(30) {
                    child.kill().unwrap();
                    panic!("{args:?} hung");
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            };
            assert!(!out.success(), "{args:?}");
            let mut err = String::new();
            std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
            assert!(err.contains("not a regular file"), "{args:?}: {err}");
        }
    }
}

/// Item 10: `db check` evaluates every CHECK constraint — on this version's schema and on an
/// older one, without upgrading it — and says a lost schema version is a problem.
#[test]
fn db_check_finds_every_broken_check_constraint_on_any_schema() {
    use rusqlite::Connection;
    let root = tempfile::tempdir().unwrap();
    // This version's schema: a card of no origin, a force line of no units, an event numbered
    // 0 with a short signer.
    let data = root.path().join("now");
    qm(
        &data,
        &["campaign", "new", "lorraine", "--name", "Lorraine"],
    );
    qm(
        &data,
        &[
            "campaign", "record", "Lorraine", "--battle", "1", "note", "x",
        ],
    );
    let db = data.join(quartermaster::store::DB_FILE_NAME);
    let conn = Connection::open(&db).unwrap();
    conn.execute_batch(
        "PRAGMA ignore_check_constraints = 1;
         UPDATE cards SET origin = 'stolen' WHERE id = (SELECT min(id) FROM cards);
         DROP TRIGGER battle_events_no_update;
         UPDATE battle_events SET seq = 0, signer = 'short';",
    )
    .unwrap();
    drop(conn);
    let out = qm_output(&data, &["db", "check"]);
    let said = text(&out.stdout) + &text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    for broken in [
        "origin IN ('book', 'custom')",
        "seq >= 1",
        "length(signer) = 43",
    ] {
        assert!(said.contains(broken), "{broken}: {said}");
    }
    // A schema 4 library with a broken pinned card: found before any upgrade, file untouched.
    let old = root.path().join("old");
    std::fs::create_dir_all(&old).unwrap();
    let old_db = old.join(quartermaster::store::DB_FILE_NAME);
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/db/v4.db"),
        &old_db,
    )
    .unwrap();
    let conn = Connection::open(&old_db).unwrap();
    conn.execute_batch(
        "PRAGMA ignore_check_constraints = 1;
         INSERT INTO forces (ruleset, name, budget_kind, budget_amount, created_at, updated_at)
             VALUES ('bolt-action', 'Broken', 'points', 100, 'x', 'x');
         INSERT INTO force_units (force_id, position, card_name, pinned_card, count)
             VALUES (last_insert_rowid(), 0, 'x', '{not json', 1);",
    )
    .unwrap();
    drop(conn);
    let before = std::fs::read(&old_db).unwrap();
    let out = qm_output(&old, &["db", "check"]);
    let said = text(&out.stdout) + &text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("json_valid(pinned_card)"), "{said}");
    assert_eq!(std::fs::read(&old_db).unwrap(), before, "untouched");
    // A lost schema version.
    let conn = Connection::open(&db).unwrap();
    conn.pragma_update(None, "user_version", 0).unwrap();
    drop(conn);
    let out = qm_output(&data, &["db", "check"]);
    let said = text(&out.stdout) + &text(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("schema version 0"), "{said}");
}

/// Item 12: "What next?" reads the folder first: a battle another player added a moment ago
/// is not added twice, and no fork opens at its start.
#[test]
fn what_next_reads_the_folder_first() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("shared");
    let f = folder.to_str().unwrap();
    let (ann, bob) = (root.path().join("ann"), root.path().join("bob"));
    qm(&ann, &["campaign", "new", "lorraine", "--name", "Lorraine"]);
    qm(&ann, &["campaign", "player", "Ann", "--machine", "club-a"]);
    qm(&ann, &["campaign", "share", "Lorraine", "--folder", f]);
    qm(&bob, &["campaign", "player", "Bob", "--machine", "club-b"]);
    qm(&bob, &["campaign", "sync", "Lorraine", f]);
    qm(&ann, &["campaign", "what-next", "Lorraine"]);
    let added = qm(&bob, &["campaign", "what-next", "Lorraine"]);
    assert!(added.contains("Battle 5 added"), "{added}");
    qm(&ann, &["campaign", "sync", "Lorraine"]);
    let show: serde_json::Value =
        serde_json::from_str(&qm(&ann, &["campaign", "show", "Lorraine", "--json"])).unwrap();
    let battles = show["battles"].as_array().unwrap();
    assert_eq!(battles.len(), 5);
    assert!(
        battles
            .iter()
            .all(|b| b["forks"].as_array().unwrap().is_empty())
    );
}

/// Item 15: the library's identity does not hang on the environment: run with and without
/// `HOSTNAME` (and with another one), it keeps its machine id, key and name.
#[test]
fn the_identity_does_not_hang_on_the_hostname_variable() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    let player = |host: Option<&str>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_quartermaster"));
        command
            .arg("--data-dir")
            .arg(&data)
            .args(["campaign", "player"]);
        match host {
            Some(h) => command.env("HOSTNAME", h),
            None => command.env_remove("HOSTNAME"),
        };
        text(&command.output().unwrap().stdout)
    };
    let first = player(None);
    assert!(!first.contains("copied"), "{first}");
    for host in [Some("somewhere-else"), None, Some("vm")] {
        assert_eq!(player(host), first, "{host:?}");
    }
}

/// Item 15: two lookalike copies of one library (same machine id and key, each at home where
/// it is) writing into one folder at the same time: exactly one of them takes a new identity.
#[test]
fn of_two_lookalike_copies_exactly_one_takes_a_new_identity() {
    let root = scratch();
    let folder = root.path().join("shared");
    let mut ann = lib(root.path(), "Ann", "club-a");
    ann.begin(&folder);
    ann.note("before the copy");
    let copy_dir = root.path().join("ann-copy");
    std::fs::create_dir_all(&copy_dir).unwrap();
    drop(ann.store);
    for name in std::fs::read_dir(&ann.dir).unwrap() {
        let path = name.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, copy_dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    let open = |dir: &Path| {
        let mut store = Store::open(dir).unwrap();
        // Each believes it is at home (same computer name and folder, as a cloned disk): the
        // mark the library keeps is the computer's name and its folder.
        let home = format!(
            "{} | {}",
            rustix::system::uname().nodename().to_string_lossy(),
            dir.canonicalize().unwrap().display()
        );
        store.set_setting("machine.home", &home).unwrap();
        store
    };
    let mut one = Lib {
        dir: ann.dir.clone(),
        store: open(&ann.dir),
        id: ann.id,
        names: ann.names.clone(),
    };
    let mut two = Lib {
        dir: copy_dir.clone(),
        store: open(&copy_dir),
        id: ann.id,
        names: ann.names.clone(),
    };
    let before = one.store.machine_id().unwrap();
    // The copy's own file is the folder's, from Ann's folder setting: both write one file.
    one.note("the original's");
    two.note("the copy's");
    for _ in 0..3 {
        one.sync();
        two.sync();
    }
    let ids = [
        one.store.machine_id().unwrap(),
        two.store.machine_id().unwrap(),
    ];
    assert_eq!(
        ids.iter().filter(|id| **id == before).count(),
        1,
        "exactly one keeps the id: {ids:?}"
    );
}
