//! A campaign roster that remembers: the first battle's plan from two saved forces, and each
//! later battle's from how the one before ended — every unit as its ruleset carries it
//! (casualties kept, pins shed, destroyed units gone: [`TableEngine::carry`]) and, by a house
//! rule, a step up the ruleset's quality ladder after surviving enough battles
//! ([`TableEngine::promote`]).
//!
//! Pure: the cards come in resolved (the book's from the ruleset, the player's own handed in
//! by the caller), and the changes come back as a list to show before they are applied.

use serde::Serialize;

use super::error::CampaignError;
use crate::rules::battle::board::{Board, TablePlan, TableUnit};
use crate::rules::battle::table::TableEngine;
use crate::rules::battle::{SIDES, Side, Sides};
use crate::rules::force::{CardRef, Force};
use crate::rules::{Card, RulesetId};

/// The counter of battles a unit has survived since it last stepped up (house rule).
pub const BATTLES_SURVIVED: &str = "battles_survived";

/// House rule: battles survived for a unit to step up its ruleset's quality ladder.
pub const DEFAULT_PROMOTE_AFTER: u32 = 2;

/// One change the step between battles makes to a unit, in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RosterChange {
    pub side: Side,
    pub unit: String,
    pub change: String,
    /// Made by the house rule on experience, not the book.
    pub house_rule: bool,
}

/// The first battle of a campaign between two saved forces: each force's units, one per copy,
/// with their cards ("Rifle Squad 1", "Rifle Squad 2").
///
/// # Errors
/// A force of another ruleset, or a card neither the book nor the player's own cards have.
pub fn first_plan(
    ruleset: RulesetId,
    number: u32,
    name: &str,
    forces: Sides<&Force>,
    own_cards: &[Card],
) -> Result<TablePlan, CampaignError> {
    let mut units: Sides<Vec<TableUnit>> = Sides::default();
    for side in SIDES {
        let force = forces.get(side);
        if force.ruleset != ruleset {
            return Err(CampaignError::not_allowed(format!(
                "{} is a {} force; this campaign plays {}",
                force.name,
                force.ruleset.title(),
                ruleset.title()
            )));
        }
        let prefix = match side {
            Side::Us => "first",
            Side::German => "second",
        };
        let mut cards: Vec<Card> = Vec::new();
        for line in &force.units {
            let card = match &line.card {
                CardRef::Inline(card) => card.clone(),
                CardRef::Library(wanted) => {
                    find_card(ruleset, wanted, own_cards).ok_or_else(|| {
                        CampaignError::not_allowed(format!(
                            "{}: no card named '{wanted}' in the book or among your own cards",
                            force.name
                        ))
                    })?
                }
            };
            for _ in 0..line.count.max(1) {
                cards.push(card.clone());
            }
        }
        if cards.is_empty() {
            return Err(CampaignError::not_allowed(format!(
                "{} has no units to field",
                force.name
            )));
        }
        let list = units.get_mut(side);
        for (n, card) in cards.iter().enumerate() {
            let copies = cards.iter().filter(|c| c.name() == card.name()).count();
            let copy = cards[..=n]
                .iter()
                .filter(|c| c.name() == card.name())
                .count();
            let label = if copies > 1 {
                format!("{} {copy}", card.name())
            } else {
                card.name().to_string()
            };
            list.push(TableUnit {
                id: format!("{prefix}-{}", n + 1),
                label,
                card: card.clone(),
                counters: Default::default(),
                marks: Default::default(),
            });
        }
    }
    Ok(TablePlan {
        ruleset,
        number,
        name: name.trim().to_string(),
        forces: Sides {
            us: forces.us.name.clone(),
            german: forces.german.name.clone(),
        },
        units,
    })
}

/// The book's card named `name`, else the player's own.
fn find_card(ruleset: RulesetId, name: &str, own: &[Card]) -> Option<Card> {
    let folded = crate::rules::names::fold(name);
    crate::rules::ruleset(ruleset)
        .library()
        .iter()
        .chain(own.iter().filter(|c| c.ruleset() == ruleset))
        .find(|c| crate::rules::names::fold(c.name()) == folded)
        .cloned()
}

/// The next battle's plan from how `board` left the battle of `plan`: every unit as its
/// ruleset carries it, and (house rule) one step up the quality ladder after `promote_after`
/// battles survived (0: never). With the changes in words, to show before applying them.
pub fn next_plan(
    engine: &TableEngine,
    plan: &TablePlan,
    board: &Board,
    number: u32,
    name: &str,
    promote_after: u32,
) -> (TablePlan, Vec<RosterChange>) {
    let mut changes = Vec::new();
    let mut units: Sides<Vec<TableUnit>> = Sides::default();
    for side in SIDES {
        for unit in board.side_units(side) {
            let change = |text: String, house_rule: bool| RosterChange {
                side,
                unit: unit.label.clone(),
                change: text,
                house_rule,
            };
            let Some(mut carried) = (engine.carry)(unit) else {
                changes.push(change("lost for good".to_string(), false));
                continue;
            };
            let before = plan.unit(&unit.id).map(|(_, u)| u);
            for (counter, value) in &carried.counters {
                if counter == BATTLES_SURVIVED {
                    continue;
                }
                let was = before
                    .and_then(|u| u.counters.get(counter))
                    .copied()
                    .unwrap_or(0);
                if *value != was {
                    changes.push(change(
                        format!("{} {was} → {value}", counter.replace('_', " ")),
                        false,
                    ));
                }
            }
            let survived = before
                .and_then(|u| u.counters.get(BATTLES_SURVIVED))
                .copied()
                .unwrap_or(0)
                + 1;
            carried
                .counters
                .insert(BATTLES_SURVIVED.to_string(), survived);
            if promote_after > 0
                && survived >= i64::from(promote_after)
                && let Some(mut promoted) = (engine.promote)(&carried)
            {
                promoted.counters.insert(BATTLES_SURVIVED.to_string(), 0);
                changes.push(change(
                    format!("steps up the quality ladder after {survived} battles survived"),
                    true,
                ));
                carried = promoted;
            }
            units.get_mut(side).push(carried);
        }
    }
    (
        TablePlan {
            ruleset: plan.ruleset,
            number,
            name: name.trim().to_string(),
            forces: plan.forces.clone(),
            units,
        },
        changes,
    )
}
