//! The Campaign view: the campaign list, one campaign's battles and results, the score chart
//! (Army Morale turn by turn) and the event log. The table of a battle fought on a board is
//! [`super::board_tracker`], the same for every ruleset.

use egui_plot::{Legend, Line, Plot, PlotPoints};

use super::action::Action;
use super::drafts::{BattleKey, Drafts, ResultDraft};
use super::event_log;
use super::model::{CampaignCommand, Command, Model, OpenCampaign};
use super::theme::{self, Player, icons};
use super::widgets::{self, Answer};
use crate::campaign::definition::SIDES;
use crate::campaign::result::Standing;
use crate::campaign::{self, BattlePlan, Campaign, CampaignKind, EventUid, Sides, describe};
use crate::rules::RulesetId;
use crate::rules::battle::Side;
use crate::store::CampaignId;

/// A new campaign being filled in.
#[derive(Debug, Clone, PartialEq)]
pub struct NewCampaignDraft {
    pub ruleset: RulesetId,
    /// The scripted campaign its battles come from (`None`: battles between saved forces).
    pub scenario: Option<String>,
    pub name: String,
    pub first: String,
    pub second: String,
    pub carry_losses: bool,
    /// A campaign between two forces: the saved forces its first battle sets against each
    /// other (first player's first), so it starts ready to play.
    pub forces: Sides<String>,
}

impl Default for NewCampaignDraft {
    fn default() -> Self {
        // The first scripted campaign (Lorraine 1944) is offered first, as it always was.
        let script = campaign::scripted::all().next();
        Self {
            ruleset: script.map_or(RulesetId::ALL[0], |s| s.ruleset),
            scenario: script.map(|s| s.id.clone()),
            name: script.map_or_else(String::new, |s| s.title.clone()),
            first: String::new(),
            second: String::new(),
            carry_losses: false,
            forces: Sides::default(),
        }
    }
}

/// A destructive action the Campaign view asks about before doing it.
#[derive(Debug, Clone, PartialEq)]
pub enum Confirm {
    Delete(CampaignId, String),
    /// Restore the set-aside branch starting with this event (described).
    Restore(EventUid, String),
}

/// View state that is not data: drafts, filters, the tracker's pickers.
#[derive(Debug, Clone, Default)]
pub struct CampaignViewState {
    pub draft: NewCampaignDraft,
    /// The event log's filters and the rows they let through.
    pub log: event_log::LogView,
    /// The table of a battle fought on a board.
    pub board: super::board_tracker::BoardTrackerState,
    /// This frame the board's action panel is beside it (a wide window), not under its units.
    pub panel_beside: bool,
    /// The way to play a scripted campaign's battle after its last ("extra_artillery").
    pub follow_up_variant: Option<String>,
    /// The "Add battle" form of each campaign: its name and the two forces picked.
    pub simple_battle: Drafts<crate::store::CampaignId, (String, String, String)>,
    /// The result typed for each battle of a simple campaign.
    pub simple_result: Drafts<BattleKey, ResultDraft>,
    /// A destructive action waiting for its yes, asked in a window of its own.
    pub confirm: Option<Confirm>,
    pub path: String,
    /// The player name being typed in the one-time prompt.
    pub player_draft: String,
    /// The "Share this campaign to a folder…" panel is open.
    pub sharing: bool,
    /// The folder being typed or picked for sharing.
    pub share_path: String,
    /// "Remove … marked redundant…" was clicked: the removal waits for a second click below.
    pub confirm_tidy: bool,
    /// The folder field has been given the keyboard since the panel opened.
    pub share_focused: bool,
    /// When a battle was last added (egui's time): the Add button rests a moment, so a
    /// double click adds one battle.
    pub battle_added_at: Option<f64>,
}

pub fn ui(state: &mut CampaignViewState, model: &Model, ui: &mut egui::Ui) -> Vec<Action> {
    let mut actions = Vec::new();
    egui::Panel::left("campaign_list")
        .default_size(240.0)
        .show(ui, |ui| actions.extend(list(state, model, ui)));
    // The action panel beside a board battle, there whether or not a form is open, so opening
    // one moves nothing on the board; a narrow window keeps the form under the units.
    state.panel_beside = false;
    let shown = shown_board(model);
    if let Some((open, plan)) = &shown
        && ui.available_width() >= PANEL_FROM_WIDTH
    {
        state.panel_beside = true;
        let width = (ui.available_width() * 0.28).clamp(320.0, 440.0);
        egui::Panel::right("action_panel")
            .exact_size(width)
            .resizable(false)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("action_panel_scroll")
                    .show(ui, |ui| {
                        actions.extend(super::board_tracker::panel(
                            &mut state.board,
                            model,
                            open,
                            plan,
                            ui,
                        ));
                    });
            });
    }
    // The turn strip above the page, pinned: the steps, Undo and whose go it is stay in view
    // while the units below are scrolled to.
    if let Some((open, plan)) = &shown {
        egui::Panel::top("turn_strip").show(ui, |ui| {
            actions.extend(super::board_tracker::strip(
                &mut state.board,
                model,
                open,
                plan,
                ui,
            ));
        });
    }
    egui::CentralPanel::default().show(ui, |ui| {
        // Both ways: in a small window every control of the tracker can still be scrolled to.
        // The bars always shown: a bar appearing when the page grows past the window's foot
        // narrows the page, rewraps it and moves the buttons for several frames after a click.
        egui::ScrollArea::both()
            .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
            // The whole panel, so the bar stays at its edge rather than against the page.
            .auto_shrink(false)
            .show(ui, |ui| {
                // The page stops short of the bar that floats over its right edge, so no
                // card's border lies under it.
                let bar = ui.spacing().scroll.bar_width + ui.spacing().scroll.bar_inner_margin;
                ui.set_max_width(ui.available_width() - bar);
                actions.extend(page_or_opening(state, model, ui));
            });
    });
    actions
}

