//! Direct and opportunity fire against the book's numbers, brute-force enumeration and
//! seeded Monte Carlo.

use super::*;
use crate::rules::armour_battles::outcome;
use crate::rules::armour_battles::outcome::brute::{self, pow6};
use crate::rules::armour_battles::{fire_rules, unit_card};
use crate::rules::dice::{Estimate, simulate_fire};

fn card(name: &str) -> &'static UnitCard {
    unit_card(name).unwrap_or_else(|| panic!("no card {name}"))
}

fn pools(attacker: &str, target: &str, situation: FireSituation) -> FirePools {
    fire_pools(
        card(attacker),
        card(target),
        &situation,
        fire_rules().unwrap(),
    )
    .unwrap()
}

fn odds(attacker: &str, target: &str, situation: FireSituation) -> FireOdds {
    fire_odds(card(attacker), card(target), &situation).unwrap()
}

#[test]
fn a_panzer_iv_fires_7d_on_a_double_move_and_6d_on_a_triple() {
    // "a Panzer IV has 8D AT. If it makes a double move this is reduced by -1D to 7D, and to
    // 6D if it makes a triple move."
    let move_with = |attacker_move| FireSituation {
        attacker_move,
        ..FireSituation::default()
    };
    assert_eq!(
        pools("Panzer IV", "M4 75mm", move_with(MoveOrder::Single))
            .attack
            .dice,
        8
    );
    assert_eq!(
        pools("Panzer IV", "M4 75mm", move_with(MoveOrder::Double))
            .attack
            .dice,
        7
    );
    assert_eq!(
        pools("Panzer IV", "M4 75mm", move_with(MoveOrder::Triple))
            .attack
            .dice,
        6
    );
    let odds = odds("Panzer IV", "M4 75mm", move_with(MoveOrder::Double));
    assert_eq!((odds.attacker_dice, odds.card_attacker_dice), (7, 8));
}

#[test]
fn reaction_dice_follow_the_cards() {
    let flank = FireSituation {
        flank: true,
        ..FireSituation::default()
    };
    // Panther 7D/6D: 7 against frontal fire, 6 against the flank.
    assert_eq!(
        pools("M4 76mm", "Panther", FireSituation::default())
            .reaction
            .dice,
        7
    );
    assert_eq!(pools("M4 76mm", "Panther", flank).reaction.dice, 6);
    // StuG III 6D (5D): 6 against direct fire from any side.
    assert_eq!(
        pools("M4 76mm", "StuG III", FireSituation::default())
            .reaction
            .dice,
        6
    );
    assert_eq!(pools("M4 76mm", "StuG III", flank).reaction.dice, 6);
    // "a unit of Panzer IVs in a wood ... When fired at they roll 6D, instead of their usual 5D."
    let cover = FireSituation {
        cover: true,
        ..FireSituation::default()
    };
    assert_eq!(pools("M4 76mm", "Panzer IV", cover).reaction.dice, 6);
}

#[test]
fn target_numbers_follow_range_and_flank() {
    let tn = |range, flank| {
        pools(
            "M4 75mm",
            "Panzer IV",
            FireSituation {
                range,
                flank,
                ..FireSituation::default()
            },
        )
        .attack
        .target
    };
    assert_eq!(tn(RangeBand::Short, false), 3);
    assert_eq!(tn(RangeBand::Effective, false), 4);
    assert_eq!(tn(RangeBand::Long, false), 5);
    assert_eq!(tn(RangeBand::Short, true), 2);
    assert_eq!(tn(RangeBand::Long, true), 4);
    let suppressed = pools(
        "M4 75mm",
        "Panzer IV",
        FireSituation {
            target_suppressed: true,
            ..FireSituation::default()
        },
    );
    assert_eq!(suppressed.reaction.target, 5);
}

#[test]
fn every_dice_modifier_adds_up() {
    // Tiger 10D + ambush + wild die + Staff Order = 13D; Puma 4D + cover + uphill + break-off
    // (+2) + wild die + Staff Order = 10D.
    let p = pools(
        "Tiger",
        "Puma",
        FireSituation {
            ambush: true,
            attacker_bonus: Bonus::from_count(2).unwrap(),
            cover: true,
            uphill: true,
            evasion: Some(Evasion::BreakOff),
            target_bonus: Bonus::from_count(2).unwrap(),
            ..FireSituation::default()
        },
    );
    assert_eq!((p.attack.dice, p.reaction.dice), (13, 10));
    assert_eq!(p.modifiers.len(), 8);
    assert!(Bonus::from_count(3).is_none());
    // Dice never go below zero.
    let rules = FireRules {
        move_dice: MoveModifiers {
            single: 0,
            double: -1,
            triple: -20,
        },
        ..fire_rules().unwrap().clone()
    };
    let triple = FireSituation {
        attacker_move: MoveOrder::Triple,
        ..FireSituation::default()
    };
    let p = fire_pools(card("M5"), card("Puma"), &triple, &rules).unwrap();
    assert_eq!(p.attack.dice, 0);
    let odds = fire_odds_with(card("M5"), card("Puma"), &triple, &rules).unwrap();
    assert_eq!(odds.disruption(), [1.0, 0.0, 0.0, 0.0]);
}

