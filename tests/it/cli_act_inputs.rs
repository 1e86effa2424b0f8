//! Every input of every action of every ruleset fought on a board, given out of its range, is
//! refused naming it before anything is decided or recorded: by the library's `decide`, by
//! `campaign record … act KEY --set K=V`, and by the ruleset's own subcommands (Lorraine's
//! `fire --attacker-wild -1`), each naming the flag the player typed.

use std::path::Path;

use quartermaster::campaign::{CampaignRecord, Recorder};
use quartermaster::rules::RulesetId;
use quartermaster::rules::battle::Request;
use quartermaster::rules::battle::alias::AliasFlag;
use quartermaster::rules::battle::table::{TableEngine, engine};
use quartermaster::rules::force::{Force, ForceUnit};
use quartermaster::rules::registry;
use quartermaster::rules::resolution::{InputKind, InputSpec, InputValue};
use quartermaster::store::Store;

use crate::cli_support::{qm_in, text};

/// Two small forces of each ruleset fought on a board (Armour Battles plays Lorraine).
fn forces(ruleset: RulesetId) -> Option<[&'static [&'static str]; 2]> {
    Some(match ruleset {
        RulesetId::BoltAction => [&["Regular Infantry Squad"], &["Bazooka Team"]],
        RulesetId::BelleEpoque => [&["Zulu Warriors"], &["Cavalry"]],
        RulesetId::BattleOfTanks => [&["T-34-85M"], &["Tiger I"]],
        RulesetId::Belloludi => [&["Medium Tank"], &["Heavy Tank"]],
        _ => return None,
    })
}

/// A campaign of `ruleset` named `name` in `dir`, through the binary, and its record.
fn campaign(dir: &Path, ruleset: RulesetId, name: &str) -> CampaignRecord {
    let mut line: Vec<String> = vec!["campaign".into(), "new".into()];
    match forces(ruleset) {
        None => line.extend(["lorraine".into(), "--name".into(), name.into()]),
        Some(sides) => {
            line.extend([ruleset.as_str().into(), "--name".into(), name.into()]);
            for (n, cards) in sides.iter().enumerate() {
                let mut force = Force::new(ruleset, format!("Force {n}"));
                force.units = cards.iter().map(|c| ForceUnit::library(*c, 1)).collect();
                let path = dir.join(format!("force-{n}.json"));
                std::fs::write(&path, quartermaster::rules::force_file::to_json(&force)).unwrap();
                line.extend(["--force".into(), path.to_string_lossy().into_owned()]);
            }
        }
    }
    let args: Vec<&str> = line.iter().map(String::as_str).collect();
    let out = qm_in(dir, &args);
    assert!(out.status.success(), "{ruleset}: {}", text(&out.stderr));
    let store = Store::open(dir).unwrap();
    let id = store.find_campaign(name).unwrap().unwrap();
    store.load_campaign(id).unwrap().record
}

/// Values of `spec` outside what its description allows, as the library takes them and as
/// they are typed.
fn out_of_range(spec: &InputSpec) -> Vec<(InputValue, String)> {
    match &spec.kind {
        InputKind::Count { min, max } => [min.checked_sub(1), max.checked_add(1)]
            .into_iter()
            .flatten()
            .map(|n| (InputValue::Count(n), n.to_string()))
            .collect(),
        InputKind::Number { min, max } => [min - 1.0, max + 1.0]
            .into_iter()
            .map(|x| (InputValue::Number(x), x.to_string()))
            .collect(),
        InputKind::Choice(_) => vec![(
            InputValue::Choice("no-such-choice"),
            "no-such-choice".into(),
        )],
        // A switch given a count (the library) or a word that is neither on nor off.
        InputKind::Toggle => vec![(InputValue::Count(2), "maybe".into())],
        InputKind::Card { .. } | InputKind::CardList { .. } => vec![],
    }
}

/// Every (action, input) of an engine, with the engine's description of the input.
fn inputs(engine: &TableEngine) -> Vec<(&'static str, InputSpec)> {
    engine
        .keys
        .iter()
        .flat_map(|&key| {
            (engine.params)(key)
                .into_iter()
                .map(move |spec| (key, spec))
        })
        .collect()
}

