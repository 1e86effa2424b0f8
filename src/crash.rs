//! Crash reports that stay on the machine.
//!
//! A bug that panics used to leave nothing behind but a line on a terminal nobody saw. The hook
//! installed here writes a plain-text report into the data folder's `crash-reports/` — the
//! version, the system, the panic and its backtrace, and the last things the user asked for —
//! and says where it is; the next window start offers to copy it or open its folder. Nothing is
//! sent anywhere.
//!
//! The "last actions" are the names of what was asked ("Navigate", "Model: Edit", "command: force
//! show"), recorded by the front ends through [`note`]: never a force, card, campaign, name or
//! path, so a report can be passed on without showing anyone's lists.

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::{Instant, SystemTime};

/// The folder of the data directory that holds the reports.
pub const REPORTS_DIR: &str = "crash-reports";
/// How many recent actions a report lists.
const ACTIONS_KEPT: usize = 40;
/// The file that remembers the newest report the window has already told the user about.
const SEEN_FILE: &str = "seen";

/// What the hook needs at the moment of a panic, set before anything can go wrong.
struct Context {
    data_dir: Option<PathBuf>,
    front: &'static str,
    started: Instant,
    actions: VecDeque<(f64, String)>,
}

fn context() -> &'static Mutex<Context> {
    static CONTEXT: OnceLock<Mutex<Context>> = OnceLock::new();
    CONTEXT.get_or_init(|| {
        Mutex::new(Context {
            data_dir: None,
            front: "library",
            started: Instant::now(),
            actions: VecDeque::new(),
        })
    })
}

/// Installs the panic hook: from now on a panic writes a report into `data_dir`'s
/// `crash-reports/` (when the data folder is known) and tells stderr where it is. `front` says
/// which part of the program ran ("window", "command line").
pub fn install(data_dir: Option<PathBuf>, front: &'static str) {
    set_data_dir(data_dir);
    if let Ok(mut ctx) = context().lock() {
        ctx.front = front;
    }
    std::panic::set_hook(Box::new(|info| {
        let backtrace = std::backtrace::Backtrace::force_capture();
        let text = report_text(&panic_message(info), &backtrace.to_string());
        match write_report(&text) {
            Some(path) => eprintln!(
                "Quartermaster stopped because of a bug. A report was saved on this computer \
                 (it holds no forces, cards or campaigns; nothing was sent): {}",
                path.display()
            ),
            None => eprintln!("Quartermaster stopped because of a bug:\n{text}"),
        }
    }));
}

/// Where reports go from now on (the window may learn its data folder after the hook is in).
pub fn set_data_dir(data_dir: Option<PathBuf>) {
    if let Ok(mut ctx) = context().lock() {
        ctx.data_dir = data_dir;
    }
}

/// Records that the user asked for `action` (a name, never data) for the next report.
pub fn note(action: impl Into<String>) {
    if let Ok(mut ctx) = context().lock() {
        let at = ctx.started.elapsed().as_secs_f64();
        ctx.actions.push_back((at, action.into()));
        while ctx.actions.len() > ACTIONS_KEPT {
            ctx.actions.pop_front();
        }
    }
}

fn panic_message(info: &std::panic::PanicHookInfo<'_>) -> String {
    let payload = info.payload();
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_string());
    let place = info
        .location()
        .map(|l| format!(" at {}:{}", l.file(), l.line()))
        .unwrap_or_default();
    let thread = std::thread::current()
        .name()
        .unwrap_or("unnamed")
        .to_string();
    format!("thread '{thread}' panicked{place}: {message}")
}

