//! The file one machine keeps in a campaign's shared folder: JSON lines, only ever appended
//! to, so a new event costs a write the size of the event and a reader reads only what is new.
//!
//! The first line is the header: the format, its version, the campaign's id, the machine's id,
//! the campaign's definition (its name, ruleset, players, options and the battles it began
//! with) and its genesis (the signed record the id is the digest of: [`super::genesis`]).
//! Every other line is one event with its battle's number (`{"battle":1,"event":{…}}`), a
//! member's admission of a key (`{"admission":{…}}`: [`super::membership`]), or a definition
//! holding more battles than before (`{"definition":{…}}`: battles added by a version that did
//! not record setups as events). Every line proves itself — an event or an admission by its
//! content id and signature, the header by the genesis matching the campaign id — so lines are
//! independent: a damaged line is refused alone, and an incomplete last line (a write caught
//! half-way) is left for next time. Events come in the order the machine stored them, each
//! after the event it follows.
//!
//! Pure: the writing is `store/`'s (under the library's write lock), the reading `sync/`'s.

use serde::{Deserialize, Serialize};

use super::LoggedEvent;
use super::definition::Campaign;
use super::genesis::Genesis;
use super::identity::{CampaignUid, Recorder};
use super::membership::Admission;

/// The `format` of the header.
pub const FORMAT: &str = "quartermaster-campaign-log";
/// The version this build writes (the campaign file's, [`super::file::VERSION`]). Version 5
/// adds the genesis to the header and admission lines; version 4 files are read as before.
pub const VERSION: u32 = 5;
/// The oldest version read.
const OLDEST_VERSION: u32 = 4;
/// The file name's ending.
pub const EXTENSION: &str = "jsonl";
/// Longest line read: a line without an end this long is not one this build wrote.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;

/// The first line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    pub format: String,
    pub version: u32,
    pub id: CampaignUid,
    /// The machine that writes the file (its name in the folder).
    pub machine: String,
    /// Who that machine records as, when the file was started (for the folder's list).
    #[serde(default, skip_serializing_if = "Recorder::is_unknown")]
    pub by: Recorder,
    pub definition: Campaign,
    /// How the campaign began (`None`: begun before campaigns had a genesis).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub genesis: Option<Genesis>,
}

/// Any later line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Event {
        battle: u32,
        event: Box<LoggedEvent>,
    },
    Admission(Box<Admission>),
    Definition(Campaign),
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLine {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    battle: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    event: Option<LoggedEvent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    admission: Option<Admission>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    definition: Option<Campaign>,
}

/// The header line (with its line end) for `machine`'s file of campaign `id`.
///
/// # Errors
/// Never in practice (every field serialises); kept typed for the edges.
pub fn header_line(
    id: CampaignUid,
    machine: &str,
    by: &Recorder,
    definition: &Campaign,
    genesis: Option<&Genesis>,
) -> Result<String, String> {
    let header = Header {
        format: FORMAT.to_string(),
        version: VERSION,
        id,
        machine: machine.to_string(),
        by: by.clone(),
        definition: definition.clone(),
        genesis: genesis.cloned(),
    };
    serde_json::to_string(&header)
        .map(|t| t + "\n")
        .map_err(|e| e.to_string())
}

/// One event's line (with its line end).
///
/// # Errors
/// As [`header_line`].
pub fn event_line(battle: u32, event: &LoggedEvent) -> Result<String, String> {
    #[derive(Serialize)]
    struct Out<'a> {
        battle: u32,
        event: &'a LoggedEvent,
    }
    serde_json::to_string(&Out { battle, event })
        .map(|t| t + "\n")
        .map_err(|e| e.to_string())
}

/// An admission's line (with its line end).
///
/// # Errors
/// As [`header_line`].
pub fn admission_line(admission: &Admission) -> Result<String, String> {
    #[derive(Serialize)]
    struct Out<'a> {
        admission: &'a Admission,
    }
    serde_json::to_string(&Out { admission })
        .map(|t| t + "\n")
        .map_err(|e| e.to_string())
}

