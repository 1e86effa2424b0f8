//! BelloLudi Tanks! on the board: the commander die, shots, crashes and rallies for given
//! table dice, the refusals, the odds against the Resolve form's and against dice enumerated
//! here, and what a tank takes into the next battle.
//!
//! The commander die is read from a d20 (RULINGS "Commander die"): 1–4 → 0, 5–9 → 1,
//! 10–14 → 2, 15–19 → 3, 20 → B.

use super::*;
use crate::rules::resolution::CardPick;

fn board_card(card: &Card) -> InputValue {
    InputValue::Card(Some(CardPick::book(card)))
}
use crate::rules::battle::table::played::{book_card, book_plan, table};
use crate::rules::battle::table::{TableBattle, TableEvent, odds_of};
use crate::rules::battle::{BattleRules, Dice};
use crate::rules::dice::TableDice;

type Battle = TableBattle<BelloLudiBattle>;

fn card(name: &str) -> Card {
    book_card(RULESET, name)
}

fn plan(first: &[&str], second: &[&str]) -> TablePlan {
    book_plan(RULESET, ["Allies", "Axis"], first, second)
}

fn decide(plan: &TablePlan, board: &Board, request: &Request, dice: &Dice) -> TableEvent {
    Battle::decide(plan, board, request, dice).unwrap().event
}

fn refusal_of(plan: &TablePlan, board: &Board, request: &Request) -> String {
    Battle::decide(plan, board, request, &Dice::Seed(1))
        .unwrap_err()
        .to_string()
}

fn no_dice() -> Dice {
    Dice::Table(TableDice::new())
}

fn after(board: &Board, event: &TableEvent) -> Board {
    let mut board = board.clone();
    Battle::apply(&mut board, event);
    board
}

fn shoot(unit: &str, target: &str) -> Request {
    Request::new(SHOOT).unit(unit).target(target)
}

/// A board where `side` has rolled `orders` on its commander die.
fn commanded(mut board: Board, side: Side, orders: i64) -> Board {
    board.apply(&Effect::side_set(side, COMMANDED, 1));
    board.apply(&Effect::side_set(side, ORDERS, orders));
    board
}

#[test]
fn start_takes_armour_from_the_card_and_keeps_what_the_plan_carries() {
    let mut p = plan(&["Medium Tank"], &["Heavy Tank"]);
    p.units.second[0].counters.insert(ARMOUR.into(), 4);
    let board = BelloLudiBattle::start(&p);
    assert_eq!(board.unit("first-1").unwrap().count(ARMOUR), 5);
    assert_eq!(board.unit("second-1").unwrap().count(ARMOUR), 4);
}

/// Book 000, Commander dice: the die shows B, 0, 1, 2 or 3; typed as printed, it gives the
/// orders it shows, as the d20 reading of it does.
#[test]
fn the_commander_die_is_typed_as_it_prints() {
    let p = plan(&["Medium Tank"], &["Heavy Tank"]);
    let board = BelloLudiBattle::start(&p);
    let command = Request::new(COMMAND).side(Side::Second);
    let typed = |pools: &[&str]| {
        let mut dice = TableDice::new();
        for pool in pools {
            dice.add_pool(pool).unwrap();
        }
        Dice::Table(dice)
    };
    let two = decide(&p, &board, &command, &typed(&["commander=2"]));
    assert_eq!(two.effects[1], Effect::side_set(Side::Second, ORDERS, 2));
    let blunder = decide(&p, &board, &command, &typed(&["commander=B", "blunder=3"]));
    assert_eq!(
        blunder.effects[1],
        Effect::side_set(Side::Second, ORDERS, 0)
    );
    assert!(Battle::describe(&p, &blunder).contains("commander B"));
    // A d20 player's number above the printed faces reads as the book's d20 table: 17 is 3.
    let d20 = decide(&p, &board, &command, &typed(&["commander=17"]));
    assert_eq!(d20.effects[1], Effect::side_set(Side::Second, ORDERS, 3));
    let (asked, _) = Battle::pools(&p, &board, &command, &TableDice::new());
    assert_eq!(asked[0].dice(), "1 die: 0, 1, 2, 3 or B");
}

