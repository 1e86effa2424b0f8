//! Every number below is typed from the book, not read from the data file.

// Book tables read best as rows of tuples.
#![allow(clippy::type_complexity)]

use super::*;
use crate::rules::validation::validate;

fn card(name: &str) -> &'static UnitCard {
    unit_card(name).unwrap_or_else(|| panic!("no card {name}"))
}

/// (name, side, type line, move, reaction notation, weapon, range, AT)
const BOOK_CARDS: [(&str, Side, &str, &str, &str, &str, &str, u8); 11] = [
    (
        "M4 75mm",
        Side::First,
        "Medium AFV",
        "Average 6+1D″",
        "5D",
        "75L38 Gun",
        "7/14/28″",
        7,
    ),
    (
        "M4 76mm",
        Side::First,
        "Medium AFV",
        "Average 6+1D″",
        "5D",
        "76L52 Gun",
        "8/16/32″",
        8,
    ),
    (
        "M5 Light Tank",
        Side::First,
        "Light AFV",
        "Fast 6+1D×2″",
        "5D",
        "37L53 Gun",
        "6/12/24″",
        5,
    ),
    (
        "M10 Tank Destroyer",
        Side::First,
        "Medium AFV",
        "Average 6+1D″",
        "5D (O)",
        "76L52 Gun",
        "8/16/32″",
        8,
    ),
    (
        "M7 Howitzer Motor Carriage",
        Side::First,
        "Off-table Artillery",
        "—",
        "—",
        "105mm howitzer",
        "Off-table",
        4,
    ),
    (
        "Tiger I",
        Side::Second,
        "Heavy AFV",
        "Average 6+1D″",
        "7D",
        "88L56 Gun",
        "10/20/40″",
        10,
    ),
    (
        "Panther Ausf G",
        Side::Second,
        "Medium AFV",
        "Average 6+1D″",
        "7D/6D",
        "75L70 Gun",
        "9/18/36″",
        9,
    ),
    (
        "Panzer IV H",
        Side::Second,
        "Medium AFV",
        "Average 6+1D″",
        "5D",
        "75L48 Gun",
        "8/16/32″",
        8,
    ),
    (
        "Sturmgeschütz III",
        Side::Second,
        "Medium AFV",
        "Average 6+1D″",
        "6D (5D)",
        "75L48 Gun",
        "8/16/32″",
        8,
    ),
    (
        "SdKfz 234/2 Armoured Car (Puma)",
        Side::Second,
        "Light AFV",
        "Fast 6+1D×2″",
        "4D",
        "50L60 Gun",
        "7/14/28″",
        6,
    ),
    (
        "105L28 Howitzer",
        Side::Second,
        "Off-table Artillery",
        "—",
        "—",
        "105L28 howitzer",
        "Off-table",
        4,
    ),
];

fn stat(card: &UnitCard, label: &str) -> String {
    card.stats()
        .into_iter()
        .find(|s| s.label == label)
        .map(|s| s.value)
        .unwrap_or_default()
}

#[test]
fn all_eleven_cards_match_the_book() {
    assert_eq!(ArmourBattles.library().len(), 11);
    for (name, side, type_line, move_line, reaction, weapon, range, at) in BOOK_CARDS {
        let c = card(name);
        assert_eq!(c.side, side, "{name} side");
        assert_eq!(c.type_label(), type_line, "{name} type");
        assert_eq!(c.move_label(), move_line, "{name} move");
        assert_eq!(stat(c, "Reaction"), reaction, "{name} reaction");
        assert_eq!(c.weapon, weapon, "{name} weapon");
        assert_eq!(stat(c, "Range"), range, "{name} range");
        assert_eq!(c.at_dice, at, "{name} AT");
        assert_eq!(c.cohesion, 3, "{name}: every unit has cohesion 3");
    }
}

