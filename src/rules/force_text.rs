//! A force as text for a chat message or a forum post, and back.
//!
//! Players share lists as text, not files. [`to_text`] writes the force, its budget check and
//! each unit with its cost, as plain text or Markdown; [`parse`] reads such a text back — and
//! the edits a person makes to one by hand ("2x Tiger I", "- StuG III", a cost typed wrong, a
//! group renamed) — naming the line of anything it cannot place, with the nearest card names.
//!
//! ```text
//! Kampfgruppe Peiper
//! BelloLudi Tanks! · 100 points
//! NOT legal — 120 / 100 points
//!   ✗ Force costs 120 points: the limit is 100 — remove 1 Heavy Tank
//!
//! 1st Platoon:
//!   2 × Medium Tank — 2 × 17 = 34 points
//!   1 × Sherman · custom — 17 points {"name":"Sherman","speed":"medium","shooting":2,"armour":5}
//! (no group):
//!   1 × Rifle Squad [60 points] — 60 points
//!
//! Notes:
//!   House rules as agreed.
//! ```
//!
//! Reading ([`read`]): chat lines before the list are skipped; the list's name comes just
//! before the ruleset-and-budget line (a budget is never assumed: a list without one is
//! refused at that line); verdict, problem and warning lines are left out (the check is made
//! again); a line ending in ":", a bold line or a heading starts a group; a unit line is a
//! card name with an optional count ("2 ×", "2x", "2", "x2"), optional `[60 points]`,
//! `[6 stands]` or a data unit's options (`[Veteran; 3 × Extra man]`), and a cost: where the
//! card gives one it is recomputed, where the book gives none (Bolt Action) the typed price is
//! kept ([`price`] reads "60", "60 pts", "(34pts)", "[55 points]", "2 × 70 = 140 points"); a
//! custom card travels as its fields in `{…}`, a data unit as its name and revision ("Line
//! Squad · Blue Army r1"); everything after "Notes:" is the notes. Markdown adds `#`, `**`,
//! `- `, `> ` and backticks, which are read through.

use std::fmt::Write as _;

use super::card::Card;
use super::force::{CardRef, Force, ForceUnit};
use super::registry;
use super::ruleset::{Ruleset, UnitCost};
use super::validation::{Validation, amount, resolve_cards};

/// Plain text or Markdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextStyle {
    Plain,
    Markdown,
}

/// The header line of ungrouped units that follow grouped ones.
const NO_GROUP: &str = "(no group)";
/// Marks a custom card's name, as every list in the app does.
const CUSTOM: &str = " · custom";

/// `force` as a message: name, ruleset and budget, the verdict with each problem, every unit
/// with its cost (grouped as the force groups them), and the notes.
pub fn to_text(force: &Force, validation: &Validation, style: TextStyle) -> String {
    let md = style == TextStyle::Markdown;
    let mut text = String::new();
    let ruleset = registry::ruleset(force.ruleset);
    let _ = writeln!(text, "{}{}", if md { "## " } else { "" }, force.name);
    let _ = writeln!(text, "{}{}", budget_line(force), if md { "  " } else { "" });
    let verdict = if validation.legal {
        "Legal"
    } else {
        "NOT legal"
    };
    let _ = writeln!(
        text,
        "{} — {}",
        if md {
            format!("**{verdict}**")
        } else {
            verdict.to_string()
        },
        budget_used(validation)
    );
    for violation in &validation.violations {
        let _ = writeln!(text, "{}✗ {}", bullet(md), violation.message);
    }
    for warning in &validation.warnings {
        let _ = writeln!(text, "{}! {warning}", bullet(md));
    }
    let cards = resolve_cards(force);
    let mut group: Option<&str> = None;
    let _ = writeln!(text);
    for (unit, card) in force.units.iter().zip(&cards) {
        let this = unit.group.as_deref();
        if this != group {
            let name = this.unwrap_or(NO_GROUP);
            if md {
                let _ = writeln!(text, "**{name}:**");
            } else {
                let _ = writeln!(text, "{name}:");
            }
            group = this;
        }
        let _ = writeln!(
            text,
            "{}{}",
            if md { "- " } else { "  " },
            unit_line(ruleset, unit, *card, md)
        );
    }
    if force.units.is_empty() {
        let _ = writeln!(text, "(no units)");
    }
    let notes = force.notes.trim_end();
    if !notes.is_empty() {
        let _ = writeln!(text);
        let _ = writeln!(text, "{}", if md { "**Notes:**" } else { "Notes:" });
        for line in notes.lines() {
            let _ = writeln!(text, "{}{line}", if md { "> " } else { "  " });
        }
    }
    text
}

