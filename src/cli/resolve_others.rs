//! `quartermaster odds|roll belloludi|battle-of-tanks|bolt-action|belle-epoque …`: exact odds
//! and seeded rolls for the four smaller rulesets.
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

use super::{EXIT_OK, print_json};
use crate::rules::battle_of_tanks::{TankCard, resolve as bot};
use crate::rules::belle_epoque::{self, resolve as be};
use crate::rules::belloludi::{self, Vehicle, resolve as bl};
use crate::rules::bolt_action::{self, Quality, Weapon, resolve as ba};
use crate::rules::dice::{Dist, RollRecord, Roller};
use crate::rules::{Card, RulesetId, names, ruleset};

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
pub fn run_odds(command: OddsOthers, out: &mut dyn Write) -> Result<u8> {
    run_odds_inner(command, out).map_err(name_the_flag)
}

/// Rolls the dice from `--seed` and prints every die and the result; returns the exit code.
pub fn run_roll(command: RollOthers, out: &mut dyn Write) -> Result<u8> {
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

use crate::rules::words::{amount, percent};

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
            Ok(RulesetId::Belloludi) => belloludi::rulings::for_mechanic(mechanic),
            Ok(RulesetId::BattleOfTanks) => {
                crate::rules::battle_of_tanks::rulings::for_mechanic(mechanic)
            }
            Ok(RulesetId::BoltAction) => bolt_action::rulings::for_mechanic(mechanic),
            Ok(RulesetId::BelleEpoque) => belle_epoque::rulings::for_mechanic(mechanic),
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

// ---------------------------------------------------------------------------------------
// BelloLudi Tanks!
// ---------------------------------------------------------------------------------------

/// Arguments of `odds belloludi` / `roll belloludi`.
#[derive(Debug, Args)]
pub struct BelloludiArgs {
    /// The command roll instead of a shot: 0–3 orders or B (blunder, with its table).
    #[arg(long, conflicts_with = "crash")]
    pub command: bool,
    /// Two tanks crashing instead of a shot: --shooter and --target are the two tanks.
    #[arg(long)]
    pub crash: bool,
    /// The shooting tank (first tank in a crash); a library name, any case.
    #[arg(long, value_name = "NAME")]
    pub shooter: Option<String>,
    /// The tank shot at (second tank in a crash).
    #[arg(long, value_name = "NAME")]
    pub target: Option<String>,
    /// Armour points the target has left (default: undamaged).
    #[arg(long, value_name = "N")]
    pub target_armour: Option<u32>,
    /// Armour points the first tank has left in a crash (default: undamaged).
    #[arg(long, value_name = "N")]
    pub shooter_armour: Option<u32>,
    /// Target within close range (8″): +1.
    #[arg(long)]
    pub close: bool,
    /// Shooter disordered or shaken: −1.
    #[arg(long, alias = "shooter-disordered")]
    pub shooter_shaken: bool,
    /// Target not clear / in cover: −1.
    #[arg(long)]
    pub target_cover: bool,
    /// Target in open order: −1.
    #[arg(long)]
    pub target_open_order: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

fn belloludi_vehicle(flag: &str, name: Option<&str>) -> Result<&'static Vehicle> {
    let name = name.ok_or_else(|| anyhow!("{flag}: name a tank (e.g. {flag} \"Medium Tank\")"))?;
    match find_card(RulesetId::Belloludi, flag, name)? {
        Card::Belloludi(v) => Ok(v),
        _ => bail!("{flag}: '{name}' is not a BelloLudi vehicle"),
    }
}

fn belloludi_target<'a>(vehicle: &'a Vehicle, remaining: Option<u32>) -> Result<bl::Target<'a>> {
    Ok(match remaining {
        None => bl::Target::fresh(vehicle),
        Some(n) => bl::Target::damaged(vehicle, n)?,
    })
}

impl BelloludiArgs {
    fn situation(&self) -> bl::ShotSituation {
        bl::ShotSituation {
            close_range: self.close,
            shooter_disordered_or_shaken: self.shooter_shaken,
            target_in_cover: self.target_cover,
            target_open_order: self.target_open_order,
        }
    }

    /// The two tanks (shooter/first, target/second) with their armour left.
    fn tanks(&self) -> Result<(bl::Target<'static>, bl::Target<'static>)> {
        let first = belloludi_vehicle("--shooter", self.shooter.as_deref())?;
        let second = belloludi_vehicle("--target", self.target.as_deref())?;
        Ok((
            belloludi_target(first, self.shooter_armour)?,
            belloludi_target(second, self.target_armour)?,
        ))
    }
}

fn state_label(state: &bl::TankState) -> String {
    format!("{state:?}").to_lowercase()
}

fn command_label(outcome: &bl::CommandOutcome) -> String {
    let tables = belloludi::resolution();
    match outcome {
        bl::CommandOutcome::Orders { orders } => amount(u64::from(*orders), "orders"),
        bl::CommandOutcome::Blunder { roll, moves } => {
            let name = tables
                .and_then(|t| t.blunder(*roll))
                .map_or("?", |b| b.name.as_str());
            format!("B: {roll} {name} ({})", amount(u64::from(*moves), "moves"))
        }
    }
}

fn belloludi_odds(args: &BelloludiArgs, out: &mut dyn Write) -> Result<u8> {
    let id = RulesetId::Belloludi;
    if args.command {
        let odds = bl::command_odds()?;
        let die = bl::commander_die()?;
        return emit(
            args.json,
            out,
            || {
                json!({
                    "ruleset": id.as_str(),
                    "mechanic": "command",
                    "commander_die": dist_json(&die, "face"),
                    "outcome": dist_json(&odds, "outcome"),
                    "p_blunder": odds.probability_where(|o| matches!(o, bl::CommandOutcome::Blunder { .. })),
                })
            },
            |out| {
                writeln!(
                    out,
                    "BelloLudi Tanks! — commander die for orders (B, 0–3; a d20 reads 1–4 → 0, 5–9 → 1, 10–14 → 2, 15–19 → 3, 20 → B)"
                )?;
                write_dist(out, "Result:", &odds, command_label)
            },
        );
    }
    let (first, second) = args.tanks()?;
    if args.crash {
        let odds = bl::crash_odds(first, second)?;
        let (a, b) = (&first.vehicle.name, &second.vehicle.name);
        return emit(
            args.json,
            out,
            || {
                json!({
                    "ruleset": id.as_str(),
                    "mechanic": "crash",
                    "first": a, "second": b,
                    "hits": dist_json(&odds.hits, "hits"),
                    "first_after": dist_json(&odds.first_after, "state"),
                    "second_after": dist_json(&odds.second_after, "state"),
                })
            },
            |out| {
                writeln!(
                    out,
                    "BelloLudi Tanks! — {a} ({} armour left) crashes into {b} ({} left); each rolls a commander die and deals its number (0 or B: nothing)",
                    first.remaining, second.remaining
                )?;
                write_dist(out, &format!("{a} after:"), &odds.first_after, state_label)?;
                write_dist(out, &format!("{b} after:"), &odds.second_after, state_label)
            },
        );
    }
    let situation = args.situation();
    let odds = bl::shot_odds(first.vehicle, second, &situation)?;
    let (a, b) = (&first.vehicle.name, &second.vehicle.name);
    let at_least = |s| odds.p_at_least(s);
    emit(
        args.json,
        out,
        || {
            json!({
                "ruleset": id.as_str(),
                "mechanic": "shooting",
                "shooter": a,
                "target": b,
                "situation": situation,
                "need": odds.need,
                "commander_dice": odds.commander_dice,
                "remaining_armour": odds.remaining_before,
                "p_hit": odds.p_hit(),
                "p_bullseye": odds.p_bullseye(),
                "p_disorder": odds.p_disorder(),
                "damage_on_hit": dist_json(&odds.damage, "damage"),
                "state_after": dist_json(&odds.state_after, "state"),
                "p_shaken_or_worse": at_least(bl::TankState::Shaken),
                "p_broken_or_worse": at_least(bl::TankState::Broken),
                "p_destroyed": at_least(bl::TankState::Destroyed),
            })
        },
        |out| {
            writeln!(
                out,
                "BelloLudi Tanks! — {a} shoots at {b} ({} armour left)",
                odds.remaining_before
            )?;
            writeln!(
                out,
                "To hit: {}+ on a d6 (a 1 always misses, a 6 always hits); damage {}CD, B = bullseye",
                odds.need, odds.commander_dice
            )?;
            write_p(out, "P(hit)", odds.p_hit())?;
            write_p(out, "P(bullseye: destroyed)", odds.p_bullseye())?;
            write_p(
                out,
                "P(all dice hit: target in disorder)",
                odds.p_disorder(),
            )?;
            let damage = odds.damage.map(|d| (d.points, d.bullseye));
            write_dist(out, "Damage on a hit:", &damage, |&(points, bullseye)| {
                if bullseye {
                    format!("{points} + bullseye")
                } else {
                    points.to_string()
                }
            })?;
            write_dist(
                out,
                "Target after the shot:",
                &odds.state_after,
                state_label,
            )?;
            write_p(out, "P(shaken or worse)", at_least(bl::TankState::Shaken))?;
            write_p(out, "P(broken or worse)", at_least(bl::TankState::Broken))?;
            write_p(out, "P(destroyed)", at_least(bl::TankState::Destroyed))
        },
    )
}

