//! What goes on a unit card: the card's statistics, its rule notes and how many to print.
//!
//! The statistics, rule notes and weapon rows come from the card
//! ([`CardData::printed_stats`](crate::rules::card::CardData::printed_stats) and the rest of
//! [`CardData`](crate::rules::card::CardData)), the one description every ruleset gives of
//! its cards; a force adds what only it knows, the number each line sets for itself
//! ([`line_field`](crate::rules::Ruleset::line_field): points, stands).

pub use crate::rules::card::{RuleNote, WeaponRow};
use crate::rules::validation::resolve_cards;
use crate::rules::{Card, Force, ForceUnit, RulesetId, all_rulesets};

use super::ExportError;

/// Labels a card face can carry beyond its card's printed statistics: what force lines set
/// for themselves.
pub fn extra_labels() -> Vec<&'static str> {
    all_rulesets()
        .filter_map(|r| r.line_field())
        .map(|field| field.label)
        .collect()
}

/// One labelled value on a card.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FaceStat {
    pub label: String,
    pub value: String,
}

/// Everything printed on one card.
#[derive(Debug, Clone, PartialEq)]
pub struct CardFace {
    /// The card the face is of (its back's odds table is worked out from it).
    pub card: Card,
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
    /// Labels of values that are the project's examples, not the book's.
    pub examples: Vec<String>,
    /// The book has no such card: the whole card is the project's example.
    pub example_card: bool,
    /// Weapons as table rows (the card's
    /// [`weapon_rows`](crate::rules::card::CardData::weapon_rows)), shown instead of the
    /// "Weapons" list.
    pub weapons: Vec<WeaponRow>,
    /// False for a unit that takes no damage on the table (off-table artillery): no boxes to
    /// track it on its card or the roster
    /// ([`tracks_damage`](crate::rules::card::CardData::tracks_damage)).
    pub tracks_damage: bool,
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

/// The face of one unit line's card, with the number the line sets for itself (points,
/// stands) in place of the card's own or after its statistics.
pub fn face_for(card: &Card, unit: &ForceUnit) -> CardFace {
    let mut stats: Vec<FaceStat> = card
        .data()
        .printed_stats()
        .into_iter()
        .map(|s| FaceStat {
            label: s.label.to_string(),
            value: s.value,
        })
        .collect();
    let field = crate::rules::ruleset(card.ruleset()).line_field();
    if let Some((field, value)) = field.and_then(|f| Some((f, f.get(unit)?))) {
        match stats.iter_mut().find(|s| s.label == field.label) {
            Some(stat) => stat.value = value.to_string(),
            None => stats.push(FaceStat {
                label: field.label.to_string(),
                value: value.to_string(),
            }),
        }
    }
    CardFace {
        card: card.clone(),
        ruleset: card.ruleset(),
        name: card.name().to_string(),
        type_label: card.type_label(),
        stats,
        notes: card.rule_notes(),
        count: 1,
        copy: None,
        group: unit.group.clone(),
        examples: card
            .example_labels()
            .into_iter()
            .map(str::to_string)
            .collect(),
        example_card: card.is_example_card(),
        weapons: card.data().weapon_rows(),
        tracks_damage: card.data().tracks_damage(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{armour_battles, belle_epoque};

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

    fn library_face(id: RulesetId, name: &str) -> CardFace {
        let card = crate::rules::ruleset(id)
            .library()
            .iter()
            .find(|c| c.name() == name)
            .unwrap();
        face_for(card, &ForceUnit::library(name, 1))
    }

    /// Finding 4: tank guns carried the towed-gun tags "Team, Fixed" and weapons were prose.
    #[test]
    fn bolt_action_weapons_are_rows_and_vehicle_guns_drop_the_towed_gun_tags() {
        let tank = library_face(RulesetId::BoltAction, "Medium Tank");
        let gun = &tank.weapons[0];
        assert_eq!(gun.name, "Medium AT gun");
        assert!(!gun.special.contains("Team") && !gun.special.contains("Fixed"));
        assert!(gun.pen.starts_with('+'), "{}", gun.pen);
        let towed = library_face(RulesetId::BoltAction, "Medium AT Gun");
        assert!(
            towed.weapons[0].special.contains("Team"),
            "{:?}",
            towed.weapons
        );
        assert!(tank.example_card && tank.examples.contains(&"Weapons".to_string()));
    }

    /// Finding 4: only militia and choc units showed their assault dice.
    #[test]
    fn every_belle_epoque_unit_shows_its_assault_dice_and_british_regulars_are_type_c() {
        for card in crate::rules::ruleset(RulesetId::BelleEpoque).library() {
            let face = face_for(card, &ForceUnit::library(card.name(), 1));
            let assault = face.stat("Assault").unwrap_or_default();
            assert!(
                assault.starts_with("1 die a stand; each roll of 1–"),
                "{}: {assault}",
                face.name
            );
            assert_eq!(face.examples, ["Type", "Reactivity"], "{}", face.name);
        }
        let british = library_face(RulesetId::BelleEpoque, "British Regulars");
        assert_eq!(british.stat("Type"), Some("C"));
        assert_eq!(
            british.stat("Assault"),
            Some("1 die a stand; each roll of 1–3 adds its pips")
        );
    }

    /// Finding 4: "Morale 3/1" was explained nowhere; an off-table battery said nothing about
    /// calling or firing a mission.
    #[test]
    fn belloludi_morale_and_off_table_missions_are_explained() {
        let medium = library_face(RulesetId::Belloludi, "Medium Tank");
        let morale = &medium.notes[0];
        assert_eq!(morale.title, "Morale 3/1");
        assert!(
            morale.text.contains("shaken after 3 hits"),
            "{}",
            morale.text
        );
        assert!(medium.examples.is_empty());
        let sherman = library_face(RulesetId::Belloludi, "Sherman");
        assert_eq!(sherman.examples, ["Gun", "Morale"]);
        let m7 = library_face(RulesetId::ArmourBattles, "M7 Howitzer Motor Carriage");
        let mission = m7.notes.iter().find(|n| n.title == "Fire mission").unwrap();
        assert!(
            mission.text.contains("artillery response dice at 4+"),
            "{}",
            mission.text
        );
        assert!(mission.text.contains("4″ burst"));
    }

    /// Finding 3: a light tank's card said "Morale 2/1" (broken at 1 armour left) while its
    /// explanation, like the odds, had it broken at 0, which is destroyed. Under the rulings
    /// a quarter of 3 armour is under one chip: the card says it is never broken.
    #[test]
    fn belloludi_morale_on_the_card_is_the_rulings_pair() {
        for (name, pair) in [
            ("Light Tank", "2/–"),
            ("Medium Tank", "3/1"),
            ("Heavy Tank", "4/1"),
        ] {
            let face = library_face(RulesetId::Belloludi, name);
            let Some(Card::Belloludi(vehicle)) = crate::rules::ruleset(RulesetId::Belloludi)
                .library()
                .iter()
                .find(|c| c.name() == name)
            else {
                panic!("{name}");
            };
            // The pair from the state the odds give after each hit.
            let armour = u32::from(vehicle.armour);
            let state =
                |hits: u32| crate::rules::belloludi::resolve::state_of(vehicle, armour - hits);
            let shaken = (0..=armour)
                .find(|&h| state(h) >= crate::rules::belloludi::resolve::TankState::Shaken)
                .unwrap();
            let broken = (0..armour)
                .find(|&h| state(h) == crate::rules::belloludi::resolve::TankState::Broken);
            let expected = match broken {
                Some(h) => format!("{shaken}/{}", armour - h),
                None => format!("{shaken}/–"),
            };
            assert_eq!(expected, pair, "{name}");
            assert_eq!(face.stat("Morale"), Some(pair), "{name}");
            assert_eq!(face.notes[0].title, format!("Morale {pair}"));
        }
        let light = library_face(RulesetId::Belloludi, "Light Tank");
        assert!(
            light.notes[0].text.contains("Never broken"),
            "{}",
            light.notes[0].text
        );
        assert!(light.notes[0].text.contains("prints 2/1"));
    }

    /// Finding 5: off-table artillery had Disruption boxes; an Armour Battles card had no
    /// target number per range band.
    #[test]
    fn armour_battles_cards_give_the_target_number_per_band_and_artillery_tracks_nothing() {
        let m4 = library_face(RulesetId::ArmourBattles, "M4 75mm");
        // RULINGS Direct fire: TN 4, short −1, long +1.
        assert_eq!(m4.stat("To hit"), Some("3+/4+/5+"));
        assert!(m4.tracks_damage);
        let m7 = library_face(RulesetId::ArmourBattles, "M7 Howitzer Motor Carriage");
        assert_eq!(m7.stat("To hit"), None);
        assert!(!m7.tracks_damage);
    }

    /// Finding 3: mortars and howitzers printed PEN "—" where the chart prints "HE".
    #[test]
    fn bolt_action_he_only_weapons_print_he_for_pen() {
        let mortar = library_face(RulesetId::BoltAction, "Medium Mortar Team");
        let row = mortar
            .weapons
            .iter()
            .find(|w| w.name == "Medium mortar")
            .unwrap();
        assert_eq!(row.pen, "HE");
        let squad = library_face(RulesetId::BoltAction, "Regular Infantry Squad");
        assert_eq!(squad.weapons[0].pen, "—");
        // Finding 3: infantry printed "—" for Move, which reads "cannot move".
        assert_eq!(squad.stat("Move"), Some("Infantry 6″ advance / 12″ run"));
        let gun = library_face(RulesetId::BoltAction, "Light AT Gun");
        assert_eq!(gun.stat("Move"), Some("Artillery 6″ advance / no run"));
    }

    /// Finding 3: cavalry cards did not carry the cover rule the assault odds apply.
    #[test]
    fn cavalry_cards_carry_the_assault_cover_rule() {
        for card in crate::rules::ruleset(RulesetId::BelleEpoque).library() {
            let face = face_for(card, &ForceUnit::library(card.name(), 1));
            let Card::BelleEpoque(unit) = card else {
                continue;
            };
            let cover = face.notes.iter().find(|n| n.title == "Cover");
            assert_eq!(
                cover.is_some(),
                unit.kind == belle_epoque::UnitKind::Cavalry,
                "{}",
                face.name
            );
            if let Some(note) = cover {
                assert!(note.text.contains("scores on 1 only"), "{}", note.text);
            }
        }
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
