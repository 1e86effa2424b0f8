//! The Campaign view clicked through with egui_kittest, on the Lorraine campaign fought on the
//! board tracker every ruleset shares: start it, roll command dice for Battle 1, fire and see
//! the target's Disruption change on screen and in the stored log; undo from the status line
//! and with the keyboard; a reserve refused in words; the Resolve view linked to the battle;
//! dice typed at the table; forks, long logs and many battles; double clicks that record once.

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use quartermaster::campaign::{CampaignRecord, Event, LoggedEvent};
use quartermaster::rules::armour_battles::battle::actions::key;
use quartermaster::rules::armour_battles::battle::state::{BattleState, Phase};
use quartermaster::rules::armour_battles::table_battle::view;
use quartermaster::rules::battle::Request;
use quartermaster::rules::resolution::InputValue;
use quartermaster::ui::{App, CardKey, View};

use crate::ui_resolve::type_faces;
use crate::ui_support::{click, double_click_at, pick, press_at, record, shown};

fn harness() -> Harness<'static, App> {
    harness_sized(1400.0, 2400.0)
}

fn harness_sized(width: f32, height: f32) -> Harness<'static, App> {
    let mut app = App::for_tests().expect("in-memory store opens");
    app.prefs.view = View::Campaign;
    // Tall enough that the event log at the foot of the page is on screen to be clicked.
    Harness::builder()
        .with_size(egui::vec2(width, height))
        // A window's frame rate: double clicks and rests are timed as a player makes them.
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app)
}

/// A tall window on `store`'s library, in the Campaign view.
fn harness_on(store: quartermaster::store::Store) -> Harness<'static, App> {
    let mut app = App::new(
        quartermaster::ui::model::Model::new(store),
        quartermaster::ui::Prefs::default(),
        &quartermaster::ui::Launch::default(),
    );
    app.native_dialogs = false;
    app.prefs.view = View::Campaign;
    Harness::builder()
        .with_size(egui::vec2(1400.0, 2400.0))
        // A window's frame rate: double clicks and rests are timed as a player makes them.
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app)
}

/// The shown battle as the Armour Battles rules read its board.
fn state(h: &Harness<'static, App>) -> BattleState {
    let open = h
        .state()
        .model
        .campaign
        .as_ref()
        .expect("a campaign is open");
    let record = &open.stored.record;
    view::state_of(
        &record.table_plan(open.battle).expect("a board battle"),
        &record.board(open.battle).unwrap(),
    )
}

/// Rolls the command dice until a turn is played. The dice follow the campaign's id: when
/// both sides fail, the turn ends at once and nothing is ordered, fired or rallied until the
/// next roll.
fn roll_a_turn(h: &mut Harness<'static, App>) {
    // Both sides may roll a Command Failure (the dice follow the campaign's id) and the turn
    // is rolled again; twenty failed turns in a row would be a broken roll, not bad luck.
    for _ in 0..20 {
        // In a small window the page may need scrolling to it (a scroll bar over it takes the
        // click otherwise), as a player would.
        h.get_by_label("Roll command dice").scroll_to_me();
        h.run();
        click(h, "Roll command dice");
        if state(h).phase != Phase::AwaitingCommandRoll {
            return;
        }
        // Half a second on, so the next click is a click of its own: two within egui's
        // double-click time are a double click, whose second click the window holds back.
        let dt = h.ctx.input(|i| i.predicted_dt);
        h.run_steps((0.5 / dt) as usize);
    }
    panic!("twenty command rolls in a row left the battle waiting for its command roll");
}

/// The event log of battle `index` of the open campaign.
fn battle_log<'a>(h: &'a Harness<'static, App>, index: usize) -> &'a [LoggedEvent] {
    &record(h).logs[index]
}

/// What the battle's rules record for `request` in the shown battle now, as this window
/// records it: the screen must show exactly that.
fn decided(h: &Harness<'static, App>, request: &Request) -> Event {
    let open = h.state().model.campaign.as_ref().unwrap();
    open.stored
        .record
        .decide(open.battle, request, &h.state().model.player)
        .unwrap()
        .event
}

/// The recorded action is the one `expected` decides: its dice, effects and words (the form
/// also sends the inputs it shows at their defaults).
fn assert_same_outcome(recorded: &Event, expected: &Event) {
    let (Event::Act(got), Event::Act(want)) = (recorded, expected) else {
        panic!("two actions: {recorded:?} / {expected:?}")
    };
    assert_eq!(
        (
            &got.action,
            &got.unit,
            &got.target,
            &got.rolls,
            &got.effects,
            &got.result
        ),
        (
            &want.action,
            &want.unit,
            &want.target,
            &want.rolls,
            &want.effects,
            &want.result
        )
    );
}

fn start(h: &mut Harness<'static, App>) {
    h.run();
    click(h, "New Lorraine campaign");
}

