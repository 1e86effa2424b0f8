//! Belle Epoque as mechanics: command points, a reactivity test, fire and an assault — their
//! inputs, and their odds and rolls as reports built from `resolve`.

use crate::rules::RulesetId;
use crate::rules::card::Card;
use crate::rules::dice::{Dist, Roller};
use crate::rules::resolution::{
    Choice, ChoiceTable, Distribution, InputSpec, Inputs, Mechanic, Report, ResolveError, Value,
};
use crate::rules::words::amount;

use super::resolve::{
    self as be, Assault, AssaultSide, AssaultTroops, Fire, FireTarget, General, Losses, Position,
    Terrain,
};
use super::{Doctrine, TroopType, UnitProfile, rulings};

const ID: RulesetId = RulesetId::BelleEpoque;

/// The four mechanics, in menu order.
pub static MECHANICS: [Mechanic; 4] = [
    Mechanic::new(
        ID,
        "command_points",
        "command points",
        command_inputs,
        command_odds,
        command_roll,
    )
    .with_rulings(rulings::COMMAND_POINTS)
    .with_pools(&["command"])
    .needing_flag(),
    Mechanic::new(
        ID,
        "reactivity",
        "reactivity",
        reactivity_inputs,
        reactivity_odds,
        reactivity_roll,
    )
    .with_rulings(rulings::REACTIVITY)
    .with_pools(&["reactivity"])
    .needing_flag(),
    Mechanic::new(ID, "fire", "fire", fire_inputs, fire_odds, fire_roll)
        .with_check(check_fire)
        .with_rulings(rulings::FIRE)
        .with_pools(&["fire"])
        .needing_flag(),
    Mechanic::new(
        ID,
        "assault",
        "assault",
        assault_inputs,
        assault_odds,
        assault_roll,
    )
    .with_rulings(rulings::ASSAULT)
    .with_pools(&["attacker", "defender"])
    .needing_flag(),
];

fn any_unit(card: &Card) -> bool {
    matches!(card, Card::BelleEpoque(_))
}

/// The key of the options that take the chosen card's value (`None` in the tables).
const FROM_CARD: &str = "card";

const GENERALS: ChoiceTable<General> = ChoiceTable(&[
    (Choice::new("mediocre", "Mediocre (d4)"), General::Mediocre),
    (Choice::new("average", "Average (d6)"), General::Average),
    (Choice::new("superior", "Superior (d8)"), General::Superior),
]);

const TROOP_TYPES: ChoiceTable<Option<TroopType>> = ChoiceTable(&[
    (Choice::new(FROM_CARD, "As the unit"), None),
    (Choice::new("a", "A"), Some(TroopType::A)),
    (Choice::new("b", "B"), Some(TroopType::B)),
    (Choice::new("c", "C"), Some(TroopType::C)),
    (Choice::new("d", "D"), Some(TroopType::D)),
    (Choice::new("e", "E"), Some(TroopType::E)),
    (Choice::new("f", "F"), Some(TroopType::F)),
    (Choice::new("g", "G"), Some(TroopType::G)),
]);

const ORDERS: ChoiceTable<Option<Doctrine>> = ChoiceTable(&[
    (Choice::new(FROM_CARD, "As the unit (else close)"), None),
    (Choice::new("close", "Close order"), Some(Doctrine::Close)),
    (Choice::new("loose", "Loose order"), Some(Doctrine::Loose)),
]);

const TERRAINS: ChoiceTable<Terrain> = ChoiceTable(&[
    (Choice::new("open", "Open"), Terrain::Open),
    (Choice::new("cover", "Cover"), Terrain::Cover),
    (
        Choice::new("fortifications", "Fortifications"),
        Terrain::Fortifications,
    ),
]);

const LEVELS: ChoiceTable<Option<AssaultTroops>> = ChoiceTable(&[
    (Choice::new(FROM_CARD, "As the unit"), None),
    (
        Choice::new(
            "militia_or_loose_regulars",
            "Militia or loose regulars (SS 1–2)",
        )
        .alias(&["militia", "loose-regulars"]),
        Some(AssaultTroops::MilitiaOrLooseRegulars),
    ),
    (
        Choice::new("close_regulars", "Close-order regulars (SS 1–3)"),
        Some(AssaultTroops::CloseRegulars),
    ),
    (
        Choice::new("choc", "Choc (SS 1–4)"),
        Some(AssaultTroops::Choc),
    ),
]);

