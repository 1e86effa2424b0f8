//! The Resolve view clicked through by label with egui_kittest: one view for every mechanic,
//! odds that match the rules API or are counted here from the dice faces, seeded rolls that
//! replay from the dice log, and custom cards beside the book's.

use crate::ui_support::{choose, click, window};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use quartermaster::rules::armour_battles::fire::{FireSituation, MoveOrder, fire_odds};
use quartermaster::rules::armour_battles::unit_card;
use quartermaster::rules::resolution::{self, InputValue};
use quartermaster::ui::{App, Command, View};

fn pct(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

/// Opens Resolve on `mechanic` (its label in the Ruleset picker).
fn open_mechanic(mechanic: &str) -> Harness<'static, App> {
    let mut h = window();
    click(&mut h, "Resolve");
    // The first mechanic is shown already (its name is then on screen more than once).
    if h.state().resolve.current().title() != mechanic {
        choose(&mut h, "Ruleset", mechanic);
    }
    h
}

/// Types `value` into the drag value labelled `label`, replacing what it held.
fn type_into(h: &mut Harness<'static, App>, label: &str, value: &str) {
    crate::ui_support::type_into(h, label, value);
    h.key_press(egui::Key::Enter);
    h.run();
}

/// Sets an input of the shown mechanic directly, as a test shortcut for a drag value.
fn set(h: &mut Harness<'static, App>, key: &'static str, value: InputValue) {
    h.state_mut().resolve.set(key, value);
    h.run();
    h.run();
}

/// Rolls with `seed` and returns the new top of the log.
fn roll_with_seed(h: &mut Harness<'static, App>, seed: u64) -> quartermaster::ui::RollEntry {
    let before = h.state().resolve.log.len();
    h.state_mut().resolve.seed = seed;
    h.run();
    click(h, "Roll");
    let log = &h.state().resolve.log;
    assert_eq!(log.len(), before + 1, "Roll adds one log entry");
    assert_eq!(log[0].seed(), Some(seed));
    log[0].clone()
}

/// P(k successes in n tries) for each k, with per-try chance `p`.
fn binomial(n: u32, p: f64) -> Vec<f64> {
    let choose = |n: u32, k: u32| (0..k).fold(1.0, |c, i| c * f64::from(n - i) / f64::from(i + 1));
    (0..=n)
        .map(|k| choose(n, k) * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32))
        .collect()
}

fn shown(h: &Harness<'static, App>, text: &str) {
    assert!(h.query_all_by_label(text).next().is_some(), "{text} shown");
}

fn house_defaults(h: &Harness<'static, App>) -> usize {
    h.query_all_by_label("(house default)").count()
}

/// Opens Resolve and picks Panzer IV H firing at an M4 75mm through the combo boxes.
fn panzer_at_sherman() -> Harness<'static, App> {
    let mut h = window();
    click(&mut h, "Resolve");
    assert_eq!(h.state().prefs.view, View::Resolve);
    choose(&mut h, "Attacker", "Panzer IV H");
    choose(&mut h, "Target", "M4 75mm");
    h
}

#[test]
fn panzer_iv_at_sherman_odds_follow_the_toggles_and_match_fire_odds() {
    let mut h = panzer_at_sherman();
    shown(&h, "Attacker dice: 8");
    shown(&h, "Attacker TN: 4+");

    click(&mut h, "Double move");
    shown(&h, "Attacker dice: 7");

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
    shown(&h, &format!("P(dispersed): {}", pct(odds.p_dispersed())));
    shown(&h, &format!("P(suppressed): {}", pct(odds.p_suppressed())));
    let [zero, one, ..] = odds.disruption();
    shown(&h, &format!("New Disruption Points 0: {}", pct(zero)));
    shown(
        &h,
        &format!(
            "New Disruption Points 1: {} (at least 1: {})",
            pct(one),
            pct(odds.result.p_disruption_at_least(1))
        ),
    );
    // The house-default ruling behind P(suppressed) is marked, and spelled out in words.
    assert!(house_defaults(&h) >= 1);
    assert!(
        h.query_by_label_contains("p_suppressed").is_none(),
        "no keys"
    );
    assert!(
        h.query_by_label_contains("• Direct fire suppresses")
            .is_some()
    );
}

#[test]
fn a_roll_with_seed_7_replays_from_the_log_with_identical_dice() {
    let mut h = panzer_at_sherman();
    h.state_mut().resolve.seed = 7;
    h.run();
    click(&mut h, "Roll");
    assert_eq!(h.state().resolve.log.len(), 1);
    let first = h.state().resolve.log[0].clone();
    assert_eq!(first.seed(), Some(7));
    assert!(!first.dice.is_empty());
    assert!(
        h.query_by_label_contains("Panzer IV H fires at M4 75mm — seed 7")
            .is_some()
    );

    // A new seed changes the field but not the log; Replay uses the logged seed.
    click(&mut h, "New seed");
    click(&mut h, "Replay");
    let log = &h.state().resolve.log;
    assert_eq!(log.len(), 2);
    assert_eq!(log[0].seed(), Some(7));
    assert_eq!(log[0].dice, first.dice, "same seed, same dice");
    assert_eq!(log[0].result, first.result);
}

