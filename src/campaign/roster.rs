//! A campaign roster that remembers: the first battle's plan from two saved forces (each unit
//! with what its force line musters: [`TableEngine::muster`]), and each later battle's from
//! how the one before ended — every unit as its ruleset carries it (casualties kept, pins
//! shed, destroyed units gone: [`TableEngine::carry`]) and, by a house rule, a step up the
//! ruleset's quality ladder after surviving enough battles ([`TableEngine::promote`]).
//!
//! The change list between battles is read off real boards: how a unit ended the battle
//! against how it will start the next (the next plan started by its ruleset, so a counter the
//! plan leaves to the card reads as the card gives it, never as 0), plus what the step clears
//! that the ruleset names ([`TableEngine::between_battles`]: pins shed, tracks repaired).
//!
//! Pure: the cards come in resolved (the book's from the ruleset, the player's own handed in
//! by the caller), and the changes come back as a list to show before they are applied.

use std::collections::BTreeMap;

use serde::Serialize;

use super::error::CampaignError;
use crate::rules::battle::board::{Board, BoardUnit, TablePlan, TableUnit};
use crate::rules::battle::table::{self, TableEngine};
use crate::rules::battle::{SIDES, Side, Sides};
use crate::rules::force::{Budget, CardRef, Force, ForceUnit};
use crate::rules::{Card, RulesetId};

/// The counter of battles a unit has survived since it last stepped up (house rule).
pub const BATTLES_SURVIVED: &str = "battles_survived";

/// What a unit cost when it joined the roster (points, tier points), as its force line priced
/// it: what the budget is checked with between battles.
pub const COST: &str = "cost";

/// The roster's own counters: kept by the campaign, never the ruleset's, never shown on the
/// table.
pub const BOOKKEEPING: [&str; 2] = [COST, BATTLES_SURVIVED];

/// A unit bought between battles: its card and what it costs.
#[derive(Debug, Clone, PartialEq)]
pub struct Reinforcement {
    pub card: Card,
    pub cost: Option<u64>,
}

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
            Side::First => "first",
            Side::Second => "second",
        };
        let mut cards: Vec<(Card, Option<u64>, BTreeMap<String, i64>)> = Vec::new();
        let mut inline: Vec<bool> = Vec::new();
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
            let cost = crate::rules::ruleset::line_cost(&card, line).map(|c| c.amount);
            let mustered = mustered(ruleset, &card, line);
            for _ in 0..line.count.max(1) {
                cards.push((card.clone(), cost, mustered.clone()));
                inline.push(matches!(line.card, CardRef::Inline(_)));
            }
        }
        if cards.is_empty() {
            return Err(CampaignError::not_allowed(format!(
                "{} has no units to field",
                force.name
            )));
        }
        let list = units.get_mut(side);
        for (n, (card, cost, mustered)) in cards.iter().enumerate() {
            let same = |c: &&(Card, Option<u64>, BTreeMap<String, i64>)| c.0.name() == card.name();
            let copies = cards.iter().filter(same).count();
            let copy = cards[..=n].iter().filter(same).count();
            // A card written into the force is the player's own, named so everywhere.
            let name = if inline[n] {
                format!("{} · custom", card.name())
            } else {
                card.name().to_string()
            };
            let label = if copies > 1 {
                format!("{name} {copy}")
            } else {
                name
            };
            let mut counters = mustered.clone();
            counters.extend(
                cost.and_then(|c| i64::try_from(c).ok())
                    .map(|c| (COST.to_string(), c)),
            );
            list.push(TableUnit {
                id: format!("{prefix}-{}", n + 1),
                label,
                card: card.clone(),
                counters,
                marks: Default::default(),
            });
        }
    }
    // The table names a unit by its label alone (the log, `--unit`): one both forces field
    // is told apart by its force's name.
    let clashing: Vec<String> = units
        .first
        .iter()
        .filter(|u| units.second.iter().any(|g| g.label == u.label))
        .map(|u| u.label.clone())
        .collect();
    for side in SIDES {
        let force = forces.get(side).name.trim().to_string();
        for unit in units.get_mut(side) {
            if clashing.contains(&unit.label) {
                unit.label = format!("{} ({force})", unit.label);
            }
        }
    }
    Ok(TablePlan {
        ruleset,
        number,
        name: name.trim().to_string(),
        forces: Sides {
            first: forces.first.name.clone(),
            second: forces.second.name.clone(),
        },
        units,
    })
}

