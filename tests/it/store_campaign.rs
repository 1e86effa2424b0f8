//! Campaigns in the database: created, played, reopened, imported, deleted — and a process
//! killed mid-battle reopens with every acknowledged event.

use std::time::Duration;

use quartermaster::campaign::{self, CampaignRecord, Event, LorraineOptions, Sides, file};
use quartermaster::rules::armour_battles::battle::event as ab;
use quartermaster::store::{Store, StoreError};

fn lezey() -> CampaignRecord {
    let players = Sides {
        first: "Alice".to_string(),
        second: "Bruno".to_string(),
    };
    CampaignRecord::new(
        quartermaster::store::new_campaign_uid(),
        campaign::new_lorraine("Lezey", players, LorraineOptions::default()).unwrap(),
    )
}

/// Records `n` scripted events of battle `index` through the store, each with the dice its
/// place gives on this library's machine.
fn play(
    store: &mut Store,
    stored: &mut quartermaster::store::StoredCampaign,
    index: usize,
    n: usize,
) {
    let by = store.recorder().unwrap();
    for _ in 0..n {
        let Some(event) = stored.record.scripted(index, &by).unwrap() else {
            break;
        };
        let at = stored.record.next_position(index).unwrap();
        let logged = store
            .record_event(stored.battle_ids[index], at, &event)
            .unwrap();
        stored.record.add(index, logged).unwrap();
        // The library admitted its own names with its first event under them.
        stored.record.add_admissions(store.take_admitted()).unwrap();
    }
}

#[test]
fn a_campaign_survives_closing_and_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let (record, state) = {
        let mut store = Store::open(dir.path()).unwrap();
        let mut stored = store.create_campaign_record(&lezey()).unwrap();
        // Up to 30 events: the dice follow the event ids (new each run), and now and then
        // the scripted battle is over sooner; what is checked is that every one comes back.
        play(&mut store, &mut stored, 0, 30);
        let played = stored.record.logs[0].len();
        assert!(played >= 5, "the battle was played: {played} events");
        let undo = stored.record.battle(0).unwrap().undo().unwrap();
        let at = stored.record.next_position(0).unwrap();
        let logged = store.record_event(stored.battle_ids[0], at, &undo).unwrap();
        assert_eq!(logged.seq as usize, played + 1);
        stored.record.add(0, logged).unwrap();
        (stored.record.clone(), stored.record.board(0).unwrap())
    };
    let store = Store::open(dir.path()).unwrap();
    let id = store.find_campaign("LEZEY").unwrap().unwrap();
    let loaded = store.load_campaign(id).unwrap();
    assert_eq!(loaded.record, record);
    assert_eq!(loaded.record.board(0).unwrap(), state);
    let listed = store.list_campaigns().unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(
        (listed[0].battles, listed[0].events as usize),
        (3, record.logs[0].len())
    );
    assert!(listed[0].openable);
}

#[test]
fn names_are_unique_and_imports_keep_numbers_and_times() {
    let mut store = Store::open_in_memory().unwrap();
    let mut stored = store.create_campaign_record(&lezey()).unwrap();
    play(&mut store, &mut stored, 0, 25);
    assert!(matches!(
        store.create_campaign_record(&lezey()),
        Err(StoreError::DuplicateCampaignName { .. })
    ));
    let text = file::to_json(&stored.record).unwrap();
    let imported = file::parse(&text).unwrap();
    assert!(matches!(
        store.create_campaign_record(&imported),
        Err(StoreError::DuplicateCampaignName { .. } | StoreError::DuplicateCampaignId { .. })
    ));
    let mut imported = imported.as_copy(quartermaster::store::new_campaign_uid());
    imported.campaign.name = "Lezey (copy)".to_string();
    let copy = store.create_campaign_record(&imported).unwrap();
    let reloaded = store.load_campaign(copy.id).unwrap();
    let events = |r: &CampaignRecord| -> Vec<(u32, String, Event)> {
        r.logs[0]
            .iter()
            .map(|e| (e.seq, e.recorded_at.clone(), e.event.clone()))
            .collect()
    };
    assert_eq!(events(&reloaded.record), events(&stored.record));
    assert_eq!(reloaded.record.board(0), stored.record.board(0));
}

#[test]
fn events_stay_append_only_but_a_whole_campaign_can_be_deleted() {
    let mut store = Store::open_in_memory().unwrap();
    let mut stored = store.create_campaign_record(&lezey()).unwrap();
    play(&mut store, &mut stored, 0, 5);
    let mut other = store
        .create_campaign_record(&CampaignRecord::new(
            quartermaster::store::new_campaign_uid(),
            campaign::new_lorraine("Other", Sides::default(), LorraineOptions::default()).unwrap(),
        ))
        .unwrap();
    play(&mut store, &mut other, 0, 5);
    store.delete_campaign(stored.id).unwrap();
    assert_eq!(store.find_campaign("Lezey").unwrap(), None);
    assert!(matches!(
        store.load_campaign(stored.id),
        Err(StoreError::CampaignNotFound(_))
    ));
    let left = store.load_campaign(other.id).unwrap();
    assert_eq!(left.record.logs[0].len(), 5);
}

#[test]
fn what_next_battles_are_stored_with_their_campaign() {
    let mut store = Store::open_in_memory().unwrap();
    let mut stored = store.create_campaign_record(&lezey()).unwrap();
    stored
        .record
        .add_follow_up(Some("extra_artillery"))
        .unwrap();
    let (battle, setup) = store
        .add_campaign_battle(stored.id, &stored.record.campaign)
        .unwrap();
    // The setup is the battle's first event (signed and shared like any other).
    assert!(matches!(setup.event, Event::BattleAdded { .. }));
    assert!(setup.seal.is_some());
    stored.record.add(3, setup).unwrap();
    let event = Event::Note {
        text: "free deployment".to_string(),
    };
    let at = stored.record.next_position(3).unwrap();
    store.record_event(battle, at, &event).unwrap();
    let loaded = store.load_campaign(stored.id).unwrap();
    assert_eq!(loaded.record.campaign.battles.len(), 4);
    // The setup first, then the note.
    assert_eq!(loaded.record.logs[3].len(), 2);
    assert_eq!(loaded.record.logs[3][1].event, event);
}

