//! The Campaign view clicked through with egui_kittest: start the Lorraine campaign, roll
//! command dice for Battle 1, fire and see the target's Disruption change on screen and in
//! the stored log; undo with the keyboard; the event log filters.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use quartermaster::campaign::state::{BattleState, Phase};
use quartermaster::campaign::{Event, LoggedEvent, tracker};
use quartermaster::rules::armour_battles::fire::{FireSituation, RangeBand};
use quartermaster::rules::dice::Roller;
use quartermaster::rules::resolution::InputValue;
use quartermaster::ui::{App, CardKey, View};

fn harness() -> Harness<'static, App> {
    let mut app = App::for_tests().expect("in-memory store opens");
    app.prefs.view = View::Campaign;
    app.campaign.tracker.next_seed = 7;
    // Tall enough that the event log at the foot of the page is on screen to be clicked.
    Harness::builder()
        .with_size(egui::vec2(1400.0, 2400.0))
        .build_ui_state(|ui, app: &mut App| app.show(ui), app)
}

fn state(h: &Harness<'static, App>) -> BattleState {
    let open = h
        .state()
        .model
        .campaign
        .as_ref()
        .expect("a campaign is open");
    open.stored
        .record
        .state(open.battle)
        .expect("an Armour Battles battle")
}

/// The event log of battle `index` of the open campaign.
fn battle_log<'a>(h: &'a Harness<'static, App>, index: usize) -> &'a [LoggedEvent] {
    &h.state()
        .model
        .campaign
        .as_ref()
        .expect("a campaign is open")
        .stored
        .record
        .logs[index]
}

/// Whether some widget's label contains `text` (it may appear in several places).
fn shown(h: &Harness<'static, App>, text: &str) -> bool {
    h.query_all_by_label_contains(text).next().is_some()
}

/// A seed with which us-1 firing at german-1 at short range scores exactly one Disruption
/// Point, found with the library on the same state.
fn seed_scoring_one_point(state: &BattleState) -> u64 {
    let situation = FireSituation {
        range: RangeBand::Short,
        ..FireSituation::default()
    };
    (0..5000)
        .find(|&seed| {
            matches!(
                tracker::fire(state, "us-1", "german-1", situation, &mut Roller::new(seed)),
                Ok(Event::Fire(f)) if f.new_disruption == 1 && !f.dispersed
            )
        })
        .expect("some seed scores one point")
}

fn pick(h: &mut Harness<'static, App>, combo: &str, option: &str) {
    h.get_by_label(combo).click();
    h.run();
    h.query_all_by_label_contains(option)
        .next()
        .expect("the option is listed")
        .click();
    h.run();
}

#[test]
fn start_battle_one_roll_command_dice_fire_and_see_the_disruption_change() {
    let mut h = harness();
    h.run();
    h.get_by_label("New Lorraine campaign").click();
    h.run();
    let open = h
        .state()
        .model
        .campaign
        .as_ref()
        .expect("the new campaign is open");
    assert_eq!(open.stored.record.campaign.battles.len(), 3);
    assert!(
        h.query_all_by_label_contains("Battle 1: Meeting Engagement")
            .next()
            .is_some()
    );

    h.get_by_label("Roll command dice").click();
    h.run();
    let after_roll = state(&h);
    assert_eq!(after_roll.turn, 1);
    assert!(shown(&h, "Turn 1: command dice"));

    // The first M4 75mm of Tank Company 1 fires at the first Panther.
    pick(&mut h, "Attacker", "M4 75mm 1/2 (Tank Company 1), US");
    pick(
        &mut h,
        "Target",
        "Panther Ausf G 1/2 (Panzer Company 1), German",
    );
    h.get_by_label("Short").click();
    h.run();
    // Choose the seed of the next roll so that this fire scores a Disruption Point, computed
    // with the library on the same state, so the screen must show what the rules decided.
    let seed = seed_scoring_one_point(&after_roll);
    h.state_mut().campaign.tracker.next_seed = seed;
    assert!(shown(&h, "new Disruption 0:"), "odds are shown");
    h.get_by_label("Roll fire and apply").click();
    h.run();

    let after_fire = state(&h);
    let panther = after_fire.unit("german-1").unwrap();
    assert_eq!(panther.disruption, 1);
    assert!(after_fire.unit("us-1").unwrap().fire_marker);
    assert!(
        h.query_by_label("1/3").is_some(),
        "the table shows the new Disruption"
    );
    let log = battle_log(&h, 0);
    assert!(matches!(log.last().unwrap().event, Event::Fire(_)));

    // Ctrl+Z in the Campaign view undoes the fire by recording an undo.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(state(&h).unit("german-1").unwrap().disruption, 0);
    let log = battle_log(&h, 0);
    assert_eq!(log.len(), 3, "command roll, fire, undo: nothing erased");
    h.get_by_label("Redo").click();
    h.run();
    assert_eq!(state(&h).unit("german-1").unwrap().disruption, 1);

    // The log filter hides fire events (the last-action line above keeps its copy).
    let count = |h: &Harness<'static, App>| {
        h.query_all_by_label_contains("M4 75mm 1/2 (Tank Company 1) →")
            .count()
    };
    let before = count(&h);
    h.get_by_label("Fire").click();
    h.run();
    assert_eq!(count(&h), before - 1);
}

