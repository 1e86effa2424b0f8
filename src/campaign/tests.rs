use super::definition::{SIDES, opponent};
use super::event::Event;
use super::*;
use crate::rules::armour_battles::battle::actions::{self, key, param};
use crate::rules::armour_battles::battle::decide;
use crate::rules::armour_battles::battle::event::{self as ab, Extra};
use crate::rules::armour_battles::battle::state::{BattleState, MissionStatus, Phase, UnitStatus};
use crate::rules::armour_battles::table_battle::legacy as adapter;
use crate::rules::armour_battles::table_battle::{ArmourBattlesBattle, view};
use crate::rules::battle::board::TablePlan;
use crate::rules::battle::table::request_of;
use crate::rules::battle::{BattleError, DiceFrom, Request, Side};
use crate::rules::dice::Roller;
use crate::rules::resolution::InputValue;

fn players() -> Sides<String> {
    Sides {
        first: "Alice".to_string(),
        second: "Bruno".to_string(),
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

fn machine(name: impl Into<String>) -> Recorder {
    Recorder {
        player: "Alice".to_string(),
        machine: name.into(),
    }
}

/// One battle recorded as the store would (seq 1, 2, 3 …, each event by its recorder), its
/// actions decided by the battle's rules with the dice its history gives.
struct Table {
    record: CampaignRecord,
    index: usize,
    by: Recorder,
}

impl Table {
    fn new(record: CampaignRecord, index: usize) -> Self {
        Self {
            record,
            index,
            by: machine("table"),
        }
    }

    fn plan(&self) -> TablePlan {
        self.record.table_plan(self.index).expect("a board battle")
    }

    /// The battle as the Armour Battles rules read its board.
    fn state(&self) -> BattleState {
        view::state_of(&self.plan(), &self.record.board(self.index).unwrap())
    }

    fn battle(&self) -> Battle<'_> {
        self.record.battle(self.index).unwrap()
    }

    /// The Lorraine tracker's own event behind an action recorded now: the rules' decision for
    /// its request with its dice, on the board as it stands.
    fn decision(&self, event: &Event) -> ab::Event {
        let Event::Act(act) = event else {
            panic!("not an action: {event:?}")
        };
        let request =
            request_of::<ArmourBattlesBattle>(act, crate::rules::armour_battles::revision::CURRENT)
                .unwrap();
        let seed = act.rolls.first().map_or(0, |r| r.roll.seed);
        actions::decide_with(
            &self.state(),
            &request,
            &mut Roller::new(seed),
            DiceFrom::Battle,
        )
        .unwrap()
        .event
    }

    /// Appends `event` as recorded by `by`.
    fn append(&mut self, event: Event, by: &Recorder) {
        let count = self.record.all_events(self.index).count() + 1;
        let number = self.record.campaign.battles[self.index].number();
        let id = EventUid::legacy(self.record.id, number, u32::try_from(count).unwrap());
        self.record
            .append(
                self.index,
                id,
                format!("2026-11-22T10:{:02}:{:02}Z", count / 60, count % 60),
                by.clone(),
                event,
            )
            .unwrap();
    }

    fn record(&mut self, event: Event) {
        let by = self.by.clone();
        self.append(event, &by);
    }

    fn decide(&self, request: &Request) -> Result<Event, CampaignError> {
        self.record
            .decide(self.index, request, &self.by)
            .map(|d| d.event)
    }

    /// Decides and records `request`, returning the rules' own event for it.
    fn act(&mut self, request: Request) -> ab::Event {
        let event = self.decide(&request).unwrap();
        let decision = self.decision(&event);
        self.record(event);
        decision
    }

    /// Records `request` from the first of many machines whose dice give an event `want`
    /// accepts: a test picks its dice without choosing a seed, each event verifying as any
    /// other.
    fn act_until(
        &mut self,
        request: Request,
        want: impl Fn(&ab::Event, &BattleState) -> bool,
    ) -> ab::Event {
        for m in 0..3_000 {
            let by = machine(format!("m{m}"));
            let Ok(decided) = self.record.decide(self.index, &request, &by) else {
                continue;
            };
            let decision = self.decision(&decided.event);
            let mut trial = Table::new(self.record.clone(), self.index);
            trial.append(decided.event.clone(), &by);
            if want(&decision, &trial.state()) {
                self.append(decided.event, &by);
                return decision;
            }
        }
        panic!("no machine's dice gave the wanted {}", request.action);
    }

    fn verify(&self) -> Result<(), CampaignError> {
        verify::verify_battle(&self.record, self.index)
    }
}

fn roll_until(table: &mut Table, want: impl Fn(&BattleState) -> bool) {
    table.act_until(Request::new(key::ROLL_COMMAND), |_, state| want(state));
}

/// Spends the other side's dice, one for orders at a time, until `side` has the pulse.
fn give_pulse_to(table: &mut Table, side: Side) {
    for _ in 0..20 {
        let state = table.state();
        match state.phase {
            Phase::Pulse { side: now } if now == side => return,
            Phase::Pulse { side: other } => {
                let first = state.side(other).chains[0];
                table.act(chain(other, first.face, 1, "orders"));
            }
            _ => panic!("no pulse for {side:?}: the turn ended"),
        }
    }
    panic!("{side:?} never got the pulse");
}

fn chain(side: Side, face: u8, dice: u32, on: &'static str) -> Request {
    Request::new(key::USE_CHAIN)
        .side(side)
        .with(param::FACE, InputValue::Count(face.into()))
        .with(param::DICE, InputValue::Count(dice.into()))
        .with(param::ON, InputValue::Choice(on))
}

/// Each briefing's numbers, as the book prints them: (battle, side, units, command dice, staff
/// orders, rally dice, artillery response dice, army morale).
type Briefing = (usize, Side, usize, i64, i64, i64, Option<i64>, i64);
const BRIEFINGS: [Briefing; 6] = [
    (1, Side::First, 9, 4, 2, 4, None, 9),
    (1, Side::Second, 7, 3, 2, 4, None, 7),
    (2, Side::First, 14, 5, 4, 4, Some(4), 12),
    (2, Side::Second, 11, 4, 3, 4, Some(4), 10),
    (3, Side::First, 17, 6, 4, 4, Some(4), 15),
    (3, Side::Second, 14, 5, 4, 4, Some(4), 12),
];

/// The Lorraine campaign's data file gives each battle the book's briefing: every side's units,
/// command dice, Staff Orders, rally and artillery response dice and Army Morale as printed.
#[test]
fn the_six_battle_groups_match_the_briefings() {
    let record = lorraine();
    assert_eq!(record.campaign.battles.len(), 3);
    for (battle, side, units, command, staff, rally, artillery, morale) in BRIEFINGS {
        let plan = &record.campaign.battles[battle - 1];
        let setup = plan.board_setup().unwrap();
        let opening = setup.opening.unwrap();
        let counters = opening.sides.get(side);
        let count = |key: &str| counters.get(key).copied();
        assert_eq!(setup.plan.units.get(side).len(), units, "{battle} {side:?}");
        assert_eq!(count("command_dice"), Some(command), "{battle} {side:?}");
        assert_eq!(count("staff_orders"), Some(staff), "{battle} {side:?}");
        assert_eq!(count("rally_dice"), Some(rally), "{battle} {side:?}");
        assert_eq!(
            count("artillery_response_dice"),
            artillery,
            "{battle} {side:?}"
        );
        assert_eq!(count("army_morale"), Some(morale), "{battle} {side:?}");
        // Opened, the board holds the same numbers (and the start of the Army Morale chart).
        let state = Table::new(record.clone(), battle - 1).state();
        let s = state.side(side);
        assert_eq!(
            (s.army_morale, s.army_morale_start),
            (morale as u32, morale as u32)
        );
        assert_eq!(i64::from(s.command_dice), command);
    }
    let names: Vec<&str> = record
        .campaign
        .battles
        .iter()
        .map(|plan| plan.name())
        .collect();
    assert_eq!(
        names,
        ["Meeting Engagement", "Attack/Defend", "Counter-Attack"]
    );
}

#[test]
fn battle_plans_carry_deployment_and_first_pulse() {
    let record = lorraine();
    let states: Vec<BattleState> = (0..3)
        .map(|i| Table::new(record.clone(), i).state())
        .collect();
    use crate::rules::armour_battles::FirstPulse;
    assert_eq!(states[0].first_pulse_rule, FirstPulse::Roll);
    assert_eq!(states[1].first_pulse_rule, FirstPulse::UsAutomatic);
    assert_eq!(states[2].first_pulse_rule, FirstPulse::UsAutomatic);
    let tiger = states[2]
        .units
        .iter()
        .find(|u| u.card == "Tiger I")
        .unwrap();
    assert_eq!(tiger.status, UnitStatus::Reserve { from_turn: 3 });
    let stugs: Vec<_> = states[1]
        .units
        .iter()
        .filter(|u| u.card == "Sturmgeschütz III")
        .collect();
    assert_eq!(stugs.len(), 3);
    assert!(stugs.iter().all(|u| u.status == UnitStatus::Hidden));
    let m7s: Vec<_> = states[1]
        .units
        .iter()
        .filter(|u| u.card == "M7 Howitzer Motor Carriage")
        .collect();
    assert!(m7s.iter().all(|u| u.status == UnitStatus::OffTable));
}

/// Plays one battle to the end with the scripted player recording from `machine_name`: the
/// same machine plays the same battle, another plays another.
fn play_to_the_end(table: &mut Table, machine_name: &str) -> Vec<BattleState> {
    let by = machine(machine_name);
    let mut states = vec![table.state()];
    for _ in 0..3_000 {
        let Some(event) = table.record.scripted(table.index, &by).unwrap() else {
            break;
        };
        table.append(event, &by);
        states.push(table.state());
    }
    states
}

#[test]
fn a_scripted_battle_runs_until_a_side_reaches_zero_army_morale() {
    let mut table = Table::new(lorraine(), 0);
    let states = play_to_the_end(&mut table, "1944");
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
                Event::Act(act) if act.action == key::FIRE => {
                    let target = end.unit(act.target.as_deref()?)?;
                    let roll = act.rolls.iter().find(|r| r.pool == "army_morale")?;
                    assert!(roll.roll.is_genuine());
                    (target.side == side).then(|| u32::from(roll.roll.dice[0]))
                }
                _ => None,
            })
            .sum();
        let start = end.side(side).army_morale_start;
        assert_eq!(end.side(side).army_morale, start.saturating_sub(rolled));
    }
    // The same machine plays the same battle: nobody chose a seed, the history gave them.
    let mut again = Table::new(lorraine(), 0);
    play_to_the_end(&mut again, "1944");
    assert_eq!(again.record.logs[0], table.record.logs[0]);
    table.verify().unwrap();
    // Nothing more can be recorded.
    assert!(matches!(
        table.decide(&Request::new(key::ROLL_COMMAND)),
        Err(CampaignError::Battle(BattleError::BattleOver(_)))
    ));
    let result = &table.record.results()[0];
    assert_eq!(result.standing.winner(), outcome.winner);
    assert!(!result.losses.get(loser).is_empty());
}

