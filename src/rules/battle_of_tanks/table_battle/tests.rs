//! Battle of Tanks on the board: each order's effects for given table dice, the refusals, the
//! odds shown against the Resolve form's and against dice enumerated here, and what a tank
//! takes into the next battle.

use super::*;
use crate::rules::resolution::{CardPick, Value};

fn board_card(card: &Card) -> InputValue {
    InputValue::Card(Some(CardPick::book(card)))
}
use crate::rules::battle::table::played::{book_card, book_plan, table};
use crate::rules::battle::table::{TableBattle, TableEvent, odds_of};
use crate::rules::battle::{BattleRules, Dice};
use crate::rules::dice::TableDice;

type Battle = TableBattle<BattleOfTanksBattle>;

fn card(name: &str) -> Card {
    book_card(RULESET, name)
}

fn plan(first: &[&str], second: &[&str]) -> TablePlan {
    book_plan(RULESET, ["Red", "Blue"], first, second)
}

fn decide(plan: &TablePlan, board: &Board, request: &Request, dice: &Dice) -> TableEvent {
    Battle::decide(plan, board, request, dice).unwrap().event
}

fn refusal_of(plan: &TablePlan, board: &Board, request: &Request) -> String {
    Battle::decide(plan, board, request, &Dice::Seed(1))
        .unwrap_err()
        .to_string()
}

fn fire(unit: &str, target: &str) -> Request {
    Request::new(FIRE).unit(unit).target(target)
}

fn after(board: &Board, event: &TableEvent) -> Board {
    let mut board = board.clone();
    Battle::apply(&mut board, event);
    board
}

#[test]
fn start_takes_hit_points_from_the_card_and_keeps_what_the_plan_carries() {
    let mut p = plan(&["T-34-85M"], &["Tiger I"]);
    p.units.second[0].counters.insert(HIT_POINTS.into(), 900);
    let board = BattleOfTanksBattle::start(&p);
    assert_eq!(board.unit("first-1").unwrap().count(HIT_POINTS), 720);
    assert_eq!(board.unit("second-1").unwrap().count(HIT_POINTS), 900);
    assert_eq!(board.turn, 1);
}

/// The book's example: two shots hit, the penetration dice show K and T: the tracks are
/// damaged and one firepower comes off the hit points.
#[test]
fn fire_k_and_t_damage_the_tracks_and_take_one_firepower() {
    let p = plan(&["Tiger I"], &["Pz.Kpfw. II Luchs"]);
    let board = BattleOfTanksBattle::start(&p);
    // Tiger I: accuracy 2+, fire rate 2, firepower 160. Penetration die read 1–2 blank,
    // 3 K, 4 T, 5–6 W.
    let dice = table(&[("to_hit", vec![3, 5]), ("penetration", vec![3, 4])]);
    let event = decide(&p, &board, &fire("first-1", "second-1"), &dice);
    assert_eq!(
        event.effects,
        vec![
            Effect::order("first-1", Some(FIRE)),
            Effect::add("second-1", HIT_POINTS, -160),
            Effect::mark("second-1", TRACKED),
        ]
    );
    assert_eq!(
        after(&board, &event)
            .unit("second-1")
            .unwrap()
            .count(HIT_POINTS),
        310 - 160
    );
}

#[test]
fn a_one_misses_and_no_penetration_die_is_rolled() {
    let p = plan(&["Tiger I"], &["Pz.Kpfw. II Luchs"]);
    let board = BattleOfTanksBattle::start(&p);
    let event = decide(
        &p,
        &board,
        &fire("first-1", "second-1"),
        &table(&[("to_hit", vec![1, 1])]),
    );
    assert_eq!(event.effects, vec![Effect::order("first-1", Some(FIRE))]);
}

#[test]
fn the_last_tank_destroyed_ends_the_battle() {
    let mut p = plan(&["T-34-85M"], &["Pz.Kpfw. II Luchs"]);
    p.units.second[0].counters.insert(HIT_POINTS.into(), 100);
    let board = BattleOfTanksBattle::start(&p);
    // T-34-85M: accuracy 3+, one shot of firepower 180; W penetrates.
    let dice = table(&[("to_hit", vec![3]), ("penetration", vec![6])]);
    let event = decide(&p, &board, &fire("first-1", "second-1"), &dice);
    assert_eq!(event.effects[1], Effect::add("second-1", HIT_POINTS, -100));
    assert_eq!(event.effects[2], Effect::mark("second-1", DESTROYED));
    assert!(matches!(
        event.effects[3],
        Effect::Ends {
            winner: Some(Side::First),
            ..
        }
    ));
    let board = after(&board, &event);
    assert_eq!(BattleOfTanksBattle::score(&board).unwrap().first, 4);
}

