//! The shared folder as a hostile or unlucky club leaves it (issues 21 and 26): files that are
//! not files, a name already taken, a library copied to a second computer, files of departed
//! machines, an event recorded that must be in the folder at once, a folder that cannot be
//! written, a forged recorder, two setups of one battle — each run through the real binary or
//! the library the window uses.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use quartermaster::campaign::{self, Event, Recorder};
use quartermaster::store::Store;
use quartermaster::sync;

use crate::cli_support::{qm_in as qm_output, qm_ok as qm};

/// Ann's library with a Lorraine campaign shared to `folder` and `events` notes recorded.
fn ann(root: &Path, folder: &Path, events: usize) -> PathBuf {
    let data = root.join("ann");
    let f = folder.to_str().unwrap();
    qm(
        &data,
        &["campaign", "new", "lorraine", "--name", "Lorraine"],
    );
    qm(&data, &["campaign", "player", "Ann", "--machine", "laptop"]);
    qm(&data, &["campaign", "share", "Lorraine", "--folder", f]);
    for n in 0..events {
        let text = format!("note {n}");
        qm(
            &data,
            &[
                "campaign", "record", "Lorraine", "--battle", "1", "note", &text,
            ],
        );
    }
    data
}

fn campaign_files(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("qm-"))
        .collect();
    names.sort();
    names
}

/// The highest resident memory of a running child, sampled until it ends or `limit` passes.
fn run_watched(mut command: Command, limit: Duration) -> (Output, u64) {
    let child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let started = Instant::now();
    let mut peak_kb = 0u64;
    let pid = child.id();
    let waiter = std::thread::spawn(move || child.wait_with_output().unwrap());
    while !waiter.is_finished() {
        if let Ok(status) = std::fs::read_to_string(&status_file)
            && let Some(line) = status.lines().find(|l| l.starts_with("VmRSS:"))
        {
            let kb: u64 = line
                .split_whitespace()
                .nth(1)
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            peak_kb = peak_kb.max(kb);
        }
        if started.elapsed() > limit {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
            panic!("still running after {limit:?}: it hangs");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    (waiter.join().unwrap(), peak_kb)
}

#[cfg(unix)]
#[test]
fn a_join_reads_only_regular_files_size_capped_and_neither_hangs_nor_grows() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("shared");
    ann(root.path(), &folder, 3);
    let uid = {
        let name = campaign_files(&folder).remove(0);
        name["qm-".len().."qm-".len() + 36].to_string()
    };
    // Another campaign's file outside the folder, linked in; a FIFO; /dev/zero; a 200 MB file.
    let elsewhere = root.path().join("elsewhere");
    let other = ann(&elsewhere, &elsewhere.join("shared"), 1);
    let other_file = campaign_files(&elsewhere.join("shared")).remove(0);
    std::os::unix::fs::symlink(
        elsewhere.join("shared").join(&other_file),
        folder.join(format!("qm-{uid}-linked.jsonl")),
    )
    .unwrap();
    std::os::unix::fs::symlink("/dev/zero", folder.join(format!("qm-{uid}-zero.jsonl"))).unwrap();
    let fifo = folder.join(format!("qm-{uid}-fifo.jsonl"));
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let big = std::fs::File::create(folder.join(format!("qm-{uid}-big.jsonl"))).unwrap();
    big.set_len(200 * 1024 * 1024).unwrap();
    drop(big);
    let bob = root.path().join("bob");
    let mut command = Command::new(env!("CARGO_BIN_EXE_quartermaster"));
    command
        .arg("--data-dir")
        .arg(&bob)
        .args(["campaign", "sync", "Lorraine"])
        .arg(&folder);
    let (out, peak_kb) = run_watched(command, Duration::from_secs(60));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Lorraine: 3 events"), "{text}");
    assert!(
        peak_kb < 120 * 1024,
        "the join peaked at {peak_kb} kB: something big was read whole"
    );
    assert!(
        text.contains("big.jsonl"),
        "the 200 MB file is named: {text}"
    );
    let store = Store::open(&bob).unwrap();
    let id = store.find_campaign("Lorraine").unwrap().unwrap();
    let record = store.load_campaign(id).unwrap().record;
    assert_eq!(
        record.event_count(),
        3,
        "the linked campaign's note is not merged"
    );
    drop(other);
    // A plain sync ignores them the same way.
    let synced = qm(&bob, &["campaign", "sync", "Lorraine"]);
    assert!(
        !synced.contains("linked") && !synced.contains("fifo"),
        "{synced}"
    );
}

#[test]
fn joining_under_a_name_this_library_uses_for_another_campaign_is_refused_with_the_way_out() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("shared");
    ann(root.path(), &folder, 2);
    let bob = root.path().join("bob");
    qm(&bob, &["campaign", "new", "lorraine", "--name", "Lorraine"]);
    let f = folder.to_str().unwrap();
    let out = qm_output(&bob, &["campaign", "sync", "Lorraine", f]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--as"), "{err}");
    assert_eq!(
        campaign_files(&folder).len(),
        1,
        "Bob's own Lorraine is not shared there"
    );
    let joined = qm(
        &bob,
        &["campaign", "sync", "Lorraine", f, "--as", "Lorraine (club)"],
    );
    assert!(joined.contains("Lorraine (club): 2 events"), "{joined}");
    assert_eq!(
        campaign_files(&folder).len(),
        2,
        "Bob's file of the club's campaign"
    );
    let listed = qm(&bob, &["campaign", "list"]);
    assert!(
        listed.contains("Lorraine (club)") && listed.contains("Lorraine  ["),
        "{listed}"
    );
    // A third machine joins without trouble: one campaign in the folder.
    let carl = root.path().join("carl");
    assert!(qm(&carl, &["campaign", "sync", "Lorraine", f]).contains("Lorraine: 2 events"));
}

#[test]
fn a_record_is_in_the_folder_before_the_command_returns_and_a_new_battle_too() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("shared");
    let data = ann(root.path(), &folder, 0);
    let own = folder.join(campaign_files(&folder).remove(0));
    let before = std::fs::read_to_string(&own).unwrap();
    let printed = qm(
        &data,
        &[
            "campaign", "record", "Lorraine", "--battle", "1", "--json", "note", "at once",
        ],
    );
    let logged: serde_json::Value = serde_json::from_str(&printed).unwrap();
    let after = std::fs::read_to_string(&own).unwrap();
    assert!(after.starts_with(&before), "the file only grows");
    let id = logged["logged"]["id"].as_str().unwrap();
    assert!(
        after[before.len()..].contains(id),
        "the event's line is there"
    );
    qm(&data, &["campaign", "what-next", "Lorraine"]);
    let grown = std::fs::read_to_string(&own).unwrap();
    assert!(grown[after.len()..].contains("battle_added"), "{grown}");
}