#[test]
fn undo_and_redo_restore_the_exact_earlier_states() {
    let mut table = Table::new(lorraine(), 0);
    let states = play_to_the_end(&mut table, "7");
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
    // A new event ends the redo chain; a note changes nothing on the table.
    let state = table.state();
    table.record(Event::Note {
        text: "coffee".to_string(),
    });
    assert!(table.battle().redo().is_err());
    assert_eq!(table.state(), state);
    table.verify().unwrap();
}

#[test]
fn undo_of_nothing_is_refused() {
    let table = Table::new(lorraine(), 0);
    assert_eq!(table.battle().undo(), Err(CampaignError::NothingTo("undo")));
    assert_eq!(table.battle().redo(), Err(CampaignError::NothingTo("redo")));
}

/// Reserves follow the briefing (Battle 3: the armour companies from turn 2, the Tiger from
/// turn 3) and never enter in a turn of Command Failure — asked from the row's Commit and
/// from a chain's menu alike, the same refusal.
#[test]
fn reserves_follow_the_briefing_and_the_command_failure() {
    let mut table = Table::new(lorraine(), 2);
    roll_until(&mut table, |s| {
        matches!(s.phase, Phase::Pulse { side: Side::First })
    });
    let state = table.state();
    assert_eq!(state.turn, 1);
    let us_first = state
        .units_of(Side::First)
        .find(|u| u.company == "Armour Company 1")
        .unwrap()
        .id
        .clone();
    let commit = Request::new(key::COMMIT_RESERVES).unit(us_first.clone());
    let err = table.decide(&commit).unwrap_err();
    assert!(err.to_string().contains("from turn 2"), "{err}");
    // The chain's menu offers the same commit, refused for the same reason.
    let offered = actions::actions(&state);
    let from_chain: Vec<_> = offered
        .iter()
        .filter(|a| a.key == key::COMMIT_RESERVES && a.side == Some(Side::First))
        .collect();
    assert!(from_chain.len() > 1, "the row and each chain offer it");
    for action in from_chain {
        assert!(
            action
                .refused
                .as_deref()
                .is_some_and(|r| r.contains("from turn 2")),
            "{action:?}"
        );
    }
    // A chain may not be spent on reserves alone any more.
    let face = state.side(Side::First).chains[0].face;
    let err = table
        .decide(&chain(Side::First, face, 1, "commit_reserves"))
        .unwrap_err();
    assert!(err.to_string().contains("one of orders"), "{err}");
    table.act(Request::new(key::END_TURN));
    roll_until(&mut table, |s| {
        matches!(s.phase, Phase::Pulse { .. })
            && !s.side(Side::Second).failed
            && s.side(Side::Second).chains.len() >= 2
    });
    give_pulse_to(&mut table, Side::Second);
    let state = table.state();
    assert_eq!(state.turn, 2);
    let first_of = |company: &str| {
        state
            .units_of(Side::Second)
            .find(|u| u.company == company)
            .unwrap()
            .id
            .clone()
    };
    let err = table
        .decide(&Request::new(key::COMMIT_RESERVES).unit(first_of("Heavy Tank Platoon")))
        .unwrap_err();
    assert!(err.to_string().contains("from turn 3"), "{err}");
    let chains_before: u32 = state.side(Side::Second).chains.iter().map(|c| c.dice).sum();
    let event = table.act(Request::new(key::COMMIT_RESERVES).unit(first_of("Panzer Company 1")));
    assert!(matches!(
        event,
        ab::Event::ReservesCommitted { chain: Some(_), .. }
    ));
    let state = table.state();
    assert!(
        state
            .units_of(Side::Second)
            .filter(|u| u.company == "Panzer Company 1")
            .all(|u| u.status == UnitStatus::OnTable)
    );
    let chains_after: u32 = state.side(Side::Second).chains.iter().map(|c| c.dice).sum();
    assert_eq!(chains_after, chains_before - 1, "the order's die is spent");
    if state.phase != Phase::AwaitingCommandRoll {
        table.act(Request::new(key::END_TURN));
    }
    roll_until(&mut table, |s| {
        matches!(s.phase, Phase::Pulse { .. }) && s.side(Side::Second).failed
    });
    let state = table.state();
    let second = state
        .units_of(Side::Second)
        .find(|u| u.company == "Panzer Company 2")
        .unwrap()
        .id
        .clone();
    let err = table
        .decide(&Request::new(key::COMMIT_RESERVES).unit(second))
        .unwrap_err();
    assert!(err.to_string().contains("Command Failure"), "{err}");
    table.verify().unwrap();
}

