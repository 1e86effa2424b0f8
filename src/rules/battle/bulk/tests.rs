//! Bulk effects: an end of turn on a 254-unit table recorded under the event cap and
//! replaying to the board the per-unit form gives, events written in the per-unit form (before
//! the bulk form) still verifying, and the cases the compaction must leave alone.

use super::*;
use crate::campaign::merge::MAX_EVENT_BYTES;
use crate::rules::RulesetId;
use crate::rules::battle::big_table;
use crate::rules::battle::board::TablePlan;
use crate::rules::battle::table::{TableEngine, TableEvent, engine};
use crate::rules::battle::{Dice, Request, Sides};
use crate::rules::battle_of_tanks::table_battle as bot;
use crate::rules::bolt_action::table_battle as ba;

/// A Battle of Tanks round played out: every tank with its order flag, some spotted or moved,
/// one in seven waiting in ambush (its flag kept).
fn battle_of_tanks_round_over(plan: &TablePlan, engine: &TableEngine) -> Board {
    let mut board = (engine.start)(plan, &Sides::default());
    for (i, unit) in board.units.iter_mut().enumerate() {
        let order = match i % 7 {
            0 => bot::AMBUSH,
            1 | 2 => bot::MOVE,
            _ => bot::FIRE,
        };
        unit.order = Some(order.to_string());
        if i % 7 == 0 {
            unit.marks.insert(bot::AMBUSHING.to_string());
        }
        if i % 3 == 0 {
            unit.marks.insert(bot::SPOTTED.to_string());
        }
        if order == bot::MOVE {
            unit.marks.insert(bot::MOVED.to_string());
        }
    }
    board
}

/// The same event in the form events were written in before bulk effects: one effect per
/// unit, as the rules decide it again for an event with no bulk effect in it.
fn per_unit_form(
    engine: &TableEngine,
    plan: &TablePlan,
    board: &Board,
    event: &TableEvent,
) -> TableEvent {
    let bare = TableEvent {
        effects: Vec::new(),
        ..event.clone()
    };
    let revision = engine.revision;
    (engine.rederive)(plan, board, &bare, revision).unwrap()
}

fn after(board: &Board, effects: &[Effect]) -> Board {
    board.after(effects)
}

fn bytes(event: &TableEvent) -> usize {
    serde_json::to_string(event).unwrap().len()
}

/// The end of a turn at 254 units, in both forms: the bulk one well under the cap, the
/// per-unit one over it (the issue), both giving the same board and both verifying.
fn check_end_turn(id: RulesetId, turn_over: fn(&TablePlan, &TableEngine) -> Board) {
    let engine = engine(id).unwrap();
    let plan = big_table::plan(id, 127);
    let board = turn_over(&plan, &engine);
    let event = (engine.decide)(&plan, &board, &Request::new("end_turn"), &Dice::Seed(7))
        .unwrap()
        .event;
    let old = per_unit_form(&engine, &plan, &board, &event);
    assert!(
        event
            .effects
            .iter()
            .any(|e| matches!(e, Effect::Every { .. })),
        "{:?}",
        event.effects
    );
    assert!(
        !old.effects
            .iter()
            .any(|e| matches!(e, Effect::Every { .. }))
    );
    // The event's own JSON; the logged event around it (ids, time, seal) adds under 1 KB.
    assert!(
        bytes(&event) < MAX_EVENT_BYTES / 2,
        "{id:?}: {} bytes",
        bytes(&event)
    );
    assert!(
        bytes(&old) > MAX_EVENT_BYTES,
        "{id:?}: {} bytes",
        bytes(&old)
    );
    let replayed = after(&board, &event.effects);
    assert_eq!(replayed, after(&board, &old.effects));
    assert_ne!(replayed, board);
    assert_eq!(replayed.turn, board.turn + 1);
    assert_eq!(
        (engine.rederive)(&plan, &board, &event, engine.revision).unwrap(),
        event
    );
    assert_eq!(
        (engine.rederive)(&plan, &board, &old, engine.revision).unwrap(),
        old
    );
}

/// A Bolt Action turn played out: every die given and every order carried out.
fn bolt_action_turn_over(plan: &TablePlan, engine: &TableEngine) -> Board {
    big_table::turn_over(plan, engine, &big_table::ORDERS_ROUND_THE_TABLE, ba::DONE)
}