/// A library copied to another folder (a new laptop, a restored backup) takes a new machine id
/// and key on its first use there, says so, and keeps its history; the two then sync without
/// duplicating or losing an event and without writing each other's file.
#[test]
fn a_copied_library_is_noticed_and_takes_a_new_machine_id_keeping_its_history() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("shared");
    let data = ann(root.path(), &folder, 2);
    let copy = root.path().join("new-laptop");
    copy_dir(&data, &copy);
    let printed = qm(
        &copy,
        &[
            "campaign",
            "record",
            "Lorraine",
            "--battle",
            "1",
            "note",
            "from the copy",
        ],
    );
    assert!(printed.contains("copied or moved"), "{printed}");
    qm(
        &data,
        &[
            "campaign",
            "record",
            "Lorraine",
            "--battle",
            "1",
            "note",
            "from the original",
        ],
    );
    let files = campaign_files(&folder);
    assert_eq!(files.len(), 2, "{files:?}");
    qm(&copy, &["campaign", "sync", "Lorraine"]);
    qm(&data, &["campaign", "sync", "Lorraine"]);
    qm(&copy, &["campaign", "sync", "Lorraine"]);
    let events = |dir: &Path| {
        let store = Store::open(dir).unwrap();
        let id = store.find_campaign("Lorraine").unwrap().unwrap();
        store.load_campaign(id).unwrap().record
    };
    let (a, b) = (events(&data), events(&copy));
    assert_eq!(a.event_count(), 4);
    assert_eq!(a.logs, b.logs);
    assert_eq!(a.aside, b.aside);
    // Two keys signed; the copy under a machine name of its own.
    assert_eq!(a.players().len(), 2, "{:?}", a.players());
    assert!(
        a.players()
            .iter()
            .any(|p| p.by.machine.starts_with("laptop ("))
    );
}

