//! Bolt Action on the board: each action against the sheets' numbers with table dice, the
//! odds the tracker shows, the scripted player's battle, and the campaign's carry and
//! promotion.

use super::*;
use crate::rules::battle::table::played;
use crate::rules::battle::table::played::table;
use crate::rules::battle::table::{TableBattle, TableEvent, odds_of};
use crate::rules::battle::{BattleRules, Dice};
use crate::rules::registry::ruleset;
use crate::rules::resolution::CardPick;

type Engine = TableBattle<BoltActionBattle>;

fn book_card(name: &str) -> Card {
    played::book_card(RulesetId::BoltAction, name)
}

fn unit(id: &str, name: &str) -> TableUnit {
    played::book_unit(RulesetId::BoltAction, id, name)
}

fn plan(first: &[&str], second: &[&str]) -> TablePlan {
    played::book_plan(RulesetId::BoltAction, ["Allies", "Axis"], first, second)
}

/// Two squads a side: the small book force of most tests.
fn squads() -> TablePlan {
    plan(
        &["Regular Infantry Squad", "Veteran Infantry Squad"],
        &["Regular Infantry Squad", "Inexperienced Infantry Squad"],
    )
}

fn no_dice() -> Dice {
    Dice::Table(TableDice::new())
}

fn decide(plan: &TablePlan, board: &Board, request: &Request, dice: &Dice) -> TableEvent {
    Engine::decide(plan, board, request, dice)
        .unwrap_or_else(|e| panic!("{request:?} refused: {e}"))
        .event
}

fn play(plan: &TablePlan, board: &mut Board, request: Request, dice: &Dice) -> TableEvent {
    let event = decide(plan, board, &request, dice);
    Engine::apply(board, &event);
    event
}

fn refusal(plan: &TablePlan, board: &Board, request: &Request) -> String {
    match Engine::decide(plan, board, request, &no_dice()) {
        Ok(d) => panic!("{request:?} was allowed: {:?}", d.event.effects),
        Err(e) => e.to_string(),
    }
}

fn draw(side: &'static str) -> Request {
    Request::new("draw").with("side", InputValue::Choice(side))
}

fn order(unit: &str, order: &'static str) -> Request {
    Request::new("order")
        .unit(unit)
        .with("order", InputValue::Choice(order))
}

/// `unit` of the first player given `order` (drawn by the players' own bag).
fn ordered(plan: &TablePlan, board: &mut Board, unit: &str, order_key: &'static str) {
    let colour = if unit.starts_with("first") {
        "first"
    } else {
        "second"
    };
    play(plan, board, draw(colour), &no_dice());
    play(plan, board, order(unit, order_key), &no_dice());
}

/// `unit` as the step between battles carries it, from how it started the battle of `plan`.
fn carried(plan: &TablePlan, board: &Board, unit: &str) -> Option<TableUnit> {
    let start = BoltActionBattle::start(plan);
    BoltActionBattle::carry(start.unit(unit).unwrap(), board.unit(unit).unwrap())
}

fn set(board: &mut Board, unit: &str, counter: &str, to: i64) {
    board.apply(&Effect::set(unit, counter, to));
}

#[test]
fn units_start_with_their_models_and_keep_what_the_plan_carries() {
    let mut plan = plan(
        &["Regular Infantry Squad", "MMG Team", "Bazooka Team"],
        &["Medium Tank", "Light AT Gun"],
    );
    plan.units.first[0].counters.insert(MODELS.into(), 8);
    let board = BoltActionBattle::start(&plan);
    let models = |id: &str| board.unit(id).unwrap().count(MODELS);
    assert_eq!(models("first-1"), 8, "carried from the plan");
    assert_eq!(models("first-2"), CREW_MODELS, "a fixed team weapon's crew");
    assert_eq!(models("first-3"), TEAM_MODELS);
    assert_eq!(models("second-1"), 1, "a vehicle");
    assert_eq!(models("second-2"), CREW_MODELS, "a gun's crew");
}

#[test]
fn a_random_draw_numbers_the_first_players_dice_first() {
    let plan = squads();
    let board = BoltActionBattle::start(&plan);
    // Four dice: faces 1-2 are the first player's, 3-4 the second's.
    let event = decide(
        &plan,
        &board,
        &draw("random"),
        &table(&[("order_die", vec![3])]),
    );
    assert_eq!(
        event.effects,
        vec![Effect::side_set(Side::Second, DRAWN, 1)]
    );
    assert_eq!(event.rolls[0].roll.sides, 4);
    let event = decide(
        &plan,
        &board,
        &draw("random"),
        &table(&[("order_die", vec![2])]),
    );
    assert_eq!(event.effects, vec![Effect::side_set(Side::First, DRAWN, 1)]);
}

