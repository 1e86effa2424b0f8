//! The campaign after-action report: what happened in each battle, for the players to keep.
//!
//! The first page opens with the campaign and its standing; each battle with anything
//! recorded then starts on a page of its own with its result, Army Morale turn by turn (a
//! table and a line chart), the units lost and the whole event log, running on to further
//! pages when the log is long. Battles of the other rulesets show the forces, the winner,
//! the notes and each unit's fate. Battles not fought yet share one closing line.

mod chart;

use std::collections::HashSet;

use crate::campaign::definition::{SIDES, SimpleBattlePlan, TablePlan};
use crate::campaign::describe::describe;
use crate::campaign::result::Standing;
use crate::campaign::{
    ArmourBattlePlan, Battle, BattlePlan, BattleResult, BattleState, Campaign, CampaignRecord,
    LoggedEvent, side_label,
};
use crate::rules::armour_battles::Side;
use crate::rules::armour_battles::battle::state::UnitStatus;
use crate::rules::battle::board::{Board, BoardUnit};

use super::date::ExportDate;
use super::display::{Duplex, Item, Layout, Rgb, Stroke};
use super::flow::{SheetFlow, footer_font};
use super::fonts::{FontStyle, faces};
use super::template::{RosterStyle, SheetColors, templates};
use super::text::{Font, Typesetter, cap_height};
use super::{ExportError, Progress, Stage};
use chart::{ChartBox, Series, line_chart};

/// Height of the Army Morale chart.
const CHART_MM: f32 = 46.0;
/// Column widths of the event log: sequence number and time of day.
const SEQ_MM: f32 = 8.0;
const TIME_MM: f32 = 11.0;

/// Lays out the after-action report of `record` on page size `page` (`a4`, `letter`),
/// printed on `date`. Progress counts battles laid out.
pub fn layout_after_action(
    record: &CampaignRecord,
    page: &str,
    date: ExportDate,
    progress: &mut dyn FnMut(Progress),
) -> Result<Layout, ExportError> {
    let t = templates()?;
    let ts = Typesetter { faces: faces()? };
    let page = t.page(page)?;
    let campaign = &record.campaign;
    let accent = t.card_template(campaign.ruleset)?.colors.accent;
    let style = &t.roster;
    let mut report = Report {
        flow: SheetFlow::single_column(ts, (page.width_mm, page.height_mm), style.margin_mm),
        style,
        colors: &t.colors,
        accent,
        campaign,
    };
    let results = record.results();
    report.campaign_header(record, &results, date);
    let total = results.len();
    let mut unfought = Vec::new();
    let mut printed = 0;
    for (index, (battle, result)) in record.battles().zip(&results).enumerate() {
        // A battle with nothing recorded gets a line, not a near-blank page of its own.
        if battle.events.is_empty() && !result.standing.is_finished() {
            unfought.push(battle.plan.title());
        } else {
            if printed > 0 {
                report.flow.new_page();
            }
            report.battle(&battle, result, record.state(index).as_ref());
            printed += 1;
        }
        progress(Progress {
            stage: Stage::Layout,
            done: index + 1,
            total,
        });
    }
    report.unfought(&unfought);
    let pages = report.flow.finish_numbered(
        footer_font(t.footer_size_pt, t.colors.muted),
        &[
            format!(
                "Quartermaster · {} · after-action report printed {date}",
                campaign.name
            ),
            format!("after-action report printed {date}"),
        ],
    );
    Ok(Layout {
        title: format!("{} — after-action report", campaign.name),
        pages,
        warnings: Vec::new(),
        notes: Vec::new(),
        duplex: Duplex::Simplex,
    })
}

struct Report<'a> {
    flow: SheetFlow,
    style: &'a RosterStyle,
    colors: &'a SheetColors,
    accent: Rgb,
    campaign: &'a Campaign,
}

