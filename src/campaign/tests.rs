use super::definition::{SIDES, opponent};
use super::event::{ChainUse, Event, WildUse};
use super::state::{Phase, UnitStatus};
use super::*;
use crate::rules::armour_battles::fire::{FireSituation, MoveOrder, RangeBand};
use crate::rules::armour_battles::rally::RallySituation;
use crate::rules::armour_battles::{Deployment, FirstPulse, Side};
use crate::rules::dice::Roller;

fn players() -> Sides<String> {
    Sides {
        us: "Alice".to_string(),
        german: "Bruno".to_string(),
    }
}

fn test_campaign_uid() -> CampaignUid {
    CampaignUid(uuid::Uuid::from_u128(
        0x0192_f1d2_3c4b_7a00_8123_4567_89ab_cdef,
    ))
}

fn lorraine() -> CampaignRecord {
    CampaignRecord::new(
        test_campaign_uid(),
        new_lorraine("Lezey", players(), LorraineOptions::default()).unwrap(),
    )
}

/// Appends events to one battle as the store would (seq 1, 2, 3 …).
struct Table {
    record: CampaignRecord,
    index: usize,
}

impl Table {
    fn new(record: CampaignRecord, index: usize) -> Self {
        Self { record, index }
    }

    fn plan(&self) -> &ArmourBattlePlan {
        match &self.record.campaign.battles[self.index] {
            BattlePlan::Armour(plan) => plan,
            BattlePlan::Simple(_) => panic!("not an Armour Battles battle"),
        }
    }

    fn state(&self) -> BattleState {
        self.record.state(self.index).unwrap()
    }

    fn battle(&self) -> Battle<'_> {
        self.record.battle(self.index).unwrap()
    }

    fn record(&mut self, event: Event) {
        let seq = self.record.logs[self.index].len() + 1;
        self.record
            .append_numbered(self.index, format!("2026-11-22T10:00:{seq:02}Z"), event)
            .unwrap();
    }
}

