//! The table as the rules read it: the battle's board ([`crate::rules::battle::board::Board`],
//! the fold of its log) seen as Armour Battles' own state — turn, pulse, both sides' chains,
//! wild dice, Staff Orders, Army Morale and missions, every unit's status, Disruption and
//! suppression — by [`super::super::table_battle`]. [`BattleState::apply`] is what one event
//! does to it: the effects an action records are read off the state before and after.

use crate::rules::armour_battles::SideName;
use serde::Serialize;

use super::event::{
    ArtilleryCalled, Chain, ChainUse, CommandRolled, Event, Extra, FireEvent, WildUse,
};
use crate::rules::armour_battles::{FirstPulse, Side};
use crate::rules::battle::{SIDES, Sides, opponent};

/// Where a unit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum UnitStatus {
    OnTable,
    Reserve {
        from_turn: u32,
    },
    Hidden,
    OffTable,
    Dispersed {
        turn: u32,
    },
    /// Dispersed in an earlier battle of a campaign that carries losses forward.
    LostEarlier,
}

impl UnitStatus {
    pub fn label(self) -> String {
        match self {
            UnitStatus::OnTable => "On table".to_string(),
            UnitStatus::Reserve { from_turn } => format!("Reserve (from turn {from_turn})"),
            UnitStatus::Hidden => "Hidden".to_string(),
            UnitStatus::OffTable => "Off-table".to_string(),
            UnitStatus::Dispersed { turn } => format!("Dispersed (turn {turn})"),
            UnitStatus::LostEarlier => "Lost in an earlier battle".to_string(),
        }
    }
}

/// A Poor Reliability breakdown and its repair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Breakdown {
    #[default]
    Running,
    /// Cannot move this turn; may be repaired from the next.
    BrokenDown { turn: u32 },
    /// Repaired this turn: it moves again from the next.
    Repaired { turn: u32 },
}

/// One unit on (or off) the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnitState {
    pub id: String,
    pub side: Side,
    /// As the table names it ("M4 75mm 1/2 (Tank Company 1)").
    pub name: String,
    pub card: String,
    pub company: String,
    /// The briefing holds it in reserve until this turn (kept once it is committed).
    pub reserve_from: Option<u32>,
    /// The briefing deploys it hidden (kept once it is revealed).
    pub hidden_at_start: bool,
    pub status: UnitStatus,
    pub disruption: u32,
    /// Disruption Points that disperse it (3 for every book unit).
    pub cohesion: u32,
    pub suppressed: bool,
    pub fire_marker: bool,
    pub breakdown: Breakdown,
}

impl UnitState {
    pub fn is_dispersed(&self) -> bool {
        matches!(self.status, UnitStatus::Dispersed { .. })
    }

    /// "M4 75mm 1/2 (Tank Company 1)".
    pub fn label(&self) -> String {
        self.name.clone()
    }

    /// Whether it may move this turn (a breakdown stops it for the turn and the repair turn).
    pub fn can_move(&self, turn: u32) -> bool {
        match self.breakdown {
            Breakdown::Running => true,
            Breakdown::BrokenDown { .. } => false,
            Breakdown::Repaired { turn: repaired } => turn > repaired,
        }
    }
}

/// An artillery mission in progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MissionStatus {
    /// The response check succeeded: fire for effect now.
    FiringNow,
    /// Fires in the side's next Logistics Phase.
    Pending,
    /// Cancelled by a Command Failure; a Staff Order keeps it.
    CancelledByFailure,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mission {
    pub battery: String,
    pub status: MissionStatus,
    pub called_turn: u32,
}

/// One side's command state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SideState {
    pub command_dice: u32,
    pub rally_dice: u32,
    pub artillery_response_dice: Option<u32>,
    pub army_morale: u32,
    pub army_morale_start: u32,
    /// Usable now.
    pub staff_orders: u32,
    /// Restocked this turn: usable from the next.
    pub staff_orders_next_turn: u32,
    /// This turn's chains not yet used.
    pub chains: Vec<Chain>,
    /// This turn's wild dice not yet used (own 6s and received 1s).
    pub wild: u32,
    /// Command Failure this turn.
    pub failed: bool,
    pub missions: Vec<Mission>,
}

impl SideState {
    /// Staff Orders stored and waiting never exceed the command dice.
    fn room_for_orders(&self) -> u32 {
        self.command_dice
            .saturating_sub(self.staff_orders + self.staff_orders_next_turn)
    }

    pub fn has_chains(&self) -> bool {
        !self.chains.is_empty()
    }
}

/// Where the battle stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// Before turn 1's command roll, or after a turn ended: roll command dice next.
    AwaitingCommandRoll,
    /// `side` uses a chain next.
    Pulse { side: Side },
    /// A side reached 0 Army Morale, or the players ended the battle.
    Over,
}

