//! A unit's own odds table, from its ruleset's mechanics: the one function both a card's
//! back and a force's quick reference print it with, so the two never disagree, and every
//! cell is what `quartermaster odds … --json` answers for the same situation.
//!
//! The card template says which mechanic, which input the unit fills and what the rows and
//! columns vary ([`OddsStyle`]); each cell resolves the mechanic's exact odds through its
//! own checks, so a situation the rules refuse (an artillery battery as a target) is left
//! out rather than guessed, and one with no result ("beyond the table") reads "–".

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use serde_json::Value as Json;

use super::data::Table;
use crate::export::card_layout::side_of_card;
use crate::export::template::{CardTemplate, OddsAxis, OddsCards, OddsStyle};
use crate::rules::resolution::{
    CardPick, InputKind, InputSpec, InputValue, Inputs, ListEntry, Mechanic, ResolveError, Value,
    mechanic,
};
use crate::rules::words::percent;
use crate::rules::{Card, ruleset};

/// What a cell shows when the rules give the situation no result.
const NO_RESULT: &str = "–";

/// Tables already worked out, by card and template: a deck prints the same unit many times.
static MADE: LazyLock<Mutex<HashMap<String, Option<UnitOdds>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// A unit's odds table with what its cells are the chance of.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitOdds {
    pub title: String,
    pub table: Table,
}

/// The odds table of `card` under `template`'s first odds style whose mechanic takes it;
/// `None` when none does or the template names none.
pub fn unit_odds(template: &CardTemplate, card: &Card) -> Option<UnitOdds> {
    let key = format!("{:?}|{card:?}", template.ruleset);
    if let Ok(made) = MADE.lock()
        && let Some(found) = made.get(&key)
    {
        return found.clone();
    }
    let odds = template
        .odds
        .iter()
        .find_map(|style| table_for(template, style, card));
    if let Ok(mut made) = MADE.lock() {
        made.insert(key, odds.clone());
    }
    odds
}

/// One value an axis sets, with its label.
struct Point {
    label: String,
    value: InputValue,
}

fn table_for(template: &CardTemplate, style: &OddsStyle, card: &Card) -> Option<UnitOdds> {
    let mechanic = mechanic(template.ruleset, &style.mechanic)?;
    let specs = (mechanic.inputs)();
    let spec = |key: &str| specs.iter().find(|s| s.key == key);
    let mut base = Inputs::defaults(&specs);
    for (key, value) in &style.set {
        let spec = spec(key)?;
        base.set(spec.key, input_value(spec, value, template)?);
    }
    // A unit the mechanic refuses (a battery as a direct-fire attacker) leaves every cell
    // refused, so the table is empty and the next style is tried.
    let unit = spec(&style.unit)?;
    base.set(unit.key, card_value(unit, card));
    let rows = points(&style.rows, spec(&style.rows.input)?, template, card);
    let columns = match &style.columns {
        Some(axis) => points(axis, spec(&axis.input)?, template, card),
        None => vec![Point {
            label: "Chance".to_string(),
            value: InputValue::Flag(false),
        }],
    };
    let column_key = style.columns.as_ref().and_then(|a| spec(&a.input));
    let row_key = spec(&style.rows.input)?;
    let mut table_rows = Vec::new();
    for row in &rows {
        let mut cells = vec![row.label.clone()];
        let mut any = false;
        for column in &columns {
            let mut inputs = base.clone();
            inputs.set(row_key.key, row.value.clone());
            if let Some(column_key) = column_key {
                inputs.set(column_key.key, column.value.clone());
            }
            match cell(mechanic, &inputs, &style.value) {
                Ok(Some(text)) => {
                    any = true;
                    cells.push(text);
                }
                Ok(None) => cells.push(NO_RESULT.to_string()),
                Err(()) => cells.push(String::new()),
            }
        }
        // A row the rules refuse in every column (an artillery battery as a target) is no
        // row of this unit's table.
        if any || cells.iter().skip(1).any(|c| c == NO_RESULT) {
            table_rows.push(cells);
        }
    }
    if table_rows.is_empty() {
        return None;
    }
    let mut headers = vec![style.rows.label.clone()];
    headers.extend(columns.iter().map(|c| c.label.clone()));
    let header_refs: Vec<&str> = headers.iter().map(String::as_str).collect();
    Some(UnitOdds {
        title: style.title.clone(),
        table: Table::new(&header_refs, table_rows, &[]),
    })
}

