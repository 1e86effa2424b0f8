//! `quartermaster odds RULESET …` and `quartermaster roll RULESET … --seed N`.
//!
//! Thin wrappers over `rules::armour_battles::{fire, artillery, rally, command,
//! reliability}`: parse the situation, look the cards up by name (suggesting the nearest name
//! on a typo), call the library and print a small table or JSON. One action per call:
//! `--attacker` (direct or opportunity fire), `--artillery` (a mission), `--rally`,
//! `--command-dice` or `--breakdown` (a move, with the Tiger's Poor Reliability).

use std::io::Write;

use anyhow::{Result, anyhow, bail};
use clap::{ArgGroup, Args, ValueEnum};
use serde_json::{Map, Value, json};

use crate::cli::{EXIT_OK, print_json};
use crate::rules::armour_battles::artillery::{
    self, ArtilleryOdds, ArtilleryRoll, ArtillerySituation,
};
use crate::rules::armour_battles::command::{self, CommandOdds, CommandTurn, SideCommand};
use crate::rules::armour_battles::fire::{
    self, Bonus, Evasion, FireMode, FireOdds, FireSituation, Modifier, MoveOrder, RangeBand,
};
use crate::rules::armour_battles::outcome::{self, FireRoll, HouseDefault};
use crate::rules::armour_battles::rally::{self, RallyOdds, RallyRoll, RallySituation};
use crate::rules::armour_battles::reliability::{self, MoveOdds, MoveResult, MoveRoll};
use crate::rules::armour_battles::{
    self as ab, ArmourBattles, BattleGroup, FireKind, FirstPulse, Side, UnitCard, UnitKind,
};
use crate::rules::dice::{RollRecord, Roller};
use crate::rules::{Ruleset, names};

/// `quartermaster odds armour-battles …`: exact odds for one action.
#[derive(Debug, Clone, Args)]
pub struct OddsArgs {
    #[command(flatten)]
    pub action: ArmourBattlesArgs,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// `quartermaster roll armour-battles … --seed N`: the same action resolved with dice.
#[derive(Debug, Clone, Args)]
pub struct RollArgs {
    #[command(flatten)]
    pub action: ArmourBattlesArgs,
    /// Seed of the roll: the same seed and arguments give the same dice.
    #[arg(long, value_name = "N")]
    pub seed: u64,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Range band of a shot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RangeArg {
    Short,
    Effective,
    Long,
}

/// Move orders used in the activation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MoveArg {
    Single,
    Double,
    Triple,
}

/// The target's evasive move (+2D reaction).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EvadingArg {
    /// Break off if the card can (Break-Off or Shoot and Scoot), else disengage.
    Auto,
    BreakOff,
    ShootAndScoot,
    Disengage,
}

/// The Armour Battles action and its situation.
#[derive(Debug, Clone, Default, Args)]
#[command(group(
    ArgGroup::new("action")
        .required(true)
        .multiple(false)
        .args(["attacker", "artillery", "command_dice", "rally", "breakdown"])
))]
pub struct ArmourBattlesArgs {
    /// Firing unit (direct fire, or opportunity fire with --opportunity).
    #[arg(long, value_name = "NAME")]
    pub attacker: Option<String>,
    /// Off-table artillery firing a mission at --target.
    #[arg(long, value_name = "NAME")]
    pub artillery: Option<String>,
    /// Command dice of both sides for the start of a turn: US dice, then German dice.
    #[arg(long, num_args = 2, value_names = ["US_DICE", "GER_DICE"])]
    pub command_dice: Option<Vec<u32>>,
    /// Unit attempting to rally (needs --disruption and --distance).
    #[arg(long, value_name = "NAME")]
    pub rally: Option<String>,
    /// Unit making a move (with --move double|triple: Poor Reliability breakdowns).
    #[arg(long, value_name = "NAME")]
    pub breakdown: Option<String>,

    /// Unit fired at.
    #[arg(long, value_name = "NAME")]
    pub target: Option<String>,
    /// Range band (default effective).
    #[arg(long, value_enum)]
    pub range: Option<RangeArg>,
    /// Flank or rear shot (−1 TN; sloped armour uses its second number).
    #[arg(long)]
    pub flank: bool,
    /// Target in light cover (+1D reaction; nothing against artillery). With --rally: in or
    /// behind cover (+1D).
    #[arg(long)]
    pub cover: bool,
    /// Target uphill of the firer (+1D reaction).
    #[arg(long)]
    pub uphill: bool,
    /// Move orders of the firer (double −1D, triple −2D), or of the --breakdown unit.
    #[arg(long = "move", value_enum, value_name = "MOVE")]
    pub move_order: Option<MoveArg>,
    /// Ambush fire from a hidden unit (+1D).
    #[arg(long)]
    pub ambush: bool,
    /// Target evading (+2D reaction): alone it breaks off if the card can, else disengages.
    #[arg(long, value_enum, num_args = 0..=1, default_missing_value = "auto", value_name = "HOW")]
    pub evading: Option<EvadingArg>,
    /// Opportunity fire in the enemy's Command Pulse (no move penalty; catches a disengaging
    /// unit).
    #[arg(long)]
    pub opportunity: bool,
    /// Target already suppressed (reaction at 5+).
    #[arg(long)]
    pub target_suppressed: bool,
    /// Disruption Points already on the target (0–2).
    #[arg(long, value_name = "N")]
    pub target_disruption: Option<u32>,
    /// Wild die and Staff Order added to the attack (0–2: at most one of each).
    #[arg(long, value_name = "N")]
    pub attacker_wild: Option<u32>,
    /// Wild die and Staff Order added to the reaction (0–2).
    #[arg(long, value_name = "N")]
    pub target_wild: Option<u32>,
    /// Artillery Response Dice (default: the battle group's).
    #[arg(long, value_name = "N")]
    pub response_dice: Option<u32>,
    /// Battle of the Lorraine campaign (1–3): picks the battle group's rally dice, artillery
    /// response dice and first-pulse rule.
    #[arg(long, value_name = "N")]
    pub battle: Option<u32>,
    /// Inches from the rallying unit to the closest enemy.
    #[arg(long, value_name = "INCHES")]
    pub distance: Option<f64>,
    /// Disruption Points on the rallying unit (1–2).
    #[arg(long, value_name = "N")]
    pub disruption: Option<u32>,
    /// No line of sight from the rallying unit to any enemy (+1D).
    #[arg(long)]
    pub no_los: bool,
    /// Wild die and Staff Order added to the rally (0–2).
    #[arg(long, value_name = "N")]
    pub wild: Option<u32>,
    /// The rallying unit is suppressed (it cannot rally).
    #[arg(long)]
    pub suppressed: bool,
}

/// The action the arguments ask for, with its cards and situation resolved.
enum Action {
    Fire {
        attacker: &'static UnitCard,
        target: &'static UnitCard,
        situation: FireSituation,
        evasion_note: Option<String>,
    },
    Artillery {
        artillery: &'static UnitCard,
        target: &'static UnitCard,
        situation: ArtillerySituation,
        response_dice: u32,
    },
    Rally {
        unit: &'static UnitCard,
        rally_dice: u32,
        situation: RallySituation,
    },
    Command {
        us: u32,
        german: u32,
        rule: FirstPulse,
        battle: u32,
    },
    Move {
        unit: &'static UnitCard,
        order: MoveOrder,
    },
}

