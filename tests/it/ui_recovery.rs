//! The window never goes black: a refused library opens the recovery screen (path, problem,
//! backups with dates, "Restore this backup", "Choose another data folder"), and a campaign that
//! cannot be read says so in full with the backup to turn to.

use crate::store_support;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use quartermaster::store::Store;
use quartermaster::ui::recovery::Start;
use quartermaster::ui::{CampaignCommand, Command, Facets, Launch, Model, Prefs};
use store_support::{db_file, sample_card, sample_force};

/// A data folder whose library is garbage, with one good backup holding a force.
fn refused_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    {
        let mut store = Store::open(dir.path()).unwrap();
        store.save_force(None, &sample_force(3, 2)).unwrap();
        let backups = dir.path().join("backups");
        std::fs::create_dir_all(&backups).unwrap();
        store
            .backup_to(&backups.join("quartermaster-20260314T093005.123Z-manual.sqlite3"))
            .unwrap();
    }
    std::fs::write(db_file(dir.path()), "not a database at all".repeat(100)).unwrap();
    dir
}

fn harness(dir: &std::path::Path) -> Harness<'static, Start> {
    let opened = Store::open(dir)
        .map(Model::start)
        .map_err(anyhow::Error::from);
    assert!(opened.is_err(), "the library is refused");
    let start = Start::new(opened, dir, Prefs::default(), Launch::default());
    Harness::builder()
        .with_size(egui::vec2(1100.0, 700.0))
        .build_ui_state(|ui, start: &mut Start| start.show(ui), start)
}

#[test]
fn a_refused_library_shows_the_problem_and_restores_a_backup_with_one_click() {
    let dir = refused_folder();
    let mut h = harness(dir.path());
    h.run();
    assert!(
        h.query_by_label("Quartermaster cannot open its library")
            .is_some()
    );
    assert!(
        h.query_by_label_contains("is not a Quartermaster database")
            .is_some()
    );
    assert!(h.query_by_label("2026-03-14 09:30 UTC").is_some());
    assert!(h.query_by_label("Choose another data folder").is_some());
    h.get_by_label("Restore this backup").click();
    // The app that replaces the screen settles its theme over a few frames.
    h.run_steps(8);
    assert!(matches!(h.state(), Start::Ready(_)), "the app is up");
    let store = Store::open(dir.path()).unwrap();
    assert_eq!(
        store.load_forces().unwrap()[0].force.name,
        sample_force(3, 2).name
    );
}

#[test]
fn another_data_folder_can_be_opened_from_the_recovery_screen() {
    let dir = refused_folder();
    let other = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path());
    h.run();
    h.get_by_label("Folder").focus();
    h.run();
    h.get_by_label("Folder")
        .type_text(&other.path().display().to_string());
    h.run();
    h.get_by_label("Open this folder").click();
    h.run_steps(8);
    assert!(matches!(h.state(), Start::Ready(_)));
    assert!(db_file(other.path()).exists());
}

#[test]
fn an_unreadable_campaign_shows_the_whole_message_and_its_backup() {
    let dir = tempfile::tempdir().unwrap();
    let id = {
        let mut store = Store::open(dir.path()).unwrap();
        let record = quartermaster::campaign::CampaignRecord::new(
            quartermaster::store::new_campaign_uid(),
            quartermaster::campaign::new_lorraine("Lezey", Default::default(), Default::default())
                .unwrap(),
        );
        let stored = store.create_campaign_record(&record).unwrap();
        let backups = dir.path().join("backups");
        std::fs::create_dir_all(&backups).unwrap();
        store
            .backup_to(&backups.join("quartermaster-20260101T000000.000Z-manual.sqlite3"))
            .unwrap();
        stored.id
    };
    rusqlite::Connection::open(db_file(dir.path()))
        .unwrap()
        .execute("UPDATE campaigns SET body = '{\"name\": 5}'", [])
        .unwrap();
    let mut model = Model::new(Store::open(dir.path()).unwrap());
    model.apply(Command::Campaign(CampaignCommand::Open(id)));
    let notice = model.notices.last().expect("an error is shown");
    assert!(notice.is_error);
    assert!(
        notice.text.contains("cannot open this campaign"),
        "{}",
        notice.text
    );
    assert!(notice.text.contains("campaigns row"), "{}", notice.text);
    assert!(
        notice.text.contains("quartermaster db restore"),
        "{}",
        notice.text
    );
    assert!(
        notice.text.contains("20260101T000000.000Z"),
        "{}",
        notice.text
    );
}