/// One cell: the product of the named headline values, as a percentage; `None` when the
/// rules give the situation no result; `Err` when they refuse it.
fn cell(mechanic: &Mechanic, inputs: &Inputs, value: &[String]) -> Result<Option<String>, ()> {
    let report = match mechanic.resolve_odds(inputs) {
        Ok(report) => report,
        Err(ResolveError::NoResult(_)) => return Ok(None),
        Err(_) => return Err(()),
    };
    if report.no_result.is_some() {
        return Ok(None);
    }
    let mut chance = 1.0;
    for name in value {
        let (key, from) = match name.split_once(">=") {
            Some((key, n)) => (key, n.trim().parse::<usize>().map_err(|_| ())?),
            None => (name.as_str(), 0),
        };
        let headline = report.values.iter().find(|h| h.key == key).ok_or(())?;
        chance *= match &headline.value {
            Value::Probability(p) => *p,
            Value::Probabilities(ps) => ps.iter().skip(from).sum(),
            _ => return Err(()),
        };
    }
    Ok(Some(percent(chance)))
}

/// The points an axis runs through: its listed values, the enemy cards of the book or the
/// unit's own weapons.
fn points(axis: &OddsAxis, spec: &InputSpec, template: &CardTemplate, card: &Card) -> Vec<Point> {
    match axis.cards {
        Some(OddsCards::Enemies) => {
            let side = side_of_card(template, card).map(|s| s.name.as_str());
            ruleset(template.ruleset)
                .library()
                .iter()
                .filter(|other| other.name() != card.name())
                .filter(|other| {
                    let theirs = side_of_card(template, other).map(|s| s.name.as_str());
                    side.is_none() || theirs.is_none() || theirs != side
                })
                .map(|other| Point {
                    label: other.name().to_string(),
                    value: card_value(spec, other),
                })
                .collect()
        }
        Some(OddsCards::Weapons) => card
            .data()
            .weapon_rows()
            .iter()
            .filter_map(|weapon| {
                let key = spec.option_named(&weapon.name).ok()?;
                Some(Point {
                    label: weapon.name.clone(),
                    value: InputValue::Choice(key),
                })
            })
            .collect(),
        None => axis
            .values
            .iter()
            .filter_map(|point| {
                Some(Point {
                    label: point.label.clone(),
                    value: input_value(spec, &point.value, template)?,
                })
            })
            .collect(),
    }
}

/// `card` as the value of a card or card-list input.
fn card_value(spec: &InputSpec, card: &Card) -> InputValue {
    let pick = CardPick::book(card);
    match spec.kind {
        InputKind::CardList { .. } => InputValue::CardList(vec![ListEntry {
            card: Some(pick),
            ..ListEntry::default()
        }]),
        _ => InputValue::Card(Some(pick)),
    }
}

/// A template's JSON value as the value of input `spec`; `None` when it does not fit.
fn input_value(spec: &InputSpec, value: &Json, template: &CardTemplate) -> Option<InputValue> {
    match (&spec.kind, value) {
        (InputKind::Toggle, Json::Bool(on)) => Some(InputValue::Flag(*on)),
        (InputKind::Choice(_), Json::String(name)) => {
            spec.option_named(name).ok().map(InputValue::Choice)
        }
        (InputKind::Count { .. }, Json::Number(n)) => n.as_i64().map(InputValue::Count),
        (InputKind::Number { .. }, Json::Number(n)) => n.as_f64().map(InputValue::Number),
        (InputKind::Card { .. } | InputKind::CardList { .. }, Json::String(name)) => {
            ruleset(template.ruleset)
                .library()
                .iter()
                .find(|c| c.name() == name)
                .map(|card| card_value(spec, card))
        }
        _ => None,
    }
}

