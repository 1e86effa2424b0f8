//! The flags of `campaign record NAME --battle N ACTION …`, one subcommand per tracker action.

use clap::{ArgMatches, Args, FromArgMatches, Subcommand, ValueEnum};

use crate::cli::FlagSet;
use crate::rules::RulesetId;
use crate::rules::resolution::{self, Mechanic};

use crate::rules::armour_battles::Side;

/// `campaign record`'s arguments.
#[derive(Debug, Args)]
pub struct RecordArgs {
    /// The campaign.
    pub name: String,
    /// The battle's number (1, 2, 3 …).
    #[arg(long)]
    pub battle: u32,
    /// Print the appended event as JSON.
    #[arg(long, global = true)]
    pub json: bool,
    #[command(subcommand)]
    pub action: RecordAction,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SideArg {
    /// The US, or in a campaign of another ruleset the first player.
    #[value(alias = "first")]
    Us,
    /// The Germans, or the second player.
    #[value(alias = "second")]
    German,
}

impl From<SideArg> for Side {
    fn from(s: SideArg) -> Self {
        match s {
            SideArg::Us => Side::Us,
            SideArg::German => Side::German,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ChainUseArg {
    Orders,
    RestockStaffOrders,
    /// Refused: a company is committed with `commit`, which spends its die.
    CommitReserves,
    Repair,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum WinnerArg {
    /// The US, or in a campaign of another ruleset the first player.
    #[value(alias = "first")]
    Us,
    /// The Germans, or the second player.
    #[value(alias = "second")]
    German,
    Draw,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum CheckMoveArg {
    Double,
    Triple,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum WildUseArg {
    Bonus,
    InstantStaffOrders,
    StockStaffOrders,
}

/// The Armour Battles fire mechanic, whose situation flags `campaign record … fire` takes.
pub fn fire_mechanic() -> Option<&'static Mechanic> {
    resolution::mechanic(RulesetId::ArmourBattles, "fire")
}

/// The fire mechanic's inputs that name units: `campaign record` names the battle's units
/// with its own `--attacker` and `--target` (by id or label), not cards.
pub const FIRE_UNIT_INPUTS: [&str; 3] = ["attacker", "battery", "target"];

/// `campaign record … fire`'s situation flags: the fire mechanic's own, built from its input
/// descriptions exactly as `odds armour-battles` builds them, so a situation typed for the
/// odds is typed the same for the record.
pub fn fire_flags() -> FlagSet {
    FlagSet::of(fire_mechanic()).without_inputs(&FIRE_UNIT_INPUTS)
}

/// The situation flags given to `campaign record … fire`, read by [`fire_flags`].
#[derive(Debug, Clone)]
pub struct FireSituation(pub ArgMatches);

impl FromArgMatches for FireSituation {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Ok(FireSituation(matches.clone()))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        self.0 = matches.clone();
        Ok(())
    }
}

impl Args for FireSituation {
    fn augment_args(command: clap::Command) -> clap::Command {
        command.args(fire_flags().args())
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

/// The dice the players rolled at the table for an action that rolls (`chain` and `wild`
/// spend dice and take `--dice N`, a count, instead).
#[derive(Debug, Clone, Default, Args)]
pub struct TableDiceArgs {
    /// Dice rolled at the table, one pool each time, as `roll --dice`: attack=6,5,5,2 or
    /// attack=6552; the outcome is derived from them and the event is marked rolled at the
    /// table. Without it the app rolls. A pool left out is named with its size.
    #[arg(long = "dice", value_name = "POOL=FACES")]
    pub faces: Vec<String>,
}

/// Wild die and Staff Order added to one side's dice.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct BonusArgs {
    /// The firer adds a wild die (+1D).
    #[arg(long)]
    pub attacker_wild_die: bool,
    /// The firer adds a Staff Order (+1D).
    #[arg(long)]
    pub attacker_staff_order: bool,
    /// The target adds a wild die to its reaction (+1D).
    #[arg(long)]
    pub target_wild_die: bool,
    /// The target adds a Staff Order to its reaction (+1D).
    #[arg(long)]
    pub target_staff_order: bool,
}

impl BonusArgs {
    /// Extra dice for the firer: one per flag (the battle pays a wild die first, then a Staff
    /// Order, from the side's stock).
    pub(super) fn attacker(self) -> u32 {
        u32::from(self.attacker_wild_die) + u32::from(self.attacker_staff_order)
    }

    /// Extra dice for the target's reaction, paid the same way from the target's side.
    pub(super) fn target(self) -> u32 {
        u32::from(self.target_wild_die) + u32::from(self.target_staff_order)
    }
}

#[derive(Debug, Subcommand)]
pub enum RecordAction {
    /// Roll both sides' command dice for the next turn.
    Command {
        #[command(flatten)]
        table: TableDiceArgs,
    },
    /// Use dice of a chain in the side's Command Pulse (face 6: its wild dice as a chain).
    Chain {
        /// The side whose Command Pulse it is.
        #[arg(long, value_enum)]
        side: SideArg,
        /// The chain's face (2–5; 6 for the wild dice).
        #[arg(long)]
        face: u8,
        /// How many of its dice.
        #[arg(long)]
        dice: u32,
        /// What the dice are spent on.
        #[arg(long, value_enum, default_value = "orders")]
        on: ChainUseArg,
    },
    /// Spend wild dice outside a chain.
    Wild {
        /// The side spending them.
        #[arg(long, value_enum)]
        side: SideArg,
        /// How many wild dice.
        #[arg(long)]
        dice: u32,
        /// What they are spent on.
        #[arg(long, value_enum, default_value = "bonus")]
        on: WildUseArg,
    },
    /// Spend one Staff Order.
    StaffOrder {
        /// The side spending it.
        #[arg(long, value_enum)]
        side: SideArg,
        /// What it is for, in the log's words.
        #[arg(long, default_value = "")]
        purpose: String,
    },
    /// Direct (or, with --opportunity, opportunity) fire by one unit at another.
    Fire {
        /// The firing unit: its id as `campaign show --json` lists it under `units` (us-1),
        /// or its label as the tracker and the cards show it ("M4 75mm 1/2").
        #[arg(long)]
        attacker: String,
        /// The unit fired at: its id or its label.
        #[arg(long)]
        target: String,
        #[command(flatten)]
        situation: FireSituation,
        #[command(flatten)]
        table: TableDiceArgs,
    },
    /// Call a fire mission with a Staff Order (rolls the response check).
    Artillery {
        /// The off-table battery called.
        #[arg(long)]
        battery: String,
        #[command(flatten)]
        table: TableDiceArgs,
    },
    /// A battery's fire for effect on one unit under the burst.
    ArtilleryFire {
        /// The battery firing for effect.
        #[arg(long)]
        battery: String,
        /// The id of a unit under the burst.
        #[arg(long)]
        target: String,
        /// The target is in light cover (no bonus against artillery; recorded so the log
        /// shows it was considered).
        #[arg(long)]
        cover: bool,
        /// The target breaks off (+2D reaction).
        #[arg(long)]
        break_off: bool,
        #[command(flatten)]
        bonus: BonusArgs,
        #[command(flatten)]
        table: TableDiceArgs,
    },
    /// Rally a unit with its side's Rally Dice.
    Rally {
        /// The id of the unit rallying.
        #[arg(long)]
        unit: String,
        /// Inches to the closest enemy (picks the Rally Table row).
        #[arg(long)]
        distance: f64,
        /// In or behind cover (+1D).
        #[arg(long)]
        cover: bool,
        /// No line of sight to any enemy (+1D).
        #[arg(long)]
        no_line_of_sight: bool,
        /// Add a wild die (+1D).
        #[arg(long)]
        wild_die: bool,
        /// Add a Staff Order (+1D).
        #[arg(long)]
        staff_order: bool,
        #[command(flatten)]
        table: TableDiceArgs,
    },
    /// Commit a reserve company with one die of a chain (from its briefing's turn, never in a
    /// turn of Command Failure).
    Commit {
        /// The company ("Armour Company 1"), or a unit of it by id or label.
        #[arg(long)]
        company: String,
        /// The face of the chain the order's die comes from (default: the shortest chain).
        #[arg(long)]
        chain: Option<u8>,
    },
    /// Place a hidden unit on the table.
    Reveal {
        /// The unit: its id or its label.
        #[arg(long)]
        unit: String,
    },
    /// A unit removed by something the tracker did not resolve; its side rolls 1D3 Army
    /// Morale.
    Disperse {
        /// The unit: its id or its label.
        #[arg(long)]
        unit: String,
        #[command(flatten)]
        table: TableDiceArgs,
    },
    /// A Poor Reliability check on a double or triple move.
    Reliability {
        /// The unit: its id or its label.
        #[arg(long)]
        unit: String,
        /// The move order.
        #[arg(long = "move", value_enum)]
        order: CheckMoveArg,
        #[command(flatten)]
        table: TableDiceArgs,
    },
    /// Repair a broken-down unit with a command die (or a Staff Order).
    Repair {
        /// The unit: its id or its label.
        #[arg(long)]
        unit: String,
        /// Pay with a Staff Order rather than a command die.
        #[arg(long)]
        staff_order: bool,
    },
    /// Keep a mission cancelled by a Command Failure, for a Staff Order.
    Maintain {
        /// The battery: its id or its label.
        #[arg(long)]
        battery: String,
    },
    /// Call off a battery's mission.
    CancelMission {
        /// The battery: its id or its label.
        #[arg(long)]
        battery: String,
    },
    /// A battery's mission has fired for effect and is over.
    MissionDone {
        /// The battery: its id or its label.
        #[arg(long)]
        battery: String,
    },
    /// Any action a board battle offers (every ruleset but Armour Battles): its key as
    /// `campaign show --json` and the tracker name it (`order`, `shoot`, `end_turn`), its
    /// unit, target and parameters (`--set order=fire`).
    Act {
        /// The action's key.
        action: String,
        /// The side acting, for an action of a side (`draw`, `command`).
        #[arg(long, value_enum)]
        side: Option<SideArg>,
        /// The unit acting: its id (`first-2`) or its label ("Rifle Squad 2").
        #[arg(long)]
        unit: Option<String>,
        /// The unit aimed at: its id or its label.
        #[arg(long)]
        target: Option<String>,
        /// A parameter of the action, KEY=VALUE (`order=fire`, `cover=true`, `range=18`).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        #[command(flatten)]
        table: TableDiceArgs,
    },
    /// The players end the battle.
    Conclude {
        /// Who won.
        #[arg(long, value_enum)]
        winner: WinnerArg,
        /// Why, in the log's words.
        #[arg(long, default_value = "")]
        notes: String,
    },
    /// End the turn before both sides used their chains.
    EndTurn,
    /// Take back the latest event that counts.
    Undo,
    /// Put back the latest undo.
    Redo,
    /// A note in the log.
    Note {
        /// The note, as it will read in the log.
        text: String,
    },
    /// Settle a fork: keep the branch starting with this event id (`campaign show` lists
    /// them); the other branch is set aside, and choosing it again later restores it.
    Choose {
        /// The id of the kept branch's first event: the 8 characters `campaign show` prints
        /// (the id's end) are enough.
        #[arg(long)]
        keep: String,
    },
}

impl RecordAction {
    /// The action as its subcommand is spelled ("fire", "artillery-fire").
    pub fn name(&self) -> &'static str {
        match self {
            RecordAction::Command { .. } => "command",
            RecordAction::Chain { .. } => "chain",
            RecordAction::Wild { .. } => "wild",
            RecordAction::StaffOrder { .. } => "staff-order",
            RecordAction::Fire { .. } => "fire",
            RecordAction::Artillery { .. } => "artillery",
            RecordAction::ArtilleryFire { .. } => "artillery-fire",
            RecordAction::Rally { .. } => "rally",
            RecordAction::Commit { .. } => "commit",
            RecordAction::Reveal { .. } => "reveal",
            RecordAction::Disperse { .. } => "disperse",
            RecordAction::Reliability { .. } => "reliability",
            RecordAction::Repair { .. } => "repair",
            RecordAction::Maintain { .. } => "maintain",
            RecordAction::CancelMission { .. } => "cancel-mission",
            RecordAction::MissionDone { .. } => "mission-done",
            RecordAction::Act { .. } => "act",
            RecordAction::Conclude { .. } => "conclude",
            RecordAction::EndTurn => "end-turn",
            RecordAction::Undo => "undo",
            RecordAction::Redo => "redo",
            RecordAction::Note { .. } => "note",
            RecordAction::Choose { .. } => "choose",
        }
    }

    /// The faces given with `--dice` (none for an action that does not roll).
    pub fn table_dice(&self) -> &[String] {
        match self {
            RecordAction::Command { table }
            | RecordAction::Fire { table, .. }
            | RecordAction::Artillery { table, .. }
            | RecordAction::ArtilleryFire { table, .. }
            | RecordAction::Rally { table, .. }
            | RecordAction::Disperse { table, .. }
            | RecordAction::Reliability { table, .. }
            | RecordAction::Act { table, .. } => &table.faces,
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use clap::CommandFactory;

    use super::*;
    use crate::cli::{Cli, ruleset_command};

    /// A subcommand of `command` by path (`campaign record fire`).
    fn find(command: &clap::Command, path: &[&str]) -> clap::Command {
        path.iter().fold(command.clone(), |c, name| {
            c.find_subcommand(name)
                .unwrap_or_else(|| panic!("no subcommand {name}"))
                .clone()
        })
    }

    /// A flag as clap reads it: its names, how many values, which values.
    fn shape(arg: &clap::Arg) -> String {
        let values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .map(|v| v.get_name().to_string())
            .collect();
        format!(
            "{:?} {:?} {:?} {:?} {values:?}",
            arg.get_long(),
            arg.get_all_aliases(),
            arg.get_num_args(),
            arg.get_action()
        )
    }

    /// `campaign record … fire` and `odds armour-battles` take one situation with the same
    /// flags, spelled and read alike: the record's are exactly the fire mechanic's flags in the
    /// odds command, less the three that name units by card (the record names the battle's
    /// units with its own `--attacker` and `--target`).
    #[test]
    fn record_fire_and_odds_fire_take_the_same_situation_flags() {
        let cli = Cli::command();
        let record = find(&cli, &["campaign", "record", "fire"]);
        let odds = ruleset_command(RulesetId::ArmourBattles, false);
        let own: BTreeSet<&str> = ["attacker", "target", "json", "dice", "data-dir", "help"]
            .into_iter()
            .collect();
        let situation: BTreeSet<String> = record
            .get_arguments()
            .filter_map(|a| a.get_long())
            .filter(|l| !own.contains(l) && *l != "crash-test")
            .map(str::to_string)
            .collect();
        let fire = fire_mechanic().expect("Armour Battles has fire");
        let by_card: BTreeSet<String> = FlagSet::of([fire])
            .names()
            .difference(&fire_flags().names())
            .cloned()
            .collect();
        assert_eq!(
            by_card,
            ["artillery", "attacker", "target"]
                .map(String::from)
                .into_iter()
                .collect()
        );
        let in_odds: BTreeSet<String> = FlagSet::of([fire])
            .names()
            .difference(&by_card)
            .cloned()
            .collect();
        assert_eq!(situation, in_odds);
        for name in &situation {
            let mine = record.get_arguments().find(|a| a.get_long() == Some(name));
            let theirs = odds.get_arguments().find(|a| a.get_long() == Some(name));
            let (Some(mine), Some(theirs)) = (mine, theirs) else {
                panic!("--{name} is missing from one of the two commands");
            };
            assert_eq!(shape(mine), shape(theirs), "--{name}");
        }
    }
}