/// The open campaign's page, or what stands in for it while it opens or when none is open.
fn page_or_opening(state: &mut CampaignViewState, model: &Model, ui: &mut egui::Ui) -> Vec<Action> {
    match (&model.campaign, model.campaign_opening()) {
        (Some(open), _) => return campaign_page(state, model, open, ui),
        (None, Some((id, events))) => {
            let name = model
                .campaigns()
                .iter()
                .find(|c| c.id == id)
                .map_or("the campaign", |c| c.name.as_str());
            ui.add_space(30.0);
            // Words, no spinner: an animation asks for every frame, and a window drawn
            // in software then opened a 100,000-event campaign in 1.18 s, not 0.94 s.
            ui.vertical_centered(|ui| {
                ui.label(format!(
                    "Opening {name} ({})…",
                    crate::rules::words::amount(events as u64, "events")
                ));
            });
        }
        (None, None) => {
            ui.vertical_centered(|ui| {
                theme::empty_state(ui, icons::CAMPAIGN, "No campaign open", &empty_text(model));
            });
        }
    }
    Vec::new()
}

/// The window width (the campaign list included) from which the action panel sits beside the
/// board: down to a 1024 px laptop, the board keeps room for one side's unit cards.
const PANEL_FROM_WIDTH: f32 = 700.0;

/// The board battle shown, with its plan, when it can take actions (no fork to settle first).
fn shown_board(model: &Model) -> Option<(&OpenCampaign, crate::rules::battle::board::TablePlan)> {
    let open = model.campaign.as_ref()?;
    let record = open.record();
    if record.open_fork(open.battle).is_some() {
        return None;
    }
    let setup = record.campaign.battles.get(open.battle)?.board_setup()?;
    Some((open, setup.plan.into_owned()))
}

/// The next step when no campaign is open, naming the scripted campaigns the app holds.
fn empty_text(model: &Model) -> String {
    let scripted: Vec<String> = campaign::scripted::all()
        .map(|s| format!("{} ({})", s.title, s.ruleset.title()))
        .collect();
    let start = if scripted.is_empty() {
        "Start one on the left: battles between two saved forces of any ruleset.".to_string()
    } else {
        format!(
            "Start one on the left: {}, or battles between two saved forces of any ruleset.",
            scripted.join(", ")
        )
    };
    if model.campaigns().is_empty() {
        format!("{start} A campaign file from another player opens with Import.")
    } else {
        format!("{start} Or open a saved one from the list.")
    }
}

fn campaign(command: CampaignCommand) -> Action {
    Action::Model(Command::Campaign(command))
}

fn list(state: &mut CampaignViewState, model: &Model, ui: &mut egui::Ui) -> Vec<Action> {
    let mut actions = Vec::new();
    ui.heading("Campaigns");
    let open_id = model.campaign.as_ref().map(|c| c.stored.id);
    if model.campaigns().is_empty() {
        ui.weak("None yet.");
    }
    for summary in model.campaigns() {
        let text = format!(
            "{}  ·  {}",
            summary.name,
            crate::rules::words::amount(u64::from(summary.battles), "battles")
        );
        let response = ui
            .add_enabled(
                summary.openable,
                egui::Button::selectable(open_id == Some(summary.id), text),
            )
            .on_disabled_hover_text(
                "Made by an older version: its events are kept but it cannot be opened",
            );
        if response.clicked() {
            actions.push(campaign(CampaignCommand::Open(summary.id)));
        }
    }
    ui.separator();
    ui.strong("New campaign");
    actions.extend(new_campaign_form(&mut state.draft, model, ui));
    ui.separator();
    ui.horizontal(|ui| {
        labelled_field(
            ui,
            "File",
            &mut state.path,
            "campaign.json or report.pdf",
            150.0,
        );
    });
    ui.horizontal(|ui| {
        let path = state.path.trim();
        if ui
            .add_enabled(!path.is_empty(), egui::Button::new("Import"))
            .clicked()
        {
            actions.push(campaign(CampaignCommand::Import(path.into())));
        }
        if ui
            .add_enabled(
                !path.is_empty() && model.campaign.is_some(),
                egui::Button::new("Export"),
            )
            .on_hover_text(".json: re-importable; .pdf: after-action report, one page per battle")
            .clicked()
        {
            actions.push(campaign(CampaignCommand::Export(path.into())));
        }
    });
    actions
}

