//! Armour Battles in the Resolve view beyond fire: the command dice at the start of a turn
//! (Command Failure, wild dice, dice chains, the first pulse), rallying a unit against the
//! Rally Table, and a move with the Tiger I's Poor Reliability.
//!
//! Fire stays in the hub (`resolve.rs`) because a campaign battle links to it. The form only
//! gathers the situation; `rules::armour_battles::{command, rally, reliability}` do every sum.

use egui::RichText;

use super::shared::{
    Rolled, bar_chart, card_combo, count_chart, count_field, dist_bars, faces, house_mark, pct,
    rulings_footer,
};
use crate::rules::armour_battles::command::{
    self, CommandOdds, CommandTurn, MAX_EXACT_COMMAND_DICE, PulseOutcome, SideCommand,
};
use crate::rules::armour_battles::fire::{Bonus, MoveOrder};
use crate::rules::armour_battles::outcome::Chance;
use crate::rules::armour_battles::rally::{self, RallyOdds, RallySituation, RallyTable};
use crate::rules::armour_battles::reliability::{self, MoveOdds, MoveResult};
use crate::rules::armour_battles::{self as ab, FirstPulse, Side, SpecialRule, UnitCard, UnitKind};
use crate::rules::dice::Roller;
use crate::ui::model::Model;

/// The most command dice a side may be given in the form.
const MAX_COMMAND_DICE: u32 = 12;

/// Which Armour Battles mechanic (other than fire) the form resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Kind {
    #[default]
    Command,
    Rally,
    Breakdown,
}

impl Kind {
    /// The mechanic's name after the ruleset's in the picker.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Command => "command dice",
            Kind::Rally => "rally",
            Kind::Breakdown => "breakdown",
        }
    }
}

/// The start of a turn: both sides' command dice and who may take the first pulse.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CommandSetup {
    pub us_dice: u32,
    pub german_dice: u32,
    pub rule: FirstPulse,
}

/// The numbers of Lorraine battle `battle` (1–3), if the seed data has both groups.
fn battle_numbers(battle: u32) -> Option<CommandSetup> {
    let us = ab::battle_group(&format!("lorraine-{battle}-us"))?;
    let german = ab::battle_group(&format!("lorraine-{battle}-german"))?;
    Some(CommandSetup {
        us_dice: us.command_dice,
        german_dice: german.command_dice,
        rule: us.first_pulse,
    })
}

impl Default for CommandSetup {
    fn default() -> Self {
        // Battle 1 of the Lorraine campaign; its briefing numbers if the seed data failed.
        battle_numbers(1).unwrap_or(CommandSetup {
            us_dice: 4,
            german_dice: 3,
            rule: FirstPulse::Roll,
        })
    }
}

/// One rally attempt.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RallySetup {
    pub unit: Option<String>,
    /// The battle group's Rally Dice.
    pub rally_dice: u32,
    pub disruption: u32,
    /// Whole inches to the closest enemy unit.
    pub distance_inches: u32,
    pub cover: bool,
    pub no_line_of_sight: bool,
    pub wild_die: bool,
    pub staff_order: bool,
    pub suppressed: bool,
}

impl Default for RallySetup {
    fn default() -> Self {
        RallySetup {
            unit: None,
            // Every Lorraine battle group has 4 Rally Dice; the first group's count is used.
            rally_dice: ab::battle_groups().first().map_or(4, |g| g.rally_dice),
            disruption: 1,
            distance_inches: 12,
            cover: false,
            no_line_of_sight: false,
            wild_die: false,
            staff_order: false,
            suppressed: false,
        }
    }
}

impl RallySetup {
    fn situation(&self) -> RallySituation {
        RallySituation {
            distance_inches: f64::from(self.distance_inches),
            cover: self.cover,
            no_line_of_sight: self.no_line_of_sight,
            bonus: Bonus {
                wild_die: self.wild_die,
                staff_order: self.staff_order,
            },
            disruption: self.disruption,
            suppressed: self.suppressed,
        }
    }
}

/// One move, checked for a breakdown.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct BreakdownSetup {
    pub unit: Option<String>,
    pub order: MoveOrder,
}

/// Everything the Armour Battles command, rally and breakdown forms hold.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Form {
    pub command: CommandSetup,
    pub rally: RallySetup,
    pub breakdown: BreakdownSetup,
}

/// What one roll resolves: enough to roll it again.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Subject {
    Command(CommandSetup),
    Rally(RallySetup),
    Breakdown(BreakdownSetup),
}