#[test]
fn staff_orders_restock_next_turn_and_never_exceed_the_command_dice() {
    let mut table = Table::new(lorraine(), 0);
    roll_until(&mut table, |s| {
        matches!(s.phase, Phase::Pulse { side: Side::First })
            && s.side(Side::First).chains.iter().any(|c| c.dice >= 2)
    });
    let state = table.state();
    let us = state.side(Side::First);
    assert_eq!(us.staff_orders, 2);
    let longest = *us.chains.iter().find(|c| c.dice >= 2).unwrap();
    table.act(chain(
        Side::First,
        longest.face,
        longest.dice,
        "restock_staff_orders",
    ));
    let state = table.state();
    let added = (longest.dice - 1).min(4 - 2);
    assert_eq!(
        state.side(Side::First).staff_orders,
        2,
        "not usable this turn"
    );
    assert_eq!(state.side(Side::First).staff_orders_next_turn, added);
    if state.phase != Phase::AwaitingCommandRoll {
        table.act(Request::new(key::END_TURN));
    }
    roll_until(&mut table, |_| true);
    assert_eq!(table.state().side(Side::First).staff_orders, 2 + added);
    // Spending: one Staff Order at a time until none is left.
    let spend = Request::new(key::USE_STAFF_ORDER)
        .side(Side::First)
        .text("+1D");
    for _ in 0..(2 + added) {
        table.act(spend.clone());
    }
    assert!(table.decide(&spend).is_err());
    table.verify().unwrap();
}

