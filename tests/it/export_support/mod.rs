//! What the export tests and `benches/export.rs` print to push the layout: shared so each
//! strains it alike.
#![allow(dead_code)]

use quartermaster::rules::{Card, Force, ForceUnit, armour_battles};

/// 90 Armour Battles units: the Lorraine Battle 3 US group (17 units) five times over, and a
/// platoon of five M4s.
pub fn ninety_units() -> Force {
    let mut force = armour_battles::preset_force("lorraine-3-us").unwrap();
    let base = force.units.clone();
    for _ in 0..4 {
        force.units.extend(base.iter().cloned());
    }
    force.units.push(ForceUnit::library("M4 75mm", 5));
    assert_eq!(force.unit_count(), 90);
    force
}

/// A Bolt Action custom card with a very long name and every weapon on the chart: more text
/// than any card size holds, so it must continue on further cards.
pub fn wordy_bolt_action_card() -> Card {
    let weapons = chart_weapons();
    Card::BoltAction(
        serde_json::from_value(serde_json::json!({
            "name": "Panzerkampfwagen Sonderkraftfahrzeug Befehlswagen mit sehr langem Namen",
            "category": "heavy_tank", "quality": "veteran",
            "weapons": weapons, "movement": "tracked", "open_topped": true, "recce": true
        }))
        .unwrap(),
    )
}

/// Every weapon name on the Bolt Action chart, in chart order.
pub fn chart_weapons() -> Vec<String> {
    quartermaster::rules::bolt_action::tables()
        .unwrap()
        .weapons
        .iter()
        .map(|w| w.name.clone())
        .collect()
}
