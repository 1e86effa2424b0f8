//! The button that just recorded an action stays greyed while a double click's second click
//! could still land on it: the same request by the same unit or side, while the log is as the
//! action left it, for a moment. The moment matters as much as the log: after both sides'
//! Command Failure the next thing to do is the very same "Roll command dice", and a player who
//! has read the roll must be able to press it again.

use crate::rules::battle::Request;

/// How long, in seconds, a button stays greyed after it recorded: longer than any double
/// click (egui counts 0.3 s), shorter than reading what the roll gave.
pub const GUARD_SECONDS: f64 = 1.5;

/// The last request a button recorded, the log length after it and when.
#[derive(Debug, Clone, PartialEq)]
pub struct JustDone {
    request: Request,
    log_len: usize,
    at: f64,
}

impl JustDone {
    pub fn new(request: Request, log_len: usize, at: f64) -> Self {
        Self {
            request,
            log_len,
            at,
        }
    }

    /// Whether `request`'s button is still greyed with the log at `log_len` at time `now`.
    pub fn holds(&self, request: &Request, log_len: usize, now: f64) -> bool {
        self.log_len == log_len && same_button(&self.request, request) && self.left(now) > 0.0
    }

    /// Seconds until the button comes back (repaint then, or nothing wakes the window).
    pub fn left(&self, now: f64) -> f64 {
        GUARD_SECONDS - (now - self.at)
    }
}

/// Two requests from the same button: the same action by the same unit or side, with the
/// same inputs (a chain's face, a form's situation).
fn same_button(a: &Request, b: &Request) -> bool {
    a.action == b.action && a.unit == b.unit && a.side == b.side && a.inputs == b.inputs
}

/// Whether a button pressed at `at` (egui's time) is still greyed, asking for a repaint when
/// it comes back: for buttons that add rather than record (a battle), where no log length
/// tells the second click of a double click from a wish for another.
pub fn pressed_lately(at: Option<f64>, ui: &egui::Ui) -> bool {
    let Some(at) = at else { return false };
    let left = GUARD_SECONDS - (ui.input(|i| i.time) - at);
    if left > 0.0 {
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_secs_f64(left));
    }
    left > 0.0
}

/// How long, in seconds, clicks are held off a page that just scrolled by itself: a double
/// click's second click comes within egui's 0.3 s.
pub const SCROLL_HOLD_SECONDS: f64 = 0.4;

/// Swallows clicks on `view` for a moment after `since` (egui's time), when the page scrolled
/// by itself: a double click's second click would otherwise land on whatever the scroll put
/// under the pointer. Nothing is drawn; the pointer simply finds no button for that moment.
/// Called every frame the page is shown: the layer is there, empty and out of the pointer's
/// way, between holds, because egui keeps a new layer out of reach for its first frame.
/// Returns whether it held a press this frame (which takes the keyboard from where it was).
pub fn hold_clicks(ui: &egui::Ui, view: egui::Rect, since: Option<f64>) -> bool {
    let left = since.map_or(0.0, |since| {
        SCROLL_HOLD_SECONDS - (ui.input(|i| i.time) - since)
    });
    if left > 0.0 {
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_secs_f64(left));
    }
    let size = if left > 0.0 {
        view.size()
    } else {
        egui::Vec2::ZERO
    };
    egui::Area::new(egui::Id::unique(HELD_CLICKS))
        .order(egui::Order::Foreground)
        .interactable(left > 0.0)
        .fixed_pos(view.min)
        .show(ui.ctx(), |ui| {
            let (_, held) = ui.allocate_exact_size(size, egui::Sense::click());
            held.is_pointer_button_down_on() || held.clicked()
        })
        .inner
}

/// The layer [`hold_clicks`] puts over the page.
pub const HELD_CLICKS: &str = "held_clicks";

/// Whether `request`'s button is greyed now, asking for a repaint when it comes back.
pub fn greyed(done: Option<&JustDone>, request: &Request, log_len: usize, ui: &egui::Ui) -> bool {
    let now = ui.input(|i| i.time);
    match done {
        Some(done) if done.holds(request, log_len, now) => {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs_f64(done.left(now)));
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_button_is_greyed_for_a_moment_while_the_log_is_as_it_left_it() {
        let roll = Request::new("roll_command");
        let done = JustDone::new(roll.clone(), 4, 10.0);
        assert!(done.holds(&roll, 4, 10.2), "a double click's second click");
        assert!(
            !done.holds(&roll, 4, 10.0 + GUARD_SECONDS),
            "read, then pressed again"
        );
        assert!(!done.holds(&roll, 5, 10.2), "the log moved on");
        assert!(
            !done.holds(&Request::new("end_turn"), 4, 10.2),
            "another button"
        );
    }
}