fn belloludi_roll(args: &BelloludiArgs, roller: &mut Roller, out: &mut dyn Write) -> Result<u8> {
    let id = RulesetId::Belloludi;
    if args.command {
        let roll = bl::roll_command(roller)?;
        return emit(
            args.json,
            out,
            || roll_json(id, "command", &roll),
            |out| {
                write_record(out, "commander die", &roll.commander_die)?;
                if let Some(r) = &roll.blunder_die {
                    write_record(out, "blunder", r)?;
                }
                if let Some(r) = &roll.charge_die {
                    write_record(out, "charge", r)?;
                }
                writeln!(out, "Result: {}", command_label(&roll.outcome))?;
                Ok(())
            },
        );
    }
    let (first, second) = args.tanks()?;
    if args.crash {
        let roll = bl::roll_crash(first, second, roller)?;
        return emit(
            args.json,
            out,
            || roll_json(id, "crash", &roll),
            |out| {
                write_record(out, "commander dice", &roll.dice)?;
                writeln!(
                    out,
                    "{} takes {}: {} left, {}; {} takes {}: {} left, {}",
                    first.vehicle.name,
                    amount(u64::from(roll.hits.to_first), "hits"),
                    roll.first_remaining,
                    state_label(&roll.first_after),
                    second.vehicle.name,
                    amount(u64::from(roll.hits.to_second), "hits"),
                    roll.second_remaining,
                    state_label(&roll.second_after)
                )?;
                Ok(())
            },
        );
    }
    let roll = bl::roll_shot(first.vehicle, second, &args.situation(), roller)?;
    emit(
        args.json,
        out,
        || roll_json(id, "shooting", &roll),
        |out| {
            write_record(out, "to hit", &roll.to_hit)?;
            writeln!(
                out,
                "Need {}+: {}",
                roll.need,
                if roll.hit { "hit" } else { "miss" }
            )?;
            if let Some(record) = &roll.damage_dice {
                write_record(out, "commander dice", record)?;
                let faces: Vec<String> = roll.faces.iter().map(ToString::to_string).collect();
                writeln!(out, "Faces: {}", faces.join(", "))?;
            }
            writeln!(
                out,
                "{}: {} → {} armour left, {}",
                second.vehicle.name,
                roll.remaining_before,
                roll.remaining_after,
                state_label(&roll.state_after)
            )?;
            if roll.disordered {
                writeln!(out, "All dice hit: {} is in disorder", second.vehicle.name)?;
            }
            Ok(())
        },
    )
}

// ---------------------------------------------------------------------------------------
// Battle of Tanks
// ---------------------------------------------------------------------------------------

/// Arguments of `odds battle-of-tanks` / `roll battle-of-tanks`.
#[derive(Debug, Args)]
pub struct BattleOfTanksArgs {
    /// Repairing the tracks (Rückzug) instead of fire: d6 ≥ the repair value of --attacker.
    #[arg(long, conflicts_with = "spotting")]
    pub repair: bool,
    /// Spotting (Aufklärung) instead of fire: --attacker spots a target in the given cover.
    #[arg(long)]
    pub spotting: bool,
    /// The firing (or repairing, spotting) tank; a library name or short name, any case.
    #[arg(long, alias = "tank", value_name = "NAME")]
    pub attacker: Option<String>,
    /// A target; repeat it to split the fire rate (with one --shots per target).
    #[arg(long, value_name = "NAME")]
    pub target: Vec<String>,
    /// Shots at each target, in --target order (default: the whole fire rate at one target).
    #[arg(long, value_name = "N")]
    pub shots: Vec<u32>,
    /// Distance to the target in cm, checked against sight (one for all, or one per target).
    #[arg(long, value_name = "CM")]
    pub range: Vec<u32>,
    /// Hit points the target has left (one for all, or one per target; default: full).
    #[arg(long, value_name = "N")]
    pub hit_points: Vec<u32>,
    /// Firing on the move (Angriff): +1.
    #[arg(long)]
    pub moving: bool,
    /// Firing from ambush (Hinterhalt): −1; not with --moving.
    #[arg(long)]
    pub ambush: bool,
    /// The target moved this turn: +1 (both moving +2).
    #[arg(long)]
    pub target_moving: bool,
    /// Target in light cover (woods, fences): +1.
    #[arg(long, conflicts_with_all = ["heavy_cover", "hull_down"])]
    pub light_cover: bool,
    /// Target in heavy cover (houses, walls, rocks): +2.
    #[arg(long)]
    pub heavy_cover: bool,
    /// Target hull-down behind heavy cover and a turret shot declared: no cover modifier,
    /// only T penetrates.
    #[arg(long)]
    pub hull_down: bool,
    /// The tanks face each other hull to hull: only T penetrates.
    #[arg(long)]
    pub hull_to_hull: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

fn tank_card(flag: &str, name: &str) -> Result<&'static TankCard> {
    match find_card(RulesetId::BattleOfTanks, flag, name)? {
        Card::BattleOfTanks(t) => Ok(t),
        _ => bail!("{flag}: '{name}' is not a Battle of Tanks card"),
    }
}

/// The `i`-th of a repeatable value: one value applies to all, else one per target.
fn per_target<T: Copy>(values: &[T], i: usize, targets: usize, flag: &str) -> Result<Option<T>> {
    match values.len() {
        0 => Ok(None),
        1 => Ok(values.first().copied()),
        n if n == targets => Ok(values.get(i).copied()),
        n => bail!("{flag}: {n} values for {targets} targets: give one for all, or one per target"),
    }
}