/// Runs `quartermaster odds`.
pub fn run_odds(args: OddsArgs, out: &mut dyn Write) -> Result<u8> {
    let rally = args.action.rally.is_some();
    run_odds_inner(args, out).map_err(|e| name_the_flag(e, rally))
}

/// Runs `quartermaster roll`.
pub fn run_roll(args: RollArgs, out: &mut dyn Write) -> Result<u8> {
    let rally = args.action.rally.is_some();
    run_roll_inner(args, out).map_err(|e| name_the_flag(e, rally))
}

/// A refusal from the rules, re-worded to name the flag the user typed: `--disruption` for a
/// rally, `--target-disruption` for fire.
fn name_the_flag(error: anyhow::Error, rally: bool) -> anyhow::Error {
    use crate::rules::armour_battles::error::ResolveError as E;
    match error.downcast_ref::<E>() {
        Some(e @ E::DisruptionTooHigh { disruption, .. }) => {
            let flag = if rally {
                "--disruption"
            } else {
                "--target-disruption"
            };
            anyhow!("{flag} {disruption}: {e}")
        }
        Some(E::Situation {
            field,
            value,
            reason,
        }) => anyhow!("{}: {value}: {reason}", super::flag_for(field)),
        _ => error,
    }
}

fn run_odds_inner(args: OddsArgs, out: &mut dyn Write) -> Result<u8> {
    let action = parse(&args.action)?;
    let json = args.json;
    match action {
        Action::Fire {
            attacker,
            target,
            situation,
            evasion_note,
        } => {
            let odds = fire::fire_odds(attacker, target, &situation)?;
            if json {
                print_json(out, &shaped(fire_odds_json(&odds)))?;
            } else {
                write_fire_odds(out, &odds, evasion_note.as_deref())?;
            }
        }
        Action::Artillery {
            artillery,
            target,
            situation,
            response_dice,
        } => {
            let odds = artillery::artillery_odds(artillery, target, &situation, response_dice)?;
            if json {
                print_json(out, &shaped(artillery_odds_json(&odds)))?;
            } else {
                write_artillery_odds(out, &odds)?;
            }
        }
        Action::Rally {
            unit,
            rally_dice,
            situation,
        } => {
            let odds = rally::rally_odds(unit, rally_dice, &situation)?;
            if json {
                print_json(out, &shaped(rally_odds_json(&odds)))?;
            } else {
                write_rally_odds(out, &odds)?;
            }
        }
        Action::Command {
            us,
            german,
            rule,
            battle,
        } => {
            let odds = command::command_odds(us, german, rule)?;
            if json {
                print_json(out, &shaped(command_odds_json(&odds, battle)))?;
            } else {
                write_command_odds(out, &odds, battle)?;
            }
        }
        Action::Move { unit, order } => {
            let odds = reliability::move_odds(unit, order)?;
            if json {
                print_json(out, &shaped(move_odds_json(&odds)))?;
            } else {
                write_move_odds(out, &odds)?;
            }
        }
    }
    Ok(EXIT_OK)
}

fn run_roll_inner(args: RollArgs, out: &mut dyn Write) -> Result<u8> {
    let action = parse(&args.action)?;
    let seed = args.seed;
    let mut roller = Roller::new(seed);
    let json = args.json;
    match action {
        Action::Fire {
            attacker,
            target,
            situation,
            ..
        } => {
            let roll = fire::roll_fire(attacker, target, &situation, &mut roller)?;
            let mode = match situation.mode {
                FireMode::Direct => "direct_fire",
                FireMode::Opportunity => "opportunity_fire",
            };
            if json {
                let value = fire_roll_json(mode, attacker, target, &roll);
                let rulings = [
                    outcome::DIRECT_SUPPRESSION_RULING,
                    outcome::FORCED_BACK_RULING,
                ];
                print_json(out, &shaped(with_rulings(value, &rulings)))?;
            } else {
                writeln!(
                    out,
                    "{} fires at {} (seed {seed})",
                    attacker.name, target.name
                )?;
                write_fire_roll(out, &roll, situation.target_disruption)?;
            }
        }
        Action::Artillery {
            artillery,
            target,
            situation,
            response_dice,
        } => {
            let roll = artillery::roll_artillery(
                artillery,
                target,
                &situation,
                response_dice,
                &mut roller,
            )?;
            if json {
                let value = artillery_roll_json(artillery, target, &roll);
                let rulings = [outcome::FORCED_BACK_RULING];
                print_json(out, &shaped(with_rulings(value, &rulings)))?;
            } else {
                write_artillery_roll(out, artillery, target, &roll, situation.target_disruption)?;
            }
        }
        Action::Rally {
            unit,
            rally_dice,
            situation,
        } => {
            let roll = rally::roll_rally(unit, rally_dice, &situation, &mut roller)?;
            if json {
                let rulings = [rally::RALLY_TN_RULING, rally::REMOVED_RULING];
                print_json(
                    out,
                    &shaped(with_rulings(rally_roll_json(unit, &roll), &rulings)),
                )?;
            } else {
                write_rally_roll(out, unit, &roll)?;
            }
        }
        Action::Command {
            us,
            german,
            rule,
            battle,
        } => {
            let turn = command::roll_command(us, german, rule, &mut roller)?;
            if json {
                print_json(out, &shaped(command_roll_json(&turn, battle)))?;
            } else {
                write_command_roll(out, &turn)?;
            }
        }
        Action::Move { unit, order } => {
            let roll = reliability::roll_move(unit, order, &mut roller)?;
            if json {
                let value = move_roll_json(unit, order, &roll);
                let rulings = [reliability::BREAKDOWN_RULING];
                print_json(out, &shaped(with_rulings(value, &rulings)))?;
            } else {
                write_move_roll(out, unit, order, &roll)?;
            }
        }
    }
    Ok(EXIT_OK)
}

// ---------------------------------------------------------------------------------------
// Parsing

