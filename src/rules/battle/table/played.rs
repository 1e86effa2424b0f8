//! What the board rulesets' tests share: table dice and a plan of the book's cards. (Every
//! ruleset's scripted battle is played and checked once, over the registry: its end within
//! the last turn, seeded and typed dice and forgeries, in `tests/it/battle_registry.rs`.)

use crate::rules::RulesetId;
use crate::rules::battle::board::{TablePlan, TableUnit};
use crate::rules::battle::{Dice, Sides};
use crate::rules::card::Card;
use crate::rules::dice::TableDice;

/// Faces typed at the table, pool by pool.
pub(crate) fn table(pools: &[(&str, Vec<u8>)]) -> Dice {
    let mut dice = TableDice::new();
    for (pool, faces) in pools {
        dice.add(*pool, faces.clone());
    }
    Dice::Table(dice)
}

/// The book card of `ruleset` named `name`.
pub(crate) fn book_card(ruleset: RulesetId, name: &str) -> Card {
    crate::rules::ruleset(ruleset)
        .library()
        .iter()
        .find(|c| c.name() == name)
        .unwrap_or_else(|| panic!("no book card {name}"))
        .clone()
}

/// The book card `name` on the board as `id` (`first-2`), labelled by its name and number.
pub(crate) fn book_unit(ruleset: RulesetId, id: &str, name: &str) -> TableUnit {
    let number = id.rsplit('-').next().unwrap_or(id);
    TableUnit {
        id: id.into(),
        label: format!("{name} {number}"),
        card: book_card(ruleset, name),
        counters: Default::default(),
        marks: Default::default(),
    }
}

/// Battle 1 between the forces named `forces` of the book's cards `first` and `second`, their
/// units `first-1`, `first-2`… and `second-1`….
pub(crate) fn book_plan(
    ruleset: RulesetId,
    forces: [&str; 2],
    first: &[&str],
    second: &[&str],
) -> TablePlan {
    let units = |side: &str, names: &[&str]| {
        let id = |n: usize| format!("{side}-{n}");
        (1..)
            .zip(names)
            .map(|(n, name)| book_unit(ruleset, &id(n), name))
            .collect()
    };
    TablePlan {
        ruleset,
        number: 1,
        name: "Battle 1".into(),
        forces: Sides {
            first: forces[0].into(),
            second: forces[1].into(),
        },
        units: Sides {
            first: units("first", first),
            second: units("second", second),
        },
    }
}