/// Dice as the book uses them: the players draw from their own bag and say whose colour
/// came out; the app never asks them for a die numbered over the dice left.
#[test]
fn a_draw_from_the_bag_is_typed_as_the_colour_that_came_out() {
    let plan = squads();
    let board = BoltActionBattle::start(&plan);
    let (asked, _) = Engine::pools(&plan, &board, &draw("random"), &TableDice::new());
    assert_eq!(asked[0].dice(), "the colour drawn: first or second");
    let mut typed = TableDice::new();
    typed.add_pool("order_die=second").unwrap();
    let event = decide(&plan, &board, &draw("random"), &Dice::Table(typed));
    assert_eq!(
        event.effects,
        vec![Effect::side_set(Side::Second, DRAWN, 1)]
    );
    // Recorded as the numbered face it stands for: the first second-player die, 3 of 4.
    assert_eq!(event.rolls[0].roll.dice, [3]);
    let mut typed = TableDice::new();
    typed.add_pool("order_die=first").unwrap();
    let event = decide(&plan, &board, &draw("random"), &Dice::Table(typed));
    assert_eq!(event.effects, vec![Effect::side_set(Side::First, DRAWN, 1)]);
}

/// Finding 7 of issue #36: the sheet is silent on pins from hits that cannot hurt a vehicle;
/// the battle lists its house default (unit_fire's tests count the odds).
#[test]
fn the_battle_lists_what_pins_an_armoured_target() {
    assert!(BoltActionBattle::RULINGS.contains(&super::super::rulings::ARMOUR_PINS_RULING));
    assert!(BoltActionBattle::RULINGS.contains(&super::super::rulings::UNIT_FIRE_RULING));
}

#[test]
fn the_players_say_which_colour_came_out_of_their_bag() {
    let plan = squads();
    let mut board = BoltActionBattle::start(&plan);
    let event = play(&plan, &mut board, draw("second"), &no_dice());
    assert!(event.rolls.is_empty());
    assert_eq!(
        event.effects,
        vec![Effect::side_set(Side::Second, DRAWN, 1)]
    );
    let why = refusal(&plan, &board, &draw("first"));
    assert!(why.contains("already drawn"), "{why}");
    let listed = Engine::actions(&plan, &board);
    let draws: Vec<_> = listed.iter().filter(|a| a.key == "draw").collect();
    assert_eq!(draws.len(), 3);
    assert!(draws.iter().all(|a| a.refused.is_some()));
}

#[test]
fn an_order_goes_to_a_unit_of_the_drawn_colour() {
    let plan = squads();
    let mut board = BoltActionBattle::start(&plan);
    let why = refusal(&plan, &board, &order("first-1", "fire"));
    assert!(why.contains("draw a die"), "{why}");
    play(&plan, &mut board, draw("first"), &no_dice());
    let why = refusal(&plan, &board, &order("second-1", "fire"));
    assert!(why.contains("drawn die"), "{why}");
    let event = play(&plan, &mut board, order("first-1", "advance"), &no_dice());
    assert_eq!(
        event.effects,
        vec![
            Effect::order("first-1", Some("advance")),
            Effect::side_set(Side::First, DRAWN, 0),
        ]
    );
    // Three dice left in the bag: one of the first player's, two of the second's.
    play(&plan, &mut board, draw("first"), &no_dice());
    let why = refusal(&plan, &board, &order("first-1", "fire"));
    assert!(why.contains("already has a Advance order"), "{why}");
}

#[test]
fn a_pinned_unit_tests_its_order_against_morale_less_its_pins() {
    let plan = squads();
    let mut board = BoltActionBattle::start(&plan);
    set(&mut board, "first-1", PINS, 1);
    play(&plan, &mut board, draw("first"), &no_dice());
    // Regular: morale 9, one pin: 2d6 at or under 8.
    let passed = decide(
        &plan,
        &board,
        &order("first-1", "fire"),
        &table(&[("order", vec![4, 4])]),
    );
    assert_eq!(passed.effects[0], Effect::order("first-1", Some("fire")));
    let failed = decide(
        &plan,
        &board,
        &order("first-1", "fire"),
        &table(&[("order", vec![4, 5])]),
    );
    assert_eq!(failed.effects[0], Effect::order("first-1", Some("down")));
    // Double six: FUBAR, and the chart's 1-2 is Friendly Fire (a fire order).
    let fubar = decide(
        &plan,
        &board,
        &order("first-1", "advance"),
        &table(&[("order", vec![6, 6]), ("fubar", vec![2])]),
    );
    assert_eq!(
        fubar.effects[..2],
        [
            Effect::order("first-1", Some("fire")),
            Effect::mark("first-1", FUBAR)
        ]
    );
    let panic = decide(
        &plan,
        &board,
        &order("first-1", "fire"),
        &table(&[("order", vec![6, 6]), ("fubar", vec![3])]),
    );
    assert_eq!(panic.effects[0], Effect::order("first-1", Some("run")));
}

