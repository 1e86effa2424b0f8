//! The registry: one list, in `rules/mod.rs`, names every ruleset once, and everything that
//! must know the whole set is built from it here.
//!
//! A line of [`rulesets!`] gives a ruleset its stored id (`"bolt-action"`, never to change:
//! SQLite rows, force files and campaign files hold it), its variant, its module, the type
//! implementing [`Ruleset`] and its card type. From the list the macro makes
//! [`RulesetId`](super::RulesetId) and [`Card`](super::Card) — enums, so stored and file
//! forms are serde's derive exactly as before — with the one `match` each that dispatches to
//! the ruleset's own code: [`ruleset`](super::ruleset) for the rules, `Card::data` for the
//! card. Nothing else in the app matches on the set; it asks the ruleset ([`Ruleset`]) or the
//! card ([`CardData`](super::card::CardData)).
//!
//! The modules are declared beside the list, as any module is, not by the macro: rustfmt does
//! not look inside a macro's arguments, so the rulesets the macro declared were never
//! formatted by `cargo fmt` (nor checked by `cargo fmt --check`). A line naming a module that
//! is not declared does not compile; a module left out of the list is found on disk
//! unregistered by `tests/it/registry.rs` (it reads the folders, not the list).

use std::sync::LazyLock;

use super::card::Card;
use super::error::RulesError;
use super::ruleset::Ruleset;

/// Builds the set of rulesets from one list; see the module header. Each line reads
/// `"stored-id" => Variant: module::{RulesType, CardType},`.
macro_rules! rulesets {
    ($($(#[$doc:meta])* $id:tt => $variant:ident: $module:ident::{$rules:ident, $card:ident}),+ $(,)?) => {
        /// Which ruleset: one variant per line of the registry, in menu order. Stored and
        /// written as its id (`"armour-battles"`).
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord,
            serde::Serialize, serde::Deserialize,
        )]
        pub enum RulesetId {
            $($(#[$doc])* #[serde(rename = $id)] $variant,)+
        }

        impl RulesetId {
            /// Every ruleset, in menu order.
            pub const ALL: [RulesetId; [$($id),+].len()] = [$(RulesetId::$variant),+];

            /// The id used in files, the database and on the command line.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(RulesetId::$variant => $id,)+
                }
            }

            /// The printed card's layout, `templates/cards/<id>.json`, embedded.
            pub fn card_template(self) -> $crate::rules::registry::Embedded {
                match self {
                    $(RulesetId::$variant => $crate::rules::registry::Embedded {
                        path: concat!("templates/cards/", $id, ".json"),
                        text: include_str!(concat!(
                            env!("CARGO_MANIFEST_DIR"), "/templates/cards/", $id, ".json"
                        )),
                    },)+
                }
            }

            /// The quick reference's layout, `templates/reference/<id>.json`, embedded.
            pub fn reference_template(self) -> $crate::rules::registry::Embedded {
                match self {
                    $(RulesetId::$variant => $crate::rules::registry::Embedded {
                        path: concat!("templates/reference/", $id, ".json"),
                        text: include_str!(concat!(
                            env!("CARGO_MANIFEST_DIR"), "/templates/reference/", $id, ".json"
                        )),
                    },)+
                }
            }

            /// The path of the ruleset's seed data, `db/seed/<module>.json`.
            pub fn seed_path(self) -> &'static str {
                match self {
                    $(RulesetId::$variant => concat!("db/seed/", stringify!($module), ".json"),)+
                }
            }
        }

        /// The ruleset behind `id`.
        pub fn ruleset(id: RulesetId) -> &'static dyn Ruleset {
            match id {
                $(RulesetId::$variant => &$module::$rules,)+
            }
        }

        /// One unit profile of any ruleset. Serialised with a `ruleset` tag so stored cards
        /// say which book they follow.
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(tag = "ruleset")]
        pub enum Card {
            $(#[serde(rename = $id)] $variant($module::$card),)+
        }

        impl Card {
            /// The ruleset the card belongs to.
            pub fn ruleset(&self) -> RulesetId {
                match self {
                    $(Card::$variant(_) => RulesetId::$variant,)+
                }
            }

            /// What every ruleset's cards answer ([`card::CardData`]).
            pub fn data(&self) -> &dyn card::CardData {
                match self {
                    $(Card::$variant(c) => c,)+
                }
            }

            /// The same, to edit.
            pub fn data_mut(&mut self) -> &mut dyn card::CardData {
                match self {
                    $(Card::$variant(c) => c,)+
                }
            }

            /// The card's own fields without the ruleset tag, as written inline in a force
            /// file.
            pub fn to_inline_json(&self) -> serde_json::Value {
                let value = match self {
                    $(Card::$variant(c) => serde_json::to_value(c),)+
                };
                // Plain data structs always serialise; Null would only hide a programming
                // error.
                value.unwrap_or(serde_json::Value::Null)
            }
        }
    };
}
pub(crate) use rulesets;

