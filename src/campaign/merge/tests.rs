//! Merging is idempotent, commutative and associative, and any exchange schedule converges:
//! property tests over random histories (replicas recording scripted play, notes and branch
//! choices into two battles) and random schedules of who merges whose copy when.

use std::collections::BTreeSet;

use proptest::prelude::*;
use uuid::Uuid;

use super::merge;
use crate::campaign::definition::BattlePlan;
use crate::campaign::{
    CampaignRecord, CampaignUid, Event, EventUid, LorraineOptions, Recorder, Sides, history,
    new_lorraine,
};
use crate::rules::armour_battles::battle::event as ab;

fn base() -> CampaignRecord {
    CampaignRecord::new(
        CampaignUid(Uuid::from_u128(0x0192_0000_0000_7000_8000_0000_0000_0001)),
        new_lorraine("Merge test", Sides::default(), LorraineOptions::default()).unwrap(),
    )
}

/// One machine's copy, recording with ids and times of its own.
#[derive(Clone)]
struct Replica {
    record: CampaignRecord,
    machine: u64,
    counter: u64,
    /// Every event this replica recorded itself.
    recorded: BTreeSet<EventUid>,
}

impl Replica {
    fn new(machine: u64) -> Self {
        Self {
            record: base(),
            machine,
            counter: 0,
            recorded: BTreeSet::new(),
        }
    }

    fn stamp(&mut self) -> (EventUid, String, Recorder) {
        self.counter += 1;
        let id = EventUid(Uuid::from_u128(
            (u128::from(self.machine) << 64) | u128::from(self.counter),
        ));
        // Times that interleave between machines, as real clocks would.
        let at = format!(
            "2026-11-25T10:{:02}:{:02}.{}Z",
            self.counter / 60 % 60,
            self.counter % 60,
            self.machine
        );
        (id, at, self.recorder())
    }

    fn recorder(&self) -> Recorder {
        Recorder {
            player: format!("player {}", self.machine),
            machine: format!("machine {}", self.machine),
        }
    }

    /// Records `n` events in battle `index`: scripted play (a note every `note_every`), and a
    /// branch choice first if the battle waits on one (`pick` says which branch). The dice
    /// come from each event's place and this machine, as the app rolls them.
    fn play(&mut self, index: usize, n: usize, pick: usize, note_every: usize) {
        if let Some(fork) = self.record.open_fork(index) {
            let keep = fork.branches[pick % fork.branches.len()].first;
            self.choose(index, keep);
        }
        assert!(matches!(
            self.record.campaign.battles[index],
            BattlePlan::Armour(_)
        ));
        for k in 0..n {
            let event = if note_every > 0 && k % note_every == 0 {
                Some(Event::Note {
                    text: format!("note {k} from {}", self.machine),
                })
            } else {
                self.record.scripted(index, &self.recorder()).unwrap()
            };
            let Some(event) = event else { break };
            let (id, time, by) = self.stamp();
            self.record.append(index, id, time, by, event).unwrap();
            self.recorded.insert(id);
        }
    }

    /// Records the choice keeping the branch that starts with `keep` in battle `index`.
    fn choose(&mut self, index: usize, keep: EventUid) {
        let (at, event) = self.record.choice(index, keep).unwrap();
        let (id, time, by) = self.stamp();
        self.record
            .add(index, history::logged(at, id, time, by, event))
            .unwrap();
        self.recorded.insert(id);
    }

    fn merge_from(&mut self, other: &Replica) {
        self.record = merge(&self.record, &other.record).unwrap().0;
    }
}

/// What every copy must agree on: id, battles and each battle's events laid out.
fn shared(r: &CampaignRecord) -> (CampaignUid, usize, String) {
    (
        r.id,
        r.campaign.battles.len(),
        serde_json::to_string(&(&r.logs, &r.aside)).unwrap(),
    )
}