#[test]
fn the_commander_die_gives_the_sides_orders_and_a_b_gives_none() {
    let p = plan(&["Medium Tank"], &["Heavy Tank"]);
    let board = BelloLudiBattle::start(&p);
    let command = Request::new(COMMAND).side(Side::Second);
    let two = decide(&p, &board, &command, &table(&[("commander", vec![12])]));
    assert_eq!(
        two.effects,
        vec![
            Effect::side_set(Side::Second, COMMANDED, 1),
            Effect::side_set(Side::Second, ORDERS, 2),
        ]
    );
    // B: a blunder (the blunder table's d6, 3: To the left!) and no order.
    let blunder = table(&[("commander", vec![20]), ("blunder", vec![3])]);
    let b = decide(&p, &board, &command, &blunder);
    assert_eq!(b.effects[1], Effect::side_set(Side::Second, ORDERS, 0));
    let board = after(&board, &two);
    assert!(refusal_of(&p, &board, &command).contains("was rolled this turn"));
}

#[test]
fn a_hit_deals_the_commander_dice_and_shakes_below_half_armour() {
    let p = plan(&["Medium Tank"], &["Light Tank"]);
    let board = BelloLudiBattle::start(&p);
    // 4+ hits; two commander dice read 12 → 2 and 3 → 0: 2 damage, 3 armour → 1 (shaken:
    // below half). A 0 among them: not every die hit, no disorder.
    let dice = table(&[("to_hit", vec![4]), ("damage", vec![12, 3])]);
    let event = decide(&p, &board, &shoot("first-1", "second-1"), &dice);
    assert_eq!(
        event.effects,
        vec![
            Effect::mark("first-1", FIRED),
            Effect::add("second-1", ARMOUR, -2),
            Effect::mark("second-1", SHAKEN),
            Effect::mark("second-1", WAS_SHAKEN),
        ]
    );
    let board = after(&board, &event);
    let again = refusal_of(&p, &board, &shoot("first-1", "second-1"));
    assert!(again.contains("has fired this turn"), "{again}");
}

#[test]
fn all_dice_hitting_disorders_and_a_bullseye_destroys() {
    let p = plan(&["Heavy Tank"], &["Heavy Tank"]);
    let board = BelloLudiBattle::start(&p);
    // Three dice each read 1: 3 damage of 7, every die hit: disorder.
    let dice = table(&[("to_hit", vec![5]), ("damage", vec![5, 6, 7])]);
    let event = decide(&p, &board, &shoot("first-1", "second-1"), &dice);
    assert_eq!(
        event.effects,
        vec![
            Effect::mark("first-1", FIRED),
            Effect::add("second-1", ARMOUR, -3),
            Effect::mark("second-1", DISORDERED),
        ]
    );
    // A disordered tank shoots at −1.
    let board = after(&board, &event);
    let (_, inputs) =
        BelloLudiBattle::situation(&p, &board, &shoot("second-1", "first-1")).unwrap();
    assert!(inputs.flag("shooter_shaken"));
    // A 20 reads B: bullseye, the last enemy tank is destroyed and the battle over.
    let dice = table(&[("to_hit", vec![6]), ("damage", vec![20, 1, 1])]);
    let event = decide(&p, &board, &shoot("second-1", "first-1"), &dice);
    assert_eq!(event.effects[1], Effect::add("first-1", ARMOUR, -7));
    assert_eq!(event.effects[2], Effect::mark("first-1", DESTROYED));
    assert!(matches!(
        event.effects[3],
        Effect::Ends {
            winner: Some(Side::Second),
            ..
        }
    ));
}

#[test]
fn a_crash_costs_an_order_and_each_tank_deals_its_die() {
    let p = plan(&["Medium Tank"], &["Light Tank", "Light Tank"]);
    let board = commanded(BelloLudiBattle::start(&p), Side::First, 1);
    // First tank's die 15 → 3 hits on the Light Tank (3 armour: destroyed); the second's
    // 20 → B: nothing.
    let crash = Request::new(CRASH).unit("first-1").target("second-1");
    let event = decide(&p, &board, &crash, &table(&[("crash", vec![15, 20])]));
    assert_eq!(
        event.effects,
        vec![
            Effect::side_add(Side::First, ORDERS, -1),
            Effect::add("second-1", ARMOUR, -3),
            Effect::mark("second-1", DESTROYED),
        ]
    );
    let board = after(&board, &event);
    assert!(refusal_of(&p, &board, &crash).contains("no order left"));
}

#[test]
fn a_crash_that_takes_the_last_tank_of_each_side_is_a_draw() {
    let p = plan(&["Light Tank"], &["Light Tank"]);
    let board = commanded(BelloLudiBattle::start(&p), Side::First, 1);
    let crash = Request::new(CRASH).unit("first-1").target("second-1");
    // Both dice read 3 (a d20 of 15): three hits each, all of a Light Tank's armour.
    let event = decide(&p, &board, &crash, &table(&[("crash", vec![15, 15])]));
    assert!(matches!(
        event.effects.last(),
        Some(Effect::Ends { winner: None, .. })
    ));
}

