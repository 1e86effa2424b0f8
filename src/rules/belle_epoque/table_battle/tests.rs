//! Belle Epoque on the board, checked against the book's numbers: command points, the
//! reactivity test, fire, the book's worked assault example, the turn and the battle's end.

use super::*;
use crate::rules::battle::table::played::{book_card, book_plan, table};
use crate::rules::battle::table::{TableBattle, TableEvent, odds_of};
use crate::rules::battle::{BattleRules, Dice, DiceFrom};
use crate::rules::dice::{Source, TableDice};
use crate::rules::resolution::CardPick;

type Battle = TableBattle<BelleEpoqueBattle>;

fn card(name: &str) -> Card {
    book_card(RULESET, name)
}

fn plan(first: &[&str], second: &[&str]) -> TablePlan {
    book_plan(RULESET, ["Zulu impi", "British column"], first, second)
}

const REGULARS: &str = "Regular Infantry (close order)";
const ZULUS: &str = "Zulu Warriors";
const BRITISH: &str = "British Regulars";

/// Two small book forces: a Zulu impi and a British column.
fn encounter() -> TablePlan {
    plan(
        &[ZULUS, ZULUS, "Militia Infantry"],
        &[BRITISH, REGULARS, "Cavalry"],
    )
}

fn act(plan: &TablePlan, board: &mut Board, request: &Request, dice: &Dice) -> TableEvent {
    let event = Battle::decide(plan, board, request, dice)
        .unwrap_or_else(|e| panic!("{request:?}: {e}"))
        .event;
    Battle::apply(board, &event);
    event
}

fn command(side: Side) -> Request {
    Request::new("command")
        .side(side)
        .with("general", InputValue::Choice("average"))
}

fn activate(unit: &str, cps: i64) -> Request {
    Request::new("activate")
        .unit(unit)
        .with("cps", InputValue::Count(cps))
}

/// Both sides have rolled 4 command points (one d6 each: under 8 stands... or more dice).
fn commanded(plan: &TablePlan) -> Board {
    let mut board = Battle::start(plan, &Sides::default());
    for side in SIDES {
        let dice = (side_stands(&board, side) as usize).div_ceil(8);
        act(
            plan,
            &mut board,
            &command(side),
            &table(&[("command", vec![2; dice])]),
        );
    }
    board
}

fn refusal(plan: &TablePlan, board: &Board, request: &Request, dice: &Dice) -> String {
    match Battle::decide(plan, board, request, dice) {
        Err(e) => e.to_string(),
        Ok(d) => panic!("{request:?} was allowed: {:?}", d.event.effects),
    }
}

#[test]
fn units_start_with_their_cards_stands_and_keep_what_the_plan_carries() {
    let mut p = encounter();
    p.units.second[1].counters.insert(STANDS.into(), 2);
    let board = Battle::start(&p, &Sides::default());
    assert_eq!(board.unit("first-1").unwrap().count(STANDS), 4);
    assert_eq!(board.unit("second-1").unwrap().count(STANDS), 3);
    assert_eq!(board.unit("second-2").unwrap().count(STANDS), 2);
    assert_eq!(board.unit("second-3").unwrap().count(STANDS), 3);
}

#[test]
fn command_points_are_one_die_per_started_8_stands_for_this_turn_only() {
    // 4 + 4 + 4 = 12 stands: two d6 for an average general.
    let p = encounter();
    let board = Battle::start(&p, &Sides::default());
    let (pools, _) = Battle::pools(&p, &board, &command(Side::First), &TableDice::new());
    assert_eq!(
        (pools[0].pool, pools[0].sides, pools[0].count),
        ("command", 6, 2)
    );
    let mut board = board;
    let event = act(
        &p,
        &mut board,
        &command(Side::First),
        &table(&[("command", vec![3, 5])]),
    );
    assert_eq!(
        event.effects,
        vec![
            Effect::side_set(Side::First, COMMAND_POINTS, 8),
            Effect::side_set(Side::First, COMMAND_ROLLED, 1),
            // The first roll names the force's general: average, d6.
            Effect::side_set(Side::First, GENERAL, 2),
        ]
    );
    let again = refusal(
        &p,
        &board,
        &command(Side::First),
        &table(&[("command", vec![1, 1])]),
    );
    assert!(again.contains("has rolled its command points"), "{again}");
    // A mediocre general rolls d4s.
    let mediocre = command(Side::Second).with("general", InputValue::Choice("mediocre"));
    let (pools, _) = Battle::pools(&p, &board, &mediocre, &TableDice::new());
    assert_eq!((pools[0].sides, pools[0].count), (4, 2));
    // The end of the turn takes the points left away.
    let end = act(&p, &mut board, &Request::new("end_turn"), &Dice::Seed(1));
    assert!(
        end.effects
            .contains(&Effect::side_set(Side::First, COMMAND_POINTS, 0))
    );
    assert!(end.effects.contains(&Effect::NextTurn));
    assert_eq!(board.turn, 2);
    assert_eq!(board.side_count(Side::First, COMMAND_POINTS), 0);
}