impl BattleOfTanksArgs {
    fn attacker(&self) -> Result<&'static TankCard> {
        let name = self
            .attacker
            .as_deref()
            .ok_or_else(|| anyhow!("--attacker: name the tank (e.g. --attacker \"Tiger I\")"))?;
        tank_card("--attacker", name)
    }

    fn cover(&self) -> bot::Cover {
        if self.light_cover {
            bot::Cover::Light
        } else if self.heavy_cover || self.hull_down {
            bot::Cover::Heavy
        } else {
            bot::Cover::Open
        }
    }

    fn targets(&self, attacker: &TankCard) -> Result<Vec<bot::FireTarget<'static>>> {
        let n = self.target.len();
        if n == 0 {
            bail!("--target: name at least one target (e.g. --target IS-2)");
        }
        let situation = bot::FireSituation {
            moving: self.moving,
            ambush: self.ambush,
            target_moving: self.target_moving,
            cover: self.cover(),
            hull_down_turret_shot: self.hull_down,
            hull_to_hull: self.hull_to_hull,
        };
        if self.shots.len() > 1 && self.shots.len() != n {
            bail!(
                "--shots: {} values for {n} targets: give one per target",
                self.shots.len()
            );
        }
        self.target
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let card = tank_card("--target", name)?;
                let shots = match (per_target(&self.shots, i, n, "--shots")?, n) {
                    (Some(shots), _) => shots,
                    (None, 1) => attacker.fire_rate,
                    (None, _) => {
                        bail!("--shots: split fire over {n} targets needs one --shots per target")
                    }
                };
                Ok(bot::FireTarget {
                    card,
                    shots,
                    range_cm: per_target(&self.range, i, n, "--range")?,
                    remaining_hp: per_target(&self.hit_points, i, n, "--hit-points")?
                        .unwrap_or(card.hit_points),
                    situation,
                })
            })
            .collect()
    }
}

/// The book's letter for a penetration face (K, T, W) or "blank".
fn penetration_letter(face: bot::PenetrationFace) -> &'static str {
    match face {
        bot::PenetrationFace::Blank => "blank",
        bot::PenetrationFace::Tracks => "K",
        bot::PenetrationFace::Turret => "T",
        bot::PenetrationFace::Hull => "W",
    }
}

fn fire_odds_json(odds: &bot::FireOdds) -> Value {
    json!({
        "target": odds.target,
        "shots": odds.shots,
        "need": odds.need,
        "turret_only": odds.turret_only,
        "firepower": odds.firepower,
        "remaining_hit_points": odds.remaining_hp,
        "p_hit_per_shot": odds.p_hit_per_shot(),
        "per_hit": dist_json(&odds.per_hit, "effect"),
        "hits": dist_json(&odds.hits(), "hits"),
        "penetrations": dist_json(&odds.penetrations(), "penetrations"),
        "damage": dist_json(&odds.damage, "damage"),
        "p_destroyed": odds.p_destroyed(),
        "p_tracks_hit": odds.p_tracks_hit(),
    })
}

fn battle_of_tanks_odds(args: &BattleOfTanksArgs, out: &mut dyn Write) -> Result<u8> {
    let id = RulesetId::BattleOfTanks;
    let attacker = args.attacker()?;
    if args.repair {
        let odds = bot::repair_odds(attacker);
        return emit(
            args.json,
            out,
            || json!({ "ruleset": id.as_str(), "mechanic": "repair", "tank": attacker.name, "need": attacker.repair, "p_repaired": odds.probability(&true) }),
            |out| {
                writeln!(
                    out,
                    "Battle of Tanks — {} repairs its tracks on {}+",
                    attacker.name, attacker.repair
                )?;
                write_p(out, "P(repaired)", odds.probability(&true))
            },
        );
    }
    if args.spotting {
        let cover = args.cover();
        let need = bot::spotting_need(attacker, cover)?;
        let odds = bot::spotting_odds(attacker, cover)?;
        return emit(
            args.json,
            out,
            || json!({ "ruleset": id.as_str(), "mechanic": "spotting", "tank": attacker.name, "cover": cover, "need": need, "automatic": need.is_none(), "p_spotted": odds.probability(&true) }),
            |out| {
                match need {
                    None => writeln!(
                        out,
                        "Battle of Tanks — {} spots a target on open ground automatically",
                        attacker.name
                    )?,
                    Some(n) => writeln!(
                        out,
                        "Battle of Tanks — {} spots a target in {} on {n}+ (as printed: light +2, heavy +1)",
                        attacker.name,
                        cover.label()
                    )?,
                }
                write_p(out, "P(spotted)", odds.probability(&true))
            },
        );
    }
    let targets = args.targets(attacker)?;
    let odds = match bot::fire_order_odds(attacker, &targets) {
        Ok(odds) => odds,
        Err(e @ bot::ResolveError::OutOfSight { .. }) => {
            return no_fire(out, args.json, id, &e.to_string());
        }
        Err(e) => return Err(e.into()),
    };
    emit(
        args.json,
        out,
        || {
            json!({
                "ruleset": id.as_str(),
                "mechanic": "fire",
                "can_fire": true,
                "attacker": attacker.name,
                "fire_rate": attacker.fire_rate,
                "targets": odds.iter().map(fire_odds_json).collect::<Vec<_>>(),
            })
        },
        |out| {
            writeln!(
                out,
                "Battle of Tanks — {} fires (accuracy {}+, fire rate {}, firepower {})",
                attacker.name, attacker.accuracy, attacker.fire_rate, attacker.firepower
            )?;
            for o in &odds {
                writeln!(out)?;
                writeln!(
                    out,
                    "{} at {} ({} hit points left): to hit {}{}",
                    amount(u64::from(o.shots), "shots"),
                    o.target,
                    o.remaining_hp,
                    o.need_words(),
                    if o.turret_only {
                        "; only T penetrates"
                    } else {
                        ""
                    }
                )?;
                write_p(out, "P(hit) per shot", o.p_hit_per_shot())?;
                write_dist(out, "Hits:", &o.hits(), u32::to_string)?;
                write_dist(out, "Damage (hit points):", &o.damage, u32::to_string)?;
                write_p(out, "P(destroyed)", o.p_destroyed())?;
                write_p(out, "P(tracks hit)", o.p_tracks_hit())?;
            }
            Ok(())
        },
    )
}