/// The window tests' dice do not follow a random id: two runs of one journey record the
/// same campaign, the same events and the same rolls.
#[test]
fn a_window_test_rolls_the_same_dice_on_every_run() {
    let journey = || {
        let mut h = harness();
        start(&mut h);
        roll_a_turn(&mut h);
        let record = record(&h).clone();
        (record.id, record.logs[0].clone())
    };
    let (first, again) = (journey(), journey());
    assert!(!first.1.is_empty(), "the turn was rolled");
    assert_eq!(first, again);
}

/// Opens a Lorraine campaign whose first command roll in Battle 1 gives a table `want`
/// accepts: the dice come from the campaign's id and history, so a test picks the campaign,
/// not the seed. The campaign comes in as an imported file, as a player's would.
fn start_with(h: &mut Harness<'static, App>, want: impl Fn(&BattleState) -> bool) {
    start_with_battle(h, 0, want);
}

/// As [`start_with`], for the first command roll of battle `battle` (0 for Battle 1).
fn start_with_battle(
    h: &mut Harness<'static, App>,
    battle: usize,
    want: impl Fn(&BattleState) -> bool,
) {
    use quartermaster::campaign::{self, LorraineOptions, Sides, file};
    h.run();
    let player = h.state().model.player.clone();
    // Begun (its genesis signed) by another player's machine, as a file a player imports:
    // the window keeps its id, so the dice it rolls are the ones found here (a file without a
    // genesis is sealed on import under a new id, and its dice would follow that).
    let key = quartermaster::campaign::seal::MachineKey::from_secret([7; 32]);
    let record = (1..500u128)
        .map(|n| {
            let created = campaign::new_lorraine(
                "Lorraine 1944",
                Sides::default(),
                LorraineOptions::default(),
            )
            .unwrap();
            let genesis = quartermaster::campaign::genesis::Genesis::new(
                &key,
                created.clone(),
                player.clone(),
                "2026-11-25T10:00:00.000Z".into(),
                n.to_le_bytes(),
            );
            CampaignRecord::from_parts(genesis.id(), Some(genesis), created, Vec::new(), Vec::new())
                .unwrap()
        })
        .find(|record| {
            let roll = record
                .decide(battle, &Request::new(key::ROLL_COMMAND), &player)
                .unwrap()
                .event;
            let mut after = record.clone();
            after
                .append(
                    battle,
                    quartermaster::campaign::EventUid(uuid::Uuid::from_u128(1)),
                    String::new(),
                    player.clone(),
                    roll,
                )
                .unwrap();
            want(&view::state_of(
                &after.table_plan(battle).unwrap(),
                &after.board(battle).unwrap(),
            ))
        })
        .expect("a campaign whose first roll gives the wanted table");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("campaign.json");
    std::fs::write(&path, file::to_json(&record).unwrap()).unwrap();
    h.state_mut()
        .model
        .apply(quartermaster::ui::Command::Campaign(
            quartermaster::ui::CampaignCommand::Import(path),
        ));
    h.run();
}

/// A unit's button, by its words and the unit's label ("Fire (M4 75mm 1/2 (Tank Company 1))").
fn unit_button(action: &str, unit: &str) -> String {
    format!("{action} ({unit})")
}

const US_1: &str = "M4 75mm 1/2 (Tank Company 1)";
const GERMAN_1: &str = "Panther Ausf G 1/2 (Panzer Company 1)";

#[test]
fn start_battle_one_roll_command_dice_fire_and_see_the_disruption_change() {
    let mut h = harness();
    start(&mut h);
    assert_eq!(record(&h).campaign.battles.len(), 3);
    assert!(shown(&h, "Battle 1: Meeting Engagement"));
    assert!(
        shown(&h, "0700 hours, 20 September 1944"),
        "the briefing's words"
    );
    let roll = decided(&h, &Request::new(key::ROLL_COMMAND));
    click(&mut h, "Roll command dice");
    assert_eq!(
        battle_log(&h, 0)[0].event,
        roll,
        "the rules' roll, seed and all"
    );
    assert_eq!(state(&h).turn, 1);
    assert!(shown(&h, "Turn 1: command dice"));
    if state(&h).phase == Phase::AwaitingCommandRoll {
        // Both sides failed (the dice follow the campaign's id): nothing fires until the
        // next turn is rolled.
        roll_a_turn(&mut h);
    }

    // The first M4 75mm of Tank Company 1 fires at the first Panther, at short range.
    click(&mut h, &unit_button("Fire", US_1));
    pick(&mut h, "Target", GERMAN_1);
    pick(&mut h, "Range", "Short");
    assert!(
        shown(&h, "Attacker dice: "),
        "the mechanic's odds are shown"
    );
    let shot = Request::new(key::FIRE)
        .unit("us-1")
        .target("german-1")
        .with("range", InputValue::Choice("short"));
    let expected = decided(&h, &shot);
    let rolls = battle_log(&h, 0).len();
    click(&mut h, "Roll and record");
    assert_same_outcome(&battle_log(&h, 0).last().unwrap().event, &expected);
    let after_fire = state(&h);
    let panther = after_fire.unit("german-1").unwrap();
    assert!(after_fire.unit("us-1").unwrap().fire_marker);
    if panther.disruption > 0 && !panther.is_dispersed() {
        assert!(
            shown(&h, &format!("disruption {}/3", panther.disruption)),
            "the Panther's row shows its new Disruption"
        );
    }
    assert!(shown(&h, "attack (3+:"), "the roll's dice are shown");

    // Ctrl+Z in the Campaign view undoes the fire by recording an undo.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(state(&h).unit("german-1").unwrap().disruption, 0);
    assert_eq!(
        battle_log(&h, 0).len(),
        rolls + 2,
        "command rolls, fire, undo: nothing erased"
    );
    click(&mut h, "Redo");
    assert_eq!(
        state(&h).unit("german-1").unwrap().disruption,
        panther.disruption
    );

    // The log filter hides fire events (the status line above keeps its copy).
    let count =
        |h: &Harness<'static, App>| h.query_all_by_label_contains(&format!("{US_1} →")).count();
    let before = count(&h);
    // The event log's filter, at the foot of the page.
    h.get_all_by_label("Fire").last().unwrap().click();
    h.run();
    assert_eq!(count(&h), before - 1);
}