#[test]
fn instant_staff_orders_need_two_wild_dice() {
    let mut table = Table::new(lorraine(), 0);
    roll_until(&mut table, |s| {
        s.phase != Phase::AwaitingCommandRoll && s.side(Side::First).wild >= 3
    });
    let wild = |dice: i64| {
        Request::new(key::USE_WILD)
            .side(Side::First)
            .with(param::DICE, InputValue::Count(dice))
            .with(param::ON, InputValue::Choice("instant_staff_orders"))
    };
    assert!(table.decide(&wild(1)).is_err());
    table.act(wild(3));
    // 2 initial + 2 instant, capped at 4 command dice.
    assert_eq!(table.state().side(Side::First).staff_orders, 4);
}

#[test]
fn artillery_missions_are_cancelled_by_a_command_failure_unless_maintained() {
    let mut table = Table::new(lorraine(), 1);
    roll_until(&mut table, |s| s.phase != Phase::AwaitingCommandRoll);
    let call = Request::new(key::CALL_ARTILLERY).unit("us-13");
    table.act_until(
        call.clone(),
        |e, _| matches!(e, ab::Event::ArtilleryCalled(c) if !c.fires_now),
    );
    let state = table.state();
    assert_eq!(state.side(Side::First).staff_orders, 3);
    assert!(table.decide(&call).is_err(), "already on a mission");
    if state.phase != Phase::AwaitingCommandRoll {
        table.act(Request::new(key::END_TURN));
    }
    roll_until(&mut table, |s| s.side(Side::First).failed && !s.is_over());
    let state = table.state();
    assert_eq!(
        state.side(Side::First).missions[0].status,
        MissionStatus::CancelledByFailure
    );
    table.act(Request::new(key::MAINTAIN_MISSION).unit("us-13"));
    let state = table.state();
    assert_eq!(
        state.side(Side::First).missions[0].status,
        MissionStatus::Pending
    );
    table.verify().unwrap();
}

/// A hidden unit that fires does so from ambush — decided once, for odds and roll alike — and
/// is revealed and marked.
#[test]
fn a_hidden_unit_fires_from_ambush_and_is_revealed_and_marked() {
    let mut table = Table::new(lorraine(), 1);
    roll_until(&mut table, |s| s.phase != Phase::AwaitingCommandRoll);
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
    // Asked to fire without ambush: refused, since the battle decides it, and says which way.
    let unambushed = Request::new(key::FIRE)
        .unit(stug.clone())
        .target(m5.clone())
        .with("ambush", InputValue::Flag(false));
    let refused = table.decide(&unambushed).unwrap_err().to_string();
    assert!(refused.contains("the battle decides it"), "{refused}");
    // Asked without saying: the battle fixes it, for the odds and for the roll.
    let shot = Request::new(key::FIRE)
        .unit(stug.clone())
        .target(m5.clone());
    let (_, inputs) = actions::situation(&state, &shot).unwrap();
    assert!(inputs.flag("ambush"));
    let event = table.act(shot.clone());
    let ab::Event::Fire(fire) = &event else {
        panic!("a fire")
    };
    assert!(fire.situation.unwrap().ambush);
    assert_eq!(fire.dice_from, DiceFrom::Battle);
    let state = table.state();
    let stug = state.unit(&stug).unwrap();
    assert_eq!(stug.status, UnitStatus::OnTable);
    assert!(stug.fire_marker);
    let err = table.decide(&shot).unwrap_err();
    assert!(err.to_string().contains("already fired"), "{err}");
    table.verify().unwrap();
}

#[test]
fn a_tiger_that_breaks_down_is_repaired_from_the_next_turn() {
    let mut table = Table::new(lorraine(), 2);
    let tiger = "german-13";
    assert_eq!(table.state().unit(tiger).unwrap().card, "Tiger I");
    for _ in 0..3 {
        let state = table.state();
        if state.phase != Phase::AwaitingCommandRoll {
            table.act(Request::new(key::END_TURN));
        }
        roll_until(&mut table, |s| {
            matches!(s.phase, Phase::Pulse { .. })
                && !s.side(Side::Second).failed
                && s.side(Side::Second).chains.len() >= 2
        });
    }
    assert_eq!(table.state().turn, 3);
    give_pulse_to(&mut table, Side::Second);
    table.act(Request::new(key::COMMIT_RESERVES).unit(tiger));
    let check = Request::new(key::CHECK_RELIABILITY)
        .unit(tiger)
        .with(param::MOVE, InputValue::Choice("triple"));
    table.act_until(check, |e, _| {
        matches!(
            e,
            ab::Event::ReliabilityChecked {
                broke_down: true,
                ..
            }
        )
    });
    let state = table.state();
    assert!(!state.unit(tiger).unwrap().can_move(state.turn));
    let repair = Request::new(key::REPAIR)
        .unit(tiger)
        .with(param::STAFF_ORDER, InputValue::Flag(false));
    assert!(table.decide(&repair).is_err(), "same turn");
    if state.phase != Phase::AwaitingCommandRoll {
        table.act(Request::new(key::END_TURN));
    }
    roll_until(&mut table, |s| s.phase != Phase::AwaitingCommandRoll);
    table.act(repair);
    let state = table.state();
    let t = state.unit(tiger).unwrap();
    assert!(!t.can_move(state.turn), "no move on the repair turn");
    assert!(t.can_move(state.turn + 1));
    table.verify().unwrap();
}

