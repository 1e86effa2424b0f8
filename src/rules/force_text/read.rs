//! Reading a posted or hand-edited list back into a force (see the module above for the
//! forms read). Every line that cannot be placed is named with its number and nothing is
//! imported; what was read with a guess (chat skipped, a typed price set against a data
//! price) is said in the notes.

use super::price::{each_from_cost, price_in, split_tail};
use super::{CUSTOM, LineError, ListErrors, NO_GROUP, ParsedList};
use crate::rules::army_data::ForceOrg;
use crate::rules::card::Card;
use crate::rules::force::{Budget, CardRef, Force, ForceUnit};
use crate::rules::names;
use crate::rules::registry;
use crate::rules::ruleset::{LineValue, Ruleset, RulesetId};

/// How many lines a list may open with before its ruleset line (chat, then the name).
const OPENING_LINES: usize = 6;

/// What a list is read against besides the books: the library's own cards (custom, and from
/// imported army data of every revision kept) and the imported force organisations.
#[derive(Debug, Clone, Copy, Default)]
pub struct Library<'a> {
    pub cards: &'a [&'a Card],
    pub force_orgs: &'a [ForceOrg],
}

/// Reads a list written by [`to_text`](super::to_text) (either style) or edited by hand.
/// `custom` are the library's own cards, matched by name after the book's ("Sherman ·
/// custom" picks the custom one).
///
/// # Errors
/// [`ListErrors`] naming each line that could not be placed.
pub fn parse(text: &str, custom: &[&Card]) -> Result<ParsedList, ListErrors> {
    parse_with(
        text,
        Library {
            cards: custom,
            force_orgs: &[],
        },
    )
}

fn refuse(line: usize, message: impl Into<String>) -> ListErrors {
    ListErrors(vec![LineError {
        line,
        message: message.into(),
    }])
}

