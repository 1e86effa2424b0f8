//! Identity that travels between machines: a campaign id, an id for every event, and who
//! recorded it.
//!
//! New ids are UUIDv7 (48 bits of milliseconds, 74 random bits), made at the edges (`store/`,
//! where the clock and the random source live) and passed in: this module only names, parses
//! and derives them. UUIDv7 rather than "device id + counter" because a data folder can be
//! copied to a second machine: two copies of one device id would count up through the same
//! numbers and give two different events one id, which a merge would take for one event. The
//! random part makes that as good as impossible, and the time part keeps ids of one machine in
//! recording order. Which machine recorded an event is kept beside it ([`Recorder`]).
//!
//! Events recorded before ids existed (a database before schema 4, a campaign file before
//! version 3) get ids derived from their campaign's id, battle number and place in the log
//! ([`EventUid::legacy`]) — the same rule in migration 0004's SQL and here, so the same event
//! gets the same id however it was upgraded.

use std::fmt;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// A campaign's id, the same on every machine that holds the campaign.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CampaignUid(pub Uuid);

/// An event's id, unique across every campaign and machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EventUid(pub Uuid);

impl fmt::Display for CampaignUid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl fmt::Display for EventUid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl EventUid {
    /// The id of an event recorded before ids existed: the campaign id's first 60 bits
    /// (version nibble 8, RFC 9562's custom layout), then the battle number and the event's
    /// place (seq) in its battle's log.
    pub fn legacy(campaign: CampaignUid, battle: u32, seq: u32) -> Self {
        let c = campaign.0.as_bytes();
        let b = 0x8000u16 | (u16::try_from(battle).unwrap_or(u16::MAX) & 0x3fff);
        let s = u64::from(seq).to_be_bytes();
        let bytes = [
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            c[5],
            0x80 | (c[6] & 0x0f),
            c[7],
            (b >> 8) as u8,
            (b & 0xff) as u8,
            s[2],
            s[3],
            s[4],
            s[5],
            s[6],
            s[7],
        ];
        EventUid(Uuid::from_bytes(bytes))
    }

    /// The last eight hex digits, for showing an id to a person: the random part of a UUIDv7
    /// (its first digits are the time, alike for events recorded close together) and the seq of
    /// a legacy id, so the events of one battle tell apart.
    pub fn short(&self) -> String {
        let digits = self.0.simple().to_string();
        digits[digits.len() - 8..].to_string()
    }
}

impl CampaignUid {
    /// A campaign id derived from a file's own bytes, for files written before campaigns had
    /// ids: importing the same old file twice gives the same campaign, recognised as such.
    /// FNV-1a over the bytes, twice with different starting points (128 bits; an id, not a
    /// safeguard against a chosen collision).
    pub fn of_old_file(text: &str) -> Self {
        let fnv = |start: u64| {
            text.bytes().fold(start, |hash, byte| {
                (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
            })
        };
        let high = fnv(0xcbf2_9ce4_8422_2325).to_be_bytes();
        let low = fnv(0x6c62_272e_07bb_0142).to_be_bytes();
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&high);
        bytes[8..].copy_from_slice(&low);
        bytes[6] = 0x80 | (bytes[6] & 0x0f);
        bytes[8] = 0x80 | (bytes[8] & 0x3f);
        CampaignUid(Uuid::from_bytes(bytes))
    }
}

/// Who recorded an event, and where: the player name set on that machine and the machine's
/// name. Empty for events recorded before this was kept.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recorder {
    pub player: String,
    pub machine: String,
}

impl Recorder {
    pub fn is_unknown(&self) -> bool {
        self.player.is_empty() && self.machine.is_empty()
    }

    /// "Alice on club-laptop", "Alice", "on club-laptop" or "" (unknown).
    pub fn label(&self) -> String {
        match (self.player.is_empty(), self.machine.is_empty()) {
            (false, false) => format!("{} on {}", self.player, self.machine),
            (false, true) => self.player.clone(),
            (true, false) => format!("on {}", self.machine),
            (true, true) => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_ids_are_version_8_and_differ_by_battle_and_seq() {
        let c = CampaignUid(Uuid::parse_str("0192f1d2-3c4b-7a00-8123-456789abcdef").unwrap());
        let a = EventUid::legacy(c, 1, 1);
        assert_eq!(a.0.get_version_num(), 8);
        assert_eq!(a.0.to_string(), "0192f1d2-3c4b-8a00-8001-000000000001");
        assert_ne!(a, EventUid::legacy(c, 2, 1));
        assert_ne!(a, EventUid::legacy(c, 1, 2));
        assert_eq!(
            EventUid::legacy(c, 3, 70_000).0.to_string(),
            "0192f1d2-3c4b-8a00-8003-000000011170"
        );
    }

    #[test]
    fn old_file_ids_are_stable_and_depend_on_every_byte() {
        let a = CampaignUid::of_old_file("{\"x\":1}");
        assert_eq!(a, CampaignUid::of_old_file("{\"x\":1}"));
        assert_ne!(a, CampaignUid::of_old_file("{\"x\":2}"));
        assert_eq!(a.0.get_version_num(), 8);
    }
}