#[test]
fn evading_needs_the_special_rule_or_opportunity_fire() {
    let evading = |evasion, mode| FireSituation {
        evasion: Some(evasion),
        mode,
        ..FireSituation::default()
    };
    let try_fire = |target: &str, situation: FireSituation| {
        fire_pools(
            card("Panther"),
            card(target),
            &situation,
            fire_rules().unwrap(),
        )
    };
    // Puma and M5 have Break-Off; the M10 has Shoot and Scoot (and may always break off).
    for target in ["Puma", "M5", "M10"] {
        let p = try_fire(target, evading(Evasion::BreakOff, FireMode::Direct)).unwrap();
        let plain = try_fire(target, FireSituation::default()).unwrap();
        assert_eq!(p.reaction.dice, plain.reaction.dice + 2, "{target}");
    }
    assert!(try_fire("M10", evading(Evasion::ShootAndScoot, FireMode::Direct)).is_ok());
    assert!(matches!(
        try_fire("M4 75mm", evading(Evasion::BreakOff, FireMode::Direct)),
        Err(ResolveError::CannotEvade { .. })
    ));
    assert!(matches!(
        try_fire("Puma", evading(Evasion::ShootAndScoot, FireMode::Direct)),
        Err(ResolveError::CannotEvade { .. })
    ));
    // Disengaging: any unit, but only opportunity fire catches it.
    let d = try_fire(
        "M4 75mm",
        evading(Evasion::Disengage, FireMode::Opportunity),
    )
    .unwrap();
    assert_eq!(d.reaction.dice, 7);
    assert!(try_fire("M4 75mm", evading(Evasion::Disengage, FireMode::Direct)).is_err());
    // How a plain "evading" is read.
    assert_eq!(Evasion::for_target(card("M10")), Evasion::BreakOff);
    assert_eq!(Evasion::for_target(card("Puma")), Evasion::BreakOff);
    assert_eq!(Evasion::for_target(card("Tiger")), Evasion::Disengage);
}

#[test]
fn opportunity_fire_uses_the_same_maths_without_a_move() {
    let direct = odds("M4 76mm", "Panzer IV", FireSituation::default());
    let opportunity = odds(
        "M4 76mm",
        "Panzer IV",
        FireSituation {
            mode: FireMode::Opportunity,
            ..FireSituation::default()
        },
    );
    assert_eq!(direct.result, opportunity.result);
    let moving = FireSituation {
        mode: FireMode::Opportunity,
        attacker_move: MoveOrder::Double,
        ..FireSituation::default()
    };
    assert!(matches!(
        fire_odds(card("M4 76mm"), card("Panzer IV"), &moving),
        Err(ResolveError::Situation {
            field: "attacker_move",
            ..
        })
    ));
}

#[test]
fn off_table_artillery_neither_fires_directly_nor_is_a_target() {
    let s = FireSituation::default();
    assert_eq!(
        fire_odds(card("M7"), card("Panther"), &s).unwrap_err(),
        ResolveError::ArtilleryCannotFireDirectly {
            name: "M7 Howitzer Motor Carriage".into()
        }
    );
    assert!(matches!(
        fire_odds(card("Panther"), card("M7"), &s),
        Err(ResolveError::CannotBeTargeted { .. })
    ));
    let dispersed = FireSituation {
        target_disruption: 3,
        ..s
    };
    let err = fire_odds(card("Panther"), card("M4 75mm"), &dispersed).unwrap_err();
    assert!(
        err.to_string().contains("3 Disruption Points on M4 75mm"),
        "{err}"
    );
}

