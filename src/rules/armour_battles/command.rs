//! The start of a turn: both sides roll command dice, check for Command Failure, lay out
//! dice chains and settle who has the first Command Pulse.
//!
//! RULINGS "Command dice" and the book's Game Turn section: more 1s than 6s is a Command
//! Failure and the 1s go to the opponent as wild dice for this turn; otherwise the 1s are
//! discarded. Both sides failing ends the turn. A failing side goes second; otherwise the
//! side with more 6s, then 5s, 4s, 3s, 2s goes first, and a full tie rerolls every command
//! die. In Battles 2 and 3 the US has the first pulse regardless ([`FirstPulse::UsAutomatic`]).
//!
//! Dice chains are modelled as the book lays them out: one chain per face 2–5 holding every
//! die of that face, and the 6s as a separate *wild* chain. Because a 6 may instead join any
//! other chain (or act on its own as a chain of 6s), the player assigns the wild dice; this
//! module only reports them, together with any wild dice received from the opponent's 1s.

use super::battle_groups::FirstPulse;
use super::cards::Side;
use super::error::ResolveError;
use super::outcome::Chance;
use crate::rules::dice::{Dist, RollRecord, Roller, d6};
use crate::rules::words::plural;

/// The most command dice per side for exact first-pulse odds (C(13, 5) = 1,287 face-count
/// vectors a side; the book's battle groups roll 3 to 6).
pub const MAX_EXACT_COMMAND_DICE: u32 = 8;

/// Rerolls before a tie is reported as an error (each tie has probability well below 1/2,
/// so this is unreachable in practice; it only bounds the loop).
pub const MAX_REROLLS: u32 = 1000;

/// How many dice show each face: `counts[face - 1]`.
pub type FaceCounts = [u32; 6];

/// Face counts of rolled dice.
pub fn face_counts(faces: &[u8]) -> FaceCounts {
    let mut counts = [0u32; 6];
    for &face in faces {
        if let Some(slot) = counts.get_mut(usize::from(face).wrapping_sub(1)) {
            *slot += 1;
        }
    }
    counts
}

/// More 1s than 6s.
pub fn is_command_failure(counts: &FaceCounts) -> bool {
    counts[0] > counts[5]
}

/// What one round of command rolls decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PulseOutcome {
    UsFirst,
    GermanFirst,
    /// Both sides rolled a Command Failure: the turn ends at once.
    TurnEnds,
    /// A full tie: both sides reroll every command die.
    Reroll,
}

/// Who goes first after one round of rolls.
pub fn first_pulse(us: &FaceCounts, german: &FaceCounts, rule: FirstPulse) -> PulseOutcome {
    let (us_fails, german_fails) = (is_command_failure(us), is_command_failure(german));
    if us_fails && german_fails {
        return PulseOutcome::TurnEnds;
    }
    if rule == FirstPulse::UsAutomatic {
        return PulseOutcome::UsFirst;
    }
    match (us_fails, german_fails) {
        (true, _) => PulseOutcome::GermanFirst,
        (_, true) => PulseOutcome::UsFirst,
        _ => {
            // Most 6s, then 5s, 4s, 3s, 2s.
            let rank = |c: &FaceCounts| [c[5], c[4], c[3], c[2], c[1]];
            match rank(us).cmp(&rank(german)) {
                std::cmp::Ordering::Greater => PulseOutcome::UsFirst,
                std::cmp::Ordering::Less => PulseOutcome::GermanFirst,
                std::cmp::Ordering::Equal => PulseOutcome::Reroll,
            }
        }
    }
}

/// The exact face-count distribution of `dice` command dice (total 6^dice).
fn counts_dist(dice: u32) -> Result<Dist<FaceCounts>, ResolveError> {
    Ok(d6().repeat(dice, [0u32; 6], |counts, &face| {
        let mut next = *counts;
        next[(face - 1) as usize] += 1;
        next
    })?)
}

/// P(Command Failure) for `dice` command dice, exactly.
///
/// # Errors
/// [`ResolveError::Dice`] beyond 49 dice.
pub fn command_failure_odds(dice: u32) -> Result<Chance, ResolveError> {
    // Only ones and sixes matter: classify each die as 1, 6 or other and count.
    let kinds = d6().map(|&face| match face {
        1 => (1i32, 0i32),
        6 => (0, 1),
        _ => (0, 0),
    });
    let tally = kinds.repeat(dice, 0i32, |&net, &(one, six)| net + one - six)?;
    Ok(Chance {
        weight: tally.weight_where(|&ones_minus_sixes| ones_minus_sixes > 0),
        total: tally.total(),
    })
}

