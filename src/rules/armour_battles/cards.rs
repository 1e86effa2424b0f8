//! Armour Battles unit cards: the book's statistics and the situational reaction dice.

use serde::{Deserialize, Serialize};

use crate::rules::stat::Stat;

/// Which army a unit serves: the battle seam's two sides, US and German here.
pub use crate::rules::battle::Side;

/// The seed's names of the two sides ("US", "German"): the armies its cards and briefings
/// field, first and second.
pub trait SideName {
    fn label(self) -> &'static str;
}

impl SideName for Side {
    fn label(self) -> &'static str {
        match self {
            Side::First => "US",
            Side::Second => "German",
        }
    }
}

/// An armoured fighting vehicle on the table, or artillery firing from off it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitKind {
    Afv,
    OffTableArtillery,
}

/// Vehicle weight class as printed in the Type line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weight {
    Light,
    Medium,
    Heavy,
}

/// Move class: average vehicles move 6+1D″, fast ones 6+1D×2″.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveClass {
    Average,
    Fast,
}

impl MoveClass {
    /// Fixed inches, variable dice and the variable multiplier of one move.
    pub fn formula(self) -> MoveFormula {
        match self {
            MoveClass::Average => MoveFormula {
                fixed_inches: 6,
                variable_dice: 1,
                multiplier: 1,
            },
            MoveClass::Fast => MoveFormula {
                fixed_inches: 6,
                variable_dice: 1,
                multiplier: 2,
            },
        }
    }
}

/// A move of `fixed_inches` plus `variable_dice` D6 times `multiplier` inches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveFormula {
    pub fixed_inches: u32,
    pub variable_dice: u32,
    pub multiplier: u32,
}

impl MoveFormula {
    /// The distance range of a single, double or triple move (`orders` = 1..=3).
    pub fn range_inches(self, orders: u32) -> (u32, u32) {
        let fixed = self.fixed_inches * orders;
        let dice = self.variable_dice * orders;
        (
            fixed + dice * self.multiplier,
            fixed + dice * 6 * self.multiplier,
        )
    }

    /// The book's notation: `6+1D″` or `6+1D×2″`.
    pub fn notation(self) -> String {
        match self.multiplier {
            1 => format!("{}+{}D″", self.fixed_inches, self.variable_dice),
            m => format!("{}+{}D×{m}″", self.fixed_inches, self.variable_dice),
        }
    }
}

/// Reaction dice as the book notates them: `5D`, sloped `7D/6D`, low profile `6D (5D)`,
/// open-topped `5D (O)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reaction {
    /// Dice against frontal direct fire.
    pub dice: u8,
    /// Sloped armour: dice against flank/rear shots and artillery.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sloped_other: Option<u8>,
    /// Low profile: dice against artillery (the bracketed number).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub low_profile_artillery: Option<u8>,
    /// Open-topped: one die fewer against artillery.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open_topped: bool,
}

/// Where the fire comes from, for choosing the reaction variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FireKind {
    DirectFrontal,
    DirectFlank,
    Artillery,
}

impl Reaction {
    /// The card's reaction dice against `fire`, before situational modifiers.
    pub fn dice_against(self, fire: FireKind) -> u8 {
        match fire {
            FireKind::DirectFrontal => self.dice,
            FireKind::DirectFlank => self.sloped_other.unwrap_or(self.dice),
            FireKind::Artillery => {
                let base = self
                    .sloped_other
                    .or(self.low_profile_artillery)
                    .unwrap_or(self.dice);
                if self.open_topped {
                    base.saturating_sub(1)
                } else {
                    base
                }
            }
        }
    }

    /// The book's notation.
    pub fn notation(self) -> String {
        let mut text = format!("{}D", self.dice);
        if let Some(other) = self.sloped_other {
            text.push_str(&format!("/{other}D"));
        }
        if let Some(artillery) = self.low_profile_artillery {
            text.push_str(&format!(" ({artillery}D)"));
        }
        if self.open_topped {
            text.push_str(" (O)");
        }
        text
    }
}

/// Weapon range bands in inches: short / effective / long.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeBands {
    pub short: u32,
    pub effective: u32,
    pub long: u32,
}

/// The special rules a card can carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpecialRule {
    SlopedArmour,
    LowProfile,
    Reconnaissance,
    BreakOff,
    ShootAndScoot,
    OpenTopped,
    PoorReliability,
    #[serde(rename = "fire_arc_180")]
    FireArc180,
    ArtillerySuppression,
}

impl SpecialRule {
    pub const ALL: [SpecialRule; 9] = [
        SpecialRule::SlopedArmour,
        SpecialRule::LowProfile,
        SpecialRule::Reconnaissance,
        SpecialRule::BreakOff,
        SpecialRule::ShootAndScoot,
        SpecialRule::OpenTopped,
        SpecialRule::PoorReliability,
        SpecialRule::FireArc180,
        SpecialRule::ArtillerySuppression,
    ];