#[test]
fn attack_fires_on_the_move_at_plus_one() {
    let p = plan(&["T-34-85M"], &["Pz.Kpfw. II Luchs"]);
    let board = BattleOfTanksBattle::start(&p);
    let request = Request::new(ATTACK).unit("first-1").target("second-1");
    // 3+ on the move needs a 4: a 3 misses.
    let event = decide(&p, &board, &request, &table(&[("to_hit", vec![3])]));
    assert_eq!(
        event.effects,
        vec![
            Effect::order("first-1", Some(ATTACK)),
            Effect::mark("first-1", MOVED)
        ]
    );
    // A target that moved adds +1 too (RULINGS "Moving target").
    let board = after(&board, &event);
    let (_, inputs) = BattleOfTanksBattle::situation(
        &p,
        &board,
        &Request::new(FIRE).unit("second-1").target("first-1"),
    )
    .unwrap();
    assert!(inputs.flag("target_moving"));
}

#[test]
fn an_ambush_waits_across_the_round_and_fires_once_at_minus_one() {
    let p = plan(&["T-34-85M"], &["Pz.Kpfw. II Luchs"]);
    let board = BattleOfTanksBattle::start(&p);
    let ambush = decide(
        &p,
        &board,
        &Request::new(AMBUSH).unit("first-1"),
        &Dice::Seed(1),
    );
    let board = after(&board, &ambush);
    let moving = refusal_of(&p, &board, &Request::new(MOVE).unit("first-1"));
    assert!(moving.contains("lies in ambush"), "{moving}");
    // The order stone stays beside the ambusher when the round ends.
    let end = decide(&p, &board, &Request::new(END_TURN), &Dice::Seed(1));
    assert_eq!(end.effects, vec![Effect::NextTurn]);
    let board = after(&board, &end);
    // T-34-85M hits on 3+, from ambush on 2+.
    let dice = table(&[("to_hit", vec![2]), ("penetration", vec![1])]);
    let shot = decide(&p, &board, &fire("first-1", "second-1"), &dice);
    assert_eq!(
        shot.effects,
        vec![
            Effect::order("first-1", Some(FIRE)),
            Effect::clear("first-1", AMBUSHING)
        ]
    );
    let board = after(&board, &shot);
    let again = refusal_of(&p, &board, &fire("first-1", "second-1"));
    assert!(again.contains("already has its order"), "{again}");
}

#[test]
fn spotting_marks_the_target_and_lets_it_be_fired_at_in_cover() {
    let p = plan(&["Pz.Kpfw. II Luchs"], &["T-34-85M", "IS-2"]);
    let board = BattleOfTanksBattle::start(&p);
    let heavy = InputValue::Choice("heavy");
    let in_cover = fire("first-1", "second-1").with("cover", heavy.clone());
    assert!(refusal_of(&p, &board, &in_cover).contains("spot it first"));
    // Luchs spots on 1+; heavy cover adds 1 as printed: 2+.
    let spot = Request::new(SPOT)
        .unit("first-1")
        .target("second-1")
        .with("cover", heavy.clone());
    let event = decide(&p, &board, &spot, &table(&[("spotting", vec![2])]));
    assert_eq!(
        event.effects,
        vec![
            Effect::order("first-1", Some(SPOT)),
            Effect::mark("second-1", SPOTTED)
        ]
    );
    // Light cover adds 2: 3+, so a 2 fails.
    let light = spot.clone().with("cover", InputValue::Choice("light"));
    let failed = decide(&p, &board, &light, &table(&[("spotting", vec![2])]));
    assert_eq!(failed.effects, vec![Effect::order("first-1", Some(SPOT))]);
    // Spotted, it may be fired at in cover — by another tank, next round.
    let mut board = after(&board, &event);
    board.units[0].order = None;
    let dice = table(&[("to_hit", vec![1; 10])]);
    assert!(Battle::decide(&p, &board, &in_cover, &dice).is_ok());
}

