//! Merging is idempotent, commutative and associative, any exchange schedule converges, and no
//! damaged copy, reused id or forged signature changes that: property tests over random
//! histories (replicas recording signed, scripted play, notes and branch choices into two
//! battles), random damage to the copies exchanged and random orders of exchange — joins (all
//! copies merged into an empty one) included.

use std::collections::BTreeSet;

use proptest::prelude::*;
use uuid::Uuid;

use super::{MAX_NOTE_CHARS, merge};
use crate::campaign::genesis::Genesis;
use crate::campaign::membership::Admission;
use crate::campaign::seal::{self, MachineKey, Seal, SignatureBytes};
use crate::campaign::{
    CampaignRecord, CampaignUid, Event, EventUid, LoggedEvent, LorraineOptions, Position, Recorder,
    Sides, new_lorraine,
};

/// The campaign every replica holds: begun (its genesis signed) by machine 1.
fn base() -> CampaignRecord {
    CampaignRecord::begun(Genesis::new(
        &MachineKey::from_secret([1; 32]),
        new_lorraine("Merge test", Sides::default(), LorraineOptions::default()).unwrap(),
        Recorder {
            player: "player 1".into(),
            machine: "machine 1".into(),
        },
        "2026-11-25T09:00:00.000Z".into(),
        [0; 16],
    ))
}

/// One machine's copy, recording signed events with its own key and clock.
#[derive(Clone)]
struct Replica {
    record: CampaignRecord,
    machine: u64,
    key: MachineKey,
    counter: u64,
    /// Every event this replica recorded itself.
    recorded: BTreeSet<EventUid>,
}

impl Replica {
    fn new(machine: u64) -> Self {
        Self {
            record: base(),
            machine,
            key: MachineKey::from_secret([u8::try_from(machine).unwrap(); 32]),
            counter: 0,
            recorded: BTreeSet::new(),
        }
    }

    fn stamp(&mut self) -> (String, Recorder) {
        self.counter += 1;
        // Times that interleave between machines, as real clocks would.
        let at = format!(
            "2026-11-25T10:{:02}:{:02}.{:03}Z",
            self.counter / 60 % 60,
            self.counter % 60,
            self.machine
        );
        (at, self.recorder())
    }

    fn recorder(&self) -> Recorder {
        Recorder {
            player: format!("player {}", self.machine),
            machine: format!("machine {}", self.machine),
        }
    }

    fn seal_at(&mut self, index: usize, at: Position, event: Event) -> EventUid {
        let (time, by) = self.stamp();
        let key = self.key.clone();
        let logged = self
            .record
            .record_sealed(index, at, &key, time, by, event)
            .unwrap();
        self.recorded.insert(logged.id);
        logged.id
    }

    /// Records `n` events in battle `index`: scripted play (a note every `note_every`), and a
    /// branch choice first if the battle waits on one (`pick` says which branch). The dice
    /// come from each event's place and this machine, as the app rolls them.
    fn play(&mut self, index: usize, n: usize, pick: usize, note_every: usize) {
        if let Some(fork) = self.record.open_fork(index) {
            let keep = fork.branches[pick % fork.branches.len()].first;
            self.choose(index, keep);
        }
        assert!(self.record.campaign.battles[index].board_setup().is_some());
        for k in 0..n {
            let event = if note_every > 0 && k % note_every == 0 {
                Some(Event::Note {
                    text: format!("note {k} from {}", self.machine),
                })
            } else {
                self.record.scripted(index, &self.recorder()).unwrap()
            };
            let Some(event) = event else { break };
            let at = self.record.next_position(index).unwrap();
            self.seal_at(index, at, event);
        }
    }

    /// Records the choice keeping the branch that starts with `keep` in battle `index`.
    fn choose(&mut self, index: usize, keep: EventUid) {
        let (at, event) = self.record.choice(index, keep).unwrap();
        self.seal_at(index, at, event);
    }

    /// Adds the "What next?" battle (battle 4) with its setup as its first event, as a library
    /// does; returns the setup's id.
    fn add_what_next(&mut self, extra_artillery: bool) -> EventUid {
        let plan = self
            .record
            .follow_up(extra_artillery.then_some("extra_artillery"))
            .unwrap();
        self.record.campaign.battles.push(plan.clone().into());
        self.record.logs.push(Vec::new());
        self.record.aside.push(Vec::new());
        let battles = self.record.logs.len();
        self.record.withheld.resize(battles, Vec::new());
        self.seal_at(
            3,
            Position {
                follows: None,
                seq: 1,
            },
            Event::BattleAdded { plan },
        )
    }