#[test]
fn exact_odds_equal_enumeration_of_every_face() {
    let rules = fire_rules().unwrap();
    let cases = [
        ((3, 4), (3, 4), 0),
        ((2, 3), (4, 5), 1),
        ((4, 2), (2, 4), 2),
        ((1, 6), (2, 4), 0),
        ((3, 5), (0, 4), 2),
        ((0, 4), (3, 4), 1),
    ];
    for ((na, ta), (nd, td), existing) in cases {
        let exact = outcome::result_odds(
            Pool::new(na, ta),
            Pool::new(nd, td),
            SuppressionRule::FewerSixes,
            existing,
            3,
            &rules.result,
        )
        .unwrap();
        let table = brute::fire_table((na, ta), (nd, td), false, existing, 3);
        let weight = |pred: &dyn Fn(&brute::Tallied) -> bool| -> u128 {
            table.iter().filter(|(k, _)| pred(k)).map(|(_, w)| *w).sum()
        };
        let label = format!("{na}D@{ta} vs {nd}D@{td}, {existing} DP");
        assert_eq!(exact.total, pow6(na + nd), "{label}");
        assert_eq!(exact.disruption_weights.iter().sum::<u128>(), pow6(na + nd));
        for bucket in 0..4u32 {
            let expected = weight(&|t| t.new_points.min(3) == bucket);
            assert_eq!(
                exact.disruption_weights[bucket as usize], expected,
                "{label}"
            );
        }
        assert_eq!(
            exact.suppressed_weight,
            weight(&|t| t.suppressed),
            "{label}"
        );
        assert_eq!(
            exact.forced_back_weight,
            weight(&|t| t.forced_back),
            "{label}"
        );
        assert_eq!(exact.dispersed_weight, weight(&|t| t.dispersed), "{label}");
        for (points, w) in exact.new_disruption.iter() {
            assert_eq!(w, weight(&|t| t.new_points == *points), "{label}");
        }
    }
}

#[test]
fn forced_back_distance_equals_enumeration() {
    let rules = fire_rules().unwrap();
    for ((na, ta), (nd, td)) in [((2, 4), (2, 4)), ((3, 3), (1, 5)), ((2, 2), (3, 4))] {
        let exact = outcome::result_odds(
            Pool::new(na, ta),
            Pool::new(nd, td),
            SuppressionRule::FewerSixes,
            0,
            3,
            &rules.result,
        )
        .unwrap();
        let inches = exact.forced_back_inches.unwrap();
        let brute = brute::forced_back_table((na, ta), (nd, td), false);
        let brute_total: u128 = brute.values().sum();
        assert_eq!(brute_total, exact.forced_back_weight * pow6(na));
        assert_eq!(inches.iter().map(|(_, w)| w).sum::<u128>(), inches.total());
        for (&distance, &count) in &brute {
            // Same probability: compare by cross-multiplying the exact integers.
            assert_eq!(
                inches.weight(&distance) * brute_total,
                count * inches.total(),
                "{distance}″"
            );
        }
        assert!(*inches.lowest() >= 7);
    }
}

#[test]
fn seeded_monte_carlo_agrees_within_four_standard_errors() {
    let situations = [
        ("Panther", "M4 75mm", FireSituation::default()),
        (
            "M4 76mm",
            "Panther",
            FireSituation {
                flank: true,
                range: RangeBand::Short,
                target_disruption: 1,
                ..FireSituation::default()
            },
        ),
        (
            "Panzer IV",
            "Puma",
            FireSituation {
                target_suppressed: true,
                evasion: Some(Evasion::BreakOff),
                target_disruption: 2,
                ..FireSituation::default()
            },
        ),
    ];
    for (seed, (attacker, target, situation)) in situations.into_iter().enumerate() {
        let odds = odds(attacker, target, situation);
        let tally = simulate_fire(
            Pool::new(odds.attacker_dice, odds.attacker_tn),
            Pool::new(odds.reaction_dice, odds.reaction_tn),
            200_000,
            seed as u64 + 11,
        )
        .unwrap();
        let close = |est: Estimate, exact: f64, what: &str| {
            assert!(
                est.z_score(exact) < 4.0,
                "{attacker} at {target}, {what}: {est:?} vs {exact}"
            );
        };
        // Direct fire suppression is exactly "attacker sixes > target sixes".
        close(tally.sixes_beat(), odds.p_suppressed(), "suppressed");
        // Forced back only when the target survives: fewer new points than disperse it.
        let existing = i64::from(situation.target_disruption);
        close(
            tally.net_between_and_sixes_beat(1, 2 - existing),
            odds.p_forced_back(),
            "forced back",
        );
        close(
            tally.net_at_least(3 - existing),
            odds.p_dispersed(),
            "dispersed",
        );
        let none = tally.net_at_least(1);
        let none = Estimate {
            p: 1.0 - none.p,
            ..none
        };
        let [p0, p1, p2, p3] = odds.disruption();
        close(none, p0, "0 DP");
        close(tally.net_exactly(1), p1, "1 DP");
        close(tally.net_exactly(2), p2, "2 DP");
        close(tally.net_at_least(3), p3, "3+ DP");
    }
}

