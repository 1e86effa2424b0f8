//! The one trait every ruleset implements, and the ids that name them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::card::Card;
use super::error::RulesError;
use super::force::{Budget, Force};
use super::validation::BudgetCheck;

/// The five rulesets, with their stable ids (`armour-battles`, …) used in files and the CLI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RulesetId {
    ArmourBattles,
    Belloludi,
    BattleOfTanks,
    BoltAction,
    BelleEpoque,
}

impl RulesetId {
    /// Every ruleset, in menu order.
    pub const ALL: [RulesetId; 5] = [
        RulesetId::ArmourBattles,
        RulesetId::Belloludi,
        RulesetId::BattleOfTanks,
        RulesetId::BoltAction,
        RulesetId::BelleEpoque,
    ];

    /// The id used in files and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            RulesetId::ArmourBattles => "armour-battles",
            RulesetId::Belloludi => "belloludi",
            RulesetId::BattleOfTanks => "battle-of-tanks",
            RulesetId::BoltAction => "bolt-action",
            RulesetId::BelleEpoque => "belle-epoque",
        }
    }

    /// The book's title, for people.
    pub fn title(self) -> &'static str {
        match self {
            RulesetId::ArmourBattles => "Armour Battles",
            RulesetId::Belloludi => "BelloLudi Tanks!",
            RulesetId::BattleOfTanks => "Battle of Tanks",
            RulesetId::BoltAction => "Bolt Action",
            RulesetId::BelleEpoque => "Belle Epoque",
        }
    }
}

impl fmt::Display for RulesetId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for RulesetId {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase();
        RulesetId::ALL
            .into_iter()
            .find(|id| id.as_str() == wanted)
            .ok_or_else(|| RulesError::UnknownRuleset(s.to_string()))
    }
}

/// What one unit of a card counts against its force's budget: "17 points", "6 tier points".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnitCost {
    pub amount: u64,
    /// Plural, as the budget names it: "points", "tier points", "stands".
    pub unit: &'static str,
}

impl fmt::Display for UnitCost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&super::validation::amount(self.amount, self.unit))
    }
}

/// What a ruleset provides to the rest of the app. One implementation per book.
pub trait Ruleset: Sync {
    /// Which ruleset this is.
    fn id(&self) -> RulesetId;
    /// One line on what the book is, for the ruleset list.
    fn summary(&self) -> &'static str;
    /// The book's cards, in book order.
    fn library(&self) -> &[Card];
    /// Revision of the embedded book data; bumped whenever a card's numbers change.
    fn data_revision(&self) -> u32;
    /// Revision of the project's rulings for this book (RULINGS "Revisions"): bumped when a
    /// ruling is corrected. Every campaign event records the revision it was resolved under.
    fn rules_revision(&self) -> u32 {
        1
    }
    /// What an event resolved under an older `revision` should say beside it ("recorded under
    /// revision 1 (…; corrected in revision 2)"); `None` for the current revision.
    fn revision_note(&self, _revision: u32) -> Option<String> {
        None
    }
    /// Parses an inline (custom) card given in a force file, reporting errors at `path`.
    fn parse_inline_card(&self, value: &serde_json::Value, path: &str) -> Result<Card, RulesError>;
    /// The budget a new force of this ruleset starts with.
    fn default_budget(&self) -> Budget;
    /// What one unit of `card` costs against the budget, where the card alone decides it
    /// (`None` for battle groups, and for Bolt Action, whose costs the player sets per unit).
    fn unit_cost(&self, _card: &Card) -> Option<UnitCost> {
        None
    }
    /// Checks a force whose cards are resolved against this ruleset's budget rules.
    fn check_budget(&self, force: &Force, cards: &[Option<&Card>]) -> BudgetCheck;
    /// Things worth telling the player that do not make the force illegal, in plain words
    /// ("Lorraine Battle 3 German: Tiger I missing — 13 of 14 units"). None by default.
    fn warnings(&self, _force: &Force, _cards: &[Option<&Card>]) -> Vec<String> {
        Vec::new()
    }
    /// What the ruleset resolves (odds and rolls), in menu order.
    fn mechanics(&self) -> &'static [super::resolution::Mechanic] {
        &[]
    }
}
