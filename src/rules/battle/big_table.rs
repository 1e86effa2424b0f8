//! A battle the size of a club's whole table (a few hundred units), for the benchmarks and
//! the tests that check cost follows what an action touched, not the units on the table: one
//! builder both use, so they measure and check the same battle.

use std::collections::BTreeSet;

use super::Sides;
use super::board::{Board, TablePlan, TableUnit};
use super::table::TableEngine;
use crate::rules::RulesetId;
use crate::rules::registry::ruleset;

/// `per_side` units a side, cycling through the first cards of the ruleset's book.
pub fn plan(id: RulesetId, per_side: usize) -> TablePlan {
    let library = ruleset(id).library();
    let side = |prefix: &str| -> Vec<TableUnit> {
        (0..per_side)
            .map(|i| {
                let card = library[i % library.len().min(6)].clone();
                TableUnit {
                    id: format!("{prefix}-{}", i + 1),
                    label: format!("{} {}", card.name(), i + 1),
                    card,
                    counters: Default::default(),
                    marks: BTreeSet::new(),
                }
            })
            .collect()
    };
    TablePlan {
        ruleset: id,
        number: 1,
        name: "Big table".into(),
        forces: Sides {
            first: "Allies".into(),
            second: "Axis".into(),
        },
        units: Sides {
            first: side("first"),
            second: side("second"),
        },
    }
}

/// A Bolt Action turn played out on `plan`: every die given and every order carried out, a
/// unit in seven Down and one in seven waiting in Ambush (their dice kept over the turn's end).
pub fn bolt_action_turn_over(plan: &TablePlan, engine: &TableEngine) -> Board {
    let mut board = (engine.start)(plan, &Sides::default());
    for (i, unit) in board.units.iter_mut().enumerate() {
        let (order, done) = match i % 7 {
            0 => ("down", false),
            1 => ("ambush", false),
            2 => ("fire", true),
            _ => ("advance", true),
        };
        unit.order = Some(order.to_string());
        if done {
            unit.marks
                .insert(crate::rules::bolt_action::table_battle::DONE.to_string());
        }
    }
    board
}