    fn merge_from(&mut self, other: &CampaignRecord) {
        self.record = merge(&self.record, other).unwrap().0;
    }
}

/// What every copy must agree on: id, battles, each battle's events laid out (in play and
/// not) and the admissions.
fn shared(r: &CampaignRecord) -> (CampaignUid, String) {
    (
        r.id,
        serde_json::to_string(&(
            &r.campaign.battles,
            &r.logs,
            &r.aside,
            &r.withheld,
            &r.admissions,
        ))
        .unwrap(),
    )
}

fn ids(r: &CampaignRecord) -> BTreeSet<EventUid> {
    (0..r.campaign.battles.len())
        .flat_map(|i| r.all_events(i).map(|e| e.id).collect::<Vec<_>>())
        .collect()
}

/// A step of a random history: (replica, action, battle, count, pick, spoil): `spoil` says
/// whether a merge takes a spoiled copy (when the damage list has one left).
type Step = (usize, u8, usize, usize, usize, bool);

fn steps(replicas: usize, max: usize) -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec(
        (
            0..replicas,
            0u8..3,
            0usize..2,
            1usize..5,
            0usize..3,
            any::<bool>(),
        ),
        1..max,
    )
}

/// How a copy is spoiled on its way: (kind, which event, detail).
type Damage = (u8, usize, u8);

/// A copy of `record` with one event spoiled as `damage` says: a digit of its time changed
/// (damage on the way), a note's text edited under its id, its signature bytes spoiled, the
/// event changed and signed by an intruder in the genuine signer's name (a forged signature),
/// or an event of another content given its id (an id reused). A forged recorder — an
/// intruder's own key signing under another player's names — is kept out of play by
/// membership (`a_forged_recorder_is_kept_out_of_play_and_never_shown_as_the_player`).
fn spoiled(record: &CampaignRecord, damage: Damage) -> CampaignRecord {
    let (kind, which, detail) = damage;
    let mut copy = record.clone();
    let places: Vec<(usize, bool, usize)> = (0..copy.logs.len())
        .flat_map(|b| {
            let line = (0..copy.logs[b].len()).map(move |i| (b, true, i));
            let aside = (0..copy.aside[b].len()).map(move |i| (b, false, i));
            line.chain(aside).collect::<Vec<_>>()
        })
        .collect();
    if places.is_empty() {
        return copy;
    }
    let (b, on_line, i) = places[which % places.len()];
    let campaign = copy.id;
    let number = copy.battle_number(b);
    let e = if on_line {
        &mut copy.logs[b][i]
    } else {
        &mut copy.aside[b][i]
    };
    match kind % 5 {
        0 => {
            let digit = char::from(b'0' + detail % 10);
            e.recorded_at.replace_range(18..19, &digit.to_string());
            if seal::check(campaign, number, e).is_ok() {
                e.recorded_at.replace_range(17..18, "5");
            }
        }
        1 => {
            e.event = Event::Note {
                text: format!("edited {detail}"),
            }
        }
        2 => {
            if let Some(s) = &mut e.seal {
                s.sig = SignatureBytes([detail; 64]);
            }
        }
        3 => {
            // Re-signed by an intruder, naming the genuine signer's key.
            let genuine = e.seal.map(|s| s.key);
            let intruder = MachineKey::from_secret([200u8.wrapping_add(detail % 50); 32]);
            e.event = Event::Note {
                text: "the other side concedes".into(),
            };
            seal::seal(&intruder, campaign, number, e);
            if let (Some(s), Some(key)) = (&mut e.seal, genuine) {
                s.key = key;
            }
        }
        _ => {
            let original = e.id;
            e.event = Event::Note {
                text: format!("another event under id {original}"),
            };
            e.seal = Some(Seal {
                key: e
                    .seal
                    .map_or(MachineKey::from_secret([1; 32]).public(), |s| s.key),
                sig: SignatureBytes([7; 64]),
            });
            e.id = original;
        }
    }
    copy
}

