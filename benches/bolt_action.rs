//! Benchmarks for Bolt Action's exact close quarters and vehicle odds: the Resolve view
//! recomputes them on every change, so a squad fight should stay well under a frame
//! (target ≤ 16 ms for 10 against 10) and the largest fight allowed (30 a side) under a second.
//!
//! Run with `cargo bench --bench bolt_action`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use quartermaster::rules::bolt_action::close_quarters::{CloseQuarters, Fighters, fight_odds};
use quartermaster::rules::bolt_action::resolve::{Attack, TargetProfile, attack_odds};
use quartermaster::rules::bolt_action::{Category, Quality, tables};

fn fight(a: u32, attackers: Quality, d: u32, defenders: Quality) -> CloseQuarters {
    CloseQuarters {
        attackers: Fighters::new(a, attackers),
        defenders: Fighters::new(d, defenders),
    }
}

fn close_quarters(c: &mut Criterion) {
    let mut group = c.benchmark_group("bolt_action_close_quarters");
    for (name, cq) in [
        (
            "10v10_regular",
            fight(10, Quality::Regular, 10, Quality::Regular),
        ),
        (
            "20v20_inexperienced_v_veteran",
            fight(20, Quality::Inexperienced, 20, Quality::Veteran),
        ),
        (
            "30v30_inexperienced_v_veteran",
            fight(30, Quality::Inexperienced, 30, Quality::Veteran),
        ),
    ] {
        if name.starts_with("30") {
            group.sample_size(10);
        }
        group.bench_function(name, |b| {
            b.iter(|| fight_odds(black_box(&cq)).expect("a fight"));
        });
    }
    group.finish();
}

fn vehicle_odds(c: &mut Criterion) {
    let mut group = c.benchmark_group("bolt_action_vehicle");
    let t = tables().expect("seed data");
    let tank = TargetProfile::of_category(Category::MediumTank, Quality::Regular).expect("row");
    let bazooka = Attack::new(t.weapon("Bazooka").expect("chart"), tank);
    // 2D6 shots, each result with its On Fire check: the longest chain still counted exactly.
    let flamethrower = Attack::new(t.weapon("Flamethrower (vehicle)").expect("chart"), tank);
    group.bench_function("bazooka_at_medium_tank", |b| {
        b.iter(|| attack_odds(black_box(&bazooka)).expect("odds"));
    });
    group.bench_function("vehicle_flamethrower_at_medium_tank", |b| {
        b.iter(|| attack_odds(black_box(&flamethrower)).expect("odds"));
    });
    group.finish();
}

criterion_group!(benches, close_quarters, vehicle_odds);
criterion_main!(benches);