fn battle_of_tanks_roll(
    args: &BattleOfTanksArgs,
    roller: &mut Roller,
    out: &mut dyn Write,
) -> Result<u8> {
    let id = RulesetId::BattleOfTanks;
    let attacker = args.attacker()?;
    if args.repair {
        let roll = bot::roll_repair(attacker, roller)?;
        return emit(
            args.json,
            out,
            || roll_json(id, "repair", &roll),
            |out| {
                write_record(out, "repair", &roll.die)?;
                writeln!(
                    out,
                    "Need {}+: {}",
                    roll.need,
                    if roll.repaired {
                        "repaired"
                    } else {
                        "not repaired"
                    }
                )?;
                Ok(())
            },
        );
    }
    if args.spotting {
        let roll = bot::roll_spotting(attacker, args.cover(), roller)?;
        return emit(
            args.json,
            out,
            || roll_json(id, "spotting", &roll),
            |out| {
                match (&roll.die, roll.need) {
                    (Some(die), Some(need)) => {
                        write_record(out, "spotting", die)?;
                        writeln!(
                            out,
                            "Need {need}+: {}",
                            if roll.spotted {
                                "spotted"
                            } else {
                                "not spotted"
                            }
                        )?;
                    }
                    _ => writeln!(out, "Open ground: spotted automatically (no die)")?,
                }
                Ok(())
            },
        );
    }
    let targets = args.targets(attacker)?;
    let roll = match bot::roll_fire(attacker, &targets, roller) {
        Ok(roll) => roll,
        Err(e @ bot::ResolveError::OutOfSight { .. }) => {
            return no_fire(out, args.json, id, &e.to_string());
        }
        Err(e) => return Err(e.into()),
    };
    emit(
        args.json,
        out,
        || roll_json(id, "fire", &roll),
        |out| {
            for v in &roll.volleys {
                writeln!(out, "{} (need {}+):", v.target, v.need)?;
                write_record(out, "  to hit", &v.to_hit)?;
                if let Some(record) = &v.penetration {
                    write_record(out, "  penetration", record)?;
                    let faces: Vec<&str> = v.faces.iter().map(|&f| penetration_letter(f)).collect();
                    writeln!(out, "  faces: {}", faces.join(", "))?;
                }
                writeln!(
                    out,
                    "  {}, {}, {}: {} damage, {} → {} hit points{}",
                    amount(u64::from(v.volley.hits), "hits"),
                    amount(u64::from(v.volley.penetrations), "penetrations"),
                    amount(u64::from(v.volley.track_hits), "track hits"),
                    v.damage,
                    v.remaining_before,
                    v.remaining_after,
                    if v.destroyed { " — destroyed" } else { "" }
                )?;
            }
            Ok(())
        },
    )
}

// ---------------------------------------------------------------------------------------
// Bolt Action
// ---------------------------------------------------------------------------------------

/// Troop quality on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum QualityArg {
    Inexperienced,
    Regular,
    Veteran,
}

impl From<QualityArg> for Quality {
    fn from(q: QualityArg) -> Self {
        match q {
            QualityArg::Inexperienced => Quality::Inexperienced,
            QualityArg::Regular => Quality::Regular,
            QualityArg::Veteran => Quality::Veteran,
        }
    }
}

/// Officer ranks on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OfficerArg {
    #[value(alias = "2nd-lt")]
    SecondLieutenant,
    #[value(alias = "1st-lt")]
    FirstLieutenant,
    Captain,
    Major,
}

impl OfficerArg {
    fn rank(self) -> &'static str {
        match self {
            OfficerArg::SecondLieutenant => "second_lieutenant",
            OfficerArg::FirstLieutenant => "first_lieutenant",
            OfficerArg::Captain => "captain",
            OfficerArg::Major => "major",
        }
    }
}

/// Arguments of `odds bolt-action` / `roll bolt-action`.
#[derive(Debug, Args)]
pub struct BoltActionArgs {
    /// An order test instead of shooting: 2d6 ≤ morale − pins + officer bonus; double six
    /// is FUBAR.
    #[arg(long)]
    pub order_test: bool,
    /// The acting unit (library name): quality for the order test; quality and first weapon
    /// when shooting.
    #[arg(long, alias = "shooter", value_name = "NAME")]
    pub unit: Option<String>,
    /// Troop quality (overrides --unit's).
    #[arg(long, value_enum)]
    pub quality: Option<QualityArg>,
    /// Officer lending his morale bonus: second-lieutenant (+1), first-lieutenant (+2),
    /// captain (+3), major (+4).
    #[arg(long, value_enum)]
    pub officer: Option<OfficerArg>,
    /// Pin markers on the unit: −1 morale (order test) or −1 to hit (shooting) each.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub pins: u32,
    /// Weapon from the weapons chart (name or its abbreviation, e.g. LMG; default: --unit's
    /// first weapon).
    #[arg(long, value_name = "NAME")]
    pub weapon: Option<String>,
    /// Models firing the weapon.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub firers: u32,
    /// Fire high explosive (the weapon's HE value and the HE chart).
    #[arg(long)]
    pub he: bool,
    /// Point blank range: +1 to hit.
    #[arg(long)]
    pub point_blank: bool,
    /// Long range: −1 to hit; −1 penetration for heavy weapons against armour.
    #[arg(long)]
    pub long_range: bool,
    /// Inexperienced firer: −1 (automatic for an inexperienced --unit).
    #[arg(long)]
    pub inexperienced: bool,
    /// Firing on the move: −1.
    #[arg(long)]
    pub moving: bool,
    /// Target is down infantry or artillery: −1.
    #[arg(long)]
    pub target_down: bool,
    /// Target is a small unit: −1.
    #[arg(long)]
    pub small_unit: bool,
    /// Target in soft cover: −1.
    #[arg(long, conflicts_with = "hard_cover")]
    pub soft_cover: bool,
    /// Target in hard cover: −2.
    #[arg(long)]
    pub hard_cover: bool,
    /// The target unit (library name): damage value, armoured, open-topped.
    #[arg(long, value_name = "NAME")]
    pub target: Option<String>,
    /// The target's damage value (instead of, or overriding, --target's).
    #[arg(long, value_name = "N")]
    pub damage_value: Option<u8>,
    /// With --damage-value: the target is armoured (rolls on the damage results table).
    #[arg(long)]
    pub armoured: bool,
    /// The target is open-topped (+1 on damage results from indirect fire).
    #[arg(long)]
    pub open_topped: bool,
    /// Hit on the side or top armour: +1 penetration (heavy weapons).
    #[arg(long, alias = "top", conflicts_with = "rear")]
    pub side: bool,
    /// Hit on the rear armour: +2 penetration (heavy weapons).
    #[arg(long)]
    pub rear: bool,
    /// Massive Damage: two damage results per damaging hit.
    #[arg(long)]
    pub massive_damage: bool,
    /// Fired indirectly (automatic for indirect-fire weapons such as mortars).
    #[arg(long)]
    pub indirect: bool,
    /// The vehicle is already immobilised (another Immobilised knocks it out).
    #[arg(long)]
    pub immobilised: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

fn bolt_unit(flag: &str, name: &str) -> Result<&'static bolt_action::UnitProfile> {
    match find_card(RulesetId::BoltAction, flag, name)? {
        Card::BoltAction(u) => Ok(u),
        _ => bail!("{flag}: '{name}' is not a Bolt Action unit"),
    }
}

/// The weapon by chart name or the abbreviation in its brackets ("LMG"), any case.
fn find_weapon(query: &str) -> Result<&'static Weapon> {
    let tables = bolt_action::tables().ok_or(ba::ResolveError::NoData)?;
    let q = query.trim().to_lowercase();
    let abbreviation = |w: &Weapon| {
        w.name
            .split_once('(')
            .and_then(|(_, rest)| rest.split_once(')'))
            .map(|(abbr, _)| abbr.to_lowercase())
    };
    if let Some(w) = tables
        .weapons
        .iter()
        .find(|w| w.name.to_lowercase() == q || abbreviation(w).as_deref() == Some(q.as_str()))
    {
        return Ok(w);
    }
    let mut scored: Vec<(f64, &str)> = tables
        .weapons
        .iter()
        .map(|w| {
            (
                strsim::jaro_winkler(&q, &w.name.to_lowercase()),
                w.name.as_str(),
            )
        })
        .filter(|(s, _)| *s >= 0.7)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let nearest: Vec<String> = scored.iter().take(3).map(|(_, n)| n.to_string()).collect();
    bail!(
        "--weapon: {}",
        unknown_name("weapon on the chart", query, &nearest)
    )
}

