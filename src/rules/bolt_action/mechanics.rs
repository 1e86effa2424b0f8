//! Bolt Action as mechanics: the order test, a shooting attack, close quarters and an assault
//! on a vehicle — their inputs, and their odds and rolls as reports built from `resolve` and
//! `close_quarters` (whose own file holds its two).

use std::borrow::Cow;

use crate::rules::RulesetId;
use crate::rules::card::Card;
use crate::rules::dice::Roller;
use crate::rules::resolution::{
    Choice, ChoiceTable, Distribution, Estimate, InputKind, InputSpec, InputValue, Inputs,
    Mechanic, Report, ResolveError, Value,
};
use crate::rules::words::amount;

use super::close_quarters::mechanics as cq;
use super::resolve::{
    self as ba, Attack, Facing, HitModifiers, OrderResult, OrderTest, TargetProfile, VehicleDamage,
};
use super::unit_fire::UnitFire;
use super::{Quality, UnitProfile, Weapon, rulings};

const ID: RulesetId = RulesetId::BoltAction;

/// The mechanics, in menu order.
pub static MECHANICS: [Mechanic; 4] = [
    Mechanic::new(
        ID,
        "order_test",
        "order test",
        order_inputs,
        order_odds,
        order_roll,
    )
    .with_rulings(rulings::ORDER_TEST)
    .with_pools(&["order", "fubar"])
    .needing_flag(),
    Mechanic::new(
        ID,
        "shooting",
        "shooting",
        shooting_inputs,
        shooting_odds,
        shooting_roll,
    )
    .with_rulings(rulings::SHOOTING)
    .with_pools(&[
        "shots",
        "to_hit",
        "follow_up",
        "he_hits",
        "damage",
        "damage_results",
        "pins",
        "fire_check",
    ]),
    Mechanic::new(
        ID,
        "close_quarters",
        "close quarters",
        cq::close_quarters_inputs,
        cq::close_quarters_odds,
        cq::close_quarters_roll,
    )
    .with_rulings(rulings::CLOSE_QUARTERS)
    .with_pools(cq::CLOSE_QUARTERS_POOLS)
    .needing_flag(),
    Mechanic::new(
        ID,
        "vehicle_assault",
        "assault on a vehicle",
        cq::vehicle_assault_inputs,
        cq::vehicle_assault_odds,
        cq::vehicle_assault_roll,
    )
    .with_rulings(rulings::VEHICLE_ASSAULT)
    .with_pools(cq::VEHICLE_ASSAULT_POOLS)
    .needing_flag(),
];

fn any_unit(card: &Card) -> bool {
    matches!(card, Card::BoltAction(_))
}

/// The troop quality; `None` ("As the unit") takes the chosen unit's.
pub(super) const QUALITIES: ChoiceTable<Option<Quality>> = ChoiceTable(&[
    (Choice::new("unit", "As the unit"), None),
    (
        Choice::new("inexperienced", "Inexperienced"),
        Some(Quality::Inexperienced),
    ),
    (Choice::new("regular", "Regular"), Some(Quality::Regular)),
    (Choice::new("veteran", "Veteran"), Some(Quality::Veteran)),
]);

/// The officer lending his bonus, by the rank key the morale table lists.
pub(super) const OFFICERS: ChoiceTable<Option<&str>> = ChoiceTable(&[
    (Choice::new("none", "None"), None),
    (
        Choice::new("second_lieutenant", "2nd Lieutenant (+1)").alias(&["2nd-lt"]),
        Some("second_lieutenant"),
    ),
    (
        Choice::new("first_lieutenant", "1st Lieutenant (+2)").alias(&["1st-lt"]),
        Some("first_lieutenant"),
    ),
    (Choice::new("captain", "Captain (+3)"), Some("captain")),
    (Choice::new("major", "Major (+4)"), Some("major")),
]);

/// The target's cover, as the sheet's hit modifiers take it: (soft, hard).
const COVERS: ChoiceTable<(bool, bool)> = ChoiceTable(&[
    (Choice::new("none", "None"), (false, false)),
    (
        Choice::new("soft", "Soft cover (−1)").flag(&["soft-cover"]),
        (true, false),
    ),
    (
        Choice::new("hard", "Hard cover (−2)").flag(&["hard-cover"]),
        (false, true),
    ),
]);

