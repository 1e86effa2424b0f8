//! What several benchmarks build their libraries from.

use quartermaster::rules::Card;
use quartermaster::rules::belloludi::{Class, Vehicle};

/// The `i`-th generated custom vehicle: varied names ("Vehicle 00042 Mk Cromwell"), classes,
/// guns and armour, so searches and sorts meet realistic data.
pub fn vehicle(i: usize) -> Card {
    let classes = [Class::Light, Class::Medium, Class::Heavy];
    Card::Belloludi(Vehicle {
        name: format!(
            "Vehicle {i:05} Mk {}",
            ["Panzer", "Sherman", "Cromwell", "T-34"][i % 4]
        ),
        speed: classes[i % 3],
        shooting: (i % 3 + 1) as u8,
        armour: [3, 5, 7][i % 3],
        morale: None,
        example: false,
    })
}
