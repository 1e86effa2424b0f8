//! The engine with a ruleset of its own making: a duel where a shot hits on 4+ and two hits
//! destroy a unit. What is checked is the engine's part: events carry every die and effect,
//! verification decides again and catches forgeries, table dice are asked pool by pool.

use super::*;
use crate::rules::battle::board::{DESTROYED, TableUnit};
use crate::rules::battle::{SIDES, opponent};

enum Duel {}

const HITS: &str = "hits";

impl TableRules for Duel {
    const RULESET: RulesetId = RulesetId::BoltAction;
    const ACTIONS: &'static [&'static str] = &["shoot", "end_turn"];

    fn start(plan: &TablePlan) -> Board {
        Board::from_plan(plan)
    }

    fn actions(_plan: &TablePlan, board: &Board, _revision: u32) -> Vec<Action> {
        let mut actions = vec![Action::new("end_turn", "End turn")];
        for unit in &board.units {
            let mut a = Action::new("shoot", "Shoot");
            a.unit = Some(unit.id.clone());
            a.side = Some(unit.side);
            a.targets = board
                .side_units(opponent(unit.side))
                .filter(|u| u.in_play())
                .map(|u| u.id.clone())
                .collect();
            if !unit.in_play() {
                a.refused = Some(format!("{} is destroyed", unit.label));
            } else if unit.has("fired") {
                a.refused = Some(format!("{} has fired this turn", unit.label));
            }
            actions.push(a);
        }
        actions
    }

    fn params(_action: &str) -> Vec<InputSpec> {
        vec![InputSpec::toggle(
            "cover",
            "Cover",
            "The target is in cover: hits on 5+",
        )]
    }

    fn situation(
        _: &TablePlan,
        _: &Board,
        _: &Request,
    ) -> Result<(MechanicId, Inputs), BattleError> {
        Err(BattleError::NothingTo("show odds for"))
    }

    fn resolve(
        _plan: &TablePlan,
        board: &Board,
        request: &Request,
        roller: &mut Roller,
        _revision: u32,
    ) -> Result<Resolved, BattleError> {
        let mut effects = Vec::new();
        match request.action {
            "end_turn" => {
                effects.push(Effect::NextTurn);
                for u in board.units.iter().filter(|u| u.has("fired")) {
                    effects.push(Effect::clear(&u.id, "fired"));
                }
                if board.turn >= 3 {
                    effects.push(Effect::Ends {
                        winner: None,
                        reason: "three turns played".into(),
                    });
                }
            }
            _ => {
                let unit = request
                    .unit
                    .as_deref()
                    .ok_or(BattleError::NothingTo("shoot with"))?;
                let target_id = request
                    .target
                    .as_deref()
                    .ok_or_else(|| BattleError::not_allowed("pick a target"))?;
                let target = board
                    .unit(target_id)
                    .ok_or_else(|| BattleError::UnknownUnit(target_id.into()))?;
                let need = if request.inputs.get("cover") == Some(&InputValue::Flag(true)) {
                    5
                } else {
                    4
                };
                let die = roller.roll("shot", 6, 1)?;
                effects.push(Effect::mark(unit, "fired"));
                if i32::from(die.dice[0]) >= need {
                    effects.push(Effect::add(target_id, HITS, 1));
                    if target.count(HITS) + 1 >= 2 {
                        effects.push(Effect::mark(target_id, DESTROYED));
                        if board
                            .side_units(target.side)
                            .filter(|u| u.in_play())
                            .count()
                            == 1
                        {
                            effects.push(Effect::Ends {
                                winner: Some(opponent(target.side)),
                                reason: "the last enemy unit is destroyed".into(),
                            });
                        }
                    }
                }
            }
        }
        Ok(Resolved {
            effects,
            report: None,
            result: Vec::new(),
        })
    }

    fn category(action: &str) -> Category {
        if action == "shoot" {
            Category::Fire
        } else {
            Category::Command
        }
    }

    fn carry(_started: &BoardUnit, unit: &BoardUnit) -> Option<TableUnit> {
        unit.in_play().then(|| TableUnit {
            id: unit.id.clone(),
            label: unit.label.clone(),
            card: unit.card.clone(),
            counters: unit.counters.clone(),
            marks: Default::default(),
        })
    }

    fn promote(_: &TableUnit) -> Option<TableUnit> {
        None
    }

    fn scripted(_plan: &TablePlan, board: &Board) -> Option<Request> {
        let actions = Self::actions(_plan, board, 1);
        actions
            .iter()
            .find(|a| a.key == "shoot" && a.allowed() && !a.targets.is_empty())
            .map(|a| a.request().target(a.targets[0].clone()))
            .or_else(|| Some(Request::new("end_turn")))
    }
}

