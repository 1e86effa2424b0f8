//! Everything that can happen at an Armour Battles table, as recorded facts. An event carries
//! the dice that were rolled (seed, roll number and every face), never a request to roll:
//! folding the log again gives the same battle without rolling anything.
//!
//! The campaign log holds these beside its own events (notes, undo, redo, branch choices, the
//! players' result): `campaign::Event::Armour`. Every event that rolls says where its dice
//! came from ([`DiceFrom`]); events recorded before that mark existed read as
//! [`DiceFrom::Chosen`] and keep verifying as they always did.

use serde::{Deserialize, Serialize};

use crate::rules::armour_battles::Side;
use crate::rules::armour_battles::artillery::ArtillerySituation;
use crate::rules::armour_battles::fire::{
    Bonus, Evasion, FireMode, FireSituation, MoveOrder, RangeBand,
};
use crate::rules::battle::{Category, DiceFrom, Facts, Sides};
use crate::rules::dice::RollRecord;

/// Dice of one face used together in one Command Pulse. Face 6 is the wild chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chain {
    pub face: u8,
    pub dice: u32,
}

/// What a Dice Chain was spent on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChainUse {
    /// Move, fire or rally orders for units.
    Orders,
    /// Restock Staff Orders: one per die beyond the first, usable next turn.
    RestockStaffOrders,
    /// Commit a reserve company (a triple move for one die).
    CommitReserves,
    /// Repair a broken-down Tiger (one die).
    Repair,
}

impl ChainUse {
    pub fn label(self) -> &'static str {
        match self {
            ChainUse::Orders => "orders",
            ChainUse::RestockStaffOrders => "restock staff orders",
            ChainUse::CommitReserves => "commit reserves",
            ChainUse::Repair => "repair",
        }
    }
}

/// What wild dice were spent on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WildUse {
    /// +1D to a fire, reaction or rally roll, or removing a suppression.
    Bonus,
    /// Two or more wild dice together: one instant Staff Order per die beyond the first.
    InstantStaffOrders,
    /// One Staff Order per die, usable next turn.
    StockStaffOrders,
}

/// The kind of fire that was resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FireKind {
    Direct,
    Opportunity,
    Artillery,
}

impl FireKind {
    pub fn label(self) -> &'static str {
        match self {
            FireKind::Direct => "direct fire",
            FireKind::Opportunity => "opportunity fire",
            FireKind::Artillery => "artillery",
        }
    }
}

/// The start of a turn: both sides' command dice (every round, rerolls included).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandRolled {
    pub turn: u32,
    pub seed: u64,
    pub rounds: Vec<Sides<RollRecord>>,
    pub first_pulse: Option<Side>,
    pub turn_ends: bool,
    pub failed: Sides<bool>,
    /// Chains of 5s, 4s, 3s and 2s, highest first.
    pub chains: Sides<Vec<Chain>>,
    /// Own 6s plus the 1s received from the opponent's Command Failure.
    pub wild: Sides<u32>,
    #[serde(default, skip_serializing_if = "DiceFrom::is_chosen")]
    pub dice_from: DiceFrom,
}

/// Range band of a recorded shot (the rules' [`RangeBand`] as stored).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Range {
    Short,
    #[default]
    Effective,
    Long,
}

/// Move order of a recorded shot's firer (the rules' [`MoveOrder`] as stored).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Move {
    #[default]
    Single,
    Double,
    Triple,
}

/// An evasive move of a recorded shot's target (the rules' [`Evasion`] as stored).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Evading {
    BreakOff,
    ShootAndScoot,
    Disengage,
}

/// Wild die and Staff Order added to one side of a recorded shot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Extra {
    pub wild_die: bool,
    pub staff_order: bool,
}

/// Everything about a shot that decides its dice counts and target numbers, as the table had
/// it: with the cards and the battle state, `verify` builds both pools again from this and
/// refuses a log whose dice do not match them. Artillery uses only `cover`, an `evasion` of
/// `break_off`, the bonuses and the target's state; the rest stay at their defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireSetup {
    pub range: Range,
    /// At the flank or rear.
    pub flank: bool,
    /// Target in light cover.
    pub cover: bool,
    /// Target uphill of the firer.
    pub uphill: bool,
    pub attacker_move: Move,
    pub ambush: bool,
    pub evasion: Option<Evading>,
    pub attacker_bonus: Extra,
    pub target_bonus: Extra,
    /// The target as it was before the shot (the log also says; both must agree).
    pub target_suppressed: bool,
    pub target_disruption: u32,
}

impl From<Bonus> for Extra {
    fn from(b: Bonus) -> Self {
        Extra {
            wild_die: b.wild_die,
            staff_order: b.staff_order,
        }
    }
}