impl BoltActionArgs {
    fn unit(&self) -> Result<Option<&'static bolt_action::UnitProfile>> {
        self.unit
            .as_deref()
            .map(|n| bolt_unit("--unit", n))
            .transpose()
    }

    fn quality(&self) -> Result<Quality> {
        match (self.quality, self.unit()?) {
            (Some(q), _) => Ok(q.into()),
            (None, Some(u)) => Ok(u.quality),
            (None, None) => bail!(
                "--quality: give the troop quality (inexperienced, regular, veteran) or --unit NAME"
            ),
        }
    }

    fn order_test(&self) -> Result<ba::OrderTest> {
        Ok(ba::OrderTest {
            quality: self.quality()?,
            pins: self.pins,
            officer: self.officer.map(|o| o.rank().to_string()),
        })
    }

    fn attack(&self) -> Result<ba::Attack<'static>> {
        let unit = self.unit()?;
        let weapon = match (&self.weapon, unit) {
            (Some(name), _) => find_weapon(name)?,
            (None, Some(u)) => match u.weapons.first() {
                Some(name) => find_weapon(name)?,
                None => bail!("--weapon: {} carries no weapon; name one", u.name),
            },
            (None, None) => {
                bail!("--weapon: name a weapon from the chart (e.g. --weapon Rifle) or --unit NAME")
            }
        };
        let target_unit = self
            .target
            .as_deref()
            .map(|n| bolt_unit("--target", n))
            .transpose()?;
        let mut target = match (target_unit, self.damage_value) {
            (Some(t), _) => ba::TargetProfile::of(t)?,
            (None, Some(dv)) => ba::TargetProfile {
                damage_value: dv,
                armoured: self.armoured,
                open_topped: false,
            },
            (None, None) => bail!("--target: name the target unit, or give --damage-value N"),
        };
        if let Some(dv) = self.damage_value {
            target.damage_value = dv;
        }
        target.armoured |= self.armoured;
        target.open_topped |= self.open_topped;
        let inexperienced = self.inexperienced
            || self.quality.map(Quality::from).or(unit.map(|u| u.quality))
                == Some(Quality::Inexperienced);
        let mut attack = ba::Attack::new(weapon, target);
        attack.firers = self.firers;
        attack.high_explosive = self.he;
        attack.hit = ba::HitModifiers {
            point_blank: self.point_blank,
            pins: self.pins,
            long_range: self.long_range,
            inexperienced,
            on_the_move: self.moving,
            target_down: self.target_down,
            small_unit: self.small_unit,
            soft_cover: self.soft_cover,
            hard_cover: self.hard_cover,
        };
        attack.facing = if self.rear {
            ba::Facing::Rear
        } else if self.side {
            ba::Facing::SideOrTop
        } else {
            ba::Facing::Front
        };
        attack.massive_damage = self.massive_damage;
        attack.indirect |= self.indirect;
        attack.already_immobilised = self.immobilised;
        Ok(attack)
    }
}

fn order_label(o: &ba::OrderResult) -> String {
    match o {
        ba::OrderResult::Passed => "passed".into(),
        ba::OrderResult::Failed => "failed".into(),
        ba::OrderResult::Fubar { result } => format!("FUBAR: {result}"),
    }
}

fn vehicle_damage_label(d: &ba::VehicleDamage) -> String {
    match d.second {
        None => d.first.label().to_string(),
        Some(second) => format!("{} + {}", d.first.label(), second.label()),
    }
}

fn bolt_action_odds(args: &BoltActionArgs, out: &mut dyn Write) -> Result<u8> {
    let id = RulesetId::BoltAction;
    if args.order_test {
        let test = args.order_test()?;
        let odds = ba::order_test_odds(&test)?;
        let fubar = odds.fubar_results();
        return emit(
            args.json,
            out,
            || {
                json!({
                    "ruleset": id.as_str(),
                    "mechanic": "order_test",
                    "quality": test.quality,
                    "pins": test.pins,
                    "officer": test.officer,
                    "target": odds.target,
                    "p_pass": odds.p_pass(),
                    "p_fubar": odds.p_fubar(),
                    "outcome": dist_json(&odds.outcome, "result"),
                    "fubar_results": dist_json(&fubar, "result"),
                })
            },
            |out| {
                writeln!(
                    out,
                    "Bolt Action — order test: 2d6 at or under {} (double six: FUBAR)",
                    odds.target
                )?;
                write_p(out, "P(pass)", odds.p_pass())?;
                write_p(out, "P(FUBAR)", odds.p_fubar())?;
                write_dist(out, "Result:", &odds.outcome, order_label)?;
                write_dist(out, "FUBAR chart (given a FUBAR):", &fubar, Clone::clone)
            },
        );
    }
    let attack = args.attack()?;
    let odds = ba::attack_odds(&attack)?;
    let n = odds.numbers;
    emit(
        args.json,
        out,
        || {
            json!({
                "ruleset": id.as_str(),
                "mechanic": "shooting",
                "weapon": attack.weapon.name,
                "firers": attack.firers,
                "high_explosive": n.high_explosive,
                "target": attack.target,
                "numbers": n,
                "estimate": odds.estimate.map(|e| json!({ "trials": e.trials, "seed": e.seed, "std_error_max": e.std_error(0.5) })),
                "shots": dist_json(&odds.shots, "shots"),
                "p_hit_per_shot": odds.hit.probability(&true),
                "p_damage_per_hit": odds.damage_roll.probability(&true),
                "hits": dist_json(&odds.hits(), "hits"),
                "damaging_hits": dist_json(&odds.damaging_hits(), "damaging_hits"),
                "pins": dist_json(&odds.pins, "pins"),
                "per_damaging_hit": odds.per_damaging_hit.as_ref().map(|d| dist_json(d, "result")),
                "vehicle_result": attack.target.armoured.then(|| dist_json(&odds.vehicle_result(), "result")),
                "p_knocked_out": attack.target.armoured.then(|| odds.p_knocked_out()),
            })
        },
        |out| {
            writeln!(
                out,
                "Bolt Action — {} × {} ({}) at a target with damage value {}+",
                attack.firers,
                attack.weapon.name,
                n.shots_words(),
                attack.target.damage_value
            )?;
            writeln!(
                out,
                "To hit {}; damage {}",
                n.to_hit_words(),
                n.damage_words(attack.target.damage_value)
            )?;
            if let Some(estimate) = odds.estimate {
                writeln!(out, "Odds are an {}", estimate.describe())?;
            }
            write_p(out, "P(hit) per shot", odds.hit.probability(&true))?;
            write_p(
                out,
                "P(damage) per hit",
                odds.damage_roll.probability(&true),
            )?;
            write_dist(out, "Hits:", &odds.hits(), u32::to_string)?;
            write_dist(out, "Damaging hits:", &odds.damaging_hits(), u32::to_string)?;
            write_dist(out, "Pins:", &odds.pins, u32::to_string)?;
            if let Some(per_hit) = &odds.per_damaging_hit {
                let roll = if n.superficial {
                    "superficial, D6−3"
                } else {
                    "full, D6"
                };
                write_dist(
                    out,
                    &format!(
                        "Each damaging hit ({roll}{}):",
                        if n.result_bonus > 0 { " +1" } else { "" }
                    ),
                    per_hit,
                    vehicle_damage_label,
                )?;
                write_dist(
                    out,
                    "Vehicle after the attack:",
                    &odds.vehicle_result(),
                    |r| r.map_or("undamaged".into(), |e| e.label().to_string()),
                )?;
            }
            Ok(())
        },
    )
}

