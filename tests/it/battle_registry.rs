//! Every ruleset whose battles are fought on a board, played by tests written over the
//! registry (never over a list typed here, so a sixth ruleset's battle is played without being
//! named):
//!
//! - a property test: two forces from its book cards, and every embedded scripted campaign's
//!   briefed battles (Lorraine), played with random actions among those on offer (a random
//!   target, a random value for every input within its limits), each rolled by the app or
//!   typed as the players rolled it — letters where the book prints them — until the battle
//!   ends. Each campaign is then exported, imported into a fresh library and re-derived event
//!   by event, and the boards must agree;
//! - its own scripted player, whose every event must decide again to itself from seeded and
//!   from typed dice, while a forged one does not.
//!
//! The cases come from a fixed seed: a run never depends on the clock or a random id.

use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use quartermaster::campaign::{
    self, CampaignOptions, CampaignRecord, CampaignUid, Recorder, Sides, file, roster, scripted,
};
use quartermaster::rules::battle::board::{Board, Effect, TablePlan};
use quartermaster::rules::battle::table::{TableEngine, TableEvent, engine};
use quartermaster::rules::battle::{Action, Dice, Request};
use quartermaster::rules::dice::{FaceNames, TableDice};
use quartermaster::rules::force::{Force, ForceUnit};
use quartermaster::rules::resolution::{InputKind, InputSpec, InputValue};
use quartermaster::rules::{RulesetId, ruleset};
use quartermaster::store::Store;

/// The rulesets the registry fights on a board.
fn board_rulesets() -> Vec<RulesetId> {
    RulesetId::ALL
        .into_iter()
        .filter(|id| ruleset(*id).table_battle().is_some())
        .collect()
}

/// A force of the book's cards at `picks` (wrapped over the library).
fn force(id: RulesetId, name: &str, picks: &[u32]) -> Force {
    let library = ruleset(id).library();
    let mut force = Force::new(id, name);
    force.units = picks
        .iter()
        .map(|&p| ForceUnit::library(library[p as usize % library.len()].name(), 1))
        .collect();
    force
}

/// Random numbers drawn in turn from the case's list, over and over.
struct Choices<'a> {
    list: &'a [u32],
    at: usize,
}

impl Choices<'_> {
    fn below(&mut self, n: usize) -> usize {
        let value = self.list[self.at % self.list.len()];
        self.at += 1;
        value as usize % n.max(1)
    }
}

/// Faces typed for every pool the request asks, as the die shows them: names where the book
/// prints them ("B", "K", "second"), else numbers.
fn typed_dice(
    record: &CampaignRecord,
    index: usize,
    request: &Request,
    choices: &mut Choices,
) -> Option<TableDice> {
    let mut given = TableDice::new();
    for _ in 0..40 {
        let (asked, answer) = record.table_pools(index, request, &given).ok()?;
        if answer.is_ok() {
            return Some(given);
        }
        let mut seen = std::collections::BTreeMap::new();
        let next = asked.iter().find(|a| {
            let n: &mut usize = seen.entry(a.pool).or_default();
            *n += 1;
            given.rolls_of(a.pool) < *n
        })?;
        let faces: Vec<u8> = (0..next.count)
            .map(|_| u8::try_from(1 + choices.below(usize::from(next.sides))).unwrap())
            .collect();
        let words: Vec<String> = faces
            .iter()
            .map(|&f| match next.faces {
                FaceNames::Numbers => f.to_string(),
                names => names.name(f).unwrap_or("?").to_string(),
            })
            .collect();
        given.add_typed(next.pool, &words.join(",")).ok()?;
    }
    None
}

/// A random value for `spec`, within what `action` allows now.
fn random_value(spec: &InputSpec, action: &Action, choices: &mut Choices) -> InputValue {
    let below = |n: i64, choices: &mut Choices| {
        i64::try_from(choices.below(usize::try_from(n.max(1)).unwrap_or(1))).unwrap_or(0)
    };
    match &spec.kind {
        InputKind::Toggle => InputValue::Flag(choices.below(2) == 0),
        InputKind::Count { min, max } => {
            let top = action.limit(spec.key).map_or(*max, |l| l.max.min(*max));
            InputValue::Count(min + below(top - min + 1, choices))
        }
        InputKind::Number { min, max } => {
            #[allow(clippy::cast_precision_loss)]
            let share = below(101, choices) as f64 / 100.0;
            InputValue::Number(min + (max - min) * share)
        }
        InputKind::Choice(options) => {
            let narrowed = action.choices.iter().find(|(key, _)| *key == spec.key);
            let allowed: Vec<&str> = options
                .iter()
                .map(|o| o.key)
                .filter(|k| narrowed.is_none_or(|(_, keys)| keys.contains(k)))
                .collect();
            match allowed.get(choices.below(allowed.len())) {
                Some(key) => InputValue::Choice(key),
                None => spec.default.clone(),
            }
        }
        InputKind::Card { .. } | InputKind::CardList { .. } => spec.default.clone(),
    }
}