type Engine = TableBattle<Duel>;

fn plan() -> TablePlan {
    let card = crate::rules::ruleset(RulesetId::BoltAction).library()[0].clone();
    let unit = |id: &str, label: &str| TableUnit {
        id: id.into(),
        label: label.into(),
        card: card.clone(),
        counters: Default::default(),
        marks: Default::default(),
    };
    TablePlan {
        ruleset: RulesetId::BoltAction,
        number: 1,
        name: "Duel".into(),
        forces: Sides {
            first: "Reds".into(),
            second: "Blues".into(),
        },
        units: Sides {
            first: vec![unit("first-1", "Red 1"), unit("first-2", "Red 2")],
            second: vec![unit("second-1", "Blue 1")],
        },
    }
}

fn shot(unit: &str, target: &str) -> Request {
    Request::new("shoot").unit(unit).target(target)
}

#[test]
fn a_shot_records_its_die_and_what_it_did() {
    let plan = plan();
    let board = Engine::start(&plan, &Sides::default());
    let hit = Engine::decide(
        &plan,
        &board,
        &shot("first-1", "second-1"),
        &Dice::Table(TableDice::new().with("shot", vec![4])),
    )
    .unwrap()
    .event;
    assert_eq!(hit.dice_from, DiceFrom::Table);
    assert_eq!(hit.rolls.len(), 1);
    assert_eq!(hit.rolls[0].pool, "shot");
    assert_eq!(hit.side, Some(Side::First));
    assert!(hit.effects.contains(&Effect::add("second-1", HITS, 1)));
    let miss = Engine::decide(
        &plan,
        &board,
        &shot("first-1", "second-1").with("cover", InputValue::Flag(true)),
        &Dice::Table(TableDice::new().with("shot", vec![4])),
    )
    .unwrap()
    .event;
    assert_eq!(miss.effects, vec![Effect::mark("first-1", "fired")]);
    assert_eq!(miss.params.get("cover"), Some(&Param::Flag(true)));
}

#[test]
fn what_the_rules_refuse_is_said_and_not_recorded() {
    let plan = plan();
    let mut board = Engine::start(&plan, &Sides::default());
    let first =
        Engine::decide(&plan, &board, &shot("first-1", "second-1"), &Dice::Seed(3)).unwrap();
    Engine::apply(&mut board, &first.event);
    let again =
        Engine::decide(&plan, &board, &shot("first-1", "second-1"), &Dice::Seed(4)).unwrap_err();
    assert_eq!(again.to_string(), "Red 1 has fired this turn");
    let friendly =
        Engine::decide(&plan, &board, &shot("first-2", "first-1"), &Dice::Seed(4)).unwrap_err();
    assert!(
        friendly.to_string().contains("cannot be the target"),
        "{friendly}"
    );
    let extra = Engine::decide(
        &plan,
        &board,
        &Request::new("end_turn"),
        &Dice::Table(TableDice::new().with("shot", vec![6])),
    )
    .unwrap_err();
    assert!(
        extra.to_string().contains("given but not rolled"),
        "{extra}"
    );
}

#[test]
fn table_dice_are_asked_for_pool_by_pool() {
    let plan = plan();
    let board = Engine::start(&plan, &Sides::default());
    let (asked, answer) = Engine::pools(
        &plan,
        &board,
        &shot("first-1", "second-1"),
        &TableDice::new(),
    );
    assert_eq!(asked.len(), 1);
    assert_eq!(
        (asked[0].pool, asked[0].sides, asked[0].count),
        ("shot", 6, 1)
    );
    assert!(answer.is_err());
    let (_, answer) = Engine::pools(
        &plan,
        &board,
        &shot("first-1", "second-1"),
        &TableDice::new().with("shot", vec![2]),
    );
    assert!(answer.is_ok());
}