#[test]
fn orders_need_the_commander_die_and_a_broken_group_may_only_rally() {
    let mut p = plan(&["Medium Tank", "Light Tank"], &["Heavy Tank"]);
    let board = BelloLudiBattle::start(&p);
    let moving = refusal_of(&p, &board, &Request::new(MOVE).unit("first-1"));
    assert!(moving.contains("roll the commander die first"), "{moving}");
    let board = commanded(board, Side::First, 2);
    let rally = refusal_of(&p, &board, &Request::new(RALLY).unit("first-1"));
    assert!(rally.contains("no chip to remove"), "{rally}");
    // Both tanks shaken: more than half the group is out of the fight.
    p.units.first[0].counters.insert(ARMOUR.into(), 2);
    p.units.first[1].counters.insert(ARMOUR.into(), 1);
    let board = commanded(BelloLudiBattle::start(&p), Side::First, 2);
    let shot = refusal_of(&p, &board, &shoot("first-1", "second-1"));
    assert!(shot.contains("group is broken"), "{shot}");
    let listed = BelloLudiBattle::actions(&p, &board, BROKEN_GROUP_RALLIES);
    assert!(
        listed
            .iter()
            .any(|a| a.key == SHOOT && a.refused.as_deref().is_some_and(|r| r.contains("broken")))
    );
}

#[test]
fn a_rally_removes_one_chip_by_an_order_or_by_the_die_when_broken() {
    let mut p = plan(&["Medium Tank", "Medium Tank"], &["Heavy Tank"]);
    p.units.first[0].counters.insert(ARMOUR.into(), 2);
    p.units.first[0]
        .marks
        .extend([SHAKEN.to_string(), DISORDERED.to_string()]);
    let board = commanded(BelloLudiBattle::start(&p), Side::First, 1);
    let rally = Request::new(RALLY).unit("first-1");
    let event = decide(&p, &board, &rally, &Dice::Seed(3));
    assert!(event.rolls.is_empty());
    assert_eq!(
        event.effects,
        vec![
            Effect::mark("first-1", RALLIED),
            Effect::side_add(Side::First, ORDERS, -1),
            Effect::clear("first-1", DISORDERED),
            Effect::add("first-1", ARMOUR, 1),
            // 3 of 5 is no longer below half.
            Effect::clear("first-1", SHAKEN),
        ]
    );
    // Broken (both shaken): the commander die, 1–3 rallies, 0 does not.
    p.units.first[1].counters.insert(ARMOUR.into(), 2);
    p.units.first[1].marks.insert(SHAKEN.to_string());
    let board = BelloLudiBattle::start(&p);
    let failed = decide(&p, &board, &rally, &table(&[("commander", vec![4])]));
    assert_eq!(failed.effects, vec![Effect::mark("first-1", RALLIED)]);
    let done = decide(&p, &board, &rally, &table(&[("commander", vec![5])]));
    assert_eq!(done.effects[1], Effect::clear("first-1", DISORDERED));
    assert_eq!(done.effects[2], Effect::add("first-1", ARMOUR, 1));
}

#[test]
fn the_turn_ends_a_broken_army_and_the_last_turn_counts_victory_points() {
    let mut p = plan(
        &["Medium Tank", "Light Tank"],
        &["Heavy Tank", "Heavy Tank"],
    );
    let board = commanded(BelloLudiBattle::start(&p), Side::First, 2);
    let end = decide(&p, &board, &Request::new(END_TURN), &Dice::Seed(1));
    assert_eq!(
        end.effects,
        vec![
            Effect::side_set(Side::First, ORDERS, 0),
            Effect::side_set(Side::First, COMMANDED, 0),
            Effect::NextTurn,
        ]
    );
    // The second player's tanks both shaken: broken group, broken army. The first player
    // scores 1 per shaken tank and 2 for the broken group.
    for unit in &mut p.units.second {
        unit.counters.insert(ARMOUR.into(), 3);
        unit.marks.insert(SHAKEN.into());
    }
    let board = BelloLudiBattle::start(&p);
    assert_eq!(BelloLudiBattle::score(&board).unwrap().first, 4);
    // The book's broken group falls back and rallies "in the next turns": the turn ends, the
    // battle goes on (finding 6 of issue #36).
    let end = decide(&p, &board, &Request::new(END_TURN), &Dice::Seed(1));
    assert_eq!(end.effects.last(), Some(&Effect::NextTurn));
    // Still broken when the battle ends: the army is broken and loses.
    let mut last = board.clone();
    last.turn = TURN_LIMIT;
    let end = decide(&p, &last, &Request::new(END_TURN), &Dice::Seed(1));
    assert!(matches!(
        end.effects.last(),
        Some(Effect::Ends {
            winner: Some(Side::First),
            ..
        })
    ));
    // Or it leaves the table first: the players say so, and it loses then.
    let gone = decide(
        &p,
        &board,
        &Request::new(LEAVE_TABLE).side(Side::Second),
        &no_dice(),
    );
    assert!(matches!(
        gone.effects.last(),
        Some(Effect::Ends { winner: Some(Side::First), reason }) if reason.contains("left the table")
    ));
    // A group that is not broken has no such action.
    let why = refusal_of(&p, &board, &Request::new(LEAVE_TABLE).side(Side::First));
    assert!(why.contains("cannot leave table"), "{why}");
}

