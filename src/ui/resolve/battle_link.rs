//! A mechanic's form tied to the open campaign battle: when the battle offers an action that
//! resolves with the mechanic on screen and is aimed at a unit (a fire, a shot), the acting
//! unit and its target are picked among the battle's units (named as the table names them),
//! and the form then holds the battle's own situation for them — the cards, and every input the
//! battle fixes (the target's Disruption, ambush for a hidden firer) — re-read from the board
//! every frame, so a shot recorded elsewhere never leaves it stale.
//!
//! It is the battle's action, not a second path: the odds shown are the mechanic's for the
//! battle's situation, and "Roll in Battle N" is the battle's decision
//! ([`CampaignRecord::decide`]: its rules, the seed its history gives) with the mechanic's
//! report of the dice it records. The view's own Roll stays a what-if with a seed of the
//! player's; its dice are never recorded in a battle.

use crate::campaign::{CampaignError, CampaignRecord, Event};
use crate::rules::battle::board::{Board, TablePlan};
use crate::rules::battle::table::{AnyTable, engine};
use crate::rules::battle::{self as seam, BattleRules, Decided, Request};
use crate::rules::dice::TableDice;
use crate::rules::resolution::{InputValue, Inputs, MechanicId, Report};
use crate::ui::action::Action;
use crate::ui::model::{CampaignCommand, CardKey, Command, Model};

use super::Form;

/// The battle's units picked in the form, by unit id ("us-3").
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BattlePick {
    pub attacker: Option<String>,
    pub target: Option<String>,
    /// The last roll made in the battle from here, with the log length after its event.
    pub rolled: Option<(Report, usize)>,
    /// Why the last roll in the battle was refused, with the log length it was said at.
    pub error: Option<(String, usize)>,
}

/// The open campaign battle, when it offers actions aimed at a unit that resolve with the
/// mechanic on screen.
pub struct OpenBattle<'a> {
    /// "Battle 1: Meeting Engagement".
    pub name: String,
    pub record: &'a CampaignRecord,
    pub index: usize,
    pub plan: TablePlan,
    pub board: &'a Board,
    /// Its actions that resolve with the mechanic and take a target, one per acting unit.
    pub aimed: Vec<seam::Action>,
    /// Events in its log now.
    pub log_len: usize,
}

/// The open battle linked to `mechanic`, if it offers any action resolving with it.
pub fn open_battle(model: &Model, mechanic: MechanicId) -> Option<OpenBattle<'_>> {
    let open = model.campaign.as_ref()?;
    let battle = open.battle()?;
    let plan = battle.plan.board_setup()?.plan.into_owned();
    let board = open.board()?;
    let aimed: Vec<seam::Action> = AnyTable::actions(&plan, board)
        .into_iter()
        .filter(|a| a.mechanic == Some(mechanic) && a.unit.is_some() && !a.targets.is_empty())
        .collect();
    if aimed.is_empty() {
        return None;
    }
    Some(OpenBattle {
        name: battle.plan.title(),
        record: open.record(),
        index: open.battle,
        plan,
        board,
        aimed,
        log_len: battle.events.len(),
    })
}

impl OpenBattle<'_> {
    fn unit_text(&self, id: &str) -> String {
        let Some(unit) = self.board.unit(id) else {
            return id.to_string();
        };
        let standing = crate::rules::battle::table::unit_standing(&self.plan, unit);
        let marks: Vec<String> = standing
            .tallies
            .iter()
            .map(|t| match t.of {
                Some(of) => format!("{} {}/{of}", t.label, t.now),
                None => format!("{} {}", t.label, t.now),
            })
            .chain(standing.badges.iter().map(|b| b.label.to_lowercase()))
            .collect();
        let side = self.plan.forces.get(unit.side);
        if marks.is_empty() {
            format!("{}, {side}", unit.label)
        } else {
            format!("{}, {side} [{}]", unit.label, marks.join(", "))
        }
    }

    /// The action the picked unit would take.
    fn action_of(&self, unit: Option<&str>) -> Option<&seam::Action> {
        let unit = unit?;
        self.aimed.iter().find(|a| a.unit.as_deref() == Some(unit))
    }
}