#[test]
fn the_order_test_odds_are_the_mechanics_and_count_like_the_dice() {
    let plan = squads();
    let mut board = BoltActionBattle::start(&plan);
    set(&mut board, "first-1", PINS, 1);
    play(&plan, &mut board, draw("first"), &no_dice());
    let request = order("first-1", "fire");
    let (mechanic, inputs) = Engine::situation(&plan, &board, &request).unwrap();
    assert_eq!(mechanic.key, "order_test");
    let shown = odds_of(RulesetId::BoltAction, "order_test", &inputs).unwrap();
    // The Resolve form for the same situation: the unit, its pins.
    let m = resolution::mechanic(RulesetId::BoltAction, "order_test").unwrap();
    let mut form = m.defaults();
    form.set(
        "unit",
        InputValue::Card(Some(CardPick::book(&book_card("Regular Infantry Squad")))),
    );
    form.set("pins", InputValue::Count(1));
    assert_eq!(
        shown,
        odds_of(RulesetId::BoltAction, "order_test", &form).unwrap()
    );
    // P(pass): 2d6 at or under 9 − 1 = 8, a double six never passing.
    let mut passing = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            if a + b <= 8 && !(a == 6 && b == 6) {
                passing += 1;
            }
        }
    }
    let p_pass = match shown.get("p_pass") {
        Some(resolution::Value::Probability(p)) => *p,
        other => panic!("p_pass: {other:?}"),
    };
    assert!((p_pass - f64::from(passing) / 36.0).abs() < 1e-12);
    assert_eq!(passing, 26);
}

/// Finding 4 of issue #36. Sheet 004, Shooting procedure: the unit fires as a whole, each
/// model its own weapon (RULINGS "Board battles"): a Regular squad of 10 under one Fire order
/// rolls its 8 riflemen's shots and its LMG team's 3, the loader firing nothing — not 10
/// rifle shots with the LMG silent.
#[test]
fn a_regular_squad_fires_its_rifles_and_its_lmg_under_one_fire_order() {
    let plan = squads();
    let mut board = BoltActionBattle::start(&plan);
    ordered(&plan, &mut board, "first-1", "fire");
    let shoot = Request::new("shoot").unit("first-1").target("second-1");
    let (asked, _) = Engine::pools(&plan, &board, &shoot, &TableDice::new());
    assert_eq!(
        (asked[0].pool, asked[0].count),
        ("to_hit", 8),
        "the riflemen"
    );
    // Rifles: 5 of 8 hit on 3+, 3 of those damage on 4+ (a Regular squad, no PEN); the
    // LMG's 3 shots: 2 hit, 1 damages. One pin for the unit's fire.
    let dice = table(&[
        ("to_hit", vec![6, 6, 5, 4, 3, 2, 1, 1]),
        ("damage", vec![6, 5, 4, 1, 1]),
        ("to_hit", vec![6, 2, 5]),
        ("damage", vec![4, 3]),
    ]);
    let event = decide(&plan, &board, &shoot, &dice);
    assert_eq!(
        event.effects,
        vec![
            Effect::mark("first-1", DONE),
            Effect::add("second-1", CASUALTIES, 4),
            Effect::add("second-1", PINS, 1),
        ]
    );
    let lmg: Vec<usize> = event
        .rolls
        .iter()
        .filter(|r| r.pool == "to_hit")
        .map(|r| r.roll.dice.len())
        .collect();
    assert_eq!(lmg, [8, 3], "8 rifle shots, then the LMG's 3");
    // The order covered both weapons: nothing is left to fire.
    let why = refusal(&plan, &board.after(&event.effects), &shoot);
    assert!(why.contains("already carried out"), "{why}");
    let why = refusal(
        &plan,
        &board,
        &Request::new("shoot").unit("first-2").target("second-1"),
    );
    assert!(why.contains("no order yet"), "{why}");
}

/// An event recorded under revision 1 (one weapon a Fire order, chosen by the player) is
/// decided again under revision 1: old logs keep verifying as they were recorded.
#[test]
fn a_shot_recorded_under_revision_1_is_decided_again_under_its_rules() {
    use crate::rules::battle::table::{Param, TableRoll};
    let plan = squads();
    let mut board = BoltActionBattle::start(&plan);
    ordered(&plan, &mut board, "first-1", "fire");
    let roll = |pool: &str, dice: Vec<u8>| TableRoll {
        pool: pool.to_string(),
        roll: crate::rules::dice::RollRecord {
            seed: 0,
            index: 0,
            sides: 6,
            dice,
            source: crate::rules::dice::Source::Table,
            pool: "",
        },
    };
    let recorded = TableEvent {
        action: "shoot".into(),
        side: None,
        unit: Some("first-1".into()),
        target: Some("second-1".into()),
        params: [("weapon".to_string(), Param::Text("Rifle".into()))].into(),
        text: String::new(),
        rolls: vec![
            roll("to_hit", vec![1, 2, 3, 4, 5, 6, 3, 3, 1, 1]),
            roll("damage", vec![4, 5, 6, 1, 2, 3]),
        ],
        dice_from: crate::rules::battle::DiceFrom::Table,
        effects: Vec::new(),
        result: Vec::new(),
        category: Category::Fire,
    };
    // Ten rifles, one shot each, 3+ to hit: six hits; damage on 4+: three casualties.
    let again = Engine::rederive(&plan, &board, &recorded, 1).unwrap();
    assert_eq!(
        again.effects,
        vec![
            Effect::mark("first-1", DONE),
            Effect::add("second-1", CASUALTIES, 3),
            Effect::add("second-1", PINS, 1),
        ]
    );
    // Under the current rules the same dice do not fit: the squad rolls 8 rifle shots.
    assert!(Engine::rederive(&plan, &board, &recorded, WHOLE_UNIT_FIRE).is_err());
    assert!(
        ruleset(RulesetId::BoltAction)
            .revision_note(1, "act")
            .is_some_and(|n| n.contains("one weapon"))
    );
}