/// [`parse`] against a whole [`Library`].
///
/// # Errors
/// [`ListErrors`] naming each line that could not be placed.
pub fn parse_with(text: &str, library: Library<'_>) -> Result<ParsedList, ListErrors> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, raw)| (i + 1, raw))
        // A line of marks alone (a quoted blank line ">") is blank too.
        .filter(|(_, raw)| !plain(raw).is_empty())
        .collect();
    let Some(&(first_at, first)) = lines.first() else {
        return Err(refuse(
            1,
            "the list is empty: its first line is the force's name",
        ));
    };
    // The ruleset line: the first of the opening lines that reads as one, after the name.
    let found = lines
        .iter()
        .enumerate()
        .take(OPENING_LINES)
        .skip(1)
        .find_map(|(i, (at, raw))| Some((i, *at, read_ruleset_line(&plain(raw), library)?)));
    let Some((ruleset_index, ruleset_at, (ruleset, budget))) = found else {
        if read_ruleset_line(&plain(first), library).is_some() {
            return Err(refuse(
                first_at,
                "this is the ruleset line: the force's name comes on the line before it",
            ));
        }
        let (at, second) = lines.get(1).copied().unwrap_or((first_at + 1, ""));
        return Err(refuse(
            at,
            format!(
                "\"{}\" names no ruleset: the line after the name is the ruleset and budget, e.g. \"Bolt Action · 1000 points\" ({})",
                plain(second),
                RulesetId::ALL.map(RulesetId::title).join(", ")
            ),
        ));
    };
    let mut notes_read = Vec::new();
    for (at, raw) in &lines[..ruleset_index - 1] {
        notes_read.push(format!(
            "line {at}: \"{}\" comes before the list's name: left out",
            plain(raw)
        ));
    }
    let name_line = lines[ruleset_index - 1];
    let budget = match budget {
        Ok(Some(budget)) => budget,
        Ok(None) => {
            return Err(refuse(
                ruleset_at,
                format!(
                    "no budget: write it after the ruleset, e.g. \"{} · {}\" (a budget is never assumed)",
                    ruleset.title(),
                    registry::ruleset(ruleset).default_budget().words()
                ),
            ));
        }
        Err(message) => return Err(refuse(ruleset_at, message)),
    };
    let rules = registry::ruleset(ruleset);
    let mut force = Force {
        name: plain(name_line.1),
        budget,
        ..Force::new(ruleset, "")
    };
    let mut errors = Vec::new();
    let mut group: Option<String> = None;
    let mut notes: Vec<String> = Vec::new();
    // The notes keep their blank lines: read them from the raw lines, not the filtered ones.
    let all: Vec<&str> = text.lines().collect();
    for &(at, raw) in &lines[ruleset_index + 1..] {
        let line = plain(raw);
        if is_notes_heading(&line) {
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
            break;
        }
        if is_check_line(&line) {
            continue;
        }
        if let Some(header) = group_header(raw, &line) {
            group = (!header.eq_ignore_ascii_case(NO_GROUP)).then(|| header.to_string());
            continue;
        }
        match read_unit(&line, rules, library) {
            Ok((mut unit, note)) => {
                unit.group = group.clone();
                force.units.push(unit);
                notes_read.extend(note.map(|n| format!("line {at}: {n}")));
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
                line: name_line.0,
                message: "the line before the ruleset is the force's name, and it is empty".into(),
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

/// A line without its quote marks and bullet ("> - 2 × Tiger I" → "2 × Tiger I").
fn unquoted(raw: &str) -> &str {
    let mut line = raw.trim();
    loop {
        let before = line;
        if let Some(rest) = line.strip_prefix('>') {
            line = rest.trim_start();
        }
        for bullet in ["- ", "* ", "• "] {
            if let Some(rest) = line.strip_prefix(bullet) {
                line = rest.trim_start();
            }
        }
        if line == before {
            return line;
        }
    }
}

/// A line without Markdown's marks: headings, bold, bullets, quotes and backticks, and the
/// spaces around it.
fn plain(raw: &str) -> String {
    let mut line = unquoted(raw);
    // A Markdown heading ("## Name"), not a name that starts with "#".
    let unhashed = line.trim_start_matches('#');
    if unhashed.len() < line.len() && unhashed.starts_with(' ') {
        line = unquoted(unhashed.trim_start());
    }
    let line = line.replace("**", "").replace('`', "");
    let line = line.trim();
    // A whole line in italics ("*Bolt Action · 1000 points*").
    for mark in ['*', '_'] {
        if let Some(inner) = line.strip_prefix(mark).and_then(|l| l.strip_suffix(mark))
            && !inner.is_empty()
        {
            return inner.trim().to_string();
        }
    }
    line.to_string()
}

/// A group's name from a header line: "1st Platoon:", "**1st Platoon**", "### 1st Platoon".
fn group_header<'a>(raw: &str, line: &'a str) -> Option<&'a str> {
    if let Some(header) = line.strip_suffix(':') {
        return Some(header.trim());
    }
    let core = unquoted(raw);
    let bold = core.len() > 4
        && core.starts_with("**")
        && core.ends_with("**")
        && !core[2..core.len() - 2].contains("**");
    let heading = core.starts_with('#') && core.trim_start_matches('#').starts_with(' ');
    (bold || heading).then(|| line.trim_end_matches(':').trim())
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

/// "BelloLudi Tanks! · 100 points", "BelloLudi Tanks! - 60 points", "BelloLudi Tanks! (60
/// points)" → the ruleset and its budget: `Ok(None)` when none is written, `Err` when what is
/// written is not one.
type RulesetLine = (RulesetId, Result<Option<Budget>, String>);

fn read_ruleset_line(line: &str, library: Library<'_>) -> Option<RulesetLine> {
    let lower = line.to_lowercase();
    let (ruleset, matched) = RulesetId::ALL.into_iter().find_map(|id| {
        let title = id.title().to_lowercase();
        let short = title.trim_end_matches('!').to_string();
        let spaced = id.as_str().replace('-', " ");
        [title, short, id.as_str().to_string(), spaced]
            .into_iter()
            .find(|name| {
                lower.starts_with(name.as_str())
                    && !lower[name.len()..].starts_with(|c: char| c.is_alphanumeric())
            })
            .map(|name| (id, name.len()))
    })?;
    let rest = line[matched..]
        .trim()
        .trim_start_matches(['·', '|', ',', '—', '–', '-', ':', '(', '['])
        .trim_end_matches([')', ']'])
        .trim();
    Some((ruleset, read_budget(ruleset, rest, library)))
}

fn read_budget(
    ruleset: RulesetId,
    text: &str,
    library: Library<'_>,
) -> Result<Option<Budget>, String> {
    let lower = text.to_lowercase();
    let lower = lower.trim();
    if lower.is_empty() {
        return Ok(None);
    }
    if let Some(id) = lower.strip_prefix("battle group") {
        return Ok(Some(Budget::BattleGroup(id.trim().to_string())));
    }
    if let Some(id) = lower.strip_prefix("scenario") {
        return Ok(Some(Budget::Scenario(id.trim().to_string())));
    }
    let rules = registry::ruleset(ruleset);
    // A budget the book names, by its title ("Lorraine Battle 1 German") or its id.
    if let Some(named) = rules.named_budgets().into_iter().find(|n| {
        n.title.eq_ignore_ascii_case(lower) || n.budget.id().is_some_and(|id| id == lower)
    }) {
        return Ok(Some(named.budget));
    }
    // A force organisation from imported data ("Reinforced Platoon, 1000 points").
    if let Some(org) = library
        .force_orgs
        .iter()
        .find(|o| lower.starts_with(&o.name.to_lowercase()))
    {
        let points =
            lower[org.name.len()..].trim_start_matches([',', ' ', '·', '-', '—', '–', '(']);
        let points = points.trim_end_matches(')');
        return price_in(points)
            .map(|p| Some(Budget::ForceOrg(Box::new(org.with_points(p)))))
            .ok_or_else(|| {
                format!(
                    "\"{text}\": the {} needs its points limit, e.g. \"{}, 1000 points\"",
                    org.name, org.name
                )
            });
    }
    let digits: String = lower.chars().take_while(char::is_ascii_digit).collect();
    let Ok(number) = digits.parse::<u32>() else {
        return Err(format!(
            "\"{text}\" is not a budget: write a points limit (\"1000 points\"), a battle group or a scenario"
        ));
    };
    let unit = lower[digits.len()..].trim();
    // A bare number counts in the ruleset's own kind of points.
    let tiers = matches!(rules.default_budget(), Budget::TierPoints(_));
    if unit.starts_with("tier") || unit == "tp" || tiers {
        Ok(Some(Budget::TierPoints(number)))
    } else if price_in(lower).is_some() {
        Ok(Some(Budget::Points(number)))
    } else {
        Err(format!(
            "\"{text}\" is not a budget: write a points limit (\"1000 points\"), a battle group or a scenario"
        ))
    }
}

/// What a unit line says besides its name and count.
#[derive(Default)]
struct Extras {
    points: Option<u32>,
    stands: Option<u32>,
    /// A data unit's options: `[Veteran; 3 × Extra man]`.
    words: Option<String>,
}

/// One unit line: count, card, `[points]`/`[stands]`/`[options]`, a typed price, the cost
/// after a dash, custom card fields. Returns the unit and a note on what was read with care.
fn read_unit(
    line: &str,
    rules: &dyn Ruleset,
    library: Library<'_>,
) -> Result<(ForceUnit, Option<String>), String> {
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
    // The cost after a dash; a dash inside a name ("Sherman — the club's own") is not followed
    // by a number.
    let dash = [" — ", " – ", " - "]
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
        .min();
    let (line, cost) = match dash {
        Some((at, len)) => (line[..at].trim(), Some(line[at + len..].trim())),
        None => (line, None),
    };
    let (rest, extras) = read_extras(line)?;
    let (count, name) = read_count(&rest)?;
    if name.is_empty() {
        return Err("no card name on this line".into());
    }
    let (card, tail_price) = match fields {
        Some(json) => {
            let value: serde_json::Value = serde_json::from_str(json)
                .map_err(|e| format!("the custom card's fields do not read: {e}"))?;
            let card = rules
                .parse_inline_card(&value, "card")
                .map_err(|e| format!("the custom card does not read: {e}"))?;
            (CardRef::Inline(card), None)
        }
        None => match find_card(name, rules, library) {
            Ok(card) => (card, None),
            // "Panzerschreck Team 60": a price typed after the name.
            Err(message) => match split_tail(name) {
                Some((short, price)) => (
                    find_card(short, rules, library).map_err(|_| message)?,
                    Some(price),
                ),
                None => return Err(message),
            },
        },
    };
    let typed = match extras.points.or(tail_price) {
        Some(price) => Some(price),
        None => cost
            .map(|c| each_from_cost(c, count))
            .transpose()?
            .flatten(),
    };
    let mut unit = ForceUnit {
        card,
        count,
        group: None,
        points: extras.points,
        stands: extras.stands,
    };
    let note = settle_price(&mut unit, rules, typed, extras.words.as_deref())?;
    Ok((unit, note))
}

/// Applies a data unit's options, and keeps a typed price where the card gives none and the
/// ruleset lets a force set it (Bolt Action's book cards); a typed price beside a data price
/// is noted when they differ.
fn settle_price(
    unit: &mut ForceUnit,
    rules: &dyn Ruleset,
    typed: Option<u32>,
    words: Option<&str>,
) -> Result<Option<String>, String> {
    if let CardRef::Inline(card) = &mut unit.card
        && let Some(army) = card.army().cloned()
    {
        let entry = match words {
            Some(words) => army.with_words(words)?,
            None => army,
        };
        let price = entry.price();
        card.data_mut().apply_army(entry);
        unit.points = None;
        return Ok(typed.filter(|t| u64::from(*t) != price).map(|t| {
            format!(
                "{} costs {price} points by the data; the list said {t}: the data's price is kept",
                card.name()
            )
        }));
    }
    if let Some(words) = words {
        return Err(format!(
            "\"[{words}]\": expected a number of points or stands"
        ));
    }
    let sets_points = rules
        .line_field()
        .is_some_and(|f| f.value == LineValue::Points);
    if sets_points && unit.points.is_none() {
        unit.points = typed;
    }
    Ok(None)
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
    let max = crate::rules::force_file::MAX_COUNT;
    match digits.parse::<u32>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!("a count of {digits}: counts are 1–{max}")),
    }
}

/// The name and what follows it in brackets: `[60 points]`, `[6 stands]`, a data unit's
/// `[Veteran; 3 × Extra man]`, or a price in parentheses (`(34pts)`).
fn read_extras(text: &str) -> Result<(String, Extras), String> {
    let mut name = text.trim().to_string();
    let mut extras = Extras::default();
    loop {
        if let (Some(open), true) = (name.rfind('['), name.ends_with(']')) {
            let inside = name[open + 1..name.len() - 1].trim().to_string();
            let lower = inside.to_lowercase();
            let digits: String = lower.chars().take_while(char::is_ascii_digit).collect();
            let word = lower[digits.len()..].trim();
            match digits.parse::<u32>() {
                Ok(value) if word.starts_with("stand") => extras.stands = Some(value),
                Ok(value) if word.starts_with('p') || word.is_empty() => {
                    extras.points = Some(value);
                }
                _ if digits.is_empty() || word.contains(';') || word.contains('×') => {
                    extras.words = Some(inside);
                }
                _ => {
                    return Err(format!(
                        "\"[{inside}]\": expected [N points], [N stands] or a data unit's options"
                    ));
                }
            }
            name.truncate(open);
            name = name.trim_end().to_string();
            continue;
        }
        if let (Some(open), true) = (name.rfind('('), name.ends_with(')'))
            && let Some(price) = price_in(&name[open + 1..name.len() - 1])
        {
            extras.points = extras.points.or(Some(price));
            name.truncate(open);
            name = name.trim_end().to_string();
            continue;
        }
        return Ok((name, extras));
    }
}

/// The card a name means: a data unit by name and revision ("Line Squad · Blue Army r1"), a
/// book card (name or short name, any case), else the library's own card of that name (a
/// data unit's newest revision, a custom card); refused with the nearest names otherwise.
fn find_card(name: &str, rules: &dyn Ruleset, library: Library<'_>) -> Result<CardRef, String> {
    let mine: Vec<&Card> = library
        .cards
        .iter()
        .copied()
        .filter(|c| c.ruleset() == rules.id())
        .collect();
    if let Some((base, label)) = name.rsplit_once(" · ")
        && !label.eq_ignore_ascii_case(CUSTOM.trim_start_matches([' ', '·']))
    {
        let named: Vec<&&Card> = mine.iter().filter(|c| c.answers_to(base)).collect();
        if let Some(card) = named.iter().find(|c| {
            c.army()
                .is_some_and(|a| a.source.label().eq_ignore_ascii_case(label.trim()))
        }) {
            return Ok(CardRef::Inline((**card).clone()));
        }
        if let Some(other) = named.iter().find_map(|c| c.army()) {
            return Err(format!(
                "\"{base}\" of {} is not imported (this library has {}): import that revision, or leave \" · {}\" off to price it with the one there is",
                label.trim(),
                other.source.label(),
                label.trim()
            ));
        }
    }
    let marked = name
        .strip_suffix(CUSTOM.trim_start())
        .or_else(|| name.strip_suffix("(custom)"));
    let (name, wants_custom) = match marked {
        Some(base) => (base.trim_end_matches([' ', '·']).trim(), true),
        None => (name.trim(), false),
    };
    if !wants_custom
        && let Some(card) = mine
            .iter()
            .filter(|c| c.army().is_some() && c.answers_to(name))
            .max_by_key(|c| c.army().map(|a| a.source.revision))
    {
        return Ok(CardRef::Inline((*card).clone()));
    }
    if !wants_custom && let Some(card) = names::find(rules.library(), name) {
        return Ok(CardRef::Library(card.name().to_string()));
    }
    if let Some(card) = mine
        .iter()
        .find(|c| c.army().is_none() && c.answers_to(name))
    {
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
