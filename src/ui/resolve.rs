//! The Resolve view: exact odds and seeded, replayable dice rolls for Armour Battles fire
//! (direct, opportunity and off-table artillery), built on `rules::armour_battles`.
//!
//! The chosen situation lives in [`ResolveState::setup`]; the view edits it directly and the
//! odds are recomputed only when it changes. Rolls go through [`Action::Resolve`] so the
//! session dice log is only changed in [`super::App::apply`].

use egui::{Color32, Rect, RichText, Stroke, Vec2};

use crate::rules::Ruleset;
use crate::rules::RulesetId;
use crate::rules::armour_battles::artillery::{self, ArtilleryOdds, ArtillerySituation};
use crate::rules::armour_battles::fire::{
    self, Bonus, Evasion, FireMode, FireOdds, FireSituation, MoveOrder, RangeBand,
};
use crate::rules::armour_battles::outcome::{FireRoll, HouseDefault};
use crate::rules::armour_battles::{self as ab, ArmourBattles, UnitCard, UnitKind};
use crate::rules::battle_of_tanks::resolve::{self as bt, Cover};
use crate::rules::battle_of_tanks::{BattleOfTanks, TankCard};
use crate::rules::belle_epoque::resolve::{self as be, General};
use crate::rules::belloludi::resolve::{self as bl, CommandOutcome};
use crate::rules::bolt_action::{self as ba, Quality};
use crate::rules::card::Card;
use crate::rules::dice::{RollRecord, Roller};

use super::Action;
use super::model::Model;

/// Direct fire, opportunity fire or an off-table artillery mission.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ShotKind {
    #[default]
    Direct,
    Opportunity,
    Artillery,
}

impl ShotKind {
    pub fn label(self) -> &'static str {
        match self {
            ShotKind::Direct => "Direct fire",
            ShotKind::Opportunity => "Opportunity fire",
            ShotKind::Artillery => "Artillery",
        }
    }
}

/// Everything chosen in the form: the same choices as `quartermaster resolve armour-battles`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Setup {
    pub kind: ShotKind,
    /// Card names; `None` until chosen.
    pub attacker: Option<String>,
    pub target: Option<String>,
    pub range: RangeBand,
    pub flank: bool,
    pub cover: bool,
    pub uphill: bool,
    pub movement: MoveOrder,
    pub ambush: bool,
    /// The target makes its evasive move (Break-Off if it can, else a disengage).
    pub evading: bool,
    pub target_suppressed: bool,
    pub target_disruption: u32,
    pub attacker_wild: bool,
    pub attacker_staff: bool,
    pub target_wild: bool,
    pub target_staff: bool,
}

/// Which ruleset's mechanic the view resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Mechanic {
    #[default]
    ArmourBattlesFire,
    BoltActionOrderTest,
    BelloLudiCommand,
    BelleEpoqueCommandPoints,
    BattleOfTanksFire,
}

impl Mechanic {
    pub fn label(self) -> &'static str {
        match self {
            Mechanic::ArmourBattlesFire => "Armour Battles — fire",
            Mechanic::BoltActionOrderTest => "Bolt Action — order test",
            Mechanic::BelloLudiCommand => "BelloLudi — commander die",
            Mechanic::BelleEpoqueCommandPoints => "Belle Epoque — command points",
            Mechanic::BattleOfTanksFire => "Battle of Tanks — fire",
        }
    }
}

/// A Bolt Action order test as chosen in the form.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OrderSetup {
    pub quality: Quality,
    pub pins: u32,
    /// Officer rank id lending his morale bonus.
    pub officer: Option<String>,
}

impl Default for OrderSetup {
    fn default() -> Self {
        OrderSetup {
            quality: Quality::Regular,
            pins: 0,
            officer: None,
        }
    }
}

impl OrderSetup {
    fn test(&self) -> ba::resolve::OrderTest {
        ba::resolve::OrderTest {
            quality: self.quality,
            pins: self.pins,
            officer: self.officer.clone(),
        }
    }
}

/// What one roll resolves: enough to roll it again.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Subject {
    ArmourBattles(Setup),
    OrderTest(OrderSetup),
    BelloLudiCommand,
    CommandPoints { stands: u32, general: General },
    TankFire(TankSetup),
}

/// A Battle of Tanks volley as chosen in the form.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct TankSetup {
    pub attacker: Option<String>,
    pub target: Option<String>,
    /// Shots at the target; the attacker's fire rate when 0.
    pub shots: u32,
    pub moving: bool,
    pub ambush: bool,
    pub cover: Cover,
}

fn tank_card(name: Option<&str>) -> Option<&'static TankCard> {
    let name = name?;
    BattleOfTanks.library().iter().find_map(|card| match card {
        Card::BattleOfTanks(tank) if tank.name == name => Some(tank),
        _ => None,
    })
}

impl TankSetup {
    fn cards(&self) -> Result<(&'static TankCard, bt::FireTarget<'static>), String> {
        let attacker = tank_card(self.attacker.as_deref()).ok_or("Choose the firing tank.")?;
        let target = tank_card(self.target.as_deref()).ok_or("Choose the target.")?;
        let shots = if self.shots == 0 {
            attacker.fire_rate
        } else {
            self.shots
        };
        let mut fire_target = bt::FireTarget::new(target, shots);
        fire_target.situation = bt::FireSituation {
            moving: self.moving,
            ambush: self.ambush,
            cover: self.cover,
            ..bt::FireSituation::default()
        };
        Ok((attacker, fire_target))
    }
}

