//! The one trait every ruleset implements: everything the app asks of a ruleset, answered by
//! the ruleset itself. The ids naming the rulesets come from the registry's list.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

pub use super::RulesetId;
use super::card::Card;
use super::error::RulesError;
use super::force::{Budget, Force, ForceUnit};
use super::reference::{Table, Tags};
use super::registry::{BookSource, Embedded};
use super::validation::BudgetCheck;

impl RulesetId {
    /// The book's title, for people.
    pub fn title(self) -> &'static str {
        super::ruleset(self).title()
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

/// Which number of a force line a [`LineField`] sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineValue {
    /// [`ForceUnit::points`].
    Points,
    /// [`ForceUnit::stands`].
    Stands,
}

/// A number a force sets on each of its lines where the book leaves it to the players (Bolt
/// Action's points per unit, Belle Epoque's stands per unit): the column the force editor
/// shows and what the line then costs against the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineField {
    /// The printed card's label ("Points", "Stands").
    pub label: &'static str,
    /// The force editor's column header ("Points each", "Stands").
    pub column: &'static str,
    /// After the number in the force editor (" pts"), or "".
    pub suffix: &'static str,
    /// The number's tooltip in the force editor, or "" for none.
    pub help: &'static str,
    /// The tooltip while the number is not set and the card gives none to fall back on.
    pub unset_help: &'static str,
    pub value: LineValue,
    /// What the number counts against the budget, plural ("points", "stands").
    pub unit: &'static str,
    pub min: u32,
    pub max: u32,
}

impl LineField {
    /// The line's own value, if it sets one.
    pub fn get(&self, unit: &ForceUnit) -> Option<u32> {
        match self.value {
            LineValue::Points => unit.points,
            LineValue::Stands => unit.stands,
        }
    }

    /// Sets the line's own value.
    pub fn set(&self, unit: &mut ForceUnit, value: u32) {
        match self.value {
            LineValue::Points => unit.points = Some(value),
            LineValue::Stands => unit.stands = Some(value),
        }
    }

    /// What one unit of the line costs by its own value, if it sets one.
    pub fn cost(&self, unit: &ForceUnit) -> Option<UnitCost> {
        Some(UnitCost {
            amount: u64::from(self.get(unit)?),
            unit: self.unit,
        })
    }
}

/// What one unit of `unit`'s line costs against the budget: the line's own number where its
/// ruleset lets a force set one ([`Ruleset::line_field`]), else what the card costs. The one
/// answer the validation, the force editor, the roster and the printed cards share.
pub fn line_cost(card: &Card, unit: &ForceUnit) -> Option<UnitCost> {
    // A card from army data costs what its data says: a number typed on the line is for cards
    // the book gives no cost.
    if let Some(army) = card.army() {
        return Some(UnitCost {
            amount: army.price(),
            unit: "points",
        });
    }
    let rules = super::ruleset(card.ruleset());
    rules
        .line_field()
        .and_then(|field| field.cost(unit))
        .or_else(|| rules.unit_cost(card))
}

/// A budget the book names — a battle group, a scenario — as pickers offer it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedBudget {
    pub budget: Budget,
    /// "Lorraine Battle 1 German", "Encounter scenario".
    pub title: String,
    /// One line on what it asks ("24–36 stands a side").
    pub detail: String,
}

/// A force the book sets out whole (a mission's battle group), offered ready-made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PresetForce {
    /// As `force preset ID` takes it (`lorraine-1-german`).
    pub id: String,
    pub title: String,
    /// Where the book sets it out ("Lorraine 1944").
    pub collection: &'static str,
    /// After the title in `force preset --list` ("Delay the US advance, 7 units").
    pub summary: String,
    /// Shown as a tooltip beside the title.
    pub help: String,
}

/// A printed briefing under a roster, for a force built against a named budget that the
/// book plays as a battle of its own (a Lorraine battle group): its numbers in words, rows
/// of tick boxes, and per-unit tracking columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Briefing {
    /// "Lorraine Battle 1 German".
    pub title: String,
    /// Paragraphs in order; `true` prints bold.
    pub paragraphs: Vec<(bool, String)>,
    /// A label and its number of tick boxes ("Army morale", 5).
    pub tallies: Vec<(String, u32)>,
    /// The per-unit table: a column header and the boxes each unit gets under it.
    pub unit_columns: Vec<(&'static str, UnitBoxes)>,
    /// What a unit's row says instead of boxes when its card
    /// [tracks no damage](super::card::CardData::tracks_damage) ("off table: never
    /// disrupted").
    pub untracked: &'static str,
    /// The briefing in one line, as the book's preset force carries it in its notes: the
    /// roster leaves out notes that only repeat it.
    pub notes_line: String,
}

/// How many tick boxes a unit gets in a briefing column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitBoxes {
    Fixed(u32),
    /// The leading number of the card's statistic with this label, or `default`.
    FromStat(&'static str, u32),
}