/// The new-campaign form: a ruleset, where its battles come from (a scripted campaign's
/// briefings, or saved forces), the name and players; returns the command to start it.
fn new_campaign_form(
    draft: &mut NewCampaignDraft,
    model: &Model,
    ui: &mut egui::Ui,
) -> Vec<Action> {
    let mut actions = Vec::new();
    // The name offered follows the choice until the player types one of their own.
    let offered = |ruleset: RulesetId, scenario: Option<&String>| {
        scenario
            .and_then(|id| campaign::scripted::find(id))
            .map_or_else(
                || format!("{} campaign", ruleset.title()),
                |s| s.title.clone(),
            )
    };
    let was = offered(draft.ruleset, draft.scenario.as_ref());
    egui::Grid::new("new_campaign")
        .num_columns(2)
        .show(ui, |ui| {
            let label = ui.label("Ruleset");
            let ruleset = draft.ruleset;
            egui::ComboBox::from_id_salt("campaign_ruleset")
                .selected_text(draft.ruleset.title())
                .show_ui(ui, |ui| {
                    for id in RulesetId::ALL {
                        ui.selectable_value(&mut draft.ruleset, id, id.title());
                    }
                })
                .response
                .labelled_by(label.id);
            if draft.ruleset != ruleset {
                draft.scenario = campaign::scripted::of_ruleset(draft.ruleset)
                    .next()
                    .map(|s| s.id.clone());
                draft.forces = Sides::default();
            }
            ui.end_row();
            let scripts: Vec<_> = campaign::scripted::of_ruleset(draft.ruleset).collect();
            if !scripts.is_empty() {
                let label = ui.label("Battles");
                let shown =
                    draft_script(draft).map_or("Between saved forces", |s| s.title.as_str());
                egui::ComboBox::from_id_salt("campaign_scenario")
                    .selected_text(shown)
                    .show_ui(ui, |ui| {
                        for script in &scripts {
                            ui.selectable_value(
                                &mut draft.scenario,
                                Some(script.id.clone()),
                                &script.title,
                            )
                            .on_hover_text(&script.summary);
                        }
                        ui.selectable_value(&mut draft.scenario, None, "Between saved forces");
                    })
                    .response
                    .labelled_by(label.id);
                ui.end_row();
            }
            if draft.name == was {
                draft.name = offered(draft.ruleset, draft.scenario.as_ref());
            }
            let label = ui.label("Name");
            ui.add(egui::TextEdit::singleline(&mut draft.name).desired_width(140.0))
                .labelled_by(label.id);
            ui.end_row();
            let script = draft_script(draft);
            for side in SIDES {
                let text = match script {
                    Some(script) => format!("{} player", script.side_name(side)),
                    None => campaign::sides::plain(side).to_string(),
                };
                let label = ui.label(text);
                let field = match side {
                    Side::First => &mut draft.first,
                    Side::Second => &mut draft.second,
                };
                ui.add(egui::TextEdit::singleline(field).desired_width(140.0))
                    .labelled_by(label.id);
                ui.end_row();
            }
            if script.is_none() {
                let forces = saved_forces(model, draft.ruleset);
                for (side, text) in [
                    (Side::First, "First player's force"),
                    (Side::Second, "Second player's force"),
                ] {
                    let label = ui.label(text);
                    let pick = draft.forces.get_mut(side);
                    force_pick(ui, ("new_campaign_force", side), pick, &forces, label.id);
                    ui.end_row();
                }
            }
        });
    let script = draft_script(draft);
    if script.is_some() {
        ui.checkbox(&mut draft.carry_losses, "Carry losses forward")
            .on_hover_text("House option (off by default): units lost in a battle are missing from the later ones");
    }
    let label = script.map_or_else(
        || "Start campaign".to_string(),
        |s| {
            let mut id = s.id.chars();
            let name: String = id
                .next()
                .map(|c| c.to_uppercase().chain(id).collect())
                .unwrap_or_default();
            format!("New {name} campaign")
        },
    );
    // Between saved forces in a ruleset that has scripted campaigns: only once both are picked.
    let ready = script.is_some()
        || campaign::scripted::of_ruleset(draft.ruleset)
            .next()
            .is_none()
        || (!draft.forces.first.is_empty() && !draft.forces.second.is_empty());
    if ui
        .add_enabled(ready, egui::Button::new(label))
        .on_disabled_hover_text("Pick both forces")
        .clicked()
    {
        let players = Sides {
            first: draft.first.trim().to_string(),
            second: draft.second.trim().to_string(),
        };
        let forces = std::mem::take(&mut draft.forces);
        let between = script.is_none() && !forces.first.is_empty() && !forces.second.is_empty();
        actions.push(campaign(if between {
            // Two forces chosen: the campaign starts with its first battle between them.
            CampaignCommand::NewBetween {
                ruleset: draft.ruleset,
                name: draft.name.clone(),
                players,
                forces,
            }
        } else {
            CampaignCommand::New {
                ruleset: draft.ruleset,
                name: draft.name.clone(),
                players,
                carry_losses: draft.carry_losses,
            }
        }));
    }
    actions
}

/// The scripted campaign the draft names, when it is one of the draft's ruleset.
fn draft_script(draft: &NewCampaignDraft) -> Option<&'static campaign::scripted::ScriptedCampaign> {
    draft
        .scenario
        .as_ref()
        .and_then(|id| campaign::scripted::find(id))
        .filter(|s| s.ruleset == draft.ruleset)
}

fn standing_text(campaign: &Campaign, standing: Standing, turns: u32) -> String {
    match standing {
        Standing::NotStarted => "not started".to_string(),
        // A battle added during play holds its setup event and no turn yet.
        Standing::InProgress if turns == 0 => "set up".to_string(),
        Standing::InProgress => format!("turn {turns}"),
        Standing::FirstWon | Standing::SecondWon => {
            let winner = standing.winner().unwrap_or(Side::First);
            format!("{} won", campaign::sides::side_name(campaign, winner))
        }
        Standing::Draw => "draw".to_string(),
    }
}

