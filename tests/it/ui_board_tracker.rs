//! The board battle tracker clicked through with egui_kittest, on a Bolt Action campaign of two
//! saved forces: draw an order die, give an order through the form, shoot with the table's
//! dice and see the pins on the target's row, empty the bag and end the turn (Down and Ambush
//! kept as the rules say); then the step between battles and its "Set up battle 2" button.

use crate::ui_support::{click, pick, record, shown};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use quartermaster::rules::RulesetId;
use quartermaster::rules::battle::Side;
use quartermaster::rules::battle::board::Board;
use quartermaster::rules::force::{Force, ForceUnit};
use quartermaster::store::Store;
use quartermaster::ui::{App, CampaignCommand, Command};

/// A window over a fresh data folder holding the two saved Bolt Action forces, with a Bolt
/// Action campaign open whose first battle sets them against each other.
fn bolt_action_battle(dir: &std::path::Path) -> Harness<'static, App> {
    battle_window(
        dir,
        RulesetId::BoltAction,
        ("Normandy", "Hedgerows"),
        [
            ("Rifles", &["Regular Infantry Squad", "MMG Team"]),
            ("Grenadiers", &["Regular Infantry Squad", "Bazooka Team"]),
        ],
    )
}

/// A window over a fresh data folder holding two saved forces of `ruleset` (a name and its
/// book cards each), with a campaign `names.0` open whose first battle `names.1` sets them
/// against each other.
fn battle_window(
    dir: &std::path::Path,
    ruleset: RulesetId,
    names: (&str, &str),
    forces: [(&str, &[&str]); 2],
) -> Harness<'static, App> {
    let mut store = Store::open(dir).unwrap();
    // The app's dice follow the campaign's and the events' ids: fixed here (the machine's
    // name, the clock, the random source), so every run rolls the same.
    store
        .set_setting(
            quartermaster::store::SETTING_MACHINE_NAME,
            quartermaster::ui::TEST_MACHINE,
        )
        .unwrap();
    store.repeatable(quartermaster::ui::TEST_SEED);
    for (name, cards) in forces {
        let mut force = Force::new(ruleset, name);
        force.units = cards.iter().map(|c| ForceUnit::library(*c, 1)).collect();
        store.save_force(None, &force).unwrap();
    }
    let app = crate::ui_support::campaign_app(
        store,
        ruleset,
        names.0,
        Some((names.1, [forces[0].0, forces[1].0])),
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 2000.0))
        // A window's frame rate: double clicks and rests are timed as a player makes them.
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    h.run();
    h
}

fn open_id(h: &Harness<'static, App>) -> quartermaster::store::CampaignId {
    h.state()
        .model
        .campaign
        .as_ref()
        .expect("a campaign is open")
        .stored
        .id
}

fn board(h: &Harness<'static, App>, index: usize) -> Board {
    record(h).board(index).expect("a board battle")
}

fn log_len(h: &Harness<'static, App>) -> usize {
    record(h).logs[0].len()
}

/// Types, pool by pool as the rules ask for them, the faces `face` gives for each pool of the
/// open action, then records them.
fn table_dice(h: &mut Harness<'static, App>, face: impl Fn(&str) -> u8) {
    use quartermaster::rules::resolution::TableDice;
    let mut given = TableDice::new();
    for _ in 0..10 {
        let request = h
            .state()
            .campaign
            .board
            .open
            .clone()
            .expect("a form is open");
        let (asked, answer) = record(h).table_pools(0, &request, &given).unwrap();
        if answer.is_ok() {
            break;
        }
        // The first request not yet answered (a pool asked twice, as a squad's rifles and
        // its LMG roll to hit one after the other, is answered twice).
        let mut seen: std::collections::BTreeMap<&str, usize> = Default::default();
        let next = asked
            .iter()
            .find(|a| {
                let n = seen.entry(a.pool).or_default();
                *n += 1;
                given.rolls_of(a.pool) < *n
            })
            .unwrap_or_else(|| {
                panic!("a pool to answer: {asked:?} {:?} {request:?}", answer.err())
            });
        let roll = given.rolls_of(next.pool);
        let again = if roll > 0 {
            format!(" (roll {})", roll + 1)
        } else {
            String::new()
        };
        let faces = vec![face(next.pool); next.count as usize];
        let typed: String = faces.iter().map(u8::to_string).collect();
        crate::ui_resolve::type_faces(
            h,
            &format!("{}{again} — {}", next.pool, next.dice()),
            &typed,
        );
        given.add(next.pool, faces);
    }
    click(h, "Record these dice");
}

