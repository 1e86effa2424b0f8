//! Belle Epoque resolution checked against the book's worked examples and against
//! brute-force enumeration of every face (with the book's numbers written out here).

use std::collections::BTreeMap;

use super::*;
use crate::rules::Ruleset;
use crate::rules::belle_epoque::BelleEpoque;
use crate::rules::card::Card;
use crate::rules::dice::Estimate;

fn unit(name: &str) -> &'static UnitProfile {
    BelleEpoque
        .library()
        .iter()
        .find_map(|c| match c {
            Card::BelleEpoque(u) if u.name == name => Some(u),
            _ => None,
        })
        .unwrap()
}

fn for_each_dice(n: usize, sides: u32, f: &mut impl FnMut(&[u32])) {
    fn go(faces: &mut Vec<u32>, n: usize, sides: u32, f: &mut impl FnMut(&[u32])) {
        if faces.len() == n {
            f(faces);
            return;
        }
        for face in 1..=sides {
            faces.push(face);
            go(faces, n, sides, f);
            faces.pop();
        }
    }
    go(&mut Vec::new(), n, sides, f);
}

fn pairs<K: Ord + Clone>(dist: &Dist<K>) -> Vec<(K, u128)> {
    dist.iter().map(|(k, w)| (k.clone(), w)).collect()
}

fn assert_sums_to_total<K: Ord>(dist: &Dist<K>) {
    assert_eq!(dist.iter().map(|(_, w)| w).sum::<u128>(), dist.total());
}

/// The book's example: "a 4 stands Zulu warriors unit attacks a 3 stands British regulars
/// unit".
fn zulus_against_british() -> Assault {
    Assault {
        attacker: AssaultSide::of(unit("Zulu Warriors")),
        defender: AssaultSide::of(unit("British Regulars")),
        position: Position::Open,
        cover_or_rough: false,
    }
}

#[test]
fn the_books_assault_example_costs_the_british_3() {
    let assault = zulus_against_british();
    assert_eq!(assault.attacker.troops, AssaultTroops::Choc);
    assert_eq!(assault.defender.troops, AssaultTroops::CloseRegulars);
    assert_eq!(assault_levels(&assault).unwrap(), (4, 3));
    // "The defending player rolls 4, 2 and 3 … the 4 is a miss and player totalizes a
    // score of 5. The attacking player rolls 1, 4, 5 and 3 … only the 5 is a miss and
    // player totalizes a score of 8. … the British unit sustains 3 losses."
    let result = assault_from_faces(&assault, &[1, 4, 5, 3], &[4, 2, 3]).unwrap();
    assert_eq!(result.attacker_score, 8);
    assert_eq!(result.defender_score, 5);
    assert_eq!(result.outcome.defender.losses, 3);
    assert_eq!(result.outcome.attacker.losses, 0);
    // Where the British cannot fall back, all 3 losses are stands …
    let stand_fast = Assault {
        defender: AssaultSide {
            can_fall_back: false,
            ..assault.defender
        },
        ..assault
    };
    let result = assault_from_faces(&stand_fast, &[1, 4, 5, 3], &[4, 2, 3]).unwrap();
    assert_eq!(result.outcome.defender.stands, 3);
    assert!(result.outcome.defender.eliminated);
    // … otherwise the 2nd loss becomes a 1 UD fall back ("a unit that loses an assault
    // with a difference of 5 points will sustain 3 stands of casualties and must fall
    // back 2 UD").
    let result = assault_from_faces(&assault, &[1, 4, 5, 3], &[4, 2, 3]).unwrap();
    assert_eq!(result.outcome.defender.stands, 2);
    assert_eq!(result.outcome.defender.fall_back_uds, 1);
    let five = assault.outcome(9, 4);
    // Three British stands cannot take 3 stands of casualties and fall back: gone.
    assert_eq!((five.defender.stands, five.defender.fall_back_uds), (3, 0));
    assert!(five.defender.eliminated);
    let big = Assault {
        defender: AssaultSide::new(6, AssaultTroops::CloseRegulars),
        ..assault
    };
    let five = big.outcome(9, 4);
    assert_eq!((five.defender.stands, five.defender.fall_back_uds), (3, 2));
}

/// Brute force: every face of every die, scored by the book's rules written out here.
fn brute_assault(assault: &Assault, a_level: i32, d_level: i32) -> BTreeMap<AssaultOutcome, u128> {
    let score = |faces: &[u32], level: i32| -> u32 {
        faces
            .iter()
            .filter(|&&f| f == 1 || (f != 6 && f as i32 <= level))
            .sum()
    };
    let a = assault.attacker.stands as usize;
    let n = a + assault.defender.stands as usize;
    let mut out = BTreeMap::new();
    for_each_dice(n, 6, &mut |faces| {
        let outcome = assault.outcome(score(&faces[..a], a_level), score(&faces[a..], d_level));
        *out.entry(outcome).or_insert(0u128) += 1;
    });
    out
}

