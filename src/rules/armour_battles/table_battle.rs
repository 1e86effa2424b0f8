//! Armour Battles fought on the generic [`Board`], like the four other rulesets: command dice
//! and Dice Chains, Command Pulses, wild dice and Staff Orders (charged when spent), direct,
//! opportunity and artillery fire, rally, reserves, hidden units, Poor Reliability, Disruption,
//! suppression, forced back, dispersal and Army Morale.
//!
//! The rules are the ones the Lorraine tracker always played, in `battle/`: what may be done
//! ([`actions::actions`]), the mechanic inputs an action resolves with
//! ([`actions::situation`]) and the event it records ([`actions::decide_with`], through the
//! ruleset's mechanics, the single source of the dice rules). Here they are read off the board
//! and written back ([`view`]): an action is recorded as one `act` event whose effects are the
//! difference its decision makes, and verification decides it again with its dice, as for
//! every ruleset. [`legacy`] reads what the Lorraine tracker recorded before.
//!
//! The book's order of a pulse holds to its end: the last chain of a turn is used, and the
//! unit it ordered fires (and the enemy answers with opportunity fire) before the turn is
//! ended ([`END_TURN`] after the chains are spent) or the next command roll is made.
//!
//! House default (new, shown beside every battle of the ruleset): a battle between two saved
//! forces has no briefing, so [`TableRules::start`] gives each side [`FORCE_DEFAULTS`].

mod aliases;
pub mod legacy;
mod standing;
pub mod view;

use super::UnitKind;
use super::battle::actions::{self, key, param};
use super::battle::describe;
use super::battle::event::{ChainUse, WildUse};
use super::battle::state::{Phase, UnitStatus};
use super::mechanics::MECHANICS;
use crate::rules::HouseDefault;
use crate::rules::RulesetId;
use crate::rules::battle::board::{Board, BoardUnit, Opening, TablePlan};
use crate::rules::battle::standing::{TurnStanding, UnitStanding};
use crate::rules::battle::table::{Resolved, TableEvent, TableRules};
use crate::rules::battle::{Action, BattleError, Category, DiceFrom, Request, SIDES, Side, Sides};
use crate::rules::dice::{Roller, Source};
use crate::rules::resolution::{Choice, ChoiceTable, InputSpec, InputValue, Inputs, MechanicId};

/// Every action key the battle offers.
pub const ACTIONS: &[&str] = &[
    key::ROLL_COMMAND,
    key::END_TURN,
    key::USE_CHAIN,
    key::USE_WILD,
    key::USE_STAFF_ORDER,
    key::FIRE,
    key::ARTILLERY_FIRE,
    key::CALL_ARTILLERY,
    key::MAINTAIN_MISSION,
    key::CANCEL_MISSION,
    key::MISSION_DONE,
    key::RALLY,
    key::CHECK_RELIABILITY,
    key::REPAIR,
    key::COMMIT_RESERVES,
    key::REVEAL,
    key::DISPERSE,
    key::SET_DISRUPTION,
    key::SET_SUPPRESSED,
    key::SET_FIRE_MARKER,
];

/// The action that ends the turn (once its chains are spent, or before).
pub const END_TURN: &str = key::END_TURN;

/// New house default: a battle without a briefing.
pub const FORCE_DEFAULTS: HouseDefault = HouseDefault {
    value: "no briefing",
    ruling: "A battle between two saved forces (no briefing) has 2 command dice and 1 more per 4 units (at most 6), 2 Staff Orders, 4 Rally Dice, 4 Artillery Response Dice with off-table artillery, and 1 Army Morale Point per unit on the table; a Lorraine battle takes its briefing's.",
};

/// Most command dice a side rolls.
const MOST_COMMAND_DICE: i64 = 6;

/// What a chain is spent on, as a request names it (reserves are committed with
/// `commit_reserves`, which spends one die).
pub const CHAIN_USES: ChoiceTable<ChainUse> = ChoiceTable(&[
    (Choice::new("orders", "Orders"), ChainUse::Orders),
    (
        Choice::new("restock_staff_orders", "Restock Staff Orders"),
        ChainUse::RestockStaffOrders,
    ),
    (
        Choice::new("repair", "Repair a broken-down unit"),
        ChainUse::Repair,
    ),
]);