/// Waits for the model's background thread to finish (a few milliseconds here).
fn settle(model: &mut Model) {
    let started = std::time::Instant::now();
    while model.poll_background() {
        assert!(
            started.elapsed().as_secs() < 30,
            "the background thread never finished"
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

#[test]
fn custom_cards_loaded_in_the_background_keep_the_edits_made_meanwhile() {
    let dir = tempfile::tempdir().unwrap();
    let mut ids = Vec::new();
    {
        let mut store = Store::open(dir.path()).unwrap();
        for i in 0..40 {
            ids.push(store.save_custom_card(None, &sample_card(i)).unwrap());
        }
    }
    let mut model = Model::start_loading_from(Store::open(dir.path()).unwrap(), 1);
    assert_eq!(model.card_loading().map(|(_, total)| total), Some(40));
    assert!(model.custom_cards.is_empty(), "the cards come later");
    // Edits before the cards arrive: one renamed, one deleted, one new.
    let renamed = store_support::renamed(&sample_card(3), "Renamed while loading");
    model.apply(Command::SaveCustomCard {
        id: Some(ids[3]),
        card: renamed,
    });
    model.apply(Command::DeleteCustomCard(ids[7]));
    model.apply(Command::SaveCustomCard {
        id: None,
        card: sample_card(100),
    });
    settle(&mut model);
    assert_eq!(model.card_loading(), None);
    let names: Vec<&str> = model.custom_cards.iter().map(|(_, c)| c.name()).collect();
    assert_eq!(names.len(), 40, "{names:?}");
    assert!(
        names.contains(&"Renamed while loading"),
        "{names:?} {:?}",
        model.notice_log
    );
    assert!(!names.contains(&sample_card(3).name()));
    assert!(!names.contains(&sample_card(7).name()));
    assert!(names.contains(&sample_card(100).name()));
    // The model's list is the store's, in the store's order, and the search finds them all.
    let stored: Vec<(quartermaster::store::CardId, String)> = Store::open(dir.path())
        .unwrap()
        .custom_cards()
        .unwrap()
        .into_iter()
        .map(|(id, c)| (id, c.name().to_string()))
        .collect();
    let shown: Vec<(quartermaster::store::CardId, String)> = model
        .custom_cards
        .iter()
        .map(|(id, c)| (*id, c.name().to_string()))
        .collect();
    assert_eq!(shown, stored);
    assert_eq!(
        model.search_cards(None, "renamed while").len(),
        1,
        "the search index follows the edits"
    );
    assert_eq!(
        *model.facets(),
        Facets::of(model.card_facts()),
        "the counts by ruleset, side and type follow the edits"
    );
    let all = model.card_entries(None).len();
    let counted: usize = quartermaster::rules::RulesetId::ALL
        .iter()
        .map(|id| model.facets().count(*id))
        .sum();
    assert_eq!(counted, all);
}

#[test]
fn one_card_edit_keeps_the_stores_order_without_reading_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let mut model = Model::start(Store::open(dir.path()).unwrap());
    settle(&mut model);
    // Names that sort differently by case, accents and length.
    for name in ["beta", "Alpha", "ALPHA", "Zulu", "alpha 2", "Éclair", "_x"] {
        model.apply(Command::SaveCustomCard {
            id: None,
            card: store_support::renamed(&sample_card(0), name),
        });
    }
    let stored: Vec<String> = Store::open(dir.path())
        .unwrap()
        .custom_cards()
        .unwrap()
        .into_iter()
        .map(|(_, c)| c.name().to_string())
        .collect();
    let shown: Vec<String> = model
        .custom_cards
        .iter()
        .map(|(_, c)| c.name().to_string())
        .collect();
    assert_eq!(shown, stored);
}
