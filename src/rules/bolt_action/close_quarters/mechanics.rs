//! Close quarters as mechanics: infantry against infantry, and infantry assaulting a vehicle —
//! their inputs, and their odds and rolls as reports built from [`super`].

use num_rational::BigRational;

use super::{
    ASSAULT_POOLS, AssaultEnd, CloseQuarters, FIGHT_POOLS, FightEnd, FightOdds, Fighters,
    MAX_MODELS, VehicleAssault, Winner, as_weights, assault_odds, chance, fight_odds, roll_assault,
    roll_fight,
};
use crate::rules::bolt_action::UnitProfile;
use crate::rules::bolt_action::mechanics::{
    OFFICERS, QUALITIES, order_label, order_test, pins_input, quality_from, target, target_name,
    target_pins_input, target_quality, target_quality_input, unit,
};
use crate::rules::bolt_action::rulings;
use crate::rules::bolt_action::tables::{Quality, VehicleMotion};
use crate::rules::card::Card;
use crate::rules::dice::{Dist, Roller};
use crate::rules::resolution::{
    Choice, ChoiceTable, Distribution, InputSpec, InputValue, Inputs, Report, ResolveError, Value,
};
use crate::rules::{HouseDefault, RulesetId};

/// The pools of close quarters' rolls, for the mechanic's list.
pub const CLOSE_QUARTERS_POOLS: &[&str] = FIGHT_POOLS;
/// The pools of an assault on a vehicle.
pub const VEHICLE_ASSAULT_POOLS: &[&str] = ASSAULT_POOLS;

fn report(mechanic: &'static str, title: String, rulings: &[HouseDefault]) -> Report {
    Report::ruled(RulesetId::BoltAction, mechanic, title, rulings)
}

/// Infantry or artillery crews: what fights in close quarters.
pub fn on_foot(card: &Card) -> bool {
    matches!(card, Card::BoltAction(u) if !u.category.is_vehicle())
}

/// Anything with an engine.
pub fn vehicle(card: &Card) -> bool {
    matches!(card, Card::BoltAction(u) if u.category.is_vehicle())
}

fn models_input(key: &'static str, label: &'static str, help: &'static str) -> InputSpec {
    InputSpec::count(key, label, help, 1, i64::from(MAX_MODELS), 5)
}

fn quality_input(key: &'static str, help: &'static str) -> InputSpec {
    QUALITIES.input(key, "Quality", help, None)
}

pub fn close_quarters_inputs() -> Vec<InputSpec> {
    vec![
        InputSpec::card(
            "unit",
            "Assaulting unit",
            "Its quality, which sets the defenders' damage rolls against it.",
            on_foot,
        )
        .optional(),
        quality_input(
            "quality",
            "The assaulting unit's quality: as the unit, or Regular without one.",
        ),
        models_input(
            "models",
            "Assaulting models",
            "Models in the assaulting unit: one die each per round.",
        ),
        InputSpec::card(
            "target",
            "Defending unit",
            "Its quality, which sets the attackers' damage rolls against it.",
            on_foot,
        )
        .optional(),
        InputSpec {
            label: "Defending quality",
            ..quality_input(
                "target_quality",
                "The defending unit's quality: as the unit, or Regular without one.",
            )
        },
        models_input(
            "target_models",
            "Defending models",
            "Models in the defending unit: one die each per round.",
        ),
    ]
}

/// The side `quality_key`/`unit_key` describes, Regular without a quality or a unit.
fn side(
    inputs: &Inputs,
    quality_key: &'static str,
    unit_key: &'static str,
    models: &str,
) -> Result<Fighters, ResolveError> {
    Ok(Fighters {
        models: inputs.count_u32(models),
        quality: quality_from(inputs, quality_key, unit_key)?.unwrap_or(Quality::Regular),
    })
}

/// The fight the inputs describe (the battle replays a roll's faces through it).
pub(crate) fn fight(inputs: &Inputs) -> Result<CloseQuarters, ResolveError> {
    Ok(CloseQuarters {
        attackers: side(inputs, "quality", "unit", "models")?,
        defenders: side(inputs, "target_quality", "target", "target_models")?,
    })
}