fn refused(dir: &Path, args: &[String], flag: &str) {
    let line: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = qm_in(dir, &line);
    let said = text(&out.stderr);
    assert!(!out.status.success(), "{args:?} was accepted");
    assert!(
        said.contains(flag),
        "{args:?}: the refusal names {flag}: {said}"
    );
}

#[test]
fn an_input_out_of_range_is_refused_naming_it_in_decide_and_on_the_command_line() {
    let mut swept = 0;
    for ruleset in registry::all_rulesets() {
        let Some(engine) = engine(ruleset.id()).ok() else {
            continue;
        };
        let here = tempfile::tempdir().unwrap();
        let dir = here.path();
        let name = format!("{} inputs", ruleset.id().as_str());
        let record = campaign(dir, ruleset.id(), &name);
        let battle = ["campaign", "record", &name, "--battle", "1", "act"].map(String::from);
        for (action, spec) in inputs(&engine) {
            for (value, typed) in out_of_range(&spec) {
                swept += 1;
                let request = Request::new(action).with(spec.key, value);
                let decided = record.decide(0, &request, &Recorder::default());
                let Err(error) = decided else {
                    panic!(
                        "{}: {action} {}={typed} was decided",
                        ruleset.id(),
                        spec.key
                    )
                };
                assert!(
                    error.to_string().contains(spec.key),
                    "{action} {}={typed}: {error}",
                    spec.key
                );
                let mut line = battle.to_vec();
                line.extend([
                    action.into(),
                    "--set".into(),
                    format!("{}={typed}", spec.key),
                ]);
                refused(dir, &line, &format!("--set {}", spec.key));
            }
        }
        assert_eq!(
            record_of(dir, &name).event_count(),
            0,
            "{}: nothing was recorded",
            ruleset.id()
        );
    }
    assert!(swept > 50, "{swept} values swept");
}

/// Each alias flag that sets a counted parameter, and each counted situation flag of an
/// alias's mechanic, given one below its least: refused naming the flag.
#[test]
fn an_alias_flag_out_of_range_is_refused_naming_the_flag() {
    let here = tempfile::tempdir().unwrap();
    let dir = here.path();
    let record = campaign(dir, RulesetId::ArmourBattles, "Lorraine");
    let engine = engine(RulesetId::ArmourBattles).unwrap();
    let mut swept = Vec::new();
    for alias in engine.aliases {
        let params = (engine.params)(alias.action);
        let mut flags: Vec<(String, &InputSpec)> = alias
            .flags
            .iter()
            .filter_map(|(flag, what)| match what {
                AliasFlag::Param(key) => params
                    .iter()
                    .find(|s| s.key == *key)
                    .map(|s| ((*flag).to_string(), s)),
                _ => None,
            })
            .collect();
        if let Some(mechanic) = alias.mechanic {
            flags.extend(
                params
                    .iter()
                    .filter(|s| !mechanic.without.contains(&s.key))
                    .map(|s| (s.key.replace('_', "-"), s)),
            );
        }
        for (flag, spec) in flags {
            let InputKind::Count { min, .. } = spec.kind else {
                continue;
            };
            let mut line: Vec<String> = ["campaign", "record", "Lorraine", "--battle", "1"]
                .map(String::from)
                .to_vec();
            line.push(alias.name.into());
            line.push(format!("--{flag}={}", min - 1));
            // The alias's required unit flags, named by id: the value is refused first.
            for (other, what) in alias.flags {
                let unit = match what {
                    AliasFlag::Unit | AliasFlag::Group => "us-1",
                    AliasFlag::Target => "german-1",
                    AliasFlag::Side => "us",
                    _ => continue,
                };
                line.extend([format!("--{other}"), unit.into()]);
            }
            refused(dir, &line, &format!("--{flag}"));
            swept.push(format!("{} --{flag}", alias.name));
        }
    }
    assert!(
        swept.contains(&"fire --attacker-wild".to_string()),
        "{swept:?}"
    );
    assert_eq!(
        record_of(dir, "Lorraine").event_count(),
        record.event_count()
    );
}

fn record_of(dir: &Path, name: &str) -> CampaignRecord {
    let store = Store::open(dir).unwrap();
    let id = store.find_campaign(name).unwrap().unwrap();
    store.load_campaign(id).unwrap().record
}
