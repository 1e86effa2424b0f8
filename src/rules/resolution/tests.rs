//! Every mechanic's input description is sane, every impossible combination the rules know
//! is refused with its reason and the input at fault, and every report keeps to the one shape.

use super::*;
use crate::rules::dice::{DiceError, FaceNames};
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

// ---------------------------------------------------------------------------------------
// Inputs checked against their description, once for every front end.

/// A value each input's description refuses, and what the refusal must name.
fn out_of_spec(m: &Mechanic, spec: &InputSpec) -> Vec<(InputValue, &'static str)> {
    let other_ruleset = RulesetId::ALL
        .into_iter()
        .find(|&id| id != m.ruleset)
        .and_then(|id| ruleset(id).library().first())
        .map(CardPick::book);
    match &spec.kind {
        InputKind::Toggle => vec![(InputValue::Count(1), spec.key)],
        InputKind::Choice(_) => vec![(InputValue::Choice("no-such-option"), spec.key)],
        InputKind::Count { min, max } => vec![
            (InputValue::Count(max + 1), spec.key),
            (InputValue::Count(min - 1), spec.key),
        ],
        InputKind::Number { min, max } => vec![
            (InputValue::Number(max + 1.0), spec.key),
            (InputValue::Number(min - 1.0), spec.key),
            (InputValue::Number(f64::NAN), spec.key),
        ],
        InputKind::Card { .. } => vec![(InputValue::Card(other_ruleset), spec.key)],
        InputKind::CardList { max, fields, .. } => {
            let mut bad = vec![
                (
                    InputValue::CardList(vec![ListEntry::default(); max + 1]),
                    spec.key,
                ),
                (
                    InputValue::CardList(vec![ListEntry {
                        card: other_ruleset,
                        ..ListEntry::default()
                    }]),
                    spec.key,
                ),
            ];
            for field in *fields {
                bad.push((
                    InputValue::CardList(vec![ListEntry {
                        card: None,
                        numbers: [(field.key, field.max + 1)].into(),
                    }]),
                    field.key,
                ));
            }
            bad
        }
    }
}

