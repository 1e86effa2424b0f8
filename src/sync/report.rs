//! What a sync did, for the terminal, the window and `--json`.

use std::path::PathBuf;

use serde::Serialize;

use super::folder::FileRead;
use crate::rules::words::amount;

/// What became of one file of the folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FileStatus {
    /// Read: its events are in the library (those refused are named in the report).
    Merged,
    /// Not usable now: why is in the note.
    Skipped,
    /// The same as at the last sync: not read again.
    Unchanged,
}

/// One file of the folder, and what became of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileOutcome {
    pub file: String,
    pub status: FileStatus,
    pub note: String,
}

impl FileOutcome {
    pub(super) fn unchanged(read: &FileRead) -> Self {
        FileOutcome {
            file: read.name.clone(),
            status: FileStatus::Unchanged,
            note: String::new(),
        }
    }

    /// What reading `read` came to: `taken` of its events new to the library, `refused` not
    /// taken; `other` when it belongs to another campaign.
    pub(super) fn of(read: &FileRead, taken: usize, refused: usize, other: bool) -> Self {
        let (status, note) = if read.unchanged {
            (FileStatus::Unchanged, String::new())
        } else if other {
            (
                FileStatus::Skipped,
                "another campaign's file (its header says so)".to_string(),
            )
        } else if let Some(why) = &read.unusable {
            let again = if read.again {
                " (read again next time)"
            } else {
                ""
            };
            (FileStatus::Skipped, format!("{why}{again}"))
        } else {
            let mut parts = vec![format!("{} new", amount(taken as u64, "events"))];
            if refused > 0 {
                parts.push(format!("{refused} refused"));
            }
            if !read.damaged.is_empty() {
                parts.push(format!(
                    "{} damaged: {}",
                    amount(read.damaged.len() as u64, "lines"),
                    read.damaged.join("; ")
                ));
            }
            if read.again {
                parts.push("its last line is incomplete (read again next time)".to_string());
            }
            (FileStatus::Merged, parts.join(", "))
        };
        FileOutcome {
            file: read.name.clone(),
            status,
            note,
        }
    }
}

/// An event of the folder the library did not take.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RefusedEvent {
    pub file: String,
    pub battle: u32,
    /// The event's id, its last eight digits.
    pub event: String,
    pub kind: String,
    pub reason: String,
    /// It waits for an event it follows: read again next time.
    pub waiting: bool,
}

/// A battle forked by the sync, and who recorded its branches (one of them must choose).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ForkNotice {
    pub battle: u32,
    /// Who recorded the branches, each once.
    pub who: Vec<String>,
    /// The fork in a sentence: how many versions, whose, or which choices disagree.
    pub sentence: String,
}

/// What a sync did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SyncReport {
    pub folder: Option<PathBuf>,
    pub files: Vec<FileOutcome>,
    /// Events new to this library.
    pub added: usize,
    pub battles_added: usize,
    /// Battles forked by this sync, waiting for a choice of branch.
    pub forked: Vec<u32>,
    /// The same, with who recorded each branch.
    pub forks: Vec<ForkNotice>,
    /// Events not taken, and why.
    pub refused: Vec<RefusedEvent>,
    /// This machine's file, when it was written to.
    pub wrote: Option<PathBuf>,
    /// Names more than one key signs under, each in a sentence saying how to settle it.
    pub conflicts: Vec<String>,
    /// Keys this library admitted as a member (first claims it saw).
    pub admitted: usize,
    /// Admissions new to the library (taken from the folder, or signed here): who the campaign
    /// believes may have changed.
    pub admissions: usize,
    /// Those admissions, for a front end holding the campaign to add them to its copy instead
    /// of reading it all again.
    #[serde(skip)]
    pub new_admissions: Vec<crate::campaign::membership::Admission>,
    /// The new machine id, when this library found another computer writing under its own
    /// and took a new one.
    pub reidentified: Option<String>,
    /// What the library did on its own meanwhile (a copied library taking a new machine id).
    pub notices: Vec<String>,
    /// The events taken, each with its battle's place, for a front end holding the campaign
    /// to add them to its copy instead of reading it all again.
    #[serde(skip)]
    pub taken: Vec<(usize, crate::campaign::LoggedEvent)>,
}

impl SyncReport {
    /// The files that could not be used, for telling the user.
    pub fn skipped(&self) -> impl Iterator<Item = &FileOutcome> {
        self.files
            .iter()
            .filter(|f| f.status == FileStatus::Skipped)
    }

    /// How many files of the folder this sync read (the rest were as the last sync left them).
    pub fn files_read(&self) -> usize {
        self.files
            .iter()
            .filter(|f| f.status != FileStatus::Unchanged)
            .count()
    }

    /// Whether a later sync may take more of what was found (an incomplete file, an event
    /// waiting for one it follows).
    pub fn read_again(&self) -> bool {
        self.refused.iter().any(|r| r.waiting)
            || self
                .files
                .iter()
                .any(|f| f.note.contains("read again next time"))
    }

    /// One line for a notice or the terminal.
    pub fn summary(&self) -> String {
        let read = self
            .files
            .iter()
            .filter(|f| f.status == FileStatus::Merged)
            .count();
        let skipped = self.skipped().count();
        let mut text = format!(
            "{} from {}",
            amount(self.added as u64, "new events"),
            amount(read as u64, "files")
        );
        if self.battles_added > 0 {
            text.push_str(&format!(
                ", {}",
                amount(self.battles_added as u64, "new battles")
            ));
        }
        if !self.refused.is_empty() {
            let waiting = self.refused.iter().filter(|r| r.waiting).count();
            text.push_str(&format!(
                "; {} refused",
                amount(self.refused.len() as u64, "events")
            ));
            if waiting > 0 {
                text.push_str(&format!(
                    " ({waiting} waiting for an event they follow: read again next time)"
                ));
            }
        }
        if skipped > 0 {
            text.push_str(&format!("; {} skipped", amount(skipped as u64, "files")));
        }
        if self.wrote.is_some() {
            text.push_str("; this machine's file written");
        }
        for fork in &self.forks {
            text.push_str(&format!("; {}", fork.sentence));
        }
        if !self.conflicts.is_empty() {
            text.push_str(&match self.conflicts.len() {
                1 => "; a name is claimed by two keys (see below)".to_string(),
                n => format!("; {n} names are claimed by more than one key (see below)"),
            });
        }
        if self.reidentified.is_some() {
            text.push_str("; this library now records as a new machine (see the notice)");
        }
        text
    }
}