    /// The rule's name as printed on a card.
    pub fn title(self) -> &'static str {
        match self {
            SpecialRule::SlopedArmour => "Sloped Armour",
            SpecialRule::LowProfile => "Low Profile",
            SpecialRule::Reconnaissance => "Reconnaissance",
            SpecialRule::BreakOff => "Break-Off",
            SpecialRule::ShootAndScoot => "Shoot and Scoot",
            SpecialRule::OpenTopped => "Open-Topped",
            SpecialRule::PoorReliability => "Poor Reliability",
            SpecialRule::FireArc180 => "180° Fire Arc",
            SpecialRule::ArtillerySuppression => "Artillery Suppression",
        }
    }

    /// What the rule does, in the project's own words.
    pub fn explanation(self) -> &'static str {
        match self {
            SpecialRule::SlopedArmour => {
                "+1D reaction against frontal fire; the lower number applies to flank, rear and artillery hits."
            }
            SpecialRule::LowProfile => {
                "+1D reaction against direct fire only; the bracketed number applies against artillery."
            }
            SpecialRule::Reconnaissance => {
                "One recon unit may join a command group beyond its limit of four."
            }
            SpecialRule::BreakOff => {
                "When fired on, may at once move back a normal move with +2D reaction; cannot be activated again this turn."
            }
            SpecialRule::ShootAndScoot => {
                "May fire and then move straight back a normal move; +2D reaction against fire while scooting."
            }
            SpecialRule::OpenTopped => "−1D reaction against artillery.",
            SpecialRule::PoorReliability => {
                "On a double or triple move, more 1s than 6s breaks it down: no move this turn, repair with a command die or staff order."
            }
            SpecialRule::FireArc180 => "No turret: fires only to its front 180°.",
            SpecialRule::ArtillerySuppression => {
                "Targets must roll more 6s than the artillery to avoid suppression."
            }
        }
    }
}

fn default_cohesion() -> u8 {
    3
}

/// One Armour Battles unit card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitCard {
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_names: Vec<String>,
    pub side: Side,
    pub kind: UnitKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<Weight>,
    #[serde(rename = "move", default, skip_serializing_if = "Option::is_none")]
    pub move_class: Option<MoveClass>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reaction: Option<Reaction>,
    pub weapon: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<RangeBands>,
    pub at_dice: u8,
    /// Disruption points that disperse the unit; 3 for every unit in the book.
    #[serde(default = "default_cohesion")]
    pub cohesion: u8,
    #[serde(default)]
    pub special_rules: Vec<SpecialRule>,
}

impl UnitCard {
    /// True when the card carries `rule`.
    pub fn has(&self, rule: SpecialRule) -> bool {
        self.special_rules.contains(&rule)
    }

    /// "Medium AFV" or "Off-table Artillery".
    pub fn type_label(&self) -> String {
        match (self.kind, self.weight) {
            (UnitKind::OffTableArtillery, _) => "Off-table Artillery".to_string(),
            (UnitKind::Afv, Some(Weight::Light)) => "Light AFV".to_string(),
            (UnitKind::Afv, Some(Weight::Medium)) => "Medium AFV".to_string(),
            (UnitKind::Afv, Some(Weight::Heavy)) => "Heavy AFV".to_string(),
            (UnitKind::Afv, None) => "AFV".to_string(),
        }
    }

    /// The move line: "Average 6+1D″" or "Fast 6+1D×2″"; off-table units have none.
    pub fn move_label(&self) -> String {
        match self.move_class {
            Some(class @ MoveClass::Average) => format!("Average {}", class.formula().notation()),
            Some(class @ MoveClass::Fast) => format!("Fast {}", class.formula().notation()),
            None => "—".to_string(),
        }
    }

    /// Every statistic of the card, labelled and explained.
    pub fn stats(&self) -> Vec<Stat> {
        let mut stats = vec![
            Stat::new("Side", self.side.label(), "The army that fields this unit."),
            Stat::new(
                "Type",
                self.type_label(),
                "Unit type and weight: an armoured fighting vehicle, or artillery firing from off the table.",
            ),
            Stat::new(
                "Move",
                self.move_label(),
                "Fixed inches plus the variable dice; a multiple move adds the fixed parts and rolls all the dice.",
            ),
            Stat::new(
                "Reaction",
                self.reaction.map_or("—".to_string(), Reaction::notation),
                "Dice rolled when hit: /second number vs flank, rear and artillery (sloped); (bracket) vs artillery (low profile); (O) open-topped, −1D vs artillery.",
            ),
            Stat::new(
                "Weapon",
                self.weapon.clone(),
                "The main gun; machine guns are included in its fire.",
            ),
            Stat::new(
                "Range",
                self.range.map_or("Off-table".to_string(), |r| {
                    format!("{}/{}/{}″", r.short, r.effective, r.long)
                }),
                "Short / effective / long range in inches: −1 TN at short, +1 TN at long.",
            ),
            Stat::new(
                "AT",
                format!("{}D", self.at_dice),
                "Anti-tank fire: dice rolled when firing at armoured targets.",
            ),
            Stat::new(
                "Cohesion",
                self.cohesion.to_string(),
                "Disruption points that disperse the unit.",
            ),
        ];
        if !self.special_rules.is_empty() {
            let rules: Vec<&str> = self.special_rules.iter().map(|r| r.title()).collect();
            stats.push(Stat::new(
                "Notes",
                rules.join(", "),
                "Special rules; see the quick reference for each.",
            ));
        }
        stats
    }
}
