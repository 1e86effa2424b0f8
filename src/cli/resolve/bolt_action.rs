//! `odds|roll bolt-action`: Bolt Action — a shooting attack, an order test, close quarters or
//! an assault on a vehicle: the flags and their mapping onto `rules::bolt_action::mechanics`.

use anyhow::{Result, anyhow, bail};
use clap::{Args, ValueEnum};

use super::cards::unknown_name;
use super::{Cards, RulesetFlags, card_value};
use crate::rules::bolt_action::mechanics::{FROM_UNIT, MECHANICS};
use crate::rules::bolt_action::{Weapon, tables};
use crate::rules::resolution::{InputValue, Inputs, Mechanic, ResolveError};

/// Troop quality on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum QualityArg {
    Inexperienced,
    Regular,
    Veteran,
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

/// How the assaulted vehicle moved this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum VehicleMoveArg {
    Still,
    Advanced,
    Ran,
}

/// Whether the assaulting unit carries anti-tank weapons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum YesNoArg {
    Yes,
    No,
}

/// Arguments of `odds bolt-action` / `roll bolt-action`.
#[derive(Debug, Args)]
pub struct BoltActionArgs {
    /// An order test instead of shooting: 2d6 ≤ morale − pins + officer bonus; double six
    /// is FUBAR.
    #[arg(long, conflicts_with_all = ["close_quarters", "assault_vehicle"])]
    pub order_test: bool,
    /// Close quarters instead of shooting: --unit (with --models) assaults the infantry
    /// --target (with --target-models), fought in rounds until one side is destroyed.
    #[arg(long, conflicts_with = "assault_vehicle")]
    pub close_quarters: bool,
    /// Infantry --unit (with --models) assaults the vehicle --target.
    #[arg(long)]
    pub assault_vehicle: bool,
    /// Models in the acting unit (close quarters, assaulting a vehicle; default 5).
    #[arg(long, value_name = "N")]
    pub models: Option<u32>,
    /// Models in the defending unit (close quarters; default 5).
    #[arg(long, value_name = "N")]
    pub target_models: Option<u32>,
    /// The target's troop quality (overrides --target's): its damage value in close quarters,
    /// a vehicle's morale for its On Fire check.
    #[arg(long, value_enum)]
    pub target_quality: Option<QualityArg>,
    /// Pins already on the target vehicle (they count against its On Fire check).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub target_pins: u32,
    /// How the assaulted vehicle moved this turn: still (hit on 4+), advanced (6), ran (cannot
    /// be assaulted).
    #[arg(long, value_enum)]
    pub vehicle_move: Option<VehicleMoveArg>,
    /// Whether the assaulting unit carries anti-tank weapons (default: by --unit's weapons).
    #[arg(long, value_enum)]
    pub anti_tank: Option<YesNoArg>,
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

/// The weapon by chart name or the abbreviation in its brackets ("LMG"), any case.
fn find_weapon(query: &str) -> Result<&'static Weapon> {
    let tables = tables().ok_or(ResolveError::NoData {
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

impl RulesetFlags for BoltActionArgs {
    fn inputs(&self, cards: &Cards) -> Result<(&'static Mechanic, Inputs)> {
        let key = match (self.order_test, self.close_quarters, self.assault_vehicle) {
            (true, _, _) => "order_test",
            (_, true, _) => "close_quarters",
            (_, _, true) => "vehicle_assault",
            _ => "shooting",
        };
        let mechanic = MECHANICS
            .iter()
            .find(|m| m.key == key)
            .ok_or_else(|| anyhow!("no Bolt Action mechanic '{key}'"))?;
        let mut inputs = mechanic.defaults();
        let quality_key = |q: Option<QualityArg>| match q {
            Some(QualityArg::Inexperienced) => "inexperienced",
            Some(QualityArg::Regular) => "regular",
            Some(QualityArg::Veteran) => "veteran",
            // Without the flag the unit's counts; neither is refused by the rules.
            None => FROM_UNIT,
        };
        inputs.set(
            "target_quality",
            InputValue::Choice(quality_key(self.target_quality)),
        );
        inputs.set(
            "target_pins",
            InputValue::Count(i64::from(self.target_pins)),
        );
        for (key, value) in [
            ("models", self.models),
            ("target_models", self.target_models),
        ] {
            if let Some(n) = value {
                inputs.set(key, InputValue::Count(i64::from(n)));
            }
        }
        if let Some(motion) = self.vehicle_move {
            let motion = match motion {
                VehicleMoveArg::Still => "still",
                VehicleMoveArg::Advanced => "advanced",
                VehicleMoveArg::Ran => "ran",
            };
            inputs.set("vehicle_move", InputValue::Choice(motion));
        }
        if let Some(at) = self.anti_tank {
            let at = if at == YesNoArg::Yes { "yes" } else { "no" };
            inputs.set("anti_tank", InputValue::Choice(at));
        }
        inputs.set("unit", card_value(cards, "--unit", self.unit.as_deref())?);
        inputs.set(
            "target",
            card_value(cards, "--target", self.target.as_deref())?,
        );
        inputs.set("quality", InputValue::Choice(quality_key(self.quality)));
        inputs.set(
            "officer",
            InputValue::Choice(match self.officer {
                None => "none",
                Some(OfficerArg::SecondLieutenant) => "second_lieutenant",
                Some(OfficerArg::FirstLieutenant) => "first_lieutenant",
                Some(OfficerArg::Captain) => "captain",
                Some(OfficerArg::Major) => "major",
            }),
        );
        if let Some(name) = &self.weapon {
            inputs.set(
                "weapon",
                InputValue::Choice(find_weapon(name)?.name.as_str()),
            );
        }
        inputs.set("pins", InputValue::Count(i64::from(self.pins)));
        inputs.set("firers", InputValue::Count(i64::from(self.firers)));
        inputs.set(
            "damage_value",
            InputValue::Count(self.damage_value.map_or(0, i64::from)),
        );
        let cover = match (self.soft_cover, self.hard_cover) {
            (_, true) => "hard",
            (true, _) => "soft",
            _ => "none",
        };
        inputs.set("cover", InputValue::Choice(cover));
        let facing = match (self.side, self.rear) {
            (_, true) => "rear",
            (true, _) => "side",
            _ => "front",
        };
        inputs.set("facing", InputValue::Choice(facing));
        for (key, on) in [
            ("he", self.he),
            ("point_blank", self.point_blank),
            ("long_range", self.long_range),
            (
                "inexperienced",
                self.inexperienced || self.quality == Some(QualityArg::Inexperienced),
            ),
            ("moving", self.moving),
            ("target_down", self.target_down),
            ("small_unit", self.small_unit),
            ("armoured", self.armoured),
            ("open_topped", self.open_topped),
            ("massive_damage", self.massive_damage),
            ("indirect", self.indirect),
            ("immobilised", self.immobilised),
        ] {
            inputs.set(key, InputValue::Flag(on));
        }
        Ok((mechanic, inputs))
    }

    fn json(&self) -> bool {
        self.json
    }
}
