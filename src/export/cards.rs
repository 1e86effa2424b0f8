//! What goes on a unit card: the card's statistics, its rule notes and how many to print.
//!
//! The statistics come from [`Card::stats`], the one description every ruleset gives of its
//! cards; a force adds what only it knows (Bolt Action points, Belle Epoque stands).

use crate::rules::belle_epoque;
use crate::rules::validation::resolve_cards;
use crate::rules::{Card, Force, ForceUnit, RulesetId};

use super::ExportError;

/// Labels a card face can carry beyond [`Card::stats`].
pub const EXTRA_LABELS: [&str; 1] = ["Points"];

/// One labelled value on a card.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FaceStat {
    pub label: String,
    pub value: String,
}

/// A special rule or trait with what it does.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RuleNote {
    pub title: String,
    pub text: String,
}

/// Everything printed on the front of one card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardFace {
    pub ruleset: RulesetId,
    pub name: String,
    /// The card's type ("Medium AFV", "Light chassis").
    pub type_label: String,
    pub stats: Vec<FaceStat>,
    /// Explanations of the special rules or traits named in the card's statistics.
    pub notes: Vec<RuleNote>,
    /// Units this card stands for (more than 1 only when printing one card per type).
    pub count: u32,
    /// Which of its line's units this card is, when printing one card per unit: (2, 3).
    pub copy: Option<(u32, u32)>,
    /// Company, platoon or group.
    pub group: Option<String>,
}

impl CardFace {
    /// The value of the statistic labelled `label`.
    pub fn stat(&self, label: &str) -> Option<&str> {
        self.stats
            .iter()
            .find(|s| s.label == label)
            .map(|s| s.value.as_str())
    }
}

/// Which cards to print for a force.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CardMode {
    /// One card per unit on the table (a line of 3 gives 3 cards).
    #[default]
    PerUnit,
    /// One card per distinct card, showing how many units use it.
    PerType,
}

/// The card faces of `force`, in force order.
pub fn card_faces(force: &Force, mode: CardMode) -> Result<Vec<CardFace>, ExportError> {
    if force.units.is_empty() {
        return Err(ExportError::EmptyForce(force.name.clone()));
    }
    let cards = resolve_cards(force);
    let mut faces: Vec<CardFace> = Vec::new();
    for (index, (unit, card)) in force.units.iter().zip(cards).enumerate() {
        let Some(card) = card else {
            return Err(ExportError::UnresolvedCard {
                index,
                name: unit.card.name().to_string(),
                ruleset: force.ruleset.title(),
            });
        };
        let face = face_for(card, unit);
        match mode {
            CardMode::PerUnit => {
                for copy in 1..=unit.count {
                    faces.push(CardFace {
                        copy: (unit.count > 1).then_some((copy, unit.count)),
                        ..face.clone()
                    });
                }
            }
            CardMode::PerType => merge_into(&mut faces, face, unit.count),
        }
    }
    Ok(faces)
}

/// Adds `count` units of `face` to the list, joining a face with the same content.
fn merge_into(faces: &mut Vec<CardFace>, face: CardFace, count: u32) {
    let same = faces
        .iter_mut()
        .find(|f| f.name == face.name && f.stats == face.stats);
    match same {
        Some(existing) => {
            existing.count = existing.count.saturating_add(count);
            if existing.group != face.group {
                existing.group = None;
            }
        }
        None => faces.push(CardFace { count, ..face }),
    }
}

/// The face of one unit line's card, with the line's own points and stands.
pub fn face_for(card: &Card, unit: &ForceUnit) -> CardFace {
    let mut stats: Vec<FaceStat> = card
        .stats()
        .into_iter()
        .map(|s| FaceStat {
            label: s.label.to_string(),
            value: s.value,
        })
        .collect();
    if let (Card::BelleEpoque(_), Some(stands)) = (card, unit.stands)
        && let Some(stat) = stats.iter_mut().find(|s| s.label == "Stands")
    {
        stat.value = stands.to_string();
    }
    if let Some(points) = unit.points {
        stats.push(FaceStat {
            label: "Points".to_string(),
            value: points.to_string(),
        });
    }
    CardFace {
        ruleset: card.ruleset(),
        name: card.name().to_string(),
        type_label: card.type_label(),
        stats,
        notes: rule_notes(card),
        count: 1,
        copy: None,
        group: unit.group.clone(),
    }
}