#[test]
fn every_input_refuses_a_value_outside_its_description_naming_the_input() {
    let mut checked = 0;
    for m in mechanics() {
        let base = a_situation(m);
        for spec in (m.inputs)() {
            for (value, field) in out_of_spec(m, &spec) {
                let mut inputs = base.clone();
                inputs.set(spec.key, value.clone());
                for answer in [m.resolve_odds(&inputs), m.resolve_roll(&inputs, 1)] {
                    match answer {
                        Err(ResolveError::Invalid { field: f, message }) => {
                            assert_eq!(f, field, "{m:?} {} = {value:?}: {message}", spec.key);
                            assert!(!message.is_empty());
                        }
                        other => panic!("{m:?} {} = {value:?} not refused: {other:?}", spec.key),
                    }
                }
                checked += 1;
            }
        }
        // A key the mechanic does not declare is refused too, naming the inputs it takes.
        let mut inputs = base.clone();
        inputs.set("no_such_input", InputValue::Flag(true));
        match m.resolve_odds(&inputs) {
            Err(ResolveError::Invalid { field, message }) => {
                assert_eq!(field, "no_such_input");
                assert!(message.contains("not an input"), "{message}");
            }
            other => panic!("{m:?}: an unknown input was not refused: {other:?}"),
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn a_card_its_filter_leaves_out_is_refused_with_the_specs_reason() {
    let ab = get(RulesetId::ArmourBattles, "fire");
    let (field, why) = refused(
        ab,
        &[
            ("attacker", card(RulesetId::ArmourBattles, "M7")),
            ("target", card(RulesetId::ArmourBattles, "Panther")),
        ],
    );
    assert_eq!(field, "attacker");
    assert!(
        why.ends_with("is off-table artillery: it fires artillery missions, not direct fire"),
        "{why}"
    );
    let moving = get(RulesetId::ArmourBattles, "move");
    let (field, why) = refused(moving, &[("unit", card(RulesetId::ArmourBattles, "M7"))]);
    assert_eq!(field, "unit");
    assert!(why.contains("never moves"), "{why}");
    // The window offers only what the filter passes, so only other front ends meet this.
    let shot = get(RulesetId::Belloludi, "shooting");
    let (field, why) = refused(
        shot,
        &[("shooter", card(RulesetId::BattleOfTanks, "Tiger I"))],
    );
    assert_eq!(field, "shooter");
    assert!(why.contains("is a Battle of Tanks card"), "{why}");
}

#[test]
fn options_are_named_in_any_case_by_key_alias_label_or_bracketed_short_name() {
    let spec_of = |id, mechanic, key| {
        (get(id, mechanic).inputs)()
            .into_iter()
            .find(|s| s.key == key)
            .unwrap_or_else(|| panic!("{key}"))
    };
    use RulesetId::*;
    let evading = spec_of(ArmourBattles, "fire", "evading");
    assert_eq!(evading.option_named("break-off").unwrap(), "break_off");
    assert_eq!(
        evading.option_named("Shoot_And_Scoot").unwrap(),
        "shoot_and_scoot"
    );
    let why = evading.option_named("dodge").unwrap_err().to_string();
    assert!(
        why.contains("'dodge': one of none, auto, break-off"),
        "{why}"
    );
    let level = spec_of(BelleEpoque, "assault", "attacker_level");
    assert_eq!(
        level.option_named("militia").unwrap(),
        "militia_or_loose_regulars"
    );
    assert_eq!(
        spec_of(BelleEpoque, "fire", "troop_type")
            .option_named("D")
            .unwrap(),
        "d"
    );
    let weapon = spec_of(BoltAction, "shooting", "weapon");
    let lmg = weapon.option_named("lmg").unwrap();
    assert!(lmg.ends_with("(LMG)"), "{lmg}");
    let why = weapon.option_named("Rifel").unwrap_err().to_string();
    assert!(why.contains("did you mean 'Rifle'"), "{why}");
    // A note in brackets is not a name.
    assert!(
        spec_of(BoltAction, "order_test", "officer")
            .option_named("+1")
            .is_err()
    );
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "is not declared")]
fn a_getter_asked_for_an_undeclared_key_fails_in_debug_builds() {
    let inputs = get(RulesetId::ArmourBattles, "fire").defaults();
    inputs.flag("flnak");
}

#[test]
fn every_answer_rests_only_on_rulings_and_pools_its_mechanic_declares() {
    for m in mechanics() {
        let inputs = a_situation(m);
        for seed in 0..20 {
            for report in [m.resolve_odds(&inputs), m.resolve_roll(&inputs, seed)]
                .into_iter()
                .flatten()
            {
                for h in &report.house_defaults {
                    assert!(m.rulings.contains(h), "{m:?}: {h:?} undeclared");
                }
                for d in &report.dice {
                    assert!(
                        m.pools.contains(&d.pool),
                        "{m:?}: pool {} undeclared",
                        d.pool
                    );
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Dice rolled at the table.

/// The faces a report's dice show, as the players would type them: pool by pool, in order.
fn typed(report: &Report) -> TableDice {
    let mut dice = TableDice::new();
    for d in report.dice.iter().filter(|d| !d.dice.is_empty()) {
        dice.add(d.pool, d.dice.clone());
    }
    dice
}

/// What a roll concluded, whatever its dice's origin.
fn outcome(r: &Report) -> impl PartialEq + std::fmt::Debug + '_ {
    let faces: Vec<(&str, &[u8])> = r.dice.iter().map(|d| (d.pool, d.dice.as_slice())).collect();
    (
        &r.title,
        &r.values,
        &r.result,
        &r.notes,
        &r.no_result,
        faces,
    )
}

/// A situation per mechanic that rolls more than one pool now and then: a volley, a shot at
/// a tank, a full tie that rerolls.
fn busy_situation(m: &Mechanic) -> Inputs {
    use InputValue::Count as N;
    let mut inputs = a_situation(m);
    match (m.ruleset, m.key) {
        (RulesetId::ArmourBattles, "command_dice") => {
            inputs.set("us_dice", N(1));
            inputs.set("german_dice", N(1));
        }
        (RulesetId::BoltAction, "shooting") => {
            inputs.set("firers", N(5));
            inputs.set("target", card(RulesetId::BoltAction, "Medium Tank"));
            inputs.set("weapon", InputValue::Choice(""));
            inputs.set("unit", card(RulesetId::BoltAction, "Bazooka Team"));
        }
        _ => {}
    }
    inputs
}

#[test]
fn dice_typed_at_the_table_give_the_outcome_of_the_same_seeded_dice() {
    let mut rolls = 0;
    for m in mechanics() {
        for inputs in [a_situation(m), busy_situation(m)] {
            for seed in 0..40 {
                let seeded = m
                    .resolve_roll(&inputs, seed)
                    .unwrap_or_else(|e| panic!("{m:?}: {e}"));
                let table = m
                    .resolve_roll(&inputs, typed(&seeded))
                    .unwrap_or_else(|e| panic!("{m:?} seed {seed}: {e}"));
                assert_eq!(outcome(&table), outcome(&seeded), "{m:?} seed {seed}");
                assert_eq!(table.source, Some(Source::Table));
                assert_eq!(table.seed, None, "dice rolled at the table have no seed");
                assert!(table.dice.iter().all(|d| d.source == Source::Table));
                let json = serde_json::to_value(&table).unwrap();
                assert_eq!(json["source"], "table");
                assert!(json.get("seed").is_none());
                for record in json["dice"].as_array().unwrap() {
                    assert_eq!(record["source"], "table", "{m:?}");
                    assert!(record.get("seed").is_none() && record.get("index").is_none());
                }
                rolls += 1;
            }
        }
    }
    assert!(rolls >= 16 * 80, "{rolls}");
}

#[test]
fn dice_of_the_wrong_count_or_face_or_an_unknown_pool_are_refused_naming_the_pool() {
    for m in mechanics() {
        let inputs = busy_situation(m);
        let seeded = m.resolve_roll(&inputs, 3).unwrap();
        let Some(first) = seeded.dice.iter().find(|d| !d.dice.is_empty()) else {
            continue;
        };
        let (pool, sides, count) = (first.pool, first.sides, first.dice.len() as u32);
        let with_first = |faces: Vec<u8>| {
            let mut dice = TableDice::new().with(pool, faces);
            for d in seeded.dice.iter().skip_while(|d| d.pool != pool).skip(1) {
                if !d.dice.is_empty() {
                    dice.add(d.pool, d.dice.clone());
                }
            }
            dice
        };
        // What the pool's faces are called, as the request for it says.
        let faces = m
            .table_pools(&inputs, &TableDice::new())
            .asked
            .iter()
            .find(|r| r.pool == pool)
            .map_or(FaceNames::Numbers, |r| r.faces);
        let mut short = first.dice.clone();
        short.pop();
        let mut off_the_die = first.dice.clone();
        off_the_die[0] = sides.saturating_add(1);
        let cases = [
            (
                with_first(short),
                ResolveError::Dice(DiceError::WrongTableCount {
                    pool,
                    given: count - 1,
                    wanted: count,
                    sides,
                    faces,
                }),
            ),
            (
                with_first(off_the_die),
                ResolveError::Dice(DiceError::NotOnTheDie {
                    pool,
                    face: sides.saturating_add(1),
                    sides,
                }),
            ),
            (
                TableDice::new(),
                ResolveError::Dice(DiceError::NoTableDice {
                    pool,
                    sides,
                    count,
                    roll: 1,
                    faces,
                }),
            ),
        ];
        for (dice, expected) in cases {
            assert_eq!(
                m.resolve_roll(&inputs, dice).unwrap_err(),
                expected,
                "{m:?}"
            );
        }
        match m.resolve_roll(&inputs, typed(&seeded).with("nonsense", vec![1])) {
            Err(ResolveError::Invalid { field, message }) => {
                assert_eq!(field, "dice");
                assert!(
                    message.starts_with("nonsense given but not rolled"),
                    "{message}"
                );
            }
            other => panic!("{m:?}: an unknown pool was taken: {other:?}"),
        }
    }
}

#[test]
fn a_pool_rolled_after_earlier_dice_is_asked_for_once_they_are_given() {
    let order = get(RulesetId::BoltAction, "order_test");
    let inputs = inputs_of(order, &[("quality", InputValue::Choice("regular"))]);
    let pools = |dice: TableDice| order.table_pools(&inputs, &dice);
    let asked = |p: &TablePools| {
        p.asked
            .iter()
            .map(|r| (r.pool, r.count))
            .collect::<Vec<_>>()
    };
    let first = pools(TableDice::new());
    assert_eq!(asked(&first), [("order", 2)]);
    assert!(first.waiting_for_dice());
    // Not a double six: no FUBAR die.
    let passed = pools(TableDice::new().with("order", vec![3, 4]));
    assert_eq!(asked(&passed), [("order", 2)]);
    assert_eq!(
        passed.answer.unwrap().get("passed"),
        Some(&Value::Flag(true))
    );
    // A double six asks for the FUBAR chart's die, then reads it.
    let fubar = pools(TableDice::new().with("order", vec![6, 6]));
    assert_eq!(asked(&fubar), [("order", 2), ("fubar", 1)]);
    assert!(fubar.waiting_for_dice());
    let read = pools(
        TableDice::new()
            .with("order", vec![6, 6])
            .with("fubar", vec![1]),
    );
    let report = read.answer.unwrap();
    assert!(report.result[0].contains("FUBAR"), "{:?}", report.result);

    // Armour Battles: no attack success, no Reaction Check to roll.
    let fire = get(RulesetId::ArmourBattles, "fire");
    let shot = a_situation(fire);
    let attack = fire.resolve_odds(&shot).unwrap();
    let Some(Value::Count(dice)) = attack.get("attacker_dice") else {
        panic!("attacker dice");
    };
    let misses = TableDice::new().with("attack", vec![1; *dice as usize]);
    let p = fire.table_pools(&shot, &misses);
    assert_eq!(p.asked.len(), 1, "{:?}", p.asked);
    assert!(p.answer.is_ok());
    let hits = TableDice::new().with("attack", vec![6; *dice as usize]);
    let p = fire.table_pools(&shot, &hits);
    assert_eq!(p.asked.last().map(|r| r.pool), Some("reaction"));
}

// ---------------------------------------------------------------------------------------
// Estimates read as estimates.

#[test]
fn an_estimate_is_marked_beside_each_sampled_figure_and_its_seed_follows_the_question() {
    use InputValue::{Choice as C, Count as N};
    let m = get(RulesetId::BoltAction, "shooting");
    // Six vehicle flamethrowers: 2D6 shots each, too many dice to count exactly.
    let volley = |firers: i64, target: &str| {
        inputs_of(
            m,
            &[
                ("weapon", C("Flamethrower (vehicle)")),
                ("firers", N(firers)),
                ("target", card(RulesetId::BoltAction, target)),
            ],
        )
    };
    let report = m.resolve_odds(&volley(6, "Medium Tank")).unwrap();
    let estimate = report.estimate.expect("sampled");
    for d in &report.distributions {
        let sampled = ["shots", "hits", "damaging_hits", "pins", "vehicle_result"];
        assert_eq!(d.estimate, sampled.contains(&d.key.as_str()), "{}", d.key);
        if d.estimate {
            assert!(d.chance_text(0).starts_with("≈ "), "{}", d.chance_text(0));
        }
    }
    let knocked_out = report
        .values
        .iter()
        .find(|v| v.key == "p_knocked_out")
        .unwrap();
    let Value::Probability(p) = knocked_out.value else {
        panic!("a chance");
    };
    let se = (p * (1.0 - p) / estimate.trials as f64).sqrt();
    assert_eq!(knocked_out.std_error, Some(se));
    assert_eq!(
        knocked_out.text(),
        format!("≈ {} ± {:.1}", crate::rules::words::percent(p), se * 100.0)
    );
    let exact = report
        .values
        .iter()
        .find(|v| v.key == "p_hit_per_shot")
        .unwrap();
    assert!(!exact.estimate && !exact.text().starts_with('≈'));
    let json = serde_json::to_value(&report).unwrap();
    let entry = json["values"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["key"] == "p_knocked_out")
        .unwrap();
    assert_eq!(entry["estimate"], true);
    assert_eq!(entry["std_error"], se);
    assert_eq!(json["distributions"]["hits"]["estimate"], true);
    assert!(
        json["distributions"]["per_damaging_hit"]
            .get("estimate")
            .is_none()
    );
    // The same question samples the same way; another question with another seed.
    let again = m.resolve_odds(&volley(6, "Medium Tank")).unwrap();
    assert_eq!(again, report);
    let seeds: Vec<u64> = [(6, "Medium Tank"), (7, "Medium Tank"), (6, "Heavy Tank")]
        .into_iter()
        .map(|(n, t)| {
            m.resolve_odds(&volley(n, t))
                .unwrap()
                .estimate
                .unwrap()
                .seed
        })
        .collect();
    assert!(
        seeds[0] != seeds[1] && seeds[0] != seeds[2] && seeds[1] != seeds[2],
        "{seeds:?}"
    );
}

/// A chance every sampled trial gave one way is still an estimate: it reads ">99.9%" with an
/// error above 0, never "100.0% ± 0.0" where the exact chance is 99.996% (issue #36).
#[test]
fn an_estimate_that_came_out_one_way_in_every_trial_never_reads_as_certain() {
    let mut report = Report::new(RulesetId::BoltAction, "shooting", "test");
    report.chance("p_knocked_out", "P(knocked out)", 1.0);
    report.chance("p_spared", "P(spared)", 0.0);
    report.estimated(
        Estimate {
            trials: 20_000,
            seed: 1,
            std_error_max: 0.0035,
        },
        &["p_knocked_out", "p_spared"],
    );
    let certain = &report.values[0];
    assert_eq!(certain.text(), "≈ >99.9% ± <0.1");
    assert!(certain.std_error.is_some_and(|se| se > 0.0));
    assert_eq!(report.values[1].text(), "≈ <0.1% ± <0.1");
}