/// Battle 3's reserves enter from turn 2: on turn 1 the company's Commit says why when
/// clicked, and records nothing.
#[test]
fn a_reserve_committed_too_early_is_refused_in_words_and_nothing_is_recorded() {
    let mut h = harness();
    // A campaign whose first roll in Battle 3 leaves the US their chains: the one reason left
    // to refuse the commit is the turn (a Command Failure would refuse it for another).
    start_with_battle(&mut h, 2, |s| {
        !s.sides.first.failed && s.sides.first.has_chains() && s.phase != Phase::AwaitingCommandRoll
    });
    h.get_by_label_contains("Battle 3: Counter-Attack").click();
    h.run();
    assert_eq!(h.state().model.campaign.as_ref().unwrap().battle, 2);
    click(&mut h, "Roll command dice");
    assert!(
        !state(&h).sides.first.failed,
        "the roll the campaign was picked for"
    );
    let before = battle_log(&h, 2).len();
    h.get_by_label_contains("Commit Armour Company 1")
        .scroll_to_me();
    h.run();
    h.get_by_label_contains("Commit Armour Company 1").click();
    h.run();
    assert!(
        shown(&h, "may be committed from turn 2"),
        "the refusal is shown: {:?}",
        h.state().campaign.board.refusal
    );
    assert_eq!(battle_log(&h, 2).len(), before, "nothing was recorded");
    assert_ne!(state(&h).phase, Phase::Over);
}

/// The Resolve view linked to the battle is the battle's fire action: the battle's situation
/// for the picked units, and "Roll in Battle 1" records the battle's own roll of it.
#[test]
fn a_shot_in_the_resolve_view_is_rolled_in_the_campaign_battle_with_one_click() {
    let mut h = harness();
    start(&mut h);
    roll_a_turn(&mut h);

    h.state_mut().prefs.view = View::Resolve;
    h.run();
    assert!(shown(&h, "From the campaign battle: Battle 1"));
    // Units are named as the table and the printed cards name them.
    pick(&mut h, "Acting unit", &format!("{US_1}, US"));
    pick(&mut h, "Target unit", &format!("{GERMAN_1}, German"));
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
    h.run();
    let expected = decided(
        &h,
        &Request::new(key::FIRE)
            .unit("us-1")
            .target("german-1")
            .with("range", InputValue::Choice("short")),
    );
    h.get_by_label_contains("Roll in Battle 1").click();
    h.run();
    let log = battle_log(&h, 0);
    assert_same_outcome(&log.last().unwrap().event, &expected);
    let Event::Act(fire) = &log.last().unwrap().event else {
        panic!("an action")
    };
    assert_eq!(
        fire.params.get("range"),
        Some(&quartermaster::rules::battle::table::Param::Text(
            "short".into()
        ))
    );
    // And the battle, this fire included, verifies from its dice.
    quartermaster::campaign::verify::verify_record(record(&h)).unwrap();
    // The same shot is not recorded twice from here: the button waits for the battle to move
    // on, or is gone with a target the shot dispersed.
    let dispersed = state(&h).unit("german-1").is_some_and(|u| u.is_dispersed());
    let button = h.query_by_label_contains("Roll in Battle 1");
    assert!(
        button.is_some_and(|b| b.accesskit_node().is_disabled()) || (dispersed && button.is_none()),
        "the same shot is not recorded twice from here"
    );
    // The target's Disruption in the form now follows the battle.
    h.run();
    if !dispersed {
        let disruption = state(&h).unit("german-1").map_or(0, |u| u.disruption);
        assert_eq!(
            h.state_mut()
                .resolve
                .form_mut()
                .inputs
                .count("target_disruption"),
            i64::from(disruption)
        );
    }
}

