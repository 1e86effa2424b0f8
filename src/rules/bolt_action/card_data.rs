//! A Bolt Action unit profile as the app asks of any card: its weapons as table rows for the
//! printed card, its quick-reference tags and its editor fields.

use std::collections::BTreeSet;

use super::{Category, Quality, UnitProfile, VehicleMovement, tables};
use crate::rules::army_data::ArmyEntry;
use crate::rules::card::{CardData, WeaponRow};
use crate::rules::card_field::{CardField, FieldOption, FieldValue, chosen, on_of, toggle_in};
use crate::rules::reference::{name_of, tag};
use crate::rules::stat::Stat;

const CATEGORIES: [(Category, &str); 8] = [
    (Category::Infantry, "Infantry"),
    (Category::Artillery, "Artillery"),
    (Category::SoftSkin, "Soft-skinned vehicle"),
    (Category::ArmouredCar, "Armoured car / carrier"),
    (Category::LightTank, "Light tank"),
    (Category::MediumTank, "Medium tank"),
    (Category::HeavyTank, "Heavy tank"),
    (Category::SuperHeavyTank, "Super-heavy tank"),
];
const QUALITIES: [(Quality, &str); 3] = [
    (Quality::Inexperienced, "Inexperienced"),
    (Quality::Regular, "Regular"),
    (Quality::Veteran, "Veteran"),
];
const MOVEMENTS: [(VehicleMovement, &str); 3] = [
    (VehicleMovement::Tracked, "Tracked"),
    (VehicleMovement::HalfTracked, "Half-tracked"),
    (VehicleMovement::Wheeled, "Wheeled"),
];

/// The weapons chart's names, in chart order: the options of the weapons field.
fn chart_names() -> Vec<String> {
    tables()
        .map(|t| t.weapons.iter().map(|w| w.name.clone()).collect())
        .unwrap_or_default()
}

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

    /// The sheets print no units: every value of an example card is the project's.
    fn example_labels(&self) -> Vec<&'static str> {
        if self.example {
            self.stats().iter().map(|s| s.label).collect()
        } else {
            Vec::new()
        }
    }

    fn is_example_card(&self) -> bool {
        self.example
    }

    /// The unit's weapons as table rows, with the tags they carry on this unit.
    fn weapon_rows(&self) -> Vec<WeaponRow> {
        self.mounted_weapons()
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

    /// A copy to edit is the player's own: the data no longer prices it.
    fn make_custom(&mut self) {
        self.army = None;
    }

    fn army(&self) -> Option<&ArmyEntry> {
        self.army.as_deref()
    }

    fn apply_army(&mut self, entry: ArmyEntry) {
        UnitProfile::apply_army(self, entry);
    }

    fn reference_tags(&self, tags: &mut BTreeSet<String>) {
        tags.insert(tag("category", name_of(self.category)));
        if self.category.is_armoured() {
            tags.insert("armoured".into());
        }
        if self.movement.is_some() {
            tags.insert("vehicle".into());
        }
        if self.open_topped {
            tags.insert("open_topped".into());
        }
        if self.recce {
            tags.insert("recce".into());
        }
        for name in &self.weapons {
            let weapon = tables().and_then(|t| t.weapon(name));
            if let Some(weapon) = weapon {
                tags.insert(tag("weapon", &weapon.name));
                if weapon.he.is_some() {
                    tags.insert("weapon:he".into());
                }
            }
        }
    }

    fn fields(&self) -> Vec<CardField> {
        let mut fields = vec![
            CardField::choice("category", "Category", &CATEGORIES, &self.category),
            CardField::choice("quality", "Quality", &QUALITIES, &self.quality),
        ];
        if self.category.is_vehicle() {
            let movement = self.movement.unwrap_or(VehicleMovement::Tracked);
            fields.extend([
                CardField::choice("movement", "Movement", &MOVEMENTS, &movement),
                CardField::toggle("open_topped", "Open-topped", self.open_topped),
                CardField::toggle("recce", "Recce", self.recce),
            ]);
        }
        let chart = tables().map(|t| t.weapons.as_slice()).unwrap_or_default();
        let options = chart
            .iter()
            .map(|w| FieldOption::new(&w.name, w.summary()))
            .collect();
        fields.push(CardField::many(
            "weapons",
            "Weapons",
            options,
            on_of(&self.weapons, &chart_names()),
        ));
        fields
    }

    fn set_field(&mut self, key: &str, value: FieldValue) {
        match key {
            "category" => {
                self.category = chosen(&CATEGORIES, &value).unwrap_or(self.category);
                // Only vehicles move by vehicle movement; a vehicle always has one.
                self.movement = if self.category.is_vehicle() {
                    Some(self.movement.unwrap_or(VehicleMovement::Tracked))
                } else {
                    None
                };
            }
            "quality" => self.quality = chosen(&QUALITIES, &value).unwrap_or(self.quality),
            "movement" => self.movement = chosen(&MOVEMENTS, &value).or(self.movement),
            "open_topped" => self.open_topped = value == FieldValue::Flag(true),
            "recce" => self.recce = value == FieldValue::Flag(true),
            "weapons" => toggle_in(&mut self.weapons, &chart_names(), &value),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vehicle_category_brings_a_movement_and_infantry_drops_it() {
        let mut unit = UnitProfile {
            name: "Squad".into(),
            category: Category::Infantry,
            quality: Quality::Regular,
            weapons: Vec::new(),
            movement: None,
            open_topped: false,
            recce: false,
            example: false,
            army: None,
        };
        assert!(unit.fields().iter().all(|f| f.key != "movement"));
        let tank = CATEGORIES
            .iter()
            .position(|(c, _)| *c == Category::MediumTank)
            .unwrap();
        unit.set_field("category", FieldValue::Choice(tank));
        assert_eq!(unit.movement, Some(VehicleMovement::Tracked));
        unit.set_field("movement", FieldValue::Choice(2));
        assert_eq!(unit.movement, Some(VehicleMovement::Wheeled));
        unit.set_field("category", FieldValue::Choice(0));
        assert_eq!(unit.movement, None);
    }
}