/// Exact odds for the start of a turn.
#[derive(Debug, Clone, PartialEq)]
pub struct CommandOdds {
    pub us_dice: u32,
    pub german_dice: u32,
    pub rule: FirstPulse,
    pub us_failure: Chance,
    pub german_failure: Chance,
    /// Both fail in one round.
    pub both_fail: Chance,
    /// One round of rolls (total 6^(us + german)), ties included.
    pub round: Dist<PulseOutcome>,
    /// After any rerolls: who goes first, or the turn ends (total = round total − ties).
    pub first_pulse: Dist<PulseOutcome>,
}

impl CommandOdds {
    pub fn p_us_first(&self) -> f64 {
        self.first_pulse.probability(&PulseOutcome::UsFirst)
    }

    pub fn p_german_first(&self) -> f64 {
        self.first_pulse.probability(&PulseOutcome::GermanFirst)
    }

    /// P(the turn ends because both sides fail), after any rerolls.
    pub fn p_turn_ends(&self) -> f64 {
        self.first_pulse.probability(&PulseOutcome::TurnEnds)
    }

    /// P(a round is a full tie and both sides reroll).
    pub fn p_reroll(&self) -> f64 {
        self.round.probability(&PulseOutcome::Reroll)
    }
}

fn check_dice(side: &'static str, dice: u32, limit: u32) -> Result<(), ResolveError> {
    if dice == 0 {
        return Err(ResolveError::NoCommandDice { side });
    }
    if dice > limit {
        return Err(ResolveError::TooManyCommandDice { side, dice, limit });
    }
    Ok(())
}

/// Exact odds of Command Failure and of the first pulse, by enumerating both sides'
/// face-count vectors.
///
/// A reroll is a fresh, independent round, so the first pulse after any number of rerolls
/// is the one-round odds with the ties left out (the weights stay exact integers).
///
/// # Errors
/// No dice, or more than [`MAX_EXACT_COMMAND_DICE`] a side.
pub fn command_odds(
    us_dice: u32,
    german_dice: u32,
    rule: FirstPulse,
) -> Result<CommandOdds, ResolveError> {
    check_dice("US", us_dice, MAX_EXACT_COMMAND_DICE)?;
    check_dice("German", german_dice, MAX_EXACT_COMMAND_DICE)?;
    let us = counts_dist(us_dice)?;
    let german = counts_dist(german_dice)?;
    let round = us.combine(&german, |u, g| first_pulse(u, g, rule))?;
    let first = Dist::from_weights(
        round
            .iter()
            .filter(|(outcome, _)| **outcome != PulseOutcome::Reroll)
            .map(|(outcome, w)| (*outcome, w)),
    )?;
    let us_failure = command_failure_odds(us_dice)?;
    let german_failure = command_failure_odds(german_dice)?;
    Ok(CommandOdds {
        us_dice,
        german_dice,
        rule,
        us_failure,
        german_failure,
        both_fail: Chance {
            weight: us_failure.weight * german_failure.weight,
            total: us_failure.total * german_failure.total,
        },
        round,
        first_pulse: first,
    })
}

/// Dice of one face, used together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DiceChain {
    pub face: u8,
    pub dice: u32,
}

/// One side's command dice after the roll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideCommand {
    pub side: Side,
    pub record: RollRecord,
    pub ones: u32,
    pub sixes: u32,
    pub failed: bool,
    /// 1s handed to the opponent as wild dice (Command Failure) …
    pub ones_given: u32,
    /// … or discarded until next turn.
    pub ones_discarded: u32,
    /// Chains of 5s, 4s, 3s and 2s, highest face first.
    pub chains: Vec<DiceChain>,
    /// The side's own 6s: a wild chain the player may use as it is or split into other
    /// chains.
    pub wild_sixes: u32,
    /// Wild dice received from the opponent's Command Failure, for this turn only.
    pub wild_received: u32,
}