fn campaign_page(
    state: &mut CampaignViewState,
    model: &Model,
    open: &OpenCampaign,
    ui: &mut egui::Ui,
) -> Vec<Action> {
    let mut actions = Vec::new();
    let record = open.record();
    let c = &record.campaign;
    if model.ask_player {
        actions.extend(player_prompt(state, ui));
    }
    // One line for what the campaign is and how it stands: the rows below it are the board's.
    ui.horizontal_wrapped(|ui| {
        ui.heading(&c.name);
        ui.weak(format!(
            "{} · {} against {}",
            c.ruleset.title(),
            campaign::side_label(c, Side::First),
            campaign::side_label(c, Side::Second)
        ));
        ui.strong(&open.overall().summary);
    });
    actions.extend(sharing_row(state, model, open, ui));
    if c.options.carry_losses {
        ui.weak("Losses carry forward (house option).");
    }
    player_list(open, ui);
    if let Some(index) = battle_picker(open, ui) {
        actions.push(campaign(CampaignCommand::SelectBattle(index)));
    }
    // Wrapped: beside the action panel in a laptop's window the row is wider than the page.
    ui.horizontal_wrapped(|ui| {
        if c.kind() == CampaignKind::Scripted {
            actions.extend(follow_up_row(state, c, ui));
        } else {
            actions.extend(add_simple_battle(state, model, c.ruleset, ui));
        }
        // Apart from the rest, and it asks first in a window of its own.
        ui.add_space(24.0);
        if ui.button("Delete campaign…").clicked() {
            state.confirm = Some(Confirm::Delete(open.stored.id, c.name.clone()));
        }
    });
    actions.extend(confirmation(state, ui));
    ui.separator();
    let Some(battle) = open.battle() else {
        ui.label("This campaign has no battles yet.");
        return actions;
    };
    if let Some(fork) = record.open_fork(open.battle) {
        // Nothing can be recorded until the players choose; say so where the tracker was.
        let sentence = fork.describe(battle.plan.number(), &|e| record.recorded_by(e));
        actions.extend(fork_panel(&fork, &sentence, battle.plan, ui));
    } else {
        set_aside_panel(state, record, open.battle, battle.plan, ui);
        match (battle.plan, battle.plan.board_setup()) {
            (BattlePlan::Simple(plan), _) => {
                let key = (open.stored.id, open.battle);
                actions.extend(simple_battle(state, key, plan, &battle, ui));
            }
            (_, Some(setup)) => {
                actions.extend(super::board_tracker::ui(
                    &mut state.board,
                    model,
                    open,
                    &setup.plan,
                    state.panel_beside,
                    ui,
                ));
                if open
                    .results()
                    .get(open.battle)
                    .is_some_and(|r| r.score.is_some())
                {
                    ui.separator();
                    score_chart(ui, c, open.score_by_turn());
                }
            }
            (_, None) => {}
        }
    }
    ui.separator();
    event_log::ui(
        &mut state.log,
        open.stored.id,
        open.battle,
        record,
        &battle,
        ui,
    );
    actions
}

/// Battles shown side by side as buttons up to this many; beyond it (a league's season), one
/// drop-down with the previous and next battle beside it.
const BATTLE_BUTTONS: usize = 8;

/// The campaign's battles to choose from, each with how it stands; returns the one chosen.
fn battle_picker(open: &OpenCampaign, ui: &mut egui::Ui) -> Option<usize> {
    let battles = &open.record().campaign.battles;
    let results = open.results();
    let title = |i: usize| {
        let plan = battles.get(i)?;
        let result = results.get(i)?;
        Some(format!(
            "{} ({})",
            plan.title(),
            standing_text(&open.record().campaign, result.standing, result.turns)
        ))
    };
    let mut chosen = None;
    if battles.len() <= BATTLE_BUTTONS {
        ui.horizontal_wrapped(|ui| {
            for i in 0..battles.len() {
                let text = title(i).unwrap_or_default();
                if ui.selectable_label(open.battle == i, text).clicked() {
                    chosen = Some(i);
                }
            }
        });
        return chosen;
    }
    // A hundred buttons would fill the page and be laid out every frame; the drop-down lays
    // out its list only while open. Its width follows the page's, never the battle's title, so
    // "Next" stays under the pointer; beside the action panel in a laptop's window it takes
    // what the buttons around it leave rather than widening the page past the panel.
    let at = open.battle;
    let count = format!("{} of {}", at + 1, battles.len());
    let width = (ui.available_width() - beside_the_picker(ui, &count)).clamp(120.0, 420.0);
    ui.horizontal(|ui| {
        if ui
            .add_enabled(at > 0, egui::Button::new("◀ Previous"))
            .on_hover_text("The battle before this one")
            .clicked()
        {
            chosen = Some(at - 1);
        }
        let label = ui.label("Battle");
        // In a box of its own: a drop-down's width is only its least, and a truncated title
        // otherwise takes the whole rest of the row.
        let size = egui::vec2(width, ui.spacing().interact_size.y);
        ui.allocate_ui_with_layout(size, *ui.layout(), |ui| {
            egui::ComboBox::from_id_salt("battle_pick")
                .width(width)
                .selected_text(title(at).unwrap_or_default())
                .truncate()
                .show_ui(ui, |ui| {
                    for i in 0..battles.len() {
                        let text = title(i).unwrap_or_default();
                        if ui.selectable_label(at == i, text).clicked() {
                            chosen = Some(i);
                        }
                    }
                })
                .response
                .labelled_by(label.id);
        });
        if ui
            .add_enabled(at + 1 < battles.len(), egui::Button::new("Next ▶"))
            .on_hover_text("The battle after this one")
            .clicked()
        {
            chosen = Some(at + 1);
        }
        ui.weak(count);
    });
    chosen
}

/// The width the drop-down's row takes for "Previous", "Battle", "Next" and `count`, with the
/// gaps between them.
fn beside_the_picker(ui: &egui::Ui, count: &str) -> f32 {
    let font = egui::TextStyle::Button.resolve(ui.style());
    let text = |words: &str| {
        ui.painter()
            .layout_no_wrap(words.to_owned(), font.clone(), egui::Color32::PLACEHOLDER)
            .size()
            .x
    };
    let button = 2.0 * ui.spacing().button_padding.x;
    // Four gaps between the five, and one spare so the count is never cut at the page's edge.
    let gaps = 5.0 * ui.spacing().item_spacing.x;
    text("◀ Previous") + button + text("Battle") + text("Next ▶") + button + text(count) + gaps
}