/// Finding 1 of issue #36. Sheet 004, FUBAR chart, Friendly Fire: the unit fires at a
/// friendly unit the opposing player chooses; with none it does not fire and goes Down.
#[test]
fn friendly_fire_shoots_a_friendly_unit_and_refuses_the_enemy() {
    let plan = squads();
    let mut board = BoltActionBattle::start(&plan);
    set(&mut board, "first-1", PINS, 1);
    play(&plan, &mut board, draw("first"), &no_dice());
    // A double six, then a 1 on the FUBAR chart: Friendly Fire.
    let fubar = table(&[("order", vec![6, 6]), ("fubar", vec![1])]);
    play(&plan, &mut board, order("first-1", "advance"), &fubar);
    let enemy = Request::new("shoot").unit("first-1").target("second-1");
    let why = refusal(&plan, &board, &enemy);
    assert!(why.contains("friendly unit"), "{why}");
    let listed = Engine::actions(&plan, &board);
    let shoot = listed
        .iter()
        .find(|a| a.key == "shoot" && a.unit.as_deref() == Some("first-1"))
        .unwrap();
    assert_eq!(shoot.targets, ["first-2"], "its own side's other unit");
    assert!(
        shoot.label.contains("opposing player picks"),
        "{}",
        shoot.label
    );
    let at_friend = Request::new("shoot").unit("first-1").target("first-2");
    let (asked, _) = Engine::pools(&plan, &board, &at_friend, &TableDice::new());
    assert_eq!((asked[0].pool, asked[0].count), ("to_hit", 8));
    // Or the opposing player finds no friendly unit in range: it goes Down instead.
    let down = play(
        &plan,
        &mut board,
        Request::new("go_down").unit("first-1"),
        &no_dice(),
    );
    assert!(
        down.effects
            .contains(&Effect::order("first-1", Some("down")))
    );
    assert!(!board.unit("first-1").unwrap().has(FUBAR));
}

#[test]
fn friendly_fire_with_no_friendly_unit_left_goes_down_at_once() {
    let plan = plan(&["Regular Infantry Squad"], &["Regular Infantry Squad"]);
    let mut board = BoltActionBattle::start(&plan);
    set(&mut board, "first-1", PINS, 1);
    play(&plan, &mut board, draw("first"), &no_dice());
    let fubar = table(&[("order", vec![6, 6]), ("fubar", vec![2])]);
    let event = play(&plan, &mut board, order("first-1", "fire"), &fubar);
    assert!(
        event
            .effects
            .contains(&Effect::order("first-1", Some("down")))
    );
    assert!(
        event.result.iter().any(|r| r.contains("goes Down")),
        "{:?}",
        event.result
    );
}

/// Finding 2 of issue #36. Sheet 004, Turn End: order dice go back to the cup except those of
/// units retaining an Ambush or Down order; a unit that fired from Ambush has used it.
#[test]
fn an_ambush_that_fired_is_not_kept_over_the_turn_end() {
    let plan = plan(&["MMG Team", "Bazooka Team"], &["Regular Infantry Squad"]);
    let mut board = BoltActionBattle::start(&plan);
    ordered(&plan, &mut board, "first-1", "ambush");
    ordered(&plan, &mut board, "first-2", "ambush");
    ordered(&plan, &mut board, "second-1", "down");
    // The MMG springs its ambush; the bazooka waits.
    let shoot = Request::new("shoot").unit("first-1").target("second-1");
    let dice = table(&[("to_hit", vec![1, 1, 1, 1])]);
    play(&plan, &mut board, shoot, &dice);
    let end = play(&plan, &mut board, Request::new("end_turn"), &no_dice());
    assert!(
        end.effects.contains(&Effect::order("first-1", None)),
        "{:?}",
        end.effects
    );
    assert!(!board.unit("first-1").unwrap().has(AMBUSH));
    assert!(
        board.unit("first-2").unwrap().has(AMBUSH),
        "still waiting: kept"
    );
    assert!(board.unit("second-1").unwrap().has(DOWN), "Down is kept");
    // Its die is back in the bag: it must be drawn and ordered again before it fires.
    let again = Request::new("shoot").unit("first-1").target("second-1");
    let why = refusal(&plan, &board, &again);
    assert!(why.contains("no order yet"), "{why}");
}

