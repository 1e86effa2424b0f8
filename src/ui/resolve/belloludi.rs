//! BelloLudi Tanks! in the Resolve view: the commander die for orders, one shot (to hit with
//! modifiers, damage from commander dice, bullseye, the target's shaken/broken state) and
//! two tanks crashing.
//!
//! The form only gathers the situation; `rules::belloludi::resolve` does every sum.

use egui::RichText;

use super::shared::{
    Rolled, bar_chart, card_combo, count_field, dist_bars, faces, house_default,
    label_with_default, library_card, library_names, pct, rulings_footer,
};
use crate::rules::belloludi::Vehicle;
use crate::rules::belloludi::resolve::{
    self as bl, CommandOutcome, CrashOdds, Damage, ShotOdds, ShotSituation, TankState, Target,
};
use crate::rules::belloludi::rulings::{
    COMMANDER_DIE_RULING, DISORDER_RULING, SHOOTING_RULING, STATE_RULING,
};
use crate::rules::dice::{Dist, Roller};
use crate::rules::{Card, RulesetId};
use crate::ui::model::Model;

/// Which BelloLudi mechanic the form resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Kind {
    #[default]
    Command,
    Shot,
    Crash,
}

impl Kind {
    /// The mechanic's name after the ruleset's in the picker.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Command => "commander die",
            Kind::Shot => "shot",
            Kind::Crash => "tank crash",
        }
    }
}

/// Two tanks and the shot's modifiers; a crash uses the tanks only.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct TankPair {
    /// The shooter (the first tank in a crash); a library name.
    pub shooter: Option<String>,
    /// The target (the second tank in a crash).
    pub target: Option<String>,
    /// Armour points left; 0 for undamaged.
    pub shooter_armour: u32,
    pub target_armour: u32,
    pub close: bool,
    pub shooter_shaken: bool,
    pub target_cover: bool,
    pub target_open_order: bool,
}

fn vehicle(name: Option<&str>, what: &str) -> Result<&'static Vehicle, String> {
    match library_card(RulesetId::Belloludi, name) {
        Some(Card::Belloludi(v)) => Ok(v),
        _ => Err(format!("Choose the {what}.")),
    }
}

fn target(vehicle: &'static Vehicle, armour: u32) -> Result<Target<'static>, String> {
    if armour == 0 {
        Ok(Target::fresh(vehicle))
    } else {
        Target::damaged(vehicle, armour).map_err(|e| e.to_string())
    }
}

impl TankPair {
    fn situation(&self) -> ShotSituation {
        ShotSituation {
            close_range: self.close,
            shooter_disordered_or_shaken: self.shooter_shaken,
            target_in_cover: self.target_cover,
            target_open_order: self.target_open_order,
        }
    }

    fn tanks(
        &self,
        first: &str,
        second: &str,
    ) -> Result<(Target<'static>, Target<'static>), String> {
        let a = vehicle(self.shooter.as_deref(), first)?;
        let b = vehicle(self.target.as_deref(), second)?;
        Ok((
            target(a, self.shooter_armour)?,
            target(b, self.target_armour)?,
        ))
    }
}

/// Everything the BelloLudi forms hold.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Form {
    pub tanks: TankPair,
}

/// What one BelloLudi roll resolves: enough to roll it again.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Subject {
    Command,
    Shot(TankPair),
    Crash(TankPair),
}

/// What the Roll button rolls for `kind` with this form.
pub fn subject(kind: Kind, form: &Form) -> Subject {
    match kind {
        Kind::Command => Subject::Command,
        Kind::Shot => Subject::Shot(form.tanks.clone()),
        Kind::Crash => Subject::Crash(form.tanks.clone()),
    }
}

