//! One battle engine for every ruleset that keeps its units on a [`Board`]: a ruleset says
//! what may be done and what an action does ([`TableRules`], in `rules/<ruleset>/
//! table_battle.rs`); [`TableBattle`] makes that a [`BattleRules`], so the campaign's log,
//! undo, forks, sync, verification, the tracker, `campaign record` and the after-action
//! report serve it with no code of their own.
//!
//! An action's event ([`TableEvent`]) keeps the request as the player made it, every die with
//! its pool, and the [`Effect`]s the rules drew from them. Verification decides the same
//! request again with the recorded dice (the seed for the app's, the faces for the table's)
//! and compares the events: a forged effect, a die changed or an action the state did not
//! allow is found without any ruleset writing a verifier.
//!
//! Revisions (RULINGS "Revisions"): a ruleset whose battle rules are corrected bumps its
//! [`crate::rules::ruleset::Ruleset::rules_revision`], and [`TableRules::actions`] and
//! [`TableRules::resolve`] are told which revision they decide under. New play is decided
//! under the current one; an event recorded under an earlier revision is decided again under
//! that one, so it keeps verifying as it was recorded.

use std::collections::BTreeMap;
use std::marker::PhantomData;

use serde::{Deserialize, Serialize};

use super::board::{Board, BoardUnit, Effect, Opening, TablePlan, TableUnit};
use super::bulk;
use super::standing::{self, TurnStanding, UnitStanding};
use super::{
    Action, BattleError, BattleRules, Category, Decided, Dice, DiceFrom, Facts, Request, Side,
    Sides, Summary,
};
use crate::rules::dice::{FaceNames, PoolRequest, RollRecord, Roller, Source, TableDice};
use crate::rules::force::ForceUnit;
use crate::rules::resolution::{InputKind, InputSpec, InputValue, Inputs, MechanicId, Report};
use crate::rules::{Card, HouseDefault, RulesetId};

/// What an action did: the changes to the board and the mechanic's report of the dice, if it
/// rolled through one.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Resolved {
    pub effects: Vec<Effect>,
    pub report: Option<Report>,
    /// The outcome in words when no report says it ("Order: Fire").
    pub result: Vec<String>,
}

