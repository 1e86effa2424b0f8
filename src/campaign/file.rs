//! The campaign export file: versioned JSON holding the definition and every event, so an
//! import rebuilds exactly the same battles.

use serde::Serialize;

use serde_json::{Value, json};

use super::CampaignRecord;
use super::error::CampaignError;
use super::identity::{CampaignUid, EventUid};

/// The `format` field of every campaign file.
pub const FORMAT: &str = "quartermaster-campaign";
/// The newest file version this build writes and reads. Version 2 records each fire's
/// situation; version 1 files (fire without one) are still read, their fire marked legacy.
/// Version 3 gives the campaign and every event an id, each event the id of the event it
/// follows and who recorded it, and keeps the events off the line (`aside`); older files get
/// ids as they are read ([`CampaignUid::of_old_file`], [`EventUid::legacy`]). Version 4 adds,
/// to each event recorded since, the rules `revision` it was resolved under and its `seal`
/// (signing key and signature, its id made from its content: [`super::seal`]), and battles
/// added during the campaign as `battle_added` events; version 3 files read as before.
/// Version 5 adds the campaign's `genesis` (its id is the genesis's digest), the members'
/// `admissions` and the events not in play (`withheld`); version 4 files read as before.
pub const VERSION: u32 = 5;
/// The first version whose events carry ids.
const FIRST_WITH_IDS: u64 = 3;
/// The oldest file version this build reads.
pub const OLDEST_VERSION: u32 = 1;
/// The one limit of a campaign file: larger ones are refused before parsing, and never
/// written, so every export this build makes is read back (it was 64 MiB on reading only, and
/// a 94,000-event campaign exported what its import refused). A 100,000-event campaign's file
/// is about 71 MB; the shared folder's machine files have the same limit.
pub const MAX_FILE_BYTES: usize = 256 * 1024 * 1024;

#[derive(Serialize)]
struct FileOut<'a> {
    format: &'static str,
    version: u32,
    #[serde(flatten)]
    record: &'a CampaignRecord,
}

/// The campaign as a pretty-printed JSON file.
///
/// # Errors
/// Never in practice (every field serialises); kept typed for the edges.
pub fn to_json(record: &CampaignRecord) -> Result<String, CampaignError> {
    render(record, serde_json::to_string_pretty)
}

fn render<'a>(
    record: &'a CampaignRecord,
    write: impl FnOnce(&FileOut<'a>) -> serde_json::Result<String>,
) -> Result<String, CampaignError> {
    render_within(record, write, MAX_FILE_BYTES)
}

/// [`render`], refusing a file larger than `limit` (what [`read_unverified`] reads).
fn render_within<'a>(
    record: &'a CampaignRecord,
    write: impl FnOnce(&FileOut<'a>) -> serde_json::Result<String>,
    limit: usize,
) -> Result<String, CampaignError> {
    let text = write(&FileOut {
        format: FORMAT,
        version: VERSION,
        record,
    })
    .map_err(|e| CampaignError::Invalid {
        field: "campaign",
        message: e.to_string(),
    })?;
    within(text.len(), limit)?;
    Ok(text)
}

/// Refuses a campaign file of `bytes` over `limit`, saying both: the same words whether the
/// file is being written or read.
fn within(bytes: usize, limit: usize) -> Result<(), CampaignError> {
    if bytes > limit {
        return Err(CampaignError::Invalid {
            field: "file",
            message: format!(
                "{bytes} bytes; a campaign file holds at most {limit} (an import reads no more)"
            ),
        });
    }
    Ok(())
}

/// Reads a campaign file, checking its format, version and logs, and verifying every event
/// (as an import must).
///
/// # Errors
/// [`CampaignError::Invalid`] naming the field at fault; [`CampaignError::Forged`] for an
/// event that does not replay.
pub fn parse(text: &str) -> Result<CampaignRecord, CampaignError> {
    let record = read_unverified(text)?;
    check(&record)?;
    Ok(record)
}

/// Reads a campaign file's format, version, structure and links without replaying its events:
/// for a copy about to be merged, where [`super::merge::merge`] verifies every battle it adds
/// to (events already held were verified when they came).
///
/// # Errors
/// [`CampaignError::Invalid`] naming the field at fault.
pub fn read_unverified(text: &str) -> Result<CampaignRecord, CampaignError> {
    read_unverified_within(text, MAX_FILE_BYTES)
}