/// A file embedded at build time with the path it came from, so an error can name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Embedded {
    /// Relative to the crate root (`templates/cards/bolt-action.json`).
    pub path: &'static str,
    pub text: &'static str,
}

/// Embeds the file at a path relative to the crate root, keeping the path for errors.
macro_rules! embedded {
    ($path:literal) => {
        $crate::rules::registry::Embedded {
            path: $path,
            text: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/", $path)),
        }
    };
}
pub(crate) use embedded;

pub use super::ruleset;

/// All rulesets in menu order.
pub fn all_rulesets() -> impl Iterator<Item = &'static dyn Ruleset> {
    super::RulesetId::ALL.into_iter().map(super::ruleset)
}

/// The preset force `id` (`lorraine-1-german`), from whichever ruleset offers it.
pub fn preset_force(id: &str) -> Result<super::Force, RulesError> {
    all_rulesets()
        .find_map(|r| r.preset_force(id))
        .ok_or_else(|| RulesError::UnknownPreset(id.to_string()))
}

/// Problems parsing the embedded book data; empty in a correct build (a test checks).
pub fn seed_errors() -> Vec<RulesError> {
    all_rulesets().filter_map(|r| r.seed_error()).collect()
}

/// The ids of every ruleset, for messages and help: "armour-battles, belloludi, …".
pub fn id_list() -> String {
    super::RulesetId::ALL
        .map(super::RulesetId::as_str)
        .join(", ")
}

/// A ruleset's embedded book data once parsed: its revision, its cards and the ruleset's own
/// tables `T`.
pub(crate) struct BookData<T> {
    pub revision: u32,
    pub cards: Vec<Card>,
    pub tables: T,
}

/// What every ruleset's embedded book data answers, whatever its own tables: the trait
/// object [`Ruleset::book`](super::ruleset::Ruleset::book) hands out, so the trait's default
/// methods serve the library, the revision and the load error.
pub trait BookSource: Sync {
    /// Which ruleset's book this is.
    fn id(&self) -> super::RulesetId;
    /// The book's title.
    fn title(&self) -> &'static str;
    /// One line on what the book is.
    fn summary(&self) -> &'static str;
    /// The book's cards, in book order (none when the data did not load).
    fn cards(&self) -> &[Card];
    /// Revision of the embedded book data.
    fn revision(&self) -> u32;
    /// Why the data did not load.
    fn error(&self) -> Option<RulesError>;
}

impl<T: Sync + Send> BookSource for Book<T> {
    fn id(&self) -> super::RulesetId {
        self.about.id
    }

    fn title(&self) -> &'static str {
        self.about.title
    }

    fn summary(&self) -> &'static str {
        self.about.summary
    }

    fn cards(&self) -> &[Card] {
        Book::cards(self)
    }

    fn revision(&self) -> u32 {
        Book::revision(self)
    }

    fn error(&self) -> Option<RulesError> {
        Book::error(self)
    }
}

/// A ruleset's book data, parsed on first use. A parse failure is kept, not panicked on: the
/// ruleset then shows an empty library and [`seed_errors`] names the file and the field.
pub(crate) struct Book<T: 'static> {
    about: About,
    data: LazyLock<Result<BookData<T>, RulesError>>,
}

/// What a ruleset's book is, for people: its id, title (as errors about its tables name it)
/// and a line on what it plays.
pub(crate) struct About {
    pub id: super::RulesetId,
    pub title: &'static str,
    pub summary: &'static str,
}

impl<T> Book<T> {
    pub(crate) const fn new(about: About, load: fn() -> Result<BookData<T>, RulesError>) -> Self {
        Book {
            about,
            data: LazyLock::new(load),
        }
    }

    pub(crate) fn error(&self) -> Option<RulesError> {
        self.data.as_ref().err().cloned()
    }

    pub(crate) fn cards(&self) -> &[Card] {
        self.data.as_ref().map_or(&[], |d| d.cards.as_slice())
    }

