//! Notices: short messages in the corner that go away by themselves after a few seconds
//! (errors stay longer), wait while the pointer rests on them, and stay in the session's
//! history (Help › Past notices, or the status bar).

use std::collections::HashMap;

use super::action::Action;
use super::model::{Command, Model, Notice};
use super::theme::{self, icons};

/// Seconds an information notice stays on screen.
pub const INFO_SECONDS: f64 = 4.0;
/// Seconds an error stays: long enough to read a path or a cause twice.
pub const ERROR_SECONDS: f64 = 8.0;
/// After the pointer leaves a notice, it stays at least this long.
const AFTER_HOVER_SECONDS: f64 = 2.0;
/// Notices shown at once; older ones wait in the history.
const ON_SCREEN: usize = 4;

/// When each notice on screen is due to go, on the window's clock.
#[derive(Debug, Default)]
pub struct NoticeTimers {
    deadline: HashMap<u64, f64>,
}

impl NoticeTimers {
    /// Starts the clock of new notices at `now`, holds them all while `hovered`, and returns
    /// the ids whose time is up.
    pub fn tick(&mut self, notices: &[Notice], now: f64, hovered: bool) -> Vec<u64> {
        self.deadline
            .retain(|id, _| notices.iter().any(|n| n.id == *id));
        let mut expired = Vec::new();
        for notice in notices {
            let seconds = if notice.is_error {
                ERROR_SECONDS
            } else {
                INFO_SECONDS
            };
            let deadline = self.deadline.entry(notice.id).or_insert(now + seconds);
            if hovered {
                *deadline = deadline.max(now + AFTER_HOVER_SECONDS);
            } else if *deadline <= now {
                expired.push(notice.id);
            }
        }
        expired
    }

    /// Seconds until the next notice is due, so the window wakes for it and no sooner.
    pub fn next_due(&self, now: f64) -> Option<f64> {
        self.deadline
            .values()
            .map(|d| (d - now).max(0.0))
            .min_by(f64::total_cmp)
    }
}

/// Draws the newest notices in the bottom-right corner and expires old ones.
pub fn show(ui: &mut egui::Ui, model: &Model, timers: &mut NoticeTimers) -> Vec<Action> {
    let mut actions = Vec::new();
    if model.notices.is_empty() {
        *timers = NoticeTimers::default();
        return actions;
    }
    let shown: Vec<&Notice> = model.notices.iter().rev().take(ON_SCREEN).collect();
    let area = egui::Area::new(egui::Id::unique("notices"))
        .anchor(egui::Align2::RIGHT_BOTTOM, [-12.0, -36.0])
        .show(ui.ctx(), |ui| {
            for notice in &shown {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.set_max_width(420.0);
                    ui.horizontal(|ui| {
                        notice_label(ui, notice);
                        if ui.small_button("✕").on_hover_text("Dismiss").clicked() {
                            actions.push(Action::Model(Command::DismissNotice(notice.id)));
                        }
                    });
                });
            }
        });
    let hovered = area.response.contains_pointer();
    let now = ui.input(|i| i.time);
    // Older notices beyond the ones shown wait their turn without a clock.
    let visible: Vec<Notice> = shown.into_iter().cloned().collect();
    for id in timers.tick(&visible, now, hovered) {
        actions.push(Action::Model(Command::DismissNotice(id)));
    }
    if let Some(due) = timers.next_due(now) {
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_secs_f64(due + 0.05));
    }
    actions
}

/// A notice's words, wrapped, after an icon that says which kind it is; an error in the
/// danger colour.
fn notice_label(ui: &mut egui::Ui, notice: &Notice) {
    let t = theme::tokens(ui);
    let (icon, colour) = if notice.is_error {
        (icons::DANGER, t.danger())
    } else {
        (icons::INFO, t.info())
    };
    ui.horizontal_top(|ui| {
        ui.label(egui::RichText::new(icon).color(colour).strong());
        let text = egui::RichText::new(&notice.text);
        let text = if notice.is_error {
            text.color(colour)
        } else {
            text
        };
        ui.add(egui::Label::new(text).wrap());
    });
}

/// The session's notices, newest first.
pub fn log_window(ctx: &egui::Context, model: &Model) -> Vec<Action> {
    let mut open = true;
    egui::Window::new("Past notices")
        .open(&mut open)
        .collapsible(false)
        .default_width(460.0)
        .show(ctx, |ui| {
            if model.notice_log.is_empty() {
                ui.label("Nothing yet this session.");
            }
            egui::ScrollArea::vertical()
                .max_height(360.0)
                .show(ui, |ui| {
                    for notice in model.notice_log.iter().rev() {
                        notice_label(ui, notice);
                        ui.separator();
                    }
                });
        });
    if open && !ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
        Vec::new()
    } else {
        vec![Action::ShowNoticeLog(false)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notice(id: u64, is_error: bool) -> Notice {
        Notice {
            id,
            text: format!("notice {id}"),
            is_error,
        }
    }

    #[test]
    fn information_goes_after_four_seconds_and_errors_after_eight() {
        let mut timers = NoticeTimers::default();
        let notices = [notice(1, false), notice(2, true)];
        assert!(timers.tick(&notices, 10.0, false).is_empty());
        assert!(timers.tick(&notices, 13.9, false).is_empty());
        assert_eq!(timers.tick(&notices, 14.0, false), [1]);
        assert_eq!(timers.tick(&notices[1..], 17.9, false), Vec::<u64>::new());
        assert_eq!(timers.tick(&notices[1..], 18.0, false), [2]);
    }

    #[test]
    fn a_notice_under_the_pointer_waits() {
        let mut timers = NoticeTimers::default();
        let notices = [notice(7, false)];
        timers.tick(&notices, 0.0, false);
        assert!(timers.tick(&notices, 30.0, true).is_empty());
        assert!(timers.tick(&notices, 31.0, false).is_empty());
        assert_eq!(timers.tick(&notices, 32.0, false), [7]);
    }

    #[test]
    fn the_window_wakes_when_the_next_notice_is_due() {
        let mut timers = NoticeTimers::default();
        timers.tick(&[notice(1, false)], 100.0, false);
        assert_eq!(timers.next_due(101.0), Some(3.0));
    }
}
