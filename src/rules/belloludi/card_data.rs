//! A BelloLudi vehicle as the app asks of any card: its morale pair and what it means for the
//! printed card and its editor fields, the three components with their prices and the cost they add up to.

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

impl Vehicle {
    /// The morale pair as the rulings read it (Rulings: State): hits until shaken / armour
    /// left when broken, "–" when a quarter of its armour is under one chip, so it is never
    /// broken and its last hit destroys it. The book's table prints "2/1" for a light tank;
    /// its "/1" is the one the app cannot play.
    fn rulings_morale(&self) -> String {
        let left = u32::from(self.armour).saturating_sub(self.hits_to_broken());
        if left == 0 {
            format!("{}/–", self.hits_to_shaken())
        } else {
            format!("{}/{left}", self.hits_to_shaken())
        }
    }
}

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

    /// With the morale pair as the rulings read it.
    fn printed_stats(&self) -> Vec<Stat> {
        let mut stats = self.stats();
        if let Some(stat) = stats.iter_mut().find(|s| s.label == "Morale") {
            stat.value = self.rulings_morale();
        }
        stats
    }

    /// What the morale pair means, in the numbers the tracker and the odds use (Rulings:
    /// State), and where it departs from the book's table.
    fn rule_notes(&self) -> Vec<RuleNote> {
        let shaken = self.hits_to_shaken();
        let broken = self.hits_to_broken();
        let armour = u32::from(self.armour);
        let morale = self.rulings_morale();
        let shaken_text =
            format!("shaken after {shaken} hits (under half of its {armour} armour): −1 to shoot.");
        let text = if broken >= armour {
            let book = self
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
        vec![RuleNote {
            title: format!("Morale {morale}"),
            text,
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