/// The odds shown for a subject.
#[derive(Debug, Clone, PartialEq)]
pub enum Odds {
    Command(Dist<CommandOutcome>),
    Shot {
        odds: ShotOdds,
        shooter: String,
        target: String,
        /// Hits that leave the target shaken / broken, counted from undamaged.
        shaken_after: u32,
        broken_after: u32,
    },
    Crash {
        odds: CrashOdds,
        first: String,
        second: String,
    },
}

/// The exact odds of `subject`, or why it cannot be resolved.
pub fn odds(subject: &Subject) -> Result<Odds, String> {
    match subject {
        Subject::Command => bl::command_odds()
            .map(Odds::Command)
            .map_err(|e| e.to_string()),
        Subject::Shot(pair) => {
            let (shooter, target) = pair.tanks("shooting tank", "target")?;
            let odds = bl::shot_odds(shooter.vehicle, target, &pair.situation())
                .map_err(|e| e.to_string())?;
            Ok(Odds::Shot {
                odds,
                shooter: shooter.vehicle.name.clone(),
                target: target.vehicle.name.clone(),
                shaken_after: target.vehicle.hits_to_shaken(),
                broken_after: target.vehicle.hits_to_broken(),
            })
        }
        Subject::Crash(pair) => {
            let (first, second) = pair.tanks("first tank", "second tank")?;
            Ok(Odds::Crash {
                odds: bl::crash_odds(first, second).map_err(|e| e.to_string())?,
                first: first.vehicle.name.clone(),
                second: second.vehicle.name.clone(),
            })
        }
    }
}

// ---------------------------------------------------------------------------------------
// Forms

/// Draws the form of `kind`, editing `form` in place.
pub fn form(kind: Kind, form: &mut Form, model: &Model, ui: &mut egui::Ui) {
    let pair = &mut form.tanks;
    match kind {
        Kind::Command => {
            ui.label("The commander die for orders: 0–3 orders, or B and the blunder table.");
        }
        Kind::Shot => {
            ui.heading("Shot");
            tank_pickers(ui, model, pair, ("Shooting tank", "Target tank"));
            ui.separator();
            ui.checkbox(&mut pair.close, "Within close range (8″)")
                .on_hover_text("+1 to hit");
            ui.checkbox(&mut pair.shooter_shaken, "Shooter disordered or shaken")
                .on_hover_text("−1 to hit");
            ui.checkbox(&mut pair.target_cover, "Target in cover")
                .on_hover_text("Target not clear or in cover: −1 to hit");
            ui.checkbox(&mut pair.target_open_order, "Target in open order")
                .on_hover_text("−1 to hit");
        }
        Kind::Crash => {
            ui.heading("Crash");
            tank_pickers(ui, model, pair, ("First tank", "Second tank"));
        }
    }
}

fn tank_pickers(ui: &mut egui::Ui, model: &Model, pair: &mut TankPair, labels: (&str, &str)) {
    let names = library_names(model, RulesetId::Belloludi, |_| true);
    card_combo(ui, labels.0, &mut pair.shooter, &names);
    count_field(
        ui,
        &format!("{} armour left (0 = undamaged)", labels.0),
        &mut pair.shooter_armour,
        0..=20,
    );
    card_combo(ui, labels.1, &mut pair.target, &names);
    count_field(
        ui,
        &format!("{} armour left (0 = undamaged)", labels.1),
        &mut pair.target_armour,
        0..=20,
    );
}

// ---------------------------------------------------------------------------------------
// Odds

fn state_label(state: &TankState) -> String {
    format!("{state:?}")
}

fn command_label(outcome: &CommandOutcome) -> String {
    match outcome {
        CommandOutcome::Orders { orders } => orders.to_string(),
        CommandOutcome::Blunder { .. } => "B".into(),
    }
}

/// Shows `odds`: charts, "at least" figures and the house defaults they rest on.
pub fn show(ui: &mut egui::Ui, odds: &Odds) {
    match odds {
        Odds::Command(dist) => show_command(ui, dist),
        Odds::Shot {
            odds,
            shooter,
            target,
            shaken_after,
            broken_after,
        } => show_shot(ui, odds, shooter, target, (*shaken_after, *broken_after)),
        Odds::Crash {
            odds,
            first,
            second,
        } => show_crash(ui, odds, first, second),
    }
}

