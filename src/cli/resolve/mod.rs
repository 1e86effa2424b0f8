//! `quartermaster odds|roll RULESET …`: exact odds and seeded rolls for the five rulesets.
//!
//! Each ruleset's file holds only its clap flags and their mapping onto its mechanic's inputs
//! (`rules::<ruleset>::mechanics`); the rules decide everything else and answer with a
//! [`Report`], written here in one text form or as its JSON. Card names are looked up among
//! the book's and the data folder's custom cards ([`cards`]); an unknown name is a one-line
//! error with the nearest names (exit 2). A situation the rules answer with "no fire" (out of
//! sight, no to-hit number) is a result, printed with `can_fire: false` (exit 0).

use std::io::Write;
use std::path::Path;

use anyhow::{Result, anyhow};
use clap::{Args, Subcommand};

mod armour_battles;
mod battle_of_tanks;
mod belle_epoque;
mod belloludi;
mod bolt_action;
mod cards;
mod render;

use super::{EXIT_OK, print_json};
use crate::rules::resolution::{Inputs, Mechanic, Report, ResolveError};

pub use armour_battles::ArmourBattlesArgs;
pub use battle_of_tanks::BattleOfTanksArgs;
pub use belle_epoque::BelleEpoqueArgs;
pub use belloludi::BelloludiArgs;
pub use bolt_action::BoltActionArgs;
use cards::Cards;

/// `quartermaster odds RULESET …`.
#[derive(Debug, Subcommand)]
pub enum OddsCommand {
    /// Armour Battles: --attacker (direct/opportunity fire), --artillery, --rally, --command-dice or --breakdown.
    ArmourBattles(ArmourBattlesArgs),
    /// BelloLudi Tanks!: one shot (default), --command or --crash.
    Belloludi(BelloludiArgs),
    /// Battle of Tanks: a fire order (default), --repair or --spotting.
    BattleOfTanks(BattleOfTanksArgs),
    /// Bolt Action: a shooting attack (default), --order-test, --close-quarters or --assault-vehicle.
    BoltAction(BoltActionArgs),
    /// Belle Epoque: --command-points, --reactivity, --fire or --assault.
    BelleEpoque(BelleEpoqueArgs),
}

/// `quartermaster roll RULESET … --seed N`.
#[derive(Debug, Subcommand)]
pub enum RollCommand {
    /// Armour Battles: the same actions with seeded dice.
    ArmourBattles(Seeded<ArmourBattlesArgs>),
    /// BelloLudi Tanks!: one shot (default), --command or --crash.
    Belloludi(Seeded<BelloludiArgs>),
    /// Battle of Tanks: a fire order (default), --repair or --spotting.
    BattleOfTanks(Seeded<BattleOfTanksArgs>),
    /// Bolt Action: a shooting attack (default), --order-test, --close-quarters or --assault-vehicle.
    BoltAction(Seeded<BoltActionArgs>),
    /// Belle Epoque: --command-points, --reactivity, --fire or --assault.
    BelleEpoque(Seeded<BelleEpoqueArgs>),
}

/// A ruleset's arguments plus the seed of the roll.
#[derive(Debug, Args)]
pub struct Seeded<T: Args> {
    #[command(flatten)]
    pub args: T,
    /// Seed of the roll: the same seed and arguments give the same dice.
    #[arg(long, value_name = "N")]
    pub seed: u64,
}

/// What a ruleset's flags file provides: the mechanic its flags pick and the inputs they set.
trait RulesetFlags {
    /// The mechanic and its inputs; card names are looked up in `cards`.
    fn inputs(&self, cards: &Cards) -> Result<(&'static Mechanic, Inputs)>;
    /// The flag the user typed for the input `field`, where it is not `--field-name`.
    fn flag(&self, _field: &str) -> Option<&'static str> {
        None
    }
    fn json(&self) -> bool;
}

fn flags_of(command: &OddsCommand) -> (&dyn RulesetFlags, crate::rules::RulesetId) {
    use crate::rules::RulesetId as R;
    match command {
        OddsCommand::ArmourBattles(a) => (a, R::ArmourBattles),
        OddsCommand::Belloludi(a) => (a, R::Belloludi),
        OddsCommand::BattleOfTanks(a) => (a, R::BattleOfTanks),
        OddsCommand::BoltAction(a) => (a, R::BoltAction),
        OddsCommand::BelleEpoque(a) => (a, R::BelleEpoque),
    }
}

fn seeded_flags(command: &RollCommand) -> (&dyn RulesetFlags, crate::rules::RulesetId, u64) {
    use crate::rules::RulesetId as R;
    match command {
        RollCommand::ArmourBattles(s) => (&s.args, R::ArmourBattles, s.seed),
        RollCommand::Belloludi(s) => (&s.args, R::Belloludi, s.seed),
        RollCommand::BattleOfTanks(s) => (&s.args, R::BattleOfTanks, s.seed),
        RollCommand::BoltAction(s) => (&s.args, R::BoltAction, s.seed),
        RollCommand::BelleEpoque(s) => (&s.args, R::BelleEpoque, s.seed),
    }
}

/// Prints exact odds; returns the exit code.
pub fn run_odds(command: OddsCommand, data_dir: Option<&Path>, out: &mut dyn Write) -> Result<u8> {
    let (flags, id) = flags_of(&command);
    resolve(flags, &Cards::new(id, data_dir), None, out)
}

/// Rolls the dice from `--seed` and prints every die and the result; returns the exit code.
pub fn run_roll(command: RollCommand, data_dir: Option<&Path>, out: &mut dyn Write) -> Result<u8> {
    let (flags, id, seed) = seeded_flags(&command);
    resolve(flags, &Cards::new(id, data_dir), Some(seed), out)
}

fn resolve(
    flags: &dyn RulesetFlags,
    cards: &Cards,
    seed: Option<u64>,
    out: &mut dyn Write,
) -> Result<u8> {
    let (mechanic, inputs) = flags.inputs(cards)?;
    let answer = match seed {
        None => mechanic.resolve_odds(&inputs),
        Some(seed) => mechanic.resolve_roll(&inputs, seed),
    };
    let report = match answer {
        Ok(report) => report,
        Err(ResolveError::NoResult(reason)) => {
            Report::new(mechanic.ruleset, mechanic.key, mechanic.title()).no_result(reason)
        }
        Err(error) => return Err(name_the_flag(flags, error)),
    };
    if flags.json() {
        print_json(out, &report)?;
    } else {
        render::write_text(out, &report)?;
    }
    Ok(EXIT_OK)
}

/// A refusal re-worded to name the flag the user typed ("--target-disruption: …" rather
/// than "target_disruption: …"): the one place an input becomes a flag.
fn name_the_flag(flags: &dyn RulesetFlags, error: ResolveError) -> anyhow::Error {
    match error {
        ResolveError::Invalid { field, message } => {
            let flag = flags
                .flag(field)
                .map_or_else(|| format!("--{}", field.replace('_', "-")), str::to_string);
            anyhow!("{flag}: {message}")
        }
        other => other.into(),
    }
}

/// The card `name` given to `flag`, if any, as an input value.
fn card_value(
    cards: &Cards,
    flag: &str,
    name: Option<&str>,
) -> Result<crate::rules::resolution::InputValue> {
    Ok(crate::rules::resolution::InputValue::Card(
        name.map(|n| cards.pick(flag, n)).transpose()?,
    ))
}