/// Plays the scripted duel to its end, checking every event against its rederivation and a
/// forged copy against it.
fn play(dice: impl Fn(usize, &TableEvent) -> Dice) -> Board {
    let plan = plan();
    let mut board = Engine::start(&plan, &Sides::default());
    for step in 0..50 {
        let Some(request) = (board.outcome.is_none())
            .then(|| Duel::scripted(&plan, &board))
            .flatten()
        else {
            return board;
        };
        let seeded = Engine::decide(&plan, &board, &request, &Dice::Seed(1000 + step as u64))
            .unwrap()
            .event;
        let event = Engine::decide(&plan, &board, &request, &dice(step, &seeded))
            .unwrap()
            .event;
        assert_eq!(Engine::rederive(&plan, &board, &event, 1).unwrap(), event);
        let mut forged = event.clone();
        forged.effects.push(Effect::add("first-1", HITS, -1));
        assert_ne!(Engine::rederive(&plan, &board, &forged, 1).unwrap(), forged);
        // A seeded die changed cannot be the seed's; faces typed at the table are what the
        // players say they rolled, and only their effects are checked against them.
        if event.dice_from == DiceFrom::Battle
            && let Some(first) = forged.rolls.first_mut()
        {
            let mut changed = event.clone();
            changed.rolls[0].roll.dice[0] = if first.roll.dice[0] == 6 { 1 } else { 6 };
            let again = Engine::rederive(&plan, &board, &changed, 1);
            assert!(
                again.is_err() || again.unwrap() != changed,
                "a changed die must show"
            );
        }
        Engine::apply(&mut board, &event);
    }
    panic!("the scripted duel did not end in 50 actions");
}

#[test]
fn a_scripted_battle_ends_and_every_event_verifies_with_either_dice() {
    let seeded = play(|step, _| Dice::Seed(1000 + step as u64));
    assert!(seeded.outcome.is_some());
    // The same battle with the seeded faces typed at the table: the same effects.
    let typed = play(|_, seeded| {
        let mut faces = TableDice::new();
        for r in &seeded.rolls {
            faces.add(&r.pool, r.roll.dice.clone());
        }
        Dice::Table(faces)
    });
    assert_eq!(typed.outcome, seeded.outcome);
    assert_eq!(typed.units, seeded.units);
    for side in SIDES {
        assert_eq!(typed.losses(side), seeded.losses(side));
    }
}

/// Issue 37: the after-action report printed "X: casualties +3; X: pins +1" and an end of
/// turn as one clause per unit over seven lines.
#[test]
fn effects_read_one_clause_a_unit_and_a_change_to_many_units_once() {
    let label = |id: &str| id.to_uppercase();
    let side_name = |side: Side| format!("{side:?}");
    let add = |unit: &str, counter: &str, by: i64| Effect::Add {
        unit: unit.into(),
        counter: counter.into(),
        by,
    };
    let clear = |unit: &str| Effect::Order {
        unit: unit.into(),
        order: None,
    };
    let effects = [
        add("a", "casualties", 3),
        add("a", "pins", 1),
        clear("a"),
        clear("b"),
        clear("c"),
        clear("d"),
        add("b", "pins", -1),
    ];
    assert_eq!(
        effects_in_words(&effects, &label, &side_name),
        [
            "A: casualties +3, pins +1",
            "B: pins -1",
            "no order: 4 units"
        ]
    );
}

#[test]
fn an_event_reads_back_as_written() {
    let plan = plan();
    let board = Engine::start(&plan, &Sides::default());
    let event = Engine::decide(
        &plan,
        &board,
        &shot("first-1", "second-1").with("cover", InputValue::Flag(true)),
        &Dice::Seed(9),
    )
    .unwrap()
    .event;
    let text = serde_json::to_string(&event).unwrap();
    assert_eq!(serde_json::from_str::<TableEvent>(&text).unwrap(), event);
    assert!(
        describe(&plan, &event, numbered).starts_with("Red 1: shoot at Blue 1 (cover)"),
        "{}",
        describe(&plan, &event, numbered)
    );
}

/// Over every ruleset fought on a board: a house default is worded without a "House
/// default:" of its own (the front ends say that), and the experience house rule is listed
/// only where the ruleset has a ladder to climb.
#[test]
fn every_board_rulesets_house_defaults_read_once_and_promise_only_what_it_does() {
    for id in RulesetId::ALL {
        let Ok(engine) = engine(id) else { continue };
        assert!(!engine.rulings.is_empty(), "{id}");
        for ruling in engine.rulings {
            assert!(
                !ruling.ruling.to_lowercase().starts_with("house default"),
                "{id}: {}",
                ruling.ruling
            );
            if !engine.promotes {
                assert!(
                    !ruling.ruling.contains("steps up"),
                    "{id}: {}",
                    ruling.ruling
                );
            }
        }
        assert!(!engine.turn_order.is_empty(), "{id}: how a turn runs");
    }
}
