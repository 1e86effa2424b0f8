//! Dice rolled at the table, typed in: one entry per pool the situation asks for, its size
//! shown ("attack — 7 d6"), faces typed quickly ("65521"). A pool that depends on earlier
//! dice (a follow-up die after a six) appears once those faces are typed; the result is the
//! mechanic's own, derived from the faces exactly as from the app's dice.

use std::collections::BTreeMap;

use crate::rules::dice::DiceError;
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
    let (pools, dice, answer) = ask_pools(texts, |dice| {
        let asked = mechanic.table_pools(inputs, dice);
        (asked.asked, asked.answer)
    });
    Prompt {
        pools,
        dice,
        answer,
    }
}

/// Asks `ask` (a mechanic's or a battle's pools for the faces given so far) pool by pool,
/// adding each pool's typed faces once it is asked for: the pools asked, the dice taken, and
/// the last answer.
pub fn ask_pools<A>(
    texts: &Typed,
    mut ask: impl FnMut(&TableDice) -> (Vec<PoolRequest>, A),
) -> (Vec<Asked>, TableDice, A) {
    let mut dice = TableDice::new();
    loop {
        let (asked, answer) = ask(&dice);
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        let pools: Vec<Asked> = asked
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
            (!text.trim().is_empty() && a.request.read(text).is_ok()).then_some((a, text))
        });
        match typed {
            // Checked just above: it is taken.
            Some((a, text)) => {
                let _ = dice.add_typed(a.request.pool, text);
            }
            None => return (pools, dice, answer),
        }
    }
}

impl TableEntry {
    /// The faces typed so far for `subject`, as the rules read them (for a roll made elsewhere
    /// with the same dice: the campaign battle's).
    pub fn dice_for(&mut self, mechanic: &Mechanic, subject: &Subject) -> TableDice {
        self.prompt(mechanic, subject).dice
    }

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

/// The narrowest a faces field gets in a narrow column: eight faces still show.
const MIN_FACES_WIDTH: f32 = 72.0;

/// The dice entry: "Resolve these dice" first (it never moves), then one field per pool;
/// Enter in the last field resolves too.
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
    let grid = faces_grid(
        ui,
        "table_dice",
        &prompt.pools,
        &mut state.table.texts,
        &mut state.table.shown,
    );
    // Enter in the last field resolves as the button does, with the faces as they are now.
    if grid.submitted && ready {
        let typed = state.table.prompt(mechanic, subject);
        if typed.answer.is_ok() && actions.is_empty() {
            actions.push(Action::Resolve(ResolveAction::RollTable {
                subject: subject.clone(),
                dice: typed.dice,
            }));
        }
    }
    match &prompt.answer {
        Ok(_) => {}
        Err(ResolveError::Dice(dice)) if still_typing(ui, dice) => {}
        Err(error) => {
            ui.colored_label(
                super::super::theme::tokens(ui).danger(),
                refusal(mechanic, error.clone()),
            );
        }
    }
    actions
}

/// Width kept for a pool's name and size ("army_morale (roll 2) — 12 d6" fits), so the
/// fields stay put when a pool with a longer name appears below (the German dice after the
/// US ones): a grid sizes its columns to their widest cell.
const POOL_LABEL_WIDTH: f32 = 210.0;

/// The same in a narrow column (the Resolve view's dice panel): a pool's name and size
/// without a repeat ("forced back — 2 d6") still fits. A fixed width, never one taken from the
/// room there is, which would widen the panel and so the room, frame after frame.
const NARROW_LABEL_WIDTH: f32 = 100.0;

/// Room wanted beside the fields for what is wrong with the faces before the wide labels are
/// used.
const ERROR_ROOM: f32 = 120.0;

/// The faces fields drawn this frame, and whether Enter was pressed in the last of them.
pub struct FacesGrid {
    /// The fields, in order.
    pub fields: Vec<egui::Response>,
    /// Enter in the last field once its pool is full: the player is done typing, as if the
    /// record button were pressed. (Enter in an earlier full field moves on to the next.)
    pub submitted: bool,
}

/// A key that reached a faces field: text (a face, a separator, a paste) or Enter.
#[derive(Debug, Clone, PartialEq)]
enum Stroke {
    Text(String),
    Enter,
}

