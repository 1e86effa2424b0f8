//! A Battle of Tanks card as the app asks of any card: its editor fields, the nine values of
//! the tank card.

use super::TankCard;
use crate::rules::card::CardData;
use crate::rules::card_field::{CardField, FieldValue, counted};
use crate::rules::stat::Stat;

impl CardData for TankCard {
    fn name(&self) -> &str {
        &self.name
    }

    fn set_name(&mut self, name: String) {
        self.name = name;
    }

    fn short_names(&self) -> &[String] {
        &self.short_names
    }

    fn type_label(&self) -> String {
        "Tank".to_string()
    }

    fn stats(&self) -> Vec<Stat> {
        TankCard::stats(self)
    }

    fn fields(&self) -> Vec<CardField> {
        vec![
            CardField::count(
                "tier",
                "Tier",
                "Stufe: counts against the tier points",
                (1, 20),
                self.tier,
            ),
            CardField::count(
                "hit_points",
                "Hit points",
                "The tank is destroyed at 0",
                (1, 10_000),
                self.hit_points,
            ),
            CardField::count(
                "movement_cm",
                "Movement (cm)",
                "Bewegung",
                (0, 500),
                self.movement_cm,
            ),
            CardField::count(
                "sight_cm",
                "Sight (cm)",
                "Sichtweite",
                (0, 500),
                self.sight_cm,
            ),
            CardField::count(
                "spotting",
                "Spotting (x+)",
                "Aufklärung",
                (1, 6),
                self.spotting,
            ),
            CardField::count(
                "accuracy",
                "Accuracy (x+)",
                "Genauigkeit",
                (1, 6),
                self.accuracy,
            ),
            CardField::count(
                "fire_rate",
                "Fire rate",
                "Feuerrate: shots per round",
                (1, 50),
                self.fire_rate,
            ),
            CardField::count(
                "firepower",
                "Firepower",
                "Feuerkraft: damage per penetration",
                (0, 5000),
                self.firepower,
            ),
            CardField::count(
                "repair",
                "Repair (x+)",
                "Instandsetzung",
                (1, 6),
                self.repair,
            ),
        ]
    }

    fn set_field(&mut self, key: &str, value: FieldValue) {
        let field = match key {
            "tier" => &mut self.tier,
            "hit_points" => &mut self.hit_points,
            "movement_cm" => &mut self.movement_cm,
            "sight_cm" => &mut self.sight_cm,
            "fire_rate" => &mut self.fire_rate,
            "firepower" => &mut self.firepower,
            "spotting" | "accuracy" | "repair" => {
                let roll = match key {
                    "spotting" => &mut self.spotting,
                    "accuracy" => &mut self.accuracy,
                    _ => &mut self.repair,
                };
                *roll = counted(&value).unwrap_or(*roll);
                return;
            }
            _ => return,
        };
        *field = counted(&value).unwrap_or(*field);
    }
}
