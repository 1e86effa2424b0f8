//! The desktop window. Views read state and return actions; [`QuartermasterApp::apply`] is the
//! one place state changes.

mod library;

use anyhow::{Result, anyhow};

pub use library::{LibraryState, LibraryView};

/// How the window is launched.
#[derive(Debug, Clone, Default)]
pub struct Launch {
    /// Close after this many frames (smoke tests under Xvfb).
    pub frames: Option<u64>,
}

/// Something a view asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Library(library::LibraryAction),
}

/// The whole app's state.
#[derive(Debug, Default)]
pub struct QuartermasterApp {
    pub library: LibraryState,
    frames_left: Option<u64>,
}

impl QuartermasterApp {
    pub fn new(launch: &Launch) -> Self {
        QuartermasterApp {
            library: LibraryState::default(),
            frames_left: launch.frames,
        }
    }

    /// Applies one action.
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::Library(action) => self.library.apply(action),
        }
    }

    /// Draws the whole window into `ui` and applies what the views asked for.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let actions = LibraryView::new(&self.library).ui(ui);
        for action in actions {
            self.apply(Action::Library(action));
        }
    }
}

impl eframe::App for QuartermasterApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
        if let Some(frames) = &mut self.frames_left {
            if *frames == 0 {
                ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
            } else {
                *frames -= 1;
                // Smoke runs must reach their frame count without input.
                ui.ctx().request_repaint();
            }
        }
    }
}

/// Opens the window and runs until it closes.
pub fn run(launch: Launch) -> Result<()> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Quartermaster")
            .with_inner_size([1200.0, 780.0])
            .with_min_inner_size([640.0, 400.0]),
        ..Default::default()
    };
    eframe::run_native(
        "Quartermaster",
        options,
        Box::new(move |_cc| Ok(Box::new(QuartermasterApp::new(&launch)))),
    )
    .map_err(|e| anyhow!("could not open the window: {e}"))
}