impl Report<'_> {
    fn font(&self, style: FontStyle, size_pt: f32) -> Font {
        Font::new(style, size_pt, self.colors.text)
    }

    fn body(&self) -> Font {
        self.font(FontStyle::Regular, self.style.body_size_pt)
    }

    fn small(&self) -> Font {
        self.font(FontStyle::Regular, self.style.small_size_pt)
    }

    fn muted(&self) -> Font {
        self.small().colored(self.colors.muted)
    }

    fn side(&self, side: Side) -> String {
        side_label(self.campaign, side)
    }

    fn heading(&mut self, text: &str) {
        let font = Font::new(FontStyle::Bold, self.style.heading_size_pt, self.accent);
        self.flow.y += 2.5;
        self.flow.ensure(font.line_height() * 3.0);
        self.flow.line(0.0, font, text);
        self.flow.rule(self.accent, 0.6);
        self.flow.y += 1.2;
    }

    /// A line that is cut short with an ellipsis rather than run past the margin.
    fn single_line(&mut self, font: Font, text: &str) {
        let text = self.flow.ts.ellipsize(text, font, self.flow.text_width());
        self.flow.line(0.0, font, &text);
    }

    fn paragraph(&mut self, font: Font, text: &str) {
        let w = self.flow.text_width();
        self.flow.paragraph(0.0, w, font, text);
    }

    /// The campaign's name, ruleset, players and standing, and one line per battle.
    fn campaign_header(
        &mut self,
        record: &CampaignRecord,
        results: &[BattleResult],
        date: ExportDate,
    ) {
        let campaign = self.campaign;
        let width = self.flow.text_width();
        let title = Font::new(FontStyle::Bold, self.style.title_size_pt, self.accent);
        let size = self.flow.ts.fit_size(&campaign.name, title, 10.0, width, 1);
        self.single_line(title.sized(size), &campaign.name);
        let sub = self.body().colored(self.colors.muted);
        self.single_line(
            sub,
            &format!(
                "{} campaign · after-action report · printed {date}",
                campaign.ruleset.title()
            ),
        );
        let players = format!(
            "Played by {} and {}",
            self.side(Side::First),
            self.side(Side::Second)
        );
        self.paragraph(self.body(), &players);
        self.flow.y += 2.0;

        let summary = record.result();
        let fought = results.iter().filter(|r| r.standing.is_finished()).count();
        let detail = format!("{fought} of {} battles fought", results.len());
        self.band(&format!("Campaign: {}", summary.summary), &detail);

        let small = self.small();
        let bold = self.font(FontStyle::Bold, small.size_pt);
        let column = width * 0.45;
        for result in results {
            let name = format!("Battle {}: {}", result.number, result.name);
            let name = self.flow.ts.ellipsize(&name, bold, column - 2.0);
            let outcome = standing_words(self.campaign, result);
            let lines = self.flow.ts.wrap(&outcome, small, width - column);
            self.flow.ensure(small.line_height() * lines.len() as f32);
            let baseline = self.flow.y + cap_height(small.size_pt);
            let item = self.flow.ts.run(self.flow.left(), baseline, bold, &name);
            self.flow.push(item);
            for line in lines {
                self.flow.line(column, small, &line);
            }
        }
        if results.is_empty() {
            self.paragraph(small, "No battles have been added to this campaign yet.");
        }
        self.flow.y += 3.0;
        self.flow.rule(self.colors.rule, 0.5);
        self.flow.y += 3.0;
    }

    /// One line naming the battles with nothing recorded yet.
    fn unfought(&mut self, titles: &[String]) {
        if titles.is_empty() {
            return;
        }
        self.flow.y += 3.0;
        let text = format!("Not fought yet: {} — nothing recorded.", titles.join("; "));
        self.paragraph(self.body().colored(self.colors.muted), &text);
    }

    /// A tinted band with `left` in bold and `right` set against the right edge.
    fn band(&mut self, left: &str, right: &str) {
        let bold = self.font(FontStyle::Bold, self.style.body_size_pt);
        let body = self.body();
        let (x, w) = (self.flow.left(), self.flow.text_width());
        let right_w = self.flow.ts.width(right, body);
        let lines = self.flow.ts.wrap(left, bold, w - right_w - 8.0);
        let height = bold.line_height() * lines.len() as f32 + 3.0;
        self.flow.ensure(height);
        let y = self.flow.y;
        self.flow.push(Item::Rect {
            x,
            y,
            w,
            h: height,
            fill: Some(self.colors.band),
            stroke: None,
        });
        let mut baseline = y + 1.5 + cap_height(bold.size_pt);
        let first = baseline;
        for line in &lines {
            let item = self.flow.ts.run(x + 2.0, baseline, bold, line);
            self.flow.push(item);
            baseline += bold.line_height();
        }
        let item = self.flow.ts.run(x + w - 2.0 - right_w, first, body, right);
        self.flow.push(item);
        self.flow.y += height + 1.0;
    }

    fn battle(&mut self, battle: &Battle<'_>, result: &BattleResult, state: Option<&BattleState>) {
        let title = battle.plan.title();
        let font = Font::new(FontStyle::Bold, self.style.title_size_pt * 0.8, self.accent);
        let size = self
            .flow
            .ts
            .fit_size(&title, font, 9.0, self.flow.text_width(), 1);
        self.flow.ensure(font.line_height() * 4.0);
        self.single_line(font.sized(size), &title);
        match battle.plan {
            BattlePlan::Armour(plan) => self.armour_battle(plan, result, state),
            BattlePlan::Simple(plan) => self.simple_battle(plan, result),
            BattlePlan::Table(plan) => self.table_battle(plan, result, battle.board().as_ref()),
        }
        self.event_log(battle, &title);
    }

    fn armour_battle(
        &mut self,
        plan: &ArmourBattlePlan,
        result: &BattleResult,
        state: Option<&BattleState>,
    ) {
        let muted = self.body().colored(self.colors.muted);
        self.paragraph(muted, &format!("{} · {}", plan.time, plan.place));
        self.flow.y += 1.5;
        self.result_band(result);
        self.paragraph(self.muted(), &format!("Victory: {}", plan.victory));
        let Some(state) = state else {
            return;
        };
        self.morale(state);
        self.units_lost(state);
    }

    fn result_band(&mut self, result: &BattleResult) {
        let words = standing_words(self.campaign, result);
        let turns = match result.turns {
            0 => String::new(),
            1 => "1 turn played".to_string(),
            n => format!("{n} turns played"),
        };
        self.band(&words, &turns);
    }

    /// Army Morale at the start and after each turn: a table, then the same as a chart.
    fn morale(&mut self, state: &BattleState) {
        self.heading("Army Morale");
        if state.morale_by_turn.len() < 2 {
            let start: Vec<String> = SIDES
                .iter()
                .map(|&side| format!("{} {}", self.side(side), state.side(side).army_morale))
                .collect();
            self.paragraph(
                self.body(),
                &format!("Not fought yet. At the start: {}.", start.join(", ")),
            );
            return;
        }
        self.morale_table(state);
        self.flow.y += 2.0;
        self.flow.ensure(CHART_MM);
        let series: Vec<Series> = SIDES
            .iter()
            .map(|&side| Series {
                label: self.side(side),
                values: state.morale_by_turn.iter().map(|m| *m.get(side)).collect(),
                stroke: self.series_stroke(side),
            })
            .collect();
        let chart = ChartBox {
            x: self.flow.left(),
            y: self.flow.y,
            w: self.flow.text_width(),
            h: CHART_MM,
            font: self.muted(),
            grid: self.colors.rule,
            axis: self.colors.muted,
        };
        let caption = "Army Morale at the start (turn 0) and at the end of each turn; \
                       a dispersal counts in the turn it happened.";
        for item in line_chart(self.flow.ts, &chart, &series, caption) {
            self.flow.push(item);
        }
        self.flow.y += CHART_MM + 1.0;
    }

    /// The US line in the accent colour, the German one dashed so the two differ in grey too.
    fn series_stroke(&self, side: Side) -> Stroke {
        match side {
            Side::First => Stroke::solid(self.accent, 1.2),
            Side::Second => Stroke {
                color: self.colors.text,
                width_pt: 1.2,
                dash_pt: Some(2.5),
            },
        }
    }

    /// One column per turn, as many rows of columns as the turns need.
    fn morale_table(&mut self, state: &BattleState) {
        let ts = self.flow.ts;
        let small = self.small();
        let bold = self.font(FontStyle::Bold, small.size_pt);
        let (left, width) = (self.flow.left(), self.flow.text_width());
        let labels: Vec<String> = SIDES.iter().map(|&s| self.side(s)).collect();
        let label_w = labels
            .iter()
            .map(|l| ts.width(l, bold))
            .fold(ts.width("Turn", bold), f32::max)
            .min(width * 0.35)
            + 3.0;
        let cell_w = ts.width("Start", bold) + 3.0;
        let per_row = (((width - label_w) / cell_w).floor() as usize).max(1);
        let row_h = small.line_height() + 1.2;
        let turns: Vec<usize> = (0..state.morale_by_turn.len()).collect();
        for chunk in turns.chunks(per_row) {
            self.flow.ensure(row_h * 3.0);
            let y = self.flow.y;
            self.flow.push(Item::Rect {
                x: left,
                y,
                w: label_w + cell_w * chunk.len() as f32,
                h: row_h,
                fill: Some(self.colors.band),
                stroke: None,
            });
            let mut rows: Vec<(String, Font, Vec<String>)> = vec![(
                "Turn".to_string(),
                bold,
                chunk
                    .iter()
                    .map(|&t| match t {
                        0 => "Start".to_string(),
                        t => t.to_string(),
                    })
                    .collect(),
            )];
            for (&side, label) in SIDES.iter().zip(&labels) {
                let values = chunk
                    .iter()
                    .map(|&t| {
                        state
                            .morale_by_turn
                            .get(t)
                            .map_or(String::new(), |m| m.get(side).to_string())
                    })
                    .collect();
                rows.push((label.clone(), small, values));
            }
            for (label, font, cells) in rows {
                let baseline = self.flow.y + 0.6 + cap_height(font.size_pt);
                let label = ts.ellipsize(&label, bold, label_w - 3.0);
                self.flow.push(ts.run(left + 0.5, baseline, bold, &label));
                for (i, cell) in cells.iter().enumerate() {
                    let cw = ts.width(cell, font);
                    let x = left + label_w + cell_w * i as f32 + (cell_w - cw) / 2.0;
                    self.flow.push(ts.run(x, baseline, font, cell));
                }
                self.flow.y += row_h;
            }
            self.flow.y += 1.0;
        }
    }

    /// The dispersed units of both sides, side by side.
    fn units_lost(&mut self, state: &BattleState) {
        self.heading("Units lost");
        let columns: Vec<(String, Vec<String>)> = SIDES
            .iter()
            .map(|&side| {
                let all = state
                    .units_of(side)
                    .filter(|u| u.status != UnitStatus::LostEarlier)
                    .count();
                let lost: Vec<String> = state
                    .losses(side)
                    .map(|u| match u.status {
                        UnitStatus::Dispersed { turn } => {
                            format!("{} — dispersed in turn {turn}", state.unit_label(u))
                        }
                        _ => state.unit_label(u),
                    })
                    .collect();
                let head = format!("{}: {} of {all} units", self.side(side), lost.len());
                (head, lost)
            })
            .collect();
        self.two_columns(&columns, "none");
    }

    /// Two lists side by side, each under a bold head, row by row so a long list can run on
    /// to the next page.
    fn two_columns(&mut self, columns: &[(String, Vec<String>)], empty: &str) {
        let ts = self.flow.ts;
        let small = self.small();
        let bold = self.font(FontStyle::Bold, self.style.body_size_pt);
        let gutter = 6.0;
        let col_w = (self.flow.text_width() - gutter) / 2.0;
        let left = self.flow.left();
        let xs = [left, left + col_w + gutter];
        let heads: Vec<String> = columns
            .iter()
            .map(|(head, _)| ts.ellipsize(head, bold, col_w))
            .collect();
        self.flow.ensure(bold.line_height() + small.line_height());
        let baseline = self.flow.y + cap_height(bold.size_pt);
        for (x, head) in xs.iter().zip(&heads) {
            self.flow.push(ts.run(*x, baseline, bold, head));
        }
        self.flow.y += bold.line_height();
        let wrapped: Vec<Vec<Vec<String>>> = columns
            .iter()
            .map(|(_, items)| {
                if items.is_empty() {
                    vec![vec![empty.to_string()]]
                } else {
                    items.iter().map(|i| ts.wrap(i, small, col_w)).collect()
                }
            })
            .collect();
        let rows = wrapped.iter().map(Vec::len).max().unwrap_or(0);
        for row in 0..rows {
            let cells: Vec<&[String]> = wrapped
                .iter()
                .map(|c| c.get(row).map_or(&[][..], Vec::as_slice))
                .collect();
            let lines = cells.iter().map(|c| c.len()).max().unwrap_or(0);
            let height = small.line_height() * lines as f32 + 0.4;
            self.flow.ensure(height);
            for (x, cell) in xs.iter().zip(&cells) {
                let mut baseline = self.flow.y + cap_height(small.size_pt);
                for line in cell.iter() {
                    self.flow.push(ts.run(*x, baseline, small, line));
                    baseline += small.line_height();
                }
            }
            self.flow.y += height;
        }
    }

    fn simple_battle(&mut self, plan: &SimpleBattlePlan, result: &BattleResult) {
        self.flow.y += 1.5;
        self.result_band(result);
        self.heading("Forces");
        for side in SIDES {
            let units = plan.units.get(side);
            let count = match units.len() {
                1 => "1 unit".to_string(),
                n => format!("{n} units"),
            };
            let text = format!(
                "{} fielded {} ({count}): {}",
                self.side(side),
                plan.forces.get(side),
                if units.is_empty() {
                    "no units recorded".to_string()
                } else {
                    units.join(", ")
                }
            );
            self.paragraph(self.small(), &text);
            self.flow.y += 0.8;
        }
        if !result.reason.trim().is_empty() {
            self.heading("Notes");
            self.paragraph(self.body(), &result.reason);
        }
        self.heading("Unit fates");
        let columns: Vec<(String, Vec<String>)> = SIDES
            .iter()
            .map(|&side| (self.side(side), result.losses.get(side).clone()))
            .collect();
        self.two_columns(&columns, "no fate recorded");
    }

    /// A battle fought on a board: the forces, the result, and every unit as the battle left
    /// it (what it lost, its marks).
    fn table_battle(&mut self, plan: &TablePlan, result: &BattleResult, board: Option<&Board>) {
        self.flow.y += 1.5;
        self.result_band(result);
        if let Some(score) = &result.score {
            let text: Vec<String> = SIDES
                .iter()
                .map(|&side| format!("{} {}", self.side(side), score.get(side)))
                .collect();
            self.paragraph(self.muted(), &format!("Score: {}", text.join(", ")));
        }
        if !result.reason.trim().is_empty() {
            self.paragraph(self.body(), &result.reason);
        }
        self.heading(if result.standing.is_finished() {
            "Units at the end"
        } else {
            "Units now"
        });
        let columns: Vec<(String, Vec<String>)> = SIDES
            .iter()
            .map(|&side| {
                let units = match board {
                    Some(board) => board.side_units(side).map(unit_line).collect(),
                    None => plan
                        .units
                        .get(side)
                        .iter()
                        .map(|u| u.label.clone())
                        .collect(),
                };
                (
                    format!("{} ({})", self.side(side), plan.forces.get(side)),
                    units,
                )
            })
            .collect();
        self.two_columns(&columns, "no units");
    }

    /// Every recorded event with its number and time; taken-back events struck through.
    fn event_log(&mut self, battle: &Battle<'_>, title: &str) {
        self.heading("Event log");
        if battle.events.is_empty() {
            self.paragraph(self.body(), "Nothing recorded yet.");
            return;
        }
        self.paragraph(
            self.muted(),
            "Times are as recorded (UTC). Struck-through entries were taken back with an \
             undo; the undo and redo entries themselves are listed where they were made.",
        );
        self.flow.y += 1.0;
        self.log_header();
        let undone = undone_events(battle);
        for logged in battle.events {
            self.log_row(battle.plan, logged, undone.contains(&logged.seq), title);
        }
    }

    fn log_header(&mut self) {
        let ts = self.flow.ts;
        let font = Font::new(FontStyle::Bold, self.style.small_size_pt, self.colors.muted);
        let h = font.line_height() + 1.6;
        let (x, w) = (self.flow.left(), self.flow.text_width());
        self.flow.ensure(h * 2.0);
        let y = self.flow.y;
        self.flow.push(Item::Rect {
            x,
            y,
            w,
            h,
            fill: Some(self.colors.band),
            stroke: None,
        });
        let baseline = y + 0.8 + cap_height(font.size_pt);
        let seq_w = ts.width("#", font);
        self.flow
            .push(ts.run(x + SEQ_MM - 1.5 - seq_w, baseline, font, "#"));
        self.flow.push(ts.run(x + SEQ_MM, baseline, font, "Time"));
        self.flow
            .push(ts.run(x + SEQ_MM + TIME_MM, baseline, font, "What happened"));
        self.flow.y += h + 0.6;
    }

    fn log_row(&mut self, plan: &BattlePlan, logged: &LoggedEvent, undone: bool, title: &str) {
        let ts = self.flow.ts;
        let meta = logged.event.is_meta();
        let font = if undone || meta {
            self.small().colored(self.colors.muted)
        } else {
            self.small()
        };
        let mut text = describe(&logged.event, plan);
        if undone {
            text.push_str(" (undone)");
        }
        let who = logged.by.label();
        if !who.is_empty() {
            text.push_str(&format!(" — {who}"));
        }
        let (x, w) = (self.flow.left(), self.flow.text_width());
        let text_x = x + SEQ_MM + TIME_MM;
        let lines = ts.wrap(&text, font, w - SEQ_MM - TIME_MM);
        let height = font.line_height() * lines.len() as f32 + 0.5;
        if height > self.flow.room() {
            self.continue_log(title);
        }
        let first = self.flow.y + cap_height(font.size_pt);
        let seq = logged.seq.to_string();
        let seq_w = ts.width(&seq, font);
        self.flow
            .push(ts.run(x + SEQ_MM - 1.5 - seq_w, first, font, &seq));
        let clock = clock_time(&logged.recorded_at);
        self.flow.push(ts.run(x + SEQ_MM, first, font, &clock));
        let mut baseline = first;
        for line in &lines {
            let item = ts.run(text_x, baseline, font, line);
            if undone && let Item::Text(run) = &item {
                let mid = baseline - cap_height(font.size_pt) * 0.4;
                self.flow.push(Item::Line {
                    x1: run.x,
                    y1: mid,
                    x2: run.x + run.width,
                    y2: mid,
                    stroke: Stroke::solid(self.colors.muted, 0.5),
                });
            }
            self.flow.push(item);
            baseline += font.line_height();
        }
        self.flow.y += height;
    }

    /// A new page for a log that runs over, saying whose log it is.
    fn continue_log(&mut self, title: &str) {
        self.flow.new_page();
        let font = Font::new(FontStyle::Bold, self.style.body_size_pt, self.accent);
        self.single_line(font, &format!("{title} — event log, continued"));
        self.flow.y += 1.0;
        self.log_header();
    }
}

