//! The window's side of one campaign on two machines, clicked through with egui_kittest: the
//! player name asked once, "Share this campaign to a folder…", Sync, the fork shown side by
//! side, a branch kept, then the set-aside one restored.

use crate::ui_support::{click, shown, type_into};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use quartermaster::campaign::result::Standing;
use quartermaster::campaign::{CampaignRecord, Event};
use quartermaster::rules::armour_battles::battle::actions::key;
use quartermaster::rules::battle::Request;
use quartermaster::store::Store;
use quartermaster::ui::model::Model;
use quartermaster::ui::{App, Launch, Prefs, View};

fn app_on(dir: &std::path::Path) -> App {
    let mut store = Store::open(dir).expect("the library opens");
    // The same page on every machine, whatever the computer running the tests is called.
    let machine = dir.file_name().and_then(|n| n.to_str()).unwrap_or("laptop");
    store
        .set_setting(quartermaster::store::SETTING_MACHINE_NAME, machine)
        .expect("the machine name is saved");
    let mut app = App::new(Model::new(store), Prefs::default(), &Launch::default());
    app.native_dialogs = false;
    app.prefs.view = View::Campaign;
    app
}

fn harness(app: App) -> Harness<'static, App> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 2000.0))
        // A window's frame rate: double clicks and rests are timed as a player makes them.
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app)
}

/// "Share this campaign to a folder…", the folder typed, Share.
fn share_to(h: &mut Harness<'static, App>, folder: &std::path::Path) {
    click(h, "Share this campaign to a folder…");
    type_into(h, "Folder", folder.to_str().unwrap());
    click(h, "Share");
}

/// Another machine's library joins the campaign shared in `folder`, as its player would.
fn join_with_the_command_line(data: &std::path::Path, folder: &std::path::Path) {
    let folder = folder.to_str().expect("a temporary path is text");
    crate::cli_support::qm_ok(data, &["campaign", "sync", "Lorraine 1944", folder]);
}

/// A window on the library in `dir` with a new Lorraine campaign open, no player named.
fn new_campaign_on(dir: &std::path::Path) -> Harness<'static, App> {
    let mut h = harness(app_on(dir));
    h.run();
    click(&mut h, "New Lorraine campaign");
    click(&mut h, "Not now");
    h
}

fn record(h: &Harness<'static, App>) -> CampaignRecord {
    crate::ui_support::record(h).clone()
}

#[test]
fn the_player_name_is_asked_once_and_signs_every_event_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(app_on(dir.path()));
    h.run();
    click(&mut h, "New Lorraine campaign");
    assert!(shown(&h, "Who is playing on this machine?"));
    type_into(&mut h, "Player name", "Ann");
    click(&mut h, "Save player name");
    assert!(!shown(&h, "Who is playing on this machine?"));
    assert!(shown(&h, "recording as Ann on"));
    click(&mut h, "Roll command dice");
    let logged = &record(&h).logs[0][0];
    assert_eq!(logged.by.player, "Ann");
    assert!(shown(&h, "— Ann on"), "the event log says who");
    drop(h);
    // Opened again, the window does not ask again.
    let mut h = harness(app_on(dir.path()));
    h.run();
    click(&mut h, "New Lorraine campaign");
    assert!(!shown(&h, "Who is playing on this machine?"));
}

/// At a laptop's 1024×700 the question of who plays here wraps its row: a row wider than the
/// page widened the whole page under it, so the unit cards ran under the scroll bar floating
/// at its right edge. Its buttons end clear of that bar, before the action panel.
#[test]
fn the_player_question_fits_a_laptops_window() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1024.0, 700.0))
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app_on(dir.path()));
    h.run();
    click(&mut h, "New Lorraine campaign");
    assert!(shown(&h, "Who is playing on this machine?"));
    let panel = h.get_by_label("Action").rect().min.x;
    let bar = egui::style::ScrollStyle::floating().bar_width;
    for label in ["Save player name", "Not now"] {
        let end = h.get_by_label(label).rect().max.x;
        assert!(
            end <= panel - bar,
            "{label} ends at {end}, under the scroll bar or past the page (the panel starts at {panel})"
        );
    }
}