/// What a ruleset provides to the rest of the app. One implementation per book; the
/// registry (`rules/mod.rs`) lists them.
pub trait Ruleset: Sync {
    /// The book's embedded data: its id, title, summary, cards, revision and load error,
    /// which the defaults below read.
    fn book(&self) -> &'static dyn BookSource;
    /// Which ruleset this is.
    fn id(&self) -> RulesetId {
        self.book().id()
    }
    /// The book's title, for people ("BelloLudi Tanks!").
    fn title(&self) -> &'static str {
        self.book().title()
    }
    /// One line on what the book is, for the ruleset list.
    fn summary(&self) -> &'static str {
        self.book().summary()
    }
    /// The book's cards, in book order.
    fn library(&self) -> &[Card] {
        self.book().cards()
    }
    /// Revision of the embedded book data; bumped whenever a card's numbers change.
    fn data_revision(&self) -> u32 {
        self.book().revision()
    }
    /// Revision of the project's rulings for this book (RULINGS "Revisions"): bumped when a
    /// ruling is corrected. Every campaign event records the revision it was resolved under.
    fn rules_revision(&self) -> u32 {
        self.table_battle().map_or(1, |e| e.revision)
    }
    /// What an event of `kind` resolved under an older `revision` should say beside it
    /// ("recorded under revision 1 (…; corrected in revision 2)"); `None` when no correction
    /// since concerns that kind of event.
    fn revision_note(&self, revision: u32, kind: &str) -> Option<String> {
        let engine = self.table_battle()?;
        super::battle::table::revision_note(revision, kind, engine.revision, engine.corrected)
    }
    /// Why the embedded book data did not load; `None` in a correct build (a test checks).
    fn seed_error(&self) -> Option<RulesError> {
        self.book().error()
    }
    /// The printed card's layout (`templates/cards/<id>.json`), embedded by the registry.
    fn card_template(&self) -> Embedded {
        self.id().card_template()
    }
    /// The quick reference (`templates/reference/<id>.json`), embedded by the registry.
    fn reference_template(&self) -> Embedded {
        self.id().reference_template()
    }
    /// A blank card for the card editor, with the book's most common values.
    fn new_card(&self) -> Card;
    /// Parses an inline (custom) card given in a force file, reporting errors at `path`.
    fn parse_inline_card(&self, value: &serde_json::Value, path: &str) -> Result<Card, RulesError>;
    /// The budget a new force of this ruleset starts with.
    fn default_budget(&self) -> Budget;
    /// The budgets the book names (battle groups, scenarios), for pickers; none by default.
    fn named_budgets(&self) -> Vec<NamedBudget> {
        Vec::new()
    }
    /// Forces the book sets out whole; none by default.
    fn preset_forces(&self) -> Vec<PresetForce> {
        Vec::new()
    }
    /// The preset `id` as a force, if it is one of this ruleset's.
    fn preset_force(&self, _id: &str) -> Option<Force> {
        None
    }
    /// What one unit of `card` costs against the budget, where the card alone decides it
    /// (`None` for battle groups, and where the players set costs per line).
    fn unit_cost(&self, _card: &Card) -> Option<UnitCost> {
        None
    }
    /// The number each force line sets for itself, if the book leaves one to the players.
    fn line_field(&self) -> Option<LineField> {
        None
    }
    /// Checks a force whose cards are resolved against this ruleset's budget rules.
    fn check_budget(&self, force: &Force, cards: &[Option<&Card>]) -> BudgetCheck;
    /// Things worth telling the player that do not make the force illegal, in plain words
    /// ("Lorraine Battle 3 German: Tiger I missing — 13 of 14 units"). None by default.
    fn warnings(&self, _force: &Force, _cards: &[Option<&Card>]) -> Vec<String> {
        Vec::new()
    }
    /// The briefing a roster prints for a force built against `budget`, if the book plays
    /// that budget as a battle of its own.
    fn briefing(&self, _budget: &Budget) -> Option<Briefing> {
        None
    }
    /// True when the book scores victory points: the roster leaves a line for them.
    fn scores_victory_points(&self) -> bool {
        false
    }
    /// True when this ruleset reads the army lists of the BattleScribe game system `name`
    /// (the player's own data, imported with `data import`).
    fn reads_game_system(&self, _name: &str) -> bool {
        false
    }
    /// A catalogue's units (links followed) as this ruleset's cards, each carrying its
    /// [`ArmyEntry`](super::army_data::ArmyEntry); what cannot be mapped goes in `notes`, by
    /// entry, and the card keeps what is known.
    fn army_cards(
        &self,
        _units: &[super::battlescribe::Resolved],
        _context: &super::army_data::ArmyContext<'_>,
        _notes: &mut Vec<super::battlescribe::Note>,
    ) -> Vec<Card> {
        Vec::new()
    }
    /// The engine its battles are fought with turn by turn on a board, where it has one (a
    /// ruleset whose battles keep a state of their own has none here).
    fn table_battle(&self) -> Option<super::battle::table::TableEngine> {
        None
    }

    /// What the ruleset resolves (odds and rolls), in menu order.
    fn mechanics(&self) -> &'static [super::resolution::Mechanic] {
        &[]
    }
    /// Every tag a force of this ruleset could have; its quick reference may require only
    /// these.
    fn known_tags(&self) -> BTreeSet<String> {
        BTreeSet::new()
    }
    /// Tags a force has from its budget rather than its cards (a battle group's
    /// deployments).
    fn budget_tags(&self, _budget: &Budget, _tags: &mut BTreeSet<String>) {}
    /// The names of the tables this ruleset builds for its quick reference
    /// (`<module>.weapons`, by the module's name).
    fn reference_sources(&self) -> &'static [&'static str] {
        &[]
    }
    /// The table `source` names, for a force with `tags`; `None` when the source is not
    /// this ruleset's or its data did not load.
    fn reference_table(&self, _source: &str, _tags: Tags<'_>) -> Option<Table> {
        None
    }
}
