//! Bolt Action resolution checked against the reference sheets and against brute-force
//! enumeration of every face (the enumeration hard-codes the sheet's numbers).

use std::collections::BTreeMap;

use super::*;
use crate::rules::bolt_action::vehicle_damage::KnockOut;
use crate::rules::dice::Estimate;
use crate::rules::dice::test_support::for_each_d6s;

fn weapon(name: &str) -> &'static Weapon {
    tables().unwrap().weapon(name).unwrap()
}

/// Exact and brute-force odds agree: same outcomes, and every weight in the same ratio to
/// its total (the exact side divides out common factors, so totals may differ).
fn assert_same_odds<K: Ord + Clone + std::fmt::Debug>(
    exact: &Dist<K>,
    brute: &BTreeMap<K, u128>,
    what: &str,
) {
    let brute_total: u128 = brute.values().sum();
    assert_eq!(
        exact.iter().map(|(_, w)| w).sum::<u128>(),
        exact.total(),
        "{what}: weights sum to the total"
    );
    let exact_keys: Vec<K> = exact.iter().map(|(k, _)| k.clone()).collect();
    let brute_keys: Vec<K> = brute.keys().cloned().collect();
    assert_eq!(exact_keys, brute_keys, "{what}: outcomes");
    for (k, w) in exact.iter() {
        assert_eq!(
            w * brute_total,
            brute[k] * exact.total(),
            "{what}: weight of {k:?}"
        );
    }
}

#[test]
fn order_tests_match_enumeration() {
    let morale = [
        (Quality::Inexperienced, 8),
        (Quality::Regular, 9),
        (Quality::Veteran, 10),
    ];
    let officers = [
        (None, 0),
        (Some("second_lieutenant"), 1),
        (Some("first_lieutenant"), 2),
        (Some("captain"), 3),
        (Some("major"), 4),
    ];
    for (quality, base) in morale {
        for pins in 0..=6u32 {
            for (officer, bonus) in officers {
                let test = OrderTest {
                    quality,
                    pins,
                    officer: officer.map(String::from),
                    modifier: 0,
                };
                let odds = order_test_odds(&test).unwrap();
                let target = base - pins as i32 + bonus;
                assert_eq!(odds.target, target);
                assert_eq!(odds.outcome.total(), 216);
                let mut brute = BTreeMap::new();
                for_each_d6s(3, &mut |f| {
                    let outcome = if f[0] == 6 && f[1] == 6 {
                        OrderResult::Fubar {
                            result: if f[2] <= 2 { "Friendly Fire" } else { "Panic" }.into(),
                        }
                    } else if (f[0] + f[1]) as i32 <= target {
                        OrderResult::Passed
                    } else {
                        OrderResult::Failed
                    };
                    *brute.entry(outcome).or_insert(0u128) += 1;
                });
                assert_same_odds(&odds.outcome, &brute, "order test");
            }
        }
    }
}

#[test]
fn order_test_example_numbers() {
    // Regular (9), 2 pins, Captain (+3): pass on 10 or less, except a double six.
    let test = OrderTest {
        quality: Quality::Regular,
        pins: 2,
        officer: Some("captain".into()),
        modifier: 0,
    };
    let odds = order_test_odds(&test).unwrap();
    assert_eq!(odds.target, 10);
    assert_eq!(odds.p_pass(), 33.0 / 36.0);
    assert_eq!(odds.p_fubar(), 1.0 / 36.0);
    let fubar = odds.fubar_results();
    assert_eq!(fubar.probability(&"Friendly Fire".to_string()), 2.0 / 6.0);
    assert_eq!(fubar.probability(&"Panic".to_string()), 4.0 / 6.0);
    let bad = OrderTest {
        officer: Some("general".into()),
        ..test
    };
    assert_eq!(
        order_test_odds(&bad).unwrap_err().to_string(),
        "officer: 'general' is not a rank on the sheet (second_lieutenant, first_lieutenant, captain, major)"
    );
}

