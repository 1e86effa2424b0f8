//! BelloLudi Tanks! as mechanics: the commander die for orders, a shot and a tank crash —
//! their inputs, and their odds and rolls as reports built from `resolve`.

use crate::rules::RulesetId;
use crate::rules::card::Card;
use crate::rules::dice::Roller;
use crate::rules::resolution::{
    Distribution, InputSpec, Inputs, Mechanic, Report, ResolveError, Value,
};
use crate::rules::words::amount;

use super::Vehicle;
use super::resolve::{self as bl, CommandOutcome, ShotSituation, TankState, Target};
use super::rulings;

const ID: RulesetId = RulesetId::Belloludi;

/// The three mechanics, in menu order.
pub static MECHANICS: [Mechanic; 3] = [
    Mechanic::new(
        ID,
        "command",
        "commander die",
        Vec::new,
        command_odds,
        command_roll,
    )
    .with_rulings(rulings::COMMAND)
    .with_pools(&["commander", "blunder", "charge"])
    .needing_flag(),
    Mechanic::new(ID, "shooting", "shot", shot_inputs, shot_odds, shot_roll)
        .with_rulings(rulings::SHOOTING)
        .with_pools(&["to_hit", "damage"]),
    Mechanic::new(
        ID,
        "crash",
        "tank crash",
        crash_inputs,
        crash_odds,
        crash_roll,
    )
    .with_rulings(rulings::CRASH)
    .with_pools(&["crash"])
    .needing_flag(),
];

fn any_vehicle(card: &Card) -> bool {
    matches!(card, Card::Belloludi(_))
}

const ARMOUR_HELP: &str = "Armour points the tank has left; 0 = undamaged.";

fn tank_inputs(first: &'static str, second: &'static str) -> Vec<InputSpec> {
    vec![
        InputSpec::card("shooter", first, "A BelloLudi tank.", any_vehicle),
        InputSpec::count(
            "shooter_armour",
            "Armour left (first tank)",
            ARMOUR_HELP,
            0,
            20,
            0,
        ),
        InputSpec::card("target", second, "A BelloLudi tank.", any_vehicle),
        InputSpec::count(
            "target_armour",
            "Armour left (second tank)",
            ARMOUR_HELP,
            0,
            20,
            0,
        ),
    ]
}

fn shot_inputs() -> Vec<InputSpec> {
    vec![
        InputSpec::card("shooter", "Shooting tank", "A BelloLudi tank.", any_vehicle),
        InputSpec::card("target", "Target tank", "A BelloLudi tank.", any_vehicle),
        InputSpec::count("target_armour", "Target armour left", ARMOUR_HELP, 0, 20, 0),
        InputSpec::toggle("close", "Within close range (8″)", "+1 to hit."),
        InputSpec::toggle(
            "shooter_shaken",
            "Shooter disordered or shaken",
            "−1 to hit.",
        )
        .flag_aliases(&["shooter-disordered"]),
        InputSpec::toggle(
            "target_cover",
            "Target in cover",
            "Target not clear or in cover: −1 to hit.",
        ),
        InputSpec::toggle("target_open_order", "Target in open order", "−1 to hit."),
    ]
}

fn crash_inputs() -> Vec<InputSpec> {
    tank_inputs("First tank", "Second tank")
}

/// The vehicle chosen for `key`.
fn vehicle<'a>(
    inputs: &'a Inputs,
    key: &'static str,
    what: &str,
) -> Result<&'a Vehicle, ResolveError> {
    inputs
        .require_card(key, what)?
        .as_card(key, "BelloLudi Tanks!", |c| match c {
            Card::Belloludi(v) => Some(v),
            _ => None,
        })
}

/// The tank for `key` with the armour it has left (`armour_key`, 0 = undamaged).
fn tank<'a>(
    inputs: &'a Inputs,
    key: &'static str,
    armour_key: &'static str,
    what: &str,
) -> Result<Target<'a>, ResolveError> {
    let vehicle = vehicle(inputs, key, what)?;
    match inputs.count_u32(armour_key) {
        0 => Ok(Target::fresh(vehicle)),
        left => Target::damaged(vehicle, left).map_err(|e| match e {
            ResolveError::Invalid { message, .. } => ResolveError::Invalid {
                field: armour_key,
                message,
            },
            other => other,
        }),
    }
}

fn situation(inputs: &Inputs) -> ShotSituation {
    ShotSituation {
        close_range: inputs.flag("close"),
        shooter_disordered_or_shaken: inputs.flag("shooter_shaken"),
        target_in_cover: inputs.flag("target_cover"),
        target_open_order: inputs.flag("target_open_order"),
    }
}

fn state_label(state: &TankState) -> String {
    match state {
        TankState::Steady => "steady",
        TankState::Shaken => "shaken",
        TankState::Broken => "broken",
        TankState::Destroyed => "destroyed",
        TankState::Removed => "removed",
    }
    .to_string()
}