/// The same copy, found by what it writes: a copy that sits at the very same path on another
/// computer of the same name cannot be told from the original when it opens, but the first
/// sync that finds its own file holding events it never held says so and takes a new id.
#[test]
fn another_computer_writing_under_this_machines_id_is_noticed_at_sync() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("shared");
    let data = ann(root.path(), &folder, 1);
    let copy = root.path().join("twin");
    copy_dir(&data, &copy);
    // The twin believes it is at home: the same computer name as the original, its own path.
    {
        let original = Store::open(&data).unwrap();
        let home = original.setting("machine.home").unwrap().unwrap();
        let (host, _) = home.split_once(" | ").unwrap();
        let mut twin = Store::open(&copy).unwrap();
        let here = std::fs::canonicalize(&copy).unwrap();
        twin.set_setting("machine.home", &format!("{host} | {}", here.display()))
            .unwrap();
    }
    qm(
        &copy,
        &[
            "campaign", "record", "Lorraine", "--battle", "1", "note", "twin",
        ],
    );
    assert_eq!(campaign_files(&folder).len(), 1, "both write one file");
    let synced = qm(&data, &["campaign", "sync", "Lorraine"]);
    assert!(synced.contains("new machine"), "{synced}");
    assert_eq!(campaign_files(&folder).len(), 2);
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

#[test]
fn tidy_lists_the_folder_by_machine_and_removes_only_files_held_elsewhere() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("shared");
    let data = ann(root.path(), &folder, 2);
    let f = folder.to_str().unwrap();
    // Bob joins and records one event of his own; Carl joins and leaves.
    let bob = root.path().join("bob");
    qm(&bob, &["campaign", "player", "Bob", "--machine", "desktop"]);
    qm(&bob, &["campaign", "sync", "Lorraine", f]);
    qm(
        &bob,
        &[
            "campaign", "record", "Lorraine", "--battle", "1", "note", "Bob's",
        ],
    );
    let carl = root.path().join("carl");
    qm(
        &carl,
        &["campaign", "player", "Carl", "--machine", "tablet"],
    );
    qm(&carl, &["campaign", "sync", "Lorraine", f]);
    qm(&data, &["campaign", "sync", "Lorraine"]);
    // Everyone wrote within the last days: nobody's file goes, whatever it holds (in a synced
    // folder, a removal reaches the machine still playing).
    let listed = qm(&data, &["campaign", "sync", "Lorraine", "--tidy", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&listed).unwrap();
    let files = json["files"].as_array().unwrap();
    assert_eq!(files.len(), 3);
    assert!(files.iter().all(|f| f["redundant"] == false), "{listed}");
    assert!(
        files
            .iter()
            .any(|f| f["own"] == false && f["kept"].as_str().unwrap().contains("written today")),
        "{listed}"
    );
    // The players say Carl left: his file goes (every event of it is held here, byte for
    // byte); Bob's stays.
    let text = qm(
        &data,
        &[
            "campaign",
            "sync",
            "Lorraine",
            "--tidy",
            "--yes",
            "--departed",
            "tablet",
        ],
    );
    assert!(text.contains("Removed 1 file"), "{text}");
    assert!(text.contains("Ann on laptop"), "who: {text}");
    assert_eq!(campaign_files(&folder).len(), 2);
    // Bob's machine falls silent for 40 days: his file goes too, with no word from anyone.
    let bobs = folder.join(
        campaign_files(&folder)
            .into_iter()
            .find(|n| {
                std::fs::read_to_string(folder.join(n))
                    .is_ok_and(|t| t.lines().next().is_some_and(|h| h.contains("desktop")))
            })
            .unwrap(),
    );
    let forty_days_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(40 * 86_400);
    std::fs::File::options()
        .write(true)
        .open(&bobs)
        .unwrap()
        .set_modified(forty_days_ago)
        .unwrap();
    let text = qm(&data, &["campaign", "sync", "Lorraine", "--tidy", "--yes"]);
    assert!(text.contains("Removed 1 file"), "{text}");
    assert_eq!(campaign_files(&folder).len(), 1);
    // Nothing was lost: a newcomer joins with every event.
    let dave = root.path().join("dave");
    assert!(qm(&dave, &["campaign", "sync", "Lorraine", f]).contains("Lorraine: 3 events"));
}