#[test]
fn a_reserve_committed_too_early_is_refused_in_words_and_nothing_is_recorded() {
    let mut h = harness();
    h.run();
    h.get_by_label("New Lorraine campaign").click();
    h.run();
    h.get_by_label_contains("Battle 3: Counter-Attack").click();
    h.run();
    assert_eq!(h.state().model.campaign.as_ref().unwrap().battle, 2);
    h.get_by_label("Roll command dice").click();
    h.run();
    assert_eq!(state(&h).turn, 1);
    let before = battle_log(&h, 2).len();
    h.get_by_label("Commit Armour Company 1").click();
    h.run();
    assert!(
        shown(&h, "may be committed from turn 2"),
        "the refusal is shown"
    );
    assert_eq!(battle_log(&h, 2).len(), before, "nothing was recorded");
    assert_ne!(state(&h).phase, Phase::Over);
}

#[test]
fn a_roll_in_the_resolve_view_is_recorded_in_the_campaign_battle_with_one_click() {
    let mut h = harness();
    h.run();
    h.get_by_label("New Lorraine campaign").click();
    h.run();
    h.get_by_label("Roll command dice").click();
    h.run();
    let before = state(&h);

    h.state_mut().prefs.view = View::Resolve;
    h.run();
    assert!(shown(&h, "From the campaign battle: Battle 1"));
    pick(&mut h, "Attacker unit", "us-1 ·");
    pick(&mut h, "Target unit", "german-1 ·");
    let form = h.state_mut().resolve.form_mut().clone();
    let card = |key| match form.cards.get(&(key, 0)) {
        Some(CardKey::Book(_, name)) => name.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(card("attacker"), "M4 75mm");
    assert_eq!(card("target"), "Panther Ausf G");
    h.state_mut()
        .resolve
        .set("range", InputValue::Choice("short"));
    let seed = seed_scoring_one_point(&before);
    h.state_mut().resolve.seed = seed;
    h.run();
    h.get_by_label("Roll").click();
    h.run();
    h.get_by_label_contains("Record in Battle 1").click();
    h.run();

    let after = state(&h);
    assert_eq!(after.unit("german-1").unwrap().disruption, 1);
    assert!(after.unit("us-1").unwrap().fire_marker);
    let log = battle_log(&h, 0);
    let Event::Fire(fire) = &log.last().unwrap().event else {
        panic!("the roll was recorded as fire")
    };
    assert_eq!(fire.seed, seed, "the recorded dice are the roll's");
    let situation = fire
        .situation
        .expect("the situation is recorded with the dice");
    assert_eq!(
        situation.range,
        quartermaster::campaign::event::Range::Short
    );
    // And the battle, this fire included, verifies from situation, cards and state.
    let record = &h.state().model.campaign.as_ref().unwrap().stored.record;
    quartermaster::campaign::verify::verify_record(record).unwrap();
    assert!(
        shown(&h, "Recorded in Battle 1"),
        "the same roll cannot be recorded twice"
    );
    // The target's Disruption in the form now follows the battle.
    h.run();
    assert_eq!(
        h.state_mut()
            .resolve
            .form_mut()
            .inputs
            .count("target_disruption"),
        1
    ); // Replaying the recorded seed deals the same dice again: never offered for recording.
    h.get_all_by_label("Replay").next().unwrap().click();
    h.run();
    assert!(h.state().resolve.log[0].replay);
    assert!(h.query_by_label_contains("Record in Battle 1").is_none());
}

/// Two M4 75mm of one company are told apart the way their printed cards number them.
#[test]
fn alike_units_carry_the_copy_numbers_of_their_printed_cards() {
    let mut h = harness();
    h.run();
    h.get_by_label("New Lorraine campaign").click();
    h.run();
    assert!(shown(&h, "US M4 75mm 1/2 (Tank Company 1)"));
    assert!(shown(&h, "US M4 75mm 2/2 (Tank Company 1)"));
    assert!(
        shown(&h, "US M4 76mm (Tank Company 1)"),
        "a single copy keeps its plain name"
    );
}

/// The status line says what was just done, offers to undo it, and stops saying it once it
/// is undone; what is left to spend this pulse is on screen.
#[test]
fn the_status_follows_undo_and_the_pulse_shows_what_is_left() {
    let mut h = harness();
    h.run();
    h.get_by_label("New Lorraine campaign").click();
    h.run();
    assert!(shown(&h, "No command dice rolled yet"));
    h.get_by_label("Roll command dice").click();
    h.run();
    assert!(
        shown(&h, "Left: "),
        "each side's chains, wild dice and Staff Orders"
    );
    let staff_before = state(&h).sides.us.staff_orders;
    h.get_all_by_label("Use a Staff Order")
        .next()
        .expect("the US Staff Order button")
        .click();
    h.run();
    assert_eq!(state(&h).sides.us.staff_orders, staff_before - 1);
    assert!(shown(&h, "Staff Order"), "the spending is announced");
    // One click takes it back, as an undo in the log.
    h.get_by_label("Undo this").click();
    h.run();
    assert_eq!(state(&h).sides.us.staff_orders, staff_before);
    assert!(
        h.query_by_label("Undo this").is_none(),
        "the undone spending is no longer offered as the latest event"
    );
}

/// Battle 1's briefings hold no reserves, so no chain offers to commit them; the fire panel
/// has the same options as the Resolve view.
#[test]
fn the_tracker_offers_only_what_the_briefing_and_the_rules_allow() {
    let mut h = harness();
    h.run();
    h.get_by_label("New Lorraine campaign").click();
    h.run();
    h.get_by_label("Roll command dice").click();
    h.run();
    let chain = state(&h).sides.us.chains[0];
    h.get_all_by_label(&format!("{}×{}", chain.dice, chain.face))
        .next()
        .expect("the first US chain")
        .click();
    h.run();
    assert!(shown(&h, "Use for orders"));
    assert!(!shown(&h, "Commit reserves"));
    for option in [
        "double move",
        "triple move",
        "Ambush fire",
        "Target evading",
    ] {
        assert!(shown(&h, option), "{option}");
    }
}

/// At the minimum window size every tracker button is inside the window.
#[test]
fn the_tracker_buttons_stay_in_the_window_at_the_minimum_size() {
    let mut app = App::for_tests().expect("in-memory store opens");
    app.prefs.view = View::Campaign;
    let mut h = Harness::builder()
        .with_size(egui::vec2(720.0, 480.0))
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    h.run();
    h.get_by_label("New Lorraine campaign").click();
    h.run();
    h.get_by_label("Roll command dice").click();
    h.run();
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(720.0, 480.0));
    let before = h.get_by_label("Redo").rect();
    for button in ["Roll command dice", "End turn", "Undo", "Redo"] {
        let rect = h.get_by_label(button).rect();
        assert!(window.contains_rect(rect), "{button} at {rect:?}");
    }
    h.get_by_label("End turn").click();
    h.run();
    assert_eq!(
        h.get_by_label("Redo").rect(),
        before,
        "the buttons keep their place when the phase text changes"
    );
}