fn command_label(outcome: &CommandOutcome) -> String {
    match outcome {
        CommandOutcome::Orders { orders } => amount(u64::from(*orders), "orders"),
        CommandOutcome::Blunder { roll, moves } => {
            let name = super::resolution()
                .and_then(|t| t.blunder(*roll))
                .map_or("?", |b| b.name.as_str());
            format!("B: {roll} {name} ({})", amount(u64::from(*moves), "moves"))
        }
    }
}

fn command_odds(_: &Inputs) -> Result<Report, ResolveError> {
    let odds = bl::command_odds()?;
    let mut r = Report::ruled(
        ID,
        "command",
        "BelloLudi Tanks! — commander die for orders",
        rulings::COMMAND,
    );
    r.note("A d20 reads 1–4 → 0, 5–9 → 1, 10–14 → 2, 15–19 → 3, 20 → B (blunder).");
    for orders in 0..=3u32 {
        let key = ["p_0_orders", "p_1_order", "p_2_orders", "p_3_orders"][orders as usize];
        r.chance(
            key,
            format!("P({})", amount(u64::from(orders), "orders")),
            odds.probability(&CommandOutcome::Orders { orders }),
        );
    }
    let p_blunder = odds.probability_where(|o| matches!(o, CommandOutcome::Blunder { .. }));
    r.chance("p_blunder", "P(blunder)", p_blunder);
    r.dist(Distribution::new(
        "commander_die",
        "Commander die",
        &bl::commander_die()?,
        |f| f.to_string(),
    ));
    r.dist(Distribution::new("outcome", "Result", &odds, command_label));
    Ok(r)
}

fn command_roll(_: &Inputs, roller: &mut Roller) -> Result<Report, ResolveError> {
    let roll = bl::roll_command(roller)?;
    let mut r = Report::ruled(ID, "command", "BelloLudi commander die", rulings::COMMAND);
    r.dice("commander die (d20 read)", &roll.commander_die);
    if let Some(record) = &roll.blunder_die {
        r.dice("blunder", record);
    }
    if let Some(record) = &roll.charge_die {
        r.dice("charge", record);
    }
    r.value("face", "Face", Value::Text(roll.face.to_string()));
    r.result(match roll.outcome {
        CommandOutcome::Orders { orders } => {
            format!(
                "face {}: {}",
                roll.face,
                amount(u64::from(orders), "orders")
            )
        }
        CommandOutcome::Blunder { moves, .. } => format!(
            "B: blunder — {} ({})",
            roll.blunder.as_deref().unwrap_or("?"),
            amount(u64::from(moves), "forced moves")
        ),
    });
    Ok(r)
}

fn shot_odds(inputs: &Inputs) -> Result<Report, ResolveError> {
    let shooter = vehicle(inputs, "shooter", "shooting tank")?;
    let target = tank(inputs, "target", "target_armour", "target tank")?;
    let odds = bl::shot_odds(shooter, target, &situation(inputs))?;
    let (a, b) = (inputs.label_of("shooter"), inputs.label_of("target"));
    let mut r = Report::ruled(
        ID,
        "shooting",
        format!("{a} shoots at {b} ({} armour left)", odds.remaining_before),
        rulings::SHOOTING,
    );
    r.value(
        "need",
        "To hit (d6; a 1 always misses, a 6 always hits)",
        Value::Target(i64::from(odds.need)),
    );
    r.count(
        "commander_dice",
        "Damage dice (commander dice; B = bullseye)",
        odds.commander_dice,
    );
    r.mark("commander_dice");
    r.count(
        "remaining_armour",
        "Target armour left",
        odds.remaining_before,
    );
    r.chance("p_hit", "P(hit)", odds.p_hit());
    r.chance("p_bullseye", "P(bullseye: destroyed)", odds.p_bullseye());
    r.chance(
        "p_disorder",
        "P(all dice hit: target in disorder)",
        odds.p_disorder(),
    );
    r.chance(
        "p_shaken_or_worse",
        "P(shaken or worse)",
        odds.p_at_least(TankState::Shaken),
    );
    r.chance(
        "p_broken_or_worse",
        "P(broken or worse)",
        odds.p_at_least(TankState::Broken),
    );
    r.chance(
        "p_destroyed",
        "P(destroyed)",
        odds.p_at_least(TankState::Destroyed),
    );
    let damage = odds.damage.map(|d| (d.points, d.bullseye));
    r.dist(Distribution::new(
        "damage_on_hit",
        "Damage on a hit",
        &damage,
        |&(points, bullseye)| {
            if bullseye {
                format!("{points} + B")
            } else {
                points.to_string()
            }
        },
    ));
    r.dist(Distribution::new(
        "state_after",
        "Target after the shot",
        &odds.state_after,
        state_label,
    ));
    r.note(format!(
        "{b}: shaken after {}, broken after {}.",
        amount(u64::from(target.vehicle.hits_to_shaken()), "hits"),
        target.vehicle.hits_to_broken()
    ));
    Ok(r)
}

