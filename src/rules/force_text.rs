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
//! Reading: the first line is the name, the second the ruleset and budget; verdict, problem
//! and warning lines are left out (the check is made again); a line ending in ":" starts a
//! group; a unit line is a card name with an optional count ("2 ×", "2x", "2", "x2"),
//! optional `[60 points]` or `[6 stands]`, and anything after " — " or " - " is the cost,
//! recomputed; a custom card travels as its fields in `{…}`; everything after "Notes:" is
//! the notes. Markdown adds `#`, `**`, `- ` and backticks, which are read through.

use std::fmt::Write as _;

use super::card::Card;
use super::force::{Budget, CardRef, Force, ForceUnit};
use super::names;
use super::registry;
use super::ruleset::{Ruleset, RulesetId, UnitCost};
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

/// Reads a list written by [`to_text`] (either style) or edited by hand. `custom` are the
/// library's own cards, matched by name after the book's ("Sherman · custom" picks the custom
/// one).
///
/// # Errors
/// [`ListErrors`] naming each line that could not be placed.
pub fn parse(text: &str, custom: &[&Card]) -> Result<ParsedList, ListErrors> {
    let mut errors = Vec::new();
    let mut notes_read = Vec::new();
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, raw)| (i + 1, raw))
        .filter(|(_, raw)| !raw.trim().is_empty());
    let Some((_, first)) = lines.next() else {
        return Err(ListErrors(vec![LineError {
            line: 1,
            message: "the list is empty: its first line is the force's name".into(),
        }]));
    };
    let name = plain(first);
    let Some((ruleset_at, second)) = lines.next() else {
        return Err(ListErrors(vec![LineError {
            line: 2,
            message: "no ruleset line after the name (e.g. \"BelloLudi Tanks! · 100 points\")"
                .into(),
        }]));
    };
    let (ruleset, budget) = match read_ruleset_line(&plain(second)) {
        Some(found) => found,
        None => {
            return Err(ListErrors(vec![LineError {
                line: ruleset_at,
                message: format!(
                    "\"{}\" names no ruleset: the second line is the ruleset and budget, e.g. \"Bolt Action · 1000 points\" ({})",
                    plain(second),
                    RulesetId::ALL.map(RulesetId::title).join(", ")
                ),
            }]));
        }
    };
    let rules = registry::ruleset(ruleset);
    let budget = budget.unwrap_or_else(|| {
        let default = rules.default_budget();
        notes_read.push(format!(
            "line {ruleset_at}: no budget given: {} assumed",
            budget_line(&Force {
                budget: default.clone(),
                ..Force::new(ruleset, "")
            })
        ));
        default
    });
    let mut force = Force {
        name,
        budget,
        ..Force::new(ruleset, "")
    };
    let mut group: Option<String> = None;
    let mut in_notes = false;
    let mut notes: Vec<String> = Vec::new();
    // The notes keep their blank lines: read them from the raw lines, not the filtered ones.
    let all: Vec<&str> = text.lines().collect();
    for (at, raw) in lines {
        if in_notes {
            break;
        }
        let line = plain(raw);
        if is_notes_heading(&line) {
            in_notes = true;
            let rest = line
                .split_once(':')
                .map(|(_, rest)| rest.trim())
                .unwrap_or("");
            if !rest.is_empty() {
                notes.push(rest.to_string());
            }
            for later in all.iter().skip(at) {
                notes.push(notes_line(later));
            }
            continue;
        }
        if is_check_line(&line) {
            continue;
        }
        if let Some(header) = line.strip_suffix(':') {
            let header = header.trim();
            group = (!header.eq_ignore_ascii_case(NO_GROUP)).then(|| header.to_string());
            continue;
        }
        match read_unit(&line, rules, custom) {
            Ok(mut unit) => {
                unit.group = group.clone();
                force.units.push(unit);
            }
            Err(message) => errors.push(LineError { line: at, message }),
        }
    }
    while notes.last().is_some_and(|l| l.trim().is_empty()) {
        notes.pop();
    }
    force.notes = notes.join("\n");
    if force.name.is_empty() {
        errors.insert(
            0,
            LineError {
                line: 1,
                message: "the first line is the force's name, and it is empty".into(),
            },
        );
    }
    if errors.is_empty() {
        Ok(ParsedList {
            force,
            notes: notes_read,
        })
    } else {
        Err(ListErrors(errors))
    }
}