#[test]
fn an_artillery_mission_lists_batteries_and_rolls_every_die() {
    use quartermaster::rules::armour_battles::artillery::{ArtillerySituation, artillery_odds};
    let mut h = window();
    click(&mut h, "Resolve");
    click(&mut h, "Artillery");
    choose(&mut h, "Battery", "105L28 Howitzer");
    choose(&mut h, "Target", "M4 75mm");
    // The Lorraine battle groups with artillery all have 4 response dice.
    let odds = artillery_odds(
        unit_card("105L28 Howitzer").unwrap(),
        unit_card("M4 75mm").unwrap(),
        &ArtillerySituation::default(),
        4,
    )
    .unwrap();
    shown(&h, &format!("Attacker dice: {}", odds.attack.attacker_dice));
    shown(
        &h,
        &format!("P(dispersed): {}", pct(odds.attack.p_dispersed())),
    );
    assert!(h.query_by_label_contains("4D at 4+ against").is_some());

    let entry = roll_with_seed(&mut h, 11);
    let parts: Vec<&str> = entry.dice.iter().map(|(what, _)| what.as_str()).collect();
    assert!(parts[0].starts_with("response"), "{parts:?}");
    assert!(parts[1].starts_with("opponent response"), "{parts:?}");
    assert_eq!(parts[2], "hit + scatter");
    assert!(parts[3].starts_with("attack"), "{parts:?}");
}

#[test]
fn a_bolt_action_order_test_shows_exact_odds_and_replays() {
    use quartermaster::rules::bolt_action::Quality;
    use quartermaster::rules::bolt_action::resolve::{OrderTest, order_test_odds};
    let mut h = open_mechanic("Bolt Action — order test");
    click(&mut h, "Veteran");
    choose(&mut h, "Officer", "Captain (+3)");
    let odds = order_test_odds(&OrderTest {
        quality: Quality::Veteran,
        pins: 0,
        officer: Some("captain".into()),
        modifier: 0,
    })
    .unwrap();
    shown(&h, &format!("Pass on 2d6 at or under: {}", odds.target));
    shown(&h, &format!("P(pass): {}", pct(odds.p_pass())));

    h.state_mut().resolve.seed = 7;
    h.run();
    click(&mut h, "Roll");
    click(&mut h, "Replay");
    let log = &h.state().resolve.log;
    assert_eq!(log.len(), 2);
    assert_eq!(log[0].dice, log[1].dice);
    assert_eq!(log[0].dice[0].1.len(), 2, "two d6");
}

#[test]
fn bolt_action_close_quarters_shows_the_exact_chain_and_rolls_rounds() {
    use quartermaster::rules::bolt_action::Quality;
    use quartermaster::rules::bolt_action::close_quarters::{
        CloseQuarters, Fighters, Winner, chance, fight_odds,
    };
    let mut h = open_mechanic("Bolt Action — close quarters");
    type_into(&mut h, "Assaulting models", "7");
    type_into(&mut h, "Defending models", "4");
    set(&mut h, "target_quality", InputValue::Choice("veteran"));
    let odds = fight_odds(&CloseQuarters {
        attackers: Fighters::new(7, Quality::Regular),
        defenders: Fighters::new(4, Quality::Veteran),
    })
    .unwrap();
    shown(
        &h,
        &format!(
            "P(attackers win): {}",
            pct(chance(&odds.p_wins(Winner::Attackers)))
        ),
    );
    let entry = roll_with_seed(&mut h, 5);
    assert_eq!(entry.dice[0].1.len(), 7, "a die per attacking model");
    click(&mut h, "Replay");
    let log = &h.state().resolve.log;
    assert_eq!(log[0].dice, log[1].dice);
}

#[test]
fn a_bolt_action_assault_on_a_tank_without_anti_tank_weapons_tests_at_minus_three() {
    let mut h = open_mechanic("Bolt Action — assault on a vehicle");
    set(&mut h, "damage_value", InputValue::Count(9));
    set(&mut h, "armoured", InputValue::Flag(true));
    set(&mut h, "quality", InputValue::Choice("regular"));
    shown(&h, "Order test at or under: 6");
    choose(&mut h, "Anti-tank weapons", "Yes");
    assert!(
        h.query_all_by_label("Order test at or under: 6")
            .next()
            .is_none()
    );
}

#[test]
fn belloludi_and_belle_epoque_command_rolls_show_odds_and_replay() {
    use quartermaster::rules::belle_epoque::resolve::{General, command_points_odds};
    use quartermaster::rules::belloludi::resolve::{CommandOutcome, command_odds};
    let mut h = window();
    click(&mut h, "Resolve");
    let points = command_points_odds(24, General::Average).unwrap();
    for ((mechanic, expected), seed) in [
        (
            "BelloLudi Tanks! — commander die",
            format!(
                "P(2 orders): {}",
                pct(command_odds()
                    .unwrap()
                    .probability(&CommandOutcome::Orders { orders: 2 }))
            ),
        ),
        (
            "Belle Epoque — command points",
            format!(
                "Command points for 24 stands: {}d{}",
                points.dice, points.sides
            ),
        ),
    ]
    .into_iter()
    .zip(3..)
    {
        click(&mut h, "Ruleset");
        click(&mut h, mechanic);
        shown(&h, &expected);
        h.state_mut().resolve.seed = seed;
        h.run();
        click(&mut h, "Roll");
        let first = h.state().resolve.log[0].clone();
        h.get_all_by_label("Replay").next().unwrap().click();
        h.run();
        let again = &h.state().resolve.log[0];
        assert_eq!(again.seed(), Some(seed));
        assert_eq!(again.dice, first.dice, "{mechanic}: same seed, same dice");
        assert_eq!(again.subject, first.subject);
    }
    assert_eq!(h.state().resolve.log.len(), 4);
}