#[test]
fn the_shooting_odds_are_the_resolve_forms_for_the_same_situation() {
    let plan = squads();
    let mut board = BoltActionBattle::start(&plan);
    ordered(&plan, &mut board, "first-1", "advance");
    set(&mut board, "first-1", PINS, 1);
    let request = Request::new("shoot").unit("first-1").target("second-2");
    let (_, inputs) = Engine::situation(&plan, &board, &request).unwrap();
    let m = resolution::mechanic(RulesetId::BoltAction, "shooting").unwrap();
    let mut form = m.defaults();
    form.set(
        "unit",
        InputValue::Card(Some(CardPick::book(&book_card("Regular Infantry Squad")))),
    );
    form.set(
        "target",
        InputValue::Card(Some(CardPick::book(&book_card(
            "Inexperienced Infantry Squad",
        )))),
    );
    form.set("weapon", InputValue::Choice("unit"));
    form.set("firers", InputValue::Count(10));
    form.set("pins", InputValue::Count(1));
    form.set("moving", InputValue::Flag(true));
    let shown = odds_of(RulesetId::BoltAction, "shooting", &inputs).unwrap();
    assert_eq!(
        shown,
        odds_of(RulesetId::BoltAction, "shooting", &form).unwrap()
    );
    // The whole unit's 11 shots (8 rifles, the LMG's 3) at 5+ to hit (3+ base, −1 a pin, −1
    // on the move: 2 in 6), damaging an Inexperienced squad on 3+ (4 in 6): the unit's
    // expected hits and casualties, not one shot's.
    let number = |key: &str| match shown.get(key) {
        Some(resolution::Value::Number(x)) => *x,
        other => panic!("{key}: {other:?}"),
    };
    assert!((number("expected_hits") - 11.0 / 3.0).abs() < 1e-12);
    assert!((number("expected_casualties") - 22.0 / 9.0).abs() < 1e-12);
}

/// The shoot action shows what the battle sets: the whole unit, its models left as firers
/// (issue #34 item 5), not a form default of 1.
#[test]
fn the_shoot_form_takes_its_firers_from_the_units_models() {
    let plan = squads();
    let mut board = BoltActionBattle::start(&plan);
    set(&mut board, "first-1", CASUALTIES, 2);
    ordered(&plan, &mut board, "first-1", "fire");
    let listed = Engine::actions(&plan, &board);
    let shoot = listed
        .iter()
        .find(|a| a.key == "shoot" && a.unit.as_deref() == Some("first-1"))
        .unwrap();
    assert!(
        shoot.fixed.contains(&("firers", InputValue::Count(8))),
        "{:?}",
        shoot.fixed
    );
    assert!(
        shoot
            .fixed
            .contains(&("weapon", InputValue::Choice("unit")))
    );
    let own: Vec<&str> = BoltActionBattle::params("shoot")
        .iter()
        .map(|s| s.key)
        .collect();
    assert!(
        !own.contains(&"firers") && !own.contains(&"weapon"),
        "{own:?}"
    );
}

#[test]
fn a_bazooka_knocks_out_a_medium_tank() {
    let plan = plan(&["Bazooka Team"], &["Medium Tank"]);
    let mut board = BoltActionBattle::start(&plan);
    ordered(&plan, &mut board, "first-1", "fire");
    let shoot = Request::new("shoot").unit("first-1").target("second-1");
    // One shot, hit on 5; pen 5 + 6 = 11 against a medium tank's 9+; result 4: knocked out.
    let event = decide(
        &plan,
        &board,
        &shoot,
        &table(&[
            ("to_hit", vec![5]),
            ("damage", vec![6]),
            ("damage_results", vec![4]),
        ]),
    );
    assert!(event.effects.contains(&Effect::mark("second-1", DESTROYED)));
    assert!(
        event
            .effects
            .contains(&Effect::add("second-1", CASUALTIES, 1))
    );
    assert_eq!(
        event.effects.last(),
        Some(&Effect::Ends {
            winner: Some(Side::First),
            reason: "the second player has no unit left".into()
        })
    );
    // Result 2: immobilised, and a pin beside the hit's.
    let event = decide(
        &plan,
        &board,
        &shoot,
        &table(&[
            ("to_hit", vec![5]),
            ("damage", vec![6]),
            ("damage_results", vec![2]),
        ]),
    );
    assert!(
        event
            .effects
            .contains(&Effect::mark("second-1", IMMOBILISED))
    );
    assert!(event.effects.contains(&Effect::add("second-1", PINS, 2)));
}