/// What wild dice are spent on outside a chain, as a request names it.
pub const WILD_USES: ChoiceTable<WildUse> = ChoiceTable(&[
    (Choice::new("bonus", "+1D each"), WildUse::Bonus),
    (
        Choice::new("instant_staff_orders", "Instant Staff Orders"),
        WildUse::InstantStaffOrders,
    ),
    (
        Choice::new("stock_staff_orders", "Staff Orders next turn"),
        WildUse::StockStaffOrders,
    ),
]);

/// The fire mechanic's inputs the battle sets itself: the cards from the units, the target's
/// state from the table, a hidden firer's ambush, an artillery mission's kind and dice.
const FIRE_FIXED: [&str; 8] = [
    "attacker",
    "battery",
    "target",
    "ambush",
    "target_suppressed",
    "target_disruption",
    "response_dice",
    "battle",
];

/// The rally mechanic's inputs the battle sets itself.
const RALLY_FIXED: [&str; 4] = ["unit", "disruption", "suppressed", "battle"];

/// Armour Battles on the generic board.
pub struct ArmourBattlesBattle;

fn mechanic_inputs(key: &str) -> Vec<InputSpec> {
    MECHANICS
        .iter()
        .find(|m| m.key == key)
        .map(|m| (m.inputs)())
        .unwrap_or_default()
}

/// The fire mechanic's inputs a player gives for fire of `kind` (`direct`, `artillery`).
fn fire_params(kind: &'static str) -> Vec<InputSpec> {
    let mut situation = Inputs::default();
    situation.set("kind", InputValue::Choice(kind));
    mechanic_inputs("fire")
        .into_iter()
        .filter(|s| !FIRE_FIXED.contains(&s.key) && s.shown(&situation))
        .filter(|s| kind == "direct" || s.key != "kind")
        .collect()
}

/// The house defaults of a side without a briefing ([`FORCE_DEFAULTS`]).
fn force_defaults(board: &mut Board) {
    for side in SIDES {
        let units: Vec<&BoardUnit> = board.side_units(side).collect();
        let all = i64::try_from(units.len()).unwrap_or(i64::MAX);
        let off_table = units
            .iter()
            .filter(|u| u.has(view::mark::OFF_TABLE))
            .count();
        let on_table = all - i64::try_from(off_table).unwrap_or(0);
        let command = (2 + all / 4).min(MOST_COMMAND_DICE);
        let counters = board.sides.get_mut(side);
        for (key, value) in [
            (view::side::COMMAND_DICE, command),
            (view::side::STAFF_ORDERS, 2.min(command)),
            (view::side::RALLY_DICE, 4),
            (view::side::ARMY_MORALE, on_table),
            (view::side::ARMY_MORALE_START, on_table),
        ] {
            counters.insert(key.to_string(), value);
        }
        if off_table > 0 {
            counters.insert(view::side::ARTILLERY_RESPONSE_DICE.to_string(), 4);
        }
    }
}

/// The request's dice, as the decision records them.
fn dice_from(roller: &Roller) -> DiceFrom {
    match roller.source() {
        Source::Table => DiceFrom::Table,
        Source::Seed => DiceFrom::Battle,
    }
}

