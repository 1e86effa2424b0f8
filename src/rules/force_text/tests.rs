//! Lists as text: every preset and every book card of the five rulesets survives the trip to
//! text and back in both styles, and hand edits are read or refused with their line.

use super::*;
use crate::rules::armour_battles;
use crate::rules::validation::validate;

fn text_of(force: &Force, style: TextStyle) -> String {
    to_text(force, &validate(force), style)
}

fn read(text: &str) -> Result<Force, ListErrors> {
    parse(text, &[]).map(|parsed| parsed.force)
}

/// A force of `ruleset` holding every book card once, in two groups and ungrouped lines after
/// them, with the per-unit values the ruleset uses, a custom card and notes of several lines.
fn every_card_force(ruleset: RulesetId) -> Force {
    let rules = registry::ruleset(ruleset);
    let mut force = Force::new(ruleset, format!("Every {} card", ruleset.title()));
    for (i, card) in rules.library().iter().enumerate() {
        let mut unit = ForceUnit::library(card.name(), 1 + (i as u32 % 3));
        unit.group = match i % 3 {
            0 => Some("1st Platoon".to_string()),
            1 => Some("HQ: Kampfgruppe".to_string()),
            _ => None,
        };
        match ruleset {
            // Every third unit has no cost set, so "no points" travels too.
            RulesetId::BoltAction if i % 3 != 2 => unit.points = Some(35 + i as u32 * 5),
            RulesetId::BoltAction => unit.points = (i % 2 == 0).then_some(0),
            RulesetId::BelleEpoque if i % 2 == 0 => unit.stands = Some(2 + i as u32 % 3),
            _ => {}
        }
        force.units.push(unit);
    }
    let mut own = rules.library()[0].clone();
    let name = match &mut own {
        Card::ArmourBattles(c) => &mut c.name,
        Card::Belloludi(c) => &mut c.name,
        Card::BattleOfTanks(c) => &mut c.name,
        Card::BoltAction(c) => &mut c.name,
        Card::BelleEpoque(c) => &mut c.name,
    };
    *name = "Sherman — the club's own".to_string();
    force.units.push(ForceUnit {
        card: CardRef::Inline(own),
        count: 2,
        group: None,
        points: (ruleset == RulesetId::BoltAction).then_some(80),
        stands: None,
    });
    force.notes = "House rules as agreed.\n\nSecond paragraph: no smoke.".to_string();
    force
}

#[test]
fn every_preset_of_every_ruleset_survives_the_trip_in_both_styles() {
    let mut forces: Vec<Force> = armour_battles::battle_groups()
        .iter()
        .map(|group| armour_battles::preset_force(&group.id).unwrap())
        .collect();
    forces.extend(RulesetId::ALL.map(every_card_force));
    assert_eq!(forces.len(), 6 + 5);
    for force in &forces {
        for style in [TextStyle::Plain, TextStyle::Markdown] {
            let text = text_of(force, style);
            let back = read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(&back, force, "{style:?}:\n{text}");
        }
    }
}

#[test]
fn the_text_holds_the_budget_check_and_each_units_cost() {
    let mut force = Force::new(RulesetId::Belloludi, "Kampfgruppe Peiper");
    force.budget = Budget::Points(40);
    force.units.push(ForceUnit::library("Medium Tank", 2));
    force.units.push(ForceUnit::library("Heavy Tank", 1));
    let rules = registry::ruleset(RulesetId::Belloludi);
    let cost = |name: &str| {
        rules
            .unit_cost(names::find(rules.library(), name).unwrap())
            .unwrap()
            .amount
    };
    let (medium, heavy) = (cost("Medium Tank"), cost("Heavy Tank"));
    let total = 2 * medium + heavy;
    let text = text_of(&force, TextStyle::Plain);
    assert!(text.starts_with("Kampfgruppe Peiper\nBelloLudi Tanks! · 40 points\n"));
    assert!(
        text.contains(&format!("NOT legal — {total} / 40 points")),
        "{text}"
    );
    assert!(text.contains("  ✗ "), "the problem is listed: {text}");
    assert!(
        text.contains(&format!(
            "2 × Medium Tank — 2 × {medium} = {} points",
            2 * medium
        )),
        "{text}"
    );
    let markdown = text_of(&force, TextStyle::Markdown);
    assert!(
        markdown.starts_with("## Kampfgruppe Peiper\n"),
        "{markdown}"
    );
    assert!(markdown.contains("**NOT legal**"), "{markdown}");
    assert!(
        markdown.contains("- 1 × Heavy Tank — "),
        "units as a bullet list: {markdown}"
    );
}