/// Finding 9 of issue #36. RULINGS "Board battles": the general's rating (d4/d6/d8) belongs
/// to the force, set once, not chosen per roll. Book: "Use d4 if mediocre General, d6 if
/// average, or d8 if superior".
#[test]
fn the_general_is_chosen_once_and_every_later_roll_uses_it() {
    let p = encounter();
    let mut board = Battle::start(&p, &Sides::default());
    let superior = command(Side::First).with("general", InputValue::Choice("superior"));
    act(
        &p,
        &mut board,
        &superior,
        &table(&[("command", vec![8, 1])]),
    );
    act(&p, &mut board, &Request::new("end_turn"), &Dice::Seed(1));
    // Turn 2: the force's superior general rolls again, whatever the form says.
    let again = Request::new("command").side(Side::First);
    let (pools, _) = Battle::pools(&p, &board, &again, &TableDice::new());
    assert_eq!(
        (pools[0].sides, pools[0].count),
        (8, 2),
        "d8s, the force's general"
    );
    let mediocre = command(Side::First).with("general", InputValue::Choice("mediocre"));
    let why = refusal(&p, &board, &mediocre, &table(&[("command", vec![1, 1])]));
    assert!(
        why.contains("general: mediocre: the battle decides it") && why.ends_with("it is superior"),
        "{why}"
    );
    let listed = Battle::actions(&p, &board);
    let roll = listed
        .iter()
        .find(|a| a.key == "command" && a.side == Some(Side::First))
        .unwrap();
    assert!(
        roll.fixed
            .contains(&("general", InputValue::Choice("superior")))
    );
    let standing = BelleEpoqueBattle::turn_standing(&p, &board);
    assert!(
        standing
            .stock
            .first
            .iter()
            .any(|t| t.label.contains("superior") && t.now == 8),
        "{:?}",
        standing.stock.first
    );
}

/// Finding 10 of issue #36: the book ends the turn when the bowl is empty; the board does not
/// draw the bowl, so ending a turn with units not activated asks first (a house default the
/// battle lists).
#[test]
fn ending_a_turn_with_units_not_activated_asks_first() {
    let p = encounter();
    let board = Battle::start(&p, &Sides::default());
    let end = Battle::actions(&p, &board)
        .into_iter()
        .find(|a| a.key == "end_turn")
        .unwrap();
    assert!(end.allowed());
    let question = end.confirm.expect("asks first");
    assert!(
        question.contains("not rolled its command points"),
        "{question}"
    );
    assert!(question.contains("units not activated"), "{question}");
    assert!(BelleEpoqueBattle::RULINGS.contains(&BOWL_RULING));
}