/// The whole report as text.
fn report_text(panic: &str, backtrace: &str) -> String {
    let (front, actions, uptime) = match context().lock() {
        Ok(ctx) => (
            ctx.front,
            ctx.actions.iter().cloned().collect::<Vec<_>>(),
            ctx.started.elapsed().as_secs_f64(),
        ),
        Err(_) => ("unknown", Vec::new(), 0.0),
    };
    let mut text = String::new();
    let _ = writeln!(text, "Quartermaster crash report");
    let _ = writeln!(
        text,
        "Written on this computer only; it holds no forces, cards or campaigns."
    );
    let _ = writeln!(text);
    let _ = writeln!(text, "version   {}", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(
        text,
        "time      {}",
        crate::store::utc_stamp(SystemTime::now())
    );
    let _ = writeln!(text, "system    {}", system());
    let _ = writeln!(text, "part      {front}, {uptime:.1} s after start");
    let _ = writeln!(text);
    let _ = writeln!(text, "What happened");
    let _ = writeln!(text, "  {panic}");
    let _ = writeln!(text);
    let _ = writeln!(text, "Last actions (oldest first)");
    if actions.is_empty() {
        let _ = writeln!(text, "  none recorded");
    }
    for (at, action) in actions {
        let _ = writeln!(text, "  {at:>8.1} s  {action}");
    }
    let _ = writeln!(text);
    let _ = writeln!(text, "Backtrace");
    for line in backtrace.lines() {
        let _ = writeln!(text, "  {line}");
    }
    text
}

/// The operating system as a person would name it, with the processor architecture.
fn system() -> String {
    let pretty = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|release| {
            release.lines().find_map(|line| {
                line.strip_prefix("PRETTY_NAME=")
                    .map(|v| v.trim_matches('"').to_string())
            })
        });
    match pretty {
        Some(name) => format!(
            "{name} ({}, {})",
            std::env::consts::OS,
            std::env::consts::ARCH
        ),
        None => format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
    }
}

/// Writes `text` as a new report; `None` when there is no data folder or it cannot be written.
fn write_report(text: &str) -> Option<PathBuf> {
    let data_dir = context().lock().ok()?.data_dir.clone()?;
    let dir = reports_dir(&data_dir);
    std::fs::create_dir_all(&dir).ok()?;
    let stamp = crate::store::utc_stamp(SystemTime::now());
    let path = dir.join(format!("quartermaster-{stamp}-crash.txt"));
    std::fs::write(&path, text).ok()?;
    Some(path)
}

/// The reports folder of a data directory.
pub fn reports_dir(data_dir: &Path) -> PathBuf {
    data_dir.join(REPORTS_DIR)
}

/// The reports in `data_dir` written since the user was last told of one, newest first.
pub fn unseen_reports(data_dir: &Path) -> Vec<PathBuf> {
    let dir = reports_dir(data_dir);
    let seen = std::fs::read_to_string(dir.join(SEEN_FILE)).unwrap_or_default();
    let seen = seen.trim();
    let mut reports: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "txt"))
                // Names start with a sortable UTC time: later names are newer reports.
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n > seen)
                })
                .collect()
        })
        .unwrap_or_default();
    reports.sort();
    reports.reverse();
    reports
}

/// Remembers that the user has been told about every report up to `newest`.
///
/// # Errors
/// When the reports folder cannot be written.
pub fn mark_seen(data_dir: &Path, newest: &Path) -> std::io::Result<()> {
    let name = newest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    std::fs::write(reports_dir(data_dir).join(SEEN_FILE), name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_names_the_panic_the_version_and_the_last_actions() {
        note("Navigate");
        note("Model: Edit");
        let text = report_text("thread 'main' panicked at src/x.rs:1: boom", "0: frame");
        assert!(text.contains(env!("CARGO_PKG_VERSION")), "{text}");
        assert!(text.contains("panicked at src/x.rs:1: boom"), "{text}");
        let navigate = text.find("Navigate").expect("first action listed");
        let edit = text.find("Model: Edit").expect("second action listed");
        assert!(navigate < edit, "oldest first");
        assert!(text.contains("0: frame"), "the backtrace is in it");
    }

    #[test]
    fn reports_seen_once_are_not_offered_again() {
        let dir = tempfile::tempdir().unwrap();
        let reports = reports_dir(dir.path());
        std::fs::create_dir_all(&reports).unwrap();
        let older = reports.join("quartermaster-20260101T000000.000Z-crash.txt");
        let newer = reports.join("quartermaster-20260102T000000.000Z-crash.txt");
        std::fs::write(&older, "a").unwrap();
        std::fs::write(&newer, "b").unwrap();
        assert_eq!(unseen_reports(dir.path()), [newer.clone(), older.clone()]);
        mark_seen(dir.path(), &newer).unwrap();
        assert!(unseen_reports(dir.path()).is_empty());
        let newest = reports.join("quartermaster-20260103T000000.000Z-crash.txt");
        std::fs::write(&newest, "c").unwrap();
        assert_eq!(unseen_reports(dir.path()), [newest]);
    }
}
