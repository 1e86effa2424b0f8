//! `--widget-log FILE`: the labelled widgets on screen and where they are, so a script driving
//! the real window (under Xvfb, with xdotool) can click a widget by its label rather than by
//! pixel coordinates that go stale whenever a layout changes.
//!
//! The labels are the ones a screen reader (and egui_kittest) sees: egui's AccessKit tree,
//! which it builds only while AccessKit is on, so the log turns it on for every frame. The file
//! is rewritten only when what it lists changes, and atomically (a temporary file renamed over
//! it), so a reader never sees half a list.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use egui::accesskit::{Node, NodeId, Role, TreeUpdate};

/// The file's first line: the columns, tab-separated.
pub const HEADER: &str = "label\trole\tx\ty\tw\th\tfocused";

/// The widget log, as an egui plugin: it sees each frame's output after the views are drawn.
#[derive(Debug)]
pub struct WidgetLog {
    path: PathBuf,
    /// What the file holds now, to write only when it changes.
    written: String,
}

impl WidgetLog {
    /// A log that will write `path` (nothing is written before the first frame).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            written: String::new(),
        }
    }

    fn write(&mut self, text: String) -> std::io::Result<()> {
        if text == self.written {
            return Ok(());
        }
        replace_file(&self.path, &text)?;
        self.written = text;
        Ok(())
    }
}

impl egui::Plugin for WidgetLog {
    fn debug_name(&self) -> &'static str {
        "widget log"
    }

    // Every frame, not once: eframe turns AccessKit off again when a screen reader leaves.
    fn input_hook(&mut self, ctx: &egui::Context, _input: &mut egui::RawInput) {
        ctx.enable_accesskit();
    }

    fn output_hook(&mut self, _ctx: &egui::Context, output: &mut egui::FullOutput) {
        let Some(update) = &output.platform_output.accesskit_update else {
            return;
        };
        let text = widget_table(update, output.pixels_per_point);
        // A log that cannot be written is only a lost measurement, said once per change.
        if let Err(error) = self.write(text) {
            eprintln!(
                "cannot write the widget log {}: {error}",
                self.path.display()
            );
        }
    }
}

/// The widgets of `update` that have a name and can be used: one line each, `label`, `role`,
/// the rectangle's left, top, width and height in physical pixels of the window (points times
/// `pixels_per_point`), and `focused` (1 for the widget keys go to: a script types only once
/// its click has given the field focus, or the first keys are lost); the header first and the
/// lines top to bottom, left to right.
/// A text that only names another widget ("Name" beside its field) is not listed by itself:
/// its widget carries its name, as in egui_kittest. Disabled widgets are left out, so a script
/// waiting for one waits until it can be clicked.
pub fn widget_table(update: &TreeUpdate, pixels_per_point: f32) -> String {
    let nodes: HashMap<NodeId, &Node> = update.nodes.iter().map(|(id, n)| (*id, n)).collect();
    let names_another: HashSet<NodeId> = update
        .nodes
        .iter()
        .flat_map(|(_, n)| n.labelled_by().iter().copied())
        .collect();
    let scale = f64::from(pixels_per_point);
    let mut rows: Vec<(i64, i64, String)> = update
        .nodes
        .iter()
        .filter(|(id, node)| {
            !names_another.contains(id) && !node.is_disabled() && node.role() != Role::TextRun
        })
        .filter_map(|(id, node)| {
            let name = name(node, &nodes)?;
            let b = node.bounds()?;
            let (x, y) = ((b.x0 * scale).round(), (b.y0 * scale).round());
            let (w, h) = (
                ((b.x1 - b.x0) * scale).round(),
                ((b.y1 - b.y0) * scale).round(),
            );
            let focused = u8::from(*id == update.focus);
            let line = format!(
                "{}\t{:?}\t{x}\t{y}\t{w}\t{h}\t{focused}",
                one_line(&name),
                node.role()
            );
            Some((y as i64, x as i64, line))
        })
        .collect();
    rows.sort();
    let mut table = String::from(HEADER);
    for (_, _, line) in rows {
        let _ = write!(table, "\n{line}");
    }
    table.push('\n');
    table
}

/// A widget's name as AccessKit gives it: its own label, else the texts it is labelled by,
/// else (a plain text) its value.
fn name(node: &Node, nodes: &HashMap<NodeId, &Node>) -> Option<String> {
    let text = |n: &Node| match n.role() {
        Role::Label => n.value().map(str::to_string),
        _ => n.label().map(str::to_string),
    };
    let name = match node.label() {
        Some(label) => label.to_string(),
        None if !node.labelled_by().is_empty() => node
            .labelled_by()
            .iter()
            .filter_map(|id| nodes.get(id).and_then(|n| text(n)))
            .collect::<Vec<_>>()
            .join(" "),
        None => text(node)?,
    };
    (!name.trim().is_empty()).then_some(name)
}

/// A label on one line of the table: tabs and line breaks become spaces.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Writes `text` to a temporary file beside `path` and renames it over `path`.
fn replace_file(path: &Path, text: &str) -> std::io::Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    std::fs::write(&temporary, text)?;
    std::fs::rename(&temporary, path)
}