fn ids(r: &CampaignRecord) -> BTreeSet<EventUid> {
    (0..r.campaign.battles.len())
        .flat_map(|i| r.all_events(i).map(|e| e.id).collect::<Vec<_>>())
        .collect()
}

/// A step of a random history: (replica, action, battle, count, seed, pick).
type Step = (usize, u8, usize, usize, usize);

fn steps(replicas: usize, max: usize) -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec(
        (0..replicas, 0u8..3, 0usize..2, 1usize..5, 0usize..3),
        1..max,
    )
}

/// Runs a schedule: action 0 or 1 records, 2 merges from the next replica round.
fn run(replicas: &mut [Replica], schedule: &[Step]) {
    let n = replicas.len();
    for &(r, action, battle, count, pick) in schedule {
        if action < 2 {
            replicas[r].play(battle, count, pick, 3);
        } else {
            let from = replicas[(r + 1 + pick) % n].clone();
            if from.machine != replicas[r].machine {
                replicas[r].merge_from(&from);
            }
        }
    }
}

fn diverged(schedule: &[Step], count: u64) -> Vec<Replica> {
    let mut replicas: Vec<Replica> = (1..=count).map(Replica::new).collect();
    run(&mut replicas, schedule);
    replicas
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 550, ..ProptestConfig::default() })]

    /// Idempotent, commutative and associative, on random diverged copies.
    #[test]
    fn merging_is_idempotent_commutative_and_associative(schedule in steps(3, 8)) {
        let r = diverged(&schedule, 3);
        let (a, b, c) = (&r[0].record, &r[1].record, &r[2].record);
        let ab = match merge(a, b) { Ok(m) => m.0, Err(e) => panic!("{e}") };
        prop_assert_eq!(shared(&merge(a, a).unwrap().0), shared(a));
        prop_assert_eq!(shared(&merge(&ab, b).unwrap().0), shared(&ab));
        prop_assert_eq!(shared(&ab), shared(&merge(b, a).unwrap().0));
        let left = merge(&ab, c).unwrap().0;
        let right = merge(a, &merge(b, c).unwrap().0).unwrap().0;
        prop_assert_eq!(shared(&left), shared(&right));
        // Nothing anyone recorded is lost.
        let all: BTreeSet<EventUid> = r.iter().flat_map(|x| x.recorded.clone()).collect();
        prop_assert!(all.is_subset(&ids(&left)));
    }

    /// Any schedule of recording and partial exchanges, then everyone merging everyone's copy
    /// in a random order: all copies end identical, with every event kept.
    #[test]
    fn any_exchange_schedule_converges_with_every_event_kept(
        schedule in steps(3, 12),
        order in prop::collection::vec((0usize..3, 0usize..3), 0..6),
    ) {
        let mut replicas = diverged(&schedule, 3);
        for (to, from) in order {
            if to != from {
                let other = replicas[from].clone();
                replicas[to].merge_from(&other);
            }
        }
        // A final round: each merges the others' copies (in two passes, so everyone has all).
        for _ in 0..2 {
            for to in 0..3 {
                for from in 0..3 {
                    if to != from {
                        let other = replicas[from].clone();
                        replicas[to].merge_from(&other);
                    }
                }
            }
        }
        let all: BTreeSet<EventUid> = replicas.iter().flat_map(|x| x.recorded.clone()).collect();
        for r in &replicas {
            prop_assert_eq!(shared(&r.record), shared(&replicas[0].record));
            prop_assert_eq!(ids(&r.record), all.clone());
        }
    }
}

