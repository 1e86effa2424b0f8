//! What the board rulesets' tests share: a battle played from the start by the ruleset's own
//! scripted player. (Every ruleset's scripted battle is checked against seeded and typed dice
//! and forgeries once, over the registry: `tests/it/battle_registry.rs`.)

use super::{TableBattle, TableEvent, TableRules};
use crate::rules::battle::board::{Board, TablePlan};
use crate::rules::battle::{BattleRules, Dice};

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