/// The keys typed into a grid of faces fields and not yet placed, and the pool they go to.
///
/// A fast typist or a dice reader sends several keys a frame ("6543⏎652⏎" in one): a field
/// given the keyboard by the first Enter is drawn only next frame, and a pool asked for after
/// another (the German dice after the US ones) only once that one's faces are read. So the
/// grid takes every key itself, in order, and places each where it belongs: text into the pool
/// being typed, Enter onwards once that pool holds all its dice. What cannot be placed yet
/// waits for the next frame, never lands in the wrong pool and is never dropped.
#[derive(Debug, Clone, Default)]
struct Typing {
    pending: std::collections::VecDeque<Stroke>,
    /// The pool being typed, with which roll of it.
    at: Option<(&'static str, usize)>,
}

/// One row a pool the rules ask for — its name and size ("attack — 7 d6"), a field for its
/// faces, and what is wrong with them as typed — fields lined up under each other. `shown`
/// holds the rows drawn last frame: a new row widens the grid, which lays out once more.
pub fn faces_grid(
    ui: &mut egui::Ui,
    id_salt: &str,
    pools: &[Asked],
    texts: &mut Typed,
    shown: &mut usize,
) -> FacesGrid {
    let rows: Vec<&Asked> = pools.iter().filter(|a| a.request.count > 0).collect();
    if rows.len() != *shown {
        *shown = rows.len();
        ui.ctx().request_repaint();
    }
    let base = ui.make_persistent_id(("faces", id_salt));
    let field_id = |asked: &Asked| base.with((asked.request.pool, asked.occurrence));
    let submitted = place_keys(ui, base, &rows, texts, field_id);
    let room = ui.available_width();
    let label_width = if room >= POOL_LABEL_WIDTH + FACES_WIDTH + ERROR_ROOM {
        POOL_LABEL_WIDTH
    } else {
        NARROW_LABEL_WIDTH
    };
    // In a column narrower than a label and a whole field, the field takes what is left (three
    // gaps spare, so the grid never widens the column it measures), down to a few faces.
    let faces_width = (room - label_width - 3.0 * ui.spacing().item_spacing.x)
        .clamp(MIN_FACES_WIDTH, FACES_WIDTH);
    let mut fields = Vec::new();
    // No minimum beyond the widths set: the column for what is wrong stays empty until
    // something is, and takes no room from a narrow panel before that.
    egui::Grid::new(id_salt)
        .num_columns(3)
        .min_col_width(0.0)
        .show(ui, |ui| {
            for asked in &rows {
                let key = (asked.request.pool, asked.occurrence);
                let again = if asked.occurrence > 0 {
                    format!(" (roll {})", asked.occurrence + 1)
                } else {
                    String::new()
                };
                let name = format!("{}{again} — {}", asked.request.pool, asked.request.dice());
                let label = ui
                    .allocate_ui_with_layout(
                        egui::vec2(label_width, ui.spacing().interact_size.y),
                        egui::Layout::left_to_right(egui::Align::Center),
                        |ui| {
                            ui.set_min_width(label_width);
                            ui.label(name)
                        },
                    )
                    .inner;
                let text = texts.entry(key).or_default();
                let field = ui
                    .add_sized(
                        [faces_width, ui.spacing().interact_size.y],
                        egui::TextEdit::singleline(text)
                            .hint_text(hint(&asked.request))
                            .id(field_id(asked)),
                    )
                    .labelled_by(label.id)
                    .on_hover_text(
                        "The faces as rolled: 65521, or 12,3,20 for dice above 9; a die the book \
                         prints with letters as it shows them (B, KTW)",
                    );
                if field.changed() {
                    // What the faces make (the next pool, the record button, "3 of 5 faces") was
                    // worked out before this keystroke: show it again with the keystroke in.
                    ui.ctx().request_repaint();
                }
                fields.push(field);
                // Read as this pool's die shows its faces (the commander die's B, a bag's colour).
                match asked.request.read(text) {
                    Err(error) => ui.colored_label(super::super::theme::tokens(ui).danger(), error),
                    Ok(_) => ui.label(""),
                };
                ui.end_row();
            }
        });
    FacesGrid { fields, submitted }
}

/// The grey example in an empty faces field: digits, or the names the die shows.
fn hint(request: &PoolRequest) -> String {
    let names = request.faces.shown(request.sides);
    match names.as_slice() {
        [] => "65521".to_string(),
        names => names.join(" "),
    }
}

/// Takes this frame's keys for the faces field that has the keyboard and places them (see
/// [`Typing`]); returns whether Enter submitted the last pool.
fn place_keys(
    ui: &mut egui::Ui,
    base: egui::Id,
    rows: &[&Asked],
    texts: &mut Typed,
    field_id: impl Fn(&Asked) -> egui::Id,
) -> bool {
    let mut typing: Typing = ui.data(|d| d.get_temp(base)).unwrap_or_default();
    let focused = ui.memory(egui::Memory::focused);
    let has_keyboard = rows.iter().find(|a| Some(field_id(a)) == focused);
    if typing.pending.is_empty() {
        // Nothing waiting: keys go where the player put the keyboard.
        typing.at = has_keyboard.map(|a| (a.request.pool, a.occurrence));
    }
    if has_keyboard.is_some() || !typing.pending.is_empty() {
        ui.input_mut(|i| {
            i.events.retain(|event| match event {
                egui::Event::Text(text) | egui::Event::Paste(text) => {
                    typing.pending.push_back(Stroke::Text(text.clone()));
                    false
                }
                egui::Event::Key {
                    key: egui::Key::Enter,
                    pressed: true,
                    ..
                } => {
                    typing.pending.push_back(Stroke::Enter);
                    false
                }
                _ => true,
            });
        });
    }
    let mut submitted = false;
    let mut typed_now = false;
    while let Some(stroke) = typing.pending.pop_front() {
        let Some(at) = typing.at else {
            typing.pending.clear();
            break;
        };
        let Some(index) = rows
            .iter()
            .position(|a| (a.request.pool, a.occurrence) == at)
        else {
            // Its pool is not asked for yet (the faces before it are being read): next frame.
            typing.pending.push_front(stroke);
            break;
        };
        match stroke {
            Stroke::Text(text) => {
                texts.entry(at).or_default().push_str(&text);
                typed_now = true;
            }
            Stroke::Enter => {
                let asked = rows[index];
                let text = texts.get(&at).map_or("", String::as_str);
                let full = asked
                    .request
                    .read(text)
                    .is_ok_and(|faces| faces.len() == asked.request.count as usize);
                if !full {
                    // Enter before the pool is full: it stays on this pool.
                    continue;
                }
                if typed_now {
                    // The faces just placed may change the pools after this one (a die rolled
                    // after a six): move on once they are read again, next frame.
                    typing.pending.push_front(Stroke::Enter);
                    break;
                }
                match rows.get(index + 1) {
                    Some(next) => typing.at = Some((next.request.pool, next.occurrence)),
                    None => {
                        submitted = true;
                        typing.pending.clear();
                    }
                }
            }
        }
    }
    if let (Some(at), Some(_)) = (typing.at, has_keyboard) {
        // The keyboard follows the pool being typed, and the cursor the text's end.
        if let Some(asked) = rows.iter().find(|a| (a.request.pool, a.occurrence) == at) {
            let id = field_id(asked);
            let end = texts.get(&at).map_or(0, |t| t.chars().count());
            let mut state = egui::TextEdit::load_state(ui.ctx(), id).unwrap_or_default();
            state
                .cursor
                .set_char_range(Some(egui::text::CCursorRange::one(
                    egui::text::CCursor::new(end),
                )));
            state.store(ui.ctx(), id);
            ui.memory_mut(|m| m.request_focus(id));
        }
    }
    if !typing.pending.is_empty() || typed_now {
        ui.ctx().request_repaint();
    }
    ui.data_mut(|d| d.insert_temp(base, typing));
    submitted
}

/// Says how far the typing has got when `error` only means the faces are not all in yet (a
/// pool still empty, fewer faces than its dice), and returns whether it did: that is no
/// mistake to show in red.
pub fn still_typing(ui: &mut egui::Ui, error: &DiceError) -> bool {
    match error {
        DiceError::NoTableDice { .. } => {
            ui.weak("Type each pool's faces as rolled; a pool rolled after another appears once that one is in.");
            true
        }
        DiceError::WrongTableCount {
            pool,
            given,
            wanted,
            ..
        } if given < wanted => {
            ui.weak(format!("{pool}: {given} of {wanted} faces so far"));
            true
        }
        _ => false,
    }
}
