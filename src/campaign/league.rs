//! A club's league table: the players of several campaigns ranked by their finished battles
//! (issue #23).
//!
//! No book gives a league table, so its scoring is a house default, said wherever the table is
//! shown ([`HOUSE_DEFAULTS`]): 3 points a win, 1 a draw, none for a loss; level players are
//! parted by wins, then by their ruleset's own victory measure where it has one (Army Morale
//! left, Armour Battles), then by name. Players are the same player across campaigns when their
//! names match ignoring case ([`crate::rules::names::fold`]); the first spelling met is kept.
//!
//! Pure: it reads [`CampaignRecord`]s through their results only ([`CampaignRecord::results`]),
//! so a new battle plan or event leaves it untouched. Reading a folder of campaigns is
//! `sync::league`'s.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::result::{BattleResult, Standing};
use super::{CampaignRecord, CampaignUid, Sides, side_label};
use crate::rules::battle::Side;
use crate::rules::names::fold;

/// Points for a won battle (house default).
pub const POINTS_FOR_A_WIN: u32 = 3;
/// Points for a drawn battle (house default).
pub const POINTS_FOR_A_DRAW: u32 = 1;

/// The measure parting players level on points and wins, in words: each ruleset's own.
pub const MEASURE_NAME: &str = "Army Morale left / score";

/// The table's columns, left to right, as the window and the command line head them.
pub const COLUMNS: [&str; 9] = [
    "Rank",
    "Player",
    "Played",
    "Won",
    "Drawn",
    "Lost",
    "Points",
    MEASURE_NAME,
    "Campaigns",
];

/// The league's house defaults, in one sentence each, for every front end to show.
pub const HOUSE_DEFAULTS: [&str; 2] = [
    "Points: 3 for a win, 1 for a draw, 0 for a loss (house default: no book gives a league table).",
    "Ties: more points, then more wins, then more of the ruleset's own measure (Army Morale left in Armour Battles, the score of a battle fought on a board: units destroyed, stands left, tier points destroyed, victory points), summed over the player's finished battles, then name; players level on all three share a rank (house default).",
];

/// One campaign to rank, with the file it was read from (shown beside its players). Only what
/// the table needs of the campaign is kept ([`LeagueCampaign`]), shared: the window's League
/// keeps each campaign as read between refreshes and between sessions, and hands the same one
/// to every table it draws, uncopied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeagueSource {
    pub file: String,
    pub campaign: Arc<LeagueCampaign>,
}

/// What the league table takes from one campaign: its identity and size (to rank a campaign
/// found twice once), its players and each battle's result. Small, so a league of 200
/// campaigns is kept in the library and a League opened again reads no file that did not
/// change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeagueCampaign {
    pub id: CampaignUid,
    pub events: usize,
    pub name: String,
    pub ruleset: String,
    /// The players as the table names them (first side, second side).
    pub players: Sides<String>,
    pub battles: Vec<LeagueBattle>,
}

/// One battle as the league counts it: its line in words, and what the tally needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeagueBattle {
    pub line: BattleLine,
    pub standing: Standing,
    /// The ruleset's own measure per side, where it keeps one.
    pub score: Option<Sides<u32>>,
}

impl LeagueSource {
    /// `record`, read from `file`, as the table takes it.
    pub fn new(file: String, record: &CampaignRecord) -> LeagueSource {
        let battles = record
            .results()
            .iter()
            .map(|result| LeagueBattle {
                line: battle_line(record, result),
                standing: result.standing,
                score: result.score.clone(),
            })
            .collect();
        LeagueSource {
            file,
            campaign: Arc::new(LeagueCampaign {
                id: record.id,
                events: record.event_count(),
                name: record.campaign.name.clone(),
                ruleset: record.campaign.ruleset.as_str().to_string(),
                players: Sides {
                    first: player_name(record, Side::First),
                    second: player_name(record, Side::Second),
                },
                battles,
            }),
        }
    }
}

