//! Battle of Tanks resolution checked against the book's examples and against brute-force
//! enumeration of every face (with the default die written out here, not read from data).

use std::collections::BTreeMap;

use super::*;
use crate::rules::battle_of_tanks::tank_card;
use crate::rules::dice::Estimate;

fn card(name: &str) -> &'static TankCard {
    tank_card(name).unwrap()
}

/// The house default penetration die on a d6: 1–2 blank, 3 K, 4 T, 5–6 W.
fn default_face(d6: u32) -> char {
    match d6 {
        1 | 2 => ' ',
        3 => 'K',
        4 => 'T',
        _ => 'W',
    }
}

fn for_each_d6s(n: usize, f: &mut impl FnMut(&[u32])) {
    fn go(faces: &mut Vec<u32>, n: usize, f: &mut impl FnMut(&[u32])) {
        if faces.len() == n {
            f(faces);
            return;
        }
        for face in 1..=6 {
            faces.push(face);
            go(faces, n, f);
            faces.pop();
        }
    }
    go(&mut Vec::new(), n, f);
}

fn assert_sums_to_total<K: Ord>(dist: &Dist<K>) {
    assert_eq!(dist.iter().map(|(_, w)| w).sum::<u128>(), dist.total());
}

#[test]
fn the_default_penetration_die_is_2_blank_1_k_1_t_2_w() {
    let die = penetration_die().unwrap();
    assert_eq!(die.total(), 6);
    assert_eq!(die.weight(&PenetrationFace::Blank), 2);
    assert_eq!(die.weight(&PenetrationFace::Tracks), 1);
    assert_eq!(die.weight(&PenetrationFace::Turret), 1);
    assert_eq!(die.weight(&PenetrationFace::Hull), 2);
}

#[test]
fn three_plus_with_own_move_and_heavy_cover_needs_a_6() {
    // "Genauigkeitswert 3+, Eigene Bewegung 1+, Schwere Deckung des Gegners 2+ — Somit
    // müsste Spieler A eine 6 würfeln".
    let is2 = card("IS-2"); // accuracy 3+
    let situation = FireSituation {
        moving: true,
        cover: Cover::Heavy,
        ..FireSituation::default()
    };
    assert_eq!(to_hit_need(is2, &situation).unwrap(), 6);
    let odds = fire_odds(
        is2,
        &FireTarget {
            situation,
            ..FireTarget::new(card("Tiger I"), 1)
        },
    )
    .unwrap();
    assert_eq!(odds.hit.weight(&true), 1);
    // The book's other examples: 3+ moving → 4+, light cover → 4+, heavy cover → 5+,
    // ambush → 2+.
    let need = |s: FireSituation| to_hit_need(is2, &s).unwrap();
    let plain = FireSituation::default();
    assert_eq!(need(plain), 3);
    assert_eq!(
        need(FireSituation {
            moving: true,
            ..plain
        }),
        4
    );
    assert_eq!(
        need(FireSituation {
            cover: Cover::Light,
            ..plain
        }),
        4
    );
    assert_eq!(
        need(FireSituation {
            cover: Cover::Heavy,
            ..plain
        }),
        5
    );
    assert_eq!(
        need(FireSituation {
            ambush: true,
            ..plain
        }),
        2
    );
    // A hull-down turret shot drops the heavy-cover modifier.
    let hull_down = FireSituation {
        cover: Cover::Heavy,
        hull_down_turret_shot: true,
        ..plain
    };
    assert_eq!(need(hull_down), 3);
    let bad = FireSituation {
        hull_down_turret_shot: true,
        ..plain
    };
    assert_eq!(
        to_hit_need(is2, &bad).unwrap_err().to_string(),
        "hull_down: the target is in open ground: a hull-down target stands behind heavy cover"
    );
}

#[test]
fn a_1_always_misses() {
    // EBR 75 accuracy 1+ firing from ambush needs 0+, yet a 1 misses.
    let ebr = card("EBR 75 FL 10");
    let situation = FireSituation {
        ambush: true,
        ..FireSituation::default()
    };
    let odds = fire_odds(
        ebr,
        &FireTarget {
            situation,
            ..FireTarget::new(card("T-80"), 1)
        },
    )
    .unwrap();
    assert_eq!(odds.need, 0);
    assert_eq!(odds.hit.weight(&true), 5);
}

/// Brute force: every to-hit face and penetration face of every shot.
fn brute_volley(need: i32, shots: usize, turret_only: bool) -> BTreeMap<Volley, u128> {
    let mut out = BTreeMap::new();
    for_each_d6s(shots * 2, &mut |faces| {
        let mut v = Volley {
            hits: 0,
            penetrations: 0,
            track_hits: 0,
        };
        for shot in faces.chunks(2) {
            let hit = shot[0] != 1 && shot[0] as i32 >= need;
            if !hit {
                continue;
            }
            v.hits += 1;
            match (default_face(shot[1]), turret_only) {
                ('T', _) | ('W', false) => v.penetrations += 1,
                ('K', false) => v.track_hits += 1,
                _ => {}
            }
        }
        *out.entry(v).or_insert(0) += 1;
    });
    out
}