/// [`read_unverified`], refusing a file larger than `limit`.
fn read_unverified_within(text: &str, limit: usize) -> Result<CampaignRecord, CampaignError> {
    within(text.len(), limit)?;
    if let Some(record) = current_file(text) {
        return lay_out(record);
    }
    crate::rules::strict_json::check(text).map_err(|e| invalid("file", e))?;
    let (text, _) = crate::rules::strict_json::strip_bom(text);
    let mut value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| invalid("file", e))?;
    match value.get("format").and_then(|f| f.as_str()) {
        Some(FORMAT) => {}
        other => {
            return Err(CampaignError::Invalid {
                field: "format",
                message: format!(
                    "{other:?}: not a Quartermaster campaign file (expected \"{FORMAT}\")"
                ),
            });
        }
    }
    check_version(value.get("version"))?;
    let version = value.get("version").and_then(Value::as_u64).unwrap_or(0);
    if let Some(map) = value.as_object_mut() {
        map.remove("format");
        map.remove("version");
    }
    if version < FIRST_WITH_IDS {
        give_ids(&mut value, CampaignUid::of_old_file(text));
    }
    let record: CampaignRecord =
        serde_path_to_error::deserialize(value).map_err(|e| CampaignError::Invalid {
            field: "campaign",
            message: format!("at {}: {}", e.path(), e.inner()),
        })?;
    lay_out(record)
}

/// A file of this version read straight into its types: what a shared folder's files and the
/// app's own exports are. Typed fields refuse a key given twice and text after the JSON as the
/// strict check does, so a file this reads is one the slow path would accept; anything else
/// (an older version, a byte-order mark, a mistake) takes the slow path and its messages.
fn current_file(text: &str) -> Option<CampaignRecord> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Current {
        format: String,
        version: u32,
        id: CampaignUid,
        #[serde(default)]
        genesis: Option<super::genesis::Genesis>,
        campaign: super::Campaign,
        logs: Vec<Vec<super::LoggedEvent>>,
        aside: Vec<Vec<super::LoggedEvent>>,
        #[serde(default)]
        withheld: Vec<Vec<super::LoggedEvent>>,
        #[serde(default)]
        admissions: Vec<super::membership::Admission>,
    }
    let file: Current = serde_json::from_str(text).ok()?;
    // Versions 4 and 5 only add fields: a version 3 file reads into the same types.
    let current = (FIRST_WITH_IDS..=u64::from(VERSION)).contains(&u64::from(file.version));
    if file.format != FORMAT || !current {
        return None;
    }
    let mut record = CampaignRecord::new(file.id, file.campaign);
    record.genesis = file.genesis;
    record.logs = file.logs;
    record.aside = file.aside;
    record.withheld = file.withheld;
    record.admissions = file.admissions;
    Some(record)
}

/// A record as read, checked and laid out again.
fn lay_out(mut record: CampaignRecord) -> Result<CampaignRecord, CampaignError> {
    if record.logs.len() != record.campaign.battles.len() {
        return Err(CampaignError::Invalid {
            field: "logs",
            message: format!(
                "{} logs for {} battles",
                record.logs.len(),
                record.campaign.battles.len()
            ),
        });
    }
    if record.aside.len() > record.logs.len() {
        return Err(invalid("aside", "more lists than battles"));
    }
    check_lines(&record)?;
    if record.withheld.len() > record.logs.len() {
        return Err(invalid("withheld", "more lists than battles"));
    }
    if let Some(genesis) = &record.genesis {
        genesis
            .check(record.id)
            .map_err(|e| invalid("genesis", e))?;
    }
    // The file's own split into line, aside and withheld is not trusted: lay the events out
    // again.
    let mut aside = std::mem::take(&mut record.aside).into_iter();
    let mut withheld = std::mem::take(&mut record.withheld).into_iter();
    let events = std::mem::take(&mut record.logs)
        .into_iter()
        .map(|mut line| {
            line.extend(aside.next().unwrap_or_default());
            line.extend(withheld.next().unwrap_or_default());
            line
        })
        .collect();
    CampaignRecord::from_parts(
        record.id,
        record.genesis,
        record.campaign,
        events,
        record.admissions,
    )
}

/// An older file's events as a version 3 file has them: ids from the campaign's id, battle
/// number and place, each following the one before it; nothing aside.
fn give_ids(value: &mut Value, campaign: CampaignUid) {
    let Some(map) = value.as_object_mut() else {
        return;
    };
    map.insert("id".into(), json!(campaign));
    let Some(logs) = map.get_mut("logs").and_then(Value::as_array_mut) else {
        return;
    };
    let battles = logs.len();
    for (index, log) in logs.iter_mut().enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let mut before: Option<EventUid> = None;
        for logged in log.as_array_mut().into_iter().flatten() {
            let seq = logged
                .get("seq")
                .and_then(Value::as_u64)
                .and_then(|s| u32::try_from(s).ok())
                .unwrap_or(0);
            let id = EventUid::legacy(campaign, number, seq);
            if let Some(fields) = logged.as_object_mut() {
                fields.insert("id".into(), json!(id));
                fields.insert("follows".into(), json!(before));
            }
            before = Some(id);
        }
    }
    map.insert("aside".into(), json!(vec![Vec::<Value>::new(); battles]));
}

