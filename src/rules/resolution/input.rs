//! What a mechanic asks for: each input's key, label, help, kind, default and whether the
//! default is a house reading, and the values a front end fills in.
//!
//! The window draws a widget per input from this description and the command line builds its
//! flags from it (a flag's name is the key in kebab case unless [`Spelling`] says otherwise),
//! so neither holds its own copy of a mechanic's situation. What a value may be (a choice's
//! options, a count's range, a card's filter) is checked here once for every front end
//! ([`Mechanic::resolve_odds`](super::Mechanic::resolve_odds) refuses the rest), and a
//! choice is read into the rules' own type through one [`ChoiceTable`] per type.

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
    /// The value's key (`double`); the command line also takes it in kebab case.
    pub key: &'static str,
    /// How people read it ("Double move").
    pub label: &'static str,
    /// Command-line flags that pick this option on their own (`--opportunity`), first the
    /// flag and then its aliases.
    pub flags: &'static [&'static str],
    /// Other words the command line takes for it (`militia`).
    pub aliases: &'static [&'static str],
}

impl Choice {
    pub const fn new(key: &'static str, label: &'static str) -> Self {
        Choice {
            key,
            label,
            flags: &[],
            aliases: &[],
        }
    }

    /// The same option, also picked by a flag of its own (`--light-cover`).
    pub const fn flag(mut self, flags: &'static [&'static str]) -> Self {
        self.flags = flags;
        self
    }

    /// The same option, also answering to `aliases` on the command line.
    pub const fn alias(mut self, aliases: &'static [&'static str]) -> Self {
        self.aliases = aliases;
        self
    }
}

/// A choice's options and the rules value each stands for: the one table from which an
/// input's options are drawn and a chosen key is read back, so a key can never fall through
/// to a default.
pub struct ChoiceTable<T: 'static>(pub &'static [(Choice, T)]);

impl<T: Copy + PartialEq + 'static> ChoiceTable<T> {
    /// The options, in order.
    pub fn choices(&self) -> Vec<Choice> {
        self.0.iter().map(|(choice, _)| *choice).collect()
    }

    /// The key of `value` ("" when the table lacks it: a test checks every default).
    pub fn key_of(&self, value: T) -> &'static str {
        self.0
            .iter()
            .find(|(_, v)| *v == value)
            .map_or("", |(choice, _)| choice.key)
    }

    /// A choice input over this table, `default` chosen at first.
    pub fn input(
        &self,
        key: &'static str,
        label: &'static str,
        help: &'static str,
        default: T,
    ) -> InputSpec {
        InputSpec {
            kind: InputKind::Choice(Cow::Owned(self.choices())),
            default: InputValue::Choice(self.key_of(default)),
            ..InputSpec::toggle(key, label, help)
        }
    }

    /// The value chosen for input `key`.
    ///
    /// # Errors
    /// [`ResolveError::Invalid`] naming the input when its key is none of the table's (the
    /// input check refuses that before any mechanic reads it).
    pub fn read(&self, inputs: &Inputs, key: &'static str) -> Result<T, ResolveError> {
        let chosen = inputs.choice(key);
        self.0
            .iter()
            .find(|(choice, _)| choice.key == chosen)
            .map(|(_, value)| *value)
            .ok_or_else(|| {
                let keys: Vec<&str> = self.0.iter().map(|(c, _)| c.key).collect();
                ResolveError::invalid(key, format!("'{chosen}' is not one of {}", keys.join(", ")))
            })
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
    /// The command-line flag when it is not the key in kebab case (`range` for `range_cm`).
    pub flag: Option<&'static str>,
}

impl EntryField {
    /// The command-line flag's name, without the dashes.
    pub fn flag_name(&self) -> Cow<'static, str> {
        self.flag
            .map_or_else(|| Cow::Owned(self.key.replace('_', "-")), Cow::Borrowed)
    }
}