/// The card called `name`, or an error naming the flag and the nearest card names.
fn card(name: &str, flag: &str) -> Result<&'static UnitCard> {
    if let Some(card) = ab::unit_card(name) {
        return Ok(card);
    }
    let nearest = names::nearest(ArmourBattles.library(), name);
    match nearest.as_slice() {
        [] => bail!(
            "--{flag}: no Armour Battles unit '{name}' (see `quartermaster units --ruleset armour-battles`)"
        ),
        [one] => bail!("--{flag}: no Armour Battles unit '{name}' — did you mean '{one}'?"),
        many => bail!(
            "--{flag}: no Armour Battles unit '{name}' — did you mean one of: {}?",
            many.iter()
                .map(|n| format!("'{n}'"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A unit that can be fired at: on the table.
fn target_card(args: &ArmourBattlesArgs) -> Result<&'static UnitCard> {
    let name = args
        .target
        .as_deref()
        .ok_or_else(|| anyhow!("--target NAME is required: the unit fired at"))?;
    let target = card(name, "target")?;
    if target.kind == UnitKind::OffTableArtillery {
        bail!(
            "--target: {} is off-table artillery — it is never on the table, so it cannot be fired at",
            target.name
        );
    }
    Ok(target)
}

/// 0, 1 or 2 wild dice / Staff Orders.
fn bonus(count: Option<u32>, flag: &str) -> Result<Bonus> {
    let count = count.unwrap_or(0);
    Bonus::from_count(count).ok_or_else(|| {
        anyhow!("--{flag} {count}: at most 2 (one wild die and one Staff Order per action)")
    })
}

/// Refuses flags that the chosen action ignores, naming them.
fn refuse_unused(args: &ArmourBattlesArgs, action: &str, allowed: &[&str]) -> Result<()> {
    let given: [(&str, bool); 20] = [
        ("target", args.target.is_some()),
        ("range", args.range.is_some()),
        ("flank", args.flank),
        ("cover", args.cover),
        ("uphill", args.uphill),
        ("move", args.move_order.is_some()),
        ("ambush", args.ambush),
        ("evading", args.evading.is_some()),
        ("opportunity", args.opportunity),
        ("target-suppressed", args.target_suppressed),
        ("target-disruption", args.target_disruption.is_some()),
        ("attacker-wild", args.attacker_wild.is_some()),
        ("target-wild", args.target_wild.is_some()),
        ("response-dice", args.response_dice.is_some()),
        ("battle", args.battle.is_some()),
        ("distance", args.distance.is_some()),
        ("disruption", args.disruption.is_some()),
        ("no-los", args.no_los),
        ("wild", args.wild.is_some()),
        ("suppressed", args.suppressed),
    ];
    let unused: Vec<String> = given
        .iter()
        .filter(|(flag, set)| *set && !allowed.contains(flag))
        .map(|(flag, _)| format!("--{flag}"))
        .collect();
    if !unused.is_empty() {
        bail!("{} does not apply to {action}", unused.join(", "));
    }
    Ok(())
}

/// The battle group of `side` in battle `battle` (1–3).
fn group(battle: u32, side: Side) -> Result<&'static BattleGroup> {
    let id = format!(
        "lorraine-{battle}-{}",
        match side {
            Side::Us => "us",
            Side::German => "german",
        }
    );
    ab::battle_group(&id)
        .ok_or_else(|| anyhow!("--battle {battle}: the campaign has battles 1 to 3"))
}

fn parse(args: &ArmourBattlesArgs) -> Result<Action> {
    if let Some(name) = &args.attacker {
        parse_fire(args, name)
    } else if let Some(name) = &args.artillery {
        parse_artillery(args, name)
    } else if let Some(name) = &args.rally {
        parse_rally(args, name)
    } else if let Some(dice) = &args.command_dice {
        parse_command(args, dice)
    } else if let Some(name) = &args.breakdown {
        parse_move(args, name)
    } else {
        bail!("give one of --attacker, --artillery, --rally, --command-dice or --breakdown")
    }
}

fn parse_fire(args: &ArmourBattlesArgs, name: &str) -> Result<Action> {
    refuse_unused(
        args,
        "direct fire",
        &[
            "target",
            "range",
            "flank",
            "cover",
            "uphill",
            "move",
            "ambush",
            "evading",
            "opportunity",
            "target-suppressed",
            "target-disruption",
            "attacker-wild",
            "target-wild",
        ],
    )?;
    let attacker = card(name, "attacker")?;
    if attacker.kind == UnitKind::OffTableArtillery {
        bail!(
            "--attacker: {} is off-table artillery — use --artillery '{}' to fire a mission",
            attacker.name,
            attacker.name
        );
    }
    let target = target_card(args)?;
    let mut mode = if args.opportunity {
        FireMode::Opportunity
    } else {
        FireMode::Direct
    };
    let mut evasion_note = None;
    let evasion = match args.evading {
        None => None,
        Some(EvadingArg::BreakOff) => Some(Evasion::BreakOff),
        Some(EvadingArg::ShootAndScoot) => Some(Evasion::ShootAndScoot),
        Some(EvadingArg::Disengage) => Some(Evasion::Disengage),
        Some(EvadingArg::Auto) => Some(Evasion::for_target(target)),
    };
    if evasion == Some(Evasion::Disengage) && mode == FireMode::Direct {
        // Only opportunity fire can hit a unit while it disengages.
        mode = FireMode::Opportunity;
        evasion_note = Some(format!(
            "{} has no Break-Off: it gains +2D by disengaging, which only opportunity fire can catch",
            target.name
        ));
    }
    let situation = FireSituation {
        mode,
        range: match args.range {
            Some(RangeArg::Short) => RangeBand::Short,
            Some(RangeArg::Long) => RangeBand::Long,
            _ => RangeBand::Effective,
        },
        flank: args.flank,
        cover: args.cover,
        uphill: args.uphill,
        attacker_move: move_order(args.move_order),
        ambush: args.ambush,
        evasion,
        target_suppressed: args.target_suppressed,
        target_disruption: args.target_disruption.unwrap_or(0),
        attacker_bonus: bonus(args.attacker_wild, "attacker-wild")?,
        target_bonus: bonus(args.target_wild, "target-wild")?,
    };
    Ok(Action::Fire {
        attacker,
        target,
        situation,
        evasion_note,
    })
}

fn move_order(arg: Option<MoveArg>) -> MoveOrder {
    match arg {
        Some(MoveArg::Double) => MoveOrder::Double,
        Some(MoveArg::Triple) => MoveOrder::Triple,
        _ => MoveOrder::Single,
    }
}

fn parse_artillery(args: &ArmourBattlesArgs, name: &str) -> Result<Action> {
    refuse_unused(
        args,
        "an artillery mission (it ignores range, flank, uphill and movement)",
        &[
            "target",
            "cover",
            "evading",
            "target-suppressed",
            "target-disruption",
            "attacker-wild",
            "target-wild",
            "response-dice",
            "battle",
        ],
    )?;
    let artillery = card(name, "artillery")?;
    if artillery.kind != UnitKind::OffTableArtillery {
        bail!(
            "--artillery: {} is not off-table artillery — use --attacker '{}' for direct fire",
            artillery.name,
            artillery.name
        );
    }
    let target = target_card(args)?;
    let break_off = match args.evading {
        None => false,
        Some(EvadingArg::Auto | EvadingArg::BreakOff) => true,
        Some(how) => bail!(
            "--evading {}: only Break-Off gains +2D against artillery",
            how.to_possible_value()
                .map_or_else(String::new, |v| v.get_name().to_string())
        ),
    };
    let response_dice = match args.response_dice {
        Some(dice) => dice,
        None => {
            let battles = match args.battle {
                Some(battle) => vec![battle],
                None => vec![1, 2, 3],
            };
            let mut found = None;
            for battle in battles {
                if let Some(dice) = group(battle, artillery.side)?.artillery_response_dice {
                    found = Some(dice);
                    break;
                }
            }
            found.ok_or_else(|| {
                anyhow!(
                    "--battle {}: the {} battle group has no artillery (give --response-dice N)",
                    args.battle.unwrap_or(1),
                    artillery.side.label()
                )
            })?
        }
    };
    Ok(Action::Artillery {
        artillery,
        target,
        situation: ArtillerySituation {
            target_suppressed: args.target_suppressed,
            target_disruption: args.target_disruption.unwrap_or(0),
            cover: args.cover,
            break_off,
            attacker_bonus: bonus(args.attacker_wild, "attacker-wild")?,
            target_bonus: bonus(args.target_wild, "target-wild")?,
        },
        response_dice,
    })
}

fn parse_rally(args: &ArmourBattlesArgs, name: &str) -> Result<Action> {
    refuse_unused(
        args,
        "a rally",
        &[
            "cover",
            "no-los",
            "wild",
            "suppressed",
            "disruption",
            "distance",
            "battle",
        ],
    )?;
    let unit = card(name, "rally")?;
    let distance = args
        .distance
        .ok_or_else(|| anyhow!("--distance INCHES is required: how far the closest enemy is"))?;
    let disruption = args
        .disruption
        .ok_or_else(|| anyhow!("--disruption N is required: the unit's Disruption Points"))?;
    let rally_dice = group(args.battle.unwrap_or(1), unit.side)?.rally_dice;
    Ok(Action::Rally {
        unit,
        rally_dice,
        situation: RallySituation {
            distance_inches: distance,
            cover: args.cover,
            no_line_of_sight: args.no_los,
            bonus: bonus(args.wild, "wild")?,
            disruption,
            suppressed: args.suppressed,
        },
    })
}

fn parse_command(args: &ArmourBattlesArgs, dice: &[u32]) -> Result<Action> {
    refuse_unused(args, "command dice", &["battle"])?;
    let [us, german] = dice else {
        bail!("--command-dice takes two numbers: US dice, then German dice");
    };
    let battle = args.battle.unwrap_or(1);
    let rule = group(battle, Side::Us)?.first_pulse;
    Ok(Action::Command {
        us: *us,
        german: *german,
        rule,
        battle,
    })
}

fn parse_move(args: &ArmourBattlesArgs, name: &str) -> Result<Action> {
    refuse_unused(args, "a move", &["move"])?;
    let unit = card(name, "breakdown")?;
    if unit.kind == UnitKind::OffTableArtillery {
        bail!(
            "--breakdown: {} is off-table artillery and never moves",
            unit.name
        );
    }
    Ok(Action::Move {
        unit,
        order: move_order(args.move_order),
    })
}

// ---------------------------------------------------------------------------------------
// Shared formatting

use crate::rules::words::{amount, percent as pct};

fn signed(change: i32, unit: &str) -> String {
    match change {
        0 => "no effect".to_string(),
        c if c > 0 => format!("+{c}{unit}"),
        c => format!("−{}{unit}", c.unsigned_abs()),
    }
}

fn modifier_text(m: &Modifier) -> String {
    if m.change == 0 {
        return m.label.clone();
    }
    let unit = match m.modifies {
        fire::Modified::AttackerTn | fire::Modified::ReactionTn => " TN",
        _ => "D",
    };
    format!("{} {}", m.label, signed(m.change, unit))
}

fn modifiers_json(modifiers: &[Modifier]) -> Value {
    modifiers
        .iter()
        .map(|m| json!({ "value": m.modifies.key(), "label": m.label, "change": m.change }))
        .collect()
}

fn house_json(map: &mut Map<String, Value>, defaults: &[HouseDefault]) {
    map.insert("house_defaults".into(), json!(defaults));
}

/// A roll's JSON with the house defaults its dice were read by.
fn with_rulings(mut value: Value, rulings: &[HouseDefault]) -> Value {
    if let Value::Object(map) = &mut value {
        house_json(map, rulings);
    }
    value
}

/// The one JSON shape: `mechanic` beside the historical `action`, and `house_defaults` on
/// every answer (empty when none applies).
fn shaped(mut value: Value) -> Value {
    if let Value::Object(map) = &mut value {
        if let Some(action) = map.get("action").cloned() {
            map.entry("mechanic").or_insert(action);
        }
        map.entry("house_defaults").or_insert(json!([]));
    }
    value
}

/// " *" when `value` was computed with a house default, for the text tables.
fn mark(defaults: &[HouseDefault], value: &str) -> &'static str {
    if defaults.iter().any(|h| h.value == value) {
        " *"
    } else {
        ""
    }
}

fn write_house_defaults(out: &mut dyn Write, defaults: &[HouseDefault]) -> Result<()> {
    if !defaults.is_empty() {
        writeln!(out, "* House defaults (RULINGS):")?;
        for h in defaults {
            writeln!(out, "  {:<20} {}", h.value, h.ruling)?;
        }
    }
    Ok(())
}

use super::dist_json;

fn record_json(record: &RollRecord) -> Value {
    json!(record)
}

fn dice_text(record: Option<&RollRecord>) -> String {
    match record {
        Some(r) if !r.dice.is_empty() => r
            .dice
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(" "),
        Some(_) => "(no dice)".to_string(),
        None => "(not rolled)".to_string(),
    }
}

// ---------------------------------------------------------------------------------------
// Fire and artillery odds

fn fire_kind_key(kind: FireKind) -> &'static str {
    match kind {
        FireKind::DirectFrontal => "direct_frontal",
        FireKind::DirectFlank => "direct_flank",
        FireKind::Artillery => "artillery",
    }
}