#[test]
fn special_rules_match_the_notes_lines() {
    use SpecialRule::*;
    let expected: [(&str, &[SpecialRule]); 11] = [
        ("M4 75mm", &[]),
        ("M4 76mm", &[]),
        ("M5 Light Tank", &[BreakOff]),
        ("M10 Tank Destroyer", &[ShootAndScoot, BreakOff, OpenTopped]),
        ("M7 Howitzer Motor Carriage", &[ArtillerySuppression]),
        ("Tiger I", &[PoorReliability]),
        ("Panther Ausf G", &[SlopedArmour]),
        ("Panzer IV H", &[]),
        ("Sturmgeschütz III", &[FireArc180, LowProfile]),
        (
            "SdKfz 234/2 Armoured Car (Puma)",
            &[Reconnaissance, BreakOff],
        ),
        ("105L28 Howitzer", &[ArtillerySuppression]),
    ];
    for (name, rules) in expected {
        assert_eq!(card(name).special_rules, rules, "{name}");
    }
    // Every special rule the book defines is carried by at least one card.
    for rule in SpecialRule::ALL {
        assert!(
            ArmourBattles
                .library()
                .iter()
                .any(|c| matches!(c, Card::ArmourBattles(u) if u.has(rule))),
            "{rule:?} unused"
        );
    }
}

#[test]
fn reaction_variants_follow_the_notation() {
    // Sloped 7D/6D: 7 frontal, 6 flank and artillery.
    let panther = card("Panther").reaction.unwrap();
    assert_eq!(panther.dice_against(FireKind::DirectFrontal), 7);
    assert_eq!(panther.dice_against(FireKind::DirectFlank), 6);
    assert_eq!(panther.dice_against(FireKind::Artillery), 6);
    // Low profile 6D (5D): 6 against direct fire, 5 against artillery.
    let stug = card("StuG III").reaction.unwrap();
    assert_eq!(stug.dice_against(FireKind::DirectFlank), 6);
    assert_eq!(stug.dice_against(FireKind::Artillery), 5);
    // Open-topped 5D (O): −1D against artillery.
    let m10 = card("M10").reaction.unwrap();
    assert_eq!(m10.dice_against(FireKind::DirectFrontal), 5);
    assert_eq!(m10.dice_against(FireKind::Artillery), 4);
}

#[test]
fn move_formulas_give_the_books_ranges() {
    // Average 6+1D″: 7–12″; fast 6+1D×2″: 8–18″; average double 14–24″; fast triple 24–54″.
    assert_eq!(MoveClass::Average.formula().range_inches(1), (7, 12));
    assert_eq!(MoveClass::Fast.formula().range_inches(1), (8, 18));
    assert_eq!(MoveClass::Average.formula().range_inches(2), (14, 24));
    assert_eq!(MoveClass::Fast.formula().range_inches(3), (24, 54));
}

#[test]
fn short_names_find_cards() {
    assert_eq!(card("stug iii").name, "Sturmgeschütz III");
    assert_eq!(card("PUMA").name, "SdKfz 234/2 Armoured Car (Puma)");
    assert_eq!(card("PzKwf IV H").name, "Panzer IV H");
}

/// (id, units, command dice, staff orders, rally dice, artillery response dice, army morale)
const BOOK_GROUPS: [(&str, u32, u32, u32, u32, Option<u32>, u32); 6] = [
    ("lorraine-1-us", 9, 4, 2, 4, None, 9),
    ("lorraine-1-german", 7, 3, 2, 4, None, 7),
    ("lorraine-2-us", 14, 5, 4, 4, Some(4), 12),
    ("lorraine-2-german", 11, 4, 3, 4, Some(4), 10),
    ("lorraine-3-us", 17, 6, 4, 4, Some(4), 15),
    ("lorraine-3-german", 14, 5, 4, 4, Some(4), 12),
];

