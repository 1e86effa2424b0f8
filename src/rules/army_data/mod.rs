//! Army lists from the player's own BattleScribe data: the ruleset-free half.
//!
//! [`read_import`] takes the files of one import, reads them ([`crate::rules::battlescribe`])
//! and hands each catalogue's units to the ruleset that claims the game system
//! ([`Ruleset::army_cards`](crate::rules::Ruleset::army_cards)), which maps them onto its own
//! card fields. Each card then carries an [`ArmyEntry`]: what it costs by the data, its
//! variants (quality), options and limits, and which catalogue revision priced it, so a force
//! keeps the prices it was built with until its player re-prices it ([`ArmyEntry::repriced`],
//! [`ArmyEntry::changes`]). A game system's force organisations ([`ForceOrg`]) become a budget
//! kind checked like the others.
//!
//! The helpers below read a resolved entry's costs and limits the same way for every reader.

mod entry;
mod force_org;
mod import;
mod reprice;

pub use entry::{ArmyEntry, ArmyOption, CategoryRef, Chosen, DataRef, Variant};
pub use force_org::{ForceOrg, Slot, force_orgs};
pub use import::{ArmyContext, DEFAULT_POINTS, Import, ImportFile, ImportedFile, read_import};
pub use reprice::{LineChange, line_changes, reprice, revisions_of};

use crate::rules::battlescribe::{Bound, Note, Resolved, ResolvedGroup};

/// An entry's points by the data, rounded to whole points (never below 0).
pub fn points_of(entry: &Resolved, points_type: Option<&str>) -> u32 {
    points_type
        .and_then(|id| entry.costs.iter().find(|c| c.type_id == id))
        .map_or(0, |c| c.value.round().max(0.0) as u32)
}

/// The limit on how many of an entry are selected within its parent (`Bound::Max` or
/// `Bound::Min`).
pub fn limit_in_parent(
    constraints: &[crate::rules::battlescribe::Constraint],
    bound: Bound,
) -> Option<u32> {
    constraints
        .iter()
        .filter(|c| c.bound == bound && c.scope == "parent")
        .find_map(|c| c.selections())
}

/// The most of a unit a force (or roster) may hold, where the data limits it.
pub fn limit_in_force(entry: &Resolved) -> Option<u32> {
    entry
        .constraints
        .iter()
        .filter(|c| c.bound == Bound::Max && matches!(c.scope.as_str(), "force" | "roster"))
        .find_map(|c| c.selections())
}

/// The category a unit fills in a force organisation: its primary category, else its only
/// one.
pub fn category_of(entry: &Resolved, context: &ArmyContext<'_>) -> Option<CategoryRef> {
    let only = match entry.categories.as_slice() {
        [only] => Some(only),
        _ => None,
    };
    let link = entry.categories.iter().find(|c| c.primary).or(only)?;
    let name = context
        .categories
        .iter()
        .find(|c| c.id == link.target_id)
        .map_or(link.name.clone(), |c| c.name.clone());
    Some(CategoryRef {
        id: link.target_id.clone(),
        name,
    })
}

/// A group's limit on how many of its entries are taken together.
pub fn group_max(group: &ResolvedGroup) -> Option<u32> {
    limit_in_parent(&group.constraints, Bound::Max)
}

/// A note about an entry, for a reader.
pub fn note(entry: &Resolved, path: &str, message: String) -> Note {
    Note {
        file: entry.file.clone(),
        line: entry.line,
        entry: path.to_string(),
        message,
    }
}

#[cfg(test)]
mod tests;
