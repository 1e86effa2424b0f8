//! `quartermaster odds|roll RULESET …`: exact odds and seeded rolls for the five rulesets.
//!
//! One file per ruleset maps its flags to the rules' inputs and writes the answer; this module
//! holds what they share (card lookup, the flag named in an error, distributions and dice
//! records as text and JSON, the house defaults added to every JSON answer).
//!
//! Thin wrappers: arguments become the `rules::<ruleset>::resolve` inputs, results become text
//! or JSON. Card names are looked up in the library (any case); an unknown name is a one-line
//! error with the nearest names (exit 2). A situation the rules answer with "no fire" (out of
//! sight, no to-hit number) is a result, printed with `can_fire: false` (exit 0).

use std::io::Write;

use anyhow::{Result, anyhow, bail};
use clap::{ArgGroup, Args, Subcommand, ValueEnum};
use serde::Serialize;
use serde_json::{Map, Value, json};

mod armour_battles;
mod battle_of_tanks;
mod belle_epoque;
mod belloludi;
mod bolt_action;

use super::{EXIT_OK, print_json};

use crate::rules::battle_of_tanks::{TankCard, resolve as bot};
use crate::rules::belle_epoque::{self as belle_rules, resolve as be};
use crate::rules::belloludi::{self as belloludi_rules, Vehicle, resolve as bl};
use crate::rules::bolt_action::{self as bolt_rules, Quality, Weapon, resolve as ba};
use crate::rules::dice::{Dist, RollRecord, Roller};
use crate::rules::words::{amount, percent};
use crate::rules::{Card, RulesetId, names, ruleset};
pub use armour_battles::{OddsArgs, RollArgs};
pub use armour_battles::{
    run_odds as run_armour_battles_odds, run_roll as run_armour_battles_roll,
};
use battle_of_tanks::*;
use belle_epoque::*;
use belloludi::*;
use bolt_action::*;

/// `quartermaster odds RULESET …` for the four smaller rulesets.
#[derive(Debug, Subcommand)]
pub enum OddsOthers {
    /// BelloLudi Tanks!: one shot (default), --command or --crash.
    Belloludi(BelloludiArgs),
    /// Battle of Tanks: a fire order (default), --repair or --spotting.
    BattleOfTanks(BattleOfTanksArgs),
    /// Bolt Action: a shooting attack (default) or --order-test.
    BoltAction(BoltActionArgs),
    /// Belle Epoque: --command-points, --reactivity, --fire or --assault.
    BelleEpoque(BelleEpoqueArgs),
}

/// `quartermaster roll RULESET … --seed N` for the four smaller rulesets.
#[derive(Debug, Subcommand)]
pub enum RollOthers {
    /// BelloLudi Tanks!: one shot (default), --command or --crash.
    Belloludi(Seeded<BelloludiArgs>),
    /// Battle of Tanks: a fire order (default), --repair or --spotting.
    BattleOfTanks(Seeded<BattleOfTanksArgs>),
    /// Bolt Action: a shooting attack (default) or --order-test.
    BoltAction(Seeded<BoltActionArgs>),
    /// Belle Epoque: --command-points, --reactivity, --fire or --assault.
    BelleEpoque(Seeded<BelleEpoqueArgs>),
}

/// A ruleset's arguments plus the seed of the roll.
#[derive(Debug, Args)]
pub struct Seeded<T: Args> {
    #[command(flatten)]
    pub args: T,
    /// Seed of the roll: the same seed and arguments give the same dice.
    #[arg(long, value_name = "N")]
    pub seed: u64,
}

/// Prints exact odds; returns the exit code.
pub fn run_odds_others(command: OddsOthers, out: &mut dyn Write) -> Result<u8> {
    run_odds_inner(command, out).map_err(name_the_flag)
}

/// Rolls the dice from `--seed` and prints every die and the result; returns the exit code.
pub fn run_roll_others(command: RollOthers, out: &mut dyn Write) -> Result<u8> {
    run_roll_inner(command, out).map_err(name_the_flag)
}