impl From<Extra> for Bonus {
    fn from(e: Extra) -> Self {
        Bonus {
            wild_die: e.wild_die,
            staff_order: e.staff_order,
        }
    }
}

impl FireSetup {
    /// The record of a direct or opportunity shot's situation.
    pub fn of_fire(s: &FireSituation) -> Self {
        FireSetup {
            range: match s.range {
                RangeBand::Short => Range::Short,
                RangeBand::Effective => Range::Effective,
                RangeBand::Long => Range::Long,
            },
            flank: s.flank,
            cover: s.cover,
            uphill: s.uphill,
            attacker_move: match s.attacker_move {
                MoveOrder::Single => Move::Single,
                MoveOrder::Double => Move::Double,
                MoveOrder::Triple => Move::Triple,
            },
            ambush: s.ambush,
            evasion: s.evasion.map(|e| match e {
                Evasion::BreakOff => Evading::BreakOff,
                Evasion::ShootAndScoot => Evading::ShootAndScoot,
                Evasion::Disengage => Evading::Disengage,
            }),
            attacker_bonus: s.attacker_bonus.into(),
            target_bonus: s.target_bonus.into(),
            target_suppressed: s.target_suppressed,
            target_disruption: s.target_disruption,
        }
    }

    /// The record of an artillery burst's situation (the fields artillery does not use stay
    /// at their defaults).
    pub fn of_artillery(s: &ArtillerySituation) -> Self {
        FireSetup {
            cover: s.cover,
            evasion: s.break_off.then_some(Evading::BreakOff),
            attacker_bonus: s.attacker_bonus.into(),
            target_bonus: s.target_bonus.into(),
            target_suppressed: s.target_suppressed,
            target_disruption: s.target_disruption,
            ..FireSetup::default()
        }
    }

    /// The rules' situation of a direct or opportunity shot.
    pub fn fire_situation(&self, kind: FireKind) -> FireSituation {
        FireSituation {
            mode: match kind {
                FireKind::Opportunity => FireMode::Opportunity,
                FireKind::Direct | FireKind::Artillery => FireMode::Direct,
            },
            range: match self.range {
                Range::Short => RangeBand::Short,
                Range::Effective => RangeBand::Effective,
                Range::Long => RangeBand::Long,
            },
            flank: self.flank,
            cover: self.cover,
            uphill: self.uphill,
            attacker_move: match self.attacker_move {
                Move::Single => MoveOrder::Single,
                Move::Double => MoveOrder::Double,
                Move::Triple => MoveOrder::Triple,
            },
            ambush: self.ambush,
            evasion: self.evasion.map(|e| match e {
                Evading::BreakOff => Evasion::BreakOff,
                Evading::ShootAndScoot => Evasion::ShootAndScoot,
                Evading::Disengage => Evasion::Disengage,
            }),
            target_suppressed: self.target_suppressed,
            target_disruption: self.target_disruption,
            attacker_bonus: self.attacker_bonus.into(),
            target_bonus: self.target_bonus.into(),
        }
    }

    /// The rules' situation of an artillery burst; `None` when the record sets something
    /// artillery has no use for (a range, a flank, a move…), which the app never records.
    pub fn artillery_situation(&self) -> Option<ArtillerySituation> {
        let situation = ArtillerySituation {
            target_suppressed: self.target_suppressed,
            target_disruption: self.target_disruption,
            cover: self.cover,
            break_off: self.evasion == Some(Evading::BreakOff),
            attacker_bonus: self.attacker_bonus.into(),
            target_bonus: self.target_bonus.into(),
        };
        (FireSetup::of_artillery(&situation) == *self).then_some(situation)
    }
}

/// One resolved fire action against one unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireEvent {
    pub fire: FireKind,
    /// What decided the dice counts and target numbers. `None` only for fire recorded before
    /// situations were (campaign file version 1, or a database from before schema 4): such an
    /// event is accepted as it stands and shown as "legacy: situation not recorded".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub situation: Option<FireSetup>,
    /// The firing unit (an artillery battery for artillery); `None` when not tracked.
    pub attacker: Option<String>,
    pub target: String,
    pub seed: u64,
    pub attacker_tn: i32,
    pub reaction_tn: i32,
    pub attack: RollRecord,
    pub reaction: Option<RollRecord>,
    pub forced_back: Option<RollRecord>,
    pub morale: Option<RollRecord>,
    pub new_disruption: u32,
    pub suppressed: bool,
    pub forced_back_inches: Option<u32>,
    pub dispersed: bool,
    pub army_morale_loss: Option<u32>,
    /// Under the current rules ([`DiceFrom::is_current`]) the wild dice and Staff Orders of
    /// the situation's bonuses were charged to the two sides.
    #[serde(default, skip_serializing_if = "DiceFrom::is_chosen")]
    pub dice_from: DiceFrom,
}

