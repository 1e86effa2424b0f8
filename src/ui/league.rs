//! The League view: a club's folder of campaigns ranked ([`crate::campaign::league`]), the
//! files left out and why, and each campaign's battles one click away.
//!
//! The view only shows what [`super::App`] read: Refresh and "Choose folder…" are actions, and
//! the folder is read by the app on a thread of its own ([`super::league_read`]), read only.
//! While it is read the view says how far it has got, and the last table stays shown until the
//! new one is ready; a first read shows the table of the campaigns verified so far, growing.

use std::path::PathBuf;

use crate::campaign::league::{COLUMNS, CampaignEntry, HOUSE_DEFAULTS, League, PlayerRow};
use crate::sync::league::{LeagueCache, Skipped};

use super::Action;
use super::league_read::LeagueRead;
use super::theme::{self, Gap, Status, icons};

/// What the League view keeps between frames.
#[derive(Debug, Default)]
pub struct LeagueState {
    /// The folder as typed or chosen.
    pub folder: String,
    /// Whether the folder field was given its default once (the open campaign's shared folder).
    pub defaulted: bool,
    /// The last read, when it worked.
    pub shown: Option<LeagueShown>,
    /// Why the last read failed (the folder could not be read).
    pub error: Option<String>,
    /// The read under way, if any.
    pub reading: Option<LeagueRead>,
    /// What the last read opened, for the next to open only what changed; away with the read
    /// under way while there is one.
    pub cache: LeagueCache,
    /// The cache as the library keeps it for the next session, as last kept or read there.
    pub kept: Option<String>,
}

/// One read of the folder, as the view shows it.
#[derive(Debug, Clone)]
pub struct LeagueShown {
    pub folder: PathBuf,
    pub league: League,
    pub skipped: Vec<Skipped>,
    /// Files opened by that read: none when every file was as an earlier read left it.
    pub files_read: usize,
}

/// Draws the view; the folder field is the only state it changes itself.
pub fn ui(state: &mut LeagueState, ui: &mut egui::Ui) -> Vec<Action> {
    let LeagueState {
        folder,
        shown,
        error,
        reading,
        ..
    } = state;
    let mut actions = Vec::new();
    egui::CentralPanel::default().show(ui, |ui| {
        ui.heading("League");
        ui.label("Every campaign in a folder the club shares (campaign exports and shared-campaign folders), its players ranked. The folder is only read.");
        ui.horizontal(|ui| {
            let field = super::campaign::labelled_field(
                ui,
                "Folder",
                folder,
                "/home/me/Sync/club",
                420.0,
            );
            let enter =
                field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button("Choose folder…").clicked() {
                actions.push(Action::PickLeagueFolder);
            }
            let path = folder.trim();
            // One read at a time: Refresh waits for the one under way.
            let can_read = !path.is_empty() && reading.is_none();
            if (ui
                .add_enabled(can_read, egui::Button::new("Refresh"))
                .clicked()
                || enter)
                && can_read
            {
                actions.push(Action::ReadLeague(PathBuf::from(path)));
            }
        });
        if let Some(reading) = reading {
            reading_line(reading, ui);
        }
        if let Some(error) = error {
            ui.colored_label(theme::tokens(ui).danger(), format!("{} {error}", icons::DANGER));
        }
        let Some(shown) = shown else {
            if let Some(reading) = reading {
                // A first read: the campaigns verified so far, ranked, while the rest are.
                if let Some(league) = reading.table_so_far() {
                    let said = format!(
                        "{}: the table so far, from the {} verified (the rest are being read)",
                        reading.folder.display(),
                        crate::rules::words::amount(league.campaigns.len() as u64, "campaigns")
                    );
                    ui.separator();
                    egui::ScrollArea::vertical()
                        .auto_shrink([false, false])
                        .show(ui, |ui| league_body(&said, &league, &[], ui));
                }
                return;
            }
            ui.vertical_centered(|ui| {
                theme::empty_state(
                    ui,
                    icons::LEAGUE,
                    "No league drawn yet",
                    "Choose the club's folder, then Refresh: every campaign in it is ranked, and nothing in it is changed.",
                );
            });
            return;
        };
        ui.separator();
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                league_body(&read_line(shown), &shown.league, &shown.skipped, ui);
            });
    });
    actions
}

