//! A BelloLudi vehicle as the app asks of any card: its morale note for the printed card and
//! its editor fields, the three components with their prices and the cost they add up to.

use super::{Class, Vehicle};
use crate::rules::card::{CardData, RuleNote};
use crate::rules::card_field::{CardField, FieldValue, chosen};
use crate::rules::stat::Stat;

const SPEEDS: [(Class, &str); 3] = [
    (Class::Light, "12″/18″ (2 pts)"),
    (Class::Medium, "8″/12″ (1 pt)"),
    (Class::Heavy, "6″/9″ (0 pts)"),
];
const SHOOTING: [(u8, &str); 3] = [(1, "1CD (6 pts)"), (2, "2CD (8 pts)"), (3, "3CD (12 pts)")];
const ARMOUR: [(u8, &str); 3] = [(3, "3 (4 pts)"), (5, "5 (8 pts)"), (7, "7 (12 pts)")];

impl CardData for Vehicle {
    fn name(&self) -> &str {
        &self.name
    }

    fn set_name(&mut self, name: String) {
        self.name = name;
    }

    fn type_label(&self) -> String {
        Vehicle::type_label(self)
    }

    fn stats(&self) -> Vec<Stat> {
        Vehicle::stats(self)
    }

    /// A costed example from the book's text names no gun and no morale.
    fn example_labels(&self) -> Vec<&'static str> {
        if self.example {
            vec!["Gun", "Morale"]
        } else {
            Vec::new()
        }
    }

    fn make_custom(&mut self) {
        self.example = false;
        self.morale = None;
    }

    /// What the morale pair means: the book prints it without a word.
    fn rule_notes(&self) -> Vec<RuleNote> {
        let broken = self.hits_to_broken();
        vec![RuleNote {
            title: format!("Morale {}", self.morale_label()),
            text: format!(
                "hits to shaken / armour left when broken. Shaken after {} hits (under \
                 half of its {} armour), broken after {broken} (a quarter or less left: \
                 {}). Each hit takes one chip of armour.",
                self.hits_to_shaken(),
                self.armour,
                u32::from(self.armour).saturating_sub(broken)
            ),
        }]
    }

    fn fields(&self) -> Vec<CardField> {
        vec![
            CardField::choice("speed", "Speed", &SPEEDS, &self.speed),
            CardField::choice("shooting", "Shooting", &SHOOTING, &self.shooting),
            CardField::choice("armour", "Armour", &ARMOUR, &self.armour),
            CardField::shown(
                "points",
                "Points",
                self.points()
                    .map(|p| format!("{p} points"))
                    .map_err(|e| e.to_string()),
            ),
        ]
    }

    fn set_field(&mut self, key: &str, value: FieldValue) {
        match key {
            "speed" => self.speed = chosen(&SPEEDS, &value).unwrap_or(self.speed),
            "shooting" => self.shooting = chosen(&SHOOTING, &value).unwrap_or(self.shooting),
            "armour" => self.armour = chosen(&ARMOUR, &value).unwrap_or(self.armour),
            _ => {}
        }
    }
}