fn show_command(ui: &mut egui::Ui, dist: &Dist<CommandOutcome>) {
    label_with_default(ui, "Commander die (d20 reading)", &COMMANDER_DIE_RULING);
    let merged = dist.map(command_label);
    bar_chart(ui, "belloludi_command", &dist_bars(&merged, Clone::clone));
    for orders in 0..=3 {
        let p = dist.probability(&CommandOutcome::Orders { orders });
        ui.label(format!("P({orders} orders): {}", pct(p)));
    }
    let p_blunder = dist.probability_where(|o| matches!(o, CommandOutcome::Blunder { .. }));
    ui.label(format!("P(blunder): {}", pct(p_blunder)));
    rulings_footer(ui, &[COMMANDER_DIE_RULING]);
}

/// A state chart with the "or worse" figures players ask for.
fn state_chart(ui: &mut egui::Ui, id: &str, dist: &Dist<TankState>, name: &str) {
    ui.horizontal(|ui| {
        bar_chart(ui, id, &dist_bars(dist, state_label));
        ui.vertical(|ui| {
            for state in [TankState::Shaken, TankState::Broken, TankState::Destroyed] {
                ui.label(format!(
                    "{name}: P({} or worse): {}",
                    state_label(&state).to_lowercase(),
                    pct(dist.at_least(&state))
                ));
            }
        });
    });
}

fn show_shot(
    ui: &mut egui::Ui,
    odds: &ShotOdds,
    shooter: &str,
    target: &str,
    (shaken_after, broken_after): (u32, u32),
) {
    ui.label(format!(
        "{shooter} shoots at {target} ({} armour left)",
        odds.remaining_before
    ));
    label_with_default(
        ui,
        format!(
            "To hit: {}+ on a d6 (a 1 always misses, a 6 always hits)",
            odds.need
        ),
        &SHOOTING_RULING,
    );
    ui.label(format!("P(hit): {}", pct(odds.p_hit())));
    label_with_default(
        ui,
        format!(
            "Damage: {} commander dice (d20 reading), any B a bullseye",
            odds.commander_dice
        ),
        &COMMANDER_DIE_RULING,
    );
    ui.label(format!(
        "P(bullseye: destroyed): {}",
        pct(odds.p_bullseye())
    ));
    label_with_default(
        ui,
        format!(
            "P(all dice hit: target in disorder): {}",
            pct(odds.p_disorder())
        ),
        &DISORDER_RULING,
    );
    ui.add_space(6.0);
    ui.strong("Damage on a hit");
    let damage = odds
        .damage
        .map(|d: &Damage| (!d.bullseye).then_some(d.points));
    let label = |d: &Option<u32>| d.map_or("B".to_string(), |p| p.to_string());
    bar_chart(ui, "belloludi_damage", &dist_bars(&damage, label));
    ui.add_space(6.0);
    ui.horizontal(|ui| {
        ui.strong("Target after the shot");
        house_default(ui, &STATE_RULING);
    });
    ui.label(
        RichText::new(format!(
            "{target}: shaken after {shaken_after} hit(s), broken after {broken_after}"
        ))
        .weak(),
    );
    state_chart(ui, "belloludi_state", &odds.state_after, target);
    rulings_footer(ui, &[SHOOTING_RULING, COMMANDER_DIE_RULING, STATE_RULING]);
}

fn show_crash(ui: &mut egui::Ui, odds: &CrashOdds, first: &str, second: &str) {
    label_with_default(
        ui,
        "Each tank rolls a commander die and deals its number (0 or B: nothing)",
        &COMMANDER_DIE_RULING,
    );
    for (id, name, dist) in [
        ("belloludi_crash_first", first, &odds.first_after),
        ("belloludi_crash_second", second, &odds.second_after),
    ] {
        ui.horizontal(|ui| {
            ui.strong(format!("{name} after the crash"));
            house_default(ui, &STATE_RULING);
        });
        state_chart(ui, id, dist, name);
    }
    rulings_footer(ui, &[COMMANDER_DIE_RULING, STATE_RULING]);
}