/// "8 Regular (Regular Infantry Squad) assault 5 Veteran (Veteran Infantry Squad)".
fn fight_title(inputs: &Inputs, fight: &CloseQuarters) -> String {
    let named = |side: Fighters, key: &str| {
        let card = inputs.label_of(key);
        let card = if card.is_empty() {
            String::new()
        } else {
            format!(" ({card})")
        };
        format!("{} {}{card}", side.models, side.quality.label())
    };
    format!(
        "Close quarters: {} assault {}",
        named(fight.attackers, "unit"),
        named(fight.defenders, "target")
    )
}

/// Exact chances as a report distribution, with a note when the fractions had to be rounded.
fn exact_distribution<K: Ord + Clone>(
    r: &mut Report,
    key: &str,
    label: &str,
    chances: &[(K, BigRational)],
    words: impl Fn(&K) -> String,
) -> Result<(), ResolveError> {
    let probabilities: Vec<BigRational> = chances.iter().map(|(_, p)| p.clone()).collect();
    let (weights, _, exact) = as_weights(&probabilities);
    let dist = Dist::from_weights(chances.iter().map(|(k, _)| k.clone()).zip(weights))?;
    r.dist(Distribution::new(key, label, &dist, words));
    if !exact {
        r.note(format!(
            "{label}: counted exactly, but the fractions run past 38 digits, so the weights are shown over 2^64."
        ));
    }
    Ok(())
}

pub fn close_quarters_odds(inputs: &Inputs) -> Result<Report, ResolveError> {
    let fight = fight(inputs)?;
    let odds: FightOdds = fight_odds(&fight)?;
    let n = odds.numbers;
    let mut r = report(
        "close_quarters",
        fight_title(inputs, &fight),
        rulings::CLOSE_QUARTERS,
    );
    r.value(
        "attackers_need",
        "Attackers damage on",
        Value::Target(i64::from(n.attackers_need)),
    );
    r.value(
        "defenders_need",
        "Defenders damage on",
        Value::Target(i64::from(n.defenders_need)),
    );
    r.chance(
        "p_attackers_win",
        "P(attackers win)",
        chance(&odds.p_wins(Winner::Attackers)),
    );
    r.chance(
        "p_defenders_win",
        "P(defenders win)",
        chance(&odds.p_wins(Winner::Defenders)),
    );
    r.chance(
        "p_first_round",
        "P(decided in the first round)",
        chance(&odds.first_round),
    );
    r.value(
        "expected_rounds",
        "Rounds on average",
        Value::Number(chance(&odds.expected_rounds)),
    );
    let ends: Vec<(FightEnd, BigRational)> =
        odds.ends.iter().map(|(e, p)| (*e, p.clone())).collect();
    exact_distribution(
        &mut r,
        "result",
        "Result (the loser is destroyed)",
        &ends,
        |e| e.words(),
    )?;
    r.note("Each model rolls one die a round; the attackers strike first, then the defenders' survivors.");
    Ok(r)
}

pub fn close_quarters_roll(inputs: &Inputs, roller: &mut Roller) -> Result<Report, ResolveError> {
    let fight = fight(inputs)?;
    let roll = roll_fight(&fight, roller)?;
    let mut r = report(
        "close_quarters",
        fight_title(inputs, &fight),
        rulings::CLOSE_QUARTERS,
    );
    for labelled in &roll.rolls {
        r.dice(labelled.label, &labelled.record);
    }
    for (i, round) in roll.rounds.iter().enumerate() {
        r.result(format!(
            "round {}: {} attackers cause {}, {} defenders left strike back for {}",
            i + 1,
            round.attackers,
            round.dead,
            round.defenders - round.dead,
            round.struck_back
        ));
    }
    r.count("rounds", "Rounds", roll.rounds.len() as i64);
    r.value("winner", "Winner", Value::Text(roll.end.words()));
    r.count("left", "Winner's models left", roll.end.left);
    r.result(format!(
        "{}: the losers surrender and are destroyed",
        roll.end.words()
    ));
    Ok(r)
}

// ---------------------------------------------------------------------------------------
// Assaulting a vehicle
// ---------------------------------------------------------------------------------------

