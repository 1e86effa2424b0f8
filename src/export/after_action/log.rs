//! A battle's event log in the after-action report: each entry's number, time and what
//! happened in the campaign's own words ([`describe`]), taken-back entries struck through,
//! the log's header repeated on every page it runs onto.

use std::collections::{BTreeSet, HashSet};

use super::Report;
use crate::campaign::describe::describe;
use crate::campaign::{Battle, BattlePlan, LoggedEvent};
use crate::export::display::{Item, Segment, Stroke};
use crate::export::fonts::FontStyle;
use crate::export::text::{Font, cap_height};

/// Column widths of the event log: sequence number and time of day.
const SEQ_MM: f32 = 8.0;
const TIME_MM: f32 = 11.0;

impl Report<'_> {
    /// Every recorded event with its number and time; taken-back events struck through.
    /// Who recorded the entries is said once for the battle (and again only where another
    /// player's entries start), not on every line.
    pub(super) fn event_log(&mut self, battle: &Battle<'_>, title: &str) {
        self.heading("Event log");
        if battle.events.is_empty() {
            self.paragraph(self.body(), "Nothing recorded yet.");
            return;
        }
        let recorders: BTreeSet<String> = battle
            .events
            .iter()
            .map(|e| e.by.label())
            .filter(|who| !who.is_empty())
            .collect();
        let by = match recorders.iter().next().map(String::as_str) {
            None => String::new(),
            // A library with no player's name records "on vm": "Recorded on vm", not "by on vm".
            Some(who) if recorders.len() == 1 && who.starts_with("on ") => {
                format!(" Recorded {who}.")
            }
            Some(who) if recorders.len() == 1 => format!(" Recorded by {who}."),
            _ => " Each player's name stands where their entries start.".to_string(),
        };
        self.paragraph(
            self.muted(),
            &format!(
                "Times are as recorded (UTC). Struck-through entries were taken back with an \
                 undo; the undo and redo entries themselves are listed where they were made.{by}"
            ),
        );
        self.flow.y += 1.0;
        self.log_header();
        let undone = undone_events(battle);
        let mut last_by = String::new();
        for logged in battle.events {
            let who = logged.by.label();
            // With one recorder the intro names them; with several, a name where it changes.
            let shown = (recorders.len() > 1 && who != last_by).then(|| who.clone());
            last_by = who;
            self.log_row(
                battle.plan,
                logged,
                undone.contains(&logged.seq),
                shown.as_deref(),
                title,
            );
        }
    }

    fn log_header(&mut self) {
        let ts = self.flow.ts;
        let font = Font::new(FontStyle::Bold, self.style.small_size_pt, self.colors.muted);
        let h = font.line_height() + 1.6;
        let (x, w) = (self.flow.left(), self.flow.text_width());
        self.flow.ensure(h * 2.0);
        let y = self.flow.y;
        let band = self.ink.panel(x, y, w, h, self.colors.band);
        self.flow.push(band);
        let baseline = y + 0.8 + cap_height(font.size_pt);
        let seq_w = ts.width("#", font);
        self.flow
            .push(ts.run(x + SEQ_MM - 1.5 - seq_w, baseline, font, "#"));
        self.flow.push(ts.run(x + SEQ_MM, baseline, font, "Time"));
        self.flow
            .push(ts.run(x + SEQ_MM + TIME_MM, baseline, font, "What happened"));
        self.flow.y += h + 0.6;
    }

    fn log_row(
        &mut self,
        plan: &BattlePlan,
        logged: &LoggedEvent,
        undone: bool,
        by: Option<&str>,
        title: &str,
    ) {
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
        if let Some(who) = by.filter(|w| !w.is_empty()) {
            text.push_str(&format!(" — {who}"));
        }
        let (x, w) = (self.flow.left(), self.flow.text_width());
        let text_x = x + SEQ_MM + TIME_MM;
        let lines = self.wrap(&text, font, w - SEQ_MM - TIME_MM);
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
                self.flow.push(Item::Line(Segment {
                    x1: run.x,
                    y1: mid,
                    x2: run.x + run.width,
                    y2: mid,
                    stroke: Stroke::solid(self.colors.muted, 0.5),
                }));
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
        self.paragraph(font, &format!("{title} — event log, continued"));
        self.flow.y += 1.0;
        self.log_header();
    }
}

/// The sequence numbers of events currently taken back by an undo.
fn undone_events(battle: &Battle<'_>) -> HashSet<u32> {
    battle.undone()
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
