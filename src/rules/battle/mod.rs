//! A battle at the table, whatever the ruleset: the seam between the generic campaign (its
//! event log, undo, forks, sync, verification, after-action report) and one ruleset's battle
//! rules.
//!
//! # The seam
//!
//! A ruleset whose battles are tracked turn by turn implements [`BattleRules`] in its own
//! module, `rules/<ruleset>/battle/`, pure like the rest of `rules/`:
//! - a **plan** (who fields what, with which dice — fixed when the battle is set up),
//! - a **state** (a plain value: the fold of the events that count, never stored),
//! - its **events** (recorded facts carrying every die, never requests to roll),
//! - how an event **changes the state** ([`BattleRules::apply`]),
//! - what may be done in a state, described ruleset-neutrally as [`Action`]s: each names the
//!   unit or side acting, the mechanic it resolves with (a [`MechanicId`] of the same ruleset),
//!   the inputs the state fixes or bounds, what it costs, and why it is refused when it is,
//! - the event an action records ([`BattleRules::decide`], from a neutral [`Request`] and the
//!   [`Dice`]), and the same decision re-made from a recorded event for verification
//!   ([`BattleRules::rederive`]).
//!
//! Front ends never decide a rule. The window's tracker draws its buttons and forms from
//! [`BattleRules::actions`] the way the Resolve form draws from a mechanic's inputs: an action
//! with a mechanic opens that mechanic's form with the battle's fixed inputs filled in and its
//! limits applied; the odds shown are the mechanic's own [`Report`] for
//! [`BattleRules::situation`]'s inputs, and a roll is [`BattleRules::decide`]'s, whose report is
//! the mechanic's for the same inputs and dice. `campaign record` turns its flags into the same
//! [`Request`]. So the tracker, the command line and the Resolve view linked to a battle give
//! one answer for one situation.
//!
//! The campaign side (`campaign/`) knows a battle only through this trait: it folds a log by
//! calling [`BattleRules::start`] and [`BattleRules::apply`] for every event that counts (undo,
//! redo and forks are its business), derives the seed of every app roll from the battle's
//! history, checks recorded dice against it, and verifies an imported log by asking
//! [`BattleRules::rederive`] for each event and comparing.
//!
//! # Adding a ruleset's battle
//! Implement [`table::TableRules`] in `rules/<ruleset>/table_battle.rs` (the units' counters
//! and marks on the shared [`board::Board`], one event kind `act` re-decided from its dice) and
//! return it from `Ruleset::table_battle`: the campaign, the command line (`campaign record …
//! act`), the window's board tracker and the after-action report need no new code. A scripted
//! campaign of the ruleset is a data file (`docs/scripted-campaigns.md`).

pub mod alias;
pub mod big_table;
pub mod board;
pub mod bulk;
mod error;
mod sides;
pub mod standing;
pub mod table;

use serde::{Deserialize, Serialize};

pub use error::BattleError;
pub use sides::{SIDES, Side, Sides, opponent};

use crate::rules::dice::RollRecord;
use crate::rules::resolution::{InputValue, Inputs, MechanicId, Report};

/// Where the dice of an action come from: the app rolls from a seed — in a campaign battle the
/// seed is never chosen, the campaign derives it from the battle's history — or the players
/// rolled them at the table and typed the faces, pool by pool.
pub use crate::rules::dice::DiceSource as Dice;

/// Where a recorded event's dice came from: the per-event mark that says which recording rules
/// it was made under. Serialised beside the dice (`"dice_from": "battle"`); absent for events
/// recorded before it existed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceFrom {
    /// Recorded before seeds were derived from the battle: the recorder chose the seed, and a
    /// wild die or Staff Order added to a roll was not charged. Such events verify as they
    /// always did.
    #[default]
    Chosen,
    /// The app rolled with the seed the battle's history gives; costs are charged and every
    /// refusal of the rules applies.
    Battle,
    /// The players rolled the dice at the table and typed the faces (the current rules apply,
    /// and the outcome is derived from those faces).
    Table,
}

impl DiceFrom {
    /// Recorded under the rules of play that charge costs and derive seeds.
    pub fn is_current(self) -> bool {
        self != DiceFrom::Chosen
    }

    /// For `skip_serializing_if`: events of the old rules keep their old shape.
    pub fn is_chosen(&self) -> bool {
        *self == DiceFrom::Chosen
    }
}

/// Groups for the event-log filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Command,
    Fire,
    Rally,
    Staff,
    Artillery,
    Units,
    Result,
    Undo,
    Fork,
    Setup,
}