impl TableRules for ArmourBattlesBattle {
    const RULESET: RulesetId = RulesetId::ArmourBattles;
    const ACTIONS: &'static [&'static str] = ACTIONS;
    const RULINGS: &'static [HouseDefault] = &[FORCE_DEFAULTS];
    const SCORE_NAME: &'static str = "Army Morale left";
    const ALIASES: &'static [crate::rules::battle::alias::ActAlias] = aliases::ALIASES;
    const TURN_ORDER: &'static str = "Both sides roll their command dice; pulses alternate, each spending one chain (or wild dice) on orders, with opportunity fire answering inside the pulse; once no chain is left the last pulse stays open for its fire, and the turn is ended.";
    const BETWEEN_BATTLES: &'static [(&'static str, &'static str)] = &[
        ("disruption", "Disruption cleared"),
        ("suppressed", "suppression cleared"),
        ("broken_down_in", "breakdown repaired"),
    ];
    const REVISION: u32 = super::revision::CURRENT;

    /// Turn 0 (no command dice rolled yet); off-table artillery off the table, a company the
    /// plan holds back in reserve, every unit without Disruption; each side's dice and Army
    /// Morale as [`FORCE_DEFAULTS`] say until a briefing opens the board.
    fn start(plan: &TablePlan) -> Board {
        let mut board = Board::from_plan(plan);
        board.turn = 0;
        for unit in &mut board.units {
            if view::card_of(unit).is_some_and(|c| c.kind == UnitKind::OffTableArtillery) {
                unit.marks.insert(view::mark::OFF_TABLE.to_string());
            }
            if unit.count(view::counter::RESERVE_FROM) > 0 {
                unit.marks.insert(view::mark::RESERVE.to_string());
            }
            unit.counters
                .insert(view::counter::DISRUPTION.to_string(), 0);
        }
        force_defaults(&mut board);
        board
    }

    /// The briefing's dice and Army Morale, its start value kept beside it for the chart, and
    /// never more Staff Orders stored than command dice.
    fn open(board: &mut Board, opening: &Opening) {
        opening.set_up(board);
        for side in SIDES {
            let morale = board.side_count(side, view::side::ARMY_MORALE);
            let orders = board
                .side_count(side, view::side::STAFF_ORDERS)
                .min(board.side_count(side, view::side::COMMAND_DICE));
            let counters = board.sides.get_mut(side);
            counters.insert(view::side::ARMY_MORALE_START.to_string(), morale);
            counters.insert(view::side::STAFF_ORDERS.to_string(), orders);
        }
    }

    /// One set of battle rules on the board: the revisions before 4 are the first tracker's
    /// events, read by its own adapter (`legacy`).
    fn actions(plan: &TablePlan, board: &Board, _revision: u32) -> Vec<Action> {
        actions::actions(&view::state_of(plan, board))
    }

    fn params(action: &str) -> Vec<InputSpec> {
        let count = |key, label, help, min, max, default| {
            InputSpec::count(key, label, help, min, max, default)
        };
        match action {
            key::FIRE => fire_params("direct"),
            key::ARTILLERY_FIRE => fire_params("artillery"),
            key::RALLY => mechanic_inputs("rally")
                .into_iter()
                .filter(|s| !RALLY_FIXED.contains(&s.key))
                .collect(),
            key::CHECK_RELIABILITY => mechanic_inputs("move")
                .into_iter()
                .filter(|s| s.key == param::MOVE)
                .collect(),
            key::USE_CHAIN => vec![
                count(
                    param::FACE,
                    "Chain",
                    "The face of the chain (6: the wild dice as a chain).",
                    2,
                    6,
                    5,
                ),
                count(
                    param::DICE,
                    "Dice",
                    "How many of its dice (all when not given).",
                    1,
                    MOST_COMMAND_DICE * 2,
                    1,
                ),
                CHAIN_USES.input(
                    param::ON,
                    "Spent on",
                    "What the dice order.",
                    ChainUse::Orders,
                ),
            ],
            key::USE_WILD => vec![
                count(
                    param::DICE,
                    "Wild dice",
                    "How many (all when not given).",
                    1,
                    MOST_COMMAND_DICE * 2,
                    1,
                ),
                WILD_USES.input(param::ON, "Spent on", "What they buy.", WildUse::Bonus),
            ],
            key::COMMIT_RESERVES => vec![count(
                param::FACE,
                "Chain",
                "The chain the order's die comes from (the shortest when not given).",
                2,
                5,
                2,
            )],
            key::REPAIR => vec![InputSpec::toggle(
                param::STAFF_ORDER,
                "With a Staff Order",
                "Pay with a Staff Order rather than a command die.",
            )],
            key::SET_DISRUPTION => vec![count(
                param::VALUE,
                "Disruption Points",
                "The unit's Disruption Points, corrected by hand (a dispersal is recorded with its morale roll).",
                0,
                2,
                0,
            )],
            key::SET_SUPPRESSED => vec![InputSpec::toggle(
                param::SUPPRESSED,
                "Suppressed",
                "Put on or take off the unit's suppression by hand.",
            )],
            key::SET_FIRE_MARKER => vec![InputSpec::toggle(
                param::MARKED,
                "Fire Marker",
                "Put on or take off the unit's Fire Marker by hand.",
            )],
            _ => Vec::new(),
        }
    }

    fn situation(
        plan: &TablePlan,
        board: &Board,
        request: &Request,
    ) -> Result<(MechanicId, Inputs), BattleError> {
        actions::situation(&view::state_of(plan, board), request)
    }

    /// The rules' decision, with the words the Lorraine tracker always logged first among the
    /// results.
    fn resolve(
        plan: &TablePlan,
        board: &Board,
        request: &Request,
        roller: &mut Roller,
        _revision: u32,
    ) -> Result<Resolved, BattleError> {
        let state = view::state_of(plan, board);
        let decided = actions::decide_with(&state, request, roller, dice_from(roller))?;
        let mut after = state;
        after.apply(&decided.event);
        after.log.current = true;
        let mut next = board.clone();
        view::write(&after, &mut next);
        let label = |id: &str| plan.label(id).to_string();
        Ok(Resolved {
            effects: board.changes_to(&next),
            report: decided.report,
            result: vec![describe::words(&decided.event, &label)],
        })
    }

    fn category(action: &str) -> Category {
        match action {
            key::ROLL_COMMAND | key::END_TURN | key::USE_CHAIN => Category::Command,
            key::USE_WILD | key::USE_STAFF_ORDER => Category::Staff,
            key::CALL_ARTILLERY
            | key::ARTILLERY_FIRE
            | key::MAINTAIN_MISSION
            | key::CANCEL_MISSION
            | key::MISSION_DONE => Category::Artillery,
            key::FIRE => Category::Fire,
            key::RALLY => Category::Rally,
            _ => Category::Units,
        }
    }

    /// Army Morale left.
    fn score(board: &Board) -> Option<Sides<u32>> {
        let morale = |side| u32::try_from(board.side_count(side, view::side::ARMY_MORALE).max(0));
        Some(Sides {
            first: morale(Side::First).unwrap_or(0),
            second: morale(Side::Second).unwrap_or(0),
        })
    }

    fn unit_standing(plan: &TablePlan, unit: &BoardUnit) -> UnitStanding {
        standing::unit(plan, unit)
    }

    fn turn_standing(plan: &TablePlan, board: &Board) -> TurnStanding {
        standing::turn(plan, board)
    }

    /// Each pulse the side whose pulse it is commits a reserve company when it may, else its
    /// first unit that may fire does so (once a pulse) at the enemy's first target, else it
    /// uses its next chain for orders; between turns the command dice are rolled. Not a
    /// strategy: a repeatable way through the battle the table offers, to its end (a side's
    /// Army Morale reaches 0).
    fn scripted(plan: &TablePlan, board: &Board) -> Option<Request> {
        let state = view::state_of(plan, board);
        let side = match state.phase {
            Phase::Over => return None,
            Phase::AwaitingCommandRoll => return Some(Request::new(key::ROLL_COMMAND)),
            Phase::Pulse { side } => side,
        };
        let offered = actions::actions(&state);
        let mine = |k: &'static str| {
            offered
                .iter()
                .filter(move |a| a.key == k && a.side == Some(side) && a.allowed())
        };
        if let Some(commit) = mine(key::COMMIT_RESERVES).find(|a| a.fixed.is_empty()) {
            return Some(commit.request());
        }
        let fired_this_pulse = state
            .units_of(side)
            .any(|u| u.fire_marker && u.status == UnitStatus::OnTable);
        if !fired_this_pulse && let Some(fire) = mine(key::FIRE).find(|a| !a.targets.is_empty()) {
            let mut request = fire.request();
            request.target = fire.targets.first().cloned();
            return Some(request);
        }
        match state.side(side).chains.first() {
            Some(chain) => Some(
                Request::new(key::USE_CHAIN)
                    .side(side)
                    .with(param::FACE, InputValue::Count(chain.face.into()))
                    .with(param::DICE, InputValue::Count(chain.dice.into()))
                    .with(param::ON, InputValue::Choice("orders")),
            ),
            None => Some(Request::new(key::END_TURN)),
        }
    }

    /// The words the Lorraine tracker always logged ("M4 75mm 1/2 (Tank Company 1) → Panther
    /// Ausf G 1/2 (Panzer Company 1) (direct fire): [6 5 5 2] at 4+ …"), and whether the
    /// players rolled the dice.
    fn describe(_plan: &TablePlan, event: &TableEvent) -> Option<String> {
        let words = event.result.first()?;
        Some(if event.dice_from == DiceFrom::Table {
            format!("{words} (rolled at the table)")
        } else {
            words.clone()
        })
    }
}

#[cfg(test)]
mod tests;
