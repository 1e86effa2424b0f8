//! The card editor's fields, described the way a mechanic describes its inputs: each card
//! type lists its fields with their current values ([`CardData::fields`]) and takes edits
//! back ([`CardData::set_field`]), so the window draws any ruleset's card with one generic
//! form and never names a ruleset.
//!
//! [`CardData::fields`]: super::card::CardData::fields
//! [`CardData::set_field`]: super::card::CardData::set_field

/// One option of a choice, or one of several things to switch on or off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldOption {
    pub label: String,
    /// What it means, shown as its tooltip (empty: none).
    pub help: String,
}

impl FieldOption {
    pub fn new(label: impl Into<String>, help: impl Into<String>) -> Self {
        FieldOption {
            label: label.into(),
            help: help.into(),
        }
    }
}

/// What kind of value a field takes.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldKind {
    /// A line of text.
    Text { hint: &'static str },
    /// One of a few options.
    Choice(Vec<FieldOption>),
    /// A whole number from `min` to `max`.
    Count { min: i64, max: i64 },
    /// On or off.
    Toggle,
    /// Any of several options (special rules, traits, weapons).
    Many(Vec<FieldOption>),
    /// Worked out from the other fields: shown, never edited.
    Shown,
}

/// A field's value as the card holds it, or an edit the editor sends back.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldValue {
    Text(String),
    /// The chosen option's position; one past the options when the card holds none of
    /// them (shown as "?").
    Choice(usize),
    Count(i64),
    Flag(bool),
    /// Which options are on, in the options' order.
    Many(Vec<bool>),
    /// An edit of a [`FieldKind::Many`] field: option `.0` switched on or off.
    Toggled(usize, bool),
    /// A value worked out from the others ("17 points"), or why there is none.
    Shown(Result<String, String>),
}

/// One field of the card editor.
#[derive(Debug, Clone, PartialEq)]
pub struct CardField {
    /// What [`CardData::set_field`](super::card::CardData::set_field) is told.
    pub key: &'static str,
    pub label: &'static str,
    /// What the field means, shown as its tooltip (empty: none).
    pub help: &'static str,
    pub kind: FieldKind,
    pub value: FieldValue,
}

impl CardField {
    /// A line of text.
    pub fn text(key: &'static str, label: &'static str, hint: &'static str, value: &str) -> Self {
        CardField {
            key,
            label,
            help: "",
            kind: FieldKind::Text { hint },
            value: FieldValue::Text(value.to_string()),
        }
    }

    /// One of the values in `table`, each with its label; `value` is the current one.
    pub fn choice<T: PartialEq>(
        key: &'static str,
        label: &'static str,
        table: &[(T, &str)],
        value: &T,
    ) -> Self {
        CardField {
            key,
            label,
            help: "",
            kind: FieldKind::Choice(
                table
                    .iter()
                    .map(|(_, label)| FieldOption::new(*label, ""))
                    .collect(),
            ),
            value: FieldValue::Choice(
                table
                    .iter()
                    .position(|(v, _)| v == value)
                    .unwrap_or(table.len()),
            ),
        }
    }

    /// A whole number in `min..=max`.
    pub fn count(
        key: &'static str,
        label: &'static str,
        help: &'static str,
        (min, max): (i64, i64),
        value: impl Into<i64>,
    ) -> Self {
        CardField {
            key,
            label,
            help,
            kind: FieldKind::Count { min, max },
            value: FieldValue::Count(value.into()),
        }
    }

    /// On or off.
    pub fn toggle(key: &'static str, label: &'static str, value: bool) -> Self {
        CardField {
            key,
            label,
            help: "",
            kind: FieldKind::Toggle,
            value: FieldValue::Flag(value),
        }
    }

    /// Any of `options`; `on` says which are on.
    pub fn many(
        key: &'static str,
        label: &'static str,
        options: Vec<FieldOption>,
        on: Vec<bool>,
    ) -> Self {
        CardField {
            key,
            label,
            help: "",
            kind: FieldKind::Many(options),
            value: FieldValue::Many(on),
        }
    }

    /// A value worked out from the other fields, or why there is none.
    pub fn shown(key: &'static str, label: &'static str, value: Result<String, String>) -> Self {
        CardField {
            key,
            label,
            help: "",
            kind: FieldKind::Shown,
            value: FieldValue::Shown(value),
        }
    }
}

/// The value of `table` an edit chose, if it is a choice within the table.
pub fn chosen<T: Copy>(table: &[(T, &str)], value: &FieldValue) -> Option<T> {
    match value {
        FieldValue::Choice(i) => table.get(*i).map(|(v, _)| *v),
        _ => None,
    }
}

/// The number an edit set, if it fits `T`.
pub fn counted<T: TryFrom<i64>>(value: &FieldValue) -> Option<T> {
    match value {
        FieldValue::Count(n) => T::try_from(*n).ok(),
        _ => None,
    }
}

/// Applies an edit of a [`FieldKind::Many`] field whose options are `options` to `list`: a
/// switched-on option joins the end, a switched-off one leaves.
pub fn toggle_in<T: PartialEq + Clone>(list: &mut Vec<T>, options: &[T], value: &FieldValue) {
    let FieldValue::Toggled(i, on) = value else {
        return;
    };
    let Some(option) = options.get(*i) else {
        return;
    };
    if *on {
        if !list.contains(option) {
            list.push(option.clone());
        }
    } else {
        list.retain(|x| x != option);
    }
}

/// Which of `options` `list` holds, in the options' order.
pub fn on_of<T: PartialEq>(list: &[T], options: &[T]) -> Vec<bool> {
    options.iter().map(|o| list.contains(o)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_choice_points_at_the_current_value_and_an_edit_reads_back() {
        let table = [(3u8, "3"), (5, "5"), (7, "7")];
        let field = CardField::choice("armour", "Armour", &table, &5);
        assert_eq!(field.value, FieldValue::Choice(1));
        assert_eq!(chosen(&table, &FieldValue::Choice(2)), Some(7));
        assert_eq!(chosen(&table, &FieldValue::Choice(3)), None);
    }

    #[test]
    fn toggling_keeps_the_order_things_were_switched_on_in() {
        let options = ["a", "b", "c"];
        let mut list = vec!["c"];
        toggle_in(&mut list, &options, &FieldValue::Toggled(0, true));
        toggle_in(&mut list, &options, &FieldValue::Toggled(0, true));
        assert_eq!(list, ["c", "a"]);
        toggle_in(&mut list, &options, &FieldValue::Toggled(2, false));
        assert_eq!(list, ["a"]);
        assert_eq!(on_of(&list, &options), [true, false, false]);
        assert_eq!(counted::<u8>(&FieldValue::Count(300)), None);
        assert_eq!(counted::<u8>(&FieldValue::Count(30)), Some(30));
    }
}