/// A definition line (with its line end).
///
/// # Errors
/// As [`header_line`].
pub fn definition_line(definition: &Campaign) -> Result<String, String> {
    serde_json::to_string(&RawLine {
        battle: None,
        event: None,
        admission: None,
        definition: Some(definition.clone()),
    })
    .map(|t| t + "\n")
    .map_err(|e| e.to_string())
}

/// Reads a header line.
///
/// # Errors
/// Not a header of this format, or of a newer version, in words.
pub fn parse_header(text: &str) -> Result<Header, String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("header: {e}"))?;
    if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
        return Err(format!(
            "not a Quartermaster campaign log (expected \"{FORMAT}\")"
        ));
    }
    match value.get("version").and_then(serde_json::Value::as_u64) {
        Some(v) if (u64::from(OLDEST_VERSION)..=u64::from(VERSION)).contains(&v) => {}
        Some(v) if v > u64::from(VERSION) => {
            return Err(format!(
                "version {v}: written by a newer Quartermaster (this one reads up to version {VERSION})"
            ));
        }
        _ => return Err(format!("version: expected {OLDEST_VERSION} to {VERSION}")),
    }
    let header: Header = serde_json::from_value(value).map_err(|e| format!("header: {e}"))?;
    // The genesis must be this campaign's: a header carrying another (or an altered one) is not
    // this campaign's file, whatever its id says.
    if let Some(genesis) = &header.genesis {
        genesis.check(header.id).map_err(|e| e.to_string())?;
    }
    Ok(header)
}

/// Reads a line after the header.
///
/// # Errors
/// Not a line of this format (a damaged or edited line), in words.
pub fn parse_line(text: &str) -> Result<Line, String> {
    let raw: RawLine = serde_json::from_str(text).map_err(|e| e.to_string())?;
    match raw {
        RawLine {
            battle: Some(battle),
            event: Some(event),
            admission: None,
            definition: None,
        } => Ok(Line::Event {
            battle,
            event: Box::new(event),
        }),
        RawLine {
            battle: None,
            event: None,
            admission: Some(admission),
            definition: None,
        } => Ok(Line::Admission(Box::new(admission))),
        RawLine {
            battle: None,
            event: None,
            admission: None,
            definition: Some(definition),
        } => Ok(Line::Definition(definition)),
        _ => Err("neither an event with its battle, an admission nor a definition".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::{Event, EventUid, LorraineOptions, Sides, new_lorraine};

    #[test]
    fn lines_round_trip_and_unknown_fields_are_refused() {
        let definition =
            new_lorraine("Lorraine", Sides::default(), LorraineOptions::default()).unwrap();
        let id = CampaignUid(uuid::Uuid::from_u128(7));
        let header = header_line(id, "m1", &Recorder::default(), &definition, None).unwrap();
        assert!(header.ends_with('\n') && !header.trim_end().contains('\n'));
        let read = parse_header(header.trim_end()).unwrap();
        assert_eq!((read.id, read.machine.as_str()), (id, "m1"));
        let event = LoggedEvent {
            id: EventUid(uuid::Uuid::from_u128(9)),
            follows: None,
            seq: 1,
            recorded_at: "2026-11-25T10:00:00.000Z".into(),
            by: Default::default(),
            revision: Some(2),
            seal: None,
            event: Event::Note { text: "x".into() },
        };
        let line = event_line(1, &event).unwrap();
        assert_eq!(
            parse_line(line.trim_end()),
            Ok(Line::Event {
                battle: 1,
                event: Box::new(event.clone())
            })
        );
        assert!(
            parse_line(
                &line
                    .trim_end()
                    .replace("\"battle\":1", "\"battle\":1,\"x\":0")
            )
            .is_err()
        );
        assert!(parse_line(&line.trim_end().replace("\"seq\":1", "\"seq\":1,\"x\":0")).is_err());
        assert!(parse_header(&header.replace("\"version\":5", "\"version\":6")).is_err());
        let def = definition_line(&definition).unwrap();
        assert_eq!(parse_line(def.trim_end()), Ok(Line::Definition(definition)));
    }
}
