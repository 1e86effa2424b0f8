//! `odds|roll battle-of-tanks`: Battle of Tanks: a fire order, repair or spotting — the mapping from flags to the
//! rules' inputs, and the answer in text or JSON.

use super::*;

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

pub(super) fn battle_of_tanks_odds(args: &BattleOfTanksArgs, out: &mut dyn Write) -> Result<u8> {
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
        Err(e @ bot::ResolveError::NoResult(_)) => {
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

pub(super) fn battle_of_tanks_roll(
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
        Err(e @ bot::ResolveError::NoResult(_)) => {
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