/// A ruleset's battle on a [`Board`]. Pure: every function is a value of its arguments.
pub trait TableRules {
    const RULESET: RulesetId;
    /// Every action key [`Self::actions`] may offer (a recorded event names one).
    const ACTIONS: &'static [&'static str];
    /// The house defaults its battles rest on where the book is silent (the length, the
    /// winner, what carries between battles): shown beside every battle of the ruleset.
    const RULINGS: &'static [HouseDefault] = &[];
    /// How a turn runs, in the players' words: who acts, and what ends a turn (shown beside
    /// the battle; [`Self::actions`] offers `end_turn` accordingly).
    const TURN_ORDER: &'static str = "";
    /// The revision of the ruleset's rulings new play is decided under (RULINGS
    /// "Revisions"): the ruleset's [`crate::rules::ruleset::Ruleset::rules_revision`].
    const REVISION: u32 = 1;
    /// What the rules were before [`Self::REVISION`] corrected them, said beside an event
    /// recorded under an older revision ("a unit fired one weapon a Fire order").
    const CORRECTED: &'static str = "";
    /// Pools given a new name: (the old name, the new, the revision from which events record
    /// the new). An event of an older revision keeps the old name, so it verifies as
    /// recorded; a player types the new one.
    const RENAMED_POOLS: &'static [(&'static str, &'static str, u32)] = &[];
    /// Whether the ruleset has a quality ladder a unit can step up between battles (the
    /// experience house rule is offered only then).
    const PROMOTES: bool = false;
    /// The counters and marks the step between battles clears that a player wants to hear
    /// about (pins shed, tracks repaired), each with the words the change list says it in.
    /// Other per-battle state (orders, this turn's marks) goes without a word.
    const BETWEEN_BATTLES: &'static [(&'static str, &'static str)] = &[];

    /// The board before anything happened: each unit's counters from its card (models,
    /// armour, strength) on top of what the plan carries.
    fn start(plan: &TablePlan) -> Board;

    /// The board as a scripted campaign's briefing opens it ([`Opening`]): its counters over
    /// what [`Self::start`] gave. A ruleset whose counters depend on each other (a start value
    /// kept beside the live one) keeps them so here.
    fn open(board: &mut Board, opening: &Opening) {
        opening.set_up(board);
    }

    /// Everything that may be done now under the rules of `revision`, and what may not with
    /// the reason. The board is not over ([`TableBattle`] refuses everything once it is).
    fn actions(plan: &TablePlan, board: &Board, revision: u32) -> Vec<Action>;

    /// The actions of [`Self::actions`] that `request` could be (its unit's, and those of no
    /// unit): what deciding a request, and verifying its event, looks among. All of them by
    /// default; a ruleset whose actions cost per unit on the table gives only the asked
    /// unit's, so a decision costs what it touches.
    fn actions_for(
        plan: &TablePlan,
        board: &Board,
        revision: u32,
        _request: &Request,
    ) -> Vec<Action> {
        Self::actions(plan, board, revision)
    }

    /// The parameters the player gives for `action` (the tracker's form, `campaign record
    /// act --set KEY=VALUE`): for an action resolved with a mechanic, the inputs of that
    /// mechanic the battle does not fix.
    fn params(action: &str) -> Vec<InputSpec>;

    /// The parameters `action` took under the rules of `revision` (an event recorded then
    /// names them); the current ones by default.
    fn params_at(action: &str, _revision: u32) -> Vec<InputSpec> {
        Self::params(action)
    }

    /// The mechanic a request resolves with and its inputs as the battle fixes them: what
    /// the odds are shown for.
    ///
    /// # Errors
    /// The request names no mechanic, or cannot be resolved now.
    fn situation(
        plan: &TablePlan,
        board: &Board,
        request: &Request,
    ) -> Result<(MechanicId, Inputs), BattleError>;

    /// The request carried out under the rules of `revision` with the roller's dice (asking
    /// for them by pool name, so the players' faces answer as the app's would).
    ///
    /// # Errors
    /// Why the rules refuse it, or the dice it is missing.
    fn resolve(
        plan: &TablePlan,
        board: &Board,
        request: &Request,
        roller: &mut Roller,
        revision: u32,
    ) -> Result<Resolved, BattleError>;

    /// The log filter's group for an action.
    fn category(action: &str) -> Category;

    /// What the faces of `pool`'s die are called (the log shows a commander die's B, not its
    /// d20 number); numbers by default.
    fn face_names(_pool: &str, _sides: u8) -> FaceNames {
        FaceNames::Numbers
    }

    /// The ruleset's own measure of a side's standing, where it keeps one.
    fn score(_board: &Board) -> Option<Sides<u32>> {
        None
    }

    /// What [`Self::score`] measures, in the players' words ("Army Morale left"): the
    /// campaign's tie-break and the chart of the score over the turns are headed so.
    const SCORE_NAME: &'static str = "score";

    /// Command-line spellings of its actions kept for older scripts (the Lorraine tracker's
    /// `fire`, `chain` …), each standing for the `act` it names.
    const ALIASES: &'static [super::alias::ActAlias] = &[];

    /// The event in the ruleset's own words, where the generic line (the action, its dice and
    /// its effects, [`describe`]) says less than the table would.
    fn describe(_plan: &TablePlan, _event: &TableEvent) -> Option<String> {
        None
    }

    /// Counters a force line sets on each unit it fields (Belle Epoque's mustered stands),
    /// over the card's own values; none by default.
    fn muster(_card: &Card, _line: &ForceUnit) -> BTreeMap<String, i64> {
        BTreeMap::new()
    }

    /// What a unit takes into the campaign's next battle as the ruleset says (casualties
    /// kept, pins shed, damage repaired or not), from how it `started` the battle and how it
    /// `ended` it: `None` when it is lost for good. Unless the ruleset says otherwise, a unit
    /// still in play fields again whole (nothing carried: damage mended, marks left behind).
    fn carry(_started: &BoardUnit, ended: &BoardUnit) -> Option<TableUnit> {
        ended.in_play().then(|| ended.carried(BTreeMap::new()))
    }

    /// House rule (marked as such wherever it shows): the unit one step up the ruleset's
    /// quality ladder after it has survived enough battles; `None` where the ruleset has no
    /// ladder or the unit is at its top. By default there is none (tank cards have no crew
    /// quality).
    fn promote(_unit: &TableUnit) -> Option<TableUnit> {
        None
    }

    /// How a unit stands, for its card on the board: strength, counters that matter, marks as
    /// badges, each with its tone. The default lists counters and marks as they are named.
    fn unit_standing(_plan: &TablePlan, unit: &BoardUnit) -> UnitStanding {
        standing::plain_unit(unit)
    }

    /// The turn, for the strip above the board: whose go it is, what each side has left, the
    /// step expected next. The default gives the turn and each side's counters.
    fn turn_standing(plan: &TablePlan, board: &Board) -> TurnStanding {
        standing::plain_turn(plan, board)
    }

    /// The next request of a scripted player (tests, demos, benchmarks): an allowed action
    /// that moves the battle on, so that following it always ends the battle (the rules end it
    /// with [`Effect::Ends`], at the latest after the ruleset's last turn). `None` once over.
    fn scripted(plan: &TablePlan, board: &Board) -> Option<Request>;
}

/// The revision of `ruleset`'s rulings new play is decided under.
pub fn current_revision(ruleset: RulesetId) -> u32 {
    crate::rules::ruleset(ruleset).rules_revision()
}

/// What a board event of `kind` recorded under an older `revision` says beside it, for a
/// ruleset whose battle rules were `before` until revision `corrected_in` ("recorded under
/// revision 1 (a squad fired one weapon a Fire order; corrected in revision 2)").
pub fn revision_note(revision: u32, kind: &str, corrected_in: u32, before: &str) -> Option<String> {
    (kind == "act" && revision < corrected_in).then(|| {
        format!(
            "recorded under revision {revision} ({before}; corrected in revision {corrected_in})"
        )
    })
}

/// The action `key` of unit `unit` among `actions`, if it is offered and allowed: what a
/// scripted player looks for.
pub fn allowed_action<'a>(actions: &'a [Action], key: &str, unit: &str) -> Option<&'a Action> {
    actions
        .iter()
        .find(|a| a.key == key && a.unit.as_deref() == Some(unit))
        .filter(|a| a.allowed())
}

/// The id of mechanic `key` of `ruleset`, if it has one: what an action names so its form is
/// that mechanic's.
pub fn mechanic_id(ruleset: RulesetId, key: &str) -> Option<MechanicId> {
    crate::rules::resolution::mechanic(ruleset, key).map(|m| m.id())
}

