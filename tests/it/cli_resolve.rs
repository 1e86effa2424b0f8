//! `odds` and `roll` end to end in-process: the JSON keys scripts read, refusals that name
//! the flag, replayable rolls, and custom cards from the data folder.

use std::path::Path;

use clap::Parser;
use quartermaster::cli::{self, Cli};
use quartermaster::rules::{RulesetId, ruleset};
use quartermaster::store::Store;
use serde_json::Value;

/// Runs `quartermaster ARGS… --data-dir DIR`; returns (exit code, stdout, stderr).
fn run_in(dir: &Path, args: &[&str]) -> (u8, String, String) {
    let argv = std::iter::once("quartermaster").chain(args.iter().copied());
    let command = match Cli::try_parse_from(argv) {
        Ok(cli) => cli.command.expect("a command"),
        Err(e) => return (2, String::new(), e.to_string()),
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = cli::run(command, Some(dir), &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// Runs with an empty data folder.
fn run(args: &[&str]) -> (u8, String, String) {
    let dir = tempfile::tempdir().unwrap();
    run_in(dir.path(), args)
}

/// Runs `args`, which must be refused as bad input (exit 2); returns what it said.
fn refusal(args: &[&str]) -> String {
    let (code, _, err) = run(args);
    assert_eq!(code, 2, "{args:?}");
    err
}

fn json_of(args: &[&str]) -> Value {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

fn probabilities_sum_to_one(dist: &Value) {
    let sum: f64 = dist["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["probability"].as_f64().unwrap())
        .sum();
    assert!((sum - 1.0).abs() < 1e-9, "{dist}");
}

#[test]
fn armour_battles_odds_json_has_the_contract_fields() {
    let v = json_of(&[
        "odds",
        "armour-battles",
        "--attacker",
        "panzer iv",
        "--target",
        "M4 75mm",
        "--move",
        "double",
        "--cover",
        "--json",
    ]);
    assert_eq!(v["attacker_dice"], 7);
    assert_eq!(v["attacker_tn"], 4);
    assert_eq!(v["reaction_dice"], 6);
    assert_eq!(v["reaction_tn"], 4);
    let disruption = v["disruption"].as_array().unwrap();
    assert_eq!(disruption.len(), 4);
    let sum: f64 = disruption.iter().map(|p| p.as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-12);
    for key in ["p_suppressed", "p_forced_back", "p_dispersed"] {
        assert!(v[key].as_f64().is_some(), "{key}");
    }
    assert_eq!(v["house_defaults"][0]["value"], "p_suppressed");
    assert_eq!(v["mechanic"], "direct_fire");
}

#[test]
fn armour_battles_text_odds_show_at_least_figures_and_modifiers() {
    let (code, out, _) = run(&[
        "odds",
        "armour-battles",
        "--attacker",
        "StuG III",
        "--target",
        "Puma",
        "--evading",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("at least"), "{out}");
    assert!(out.contains("breaking off +2D"), "{out}");
}

#[test]
fn armour_battles_names_are_checked_with_hints() {
    let err = refusal(&[
        "odds",
        "armour-battles",
        "--attacker",
        "Pantehr",
        "--target",
        "M4 75mm",
    ]);
    assert!(err.contains("Panther Ausf G"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let err = refusal(&[
        "odds",
        "armour-battles",
        "--attacker",
        "M7",
        "--target",
        "Panther",
    ]);
    assert!(err.contains("--attacker"), "{err}");
    assert!(err.contains("fires artillery missions"), "{err}");
    let err = refusal(&[
        "odds",
        "armour-battles",
        "--artillery",
        "M7",
        "--target",
        "105mm Howitzer",
    ]);
    assert!(err.contains("cannot be fired at"), "{err}");
    let err = refusal(&[
        "odds",
        "armour-battles",
        "--attacker",
        "Tiger",
        "--target",
        "M4 75mm",
        "--distance",
        "5",
    ]);
    assert!(err.contains("--distance"), "{err}");
}

#[test]
fn armour_battles_artillery_rally_command_and_move_odds_run() {
    let v = json_of(&[
        "odds",
        "armour-battles",
        "--artillery",
        "M7",
        "--target",
        "M10",
        "--json",
    ]);
    assert_eq!(v["reaction_dice"], 4);
    assert!(v["p_fires_now"].as_f64().unwrap() > 0.0);
    let v = json_of(&[
        "odds",
        "armour-battles",
        "--rally",
        "Panther",
        "--disruption",
        "2",
        "--distance",
        "10",
        "--json",
    ]);
    assert_eq!(
        (v["rally_dice"].as_u64(), v["rally_tn"].as_i64()),
        (Some(4), Some(5))
    );
    let v = json_of(&[
        "odds",
        "armour-battles",
        "--command-dice",
        "4",
        "3",
        "--battle",
        "2",
        "--json",
    ]);
    assert_eq!(v["p_german_first"], 0.0);
    let v = json_of(&[
        "odds",
        "armour-battles",
        "--breakdown",
        "Tiger",
        "--move",
        "double",
        "--json",
    ]);
    assert_eq!(v["p_breakdown"].as_f64().unwrap(), 0.25);
}

#[test]
fn armour_battles_rolls_replay_from_the_seed() {
    for action in [
        &[
            "--attacker",
            "Panther",
            "--target",
            "M4 76mm",
            "--range",
            "short",
        ][..],
        &[
            "--artillery",
            "105mm Howitzer",
            "--target",
            "M10",
            "--battle",
            "2",
        ][..],
        &["--rally", "M5", "--disruption", "1", "--distance", "30"][..],
        &["--command-dice", "5", "4"][..],
        &["--breakdown", "Tiger", "--move", "triple"][..],
    ] {
        let mut line = vec!["roll", "armour-battles"];
        line.extend_from_slice(action);
        line.extend_from_slice(&["--seed", "12345", "--json"]);
        let a = json_of(&line);
        assert_eq!(a, json_of(&line));
        assert_eq!(a["seed"], 12345);
        assert!(!a["result"].as_array().unwrap().is_empty(), "{a}");
        for record in a["dice"].as_array().unwrap() {
            assert_eq!(record["seed"], 12345, "{record}");
        }
        let text = run(&line[..line.len() - 1]);
        assert_eq!(text.0, 0);
        assert!(text.1.contains("seed 12345"), "{}", text.1);
    }
}

#[test]
fn belloludi_shooting_odds() {
    let v = json_of(&[
        "odds",
        "belloludi",
        "--shooter",
        "medium tank",
        "--target",
        "Heavy Tank",
        "--close",
        "--target-cover",
        "--json",
    ]);
    assert_eq!(v["ruleset"], "belloludi");
    assert_eq!(v["need"], 4);
    assert_eq!(v["p_hit"], 0.5);
    probabilities_sum_to_one(&v["distributions"]["state_after"]);
    probabilities_sum_to_one(&v["distributions"]["damage_on_hit"]);
    let (code, text, _) = run(&["odds", "belloludi", "--command"]);
    assert_eq!(code, 0);
    assert!(text.contains("Charge!"), "{text}");
}

#[test]
fn unknown_names_are_one_line_errors_with_suggestions() {
    let err = refusal(&[
        "odds",
        "belloludi",
        "--shooter",
        "Medum Tank",
        "--target",
        "Heavy Tank",
    ]);
    assert_eq!(
        err.trim_end(),
        "error: --shooter: no BelloLudi Tanks! card named 'Medum Tank' — did you mean 'Medium Tank'?"
    );
    let err = refusal(&[
        "odds",
        "bolt-action",
        "--weapon",
        "Rifel",
        "--damage-value",
        "4",
    ]);
    assert!(err.contains("did you mean 'Rifle'"), "{err}");
}

#[test]
fn rolls_record_the_seed_and_replay() {
    let args = [
        "roll",
        "battle-of-tanks",
        "--attacker",
        "Luchs",
        "--target",
        "T-80",
        "--seed",
        "11",
        "--json",
    ];
    let a = json_of(&args);
    assert_eq!(a, json_of(&args));
    assert_eq!(a["seed"], 11);
    let to_hit = &a["dice"][0];
    assert_eq!(to_hit["dice"].as_array().unwrap().len(), 10);
    assert_eq!(to_hit["seed"], 11);
    let b = json_of(&[
        "roll",
        "belle-epoque",
        "--assault",
        "--attacker",
        "Zulu Warriors",
        "--defender",
        "British Regulars",
        "--seed",
        "1879",
        "--json",
    ]);
    assert_eq!(b["dice"][0]["for"], "attacker");
    assert_eq!(b["dice"][0]["dice"].as_array().unwrap().len(), 4);
    assert_eq!(b["dice"][1]["dice"].as_array().unwrap().len(), 3);
}

#[test]
fn battle_of_tanks_fire_and_sight() {
    let v = json_of(&[
        "odds",
        "battle-of-tanks",
        "--attacker",
        "IS-2",
        "--target",
        "Tiger I",
        "--moving",
        "--heavy-cover",
        "--json",
    ]);
    assert_eq!(v["need"], 6);
    assert_eq!(v["shots"], 1);
    probabilities_sum_to_one(&v["distributions"]["damage"]);
    let v = json_of(&[
        "odds",
        "battle-of-tanks",
        "--attacker",
        "Tiger I",
        "--target",
        "IS-2",
        "--range",
        "80",
        "--json",
    ]);
    assert_eq!(v["can_fire"], false);
    let err = refusal(&[
        "odds",
        "battle-of-tanks",
        "--attacker",
        "Tiger I",
        "--target",
        "IS-2",
        "--shots",
        "3",
    ]);
    assert_eq!(
        err.trim_end(),
        "error: --shots: 3 shots: Tiger I has a fire rate of 2"
    );
}

#[test]
fn bolt_action_order_test_and_shooting() {
    let v = json_of(&[
        "odds",
        "bolt-action",
        "--order-test",
        "--quality",
        "regular",
        "--pins",
        "2",
        "--officer",
        "captain",
        "--json",
    ]);
    assert_eq!(v["target"], 10);
    assert!((v["p_pass"].as_f64().unwrap() - 11.0 / 12.0).abs() < 1e-12);
    let v = json_of(&[
        "odds",
        "bolt-action",
        "--weapon",
        "Medium AT gun",
        "--target",
        "Medium Tank",
        "--side",
        "--json",
    ]);
    assert_eq!(v["pen"], 6);
    probabilities_sum_to_one(&v["distributions"]["vehicle_result"]);
    probabilities_sum_to_one(&v["distributions"]["hits"]);
}

#[test]
fn belle_epoque_assault_fire_and_reactivity() {
    let v = json_of(&[
        "odds",
        "belle-epoque",
        "--assault",
        "--attacker-stands",
        "4",
        "--attacker-level",
        "choc",
        "--defender-stands",
        "3",
        "--defender-level",
        "close-regulars",
        "--json",
    ]);
    assert_eq!(v["attacker_level"], 4);
    assert_eq!(v["defender_level"], 3);
    let total = ["p_attacker_wins", "p_tie", "p_defender_wins"]
        .iter()
        .map(|k| v[k].as_f64().unwrap())
        .sum::<f64>();
    assert!((total - 1.0).abs() < 1e-12);
    let v = json_of(&[
        "odds",
        "belle-epoque",
        "--fire",
        "--troop-type",
        "c",
        "--stands",
        "4",
        "--range",
        "2",
        "--moving",
        "--json",
    ]);
    assert_eq!(v["can_fire"], false);
    let v = json_of(&[
        "odds",
        "belle-epoque",
        "--reactivity",
        "--unit",
        "British Regulars",
        "--json",
    ]);
    assert_eq!(v["p_pass_0"], 0.5);
}

/// A library in `dir` holding a copy of the book's BelloLudi Sherman (so "Sherman" names two
/// cards) and a custom "Sherman Firefly".
fn library_with_custom_shermans(dir: &Path) {
    let mut store = Store::open(dir).unwrap();
    let sherman = ruleset(RulesetId::Belloludi)
        .library()
        .iter()
        .find(|c| c.name() == "Sherman")
        .unwrap()
        .clone();
    store.save_custom_card(None, &sherman).unwrap();
    let mut firefly = sherman;
    if let quartermaster::rules::Card::Belloludi(v) = &mut firefly {
        v.name = "Sherman Firefly".into();
    }
    store.save_custom_card(None, &firefly).unwrap();
}

#[test]
fn odds_and_rolls_take_custom_cards_marked_as_custom() {
    let dir = tempfile::tempdir().unwrap();
    library_with_custom_shermans(dir.path());
    let (code, out, err) = run_in(
        dir.path(),
        &[
            "odds",
            "belloludi",
            "--shooter",
            "Sherman Firefly",
            "--target",
            "Heavy Tank",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("Sherman Firefly · custom shoots at Heavy Tank"),
        "{out}"
    );
    let (code, out, err) = run_in(
        dir.path(),
        &[
            "roll",
            "belloludi",
            "--shooter",
            "Medium Tank",
            "--target",
            "sherman firefly",
            "--seed",
            "3",
            "--json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["title"], "Medium Tank shoots at Sherman Firefly · custom");
}

#[test]
fn a_name_both_in_the_book_and_custom_is_refused_naming_both_ways_to_pick() {
    let dir = tempfile::tempdir().unwrap();
    library_with_custom_shermans(dir.path());
    let args = |shooter: &'static str| {
        [
            "odds",
            "belloludi",
            "--shooter",
            shooter,
            "--target",
            "Heavy Tank",
        ]
    };
    let (code, _, err) = run_in(dir.path(), &args("Sherman"));
    assert_eq!(code, 2);
    assert!(err.contains("--shooter"), "{err}");
    assert!(err.contains("'Sherman · book'"), "{err}");
    assert!(err.contains("'Sherman · custom'"), "{err}");
    let (code, out, _) = run_in(dir.path(), &args("Sherman · book"));
    assert_eq!(code, 0);
    assert!(out.starts_with("Sherman shoots at"), "{out}");
    let (code, out, _) = run_in(dir.path(), &args("Sherman · custom"));
    assert_eq!(code, 0);
    assert!(out.starts_with("Sherman · custom shoots at"), "{out}");
}

#[test]
fn odds_without_a_library_create_none() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = run_in(
        dir.path(),
        &[
            "odds",
            "belloludi",
            "--shooter",
            "Sherman",
            "--target",
            "Heavy Tank",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing is written to the data folder"
    );
}

#[test]
fn an_input_outside_its_description_is_refused_on_the_command_line() {
    // The spec allows 0 to 20 shots at a target.
    let err = refusal(&[
        "odds",
        "battle-of-tanks",
        "--attacker",
        "Luchs",
        "--target",
        "T-80",
        "--shots",
        "21",
    ]);
    assert!(
        err.starts_with("error: --shots: 21 given: at most 20"),
        "{err}"
    );
    let err = refusal(&[
        "odds",
        "bolt-action",
        "--weapon",
        "Rifle",
        "--damage-value",
        "4",
        "--firers",
        "0",
    ]);
    assert!(
        err.starts_with("error: --firers: 0 given: at least 1"),
        "{err}"
    );
    let err = refusal(&[
        "odds",
        "armour-battles",
        "--attacker",
        "Tiger",
        "--target",
        "M10",
        "--range",
        "far",
    ]);
    assert!(
        err.contains("--range: 'far': one of short, effective, long"),
        "{err}"
    );
    let err = refusal(&[
        "odds",
        "bolt-action",
        "--weapon",
        "Rifle",
        "--damage-value",
        "4",
        "--soft-cover",
        "--hard-cover",
    ]);
    assert!(
        err.contains("--soft-cover and --hard-cover both set target cover"),
        "{err}"
    );
    let err = refusal(&[
        "odds",
        "armour-battles",
        "--attacker",
        "Tiger",
        "--target",
        "M10",
        "--battle",
        "2",
    ]);
    assert!(
        err.contains("--battle does not apply to direct fire"),
        "{err}"
    );
}

/// A seeded roll's dice as `--dice POOL=FACES` arguments.
fn dice_args(roll: &Value) -> Vec<String> {
    roll["dice"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| !d["dice"].as_array().unwrap().is_empty())
        .flat_map(|d| {
            // A die the book prints with letters is typed as it shows (the commander die's
            // 0 for a d20's 2).
            let shown = d.get("shows").or(Some(&d["dice"]));
            let faces: Vec<String> = shown
                .and_then(Value::as_array)
                .unwrap()
                .iter()
                .map(|f| f.as_str().map_or_else(|| f.to_string(), str::to_string))
                .collect();
            [
                "--dice".to_string(),
                format!("{}={}", d["pool"].as_str().unwrap(), faces.join(",")),
            ]
        })
        .collect()
}

#[test]
fn dice_rolled_at_the_table_give_the_outcome_of_the_same_seeded_dice() {
    let situations: [&[&str]; 5] = [
        &[
            "armour-battles",
            "--attacker",
            "Panther",
            "--target",
            "M4 76mm",
            "--range",
            "short",
        ],
        &["armour-battles", "--command-dice", "1", "1"],
        &[
            "bolt-action",
            "--unit",
            "Bazooka Team",
            "--target",
            "Medium Tank",
        ],
        &["belloludi", "--command"],
        &[
            "belle-epoque",
            "--assault",
            "--attacker",
            "Zulu Warriors",
            "--defender",
            "British Regulars",
        ],
    ];
    for situation in situations {
        for seed in ["1", "2", "3"] {
            let mut seeded = vec!["roll"];
            seeded.extend_from_slice(situation);
            seeded.extend_from_slice(&["--seed", seed, "--json"]);
            let by_seed = json_of(&seeded);
            let mut table: Vec<String> = ["roll"]
                .iter()
                .chain(situation)
                .map(|s| s.to_string())
                .collect();
            table.extend(dice_args(&by_seed));
            table.push("--json".into());
            let table: Vec<&str> = table.iter().map(String::as_str).collect();
            let by_hand = json_of(&table);
            assert_eq!(by_hand["result"], by_seed["result"], "{table:?}");
            assert_eq!(by_hand["values"], by_seed["values"], "{table:?}");
            assert_eq!(by_hand["source"], "table");
            assert!(by_hand.get("seed").is_none());
            let (code, text, _) = run(&table[..table.len() - 1]);
            assert_eq!(code, 0);
            assert!(text.contains("Dice (rolled at the table):"), "{text}");
        }
    }
}

#[test]
fn dice_of_the_wrong_count_or_face_or_pool_are_refused_naming_the_pool() {
    let shot = [
        "roll",
        "bolt-action",
        "--order-test",
        "--quality",
        "regular",
    ];
    let with = |dice: &[&str]| {
        let mut args = shot.to_vec();
        for d in dice {
            args.extend_from_slice(&["--dice", d]);
        }
        refusal(&args)
    };
    assert_eq!(
        with(&["order=6"]).trim_end(),
        "error: --dice order: 1 faces given: the rules roll 2 d6 here"
    );
    assert_eq!(
        with(&["order=67"]).trim_end(),
        "error: --dice order: 7 is not a face of a d6 (1 to 6)"
    );
    let err = with(&["order=34", "orders=12"]);
    assert!(
        err.contains("--dice: orders given but not rolled: this roll asks for order"),
        "{err}"
    );
    // A double six asks for the FUBAR chart's die next.
    assert_eq!(
        with(&["order=66"]).trim_end(),
        "error: --dice fubar: no faces given: the rules roll 1 d6 here"
    );
    assert!(with(&["order=6,x"]).contains("'x' is not a die face"));
    let (code, out, err) = run(&[
        "roll",
        "bolt-action",
        "--order-test",
        "--quality",
        "regular",
        "--dice",
        "order=66",
        "--dice",
        "fubar=2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("FUBAR"), "{out}");
    // A full tie rerolls: the second round is asked for as such.
    let err = refusal(&[
        "roll",
        "armour-battles",
        "--command-dice",
        "1",
        "1",
        "--dice",
        "us=3",
        "--dice",
        "german=3",
    ]);
    assert_eq!(
        err.trim_end(),
        "error: --dice us (roll 2): no faces given: the rules roll 1 d6 here"
    );
    // Either the app rolls or the players did: not both, not neither.
    assert!(refusal(&["roll", "belloludi", "--command"]).contains("--seed"));
    assert!(
        refusal(&[
            "roll",
            "belloludi",
            "--command",
            "--seed",
            "1",
            "--dice",
            "commander=4"
        ])
        .contains("cannot be used with")
    );
}

#[test]
fn odds_help_shows_each_inputs_own_help() {
    let err = {
        let argv = ["quartermaster", "odds", "armour-battles", "--help"];
        Cli::try_parse_from(argv).unwrap_err().to_string()
    };
    assert!(
        err.contains("--target-disruption <TARGET_DISRUPTION>"),
        "{err}"
    );
    assert!(
        err.contains("Disruption Points already on the target; at 3 it is dispersed."),
        "{err}"
    );
    assert!(
        err.contains("fire (--attacker), command dice (--command-dice)"),
        "{err}"
    );
}