const MECHANICS: [Mechanic; 5] = [
    Mechanic::ArmourBattlesFire,
    Mechanic::BoltActionOrderTest,
    Mechanic::BelloLudiCommand,
    Mechanic::BelleEpoqueCommandPoints,
    Mechanic::BattleOfTanksFire,
];

fn general_label(general: General) -> &'static str {
    match general {
        General::Mediocre => "Mediocre",
        General::Average => "Average",
        General::Superior => "Superior",
    }
}

/// The odds shown for a setup.
#[derive(Debug, Clone, PartialEq)]
pub struct Odds {
    pub fire: FireOdds,
    /// Artillery only: the mission's response and deviation.
    pub artillery: Option<ArtilleryOdds>,
    /// A note about how the situation was read (e.g. a disengage needs opportunity fire).
    pub note: Option<String>,
}

/// One roll in the session log: what was asked, every die, and the result.
#[derive(Debug, Clone, PartialEq)]
pub struct RollEntry {
    pub subject: Subject,
    pub seed: u64,
    pub title: String,
    /// (what the dice were for, the faces), in the order rolled.
    pub dice: Vec<(String, Vec<u8>)>,
    pub result: String,
}

/// What the Resolve view asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum ResolveAction {
    /// Roll `subject` with `seed` and put it at the top of the log.
    Roll { subject: Subject, seed: u64 },
    /// Pick a seed from the system clock.
    NewSeed,
}

/// The Resolve view's state: the form, the cached odds and the session dice log.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ResolveState {
    pub mechanic: Mechanic,
    pub setup: Setup,
    pub order: OrderSetup,
    /// Belle Epoque command points: the side's stands and its general (Average if unset).
    pub stands: u32,
    pub general: Option<General>,
    pub tank: TankSetup,
    pub seed: u64,
    /// The latest roll (also at the top of the log).
    pub last: Option<RollEntry>,
    /// Newest first.
    pub log: Vec<RollEntry>,
    /// The last error of a roll, shown under the button.
    pub roll_error: Option<String>,
    cache: Option<(Setup, Result<Odds, String>)>,
}

impl ResolveState {
    /// Applies one action.
    pub fn apply(&mut self, action: ResolveAction) {
        match action {
            ResolveAction::Roll { subject, seed } => match roll_subject(&subject, seed) {
                Ok(entry) => {
                    self.roll_error = None;
                    self.last = Some(entry.clone());
                    self.log.insert(0, entry);
                }
                Err(error) => self.roll_error = Some(error),
            },
            ResolveAction::NewSeed => {
                let nanos = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos());
                // Fold the 128-bit count so both halves count; keep it short enough to type.
                self.seed = ((nanos as u64) ^ ((nanos >> 64) as u64)) % 1_000_000_000;
            }
        }
    }

    /// What the Roll button rolls now.
    pub fn subject(&self) -> Subject {
        match self.mechanic {
            Mechanic::ArmourBattlesFire => Subject::ArmourBattles(self.setup.clone()),
            Mechanic::BoltActionOrderTest => Subject::OrderTest(self.order.clone()),
            Mechanic::BelloLudiCommand => Subject::BelloLudiCommand,
            Mechanic::BelleEpoqueCommandPoints => Subject::CommandPoints {
                stands: self.stands.max(1),
                general: self.general.unwrap_or(General::Average),
            },
            Mechanic::BattleOfTanksFire => Subject::TankFire(self.tank.clone()),
        }
    }

    /// The odds of the current setup, computed once per setup.
    pub fn odds(&mut self) -> &Result<Odds, String> {
        let fresh = matches!(&self.cache, Some((setup, _)) if *setup == self.setup);
        if !fresh {
            self.cache = Some((self.setup.clone(), odds(&self.setup)));
        }
        &self.cache.as_ref().expect("just filled").1
    }
}

// ---------------------------------------------------------------------------------------
// Situations (as the CLI reads its flags)

enum Prepared {
    Fire {
        attacker: &'static UnitCard,
        target: &'static UnitCard,
        situation: FireSituation,
        note: Option<String>,
    },
    Artillery {
        artillery: &'static UnitCard,
        target: &'static UnitCard,
        situation: ArtillerySituation,
        response_dice: u32,
    },
}

fn bonus(wild: bool, staff: bool) -> Bonus {
    Bonus {
        wild_die: wild,
        staff_order: staff,
    }
}

/// The artillery response dice of the first Lorraine battle group of the battery's side
/// that has artillery (the CLI's default without `--battle`).
fn response_dice(artillery: &UnitCard) -> Option<u32> {
    ab::battle_groups()
        .iter()
        .filter(|g| g.side == artillery.side)
        .find_map(|g| g.artillery_response_dice)
}