/// Mechanic `key` of `ruleset` with its default inputs: where a situation starts before the
/// battle fills in what it fixes.
///
/// # Errors
/// [`BattleError::MissingData`] when the ruleset has no such mechanic.
pub fn mechanic_defaults(
    ruleset: RulesetId,
    key: &str,
) -> Result<(MechanicId, Inputs), BattleError> {
    let mechanic = crate::rules::resolution::mechanic(ruleset, key)
        .ok_or_else(|| BattleError::MissingData(format!("mechanic {key}")))?;
    Ok((mechanic.id(), mechanic.defaults()))
}

/// Rolls mechanic `key` of the ruleset with `roller` (so its dice are the battle's, seeded or
/// typed), after checking the inputs: how a [`TableRules::resolve`] resolves through the same
/// mechanic the Resolve view and the odds use.
///
/// # Errors
/// No such mechanic, inputs it refuses, or dice missing.
pub fn roll_mechanic(
    ruleset: RulesetId,
    key: &str,
    inputs: &Inputs,
    roller: &mut Roller,
) -> Result<Report, BattleError> {
    let mechanic = crate::rules::resolution::mechanic(ruleset, key)
        .ok_or_else(|| BattleError::MissingData(format!("mechanic {key}")))?;
    mechanic.validate(inputs)?;
    let mut report = match (mechanic.roll)(inputs, roller) {
        Err(crate::rules::resolution::ResolveError::NoResult(reason)) => {
            Report::new(ruleset, mechanic.key, mechanic.title()).no_result(reason)
        }
        other => other?,
    };
    report.source = Some(roller.source());
    report.name_faces(roller.asked());
    Ok(report)
}

/// The exact odds of mechanic `key` for `inputs` (what the tracker shows before a roll).
///
/// # Errors
/// No such mechanic, or inputs it refuses.
pub fn odds_of(ruleset: RulesetId, key: &str, inputs: &Inputs) -> Result<Report, BattleError> {
    let mechanic = crate::rules::resolution::mechanic(ruleset, key)
        .ok_or_else(|| BattleError::MissingData(format!("mechanic {key}")))?;
    Ok(mechanic.answer(inputs, None)?)
}

/// One die roll of an action, with the pool it answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableRoll {
    pub pool: String,
    #[serde(flatten)]
    pub roll: RollRecord,
}

/// An action recorded: what was asked, every die, what it changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableEvent {
    /// The action's key (`order`, `shoot`).
    pub action: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The parameters the player gave, by key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, Param>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<TableRoll>,
    #[serde(default, skip_serializing_if = "DiceFrom::is_chosen")]
    pub dice_from: DiceFrom,
    pub effects: Vec<Effect>,
    /// The outcome in words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub result: Vec<String>,
    /// The log filter's group, as the ruleset put it.
    pub category: Category,
}

/// A parameter's value as a file holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Param {
    Flag(bool),
    Count(i64),
    Number(f64),
    Text(String),
}

// Numbers recorded are measurements typed by a player and checked against their range: never
// NaN, so equality is an equivalence.
impl Eq for Param {}

impl Param {
    fn of(value: &InputValue) -> Option<Param> {
        Some(match value {
            InputValue::Flag(on) => Param::Flag(*on),
            InputValue::Choice(key) => Param::Text((*key).to_string()),
            InputValue::Count(n) => Param::Count(*n),
            InputValue::Number(x) => Param::Number(*x),
            InputValue::Card(_) | InputValue::CardList(_) => return None,
        })
    }

    /// The value for input `spec`, as its kind reads it.
    fn value_for(&self, spec: &InputSpec) -> Result<InputValue, BattleError> {
        let wrong = || BattleError::Invalid {
            field: spec.key,
            message: format!("{self:?} is not a value of {}", spec.label.to_lowercase()),
        };
        Ok(match (&spec.kind, self) {
            (InputKind::Toggle, Param::Flag(on)) => InputValue::Flag(*on),
            (InputKind::Count { .. }, Param::Count(n)) => InputValue::Count(*n),
            (InputKind::Number { .. }, Param::Number(x)) => InputValue::Number(*x),
            #[allow(clippy::cast_precision_loss)]
            (InputKind::Number { .. }, Param::Count(n)) => InputValue::Number(*n as f64),
            (InputKind::Choice(options), Param::Text(text)) => InputValue::Choice(
                options
                    .iter()
                    .find(|o| o.key == text)
                    .map(|o| o.key)
                    .ok_or_else(wrong)?,
            ),
            _ => return Err(wrong()),
        })
    }
}

/// The request a recorded event made, its keys and choices read against the action's
/// parameters under the rules of `revision`.
///
/// # Errors
/// An action or parameter this build does not know.
pub fn request_of<R: TableRules>(
    event: &TableEvent,
    revision: u32,
) -> Result<Request, BattleError> {
    let action = R::ACTIONS
        .iter()
        .copied()
        .find(|a| *a == event.action)
        .ok_or_else(|| {
            BattleError::not_allowed(format!("no action '{}' in this ruleset", event.action))
        })?;
    let specs = R::params_at(action, revision);
    let mut inputs = Inputs::default();
    for (key, value) in &event.params {
        let spec = specs.iter().find(|s| s.key == key).ok_or_else(|| {
            BattleError::not_allowed(format!("action '{action}' takes no parameter '{key}'"))
        })?;
        inputs.set(spec.key, value.value_for(spec)?);
    }
    Ok(Request {
        action,
        side: event.side,
        unit: event.unit.clone(),
        target: event.target.clone(),
        inputs,
        text: event.text.clone(),
    })
}

