//! A simple scripted player: each pulse it commits a reserve company when it may, else its
//! first unmarked shooter fires at the enemy's first target at effective range, else it uses
//! its next chain. Not a strategy — a repeatable way to drive a whole battle through the
//! tracker for tests, demos and the crash test.

use super::definition::{ArmourBattlePlan, opponent};
use super::error::CampaignError;
use super::event::{ChainUse, Event};
use super::state::{BattleState, Phase, UnitStatus};
use super::tracker;
use crate::rules::armour_battles::fire::{FireSituation, RangeBand};
use crate::rules::dice::Roller;

/// The next event the scripted player records, or `None` once the battle is over.
///
/// # Errors
/// As the [`tracker`] calls it makes.
pub fn next_event(
    plan: &ArmourBattlePlan,
    state: &BattleState,
    roller: &mut Roller,
) -> Result<Option<Event>, CampaignError> {
    let side = match state.phase {
        Phase::Over => return Ok(None),
        Phase::AwaitingCommandRoll => return tracker::roll_command(plan, state, roller).map(Some),
        Phase::Pulse { side } => side,
    };
    let reserve = state
        .units_of(side)
        .find(|u| matches!(u.status, UnitStatus::Reserve { from_turn } if from_turn <= state.turn))
        .and_then(|u| tracker::commit_reserves(state, side, &u.company).ok());
    if let Some(event) = reserve {
        return Ok(Some(event));
    }
    let shooter = tracker::shooters(state, side)
        .into_iter()
        .find(|u| !u.fire_marker)
        .map(|u| u.id.clone());
    let target = tracker::targets(state, opponent(side))
        .first()
        .map(|u| u.id.clone());
    let fired_this_pulse = state
        .units_of(side)
        .any(|u| u.fire_marker && u.status == UnitStatus::OnTable);
    if let (Some(a), Some(t), false) = (shooter, target, fired_this_pulse) {
        let situation = FireSituation {
            range: RangeBand::Effective,
            ..FireSituation::default()
        };
        return tracker::fire(state, &a, &t, situation, roller).map(Some);
    }
    match state.side(side).chains.first() {
        Some(chain) => {
            tracker::use_chain(state, side, chain.face, chain.dice, ChainUse::Orders).map(Some)
        }
        None => tracker::end_turn(state).map(Some),
    }
}

/// A campaign `machines` players have played for `events` events, signed, as the benchmarks
/// and the window's measurements need a long one: the three Lorraine battles, then "What next?"
/// battles, each played by the scripted player until it ends (then notes, as a campaign's
/// talk), the machines taking turns to record. Every machine's key is made from its number, so
/// the same call gives the same campaign (times run from 2026-01-01, a second apart).
///
/// # Errors
/// As the [`tracker`] calls it makes.
pub fn long_campaign(
    id: super::CampaignUid,
    events: usize,
    machines: usize,
) -> Result<super::CampaignRecord, CampaignError> {
    use super::definition::BattlePlan;
    use super::seal::MachineKey;
    use super::{LorraineOptions, Recorder, Sides, new_lorraine, what_next};
    let definition = new_lorraine(
        "Long campaign",
        Sides {
            us: "Ann".into(),
            german: "Bob".into(),
        },
        LorraineOptions::default(),
    )?;
    let mut record = super::CampaignRecord::new(id, definition);
    let keys: Vec<(MachineKey, Recorder)> = (0..machines.max(1))
        .map(|m| {
            let seed = u8::try_from(m % 250).unwrap_or(0) + 1;
            let key = MachineKey::from_secret([seed; 32]);
            let by = Recorder {
                player: format!("Player {}", m + 1),
                machine: format!("machine-{}", m + 1),
            };
            (key, by)
        })
        .collect();
    let start = super::time::parse_millis("2026-01-01T00:00:00.000Z")
        .map_err(CampaignError::not_allowed)?;
    let mut count = 0usize;
    let mut roller = Roller::new(1944);
    let mut index = 0usize;
    while count < events && index < super::verify::MAX_BATTLES {
        if index >= record.campaign.battles.len() {
            let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
            let plan = BattlePlan::Armour(what_next(number, index % 2 == 1)?);
            record.campaign.battles.push(plan.clone());
            record.logs.push(Vec::new());
            record.aside.push(Vec::new());
            let (key, by) = &keys[count % keys.len()];
            let at = record.next_position(index)?;
            let time = super::time::format_millis(start + 1000 * count as i64);
            record.record_sealed(
                index,
                at,
                key,
                time,
                by.clone(),
                Event::BattleAdded { plan },
            )?;
            count += 1;
        }
        let BattlePlan::Armour(plan) = record.campaign.battles[index].clone() else {
            break;
        };
        let mut state = record
            .state(index)
            .unwrap_or_else(|| BattleState::fold(&plan, std::iter::empty()));
        let mut notes = 0usize;
        let mut in_battle = 0usize;
        while count < events && in_battle < 1_500 {
            let event = match next_event(&plan, &state, &mut roller)? {
                Some(event) => event,
                None if notes < 900 => {
                    notes += 1;
                    Event::Note {
                        text: format!("after the battle, note {notes}"),
                    }
                }
                None => break,
            };
            let (key, by) = &keys[count % keys.len()];
            let at = record.next_position(index)?;
            let time = super::time::format_millis(start + 1000 * count as i64);
            let logged = record.record_sealed(index, at, key, time, by.clone(), event)?;
            state.apply_event(&logged.event);
            count += 1;
            in_battle += 1;
        }
        index += 1;
    }
    Ok(record)
}