/// One rolled rally attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RallyEvent {
    pub unit: String,
    pub seed: u64,
    pub rally: RollRecord,
    pub opponent: RollRecord,
    pub removed: u32,
    pub remaining: u32,
    /// The wild die and Staff Order added to the rally (recorded, and charged, under the
    /// current rules; events from before carry none).
    #[serde(default, skip_serializing_if = "is_default")]
    pub bonus: Extra,
    #[serde(default, skip_serializing_if = "DiceFrom::is_chosen")]
    pub dice_from: DiceFrom,
}

/// An artillery mission called with a Staff Order, with its response check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArtilleryCalled {
    pub side: Side,
    pub battery: String,
    pub seed: u64,
    pub response: RollRecord,
    pub opponent: RollRecord,
    /// Fires for effect at once; otherwise in the side's next Logistics Phase.
    pub fires_now: bool,
    #[serde(default, skip_serializing_if = "DiceFrom::is_chosen")]
    pub dice_from: DiceFrom,
}

/// Anything that happened in an Armour Battles battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A new turn: command dice rolled for both sides.
    CommandRolled(CommandRolled),
    /// A side used a Dice Chain in its Command Pulse (face 6: wild dice as a chain).
    ChainUsed {
        side: Side,
        face: u8,
        dice: u32,
        spent_on: ChainUse,
    },
    WildDiceUsed {
        side: Side,
        dice: u32,
        spent_on: WildUse,
    },
    StaffOrderUsed {
        side: Side,
        purpose: String,
    },
    ArtilleryCalled(ArtilleryCalled),
    /// The battery fired for effect; its mission is over.
    ArtilleryFired {
        side: Side,
        battery: String,
    },
    /// A mission cancelled by a Command Failure kept alive with a Staff Order.
    MissionMaintained {
        side: Side,
        battery: String,
    },
    MissionCancelled {
        side: Side,
        battery: String,
    },
    Fire(FireEvent),
    Rally(RallyEvent),
    /// A unit dispersed by something the tracker did not resolve; its side rolls 1D3.
    Dispersed {
        unit: String,
        morale: RollRecord,
        loss: u32,
        #[serde(default, skip_serializing_if = "DiceFrom::is_chosen")]
        dice_from: DiceFrom,
    },
    /// A Poor Reliability move check (the Tiger on a double or triple move).
    ReliabilityChecked {
        unit: String,
        record: RollRecord,
        broke_down: bool,
        #[serde(default, skip_serializing_if = "DiceFrom::is_chosen")]
        dice_from: DiceFrom,
    },
    /// A broken-down unit repaired with a command die (`staff_order` false) or Staff Order.
    Repaired {
        unit: String,
        staff_order: bool,
    },
    /// A reserve company committed. Under the current rules the order's die is part of the
    /// event (`chain`: the face of the chain it came from) and the company may enter only when
    /// its briefing lets it and not in a turn of Command Failure; before, the die was spent
    /// with a separate chain event.
    ReservesCommitted {
        side: Side,
        company: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        chain: Option<u8>,
    },
    Revealed {
        unit: String,
    },
    /// A correction made by hand.
    DisruptionSet {
        unit: String,
        value: u32,
    },
    SuppressionSet {
        unit: String,
        suppressed: bool,
    },
    FireMarkerSet {
        unit: String,
        marked: bool,
    },
    /// The turn ended before both sides used their chains.
    TurnEnded {},
}

impl Event {
    /// Every kind, as stored beside the payload.
    pub const KINDS: [&'static str; 19] = [
        "command_rolled",
        "chain_used",
        "wild_dice_used",
        "staff_order_used",
        "artillery_called",
        "artillery_fired",
        "mission_maintained",
        "mission_cancelled",
        "fire",
        "rally",
        "dispersed",
        "reliability_checked",
        "repaired",
        "reserves_committed",
        "revealed",
        "disruption_set",
        "suppression_set",
        "fire_marker_set",
        "turn_ended",
    ];

