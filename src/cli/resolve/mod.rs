//! `quartermaster odds|roll RULESET …`: exact odds and rolls for every mechanic of every
//! ruleset, on a command line built from the mechanics' input descriptions.
//!
//! The rulesets come from the registry and their flags from [`FlagSet`] (`flags.rs`): no
//! ruleset has a file of its own here. The rules decide everything else and answer with a
//! [`Report`](crate::rules::resolution::Report), written in one text form (`render.rs`) or as
//! its JSON. Card names are looked up among the book's and the data folder's custom cards
//! ([`Cards`]); an unknown name is a one-line error with the nearest names (exit 2). A
//! situation the rules answer with "no fire" (out of sight, no to-hit number) is a result,
//! printed with `can_fire: false` (exit 0). A roll takes `--seed N` (the app rolls) or the
//! dice rolled at the table, `--dice POOL=FACES` once per pool.

use std::io::Write;
use std::path::Path;

use anyhow::{Result, anyhow};
use clap::{Arg, ArgAction, ArgGroup, ArgMatches, FromArgMatches, Subcommand};

mod cards;
mod flags;
mod render;

use super::{EXIT_OK, print_json};
use crate::rules::resolution::{DiceSource, TableDice};
use crate::rules::{RulesetId, all_rulesets, ruleset};

pub use cards::Cards;
pub use flags::FlagSet;

/// One ruleset's command line as given: which ruleset, and its flags.
#[derive(Debug, Clone)]
pub struct Situation {
    pub ruleset: RulesetId,
    pub matches: ArgMatches,
}

/// `quartermaster odds RULESET …`.
#[derive(Debug, Clone)]
pub struct OddsCommand(pub Situation);

/// `quartermaster roll RULESET … (--seed N | --dice POOL=FACES …)`.
#[derive(Debug, Clone)]
pub struct RollCommand(pub Situation);

/// The flags of `id`'s mechanics.
pub fn ruleset_flags(id: RulesetId) -> FlagSet {
    FlagSet::of(ruleset(id).mechanics())
}

/// `odds RULESET` (or `roll RULESET`, with the dice's flags): the ruleset's flags.
pub fn ruleset_command(id: RulesetId, roll: bool) -> clap::Command {
    let flags = ruleset_flags(id);
    let mut command = clap::Command::new(id.as_str())
        .about(format!("{}: {}", id.title(), flags.summary()))
        .args(flags.args())
        .arg(
            Arg::new("json")
                .long("json")
                .action(ArgAction::SetTrue)
                .help("Print JSON instead of text"),
        );
    if roll {
        let pools: Vec<String> = ruleset(id)
            .mechanics()
            .iter()
            .map(|m| format!("{}: {}", m.label, m.pools.join(", ")))
            .collect();
        command = command
            .arg(
                Arg::new("seed")
                    .long("seed")
                    .value_name("N")
                    .value_parser(clap::value_parser!(u64))
                    .help("Seed of the roll: the same seed and flags give the same dice"),
            )
            .arg(
                Arg::new("dice")
                    .long("dice")
                    .value_name("POOL=FACES")
                    .action(ArgAction::Append)
                    .help(format!(
                        "Dice rolled at the table, one pool each time: attack=6,5,5,2 or attack=6552 \
                         (single-digit dice); a pool rolled twice is given twice, in order. Pools: {}",
                        pools.join("; ")
                    )),
            )
            .group(
                ArgGroup::new("dice_source")
                    .args(["seed", "dice"])
                    .required(true),
            );
    }
    command
}

fn augment(command: clap::Command, roll: bool) -> clap::Command {
    command.subcommands(all_rulesets().map(|r| ruleset_command(r.id(), roll)))
}

fn situation(matches: &ArgMatches) -> Result<Situation, clap::Error> {
    let (name, matches) = matches.subcommand().ok_or_else(|| {
        clap::Error::raw(
            clap::error::ErrorKind::MissingSubcommand,
            "name a ruleset\n",
        )
    })?;
    let ruleset = name.parse::<RulesetId>().map_err(|e| {
        clap::Error::raw(clap::error::ErrorKind::InvalidSubcommand, format!("{e}\n"))
    })?;
    Ok(Situation {
        ruleset,
        matches: matches.clone(),
    })
}

macro_rules! ruleset_subcommand {
    ($command:ident, $roll:expr) => {
        impl FromArgMatches for $command {
            fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
                situation(matches).map($command)
            }

            fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
                *self = Self::from_arg_matches(matches)?;
                Ok(())
            }
        }

        impl Subcommand for $command {
            fn augment_subcommands(command: clap::Command) -> clap::Command {
                augment(command, $roll)
            }

            fn augment_subcommands_for_update(command: clap::Command) -> clap::Command {
                augment(command, $roll)
            }

            fn has_subcommand(name: &str) -> bool {
                name.parse::<RulesetId>().is_ok()
            }
        }
    };
}

ruleset_subcommand!(OddsCommand, false);
ruleset_subcommand!(RollCommand, true);

/// Prints exact odds; returns the exit code.
pub fn run_odds(command: OddsCommand, data_dir: Option<&Path>, out: &mut dyn Write) -> Result<u8> {
    resolve(&command.0, None, data_dir, out)
}

/// Rolls the dice (from `--seed`, or the faces given with `--dice`) and prints every die and
/// the result; returns the exit code.
pub fn run_roll(command: RollCommand, data_dir: Option<&Path>, out: &mut dyn Write) -> Result<u8> {
    let dice = dice_source(&command.0.matches)?;
    resolve(&command.0, Some(dice), data_dir, out)
}

/// `--seed N`, or the pools given with `--dice`.
fn dice_source(matches: &ArgMatches) -> Result<DiceSource> {
    if let Some(seed) = matches.get_one::<u64>("seed") {
        return Ok(DiceSource::Seed(*seed));
    }
    Ok(DiceSource::Table(table_dice(
        matches.get_many::<String>("dice").into_iter().flatten(),
    )?))
}

/// The pools given with `--dice POOL=FACES`, once per pool (a pool rolled twice is given
/// twice, in order): the one reading of the flag, for `roll` and `campaign record`.
///
/// # Errors
/// The first text that is not POOL=FACES, named with the flag.
pub fn table_dice<'a>(texts: impl IntoIterator<Item = &'a String>) -> Result<TableDice> {
    let mut dice = TableDice::new();
    for text in texts {
        dice.add_pool(text).map_err(|e| anyhow!("--dice {e}"))?;
    }
    Ok(dice)
}

fn resolve(
    situation: &Situation,
    dice: Option<DiceSource>,
    data_dir: Option<&Path>,
    out: &mut dyn Write,
) -> Result<u8> {
    let Situation { ruleset, matches } = situation;
    let flags = ruleset_flags(*ruleset);
    let mechanic = flags.pick(matches)?;
    let cards = Cards::new(*ruleset, data_dir);
    let inputs = flags.read(mechanic, matches, &cards, mechanic.defaults())?;
    let report = mechanic
        .answer(&inputs, dice)
        .map_err(|e| flags.name_the_flag(mechanic, matches, e))?;
    if matches.get_flag("json") {
        print_json(out, &report)?;
    } else {
        render::write_text(out, &report)?;
    }
    Ok(EXIT_OK)
}

#[cfg(test)]
mod tests;
