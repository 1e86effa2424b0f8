//! The crash test: a child process (the real binary, `db torture`) saves forces in a loop and is
//! killed with SIGKILL at a random moment, 20 times over the same data directory. After each
//! kill the database must open, pass `PRAGMA integrity_check`, and hold every force whose save
//! had been acknowledged, equal to what was saved.
//!
//! The child logs an `intent` line (the force file) before each save and an `ack` line after
//! `save_force` returned. For each force name, the stored force must be the last acknowledged
//! version or a later intent (a save the kill interrupted after its commit); a name never
//! acknowledged may be absent; nothing may be stored that was never intended.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use quartermaster::rules::force_file;
use quartermaster::store::Store;

const KILLS: u64 = 20;

/// Per force name: the last acknowledged force file, and intents after it.
#[derive(Default)]
struct History {
    acked: Option<String>,
    pending: Vec<String>,
}

fn read_log(path: &Path, histories: &mut BTreeMap<String, History>) -> (usize, usize) {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut intents: HashMap<u64, (String, String)> = HashMap::new();
    let (mut intended, mut acked) = (0, 0);
    for line in text.lines() {
        // The kill may cut the last line short; a cut line acknowledged nothing.
        let Ok(entry) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let seq = entry["seq"].as_u64().unwrap();
        match entry["op"].as_str().unwrap() {
            "intent" => {
                let name = entry["name"].as_str().unwrap().to_string();
                let force = entry["force"].as_str().unwrap().to_string();
                histories
                    .entry(name.clone())
                    .or_default()
                    .pending
                    .push(force.clone());
                intents.insert(seq, (name, force));
                intended += 1;
            }
            "ack" => {
                let (name, force) = intents.remove(&seq).expect("an ack follows its intent");
                let history = histories.get_mut(&name).unwrap();
                let at = history.pending.iter().position(|f| *f == force).unwrap();
                history.pending.drain(..=at);
                history.acked = Some(force);
                acked += 1;
            }
            other => panic!("unknown log entry {other}"),
        }
    }
    (intended, acked)
}

#[test]
fn killing_a_saving_process_never_loses_an_acknowledged_force() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let started = Instant::now();
    // Random moments, reproducible from the seed printed on failure.
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    let mut rng = seed | 1;
    let mut histories: BTreeMap<String, History> = BTreeMap::new();
    let (mut total_acked, mut total_intended) = (0, 0);
    // At least KILLS kills; on a loaded machine a child may be killed before it saves much,
    // so more rounds follow (capped) until the kills have cut as many saves short.
    for round in 0..KILLS * 4 {
        if round >= KILLS && total_acked >= KILLS as usize {
            break;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let wait = Duration::from_millis(20 + rng % 281);
        let log = dir.path().join(format!("round-{round}.jsonl"));
        let child_seed = (seed % 1_000_000 + round).to_string();
        let mut child = crate::cli_support::torture(&["--seed", &child_seed], &log, &data);
        std::thread::sleep(wait);
        let still_running = child.try_wait().unwrap().is_none();
        child.kill().unwrap(); // SIGKILL on Unix
        let status = child.wait().unwrap();
        if !still_running {
            let mut stderr = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
            panic!("seed {seed} round {round}: the child ended by itself ({status}): {stderr}");
        }
        let (intended, acked) = read_log(&log, &mut histories);
        total_intended += intended;
        total_acked += acked;

        let store = Store::open(&data).unwrap_or_else(|e| panic!("seed {seed} round {round}: {e}"));
        let report = store.check().unwrap();
        assert!(
            report.integrity_ok(),
            "seed {seed} round {round}: {:?}",
            report.integrity
        );
        let stored: HashMap<String, String> = store
            .load_forces()
            .unwrap()
            .into_iter()
            .map(|s| (s.force.name.clone(), force_file::to_json(&s.force)))
            .collect();
        for (name, history) in &histories {
            let found = stored.get(name);
            if let Some(acked) = &history.acked {
                let found = found.unwrap_or_else(|| {
                    panic!("seed {seed} round {round}: acknowledged force {name} is lost")
                });
                assert!(
                    found == acked || history.pending.contains(found),
                    "seed {seed} round {round}: {name} is not what was saved:\n{found}\nexpected:\n{acked}"
                );
            } else if let Some(found) = found {
                assert!(
                    history.pending.contains(found),
                    "seed {seed} round {round}: {name} holds data never saved"
                );
            }
        }
        for name in stored.keys() {
            assert!(
                histories.contains_key(name),
                "seed {seed} round {round}: unexpected force {name}"
            );
        }
    }
    eprintln!(
        "crash test: at least {KILLS} kills, {total_acked} acknowledged saves of {total_intended}, {} forces, {:?}",
        histories.len(),
        started.elapsed()
    );
    assert!(
        total_acked >= KILLS as usize,
        "too few saves to mean anything: {total_acked}"
    );
    assert!(total_intended > total_acked || total_acked > 0);
}