/// What the Roll button rolls for `kind` with this form.
pub fn subject(kind: Kind, form: &Form) -> Subject {
    match kind {
        Kind::Command => Subject::Command(form.command.clone()),
        Kind::Rally => Subject::Rally(form.rally.clone()),
        Kind::Breakdown => Subject::Breakdown(form.breakdown.clone()),
    }
}

/// The odds shown for a subject.
#[derive(Debug, Clone, PartialEq)]
pub enum Odds {
    /// Exact Command Failure and first-pulse odds.
    Command(CommandOdds),
    /// More dice than the exact first-pulse odds handle: Command Failure only.
    CommandFailure {
        setup: CommandSetup,
        us_failure: Chance,
        german_failure: Chance,
        /// Why the first pulse is not shown.
        note: String,
    },
    Rally {
        odds: RallyOdds,
        table: &'static RallyTable,
        /// The Rally Table row used.
        row: Option<usize>,
        distance_inches: u32,
    },
    Breakdown {
        odds: MoveOdds,
        poor_reliability: bool,
    },
}

fn unit(name: Option<&str>) -> Result<&'static UnitCard, String> {
    let name = name.ok_or_else(|| "Choose the unit.".to_string())?;
    ab::unit_card(name).ok_or_else(|| format!("No Armour Battles unit '{name}'."))
}

/// The unit of a move: off-table artillery has none.
fn moving_unit(setup: &BreakdownSetup) -> Result<&'static UnitCard, String> {
    let unit = unit(setup.unit.as_deref())?;
    if unit.kind == UnitKind::OffTableArtillery {
        return Err(format!(
            "{} is off-table artillery and never moves.",
            unit.name
        ));
    }
    Ok(unit)
}

/// The exact odds of `subject`, or why it cannot be resolved.
pub fn odds(subject: &Subject) -> Result<Odds, String> {
    match subject {
        Subject::Command(setup) => command_odds(setup),
        Subject::Rally(setup) => {
            let unit = unit(setup.unit.as_deref())?;
            let odds = rally::rally_odds(unit, setup.rally_dice, &setup.situation())
                .map_err(|e| e.to_string())?;
            let table = ab::rally_table().map_err(|e| e.to_string())?;
            Ok(Odds::Rally {
                odds,
                table,
                row: table.row_at(f64::from(setup.distance_inches)),
                distance_inches: setup.distance_inches,
            })
        }
        Subject::Breakdown(setup) => {
            let unit = moving_unit(setup)?;
            Ok(Odds::Breakdown {
                odds: reliability::move_odds(unit, setup.order).map_err(|e| e.to_string())?,
                poor_reliability: unit.has(SpecialRule::PoorReliability),
            })
        }
    }
}

fn command_odds(setup: &CommandSetup) -> Result<Odds, String> {
    let CommandSetup {
        us_dice,
        german_dice,
        rule,
    } = *setup;
    match command::command_odds(us_dice, german_dice, rule) {
        Ok(odds) => Ok(Odds::Command(odds)),
        // Command Failure alone stays exact far past the first-pulse limit.
        Err(error) if us_dice.max(german_dice) > MAX_EXACT_COMMAND_DICE => {
            let failure = |dice| command::command_failure_odds(dice).map_err(|e| e.to_string());
            Ok(Odds::CommandFailure {
                setup: setup.clone(),
                us_failure: failure(us_dice)?,
                german_failure: failure(german_dice)?,
                note: error.to_string(),
            })
        }
        Err(error) => Err(error.to_string()),
    }
}

// ---------------------------------------------------------------------------------------
// Forms

/// Draws the form of `kind`, editing `form` in place.
pub fn form(kind: Kind, form: &mut Form, model: &Model, ui: &mut egui::Ui) {
    match kind {
        Kind::Command => command_form(ui, &mut form.command),
        Kind::Rally => rally_form(ui, model, &mut form.rally),
        Kind::Breakdown => breakdown_form(ui, model, &mut form.breakdown),
    }
}

fn command_form(ui: &mut egui::Ui, setup: &mut CommandSetup) {
    ui.heading("Command dice");
    ui.horizontal(|ui| {
        ui.label("Lorraine");
        for battle in 1..=3 {
            let Some(numbers) = battle_numbers(battle) else {
                continue;
            };
            if ui
                .button(format!("Battle {battle}"))
                .on_hover_text("Use this battle's command dice and first-pulse rule")
                .clicked()
            {
                *setup = numbers;
            }
        }
    });
    count_field(
        ui,
        "US command dice",
        &mut setup.us_dice,
        1..=MAX_COMMAND_DICE,
    );
    count_field(
        ui,
        "German command dice",
        &mut setup.german_dice,
        1..=MAX_COMMAND_DICE,
    );
    ui.label("First pulse");
    for (rule, text) in [
        (FirstPulse::Roll, "Most 6s goes first"),
        (FirstPulse::UsAutomatic, "US automatically"),
    ] {
        ui.radio_value(&mut setup.rule, rule, text)
            .on_hover_text(rule.label());
    }
}

