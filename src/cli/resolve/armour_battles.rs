//! `odds|roll armour-battles`: one action per call — `--attacker` (direct or opportunity
//! fire), `--artillery` (a mission), `--rally`, `--command-dice` or `--breakdown` (a move,
//! with the Tiger's Poor Reliability): the flags and their mapping onto
//! `rules::armour_battles::mechanics`, which decides everything else.

use anyhow::{Result, bail};
use clap::{ArgGroup, Args, ValueEnum};

use super::{Cards, RulesetFlags, card_value};
use crate::rules::armour_battles::mechanics::MECHANICS;
use crate::rules::resolution::{InputValue, Inputs, Mechanic};

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
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

impl ArmourBattlesArgs {
    /// The mechanic, the action's name for refusals, and the flags it takes.
    fn action(&self) -> (&'static Mechanic, &'static str, &'static [&'static str]) {
        if self.attacker.is_some() {
            (
                &MECHANICS[0],
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
            )
        } else if self.artillery.is_some() {
            (
                &MECHANICS[0],
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
            )
        } else if self.command_dice.is_some() {
            (&MECHANICS[1], "command dice", &["battle"])
        } else if self.rally.is_some() {
            (
                &MECHANICS[2],
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
            )
        } else {
            (&MECHANICS[3], "a move", &["move"])
        }
    }

    fn fire_inputs(&self, cards: &Cards, inputs: &mut Inputs) -> Result<()> {
        let kind = match (&self.artillery, self.opportunity) {
            (Some(_), _) => "artillery",
            (None, true) => "opportunity",
            (None, false) => "direct",
        };
        inputs.set("kind", InputValue::Choice(kind));
        inputs.set(
            "attacker",
            card_value(cards, "--attacker", self.attacker.as_deref())?,
        );
        inputs.set(
            "battery",
            card_value(cards, "--artillery", self.artillery.as_deref())?,
        );
        inputs.set(
            "target",
            card_value(cards, "--target", self.target.as_deref())?,
        );
        let range = match self.range {
            Some(RangeArg::Short) => "short",
            Some(RangeArg::Long) => "long",
            _ => "effective",
        };
        let evading = match self.evading {
            None => "none",
            Some(EvadingArg::Auto) => "auto",
            Some(EvadingArg::BreakOff) => "break_off",
            Some(EvadingArg::ShootAndScoot) => "shoot_and_scoot",
            Some(EvadingArg::Disengage) => "disengage",
        };
        inputs.set("range", InputValue::Choice(range));
        inputs.set("evading", InputValue::Choice(evading));
        for (key, on) in [
            ("flank", self.flank),
            ("cover", self.cover),
            ("uphill", self.uphill),
            ("ambush", self.ambush),
            ("target_suppressed", self.target_suppressed),
        ] {
            inputs.set(key, InputValue::Flag(on));
        }
        for (key, n) in [
            ("target_disruption", self.target_disruption),
            ("attacker_wild", self.attacker_wild),
            ("target_wild", self.target_wild),
            ("response_dice", self.response_dice),
            ("battle", self.battle),
        ] {
            inputs.set(key, InputValue::Count(n.map_or(0, i64::from)));
        }
        Ok(())
    }

    fn rally_inputs(&self, cards: &Cards, inputs: &mut Inputs) -> Result<()> {
        inputs.set("unit", card_value(cards, "--rally", self.rally.as_deref())?);
        let Some(distance) = self.distance else {
            bail!("--distance INCHES is required: how far the closest enemy is");
        };
        let Some(disruption) = self.disruption else {
            bail!("--disruption N is required: the unit's Disruption Points");
        };
        inputs.set("distance", InputValue::Number(distance));
        inputs.set("disruption", InputValue::Count(i64::from(disruption)));
        inputs.set("wild", InputValue::Count(self.wild.map_or(0, i64::from)));
        inputs.set(
            "battle",
            InputValue::Count(i64::from(self.battle.unwrap_or(1))),
        );
        for (key, on) in [
            ("cover", self.cover),
            ("no_los", self.no_los),
            ("suppressed", self.suppressed),
        ] {
            inputs.set(key, InputValue::Flag(on));
        }
        Ok(())
    }
}

impl RulesetFlags for ArmourBattlesArgs {
    fn inputs(&self, cards: &Cards) -> Result<(&'static Mechanic, Inputs)> {
        let (mechanic, action, allowed) = self.action();
        refuse_unused(self, action, allowed)?;
        let mut inputs = mechanic.defaults();
        let move_order = match self.move_order {
            Some(MoveArg::Double) => "double",
            Some(MoveArg::Triple) => "triple",
            _ => "single",
        };
        inputs.set("move", InputValue::Choice(move_order));
        match mechanic.key {
            "fire" => self.fire_inputs(cards, &mut inputs)?,
            "rally" => self.rally_inputs(cards, &mut inputs)?,
            "command_dice" => {
                let Some([us, german]) = self.command_dice.as_deref() else {
                    bail!("--command-dice takes two numbers: US dice, then German dice");
                };
                inputs.set("us_dice", InputValue::Count(i64::from(*us)));
                inputs.set("german_dice", InputValue::Count(i64::from(*german)));
                inputs.set(
                    "battle",
                    InputValue::Count(i64::from(self.battle.unwrap_or(1))),
                );
            }
            _ => inputs.set(
                "unit",
                card_value(cards, "--breakdown", self.breakdown.as_deref())?,
            ),
        }
        Ok((mechanic, inputs))
    }

    fn flag(&self, field: &str) -> Option<&'static str> {
        Some(match field {
            "battery" => "--artillery",
            "attacker" if self.artillery.is_some() => "--artillery",
            "unit" if self.rally.is_some() => "--rally",
            "unit" => "--breakdown",
            "us_dice" | "german_dice" => "--command-dice",
            "kind" => "--opportunity",
            _ => return None,
        })
    }

    fn json(&self) -> bool {
        self.json
    }
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
