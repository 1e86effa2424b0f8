//! The flags of `campaign record NAME --battle N ACTION …`, one subcommand per tracker action.

use std::marker::PhantomData;

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
            SideArg::Us => Side::First,
            SideArg::German => Side::Second,
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

/// The Armour Battles fire mechanic, whose situation flags `campaign record … fire` and
/// `… artillery-fire` take (artillery fire is the fire mechanic with a battery firing).
pub fn fire_mechanic() -> Option<&'static Mechanic> {
    resolution::mechanic(RulesetId::ArmourBattles, "fire")
}

/// The Armour Battles rally mechanic, whose situation flags `campaign record … rally` takes.
pub fn rally_mechanic() -> Option<&'static Mechanic> {
    resolution::mechanic(RulesetId::ArmourBattles, "rally")
}

/// The fire mechanic's inputs that name units: `campaign record` names the battle's units
/// with its own `--attacker`, `--battery` and `--target` (by id or label), not cards.
pub const FIRE_UNIT_INPUTS: [&str; 3] = ["attacker", "battery", "target"];

/// The rally mechanic's input that names the unit: `campaign record … rally` names it with
/// its own `--unit`.
pub const RALLY_UNIT_INPUTS: [&str; 1] = ["unit"];

/// `campaign record … fire`'s and `… artillery-fire`'s situation flags: the fire mechanic's
/// own, built from its input descriptions exactly as `odds armour-battles` builds them, so a
/// situation typed for the odds is typed the same for the record.
pub fn fire_flags() -> FlagSet {
    FlagSet::of(fire_mechanic()).without_inputs(&FIRE_UNIT_INPUTS)
}

/// `campaign record … rally`'s situation flags: the rally mechanic's own, as `odds
/// armour-battles` builds them.
pub fn rally_flags() -> FlagSet {
    FlagSet::of(rally_mechanic()).without_inputs(&RALLY_UNIT_INPUTS)
}

/// Which mechanic's situation flags a subcommand takes.
pub trait SituationFlags {
    /// The flags, as [`FlagSet::read`] reads them.
    fn flags() -> FlagSet;
}

/// The fire mechanic's situation (`fire`, `artillery-fire`).
#[derive(Debug, Clone, Copy)]
pub struct FireFlags;

impl SituationFlags for FireFlags {
    fn flags() -> FlagSet {
        fire_flags()
    }
}

/// The rally mechanic's situation (`rally`).
#[derive(Debug, Clone, Copy)]
pub struct RallyFlags;

impl SituationFlags for RallyFlags {
    fn flags() -> FlagSet {
        rally_flags()
    }
}

/// The situation flags given to a subcommand, read by `S`'s [`FlagSet`].
#[derive(Debug, Clone)]
pub struct Situation<S>(pub ArgMatches, PhantomData<S>);

impl<S> FromArgMatches for Situation<S> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Ok(Situation(matches.clone(), PhantomData))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        self.0 = matches.clone();
        Ok(())
    }
}