#[test]
fn fire_odds_match_enumeration() {
    let tiger = card("Tiger I"); // accuracy 2+, fire rate 2, firepower 160
    let luchs = card("Pz.Kpfw. II Luchs"); // accuracy 3+, fire rate 10, firepower 30
    let situations = [
        FireSituation::default(),
        FireSituation {
            moving: true,
            cover: Cover::Light,
            ..FireSituation::default()
        },
        FireSituation {
            cover: Cover::Heavy,
            hull_down_turret_shot: true,
            ..FireSituation::default()
        },
        FireSituation {
            hull_to_hull: true,
            ambush: true,
            ..FireSituation::default()
        },
    ];
    for (attacker, shots) in [(tiger, 1), (tiger, 2), (luchs, 3)] {
        for situation in situations {
            let target = FireTarget {
                situation,
                ..FireTarget::new(card("T-34-85M"), shots)
            };
            let odds = fire_odds(attacker, &target).unwrap();
            assert_eq!(odds.volley.total(), 36u128.pow(shots));
            assert_sums_to_total(&odds.volley);
            assert_sums_to_total(&odds.damage);
            let brute = brute_volley(odds.need, shots as usize, situation.turret_only());
            let exact: Vec<(Volley, u128)> = odds.volley.iter().map(|(k, w)| (*k, w)).collect();
            assert_eq!(
                exact,
                brute.into_iter().collect::<Vec<_>>(),
                "{situation:?}"
            );
        }
    }
}

#[test]
fn damage_and_destruction_follow_firepower_and_hit_points() {
    // IS-2 (firepower 390) at a Luchs with 310 hit points: one penetration destroys it.
    let is2 = card("IS-2");
    let luchs = card("Pz.Kpfw. II Luchs");
    let odds = fire_odds(is2, &FireTarget::new(luchs, 1)).unwrap();
    // 3+ hits (4/6), T or W penetrates (3/6).
    assert_eq!(odds.p_destroyed(), 4.0 / 6.0 * 3.0 / 6.0);
    assert_eq!(odds.p_tracks_hit(), 4.0 / 6.0 * 1.0 / 6.0);
    assert_eq!(odds.damage.weight(&390), 12);
    // The book's example: firepower 120 against 340 hit points — a T costs 120.
    // Tiger I (160) against an IS-2 with 300 left needs two penetrations.
    let tiger = card("Tiger I");
    let odds = fire_odds(
        tiger,
        &FireTarget {
            remaining_hp: 300,
            ..FireTarget::new(is2, 2)
        },
    )
    .unwrap();
    let p_pen = 5.0 / 6.0 * 3.0 / 6.0;
    assert!((odds.p_destroyed() - p_pen * p_pen).abs() < 1e-12);
}

#[test]
fn fire_rate_sight_and_hit_points_are_checked() {
    let tiger = card("Tiger I"); // fire rate 2, sight 60
    let is2 = card("IS-2");
    let t80 = card("T-80");
    let split = [FireTarget::new(is2, 1), FireTarget::new(t80, 1)];
    let odds = fire_order_odds(tiger, &split).unwrap();
    assert_eq!(odds.len(), 2);
    let too_many = [FireTarget::new(is2, 2), FireTarget::new(t80, 1)];
    assert_eq!(
        fire_order_odds(tiger, &too_many).unwrap_err().to_string(),
        "shots: 3 shots: Tiger I has a fire rate of 2"
    );
    let far = FireTarget {
        range_cm: Some(61),
        ..FireTarget::new(is2, 1)
    };
    assert_eq!(
        fire_odds(tiger, &far).unwrap_err(),
        ResolveError::NoResult(
            "IS-2 is 61 cm away, beyond Tiger I's sight of 60 cm: no fire".into()
        )
    );
    let edge = FireTarget {
        range_cm: Some(60),
        ..FireTarget::new(is2, 1)
    };
    assert!(fire_odds(tiger, &edge).is_ok());
    let dead = FireTarget {
        remaining_hp: 0,
        ..FireTarget::new(is2, 1)
    };
    assert!(fire_odds(tiger, &dead).is_err());
    assert!(fire_odds(tiger, &FireTarget::new(is2, 0)).is_err());
}

#[test]
fn repair_and_spotting() {
    let tiger = card("Tiger I"); // repair 4+, spotting 3+
    assert_eq!(repair_odds(tiger).weight(&true), 3);
    assert_eq!(spotting_need(tiger, Cover::Open).unwrap(), None);
    assert_eq!(
        spotting_odds(tiger, Cover::Open)
            .unwrap()
            .probability(&true),
        1.0
    );
    // As printed: light cover +2, heavy cover +1.
    assert_eq!(spotting_need(tiger, Cover::Light).unwrap(), Some(5));
    assert_eq!(spotting_need(tiger, Cover::Heavy).unwrap(), Some(4));
    assert_eq!(spotting_odds(tiger, Cover::Light).unwrap().weight(&true), 2);
    let luchs = card("Pz.Kpfw. II Luchs"); // spotting 1+
    assert_eq!(spotting_odds(luchs, Cover::Light).unwrap().weight(&true), 4);
}