/// The file's lines must number their events 1, 2, 3 … (checked before laying them out, so a
/// gap is named as such rather than as a broken link).
fn check_lines(record: &CampaignRecord) -> Result<(), CampaignError> {
    for (b, log) in record.logs.iter().enumerate() {
        for (i, logged) in log.iter().enumerate() {
            let expected = u32::try_from(i + 1).unwrap_or(u32::MAX);
            if logged.seq != expected {
                return Err(CampaignError::Invalid {
                    field: "logs.seq",
                    message: format!(
                        "battle {}: event {} is numbered {} (expected {expected})",
                        b + 1,
                        i + 1,
                        logged.seq
                    ),
                });
            }
        }
    }
    Ok(())
}

/// The version must be an integer this build reads: a missing, fractional, negative, quoted or
/// too old number is not a file any build wrote; a newer one is refused, not guessed at.
fn check_version(version: Option<&serde_json::Value>) -> Result<(), CampaignError> {
    let found = version.map_or_else(|| "missing".to_string(), |v| v.to_string());
    match version.and_then(serde_json::Value::as_u64) {
        Some(v) if (u64::from(OLDEST_VERSION)..=u64::from(VERSION)).contains(&v) => Ok(()),
        Some(v) if v > u64::from(VERSION) => Err(CampaignError::Invalid {
            field: "version",
            message: format!(
                "{v}: written by a newer Quartermaster (this one reads up to {VERSION})"
            ),
        }),
        _ => Err(CampaignError::Invalid {
            field: "version",
            message: format!("{found}: expected an integer from {OLDEST_VERSION} to {VERSION}"),
        }),
    }
}

fn invalid(field: &'static str, e: impl std::fmt::Display) -> CampaignError {
    CampaignError::Invalid {
        field,
        message: e.to_string(),
    }
}

/// A record's events may only undo or redo earlier events, and every recorded die must replay
/// from its seed (that the logs match the battles, [`read_unverified`] checked).
fn check(record: &CampaignRecord) -> Result<(), CampaignError> {
    if record.name().trim().is_empty() {
        return Err(invalid("campaign.name", "must not be empty"));
    }
    for (b, log) in record
        .logs
        .iter()
        .zip(&record.aside)
        .map(|(l, a)| l.iter().chain(a))
        .enumerate()
    {
        for logged in log {
            if let super::Event::Undo { seq } | super::Event::Redo { seq } = logged.event
                && seq >= logged.seq
            {
                return Err(CampaignError::Invalid {
                    field: "logs.event",
                    message: format!(
                        "battle {}: event {} refers to a later event {seq}",
                        b + 1,
                        logged.seq
                    ),
                });
            }
            if let Some(bad) = logged.event.rolls().into_iter().find(|r| !r.is_genuine()) {
                return Err(CampaignError::Invalid {
                    field: "logs.event",
                    message: format!(
                        "battle {}, event {}: dice {:?} do not replay from seed {} roll {}: edited or damaged",
                        b + 1,
                        logged.seq,
                        bad.dice,
                        bad.seed,
                        bad.index
                    ),
                });
            }
        }
    }
    super::verify::verify_record(record)?;
    // Every event on its own as a merge checks it (seal, recorder, time, size, place, unsigned
    // events); the dice were replayed just above.
    let mut empty = CampaignRecord::new(record.id, record.campaign.clone());
    empty.genesis.clone_from(&record.genesis);
    let (_, report) = super::merge::merge_unreplayed(&empty, record)?;
    if let Some(refused) = report.refused.first() {
        return Err(CampaignError::Invalid {
            field: "logs.event",
            message: refused.describe(),
        });
    }
    match report.refused_admissions.first() {
        Some((id, why)) => Err(CampaignError::Invalid {
            field: "admissions",
            message: format!("admission …{}: {why}", id.short()),
        }),
        None => Ok(()),
    }
}

impl CampaignRecord {
    pub fn name(&self) -> &str {
        &self.campaign.name
    }
}

#[cfg(test)]
mod limit_tests {
    use super::*;

    fn a_campaign() -> CampaignRecord {
        parse(include_str!(
            "../../tests/fixtures/campaign_lorraine_tracker.json"
        ))
        .unwrap()
    }

    /// One limit for writing and reading, shown with a limit the size of one small campaign.
    #[test]
    fn an_export_the_import_would_refuse_is_refused_with_its_size() {
        let record = a_campaign();
        let size = to_json(&record).unwrap().len();
        // At the limit: written, and read back under the same limit.
        let text = render_within(&record, serde_json::to_string_pretty, size).unwrap();
        assert_eq!(read_unverified_within(&text, size).unwrap(), record);
        // One byte less: not written, saying the size and the limit, as the import says.
        let refused = render_within(&record, serde_json::to_string_pretty, size - 1)
            .unwrap_err()
            .to_string();
        assert!(refused.contains(&format!("{size} bytes")), "{refused}");
        assert!(
            refused.contains(&format!("at most {}", size - 1)),
            "{refused}"
        );
        let read = read_unverified_within(&text, size - 1).unwrap_err();
        assert_eq!(read.to_string(), refused);
    }
}