fn rally_form(ui: &mut egui::Ui, model: &Model, setup: &mut RallySetup) {
    ui.heading("Rally");
    card_combo(
        ui,
        "Unit",
        &mut setup.unit,
        &super::unit_names(model, false),
    );
    // A unit is dispersed at its Cohesion, so it can hold one point fewer.
    let max = unit(setup.unit.as_deref())
        .map_or(2, |u| u32::from(u.cohesion).saturating_sub(1))
        .max(1);
    setup.disruption = setup.disruption.clamp(1, max);
    count_field(ui, "Disruption Points", &mut setup.disruption, 1..=max);
    count_field(ui, "Battle group Rally Dice", &mut setup.rally_dice, 1..=12);
    count_field(
        ui,
        "Inches to the closest enemy",
        &mut setup.distance_inches,
        0..=200,
    );
    ui.separator();
    ui.checkbox(&mut setup.cover, "In or behind cover")
        .on_hover_text("+1D rally (house default: Rulings, Rally Table)");
    ui.checkbox(&mut setup.no_line_of_sight, "No line of sight to the enemy")
        .on_hover_text("+1D rally (house default: Rulings, Rally Table)");
    ui.checkbox(&mut setup.wild_die, "Wild die")
        .on_hover_text("+1D rally");
    ui.checkbox(&mut setup.staff_order, "Staff Order")
        .on_hover_text("+1D rally");
    ui.checkbox(&mut setup.suppressed, "Suppressed")
        .on_hover_text("A suppressed unit cannot rally: remove its suppression first");
}

fn breakdown_form(ui: &mut egui::Ui, model: &Model, setup: &mut BreakdownSetup) {
    ui.heading("Move");
    card_combo(
        ui,
        "Unit",
        &mut setup.unit,
        &super::unit_names(model, false),
    );
    ui.horizontal(|ui| {
        ui.label("Orders");
        for order in [MoveOrder::Single, MoveOrder::Double, MoveOrder::Triple] {
            let text = match order {
                MoveOrder::Single => "Single move",
                MoveOrder::Double => "Double move",
                MoveOrder::Triple => "Triple move",
            };
            ui.radio_value(&mut setup.order, order, text);
        }
    });
}

// ---------------------------------------------------------------------------------------
// Odds

/// Shows `odds`: charts, "at least" figures and the house defaults they rest on.
pub fn show(ui: &mut egui::Ui, odds: &Odds) {
    match odds {
        Odds::Command(odds) => show_command(ui, odds),
        Odds::CommandFailure {
            setup,
            us_failure,
            german_failure,
            note,
        } => {
            command_heading(ui, setup.us_dice, setup.german_dice, setup.rule);
            failure_lines(ui, *us_failure, *german_failure);
            ui.label(RichText::new(format!("Note: {note}")).italics());
        }
        Odds::Rally {
            odds,
            table,
            row,
            distance_inches,
        } => show_rally(ui, odds, table, *row, *distance_inches),
        Odds::Breakdown {
            odds,
            poor_reliability,
        } => show_breakdown(ui, odds, *poor_reliability),
    }
}

fn command_heading(ui: &mut egui::Ui, us: u32, german: u32, rule: FirstPulse) {
    ui.label(format!("US {us}D, German {german}D"));
    ui.label(RichText::new(format!("First pulse: {}", rule.label())).weak());
    ui.label(
        RichText::new(
            "More 1s than 6s is a Command Failure: those 1s go to the opponent as wild dice \
             for this turn (otherwise they are discarded); both failing ends the turn.",
        )
        .weak(),
    );
}

fn failure_lines(ui: &mut egui::Ui, us: Chance, german: Chance) {
    ui.label(format!("P(US command failure): {}", pct(us.p())));
    ui.label(format!("P(German command failure): {}", pct(german.p())));
    ui.label(format!(
        "P(both fail: the turn ends): {} per roll",
        pct(us.p() * german.p())
    ));
}

fn pulse_label(outcome: &PulseOutcome) -> String {
    match outcome {
        PulseOutcome::UsFirst => "US first".into(),
        PulseOutcome::GermanFirst => "German first".into(),
        PulseOutcome::TurnEnds => "Turn ends".into(),
        PulseOutcome::Reroll => "Reroll".into(),
    }
}