fn evasion_key(evasion: Evasion) -> &'static str {
    match evasion {
        Evasion::BreakOff => "break_off",
        Evasion::ShootAndScoot => "shoot_and_scoot",
        Evasion::Disengage => "disengage",
    }
}

fn fire_odds_json(odds: &FireOdds) -> Value {
    let r = &odds.result;
    let action = match odds.mode {
        Some(FireMode::Direct) => "direct_fire",
        Some(FireMode::Opportunity) => "opportunity_fire",
        None => "artillery",
    };
    let mut map = Map::new();
    let mut put = |k: &str, v: Value| {
        map.insert(k.to_string(), v);
    };
    put("ruleset", json!("armour-battles"));
    put("action", json!(action));
    put("attacker", json!(odds.attacker));
    put("target", json!(odds.target));
    put("fire_kind", json!(fire_kind_key(odds.fire_kind)));
    put("attacker_dice", json!(odds.attacker_dice));
    put("attacker_tn", json!(odds.attacker_tn));
    put("reaction_dice", json!(odds.reaction_dice));
    put("reaction_tn", json!(odds.reaction_tn));
    put("card_attacker_dice", json!(odds.card_attacker_dice));
    put("card_reaction_dice", json!(odds.card_reaction_dice));
    put("modifiers", modifiers_json(&odds.modifiers));
    put("evasion", json!(odds.evasion.map(evasion_key)));
    put("disruption", json!(r.disruption));
    put(
        "disruption_at_least",
        json!(
            (0..4)
                .map(|n| r.p_disruption_at_least(n))
                .collect::<Vec<_>>()
        ),
    );
    put("p_suppressed", json!(r.p_suppressed));
    put("p_forced_back", json!(r.p_forced_back));
    put("p_dispersed", json!(r.p_dispersed));
    put("existing_disruption", json!(r.existing_disruption));
    put("cohesion", json!(r.cohesion));
    put(
        "forced_back_inches",
        r.forced_back_inches
            .as_ref()
            .map_or(json!([]), |d| dist_json(d, "inches")),
    );
    put("army_morale_loss", dist_json(&r.army_morale_loss, "points"));
    // Exact integer weights as strings: they pass 2^53 and JSON numbers lose them.
    put(
        "exact",
        json!({
            "total": r.total.to_string(),
            "disruption": r.disruption_weights.iter().map(u128::to_string).collect::<Vec<_>>(),
            "suppressed": r.suppressed_weight.to_string(),
            "forced_back": r.forced_back_weight.to_string(),
            "dispersed": r.dispersed_weight.to_string(),
        }),
    );
    house_json(&mut map, &odds.house_defaults);
    Value::Object(map)
}