#[test]
fn hit_needs_follow_the_sheet() {
    let none = HitModifiers::default();
    assert_eq!(hit_need(&none).unwrap(), 3);
    let close = HitModifiers {
        point_blank: true,
        ..none
    };
    assert_eq!(hit_need(&close).unwrap(), 2);
    let hard = HitModifiers {
        pins: 2,
        hard_cover: true,
        ..none
    };
    assert_eq!(hit_need(&hard).unwrap(), 7);
    // 2+: a natural 1 still misses.
    assert_eq!(hit_odds(2).unwrap().weight(&true), 5);
    assert_eq!(hit_odds(-4).unwrap().weight(&true), 5);
    // 7+: a 6 followed by a 4+ (1/12); 9+ a 6 then a 6 (1/36).
    let seven = hit_odds(7).unwrap();
    assert_eq!(seven.probability(&true), 1.0 / 12.0);
    assert_eq!(hit_odds(9).unwrap().weight(&true), 1);
}

/// Brute force over `shots` × (to-hit d6, damage d6).
fn brute_direct(shots: usize, need: i32, pen: i32, dv: i32) -> BTreeMap<AttackTally, u128> {
    let mut out = BTreeMap::new();
    for_each_d6s(shots * 2, &mut |faces| {
        let mut tally = AttackTally::default();
        for shot in faces.chunks(2) {
            if shot[0] != 1 && shot[0] as i32 >= need {
                tally.hits += 1;
                tally.damaging += u32::from(shot[1] as i32 + pen >= dv);
            }
        }
        *out.entry(tally).or_insert(0u128) += 1;
    });
    out
}

/// Brute force over one shot at a vehicle of `morale`: to-hit d6, damage d6, one or two
/// result d6 (+`bonus`), and a pair of check dice per result. The sheet's procedure by hand:
/// the hit's pin, a pin per result but Knocked Out, a second Immobilised knocks out, On Fire
/// fails on 2d6 above morale − pins. Keyed (knocked out, immobilised, pins).
fn brute_vehicle(
    need: i32,
    pen: i32,
    dv: i32,
    bonus: i32,
    massive: bool,
    morale: i32,
) -> BTreeMap<(bool, bool, u32), u128> {
    let results = if massive { 2 } else { 1 };
    let mut out = BTreeMap::new();
    for_each_d6s(2 + 3 * results, &mut |f| {
        let hit = f[0] != 1 && f[0] as i32 >= need;
        let (mut ko, mut imm, mut pins) = (false, false, u32::from(hit));
        if hit && f[1] as i32 + pen >= dv {
            for r in 0..results {
                let roll = f[2 + r] as i32 + bonus;
                let check = f[2 + results + 2 * r] + f[3 + results + 2 * r];
                if roll <= 3 {
                    pins += 1;
                }
                if ko {
                    continue;
                }
                ko = match roll {
                    2 => std::mem::replace(&mut imm, true),
                    3 => check as i32 > morale - pins as i32,
                    r if r >= 4 => true,
                    _ => false,
                };
            }
        }
        *out.entry((ko, imm, pins)).or_insert(0u128) += 1;
    });
    out
}

fn vehicle_summary(odds: &AttackOdds) -> Dist<(bool, bool, u32)> {
    odds.vehicle
        .as_ref()
        .expect("an armoured target")
        .map(|v| (v.knocked_out.is_some(), v.immobilised, v.pins))
}

#[test]
fn small_arms_against_infantry_match_enumeration() {
    // Three riflemen (1 shot each) at regular infantry (damage value 4+), soft cover.
    let target = TargetProfile::of_category(Category::Infantry, Quality::Regular).unwrap();
    assert_eq!(target.damage_value, 4);
    let attack = Attack {
        firers: 3,
        hit: HitModifiers {
            soft_cover: true,
            ..HitModifiers::default()
        },
        ..Attack::new(weapon("Rifle"), target)
    };
    let odds = attack_odds(&attack).unwrap();
    assert_eq!(odds.numbers.need, 4);
    assert_eq!(odds.numbers.pen, 0);
    let brute = brute_direct(3, 4, 0, 4);
    assert_same_odds(&odds.tally, &brute, "rifles");
    // One pin when anything hits: P(at least one hit) = 1 − (1/2)^3.
    assert_eq!(odds.pins.probability(&1), 7.0 / 8.0);
    assert_eq!(odds.pins.probability(&0), 1.0 / 8.0);
}