#[test]
fn events_and_campaign_files_round_trip() {
    let mut table = Table::new(lorraine(), 0);
    play_to_the_end(&mut table, "11");
    for logged in &table.record.logs[0] {
        let json = serde_json::to_string(&logged.event).unwrap();
        let back: Event = serde_json::from_str(&json).unwrap();
        assert_eq!(back, logged.event);
        assert!(json.contains(&format!("\"kind\":\"{}\"", logged.event.kind())));
    }
    let text = file::to_json(&table.record).unwrap();
    let back = file::parse(&text).unwrap();
    assert_eq!(back, table.record);
    assert_eq!(back.board(0), table.record.board(0));
}

#[test]
fn a_campaign_file_with_edited_dice_is_refused() {
    let mut table = Table::new(lorraine(), 0);
    play_to_the_end(&mut table, "12");
    let mut value: serde_json::Value =
        serde_json::from_str(&file::to_json(&table.record).unwrap()).unwrap();
    let first = &mut value["logs"][0][0]["event"]["rolls"][0]["dice"][0];
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
        score: Some(Sides {
            first: us,
            second: german,
        }),
        losses: Sides::default(),
    };
    let names = Sides {
        first: "US".to_string(),
        second: "German".to_string(),
    };
    let measure = "Army Morale left";
    let two_to_one = result::campaign_result(
        &[
            r(Standing::FirstWon, 3, 0),
            r(Standing::SecondWon, 0, 9),
            r(Standing::FirstWon, 1, 0),
        ],
        &names,
        measure,
    );
    assert_eq!(two_to_one.leader, Some(Side::First));
    assert!(two_to_one.finished);
    assert_eq!(two_to_one.summary, "US wins 2–1");
    let tied = result::campaign_result(
        &[
            r(Standing::FirstWon, 3, 0),
            r(Standing::SecondWon, 0, 9),
            r(Standing::Draw, 2, 2),
        ],
        &names,
        measure,
    );
    assert_eq!(
        tied.morale_left,
        Sides {
            first: 5,
            second: 11
        }
    );
    assert_eq!(tied.leader, Some(Side::Second));
    assert!(
        tied.summary.contains("Army Morale left (5 to 11)"),
        "{}",
        tied.summary
    );
    let open = result::campaign_result(&[r(Standing::InProgress, 3, 3)], &names, measure);
    assert_eq!(open.leader, None);
    assert!(!open.finished);
}