fn write_pools(out: &mut dyn Write, odds: &FireOdds) -> Result<()> {
    writeln!(out, "               dice   TN   card")?;
    writeln!(
        out,
        "  Attacker    {:>4}   {}+   {}D{}",
        odds.attacker_dice,
        odds.attacker_tn,
        odds.card_attacker_dice,
        mark(&odds.house_defaults, "attacker_tn")
    )?;
    writeln!(
        out,
        "  Reaction    {:>4}   {}+   {}D",
        odds.reaction_dice, odds.reaction_tn, odds.card_reaction_dice
    )?;
    if !odds.modifiers.is_empty() {
        let list: Vec<String> = odds.modifiers.iter().map(modifier_text).collect();
        writeln!(out, "  Modifiers: {}", list.join("; "))?;
    }
    Ok(())
}

fn write_result_odds(out: &mut dyn Write, odds: &FireOdds) -> Result<()> {
    let r = &odds.result;
    writeln!(out)?;
    writeln!(out, "  New Disruption Points   exactly   at least")?;
    for (n, p) in r.disruption.iter().enumerate() {
        let label = if n == 3 {
            "3+".to_string()
        } else {
            n.to_string()
        };
        writeln!(
            out,
            "    {label:<21} {:>7}   {:>8}",
            pct(*p),
            pct(r.p_disruption_at_least(n as u32))
        )?;
    }
    writeln!(out)?;
    let h = &odds.house_defaults;
    writeln!(
        out,
        "  Suppressed   {:>7}{:<2} {}",
        pct(r.p_suppressed),
        mark(h, "p_suppressed"),
        odds.suppression.describe()
    )?;
    let forced = match &r.forced_back_inches {
        Some(d) => format!(
            "{}–{}″, average {:.1}″ (6″ + 1D″ per unmatched 6)",
            d.lowest(),
            d.highest(),
            d.expectation(|&x| f64::from(x))
        ),
        None => "cannot happen".to_string(),
    };
    writeln!(
        out,
        "  Forced back  {:>7}{:<2} {forced}",
        pct(r.p_forced_back),
        mark(h, "forced_back_inches")
    )?;
    writeln!(
        out,
        "  Dispersed    {:>7}   {} DP now, cohesion {}; the side then loses 1D3 Army Morale",
        pct(r.p_dispersed),
        r.existing_disruption,
        r.cohesion
    )?;
    Ok(())
}

fn write_fire_odds(out: &mut dyn Write, odds: &FireOdds, note: Option<&str>) -> Result<()> {
    let mode = match odds.mode {
        Some(FireMode::Opportunity) => "opportunity fire",
        _ => "direct fire",
    };
    let side = match odds.fire_kind {
        FireKind::DirectFlank => "flank/rear",
        _ => "front",
    };
    writeln!(
        out,
        "{} fires at {} — {mode}, {side}",
        odds.attacker, odds.target
    )?;
    if let Some(note) = note {
        writeln!(out, "  Note: {note}")?;
    }
    write_pools(out, odds)?;
    write_result_odds(out, odds)?;
    write_house_defaults(out, &odds.house_defaults)
}

fn artillery_odds_json(odds: &ArtilleryOdds) -> Value {
    let mut value = fire_odds_json(&odds.attack);
    if let Value::Object(map) = &mut value {
        let r = &odds.response;
        map.insert(
            "response".into(),
            json!({
                "response_dice": r.response_dice,
                "response_tn": r.response_tn,
                "opponent_dice": r.opponent_dice,
                "opponent_tn": r.opponent_tn,
                "p_fires_now": r.p_fires_now,
                "exact": { "fires_now": r.fires_now_weight.to_string(), "total": r.total.to_string() },
            }),
        );
        let d = &odds.deviation;
        map.insert(
            "deviation".into(),
            json!({
                "p_on_target": d.p_on_target,
                "inches": dist_json(&d.inches, "inches"),
                "burst_inches": d.burst_inches,
                "p_within_burst": d.p_within_burst,
            }),
        );
    }
    value
}

fn write_artillery_odds(out: &mut dyn Write, odds: &ArtilleryOdds) -> Result<()> {
    let a = &odds.attack;
    let r = &odds.response;
    let d = &odds.deviation;
    writeln!(out, "{} fires a mission at {}", a.attacker, a.target)?;
    writeln!(
        out,
        "  Response     {:>7}   fires at once ({}D at {}+ against {}D at {}+), else next Logistics Phase",
        pct(r.p_fires_now),
        r.response_dice,
        r.response_tn,
        r.opponent_dice,
        r.opponent_tn
    )?;
    writeln!(
        out,
        "  On target    {:>7}   otherwise it scatters 1D″; within the {}″ burst {}",
        pct(d.p_on_target),
        d.burst_inches,
        pct(d.p_within_burst)
    )?;
    writeln!(
        out,
        "  Fire for effect on {} (if under the burst):",
        a.target
    )?;
    write_pools(out, a)?;
    write_result_odds(out, a)?;
    write_house_defaults(out, &a.house_defaults)
}

// ---------------------------------------------------------------------------------------
// Fire and artillery rolls

fn pool_json(record: Option<&RollRecord>, tn: i32) -> Value {
    match record {
        Some(r) => {
            let o = r.pool_outcome(tn);
            json!({ "dice": r.dice, "tn": tn, "successes": o.successes, "sixes": o.sixes })
        }
        None => Value::Null,
    }
}

fn fire_roll_value(roll: &FireRoll) -> Map<String, Value> {
    let r = &roll.result;
    let mut map = Map::new();
    map.insert("seed".into(), json!(roll.seed));
    map.insert(
        "attacker_roll".into(),
        pool_json(Some(&roll.attack), roll.attacker_tn),
    );
    map.insert(
        "reaction_roll".into(),
        pool_json(roll.reaction.as_ref(), roll.reaction_tn),
    );
    map.insert(
        "forced_back_dice".into(),
        json!(roll.forced_back_roll.as_ref().map(|r| &r.dice)),
    );
    map.insert(
        "army_morale_die".into(),
        json!(roll.morale_roll.as_ref().map(|r| &r.dice)),
    );
    map.insert(
        "result".into(),
        json!({
            "new_disruption": r.new_disruption,
            "total_disruption": r.total_disruption,
            "suppressed": r.suppressed,
            "unmatched_sixes": r.unmatched_sixes,
            "forced_back_inches": r.forced_back_inches,
            "dispersed": r.dispersed,
            "army_morale_loss": r.army_morale_loss,
        }),
    );
    map.insert(
        "rolls".into(),
        roll.records().into_iter().map(record_json).collect(),
    );
    map
}