/// Two M4 75mm of one company are told apart the way their printed cards number them.
#[test]
fn alike_units_carry_the_copy_numbers_of_their_printed_cards() {
    let mut h = harness();
    start(&mut h);
    assert!(shown(&h, "M4 75mm 1/2 (Tank Company 1)"));
    assert!(shown(&h, "M4 75mm 2/2 (Tank Company 1)"));
    assert!(
        shown(&h, "M4 76mm (Tank Company 1)"),
        "a single copy keeps its plain name"
    );
}

/// The status line says what was just done, offers to undo it, and stops saying it once it
/// is undone; what each side has left is on screen, its Army Morale against its start.
#[test]
fn the_status_follows_undo_and_the_pulse_shows_what_is_left() {
    let mut h = harness();
    start_with(&mut h, |s| matches!(s.phase, Phase::Pulse { .. }));
    assert!(shown(&h, "Nothing recorded yet"));
    assert!(shown(&h, "Army Morale 9/9"), "the US start");
    roll_a_turn(&mut h);
    assert!(
        shown(&h, "Left: "),
        "each side's chains, wild dice and Staff Orders"
    );
    let staff_before = state(&h).sides.first.staff_orders;
    h.get_all_by_label("Use a Staff Order")
        .next()
        .expect("the US Staff Order button")
        .click();
    h.run();
    assert_eq!(state(&h).sides.first.staff_orders, staff_before - 1);
    assert!(shown(&h, "uses a Staff Order"), "the spending is announced");
    // One click takes it back, as an undo in the log.
    click(&mut h, "Undo this");
    assert_eq!(state(&h).sides.first.staff_orders, staff_before);
    assert!(
        h.query_by_label("Undo this").is_none(),
        "the undone spending is no longer offered as the latest event"
    );
}

/// Battle 1's briefings hold no reserves, so nothing offers to commit them; a unit's fire form
/// has the fire mechanic's options but those the battle decides.
#[test]
fn the_tracker_offers_only_what_the_briefing_and_the_rules_allow() {
    let mut h = harness();
    start_with(&mut h, |s| !s.sides.first.chains.is_empty());
    roll_a_turn(&mut h);
    let chain = state(&h).sides.first.chains[0];
    let words = if chain.dice == 1 {
        format!("One {}: orders", chain.face)
    } else {
        format!("{}s ×{}: orders", chain.face, chain.dice)
    };
    assert!(shown(&h, &words), "{words}");
    assert!(!shown(&h, "ommit"), "no reserves in Battle 1");
    click(&mut h, &unit_button("Fire", US_1));
    for option in [
        "Attacker move",
        "Flank or rear shot",
        "Target evading",
        "Attacker wild die / Staff Order",
        "Target wild die / Staff Order",
    ] {
        assert!(shown(&h, option), "{option}");
    }
    assert!(!shown(&h, "Ambush fire"), "the battle decides ambush");
    assert!(
        !shown(&h, "Target disruption"),
        "and the target's Disruption"
    );
}

/// At the minimum window size the turn's buttons are inside the window, and keep their place
/// when the turn's words change.
#[test]
fn the_tracker_buttons_stay_in_the_window_at_the_minimum_size() {
    let mut h = harness_sized(720.0, 480.0);
    start(&mut h);
    roll_a_turn(&mut h);
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(720.0, 480.0));
    let before = h.get_by_label("Redo").rect();
    for button in ["Roll command dice", "End turn", "Undo", "Redo"] {
        let rect = h.get_by_label(button).rect();
        assert!(window.contains_rect(rect), "{button} at {rect:?}");
    }
    click(&mut h, "End turn");
    assert_eq!(
        h.get_by_label("Redo").rect(),
        before,
        "the buttons keep their place when the turn's words change"
    );
}

/// A double click on Rally opens its form once and records nothing (the second click lands on
/// the same button); Disperse sits apart and asks first.
#[test]
fn double_clicking_rally_opens_its_form_once_and_disperses_nothing() {
    let mut h = harness();
    start(&mut h);
    roll_a_turn(&mut h);
    // us-1 takes a Disruption Point by hand: its Rally button comes alive.
    click(&mut h, &unit_button("Correct", US_1));
    click(&mut h, &unit_button("Disruption +1", US_1));
    assert_eq!(state(&h).unit("us-1").unwrap().disruption, 1);
    let (rally_label, disperse_label) = (unit_button("Rally", US_1), unit_button("Disperse", US_1));
    let rally = h.get_by_label(&rally_label).rect();
    let disperse = h.get_by_label(&disperse_label).rect();
    assert!(
        !disperse.intersects(rally),
        "Disperse is not where Rally is"
    );
    let at = rally.center();
    let before = battle_log(&h, 0).len();
    double_click_at(&mut h, at);
    assert_eq!(
        battle_log(&h, 0).len(),
        before,
        "the form opened, nothing recorded"
    );
    assert!(shown(&h, "Closest enemy (inches)"), "the rally's form");
    click(&mut h, "Roll and record");
    let log = battle_log(&h, 0);
    assert_eq!(log.len(), before + 1, "one rally recorded");
    assert!(matches!(&log.last().unwrap().event, Event::Act(a) if a.action == key::RALLY));
    assert!(!state(&h).unit("us-1").unwrap().is_dispersed());
    // Disperse asks first, in a window of its own; Cancel leaves the battle as it was.
    click(&mut h, &unit_button("Disperse", US_1));
    assert!(shown(&h, "Only an undo brings it back"));
    h.get_all_by_label("Cancel")
        .next()
        .expect("the question's Cancel")
        .click();
    h.run();
    assert_eq!(battle_log(&h, 0).len(), before + 1);
}

