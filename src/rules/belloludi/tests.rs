//! Numbers from the book's Tanks table and its two costed examples.

use super::*;
use crate::rules::force::ForceUnit;
use crate::rules::validation::validate;

fn vehicle(speed: Class, shooting: u8, armour: u8) -> Vehicle {
    Vehicle {
        name: "Test".into(),
        speed,
        shooting,
        armour,
        morale: None,
        example: false,
    }
}

pub(super) fn library_vehicle(name: &str) -> &'static Vehicle {
    BelloLudi
        .library()
        .iter()
        .find_map(|c| match c {
            Card::Belloludi(v) if v.name == name => Some(v),
            _ => None,
        })
        .unwrap()
}

#[test]
fn the_books_examples_cost_17_and_18() {
    // Sherman: 8″/12″ (1) + 2CD (8) + armour 5 (8) = 17.
    assert_eq!(vehicle(Class::Medium, 2, 5).points(), Ok(17));
    assert_eq!(library_vehicle("Sherman").points(), Ok(17));
    // Sd.Kfz. 251/22: 12″/18″ (2) + 3CD (12) + armour 3 (4) = 18.
    assert_eq!(vehicle(Class::Light, 3, 3).points(), Ok(18));
    assert_eq!(library_vehicle("Sd.Kfz. 251/22").points(), Ok(18));
}

#[test]
fn the_tanks_table_rows_match_the_book() {
    // (row, speed off-road/road, gun, range, CD, armour, morale)
    let rows = [
        (
            "Light Tank",
            "12″/18″",
            "Light Gun (36″)",
            "1CD",
            "3",
            "2/1",
        ),
        (
            "Medium Tank",
            "8″/12″",
            "Medium Gun (48″)",
            "2CD",
            "5",
            "3/1",
        ),
        ("Heavy Tank", "6″/9″", "Heavy Gun (60″)", "3CD", "7", "4/1"),
    ];
    for (name, speed, gun, cd, armour, morale) in rows {
        let stats = library_vehicle(name).stats();
        let values: Vec<&str> = stats.iter().map(|s| s.value.as_str()).collect();
        assert_eq!(&values[..5], [speed, gun, cd, armour, morale], "{name}");
    }
}

#[test]
fn every_component_combination_is_priced_by_the_table() {
    // Component prices from the book: speed 2/1/0, shooting 6/8/12, armour 4/8/12.
    let speeds = [(Class::Light, 2), (Class::Medium, 1), (Class::Heavy, 0)];
    let shots = [(1, 6), (2, 8), (3, 12)];
    let armours = [(3, 4), (5, 8), (7, 12)];
    for (speed, sp) in speeds {
        for (cd, cp) in shots {
            for (armour, ap) in armours {
                assert_eq!(vehicle(speed, cd, armour).points(), Ok(sp + cp + ap));
            }
        }
    }
    assert_eq!(
        vehicle(Class::Medium, 4, 5).points(),
        Err(CostError::Shooting(4))
    );
    assert_eq!(
        vehicle(Class::Medium, 2, 6).points(),
        Err(CostError::Armour(6))
    );
}

#[test]
fn a_medium_tank_is_shaken_after_3_hits_and_broken_after_4() {
    let medium = library_vehicle("Medium Tank");
    assert_eq!(medium.hits_to_shaken(), 3);
    assert_eq!(medium.hits_to_broken(), 4);
    // The table's morale column's first number is hits to shaken for every row.
    assert_eq!(library_vehicle("Light Tank").hits_to_shaken(), 2);
    assert_eq!(library_vehicle("Heavy Tank").hits_to_shaken(), 4);
}

#[test]
fn a_points_limit_is_checked_with_a_fix() {
    let mut force = Force::new(RulesetId::Belloludi, "Test");
    force.budget = Budget::Points(50);
    force.units.push(ForceUnit::library("Medium Tank", 2)); // 34
    force.units.push(ForceUnit::library("Light Tank", 1)); // 12
    let v = validate(&force);
    assert!(v.legal, "{:?}", v.violations);
    assert_eq!(v.totals.points, Some(46));
    force.units.push(ForceUnit::library("Heavy Tank", 1)); // 24 → 70
    let v = validate(&force);
    assert!(!v.legal);
    assert_eq!(v.budget.used, 70);
    assert_eq!(v.budget.limit, Some(50));
    // Over by 20: removing the cheapest line worth at least 20 (a Heavy Tank, 24) mends it.
    assert_eq!(
        v.violations[0].message,
        "Force costs 70 points: the limit is 50 — remove 20 points (e.g. 1 Heavy Tank)"
    );
}

#[test]
fn inline_cards_reject_components_outside_the_table() {
    let bad = serde_json::json!({"name": "X", "speed": "medium", "shooting": 4, "armour": 5});
    let err = BelloLudi
        .parse_inline_card(&bad, "units[0].card")
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "units[0].card.shooting: shooting 4CD is not in the table (1–3)"
    );
    let bad = serde_json::json!({"name": "X", "speed": "fast", "shooting": 1, "armour": 5});
    let err = BelloLudi
        .parse_inline_card(&bad, "units[0].card")
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("units[0].card.speed: unknown variant `fast`"),
        "{err}"
    );
}
