//! Army data read into Bolt Action cards and forces: the test game system and catalogues
//! (`tests/fixtures/battlescribe`, the project's own units and numbers) give the cards,
//! prices, options and platoon limits they say; a force built from them validates and prices
//! as the catalogue says; a second revision's changes are listed and applied only when asked.

use super::*;
use crate::rules::battlescribe::DataError;
use crate::rules::bolt_action::{Category, Quality, VehicleMovement};
use crate::rules::force::{Budget, CardRef, Force, ForceUnit};
use crate::rules::validation::validate;
use crate::rules::{Card, RulesetId};

const SYSTEM: &[u8] = include_bytes!("../../../tests/fixtures/battlescribe/test_system.gst");
const BLUE: &[u8] = include_bytes!("../../../tests/fixtures/battlescribe/blue_army.cat");
const BLUE_R2: &[u8] = include_bytes!("../../../tests/fixtures/battlescribe/blue_army_r2.cat");
const OTHER: &[u8] = include_bytes!("../../../tests/fixtures/battlescribe/other_system.cat");

fn file(name: &str, bytes: &[u8]) -> ImportFile {
    ImportFile {
        name: name.into(),
        bytes: bytes.to_vec(),
    }
}

fn import(catalogue: &[u8]) -> Import {
    read_import(
        &[
            file("test_system.gst", SYSTEM),
            file("blue_army.cat", catalogue),
        ],
        &[],
        &mut |_, _| {},
    )
    .unwrap()
}

fn cards(catalogue: &[u8]) -> Vec<Card> {
    import(catalogue).files[1].cards.clone()
}

fn card<'c>(cards: &'c [Card], name: &str) -> &'c crate::rules::bolt_action::UnitProfile {
    match cards.iter().find(|c| c.name() == name) {
        Some(Card::BoltAction(p)) => p,
        _ => panic!("no card {name}"),
    }
}

fn army(cards: &[Card], name: &str) -> ArmyEntry {
    card(cards, name).army.as_deref().cloned().unwrap()
}

#[test]
fn the_import_is_bolt_action_with_six_cards_and_two_force_organisations() {
    let import = import(BLUE);
    assert_eq!(import.ruleset, RulesetId::BoltAction);
    let system = &import.files[0];
    assert_eq!(system.source.label(), "Bolt Action test system r3");
    let platoon = &system.force_orgs[0];
    assert_eq!(platoon.name, "Reinforced Platoon");
    assert_eq!(platoon.points, DEFAULT_POINTS);
    assert_eq!(
        platoon.slot_words(),
        "Headquarters 1–2, Infantry 2–6, Support up to 4, Tanks up to 1, Transports up to 2"
    );
    assert_eq!(
        system.force_orgs[1].slot_words(),
        "Headquarters 1, Tanks 1–3"
    );
    let blue = &import.files[1];
    assert_eq!(blue.source.label(), "Blue Army r1");
    assert_eq!(blue.cards.len(), 6);
    assert!(
        blue.cards
            .iter()
            .all(|c| c.ruleset() == RulesetId::BoltAction)
    );
}

