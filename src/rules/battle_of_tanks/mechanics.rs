//! Battle of Tanks as mechanics: a fire order (the fire rate split over one or more targets),
//! track repair and spotting — their inputs, and their odds and rolls as reports built from
//! `resolve`.

use crate::rules::RulesetId;
use crate::rules::card::Card;
use crate::rules::dice::Roller;
use crate::rules::resolution::{
    CardPick, Choice, ChoiceTable, Distribution, EntryField, InputKind, InputSpec, InputValue,
    Inputs, Mechanic, Report, ResolveError, Spelling, Value,
};
use crate::rules::words::amount;

use super::TankCard;
use super::resolve::{self as bot, Cover, FireSituation, FireTarget, PenetrationFace};
use super::rulings;

const ID: RulesetId = RulesetId::BattleOfTanks;

/// The three mechanics, in menu order.
pub static MECHANICS: [Mechanic; 3] = [
    Mechanic::new(ID, "fire", "fire", fire_inputs, fire_odds, fire_roll)
        .with_check(check_fire)
        .with_rulings(rulings::FIRE)
        .with_pools(&["to_hit", "penetration"]),
    Mechanic::new(
        ID,
        "repair",
        "repair",
        repair_inputs,
        repair_odds,
        repair_roll,
    )
    .with_rulings(rulings::REPAIR)
    .with_pools(&["repair"])
    .needing_flag(),
    Mechanic::new(
        ID,
        "spotting",
        "spotting",
        spotting_inputs,
        spotting_odds,
        spotting_roll,
    )
    .with_rulings(rulings::SPOTTING)
    .with_pools(&["spotting"])
    .needing_flag(),
];

fn any_tank(card: &Card) -> bool {
    matches!(card, Card::BattleOfTanks(_))
}

const COVERS: ChoiceTable<Cover> = ChoiceTable(&[
    (Choice::new("open", "Open"), Cover::Open),
    (
        Choice::new("light", "Light cover").flag(&["light-cover"]),
        Cover::Light,
    ),
    (
        Choice::new("heavy", "Heavy cover").flag(&["heavy-cover"]),
        Cover::Heavy,
    ),
]);

/// The most targets one fire order is split over in the window (the fire rate limits it
/// anyway).
const MAX_TARGETS: usize = 4;

const TARGET_FIELDS: &[EntryField] = &[
    EntryField {
        key: "shots",
        label: "Shots",
        help: "Shots at this target; 0 with one target fires the whole fire rate.",
        min: 0,
        max: 20,
        flag: None,
    },
    EntryField {
        key: "range_cm",
        label: "Range (cm)",
        help: "Distance checked against the firer's sight; 0 = not checked.",
        min: 0,
        max: 500,
        flag: Some("range"),
    },
    EntryField {
        key: "hit_points",
        label: "Hit points left",
        help: "0 = undamaged.",
        min: 0,
        // As wide as a card's hit points may be (a Tiger I has 1400).
        max: 10_000,
        flag: None,
    },
];

fn attacker_input(label: &'static str) -> InputSpec {
    InputSpec::card("attacker", label, "A Battle of Tanks tank.", any_tank).flag_aliases(&["tank"])
}

fn fire_inputs() -> Vec<InputSpec> {
    vec![
        attacker_input("Firing tank"),
        InputSpec {
            key: "target",
            label: "Target tank",
            help: "One or more targets; split the fire rate with Shots.",
            kind: InputKind::CardList {
                filter: any_tank,
                max: MAX_TARGETS,
                fields: TARGET_FIELDS,
            },
            default: InputValue::CardList(vec![Default::default()]),
            house_default: None,
            shown_when: None,
            spelling: Spelling::default(),
            refusal: None,
        },
        InputSpec::toggle("moving", "Firing on the move (Angriff)", "+1 to hit."),
        InputSpec::toggle(
            "ambush",
            "Ambush (Hinterhalt)",
            "−1 to hit; not on the move.",
        ),
        InputSpec::toggle(
            "target_moving",
            "Target moved this turn",
            "+1 to hit, like a moving firer (both moving +2).",
        )
        .house(rulings::MOVING_TARGET_RULING),
        COVERS.input(
            "cover",
            "Target cover",
            "Light cover +1, heavy cover +2 to hit.",
            Cover::Open,
        ),
        InputSpec::toggle(
            "hull_down",
            "Hull-down turret shot",
            "Target hull-down behind heavy cover, turret shot declared: no cover modifier, only T penetrates.",
        ),
        InputSpec::toggle(
            "hull_to_hull",
            "Hull to hull",
            "The tanks face each other hull to hull: only T penetrates.",
        ),
    ]
}