/// How a battle ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// `None`: a draw.
    pub winner: Option<Side>,
    pub reason: String,
}

/// The state of an Armour Battles battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BattleState {
    pub number: u32,
    /// The Lorraine battle (1–3) whose battle groups the mechanics read the rally dice and the
    /// first-pulse rule from.
    pub briefing: u32,
    /// Who takes the first pulse.
    pub first_pulse_rule: FirstPulse,
    /// 0 before the first command roll.
    pub turn: u32,
    pub phase: Phase,
    pub first_pulse: Option<Side>,
    pub sides: Sides<SideState>,
    pub units: Vec<UnitState>,
    pub outcome: Option<Outcome>,
    /// Army Morale at the start (index 0) and at the end of each turn so far.
    pub morale_by_turn: Vec<Sides<u32>>,
    /// The last command roll, for display.
    pub last_command: Option<CommandRolled>,
    /// How the log has been recorded so far (what verification holds later events to).
    #[serde(skip)]
    pub log: LogForm,
    /// The last chain of a turn leaves its pulse open for the orders it gave — the ordered
    /// unit's fire, the enemy's opportunity fire — until the turn is ended (revision 4); before,
    /// using it ended the turn at once, and what was recorded so replays so.
    #[serde(skip)]
    pub last_pulse_open: bool,
}

/// What the events applied so far say about how their log is recorded: a later event of an
/// older form was edited in, not recorded before the change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LogForm {
    /// A fire recorded its situation.
    pub situations: bool,
    /// An event was recorded under the current rules (seed from the battle, costs charged).
    pub current: bool,
}

impl BattleState {
    pub fn unit(&self, id: &str) -> Option<&UnitState> {
        self.units.iter().find(|u| u.id == id)
    }

    /// The unit's label with its copy number, as the table and the printed cards name it.
    pub fn unit_label(&self, unit: &UnitState) -> String {
        unit.label()
    }

    fn unit_mut(&mut self, id: &str) -> Option<&mut UnitState> {
        self.units.iter_mut().find(|u| u.id == id)
    }