#[test]
fn rolled_fire_matches_its_exact_odds() {
    // Our own loop over the Roller, counting forced back distances too.
    let situation = FireSituation {
        range: RangeBand::Short,
        target_disruption: 1,
        ..FireSituation::default()
    };
    let odds = odds("Tiger", "M4 76mm", situation);
    let mut roller = Roller::new(5);
    let trials = 20_000u64;
    let (mut suppressed, mut forced, mut dispersed, mut inches) = (0u64, 0u64, 0u64, 0u64);
    for _ in 0..trials {
        let roll = roll_fire(card("Tiger"), card("M4 76mm"), &situation, &mut roller).unwrap();
        suppressed += u64::from(roll.result.suppressed);
        dispersed += u64::from(roll.result.dispersed);
        if let Some(d) = roll.result.forced_back_inches {
            forced += 1;
            inches += u64::from(d);
        }
    }
    let check = |hits: u64, exact: f64| {
        let est = Estimate::from_counts(hits, trials);
        assert!(est.z_score(exact) < 4.0, "{est:?} vs {exact}");
    };
    check(suppressed, odds.p_suppressed());
    check(forced, odds.p_forced_back());
    check(dispersed, odds.p_dispersed());
    // Mean Forced Back distance: 6 + 3.5 per unmatched six, within 4 standard errors.
    let dist = odds.result.forced_back_inches.as_ref().unwrap();
    let mean = dist.expectation(|&d| f64::from(d));
    let var = dist.expectation(|&d| (f64::from(d) - mean).powi(2));
    let observed = inches as f64 / forced as f64;
    assert!((observed - mean).abs() < 4.0 * (var / forced as f64).sqrt());
}

#[test]
fn a_roll_replays_from_its_seed() {
    let situation = FireSituation {
        range: RangeBand::Short,
        flank: true,
        ..FireSituation::default()
    };
    for seed in 0..50 {
        let first = roll_fire(
            card("Panther"),
            card("M4 75mm"),
            &situation,
            &mut Roller::new(seed),
        );
        let again = roll_fire(
            card("Panther"),
            card("M4 75mm"),
            &situation,
            &mut Roller::new(seed),
        );
        let roll = first.unwrap();
        assert_eq!(Ok(roll.clone()), again);
        assert_eq!(roll.seed, seed);
        assert!(
            roll.records()
                .iter()
                .all(|r| r.is_genuine() && r.seed == seed)
        );
        // The result is what the dice say.
        let a = roll.attack.pool_outcome(2);
        assert_eq!(roll.attack.dice.len(), 9);
        assert_eq!(a, roll.attack_outcome);
        match &roll.reaction {
            Some(reaction) => {
                let d = reaction.pool_outcome(4);
                assert_eq!(reaction.dice.len(), 5);
                assert_eq!(
                    roll.result.new_disruption,
                    a.successes.saturating_sub(d.successes)
                );
                assert_eq!(roll.result.suppressed, a.sixes > d.sixes);
            }
            None => assert_eq!(a.successes, 0),
        }
        assert_eq!(
            roll.forced_back_roll.is_some(),
            roll.result.suppressed && roll.result.new_disruption > 0 && !roll.result.dispersed
        );
        if let (Some(dice), Some(inches)) = (&roll.forced_back_roll, roll.result.forced_back_inches)
        {
            assert_eq!(dice.dice.len() as u32, roll.result.unmatched_sixes);
            assert_eq!(
                inches,
                6 + dice.dice.iter().map(|&f| u32::from(f)).sum::<u32>()
            );
        }
        assert_eq!(roll.result.dispersed, roll.morale_roll.is_some());
        if let Some(loss) = roll.result.army_morale_loss {
            assert!((1..=3).contains(&loss));
        }
    }
}

#[test]
fn dispersal_costs_one_d3_army_morale() {
    let odds = odds(
        "Panther",
        "M5",
        FireSituation {
            target_disruption: 2,
            ..FireSituation::default()
        },
    );
    let loss = &odds.result.army_morale_loss;
    assert_eq!(
        loss.iter().map(|(k, w)| (*k, w)).collect::<Vec<_>>(),
        vec![(1, 1), (2, 1), (3, 1)]
    );
    // With 2 points already, one new point disperses.
    assert_eq!(odds.p_dispersed(), odds.result.p_disruption_at_least(1));
}