#[test]
fn share_sync_and_settle_a_fork_in_the_window_then_restore_the_other_branch() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("shared");
    let mut laptop = new_campaign_on(&root.path().join("laptop"));
    assert!(!shown(&laptop, "Who is playing on this machine?"));
    share_to(&mut laptop, &folder);
    assert!(
        shown(&laptop, "Shared with"),
        "the campaign shows its folder"
    );
    assert!(laptop.query_by_label("Sync").is_some());

    // The desktop joins from the folder and rolls turn 1; so does the laptop.
    let desktop_dir = root.path().join("desktop");
    join_with_the_command_line(&desktop_dir, &folder);
    {
        let mut desktop = Store::open(&desktop_dir).unwrap();
        desktop.set_setting("player.name", "Bob").unwrap();
        let id = desktop.find_campaign("Lorraine 1944").unwrap().unwrap();
        let stored = desktop.load_campaign(id).unwrap();
        let event = stored
            .record
            .decide(
                0,
                &Request::new(key::ROLL_COMMAND),
                &desktop.recorder().unwrap(),
            )
            .unwrap()
            .event;
        let at = stored.record.next_position(0).unwrap();
        desktop
            .record_event(stored.battle_ids[0], at, &event)
            .unwrap();
        quartermaster::sync::sync_folder(&mut desktop, id, &folder).unwrap();
    }
    click(&mut laptop, "Roll command dice");
    click(&mut laptop, "Sync");
    assert!(shown(&laptop, "This battle is forked at its start"));
    assert!(
        shown(&laptop, "Recorded by Bob on"),
        "who recorded each branch"
    );
    assert!(
        laptop.query_by_label("Roll command dice").is_none(),
        "no recording while forked"
    );
    // Keep the desktop's branch — with a double click, as players do: the first click keeps
    // it, the second lands on whatever is there now and restores nothing.
    let fork = record(&laptop);
    let bobs = fork
        .open_fork(0)
        .unwrap()
        .branches
        .iter()
        .position(|b| b.events[0].by.player == "Bob")
        .unwrap();
    let at = laptop
        .query_all_by_label_contains("Keep this branch")
        .nth(bobs)
        .expect("one button per branch")
        .rect()
        .center();
    crate::ui_support::double_click_at(&mut laptop, at);
    let settled = record(&laptop);
    assert!(settled.open_fork(0).is_none());
    assert_eq!(settled.logs[0][0].by.player, "Bob");
    assert!(matches!(
        settled.logs[0][0].event,
        Event::Act(ref act) if act.action == key::ROLL_COMMAND
    ));
    let choices = settled
        .all_events(0)
        .filter(|e| matches!(e.event, Event::BranchChosen { .. }))
        .count();
    assert_eq!(
        choices, 1,
        "one choice recorded, the other branch not restored"
    );
    assert!(shown(&laptop, "Set aside branches (1)"));
    // Take the laptop's own roll back instead: it asks first, in a window of its own.
    click(&mut laptop, "Set aside branches (1)");
    click(&mut laptop, "Restore this branch…");
    assert!(
        record(&laptop).logs[0][0].by.player == "Bob",
        "only asked so far"
    );
    click(&mut laptop, "Restore this branch");
    let restored = record(&laptop);
    assert!(restored.open_fork(0).is_none());
    assert!(
        restored.logs[0][0].by.player.is_empty(),
        "the laptop's unsigned roll is played"
    );
    // The choices travel: Sync writes them, and the desktop merges them.
    click(&mut laptop, "Sync");
    let mut desktop = Store::open(&desktop_dir).unwrap();
    let id = desktop.find_campaign("Lorraine 1944").unwrap().unwrap();
    quartermaster::sync::sync_folder(&mut desktop, id, &folder).unwrap();
    let there = desktop.load_campaign(id).unwrap().record;
    assert_eq!(there.logs, restored.logs);
    assert_eq!(there.aside, restored.aside);
}