#[test]
fn seeded_rolls_replay() {
    let luchs = card("Pz.Kpfw. II Luchs");
    let targets = [
        FireTarget::new(card("T-80"), 6),
        FireTarget::new(card("AMX 12t"), 4),
    ];
    for seed in 0..30 {
        let a = roll_fire(luchs, &targets, &mut Roller::new(seed)).unwrap();
        let b = roll_fire(luchs, &targets, &mut Roller::new(seed)).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.seed, seed);
        for (volley, target) in a.volleys.iter().zip(&targets) {
            assert!(volley.to_hit.is_genuine());
            assert_eq!(volley.to_hit.dice.len() as u32, target.shots);
            let hits = volley.to_hit.dice.iter().filter(|&&f| f >= 3).count() as u32;
            assert_eq!(volley.volley.hits, hits);
            match &volley.penetration {
                Some(record) => {
                    assert!(record.is_genuine());
                    assert_eq!(record.dice.len() as u32, hits);
                    let pens = record.dice.iter().filter(|&&f| f >= 4).count() as u32;
                    assert_eq!(volley.volley.penetrations, pens);
                    assert_eq!(volley.damage, pens * 30);
                }
                None => assert_eq!(hits, 0),
            }
        }
        let repair = roll_repair(luchs, &mut Roller::new(seed)).unwrap();
        assert_eq!(repair.repaired, repair.die.dice[0] >= 3);
        let spot = roll_spotting(luchs, Cover::Heavy, &mut Roller::new(seed)).unwrap();
        assert_eq!(spot.spotted, spot.die.unwrap().dice[0] >= 2);
    }
}

#[test]
fn monte_carlo_fire_agrees_with_the_exact_odds() {
    let amx = card("AMX 12t"); // accuracy 2+, fire rate 4, firepower 110
    let target = FireTarget {
        remaining_hp: 300,
        situation: FireSituation {
            cover: Cover::Light,
            ..FireSituation::default()
        },
        ..FireTarget::new(card("T-80"), 4)
    };
    let odds = fire_odds(amx, &target).unwrap();
    let mut roller = Roller::new(99);
    let trials = 20_000u64;
    let (mut destroyed, mut tracks) = (0, 0);
    for _ in 0..trials {
        let roll = roll_fire(amx, std::slice::from_ref(&target), &mut roller).unwrap();
        destroyed += u64::from(roll.volleys[0].destroyed);
        tracks += u64::from(roll.volleys[0].volley.track_hits > 0);
    }
    let est = Estimate::from_counts(destroyed, trials);
    assert!(
        est.z_score(odds.p_destroyed()) < 4.0,
        "{est:?} vs {}",
        odds.p_destroyed()
    );
    let est = Estimate::from_counts(tracks, trials);
    assert!(
        est.z_score(odds.p_tracks_hit()) < 4.0,
        "{est:?} vs {}",
        odds.p_tracks_hit()
    );
}

#[test]
fn a_moving_target_adds_one_like_a_moving_firer_and_both_moving_add_two() {
    // RULINGS "Moving target": the IS-2's 3+ becomes 4+ for either tank moving, 5+ for both.
    let is2 = card("IS-2");
    let need = |moving, target_moving| {
        to_hit_need(
            is2,
            &FireSituation {
                moving,
                target_moving,
                ..FireSituation::default()
            },
        )
        .unwrap()
    };
    assert_eq!(need(false, false), 3);
    assert_eq!(need(false, true), 4);
    assert_eq!(need(true, false), 4);
    assert_eq!(need(true, true), 5);
    // Enumerated: a 5+ hits on 2 faces of 6.
    let odds = fire_odds(
        is2,
        &FireTarget {
            situation: FireSituation {
                moving: true,
                target_moving: true,
                ..FireSituation::default()
            },
            ..FireTarget::new(card("Tiger I"), 1)
        },
    )
    .unwrap();
    let hits = (1..=6u32).filter(|&f| f != 1 && f >= 5).count() as u128;
    assert_eq!(odds.hit.weight(&true) * 6, hits * odds.hit.total());
}

#[test]
fn ambush_fire_cannot_be_fired_on_the_move() {
    let situation = FireSituation {
        moving: true,
        ambush: true,
        ..FireSituation::default()
    };
    let error = to_hit_need(card("IS-2"), &situation).unwrap_err();
    assert!(
        matches!(
            error,
            ResolveError::Invalid {
                field: "ambush",
                ..
            }
        ),
        "{error}"
    );
    assert!(error.to_string().contains("not moving"), "{error}");
}