/// How the command line spells an input where its key in kebab case will not do: a name kept
/// from older command lines, aliases, and the option a bare flag picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Spelling {
    /// The flag's name instead of the key's (`artillery` for `battery`). Inputs of one
    /// mechanic that share a name are given together, in order (`--command-dice 6 5`).
    pub name: Option<&'static str>,
    /// Other names of the flag (`shooter` for `unit`).
    pub aliases: &'static [&'static str],
    /// For a choice: the option a flag given with no value picks (`--evading` alone: `auto`).
    pub bare: Option<&'static str>,
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
    /// The command line's spelling where the key's will not do.
    pub spelling: Spelling,
    /// For a card input: why a card its filter leaves out is refused, after the card's name
    /// ("is off-table artillery: it fires artillery missions, not direct fire").
    pub refusal: Option<&'static str>,
}

impl InputSpec {
    /// An input as the constructors below give it: shown always, no house default, its flag
    /// its key, no refusal of its own.
    const fn of(
        key: &'static str,
        label: &'static str,
        help: &'static str,
        kind: InputKind,
        default: InputValue,
    ) -> Self {
        InputSpec {
            key,
            label,
            help,
            kind,
            default,
            house_default: None,
            shown_when: None,
            spelling: Spelling {
                name: None,
                aliases: &[],
                bare: None,
            },
            refusal: None,
        }
    }

    /// A toggle, off by default.
    pub const fn toggle(key: &'static str, label: &'static str, help: &'static str) -> Self {
        InputSpec::of(key, label, help, InputKind::Toggle, InputValue::Flag(false))
    }

    /// A choice whose default is `default` (one of the options' keys).
    pub const fn choice(
        key: &'static str,
        label: &'static str,
        help: &'static str,
        options: &'static [Choice],
        default: &'static str,
    ) -> Self {
        InputSpec::of(
            key,
            label,
            help,
            InputKind::Choice(Cow::Borrowed(options)),
            InputValue::Choice(default),
        )
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
        InputSpec::of(
            key,
            label,
            help,
            InputKind::Count { min, max },
            InputValue::Count(default),
        )
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
        InputSpec::of(
            key,
            label,
            help,
            InputKind::Number { min, max },
            InputValue::Number(default),
        )
    }

    /// A card that passes `filter`, none chosen at first.
    pub const fn card(
        key: &'static str,
        label: &'static str,
        help: &'static str,
        filter: CardFilter,
    ) -> Self {
        InputSpec::of(
            key,
            label,
            help,
            InputKind::Card {
                filter,
                optional: false,
            },
            InputValue::Card(None),
        )
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

    /// The same input, under the flag `--name` on the command line.
    pub fn flag(mut self, name: &'static str) -> Self {
        self.spelling.name = Some(name);
        self
    }

    /// The same input, its flag also answering to `aliases`.
    pub fn flag_aliases(mut self, aliases: &'static [&'static str]) -> Self {
        self.spelling.aliases = aliases;
        self
    }

    /// The same choice, picking `option` when its flag is given with no value.
    pub fn bare(mut self, option: &'static str) -> Self {
        self.spelling.bare = Some(option);
        self
    }

    /// The same card input, refusing a card its filter leaves out with `reason` (after the
    /// card's name).
    pub fn refusing(mut self, reason: &'static str) -> Self {
        self.refusal = Some(reason);
        self
    }