/// The fork says who must choose; the player list shows each key's fingerprint; Tidy folder…
/// lists the files by machine and removes the redundant one only after a second click on a row
/// of its own.
#[test]
fn who_must_choose_the_keys_and_tidying_the_folder_in_the_window() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("shared");
    let mut laptop = harness(app_on(&root.path().join("laptop")));
    laptop.run();
    click(&mut laptop, "New Lorraine campaign");
    type_into(&mut laptop, "Player name", "Ann");
    click(&mut laptop, "Save player name");
    share_to(&mut laptop, &folder);
    // Bob joins and rolls turn 1; Ann rolls it too before seeing his.
    let desktop_dir = root.path().join("desktop");
    let bin = env!("CARGO_BIN_EXE_quartermaster");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(bin)
            .arg("--data-dir")
            .arg(&desktop_dir)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(&["campaign", "player", "Bob", "--machine", "desktop"]);
    run(&[
        "campaign",
        "sync",
        "Lorraine 1944",
        folder.to_str().unwrap(),
    ]);
    run(&[
        "campaign",
        "record",
        "Lorraine 1944",
        "--battle",
        "1",
        "command",
    ]);
    click(&mut laptop, "Roll command dice");
    click(&mut laptop, "Sync");
    assert!(shown(&laptop, "one of the players chooses which goes on"));
    assert!(
        shown(
            &laptop,
            "Bob on desktop recorded one and Ann on laptop recorded one"
        ) || shown(
            &laptop,
            "Ann on laptop recorded one and Bob on desktop recorded one"
        )
    );
    click(&mut laptop, "Recorded by (2 keys)");
    let keys = record(&laptop).players();
    assert_eq!(keys.len(), 2);
    for key in &keys {
        assert!(
            shown(&laptop, &key.key.fingerprint()),
            "{}",
            key.key.fingerprint()
        );
    }
    // Bob's machine falls silent (his file unchanged for 40 days), and his file holds nothing
    // Ann's does not: it can go, after a second click.
    let bobs = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            std::fs::read_to_string(p)
                .is_ok_and(|t| t.lines().next().is_some_and(|h| h.contains("desktop")))
        })
        .unwrap();
    std::fs::File::options()
        .write(true)
        .open(&bobs)
        .unwrap()
        .set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(40 * 86_400))
        .unwrap();
    click(&mut laptop, "Tidy folder…");
    assert!(shown(&laptop, "this machine's"));
    click(&mut laptop, "Remove 1 file marked redundant…");
    let files = || std::fs::read_dir(&folder).unwrap().count();
    assert_eq!(files(), 2, "nothing removed on the first click");
    click(&mut laptop, "Remove them");
    assert_eq!(files(), 1);
    assert!(shown(&laptop, "Removed 1 file"));
}

/// "Undo this" after a sync undoes nothing it does not name: once the sync has brought the
/// other machine's event after this window's roll, the button is gone, and an undo asked for
/// by the roll's id records nothing.
#[test]
fn undo_this_after_a_sync_undoes_nothing_it_does_not_name() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("shared");
    let mut laptop = new_campaign_on(&root.path().join("laptop"));
    share_to(&mut laptop, &folder);
    click(&mut laptop, "Roll command dice");
    assert!(shown(&laptop, "Undo this"), "this window's roll");
    let mine = record(&laptop).logs[0].last().unwrap().id;
    click(&mut laptop, "Sync");

    // The desktop joins, and records a note after the laptop's roll.
    let desktop_dir = root.path().join("desktop");
    join_with_the_command_line(&desktop_dir, &folder);
    {
        let mut desktop = Store::open(&desktop_dir).unwrap();
        // Both libraries run on this one test machine: the desktop gets a name of its own.
        desktop
            .set_setting(quartermaster::store::SETTING_MACHINE_NAME, "desktop")
            .unwrap();
        let id = desktop.find_campaign("Lorraine 1944").unwrap().unwrap();
        let stored = desktop.load_campaign(id).unwrap();
        assert_eq!(stored.record.logs[0].last().map(|e| e.id), Some(mine));
        let at = stored.record.next_position(0).unwrap();
        let note = Event::Note {
            text: "from the desktop".into(),
        };
        desktop
            .record_event(stored.battle_ids[0], at, &note)
            .unwrap();
        quartermaster::sync::sync_folder(&mut desktop, id, &folder).unwrap();
    }

    click(&mut laptop, "Sync");
    let log = record(&laptop).logs[0].clone();
    assert!(
        matches!(log.last().unwrap().event, Event::Note { .. }),
        "the desktop's note came in"
    );
    assert!(
        laptop.query_by_label("Undo this").is_none(),
        "the latest event is not this window's"
    );
    assert!(
        shown(&laptop, "from the desktop — recorded on desktop"),
        "the status line says which machine the synced event came from"
    );
    laptop
        .state_mut()
        .model
        .apply(quartermaster::ui::Command::Campaign(
            quartermaster::ui::CampaignCommand::UndoEvent(mine),
        ));
    laptop.run();
    assert_eq!(record(&laptop).logs[0], log, "nothing undone");
}

