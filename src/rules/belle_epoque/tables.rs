//! Belle Epoque's tables as data: unit kinds, troop types and the fire table, reactivity,
//! assault levels, traits, command dice and scenarios.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitKind {
    Cavalry,
    MountedInfantry,
    FormedInfantry,
    Tribesmen,
}

/// Troop type A (best firepower) to G (least).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TroopType {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
}

impl TroopType {
    pub fn letter(self) -> &'static str {
        match self {
            TroopType::A => "A",
            TroopType::B => "B",
            TroopType::C => "C",
            TroopType::D => "D",
            TroopType::E => "E",
            TroopType::F => "F",
            TroopType::G => "G",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reactivity {
    Poor,
    Trained,
    Elite,
}

impl Reactivity {
    pub fn label(self) -> &'static str {
        match self {
            Reactivity::Poor => "Poor",
            Reactivity::Trained => "Trained",
            Reactivity::Elite => "Elite",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Doctrine {
    Loose,
    Close,
}

impl Doctrine {
    pub fn label(self) -> &'static str {
        match self {
            Doctrine::Loose => "Loose order",
            Doctrine::Close => "Close order",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trait {
    Bold,
    Dashing,
    Stubborn,
    Choc,
    Militia,
    Conspicuous,
}

impl Trait {
    pub fn label(self) -> &'static str {
        match self {
            Trait::Bold => "Bold",
            Trait::Dashing => "Dashing",
            Trait::Stubborn => "Stubborn",
            Trait::Choc => "Choc",
            Trait::Militia => "Militia",
            Trait::Conspicuous => "Conspicuous",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KindRow {
    pub kind: UnitKind,
    pub label: String,
    pub max_stands: u32,
    pub basic_move: u32,
    pub march: u32,
}

/// To-hit at one range: the number, and the number when the firer moved (if it may).
pub type FireCell = Option<(u8, Option<u8>)>;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TroopTypeRow {
    #[serde(rename = "type")]
    pub troop_type: TroopType,
    pub description: String,
    /// To-hit at 1, 2, 3 and 4 UD; `None` where the table has a dash.
    pub fire: [FireCell; 4],
}

impl TroopTypeRow {
    /// "5 (3) · 4 (2) · 3 (1) · 2".
    pub fn fire_row_label(&self) -> String {
        self.fire
            .iter()
            .map(|cell| match cell {
                None => "–".to_string(),
                Some((n, None)) => n.to_string(),
                Some((n, Some(m))) => format!("{n} ({m})"),
            })
            .collect::<Vec<_>>()
            .join(" · ")
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReactivityRow {
    pub level: Reactivity,
    pub loose: u8,
    pub close: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AssaultLevel {
    pub troops: String,
    pub label: String,
    /// Highest die face that counts as a success (1/2, 1/2/3, 1–4).
    pub successful_scores: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraitRow {
    #[serde(rename = "trait")]
    pub trait_: Trait,
    pub summary: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandDie {
    pub general: String,
    pub die: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub id: String,
    pub label: String,
    pub min_stands: u32,
    pub max_stands: u32,
    pub board_width: u32,
    pub board_depth: u32,
}

/// Every table of the book.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Tables {
    pub unit_kinds: Vec<KindRow>,
    pub troop_types: Vec<TroopTypeRow>,
    pub reactivity: Vec<ReactivityRow>,
    pub assault_levels: Vec<AssaultLevel>,
    pub traits: Vec<TraitRow>,
    pub command_dice: Vec<CommandDie>,
    pub stands_per_command_die: u32,
    pub visibility_uds: u32,
    pub scenarios: Vec<Scenario>,
    /// Fire and assault modifiers used by [`super::resolve`].
    pub resolution: super::resolve::ResolutionTables,
}

impl Tables {
    pub fn kind(&self, kind: UnitKind) -> Option<&KindRow> {
        self.unit_kinds.iter().find(|k| k.kind == kind)
    }

    pub fn troop_type(&self, troop_type: TroopType) -> Option<&TroopTypeRow> {
        self.troop_types.iter().find(|t| t.troop_type == troop_type)
    }

    /// To-hit number for `troop_type` at `range_uds` (1–4), moving or not; `None` = cannot fire.
    pub fn to_hit(&self, troop_type: TroopType, range_uds: usize, moving: bool) -> Option<u8> {
        let cell = (*self
            .troop_type(troop_type)?
            .fire
            .get(range_uds.checked_sub(1)?)?)?;
        if moving { cell.1 } else { Some(cell.0) }
    }

    pub fn basic_score(&self, level: Reactivity, doctrine: Doctrine) -> Option<u8> {
        let row = self.reactivity.iter().find(|r| r.level == level)?;
        Some(match doctrine {
            Doctrine::Loose => row.loose,
            Doctrine::Close => row.close,
        })
    }

    /// Sides of the command die for a general of `quality` (mediocre/average/superior).
    pub fn command_die(&self, quality: &str) -> Option<u8> {
        self.command_dice
            .iter()
            .find(|c| c.general == quality)
            .map(|c| c.die)
    }

    pub fn scenario(&self, id: &str) -> Option<&Scenario> {
        self.scenarios
            .iter()
            .find(|s| s.id.eq_ignore_ascii_case(id.trim()))
    }
}