/// One player's line of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerRow {
    /// 1 for the best; players level on points, wins and measure share a rank.
    pub rank: u32,
    pub player: String,
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    pub points: u32,
    /// Army Morale left summed over the player's finished Armour Battles battles; `None` when
    /// none of their battles has such a measure.
    pub measure: Option<u32>,
    /// The names of the campaigns the player's battles came from, in the order met.
    pub campaigns: Vec<String>,
}

/// One battle of a campaign, in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleLine {
    pub number: u32,
    pub name: String,
    /// "US (Ann) won", "Draw", "In progress", "Not started".
    pub standing: String,
    pub reason: String,
}

/// One campaign of the league and its battles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CampaignEntry {
    pub name: String,
    /// The ruleset's id (`armour-battles`, …).
    pub ruleset: String,
    pub file: String,
    /// The two players as the table names them (first side, second side).
    pub players: Vec<String>,
    pub battles: Vec<BattleLine>,
}

/// The ranked table and the campaigns behind it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct League {
    pub players: Vec<PlayerRow>,
    pub campaigns: Vec<CampaignEntry>,
}

/// Ranks the players of `sources` (see the module's header for the scoring).
pub fn rank(sources: &[LeagueSource]) -> League {
    let mut tally = Tally::default();
    let mut campaigns = Vec::new();
    for source in sources {
        let campaign = &source.campaign;
        for battle in campaign.battles.iter().filter(|b| b.standing.is_finished()) {
            for side in [Side::First, Side::Second] {
                tally.count(campaign.players.get(side), &campaign.name, side, battle);
            }
        }
        campaigns.push(CampaignEntry {
            name: campaign.name.clone(),
            ruleset: campaign.ruleset.clone(),
            file: source.file.clone(),
            players: vec![
                campaign.players.first.clone(),
                campaign.players.second.clone(),
            ],
            battles: campaign.battles.iter().map(|b| b.line.clone()).collect(),
        });
    }
    League {
        players: tally.ranked(),
        campaigns,
    }
}

/// The player on `side`: their name as typed, trimmed; an empty name reads as the side's label.
fn player_name(record: &CampaignRecord, side: Side) -> String {
    let name = record.campaign.players.get(side).trim();
    if name.is_empty() {
        side_label(&record.campaign, side)
    } else {
        name.to_string()
    }
}

fn battle_line(record: &CampaignRecord, result: &BattleResult) -> BattleLine {
    let standing = match result.standing {
        Standing::FirstWon => format!("{} won", side_label(&record.campaign, Side::First)),
        Standing::SecondWon => format!("{} won", side_label(&record.campaign, Side::Second)),
        Standing::Draw => "Draw".to_string(),
        Standing::InProgress => "In progress".to_string(),
        Standing::NotStarted => "Not started".to_string(),
    };
    BattleLine {
        number: result.number,
        name: result.name.clone(),
        standing,
        reason: result.reason.clone(),
    }
}

/// The players' rows as counted so far, by folded name.
#[derive(Default)]
struct Tally {
    rows: Vec<PlayerRow>,
    by_name: HashMap<String, usize>,
}

impl Tally {
    /// Counts one finished battle for the player `name` on `side`.
    fn count(&mut self, name: &str, campaign: &str, side: Side, result: &LeagueBattle) {
        let place = *self.by_name.entry(fold(name)).or_insert_with(|| {
            self.rows.push(PlayerRow {
                rank: 0,
                player: name.to_string(),
                played: 0,
                won: 0,
                drawn: 0,
                lost: 0,
                points: 0,
                measure: None,
                campaigns: Vec::new(),
            });
            self.rows.len() - 1
        });
        let row = &mut self.rows[place];
        row.played += 1;
        match result.standing.winner() {
            Some(winner) if winner == side => {
                row.won += 1;
                row.points += POINTS_FOR_A_WIN;
            }
            Some(_) => row.lost += 1,
            None => {
                row.drawn += 1;
                row.points += POINTS_FOR_A_DRAW;
            }
        }
        // The ruleset's own measure: Army Morale left in Lorraine, a board ruleset's score.
        if let Some(morale) = result.score.as_ref() {
            row.measure = Some(row.measure.unwrap_or(0) + morale.get(side));
        }
        if !row.campaigns.iter().any(|c| c == campaign) {
            row.campaigns.push(campaign.to_string());
        }
    }

