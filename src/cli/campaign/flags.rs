//! The flags of `campaign record NAME --battle N ACTION …`: `act ACTION` for any action a
//! battle offers, built from the actions' own descriptions, the campaign's own events (undo,
//! notes, the players' result), and each ruleset's aliases — the Lorraine tracker's `command`,
//! `chain`, `fire`, `rally` … — built as data from the ruleset's battle rules
//! ([`crate::rules::battle::alias`]), each standing for the `act` it names with the flags it
//! always had, so scripts keep working.

use clap::{Arg, ArgAction, ArgMatches, Args, FromArgMatches, Subcommand, ValueEnum};

use crate::cli::FlagSet;
use crate::rules::RulesetId;
use crate::rules::battle::Side;
use crate::rules::battle::alias::{ActAlias, AliasFlag};
use crate::rules::resolution::{InputKind, Mechanic};

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
    /// The first player (in Lorraine, the US).
    #[value(alias = "us")]
    First,
    /// The second player (in Lorraine, the Germans).
    #[value(alias = "german")]
    Second,
}

impl From<SideArg> for Side {
    fn from(s: SideArg) -> Self {
        match s {
            SideArg::First => Side::First,
            SideArg::Second => Side::Second,
        }
    }
}

/// How `--side` spells `side`.
pub fn side_word(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum WinnerArg {
    /// The first player (in Lorraine, the US).
    #[value(alias = "us")]
    First,
    /// The second player (in Lorraine, the Germans).
    #[value(alias = "german")]
    Second,
    Draw,
}

/// The dice the players rolled at the table for an action that rolls.
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

/// What `campaign record` records.
#[derive(Debug)]
pub enum RecordAction {
    Own(OwnAction),
    /// A ruleset's alias of an action, with its flags as given.
    Alias(AliasCall),
}

/// An alias as the command line gave it.
#[derive(Debug, Clone)]
pub struct AliasCall {
    pub ruleset: RulesetId,
    pub alias: ActAlias,
    pub matches: ArgMatches,
}

/// The campaign's own events, and any action by its key.
#[derive(Debug, Subcommand)]
pub enum OwnAction {
    /// Any action the battle offers now: its key as `campaign show NAME --actions` lists it
    /// with its parameters (`order`, `shoot`, `use_chain`, `end_turn`), its unit, target and
    /// parameters (`--set order=fire`, `--set on=orders`).
    Act {
        /// The action's key.
        action: String,
        /// The side acting, for an action of a side (`draw`, `use_chain`).
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
        /// Words the action records (what a Staff Order was used for).
        #[arg(long, default_value = "")]
        text: String,
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

/// Every alias of every ruleset's battle rules, with its ruleset.
pub fn aliases() -> impl Iterator<Item = (RulesetId, &'static ActAlias)> {
    RulesetId::ALL.into_iter().flat_map(|ruleset| {
        crate::rules::ruleset(ruleset)
            .table_battle()
            .map_or(&[][..], |e| e.aliases)
            .iter()
            .map(move |alias| (ruleset, alias))
    })
}

/// The alias named `name`.
fn alias(name: &str) -> Option<(RulesetId, &'static ActAlias)> {
    aliases().find(|(_, a)| a.name == name)
}

/// The mechanic whose situation flags `alias` takes, with those flags.
pub fn alias_flags(ruleset: RulesetId, alias: &ActAlias) -> Option<(&'static Mechanic, FlagSet)> {
    let flags = alias.mechanic?;
    let mechanic = crate::rules::resolution::mechanic(ruleset, flags.key)?;
    Some((
        mechanic,
        FlagSet::of([mechanic]).without_inputs(flags.without),
    ))
}

/// The subcommand of an alias: its own flags, its mechanic's situation flags, `--dice`.
fn alias_command(ruleset: RulesetId, alias: &ActAlias) -> clap::Command {
    let specs = crate::rules::battle::table::engine(ruleset)
        .map(|e| (e.params)(alias.action))
        .unwrap_or_default();
    let mut command = clap::Command::new(alias.name).about(alias.about);
    for &(flag, what) in alias.flags {
        let arg = Arg::new(flag).long(flag);
        command = command.arg(match what {
            AliasFlag::Side => arg
                .required(true)
                .value_parser(clap::builder::EnumValueParser::<SideArg>::new())
                .help("The side acting: first or second (us or german in Lorraine)."),
            AliasFlag::Unit | AliasFlag::Target | AliasFlag::Group => arg
                .required(true)
                .help("A unit: its id as `campaign show --json` lists it (us-1), or its label as the table and the cards show it (\"M4 75mm 1/2\")."),
            AliasFlag::Text => arg.default_value("").help("In the log's words."),
            AliasFlag::Param(key) => match specs.iter().find(|s| s.key == key) {
                Some(spec) if matches!(spec.kind, InputKind::Toggle) => {
                    arg.action(ArgAction::SetTrue).help(spec.help)
                }
                Some(spec) => arg.allow_negative_numbers(true).help(format!("{}: {}", spec.label, spec.help)),
                None => arg,
            },
        });
    }
    if let Some((_, flags)) = alias_flags(ruleset, alias) {
        command = command.args(flags.args());
    }
    if alias.rolls {
        command = command.arg(
            Arg::new("dice")
                .long("dice")
                .value_name("POOL=FACES")
                .action(ArgAction::Append)
                .help("Dice rolled at the table, one pool each time, as `roll --dice`: attack=6,5,5,2; without it the app rolls."),
        );
    }
    command
}

impl FromArgMatches for RecordAction {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        if let Some((name, sub)) = matches.subcommand()
            && let Some((ruleset, alias)) = alias(name)
        {
            return Ok(RecordAction::Alias(AliasCall {
                ruleset,
                alias: *alias,
                matches: sub.clone(),
            }));
        }
        OwnAction::from_arg_matches(matches).map(RecordAction::Own)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Subcommand for RecordAction {
    fn augment_subcommands(command: clap::Command) -> clap::Command {
        let command = OwnAction::augment_subcommands(command);
        command.subcommands(aliases().map(|(ruleset, alias)| alias_command(ruleset, alias)))
    }

    fn augment_subcommands_for_update(command: clap::Command) -> clap::Command {
        Self::augment_subcommands(command)
    }

    fn has_subcommand(name: &str) -> bool {
        OwnAction::has_subcommand(name) || alias(name).is_some()
    }
}

impl RecordAction {
    /// The action as its subcommand is spelled ("fire", "act").
    pub fn name(&self) -> &'static str {
        match self {
            RecordAction::Alias(call) => call.alias.name,
            RecordAction::Own(OwnAction::Act { .. }) => "act",
            RecordAction::Own(OwnAction::Conclude { .. }) => "conclude",
            RecordAction::Own(OwnAction::Undo) => "undo",
            RecordAction::Own(OwnAction::Redo) => "redo",
            RecordAction::Own(OwnAction::Note { .. }) => "note",
            RecordAction::Own(OwnAction::Choose { .. }) => "choose",
        }
    }

    /// The faces given with `--dice` (none for an action that does not roll).
    pub fn table_dice(&self) -> Vec<String> {
        match self {
            RecordAction::Own(OwnAction::Act { table, .. }) => table.faces.clone(),
            RecordAction::Alias(call) if call.alias.rolls => call
                .matches
                .get_many::<String>("dice")
                .into_iter()
                .flatten()
                .cloned()
                .collect(),
            _ => Vec::new(),
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

    fn mechanic_of(name: &str) -> (&'static Mechanic, FlagSet) {
        let (ruleset, alias) = alias(name).expect("an alias");
        alias_flags(ruleset, alias).expect("an alias with a mechanic's flags")
    }

    /// `campaign record … fire` and `odds armour-battles` take one situation with the same
    /// flags, spelled and read alike: the record's are exactly the fire mechanic's flags in the
    /// odds command, less the three that name units by card (the record names the battle's
    /// units with its own `--attacker` and `--target`).
    #[test]
    fn record_fire_and_odds_fire_take_the_same_situation_flags() {
        let (fire, fire_flags) = mechanic_of("fire");
        let by_card: BTreeSet<String> = FlagSet::of([fire])
            .names()
            .difference(&fire_flags.names())
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
        let (fire, _) = mechanic_of("artillery-fire");
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
        let (rally, rally_flags) = mechanic_of("rally");
        let by_card: BTreeSet<String> = FlagSet::of([rally])
            .names()
            .difference(&rally_flags.names())
            .cloned()
            .collect();
        assert_eq!(by_card, BTreeSet::from(["rally".to_string()]));
        same_situation_flags("rally", rally, &["unit"], &["rally"]);
    }
}
