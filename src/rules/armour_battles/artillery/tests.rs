//! Artillery missions against the book's numbers, enumeration and seeded rolls.

use super::*;
use crate::rules::armour_battles::outcome::brute::{self, pow6};
use crate::rules::armour_battles::outcome::result_odds;
use crate::rules::armour_battles::{artillery_rules, fire_rules, unit_card};
use crate::rules::dice::Estimate;

fn card(name: &str) -> &'static UnitCard {
    unit_card(name).unwrap_or_else(|| panic!("no card {name}"))
}

fn odds(artillery: &str, target: &str, situation: ArtillerySituation) -> ArtilleryOdds {
    artillery_odds(card(artillery), card(target), &situation, 4).unwrap()
}

#[test]
fn the_artillery_reaction_variant_is_used() {
    let plain = ArtillerySituation::default();
    // StuG III 6D (5D): 5 against artillery. M10 5D (O): 4. Panther 7D/6D: 6.
    assert_eq!(
        odds("105L28 Howitzer", "M10", plain).attack.reaction_dice,
        4
    );
    assert_eq!(odds("M7", "StuG III", plain).attack.reaction_dice, 5);
    assert_eq!(odds("M7", "Panther", plain).attack.reaction_dice, 6);
    let a = odds("M7", "Panzer IV", plain).attack;
    // 4D at 4+, never modified by range.
    assert_eq!((a.attacker_dice, a.attacker_tn, a.reaction_tn), (4, 4, 4));
    // Light cover gives nothing against artillery (shown, with no effect).
    let covered = odds(
        "M7",
        "Panzer IV",
        ArtillerySituation {
            cover: true,
            ..plain
        },
    )
    .attack;
    assert_eq!(covered.reaction_dice, 5);
    assert_eq!(covered.result, a.result);
    assert!(
        covered
            .modifiers
            .iter()
            .any(|m| m.change == 0 && m.label.contains("cover"))
    );
}

#[test]
fn break_off_works_against_artillery_but_needs_the_rule() {
    let breaking = ArtillerySituation {
        break_off: true,
        ..ArtillerySituation::default()
    };
    assert_eq!(odds("M7", "Puma", breaking).attack.reaction_dice, 6);
    assert!(matches!(
        artillery_odds(card("M7"), card("Panzer IV"), &breaking, 4),
        Err(ResolveError::CannotEvade { .. })
    ));
    assert_eq!(
        artillery_odds(card("Panther"), card("M4 75mm"), &breaking, 4).unwrap_err(),
        ResolveError::NotArtillery {
            name: "Panther Ausf G".into()
        }
    );
    assert!(matches!(
        artillery_odds(card("M7"), card("105L28 Howitzer"), &breaking, 4),
        Err(ResolveError::CannotBeTargeted { .. })
    ));
}

#[test]
fn artillery_suppression_needs_more_sixes_and_equals_enumeration() {
    let rules = fire_rules().unwrap();
    for ((na, ta), (nd, td), existing) in [
        ((4, 4), (3, 4), 0),
        ((3, 4), (3, 5), 2),
        ((2, 4), (4, 4), 1),
    ] {
        let exact = result_odds(
            Pool::new(na, ta),
            Pool::new(nd, td),
            SuppressionRule::NotMoreSixes,
            existing,
            3,
            &rules.result,
        )
        .unwrap();
        let table = brute::fire_table((na, ta), (nd, td), true, existing, 3);
        let weight = |pred: &dyn Fn(&brute::Tallied) -> bool| -> u128 {
            table.iter().filter(|(k, _)| pred(k)).map(|(_, w)| *w).sum()
        };
        assert_eq!(exact.total, pow6(na + nd));
        assert_eq!(exact.suppressed_weight, weight(&|t| t.suppressed));
        assert_eq!(exact.forced_back_weight, weight(&|t| t.forced_back));
        assert_eq!(exact.dispersed_weight, weight(&|t| t.dispersed));
        for bucket in 0..4u32 {
            let expected = weight(&|t| t.new_points.min(3) == bucket);
            assert_eq!(exact.disruption_weights[bucket as usize], expected);
        }
        // Artillery suppresses at least as often as direct fire with the same dice.
        let direct = result_odds(
            Pool::new(na, ta),
            Pool::new(nd, td),
            SuppressionRule::FewerSixes,
            existing,
            3,
            &rules.result,
        )
        .unwrap();
        assert!(exact.suppressed_weight > direct.suppressed_weight);
        assert_eq!(exact.disruption_weights, direct.disruption_weights);
    }
    // Equal sixes force back 6″ with no dice.
    let brute = brute::forced_back_table((2, 4), (2, 4), true);
    let exact = result_odds(
        Pool::new(2, 4),
        Pool::new(2, 4),
        SuppressionRule::NotMoreSixes,
        0,
        3,
        &rules.result,
    )
    .unwrap();
    let inches = exact.forced_back_inches.unwrap();
    let brute_total: u128 = brute.values().sum();
    assert_eq!(*inches.lowest(), 6);
    for (&d, &count) in &brute {
        assert_eq!(
            inches.weight(&d) * brute_total,
            count * inches.total(),
            "{d}″"
        );
    }
}

