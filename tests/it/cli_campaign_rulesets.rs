//! A three-battle campaign of every ruleset fought on a board, through the real binary:
//! `campaign new <ruleset> --force F --force G`, every action with `campaign record act` —
//! the app's dice in the first battles, dice rolled at the table in the last — and `campaign
//! next` between battles. The campaign is exported, imported elsewhere (where every event is
//! decided again) and must show the same roster and result; its after-action report has a page
//! for every battle.
//!
//! Which action comes next is the ruleset's scripted player's choice (read through the
//! library); the test only spells it as the command line does.

use std::path::Path;
use std::process::Output;

use quartermaster::campaign::{BattlePlan, CampaignRecord};
use quartermaster::rules::RulesetId;
use quartermaster::rules::battle::table::engine;
use quartermaster::rules::battle::{Request, Side};
use quartermaster::rules::dice::TableDice;
use quartermaster::rules::force::{Force, ForceUnit};
use quartermaster::rules::resolution::InputValue;
use quartermaster::store::Store;
use serde_json::Value;

fn qm(dir: &Path, args: &[String]) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    crate::cli_support::qm_in(dir, &args)
}

fn ok(dir: &Path, args: &[String]) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    crate::cli_support::ok_in(dir, &args)
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_string()).collect()
}

fn write_force(dir: &Path, ruleset: RulesetId, name: &str, cards: &[&str]) -> String {
    let mut force = Force::new(ruleset, name);
    force.units = cards.iter().map(|c| ForceUnit::library(*c, 1)).collect();
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, quartermaster::rules::force_file::to_json(&force)).unwrap();
    path.to_string_lossy().into_owned()
}

fn record_of(dir: &Path, name: &str) -> CampaignRecord {
    let store = Store::open(dir).unwrap();
    let id = store.find_campaign(name).unwrap().unwrap();
    store.load_campaign(id).unwrap().record
}

/// The command line of `request`: `act KEY --side … --unit … --target … --set K=V`.
fn act_args(name: &str, battle: usize, request: &Request, ruleset: RulesetId) -> Vec<String> {
    let mut line = args(&["campaign", "record", name, "--battle"]);
    line.push(battle.to_string());
    line.push("act".into());
    line.push(request.action.into());
    if let Some(side) = request.side {
        line.push("--side".into());
        line.push(
            if side == Side::First {
                "first"
            } else {
                "second"
            }
            .into(),
        );
    }
    for (flag, id) in [("--unit", &request.unit), ("--target", &request.target)] {
        if let Some(id) = id {
            line.push(flag.into());
            line.push(id.clone());
        }
    }
    let own = (engine(ruleset).unwrap().params)(request.action);
    for (key, value) in request.inputs.iter() {
        if !own.iter().any(|s| s.key == key) {
            continue;
        }
        let text = match value {
            InputValue::Flag(on) => on.to_string(),
            InputValue::Choice(choice) => (*choice).to_string(),
            InputValue::Count(n) => n.to_string(),
            InputValue::Number(x) => x.to_string(),
            InputValue::Card(_) | InputValue::CardList(_) => continue,
        };
        line.push("--set".into());
        line.push(format!("{key}={text}"));
    }
    line
}

/// Faces "rolled at the table" for every pool `request` asks, as `--dice POOL=FACES`: the
/// pools are asked one after another, each answered as it comes.
fn table_dice(
    record: &CampaignRecord,
    index: usize,
    request: &Request,
    turn: usize,
) -> Vec<String> {
    let mut given = TableDice::new();
    let mut flags = Vec::new();
    for round in 0..20 {
        let (asked, answer) = record.table_pools(index, request, &given).unwrap();
        if answer.is_ok() {
            return flags;
        }
        let done: usize = flags.len();
        let Some(next) = asked.get(done) else {
            panic!("{request:?}: no pool to answer: {:?}", answer.err());
        };
        let faces: Vec<u8> = (0..next.count)
            .map(|i| ((turn + round + i as usize * 3) % usize::from(next.sides)) as u8 + 1)
            .collect();
        given.add(next.pool, faces.clone());
        let text: Vec<String> = faces.iter().map(u8::to_string).collect();
        flags.push(format!("{}={}", next.pool, text.join(",")));
    }
    panic!("{request:?} asked for more than 20 pools");
}

