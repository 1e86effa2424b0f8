//! A card of any ruleset: the unit profile a force is built from.
//!
//! [`Card`] itself is made by the registry from its list (one variant per ruleset, tagged by
//! the ruleset's id when stored). What the app asks of a card — its name, statistics, rule
//! notes, editor fields, reference tags — is the [`CardData`] each ruleset's card type
//! implements, so nothing here matches on the rulesets.

use std::collections::BTreeSet;

pub use super::Card;
use super::army_data::ArmyEntry;
use super::card_field::{CardField, FieldKind, FieldValue};
use super::error::RulesError;
use super::stat::Stat;

/// A special rule or trait with what it does, as printed under a card's statistics.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RuleNote {
    pub title: String,
    pub text: String,
}

/// One weapon of a card as a table row (rulesets whose cards carry a weapons chart).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WeaponRow {
    pub name: String,
    pub range: String,
    pub shots: String,
    /// "+5", or "—" for no penetration.
    pub pen: String,
    /// Tags as carried by this unit ("Assault", "HE (D6)"), comma-separated.
    pub special: String,
}

/// What every ruleset's card type answers. Defaults fit a card with nothing to say.
pub trait CardData {
    /// The card's full name as the book prints it.
    fn name(&self) -> &str;
    fn set_name(&mut self, name: String);
    /// Other names players use for it ("Puma", "StuG III").
    fn short_names(&self) -> &[String] {
        &[]
    }
    /// Side or nation for filtering ("US", "German"), where the book gives one.
    fn side(&self) -> Option<&'static str> {
        None
    }
    /// The card's type for filtering ("Medium AFV", "Cavalry").
    fn type_label(&self) -> String;
    /// Every statistic, labelled and explained, in the order the book prints them.
    fn stats(&self) -> Vec<Stat>;
    /// The statistics the printed card shows: [`stats`](Self::stats) with what the table
    /// needs at a glance added or read as the rulings play it (a target number per range
    /// band, a morale pair).
    fn printed_stats(&self) -> Vec<Stat> {
        self.stats()
    }
    /// False for a unit that takes no damage on the table (off-table artillery): its card
    /// and the roster print no boxes to track it.
    fn tracks_damage(&self) -> bool {
        true
    }
    /// Labels of the values that are the project's examples rather than the book's
    /// (Rulings: Example values).
    fn example_labels(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// True when the whole card is the project's example: the book gives no such card.
    fn is_example_card(&self) -> bool {
        false
    }
    /// Makes a copy the player's own: drops what marks the book's or the project's examples.
    fn make_custom(&mut self) {}
    /// The special rules or traits on the card, explained, for the printed card.
    fn rule_notes(&self) -> Vec<RuleNote> {
        Vec::new()
    }
    /// The card's weapons as table rows, shown instead of its weapons statistic.
    fn weapon_rows(&self) -> Vec<WeaponRow> {
        Vec::new()
    }
    /// What the card uses, as quick-reference tags (`special_rule:break_off`); each must be
    /// one of its ruleset's [`known_tags`](super::Ruleset::known_tags).
    fn reference_tags(&self, _tags: &mut BTreeSet<String>) {}
    /// What the card costs and offers by imported army data, and which revision priced it;
    /// `None` for a card that did not come from army data.
    fn army(&self) -> Option<&ArmyEntry> {
        None
    }
    /// Takes `entry` as the card's army data (another variant, other options, a newer
    /// revision) and brings the values that follow from it up to date (quality, weapons).
    fn apply_army(&mut self, _entry: ArmyEntry) {}
    /// The card editor's fields after the name, with their current values.
    fn fields(&self) -> Vec<CardField>;
    /// Sets the field `key` from the editor; the card keeps its own values consistent.
    fn set_field(&mut self, key: &str, value: FieldValue);
}

impl Card {
    /// The card's full name as the book prints it.
    pub fn name(&self) -> &str {
        self.data().name()
    }

    /// Other names players use for it ("Puma", "StuG III").
    pub fn short_names(&self) -> &[String] {
        self.data().short_names()
    }

    /// True when `query` is the card's name or one of its short names, ignoring case.
    pub fn answers_to(&self, query: &str) -> bool {
        let query = query.trim();
        self.name().eq_ignore_ascii_case(query)
            || self
                .short_names()
                .iter()
                .any(|n| n.eq_ignore_ascii_case(query))
    }