#[test]
fn the_zulu_british_match_up_matches_enumeration() {
    let assault = zulus_against_british();
    let odds = assault_odds(&assault).unwrap();
    assert_eq!(odds.outcome.total(), 6u128.pow(7));
    assert_sums_to_total(&odds.outcome);
    assert_sums_to_total(&odds.margin);
    assert_eq!(
        pairs(&odds.outcome),
        brute_assault(&assault, 4, 3)
            .into_iter()
            .collect::<Vec<_>>()
    );
    let total = odds.p_attacker_wins() + odds.p_tie() + odds.p_defender_wins();
    assert!((total - 1.0).abs() < 1e-12);
    assert!(odds.p_attacker_wins() > odds.p_defender_wins());
}

#[test]
fn assault_modifiers_match_enumeration() {
    let close = AssaultTroops::CloseRegulars;
    let loose = AssaultTroops::MilitiaOrLooseRegulars;
    let cases = [
        // Dashing attacker against stubborn defenders on a hill: 3+1 vs 2+1+1.
        (
            Assault {
                attacker: AssaultSide {
                    dashing: true,
                    ..AssaultSide::new(3, close)
                },
                defender: AssaultSide {
                    stubborn: true,
                    ..AssaultSide::new(2, loose)
                },
                position: Position::Hill,
                cover_or_rough: false,
            },
            (4, 4),
        ),
        // Fortified defenders (+2) after two earlier assaults (−2); cavalry attacking
        // into cover fights at 1.
        (
            Assault {
                attacker: AssaultSide {
                    cavalry: true,
                    ..AssaultSide::new(3, AssaultTroops::Choc)
                },
                defender: AssaultSide {
                    extra_assaults: 2,
                    ..AssaultSide::new(3, close)
                },
                position: Position::Fortifications,
                cover_or_rough: true,
            },
            (1, 3),
        ),
        // Militia on their third assault: level 0, but a 1 still succeeds.
        (
            Assault {
                attacker: AssaultSide {
                    extra_assaults: 2,
                    ..AssaultSide::new(2, loose)
                },
                defender: AssaultSide::new(2, loose),
                position: Position::Open,
                cover_or_rough: false,
            },
            (0, 2),
        ),
        // Choc, dashing, against fortified stubborn regulars: 5 vs 6 (a 6 still misses).
        (
            Assault {
                attacker: AssaultSide {
                    dashing: true,
                    ..AssaultSide::new(3, AssaultTroops::Choc)
                },
                defender: AssaultSide {
                    stubborn: true,
                    ..AssaultSide::new(2, close)
                },
                position: Position::Fortifications,
                cover_or_rough: false,
            },
            (5, 6),
        ),
    ];
    for (assault, levels) in cases {
        assert_eq!(assault_levels(&assault).unwrap(), levels);
        let odds = assault_odds(&assault).unwrap();
        assert_sums_to_total(&odds.outcome);
        assert_eq!(
            pairs(&odds.outcome),
            brute_assault(&assault, levels.0, levels.1)
                .into_iter()
                .collect::<Vec<_>>(),
            "{assault:?}"
        );
    }
}

#[test]
fn fortified_and_stubborn_units_do_not_fall_back() {
    let close = AssaultTroops::CloseRegulars;
    let fortified = Assault {
        attacker: AssaultSide::new(4, close),
        defender: AssaultSide::new(4, close),
        position: Position::Fortifications,
        cover_or_rough: false,
    };
    let beaten = fortified.outcome(6, 2);
    assert_eq!(
        (beaten.defender.stands, beaten.defender.fall_back_uds),
        (4, 0)
    );
    let repulsed = fortified.outcome(2, 6);
    assert_eq!(
        (repulsed.attacker.stands, repulsed.attacker.fall_back_uds),
        (2, 2)
    );
    let stubborn = Assault {
        attacker: AssaultSide {
            stubborn: true,
            ..AssaultSide::new(4, close)
        },
        position: Position::Open,
        ..fortified
    };
    let repulsed = stubborn.outcome(2, 5);
    assert_eq!(
        (repulsed.attacker.stands, repulsed.attacker.fall_back_uds),
        (3, 0)
    );
    // A tie costs both one stand.
    let tie = stubborn.outcome(4, 4);
    assert_eq!(tie.attacker.stands, 1);
    assert_eq!(tie.defender.stands, 1);
}

/// Close-order infantry in the open, in plain sight: the target the fire tests vary.
const OPEN_CLOSE: FireTarget = FireTarget {
    doctrine: Doctrine::Close,
    infantry: true,
    terrain: Terrain::Open,
    conspicuous: false,
    stands: None,
    unrevealed: false,
};

