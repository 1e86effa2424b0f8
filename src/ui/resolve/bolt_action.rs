//! Bolt Action in the Resolve view: the order test and a shooting attack (shots, to hit with
//! the sheet's modifiers, penetration against the damage value, damage results, HE pins).
//!
//! The form only gathers the situation; `rules::bolt_action::resolve` does every sum.

use egui::RichText;

use super::shared::{
    Rolled, bar_chart, card_combo, count_chart, count_field, dist_bars, faces, house_default,
    label_with_default, library_card, library_names, pct, rulings_footer,
};
use crate::rules::bolt_action::resolve::{
    self as ba, Attack, AttackOdds, DamageEffect, Facing, HitModifiers, OrderTestOdds,
    TargetProfile, VehicleDamage,
};
use crate::rules::bolt_action::rulings::{
    DAMAGE_RESULTS_RULING, HE_RULING, ORDER_RULING, SEVEN_PLUS_RULING,
};
use crate::rules::bolt_action::{self, Quality, Weapon};
use crate::rules::dice::Roller;
use crate::rules::{Card, RulesetId};
use crate::ui::model::Model;

/// Which Bolt Action mechanic the form resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Kind {
    #[default]
    OrderTest,
    Shooting,
}

impl Kind {
    /// The mechanic's name after the ruleset's in the picker.
    pub fn label(self) -> &'static str {
        match self {
            Kind::OrderTest => "order test",
            Kind::Shooting => "shooting",
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
    fn test(&self) -> ba::OrderTest {
        ba::OrderTest {
            quality: self.quality,
            pins: self.pins,
            officer: self.officer.clone(),
        }
    }
}

/// The target's cover: the sheet gives soft and hard cover as alternatives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BoltCover {
    #[default]
    None,
    Soft,
    Hard,
}

/// A shooting attack as chosen in the form.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ShootingSetup {
    /// The firing unit from the library; picking one fills in its weapon and quality.
    pub firer: Option<String>,
    /// A weapons chart name.
    pub weapon: Option<String>,
    pub firers: u32,
    pub high_explosive: bool,
    pub point_blank: bool,
    pub long_range: bool,
    pub inexperienced: bool,
    pub moving: bool,
    pub target_down: bool,
    pub small_unit: bool,
    pub cover: BoltCover,
    /// Pins on the firing unit.
    pub pins: u32,
    /// The target from the library; without one, the damage value and flags below count.
    pub target: Option<String>,
    pub damage_value: u8,
    pub armoured: bool,
    pub open_topped: bool,
    pub facing: Facing,
    pub massive_damage: bool,
    pub indirect: bool,
    pub already_immobilised: bool,
}

impl Default for ShootingSetup {
    fn default() -> Self {
        ShootingSetup {
            firer: None,
            weapon: None,
            firers: 1,
            high_explosive: false,
            point_blank: false,
            long_range: false,
            inexperienced: false,
            moving: false,
            target_down: false,
            small_unit: false,
            cover: BoltCover::None,
            pins: 0,
            target: None,
            // Regular infantry: the commonest target on the damage value table.
            damage_value: 4,
            armoured: false,
            open_topped: false,
            facing: Facing::Front,
            massive_damage: false,
            indirect: false,
            already_immobilised: false,
        }
    }
}

fn weapon(name: Option<&str>) -> Result<&'static Weapon, String> {
    let name = name.ok_or("Choose the weapon.")?;
    let tables = bolt_action::tables().ok_or_else(|| {
        ba::ResolveError::NoData {
            ruleset: "Bolt Action",
        }
        .to_string()
    })?;
    tables
        .weapons
        .iter()
        .find(|w| w.name == name)
        .ok_or_else(|| format!("No weapon '{name}' on the chart."))
}

fn unit(name: Option<&str>) -> Option<&'static bolt_action::UnitProfile> {
    match library_card(RulesetId::BoltAction, name)? {
        Card::BoltAction(unit) => Some(unit),
        _ => None,
    }
}