#[test]
fn an_immobilised_vehicle_may_not_advance_or_run() {
    let plan = plan(&["Regular Infantry Squad"], &["Medium Tank"]);
    let mut board = BoltActionBattle::start(&plan);
    board.apply(&Effect::mark("second-1", IMMOBILISED));
    play(&plan, &mut board, draw("second"), &no_dice());
    let listed = Engine::actions(&plan, &board);
    let order = listed
        .iter()
        .find(|a| a.key == "order" && a.unit.as_deref() == Some("second-1"))
        .unwrap();
    assert_eq!(
        order.choices,
        vec![("order", vec!["fire", "ambush", "rally", "down"])]
    );
    let why = refusal(&plan, &board, &super::tests::order("second-1", "run"));
    assert!(why.contains("immobilised"), "{why}");
}

#[test]
fn close_quarters_destroys_the_loser() {
    let plan = squads();
    let mut board = BoltActionBattle::start(&plan);
    set(&mut board, "first-2", CASUALTIES, 7);
    set(&mut board, "second-2", CASUALTIES, 10);
    board.apply(&Effect::mark("second-2", DESTROYED));
    set(&mut board, "second-1", CASUALTIES, 8);
    ordered(&plan, &mut board, "first-2", "run");
    let assault = Request::new("assault").unit("first-2").target("second-1");
    let (given, _) = Engine::pools(&plan, &board, &assault, &TableDice::new());
    assert_eq!(given[0].pool, "attackers");
    // Three veterans strike at regular infantry (4+): two fall, both defenders gone.
    let event = decide(
        &plan,
        &board,
        &assault,
        &table(&[("attackers", vec![4, 6, 1])]),
    );
    assert!(event.effects.contains(&Effect::mark("second-1", DESTROYED)));
    assert!(event.effects.contains(&Effect::mark("first-2", DONE)));
    assert!(matches!(
        event.effects.last(),
        Some(Effect::Ends {
            winner: Some(Side::First),
            ..
        })
    ));
    let listed = Engine::actions(&plan, &board);
    assert!(
        listed
            .iter()
            .any(|a| a.key == "assault" && a.destructive && a.allowed())
    );
}

#[test]
fn infantry_without_anti_tank_weapons_test_at_minus_three_to_assault_a_tank() {
    let plan = plan(&["Regular Infantry Squad"], &["Medium Tank"]);
    let mut board = BoltActionBattle::start(&plan);
    ordered(&plan, &mut board, "first-1", "run");
    let assault = Request::new("assault_vehicle")
        .unit("first-1")
        .target("second-1");
    // Morale 9 − 3 = 6: 2d6 of 7 fails, and the squad goes down instead.
    let event = decide(&plan, &board, &assault, &table(&[("order", vec![3, 4])]));
    assert_eq!(
        event.effects,
        vec![
            Effect::order("first-1", Some("down")),
            Effect::mark("first-1", DONE)
        ]
    );
    let (mechanic, inputs) = Engine::situation(&plan, &board, &assault).unwrap();
    assert_eq!(mechanic.key, "vehicle_assault");
    let odds = odds_of(RulesetId::BoltAction, "vehicle_assault", &inputs).unwrap();
    assert!(matches!(
        odds.get("order_test_target"),
        Some(resolution::Value::Count(6))
    ));
}

/// One pool name per meaning: an assault's damage result is typed under `damage_results` as
/// shooting's are; an event of revision 1 keeps the `damage_result` it recorded, and verifies.
#[test]
fn an_assaults_damage_result_is_named_as_shootings_and_old_events_keep_theirs() {
    // Two hits and a 6: 8 reaches a light tank's damage value, so a result is rolled.
    let plan = plan(&["Bazooka Team"], &["Light Tank"]);
    let mut board = BoltActionBattle::start(&plan);
    ordered(&plan, &mut board, "first-1", "run");
    let assault = Request::new("assault_vehicle")
        .unit("first-1")
        .target("second-1");
    let mut given = TableDice::new();
    for _ in 0..8 {
        let (asked, answer) = Engine::pools(&plan, &board, &assault, &given);
        if answer.is_ok() {
            break;
        }
        let next = asked.iter().rev().find(|a| !given.has(a.pool, 0)).unwrap();
        given.add(next.pool, vec![6; next.count as usize]);
    }
    let event = decide(&plan, &board, &assault, &Dice::Table(given));
    let pools: Vec<&str> = event.rolls.iter().map(|r| r.pool.as_str()).collect();
    assert!(pools.contains(&"damage_results"), "{pools:?}");
    let mut old = event.clone();
    for roll in &mut old.rolls {
        if roll.pool == "damage_results" {
            roll.pool = "damage_result".into();
        }
    }
    assert_eq!(Engine::rederive(&plan, &board, &old, 1).unwrap(), old);
    assert_eq!(
        Engine::rederive(&plan, &board, &old, WHOLE_UNIT_FIRE).unwrap(),
        event
    );
}