const POSITIONS: ChoiceTable<Position> = ChoiceTable(&[
    (Choice::new("open", "Open"), Position::Open),
    (
        Choice::new("hill", "Hill (+1 for infantry)"),
        Position::Hill,
    ),
    (
        Choice::new("fortifications", "Fortifications (+2)"),
        Position::Fortifications,
    ),
]);

fn command_inputs() -> Vec<InputSpec> {
    vec![
        InputSpec::count(
            "stands",
            "Stands",
            "The side's stands: one command die per started 8.",
            1,
            200,
            24,
        )
        .house(rulings::COMMAND_RULING),
        GENERALS.input(
            "general",
            "General",
            "The die the general rolls.",
            General::Average,
        ),
    ]
}

fn reactivity_inputs() -> Vec<InputSpec> {
    vec![
        InputSpec::card("unit", "Unit", "Its basic score.", any_unit).optional(),
        InputSpec::count("basic_score", "Basic score", "0 = the unit's.", 0, 6, 0),
        InputSpec::count(
            "cps",
            "Command points spent",
            "Each adds 1 to the basic score (the roll; the odds show 0–5).",
            0,
            5,
            0,
        ),
    ]
}

fn fire_inputs() -> Vec<InputSpec> {
    let toggle = InputSpec::toggle;
    vec![
        InputSpec::card(
            "unit",
            "Firing unit",
            "Its troop type and stands.",
            any_unit,
        )
        .optional(),
        TROOP_TYPES.input(
            "troop_type",
            "Troop type",
            "The firer's type on the fire table.",
            None,
        ),
        InputSpec::count(
            "stands",
            "Stands firing",
            "One die each; 0 = the unit's.",
            0,
            12,
            0,
        ),
        InputSpec::count(
            "range",
            "Range (UD)",
            "The fire table covers 1–4 UD.",
            1,
            8,
            2,
        )
        .house(rulings::VISIBILITY_RULING),
        toggle("moving", "Firer moved", "Bracketed to-hit numbers."),
        toggle("uphill", "Firer uphill", "One extra die."),
        InputSpec::card(
            "target",
            "Target unit",
            "Its order, kind, stands and traits.",
            any_unit,
        )
        .optional(),
        ORDERS.input(
            "target_order",
            "Target order",
            "Loose order is harder to hit and to see.",
            None,
        ),
        toggle(
            "target_cavalry",
            "Target is cavalry",
            "Not infantry: no cover or fortification misses.",
        ),
        TERRAINS.input(
            "target_terrain",
            "Target terrain",
            "Cover and fortifications turn low faces into misses.",
            Terrain::Open,
        ),
        toggle(
            "conspicuous",
            "Target conspicuous",
            "+1 to hit (a 6 still misses), seen at 4 UD.",
        ),
        toggle(
            "target_unrevealed",
            "Target unrevealed",
            "Neither moved nor fired since the game began (or not moved, with smokeless-powder rifles): seen 1 UD less.",
        ),
        InputSpec::count(
            "target_stands",
            "Target stands",
            "Caps the stands lost; 0 = the unit's (else uncapped).",
            0,
            12,
            0,
        ),
    ]
}