/// The first input an offered action fixes that `request` gives another value.
fn contradiction(plan: &TablePlan, action: &Action, request: &Request) -> Option<BattleError> {
    let who = action
        .unit
        .as_deref()
        .map_or_else(|| "this action".to_string(), |u| plan.label(u).to_string());
    action.fixed.iter().find_map(|(key, value)| {
        let given = request.inputs.get(key).filter(|given| *given != value)?;
        Some(fixed_by_the_battle(key, given, value, &who))
    })
}

/// A value given for an input the battle fixes, refused in the words every front end uses
/// ("response_dice: 3: the battle decides it, and for M7 … it is 4"), naming the input so a
/// command line can name its flag.
pub fn fixed_by_the_battle(
    key: &'static str,
    given: &InputValue,
    value: &InputValue,
    who: &str,
) -> BattleError {
    let shown = |v: &InputValue| match v {
        InputValue::Flag(on) => if *on { "yes" } else { "no" }.to_string(),
        InputValue::Count(n) => n.to_string(),
        InputValue::Number(x) => x.to_string(),
        InputValue::Choice(option) => option.replace('_', "-"),
        other => format!("{other:?}"),
    };
    BattleError::Invalid {
        field: key,
        message: format!(
            "{}: the battle decides it, and for {who} it is {}",
            shown(given),
            shown(value)
        ),
    }
}