#[test]
fn a_battle_of_tanks_volley_matches_fire_odds_and_replays() {
    use quartermaster::rules::battle_of_tanks::resolve::{FireTarget, fire_odds};
    use quartermaster::rules::battle_of_tanks::tank_card;
    let tank = |name: &str| tank_card(name).unwrap();
    let mut h = open_mechanic("Battle of Tanks — fire");
    choose(&mut h, "Firing tank", "T-80");
    choose(&mut h, "Target tank", "AMX 12t");
    let attacker = tank("T-80");
    let odds = fire_odds(
        attacker,
        &FireTarget::new(tank("AMX 12t"), attacker.fire_rate),
    )
    .unwrap();
    shown(&h, &format!("AMX 12t: to hit {}", odds.need_words()));
    shown(&h, &format!("Shots: {}", odds.shots));
    shown(
        &h,
        &format!(
            "P(destroyed): {}",
            pct(odds.damage.at_least(&odds.remaining_hp))
        ),
    );

    let entry = roll_with_seed(&mut h, 7);
    assert_eq!(entry.title, "T-80 fires at AMX 12t");
    click(&mut h, "Replay");
    let log = &h.state().resolve.log;
    assert_eq!(log.len(), 2);
    assert_eq!(log[0].dice, log[1].dice);
    assert_eq!(log[0].dice[0].1.len() as u32, attacker.fire_rate);
}

// ---------------------------------------------------------------------------------------
// The four smaller rulesets: each expected figure is counted here from the dice faces, not
// taken from the rules API, so a slip in either shows.

#[test]
fn a_belloludi_shot_at_close_range_counts_hits_and_bullseyes_from_the_faces() {
    let mut h = open_mechanic("BelloLudi Tanks! — shot");
    choose(&mut h, "Shooting tank", "Medium Tank");
    choose(&mut h, "Target tank", "Heavy Tank");
    click(&mut h, "Within close range (8″)");

    // 4+ less the close-range +1: 3+, a 1 missing and a 6 hitting whatever the need.
    let hits = (1..=6u32).filter(|&f| f == 6 || (f != 1 && f >= 3)).count();
    let p_hit = hits as f64 / 6.0;
    shown(&h, "To hit (d6; a 1 always misses, a 6 always hits): 3+");
    shown(&h, &format!("P(hit): {}", pct(p_hit)));
    // The Medium Tank rolls 2 commander dice, each a d20 with one B face.
    let with_b = (1..=20u32)
        .flat_map(|a| (1..=20u32).map(move |b| (a, b)))
        .filter(|&(a, b)| a == 20 || b == 20)
        .count();
    let p_bullseye = p_hit * with_b as f64 / 400.0;
    shown(&h, &format!("P(bullseye: destroyed): {}", pct(p_bullseye)));
    // The to-hit reading, the commander die, disorder and the tank states are house
    // readings, and say so.
    assert!(house_defaults(&h) >= 3);

    let entry = roll_with_seed(&mut h, 5);
    assert_eq!(entry.title, "Medium Tank shoots at Heavy Tank");
    assert_eq!(entry.dice[0].0, "to hit (3+)");
    assert_eq!(entry.dice[0].1.len(), 1);
    click(&mut h, "Replay");
    assert_eq!(h.state().resolve.log[0].dice, entry.dice);
}

#[test]
fn a_battle_of_tanks_fire_order_splits_the_fire_rate_over_two_hull_down_targets() {
    let mut h = open_mechanic("Battle of Tanks — fire");
    choose(&mut h, "Firing tank", "T-80");
    choose(&mut h, "Target tank", "AMX 12t");
    click(&mut h, "Add target tank");
    choose(&mut h, "Target tank 2", "Pz.Kpfw. II Luchs");
    type_into(&mut h, "Shots 1", "2");
    type_into(&mut h, "Shots 2", "4");
    let shots: Vec<i64> = h
        .state_mut()
        .resolve
        .form_mut()
        .inputs
        .list("target")
        .iter()
        .map(|t| t.number("shots"))
        .collect();
    assert_eq!(shots, [2, 4], "typed shots");
    click(&mut h, "Hull-down turret shot");

    // T-80: accuracy 2+, fire rate 6. Hull-down drops the cover modifier, so 2+ (a 1 always
    // misses); only the T face of the house penetration die (2 blank, K, T, 2 W) counts.
    assert!(
        h.query_by_label_contains("T-80 fires (accuracy 2+, fire rate 6,")
            .is_some()
    );
    shown(&h, "AMX 12t: to hit 2+ (a 1 always misses)");
    shown(&h, "Pz.Kpfw. II Luchs: to hit 2+ (a 1 always misses)");
    let pen_die = ["blank", "blank", "K", "T", "W", "W"];
    let per_shot = (1..=6u32)
        .flat_map(|hit| pen_die.iter().map(move |face| (hit, *face)))
        .filter(|&(hit, face)| hit >= 2 && face == "T")
        .count() as f64
        / 36.0;
    for (shots, target) in [(2, "AMX 12t"), (4, "Pz.Kpfw. II Luchs")] {
        let p = 1.0 - (1.0 - per_shot).powi(shots);
        shown(
            &h,
            &format!("P(at least one penetration) ({target}): {}", pct(p)),
        );
    }
    assert_eq!(
        h.query_all_by_label_contains("only T penetrates").count(),
        2,
        "both volleys are turret-only"
    );

    let entry = roll_with_seed(&mut h, 21);
    assert_eq!(entry.title, "T-80 fires at AMX 12t and Pz.Kpfw. II Luchs");
    let to_hit: Vec<usize> = entry
        .dice
        .iter()
        .filter(|(what, _)| what.starts_with("to hit"))
        .map(|(_, d)| d.len())
        .collect();
    assert_eq!(to_hit, [2, 4], "one d6 per shot, target by target");
}