    /// Side or nation for filtering ("US", "German"), where the book gives one.
    pub fn side(&self) -> Option<&'static str> {
        self.data().side()
    }

    /// The card's type for filtering ("Medium AFV", "Cavalry").
    pub fn type_label(&self) -> String {
        self.data().type_label()
    }

    /// Every statistic, labelled and explained, in the order the book prints them.
    pub fn stats(&self) -> Vec<Stat> {
        self.data().stats()
    }

    /// Labels of the values that are the project's examples rather than the book's
    /// (Rulings: Example values): every label of a card the book does not give, the missing
    /// values of a book card, none for a card the book prints whole or a player's own.
    pub fn example_labels(&self) -> Vec<&'static str> {
        self.data().example_labels()
    }

    /// True when the whole card is the project's example: the book gives no such card.
    pub fn is_example_card(&self) -> bool {
        self.data().is_example_card()
    }

    /// The special rules or traits on the card, explained.
    pub fn rule_notes(&self) -> Vec<RuleNote> {
        self.data().rule_notes()
    }

    /// Sets the editor field `key` from an edit, refusing a key the card's editor does not
    /// show: a misspelt key would otherwise be dropped without a word.
    ///
    /// # Errors
    /// [`RulesError::Field`] naming the key and the fields the card has.
    pub fn set_field(&mut self, key: &str, value: FieldValue) -> Result<(), RulesError> {
        let fields = self.data().fields();
        if !fields
            .iter()
            .any(|f| f.key == key && f.kind != FieldKind::Shown)
        {
            let keys: Vec<&str> = fields
                .iter()
                .filter(|f| f.kind != FieldKind::Shown)
                .map(|f| f.key)
                .collect();
            return Err(RulesError::field(
                key,
                format!(
                    "a {} card has no field '{key}' to set (fields: {})",
                    self.ruleset().title(),
                    keys.join(", ")
                ),
            ));
        }
        self.data_mut().set_field(key, value);
        Ok(())
    }

    /// The card's army data, where it came from imported data.
    pub fn army(&self) -> Option<&ArmyEntry> {
        self.data().army()
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::card_field::{FieldKind, FieldValue};
    use crate::rules::{RulesetId, ruleset};

    /// Checked over the registry, so a new ruleset's editor is checked for free.
    #[test]
    fn every_blank_card_is_valid_and_its_fields_read_back_unchanged() {
        for id in RulesetId::ALL {
            let rules = ruleset(id);
            let blank = rules.new_card();
            assert_eq!(
                rules.parse_inline_card(&blank.to_inline_json(), "card"),
                Ok(blank.clone()),
                "{id}: a blank card must be one a force file may hold"
            );
            let fields = blank.data().fields();
            let mut keys: Vec<&str> = fields.iter().map(|f| f.key).collect();
            keys.sort_unstable();
            keys.dedup();
            assert_eq!(keys.len(), fields.len(), "{id}: field keys repeat");
            for field in fields {
                let again = match (&field.kind, &field.value) {
                    (FieldKind::Choice(options), FieldValue::Choice(i)) => {
                        assert!(*i < options.len(), "{id} {}: no option chosen", field.key);
                        FieldValue::Choice(*i)
                    }
                    (FieldKind::Many(_), _) | (FieldKind::Shown, _) => continue,
                    (_, value) => value.clone(),
                };
                let mut card = blank.clone();
                card.data_mut().set_field(field.key, again);
                assert_eq!(
                    card, blank,
                    "{id}: setting {} to itself changed it",
                    field.key
                );
            }
        }
    }

    /// Every field the editor shows is one its card reads back when set to another value:
    /// a `set_field` arm whose key is misspelt (so the edit falls through to nothing) fails
    /// here, over the registry. A key no field has is refused by name.
    #[test]
    fn every_editor_field_is_one_the_card_sets_and_an_unknown_key_is_refused() {
        for id in RulesetId::ALL {
            let blank = ruleset(id).new_card();
            for field in blank.data().fields() {
                let other = match (&field.kind, &field.value) {
                    (FieldKind::Choice(options), FieldValue::Choice(i)) if options.len() > 1 => {
                        FieldValue::Choice((i + 1) % options.len())
                    }
                    (FieldKind::Count { min, max }, FieldValue::Count(n)) if min < max => {
                        FieldValue::Count(if n < max { n + 1 } else { n - 1 })
                    }
                    (FieldKind::Toggle, FieldValue::Flag(on)) => FieldValue::Flag(!on),
                    (FieldKind::Text { .. }, FieldValue::Text(t)) => {
                        FieldValue::Text(format!("{t} Mk II"))
                    }
                    (FieldKind::Many(options), FieldValue::Many(on)) if !options.is_empty() => {
                        FieldValue::Toggled(0, !on.first().copied().unwrap_or(false))
                    }
                    _ => continue,
                };
                let mut card = blank.clone();
                card.set_field(field.key, other)
                    .unwrap_or_else(|e| panic!("{id} {}: {e}", field.key));
                let now = card.data().fields();
                let after = now.iter().find(|f| f.key == field.key).map(|f| &f.value);
                assert_ne!(
                    after,
                    Some(&field.value),
                    "{id}: setting '{}' changed nothing: does set_field spell the key the same?",
                    field.key
                );
            }
            let mut card = blank.clone();
            let refusal = card
                .set_field("nmae", FieldValue::Text("Typo".into()))
                .unwrap_err()
                .to_string();
            assert!(refusal.contains("'nmae'"), "{refusal}");
            assert_eq!(card, blank, "{id}: a refused edit changes nothing");
        }
    }

    #[test]
    fn switching_an_option_of_a_many_field_on_and_off_restores_the_card() {
        for id in RulesetId::ALL {
            let blank = ruleset(id).new_card();
            for field in blank.data().fields() {
                let (FieldKind::Many(options), FieldValue::Many(on)) = (&field.kind, &field.value)
                else {
                    continue;
                };
                let Some(off) = on.iter().position(|on| !on) else {
                    continue;
                };
                assert_eq!(on.len(), options.len());
                let mut card = blank.clone();
                card.data_mut()
                    .set_field(field.key, FieldValue::Toggled(off, true));
                let shown = card.data().fields();
                let now = shown.iter().find(|f| f.key == field.key).map(|f| &f.value);
                assert!(
                    matches!(now, Some(FieldValue::Many(on)) if on[off]),
                    "{id} {}: option {off} did not switch on",
                    field.key
                );
                card.data_mut()
                    .set_field(field.key, FieldValue::Toggled(off, false));
                assert_eq!(card, blank, "{id} {}", field.key);
            }
        }
    }
}
