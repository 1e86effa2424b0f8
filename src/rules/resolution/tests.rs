//! Every mechanic's input description is sane, every impossible combination the rules know
//! is refused with its reason and the input at fault, and every report keeps to the one shape.

use super::*;
use crate::rules::{Card, RulesetId, ruleset};

/// The book card of `id` named `name`, as an input value.
fn card(id: RulesetId, name: &str) -> InputValue {
    let card = ruleset(id)
        .library()
        .iter()
        .find(|c| c.answers_to(name))
        .unwrap_or_else(|| panic!("{name}"));
    InputValue::Card(Some(CardPick::book(card)))
}

fn inputs_of(mechanic: &Mechanic, values: &[(&'static str, InputValue)]) -> Inputs {
    let mut inputs = mechanic.defaults();
    for (key, value) in values {
        inputs.set(key, value.clone());
    }
    inputs
}

fn get(id: RulesetId, key: &str) -> &'static Mechanic {
    mechanic(id, key).unwrap_or_else(|| panic!("{id} {key}"))
}

#[test]
fn every_ruleset_has_mechanics_with_unique_keys() {
    for id in RulesetId::ALL {
        let keys: Vec<&str> = ruleset(id).mechanics().iter().map(|m| m.key).collect();
        assert!(!keys.is_empty(), "{id}");
        let mut unique = keys.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), keys.len(), "{id}: {keys:?}");
    }
    assert!(mechanics().count() >= 16);
}

#[test]
fn every_input_is_described_with_a_label_help_and_a_default_within_its_range() {
    for m in mechanics() {
        let specs = (m.inputs)();
        let mut keys: Vec<&str> = specs.iter().map(|s| s.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), specs.len(), "{m:?}: duplicate input keys");
        for spec in &specs {
            let what = format!("{m:?} {}", spec.key);
            assert!(!spec.label.is_empty() && !spec.help.is_empty(), "{what}");
            match (&spec.kind, &spec.default) {
                (InputKind::Toggle, InputValue::Flag(_)) => {}
                (InputKind::Choice(options), InputValue::Choice(chosen)) => {
                    assert!(options.iter().any(|o| o.key == *chosen), "{what}");
                    assert!(options.iter().all(|o| !o.label.is_empty()), "{what}");
                }
                (InputKind::Count { min, max }, InputValue::Count(n)) => {
                    assert!(min <= n && n <= max, "{what}: {n} outside {min}..={max}");
                }
                (InputKind::Number { min, max }, InputValue::Number(x)) => {
                    assert!(min <= x && x <= max, "{what}: {x} outside {min}..={max}");
                }
                (InputKind::Card { .. }, InputValue::Card(None)) => {}
                (InputKind::CardList { max, fields, .. }, InputValue::CardList(list)) => {
                    assert!(list.len() <= *max && *max > 0, "{what}");
                    assert!(fields.iter().all(|f| f.min <= 0 && 0 <= f.max), "{what}");
                }
                (kind, default) => panic!("{what}: default {default:?} for {kind:?}"),
            }
            if let Some((other, values)) = spec.shown_when {
                let Some(other) = specs.iter().find(|s| s.key == other) else {
                    panic!("{what}: shown with an unknown input {other}");
                };
                let InputKind::Choice(options) = &other.kind else {
                    panic!("{what}: shown by a choice only");
                };
                for value in values {
                    assert!(options.iter().any(|o| o.key == *value), "{what}: {value}");
                }
            }
        }
    }
}

#[test]
fn every_card_filter_lists_some_book_card_of_its_own_ruleset_and_none_of_another() {
    for m in mechanics() {
        for spec in (m.inputs)() {
            let filter = match spec.kind {
                InputKind::Card { filter, .. } | InputKind::CardList { filter, .. } => filter,
                _ => continue,
            };
            let own = ruleset(m.ruleset).library();
            assert!(own.iter().any(filter), "{m:?} {}", spec.key);
            for other in RulesetId::ALL.into_iter().filter(|&id| id != m.ruleset) {
                assert!(
                    !ruleset(other).library().iter().any(filter),
                    "{m:?} {} lists {other} cards",
                    spec.key
                );
            }
        }
    }
}