fn assault_inputs() -> Vec<InputSpec> {
    let toggle = InputSpec::toggle;
    vec![
        InputSpec::card(
            "attacker",
            "Attacker",
            "Stands, SS level and traits.",
            any_unit,
        )
        .optional(),
        InputSpec::count(
            "attacker_stands",
            "Attacker stands",
            "0 = the unit's.",
            0,
            12,
            0,
        ),
        LEVELS.input(
            "attacker_level",
            "Attacker SS level",
            "The assault dice.",
            None,
        ),
        toggle("attacker_dashing", "Attacker dashing", "SS level +1."),
        toggle(
            "attacker_stubborn",
            "Attacker stubborn",
            "No fall backs for even losses.",
        ),
        toggle(
            "attacker_cavalry",
            "Attacker is cavalry",
            "SS 1 from or against cover or rough terrain.",
        ),
        InputSpec::count(
            "attacker_extra_assaults",
            "Attacker's earlier assaults",
            "−1 SS level each.",
            0,
            5,
            0,
        ),
        toggle(
            "attacker_cannot_fall_back",
            "Attacker cannot fall back",
            "Even losses are stands too.",
        ),
        InputSpec::card(
            "defender",
            "Defender",
            "Stands, SS level and traits.",
            any_unit,
        )
        .optional(),
        InputSpec::count(
            "defender_stands",
            "Defender stands",
            "0 = the unit's.",
            0,
            12,
            0,
        ),
        LEVELS.input(
            "defender_level",
            "Defender SS level",
            "The assault dice.",
            None,
        ),
        toggle(
            "defender_stubborn",
            "Defender stubborn",
            "SS level +1, no fall backs.",
        ),
        toggle(
            "defender_cavalry",
            "Defender is cavalry",
            "No hill or fortification bonus; SS 1 in cover.",
        ),
        InputSpec::count(
            "defender_extra_assaults",
            "Defender's earlier assaults",
            "−1 SS level each.",
            0,
            5,
            0,
        ),
        toggle(
            "defender_cannot_fall_back",
            "Defender cannot fall back",
            "Even losses are stands too.",
        ),
        POSITIONS.input(
            "position",
            "Defender's position",
            "Hill +1 for infantry, fortifications +2.",
            Position::Open,
        ),
        toggle(
            "cover_or_rough",
            "Cover or rough terrain",
            "Cavalry fight at SS 1.",
        ),
    ]
}

fn unit<'a>(
    inputs: &'a Inputs,
    key: &'static str,
) -> Result<Option<&'a UnitProfile>, ResolveError> {
    inputs.card_as(key, "Belle Epoque", |c| match c {
        Card::BelleEpoque(u) => Some(u),
        _ => None,
    })
}

/// The side's stands: at least one, or there is no one to command.
fn side_stands(inputs: &Inputs) -> Result<u32, ResolveError> {
    match inputs.count_u32("stands") {
        0 => Err(ResolveError::invalid(
            "stands",
            "give the side's stands (e.g. 30)",
        )),
        n => Ok(n),
    }
}

fn command_odds(inputs: &Inputs) -> Result<Report, ResolveError> {
    let stands = side_stands(inputs)?;
    let odds = be::command_points_odds(stands, GENERALS.read(inputs, "general")?)?;
    let mut r = Report::ruled(
        ID,
        "command_points",
        format!(
            "Command points for {stands} stands: {}d{}",
            odds.dice, odds.sides
        ),
        rulings::COMMAND_POINTS,
    );
    r.count("command_dice", "Command dice", odds.dice);
    r.count("die_sides", "Sides of each die", odds.sides);
    r.value(
        "mean",
        "Average",
        Value::Number(odds.total.expectation(|&k| f64::from(k))),
    );
    r.dist(Distribution::counts(
        "command_points",
        "Command points",
        &odds.total,
        |n| n.to_string(),
    ));
    Ok(r)
}

fn command_roll(inputs: &Inputs, roller: &mut Roller) -> Result<Report, ResolveError> {
    let stands = side_stands(inputs)?;
    let roll = be::roll_command_points(stands, GENERALS.read(inputs, "general")?, roller)?;
    let mut r = Report::ruled(
        ID,
        "command_points",
        format!("Command points for {stands} stands"),
        rulings::COMMAND_POINTS,
    );
    r.dice("command dice", &roll.dice);
    r.count("total", "Command points", roll.total);
    r.result(amount(u64::from(roll.total), "command points"));
    Ok(r)
}

fn basic_score(inputs: &Inputs) -> Result<u8, ResolveError> {
    match (inputs.count("basic_score"), unit(inputs, "unit")?) {
        (n, _) if n > 0 => Ok(u8::try_from(n).unwrap_or(u8::MAX)),
        (_, Some(u)) => u
            .basic_score()
            .ok_or_else(|| ResolveError::invalid("unit", format!("no basic score for {}", u.name))),
        (_, None) => Err(ResolveError::invalid(
            "basic_score",
            "give the basic score or choose the unit",
        )),
    }
}

