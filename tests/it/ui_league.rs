//! The League view clicked through with egui_kittest: a club's folder of two campaign exports
//! typed in, Refresh, the table read off the window, a damaged file named, and a campaign's
//! battles opened with one click.

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use quartermaster::campaign::{
    CampaignRecord, CampaignUid, Event, LorraineOptions, Sides, file, new_lorraine,
};
use quartermaster::rules::battle::Side;
use quartermaster::ui::{App, View};

/// A Lorraine campaign exported into `dir`, its first battles concluded as `winners` say.
fn export(dir: &std::path::Path, n: u128, name: &str, us: &str, german: &str, winners: &[Side]) {
    let players = Sides {
        first: us.to_string(),
        second: german.to_string(),
    };
    let campaign = new_lorraine(name, players, LorraineOptions::default()).unwrap();
    let mut record = CampaignRecord::new(CampaignUid(uuid::Uuid::from_u128(n)), campaign);
    for (index, winner) in winners.iter().enumerate() {
        record
            .append_numbered(
                index,
                "2026-11-27T10:00:00.000Z".to_string(),
                Event::BattleConcluded {
                    winner: Some(*winner),
                    notes: "took the ridge".to_string(),
                },
            )
            .unwrap();
    }
    let path = dir.join(format!("{}.json", name.to_lowercase()));
    std::fs::write(path, file::to_json(&record).unwrap()).unwrap();
}

fn shown(h: &Harness<'static, App>, text: &str) -> bool {
    h.query_all_by_label_contains(text).next().is_some()
}

/// Frames drawn until the League's read (started by the frame before) is done, the thread
/// given a moment between frames; the cap only stops a read that never ends from hanging the
/// suite.
fn until_read(h: &mut Harness<'static, App>) {
    const FRAME_CAP: usize = 5_000;
    for _ in 0..FRAME_CAP {
        if h.state().league.reading.is_none() {
            h.run();
            return;
        }
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    panic!("the league was still being read after {FRAME_CAP} frames");
}

#[test]
fn the_league_view_ranks_a_folder_of_two_campaigns() {
    let club = tempfile::tempdir().unwrap();
    export(
        club.path(),
        1,
        "Lezey",
        "Ann",
        "Bob",
        &[Side::First, Side::First],
    );
    export(club.path(), 2, "Moncourt", "Cid", "ann", &[Side::Second]);
    std::fs::write(club.path().join("notes.json"), "{ not a campaign").unwrap();

    let mut app = App::for_tests().unwrap();
    app.prefs.view = View::League;
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    h.run();
    assert!(shown(&h, "Choose the club's folder"));
    h.get_by_label("Folder").focus();
    h.run();
    h.get_by_label("Folder")
        .type_text(club.path().to_str().unwrap());
    h.run();
    h.get_by_label("Refresh").click();
    h.step();
    until_read(&mut h);

    let league = &h
        .state()
        .league
        .shown
        .as_ref()
        .expect("the folder was read")
        .league;
    let table: Vec<(u32, &str, u32, u32, u32)> = league
        .players
        .iter()
        .map(|r| (r.rank, r.player.as_str(), r.played, r.won, r.points))
        .collect();
    // Ann won two in Lezey and one in Moncourt (as "ann"); Bob lost two, Cid one: level on
    // points and wins, Bob is ahead on Army Morale left (German 7 + 10 against US 9).
    assert_eq!(
        table,
        [
            (1, "Ann", 3, 3, 9),
            (2, "Bob", 2, 0, 0),
            (3, "Cid", 1, 0, 0)
        ]
    );
    let measures: Vec<Option<u32>> = league.players.iter().map(|r| r.measure).collect();
    assert_eq!(measures, [Some(9 + 12 + 7), Some(7 + 10), Some(9)]);
    for text in [
        "Rank",
        "Points",
        "Army Morale left",
        "Ann",
        "Lezey, Moncourt",
        "9",
    ] {
        assert!(shown(&h, text), "{text} is in the window");
    }
    assert!(shown(&h, "notes.json: "), "the damaged file is named");
    assert!(shown(&h, "3 for a win, 1 for a draw"));

    // One click opens a campaign's battles.
    assert!(!shown(&h, "Battle 1: Meeting Engagement"));
    h.get_by_label_contains("Lezey (armour-battles)").click();
    h.run();
    assert!(shown(&h, "Battle 1: Meeting Engagement"));
    assert!(shown(&h, "US (Ann) won"));
    assert!(shown(&h, "took the ridge"));
}

/// A window of `size` on `app`'s League, its folder read once with Refresh.
fn refreshed(mut app: App, size: egui::Vec2) -> Harness<'static, App> {
    app.prefs.view = View::League;
    let mut h = Harness::builder()
        .with_size(size)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    h.run();
    h.get_by_label("Refresh").click();
    h.step();
    until_read(&mut h);
    h
}