/// "Record result" pressed twice (a double click) records the result once.
#[test]
fn double_clicking_record_result_records_one_result() {
    use quartermaster::campaign::Sides;
    use quartermaster::rules::{Budget, RulesetId};
    use quartermaster::ui::{CampaignCommand, Command};
    let mut h = harness();
    h.run();
    for name in ["Rangers", "Grenadiers"] {
        h.state_mut().model.apply(Command::NewForce {
            ruleset: RulesetId::BoltAction,
            name: name.into(),
            budget: Budget::Points(500),
        });
        // A battle on the board needs a unit a side.
        let mut force = h.state().model.open.as_ref().unwrap().force.clone();
        force
            .units
            .push(quartermaster::rules::force::ForceUnit::library(
                "Regular Infantry Squad",
                1,
            ));
        h.state_mut().model.apply(Command::Edit {
            force,
            label: "Add a squad".into(),
        });
    }
    h.state_mut()
        .model
        .apply(Command::Campaign(CampaignCommand::New {
            ruleset: RulesetId::BoltAction,
            name: "League".into(),
            players: Sides::default(),
            carry_losses: false,
        }));
    h.state_mut()
        .model
        .apply(Command::Campaign(CampaignCommand::AddBattle {
            name: "Crossroads".into(),
            forces: Sides {
                first: "Rangers".into(),
                second: "Grenadiers".into(),
            },
        }));
    h.run();
    // A winner is chosen first: Record result waits for one.
    click(&mut h, "Draw");
    let at = h.get_by_label("Record result").rect().center();
    double_click_at(&mut h, at);
    // The battle's setup, then one result.
    let log = battle_log(&h, 0);
    assert_eq!(log.len(), 2, "{log:?}");
    assert!(matches!(log[0].event, Event::BattleAdded { .. }));
    assert!(matches!(log[1].event, Event::BattleConcluded { .. }));
}

/// "Undo this" undoes exactly the event it shows: once another program has recorded after it
/// (a record of this window refused because the battle changed), it is gone, and an undo
/// asked for by that event's id undoes nothing.
#[test]
fn undo_this_after_a_refused_record_undoes_nothing_it_does_not_name() {
    let dir = tempfile::tempdir().unwrap();
    let store = quartermaster::store::Store::open(dir.path()).unwrap();
    let mut h = harness_on(store);
    start(&mut h);
    roll_a_turn(&mut h);
    h.get_all_by_label("Use a Staff Order")
        .next()
        .unwrap()
        .click();
    h.run();
    assert!(h.query_by_label("Undo this").is_some());
    let mine = battle_log(&h, 0).last().unwrap().id;
    // Another program records into the same battle.
    {
        let mut other = quartermaster::store::Store::open(dir.path()).unwrap();
        let id = other.find_campaign("Lorraine 1944").unwrap().unwrap();
        let stored = other.load_campaign(id).unwrap();
        let note = Event::Note {
            text: "from the command line".into(),
        };
        let at = stored.record.next_position(0).unwrap();
        other.record_event(stored.battle_ids[0], at, &note).unwrap();
    }
    // This window's next record (the German side's Staff Order) is refused: the battle
    // changed. It reloads.
    h.get_all_by_label("Use a Staff Order")
        .nth(1)
        .unwrap()
        .click();
    h.run();
    let log = battle_log(&h, 0).to_vec();
    assert!(
        matches!(log.last().unwrap().event, Event::Note { .. }),
        "{:?} {:?}",
        log.iter().map(|e| e.event.kind()).collect::<Vec<_>>(),
        h.state().model.notices
    );
    assert!(
        h.query_by_label("Undo this").is_none(),
        "the latest event is not this window's"
    );
    h.state_mut()
        .model
        .apply(quartermaster::ui::Command::Campaign(
            quartermaster::ui::CampaignCommand::UndoEvent(mine),
        ));
    h.run();
    assert_eq!(battle_log(&h, 0), log.as_slice(), "nothing undone");
}

