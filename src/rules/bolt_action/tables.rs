//! The Bolt Action reference sheets' tables as data.

use serde::{Deserialize, Serialize};

/// Troop quality.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quality {
    Inexperienced,
    Regular,
    Veteran,
}

impl Quality {
    pub fn label(self) -> &'static str {
        match self {
            Quality::Inexperienced => "Inexperienced",
            Quality::Regular => "Regular",
            Quality::Veteran => "Veteran",
        }
    }
}

/// How a vehicle moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VehicleMovement {
    Tracked,
    HalfTracked,
    Wheeled,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QualityRow {
    pub quality: Quality,
    pub morale: u8,
    pub infantry_damage_value: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Officer {
    pub rank: String,
    pub title: String,
    pub bonus: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Order {
    pub die: u8,
    pub order: String,
    pub summary: String,
}

/// A row of a d6 table covering the rolls `from..=to`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeRow {
    pub from: i32,
    pub to: i32,
    pub result: String,
    pub summary: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Modifier {
    pub id: String,
    pub label: String,
    pub value: i8,
    /// Applied once per marker (pins) rather than once.
    #[serde(default)]
    pub per_count: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HitTable {
    /// The roll needed before modifiers (3+).
    pub base: u8,
    /// A modified need of 7 or more means a 6 followed by this roll (4+) on a second die.
    pub seven_plus_follow_up: u8,
    pub modifiers: Vec<Modifier>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamageValue {
    pub target: String,
    pub label: String,
    pub value: u8,
}

/// A weapons chart line.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    pub name: String,
    /// `small_arms` or `heavy`.
    pub class: String,
    pub range: String,
    /// Shots as printed: "1", "D6", "2D6".
    pub shots: String,
    /// Penetration; `None` where the chart says n/a or the weapon fires HE only.
    pub pen: Option<u8>,
    pub special: Vec<String>,
    /// HE size (D2 … 3D6) for weapons that can fire high explosive.
    #[serde(default)]
    pub he: Option<String>,
}

impl Weapon {
    /// The weapon as carried: on a vehicle, without the tags the tables list as belonging
    /// to towed or crewed weapons only (Team, Fixed).
    pub fn mounted(&self, on_vehicle: bool, tables: &Tables) -> Weapon {
        let mut weapon = self.clone();
        if on_vehicle {
            weapon
                .special
                .retain(|tag| !tables.towed_only_special.iter().any(|t| t == tag));
        }
        weapon
    }

    /// The PEN column as the chart prints it: "+5"; "HE" for a weapon that fires high
    /// explosive only (mortars, howitzers); "—" for none (small arms, "n/a" on the chart).
    pub fn pen_label(&self) -> String {
        match (self.pen, &self.he) {
            (Some(pen), _) => format!("+{pen}"),
            (None, Some(_)) => "HE".to_string(),
            (None, None) => "—".to_string(),
        }
    }

    /// "Bazooka 24″, 1 shot, PEN +5 (Team, Shaped Charge)".
    pub fn summary(&self) -> String {
        let pen = match (self.pen, &self.he) {
            (None, None) => "no PEN".to_string(),
            _ => format!("PEN {}", self.pen_label()),
        };
        let mut text = format!(
            "{} {}, {} shot(s), {pen}",
            self.name, self.range, self.shots
        );
        let mut special = self.special.clone();
        if let Some(he) = &self.he {
            special.push(format!("HE ({he})"));
        }
        if !special.is_empty() {
            text.push_str(&format!(" ({})", special.join(", ")));
        }
        text
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeRow {
    pub he: String,
    pub pen: u8,
    /// Pins caused: a number or a die ("D2").
    pub pins: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamageRoll {
    pub id: String,
    pub label: String,
    pub roll: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VehicleMove {
    #[serde(rename = "type")]
    pub movement: VehicleMovement,
    pub label: String,
    pub advance: u32,
    pub run: u32,
}

/// How far a unit on foot moves. The sheets give vehicle moves only, so these are the
/// project's example values (Rulings: Example values), as every Bolt Action card is.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FootMove {
    pub category: super::Category,
    pub label: String,
    pub advance: u32,
    /// `None`: it cannot run (a gun is manhandled by its crew).
    pub run: Option<u32>,
}

impl FootMove {
    /// "Infantry 6″ advance / 12″ run", as a card prints it.
    pub fn label(&self) -> String {
        let run = self
            .run
            .map_or("no run".to_string(), |run| format!("{run}″ run"));
        format!("{} {}″ advance / {run}", self.label, self.advance)
    }
}

/// The six orders, in the sheet's die order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderKind {
    Fire,
    Advance,
    Run,
    Ambush,
    Rally,
    Down,
}

impl OrderKind {
    pub const ALL: [OrderKind; 6] = [
        OrderKind::Fire,
        OrderKind::Advance,
        OrderKind::Run,
        OrderKind::Ambush,
        OrderKind::Rally,
        OrderKind::Down,
    ];

    /// The sheet's name for it.
    pub fn label(self) -> &'static str {
        match self {
            OrderKind::Fire => "Fire",
            OrderKind::Advance => "Advance",
            OrderKind::Run => "Run",
            OrderKind::Ambush => "Ambush",
            OrderKind::Rally => "Rally",
            OrderKind::Down => "Down",
        }
    }
}

/// How fast a vehicle moved this turn, for infantry assaulting it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VehicleMotion {
    /// Stationary, halted or immobilised.
    Still,
    Advanced,
    /// Ran: it cannot be assaulted.
    Ran,
}

/// The sheet's numbers for a vehicle assault by infantry.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VehicleHitNeed {
    pub still: u8,
    pub advanced: u8,
}

/// Close quarters: how many dice a model rolls, and infantry assaulting vehicles.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CloseQuartersTable {
    /// Damage dice each model rolls per round (house default: 1; the sheet gives no number).
    pub attacks_per_model: u32,
    /// To hit a vehicle: 4+ when it stood still, a 6 when it advanced.
    pub vehicle_hit_need: VehicleHitNeed,
    /// The order test to assault an enclosed armoured vehicle without anti-tank weapons.
    pub no_anti_tank_order_modifier: i8,
    /// The weapons that count as anti-tank weapons in an assault on a vehicle.
    pub anti_tank_weapons: Vec<String>,
}

impl CloseQuartersTable {
    /// Whether `weapon` is one of the anti-tank weapons, ignoring case.
    pub fn is_anti_tank(&self, weapon: &str) -> bool {
        self.anti_tank_weapons
            .iter()
            .any(|w| w.eq_ignore_ascii_case(weapon.trim()))
    }
}

/// The order dice's house defaults.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleTable {
    /// The order a unit takes when it fails an order test (not a FUBAR).
    pub failed_order: OrderKind,
    /// Orders whose dice stay by the unit at the end of the turn instead of returning to the
    /// bag.
    pub kept_orders: Vec<OrderKind>,
}