#[test]
fn response_check_equals_enumeration() {
    let rules = artillery_rules().unwrap();
    for dice in [1u32, 3, 4] {
        let exact = response_odds(dice, rules).unwrap();
        let mut fires = 0u128;
        brute::for_each_roll(dice + 3, |faces| {
            let (ours, theirs) = faces.split_at(dice as usize);
            fires += u128::from(brute::count(ours, 4).0 > brute::count(theirs, 4).0);
        });
        assert_eq!(exact.total, pow6(dice + 3));
        assert_eq!(exact.fires_now_weight, fires, "{dice} response dice");
    }
}

#[test]
fn deviation_is_a_third_on_target_else_one_d6_inches() {
    let dev = deviation_odds(artillery_rules().unwrap()).unwrap();
    assert_eq!(dev.inches.total(), 36);
    let weights: Vec<(u32, u128)> = dev.inches.iter().map(|(k, w)| (*k, w)).collect();
    assert_eq!(
        weights,
        vec![(0, 12), (1, 4), (2, 4), (3, 4), (4, 4), (5, 4), (6, 4)]
    );
    assert!((dev.p_on_target - 1.0 / 3.0).abs() < 1e-15);
    assert!((dev.p_within_burst - 28.0 / 36.0).abs() < 1e-15);
}

#[test]
fn seeded_missions_agree_with_the_odds_and_replay() {
    let situation = ArtillerySituation {
        target_disruption: 1,
        ..ArtillerySituation::default()
    };
    let exact = odds("M7", "StuG III", situation);
    let mut roller = Roller::new(77);
    let trials = 20_000u64;
    let mut counts = [0u64; 5];
    for _ in 0..trials {
        let roll =
            roll_artillery(card("M7"), card("StuG III"), &situation, 4, &mut roller).unwrap();
        counts[0] += u64::from(roll.response.fires_now);
        counts[1] += u64::from(roll.deviation.on_target);
        counts[2] += u64::from(roll.attack.result.suppressed);
        counts[3] += u64::from(roll.attack.result.forced_back_inches.is_some());
        counts[4] += u64::from(roll.attack.result.dispersed);
    }
    let expected = [
        exact.response.p_fires_now,
        exact.deviation.p_on_target,
        exact.attack.p_suppressed(),
        exact.attack.p_forced_back(),
        exact.attack.p_dispersed(),
    ];
    for (hits, p) in counts.into_iter().zip(expected) {
        let est = Estimate::from_counts(hits, trials);
        assert!(est.z_score(p) < 4.0, "{est:?} vs {p}");
    }
    for seed in 0..20 {
        let a = roll_artillery(
            card("M7"),
            card("Puma"),
            &situation,
            4,
            &mut Roller::new(seed),
        );
        let b = roll_artillery(
            card("M7"),
            card("Puma"),
            &situation,
            4,
            &mut Roller::new(seed),
        );
        let a = a.unwrap();
        assert_eq!(Ok(a.clone()), b);
        assert_eq!(a.seed, seed);
        assert_eq!(a.response.ours.dice.len(), 4);
        assert_eq!(a.response.theirs.dice.len(), 3);
        assert_eq!(a.deviation.record.dice.len(), 2);
        assert_eq!(a.attack.attack.dice.len(), 4);
    }
}