fn bolt_action_roll(args: &BoltActionArgs, roller: &mut Roller, out: &mut dyn Write) -> Result<u8> {
    let id = RulesetId::BoltAction;
    if args.order_test {
        let roll = ba::roll_order_test(&args.order_test()?, roller)?;
        return emit(
            args.json,
            out,
            || roll_json(id, "order_test", &roll),
            |out| {
                write_record(out, "order test", &roll.dice)?;
                if let Some(r) = &roll.fubar_die {
                    write_record(out, "FUBAR chart", r)?;
                }
                writeln!(
                    out,
                    "{} against {}: {}",
                    roll.total,
                    roll.target,
                    order_label(&roll.outcome)
                )?;
                Ok(())
            },
        );
    }
    let attack = args.attack()?;
    let roll = ba::roll_attack(&attack, roller)?;
    emit(
        args.json,
        out,
        || roll_json(id, "shooting", &roll),
        |out| {
            for r in &roll.rolls {
                write_record(out, r.label, &r.record)?;
            }
            writeln!(
                out,
                "{}, {}, {} damaging, {}",
                amount(u64::from(roll.shots), "shots"),
                amount(u64::from(roll.tally.hits), "hits"),
                roll.tally.damaging,
                amount(u64::from(roll.pins), "pins")
            )?;
            for d in &roll.vehicle_results {
                writeln!(out, "Damage result: {}", vehicle_damage_label(d))?;
            }
            Ok(())
        },
    )
}

// ---------------------------------------------------------------------------------------
// Belle Epoque
// ---------------------------------------------------------------------------------------

/// The general's quality on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GeneralArg {
    Mediocre,
    Average,
    Superior,
}

/// Troop types A–G on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TroopTypeArg {
    #[value(name = "A")]
    A,
    #[value(name = "B")]
    B,
    #[value(name = "C")]
    C,
    #[value(name = "D")]
    D,
    #[value(name = "E")]
    E,
    #[value(name = "F")]
    F,
    #[value(name = "G")]
    G,
}

/// Doctrine on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OrderArg {
    Loose,
    Close,
}

/// Terrain of a fire target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TerrainArg {
    Open,
    Cover,
    Fortifications,
}

/// The defender's position in an assault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PositionArg {
    Open,
    Hill,
    Fortifications,
}

/// The SS chart's classes on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LevelArg {
    /// Militia, or regulars in loose order: 1/2.
    #[value(alias = "militia", alias = "loose-regulars")]
    MilitiaOrLooseRegulars,
    /// Regulars in close order: 1/2/3.
    CloseRegulars,
    /// Choc troops: 1/2/3/4.
    Choc,
}

impl From<LevelArg> for be::AssaultTroops {
    fn from(l: LevelArg) -> Self {
        match l {
            LevelArg::MilitiaOrLooseRegulars => be::AssaultTroops::MilitiaOrLooseRegulars,
            LevelArg::CloseRegulars => be::AssaultTroops::CloseRegulars,
            LevelArg::Choc => be::AssaultTroops::Choc,
        }
    }
}

/// Arguments of `odds belle-epoque` / `roll belle-epoque`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("mechanic").required(true).args(["command_points", "reactivity", "fire", "assault"])))]
pub struct BelleEpoqueArgs {
    /// Command points: one die per started 8 stands (--stands), d4/d6/d8 by --general.
    #[arg(long)]
    pub command_points: bool,
    /// A reactivity test: d6 at or under the basic score plus CPs spent (0–5 shown).
    #[arg(long)]
    pub reactivity: bool,
    /// A unit's fire at a target.
    #[arg(long)]
    pub fire: bool,
    /// An assault.
    #[arg(long)]
    pub assault: bool,
    /// Stands: the side's total (command points) or the firing unit's (fire; default --unit's).
    #[arg(long, value_name = "N")]
    pub stands: Option<u32>,
    /// The general (command points).
    #[arg(long, value_enum, default_value = "average")]
    pub general: GeneralArg,
    /// The acting unit (library name): basic score (reactivity) or the firer (fire).
    #[arg(long, alias = "firer", value_name = "NAME")]
    pub unit: Option<String>,
    /// Basic score of the reactivity test (instead of --unit's).
    #[arg(long, value_name = "N")]
    pub basic_score: Option<u8>,
    /// Command points spent on the reactivity test (the roll; odds show 0–5).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub cps: u32,
    /// The firer's troop type A–G (instead of --unit's).
    #[arg(long, value_enum, ignore_case = true)]
    pub troop_type: Option<TroopTypeArg>,
    /// Range in UD (1–4).
    #[arg(long, value_name = "UD")]
    pub range: Option<u32>,
    /// The firer made a basic move (bracketed to-hit numbers).
    #[arg(long)]
    pub moving: bool,
    /// The firer is uphill from its target: one extra die.
    #[arg(long)]
    pub uphill: bool,
    /// The target unit (library name): doctrine, cavalry or infantry, conspicuous, stands.
    #[arg(long, value_name = "NAME")]
    pub target: Option<String>,
    /// The target's doctrine (instead of --target's; default close).
    #[arg(long, value_enum)]
    pub target_order: Option<OrderArg>,
    /// The target is cavalry (not infantry).
    #[arg(long)]
    pub target_cavalry: bool,
    /// The target's terrain.
    #[arg(long, value_enum, default_value = "open")]
    pub target_terrain: TerrainArg,
    /// The target is conspicuous: +1 to hit, a 6 still misses, and it is seen at 4 UD.
    #[arg(long)]
    pub conspicuous: bool,
    /// The target has neither moved nor fired since the game began (or has not moved and has
    /// smokeless-powder rifles): seen 1 UD less.
    #[arg(long)]
    pub target_unrevealed: bool,
    /// Stands the target has (caps the stands lost).
    #[arg(long, value_name = "N")]
    pub target_stands: Option<u32>,
    /// The attacking unit (library name): stands, SS level, traits.
    #[arg(long, value_name = "NAME")]
    pub attacker: Option<String>,
    /// The attacker's stands (instead of --attacker's).
    #[arg(long, value_name = "N")]
    pub attacker_stands: Option<u32>,
    /// The attacker's SS level: militia-or-loose-regulars (1/2), close-regulars (1–3), choc (1–4).
    #[arg(long, value_enum)]
    pub attacker_level: Option<LevelArg>,
    /// Dashing attacker: SS level +1.
    #[arg(long)]
    pub attacker_dashing: bool,
    /// Stubborn attacker: no fall backs for even losses.
    #[arg(long)]
    pub attacker_stubborn: bool,
    /// The attacker is cavalry (SS 1 from or against cover or rough terrain).
    #[arg(long)]
    pub attacker_cavalry: bool,
    /// Assaults the attacker already fought this turn (−1 SS level each).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub attacker_extra_assaults: u32,
    /// The attacker cannot fall back: even losses are stands too.
    #[arg(long)]
    pub attacker_cannot_fall_back: bool,
    /// The defending unit (library name): stands, SS level, traits.
    #[arg(long, value_name = "NAME")]
    pub defender: Option<String>,
    /// The defender's stands (instead of --defender's).
    #[arg(long, value_name = "N")]
    pub defender_stands: Option<u32>,
    /// The defender's SS level (as --attacker-level).
    #[arg(long, value_enum)]
    pub defender_level: Option<LevelArg>,
    /// Stubborn defender: SS level +1, no fall backs.
    #[arg(long)]
    pub defender_stubborn: bool,
    /// The defender is cavalry (no hill or fortification bonus; SS 1 in cover).
    #[arg(long)]
    pub defender_cavalry: bool,
    /// Assaults the defender already fought this turn (−1 SS level each).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub defender_extra_assaults: u32,
    /// The defender cannot fall back: even losses are stands too.
    #[arg(long)]
    pub defender_cannot_fall_back: bool,
    /// The defender's position: open, hill (+1 for infantry) or fortifications (+2).
    #[arg(long, value_enum, default_value = "open")]
    pub position: PositionArg,
    /// Fought from or against cover or rough terrain (cavalry fight at SS 1).
    #[arg(long)]
    pub cover_or_rough: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

fn belle_unit(flag: &str, name: &str) -> Result<&'static belle_epoque::UnitProfile> {
    match find_card(RulesetId::BelleEpoque, flag, name)? {
        Card::BelleEpoque(u) => Ok(u),
        _ => bail!("{flag}: '{name}' is not a Belle Epoque unit"),
    }
}