#[test]
fn anti_tank_fire_matches_enumeration() {
    // Medium AT gun (PEN +5) at a medium tank (9+): front, side (+1), rear and long range.
    let tank = TargetProfile::of_category(Category::MediumTank, Quality::Regular).unwrap();
    assert_eq!(tank.damage_value, 9);
    let gun = weapon("Medium AT gun");
    let cases = [
        (Facing::Front, false, false, 5),
        (Facing::SideOrTop, false, false, 6),
        (Facing::Rear, false, true, 7),
        (Facing::Rear, true, false, 6),
    ];
    for (facing, long_range, massive, pen) in cases {
        let attack = Attack {
            facing,
            massive_damage: massive,
            hit: HitModifiers {
                long_range,
                ..HitModifiers::default()
            },
            ..Attack::new(gun, tank)
        };
        let odds = attack_odds(&attack).unwrap();
        assert_eq!(odds.numbers.pen, pen, "{facing:?}");
        let need = if long_range { 4 } else { 3 };
        let brute = brute_direct(1, need, pen, 9);
        assert_same_odds(&odds.tally, &brute, "AT gun");
        let brute = brute_vehicle(need, pen, 9, 0, massive, 9);
        assert_same_odds(&vehicle_summary(&odds), &brute, "AT gun, vehicle");
    }
    // Two shots of a light automatic cannon (PEN +2) at a light tank's rear (8+): 2 + 2 ≥ …
    let light = TargetProfile::of_category(Category::LightTank, Quality::Regular).unwrap();
    let attack = Attack {
        facing: Facing::Rear,
        ..Attack::new(weapon("Light automatic cannon"), light)
    };
    let odds = attack_odds(&attack).unwrap();
    let brute = brute_direct(2, 3, 4, 8);
    assert_same_odds(&odds.tally, &brute, "autocannon");
}

#[test]
fn a_second_immobilised_result_knocks_the_vehicle_out() {
    let tank = TargetProfile::of_category(Category::MediumTank, Quality::Regular).unwrap();
    let gun = weapon("Heavy AT gun");
    let fresh = attack_odds(&Attack::new(gun, tank)).unwrap();
    let hurt = attack_odds(&Attack {
        already_immobilised: true,
        ..Attack::new(gun, tank)
    })
    .unwrap();
    // Heavy AT gun: PEN 6 vs 9 → 3+ to damage; results 4–6 KO, 2 Immobilised, 3 On Fire
    // whose check (9 less the hit's pin and its own) fails on 2d6 above 7.
    let p_damage = 4.0 / 6.0 * 4.0 / 6.0;
    let fails = (1..=6)
        .flat_map(|a| (1..=6).map(move |b| a + b))
        .filter(|&t| t > 7)
        .count() as f64
        / 36.0;
    let fire = fails / 6.0;
    assert!((fresh.p_knocked_out() - p_damage * (3.0 / 6.0 + fire)).abs() < 1e-12);
    assert!((hurt.p_knocked_out() - p_damage * (4.0 / 6.0 + fire)).abs() < 1e-12);
}