const FACINGS: ChoiceTable<Facing> = ChoiceTable(&[
    (Choice::new("front", "Front"), Facing::Front),
    (
        Choice::new("side", "Side or top (+1 pen)").flag(&["side", "top"]),
        Facing::SideOrTop,
    ),
    (
        Choice::new("rear", "Rear (+2 pen)").flag(&["rear"]),
        Facing::Rear,
    ),
]);

pub(super) fn unit_input(label: &'static str, help: &'static str) -> InputSpec {
    InputSpec::card("unit", label, help, any_unit)
        .optional()
        .flag_aliases(&["shooter"])
}

pub(super) fn pins_input(help: &'static str) -> InputSpec {
    InputSpec::count("pins", "Pins", help, 0, 12, 0)
}

fn order_inputs() -> Vec<InputSpec> {
    vec![
        unit_input(
            "Unit",
            "The unit taking the test: its quality, unless Quality says otherwise.",
        ),
        QUALITIES.input(
            "quality",
            "Quality",
            "Morale 8 (Inexperienced), 9 (Regular), 10 (Veteran); as the unit by default.",
            None,
        ),
        pins_input("−1 morale per pin."),
        OFFICERS.input(
            "officer",
            "Officer",
            "An officer lending his morale bonus.",
            None,
        ),
    ]
}

/// The weapon choice that fires the whole unit: every model its own weapon
/// ([`super::unit_fire`]).
pub(super) const UNIT_FIRE: &str = "unit";

/// The weapons chart as choices; "" takes the unit's first weapon, [`UNIT_FIRE`] every one.
fn weapon_choices() -> Vec<Choice> {
    let mut choices = vec![
        Choice::new("", "(the unit's first weapon)"),
        Choice::new(UNIT_FIRE, "(the whole unit: every model its weapon)"),
    ];
    if let Some(t) = super::tables() {
        choices.extend(
            t.weapons
                .iter()
                .map(|w| Choice::new(w.name.as_str(), w.name.as_str())),
        );
    }
    choices
}

fn shooting_inputs() -> Vec<InputSpec> {
    let toggle = InputSpec::toggle;
    vec![
        unit_input("Firing unit", "Its quality and, unless a weapon is chosen, its first weapon."),
        InputSpec {
            kind: InputKind::Choice(Cow::Owned(weapon_choices())),
            ..InputSpec::choice("weapon", "Weapon", "A weapon from the chart.", &[], "")
        },
        InputSpec::count("firers", "Models firing", "Models firing the weapon; for the whole unit, its models left.", 1, 50, 1),
        toggle("he", "Fire HE", "High explosive: the weapon's HE value and the HE chart; mortars and howitzers always fire HE.")
            .house(rulings::HE_RULING),
        pins_input("−1 to hit per pin."),
        toggle("point_blank", "Point blank", "+1 to hit."),
        toggle("long_range", "Long range", "−1 to hit; −1 penetration for heavy weapons against armour."),
        toggle("inexperienced", "Inexperienced firer", "−1 to hit (automatic for an inexperienced unit)."),
        toggle("moving", "Firing on the move", "−1 to hit."),
        toggle("target_down", "Target down", "Down infantry or artillery: −1 to hit."),
        toggle("small_unit", "Small unit", "−1 to hit."),
        COVERS.input("cover", "Target cover", "Soft −1, hard −2 to hit.", (false, false)),
        InputSpec::card("target", "Target unit", "Its damage value, armour and open top.", any_unit)
            .optional(),
        InputSpec::count("damage_value", "Damage value", "The target's damage value (overrides the unit's); 0 = the unit's.", 0, 12, 0),
        toggle("armoured", "Armoured", "The target rolls on the damage results table."),
        toggle("open_topped", "Open-topped", "+1 on damage results from indirect fire."),
        FACINGS.input("facing", "Hit on", "Side or top +1, rear +2 penetration (heavy weapons).", Facing::Front),
        toggle("massive_damage", "Massive Damage", "Two damage results per damaging hit.")
            .house(rulings::DAMAGE_RESULTS_RULING),
        toggle("indirect", "Indirect fire", "Automatic for indirect-fire weapons such as mortars."),
        toggle("immobilised", "Already immobilised", "Another Immobilised knocks the vehicle out."),
        target_pins_input(),
        target_quality_input(),
    ]
}

