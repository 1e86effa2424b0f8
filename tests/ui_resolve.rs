//! The Resolve view clicked through by label with egui_kittest: Armour Battles odds that
//! match the rules API, and seeded rolls that replay from the dice log.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use quartermaster::rules::armour_battles::fire::{FireSituation, MoveOrder, fire_odds};
use quartermaster::rules::armour_battles::unit_card;
use quartermaster::ui::{App, View};

fn harness() -> Harness<'static, App> {
    let app = App::for_tests().expect("in-memory store opens");
    Harness::builder()
        .with_size(egui::vec2(1280.0, 860.0))
        .build_ui_state(|ui, app: &mut App| app.show(ui), app)
}

fn pct(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

/// Opens Resolve and picks Panzer IV H firing at an M4 75mm through the combo boxes.
fn panzer_at_sherman() -> Harness<'static, App> {
    let mut h = harness();
    h.run();
    h.get_by_label("Resolve").click();
    h.run();
    assert_eq!(h.state().prefs.view, View::Resolve);
    for (combo, choice) in [("Attacker", "Panzer IV H"), ("Target", "M4 75mm")] {
        h.get_by_label(combo).click();
        h.run();
        h.get_by_label(choice).click();
        h.run();
    }
    let setup = &h.state().resolve.setup;
    assert_eq!(setup.attacker.as_deref(), Some("Panzer IV H"));
    assert_eq!(setup.target.as_deref(), Some("M4 75mm"));
    h
}

#[test]
fn panzer_iv_at_sherman_odds_follow_the_toggles_and_match_fire_odds() {
    let mut h = panzer_at_sherman();
    assert!(h.query_by_label("Attacker dice: 8").is_some());
    assert!(h.query_by_label("Attacker TN: 4+").is_some());

    h.get_by_label("Double move").click();
    h.run();
    assert!(h.query_by_label("Attacker dice: 7").is_some());

    let situation = FireSituation {
        attacker_move: MoveOrder::Double,
        ..FireSituation::default()
    };
    let odds = fire_odds(
        unit_card("Panzer IV H").unwrap(),
        unit_card("M4 75mm").unwrap(),
        &situation,
    )
    .unwrap();
    assert_eq!(odds.attacker_dice, 7);
    let dispersed = format!("P(dispersed): {}", pct(odds.p_dispersed()));
    assert!(h.query_by_label(&dispersed).is_some(), "{dispersed} shown");
    let suppressed = format!("P(suppressed): {}", pct(odds.p_suppressed()));
    assert!(
        h.query_by_label(&suppressed).is_some(),
        "{suppressed} shown"
    );
    let [zero, one, ..] = odds.disruption();
    let zero = format!("0: {} (at least 0: 100.0%)", pct(zero));
    assert!(h.query_by_label(&zero).is_some(), "{zero} shown");
    let one = format!(
        "1: {} (at least 1: {})",
        pct(one),
        pct(odds.result.p_disruption_at_least(1))
    );
    assert!(h.query_by_label(&one).is_some(), "{one} shown");
    // The house-default ruling behind P(suppressed) is marked.
    assert!(h.query_all_by_label("(house default)").next().is_some());
}

#[test]
fn a_roll_with_seed_7_replays_from_the_log_with_identical_dice() {
    let mut h = panzer_at_sherman();
    h.state_mut().resolve.seed = 7;
    h.run();
    h.get_by_label("Roll").click();
    h.run();
    assert_eq!(h.state().resolve.log.len(), 1);
    let first = h.state().resolve.log[0].clone();
    assert_eq!(first.seed, 7);
    assert!(!first.dice.is_empty());
    assert!(
        h.query_by_label_contains("Panzer IV H fires at M4 75mm — seed 7")
            .is_some()
    );

    // A new seed changes the field but not the log; Replay uses the logged seed.
    h.get_by_label("New seed").click();
    h.run();
    h.get_by_label("Replay").click();
    h.run();
    let log = &h.state().resolve.log;
    assert_eq!(log.len(), 2);
    assert_eq!(log[0].seed, 7);
    assert_eq!(log[0].dice, first.dice, "same seed, same dice");
    assert_eq!(log[0].result, first.result);
}

#[test]
fn an_artillery_mission_lists_batteries_and_rolls_every_die() {
    use quartermaster::rules::armour_battles::artillery::{ArtillerySituation, artillery_odds};
    let mut h = harness();
    h.run();
    h.get_by_label("Resolve").click();
    h.run();
    h.get_by_label("Artillery").click();
    h.run();
    for (combo, choice) in [("Battery", "105L28 Howitzer"), ("Target", "M4 75mm")] {
        h.get_by_label(combo).click();
        h.run();
        h.get_by_label(choice).click();
        h.run();
    }
    // The Lorraine battle groups with artillery all have 4 response dice.
    let odds = artillery_odds(
        unit_card("105L28 Howitzer").unwrap(),
        unit_card("M4 75mm").unwrap(),
        &ArtillerySituation::default(),
        4,
    )
    .unwrap();
    let attack = format!("Attacker dice: {}", odds.attack.attacker_dice);
    assert!(h.query_by_label(&attack).is_some(), "{attack} shown");
    let dispersed = format!("P(dispersed): {}", pct(odds.attack.p_dispersed()));
    assert!(h.query_by_label(&dispersed).is_some(), "{dispersed} shown");
    assert!(h.query_by_label_contains("Response: 4D at").is_some());

    h.state_mut().resolve.seed = 11;
    h.run();
    h.get_by_label("Roll").click();
    h.run();
    let entry = &h.state().resolve.log[0];
    let parts: Vec<&str> = entry.dice.iter().map(|(what, _)| what.as_str()).collect();
    assert_eq!(
        &parts[..3],
        ["Response", "Opponent response", "Hit + scatter"]
    );
    assert!(parts[3].starts_with("Attack"));
    assert_eq!(entry.seed, 11);
}