fn repair_inputs() -> Vec<InputSpec> {
    vec![attacker_input("Tank")]
}

fn spotting_inputs() -> Vec<InputSpec> {
    vec![
        attacker_input("Spotting tank"),
        COVERS.input(
            "cover",
            "Target cover",
            "Open ground is spotted automatically; as printed, light cover +2 and heavy cover +1 to the spotting value.",
            Cover::Open,
        )
        .house(rulings::SPOTTING_RULING),
    ]
}

fn tank<'a>(pick: &'a CardPick, key: &'static str) -> Result<&'a TankCard, ResolveError> {
    pick.as_card(key, "Battle of Tanks", |c| match c {
        Card::BattleOfTanks(t) => Some(t),
        _ => None,
    })
}
fn attacker<'a>(inputs: &'a Inputs, what: &str) -> Result<&'a TankCard, ResolveError> {
    tank(inputs.require_card("attacker", what)?, "attacker")
}

fn cover(inputs: &Inputs) -> Result<Cover, ResolveError> {
    COVERS.read(inputs, "cover")
}

fn situation(inputs: &Inputs) -> Result<FireSituation, ResolveError> {
    let hull_down = inputs.flag("hull_down");
    Ok(FireSituation {
        moving: inputs.flag("moving"),
        ambush: inputs.flag("ambush"),
        target_moving: inputs.flag("target_moving"),
        // A hull-down target stands behind heavy cover by definition.
        cover: if hull_down {
            Cover::Heavy
        } else {
            cover(inputs)?
        },
        hull_down_turret_shot: hull_down,
        hull_to_hull: inputs.flag("hull_to_hull"),
    })
}

fn check_fire(inputs: &Inputs) -> Result<(), ResolveError> {
    // Hull-down means behind heavy cover: light cover contradicts it.
    if inputs.flag("hull_down") && cover(inputs)? == Cover::Light {
        return Err(ResolveError::invalid(
            "hull_down",
            "a hull-down target stands behind heavy cover, not light cover",
        ));
    }
    situation(inputs)?.check()
}

/// The fire order's targets; a 0 in a field means its default.
fn targets<'a>(
    inputs: &'a Inputs,
    attacker: &TankCard,
) -> Result<Vec<(String, FireTarget<'a>)>, ResolveError> {
    let entries = inputs.list("target");
    let single = entries.len() == 1;
    let situation = situation(inputs)?;
    entries
        .iter()
        .enumerate()
        .map(|(i, entry)| {
            let pick = entry.card.as_ref().ok_or_else(|| {
                ResolveError::invalid(
                    "target",
                    if single {
                        "choose the target".to_string()
                    } else {
                        format!("choose target {}", i + 1)
                    },
                )
            })?;
            let card = tank(pick, "target")?;
            let number = |key| u32::try_from(entry.number(key).max(0)).unwrap_or(u32::MAX);
            let shots = match (number("shots"), single) {
                (0, true) => attacker.fire_rate,
                (0, false) => {
                    return Err(ResolveError::invalid(
                        "shots",
                        format!(
                            "fire split over {} targets needs the shots at each",
                            entries.len()
                        ),
                    ));
                }
                (n, _) => n,
            };
            let target = FireTarget {
                card,
                shots,
                range_cm: Some(number("range_cm")).filter(|&r| r > 0),
                remaining_hp: Some(number("hit_points"))
                    .filter(|&h| h > 0)
                    .unwrap_or(card.hit_points),
                situation,
            };
            Ok((pick.label(), target))
        })
        .collect()
}

