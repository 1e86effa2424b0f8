//! Library search with 10,000 cards: the filter run on each keystroke, and a whole headless
//! frame of the Library view (layout and tessellation-free UI pass) with that many cards.

mod support;

use criterion::{Criterion, criterion_group, criterion_main};
use quartermaster::rules::{self, Card, RulesetId};
use quartermaster::ui::{Action, App, CardEntry, Command, LibraryAction, LibraryState, View};

/// 10,000 cards: the books' plus generated custom vehicles with varied names.
fn ten_thousand_cards() -> Vec<Card> {
    let book: Vec<Card> = RulesetId::ALL
        .into_iter()
        .flat_map(|id| rules::ruleset(id).library().iter().cloned())
        .collect();
    let generated = (0..10_000 - book.len()).map(support::vehicle);
    book.into_iter().chain(generated).collect()
}

fn filter(c: &mut Criterion) {
    let cards = ten_thousand_cards();
    let refs: Vec<CardEntry<'_>> = cards
        .iter()
        .map(|card| CardEntry {
            card,
            custom: None,
            data: false,
        })
        .collect();
    let mut group = c.benchmark_group("library_10k");
    for query in ["p", "pan", "panzer 01", "tiger"] {
        let state = LibraryState {
            search: query.to_string(),
            ..LibraryState::default()
        };
        group.bench_function(format!("filter '{query}'"), |b| {
            b.iter(|| state.filter(&refs).len())
        });
    }
    let sorted = LibraryState {
        search: "mk".into(),
        sort: quartermaster::ui::SortColumn::Name,
        ..LibraryState::default()
    };
    group.bench_function("filter 'mk' sorted by name", |b| {
        b.iter(|| sorted.filter(&refs).len())
    });
    group.finish();
}

fn frame(c: &mut Criterion) {
    let mut app = App::for_tests().expect("in-memory store");
    for card in ten_thousand_cards()
        .into_iter()
        .filter(|card| matches!(card, Card::Belloludi(v) if v.name.starts_with("Vehicle")))
    {
        app.apply(Action::Model(Command::SaveCustomCard { id: None, card }));
    }
    app.model.notices.clear();
    app.apply(Action::Navigate(View::Library));
    let mut harness = egui_kittest::Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    harness.run();
    let mut toggle = false;
    c.bench_function("library_10k/keystroke frame", |b| {
        b.iter(|| {
            toggle = !toggle;
            let text = if toggle { "pan" } else { "pa" };
            harness
                .state_mut()
                .apply(Action::Library(LibraryAction::Search(text.into())));
            harness.step();
        })
    });
}

criterion_group!(benches, filter, frame);
criterion_main!(benches);