    /// The stable name stored beside the payload (`command_rolled`, `fire`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            Event::CommandRolled(_) => "command_rolled",
            Event::ChainUsed { .. } => "chain_used",
            Event::WildDiceUsed { .. } => "wild_dice_used",
            Event::StaffOrderUsed { .. } => "staff_order_used",
            Event::ArtilleryCalled(_) => "artillery_called",
            Event::ArtilleryFired { .. } => "artillery_fired",
            Event::MissionMaintained { .. } => "mission_maintained",
            Event::MissionCancelled { .. } => "mission_cancelled",
            Event::Fire(_) => "fire",
            Event::Rally(_) => "rally",
            Event::Dispersed { .. } => "dispersed",
            Event::ReliabilityChecked { .. } => "reliability_checked",
            Event::Repaired { .. } => "repaired",
            Event::ReservesCommitted { .. } => "reserves_committed",
            Event::Revealed { .. } => "revealed",
            Event::DisruptionSet { .. } => "disruption_set",
            Event::SuppressionSet { .. } => "suppression_set",
            Event::FireMarkerSet { .. } => "fire_marker_set",
            Event::TurnEnded {} => "turn_ended",
        }
    }

    pub fn category(&self) -> Category {
        match self {
            Event::CommandRolled(_) | Event::ChainUsed { .. } | Event::TurnEnded {} => {
                Category::Command
            }
            Event::WildDiceUsed { .. } | Event::StaffOrderUsed { .. } => Category::Staff,
            Event::ArtilleryCalled(_)
            | Event::ArtilleryFired { .. }
            | Event::MissionMaintained { .. }
            | Event::MissionCancelled { .. } => Category::Artillery,
            Event::Fire(_) => Category::Fire,
            Event::Rally(_) => Category::Rally,
            Event::Dispersed { .. }
            | Event::ReliabilityChecked { .. }
            | Event::Repaired { .. }
            | Event::ReservesCommitted { .. }
            | Event::Revealed { .. }
            | Event::DisruptionSet { .. }
            | Event::SuppressionSet { .. }
            | Event::FireMarkerSet { .. } => Category::Units,
        }
    }

    /// The unit ids the event concerns (for the log filter and the units' histories).
    pub fn units(&self) -> Vec<&str> {
        match self {
            Event::Fire(fire) => fire
                .attacker
                .as_deref()
                .into_iter()
                .chain(std::iter::once(fire.target.as_str()))
                .collect(),
            Event::Rally(rally) => vec![rally.unit.as_str()],
            Event::ArtilleryCalled(call) => vec![call.battery.as_str()],
            Event::ArtilleryFired { battery, .. }
            | Event::MissionMaintained { battery, .. }
            | Event::MissionCancelled { battery, .. } => vec![battery.as_str()],
            Event::Dispersed { unit, .. }
            | Event::ReliabilityChecked { unit, .. }
            | Event::Repaired { unit, .. }
            | Event::Revealed { unit }
            | Event::DisruptionSet { unit, .. }
            | Event::SuppressionSet { unit, .. }
            | Event::FireMarkerSet { unit, .. } => vec![unit.as_str()],
            Event::CommandRolled(_)
            | Event::ChainUsed { .. }
            | Event::WildDiceUsed { .. }
            | Event::StaffOrderUsed { .. }
            | Event::ReservesCommitted { .. }
            | Event::TurnEnded {} => Vec::new(),
        }
    }

    /// Every die the event records, in the order rolled.
    pub fn rolls(&self) -> Vec<&RollRecord> {
        match self {
            Event::CommandRolled(c) => c
                .rounds
                .iter()
                .flat_map(|r| [&r.first, &r.second])
                .collect(),
            Event::ArtilleryCalled(a) => vec![&a.response, &a.opponent],
            Event::Fire(f) => std::iter::once(&f.attack)
                .chain(f.reaction.as_ref())
                .chain(f.forced_back.as_ref())
                .chain(f.morale.as_ref())
                .collect(),
            Event::Rally(r) => vec![&r.rally, &r.opponent],
            Event::Dispersed { morale, .. } => vec![morale],
            Event::ReliabilityChecked { record, .. } => vec![record],
            _ => Vec::new(),
        }
    }

    /// Where its dice came from ([`DiceFrom::Chosen`] for an event that rolls none).
    pub fn dice_from(&self) -> DiceFrom {
        match self {
            Event::CommandRolled(c) => c.dice_from,
            Event::ArtilleryCalled(a) => a.dice_from,
            Event::Fire(f) => f.dice_from,
            Event::Rally(r) => r.dice_from,
            Event::Dispersed { dice_from, .. } | Event::ReliabilityChecked { dice_from, .. } => {
                *dice_from
            }
            _ => DiceFrom::Chosen,
        }
    }

    pub fn facts(&self) -> Facts<'_> {
        Facts {
            kind: self.kind(),
            category: self.category(),
            units: self.units(),
            rolls: self.rolls(),
            dice_from: self.dice_from(),
        }
    }
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}