#[test]
fn a_bolt_action_order_test_shows_exact_odds_and_replays() {
    use quartermaster::rules::bolt_action::Quality;
    use quartermaster::rules::bolt_action::resolve::{OrderTest, order_test_odds};
    let mut h = harness();
    h.run();
    h.get_by_label("Resolve").click();
    h.run();
    h.get_by_label("Ruleset").click();
    h.run();
    h.get_by_label("Bolt Action — order test").click();
    h.run();
    h.get_by_label("Veteran").click();
    h.run();
    h.get_by_label("Officer").click();
    h.run();
    h.get_by_label("Captain").click();
    h.run();
    let odds = order_test_odds(&OrderTest {
        quality: Quality::Veteran,
        pins: 0,
        officer: Some("captain".into()),
    })
    .unwrap();
    let target = format!("Pass on 2d6 at or under {}", odds.target);
    assert!(h.query_by_label(&target).is_some(), "{target} shown");
    let pass = format!("P(pass): {}", pct(odds.p_pass()));
    assert!(h.query_by_label(&pass).is_some(), "{pass} shown");

    h.state_mut().resolve.seed = 7;
    h.run();
    h.get_by_label("Roll").click();
    h.run();
    h.get_by_label("Replay").click();
    h.run();
    let log = &h.state().resolve.log;
    assert_eq!(log.len(), 2);
    assert_eq!(log[0].dice, log[1].dice);
    assert_eq!(log[0].dice[0].1.len(), 2, "two d6");
}

#[test]
fn belloludi_and_belle_epoque_command_rolls_show_odds_and_replay() {
    use quartermaster::rules::belle_epoque::resolve::{General, command_points_odds};
    use quartermaster::rules::belloludi::resolve::{CommandOutcome, command_odds};
    let mut h = harness();
    h.run();
    h.get_by_label("Resolve").click();
    h.run();
    for (mechanic, expected) in [
        (
            "BelloLudi — commander die",
            format!(
                "P(2 orders): {}",
                pct(command_odds()
                    .unwrap()
                    .probability(&CommandOutcome::Orders { orders: 2 }))
            ),
        ),
        ("Belle Epoque — command points", {
            let odds = command_points_odds(8, General::Average).unwrap();
            format!("Roll {}d{}", odds.dice, odds.sides)
        }),
    ] {
        h.get_by_label("Ruleset").click();
        h.run();
        h.get_by_label(mechanic).click();
        h.run();
        assert!(h.query_by_label(&expected).is_some(), "{expected} shown");
        h.state_mut().resolve.seed = 3;
        h.run();
        h.get_by_label("Roll").click();
        h.run();
        let first = h.state().resolve.log[0].clone();
        h.get_all_by_label("Replay").next().unwrap().click();
        h.run();
        let again = &h.state().resolve.log[0];
        assert_eq!(again.seed, 3);
        assert_eq!(again.dice, first.dice, "{mechanic}: same seed, same dice");
        assert_eq!(again.subject, first.subject);
    }
    assert_eq!(h.state().resolve.log.len(), 4);
}

#[test]
fn a_battle_of_tanks_volley_matches_fire_odds_and_replays() {
    use quartermaster::rules::Card;
    use quartermaster::rules::Ruleset;
    use quartermaster::rules::battle_of_tanks::BattleOfTanks;
    use quartermaster::rules::battle_of_tanks::resolve::{FireTarget, fire_odds};
    let tank = |name: &str| {
        BattleOfTanks
            .library()
            .iter()
            .find_map(|c| match c {
                Card::BattleOfTanks(t) if t.name == name => Some(t),
                _ => None,
            })
            .unwrap()
    };
    let mut h = harness();
    h.run();
    h.get_by_label("Resolve").click();
    h.run();
    h.get_by_label("Ruleset").click();
    h.run();
    h.get_by_label("Battle of Tanks — fire").click();
    h.run();
    for (combo, choice) in [("Firing tank", "T-80"), ("Target tank", "AMX 12t")] {
        h.get_by_label(combo).click();
        h.run();
        h.get_by_label(choice).click();
        h.run();
    }
    let attacker = tank("T-80");
    let odds = fire_odds(
        attacker,
        &FireTarget::new(tank("AMX 12t"), attacker.fire_rate),
    )
    .unwrap();
    let need = format!("{} shot(s), hit on {}+", odds.shots, odds.need);
    assert!(h.query_by_label(&need).is_some(), "{need} shown");
    let destroyed = format!(
        "P(destroyed): {}",
        pct(odds.damage.at_least(&odds.remaining_hp))
    );
    assert!(h.query_by_label(&destroyed).is_some(), "{destroyed} shown");

    h.state_mut().resolve.seed = 7;
    h.run();
    h.get_by_label("Roll").click();
    h.run();
    h.get_by_label("Replay").click();
    h.run();
    let log = &h.state().resolve.log;
    assert_eq!(log.len(), 2);
    assert_eq!(log[0].dice, log[1].dice);
    assert_eq!(log[0].dice[0].1.len() as u32, attacker.fire_rate);
}