impl<S: SituationFlags> Args for Situation<S> {
    fn augment_args(command: clap::Command) -> clap::Command {
        command.args(S::flags().args())
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

/// The fire situation (`fire`, `artillery-fire`).
pub type FireSituation = Situation<FireFlags>;

/// The rally situation.
pub type RallySituation = Situation<RallyFlags>;

/// The dice the players rolled at the table for an action that rolls (`chain` and `wild`
/// spend dice and take `--dice N`, a count, instead).
#[derive(Debug, Clone, Default, Args)]
pub struct TableDiceArgs {
    /// Dice rolled at the table, one pool each time, as `roll --dice`: attack=6,5,5,2 or
    /// attack=6552; a die the book prints with letters as it shows them: commander=B (the
    /// BelloLudi commander die: 0, 1, 2, 3 or B; a d20's 4-20 read as the book's table),
    /// penetration=K,T,W (Battle of Tanks: -, K, T or W), order_die=second (the colour that
    /// came out of the Bolt Action bag: first or second). The outcome is derived from them
    /// and the event is marked rolled at the table. Without it the app rolls. A pool left
    /// out is named with its size.
    #[arg(long = "dice", value_name = "POOL=FACES")]
    pub faces: Vec<String>,
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
        /// The battery firing for effect: its id or its label.
        #[arg(long)]
        battery: String,
        /// A unit under the burst: its id or its label.
        #[arg(long)]
        target: String,
        #[command(flatten)]
        situation: FireSituation,
        #[command(flatten)]
        table: TableDiceArgs,
    },
    /// Rally a unit with its side's Rally Dice.
    Rally {
        /// The unit rallying: its id or its label.
        #[arg(long)]
        unit: String,
        #[command(flatten)]
        situation: RallySituation,
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

    /// The flags of `campaign record … ACTION` that are not its own (`own`, and the flags
    /// every command has) must be exactly `mechanic`'s flags in `odds armour-battles`, less
    /// those of the inputs that name units by card, spelled and read alike.
    fn same_situation_flags(
        action: &str,
        mechanic: &'static Mechanic,
        own: &[&str],
        by_card_flags: &[&str],
    ) {
        let cli = Cli::command();
        let record = find(&cli, &["campaign", "record", action]);
        let odds = ruleset_command(RulesetId::ArmourBattles, false);
        let own: BTreeSet<&str> = own
            .iter()
            .copied()
            .chain(["json", "dice", "data-dir", "help", "crash-test"])
            .collect();
        let situation: BTreeSet<String> = record
            .get_arguments()
            .filter_map(|a| a.get_long())
            .filter(|l| !own.contains(l))
            .map(str::to_string)
            .collect();
        let all = FlagSet::of([mechanic]).names();
        let in_odds: BTreeSet<String> = all
            .iter()
            .filter(|n| !by_card_flags.contains(&n.as_str()))
            .cloned()
            .collect();
        assert_eq!(
            all.len(),
            in_odds.len() + by_card_flags.len(),
            "{action}: every by-card flag is one of the mechanic's"
        );
        assert_eq!(situation, in_odds, "{action}");
        for name in &situation {
            let mine = record.get_arguments().find(|a| a.get_long() == Some(name));
            let theirs = odds.get_arguments().find(|a| a.get_long() == Some(name));
            let (Some(mine), Some(theirs)) = (mine, theirs) else {
                panic!("{action} --{name} is missing from one of the two commands");
            };
            assert_eq!(shape(mine), shape(theirs), "{action} --{name}");
        }
    }

    /// `campaign record … fire` and `odds armour-battles` take one situation with the same
    /// flags, spelled and read alike: the record's are exactly the fire mechanic's flags in the
    /// odds command, less the three that name units by card (the record names the battle's
    /// units with its own `--attacker` and `--target`).
    #[test]
    fn record_fire_and_odds_fire_take_the_same_situation_flags() {
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
        same_situation_flags(
            "fire",
            fire,
            &["attacker", "target"],
            &["artillery", "attacker", "target"],
        );
    }

    /// Artillery fire is the fire mechanic with a battery firing: `artillery-fire` takes the
    /// same situation flags as `fire` and `odds armour-battles`, naming its battery and target
    /// with its own `--battery` and `--target`.
    #[test]
    fn record_artillery_fire_takes_the_fire_situation_flags() {
        let fire = fire_mechanic().expect("Armour Battles has fire");
        same_situation_flags(
            "artillery-fire",
            fire,
            &["battery", "target"],
            &["artillery", "attacker", "target"],
        );
    }

    /// `campaign record … rally` takes the rally mechanic's flags as `odds armour-battles`
    /// has them, less `--rally` (the card): the record names the unit with `--unit`.
    #[test]
    fn record_rally_and_odds_rally_take_the_same_situation_flags() {
        let rally = rally_mechanic().expect("Armour Battles has rally");
        let by_card: BTreeSet<String> = FlagSet::of([rally])
            .names()
            .difference(&rally_flags().names())
            .cloned()
            .collect();
        assert_eq!(by_card, BTreeSet::from(["rally".to_string()]));
        same_situation_flags("rally", rally, &["unit"], &["rally"]);
    }
}