/// The kill test: the real binary records scripted campaign events and is killed with
/// SIGKILL at random moments; after each kill the campaign must open with every event it
/// acknowledged, in order, unchanged, and fold without error.
#[test]
fn killing_a_recording_process_never_loses_an_acknowledged_event() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut acked: Vec<(usize, u32, Event)> = Vec::new();
    // Eight kills at least; on a loaded machine a child may be killed before it records
    // much, so more rounds follow (capped, each waiting longer) until enough were acknowledged.
    for round in 0..40u64 {
        if round >= 8 && acked.len() > 20 {
            break;
        }
        let log = dir.path().join(format!("round-{round}.jsonl"));
        let mut child = crate::cli_support::torture(&["--campaign", "--seed", "44"], &log, &data);
        std::thread::sleep(Duration::from_millis(60 + 37 * round));
        child.kill().unwrap();
        child.wait().unwrap();
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        for line in text.lines() {
            let Ok(entry) = serde_json::from_str::<serde_json::Value>(line) else {
                continue; // a line cut short by the kill acknowledged nothing
            };
            let battle = entry["battle"].as_u64().unwrap() as usize;
            let seq = entry["seq"].as_u64().unwrap() as u32;
            let event: Event = serde_json::from_value(entry["event"].clone()).unwrap();
            acked.push((battle, seq, event));
        }
        let store = Store::open(&data).unwrap();
        assert!(store.check().unwrap().integrity_ok());
        let Some(id) = store.find_campaign("crash 44").unwrap() else {
            assert!(
                acked.is_empty(),
                "round {round}: acknowledged events but no campaign"
            );
            continue;
        };
        let stored = store.load_campaign(id).unwrap();
        for (battle, seq, event) in &acked {
            let found = stored.record.logs[*battle]
                .get(*seq as usize - 1)
                .unwrap_or_else(|| panic!("round {round}: event {seq} of battle {battle} lost"));
            assert_eq!(&found.event, event, "round {round}: event {seq} changed");
        }
        for index in 0..3 {
            stored.record.board(index).unwrap();
        }
    }
    assert!(
        acked.len() > 20,
        "too few events to mean anything: {}",
        acked.len()
    );
}

#[test]
fn two_running_copies_recording_into_one_battle_never_interleave_its_log() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = Store::open(dir.path()).unwrap();
    let mut stored_first = first.create_campaign_record(&lezey()).unwrap();
    let mut second = Store::open(dir.path()).unwrap();
    let mut stored_second = second.load_campaign(stored_first.id).unwrap();

    // The first copy plays on; the second still shows the battle as it was.
    play(&mut first, &mut stored_first, 0, 5);
    let by = second.recorder().unwrap();
    let event = stored_second.record.scripted(0, &by).unwrap().unwrap();
    let error = second
        .record_event(
            stored_second.battle_ids[0],
            stored_second.record.next_position(0).unwrap(),
            &event,
        )
        .unwrap_err();
    assert!(
        matches!(
            error,
            StoreError::BattleChanged {
                known: 0,
                stored: 5,
                ..
            }
        ),
        "{error}"
    );
    assert!(error.to_string().contains("reloaded"), "{error}");

    // Reloaded, it records after the first copy's events; the log stays one game.
    stored_second = second.load_campaign(stored_second.id).unwrap();
    play(&mut second, &mut stored_second, 0, 3);
    let log = &second.load_campaign(stored_first.id).unwrap().record.logs[0];
    assert_eq!(log.len(), 8);
    assert!(log.iter().enumerate().all(|(i, e)| e.seq == i as u32 + 1));
    let turns: Vec<u32> = log
        .iter()
        .filter_map(|e| match &e.event {
            Event::Armour(ab::Event::CommandRolled(c)) => Some(c.turn),
            _ => None,
        })
        .collect();
    assert!(turns.windows(2).all(|w| w[1] == w[0] + 1), "{turns:?}");
    let record = second.load_campaign(stored_first.id).unwrap().record;
    campaign::verify::verify_record(&record).unwrap();
}

/// An event over the cap every machine applies to what it takes (16 KiB) is refused when
/// recorded, saying why, and nothing is written: a file this machine wrote always syncs. The
/// end of a turn at 254 units in the per-unit form of old was ~24 KB.
#[test]
fn an_event_over_the_size_cap_is_refused_when_recorded_and_not_written() {
    let mut store = Store::open_in_memory().unwrap();
    let mut stored = store.create_campaign_record(&lezey()).unwrap();
    play(&mut store, &mut stored, 0, 1);
    let effects: Vec<String> = (1..=400)
        .map(|i| format!(r#"{{"do":"order","unit":"first-{i}","order":null}}"#))
        .collect();
    let json = format!(
        r#"{{"action":"end_turn","effects":[{}],"category":"result"}}"#,
        effects.join(",")
    );
    let event = Event::Act(serde_json::from_str(&json).unwrap());
    let at = stored.record.next_position(0).unwrap();
    let refused = store
        .record_event(stored.battle_ids[0], at, &event)
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("bytes; an event has at most 16384"),
        "{refused}"
    );
    let reloaded = store.load_campaign(stored.id).unwrap();
    assert_eq!(reloaded.record.logs[0].len(), 1);
}