fn prepare(setup: &Setup) -> Result<Prepared, String> {
    let pick = |name: &Option<String>, what: &str| -> Result<&'static UnitCard, String> {
        let name = name
            .as_deref()
            .ok_or_else(|| format!("Choose the {what}."))?;
        ab::unit_card(name).ok_or_else(|| format!("No Armour Battles unit '{name}'."))
    };
    let attacker = pick(&setup.attacker, "attacker")?;
    let target = pick(&setup.target, "target")?;
    if target.kind == UnitKind::OffTableArtillery {
        return Err(format!(
            "{} is off-table artillery: it is never on the table, so it cannot be fired at.",
            target.name
        ));
    }
    let attacker_bonus = bonus(setup.attacker_wild, setup.attacker_staff);
    let target_bonus = bonus(setup.target_wild, setup.target_staff);
    if setup.kind == ShotKind::Artillery {
        if attacker.kind != UnitKind::OffTableArtillery {
            return Err(format!("{} is not off-table artillery.", attacker.name));
        }
        let response_dice = response_dice(attacker).ok_or_else(|| {
            format!(
                "The {} battle groups have no artillery response dice.",
                attacker.side.label()
            )
        })?;
        return Ok(Prepared::Artillery {
            artillery: attacker,
            target,
            situation: ArtillerySituation {
                target_suppressed: setup.target_suppressed,
                target_disruption: setup.target_disruption,
                cover: setup.cover,
                break_off: setup.evading,
                attacker_bonus,
                target_bonus,
            },
            response_dice,
        });
    }
    if attacker.kind == UnitKind::OffTableArtillery {
        return Err(format!(
            "{} is off-table artillery: choose Artillery to fire a mission.",
            attacker.name
        ));
    }
    let mut mode = match setup.kind {
        ShotKind::Opportunity => FireMode::Opportunity,
        _ => FireMode::Direct,
    };
    let evasion = setup.evading.then(|| Evasion::for_target(target));
    let mut note = None;
    if evasion == Some(Evasion::Disengage) && mode == FireMode::Direct {
        mode = FireMode::Opportunity;
        note = Some(format!(
            "{} has no Break-Off: it gains +2D by disengaging, which only opportunity fire can catch",
            target.name
        ));
    }
    Ok(Prepared::Fire {
        attacker,
        target,
        situation: FireSituation {
            mode,
            range: setup.range,
            flank: setup.flank,
            cover: setup.cover,
            uphill: setup.uphill,
            attacker_move: setup.movement,
            ambush: setup.ambush,
            evasion,
            target_suppressed: setup.target_suppressed,
            target_disruption: setup.target_disruption,
            attacker_bonus,
            target_bonus,
        },
        note,
    })
}

/// The exact odds of `setup`, or why it cannot be resolved.
pub fn odds(setup: &Setup) -> Result<Odds, String> {
    match prepare(setup)? {
        Prepared::Fire {
            attacker,
            target,
            situation,
            note,
        } => Ok(Odds {
            fire: fire::fire_odds(attacker, target, &situation).map_err(|e| e.to_string())?,
            artillery: None,
            note,
        }),
        Prepared::Artillery {
            artillery,
            target,
            situation,
            response_dice,
        } => {
            let odds = artillery::artillery_odds(artillery, target, &situation, response_dice)
                .map_err(|e| e.to_string())?;
            Ok(Odds {
                fire: odds.attack.clone(),
                artillery: Some(odds),
                note: None,
            })
        }
    }
}

fn faces(record: &RollRecord) -> Vec<u8> {
    record.dice.clone()
}

fn fire_dice(roll: &FireRoll, dice: &mut Vec<(String, Vec<u8>)>) {
    dice.push((
        format!("Attack ({}+)", roll.attacker_tn),
        faces(&roll.attack),
    ));
    if let Some(reaction) = &roll.reaction {
        dice.push((format!("Reaction ({}+)", roll.reaction_tn), faces(reaction)));
    }
    if let Some(forced) = &roll.forced_back_roll {
        dice.push(("Forced back".into(), faces(forced)));
    }
    if let Some(morale) = &roll.morale_roll {
        dice.push(("Army Morale".into(), faces(morale)));
    }
}

fn fire_result(roll: &FireRoll) -> String {
    let r = &roll.result;
    let mut parts = vec![format!(
        "{} success(es) vs {}: {} new Disruption Point(s), {} in all",
        roll.attack_outcome.successes,
        roll.reaction_outcome.successes,
        r.new_disruption,
        r.total_disruption
    )];
    if r.suppressed {
        parts.push("suppressed".into());
    }
    if let Some(inches) = r.forced_back_inches {
        parts.push(format!("forced back {inches}″"));
    }
    if r.dispersed {
        parts.push(match r.army_morale_loss {
            Some(loss) => format!("DISPERSED (side loses {loss} Army Morale)"),
            None => "DISPERSED".into(),
        });
    }
    parts.join("; ")
}

