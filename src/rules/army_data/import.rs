//! One import of army data: the files a player gave (already read from disk and unzipped by
//! a front end), checked to belong together, each catalogue read by the ruleset that claims
//! the game system. All or nothing: the first file that cannot be read stops the import.

use super::entry::DataRef;
use super::force_org::{ForceOrg, force_orgs};
use crate::rules::battlescribe::{
    DataError, DataFile, FileKind, Named, Note, read_file, resolve_catalogue,
};
use crate::rules::card::Card;
use crate::rules::ruleset::RulesetId;

/// The points limit a force organisation starts with until the players set theirs.
pub const DEFAULT_POINTS: u32 = 1000;

/// A file as given: its name (for messages) and its bytes, unzipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportFile {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// What a ruleset's reader is told about the catalogue it reads.
#[derive(Debug, Clone, Copy)]
pub struct ArmyContext<'a> {
    pub source: &'a DataRef,
    /// The id of the cost type that counts points.
    pub points_type: Option<&'a str>,
    /// The game system's categories (force organisation slots).
    pub categories: &'a [Named],
}

/// What one file of an import became.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedFile {
    pub kind: FileKind,
    pub source: DataRef,
    /// The file's name as given.
    pub file: String,
    pub digest: String,
    /// A catalogue's game system.
    pub game_system_id: Option<String>,
    /// A game system's text, kept so later catalogues can be read against it.
    pub text: Option<String>,
    pub cards: Vec<Card>,
    pub force_orgs: Vec<ForceOrg>,
    pub notes: Vec<Note>,
}

/// A whole import, ready to store: the game system first where one was given.
#[derive(Debug, Clone, PartialEq)]
pub struct Import {
    pub ruleset: RulesetId,
    pub files: Vec<ImportedFile>,
}

impl Import {
    /// Every note of every file, in file order.
    pub fn notes(&self) -> impl Iterator<Item = &Note> {
        self.files.iter().flat_map(|f| f.notes.iter())
    }
}

/// Reads `files` (a game system and catalogues, in any order) against the game system among
/// them, or else the one of `known_systems` (stored by earlier imports) their catalogues
/// name. `progress(done, total)` is told after each file.
///
/// # Errors
/// The first [`DataError`]: a file that does not read, a catalogue of another game system, a
/// game system no ruleset reads, or catalogues with no game system.
pub fn read_import(
    files: &[ImportFile],
    known_systems: &[ImportFile],
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Import, DataError> {
    let total = files.len();
    let mut read = Vec::with_capacity(total);
    for file in files {
        read.push(read_file(&file.name, &file.bytes)?);
    }
    let mut systems = read.iter().filter(|f| f.kind == FileKind::GameSystem);
    let given = systems.next();
    if let (Some(first), Some(second)) = (given, systems.next()) {
        return Err(DataError::TwoGameSystems {
            file: second.file.clone(),
            first: first.name.clone(),
        });
    }
    let catalogues: Vec<&DataFile> = read
        .iter()
        .filter(|f| f.kind == FileKind::Catalogue)
        .collect();
    let stored;
    let system = match given {
        Some(system) => system,
        None => {
            let Some(first) = catalogues.first() else {
                return Err(DataError::Unreadable {
                    file: "the import".into(),
                    message: "no BattleScribe files (.gst, .cat, .gstz, .catz) were given".into(),
                });
            };
            let wanted = first.game_system_id.clone().unwrap_or_default();
            stored = known_systems
                .iter()
                .map(|f| read_file(&f.name, &f.bytes))
                .filter_map(Result::ok)
                .find(|f| f.id == wanted)
                .ok_or_else(|| DataError::NoGameSystem {
                    file: first.file.clone(),
                    system_id: wanted.clone(),
                })?;
            &stored
        }
    };
    let ruleset = crate::rules::all_rulesets()
        .find(|r| r.reads_game_system(&system.name))
        .ok_or_else(|| DataError::UnreadableSystem {
            file: system.file.clone(),
            line: system.line,
            name: system.name.clone(),
            readable: readable_systems(),
        })?;
    for catalogue in &catalogues {
        if catalogue.game_system_id.as_deref() != Some(system.id.as_str()) {
            return Err(DataError::OtherGameSystem {
                file: catalogue.file.clone(),
                line: catalogue.line,
                found: catalogue.game_system_id.clone().unwrap_or_default(),
                expected: format!(
                    "it cannot be read against {} (id {}), the game system of this import",
                    system.name, system.id
                ),
            });
        }
    }
    let system_ref = DataRef {
        id: system.id.clone(),
        name: system.name.clone(),
        revision: system.revision,
    };
    let points_type = points_type(system);
    let mut out = Vec::new();
    if given.is_some() {
        let mut notes = Vec::new();
        if points_type.is_none() {
            notes.push(Note {
                file: system.file.clone(),
                line: system.line,
                entry: String::new(),
                message: "no cost type reads as points: every unit costs 0".into(),
            });
        }
        let text = files
            .iter()
            .find(|f| f.name == system.file)
            .map(|f| String::from_utf8_lossy(&f.bytes).into_owned());
        out.push(ImportedFile {
            kind: FileKind::GameSystem,
            source: system_ref.clone(),
            file: system.file.clone(),
            digest: system.digest.clone(),
            game_system_id: None,
            text,
            cards: Vec::new(),
            force_orgs: force_orgs(system, &system_ref, DEFAULT_POINTS),
            notes,
        });
    }
    let mut done = usize::from(given.is_some());
    progress(done, total);
    for catalogue in &catalogues {
        let others: Vec<&DataFile> = catalogues
            .iter()
            .copied()
            .filter(|c| c.id != catalogue.id)
            .collect();
        let resolved = resolve_catalogue(system, catalogue, &others)?;
        let source = DataRef {
            id: catalogue.id.clone(),
            name: catalogue.name.clone(),
            revision: catalogue.revision,
        };
        let mut notes = resolved.notes;
        let context = ArmyContext {
            source: &source,
            points_type: points_type.as_deref(),
            categories: &system.categories,
        };
        let cards = ruleset.army_cards(&resolved.units, &context, &mut notes);
        out.push(ImportedFile {
            kind: FileKind::Catalogue,
            source,
            file: catalogue.file.clone(),
            digest: catalogue.digest.clone(),
            game_system_id: Some(system.id.clone()),
            text: None,
            cards,
            force_orgs: Vec::new(),
            notes,
        });
        done += 1;
        progress(done, total);
    }
    Ok(Import {
        ruleset: ruleset.id(),
        files: out,
    })
}

/// The cost type that counts points: the one whose name or id says so, else the only one.
fn points_type(system: &DataFile) -> Option<String> {
    let says_points = |text: &str| {
        let lower = text.to_lowercase();
        lower.contains("pts") || lower.contains("point")
    };
    system
        .cost_types
        .iter()
        .find(|c| says_points(&c.name) || says_points(&c.id))
        .or(match system.cost_types.as_slice() {
            [only] => Some(only),
            _ => None,
        })
        .map(|c| c.id.clone())
}

/// The rulesets that read army data, for the refusal of a game system none reads: those that
/// claim a game system named after their own book.
fn readable_systems() -> String {
    let names: Vec<&str> = crate::rules::all_rulesets()
        .filter(|r| r.reads_game_system(r.title()))
        .map(|r| r.title())
        .collect();
    if names.is_empty() {
        "none".into()
    } else {
        format!("{} game systems", names.join(", "))
    }
}
