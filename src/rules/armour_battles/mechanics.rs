//! Armour Battles as mechanics: fire (direct, opportunity, or an off-table artillery
//! mission), rally, command dice and a move's breakdown — their inputs, the decisions that
//! turn inputs into a situation (made here once for every front end), and reports.
//!
//! The sums stay in `fire`, `artillery`, `rally`, `command` and `reliability`; `report`
//! words their answers.

mod report;

use crate::rules::Card;
use crate::rules::RulesetId;
use crate::rules::armour_battles::SideName;
use crate::rules::resolution::{
    Choice, ChoiceTable, InputSpec, InputValue, Inputs, Mechanic, Preset, ResolveError,
};

use super::artillery::ArtillerySituation;
use super::error::ResolveError as AbError;
use super::fire::{Bonus, Evasion, FireMode, FireSituation, MoveOrder, RangeBand};
use super::rally::RallySituation;
use super::{BattleGroup, FirstPulse, Side, UnitCard, UnitKind};
use super::{outcome, rally as rally_rules, reliability};

pub use report::{
    burst_odds, burst_report, burst_roll, command_dice, command_report, fire_report, fire_roll,
    move_dice, move_report, rally_dice, rally_report,
};

const ID: RulesetId = RulesetId::ArmourBattles;

/// The four mechanics, in menu order. Fire comes first: a campaign battle links to it.
pub static MECHANICS: [Mechanic; 4] = [
    Mechanic::new(
        ID,
        "fire",
        "fire",
        fire_inputs,
        report::fire_odds,
        report::fire_roll_report,
    )
    .with_check(check_fire)
    .with_rulings(&[
        outcome::DIRECT_SUPPRESSION_RULING,
        outcome::FORCED_BACK_RULING,
        super::fire::TN_CLAMP_RULING,
    ])
    .with_pools(&[
        "attack",
        "reaction",
        "forced_back",
        "army_morale",
        "response",
        "opponent_response",
        "deviation",
    ]),
    Mechanic::new(
        ID,
        "command_dice",
        "command dice",
        command_inputs,
        report::command_odds,
        report::command_roll,
    )
    .with_presets(battle_presets)
    .with_pools(&["us", "german"]),
    Mechanic::new(
        ID,
        "rally",
        "rally",
        rally_inputs,
        report::rally_odds,
        report::rally_roll,
    )
    .with_rulings(&[rally_rules::RALLY_TN_RULING, rally_rules::REMOVED_RULING])
    .with_pools(&["rally", "opponent"]),
    Mechanic::new(
        ID,
        "move",
        "breakdown",
        move_inputs,
        report::move_odds,
        report::move_roll,
    )
    .with_rulings(&[reliability::BREAKDOWN_RULING])
    .with_pools(&["move"]),
];

fn on_table(card: &Card) -> bool {
    matches!(card, Card::ArmourBattles(u) if u.kind != UnitKind::OffTableArtillery)
}

fn battery(card: &Card) -> bool {
    matches!(card, Card::ArmourBattles(u) if u.kind == UnitKind::OffTableArtillery)
}

/// What is fired: a direct or opportunity shot, or an off-table artillery mission.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Shot(FireMode),
    Artillery,
}

const KINDS: ChoiceTable<Kind> = ChoiceTable(&[
    (
        Choice::new("direct", "Direct fire"),
        Kind::Shot(FireMode::Direct),
    ),
    (
        Choice::new("opportunity", "Opportunity fire").flag(&["opportunity"]),
        Kind::Shot(FireMode::Opportunity),
    ),
    (Choice::new("artillery", "Artillery"), Kind::Artillery),
]);

const RANGES: ChoiceTable<RangeBand> = ChoiceTable(&[
    (Choice::new("short", "Short"), RangeBand::Short),
    (Choice::new("effective", "Effective"), RangeBand::Effective),
    (Choice::new("long", "Long"), RangeBand::Long),
]);

const MOVES: ChoiceTable<MoveOrder> = ChoiceTable(&[
    (Choice::new("single", "Single move"), MoveOrder::Single),
    (Choice::new("double", "Double move"), MoveOrder::Double),
    (Choice::new("triple", "Triple move"), MoveOrder::Triple),
]);