/// With "Rolled at the table", an action that rolls waits for the players' faces, pool after
/// pool, and "Record these dice" records the event the rules derive from them — the same event
/// the library decides for those faces, marked as rolled at the table — for a command roll and
/// a fire.
#[test]
fn dice_typed_in_the_tracker_are_the_dice_recorded() {
    use quartermaster::rules::battle::DiceFrom;
    use quartermaster::rules::resolution::TableDice;

    let mut h = harness();
    start(&mut h);
    let by_table = |h: &Harness<'static, App>, request: &Request, dice: &TableDice| {
        let open = h.state().model.campaign.as_ref().unwrap();
        open.stored
            .record
            .decide_table(open.battle, request, &h.state().model.player, dice)
            .unwrap()
            .event
    };
    click(&mut h, "Rolled at the table");
    click(&mut h, "Roll command dice");
    assert!(battle_log(&h, 0).is_empty(), "nothing rolled yet");
    assert!(
        h.query_by_label("german — 3 d6").is_none(),
        "the German pool is asked for after the US one"
    );
    type_faces(&mut h, "us — 4 d6", "6543");
    type_faces(&mut h, "german — 3 d6", "652");
    let command = Request::new(key::ROLL_COMMAND);
    let expected = by_table(
        &h,
        &command,
        &TableDice::new()
            .with("us", vec![6, 5, 4, 3])
            .with("german", vec![6, 5, 2]),
    );
    click(&mut h, "Record these dice");
    let log = battle_log(&h, 0);
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].event, expected);
    let Event::Act(rolled) = &log[0].event else {
        panic!("a command roll: {:?}", log[0].event)
    };
    assert_eq!(rolled.dice_from, DiceFrom::Table);
    assert_eq!(rolled.rolls[0].roll.dice, [6, 5, 4, 3]);
    assert_eq!(rolled.rolls[1].roll.dice, [6, 5, 2]);
    assert!(shown(&h, "(rolled at the table)"));

    // A fire: the attack pool's size is the rules' for this shot.
    click(&mut h, &unit_button("Fire", US_1));
    pick(&mut h, "Target", GERMAN_1);
    let shot = h
        .state()
        .campaign
        .board
        .open
        .clone()
        .expect("the fire's form");
    assert_eq!(
        (shot.action, shot.unit.as_deref()),
        (key::FIRE, Some("us-1"))
    );
    let (asked, _) = record(&h).table_pools(0, &shot, &TableDice::new()).unwrap();
    let attack = asked[0];
    assert_eq!(attack.pool, "attack");
    // One hit (a 5, the rest 1s; no six, so no suppression) against a reaction of sixes: no
    // Disruption, so no forced-back or Army Morale roll follows.
    let mut faces = vec![1u8; attack.count as usize];
    faces[0] = 5;
    let typed: String = faces.iter().map(u8::to_string).collect();
    type_faces(&mut h, &format!("attack — {} d6", attack.count), &typed);
    let (asked, _) = record(&h)
        .table_pools(0, &shot, &TableDice::new().with("attack", faces.clone()))
        .unwrap();
    let reaction = asked[1];
    let reaction_faces = vec![6u8; reaction.count as usize];
    let typed: String = reaction_faces.iter().map(u8::to_string).collect();
    type_faces(&mut h, &format!("reaction — {} d6", reaction.count), &typed);
    let expected = by_table(
        &h,
        &shot,
        &TableDice::new()
            .with("attack", faces)
            .with("reaction", reaction_faces),
    );
    click(&mut h, "Record these dice");
    let last = &battle_log(&h, 0).last().unwrap().event;
    assert_eq!(*last, expected);
    assert_eq!(battle_log(&h, 0).len(), 2);
}

/// A double click on a unit's "Disruption +1" just after a roll corrects that unit alone, both
/// clicks counting: the roll's report going away moves no unit's row.
#[test]
fn a_double_click_on_plus_after_a_roll_corrects_that_unit_alone() {
    let mut h = harness_sized(1400.0, 800.0);
    start(&mut h);
    roll_a_turn(&mut h);
    click(&mut h, &unit_button("Correct", US_1));
    let plus = h.get_by_label(&unit_button("Disruption +1", US_1)).rect();
    press_at(&mut h, plus.center());
    h.run();
    // The button rests a moment after it recorded, then takes the second click.
    h.run_steps(30);
    press_at(&mut h, plus.center());
    h.run();
    let corrected: Vec<(String, u32)> = state(&h)
        .units
        .iter()
        .filter(|u| u.disruption > 0)
        .map(|u| (u.id.clone(), u.disruption))
        .collect();
    assert_eq!(corrected, vec![("us-1".to_string(), 2)]);
}

