//! How an Armour Battles battle stands, in the book's words, for the board's cards and turn
//! strip: a unit's Disruption against its Cohesion and its marks (suppressed, fired, hidden,
//! in reserve, broken down, a battery's mission), and the turn — whose Command Pulse it is,
//! each side's Army Morale against its start, chains, wild dice and Staff Orders, what the
//! table does next.

use super::super::battle::actions::key;
use super::super::battle::state::{Breakdown, Phase, SideState, UnitState, UnitStatus};
use super::view;
use crate::rules::battle::board::{Board, BoardUnit, TablePlan};
use crate::rules::battle::standing::{Badge, Strength, Tally, Tone, TurnStanding, UnitStanding};
use crate::rules::battle::{SIDES, Sides};

/// A unit's card on the board.
pub fn unit(plan: &TablePlan, unit: &BoardUnit) -> UnitStanding {
    let u = view::unit_state(plan, unit);
    let mut standing = standing_of(&u);
    standing.badges.extend(mission_badge(unit));
    standing
}

fn standing_of(u: &UnitState) -> UnitStanding {
    let left = i64::from(u.cohesion.saturating_sub(u.disruption));
    let out = matches!(
        u.status,
        UnitStatus::Dispersed { .. } | UnitStatus::LostEarlier
    );
    let disruption_tone = match u.cohesion.saturating_sub(u.disruption) {
        0 | 1 => Tone::Danger,
        _ if u.disruption > 0 => Tone::Warning,
        _ => Tone::Neutral,
    };
    let mut badges: Vec<Badge> = status_badge(u).into_iter().collect();
    if u.suppressed {
        badges.push(Badge::new("Suppressed", Tone::Danger));
    }
    if u.fire_marker {
        badges.push(Badge::new("Fired", Tone::Neutral));
    }
    match u.breakdown {
        Breakdown::BrokenDown { .. } => badges.push(Badge::new("Broken down", Tone::Danger)),
        Breakdown::Repaired { turn } => badges.push(Badge::new(
            format!("Repaired in turn {turn}: moves from the next"),
            Tone::Neutral,
        )),
        Breakdown::Running => {}
    }
    UnitStanding {
        strength: (!out && u.status != UnitStatus::OffTable).then_some(Strength {
            now: left,
            full: i64::from(u.cohesion),
            noun: "cohesion",
        }),
        tallies: if u.status == UnitStatus::OffTable || out {
            Vec::new()
        } else {
            vec![
                Tally::new("Disruption", i64::from(u.disruption), disruption_tone)
                    .of(i64::from(u.cohesion)),
            ]
        },
        badges,
        out,
    }
}

/// Where the unit is, when it is not simply on the table.
fn status_badge(u: &UnitState) -> Option<Badge> {
    Some(match u.status {
        UnitStatus::OnTable => return None,
        UnitStatus::Reserve { from_turn } => {
            Badge::new(format!("Reserve (from turn {from_turn})"), Tone::Inactive)
        }
        UnitStatus::Hidden => Badge::new("Hidden", Tone::Good),
        UnitStatus::OffTable => Badge::new("Off-table", Tone::Neutral),
        UnitStatus::Dispersed { turn } => {
            Badge::new(format!("Dispersed (turn {turn})"), Tone::Inactive)
        }
        UnitStatus::LostEarlier => Badge::new("Lost in an earlier battle", Tone::Inactive),
    })
}

/// The mission a battery has, as a badge.
fn mission_badge(unit: &BoardUnit) -> Option<Badge> {
    Some(match unit.count(view::counter::MISSION) {
        1 => Badge::new("Mission: fire for effect", Tone::Good),
        2 => Badge::new("Mission: next Logistics Phase", Tone::Neutral),
        3 => Badge::new(
            "Mission cancelled (keep it with a Staff Order)",
            Tone::Warning,
        ),
        _ => return None,
    })
}

/// The turn strip: whose pulse, each side's stock, the next step.
pub fn turn(plan: &TablePlan, board: &Board) -> TurnStanding {
    let state = view::state_of(plan, board);
    let (acting, step, next) = match state.phase {
        Phase::Over => (None, "The battle is over".to_string(), None),
        Phase::AwaitingCommandRoll => (
            None,
            format!("Roll both sides' command dice for turn {}", state.turn + 1),
            Some(key::ROLL_COMMAND),
        ),
        Phase::Pulse { side } => (
            Some(side),
            format!(
                "{}'s Command Pulse: use a chain, fire, rally; opportunity fire answers",
                plan.forces.get(side).trim()
            ),
            Some(key::USE_CHAIN),
        ),
    };
    let mut stock: Sides<Vec<Tally>> = Sides::default();
    for side in SIDES {
        *stock.get_mut(side) = side_stock(state.side(side));
    }
    TurnStanding {
        turn: state.turn,
        turn_word: "Turn",
        last: None,
        acting,
        step,
        stock,
        next,
    }
}

/// "Army Morale 7/9", each chain, wild dice, Staff Orders now and next turn.
fn side_stock(s: &SideState) -> Vec<Tally> {
    let morale_tone = match s.army_morale {
        0 => Tone::Inactive,
        n if n * 3 <= s.army_morale_start => Tone::Danger,
        n if n < s.army_morale_start => Tone::Warning,
        _ => Tone::Good,
    };
    let mut stock = vec![
        Tally::new("Army Morale", i64::from(s.army_morale), morale_tone)
            .of(i64::from(s.army_morale_start)),
    ];
    for chain in &s.chains {
        stock.push(Tally::new(
            format!("Chain of {}s", chain.face),
            i64::from(chain.dice),
            Tone::Neutral,
        ));
    }
    stock.push(Tally::new("Wild dice", i64::from(s.wild), Tone::Good));
    stock.push(Tally::new(
        "Staff Orders",
        i64::from(s.staff_orders),
        Tone::Neutral,
    ));
    if s.staff_orders_next_turn > 0 {
        stock.push(Tally::new(
            "Staff Orders next turn",
            i64::from(s.staff_orders_next_turn),
            Tone::Neutral,
        ));
    }
    if s.failed {
        stock.push(Tally::new("Command Failure", 1, Tone::Danger));
    }
    stock
}