#[test]
fn a_bolt_action_rifle_volley_needing_7_plus_shows_the_six_then_four_odds() {
    let mut h = open_mechanic("Bolt Action — shooting");
    choose(&mut h, "Weapon", "Rifle");
    type_into(&mut h, "Models firing", "5");
    assert_eq!(h.state_mut().resolve.form_mut().inputs.count("firers"), 5);
    choose(&mut h, "Target unit", "Regular Infantry Squad");
    for toggle in ["Hard cover (−2)", "Long range", "Firing on the move"] {
        click(&mut h, toggle);
    }
    // 3+ with hard cover −2, long range −1, moving −1: 7+, a 6 and then a 4+.
    shown(&h, "To hit: 7+: a 6, then a 4+.");
    let p_hit = (1..=6u32)
        .flat_map(|a| (1..=6u32).map(move |b| (a, b)))
        .filter(|&(a, b)| a == 6 && b >= 4)
        .count() as f64
        / 36.0;
    shown(&h, &format!("P(hit) per shot: {}", pct(p_hit)));
    // A rifle has no PEN: d6 ≥ 4 against regular infantry.
    let p_damage = (1..=6u32).filter(|&f| f >= 4).count() as f64 / 6.0;
    shown(&h, &format!("P(damage) per hit: {}", pct(p_damage)));
    let hits = binomial(5, p_hit);
    let at_least_2: f64 = hits[2..].iter().sum();
    shown(
        &h,
        &format!("Hits 2: {} (at least 2: {})", pct(hits[2]), pct(at_least_2)),
    );
    // One pin whenever anything hits.
    let p_pinned = 1.0 - hits[0];
    shown(
        &h,
        &format!("Pins 1: {} (at least 1: {})", pct(p_pinned), pct(p_pinned)),
    );
    assert!(house_defaults(&h) >= 1, "7+ ruling marked");

    let entry = roll_with_seed(&mut h, 9);
    assert_eq!(
        entry.title,
        "5 × Rifle (1 shot each) at Regular Infantry Squad (damage value 4+)"
    );
    assert_eq!(entry.dice[0].0, "to hit");
    assert_eq!(entry.dice[0].1.len(), 5, "one shot per rifle");
}

#[test]
fn belle_epoque_fire_uphill_at_close_order_in_cover_counts_every_face() {
    let mut h = open_mechanic("Belle Epoque — fire");
    // Type B, 4 stands, 1 UD: to hit on 5 or less.
    set(&mut h, "troop_type", InputValue::Choice("b"));
    set(&mut h, "stands", InputValue::Count(4));
    set(&mut h, "range", InputValue::Count(1));
    click(&mut h, "Cover");
    click(&mut h, "Firer uphill");
    shown(&h, "type B fire at 1 UD");
    shown(&h, "Hit on or under: 5");
    // Close order in cover: a 1 misses too; a 6 never hits; uphill adds a fifth die.
    let hits = |f: u32| (2..=5).contains(&f);
    let p_die = (1..=6).filter(|&f| hits(f)).count() as f64 / 6.0;
    shown(&h, &format!("P(hit) per die: {}", pct(p_die)));
    let mut lost = [0u32; 6];
    for code in 0..6u32.pow(5) {
        let count = (0..5).filter(|i| hits(code / 6u32.pow(*i) % 6 + 1)).count();
        lost[count] += 1;
    }
    let total = 6f64.powi(5);
    let exactly_3 = f64::from(lost[3]) / total;
    let at_least_3 = lost[3..].iter().map(|&w| f64::from(w)).sum::<f64>() / total;
    shown(
        &h,
        &format!(
            "Stands lost 3: {} (at least 3: {})",
            pct(exactly_3),
            pct(at_least_3)
        ),
    );
    assert!(house_defaults(&h) >= 1, "fire table marked");

    let entry = roll_with_seed(&mut h, 1900);
    assert_eq!(entry.dice[0].1.len(), 5, "four stands and the uphill die");
    assert!(
        entry.result.contains("the target loses"),
        "{}",
        entry.result
    );
    assert!(!entry.result.contains("(s)"), "{}", entry.result);
}

