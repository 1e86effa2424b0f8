//! Checking a force against its ruleset: every violation, in plain words, with a fix.

use serde::Serialize;

use super::card::Card;
use super::force::{CardRef, Force};
use super::names;
use super::ruleset::line_cost;

pub mod mending;

pub use mending::Removal;

/// The outcome of checking a force.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Validation {
    /// True when there is no violation.
    pub legal: bool,
    pub totals: Totals,
    pub budget: BudgetReport,
    pub violations: Vec<Violation>,
    /// Not illegal, but worth saying (a battle group short of its briefing).
    pub warnings: Vec<String>,
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
    /// Lower several lines at once, when no one line mends the force (`{unit, by}` each).
    ReduceEach(Vec<Removal>),
    /// Replace the card name of line `unit` with `name`.
    Rename { unit: usize, name: String },
    /// Set the stands per unit of line `unit`.
    SetStands { unit: usize, stands: u32 },
}

impl Fix {
    /// Applies the fix to `force` and names it for an undo entry ("Remove 2 T-34-85M");
    /// `None` when it points at a line the force no longer has.
    pub fn apply(&self, force: &mut Force) -> Option<String> {
        match self {
            Fix::Reduce { unit, by } => reduce_lines(
                force,
                &[Removal {
                    unit: *unit,
                    by: *by,
                }],
            ),
            Fix::ReduceEach(removals) => reduce_lines(force, removals),
            Fix::Rename { unit, name } => {
                force.units.get_mut(*unit)?.card = CardRef::Library(name.clone());
                Some(format!("Rename to {name}"))
            }
            Fix::SetStands { unit, stands } => {
                force.units.get_mut(*unit)?.stands = Some(*stands);
                Some(format!("Set {stands} stands"))
            }
        }
    }
}

/// Lowers each named line, removing lines that reach 0 (highest index first, so the other
/// indices stay valid).
fn reduce_lines(force: &mut Force, removals: &[Removal]) -> Option<String> {
    if removals.iter().any(|r| r.unit >= force.units.len()) {
        return None;
    }
    let label = format!("Remove {}", removal_words(force, removals));
    let mut sorted = removals.to_vec();
    sorted.sort_by_key(|r| std::cmp::Reverse(r.unit));
    for Removal { unit, by } in sorted {
        let line = &mut force.units[unit];
        if line.count <= by {
            force.units.remove(unit);
        } else {
            line.count -= by;
        }
    }
    Some(label)
}

/// "2 T-34-85M" or "1 Luchs and 2 T-34-85M".
fn removal_words(force: &Force, removals: &[Removal]) -> String {
    let parts: Vec<String> = removals
        .iter()
        .filter_map(|r| {
            let unit = force.units.get(r.unit)?;
            Some(format!("{} {}", r.by, unit.card.label()))
        })
        .collect();
    match parts.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// "1 point", "12 tier points": `unit` is the plural.
pub fn amount(count: u64, unit: &str) -> String {
    match (count, unit.strip_suffix('s')) {
        (1, Some(one)) => format!("1 {one}"),
        _ => format!("{count} {unit}"),
    }
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
    let library = super::ruleset(force.ruleset).library();
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
    let ruleset = super::ruleset(force.ruleset);
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
                    unit.card.label(),
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
        warnings: ruleset.warnings(force, &cards),
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

/// The standard "over the limit" violation for points-like budgets; its fix removes the
/// fewest units that bring the force within the limit.
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
    let message = format!(
        "Force costs {}: the limit is {limit} — remove {}",
        amount(used, unit),
        amount(over, unit)
    );
    let lines: Vec<(usize, u64, u32)> = per_unit_costs
        .iter()
        .filter_map(|&(i, cost)| Some((i, cost, force.units.get(i)?.count)))
        .collect();
    let removals = mending::fewest_units_removing(&lines, over);
    let fix = match removals.as_slice() {
        [] => return Some(Violation::new("over_budget", message)),
        [one] => Fix::Reduce {
            unit: one.unit,
            by: one.by,
        },
        _ => Fix::ReduceEach(removals.clone()),
    };
    let words = removal_words(force, &removals);
    Some(Violation::new("over_budget", format!("{message} (e.g. {words})")).with_fix(fix))
}

/// Line index and cost of one unit ([`line_cost`]), for each line that has a cost.
pub fn line_costs(force: &Force, cards: &[Option<&Card>]) -> Vec<(usize, u64)> {
    force
        .units
        .iter()
        .zip(cards)
        .enumerate()
        .filter_map(|(i, (unit, card))| Some((i, line_cost((*card)?, unit)?.amount)))
        .collect()
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