#[test]
fn a_reactivity_test_passes_at_or_under_the_basic_score_plus_the_points_spent() {
    let p = encounter();
    let board = Battle::start(&p, &Sides::default());
    let before = refusal(
        &p,
        &board,
        &activate("second-2", 0),
        &table(&[("reactivity", vec![1])]),
    );
    assert!(
        before.contains("has not rolled its command points"),
        "{before}"
    );

    let mut board = commanded(&p);
    // Trained close order: basic score 3; one point spent makes it 4, and a 4 passes.
    let event = act(
        &p,
        &mut board,
        &activate("second-2", 1),
        &table(&[("reactivity", vec![4])]),
    );
    assert_eq!(
        event.effects,
        vec![
            Effect::side_add(Side::Second, COMMAND_POINTS, -1),
            Effect::mark("second-2", ACTIVATED)
        ]
    );
    let twice = refusal(
        &p,
        &board,
        &activate("second-2", 0),
        &table(&[("reactivity", vec![1])]),
    );
    assert!(twice.contains("has been activated this turn"), "{twice}");

    // With no point spent a 4 fails: a basic move only, and no fire.
    let event = act(
        &p,
        &mut board,
        &activate("second-1", 0),
        &table(&[("reactivity", vec![4])]),
    );
    assert!(
        event
            .effects
            .contains(&Effect::mark("second-1", BASIC_MOVE_ONLY))
    );
    let fire = Request::new("fire").unit("second-1").target("first-1");
    let why = refusal(&p, &board, &fire, &table(&[("fire", vec![1, 1, 1])]));
    assert!(why.contains("basic move only"), "{why}");

    // More points than the side has left are refused with how many it has.
    // 10 stands: two d6, both 2 in `commanded`; 1 spent, 3 left.
    let greedy = refusal(
        &p,
        &board,
        &activate("second-3", 4),
        &table(&[("reactivity", vec![1])]),
    );
    assert!(
        greedy.contains("only 3 command points left, not 4"),
        "{greedy}"
    );
    let limit = BelleEpoqueBattle::actions(&p, &board, GENERAL_FIXED)
        .into_iter()
        .find(|a| a.key == "activate" && a.unit.as_deref() == Some("second-3"))
        .unwrap();
    assert_eq!(limit.limit("cps").unwrap().max, 3);
}

#[test]
fn fire_removes_a_stand_per_die_at_or_under_the_to_hit_number() {
    let p = encounter();
    let mut board = commanded(&p);
    let fire = Request::new("fire")
        .unit("second-2")
        .target("first-1")
        .with("range", InputValue::Count(1));
    let early = refusal(&p, &board, &fire, &table(&[("fire", vec![1, 1, 1, 1])]));
    assert!(early.contains("must be activated"), "{early}");
    act(
        &p,
        &mut board,
        &activate("second-2", 0),
        &table(&[("reactivity", vec![1])]),
    );
    // Type B at 1 UD hits on 5 or less against close order in the open: 1, 5 and 3 hit.
    let event = act(&p, &mut board, &fire, &table(&[("fire", vec![1, 5, 6, 3])]));
    assert_eq!(
        event.effects,
        vec![
            Effect::mark("second-2", FIRED),
            Effect::add("first-1", STANDS, -3)
        ]
    );
    assert_eq!(board.unit("first-1").unwrap().count(STANDS), 1);
    let again = refusal(&p, &board, &fire, &table(&[("fire", vec![1, 1, 1, 1])]));
    assert!(again.contains("already fired"), "{again}");
    let assault = Request::new("assault").unit("second-2").target("first-1");
    let no = refusal(
        &p,
        &board,
        &assault,
        &table(&[("attacker", vec![1, 1, 1, 1])]),
    );
    assert!(
        no.contains("only a unit that has not fired may assault"),
        "{no}"
    );
    // A friendly unit is no target.
    let friendly = Request::new("fire").unit("second-1").target("second-2");
    let (_, answer) = Battle::pools(&p, &board, &friendly, &TableDice::new());
    assert!(answer.is_err());
}

#[test]
fn fire_beyond_the_table_is_refused_without_rolling() {
    // Type G has no number at 2 UD.
    let p = encounter();
    let mut board = commanded(&p);
    act(
        &p,
        &mut board,
        &activate("first-1", 0),
        &table(&[("reactivity", vec![1])]),
    );
    let fire = Request::new("fire")
        .unit("first-1")
        .target("second-1")
        .with("range", InputValue::Count(2));
    let why = refusal(&p, &board, &fire, &Dice::Seed(3));
    assert!(why.contains("no to-hit number at 2 UD"), "{why}");
}

#[test]
fn the_books_assault_example_costs_the_british_three_losses_and_breaks_them() {
    // The book: 4 Zulu stands (bold choc) against 3 British close-order regulars. Zulus roll
    // 1 4 5 3 (only the 5 misses: 8), British 4 2 3 (the 4 misses: 5). The British take 3
    // losses: 2 stands and a 1 UD fall back for the even one.
    let p = plan(&[ZULUS], &[BRITISH]);
    let mut board = commanded(&p);
    act(
        &p,
        &mut board,
        &activate("first-1", 0),
        &table(&[("reactivity", vec![2])]),
    );
    let assault = Request::new("assault").unit("first-1").target("second-1");
    let event = act(
        &p,
        &mut board,
        &assault,
        &table(&[("attacker", vec![1, 4, 5, 3]), ("defender", vec![4, 2, 3])]),
    );
    assert_eq!(
        event.effects,
        vec![
            Effect::mark("first-1", ASSAULTED),
            Effect::add("first-1", ASSAULTS_FOUGHT, 1),
            Effect::add("second-1", ASSAULTS_FOUGHT, 1),
            Effect::add("second-1", STANDS, -2),
            Effect::add("second-1", FALL_BACK, 1),
            Effect::Ends {
                winner: Some(Side::First),
                reason: "British column has lost half its stands and breaks".into()
            }
        ]
    );
    assert_eq!(
        Battle::summary(&board).score,
        Some(Sides {
            first: 4,
            second: 1
        })
    );
    let over = refusal(&p, &board, &Request::new("end_turn"), &Dice::Seed(1));
    assert!(over.contains("the battle is over"), "{over}");
}