#[test]
fn a_squad_has_its_quality_prices_extra_men_and_weapon_options() {
    let cards = cards(BLUE);
    let squad = card(&cards, "Line Squad");
    assert_eq!(
        (squad.category, squad.quality),
        (Category::Infantry, Quality::Regular)
    );
    assert_eq!(squad.weapons, ["Rifle"]);
    let entry = army(&cards, "Line Squad");
    assert_eq!(entry.category.as_ref().unwrap().name, "Infantry");
    let variants: Vec<(&str, u32)> = entry
        .variants
        .iter()
        .map(|v| (v.name.as_str(), v.cost))
        .collect();
    assert_eq!(
        variants,
        [("Inexperienced", 35), ("Regular", 50), ("Veteran", 65)]
    );
    assert_eq!((entry.price(), entry.model_count()), (50, 5));
    // Extra men cost 7, 10 and 13 by quality (the Veteran's by the link's modifier).
    let extra: Vec<(Option<&str>, u32, u32)> = entry
        .options
        .iter()
        .filter(|o| o.name == "Extra man")
        .map(|o| (o.variant.as_deref(), o.cost, o.max))
        .collect();
    assert_eq!(
        extra,
        [
            (Some("Inexperienced"), 7, 5),
            (Some("Regular"), 10, 5),
            (Some("Veteran"), 13, 5)
        ]
    );
    let veteran = entry.with_words("Veteran; 3 × Extra man; LMG").unwrap();
    assert_eq!(veteran.price(), 65 + 3 * 13 + 20);
    assert_eq!(veteran.model_count(), 8);
    assert_eq!(veteran.carried(), ["Rifle", "Light Machine Gun (LMG)"]);
    assert_eq!(veteran.words(), "Veteran; 3 × Extra man; LMG");
    assert!(veteran.problems("Line Squad").is_empty());
    let green = entry.with_words("inexperienced, extra man x5").unwrap();
    assert_eq!(green.price(), 35 + 5 * 7);
    // Switching quality carries the extra men over at the new quality's price.
    let mut switched = green.clone();
    switched.set_variant("Veteran").unwrap();
    assert_eq!(switched.price(), 65 + 5 * 13);
    let both = entry.with_words("LMG; SMG; 6 Extra man").unwrap();
    assert_eq!(
        both.problems("Line Squad"),
        [
            "Line Squad: 6 × Extra man — Blue Army r1 allows 5",
            "Line Squad: 2 picks of Squad weapons — Blue Army r1 allows 1"
        ]
    );
    let error = entry.with_words("Regular; Bazooka").unwrap_err();
    assert!(
        error.starts_with("\"Bazooka\" is not an option of this unit in Blue Army r1"),
        "{error}"
    );
}

#[test]
fn vehicles_map_to_the_sheets_categories_moves_and_chart_weapons() {
    let cards = cards(BLUE);
    let warden = card(&cards, "Warden Medium Tank");
    assert_eq!(warden.category, Category::MediumTank);
    assert_eq!(warden.movement, Some(VehicleMovement::Tracked));
    assert_eq!(warden.damage_value(), Some(9));
    // "75mm gun" is the Medium AT gun by range, shots and PEN; "Coaxial MMG" by its
    // abbreviation.
    assert_eq!(
        warden.weapons,
        ["Medium AT gun", "Medium Machine Gun (MMG)"]
    );
    let entry = army(&cards, "Warden Medium Tank");
    assert_eq!(entry.price(), 195);
    let options: Vec<(&str, u32, Option<&str>)> = entry
        .options
        .iter()
        .map(|o| (o.name.as_str(), o.cost, o.group.as_deref()))
        .collect();
    assert_eq!(
        options,
        [
            ("Pintle-mounted MMG", 15, Some("Vehicle upgrades")),
            ("Spare tracks", 5, Some("Vehicle upgrades"))
        ]
    );
    let scout = card(&cards, "Scout Car");
    assert_eq!(
        (scout.category, scout.movement, scout.recce),
        (Category::ArmouredCar, Some(VehicleMovement::Wheeled), true)
    );
    assert_eq!(scout.weapons, ["Heavy Machine Gun (HMG)"]);
    assert_eq!(army(&cards, "Scout Car").price(), 65);
    let commander = army(&cards, "Platoon Commander");
    assert_eq!(
        commander
            .with_words("Veteran; 2 × Attendant")
            .unwrap()
            .price(),
        65 + 20
    );
    assert_eq!(card(&cards, "Light Mortar Team").weapons, ["Light mortar"]);
    assert_eq!(army(&cards, "Sniper Team").max_in_force, Some(1));
    assert_eq!(
        army(&cards, "Sniper Team").variant.as_deref(),
        Some("Veteran")
    );
}

#[test]
fn what_could_not_be_mapped_is_listed_by_entry() {
    let import = import(BLUE);
    let notes: Vec<String> = import.notes().map(ToString::to_string).collect();
    let has = |needle: &str| {
        assert!(
            notes.iter().any(|n| n.contains(needle)),
            "no note with {needle}: {notes:#?}"
        );
    };
    has(
        "Sniper Team: weapon \"Sniper rifle\" (Range 36\", Shots 1, Pen +1, Special Rules Team, Sniper) matches no line of the weapons chart",
    );
    has("Scout Car: the data gives no quality: Regular (house default)");
    has("Line Squad › Squad weapons › LMG: a modifier (set pts 15.0) applies only when");
    // The unit stays usable with what is known.
    let cards = cards(BLUE);
    assert_eq!(card(&cards, "Sniper Team").weapons, Vec::<String>::new());
}