/// Finding 6 of issue #36. Book 000, Broken Tanks: a broken group rallies "in the next turns"
/// until it has left the table or recovered; the rule that a group still broken at a turn's
/// end loses is revision 1's, kept only to verify what it recorded.
#[test]
fn a_broken_group_rallies_in_the_next_turns_and_recovers() {
    let mut p = plan(&["Medium Tank"], &["Medium Tank", "Medium Tank"]);
    for unit in &mut p.units.second {
        unit.counters.insert(ARMOUR.into(), 2);
        unit.marks.insert(SHAKEN.into());
    }
    let mut board = BelloLudiBattle::start(&p);
    assert!(side_broken(&board, Side::Second));
    let end = decide(&p, &board, &Request::new(END_TURN), &Dice::Seed(1));
    board.apply(&Effect::NextTurn);
    assert_eq!(end.effects.last(), Some(&Effect::NextTurn));
    // Turn 2: a 5 on the d20 reads 1: the rally removes a chip; 3 of 5 is no longer shaken.
    let rally = Request::new(RALLY).unit("second-1");
    let done = decide(&p, &board, &rally, &table(&[("commander", vec![5])]));
    board = after(&board, &done);
    assert!(!board.unit("second-1").unwrap().has(SHAKEN));
    assert!(
        !side_broken(&board, Side::Second),
        "one of two shaken: recovered"
    );
    // Under revision 1 the same turn's end lost the battle.
    let mut broken = BelloLudiBattle::start(&p);
    broken.turn = 1;
    let old = resolve_end_turn(&broken, 1);
    assert!(matches!(old.effects.last(), Some(Effect::Ends { .. })));
}

/// Finding 12 of issue #36. Book 000, Victory: 1 point for each shaken tank; a tank that has
/// been shaken keeps scoring after it rallies (RULINGS "Board battles").
#[test]
fn a_shaken_tank_scores_its_point_once_kept_after_a_rally() {
    let p = plan(&["Medium Tank"], &["Light Tank", "Light Tank"]);
    let mut board = BelloLudiBattle::start(&p);
    // 4+ hits; dice 12 and 3 read 2 and 0: 2 damage, 3 armour → 1: shaken.
    let dice = table(&[("to_hit", vec![4]), ("damage", vec![12, 3])]);
    let hit = decide(&p, &board, &shoot("first-1", "second-1"), &dice);
    board = after(&board, &hit);
    assert_eq!(BelloLudiBattle::score(&board).unwrap().first, 1);
    board.apply(&Effect::add("second-1", ARMOUR, 1));
    board.apply(&Effect::clear("second-1", SHAKEN));
    assert_eq!(
        BelloLudiBattle::score(&board).unwrap().first,
        1,
        "rallied, still scored"
    );
    assert!(BelloLudiBattle::RULINGS.contains(&INITIATIVE_RULING));
}

#[test]
fn the_odds_are_the_resolve_forms_and_match_the_dice_enumerated() {
    let mut p = plan(&["Medium Tank"], &["Light Tank"]);
    p.units.first[0].marks.insert(SHAKEN.into());
    p.units.second[0].counters.insert(ARMOUR.into(), 2);
    let board = BelloLudiBattle::start(&p);
    let request = shoot("first-1", "second-1").with("close", InputValue::Flag(true));
    let (id, inputs) = BelloLudiBattle::situation(&p, &board, &request).unwrap();
    let shown = odds_of(id.ruleset, id.key, &inputs).unwrap();
    let m = mechanic(RULESET, "shooting").unwrap();
    let mut form = m.defaults();
    form.set("shooter", board_card(&card("Medium Tank")));
    form.set("target", board_card(&card("Light Tank")));
    form.set("target_armour", InputValue::Count(2));
    form.set("close", InputValue::Flag(true));
    form.set("shooter_shaken", InputValue::Flag(true));
    assert_eq!(m.answer(&form, None).unwrap(), shown);
    // 4+, +1 close, −1 shaken: 4+; a 1 always misses, a 6 always hits.
    let hits = (1..=6u32).filter(|&f| f == 6 || (f != 1 && f >= 4)).count();
    let expected = hits as f64 / 6.0;
    match shown.get("p_hit") {
        Some(Value::Probability(p)) => assert!((p - expected).abs() < 1e-12, "{p} {expected}"),
        other => panic!("no p_hit: {other:?}"),
    }
}

