//! `--frame-log FILE`: one line per frame of the real window — when it was drawn and how long
//! the frame before it took (egui, tessellation, painting and the buffer swap, as eframe
//! measures it) — so responsiveness with a club's library can be measured under Xvfb rather
//! than estimated from benchmarks of the view code alone.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Instant;

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
        })
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
