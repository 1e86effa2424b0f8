//! What goes on a unit card: the card's statistics, its rule notes and how many to print.
//!
//! The statistics come from [`Card::stats`], the one description every ruleset gives of its
//! cards; a force adds what only it knows (Bolt Action points, Belle Epoque stands).

use crate::rules::validation::resolve_cards;
use crate::rules::{Card, Force, ForceUnit, RulesetId};
use crate::rules::{armour_battles, belle_epoque, belloludi};

use super::ExportError;

/// Labels a card face can carry beyond [`Card::stats`].
pub const EXTRA_LABELS: [&str; 2] = ["Points", TO_HIT];

/// The Armour Battles card line giving the target number of a frontal shot per range band.
const TO_HIT: &str = "To hit";

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

/// One weapon of a Bolt Action card as a table row.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WeaponRow {
    pub name: String,
    pub range: String,
    pub shots: String,
    /// "+5", "HE" for a weapon that fires high explosive only, "—" for no penetration.
    pub pen: String,
    /// Tags as carried by this unit ("Assault", "HE (D6)"), comma-separated.
    pub special: String,
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
    /// Labels of values that are the project's examples, not the book's.
    pub examples: Vec<String>,
    /// The book has no such card: the whole card is the project's example.
    pub example_card: bool,
    /// Weapons as table rows (Bolt Action), shown instead of the "Weapons" list.
    pub weapons: Vec<WeaponRow>,
    /// False for a unit that takes no damage on the table (off-table artillery): no boxes to
    /// track it on its card or the roster.
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
    match card {
        Card::ArmourBattles(c) => stats.extend(to_hit(c)),
        Card::Belloludi(v) => {
            if let Some(stat) = stats.iter_mut().find(|s| s.label == "Morale") {
                stat.value = belloludi_morale(v);
            }
        }
        _ => {}
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
        examples: card
            .example_labels()
            .into_iter()
            .map(str::to_string)
            .collect(),
        example_card: card.is_example_card(),
        weapons: weapon_rows(card),
        tracks_damage: !matches!(
            card,
            Card::ArmourBattles(c) if c.kind == armour_battles::UnitKind::OffTableArtillery
        ),
    }
}

/// "3+/4+/5+": the target number of a frontal shot at short, effective and long range, as
/// the fire odds compute it (Rulings: Direct fire), for a unit that fires on the table.
fn to_hit(card: &armour_battles::UnitCard) -> Option<FaceStat> {
    use armour_battles::fire::RangeBand;
    card.range?;
    let rules = armour_battles::fire_rules().ok()?;
    let bands = [RangeBand::Short, RangeBand::Effective, RangeBand::Long];
    let tns: Vec<String> = bands
        .iter()
        .map(|&band| format!("{}+", rules.frontal_tn(band)))
        .collect();
    Some(FaceStat {
        label: TO_HIT.to_string(),
        value: tns.join("/"),
    })
}

/// A BelloLudi tank's morale as the rulings read it (Rulings: State): hits until shaken /
/// armour left when broken, "–" when a quarter of its armour is under one chip, so it is
/// never broken and its last hit destroys it. The book's table prints "2/1" for a light
/// tank; its "/1" is the one the app cannot play.
fn belloludi_morale(v: &belloludi::Vehicle) -> String {
    let left = u32::from(v.armour).saturating_sub(v.hits_to_broken());
    if left == 0 {
        format!("{}/–", v.hits_to_shaken())
    } else {
        format!("{}/{left}", v.hits_to_shaken())
    }
}

/// A Bolt Action card's weapons as table rows, with the tags they carry on this unit.
fn weapon_rows(card: &Card) -> Vec<WeaponRow> {
    let Card::BoltAction(profile) = card else {
        return Vec::new();
    };
    profile
        .mounted_weapons()
        .into_iter()
        .map(|(name, weapon)| match weapon {
            Some(w) => {
                let mut special = w.special.clone();
                if let Some(he) = &w.he {
                    special.push(format!("HE ({he})"));
                }
                WeaponRow {
                    name: w.name.clone(),
                    range: w.range.clone(),
                    shots: w.shots.clone(),
                    pen: w.pen_label(),
                    special: special.join(", "),
                }
            }
            None => WeaponRow {
                name,
                range: "?".into(),
                shots: "?".into(),
                pen: "?".into(),
                special: "not on the weapons chart".into(),
            },
        })
        .collect()
}