/// The book's example again, typed as the penetration die prints it: K and T.
#[test]
fn the_penetration_die_is_typed_as_it_prints_k_t_w() {
    let p = plan(&["Tiger I"], &["Pz.Kpfw. II Luchs"]);
    let board = BattleOfTanksBattle::start(&p);
    let mut typed = TableDice::new();
    typed.add_pool("to_hit=3,5").unwrap();
    typed.add_pool("penetration=K,T").unwrap();
    let by_letters = decide(
        &p,
        &board,
        &fire("first-1", "second-1"),
        &Dice::Table(typed),
    );
    let by_numbers = decide(
        &p,
        &board,
        &fire("first-1", "second-1"),
        &table(&[("to_hit", vec![3, 5]), ("penetration", vec![3, 4])]),
    );
    assert_eq!(by_letters.effects, by_numbers.effects, "K, T read as 3, 4");
    let log = Battle::describe(&p, &by_letters);
    assert!(log.contains("penetration K T"), "{log}");
    // A blank typed as a dash, W for the hull.
    let mut typed = TableDice::new();
    typed.add_pool("to_hit=3,5").unwrap();
    typed.add_pool("penetration=-W").unwrap();
    let hull = decide(
        &p,
        &board,
        &fire("first-1", "second-1"),
        &Dice::Table(typed),
    );
    assert_eq!(hull.effects[1], Effect::add("second-1", HIT_POINTS, -160));
    let (asked, _) = Battle::pools(
        &p,
        &board,
        &fire("first-1", "second-1"),
        &TableDice::new().with("to_hit", vec![3, 5]),
    );
    assert_eq!(asked[1].dice(), "2 dice: –, K, T or W");
}

/// Finding 11 of issue #36. Book 002, Aufklärung: the tank tries to spot enemy tanks within
/// sight (plural), each spotted one marked (RULINGS "Board battles").
#[test]
fn a_spotting_order_spots_every_tank_in_sight() {
    let p = plan(&["Pz.Kpfw. II Luchs"], &["T-34-85M", "IS-2"]);
    let mut board = BattleOfTanksBattle::start(&p);
    let heavy = InputValue::Choice("heavy");
    let spot = |target: &str| {
        Request::new(SPOT)
            .unit("first-1")
            .target(target)
            .with("cover", heavy.clone())
    };
    let first = decide(
        &p,
        &board,
        &spot("second-1"),
        &table(&[("spotting", vec![2])]),
    );
    board = after(&board, &first);
    // The same order spots the next tank in sight, one roll each.
    let second = decide(
        &p,
        &board,
        &spot("second-2"),
        &table(&[("spotting", vec![3])]),
    );
    assert!(second.effects.contains(&Effect::mark("second-2", SPOTTED)));
    board = after(&board, &second);
    let listed = BattleOfTanksBattle::actions(&p, &board, SPOT_EVERY_TANK);
    let more = listed
        .iter()
        .find(|a| a.key == SPOT && a.unit.as_deref() == Some("first-1"))
        .unwrap();
    assert!(more.refused.is_some(), "every enemy tank carries a marker");
    // Another order is still refused: a tank takes one order a round.
    let why = refusal_of(&p, &board, &fire("first-1", "second-1"));
    assert!(why.contains("already has its order"), "{why}");
    // Under revision 1 a spotting order spotted one tank.
    let once = after(&BattleOfTanksBattle::start(&p), &first);
    let old = BattleOfTanksBattle::actions(&p, &once, 1);
    let spot_again = old
        .iter()
        .find(|a| a.key == SPOT && a.unit.as_deref() == Some("first-1"))
        .unwrap();
    assert!(spot_again.refused.is_some());
    assert!(BattleOfTanksBattle::RULINGS.contains(&SPOT_RULING));
}

/// Finding 10 of issue #36: the round ends when every order stone is out of the bag; the
/// board does not draw the bag (a house default the battle lists), so ending a round with
/// tanks still waiting asks first.
#[test]
fn ending_a_round_with_tanks_waiting_asks_first() {
    let p = small_forces();
    let board = BattleOfTanksBattle::start(&p);
    let end = Battle::actions(&p, &board)
        .into_iter()
        .find(|a| a.key == END_TURN)
        .unwrap();
    assert!(end.allowed());
    let question = end.confirm.expect("asks first");
    assert!(question.contains("no order yet this round"), "{question}");
    assert!(BattleOfTanksBattle::RULINGS.contains(&BAG_RULING));
    assert!(!BattleOfTanksBattle::TURN_ORDER.is_empty());
}