    /// The rows in order, ranked.
    fn ranked(self) -> Vec<PlayerRow> {
        let mut rows = self.rows;
        rows.sort_by(|a, b| {
            standing_order(a, b).then_with(|| fold(&a.player).cmp(&fold(&b.player)))
        });
        let mut ranked: Vec<PlayerRow> = Vec::with_capacity(rows.len());
        for (place, mut row) in rows.into_iter().enumerate() {
            row.rank = match ranked.last() {
                Some(above) if standing_order(above, &row) == Ordering::Equal => above.rank,
                _ => u32::try_from(place + 1).unwrap_or(u32::MAX),
            };
            ranked.push(row);
        }
        ranked
    }
}

/// Better first: more points, more wins, more of the measure (a player without one after a
/// player with one). Names only order players this leaves level.
fn standing_order(a: &PlayerRow, b: &PlayerRow) -> Ordering {
    b.points
        .cmp(&a.points)
        .then(b.won.cmp(&a.won))
        .then(b.measure.cmp(&a.measure))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::{CampaignUid, Event, LorraineOptions, Sides, new_lorraine, new_simple};
    use crate::rules::RulesetId;

    fn sides(us: &str, german: &str) -> Sides<String> {
        Sides {
            first: us.to_string(),
            second: german.to_string(),
        }
    }

    fn uid(n: u128) -> CampaignUid {
        CampaignUid(uuid::Uuid::from_u128(n))
    }

    fn conclude(record: &mut CampaignRecord, index: usize, winner: Option<Side>) {
        record
            .append_numbered(
                index,
                String::new(),
                Event::BattleConcluded {
                    winner,
                    notes: format!("battle {}", index + 1),
                },
            )
            .unwrap();
    }

    /// A Lorraine campaign with its first battles concluded as `winners` say.
    fn lorraine(
        n: u128,
        name: &str,
        players: Sides<String>,
        winners: &[Option<Side>],
    ) -> LeagueSource {
        let campaign = new_lorraine(name, players, LorraineOptions::default()).unwrap();
        let mut record = CampaignRecord::new(uid(n), campaign);
        for (index, winner) in winners.iter().enumerate() {
            conclude(&mut record, index, *winner);
        }
        LeagueSource::new(format!("{name}.json"), &record)
    }

    /// A simple campaign with one battle per entry of `winners`, each concluded so.
    fn simple(
        n: u128,
        name: &str,
        players: Sides<String>,
        winners: &[Option<Side>],
    ) -> LeagueSource {
        let campaign = new_simple(name, RulesetId::BoltAction, players).unwrap();
        let mut record = CampaignRecord::new(uid(n), campaign);
        for (index, winner) in winners.iter().enumerate() {
            record
                .add_simple_battle(
                    &format!("Skirmish {}", index + 1),
                    Sides::default(),
                    Sides::default(),
                )
                .unwrap();
            conclude(&mut record, index, *winner);
        }
        LeagueSource::new(format!("{name}.json"), &record)
    }

    fn row<'a>(league: &'a League, player: &str) -> &'a PlayerRow {
        league
            .players
            .iter()
            .find(|r| r.player == player)
            .unwrap_or_else(|| panic!("no row for {player}: {:?}", league.players))
    }

    #[test]
    fn three_points_a_win_one_a_draw_and_names_match_ignoring_case() {
        let league = rank(&[
            simple(1, "Spring", sides("Ann", "Bob"), &[Some(Side::First), None]),
            simple(
                2,
                "Summer",
                sides(" bob ", "Cid"),
                &[Some(Side::First), Some(Side::Second)],
            ),
        ]);
        let ann = row(&league, "Ann");
        assert_eq!(
            (ann.played, ann.won, ann.drawn, ann.lost, ann.points),
            (2, 1, 1, 0, 4)
        );
        // "Bob" in Spring and " bob " in Summer are one player, spelt as first met.
        let bob = row(&league, "Bob");
        assert_eq!(
            (bob.played, bob.won, bob.drawn, bob.lost, bob.points),
            (4, 1, 1, 2, 4)
        );
        assert_eq!(bob.campaigns, ["Spring", "Summer"]);
        let cid = row(&league, "Cid");
        assert_eq!((cid.played, cid.won, cid.lost, cid.points), (2, 1, 1, 3));
        assert_eq!(league.players.len(), 3);
        // Ann and Bob: 4 points and 1 win each, no measure: level, sharing first place.
        let order: Vec<(u32, &str)> = league
            .players
            .iter()
            .map(|r| (r.rank, r.player.as_str()))
            .collect();
        assert_eq!(order, [(1, "Ann"), (1, "Bob"), (3, "Cid")]);
        assert!(league.players.iter().all(|r| r.measure.is_none()));
    }

    #[test]
    fn army_morale_left_parts_players_level_on_points_and_wins() {
        // Battle 1 of Lorraine: the US start with Army Morale 9, the Germans with 7.
        let league = rank(&[
            lorraine(1, "Lezey", sides("Ann", "Bob"), &[Some(Side::First)]),
            lorraine(2, "Moncourt", sides("Bob", "Ann"), &[Some(Side::First)]),
        ]);
        let ann = row(&league, "Ann");
        let bob = row(&league, "Bob");
        assert_eq!((ann.won, ann.lost, ann.points), (1, 1, 3));
        assert_eq!((bob.won, bob.lost, bob.points), (1, 1, 3));
        assert_eq!((ann.measure, bob.measure), (Some(16), Some(16)));
        assert_eq!(ann.rank, bob.rank);

        let league = rank(&[
            lorraine(1, "Lezey", sides("Ann", "Bob"), &[Some(Side::First)]),
            simple(2, "Skirmishes", sides("Bob", "Ann"), &[Some(Side::First)]),
        ]);
        // Level on points and wins; Ann has Army Morale left (9), Bob a measure too (7).
        let order: Vec<(u32, &str, Option<u32>)> = league
            .players
            .iter()
            .map(|r| (r.rank, r.player.as_str(), r.measure))
            .collect();
        assert_eq!(order, [(1, "Ann", Some(9)), (2, "Bob", Some(7))]);
    }

    #[test]
    fn an_empty_name_reads_as_the_side_and_unfinished_battles_do_not_count() {
        let league = rank(&[lorraine(
            1,
            "Lezey",
            sides("", "  Bob "),
            &[Some(Side::Second)],
        )]);
        let names: Vec<&str> = league.players.iter().map(|r| r.player.as_str()).collect();
        assert_eq!(names, ["Bob", "US"]);
        assert_eq!(row(&league, "US").played, 1);
        let campaign = &league.campaigns[0];
        assert_eq!(campaign.players, ["US", "Bob"]);
        assert_eq!(campaign.ruleset, "armour-battles");
        assert_eq!(campaign.file, "Lezey.json");
        let standings: Vec<&str> = campaign
            .battles
            .iter()
            .map(|b| b.standing.as_str())
            .collect();
        assert_eq!(
            standings,
            ["German (Bob) won", "Not started", "Not started"]
        );
        assert_eq!(campaign.battles[0].reason, "battle 1");
    }

    #[test]
    fn a_simple_campaign_names_the_winner_by_the_player() {
        let league = rank(&[simple(
            1,
            "Spring",
            sides("Ann", ""),
            &[Some(Side::Second), None],
        )]);
        let standings: Vec<&str> = league.campaigns[0]
            .battles
            .iter()
            .map(|b| b.standing.as_str())
            .collect();
        assert_eq!(standings, ["Second player won", "Draw"]);
        assert_eq!(row(&league, "Second player").points, 4);
    }

    #[test]
    fn nothing_to_rank_is_an_empty_table() {
        assert_eq!(rank(&[]), League::default());
    }
}
