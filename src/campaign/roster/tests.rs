//! The roster between battles, per ruleset fought on a board: what a force musters starts the
//! battle (Belle Epoque's 28 stands are 28), and the change list says only what changes —
//! read off real boards, so nothing drops "→ 0" — with the repairs that clear a mark.

use super::*;
use crate::rules::battle::board::Effect;
use crate::rules::battle::standing::Tone;
use crate::rules::force::ForceUnit;
use crate::rules::resolution::InputValue;

fn force(ruleset: RulesetId, name: &str, lines: Vec<ForceUnit>) -> Force {
    let mut force = Force::new(ruleset, name);
    force.units = lines;
    force
}

fn line(card: &str, count: u32) -> ForceUnit {
    ForceUnit::library(card, count)
}

/// The first battle's plan and its board as the ruleset starts it.
fn first_battle(first: &Force, second: &Force) -> (TableEngine, TablePlan, Board) {
    let plan = first_plan(first.ruleset, 1, "Battle 1", Sides { first, second }, &[]).unwrap();
    let engine = table::engine(first.ruleset).unwrap();
    let board = (engine.start)(&plan, &Sides::default());
    (engine, plan, board)
}

/// The change list once `board` has ended (a draw, so every survivor carries on).
fn changes(engine: &TableEngine, plan: &TablePlan, mut board: Board, promote: u32) -> Vec<String> {
    board.apply(&Effect::Ends {
        winner: None,
        reason: "the players ended it".into(),
    });
    let (_, changes) = next_plan(
        engine,
        plan,
        &board,
        2,
        "Battle 2",
        promote,
        &Sides::default(),
        None,
    )
    .unwrap();
    changes
        .into_iter()
        .map(|c| format!("{}: {}", c.unit, c.change))
        .collect()
}

fn no_drop_to_zero(list: &[String]) {
    for change in list {
        assert!(!change.contains("→ 0"), "{change} in {list:?}");
    }
}

/// Finding 3 of issue #36 (and #34 item 4). Belle Epoque, Mustering and Command points: a
/// force of 28 stands rolls one die per started 8 stands, four, and breaks against 28.
#[test]
fn a_belle_epoque_force_of_28_stands_starts_its_battle_with_28() {
    let mut zulus = line("Zulu Warriors", 4);
    zulus.stands = Some(6);
    let mut regulars = line("Regular Infantry (close order)", 1);
    regulars.stands = Some(4);
    let first = force(RulesetId::BelleEpoque, "Impi", vec![zulus, regulars]);
    let second = force(
        RulesetId::BelleEpoque,
        "Column",
        vec![line("British Regulars", 8)],
    );
    let (engine, plan, board) = first_battle(&first, &second);
    let stands: i64 = board
        .side_units(Side::First)
        .map(|u| u.count(crate::rules::belle_epoque::table_battle::STANDS))
        .sum();
    assert_eq!(stands, 28);
    let command = crate::rules::battle::Request::new("command")
        .side(Side::First)
        .with("general", InputValue::Choice("average"));
    let (asked, _) = (engine.pools)(&plan, &board, &command, &Default::default());
    assert_eq!((asked[0].count, asked[0].sides), (4, 6), "⌈28/8⌉ = 4 d6");
    let standing = (engine.unit_standing)(&plan, board.unit("first-1").unwrap());
    let strength = standing.strength.unwrap();
    assert_eq!((strength.now, strength.full), (6, 6));
}