/// Finding 13 of issue #36: the book's example stops a tracked tank for one round, its
/// Rückzug order repairs tracks; the ruling says which reading the board keeps and why.
#[test]
fn the_tracks_ruling_says_why_a_rueckzug_is_needed() {
    assert!(BattleOfTanksBattle::RULINGS.contains(&TRACKS_RULING));
    assert!(TRACKS_RULING.ruling.contains("one round"));
    assert!(TRACKS_RULING.ruling.contains("Rückzug"));
}

#[test]
fn repair_rolls_against_the_card_and_mends_the_tracks() {
    let mut p = plan(&["Tiger I"], &["T-34-85M"]);
    p.units.first[0].marks.insert(TRACKED.into());
    let board = BattleOfTanksBattle::start(&p);
    let repair = Request::new(REPAIR).unit("first-1");
    // Tiger I repairs on 4+.
    let failed = decide(&p, &board, &repair, &table(&[("repair", vec![3])]));
    assert_eq!(failed.effects, vec![Effect::order("first-1", Some(REPAIR))]);
    let done = decide(&p, &board, &repair, &table(&[("repair", vec![4])]));
    assert_eq!(
        done.effects,
        vec![
            Effect::order("first-1", Some(REPAIR)),
            Effect::clear("first-1", TRACKED),
            Effect::mark("first-1", MOVED),
        ]
    );
}

#[test]
fn refusals_say_why() {
    let mut p = plan(&["Tiger I", "E-25"], &["T-34-85M"]);
    p.units.first[0].marks.insert(TRACKED.into());
    let board = BattleOfTanksBattle::start(&p);
    let moving = refusal_of(&p, &board, &Request::new(MOVE).unit("first-1"));
    assert!(moving.contains("tracks are damaged"), "{moving}");
    let repair = refusal_of(&p, &board, &Request::new(REPAIR).unit("first-2"));
    assert!(repair.contains("tracks are whole"), "{repair}");
    let own = refusal_of(&p, &board, &fire("first-2", "first-1"));
    assert!(own.contains("cannot be the target"), "{own}");
    // One order per tank per round.
    let moved = decide(
        &p,
        &board,
        &Request::new(MOVE).unit("first-2"),
        &Dice::Seed(1),
    );
    let board = after(&board, &moved);
    let again = refusal_of(&p, &board, &fire("first-2", "second-1"));
    assert!(again.contains("already has its order"), "{again}");
    // The refused actions are still listed with their reasons.
    let listed = BattleOfTanksBattle::actions(&p, &board, SPOT_EVERY_TANK);
    let tracked_move = listed
        .iter()
        .find(|a| a.key == MOVE && a.unit.as_deref() == Some("first-1"))
        .unwrap();
    assert!(tracked_move.refused.is_some());
}

#[test]
fn end_turn_clears_the_round_and_the_last_round_decides_by_tier_points() {
    let mut p = plan(&["T-34-85M", "Pz.Kpfw. II Luchs"], &["Tiger I", "T-80"]);
    p.units.second[1].marks.insert(DESTROYED.into());
    let mut board = BattleOfTanksBattle::start(&p);
    board.units[0].order = Some(FIRE.into());
    board.units[2].marks.insert(SPOTTED.into());
    let end = decide(&p, &board, &Request::new(END_TURN), &Dice::Seed(1));
    assert_eq!(
        end.effects,
        vec![
            Effect::order("first-1", None),
            Effect::clear("second-1", SPOTTED),
            Effect::NextTurn
        ]
    );
    board.turn = TURN_LIMIT;
    let last = decide(&p, &board, &Request::new(END_TURN), &Dice::Seed(1));
    // The T-80 (tier 4) is destroyed; nothing of the first player's.
    assert!(matches!(
        last.effects.last(),
        Some(Effect::Ends {
            winner: Some(Side::First),
            ..
        })
    ));
}

