//! A Belle Epoque unit as the app asks of any card: its traits explained for the printed
//! card, its quick-reference tags and its editor fields.

use std::collections::BTreeSet;

use super::{Doctrine, Reactivity, Trait, TroopType, UnitKind, UnitProfile, tables};
use crate::rules::card::{CardData, RuleNote};
use crate::rules::card_field::{
    CardField, FieldOption, FieldValue, chosen, counted, on_of, toggle_in,
};
use crate::rules::reference::{name_of, tag};
use crate::rules::stat::Stat;

const KINDS: [(UnitKind, &str); 4] = [
    (UnitKind::Cavalry, "Cavalry"),
    (UnitKind::MountedInfantry, "Mounted infantry"),
    (UnitKind::FormedInfantry, "Formed infantry"),
    (UnitKind::Tribesmen, "Tribesmen"),
];
const TROOP_TYPES: [(TroopType, &str); 7] = [
    (TroopType::A, "A"),
    (TroopType::B, "B"),
    (TroopType::C, "C"),
    (TroopType::D, "D"),
    (TroopType::E, "E"),
    (TroopType::F, "F"),
    (TroopType::G, "G"),
];
const REACTIVITIES: [(Reactivity, &str); 3] = [
    (Reactivity::Poor, "Poor"),
    (Reactivity::Trained, "Trained"),
    (Reactivity::Elite, "Elite"),
];
const DOCTRINES: [(Doctrine, &str); 2] = [
    (Doctrine::Loose, "Loose order"),
    (Doctrine::Close, "Close order"),
];
const TRAITS: [Trait; 6] = [
    Trait::Bold,
    Trait::Dashing,
    Trait::Stubborn,
    Trait::Choc,
    Trait::Militia,
    Trait::Conspicuous,
];

impl CardData for UnitProfile {
    fn name(&self) -> &str {
        &self.name
    }

    fn set_name(&mut self, name: String) {
        self.name = name;
    }

    fn type_label(&self) -> String {
        UnitProfile::type_label(self)
    }

    fn stats(&self) -> Vec<Stat> {
        UnitProfile::stats(self)
    }

    /// The values the book leaves out for this unit, filled with the project's examples.
    fn example_labels(&self) -> Vec<&'static str> {
        self.stats()
            .iter()
            .map(|s| s.label)
            .filter(|label| self.example_stats.iter().any(|e| e == label))
            .collect()
    }

    fn make_custom(&mut self) {
        self.example = false;
    }

    /// Each trait with what it does; for cavalry, the cover rule the assault odds apply.
    fn rule_notes(&self) -> Vec<RuleNote> {
        let tables = tables();
        let mut notes: Vec<RuleNote> = self
            .traits
            .iter()
            .map(|t| RuleNote {
                title: t.label().to_string(),
                text: tables
                    .and_then(|tables| tables.traits.iter().find(|row| row.trait_ == *t))
                    .map_or_else(String::new, |row| row.summary.clone()),
            })
            .collect();
        if self.kind == UnitKind::Cavalry {
            notes.extend(cavalry_cover_note());
        }
        notes
    }

    fn reference_tags(&self, tags: &mut BTreeSet<String>) {
        tags.extend(self.traits.iter().map(|t| tag("trait", name_of(t))));
        tags.insert(tag("kind", name_of(self.kind)));
        tags.insert(tag("doctrine", name_of(self.doctrine)));
    }

    fn fields(&self) -> Vec<CardField> {
        let traits = TRAITS.map(|t| FieldOption::new(t.label(), ""));
        vec![
            CardField::choice("kind", "Kind", &KINDS, &self.kind),
            CardField::choice("troop_type", "Troop type", &TROOP_TYPES, &self.troop_type),
            CardField::choice("reactivity", "Reactivity", &REACTIVITIES, &self.reactivity),
            CardField::choice("doctrine", "Doctrine", &DOCTRINES, &self.doctrine),
            CardField::count(
                "stands",
                "Stands",
                "The mustering limit is checked in forces",
                (1, 20),
                self.stands,
            ),
            CardField::many(
                "traits",
                "Traits",
                traits.to_vec(),
                on_of(&self.traits, &TRAITS),
            ),
        ]
    }

    fn set_field(&mut self, key: &str, value: FieldValue) {
        match key {
            "kind" => self.kind = chosen(&KINDS, &value).unwrap_or(self.kind),
            "troop_type" => {
                self.troop_type = chosen(&TROOP_TYPES, &value).unwrap_or(self.troop_type);
            }
            "reactivity" => {
                self.reactivity = chosen(&REACTIVITIES, &value).unwrap_or(self.reactivity);
            }
            "doctrine" => self.doctrine = chosen(&DOCTRINES, &value).unwrap_or(self.doctrine),
            "stands" => self.stands = counted(&value).unwrap_or(self.stands),
            "traits" => toggle_in(&mut self.traits, &TRAITS, &value),
            _ => {}
        }
    }
}

/// Cavalry in an assault fought from or against cover or rough terrain, as the assault odds
/// apply it.
fn cavalry_cover_note() -> Option<RuleNote> {
    let level = tables()?.resolution.assault.cavalry_in_cover_level;
    let scores: Vec<String> = (1..=level).map(|s| s.to_string()).collect();
    Some(RuleNote {
        title: "Cover".to_string(),
        text: format!(
            "in an assault fought from or against cover or rough terrain it scores on {} only.",
            scores.join(", ")
        ),
    })
}