/// What a force line musters on each unit it fields, as its ruleset's battle reads the line
/// (Belle Epoque's stands); nothing for a ruleset without a board battle.
fn mustered(ruleset: RulesetId, card: &Card, line: &ForceUnit) -> BTreeMap<String, i64> {
    table::engine(ruleset).map_or_else(|_| BTreeMap::new(), |e| (e.muster)(card, line))
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
#[allow(clippy::too_many_arguments)]
pub fn next_plan(
    engine: &TableEngine,
    plan: &TablePlan,
    board: &Board,
    number: u32,
    name: &str,
    promote_after: u32,
    reinforcements: &Sides<Vec<Reinforcement>>,
    budgets: Option<&Sides<Budget>>,
) -> Result<(TablePlan, Vec<RosterChange>), CampaignError> {
    let mut changes = Vec::new();
    let mut units: Sides<Vec<TableUnit>> = Sides::default();
    let mut promoted: Vec<(String, u32)> = Vec::new();
    // How each unit started this battle (its card's values on top of what it carried).
    let start = (engine.start)(plan, &Sides::default());
    for side in SIDES {
        for unit in board.side_units(side) {
            let started = start.unit(&unit.id).unwrap_or(unit);
            let Some(mut carried) = (engine.carry)(started, unit) else {
                changes.push(RosterChange {
                    side,
                    unit: unit.label.clone(),
                    change: "lost for good".to_string(),
                    house_rule: false,
                });
                continue;
            };
            // The roster's own counters are the campaign's, whatever the ruleset carries.
            let before = plan.unit(&unit.id).map(|(_, u)| u);
            let kept = |key: &str| before.and_then(|u| u.counters.get(key)).copied();
            let survived = kept(BATTLES_SURVIVED).unwrap_or(0) + 1;
            carried
                .counters
                .insert(BATTLES_SURVIVED.to_string(), survived);
            if let Some(cost) = kept(COST) {
                carried.counters.insert(COST.to_string(), cost);
            }
            if engine.promotes
                && promote_after > 0
                && survived >= i64::from(promote_after)
                && let Some(mut stepped) = (engine.promote)(&carried)
            {
                stepped.counters.insert(BATTLES_SURVIVED.to_string(), 0);
                promoted.push((unit.id.clone(), u32::try_from(survived).unwrap_or(0)));
                carried = stepped;
            }
            units.get_mut(side).push(carried);
        }
        add_reinforcements(
            plan,
            side,
            reinforcements.get(side),
            &mut units,
            &mut changes,
        );
        let force = plan.forces.get(side);
        let left = units.get(side);
        if left.is_empty() {
            return Err(CampaignError::not_allowed(format!(
                "{force} has no unit left to field: buy a replacement, or the campaign ends here"
            )));
        }
        if let Some(limit) = budgets.and_then(|b| limit_of(b.get(side))) {
            let spent = spent(left);
            if spent > limit {
                return Err(CampaignError::not_allowed(format!(
                    "{force}'s roster would cost {spent}, over its budget of {limit}: buy less"
                )));
            }
        }
    }
    let next = TablePlan {
        ruleset: plan.ruleset,
        number,
        name: name.trim().to_string(),
        forces: plan.forces.clone(),
        units,
    };
    let next_start = (engine.start)(&next, &Sides::default());
    let mut carried_changes = Vec::new();
    for unit in board.units.iter() {
        let (Some(started), Some(coming)) = (start.unit(&unit.id), next_start.unit(&unit.id))
        else {
            continue;
        };
        let change = |text: String, house_rule: bool| RosterChange {
            side: unit.side,
            unit: unit.label.clone(),
            change: text,
            house_rule,
        };
        for text in unit_changes(engine, started, unit, coming) {
            carried_changes.push(change(text, false));
        }
        if let Some((_, survived)) = promoted.iter().find(|(id, _)| *id == unit.id) {
            let quality = if coming.label == unit.label {
                String::new()
            } else {
                format!(": now {}", coming.label)
            };
            carried_changes.push(change(
                format!(
                    "steps up the quality ladder after {}{quality}",
                    crate::rules::words::plural(
                        u64::from(*survived),
                        "battle survived",
                        "battles survived"
                    )
                ),
                true,
            ));
        }
    }
    // The units carried in the board's order first, then what was lost and bought.
    carried_changes.extend(changes);
    Ok((next, carried_changes))
}

/// What changes for one unit from the end of this battle (`ended`) to the start of the next
/// (`coming`): each counter the next battle starts it with that differs, said against the end
/// ("stands 2 → 3 between battles") or, where nothing changes between the battles, against how
/// it started this one ("casualties 0 → 2, carried"); and what the ruleset says the step
/// clears (pins shed, tracks repaired).
fn unit_changes(
    engine: &TableEngine,
    started: &BoardUnit,
    ended: &BoardUnit,
    coming: &BoardUnit,
) -> Vec<String> {
    let mut texts = Vec::new();
    for (counter, next) in &coming.counters {
        if BOOKKEEPING.contains(&counter.as_str()) {
            continue;
        }
        let words = counter.replace('_', " ");
        let (was, at_end, next) = (started.count(counter), ended.count(counter), *next);
        if next != at_end {
            texts.push(format!("{words} {at_end} → {next} between battles"));
        } else if next != was {
            texts.push(format!("{words} {was} → {next}, carried"));
        }
    }
    for (key, words) in engine.between_battles {
        let mark_cleared = ended.has(key) && !coming.has(key);
        let count = ended.count(key);
        if mark_cleared {
            texts.push((*words).to_string());
        } else if count != 0 && coming.count(key) == 0 && !coming.counters.contains_key(*key) {
            texts.push(format!("{words} ({count})"));
        }
    }
    texts
}

/// What the units of a roster cost together, by their `cost` counters.
fn spent(units: &[TableUnit]) -> i64 {
    units.iter().filter_map(|u| u.counters.get(COST)).sum()
}

/// Each side's roster against its budget, in words ("Rifles: 940 of 1000 points"), for the
/// front ends to show before the next battle is set up; a side whose budget is no sum (a
/// battle group) has no line.
pub fn budget_lines(plan: &TablePlan, budgets: Option<&Sides<Budget>>) -> Vec<(Side, String)> {
    let Some(budgets) = budgets else {
        return Vec::new();
    };
    SIDES
        .into_iter()
        .filter_map(|side| {
            let budget = budgets.get(side);
            let limit = limit_of(budget)?;
            let unit = match budget {
                Budget::TierPoints(_) => "tier points",
                _ => "points",
            };
            let spent = spent(plan.units.get(side));
            let over = if spent > limit { ": over budget" } else { "" };
            Some((
                side,
                format!("{}: {spent} of {limit} {unit}{over}", plan.side_name(side)),
            ))
        })
        .collect()
}

/// The units bought for `side` joined to its roster, fresh, each numbered after the ids and
/// labels already used.
fn add_reinforcements(
    plan: &TablePlan,
    side: Side,
    bought: &[Reinforcement],
    units: &mut Sides<Vec<TableUnit>>,
    changes: &mut Vec<RosterChange>,
) {
    let prefix = match side {
        Side::First => "first",
        Side::Second => "second",
    };
    for bought in bought {
        let list = units.get_mut(side);
        // The units this battle fielded and those bought before this one, each once.
        let mut known: Vec<&TableUnit> = plan.units.get(side).iter().collect();
        known.extend(
            list.iter()
                .filter(|u| !plan.units.get(side).iter().any(|p| p.id == u.id)),
        );
        let next = 1 + known
            .iter()
            .filter_map(|u| u.id.rsplit('-').next()?.parse::<u32>().ok())
            .max()
            .unwrap_or(0);
        let same = known
            .iter()
            .filter(|u| u.card.name() == bought.card.name())
            .count();
        let label = if same > 0 {
            format!("{} {}", bought.card.name(), same + 1)
        } else {
            bought.card.name().to_string()
        };
        changes.push(RosterChange {
            side,
            unit: label.clone(),
            change: match bought.cost {
                Some(cost) => format!("joins as a replacement (cost {cost})"),
                None => "joins as a replacement".to_string(),
            },
            house_rule: false,
        });
        let unit = TableUnit {
            id: format!("{prefix}-{next}"),
            label,
            card: bought.card.clone(),
            counters: bought
                .cost
                .and_then(|c| i64::try_from(c).ok())
                .map(|c| (COST.to_string(), c))
                .into_iter()
                .collect(),
            marks: Default::default(),
        };
        list.push(unit);
    }
}

/// The amount a budget allows, where it is one (a points or tier-point limit; a battle
/// group's or scenario's composition is not a sum).
fn limit_of(budget: &Budget) -> Option<i64> {
    match budget {
        Budget::Points(n) | Budget::TierPoints(n) => Some(i64::from(*n)),
        Budget::ForceOrg(org) => Some(i64::from(org.points)),
        Budget::BattleGroup(_) | Budget::Scenario(_) => None,
    }
}

/// A replacement: the book's card named `name` (or one of the player's own) and its cost —
/// the card's own where the ruleset prices cards, else `points` as given.
///
/// # Errors
/// No such card.
pub fn reinforcement(
    ruleset: RulesetId,
    name: &str,
    points: Option<u64>,
    own_cards: &[Card],
) -> Result<Reinforcement, CampaignError> {
    let card = find_card(ruleset, name, own_cards).ok_or_else(|| {
        CampaignError::not_allowed(format!(
            "no {} card named '{name}' in the book or among your own cards",
            ruleset.title()
        ))
    })?;
    let cost = crate::rules::ruleset(ruleset)
        .unit_cost(&card)
        .map(|c| c.amount)
        .or(points);
    Ok(Reinforcement { card, cost })
}

#[cfg(test)]
mod tests;