#[test]
fn house_defaults_are_named() {
    let odds = odds("Panther", "M4 75mm", FireSituation::default());
    let values: Vec<&str> = odds.house_defaults.iter().map(|h| h.value).collect();
    assert_eq!(values, ["p_suppressed", "forced_back_inches"]);
    // The clamp only shows when it bites, e.g. with a house rule of −2 for the flank.
    let rules = FireRules {
        flank_tn: -2,
        ..fire_rules().unwrap().clone()
    };
    let s = FireSituation {
        range: RangeBand::Short,
        flank: true,
        ..FireSituation::default()
    };
    let odds = fire_odds_with(card("Panther"), card("M4 75mm"), &s, &rules).unwrap();
    assert_eq!(odds.attacker_tn, 2);
    assert!(odds.house_defaults.iter().any(|h| h.value == "attacker_tn"));
}

#[test]
fn direct_counting_equals_the_dice_cores_fold_for_big_pools() {
    // Pools too big to enumerate face by face: check against Opposed::fold instead.
    let rules = fire_rules().unwrap();
    for rule in [SuppressionRule::FewerSixes, SuppressionRule::NotMoreSixes] {
        for (attack, reaction) in [
            (Pool::new(12, 4), Pool::new(10, 5)),
            (Pool::new(9, 2), Pool::new(7, 4)),
        ] {
            let exact = outcome::result_odds(attack, reaction, rule, 1, 3, &rules.result).unwrap();
            let opposed = crate::rules::dice::Opposed::new(attack, reaction).unwrap();
            let points = opposed.fold(|a, d| a.successes.saturating_sub(d.successes));
            assert_eq!(exact.new_disruption, points);
            assert_eq!(
                exact.suppressed_weight,
                opposed.weight_where(|a, d| rule.suppresses(a, d))
            );
            let forced = opposed.fold(|a, d| {
                // On 1 Disruption Point, 2 new points disperse: only 1 forces back.
                let forced = rule.suppresses(a, d) && a.successes == d.successes + 1;
                forced.then(|| a.sixes.saturating_sub(d.sixes))
            });
            let sixes = exact.forced_back_sixes.unwrap();
            for (k, w) in forced.iter() {
                match k {
                    Some(unmatched) => assert_eq!(sixes.weight(unmatched), w),
                    None => assert_eq!(w, exact.total - exact.forced_back_weight),
                }
            }
            assert_eq!(exact.dispersed_weight, points.weight_at_least(&2));
        }
    }
}

#[test]
fn a_target_on_two_disruption_points_is_dispersed_by_a_hit_never_forced_back() {
    // RULINGS "Fire result": a unit dispersed by the fire is removed, not forced back.
    let situation = FireSituation {
        target_disruption: 2,
        ..FireSituation::default()
    };
    let odds = odds("Panzer IV H", "M4 75mm", situation);
    assert_eq!(odds.result.forced_back_weight, 0);
    assert_eq!(odds.p_forced_back(), 0.0);
    assert!(odds.p_dispersed() > 0.5);
    let mut roller = Roller::new(3);
    for _ in 0..2_000 {
        let roll = roll_fire(
            card("Panzer IV H"),
            card("M4 75mm"),
            &situation,
            &mut roller,
        )
        .unwrap();
        assert!(roll.result.forced_back_inches.is_none() || !roll.result.dispersed);
        assert!(roll.forced_back_roll.is_none(), "2 DP + a hit disperses");
    }
}

#[test]
fn forced_back_counts_only_the_outcomes_the_target_survives() {
    // Enumerated independently: 3 dice at 4+ against 2 dice at 4+, target on 1 DP, so one new
    // point forces back and two or more disperse.
    let situation = FireSituation {
        target_disruption: 1,
        ..FireSituation::default()
    };
    let exact = outcome::result_odds(
        Pool::new(3, 4),
        Pool::new(2, 4),
        SuppressionRule::FewerSixes,
        situation.target_disruption,
        3,
        &fire_rules().unwrap().result,
    )
    .unwrap();
    let mut survived_and_forced = 0u128;
    brute::for_each_roll(5, |faces| {
        let (a, d) = faces.split_at(3);
        let (a_s, a_x) = brute::count(a, 4);
        let (d_s, d_x) = brute::count(d, 4);
        let new = a_s.saturating_sub(d_s);
        if a_x >= 1 && d_x < a_x && new == 1 {
            survived_and_forced += 1;
        }
    });
    assert_eq!(exact.forced_back_weight, survived_and_forced);
}
