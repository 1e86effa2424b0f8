//! Battle of Tanks in the Resolve view: a fire order (the fire rate split over one or more
//! targets, range against sight, cover, hull-down and hull-to-hull), track repair and
//! spotting.
//!
//! The form only gathers the situation; `rules::battle_of_tanks::resolve` does every sum.

use egui::RichText;

use super::shared::{
    Rolled, card_combo, count_chart, count_field, faces, house_default, label_with_default,
    library_card, library_names, pct, rulings_footer,
};
use crate::rules::battle_of_tanks::TankCard;
use crate::rules::battle_of_tanks::resolve::{
    self as bt, Cover, FireOdds, FireSituation, FireTarget, PenetrationFace,
};
use crate::rules::battle_of_tanks::rulings::{
    MOVING_TARGET_RULING, PENETRATION_RULING, SPOTTING_RULING, TO_HIT_RULING,
};
use crate::rules::dice::{Dist, Roller};
use crate::rules::words::amount;
use crate::rules::{Card, RulesetId};
use crate::ui::model::Model;

/// Which Battle of Tanks mechanic the form resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Kind {
    #[default]
    Fire,
    Repair,
    Spotting,
}

impl Kind {
    /// The mechanic's name after the ruleset's in the picker.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Fire => "fire",
            Kind::Repair => "repair",
            Kind::Spotting => "spotting",
        }
    }
}

/// One target of the fire order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct TankTarget {
    pub name: Option<String>,
    /// Shots at this target; 0 with a single target means the whole fire rate.
    pub shots: u32,
    /// Distance in cm checked against sight; 0 when not checked.
    pub range_cm: u32,
    /// Hit points left; 0 for undamaged.
    pub hit_points: u32,
}

/// A Battle of Tanks fire order (and the tank for repair and spotting) as chosen in the form.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TankSetup {
    pub attacker: Option<String>,
    pub targets: Vec<TankTarget>,
    pub moving: bool,
    pub ambush: bool,
    /// The target moved this turn (+1, house default "Moving target").
    pub target_moving: bool,
    /// The targets' cover (and the spotting target's).
    pub cover: Cover,
    /// Hull-down behind heavy cover with a turret shot declared.
    pub hull_down: bool,
    pub hull_to_hull: bool,
}

impl Default for TankSetup {
    fn default() -> Self {
        TankSetup {
            attacker: None,
            targets: vec![TankTarget::default()],
            moving: false,
            ambush: false,
            target_moving: false,
            cover: Cover::Open,
            hull_down: false,
            hull_to_hull: false,
        }
    }
}

fn tank_card(name: Option<&str>) -> Option<&'static TankCard> {
    match library_card(RulesetId::BattleOfTanks, name)? {
        Card::BattleOfTanks(tank) => Some(tank),
        _ => None,
    }
}

impl TankSetup {
    fn attacker(&self) -> Result<&'static TankCard, String> {
        tank_card(self.attacker.as_deref()).ok_or_else(|| "Choose the firing tank.".to_string())
    }

    fn situation(&self) -> FireSituation {
        FireSituation {
            moving: self.moving,
            ambush: self.ambush,
            target_moving: self.target_moving,
            // A hull-down target stands behind heavy cover by definition.
            cover: if self.hull_down {
                Cover::Heavy
            } else {
                self.cover
            },
            hull_down_turret_shot: self.hull_down,
            hull_to_hull: self.hull_to_hull,
        }
    }

    fn order(&self) -> Result<(&'static TankCard, Vec<FireTarget<'static>>), String> {
        let attacker = self.attacker()?;
        let single = self.targets.len() == 1;
        let targets = self
            .targets
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let card = tank_card(t.name.as_deref()).ok_or_else(|| {
                    if single {
                        "Choose the target.".to_string()
                    } else {
                        format!("Choose target {}.", i + 1)
                    }
                })?;
                Ok(FireTarget {
                    card,
                    shots: if t.shots == 0 && single {
                        attacker.fire_rate
                    } else {
                        t.shots
                    },
                    range_cm: (t.range_cm > 0).then_some(t.range_cm),
                    remaining_hp: if t.hit_points == 0 {
                        card.hit_points
                    } else {
                        t.hit_points
                    },
                    situation: self.situation(),
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok((attacker, targets))
    }
}

/// Everything the Battle of Tanks forms hold.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Form {
    pub tank: TankSetup,
}