impl Category {
    pub const ALL: [Category; 10] = [
        Category::Command,
        Category::Fire,
        Category::Rally,
        Category::Staff,
        Category::Artillery,
        Category::Units,
        Category::Result,
        Category::Undo,
        Category::Fork,
        Category::Setup,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Category::Command => "Command",
            Category::Fire => "Fire",
            Category::Rally => "Rally",
            Category::Staff => "Staff orders",
            Category::Artillery => "Artillery",
            Category::Units => "Units",
            Category::Result => "Result",
            Category::Undo => "Undo/redo",
            Category::Fork => "Forks",
            Category::Setup => "Setup",
        }
    }
}

/// What the generic log needs to know about a ruleset's event.
#[derive(Debug, Clone, PartialEq)]
pub struct Facts<'a> {
    /// The stable name stored beside the payload (`fire`).
    pub kind: &'static str,
    pub category: Category,
    /// The unit ids it concerns (the log's unit filter, the units' histories).
    pub units: Vec<&'a str>,
    /// Every die it records, in the order rolled.
    pub rolls: Vec<&'a RollRecord>,
    pub dice_from: DiceFrom,
}

/// Something spent by an action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cost {
    pub side: Side,
    /// "wild die", "Staff Order", "die of the 2×4 chain".
    pub what: String,
    pub count: u32,
}

impl Cost {
    /// "1 wild die" (the action is its side's).
    pub fn text(&self) -> String {
        format!("{} {}", self.count, self.what)
    }
}

/// An input the battle bounds: at most `max` (a bonus limited by the side's stock).
#[derive(Debug, Clone, PartialEq)]
pub struct Limit {
    pub key: &'static str,
    pub max: i64,
    /// Why: "US has 1 wild die and no Staff Order".
    pub why: String,
}

/// One thing that may be done in a battle now (or could be, with the reason it may not).
#[derive(Debug, Clone, PartialEq)]
pub struct Action {
    /// Stable, snake_case: what a [`Request`] names (`fire`, `rally`, `commit_reserves`).
    pub key: &'static str,
    /// What a button says ("Commit Armour Company 1").
    pub label: String,
    pub side: Option<Side>,
    /// The unit acting, by id.
    pub unit: Option<String>,
    /// The mechanic it resolves with; its form is the player's to fill in.
    pub mechanic: Option<MechanicId>,
    /// Units it may be aimed at, by id (empty when it takes no target).
    pub targets: Vec<String>,
    /// Inputs the battle decides (shown, not editable); also every parameter of an action
    /// without a mechanic, so a click is the whole request.
    pub fixed: Vec<(&'static str, InputValue)>,
    /// Inputs the battle bounds.
    pub limits: Vec<Limit>,
    /// Choice inputs the battle narrows: (input key, the option keys allowed). Fire in a battle
    /// is direct or opportunity fire; an artillery mission is fired from its battery.
    pub choices: Vec<(&'static str, Vec<&'static str>)>,
    /// What it spends.
    pub costs: Vec<Cost>,
    /// Why it cannot be done now; `None` when it can.
    pub refused: Option<String>,
    /// It removes something that cannot be taken back but by an undo (dispersing a unit):
    /// the window keeps it apart and asks first.
    pub destructive: bool,
    /// A correction by hand (a counter or a mark set to what the table shows), not a step of
    /// the rules: the window groups it apart from the verbs.
    pub correction: bool,
    /// Allowed, but the book leaves the moment to the players and the table may not be done
    /// with it yet (a turn ended with units that have not acted): the question a front end
    /// asks before recording it.
    pub confirm: Option<String>,
}

impl Action {
    /// A plain action: no mechanic, no target, nothing fixed, allowed.
    pub fn new(key: &'static str, label: impl Into<String>) -> Self {
        Action {
            key,
            label: label.into(),
            side: None,
            unit: None,
            mechanic: None,
            targets: Vec::new(),
            fixed: Vec::new(),
            limits: Vec::new(),
            choices: Vec::new(),
            costs: Vec::new(),
            refused: None,
            destructive: false,
            correction: false,
            confirm: None,
        }
    }

    pub fn allowed(&self) -> bool {
        self.refused.is_none()
    }

    /// The request a click makes: this action with its fixed inputs (and `target`, `inputs`
    /// added by a form).
    pub fn request(&self) -> Request {
        let mut inputs = Inputs::default();
        for (key, value) in &self.fixed {
            inputs.set(key, value.clone());
        }
        Request {
            action: self.key,
            side: self.side,
            unit: self.unit.clone(),
            target: None,
            inputs,
            text: String::new(),
        }
    }

    /// The limit on input `key`, if the battle bounds it.
    pub fn limit(&self, key: &str) -> Option<&Limit> {
        self.limits.iter().find(|l| l.key == key)
    }
}

/// What a player asks for, in the same words from every front end.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// An [`Action::key`].
    pub action: &'static str,
    pub side: Option<Side>,
    pub unit: Option<String>,
    pub target: Option<String>,
    /// The mechanic's inputs as the player set them (the battle overrides what it fixes), or
    /// the action's own parameters.
    pub inputs: Inputs,
    /// Free words the action records (what a Staff Order was used for).
    pub text: String,
}

