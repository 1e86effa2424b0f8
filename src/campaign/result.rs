//! Who won: each battle from its log, the campaign from its battles (RULINGS "Campaign":
//! more battles won; a tie goes to the side with more of the ruleset's score left across the
//! battles — Army Morale in Lorraine).

use serde::Serialize;

use super::Battle;
use super::definition::{BattlePlan, SIDES, Sides};
use super::event::Event;
use super::log::active_events;
use crate::rules::battle::table::AnyTable;
use crate::rules::battle::{BattleRules, Side};

/// Where a battle stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    NotStarted,
    InProgress,
    FirstWon,
    SecondWon,
    Draw,
}

impl Standing {
    fn won_by(winner: Option<Side>) -> Self {
        match winner {
            Some(Side::First) => Standing::FirstWon,
            Some(Side::Second) => Standing::SecondWon,
            None => Standing::Draw,
        }
    }

    pub fn winner(self) -> Option<Side> {
        match self {
            Standing::FirstWon => Some(Side::First),
            Standing::SecondWon => Some(Side::Second),
            _ => None,
        }
    }

    pub fn is_finished(self) -> bool {
        matches!(
            self,
            Standing::FirstWon | Standing::SecondWon | Standing::Draw
        )
    }
}

/// One battle's result so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BattleResult {
    pub number: u32,
    pub name: String,
    pub standing: Standing,
    pub reason: String,
    /// Turns played.
    pub turns: u32,
    /// The ruleset's own measure per side where it keeps one (a board battle's score: Army
    /// Morale left in Armour Battles).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<Sides<u32>>,
    /// What each side lost: the units' labels, or in a simple battle each unit with its fate.
    pub losses: Sides<Vec<String>>,
}

pub(crate) fn battle_result(battle: &Battle<'_>, carried: &Sides<Vec<String>>) -> BattleResult {
    match battle.plan {
        BattlePlan::Table(_) | BattlePlan::Scripted(_) | BattlePlan::Armour(_) => {
            let board = battle.board_with(carried).unwrap_or_default();
            let summary = AnyTable::summary(&board);
            let standing = match &summary.outcome {
                Some((winner, _)) => Standing::won_by(*winner),
                None if battle.events.is_empty() => Standing::NotStarted,
                None => Standing::InProgress,
            };
            BattleResult {
                number: battle.plan.number(),
                name: battle.plan.name().to_string(),
                standing,
                reason: summary
                    .outcome
                    .map_or_else(String::new, |(_, reason)| reason),
                turns: summary.turns,
                score: summary.score,
                losses: summary.losses,
            }
        }
        BattlePlan::Simple(plan) => {
            let pairs: Vec<(u32, &Event)> =
                battle.events.iter().map(|e| (e.seq, &e.event)).collect();
            let mut standing = if pairs.is_empty() {
                Standing::NotStarted
            } else {
                Standing::InProgress
            };
            let mut reason = String::new();
            let mut losses: Sides<Vec<String>> = Sides::default();
            for (_, event) in active_events(&pairs) {
                match event {
                    Event::BattleConcluded { winner, notes } => {
                        standing = Standing::won_by(*winner);
                        reason = notes.clone();
                    }
                    Event::UnitFate { side, unit, fate } => {
                        let list = losses.get_mut(*side);
                        list.retain(|entry| !entry.starts_with(&format!("{unit}: ")));
                        if !fate.trim().is_empty() {
                            list.push(format!("{unit}: {fate}"));
                        }
                    }
                    _ => {}
                }
            }
            BattleResult {
                number: plan.number,
                name: plan.name.clone(),
                standing,
                reason,
                turns: 0,
                score: None,
                losses,
            }
        }
    }
}

/// The campaign's result so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CampaignResult {
    pub wins: Sides<u32>,
    pub draws: u32,
    /// The ruleset's score left (Army Morale in Lorraine), summed over the finished battles:
    /// the tie-break.
    pub morale_left: Sides<u32>,
    /// `None` while tied (or nothing finished).
    pub leader: Option<Side>,
    /// All battles finished.
    pub finished: bool,
    pub summary: String,
}

/// The campaign's result, naming each side in `names` (its own words: "US", the player, the
/// force) and its tie-break as `measure` ("Army Morale left").
pub(crate) fn campaign_result(
    results: &[BattleResult],
    names: &Sides<String>,
    measure: &str,
) -> CampaignResult {
    let mut wins: Sides<u32> = Sides::default();
    let mut draws = 0;
    let mut morale_left: Sides<u32> = Sides::default();
    for r in results.iter().filter(|r| r.standing.is_finished()) {
        match r.standing.winner() {
            Some(side) => *wins.get_mut(side) += 1,
            None => draws += 1,
        }
        if let Some(morale) = r.score.as_ref() {
            for side in SIDES {
                *morale_left.get_mut(side) += morale.get(side);
            }
        }
    }
    let finished = !results.is_empty() && results.iter().all(|r| r.standing.is_finished());
    let leader = match wins.first.cmp(&wins.second) {
        std::cmp::Ordering::Greater => Some(Side::First),
        std::cmp::Ordering::Less => Some(Side::Second),
        std::cmp::Ordering::Equal => match morale_left.first.cmp(&morale_left.second) {
            std::cmp::Ordering::Greater => Some(Side::First),
            std::cmp::Ordering::Less => Some(Side::Second),
            std::cmp::Ordering::Equal => None,
        },
    };
    let played = results.iter().filter(|r| r.standing.is_finished()).count();
    let summary = if played == 0 {
        "No battle finished yet".to_string()
    } else {
        let verb = if finished { "wins" } else { "leads" };
        let tie_break = if wins.first == wins.second && leader.is_some() {
            format!(
                " on {measure} ({} to {})",
                morale_left.first, morale_left.second
            )
        } else {
            String::new()
        };
        match leader {
            Some(side) => format!(
                "{} {verb} {}–{}{tie_break}",
                names.get(side),
                wins.get(side),
                wins.get(super::definition::opponent(side))
            ),
            None => format!("Level at {}–{}", wins.first, wins.second),
        }
    };
    CampaignResult {
        wins,
        draws,
        morale_left,
        leader,
        finished,
        summary,
    }
}