/// Draws a die of `side` ("first", "second") the players took from their own bag: the button
/// names the side's force.
fn draw(h: &mut Harness<'static, App>, side: &str) {
    let before = log_len(h);
    click(h, die_came_out(side));
    assert_eq!(
        log_len(h),
        before + 1,
        "the draw is recorded at once: {:?} {:?}",
        h.state().campaign.board.open,
        h.state().campaign.board.refusal
    );
}

/// Gives `unit` (its accessible name) the order `order` through the form.
fn order(h: &mut Harness<'static, App>, unit: &str, order: &str) {
    let before = log_len(h);
    click(h, &format!("Order {unit}"));
    pick(h, "Order", order);
    if h.query_by_label("Record these dice")
        .is_some_and(|b| b.accesskit_node().is_disabled())
    {
        // A pinned unit tests for its order: double one passes whatever the pins.
        table_dice(h, |_| 1);
    } else if h.query_by_label("Record these dice").is_some() {
        click(h, "Record these dice");
    } else {
        click(h, "Roll and record");
    }
    assert_eq!(log_len(h), before + 1, "the order is recorded");
}

#[test]
fn draw_order_shoot_and_end_the_turn_by_clicking() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = bolt_action_battle(dir.path());
    assert!(shown(&h, "Battle 1: Hedgerows"));
    assert!(
        shown(&h, "Turn 1 of 6"),
        "the strip says how many turns the battle lasts"
    );
    // Every die drawn the players' own way, every roll typed: the outcome is known.
    click(&mut h, "Rolled at the table");

    // The Rifles' squad lies in ambush.
    draw(&mut h, "first");
    assert_eq!(board(&h, 0).sides.first.get("drawn"), Some(&1));
    order(&mut h, "Regular Infantry Squad (Rifles)", "Ambush");
    let b = board(&h, 0);
    assert_eq!(b.unit("first-1").unwrap().order.as_deref(), Some("ambush"));

    // The Grenadiers' squad fires at the MMG team: every die a six to hit, every damage roll
    // a one, so the team takes a pin and no casualty.
    draw(&mut h, "second");
    order(&mut h, "Regular Infantry Squad (Grenadiers)", "Fire");
    let before = log_len(&h);
    click(
        &mut h,
        "Regular Infantry Squad (Grenadiers) fires (every model its weapon)",
    );
    pick(&mut h, "Target", "MMG Team");
    // The answer at a glance: the whole unit's expected casualties on a tile.
    assert!(
        h.query_all_by_label_contains("Expected casualties: ")
            .any(|n| n
                .accesskit_node()
                .value()
                .is_some_and(|l| l.starts_with("Expected casualties: "))),
        "the expected casualties are a headline figure"
    );
    table_dice(&mut h, |pool| if pool.contains("damage") { 1 } else { 6 });
    assert_eq!(log_len(&h), before + 1, "one shot recorded");
    let team = board(&h, 0).unit("first-2").unwrap().clone();
    assert_eq!(team.count("pins"), 1, "{team:?}");
    assert_eq!(team.count("casualties"), 0, "{team:?}");
    assert!(shown(&h, "pins 1"), "the pin shows on the team's row");

    // The pinned team goes down (its order test typed), the bazooka team goes down too.
    draw(&mut h, "first");
    order(&mut h, "MMG Team", "Down");
    // Enter records the open form as its button does.
    draw(&mut h, "second");
    let before = log_len(&h);
    click(&mut h, "Order Bazooka Team");
    pick(&mut h, "Order", "Down");
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(log_len(&h), before + 1, "Enter recorded the order");

    // The bag is empty: the turn ends.
    let b = board(&h, 0);
    assert!(b.sides.first.get("drawn").is_none_or(|n| *n == 0));
    click(&mut h, "End turn 1");
    let b = board(&h, 0);
    assert_eq!(b.turn, 2);
    assert!(shown(&h, "Turn 2 of 6"));
    assert!(shown(&h, "End turn 2"));
    // Down and Ambush are kept, their dice out of the bag; a Fire order is not.
    let unit = |id: &str| b.unit(id).unwrap().clone();
    assert!(unit("first-1").has("ambush"), "{:?}", unit("first-1"));
    assert!(unit("first-2").has("down"), "{:?}", unit("first-2"));
    assert!(unit("second-2").has("down"), "{:?}", unit("second-2"));
    assert_eq!(unit("second-1").order, None);
    assert!(!unit("second-1").has("done"));
    // Both Rifles units kept their orders: no die of theirs is in the bag.
    let before = log_len(&h);
    click(&mut h, die_came_out("first"));
    assert_eq!(log_len(&h), before, "no first player's die to draw");
    draw(&mut h, "second");
    order(&mut h, "Regular Infantry Squad (Grenadiers)", "Advance");
    click(&mut h, "End turn 2");
    assert_eq!(board(&h, 0).turn, 3);
}