/// A unit's corrections by hand stay out of sight until its "Correct" is pressed; a double
/// click on "Correct" opens them (its second click does not close them again), and a press
/// later closes them.
#[test]
fn corrections_open_behind_correct_and_a_double_click_opens_them() {
    let mut h = harness_sized(1400.0, 800.0);
    start(&mut h);
    roll_a_turn(&mut h);
    let plus = unit_button("Disruption +1", US_1);
    assert!(
        !shown(&h, &plus),
        "the corrections are out of sight at first"
    );
    assert!(
        shown(&h, &unit_button("Fire", US_1)),
        "the verbs are on the card"
    );
    let correct = h
        .get_by_label(&unit_button("Correct", US_1))
        .rect()
        .center();
    double_click_at(&mut h, correct);
    h.run_steps(5);
    assert!(shown(&h, &plus), "a double click opened them");
    assert!(
        !shown(&h, &unit_button("Disruption +1", GERMAN_1)),
        "only that unit's"
    );
    // A moment later a press closes them again.
    h.run_steps(60);
    click(&mut h, &unit_button("Correct", US_1));
    assert!(!shown(&h, &plus), "closed again");
}

/// Opens a Lorraine campaign whose Battle 1 is forked after its command roll: Ann and Bob each
/// wrote a note at the same place, on their own machines, and the copies were merged.
fn open_forked_battle(h: &mut Harness<'static, App>) {
    use quartermaster::campaign::{
        self, CampaignUid, EventUid, LorraineOptions, Recorder, Sides, file, merge,
    };
    h.run();
    let created = campaign::new_lorraine(
        "Lorraine 1944",
        Sides::default(),
        LorraineOptions::default(),
    )
    .unwrap();
    let mut base = CampaignRecord::new(
        CampaignUid(uuid::Uuid::from_u128(
            0x0192_0000_0000_7000_8000_0000_0000_0f00,
        )),
        created,
    );
    let roll = base
        .decide(0, &Request::new(key::ROLL_COMMAND), &Recorder::default())
        .unwrap()
        .event;
    base.append(
        0,
        EventUid(uuid::Uuid::from_u128(1)),
        "2026-11-25T10:00:00.000Z".into(),
        Recorder::default(),
        roll,
    )
    .unwrap();
    let branch = |n: u128, player: &str| {
        let mut copy = base.clone();
        let by = Recorder {
            player: player.into(),
            machine: format!("{player}-laptop"),
        };
        copy.append(
            0,
            EventUid(uuid::Uuid::from_u128(n)),
            format!("2026-11-25T10:0{n}:00.000Z"),
            by,
            Event::Note {
                text: format!("{player}'s note"),
            },
        )
        .unwrap();
        copy
    };
    let (forked, report) = merge::merge(&branch(2, "Ann"), &branch(3, "Bob")).unwrap();
    assert!(
        forked.open_fork(0).is_some(),
        "the merged copies fork: {report:?}"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("campaign.json");
    std::fs::write(&path, file::to_json(&forked).unwrap()).unwrap();
    h.state_mut()
        .model
        .apply(quartermaster::ui::Command::Campaign(
            quartermaster::ui::CampaignCommand::Import(path),
        ));
    h.run();
}

/// A double click on "Keep this branch" keeps that branch once: the first click records the
/// choice, the second lands on whatever is there now (the tracker, the set-aside branches) and
/// neither records nor restores anything. Tried on each branch's button.
#[test]
fn double_clicking_keep_this_branch_keeps_it_once() {
    for kept in 0..2 {
        let mut h = harness();
        open_forked_battle(&mut h);
        assert!(
            shown(&h, "This battle is forked after event 1"),
            "{:?}",
            h.state().model.notices
        );
        let fork = record(&h).open_fork(0).expect("forked");
        let keep = fork.branches[kept].first;
        let other = fork.branches[1 - kept].first;
        let before = record(&h).all_events(0).count();
        let at = h
            .query_all_by_label_contains("Keep this branch")
            .nth(kept)
            .expect("one button per branch")
            .rect()
            .center();
        double_click_at(&mut h, at);
        let settled = record(&h);
        assert!(settled.open_fork(0).is_none(), "branch {kept}: settled");
        let added: Vec<&LoggedEvent> = settled.all_events(0).skip(before).collect();
        assert_eq!(
            added.len(),
            1,
            "branch {kept}: one event, the choice: {:?}",
            added.iter().map(|e| e.event.kind()).collect::<Vec<_>>()
        );
        assert!(matches!(added[0].event, Event::BranchChosen { .. }));
        let line: Vec<_> = settled.logs[0].iter().map(|e| e.id).collect();
        assert!(
            line.contains(&keep),
            "branch {kept}: the kept branch is played"
        );
        assert!(
            !line.contains(&other),
            "branch {kept}: the other branch stays set aside"
        );
        assert!(shown(&h, "Set aside branches (1)"));
        assert!(
            !shown(&h, "Restore the branch recorded by"),
            "branch {kept}: no restore asked"
        );
    }
}

/// A long battle's log lays out only the rows in sight (newest first), and the player list
/// kept with the open campaign stays what the record says as events are recorded.
#[test]
fn a_long_battles_log_lays_out_only_the_rows_in_sight() {
    use quartermaster::ui::{CampaignCommand, Command};
    let dir = tempfile::tempdir().unwrap();
    let long = quartermaster::campaign::script::long_campaign(
        quartermaster::store::new_campaign_uid(),
        1_800,
        10,
    )
    .unwrap();
    let mut store = quartermaster::store::Store::open(dir.path()).unwrap();
    let id = store.create_campaign_record(&long).unwrap().id;
    drop(store);
    let store = quartermaster::store::Store::open(dir.path()).unwrap();
    let mut h = harness_on(store);
    h.state_mut()
        .model
        .apply(Command::Campaign(CampaignCommand::Open(id)));
    h.run();
    // Recording in the battle it opened at (the first not finished) counts that battle again.
    let open = h.state().model.campaign.as_ref().expect("opened");
    assert_eq!(open.players(), open.record().players().as_slice());
    let next = open
        .record()
        .scripted(open.battle, &h.state().model.player)
        .unwrap()
        .expect("the battle goes on");
    h.state_mut()
        .model
        .apply(Command::Campaign(CampaignCommand::Record(Box::new(next))));
    h.run();
    let open = h.state().model.campaign.as_ref().unwrap();
    assert_eq!(open.players(), open.record().players().as_slice());
    assert_eq!(open.unsigned_events(), open.record().unsigned_events());
    let longest = (0..open.record().logs.len())
        .max_by_key(|&i| open.record().logs[i].len())
        .unwrap();
    h.state_mut()
        .model
        .apply(Command::Campaign(CampaignCommand::SelectBattle(longest)));
    h.run();
    let open = h.state().model.campaign.as_ref().unwrap();
    let events = open.battle().unwrap().events.len();
    assert!(events > 100, "{events} events in the longest battle");
    // Every row names the key that signed it.
    let rows = h.query_all_by_label_contains("· key ").count();
    assert!((1..=30).contains(&rows), "{rows} rows laid out of {events}");
    let newest = open.battle().unwrap().events.last().unwrap().seq;
    assert!(
        h.query_all_by_label(&newest.to_string()).next().is_some(),
        "the newest event, {newest}, is in sight"
    );
}

/// A season of many battles: beyond eight, one drop-down with Previous and Next beside it
/// instead of a button each; a double click on "Add \"What Next?\" battle" adds one battle.
#[test]
fn many_battles_are_chosen_from_a_drop_down_and_a_double_click_adds_one() {
    let mut h = harness();
    start(&mut h);
    let battles = |h: &Harness<'static, App>| record(h).campaign.battles.len();
    let at = |h: &Harness<'static, App>| h.state().model.campaign.as_ref().expect("open").battle;
    let add = h.get_by_label("Add \"What Next?\" battle").rect().center();
    double_click_at(&mut h, add);
    assert_eq!(
        battles(&h),
        4,
        "the second click of a double click adds nothing"
    );
    // The button rests a moment (1.5 s), then adds again.
    let rest = (1.6 / h.ctx.input(|i| i.predicted_dt)) as usize;
    while battles(&h) < 9 {
        h.run_steps(rest);
        click(&mut h, "Add \"What Next?\" battle");
    }
    assert_eq!(at(&h), 8, "the battle just added is shown");
    assert!(shown(&h, "9 of 9"));
    assert!(
        h.query_by_label("Battle 2: Attack/Defend (not started)")
            .is_none(),
        "no button a battle"
    );
    click(&mut h, "◀ Previous");
    assert_eq!(at(&h), 7);
    pick(&mut h, "Battle", "Battle 2: Attack/Defend");
    assert_eq!(at(&h), 1);
    assert!(shown(&h, "2 of 9"));
    click(&mut h, "Next ▶");
    assert_eq!(at(&h), 2);
}

/// In a laptop's window (1024×700) the drop-down's row fits the page beside the action panel:
/// the count at its end is not cut off behind the panel, so the page needs no sideways scroll.
#[test]
fn many_battles_pick_from_a_row_that_fits_a_laptops_window() {
    let mut h = harness_sized(1024.0, 700.0);
    start(&mut h);
    let battles = |h: &Harness<'static, App>| record(h).campaign.battles.len();
    let rest = (1.6 / h.ctx.input(|i| i.predicted_dt)) as usize;
    while battles(&h) < 9 {
        click(&mut h, "Add \"What Next?\" battle");
        h.run_steps(rest);
    }
    let count = h.get_by_label("9 of 9").rect();
    let panel = h.get_by_label("Action").rect();
    assert!(
        count.max.x <= panel.min.x,
        "the count ends at {} but the action panel starts at {}",
        count.max.x,
        panel.min.x
    );
    let next = h.get_by_label("Next ▶").rect();
    assert!(next.max.x < count.min.x, "Next sits before the count");
}