/// The evasive move the target makes, if any; `Auto` breaks off if the card can.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Evading {
    No,
    Auto,
    As(Evasion),
}

const EVASIONS: ChoiceTable<Evading> = ChoiceTable(&[
    (Choice::new("none", "Not evading"), Evading::No),
    (
        Choice::new("auto", "Evading (break off if it can)"),
        Evading::Auto,
    ),
    (
        // `campaign record … artillery-fire --break-off` before its flags were built from these.
        Choice::new("break_off", "Break off").flag(&["break-off"]),
        Evading::As(Evasion::BreakOff),
    ),
    (
        Choice::new("shoot_and_scoot", "Shoot and scoot"),
        Evading::As(Evasion::ShootAndScoot),
    ),
    (
        Choice::new("disengage", "Disengage"),
        Evading::As(Evasion::Disengage),
    ),
]);

/// Most command dice a side is offered: first-pulse odds stay exact up to 8, Command
/// Failure far beyond.
const MAX_COMMAND_DICE: i64 = 12;

const DIRECT: &[&str] = &["direct", "opportunity"];
const ARTILLERY: &[&str] = &["artillery"];

/// Why an off-table battery cannot be the firer of a shot.
const FIRES_MISSIONS: &str = "is off-table artillery: it fires artillery missions, not direct fire";

fn fire_inputs() -> Vec<InputSpec> {
    let toggle = InputSpec::toggle;
    let wild = |key, label, help| InputSpec::count(key, label, help, 0, 2, 0);
    vec![
        KINDS.input("kind", "Fire", "Direct fire in the firer's pulse, opportunity fire in the enemy's, or an off-table artillery mission.", Kind::Shot(FireMode::Direct)),
        InputSpec::card("attacker", "Attacker", "The firing unit.", on_table)
            .when("kind", DIRECT)
            .refusing(FIRES_MISSIONS),
        InputSpec::card("battery", "Battery", "Off-table artillery firing a mission.", battery)
            .when("kind", ARTILLERY)
            .flag("artillery")
            .refusing("is not off-table artillery: only an artillery card fires an artillery mission"),
        InputSpec::card("target", "Target", "The unit fired at.", on_table)
            .refusing("is off-table artillery and has no reaction dice: it cannot be fired at"),
        RANGES.input("range", "Range", "Short −1 TN, long +1 TN.", RangeBand::Effective)
            .when("kind", DIRECT),
        MOVES.input("move", "Attacker move", "Double move −1D, triple move −2D.", MoveOrder::Single)
            .when("kind", DIRECT),
        toggle("flank", "Flank or rear shot", "−1 TN; sloped armour uses its second number.")
            .when("kind", DIRECT),
        toggle("uphill", "Target uphill", "+1D reaction.").when("kind", DIRECT),
        toggle("ambush", "Ambush fire", "A hidden unit firing from ambush: +1D attack.")
            .when("kind", DIRECT),
        toggle("cover", "Target in cover", "Light cover: +1D reaction (nothing against artillery)."),
        EVASIONS.input("evading", "Target evading", "+2D reaction: Break-Off or Shoot and Scoot if the card has it; a disengaging unit is caught only by opportunity fire.", Evading::No)
            .bare("auto")
            // `campaign record … fire --evasion` before its flags were built from these.
            .flag_aliases(&["evasion"]),
        toggle("target_suppressed", "Target suppressed", "Reaction dice score on 5+ instead of 4+."),
        InputSpec::count("target_disruption", "Target disruption", "Disruption Points already on the target; at 3 it is dispersed.", 0, 2, 0),
        wild("attacker_wild", "Attacker wild die / Staff Order", "+1D attack each; at most one of each per action."),
        wild("target_wild", "Target wild die / Staff Order", "+1D reaction each; at most one of each per action."),
        InputSpec::count("response_dice", "Artillery response dice", "0 = the battle group's.", 0, 12, 0)
            .when("kind", ARTILLERY),
        InputSpec::count("battle", "Battle", "Lorraine battle 1–3 for the battle group's response dice; 0 = the first with artillery.", 0, 3, 0)
            .when("kind", ARTILLERY),
    ]
}

