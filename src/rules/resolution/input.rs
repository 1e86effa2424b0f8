//! What a mechanic asks for: each input's key, label, help, kind, default and whether the
//! default is a house reading, and the values a front end fills in.
//!
//! The window draws a widget per input from this description and the command line maps its
//! flags onto the same keys, so neither holds its own copy of a mechanic's situation.

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::rules::Card;
use crate::rules::HouseDefault;

use super::ResolveError;

/// Which cards a card input accepts (an attacker list leaves out off-table artillery, a
/// battery list holds only artillery).
pub type CardFilter = fn(&Card) -> bool;

/// One option of a choice input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    /// The value's key, as the command line spells it (`double`).
    pub key: &'static str,
    /// How people read it ("Double move").
    pub label: &'static str,
}

impl Choice {
    pub const fn new(key: &'static str, label: &'static str) -> Self {
        Choice { key, label }
    }
}

/// A number field of each entry in a card list (shots, range, hit points).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryField {
    pub key: &'static str,
    pub label: &'static str,
    pub help: &'static str,
    pub min: i64,
    pub max: i64,
}

/// What kind of value an input takes.
#[derive(Debug, Clone)]
pub enum InputKind {
    /// On or off.
    Toggle,
    /// One of a few options (from the book's data where it lists them, such as weapons).
    Choice(Cow<'static, [Choice]>),
    /// A whole number from `min` to `max`.
    Count { min: i64, max: i64 },
    /// A measurement (inches) from `min` to `max`.
    Number { min: f64, max: f64 },
    /// One card of the mechanic's ruleset that passes `filter`; `optional` when the mechanic
    /// works without one.
    Card { filter: CardFilter, optional: bool },
    /// One to `max` cards, each with the number `fields` (0 in a field means "the default").
    CardList {
        filter: CardFilter,
        max: usize,
        fields: &'static [EntryField],
    },
}

/// One input of a mechanic.
#[derive(Debug, Clone)]
pub struct InputSpec {
    /// The key the mechanic reads and the command line maps a flag to (`target_disruption`).
    pub key: &'static str,
    pub label: &'static str,
    /// Shown as the widget's tooltip and in `--help`: what the input changes.
    pub help: &'static str,
    pub kind: InputKind,
    pub default: InputValue,
    /// Set when the default (or the input itself) rests on a house reading (RULINGS).
    pub house_default: Option<HouseDefault>,
    /// Shown only while this other choice has one of the given values (`None`: always): a
    /// flank shot means nothing to an artillery mission.
    pub shown_when: Option<(&'static str, &'static [&'static str])>,
}

impl InputSpec {
    /// A toggle, off by default.
    pub const fn toggle(key: &'static str, label: &'static str, help: &'static str) -> Self {
        InputSpec {
            key,
            label,
            help,
            kind: InputKind::Toggle,
            default: InputValue::Flag(false),
            house_default: None,
            shown_when: None,
        }
    }

    /// A choice whose default is `default` (one of the options' keys).
    pub const fn choice(
        key: &'static str,
        label: &'static str,
        help: &'static str,
        options: &'static [Choice],
        default: &'static str,
    ) -> Self {
        InputSpec {
            key,
            label,
            help,
            kind: InputKind::Choice(Cow::Borrowed(options)),
            default: InputValue::Choice(default),
            house_default: None,
            shown_when: None,
        }
    }

    /// A whole number in `min..=max`.
    pub const fn count(
        key: &'static str,
        label: &'static str,
        help: &'static str,
        min: i64,
        max: i64,
        default: i64,
    ) -> Self {
        InputSpec {
            key,
            label,
            help,
            kind: InputKind::Count { min, max },
            default: InputValue::Count(default),
            house_default: None,
            shown_when: None,
        }
    }

    /// A measurement in `min..=max`.
    pub const fn number(
        key: &'static str,
        label: &'static str,
        help: &'static str,
        min: f64,
        max: f64,
        default: f64,
    ) -> Self {
        InputSpec {
            key,
            label,
            help,
            kind: InputKind::Number { min, max },
            default: InputValue::Number(default),
            house_default: None,
            shown_when: None,
        }
    }

    /// A card that passes `filter`, none chosen at first.
    pub const fn card(
        key: &'static str,
        label: &'static str,
        help: &'static str,
        filter: CardFilter,
    ) -> Self {
        InputSpec {
            key,
            label,
            help,
            kind: InputKind::Card {
                filter,
                optional: false,
            },
            default: InputValue::Card(None),
            house_default: None,
            shown_when: None,
        }
    }

    /// The same input, shown only while choice `key` has one of `values`.
    pub fn when(mut self, key: &'static str, values: &'static [&'static str]) -> Self {
        self.shown_when = Some((key, values));
        self
    }

    /// The same input, marked as resting on `ruling`.
    pub fn house(mut self, ruling: HouseDefault) -> Self {
        self.house_default = Some(ruling);
        self
    }

    /// The same card input, allowed to stay empty.
    pub fn optional(mut self) -> Self {
        if let InputKind::Card { filter, .. } = &self.kind {
            let filter = *filter;
            self.kind = InputKind::Card {
                filter,
                optional: true,
            };
        }
        self
    }

    /// Whether the input applies with `inputs` as they stand.
    pub fn shown(&self, inputs: &Inputs) -> bool {
        match self.shown_when {
            None => true,
            Some((key, values)) => match inputs.get(key) {
                Some(InputValue::Choice(chosen)) => values.contains(chosen),
                _ => true,
            },
        }
    }
}

/// A chosen card and how a front end names it ("Sherman · custom").
#[derive(Debug, Clone, PartialEq)]
pub struct CardPick {
    pub card: Card,
    /// A card from the data folder rather than the book: every answer says so.
    pub custom: bool,
}

impl CardPick {
    pub fn book(card: &Card) -> Self {
        CardPick {
            card: card.clone(),
            custom: false,
        }
    }

    /// The card as the ruleset's own card type (`variant` picks it out of [`Card`]), or a
    /// refusal naming input `key` when it is another book's card.
    pub fn as_card<T>(
        &self,
        key: &'static str,
        book: &str,
        variant: fn(&Card) -> Option<&T>,
    ) -> Result<&T, ResolveError> {
        variant(&self.card).ok_or_else(|| {
            ResolveError::invalid(key, format!("'{}' is not a {book} card", self.card.name()))
        })
    }

    /// "Sherman", or "Sherman · custom".
    pub fn label(&self) -> String {
        if self.custom {
            format!("{} · custom", self.card.name())
        } else {
            self.card.name().to_string()
        }
    }
}

/// One entry of a card list: the card and its number fields.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ListEntry {
    pub card: Option<CardPick>,
    pub numbers: BTreeMap<&'static str, i64>,
}

impl ListEntry {
    /// The field `key`, 0 when unset (0 means "the default").
    pub fn number(&self, key: &str) -> i64 {
        self.numbers.get(key).copied().unwrap_or(0)
    }
}

/// The value of one input.
#[derive(Debug, Clone, PartialEq)]
pub enum InputValue {
    Flag(bool),
    Choice(&'static str),
    Count(i64),
    Number(f64),
    Card(Option<CardPick>),
    CardList(Vec<ListEntry>),
}

/// The values of a mechanic's inputs, by key.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Inputs(BTreeMap<&'static str, InputValue>);

impl Inputs {
    /// Every input at its default.
    pub fn defaults(specs: &[InputSpec]) -> Self {
        Inputs(specs.iter().map(|s| (s.key, s.default.clone())).collect())
    }

    pub fn get(&self, key: &str) -> Option<&InputValue> {
        self.0.get(key)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut InputValue> {
        self.0.get_mut(key)
    }

    pub fn set(&mut self, key: &'static str, value: InputValue) {
        self.0.insert(key, value);
    }

    /// A toggle's value; off when unset.
    pub fn flag(&self, key: &str) -> bool {
        matches!(self.get(key), Some(InputValue::Flag(true)))
    }

    /// A choice's key; empty when unset.
    pub fn choice(&self, key: &str) -> &'static str {
        match self.get(key) {
            Some(InputValue::Choice(c)) => c,
            _ => "",
        }
    }

    /// A count; 0 when unset.
    pub fn count(&self, key: &str) -> i64 {
        match self.get(key) {
            Some(InputValue::Count(n)) => *n,
            _ => 0,
        }
    }

    /// A count as `u32`, clamped (the description's range keeps it small).
    pub fn count_u32(&self, key: &str) -> u32 {
        u32::try_from(self.count(key).max(0)).unwrap_or(u32::MAX)
    }

    /// A measurement; 0 when unset.
    pub fn number(&self, key: &str) -> f64 {
        match self.get(key) {
            Some(InputValue::Number(n)) => *n,
            Some(InputValue::Count(n)) => *n as f64,
            _ => 0.0,
        }
    }

    /// The chosen card, if any.
    pub fn card(&self, key: &str) -> Option<&CardPick> {
        match self.get(key) {
            Some(InputValue::Card(c)) => c.as_ref(),
            _ => None,
        }
    }

    /// How the chosen card is named in answers ("Sherman · custom"); empty when none is.
    pub fn label_of(&self, key: &str) -> String {
        self.card(key).map(CardPick::label).unwrap_or_default()
    }

    /// The chosen card, or an [`ResolveError::Invalid`] naming the input: "choose the
    /// `what`".
    pub fn require_card(&self, key: &'static str, what: &str) -> Result<&CardPick, ResolveError> {
        self.card(key)
            .ok_or_else(|| ResolveError::invalid(key, format!("choose the {what}")))
    }

    /// The card chosen for `key` as the ruleset's own card type (`variant` picks it out of
    /// [`Card`]); `None` when no card is chosen, refused when it is another book's card.
    pub fn card_as<T>(
        &self,
        key: &'static str,
        book: &str,
        variant: fn(&Card) -> Option<&T>,
    ) -> Result<Option<&T>, ResolveError> {
        self.card(key)
            .map(|pick| pick.as_card(key, book, variant))
            .transpose()
    }

    /// A card list's entries.
    pub fn list(&self, key: &str) -> &[ListEntry] {
        match self.get(key) {
            Some(InputValue::CardList(l)) => l,
            _ => &[],
        }
    }

    /// Every input key with a value, in key order.
    pub fn keys(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.0.keys().copied()
    }
}