#[test]
fn what_next_adds_battle_three_forces_with_the_extra_artillery_option() {
    let mut record = lorraine();
    let number = record.add_follow_up(Some("extra_artillery")).unwrap();
    assert_eq!(number, 4);
    let setup = record.campaign.battles[3].board_setup().unwrap();
    let (plan, opening) = (&setup.plan, setup.opening.unwrap());
    let count = |side: Side, card: &str| {
        plan.units
            .get(side)
            .iter()
            .filter(|u| u.card.name() == card)
            .count()
    };
    assert_eq!(count(Side::First, "M7 Howitzer Motor Carriage"), 3);
    assert_eq!(count(Side::Second, "105L28 Howitzer"), 2);
    let counter = |side: Side, key: &str| opening.sides.get(side).get(key).copied();
    assert_eq!(counter(Side::First, "army_morale"), Some(16));
    assert_eq!(counter(Side::Second, "army_morale"), Some(13));
    assert_eq!(counter(Side::First, "staff_orders"), Some(5));
    assert_eq!(counter(Side::Second, "staff_orders"), Some(5));
    // Deployed as the players choose: nothing held in reserve or hidden.
    let state = Table::new(record.clone(), 3).state();
    assert!(
        state
            .units
            .iter()
            .all(|u| matches!(u.status, UnitStatus::OnTable | UnitStatus::OffTable))
    );
    let ids: std::collections::HashSet<&str> = plan
        .units
        .first
        .iter()
        .chain(&plan.units.second)
        .map(|u| u.id.as_str())
        .collect();
    assert_eq!(
        ids.len(),
        plan.units.first.len() + plan.units.second.len(),
        "unit ids are unique"
    );
    let plain = record.follow_up(None).unwrap();
    let opening = plain.opening().unwrap();
    assert_eq!(opening.sides.first.get("army_morale"), Some(&15));
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
    let end = play_to_the_end(&mut table, "1944").pop().unwrap();
    let lost: Vec<String> = end.losses(Side::First).map(|u| u.card.clone()).collect();
    assert!(!lost.is_empty());
    let next = Table::new(table.record.clone(), 1).state();
    let missing = next
        .units
        .iter()
        .filter(|u| u.status == UnitStatus::LostEarlier)
        .count();
    let german_lost = end.losses(Side::Second).count();
    assert_eq!(missing, lost.len() + german_lost);
    let mut plain = table.record.clone();
    plain.campaign.options.carry_losses = false;
    assert!(
        Table::new(plain, 1)
            .state()
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
    assert!(record.add_follow_up(None).is_err());
    let n = record
        .add_simple_battle(
            "Crossroads",
            Sides {
                first: "Rangers".to_string(),
                second: "Grenadiers".to_string(),
            },
            Sides {
                first: vec!["Rifle squad".to_string()],
                second: vec!["Sniper team".to_string()],
            },
        )
        .unwrap();
    assert_eq!(n, 1);
    record
        .append_numbered(
            0,
            String::new(),
            Event::UnitFate {
                side: Side::Second,
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
                winner: Some(Side::First),
                notes: "held the crossroads".to_string(),
            },
        )
        .unwrap();
    let results = record.results();
    assert_eq!(results[0].standing, result::Standing::FirstWon);
    assert_eq!(
        results[0].losses.second,
        vec!["Sniper team: destroyed".to_string()]
    );
    assert!(record.board(0).is_none());
    assert_eq!(record.result().leader, Some(Side::First));
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

/// The odds shown before a roll are the mechanic's report for the battle's situation: the
/// sides' command dice, the rallying unit's own Disruption and its side's rally dice.
#[test]
fn odds_before_a_roll_use_the_dice_and_the_unit_on_the_table() {
    use crate::rules::armour_battles::battle::actions::situation;
    let mut table = Table::new(lorraine(), 0);
    let state = table.state();
    let (id, inputs) = situation(&state, &Request::new(key::ROLL_COMMAND)).unwrap();
    assert_eq!(
        (inputs.count("us_dice"), inputs.count("german_dice")),
        (4, 3)
    );
    let odds = crate::rules::resolution::find(id)
        .unwrap()
        .resolve_odds(&inputs)
        .unwrap();
    // Command Failure: more ones than sixes, by enumerating all 6^4 US rolls.
    let mut failures = 0u32;
    for code in 0..6u32.pow(4) {
        let faces: Vec<u32> = (0..4).map(|i| code / 6u32.pow(i) % 6 + 1).collect();
        let ones = faces.iter().filter(|&&f| f == 1).count();
        let sixes = faces.iter().filter(|&&f| f == 6).count();
        failures += u32::from(ones > sixes);
    }
    let expected = f64::from(failures) / 1296.0;
    let p = odds
        .values
        .iter()
        .find(|v| v.key == "p_us_failure")
        .map(|v| match v.value {
            crate::rules::resolution::Value::Probability(p) => p,
            _ => f64::NAN,
        })
        .unwrap();
    assert!((p - expected).abs() < 1e-12);

    // A unit with one Disruption Point: the rally odds are for that unit with that point.
    table.act(
        Request::new(key::SET_DISRUPTION)
            .unit("us-1")
            .with(param::VALUE, InputValue::Count(1)),
    );
    let state = table.state();
    let rally = Request::new(key::RALLY)
        .unit("us-1")
        .with("distance", InputValue::Number(20.0));
    let (_, inputs) = situation(&state, &rally).unwrap();
    assert_eq!(inputs.count("disruption"), 1);
    let report = crate::rules::resolution::find(crate::rules::resolution::MechanicId {
        ruleset: crate::rules::RulesetId::ArmourBattles,
        key: "rally",
    })
    .unwrap()
    .resolve_odds(&inputs)
    .unwrap();
    let base = report
        .values
        .iter()
        .find(|v| v.key == "base_rally_dice")
        .unwrap();
    assert_eq!(
        base.value,
        crate::rules::resolution::Value::Count(4),
        "Battle 1 US rally dice"
    );
}

/// A bonus die is paid from the side's stock — refused with what the side holds when there is
/// none — and is really rolled: the attack has one die more, and the side one wild die less.
#[test]
fn a_bonus_without_stock_is_refused_and_a_paid_one_is_charged_and_rolled() {
    let mut table = Table::new(lorraine(), 0);
    roll_until(&mut table, |s| {
        matches!(s.phase, Phase::Pulse { .. })
            && s.side(Side::First).wild == 1
            && s.side(Side::Second).wild == 0
    });
    let state = table.state();
    let base = Request::new(key::FIRE).unit("us-1").target("german-1");
    let plain = table.decision(&table.decide(&base).unwrap());
    // The Germans hold no wild die but two Staff Orders: one extra die is paid with one.
    assert_eq!(state.side(Side::Second).staff_orders, 2);
    let three = base.clone().with("target_wild", InputValue::Count(3));
    let err = table.decide(&three).unwrap_err();
    assert!(err.to_string().contains("at most one of each"), "{err}");
    // The US: one wild die, two Staff Orders; both spent on one shot.
    let paid = base.clone().with("attacker_wild", InputValue::Count(2));
    let event = table.decide(&paid).unwrap();
    let (ab::Event::Fire(before), ab::Event::Fire(after)) = (&plain, &table.decision(&event))
    else {
        panic!("fire events")
    };
    assert_eq!(after.attack.dice.len(), before.attack.dice.len() + 2);
    assert_eq!(
        after.situation.unwrap().attacker_bonus,
        Extra {
            wild_die: true,
            staff_order: true
        }
    );
    table.record(event);
    let now = table.state();
    assert_eq!(now.side(Side::First).wild, 0, "the wild die is spent");
    assert_eq!(now.side(Side::First).staff_orders, 1, "and a Staff Order");
    // With nothing left of either, a third bonus die is refused with what the side holds.
    table.act(
        Request::new(key::USE_STAFF_ORDER)
            .side(Side::First)
            .text("an order"),
    );
    // At a unit us-2 may fire at (the first shot may have dispersed german-1, and a target
    // that is gone is refused before any bonus is looked at).
    let aimed = actions::actions(&table.state())
        .into_iter()
        .find(|a| a.key == key::FIRE && a.unit.as_deref() == Some("us-2"))
        .and_then(|a| a.targets.first().cloned())
        .unwrap();
    let err = table
        .decide(
            &Request::new(key::FIRE)
                .unit("us-2")
                .target(aimed)
                .with("attacker_wild", InputValue::Count(1)),
        )
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("holds no wild die and no Staff Order"),
        "{err}"
    );
    table.verify().unwrap();
}

/// A suppressed unit cannot fire (the book: it keeps its head down until its suppression is
/// removed) — and, as before, cannot rally.
#[test]
fn a_suppressed_unit_cannot_fire() {
    let mut table = Table::new(lorraine(), 0);
    roll_until(&mut table, |s| matches!(s.phase, Phase::Pulse { .. }));
    table.act(
        Request::new(key::SET_SUPPRESSED)
            .unit("us-1")
            .with(param::SUPPRESSED, InputValue::Flag(true)),
    );
    let err = table
        .decide(&Request::new(key::FIRE).unit("us-1").target("german-1"))
        .unwrap_err();
    assert!(
        err.to_string().contains("suppressed and cannot fire"),
        "{err}"
    );
    let offered = actions::actions(&table.state());
    let fire = offered
        .iter()
        .find(|a| a.key == key::FIRE && a.unit.as_deref() == Some("us-1"))
        .unwrap();
    assert!(fire.refused.as_deref().unwrap().contains("suppressed"));
    // Cleared, it may fire again.
    table.act(
        Request::new(key::SET_SUPPRESSED)
            .unit("us-1")
            .with(param::SUPPRESSED, InputValue::Flag(false)),
    );
    table.act(Request::new(key::FIRE).unit("us-1").target("german-1"));
    table.verify().unwrap();
}

/// Events from before the current rules keep verifying under the old ones: a fire with a
/// bonus nobody paid and a chosen seed, as the old tracker recorded it.
#[test]
fn an_event_of_the_old_rules_verifies_as_it_did() {
    let mut table = Table::new(lorraine(), 0);
    let turn = decide::roll_command(&table.state(), &mut Roller::new(7), DiceFrom::Chosen).unwrap();
    table.record(Event::Armour(turn));
    let state = table.state();
    assert_eq!(
        state.side(Side::First).wild,
        0,
        "seed 7 gives the US no wild die"
    );
    let shot = crate::rules::armour_battles::fire::FireSituation {
        attacker_bonus: crate::rules::armour_battles::fire::Bonus {
            wild_die: true,
            staff_order: false,
        },
        ..Default::default()
    };
    let roll = crate::rules::armour_battles::fire::roll_fire(
        crate::rules::armour_battles::unit_card("M4 75mm").unwrap(),
        crate::rules::armour_battles::unit_card("Panther Ausf G").unwrap(),
        &shot,
        &mut Roller::new(42),
    )
    .unwrap();
    let old = decide::fire_event(
        &state,
        ab::FireKind::Direct,
        Some("us-1"),
        "german-1",
        ab::FireSetup::of_fire(&shot),
        &roll,
        DiceFrom::Chosen,
    )
    .unwrap();
    table.record(Event::Armour(old));
    table.verify().unwrap();
    // The state charged nothing: the old rules did not.
    assert_eq!(table.state().side(Side::First).wild, 0);
}

#[test]
fn artillery_fire_records_its_situation_and_verify_rebuilds_the_pools_from_it() {
    let mut table = Table::new(lorraine(), 1);
    roll_until(&mut table, |s| {
        s.phase != Phase::AwaitingCommandRoll && s.side(Side::First).wild > 0
    });
    table.act_until(
        Request::new(key::CALL_ARTILLERY).unit("us-13"),
        |e, _| matches!(e, ab::Event::ArtilleryCalled(c) if c.fires_now),
    );
    let state = table.state();
    let target = decide::targets(&state, Side::Second)[0].id.clone();
    let event = table.act(
        Request::new(key::ARTILLERY_FIRE)
            .unit("us-13")
            .target(target)
            .with("attacker_wild", InputValue::Count(1)),
    );
    let ab::Event::Fire(fire) = &event else {
        panic!("a fire event")
    };
    let setup = fire.situation.expect("the situation is recorded");
    assert!(setup.attacker_bonus.wild_die);
    assert!(setup.artillery_situation().is_some());
    table.verify().unwrap();
    let plan = table.record.campaign.battles[1].clone();
    let carried = Sides::default();
    let id = table.record.id;
    // The same dice claimed without the wild die: the rules, deciding it again, roll one die
    // fewer and charge nothing.
    let mut edited = table.record.logs[1].clone();
    if let Some(Event::Act(act)) = edited.last_mut().map(|l| &mut l.event) {
        act.params.remove("attacker_wild");
    }
    assert!(matches!(
        verify::verify_battle_log(id, &plan, &carried, &edited),
        Err(CampaignError::Forged { .. })
    ));
    // A range on artillery is no parameter it takes.
    let mut edited = table.record.logs[1].clone();
    if let Some(Event::Act(act)) = edited.last_mut().map(|l| &mut l.event) {
        act.params.insert(
            "range".into(),
            crate::rules::battle::table::Param::Text("short".into()),
        );
    }
    assert!(matches!(
        verify::verify_battle_log(id, &plan, &carried, &edited),
        Err(CampaignError::Forged { .. })
    ));
}

#[test]
fn a_fire_whose_attack_scores_nothing_rolls_no_reaction_and_still_verifies() {
    let mut table = Table::new(lorraine(), 0);
    roll_until(&mut table, |s| s.phase != Phase::AwaitingCommandRoll);
    let state = table.state();
    let Phase::Pulse { side } = state.phase else {
        unreachable!()
    };
    let shooter = decide::shooters(&state, side)[0].id.clone();
    let target = decide::targets(&state, opponent(side))[0].id.clone();
    let shot = Request::new(key::FIRE)
        .unit(shooter)
        .target(target)
        .with("range", InputValue::Choice("long"));
    table.act_until(
        shot,
        |e, _| matches!(e, ab::Event::Fire(f) if f.reaction.is_none()),
    );
    table.verify().unwrap();
}

/// Nobody chooses a seed: an app roll whose seed is not the one its place in the battle gives
/// is refused, named as such; the derived one is accepted.
#[test]
fn an_event_whose_seed_is_not_the_derived_one_is_refused() {
    let mut table = Table::new(lorraine(), 0);
    table.act(Request::new(key::ROLL_COMMAND));
    table.verify().unwrap();
    let plan = table.record.campaign.battles[0].clone();
    let mut edited = table.record.logs[0].clone();
    // The same command roll from a seed somebody chose: genuine dice, replaying from it.
    let first = Table::new(lorraine(), 0);
    let Event::Act(mut forged) = first.decide(&Request::new(key::ROLL_COMMAND)).unwrap() else {
        panic!("an action")
    };
    let again = crate::rules::battle::table::AnyTable::decide(
        &first.plan(),
        &first.record.board(0).unwrap(),
        &Request::new(key::ROLL_COMMAND),
        &crate::rules::battle::Dice::Seed(99),
    )
    .unwrap()
    .event;
    forged.rolls = again.rolls;
    forged.effects = again.effects;
    forged.result = again.result;
    edited[0].event = Event::Act(forged);
    match verify::verify_battle_log(table.record.id, &plan, &Sides::default(), &edited) {
        Err(CampaignError::Forged { field, message, .. }) => {
            assert_eq!(field, "seed");
            assert!(message.contains("not one chosen"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    // The same event recorded by another machine has another seed.
    let mut moved = table.record.logs[0].clone();
    moved[0].by.machine = "elsewhere".to_string();
    assert!(verify::verify_battle_log(table.record.id, &plan, &Sides::default(), &moved).is_err());
}

/// Rules only go forward within a battle: after an event recorded under the current revision,
/// a later one may not claim an older revision (or none) to do what the old rules allowed.
#[test]
fn a_later_event_may_not_claim_older_rules_than_an_earlier_one() {
    let mut table = Table::new(lorraine(), 0);
    roll_until(&mut table, |s| s.phase != Phase::AwaitingCommandRoll);
    table.act(
        Request::new(key::SET_SUPPRESSED)
            .unit("us-1")
            .with(param::SUPPRESSED, InputValue::Flag(true)),
    );
    table.verify().unwrap();
    let current = table.record.logs[0][0].revision.expect("recorded with one");
    assert!(current >= 2, "revisions are recorded from revision 2 on");
    for claimed in [Some(current - 1), None] {
        let mut forged = table.record.clone();
        forged.logs[0].last_mut().unwrap().revision = claimed;
        let refused = verify::verify_record(&forged).unwrap_err().to_string();
        assert!(refused.contains("revision"), "{claimed:?}: {refused}");
        assert!(
            refused.contains(&format!("revision {current}")),
            "{claimed:?}: {refused}"
        );
    }
}

/// A Lorraine campaign whose first two battles were played to the end as the first Lorraine
/// tracker recorded them: each action its own event kind (`command_rolled`, `fire` …), decided
/// by the same rules with the dice the battle's history gives, resolved under revision 3 (its
/// last). `tests/fixtures/campaign_lorraine_tracker.json` holds its export: the legacy
/// files the tests keep forging and continuing.
fn played_by_the_first_tracker() -> CampaignRecord {
    let definition =
        new_lorraine("Forgery test", Sides::default(), LorraineOptions::default()).unwrap();
    let id = CampaignUid(uuid::Uuid::from_u128(
        0x0192_f1d2_3c4b_7000_8000_0000_0000_0007,
    ));
    let mut record = CampaignRecord::new(id, definition);
    // The first tracker's campaigns held its own plans.
    for (index, plan) in record.campaign.battles.iter_mut().enumerate() {
        let number = u32::try_from(index + 1).unwrap();
        *plan = BattlePlan::Armour(adapter::lorraine_plan(number).unwrap()).into();
    }
    for index in 0..2 {
        for _ in 1..=400u32 {
            let table = Table::new(record.clone(), index);
            let (plan, board) = (table.plan(), record.board(index).unwrap());
            let Some(request) =
                <ArmourBattlesBattle as crate::rules::battle::table::TableRules>::scripted(
                    &plan, &board,
                )
            else {
                break;
            };
            let seed = record.seed_at(index, "").unwrap();
            // Its rules ended the turn as the last chain was used.
            let mut state = table.state();
            state.last_pulse_open = false;
            let event =
                actions::decide_with(&state, &request, &mut Roller::new(seed), DiceFrom::Battle)
                    .unwrap()
                    .event;
            record
                .append_numbered(index, "2026-11-24T12:00:00Z".into(), Event::Armour(event))
                .unwrap();
            if let Some(last) = record.logs[index].last_mut() {
                last.revision = Some(3);
            }
        }
    }
    record
}

/// The fixture of a campaign the first Lorraine tracker recorded is what its rules record
/// (`UPDATE_FIXTURES=1` writes it again), and it verifies: its plans are the data file's
/// briefings as the board plays them, its events replay under its revision.
#[test]
fn the_first_trackers_campaign_is_read_verified_and_played_on() {
    let record = played_by_the_first_tracker();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/campaign_lorraine_tracker.json");
    let text = file::to_json(&record).unwrap();
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let kept = file::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        kept, record,
        "the fixture is what the first tracker recorded"
    );
    verify::verify_record(&kept).unwrap();
    // Each legacy plan is the board plan the data file gives that battle.
    for (index, plan) in kept.campaign.battles.iter().enumerate() {
        let number = u32::try_from(index + 1).unwrap();
        let script = scripted::find("lorraine").unwrap();
        assert_eq!(
            plan.board_setup()
                .map(|s| (s.plan.into_owned(), s.opening.map(|o| o.into_owned()))),
            script
                .battle(number)
                .unwrap()
                .board_setup()
                .map(|s| (s.plan.into_owned(), s.opening.map(|o| o.into_owned())))
        );
    }
    // Battle 2 is played on with actions: a scripted player records `act` events after the
    // tracker's own, and the whole battle verifies.
    let mut table = Table::new(kept, 1);
    let before = table.battle().events.len();
    table.record.logs[1].retain(|e| e.seq <= 10);
    for _ in 0..30 {
        let Some(event) = table.record.scripted(1, &table.by).unwrap() else {
            break;
        };
        assert!(matches!(event, Event::Act(_)), "new play records actions");
        table.record(event);
    }
    assert!(before > 10);
    table.verify().unwrap();
}