#[test]
fn the_step_between_battles_shows_the_changes_and_sets_up_battle_two_once() {
    use quartermaster::campaign::BattlePlan;
    use quartermaster::rules::battle::table::engine;
    let dir = tempfile::tempdir().unwrap();
    let mut h = bolt_action_battle(dir.path());
    assert!(h.query_by_label("Before the next battle").is_none());
    // The battle played to its end by the ruleset's scripted player, recorded as a click would.
    for _ in 0..600 {
        let b = board(&h, 0);
        if b.outcome.is_some() {
            break;
        }
        let BattlePlan::Table(plan) = &*record(&h).campaign.battles[0] else {
            panic!("a board battle")
        };
        let request = (engine(RulesetId::BoltAction).unwrap().scripted)(plan, &b)
            .expect("the scripted player goes on to the end");
        let event = record(&h)
            .decide(0, &request, &h.state().model.player)
            .unwrap()
            .event;
        h.state_mut()
            .model
            .apply(Command::Campaign(CampaignCommand::Record(Box::new(event))));
    }
    let last = board(&h, 0);
    assert!(last.outcome.is_some(), "the battle ended");
    h.state_mut().campaign.board.promote_after = Some(1);
    h.run();
    h.run();
    assert!(shown(&h, "Before the next battle"));
    // The battle's steps are greyed where they stood; Undo still takes the end back.
    assert!(
        h.get_by_label("Draw a die from the bag")
            .accesskit_node()
            .is_disabled()
    );
    assert!(!h.get_by_label("Undo").accesskit_node().is_disabled());
    // A side the battle wiped out must buy a replacement before the next battle: the step
    // says so, and its picker buys one.
    let mut bought: quartermaster::campaign::Sides<
        Vec<quartermaster::campaign::roster::Reinforcement>,
    > = Default::default();
    for (side, force) in [(Side::First, "Rifles"), (Side::Second, "Grenadiers")] {
        if last.side_units(side).all(|u| !u.in_play()) {
            assert!(shown(
                &h,
                &format!(
                    "{force} has no unit left to field: buy a replacement, or the campaign ends here"
                )
            ));
            let key = (open_id(&h), 0);
            let form = h.state_mut().campaign.board.forms.of(key);
            form.buying.get_mut(side).0 = "Regular Infantry Squad".into();
            form.buying.get_mut(side).1 = 60;
            h.run();
            h.get_all_by_label("Buy")
                .find(|b| !b.accesskit_node().is_disabled())
                .expect("the side's Buy button")
                .click();
            h.run();
            bought.get_mut(side).push(
                quartermaster::campaign::roster::reinforcement(
                    RulesetId::BoltAction,
                    "Regular Infantry Squad",
                    Some(60),
                    &[],
                )
                .unwrap(),
            );
        }
    }
    let (_, changes) = record(&h).next_table_plan(0, "", 1, &bought).unwrap();
    assert!(!changes.is_empty());
    for change in &changes {
        let words = if change.house_rule {
            format!("{} (house rule)", change.change)
        } else {
            change.change.clone()
        };
        assert!(shown(&h, &words), "{words} is shown");
    }
    assert!(
        changes
            .iter()
            .any(|c| c.house_rule && c.change.contains("steps up")),
        "{changes:?}"
    );
    let lost = last.units.iter().any(|u| !u.in_play());
    assert_eq!(shown(&h, "lost for good"), lost);

    let at = h
        .get_by_label("Set up battle 2 with these changes")
        .rect()
        .center();
    crate::ui_support::double_click_at(&mut h, at);
    assert_eq!(record(&h).campaign.battles.len(), 2, "one battle added");
    let next = board(&h, 1);
    for unit in &next.units {
        let Some(was) = last.unit(&unit.id) else {
            // Bought between the battles, fresh.
            assert_eq!(unit.count("casualties"), 0);
            continue;
        };
        assert!(was.in_play(), "{} was lost and came back", unit.label);
        assert_eq!(unit.count("casualties"), was.count("casualties"));
        assert_eq!(unit.count("pins"), 0, "pins go between battles");
    }
    assert!(shown(&h, "Battle 2"));
}

