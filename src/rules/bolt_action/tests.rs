//! Numbers from the Bolt Action reference sheets.

// Book tables read best as rows of tuples.
#![allow(clippy::type_complexity)]

use super::*;
use crate::rules::force::ForceUnit;
use crate::rules::validation::validate;

fn t() -> &'static Tables {
    tables().unwrap()
}

#[test]
fn troop_quality_morale_and_officer_bonuses() {
    assert_eq!(t().morale(Quality::Inexperienced), Some(8));
    assert_eq!(t().morale(Quality::Regular), Some(9));
    assert_eq!(t().morale(Quality::Veteran), Some(10));
    let bonuses: Vec<(&str, u8)> = t()
        .officers
        .iter()
        .map(|o| (o.title.as_str(), o.bonus))
        .collect();
    assert_eq!(
        bonuses,
        [
            ("Second Lieutenant", 1),
            ("First Lieutenant", 2),
            ("Captain", 3),
            ("Major", 4)
        ]
    );
}

#[test]
fn orders_and_fubar_chart() {
    let orders: Vec<&str> = t().orders.iter().map(|o| o.order.as_str()).collect();
    assert_eq!(
        orders,
        ["Fire", "Advance", "Run", "Ambush", "Rally", "Down"]
    );
    // The battle's orders are the sheet's, in its die order.
    let kinds: Vec<&str> = tables::OrderKind::ALL.iter().map(|o| o.label()).collect();
    assert_eq!(kinds, orders);
    assert_eq!(t().battle.failed_order, tables::OrderKind::Down);
    assert_eq!(
        t().battle.kept_orders,
        [tables::OrderKind::Ambush, tables::OrderKind::Down]
    );
    for roll in 1..=2 {
        assert_eq!(t().fubar(roll).unwrap().result, "Friendly Fire");
    }
    for roll in 3..=6 {
        assert_eq!(t().fubar(roll).unwrap().result, "Panic");
    }
}

#[test]
fn hit_modifiers() {
    assert_eq!(t().hit.base, 3);
    let m: Vec<(&str, i8)> = t()
        .hit
        .modifiers
        .iter()
        .map(|m| (m.id.as_str(), m.value))
        .collect();
    assert_eq!(
        m,
        [
            ("point_blank", 1),
            ("per_pin", -1),
            ("long_range", -1),
            ("inexperienced", -1),
            ("on_the_move", -1),
            ("target_down", -1),
            ("small_unit", -1),
            ("soft_cover", -1),
            ("hard_cover", -2)
        ]
    );
}

#[test]
fn damage_values() {
    let dv: Vec<u8> = t().damage_values.iter().map(|d| d.value).collect();
    assert_eq!(dv, [3, 4, 5, 6, 7, 8, 9, 10, 11]);
    let profile = |name: &str| {
        BoltAction.library().iter().find_map(|c| match c {
            Card::BoltAction(p) if p.name == name => Some(p.clone()),
            _ => None,
        })
    };
    assert_eq!(
        profile("Veteran Infantry Squad").unwrap().damage_value(),
        Some(5)
    );
    assert_eq!(profile("Medium Tank").unwrap().damage_value(), Some(9));
    assert_eq!(
        profile("Super-heavy Tank").unwrap().damage_value(),
        Some(11)
    );
}

