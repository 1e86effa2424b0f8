//! Undo and redo across the session, deletes included.
//!
//! Each entry records a force before and after one change. Undoing a delete re-creates the
//! force under a new id, so entries refer to forces through ids that are remapped as needed.

use crate::rules::Force;
use crate::store::ForceId;

/// One undoable change to one force: `None` before means created, `None` after means deleted.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub id: ForceId,
    pub before: Option<Force>,
    pub after: Option<Force>,
    /// What the change was, for the Undo button's tooltip ("Delete Kampfgruppe").
    pub label: String,
}

/// The undo and redo stacks.
#[derive(Debug, Default)]
pub struct History {
    undo: Vec<Change>,
    redo: Vec<Change>,
}

/// How many changes are kept; older ones fall off.
const MAX_ENTRIES: usize = 500;

impl History {
    /// Records a new change; a new change clears the redo stack.
    pub fn record(&mut self, change: Change) {
        self.redo.clear();
        self.undo.push(change);
        if self.undo.len() > MAX_ENTRIES {
            self.undo.remove(0);
        }
    }

    pub fn pop_undo(&mut self) -> Option<Change> {
        self.undo.pop()
    }

    pub fn pop_redo(&mut self) -> Option<Change> {
        self.redo.pop()
    }

    pub fn push_redo(&mut self, change: Change) {
        self.redo.push(change);
    }

    /// Pushes onto the undo stack without clearing redo (used when redoing).
    pub fn push_undo(&mut self, change: Change) {
        self.undo.push(change);
    }

    pub fn undo_label(&self) -> Option<&str> {
        self.undo.last().map(|c| c.label.as_str())
    }

    pub fn redo_label(&self) -> Option<&str> {
        self.redo.last().map(|c| c.label.as_str())
    }

    /// After a force is re-created under a new id, points every entry at it.
    pub fn remap(&mut self, old: ForceId, new: ForceId) {
        for change in self.undo.iter_mut().chain(self.redo.iter_mut()) {
            if change.id == old {
                change.id = new;
            }
        }
    }
}