/// Plays battle `number` to its end; `at_table` rolls every die at the table.
fn play(dir: &Path, name: &str, ruleset: RulesetId, number: usize, at_table: bool) {
    for step in 0..600 {
        let record = record_of(dir, name);
        let index = number - 1;
        let Some(BattlePlan::Table(plan)) = record.campaign.battles.get(index).map(|p| &**p) else {
            panic!("battle {number} is not a board battle");
        };
        let board = record.board(index).unwrap();
        if board.outcome.is_some() {
            return;
        }
        let request = (engine(ruleset).unwrap().scripted)(plan, &board)
            .unwrap_or_else(|| panic!("{ruleset}: the scripted player stopped before the end"));
        let mut line = act_args(name, number, &request, ruleset);
        if at_table {
            for faces in table_dice(&record, index, &request, step) {
                line.push("--dice".into());
                line.push(faces);
            }
        }
        ok(dir, &line);
    }
    panic!("{ruleset}: battle {number} did not end in 600 actions");
}

fn campaign_of_three(ruleset: RulesetId, first: &[&str], second: &[&str]) {
    let here = tempfile::tempdir().unwrap();
    let dir = here.path();
    let f = write_force(dir, ruleset, "Red force", first);
    let g = write_force(dir, ruleset, "Blue force", second);
    let name = format!("{} league", ruleset.as_str());
    let created = ok(
        dir,
        &args(&[
            "campaign",
            "new",
            ruleset.as_str(),
            "--name",
            &name,
            "--force",
            &f,
            "--force",
            &g,
            "--first",
            "Ann",
            "--second",
            "Bob",
        ]),
    );
    assert!(created.contains("Battle 1"), "{created}");
    for number in 1..=3 {
        play(dir, &name, ruleset, number, number == 3);
        if number < 3 {
            // A side the battle wiped out buys a replacement (the only way it fields again).
            let record = record_of(dir, &name);
            let board = record.board(number - 1).unwrap();
            let mut line = args(&["campaign", "next", &name]);
            for (side, word, card) in [
                (Side::First, "first", first[0]),
                (Side::Second, "second", second[0]),
            ] {
                if number == 1 && side == Side::First
                    || board.side_units(side).all(|u| !u.in_play())
                {
                    line.push("--reinforce".into());
                    line.push(format!("{word}={card}@50"));
                }
            }
            let next = ok(dir, &line);
            assert!(next.contains(&format!("Battle {}", number + 1)), "{next}");
            if number == 1 {
                assert!(next.contains("joins as a replacement"), "{next}");
            }
        }
    }
    let record = record_of(dir, &name);
    assert_eq!(record.campaign.battles.len(), 3);
    // Units lost for good in a battle are not in the next; the others come with what they carry.
    for index in 1..3 {
        let (Some(BattlePlan::Table(before)), Some(BattlePlan::Table(after))) = (
            record.campaign.battles.get(index - 1).map(|p| &**p),
            record.campaign.battles.get(index).map(|p| &**p),
        ) else {
            panic!("board battles");
        };
        let board = record.board(index - 1).unwrap();
        for unit in after.units.first.iter().chain(&after.units.second) {
            match (board.unit(&unit.id), before.unit(&unit.id)) {
                (Some(was), Some(_)) => {
                    assert!(was.in_play(), "{} was lost and came back", unit.label);
                }
                // A replacement: new to the roster, at its card's price where the ruleset
                // prices cards, else at the points given.
                (None, None) => {
                    let priced = quartermaster::rules::ruleset(ruleset)
                        .unit_cost(&unit.card)
                        .map_or(50, |c| i64::try_from(c.amount).unwrap());
                    assert_eq!(unit.counters.get("cost"), Some(&priced), "{}", unit.label);
                }
                _ => panic!("{} is neither carried nor bought", unit.label),
            }
        }
    }
    let result = record.result();
    assert!(result.finished, "{}", result.summary);
    // The winner in the side's own words, never the Lorraine sides'.
    if let Some(leader) = result.leader {
        let own = if leader == Side::First { "Ann" } else { "Bob" };
        assert!(result.summary.starts_with(own), "{}", result.summary);
    }
    assert!(!result.summary.contains("US") && !result.summary.contains("German"));
    // The table's dice are marked so in the log.
    let rolled = record.logs[2].iter().find(|e| !e.event.rolls().is_empty());
    let rolled = rolled.unwrap_or_else(|| {
        panic!(
            "battle 3 rolled nothing: {}",
            ok(dir, &args(&["campaign", "show", &name, "--log"]))
        )
    });
    let events =
        quartermaster::campaign::describe::describe(&rolled.event, &record.campaign.battles[2]);
    assert!(events.contains("rolled at the table"), "{events}");

    let file = dir.join("campaign.json");
    ok(
        dir,
        &args(&[
            "campaign",
            "export",
            &name,
            "--out",
            &file.to_string_lossy(),
        ]),
    );
    let pdf = dir.join("campaign.pdf");
    ok(
        dir,
        &args(&["campaign", "export", &name, "--out", &pdf.to_string_lossy()]),
    );
    let elsewhere = tempfile::tempdir().unwrap();
    ok(
        elsewhere.path(),
        &args(&["campaign", "import", &file.to_string_lossy()]),
    );
    let mine: Value =
        serde_json::from_str(&ok(dir, &args(&["campaign", "show", &name, "--json"]))).unwrap();
    let theirs: Value = serde_json::from_str(&ok(
        elsewhere.path(),
        &args(&["campaign", "show", &name, "--json"]),
    ))
    .unwrap();
    for key in ["battles", "result", "players", "ruleset"] {
        assert_eq!(mine[key], theirs[key], "{key} differs after the import");
    }
    // An imported event whose effect was forged is refused.
    let text = std::fs::read_to_string(&file).unwrap();
    let forged = text.replacen("\"by\": 1", "\"by\": 9", 1);
    if forged != text {
        let bad = dir.join("forged.json");
        std::fs::write(&bad, forged).unwrap();
        let refused = qm(
            elsewhere.path(),
            &args(&[
                "campaign",
                "import",
                &bad.to_string_lossy(),
                "--name",
                "Forged",
            ]),
        );
        assert!(!refused.status.success(), "a forged effect was imported");
    }
    // The after-action report: a page that starts with each battle's title.
    assert_every_battle_has_a_page(&record);
    assert!(std::fs::metadata(&pdf).unwrap().len() > 1000);
}