/// Anti-tank weapons: `None` reads them from the unit's weapons.
const ANTI_TANK: ChoiceTable<Option<bool>> = ChoiceTable(&[
    (Choice::new("unit", "As the unit's weapons"), None),
    (Choice::new("yes", "Yes"), Some(true)),
    (Choice::new("no", "No"), Some(false)),
]);

const MOTION: ChoiceTable<VehicleMotion> = ChoiceTable(&[
    (
        Choice::new("still", "Stood still, halted or immobilised (4+)"),
        VehicleMotion::Still,
    ),
    (
        Choice::new("advanced", "Advanced (6)"),
        VehicleMotion::Advanced,
    ),
    (
        Choice::new("ran", "Ran (cannot be assaulted)"),
        VehicleMotion::Ran,
    ),
]);

pub fn vehicle_assault_inputs() -> Vec<InputSpec> {
    let toggle = InputSpec::toggle;
    vec![
        InputSpec::card(
            "unit",
            "Assaulting unit",
            "Its quality and whether it carries anti-tank weapons.",
            on_foot,
        )
        .optional(),
        quality_input(
            "quality",
            "Morale for the order test: as the unit, or Regular without one.",
        ),
        models_input(
            "models",
            "Assaulting models",
            "Each rolls to hit the vehicle.",
        ),
        pins_input("−1 morale per pin in the order test."),
        OFFICERS.input(
            "officer",
            "Officer",
            "An officer lending his morale bonus.",
            None,
        ),
        ANTI_TANK.input(
            "anti_tank",
            "Anti-tank weapons",
            "With them: full damage and no −3 test. Without: superficial damage only, and a −3 order test against an enclosed armoured vehicle.",
            None,
        ),
        InputSpec::card(
            "target",
            "Vehicle",
            "Its damage value, armour and open top.",
            vehicle,
        )
        .optional(),
        InputSpec::count(
            "damage_value",
            "Damage value",
            "The vehicle's damage value (overrides the unit's); 0 = the unit's.",
            0,
            12,
            0,
        ),
        toggle(
            "armoured",
            "Armoured",
            "The vehicle rolls on the damage results table.",
        ),
        toggle(
            "open_topped",
            "Open-topped",
            "Destroyed if damaged, and no −3 test.",
        ),
        MOTION.input(
            "vehicle_move",
            "The vehicle",
            "How it moved this turn: sets the roll to hit.",
            VehicleMotion::Still,
        ),
        toggle(
            "immobilised",
            "Already immobilised",
            "Another Immobilised knocks it out.",
        ),
        target_pins_input(),
        target_quality_input(),
    ]
}

/// Whether the assaulting unit carries anti-tank weapons: as chosen, else by its weapons.
fn anti_tank(inputs: &Inputs, unit: Option<&UnitProfile>) -> Result<bool, ResolveError> {
    let rules = super::rules()?;
    Ok(match (ANTI_TANK.read(inputs, "anti_tank")?, unit) {
        (Some(chosen), _) => chosen,
        (None, None) => false,
        (None, Some(u)) => u.weapons.iter().any(|w| rules.is_anti_tank(w)),
    })
}

/// The assault the inputs describe (the battle replays a roll's faces through it).
pub(crate) fn assault(inputs: &Inputs) -> Result<VehicleAssault, ResolveError> {
    let mut test = order_test(&with_regular_fallback(inputs)?)?;
    test.modifier = 0;
    let mut vehicle = target(inputs)?;
    vehicle.morale = crate::rules::bolt_action::resolve::morale_of(target_quality(inputs)?)?;
    Ok(VehicleAssault {
        models: inputs.count_u32("models"),
        anti_tank: anti_tank(inputs, unit(inputs, "unit")?)?,
        test,
        vehicle,
        motion: MOTION.read(inputs, "vehicle_move")?,
        vehicle_pins: inputs.count_u32("target_pins"),
        already_immobilised: inputs.flag("immobilised"),
    })
}

/// The inputs with "as the unit" read as Regular when no unit is chosen.
fn with_regular_fallback(inputs: &Inputs) -> Result<Inputs, ResolveError> {
    let mut inputs = inputs.clone();
    if quality_from(&inputs, "quality", "unit")?.is_none() {
        inputs.set("quality", InputValue::Choice("regular"));
    }
    Ok(inputs)
}