#[test]
fn fire_numbers_follow_the_table() {
    let open_close = OPEN_CLOSE;
    let fire = |troop_type, range_uds, moving, target| Fire {
        troop_type,
        stands: 4,
        range_uds,
        moving,
        uphill: false,
        target,
    };
    // "At medium range (2 UD), a 'B' unit must roll 3/4 to hit an entrenched target."
    let entrenched = FireTarget {
        terrain: Terrain::Fortifications,
        ..open_close
    };
    let n = fire(TroopType::B, 2, false, entrenched).numbers().unwrap();
    assert_eq!((n.to_hit, n.misses_up_to), (4, 2));
    let hits: Vec<u32> = (1..=6).filter(|&f| n.hits(f)).collect();
    assert_eq!(hits, vec![3, 4]);
    // Moving uses the bracket; no bracket, no fire.
    assert_eq!(
        fire(TroopType::A, 1, true, open_close)
            .numbers()
            .unwrap()
            .to_hit,
        3
    );
    assert_eq!(
        fire(TroopType::C, 2, true, open_close)
            .numbers()
            .unwrap_err()
            .to_string(),
        "a type C unit that moved has no to-hit number at 2 UD: no fire"
    );
    assert!(matches!(
        fire(TroopType::G, 2, false, open_close).numbers(),
        Err(ResolveError::NoResult(_))
    ));
    assert!(fire(TroopType::A, 5, false, open_close).numbers().is_err());
    // Conspicuous: +1, but a 6 always misses.
    let conspicuous = FireTarget {
        conspicuous: true,
        ..open_close
    };
    let n = fire(TroopType::A, 1, false, conspicuous).numbers().unwrap();
    assert_eq!(n.to_hit, 6);
    assert!(n.hits(5) && !n.hits(6));
    // Cover misses.
    let misses = |doctrine, infantry, terrain| {
        let target = FireTarget {
            doctrine,
            infantry,
            terrain,
            ..open_close
        };
        fire(TroopType::A, 1, false, target)
            .numbers()
            .unwrap()
            .misses_up_to
    };
    assert_eq!(misses(Doctrine::Close, true, Terrain::Open), 0);
    assert_eq!(misses(Doctrine::Loose, true, Terrain::Open), 1);
    assert_eq!(misses(Doctrine::Close, true, Terrain::Cover), 1);
    assert_eq!(misses(Doctrine::Loose, true, Terrain::Cover), 2);
    assert_eq!(misses(Doctrine::Close, true, Terrain::Fortifications), 2);
    assert_eq!(misses(Doctrine::Close, false, Terrain::Cover), 0);
    // Cavalry in loose order is no combination the book has: refused with the reason.
    let loose_cavalry = FireTarget {
        doctrine: Doctrine::Loose,
        infantry: false,
        ..open_close
    };
    let error = fire(TroopType::A, 1, false, loose_cavalry)
        .numbers()
        .unwrap_err();
    assert!(
        error.to_string().contains("cavalry fights in close order"),
        "{error}"
    );
}

#[test]
fn visibility_shortens_line_of_sight_by_one_ud_per_concealment() {
    // RULINGS "Visibility": 4 UD, −1 unrevealed, −1 in cover, −1 in loose order; none for a
    // conspicuous target; beyond sight the unit cannot fire (not 0 %).
    let open = OPEN_CLOSE;
    let hidden = FireTarget {
        doctrine: Doctrine::Loose,
        terrain: Terrain::Cover,
        unrevealed: true,
        ..open
    };
    assert_eq!(open.sight().0, 4);
    assert_eq!(
        FireTarget {
            unrevealed: true,
            ..open
        }
        .sight()
        .0,
        3
    );
    assert_eq!(hidden.sight().0, 1);
    assert_eq!(
        FireTarget {
            conspicuous: true,
            ..hidden
        }
        .sight()
        .0,
        4
    );
    let at = |range_uds, target| Fire {
        troop_type: TroopType::A,
        stands: 4,
        range_uds,
        moving: false,
        uphill: false,
        target,
    };
    assert!(fire_odds(&at(1, hidden)).is_ok());
    let error = fire_odds(&at(2, hidden)).unwrap_err();
    assert!(matches!(error, ResolveError::NoResult(_)), "{error}");
    assert!(
        error.to_string().contains("beyond line of sight: 1 UD"),
        "{error}"
    );
    assert!(fire_odds(&at(4, open)).is_ok());
}

