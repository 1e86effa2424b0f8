//! The Campaign view's event log: one battle's events, newest first, filtered. Only the rows in
//! sight are laid out ([`egui::ScrollArea::show_rows`]): laying out a thousand wrapped rows
//! took most of the frame that showed a long campaign, and again whenever a row's text changed.
//! Which events pass the filters is worked out when the battle or the filters change, not in
//! every frame (a search describes every event of the battle).

use std::collections::HashSet;

use crate::campaign::{self, BattlePlan, Category, EventUid, describe};
use crate::store::CampaignId;

/// Which log entries are shown.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LogFilter {
    pub hidden: HashSet<Category>,
    /// Only events about this unit id.
    pub unit: Option<String>,
    pub text: String,
    pub hide_undone: bool,
}

/// The filters and the rows they let through, as last worked out.
#[derive(Debug, Clone, Default)]
pub struct LogView {
    pub filter: LogFilter,
    rows: Rows,
}

#[derive(Debug, Clone, Default)]
struct Rows {
    /// What the rows were worked out for.
    of: Option<RowsOf>,
    /// Positions in the battle's line, newest first, each with whether it is undone.
    shown: Vec<(usize, bool)>,
}

/// A battle's line only grows, or changes its last event when a sync or a choice of branch
/// lays it out again: its length and last event tell a stale list.
#[derive(Debug, Clone, PartialEq)]
struct RowsOf {
    campaign: CampaignId,
    battle: usize,
    events: usize,
    last: Option<EventUid>,
    filter: LogFilter,
}

/// Rows the log shows before it scrolls: enough to read back a turn or two, without pushing
/// the tracker out of the window.
const ROWS_IN_SIGHT: f32 = 20.0;

/// The log of the battle `index` of the campaign `id` (`record`'s).
pub fn ui(
    view: &mut LogView,
    id: CampaignId,
    index: usize,
    record: &campaign::CampaignRecord,
    battle: &campaign::Battle<'_>,
    ui: &mut egui::Ui,
) {
    ui.strong(format!(
        "Event log ({})",
        crate::rules::words::amount(battle.events.len() as u64, "events")
    ));
    filters(&mut view.filter, battle.plan, ui);
    let of = RowsOf {
        campaign: id,
        battle: index,
        events: battle.events.len(),
        last: battle.events.last().map(|e| e.id),
        filter: view.filter.clone(),
    };
    if view.rows.of.as_ref() != Some(&of) {
        view.rows.shown = matching(battle, &view.filter);
        view.rows.of = Some(of);
    }
    let shown = &view.rows.shown;
    // Every row one line high (long ones truncated, whole on hover), so the rows in sight
    // are known without laying out the others.
    let row_height = ui
        .text_style_height(&egui::TextStyle::Body)
        .max(ui.text_style_height(&egui::TextStyle::Monospace));
    let spacing = ui.spacing().item_spacing.y;
    egui::ScrollArea::vertical()
        .id_salt("event_log")
        .max_height((row_height + spacing) * ROWS_IN_SIGHT)
        .auto_shrink([false, true])
        .show_rows(ui, row_height, shown.len(), |ui, range| {
            let first = range.start;
            egui::Grid::new("event_log")
                .striped(true)
                .num_columns(3)
                .min_row_height(row_height)
                .start_row(first)
                .show(ui, |ui| {
                    for &(at, undone) in shown.get(range).unwrap_or_default() {
                        if let Some(logged) = battle.events.get(at) {
                            row(ui, record, battle.plan, logged, undone);
                        }
                    }
                });
        });
}

/// The category boxes, "Hide undone", Search and (a battle fought on a board) the unit.
fn filters(filter: &mut LogFilter, plan: &BattlePlan, ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        for category in Category::ALL {
            let mut shown = !filter.hidden.contains(&category);
            if ui.checkbox(&mut shown, category.label()).changed() {
                if shown {
                    filter.hidden.remove(&category);
                } else {
                    filter.hidden.insert(category);
                }
            }
        }
        ui.checkbox(&mut filter.hide_undone, "Hide undone");
        let label = ui.label("Search");
        ui.add(egui::TextEdit::singleline(&mut filter.text).desired_width(120.0))
            .labelled_by(label.id);
    });
    if let Some(setup) = plan.board_setup() {
        let plan = &setup.plan;
        ui.horizontal(|ui| {
            let label = ui.label("Unit");
            let selected = filter
                .unit
                .as_deref()
                .map_or("all units", |id| plan.label(id))
                .to_string();
            egui::ComboBox::from_id_salt("log_unit")
                .selected_text(selected)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut filter.unit, None, "all units");
                    for u in plan.units.first.iter().chain(&plan.units.second) {
                        ui.selectable_value(&mut filter.unit, Some(u.id.clone()), &u.label);
                    }
                })
                .response
                .labelled_by(label.id);
        });
    }
}

/// The battle's events that pass `filter`, newest first, with whether each is undone.
fn matching(battle: &campaign::Battle<'_>, filter: &LogFilter) -> Vec<(usize, bool)> {
    let needle = filter.text.trim().to_lowercase();
    let undone = battle.undone();
    battle
        .events
        .iter()
        .enumerate()
        .rev()
        .filter_map(|(at, logged)| {
            let is_undone = undone.contains(&logged.seq);
            let hidden = filter.hidden.contains(&logged.event.category())
                || filter
                    .unit
                    .as_ref()
                    .is_some_and(|unit| !logged.event.units().contains(&unit.as_str()))
                || (is_undone && filter.hide_undone)
                || (!needle.is_empty()
                    && !describe::describe(&logged.event, battle.plan)
                        .to_lowercase()
                        .contains(&needle));
            (!hidden).then_some((at, is_undone))
        })
        .collect()
}

/// One event: its number, the time, and what happened with who recorded it, their key and
/// the rulings it was resolved under.
fn row(
    ui: &mut egui::Ui,
    record: &campaign::CampaignRecord,
    plan: &BattlePlan,
    logged: &campaign::LoggedEvent,
    undone: bool,
) {
    let ruleset = record.campaign.ruleset;
    ui.monospace(logged.seq.to_string());
    ui.weak(
        logged
            .recorded_at
            .get(11..19)
            .unwrap_or(&logged.recorded_at),
    );
    let mut text = describe::describe(&logged.event, plan);
    let who = logged.by.label();
    if !who.is_empty() {
        text.push_str(&format!(" — {who}"));
    }
    match logged.seal {
        Some(seal) => text.push_str(&format!(" · key {}", seal.key.fingerprint())),
        None if !who.is_empty() => text.push_str(" · not signed"),
        None => {}
    }
    if let Some(note) = crate::rules::ruleset(ruleset)
        .revision_note(logged.resolved_under(ruleset), logged.event.kind())
    {
        text.push_str(&format!(" — {note}"));
    }
    let rich = egui::RichText::new(text);
    // Truncated, not wrapped: a long volley must not push the page wider than the window, and
    // every row one line high is what lets only the rows in sight be laid out.
    ui.add(
        egui::Label::new(if undone {
            rich.strikethrough().weak()
        } else {
            rich
        })
        .truncate(),
    );
    ui.end_row();
}
