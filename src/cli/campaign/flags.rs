//! The flags of `campaign record NAME --battle N ACTION …`, one subcommand per tracker action.

use clap::{Args, Subcommand, ValueEnum};

use crate::rules::armour_battles::Side;
use crate::rules::armour_battles::fire::Bonus;

/// `campaign record`'s arguments.
#[derive(Debug, Args)]
pub struct RecordArgs {
    /// The campaign.
    pub name: String,
    /// The battle's number (1, 2, 3 …).
    #[arg(long)]
    pub battle: u32,
    /// Seed for the dice (default: a fresh one); the event records it.
    #[arg(long, global = true)]
    pub seed: Option<u64>,
    /// Print the appended event as JSON.
    #[arg(long, global = true)]
    pub json: bool,
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
    CommitReserves,
    Repair,
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
    pub(super) fn attacker(self) -> Bonus {
        Bonus {
            wild_die: self.attacker_wild_die,
            staff_order: self.attacker_staff_order,
        }
    }

    pub(super) fn target(self) -> Bonus {
        Bonus {
            wild_die: self.target_wild_die,
            staff_order: self.target_staff_order,
        }
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
        /// The firing unit's id, as `campaign show --json` lists it under `units`.
        #[arg(long)]
        attacker: String,
        /// The id of the unit fired at.
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
        /// Fire from ambush (+1D).
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
