//! `odds|roll belloludi`: BelloLudi Tanks! — a shot, the command roll or a crash: the flags
//! and their mapping onto `rules::belloludi::mechanics`.

use anyhow::Result;
use clap::Args;

use super::{Cards, RulesetFlags, card_value};
use crate::rules::belloludi::mechanics::MECHANICS;
use crate::rules::resolution::{InputValue, Inputs, Mechanic};

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

impl RulesetFlags for BelloludiArgs {
    fn inputs(&self, cards: &Cards) -> Result<(&'static Mechanic, Inputs)> {
        let mechanic = match (self.command, self.crash) {
            (true, _) => &MECHANICS[0],
            (_, true) => &MECHANICS[2],
            _ => &MECHANICS[1],
        };
        let mut inputs = mechanic.defaults();
        inputs.set(
            "shooter",
            card_value(cards, "--shooter", self.shooter.as_deref())?,
        );
        inputs.set(
            "target",
            card_value(cards, "--target", self.target.as_deref())?,
        );
        for (key, armour) in [
            ("shooter_armour", self.shooter_armour),
            ("target_armour", self.target_armour),
        ] {
            inputs.set(key, InputValue::Count(armour.map_or(0, i64::from)));
        }
        for (key, on) in [
            ("close", self.close),
            ("shooter_shaken", self.shooter_shaken),
            ("target_cover", self.target_cover),
            ("target_open_order", self.target_open_order),
        ] {
            inputs.set(key, InputValue::Flag(on));
        }
        Ok((mechanic, inputs))
    }

    fn json(&self) -> bool {
        self.json
    }
}