fn fire_roll_json(action: &str, attacker: &UnitCard, target: &UnitCard, roll: &FireRoll) -> Value {
    let mut map = Map::new();
    map.insert("ruleset".into(), json!("armour-battles"));
    map.insert("action".into(), json!(action));
    map.insert("attacker".into(), json!(attacker.name));
    map.insert("target".into(), json!(target.name));
    map.extend(fire_roll_value(roll));
    Value::Object(map)
}

fn write_fire_roll(out: &mut dyn Write, roll: &FireRoll, existing: u32) -> Result<()> {
    let a = roll.attack_outcome;
    writeln!(
        out,
        "  Attacker  {}+: {}  → {} successes, {} × 6",
        roll.attacker_tn,
        dice_text(Some(&roll.attack)),
        a.successes,
        a.sixes
    )?;
    match &roll.reaction {
        Some(reaction) => {
            let d = roll.reaction_outcome;
            writeln!(
                out,
                "  Reaction  {}+: {}  → {} successes, {} × 6",
                roll.reaction_tn,
                dice_text(Some(reaction)),
                d.successes,
                d.sixes
            )?;
        }
        None => writeln!(
            out,
            "  Reaction  not needed: the attacker scored no success"
        )?,
    }
    let r = &roll.result;
    writeln!(
        out,
        "  Result    {} new ({} → {}){}",
        amount(u64::from(r.new_disruption), "Disruption Points"),
        existing,
        r.total_disruption,
        if r.suppressed { ", suppressed" } else { "" }
    )?;
    if let Some(loss) = r.army_morale_loss {
        writeln!(
            out,
            "            Dispersed: the side loses {}",
            amount(u64::from(loss), "Army Morale Points")
        )?;
    } else if let (Some(inches), Some(dice)) = (r.forced_back_inches, &roll.forced_back_roll) {
        writeln!(
            out,
            "            Forced back {inches}″ (6″ + {})",
            if dice.dice.is_empty() {
                "no dice".to_string()
            } else {
                dice_text(Some(dice))
            }
        )?;
    }
    Ok(())
}

fn artillery_roll_json(artillery: &UnitCard, target: &UnitCard, roll: &ArtilleryRoll) -> Value {
    let r = &roll.response;
    let d = &roll.deviation;
    let mut attack = fire_roll_value(&roll.attack);
    attack.remove("seed");
    let mut rolls = vec![
        record_json(&r.ours),
        record_json(&r.theirs),
        record_json(&d.record),
    ];
    if let Some(Value::Array(more)) = attack.remove("rolls") {
        rolls.extend(more);
    }
    let mut map = Map::new();
    map.insert("ruleset".into(), json!("armour-battles"));
    map.insert("action".into(), json!("artillery"));
    map.insert("seed".into(), json!(roll.seed));
    map.insert("attacker".into(), json!(artillery.name));
    map.insert("target".into(), json!(target.name));
    map.insert(
        "response".into(),
        json!({
            "dice": r.ours.dice, "opponent_dice": r.theirs.dice,
            "successes": r.successes, "opponent_successes": r.opponent_successes,
            "fires_now": r.fires_now,
        }),
    );
    map.insert(
        "deviation".into(),
        json!({
            "hit_die": d.record.dice.first(), "scatter_dice": d.record.dice.get(1..),
            "on_target": d.on_target, "inches": d.inches, "within_burst": d.within_burst,
        }),
    );
    map.extend(attack);
    map.insert("rolls".into(), Value::Array(rolls));
    Value::Object(map)
}

fn write_artillery_roll(
    out: &mut dyn Write,
    artillery: &UnitCard,
    target: &UnitCard,
    roll: &ArtilleryRoll,
    existing: u32,
) -> Result<()> {
    let r = &roll.response;
    let d = &roll.deviation;
    writeln!(
        out,
        "{} fires a mission at {} (seed {})",
        artillery.name, target.name, roll.seed
    )?;
    writeln!(
        out,
        "  Response  {} ({}) against {} ({}): {}",
        dice_text(Some(&r.ours)),
        r.successes,
        dice_text(Some(&r.theirs)),
        r.opponent_successes,
        if r.fires_now {
            "fires at once"
        } else {
            "fires in the next Logistics Phase"
        }
    )?;
    let landing = if d.on_target {
        "on target".to_string()
    } else if d.within_burst {
        format!("scatters {}″ — still within the burst", d.inches)
    } else {
        format!(
            "scatters {}″ — check whether the target is still under the burst",
            d.inches
        )
    };
    writeln!(out, "  Deviation {}: {landing}", dice_text(Some(&d.record)))?;
    write_fire_roll(out, &roll.attack, existing)
}

// ---------------------------------------------------------------------------------------
// Rally

fn rally_odds_json(odds: &RallyOdds) -> Value {
    let removed: Vec<f64> = (0..=odds.disruption)
        .map(|n| odds.removed.probability(&n))
        .collect();
    let at_least: Vec<f64> = (0..=odds.disruption)
        .map(|n| odds.p_removed_at_least(n))
        .collect();
    let mut map = Map::new();
    map.insert("ruleset".into(), json!("armour-battles"));
    map.insert("action".into(), json!("rally"));
    map.insert("unit".into(), json!(odds.unit));
    map.insert("rally_dice".into(), json!(odds.rally_dice));
    map.insert("rally_tn".into(), json!(odds.rally_tn));
    map.insert("opponent_dice".into(), json!(odds.opponent_dice));
    map.insert("opponent_tn".into(), json!(odds.opponent_tn));
    map.insert("base_rally_dice".into(), json!(odds.base_dice));
    map.insert("modifiers".into(), modifiers_json(&odds.modifiers));
    map.insert("disruption".into(), json!(odds.disruption));
    map.insert("removed".into(), json!(removed));
    map.insert("removed_at_least".into(), json!(at_least));
    map.insert(
        "exact".into(),
        json!({
            "total": odds.removed.total().to_string(),
            "removed": (0..=odds.disruption).map(|n| odds.removed.weight(&n).to_string()).collect::<Vec<_>>(),
        }),
    );
    house_json(&mut map, &odds.house_defaults);
    Value::Object(map)
}

fn write_rally_odds(out: &mut dyn Write, odds: &RallyOdds) -> Result<()> {
    writeln!(
        out,
        "{} rallies with {}",
        odds.unit,
        amount(u64::from(odds.disruption), "Disruption Points")
    )?;
    writeln!(
        out,
        "  Rally dice  {}D at {}+{} (battle group {}D)",
        odds.rally_dice,
        odds.rally_tn,
        mark(&odds.house_defaults, "rally_tn"),
        odds.base_dice
    )?;
    writeln!(
        out,
        "  Opponent    {}D at {}+ (one per point)",
        odds.opponent_dice, odds.opponent_tn
    )?;
    if !odds.modifiers.is_empty() {
        let list: Vec<String> = odds.modifiers.iter().map(modifier_text).collect();
        writeln!(out, "  Modifiers: {}", list.join("; "))?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "  Points removed   exactly   at least{}",
        mark(&odds.house_defaults, "removed")
    )?;
    for n in 0..=odds.disruption {
        writeln!(
            out,
            "    {n:<14} {:>7}   {:>8}",
            pct(odds.removed.probability(&n)),
            pct(odds.p_removed_at_least(n))
        )?;
    }
    write_house_defaults(out, &odds.house_defaults)
}