/// Draws frames of `h` as the window does, its folder looked at before each, until `done`
/// says so (given the frame's request for the next look) or a minute has passed, far beyond
/// any look and read; returns the frames drawn and the last request.
fn look_until(
    h: &mut Harness<'static, App>,
    mut done: impl FnMut(&Harness<'static, App>, Option<std::time::Duration>) -> bool,
) -> (usize, Option<std::time::Duration>) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut frames = 0;
    loop {
        let again = h.state_mut().model.poll_folder();
        if done(h, again) || std::time::Instant::now() >= deadline {
            return (frames, again);
        }
        h.step();
        frames += 1;
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The window looks at an open shared campaign's folder on its own, reading the files on a
/// thread of its own: another machine's note appears without pressing Sync, while frames go on
/// being drawn.
#[test]
fn another_machines_event_appears_without_pressing_sync() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("shared");
    let laptop_dir = root.path().join("laptop");
    let mut store = Store::open(&laptop_dir).expect("the library opens");
    store
        .set_setting(quartermaster::store::SETTING_MACHINE_NAME, "laptop")
        .unwrap();
    // As the window starts it: the folder looked at every two seconds.
    let mut app = App::new(
        Model::start_loading_from(store, usize::MAX),
        Prefs::default(),
        &Launch::default(),
    );
    app.native_dialogs = false;
    app.prefs.view = View::Campaign;
    let mut laptop = harness(app);
    laptop.run();
    click(&mut laptop, "New Lorraine campaign");
    click(&mut laptop, "Not now");
    share_to(&mut laptop, &folder);

    let desktop_dir = root.path().join("desktop");
    join_with_the_command_line(&desktop_dir, &folder);
    // The desktop records in battle 1 with the command line.
    let desktop_records = |what: &[&str]| {
        let mut args = vec!["campaign", "record", "Lorraine 1944", "--battle", "1"];
        args.extend_from_slice(what);
        crate::cli_support::qm_ok(&desktop_dir, &args);
    };
    desktop_records(&["note", "from the desktop"]);

    let has_note = |h: &Harness<'static, App>| {
        record(h)
            .all_events(0)
            .any(|e| matches!(&e.event, Event::Note { text } if text == "from the desktop"))
    };
    // While a shared campaign is open the window always asks to be drawn again: a look under
    // way that asked for nothing would leave what it read untaken until a click.
    let (frames, _) = look_until(&mut laptop, |h, again| {
        assert!(again.is_some(), "no next look asked for");
        has_note(h)
    });
    assert!(
        has_note(&laptop),
        "the note never arrived ({frames} frames)"
    );
    assert!(frames > 1, "the window kept drawing while it looked");

    // Quiet again: the window is not asked to draw on a timer for the folder's sake (its
    // watcher wakes it when a file changes), once any look under way is done.
    let (_, again) = look_until(&mut laptop, |_, again| {
        again.is_none_or(|d| d >= std::time::Duration::from_secs(1))
    });
    assert!(
        again.is_some_and(|d| d > quartermaster::ui::FOLDER_LOOK_EVERY),
        "an idle window still draws every look: {again:?}"
    );

    // What the other machine's event changes is shown: the battle that took it is folded
    // again (only it), so the battle it concluded reads as won.
    desktop_records(&["conclude", "--winner", "us"]);
    let standing = |h: &Harness<'static, App>| {
        h.state()
            .model
            .campaign
            .as_ref()
            .and_then(|open| open.results().first().map(|r| r.standing))
    };
    look_until(&mut laptop, |h, _| standing(h) == Some(Standing::FirstWon));
    assert_eq!(standing(&laptop), Some(Standing::FirstWon));
}
