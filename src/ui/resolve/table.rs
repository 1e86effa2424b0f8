//! Dice rolled at the table, typed in: one entry per pool the situation asks for, its size
//! shown ("attack — 7 d6"), faces typed quickly ("65521"). A pool that depends on earlier
//! dice (a follow-up die after a six) appears once those faces are typed; the result is the
//! mechanic's own, derived from the faces exactly as from the app's dice.

use std::collections::BTreeMap;

use crate::rules::dice::{DiceError, check_typed};
use crate::rules::resolution::{
    DiceSource, Inputs, Mechanic, PoolRequest, Report, ResolveError, TableDice,
};
use crate::ui::action::Action;

use super::{ResolveAction, ResolveState, Subject, refusal};

/// Faces as typed, by (pool, which roll of that pool).
pub type Typed = BTreeMap<(&'static str, usize), String>;

/// The faces typed for each pool, and what they made of the situation last time.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TableEntry {
    pub texts: Typed,
    cache: Option<(Subject, Typed, Prompt)>,
    /// The pools shown last frame: a new row widens the grid, which lays out again.
    shown: usize,
}

/// One pool the situation asks for and which roll of that pool it is (0 for the first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asked {
    pub request: PoolRequest,
    pub occurrence: usize,
}

/// What the faces typed so far make of the situation.
#[derive(Debug, Clone, PartialEq)]
pub struct Prompt {
    /// Every pool asked for so far, in order; the last may still want its faces.
    pub pools: Vec<Asked>,
    /// The dice typed for those pools.
    pub dice: TableDice,
    /// The roll's report once every pool is typed, else why not.
    pub answer: Result<Report, ResolveError>,
}

/// Asks `mechanic` pool by pool: each pool's typed faces are added once it is asked for, so a
/// pool that depends on earlier faces is asked for only when they are known.
pub fn prompt(mechanic: &Mechanic, inputs: &Inputs, texts: &Typed) -> Prompt {
    let mut dice = TableDice::new();
    loop {
        let asked = mechanic.table_pools(inputs, &dice);
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        let pools: Vec<Asked> = asked
            .asked
            .iter()
            .map(|&request| {
                let occurrence = seen.entry(request.pool).or_default();
                *occurrence += 1;
                Asked {
                    request,
                    occurrence: *occurrence - 1,
                }
            })
            .collect();
        let next = pools
            .iter()
            .find(|a| a.request.count > 0 && !dice.has(a.request.pool, a.occurrence));
        let typed = next.and_then(|a| {
            let text = texts.get(&(a.request.pool, a.occurrence))?;
            (!text.trim().is_empty() && check_typed(text).is_ok()).then_some((a, text))
        });
        match typed {
            // Checked just above: it is taken.
            Some((a, text)) => {
                let _ = dice.add_typed(a.request.pool, text);
            }
            None => {
                return Prompt {
                    pools,
                    dice,
                    answer: asked.answer,
                };
            }
        }
    }
}

impl TableEntry {
    /// The prompt for `subject` with the faces typed now, worked out once per change.
    fn prompt(&mut self, mechanic: &Mechanic, subject: &Subject) -> Prompt {
        let fresh = self
            .cache
            .as_ref()
            .is_some_and(|(s, t, _)| s == subject && *t == self.texts);
        if !fresh {
            let p = prompt(mechanic, &subject.inputs, &self.texts);
            self.cache = Some((subject.clone(), self.texts.clone(), p));
        }
        match &self.cache {
            Some((_, _, p)) => p.clone(),
            None => prompt(mechanic, &subject.inputs, &self.texts),
        }
    }
}

/// Width of a faces field: a dozen faces show whole.
const FACES_WIDTH: f32 = 140.0;

/// The dice entry: "Resolve these dice" first (it never moves), then one field per pool.
pub fn entry(state: &mut ResolveState, subject: &Subject, ui: &mut egui::Ui) -> Vec<Action> {
    let mut actions = Vec::new();
    let mechanic = state.current();
    let prompt = state.table.prompt(mechanic, subject);
    // Resolved already: the same faces again would only log the same roll twice.
    let done = state.last.as_ref().is_some_and(|e| {
        e.subject == *subject && e.source == DiceSource::Table(prompt.dice.clone())
    });
    let ready = prompt.answer.is_ok() && !done;
    let text = if done {
        "Resolved"
    } else {
        "Resolve these dice"
    };
    if ui
        .add_enabled(ready, egui::Button::new(text))
        .on_hover_text("Work the result out from the faces typed below")
        .clicked()
    {
        actions.push(Action::Resolve(ResolveAction::RollTable {
            subject: subject.clone(),
            dice: prompt.dice.clone(),
        }));
    }
    let rows = prompt.pools.iter().filter(|a| a.request.count > 0).count();
    if rows != state.table.shown {
        // The grid sizes its columns from the frame before: draw once more with the new row.
        state.table.shown = rows;
        ui.ctx().request_repaint();
    }
    // One row a pool, fields lined up under each other.
    egui::Grid::new("table_dice").num_columns(3).show(ui, |ui| {
        for asked in prompt.pools.iter().filter(|a| a.request.count > 0) {
            let key = (asked.request.pool, asked.occurrence);
            let again = if asked.occurrence > 0 {
                format!(" (roll {})", asked.occurrence + 1)
            } else {
                String::new()
            };
            let label = ui.label(format!(
                "{}{again} — {}",
                asked.request.pool,
                asked.request.dice()
            ));
            let text = state.table.texts.entry(key).or_default();
            ui.add_sized(
                [FACES_WIDTH, ui.spacing().interact_size.y],
                egui::TextEdit::singleline(text).hint_text("65521"),
            )
            .labelled_by(label.id)
            .on_hover_text("The faces as rolled: 65521, or 12,3,20 for dice above 9");
            match check_typed(text) {
                Err(error) => ui.colored_label(ui.visuals().error_fg_color, error),
                Ok(()) => ui.label(""),
            };
            ui.end_row();
        }
    });
    match &prompt.answer {
        Ok(_) => {}
        // The next pool's field is shown: nothing is wrong yet.
        Err(ResolveError::Dice(DiceError::NoTableDice { .. })) => {
            ui.weak("Type each pool's faces as rolled; a pool rolled after another appears once that one is in.");
        }
        // Still typing: not a mistake yet.
        Err(ResolveError::Dice(DiceError::WrongTableCount {
            pool,
            given,
            wanted,
            ..
        })) if given < wanted => {
            ui.weak(format!("{pool}: {given} of {wanted} faces so far"));
        }
        Err(error) => {
            ui.colored_label(
                ui.visuals().error_fg_color,
                refusal(mechanic, error.clone()),
            );
        }
    }
    actions
}