/// The 1-based line of `text` holding `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle} not in\n{text}"))
        + 1
}

fn sample() -> Force {
    let mut force = Force::new(RulesetId::Belloludi, "Kampfgruppe Peiper");
    let mut first = ForceUnit::library("Medium Tank", 2);
    first.group = Some("1st Platoon".into());
    force.units.push(first);
    force.units.push(ForceUnit::library("Heavy Tank", 1));
    force
}

/// What a hand edit should come to: a force, or a refusal at the line holding `at`.
enum Expect {
    Reads(Box<dyn Fn(&Force) -> bool>),
    Refused {
        at: &'static str,
        says: &'static str,
    },
}

#[test]
fn twenty_hand_edits_are_read_or_refused_with_their_line() {
    let base = text_of(&sample(), TextStyle::Plain);
    let units = |f: &Force| {
        f.units
            .iter()
            .map(|u| (u.card.name().to_string(), u.count, u.group.clone()))
            .collect::<Vec<_>>()
    };
    let edit = |from: &str, to: &str| {
        assert!(base.contains(from), "{from} not in\n{base}");
        base.replacen(from, to, 1)
    };
    // The whole line holding `from`, replaced by `to`.
    let edit_line = |from: &str, to: &str| {
        let at = line_of(&base, from) - 1;
        let mut lines: Vec<&str> = base.lines().collect();
        lines[at] = to;
        lines.join("\n")
    };
    let cases: Vec<(&str, String, Expect)> = vec![
        (
            "2x instead of 2 ×",
            edit("2 × Medium Tank", "2x Medium Tank"),
            Expect::Reads(Box::new(|f| f.units[0].count == 2)),
        ),
        (
            "count after the name",
            edit("2 × Medium Tank", "Medium Tank x3"),
            Expect::Reads(Box::new(|f| f.units[0].count == 3)),
        ),
        (
            "a bare count",
            edit("1 × Heavy Tank", "4 Heavy Tank"),
            Expect::Reads(Box::new(|f| f.units[1].count == 4)),
        ),
        (
            "no count at all",
            edit("1 × Heavy Tank", "Heavy Tank"),
            Expect::Reads(Box::new(|f| f.units[1].count == 1)),
        ),
        (
            "a bullet",
            edit("  1 × Heavy Tank", "- 1 × Heavy Tank"),
            Expect::Reads(Box::new(|f| f.units.len() == 2)),
        ),
        (
            "a cost typed wrong is recomputed",
            edit("2 × Medium Tank — ", "2 × Medium Tank — 5 points "),
            Expect::Reads(Box::new(move |f| {
                validate(f).totals.points == validate(&sample()).totals.points
            })),
        ),
        (
            "a cost after a plain hyphen",
            edit("1 × Heavy Tank — ", "1 × Heavy Tank - "),
            Expect::Reads(Box::new(|f| f.units[1].card.name() == "Heavy Tank")),
        ),
        (
            "any case",
            edit("Medium Tank", "MEDIUM tank"),
            Expect::Reads(Box::new(|f| f.units[0].card.name() == "Medium Tank")),
        ),
        (
            "a group renamed",
            edit("1st Platoon:", "2nd Platoon:"),
            Expect::Reads(Box::new(|f| {
                f.units[0].group.as_deref() == Some("2nd Platoon")
            })),
        ),
        (
            "the verdict and problems taken out",
            base.lines()
                .filter(|l| !l.starts_with("Legal") && !l.contains('✗'))
                .collect::<Vec<_>>()
                .join("\n"),
            Expect::Reads(Box::new(move |f| units(f) == units(&sample()))),
        ),
        (
            "blank lines and trailing spaces added",
            base.replace('\n', "  \n\n"),
            Expect::Reads(Box::new(move |f| units(f) == units(&sample()))),
        ),
        (
            "a bigger budget",
            edit("100 points", "150 points"),
            Expect::Reads(Box::new(|f| f.budget == Budget::Points(150))),
        ),
        (
            "the ruleset by its id, no budget",
            edit("BelloLudi Tanks! · 100 points", "belloludi"),
            Expect::Reads(Box::new(|f| f.budget == Budget::Points(100))),
        ),
        (
            "a line added at the end",
            format!("{base}  3 × Light Tank\n"),
            Expect::Reads(Box::new(|f| {
                f.units
                    .last()
                    .is_some_and(|u| u.card.name() == "Light Tank" && u.count == 3)
            })),
        ),
        (
            "a typo",
            edit("1 × Heavy Tank", "1 × Hevy Tank"),
            Expect::Refused {
                at: "Hevy Tank",
                says: "did you mean Heavy Tank?",
            },
        ),
        (
            "another ruleset's card",
            edit("1 × Heavy Tank", "1 × IS-2"),
            Expect::Refused {
                at: "IS-2",
                says: "no BelloLudi Tanks! card \"IS-2\"",
            },
        ),
        (
            "a count of nought",
            edit("1 × Heavy Tank", "0 × Heavy Tank"),
            Expect::Refused {
                at: "0 × Heavy Tank",
                says: "counts are 1–999",
            },
        ),
        (
            "a count too large",
            edit("1 × Heavy Tank", "1000 × Heavy Tank"),
            Expect::Refused {
                at: "1000 ×",
                says: "counts are 1–999",
            },
        ),
        (
            "a ruleset the app does not know",
            edit("BelloLudi Tanks! · 100 points", "Warhammer · 2000 points"),
            Expect::Refused {
                at: "Warhammer",
                says: "names no ruleset",
            },
        ),
        (
            "a custom card this library lacks",
            edit("1 × Heavy Tank", "1 × Panzer · custom"),
            Expect::Refused {
                at: "Panzer · custom",
                says: "is a custom card and this library has none",
            },
        ),
        (
            "a custom card's fields broken",
            edit_line(
                "1 × Heavy Tank",
                r#"  1 × Panzer · custom — 17 points {"name":"Panzer","speed":"medium","shooting":9}"#,
            ),
            Expect::Refused {
                at: "Panzer",
                says: "the custom card does not read",
            },
        ),
        (
            "per-unit values that are not numbers",
            edit("1 × Heavy Tank", "1 × Heavy Tank [lots]"),
            Expect::Refused {
                at: "[lots]",
                says: "expected a number of points or stands",
            },
        ),
    ];
    assert!(cases.len() >= 20);
    for (what, text, expect) in cases {
        match (read(&text), expect) {
            (Ok(force), Expect::Reads(check)) => assert!(check(&force), "{what}:\n{text}"),
            (Err(errors), Expect::Refused { at, says }) => {
                let line = line_of(&text, at);
                assert!(
                    errors
                        .0
                        .iter()
                        .any(|e| e.line == line && e.message.contains(says)),
                    "{what}: expected line {line} saying {says}, got {errors}\n{text}"
                );
            }
            (Ok(force), Expect::Refused { .. }) => panic!("{what}: read as {force:?}"),
            (Err(errors), Expect::Reads(_)) => panic!("{what}: refused: {errors}\n{text}"),
        }
    }
}