/// "" for the first target, "_2" for the second…: the first target's keys stay the plain
/// ones scripts read.
fn suffix(i: usize) -> String {
    if i == 0 {
        String::new()
    } else {
        format!("_{}", i + 1)
    }
}

fn fire_title(inputs: &Inputs, attacker: &TankCard) -> String {
    let name = inputs.label_of("attacker");
    format!(
        "{name} fires (accuracy {}+, fire rate {}, firepower {})",
        attacker.accuracy, attacker.fire_rate, attacker.firepower
    )
}

fn fire_odds(inputs: &Inputs) -> Result<Report, ResolveError> {
    let attacker = attacker(inputs, "firing tank")?;
    let targets = targets(inputs, attacker)?;
    let order: Vec<FireTarget> = targets.iter().map(|(_, t)| *t).collect();
    let odds = bot::fire_order_odds(attacker, &order)?;
    let mut r = Report::ruled(ID, "fire", fire_title(inputs, attacker), rulings::FIRE);
    for (i, (o, (name, _))) in odds.iter().zip(&targets).enumerate() {
        let s = suffix(i);
        let at = if targets.len() > 1 {
            format!(" ({name})")
        } else {
            String::new()
        };
        r.value(
            format!("target{s}"),
            "Target",
            Value::Text(format!(
                "{name}: {}, {} hit points left",
                amount(u64::from(o.shots), "shots"),
                o.remaining_hp
            )),
        );
        r.count(format!("shots{s}"), format!("Shots{at}"), o.shots);
        r.value(
            format!("need{s}"),
            format!("To hit{at}"),
            Value::Target(i64::from(o.need.max(i32::from(o.always_miss) + 1))),
        );
        r.chance(
            format!("p_hit_per_shot{s}"),
            format!("P(hit) per shot{at}"),
            o.p_hit_per_shot(),
        );
        r.chance(
            format!("p_penetration{s}"),
            format!("P(at least one penetration){at}"),
            o.penetrations().at_least(&1),
        );
        r.chance(
            format!("p_destroyed{s}"),
            format!("P(destroyed){at}"),
            o.p_destroyed(),
        );
        r.chance(
            format!("p_tracks_hit{s}"),
            format!("P(tracks hit){at}"),
            o.p_tracks_hit(),
        );
        r.dist(Distribution::counts(
            format!("hits{s}"),
            format!("Hits{at}"),
            &o.hits(),
            |n| n.to_string(),
        ));
        r.dist(Distribution::counts(
            format!("damage{s}"),
            format!("Damage (hit points){at}"),
            &o.damage,
            |n| n.to_string(),
        ));
        r.mark(&format!("need{s}"));
        r.mark(&format!("damage{s}"));
        r.note(format!("{name}: to hit {}", o.need_words()));
        if o.turret_only {
            r.note(format!("{name}: only T penetrates"));
        }
    }
    Ok(r)
}

fn letter(face: PenetrationFace) -> &'static str {
    match face {
        PenetrationFace::Blank => "blank",
        PenetrationFace::Tracks => "K",
        PenetrationFace::Turret => "T",
        PenetrationFace::Hull => "W",
    }
}