/// How far the read under way has got: a bar, "Reading 37 of 200 files…".
fn reading_line(reading: &LeagueRead, ui: &mut egui::Ui) {
    let (done, total) = reading.progress();
    let said = if total == 0 {
        format!("Reading {}…", reading.folder.display())
    } else {
        format!("Reading {done} of {total} files…")
    };
    theme::progress(ui, done, total, said, 360.0);
}

/// What a finished read read: "club: 200 campaigns read".
fn read_line(shown: &LeagueShown) -> String {
    let LeagueShown {
        folder,
        league,
        files_read,
        ..
    } = shown;
    let campaigns = crate::rules::words::amount(league.campaigns.len() as u64, "campaigns");
    if *files_read == 0 && !league.campaigns.is_empty() {
        format!(
            "{}: {campaigns}, no file changed since the last read",
            folder.display()
        )
    } else {
        format!("{}: {campaigns} read", folder.display())
    }
}

/// The table under `said` (what was read), the files left out, and each campaign's battles.
fn league_body(said: &str, league: &League, skipped: &[Skipped], ui: &mut egui::Ui) {
    ui.weak(said);
    if league.players.is_empty() {
        ui.label("No finished battles to rank.");
    } else {
        players_table(&league.players, ui);
    }
    let t = theme::tokens(ui);
    if !skipped.is_empty() {
        theme::section_heading(ui, "Skipped");
        for s in skipped {
            ui.colored_label(
                t.warning(),
                format!("{} {}: {}", icons::WARNING, s.file, s.reason),
            );
        }
    }
    ui.add_space(t.gap(Gap::M));
    for note in HOUSE_DEFAULTS {
        ui.weak(note);
    }
    theme::section_heading(ui, "Campaigns");
    for (index, campaign) in league.campaigns.iter().enumerate() {
        campaign_battles(index, campaign, ui);
    }
}

fn players_table(players: &[PlayerRow], ui: &mut egui::Ui) {
    egui::Grid::new("league_table")
        .striped(true)
        .spacing([16.0, 4.0 * theme::tokens(ui).scale])
        .show(ui, |ui| {
            for column in COLUMNS {
                ui.strong(column);
            }
            ui.end_row();
            for row in players {
                // The leaders stand out; the rest of the table stays plain.
                if row.rank == 1 {
                    theme::pill(ui, Status::Ok, "1");
                    ui.strong(&row.player);
                } else {
                    ui.label(row.rank.to_string());
                    ui.label(&row.player);
                }
                for number in [row.played, row.won, row.drawn, row.lost, row.points] {
                    ui.label(number.to_string());
                }
                ui.label(
                    row.measure
                        .map_or_else(|| "–".to_string(), |m| m.to_string()),
                );
                ui.label(row.campaigns.join(", "));
                ui.end_row();
            }
        });
}

/// One campaign, collapsed to its title; open, its battles.
fn campaign_battles(index: usize, campaign: &CampaignEntry, ui: &mut egui::Ui) {
    let title = format!(
        "{} ({}) · {} v {} · {}",
        campaign.name,
        campaign.ruleset,
        campaign.players.first().map_or("", String::as_str),
        campaign.players.get(1).map_or("", String::as_str),
        campaign.file
    );
    egui::CollapsingHeader::new(title)
        .id_salt(("league_campaign", index))
        .show(ui, |ui| {
            if campaign.battles.is_empty() {
                ui.weak("No battles yet.");
                return;
            }
            egui::Grid::new(("league_battles", index))
                .spacing([16.0, 2.0])
                .show(ui, |ui| {
                    for battle in &campaign.battles {
                        ui.label(crate::campaign::battle_title(battle.number, &battle.name));
                        ui.label(&battle.standing);
                        ui.weak(&battle.reason);
                        ui.end_row();
                    }
                });
        });
}
