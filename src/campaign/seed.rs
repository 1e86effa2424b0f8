//! The seed of an app roll recorded in a campaign battle, which nobody chooses.
//!
//! It is a pure function of what the recorded event itself carries — the campaign's id, the
//! battle, the event it follows and the machine that records it — so verification computes it
//! again and refuses any other ([`super::verify`]). The same moment always gives the same dice:
//! pressing Roll twice cannot re-roll (the second press is refused, the first event already
//! follows that moment), and a roll can only be made again after a visible undo, which moves
//! the log on to a new moment. Two machines recording after the same event get different dice,
//! as they get a fork.

use super::identity::{CampaignUid, EventUid};

/// FNV-1a's 64-bit offset basis and prime: a hash fixed by its definition, not by a library
/// or compiler version, since recorded seeds must come out the same forever.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// What the bytes are for, so no other hash of the same fields could be mistaken for a seed.
const DOMAIN: &[u8] = b"quartermaster battle seed 1";

/// The seed of the app's roll for an event of battle number `battle` of `campaign`,
/// recorded after `follows` (`None`: the battle's first event) on `machine`.
pub fn battle_seed(
    campaign: CampaignUid,
    battle: u32,
    follows: Option<EventUid>,
    machine: &str,
) -> u64 {
    let mut hash = FNV_OFFSET;
    let mut feed = |bytes: &[u8]| {
        for byte in bytes {
            hash = (hash ^ u64::from(*byte)).wrapping_mul(FNV_PRIME);
        }
    };
    feed(DOMAIN);
    feed(campaign.0.as_bytes());
    feed(&battle.to_le_bytes());
    match follows {
        Some(id) => {
            feed(&[1]);
            feed(id.0.as_bytes());
        }
        None => feed(&[0]),
    }
    // Its length first, so no machine name can run into the fields before it.
    feed(&(machine.len() as u64).to_le_bytes());
    feed(machine.as_bytes());
    spread(hash)
}

/// SplitMix64's finaliser: FNV's low bits change little between close inputs, and the roller
/// takes the seed as it is.
fn spread(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use uuid::Uuid;

    fn campaign() -> CampaignUid {
        CampaignUid(Uuid::parse_str("0192f1d2-3c4b-7a00-8123-456789abcdef").unwrap())
    }

    #[test]
    fn every_field_changes_the_seed() {
        let after = EventUid(Uuid::parse_str("0192f1d2-3c4b-7a00-8123-000000000001").unwrap());
        let base = battle_seed(campaign(), 1, Some(after), "laptop");
        assert_eq!(base, battle_seed(campaign(), 1, Some(after), "laptop"));
        let other = CampaignUid(Uuid::parse_str("0192f1d2-3c4b-7a00-8123-456789abcdee").unwrap());
        for changed in [
            battle_seed(other, 1, Some(after), "laptop"),
            battle_seed(campaign(), 2, Some(after), "laptop"),
            battle_seed(campaign(), 1, None, "laptop"),
            battle_seed(campaign(), 1, Some(after), "laptop2"),
            battle_seed(campaign(), 1, Some(after), ""),
        ] {
            assert_ne!(changed, base);
        }
    }

    /// Recorded seeds must be derived the same way forever: a change to the function fails
    /// here before it refuses every log recorded with it.
    #[test]
    fn the_seed_is_fixed_by_its_definition() {
        assert_eq!(battle_seed(campaign(), 1, None, ""), FIXED_FIRST);
    }

    /// Pinned from the first build of [`battle_seed`].
    const FIXED_FIRST: u64 = 9_441_608_561_400_785_255;
}