fn command_inputs() -> Vec<InputSpec> {
    vec![
        InputSpec::count(
            "us_dice",
            "US command dice",
            "The US player's command dice.",
            1,
            MAX_COMMAND_DICE,
            6,
        )
        .flag("command-dice"),
        InputSpec::count(
            "german_dice",
            "German command dice",
            "The German player's command dice.",
            1,
            MAX_COMMAND_DICE,
            5,
        )
        .flag("command-dice"),
        InputSpec::count(
            "battle",
            "Battle",
            "Lorraine battle 1–3: in Battles 2 and 3 the US has the first pulse.",
            1,
            3,
            1,
        ),
    ]
}

/// Each Lorraine battle's command dice (both sides' briefings) and first-pulse rule.
fn battle_presets() -> Vec<Preset> {
    (1..=3u32)
        .filter_map(|battle| {
            let us = group(battle, Side::First, "battle").ok()?;
            let german = group(battle, Side::Second, "battle").ok()?;
            Some(Preset {
                label: format!("Battle {battle}"),
                help: "This Lorraine battle's command dice and first-pulse rule.",
                values: vec![
                    ("us_dice", InputValue::Count(us.command_dice.into())),
                    ("german_dice", InputValue::Count(german.command_dice.into())),
                    ("battle", InputValue::Count(battle.into())),
                ],
            })
        })
        .collect()
}

fn rally_inputs() -> Vec<InputSpec> {
    vec![
        InputSpec::card("unit", "Unit", "The unit rallying.", on_table)
            .flag("rally")
            .refusing("is off-table artillery: it takes no Disruption, so it never rallies"),
        InputSpec::count(
            "disruption",
            "Disruption Points",
            "On the rallying unit; at 3 it is dispersed.",
            1,
            2,
            1,
        ),
        InputSpec::number(
            "distance",
            "Closest enemy (inches)",
            "Sets the rally target number.",
            0.0,
            200.0,
            12.0,
        )
        .house(super::rally::RALLY_TN_RULING),
        InputSpec::toggle("cover", "In or behind cover", "+1D."),
        InputSpec::toggle("no_los", "No line of sight to any enemy", "+1D.")
            // `campaign record … rally --no-line-of-sight` before its flags were built from these.
            .flag_aliases(&["no-line-of-sight"]),
        InputSpec::count(
            "wild",
            "Wild dice / Staff Orders",
            "+1D each; at most one of each.",
            0,
            2,
            0,
        ),
        InputSpec::toggle(
            "suppressed",
            "Suppressed",
            "A suppressed unit cannot rally.",
        ),
        InputSpec::count(
            "battle",
            "Battle",
            "Lorraine battle 1–3: the battle group's rally dice.",
            1,
            3,
            1,
        ),
    ]
}

fn move_inputs() -> Vec<InputSpec> {
    vec![
        InputSpec::card(
            "unit",
            "Unit",
            "The unit moving (Poor Reliability breaks down on double and triple moves).",
            on_table,
        )
        .flag("breakdown")
        .refusing("is off-table artillery and never moves"),
        MOVES
            .input(
                "move",
                "Move",
                "Single, double or triple move.",
                MoveOrder::Double,
            )
            .house(super::reliability::BREAKDOWN_RULING),
    ]
}

/// The Armour Battles card chosen for `key`.
fn unit<'a>(
    inputs: &'a Inputs,
    key: &'static str,
    what: &str,
) -> Result<&'a UnitCard, ResolveError> {
    inputs
        .require_card(key, what)?
        .as_card(key, "Armour Battles", |c| match c {
            Card::ArmourBattles(u) => Some(u),
            _ => None,
        })
}

