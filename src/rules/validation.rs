//! Checking a force against its ruleset: every violation, in plain words, with a fix.

use serde::Serialize;

use super::card::Card;
use super::force::{CardRef, Force};
use super::names;
use super::registry;

/// The outcome of checking a force.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Validation {
    /// True when there is no violation.
    pub legal: bool,
    pub totals: Totals,
    pub budget: BudgetReport,
    pub violations: Vec<Violation>,
}

/// What the force adds up to. Only the totals meaningful for its ruleset are present.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    pub units: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tier_points: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stands: Option<u64>,
    /// Belle Epoque: command dice rolled each turn (one per started 8 stands).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command_dice: Option<u64>,
}

/// The budget as checked: what was used against which limit.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct BudgetReport {
    /// `points`, `tier_points`, `battle_group` or `scenario`.
    pub kind: &'static str,
    /// Battle group or scenario id, when the budget names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Points, tier points, units or stands used.
    pub used: u64,
    /// Lowest allowed total, where there is one (a scenario's minimum stands).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<u64>,
    /// Highest allowed total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// What `used` counts ("points", "units", "stands").
    pub unit: &'static str,
}

impl BudgetReport {
    /// True when `used` is above the limit.
    pub fn is_over(&self) -> bool {
        self.limit.is_some_and(|limit| self.used > limit)
    }
}

/// One broken rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// Stable id of the rule (`over_budget`, `composition`, `unknown_card`, …).
    pub rule: &'static str,
    /// The whole story in plain words, with the suggested fix.
    pub message: String,
    /// A change that would mend it, where one is obvious.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<Fix>,
}

impl Violation {
    pub fn new(rule: &'static str, message: impl Into<String>) -> Self {
        Violation {
            rule,
            message: message.into(),
            fix: None,
        }
    }

    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }
}

/// A one-click mend for a violation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fix {
    /// Lower the count of the unit line at `unit` (0-based) by `by`; a line at 0 goes.
    Reduce { unit: usize, by: u32 },
    /// Replace the card name of line `unit` with `name`.
    Rename { unit: usize, name: String },
    /// Set the stands per unit of line `unit`.
    SetStands { unit: usize, stands: u32 },
}

/// A ruleset's verdict on the budget of a force whose cards are resolved.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BudgetCheck {
    pub totals: Totals,
    pub budget: BudgetReport,
    pub violations: Vec<Violation>,
}

/// Resolves each unit's card: the library card it names, its inline card, or `None` when the
/// name is unknown or the card belongs to another ruleset.
pub fn resolve_cards(force: &Force) -> Vec<Option<&Card>> {
    let library = registry::ruleset(force.ruleset).library();
    force
        .units
        .iter()
        .map(|unit| match &unit.card {
            CardRef::Library(name) => names::find(library, name),
            CardRef::Inline(card) => (card.ruleset() == force.ruleset).then_some(card),
        })
        .collect()
}

/// Checks `force` against its ruleset and returns every violation.
pub fn validate(force: &Force) -> Validation {
    let ruleset = registry::ruleset(force.ruleset);
    let cards = resolve_cards(force);
    let mut violations = Vec::new();
    for (index, (unit, card)) in force.units.iter().zip(&cards).enumerate() {
        if card.is_some() {
            continue;
        }
        violations.push(match &unit.card {
            CardRef::Library(name) => unknown_card(ruleset.library(), force, index, name),
            CardRef::Inline(card) => Violation::new(
                "wrong_ruleset",
                format!(
                    "{}: a {} card cannot join a {} force — remove it",
                    card.name(),
                    card.ruleset().title(),
                    force.ruleset.title()
                ),
            )
            .with_fix(Fix::Reduce {
                unit: index,
                by: unit.count,
            }),
        });
    }
    let check = ruleset.check_budget(force, &cards);
    violations.extend(check.violations);
    Validation {
        legal: violations.is_empty(),
        totals: check.totals,
        budget: check.budget,
        violations,
    }
}

fn unknown_card(library: &[Card], force: &Force, index: usize, name: &str) -> Violation {
    let suggestions = names::nearest(library, name);
    let hint = match suggestions.as_slice() {
        [] => "check the spelling or add it as a custom card".to_string(),
        [one] => format!("did you mean {one}?"),
        many => format!("did you mean one of: {}?", many.join(", ")),
    };
    let violation = Violation::new(
        "unknown_card",
        format!("{name}: no such {} card — {hint}", force.ruleset.title()),
    );
    match suggestions.into_iter().next() {
        Some(best) => violation.with_fix(Fix::Rename {
            unit: index,
            name: best,
        }),
        None => violation,
    }
}

/// For a force `over` its limit, the unit line whose single removal mends it at least cost:
/// the cheapest line costing at least `over`, else the dearest line.
pub fn cheapest_mending_removal(costs: &[(usize, u64)], over: u64) -> Option<usize> {
    costs
        .iter()
        .filter(|(_, cost)| *cost >= over)
        .min_by_key(|(_, cost)| *cost)
        .or_else(|| costs.iter().max_by_key(|(_, cost)| *cost))
        .map(|(index, _)| *index)
}

/// The standard "over the limit" violation for points-like budgets.
pub fn over_budget(
    force: &Force,
    per_unit_costs: &[(usize, u64)],
    used: u64,
    limit: u64,
    unit: &str,
) -> Option<Violation> {
    if used <= limit {
        return None;
    }
    let over = used - limit;
    let message = format!("Force costs {used} {unit}: the limit is {limit} — remove {over} {unit}");
    let Some(index) = cheapest_mending_removal(per_unit_costs, over) else {
        return Some(Violation::new("over_budget", message));
    };
    let name = force.units[index].card.name();
    Some(
        Violation::new("over_budget", format!("{message} (e.g. 1 {name})"))
            .with_fix(Fix::Reduce { unit: index, by: 1 }),
    )
}

/// The violation for a budget kind the ruleset does not use.
pub fn wrong_budget_kind(force: &Force, expected: &str) -> Violation {
    Violation::new(
        "budget_kind",
        format!(
            "{} forces are built against {expected}, not {}",
            force.ruleset.title(),
            force.budget.kind().replace('_', " ")
        ),
    )
}

/// Checks a force priced per unit line (`costs`: line index and cost of one unit) against a
/// points-like `limit`; `None` means the force's budget is of the wrong kind (`expected`).
pub fn check_cost_budget(
    force: &Force,
    costs: &[(usize, u64)],
    limit: Option<u32>,
    unit: &'static str,
    expected: &str,
) -> (u64, BudgetReport, Vec<Violation>) {
    let used: u64 = costs
        .iter()
        .map(|(i, cost)| cost * u64::from(force.units[*i].count))
        .sum();
    let mut budget = BudgetReport {
        kind: force.budget.kind(),
        used,
        unit,
        ..BudgetReport::default()
    };
    let violations = match limit {
        Some(limit) => {
            budget.limit = Some(u64::from(limit));
            over_budget(force, costs, used, u64::from(limit), unit)
                .into_iter()
                .collect()
        }
        None => vec![wrong_budget_kind(force, expected)],
    };
    (used, budget, violations)
}