pub(super) fn target_pins_input() -> InputSpec {
    InputSpec::count(
        "target_pins",
        "Pins on the target",
        "Pins the vehicle already carries: they count against its On Fire morale check.",
        0,
        12,
        0,
    )
    .house(rulings::VEHICLE_RESULTS_RULING)
}

pub(super) fn target_quality_input() -> InputSpec {
    QUALITIES.input(
        "target_quality",
        "Target quality",
        "The target's troop quality (its morale for checks); as the target unit, or Regular without one.",
        None,
    )
}

pub(super) fn unit<'a>(
    inputs: &'a Inputs,
    key: &'static str,
) -> Result<Option<&'a UnitProfile>, ResolveError> {
    inputs.card_as(key, "Bolt Action", |c| match c {
        Card::BoltAction(u) => Some(u),
        _ => None,
    })
}
/// The quality chosen under `quality_key`, else that of the card under `unit_key`.
pub(super) fn quality_from(
    inputs: &Inputs,
    quality_key: &'static str,
    unit_key: &'static str,
) -> Result<Option<Quality>, ResolveError> {
    Ok(match QUALITIES.read(inputs, quality_key)? {
        Some(quality) => Some(quality),
        None => unit(inputs, unit_key)?.map(|u| u.quality),
    })
}

pub(super) fn quality(inputs: &Inputs) -> Result<Quality, ResolveError> {
    quality_from(inputs, "quality", "unit")?.ok_or_else(|| {
        ResolveError::invalid(
            "quality",
            "give the troop quality (inexperienced, regular, veteran) or choose the unit",
        )
    })
}

pub(super) fn order_test(inputs: &Inputs) -> Result<OrderTest, ResolveError> {
    Ok(OrderTest {
        quality: quality(inputs)?,
        pins: inputs.count_u32("pins"),
        officer: OFFICERS.read(inputs, "officer")?.map(str::to_string),
        modifier: 0,
    })
}

pub(super) fn order_label(o: &OrderResult) -> String {
    match o {
        OrderResult::Passed => "passed".into(),
        OrderResult::Failed => "failed".into(),
        OrderResult::Fubar { result } => format!("FUBAR: {result}"),
    }
}

fn order_report(title: String) -> Report {
    Report::ruled(ID, "order_test", title, rulings::ORDER_TEST)
}
fn order_odds(inputs: &Inputs) -> Result<Report, ResolveError> {
    let test = order_test(inputs)?;
    let odds = ba::order_test_odds(&test)?;
    let mut r = order_report(format!(
        "Order test: 2d6 at or under {} (double six: FUBAR)",
        odds.target
    ));
    r.value(
        "quality",
        "Quality",
        Value::Text(test.quality.label().to_string()),
    );
    r.count("target", "Pass on 2d6 at or under", odds.target);
    r.chance("p_pass", "P(pass)", odds.p_pass());
    r.chance("p_fubar", "P(FUBAR)", odds.p_fubar());
    r.dist(Distribution::new(
        "outcome",
        "Result",
        &odds.outcome,
        order_label,
    ));
    r.dist(Distribution::new(
        "fubar_results",
        "FUBAR chart (given a FUBAR)",
        &odds.fubar_results(),
        Clone::clone,
    ));
    r.mark("target");
    r.mark("fubar_results");
    Ok(r)
}

fn order_roll(inputs: &Inputs, roller: &mut Roller) -> Result<Report, ResolveError> {
    let test = order_test(inputs)?;
    let roll = ba::roll_order_test(&test, roller)?;
    let mut r = order_report(format!("Order test ({})", test.quality.label()));
    r.dice("order test (2d6)", &roll.dice);
    if let Some(record) = &roll.fubar_die {
        r.dice("FUBAR chart", record);
    }
    r.count("total", "Total", roll.total);
    r.count("target", "Needed at or under", roll.target);
    r.value(
        "passed",
        "Passed",
        Value::Flag(roll.outcome == OrderResult::Passed),
    );
    r.result(format!(
        "{} against {}: {}",
        roll.total,
        roll.target,
        order_label(&roll.outcome)
    ));
    Ok(r)
}