fn rally_roll_json(unit: &UnitCard, roll: &RallyRoll) -> Value {
    json!({
        "ruleset": "armour-battles",
        "action": "rally",
        "seed": roll.seed,
        "unit": unit.name,
        "rally_roll": pool_json(Some(&roll.rally), roll.rally_tn),
        "opponent_roll": pool_json(Some(&roll.opponent), roll.opponent_tn),
        "result": { "removed": roll.removed, "remaining": roll.remaining },
        "rolls": [record_json(&roll.rally), record_json(&roll.opponent)],
    })
}

fn write_rally_roll(out: &mut dyn Write, unit: &UnitCard, roll: &RallyRoll) -> Result<()> {
    writeln!(out, "{} rallies (seed {})", unit.name, roll.seed)?;
    writeln!(
        out,
        "  Rally     {}+: {}  → {} successes",
        roll.rally_tn,
        dice_text(Some(&roll.rally)),
        roll.rally_successes
    )?;
    writeln!(
        out,
        "  Opponent  {}+: {}  → {} successes",
        roll.opponent_tn,
        dice_text(Some(&roll.opponent)),
        roll.opponent_successes
    )?;
    writeln!(
        out,
        "  Result    {} removed, {} left",
        amount(u64::from(roll.removed), "points"),
        roll.remaining
    )?;
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Command dice

fn rule_key(rule: FirstPulse) -> &'static str {
    match rule {
        FirstPulse::Roll => "roll",
        FirstPulse::UsAutomatic => "us_automatic",
    }
}

fn command_odds_json(odds: &CommandOdds, battle: u32) -> Value {
    json!({
        "ruleset": "armour-battles",
        "action": "command_dice",
        "battle": battle,
        "us_dice": odds.us_dice,
        "german_dice": odds.german_dice,
        "first_pulse_rule": rule_key(odds.rule),
        "p_us_failure": odds.us_failure.p(),
        "p_german_failure": odds.german_failure.p(),
        "p_both_fail": odds.both_fail.p(),
        "p_reroll": odds.p_reroll(),
        "p_us_first": odds.p_us_first(),
        "p_german_first": odds.p_german_first(),
        "p_turn_ends": odds.p_turn_ends(),
        "exact": {
            "us_failure": [odds.us_failure.weight.to_string(), odds.us_failure.total.to_string()],
            "german_failure": [odds.german_failure.weight.to_string(), odds.german_failure.total.to_string()],
            "first_pulse_total": odds.first_pulse.total().to_string(),
            "us_first": odds.first_pulse.weight(&command::PulseOutcome::UsFirst).to_string(),
            "german_first": odds.first_pulse.weight(&command::PulseOutcome::GermanFirst).to_string(),
            "turn_ends": odds.first_pulse.weight(&command::PulseOutcome::TurnEnds).to_string(),
        },
        "house_defaults": [],
    })
}

fn write_command_odds(out: &mut dyn Write, odds: &CommandOdds, battle: u32) -> Result<()> {
    writeln!(
        out,
        "Command dice, Battle {battle}: US {}D, German {}D — first pulse: {}",
        odds.us_dice,
        odds.german_dice,
        odds.rule.label()
    )?;
    writeln!(
        out,
        "  US Command Failure       {:>7}",
        pct(odds.us_failure.p())
    )?;
    writeln!(
        out,
        "  German Command Failure   {:>7}",
        pct(odds.german_failure.p())
    )?;
    writeln!(
        out,
        "  Both fail (turn ends)    {:>7}   per roll",
        pct(odds.both_fail.p())
    )?;
    if odds.rule == FirstPulse::Roll {
        writeln!(
            out,
            "  Full tie, reroll         {:>7}   per roll",
            pct(odds.p_reroll())
        )?;
    }
    writeln!(out, "  After any rerolls:")?;
    writeln!(
        out,
        "    US first pulse         {:>7}",
        pct(odds.p_us_first())
    )?;
    writeln!(
        out,
        "    German first pulse     {:>7}",
        pct(odds.p_german_first())
    )?;
    writeln!(
        out,
        "    Turn ends at once      {:>7}",
        pct(odds.p_turn_ends())
    )?;
    Ok(())
}

fn side_json(side: &SideCommand) -> Value {
    json!({
        "dice": side.record.dice,
        "ones": side.ones,
        "sixes": side.sixes,
        "failed": side.failed,
        "ones_given": side.ones_given,
        "ones_discarded": side.ones_discarded,
        "chains": side.chains.iter().map(|c| json!({ "face": c.face, "dice": c.dice })).collect::<Vec<_>>(),
        "wild_sixes": side.wild_sixes,
        "wild_received": side.wild_received,
        "dice_available": side.dice_available(),
    })
}

fn side_key(side: Option<Side>) -> Value {
    match side {
        Some(Side::Us) => json!("us"),
        Some(Side::German) => json!("german"),
        None => Value::Null,
    }
}

fn command_roll_json(turn: &CommandTurn, battle: u32) -> Value {
    let rolls: Vec<Value> = turn
        .rounds
        .iter()
        .flat_map(|r| [record_json(&r.us), record_json(&r.german)])
        .collect();
    json!({
        "ruleset": "armour-battles",
        "action": "command_dice",
        "seed": turn.seed,
        "battle": battle,
        "first_pulse_rule": rule_key(turn.rule),
        "rerolls": turn.rounds.len().saturating_sub(1),
        "us": side_json(&turn.us),
        "german": side_json(&turn.german),
        "result": { "first_pulse": side_key(turn.first_pulse), "turn_ends": turn.turn_ends },
        "rolls": rolls,
    })
}

fn write_side(out: &mut dyn Write, side: &SideCommand) -> Result<()> {
    writeln!(
        out,
        "  {:<7} {}  — {}",
        side.side.label(),
        dice_text(Some(&side.record)),
        side.summary()
    )?;
    Ok(())
}