#[test]
fn a_belle_epoque_assault_of_zulus_against_regulars_sums_successful_faces() {
    let mut h = open_mechanic("Belle Epoque — assault");
    choose(&mut h, "Attacker", "Zulu Warriors");
    choose(&mut h, "Defender", "British Regulars");
    // Zulus: 4 stands of choc troops (SS 1–4); British: 3 stands of close regulars (1–3).
    shown(
        &h,
        "Assault: Zulu Warriors (4 stands) at SS 1–4 against British Regulars (3 stands) at SS 1–3",
    );
    let scores = |stands: u32, level: u32| {
        let mut dist = vec![0u64; 6 * stands as usize + 1];
        for code in 0..6u32.pow(stands) {
            let sum: u32 = (0..stands)
                .map(|i| code / 6u32.pow(i) % 6 + 1)
                .map(|f| if f <= level { f } else { 0 })
                .sum();
            dist[sum as usize] += 1;
        }
        dist
    };
    let (zulu, british) = (scores(4, 4), scores(3, 3));
    let mut wins = 0u64;
    for (a, wa) in zulu.iter().enumerate() {
        for (d, wd) in british.iter().enumerate() {
            if a > d {
                wins += wa * wd;
            }
        }
    }
    let p = wins as f64 / 6f64.powi(7);
    shown(&h, &format!("P(attacker wins): {}", pct(p)));
    let entry = roll_with_seed(&mut h, 1879);
    assert_eq!(entry.dice[0].1.len(), 4);
    assert_eq!(entry.dice[1].1.len(), 3);
}

#[test]
fn a_roll_error_goes_away_as_soon_as_the_situation_changes() {
    let mut h = window();
    click(&mut h, "Resolve");
    choose(&mut h, "Attacker", "Panzer IV H");
    click(&mut h, "Roll");
    // Once as the odds panel's answer, once as the roll's error.
    let missing = "Target: choose the target";
    assert_eq!(h.query_all_by_label(missing).count(), 2);
    assert!(h.state().resolve.roll_error.is_some());

    // A toggle that does not fix the problem still makes the error stale.
    click(&mut h, "Flank or rear shot");
    assert!(h.state().resolve.roll_error.is_none());
    assert_eq!(h.query_all_by_label(missing).count(), 1);

    // The same holds in another ruleset's form.
    click(&mut h, "Ruleset");
    click(&mut h, "Battle of Tanks — fire");
    click(&mut h, "Roll");
    let missing = "Firing tank: choose the firing tank";
    assert_eq!(h.query_all_by_label(missing).count(), 2);
    choose(&mut h, "Firing tank", "T-80");
    assert!(h.query_by_label(missing).is_none());
    assert!(h.state().resolve.roll_error.is_none());
    assert!(h.state().resolve.log.is_empty(), "no roll succeeded");
}

#[test]
fn an_impossible_combination_is_refused_with_the_reason_naming_the_input() {
    let mut h = open_mechanic("Battle of Tanks — fire");
    choose(&mut h, "Firing tank", "T-80");
    choose(&mut h, "Target tank", "AMX 12t");
    click(&mut h, "Firing on the move (Angriff)");
    click(&mut h, "Ambush (Hinterhalt)");
    assert!(
        h.query_by_label_contains(
            "Ambush (Hinterhalt): an ambush (Hinterhalt) is fired by a tank that is not moving"
        )
        .is_some()
    );
}

// ---------------------------------------------------------------------------------------
// Armour Battles beyond fire: command dice, rally and breakdown.

#[test]
fn armour_battles_command_dice_show_failure_odds_counted_from_every_face() {
    let mut h = open_mechanic("Armour Battles — command dice");
    // Battle 1's numbers in one click: US 4D, German 3D, the first pulse rolled for.
    click(&mut h, "Battle 1");
    let inputs = h.state_mut().resolve.form_mut().inputs.clone();
    assert_eq!(
        (inputs.count("us_dice"), inputs.count("german_dice")),
        (4, 3)
    );

    // The book: more 1s than 6s is a Command Failure. Count it over all 6^n faces.
    let failure = |dice: u32| {
        let failing = (0..6u32.pow(dice))
            .filter(|code| {
                let faces: Vec<u32> = (0..dice).map(|i| code / 6u32.pow(i) % 6 + 1).collect();
                let ones = faces.iter().filter(|&&f| f == 1).count();
                let sixes = faces.iter().filter(|&&f| f == 6).count();
                ones > sixes
            })
            .count();
        failing as f64 / 6f64.powi(dice as i32)
    };
    shown(&h, &format!("P(US Command Failure): {}", pct(failure(4))));
    shown(
        &h,
        &format!("P(German Command Failure): {}", pct(failure(3))),
    );
    shown(
        &h,
        &format!(
            "P(both fail: the turn ends), per roll: {}",
            pct(failure(4) * failure(3))
        ),
    );

    // In Battle 2 the US goes first automatically: the Germans can never go first.
    click(&mut h, "Battle 2");
    shown(&h, "P(German first pulse), after any rerolls: 0.0%");

    let entry = roll_with_seed(&mut h, 1944);
    assert_eq!(entry.title, "Command dice, Battle 2");
    let last_two: Vec<(&str, usize)> = entry.dice[entry.dice.len() - 2..]
        .iter()
        .map(|(what, d)| (what.split(' ').next().unwrap(), d.len()))
        .collect();
    assert_eq!(last_two[0].0, "US");
    assert_eq!(last_two[1].0, "German");
    assert!(
        entry.result.contains("first pulse: US") || entry.result.contains("the turn ends"),
        "{}",
        entry.result
    );
    assert!(!entry.result.contains("(s)"), "{}", entry.result);

    // Past the exact first-pulse limit the failure odds still show, with a note.
    type_into(&mut h, "US command dice", "10");
    assert_eq!(h.state_mut().resolve.form_mut().inputs.count("us_dice"), 10);
    // 6^10 faces are too many to walk in a debug build: count them by how many 1s and 6s
    // they hold instead (n choose a ones, then b sixes among the rest, 4 other faces each).
    let choose = |n: u64, k: u64| (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1));
    let failing_10: u64 = (0..=10u64)
        .flat_map(|a| (0..=10 - a).map(move |b| (a, b)))
        .filter(|(a, b)| a > b)
        .map(|(a, b)| choose(10, a) * choose(10 - a, b) * 4u64.pow((10 - a - b) as u32))
        .sum();
    let failure_10 = failing_10 as f64 / 6f64.powi(10);
    shown(&h, &format!("P(US Command Failure): {}", pct(failure_10)));
    assert!(h.query_by_label_contains("at most 8 dice a side").is_some());
}