fn fire_roll(inputs: &Inputs, roller: &mut Roller) -> Result<Report, ResolveError> {
    let attacker = attacker(inputs, "firing tank")?;
    let targets = targets(inputs, attacker)?;
    let order: Vec<FireTarget> = targets.iter().map(|(_, t)| *t).collect();
    let roll = bot::roll_fire(attacker, &order, roller)?;
    let names: Vec<&str> = targets.iter().map(|(name, _)| name.as_str()).collect();
    let firer = inputs.label_of("attacker");
    let mut r = Report::ruled(
        ID,
        "fire",
        format!("{firer} fires at {}", names.join(" and ")),
        rulings::FIRE,
    );
    for (i, (v, (name, _))) in roll.volleys.iter().zip(&targets).enumerate() {
        let s = suffix(i);
        r.dice(format!("to hit {name} ({}+)", v.need), &v.to_hit);
        if let Some(record) = &v.penetration {
            r.dice(format!("penetration {name}"), record);
        }
        r.count(format!("hits{s}"), format!("Hits on {name}"), v.volley.hits);
        r.count(format!("damage{s}"), format!("Damage to {name}"), v.damage);
        r.count(
            format!("track_hits{s}"),
            format!("Track hits on {name}"),
            v.volley.track_hits,
        );
        r.value(
            format!("destroyed{s}"),
            format!("{name} destroyed"),
            Value::Flag(v.destroyed),
        );
        let faces: Vec<&str> = v.faces.iter().map(|&f| letter(f)).collect();
        r.result(format!(
            "{name}: {}, {}, {}{}: {} damage, {} → {} hit points{}",
            amount(u64::from(v.volley.hits), "hits"),
            amount(u64::from(v.volley.penetrations), "penetrations"),
            amount(u64::from(v.volley.track_hits), "track hits"),
            if faces.is_empty() {
                String::new()
            } else {
                format!(" (faces {})", faces.join(" "))
            },
            v.damage,
            v.remaining_before,
            v.remaining_after,
            if v.destroyed { " — destroyed" } else { "" }
        ));
    }
    Ok(r)
}

fn repair_odds(inputs: &Inputs) -> Result<Report, ResolveError> {
    let tank = attacker(inputs, "tank")?;
    let name = inputs.label_of("attacker");
    let mut r = Report::ruled(
        ID,
        "repair",
        format!("{name} repairs its tracks"),
        rulings::REPAIR,
    );
    r.value("need", "Repair on", Value::Target(i64::from(tank.repair)));
    r.chance(
        "p_repaired",
        "P(repaired)",
        bot::repair_odds(tank).probability(&true),
    );
    Ok(r)
}

fn repair_roll(inputs: &Inputs, roller: &mut Roller) -> Result<Report, ResolveError> {
    let tank = attacker(inputs, "tank")?;
    let name = inputs.label_of("attacker");
    let roll = bot::roll_repair(tank, roller)?;
    let mut r = Report::ruled(
        ID,
        "repair",
        format!("{name} repairs its tracks"),
        rulings::REPAIR,
    );
    r.dice(format!("repair ({}+)", roll.need), &roll.die);
    r.value("repaired", "Repaired", Value::Flag(roll.repaired));
    r.result(if roll.repaired {
        "repaired"
    } else {
        "not repaired"
    });
    Ok(r)
}

fn spotting_odds(inputs: &Inputs) -> Result<Report, ResolveError> {
    let tank = attacker(inputs, "spotting tank")?;
    let name = inputs.label_of("attacker");
    let cover = cover(inputs)?;
    let need = bot::spotting_need(tank, cover)?;
    let odds = bot::spotting_odds(tank, cover)?;
    let mut r = Report::ruled(
        ID,
        "spotting",
        format!("{name} spots a target in {}", cover.label()),
        rulings::SPOTTING,
    );
    match need {
        None => r.note("Open ground: spotted automatically."),
        Some(n) => r.value("need", "Spot on", Value::Target(i64::from(n))),
    }
    r.value("automatic", "Automatic", Value::Flag(need.is_none()));
    r.chance("p_spotted", "P(spotted)", odds.probability(&true));
    Ok(r)
}

fn spotting_roll(inputs: &Inputs, roller: &mut Roller) -> Result<Report, ResolveError> {
    let tank = attacker(inputs, "spotting tank")?;
    let name = inputs.label_of("attacker");
    let cover = cover(inputs)?;
    let roll = bot::roll_spotting(tank, cover, roller)?;
    let mut r = Report::ruled(
        ID,
        "spotting",
        format!("{name} spots a target in {}", cover.label()),
        rulings::SPOTTING,
    );
    match (&roll.die, roll.need) {
        (Some(die), Some(need)) => {
            r.dice(format!("spotting ({need}+)"), die);
            r.result(if roll.spotted {
                "spotted"
            } else {
                "not spotted"
            });
        }
        _ => r.result("open ground: spotted automatically (no die)"),
    }
    r.value("spotted", "Spotted", Value::Flag(roll.spotted));
    Ok(r)
}
