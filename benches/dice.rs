//! Benchmarks for the dice core: exact opposed odds must be cheap enough to recompute in the
//! UI, and Monte Carlo fire must reach tens of millions of actions per second.
//!
//! Run with `cargo bench --bench dice`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use quartermaster::rules::dice::{Dist, Opposed, Pool, PoolOutcome, simulate_fire};

/// Net successes and whether fire suppresses, under a suppression rule.
fn fire_key<R>(rule: R) -> impl Fn(PoolOutcome, PoolOutcome) -> (i64, bool)
where
    R: Fn(PoolOutcome, PoolOutcome) -> bool,
{
    move |a, d| (i64::from(a.successes) - i64::from(d.successes), rule(a, d))
}

/// Direct fire: the attacker rolled a six and the target rolled fewer sixes.
fn direct_suppression(a: PoolOutcome, d: PoolOutcome) -> bool {
    a.sixes >= 1 && d.sixes < a.sixes
}

/// Artillery: the attacker rolled a six and the target did not roll more sixes.
fn artillery_suppression(a: PoolOutcome, d: PoolOutcome) -> bool {
    a.sixes >= 1 && d.sixes <= a.sixes
}

fn exact(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact");
    let attacker = Pool::new(12, 4);
    let defender = Pool::new(10, 5);

    // Everything a ruleset does for one fire query: build both tables, then fold.
    group.bench_function("opposed_12v10_net_hits", |b| {
        b.iter(|| {
            let opposed =
                Opposed::new(black_box(attacker), black_box(defender)).expect("12 + 10 dice fit");
            opposed.net_successes()
        })
    });
    group.bench_function("opposed_12v10_net_and_suppression", |b| {
        b.iter(|| {
            let opposed =
                Opposed::new(black_box(attacker), black_box(defender)).expect("12 + 10 dice fit");
            opposed.fold(fire_key(direct_suppression))
        })
    });
    group.bench_function("opposed_12v10_sixes_beat_probability", |b| {
        b.iter(|| {
            let opposed =
                Opposed::new(black_box(attacker), black_box(defender)).expect("12 + 10 dice fit");
            opposed.probability_where(direct_suppression)
        })
    });

    // 12 attacker sizes x 10 defender sizes x 4 attacker targets x 2 defender targets x 2
    // suppression rules (direct fire, artillery) = 1,920 situations, each folded to
    // (net hits, suppressed).
    group.sample_size(20);
    group.bench_function("fire_table_1920", |b| {
        b.iter(|| {
            let mut table: Vec<Dist<(i64, bool)>> = Vec::with_capacity(1920);
            for na in 1..=12 {
                for nd in 1..=10 {
                    for ta in 3..=6 {
                        for td in 4..=5 {
                            let opposed =
                                Opposed::new(Pool::new(na, ta), Pool::new(nd, td)).expect("fits");
                            table.push(opposed.fold(fire_key(direct_suppression)));
                            table.push(opposed.fold(fire_key(artillery_suppression)));
                        }
                    }
                }
            }
            table
        })
    });
    group.finish();
}

fn monte_carlo(c: &mut Criterion) {
    const ACTIONS: u64 = 1_000_000;
    let mut group = c.benchmark_group("monte_carlo");
    group.throughput(Throughput::Elements(ACTIONS));
    group.sample_size(30);
    group.measurement_time(Duration::from_secs(8));
    let mut seed = 0u64;
    group.bench_function("fire_8v6_1m_actions", |b| {
        b.iter(|| {
            seed += 1;
            simulate_fire(Pool::new(8, 4), Pool::new(6, 5), black_box(ACTIONS), seed)
                .expect("valid pools")
        })
    });
    group.finish();
}

criterion_group!(benches, exact, monte_carlo);
criterion_main!(benches);