#[test]
fn battle_group_numbers_match_the_briefings() {
    assert_eq!(battle_groups().len(), 6);
    for (id, units, cd, so, rally, art, morale) in BOOK_GROUPS {
        let g = battle_group(id).unwrap();
        assert_eq!(g.units, units, "{id} units");
        let listed: usize = g.companies.iter().map(|c| c.units.len()).sum();
        assert_eq!(
            listed as u32, units,
            "{id}: listed units add up to the stated count"
        );
        assert_eq!(g.command_dice, cd, "{id} command dice");
        assert_eq!(g.staff_orders, so, "{id} staff orders");
        assert_eq!(g.rally_dice, rally, "{id} rally dice");
        assert_eq!(
            g.artillery_response_dice, art,
            "{id} artillery response dice"
        );
        assert_eq!(g.army_morale, morale, "{id} army morale");
        for unit in g.companies.iter().flat_map(|c| &c.units) {
            assert!(
                unit_card(unit).is_some_and(|c| c.side == g.side),
                "{id}: {unit}"
            );
        }
    }
}

#[test]
fn battle_group_compositions_match_the_briefings() {
    let counts = |id: &str| -> Vec<(&'static str, u32)> {
        let g = battle_group(id).unwrap();
        g.card_names()
            .into_iter()
            .map(|n| (unit_card(n).unwrap().name.as_str(), g.count_of(n)))
            .collect()
    };
    assert_eq!(counts("lorraine-1-us"), [("M4 75mm", 6), ("M4 76mm", 3)]);
    assert_eq!(
        counts("lorraine-1-german"),
        [
            ("Panther Ausf G", 2),
            ("Panzer IV H", 3),
            ("Sturmgeschütz III", 2)
        ]
    );
    assert_eq!(
        counts("lorraine-2-us"),
        [
            ("M4 75mm", 6),
            ("M4 76mm", 3),
            ("M5 Light Tank", 3),
            ("M7 Howitzer Motor Carriage", 2)
        ]
    );
    assert_eq!(
        counts("lorraine-2-german"),
        [
            ("Panther Ausf G", 2),
            ("Panzer IV H", 3),
            ("Sturmgeschütz III", 3),
            ("SdKfz 234/2 Armoured Car (Puma)", 2),
            ("105L28 Howitzer", 1)
        ]
    );
    assert_eq!(
        counts("lorraine-3-us"),
        [
            ("M4 75mm", 6),
            ("M4 76mm", 3),
            ("M5 Light Tank", 3),
            ("M10 Tank Destroyer", 3),
            ("M7 Howitzer Motor Carriage", 2)
        ]
    );
    assert_eq!(
        counts("lorraine-3-german"),
        [
            ("Panther Ausf G", 3),
            ("Panzer IV H", 3),
            ("SdKfz 234/2 Armoured Car (Puma)", 3),
            ("Sturmgeschütz III", 3),
            ("Tiger I", 1),
            ("105L28 Howitzer", 1)
        ]
    );
}

#[test]
fn deployments_and_first_pulse_match_the_briefings() {
    let deployment = |id: &str, card: &str| -> Vec<Deployment> {
        battle_group(id)
            .unwrap()
            .companies
            .iter()
            .filter(|c| c.units.iter().any(|u| u == card))
            .map(|c| c.deployment)
            .collect()
    };
    assert!(
        deployment("lorraine-1-german", "Panther Ausf G")
            .iter()
            .all(|d| *d == Deployment::OnTable {})
    );
    assert_eq!(
        deployment("lorraine-2-german", "Sturmgeschütz III"),
        [Deployment::Hidden {}]
    );
    assert_eq!(
        deployment("lorraine-2-us", "M5 Light Tank"),
        [Deployment::OnTable {}]
    );
    assert_eq!(
        deployment("lorraine-2-us", "M4 75mm"),
        [Deployment::Reserve { from_turn: 2 }; 3]
    );
    assert_eq!(
        deployment("lorraine-3-german", "Tiger I"),
        [Deployment::Reserve { from_turn: 3 }]
    );
    assert_eq!(
        deployment("lorraine-3-german", "105L28 Howitzer"),
        [Deployment::OffTable {}]
    );
    assert_eq!(
        deployment("lorraine-3-us", "M10 Tank Destroyer"),
        [Deployment::Reserve { from_turn: 2 }]
    );
    assert_eq!(
        battle_group("lorraine-1-us").unwrap().first_pulse,
        FirstPulse::Roll
    );
    for id in [
        "lorraine-2-us",
        "lorraine-2-german",
        "lorraine-3-us",
        "lorraine-3-german",
    ] {
        assert_eq!(
            battle_group(id).unwrap().first_pulse,
            FirstPulse::UsAutomatic,
            "{id}"
        );
    }
    let b3 = battle_group("lorraine-3-us").unwrap();
    assert_eq!(
        (b3.mission.as_str(), b3.time.as_str()),
        ("Counter-Attack", "0800 hours, 21 September 1944")
    );
}