/// A line without Markdown's marks: headings, bold, bullets, quotes and backticks, and the
/// spaces around it.
fn plain(raw: &str) -> String {
    let mut line = raw.trim();
    // A Markdown heading ("## Name"), not a name that starts with "#".
    let unhashed = line.trim_start_matches('#');
    if unhashed.len() < line.len() && unhashed.starts_with(' ') {
        line = unhashed.trim_start();
    }
    for bullet in ["- ", "* ", "• ", "> "] {
        if let Some(rest) = line.strip_prefix(bullet) {
            line = rest.trim_start();
            break;
        }
    }
    line.replace("**", "").replace('`', "").trim().to_string()
}

fn notes_line(raw: &str) -> String {
    let line = raw.strip_prefix("> ").unwrap_or(raw);
    let line = line.strip_prefix("  ").unwrap_or(line);
    line.trim_end().to_string()
}

fn is_notes_heading(line: &str) -> bool {
    line.split_once(':')
        .is_some_and(|(head, _)| head.trim().eq_ignore_ascii_case("notes"))
}

/// The verdict, a problem or a warning: said by the app, checked again on import.
fn is_check_line(line: &str) -> bool {
    let lower = line.to_lowercase();
    line.starts_with('✗')
        || line.starts_with('!')
        || line.starts_with('⚠')
        || line.starts_with('✓')
        || lower.starts_with("legal")
        || lower.starts_with("not legal")
        || lower == "(no units)"
}

/// "BelloLudi Tanks! · 100 points" → the ruleset and, when given, the budget.
fn read_ruleset_line(line: &str) -> Option<(RulesetId, Option<Budget>)> {
    let lower = line.to_lowercase();
    let ruleset = RulesetId::ALL.into_iter().find(|id| {
        let title = id.title().to_lowercase();
        let short = title.trim_end_matches('!').to_string();
        lower.starts_with(&title)
            || lower.starts_with(&short)
            || lower.starts_with(id.as_str())
            || lower.starts_with(&id.as_str().replace('-', " "))
    })?;
    let rest = line
        .split_once(['·', '|', ',', '—'])
        .map(|(_, rest)| rest.trim())
        .unwrap_or("");
    Some((ruleset, read_budget(ruleset, rest)))
}

fn read_budget(ruleset: RulesetId, text: &str) -> Option<Budget> {
    let lower = text.to_lowercase();
    let lower = lower.trim();
    if lower.is_empty() {
        return None;
    }
    if let Some(id) = lower.strip_prefix("battle group") {
        return Some(Budget::BattleGroup(id.trim().to_string()));
    }
    if let Some(id) = lower.strip_prefix("scenario") {
        return Some(Budget::Scenario(id.trim().to_string()));
    }
    let rules = registry::ruleset(ruleset);
    // A budget the book names, by its title ("Lorraine Battle 1 German") or its id.
    if let Some(named) = rules.named_budgets().into_iter().find(|n| {
        n.title.eq_ignore_ascii_case(lower) || n.budget.id().is_some_and(|id| id == lower)
    }) {
        return Some(named.budget);
    }
    let digits: String = lower.chars().take_while(char::is_ascii_digit).collect();
    let number: u32 = digits.parse().ok()?;
    let unit = lower[digits.len()..].trim();
    // A bare number counts in the ruleset's own kind of points.
    let tiers = matches!(rules.default_budget(), Budget::TierPoints(_));
    if unit.starts_with("tier") || unit == "tp" || tiers {
        Some(Budget::TierPoints(number))
    } else {
        Some(Budget::Points(number))
    }
}

/// One unit line: count, card, `[points]`/`[stands]`, cost (ignored), custom card fields.
fn read_unit(line: &str, rules: &dyn Ruleset, custom: &[&Card]) -> Result<ForceUnit, String> {
    // A custom card's fields: the first "{" from which the rest of the line is one JSON object.
    let fields_at = line.ends_with('}').then(|| {
        line.match_indices(" {")
            .map(|(at, _)| at)
            .find(|at| serde_json::from_str::<serde_json::Value>(&line[at + 1..]).is_ok())
            .or_else(|| line.find(" {"))
    });
    let (line, fields) = match fields_at.flatten() {
        Some(at) => (line[..at].trim(), Some(&line[at + 1..])),
        None => (line, None),
    };
    // The cost after a dash is the app's arithmetic, made again from the card; a dash inside
    // a name ("Sherman — the club's own") is not followed by a number.
    let line = [" — ", " – ", " - "]
        .iter()
        .flat_map(|dash| {
            line.match_indices(dash)
                .map(move |(at, _)| (at, dash.len()))
        })
        .filter(|(at, len)| {
            line[at + len..]
                .trim_start()
                .starts_with(|c: char| c.is_ascii_digit())
        })
        .map(|(at, _)| at)
        .min()
        .map_or(line, |at| line[..at].trim());
    let (count, rest) = read_count(line)?;
    let (name, points, stands) = read_extras(rest)?;
    if name.is_empty() {
        return Err("no card name on this line".into());
    }
    let card = match fields {
        Some(json) => {
            let value: serde_json::Value = serde_json::from_str(json)
                .map_err(|e| format!("the custom card's fields do not read: {e}"))?;
            let card = rules
                .parse_inline_card(&value, "card")
                .map_err(|e| format!("the custom card does not read: {e}"))?;
            CardRef::Inline(card)
        }
        None => find_card(&name, rules, custom)?,
    };
    Ok(ForceUnit {
        card,
        count,
        group: None,
        points,
        stands,
    })
}