#[test]
fn two_machines_that_both_roll_the_turn_fork_and_a_choice_settles_it_everywhere() {
    let mut laptop = Replica::new(1);
    let mut desktop = Replica::new(2);
    laptop.play(0, 1, 0, 0);
    desktop.merge_from(&laptop);
    // Both roll the next turn's command dice (and more) after the same event.
    laptop.play(0, 4, 0, 0);
    desktop.play(0, 3, 0, 0);
    laptop.merge_from(&desktop);
    let fork = laptop.record.open_fork(0).expect("a fork");
    assert_eq!(fork.branches.len(), 2);
    assert_eq!(fork.after_seq, 1);
    let lengths: BTreeSet<usize> = fork.branches.iter().map(|b| b.events.len()).collect();
    assert_eq!(lengths, BTreeSet::from([3, 4]));
    assert!(
        fork.branches
            .iter()
            .any(|b| b.recorded_by() == "player 2 on machine 2")
    );
    // Recording waits for the choice.
    assert!(matches!(
        laptop.record.next_position(0),
        Err(crate::campaign::CampaignError::Forked { .. })
    ));
    let state_before = laptop.record.state(0).unwrap();
    assert_eq!(state_before.turn, 1);
    // The desktop's branch is kept; the laptop's is set aside, not lost.
    let keep = fork
        .branches
        .iter()
        .find(|b| b.events[0].by.machine == "machine 2")
        .unwrap()
        .first;
    laptop.choose(0, keep);
    assert!(laptop.record.open_fork(0).is_none());
    assert_eq!(laptop.record.logs[0].len(), 4);
    assert_eq!(laptop.record.set_aside(0).len(), 4);
    // The choice merges: the desktop sees the same battle.
    desktop.merge_from(&laptop);
    assert_eq!(shared(&desktop.record), shared(&laptop.record));
    // Restoring the set-aside branch is another choice.
    let other = laptop.record.forks(0)[0]
        .branches
        .iter()
        .find(|b| b.first != keep)
        .unwrap()
        .first;
    desktop.choose(0, other);
    assert_eq!(desktop.record.logs[0].len(), 5);
    laptop.merge_from(&desktop);
    assert_eq!(shared(&desktop.record), shared(&laptop.record));
}

#[test]
fn a_copy_of_another_campaign_or_an_edited_event_is_refused() {
    let mut a = Replica::new(1);
    a.play(0, 3, 0, 0);
    let other = CampaignRecord::new(
        CampaignUid(Uuid::from_u128(99)),
        new_lorraine("Other", Sides::default(), LorraineOptions::default()).unwrap(),
    );
    assert!(matches!(
        merge(&a.record, &other),
        Err(crate::campaign::CampaignError::Merge(_))
    ));
    let mut edited = a.record.clone();
    edited.logs[0][1].recorded_at = "2000-01-01T00:00:00Z".into();
    assert!(matches!(
        merge(&a.record, &edited),
        Err(crate::campaign::CampaignError::Merge(_))
    ));
    // An event that does not replay is refused, naming it.
    let mut b = Replica::new(2);
    b.play(0, 3, 0, 0);
    if let Event::Armour(ab::Event::CommandRolled(c)) = &mut b.record.logs[0][0].event {
        c.turn = 7;
    }
    assert!(matches!(
        merge(&base(), &b.record),
        Err(crate::campaign::CampaignError::Forged { .. })
    ));
}

/// A copy whose app roll carries a seed its place does not give — genuine dice, replaying
/// from their seed, only a seed somebody chose — is refused on merge, naming the seed.
#[test]
fn an_event_whose_seed_is_not_the_derived_one_is_refused_on_merge() {
    use crate::rules::armour_battles::battle::{BattleState, decide};
    use crate::rules::battle::DiceFrom;
    let mut b = Replica::new(2);
    b.play(0, 1, 0, 0);
    let BattlePlan::Armour(plan) = b.record.campaign.battles[0].clone() else {
        unreachable!()
    };
    let chosen = decide::roll_command(
        &plan,
        &BattleState::start(&plan),
        &mut crate::rules::dice::Roller::new(1234),
        DiceFrom::Battle,
    )
    .unwrap();
    b.record.logs[0][0].event = Event::Armour(chosen);
    match merge(&base(), &b.record) {
        Err(crate::campaign::CampaignError::Forged { field, .. }) => assert_eq!(field, "seed"),
        other => panic!("{other:?}"),
    }
}