/// One window session over the library in `library`: the League of `club` read once, and
/// what it showed with how many files it opened.
fn league_session(
    library: &std::path::Path,
    club: &std::path::Path,
) -> (quartermaster::campaign::league::League, usize, bool) {
    let store = quartermaster::store::Store::open(library).expect("the library opens");
    let mut app = App::new(
        quartermaster::ui::model::Model::new(store),
        quartermaster::ui::Prefs::default(),
        &quartermaster::ui::Launch::default(),
    );
    app.league.folder = club.display().to_string();
    let h = refreshed(app, egui::vec2(1400.0, 1000.0));
    let said = shown(&h, "no file changed since the last read");
    let read = h.state().league.shown.clone().expect("the folder was read");
    (read.league, read.files_read, said)
}

/// The League is kept in the library: a window opened later reads no file that did not change
/// and draws the same table, saying so; a campaign played on since is the only file read.
#[test]
fn a_league_opened_in_a_later_session_reads_only_what_changed() {
    let club = tempfile::tempdir().unwrap();
    let library = tempfile::tempdir().unwrap();
    export(club.path(), 1, "Lezey", "Ann", "Bob", &[Side::First]);
    export(club.path(), 2, "Moncourt", "Cid", "Ann", &[Side::Second]);

    let (first, opened, said) = league_session(library.path(), club.path());
    assert_eq!((opened, said), (2, false));
    let (again, opened, said) = league_session(library.path(), club.path());
    assert_eq!((opened, said), (0, true));
    assert_eq!(again, first);

    export(
        club.path(),
        2,
        "Moncourt",
        "Cid",
        "Ann",
        &[Side::Second, Side::First],
    );
    let (played_on, opened, _) = league_session(library.path(), club.path());
    assert_eq!(opened, 1);
    assert_ne!(played_on, first);
    assert_eq!(league_session(library.path(), club.path()).1, 0);
}

#[test]
fn a_folder_that_cannot_be_read_is_said_in_the_view() {
    let mut app = App::for_tests().unwrap();
    app.league.folder = "/nowhere/club".to_string();
    let h = refreshed(app, egui::vec2(1024.0, 700.0));
    assert!(shown(&h, "The league cannot be drawn"));
    assert!(shown(&h, "/nowhere/club"));
}

#[test]
fn the_league_is_read_in_the_background_the_old_table_shown_until_the_new_one_is_ready() {
    use quartermaster::ui::LeagueRead;
    let club = tempfile::tempdir().unwrap();
    export(club.path(), 1, "Lezey", "Ann", "Bob", &[Side::First]);
    let mut app = App::for_tests().unwrap();
    app.prefs.view = View::League;
    app.league.folder = club.path().display().to_string();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    h.run();
    h.get_by_label("Refresh").click();
    h.step();
    assert!(
        h.state().league.reading.is_some(),
        "the click started a read on a thread of its own"
    );
    until_read(&mut h);
    assert!(!shown(&h, "Reading "));
    assert!(shown(&h, "1 campaign read"));
    assert!(shown(&h, "Lezey (armour-battles)"));
    assert_eq!(
        h.state()
            .league
            .shown
            .as_ref()
            .unwrap()
            .league
            .campaigns
            .len(),
        1
    );

    // Another campaign arrives; while the folder is read again the old table stays. The read
    // is told by hand here, so what the frames show does not hang on a thread's timing.
    export(club.path(), 2, "Moncourt", "Cid", "Ann", &[Side::Second]);
    let (read, feed) = LeagueRead::pending(club.path().to_path_buf());
    h.state_mut().league.reading = Some(read);
    h.run_steps(2);
    assert!(shown(&h, "Reading "), "the progress bar is shown");
    assert!(
        shown(&h, "Lezey (armour-battles)"),
        "the old table stays shown"
    );
    assert!(h.get_by_label("Refresh").accesskit_node().is_disabled());
    // A second click while reading starts nothing (Refresh is disabled, and the app refuses
    // a second read): the read under way is still the one told by hand.
    h.get_by_label("Refresh").click();
    h.run_steps(2);
    let whole = quartermaster::sync::league::read_league_folder(club.path()).unwrap();
    feed.done(read_whole(club.path(), &whole));
    h.run();
    assert!(h.state().league.reading.is_none());
    let league = &h.state().league.shown.as_ref().unwrap().league;
    assert_eq!(league.campaigns.len(), 2);
    assert!(shown(&h, "Moncourt (armour-battles)"));
}