/// Rolls `subject` with a fresh roller on `seed`: the same seed always gives the same dice.
pub fn roll_subject(subject: &Subject, seed: u64) -> Result<RollEntry, String> {
    let entry = |title: String, dice: Vec<(String, Vec<u8>)>, result: String| RollEntry {
        subject: subject.clone(),
        seed,
        title,
        dice,
        result,
    };
    match subject {
        Subject::TankFire(tank) => {
            let (attacker, target) = tank.cards()?;
            let roll = bt::roll_fire(attacker, &[target], &mut Roller::new(seed))
                .map_err(|e| e.to_string())?;
            let mut dice = Vec::new();
            let mut result = String::new();
            for volley in &roll.volleys {
                dice.push((format!("To hit ({}+)", volley.need), faces(&volley.to_hit)));
                if let Some(p) = &volley.penetration {
                    dice.push(("Penetration (read)".into(), faces(p)));
                }
                result = format!(
                    "{} hit(s), {} penetration(s), {} track hit(s): {} damage, {} HP left{}",
                    volley.volley.hits,
                    volley.volley.penetrations,
                    volley.volley.track_hits,
                    volley.damage,
                    volley.remaining_after,
                    if volley.destroyed {
                        " — DESTROYED"
                    } else {
                        ""
                    }
                );
            }
            Ok(entry(
                format!("{} fires at {}", attacker.name, target.card.name),
                dice,
                result,
            ))
        }
        Subject::BelloLudiCommand => {
            let roll = bl::roll_command(&mut Roller::new(seed)).map_err(|e| e.to_string())?;
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
            Ok(entry("BelloLudi commander die".into(), dice, result))
        }
        Subject::CommandPoints { stands, general } => {
            let roll = be::roll_command_points(*stands, *general, &mut Roller::new(seed))
                .map_err(|e| e.to_string())?;
            Ok(entry(
                format!(
                    "Command points: {stands} stands, {} general",
                    general_label(*general)
                ),
                vec![(format!("d{}", roll.dice.sides), faces(&roll.dice))],
                format!("{} command points", roll.total),
            ))
        }
        Subject::ArmourBattles(setup) => roll(setup, seed),
        Subject::OrderTest(order) => {
            let mut roller = Roller::new(seed);
            let roll = ba::resolve::roll_order_test(&order.test(), &mut roller)
                .map_err(|e| e.to_string())?;
            let mut dice = vec![("2d6".to_string(), faces(&roll.dice))];
            if let Some(fubar) = &roll.fubar_die {
                dice.push(("FUBAR".into(), faces(fubar)));
            }
            let result = match &roll.outcome {
                ba::resolve::OrderResult::Passed => {
                    format!("{} ≤ {}: passed", roll.total, roll.target)
                }
                ba::resolve::OrderResult::Failed => {
                    format!("{} > {}: failed", roll.total, roll.target)
                }
                ba::resolve::OrderResult::Fubar { result } => {
                    format!("double six, FUBAR: {result}")
                }
            };
            Ok(RollEntry {
                subject: subject.clone(),
                seed,
                title: format!(
                    "{} order test, {} pin(s)",
                    order.quality.label(),
                    order.pins
                ),
                dice,
                result,
            })
        }
    }
}

/// Rolls an Armour Battles `setup` with a fresh roller on `seed`.
pub fn roll(setup: &Setup, seed: u64) -> Result<RollEntry, String> {
    let mut roller = Roller::new(seed);
    let mut dice = Vec::new();
    let (title, result) = match prepare(setup)? {
        Prepared::Fire {
            attacker,
            target,
            situation,
            ..
        } => {
            let roll = fire::roll_fire(attacker, target, &situation, &mut roller)
                .map_err(|e| e.to_string())?;
            fire_dice(&roll, &mut dice);
            (
                format!("{} fires at {}", attacker.name, target.name),
                fire_result(&roll),
            )
        }
        Prepared::Artillery {
            artillery,
            target,
            situation,
            response_dice,
        } => {
            let roll = artillery::roll_artillery(
                artillery,
                target,
                &situation,
                response_dice,
                &mut roller,
            )
            .map_err(|e| e.to_string())?;
            dice.push(("Response".into(), faces(&roll.response.ours)));
            dice.push(("Opponent response".into(), faces(&roll.response.theirs)));
            dice.push(("Hit + scatter".into(), faces(&roll.deviation.record)));
            fire_dice(&roll.attack, &mut dice);
            let timing = if roll.response.fires_now {
                "fires now"
            } else {
                "fires next Logistics Phase"
            };
            let landing = if roll.deviation.on_target {
                "on target".to_string()
            } else {
                format!("deviates {}″", roll.deviation.inches)
            };
            (
                format!("{} shells {}", artillery.name, target.name),
                format!("{timing}; {landing}; {}", fire_result(&roll.attack)),
            )
        }
    };
    Ok(RollEntry {
        subject: Subject::ArmourBattles(setup.clone()),
        seed,
        title,
        dice,
        result,
    })
}

// ---------------------------------------------------------------------------------------
// The view

/// A probability as a percentage with one decimal; tiny non-zero values stay visible.
pub fn pct(p: f64) -> String {
    if p > 0.0 && p < 0.0005 {
        "<0.1%".to_string()
    } else if p < 1.0 && p > 0.9995 {
        ">99.9%".to_string()
    } else {
        format!("{:.1}%", p * 100.0)
    }
}

