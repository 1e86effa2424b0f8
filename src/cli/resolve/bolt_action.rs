//! `odds|roll bolt-action`: Bolt Action: a shooting attack or an order test — the mapping from flags to the
//! rules' inputs, and the answer in text or JSON.

use super::*;

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

fn bolt_unit(flag: &str, name: &str) -> Result<&'static bolt_rules::UnitProfile> {
    match find_card(RulesetId::BoltAction, flag, name)? {
        Card::BoltAction(u) => Ok(u),
        _ => bail!("{flag}: '{name}' is not a Bolt Action unit"),
    }
}

/// The weapon by chart name or the abbreviation in its brackets ("LMG"), any case.
fn find_weapon(query: &str) -> Result<&'static Weapon> {
    let tables = bolt_rules::tables().ok_or(ba::ResolveError::NoData {
        ruleset: "Bolt Action",
    })?;
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
    fn unit(&self) -> Result<Option<&'static bolt_rules::UnitProfile>> {
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

pub(super) fn bolt_action_odds(args: &BoltActionArgs, out: &mut dyn Write) -> Result<u8> {
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

pub(super) fn bolt_action_roll(
    args: &BoltActionArgs,
    roller: &mut Roller,
    out: &mut dyn Write,
) -> Result<u8> {
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