#[test]
fn superficial_damage_and_open_topped_indirect_fire() {
    // A weapon with no PEN on an armoured target rolls D6−3: 1–4 stunned, 5 immobilised,
    // 6 on fire.
    let no_pen = Weapon {
        name: "Test rifle".into(),
        class: "small_arms".into(),
        range: "24″".into(),
        shots: "1".into(),
        pen: None,
        special: vec![],
        he: None,
    };
    let soft_armour = TargetProfile {
        damage_value: 5,
        armoured: true,
        open_topped: false,
        morale: 9,
    };
    let odds = attack_odds(&Attack::new(&no_pen, soft_armour)).unwrap();
    assert!(odds.numbers.superficial);
    let per_hit = odds.per_damaging_hit.unwrap().map(|d| d.first);
    assert_eq!(per_hit.weight(&DamageEffect::CrewStunned), 4);
    assert_eq!(per_hit.weight(&DamageEffect::Immobilised), 1);
    assert_eq!(per_hit.weight(&DamageEffect::OnFire), 1);
    assert_eq!(per_hit.weight(&DamageEffect::KnockedOut), 0);
    // A medium mortar's HE (D6: PEN +2, D2 pins) on an open-topped half-track (7+):
    // one hit, 5+ to damage, full damage +1 for indirect fire.
    let half_track = TargetProfile {
        damage_value: 7,
        armoured: true,
        open_topped: true,
        morale: 9,
    };
    let attack = Attack {
        high_explosive: true,
        ..Attack::new(weapon("Medium mortar"), half_track)
    };
    assert!(attack.indirect);
    let odds = attack_odds(&attack).unwrap();
    assert_eq!(odds.numbers.pen, 2);
    assert_eq!(odds.numbers.result_bonus, 1);
    assert_eq!(odds.numbers.he_hits, None);
    let brute = brute_direct(1, 3, 2, 7);
    assert_same_odds(&odds.tally, &brute, "mortar on a half-track");
    // D2 pins when hit (3+), and one more when the hit damages (5+) with a result short of
    // Knocked Out: d6 + 1 of 2 or 3.
    let mut brute = BTreeMap::new();
    for_each_d6s(4, &mut |f| {
        let pins = if f[0] >= 3 {
            f[1].div_ceil(3) + u32::from(f[2] + 2 >= 7 && f[3] < 3)
        } else {
            0
        };
        *brute.entry(pins).or_insert(0u128) += 1;
    });
    assert_same_odds(&odds.pins, &brute, "pins on a half-track");
    // HE from a weapon without an HE value is refused.
    let err = attack_odds(&Attack {
        high_explosive: true,
        ..Attack::new(weapon("Rifle"), half_track)
    })
    .unwrap_err();
    assert_eq!(err.to_string(), "he: Rifle has no HE value on the chart");
}

#[test]
fn he_against_infantry_multiplies_hits() {
    // Light mortar HE D3 (PEN +1, 1 pin) at regular infantry (4+): a hit becomes D3 hits,
    // each damaging on d6 + 1 ≥ 4.
    let target = TargetProfile::of_category(Category::Infantry, Quality::Regular).unwrap();
    let attack = Attack {
        high_explosive: true,
        ..Attack::new(weapon("Light mortar"), target)
    };
    let odds = attack_odds(&attack).unwrap();
    assert_eq!(
        odds.numbers.he_hits,
        Some(DiceExpr::Dice { count: 1, sides: 3 })
    );
    // Brute force: to-hit d6, a d3 read from a d6, and three damage d6 (only the first
    // `hits` count).
    let mut brute = BTreeMap::new();
    for_each_d6s(5, &mut |f| {
        let mut tally = AttackTally::default();
        if f[0] >= 3 {
            tally.hits = f[1].div_ceil(2);
            tally.damaging = f[2..2 + tally.hits as usize]
                .iter()
                .filter(|&&d| d + 1 >= 4)
                .count() as u32;
        }
        *brute.entry(tally).or_insert(0u128) += 1;
    });
    assert_same_odds(&odds.tally, &brute, "HE on infantry");
}

#[test]
fn dice_shots_match_enumeration() {
    // An infantry flamethrower: D6 shots, PEN +2, at inexperienced infantry (3+): every
    // hit damages, so enumerate the shot die and up to six to-hit dice.
    let target = TargetProfile::of_category(Category::Infantry, Quality::Inexperienced).unwrap();
    let odds = attack_odds(&Attack::new(weapon("Flamethrower (infantry)"), target)).unwrap();
    let mut brute = BTreeMap::new();
    for_each_d6s(7, &mut |f| {
        let hits = f[1..=f[0] as usize].iter().filter(|&&d| d >= 3).count() as u32;
        let tally = AttackTally {
            hits,
            damaging: hits,
        };
        *brute.entry(tally).or_insert(0u128) += 1;
    });
    assert_same_odds(&odds.tally, &brute, "flamethrower");
    assert_eq!(odds.shots.total(), 6);
}

