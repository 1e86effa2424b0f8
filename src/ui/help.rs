//! Help pages beyond the shortcut list: the project's rulings (the text the app's "house
//! default" marks point to) and what this build is and where it keeps its data.

use super::action::Action;
use super::model::Model;

/// The project's rulings, as shipped in `docs/rulings.md`.
const RULINGS: &str = include_str!("../../docs/rulings.md");

/// A Help page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelpPage {
    Rulings,
    About,
}

impl HelpPage {
    pub const ALL: [HelpPage; 2] = [HelpPage::Rulings, HelpPage::About];

    pub fn menu_label(self) -> &'static str {
        match self {
            HelpPage::Rulings => "Rulings (house defaults)",
            HelpPage::About => "About and data folder",
        }
    }
}

/// The page's window; closing it (✕ or Escape) returns the action that hides it.
pub fn window(ctx: &egui::Context, page: HelpPage, model: &Model) -> Vec<Action> {
    let mut open = true;
    let title = match page {
        HelpPage::Rulings => "Rulings",
        HelpPage::About => "About Quartermaster",
    };
    egui::Window::new(title)
        .open(&mut open)
        .collapsible(false)
        .default_width(560.0)
        .show(ctx, |ui| match page {
            HelpPage::Rulings => rulings(ui),
            HelpPage::About => about(ui, model),
        });
    if open && !ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
        Vec::new()
    } else {
        vec![Action::Help(None)]
    }
}

fn rulings(ui: &mut egui::Ui) {
    egui::ScrollArea::vertical()
        .max_height(ui.ctx().content_rect().height() * 0.7)
        .show(ui, |ui| {
            for block in blocks(RULINGS) {
                match block {
                    Block::Title(title) => {
                        ui.heading(title);
                    }
                    Block::Section(title) => {
                        ui.add_space(6.0);
                        ui.heading(title);
                    }
                    Block::Ruling(title) => {
                        ui.add_space(4.0);
                        ui.strong(title);
                    }
                    Block::Text(text) => {
                        ui.add(egui::Label::new(text).wrap());
                    }
                }
            }
        });
}

/// A piece of the rulings page as the window shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Block {
    Title(String),
    Section(String),
    Ruling(String),
    Text(String),
}

/// The rulings' Markdown as headings and plain paragraphs: a heading may sit directly above
/// its text, and the marks meant for a Markdown reader (`**`, backticks) are dropped.
fn blocks(markdown: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut text: Vec<&str> = Vec::new();
    let flush = |text: &mut Vec<&str>, blocks: &mut Vec<Block>| {
        if !text.is_empty() {
            let joined = text.join(" ").replace("**", "").replace('`', "");
            blocks.push(Block::Text(joined));
            text.clear();
        }
    };
    for line in markdown.lines() {
        let line = line.trim_end();
        let heading = if let Some(t) = line.strip_prefix("### ") {
            Some(Block::Ruling(t.to_string()))
        } else if let Some(t) = line.strip_prefix("## ") {
            Some(Block::Section(t.to_string()))
        } else {
            line.strip_prefix("# ").map(|t| Block::Title(t.to_string()))
        };
        match heading {
            Some(block) => {
                flush(&mut text, &mut blocks);
                blocks.push(block);
            }
            None if line.trim().is_empty() => flush(&mut text, &mut blocks),
            None => text.push(line.trim()),
        }
    }
    flush(&mut text, &mut blocks);
    blocks
}

fn about(ui: &mut egui::Ui, model: &Model) {
    ui.label(format!(
        "Quartermaster {} — army builder and campaign manager for Armour Battles, BelloLudi \
         Tanks!, Battle of Tanks, Bolt Action and Belle Epoque.",
        env!("CARGO_PKG_VERSION")
    ));
    ui.add_space(6.0);
    egui::Grid::new("about").num_columns(2).show(ui, |ui| {
        ui.strong("Database");
        let path = model
            .store_path()
            .map_or("in memory (nothing is kept)".to_string(), |p| {
                p.display().to_string()
            });
        ui.add(egui::Label::new(path).wrap());
        ui.end_row();
        ui.strong("Backups");
        ui.label("the backups folder beside the database: one before every upgrade or restore, and any you make with quartermaster db backup");
        ui.end_row();
        ui.strong("Preferences");
        let folder = model.store_path().and_then(std::path::Path::parent);
        ui.add(
            egui::Label::new(match folder {
                Some(dir) => format!(
                    "{} (window size, view, library filters, the last force and campaign; saved at quit)",
                    dir.join(super::PREFS_FILE).display()
                ),
                None => "not kept: this window has no data folder".to_string(),
            })
            .wrap(),
        );
        ui.end_row();
        ui.strong("Crash reports");
        ui.label(format!(
            "the {} folder beside the database: written if the program ever stops because of a bug, never sent anywhere",
            crate::crash::REPORTS_DIR
        ));
        ui.end_row();
        ui.strong("Another folder");
        ui.label("quartermaster --data-dir DIR, or QUARTERMASTER_DATA_DIR=DIR");
        ui.end_row();
    });
    ui.add_space(6.0);
    ui.label(
        "Where the books leave a number or a procedure open, the app follows its own rulings \
         (Help › Rulings); every such value is marked \"house default\".",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heading_directly_above_its_text_is_its_own_block() {
        let page = "# Rulings\nIntro `code` and **bold**.\n\n## Armour\n### Rally Table\nLine one\nline two.\n";
        assert_eq!(
            blocks(page),
            [
                Block::Title("Rulings".into()),
                Block::Text("Intro code and bold.".into()),
                Block::Section("Armour".into()),
                Block::Ruling("Rally Table".into()),
                Block::Text("Line one line two.".into()),
            ]
        );
    }

    #[test]
    fn every_ruling_the_app_cites_has_a_heading() {
        let rulings: Vec<String> = blocks(RULINGS)
            .into_iter()
            .filter_map(|b| match b {
                Block::Ruling(t) => Some(t),
                _ => None,
            })
            .collect();
        for cited in ["Rally Table", "Direct fire", "Command dice", "Visibility"] {
            assert!(rulings.iter().any(|r| r == cited), "{cited}: {rulings:?}");
        }
    }
}