/// An Armour Battles refusal in the one error type, naming the input at fault.
/// `disruption` is the input holding the Disruption Points (`target_disruption` for fire,
/// `disruption` for a rally).
fn refused(disruption: &'static str) -> impl Fn(AbError) -> ResolveError {
    move |error| {
        let field = match &error {
            AbError::ArtilleryCannotFireDirectly { .. } => "attacker",
            AbError::NotArtillery { .. } => "battery",
            AbError::CannotBeTargeted { .. } | AbError::MissingStat { .. } => "target",
            AbError::DisruptionTooHigh { .. } => disruption,
            AbError::CannotEvade { .. } => "evading",
            AbError::Situation {
                field,
                value,
                reason,
            } => {
                let field = match *field {
                    "attacker_move" => "move",
                    "distance_inches" => "distance",
                    other => other,
                };
                return ResolveError::invalid(field, format!("{value}: {reason}"));
            }
            AbError::SuppressedCannotRally => "suppressed",
            AbError::TooManyCommandDice { side, .. } | AbError::NoCommandDice { side } => {
                if *side == "US" {
                    "us_dice"
                } else {
                    "german_dice"
                }
            }
            AbError::EndlessTie { .. } => return ResolveError::NoResult(error.to_string()),
            AbError::Dice(e) => return ResolveError::Dice(*e),
            AbError::Data(e) => return e.clone().into(),
        };
        ResolveError::invalid(field, error.to_string())
    }
}

fn bonus(inputs: &Inputs, key: &'static str) -> Result<Bonus, ResolveError> {
    let count = inputs.count_u32(key);
    Bonus::from_count(count).ok_or_else(|| {
        ResolveError::invalid(
            key,
            format!("{count} given: at most 2 (one wild die and one Staff Order per action)"),
        )
    })
}

fn move_order(inputs: &Inputs) -> Result<MoveOrder, ResolveError> {
    MOVES.read(inputs, "move")
}

/// Whether the inputs describe an artillery mission.
fn is_artillery(inputs: &Inputs) -> Result<bool, ResolveError> {
    Ok(KINDS.read(inputs, "kind")? == Kind::Artillery)
}

/// Checks the fire inputs that can be refused before any card is chosen.
fn check_fire(inputs: &Inputs) -> Result<(), ResolveError> {
    bonus(inputs, "attacker_wild")?;
    bonus(inputs, "target_wild")?;
    let evading = EVASIONS.read(inputs, "evading")?;
    let breaks_off = matches!(
        evading,
        Evading::No | Evading::Auto | Evading::As(Evasion::BreakOff)
    );
    if is_artillery(inputs)? && !breaks_off {
        return Err(ResolveError::invalid(
            "evading",
            format!(
                "{}: only Break-Off gains +2D against artillery",
                inputs.choice("evading").replace('_', "-")
            ),
        ));
    }
    Ok(())
}

/// A direct or opportunity fire action as the rules take it, and how the situation was read.
pub struct DirectFire<'a> {
    pub attacker: &'a UnitCard,
    pub target: &'a UnitCard,
    pub situation: FireSituation,
    /// Set when a direct shot at a disengaging target was read as opportunity fire.
    pub note: Option<String>,
}

/// The target (the input check keeps off-table artillery out).
fn target(inputs: &Inputs) -> Result<&UnitCard, ResolveError> {
    unit(inputs, "target", "target")
}

/// Reads direct or opportunity fire from `inputs`. A target that evades without Break-Off
/// disengages, and only opportunity fire catches a disengaging unit, so a direct shot at it
/// is read as opportunity fire, with a note saying so.
///
/// # Errors
/// [`ResolveError::Invalid`] naming the input for a missing card, an artillery mission, or
/// too many wild dice (inputs the input check has passed hold no off-table attacker).
pub fn direct_fire(inputs: &Inputs) -> Result<DirectFire<'_>, ResolveError> {
    let Kind::Shot(mut mode) = KINDS.read(inputs, "kind")? else {
        return Err(ResolveError::invalid(
            "kind",
            "an artillery mission is fired by a battery, not a shot",
        ));
    };
    let attacker = unit(inputs, "attacker", "attacker")?;
    let target = target(inputs)?;
    let evasion = match EVASIONS.read(inputs, "evading")? {
        Evading::No => None,
        Evading::Auto => Some(Evasion::for_target(target)),
        Evading::As(evasion) => Some(evasion),
    };
    let mut note = None;
    if evasion == Some(Evasion::Disengage) && mode == FireMode::Direct {
        mode = FireMode::Opportunity;
        note = Some(format!(
            "{} has no Break-Off: it gains +2D by disengaging, which only opportunity fire can catch",
            inputs.label_of("target")
        ));
    }
    Ok(DirectFire {
        attacker,
        target,
        situation: FireSituation {
            mode,
            range: RANGES.read(inputs, "range")?,
            flank: inputs.flag("flank"),
            cover: inputs.flag("cover"),
            uphill: inputs.flag("uphill"),
            attacker_move: move_order(inputs)?,
            ambush: inputs.flag("ambush"),
            evasion,
            target_suppressed: inputs.flag("target_suppressed"),
            target_disruption: inputs.count_u32("target_disruption"),
            attacker_bonus: bonus(inputs, "attacker_wild")?,
            target_bonus: bonus(inputs, "target_wild")?,
        },
        note,
    })
}