/// Who signed the campaign's events, each key's short fingerprint beside the names it recorded
/// under, for the players to compare at the table.
fn player_list(open: &OpenCampaign, ui: &mut egui::Ui) {
    let players = open.players();
    let unsigned = open.unsigned_events();
    if players.is_empty() && unsigned == 0 {
        // The row is kept while nothing is recorded: the battle's first event must not push
        // the tracker down under the pointer that recorded it.
        ui.horizontal(|ui| {
            ui.set_min_height(ui.spacing().interact_size.y);
            ui.weak("Recorded by: nobody yet");
        });
        return;
    }
    // One row per key: a machine that recorded under two names (before and after its player
    // gave one) is one key, its names side by side.
    let mut keys: Vec<(String, Vec<String>, String, usize)> = Vec::new();
    for p in players {
        let who = p.by.label();
        let who = if who.is_empty() {
            "(no name)".to_string()
        } else {
            who
        };
        let fingerprint = p.key.fingerprint();
        match keys.iter_mut().find(|k| k.0 == fingerprint) {
            Some(k) => {
                if !k.1.contains(&who) {
                    k.1.push(who);
                }
                if p.since < k.2 {
                    k.2.clone_from(&p.since);
                }
                k.3 += p.events;
            }
            None => keys.push((fingerprint, vec![who], p.since.clone(), p.events)),
        }
    }
    egui::CollapsingHeader::new(format!(
        "Recorded by ({})",
        crate::rules::words::amount(keys.len() as u64, "keys")
    ))
    .id_salt("player_list")
    .show(ui, |ui| {
        ui.weak("Each machine signs what it records with a key of its own: compare the keys with the other players at the table.");
        egui::Grid::new("players").num_columns(3).show(ui, |ui| {
            for (fingerprint, names, since, events) in &keys {
                ui.label(names.join(", "));
                ui.monospace(fingerprint);
                ui.weak(format!(
                    "since {}, {}",
                    since.get(..10).unwrap_or(since),
                    crate::rules::words::amount(*events as u64, "events")
                ));
                ui.end_row();
            }
        });
        if unsigned > 0 {
            ui.weak(format!(
                "{} not signed: recorded before events were signed, so who recorded them is not proven.",
                crate::rules::words::amount(unsigned as u64, "events")
            ));
        }
    });
}

/// The one-time question: who is playing on this machine (shown on every event recorded here,
/// on every machine the campaign reaches).
fn player_prompt(state: &mut CampaignViewState, ui: &mut egui::Ui) -> Vec<Action> {
    let mut actions = Vec::new();
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.strong("Who is playing on this machine?");
        ui.label("Your name is shown beside every event you record, on every machine the campaign is shared with.");
        // Wrapped: one row too wide for a laptop's page would widen everything below it.
        ui.horizontal_wrapped(|ui| {
            let field = labelled_field(ui, "Player name", &mut state.player_draft, "", 160.0);
            let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let name = state.player_draft.trim().to_string();
            if ui
                .add_enabled(!name.is_empty(), egui::Button::new("Save player name"))
                .clicked()
                || (entered && !name.is_empty())
            {
                actions.push(campaign(CampaignCommand::SetPlayer(Some(name))));
            }
            if ui
                .button("Not now")
                .on_hover_text("Events stay unsigned; `quartermaster campaign player NAME` sets it later")
                .clicked()
            {
                actions.push(campaign(CampaignCommand::SetPlayer(None)));
            }
        });
    });
    actions
}

/// "Shared with …" and Sync, or "Share this campaign to a folder…".
fn sharing_row(
    state: &mut CampaignViewState,
    model: &Model,
    open: &OpenCampaign,
    ui: &mut egui::Ui,
) -> Vec<Action> {
    let mut actions = Vec::new();
    ui.horizontal_wrapped(|ui| {
        match &open.shared {
            Some(folder) => {
                if ui
                    .button("Sync")
                    .on_hover_text("Read the other machines' files in the shared folder and write this machine's")
                    .clicked()
                {
                    actions.push(campaign(CampaignCommand::Sync));
                }
                if ui
                    .button("Tidy folder…")
                    .on_hover_text("List the folder's files by machine; remove those whose every event another file holds")
                    .clicked()
                {
                    state.confirm_tidy = false;
                    actions.push(campaign(CampaignCommand::SurveyFolder));
                }
                ui.weak(format!("Shared with {}", folder.display()));
            }
            None => {
                if ui
                    .button("Share this campaign to a folder…")
                    .on_hover_text("A folder your file sync (Syncthing, Nextcloud, Dropbox, a USB stick) carries to the other machines")
                    .clicked()
                {
                    state.sharing = !state.sharing;
                    state.share_focused = false;
                }
            }
        }
        if model.player.player.is_empty() {
            ui.weak(format!(
                "· recording on {} with no player name",
                model.player.machine
            ));
        } else {
            ui.weak(format!("· recording as {}", model.player.label()));
        }
    });
    if let Some(survey) = model.tidy.as_ref().filter(|t| t.id == open.stored.id) {
        actions.extend(tidy_panel(state, survey, ui));
    }
    if state.sharing && open.shared.is_none() {
        let escape = super::widgets::escape_closes_dialog(ui.ctx());
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.label("Each machine writes its own file into the folder and reads the others'. Use the same folder on every machine.");
            ui.horizontal(|ui| {
                let field = labelled_field(
                    ui,
                    "Folder",
                    &mut state.share_path,
                    "/home/me/Sync/lorraine",
                    320.0,
                );
                // The panel opens ready to type the folder; Enter shares, Escape closes.
                if !std::mem::replace(&mut state.share_focused, true) {
                    field.request_focus();
                }
                let enter = (field.has_focus() || field.lost_focus())
                    && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if ui.button("Choose…").clicked() {
                    actions.push(Action::PickShareFolder);
                }
                let path = state.share_path.trim();
                if (ui
                    .add_enabled(!path.is_empty(), egui::Button::new("Share"))
                    .on_hover_text("Enter")
                    .clicked()
                    || enter)
                    && !path.is_empty()
                {
                    actions.push(campaign(CampaignCommand::Share(path.into())));
                    state.sharing = false;
                }
                if ui.button("Cancel").on_hover_text("Escape").clicked() || escape {
                    state.sharing = false;
                }
            });
        });
    }
    actions
}