fn unit_combo(
    ui: &mut egui::Ui,
    label: &str,
    value: &mut Option<String>,
    battle: &OpenBattle<'_>,
    units: &[String],
) -> bool {
    let before = value.clone();
    ui.horizontal(|ui| {
        let label = ui.label(label);
        egui::ComboBox::from_id_salt(label.id)
            .selected_text(
                value
                    .as_deref()
                    .map_or("(choose)".to_string(), |id| battle.unit_text(id)),
            )
            .width(260.0)
            .show_ui(ui, |ui| {
                ui.selectable_value(value, None, "(none)");
                for id in units {
                    ui.selectable_value(value, Some(id.clone()), battle.unit_text(id));
                }
            })
            .response
            .labelled_by(label.id);
    });
    *value != before
}

/// The battle's request for the picked units with the form's situation: only what the player
/// gives (the action's own parameters); the battle fills in the rest.
fn request(battle: &OpenBattle<'_>, pick: &BattlePick, inputs: &Inputs) -> Option<Request> {
    let action = battle.action_of(pick.attacker.as_deref())?;
    let mut request = action.request();
    request.target = pick.target.clone();
    let params = engine(battle.plan.ruleset).map(|e| (e.params)(action.key));
    for spec in params.iter().flatten() {
        if let Some(value) = inputs.get(spec.key) {
            request.inputs.set(spec.key, value.clone());
        }
    }
    Some(request)
}

/// The form's "From the campaign battle" section. Picking units sets the cards in the form;
/// the battle's situation for them is written into the form every frame.
pub fn form(pick: &mut BattlePick, form: &mut Form, battle: &OpenBattle<'_>, ui: &mut egui::Ui) {
    ui.strong(format!("From the campaign battle: {}", battle.name));
    if battle.board.outcome.is_some() {
        ui.label("This battle is over: its log takes no more rolls.");
        return;
    }
    let shooters: Vec<String> = battle.aimed.iter().filter_map(|a| a.unit.clone()).collect();
    let action = battle.action_of(pick.attacker.as_deref());
    if pick.attacker.is_some() && action.is_none() {
        pick.attacker = None;
    }
    let targets: Vec<String> = action.map(|a| a.targets.clone()).unwrap_or_default();
    // A target gone since it was picked is no longer one.
    if pick.target.as_ref().is_some_and(|id| !targets.contains(id)) {
        pick.target = None;
    }
    unit_combo(ui, "Acting unit", &mut pick.attacker, battle, &shooters);
    unit_combo(ui, "Target unit", &mut pick.target, battle, &targets);
    if let Some(why) = action.and_then(|a| a.refused.as_deref()) {
        ui.colored_label(super::super::theme::tokens(ui).danger(), why);
    }
    let Some(inputs) = situation(pick, form, battle) else {
        return;
    };
    // The cards and what the battle decides are the battle's: written into the form, and
    // said once in words.
    let own = action
        .and_then(|a| engine(battle.plan.ruleset).ok().map(|e| (e.params)(a.key)))
        .unwrap_or_default();
    let mut fixed = Vec::new();
    for (key, value) in inputs.iter() {
        if own.iter().any(|s| s.key == key) {
            continue;
        }
        match value {
            InputValue::Card(Some(card)) => {
                let book = CardKey::Book(battle.plan.ruleset, card.card.name().to_string());
                form.cards.insert((key, 0), book);
            }
            InputValue::Card(None) | InputValue::CardList(_) => {}
            other => {
                form.inputs.set(key, other.clone());
                fixed.push(format!("{} {}", key.replace('_', " "), shown(other)));
            }
        }
    }
    if !fixed.is_empty() {
        ui.label(format!("From the battle: {}.", fixed.join(", ")));
    }
}

