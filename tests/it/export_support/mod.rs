//! What the export tests print to push the layout: shared so each test strains it alike.

use quartermaster::rules::Card;

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