#[test]
fn a_rally_roll_with_seed_42_shows_what_roll_rally_rolls() {
    use quartermaster::rules::armour_battles::rally::{RallySituation, rally_odds, roll_rally};
    use quartermaster::rules::dice::Roller;
    use quartermaster::rules::words::{amount, plural};
    let mut h = open_mechanic("Armour Battles — rally");
    choose(&mut h, "Unit", "Panzer IV H");
    type_into(&mut h, "Disruption Points", "2");
    type_into(&mut h, "Closest enemy (inches)", "10");
    click(&mut h, "In or behind cover");
    let inputs = h.state_mut().resolve.form_mut().inputs.clone();
    assert_eq!(
        (inputs.count("disruption"), inputs.number("distance")),
        (2, 10.0)
    );

    let unit = unit_card("Panzer IV H").unwrap();
    let situation = RallySituation {
        distance_inches: 10.0,
        cover: true,
        disruption: 2,
        ..RallySituation::default()
    };
    // Every Lorraine battle group has 4 Rally Dice. The Rally Table is a house default and
    // says so; 10″ is in the "up to 12″" row.
    shown(&h, "Rally dice (battle group 4D): 5");
    shown(&h, "Rally TN: 5+");
    shown(&h, "Rally Table row: over 6″ up to 12″: 5+ (10″ away)");
    assert!(house_defaults(&h) >= 2);
    let odds = rally_odds(unit, 4, &situation).unwrap();
    shown(
        &h,
        &format!(
            "Disruption Points removed 1: {} (at least 1: {})",
            pct(odds.removed.probability(&1)),
            pct(odds.p_removed_at_least(1))
        ),
    );

    let entry = roll_with_seed(&mut h, 42);
    let roll = roll_rally(unit, 4, &situation, &mut Roller::new(42)).unwrap();
    assert_eq!(entry.title, "Panzer IV H rallies");
    let faces: Vec<Vec<u8>> = entry.dice.iter().map(|(_, d)| d.clone()).collect();
    assert_eq!(faces, [roll.rally.dice.clone(), roll.opponent.dice.clone()]);
    assert_eq!(
        entry.dice[0].0,
        format!(
            "rally (5+: {}, {} × 6)",
            plural(u64::from(roll.rally_successes), "success", "successes"),
            roll.rally.count(6)
        )
    );
    let result = format!(
        "{} removed, {} left",
        amount(u64::from(roll.removed), "Disruption Points"),
        roll.remaining
    );
    assert_eq!(entry.result, result);
    shown(&h, &result);
}

#[test]
fn a_tiger_double_move_breaks_down_as_move_odds_says_and_a_panther_never_does() {
    use quartermaster::rules::armour_battles::reliability::{move_odds, roll_move};
    use quartermaster::rules::dice::Roller;
    let mut h = open_mechanic("Armour Battles — breakdown");
    choose(&mut h, "Unit", "Tiger I");
    click(&mut h, "Double move");
    let tiger = unit_card("Tiger I").unwrap();
    let odds = move_odds(tiger, MoveOrder::Double).unwrap();
    shown(&h, &format!("P(breaks down): {}", pct(odds.p_breakdown())));
    assert!(
        house_defaults(&h) >= 1,
        "the reading of the move's dice is marked"
    );
    let entry = roll_with_seed(&mut h, 8);
    let roll = roll_move(tiger, MoveOrder::Double, &mut Roller::new(8)).unwrap();
    assert_eq!(entry.dice, [("move dice".to_string(), roll.record.dice)]);

    choose(&mut h, "Unit", "Panther Ausf G");
    shown(
        &h,
        "Panther Ausf G has no Poor Reliability: it never breaks down.",
    );
    shown(&h, "P(breaks down): 0.0%");
}