fn assault_title(inputs: &Inputs, assault: &VehicleAssault) -> String {
    let unit = inputs.label_of("unit");
    let unit = if unit.is_empty() {
        "infantry".to_string()
    } else {
        unit
    };
    format!(
        "{} × {unit} assault {} (damage value {}+)",
        assault.models,
        target_name(inputs),
        assault.vehicle.damage_value
    )
}

fn assault_notes(r: &mut Report, assault: &VehicleAssault, test_target: Option<i32>) {
    match test_target {
        Some(target) => r.note(format!(
            "No anti-tank weapons against an enclosed armoured vehicle: an order test at −3 first (2d6 at or under {target})."
        )),
        None if !assault.anti_tank && !assault.vehicle.open_topped && assault.vehicle.armoured => {
            r.note("No anti-tank weapons: superficial damage only (d6 − 3).");
        }
        None => {}
    }
}

pub fn vehicle_assault_odds(inputs: &Inputs) -> Result<Report, ResolveError> {
    let assault = assault(inputs)?;
    let odds = assault_odds(&assault)?;
    let mut r = report(
        "vehicle_assault",
        assault_title(inputs, &assault),
        rulings::VEHICLE_ASSAULT,
    );
    r.value(
        "hit_need",
        "To hit",
        Value::Target(i64::from(odds.numbers.hit_need)),
    );
    r.value(
        "damage",
        "Damage",
        Value::Text(format!("d6 + hits ≥ {}", assault.vehicle.damage_value)),
    );
    if let Some(target) = odds.test_target {
        r.count("order_test_target", "Order test at or under", target);
    }
    r.chance(
        "p_knocked_out",
        "P(destroyed or knocked out)",
        odds.p_vehicle_lost(),
    );
    r.dist(Distribution::counts("hits", "Hits", &odds.hits, |n| {
        n.to_string()
    }));
    r.dist(Distribution::new(
        "result",
        "Result",
        &odds.ends,
        AssaultEnd::words,
    ));
    assault_notes(&mut r, &assault, odds.test_target);
    Ok(r)
}

pub fn vehicle_assault_roll(inputs: &Inputs, roller: &mut Roller) -> Result<Report, ResolveError> {
    let assault = assault(inputs)?;
    let roll = roll_assault(&assault, roller)?;
    let mut r = report(
        "vehicle_assault",
        assault_title(inputs, &assault),
        rulings::VEHICLE_ASSAULT,
    );
    if let Some(test) = &roll.test {
        r.dice("order test at −3 (2d6)", &test.dice);
        if let Some(fubar) = &test.fubar_die {
            r.dice("FUBAR chart", fubar);
        }
        r.result(format!(
            "order test: {} against {}: {}",
            test.total,
            test.target,
            order_label(&test.outcome)
        ));
    }
    for labelled in &roll.rolls {
        r.dice(labelled.label, &labelled.record);
    }
    let went_in = !matches!(roll.end, AssaultEnd::TestFailed | AssaultEnd::Fubar { .. });
    if went_in {
        r.count("hits", "Hits", roll.hits);
    }
    if let Some(total) = roll.damage_total {
        r.count("damage_total", "Damage roll (d6 + hits)", total);
    }
    r.value(
        "knocked_out",
        "Destroyed or knocked out",
        Value::Flag(roll.end.vehicle_lost()),
    );
    let state = match &roll.vehicle {
        Some(vehicle) => vehicle.words(),
        None => roll.end.words(),
    };
    r.result(format!("{}: {state}", target_name(inputs)));
    assault_notes(&mut r, &assault, roll.test.as_ref().map(|t| t.target));
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vehicle_that_ran_cannot_be_assaulted() {
        let mut inputs = Inputs::defaults(&vehicle_assault_inputs());
        inputs.set("damage_value", InputValue::Count(9));
        inputs.set("armoured", InputValue::Flag(true));
        inputs.set("vehicle_move", InputValue::Choice("ran"));
        assert!(matches!(
            vehicle_assault_odds(&inputs),
            Err(ResolveError::NoResult(why)) if why.contains("cannot be assaulted")
        ));
    }
}