#[test]
fn the_odds_are_the_resolve_forms_and_match_the_dice_enumerated() {
    let mut p = plan(&["T-34-85M"], &["Pz.Kpfw. II Luchs"]);
    p.units.second[0].counters.insert(HIT_POINTS.into(), 100);
    let board = BattleOfTanksBattle::start(&p);
    let request = fire("first-1", "second-1");
    let (id, inputs) = BattleOfTanksBattle::situation(&p, &board, &request).unwrap();
    let shown = odds_of(id.ruleset, id.key, &inputs).unwrap();
    // The Resolve form filled by hand: the same cards and 100 hit points left.
    let m = mechanic(RULESET, "fire").unwrap();
    let mut form = m.defaults();
    form.set("attacker", board_card(&card("T-34-85M")));
    let mut entry = ListEntry {
        card: Some(CardPick::book(&card("Pz.Kpfw. II Luchs"))),
        ..ListEntry::default()
    };
    entry.numbers.insert("hit_points", 100);
    form.set("target", InputValue::CardList(vec![entry]));
    assert_eq!(m.answer(&form, None).unwrap(), shown);
    // One shot: the d6 hits on 3+, the penetration die (1–2 blank, 3 K, 4 T, 5–6 W) must
    // show T or W; 180 firepower ends the 100 hit points.
    let mut destroyed = 0;
    for hit in 1..=6u8 {
        for pen in 1..=6u8 {
            destroyed += u32::from(hit >= 3 && pen >= 4);
        }
    }
    let expected = f64::from(destroyed) / 36.0;
    match shown.get("p_destroyed") {
        Some(Value::Probability(p)) => assert!((p - expected).abs() < 1e-12, "{p} {expected}"),
        other => panic!("no p_destroyed: {other:?}"),
    }
}

#[test]
fn pools_are_asked_in_order_and_the_action_decided_once_given() {
    let p = plan(&["Tiger I"], &["Pz.Kpfw. II Luchs"]);
    let board = BattleOfTanksBattle::start(&p);
    let request = fire("first-1", "second-1");
    let (asked, answer) = Battle::pools(&p, &board, &request, &TableDice::new());
    assert_eq!(asked.iter().map(|r| r.pool).collect::<Vec<_>>(), ["to_hit"]);
    assert!(answer.is_err());
    let hits = TableDice::new().with("to_hit", vec![6, 6]);
    let (asked, answer) = Battle::pools(&p, &board, &request, &hits);
    assert_eq!(
        asked.iter().map(|r| r.pool).collect::<Vec<_>>(),
        ["to_hit", "penetration"]
    );
    assert_eq!(asked[1].count, 2);
    assert!(answer.is_err());
    let all = hits.with("penetration", vec![1, 2]);
    let (_, answer) = Battle::pools(&p, &board, &request, &all);
    assert_eq!(
        answer.unwrap().event.effects,
        vec![Effect::order("first-1", Some(FIRE))]
    );
}

fn small_forces() -> TablePlan {
    plan(&["T-34-85M", "Pz.Kpfw. II Luchs"], &["Tiger I", "T-80"])
}

#[test]
fn carry_repairs_survivors_and_loses_the_destroyed_and_nothing_is_promoted() {
    let p = small_forces();
    let mut board = BattleOfTanksBattle::start(&p);
    board.units[0].counters.insert(HIT_POINTS.into(), 20);
    board.units[0].marks.insert(TRACKED.into());
    board.units[1].marks.insert(DESTROYED.into());
    let start = BattleOfTanksBattle::start(&p);
    let kept = BattleOfTanksBattle::carry(&start.units[0], &board.units[0]).unwrap();
    assert!(kept.counters.is_empty() && kept.marks.is_empty());
    assert_eq!(kept.card, p.units.first[0].card);
    assert!(BattleOfTanksBattle::carry(&start.units[1], &board.units[1]).is_none());
    assert!(BattleOfTanksBattle::promote(&kept).is_none());
}

/// The tank's card: hit points against its card's, damaged tracks and a spot marker as
/// warnings; the round strip: the order stones still in each side's bag.
#[test]
fn the_standing_shows_hit_points_tracks_and_the_stones_left() {
    use crate::rules::battle::standing::Tone;
    let p = small_forces();
    let mut board = BattleOfTanksBattle::start(&p);
    let id = board.units[0].id.clone();
    board.apply(&Effect::add(&id, HIT_POINTS, -100));
    board.apply(&Effect::mark(&id, TRACKED));
    board.apply(&Effect::mark(&id, SPOTTED));
    let tank = BattleOfTanksBattle::unit_standing(&p, board.unit(&id).unwrap());
    let strength = tank.strength.unwrap();
    assert_eq!(strength.full - strength.now, 100);
    assert_eq!(strength.noun, "hit points");
    for label in ["Tracks damaged", "Spotted"] {
        assert!(
            tank.badges
                .iter()
                .any(|b| b.label == label && b.tone == Tone::Warning),
            "{label}"
        );
    }
    let round = BattleOfTanksBattle::turn_standing(&p, &board);
    assert_eq!(round.turn_word, "Round");
    let stones = i64::try_from(p.units.first.len()).unwrap();
    assert_eq!(round.stock.first[0].now, stones);
}
