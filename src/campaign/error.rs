//! What can go wrong recording a campaign event, in words a player can act on.

use thiserror::Error;

use crate::rules::battle::BattleError;
use crate::rules::dice::DiceError;
use crate::rules::resolution::ResolveError;

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

    /// The faces typed for a pool the rules could not take (missing, too many or too few,
    /// not on the die), when that is what was refused.
    pub fn table_dice(&self) -> Option<&DiceError> {
        match self {
            CampaignError::Battle(BattleError::Resolve(ResolveError::Dice(e)))
                if e.is_table_dice() =>
            {
                Some(e)
            }
            _ => None,
        }
    }

    /// Whether the dice typed at the table were refused (a pool the action does not roll
    /// included) rather than the action itself: a front end points at its dice entry.
    pub fn is_about_table_dice(&self) -> bool {
        self.table_dice().is_some()
            || matches!(
                self,
                CampaignError::Battle(
                    BattleError::Invalid { field: "dice", .. }
                        | BattleError::Resolve(ResolveError::Invalid { field: "dice", .. })
                )
            )
    }
}
