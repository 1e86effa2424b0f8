//! How a campaign names its two sides, in one place for every page that names them — results,
//! the log, the league, the window, the after-action report: the first and second player are
//! called by their scripted campaign's side ("US (Ann)"), their player, or their force, and
//! only a campaign whose sides are the US and the Germans ever says "US".

use super::definition::{BattlePlan, Campaign};
use crate::rules::battle::Side;

/// "First player" or "Second player": a side with no other name.
pub fn plain(side: Side) -> &'static str {
    match side {
        Side::First => "First player",
        Side::Second => "Second player",
    }
}

/// The side's own name, without its player: the scripted campaign's ("US"), else the force it
/// fields ("Red force"), else "First player".
pub fn side_name(campaign: &Campaign, side: Side) -> String {
    if let Some(script) = campaign.script() {
        return script.side_name(side).to_string();
    }
    let force = campaign
        .battles
        .iter()
        .find_map(|plan| plan_force(plan, side));
    force.map_or_else(|| plain(side).to_string(), str::to_string)
}

/// The side as the campaign's pages name it: "US (Ann)" in a scripted campaign; the player's
/// name, else the force's, else "First player" in any other.
pub fn side_label(campaign: &Campaign, side: Side) -> String {
    let player = campaign.players.get(side).trim();
    match (campaign.script(), player.is_empty()) {
        (Some(script), true) => script.side_name(side).to_string(),
        (Some(script), false) => format!("{} ({player})", script.side_name(side)),
        (None, false) => player.to_string(),
        (None, true) => side_name(campaign, side),
    }
}

/// How a side's standing is spelt in the documented JSON (`us`, `german` in Lorraine; `first`,
/// `second` elsewhere): "us_won", "first_won".
pub fn side_key(campaign: &Campaign, side: Side) -> String {
    match campaign.script() {
        Some(script) => script.side_key(side),
        None => match side {
            Side::First => "first".to_string(),
            Side::Second => "second".to_string(),
        },
    }
}

/// A side as one battle names it: its force ("US" in a scripted battle), else "First player".
pub fn battle_side_name(plan: &BattlePlan, side: Side) -> String {
    plan_force(plan, side).map_or_else(
        || match plan {
            BattlePlan::Armour(_) => super::legacy::side_name(side).to_string(),
            _ => plain(side).to_string(),
        },
        str::to_string,
    )
}

fn plan_force(plan: &BattlePlan, side: Side) -> Option<&str> {
    let force = match plan {
        BattlePlan::Simple(plan) => plan.forces.get(side),
        BattlePlan::Table(plan) => plan.forces.get(side),
        BattlePlan::Scripted(plan) => plan.board.forces.get(side),
        BattlePlan::Armour(_) => return None,
    };
    Some(force.trim()).filter(|f| !f.is_empty())
}
