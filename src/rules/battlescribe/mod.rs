//! BattleScribe data, the format BattleScribe and New Recruit read and the community keeps
//! its army lists in: a game system (`.gst`) and one catalogue (`.cat`) per army, as XML.
//!
//! Pure: a file's bytes (already unzipped and read by a front end or the store) in, a typed
//! model out ([`read_file`]), then a catalogue's links followed against its game system
//! ([`resolve_catalogue`]) with a [`Note`] for each thing not understood, by entry. What the
//! entries mean to a ruleset (a unit's profile, its price per quality, a force organisation)
//! is each ruleset's reading ([`crate::rules::army_data`]). The app ships none of the
//! community's files: players import their own.
//!
//! Bad input is refused whole, naming the file and line: malformed XML or text that is not
//! UTF-8, an unknown schema version, links that loop, files past [`MAX_FILE_BYTES`] or links
//! that expand past [`MAX_ENTRIES`].

mod error;
mod model;
mod read;
mod resolve;

pub use error::DataError;
pub use model::{
    Bound, CatalogueLink, CategoryLink, Constraint, Cost, DataFile, Entry, FileKind, ForceEntry,
    Group, Link, LinkKind, Modifier, Named, Profile, Rule,
};
pub use read::{MAX_FILE_BYTES, SCHEMA_VERSIONS, read_file};
pub use resolve::{
    MAX_ENTRIES, Note, Resolved, ResolvedCatalogue, ResolvedGroup, resolve_catalogue,
};

#[cfg(test)]
mod tests;
