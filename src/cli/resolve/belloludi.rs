//! `odds|roll belloludi`: BelloLudi Tanks!: a shot, the command roll or a crash — the mapping from flags to the
//! rules' inputs, and the answer in text or JSON.

use super::*;

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
    let tables = belloludi_rules::resolution();
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

pub(super) fn belloludi_odds(args: &BelloludiArgs, out: &mut dyn Write) -> Result<u8> {
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

pub(super) fn belloludi_roll(
    args: &BelloludiArgs,
    roller: &mut Roller,
    out: &mut dyn Write,
) -> Result<u8> {
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