/// The name a pool is recorded under by an event of `revision` (its old name before a
/// rename, [`TableRules::RENAMED_POOLS`]).
fn recorded_pool<R: TableRules>(pool: &'static str, revision: u32) -> &'static str {
    R::RENAMED_POOLS
        .iter()
        .find(|(_, new, from)| *new == pool && revision < *from)
        .map_or(pool, |(old, _, _)| *old)
}

/// The name the rules ask a recorded pool by now.
fn current_pool<R: TableRules>(pool: &str) -> &str {
    R::RENAMED_POOLS
        .iter()
        .find(|(old, _, _)| *old == pool)
        .map_or(pool, |(_, new, _)| *new)
}

/// The dice a recorded event rolled, to roll them again: its seed, or the faces typed.
fn dice_of<R: TableRules>(event: &TableEvent) -> Dice {
    match event.rolls.first() {
        Some(first) if first.roll.source == Source::Seed => Dice::Seed(first.roll.seed),
        _ => {
            let mut faces = TableDice::new();
            for r in &event.rolls {
                faces.add(current_pool::<R>(&r.pool), r.roll.dice.clone());
            }
            Dice::Table(faces)
        }
    }
}

/// [`TableRules`] as a [`BattleRules`].
pub struct TableBattle<R>(PhantomData<R>);

impl<R: TableRules> TableBattle<R> {
    /// The action the request is for, as the battle offers it now under `revision`.
    fn offered(
        plan: &TablePlan,
        board: &Board,
        request: &Request,
        revision: u32,
    ) -> Result<Action, BattleError> {
        if let Some((_, reason)) = &board.outcome {
            return Err(BattleError::BattleOver(reason.clone()));
        }
        let actions = R::actions_for(plan, board, revision, request);
        let same = |a: &&Action| {
            a.key == request.action
                && (a.unit.is_none() || a.unit == request.unit)
                && (a.side.is_none() || request.side.is_none() || a.side == request.side)
        };
        // An action offered several times with different fixed inputs (a draw at random, or of
        // the colour the players drew) is the one whose fixed inputs the request agrees with.
        let agrees = |a: &&Action| {
            a.fixed
                .iter()
                .all(|(k, v)| request.inputs.get(k).is_none_or(|given| given == v))
        };
        let Some(action) = actions.iter().filter(same).find(agrees) else {
            if let Some(refusal) = actions
                .iter()
                .filter(same)
                .find_map(|a| contradiction(plan, a, request))
            {
                return Err(refusal);
            }
            let who = request
                .unit
                .as_deref()
                .map(|u| format!("{} ", plan.label(u)))
                .unwrap_or_default();
            return Err(BattleError::not_allowed(format!(
                "{who}cannot {} now",
                request.action.replace('_', " ")
            )));
        };
        if let Some(reason) = &action.refused {
            return Err(BattleError::not_allowed(reason.clone()));
        }
        if let Some(target) = &request.target
            && !action.targets.is_empty()
            && !action.targets.contains(target)
        {
            return Err(BattleError::not_allowed(format!(
                "{} cannot be the target of {}",
                plan.label(target),
                action.label
            )));
        }
        Ok(action.clone())
    }

    /// The request's parameters checked against their descriptions ([`TableRules::params`]):
    /// a value out of range, of the wrong kind or not among the choices is refused naming the
    /// parameter, from every front end alike, before anything is decided.
    fn check_params(request: &Request) -> Result<(), BattleError> {
        let specs = R::params(request.action);
        for (key, value) in request.inputs.iter() {
            if let Some(spec) = specs.iter().find(|s| s.key == key) {
                crate::rules::resolution::check_value_of(spec, value)?;
            }
        }
        Ok(())
    }

    /// The request carried out with `roller` under the rules of `revision`, as its event: its
    /// effects in the bulk form where shorter when `bulk` ([`bulk::compact`]), else one per
    /// unit as events recorded before that form were.
    fn carry_out(
        plan: &TablePlan,
        board: &Board,
        request: &Request,
        roller: &mut Roller,
        (dice_from, revision, bulk): (DiceFrom, u32, bool),
    ) -> Result<Decided<TableEvent>, BattleError> {
        Self::check_params(request)?;
        let action = Self::offered(plan, board, request, revision)?;
        let mut request = request.clone();
        if request.side.is_none() {
            request.side = action.side;
        }
        // What the battle fixes is the battle's, whatever a front end sent; only the player's
        // parameters are recorded, and verification fixes the rest again from the state.
        for (key, value) in &action.fixed {
            request.inputs.set(key, value.clone());
        }
        let own = R::params_at(request.action, revision);
        let resolved = R::resolve(plan, board, &request, roller, revision)?;
        let mut result = resolved.result;
        if let Some(report) = &resolved.report {
            result.extend(report.result.iter().cloned());
        }
        let event = TableEvent {
            action: request.action.to_string(),
            side: request.side,
            unit: request.unit.clone(),
            target: request.target.clone(),
            params: request
                .inputs
                .iter()
                .filter(|(k, _)| own.iter().any(|spec| spec.key == *k))
                .filter_map(|(k, v)| Param::of(v).map(|p| (k.to_string(), p)))
                .collect(),
            text: request.text.clone(),
            rolls: roller
                .rolled()
                .iter()
                .map(|r| TableRoll {
                    pool: recorded_pool::<R>(r.pool, revision).to_string(),
                    roll: r.clone(),
                })
                .collect(),
            dice_from: if roller.rolled().is_empty() {
                DiceFrom::Chosen
            } else {
                dice_from
            },
            effects: if bulk {
                bulk::compact(board, resolved.effects)
            } else {
                resolved.effects
            },
            result,
            category: R::category(request.action),
        };
        Ok(Decided {
            event,
            report: resolved.report,
        })
    }
}

impl<R: TableRules> BattleRules for TableBattle<R> {
    type Plan = TablePlan;
    type State = Board;
    type Event = TableEvent;

    fn start(plan: &TablePlan, carried: &Sides<Vec<String>>) -> Board {
        // What earlier battles left is in the plan's units (the campaign roster); a campaign
        // that carries losses between briefed battles names the cards lost instead.
        let mut board = R::start(plan);
        board.remove_carried_losses(carried);
        board
    }

    fn apply(board: &mut Board, event: &TableEvent) {
        apply(board, event);
    }

    fn conclude(board: &mut Board, winner: Option<Side>, notes: &str) {
        conclude(board, winner, notes);
    }

    fn summary(board: &Board) -> Summary {
        summary_with(board, R::score(board))
    }

    fn actions(plan: &TablePlan, board: &Board) -> Vec<Action> {
        let mut actions = R::actions(plan, board, current_revision(R::RULESET));
        if let Some((_, reason)) = &board.outcome {
            for a in &mut actions {
                a.refused = Some(format!("the battle is over: {reason}"));
            }
        }
        actions
    }

    fn situation(
        plan: &TablePlan,
        board: &Board,
        request: &Request,
    ) -> Result<(MechanicId, Inputs), BattleError> {
        R::situation(plan, board, request)
    }

    fn decide(
        plan: &TablePlan,
        board: &Board,
        request: &Request,
        dice: &Dice,
    ) -> Result<Decided<TableEvent>, BattleError> {
        let from = match dice {
            Dice::Seed(_) => DiceFrom::Battle,
            Dice::Table(_) => DiceFrom::Table,
        };
        let mut roller = dice.roller();
        let now = current_revision(R::RULESET);
        let decided = Self::carry_out(plan, board, request, &mut roller, (from, now, true))?;
        refuse_unused(&roller)?;
        Ok(decided)
    }

    fn pools(
        plan: &TablePlan,
        board: &Board,
        request: &Request,
        given: &TableDice,
    ) -> (Vec<PoolRequest>, Result<Decided<TableEvent>, BattleError>) {
        let mut roller = Roller::table(given.clone());
        let now = current_revision(R::RULESET);
        let answer = Self::carry_out(
            plan,
            board,
            request,
            &mut roller,
            (DiceFrom::Table, now, true),
        )
        .and_then(|d| refuse_unused(&roller).map(|()| d));
        (roller.asked().to_vec(), answer)
    }

    fn rederive(
        plan: &TablePlan,
        board: &Board,
        event: &TableEvent,
        revision: u32,
    ) -> Result<TableEvent, BattleError> {
        let current = current_revision(R::RULESET);
        if revision > current {
            return Err(BattleError::not_allowed(format!(
                "recorded under revision {revision} of the {} rulings; this build knows up to {current}",
                R::RULESET.title()
            )));
        }
        let request = request_of::<R>(event, revision)?;
        let dice = dice_of::<R>(event);
        let mut roller = dice.roller();
        let from = if event.rolls.is_empty() {
            event.dice_from
        } else {
            match dice {
                Dice::Seed(_) => DiceFrom::Battle,
                Dice::Table(_) => DiceFrom::Table,
            }
        };
        // An event recorded before the bulk form (no bulk effect in it) is decided again as
        // it was written then, one effect per unit, so it keeps verifying as recorded.
        let bulk = event
            .effects
            .iter()
            .any(|e| matches!(e, Effect::Every { .. }));
        Ok(Self::carry_out(plan, board, &request, &mut roller, (from, revision, bulk))?.event)
    }

    fn revisions(_plan: &TablePlan) -> std::ops::RangeInclusive<u32> {
        1..=current_revision(R::RULESET)
    }

    fn describe(plan: &TablePlan, event: &TableEvent) -> String {
        R::describe(plan, event).unwrap_or_else(|| describe(plan, event, R::face_names))
    }

    fn facts(event: &TableEvent) -> Facts<'_> {
        facts(event)
    }
}