    pub fn side(&self, side: Side) -> &SideState {
        self.sides.get(side)
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Units of a side that are still in the battle (not dispersed).
    pub fn units_of(&self, side: Side) -> impl Iterator<Item = &UnitState> {
        self.units.iter().filter(move |u| u.side == side)
    }

    /// Dispersed units of a side.
    pub fn losses(&self, side: Side) -> impl Iterator<Item = &UnitState> {
        self.units_of(side).filter(|u| u.is_dispersed())
    }

    /// The players end the battle (`winner` `None`: a draw).
    pub fn conclude(&mut self, winner: Option<Side>, notes: &str) {
        if self.is_over() {
            return;
        }
        self.outcome = Some(Outcome {
            winner,
            reason: if notes.trim().is_empty() {
                "Ended by the players".to_string()
            } else {
                notes.to_string()
            },
        });
        self.phase = Phase::Over;
    }

    /// Applies one event that counts. Lenient by design: the log is the truth, so an event
    /// that no longer fits (a unit already gone, say) changes what it still can and nothing
    /// else. Checking what may be recorded is [`super::decide`]'s job.
    pub fn apply(&mut self, event: &Event) {
        if let Event::Fire(fire) = event
            && fire.situation.is_some()
        {
            self.log.situations = true;
        }
        if event.dice_from().is_current()
            || matches!(event, Event::ReservesCommitted { chain: Some(_), .. })
        {
            self.log.current = true;
        }
        if self.is_over() {
            return;
        }
        match event {
            Event::CommandRolled(roll) => self.start_turn(roll),
            Event::ChainUsed {
                side,
                face,
                dice,
                spent_on,
            } => self.use_chain(*side, *face, *dice, *spent_on),
            Event::WildDiceUsed {
                side,
                dice,
                spent_on,
            } => self.use_wild(*side, *dice, *spent_on),
            Event::StaffOrderUsed { side, .. } => {
                let s = self.sides.get_mut(*side);
                s.staff_orders = s.staff_orders.saturating_sub(1);
            }
            Event::ArtilleryCalled(call) => self.call_artillery(call),
            Event::ArtilleryFired { side, battery } | Event::MissionCancelled { side, battery } => {
                self.sides
                    .get_mut(*side)
                    .missions
                    .retain(|m| &m.battery != battery);
            }
            Event::MissionMaintained { side, battery } => {
                let s = self.sides.get_mut(*side);
                s.staff_orders = s.staff_orders.saturating_sub(1);
                for m in s.missions.iter_mut().filter(|m| &m.battery == battery) {
                    m.status = MissionStatus::Pending;
                }
            }
            Event::Fire(fire) => self.fire(fire),
            Event::Rally(rally) => {
                let side = self.unit(&rally.unit).map(|u| u.side);
                if let (Some(side), true) = (side, rally.dice_from.is_current()) {
                    self.pay(side, rally.bonus);
                }
                if let Some(u) = self.unit_mut(&rally.unit) {
                    u.disruption = rally.remaining.min(u.disruption);
                }
            }
            Event::Dispersed { unit, loss, .. } => self.disperse(unit, Some(*loss)),
            Event::ReliabilityChecked {
                unit, broke_down, ..
            } => {
                let turn = self.turn;
                if let Some(u) = self.unit_mut(unit).filter(|_| *broke_down) {
                    u.breakdown = Breakdown::BrokenDown { turn };
                }
            }
            Event::Repaired { unit, staff_order } => {
                let turn = self.turn;
                let side = self.unit(unit).map(|u| u.side);
                if let Some(u) = self.unit_mut(unit) {
                    u.breakdown = Breakdown::Repaired { turn };
                }
                if let (Some(side), true) = (side, *staff_order) {
                    let s = self.sides.get_mut(side);
                    s.staff_orders = s.staff_orders.saturating_sub(1);
                }
            }
            Event::ReservesCommitted {
                side,
                company,
                chain,
            } => {
                for u in self
                    .units
                    .iter_mut()
                    .filter(|u| u.side == *side && &u.company == company)
                {
                    if matches!(u.status, UnitStatus::Reserve { .. }) {
                        u.status = UnitStatus::OnTable;
                    }
                }
                // The Commit Reserves order's die, spent from the chain it came from.
                if let Some(face) = chain {
                    self.use_chain(*side, *face, 1, ChainUse::Orders);
                }
            }
            Event::Revealed { unit } => {
                if let Some(u) = self.unit_mut(unit)
                    && u.status == UnitStatus::Hidden
                {
                    u.status = UnitStatus::OnTable;
                }
            }
            Event::DisruptionSet { unit, value } => {
                if let Some(u) = self.unit_mut(unit) {
                    u.disruption = (*value).min(u.cohesion.saturating_sub(1));
                }
            }
            Event::SuppressionSet { unit, suppressed } => {
                if let Some(u) = self.unit_mut(unit) {
                    u.suppressed = *suppressed;
                }
            }
            Event::FireMarkerSet { unit, marked } => {
                if let Some(u) = self.unit_mut(unit) {
                    u.fire_marker = *marked;
                }
            }
            Event::TurnEnded {} => self.end_turn(),
        }
    }

    fn start_turn(&mut self, roll: &CommandRolled) {
        self.turn = roll.turn;
        self.first_pulse = roll.first_pulse;
        for side in SIDES {
            let failed = *roll.failed.get(side);
            let s = self.sides.get_mut(side);
            s.staff_orders = (s.staff_orders + s.staff_orders_next_turn).min(s.command_dice);
            s.staff_orders_next_turn = 0;
            s.failed = failed;
            s.chains = roll.chains.get(side).clone();
            s.wild = *roll.wild.get(side);
            if failed {
                for m in &mut s.missions {
                    m.status = MissionStatus::CancelledByFailure;
                }
            } else {
                // Missions that did not fire at once fire in this turn's Logistics Phase.
                for m in &mut s.missions {
                    if m.status == MissionStatus::Pending && m.called_turn < roll.turn {
                        m.status = MissionStatus::FiringNow;
                    }
                }
            }
        }
        let morale = self.morale();
        self.morale_by_turn.push(morale);
        self.last_command = Some(roll.clone());
        match roll.first_pulse {
            Some(first) if !roll.turn_ends => {
                // A side left without chains (all 1s and 6s) passes its pulses; its wild dice
                // still serve as bonuses.
                if self.sides.get(first).has_chains() {
                    self.phase = Phase::Pulse { side: first };
                } else {
                    self.next_pulse(first);
                }
            }
            _ => self.end_turn(),
        }
    }

    fn use_chain(&mut self, side: Side, face: u8, dice: u32, spent_on: ChainUse) {
        let s = self.sides.get_mut(side);
        if face == 6 {
            s.wild = s.wild.saturating_sub(dice);
        } else if let Some(pos) = s.chains.iter().position(|c| c.face == face) {
            let chain = &mut s.chains[pos];
            chain.dice = chain.dice.saturating_sub(dice);
            if chain.dice == 0 {
                s.chains.remove(pos);
            }
        }
        if spent_on == ChainUse::RestockStaffOrders {
            let added = dice.saturating_sub(1).min(s.room_for_orders());
            s.staff_orders_next_turn += added;
        }
        self.next_pulse(side);
    }

    /// Pulses alternate while both sides hold chains; a side with none left passes. Once no
    /// chain is left the last pulse goes on until the turn is ended (or, under revisions 1 to
    /// 3, the turn ends at once).
    fn next_pulse(&mut self, just_used: Side) {
        let other = opponent(just_used);
        self.phase = if self.sides.get(other).has_chains() {
            Phase::Pulse { side: other }
        } else if self.sides.get(just_used).has_chains() || self.last_pulse_open {
            Phase::Pulse { side: just_used }
        } else {
            self.end_turn();
            return;
        };
    }

    fn use_wild(&mut self, side: Side, dice: u32, spent_on: WildUse) {
        let s = self.sides.get_mut(side);
        let dice = dice.min(s.wild);
        s.wild -= dice;
        match spent_on {
            WildUse::Bonus => {}
            WildUse::InstantStaffOrders => {
                s.staff_orders += dice.saturating_sub(1).min(s.room_for_orders());
            }
            WildUse::StockStaffOrders => {
                s.staff_orders_next_turn += dice.min(s.room_for_orders());
            }
        }
    }

    fn call_artillery(&mut self, call: &ArtilleryCalled) {
        let turn = self.turn;
        let s = self.sides.get_mut(call.side);
        s.staff_orders = s.staff_orders.saturating_sub(1);
        s.missions.retain(|m| m.battery != call.battery);
        s.missions.push(Mission {
            battery: call.battery.clone(),
            status: if call.fires_now {
                MissionStatus::FiringNow
            } else {
                MissionStatus::Pending
            },
            called_turn: turn,
        });
    }

    /// Charges the wild die and Staff Order of a bonus to `side`'s stock.
    fn pay(&mut self, side: Side, bonus: Extra) {
        let s = self.sides.get_mut(side);
        if bonus.wild_die {
            s.wild = s.wild.saturating_sub(1);
        }
        if bonus.staff_order {
            s.staff_orders = s.staff_orders.saturating_sub(1);
        }
    }

    fn fire(&mut self, fire: &FireEvent) {
        let turn = self.turn;
        if let (Some(setup), true) = (&fire.situation, fire.dice_from.is_current()) {
            let firer = fire.attacker.as_deref().and_then(|id| self.unit(id));
            let target = self.unit(&fire.target);
            if let (Some(firer), Some(target)) = (firer.map(|u| u.side), target.map(|u| u.side)) {
                self.pay(firer, setup.attacker_bonus);
                self.pay(target, setup.target_bonus);
            }
        }
        if let Some(attacker) = fire.attacker.as_deref().and_then(|id| self.unit_mut(id)) {
            if attacker.status == UnitStatus::Hidden {
                attacker.status = UnitStatus::OnTable;
            }
            if attacker.status == UnitStatus::OnTable {
                attacker.fire_marker = true;
            }
        }
        if fire.fire == super::event::FireKind::Artillery
            && let Some(battery) = &fire.attacker
        {
            for side in SIDES {
                self.sides
                    .get_mut(side)
                    .missions
                    .retain(|m| &m.battery != battery);
            }
        }
        let Some(target) = self.unit_mut(&fire.target) else {
            return;
        };
        if target.is_dispersed() {
            return;
        }
        target.disruption = (target.disruption + fire.new_disruption).min(target.cohesion);
        target.suppressed |= fire.suppressed;
        if fire.dispersed {
            target.status = UnitStatus::Dispersed { turn };
            let id = target.id.clone();
            self.disperse(&id, fire.army_morale_loss);
        }
    }

    fn disperse(&mut self, id: &str, loss: Option<u32>) {
        let turn = self.turn;
        let Some(unit) = self.unit_mut(id) else {
            return;
        };
        unit.status = UnitStatus::Dispersed { turn };
        unit.suppressed = false;
        unit.fire_marker = false;
        let side = unit.side;
        let s = self.sides.get_mut(side);
        s.army_morale = s.army_morale.saturating_sub(loss.unwrap_or(0));
        let morale = self.morale();
        if let Some(last) = self.morale_by_turn.last_mut() {
            *last = morale;
        }
        if s_is_broken(self.sides.get(side)) {
            self.outcome = Some(Outcome {
                winner: Some(opponent(side)),
                reason: format!("{} Army Morale reduced to 0", side.label()),
            });
            self.phase = Phase::Over;
        }
    }

    fn end_turn(&mut self) {
        for u in &mut self.units {
            u.fire_marker = false;
        }
        for side in SIDES {
            let s = self.sides.get_mut(side);
            s.chains.clear();
            s.wild = 0;
            s.missions
                .retain(|m| m.status != MissionStatus::CancelledByFailure);
        }
        self.phase = Phase::AwaitingCommandRoll;
    }

    /// Both sides' Army Morale now.
    pub fn morale(&self) -> Sides<u32> {
        Sides {
            first: self.sides.first.army_morale,
            second: self.sides.second.army_morale,
        }
    }
}

fn s_is_broken(side: &SideState) -> bool {
    side.army_morale == 0
}