impl ShootingSetup {
    fn attack(&self) -> Result<Attack<'static>, String> {
        let weapon = weapon(self.weapon.as_deref())?;
        let target = match unit(self.target.as_deref()) {
            Some(t) => TargetProfile::of(t).map_err(|e| e.to_string())?,
            None => TargetProfile {
                damage_value: self.damage_value,
                armoured: self.armoured,
                open_topped: self.open_topped,
            },
        };
        let mut attack = Attack::new(weapon, target);
        attack.firers = self.firers;
        attack.high_explosive = self.high_explosive;
        attack.hit = HitModifiers {
            point_blank: self.point_blank,
            pins: self.pins,
            long_range: self.long_range,
            inexperienced: self.inexperienced,
            on_the_move: self.moving,
            target_down: self.target_down,
            small_unit: self.small_unit,
            soft_cover: self.cover == BoltCover::Soft,
            hard_cover: self.cover == BoltCover::Hard,
        };
        attack.facing = self.facing;
        attack.massive_damage = self.massive_damage;
        // Mortars and howitzers are indirect whatever the box says.
        attack.indirect |= self.indirect;
        attack.already_immobilised = self.already_immobilised;
        Ok(attack)
    }
}

/// Everything the Bolt Action forms hold.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Form {
    pub order: OrderSetup,
    pub shooting: ShootingSetup,
}

/// What one Bolt Action roll resolves: enough to roll it again.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Subject {
    OrderTest(OrderSetup),
    Shooting(ShootingSetup),
}

/// What the Roll button rolls for `kind` with this form.
pub fn subject(kind: Kind, form: &Form) -> Subject {
    match kind {
        Kind::OrderTest => Subject::OrderTest(form.order.clone()),
        Kind::Shooting => Subject::Shooting(form.shooting.clone()),
    }
}

/// The odds shown for a subject.
#[derive(Debug, Clone, PartialEq)]
pub enum Odds {
    OrderTest(OrderTestOdds),
    Shooting {
        /// Boxed: a shooting attack's distributions dwarf an order test's.
        odds: Box<AttackOdds>,
        weapon: String,
        firers: u32,
        high_explosive: bool,
        damage_value: u8,
        armoured: bool,
    },
}

/// The exact odds of `subject`, or why it cannot be resolved.
pub fn odds(subject: &Subject) -> Result<Odds, String> {
    match subject {
        Subject::OrderTest(order) => ba::order_test_odds(&order.test())
            .map(Odds::OrderTest)
            .map_err(|e| e.to_string()),
        Subject::Shooting(setup) => {
            let attack = setup.attack()?;
            let odds = ba::attack_odds(&attack).map_err(|e| e.to_string())?;
            let high_explosive = odds.numbers.high_explosive;
            Ok(Odds::Shooting {
                odds: Box::new(odds),
                weapon: attack.weapon.name.clone(),
                firers: attack.firers,
                high_explosive,
                damage_value: attack.target.damage_value,
                armoured: attack.target.armoured,
            })
        }
    }
}

// ---------------------------------------------------------------------------------------
// Forms

/// Draws the form of `kind`, editing `form` in place.
pub fn form(kind: Kind, form: &mut Form, model: &Model, ui: &mut egui::Ui) {
    match kind {
        Kind::OrderTest => order_form(&mut form.order, ui),
        Kind::Shooting => shooting_form(&mut form.shooting, model, ui),
    }
}

fn quality_radios(ui: &mut egui::Ui, quality: &mut Quality) {
    ui.horizontal(|ui| {
        ui.label("Quality");
        for q in [Quality::Inexperienced, Quality::Regular, Quality::Veteran] {
            ui.radio_value(quality, q, q.label());
        }
    });
}