fn shot_roll(inputs: &Inputs, roller: &mut Roller) -> Result<Report, ResolveError> {
    let shooter = vehicle(inputs, "shooter", "shooting tank")?;
    let target = tank(inputs, "target", "target_armour", "target tank")?;
    let roll = bl::roll_shot(shooter, target, &situation(inputs), roller)?;
    let (a, b) = (inputs.label_of("shooter"), inputs.label_of("target"));
    let mut r = Report::ruled(
        ID,
        "shooting",
        format!("{a} shoots at {b}"),
        rulings::SHOOTING,
    );
    r.dice(format!("to hit ({}+)", roll.need), &roll.to_hit);
    if let Some(record) = &roll.damage_dice {
        r.dice("commander dice (d20 read)", record);
    }
    r.value("hit", "Hit", Value::Flag(roll.hit));
    r.count("remaining_after", "Armour left", roll.remaining_after);
    r.value(
        "state_after",
        "Target",
        Value::Text(state_label(&roll.state_after)),
    );
    r.value(
        "disordered",
        "Target in disorder",
        Value::Flag(roll.disordered),
    );
    let mut line = if roll.hit {
        let read: Vec<String> = roll.faces.iter().map(ToString::to_string).collect();
        format!("hit, commander dice {}", read.join(" "))
    } else {
        "miss".to_string()
    };
    if roll.damage.is_some_and(|d| d.bullseye) {
        line.push_str(" — bullseye");
    }
    r.result(line);
    r.result(format!(
        "{b}: armour {} → {}, {}",
        roll.remaining_before,
        roll.remaining_after,
        state_label(&roll.state_after)
    ));
    if roll.disordered {
        r.result(format!("all dice hit: {b} is in disorder"));
    }
    Ok(r)
}

fn crash_odds(inputs: &Inputs) -> Result<Report, ResolveError> {
    let first = tank(inputs, "shooter", "shooter_armour", "first tank")?;
    let second = tank(inputs, "target", "target_armour", "second tank")?;
    let odds = bl::crash_odds(first, second)?;
    let (a, b) = (inputs.label_of("shooter"), inputs.label_of("target"));
    let mut r = Report::ruled(
        ID,
        "crash",
        format!(
            "{a} ({} armour left) crashes into {b} ({} left)",
            first.remaining, second.remaining
        ),
        rulings::CRASH,
    );
    r.note("Each tank rolls a commander die and deals its number (0 or B: nothing).");
    for (key, label, dist) in [
        ("p_first_destroyed", &a, &odds.first_after),
        ("p_second_destroyed", &b, &odds.second_after),
    ] {
        r.chance(
            key,
            format!("P({label} destroyed)"),
            dist.at_least(&TankState::Destroyed),
        );
    }
    r.dist(Distribution::counts(
        "hits_to_first",
        format!("Hits on {a}"),
        &odds.hits.map(|h| h.to_first),
        |n| n.to_string(),
    ));
    r.dist(Distribution::new(
        "first_after",
        format!("{a} after"),
        &odds.first_after,
        state_label,
    ));
    r.dist(Distribution::new(
        "second_after",
        format!("{b} after"),
        &odds.second_after,
        state_label,
    ));
    r.mark("first_after");
    r.mark("second_after");
    Ok(r)
}

fn crash_roll(inputs: &Inputs, roller: &mut Roller) -> Result<Report, ResolveError> {
    let first = tank(inputs, "shooter", "shooter_armour", "first tank")?;
    let second = tank(inputs, "target", "target_armour", "second tank")?;
    let roll = bl::roll_crash(first, second, roller)?;
    let (a, b) = (inputs.label_of("shooter"), inputs.label_of("target"));
    let mut r = Report::ruled(ID, "crash", format!("{a} crashes into {b}"), rulings::CRASH);
    r.dice("commander dice (d20 read, first then second)", &roll.dice);
    r.count("hits_to_first", format!("Hits on {a}"), roll.hits.to_first);
    r.count(
        "hits_to_second",
        format!("Hits on {b}"),
        roll.hits.to_second,
    );
    for (tank_name, hits, left, state) in [
        (
            &a,
            roll.hits.to_first,
            roll.first_remaining,
            &roll.first_after,
        ),
        (
            &b,
            roll.hits.to_second,
            roll.second_remaining,
            &roll.second_after,
        ),
    ] {
        r.result(format!(
            "{tank_name} takes {}: {left} left, {}",
            amount(u64::from(hits), "hits"),
            state_label(state)
        ));
    }
    Ok(r)
}
