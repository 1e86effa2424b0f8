//! `--frame-log FILE`: one line per frame of the real window — when it was drawn and how long
//! the frame before it took (egui, tessellation, painting and the buffer swap, as eframe
//! measures it) — so responsiveness with a club's library can be measured under Xvfb rather
//! than estimated from benchmarks of the view code alone. A frame whose actions changed the
//! data says so in its note ("Save custom card: …", "New force: …", "Edit force: Add …"), so a
//! script driving the window can check that its clicks did what it meant.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Instant;

use super::Command;

/// An open frame log.
#[derive(Debug)]
pub struct FrameLog {
    out: BufWriter<File>,
    started: Instant,
    frame: u64,
    /// Whether custom cards were still loading at the last frame, to note when they arrive.
    loading: bool,
    /// Whether a campaign was being opened in the background at the last frame.
    opening: bool,
    /// Whether army data was being imported in the background at the last frame.
    importing: bool,
    /// Whether the League's folder was being read in the background at the last frame.
    league: bool,
    /// What this frame's actions changed, written with the frame.
    applied: Vec<String>,
}

impl FrameLog {
    /// Creates `path` (with a header line); `started` is when the program began opening.
    pub fn create(path: &Path, started: Instant) -> std::io::Result<FrameLog> {
        let mut out = BufWriter::new(File::create(path)?);
        writeln!(out, "frame\tat_ms\tprevious_frame_ms\tnote\tview_ms")?;
        Ok(FrameLog {
            out,
            started,
            frame: 0,
            loading: false,
            opening: false,
            importing: false,
            league: false,
            applied: Vec::new(),
        })
    }

    /// Notes that an action of this frame changed the data; `what` is said on the frame's line.
    pub fn applied(&mut self, what: &str) {
        // One line a frame, one column a field: a name typed with a tab must not add a column.
        let what: String = what
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        self.applied.push(what);
    }

    /// Records a frame; `previous` is eframe's time for the frame before, in seconds;
    /// `loading` whether custom cards are still loading in the background, `opening` whether a
    /// campaign is being opened there, `importing` whether army data is being imported there,
    /// `league` whether the League's folder is being read there; `view` how long this frame's view code took (the
    /// part of a frame that is ours, without egui's tessellation and the painting).
    pub fn record(
        &mut self,
        previous: Option<f32>,
        loading: bool,
        opening: bool,
        importing: bool,
        league: bool,
        view: std::time::Duration,
    ) {
        self.frame += 1;
        let at = self.started.elapsed().as_secs_f64() * 1000.0;
        let previous = previous.map_or(String::from("-"), |s| format!("{:.2}", s * 1000.0));
        let note = match (self.loading, loading, self.opening, opening) {
            (false, true, ..) => "custom cards loading",
            (true, false, ..) => "custom cards loaded",
            (.., false, true) => "campaign opening",
            (.., true, false) => "campaign opened",
            _ => match (self.importing, importing, self.league, league) {
                (false, true, ..) => "army data importing",
                (true, false, ..) => "army data imported",
                (.., false, true) => "league reading",
                (.., true, false) => "league read",
                _ => "",
            },
        };
        let note = std::iter::once(note)
            .filter(|n| !n.is_empty())
            .chain(self.applied.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join("; ");
        self.applied.clear();
        self.importing = importing;
        self.league = league;
        self.loading = loading;
        self.opening = opening;
        // A log that cannot be written is only a lost measurement.
        let view = view.as_secs_f64() * 1000.0;
        let _ = writeln!(
            self.out,
            "{}\t{at:.1}\t{previous}\t{note}\t{view:.2}",
            self.frame
        );
        let _ = self.out.flush();
    }
}

/// What a command that changed the data did, for its frame's note: the command, and the force,
/// card or history entry it names where it names one.
pub fn applied_note(command: &Command) -> String {
    match command {
        Command::NewForce { name, .. } => format!("New force: {name}"),
        Command::Edit { label, .. } => format!("Edit force: {label}"),
        Command::SaveCustomCard { card, .. } => format!("Save custom card: {}", card.name()),
        other => other.kind().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_frame_changed_is_noted_on_its_line_only() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("frames.tsv");
        let mut log = FrameLog::create(&path, Instant::now()).expect("the log opens");
        let none = std::time::Duration::ZERO;
        log.record(None, true, false, false, false, none);
        log.applied("New force: Club\tnight");
        log.applied("Edit force: Add Sherman");
        log.record(Some(0.004), false, false, false, false, none);
        log.record(Some(0.004), false, false, false, false, none);
        drop(log);
        let text = std::fs::read_to_string(&path).expect("the log is written");
        let notes: Vec<&str> = text
            .lines()
            .skip(1)
            .map(|line| line.split('\t').nth(3).unwrap_or("missing"))
            .collect();
        assert_eq!(
            notes,
            [
                "custom cards loading",
                "custom cards loaded; New force: Club night; Edit force: Add Sherman",
                "",
            ]
        );
    }
}