/// Finding 8 of issue #36: half the stands lost *in the battle* rejoin, never above the
/// mustered number — a unit that lost nothing gains nothing.
#[test]
fn belle_epoque_lists_the_stands_that_rejoin_and_nothing_for_a_unit_untouched() {
    let mut zulus = line("Zulu Warriors", 2);
    zulus.stands = Some(6);
    let first = force(RulesetId::BelleEpoque, "Impi", vec![zulus]);
    let second = force(
        RulesetId::BelleEpoque,
        "Column",
        vec![line("British Regulars", 2)],
    );
    let (engine, plan, mut board) = first_battle(&first, &second);
    board.apply(&Effect::add("first-1", "stands", -3));
    board.apply(&Effect::add("first-1", "fall_back", 2));
    let list = changes(&engine, &plan, board, 0);
    no_drop_to_zero(&list);
    assert_eq!(
        list,
        ["Zulu Warriors 1: stands 3 → 4 between battles"],
        "{list:?}"
    );
    // Battle 2 starts from 4; untouched there, battle 3 starts from 4 again.
    let (next, _) = next_plan(
        &engine,
        &plan,
        &finished((engine.start)(&plan, &Sides::default())),
        2,
        "Battle 2",
        0,
        &Sides::default(),
        None,
    )
    .unwrap();
    let zulu = next.unit("first-1").unwrap().1;
    assert_eq!(
        zulu.counters.get("stands"),
        Some(&6),
        "nothing lost, nothing gained"
    );
}

fn finished(mut board: Board) -> Board {
    board.apply(&Effect::Ends {
        winner: None,
        reason: "over".into(),
    });
    board
}

#[test]
fn bolt_action_lists_casualties_carried_pins_shed_and_the_repaired_vehicle() {
    let first = force(
        RulesetId::BoltAction,
        "Rifles",
        vec![line("Regular Infantry Squad", 1), line("Light Tank", 1)],
    );
    let second = force(
        RulesetId::BoltAction,
        "Grenadiers",
        vec![line("Medium Tank", 1)],
    );
    let (engine, plan, mut board) = first_battle(&first, &second);
    board.apply(&Effect::add("first-1", "casualties", 2));
    board.apply(&Effect::add("first-1", "pins", 3));
    board.apply(&Effect::mark("first-2", "immobilised"));
    let list = changes(&engine, &plan, board, 0);
    no_drop_to_zero(&list);
    assert!(
        list.contains(&"Regular Infantry Squad: casualties 0 → 2, carried".to_string()),
        "{list:?}"
    );
    assert!(
        list.contains(&"Regular Infantry Squad: pins shed (3)".to_string()),
        "{list:?}"
    );
    assert!(
        list.contains(&"Light Tank: immobilised vehicle repaired".to_string()),
        "{list:?}"
    );
    assert_eq!(list.len(), 3, "nothing else changes: {list:?}");
}

#[test]
fn battle_of_tanks_lists_hit_points_restored_and_tracks_repaired() {
    let first = force(RulesetId::BattleOfTanks, "Heavy", vec![line("Tiger I", 1)]);
    let second = force(RulesetId::BattleOfTanks, "Fast", vec![line("IS-2", 1)]);
    let (engine, plan, mut board) = first_battle(&first, &second);
    board.apply(&Effect::add("first-1", "hit_points", -800));
    board.apply(&Effect::mark("first-1", "tracked"));
    let list = changes(&engine, &plan, board, 2);
    no_drop_to_zero(&list);
    assert_eq!(
        list,
        [
            "Tiger I: hit points 600 → 1400 between battles",
            "Tiger I: damaged tracks repaired",
        ]
    );
}

#[test]
fn belloludi_lists_the_chips_mended_and_the_marks_they_clear() {
    let first = force(
        RulesetId::Belloludi,
        "Shermans",
        vec![line("Medium Tank", 1)],
    );
    let second = force(RulesetId::Belloludi, "Panzers", vec![line("Light Tank", 1)]);
    let (engine, plan, mut board) = first_battle(&first, &second);
    board.apply(&Effect::add("first-1", "armour", -3));
    board.apply(&Effect::mark("first-1", "shaken"));
    board.apply(&Effect::mark("first-1", "disordered"));
    let list = changes(&engine, &plan, board, 2);
    no_drop_to_zero(&list);
    assert_eq!(
        list,
        [
            "Medium Tank: armour 2 → 5 between battles",
            "Medium Tank: disorder gone",
            "Medium Tank: no longer shaken",
        ]
    );
}

