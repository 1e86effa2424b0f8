//! `odds|roll battle-of-tanks`: Battle of Tanks — a fire order, repair or spotting: the
//! flags and their mapping onto `rules::battle_of_tanks::mechanics`.

use std::collections::BTreeMap;

use anyhow::{Result, bail};
use clap::Args;

use super::{Cards, RulesetFlags, card_value};
use crate::rules::battle_of_tanks::mechanics::MECHANICS;
use crate::rules::resolution::{InputValue, Inputs, ListEntry, Mechanic};

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

/// The `i`-th of a repeatable value: one value applies to all, else one per target.
fn per_target(values: &[u32], i: usize, targets: usize, flag: &str) -> Result<i64> {
    match values.len() {
        0 => Ok(0),
        1 => Ok(values.first().copied().map_or(0, i64::from)),
        n if n == targets => Ok(values.get(i).copied().map_or(0, i64::from)),
        n => bail!("{flag}: {n} values for {targets} targets: give one for all, or one per target"),
    }
}

impl BattleOfTanksArgs {
    fn targets(&self, cards: &Cards) -> Result<Vec<ListEntry>> {
        let n = self.target.len();
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
                let numbers = BTreeMap::from([
                    ("shots", per_target(&self.shots, i, n, "--shots")?),
                    ("range_cm", per_target(&self.range, i, n, "--range")?),
                    (
                        "hit_points",
                        per_target(&self.hit_points, i, n, "--hit-points")?,
                    ),
                ]);
                Ok(ListEntry {
                    card: Some(cards.pick("--target", name)?),
                    numbers,
                })
            })
            .collect()
    }
}

impl RulesetFlags for BattleOfTanksArgs {
    fn inputs(&self, cards: &Cards) -> Result<(&'static Mechanic, Inputs)> {
        let mechanic = match (self.repair, self.spotting) {
            (true, _) => &MECHANICS[1],
            (_, true) => &MECHANICS[2],
            _ => &MECHANICS[0],
        };
        let mut inputs = mechanic.defaults();
        inputs.set(
            "attacker",
            card_value(cards, "--attacker", self.attacker.as_deref())?,
        );
        if mechanic.key == "fire" {
            inputs.set("target", InputValue::CardList(self.targets(cards)?));
        }
        let cover = if self.light_cover {
            "light"
        } else if self.heavy_cover {
            "heavy"
        } else {
            "open"
        };
        inputs.set("cover", InputValue::Choice(cover));
        for (key, on) in [
            ("moving", self.moving),
            ("ambush", self.ambush),
            ("target_moving", self.target_moving),
            ("hull_down", self.hull_down),
            ("hull_to_hull", self.hull_to_hull),
        ] {
            inputs.set(key, InputValue::Flag(on));
        }
        Ok((mechanic, inputs))
    }

    fn flag(&self, field: &str) -> Option<&'static str> {
        match field {
            "range_cm" => Some("--range"),
            "cover" => Some("--light-cover"),
            _ => None,
        }
    }

    fn json(&self) -> bool {
        self.json
    }
}