fn show_command(ui: &mut egui::Ui, odds: &CommandOdds) {
    command_heading(ui, odds.us_dice, odds.german_dice, odds.rule);
    ui.add_space(6.0);
    failure_lines(ui, odds.us_failure, odds.german_failure);
    if odds.rule == FirstPulse::Roll {
        ui.label(format!(
            "P(full tie: both reroll): {} per roll",
            pct(odds.p_reroll())
        ));
    }
    ui.add_space(6.0);
    ui.strong("First pulse, after any rerolls");
    ui.horizontal(|ui| {
        bar_chart(
            ui,
            "armour_battles_first_pulse",
            &dist_bars(&odds.first_pulse, pulse_label),
        );
        ui.vertical(|ui| {
            ui.label(format!("P(US first pulse): {}", pct(odds.p_us_first())));
            ui.label(format!(
                "P(German first pulse): {}",
                pct(odds.p_german_first())
            ));
            ui.label(format!("P(turn ends at once): {}", pct(odds.p_turn_ends())));
        });
    });
}

fn show_rally(
    ui: &mut egui::Ui,
    odds: &RallyOdds,
    table: &RallyTable,
    row: Option<usize>,
    distance_inches: u32,
) {
    let h = &odds.house_defaults;
    ui.label(format!(
        "{} rallies with {} Disruption Point(s)",
        odds.unit, odds.disruption
    ));
    ui.horizontal(|ui| {
        ui.label(format!(
            "Rally dice: {}D at {}+",
            odds.rally_dice, odds.rally_tn
        ));
        ui.label(RichText::new(format!("battle group {}D", odds.base_dice)).weak());
        house_mark(ui, h, "rally_tn");
    });
    ui.label(format!(
        "Opponent: {}D at {}+ (one per Disruption Point)",
        odds.opponent_dice, odds.opponent_tn
    ));
    if !odds.modifiers.is_empty() {
        let list: Vec<String> = odds
            .modifiers
            .iter()
            .map(|m| format!("{} {:+}D", m.label, m.change))
            .collect();
        ui.label(RichText::new(format!("Modifiers: {}", list.join("; "))).weak());
    }
    ui.add_space(6.0);
    rally_table(ui, table, row, distance_inches, h);
    ui.add_space(6.0);
    ui.horizontal(|ui| {
        ui.strong("Disruption Points removed");
        house_mark(ui, h, "removed");
    });
    count_chart(ui, "armour_battles_rally", "Removed ", &odds.removed);
    rulings_footer(ui, h);
}

/// The Rally Table with the row used in bold.
fn rally_table(
    ui: &mut egui::Ui,
    table: &RallyTable,
    row: Option<usize>,
    distance_inches: u32,
    defaults: &[ab::outcome::HouseDefault],
) {
    ui.horizontal(|ui| {
        ui.strong("Rally Table");
        if defaults.iter().any(|d| d.value == "rally_tn") {
            house_mark(ui, defaults, "rally_tn");
        } else {
            ui.label(
                RichText::new("Rally Table: house default (RULINGS.md)")
                    .italics()
                    .weak(),
            );
        }
    });
    egui::Grid::new("armour_battles_rally_table")
        .num_columns(3)
        .show(ui, |ui| {
            let mut from = 0;
            for (index, band) in table.bands.iter().enumerate() {
                let distance = match band.up_to_inches {
                    Some(limit) => format!("up to {limit}″"),
                    None => format!("over {from}″"),
                };
                let tn = format!("{}+", band.tn);
                if row == Some(index) {
                    ui.strong(distance);
                    ui.strong(tn);
                    ui.label(format!("← {distance_inches}″ away"));
                } else {
                    ui.label(RichText::new(distance).weak());
                    ui.label(RichText::new(tn).weak());
                    ui.label("");
                }
                ui.end_row();
                from = band.up_to_inches.unwrap_or(from);
            }
        });
    let bonus = |n: i32| format!("{n:+}D");
    ui.label(
        RichText::new(format!(
            "Cover {}, no line of sight {}, wild die {}, Staff Order {}; the opponent rolls at {}+",
            bonus(table.cover_dice),
            bonus(table.no_line_of_sight_dice),
            bonus(table.wild_die_dice),
            bonus(table.staff_order_dice),
            table.opponent_tn
        ))
        .small()
        .weak(),
    );
}

fn move_label(result: &MoveResult) -> String {
    match result {
        MoveResult::BrokeDown => "broke down".into(),
        MoveResult::Moved(inches) => format!("{inches}″"),
    }
}