#[test]
fn the_whole_weapons_chart() {
    // (name, range, shots, pen, HE)
    let chart: [(&str, &str, &str, Option<u8>, Option<&str>); 26] = [
        ("Rifle", "24″", "1", None, None),
        ("Pistol", "6″", "1", None, None),
        ("Submachine Gun (SMG)", "12″", "2", None, None),
        ("Automatic rifle", "30″", "2", None, None),
        ("Assault rifle", "24″", "2", None, None),
        ("Light Machine Gun (LMG)", "30″", "3", None, None),
        ("Medium Machine Gun (MMG)", "36″", "4", None, None),
        ("Heavy Machine Gun (HMG)", "36″", "3", Some(1), None),
        ("Light automatic cannon", "48″", "2", Some(2), Some("D2")),
        ("Medium automatic cannon", "72″", "2", Some(3), Some("D2")),
        ("Anti-tank rifle", "36″", "1", Some(2), None),
        ("PIAT", "12″", "1", Some(5), None),
        ("Bazooka", "24″", "1", Some(5), None),
        ("Panzerschreck", "24″", "1", Some(6), None),
        ("Panzerfaust", "12″", "1", Some(6), None),
        ("Light AT gun", "48″", "1", Some(4), Some("D2")),
        ("Medium AT gun", "60″", "1", Some(5), Some("D2")),
        ("Heavy AT gun", "72″", "1", Some(6), Some("D3")),
        ("Super-heavy AT gun", "84″", "1", Some(7), Some("D3")),
        ("Flamethrower (infantry)", "6″", "D6", Some(2), None),
        ("Flamethrower (vehicle)", "18″", "2D6", Some(3), None),
        ("Light mortar", "12″–24″", "1", None, Some("D3")),
        ("Medium mortar", "18″–60″", "1", None, Some("D6")),
        ("Heavy mortar", "18″–72″", "1", None, Some("2D6")),
        ("Light howitzer", "(0/24″)–48″", "1", None, Some("D6")),
        ("Medium howitzer", "(0/24″)–60″", "1", None, Some("2D6")),
    ];
    for (name, range, shots, pen, he) in chart {
        let w = t().weapon(name).unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(
            (w.range.as_str(), w.shots.as_str(), w.pen, w.he.as_deref()),
            (range, shots, pen, he),
            "{name}"
        );
    }
    assert_eq!(
        t().weapon("Heavy howitzer").unwrap().he.as_deref(),
        Some("3D6")
    );
    assert_eq!(t().weapons.len(), 27);
    assert!(
        t().weapon("Panzerfaust")
            .unwrap()
            .special
            .contains(&"One-shot".to_string())
    );
}

#[test]
fn he_chart_damage_results_and_vehicle_moves() {
    let he: Vec<(&str, u8, &str)> = t()
        .he_chart
        .iter()
        .map(|h| (h.he.as_str(), h.pen, h.pins.as_str()))
        .collect();
    assert_eq!(
        he,
        [
            ("D2", 1, "1"),
            ("D3", 1, "1"),
            ("D6", 2, "D2"),
            ("2D6", 3, "D3"),
            ("3D6", 4, "D6")
        ]
    );
    let result = |roll| t().damage_result(roll).unwrap().result.as_str();
    assert_eq!(result(-2), "Crew Stunned");
    assert_eq!(result(1), "Crew Stunned");
    assert_eq!(result(2), "Immobilised");
    assert_eq!(result(3), "On Fire");
    assert_eq!(result(4), "Knocked Out");
    assert_eq!(result(7), "Knocked Out");
    let moves: Vec<(u32, u32)> = t()
        .vehicle_moves
        .iter()
        .map(|m| (m.advance, m.run))
        .collect();
    assert_eq!(moves, [(9, 18), (9, 18), (12, 24)]);
}

#[test]
fn units_without_points_and_over_the_limit_are_violations() {
    let mut force = Force::new(RulesetId::BoltAction, "Platoon");
    force.budget = Budget::Points(200);
    force.units.push(ForceUnit {
        points: Some(60),
        ..ForceUnit::library("Regular Infantry Squad", 2)
    });
    force.units.push(ForceUnit::library("MMG Team", 1));
    let v = validate(&force);
    assert_eq!(v.violations.len(), 1);
    assert_eq!(v.violations[0].rule, "missing_points");
    force.units[1].points = Some(90);
    let v = validate(&force);
    assert_eq!(v.totals.points, Some(210));
    assert_eq!(v.violations[0].rule, "over_budget");
}
