//! The campaign's one door to what the first Lorraine tracker recorded, before Armour Battles
//! was fought on the board like every other ruleset: its battle plans (`"type": "armour"`) and
//! its own event kinds (`command_rolled`, `fire` …), which every campaign file and database of
//! that time holds. They are never rejected: a plan is played as the board plan its briefing
//! gives, an event changes the board as it changed the tracker, and verifies under the rules
//! revision it was recorded by — the ruleset's adapter
//! ([`crate::rules::armour_battles::table_battle::legacy`]) does each. New play records `act`
//! events, so a battle begun then goes on now.

use crate::rules::armour_battles::table_battle::legacy as adapter;
use crate::rules::battle::board::{Board, Opening, TablePlan};
use crate::rules::battle::{BattleError, Facts};

use super::definition::BattlePlan;
use super::error::CampaignError;

/// An event the first Lorraine tracker recorded.
pub type LegacyEvent = adapter::LegacyEvent;
/// A battle plan the first Lorraine tracker recorded.
pub type LegacyPlan = adapter::LegacyPlan;

/// The scripted campaign the first tracker's campaigns were (they named none).
pub const SCENARIO: &str = "lorraine";

/// Every kind a [`LegacyEvent`] is stored under.
pub const KINDS: [&str; 19] = adapter::KINDS;

/// The board plan and opening a recorded plan stands for.
///
/// # Errors
/// A card this build does not know.
pub fn board_plan(plan: &LegacyPlan) -> Result<(TablePlan, Opening), BattleError> {
    adapter::board_plan(plan)
}

/// A recorded event applied to the board.
pub fn apply(plan: &TablePlan, board: &mut Board, event: &LegacyEvent) {
    adapter::apply(plan, board, event);
}

/// The event the rules of `revision` give for a recorded one, to compare.
///
/// # Errors
/// It could not have been recorded at its place.
pub fn rederive(
    plan: &TablePlan,
    board: &Board,
    event: &LegacyEvent,
    revision: u32,
) -> Result<LegacyEvent, BattleError> {
    adapter::rederive(plan, board, event, revision)
}

/// The rules revisions its events replay under.
pub fn revisions() -> std::ops::RangeInclusive<u32> {
    adapter::revisions()
}

/// The revision an event recorded before revisions were was resolved under, where its dice
/// tell.
pub fn resolved_under(event: &LegacyEvent) -> Option<u32> {
    adapter::resolved_under(event)
}

/// The event in the tracker's words.
pub fn describe(plan: &TablePlan, event: &LegacyEvent) -> String {
    adapter::describe(plan, event)
}

/// What the log needs to know about it.
pub fn facts(event: &LegacyEvent) -> Facts<'_> {
    event.facts()
}

/// A recorded plan must be the briefing it claims: the board plan it stands for is the one
/// the Lorraine campaign's data file gives battle `number` (past the third, its "What next?"
/// in either way).
///
/// # Errors
/// [`CampaignError::Invalid`] naming where it differs.
pub fn check_plan(plan: &LegacyPlan, number: u32) -> Result<(), CampaignError> {
    let script = super::scripted::find(SCENARIO)
        .ok_or_else(|| CampaignError::MissingData("Lorraine campaign".into()))?;
    let (board, opening) = board_plan(plan).map_err(|e| CampaignError::Invalid {
        field: "campaign.battles",
        message: format!("battle {number} is not the book's briefing: {e}"),
    })?;
    let as_played = BattlePlan::Scripted(super::definition::ScriptedPlan { board, opening });
    let book = script.expected(number)?;
    if book.contains(&as_played) {
        return Ok(());
    }
    Err(CampaignError::Invalid {
        field: "campaign.battles",
        message: format!(
            "battle {number} is not the book's briefing: {}",
            super::verify::plan_difference(&as_played, &book[0])
        ),
    })
}

/// A side as the first tracker named it: "US" or "German".
pub fn side_name(side: crate::rules::battle::Side) -> &'static str {
    adapter::side_name(side)
}
