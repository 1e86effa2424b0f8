//! One line of plain words per Armour Battles event, for the log, the command line and the
//! after-action report.

use super::event::{Chain, ChainUse, Event, WildUse};
use super::plan::ArmourBattlePlan;
use crate::rules::armour_battles::Side;
use crate::rules::battle::DiceFrom;
use crate::rules::dice::RollRecord;
use crate::rules::words::amount;

/// The unit's label in the plan with its copy number ("Panther Ausf G 1/2 (Panzer Company
/// 1)"), as the tracker and the printed cards show it, or its id.
pub fn unit_label(plan: &ArmourBattlePlan, id: &str) -> String {
    plan.unit_label(id).unwrap_or_else(|| id.to_string())
}

/// "[6 4 1]".
pub fn faces(record: &RollRecord) -> String {
    let faces: Vec<String> = record.dice.iter().map(u8::to_string).collect();
    format!("[{}]", faces.join(" "))
}

fn chains(chains: &[Chain], wild: u32) -> String {
    let mut parts: Vec<String> = chains
        .iter()
        .map(|c| format!("{}×{}", c.dice, c.face))
        .collect();
    if wild > 0 {
        parts.push(format!("{wild} wild"));
    }
    if parts.is_empty() {
        "no dice".to_string()
    } else {
        parts.join(", ")
    }
}

fn side(side: Side) -> &'static str {
    side.label()
}

/// The event in words; dice the players rolled at the table are said to be.
pub fn describe(event: &Event, plan: &ArmourBattlePlan) -> String {
    let text = words(event, plan);
    if event.dice_from() == DiceFrom::Table {
        format!("{text} (rolled at the table)")
    } else {
        text
    }
}