/// The flag a user typed for a rules input the rules call `field`.
pub(super) fn flag_for(field: &str) -> String {
    match field {
        "hull-down turret shot" => "--hull-down".to_string(),
        "remaining armour" => "--target-armour".to_string(),
        "targets" => "--target".to_string(),
        "distance_inches" => "--distance".to_string(),
        "attacker_move" => "--move".to_string(),
        other => format!("--{}", other.replace([' ', '_'], "-")),
    }
}

/// An invalid input reported by the rules, re-worded to name the flag the user typed
/// ("--ambush: …" rather than "ambush: …").
fn name_the_flag(error: anyhow::Error) -> anyhow::Error {
    let invalid = error
        .downcast_ref::<bot::ResolveError>()
        .and_then(|e| match e {
            bot::ResolveError::Invalid { field, message } => Some((*field, message)),
            _ => None,
        })
        .or_else(|| match error.downcast_ref::<be::ResolveError>() {
            Some(be::ResolveError::Invalid { field, message }) => Some((*field, message)),
            _ => None,
        })
        .or_else(|| match error.downcast_ref::<ba::ResolveError>() {
            Some(ba::ResolveError::Invalid { field, message }) => Some((*field, message)),
            _ => None,
        })
        .or_else(|| match error.downcast_ref::<bl::ResolveError>() {
            Some(bl::ResolveError::Invalid { field, message }) => Some((*field, message)),
            _ => None,
        });
    match invalid {
        Some((field, message)) => anyhow!("{}: {message}", flag_for(field)),
        None => error,
    }
}

fn run_odds_inner(command: OddsOthers, out: &mut dyn Write) -> Result<u8> {
    match command {
        OddsOthers::Belloludi(args) => belloludi_odds(&args, out),
        OddsOthers::BattleOfTanks(args) => battle_of_tanks_odds(&args, out),
        OddsOthers::BoltAction(args) => bolt_action_odds(&args, out),
        OddsOthers::BelleEpoque(args) => belle_epoque_odds(&args, out),
    }
}

fn run_roll_inner(command: RollOthers, out: &mut dyn Write) -> Result<u8> {
    match command {
        RollOthers::Belloludi(s) => belloludi_roll(&s.args, &mut Roller::new(s.seed), out),
        RollOthers::BattleOfTanks(s) => {
            battle_of_tanks_roll(&s.args, &mut Roller::new(s.seed), out)
        }
        RollOthers::BoltAction(s) => bolt_action_roll(&s.args, &mut Roller::new(s.seed), out),
        RollOthers::BelleEpoque(s) => belle_epoque_roll(&s.args, &mut Roller::new(s.seed), out),
    }
}

// ---------------------------------------------------------------------------------------
// Shared output helpers
// ---------------------------------------------------------------------------------------

/// The library card answering to `query`, or a one-line error naming the nearest cards.
fn find_card(id: RulesetId, flag: &str, query: &str) -> Result<&'static Card> {
    let library = ruleset(id).library();
    names::find(library, query).ok_or_else(|| {
        let nearest = names::nearest(library, query);
        anyhow!(
            "{flag}: {}",
            unknown_name(&format!("{} card", id.title()), query, &nearest)
        )
    })
}

