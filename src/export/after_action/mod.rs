//! The campaign after-action report: what happened in each battle, for the players to keep.
//!
//! The first page opens with the campaign and its standing; each battle with anything
//! recorded then starts on a page of its own with its result, Army Morale turn by turn (a
//! table and a line chart), the units lost and the whole event log, running on to further
//! pages when the log is long. Battles of the other rulesets show the forces, the winner,
//! the notes and each unit's fate. Battles not fought yet share one closing line.
//!
//! On A4 or Letter, in full or low ink, like every sheet. Nothing is cut short: a long force
//! or campaign name takes another line, and what still could not be printed whole is a
//! warning (the command line exits 1).

mod chart;
mod log;

use crate::campaign::definition::{BoardSetup, SIDES, Sides, SimpleBattlePlan};
use crate::campaign::result::Standing;
use crate::campaign::{Battle, BattlePlan, BattleResult, Campaign, CampaignRecord, side_label};
use crate::rules::battle::Side;
use crate::rules::battle::board::{Board, BoardUnit};

use super::date::ExportDate;
use super::display::{Duplex, Layout, Rgb, Stroke};
use super::flow::{SheetFlow, footer_font};
use super::fonts::{FontStyle, faces};
use super::ink::{Ink, Paper};
use super::template::{RosterStyle, SheetColors, templates};
use super::text::{Font, Typesetter, cap_height};
use super::{ExportError, Progress, Stage};
use chart::{ChartBox, Series, line_chart};

/// Height of the Army Morale chart.
const CHART_MM: f32 = 46.0;

