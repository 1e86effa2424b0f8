//! What stops a BattleScribe file from being read: each refusal names the file and, where the
//! file has one, the line, so a player can open it and look.

use thiserror::Error;

/// A file that cannot be imported. Nothing of an import is kept when one of its files fails.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DataError {
    /// Not well-formed XML (or not UTF-8 text).
    #[error("{file} line {line}: not readable XML — {message}")]
    Malformed {
        file: String,
        line: u32,
        message: String,
    },
    /// The root element is neither a game system nor a catalogue.
    #[error(
        "{file} line {line}: <{found}> is not BattleScribe data (expected <gameSystem> or <catalogue>)"
    )]
    NotBattleScribe {
        file: String,
        line: u32,
        found: String,
    },
    /// A `battleScribeVersion` this app does not know how to read.
    #[error(
        "{file} line {line}: BattleScribe schema version \"{found}\" is not one this app reads ({known}) — export the data again with a BattleScribe or New Recruit that writes one of those"
    )]
    UnknownSchema {
        file: String,
        line: u32,
        found: String,
        known: &'static str,
    },
    /// A required attribute is missing or has a value that cannot be read.
    #[error("{file} line {line}: <{element}> {attribute}: {message}")]
    BadAttribute {
        file: String,
        line: u32,
        element: String,
        attribute: &'static str,
        message: String,
    },
    /// A link that leads back to itself through other links.
    #[error("{file} line {line}: the links loop back on themselves ({chain})")]
    CyclicLink {
        file: String,
        line: u32,
        chain: String,
    },
    /// More than the file-size cap, or links that expand beyond any real army list.
    #[error("{file}: {message}")]
    TooLarge { file: String, message: String },
    /// A catalogue written for another game system than the one imported with it.
    #[error("{file} line {line}: a catalogue for another game system ({found}) — {expected}")]
    OtherGameSystem {
        file: String,
        line: u32,
        found: String,
        expected: String,
    },
    /// A game system no ruleset of this app reads.
    #[error("{file} line {line}: game system \"{name}\" is not one this app reads ({readable})")]
    UnreadableSystem {
        file: String,
        line: u32,
        name: String,
        readable: String,
    },
    /// An import with catalogues and no game system to read them against.
    #[error(
        "{file}: no game system (.gst or .gstz) was given or imported before for its game system {system_id} — import the game system file together with it"
    )]
    NoGameSystem { file: String, system_id: String },
    /// Two game systems in one import.
    #[error(
        "{file}: a second game system in one import (the first was {first}) — import one game system at a time"
    )]
    TwoGameSystems { file: String, first: String },
    /// A file whose revision was imported before with different contents.
    #[error(
        "{file} line {line}: revision {revision} of {name} was imported before with different contents — a changed file needs a new revision number"
    )]
    RevisionReused {
        file: String,
        line: u32,
        name: String,
        revision: u32,
    },
    /// Reading a file or an archive failed (a zip bomb, a broken archive, an unreadable file).
    #[error("{file}: {message}")]
    Unreadable { file: String, message: String },
}

impl DataError {
    /// The file the error is about, as given.
    pub fn file(&self) -> &str {
        match self {
            DataError::Malformed { file, .. }
            | DataError::NotBattleScribe { file, .. }
            | DataError::UnknownSchema { file, .. }
            | DataError::BadAttribute { file, .. }
            | DataError::CyclicLink { file, .. }
            | DataError::TooLarge { file, .. }
            | DataError::OtherGameSystem { file, .. }
            | DataError::UnreadableSystem { file, .. }
            | DataError::NoGameSystem { file, .. }
            | DataError::TwoGameSystems { file, .. }
            | DataError::RevisionReused { file, .. }
            | DataError::Unreadable { file, .. } => file,
        }
    }
}