fn reactivity_odds(inputs: &Inputs) -> Result<Report, ResolveError> {
    let bs = basic_score(inputs)?;
    let mut r = Report::ruled(
        ID,
        "reactivity",
        format!("Reactivity test: d6 at or under {bs} + command points spent"),
        rulings::REACTIVITY,
    );
    r.count("basic_score", "Basic score", bs);
    const KEYS: [&str; 6] = [
        "p_pass_0", "p_pass_1", "p_pass_2", "p_pass_3", "p_pass_4", "p_pass_5",
    ];
    for (cps, key) in (0..=5u32).zip(KEYS) {
        r.chance(
            key,
            format!("P(pass) with {}", amount(u64::from(cps), "CPs")),
            be::reactivity_odds(bs, cps).probability(&true),
        );
    }
    Ok(r)
}

fn reactivity_roll(inputs: &Inputs, roller: &mut Roller) -> Result<Report, ResolveError> {
    let bs = basic_score(inputs)?;
    let cps = inputs.count_u32("cps");
    let roll = be::roll_reactivity(bs, cps, roller)?;
    let mut r = Report::ruled(
        ID,
        "reactivity",
        format!(
            "Reactivity test: basic score {bs}, {}",
            amount(u64::from(cps), "CPs")
        ),
        rulings::REACTIVITY,
    );
    r.dice(format!("reactivity ({} or less)", roll.target), &roll.die);
    r.value("passed", "Activated", Value::Flag(roll.passed));
    r.result(if roll.passed {
        "activated"
    } else {
        "failed (basic move only)"
    });
    Ok(r)
}

fn fire(inputs: &Inputs) -> Result<Fire, ResolveError> {
    let firer = unit(inputs, "unit")?;
    let troop_type = match (TROOP_TYPES.read(inputs, "troop_type")?, firer) {
        (Some(t), _) => t,
        (None, Some(u)) => u.troop_type,
        (None, None) => {
            return Err(ResolveError::invalid(
                "troop_type",
                "give the firer's troop type (A–G) or choose the unit",
            ));
        }
    };
    let stands = match (inputs.count_u32("stands"), firer) {
        (0, Some(u)) => u.stands,
        (0, None) => {
            return Err(ResolveError::invalid(
                "stands",
                "give the firing stands or choose the unit",
            ));
        }
        (n, _) => n,
    };
    let terrain = TERRAINS.read(inputs, "target_terrain")?;
    let mut target = match unit(inputs, "target")? {
        Some(t) => FireTarget::of(t, terrain),
        None => FireTarget {
            doctrine: Doctrine::Close,
            infantry: true,
            terrain,
            conspicuous: false,
            stands: None,
            unrevealed: false,
        },
    };
    if let Some(doctrine) = ORDERS.read(inputs, "target_order")? {
        target.doctrine = doctrine;
    }
    target.infantry &= !inputs.flag("target_cavalry");
    target.conspicuous |= inputs.flag("conspicuous");
    target.unrevealed = inputs.flag("target_unrevealed");
    if let n @ 1.. = inputs.count_u32("target_stands") {
        target.stands = Some(n);
    }
    Ok(Fire {
        troop_type,
        stands,
        range_uds: inputs.count_u32("range"),
        moving: inputs.flag("moving"),
        uphill: inputs.flag("uphill"),
        target,
    })
}

fn check_fire(inputs: &Inputs) -> Result<(), ResolveError> {
    // The cards are checked when the odds are asked for; here only what the inputs alone
    // rule out, once they name a firer.
    match fire(inputs) {
        Ok(fire) => fire.check(),
        Err(_) => Ok(()),
    }
}

fn fire_report(title: String) -> Report {
    Report::ruled(ID, "fire", title, rulings::FIRE)
}

fn fire_title(inputs: &Inputs, fire: &Fire) -> String {
    let target = inputs
        .card("target")
        .map(|c| format!(" at {}", c.label()))
        .unwrap_or_default();
    let firer = inputs
        .card("unit")
        .map(|c| format!("{}: ", c.label()))
        .unwrap_or_default();
    format!(
        "{firer}type {} fire{target} at {} UD",
        fire.troop_type.letter(),
        fire.range_uds
    )
}