fn words(event: &Event, plan: &ArmourBattlePlan) -> String {
    let unit = |id: &str| unit_label(plan, id);
    match event {
        Event::CommandRolled(c) => {
            let last = c.rounds.last();
            let dice = last.map_or_else(String::new, |r| {
                format!(" US {} German {}", faces(&r.us), faces(&r.german))
            });
            let rerolls = c.rounds.len().saturating_sub(1);
            let rerolls = if rerolls > 0 {
                format!(" after {}", amount(rerolls as u64, "tied rolls"))
            } else {
                String::new()
            };
            let mut failures = Vec::new();
            if c.failed.us {
                failures.push("US Command Failure");
            }
            if c.failed.german {
                failures.push("German Command Failure");
            }
            let failures = if failures.is_empty() {
                String::new()
            } else {
                format!("; {}", failures.join(", "))
            };
            let first = if c.turn_ends {
                "; both sides failed: the turn ends".to_string()
            } else {
                c.first_pulse.map_or_else(String::new, |s| {
                    format!(
                        "; {} has the first pulse. US: {}. German: {}",
                        s.label(),
                        chains(&c.chains.us, c.wild.us),
                        chains(&c.chains.german, c.wild.german)
                    )
                })
            };
            format!(
                "Turn {}: command dice{dice}{rerolls}{failures}{first}",
                c.turn
            )
        }
        Event::ChainUsed {
            side: s,
            face,
            dice,
            spent_on,
        } => {
            let what = if *face == 6 {
                format!("{dice} wild dice as a chain")
            } else {
                format!("{dice} of its {face}s")
            };
            let extra = match spent_on {
                ChainUse::RestockStaffOrders => {
                    format!(" (+{} Staff Orders next turn)", dice.saturating_sub(1))
                }
                _ => String::new(),
            };
            format!("{} uses {what} for {}{extra}", side(*s), spent_on.label())
        }
        Event::WildDiceUsed {
            side: s,
            dice,
            spent_on,
        } => match spent_on {
            WildUse::Bonus => format!("{} spends {dice} wild dice for +{dice}D", side(*s)),
            WildUse::InstantStaffOrders => format!(
                "{} turns {dice} wild dice into {}",
                side(*s),
                amount(u64::from(dice.saturating_sub(1)), "instant Staff Orders")
            ),
            WildUse::StockStaffOrders => format!(
                "{} stocks {dice} wild dice as Staff Orders for next turn",
                side(*s)
            ),
        },
        Event::StaffOrderUsed { side: s, purpose } => {
            if purpose.is_empty() {
                format!("{} uses a Staff Order", side(*s))
            } else {
                format!("{} uses a Staff Order: {purpose}", side(*s))
            }
        }
        Event::ArtilleryCalled(a) => format!(
            "{} calls a fire mission from {}: response {} against {}: {}",
            side(a.side),
            unit(&a.battery),
            faces(&a.response),
            faces(&a.opponent),
            if a.fires_now {
                "fires for effect now"
            } else {
                "fires in the next Logistics Phase"
            }
        ),
        Event::ArtilleryFired { battery, .. } => {
            format!("{} has fired its mission", unit(battery))
        }
        Event::MissionMaintained { battery, .. } => {
            format!("{}: mission kept with a Staff Order", unit(battery))
        }
        Event::MissionCancelled { battery, .. } => {
            format!("{}: mission cancelled", unit(battery))
        }
        Event::Fire(f) => {
            let who = f
                .attacker
                .as_deref()
                .map_or_else(|| "Fire".to_string(), unit);
            let reaction = f.reaction.as_ref().map_or_else(
                || " (no reaction needed)".to_string(),
                |r| format!(" vs {} at {}+", faces(r), f.reaction_tn),
            );
            let mut result = vec![format!("{} Disruption", f.new_disruption)];
            if f.suppressed {
                result.push("suppressed".to_string());
            }
            if let Some(inches) = f.forced_back_inches {
                result.push(format!("forced back {inches}″"));
            }
            if f.dispersed {
                result.push(format!(
                    "DISPERSED, Army Morale −{}",
                    f.army_morale_loss.unwrap_or(0)
                ));
            }
            // Said wherever the log is read: its dice counts could not be checked on import.
            let legacy = if f.situation.is_none() {
                " (legacy: situation not recorded)"
            } else {
                ""
            };
            format!(
                "{who} → {} ({}): {} at {}+{reaction}: {}{legacy}",
                unit(&f.target),
                f.fire.label(),
                faces(&f.attack),
                f.attacker_tn,
                result.join(", ")
            )
        }
        Event::Rally(r) => format!(
            "{} rallies: {} against {}: −{} Disruption, {} left",
            unit(&r.unit),
            faces(&r.rally),
            faces(&r.opponent),
            r.removed,
            r.remaining
        ),
        Event::Dispersed {
            unit: u,
            loss,
            morale,
            ..
        } => format!(
            "{} dispersed: Army Morale −{loss} {}",
            unit(u),
            faces(morale)
        ),
        Event::ReliabilityChecked {
            unit: u,
            record,
            broke_down,
            ..
        } => format!(
            "{} reliability check {}: {}",
            unit(u),
            faces(record),
            if *broke_down { "BROKE DOWN" } else { "moves" }
        ),
        Event::Repaired {
            unit: u,
            staff_order,
        } => format!(
            "{} repaired with a {}",
            unit(u),
            if *staff_order {
                "Staff Order"
            } else {
                "command die"
            }
        ),
        Event::ReservesCommitted {
            side: s,
            company,
            chain,
        } => match chain {
            Some(face) => format!(
                "{} commits {company} from reserve (one die of its {face}s)",
                side(*s)
            ),
            None => format!("{} commits {company} from reserve", side(*s)),
        },
        Event::Revealed { unit: u } => format!("{} revealed", unit(u)),
        Event::DisruptionSet { unit: u, value } => {
            format!("{}: Disruption set to {value} by hand", unit(u))
        }
        Event::SuppressionSet {
            unit: u,
            suppressed,
        } => format!(
            "{}: {}",
            unit(u),
            if *suppressed {
                "suppressed (by hand)"
            } else {
                "suppression removed"
            }
        ),
        Event::FireMarkerSet { unit: u, marked } => format!(
            "{}: fire marker {}",
            unit(u),
            if *marked { "placed" } else { "removed" }
        ),
        Event::TurnEnded {} => "Turn ended".to_string(),
    }
}