/// Each briefing's numbers, as the book prints them: (id, units, command dice, staff orders,
/// rally dice, artillery response dice, army morale).
type Briefing = (&'static str, usize, u32, u32, u32, Option<u32>, u32);
const BRIEFINGS: [Briefing; 6] = [
    ("lorraine-1-us", 9, 4, 2, 4, None, 9),
    ("lorraine-1-german", 7, 3, 2, 4, None, 7),
    ("lorraine-2-us", 14, 5, 4, 4, Some(4), 12),
    ("lorraine-2-german", 11, 4, 3, 4, Some(4), 10),
    ("lorraine-3-us", 17, 6, 4, 4, Some(4), 15),
    ("lorraine-3-german", 14, 5, 4, 4, Some(4), 12),
];

#[test]
fn the_six_battle_groups_match_the_briefings() {
    let record = lorraine();
    assert_eq!(record.campaign.battles.len(), 3);
    let mut seen = 0;
    for battle in record.battles() {
        let BattlePlan::Armour(plan) = battle.plan else {
            panic!("Lorraine battles are tracked")
        };
        for side in SIDES {
            let p = plan.sides.get(side);
            let (_, units, cd, so, rally, art, morale) = BRIEFINGS
                .iter()
                .find(|b| b.0 == p.battle_group)
                .copied()
                .unwrap();
            assert_eq!(p.units.len(), units, "{}", p.battle_group);
            assert_eq!(p.command_dice, cd, "{}", p.battle_group);
            assert_eq!(p.staff_orders, so, "{}", p.battle_group);
            assert_eq!(p.rally_dice, rally, "{}", p.battle_group);
            assert_eq!(p.artillery_response_dice, art, "{}", p.battle_group);
            assert_eq!(p.army_morale, morale, "{}", p.battle_group);
            seen += 1;
        }
    }
    assert_eq!(seen, 6);
    let names: Vec<&str> = record
        .campaign
        .battles
        .iter()
        .map(BattlePlan::name)
        .collect();
    assert_eq!(
        names,
        ["Meeting Engagement", "Attack/Defend", "Counter-Attack"]
    );
}

#[test]
fn battle_plans_carry_deployment_and_first_pulse() {
    let record = lorraine();
    let plans: Vec<&ArmourBattlePlan> = record
        .campaign
        .battles
        .iter()
        .map(|b| match b {
            BattlePlan::Armour(p) => p,
            BattlePlan::Simple(_) => panic!(),
        })
        .collect();
    assert_eq!(plans[0].first_pulse, FirstPulse::Roll);
    assert_eq!(plans[1].first_pulse, FirstPulse::UsAutomatic);
    assert_eq!(plans[2].first_pulse, FirstPulse::UsAutomatic);
    let tiger = plans[2]
        .units()
        .find(|(_, u)| u.card == "Tiger I")
        .unwrap()
        .1;
    assert_eq!(tiger.deployment, Deployment::Reserve { from_turn: 3 });
    let stugs: Vec<_> = plans[1]
        .units()
        .filter(|(_, u)| u.card == "Sturmgeschütz III")
        .collect();
    assert_eq!(stugs.len(), 3);
    assert!(
        stugs
            .iter()
            .all(|(_, u)| u.deployment == Deployment::Hidden {})
    );
    let state = BattleState::start(plans[1]);
    assert!(
        state
            .units
            .iter()
            .filter(|u| u.card == "Sturmgeschütz III")
            .all(|u| u.status == UnitStatus::Hidden)
    );
}

/// Plays one battle to the end with fixed seeds: every pulse, the side uses its longest
/// chain and its first shooter fires at the enemy's first target at effective range.
fn play_to_the_end(table: &mut Table, seed: u64) -> Vec<BattleState> {
    let mut roller = Roller::new(seed);
    let mut states = vec![table.state()];
    for _ in 0..2_000 {
        let state = table.state();
        let event = match state.phase {
            Phase::Over => break,
            Phase::AwaitingCommandRoll => {
                tracker::roll_command(table.plan(), &state, &mut roller).unwrap()
            }
            Phase::Pulse { side } => {
                let company = state
                    .units_of(side)
                    .find(|u| {
                        matches!(u.status, UnitStatus::Reserve { from_turn } if from_turn <= state.turn)
                    })
                    .map(|u| u.company.clone());
                let shooter = tracker::shooters(&state, side)
                    .into_iter()
                    .find(|u| !u.fire_marker)
                    .map(|u| u.id.clone());
                let target = tracker::targets(&state, opponent(side))
                    .first()
                    .map(|u| u.id.clone());
                let commit = company.and_then(|c| tracker::commit_reserves(&state, side, &c).ok());
                match (commit, shooter, target) {
                    (Some(commit), _, _) => commit,
                    (None, Some(a), Some(t)) => {
                        let situation = FireSituation {
                            range: RangeBand::Effective,
                            ..FireSituation::default()
                        };
                        tracker::fire(&state, &a, &t, situation, &mut roller).unwrap()
                    }
                    _ if !state.side(side).has_chains() => tracker::end_turn(&state).unwrap(),
                    _ => {
                        let chain = state.side(side).chains[0];
                        tracker::use_chain(&state, side, chain.face, chain.dice, ChainUse::Orders)
                            .unwrap()
                    }
                }
            }
        };
        let fired = matches!(event, Event::Fire(_) | Event::ReservesCommitted { .. });
        table.record(event);
        states.push(table.state());
        if fired {
            // The activation used a chain too.
            let state = table.state();
            if let Phase::Pulse { side } = state.phase
                && let Some(chain) = state.side(side).chains.first().copied()
            {
                table.record(
                    tracker::use_chain(&state, side, chain.face, 1, ChainUse::Orders).unwrap(),
                );
                states.push(table.state());
            }
        }
    }
    states
}

#[test]
fn a_scripted_battle_runs_until_a_side_reaches_zero_army_morale() {
    let mut table = Table::new(lorraine(), 0);
    let states = play_to_the_end(&mut table, 1944);
    let end = states.last().unwrap();
    assert_eq!(end.phase, Phase::Over, "the battle did not end");
    let outcome = end.outcome.clone().unwrap();
    let loser = opponent(outcome.winner.unwrap());
    assert_eq!(end.side(loser).army_morale, 0);
    assert!(end.side(outcome.winner.unwrap()).army_morale > 0);
    // Army Morale lost equals the 1D3 rolls recorded for dispersed units.
    for side in SIDES {
        let rolled: u32 = table
            .battle()
            .events
            .iter()
            .filter_map(|e| match &e.event {
                Event::Fire(f) if f.dispersed => {
                    let target = end.unit(&f.target).unwrap();
                    (target.side == side).then(|| {
                        let m = f.morale.as_ref().unwrap();
                        assert!(m.is_genuine());
                        u32::from(m.dice[0])
                    })
                }
                _ => None,
            })
            .sum();
        let start = end.side(side).army_morale_start;
        assert_eq!(end.side(side).army_morale, start.saturating_sub(rolled));
    }
    // The same seed plays the same battle.
    let mut again = Table::new(lorraine(), 0);
    play_to_the_end(&mut again, 1944);
    assert_eq!(again.record.logs[0], table.record.logs[0]);
    // Nothing more can be recorded.
    assert!(matches!(
        tracker::roll_command(table.plan(), end, &mut Roller::new(1)),
        Err(CampaignError::BattleOver(_))
    ));
    let result = &table.record.results()[0];
    assert_eq!(result.standing.winner(), outcome.winner);
    assert!(!result.losses.get(loser).is_empty());
}

#[test]
fn undo_and_redo_restore_the_exact_earlier_states() {
    let mut table = Table::new(lorraine(), 0);
    let states = play_to_the_end(&mut table, 7);
    let n = table.battle().events.len();
    assert_eq!(states.len(), n + 1);
    // Undo ten events, one by one, checking each earlier state.
    for k in 1..=10 {
        let undo = table.battle().undo().unwrap();
        table.record(undo);
        assert_eq!(table.state(), states[n - k], "after {k} undos");
    }
    // Redo five.
    for k in (6..=10).rev() {
        let redo = table.battle().redo().unwrap();
        table.record(redo);
        assert_eq!(
            table.state(),
            states[n - k + 1],
            "redo back to {}",
            n - k + 1
        );
    }
    // A new event ends the redo chain.
    let state = table.state();
    table.record(Event::Note {
        text: "coffee".to_string(),
    });
    assert!(table.battle().redo().is_err());
    assert_eq!(table.state().notes, vec!["coffee".to_string()]);
    assert_eq!(
        BattleState {
            notes: Vec::new(),
            ..table.state()
        },
        state
    );
}

#[test]
fn undo_of_nothing_is_refused() {
    let table = Table::new(lorraine(), 0);
    assert_eq!(table.battle().undo(), Err(CampaignError::NothingTo("undo")));
    assert_eq!(table.battle().redo(), Err(CampaignError::NothingTo("redo")));
}

fn roll_until<F: Fn(&BattleState) -> bool>(table: &mut Table, seed: u64, want: F) {
    for s in seed..seed + 500 {
        let state = table.state();
        let event = tracker::roll_command(table.plan(), &state, &mut Roller::new(s)).unwrap();
        let mut trial = Table::new(table.record.clone(), table.index);
        trial.record(event.clone());
        if want(&trial.state()) {
            table.record(event);
            return;
        }
    }
    panic!("no seed gave the wanted roll");
}

#[test]
fn reserves_wait_for_their_turn_and_a_command_failure_stops_them() {
    let mut table = Table::new(lorraine(), 2);
    roll_until(&mut table, 0, |s| s.phase != Phase::AwaitingCommandRoll);
    let state = table.state();
    assert_eq!(state.turn, 1);
    let err = tracker::commit_reserves(&state, Side::Us, "Armour Company 1").unwrap_err();
    assert!(err.to_string().contains("from turn 2"), "{err}");
    table.record(tracker::end_turn(&state).unwrap());
    roll_until(&mut table, 100, |s| {
        s.phase != Phase::AwaitingCommandRoll && !s.side(Side::German).failed
    });
    let state = table.state();
    assert_eq!(state.turn, 2);
    let err = tracker::commit_reserves(&state, Side::German, "Heavy Tank Platoon").unwrap_err();
    assert!(err.to_string().contains("from turn 3"), "{err}");
    let event = tracker::commit_reserves(&state, Side::German, "Panzer Company 1").unwrap();
    table.record(event);
    assert!(
        table
            .state()
            .units_of(Side::German)
            .filter(|u| u.company == "Panzer Company 1")
            .all(|u| u.status == UnitStatus::OnTable)
    );
    table.record(tracker::end_turn(&table.state()).unwrap());
    roll_until(&mut table, 300, |s| {
        s.phase != Phase::AwaitingCommandRoll && s.side(Side::German).failed
    });
    let err =
        tracker::commit_reserves(&table.state(), Side::German, "Panzer Company 2").unwrap_err();
    assert!(err.to_string().contains("Command Failure"), "{err}");
}

#[test]
fn staff_orders_restock_next_turn_and_never_exceed_the_command_dice() {
    let mut table = Table::new(lorraine(), 0);
    roll_until(&mut table, 0, |s| {
        matches!(s.phase, Phase::Pulse { side: Side::Us })
            && s.side(Side::Us).chains.iter().any(|c| c.dice >= 2)
    });
    let state = table.state();
    let us = state.side(Side::Us);
    assert_eq!(us.staff_orders, 2);
    let chain = *us.chains.iter().find(|c| c.dice >= 2).unwrap();
    table.record(
        tracker::use_chain(
            &state,
            Side::Us,
            chain.face,
            chain.dice,
            ChainUse::RestockStaffOrders,
        )
        .unwrap(),
    );
    let state = table.state();
    let added = (chain.dice - 1).min(4 - 2);
    assert_eq!(state.side(Side::Us).staff_orders, 2, "not usable this turn");
    assert_eq!(state.side(Side::Us).staff_orders_next_turn, added);
    if state.phase != Phase::AwaitingCommandRoll {
        table.record(tracker::end_turn(&state).unwrap());
    }
    roll_until(&mut table, 50, |_| true);
    assert_eq!(table.state().side(Side::Us).staff_orders, 2 + added);
    // Spending: one Staff Order at a time until none is left.
    for _ in 0..(2 + added) {
        let event = tracker::use_staff_order(&table.state(), Side::Us, "+1D").unwrap();
        table.record(event);
    }
    assert!(tracker::use_staff_order(&table.state(), Side::Us, "+1D").is_err());
}

#[test]
fn instant_staff_orders_need_two_wild_dice() {
    let mut table = Table::new(lorraine(), 0);
    roll_until(&mut table, 0, |s| {
        s.phase != Phase::AwaitingCommandRoll && s.side(Side::Us).wild >= 3
    });
    let state = table.state();
    assert!(tracker::use_wild(&state, Side::Us, 1, WildUse::InstantStaffOrders).is_err());
    table.record(tracker::use_wild(&state, Side::Us, 3, WildUse::InstantStaffOrders).unwrap());
    // 2 initial + 2 instant, capped at 4 command dice.
    assert_eq!(table.state().side(Side::Us).staff_orders, 4);
}

#[test]
fn artillery_missions_are_cancelled_by_a_command_failure_unless_maintained() {
    let mut table = Table::new(lorraine(), 1);
    roll_until(&mut table, 0, |s| s.phase != Phase::AwaitingCommandRoll);
    let mut roller = Roller::new(5);
    let mut called = false;
    for seed in 0..200 {
        let state = table.state();
        let event = tracker::call_artillery(&state, "us-13", &mut Roller::new(seed)).unwrap();
        if let Event::ArtilleryCalled(call) = &event
            && !call.fires_now
        {
            table.record(event);
            called = true;
            break;
        }
    }
    assert!(called);
    let state = table.state();
    assert_eq!(state.side(Side::Us).staff_orders, 3);
    assert!(tracker::call_artillery(&state, "us-13", &mut roller).is_err());
    if state.phase != Phase::AwaitingCommandRoll {
        table.record(tracker::end_turn(&state).unwrap());
    }
    roll_until(&mut table, 1000, |s| {
        s.side(Side::Us).failed && !s.is_over()
    });
    let state = table.state();
    assert_eq!(
        state.side(Side::Us).missions[0].status,
        state::MissionStatus::CancelledByFailure
    );
    table.record(tracker::maintain_mission(&state, "us-13").unwrap());
    let state = table.state();
    assert_eq!(
        state.side(Side::Us).missions[0].status,
        state::MissionStatus::Pending
    );
}

#[test]
fn a_hidden_unit_that_fires_is_revealed_and_marked() {
    let mut table = Table::new(lorraine(), 1);
    roll_until(&mut table, 0, |s| s.phase != Phase::AwaitingCommandRoll);
    let state = table.state();
    let stug = state
        .units
        .iter()
        .find(|u| u.card == "Sturmgeschütz III")
        .unwrap()
        .id
        .clone();
    let m5 = state
        .units
        .iter()
        .find(|u| u.card == "M5 Light Tank")
        .unwrap()
        .id
        .clone();
    let event = tracker::fire(
        &state,
        &stug,
        &m5,
        FireSituation::default(),
        &mut Roller::new(3),
    )
    .unwrap();
    table.record(event);
    let state = table.state();
    let stug = state.unit(&stug).unwrap();
    assert_eq!(stug.status, UnitStatus::OnTable);
    assert!(stug.fire_marker);
    assert!(
        tracker::fire(
            &state,
            &stug.id,
            &m5,
            FireSituation::default(),
            &mut Roller::new(4)
        )
        .is_err()
    );
}

#[test]
fn a_tiger_that_breaks_down_is_repaired_from_the_next_turn() {
    let mut table = Table::new(lorraine(), 2);
    let tiger = "german-13";
    assert_eq!(table.state().unit(tiger).unwrap().card, "Tiger I");
    for _ in 0..3 {
        let state = table.state();
        if state.phase != Phase::AwaitingCommandRoll {
            table.record(tracker::end_turn(&state).unwrap());
        }
        let seed = 10 * u64::from(table.state().turn);
        roll_until(&mut table, seed, |s| {
            s.phase != Phase::AwaitingCommandRoll && !s.side(Side::German).failed
        });
    }
    let state = table.state();
    table.record(tracker::commit_reserves(&state, Side::German, "Heavy Tank Platoon").unwrap());
    let mut broke = false;
    for seed in 0..500 {
        let event = tracker::check_reliability(
            &table.state(),
            tiger,
            crate::rules::armour_battles::fire::MoveOrder::Triple,
            &mut Roller::new(seed),
        )
        .unwrap();
        if matches!(
            event,
            Event::ReliabilityChecked {
                broke_down: true,
                ..
            }
        ) {
            table.record(event);
            broke = true;
            break;
        }
    }
    assert!(broke);
    let state = table.state();
    assert!(!state.unit(tiger).unwrap().can_move(state.turn));
    assert!(tracker::repair(&state, tiger, false).is_err(), "same turn");
    table.record(tracker::end_turn(&state).unwrap());
    roll_until(&mut table, 900, |s| s.phase != Phase::AwaitingCommandRoll);
    let state = table.state();
    table.record(tracker::repair(&state, tiger, false).unwrap());
    let state = table.state();
    let t = state.unit(tiger).unwrap();
    assert!(!t.can_move(state.turn), "no move on the repair turn");
    assert!(t.can_move(state.turn + 1));
}

#[test]
fn events_and_campaign_files_round_trip() {
    let mut table = Table::new(lorraine(), 0);
    play_to_the_end(&mut table, 11);
    for logged in &table.record.logs[0] {
        let json = serde_json::to_string(&logged.event).unwrap();
        let back: Event = serde_json::from_str(&json).unwrap();
        assert_eq!(back, logged.event);
        assert!(json.contains(&format!("\"kind\":\"{}\"", logged.event.kind())));
    }
    let text = file::to_json(&table.record).unwrap();
    let back = file::parse(&text).unwrap();
    assert_eq!(back, table.record);
    assert_eq!(back.state(0), table.record.state(0));
}

#[test]
fn a_campaign_file_with_edited_dice_is_refused() {
    let mut table = Table::new(lorraine(), 0);
    play_to_the_end(&mut table, 12);
    let mut value: serde_json::Value =
        serde_json::from_str(&file::to_json(&table.record).unwrap()).unwrap();
    let first = &mut value["logs"][0][0]["event"]["rounds"][0]["us"]["dice"][0];
    let face = first.as_u64().unwrap();
    *first = serde_json::json!(if face == 6 { 5 } else { face + 1 });
    let err = file::parse(&value.to_string()).unwrap_err();
    assert!(err.to_string().contains("do not replay"), "{err}");
    let err = file::parse("{\"format\": \"something-else\"}").unwrap_err();
    assert!(
        err.to_string().contains("not a Quartermaster campaign"),
        "{err}"
    );
    let mut newer = value.clone();
    newer["version"] = serde_json::json!(99);
    assert!(
        file::parse(&newer.to_string())
            .unwrap_err()
            .to_string()
            .contains("newer")
    );
}

#[test]
fn the_campaign_goes_to_more_wins_then_more_army_morale_left() {
    use result::{BattleResult, Standing};
    let r = |standing, us, german| BattleResult {
        number: 1,
        name: String::new(),
        standing,
        reason: String::new(),
        turns: 5,
        army_morale: Some(Sides { us, german }),
        losses: Sides::default(),
    };
    let two_to_one = result::campaign_result(&[
        r(Standing::UsWon, 3, 0),
        r(Standing::GermanWon, 0, 9),
        r(Standing::UsWon, 1, 0),
    ]);
    assert_eq!(two_to_one.leader, Some(Side::Us));
    assert!(two_to_one.finished);
    assert_eq!(two_to_one.summary, "US wins 2–1");
    let tied = result::campaign_result(&[
        r(Standing::UsWon, 3, 0),
        r(Standing::GermanWon, 0, 9),
        r(Standing::Draw, 2, 2),
    ]);
    assert_eq!(tied.morale_left, Sides { us: 5, german: 11 });
    assert_eq!(tied.leader, Some(Side::German));
    assert!(
        tied.summary.contains("Army Morale left (5 to 11)"),
        "{}",
        tied.summary
    );
    let open = result::campaign_result(&[r(Standing::InProgress, 3, 3)]);
    assert_eq!(open.leader, None);
    assert!(!open.finished);
}

#[test]
fn what_next_adds_battle_three_forces_with_the_extra_artillery_option() {
    let mut record = lorraine();
    let number = record.add_what_next(true).unwrap();
    assert_eq!(number, 4);
    let BattlePlan::Armour(plan) = &record.campaign.battles[3] else {
        panic!()
    };
    assert!(plan.free_deployment);
    let count = |side: Side, card: &str| {
        plan.sides
            .get(side)
            .units
            .iter()
            .filter(|u| u.card == card)
            .count()
    };
    assert_eq!(count(Side::Us, "M7 Howitzer Motor Carriage"), 3);
    assert_eq!(count(Side::German, "105L28 Howitzer"), 2);
    assert_eq!(plan.sides.us.army_morale, 16);
    assert_eq!(plan.sides.german.army_morale, 13);
    assert_eq!(plan.sides.us.staff_orders, 5);
    assert_eq!(plan.sides.german.staff_orders, 5);
    let state = record.state(3).unwrap();
    assert!(
        state
            .units
            .iter()
            .all(|u| matches!(u.status, UnitStatus::OnTable | UnitStatus::OffTable))
    );
    let ids: std::collections::HashSet<&str> = plan.units().map(|(_, u)| u.id.as_str()).collect();
    assert_eq!(ids.len(), plan.units().count(), "unit ids are unique");
    let plain = what_next(5, false).unwrap();
    assert_eq!(plain.sides.us.army_morale, 15);
}

#[test]
fn carried_losses_remove_units_from_later_battles_only_when_chosen() {
    let options = LorraineOptions { carry_losses: true };
    let mut table = Table::new(
        CampaignRecord::new(
            test_campaign_uid(),
            new_lorraine("Carry", players(), options).unwrap(),
        ),
        0,
    );
    let end = play_to_the_end(&mut table, 1944).pop().unwrap();
    let lost: Vec<String> = end.losses(Side::Us).map(|u| u.card.clone()).collect();
    assert!(!lost.is_empty());
    let next = table.record.state(1).unwrap();
    let missing = next
        .units
        .iter()
        .filter(|u| u.status == UnitStatus::LostEarlier)
        .count();
    let german_lost = end.losses(Side::German).count();
    assert_eq!(missing, lost.len() + german_lost);
    let mut plain = table.record.clone();
    plain.campaign.options.carry_losses = false;
    assert!(
        plain
            .state(1)
            .unwrap()
            .units
            .iter()
            .all(|u| u.status != UnitStatus::LostEarlier)
    );
}

#[test]
fn simple_campaigns_record_winner_and_fates() {
    let mut record = CampaignRecord::new(
        test_campaign_uid(),
        new_simple(
            "Ardennes league",
            crate::rules::RulesetId::BoltAction,
            players(),
        )
        .unwrap(),
    );
    assert!(record.add_what_next(false).is_err());
    let n = record
        .add_simple_battle(
            "Crossroads",
            Sides {
                us: "Rangers".to_string(),
                german: "Grenadiers".to_string(),
            },
            Sides {
                us: vec!["Rifle squad".to_string()],
                german: vec!["Sniper team".to_string()],
            },
        )
        .unwrap();
    assert_eq!(n, 1);
    record
        .append_numbered(
            0,
            String::new(),
            Event::UnitFate {
                side: Side::German,
                unit: "Sniper team".to_string(),
                fate: "destroyed".to_string(),
            },
        )
        .unwrap();
    record
        .append_numbered(
            0,
            String::new(),
            Event::BattleConcluded {
                winner: Some(Side::Us),
                notes: "held the crossroads".to_string(),
            },
        )
        .unwrap();
    let results = record.results();
    assert_eq!(results[0].standing, result::Standing::UsWon);
    assert_eq!(
        results[0].losses.german,
        vec!["Sniper team: destroyed".to_string()]
    );
    assert!(record.state(0).is_none());
    assert_eq!(record.result().leader, Some(Side::Us));
}

#[test]
fn names_are_checked() {
    assert!(new_lorraine("  ", players(), LorraineOptions::default()).is_err());
    // The limit is a force's and a card's: 200 characters.
    let limit = crate::rules::force_file::MAX_NAME_CHARS;
    assert!(new_lorraine(&"x".repeat(limit), players(), LorraineOptions::default()).is_ok());
    assert!(
        new_lorraine(
            &"x".repeat(limit + 1),
            players(),
            LorraineOptions::default()
        )
        .is_err()
    );
}

#[test]
fn odds_before_a_roll_use_the_dice_and_the_unit_on_the_table() {
    let mut table = Table::new(lorraine(), 0);
    let state = table.state();
    let odds = tracker::command_odds(table.plan(), &state).unwrap();
    assert_eq!((odds.us_dice, odds.german_dice), (4, 3));
    // Command Failure: more ones than sixes, by enumerating all 6^4 US rolls.
    let mut failures = 0u32;
    for code in 0..6u32.pow(4) {
        let faces: Vec<u32> = (0..4).map(|i| code / 6u32.pow(i) % 6 + 1).collect();
        let ones = faces.iter().filter(|&&f| f == 1).count();
        let sixes = faces.iter().filter(|&&f| f == 6).count();
        failures += u32::from(ones > sixes);
    }
    let expected = f64::from(failures) / 1296.0;
    assert!((odds.us_failure.p() - expected).abs() < 1e-12);

    // A unit with one Disruption Point: the rally odds are for that unit with that point.
    table.record(tracker::set_disruption(&state, "us-1", 1).unwrap());
    let state = table.state();
    let rally = tracker::rally_odds(
        &state,
        "us-1",
        RallySituation {
            distance_inches: 20.0,
            ..RallySituation::default()
        },
    )
    .unwrap();
    assert_eq!(rally.disruption, 1);
    assert_eq!(rally.base_dice, 4, "Battle 1 US rally dice");
    assert!(rally.p_removed_at_least(1) > 0.0 && rally.p_removed_at_least(1) < 1.0);

    let m4 = tracker::move_odds(&state, "us-1", MoveOrder::Double).unwrap();
    assert_eq!(m4.p_breakdown(), 0.0, "an M4 never breaks down");
}

#[test]
fn artillery_fire_records_its_situation_and_verify_rebuilds_the_pools_from_it() {
    use crate::rules::armour_battles::artillery::ArtillerySituation;
    use crate::rules::armour_battles::fire::Bonus;
    let mut table = Table::new(lorraine(), 1);
    roll_until(&mut table, 0, |s| s.phase != Phase::AwaitingCommandRoll);
    let fires_now = (0..200)
        .map(|seed| tracker::call_artillery(&table.state(), "us-13", &mut Roller::new(seed)))
        .find_map(|e| {
            e.ok()
                .filter(|e| matches!(e, Event::ArtilleryCalled(c) if c.fires_now))
        })
        .expect("a response that fires at once");
    table.record(fires_now);
    let state = table.state();
    let target = tracker::targets(&state, Side::German)[0].id.clone();
    let situation = ArtillerySituation {
        attacker_bonus: Bonus {
            wild_die: true,
            staff_order: false,
        },
        ..ArtillerySituation::default()
    };
    let event =
        tracker::artillery_fire(&state, "us-13", &target, situation, &mut Roller::new(7)).unwrap();
    let Event::Fire(fire) = &event else {
        panic!("a fire event")
    };
    let setup = fire.situation.expect("the situation is recorded");
    assert!(setup.attacker_bonus.wild_die);
    assert_eq!(setup.artillery_situation(), Some(situation));
    table.record(event.clone());
    let plan = table.record.campaign.battles[1].clone();
    let carried = Sides::default();
    verify::verify_battle_log(&plan, &carried, &table.record.logs[1]).unwrap();
    // The same dice claimed without the wild die: the situation gives one die more.
    let mut edited = table.record.logs[1].clone();
    if let Some(Event::Fire(f)) = edited.last_mut().map(|l| &mut l.event)
        && let Some(s) = f.situation.as_mut()
    {
        s.attacker_bonus.wild_die = false;
    }
    match verify::verify_battle_log(&plan, &carried, &edited) {
        Err(CampaignError::Forged { field, .. }) => assert_eq!(field, "attack.dice"),
        other => panic!("{other:?}"),
    }
    // A range on artillery is something the app never records.
    let mut edited = table.record.logs[1].clone();
    if let Some(Event::Fire(f)) = edited.last_mut().map(|l| &mut l.event)
        && let Some(s) = f.situation.as_mut()
    {
        s.flank = true;
    }
    match verify::verify_battle_log(&plan, &carried, &edited) {
        Err(CampaignError::Forged { field, .. }) => assert_eq!(field, "situation"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_fire_whose_attack_scores_nothing_rolls_no_reaction_and_still_verifies() {
    let mut table = Table::new(lorraine(), 0);
    roll_until(&mut table, 0, |s| s.phase != Phase::AwaitingCommandRoll);
    let state = table.state();
    let Phase::Pulse { side } = state.phase else {
        unreachable!()
    };
    let shooter = tracker::shooters(&state, side)[0].id.clone();
    let target = tracker::targets(&state, opponent(side))[0].id.clone();
    let situation = FireSituation {
        range: RangeBand::Long,
        ..FireSituation::default()
    };
    let miss = (0..2_000)
        .map(|seed| tracker::fire(&state, &shooter, &target, situation, &mut Roller::new(seed)))
        .find_map(|e| {
            e.ok()
                .filter(|e| matches!(e, Event::Fire(f) if f.reaction.is_none()))
        })
        .expect("some seed misses with every die");
    table.record(miss);
    let plan = table.record.campaign.battles[0].clone();
    verify::verify_battle_log(&plan, &Sides::default(), &table.record.logs[0]).unwrap();
}