/// Every table of the reference sheets.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Tables {
    pub qualities: Vec<QualityRow>,
    pub officers: Vec<Officer>,
    pub orders: Vec<Order>,
    pub fubar: Vec<RangeRow>,
    pub hit: HitTable,
    pub damage_values: Vec<DamageValue>,
    pub penetration_modifiers: Vec<Modifier>,
    pub weapons: Vec<Weapon>,
    pub he_chart: Vec<HeRow>,
    pub damage_results: Vec<RangeRow>,
    pub damage_rolls: Vec<DamageRoll>,
    pub vehicle_moves: Vec<VehicleMove>,
    /// Moves of units on foot, which the sheets do not give.
    #[serde(default)]
    pub foot_moves: Vec<FootMove>,
    /// Weapon tags that describe a towed or crewed gun and so do not apply to a weapon
    /// mounted on a vehicle (Rulings: vehicle weapons).
    #[serde(default)]
    pub towed_only_special: Vec<String>,
    pub close_quarters: CloseQuartersTable,
    pub battle: BattleTable,
}

impl Tables {
    pub fn morale(&self, quality: Quality) -> Option<u8> {
        self.qualities
            .iter()
            .find(|q| q.quality == quality)
            .map(|q| q.morale)
    }

    pub fn damage_value(&self, target: &str) -> Option<u8> {
        self.damage_values
            .iter()
            .find(|d| d.target == target)
            .map(|d| d.value)
    }

    /// The weapon named `name`, ignoring case.
    pub fn weapon(&self, name: &str) -> Option<&Weapon> {
        self.weapons
            .iter()
            .find(|w| w.name.eq_ignore_ascii_case(name.trim()))
    }

    pub fn vehicle_move(&self, movement: VehicleMovement) -> Option<&VehicleMove> {
        self.vehicle_moves.iter().find(|m| m.movement == movement)
    }

    /// How a unit of `category` moves on foot, when it does.
    pub fn foot_move(&self, category: super::Category) -> Option<&FootMove> {
        self.foot_moves.iter().find(|m| m.category == category)
    }

    pub fn he(&self, size: &str) -> Option<&HeRow> {
        self.he_chart.iter().find(|h| h.he == size)
    }

    /// The armoured damage result for a (modified) roll.
    pub fn damage_result(&self, roll: i32) -> Option<&RangeRow> {
        self.damage_results
            .iter()
            .find(|r| (r.from..=r.to).contains(&roll))
    }

    /// The FUBAR chart result for a d6.
    pub fn fubar(&self, roll: i32) -> Option<&RangeRow> {
        self.fubar.iter().find(|r| (r.from..=r.to).contains(&roll))
    }

    pub fn officer_bonus(&self, rank: &str) -> Option<u8> {
        self.officers
            .iter()
            .find(|o| o.rank == rank)
            .map(|o| o.bonus)
    }
}