#[test]
fn a_new_campaign_between_two_saved_forces_starts_with_its_first_battle() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = bolt_action_battle(dir.path());
    // A second campaign, made from the New campaign panel alone.
    h.state_mut().campaign.draft.ruleset = RulesetId::BoltAction;
    h.state_mut().campaign.draft.name = "Second front".into();
    h.run();
    pick(&mut h, "First player's force", "Grenadiers");
    pick(&mut h, "Second player's force", "Rifles");
    click(&mut h, "Start campaign");
    let made = record(&h);
    assert_eq!(made.campaign.name, "Second front");
    assert_eq!(made.campaign.battles.len(), 1, "its first battle is set up");
    let b = board(&h, 0);
    assert_eq!(b.side_units(Side::First).count(), 2);
    assert!(shown(&h, "Grenadiers against Rifles"));
    // A name already taken makes nothing, and adds no battle to the campaign that is open.
    h.state_mut().campaign.draft.name = "Normandy".into();
    h.run();
    pick(&mut h, "First player's force", "Grenadiers");
    pick(&mut h, "Second player's force", "Rifles");
    click(&mut h, "Start campaign");
    assert_eq!(record(&h).campaign.name, "Second front");
    assert_eq!(record(&h).campaign.battles.len(), 1);
}

/// The players end battle 1 with a winner and a note: battle 2 opens with no winner chosen and
/// no note (the form used to carry over, so one click ended battle 2 with a result nobody
/// chose), and Record result waits for a choice.
#[test]
fn a_result_recorded_in_one_battle_leaves_the_next_battles_form_empty() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = bolt_action_battle(dir.path());
    assert!(
        h.get_by_label("Record result")
            .accesskit_node()
            .is_disabled(),
        "no winner is chosen until a player chooses one"
    );
    // The winner's radio button (the force's name also heads its units).
    h.get_all_by_label("Grenadiers")
        .find(|n| n.accesskit_node().role() == egui::accesskit::Role::RadioButton)
        .expect("the winner's choice")
        .click();
    h.run();
    click(&mut h, "Notes");
    h.get_by_label("Notes").type_text("Bob withdrew");
    h.run();
    click(&mut h, "Record result");
    assert!(board(&h, 0).outcome.is_some(), "battle 1 is over");
    click(&mut h, "Set up battle 2 with these changes");
    assert_eq!(record(&h).campaign.battles.len(), 2);
    h.state_mut()
        .model
        .apply(Command::Campaign(CampaignCommand::SelectBattle(1)));
    h.run();
    h.run();
    assert!(shown(&h, "Battle 2"));
    let key = (open_id(&h), 1);
    let form = h.state_mut().campaign.board.forms.of(key).clone();
    assert_eq!(form, Default::default());
    assert!(
        h.get_by_label("Record result")
            .accesskit_node()
            .is_disabled()
    );
    assert!(h.query_by_value("Bob withdrew").is_none());
}

/// The button for a die of `side` taken from the bag, by the force's name.
fn die_came_out(side: &str) -> &'static str {
    match side {
        "first" => "Rifles' die came out",
        _ => "Grenadiers' die came out",
    }
}

/// Where the label's widget sits on screen.
fn centre_of(h: &Harness<'static, App>, label: &str) -> egui::Pos2 {
    h.get_by_label(label).rect().center()
}

/// A double click on Undo takes back one event, not two.
#[test]
fn double_clicking_undo_undoes_one_event() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = bolt_action_battle(dir.path());
    draw(&mut h, "first");
    order(&mut h, "Regular Infantry Squad (Rifles)", "Down");
    let undone = |h: &Harness<'static, App>| {
        record(h).logs[0]
            .iter()
            .filter(|e| matches!(e.event, quartermaster::campaign::Event::Undo { .. }))
            .count()
    };
    assert_eq!(undone(&h), 0);
    let at = centre_of(&h, "Undo");
    crate::ui_support::double_click_at(&mut h, at);
    assert_eq!(undone(&h), 1, "one event taken back");
    assert!(
        shown(&h, "Undone: Regular Infantry Squad (Rifles)"),
        "the status line says what was taken back, not the undone order as if it stood"
    );
}