/// Runs a schedule: action 0 or 1 records, 2 merges from the next replica round — a spoiled
/// copy when `damage` has a next entry for it.
fn run(replicas: &mut [Replica], schedule: &[Step], damage: &mut impl Iterator<Item = Damage>) {
    let n = replicas.len();
    for &(r, action, battle, count, pick, spoil) in schedule {
        if action < 2 {
            replicas[r].play(battle, count, pick, 3);
        } else {
            let from = (r + 1 + pick) % n;
            if from != r {
                let copy = match damage.next() {
                    Some(d) if spoil => spoiled(&replicas[from].record, d),
                    _ => replicas[from].record.clone(),
                };
                replicas[r].merge_from(&copy);
            }
        }
    }
}

fn diverged(schedule: &[Step], count: u64, damage: &[Damage]) -> Vec<Replica> {
    let mut replicas: Vec<Replica> = (1..=count).map(Replica::new).collect();
    run(&mut replicas, schedule, &mut damage.iter().copied());
    replicas
}

fn damages() -> impl Strategy<Value = Vec<Damage>> {
    prop::collection::vec((0u8..5, 0usize..200, 0u8..255), 0..6)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]

    /// Idempotent, commutative and associative, on random diverged copies.
    #[test]
    fn merging_is_idempotent_commutative_and_associative(schedule in steps(3, 8)) {
        let r = diverged(&schedule, 3, &[]);
        let (a, b, c) = (&r[0].record, &r[1].record, &r[2].record);
        let ab = merge(a, b).unwrap().0;
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

    /// Any schedule of recording and partial exchanges — some of the copies exchanged damaged,
    /// edited, forged or reusing an id — then everyone merging everyone's genuine copy in a
    /// random order, and a newcomer joining from all copies (damaged ones included) in another:
    /// all copies end identical, with every genuine event and none of the spoiled ones.
    #[test]
    fn any_exchange_schedule_with_damage_and_forgery_converges_with_every_genuine_event(
        schedule in steps(3, 12),
        damage in damages(),
        order in prop::collection::vec((0usize..3, 0usize..3), 0..6),
        join_order in Just(vec![0usize, 1, 2]).prop_shuffle(),
        spoiled_first in prop::bool::ANY,
    ) {
        let mut replicas = diverged(&schedule, 3, &damage);
        let spoils: Vec<CampaignRecord> = damage
            .iter()
            .enumerate()
            .map(|(k, d)| spoiled(&replicas[k % 3].record, *d))
            .collect();
        for (to, from) in order {
            if to != from {
                let other = replicas[from].record.clone();
                replicas[to].merge_from(&other);
            }
        }
        for (k, copy) in spoils.iter().enumerate() {
            replicas[(k + 1) % 3].merge_from(copy);
        }
        // A final round: each merges the others' copies (in two passes, so everyone has all).
        for _ in 0..2 {
            for to in 0..3 {
                for from in 0..3 {
                    if to != from {
                        let other = replicas[from].record.clone();
                        replicas[to].merge_from(&other);
                    }
                }
            }
        }
        // A newcomer joins from every copy, the spoiled ones before or after the genuine.
        let mut copies: Vec<CampaignRecord> = join_order.iter().map(|&i| replicas[i].record.clone()).collect();
        if spoiled_first {
            copies.splice(0..0, spoils.iter().cloned());
        } else {
            copies.extend(spoils.iter().cloned());
        }
        let mut newcomer = CampaignRecord::new(base().id, base().campaign);
        for copy in &copies {
            newcomer = merge(&newcomer, copy).unwrap().0;
        }
        let all: BTreeSet<EventUid> = replicas.iter().flat_map(|x| x.recorded.clone()).collect();
        for r in &replicas {
            prop_assert_eq!(shared(&r.record), shared(&replicas[0].record));
            prop_assert_eq!(ids(&r.record), all.clone());
        }
        prop_assert_eq!(shared(&newcomer), shared(&replicas[0].record));
    }
}

#[test]
fn two_machines_that_both_roll_the_turn_fork_and_a_choice_settles_it_everywhere() {
    let mut laptop = Replica::new(1);
    let mut desktop = Replica::new(2);
    laptop.play(0, 1, 0, 0);
    desktop.merge_from(&laptop.record);
    // Both roll the next turn's command dice (and more) after the same event.
    laptop.play(0, 4, 0, 0);
    desktop.play(0, 3, 0, 0);
    laptop.merge_from(&desktop.record);
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
    desktop.merge_from(&laptop.record);
    assert_eq!(shared(&desktop.record), shared(&laptop.record));
}