/// What one Battle of Tanks roll resolves: enough to roll it again.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Subject {
    Fire(TankSetup),
    Repair(TankSetup),
    Spotting(TankSetup),
}

/// What the Roll button rolls for `kind` with this form.
pub fn subject(kind: Kind, form: &Form) -> Subject {
    let tank = form.tank.clone();
    match kind {
        Kind::Fire => Subject::Fire(tank),
        Kind::Repair => Subject::Repair(tank),
        Kind::Spotting => Subject::Spotting(tank),
    }
}

/// The odds shown for a subject.
#[derive(Debug, Clone, PartialEq)]
pub enum Odds {
    Fire {
        attacker: String,
        accuracy: u8,
        fire_rate: u32,
        targets: Vec<FireOdds>,
    },
    Repair {
        tank: String,
        need: u8,
        repaired: Dist<bool>,
    },
    Spotting {
        tank: String,
        cover: Cover,
        need: Option<u32>,
        spotted: Dist<bool>,
    },
}

/// The exact odds of `subject`, or why it cannot be resolved.
pub fn odds(subject: &Subject) -> Result<Odds, String> {
    match subject {
        Subject::Fire(setup) => {
            let (attacker, targets) = setup.order()?;
            let odds = bt::fire_order_odds(attacker, &targets).map_err(|e| e.to_string())?;
            Ok(Odds::Fire {
                attacker: attacker.name.clone(),
                accuracy: attacker.accuracy,
                fire_rate: attacker.fire_rate,
                targets: odds,
            })
        }
        Subject::Repair(setup) => {
            let tank = setup.attacker()?;
            Ok(Odds::Repair {
                tank: tank.name.clone(),
                need: tank.repair,
                repaired: bt::repair_odds(tank),
            })
        }
        Subject::Spotting(setup) => {
            let tank = setup.attacker()?;
            let need = bt::spotting_need(tank, setup.cover).map_err(|e| e.to_string())?;
            Ok(Odds::Spotting {
                tank: tank.name.clone(),
                cover: setup.cover,
                need,
                spotted: bt::spotting_odds(tank, setup.cover).map_err(|e| e.to_string())?,
            })
        }
    }
}

// ---------------------------------------------------------------------------------------
// Forms

fn tank_names(model: &Model) -> (Vec<String>, Vec<String>) {
    library_names(model, RulesetId::BattleOfTanks, |_| true)
}

fn cover_radios(ui: &mut egui::Ui, cover: &mut Cover, label: &str) {
    ui.horizontal(|ui| {
        ui.label(label);
        for (c, text) in [
            (Cover::Open, "Open"),
            (Cover::Light, "Light cover"),
            (Cover::Heavy, "Heavy cover"),
        ] {
            ui.radio_value(cover, c, text);
        }
    });
}

/// Draws the form of `kind`, editing `form` in place.
pub fn form(kind: Kind, form: &mut Form, model: &Model, ui: &mut egui::Ui) {
    let tank = &mut form.tank;
    let names = tank_names(model);
    match kind {
        Kind::Fire => fire_form(tank, &names, ui),
        Kind::Repair => {
            ui.heading("Track repair");
            card_combo(ui, "Repairing tank", &mut tank.attacker, &names);
        }
        Kind::Spotting => {
            ui.heading("Spotting");
            card_combo(ui, "Spotting tank", &mut tank.attacker, &names);
            cover_radios(ui, &mut tank.cover, "Target in");
        }
    }
}