fn fire_odds(inputs: &Inputs) -> Result<Report, ResolveError> {
    let fire = fire(inputs)?;
    let title = fire_title(inputs, &fire);
    let odds = match be::fire_odds(&fire) {
        Ok(odds) => odds,
        Err(ResolveError::NoResult(reason)) => return Ok(fire_report(title).no_result(reason)),
        Err(e) => return Err(e),
    };
    let n = odds.numbers;
    let mut r = fire_report(title);
    r.count("fire_dice", "Dice", n.dice);
    r.count("to_hit", "Hit on or under", n.to_hit);
    if n.misses_up_to > 0 {
        r.count(
            "misses_up_to",
            "Miss on or under (cover, loose order)",
            n.misses_up_to,
        );
    }
    r.chance(
        "p_hit_per_die",
        "P(hit) per die",
        odds.per_die.probability(&true),
    );
    r.dist(Distribution::counts(
        "stands_lost",
        "Stands lost",
        &odds.stands_lost,
        |n| n.to_string(),
    ));
    r.mark("to_hit");
    r.note("A 6 always misses.");
    let (sight, _) = fire.target.sight();
    r.note(format!("The target is seen at {sight} UD."));
    Ok(r)
}

fn fire_roll(inputs: &Inputs, roller: &mut Roller) -> Result<Report, ResolveError> {
    let fire = fire(inputs)?;
    let title = fire_title(inputs, &fire);
    let roll = match be::roll_fire(&fire, roller) {
        Ok(roll) => roll,
        Err(ResolveError::NoResult(reason)) => return Ok(fire_report(title).no_result(reason)),
        Err(e) => return Err(e),
    };
    let mut r = fire_report(title);
    r.dice("fire", &roll.dice);
    r.count("hits", "Hits", roll.hits);
    r.count("stands_lost", "Stands lost", roll.stands_lost);
    r.result(format!(
        "{}: the target loses {}",
        amount(u64::from(roll.hits), "hits"),
        amount(u64::from(roll.stands_lost), "stands")
    ));
    Ok(r)
}

/// The inputs of one side of an assault, by key (only the attacker can be dashing).
struct SideKeys {
    who: &'static str,
    stands: &'static str,
    level: &'static str,
    dashing: Option<&'static str>,
    stubborn: &'static str,
    cavalry: &'static str,
    extra_assaults: &'static str,
    cannot_fall_back: &'static str,
}

const ATTACKER: SideKeys = SideKeys {
    who: "attacker",
    stands: "attacker_stands",
    level: "attacker_level",
    dashing: Some("attacker_dashing"),
    stubborn: "attacker_stubborn",
    cavalry: "attacker_cavalry",
    extra_assaults: "attacker_extra_assaults",
    cannot_fall_back: "attacker_cannot_fall_back",
};

const DEFENDER: SideKeys = SideKeys {
    who: "defender",
    stands: "defender_stands",
    level: "defender_level",
    dashing: None,
    stubborn: "defender_stubborn",
    cavalry: "defender_cavalry",
    extra_assaults: "defender_extra_assaults",
    cannot_fall_back: "defender_cannot_fall_back",
};

/// One side of an assault: its card (if chosen) with stands and level overriding the card's.
fn side(inputs: &Inputs, keys: &SideKeys) -> Result<AssaultSide, ResolveError> {
    let who = keys.who;
    let stands = inputs.count_u32(keys.stands);
    let level = LEVELS.read(inputs, keys.level)?;
    let mut side = match (unit(inputs, who)?.map(AssaultSide::of), stands, level) {
        (Some(side), _, _) => side,
        (None, 1.., Some(level)) => AssaultSide::new(stands, level),
        (None, _, _) => {
            return Err(ResolveError::invalid(
                who,
                format!("choose the {who}, or give its stands and SS level"),
            ));
        }
    };
    if stands > 0 {
        side.stands = stands;
    }
    if let Some(level) = level {
        side.troops = level;
    }
    side.dashing |= keys.dashing.is_some_and(|key| inputs.flag(key));
    side.stubborn |= inputs.flag(keys.stubborn);
    side.cavalry |= inputs.flag(keys.cavalry);
    side.extra_assaults = inputs.count_u32(keys.extra_assaults);
    side.can_fall_back = !inputs.flag(keys.cannot_fall_back);
    Ok(side)
}