#[test]
fn a_bolt_action_campaign_of_three_battles() {
    campaign_of_three(
        RulesetId::BoltAction,
        &["Regular Infantry Squad", "MMG Team"],
        &["Regular Infantry Squad", "Bazooka Team"],
    );
}

#[test]
fn a_belle_epoque_campaign_of_three_battles() {
    campaign_of_three(
        RulesetId::BelleEpoque,
        &["Zulu Warriors", "Militia Infantry"],
        &["Regular Infantry (close order)", "Cavalry"],
    );
}

#[test]
fn a_battle_of_tanks_campaign_of_three_battles() {
    campaign_of_three(
        RulesetId::BattleOfTanks,
        &["T-34-85M", "T-34-85M"],
        &["Tiger I", "Pz.Kpfw. II Luchs"],
    );
}

#[test]
fn a_belloludi_campaign_of_three_battles() {
    campaign_of_three(
        RulesetId::Belloludi,
        &["Medium Tank", "Light Tank"],
        &["Heavy Tank", "Medium Tank"],
    );
}

/// The command line of a Lorraine tracker request, as `campaign record` spells its actions.
fn lorraine_args(name: &str, battle: usize, request: &Request) -> Vec<String> {
    use quartermaster::rules::armour_battles::battle::actions::{key, param};
    let mut line = args(&["campaign", "record", name, "--battle"]);
    line.push(battle.to_string());
    let count = |k: &str| match request.inputs.get(k) {
        Some(InputValue::Count(n)) => n.to_string(),
        other => panic!("{k}: {other:?}"),
    };
    let side = |s: Option<Side>| {
        if s == Some(Side::First) {
            "us"
        } else {
            "german"
        }
    };
    let words: Vec<String> = match request.action {
        key::ROLL_COMMAND => vec!["command".into()],
        key::END_TURN => vec!["end-turn".into()],
        key::COMMIT_RESERVES => vec![
            "commit".into(),
            "--company".into(),
            request.unit.clone().unwrap(),
        ],
        key::FIRE => vec![
            "fire".into(),
            "--attacker".into(),
            request.unit.clone().unwrap(),
            "--target".into(),
            request.target.clone().unwrap(),
        ],
        key::USE_CHAIN => vec![
            "chain".into(),
            "--side".into(),
            side(request.side).into(),
            "--face".into(),
            count(param::FACE),
            "--dice".into(),
            count(param::DICE),
            "--on".into(),
            "orders".into(),
        ],
        other => panic!("the scripted player asked for {other}"),
    };
    line.extend(words);
    line
}