#[test]
fn pressing_roll_twice_never_reuses_dice_and_replays_are_marked() {
    let mut h = panzer_at_sherman();
    h.state_mut().resolve.seed = 7;
    h.run();
    click(&mut h, "Roll");
    // The field shows the seed of the roll on screen: copying it copies those dice.
    assert_eq!(h.state().resolve.seed, 7);
    click(&mut h, "Roll");
    let log = h.state().resolve.log.clone();
    assert_eq!(log.len(), 2);
    let next = h.state().resolve.seed;
    assert_ne!(next, 7, "a second press draws a fresh seed");
    assert_eq!(log[0].seed(), Some(next), "and the field shows it");
    assert_ne!(log[0].seed(), log[1].seed());
    assert!(!log[0].replay && !log[1].replay);
    // Replay from the log: the old seed's dice, marked as a replay.
    h.get_all_by_label("Replay").nth(1).unwrap().click();
    h.run();
    let replayed = h.state().resolve.log[0].clone();
    assert_eq!(replayed.seed(), Some(7));
    assert_eq!(replayed.dice, log[1].dice);
    assert!(replayed.replay);
    assert!(h.query_by_label_contains("— seed 7 (replay)").is_some());
    // A logged seed typed back in is a replay too.
    h.state_mut().resolve.seed = log[0].seed().unwrap();
    h.run();
    click(&mut h, "Roll");
    assert!(h.state().resolve.log[0].replay);
}

// ---------------------------------------------------------------------------------------
// One view for every mechanic.

/// The whole text of the one label starting with `start`.
fn text_of(h: &Harness<'static, App>, start: &str) -> String {
    let node = h.get_by_label_contains(start);
    let node = node.accesskit_node();
    [node.label(), node.value()]
        .into_iter()
        .flatten()
        .find(|t| t.contains(start))
        .unwrap_or_default()
}

/// For one mechanic of each ruleset: pick it, fill its cards, change one input, and the odds
/// on screen change with it.
#[test]
fn each_rulesets_mechanic_answers_a_changed_input_with_changed_odds() {
    // (mechanic, the cards to pick, the input to change, the figure it moves)
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str, &'a str);
    let cases: [Case; 5] = [
        (
            "Armour Battles — fire",
            &[("Attacker", "Tiger I"), ("Target", "M10 Tank Destroyer")],
            "Target in cover",
            "P(dispersed): ",
        ),
        (
            "BelloLudi Tanks! — shot",
            &[("Shooting tank", "Heavy Tank"), ("Target tank", "Sherman")],
            "Target in open order",
            "P(hit): ",
        ),
        (
            "Battle of Tanks — fire",
            &[("Firing tank", "IS-2"), ("Target tank", "Tiger I")],
            "Target moved this turn",
            "P(hit) per shot: ",
        ),
        (
            "Bolt Action — shooting",
            &[
                ("Firing unit", "Regular Infantry Squad"),
                ("Target unit", "Veteran Infantry Squad"),
            ],
            "Point blank",
            "P(hit) per shot: ",
        ),
        (
            "Belle Epoque — assault",
            &[("Attacker", "Cavalry"), ("Defender", "Militia Infantry")],
            "Cover or rough terrain",
            "P(attacker wins): ",
        ),
    ];
    for (mechanic, cards, toggle, figure) in cases {
        let mut h = open_mechanic(mechanic);
        for (combo, card) in cards {
            choose(&mut h, combo, card);
        }
        let before = text_of(&h, figure);
        click(&mut h, toggle);
        let after = text_of(&h, figure);
        assert_ne!(before, after, "{mechanic}: {toggle} changes {figure}");
    }
}

#[test]
fn a_custom_card_is_listed_beside_the_book_cards_and_resolves() {
    let mut h = window();
    let mut card = quartermaster::rules::ruleset(quartermaster::rules::RulesetId::Belloludi)
        .library()
        .iter()
        .find(|c| c.name() == "Heavy Tank")
        .unwrap()
        .clone();
    if let quartermaster::rules::Card::Belloludi(v) = &mut card {
        v.name = "Sherman".into();
    }
    h.state_mut()
        .model
        .apply(Command::SaveCustomCard { id: None, card });
    h.run();
    click(&mut h, "Resolve");
    click(&mut h, "Ruleset");
    click(&mut h, "BelloLudi Tanks! — shot");
    choose(&mut h, "Shooting tank", "Medium Tank");
    // The book's Sherman and the custom one are both offered, told apart.
    click(&mut h, "Target tank");
    assert!(h.query_by_label("Sherman").is_some());
    click(&mut h, "Sherman · custom");
    assert!(
        h.query_by_label_contains("Medium Tank shoots at Sherman · custom (")
            .is_some()
    );
    let entry = roll_with_seed(&mut h, 4);
    assert_eq!(entry.title, "Medium Tank shoots at Sherman · custom");
}

#[test]
fn every_mechanic_is_in_the_picker() {
    let mut h = window();
    click(&mut h, "Resolve");
    click(&mut h, "Ruleset");
    for mechanic in resolution::mechanics() {
        assert!(
            h.query_all_by_label(&mechanic.title()).next().is_some(),
            "{}",
            mechanic.title()
        );
    }
}

// ---------------------------------------------------------------------------------------
// Dice rolled at the table.

/// Types `faces` into the dice entry labelled `label`.
pub(crate) fn type_faces(h: &mut Harness<'static, App>, label: &str, faces: &str) {
    h.get_by_label(label).focus();
    h.run();
    h.get_by_label(label).type_text(faces);
    h.run();
}

