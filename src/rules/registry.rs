//! The static list of rulesets: adding a sixth is one module plus one line here.

use std::sync::LazyLock;

use super::card::Card;
use super::error::RulesError;
use super::ruleset::{Ruleset, RulesetId};
use super::{armour_battles, battle_of_tanks, belle_epoque, belloludi, bolt_action};

static ARMOUR_BATTLES: armour_battles::ArmourBattles = armour_battles::ArmourBattles;
static BELLOLUDI: belloludi::BelloLudi = belloludi::BelloLudi;
static BATTLE_OF_TANKS: battle_of_tanks::BattleOfTanks = battle_of_tanks::BattleOfTanks;
static BOLT_ACTION: bolt_action::BoltAction = bolt_action::BoltAction;
static BELLE_EPOQUE: belle_epoque::BelleEpoque = belle_epoque::BelleEpoque;

/// The ruleset behind `id`.
pub fn ruleset(id: RulesetId) -> &'static dyn Ruleset {
    match id {
        RulesetId::ArmourBattles => &ARMOUR_BATTLES,
        RulesetId::Belloludi => &BELLOLUDI,
        RulesetId::BattleOfTanks => &BATTLE_OF_TANKS,
        RulesetId::BoltAction => &BOLT_ACTION,
        RulesetId::BelleEpoque => &BELLE_EPOQUE,
    }
}

/// All five rulesets in menu order.
pub fn all_rulesets() -> impl Iterator<Item = &'static dyn Ruleset> {
    RulesetId::ALL.into_iter().map(ruleset)
}

/// Problems parsing the embedded book data; empty in a correct build (a test checks).
pub fn seed_errors() -> Vec<RulesError> {
    [
        armour_battles::seed_error(),
        belloludi::seed_error(),
        battle_of_tanks::seed_error(),
        bolt_action::seed_error(),
        belle_epoque::seed_error(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// A ruleset's embedded book data once parsed: its revision, its cards and the ruleset's own
/// tables `T`.
pub(crate) struct BookData<T> {
    pub revision: u32,
    pub cards: Vec<Card>,
    pub tables: T,
}

/// A ruleset's book data, parsed on first use. A parse failure is kept, not panicked on: the
/// ruleset then shows an empty library and [`seed_errors`] names the file and the field.
pub(crate) struct Book<T: 'static>(LazyLock<Result<BookData<T>, RulesError>>);

impl<T> Book<T> {
    pub(crate) const fn new(load: fn() -> Result<BookData<T>, RulesError>) -> Self {
        Book(LazyLock::new(load))
    }

    pub(crate) fn error(&self) -> Option<RulesError> {
        self.0.as_ref().err().cloned()
    }

    pub(crate) fn cards(&self) -> &[Card] {
        self.0.as_ref().map_or(&[], |d| d.cards.as_slice())
    }

    pub(crate) fn revision(&self) -> u32 {
        self.0.as_ref().map_or(0, |d| d.revision)
    }

    /// The ruleset's tables, or the parse error.
    pub(crate) fn loaded(&self) -> Result<&T, RulesError> {
        self.0.as_ref().map(|d| &d.tables).map_err(Clone::clone)
    }

    pub(crate) fn tables(&self) -> Option<&T> {
        self.0.as_ref().ok().map(|d| &d.tables)
    }
}

/// Parses an embedded seed file, naming it in the error.
pub(crate) fn parse_seed<T: serde::de::DeserializeOwned>(
    file: &'static str,
    text: &str,
) -> Result<T, RulesError> {
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| RulesError::Seed {
        file,
        message: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_seed_file_parses() {
        assert_eq!(seed_errors(), Vec::<RulesError>::new());
    }

    #[test]
    fn every_ruleset_has_cards_and_is_registered_under_its_id() {
        for id in RulesetId::ALL {
            assert_eq!(ruleset(id).id(), id);
            assert!(!ruleset(id).library().is_empty(), "{id}");
            assert_eq!(id.as_str().parse::<RulesetId>(), Ok(id));
        }
    }
}