fn show_breakdown(ui: &mut egui::Ui, odds: &MoveOdds, poor_reliability: bool) {
    let h = &odds.house_defaults;
    ui.label(format!(
        "{} makes a {} ({} variable dice)",
        odds.unit,
        odds.order.label(),
        odds.dice
    ));
    if !poor_reliability {
        ui.strong(format!(
            "{} has no Poor Reliability: it never breaks down.",
            odds.unit
        ));
    } else if !odds.checks_reliability {
        ui.strong(format!(
            "{} has Poor Reliability, checked only on a double or triple move: a single move never breaks down.",
            odds.unit
        ));
    } else {
        ui.horizontal(|ui| {
            ui.label(format!("P(breakdown): {}", pct(odds.p_breakdown())))
                .on_hover_text("More 1s than 6s on the move's variable dice: no move this turn");
            house_mark(ui, h, "p_breakdown");
        });
    }
    ui.add_space(6.0);
    ui.strong("Distance moved");
    ui.horizontal(|ui| {
        bar_chart(
            ui,
            "armour_battles_move",
            &dist_bars(&odds.outcomes, move_label),
        );
        ui.vertical(|ui| {
            for (result, p) in odds.outcomes.probabilities() {
                if let MoveResult::Moved(inches) = result {
                    ui.label(format!(
                        "{inches}″: {} (at least {inches}″: {})",
                        pct(p),
                        pct(odds.outcomes.at_least(result))
                    ));
                }
            }
        });
    });
    rulings_footer(ui, h);
}

// ---------------------------------------------------------------------------------------
// Rolls

/// Rolls `subject` with a fresh roller on `seed`: the same seed gives the same dice.
pub fn roll(subject: &Subject, seed: u64) -> Result<Rolled, String> {
    let mut roller = Roller::new(seed);
    match subject {
        Subject::Command(setup) => {
            let turn =
                command::roll_command(setup.us_dice, setup.german_dice, setup.rule, &mut roller)
                    .map_err(|e| e.to_string())?;
            Ok(command_rolled(setup, &turn))
        }
        Subject::Rally(setup) => {
            let unit = unit(setup.unit.as_deref())?;
            let roll = rally::roll_rally(unit, setup.rally_dice, &setup.situation(), &mut roller)
                .map_err(|e| e.to_string())?;
            Ok(Rolled {
                title: format!("{} rallies", unit.name),
                dice: vec![
                    (format!("Rally ({}+)", roll.rally_tn), faces(&roll.rally)),
                    (
                        format!("Opponent ({}+)", roll.opponent_tn),
                        faces(&roll.opponent),
                    ),
                ],
                result: rally_result(&roll),
            })
        }
        Subject::Breakdown(setup) => {
            let unit = moving_unit(setup)?;
            let roll = reliability::roll_move(unit, setup.order, &mut roller)
                .map_err(|e| e.to_string())?;
            let result = match roll.result {
                MoveResult::BrokeDown => {
                    "BROKE DOWN: no move this turn (it may still fire)".to_string()
                }
                MoveResult::Moved(inches) => format!("moves {inches}″"),
            };
            Ok(Rolled {
                title: format!("{} makes a {}", unit.name, setup.order.label()),
                dice: vec![("Variable dice".into(), faces(&roll.record))],
                result,
            })
        }
    }
}

/// The result line of a rally, as the dice log shows it.
fn rally_result(roll: &rally::RallyRoll) -> String {
    format!(
        "{} success(es) vs {}: {} Disruption Point(s) removed, {} left",
        roll.rally_successes, roll.opponent_successes, roll.removed, roll.remaining
    )
}

fn side_text(side: &SideCommand) -> String {
    format!("{}: {}", side.side.label(), side.summary())
}

fn command_rolled(setup: &CommandSetup, turn: &CommandTurn) -> Rolled {
    let mut dice = Vec::new();
    let ties = turn.rounds.len().saturating_sub(1);
    for (index, round) in turn.rounds.iter().enumerate().take(ties) {
        let n = index + 1;
        dice.push((format!("Roll {n} US (full tie)"), faces(&round.us)));
        dice.push((format!("Roll {n} German (full tie)"), faces(&round.german)));
    }
    dice.push(("US".into(), faces(&turn.us.record)));
    dice.push(("German".into(), faces(&turn.german.record)));
    let pulse = match turn.first_pulse {
        Some(Side::Us) => "first pulse: US".to_string(),
        Some(Side::German) => "first pulse: German".to_string(),
        None => "both sides failed: the turn ends at once".to_string(),
    };
    Rolled {
        title: format!(
            "Command dice, US {}D vs German {}D",
            setup.us_dice, setup.german_dice
        ),
        dice,
        result: format!(
            "{} — {} — {pulse}",
            side_text(&turn.us),
            side_text(&turn.german)
        ),
    }
}