fn shown(value: &InputValue) -> String {
    match value {
        InputValue::Flag(on) => if *on { "yes" } else { "no" }.to_string(),
        InputValue::Count(n) => n.to_string(),
        InputValue::Number(x) => x.to_string(),
        InputValue::Choice(c) => c.replace('_', " "),
        InputValue::Card(_) | InputValue::CardList(_) => String::new(),
    }
}

/// The battle's inputs for the picked units and the form's situation, when both are picked
/// and the battle allows the action.
pub fn situation(pick: &BattlePick, form: &Form, battle: &OpenBattle<'_>) -> Option<Inputs> {
    pick.target.as_ref()?;
    let request = request(battle, pick, &form.inputs)?;
    AnyTable::situation(&battle.plan, battle.board, &request)
        .ok()
        .map(|(_, inputs)| inputs)
}

/// What the battle records for a roll from here: its rules' decision for the picked units and
/// the form's `inputs`, with the seed its history gives or with the faces typed at the table.
pub(in crate::ui) fn decide(
    pick: &BattlePick,
    inputs: &Inputs,
    battle: &OpenBattle<'_>,
    table: Option<&TableDice>,
    player: &crate::campaign::Recorder,
) -> Result<Decided<Event>, CampaignError> {
    let request = request(battle, pick, inputs)
        .ok_or_else(|| CampaignError::NotAllowed("pick the acting unit".into()))?;
    match table {
        Some(dice) => battle
            .record
            .decide_table(battle.index, &request, player, dice),
        None => battle.record.decide(battle.index, &request, player),
    }
}

/// "Roll in Battle N" under the Resolve view's own roll, and what it rolled: the battle's
/// decision for the picked units, recorded at once. Drawn before any result text, so it stays
/// under the pointer.
pub fn roll_button(
    pick: &mut BattlePick,
    battle: &OpenBattle<'_>,
    inputs: &Inputs,
    table: Option<TableDice>,
    player: &crate::campaign::Recorder,
    ui: &mut egui::Ui,
) -> Option<Action> {
    if pick.attacker.is_none() || pick.target.is_none() {
        return None;
    }
    let rolled_now = pick
        .rolled
        .as_ref()
        .is_some_and(|(_, at)| *at == battle.log_len);
    let (text, hover) = match table {
        Some(_) => (
            format!("Record these dice in {}", battle.name),
            "Record this roll in the campaign battle with the faces typed above: its rules, its log, the dice rolled at the table",
        ),
        None => (
            format!("Roll in {}", battle.name),
            "Roll this in the campaign battle and record it: the battle's dice (the seed its history gives), its rules, its log",
        ),
    };
    let clicked = ui
        .add_enabled(!rolled_now, egui::Button::new(text))
        .on_hover_text(hover)
        .on_disabled_hover_text(
            "Recorded: the battle moves on before it takes another roll from here",
        )
        .clicked();
    let mut action = None;
    if clicked {
        match decide(pick, inputs, battle, table.as_ref(), player) {
            Ok(decided) => {
                pick.error = None;
                pick.rolled = decided.report.map(|report| (report, battle.log_len + 1));
                action = Some(Action::Model(Command::Campaign(CampaignCommand::Record(
                    Box::new(decided.event),
                ))));
            }
            Err(error) => pick.error = Some((error.to_string(), battle.log_len)),
        }
    }
    if let Some((error, at)) = &pick.error
        && *at == battle.log_len
    {
        ui.colored_label(super::super::theme::tokens(ui).danger(), error);
    }
    if let Some((report, at)) = &pick.rolled
        && *at == battle.log_len
    {
        egui::Frame::group(ui.style()).show(ui, |ui| super::report::roll(ui, report));
    }
    action
}
