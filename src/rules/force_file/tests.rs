//! Force files: round trips and every kind of bad input, each named by its JSON path.

use super::*;
use crate::rules::card::Card;
use crate::rules::validation::validate;

const SAMPLE: &str = r#"{"format":"quartermaster-force","version":1,"ruleset":"belloludi","name":"Kampfgruppe",
 "budget":{"points":60},
 "units":[{"card":"Medium Tank","count":2,"group":"1st Platoon"},
          {"card":{"name":"Sherman","speed":"medium","shooting":2,"armour":5},"count":1}]}"#;

fn err(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

#[test]
fn a_sample_file_parses_and_validates() {
    let force = parse(SAMPLE).unwrap();
    assert_eq!(force.ruleset, RulesetId::Belloludi);
    assert_eq!(force.budget, Budget::Points(60));
    assert_eq!(force.units[0].group.as_deref(), Some("1st Platoon"));
    assert!(
        matches!(&force.units[1].card, CardRef::Inline(Card::Belloludi(v)) if v.points() == Ok(17))
    );
    let v = validate(&force);
    assert_eq!(v.totals.points, Some(2 * 17 + 17));
    assert!(v.legal);
}

#[test]
fn writing_and_reading_gives_the_same_force_and_the_same_text() {
    let force = parse(SAMPLE).unwrap();
    let text = to_json(&force);
    let again = parse(&text).unwrap();
    assert_eq!(force, again);
    assert_eq!(text, to_json(&again));
}

#[test]
fn every_preset_round_trips() {
    for group in crate::rules::armour_battles::battle_groups() {
        let force = crate::rules::armour_battles::preset_force(&group.id).unwrap();
        assert_eq!(parse(&to_json(&force)).unwrap(), force);
    }
}

#[test]
fn malformed_files_name_the_field() {
    assert!(
        err("{").starts_with("file: EOF while parsing"),
        "{}",
        err("{")
    );
    assert_eq!(
        err(&SAMPLE.replace(r#""count":2"#, r#""count":-1"#)),
        "units[0].count: invalid value: integer `-1`, expected u32 (line 3, column 42)"
    );
    assert!(
        err(&SAMPLE.replace(r#""count":2"#, r#""count":1e12"#))
            .starts_with("units[0].count: invalid type: floating point")
    );
    assert_eq!(
        err(&SAMPLE.replace(r#""count":2"#, r#""count":1000"#)),
        "units[0].count: 1000 is out of range (1–999)"
    );
    assert_eq!(
        err(&SAMPLE.replace(r#""count":2"#, r#""count":0"#)),
        "units[0].count: 0 is out of range (1–999)"
    );
    assert!(
        err(&SAMPLE.replace("belloludi", "warhammer"))
            .starts_with("ruleset: unknown ruleset 'warhammer'")
    );
    assert!(
        err(&SAMPLE.replace(r#""points":60"#, r#""points":"lots""#))
            .starts_with("budget.points: invalid type: string")
    );
    assert!(
        err(&SAMPLE.replace(r#""points":60"#, r#""gold":60"#))
            .starts_with("budget: unknown variant `gold`")
    );
    assert_eq!(
        err(&SAMPLE.replace(r#""version":1"#, r#""version":7"#)),
        "version: this app reads version 1; the file is version 7 (written by a newer app?)"
    );
    assert_eq!(
        err(&SAMPLE.replace("quartermaster-force", "battlescribe")),
        "format: expected \"quartermaster-force\", found \"battlescribe\""
    );
    assert!(
        err(&SAMPLE.replace(r#""card":"Medium Tank""#, r#""card":7"#))
            .starts_with("units[0].card: expected a card name")
    );
    let wings = err(&SAMPLE.replace(r#""armour":5"#, r#""armour":5,"wings":2"#));
    assert!(wings.starts_with("units[1].card"), "{wings}");
    assert!(wings.contains("unknown field `wings`"), "{wings}");
}

#[test]
fn huge_names_and_invalid_utf8_are_refused() {
    let long = "x".repeat(10 * 1024 * 1024);
    let text = SAMPLE.replace("Kampfgruppe", &long);
    assert_eq!(
        err(&text),
        "name: 10485760 characters; at most 200 are allowed"
    );
    let mut bytes = SAMPLE.as_bytes().to_vec();
    bytes[60] = 0xFF;
    assert!(
        parse_bytes(&bytes)
            .unwrap_err()
            .to_string()
            .starts_with("file: not UTF-8 text")
    );
}

#[test]
fn unknown_cards_are_violations_with_suggestions() {
    let force = parse(&SAMPLE.replace("Medium Tank", "Medum Tank")).unwrap();
    let v = validate(&force);
    assert!(!v.legal);
    assert_eq!(v.violations[0].rule, "unknown_card");
    assert!(
        v.violations[0]
            .message
            .starts_with("Medum Tank: no such BelloLudi Tanks! card — did you mean Medium Tank?"),
        "{}",
        v.violations[0].message
    );
}

#[test]
fn two_files_run_together_are_refused_at_the_line_where_the_second_starts() {
    let twice = format!("{SAMPLE}\n{SAMPLE}");
    let e = err(&twice);
    assert!(e.starts_with("file: more data after the end"), "{e}");
    // The second document starts on the line after the first one ends.
    let lines = SAMPLE.lines().count();
    assert!(
        e.contains(&format!("(line {}, column 1)", lines + 1)),
        "{e}"
    );
}

#[test]
fn duplicate_keys_are_refused_even_inside_an_inline_card() {
    let doubled = SAMPLE.replace(r#""shooting":2,"#, r#""shooting":2,"shooting":3,"#);
    let e = err(&doubled);
    assert!(
        e.starts_with("units[1].card: the key \"shooting\" appears twice"),
        "{e}"
    );
    // The inline card is on the sample's fourth line.
    assert!(e.contains("(line 4, column "), "{e}");
    let top = SAMPLE.replace(r#""name":"Kampfgruppe","#, r#""name":"A","name":"B","#);
    assert!(err(&top).starts_with("file: the key \"name\" appears twice"));
}

#[test]
fn a_utf8_byte_order_mark_is_accepted() {
    let with_bom = format!("\u{feff}{SAMPLE}");
    assert_eq!(parse(&with_bom).unwrap(), parse(SAMPLE).unwrap());
    assert_eq!(
        parse_bytes(with_bom.as_bytes()).unwrap(),
        parse(SAMPLE).unwrap()
    );
}

#[test]
fn control_characters_in_names_are_refused_naming_the_field() {
    for (bad, field) in [
        ("Kampf\\u0000gruppe", "name"),
        ("Kampf\\u001b]0;pwned\\u0007", "name"),
        ("Kampf\\rgruppe", "name"),
    ] {
        let text = SAMPLE.replace("Kampfgruppe", bad);
        let e = err(&text);
        assert!(
            e.starts_with(&format!("{field}: holds the control character")),
            "{e}"
        );
    }
    let group = SAMPLE.replace("1st Platoon", "1st\\u0000Platoon");
    assert!(err(&group).starts_with("units[0].group: holds the control character"));
    let card = SAMPLE.replace(r#""name":"Sherman""#, r#""name":"Sher\u0007man""#);
    assert!(
        err(&card).starts_with("units[1].card.name: holds the control character"),
        "{}",
        err(&card)
    );
    // Notes may span lines.
    let notes = SAMPLE.replace(
        r#""budget""#,
        r#""notes":"line one\nline two\tend","budget""#,
    );
    assert!(parse(&notes).is_ok());
}