/// The chart's weapon, or the unit's first.
fn weapon(inputs: &Inputs) -> Result<&'static Weapon, ResolveError> {
    let tables = super::tables().ok_or(ResolveError::NoData {
        ruleset: "Bolt Action",
    })?;
    let name = match (inputs.choice("weapon"), unit(inputs, "unit")?) {
        ("", Some(u)) => u.weapons.first().map(String::as_str).ok_or_else(|| {
            ResolveError::invalid("weapon", format!("{} carries no weapon; name one", u.name))
        })?,
        ("", None) => {
            return Err(ResolveError::invalid(
                "weapon",
                "choose a weapon from the chart, or the firing unit",
            ));
        }
        (name, _) => name,
    };
    tables
        .weapon(name)
        .ok_or_else(|| ResolveError::invalid("weapon", format!("no weapon '{name}' on the chart")))
}

pub(super) fn target(inputs: &Inputs) -> Result<TargetProfile, ResolveError> {
    let damage_value = u8::try_from(inputs.count("damage_value")).unwrap_or(0);
    let mut target = match (unit(inputs, "target")?, damage_value) {
        (Some(t), _) => TargetProfile::of(t)?,
        (None, dv) if dv > 0 => TargetProfile {
            damage_value: dv,
            armoured: false,
            open_topped: false,
            morale: 0,
        },
        (None, _) => {
            return Err(ResolveError::invalid(
                "target",
                "choose the target unit, or give its damage value",
            ));
        }
    };
    if damage_value > 0 {
        target.damage_value = damage_value;
    }
    target.armoured |= inputs.flag("armoured");
    target.open_topped |= inputs.flag("open_topped");
    target.morale = ba::morale_of(target_quality(inputs)?)?;
    Ok(target)
}

/// The target's quality: as chosen, else the target unit's, else Regular.
pub(super) fn target_quality(inputs: &Inputs) -> Result<Quality, ResolveError> {
    Ok(quality_from(inputs, "target_quality", "target")?.unwrap_or(Quality::Regular))
}

/// The attack the inputs describe (the battle replays a roll's faces through it).
pub(super) fn attack(inputs: &Inputs) -> Result<Attack<'static>, ResolveError> {
    let quality = unit(inputs, "unit")?.map(|u| u.quality);
    let mut attack = Attack::new(weapon(inputs)?, target(inputs)?);
    attack.firers = inputs.count_u32("firers");
    // A mortar fires HE whatever is asked (`Attack::new` knows); the toggle adds HE for
    // guns that can fire either.
    attack.high_explosive |= inputs.flag("he");
    let (soft_cover, hard_cover) = COVERS.read(inputs, "cover")?;
    attack.hit = HitModifiers {
        point_blank: inputs.flag("point_blank"),
        pins: inputs.count_u32("pins"),
        long_range: inputs.flag("long_range"),
        inexperienced: inputs.flag("inexperienced") || quality == Some(Quality::Inexperienced),
        on_the_move: inputs.flag("moving"),
        target_down: inputs.flag("target_down"),
        small_unit: inputs.flag("small_unit"),
        soft_cover,
        hard_cover,
    };
    attack.facing = FACINGS.read(inputs, "facing")?;
    attack.massive_damage = inputs.flag("massive_damage");
    attack.indirect |= inputs.flag("indirect");
    attack.already_immobilised = inputs.flag("immobilised");
    attack.target_pins = inputs.count_u32("target_pins");
    Ok(attack)
}

/// The whole unit's fire the inputs describe: each weapon of the firing unit fired by the
/// models that carry it out of `firers` models left, with the same modifiers.
pub(super) fn unit_fire(inputs: &Inputs) -> Result<UnitFire<'static>, ResolveError> {
    let unit = unit(inputs, "unit")?.ok_or_else(|| {
        ResolveError::invalid(
            "unit",
            "choose the firing unit: its whole fire is every model's weapon",
        )
    })?;
    let models = inputs.count_u32("firers");
    let loadout = super::unit_fire::loadout(unit, models);
    if loadout.is_empty() {
        return Err(ResolveError::invalid(
            "weapon",
            format!("{} carries no weapon on the chart; name one", unit.name),
        ));
    }
    let mut single = inputs.clone();
    single.set("weapon", InputValue::Choice(""));
    let template = attack(&single)?;
    let asked_he = inputs.flag("he");
    let attacks = loadout
        .into_iter()
        .map(|(weapon, firers)| {
            let mut attack = Attack::new(weapon, template.target);
            attack.firers = firers;
            attack.high_explosive |= asked_he && weapon.he.is_some();
            attack.indirect |= template.indirect;
            Attack {
                hit: template.hit,
                facing: template.facing,
                massive_damage: template.massive_damage,
                already_immobilised: template.already_immobilised,
                target_pins: template.target_pins,
                ..attack
            }
        })
        .collect();
    Ok(UnitFire { attacks })
}