/// The Armour Battles unit names, the open force's units first.
fn unit_names(model: &Model, artillery: bool) -> (Vec<String>, Vec<String>) {
    let wanted = |card: &UnitCard| (card.kind == UnitKind::OffTableArtillery) == artillery;
    let mut first: Vec<String> = Vec::new();
    if let Some(open) = &model.open
        && open.force.ruleset == RulesetId::ArmourBattles
    {
        for unit in &open.force.units {
            if let Some(card) = ab::unit_card(unit.card.name())
                && wanted(card)
                && !first.contains(&card.name)
            {
                first.push(card.name.clone());
            }
        }
    }
    let rest = ArmourBattles
        .library()
        .iter()
        .filter_map(|card| match card {
            Card::ArmourBattles(unit) if wanted(unit) && !first.contains(&unit.name) => {
                Some(unit.name.clone())
            }
            _ => None,
        })
        .collect();
    (first, rest)
}

fn unit_combo(
    ui: &mut egui::Ui,
    label: &str,
    value: &mut Option<String>,
    names: &(Vec<String>, Vec<String>),
) {
    ui.horizontal(|ui| {
        let label = ui.label(label);
        egui::ComboBox::from_id_salt(label.id)
            .selected_text(value.as_deref().unwrap_or("(choose)"))
            .width(200.0)
            .show_ui(ui, |ui| {
                if !names.0.is_empty() {
                    ui.label(RichText::new("Open force").small().weak());
                    for name in &names.0 {
                        ui.selectable_value(value, Some(name.clone()), name);
                    }
                    ui.separator();
                }
                for name in &names.1 {
                    ui.selectable_value(value, Some(name.clone()), name);
                }
            })
            .response
            .labelled_by(label.id);
    });
}

/// " (house default)" with the ruling as hover text, when `key` was computed with one.
fn house_mark(ui: &mut egui::Ui, defaults: &[HouseDefault], key: &str) {
    if let Some(h) = defaults.iter().find(|h| h.value == key) {
        ui.label(RichText::new("(house default)").italics().weak())
            .on_hover_text(h.ruling);
    }
}

/// Draws the whole Resolve view.
pub fn ui(state: &mut ResolveState, model: &Model, ui: &mut egui::Ui) -> Vec<Action> {
    let mut actions = Vec::new();
    egui::Panel::left("resolve_form")
        .resizable(true)
        .default_size(330.0)
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                let label = ui.label("Ruleset");
                egui::ComboBox::from_id_salt(label.id)
                    .selected_text(state.mechanic.label())
                    .show_ui(ui, |ui| {
                        for mechanic in MECHANICS {
                            ui.selectable_value(&mut state.mechanic, mechanic, mechanic.label());
                        }
                    })
                    .response
                    .labelled_by(label.id);
            });
            ui.separator();
            egui::ScrollArea::vertical().show(ui, |ui| match state.mechanic {
                Mechanic::ArmourBattlesFire => form(state, model, ui),
                Mechanic::BoltActionOrderTest => order_form(&mut state.order, ui),
                Mechanic::BattleOfTanksFire => tank_form(&mut state.tank, ui),
                Mechanic::BelloLudiCommand => {
                    ui.label(
                        "The commander die for orders: 0–3 orders, or B and the blunder table.",
                    );
                }
                Mechanic::BelleEpoqueCommandPoints => {
                    ui.horizontal(|ui| {
                        let label = ui.label("Stands");
                        if state.stands == 0 {
                            state.stands = 8;
                        }
                        ui.add(egui::DragValue::new(&mut state.stands).range(1..=200))
                            .labelled_by(label.id);
                    });
                    let general = state.general.get_or_insert(General::Average);
                    ui.horizontal(|ui| {
                        ui.label("General");
                        for g in [General::Mediocre, General::Average, General::Superior] {
                            ui.radio_value(general, g, general_label(g));
                        }
                    });
                }
            });
        });
    egui::CentralPanel::default().show(ui, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.heading(state.mechanic.label());
            match state.mechanic {
                Mechanic::ArmourBattlesFire => match state.odds().clone() {
                    Ok(odds) => show_odds(ui, &odds),
                    Err(error) => {
                        ui.label(error);
                    }
                },
                Mechanic::BoltActionOrderTest => show_order_odds(ui, &state.order),
                Mechanic::BelloLudiCommand => show_command_odds(ui),
                Mechanic::BattleOfTanksFire => show_tank_odds(ui, &state.tank),
                Mechanic::BelleEpoqueCommandPoints => {
                    let general = state.general.unwrap_or(General::Average);
                    show_command_points_odds(ui, state.stands.max(1), general);
                }
            }
            ui.separator();
            actions.extend(roll_panel(state, ui));
        });
    });
    actions
}

