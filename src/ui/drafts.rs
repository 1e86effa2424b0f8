//! What a player types into a battle's or a campaign's forms, kept for that battle or campaign
//! alone: a result, notes or replacements half entered in one battle never show in another, nor
//! in the next campaign, and a form that was used starts empty again.

use std::collections::BTreeMap;

use crate::rules::battle::Side;
use crate::store::CampaignId;

/// A battle of a campaign: the campaign and the battle's index in it.
pub type BattleKey = (CampaignId, usize);

/// A draft per key, made empty on first use and dropped once used.
#[derive(Debug, Clone, PartialEq)]
pub struct Drafts<K: Ord, T> {
    by_key: BTreeMap<K, T>,
}

impl<K: Ord, T> Default for Drafts<K, T> {
    fn default() -> Self {
        Drafts {
            by_key: BTreeMap::new(),
        }
    }
}

impl<K: Ord + Copy, T: Default> Drafts<K, T> {
    /// The draft of `key`, empty if nothing was typed there yet.
    pub fn of(&mut self, key: K) -> &mut T {
        self.by_key.entry(key).or_default()
    }

    /// Forgets what was typed for `key` (the form was used).
    pub fn clear(&mut self, key: K) {
        self.by_key.remove(&key);
    }
}

/// The players' own end of a battle, as typed: no winner is chosen until a player chooses one
/// (a draw is a choice too), so no click records a result nobody picked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResultDraft {
    /// `None`: not chosen yet; `Some(None)`: a draw.
    pub winner: Option<Option<Side>>,
    pub notes: String,
}
