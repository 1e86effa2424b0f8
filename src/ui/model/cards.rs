//! Which card is meant, everywhere in the window: a book card by ruleset and name, a custom
//! card by its row id. A name alone is not enough, since a custom "Sherman" may sit beside the
//! book's Sherman; both must stay selectable, editable and distinguishable.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::rules::{self, Card, RulesetId, UnitCost};
use crate::store::CardId;

use super::Model;

/// A card's identity in the window.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CardKey {
    /// Book names are unique within a ruleset.
    Book(RulesetId, String),
    Custom(CardId),
    /// A unit from imported army data: its catalogue's id and its entry's id.
    Data(String, String),
}

/// A card with its identity, as lists show it.
#[derive(Debug, Clone, Copy)]
pub struct CardEntry<'a> {
    pub card: &'a Card,
    /// `None` for a book card.
    pub custom: Option<CardId>,
    /// A unit from imported army data (read-only, priced by its data).
    pub data: bool,
}

impl<'a> CardEntry<'a> {
    pub fn key(&self) -> CardKey {
        if let (true, Some(army)) = (self.data, self.card.army()) {
            return CardKey::Data(army.source.id.clone(), army.entry_id.clone());
        }
        match self.custom {
            Some(id) => CardKey::Custom(id),
            None => CardKey::Book(self.card.ruleset(), self.card.name().to_string()),
        }
    }

    pub fn is(&self, key: &CardKey) -> bool {
        if self.data || matches!(key, CardKey::Data(..)) {
            return self.key() == *key;
        }
        match (key, self.custom) {
            (CardKey::Custom(id), Some(mine)) => *id == mine,
            (CardKey::Book(ruleset, name), None) => {
                *ruleset == self.card.ruleset() && name == self.card.name()
            }
            _ => false,
        }
    }

    /// The name as lists show it: "Sherman", or "Sherman · custom".
    pub fn label(&self) -> Cow<'a, str> {
        if let (true, Some(army)) = (self.data, self.card.army()) {
            return Cow::Owned(format!("{} · {}", self.card.name(), army.source.label()));
        }
        match self.custom {
            Some(_) => Cow::Owned(format!("{} · custom", self.card.name())),
            None => Cow::Borrowed(self.card.name()),
        }
    }

    /// What one unit costs against its force's budget, where the card decides it.
    pub fn cost(&self) -> Option<UnitCost> {
        if let Some(army) = self.card.army() {
            return Some(UnitCost {
                amount: army.price(),
                unit: "points",
            });
        }
        rules::ruleset(self.card.ruleset()).unit_cost(self.card)
    }
}

/// What a search looks through for one card, in lower case: its name, short names and type,
/// kept apart by a character nobody types.
pub fn search_text(card: &Card) -> String {
    CardFacts::of(card).search
}

/// What the Library and Add units read of every card, made once when the cards change, so a
/// keystroke or an edit with 100,000 cards neither lower-cases nor labels any of them again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardFacts {
    pub ruleset: RulesetId,
    /// [`search_text`].
    pub search: String,
    /// [`Card::type_label`].
    pub type_label: String,
    /// [`Card::side`].
    pub side: Option<String>,
}

impl CardFacts {
    pub fn of(card: &Card) -> CardFacts {
        let type_label = card.type_label();
        let mut search = card.name().to_lowercase();
        for short in card.short_names() {
            search.push('\u{1f}');
            search.push_str(&short.to_lowercase());
        }
        search.push('\u{1f}');
        search.push_str(&type_label.to_lowercase());
        CardFacts {
            ruleset: card.ruleset(),
            search,
            type_label,
            side: card.side().map(str::to_string),
        }
    }
}

/// How many cards there are of each ruleset, and of each side and type within it, kept card by
/// card: the Library's ruleset counts and its side and type lists come from here, not from a
/// pass over every card after each edit.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facets {
    types: BTreeMap<(RulesetId, String), usize>,
    sides: BTreeMap<(RulesetId, String), usize>,
}