/// Every odds style of every card template names a mechanic, inputs and values its
/// ruleset has: a check for the template files.
pub(crate) fn check_odds(template: &CardTemplate) -> Result<(), String> {
    for style in &template.odds {
        let mechanic = mechanic(template.ruleset, &style.mechanic)
            .ok_or_else(|| format!("odds: no mechanic '{}'", style.mechanic))?;
        let specs = (mechanic.inputs)();
        let spec = |key: &str| {
            specs
                .iter()
                .find(|s| s.key == key)
                .ok_or_else(|| format!("odds {}: no input '{key}'", style.mechanic))
        };
        spec(&style.unit)?;
        for (key, value) in &style.set {
            if input_value(spec(key)?, value, template).is_none() {
                return Err(format!(
                    "odds {}: {value} does not fit '{key}'",
                    style.mechanic
                ));
            }
        }
        for axis in std::iter::once(&style.rows).chain(style.columns.as_ref()) {
            let spec = spec(&axis.input)?;
            for point in &axis.values {
                if input_value(spec, &point.value, template).is_none() {
                    return Err(format!(
                        "odds {}: {} does not fit '{}'",
                        style.mechanic, point.value, axis.input
                    ));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::template::templates;
    use crate::rules::RulesetId;

    fn library_card(id: RulesetId, name: &str) -> &'static Card {
        ruleset(id)
            .library()
            .iter()
            .find(|c| c.name() == name)
            .unwrap()
    }

    fn binomial(n: u32, k: u32, p: f64) -> f64 {
        let choose = (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1));
        choose * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32)
    }

    /// Every ruleset's first book card has a table with a row and a chance in it.
    #[test]
    fn every_ruleset_prints_an_odds_table_for_its_units() {
        let t = templates().unwrap();
        for id in RulesetId::ALL {
            let template = t.card_template(id).unwrap();
            let card = &ruleset(id).library()[0];
            let odds = unit_odds(template, card).unwrap_or_else(|| panic!("{id}: no table"));
            assert!(!odds.table.rows.is_empty(), "{id}");
            assert!(
                odds.table.rows.iter().flatten().any(|c| c.ends_with('%')),
                "{id}: {:?}",
                odds.table
            );
        }
    }

    /// The M4 75mm (7 AT dice) at a Panzer IV H (5 reaction dice) at short range: attack
    /// dice hit on 3+, reaction on 4+, at least one point when the attack scores more.
    #[test]
    fn an_armour_battles_cell_is_the_chance_the_attack_outscores_the_reaction() {
        let template = templates()
            .unwrap()
            .card_template(RulesetId::ArmourBattles)
            .unwrap();
        let odds = unit_odds(template, library_card(RulesetId::ArmourBattles, "M4 75mm")).unwrap();
        assert_eq!(odds.table.columns, ["Target", "Short", "Effective", "Long"]);
        let row = odds
            .table
            .rows
            .iter()
            .find(|r| r[0] == "Panzer IV H")
            .unwrap();
        let more: f64 = (0..=7)
            .map(|a| {
                let fewer: f64 = (0..a.min(6)).map(|r| binomial(5, r, 0.5)).sum();
                binomial(7, a, 2.0 / 3.0) * fewer
            })
            .sum();
        assert_eq!(row[1], percent(more));
        // No US card is a target of a US tank, and no battery is a target at all.
        let rows: Vec<&str> = odds.table.rows.iter().map(|r| r[0].as_str()).collect();
        assert!(
            !rows.contains(&"M4 76mm") && !rows.contains(&"105L28 Howitzer"),
            "{rows:?}"
        );
        // A battery's table is its mission's, one column.
        let m7 = unit_odds(
            template,
            library_card(RulesetId::ArmourBattles, "M7 Howitzer Motor Carriage"),
        )
        .unwrap();
        assert_eq!(m7.table.columns.len(), 2, "{:?}", m7.table);
    }

    /// A Belle Epoque unit's table is its fire-table row as chances: British Regulars (type
    /// C) hit on 4 or less at 1 UD standing (RULINGS fire table C 4(2) 3 1 –), a d6.
    #[test]
    fn a_belle_epoque_table_is_its_fire_table_row() {
        let template = templates()
            .unwrap()
            .card_template(RulesetId::BelleEpoque)
            .unwrap();
        let odds = unit_odds(
            template,
            library_card(RulesetId::BelleEpoque, "British Regulars"),
        )
        .unwrap();
        let six = |n: f64| percent(n / 6.0);
        assert_eq!(
            odds.table.rows[0],
            ["Stood still", &six(4.0), &six(3.0), &six(1.0), NO_RESULT]
        );
        assert_eq!(odds.table.rows[1][1], six(2.0));
    }
}
