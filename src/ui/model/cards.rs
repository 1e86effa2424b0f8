//! Which card is meant, everywhere in the window: a book card by ruleset and name, a custom
//! card by its row id. A name alone is not enough, since a custom "Sherman" may sit beside the
//! book's Sherman; both must stay selectable, editable and distinguishable.

use std::borrow::Cow;

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
}

/// A card with its identity, as lists show it.
#[derive(Debug, Clone, Copy)]
pub struct CardEntry<'a> {
    pub card: &'a Card,
    /// `None` for a book card.
    pub custom: Option<CardId>,
}

impl<'a> CardEntry<'a> {
    pub fn key(&self) -> CardKey {
        match self.custom {
            Some(id) => CardKey::Custom(id),
            None => CardKey::Book(self.card.ruleset(), self.card.name().to_string()),
        }
    }

    pub fn is(&self, key: &CardKey) -> bool {
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
        match self.custom {
            Some(_) => Cow::Owned(format!("{} · custom", self.card.name())),
            None => Cow::Borrowed(self.card.name()),
        }
    }

    /// What one unit costs against its force's budget, where the card decides it.
    pub fn cost(&self) -> Option<UnitCost> {
        rules::ruleset(self.card.ruleset()).unit_cost(self.card)
    }
}

/// What a search looks through for one card, in lower case: its name, short names and type,
/// kept apart by a character nobody types.
pub fn search_text(card: &Card) -> String {
    let mut text = card.name().to_lowercase();
    for short in card.short_names() {
        text.push('\u{1f}');
        text.push_str(&short.to_lowercase());
    }
    text.push('\u{1f}');
    text.push_str(&card.type_label().to_lowercase());
    text
}

/// Every card's ruleset and [`search_text`], in [`Model::card_entries`]`(None)` order: made
/// when the cards change, so a keystroke searches 100,000 cards without lower-casing or
/// labelling any of them.
pub fn search_index(model: &Model) -> Vec<(RulesetId, String)> {
    model
        .card_entries(None)
        .iter()
        .map(|e| (e.card.ruleset(), search_text(e.card)))
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
        self.card_search
            .iter()
            .enumerate()
            .filter(|(_, (id, text))| {
                ruleset.is_none_or(|r| r == *id) && (needle.is_empty() || text.contains(needle))
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// Every card of `ruleset` (or of all rulesets): the books' in book order, then the custom
    /// ones.
    pub fn card_entries(&self, ruleset: Option<RulesetId>) -> Vec<CardEntry<'_>> {
        let book = RulesetId::ALL
            .into_iter()
            .filter(|id| ruleset.is_none_or(|r| r == *id))
            .flat_map(|id| rules::ruleset(id).library())
            .map(|card| CardEntry { card, custom: None });
        let custom = self
            .custom_cards
            .iter()
            .filter(|(_, card)| ruleset.is_none_or(|r| r == card.ruleset()))
            .map(|(id, card)| CardEntry {
                card,
                custom: Some(*id),
            });
        book.chain(custom).collect()
    }

    /// The `index`-th of [`Model::card_entries`]`(None)`, without listing them all.
    pub fn card_entry_at(&self, index: usize) -> Option<CardEntry<'_>> {
        let mut rest = index;
        for id in RulesetId::ALL {
            let library = rules::ruleset(id).library();
            match library.get(rest) {
                Some(card) => return Some(CardEntry { card, custom: None }),
                None => rest -= library.len(),
            }
        }
        self.custom_cards.get(rest).map(|(id, card)| CardEntry {
            card,
            custom: Some(*id),
        })
    }

    /// The card `key` names, if it still exists.
    pub fn card(&self, key: &CardKey) -> Option<CardEntry<'_>> {
        match key {
            CardKey::Book(ruleset, name) => rules::ruleset(*ruleset)
                .library()
                .iter()
                .find(|c| c.name() == name)
                .map(|card| CardEntry { card, custom: None }),
            CardKey::Custom(id) => {
                self.custom_cards
                    .iter()
                    .find(|(mine, _)| mine == id)
                    .map(|(id, card)| CardEntry {
                        card,
                        custom: Some(*id),
                    })
            }
        }
    }
}
