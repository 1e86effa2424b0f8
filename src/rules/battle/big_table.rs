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

/// Orders given in turn round the table (seven units' worth, then again), each with whether
/// the unit has acted on it: one unit in seven Down and one waiting in Ambush keep their dice
/// over the turn's end, the others have fired or advanced.
pub const ORDERS_ROUND_THE_TABLE: [(&str, bool); 7] = [
    ("down", false),
    ("ambush", false),
    ("fire", true),
    ("advance", true),
    ("advance", true),
    ("advance", true),
    ("advance", true),
];

/// A turn played out on `plan`: every unit given its order from `orders` in turn, those that
/// have acted marked `acted`.
pub fn turn_over(
    plan: &TablePlan,
    engine: &TableEngine,
    orders: &[(&str, bool)],
    acted: &str,
) -> Board {
    let mut board = (engine.start)(plan, &Sides::default());
    for (i, unit) in board.units.iter_mut().enumerate() {
        let (order, done) = orders[i % orders.len()];
        unit.order = Some(order.to_string());
        if done {
            unit.marks.insert(acted.to_string());
        }
    }
    board
}