#[test]
fn dice_expressions() {
    assert_eq!(DiceExpr::parse("1").unwrap(), DiceExpr::Fixed(1));
    assert_eq!(
        DiceExpr::parse("2D6").unwrap(),
        DiceExpr::Dice { count: 2, sides: 6 }
    );
    assert_eq!(
        DiceExpr::parse("d2").unwrap(),
        DiceExpr::Dice { count: 1, sides: 2 }
    );
    assert!(DiceExpr::parse("D").is_err());
    assert!(DiceExpr::parse("D0").is_err());
    assert!(DiceExpr::parse("lots").is_err());
    let three = DiceExpr::parse("3D6").unwrap().dist().unwrap();
    assert_eq!(three.total(), 216);
    assert_eq!(three.weight(&10), 27);
}

#[test]
fn seeded_rolls_replay() {
    let tank = TargetProfile::of_category(Category::HeavyTank, Quality::Regular).unwrap();
    let attack = Attack {
        massive_damage: true,
        facing: Facing::Rear,
        ..Attack::new(weapon("Super-heavy AT gun"), tank)
    };
    let infantry = TargetProfile::of_category(Category::Infantry, Quality::Veteran).unwrap();
    let howitzer = Attack {
        high_explosive: true,
        hit: HitModifiers {
            pins: 4,
            hard_cover: true,
            ..HitModifiers::default()
        },
        ..Attack::new(weapon("Heavy howitzer"), infantry)
    };
    for seed in 0..40 {
        for a in [&attack, &howitzer] {
            let first = roll_attack(a, &mut Roller::new(seed)).unwrap();
            assert_eq!(first, roll_attack(a, &mut Roller::new(seed)).unwrap());
            assert_eq!(first.seed, seed);
            for roll in &first.rolls {
                assert!(roll.record.is_genuine(), "{}", roll.label);
            }
            assert_eq!(
                first.vehicle_results.len() as u32,
                if a.target.armoured {
                    first.tally.damaging
                } else {
                    0
                }
            );
        }
        let test = OrderTest {
            quality: Quality::Veteran,
            pins: 3,
            officer: None,
            modifier: 0,
        };
        let roll = roll_order_test(&test, &mut Roller::new(seed)).unwrap();
        assert_eq!(
            roll,
            roll_order_test(&test, &mut Roller::new(seed)).unwrap()
        );
        assert_eq!(
            roll.total,
            roll.dice.dice.iter().map(|&f| u32::from(f)).sum::<u32>()
        );
        assert_eq!(roll.fubar_die.is_some(), roll.total == 12);
    }
}

#[test]
fn monte_carlo_attacks_agree_with_the_exact_odds() {
    let tank = TargetProfile::of_category(Category::LightTank, Quality::Regular).unwrap();
    let attack = Attack {
        firers: 2,
        facing: Facing::SideOrTop,
        ..Attack::new(weapon("Anti-tank rifle"), tank)
    };
    let odds = attack_odds(&attack).unwrap();
    let mut roller = Roller::new(7);
    let trials = 20_000u64;
    let (mut any_damage, mut stunned_or_worse) = (0, 0);
    for _ in 0..trials {
        let roll = roll_attack(&attack, &mut roller).unwrap();
        any_damage += u64::from(roll.tally.damaging > 0);
        let fate = roll.vehicle.map(|v| v.fate());
        stunned_or_worse += u64::from(fate >= Some(VehicleFate::Immobilised));
    }
    let exact = odds.damaging_hits().at_least(&1);
    let est = Estimate::from_counts(any_damage, trials);
    assert!(est.z_score(exact) < 4.0, "{est:?} vs {exact}");
    let exact = odds
        .vehicle_fate()
        .unwrap()
        .probability_where(|f| *f >= VehicleFate::Immobilised);
    let est = Estimate::from_counts(stunned_or_worse, trials);
    assert!(est.z_score(exact) < 4.0, "{est:?} vs {exact}");
}