/// "8 × Rifle, 1 × Light Machine Gun (LMG)".
fn loadout_words(fire: &UnitFire) -> String {
    fire.attacks
        .iter()
        .map(|a| format!("{} × {}", a.firers, a.weapon.name))
        .collect::<Vec<_>>()
        .join(", ")
}

fn unit_fire_title(inputs: &Inputs, fire: &UnitFire) -> String {
    let name = inputs
        .card("unit")
        .map_or_else(|| "The unit".to_string(), |c| c.label());
    let damage_value = fire.attacks.first().map_or(0, |a| a.target.damage_value);
    format!(
        "{name}: {} at {} (damage value {damage_value}+)",
        loadout_words(fire),
        target_name(inputs)
    )
}

/// The readings a unit's fire rests on: each weapon's, and that it fires as a whole.
fn unit_fire_rulings(fire: &UnitFire) -> Result<Vec<crate::rules::HouseDefault>, ResolveError> {
    let mut used = vec![rulings::UNIT_FIRE_RULING];
    for attack in &fire.attacks {
        for ruling in used_rulings(&attack.numbers()?, attack) {
            if !used.contains(&ruling) {
                used.push(ruling);
            }
        }
    }
    if fire.attacks.first().is_some_and(|a| a.target.armoured) {
        used.push(rulings::ARMOUR_PINS_RULING);
    }
    Ok(used)
}

fn unit_fire_odds(inputs: &Inputs) -> Result<Report, ResolveError> {
    let fire = unit_fire(inputs)?;
    let odds = fire.odds()?;
    let mut r = Report::new(ID, "shooting", unit_fire_title(inputs, &fire));
    r.house_defaults = unit_fire_rulings(&fire)?;
    for attack in &fire.attacks {
        let n = attack.numbers()?;
        r.note(format!(
            "{} × {} ({}): to hit {}; damage {}.",
            attack.firers,
            attack.weapon.name,
            n.shots_words(),
            n.to_hit_words(),
            n.damage_words(attack.target.damage_value)
        ));
    }
    let hits = odds.tally.map(|t| t.hits);
    let damaging = odds.tally.map(|t| t.damaging);
    let armoured = odds.vehicle.is_some();
    r.value(
        "expected_hits",
        "Expected hits (the whole unit)",
        Value::Number(hits.expectation(|&n| f64::from(n))),
    );
    r.value(
        "expected_casualties",
        if armoured {
            "Expected damaging hits"
        } else {
            "Expected casualties"
        },
        Value::Number(damaging.expectation(|&n| f64::from(n))),
    );
    r.dist(Distribution::counts("hits", "Hits", &hits, |n| {
        n.to_string()
    }));
    r.dist(Distribution::counts(
        "damaging_hits",
        if armoured {
            "Damaging hits"
        } else {
            "Casualties"
        },
        &damaging,
        |n| n.to_string(),
    ));
    r.dist(Distribution::counts("pins", "Pins", &odds.pins, |n| {
        n.to_string()
    }));
    if let Some(vehicle) = &odds.vehicle {
        r.dist(Distribution::new(
            "vehicle_result",
            "Vehicle after the fire",
            &vehicle.map(|v| v.fate()),
            |f| f.words().to_string(),
        ));
        r.chance(
            "p_knocked_out",
            "P(knocked out)",
            vehicle.probability_where(|v| v.knocked_out.is_some()),
        );
        r.mark("pins");
    }
    if let Some(sampling) = odds.estimate {
        sampled(&mut r, sampling, &["expected_hits", "expected_casualties"]);
    }
    Ok(r)
}