    /// The command-line flag's name, without the dashes.
    pub fn flag_name(&self) -> Cow<'static, str> {
        self.spelling
            .name
            .map_or_else(|| Cow::Owned(self.key.replace('_', "-")), Cow::Borrowed)
    }

    /// The option of this choice that `text` names: its key (any case, `-` for `_`), an
    /// alias, its label, or the abbreviation in brackets at the end of its label ("LMG").
    ///
    /// # Errors
    /// [`ResolveError::Invalid`] naming the input, with the options (or, for a long list,
    /// the nearest ones) when `text` names none; also when the input is not a choice.
    pub fn option_named(&self, text: &str) -> Result<&'static str, ResolveError> {
        let InputKind::Choice(options) = &self.kind else {
            return Err(ResolveError::invalid(self.key, "takes no named option"));
        };
        let fold = |t: &str| crate::rules::names::fold(t).replace(['-', ' '], "_");
        let wanted = fold(text);
        // "Light machine gun (LMG)": a word in brackets ending the label is its short name
        // ("(+1)", "(SS 1–2)" are notes, not names).
        let abbreviation = |label: &'static str| {
            label
                .rsplit_once('(')
                .and_then(|(_, rest)| rest.strip_suffix(')'))
                .filter(|a| {
                    a.chars().all(char::is_alphanumeric) && a.chars().any(char::is_alphabetic)
                })
        };
        let found = options.iter().find(|o| {
            fold(o.key) == wanted
                || fold(o.label) == wanted
                || o.aliases.iter().any(|a| fold(a) == wanted)
                || abbreviation(o.label).is_some_and(|a| fold(a) == wanted)
        });
        if let Some(option) = found {
            return Ok(option.key);
        }
        Err(ResolveError::invalid(
            self.key,
            unknown_option(self, options, text),
        ))
    }

    /// The card input's refusal of `card`, which its filter leaves out.
    pub fn refuse_card(&self, card: &CardPick, ruleset: crate::rules::RulesetId) -> ResolveError {
        let name = card.label();
        let message = if card.card.ruleset() != ruleset {
            format!(
                "'{name}' is a {} card, not a {} one",
                card.card.ruleset().title(),
                ruleset.title()
            )
        } else if let Some(reason) = self.refusal {
            format!("{name} {reason}")
        } else {
            format!("{name} cannot be the {}", self.label.to_lowercase())
        };
        ResolveError::invalid(self.key, message)
    }
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

/// Options are listed in full up to this many; past it, only the nearest to what was typed.
const MAX_LISTED_OPTIONS: usize = 10;

/// "'x': one of short, effective, long", or for a long list "no weapon named 'x' — did you
/// mean 'Rifle'?".
fn unknown_option(spec: &InputSpec, options: &[Choice], text: &str) -> String {
    if options.len() <= MAX_LISTED_OPTIONS {
        let keys: Vec<String> = options.iter().map(|o| o.key.replace('_', "-")).collect();
        return format!("'{text}': one of {}", keys.join(", "));
    }
    // An option with no key stands for "none chosen": never a suggestion.
    let nearest = crate::rules::names::nearest_among(
        options
            .iter()
            .filter(|o| !o.key.is_empty())
            .map(|o| (o.label, vec![o.key, o.label])),
        text,
    );
    let mut message = format!("no {} named '{text}'", spec.label.to_lowercase());
    if !nearest.is_empty() {
        let quoted: Vec<String> = nearest.iter().map(|n| format!("'{n}'")).collect();
        message.push_str(&format!(" — did you mean {}?", quoted.join(", ")));
    }
    message
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
///
/// Made from the mechanic's description ([`Inputs::defaults`]), it holds every declared key;
/// the typed getters assert (in debug builds) that the key asked for is one of them, so a
/// misspelt key in a mechanic fails its tests instead of reading as "off".
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

    /// The value of a declared input (debug builds check that it is declared).
    fn declared(&self, key: &str) -> Option<&InputValue> {
        debug_assert!(
            self.0.contains_key(key),
            "input '{key}' is not declared (declared: {:?})",
            self.0.keys().collect::<Vec<_>>()
        );
        self.0.get(key)
    }

    /// A toggle's value; off when unset.
    pub fn flag(&self, key: &str) -> bool {
        matches!(self.declared(key), Some(InputValue::Flag(true)))
    }

    /// A choice's key; empty when unset.
    pub fn choice(&self, key: &str) -> &'static str {
        match self.declared(key) {
            Some(InputValue::Choice(c)) => c,
            _ => "",
        }
    }

    /// A count; 0 when unset.
    pub fn count(&self, key: &str) -> i64 {
        match self.declared(key) {
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
        match self.declared(key) {
            Some(InputValue::Number(n)) => *n,
            Some(InputValue::Count(n)) => *n as f64,
            _ => 0.0,
        }
    }

    /// The chosen card, if any.
    pub fn card(&self, key: &str) -> Option<&CardPick> {
        match self.declared(key) {
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
        match self.declared(key) {
            Some(InputValue::CardList(l)) => l,
            _ => &[],
        }
    }

    /// Every input key with a value, in key order.
    pub fn keys(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.0.keys().copied()
    }

    /// Every input with its value, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &InputValue)> + '_ {
        self.0.iter().map(|(k, v)| (*k, v))
    }
}
