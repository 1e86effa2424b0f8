//! Inputs checked against their description, once for every front end: a key the mechanic
//! does not declare, a value of the wrong kind, a choice outside its options, a number outside
//! its range, a card its filter leaves out, a list too long.
//!
//! The window's widgets cannot produce most of these; the command line, a file or another
//! program can. [`Mechanic::resolve_odds`](super::Mechanic::resolve_odds) and
//! [`Mechanic::resolve_roll`](super::Mechanic::resolve_roll) run this check before the
//! mechanic's own, so every front end refuses the same things with the same words.

use super::{
    CardPick, EntryField, InputKind, InputSpec, InputValue, Inputs, ListEntry, Mechanic,
    ResolveError,
};

/// Checks every value of `inputs` against `mechanic`'s description.
///
/// # Errors
/// [`ResolveError::Invalid`] naming the input (or the list field) and what it may be.
pub(super) fn check_inputs(mechanic: &Mechanic, inputs: &Inputs) -> Result<(), ResolveError> {
    let specs = (mechanic.inputs)();
    for (key, value) in inputs.iter() {
        let Some(spec) = specs.iter().find(|s| s.key == key) else {
            let declared: Vec<&str> = specs.iter().map(|s| s.key).collect();
            let known = if declared.is_empty() {
                "it takes none".to_string()
            } else {
                format!("it takes {}", declared.join(", "))
            };
            return Err(ResolveError::invalid(
                key,
                format!("not an input of {}: {known}", mechanic.title()),
            ));
        };
        check_value(mechanic, spec, value)?;
    }
    Ok(())
}

fn wrong_kind(spec: &InputSpec, value: &InputValue) -> ResolveError {
    ResolveError::invalid(
        spec.key,
        format!("{value:?} does not fit {} ({:?})", spec.label, spec.kind),
    )
}

/// "3 given: at most 2 (Disruption Points already on the target; at 3 it is dispersed)".
fn out_of_range<T: PartialOrd + std::fmt::Display>(
    key: &'static str,
    help: &str,
    given: T,
    min: T,
    max: T,
) -> ResolveError {
    let limit = if given < min {
        format!("at least {min}")
    } else {
        format!("at most {max}")
    };
    let why = help.trim_end_matches('.');
    ResolveError::invalid(key, format!("{given} given: {limit} ({why})"))
}

/// Checks one value that names no card against its description: what a battle action's own
/// parameters are checked with ([`crate::rules::battle::table`]), in the same words as a
/// mechanic's inputs. A card is the battle's to set, never a parameter.
///
/// # Errors
/// [`ResolveError::Invalid`] naming the input and what it may be.
pub fn check_value_of(spec: &InputSpec, value: &InputValue) -> Result<(), ResolveError> {
    match (&spec.kind, value) {
        (InputKind::Card { .. } | InputKind::CardList { .. }, _) => Err(ResolveError::invalid(
            spec.key,
            "the battle sets it from the units".to_string(),
        )),
        (InputKind::Toggle, InputValue::Flag(_)) => Ok(()),
        (InputKind::Choice(options), InputValue::Choice(chosen)) => {
            if options.iter().any(|o| o.key == *chosen) {
                Ok(())
            } else {
                spec.option_named(chosen).map(|_| ())
            }
        }
        (InputKind::Count { min, max }, InputValue::Count(n)) => {
            if (min..=max).contains(&n) {
                Ok(())
            } else {
                Err(out_of_range(spec.key, spec.help, *n, *min, *max))
            }
        }
        (InputKind::Number { min, max }, InputValue::Number(x)) => {
            if x.is_finite() && (min..=max).contains(&x) {
                Ok(())
            } else {
                Err(out_of_range(spec.key, spec.help, *x, *min, *max))
            }
        }
        (_, value) => Err(wrong_kind(spec, value)),
    }
}

fn check_value(
    mechanic: &Mechanic,
    spec: &InputSpec,
    value: &InputValue,
) -> Result<(), ResolveError> {
    match (&spec.kind, value) {
        (
            InputKind::Toggle
            | InputKind::Choice(_)
            | InputKind::Count { .. }
            | InputKind::Number { .. },
            _,
        ) => check_value_of(spec, value),
        (InputKind::Card { filter, .. }, InputValue::Card(pick)) => match pick {
            Some(pick) => check_card(mechanic, spec, *filter, pick),
            None => Ok(()),
        },
        (
            InputKind::CardList {
                filter,
                max,
                fields,
            },
            InputValue::CardList(list),
        ) => {
            if list.len() > *max {
                return Err(ResolveError::invalid(
                    spec.key,
                    format!("{} given: at most {max}", list.len()),
                ));
            }
            list.iter()
                .try_for_each(|entry| check_entry(mechanic, spec, *filter, fields, entry))
        }
        (_, value) => Err(wrong_kind(spec, value)),
    }
}

fn check_card(
    mechanic: &Mechanic,
    spec: &InputSpec,
    filter: super::CardFilter,
    pick: &CardPick,
) -> Result<(), ResolveError> {
    if pick.card.ruleset() == mechanic.ruleset && filter(&pick.card) {
        Ok(())
    } else {
        Err(spec.refuse_card(pick, mechanic.ruleset))
    }
}

fn check_entry(
    mechanic: &Mechanic,
    spec: &InputSpec,
    filter: super::CardFilter,
    fields: &[EntryField],
    entry: &ListEntry,
) -> Result<(), ResolveError> {
    if let Some(pick) = &entry.card {
        check_card(mechanic, spec, filter, pick)?;
    }
    for (key, n) in &entry.numbers {
        let Some(field) = fields.iter().find(|f| f.key == *key) else {
            let declared: Vec<&str> = fields.iter().map(|f| f.key).collect();
            return Err(ResolveError::invalid(
                spec.key,
                format!(
                    "'{key}' is not a field of {}: it has {}",
                    spec.label,
                    declared.join(", ")
                ),
            ));
        };
        if !(field.min..=field.max).contains(n) {
            return Err(out_of_range(
                field.key, field.help, *n, field.min, field.max,
            ));
        }
    }
    Ok(())
}