#[test]
fn a_second_assault_in_a_turn_fights_one_level_lower() {
    let p = plan(&[ZULUS, ZULUS], &[REGULARS, REGULARS]);
    let mut board = commanded(&p);
    for unit in ["first-1", "first-2"] {
        act(
            &p,
            &mut board,
            &activate(unit, 0),
            &table(&[("reactivity", vec![1])]),
        );
    }
    let first = Request::new("assault").unit("first-1").target("second-1");
    // 1 1 1 1 against 1 1 1 1: a tie, one stand each.
    act(
        &p,
        &mut board,
        &first,
        &table(&[("attacker", vec![1; 4]), ("defender", vec![1; 4])]),
    );
    let second = Request::new("assault").unit("first-2").target("second-1");
    let (_, inputs) = BelleEpoqueBattle::situation(&p, &board, &second).unwrap();
    assert_eq!(inputs.count("defender_extra_assaults"), 1);
    assert_eq!(inputs.count("defender_stands"), 3);
    let odds = odds_of(RULESET, "assault", &inputs).unwrap();
    // Close-order regulars at SS 1–3, one level down: 1–2.
    assert_eq!(odds.get("defender_level"), Some(&Value::Count(2)));
    let twice = refusal(&p, &board, &first, &Dice::Seed(1));
    assert!(twice.contains("one a turn"), "{twice}");
}

#[test]
fn the_situation_gives_the_resolve_forms_odds_and_they_match_an_enumeration() {
    let p = encounter();
    let mut board = commanded(&p);
    act(
        &p,
        &mut board,
        &activate("second-2", 0),
        &table(&[("reactivity", vec![1])]),
    );
    let fire = Request::new("fire")
        .unit("second-2")
        .target("first-3")
        .with("range", InputValue::Count(1));
    let (id, inputs) = BelleEpoqueBattle::situation(&p, &board, &fire).unwrap();
    assert_eq!(id.key, "fire");
    let battle = odds_of(RULESET, "fire", &inputs).unwrap();

    // The Resolve form: both cards chosen, range 1, everything else left as it is.
    let m = mechanic(RULESET, "fire").unwrap();
    let mut form = m.defaults();
    form.set(
        "unit",
        InputValue::Card(Some(CardPick::book(&card(REGULARS)))),
    );
    form.set(
        "target",
        InputValue::Card(Some(CardPick::book(&card("Militia Infantry")))),
    );
    form.set("range", InputValue::Count(1));
    let resolve = m.resolve_odds(&form).unwrap();
    assert_eq!(battle.values, resolve.values);
    assert_eq!(battle.distributions, resolve.distributions);

    // Type B at 1 UD: 5 or less, 4 dice; the militia (4 stands) lose none with 6 6 6 6 only.
    let mut none_lost = 0u32;
    let mut all_lost = 0u32;
    for n in 0..6u32.pow(4) {
        let faces: Vec<u32> = (0..4).map(|i| n / 6u32.pow(i) % 6 + 1).collect();
        let hits = faces.iter().filter(|&&f| f <= 5).count();
        none_lost += u32::from(hits == 0);
        all_lost += u32::from(hits == 4);
    }
    let lost = battle.distribution("stands_lost").unwrap();
    let p_of = |value: i64| {
        let i = lost
            .outcomes
            .iter()
            .position(|o| o.value == Some(value))
            .unwrap();
        lost.probability(i)
    };
    assert!((p_of(0) - f64::from(none_lost) / 1296.0).abs() < 1e-12);
    assert!((p_of(4) - f64::from(all_lost) / 1296.0).abs() < 1e-12);
    assert!((p_of(4) - 625.0 / 1296.0).abs() < 1e-12);
}

