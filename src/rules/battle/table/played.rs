//! What the board rulesets' tests share: a battle played from the start by the ruleset's own
//! scripted player, an event's dice as the players would type them, and an event with where its
//! dice came from left out (what a seeded and a typed play must agree on).

use super::{TableBattle, TableEvent, TableRules};
use crate::rules::battle::board::{Board, TablePlan};
use crate::rules::battle::{BattleRules, Dice};
use crate::rules::dice::{Source, TableDice};

/// The scripted player's battle from the start, `dice(step)` for each action: every event
/// with the board before it. Panics when it has not ended after `bound` actions.
pub(crate) fn scripted_battle<R: TableRules>(
    plan: &TablePlan,
    bound: usize,
    dice: impl Fn(usize) -> Dice,
) -> Vec<(Board, TableEvent)> {
    let mut board = R::start(plan);
    let mut played = Vec::new();
    while let Some(request) = R::scripted(plan, &board) {
        assert!(
            played.len() < bound,
            "the scripted battle did not end in {bound} actions"
        );
        let event = TableBattle::<R>::decide(plan, &board, &request, &dice(played.len()))
            .unwrap_or_else(|e| panic!("{request:?} refused: {e}"))
            .event;
        let before = board.clone();
        TableBattle::<R>::apply(&mut board, &event);
        played.push((before, event));
    }
    played
}

/// The dice `event` rolled, as the players would type them at the table.
pub(crate) fn table_dice_of(event: &TableEvent) -> Dice {
    let mut dice = TableDice::new();
    for roll in &event.rolls {
        dice.add(roll.pool.clone(), roll.roll.dice.clone());
    }
    Dice::Table(dice)
}

/// `event` without where its dice came from.
pub(crate) fn play_of(event: &TableEvent) -> TableEvent {
    let mut event = event.clone();
    event.dice_from = Default::default();
    for roll in &mut event.rolls {
        roll.roll.source = Source::Seed;
        roll.roll.seed = 0;
        roll.roll.index = 0;
    }
    event
}