/// Where the board stands, with the ruleset's own measure.
fn summary_with(board: &Board, score: Option<Sides<u32>>) -> Summary {
    Summary {
        outcome: board.outcome.clone(),
        turns: board.turn,
        score,
        losses: Sides {
            first: board.losses(Side::First),
            second: board.losses(Side::Second),
        },
    }
}

/// Every effect of `event` applied.
fn apply(board: &mut Board, event: &TableEvent) {
    for effect in &event.effects {
        board.apply(effect);
    }
}

/// The players end the battle.
fn conclude(board: &mut Board, winner: Option<Side>, notes: &str) {
    let reason = if notes.trim().is_empty() {
        "the players ended the battle".to_string()
    } else {
        notes.trim().to_string()
    };
    board.outcome = Some((winner, reason));
}

fn facts(event: &TableEvent) -> Facts<'_> {
    let mut units: Vec<&str> = event
        .unit
        .iter()
        .chain(&event.target)
        .map(String::as_str)
        .collect();
    for e in &event.effects {
        if let Some(u) = e.unit()
            && !units.contains(&u)
        {
            units.push(u);
        }
    }
    Facts {
        kind: "act",
        category: event.category,
        units,
        rolls: event.rolls.iter().map(|r| &r.roll).collect(),
        dice_from: event.dice_from,
    }
}

/// Faces given for a pool the action never rolled are a mistake to say, not to drop. The
/// refusal names what the action rolls (or that it rolls nothing) in full, so no front end
/// has to add the list of pools to it.
fn refuse_unused(roller: &Roller) -> Result<(), BattleError> {
    let unused = roller.unused();
    if unused.is_empty() {
        return Ok(());
    }
    let given: Vec<&str> = unused.iter().map(|(p, _)| p.as_str()).collect();
    let mut asked: Vec<String> = Vec::new();
    for request in roller.asked() {
        let words = format!("{} ({})", request.pool, request.dice());
        if !asked.contains(&words) {
            asked.push(words);
        }
    }
    Err(BattleError::not_allowed(format!(
        "dice for {} given but not rolled: this action rolls {}",
        given.join(", "),
        if asked.is_empty() {
            "no dice".to_string()
        } else {
            asked.join(", then ")
        }
    )))
}

/// "First player: Rifle Squad 1 — order: fire. Result: … (Rifle Squad 1: pins +1)", each
/// die as `names` calls its faces.
pub fn describe(plan: &TablePlan, event: &TableEvent, names: fn(&str, u8) -> FaceNames) -> String {
    let label = |id: &str| plan.label(id).to_string();
    let side_name = |side: Side| plan.side_name(side);
    let mut text = match (&event.unit, &event.side) {
        (Some(unit), _) => format!("{}: {}", label(unit), event.action.replace('_', " ")),
        (None, Some(side)) => format!("{}: {}", side_name(*side), event.action.replace('_', " ")),
        (None, None) => event.action.replace('_', " "),
    };
    if let Some(target) = &event.target {
        text.push_str(&format!(" at {}", label(target)));
    }
    let effects = effects_in_words(&event.effects, &label, &side_name);
    // A parameter its own effect restates ("order advance") is said once, by the effect.
    let params: Vec<String> = event
        .params
        .iter()
        .map(|(k, v)| match v {
            Param::Flag(true) => k.replace('_', " "),
            Param::Flag(false) => format!("no {}", k.replace('_', " ")),
            Param::Count(n) => format!("{} {n}", k.replace('_', " ")),
            Param::Number(x) => format!("{} {x}", k.replace('_', " ")),
            Param::Text(t) => format!("{} {}", k.replace('_', " "), t.replace('_', " ")),
        })
        .filter(|param| !effects.iter().any(|e| e.contains(param.as_str())))
        .collect();
    if !params.is_empty() {
        text.push_str(&format!(" ({})", params.join(", ")));
    }
    if !event.text.is_empty() {
        text.push_str(&format!(" — {}", event.text));
    }
    let dice: Vec<String> = event
        .rolls
        .iter()
        .map(|r| {
            let shows = names(&r.pool, r.roll.sides);
            let faces: Vec<String> = r
                .roll
                .dice
                .iter()
                .map(|&f| shows.name(f).map_or_else(|| f.to_string(), str::to_string))
                .collect();
            format!("{} {}", r.pool.replace('_', " "), faces.join(" "))
        })
        .collect();
    if !dice.is_empty() {
        let from = if event.dice_from == DiceFrom::Table {
            "rolled at the table"
        } else {
            "rolled by the app"
        };
        text.push_str(&format!("; dice {from}: {}", dice.join(", ")));
    }
    let mut effects = effects;
    // "Rifle Squad 1: order. Rifle Squad 1: order advance" says the action twice: the
    // unit's own clause, which names it, stands alone.
    if let Some(own) = effects.iter().position(|e| e.starts_with(&text)) {
        text = effects.remove(own);
        if effects.is_empty() {
            return text;
        }
        return format!("{text}; {}", effects.join("; "));
    }
    if !effects.is_empty() {
        text.push_str(&format!(". {}", effects.join("; ")));
    }
    text
}

/// How many units taking the same change make it one clause with their count ("no order:
/// 6 units") instead of a clause each: an end of turn reads as one line.
const SAME_CHANGE_GROUPED: usize = 3;