fn form(state: &mut ResolveState, model: &Model, ui: &mut egui::Ui) {
    let setup = &mut state.setup;
    ui.heading("Situation");
    ui.horizontal(|ui| {
        for kind in [ShotKind::Direct, ShotKind::Opportunity, ShotKind::Artillery] {
            if ui.radio(setup.kind == kind, kind.label()).clicked() && setup.kind != kind {
                // The attacker lists differ: artillery fires only from off-table cards.
                if (kind == ShotKind::Artillery) != (setup.kind == ShotKind::Artillery) {
                    setup.attacker = None;
                }
                setup.kind = kind;
            }
        }
    });
    let artillery = setup.kind == ShotKind::Artillery;
    unit_combo(
        ui,
        if artillery { "Battery" } else { "Attacker" },
        &mut setup.attacker,
        &unit_names(model, artillery),
    );
    unit_combo(ui, "Target", &mut setup.target, &unit_names(model, false));
    ui.separator();
    if !artillery {
        ui.horizontal(|ui| {
            ui.label("Range");
            for range in [RangeBand::Short, RangeBand::Effective, RangeBand::Long] {
                let text = match range {
                    RangeBand::Short => "Short",
                    RangeBand::Effective => "Effective",
                    RangeBand::Long => "Long",
                };
                ui.radio_value(&mut setup.range, range, text);
            }
        });
        ui.horizontal(|ui| {
            ui.label("Attacker move");
            for (order, text) in [
                (MoveOrder::Single, "Single move"),
                (MoveOrder::Double, "Double move"),
                (MoveOrder::Triple, "Triple move"),
            ] {
                ui.radio_value(&mut setup.movement, order, text);
            }
        });
        ui.checkbox(&mut setup.flank, "Flank or rear shot");
        ui.checkbox(&mut setup.uphill, "Target uphill");
        ui.checkbox(&mut setup.ambush, "Ambush fire");
    }
    ui.checkbox(&mut setup.cover, "Target in cover");
    ui.checkbox(
        &mut setup.evading,
        if artillery {
            "Target breaks off"
        } else {
            "Target evading"
        },
    );
    ui.checkbox(&mut setup.target_suppressed, "Target suppressed");
    ui.horizontal(|ui| {
        ui.label("Target disruption");
        for n in 0..=2 {
            ui.radio_value(&mut setup.target_disruption, n, n.to_string());
        }
    });
    ui.separator();
    ui.checkbox(&mut setup.attacker_wild, "Attacker wild die");
    ui.checkbox(&mut setup.attacker_staff, "Attacker Staff Order");
    ui.checkbox(&mut setup.target_wild, "Target wild die");
    ui.checkbox(&mut setup.target_staff, "Target Staff Order");
}

fn order_form(order: &mut OrderSetup, ui: &mut egui::Ui) {
    ui.heading("Order test");
    ui.horizontal(|ui| {
        ui.label("Quality");
        for quality in [Quality::Inexperienced, Quality::Regular, Quality::Veteran] {
            ui.radio_value(&mut order.quality, quality, quality.label());
        }
    });
    ui.horizontal(|ui| {
        let label = ui.label("Pins");
        ui.add(egui::DragValue::new(&mut order.pins).range(0..=12))
            .labelled_by(label.id);
    });
    ui.horizontal(|ui| {
        let label = ui.label("Officer");
        let officers = ba::tables().map_or(&[][..], |t| t.officers.as_slice());
        let shown = order
            .officer
            .as_deref()
            .and_then(|rank| officers.iter().find(|o| o.rank == rank))
            .map_or("None".to_string(), |o| o.title.clone());
        egui::ComboBox::from_id_salt(label.id)
            .selected_text(shown)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut order.officer, None, "None");
                for officer in officers {
                    ui.selectable_value(
                        &mut order.officer,
                        Some(officer.rank.clone()),
                        &officer.title,
                    );
                }
            })
            .response
            .labelled_by(label.id);
    });
}

fn tank_form(tank: &mut TankSetup, ui: &mut egui::Ui) {
    let names: Vec<String> = BattleOfTanks
        .library()
        .iter()
        .filter_map(|card| match card {
            Card::BattleOfTanks(t) => Some(t.name.clone()),
            _ => None,
        })
        .collect();
    let names = (Vec::new(), names);
    unit_combo(ui, "Firing tank", &mut tank.attacker, &names);
    unit_combo(ui, "Target tank", &mut tank.target, &names);
    ui.horizontal(|ui| {
        let label = ui.label("Shots (0 = fire rate)");
        ui.add(egui::DragValue::new(&mut tank.shots).range(0..=10))
            .labelled_by(label.id);
    });
    ui.checkbox(&mut tank.moving, "Firing on the move");
    ui.checkbox(&mut tank.ambush, "Firing from ambush");
    ui.horizontal(|ui| {
        ui.label("Target cover");
        for (cover, text) in [
            (Cover::Open, "Open"),
            (Cover::Light, "Light cover"),
            (Cover::Heavy, "Heavy cover"),
        ] {
            ui.radio_value(&mut tank.cover, cover, text);
        }
    });
}

fn show_tank_odds(ui: &mut egui::Ui, tank: &TankSetup) {
    let odds = tank
        .cards()
        .and_then(|(attacker, target)| bt::fire_odds(attacker, &target).map_err(|e| e.to_string()));
    match odds {
        Ok(odds) => {
            ui.label(format!("{} shot(s), hit on {}+", odds.shots, odds.need));
            ui.label(format!(
                "P(hit) per shot: {}",
                pct(odds.hit.probability(&true))
            ));
            ui.label(format!(
                "Average damage {:.1} of {} HP",
                odds.damage.expectation(|&x| f64::from(x)),
                odds.remaining_hp
            ));
            ui.label(format!(
                "P(destroyed): {}",
                pct(odds.damage.at_least(&odds.remaining_hp))
            ));
            ui.label(format!(
                "P(at least one penetration): {}",
                pct(odds.volley.probability_where(|v| v.penetrations > 0))
            ));
        }
        Err(error) => {
            ui.label(error);
        }
    }
}