/// The shared folder's files by machine (who, when last written, size), the redundant ones
/// marked, and — after asking, on a row of its own below the button that asked — their removal.
fn tidy_panel(
    state: &mut CampaignViewState,
    survey: &crate::ui::model::TidySurvey,
    ui: &mut egui::Ui,
) -> Vec<Action> {
    let mut actions = Vec::new();
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.strong(format!("Files in {}", survey.folder.display()));
        egui::Grid::new("tidy_files")
            .striped(true)
            .num_columns(5)
            .show(ui, |ui| {
                for f in &survey.files {
                    ui.label(if f.who.is_empty() {
                        "nobody named".to_string()
                    } else {
                        f.who.join(", ")
                    });
                    ui.weak(
                        f.modified
                            .get(..16)
                            .unwrap_or(&f.modified)
                            .replace('T', " "),
                    );
                    ui.weak(crate::rules::words::amount(f.bytes, "bytes"));
                    ui.weak(crate::rules::words::amount(f.events as u64, "events"));
                    ui.label(f.verdict());
                    ui.end_row();
                }
            });
        let redundant = survey.files.iter().filter(|f| f.redundant).count();
        ui.horizontal(|ui| {
            if redundant == 0 {
                ui.weak(format!("Nothing to remove: {}.", crate::sync::tidy::RULE));
            } else if ui
                .add_enabled(
                    !state.confirm_tidy,
                    egui::Button::new(format!(
                        "Remove {} marked redundant…",
                        crate::rules::words::amount(redundant as u64, "files")
                    )),
                )
                .clicked()
            {
                state.confirm_tidy = true;
            }
            if ui.button("Close").clicked() {
                state.confirm_tidy = false;
                actions.push(campaign(CampaignCommand::CloseSurvey));
            }
        });
        if state.confirm_tidy && redundant > 0 {
            ui.horizontal(|ui| {
                ui.label("Nothing is lost: their machines are gone, and this machine's file holds each of their events.");
                if ui.button("Remove them").clicked() {
                    state.confirm_tidy = false;
                    actions.push(campaign(CampaignCommand::TidyFolder));
                }
                if ui.button("Keep them").clicked() {
                    state.confirm_tidy = false;
                }
            });
        }
    });
    actions
}

/// A one-line text field with its label before it (and named by it, for screen readers and
/// tests).
pub(super) fn labelled_field(
    ui: &mut egui::Ui,
    label: &str,
    text: &mut String,
    hint: &str,
    width: f32,
) -> egui::Response {
    let label = ui.label(label);
    ui.add(
        egui::TextEdit::singleline(text)
            .hint_text(hint)
            .desired_width(width),
    )
    .labelled_by(label.id)
}

/// An open fork: every branch side by side with who recorded it and when, and a button to keep
/// each.
fn fork_panel(
    fork: &campaign::Fork<'_>,
    sentence: &str,
    plan: &BattlePlan,
    ui: &mut egui::Ui,
) -> Vec<Action> {
    let mut actions = Vec::new();
    ui.heading(if fork.after_seq == 0 {
        "This battle is forked at its start".to_string()
    } else {
        format!("This battle is forked after event {}", fork.after_seq)
    });
    // Who recorded what, or whose choices disagree, in a sentence (as `sync` says it).
    ui.strong(capitalized(sentence));
    ui.label(format!(
        "{} machines recorded different events after the same one. Choose the branch to go on with: \
         the other is set aside (it stays in the log and can be restored later). \
         Nothing more can be recorded in this battle until you choose.",
        fork.branches.len()
    ));
    ui.columns(fork.branches.len().max(1), |columns| {
        for (column, branch) in columns.iter_mut().zip(&fork.branches) {
            egui::Frame::group(column.style()).show(column, |ui| {
                ui.strong(format!("Recorded by {}", branch.recorded_by()));
                let (from, to) = branch.recorded_between();
                ui.weak(format!("{} – {}", short_time(&from), short_time(&to)));
                if ui
                    .button(format!(
                        "Keep this branch ({})",
                        crate::rules::words::amount(branch.events.len() as u64, "events")
                    ))
                    .clicked()
                {
                    actions.push(campaign(CampaignCommand::ChooseBranch(branch.first)));
                }
                for e in branch.events.iter().take(FORK_ROWS) {
                    ui.add(
                        egui::Label::new(format!(
                            "{}  {}",
                            e.seq,
                            describe::describe(&e.event, plan)
                        ))
                        .wrap(),
                    );
                }
                if branch.events.len() > FORK_ROWS {
                    ui.weak(format!("… and {} more", branch.events.len() - FORK_ROWS));
                }
            });
        }
    });
    actions
}

/// `text` with its first letter a capital (a sentence shown on its own).
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// Events of a branch listed in the fork view (the log below has them all).
const FORK_ROWS: usize = 12;

/// Branches set aside at settled forks, each with a button that takes it back (after asking:
/// the branch played now is set aside in its turn).
fn set_aside_panel(
    state: &mut CampaignViewState,
    record: &campaign::CampaignRecord,
    index: usize,
    plan: &BattlePlan,
    ui: &mut egui::Ui,
) {
    let forks = record.forks(index);
    let aside: Vec<(&campaign::Fork<'_>, &campaign::history::Branch<'_>)> = forks
        .iter()
        .flat_map(|f| {
            f.branches
                .iter()
                .filter(move |b| f.kept.is_some_and(|k| k != b.first))
                .map(move |b| (f, b))
        })
        .collect();
    if aside.is_empty() {
        return;
    }
    egui::CollapsingHeader::new(format!("Set aside branches ({})", aside.len()))
        .id_salt("set_aside")
        .show(ui, |ui| {
            for (fork, branch) in aside {
                ui.horizontal_wrapped(|ui| {
                    ui.label(format!(
                        "After event {}: {} event(s) by {}",
                        fork.after_seq,
                        branch.events.len(),
                        branch.recorded_by()
                    ));
                    if let Some(first) = branch.events.first() {
                        ui.weak(describe::describe(&first.event, plan));
                    }
                    if ui
                        .button("Restore this branch…")
                        .on_hover_text("Keep it instead; the branch played now is set aside")
                        .clicked()
                    {
                        let what = format!(
                            "Restore the branch recorded by {} after event {}? The branch played now is set aside (it stays in the log).",
                            branch.recorded_by(),
                            fork.after_seq
                        );
                        state.confirm = Some(Confirm::Restore(branch.first, what));
                    }
                });
            }
        });
}