impl SideCommand {
    /// "COMMAND FAILURE, 1 one to the opponent; chains 2×3, 1×2; wild 0 own 6s + 0
    /// received", as the CLI and the window print a side's roll.
    pub fn summary(&self) -> String {
        let chains: Vec<String> = self
            .chains
            .iter()
            .map(|c| format!("{}×{}", c.dice, c.face))
            .collect();
        let ones = if self.failed {
            format!(
                "COMMAND FAILURE, {} to the opponent",
                plural(u64::from(self.ones_given), "one", "ones")
            )
        } else {
            format!(
                "{} discarded",
                plural(u64::from(self.ones_discarded), "one", "ones")
            )
        };
        let chains = if chains.is_empty() {
            "none".to_string()
        } else {
            chains.join(", ")
        };
        format!(
            "{ones}; chains {chains}; wild {} own 6s + {} received",
            self.wild_sixes, self.wild_received
        )
    }

    fn new(side: Side, record: RollRecord) -> Self {
        let counts = face_counts(&record.dice);
        let failed = is_command_failure(&counts);
        let chains = (2..=5u8)
            .rev()
            .map(|face| DiceChain {
                face,
                dice: counts[usize::from(face - 1)],
            })
            .filter(|chain| chain.dice > 0)
            .collect();
        Self {
            side,
            ones: counts[0],
            sixes: counts[5],
            failed,
            ones_given: if failed { counts[0] } else { 0 },
            ones_discarded: if failed { 0 } else { counts[0] },
            chains,
            wild_sixes: counts[5],
            wild_received: 0,
            record,
        }
    }

    /// Wild dice available: own 6s plus those received.
    pub fn wild_dice(&self) -> u32 {
        self.wild_sixes + self.wild_received
    }

    /// Command dice available this turn (everything but the 1s, plus received wild dice).
    pub fn dice_available(&self) -> u32 {
        self.chains.iter().map(|c| c.dice).sum::<u32>() + self.wild_dice()
    }
}

/// One round of rolls and what it decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandRound {
    pub first: RollRecord,
    pub second: RollRecord,
    pub outcome: PulseOutcome,
}

/// The start of one turn, with every roll made (rerolls included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandTurn {
    pub seed: u64,
    pub rule: FirstPulse,
    pub rounds: Vec<CommandRound>,
    /// `None` when the turn ends at once.
    pub first_pulse: Option<Side>,
    pub turn_ends: bool,
    /// Both sides as the last round left them.
    pub first: SideCommand,
    pub second: SideCommand,
}

/// Rolls the start of a turn: US dice first, then German, again after every full tie.
///
/// # Errors
/// No dice, more than [`crate::rules::dice::MAX_ROLLED_DICE`] dice, or
/// [`MAX_REROLLS`] ties in a row.
pub fn roll_command(
    us_dice: u32,
    german_dice: u32,
    rule: FirstPulse,
    roller: &mut Roller,
) -> Result<CommandTurn, ResolveError> {
    let limit = crate::rules::dice::MAX_ROLLED_DICE;
    check_dice("US", us_dice, limit)?;
    check_dice("German", german_dice, limit)?;
    let seed = roller.seed();
    let mut rounds = Vec::new();
    for _ in 0..=MAX_REROLLS {
        let us = roller.roll_d6("us", us_dice)?;
        let german = roller.roll_d6("german", german_dice)?;
        let outcome = first_pulse(&face_counts(&us.dice), &face_counts(&german.dice), rule);
        rounds.push(CommandRound {
            first: us.clone(),
            second: german.clone(),
            outcome,
        });
        if outcome == PulseOutcome::Reroll {
            continue;
        }
        let mut us = SideCommand::new(Side::First, us);
        let mut german = SideCommand::new(Side::Second, german);
        let turn_ends = outcome == PulseOutcome::TurnEnds;
        if !turn_ends {
            us.wild_received = german.ones_given;
            german.wild_received = us.ones_given;
        }
        let first_pulse = match outcome {
            PulseOutcome::UsFirst => Some(Side::First),
            PulseOutcome::GermanFirst => Some(Side::Second),
            _ => None,
        };
        return Ok(CommandTurn {
            seed,
            rule,
            rounds,
            first_pulse,
            turn_ends,
            first: us,
            second: german,
        });
    }
    Err(ResolveError::EndlessTie {
        rounds: MAX_REROLLS + 1,
    })
}

#[cfg(test)]
mod tests;
