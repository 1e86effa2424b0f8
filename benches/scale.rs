//! A club's whole library: the window's model and views at 1,000 / 10,000 / 100,000 custom
//! cards (with a tenth as many forces). Measures one edit's model work, a Library frame and
//! a Forces frame; the goals are ≤ 5 ms per edit and ≤ 8 ms per frame at 100,000 cards.
//!
//! `cargo bench --bench scale` (set `SCALE_SIZES=1000,10000` to skip the largest).

#[path = "support/run.rs"]
mod run;
mod support;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use quartermaster::rules::{Card, CardRef, Force, ForceUnit, RulesetId};
use quartermaster::store::{CardId, Store};
use quartermaster::ui::{Action, App, CardKey, Command, LibraryAction, Model, View};

fn force(i: usize) -> Force {
    let mut force = Force::new(RulesetId::Belloludi, format!("Club force {i:05}"));
    force.units.push(ForceUnit {
        card: CardRef::Library("Sherman".into()),
        count: 1 + (i % 4) as u32,
        group: None,
        points: None,
        stands: None,
    });
    force
}

/// A window over `cards` custom cards and `cards / 10` forces, stored in memory.
fn club(cards: usize) -> App {
    let mut store = Store::open_in_memory().expect("in-memory store");
    for i in 0..cards {
        store
            .save_custom_card(None, &support::vehicle(i))
            .expect("card saved");
    }
    for i in 0..cards / 10 {
        store.save_force(None, &force(i)).expect("force saved");
    }
    let mut app = App::for_tests().expect("app");
    app.model = Model::new(store);
    app
}

fn sizes() -> Vec<usize> {
    std::env::var("SCALE_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| {
            if run::test_mode() {
                vec![200]
            } else {
                vec![1_000, 10_000, 100_000]
            }
        })
}

/// One edit of the open force (its first line's count, cycling 1–5), as the window makes it.
fn edit_open_force(app: &mut App, count: &mut u32) {
    let mut edited = app.model.open.as_ref().expect("open").force.clone();
    *count = *count % 5 + 1;
    edited.units[0].count = *count;
    app.model.apply(Command::Edit {
        force: edited,
        label: "Count".into(),
    });
}

/// One edit of custom card `id` (its name, cycling), as the card editor saves it.
fn edit_custom_card(app: &mut App, id: CardId, round: &mut usize) {
    let Some((_, card)) = app
        .model
        .custom_cards
        .iter()
        .find(|(c, _)| *c == id)
        .cloned()
    else {
        return;
    };
    *round = (*round + 1) % 5;
    let Card::Belloludi(mut vehicle) = card else {
        return;
    };
    vehicle.name = format!("Edited card {round}");
    app.model.apply(Command::SaveCustomCard {
        id: Some(id),
        card: Card::Belloludi(vehicle),
    });
}

fn scale(c: &mut Criterion) {
    let mut group = c.benchmark_group("scale");
    group.sample_size(20);
    for cards in sizes() {
        let mut app = club(cards);
        // One edit of the open force: the model's work (store write, list update, validation).
        let id = app.model.forces[app.model.forces.len() / 2].id;
        app.model.apply(Command::Open(id));
        let mut count = 1;
        group.bench_with_input(BenchmarkId::new("edit", cards), &cards, |b, _| {
            b.iter(|| edit_open_force(&mut app, &mut count))
        });
        // One custom card edited: the model reads that card again, not the library.
        let (edited, _) = app.model.custom_cards[cards / 2].clone();
        let mut round = 0;
        group.bench_with_input(BenchmarkId::new("card edit", cards), &cards, |b, _| {
            b.iter(|| edit_custom_card(&mut app, edited, &mut round))
        });
        app.model.notices.clear();

        let mut harness = egui_kittest::Harness::builder()
            .with_size(egui::vec2(1280.0, 800.0))
            .build_ui_state(|ui, app: &mut App| app.show(ui), app);
        harness.state_mut().apply(Action::Navigate(View::Library));
        harness.run();
        group.bench_with_input(BenchmarkId::new("library frame", cards), &cards, |b, _| {
            b.iter(|| harness.step())
        });
        // A force edit and the Library frame after it: nothing the Library shows is redone.
        let mut count = 1;
        group.bench_with_input(
            BenchmarkId::new("edit then library frame", cards),
            &cards,
            |b, _| {
                b.iter(|| {
                    edit_open_force(harness.state_mut(), &mut count);
                    harness.step();
                })
            },
        );
        // A card edit and the Library frame after it: what the Library derives from the cards
        // is made again, and the edited card, selected as the editor leaves it, is laid out as
        // it will print.
        harness
            .state_mut()
            .apply(Action::Library(LibraryAction::Select(CardKey::Custom(
                edited,
            ))));
        harness.run();
        let mut round = 0;
        group.bench_with_input(
            BenchmarkId::new("card edit then library frame", cards),
            &cards,
            |b, _| {
                b.iter(|| {
                    edit_custom_card(harness.state_mut(), edited, &mut round);
                    harness.state_mut().model.notices.clear();
                    harness.step();
                })
            },
        );
        let mut toggle = false;
        group.bench_with_input(
            BenchmarkId::new("library keystroke frame", cards),
            &cards,
            |b, _| {
                b.iter(|| {
                    toggle = !toggle;
                    let text = if toggle { "sher" } else { "she" };
                    harness
                        .state_mut()
                        .apply(Action::Library(LibraryAction::Search(text.into())));
                    harness.step();
                })
            },
        );
        harness.state_mut().apply(Action::Navigate(View::Forces));
        harness.run();
        group.bench_with_input(BenchmarkId::new("forces frame", cards), &cards, |b, _| {
            b.iter(|| harness.step())
        });
    }
    group.finish();
}

criterion_group!(benches, scale);
criterion_main!(benches);