/// The question of a destructive action waiting for its yes, and what the yes does.
fn confirmation(state: &mut CampaignViewState, ui: &mut egui::Ui) -> Vec<Action> {
    let Some(confirm) = state.confirm.clone() else {
        return Vec::new();
    };
    let (question, yes, command) = match confirm {
        Confirm::Delete(id, name) => (
            format!(
                "Delete the campaign \"{name}\" with all its battles and events? This cannot be undone (a backup of the library is kept in its backups folder)."
            ),
            "Delete the campaign",
            CampaignCommand::Delete(id),
        ),
        Confirm::Restore(first, question) => (
            question,
            "Restore this branch",
            CampaignCommand::ChooseBranch(first),
        ),
    };
    match widgets::confirm(ui, "campaign", &question, yes) {
        Some(Answer::Yes) => {
            state.confirm = None;
            vec![campaign(command)]
        }
        Some(Answer::No) => {
            state.confirm = None;
            Vec::new()
        }
        None => Vec::new(),
    }
}

/// "12:04:31" from an ISO time.
fn short_time(at: &str) -> &str {
    at.get(11..19).unwrap_or(at)
}

/// The names of the saved forces of `ruleset`, for a player to pick his.
fn saved_forces(model: &Model, ruleset: RulesetId) -> Vec<&str> {
    model
        .forces
        .iter()
        .filter(|f| f.ruleset == ruleset)
        .map(|f| f.name.as_str())
        .collect()
}

/// A drop-down of `forces` setting `pick` (empty: "choose…"), named by the label `label`.
fn force_pick(
    ui: &mut egui::Ui,
    salt: impl std::hash::Hash + std::fmt::Debug,
    pick: &mut String,
    forces: &[&str],
    label: egui::Id,
) {
    egui::ComboBox::from_id_salt(salt)
        .selected_text(if pick.is_empty() {
            "choose…"
        } else {
            pick.as_str()
        })
        .show_ui(ui, |ui| {
            for f in forces {
                ui.selectable_value(pick, (*f).to_string(), *f);
            }
        })
        .response
        .labelled_by(label);
}

fn add_simple_battle(
    state: &mut CampaignViewState,
    model: &Model,
    ruleset: RulesetId,
    ui: &mut egui::Ui,
) -> Vec<Action> {
    let Some(campaign_id) = model.campaign.as_ref().map(|open| open.stored.id) else {
        return Vec::new();
    };
    let (name, first, second) = state.simple_battle.of(campaign_id);
    let forces = saved_forces(model, ruleset);
    let label = ui.label("Battle");
    ui.add(egui::TextEdit::singleline(name).desired_width(120.0))
        .labelled_by(label.id);
    for (salt, pick, text) in [
        ("first_force", &mut *first, "First force"),
        ("second_force", &mut *second, "Second force"),
    ] {
        let label = ui.label(text);
        force_pick(ui, salt, pick, &forces, label.id);
    }
    let ready = !name.trim().is_empty() && !first.is_empty() && !second.is_empty();
    let resting = super::just_done::pressed_lately(state.battle_added_at, ui);
    if ui
        .add_enabled(ready && !resting, egui::Button::new("Add battle"))
        .on_disabled_hover_text("Name the battle and choose two saved forces of this ruleset")
        .clicked()
    {
        state.battle_added_at = Some(ui.input(|i| i.time));
        let add = campaign(CampaignCommand::AddBattle {
            name: name.trim().to_string(),
            forces: Sides {
                first: first.clone(),
                second: second.clone(),
            },
        });
        state.simple_battle.clear(campaign_id);
        return vec![add];
    }
    Vec::new()
}

fn simple_battle(
    state: &mut CampaignViewState,
    key: BattleKey,
    plan: &campaign::SimpleBattlePlan,
    battle: &campaign::Battle<'_>,
    ui: &mut egui::Ui,
) -> Vec<Action> {
    let mut actions = Vec::new();
    ui.heading(battle.plan.title());
    for side in SIDES {
        ui.horizontal_wrapped(|ui| {
            ui.strong(plan.forces.get(side));
            for unit in plan.units.get(side) {
                ui.menu_button(unit, |ui| {
                    for fate in ["destroyed", "damaged", "routed", "survived"] {
                        if ui.button(fate).clicked() {
                            actions.push(campaign(CampaignCommand::Record(Box::new(
                                campaign::Event::UnitFate {
                                    side,
                                    unit: unit.clone(),
                                    fate: fate.to_string(),
                                },
                            ))));
                            ui.close();
                        }
                    }
                });
            }
        });
    }
    actions.extend(result_row(
        state.simple_result.of(key),
        &plan.forces,
        battle,
        ui,
    ));
    ui.horizontal(|ui| {
        if ui
            .add_enabled(battle.undo_target().is_some(), egui::Button::new("Undo"))
            .clicked()
        {
            actions.push(campaign(CampaignCommand::Undo));
        }
        if ui
            .add_enabled(battle.redo_target().is_some(), egui::Button::new("Redo"))
            .clicked()
        {
            actions.push(campaign(CampaignCommand::Redo));
        }
    });
    actions
}