#[test]
fn a_copy_of_another_campaign_is_refused_and_a_spoiled_event_is_refused_alone() {
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
    // b holds a's three events and two of its own; a gets them with a's second event's time
    // damaged: that copy is refused alone, b's own events (which follow the genuine one, held)
    // come in.
    let mut b = Replica::new(2);
    b.merge_from(&a.record);
    b.play(0, 2, 0, 0);
    let mut damaged = b.record.clone();
    damaged.logs[0][1].recorded_at.replace_range(18..19, "7");
    let (merged, report) = merge(&a.record, &damaged).unwrap();
    assert_eq!(report.added, 2, "{report:?}");
    assert_eq!(report.refused.len(), 1, "{report:?}");
    assert!(
        report.refused[0].reason.contains("does not match its id"),
        "{}",
        report.refused[0].reason
    );
    assert_eq!(ids(&merged), ids(&b.record));
    // An event whose dice do not replay is refused with what follows it; the rest merges.
    let mut c = Replica::new(3);
    c.play(0, 3, 0, 0);
    c.play(1, 2, 0, 0);
    let mut forged = c.record.clone();
    if let Event::Act(act) = &mut forged.logs[0][0].event {
        act.effects
            .insert(0, crate::rules::battle::board::Effect::NextTurn);
    }
    let key = c.key.clone();
    let number = forged.battle_number(0);
    seal::seal(&key, forged.id, number, &mut forged.logs[0][0]);
    let (merged, report) = merge(&base(), &forged).unwrap();
    assert_eq!(report.added, 2, "battle 2 merges: {report:?}");
    assert!(merged.logs[0].is_empty());
    assert!(
        report
            .refused
            .iter()
            .any(|r| r.reason.contains("the dice and the rules give")),
        "{report:?}"
    );
}

#[test]
fn a_forged_recorder_is_kept_out_of_play_and_never_shown_as_the_player() {
    let mut ann = Replica::new(1);
    ann.play(0, 2, 0, 0);
    // Ann's library (the campaign's root) admitted her names when she first recorded.
    let (time, names) = ann.stamp();
    let own = Admission::new(
        &ann.key,
        ann.record.id,
        time,
        names.clone(),
        ann.key.public(),
        names,
        Vec::new(),
    );
    ann.record.add_admissions([own]).unwrap();
    let mut eve = Replica::new(9);
    eve.merge_from(&ann.record);
    // Eve records "the first player concedes" under Ann's names, signed with her own key.
    let at = eve.record.next_position(0).unwrap();
    let (time, _) = eve.stamp();
    let key = eve.key.clone();
    let as_ann = Recorder {
        player: "player 1".into(),
        machine: "machine 1".into(),
    };
    let concession = Event::BattleConcluded {
        winner: Some(crate::rules::battle::Side::Second),
        notes: "the first player concedes".into(),
    };
    eve.record
        .record_sealed(0, at, &key, time, as_ann, concession)
        .unwrap();
    // Taken (every machine takes a validly signed event alike), but not in play: the battle is
    // Ann's as it was, and the concession is shown under Eve's key, never as Ann's.
    let (merged, report) = merge(&ann.record, &eve.record).unwrap();
    assert_eq!(report.added, 1);
    assert_eq!(merged.logs, ann.record.logs);
    assert!(merged.aside[0].is_empty());
    let forged = &merged.withheld_of(0)[0];
    let shown = merged.recorded_by(forged);
    assert!(
        shown.contains(&eve.key.public().fingerprint()) && shown.contains("not admitted"),
        "{shown}"
    );
    let claims = merged.membership().claims_on_held_names();
    assert_eq!(claims.len(), 1);
    assert!(claims[0].describe("Lorraine").contains("which key"));
    assert!(
        merged.membership().conflicts().is_empty(),
        "nothing to settle"
    );
    // Ann's own events are never refused nor set aside for it.
    assert_eq!(merged.logs[0].len(), 2);
}