#[test]
fn a_bolt_action_turn_end_at_254_units_records_the_rule_under_the_cap() {
    check_end_turn(RulesetId::BoltAction, bolt_action_turn_over);
}

#[test]
fn a_battle_of_tanks_round_end_at_254_units_records_the_rule_under_the_cap() {
    check_end_turn(RulesetId::BattleOfTanks, battle_of_tanks_round_over);
}

/// An end of round as a build before bulk effects wrote it (three tanks a side, one waiting in
/// ambush, two spotted): it reads, verifies and replays as it always did.
#[test]
fn an_end_of_round_in_the_per_unit_form_still_verifies_and_replays() {
    let old = r#"{"action":"end_turn","effects":[
        {"do":"order","unit":"first-2","order":null},{"do":"clear","unit":"first-2","mark":"spotted"},
        {"do":"order","unit":"first-3","order":null},
        {"do":"order","unit":"second-1","order":null},{"do":"clear","unit":"second-1","mark":"moved"},
        {"do":"order","unit":"second-2","order":null},{"do":"clear","unit":"second-2","mark":"spotted"},
        {"do":"order","unit":"second-3","order":null},
        {"do":"next_turn"}],"category":"result"}"#;
    let old: TableEvent = serde_json::from_str(old).unwrap();
    let engine = engine(RulesetId::BattleOfTanks).unwrap();
    let plan = big_table::plan(RulesetId::BattleOfTanks, 3);
    let mut board = (engine.start)(&plan, &Sides::default());
    for unit in &mut board.units {
        unit.order = Some(bot::FIRE.to_string());
    }
    let mark = |board: &mut Board, id: &str, mark: &str| {
        let unit = board.units.iter_mut().find(|u| u.id == id).unwrap();
        unit.marks.insert(mark.to_string());
    };
    mark(&mut board, "first-1", bot::AMBUSHING);
    mark(&mut board, "first-2", bot::SPOTTED);
    mark(&mut board, "second-2", bot::SPOTTED);
    mark(&mut board, "second-1", bot::MOVED);
    assert_eq!(
        (engine.rederive)(&plan, &board, &old, engine.revision).unwrap(),
        old
    );
    let replayed = after(&board, &old.effects);
    assert_eq!(replayed.turn, 2);
    for unit in &replayed.units {
        let waiting = unit.id == "first-1";
        assert_eq!(unit.order.is_some(), waiting, "{}", unit.id);
        assert_eq!(unit.marks.is_empty(), !waiting, "{}", unit.id);
    }
    // Recorded now, the same end of round says the order rule once.
    let new = (engine.decide)(&plan, &board, &Request::new("end_turn"), &Dice::Seed(1))
        .unwrap()
        .event;
    assert_eq!(after(&board, &new.effects), replayed);
    assert!(new.effects.contains(&Effect::Every {
        side: None,
        change: UnitChange::Order { order: None },
        except: vec!["first-1".to_string()],
    }));
}

/// A board of three units a side, each with a `fire` order.
fn small_board() -> Board {
    let plan = big_table::plan(RulesetId::BoltAction, 3);
    let mut board = Board::from_plan(&plan);
    for unit in &mut board.units {
        unit.order = Some("fire".into());
    }
    board
}

#[test]
fn a_change_to_three_units_of_one_side_becomes_one_effect_of_that_side() {
    let board = small_board();
    let effects = vec![
        Effect::order("first-1", None),
        Effect::side_set(Side::First, "drawn", 0),
        Effect::order("first-2", None),
        Effect::order("first-3", None),
    ];
    let compacted = compact(&board, effects.clone());
    assert_eq!(
        compacted,
        vec![
            Effect::Every {
                side: Some(Side::First),
                change: UnitChange::Order { order: None },
                except: Vec::new(),
            },
            Effect::side_set(Side::First, "drawn", 0),
        ]
    );
    assert_eq!(board.after(&compacted), board.after(&effects));
}

