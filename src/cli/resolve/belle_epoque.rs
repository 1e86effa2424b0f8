//! `odds|roll belle-epoque`: Belle Epoque: command points, reactivity, fire or an assault — the mapping from flags to the
//! rules' inputs, and the answer in text or JSON.

use super::*;

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

fn belle_unit(flag: &str, name: &str) -> Result<&'static belle_rules::UnitProfile> {
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

    fn unit(&self) -> Result<Option<&'static belle_rules::UnitProfile>> {
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
        use belle_rules::TroopType;
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
                doctrine: belle_rules::Doctrine::Close,
                infantry: true,
                terrain,
                conspicuous: false,
                stands: None,
                unrevealed: false,
            },
        };
        if let Some(order) = self.target_order {
            target.doctrine = match order {
                OrderArg::Loose => belle_rules::Doctrine::Loose,
                OrderArg::Close => belle_rules::Doctrine::Close,
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

pub(super) fn belle_epoque_odds(args: &BelleEpoqueArgs, out: &mut dyn Write) -> Result<u8> {
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
            Err(e @ be::ResolveError::NoResult(_)) => {
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

pub(super) fn belle_epoque_roll(
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
            Err(e @ be::ResolveError::NoResult(_)) => {
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
