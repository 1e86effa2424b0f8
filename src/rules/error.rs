//! Errors of the rules layer: bad seed data and bad force input.

use thiserror::Error;

/// Everything the rules layer can refuse. Messages name the field and the value.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum RulesError {
    /// An embedded seed file failed to parse: a build-time data bug, caught by tests.
    #[error("seed data {file}: {message}")]
    Seed { file: &'static str, message: String },
    /// A force file or inline card did not match the format; `path` is the JSON path.
    #[error("{path}: {message}")]
    Field { path: String, message: String },
    /// A ruleset id the registry does not list.
    #[error("unknown ruleset '{0}' (expected one of: {ids})", ids = super::id_list())]
    UnknownRuleset(String),
    /// A preset id that names no book battle group.
    #[error("unknown preset '{0}' (see `quartermaster force preset --list`)")]
    UnknownPreset(String),
}

impl RulesError {
    /// Shorthand for a field error at `path`.
    pub fn field(path: impl Into<String>, message: impl Into<String>) -> Self {
        RulesError::Field {
            path: path.into(),
            message: message.into(),
        }
    }
}
