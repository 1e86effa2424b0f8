//! Every ruleset whose battles are fought on a board, played by a property test written over
//! the registry (never over a list typed here, so a sixth ruleset's battle is played without
//! being named): two forces from its book cards, random actions among those on offer (a
//! random choice where the action narrows one, a random target), each rolled by the app or
//! typed as the players rolled it — letters where the book prints them — until the battle
//! ends. Its campaign is then exported, imported into a fresh library and re-derived event by
//! event, and the boards must agree.
//!
//! The cases come from a fixed seed: a run never depends on the clock or a random id.

use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use quartermaster::campaign::{self, CampaignRecord, CampaignUid, Recorder, Sides, file, roster};
use quartermaster::rules::battle::Request;
use quartermaster::rules::battle::board::TablePlan;
use quartermaster::rules::battle::table::{TableEngine, engine};
use quartermaster::rules::dice::{FaceNames, TableDice};
use quartermaster::rules::force::{Force, ForceUnit};
use quartermaster::rules::resolution::InputValue;
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
    request: &Request,
    choices: &mut Choices,
) -> Option<TableDice> {
    let mut given = TableDice::new();
    for _ in 0..40 {
        let (asked, answer) = record.table_pools(0, request, &given).ok()?;
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

/// The request a random player makes now: one allowed action, a random target, a random
/// choice where the action narrows one.
fn random_request(
    engine: &TableEngine,
    plan: &TablePlan,
    board: &quartermaster::rules::battle::board::Board,
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
    for (key, options) in &action.choices {
        if let Some(&pick) = options.get(choices.below(options.len())) {
            request.inputs.set(key, InputValue::Choice(pick));
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

/// Battle 1 of a campaign of `id` between forces of `picks`, played to its end: `steps`
/// random actions, then the scripted player (which always ends a battle).
fn played(id: RulesetId, picks: &[u32], list: &[u32], steps: usize) -> (CampaignRecord, Played) {
    let (first, second) = picks.split_at(picks.len() / 2);
    let (red, blue) = (force(id, "Red", first), force(id, "Blue", second));
    let plan = roster::first_plan(
        id,
        1,
        "Battle 1",
        Sides {
            first: &red,
            second: &blue,
        },
        &[],
    )
    .unwrap();
    let players = Sides {
        first: "Ann".to_string(),
        second: "Bob".to_string(),
    };
    let definition = campaign::new_table("Registry", players, plan.clone(), None).unwrap();
    // A fixed id: the app's dice come from the campaign's history.
    let uid = CampaignUid(uuid::Uuid::from_u128(
        0x0192_0000_0000_7000_8000_0000_0000_0036,
    ));
    let mut record = CampaignRecord::new(uid, definition);
    let engine = engine(id).unwrap();
    let by = Recorder::default();
    let mut choices = Choices { list, at: 0 };
    let mut tally = Played::default();
    for step in 0..steps + 400 {
        let board = record.board(0).unwrap();
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
                let dice = typed_dice(&record, &request, &mut choices)?;
                record.decide_table(0, &request, &by, &dice).ok()
            } else {
                record.decide(0, &request, &by).ok()
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
                .scripted(0, &by)
                .unwrap()
                .expect("the battle is not over"),
        };
        let at = format!(
            "2026-05-{:02}T{:02}:{:02}:00Z",
            1 + step / 1440,
            step / 60 % 24,
            step % 60
        );
        record.append_numbered(0, at, event).unwrap();
    }
    assert!(
        record.board(0).unwrap().outcome.is_some(),
        "{id}: the battle ends"
    );
    (record, tally)
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
        let rulesets = board_rulesets();
        prop_assert!(rulesets.len() >= 4, "{rulesets:?}");
        let mut typed = 0;
        for id in rulesets {
            let (record, tally) = played(id, &picks, &list, steps);
            prop_assert!(tally.by_app + tally.at_table > 0, "{}: no random action was taken", id);
            let text = file::to_json(&record).unwrap();
            // Reading the file decides every event again from its dice.
            let read = file::parse(&text).unwrap_or_else(|e| panic!("{id}: {e}"));
            let dir = tempfile::tempdir().unwrap();
            let mut store = Store::open(dir.path()).unwrap();
            let stored = store.create_campaign_record(&read).unwrap();
            let loaded = store.load_campaign(stored.id).unwrap().record;
            prop_assert_eq!(loaded.board(0), record.board(0), "{}", id);
            prop_assert_eq!(loaded.results(), record.results(), "{}", id);
            typed += tally.at_table;
        }
        prop_assert!(typed > 0, "some dice were typed at the table");
    }
}