fn platoon() -> ForceOrg {
    import(BLUE).files[0].force_orgs[0].clone()
}

fn unit(cards: &[Card], name: &str, words: &str, count: u32) -> ForceUnit {
    let mut card = cards.iter().find(|c| c.name() == name).unwrap().clone();
    let entry = card.army().unwrap().with_words(words).unwrap();
    card.data_mut().apply_army(entry);
    ForceUnit {
        card: CardRef::Inline(card),
        count,
        group: None,
        points: None,
        stands: None,
    }
}

fn blue_force(cards: &[Card]) -> Force {
    let mut force = Force::new(RulesetId::BoltAction, "Blue Platoon");
    force.budget = Budget::ForceOrg(Box::new(platoon()));
    force.units = vec![
        unit(cards, "Platoon Commander", "Veteran", 1),
        unit(cards, "Line Squad", "Regular; 2 × Extra man", 2),
        unit(cards, "Line Squad", "Veteran; 3 × Extra man; LMG", 1),
        unit(
            cards,
            "Warden Medium Tank",
            "Regular; Pintle-mounted MMG",
            1,
        ),
        unit(cards, "Light Mortar Team", "Regular", 1),
    ];
    force
}

#[test]
fn a_platoon_from_the_data_validates_and_prices_as_the_catalogue_says() {
    let cards = cards(BLUE);
    let force = blue_force(&cards);
    let check = validate(&force);
    assert!(check.legal, "{:#?}", check.violations);
    assert_eq!(check.totals.points, Some(65 + 2 * 70 + 124 + 210 + 30));
    assert_eq!(check.budget.limit, Some(1000));
    assert_eq!(check.budget.id.as_deref(), Some("Reinforced Platoon"));

    let mut thin = force.clone();
    thin.units.remove(0);
    thin.units
        .push(unit(&cards, "Warden Medium Tank", "Veteran", 1));
    thin.units.push(unit(&cards, "Sniper Team", "Regular", 2));
    let messages: Vec<String> = validate(&thin)
        .violations
        .into_iter()
        .map(|v| v.message)
        .collect();
    assert_eq!(
        messages,
        [
            "2 × Sniper Team: the data allows 1 in a force — remove 1",
            "Headquarters: 0 of at least 1 — the Reinforced Platoon needs 1 more",
            "Tanks: 2 — the Reinforced Platoon allows 1; remove 1"
        ]
    );
    let mut over = force;
    over.budget = Budget::ForceOrg(Box::new(platoon().with_points(500)));
    let check = validate(&over);
    assert!(!check.legal);
    assert_eq!(check.violations[0].rule, "over_budget");
}

#[test]
fn a_second_revision_lists_each_change_and_keeps_old_prices_until_repriced() {
    let old = cards(BLUE);
    let new = cards(BLUE_R2);
    let force = blue_force(&old);
    let before = validate(&force).totals.points;
    let changes = line_changes(&force, &new);
    let words: Vec<String> = changes.iter().map(ToString::to_string).collect();
    assert_eq!(
        words,
        [
            "Line Squad (line 3, r1 → r2): 124 → 129 pts; LMG: 20 → 25 pts each",
            "Warden Medium Tank (line 4, r1 → r2): 210 → 200 pts; option removed: Pintle-mounted MMG",
        ]
    );
    assert!(changes.iter().all(|c| c.from.revision == 1 && c.to == 2));
    // Nothing changes until the player re-prices.
    assert_eq!(validate(&force).totals.points, before);
    let (repriced, lost) = reprice(&force, &new);
    assert_eq!(
        lost,
        ["Warden Medium Tank: option removed: Pintle-mounted MMG"]
    );
    assert_eq!(
        validate(&repriced).totals.points,
        Some(65 + 2 * 70 + 129 + 200 + 30)
    );
    assert!(line_changes(&repriced, &new).is_empty());
    assert_eq!(
        revisions_of(&repriced),
        ["Bolt Action test system r3", "Blue Army r2"]
    );
}