#[test]
fn units_the_change_would_change_but_the_rules_left_are_named_as_exceptions() {
    let board = small_board();
    let effects: Vec<Effect> = ["first-1", "first-3", "second-1", "second-2", "second-3"]
        .into_iter()
        .map(|u| Effect::order(u, None))
        .collect();
    let compacted = compact(&board, effects.clone());
    assert_eq!(
        compacted,
        vec![Effect::Every {
            side: None,
            change: UnitChange::Order { order: None },
            except: vec!["first-2".into()],
        }]
    );
    assert_eq!(board.after(&compacted), board.after(&effects));
    assert_eq!(
        compacted[0].describe(&|u| u.to_uppercase(), &|_| String::new()),
        "every unit but FIRST-2: no order"
    );
}

#[test]
fn fewer_than_three_units_or_more_exceptions_than_units_stay_per_unit() {
    let board = small_board();
    let two = vec![
        Effect::order("first-1", None),
        Effect::order("second-1", None),
    ];
    assert_eq!(compact(&board, two.clone()), two);
    // Three units of both sides: the three others it would change are as many to name.
    let effects = vec![
        Effect::set("first-1", "pins", 2),
        Effect::set("first-2", "pins", 2),
        Effect::set("second-1", "pins", 2),
    ];
    assert_eq!(compact(&board, effects.clone()), effects);
}

/// A counter set to 0 where it was never set changes nothing in the bulk form, but the
/// per-unit form writes the 0: such an effect is kept per unit so the boards stay equal.
#[test]
fn a_set_that_changes_nothing_is_kept_as_the_rules_wrote_it() {
    let mut board = small_board();
    for unit in &mut board.units {
        unit.counters.insert("pins".into(), 1);
    }
    board.units[0].counters.remove("pins");
    let effects: Vec<Effect> = board
        .units
        .iter()
        .map(|u| Effect::set(&u.id, "pins", 0))
        .collect();
    let compacted = compact(&board, effects.clone());
    assert_eq!(compacted[0], Effect::set("first-1", "pins", 0));
    assert!(matches!(compacted[1], Effect::Every { .. }));
    assert_eq!(compacted.len(), 2);
    assert_eq!(board.after(&compacted), board.after(&effects));
}

/// A unit the change would change whose same mark another effect sets is named as an
/// exception, so the bulk change does not undo it whichever comes first.
#[test]
fn a_unit_another_effect_touches_the_same_way_is_an_exception() {
    let mut board = small_board();
    let done = ["first-1", "first-2", "first-3", "second-2"];
    for unit in &mut board.units {
        if done.contains(&unit.id.as_str()) {
            unit.marks.insert("done".into());
        }
    }
    let mut effects: Vec<Effect> = done.iter().map(|u| Effect::clear(u, "done")).collect();
    effects.push(Effect::mark("second-1", "done"));
    let compacted = compact(&board, effects.clone());
    assert_eq!(
        compacted[0],
        Effect::Every {
            side: None,
            change: UnitChange::Clear {
                mark: "done".into()
            },
            except: vec!["second-1".into()],
        }
    );
    assert_eq!(compacted.len(), 2);
    assert_eq!(board.after(&compacted), board.after(&effects));
    let mut reversed = compacted.clone();
    reversed.reverse();
    assert_eq!(board.after(&reversed), board.after(&effects));
}

/// Two effects on one thing of one unit depend on their order: nothing is regrouped.
#[test]
fn a_unit_touched_twice_leaves_the_effects_as_they_are() {
    let board = small_board();
    let effects = vec![
        Effect::clear("first-1", "done"),
        Effect::clear("first-2", "done"),
        Effect::clear("first-3", "done"),
        Effect::mark("first-1", "done"),
    ];
    assert_eq!(compact(&board, effects.clone()), effects);
}

#[test]
fn a_bulk_effect_reads_back_from_its_json() {
    let every = Effect::Every {
        side: Some(Side::Second),
        change: UnitChange::Clear {
            mark: "spotted".into(),
        },
        except: Vec::new(),
    };
    let json = serde_json::to_string(&every).unwrap();
    assert_eq!(
        json,
        r#"{"do":"every","side":"german","change":{"do":"clear","mark":"spotted"}}"#
    );
    assert_eq!(serde_json::from_str::<Effect>(&json).unwrap(), every);
}