/// The effects as a player says them: each unit's (or side's) changes in one clause
/// ("Rifle Squad 1: casualties +3, pins +1"), a change to many units once.
fn effects_in_words(
    effects: &[Effect],
    label: &dyn Fn(&str) -> String,
    side_name: &dyn Fn(Side) -> String,
) -> Vec<String> {
    // (who, what changed) in order, in the effects' own words; `None` for a change to the
    // battle itself.
    let changes: Vec<(Option<String>, String)> = effects
        .iter()
        .map(|effect| {
            let text = effect.describe(label, side_name);
            let who = match effect {
                Effect::Add { unit, .. }
                | Effect::Set { unit, .. }
                | Effect::Mark { unit, .. }
                | Effect::Clear { unit, .. }
                | Effect::Order { unit, .. } => Some(label(unit)),
                Effect::SideAdd { side, .. } | Effect::SideSet { side, .. } => {
                    Some(side_name(*side))
                }
                _ => None,
            };
            match who {
                Some(who) => {
                    let change = text
                        .strip_prefix(&format!("{who}: "))
                        .or_else(|| text.strip_prefix(&format!("{who} is ")))
                        .map(str::to_string);
                    match change {
                        Some(change) => (Some(who), change),
                        None => (None, text),
                    }
                }
                None => (None, text),
            }
        })
        .collect();
    let mut grouped: Vec<String> = Vec::new();
    let mut said = vec![false; changes.len()];
    for (i, (who, change)) in changes.iter().enumerate() {
        if said[i] || who.is_none() {
            continue;
        }
        let same: Vec<usize> = (i..changes.len())
            .filter(|&k| !said[k] && changes[k].0.is_some() && &changes[k].1 == change)
            .collect();
        if same.len() >= SAME_CHANGE_GROUPED {
            for &k in &same {
                said[k] = true;
            }
            grouped.push(format!("{change}: {} units", same.len()));
        }
    }
    let mut clauses: Vec<(Option<String>, Vec<String>)> = Vec::new();
    for ((who, change), said) in changes.into_iter().zip(said) {
        if said {
            continue;
        }
        match clauses.iter_mut().find(|(w, _)| w.is_some() && *w == who) {
            Some((_, list)) => list.push(change),
            None => clauses.push((who, vec![change])),
        }
    }
    let mut out: Vec<String> = clauses
        .into_iter()
        .map(|(who, list)| match who {
            Some(who) => format!("{who}: {}", list.join(", ")),
            None => list.join(", "),
        })
        .collect();
    out.extend(grouped);
    out
}

/// A ruleset's [`TableBattle`] behind plain function pointers, so the campaign holds one
/// engine per ruleset ([`crate::rules::ruleset::Ruleset::table_battle`]) without naming any.
#[derive(Clone, Copy)]
pub struct TableEngine {
    /// Every action key the ruleset's battles offer ([`TableRules::ACTIONS`]).
    pub keys: &'static [&'static str],
    pub start: fn(&TablePlan, &Sides<Vec<String>>) -> Board,
    pub actions: fn(&TablePlan, &Board) -> Vec<Action>,
    pub params: fn(&str) -> Vec<InputSpec>,
    #[allow(clippy::type_complexity)]
    pub situation: fn(&TablePlan, &Board, &Request) -> Result<(MechanicId, Inputs), BattleError>,
    #[allow(clippy::type_complexity)]
    pub decide: fn(&TablePlan, &Board, &Request, &Dice) -> Result<Decided<TableEvent>, BattleError>,
    #[allow(clippy::type_complexity)]
    pub pools: fn(
        &TablePlan,
        &Board,
        &Request,
        &TableDice,
    ) -> (Vec<PoolRequest>, Result<Decided<TableEvent>, BattleError>),
    pub rederive: fn(&TablePlan, &Board, &TableEvent, u32) -> Result<TableEvent, BattleError>,
    pub summary: fn(&Board) -> Summary,
    pub carry: fn(&BoardUnit, &BoardUnit) -> Option<TableUnit>,
    pub promote: fn(&TableUnit) -> Option<TableUnit>,
    /// Whether the ruleset has a quality ladder (the experience house rule applies).
    pub promotes: bool,
    pub muster: fn(&Card, &ForceUnit) -> BTreeMap<String, i64>,
    pub scripted: fn(&TablePlan, &Board) -> Option<Request>,
    pub unit_standing: fn(&TablePlan, &BoardUnit) -> UnitStanding,
    pub turn_standing: fn(&TablePlan, &Board) -> TurnStanding,
    pub describe: fn(&TablePlan, &TableEvent) -> String,
    pub face_names: fn(&str, u8) -> FaceNames,
    pub rulings: &'static [HouseDefault],
    pub open: fn(&mut Board, &Opening),
    pub aliases: &'static [super::alias::ActAlias],
    /// What the ruleset's score measures ([`TableRules::SCORE_NAME`]).
    pub score_name: &'static str,
    /// How a turn runs ([`TableRules::TURN_ORDER`]).
    pub turn_order: &'static str,
    /// What the step between battles clears ([`TableRules::BETWEEN_BATTLES`]).
    pub between_battles: &'static [(&'static str, &'static str)],
    /// The rulings' current revision and what it corrected ([`TableRules::REVISION`]).
    pub revision: u32,
    pub corrected: &'static str,
}