fn show_command_odds(ui: &mut egui::Ui) {
    match bl::command_odds() {
        Ok(dist) => {
            let p_blunder = dist.probability_where(|o| matches!(o, CommandOutcome::Blunder { .. }));
            for orders in 0..=3 {
                let p = dist.probability(&CommandOutcome::Orders { orders });
                ui.label(format!("P({orders} orders): {}", pct(p)));
            }
            ui.label(format!("P(blunder): {}", pct(p_blunder)));
        }
        Err(error) => {
            ui.label(error.to_string());
        }
    }
}

fn show_command_points_odds(ui: &mut egui::Ui, stands: u32, general: General) {
    match be::command_points_odds(stands, general) {
        Ok(odds) => {
            ui.label(format!("Roll {}d{}", odds.dice, odds.sides));
            ui.label(format!(
                "Average {:.2} command points",
                odds.total.expectation(|&x| f64::from(x))
            ));
            for (total, p) in odds.total.probabilities() {
                ui.label(format!(
                    "{total}: {} (at least {total}: {})",
                    pct(p),
                    pct(odds.total.at_least(total))
                ));
            }
        }
        Err(error) => {
            ui.label(error.to_string());
        }
    }
}

fn show_order_odds(ui: &mut egui::Ui, order: &OrderSetup) {
    match ba::resolve::order_test_odds(&order.test()) {
        Ok(odds) => {
            ui.label(format!("Pass on 2d6 at or under {}", odds.target));
            ui.label(format!("P(pass): {}", pct(odds.p_pass())));
            ui.label(format!(
                "P(fail): {}",
                pct(1.0 - odds.p_pass() - odds.p_fubar())
            ));
            ui.label(format!("P(FUBAR): {}", pct(odds.p_fubar())));
            for (result, p) in odds.fubar_results().probabilities() {
                ui.label(RichText::new(format!("  FUBAR {result}: {}", pct(p))).weak());
            }
        }
        Err(error) => {
            ui.label(error.to_string());
        }
    }
}

fn show_odds(ui: &mut egui::Ui, odds: &Odds) {
    let f = &odds.fire;
    let h = &f.house_defaults;
    if let Some(note) = &odds.note {
        ui.label(RichText::new(format!("Note: {note}")).italics());
    }
    if let Some(a) = &odds.artillery {
        ui.label(format!(
            "Response: {}D at {}+ vs {}D at {}+ — fires now {}",
            a.response.response_dice,
            a.response.response_tn,
            a.response.opponent_dice,
            a.response.opponent_tn,
            pct(a.response.p_fires_now)
        ));
        ui.label(format!(
            "Lands on target {}; within the {}″ burst {}",
            pct(a.deviation.p_on_target),
            a.deviation.burst_inches,
            pct(a.deviation.p_within_burst)
        ));
    }
    egui::Grid::new("resolve_pools")
        .num_columns(3)
        .show(ui, |ui| {
            ui.label(format!("Attacker dice: {}", f.attacker_dice));
            ui.label(format!("Attacker TN: {}+", f.attacker_tn));
            ui.horizontal(|ui| {
                ui.label(RichText::new(format!("card {}D", f.card_attacker_dice)).weak());
                house_mark(ui, h, "attacker_tn");
            });
            ui.end_row();
            ui.label(format!("Reaction dice: {}", f.reaction_dice));
            ui.label(format!("Reaction TN: {}+", f.reaction_tn));
            ui.label(RichText::new(format!("card {}D", f.card_reaction_dice)).weak());
            ui.end_row();
        });
    if !f.modifiers.is_empty() {
        let list: Vec<String> = f
            .modifiers
            .iter()
            .map(|m| {
                if m.change == 0 {
                    m.label.clone()
                } else {
                    let unit = match m.modifies {
                        fire::Modified::AttackerTn | fire::Modified::ReactionTn => " TN",
                        _ => "D",
                    };
                    format!("{} {:+}{unit}", m.label, m.change)
                }
            })
            .collect();
        ui.label(RichText::new(format!("Modifiers: {}", list.join("; "))).weak());
    }
    ui.add_space(6.0);
    ui.strong("New Disruption Points");
    let dist = f.disruption();
    ui.horizontal(|ui| {
        bars(ui, &dist);
        ui.vertical(|ui| {
            for (n, p) in dist.iter().enumerate() {
                let name = if n == 3 { "3+".into() } else { n.to_string() };
                ui.label(format!(
                    "{name}: {} (at least {n}: {})",
                    pct(*p),
                    pct(f.result.p_disruption_at_least(n as u32))
                ));
            }
        });
    });
    ui.add_space(6.0);
    ui.horizontal(|ui| {
        ui.label(format!("P(suppressed): {}", pct(f.p_suppressed())))
            .on_hover_text(f.suppression.describe());
        house_mark(ui, h, "p_suppressed");
    });
    ui.horizontal(|ui| {
        ui.label(format!("P(forced back): {}", pct(f.p_forced_back())));
        if let Some(d) = &f.result.forced_back_inches {
            ui.label(
                RichText::new(format!(
                    "{}–{}″, average {:.1}″",
                    d.lowest(),
                    d.highest(),
                    d.expectation(|&x| f64::from(x))
                ))
                .weak(),
            );
        }
        house_mark(ui, h, "forced_back_inches");
    });
    ui.label(format!("P(dispersed): {}", pct(f.p_dispersed())))
        .on_hover_text(format!(
            "{} Disruption Points now, cohesion {}; the side then loses 1D3 Army Morale",
            f.result.existing_disruption, f.result.cohesion
        ));
    if !h.is_empty() {
        ui.add_space(6.0);
        ui.label(RichText::new("House defaults (RULINGS):").small());
        for d in h {
            ui.label(
                RichText::new(format!("{}: {}", d.value, d.ruling))
                    .small()
                    .weak(),
            );
        }
    }
}