impl Facets {
    pub fn of(facts: &[CardFacts]) -> Facets {
        // Counted on borrowed names first: one owned name per distinct type, not per card.
        let mut types: BTreeMap<(RulesetId, &str), usize> = BTreeMap::new();
        let mut sides: BTreeMap<(RulesetId, &str), usize> = BTreeMap::new();
        for fact in facts {
            *types.entry((fact.ruleset, &fact.type_label)).or_default() += 1;
            if let Some(side) = &fact.side {
                *sides.entry((fact.ruleset, side)).or_default() += 1;
            }
        }
        let owned = |map: BTreeMap<(RulesetId, &str), usize>| {
            map.into_iter()
                .map(|((r, name), n)| ((r, name.to_string()), n))
                .collect()
        };
        Facets {
            types: owned(types),
            sides: owned(sides),
        }
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: Facets) {
        for (key, n) in other.types {
            *self.types.entry(key).or_default() += n;
        }
        for (key, n) in other.sides {
            *self.sides.entry(key).or_default() += n;
        }
    }

    pub fn add(&mut self, fact: &CardFacts) {
        *self
            .types
            .entry((fact.ruleset, fact.type_label.clone()))
            .or_default() += 1;
        if let Some(side) = &fact.side {
            *self.sides.entry((fact.ruleset, side.clone())).or_default() += 1;
        }
    }

    pub fn remove(&mut self, fact: &CardFacts) {
        fn take(map: &mut BTreeMap<(RulesetId, String), usize>, key: (RulesetId, String)) {
            if let Some(n) = map.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    map.remove(&key);
                }
            }
        }
        take(&mut self.types, (fact.ruleset, fact.type_label.clone()));
        if let Some(side) = &fact.side {
            take(&mut self.sides, (fact.ruleset, side.clone()));
        }
    }

    /// Cards of `ruleset`.
    pub fn count(&self, ruleset: RulesetId) -> usize {
        self.types
            .iter()
            .filter(|((r, _), _)| *r == ruleset)
            .map(|(_, n)| n)
            .sum()
    }

    /// The sides of `ruleset` (or of all), sorted.
    pub fn sides(&self, ruleset: Option<RulesetId>) -> Vec<String> {
        Facets::names(&self.sides, ruleset)
    }

    /// The types of `ruleset` (or of all), sorted.
    pub fn types(&self, ruleset: Option<RulesetId>) -> Vec<String> {
        Facets::names(&self.types, ruleset)
    }

    fn names(
        map: &BTreeMap<(RulesetId, String), usize>,
        ruleset: Option<RulesetId>,
    ) -> Vec<String> {
        let names: BTreeSet<&str> = map
            .keys()
            .filter(|(r, _)| ruleset.is_none_or(|wanted| wanted == *r))
            .map(|(_, name)| name.as_str())
            .collect();
        names.into_iter().map(str::to_string).collect()
    }
}

/// Every card's [`CardFacts`], in [`Model::card_entries`]`(None)` order.
pub fn facts_index(model: &Model) -> Vec<CardFacts> {
    model
        .card_entries(None)
        .iter()
        .map(|e| CardFacts::of(e.card))
        .collect()
}

/// How many book cards there are: they come first in [`Model::card_entries`]`(None)`.
pub fn book_count() -> usize {
    RulesetId::ALL
        .into_iter()
        .map(|id| rules::ruleset(id).library().len())
        .sum()
}

/// The store's order of custom cards (`cards_select.sql`): ruleset id, then name with ASCII
/// letters folded as SQLite's `NOCASE` folds them, then id; so one card can be put in its place
/// without reading the others.
pub fn store_order(a: (CardId, &Card), b: (CardId, &Card)) -> std::cmp::Ordering {
    let folded = |card: &Card| {
        card.name()
            .bytes()
            .map(|byte| byte.to_ascii_lowercase())
            .collect::<Vec<u8>>()
    };
    a.1.ruleset()
        .as_str()
        .cmp(b.1.ruleset().as_str())
        .then_with(|| folded(a.1).cmp(&folded(b.1)))
        .then_with(|| a.0.cmp(&b.0))
}