/// "no weapon named 'X' — did you mean 'A', 'B'?"
fn unknown_name(what: &str, query: &str, nearest: &[String]) -> String {
    let mut message = format!("no {what} named '{query}'");
    if !nearest.is_empty() {
        let quoted: Vec<String> = nearest.iter().map(|n| format!("'{n}'")).collect();
        message.push_str(&format!(" — did you mean {}?", quoted.join(", ")));
    }
    message
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// "1/6" for small exact fractions, nothing when the numbers get unreadable.
fn fraction(weight: u128, total: u128) -> String {
    let g = gcd(weight, total).max(1);
    let (w, t) = (weight / g, total / g);
    if t <= 1_000_000 {
        format!("  ({w}/{t})")
    } else {
        String::new()
    }
}

/// Writes a distribution as an indented table under `title`.
fn write_dist<K: Ord>(
    out: &mut dyn Write,
    title: &str,
    dist: &Dist<K>,
    label: impl Fn(&K) -> String,
) -> Result<()> {
    writeln!(out, "{title}")?;
    for (k, w) in dist.iter() {
        let p = w as f64 / dist.total() as f64;
        writeln!(
            out,
            "  {:<32} {:>8}{}",
            label(k),
            percent(p),
            fraction(w, dist.total())
        )?;
    }
    Ok(())
}

/// Writes `label: probability` on one line.
fn write_p(out: &mut dyn Write, label: &str, p: f64) -> Result<()> {
    writeln!(out, "{label:<34} {:>8}", percent(p))?;
    Ok(())
}

/// A distribution as JSON: `{"total": "…", "outcomes": [{…key fields…, "weight": "…",
/// "probability": p}]}`. Weights are exact integers written as strings (they can exceed 64
/// bits); a key that serialises to an object has its fields inlined, anything else goes
/// under `key`.
pub(super) fn dist_json<K: Ord + Serialize>(dist: &Dist<K>, key: &str) -> Value {
    let outcomes: Vec<Value> = dist
        .iter()
        .map(|(k, w)| {
            let mut entry = match serde_json::to_value(k).unwrap_or(Value::Null) {
                Value::Object(map) => map,
                other => {
                    let mut map = Map::new();
                    map.insert(key.to_string(), other);
                    map
                }
            };
            entry.insert("weight".into(), Value::String(w.to_string()));
            entry.insert("probability".into(), json!(w as f64 / dist.total() as f64));
            Value::Object(entry)
        })
        .collect();
    json!({ "total": dist.total().to_string(), "outcomes": outcomes })
}

/// One roll record as a line: "to hit: d6 [4, 2] (roll 0 of seed 7)".
fn write_record(out: &mut dyn Write, label: &str, record: &RollRecord) -> Result<()> {
    let faces: Vec<String> = record.dice.iter().map(u8::to_string).collect();
    writeln!(
        out,
        "{label:<16} {}×d{} [{}]  (roll {} of seed {})",
        record.dice.len(),
        record.sides,
        faces.join(", "),
        record.index,
        record.seed
    )?;
    Ok(())
}

/// Prints `value` as JSON, or calls `text` to write the human form.
fn emit(
    json_wanted: bool,
    out: &mut dyn Write,
    value: impl FnOnce() -> Value,
    text: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<u8> {
    if json_wanted {
        print_json(out, &with_house_defaults(value()))?;
    } else {
        text(out)?;
    }
    Ok(EXIT_OK)
}

/// Adds the house defaults the answer's ruleset and mechanic rest on (RULINGS, in words).
fn with_house_defaults(mut value: Value) -> Value {
    if let Value::Object(map) = &mut value {
        let ruleset = map
            .get("ruleset")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let mechanic = map
            .get("mechanic")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let defaults = match ruleset.parse::<RulesetId>() {
            Ok(RulesetId::Belloludi) => belloludi_rules::rulings::for_mechanic(mechanic),
            Ok(RulesetId::BattleOfTanks) => {
                crate::rules::battle_of_tanks::rulings::for_mechanic(mechanic)
            }
            Ok(RulesetId::BoltAction) => bolt_rules::rulings::for_mechanic(mechanic),
            Ok(RulesetId::BelleEpoque) => belle_rules::rulings::for_mechanic(mechanic),
            _ => &[],
        };
        map.insert("house_defaults".into(), json!(defaults));
    }
    value
}

/// "No fire" as a result rather than an error: the situation is legal, the answer is none.
fn no_fire(out: &mut dyn Write, json_wanted: bool, ruleset: RulesetId, reason: &str) -> Result<u8> {
    emit(
        json_wanted,
        out,
        || json!({ "ruleset": ruleset.as_str(), "mechanic": "fire", "can_fire": false, "reason": reason }),
        |out| {
            writeln!(out, "{reason}")?;
            Ok(())
        },
    )
}

/// Adds `"ruleset"` and `"mechanic"` to a roll's own JSON.
fn roll_json(ruleset: RulesetId, mechanic: &str, roll: &impl Serialize) -> Value {
    let mut value = serde_json::to_value(roll).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        map.insert("ruleset".into(), json!(ruleset.as_str()));
        map.insert("mechanic".into(), json!(mechanic));
    }
    value
}

#[cfg(test)]
mod tests {
    //! The commands run in-process through a stand-in parser shaped like the real one.

    use clap::{CommandFactory, Parser};

    use super::*;

    #[derive(Debug, Parser)]
    struct TestCli {
        #[command(subcommand)]
        command: TestCommand,
    }

    #[derive(Debug, Subcommand)]
    enum TestCommand {
        #[command(subcommand)]
        Odds(OddsOthers),
        #[command(subcommand)]
        Roll(RollOthers),
    }

    /// Runs `quartermaster ARGS…`; returns the exit code (or error) and stdout.
    fn run(args: &[&str]) -> (Result<u8>, String) {
        let argv = std::iter::once("quartermaster").chain(args.iter().copied());
        let cli = TestCli::try_parse_from(argv).unwrap();
        let mut out = Vec::new();
        let code = match cli.command {
            TestCommand::Odds(c) => run_odds_others(c, &mut out),
            TestCommand::Roll(c) => run_roll_others(c, &mut out),
        };
        (code, String::from_utf8(out).unwrap())
    }

    fn run_json(args: &[&str]) -> Value {
        let (code, out) = run(args);
        assert_eq!(code.unwrap(), EXIT_OK, "{args:?}");
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
    fn the_arguments_are_consistent() {
        TestCli::command().debug_assert();
    }

    #[test]
    fn belloludi_shooting_odds() {
        let v = run_json(&[
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
        probabilities_sum_to_one(&v["state_after"]);
        probabilities_sum_to_one(&v["damage_on_hit"]);
        let (code, text) = run(&["odds", "belloludi", "--command"]);
        assert_eq!(code.unwrap(), EXIT_OK);
        assert!(text.contains("Charge!"), "{text}");
    }

    #[test]
    fn unknown_names_are_one_line_errors_with_suggestions() {
        let (code, _) = run(&[
            "odds",
            "belloludi",
            "--shooter",
            "Medum Tank",
            "--target",
            "Heavy Tank",
        ]);
        let message = format!("{:#}", code.unwrap_err());
        assert_eq!(
            message,
            "--shooter: no BelloLudi Tanks! card named 'Medum Tank' — did you mean 'Medium Tank'?"
        );
        let (code, _) = run(&[
            "odds",
            "bolt-action",
            "--weapon",
            "Rifel",
            "--damage-value",
            "4",
        ]);
        assert!(format!("{:#}", code.unwrap_err()).contains("did you mean 'Rifle'"));
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
        let a = run_json(&args);
        assert_eq!(a, run_json(&args));
        assert_eq!(a["seed"], 11);
        let volley = &a["volleys"][0];
        assert_eq!(volley["to_hit"]["dice"].as_array().unwrap().len(), 10);
        assert_eq!(volley["to_hit"]["seed"], 11);
        let b = run_json(&[
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
        assert_eq!(b["attacker_dice"]["dice"].as_array().unwrap().len(), 4);
        assert_eq!(b["defender_dice"]["dice"].as_array().unwrap().len(), 3);
    }

    #[test]
    fn battle_of_tanks_fire_and_sight() {
        let v = run_json(&[
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
        let target = &v["targets"][0];
        assert_eq!(target["need"], 6);
        assert_eq!(target["shots"], 1);
        probabilities_sum_to_one(&target["damage"]);
        let v = run_json(&[
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
        let (code, _) = run(&[
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
            format!("{:#}", code.unwrap_err()),
            "--shots: 3 shots: Tiger I has a fire rate of 2"
        );
    }

    #[test]
    fn bolt_action_order_test_and_shooting() {
        let v = run_json(&[
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
        let v = run_json(&[
            "odds",
            "bolt-action",
            "--weapon",
            "Medium AT gun",
            "--target",
            "Medium Tank",
            "--side",
            "--json",
        ]);
        assert_eq!(v["numbers"]["pen"], 6);
        probabilities_sum_to_one(&v["vehicle_result"]);
        probabilities_sum_to_one(&v["hits"]);
    }

    #[test]
    fn belle_epoque_assault_fire_and_reactivity() {
        let v = run_json(&[
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
        let v = run_json(&[
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
        let v = run_json(&[
            "odds",
            "belle-epoque",
            "--reactivity",
            "--unit",
            "British Regulars",
            "--json",
        ]);
        assert_eq!(v["p_pass_by_cps"][0]["p_pass"], 0.5);
    }
}