/// The sequence numbers of events currently taken back by an undo.
fn undone_events(battle: &Battle<'_>) -> HashSet<u32> {
    battle.undone()
}

/// Where a battle stands, in words: "German (Bob) won: US Army Morale reduced to 0".
fn standing_words(campaign: &Campaign, result: &BattleResult) -> String {
    let headline = match result.standing {
        Standing::NotStarted => "Not fought yet".to_string(),
        Standing::InProgress => "Still being fought".to_string(),
        Standing::Draw => "Drawn".to_string(),
        Standing::UsWon | Standing::GermanWon => match result.standing.winner() {
            Some(side) => format!("{} won", side_label(campaign, side)),
            None => "Drawn".to_string(),
        },
    };
    let mut words = if result.reason.trim().is_empty() {
        headline
    } else {
        format!("{headline}: {}", result.reason.trim())
    };
    if let Some(morale) = &result.army_morale
        && result.standing != Standing::NotStarted
    {
        words.push_str(&format!(
            " (Army Morale left: US {}, German {})",
            morale.first, morale.second
        ));
    }
    words
}

/// "14:05" from an ISO 8601 time stamp ("2026-11-22T14:05:09Z"); a dash when there is none.
fn clock_time(recorded_at: &str) -> String {
    let time = recorded_at.split_once(['T', ' ']).map(|(_, time)| time);
    match time.and_then(|t| t.get(..5)).map(|hm| (hm, hm.as_bytes())) {
        Some((hm, [h1, h2, b':', m1, m2]))
            if [h1, h2, m1, m2].iter().all(|b| b.is_ascii_digit()) =>
        {
            hm.to_string()
        }
        _ => "–".to_string(),
    }
}

/// "Rifle Squad 1 — casualties 2, pins 1; down".
fn unit_line(unit: &BoardUnit) -> String {
    let counters: Vec<String> = unit
        .counters
        .iter()
        .filter(|(k, v)| **v != 0 && !crate::campaign::roster::BOOKKEEPING.contains(&k.as_str()))
        .map(|(k, v)| format!("{} {v}", k.replace('_', " ")))
        .collect();
    let marks: Vec<String> = unit.marks.iter().map(|m| m.replace('_', " ")).collect();
    let mut line = unit.label.clone();
    if !counters.is_empty() {
        line.push_str(&format!(" — {}", counters.join(", ")));
    }
    if !marks.is_empty() {
        line.push_str(&format!("; {}", marks.join(", ")));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_times_come_from_iso_stamps_or_show_a_dash() {
        assert_eq!(clock_time("2026-11-22T14:05:09Z"), "14:05");
        assert_eq!(clock_time("2026-11-22 07:30:00"), "07:30");
        assert_eq!(clock_time(""), "–");
        assert_eq!(clock_time("2026-11-22"), "–");
        assert_eq!(clock_time("2026-11-22T1é:00"), "–");
    }
}