/// The request a random player makes now: one allowed action, a random target, and a random
/// value for every input the board does not fix (within the action's limits and choices).
fn random_request(
    engine: &TableEngine,
    plan: &TablePlan,
    board: &Board,
    choices: &mut Choices,
) -> Option<Request> {
    let offered: Vec<_> = (engine.actions)(plan, board)
        .into_iter()
        .filter(|a| a.allowed())
        .collect();
    if offered.is_empty() {
        return None;
    }
    let action = &offered[choices.below(offered.len())];
    let mut request = action.request();
    if !action.targets.is_empty() {
        request.target = Some(action.targets[choices.below(action.targets.len())].clone());
    }
    for spec in (engine.params)(action.key) {
        if !action.fixed.iter().any(|(key, _)| *key == spec.key) {
            let value = random_value(&spec, action, choices);
            request.inputs.set(spec.key, value);
        }
    }
    Some(request)
}

/// What a random player got recorded: actions of its own with the app's dice, and with dice
/// typed at the table.
#[derive(Default)]
struct Played {
    by_app: usize,
    at_table: usize,
}

/// A plan of battle 1 between forces of `picks` from the book's cards.
fn battle_plan(id: RulesetId, picks: &[u32]) -> TablePlan {
    let (first, second) = picks.split_at(picks.len() / 2);
    let (red, blue) = (force(id, "Red", first), force(id, "Blue", second));
    let forces = Sides {
        first: &red,
        second: &blue,
    };
    roster::first_plan(id, 1, "Battle 1", forces, &[]).unwrap()
}

fn players() -> Sides<String> {
    Sides {
        first: "Ann".to_string(),
        second: "Bob".to_string(),
    }
}

/// A fixed id: the app's dice come from the campaign's history.
fn fixed_uid() -> CampaignUid {
    CampaignUid(uuid::Uuid::from_u128(
        0x0192_0000_0000_7000_8000_0000_0000_0036,
    ))
}

/// Every campaign the registry's data makes: one between two forces of each board ruleset's
/// cards at `picks`, and each embedded scripted campaign (Lorraine) with its briefed battles.
fn campaigns(picks: &[u32]) -> Vec<CampaignRecord> {
    let tables = board_rulesets().into_iter().map(|id| {
        campaign::new_table("Registry", players(), battle_plan(id, picks), None).unwrap()
    });
    let scripted = scripted::all().map(|script| {
        campaign::new_scripted(&script.id, script, players(), CampaignOptions::default()).unwrap()
    });
    tables
        .chain(scripted)
        .map(|definition| CampaignRecord::new(fixed_uid(), definition))
        .collect()
}

/// Battle `index` of `record` played to its end: `steps` random actions, then the scripted
/// player (which always ends a battle).
fn play(record: &mut CampaignRecord, index: usize, list: &[u32], steps: usize) -> Played {
    let id = record.campaign.ruleset;
    let plan = record.table_plan(index).unwrap();
    let engine = engine(id).unwrap();
    let by = Recorder::default();
    let mut choices = Choices { list, at: 0 };
    let mut tally = Played::default();
    for step in 0..steps + 400 {
        let board = record.board(index).unwrap();
        if board.outcome.is_some() {
            break;
        }
        // Every standing reads the board without a panic.
        for unit in &board.units {
            (engine.unit_standing)(&plan, unit);
        }
        (engine.turn_standing)(&plan, &board);
        let random = (step < steps)
            .then(|| random_request(&engine, &plan, &board, &mut choices))
            .flatten();
        let at_table = choices.below(2) == 0;
        let decided = random.and_then(|request| {
            if at_table {
                let dice = typed_dice(record, index, &request, &mut choices)?;
                record.decide_table(index, &request, &by, &dice).ok()
            } else {
                record.decide(index, &request, &by).ok()
            }
        });
        let event = match decided {
            Some(decided) => {
                if at_table {
                    tally.at_table += 1;
                } else {
                    tally.by_app += 1;
                }
                decided.event
            }
            // Refused (a target out of reach, no such pools): the scripted player moves on.
            None => record
                .scripted(index, &by)
                .unwrap()
                .expect("the battle is not over"),
        };
        let at = format!(
            "2026-05-{:02}T{:02}:{:02}:00Z",
            1 + step / 1440,
            step / 60 % 24,
            step % 60
        );
        record.append_numbered(index, at, event).unwrap();
    }
    assert!(
        record.board(index).unwrap().outcome.is_some(),
        "{id}: battle {} ends",
        index + 1
    );
    tally
}