#[test]
fn pools_are_asked_in_order_and_decide_once_all_are_given() {
    let p = plan(&[ZULUS], &[BRITISH]);
    let mut board = commanded(&p);
    act(
        &p,
        &mut board,
        &activate("first-1", 0),
        &table(&[("reactivity", vec![2])]),
    );
    let assault = Request::new("assault").unit("first-1").target("second-1");
    let (asked, answer) = Battle::pools(&p, &board, &assault, &TableDice::new());
    assert_eq!(
        asked.iter().map(|r| r.pool).collect::<Vec<_>>(),
        ["attacker"]
    );
    assert!(answer.is_err());
    let given = TableDice::new().with("attacker", vec![1, 4, 5, 3]);
    let (asked, answer) = Battle::pools(&p, &board, &assault, &given);
    assert_eq!(
        asked.iter().map(|r| (r.pool, r.count)).collect::<Vec<_>>(),
        [("attacker", 4), ("defender", 3)]
    );
    assert!(answer.is_err());
    let given = given.with("defender", vec![4, 2, 3]);
    let (_, answer) = Battle::pools(&p, &board, &assault, &given);
    assert_eq!(answer.unwrap().event.dice_from, DiceFrom::Table);
}

/// The scripted player's battle from the start: every event, with the board before it.
fn scripted_battle(p: &TablePlan, seed: u64) -> Vec<(Board, TableEvent)> {
    let mut board = Battle::start(p, &Sides::default());
    let mut events = Vec::new();
    while let Some(request) = BelleEpoqueBattle::scripted(p, &board) {
        assert!(events.len() < 400, "the scripted battle did not end");
        let dice = Dice::Seed(seed * 1000 + events.len() as u64);
        let before = board.clone();
        let event = act(p, &mut board, &request, &dice);
        events.push((before, event));
    }
    events
}

/// An event as if its dice had been typed: what differs between the two battles.
fn as_typed(event: &TableEvent) -> TableEvent {
    let mut event = event.clone();
    for r in &mut event.rolls {
        r.roll.seed = 0;
        r.roll.source = Source::Table;
    }
    if !event.rolls.is_empty() {
        event.dice_from = DiceFrom::Table;
    }
    event
}

/// RULINGS (docs/rulings.md, Belle Epoque "Command points: d4 mediocre, d6 average, d8
/// superior General"): the general is the force's, chosen at the first command roll and fixed
/// after. A side whose first roll chose a superior general is rolled for with it by the
/// scripted player too (it asked for an average one, which the battle refuses).
#[test]
fn the_scripted_player_rolls_with_the_general_the_force_chose() {
    let p = encounter();
    let mut board = Battle::start(&p, &Sides::default());
    board.apply(&Effect::side_set(Side::First, GENERAL, 3));
    let request = BelleEpoqueBattle::scripted(&p, &board).unwrap();
    assert_eq!(request.inputs.choice("general"), "superior");
    act(&p, &mut board, &request, &Dice::Seed(3));
}

#[test]
fn a_forged_event_is_not_its_rederivation() {
    let p = encounter();
    let hit = |(_, e): &&(Board, TableEvent)| e.action == "fire" && e.effects.len() > 1;
    let (before, fire) = (1..20)
        .find_map(|seed| scripted_battle(&p, seed).iter().find(hit).cloned())
        .expect("a fire that hit");
    let (before, fire) = (&before, &fire);
    let mut forged = fire.clone();
    if let Some(Effect::Add { by, .. }) = forged.effects.get_mut(1) {
        *by -= 1;
    }
    assert_ne!(
        Battle::rederive(&p, before, &forged, GENERAL_FIXED).unwrap(),
        forged
    );

    // The dice changed on typed dice (every hit made a 6, which always misses): the
    // rederivation reads the new faces and finds no stand lost.
    let mut typed_fire = as_typed(fire);
    for face in &mut typed_fire.rolls[0].roll.dice {
        *face = 6;
    }
    let rederived = Battle::rederive(&p, before, &typed_fire, GENERAL_FIXED);
    assert!(rederived.is_ok_and(|e| e != typed_fire));
}

