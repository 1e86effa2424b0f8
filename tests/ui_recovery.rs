//! The window never goes black: a refused library opens the recovery screen (path, problem,
//! backups with dates, "Restore this backup", "Choose another data folder"), and a campaign that
//! cannot be read says so in full with the backup to turn to.

mod store_support;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use quartermaster::store::Store;
use quartermaster::ui::recovery::Start;
use quartermaster::ui::{CampaignCommand, Command, Launch, Model, Prefs};
use store_support::{db_file, sample_force};

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
    let opened = Store::open(dir).map_err(anyhow::Error::from);
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