/// A double click on Start campaign makes the campaign once: no second one, no "already
/// exists" after the first.
#[test]
fn double_clicking_start_campaign_makes_one_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = bolt_action_battle(dir.path());
    let campaigns = |h: &Harness<'static, App>| h.state().model.campaigns().len();
    let before = campaigns(&h);
    h.state_mut().campaign.draft.ruleset = RulesetId::BoltAction;
    h.state_mut().campaign.draft.name = "Second front".into();
    h.run();
    pick(&mut h, "First player's force", "Grenadiers");
    pick(&mut h, "Second player's force", "Rifles");
    let at = centre_of(&h, "Start campaign");
    crate::ui_support::double_click_at(&mut h, at);
    assert_eq!(campaigns(&h), before + 1);
    assert_eq!(record(&h).campaign.name, "Second front");
    assert!(!shown(&h, "already exists"), "no refusal of a second try");
}

/// Two pools typed at 8 ms a key (a fast typist or a dice reader: several keys a frame, all of
/// them here in one frame), Enter after each: both pools are recorded as typed. The second
/// pool's field appears only once the first's faces are read, and its keys used to go nowhere.
#[test]
fn two_pools_typed_at_speed_are_both_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = bolt_action_battle(dir.path());
    click(&mut h, "Rolled at the table");
    draw(&mut h, "second");
    order(&mut h, "Regular Infantry Squad (Grenadiers)", "Fire");
    let before = log_len(&h);
    click(
        &mut h,
        "Regular Infantry Squad (Grenadiers) fires (every model its weapon)",
    );
    pick(&mut h, "Target", "MMG Team");
    // Every die a six to hit, every damage die a one: the pools and their sizes as the rules
    // ask for them.
    let request = h
        .state()
        .campaign
        .board
        .open
        .clone()
        .expect("the form is open");
    let mut given = quartermaster::rules::resolution::TableDice::new();
    let mut keys = String::new();
    for _ in 0..10 {
        let (asked, answer) = record(&h).table_pools(0, &request, &given).unwrap();
        if answer.is_ok() {
            break;
        }
        // A pool asked twice (the rifles, then the LMG) is typed twice.
        let mut seen: std::collections::BTreeMap<&str, usize> = Default::default();
        let next = asked
            .iter()
            .find(|a| {
                let n = seen.entry(a.pool).or_default();
                *n += 1;
                given.rolls_of(a.pool) < *n
            })
            .expect("a pool to type");
        let face = if next.pool.contains("damage") { 1 } else { 6 };
        let faces = vec![face; next.count as usize];
        keys.extend(faces.iter().map(u8::to_string));
        keys.push('\n');
        given.add(next.pool, faces);
    }
    assert!(keys.matches('\n').count() >= 2, "two pools: {keys:?}");
    // The first field has the keyboard (the form gave it); every key arrives in one frame.
    for key in keys.chars() {
        let event = if key == '\n' {
            egui::Event::Key {
                key: egui::Key::Enter,
                physical_key: None,
                pressed: true,
                repeat: false,
                modifiers: egui::Modifiers::default(),
            }
        } else {
            egui::Event::Text(key.to_string())
        };
        h.input_mut().events.push(event);
    }
    // A frame or two per pool: the keys wait until the pool they belong to is asked for.
    h.run_steps(8);
    h.run();
    assert_eq!(log_len(&h), before + 1, "the shot is recorded");
    let team = board(&h, 0).unit("first-2").unwrap().clone();
    assert_eq!(team.count("pins"), 1, "{team:?}");
    assert_eq!(
        team.count("casualties"),
        0,
        "every damage die a one: {team:?}"
    );
}

/// A Battle of Tanks round ended with tanks still waiting for an order: the book ends it when
/// every stone is out of the bag, which the board does not draw, so the window asks first and
/// records nothing until the players say yes (issue #36, finding 10).
#[test]
fn ending_a_round_with_tanks_waiting_asks_before_it_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = battle_window(
        dir.path(),
        RulesetId::BattleOfTanks,
        ("Kursk", "Prokhorovka"),
        [("Heavy", &["Tiger I"]), ("Fast", &["IS-2"])],
    );
    let before = log_len(&h);
    click(&mut h, "End round 1");
    assert!(
        shown(&h, "no order yet this round"),
        "the question is asked"
    );
    assert_eq!(log_len(&h), before, "nothing recorded yet");
    click(&mut h, "Cancel");
    assert_eq!(board(&h, 0).turn, 1);
    click(&mut h, "End round 1");
    click(&mut h, "Yes, record it");
    assert_eq!(board(&h, 0).turn, 2, "ended once the players said so");
    assert!(shown(&h, "End round 2"));
}