/// Lays out the after-action report of `record` on `paper` (a page id such as `a4`, or a
/// page and an ink), printed on `date`. Progress counts battles laid out.
pub fn layout_after_action<'a>(
    record: &CampaignRecord,
    paper: impl Into<Paper<'a>>,
    date: ExportDate,
    progress: &mut dyn FnMut(Progress),
) -> Result<Layout, ExportError> {
    let paper = paper.into();
    let t = templates()?;
    let ts = Typesetter { faces: faces()? };
    let page = t.page(paper.page)?;
    let campaign = &record.campaign;
    let accent = t.card_template(campaign.ruleset)?.colors.accent;
    let style = &t.roster;
    let mut report = Report {
        flow: SheetFlow::single_column(ts, (page.width_mm, page.height_mm), style.margin_mm),
        style,
        colors: &t.colors,
        accent,
        campaign,
        ink: paper.ink,
        warnings: Vec::new(),
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
            let by_turn = battle.score_by_turn(&record.carried_losses(index));
            report.battle(&battle, result, record.board(index).as_ref(), &by_turn);
            printed += 1;
        }
        progress(Progress {
            stage: Stage::Layout,
            done: index + 1,
            total,
        });
    }
    report.unfought(&unfought);
    let Report { flow, warnings, .. } = report;
    let pages = flow.finish_numbered(
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
        warnings,
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
    ink: Ink,
    /// What could not be printed whole (a word too long for any line).
    warnings: Vec<String>,
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

    /// `text` wrapped to `width`, a word cut between letters to fit reported.
    fn wrap(&mut self, text: &str, font: Font, width: f32) -> Vec<String> {
        let (lines, cut) = self.flow.ts.wrap_checked(text, font, width);
        if cut {
            self.warnings.push(format!(
                "after-action report: '{text}' has a word too long for its line"
            ));
        }
        lines
    }

    fn paragraph(&mut self, font: Font, text: &str) {
        let w = self.flow.text_width();
        for line in self.wrap(text, font, w) {
            self.flow.line(0.0, font, &line);
        }
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
        self.paragraph(title.sized(size), &campaign.name);
        let sub = self.body().colored(self.colors.muted);
        self.paragraph(
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
        for (result, battle) in results.iter().zip(record.battles()) {
            let name = battle.plan.title();
            let names = self.wrap(&name, bold, column - 2.0);
            let outcome = standing_words(self.campaign, result);
            let lines = self.wrap(&outcome, small, width - column);
            let rows = names.len().max(lines.len());
            self.flow.ensure(small.line_height() * rows as f32);
            let top = self.flow.y;
            for (k, name) in names.iter().enumerate() {
                let baseline = top + k as f32 * small.line_height() + cap_height(small.size_pt);
                let item = self.flow.ts.run(self.flow.left(), baseline, bold, name);
                self.flow.push(item);
            }
            for line in lines {
                self.flow.line(column, small, &line);
            }
            self.flow.y = top + rows as f32 * small.line_height();
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
        let lines = self.wrap(left, bold, w - right_w - 8.0);
        let height = bold.line_height() * lines.len() as f32 + 3.0;
        self.flow.ensure(height);
        let y = self.flow.y;
        let band = self.ink.panel(x, y, w, height, self.colors.band);
        self.flow.push(band);
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

    fn battle(
        &mut self,
        battle: &Battle<'_>,
        result: &BattleResult,
        board: Option<&Board>,
        by_turn: &[Sides<u32>],
    ) {
        let title = battle.plan.title();
        let font = Font::new(FontStyle::Bold, self.style.title_size_pt * 0.8, self.accent);
        let size = self
            .flow
            .ts
            .fit_size(&title, font, 9.0, self.flow.text_width(), 1);
        self.flow.ensure(font.line_height() * 4.0);
        self.paragraph(font.sized(size), &title);
        match (battle.plan, battle.plan.board_setup()) {
            (BattlePlan::Simple(plan), _) => self.simple_battle(plan, result),
            (_, Some(setup)) if setup.opening.is_some() => {
                self.briefed_battle(&setup, result, board, by_turn);
            }
            (_, Some(setup)) => self.table_battle(&setup, result, board),
            (_, None) => self.result_band(result),
        }
        self.event_log(battle, &title);
    }

    /// A scripted campaign's battle: its briefing, result, the score turn by turn (Army
    /// Morale in Lorraine) and the units lost.
    fn briefed_battle(
        &mut self,
        setup: &BoardSetup<'_>,
        result: &BattleResult,
        board: Option<&Board>,
        by_turn: &[Sides<u32>],
    ) {
        let opening = setup.opening.as_deref().cloned().unwrap_or_default();
        let muted = self.body().colored(self.colors.muted);
        self.paragraph(muted, &format!("{} · {}", opening.time, opening.place));
        self.flow.y += 1.5;
        self.result_band(result);
        self.paragraph(self.muted(), &format!("Victory: {}", opening.victory));
        let Some(board) = board else {
            return;
        };
        if result.score.is_some() {
            self.morale(by_turn);
        }
        self.units_lost(setup, board);
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

    /// The score (Army Morale) at the start and after each turn: a table, then the same as a
    /// chart.
    fn morale(&mut self, by_turn: &[Sides<u32>]) {
        let heading = crate::rules::battle::table::engine(self.campaign.ruleset)
            .map_or("Score", |e| e.score_name);
        self.heading(heading.trim_end_matches(" left"));
        if by_turn.len() < 2 {
            let start: Vec<String> = SIDES
                .iter()
                .map(|&side| {
                    let start = by_turn.first().map_or(0, |s| *s.get(side));
                    format!("{} {start}", self.side(side))
                })
                .collect();
            self.paragraph(
                self.body(),
                &format!("Not fought yet. At the start: {}.", start.join(", ")),
            );
            return;
        }
        self.morale_table(by_turn);
        self.flow.y += 2.0;
        self.flow.ensure(CHART_MM);
        let series: Vec<Series> = SIDES
            .iter()
            .map(|&side| Series {
                label: self.side(side),
                values: by_turn.iter().map(|m| *m.get(side)).collect(),
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
        let caption = "At the start (turn 0) and at the end of each turn; a loss counts in \
                       the turn it happened.";
        let (items, cut) = line_chart(self.flow.ts, &chart, &series, caption);
        for text in cut {
            self.warnings.push(format!(
                "after-action report: '{text}' is too long for the score chart"
            ));
        }
        for item in items {
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
    fn morale_table(&mut self, by_turn: &[Sides<u32>]) {
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
        let turns: Vec<usize> = (0..by_turn.len()).collect();
        for chunk in turns.chunks(per_row) {
            self.flow.ensure(row_h * 3.0);
            let y = self.flow.y;
            let band = self.ink.panel(
                left,
                y,
                label_w + cell_w * chunk.len() as f32,
                row_h,
                self.colors.band,
            );
            self.flow.push(band);
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
                        by_turn
                            .get(t)
                            .map_or(String::new(), |m| m.get(side).to_string())
                    })
                    .collect();
                rows.push((label.clone(), small, values));
            }
            for (label, font, cells) in rows {
                let baseline = self.flow.y + 0.6 + cap_height(font.size_pt);
                // A long side name takes another line rather than losing its end.
                let labels = self.wrap(&label, bold, label_w - 3.0);
                for (k, line) in labels.iter().enumerate() {
                    let at = baseline + k as f32 * small.line_height();
                    self.flow.push(ts.run(left + 0.5, at, bold, line));
                }
                for (i, cell) in cells.iter().enumerate() {
                    let cw = ts.width(cell, font);
                    let x = left + label_w + cell_w * i as f32 + (cell_w - cw) / 2.0;
                    self.flow.push(ts.run(x, baseline, font, cell));
                }
                self.flow.y += row_h + (labels.len().max(1) - 1) as f32 * small.line_height();
            }
            self.flow.y += 1.0;
        }
    }

    /// The units each side lost, side by side, each with when it went as its ruleset says.
    fn units_lost(&mut self, setup: &BoardSetup<'_>, board: &Board) {
        self.heading("Units lost");
        let columns: Vec<(String, Vec<String>)> = SIDES
            .iter()
            .map(|&side| {
                let fielded: Vec<&BoardUnit> = board
                    .side_units(side)
                    .filter(|u| !u.has(crate::rules::battle::board::LOST_EARLIER))
                    .collect();
                let lost: Vec<String> = fielded
                    .iter()
                    .filter(|u| !u.in_play())
                    .map(|u| {
                        let standing = crate::rules::battle::table::unit_standing(&setup.plan, u);
                        match standing.badges.first() {
                            Some(badge) => format!("{} — {}", u.label, badge.label.to_lowercase()),
                            None => u.label.clone(),
                        }
                    })
                    .collect();
                let head = format!(
                    "{}: {} of {} units",
                    self.side(side),
                    lost.len(),
                    fielded.len()
                );
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
        // A long force name in a head takes more lines, never an ellipsis.
        let heads: Vec<Vec<String>> = columns
            .iter()
            .map(|(head, _)| self.wrap(head, bold, col_w))
            .collect();
        let head_lines = heads.iter().map(Vec::len).max().unwrap_or(1);
        self.flow
            .ensure(bold.line_height() * head_lines as f32 + small.line_height());
        let first = self.flow.y + cap_height(bold.size_pt);
        for (x, head) in xs.iter().zip(&heads) {
            for (k, line) in head.iter().enumerate() {
                let baseline = first + k as f32 * bold.line_height();
                self.flow.push(ts.run(*x, baseline, bold, line));
            }
        }
        self.flow.y += bold.line_height() * head_lines as f32;
        let mut cuts = Vec::new();
        let wrapped: Vec<Vec<Vec<String>>> = columns
            .iter()
            .map(|(_, items)| {
                if items.is_empty() {
                    vec![vec![empty.to_string()]]
                } else {
                    items
                        .iter()
                        .map(|i| {
                            let (lines, cut) = ts.wrap_checked(i, small, col_w);
                            if cut {
                                cuts.push(i.clone());
                            }
                            lines
                        })
                        .collect()
                }
            })
            .collect();
        for cut in cuts {
            self.warnings.push(format!(
                "after-action report: '{cut}' has a word too long for its line"
            ));
        }
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
        // The players' reason is in the result band above; it is not printed twice.
        self.heading("Unit fates");
        let columns: Vec<(String, Vec<String>)> = SIDES
            .iter()
            .map(|&side| (self.side(side), result.losses.get(side).clone()))
            .collect();
        self.two_columns(&columns, "no fate recorded");
    }

    /// A battle fought on a board: the forces, the result, and every unit as the battle left
    /// it (what it lost, its marks).
    fn table_battle(
        &mut self,
        setup: &BoardSetup<'_>,
        result: &BattleResult,
        board: Option<&Board>,
    ) {
        let plan = &setup.plan;
        self.flow.y += 1.5;
        self.result_band(result);
        if let Some(score) = &result.score {
            let text: Vec<String> = SIDES
                .iter()
                .map(|&side| format!("{} {}", self.side(side), score.get(side)))
                .collect();
            self.paragraph(self.muted(), &format!("Score: {}", text.join(", ")));
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
                // A side named after its force says the name once.
                let (who, force) = (self.side(side), plan.forces.get(side));
                let head = if who.contains(force.as_str()) {
                    who
                } else {
                    format!("{who} ({force})")
                };
                (head, units)
            })
            .collect();
        self.two_columns(&columns, "no units");
    }
}

/// Where a battle stands, in words: "German (Bob) won: US Army Morale reduced to 0".
fn standing_words(campaign: &Campaign, result: &BattleResult) -> String {
    let headline = match result.standing {
        Standing::NotStarted => "Not fought yet".to_string(),
        Standing::InProgress => "Still being fought".to_string(),
        Standing::Draw => "Drawn".to_string(),
        Standing::FirstWon | Standing::SecondWon => match result.standing.winner() {
            Some(side) => format!("{} won", side_label(campaign, side)),
            None => "Drawn".to_string(),
        },
    };
    let mut words = if result.reason.trim().is_empty() {
        headline
    } else {
        format!("{headline}: {}", result.reason.trim())
    };
    if let (Some(score), Ok(engine)) = (
        &result.score,
        crate::rules::battle::table::engine(campaign.ruleset),
    ) && result.standing != Standing::NotStarted
        && campaign.kind() == crate::campaign::CampaignKind::Scripted
    {
        words.push_str(&format!(
            " ({}: {} {}, {} {})",
            engine.score_name,
            crate::campaign::sides::side_name(campaign, Side::First),
            score.first,
            crate::campaign::sides::side_name(campaign, Side::Second),
            score.second
        ));
    }
    words
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