#[test]
fn a_catalogue_reads_against_a_stored_game_system_and_is_refused_without_one() {
    let alone = [file("blue_army.cat", BLUE)];
    let known = [file("test_system.gst", SYSTEM)];
    let import = read_import(&alone, &known, &mut |_, _| {}).unwrap();
    assert_eq!(import.files.len(), 1);
    assert_eq!(import.files[0].cards.len(), 6);
    let error = read_import(&alone, &[], &mut |_, _| {}).unwrap_err();
    assert!(
        matches!(&error, DataError::NoGameSystem { file, system_id } if file == "blue_army.cat" && system_id == "qm-sys"),
        "{error}"
    );
}

#[test]
fn a_catalogue_or_game_system_of_another_game_is_refused() {
    let error = read_import(
        &[
            file("test_system.gst", SYSTEM),
            file("other_system.cat", OTHER),
        ],
        &[],
        &mut |_, _| {},
    )
    .unwrap_err();
    assert!(
        error.to_string().starts_with(
            "other_system.cat line 2: a catalogue for another game system (qm-starfight) — it cannot be read against Bolt Action test system"
        ),
        "{error}"
    );
    let starfight = String::from_utf8(SYSTEM.to_vec())
        .unwrap()
        .replace("Bolt Action test system", "Starfight Legions");
    let error = read_import(
        &[file("starfight.gst", starfight.as_bytes())],
        &[],
        &mut |_, _| {},
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "starfight.gst line 2: game system \"Starfight Legions\" is not one this app reads (Bolt Action game systems)"
    );
}

#[test]
fn progress_is_told_after_each_file() {
    let mut seen = Vec::new();
    read_import(
        &[file("test_system.gst", SYSTEM), file("blue_army.cat", BLUE)],
        &[],
        &mut |done, total| seen.push((done, total)),
    )
    .unwrap();
    assert_eq!(seen, [(1, 2), (2, 2)]);
}

#[test]
fn a_data_force_goes_to_text_and_back_with_its_options_revision_and_platoon() {
    use crate::rules::force_text::{Library, TextStyle, parse_with, to_text};
    let (old, new) = (cards(BLUE), cards(BLUE_R2));
    let force = blue_force(&old);
    let text = to_text(&force, &validate(&force), TextStyle::Plain);
    assert!(
        text.contains("Bolt Action · Reinforced Platoon, 1000 points"),
        "{text}"
    );
    assert!(
        text.contains("1 × Line Squad · Blue Army r1 [Veteran; 3 × Extra man; LMG] — 124 points"),
        "{text}"
    );
    let every: Vec<&Card> = old.iter().chain(&new).collect();
    let orgs = [platoon()];
    let library = Library {
        cards: &every,
        force_orgs: &orgs,
    };
    for style in [TextStyle::Plain, TextStyle::Markdown] {
        let text = to_text(&force, &validate(&force), style);
        let back = parse_with(&text, library).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.force, force, "{text}");
        assert!(back.notes.is_empty(), "{:?}", back.notes);
    }
    // Typed by hand without a revision: the newest imported prices it, and a typed price
    // that differs is noted, not taken.
    let typed = "Tanks\nBolt Action - 500 points\nWarden Medium Tank [Veteran] - 230 pts\n";
    let read = parse_with(typed, library).unwrap();
    let CardRef::Inline(card) = &read.force.units[0].card else {
        panic!("a data unit is written into the force");
    };
    let army = card.army().cloned().unwrap();
    assert_eq!((army.source.revision, army.price()), (2, 240));
    assert_eq!(
        read.notes,
        [
            "line 3: Warden Medium Tank costs 240 points by the data; the list said 230: the data's price is kept"
        ]
    );
    let missing = "Tanks\nBolt Action - 500 points\nWarden Medium Tank · Blue Army r3\n";
    let error = parse_with(missing, library).unwrap_err().to_string();
    assert!(
        error.starts_with("line 3: \"Warden Medium Tank\" of Blue Army r3 is not imported"),
        "{error}"
    );
}