#[test]
fn an_unsigned_event_after_a_signed_one_is_refused_and_limits_hold() {
    let mut ann = Replica::new(1);
    ann.play(0, 2, 0, 0);
    let mut copy = ann.record.clone();
    copy.append(
        0,
        EventUid(Uuid::from_u128(5)),
        "2026-11-25T11:00:00.000Z".into(),
        Recorder {
            player: "player 1".into(),
            machine: "machine 1".into(),
        },
        Event::Note {
            text: "unsigned".into(),
        },
    )
    .unwrap();
    let (_, report) = merge(&ann.record, &copy).unwrap();
    assert!(
        report.refused[0].reason.contains("not signed"),
        "{report:?}"
    );
    // A note longer than a note may be, and a time in year 9999.
    let mut long = ann.clone();
    let at = long.record.next_position(0).unwrap();
    long.seal_at(
        0,
        at,
        Event::Note {
            text: "x".repeat(MAX_NOTE_CHARS + 1),
        },
    );
    let (_, report) = merge(&ann.record, &long.record).unwrap();
    assert!(report.refused[0].reason.contains("at most"), "{report:?}");
    let mut late = ann.clone();
    let at = late.record.next_position(0).unwrap();
    let key = late.key.clone();
    let by = Recorder {
        player: "player 1".into(),
        machine: "machine 1".into(),
    };
    late.record
        .record_sealed(
            0,
            at,
            &key,
            "9999-01-01T00:00:00.000Z".into(),
            by,
            Event::Note {
                text: "late".into(),
            },
        )
        .unwrap();
    let (_, report) = merge(&ann.record, &late.record).unwrap();
    assert!(
        report.refused[0].reason.contains("recorded_at"),
        "{report:?}"
    );
}

#[test]
fn two_different_what_next_setups_fork_the_new_battle_and_battle_1_keeps_syncing() {
    let mut ann = Replica::new(1);
    let mut bob = Replica::new(2);
    ann.play(0, 2, 0, 0);
    bob.merge_from(&ann.record);
    // Both add battle 4 before syncing, Bob with the extra artillery.
    for (replica, extra) in [(&mut ann, false), (&mut bob, true)] {
        replica.add_what_next(extra);
    }
    bob.play(0, 2, 0, 0);
    ann.merge_from(&bob.record);
    bob.merge_from(&ann.record);
    assert_eq!(shared(&ann.record), shared(&bob.record));
    let fork = ann
        .record
        .open_fork(3)
        .expect("battle 4 forked at its start");
    assert_eq!((fork.after_seq, fork.branches.len()), (0, 2));
    // Battle 1 synced on: Bob's two events are Ann's too.
    assert_eq!(ann.record.logs[0].len(), 4);
    // Ann keeps Bob's setup: battle 4 is played with the extra artillery, everywhere.
    let bobs = fork
        .branches
        .iter()
        .find(|b| b.events[0].by.machine == "machine 2")
        .unwrap()
        .first;
    ann.choose(3, bobs);
    bob.merge_from(&ann.record);
    for r in [&ann, &bob] {
        assert!(r.record.open_fork(3).is_none());
        assert_eq!(
            r.record.campaign.battles[3].name(),
            "What Next? (extra artillery)"
        );
    }
    ann.play(3, 3, 0, 0);
    bob.merge_from(&ann.record);
    assert_eq!(shared(&ann.record), shared(&bob.record));
}

/// A copy whose app roll carries a seed its place does not give — genuine dice, replaying
/// from their seed, only a seed somebody chose — is refused on merge, naming the seed.
#[test]
fn an_event_whose_seed_is_not_the_derived_one_is_refused_on_merge() {
    use crate::rules::battle::table::AnyTable;
    use crate::rules::battle::{BattleRules, Dice, Request};
    let mut b = Replica::new(2);
    b.play(0, 1, 0, 0);
    let setup = b.record.campaign.battles[0].board_setup().unwrap();
    let board = crate::campaign::fold::start(&setup, &Sides::default());
    let request = Request::new("roll_command");
    let chosen = AnyTable::decide(&setup.plan, &board, &request, &Dice::Seed(1234))
        .unwrap()
        .event;
    b.record.logs[0][0].event = Event::Act(chosen);
    // Signed again by its own machine, so only the seed is wrong.
    let (key, id, number) = (b.key.clone(), b.record.id, b.record.battle_number(0));
    seal::seal(&key, id, number, &mut b.record.logs[0][0]);
    let (merged, report) = merge(&base(), &b.record).unwrap();
    assert!(merged.logs[0].is_empty(), "{report:?}");
    assert!(
        report.refused.iter().any(|r| r.reason.contains("seed")),
        "{report:?}"
    );
}