impl TableEngine {
    pub fn of<R: TableRules>() -> TableEngine {
        TableEngine {
            keys: R::ACTIONS,
            start: TableBattle::<R>::start,
            actions: TableBattle::<R>::actions,
            params: R::params,
            situation: TableBattle::<R>::situation,
            decide: TableBattle::<R>::decide,
            pools: TableBattle::<R>::pools,
            rederive: TableBattle::<R>::rederive,
            summary: TableBattle::<R>::summary,
            carry: R::carry,
            promote: R::promote,
            promotes: R::PROMOTES,
            muster: R::muster,
            face_names: R::face_names,
            rulings: R::RULINGS,
            turn_order: R::TURN_ORDER,
            between_battles: R::BETWEEN_BATTLES,
            revision: R::REVISION,
            corrected: R::CORRECTED,
            unit_standing: R::unit_standing,
            turn_standing: R::turn_standing,
            describe: TableBattle::<R>::describe,
            open: R::open,
            aliases: R::ALIASES,
            score_name: R::SCORE_NAME,
            scripted: |plan, board| {
                if board.outcome.is_some() {
                    None
                } else {
                    R::scripted(plan, board)
                }
            },
        }
    }
}

/// The engine of `ruleset`'s battles, or why it has none.
pub fn engine(ruleset: RulesetId) -> Result<TableEngine, BattleError> {
    crate::rules::ruleset(ruleset)
        .table_battle()
        .ok_or_else(|| {
            BattleError::not_allowed(format!(
                "{} battles are not tracked turn by turn",
                ruleset.title()
            ))
        })
}

/// How `unit` stands in `plan`'s battle, in its ruleset's words (generic when it has no
/// engine).
pub fn unit_standing(plan: &TablePlan, unit: &BoardUnit) -> UnitStanding {
    engine(plan.ruleset).map_or_else(
        |_| standing::plain_unit(unit),
        |e| (e.unit_standing)(plan, unit),
    )
}

/// Where the turn of `plan`'s battle stands, in its ruleset's words.
pub fn turn_standing(plan: &TablePlan, board: &Board) -> TurnStanding {
    engine(plan.ruleset).map_or_else(
        |_| standing::plain_turn(plan, board),
        |e| (e.turn_standing)(plan, board),
    )
}

/// Any ruleset's board battle, dispatched by the plan's ruleset: what the campaign folds,
/// decides and verifies with.
pub struct AnyTable;

impl AnyTable {
    /// The board before anything happened, as `opening` (a scripted campaign's briefing)
    /// opens it when there is one.
    pub fn opened(
        plan: &TablePlan,
        carried: &Sides<Vec<String>>,
        opening: Option<&Opening>,
    ) -> Board {
        let mut board = <AnyTable as BattleRules>::start(plan, carried);
        if let (Some(opening), Ok(e)) = (opening, engine(plan.ruleset)) {
            (e.open)(&mut board, opening);
        }
        board
    }
}

impl BattleRules for AnyTable {
    type Plan = TablePlan;
    type State = Board;
    type Event = TableEvent;

    fn start(plan: &TablePlan, carried: &Sides<Vec<String>>) -> Board {
        match engine(plan.ruleset) {
            Ok(e) => (e.start)(plan, carried),
            Err(_) => Board::from_plan(plan),
        }
    }

    fn apply(board: &mut Board, event: &TableEvent) {
        apply(board, event);
    }

    fn conclude(board: &mut Board, winner: Option<Side>, notes: &str) {
        conclude(board, winner, notes);
    }

    fn summary(board: &Board) -> Summary {
        match board.ruleset.map(engine) {
            Some(Ok(e)) => (e.summary)(board),
            _ => summary_with(board, None),
        }
    }

    fn actions(plan: &TablePlan, board: &Board) -> Vec<Action> {
        engine(plan.ruleset).map_or_else(|_| Vec::new(), |e| (e.actions)(plan, board))
    }

    fn situation(
        plan: &TablePlan,
        board: &Board,
        request: &Request,
    ) -> Result<(MechanicId, Inputs), BattleError> {
        (engine(plan.ruleset)?.situation)(plan, board, request)
    }

    fn decide(
        plan: &TablePlan,
        board: &Board,
        request: &Request,
        dice: &Dice,
    ) -> Result<Decided<TableEvent>, BattleError> {
        (engine(plan.ruleset)?.decide)(plan, board, request, dice)
    }

    fn pools(
        plan: &TablePlan,
        board: &Board,
        request: &Request,
        given: &TableDice,
    ) -> (Vec<PoolRequest>, Result<Decided<TableEvent>, BattleError>) {
        match engine(plan.ruleset) {
            Ok(e) => (e.pools)(plan, board, request, given),
            Err(error) => (Vec::new(), Err(error)),
        }
    }

    fn rederive(
        plan: &TablePlan,
        board: &Board,
        event: &TableEvent,
        revision: u32,
    ) -> Result<TableEvent, BattleError> {
        (engine(plan.ruleset)?.rederive)(plan, board, event, revision)
    }

    fn revisions(plan: &TablePlan) -> std::ops::RangeInclusive<u32> {
        1..=current_revision(plan.ruleset)
    }

    fn describe(plan: &TablePlan, event: &TableEvent) -> String {
        match engine(plan.ruleset) {
            Ok(e) => (e.describe)(plan, event),
            Err(_) => describe(plan, event, numbered),
        }
    }

    fn facts(event: &TableEvent) -> Facts<'_> {
        facts(event)
    }
}

/// Every die numbered: a ruleset with no engine names no faces.
fn numbered(_pool: &str, _sides: u8) -> FaceNames {
    FaceNames::Numbers
}

#[cfg(test)]
pub(crate) mod played;
#[cfg(test)]
mod tests;