fn unit_fire_roll(inputs: &Inputs, roller: &mut Roller) -> Result<Report, ResolveError> {
    let fire = unit_fire(inputs)?;
    let roll = fire.roll(roller)?;
    let mut r = Report::new(ID, "shooting", unit_fire_title(inputs, &fire));
    r.house_defaults = unit_fire_rulings(&fire)?;
    for (attack, weapon_roll) in fire.attacks.iter().zip(&roll.rolls) {
        for labelled in &weapon_roll.rolls {
            r.dice(
                format!(
                    "{} ({}): {}",
                    attack.weapon.name, attack.firers, labelled.label
                ),
                &labelled.record,
            );
        }
    }
    roll_totals(&mut r, roll.shots, roll.tally, roll.pins);
    for (attack, weapon_roll) in fire.attacks.iter().zip(&roll.rolls) {
        for applied in &weapon_roll.applied {
            r.result(format!(
                "{}: {}",
                attack.weapon.name,
                applied_words(applied)
            ));
        }
    }
    vehicle_after(
        &mut r,
        inputs,
        roll.vehicle.as_ref(),
        "Vehicle after the fire",
    );
    Ok(r)
}

fn vehicle_damage_label(d: &VehicleDamage) -> String {
    match d.second {
        None => d.first.label().to_string(),
        Some(second) => format!("{} + {}", d.first.label(), second.label()),
    }
}

/// The readings this attack rests on: a need past 6+, HE, damage results on armour.
fn used_rulings(n: &ba::AttackNumbers, attack: &Attack) -> Vec<crate::rules::HouseDefault> {
    [
        (n.need > 6, rulings::SEVEN_PLUS_RULING),
        (n.high_explosive, rulings::HE_RULING),
        (attack.target.armoured, rulings::DAMAGE_RESULTS_RULING),
        (attack.target.armoured, rulings::VEHICLE_RESULTS_RULING),
    ]
    .into_iter()
    .filter_map(|(used, ruling)| used.then_some(ruling))
    .collect()
}

/// "damage result: On Fire — morale check 8 against 7: failed".
pub(super) fn applied_words(applied: &ba::AppliedResult) -> String {
    let mut line = format!("damage result: {}", applied.effect.label());
    if applied.after_knock_out {
        line.push_str(" (already knocked out: one more pin only)");
    }
    if let Some(check) = applied.check {
        let verdict = if check.passed {
            "passed, the fire is out"
        } else {
            "failed, the crew abandon it"
        };
        line.push_str(&format!(
            " — morale check {} against {}: {verdict}",
            check.total, check.target
        ));
    }
    line
}

/// The target as answers name it: its card, or "The target".
pub(super) fn target_name(inputs: &Inputs) -> String {
    match inputs.card("target") {
        Some(t) => t.label(),
        None => "The target".to_string(),
    }
}

fn shooting_title(inputs: &Inputs, attack: &Attack, shots: &str) -> String {
    let against = match inputs.card("target") {
        Some(t) => format!(
            "{} (damage value {}+)",
            t.label(),
            attack.target.damage_value
        ),
        None => format!("a target with damage value {}+", attack.target.damage_value),
    };
    format!(
        "{} × {} ({shots}) at {against}",
        attack.firers, attack.weapon.name
    )
}

fn shooting_odds(inputs: &Inputs) -> Result<Report, ResolveError> {
    if inputs.choice("weapon") == UNIT_FIRE {
        return unit_fire_odds(inputs);
    }
    let attack = attack(inputs)?;
    let odds = ba::attack_odds(&attack)?;
    let n = odds.numbers;
    let mut r = Report::new(
        ID,
        "shooting",
        shooting_title(inputs, &attack, &n.shots_words()),
    );
    r.house_defaults = used_rulings(&n, &attack);
    r.value("need", "To-hit need", Value::Target(i64::from(n.need)));
    r.note(format!("To hit: {}.", n.to_hit_words()));
    r.value(
        "damage",
        "Damage",
        Value::Text(n.damage_words(attack.target.damage_value)),
    );
    r.value(
        "high_explosive",
        "High explosive",
        Value::Flag(n.high_explosive),
    );
    r.count("pen", "Penetration", n.pen);
    r.chance(
        "p_hit_per_shot",
        "P(hit) per shot",
        odds.hit.probability(&true),
    );
    r.chance(
        "p_damage_per_hit",
        "P(damage) per hit",
        odds.damage_roll.probability(&true),
    );
    r.dist(Distribution::counts("shots", "Shots", &odds.shots, |n| {
        n.to_string()
    }));
    r.dist(Distribution::counts("hits", "Hits", &odds.hits(), |n| {
        n.to_string()
    }));
    r.dist(Distribution::counts(
        "damaging_hits",
        "Damaging hits",
        &odds.damaging_hits(),
        |n| n.to_string(),
    ));
    r.dist(Distribution::counts("pins", "Pins", &odds.pins, |n| {
        n.to_string()
    }));
    if let Some(per_hit) = &odds.per_damaging_hit {
        let roll = if n.superficial {
            "superficial, D6−3"
        } else {
            "full, D6"
        };
        let bonus = if n.result_bonus > 0 { " +1" } else { "" };
        r.dist(Distribution::new(
            "per_damaging_hit",
            format!("Each damaging hit ({roll}{bonus})"),
            per_hit,
            vehicle_damage_label,
        ));
    }
    if let Some(fate) = odds.vehicle_fate() {
        r.dist(Distribution::new(
            "vehicle_result",
            "Vehicle after the attack",
            &fate,
            |f| f.words().to_string(),
        ));
        r.chance("p_knocked_out", "P(knocked out)", odds.p_knocked_out());
        r.mark("p_knocked_out");
        r.mark("pins");
    }
    if let Some(sampling) = odds.estimate {
        // Per shot the odds stay exact; the totals over the whole attack are sampled.
        sampled(&mut r, sampling, &["shots"]);
    }
    Ok(r)
}