fn bullet(md: bool) -> &'static str {
    if md { "- " } else { "  " }
}

/// "BelloLudi Tanks! · 100 points", "Armour Battles · battle group lorraine-1-german".
fn budget_line(force: &Force) -> String {
    format!("{} · {}", force.ruleset.title(), force.budget.words())
}

/// "51 / 100 points", "7 / 7 units", "30 / 24–36 stands", or "51 points used" with no limit.
fn budget_used(validation: &Validation) -> String {
    let b = &validation.budget;
    match (b.min, b.limit) {
        (Some(min), Some(max)) => format!("{} / {min}–{max} {}", b.used, b.unit),
        (None, Some(max)) => format!("{} / {max} {}", b.used, b.unit),
        _ => format!("{} {} used", b.used, b.unit),
    }
}

/// "2 × Medium Tank — 2 × 17 = 34 points", with `[60 points]` or `[6 stands]` where the force
/// sets them and a custom card's fields in braces.
fn unit_line(ruleset: &dyn Ruleset, unit: &ForceUnit, card: Option<&Card>, md: bool) -> String {
    let mut line = format!("{} × {}", unit.count, unit.card.label());
    // A unit from army data: its options in words, read back against the same revision.
    if let CardRef::Inline(card) = &unit.card
        && let Some(army) = card.army()
    {
        let words = army.words();
        if !words.is_empty() {
            let _ = write!(line, " [{words}]");
        }
        let cost = line_cost(ruleset, unit, Some(card));
        let _ = write!(line, " — {cost}");
        return line;
    }
    if let Some(points) = unit.points {
        let _ = write!(line, " [{}]", amount(u64::from(points), "points"));
    }
    if let Some(stands) = unit.stands {
        let _ = write!(line, " [{}]", amount(u64::from(stands), "stands"));
    }
    let cost = line_cost(ruleset, unit, card);
    if !cost.is_empty() {
        let _ = write!(line, " — {cost}");
    }
    if let CardRef::Inline(card) = &unit.card {
        let fields = card.to_inline_json().to_string();
        if md {
            let _ = write!(line, " `{fields}`");
        } else {
            let _ = write!(line, " {fields}");
        }
    }
    line
}

/// What a unit line costs against the budget, in words ("34 points", "2 × 17 = 34 points"),
/// or "" where the ruleset counts no cost per unit (battle groups) or none is set. The
/// amount is [`ruleset::line_cost`](super::ruleset::line_cost)'s; a line whose card is not
/// found still counts its own number.
pub fn line_cost(ruleset: &dyn Ruleset, unit: &ForceUnit, card: Option<&Card>) -> String {
    let each = match card {
        Some(card) => super::ruleset::line_cost(card, unit),
        None => ruleset.line_field().and_then(|field| field.cost(unit)),
    };
    match each {
        None => String::new(),
        Some(each) if unit.count == 1 => each.to_string(),
        Some(each) => format!(
            "{} × {} = {}",
            unit.count,
            each.amount,
            UnitCost {
                amount: each.amount * u64::from(unit.count),
                unit: each.unit
            }
        ),
    }
}

/// A list read back: the force, and what was assumed in reading it.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedList {
    pub force: Force,
    /// Readings a person may want to check ("line 2: no budget given: 100 points assumed").
    pub notes: Vec<String>,
}

/// A line that could not be placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError {
    /// 1-based, as an editor counts.
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Every line that could not be placed; nothing is imported when there is one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
pub struct ListErrors(pub Vec<LineError>);

mod price;
mod read;

pub use read::{Library, parse, parse_with};

#[cfg(test)]
mod tests;