#[test]
fn fire_odds_match_enumeration() {
    let target = FireTarget {
        doctrine: Doctrine::Loose,
        infantry: true,
        terrain: Terrain::Cover,
        conspicuous: true,
        stands: Some(3),
        unrevealed: false,
    };
    let fire = Fire {
        troop_type: TroopType::A,
        stands: 4,
        range_uds: 1,
        moving: false,
        uphill: true,
        target,
    };
    let odds = fire_odds(&fire).unwrap();
    assert_eq!(odds.numbers.dice, 5);
    assert_eq!(odds.hits.total(), 6u128.pow(5));
    assert_sums_to_total(&odds.stands_lost);
    // To hit 5 + 1 = 6, a 6 misses, 1–2 miss in cover: 3, 4, 5 hit.
    let mut hits = BTreeMap::new();
    let mut lost = BTreeMap::new();
    for_each_dice(5, 6, &mut |faces| {
        let h = faces.iter().filter(|&&f| (3..=5).contains(&f)).count() as u32;
        *hits.entry(h).or_insert(0u128) += 1;
        *lost.entry(h.min(3)).or_insert(0u128) += 1;
    });
    assert_eq!(pairs(&odds.hits), hits.into_iter().collect::<Vec<_>>());
    assert_eq!(
        pairs(&odds.stands_lost),
        lost.into_iter().collect::<Vec<_>>()
    );
}

#[test]
fn command_points_and_reactivity() {
    // One die per started 8 stands: 17 stands → 3 dice; average general d6.
    let odds = command_points_odds(17, General::Average).unwrap();
    assert_eq!((odds.dice, odds.sides), (3, 6));
    let mut brute = BTreeMap::new();
    for_each_dice(3, 6, &mut |f| {
        *brute.entry(f.iter().sum::<u32>()).or_insert(0u128) += 1
    });
    assert_eq!(pairs(&odds.total), brute.into_iter().collect::<Vec<_>>());
    let odds = command_points_odds(24, General::Mediocre).unwrap();
    assert_eq!((odds.dice, odds.sides, odds.total.total()), (3, 4, 64));
    let odds = command_points_odds(25, General::Superior).unwrap();
    assert_eq!((odds.dice, odds.sides), (4, 8));
    assert_sums_to_total(&odds.total);
    // Trained close order: basic score 3; each CP adds one.
    let bs = unit("British Regulars").basic_score().unwrap();
    assert_eq!(bs, 3);
    let passes: Vec<u128> = (0..=5)
        .map(|cp| reactivity_odds(bs, cp).weight(&true))
        .collect();
    assert_eq!(passes, vec![3, 4, 5, 6, 6, 6]);
}

#[test]
fn seeded_rolls_replay() {
    let assault = zulus_against_british();
    let fire = Fire {
        troop_type: TroopType::B,
        stands: 4,
        range_uds: 2,
        moving: false,
        uphill: false,
        target: FireTarget::of(unit("Zulu Warriors"), Terrain::Open),
    };
    for seed in 0..40 {
        let a = roll_assault(&assault, &mut Roller::new(seed)).unwrap();
        assert_eq!(a, roll_assault(&assault, &mut Roller::new(seed)).unwrap());
        assert_eq!(a.seed, seed);
        assert!(a.attacker_dice.is_genuine() && a.defender_dice.is_genuine());
        assert_eq!(
            a.result,
            assault_from_faces(&assault, &a.attacker_dice.dice, &a.defender_dice.dice).unwrap()
        );
        let f = roll_fire(&fire, &mut Roller::new(seed)).unwrap();
        assert_eq!(f, roll_fire(&fire, &mut Roller::new(seed)).unwrap());
        assert_eq!(f.dice.dice.len(), 4);
        let cp = roll_command_points(30, General::Superior, &mut Roller::new(seed)).unwrap();
        assert_eq!(cp.dice.sides, 8);
        assert_eq!(cp.dice.dice.len(), 4);
        let r = roll_reactivity(2, 1, &mut Roller::new(seed)).unwrap();
        assert_eq!(r.passed, r.die.dice[0] <= 3);
    }
}

#[test]
fn monte_carlo_assaults_agree_with_the_exact_odds() {
    let assault = zulus_against_british();
    let odds = assault_odds(&assault).unwrap();
    let mut roller = Roller::new(1879);
    let trials = 20_000u64;
    let (mut wins, mut two_or_more) = (0, 0);
    for _ in 0..trials {
        let roll = roll_assault(&assault, &mut roller).unwrap();
        wins += u64::from(roll.result.attacker_score > roll.result.defender_score);
        two_or_more += u64::from(roll.result.outcome.defender.stands >= 2);
    }
    let est = Estimate::from_counts(wins, trials);
    assert!(est.z_score(odds.p_attacker_wins()) < 4.0, "{est:?}");
    let exact = odds.defender_losses().probability_where(|l| l.stands >= 2);
    let est = Estimate::from_counts(two_or_more, trials);
    assert!(est.z_score(exact) < 4.0, "{est:?} vs {exact}");
}