/// The special rules (Armour Battles) or traits (Belle Epoque) of a card, explained.
pub fn rule_notes(card: &Card) -> Vec<RuleNote> {
    match card {
        Card::ArmourBattles(c) => c
            .special_rules
            .iter()
            .map(|rule| RuleNote {
                title: rule.title().to_string(),
                text: rule.explanation().to_string(),
            })
            .collect(),
        Card::BelleEpoque(c) => {
            let tables = belle_epoque::tables();
            c.traits
                .iter()
                .map(|t| RuleNote {
                    title: t.label().to_string(),
                    text: tables
                        .and_then(|tables| tables.traits.iter().find(|row| row.trait_ == *t))
                        .map_or_else(String::new, |row| row.summary.clone()),
                })
                .collect()
        }
        Card::Belloludi(_) | Card::BattleOfTanks(_) | Card::BoltAction(_) => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::armour_battles;

    #[test]
    fn per_unit_prints_every_unit_of_a_battle_group() {
        let force = armour_battles::preset_force("lorraine-1-german").unwrap();
        let faces = card_faces(&force, CardMode::PerUnit).unwrap();
        assert_eq!(faces.len(), 7);
        let panthers: Vec<_> = faces
            .iter()
            .filter(|f| f.name == "Panther Ausf G")
            .collect();
        assert_eq!(panthers.len(), 2);
        assert_eq!(panthers[1].copy, Some((2, 2)));
        assert_eq!(panthers[0].group.as_deref(), Some("Panzer Company 1"));
    }

    #[test]
    fn per_type_prints_one_card_with_its_count() {
        let force = armour_battles::preset_force("lorraine-1-german").unwrap();
        let faces = card_faces(&force, CardMode::PerType).unwrap();
        let counts: Vec<(&str, u32)> = faces.iter().map(|f| (f.name.as_str(), f.count)).collect();
        assert_eq!(
            counts,
            [
                ("Panther Ausf G", 2),
                ("Panzer IV H", 3),
                ("Sturmgeschütz III", 2)
            ]
        );
    }

    #[test]
    fn special_rules_come_with_their_explanation() {
        let force = armour_battles::preset_force("lorraine-1-german").unwrap();
        let faces = card_faces(&force, CardMode::PerType).unwrap();
        let stug = faces
            .iter()
            .find(|f| f.name == "Sturmgeschütz III")
            .unwrap();
        let titles: Vec<&str> = stug.notes.iter().map(|n| n.title.as_str()).collect();
        assert!(titles.contains(&"Low Profile"), "{titles:?}");
        assert!(stug.notes.iter().all(|n| !n.text.is_empty()));
    }

    #[test]
    fn an_unknown_card_stops_the_export_naming_it() {
        let mut force = Force::new(RulesetId::ArmourBattles, "Typo");
        force.units.push(ForceUnit::library("Panter", 1));
        assert_eq!(
            card_faces(&force, CardMode::PerUnit),
            Err(ExportError::UnresolvedCard {
                index: 0,
                name: "Panter".to_string(),
                ruleset: "Armour Battles"
            })
        );
        force.units.clear();
        assert_eq!(
            card_faces(&force, CardMode::PerUnit),
            Err(ExportError::EmptyForce("Typo".to_string()))
        );
    }

    #[test]
    fn bolt_action_points_and_belle_epoque_stands_come_from_the_force() {
        let ba = crate::rules::ruleset(RulesetId::BoltAction).library()[0].clone();
        let unit = ForceUnit {
            points: Some(65),
            ..ForceUnit::library(ba.name(), 1)
        };
        assert_eq!(face_for(&ba, &unit).stat("Points"), Some("65"));
        let be = crate::rules::ruleset(RulesetId::BelleEpoque).library()[0].clone();
        let unit = ForceUnit {
            stands: Some(2),
            ..ForceUnit::library(be.name(), 1)
        };
        assert_eq!(face_for(&be, &unit).stat("Stands"), Some("2"));
    }
}