/// A folder this machine cannot write: the merge is stored and reported all the same, the
/// error said once (exit 1).
#[test]
fn a_folder_that_cannot_be_written_still_reports_the_stored_merge() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("shared");
    ann(root.path(), &folder, 0);
    let f = folder.to_str().unwrap();
    let bob = root.path().join("bob");
    qm(&bob, &["campaign", "sync", "Lorraine", f]);
    let data = root.path().join("ann");
    qm(
        &bob,
        &[
            "campaign", "record", "Lorraine", "--battle", "1", "note", "Bob's",
        ],
    );
    // Ann's own file can no longer be written: a folder stands where it was (root writes any
    // read-only folder, so the test makes the write itself impossible).
    let own = folder.join(
        campaign_files(&folder)
            .into_iter()
            .find(|n| {
                std::fs::read_to_string(folder.join(n))
                    .is_ok_and(|t| t.lines().skip(1).all(|l| !l.contains("Bob's")))
            })
            .unwrap(),
    );
    std::fs::remove_file(&own).unwrap();
    std::fs::create_dir(&own).unwrap();
    std::fs::write(own.join("keep"), b"x").unwrap();
    let out = qm_output(&data, &["campaign", "sync", "Lorraine"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{text}{err}");
    assert!(text.contains("1 new event"), "{text}");
    assert!(text.contains("was not written"), "{text}");
    let store = Store::open(&data).unwrap();
    let id = store.find_campaign("Lorraine").unwrap().unwrap();
    assert_eq!(
        store.load_campaign(id).unwrap().record.event_count(),
        1,
        "the merge is stored"
    );
    assert_eq!(
        text.matches("Is a directory").count() + text.matches("Directory not empty").count(),
        1,
        "{text}"
    );
}

/// An event "the first player concedes", recorded by a third machine under the first player's
/// names with its own key, is refused on every machine and named.
#[test]
fn a_forged_recorder_in_the_folder_is_refused_and_named() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("shared");
    let data = ann(root.path(), &folder, 1);
    let f = folder.to_str().unwrap();
    let eve = root.path().join("eve");
    qm(&eve, &["campaign", "sync", "Lorraine", f]);
    // Eve names her machine as Ann's: her library refuses to record under names another key
    // holds, naming that key and how a real owner would settle it...
    qm(&eve, &["campaign", "player", "Ann", "--machine", "laptop"]);
    let refused = qm_output(
        &eve,
        &[
            "campaign", "record", "Lorraine", "--battle", "1", "note", "mine",
        ],
    );
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{said}");
    assert!(
        said.contains("'Ann on laptop' is held in this campaign by key")
            && said.contains("campaign admit"),
        "{said}"
    );
    // ...so she writes the event into her file by hand, signed with her own key.
    let mut store = Store::open(&eve).unwrap();
    let id = store.find_campaign("Lorraine").unwrap().unwrap();
    let stored = store.load_campaign(id).unwrap();
    let key = store.machine_key().unwrap();
    let mut record = stored.record.clone();
    let at = record.next_position(0).unwrap();
    let forged = record
        .record_sealed(
            0,
            at,
            &key,
            "2026-11-25T12:00:00.000Z".into(),
            Recorder {
                player: "Ann".into(),
                machine: "laptop".into(),
            },
            Event::BattleConcluded {
                winner: Some(quartermaster::rules::armour_battles::Side::Second),
                notes: "the first player concedes".into(),
            },
        )
        .unwrap();
    let eve_file = folder.join(sync::file_name(record.id, &store.machine_id().unwrap()));
    let mut text = std::fs::read_to_string(&eve_file).unwrap();
    text.push_str(&campaign::machine_file::event_line(1, &forged).unwrap());
    std::fs::write(&eve_file, text).unwrap();
    // ...taken as every machine takes a signed event, but never in play, never Ann's: the sync
    // names the key claiming her names.
    let synced = qm(&data, &["campaign", "sync", "Lorraine"]);
    assert!(
        synced.contains("claims \"Ann on laptop\", which key")
            && synced.contains("its events are set aside"),
        "{synced}"
    );
    let show = qm(&data, &["campaign", "show", "Lorraine"]);
    assert!(!show.contains("german_won"), "{show}");
    assert!(!show.contains("Battle 1: German"), "not concluded: {show}");
    assert!(
        show.contains("Ann on laptop · key"),
        "the player list: {show}"
    );
}

