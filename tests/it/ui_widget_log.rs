//! `--widget-log`: the window's labelled widgets and where they are, as `benches/real_window.sh`
//! reads them to click by label (egui_kittest, no display needed).

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use quartermaster::ui::{App, View, WidgetLog};

/// One widget as the log lists it.
#[derive(Debug)]
struct Logged {
    role: String,
    rect: egui::Rect,
    focused: bool,
}

/// The app at `pixels_per_point` with its widget log in a temporary folder, drawn once.
fn logging(pixels_per_point: f32) -> (Harness<'static, App>, tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("widgets.tsv");
    let app = App::for_tests().expect("in-memory store opens");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1200.0, 780.0))
        .with_pixels_per_point(pixels_per_point)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    h.ctx.add_plugin(WidgetLog::new(&path));
    h.run();
    (h, dir, path)
}

/// What the widget log holds, as (label, widget) pairs.
fn read(path: &Path) -> Vec<(String, Logged)> {
    let text = std::fs::read_to_string(path).expect("the widget log is written");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("label\trole\tx\ty\tw\th\tfocused"));
    lines
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 7, "{line}");
            let n = |i: usize| fields[i].parse::<f32>().expect("a number");
            let rect = egui::Rect::from_min_size(egui::pos2(n(2), n(3)), egui::vec2(n(4), n(5)));
            let role = fields[1].to_string();
            let focused = fields[6] == "1";
            (
                fields[0].to_string(),
                Logged {
                    role,
                    rect,
                    focused,
                },
            )
        })
        .collect()
}

fn only<'a>(widgets: &'a [(String, Logged)], label: &str) -> &'a Logged {
    let found: Vec<&Logged> = widgets
        .iter()
        .filter(|(l, _)| l == label)
        .map(|(_, w)| w)
        .collect();
    assert_eq!(found.len(), 1, "{label}: {found:?}");
    found[0]
}

#[test]
fn the_library_search_field_is_listed_by_its_label_where_it_is_drawn() {
    let (mut h, _dir, path) = logging(1.0);
    let widgets = read(&path);
    let search = only(&widgets, "Search");
    assert_eq!(search.role, "TextInput");
    let drawn = h.get_by_label("Search").rect();
    assert!(
        (search.rect.min - drawn.min).length() <= 1.0
            && (search.rect.size() - drawn.size()).length() <= 1.0,
        "logged {:?}, drawn {drawn:?}",
        search.rect
    );
    assert!(search.rect.width() >= 100.0 && search.rect.height() >= 10.0);
    assert!(!search.focused);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::F);
    h.run();
    assert!(
        only(&read(&path), "Search").focused,
        "Ctrl+F gives it the keys, and the log says so"
    );
}

#[test]
fn a_click_at_the_centre_the_log_gives_in_pixels_lands_on_the_widget() {
    // At two pixels a point the log's pixels are twice egui's points.
    let (mut h, _dir, path) = logging(2.0);
    let widgets = read(&path);
    let forces = only(&widgets, "Forces");
    let drawn = h.get_by_label("Forces").rect();
    assert!((forces.rect.center() - drawn.center() * 2.0).length() <= 1.0);
    let at = forces.rect.center() / 2.0;
    h.event(egui::Event::PointerMoved(at));
    h.run();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.run();
    }
    assert_eq!(h.state().prefs.view, View::Forces);
}