#[test]
fn carry_keeps_losses_less_half_that_rejoin_and_drops_the_eliminated() {
    let p = encounter();
    let mut board = Battle::start(&p, &Sides::default());
    board.apply(&Effect::add("first-1", STANDS, -3));
    board.apply(&Effect::add("second-1", STANDS, -1));
    board.apply(&Effect::mark("first-1", ACTIVATED));
    board.apply(&Effect::mark("second-2", DESTROYED));
    let start = Battle::start(&p, &Sides::default());
    let carry =
        |id: &str| BelleEpoqueBattle::carry(start.unit(id).unwrap(), board.unit(id).unwrap());
    let zulus = carry("first-1").unwrap();
    // 4 stands, 3 lost: 1 rejoins, 2 go on.
    assert_eq!(zulus.counters.get(STANDS), Some(&2));
    assert!(zulus.marks.is_empty());
    // 3 stands, 1 lost: none rejoins.
    let british = carry("second-1").unwrap();
    assert_eq!(british.counters.get(STANDS), Some(&2));
    let whole = carry("second-3").unwrap();
    assert_eq!(
        whole.counters.get(STANDS),
        start.unit("second-3").unwrap().counters.get(STANDS)
    );
    assert_eq!(carry("second-2"), None);
    // The carried unit starts the next battle with its stands.
    let mut next = encounter();
    next.units.first[0] = zulus;
    let start = Battle::start(&next, &Sides::default());
    assert_eq!(start.unit("first-1").unwrap().count(STANDS), 2);
}

#[test]
fn promotion_climbs_the_reactivity_ladder_and_stops_at_elite() {
    let militia = &encounter().units.first[2];
    let reactivity = |u: &TableUnit| profile(&u.card).unwrap().reactivity;
    assert_eq!(reactivity(militia), Reactivity::Poor);
    let trained = BelleEpoqueBattle::promote(militia).unwrap();
    assert_eq!(reactivity(&trained), Reactivity::Trained);
    let elite = BelleEpoqueBattle::promote(&trained).unwrap();
    assert_eq!(reactivity(&elite), Reactivity::Elite);
    assert_eq!(BelleEpoqueBattle::promote(&elite), None);
    // Elite close order: basic score 4.
    assert_eq!(profile(&elite.card).unwrap().basic_score(), Some(4));
}

#[test]
fn the_battle_ends_after_the_last_turn_with_more_stands_winning() {
    let p = encounter();
    let mut board = Battle::start(&p, &Sides::default());
    board.turn = TURN_LIMIT;
    // 12 Zulu stands, 3 lost: 9 against the British 10.
    board.apply(&Effect::add("first-1", STANDS, -3));
    let event = act(&p, &mut board, &Request::new("end_turn"), &Dice::Seed(1));
    assert!(!event.effects.contains(&Effect::NextTurn));
    let (winner, reason) = board.outcome.clone().unwrap();
    assert_eq!(winner, Some(Side::Second));
    assert!(reason.contains("turn 8 is over"), "{reason}");
}

#[test]
fn params_are_the_mechanics_inputs_the_battle_does_not_fix() {
    let keys = |action| {
        BelleEpoqueBattle::params(action)
            .iter()
            .map(|s| s.key)
            .collect::<Vec<_>>()
    };
    assert_eq!(keys("command"), ["general"]);
    assert_eq!(keys("activate"), ["cps"]);
    assert!(keys("fire").contains(&"range"));
    assert!(!keys("fire").contains(&"target_stands"));
    assert!(keys("assault").contains(&"position"));
    assert!(keys("end_turn").is_empty());
}

/// The unit's card: stands against those mustered, what it did this turn; the turn strip:
/// who rolls command points next, then the bowl.
#[test]
fn the_standing_shows_stands_activation_and_whose_command_roll_is_next() {
    use crate::rules::battle::standing::Tone;
    let p = encounter();
    let mut board = Battle::start(&p, &Sides::default());
    let turn = BelleEpoqueBattle::turn_standing(&p, &board);
    assert_eq!(
        (turn.acting, turn.next),
        (Some(Side::First), Some("command"))
    );
    board.apply(&Effect::add("first-1", STANDS, -1));
    board.apply(&Effect::mark("first-1", ACTIVATED));
    board.apply(&Effect::mark("first-1", BASIC_MOVE_ONLY));
    let zulus = BelleEpoqueBattle::unit_standing(&p, board.unit("first-1").unwrap());
    let strength = zulus.strength.unwrap();
    assert_eq!(
        (strength.now, strength.full, strength.noun),
        (3, 4, "stands")
    );
    assert!(
        zulus
            .badges
            .iter()
            .any(|b| b.label == "Basic move only" && b.tone == Tone::Warning)
    );
}
