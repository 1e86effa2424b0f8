//! `odds|roll belle-epoque`: Belle Epoque — command points, reactivity, fire or an assault:
//! the flags and their mapping onto `rules::belle_epoque::mechanics`.

use anyhow::Result;
use clap::{ArgGroup, Args, ValueEnum};

use super::{Cards, RulesetFlags, card_value};
use crate::rules::belle_epoque::mechanics::MECHANICS;
use crate::rules::resolution::{InputValue, Inputs, Mechanic};

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

fn level(arg: Option<LevelArg>) -> &'static str {
    match arg {
        None => "card",
        Some(LevelArg::MilitiaOrLooseRegulars) => "militia_or_loose_regulars",
        Some(LevelArg::CloseRegulars) => "close_regulars",
        Some(LevelArg::Choc) => "choc",
    }
}

fn troop_type(arg: Option<TroopTypeArg>) -> &'static str {
    match arg {
        None => "card",
        Some(TroopTypeArg::A) => "a",
        Some(TroopTypeArg::B) => "b",
        Some(TroopTypeArg::C) => "c",
        Some(TroopTypeArg::D) => "d",
        Some(TroopTypeArg::E) => "e",
        Some(TroopTypeArg::F) => "f",
        Some(TroopTypeArg::G) => "g",
    }
}

impl BelleEpoqueArgs {
    fn mechanic(&self) -> &'static Mechanic {
        if self.command_points {
            &MECHANICS[0]
        } else if self.reactivity {
            &MECHANICS[1]
        } else if self.fire {
            &MECHANICS[2]
        } else {
            &MECHANICS[3]
        }
    }

    fn choices(&self, inputs: &mut Inputs) {
        let general = match self.general {
            GeneralArg::Mediocre => "mediocre",
            GeneralArg::Average => "average",
            GeneralArg::Superior => "superior",
        };
        let order = match self.target_order {
            None => "card",
            Some(OrderArg::Loose) => "loose",
            Some(OrderArg::Close) => "close",
        };
        let terrain = match self.target_terrain {
            TerrainArg::Open => "open",
            TerrainArg::Cover => "cover",
            TerrainArg::Fortifications => "fortifications",
        };
        let position = match self.position {
            PositionArg::Open => "open",
            PositionArg::Hill => "hill",
            PositionArg::Fortifications => "fortifications",
        };
        for (key, value) in [
            ("general", general),
            ("troop_type", troop_type(self.troop_type)),
            ("target_order", order),
            ("target_terrain", terrain),
            ("position", position),
            ("attacker_level", level(self.attacker_level)),
            ("defender_level", level(self.defender_level)),
        ] {
            inputs.set(key, InputValue::Choice(value));
        }
    }
}

impl RulesetFlags for BelleEpoqueArgs {
    fn inputs(&self, cards: &Cards) -> Result<(&'static Mechanic, Inputs)> {
        let mechanic = self.mechanic();
        let mut inputs = mechanic.defaults();
        for (key, flag, name) in [
            ("unit", "--unit", &self.unit),
            ("target", "--target", &self.target),
            ("attacker", "--attacker", &self.attacker),
            ("defender", "--defender", &self.defender),
        ] {
            inputs.set(key, card_value(cards, flag, name.as_deref())?);
        }
        self.choices(&mut inputs);
        let count = |n: Option<u32>| InputValue::Count(n.map_or(0, i64::from));
        for (key, value) in [
            ("stands", count(self.stands)),
            ("basic_score", count(self.basic_score.map(u32::from))),
            ("cps", count(Some(self.cps))),
            ("range", count(self.range)),
            ("target_stands", count(self.target_stands)),
            ("attacker_stands", count(self.attacker_stands)),
            (
                "attacker_extra_assaults",
                count(Some(self.attacker_extra_assaults)),
            ),
            ("defender_stands", count(self.defender_stands)),
            (
                "defender_extra_assaults",
                count(Some(self.defender_extra_assaults)),
            ),
        ] {
            inputs.set(key, value);
        }
        for (key, on) in [
            ("moving", self.moving),
            ("uphill", self.uphill),
            ("target_cavalry", self.target_cavalry),
            ("conspicuous", self.conspicuous),
            ("target_unrevealed", self.target_unrevealed),
            ("attacker_dashing", self.attacker_dashing),
            ("attacker_stubborn", self.attacker_stubborn),
            ("attacker_cavalry", self.attacker_cavalry),
            ("attacker_cannot_fall_back", self.attacker_cannot_fall_back),
            ("defender_stubborn", self.defender_stubborn),
            ("defender_cavalry", self.defender_cavalry),
            ("defender_cannot_fall_back", self.defender_cannot_fall_back),
            ("cover_or_rough", self.cover_or_rough),
        ] {
            inputs.set(key, InputValue::Flag(on));
        }
        Ok((mechanic, inputs))
    }

    fn json(&self) -> bool {
        self.json
    }
}