fn order_form(order: &mut OrderSetup, ui: &mut egui::Ui) {
    ui.heading("Order test");
    quality_radios(ui, &mut order.quality);
    count_field(ui, "Pins", &mut order.pins, 0..=12);
    ui.horizontal(|ui| {
        let label = ui.label("Officer");
        let officers = bolt_action::tables().map_or(&[][..], |t| t.officers.as_slice());
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

fn shooting_form(setup: &mut ShootingSetup, model: &Model, ui: &mut egui::Ui) {
    ui.heading("Shooting");
    let units = library_names(model, RulesetId::BoltAction, |_| true);
    let before = setup.firer.clone();
    card_combo(ui, "Firing unit", &mut setup.firer, &units);
    if setup.firer != before
        && let Some(firer) = unit(setup.firer.as_deref())
    {
        // A unit brings its first weapon and its quality; both stay editable below.
        setup.weapon = firer.weapons.first().cloned();
        setup.inexperienced = firer.quality == Quality::Inexperienced;
    }
    let weapons: Vec<String> = bolt_action::tables()
        .map(|t| t.weapons.iter().map(|w| w.name.clone()).collect())
        .unwrap_or_default();
    card_combo(ui, "Weapon", &mut setup.weapon, &(Vec::new(), weapons));
    let has_he = weapon(setup.weapon.as_deref()).is_ok_and(|w| w.he.is_some());
    if let Ok(w) = weapon(setup.weapon.as_deref()) {
        ui.label(RichText::new(w.summary()).small().weak());
    }
    count_field(ui, "Models firing", &mut setup.firers, 1..=20);
    ui.add_enabled(
        has_he,
        egui::Checkbox::new(&mut setup.high_explosive, "Fire HE"),
    );
    if !has_he {
        setup.high_explosive = false;
    }
    ui.separator();
    ui.label("To hit");
    ui.checkbox(&mut setup.point_blank, "Point blank range")
        .on_hover_text("+1 to hit");
    ui.checkbox(&mut setup.long_range, "Long range")
        .on_hover_text("−1 to hit; −1 penetration for heavy weapons against armour");
    ui.checkbox(&mut setup.inexperienced, "Inexperienced firer")
        .on_hover_text("−1 to hit");
    ui.checkbox(&mut setup.moving, "Firing on the move")
        .on_hover_text("−1 to hit");
    count_field(ui, "Pins on the firer", &mut setup.pins, 0..=12);
    ui.checkbox(&mut setup.target_down, "Target is down")
        .on_hover_text("Down infantry or artillery: −1 to hit");
    ui.checkbox(&mut setup.small_unit, "Target is a small unit")
        .on_hover_text("−1 to hit");
    ui.horizontal(|ui| {
        ui.label("Cover");
        for (cover, text) in [
            (BoltCover::None, "No cover"),
            (BoltCover::Soft, "Soft cover"),
            (BoltCover::Hard, "Hard cover"),
        ] {
            ui.radio_value(&mut setup.cover, cover, text);
        }
    });
    ui.separator();
    card_combo(ui, "Target unit", &mut setup.target, &units);
    match unit(setup.target.as_deref()).map(TargetProfile::of) {
        Some(Ok(t)) => {
            ui.label(
                RichText::new(format!(
                    "Damage value {}+{}{}",
                    t.damage_value,
                    if t.armoured { ", armoured" } else { "" },
                    if t.open_topped { ", open-topped" } else { "" }
                ))
                .weak(),
            );
        }
        Some(Err(error)) => {
            ui.label(error.to_string());
        }
        None => {
            ui.horizontal(|ui| {
                let label = ui.label("Damage value");
                ui.add(egui::DragValue::new(&mut setup.damage_value).range(2..=12))
                    .labelled_by(label.id);
            });
            ui.checkbox(&mut setup.armoured, "Armoured target")
                .on_hover_text("Rolls on the damage results table");
            ui.checkbox(&mut setup.open_topped, "Open-topped")
                .on_hover_text("+1 on damage results from indirect fire");
        }
    }
    if setup.target.is_some() && ui.button("Clear target unit").clicked() {
        setup.target = None;
    }
    ui.horizontal(|ui| {
        ui.label("Armour hit");
        for (facing, text) in [
            (Facing::Front, "Front"),
            (Facing::SideOrTop, "Side or top"),
            (Facing::Rear, "Rear"),
        ] {
            ui.radio_value(&mut setup.facing, facing, text);
        }
    });
    ui.checkbox(&mut setup.massive_damage, "Massive Damage")
        .on_hover_text("Two damage results per damaging hit (the player's choice)");
    ui.checkbox(&mut setup.indirect, "Indirect fire")
        .on_hover_text("+1 on damage results against open-topped vehicles");
    ui.checkbox(&mut setup.already_immobilised, "Already immobilised")
        .on_hover_text("Another Immobilised result knocks it out");
}

// ---------------------------------------------------------------------------------------
// Odds

/// Shows `odds`: charts, "at least" figures and the house defaults they rest on.
pub fn show(ui: &mut egui::Ui, odds: &Odds) {
    match odds {
        Odds::OrderTest(odds) => show_order_odds(ui, odds),
        Odds::Shooting {
            odds,
            weapon,
            firers,
            high_explosive,
            damage_value,
            armoured,
        } => {
            ui.label(format!(
                "{firers} × {weapon} ({}) at damage value {damage_value}+",
                odds.numbers.shots_words()
            ));
            show_attack_odds(ui, odds, *high_explosive, *damage_value, *armoured);
        }
    }
}

fn show_order_odds(ui: &mut egui::Ui, odds: &OrderTestOdds) {
    label_with_default(
        ui,
        format!("Pass on 2d6 at or under {}", odds.target),
        &ORDER_RULING,
    );
    let p_fail = 1.0 - odds.p_pass() - odds.p_fubar();
    bar_chart(
        ui,
        "bolt_order",
        &[
            ("Pass".into(), odds.p_pass()),
            ("Fail".into(), p_fail),
            ("FUBAR".into(), odds.p_fubar()),
        ],
    );
    ui.label(format!("P(pass): {}", pct(odds.p_pass())));
    ui.label(format!("P(fail): {}", pct(p_fail)));
    ui.label(format!("P(FUBAR): {}", pct(odds.p_fubar())));
    for (result, p) in odds.fubar_results().probabilities() {
        ui.label(RichText::new(format!("  FUBAR {result}: {}", pct(p))).weak());
    }
}

fn damage_label(d: &VehicleDamage) -> String {
    match d.second {
        None => d.first.label().to_string(),
        Some(second) => format!("{} + {}", d.first.label(), second.label()),
    }
}

fn show_attack_odds(
    ui: &mut egui::Ui,
    odds: &AttackOdds,
    high_explosive: bool,
    damage_value: u8,
    armoured: bool,
) {
    let n = &odds.numbers;
    let mut rulings = Vec::new();
    if let Some(estimate) = odds.estimate {
        ui.label(RichText::new(format!("Odds are an {}", estimate.describe())).italics());
    }
    if n.need > 6 {
        label_with_default(
            ui,
            format!("To hit {}", n.to_hit_words()),
            &SEVEN_PLUS_RULING,
        );
        rulings.push(SEVEN_PLUS_RULING);
    } else {
        ui.label(format!("To hit {}", n.to_hit_words()));
    }
    ui.label(format!(
        "P(hit) per shot: {}",
        pct(odds.hit.probability(&true))
    ));
    ui.horizontal(|ui| {
        ui.label(format!("Damage: {}", n.damage_words(damage_value)));
        if high_explosive {
            house_default(ui, &HE_RULING);
        }
    });
    if high_explosive {
        rulings.push(HE_RULING);
    }
    ui.label(format!(
        "P(damage) per hit: {}",
        pct(odds.damage_roll.probability(&true))
    ));
    ui.add_space(6.0);
    ui.strong("Hits");
    count_chart(ui, "bolt_hits", "Hits ", &odds.hits());
    ui.strong("Damaging hits");
    count_chart(ui, "bolt_damaging", "Damaging ", &odds.damaging_hits());
    ui.horizontal(|ui| {
        ui.strong("Pins on the target");
        if high_explosive {
            house_default(ui, &HE_RULING);
        }
    });
    count_chart(ui, "bolt_pins", "Pins ", &odds.pins);
    if let (true, Some(per_hit)) = (armoured, &odds.per_damaging_hit) {
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            ui.strong(format!(
                "Each damaging hit ({}{})",
                if n.superficial {
                    "Superficial, d6−3"
                } else {
                    "Full, d6"
                },
                if n.result_bonus > 0 { " +1" } else { "" }
            ));
            house_default(ui, &DAMAGE_RESULTS_RULING);
        });
        bar_chart(ui, "bolt_per_hit", &dist_bars(per_hit, damage_label));
        ui.strong("Vehicle after the attack");
        let result = odds.vehicle_result();
        let label = |r: &Option<DamageEffect>| r.map_or("Undamaged".into(), |e| e.label().into());
        bar_chart(ui, "bolt_vehicle", &dist_bars(&result, label));
        for (r, p) in result.probabilities() {
            ui.label(format!("{}: {}", label(r), pct(p)));
        }
        ui.label(format!("P(knocked out): {}", pct(odds.p_knocked_out())));
        rulings.push(DAMAGE_RESULTS_RULING);
    }
    rulings_footer(ui, &rulings);
}

// ---------------------------------------------------------------------------------------
// Rolls

/// Rolls `subject` with a fresh roller on `seed`: the same seed gives the same dice.
pub fn roll(subject: &Subject, seed: u64) -> Result<Rolled, String> {
    let mut roller = Roller::new(seed);
    match subject {
        Subject::OrderTest(order) => {
            let roll =
                ba::roll_order_test(&order.test(), &mut roller).map_err(|e| e.to_string())?;
            let mut dice = vec![("2d6".to_string(), faces(&roll.dice))];
            if let Some(fubar) = &roll.fubar_die {
                dice.push(("FUBAR".into(), faces(fubar)));
            }
            let result = match &roll.outcome {
                ba::OrderResult::Passed => format!("{} ≤ {}: passed", roll.total, roll.target),
                ba::OrderResult::Failed => format!("{} > {}: failed", roll.total, roll.target),
                ba::OrderResult::Fubar { result } => format!("double six, FUBAR: {result}"),
            };
            Ok(Rolled {
                title: format!(
                    "{} order test, {} pin(s)",
                    order.quality.label(),
                    order.pins
                ),
                dice,
                result,
            })
        }
        Subject::Shooting(setup) => {
            let attack = setup.attack()?;
            let roll = ba::roll_attack(&attack, &mut roller).map_err(|e| e.to_string())?;
            let dice = roll
                .rolls
                .iter()
                .map(|r| {
                    (
                        format!("{} (d{})", r.label, r.record.sides),
                        faces(&r.record),
                    )
                })
                .collect();
            let mut result = format!(
                "{} shot(s), {} hit(s), {} damaging, {} pin(s)",
                roll.shots, roll.tally.hits, roll.tally.damaging, roll.pins
            );
            for d in &roll.vehicle_results {
                result.push_str(&format!("; {}", damage_label(d)));
            }
            if roll.tally.worst == Some(DamageEffect::KnockedOut) {
                result.push_str(" — KNOCKED OUT");
            }
            Ok(Rolled {
                title: format!(
                    "{} × {} at damage value {}+",
                    attack.firers, attack.weapon.name, attack.target.damage_value
                ),
                dice,
                result,
            })
        }
    }
}