#[test]
fn a_lorraine_campaign_of_three_battles() {
    let here = tempfile::tempdir().unwrap();
    let dir = here.path();
    let name = "Lorraine league";
    ok(
        dir,
        &args(&[
            "campaign", "new", "lorraine", "--name", name, "--us", "Ann", "--german", "Bob",
        ]),
    );
    for number in 1..=3 {
        let index = number - 1;
        let mut ended = false;
        for step in 0..2000 {
            let record = record_of(dir, name);
            let plan = record.table_plan(index).expect("a Lorraine battle");
            let board = record.board(index).unwrap();
            let scripted = engine(RulesetId::ArmourBattles).unwrap().scripted;
            let Some(request) = scripted(&plan, &board) else {
                ended = true;
                break;
            };
            let mut line = lorraine_args(name, number, &request);
            if number == 3 {
                for faces in table_dice(&record, index, &request, step) {
                    line.push("--dice".into());
                    line.push(faces);
                }
            }
            ok(dir, &line);
        }
        assert!(ended, "battle {number} did not end");
    }
    let record = record_of(dir, name);
    let result = record.result();
    assert!(result.finished, "{}", result.summary);
    assert!(
        record.logs[2]
            .iter()
            .any(|e| quartermaster::campaign::describe::describe(
                &e.event,
                &record.campaign.battles[2]
            )
            .contains("rolled at the table")),
        "battle 3's dice were typed at the table"
    );
    let file = dir.join("lorraine.json");
    ok(
        dir,
        &args(&["campaign", "export", name, "--out", &file.to_string_lossy()]),
    );
    let elsewhere = tempfile::tempdir().unwrap();
    ok(
        elsewhere.path(),
        &args(&["campaign", "import", &file.to_string_lossy()]),
    );
    let mine: Value =
        serde_json::from_str(&ok(dir, &args(&["campaign", "show", name, "--json"]))).unwrap();
    let theirs: Value = serde_json::from_str(&ok(
        elsewhere.path(),
        &args(&["campaign", "show", name, "--json"]),
    ))
    .unwrap();
    for key in ["battles", "result", "players"] {
        assert_eq!(mine[key], theirs[key], "{key} differs after the import");
    }
    assert_every_battle_has_a_page(&record);
}

/// The after-action report has a page headed by each battle's title.
fn assert_every_battle_has_a_page(record: &CampaignRecord) {
    let layout = quartermaster::export::layout_after_action(
        record,
        "a4",
        quartermaster::export::ExportDate::today_utc().unwrap(),
        &mut |_| {},
    )
    .unwrap();
    for plan in &record.campaign.battles {
        // "Battle 1", not "Battle 1: Battle 1", for a battle named after its number.
        let title = plan.title();
        assert!(
            layout
                .pages
                .iter()
                .any(|p| p.texts().any(|t| t.text == title && t.size_pt >= 12.0)),
            "no page for {title}",
        );
    }
}

/// Dice given to an action that rolls none are refused in one sentence that says so, never
/// the garbled "act rolls  (give each …)" (issue #36).
#[test]
fn dice_given_to_an_action_that_rolls_none_are_refused_in_plain_words() {
    let here = tempfile::tempdir().unwrap();
    let dir = here.path();
    let f = write_force(
        dir,
        RulesetId::BoltAction,
        "Red",
        &["Regular Infantry Squad"],
    );
    let g = write_force(dir, RulesetId::BoltAction, "Blue", &["MMG Team"]);
    ok(
        dir,
        &args(&[
            "campaign",
            "new",
            "bolt-action",
            "--name",
            "Dice",
            "--force",
            &f,
            "--force",
            &g,
        ]),
    );
    let draw = |more: &[&str]| {
        let mut line = args(&["campaign", "record", "Dice", "--battle", "1", "act", "draw"]);
        line.extend(args(more));
        line
    };
    let refused = qm(
        dir,
        &draw(&["--set", "side=first", "--dice", "order_die=1"]),
    );
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("dice for order_die given but not rolled: this action rolls no dice"),
        "{err}"
    );
    assert!(!err.contains("rolls  ("), "{err}");
    // A draw from the bag typed as the colour that came out.
    ok(dir, &draw(&["--dice", "order_die=second"]));
    let record = record_of(dir, "Dice");
    assert_eq!(
        record.board(0).unwrap().side_count(Side::Second, "drawn"),
        1
    );
}