// ---------------------------------------------------------------------------------------
// Rolls

/// Rolls `subject` with a fresh roller on `seed`: the same seed gives the same dice.
pub fn roll(subject: &Subject, seed: u64) -> Result<Rolled, String> {
    let mut roller = Roller::new(seed);
    match subject {
        Subject::Command => {
            let roll = bl::roll_command(&mut roller).map_err(|e| e.to_string())?;
            let mut dice = vec![(
                "Commander die (d20 read)".to_string(),
                faces(&roll.commander_die),
            )];
            for (what, record) in [("Blunder", &roll.blunder_die), ("Charge", &roll.charge_die)] {
                if let Some(record) = record {
                    dice.push((what.to_string(), faces(record)));
                }
            }
            let result = match roll.outcome {
                CommandOutcome::Orders { orders } => {
                    format!("face {}: {orders} order(s)", roll.face)
                }
                CommandOutcome::Blunder { moves, .. } => format!(
                    "B: blunder — {} ({moves} forced move(s))",
                    roll.blunder.as_deref().unwrap_or("?")
                ),
            };
            Ok(Rolled {
                title: "BelloLudi commander die".into(),
                dice,
                result,
            })
        }
        Subject::Shot(pair) => {
            let (shooter, target) = pair.tanks("shooting tank", "target")?;
            let roll = bl::roll_shot(shooter.vehicle, target, &pair.situation(), &mut roller)
                .map_err(|e| e.to_string())?;
            let mut dice = vec![(format!("To hit ({}+)", roll.need), faces(&roll.to_hit))];
            if let Some(record) = &roll.damage_dice {
                dice.push(("Commander dice (d20 read)".into(), faces(record)));
            }
            let mut result = if roll.hit {
                let read: Vec<String> = roll.faces.iter().map(ToString::to_string).collect();
                format!("hit, commander dice {}", read.join(" "))
            } else {
                "miss".to_string()
            };
            if roll.damage.is_some_and(|d| d.bullseye) {
                result.push_str(" — BULLSEYE");
            }
            result.push_str(&format!(
                "; {} armour {} → {}, {}",
                target.vehicle.name,
                roll.remaining_before,
                roll.remaining_after,
                state_label(&roll.state_after).to_lowercase()
            ));
            if roll.disordered {
                result.push_str("; all dice hit: target in disorder");
            }
            Ok(Rolled {
                title: format!("{} shoots at {}", shooter.vehicle.name, target.vehicle.name),
                dice,
                result,
            })
        }
        Subject::Crash(pair) => {
            let (first, second) = pair.tanks("first tank", "second tank")?;
            let roll = bl::roll_crash(first, second, &mut roller).map_err(|e| e.to_string())?;
            let read: Vec<String> = roll.faces.iter().map(ToString::to_string).collect();
            Ok(Rolled {
                title: format!(
                    "{} crashes into {}",
                    first.vehicle.name, second.vehicle.name
                ),
                dice: vec![(
                    "Commander dice (d20 read, first then second)".into(),
                    faces(&roll.dice),
                )],
                result: format!(
                    "read {}: {} takes {} hit(s), {} left, {}; {} takes {} hit(s), {} left, {}",
                    read.join(" "),
                    first.vehicle.name,
                    roll.hits.to_first,
                    roll.first_remaining,
                    state_label(&roll.first_after).to_lowercase(),
                    second.vehicle.name,
                    roll.hits.to_second,
                    roll.second_remaining,
                    state_label(&roll.second_after).to_lowercase()
                ),
            })
        }
    }
}