/// A bar chart of P(0, 1, 2, 3+ new Disruption Points), painted.
fn bars(ui: &mut egui::Ui, dist: &[f64; 4]) {
    let (rect, _) = ui.allocate_exact_size(Vec2::new(200.0, 110.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let visuals = ui.visuals();
    let text = visuals.text_color();
    let fill = visuals.selection.bg_fill;
    let label_h = 16.0;
    let slot = rect.width() / 4.0;
    let height = rect.height() - label_h * 2.0;
    for (n, p) in dist.iter().enumerate() {
        let x = rect.left() + slot * n as f32;
        let bottom = rect.bottom() - label_h;
        let top = bottom - height * (*p as f32).clamp(0.0, 1.0);
        let bar = Rect::from_min_max(
            egui::pos2(x + slot * 0.2, top),
            egui::pos2(x + slot * 0.8, bottom),
        );
        painter.rect_filled(bar, 2.0, fill);
        let font = egui::FontId::proportional(11.0);
        let name = if n == 3 { "3+".into() } else { n.to_string() };
        painter.text(
            egui::pos2(x + slot / 2.0, rect.bottom()),
            egui::Align2::CENTER_BOTTOM,
            name,
            font.clone(),
            text,
        );
        painter.text(
            egui::pos2(x + slot / 2.0, top - 1.0),
            egui::Align2::CENTER_BOTTOM,
            format!("{:.0}%", p * 100.0),
            font,
            text,
        );
    }
    painter.line_segment(
        [
            egui::pos2(rect.left(), rect.bottom() - label_h),
            egui::pos2(rect.right(), rect.bottom() - label_h),
        ],
        Stroke::new(1.0, Color32::GRAY),
    );
}

fn entry_ui(ui: &mut egui::Ui, entry: &RollEntry) {
    ui.label(format!("{} — seed {}", entry.title, entry.seed));
    for (what, dice) in &entry.dice {
        let faces: Vec<String> = dice.iter().map(u8::to_string).collect();
        ui.label(format!("{what}: {}", faces.join(" ")));
    }
    ui.label(RichText::new(&entry.result).strong());
}

fn roll_panel(state: &mut ResolveState, ui: &mut egui::Ui) -> Vec<Action> {
    let mut actions = Vec::new();
    ui.heading("Seeded roll");
    ui.horizontal(|ui| {
        let label = ui.label("Seed");
        ui.add(egui::DragValue::new(&mut state.seed).speed(1.0))
            .labelled_by(label.id);
        if ui.button("New seed").clicked() {
            actions.push(Action::Resolve(ResolveAction::NewSeed));
        }
        if ui.button("Roll").clicked() {
            actions.push(Action::Resolve(ResolveAction::Roll {
                subject: state.subject(),
                seed: state.seed,
            }));
        }
    });
    if let Some(error) = &state.roll_error {
        ui.colored_label(ui.visuals().error_fg_color, error);
    }
    if let Some(entry) = &state.last {
        egui::Frame::group(ui.style()).show(ui, |ui| entry_ui(ui, entry));
    }
    ui.separator();
    ui.strong(format!("Dice log ({})", state.log.len()));
    for (index, entry) in state.log.iter().enumerate() {
        ui.push_id(index, |ui| {
            ui.horizontal(|ui| {
                if ui
                    .button("Replay")
                    .on_hover_text("Roll the same situation again with this seed")
                    .clicked()
                {
                    actions.push(Action::Resolve(ResolveAction::Roll {
                        subject: entry.subject.clone(),
                        seed: entry.seed,
                    }));
                }
                let dice: Vec<String> = entry
                    .dice
                    .iter()
                    .map(|(what, d)| {
                        let faces: Vec<String> = d.iter().map(u8::to_string).collect();
                        format!("{what} {}", faces.join(" "))
                    })
                    .collect();
                ui.label(format!(
                    "#{} seed {} — {} — {} — {}",
                    state.log.len() - index,
                    entry.seed,
                    entry.title,
                    dice.join(" | "),
                    entry.result
                ));
            });
        });
    }
    actions
}