    pub(crate) fn revision(&self) -> u32 {
        self.data.as_ref().map_or(0, |d| d.revision)
    }

    /// The ruleset's tables, or the parse error.
    pub(crate) fn loaded(&self) -> Result<&T, RulesError> {
        self.data.as_ref().map(|d| &d.tables).map_err(Clone::clone)
    }

    pub(crate) fn tables(&self) -> Option<&T> {
        self.data.as_ref().ok().map(|d| &d.tables)
    }

    /// The part of the tables a resolution reads, or the refusal saying they did not load.
    pub(crate) fn for_resolution<U>(
        &self,
        part: impl FnOnce(&T) -> &U,
    ) -> Result<&U, super::resolution::ResolveError> {
        self.tables()
            .map(part)
            .ok_or(super::resolution::ResolveError::NoData {
                ruleset: self.about.title,
            })
    }

    /// The refusal for tables that do not fit together (a data bug the tests catch).
    pub(crate) fn bad_data(&self, message: String) -> super::resolution::ResolveError {
        super::resolution::ResolveError::BadData {
            ruleset: self.about.title,
            message,
        }
    }
}

/// A ruleset's seed file as read: the header, the cards (the ruleset's profiles `P`) and the
/// ruleset's own tables `T`, which are every other key. A key that neither the header nor `T`
/// reads lands in `unread` and is refused: serde cannot deny unknown fields beside `flatten`.
#[derive(serde::Deserialize)]
struct Seed<T, P> {
    data_revision: u32,
    // Read only so that they are not taken for unread keys; `check_seed_header` checks them.
    #[allow(dead_code)]
    ruleset: String,
    #[allow(dead_code)]
    source: String,
    cards: Vec<P>,
    #[serde(flatten)]
    tables: T,
    #[serde(flatten)]
    unread: std::collections::BTreeMap<String, serde::de::IgnoredAny>,
}

/// Reads a ruleset's seed file into its book data: its cards, each wrapped by `card`, and its
/// tables.
///
/// # Errors
/// [`RulesError::Seed`] naming the file and the field that does not fit, or a key no table of
/// the ruleset reads.
pub(crate) fn load_seed<T, P>(
    file: Embedded,
    card: fn(P) -> Card,
) -> Result<BookData<T>, RulesError>
where
    T: serde::de::DeserializeOwned,
    P: serde::de::DeserializeOwned,
{
    let seed: Seed<T, P> = parse_seed(file)?;
    if let Some(key) = seed.unread.keys().next() {
        return Err(RulesError::Seed {
            file: file.path,
            message: format!("{key}: no table of this ruleset reads it"),
        });
    }
    Ok(BookData {
        revision: seed.data_revision,
        cards: seed.cards.into_iter().map(card).collect(),
        tables: seed.tables,
    })
}

/// Parses an embedded seed file, naming it in the error. Its header is checked first: the
/// `ruleset` it names must be the ruleset whose seed the file is (`db/seed/<module>.json`),
/// so a file copied from another ruleset is refused, not half-read.
pub(crate) fn parse_seed<T: serde::de::DeserializeOwned>(file: Embedded) -> Result<T, RulesError> {
    check_seed_header(file)?;
    parse_embedded(file)
}

/// An embedded data file that is not a ruleset's seed (a scripted campaign has its own format
/// line, not a seed header), read with the path of any error inside it.
///
/// # Errors
/// [`RulesError::Seed`] naming the file and where in it the text does not fit.
pub(crate) fn parse_embedded<T: serde::de::DeserializeOwned>(
    file: Embedded,
) -> Result<T, RulesError> {
    let de = &mut serde_json::Deserializer::from_str(file.text);
    serde_path_to_error::deserialize(de).map_err(|e| RulesError::Seed {
        file: file.path,
        message: e.to_string(),
    })
}

/// The seed header every ruleset's data file starts with.
#[derive(serde::Deserialize)]
struct SeedHeader {
    ruleset: String,
    data_revision: u32,
}