#[test]
fn seven_plus_shots_match_enumeration() {
    // Two riflemen with 2 pins at regular infantry in hard cover: 3 + 2 + 2 = 7+, so a 6
    // followed by a 4+, then 4+ to damage.
    let target = TargetProfile::of_category(Category::Infantry, Quality::Regular).unwrap();
    let attack = Attack {
        firers: 2,
        hit: HitModifiers {
            pins: 2,
            hard_cover: true,
            ..HitModifiers::default()
        },
        ..Attack::new(weapon("Rifle"), target)
    };
    let odds = attack_odds(&attack).unwrap();
    assert_eq!(odds.numbers.need, 7);
    let mut brute = BTreeMap::new();
    for_each_d6s(6, &mut |f| {
        let mut tally = AttackTally::default();
        for shot in f.chunks(3) {
            if shot[0] == 6 && shot[1] >= 4 {
                tally.hits += 1;
                tally.damaging += u32::from(shot[2] >= 4);
            }
        }
        *brute.entry(tally).or_insert(0u128) += 1;
    });
    assert_same_odds(&odds.tally, &brute, "7+");
    // The roll records one follow-up die per six (and no follow-up roll without a six).
    let mut seen_follow_up = false;
    for seed in 0..200 {
        let roll = roll_attack(&attack, &mut Roller::new(seed)).unwrap();
        let to_hit = &roll.rolls[0];
        assert_eq!(to_hit.label, "to hit");
        let sixes = to_hit.record.count(6);
        let follow_up = roll.rolls.iter().find(|r| r.label == "7+ follow-up");
        assert_eq!(follow_up.is_some(), sixes > 0);
        let hits = follow_up.map_or(0, |r| {
            assert_eq!(r.record.dice.len() as u32, sixes);
            seen_follow_up = true;
            r.record.dice.iter().filter(|&&f| f >= 4).count() as u32
        });
        assert_eq!(roll.tally.hits, hits);
    }
    assert!(seen_follow_up);
}

#[test]
fn a_weapon_whose_pen_is_he_always_fires_he() {
    // RULINGS "Damage": mortars and howitzers fire HE even when nobody asks for it.
    let infantry = TargetProfile::of_category(Category::Infantry, Quality::Regular).unwrap();
    for asked in [false, true] {
        let attack = Attack {
            high_explosive: asked,
            ..Attack::new(weapon("Medium mortar"), infantry)
        };
        let numbers = attack.numbers().unwrap();
        assert_eq!(numbers.he_hits, Some(DiceExpr::Dice { count: 1, sides: 6 }));
        assert_eq!(numbers.pen, 2, "the HE chart's D6 row: +2 PEN");
        assert!(!numbers.superficial);
    }
}

#[test]
fn modified_needs_past_seven_take_a_six_then_a_harder_follow_up() {
    // Enumerated over two dice: 8+ = a 6 then 5+, 9+ = a 6 then a 6, 10+ never.
    for (need, follow_up) in [
        (7, Some(4)),
        (8, Some(5)),
        (9, Some(6)),
        (10, None),
        (12, None),
    ] {
        let mut hits = 0u128;
        for first in 1..=6u32 {
            for second in 1..=6u32 {
                if follow_up.is_some_and(|f| first == 6 && second >= f) {
                    hits += 1;
                }
            }
        }
        let odds = hit_odds(need).unwrap();
        assert_eq!(
            odds.weight(&true) * 36,
            hits * odds.total(),
            "need {need}+: {hits}/36"
        );
    }
    // Through a whole attack: 3 + 2 hard cover + 1 long range + 3 pins = 9+.
    let target = TargetProfile::of_category(Category::Infantry, Quality::Regular).unwrap();
    let attack = Attack {
        hit: HitModifiers {
            pins: 3,
            hard_cover: true,
            long_range: true,
            ..HitModifiers::default()
        },
        ..Attack::new(weapon("Rifle"), target)
    };
    let odds = attack_odds(&attack).unwrap();
    assert_eq!(odds.numbers.need, 9);
    assert_eq!(odds.hits().weight(&1) * 36, odds.hits().total());
}

#[test]
fn he_fire_is_one_shell_per_firer_whatever_the_shots() {
    // The light automatic cannon has 2 Shots but fires one D2 HE shell per firer.
    let infantry = TargetProfile::of_category(Category::Infantry, Quality::Regular).unwrap();
    let attack = Attack {
        firers: 3,
        high_explosive: true,
        ..Attack::new(weapon("Light automatic cannon"), infantry)
    };
    let odds = attack_odds(&attack).unwrap();
    assert_eq!(odds.numbers.shots, DiceExpr::Fixed(1));
    assert_eq!(odds.shots, Dist::certain(3));
    let roll = roll_attack(&attack, &mut Roller::new(4)).unwrap();
    assert_eq!(roll.shots, 3);
    // Without HE the same gun fires its two shots each.
    let ap = Attack {
        high_explosive: false,
        ..attack
    };
    assert_eq!(attack_odds(&ap).unwrap().shots, Dist::certain(6));
}

