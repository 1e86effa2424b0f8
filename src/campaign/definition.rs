//! What a campaign is before anything happens: its name, players, options and the plan of
//! each battle (who fields what, with which dice). The plan never changes once the campaign
//! is created; everything that happens is an event (see [`super::event`]).

use serde::{Deserialize, Serialize};

use super::error::CampaignError;
use crate::rules::RulesetId;
use crate::rules::armour_battles::{self, BattleGroup, Deployment, FirstPulse, Side};

/// A value per Armour Battles side; serialised as `{"us": …, "german": …}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sides<T> {
    pub us: T,
    pub german: T,
}

impl<T> Sides<T> {
    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::Us => &self.us,
            Side::German => &self.german,
        }
    }

    pub fn get_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::Us => &mut self.us,
            Side::German => &mut self.german,
        }
    }
}

/// The other side.
pub fn opponent(side: Side) -> Side {
    match side {
        Side::Us => Side::German,
        Side::German => Side::Us,
    }
}

/// Both sides, US first (the order the briefings and the command roll use).
pub const SIDES: [Side; 2] = [Side::Us, Side::German];

/// Choices made when the campaign is created.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LorraineOptions {
    /// Units dispersed in one battle are missing from the later ones (RULINGS: off).
    #[serde(default)]
    pub carry_losses: bool,
}

/// A campaign: the players' names, the ruleset and the battles in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Campaign {
    pub name: String,
    pub ruleset: RulesetId,
    /// Lorraine: who plays the US and who the Germans; a simple campaign: the two players.
    pub players: Sides<String>,
    #[serde(default)]
    pub options: LorraineOptions,
    pub battles: Vec<BattlePlan>,
}

/// One battle as planned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum BattlePlan {
    /// An Armour Battles battle the tracker runs turn by turn.
    Armour(ArmourBattlePlan),
    /// Any other ruleset: two saved forces; winner, notes and each unit's fate are recorded.
    Simple(SimpleBattlePlan),
}

impl BattlePlan {
    pub fn number(&self) -> u32 {
        match self {
            BattlePlan::Armour(plan) => plan.number,
            BattlePlan::Simple(plan) => plan.number,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            BattlePlan::Armour(plan) => &plan.name,
            BattlePlan::Simple(plan) => &plan.name,
        }
    }

    /// "Battle 2: Attack/Defend".
    pub fn title(&self) -> String {
        format!("Battle {}: {}", self.number(), self.name())
    }
}

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

/// A battle of a simple campaign: two saved forces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimpleBattlePlan {
    pub number: u32,
    pub name: String,
    /// The saved forces' names, as `us` = first player and `german` = second player.
    pub forces: Sides<String>,
    /// The unit names of each force, as saved when the battle was added.
    pub units: Sides<Vec<String>>,
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
        Side::Us => "us",
        Side::German => "german",
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

fn group(id: &str) -> Result<&'static BattleGroup, CampaignError> {
    armour_battles::battle_group(id).ok_or_else(|| CampaignError::MissingData(id.to_string()))
}

/// The plan of Lorraine battle `number` (1–3) from its two briefings.
///
/// # Errors
/// [`CampaignError::MissingData`] when the embedded briefings failed to load.
pub fn lorraine_battle(number: u32) -> Result<ArmourBattlePlan, CampaignError> {
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
            us: side_plan(us),
            german: side_plan(german),
        },
    })
}

/// A new Lorraine 1944 campaign with its three battles.
///
/// # Errors
/// [`CampaignError::Invalid`] for an empty name; [`CampaignError::MissingData`] when the
/// embedded briefings failed to load.
pub fn new_lorraine(
    name: &str,
    players: Sides<String>,
    options: LorraineOptions,
) -> Result<Campaign, CampaignError> {
    let name = checked_name(name)?;
    let battles = (1..=3)
        .map(|n| lorraine_battle(n).map(BattlePlan::Armour))
        .collect::<Result<_, _>>()?;
    Ok(Campaign {
        name,
        ruleset: RulesetId::ArmourBattles,
        players,
        options,
        battles,
    })
}

/// The book's "What next?" battle: all Battle 3 forces, deployed as the players choose.
/// With `extra_artillery` the US fields three M7 HMCs and the Germans two 105mm howitzers,
/// and each side gets +1 Army Morale and +1 Staff Order.
///
/// # Errors
/// As [`lorraine_battle`].
pub fn what_next(number: u32, extra_artillery: bool) -> Result<ArmourBattlePlan, CampaignError> {
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
                Side::Us => 3,
                Side::German => 2,
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

/// A simple campaign (any ruleset): battles are added later between saved forces.
///
/// # Errors
/// [`CampaignError::Invalid`] for an empty name.
pub fn new_simple(
    name: &str,
    ruleset: RulesetId,
    players: Sides<String>,
) -> Result<Campaign, CampaignError> {
    Ok(Campaign {
        name: checked_name(name)?,
        ruleset,
        players,
        options: LorraineOptions::default(),
        battles: Vec::new(),
    })
}

/// A name the player typed: refused in their words ("the campaign name is 250 characters
/// long; at most 200 are allowed"), not a file's field path.
fn checked_name(name: &str) -> Result<String, CampaignError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(CampaignError::not_allowed(
            "the campaign needs a name: type one in Name",
        ));
    }
    super::verify::name(name)
        .map_err(|message| CampaignError::not_allowed(format!("the campaign name {message}")))?;
    Ok(name.to_string())
}