#[test]
fn dice_typed_at_the_table_are_asked_pool_by_pool_and_give_the_derived_result() {
    use quartermaster::rules::resolution::{DiceSource, TableDice};
    let mut h = panzer_at_sherman();
    click(&mut h, "Rolled at the table");
    // 8 attack dice for the Panzer IV (shown above); the reaction pool is asked for once the
    // attack has scored.
    assert!(h.query_by_label_contains("reaction —").is_none());
    assert!(
        h.get_by_label("Resolve these dice")
            .accesskit_node()
            .is_disabled()
    );
    type_faces(&mut h, "attack — 8 d6", "66543211");
    let reaction = h
        .get_by_label_contains("reaction —")
        .accesskit_node()
        .label()
        .unwrap_or_default();
    assert_eq!(reaction, "reaction — 5 d6");
    type_faces(&mut h, "reaction — 5 d6", "6,2,2,1,1");
    // Four successes against one: three new points disperse the Sherman, and the Army
    // Morale die is asked for last.
    assert!(
        h.get_by_label("Resolve these dice")
            .accesskit_node()
            .is_disabled()
    );
    type_faces(&mut h, "army_morale — 1 d3", "2");
    click(&mut h, "Resolve these dice");

    let entry = h.state().resolve.log[0].clone();
    let dice = TableDice::new()
        .with("attack", vec![6, 6, 5, 4, 3, 2, 1, 1])
        .with("reaction", vec![6, 2, 2, 1, 1])
        .with("army_morale", vec![2]);
    let mechanic = h.state().resolve.current();
    let expected = mechanic
        .resolve_roll(&entry.subject.inputs, dice.clone())
        .unwrap();
    assert_eq!(entry.report.result, expected.result);
    assert_eq!(entry.report.values, expected.values);
    assert_eq!(entry.seed(), None);
    assert!(
        entry.result.contains("4 successes against 1"),
        "{}",
        entry.result
    );
    assert!(
        entry.result.contains("the side loses 2 Army Morale Points"),
        "{}",
        entry.result
    );
    assert!(h.query_by_label_contains("— rolled at the table").is_some());
    // Done: the same faces are not logged twice, and Replay gives the same result.
    assert!(h.get_by_label("Resolved").accesskit_node().is_disabled());
    click(&mut h, "Replay");
    let log = &h.state().resolve.log;
    assert_eq!(log.len(), 2);
    assert!(log[0].replay);
    assert_eq!(log[0].result, entry.result);
    assert!(matches!(&log[0].source, DiceSource::Table(_)));
}

#[test]
fn wrong_faces_typed_at_the_table_say_what_is_wrong_and_roll_nothing() {
    let mut h = panzer_at_sherman();
    click(&mut h, "Rolled at the table");
    type_faces(&mut h, "attack — 8 d6", "665");
    assert!(h.query_by_label("attack: 3 of 8 faces so far").is_some());
    assert!(
        h.get_by_label("Resolve these dice")
            .accesskit_node()
            .is_disabled()
    );
    type_faces(&mut h, "attack — 8 d6", "432111");
    assert!(
        h.query_by_label_contains("attack: 9 faces given: the rules roll 8 d6 here")
            .is_some()
    );
    assert!(
        h.get_by_label("Resolve these dice")
            .accesskit_node()
            .is_disabled()
    );
    type_faces(&mut h, "attack — 8 d6", "x");
    assert!(h.query_by_label_contains("'x' is not a die face").is_some());
    assert!(h.state().resolve.log.is_empty());
}

#[test]
fn roll_and_new_seed_stay_put_whatever_the_seeds_length() {
    let mut h = panzer_at_sherman();
    let places = |h: &mut Harness<'static, App>, seed: u64| {
        h.state_mut().resolve.seed = seed;
        h.run();
        h.run();
        (
            h.get_by_label("Roll").rect(),
            h.get_by_label("New seed").rect(),
        )
    };
    let short = places(&mut h, 1);
    let long = places(&mut h, 987_654_321);
    assert_eq!(short, long);
    // Rolling, and the seed field then showing the roll's seed, moves neither.
    click(&mut h, "Roll");
    assert_eq!(h.state().resolve.seed, 987_654_321);
    assert_eq!(places(&mut h, 987_654_321), short);
}

#[test]
fn an_estimate_reads_as_one_in_the_window() {
    let mut h = open_mechanic("Bolt Action — shooting");
    set(
        &mut h,
        "weapon",
        InputValue::Choice("Flamethrower (vehicle)"),
    );
    set(&mut h, "firers", InputValue::Count(3));
    // The target list is longer than its drop-down: picked as the combo box would.
    h.state_mut().resolve.form_mut().cards.insert(
        ("target", 0),
        quartermaster::ui::CardKey::Book(
            quartermaster::rules::RulesetId::BoltAction,
            "Medium Tank".into(),
        ),
    );
    h.run();
    shown(
        &h,
        "3 × Flamethrower (vehicle) (2D6 shots each) at Medium Tank (damage value 9+)",
    );
    let line = text_of(&h, "P(knocked out): ");
    assert!(line.starts_with("P(knocked out): ≈ "), "{line}");
    assert!(line.contains(" ± "), "{line}");
    // Exact per-shot odds stay plain.
    let exact = text_of(&h, "P(hit) per shot: ");
    assert!(!exact.contains('≈'), "{exact}");
    assert!(h.query_by_label_contains("Hits 20: ≈ ").is_some());
}