fn write_command_roll(out: &mut dyn Write, turn: &CommandTurn) -> Result<()> {
    writeln!(out, "Command dice (seed {})", turn.seed)?;
    for (i, round) in turn
        .rounds
        .iter()
        .enumerate()
        .take(turn.rounds.len().saturating_sub(1))
    {
        writeln!(
            out,
            "  Roll {}: US {} / German {} — full tie, reroll",
            i + 1,
            dice_text(Some(&round.us)),
            dice_text(Some(&round.german))
        )?;
    }
    write_side(out, &turn.us)?;
    write_side(out, &turn.german)?;
    match turn.first_pulse {
        Some(side) => writeln!(out, "  First pulse: {}", side.label())?,
        None => writeln!(out, "  Both sides failed: the turn ends at once")?,
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Moves and Poor Reliability

fn move_key(order: MoveOrder) -> &'static str {
    match order {
        MoveOrder::Single => "single",
        MoveOrder::Double => "double",
        MoveOrder::Triple => "triple",
    }
}

fn move_odds_json(odds: &MoveOdds) -> Value {
    let total = odds.outcomes.total();
    let outcomes: Vec<Value> = odds
        .outcomes
        .iter()
        .filter_map(|(result, w)| match result {
            MoveResult::Moved(inches) => Some(json!({
                "inches": inches,
                "weight": w.to_string(),
                "probability": w as f64 / total as f64,
            })),
            MoveResult::BrokeDown => None,
        })
        .collect();
    let distance = json!({ "total": total.to_string(), "outcomes": outcomes });
    let mut map = Map::new();
    map.insert("ruleset".into(), json!("armour-battles"));
    map.insert("action".into(), json!("move"));
    map.insert("unit".into(), json!(odds.unit));
    map.insert("move".into(), json!(move_key(odds.order)));
    map.insert("dice".into(), json!(odds.dice));
    map.insert("checks_reliability".into(), json!(odds.checks_reliability));
    map.insert("p_breakdown".into(), json!(odds.p_breakdown()));
    map.insert("distance".into(), distance);
    map.insert(
        "exact".into(),
        json!({ "breakdown": odds.breakdown.weight.to_string(), "total": odds.breakdown.total.to_string() }),
    );
    house_json(&mut map, &odds.house_defaults);
    Value::Object(map)
}

fn write_move_odds(out: &mut dyn Write, odds: &MoveOdds) -> Result<()> {
    writeln!(
        out,
        "{} makes a {} ({} variable dice)",
        odds.unit,
        odds.order.label(),
        odds.dice
    )?;
    if odds.checks_reliability {
        writeln!(
            out,
            "  Breaks down  {:>7}{:<2} more 1s than 6s on the move's dice",
            pct(odds.p_breakdown()),
            mark(&odds.house_defaults, "p_breakdown")
        )?;
    } else {
        writeln!(
            out,
            "  Breaks down     0.0%   (no Poor Reliability check on this move)"
        )?;
    }
    let moved = |inches: u32| odds.outcomes.at_least(&MoveResult::Moved(inches));
    let (low, high) = match (odds.outcomes.lowest(), odds.outcomes.highest()) {
        (_, MoveResult::BrokeDown) => (0, 0),
        (MoveResult::Moved(low), MoveResult::Moved(high)) => (*low, *high),
        (MoveResult::BrokeDown, MoveResult::Moved(high)) => {
            let low = odds
                .outcomes
                .iter()
                .find_map(|(r, _)| match r {
                    MoveResult::Moved(i) => Some(*i),
                    MoveResult::BrokeDown => None,
                })
                .unwrap_or(*high);
            (low, *high)
        }
    };
    if high > 0 {
        writeln!(out, "  Moves at least")?;
        let step = ((high - low) / 6).max(1);
        let mut inches = low;
        while inches <= high {
            writeln!(out, "    {inches:>3}″   {:>7}", pct(moved(inches)))?;
            inches += step;
        }
    }
    write_house_defaults(out, &odds.house_defaults)
}

fn move_roll_json(unit: &UnitCard, order: MoveOrder, roll: &MoveRoll) -> Value {
    let (broke_down, inches) = match roll.result {
        MoveResult::BrokeDown => (true, None),
        MoveResult::Moved(inches) => (false, Some(inches)),
    };
    json!({
        "ruleset": "armour-battles",
        "action": "move",
        "seed": roll.seed,
        "unit": unit.name,
        "move": move_key(order),
        "dice": roll.record.dice,
        "checks_reliability": roll.checks_reliability,
        "result": { "broke_down": broke_down, "inches": inches },
        "rolls": [record_json(&roll.record)],
    })
}

fn write_move_roll(
    out: &mut dyn Write,
    unit: &UnitCard,
    order: MoveOrder,
    roll: &MoveRoll,
) -> Result<()> {
    writeln!(
        out,
        "{} makes a {} (seed {})",
        unit.name,
        order.label(),
        roll.seed
    )?;
    writeln!(out, "  Dice      {}", dice_text(Some(&roll.record)))?;
    match roll.result {
        MoveResult::BrokeDown => writeln!(
            out,
            "  Result    broke down: no move this turn (it may still fire)"
        )?,
        MoveResult::Moved(inches) => writeln!(out, "  Result    moves {inches}″")?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Probe {
        #[command(subcommand)]
        command: ProbeCommand,
    }

    /// The same shape as `cli::Command::{Odds, Roll}`: the ruleset is a subcommand.
    #[derive(Debug, clap::Subcommand)]
    enum ProbeCommand {
        #[command(subcommand)]
        Odds(ProbeOdds),
        #[command(subcommand)]
        Roll(ProbeRoll),
    }

    #[derive(Debug, clap::Subcommand)]
    enum ProbeOdds {
        ArmourBattles(OddsArgs),
    }

    #[derive(Debug, clap::Subcommand)]
    enum ProbeRoll {
        ArmourBattles(RollArgs),
    }

    /// Runs a command line as the binary would, returning (exit code, stdout, error).
    fn run(line: &[&str]) -> (u8, String, String) {
        let probe = match Probe::try_parse_from(
            std::iter::once("quartermaster").chain(line.iter().copied()),
        ) {
            Ok(probe) => probe,
            Err(e) => return (2, String::new(), e.to_string()),
        };
        let mut out = Vec::new();
        let result = match probe.command {
            ProbeCommand::Odds(ProbeOdds::ArmourBattles(args)) => run_odds(args, &mut out),
            ProbeCommand::Roll(ProbeRoll::ArmourBattles(args)) => run_roll(args, &mut out),
        };
        match result {
            Ok(code) => (code, String::from_utf8(out).unwrap(), String::new()),
            Err(e) => (2, String::from_utf8(out).unwrap(), format!("{e:#}")),
        }
    }

    fn json_of(line: &[&str]) -> Value {
        let (code, out, err) = run(line);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(&out).unwrap()
    }

    #[test]
    fn odds_json_has_the_contract_fields() {
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
    fn text_odds_show_at_least_figures() {
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
    fn names_are_checked_with_hints() {
        let (code, _, err) = run(&[
            "odds",
            "armour-battles",
            "--attacker",
            "Pantehr",
            "--target",
            "M4 75mm",
        ]);
        assert_eq!(code, 2);
        assert!(err.contains("Panther Ausf G"), "{err}");
        assert!(!err.contains('\n'));
        let (code, _, err) = run(&[
            "odds",
            "armour-battles",
            "--attacker",
            "M7",
            "--target",
            "Panther",
        ]);
        assert_eq!(code, 2);
        assert!(err.contains("--artillery"), "{err}");
        let (code, _, err) = run(&[
            "odds",
            "armour-battles",
            "--artillery",
            "M7",
            "--target",
            "105mm Howitzer",
        ]);
        assert_eq!(code, 2);
        assert!(err.contains("cannot be fired at"), "{err}");
        let (code, _, err) = run(&[
            "odds",
            "armour-battles",
            "--attacker",
            "Tiger",
            "--target",
            "M4 75mm",
            "--distance",
            "5",
        ]);
        assert_eq!(code, 2);
        assert!(err.contains("--distance"), "{err}");
    }

    #[test]
    fn artillery_rally_command_and_move_odds_run() {
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
        assert!(v["response"]["p_fires_now"].as_f64().unwrap() > 0.0);
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
    fn rolls_replay_from_the_seed() {
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
            assert!(a["result"].is_object(), "{a}");
            let text = run(&line[..line.len() - 1]);
            assert_eq!(text.0, 0);
            assert!(text.1.contains("seed 12345"), "{}", text.1);
        }
    }
}