fn fire_form(tank: &mut TankSetup, names: &(Vec<String>, Vec<String>), ui: &mut egui::Ui) {
    ui.heading("Fire order");
    card_combo(ui, "Firing tank", &mut tank.attacker, names);
    if let Some(attacker) = tank_card(tank.attacker.as_deref()) {
        ui.label(
            RichText::new(format!(
                "Accuracy {}+, fire rate {}, firepower {}, sight {} cm",
                attacker.accuracy, attacker.fire_rate, attacker.firepower, attacker.sight_cm
            ))
            .weak(),
        );
    }
    let single = tank.targets.len() == 1;
    let mut remove = None;
    for (i, target) in tank.targets.iter_mut().enumerate() {
        // The first target keeps the plain labels; the others are numbered so each field
        // has a name of its own.
        let suffix = if i == 0 {
            String::new()
        } else {
            format!(" {}", i + 1)
        };
        ui.push_id(i, |ui| {
            ui.separator();
            card_combo(ui, &format!("Target tank{suffix}"), &mut target.name, names);
            let shots_label = if single {
                "Shots (0 = fire rate)".to_string()
            } else {
                format!("Shots at target {}", i + 1)
            };
            count_field(ui, &shots_label, &mut target.shots, 0..=10);
            count_field(
                ui,
                &format!("Range cm{suffix} (0 = not checked)"),
                &mut target.range_cm,
                0..=500,
            );
            count_field(
                ui,
                &format!("Hit points left{suffix} (0 = full)"),
                &mut target.hit_points,
                0..=20,
            );
            if i > 0 && ui.button(format!("Remove target {}", i + 1)).clicked() {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = remove {
        tank.targets.remove(i);
    }
    if ui
        .button("Add target")
        .on_hover_text("Split the fire rate over several targets")
        .clicked()
    {
        tank.targets.push(TankTarget::default());
    }
    ui.separator();
    ui.checkbox(&mut tank.moving, "Firing on the move")
        .on_hover_text("Angriff: +1 to hit");
    ui.checkbox(&mut tank.target_moving, "Target moved this turn")
        .on_hover_text("+1 to hit, like a moving firer (house default: Rulings, Moving target)");
    ui.checkbox(&mut tank.ambush, "Firing from ambush")
        .on_hover_text("Hinterhalt: −1 to hit; a tank in ambush is not moving");
    ui.add_enabled_ui(!tank.hull_down, |ui| {
        cover_radios(ui, &mut tank.cover, "Target cover");
    });
    ui.checkbox(&mut tank.hull_down, "Hull-down, turret shot")
        .on_hover_text("Behind heavy cover: no cover modifier, only T penetrates");
    ui.checkbox(&mut tank.hull_to_hull, "Hull to hull")
        .on_hover_text("Only T penetrates");
}

// ---------------------------------------------------------------------------------------
// Odds

/// Shows `odds`: charts, "at least" figures and the house defaults they rest on.
pub fn show(ui: &mut egui::Ui, odds: &Odds) {
    match odds {
        Odds::Fire {
            attacker,
            accuracy,
            fire_rate,
            targets,
        } => {
            let shots: u32 = targets.iter().map(|t| t.shots).sum();
            ui.label(format!(
                "{attacker} fires {shots} of {fire_rate} shot(s) (accuracy {accuracy}+)"
            ));
            for (i, target) in targets.iter().enumerate() {
                ui.push_id(i, |ui| show_volley(ui, i, target));
            }
            rulings_footer(
                ui,
                &[TO_HIT_RULING, MOVING_TARGET_RULING, PENETRATION_RULING],
            );
        }
        Odds::Repair {
            tank,
            need,
            repaired,
        } => {
            ui.label(format!("{tank} repairs its tracks on {need}+"));
            ui.label(format!("P(repaired): {}", pct(repaired.probability(&true))));
        }
        Odds::Spotting {
            tank,
            cover,
            need,
            spotted,
        } => {
            match need {
                None => {
                    ui.label(format!(
                        "{tank} spots a target on open ground automatically"
                    ));
                }
                Some(n) => label_with_default(
                    ui,
                    format!("{tank} spots a target in {} on {n}+", cover.label()),
                    &SPOTTING_RULING,
                ),
            }
            ui.label(format!("P(spotted): {}", pct(spotted.probability(&true))));
            if need.is_some() {
                rulings_footer(ui, &[SPOTTING_RULING]);
            }
        }
    }
}

fn show_volley(ui: &mut egui::Ui, index: usize, odds: &FireOdds) {
    ui.add_space(6.0);
    ui.strong(format!(
        "{} ({} hit points left){}",
        odds.target,
        odds.remaining_hp,
        if odds.turret_only {
            " — only T penetrates"
        } else {
            ""
        }
    ));
    label_with_default(
        ui,
        format!(
            "{}, hit on {}",
            amount(u64::from(odds.shots), "shots"),
            odds.need_words()
        ),
        &TO_HIT_RULING,
    );
    ui.label(format!("P(hit) per shot: {}", pct(odds.p_hit_per_shot())));
    count_chart(ui, &format!("tank_hits_{index}"), "Hits ", &odds.hits());
    ui.label(format!(
        "Average damage {:.1} of {} HP",
        odds.damage.expectation(|&x| f64::from(x)),
        odds.remaining_hp
    ));
    ui.label(format!("P(destroyed): {}", pct(odds.p_destroyed())));
    ui.horizontal(|ui| {
        ui.label(format!(
            "P(at least one penetration): {}",
            pct(odds.volley.probability_where(|v| v.penetrations > 0))
        ));
        house_default(ui, &PENETRATION_RULING);
    });
    ui.label(format!("P(tracks hit): {}", pct(odds.p_tracks_hit())));
}

// ---------------------------------------------------------------------------------------
// Rolls

fn letter(face: &PenetrationFace) -> &'static str {
    match face {
        PenetrationFace::Blank => "blank",
        PenetrationFace::Tracks => "K",
        PenetrationFace::Turret => "T",
        PenetrationFace::Hull => "W",
    }
}

/// Rolls `subject` with a fresh roller on `seed`: the same seed gives the same dice.
pub fn roll(subject: &Subject, seed: u64) -> Result<Rolled, String> {
    let mut roller = Roller::new(seed);
    match subject {
        Subject::Fire(setup) => {
            let (attacker, targets) = setup.order()?;
            let roll = bt::roll_fire(attacker, &targets, &mut roller).map_err(|e| e.to_string())?;
            let mut dice = Vec::new();
            let mut results = Vec::new();
            for volley in &roll.volleys {
                dice.push((
                    format!("To hit {} ({}+)", volley.target, volley.need),
                    faces(&volley.to_hit),
                ));
                if let Some(p) = &volley.penetration {
                    dice.push((format!("Penetration {} (read)", volley.target), faces(p)));
                }
                let read: Vec<&str> = volley.faces.iter().map(letter).collect();
                results.push(format!(
                    "{}: {} hit(s){}, {} penetration(s), {} track hit(s): {} damage, {} → {} HP{}",
                    volley.target,
                    volley.volley.hits,
                    if read.is_empty() {
                        String::new()
                    } else {
                        format!(" [{}]", read.join(" "))
                    },
                    volley.volley.penetrations,
                    volley.volley.track_hits,
                    volley.damage,
                    volley.remaining_before,
                    volley.remaining_after,
                    if volley.destroyed {
                        " — DESTROYED"
                    } else {
                        ""
                    }
                ));
            }
            let names: Vec<&str> = roll.volleys.iter().map(|v| v.target.as_str()).collect();
            Ok(Rolled {
                title: format!("{} fires at {}", attacker.name, names.join(" and ")),
                dice,
                result: results.join("; "),
            })
        }
        Subject::Repair(setup) => {
            let tank = setup.attacker()?;
            let roll = bt::roll_repair(tank, &mut roller).map_err(|e| e.to_string())?;
            Ok(Rolled {
                title: format!("{} repairs its tracks", tank.name),
                dice: vec![(format!("Repair ({}+)", roll.need), faces(&roll.die))],
                result: if roll.repaired {
                    "repaired".into()
                } else {
                    "not repaired".into()
                },
            })
        }
        Subject::Spotting(setup) => {
            let tank = setup.attacker()?;
            let roll =
                bt::roll_spotting(tank, setup.cover, &mut roller).map_err(|e| e.to_string())?;
            let (dice, result) = match (&roll.die, roll.need) {
                (Some(die), Some(need)) => (
                    vec![(format!("Spotting ({need}+)"), faces(die))],
                    if roll.spotted {
                        "spotted".to_string()
                    } else {
                        "not spotted".to_string()
                    },
                ),
                _ => (
                    Vec::new(),
                    "open ground: spotted automatically (no die)".to_string(),
                ),
            };
            Ok(Rolled {
                title: format!("{} spots a target in {}", tank.name, setup.cover.label()),
                dice,
                result,
            })
        }
    }
}
