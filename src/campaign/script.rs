//! A long signed campaign for the benchmarks and the window's measurements: the Lorraine
//! battles and "What next?" battles played by the scripted player
//! ([`super::CampaignRecord::scripted`], which decides through the battle's rules like any
//! other action), several machines taking turns to record.

use super::error::CampaignError;
use super::event::Event;

/// A campaign `machines` players have played for `events` events, signed, as the benchmarks
/// and the window's measurements need a long one: the three Lorraine battles, then "What next?"
/// battles, each played by the scripted player until it ends (then notes, as a campaign's
/// talk), the machines taking turns to record. Every machine's key is made from its number, so
/// the same call gives the same campaign (times run from 2026-01-01, a second apart).
///
/// # Errors
/// As the battle's rules refuse an action the script asks for.
pub fn long_campaign(
    id: super::CampaignUid,
    events: usize,
    machines: usize,
) -> Result<super::CampaignRecord, CampaignError> {
    use super::seal::MachineKey;
    use super::{LorraineOptions, Recorder, Sides, new_lorraine};
    let definition = new_lorraine(
        "Long campaign",
        Sides {
            first: "Ann".into(),
            second: "Bob".into(),
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
    let mut index = 0usize;
    while count < events && index < super::verify::MAX_BATTLES {
        if index >= record.campaign.battles.len() {
            let variant = (index % 2 == 1).then_some("extra_artillery");
            let plan = record.follow_up(variant)?;
            record.campaign.battles.push(plan.clone().into());
            record.logs.push(Vec::new());
            record.aside.push(Vec::new());
            let battles = record.logs.len();
            record.withheld.resize(battles, Vec::new());
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
        if record.campaign.battles[index].board_setup().is_none() {
            break;
        }
        let mut notes = 0usize;
        let mut in_battle = 0usize;
        while count < events && in_battle < 1_500 {
            let (key, by) = &keys[count % keys.len()];
            let event = match record.scripted(index, by)? {
                Some(event) => event,
                None if notes < 900 => {
                    notes += 1;
                    Event::Note {
                        text: format!("after the battle, note {notes}"),
                    }
                }
                None => break,
            };
            let at = record.next_position(index)?;
            let time = super::time::format_millis(start + 1000 * count as i64);
            record.record_sealed(index, at, key, time, by.clone(), event)?;
            count += 1;
            in_battle += 1;
        }
        index += 1;
    }
    Ok(record)
}
