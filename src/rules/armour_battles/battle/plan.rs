//! An Armour Battles battle before anything happens: both battle groups with their dice,
//! units and deployment, as a mission briefing gives them. The Lorraine 1944 campaign's three
//! briefings and the book's "What next?" battle are built here from the embedded battle groups.

use serde::{Deserialize, Serialize};

use crate::rules::armour_battles::{self, BattleGroup, Deployment, FirstPulse, Side};
use crate::rules::battle::{BattleError, SIDES, Sides};

/// An Armour Battles battle: both battle groups with their dice, and how it is fought.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmourBattlePlan {
    pub number: u32,
    /// The mission: "Meeting Engagement".
    pub name: String,
    pub time: String,
    pub place: String,
    pub first_pulse: FirstPulse,
    pub victory: String,
    /// Deployment is the players' choice (the "What next?" battle).
    #[serde(default)]
    pub free_deployment: bool,
    pub sides: Sides<SidePlan>,
}

/// One side's battle group for a battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SidePlan {
    /// The briefing's battle group id (`lorraine-2-us`).
    pub battle_group: String,
    pub command_dice: u32,
    pub staff_orders: u32,
    pub rally_dice: u32,
    pub artillery_response_dice: Option<u32>,
    pub army_morale: u32,
    pub units: Vec<UnitPlan>,
}

/// One unit (a platoon, one model) of a battle group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitPlan {
    /// Unique within the battle: `us-1`, `german-7`.
    pub id: String,
    /// The card name.
    pub card: String,
    /// The company (command group) it belongs to.
    pub company: String,
    pub deployment: Deployment,
}

impl UnitPlan {
    /// "M4 75mm (Tank Company 1)".
    pub fn label(&self) -> String {
        format!("{} ({})", self.card, self.company)
    }
}

impl ArmourBattlePlan {
    /// Every unit of both sides, US first.
    pub fn units(&self) -> impl Iterator<Item = (Side, &UnitPlan)> {
        SIDES
            .into_iter()
            .flat_map(move |side| self.sides.get(side).units.iter().map(move |u| (side, u)))
    }

    pub fn unit(&self, id: &str) -> Option<(Side, &UnitPlan)> {
        self.units().find(|(_, u)| u.id == id)
    }

    /// Unit `id`'s label with its copy number ("M4 75mm 2/2 (Tank Company 1)").
    pub fn unit_label(&self, id: &str) -> Option<String> {
        let (side, unit) = self.unit(id)?;
        let alike: Vec<&str> = self
            .units()
            .filter(|(s, u)| *s == side && u.card == unit.card && u.company == unit.company)
            .map(|(_, u)| u.id.as_str())
            .collect();
        Some(numbered_label(&unit.card, &unit.company, &alike, id))
    }
}

/// "M4 75mm 2/2 (Tank Company 1)": copies of a card within a company are numbered the way
/// the printed cards and the briefing roster number them, so two alike can be told apart at
/// the table; a single copy keeps the plain "M4 76mm (Tank Company 1)". `alike` holds the ids
/// of every unit of that card in that company, in plan order.
pub fn numbered_label(card: &str, company: &str, alike: &[&str], id: &str) -> String {
    match alike.iter().position(|a| *a == id) {
        Some(at) if alike.len() > 1 => {
            format!("{card} {}/{} ({company})", at + 1, alike.len())
        }
        _ => format!("{card} ({company})"),
    }
}

fn side_key(side: Side) -> &'static str {
    match side {
        Side::First => "us",
        Side::Second => "german",
    }
}

fn side_plan(group: &BattleGroup) -> SidePlan {
    let key = side_key(group.side);
    let units = group
        .companies
        .iter()
        .flat_map(|company| company.units.iter().map(move |card| (company, card)))
        .enumerate()
        .map(|(i, (company, card))| UnitPlan {
            id: format!("{key}-{}", i + 1),
            card: card.clone(),
            company: company.name.clone(),
            deployment: company.deployment,
        })
        .collect();
    SidePlan {
        battle_group: group.id.clone(),
        command_dice: group.command_dice,
        staff_orders: group.staff_orders,
        rally_dice: group.rally_dice,
        artillery_response_dice: group.artillery_response_dice,
        army_morale: group.army_morale,
        units,
    }
}

fn group(id: &str) -> Result<&'static BattleGroup, BattleError> {
    armour_battles::battle_group(id).ok_or_else(|| BattleError::MissingData(id.to_string()))
}

/// The plan of Lorraine battle `number` (1–3) from its two briefings.
///
/// # Errors
/// [`BattleError::MissingData`] when the embedded briefings failed to load.
pub fn lorraine_battle(number: u32) -> Result<ArmourBattlePlan, BattleError> {
    let us = group(&format!("lorraine-{number}-us"))?;
    let german = group(&format!("lorraine-{number}-german"))?;
    Ok(ArmourBattlePlan {
        number,
        name: us.mission.clone(),
        time: us.time.clone(),
        place: us.place.clone(),
        first_pulse: us.first_pulse,
        victory: us.victory().to_string(),
        free_deployment: false,
        sides: Sides {
            first: side_plan(us),
            second: side_plan(german),
        },
    })
}

/// The book's "What next?" battle: all Battle 3 forces, deployed as the players choose.
/// With `extra_artillery` the US fields three M7 HMCs and the Germans two 105mm howitzers,
/// and each side gets +1 Army Morale and +1 Staff Order.
///
/// # Errors
/// As [`lorraine_battle`].
pub fn what_next(number: u32, extra_artillery: bool) -> Result<ArmourBattlePlan, BattleError> {
    let mut plan = lorraine_battle(3)?;
    plan.number = number;
    plan.name = if extra_artillery {
        "What Next? (extra artillery)".to_string()
    } else {
        "What Next?".to_string()
    };
    plan.time = "Free choice".to_string();
    plan.free_deployment = true;
    if extra_artillery {
        for side in SIDES {
            let wanted = match side {
                Side::First => 3,
                Side::Second => 2,
            };
            let plan = plan.sides.get_mut(side);
            add_artillery(plan, side, wanted);
            plan.army_morale += 1;
            plan.staff_orders += 1;
        }
    }
    Ok(plan)
}

fn add_artillery(plan: &mut SidePlan, side: Side, wanted: usize) {
    let batteries: Vec<UnitPlan> = plan
        .units
        .iter()
        .filter(|u| matches!(u.deployment, Deployment::OffTable {}))
        .cloned()
        .collect();
    let Some(model) = batteries.first() else {
        return;
    };
    for _ in batteries.len()..wanted {
        let id = format!("{}-{}", side_key(side), plan.units.len() + 1);
        plan.units.push(UnitPlan {
            id,
            ..model.clone()
        });
    }
}