#[test]
fn a_weapon_with_no_pen_damages_armour_only_on_a_natural_six_superficially() {
    // One rifle at a light tank: hit on 3+ (4/6), damage only on a 6 (1/6), then d6 − 3 on
    // the damage table: 1–4 Crew Stunned, 5 Immobilised, 6 On Fire — whose check (Regular 9,
    // less the hit's pin and its own) is the only way it can be knocked out.
    let tank = TargetProfile::of_category(Category::LightTank, Quality::Regular).unwrap();
    let odds = attack_odds(&Attack::new(weapon("Rifle"), tank)).unwrap();
    assert!(odds.numbers.superficial && odds.numbers.natural_six_to_damage);
    assert_eq!(odds.damage_roll.weight(&true) * 6, odds.damage_roll.total());
    let mut brute: BTreeMap<(bool, bool, u32), u128> = BTreeMap::new();
    for_each_d6s(5, &mut |f| {
        let hit = f[0] >= 3;
        let key = match (hit && f[1] == 6, f[2]) {
            (false, _) => (false, false, u32::from(hit)),
            (true, 1..=4) => (false, false, 2),
            (true, 5) => (false, true, 2),
            (true, _) => (f[3] + f[4] > 9 - 2, false, 2),
        };
        *brute.entry(key).or_insert(0) += 1;
    });
    assert_same_odds(&vehicle_summary(&odds), &brute, "rifle at a light tank");
    let table_knock_out = odds
        .vehicle_fate()
        .unwrap()
        .weight(&VehicleFate::KnockedOut {
            cause: KnockOut::DamageResult,
        });
    assert_eq!(table_knock_out, 0, "never a Knocked Out result");
}

#[test]
fn odds_too_large_for_exact_weights_become_a_marked_seeded_estimate() {
    // Six vehicle flamethrowers: 2D6 shots each overflow u128 when counted exactly.
    let infantry = TargetProfile::of_category(Category::Infantry, Quality::Regular).unwrap();
    let attack = Attack {
        firers: 6,
        ..Attack::new(weapon("Flamethrower (vehicle)"), infantry)
    };
    let odds = attack_odds(&attack).unwrap();
    let sampling = odds.estimate.expect("marked as an estimate");
    assert_eq!(sampling.trials, ESTIMATE_TRIALS);
    assert_eq!(odds, attack_odds(&attack).unwrap(), "replays from its seed");
    // Independently in floating point: each firer's 2D6 shots hit on 3+ (2/3 each).
    let mut one_firer = [0.0f64; 13];
    for (a, b) in (1..=6).flat_map(|a| (1..=6).map(move |b| (a, b))) {
        let shots = a + b;
        let mut hits = vec![1.0f64];
        for _ in 0..shots {
            let mut next = vec![0.0; hits.len() + 1];
            for (h, p) in hits.iter().enumerate() {
                next[h] += p / 3.0;
                next[h + 1] += p * 2.0 / 3.0;
            }
            hits = next;
        }
        for (h, p) in hits.iter().enumerate() {
            one_firer[h] += p / 36.0;
        }
    }
    let mut all = vec![1.0f64];
    for _ in 0..6 {
        let mut next = vec![0.0; all.len() + one_firer.len()];
        for (a, pa) in all.iter().enumerate() {
            for (b, pb) in one_firer.iter().enumerate() {
                next[a + b] += pa * pb;
            }
        }
        all = next;
    }
    let exact: f64 = all.iter().skip(28).sum();
    let p = odds.hits().at_least(&28);
    let est = Estimate {
        p,
        std_error: sampling.std_error(p),
        trials: sampling.trials,
    };
    assert!(est.z_score(exact) < 4.0, "{est:?} vs {exact}");
}