#[test]
fn rally_sheds_a_d6_of_pins() {
    let plan = squads();
    let mut board = BoltActionBattle::start(&plan);
    ordered(&plan, &mut board, "first-1", "rally");
    set(&mut board, "first-1", PINS, 3);
    let event = decide(
        &plan,
        &board,
        &Request::new("rally").unit("first-1"),
        &table(&[("rally", vec![5])]),
    );
    assert_eq!(
        event.effects,
        vec![
            Effect::add("first-1", PINS, -3),
            Effect::mark("first-1", DONE)
        ]
    );
    let why = refusal(&plan, &board, &Request::new("rally").unit("first-2"));
    assert!(why.contains("no order"), "{why}");
}

#[test]
fn the_turn_ends_with_an_empty_bag_and_down_and_ambush_dice_stay() {
    let plan = squads();
    let mut board = BoltActionBattle::start(&plan);
    let why = refusal(&plan, &board, &Request::new("end_turn"));
    assert!(why.contains("4 order dice"), "{why}");
    ordered(&plan, &mut board, "first-1", "down");
    ordered(&plan, &mut board, "first-2", "fire");
    ordered(&plan, &mut board, "second-1", "ambush");
    ordered(&plan, &mut board, "second-2", "run");
    let event = play(&plan, &mut board, Request::new("end_turn"), &no_dice());
    assert_eq!(
        event.effects,
        vec![
            Effect::mark("first-1", DOWN),
            Effect::order("first-2", None),
            Effect::mark("second-1", AMBUSH),
            Effect::order("second-2", None),
            Effect::NextTurn,
        ]
    );
    assert_eq!(board.turn, 2);
    // Two dice in the bag now: the units that kept their orders have none there.
    let event = decide(
        &plan,
        &board,
        &draw("random"),
        &table(&[("order_die", vec![1])]),
    );
    assert_eq!(event.rolls[0].roll.sides, 2);
}

#[test]
fn the_battle_ends_after_the_sixth_turn_by_units_destroyed() {
    let plan = squads();
    let mut board = BoltActionBattle::start(&plan);
    board.turn = LAST_TURN;
    board.apply(&Effect::mark("second-2", DESTROYED));
    for unit in ["first-1", "first-2", "second-1"] {
        ordered(&plan, &mut board, unit, "down");
    }
    let event = play(&plan, &mut board, Request::new("end_turn"), &no_dice());
    assert!(matches!(
        &event.effects[..],
        [Effect::Ends { winner: Some(Side::First), reason }] if reason.contains("turn 6")
    ));
    assert_eq!(
        BoltActionBattle::score(&board),
        Some(Sides {
            first: 1,
            second: 0
        })
    );
}

#[test]
fn pools_are_asked_in_order_then_decided() {
    let plan = squads();
    let mut board = BoltActionBattle::start(&plan);
    ordered(&plan, &mut board, "first-1", "fire");
    let shoot = Request::new("shoot").unit("first-1").target("second-1");
    let (asked, answer) = Engine::pools(&plan, &board, &shoot, &TableDice::new());
    assert_eq!(asked.len(), 1);
    assert_eq!((asked[0].pool, asked[0].count), ("to_hit", 8));
    assert!(answer.is_err());
    // Three hits: the damage dice are asked next, then the LMG's to-hit dice.
    let given = TableDice::new().with("to_hit", vec![3, 3, 3, 1, 1, 1, 1, 1]);
    let (asked, answer) = Engine::pools(&plan, &board, &shoot, &given);
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert_eq!((asked[1].pool, asked[1].count), ("damage", 3));
    assert!(answer.is_err());
    let given = given.with("damage", vec![1, 1, 6]);
    let (asked, answer) = Engine::pools(&plan, &board, &shoot, &given);
    assert_eq!((asked[2].pool, asked[2].count), ("to_hit", 3), "{asked:?}");
    assert!(answer.is_err());
    let given = given.with("to_hit", vec![1, 1, 2]);
    let (asked, answer) = Engine::pools(&plan, &board, &shoot, &given);
    assert_eq!(asked.len(), 3, "{asked:?}");
    assert_eq!(
        answer.unwrap().event.effects,
        vec![
            Effect::mark("first-1", DONE),
            Effect::add("second-1", CASUALTIES, 1),
            Effect::add("second-1", PINS, 1),
        ]
    );
}

#[test]
fn carry_keeps_casualties_drops_pins_and_repairs_but_loses_the_destroyed() {
    let plan = plan(&["Regular Infantry Squad", "Light Tank"], &["Medium Tank"]);
    let mut board = BoltActionBattle::start(&plan);
    set(&mut board, "first-1", CASUALTIES, 4);
    set(&mut board, "first-1", PINS, 2);
    board.apply(&Effect::mark("first-2", IMMOBILISED));
    board.apply(&Effect::mark("second-1", DESTROYED));
    let squad = carried(&plan, &board, "first-1").unwrap();
    assert_eq!(squad.counters.get(CASUALTIES), Some(&4));
    assert_eq!(squad.counters.get(PINS), None);
    let tank = carried(&plan, &board, "first-2").unwrap();
    assert!(tank.marks.is_empty());
    assert_eq!(carried(&plan, &board, "second-1"), None);
    set(&mut board, "first-1", CASUALTIES, 10);
    assert_eq!(carried(&plan, &board, "first-1"), None);
}