/// An artillery mission as the rules take it.
pub struct Mission<'a> {
    pub battery: &'a UnitCard,
    pub target: &'a UnitCard,
    pub situation: ArtillerySituation,
    pub response_dice: u32,
}

/// The Lorraine battle group of `side` in `battle` (1–3).
fn group(
    battle: u32,
    side: Side,
    field: &'static str,
) -> Result<&'static BattleGroup, ResolveError> {
    let id = format!(
        "lorraine-{battle}-{}",
        match side {
            Side::First => "us",
            Side::Second => "german",
        }
    );
    super::battle_group(&id).ok_or_else(|| {
        ResolveError::invalid(field, format!("{battle}: the campaign has battles 1 to 3"))
    })
}

/// Reads an artillery mission: the response dice are given, or the battle group's (the
/// chosen battle's, else the first Lorraine battle whose group of the battery's side has
/// artillery).
///
/// # Errors
/// A missing or wrong card, or a battle group without artillery.
pub fn mission(inputs: &Inputs) -> Result<Mission<'_>, ResolveError> {
    let battery = unit(inputs, "battery", "battery")?;
    let target = target(inputs)?;
    let response_dice = match (
        inputs.count_u32("response_dice"),
        inputs.count_u32("battle"),
    ) {
        (0, battle) => {
            let battles = if battle == 0 {
                vec![1, 2, 3]
            } else {
                vec![battle]
            };
            let mut found = None;
            for b in battles {
                if let Some(dice) = group(b, battery.side, "battle")?.artillery_response_dice {
                    found = Some(dice);
                    break;
                }
            }
            found.ok_or_else(|| {
                ResolveError::invalid(
                    "battle",
                    format!(
                        "{}: the {} battle group has no artillery (give the response dice)",
                        battle.max(1),
                        battery.side.label()
                    ),
                )
            })?
        }
        (dice, _) => dice,
    };
    Ok(Mission {
        battery,
        target,
        situation: ArtillerySituation {
            target_suppressed: inputs.flag("target_suppressed"),
            target_disruption: inputs.count_u32("target_disruption"),
            cover: inputs.flag("cover"),
            break_off: matches!(
                EVASIONS.read(inputs, "evading")?,
                Evading::Auto | Evading::As(Evasion::BreakOff)
            ),
            attacker_bonus: bonus(inputs, "attacker_wild")?,
            target_bonus: bonus(inputs, "target_wild")?,
        },
        response_dice,
    })
}

/// A rally as the rules take it: the unit, the battle group's rally dice and the situation.
fn rally(inputs: &Inputs) -> Result<(&UnitCard, u32, RallySituation), ResolveError> {
    let unit = unit(inputs, "unit", "rallying unit")?;
    let rally_dice = group(inputs.count_u32("battle").max(1), unit.side, "battle")?.rally_dice;
    Ok((
        unit,
        rally_dice,
        RallySituation {
            distance_inches: inputs.number("distance"),
            cover: inputs.flag("cover"),
            no_line_of_sight: inputs.flag("no_los"),
            bonus: bonus(inputs, "wild")?,
            disruption: inputs.count_u32("disruption"),
            suppressed: inputs.flag("suppressed"),
        },
    ))
}

/// The first-pulse rule of `battle`: the US battle group's briefing says.
fn first_pulse(inputs: &Inputs) -> Result<(u32, FirstPulse), ResolveError> {
    let battle = inputs.count_u32("battle").max(1);
    Ok((battle, group(battle, Side::First, "battle")?.first_pulse))
}