/// A side from its card (if named) with `stands` and `level` overriding the card's; without
/// a card both are needed.
fn assault_side(
    flag: &str,
    card: Option<&str>,
    stands: Option<u32>,
    level: Option<LevelArg>,
) -> Result<be::AssaultSide> {
    let base = card
        .map(|n| belle_unit(flag, n))
        .transpose()?
        .map(be::AssaultSide::of);
    let mut side = match (base, stands, level) {
        (Some(side), _, _) => side,
        (None, Some(stands), Some(level)) => be::AssaultSide::new(stands, level.into()),
        (None, _, _) => bail!("{flag}: name the unit, or give {flag}-stands and {flag}-level"),
    };
    if let Some(stands) = stands {
        side.stands = stands;
    }
    if let Some(level) = level {
        side.troops = level.into();
    }
    Ok(side)
}

impl BelleEpoqueArgs {
    fn general(&self) -> be::General {
        match self.general {
            GeneralArg::Mediocre => be::General::Mediocre,
            GeneralArg::Average => be::General::Average,
            GeneralArg::Superior => be::General::Superior,
        }
    }

    fn unit(&self) -> Result<Option<&'static belle_epoque::UnitProfile>> {
        self.unit
            .as_deref()
            .map(|n| belle_unit("--unit", n))
            .transpose()
    }

    fn basic_score(&self) -> Result<u8> {
        if let Some(bs) = self.basic_score {
            return Ok(bs);
        }
        match self.unit()? {
            Some(u) => u
                .basic_score()
                .ok_or_else(|| anyhow!("--unit: no basic score for {}", u.name)),
            None => bail!("--basic-score: give the basic score or --unit NAME"),
        }
    }

    fn command_stands(&self) -> Result<u32> {
        self.stands
            .ok_or_else(|| anyhow!("--stands: give the side's stands (e.g. --stands 30)"))
    }

    fn fire(&self) -> Result<be::Fire> {
        use belle_epoque::TroopType;
        let unit = self.unit()?;
        let troop_type = match (self.troop_type, unit) {
            (Some(t), _) => match t {
                TroopTypeArg::A => TroopType::A,
                TroopTypeArg::B => TroopType::B,
                TroopTypeArg::C => TroopType::C,
                TroopTypeArg::D => TroopType::D,
                TroopTypeArg::E => TroopType::E,
                TroopTypeArg::F => TroopType::F,
                TroopTypeArg::G => TroopType::G,
            },
            (None, Some(u)) => u.troop_type,
            (None, None) => bail!("--troop-type: give the firer's troop type (A–G) or --unit NAME"),
        };
        let stands = match (self.stands, unit) {
            (Some(s), _) => s,
            (None, Some(u)) => u.stands,
            (None, None) => bail!("--stands: give the firing stands or --unit NAME"),
        };
        let range_uds = self
            .range
            .ok_or_else(|| anyhow!("--range: give the range in UD (1–4)"))?;
        let terrain = match self.target_terrain {
            TerrainArg::Open => be::Terrain::Open,
            TerrainArg::Cover => be::Terrain::Cover,
            TerrainArg::Fortifications => be::Terrain::Fortifications,
        };
        let target_unit = self
            .target
            .as_deref()
            .map(|n| belle_unit("--target", n))
            .transpose()?;
        let mut target = match target_unit {
            Some(t) => be::FireTarget::of(t, terrain),
            None => be::FireTarget {
                doctrine: belle_epoque::Doctrine::Close,
                infantry: true,
                terrain,
                conspicuous: false,
                stands: None,
                unrevealed: false,
            },
        };
        if let Some(order) = self.target_order {
            target.doctrine = match order {
                OrderArg::Loose => belle_epoque::Doctrine::Loose,
                OrderArg::Close => belle_epoque::Doctrine::Close,
            };
        }
        target.infantry &= !self.target_cavalry;
        target.conspicuous |= self.conspicuous;
        target.unrevealed = self.target_unrevealed;
        if self.target_stands.is_some() {
            target.stands = self.target_stands;
        }
        Ok(be::Fire {
            troop_type,
            stands,
            range_uds,
            moving: self.moving,
            uphill: self.uphill,
            target,
        })
    }

    fn assault(&self) -> Result<be::Assault> {
        let mut attacker = assault_side(
            "--attacker",
            self.attacker.as_deref(),
            self.attacker_stands,
            self.attacker_level,
        )?;
        attacker.dashing |= self.attacker_dashing;
        attacker.stubborn |= self.attacker_stubborn;
        attacker.cavalry |= self.attacker_cavalry;
        attacker.extra_assaults = self.attacker_extra_assaults;
        attacker.can_fall_back = !self.attacker_cannot_fall_back;
        let mut defender = assault_side(
            "--defender",
            self.defender.as_deref(),
            self.defender_stands,
            self.defender_level,
        )?;
        defender.stubborn |= self.defender_stubborn;
        defender.cavalry |= self.defender_cavalry;
        defender.extra_assaults = self.defender_extra_assaults;
        defender.can_fall_back = !self.defender_cannot_fall_back;
        Ok(be::Assault {
            attacker,
            defender,
            position: match self.position {
                PositionArg::Open => be::Position::Open,
                PositionArg::Hill => be::Position::Hill,
                PositionArg::Fortifications => be::Position::Fortifications,
            },
            cover_or_rough: self.cover_or_rough,
        })
    }
}

fn losses_label(l: &be::Losses) -> String {
    l.label()
}

fn casualties(losses: &Dist<be::Losses>) -> Dist<be::Losses> {
    losses.map(be::Losses::as_casualties)
}