#[test]
fn promotion_is_one_step_up_the_quality_ladder() {
    let quality = |u: &TableUnit| match &u.card {
        Card::BoltAction(p) => p.quality,
        _ => unreachable!(),
    };
    let green = unit("first-1", "Inexperienced Infantry Squad");
    let regular = BoltActionBattle::promote(&green).unwrap();
    assert_eq!(quality(&regular), Quality::Regular);
    let veteran = BoltActionBattle::promote(&regular).unwrap();
    assert_eq!(quality(&veteran), Quality::Veteran);
    assert_eq!(BoltActionBattle::promote(&veteran), None);
}

#[test]
fn a_unit_kept_down_is_harder_to_hit_next_turn() {
    let plan = squads();
    let mut board = BoltActionBattle::start(&plan);
    ordered(&plan, &mut board, "second-1", "down");
    for unit in ["first-1", "first-2", "second-2"] {
        ordered(&plan, &mut board, unit, "fire");
    }
    play(&plan, &mut board, Request::new("end_turn"), &no_dice());
    assert!(board.unit("second-1").unwrap().has(DOWN));
    ordered(&plan, &mut board, "first-1", "fire");
    let request = Request::new("shoot").unit("first-1").target("second-1");
    let (_, inputs) = Engine::situation(&plan, &board, &request).unwrap();
    assert!(inputs.flag("target_down"));
    play(&plan, &mut board, draw("second"), &no_dice());
    let why = refusal(&plan, &board, &order("second-1", "fire"));
    assert!(why.contains("already has a Down order"), "{why}");
}

/// The unit's card and the turn strip read the board in the sheet's words: models left,
/// pins, the order and a FUBAR as badges with their tones; whose die is out and the dice
/// left in each colour.
#[test]
fn the_standing_shows_models_pins_orders_and_the_bag() {
    use crate::rules::battle::standing::Tone;
    let plan = squads();
    let mut board = BoltActionBattle::start(&plan);
    set(&mut board, "first-1", CASUALTIES, 2);
    set(&mut board, "first-1", PINS, 1);
    play(&plan, &mut board, draw("first"), &no_dice());
    let turn = BoltActionBattle::turn_standing(&plan, &board);
    assert_eq!((turn.acting, turn.next), (Some(Side::First), Some("order")));
    assert_eq!(
        turn.stock.first[0].now, 1,
        "one first player's die still in the bag"
    );
    assert_eq!(turn.stock.second[0].now, 2);
    let fubar = table(&[("order", vec![6, 6]), ("fubar", vec![1])]);
    play(&plan, &mut board, order("first-1", "fire"), &fubar);
    let squad = BoltActionBattle::unit_standing(&plan, board.unit("first-1").unwrap());
    let strength = squad.strength.unwrap();
    assert_eq!(
        (strength.now, strength.full, strength.noun),
        (8, 10, "models")
    );
    assert_eq!(squad.tallies[0].label, "Pins");
    let badges: Vec<(&str, Tone)> = squad
        .badges
        .iter()
        .map(|b| (b.label.as_str(), b.tone))
        .collect();
    assert_eq!(
        badges,
        [
            ("Fire", Tone::Neutral),
            ("FUBAR: Friendly Fire", Tone::Danger),
            ("Regular", Tone::Neutral),
        ]
    );
    let tank = plan_with_tank();
    let tank_board = BoltActionBattle::start(&tank);
    let vehicle = BoltActionBattle::unit_standing(&tank, &tank_board.units[1]);
    assert!(
        vehicle.strength.is_none(),
        "a vehicle has no models to count"
    );
}

fn plan_with_tank() -> TablePlan {
    plan(&["Regular Infantry Squad"], &["Medium Tank"])
}

/// A draw and a plain order read as the players say them, in the log and the after-action
/// report ("draw (side first). Allies: drawn 1" before); an order with a test keeps the full
/// line with its dice.
#[test]
fn a_draw_and_an_order_read_as_the_players_say_them() {
    let p = squads();
    let mut board = Engine::start(&p, &Sides::default());
    let came_out = play(&p, &mut board, draw("first"), &no_dice());
    assert_eq!(
        Engine::describe(&p, &came_out),
        "Allies' die came out of the bag"
    );
    let fire = play(&p, &mut board, order("first-1", "fire"), &no_dice());
    let unit = p.label("first-1").to_string();
    assert_eq!(
        Engine::describe(&p, &fire),
        format!("{unit} takes a Fire order")
    );
    let drawn = play(&p, &mut board, draw("random"), &Dice::Seed(3));
    let said = Engine::describe(&p, &drawn);
    assert!(
        said.ends_with("' die came out of the bag (drawn with dice rolled by the app)"),
        "{said}"
    );
}