#[test]
fn short_names_and_names_that_start_with_digits_are_cards() {
    let text = "Raid\nArmour Battles · battle group lorraine-1-german\n\nPuma\n105L28 Howitzer\n2 StuG III\n";
    let force = read(text).unwrap();
    let names: Vec<(&str, u32)> = force
        .units
        .iter()
        .map(|u| (u.card.name(), u.count))
        .collect();
    assert_eq!(
        names,
        [
            ("SdKfz 234/2 Armoured Car (Puma)", 1),
            ("105L28 Howitzer", 1),
            ("Sturmgeschütz III", 2)
        ]
    );
}

#[test]
fn a_custom_card_is_found_in_the_library_by_name() {
    let rules = registry::ruleset(RulesetId::Belloludi);
    let mut own = rules.library()[1].clone();
    if let Card::Belloludi(c) = &mut own {
        c.name = "Panzer".into();
    }
    let text = "Mine\nBelloLudi Tanks! · 100 points\n\n2 × Panzer · custom\n1 × panzer\n";
    let force = parse(text, &[&own]).unwrap().force;
    assert_eq!(force.units[0].card, CardRef::Inline(own.clone()));
    assert_eq!(force.units[1].card, CardRef::Inline(own));
}

#[test]
fn an_empty_paste_is_refused_at_line_1() {
    let errors = read("  \n\n").unwrap_err();
    assert_eq!(errors.0[0].line, 1);
}