/// "2 × Tiger I", "2x Tiger I", "2 Tiger I", "Tiger I x2", "Tiger I" → (count, rest).
fn read_count(line: &str) -> Result<(u32, &str), String> {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        let (number, after) = line.split_at(digits);
        let rest = after.trim_start();
        if let Some(name) = rest.strip_prefix('×') {
            return Ok((checked_count(number)?, name.trim()));
        }
        for mark in ['x', 'X', '*'] {
            if let Some(name) = rest.strip_prefix(mark)
                && name.starts_with(' ')
            {
                return Ok((checked_count(number)?, name.trim()));
            }
        }
        // "105L28 Howitzer" is a name that starts with digits, not a count.
        if after.starts_with(' ') {
            return Ok((checked_count(number)?, rest));
        }
    }
    for mark in [" ×", " x", " X"] {
        if let Some(at) = line.rfind(mark) {
            let tail = line[at + mark.len()..].trim();
            if !tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit()) {
                return Ok((checked_count(tail)?, line[..at].trim()));
            }
        }
    }
    Ok((1, line))
}

fn checked_count(digits: &str) -> Result<u32, String> {
    let max = super::force_file::MAX_COUNT;
    match digits.parse::<u32>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!("a count of {digits}: counts are 1–{max}")),
    }
}

/// The name and any `[60 points]` / `[6 stands]` after it.
fn read_extras(text: &str) -> Result<(String, Option<u32>, Option<u32>), String> {
    let mut name = text.to_string();
    let mut points = None;
    let mut stands = None;
    while let (Some(open), true) = (name.rfind('['), name.ends_with(']')) {
        let inside = name[open + 1..name.len() - 1].trim().to_lowercase();
        let digits: String = inside.chars().take_while(char::is_ascii_digit).collect();
        let word = inside[digits.len()..].trim();
        let value: u32 = digits
            .parse()
            .map_err(|_| format!("\"[{inside}]\": expected a number of points or stands"))?;
        if word.starts_with("stand") {
            stands = Some(value);
        } else if word.starts_with("p") || word.is_empty() {
            points = Some(value);
        } else {
            return Err(format!("\"[{inside}]\": expected [N points] or [N stands]"));
        }
        name.truncate(open);
        name = name.trim_end().to_string();
    }
    Ok((name, points, stands))
}

/// The card a name means: a book card (name or short name, any case), else the library's
/// custom card of that name; refused with the nearest names otherwise.
fn find_card(name: &str, rules: &dyn Ruleset, custom: &[&Card]) -> Result<CardRef, String> {
    let marked = name
        .strip_suffix(CUSTOM.trim_start())
        .or_else(|| name.strip_suffix("(custom)"));
    let (name, wants_custom) = match marked {
        Some(base) => (base.trim_end_matches([' ', '·']).trim(), true),
        None => (name.trim(), false),
    };
    let mine: Vec<&Card> = custom
        .iter()
        .copied()
        .filter(|c| c.ruleset() == rules.id())
        .collect();
    if !wants_custom && let Some(card) = names::find(rules.library(), name) {
        return Ok(CardRef::Library(card.name().to_string()));
    }
    if let Some(card) = mine.iter().find(|c| c.answers_to(name)) {
        return Ok(CardRef::Inline((*card).clone()));
    }
    if wants_custom {
        return Err(format!(
            "\"{name}\" is a custom card and this library has none of that name; share the list with its fields (Copy as text writes them in {{…}})"
        ));
    }
    let everything: Vec<Card> = rules
        .library()
        .iter()
        .cloned()
        .chain(mine.into_iter().cloned())
        .collect();
    let nearest = names::nearest(&everything, name);
    let hint = match nearest.as_slice() {
        [] => String::new(),
        [one] => format!(" — did you mean {one}?"),
        many => format!(" — did you mean {}?", many.join(", ")),
    };
    Err(format!("no {} card \"{name}\"{hint}", rules.id().title()))
}

#[cfg(test)]
mod tests;