/// A mechanic's refusal: the input at fault and the reason.
fn refused(m: &Mechanic, values: &[(&'static str, InputValue)]) -> (&'static str, String) {
    match m.resolve_odds(&inputs_of(m, values)) {
        Err(ResolveError::Invalid { field, message }) => (field, message),
        other => panic!("{m:?} {values:?}: not refused: {other:?}"),
    }
}

#[test]
fn impossible_combinations_are_refused_with_the_reason_and_the_input() {
    use InputValue::{Choice as C, Count as N, Flag as F};
    use RulesetId::*;
    let bot = get(BattleOfTanks, "fire");
    // The check alone refuses it, before any card is chosen.
    assert!(matches!(
        (bot.check)(&inputs_of(bot, &[("ambush", F(true)), ("moving", F(true))])),
        Err(ResolveError::Invalid {
            field: "ambush",
            ..
        })
    ));
    let (field, why) = refused(bot, &[("ambush", F(true)), ("moving", F(true))]);
    assert_eq!(field, "ambush");
    assert!(why.contains("not moving"), "{why}");

    let fire = get(BelleEpoque, "fire");
    let (field, why) = refused(
        fire,
        &[
            ("troop_type", C("c")),
            ("stands", N(4)),
            ("range", N(1)),
            ("target", card(BelleEpoque, "Cavalry")),
            ("target_order", C("loose")),
        ],
    );
    assert_eq!(field, "target_order");
    assert!(why.contains("cavalry fights in close order"), "{why}");

    let ab = get(ArmourBattles, "fire");
    let shot = |attacker: &str, target: &str| {
        vec![
            ("attacker", card(ArmourBattles, attacker)),
            ("target", card(ArmourBattles, target)),
        ]
    };
    let (field, why) = refused(ab, &shot("M7", "Panther"));
    assert_eq!(field, "attacker");
    assert!(why.contains("off-table artillery"), "{why}");
    let (field, why) = refused(ab, &shot("Panther", "105L28 Howitzer"));
    assert_eq!(field, "target");
    assert!(why.contains("cannot be fired at"), "{why}");
    let mut opportunity = shot("M10", "Puma");
    opportunity.extend([("kind", C("opportunity")), ("move", C("double"))]);
    assert_eq!(refused(ab, &opportunity).0, "move");
    let mut too_many = shot("Panther", "M4 75mm");
    too_many.push(("attacker_wild", N(3)));
    assert_eq!(refused(ab, &too_many).0, "attacker_wild");
    let mission = [
        ("kind", C("artillery")),
        ("battery", card(ArmourBattles, "M7")),
        ("target", card(ArmourBattles, "Puma")),
        ("evading", C("shoot_and_scoot")),
    ];
    let (field, why) = refused(ab, &mission);
    assert_eq!(field, "evading");
    assert!(why.contains("only Break-Off"), "{why}");
    let rally = get(ArmourBattles, "rally");
    let (field, why) = refused(
        rally,
        &[
            ("unit", card(ArmourBattles, "M4 75mm")),
            ("suppressed", F(true)),
        ],
    );
    assert_eq!(field, "suppressed");
    assert!(why.contains("cannot rally"), "{why}");
}

/// A disengaging target is only caught by opportunity fire: the decision, written once in
/// the ruleset's module, reads a direct shot at it as opportunity fire and says so.
#[test]
fn a_direct_shot_at_a_disengaging_target_is_read_as_opportunity_fire_with_a_note() {
    let ab = get(RulesetId::ArmourBattles, "fire");
    let report = ab
        .resolve_odds(&inputs_of(
            ab,
            &[
                ("attacker", card(RulesetId::ArmourBattles, "M10")),
                ("target", card(RulesetId::ArmourBattles, "Panzer IV H")),
                ("evading", InputValue::Choice("auto")),
            ],
        ))
        .unwrap();
    assert_eq!(report.mechanic, "opportunity_fire");
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("only opportunity fire can catch")),
        "{:?}",
        report.notes
    );
}

/// One situation per mechanic with every card it needs, for the shape checks below.
fn a_situation(m: &Mechanic) -> Inputs {
    use InputValue::{Choice as C, Count as N};
    let mut inputs = m.defaults();
    let id = m.ruleset;
    let first = |filter: CardFilter| {
        ruleset(id)
            .library()
            .iter()
            .find(|c| filter(c))
            .map(CardPick::book)
    };
    for spec in (m.inputs)() {
        match spec.kind {
            InputKind::Card { filter, .. } => inputs.set(spec.key, InputValue::Card(first(filter))),
            InputKind::CardList { filter, .. } => inputs.set(
                spec.key,
                InputValue::CardList(vec![ListEntry {
                    card: first(filter),
                    ..ListEntry::default()
                }]),
            ),
            _ => {}
        }
    }
    // What the cards alone leave open.
    match (id, m.key) {
        (RulesetId::ArmourBattles, "fire") => {
            inputs.set("target", card(id, "Panther"));
        }
        (RulesetId::BelleEpoque, "fire") => inputs.set("range", N(1)),
        (RulesetId::BoltAction, "shooting") => inputs.set("weapon", C("Rifle")),
        _ => {}
    }
    inputs
}

#[test]
fn every_mechanic_answers_a_full_situation_in_the_one_json_shape() {
    for m in mechanics() {
        let inputs = a_situation(m);
        for report in [
            m.resolve_odds(&inputs)
                .unwrap_or_else(|e| panic!("{m:?}: {e}")),
            m.resolve_roll(&inputs, 7)
                .unwrap_or_else(|e| panic!("{m:?}: {e}")),
        ] {
            let json = serde_json::to_value(&report).unwrap();
            assert_eq!(json["ruleset"], m.ruleset.as_str(), "{m:?}");
            assert!(json["mechanic"].is_string() && json["title"].is_string());
            for v in &report.values {
                assert_eq!(
                    json[v.key.as_str()],
                    serde_json::to_value(&v.value).unwrap()
                );
            }
            for d in json["distributions"].as_object().unwrap().values() {
                assert!(d["total"].is_string() && d["outcomes"].is_array(), "{m:?}");
            }
            for record in json["dice"].as_array().unwrap() {
                assert_eq!(record["seed"], 7, "{m:?}");
                assert!(record["for"].is_string() && record["index"].is_u64());
            }
            for h in json["house_defaults"].as_array().unwrap() {
                assert!(h["value"].is_string() && h["ruling"].is_string());
            }
        }
    }
}

#[test]
fn custom_cards_resolve_and_are_named_as_custom() {
    let m = get(RulesetId::Belloludi, "shooting");
    let mut inputs = a_situation(m);
    let Some(InputValue::Card(Some(pick))) = inputs.get("target").cloned() else {
        panic!("a target");
    };
    let Card::Belloludi(mut vehicle) = pick.card else {
        panic!("a BelloLudi card");
    };
    vehicle.name = "Sherman Firefly".into();
    inputs.set(
        "target",
        InputValue::Card(Some(CardPick {
            card: Card::Belloludi(vehicle),
            custom: true,
        })),
    );
    let report = m.resolve_odds(&inputs).unwrap();
    assert!(
        report.title.contains("Sherman Firefly · custom"),
        "{}",
        report.title
    );
}
