//! Card names typed on the command line: the book's cards and the data folder's custom cards.
//!
//! A name is looked up in the book and among the custom cards of the library in the data
//! folder, when there is one: nothing is created just to compute odds. A name that is both
//! a book card and a custom card is refused, naming both and how to pick each
//! ("Sherman · book", "Sherman · custom"), the way the window labels them.

use std::cell::OnceCell;
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};

use crate::rules::resolution::CardPick;
use crate::rules::{Card, RulesetId, names, ruleset};
use crate::store::{DB_FILE_NAME, Store};

/// The cards a ruleset's flags can name.
pub struct Cards {
    id: RulesetId,
    data_dir: Option<PathBuf>,
    /// Loaded on the first name looked up: odds that name no card never touch the folder.
    custom: OnceCell<Result<Vec<Card>, String>>,
}

const CUSTOM: &str = " · custom";
const BOOK: &str = " · book";

impl Cards {
    pub fn new(id: RulesetId, data_dir: Option<&Path>) -> Self {
        Cards {
            id,
            data_dir: data_dir.map(Path::to_path_buf),
            custom: OnceCell::new(),
        }
    }

    /// The custom cards of this ruleset, or why they could not be read.
    fn custom(&self) -> &Result<Vec<Card>, String> {
        self.custom.get_or_init(|| {
            let dir =
                super::super::data_dir(self.data_dir.as_deref()).map_err(|e| e.to_string())?;
            if !dir.join(DB_FILE_NAME).exists() {
                return Ok(Vec::new());
            }
            let store = Store::open_read_only(&dir).map_err(|e| e.to_string())?;
            let cards = store.custom_cards().map_err(|e| e.to_string())?;
            Ok(cards
                .into_iter()
                .map(|(_, card)| card)
                .filter(|card| card.ruleset() == self.id)
                .collect())
        })
    }

    /// The card `query` names for `flag`: a book card, or a custom card marked as one.
    pub fn pick(&self, flag: &str, query: &str) -> Result<CardPick> {
        let (name, only) = match (query.strip_suffix(CUSTOM), query.strip_suffix(BOOK)) {
            (Some(name), _) => (name, Some(true)),
            (_, Some(name)) => (name, Some(false)),
            _ => (query, None),
        };
        let library = ruleset(self.id).library();
        let book = (only != Some(true))
            .then(|| names::find(library, name))
            .flatten();
        let custom = match (only, self.custom()) {
            (Some(false), _) => None,
            (_, Ok(cards)) => names::find(cards, name),
            (Some(true), Err(e)) => bail!("{flag}: custom cards could not be read: {e}"),
            (None, Err(_)) => None,
        };
        match (book, custom) {
            (Some(book), Some(custom)) => bail!(
                "{flag}: '{name}' names both the book's {} and a custom card {}: write '{}{BOOK}' or '{}{CUSTOM}'",
                book.name(),
                custom.name(),
                book.name(),
                custom.name()
            ),
            (Some(book), None) => Ok(CardPick::book(book)),
            (None, Some(custom)) => Ok(CardPick {
                card: custom.clone(),
                custom: true,
            }),
            (None, None) => Err(self.unknown(flag, name)),
        }
    }

    /// "no <ruleset title> card named 'X' — did you mean 'A', 'B'?"
    fn unknown(&self, flag: &str, query: &str) -> anyhow::Error {
        let library = ruleset(self.id).library();
        let mut nearest = names::nearest(library, query);
        if let Ok(custom) = self.custom() {
            nearest.extend(
                names::nearest(custom, query)
                    .into_iter()
                    .map(|n| format!("{n}{CUSTOM}")),
            );
        }
        anyhow!(
            "{flag}: {}",
            unknown_name(&format!("{} card", self.id.title()), query, &nearest)
        )
    }
}

/// "no weapon named 'X' — did you mean 'A', 'B'?"
fn unknown_name(what: &str, query: &str, nearest: &[String]) -> String {
    let mut message = format!("no {what} named '{query}'");
    if !nearest.is_empty() {
        let quoted: Vec<String> = nearest.iter().map(|n| format!("'{n}'")).collect();
        message.push_str(&format!(" — did you mean {}?", quoted.join(", ")));
    }
    message
}