impl Request {
    pub fn new(action: &'static str) -> Self {
        Request {
            action,
            side: None,
            unit: None,
            target: None,
            inputs: Inputs::default(),
            text: String::new(),
        }
    }

    pub fn text(mut self, text: impl Into<String>) -> Self {
        self.text = text.into();
        self
    }

    pub fn side(mut self, side: Side) -> Self {
        self.side = Some(side);
        self
    }

    pub fn unit(mut self, unit: impl Into<String>) -> Self {
        self.unit = Some(unit.into());
        self
    }

    pub fn target(mut self, target: impl Into<String>) -> Self {
        self.target = Some(target.into());
        self
    }

    pub fn with(mut self, key: &'static str, value: InputValue) -> Self {
        self.inputs.set(key, value);
        self
    }
}

/// An action decided: the event to record and, for an action resolved with a mechanic, the
/// mechanic's report of the very dice the event holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Decided<E> {
    pub event: E,
    pub report: Option<Report>,
}

/// Where a battle stands, for the campaign's results.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Summary {
    /// Over: the winner (`None`: a draw) and why.
    pub outcome: Option<(Option<Side>, String)>,
    /// Turns played.
    pub turns: u32,
    /// The ruleset's score per side where it keeps one (Armour Battles: Army Morale left).
    pub score: Option<Sides<u32>>,
    /// Card names each side lost.
    pub losses: Sides<Vec<String>>,
}

/// A ruleset's battle rules (see the module docs for the contract).
pub trait BattleRules {
    /// Who fields what, with which dice.
    type Plan;
    /// The table now.
    type State: Clone;
    /// One recorded fact.
    type Event: Clone + PartialEq + Serialize;

    /// The battle before anything happened; one unit of each card named in `carried` is
    /// missing (losses carried from earlier battles of the campaign).
    fn start(plan: &Self::Plan, carried: &Sides<Vec<String>>) -> Self::State;

    /// One event that counts, applied. Lenient by design: the log is the truth, so an event
    /// that no longer fits changes what it still can and nothing else.
    fn apply(state: &mut Self::State, event: &Self::Event);

    /// The players end the battle (`winner` `None`: a draw).
    fn conclude(state: &mut Self::State, winner: Option<Side>, notes: &str);

    fn summary(state: &Self::State) -> Summary;

    /// Everything that may be done now, and what may not with the reason.
    fn actions(plan: &Self::Plan, state: &Self::State) -> Vec<Action>;

    /// The mechanic a request resolves with and its inputs as the battle fixes them (cards
    /// from the units, the target's state, what the state allows): what the odds are shown
    /// for, and what [`Self::decide`] rolls.
    ///
    /// # Errors
    /// The request cannot be resolved now, or names no mechanic.
    fn situation(
        plan: &Self::Plan,
        state: &Self::State,
        request: &Request,
    ) -> Result<(MechanicId, Inputs), BattleError>;

    /// The event `request` records with `dice`, checked against the rules and the table.
    ///
    /// # Errors
    /// Why the rules or the table refuse it.
    fn decide(
        plan: &Self::Plan,
        state: &Self::State,
        request: &Request,
        dice: &Dice,
    ) -> Result<Decided<Self::Event>, BattleError>;

    /// Which pools `request` asks the players for with the faces `given` so far — every request
    /// in order up to the first the given faces do not answer — and the decision once they do:
    /// how a front end prompts for dice rolled at the table, pool after pool.
    fn pools(
        plan: &Self::Plan,
        state: &Self::State,
        request: &Request,
        given: &crate::rules::dice::TableDice,
    ) -> (
        Vec<crate::rules::dice::PoolRequest>,
        Result<Decided<Self::Event>, BattleError>,
    );

    /// The event the rules of `revision` give for `event`'s request and dice in `state`:
    /// verification compares it with the recorded one.
    ///
    /// # Errors
    /// The event could not have been recorded here.
    fn rederive(
        plan: &Self::Plan,
        state: &Self::State,
        event: &Self::Event,
        revision: u32,
    ) -> Result<Self::Event, BattleError>;

    /// The revisions of the ruleset's rulings this build can replay for `plan`'s battle, oldest
    /// first, the last the one new play is resolved under (RULINGS "Revisions").
    fn revisions(plan: &Self::Plan) -> std::ops::RangeInclusive<u32>;

    /// The event in plain words, naming units as the table does.
    fn describe(plan: &Self::Plan, event: &Self::Event) -> String;

    fn facts(event: &Self::Event) -> Facts<'_>;
}