/// Both players add "What next?" before a sync, one with the extra artillery: battle 4 forks at
/// its start and the players choose; battle 1 keeps syncing meanwhile.
#[test]
fn two_concurrent_what_next_make_a_fork_and_battle_1_keeps_syncing() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("shared");
    let data = ann(root.path(), &folder, 1);
    let f = folder.to_str().unwrap();
    let bob = root.path().join("bob");
    qm(&bob, &["campaign", "player", "Bob", "--machine", "desktop"]);
    qm(&bob, &["campaign", "sync", "Lorraine", f]);
    qm(&data, &["campaign", "what-next", "Lorraine"]);
    // Bob's machine reads the folder before it adds a battle (it would see Ann's battle 4 and
    // add battle 5): the folder is out of its reach, as if the sync tool had not carried Ann's
    // file yet.
    let away = root.path().join("in-transit");
    std::fs::rename(&folder, &away).unwrap();
    qm(
        &bob,
        &["campaign", "what-next", "Lorraine", "--extra-artillery"],
    );
    std::fs::rename(&away, &folder).unwrap();
    qm(
        &bob,
        &[
            "campaign",
            "record",
            "Lorraine",
            "--battle",
            "1",
            "note",
            "battle 1 goes on",
        ],
    );
    let synced = qm(&data, &["campaign", "sync", "Lorraine"]);
    assert!(
        synced.contains("battle 4 is forked at its start into 2 versions"),
        "{synced}"
    );
    assert!(
        synced.contains("Ann on laptop recorded one and Bob on desktop recorded one")
            || synced.contains("Bob on desktop recorded one and Ann on laptop recorded one"),
        "{synced}"
    );
    let show = qm(&data, &["campaign", "show", "Lorraine", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&show).unwrap();
    assert_eq!(json["battles"][0]["events"], 2, "battle 1 synced: {show}");
    let fork = &json["battles"][3]["forks"][0];
    let bobs = fork["branches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["recorded_by"] == "Bob on desktop")
        .unwrap()["first"]
        .as_str()
        .unwrap()
        .to_string();
    qm(
        &data,
        &[
            "campaign", "record", "Lorraine", "--battle", "4", "choose", "--keep", &bobs,
        ],
    );
    qm(&bob, &["campaign", "sync", "Lorraine"]);
    for dir in [&data, &bob] {
        let store = Store::open(dir).unwrap();
        let id = store.find_campaign("Lorraine").unwrap().unwrap();
        let record = store.load_campaign(id).unwrap().record;
        assert!(record.open_fork(3).is_none());
        assert_eq!(
            record.campaign.battles[3].name(),
            "What Next? (extra artillery)"
        );
    }
    // Battle 4 is played on with the extra artillery.
    qm(
        &data,
        &["campaign", "record", "Lorraine", "--battle", "4", "command"],
    );
}

/// `tests/fixtures/campaign_revision_1.json` was exported by the app built at the commit before
/// the forced-back correction (`07098d8^`, `db torture --campaign --seed 1 --count 70`, then
/// `campaign export`): a version 1 file whose fires rolled forced back for targets they
/// dispersed, five times. Under revision 2 alone those fires do not replay; recorded under
/// revision 1, the file imports, shares and joins, says so, and play goes on under revision 2.
#[test]
fn a_campaign_exported_before_the_forced_back_correction_imports_shares_and_joins() {
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/campaign_revision_1.json");
    let text = std::fs::read_to_string(&fixture).unwrap();
    let record = campaign::file::parse(&text).unwrap();
    let ruleset = record.campaign.ruleset;
    let old: Vec<&campaign::LoggedEvent> = (0..record.logs.len())
        .flat_map(|i| record.all_events(i))
        .filter(|e| e.resolved_under(ruleset) == 1)
        .collect();
    assert_eq!(
        old.len(),
        5,
        "the five fires that rolled forced back for a dispersed target"
    );
    assert!(
        old.iter()
            .all(|e| matches!(&e.event, Event::Armour(quartermaster::rules::armour_battles::battle::event::Event::Fire(f)) if f.dispersed && f.forced_back.is_some()))
    );
    // Said to be revision 2, the first of them does not replay: the revisions matter.
    let mut claimed = record.clone();
    let at = claimed.logs[0]
        .iter()
        .position(|e| e.resolved_under(ruleset) == 1)
        .unwrap();
    claimed.logs[0][at].revision = Some(2);
    let refused = campaign::verify::verify_record(&claimed)
        .unwrap_err()
        .to_string();
    assert!(refused.contains("forced_back"), "{refused}");

    let root = tempfile::tempdir().unwrap();
    let ann = root.path().join("ann");
    let f = fixture.to_str().unwrap();
    qm(&ann, &["campaign", "import", f, "--name", "Old Lorraine"]);
    let log = qm(&ann, &["campaign", "show", "Old Lorraine", "--log"]);
    assert_eq!(
        log.matches(
            "recorded under revision 1 (forced back rolled for dispersed units; corrected in revision 2; \
             orders, fire, rallies and Staff Orders allowed between turns; corrected in revision 3)"
        )
        .count(),
        5,
        "{log}"
    );
    let folder = root.path().join("shared");
    let shared = folder.to_str().unwrap();
    qm(
        &ann,
        &["campaign", "share", "Old Lorraine", "--folder", shared],
    );
    let bob = root.path().join("bob");
    let joined = qm(&bob, &["campaign", "sync", "Old Lorraine", shared]);
    assert!(joined.contains("Old Lorraine: 70 events"), "{joined}");
    // Play goes on, under the current revision, and the whole campaign still verifies.
    let printed = qm(
        &bob,
        &[
            "campaign",
            "record",
            "Old Lorraine",
            "--battle",
            "2",
            "--json",
            "note",
            "play goes on",
        ],
    );
    let logged: serde_json::Value = serde_json::from_str(&printed).unwrap();
    assert_eq!(
        logged["logged"]["revision"],
        quartermaster::rules::armour_battles::revision::CURRENT
    );
    let store = Store::open(&bob).unwrap();
    let id = store.find_campaign("Old Lorraine").unwrap().unwrap();
    campaign::verify::verify_record(&store.load_campaign(id).unwrap().record).unwrap();
    assert!(store.check().unwrap().ok());
}

/// Fills `QM_POPULATE_DIR` with a library holding one long campaign
/// (`QM_POPULATE_EVENTS` events, ten machines' signed play) for timing the real window while it
/// opens: `QM_POPULATE_DIR=/tmp/long QM_POPULATE_EVENTS=100000 cargo test --test it
/// campaign_share::populate -- --ignored`, then `benches/campaign_window.sh`.
#[test]
#[ignore = "fills a data folder for timing by hand"]
fn populate_a_long_campaign() {
    let Ok(dir) = std::env::var("QM_POPULATE_DIR") else {
        return;
    };
    let events: usize = std::env::var("QM_POPULATE_EVENTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    let record =
        campaign::script::long_campaign(quartermaster::store::new_campaign_uid(), events, 10)
            .unwrap();
    let mut store = Store::open(Path::new(&dir)).unwrap();
    store.create_campaign_record(&record).unwrap();
}

/// `campaign record` reads only the battle it records in: that battle's log, laid out under the
/// membership the whole campaign's signers and admissions decide, is the one the whole
/// campaign gives, and so is what the rules decide there.
#[test]
fn a_campaign_loaded_for_one_battle_decides_as_the_whole_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let record =
        campaign::script::long_campaign(quartermaster::store::new_campaign_uid(), 1_500, 4)
            .unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let id = store.create_campaign_record(&record).unwrap().id;
    let whole = store.load_campaign(id).unwrap().record;
    let played = (0..whole.campaign.battles.len())
        .filter(|&i| whole.battle(i).is_some_and(|b| b.events.len() > 1))
        .count();
    assert!(played >= 2, "{played} battles played");
    let by = Recorder {
        player: "Ann".into(),
        machine: "club-a".into(),
    };
    for index in 0..whole.campaign.battles.len() {
        let one = store
            .load_campaign_for_battles(id, &|at| at == index)
            .unwrap()
            .record;
        let ids = |r: &campaign::CampaignRecord, i: usize| -> Vec<_> {
            r.battle(i)
                .map_or_else(Vec::new, |b| b.events.iter().map(|e| e.id).collect())
        };
        assert_eq!(ids(&one, index), ids(&whole, index), "battle {}", index + 1);
        for other in (0..whole.campaign.battles.len()).filter(|o| *o != index) {
            assert!(ids(&one, other).is_empty(), "battle {} was read", other + 1);
        }
        assert_eq!(one.membership_basis(), whole.membership_basis());
        assert_eq!(one.membership(), whole.membership());
        assert_eq!(one.board(index), whole.board(index));
        let note = quartermaster::rules::battle::Request::new(campaign::NOTE).text("x");
        let decided = |r: &campaign::CampaignRecord| r.decide(index, &note, &by).unwrap().event;
        assert_eq!(decided(&one), decided(&whole));
        assert_eq!(
            one.next_position(index).unwrap(),
            whole.next_position(index).unwrap()
        );
    }
}