impl Model {
    /// Positions in [`Model::card_entries`]`(None)` of the cards of `ruleset` (or all) whose
    /// words contain `needle` (already trimmed and lower case; empty matches all).
    pub fn search_cards(&self, ruleset: Option<RulesetId>, needle: &str) -> Vec<usize> {
        self.card_facts
            .iter()
            .enumerate()
            .filter(|(_, facts)| {
                ruleset.is_none_or(|r| r == facts.ruleset)
                    && (needle.is_empty() || facts.search.contains(needle))
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// Every card's [`CardFacts`], in [`Model::card_entries`]`(None)` order.
    pub fn card_facts(&self) -> &[CardFacts] {
        &self.card_facts
    }

    /// The cards counted by ruleset, side and type.
    pub fn facets(&self) -> &Facets {
        &self.facets
    }

    /// Every card of `ruleset` (or of all rulesets): the books' in book order, then the custom
    /// ones.
    pub fn card_entries(&self, ruleset: Option<RulesetId>) -> Vec<CardEntry<'_>> {
        let book = RulesetId::ALL
            .into_iter()
            .filter(|id| ruleset.is_none_or(|r| r == *id))
            .flat_map(|id| rules::ruleset(id).library())
            .map(|card| CardEntry {
                card,
                custom: None,
                data: false,
            });
        let custom = self
            .custom_cards
            .iter()
            .filter(|(_, card)| ruleset.is_none_or(|r| r == card.ruleset()))
            .map(|(id, card)| CardEntry {
                card,
                custom: Some(*id),
                data: false,
            });
        let data = self
            .army_cards
            .iter()
            .filter(|card| ruleset.is_none_or(|r| r == card.ruleset()))
            .map(|card| CardEntry {
                card,
                custom: None,
                data: true,
            });
        book.chain(custom).chain(data).collect()
    }

    /// The `index`-th of [`Model::card_entries`]`(None)`, without listing them all.
    pub fn card_entry_at(&self, index: usize) -> Option<CardEntry<'_>> {
        let mut rest = index;
        for id in RulesetId::ALL {
            let library = rules::ruleset(id).library();
            match library.get(rest) {
                Some(card) => {
                    return Some(CardEntry {
                        card,
                        custom: None,
                        data: false,
                    });
                }
                None => rest -= library.len(),
            }
        }
        if let Some((id, card)) = self.custom_cards.get(rest) {
            return Some(CardEntry {
                card,
                custom: Some(*id),
                data: false,
            });
        }
        self.army_cards
            .get(rest - self.custom_cards.len())
            .map(|card| CardEntry {
                card,
                custom: None,
                data: true,
            })
    }

    /// The card `key` names, if it still exists.
    pub fn card(&self, key: &CardKey) -> Option<CardEntry<'_>> {
        match key {
            CardKey::Book(ruleset, name) => rules::ruleset(*ruleset)
                .library()
                .iter()
                .find(|c| c.name() == name)
                .map(|card| CardEntry {
                    card,
                    custom: None,
                    data: false,
                }),
            CardKey::Custom(id) => {
                self.custom_cards
                    .iter()
                    .find(|(mine, _)| mine == id)
                    .map(|(id, card)| CardEntry {
                        card,
                        custom: Some(*id),
                        data: false,
                    })
            }
            CardKey::Data(source, entry) => self
                .army_cards
                .iter()
                .find(|c| {
                    c.army()
                        .is_some_and(|a| a.source.id == *source && a.entry_id == *entry)
                })
                .map(|card| CardEntry {
                    card,
                    custom: None,
                    data: true,
                }),
        }
    }
}