/// A promoted unit says its new quality in its name, which `show --json` carries as its
/// card; the tank games have no ladder and promote nobody.
#[test]
fn a_promoted_unit_is_named_by_its_new_quality_and_the_tank_games_promote_nobody() {
    let first = force(
        RulesetId::BoltAction,
        "Rifles",
        vec![line("Regular Infantry Squad", 2)],
    );
    let second = force(
        RulesetId::BoltAction,
        "Grenadiers",
        vec![line("MMG Team", 1)],
    );
    let (engine, plan, board) = first_battle(&first, &second);
    assert!(engine.promotes);
    let (next, changes) = next_plan(
        &engine,
        &plan,
        &finished(board),
        2,
        "Battle 2",
        1,
        &Sides::default(),
        None,
    )
    .unwrap();
    let (_, squad) = next.unit("first-1").unwrap();
    assert_eq!(squad.label, "Veteran Infantry Squad 1");
    assert_eq!(squad.card.name(), "Veteran Infantry Squad");
    assert!(
        changes
            .iter()
            .any(|c| c.house_rule && c.change.ends_with("now Veteran Infantry Squad 1")),
        "{changes:?}"
    );
    for ruleset in [RulesetId::BattleOfTanks, RulesetId::Belloludi] {
        assert!(!table::engine(ruleset).unwrap().promotes, "{ruleset}");
    }
}

#[test]
fn the_roster_is_shown_against_its_budget_before_the_next_battle() {
    let mut squads = line("Regular Infantry Squad", 2);
    squads.points = Some(70);
    let mut first = force(RulesetId::BoltAction, "Rifles", vec![squads]);
    first.budget = Budget::Points(500);
    let mut team = line("MMG Team", 1);
    team.points = Some(50);
    let second = force(RulesetId::BoltAction, "Grenadiers", vec![team]);
    let (_, plan, _) = first_battle(&first, &second);
    let budgets = Sides {
        first: Budget::Points(500),
        second: Budget::Points(40),
    };
    assert_eq!(
        budget_lines(&plan, Some(&budgets)),
        [
            (Side::First, "Rifles: 140 of 500 points".to_string()),
            (
                Side::Second,
                "Grenadiers: 50 of 40 points: over budget".to_string()
            ),
        ]
    );
    assert!(budget_lines(&plan, None).is_empty());
}

/// Each board ruleset's standing reads its own words: strength by its noun, marks as badges
/// with their tones.
#[test]
fn every_board_ruleset_shows_a_unit_by_its_strength() {
    let cases = [
        (
            RulesetId::BoltAction,
            "Regular Infantry Squad",
            "models",
            10,
        ),
        (RulesetId::BelleEpoque, "Zulu Warriors", "stands", 4),
        (RulesetId::BattleOfTanks, "Tiger I", "hit points", 1400),
        (RulesetId::Belloludi, "Medium Tank", "armour", 5),
    ];
    for (ruleset, card, noun, full) in cases {
        let first = force(ruleset, "A", vec![line(card, 1)]);
        let second = force(ruleset, "B", vec![line(card, 1)]);
        let (engine, plan, board) = first_battle(&first, &second);
        let standing = (engine.unit_standing)(&plan, board.unit("first-1").unwrap());
        let strength = standing.strength.expect("a strength");
        assert_eq!(
            (strength.noun, strength.now, strength.full),
            (noun, full, full),
            "{ruleset}"
        );
        assert!(
            standing.badges.iter().all(|b| b.tone != Tone::Danger),
            "{ruleset}"
        );
        let turn = (engine.turn_standing)(&plan, &board);
        assert_eq!(turn.turn, 1);
        assert!(!turn.step.is_empty(), "{ruleset}: a next step");
    }
}