fn belle_epoque_odds(args: &BelleEpoqueArgs, out: &mut dyn Write) -> Result<u8> {
    let id = RulesetId::BelleEpoque;
    if args.command_points {
        let stands = args.command_stands()?;
        let odds = be::command_points_odds(stands, args.general())?;
        return emit(
            args.json,
            out,
            || json!({ "ruleset": id.as_str(), "mechanic": "command_points", "stands": stands, "dice": odds.dice, "sides": odds.sides, "total": dist_json(&odds.total, "command_points"), "mean": odds.total.expectation(|&k| f64::from(k)) }),
            |out| {
                writeln!(
                    out,
                    "Belle Epoque — command points for {stands} stands: {}d{}",
                    odds.dice, odds.sides
                )?;
                write_dist(out, "Command points:", &odds.total, u32::to_string)
            },
        );
    }
    if args.reactivity {
        let bs = args.basic_score()?;
        let rows: Vec<(u32, f64)> = (0..=5)
            .map(|cp| (cp, be::reactivity_odds(bs, cp).probability(&true)))
            .collect();
        return emit(
            args.json,
            out,
            || json!({ "ruleset": id.as_str(), "mechanic": "reactivity", "basic_score": bs, "p_pass_by_cps": rows.iter().map(|(cp, p)| json!({ "cps": cp, "p_pass": p })).collect::<Vec<_>>() }),
            |out| {
                writeln!(
                    out,
                    "Belle Epoque — reactivity test: d6 at or under {bs} + CPs spent"
                )?;
                for (cp, p) in &rows {
                    write_p(out, &format!("{cp} CP(s): P(pass)"), *p)?;
                }
                Ok(())
            },
        );
    }
    if args.fire {
        let fire = args.fire()?;
        let odds = match be::fire_odds(&fire) {
            Ok(odds) => odds,
            Err(e @ be::ResolveError::CannotFire(_)) => {
                return no_fire(out, args.json, id, &e.to_string());
            }
            Err(e) => return Err(e.into()),
        };
        let n = odds.numbers;
        return emit(
            args.json,
            out,
            || json!({ "ruleset": id.as_str(), "mechanic": "fire", "can_fire": true, "fire": fire, "numbers": n, "p_hit_per_die": odds.per_die.probability(&true), "hits": dist_json(&odds.hits, "hits"), "stands_lost": dist_json(&odds.stands_lost, "stands_lost") }),
            |out| {
                let misses = if n.misses_up_to > 0 {
                    format!("; {} and below miss", n.misses_up_to)
                } else {
                    String::new()
                };
                writeln!(
                    out,
                    "Belle Epoque — type {} fire at {} UD, {} dice: hit on {} or less{misses}; a 6 always misses",
                    fire.troop_type.letter(),
                    fire.range_uds,
                    n.dice,
                    n.to_hit
                )?;
                write_p(out, "P(hit) per die", odds.per_die.probability(&true))?;
                write_dist(out, "Stands lost:", &odds.stands_lost, u32::to_string)
            },
        );
    }
    let assault = args.assault()?;
    let odds = be::assault_odds(&assault)?;
    emit(
        args.json,
        out,
        || {
            json!({
                "ruleset": id.as_str(),
                "mechanic": "assault",
                "assault": assault,
                "attacker_level": odds.attacker_level,
                "defender_level": odds.defender_level,
                "p_attacker_wins": odds.p_attacker_wins(),
                "p_tie": odds.p_tie(),
                "p_defender_wins": odds.p_defender_wins(),
                "attacker_score": dist_json(&odds.attacker_score, "score"),
                "defender_score": dist_json(&odds.defender_score, "score"),
                "attacker_losses": dist_json(&odds.attacker_losses(), "losses"),
                "defender_losses": dist_json(&odds.defender_losses(), "losses"),
            })
        },
        |out| {
            writeln!(
                out,
                "Belle Epoque — assault: {} at {} against {} at {} (a 1 always scores, a 6 never)",
                amount(u64::from(assault.attacker.stands), "stands"),
                be::level_words(odds.attacker_level),
                amount(u64::from(assault.defender.stands), "stands"),
                be::level_words(odds.defender_level)
            )?;
            write_p(out, "P(attacker wins)", odds.p_attacker_wins())?;
            write_p(out, "P(tie: both lose a stand)", odds.p_tie())?;
            write_p(out, "P(defender wins)", odds.p_defender_wins())?;
            write_dist(
                out,
                "Attacker loses:",
                &casualties(&odds.attacker_losses()),
                losses_label,
            )?;
            write_dist(
                out,
                "Defender loses:",
                &casualties(&odds.defender_losses()),
                losses_label,
            )
        },
    )
}

fn belle_epoque_roll(
    args: &BelleEpoqueArgs,
    roller: &mut Roller,
    out: &mut dyn Write,
) -> Result<u8> {
    let id = RulesetId::BelleEpoque;
    if args.command_points {
        let roll = be::roll_command_points(args.command_stands()?, args.general(), roller)?;
        return emit(
            args.json,
            out,
            || roll_json(id, "command_points", &roll),
            |out| {
                write_record(out, "command dice", &roll.dice)?;
                writeln!(out, "{}", amount(u64::from(roll.total), "command points"))?;
                Ok(())
            },
        );
    }
    if args.reactivity {
        let roll = be::roll_reactivity(args.basic_score()?, args.cps, roller)?;
        return emit(
            args.json,
            out,
            || roll_json(id, "reactivity", &roll),
            |out| {
                write_record(out, "reactivity", &roll.die)?;
                writeln!(
                    out,
                    "Need {} or less: {}",
                    roll.target,
                    if roll.passed {
                        "activated"
                    } else {
                        "failed (basic move only)"
                    }
                )?;
                Ok(())
            },
        );
    }
    if args.fire {
        let fire = args.fire()?;
        let roll = match be::roll_fire(&fire, roller) {
            Ok(roll) => roll,
            Err(e @ be::ResolveError::CannotFire(_)) => {
                return no_fire(out, args.json, id, &e.to_string());
            }
            Err(e) => return Err(e.into()),
        };
        return emit(
            args.json,
            out,
            || roll_json(id, "fire", &roll),
            |out| {
                write_record(out, "fire", &roll.dice)?;
                writeln!(
                    out,
                    "{}: the target loses {}",
                    amount(u64::from(roll.hits), "hits"),
                    amount(u64::from(roll.stands_lost), "stands")
                )?;
                Ok(())
            },
        );
    }
    let roll = be::roll_assault(&args.assault()?, roller)?;
    emit(
        args.json,
        out,
        || roll_json(id, "assault", &roll),
        |out| {
            write_record(out, "attacker", &roll.attacker_dice)?;
            write_record(out, "defender", &roll.defender_dice)?;
            let r = &roll.result;
            writeln!(
                out,
                "Scores {} ({}) against {} ({})",
                r.attacker_score,
                be::level_words(roll.attacker_level),
                r.defender_score,
                be::level_words(roll.defender_level)
            )?;
            writeln!(
                out,
                "Attacker loses {}; defender loses {}",
                losses_label(&r.outcome.attacker),
                losses_label(&r.outcome.defender)
            )?;
            Ok(())
        },
    )
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
            TestCommand::Odds(c) => run_odds(c, &mut out),
            TestCommand::Roll(c) => run_roll(c, &mut out),
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
