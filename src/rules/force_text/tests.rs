//! Lists as text: every preset and every book card of the five rulesets survives the trip to
//! text and back in both styles, and hand edits are read or refused with their line.

use super::*;
use crate::rules::armour_battles;
use crate::rules::force::Budget;
use crate::rules::names;
use crate::rules::ruleset::RulesetId;
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

/// Reads each case and checks it came to what it should: at least twenty of them.
fn check_cases(
    cases: Vec<(&str, String, Expect)>,
    read: impl Fn(&str) -> Result<Force, ListErrors>,
) {
    assert!(cases.len() >= 20);
    for (what, text, expect) in cases {
        match (read(&text), expect) {
            (Ok(force), Expect::Reads(check)) => {
                assert!(check(&force), "{what}:\n{text}\n{force:?}");
            }
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
            "the ruleset by its id, no budget: refused, never assumed",
            edit("BelloLudi Tanks! · 100 points", "belloludi"),
            Expect::Refused {
                at: "belloludi",
                says: "no budget: write it after the ruleset",
            },
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
    check_cases(cases, read);
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

/// A Bolt Action list typed by a player: the book gives no costs, so each typed price is the
/// only one and must be kept, whichever way it is written.
#[test]
fn ten_hand_typed_bolt_action_price_styles_are_kept() {
    let text = "Baker Company\nBolt Action – 1500 points\n\n\
        2 × Regular Infantry Squad — 2 × 70 = 140 points\n\
        Panzerschreck Team 60\n\
        MMG Team x1 [55 points]\n\
        Bazooka Team x2 [45 points]\n\
        Light Mortar Team (34pts)\n\
        Medium Mortar Team - 50 pts\n\
        Light AT Gun: 55pts\n\
        Truck, 39 points\n\
        Half-track = 82\n\
        2 Veteran Infantry Squad - 182 points\n\
        Armoured Car @ 95p\n\
        Medium Tank 195 pts\n";
    let force = read(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(force.budget, Budget::Points(1500));
    let priced: Vec<(&str, u32, Option<u32>)> = force
        .units
        .iter()
        .map(|u| (u.card.name(), u.count, u.points))
        .collect();
    assert_eq!(
        priced,
        [
            ("Regular Infantry Squad", 2, Some(70)),
            ("Panzerschreck Team", 1, Some(60)),
            ("MMG Team", 1, Some(55)),
            ("Bazooka Team", 2, Some(45)),
            ("Light Mortar Team", 1, Some(34)),
            ("Medium Mortar Team", 1, Some(50)),
            ("Light AT Gun", 1, Some(55)),
            ("Truck", 1, Some(39)),
            ("Half-track", 1, Some(82)),
            ("Veteran Infantry Squad", 2, Some(91)),
            ("Armoured Car", 1, Some(95)),
            ("Medium Tank", 1, Some(195)),
        ]
    );
    let check = validate(&force);
    let total = 140 + 60 + 55 + 90 + 34 + 50 + 55 + 39 + 82 + 182 + 95 + 195;
    assert_eq!(check.totals.points, Some(total));
    assert!(check.legal, "{:?}", check.violations);
    // And the list the app writes from it reads back the same.
    assert_eq!(read(&text_of(&force, TextStyle::Plain)).unwrap(), force);
}

/// A forum post of the same list in twenty shapes: each reads right or is refused at the line
/// that is wrong; a list over its budget never reads legal.
#[test]
fn twenty_forum_style_lists_read_right_or_are_refused_at_their_line() {
    const UNITS: &str = "2 × Regular Infantry Squad — 2 × 70 = 140 points\nBazooka Team 45\n";
    let list = |opening: &str, body: &str| format!("{opening}\n\n{body}");
    let plain_body = UNITS.to_string();
    let quoted: String = UNITS.lines().map(|l| format!("> {l}\n")).collect();
    let budgets = [
        ("a hyphen before the budget", "Bolt Action - 1000 points"),
        ("an en dash", "Bolt Action – 1000 points"),
        ("an em dash", "Bolt Action — 1000 points"),
        ("the budget in brackets", "Bolt Action (1000 points)"),
        ("pts run together", "Bolt Action 1000pts"),
        ("a colon", "Bolt Action: 1000 pts"),
    ];
    let mut cases: Vec<(&str, String, Expect)> = budgets
        .into_iter()
        .map(|(what, line)| {
            let reads: Box<dyn Fn(&Force) -> bool> = Box::new(|f| f.budget == Budget::Points(1000));
            (
                what,
                list(&format!("Baker Company\n{line}"), &plain_body),
                Expect::Reads(reads),
            )
        })
        .collect();
    cases.extend(vec![
        (
            "one chat line first",
            list(
                "Here is my list for Saturday, comments welcome!\nBaker Company\nBolt Action - 1000 points",
                &plain_body,
            ),
            Expect::Reads(Box::new(|f| {
                f.name == "Baker Company" && f.units.len() == 2
            })),
        ),
        (
            "two chat lines first",
            list(
                "hi all\nwhat do you think?\nBaker Company\nBolt Action - 1000 points",
                &plain_body,
            ),
            Expect::Reads(Box::new(|f| f.name == "Baker Company")),
        ),
        (
            "every line quoted",
            format!("> Baker Company\n> Bolt Action - 1000 points\n>\n{quoted}"),
            Expect::Reads(Box::new(|f| {
                f.units.len() == 2 && f.units[1].points == Some(45)
            })),
        ),
        (
            "quoted bullets",
            "Baker Company\nBolt Action - 1000 points\n> - 2 × Regular Infantry Squad — 2 × 70 = 140 points\n> - Bazooka Team 45\n".to_string(),
            Expect::Reads(Box::new(|f| f.units.len() == 2)),
        ),
        (
            "a bold group header without a colon",
            list(
                "Baker Company\nBolt Action - 1000 points",
                &format!("**1st Platoon**\n{plain_body}"),
            ),
            Expect::Reads(Box::new(|f| {
                f.units[0].group.as_deref() == Some("1st Platoon")
            })),
        ),
        (
            "a heading as group",
            list(
                "# Baker Company\nBolt Action - 1000 points",
                &format!("### Support\n{plain_body}"),
            ),
            Expect::Reads(Box::new(|f| {
                f.name == "Baker Company" && f.units[1].group.as_deref() == Some("Support")
            })),
        ),
        (
            "prices in brackets",
            list(
                "Baker Company\nBolt Action - 1000 points",
                "Regular Infantry Squad x2 [70 points]\nBazooka Team x1 [45 points]\n",
            ),
            Expect::Reads(Box::new(|f| {
                f.units[0].count == 2 && f.units[0].points == Some(70)
            })),
        ),
        (
            "Markdown bullets and bold",
            list(
                "**Baker Company**\n*Bolt Action · 1000 points*",
                "- **2 × Regular Infantry Squad** — 140 points\n- `Bazooka Team` 45\n",
            ),
            Expect::Reads(Box::new(|f| {
                f.units[0].points == Some(70) && f.units[1].points == Some(45)
            })),
        ),
        (
            "no budget",
            list("Baker Company\nBolt Action", &plain_body),
            Expect::Refused {
                at: "Bolt Action",
                says: "no budget",
            },
        ),
        (
            "a budget that is not one",
            list("Baker Company\nBolt Action - lots", &plain_body),
            Expect::Refused {
                at: "Bolt Action - lots",
                says: "is not a budget",
            },
        ),
        (
            "a misspelt unit",
            list(
                "Baker Company\nBolt Action - 1000 points",
                "Panzershreck Team 60\n",
            ),
            Expect::Refused {
                at: "Panzershreck",
                says: "did you mean Panzerschreck Team?",
            },
        ),
        (
            "a total three units cannot share",
            list(
                "Baker Company\nBolt Action - 1000 points",
                "3 × Bazooka Team - 100 points\n",
            ),
            Expect::Refused {
                at: "3 × Bazooka",
                says: "does not share evenly",
            },
        ),
        (
            "no ruleset line",
            "Baker Company\n2 × Regular Infantry Squad\n".to_string(),
            Expect::Refused {
                at: "2 × Regular",
                says: "names no ruleset",
            },
        ),
        (
            "the ruleset before the name",
            "Bolt Action - 1000 points\nBaker Company\n2 × Truck 39\n".to_string(),
            Expect::Refused {
                at: "Bolt Action",
                says: "the force's name comes on the line before it",
            },
        ),
        (
            "over its budget",
            list("Baker Company\nBolt Action - 100 points", &plain_body),
            Expect::Reads(Box::new(|f| {
                let v = validate(f);
                !v.legal && v.totals.points == Some(185)
            })),
        ),
        (
            "BelloLudi with a dash budget",
            "Panzer Lehr\nBelloLudi Tanks! - 60 points\n\n5 × Heavy Tank\n".to_string(),
            Expect::Reads(Box::new(|f| {
                f.budget == Budget::Points(60) && !validate(f).legal
            })),
        ),
    ]);
    check_cases(cases, |text| parse(text, &[]).map(|parsed| parsed.force));
    let chat = parse(
        &list(
            "hello\nBaker Company\nBolt Action - 1000 points",
            &plain_body,
        ),
        &[],
    )
    .unwrap();
    assert_eq!(
        chat.notes,
        ["line 1: \"hello\" comes before the list's name: left out"]
    );
}