/// The read of `club` a reading thread would hand over: `whole`, ranked, its two files read.
fn read_whole(
    club: &std::path::Path,
    whole: &quartermaster::sync::league::LeagueFolder,
) -> quartermaster::ui::LeagueDone {
    quartermaster::ui::LeagueDone {
        folder: club.to_path_buf(),
        read: Ok((
            quartermaster::campaign::league::rank(&whole.sources),
            whole.skipped.clone(),
            2,
        )),
        cache: quartermaster::sync::league::LeagueCache::default(),
        saved: String::new(),
    }
}

/// The number in the environment variable `name`, or `default`.
fn number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// Fills `QM_POPULATE_DIR` with a club's league folder for timing by hand:
/// `QM_POPULATE_CAMPAIGNS` campaign exports (200 unless told) of `QM_POPULATE_EVENTS` signed
/// events each (1,000 unless told), every one a campaign of its own. Not a check: run with
/// `QM_POPULATE_DIR=/tmp/league cargo test --test it ui_league::populate -- --ignored`, then
/// `ui_league::time_the_league` (below).
#[test]
#[ignore = "fills a league folder for timing by hand"]
fn populate_a_league_folder() {
    let Ok(dir) = std::env::var("QM_POPULATE_DIR") else {
        return;
    };
    let (campaigns, events) = (
        number("QM_POPULATE_CAMPAIGNS", 200),
        number("QM_POPULATE_EVENTS", 1_000),
    );
    std::fs::create_dir_all(&dir).unwrap();
    for n in 0..campaigns {
        let id = CampaignUid(uuid::Uuid::from_u128(0x1ea9_0000 + n as u128));
        let record = quartermaster::campaign::script::long_campaign(id, events, 4).unwrap();
        let path = std::path::Path::new(&dir).join(format!("campaign-{n:03}.json"));
        std::fs::write(path, file::to_json(&record).unwrap()).unwrap();
    }
}

/// The League's frames while it reads `QM_LEAGUE_DIR` (made by `populate_a_league_folder`):
/// in each of `QM_LEAGUE_RUNS` window sessions (1 unless told), the first read, then
/// `QM_LEAGUE_REFRESHES` times (5 unless told) a refresh with nothing changed and a refresh
/// after one file was rewritten. Prints, for each read, the slowest frame (the whole of
/// `App::show` and egui's layout, as kittest draws it without painting) and how long until the
/// table was shown. A measurement, not a check:
/// `QM_LEAGUE_DIR=/tmp/league cargo test --test it ui_league::time -- --ignored --nocapture`.
#[test]
#[ignore = "times the League by hand"]
fn time_the_league() {
    let Ok(dir) = std::env::var("QM_LEAGUE_DIR") else {
        return;
    };
    let changed = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .expect("a campaign file to change");
    for session in 1..=number("QM_LEAGUE_RUNS", 1) {
        let mut app = App::for_tests().unwrap();
        app.prefs.view = View::League;
        app.league.folder = dir.clone();
        let mut h = Harness::builder()
            .with_size(egui::vec2(1400.0, 1000.0))
            .build_ui_state(|ui, app: &mut App| app.show(ui), app);
        h.run();
        println!("session {session}: first read: {}", timed_read(&mut h));
        for refresh in 1..=number("QM_LEAGUE_REFRESHES", 5) {
            println!(
                "session {session}: refresh {refresh}, nothing changed: {}",
                timed_read(&mut h)
            );
            let bytes = std::fs::read(&changed).unwrap();
            let temporary = changed.with_extension("partial");
            std::fs::write(&temporary, bytes).unwrap();
            std::fs::rename(&temporary, &changed).unwrap();
            println!(
                "session {session}: refresh {refresh}, one file changed: {}",
                timed_read(&mut h)
            );
        }
    }
}