/// The dice `event` rolled, as the players would type them at the table.
fn table_dice_of(event: &TableEvent) -> Dice {
    let mut dice = TableDice::new();
    for roll in &event.rolls {
        dice.add(roll.pool.clone(), roll.roll.dice.clone());
    }
    Dice::Table(dice)
}

/// Each board ruleset's own scripted player, from a few seeds: the battle ends, within its last
/// turn where the rules set one; every event
/// decides again from its dice to itself; the same request with those faces typed at the
/// table has the same effects and verifies too; and a forged event (an effect added, a seeded
/// die changed) is never its own rederivation.
#[test]
fn every_board_ruleset_s_scripted_battle_verifies_seeded_and_typed_and_forgeries_do_not() {
    for id in board_rulesets() {
        let engine = engine(id).unwrap();
        let plan = battle_plan(id, &[0, 1, 2, 3]);
        for seed in [1u64, 7, 42] {
            let mut board = (engine.start)(&plan, &Sides::default());
            let mut step = 0;
            while let Some(request) = (engine.scripted)(&plan, &board) {
                step += 1;
                assert!(step < 2_000, "{id}, seed {seed}: the battle does not end");
                let decide = |dice: &Dice| {
                    (engine.decide)(&plan, &board, &request, dice)
                        .unwrap_or_else(|e| panic!("{id}: {request:?}: {e}"))
                        .event
                };
                let rederive =
                    |e: &TableEvent| (engine.rederive)(&plan, &board, e, engine.revision);
                let event = decide(&Dice::Seed(seed * 1_000 + step));
                assert_eq!(rederive(&event), Ok(event.clone()), "{id}");
                let at_table = decide(&table_dice_of(&event));
                assert_eq!(at_table.effects, event.effects, "{id}: {request:?}");
                assert_eq!(rederive(&at_table), Ok(at_table.clone()), "{id}");
                let mut forged = event.clone();
                forged
                    .effects
                    .push(Effect::mark(&board.units[0].id, "forged"));
                assert_ne!(rederive(&forged).ok(), Some(forged), "{id}");
                let mut forged = event.clone();
                if let Some(die) = forged
                    .rolls
                    .first_mut()
                    .and_then(|r| r.roll.dice.first_mut())
                {
                    *die = if *die == 1 { 2 } else { 1 };
                    assert_ne!(rederive(&forged).ok(), Some(forged), "{id}");
                }
                for effect in &event.effects {
                    board.apply(effect);
                }
            }
            assert!(board.outcome.is_some(), "{id}, seed {seed}");
            // Where the rules set a number of turns, the battle ends within it.
            let last = (engine.turn_standing)(&plan, &board).last;
            assert!(
                last.is_none_or(|last| board.turn <= last),
                "{id}, seed {seed}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 6,
        rng_seed: RngSeed::Fixed(36),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_board_ruleset_plays_exports_imports_and_rederives(
        picks in proptest::collection::vec(0u32..64, 4..7),
        list in proptest::collection::vec(any::<u32>(), 64),
        steps in 20usize..60,
    ) {
        prop_assert!(board_rulesets().len() >= 4);
        let mut typed = 0;
        for mut record in campaigns(&picks) {
            let id = record.campaign.ruleset;
            for index in 0..record.campaign.battles.len() {
                let tally = play(&mut record, index, &list, steps);
                prop_assert!(tally.by_app + tally.at_table > 0, "{}: no random action was taken", id);
                typed += tally.at_table;
            }
            let text = file::to_json(&record).unwrap();
            // Reading the file decides every event again from its dice.
            let read = file::parse(&text).unwrap_or_else(|e| panic!("{id}: {e}"));
            let dir = tempfile::tempdir().unwrap();
            let mut store = Store::open(dir.path()).unwrap();
            let stored = store.create_campaign_record(&read).unwrap();
            let loaded = store.load_campaign(stored.id).unwrap().record;
            for index in 0..record.campaign.battles.len() {
                prop_assert_eq!(loaded.board(index), record.board(index), "{}", id);
            }
            prop_assert_eq!(loaded.results(), record.results(), "{}", id);
        }
        prop_assert!(typed > 0, "some dice were typed at the table");
    }
}