/// Refuses a seed file whose header names another ruleset than the one it belongs to, or has
/// no revision.
fn check_seed_header(file: Embedded) -> Result<(), RulesError> {
    let refuse = |message: String| RulesError::Seed {
        file: file.path,
        message,
    };
    let header: SeedHeader =
        serde_json::from_str(file.text).map_err(|e| refuse(format!("header: {e}")))?;
    let owner = super::RulesetId::ALL
        .into_iter()
        .find(|id| id.seed_path() == file.path);
    if let Some(owner) = owner
        && header.ruleset != owner.as_str()
    {
        return Err(refuse(format!(
            "ruleset: '{}', but this is the {} seed (\"ruleset\": \"{}\")",
            header.ruleset,
            owner.title(),
            owner.as_str()
        )));
    }
    if header.data_revision == 0 {
        return Err(refuse(
            "data_revision: 0: revisions count from 1".to_string(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{RulesetId, ruleset};

    #[test]
    fn every_seed_file_parses() {
        assert_eq!(seed_errors(), Vec::<RulesError>::new());
    }

    /// A seed file with another ruleset's id in its header is refused, naming the file and
    /// both ids; one whose header fits reads on.
    #[test]
    fn a_seed_with_the_wrong_ruleset_id_is_refused() {
        for id in RulesetId::ALL {
            let path = id.seed_path();
            let text = format!(
                r#"{{"ruleset": "not-{}", "data_revision": 1}}"#,
                id.as_str()
            );
            let file = Embedded {
                path,
                text: Box::leak(text.into_boxed_str()),
            };
            let refusal = check_seed_header(file).unwrap_err().to_string();
            assert!(refusal.contains(path), "{refusal}");
            assert!(
                refusal.contains(&format!("'not-{}'", id.as_str())),
                "{refusal}"
            );
            assert!(
                refusal.contains(&format!("\"{}\"", id.as_str())),
                "{refusal}"
            );
            let fits = format!(r#"{{"ruleset": "{}", "data_revision": 1}}"#, id.as_str());
            let file = Embedded {
                path,
                text: Box::leak(fits.into_boxed_str()),
            };
            assert_eq!(check_seed_header(file), Ok(()));
        }
    }

    /// A key beside the header, the cards and the tables is refused by name, not skipped:
    /// a misspelt table would otherwise leave its ruleset on defaults without a word.
    #[test]
    fn a_seed_key_no_table_reads_is_refused() {
        #[derive(serde::Deserialize)]
        struct Tables {
            #[allow(dead_code)]
            fire: u32,
        }
        let load = |text: &'static str| {
            load_seed::<Tables, serde_json::Value>(
                Embedded {
                    path: "db/seed/test.json",
                    text,
                },
                |_| ruleset(RulesetId::BoltAction).new_card(),
            )
        };
        let header = r#""ruleset": "x", "data_revision": 1, "source": "s", "cards": [{}]"#;
        let fits = load(Box::leak(
            format!("{{{header}, \"fire\": 3}}").into_boxed_str(),
        ));
        assert_eq!(fits.map(|b| b.cards.len()).ok(), Some(1));
        let refused = load(Box::leak(
            format!("{{{header}, \"fire\": 3, \"fier\": 4}}").into_boxed_str(),
        ));
        let message = refused.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            message.contains("fier: no table of this ruleset reads it"),
            "{message}"
        );
        assert!(message.contains("db/seed/test.json"), "{message}");
    }

    #[test]
    fn every_ruleset_names_its_seed_and_templates_by_its_id() {
        for id in RulesetId::ALL {
            assert!(id.card_template().path.contains(id.as_str()));
            assert!(!id.card_template().text.is_empty());
            assert!(!id.reference_template().text.is_empty());
            assert_eq!(ruleset(id).card_template(), id.card_template());
            let seed = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(id.seed_path());
            assert!(seed.exists(), "{}", seed.display());
        }
    }

    #[test]
    fn every_ruleset_has_cards_and_is_registered_under_its_id() {
        for id in RulesetId::ALL {
            assert_eq!(ruleset(id).id(), id);
            assert!(!ruleset(id).library().is_empty(), "{id}");
            assert_eq!(id.as_str().parse::<RulesetId>(), Ok(id));
            assert!(ruleset(id).library().iter().all(|c| c.ruleset() == id));
            assert_eq!(ruleset(id).new_card().ruleset(), id);
        }
    }

    /// Stored rows and files hold the id as serde writes it: the registry's id, unchanged.
    #[test]
    fn ids_serialise_as_the_registry_writes_them() {
        for id in RulesetId::ALL {
            let json = serde_json::to_string(&id).unwrap();
            assert_eq!(json, format!("\"{}\"", id.as_str()));
            let card = serde_json::to_value(&ruleset(id).library()[0]).unwrap();
            assert_eq!(card["ruleset"], id.as_str());
        }
    }
}