/// Ann and Bob, each having written a note after battle 1's first event without seeing the
/// other's; Ann has merged Bob's copy (her battle 1 is forked), Bob has not merged Ann's.
fn forked_after_the_first_event() -> (Replica, Replica) {
    let mut ann = Replica::new(1);
    ann.play(0, 1, 0, 0);
    let mut bob = Replica::new(2);
    bob.merge_from(&ann.record);
    ann.play(0, 1, 0, 1);
    bob.play(0, 1, 0, 1);
    ann.merge_from(&bob.record);
    (ann, bob)
}

/// An unsigned event with its id, place and content given.
fn unsigned(id: u128, follows: Option<EventUid>, seq: u32, event: Event) -> LoggedEvent {
    LoggedEvent {
        id: EventUid(Uuid::from_u128(id)),
        follows,
        seq,
        recorded_at: "2099-01-01T00:00:00.000Z".into(),
        by: Recorder {
            player: "player 1".into(),
            machine: "machine 1".into(),
        },
        revision: Some(3),
        seal: None,
        event,
    }
}

/// Issue 35, item 1: in a campaign begun signed, an unsigned event is refused wherever it sits
/// — at a battle's start too: "Ann concedes" and a choice dated 2099 keeping it — and two
/// unsigned versions of one id, in either order, change nothing anywhere.
#[test]
fn an_unsigned_event_is_refused_wherever_it_sits_in_a_campaign_begun_signed() {
    let mut ann = Replica::new(1);
    ann.play(0, 2, 0, 0);
    let concede = |notes: &str| {
        unsigned(
            77,
            None,
            1,
            Event::BattleConcluded {
                winner: Some(crate::rules::armour_battles::Side::Second),
                notes: notes.into(),
            },
        )
    };
    let first = ann.record.logs[0][0].id;
    let choose = unsigned(
        78,
        None,
        1,
        Event::BranchChosen {
            keep: EventUid(Uuid::from_u128(77)),
            replaces: None,
            set_aside: vec![first],
        },
    );
    let after = unsigned(79, Some(first), 2, Event::Note { text: "x".into() });
    let one = vec![concede("Ann concedes"), choose.clone(), after.clone()];
    let two = vec![after, choose, concede("Ann concedes, truly")];
    let mut results = Vec::new();
    for incoming in [one, two] {
        let incoming: Vec<(usize, LoggedEvent)> = incoming.into_iter().map(|e| (0, e)).collect();
        let (merged, report) = super::merge_events(&ann.record, &[], incoming).unwrap();
        assert_eq!(report.added, 0, "{report:?}");
        assert_eq!(report.refused.len(), 3);
        assert!(
            report
                .refused
                .iter()
                .all(|r| r.reason.contains("not signed")),
            "{report:?}"
        );
        assert_eq!(shared(&merged), shared(&ann.record));
        results.push(shared(&merged));
    }
    assert_eq!(results[0], results[1]);
}

/// Issue 35, item 4: an event hung after a genuine branch choice is refused, never the choice,
/// whatever order the two arrive in (together, or the child first and the choice later).
#[test]
fn an_event_hung_after_a_choice_is_refused_and_the_choice_taken_in_any_order() {
    let (mut ann, bob) = forked_after_the_first_event();
    let keep = ann.record.open_fork(0).expect("forked").branches[0].first;
    ann.choose(0, keep);
    let choice = ann.record.aside[0]
        .iter()
        .find(|e| e.event.is_meta_choice())
        .unwrap()
        .clone();
    let eve = Replica::new(9);
    let mut child = LoggedEvent {
        id: EventUid(Uuid::nil()),
        follows: Some(choice.id),
        seq: choice.seq + 1,
        recorded_at: choice.recorded_at.clone(),
        by: eve.recorder(),
        revision: choice.revision,
        seal: None,
        event: Event::Note {
            text: "hung on the choice".into(),
        },
    };
    seal::seal(&eve.key, ann.record.id, 1, &mut child);
    let settled = |r: &CampaignRecord| r.open_fork(0).is_none() && !ids(r).contains(&child.id);
    // Together, both orders.
    for incoming in [
        vec![(0, choice.clone()), (0, child.clone())],
        vec![(0, child.clone()), (0, choice.clone())],
    ] {
        let (merged, report) = super::merge_events(&bob.record, &[], incoming).unwrap();
        assert!(settled(&merged), "{report:?}");
        let why = &report
            .refused
            .iter()
            .find(|r| r.id == child.id)
            .unwrap()
            .reason;
        assert!(why.contains("follows a branch choice"), "{why}");
    }
    // The child first: it waits; then the choice comes and the child is refused.
    let (waiting, report) =
        super::merge_events(&bob.record, &[], vec![(0, child.clone())]).unwrap();
    assert!(report.refused[0].waiting);
    let (with_choice, _) = super::merge_events(&waiting, &[], vec![(0, choice.clone())]).unwrap();
    let (again, report) = super::merge_events(&with_choice, &[], vec![(0, child.clone())]).unwrap();
    assert!(settled(&again) && !report.refused[0].waiting, "{report:?}");
}

