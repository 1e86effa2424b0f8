//! `quartermaster campaign …` end to end through the real binary, each test with its own
//! data directory.

use std::process::Output;

use serde_json::Value;

fn qm(dir: &tempfile::TempDir, args: &[&str]) -> Output {
    crate::cli_support::qm_in(dir.path(), args)
}

fn ok_json(dir: &tempfile::TempDir, args: &[&str]) -> Value {
    let out = qm(dir, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

fn ok(dir: &tempfile::TempDir, args: &[&str]) -> String {
    crate::cli_support::ok_in(dir.path(), args)
}

/// `campaign record Club --battle N ARGS…` in the campaign "Club" of `dir`.
fn record_in(dir: &tempfile::TempDir, battle: &str, args: &[&str]) -> Output {
    let mut all = vec!["campaign", "record", "Club", "--battle", battle];
    all.extend_from_slice(args);
    qm(dir, &all)
}

/// How many events battle 1 of "Club" holds.
fn club_events(dir: &tempfile::TempDir) -> u64 {
    ok_json(dir, &["campaign", "show", "Club", "--json"])["battles"][0]["events"]
        .as_u64()
        .unwrap()
}

#[test]
fn new_lorraine_shows_the_three_briefings_as_json() {
    let dir = tempfile::tempdir().unwrap();
    ok(
        &dir,
        &[
            "campaign",
            "new",
            "lorraine",
            "--name",
            "Club autumn",
            "--us",
            "Ann",
        ],
    );
    let list = ok_json(&dir, &["campaign", "list", "--json"]);
    assert_eq!(list.as_array().map(Vec::len), Some(1));
    assert!(list.to_string().contains("Club autumn"));

    let show = ok_json(&dir, &["campaign", "show", "club autumn", "--json"]);
    assert_eq!(show["players"]["us"], "Ann");
    assert_eq!(show["carry_losses"], false);
    let battles = show["battles"].as_array().expect("battles");
    let names: Vec<&str> = battles
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["Meeting Engagement", "Attack/Defend", "Counter-Attack"]
    );
    // (units, command dice, staff orders, rally dice, artillery response dice, army morale)
    // per battle and side, as the briefings give them.
    let expected = [
        [(9, 4, 2, 4, None, 9), (7, 3, 2, 4, None, 7)],
        [(14, 5, 4, 4, Some(4), 12), (11, 4, 3, 4, Some(4), 10)],
        [(17, 6, 4, 4, Some(4), 15), (14, 5, 4, 4, Some(4), 12)],
    ];
    for (number, (battle, sides)) in battles.iter().zip(expected).enumerate() {
        assert_eq!(battle["number"], number + 1);
        assert_eq!(battle["result"], "not_started");
        for (key, (units, command, staff, rally, artillery, morale)) in
            ["us", "german"].into_iter().zip(sides)
        {
            let side = &battle["sides"][key];
            assert_eq!(side["units"].as_array().map(Vec::len), Some(units), "{key}");
            assert_eq!(side["command_dice"], command);
            assert_eq!(side["staff_orders"], staff);
            assert_eq!(side["rally_dice"], rally);
            assert_eq!(
                side["artillery_response_dice"],
                serde_json::json!(artillery)
            );
            assert_eq!(side["army_morale"], morale);
        }
    }
    // Units are listed by their labels, as the table names them.
    assert!(
        battles[2]["sides"]["german"]["units"]
            .as_array()
            .unwrap()
            .iter()
            .any(|u| u == "Tiger I (Heavy Tank Platoon)"),
        "the Tiger joins in Battle 3"
    );
}

#[test]
fn a_second_campaign_of_the_same_name_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    ok(&dir, &["campaign", "new", "lorraine", "--name", "Lezey"]);
    let out = qm(&dir, &["campaign", "new", "lorraine", "--name", "Lezey"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Lezey"), "{err}");
    let out = qm(&dir, &["campaign", "show", "Nowhere"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("Nowhere"));
}

#[test]
fn export_json_and_pdf_then_import_and_add_what_next() {
    let dir = tempfile::tempdir().unwrap();
    ok(&dir, &["campaign", "new", "lorraine", "--name", "Lezey"]);
    let json = dir.path().join("lezey.json");
    let pdf = dir.path().join("lezey.pdf");
    for out in [&json, &pdf] {
        ok(
            &dir,
            &[
                "campaign",
                "export",
                "Lezey",
                "--out",
                out.to_str().unwrap(),
            ],
        );
    }
    let bytes = std::fs::read(&pdf).unwrap();
    assert!(bytes.starts_with(b"%PDF"), "a PDF was written");
    let file: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(file["format"], "quartermaster-campaign");

    ok(
        &dir,
        &[
            "campaign",
            "import",
            json.to_str().unwrap(),
            "--name",
            "Lezey again",
        ],
    );
    ok(
        &dir,
        &["campaign", "what-next", "Lezey again", "--extra-artillery"],
    );
    let show = ok_json(&dir, &["campaign", "show", "Lezey again", "--json"]);
    let battles = show["battles"].as_array().unwrap();
    assert_eq!(battles.len(), 4);
    // All Battle 3 forces; with the extra artillery the US fields three M7s (Battle 3 has
    // two) and gains 1 Army Morale.
    let units = |battle: usize| battles[battle]["sides"]["us"]["units"].as_array().unwrap();
    let m7s = |battle: usize| {
        units(battle)
            .iter()
            .filter(|u| {
                u.as_str()
                    .unwrap()
                    .starts_with("M7 Howitzer Motor Carriage")
            })
            .count()
    };
    assert_eq!((m7s(2), m7s(3)), (2, 3));
    assert_eq!(units(3).len(), units(2).len() + 1);
    assert_eq!(battles[3]["sides"]["us"]["army_morale"], 16);
    assert_eq!(battles[3]["sides"]["us"]["staff_orders"], 5);

    ok(&dir, &["campaign", "delete", "Lezey"]);
    let list = ok_json(&dir, &["campaign", "list", "--json"]);
    assert_eq!(list.as_array().map(Vec::len), Some(1));
}

#[test]
fn record_plays_the_trackers_actions_and_prints_each_event() {
    let dir = tempfile::tempdir().unwrap();
    ok(&dir, &["campaign", "new", "lorraine", "--name", "Club"]);
    ok(
        &dir,
        &["campaign", "player", "Ann", "--machine", "club-laptop"],
    );
    let record = |args: &[&str]| -> String {
        let mut all = vec!["campaign", "record", "Club", "--battle", "2"];
        all.extend_from_slice(args);
        ok(&dir, &all)
    };
    let line = record(&["command"]);
    assert!(line.starts_with("battle 2, event 1 (act"), "{line}");
    assert!(line.contains("by Ann on club-laptop: Turn 1"), "{line}");
    // The dice come from the campaign's own id: when both sides fail their command roll the
    // turn ends at once, and the next turn is rolled.
    let mut events = 1;
    let mut line = line;
    while line.contains("the turn ends") {
        line = record(&["command"]);
        events += 1;
    }
    let line = record(&["staff-order", "--side", "us", "--purpose", "smoke"]);
    assert!(
        line.contains(&format!("event {} (act", events + 1)),
        "{line}"
    );
    assert!(line.contains("US uses a Staff Order: smoke"), "{line}");
    let line = record(&["artillery", "--battery", "us-13"]);
    assert!(
        line.contains(&format!("event {} (act", events + 2)),
        "{line}"
    );
    assert!(line.contains("calls a fire mission"), "{line}");
    // Fire until a shot leaves the target with Disruption to rally off; misses are undone (each
    // undo moves the battle on, so the next shot rolls new dice: no seed is ever chosen).
    let mut rallied = false;
    for _ in 0..40 {
        let line = record(&[
            "fire",
            "--attacker",
            "us-10",
            "--target",
            "german-9",
            "--range",
            "short",
            "--flank",
        ]);
        assert!(
            line.contains("(act,") && line.contains("(direct fire)"),
            "{line}"
        );
        let show = ok_json(&dir, &["campaign", "show", "Club", "--json"]);
        let target = show["battles"][1]["units"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["id"] == "german-9")
            .unwrap()
            .clone();
        let disruption = target["counters"]["disruption"].as_u64().unwrap();
        let suppressed = target["marks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m == "suppressed");
        if (1..3).contains(&disruption) && !line.contains("DISPERSED") && !suppressed {
            let line = record(&["rally", "--unit", "german-9", "--distance", "10", "--cover"]);
            assert!(line.contains("(act,") && line.contains("rallies"), "{line}");
            rallied = true;
            break;
        }
        let undo = record(&["undo"]);
        assert!(undo.contains("Undo of event"), "{undo}");
    }
    assert!(
        rallied,
        "some seed leaves the target disrupted and able to rally"
    );
    let line = record(&["end-turn"]);
    assert!(line.contains("Turn ended"), "{line}");
    let line = record(&["--json", "undo"]);
    let json: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(json["logged"]["event"]["kind"], "undo");
    assert_eq!(json["logged"]["by"]["player"], "Ann");
    // The log says who recorded each event.
    let log = ok(&dir, &["campaign", "show", "Club", "--log"]);
    assert!(log.contains("— Ann on club-laptop,"), "{log}");
}

/// Units are named by id or by their label as the tracker and the cards show them; a miss says
/// the nearest names. Nobody chooses a seed: `--seed` is no flag of `campaign record`.
#[test]
fn record_takes_unit_labels_suggests_near_names_and_takes_no_seed() {
    let dir = tempfile::tempdir().unwrap();
    ok(&dir, &["campaign", "new", "lorraine", "--name", "Club"]);
    let record = |args: &[&str]| record_in(&dir, "1", args);
    let refused = record(&["--seed", "5", "command"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--seed"));
    let mut rolled = record(&["command"]);
    assert!(rolled.status.success());
    // No player name set: the line names the machine without an empty "by".
    let line = String::from_utf8_lossy(&rolled.stdout);
    assert!(
        !line.contains("by  on") && !line.contains("by on"),
        "{line}"
    );
    // The dice follow the campaign's id: when both sides fail the turn ends at once, and
    // nothing fires until the next turn is rolled.
    while String::from_utf8_lossy(&rolled.stdout).contains("the turn ends") {
        rolled = record(&["command"]);
        assert!(rolled.status.success());
    }
    // Three companies field an "M4 75mm 1/2": the name alone is refused with all three.
    let several = record(&["fire", "--attacker", "M4 75mm 1/2", "--target", "german-1"]);
    assert_eq!(several.status.code(), Some(2));
    let err = String::from_utf8_lossy(&several.stderr);
    assert!(
        err.contains(
            "names several units: M4 75mm 1/2 (Tank Company 1), M4 75mm 1/2 (Tank Company 2)"
        ),
        "{err}"
    );
    let fired = record(&[
        "fire",
        "--attacker",
        "M4 75mm 1/2 (Tank Company 1)",
        "--target",
        "Panther Ausf G 1/2 (Panzer Company 1)",
    ]);
    let line = String::from_utf8_lossy(&fired.stdout);
    assert!(
        fired.status.success(),
        "{}",
        String::from_utf8_lossy(&fired.stderr)
    );
    assert!(
        line.contains("M4 75mm 1/2 (Tank Company 1) → Panther Ausf G 1/2 (Panzer Company 1)"),
        "{line}"
    );
    let missed = record(&["fire", "--attacker", "Sherman", "--target", "german-1"]);
    assert_eq!(missed.status.code(), Some(2));
    let err = String::from_utf8_lossy(&missed.stderr);
    assert!(err.contains("--attacker: no unit Sherman"), "{err}");
    let missed = record(&[
        "fire",
        "--attacker",
        "M4 75nm 1/2 (Tank Company 1)",
        "--target",
        "german-1",
    ]);
    let err = String::from_utf8_lossy(&missed.stderr);
    assert!(
        err.contains("did you mean M4 75mm 1/2 (Tank Company 1)"),
        "{err}"
    );
}

/// A chain spent on reserves alone is refused with the way out; a company is committed with
/// `commit`, which spends the order's die — not before its briefing's turn.
#[test]
fn reserves_are_committed_with_commit_from_their_turn() {
    let dir = tempfile::tempdir().unwrap();
    ok(&dir, &["campaign", "new", "lorraine", "--name", "Club"]);
    let record = |args: &[&str]| {
        let mut all = vec!["campaign", "record", "Club", "--battle", "3"];
        all.extend_from_slice(args);
        qm(&dir, &all)
    };
    // Dice typed as rolled at the table, so the test never hangs on the campaign's random id:
    // no 1s, so neither side fails, and the US has a chain of two 5s.
    let rolled = record(&[
        "command",
        "--dice",
        "us=5,5,4,3,2,2",
        "--dice",
        "german=5,4,4,3,2",
    ]);
    assert!(
        rolled.status.success(),
        "{}",
        String::from_utf8_lossy(&rolled.stderr)
    );
    let chain = record(&[
        "chain",
        "--side",
        "us",
        "--face",
        "5",
        "--dice",
        "1",
        "--on",
        "commit-reserves",
    ]);
    assert_eq!(chain.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&chain.stderr).contains("commit --company"),
        "{}",
        String::from_utf8_lossy(&chain.stderr)
    );
    let early = record(&["commit", "--company", "Armour Company 1"]);
    assert_eq!(early.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&early.stderr).contains("from turn 2"),
        "{}",
        String::from_utf8_lossy(&early.stderr)
    );
}

/// Dice rolled at the table, typed with `--dice POOL=FACES` as `roll` takes them: the event is
/// the one the battle's rules derive from those faces (the library, asked the same request with
/// the same faces, gives the same event), the log says the dice were rolled at the table, a
/// pool left out is named with its size, a wrong count records nothing, and the campaign still
/// verifies when exported and imported elsewhere.
#[test]
fn record_takes_the_dice_rolled_at_the_table() {
    use quartermaster::campaign::Event;
    use quartermaster::rules::armour_battles::battle::actions::key;
    use quartermaster::rules::battle::Request;
    use quartermaster::rules::resolution::TableDice;
    use quartermaster::store::Store;

    let dir = tempfile::tempdir().unwrap();
    ok(&dir, &["campaign", "new", "lorraine", "--name", "Club"]);
    let record = |args: &[&str]| record_in(&dir, "1", args);
    let events = || club_events(&dir);
    // US 6,5,4,3 against German 6,5,2: no 1s, so neither fails; sixes and fives are level,
    // and the US's 4 wins it the first pulse.
    let line = record(&["command", "--dice", "us=6543", "--dice", "german=6,5,2"]);
    assert!(
        line.status.success(),
        "{}",
        String::from_utf8_lossy(&line.stderr)
    );
    let text = String::from_utf8_lossy(&line.stdout);
    assert!(text.contains("US [6 5 4 3] German [6 5 2]"), "{text}");
    assert!(text.contains("US has the first pulse"), "{text}");
    assert!(text.ends_with("(rolled at the table)\n"), "{text}");

    let fire = ["fire", "--attacker", "us-1", "--target", "german-3"];
    // A pool left out is asked for by name and size; nothing is recorded.
    let before = events();
    let missing = record(&[&fire[..], &["--dice", "attack=6655221"]].concat());
    assert_eq!(missing.status.code(), Some(2));
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(
        err.contains("reaction: no faces given: the rules roll 5 d6"),
        "{err}"
    );
    let wrong = record(
        &[
            &fire[..],
            &["--dice", "attack=665522", "--dice", "reaction=66123"],
        ]
        .concat(),
    );
    assert_eq!(wrong.status.code(), Some(2));
    let err = String::from_utf8_lossy(&wrong.stderr);
    assert!(
        err.contains("attack: 6 faces given: the rules roll 7 d6"),
        "{err}"
    );
    let extra = record(
        &[
            &fire[..],
            &[
                "--dice",
                "attack=6655221",
                "--dice",
                "reaction=66123",
                "--dice",
                "rally=6",
            ],
        ]
        .concat(),
    );
    assert_eq!(extra.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&extra.stderr).contains("rally"));
    assert_eq!(events(), before, "a refused roll records nothing");

    // The event the library decides for the same shot with the same faces.
    let dice = TableDice::new()
        .with("attack", vec![6, 6, 5, 5, 2, 2, 1])
        .with("reaction", vec![6, 6, 1, 2, 3]);
    let expected = {
        let store = Store::open(dir.path()).unwrap();
        let id = store.find_campaign("Club").unwrap().unwrap();
        let record = store.load_campaign(id).unwrap().record;
        let request = Request::new(key::FIRE)
            .unit("us-1".to_string())
            .target("german-3".to_string());
        record
            .decide_table(0, &request, &store.recorder().unwrap(), &dice)
            .unwrap()
            .event
    };
    let Event::Act(act) = &expected else {
        panic!("a fire is the battle's action: {expected:?}")
    };
    assert_eq!(act.dice_from, quartermaster::rules::battle::DiceFrom::Table);
    let fired = record(
        &[
            &fire[..],
            &[
                "--json",
                "--dice",
                "attack=6,6,5,5,2,2,1",
                "--dice",
                "reaction=66123",
            ],
        ]
        .concat(),
    );
    assert!(
        fired.status.success(),
        "{}",
        String::from_utf8_lossy(&fired.stderr)
    );
    let fired: Value = serde_json::from_slice(&fired.stdout).unwrap();
    assert_eq!(
        fired["logged"]["event"],
        serde_json::to_value(&expected).unwrap()
    );
    assert_eq!(events(), before + 1);
    let log = ok(&dir, &["campaign", "show", "Club", "--log"]);
    let shot = log
        .lines()
        .find(|l| l.contains("→ Panzer IV H 1/3"))
        .unwrap_or_else(|| panic!("the shot in the log: {log}"));
    assert!(shot.contains("(rolled at the table)"), "{shot}");

    // Exported and imported into a fresh data directory, every event verifies again.
    let file = dir.path().join("club.json");
    ok(
        &dir,
        &[
            "campaign",
            "export",
            "Club",
            "--out",
            file.to_str().unwrap(),
        ],
    );
    let fresh = tempfile::tempdir().unwrap();
    ok(&fresh, &["campaign", "import", file.to_str().unwrap()]);
    let again = ok_json(&fresh, &["campaign", "show", "Club", "--json"]);
    assert_eq!(again["battles"][0]["events"].as_u64(), Some(before + 1));
}

/// The book's "Both Sides Roll a Command Failure": the turn ends at once, so until the next
/// command roll no fire, rally or Staff Order is recorded; each is refused with the reason
/// (exit 2) and nothing is written. Rally's flags are the rally mechanic's (`--no-los`, also
/// `--no-line-of-sight`, and `--wild N`); the old `--wild-die` is no flag.
#[test]
fn after_both_sides_fail_nothing_is_recorded_until_the_next_command_roll() {
    let dir = tempfile::tempdir().unwrap();
    ok(&dir, &["campaign", "new", "lorraine", "--name", "Club"]);
    let record = |args: &[&str]| record_in(&dir, "1", args);
    let events = || club_events(&dir);
    // US 1,1,2,3 and German 1,1,5: each rolls more 1s than 6s, so both fail.
    let line = record(&["command", "--dice", "us=1123", "--dice", "german=115"]);
    let text = String::from_utf8_lossy(&line.stdout);
    assert!(
        line.status.success(),
        "{}",
        String::from_utf8_lossy(&line.stderr)
    );
    assert!(text.contains("both sides failed: the turn ends"), "{text}");
    let before = events();
    let reason = "both sides rolled a Command Failure in turn 1";
    for action in [
        &["fire", "--attacker", "us-1", "--target", "german-3"][..],
        &["staff-order", "--side", "us", "--purpose", "smoke"],
        &[
            "rally",
            "--unit",
            "us-1",
            "--distance",
            "10",
            "--no-line-of-sight",
            "--wild",
            "1",
        ],
    ] {
        let out = record(action);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{action:?}: {stderr}");
        assert!(stderr.contains(reason), "{action:?}: {stderr}");
    }
    assert_eq!(events(), before, "nothing was recorded");
    let old = record(&["rally", "--unit", "us-1", "--wild-die"]);
    assert_eq!(old.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&old.stderr).contains("--wild-die"),
        "{}",
        String::from_utf8_lossy(&old.stderr)
    );
    // The next command roll starts turn 2, and a Staff Order may be used again.
    let line = record(&["command", "--dice", "us=6543", "--dice", "german=6,5,2"]);
    assert!(
        line.status.success(),
        "{}",
        String::from_utf8_lossy(&line.stderr)
    );
    let out = record(&["staff-order", "--side", "us", "--purpose", "smoke"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `artillery-fire` takes the fire mechanic's situation flags read as an artillery mission:
/// a direct fire's flag does not apply, what the battle decides (the response dice, the kind)
/// is refused with the battle's value, and the event line says what paid for the extra die.
#[test]
fn artillery_fire_takes_the_fire_flags_and_says_what_paid_for_its_extra_die() {
    let dir = tempfile::tempdir().unwrap();
    ok(&dir, &["campaign", "new", "lorraine", "--name", "Club"]);
    let record = |args: &[&str]| record_in(&dir, "2", args);
    let succeeds = |args: &[&str]| {
        let out = record(args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // The US rolls one 6 (a wild die) and no 1s; the Germans roll no 6.
    succeeds(&["command", "--dice", "us=65432", "--dice", "german=5432"]);
    // Four 6s against three 1s: the mission fires for effect now.
    let called = succeeds(&[
        "artillery",
        "--battery",
        "us-13",
        "--dice",
        "response=6666",
        "--dice",
        "opponent_response=111",
    ]);
    assert!(called.contains("fires for effect now"), "{called}");
    let fire = [
        "artillery-fire",
        "--battery",
        "us-13",
        "--target",
        "german-9",
    ];
    for (extra, said) in [
        (
            &["--range", "short"][..],
            "--range does not apply to artillery",
        ),
        (
            &["--response-dice", "3"],
            "--response-dice: 3: the battle decides it",
        ),
        (
            &["--kind", "direct"],
            "--kind: direct: the battle decides it",
        ),
        (
            &["--attacker-wild-die"],
            "unexpected argument '--attacker-wild-die'",
        ),
    ] {
        let out = record(&[&fire[..], extra].concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains(said), "{extra:?}: {stderr}");
    }
    // Two extra dice: the US's one wild die pays for the first, a Staff Order for the second.
    // The dice are typed (one 5, no 6), so the target reacts whatever the campaign's id: the
    // reaction pool's size is the one the rules ask for.
    let shot = [
        &fire[..],
        &["--break-off", "--attacker-wild", "2", "--cover"],
        &["--dice", "attack=511111"],
    ]
    .concat();
    let asked = record(&shot);
    let stderr = String::from_utf8_lossy(&asked.stderr);
    let size: usize = stderr
        .split("the rules roll ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the reaction pool is asked for: {stderr}"));
    let reaction = format!("reaction={}", "1".repeat(size));
    let line = succeeds(&[&shot[..], &["--dice", &reaction]].concat());
    assert!(line.contains("(artillery): ["), "{line}");
    assert!(
        line.contains("at 4+ with +2D (wild die, Staff Order) vs"),
        "{line}"
    );
    let show = ok_json(&dir, &["campaign", "show", "Club", "--json"]);
    let us = &show["battles"][1]["sides"]["us"];
    // 4 Staff Orders in the briefing: one called the mission, one paid for the die.
    assert_eq!(us["staff_orders_now"], 2, "{us}");
}

/// `campaign show --actions` lists what the battle being fought offers now, each line as
/// `campaign record … act` takes it, and every action's parameters with their ranges; a line
/// copied from it records.
#[test]
fn show_actions_lists_the_offers_of_now_as_act_takes_them() {
    let dir = tempfile::tempdir().unwrap();
    ok(&dir, &["campaign", "new", "lorraine", "--name", "Club"]);
    let before = ok(&dir, &["campaign", "show", "Club", "--actions"]);
    assert!(
        before.starts_with("Battle 1: actions on offer now"),
        "{before}"
    );
    assert!(
        before.contains("Roll command dice — roll_command\n"),
        "{before}"
    );
    assert!(
        !before.contains("— fire "),
        "no fire before the command roll: {before}"
    );
    // US 5 5 3 2, German 6 4 4: the Germans hold 4s ×2 and a wild die.
    let out = record_in(
        &dir,
        "1",
        &["command", "--dice", "us=5,5,3,2", "--dice", "german=6,4,4"],
    );
    assert!(out.status.success());
    let now = ok(&dir, &["campaign", "show", "Club", "--actions"]);
    let line = "4s ×2: orders — use_chain --side second --set face=4 --set dice=2 --set on=orders";
    assert!(now.contains(line), "{now}");
    assert!(
        now.contains("Fire — fire --unit us-1 --target german-1|"),
        "{now}"
    );
    assert!(!now.contains("roll_command"), "a turn is on: {now}");
    assert!(now.contains("more the rules refuse now"), "{now}");
    assert!(
        now.contains("  use_chain: face 2–6 (default 5); dice 1–12 (default 1); on orders|"),
        "{now}"
    );
    let args: Vec<&str> = line.split(" — ").nth(1).unwrap().split(' ').collect();
    let recorded = record_in(&dir, "1", &[&["act"], &args[..]].concat());
    assert!(
        recorded.status.success(),
        "{}",
        String::from_utf8_lossy(&recorded.stderr)
    );
    assert!(String::from_utf8_lossy(&recorded.stdout).contains("(act"));
    // A battle number given; past the last, refused.
    assert!(ok(&dir, &["campaign", "show", "Club", "--actions", "2"]).starts_with("Battle 2:"));
    assert!(
        !qm(&dir, &["campaign", "show", "Club", "--actions", "9"])
            .status
            .success()
    );
}