/// The campaign's "What next?": its scripted battle after the last, played plainly or one of
/// its other ways.
fn follow_up_row(state: &mut CampaignViewState, c: &Campaign, ui: &mut egui::Ui) -> Vec<Action> {
    let mut actions = Vec::new();
    let Some(follow) = c.script().and_then(|s| s.follow_up.as_ref()) else {
        return actions;
    };
    let resting = super::just_done::pressed_lately(state.battle_added_at, ui);
    if ui
        .add_enabled(
            !resting,
            egui::Button::new(format!("Add \"{}\" battle", follow.name)),
        )
        .on_hover_text(format!(
            "Battle {}'s forces, deployed as you choose",
            follow.from
        ))
        .clicked()
    {
        state.battle_added_at = Some(ui.input(|i| i.time));
        actions.push(campaign(CampaignCommand::AddFollowUp {
            variant: state.follow_up_variant.clone(),
        }));
    }
    for variant in &follow.variants {
        let mut on = state.follow_up_variant.as_deref() == Some(variant.key.as_str());
        let text = variant
            .name
            .strip_prefix(&follow.name)
            .map_or(variant.name.as_str(), |rest| {
                rest.trim().trim_matches(['(', ')'])
            });
        if ui
            .checkbox(&mut on, format!("with the {text}"))
            .on_hover_text(&variant.help)
            .changed()
        {
            state.follow_up_variant = on.then(|| variant.key.clone());
        }
    }
    actions
}

/// The ruleset's score (Army Morale) of both sides at the start and after every turn, as a
/// chart: a side tally over the turns, whatever the ruleset measures.
fn score_chart(ui: &mut egui::Ui, c: &Campaign, by_turn: &[Sides<u32>]) {
    let measure = crate::rules::battle::table::engine(c.ruleset)
        .map_or("Score", |e| e.score_name)
        .trim_end_matches(" left");
    ui.strong(format!("{measure} by turn"));
    let series = |side: Side| -> PlotPoints<'static> {
        by_turn
            .iter()
            .enumerate()
            .map(|(turn, m)| [turn as f64, f64::from(*m.get(side))])
            .collect()
    };
    let top = by_turn
        .iter()
        .map(|m| m.first.max(m.second))
        .max()
        .unwrap_or(0);
    Plot::new("army_morale")
        .height(180.0)
        .legend(Legend::default())
        .include_y(0.0)
        .include_y(f64::from(top) + 1.0)
        .include_x(0.0)
        .include_x(by_turn.len().saturating_sub(1).max(1) as f64)
        .allow_scroll(false)
        // Turns and morale are whole numbers: marks, labels and the hover read only those.
        .x_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 5.0, 10.0]))
        .y_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 5.0, 10.0]))
        .x_axis_formatter(whole_number)
        .y_axis_formatter(whole_number)
        .label_formatter(|hover| match hover {
            egui_plot::HoverPosition::NearDataPoint {
                plot_name,
                position,
                ..
            } => Some(format!(
                "{plot_name}: {} after turn {}",
                position.y.round(),
                position.x.round()
            )),
            _ => None,
        })
        .x_axis_label("turn")
        .y_axis_label(measure)
        .show(ui, |plot| {
            // The players' colours: apart on both themes and for red-green colour blindness.
            let t = theme::tokens_of(plot.ctx());
            plot.line(
                Line::new(
                    campaign::sides::side_name(c, Side::First),
                    series(Side::First),
                )
                .color(t.player(Player::First).bar)
                .width(2.0),
            );
            plot.line(
                Line::new(
                    campaign::sides::side_name(c, Side::Second),
                    series(Side::Second),
                )
                .color(t.player(Player::Second).bar)
                .width(2.0)
                .style(egui_plot::LineStyle::dashed_loose()),
            );
        });
}

/// An axis label for whole-number marks only; the in-between marks stay unlabelled.
fn whole_number(mark: egui_plot::GridMark, _range: &std::ops::RangeInclusive<f64>) -> String {
    if mark.value.fract() == 0.0 && mark.value >= 0.0 {
        format!("{}", mark.value)
    } else {
        String::new()
    }
}

/// "Winner: first force / second force / Draw, Notes, Record result": the players end a battle.
/// A result already the battle's latest event greys the button, so a double click records one.
pub(super) fn result_row(
    draft: &mut ResultDraft,
    forces: &Sides<String>,
    battle: &campaign::Battle<'_>,
    ui: &mut egui::Ui,
) -> Vec<Action> {
    let mut actions = Vec::new();
    let mut used = false;
    let ResultDraft { winner, notes } = draft;
    // Two rows, each wrapped: beside the action panel in a laptop's window one row would be
    // wider than the page.
    ui.horizontal_wrapped(|ui| {
        ui.label("Winner");
        ui.radio_value(winner, Some(Some(Side::First)), forces.first.as_str());
        ui.radio_value(winner, Some(Some(Side::Second)), forces.second.as_str());
        ui.radio_value(winner, Some(None), "Draw");
    });
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Notes");
        ui.add(egui::TextEdit::singleline(notes).desired_width(200.0))
            .labelled_by(label.id);
        let result = winner.map(|winner| campaign::Event::BattleConcluded {
            winner,
            notes: notes.trim().to_string(),
        });
        // Recorded already, and nothing since: a second click (a double click) records nothing.
        let latest = battle
            .undo_target()
            .and_then(|seq| battle.events.iter().find(|e| e.seq == seq));
        let recorded = latest.is_some_and(|e| Some(&e.event) == result.as_ref());
        let button = ui
            .add_enabled(
                result.is_some() && !recorded,
                egui::Button::new("Record result"),
            )
            .on_disabled_hover_text(if recorded {
                "This result is the battle's latest event"
            } else {
                "Choose the winner first (or Draw)"
            });
        if button.clicked()
            && let Some(result) = result
        {
            actions.push(campaign(CampaignCommand::Record(Box::new(result))));
            used = true;
        }
    });
    // Used: the next battle's form, or this one's after an undo, starts empty.
    if used {
        *draft = ResultDraft::default();
    }
    actions
}