/// The special rules (Armour Battles) or traits (Belle Epoque) of a card, explained; how an
/// off-table battery's mission is called and fired; what a BelloLudi morale pair means.
pub fn rule_notes(card: &Card) -> Vec<RuleNote> {
    match card {
        Card::ArmourBattles(c) => {
            let mut notes: Vec<RuleNote> = c
                .special_rules
                .iter()
                .map(|rule| RuleNote {
                    title: rule.title().to_string(),
                    text: rule.explanation().to_string(),
                })
                .collect();
            if c.kind == armour_battles::UnitKind::OffTableArtillery {
                notes.extend(fire_mission_note(c.at_dice));
            }
            notes
        }
        Card::Belloludi(v) => vec![belloludi_morale_note(v)],
        Card::BelleEpoque(c) => {
            let tables = belle_epoque::tables();
            let mut notes: Vec<RuleNote> = c
                .traits
                .iter()
                .map(|t| RuleNote {
                    title: t.label().to_string(),
                    text: tables
                        .and_then(|tables| tables.traits.iter().find(|row| row.trait_ == *t))
                        .map_or_else(String::new, |row| row.summary.clone()),
                })
                .collect();
            if c.kind == belle_epoque::UnitKind::Cavalry {
                notes.extend(cavalry_cover_note());
            }
            notes
        }
        Card::BattleOfTanks(_) | Card::BoltAction(_) => Vec::new(),
    }
}

/// What a BelloLudi tank's morale pair means, in the numbers the tracker and the odds use
/// (Rulings: State), and where it departs from the book's table.
fn belloludi_morale_note(v: &belloludi::Vehicle) -> RuleNote {
    let shaken = v.hits_to_shaken();
    let broken = v.hits_to_broken();
    let armour = u32::from(v.armour);
    let morale = belloludi_morale(v);
    let shaken_text =
        format!("shaken after {shaken} hits (under half of its {armour} armour): −1 to shoot.");
    let text = if broken >= armour {
        let book = v
            .morale
            .as_deref()
            .filter(|book| *book != morale)
            .map_or(String::new(), |book| {
                format!(" The book's table prints {book}.")
            });
        format!(
            "{shaken_text} Never broken: a quarter of {armour} armour is under one chip, so \
             the hit that takes its last chip destroys it.{book}"
        )
    } else {
        format!(
            "{shaken_text} Broken after {broken}, with {} left (a quarter or less): it falls \
             back one move towards the nearest table edge. Destroyed at 0.",
            armour - broken
        )
    };
    RuleNote {
        title: format!("Morale {morale}"),
        text,
    }
}

/// Cavalry in an assault fought from or against cover or rough terrain, as the assault odds
/// apply it.
fn cavalry_cover_note() -> Option<RuleNote> {
    let level = belle_epoque::tables()?
        .resolution
        .assault
        .cavalry_in_cover_level;
    let scores: Vec<String> = (1..=level).map(|s| s.to_string()).collect();
    Some(RuleNote {
        title: "Cover".to_string(),
        text: format!(
            "in an assault fought from or against cover or rough terrain it scores on {} only.",
            scores.join(", ")
        ),
    })
}

/// How an off-table battery is called and fires, from the artillery rules the app resolves
/// missions with (Rulings: Artillery).
fn fire_mission_note(at_dice: u8) -> Option<RuleNote> {
    let r = armour_battles::artillery_rules().ok()?;
    Some(RuleNote {
        title: "Fire mission".to_string(),
        text: format!(
            "Call it by rolling the group's artillery response dice at {tn}+ against \
             {opp} dice at {opp_tn}+: more successes fire at once, otherwise in the next \
             Logistics Phase. A hit die of {hit}+ lands on the marker, anything else scatters \
             {scatter}D″. Every unit within the {burst}″ burst takes {at_dice} dice at \
             {attack}+; range never counts.",
            tn = r.response_tn,
            opp = r.opponent_response_dice,
            opp_tn = r.opponent_response_tn,
            hit = r.hit_die_on_target_from,
            scatter = r.scatter_dice,
            burst = r.burst_inches,
            attack = r.attack_tn,
        ),
    })
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
        assert_eq!(m4.stat(TO_HIT), Some("3+/4+/5+"));
        assert!(m4.tracks_damage);
        let m7 = library_face(RulesetId::ArmourBattles, "M7 Howitzer Motor Carriage");
        assert_eq!(m7.stat(TO_HIT), None);
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