/// Clicks Refresh and draws frames until the table is shown: how long that took, how long
/// until a first table (the campaigns verified so far, or the last read's) was on screen, and
/// the slowest frame meanwhile.
fn timed_read(h: &mut Harness<'static, App>) -> String {
    h.get_by_label("Refresh").click();
    let clicked = std::time::Instant::now();
    let mut slowest = std::time::Duration::ZERO;
    let mut frames = 0;
    let mut first_table = None;
    loop {
        let frame = std::time::Instant::now();
        h.step();
        slowest = slowest.max(frame.elapsed());
        frames += 1;
        let league = &h.state().league;
        let table = league.shown.is_some()
            || league
                .reading
                .as_ref()
                .is_some_and(|r| r.table_so_far().is_some());
        if table && first_table.is_none() {
            first_table = Some(clicked.elapsed());
        }
        if frames > 1 && h.state().league.reading.is_none() {
            break;
        }
        // About a frame's rest between frames, as a window at 60 Hz would have.
        std::thread::sleep(std::time::Duration::from_millis(16));
    }
    let campaigns = h
        .state()
        .league
        .shown
        .as_ref()
        .map_or(0, |s| s.league.campaigns.len());
    format!(
        "first table after {:.0} ms, whole table after {:.0} ms ({campaigns} campaigns), \
         {frames} frames, slowest {:.1} ms",
        first_table.unwrap_or_default().as_secs_f64() * 1000.0,
        clicked.elapsed().as_secs_f64() * 1000.0,
        slowest.as_secs_f64() * 1000.0
    )
}

/// A first read shows the campaigns verified so far, ranked, while the rest are read; the
/// whole table replaces it when the read is done. The read is told by hand here
/// (`LeagueRead::pending`), so what each frame shows does not hang on a thread's timing.
#[test]
fn a_first_read_shows_the_table_so_far_while_the_rest_is_read() {
    use quartermaster::sync::league::{Told, read_league_folder};
    use quartermaster::ui::LeagueRead;
    let club = tempfile::tempdir().unwrap();
    export(club.path(), 1, "Lezey", "Ann", "Bob", &[Side::First]);
    export(club.path(), 2, "Moncourt", "Cid", "Dee", &[Side::Second]);
    let whole = read_league_folder(club.path()).unwrap();
    let lezey = whole
        .sources
        .iter()
        .position(|s| s.campaign.name == "Lezey")
        .unwrap();

    let mut app = App::for_tests().unwrap();
    app.prefs.view = View::League;
    app.league.folder = club.path().display().to_string();
    let (read, feed) = LeagueRead::pending(club.path().to_path_buf());
    app.league.reading = Some(read);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    feed.told(&Told {
        done: 0,
        of: 2,
        at: 0,
        gave: &[],
    });
    h.run_steps(2);
    assert!(shown(&h, "Reading 0 of 2 files"));
    assert!(!shown(&h, "the table so far"), "nothing verified yet");

    feed.told(&Told {
        done: 1,
        of: 2,
        at: lezey,
        gave: std::slice::from_ref(&whole.sources[lezey]),
    });
    h.run_steps(2);
    assert!(shown(&h, "Reading 1 of 2 files"));
    assert!(shown(&h, "the table so far, from the 1 campaign verified"));
    assert!(shown(&h, "Lezey (armour-battles)"));
    assert!(!shown(&h, "Moncourt"), "not verified yet");
    assert!(
        shown(&h, "Ann"),
        "the winner of the campaign read is ranked"
    );
    assert!(h.get_by_label("Refresh").accesskit_node().is_disabled());

    feed.done(read_whole(club.path(), &whole));
    h.run();
    assert!(h.state().league.reading.is_none());
    assert!(!shown(&h, "the table so far"));
    assert!(shown(&h, "2 campaigns read"));
    assert!(shown(&h, "Moncourt (armour-battles)"));
}