/// The assault the inputs describe (the battle reads its outcome from the rolled faces).
pub(crate) fn assault(inputs: &Inputs) -> Result<Assault, ResolveError> {
    Ok(Assault {
        attacker: side(inputs, &ATTACKER)?,
        defender: side(inputs, &DEFENDER)?,
        position: POSITIONS.read(inputs, "position")?,
        cover_or_rough: inputs.flag("cover_or_rough"),
    })
}

fn side_name(inputs: &Inputs, key: &str, side: &AssaultSide) -> String {
    let stands = amount(u64::from(side.stands), "stands");
    match inputs.card(key) {
        Some(c) => format!("{} ({stands})", c.label()),
        None => stands,
    }
}

fn casualties(losses: &Dist<Losses>) -> Dist<Losses> {
    losses.map(Losses::as_casualties)
}

fn assault_odds(inputs: &Inputs) -> Result<Report, ResolveError> {
    let assault = assault(inputs)?;
    let odds = be::assault_odds(&assault)?;
    let (a, d) = (
        side_name(inputs, "attacker", &assault.attacker),
        side_name(inputs, "defender", &assault.defender),
    );
    let mut r = Report::ruled(
        ID,
        "assault",
        format!(
            "Assault: {a} at {} against {d} at {}",
            be::level_words(odds.attacker_level),
            be::level_words(odds.defender_level)
        ),
        rulings::ASSAULT,
    );
    r.count("attacker_level", "Attacker SS level", odds.attacker_level);
    r.count("defender_level", "Defender SS level", odds.defender_level);
    r.chance(
        "p_attacker_wins",
        "P(attacker wins)",
        odds.p_attacker_wins(),
    );
    r.chance("p_tie", "P(tie: both lose a stand)", odds.p_tie());
    r.chance(
        "p_defender_wins",
        "P(defender wins)",
        odds.p_defender_wins(),
    );
    r.dist(Distribution::counts(
        "attacker_score",
        "Attacker's score",
        &odds.attacker_score,
        |n| n.to_string(),
    ));
    r.dist(Distribution::counts(
        "defender_score",
        "Defender's score",
        &odds.defender_score,
        |n| n.to_string(),
    ));
    r.dist(Distribution::new(
        "attacker_losses",
        "Attacker loses",
        &casualties(&odds.attacker_losses()),
        Losses::label,
    ));
    r.dist(Distribution::new(
        "defender_losses",
        "Defender loses",
        &casualties(&odds.defender_losses()),
        Losses::label,
    ));
    r.mark("attacker_losses");
    r.mark("defender_losses");
    r.note("A 1 always scores, a 6 never.");
    Ok(r)
}

fn assault_roll(inputs: &Inputs, roller: &mut Roller) -> Result<Report, ResolveError> {
    let assault = assault(inputs)?;
    let roll = be::roll_assault(&assault, roller)?;
    let (a, d) = (
        side_name(inputs, "attacker", &assault.attacker),
        side_name(inputs, "defender", &assault.defender),
    );
    let mut r = Report::ruled(
        ID,
        "assault",
        format!("Assault: {a} against {d}"),
        rulings::ASSAULT,
    );
    r.dice("attacker", &roll.attacker_dice);
    r.dice("defender", &roll.defender_dice);
    let result = &roll.result;
    r.count("attacker_score", "Attacker's score", result.attacker_score);
    r.count("defender_score", "Defender's score", result.defender_score);
    r.result(format!(
        "scores {} ({}) against {} ({})",
        result.attacker_score,
        be::level_words(roll.attacker_level),
        result.defender_score,
        be::level_words(roll.defender_level)
    ));
    r.result(format!(
        "attacker loses {}; defender loses {}",
        result.outcome.attacker.label(),
        result.outcome.defender.label()
    ));
    Ok(r)
}