/// A choice that arrives before the branch it keeps waits for it, then settles the fork: the
/// same record as when the two come together.
#[test]
fn a_choice_before_its_branch_waits_for_it() {
    let mut ann = Replica::new(1);
    ann.play(0, 1, 0, 0);
    let mut bob = Replica::new(2);
    bob.merge_from(&ann.record);
    let mut cat = bob.clone();
    ann.play(0, 1, 0, 1);
    bob.play(0, 1, 0, 1);
    ann.merge_from(&bob.record);
    let keep = ann
        .record
        .open_fork(0)
        .unwrap()
        .branches
        .iter()
        .find(|b| b.events[0].by.player == "player 1")
        .unwrap()
        .first;
    ann.choose(0, keep);
    // Cat holds Bob's branch only; Ann's choice keeps Ann's branch, not yet at Cat's.
    let choice = ann.record.aside[0]
        .iter()
        .find(|e| e.event.is_meta_choice())
        .unwrap()
        .clone();
    cat.merge_from(&bob.record);
    let kept = ann
        .record
        .all_events(0)
        .find(|e| e.id == keep)
        .unwrap()
        .clone();
    assert!(!ids(&cat.record).contains(&keep));
    let (early, report) = super::merge_events(&cat.record, &[], vec![(0, choice.clone())]).unwrap();
    assert!(report.refused[0].waiting, "{report:?}");
    let (late, _) =
        super::merge_events(&early, &[], vec![(0, kept.clone()), (0, choice.clone())]).unwrap();
    let (together, _) =
        super::merge_events(&cat.record, &[], vec![(0, choice), (0, kept)]).unwrap();
    assert_eq!(shared(&late), shared(&together));
    assert!(late.open_fork(0).is_none());
}

/// Issue 35, item 13: two players choosing at one fork without seeing each other's choice are
/// a disagreement shown to both, in any order and whatever their clocks say — never decided by
/// recording time; the next choice, made seeing both, settles it everywhere.
#[test]
fn two_choices_that_disagree_keep_the_fork_open_until_a_player_chooses_again() {
    let (mut ann, mut bob) = forked_after_the_first_event();
    bob.merge_from(&ann.record);
    let fork = ann.record.open_fork(0).unwrap();
    let (first, second) = (fork.branches[0].first, fork.branches[1].first);
    ann.choose(0, first);
    // Bob's clock is hours ahead: his choice would have won by recording time.
    bob.counter += 10_000;
    bob.choose(0, second);
    let mut a = ann.clone();
    a.merge_from(&bob.record);
    let mut b = bob.clone();
    b.merge_from(&ann.record);
    assert_eq!(shared(&a.record), shared(&b.record));
    let fork = a
        .record
        .open_fork(0)
        .expect("the disagreement keeps the fork open");
    assert_eq!(fork.disagreement.len(), 2);
    let said = fork.describe(1, &|e| e.by.label());
    assert!(said.contains("choices disagree"), "{said}");
    assert!(said.contains("player 1 on machine 1 kept"), "{said}");
    // Ann, seeing Bob's choice, chooses his branch: settled on every machine.
    a.choose(0, second);
    b.merge_from(&a.record);
    for r in [&a.record, &b.record] {
        assert!(r.open_fork(0).is_none());
        assert_eq!(r.forks(0)[0].kept, Some(second));
    }
}

/// A fork is described in a sentence a player can act on: versions counted by who recorded
/// them, never "X or X or X must choose".
#[test]
fn a_three_way_fork_reads_as_a_sentence() {
    let mut eve = Replica::new(1);
    eve.play(0, 1, 0, 0);
    let at = eve.record.next_position(0).unwrap();
    for text in ["one", "two", "three"] {
        eve.seal_at(0, at, Event::Note { text: text.into() });
    }
    let fork = eve.record.open_fork(0).unwrap();
    let said = fork.describe(1, &|e| e.by.label());
    assert_eq!(
        said,
        "battle 1 is forked after event 1 into 3 versions (player 1 on machine 1 recorded 3): one of the players chooses which goes on"
    );
}

