//! What can go wrong recording a campaign event, in words a player can act on.

use thiserror::Error;

use crate::rules::battle::BattleError;

#[derive(Debug, Error, Clone, PartialEq)]
pub enum CampaignError {
    #[error("the embedded campaign data has no {0}")]
    MissingData(String),
    #[error("{field}: {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    #[error("{0}")]
    NotAllowed(String),
    #[error("nothing to {0}")]
    NothingTo(&'static str),
    #[error("battle {0} is not tracked turn by turn")]
    NotTracked(u32),
    /// An imported event that the rules and its own dice do not give: edited, reordered or
    /// moved from another battle.
    #[error("battle {battle}, event {seq} ({kind}): {field}: {message}")]
    Forged {
        battle: u32,
        seq: u32,
        kind: &'static str,
        field: String,
        message: String,
    },
    /// Two machines recorded different events after the same one and the players have not
    /// chosen which branch to keep yet.
    #[error(
        "the battle is forked after event {after_seq}: {branches} branches were recorded on different machines; choose the one to keep (in the Campaign view, or `campaign record NAME --battle N choose --keep ID`; `campaign show NAME` lists them) before recording more"
    )]
    Forked { after_seq: u32, branches: usize },
    /// Another copy of the campaign cannot be merged into this one.
    #[error("cannot merge: {0}")]
    Merge(String),
    /// The battle's rules refused the action.
    #[error(transparent)]
    Battle(#[from] BattleError),
}

impl From<crate::rules::RulesError> for CampaignError {
    fn from(e: crate::rules::RulesError) -> Self {
        CampaignError::Battle(e.into())
    }
}

impl CampaignError {
    pub(crate) fn not_allowed(message: impl Into<String>) -> Self {
        CampaignError::NotAllowed(message.into())
    }
}