#[test]
fn pools_are_asked_in_order_and_the_shot_decided_once_given() {
    let p = plan(&["Medium Tank"], &["Light Tank"]);
    let board = BelloLudiBattle::start(&p);
    let request = shoot("first-1", "second-1");
    let (asked, answer) = Battle::pools(&p, &board, &request, &TableDice::new());
    assert_eq!(asked.iter().map(|r| r.pool).collect::<Vec<_>>(), ["to_hit"]);
    assert!(answer.is_err());
    let hit = TableDice::new().with("to_hit", vec![5]);
    let (asked, answer) = Battle::pools(&p, &board, &request, &hit);
    assert_eq!(
        asked
            .iter()
            .map(|r| (r.pool, r.sides, r.count))
            .collect::<Vec<_>>(),
        [("to_hit", 6, 1), ("damage", 20, 2)]
    );
    assert!(answer.is_err());
    let all = hit.with("damage", vec![1, 2]);
    let (_, answer) = Battle::pools(&p, &board, &request, &all);
    assert_eq!(
        answer.unwrap().event.effects,
        vec![Effect::mark("first-1", FIRED)]
    );
}

fn small_forces() -> TablePlan {
    plan(
        &["Sherman", "Light Tank"],
        &["Heavy Tank", "Sd.Kfz. 251/22"],
    )
}

#[test]
fn carry_mends_survivors_and_loses_the_destroyed_and_nothing_is_promoted() {
    let p = small_forces();
    let mut board = BelloLudiBattle::start(&p);
    board.units[0].counters.insert(ARMOUR.into(), 1);
    board.units[0].marks.insert(DISORDERED.into());
    board.units[1].marks.insert(DESTROYED.into());
    let start = BelloLudiBattle::start(&p);
    let kept = BelloLudiBattle::carry(&start.units[0], &board.units[0]).unwrap();
    assert!(kept.counters.is_empty() && kept.marks.is_empty());
    assert!(BelloLudiBattle::carry(&start.units[1], &board.units[1]).is_none());
    assert!(BelloLudiBattle::promote(&kept).is_none());
}

/// The tank's card: armour left, shaken as a warning and broken as a danger, a rallied
/// tank's point kept; the turn strip: each side's victory points and whose die is next.
#[test]
fn the_standing_shows_armour_state_and_victory_points() {
    use crate::rules::battle::standing::Tone;
    let p = plan(&["Medium Tank"], &["Light Tank", "Light Tank"]);
    let mut board = BelloLudiBattle::start(&p);
    board.apply(&Effect::add("second-1", ARMOUR, -2));
    board.apply(&Effect::mark("second-1", SHAKEN));
    board.apply(&Effect::mark("second-1", WAS_SHAKEN));
    let shaken = BelloLudiBattle::unit_standing(&p, board.unit("second-1").unwrap());
    assert_eq!(
        shaken.strength.as_ref().map(|s| (s.now, s.full)),
        Some((1, 3))
    );
    assert!(
        shaken
            .badges
            .iter()
            .any(|b| b.label == "Shaken" && b.tone == Tone::Warning)
    );
    board.apply(&Effect::mark("second-2", BROKEN));
    let broken = BelloLudiBattle::unit_standing(&p, board.unit("second-2").unwrap());
    assert!(
        broken
            .badges
            .iter()
            .any(|b| b.label == "Broken" && b.tone == Tone::Danger)
    );
    board.apply(&Effect::clear("second-1", SHAKEN));
    let rallied = BelloLudiBattle::unit_standing(&p, board.unit("second-1").unwrap());
    assert!(rallied.badges.iter().any(|b| b.label.contains("1 VP")));
    let turn = BelloLudiBattle::turn_standing(&p, &board);
    assert_eq!(turn.next, Some(COMMAND));
    assert!(
        turn.stock
            .first
            .iter()
            .any(|t| t.label == "Victory points" && t.now >= 1)
    );
}