#[test]
fn presets_are_legal_and_match_their_groups() {
    for group in battle_groups() {
        let force = preset_force(&group.id).unwrap();
        assert_eq!(force.unit_count(), u64::from(group.units), "{}", group.id);
        let v = validate(&force);
        assert!(v.legal, "{}: {:?}", group.id, v.violations);
    }
    assert!(preset_force("lorraine-9-us").is_err());
}

#[test]
fn an_extra_panther_is_named_with_the_limit_and_the_fix() {
    let mut force = preset_force("lorraine-1-german").unwrap();
    force.units[0].count = 3;
    let v = validate(&force);
    assert!(!v.legal);
    let messages: Vec<&str> = v.violations.iter().map(|v| v.message.as_str()).collect();
    assert!(
        messages.contains(&"3 Panther Ausf G: Lorraine Battle 1 German allows 2 — remove 1"),
        "{messages:?}"
    );
    assert!(
        messages.contains(&"8 units: Lorraine Battle 1 German has 7 — remove 1"),
        "{messages:?}"
    );
    assert_eq!(
        v.violations[0].fix,
        Some(crate::rules::validation::Fix::Reduce { unit: 0, by: 1 })
    );
}

#[test]
fn a_card_not_in_the_group_is_refused_and_short_names_count_together() {
    let mut force = preset_force("lorraine-2-german").unwrap();
    force.units.push(ForceUnit::library("Tiger", 1));
    force.units.push(ForceUnit::library("Puma", 1));
    let v = validate(&force);
    let rules: Vec<&str> = v.violations.iter().map(|v| v.message.as_str()).collect();
    assert!(
        rules.contains(&"1 Tiger I: Lorraine Battle 2 German has none — remove 1"),
        "{rules:?}"
    );
    assert!(
        rules.contains(
            &"3 SdKfz 234/2 Armoured Car (Puma): Lorraine Battle 2 German allows 2 — remove 1"
        ),
        "{rules:?}"
    );
}

#[test]
fn a_points_budget_is_the_wrong_kind() {
    let mut force = preset_force("lorraine-1-us").unwrap();
    force.budget = Budget::Points(100);
    let v = validate(&force);
    assert_eq!(v.violations.len(), 1);
    assert_eq!(v.violations[0].rule, "budget_kind");
}

#[test]
fn a_custom_card_needs_range_bands_that_grow() {
    let ruleset = crate::rules::ruleset(RulesetId::ArmourBattles);
    for card in ruleset.library() {
        let body = card.to_inline_json();
        assert!(
            ruleset.parse_inline_card(&body, "card").is_ok(),
            "{}",
            card.name()
        );
    }
    let mut body = ruleset.library()[0].to_inline_json();
    body["range"] = serde_json::json!({"short": 40, "effective": 18, "long": 36});
    let error = ruleset
        .parse_inline_card(&body, "card")
        .unwrap_err()
        .to_string();
    assert!(error.contains("40/18/36"), "{error}");
}

#[test]
fn a_battle_group_short_of_its_briefing_is_a_warning_in_plain_words() {
    let mut force = preset_force("lorraine-3-german").unwrap();
    let tiger = force
        .units
        .iter()
        .position(|u| u.card.name() == "Tiger I")
        .unwrap();
    force.units.remove(tiger);
    let v = validate(&force);
    assert!(v.legal, "short is not illegal: {:?}", v.violations);
    assert_eq!(
        v.warnings,
        ["Lorraine Battle 3 German: Tiger I missing — 13 of 14 units"]
    );
    // The full briefing warns of nothing.
    assert!(
        validate(&preset_force("lorraine-3-german").unwrap())
            .warnings
            .is_empty()
    );
}
