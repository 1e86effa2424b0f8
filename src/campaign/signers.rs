//! Who signed a campaign's events, counted one battle at a time: the window keeps each
//! battle's count and, when an event is recorded, counts that battle again and merges, rather
//! than walking a history of 100,000 events in the frame.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{LoggedEvent, Recorder, seal};

/// A key that signed events of a campaign, with the names it recorded under: the campaign's
/// player list ([`super::CampaignRecord::players`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerKey {
    pub key: seal::PublicKey,
    pub by: Recorder,
    /// When it first signed an event here.
    pub since: String,
    pub events: usize,
}

impl PlayerKey {
    /// "Ann on laptop · key 3F9A-C21E".
    pub fn label(&self) -> String {
        let who = self.by.label();
        let who = if who.is_empty() {
            "(no name)".to_string()
        } else {
            who
        };
        format!("{who} · key {}", self.key.fingerprint())
    }
}

/// One battle's signers ([`super::CampaignRecord::signers`]): its keys as [`PlayerKey`]s
/// counting that battle's events only, and its unsigned events.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Signers {
    pub keys: Vec<PlayerKey>,
    pub unsigned: usize,
}

/// A key with the names it recorded under, borrowed: cloning two names per event was most of
/// the cost of counting.
type Who<'a> = (seal::PublicKey, &'a str, &'a str);

impl Signers {
    /// The signers of `events` (one battle's, line and aside).
    pub fn of<'a>(events: impl Iterator<Item = &'a LoggedEvent>) -> Signers {
        let mut by_key: BTreeMap<Who<'a>, PlayerKey> = BTreeMap::new();
        let mut unsigned = 0;
        for e in events {
            let Some(s) = e.seal else {
                unsigned += 1;
                continue;
            };
            let entry = by_key
                .entry((s.key, e.by.player.as_str(), e.by.machine.as_str()))
                .or_insert_with(|| PlayerKey {
                    key: s.key,
                    by: e.by.clone(),
                    since: e.recorded_at.clone(),
                    events: 0,
                });
            entry.events += 1;
            if e.recorded_at < entry.since {
                entry.since.clone_from(&e.recorded_at);
            }
        }
        Signers {
            keys: by_key.into_values().collect(),
            unsigned,
        }
    }

    /// The campaign's player list from its battles' signers: each key and names once, its
    /// events summed and its earliest event kept, in order of first event.
    pub fn players(battles: &[Signers]) -> Vec<PlayerKey> {
        let mut by_key: BTreeMap<Who<'_>, PlayerKey> = BTreeMap::new();
        for p in battles.iter().flat_map(|b| &b.keys) {
            let entry = by_key
                .entry((p.key, p.by.player.as_str(), p.by.machine.as_str()))
                .or_insert_with(|| PlayerKey {
                    events: 0,
                    ..p.clone()
                });
            entry.events += p.events;
            if p.since < entry.since {
                entry.since.clone_from(&p.since);
            }
        }
        let mut list: Vec<PlayerKey> = by_key.into_values().collect();
        list.sort_by(|a, b| (&a.since, a.key).cmp(&(&b.since, b.key)));
        list
    }

    /// Unsigned events of every battle.
    pub fn unsigned(battles: &[Signers]) -> usize {
        battles.iter().map(|b| b.unsigned).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_merged_from_battles_are_the_players_counted_over_the_whole_campaign() {
        // Ten machines over two battles (1,500 events fill the first): each machine signed
        // in both, so the merge must sum the counts and keep the earliest time.
        let record = crate::campaign::script::long_campaign(
            crate::campaign::CampaignUid(uuid::Uuid::from_u128(7)),
            1_800,
            10,
        )
        .unwrap();
        assert!(record.logs.len() >= 2);
        let per_battle: Vec<Signers> = (0..record.logs.len()).map(|i| record.signers(i)).collect();
        let whole = Signers::of((0..record.logs.len()).flat_map(|i| record.all_events(i)));
        let merged = Signers::players(&per_battle);
        assert_eq!(merged, Signers::players(std::slice::from_ref(&whole)));
        assert_eq!(merged.len(), 10);
        assert_eq!(
            merged.iter().map(|p| p.events).sum::<usize>() + Signers::unsigned(&per_battle),
            record.event_count()
        );
        assert_eq!(Signers::unsigned(&per_battle), record.unsigned_events());
    }
}
