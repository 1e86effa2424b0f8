//! The flags of `campaign record NAME --battle N ACTION …`, one subcommand per tracker action.

use clap::{Args, Subcommand, ValueEnum};

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
    /// Dice rolled at the table, one pool each time, as `roll --dice`: attack=6,5,5,2 or
    /// attack=6552; the outcome is derived from them and the event is marked rolled at the
    /// table. Without it the app rolls. A pool left out is named with its size.
    #[arg(long, global = true, value_name = "POOL=FACES")]
    pub dice: Vec<String>,
    #[command(subcommand)]
    pub action: RecordAction,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SideArg {
    Us,
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
    Us,
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

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum RangeArg {
    Short,
    Effective,
    Long,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum MoveArg {
    Single,
    Double,
    Triple,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum EvasionArg {
    BreakOff,
    ShootAndScoot,
    Disengage,
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
    Command,
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
        /// Opportunity fire rather than direct fire.
        #[arg(long)]
        opportunity: bool,
        /// The range band (short −1 TN, long +1 TN).
        #[arg(long, value_enum, default_value = "effective")]
        range: RangeArg,
        /// A flank or rear shot (−1 TN).
        #[arg(long)]
        flank: bool,
        /// The target is in light cover (+1D reaction).
        #[arg(long)]
        cover: bool,
        /// The target is uphill (+1D reaction).
        #[arg(long)]
        uphill: bool,
        /// The firer's move this action (double −1D, triple −2D).
        #[arg(long = "move", value_enum, default_value = "single")]
        attacker_move: MoveArg,
        /// Fire from ambush (+1D): a hidden firer always does, a unit on the table never; the
        /// flag is checked against the table.
        #[arg(long)]
        ambush: bool,
        /// The target's evasive move, if it makes one (+2D reaction).
        #[arg(long, value_enum)]
        evasion: Option<EvasionArg>,
        #[command(flatten)]
        bonus: BonusArgs,
    },
    /// Call a fire mission with a Staff Order (rolls the response check).
    Artillery {
        /// The off-table battery called.
        #[arg(long)]
        battery: String,
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
    },
    /// A Poor Reliability check on a double or triple move.
    Reliability {
        /// The unit: its id or its label.
        #[arg(long)]
        unit: String,
        /// The move order.
        #[arg(long = "move", value_enum)]
        order: CheckMoveArg,
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
            RecordAction::Command => "command",
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
            RecordAction::Conclude { .. } => "conclude",
            RecordAction::EndTurn => "end-turn",
            RecordAction::Undo => "undo",
            RecordAction::Redo => "redo",
            RecordAction::Note { .. } => "note",
            RecordAction::Choose { .. } => "choose",
        }
    }

    /// Whether the battle's rules decide the action from the table as it stands (the others
    /// are the log's own: undo, redo, notes, the result, a fork's choice).
    pub fn is_tracked(&self) -> bool {
        !matches!(
            self,
            RecordAction::Undo
                | RecordAction::Redo
                | RecordAction::Note { .. }
                | RecordAction::Conclude { .. }
                | RecordAction::Choose { .. }
        )
    }
}