/// Issue 35, item 8: two machines setting up the very same new battle make no fork; two
/// different setups still do.
#[test]
fn two_identical_setups_of_a_battle_are_no_fork() {
    let mut ann = Replica::new(1);
    let mut bob = Replica::new(2);
    for replica in [&mut ann, &mut bob] {
        replica.add_what_next(false);
    }
    ann.merge_from(&bob.record);
    bob.merge_from(&ann.record);
    assert_eq!(shared(&ann.record), shared(&bob.record));
    assert!(ann.record.open_fork(3).is_none());
    assert!(ann.record.forks(3).is_empty());
    // Ann plays on from the setup her line has; Bob takes it without a fork.
    ann.play(3, 2, 0, 0);
    bob.merge_from(&ann.record);
    assert!(bob.record.open_fork(3).is_none());
    assert_eq!(shared(&ann.record), shared(&bob.record));
}

/// Issue 35, item 7: the rules go forward from a battle's setup too: the first event after a
/// setup recorded under revision 3 may not claim revision 1, nor none.
#[test]
fn the_revision_floor_holds_right_after_a_setup() {
    let mut ann = Replica::new(1);
    let setup = ann.add_what_next(false);
    let bob = {
        let mut bob = Replica::new(2);
        bob.merge_from(&ann.record);
        bob
    };
    for revision in [Some(1), None] {
        let mut old = ann.clone();
        let (time, by) = old.stamp();
        let event = old.record.scripted(3, &by).unwrap().unwrap();
        let mut logged = crate::campaign::history::logged(
            Position {
                follows: Some(setup),
                seq: 2,
            },
            EventUid(Uuid::nil()),
            time,
            by,
            event,
        );
        logged.revision = revision;
        seal::seal(&old.key, old.record.id, 4, &mut logged);
        let (_, report) = super::merge_events(&bob.record, &[], vec![(3, logged)]).unwrap();
        assert_eq!(report.added, 0, "{revision:?}: {report:?}");
        assert!(
            report.refused[0].reason.contains("revision"),
            "{revision:?}: {report:?}"
        );
    }
}

/// A record kept up to date event by event and admission by admission (as the window keeps
/// the campaign on screen) lays out again only the battles whose events' standing changed,
/// and ends as the record built whole from the same events and admissions.
#[test]
fn taking_events_and_admissions_one_by_one_lays_out_as_building_the_record_whole() {
    let mut ann = Replica::new(1);
    ann.play(0, 2, 0, 0);
    ann.play(1, 2, 0, 0);
    let mut eve = Replica::new(9);
    eve.merge_from(&ann.record);
    eve.play(1, 1, 0, 1);
    let key = eve.key.clone();
    let at = eve.record.next_position(0).unwrap();
    let (time, own) = eve.stamp();
    let under_ann = eve
        .record
        .record_sealed(
            0,
            at,
            &key,
            time,
            ann.recorder(),
            Event::Note {
                text: "under Ann's names".into(),
            },
        )
        .unwrap();
    let mut kept = ann.record.clone();
    let before = kept.membership().clone();
    for index in 0..2 {
        for e in eve.record.all_events(index) {
            if !ann.record.all_events(index).any(|a| a.id == e.id) {
                kept.add(index, e.clone()).unwrap();
            }
        }
    }
    assert!(kept.all_events(0).any(|e| e.id == under_ann.id));
    // Ann, the root, admits Eve's key under Eve's own names.
    let (time, names) = ann.stamp();
    let admit = Admission::new(
        &ann.key,
        ann.record.id,
        time,
        names,
        eve.key.public(),
        own,
        Vec::new(),
    );
    kept.add_admissions([admit]).unwrap();
    let whole = CampaignRecord::from_parts(
        kept.id,
        kept.genesis.clone(),
        base().campaign,
        (0..kept.logs.len())
            .map(|i| kept.all_events(i).cloned().collect())
            .collect(),
        kept.admissions.clone(),
    )
    .unwrap();
    assert_eq!(kept.membership(), whole.membership());
    assert_eq!(kept.logs, whole.logs);
    assert_eq!(kept.aside, whole.aside);
    assert_eq!(kept.withheld, whole.withheld);
    assert!(!kept.battles_moved_since(&before).is_empty());
}