fn shooting_roll(inputs: &Inputs, roller: &mut Roller) -> Result<Report, ResolveError> {
    if inputs.choice("weapon") == UNIT_FIRE {
        return unit_fire_roll(inputs, roller);
    }
    let attack = attack(inputs)?;
    let roll = ba::roll_attack(&attack, roller)?;
    let mut r = Report::new(
        ID,
        "shooting",
        shooting_title(inputs, &attack, &roll.numbers.shots_words()),
    );
    r.house_defaults = used_rulings(&roll.numbers, &attack);
    for labelled in &roll.rolls {
        r.dice(labelled.label, &labelled.record);
    }
    roll_totals(&mut r, roll.shots, roll.tally, roll.pins);
    for applied in &roll.applied {
        r.result(applied_words(applied));
    }
    vehicle_after(
        &mut r,
        inputs,
        roll.vehicle.as_ref(),
        "Vehicle after the attack",
    );
    Ok(r)
}

/// What a shooting attack and a unit's fire both total over the whole attack: sampled
/// together, as the trials roll the attack whole.
const ATTACK_TOTALS: [&str; 5] = [
    "hits",
    "damaging_hits",
    "pins",
    "vehicle_result",
    "p_knocked_out",
];

/// Marks the attack totals and the values under `own` as counted from the seeded trials of
/// `sampling`, and says so.
fn sampled(r: &mut Report, sampling: ba::Sampling, own: &[&str]) {
    r.note(format!("Odds are an {}.", sampling.describe()));
    let keys: Vec<&str> = ATTACK_TOTALS.iter().chain(own).copied().collect();
    r.estimated(
        Estimate {
            trials: sampling.trials,
            seed: sampling.seed,
            std_error_max: sampling.std_error(0.5),
        },
        &keys,
    );
}

/// A roll's shots, hits, damaging hits and pins: values and the result's first line.
fn roll_totals(r: &mut Report, shots: u32, tally: ba::AttackTally, pins: u32) {
    r.count("shots", "Shots", shots);
    r.count("hits", "Hits", tally.hits);
    r.count("damaging_hits", "Damaging hits", tally.damaging);
    r.count("pins", "Pins", pins);
    r.result(format!(
        "{}, {}, {} damaging, {}",
        amount(u64::from(shots), "shots"),
        amount(u64::from(tally.hits), "hits"),
        tally.damaging,
        amount(u64::from(pins), "pins")
    ));
}

/// An armoured target's state after a roll, as values and the result's last line.
fn vehicle_after(
    r: &mut Report,
    inputs: &Inputs,
    vehicle: Option<&super::vehicle_damage::VehicleAfter>,
    label: &str,
) {
    let Some(vehicle) = vehicle else {
        return;
    };
    r.value("vehicle_state", label, Value::Text(vehicle.words()));
    r.value(
        "knocked_out",
        "Knocked out",
        Value::Flag(vehicle.knocked_out.is_some()),
    );
    r.result(format!("{}: {}", target_name(inputs), vehicle.words()));
}
