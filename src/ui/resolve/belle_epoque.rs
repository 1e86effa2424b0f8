//! Belle Epoque in the Resolve view: command points, the reactivity test, fire (the table by
//! troop type, range and moving; stands; conspicuous; cover misses; uphill) and assault.
//!
//! The form only gathers the situation; `rules::belle_epoque::resolve` does every sum.
//! Picking a library unit fills the fields from its card; they stay editable.

use egui::RichText;

use super::shared::{
    Rolled, bar_chart, card_combo, count_chart, count_field, dist_bars, faces, house_default,
    label_with_default, library_card, library_names, pct, rulings_footer,
};
use crate::rules::belle_epoque::resolve::{
    self as be, Assault, AssaultOdds, AssaultSide, AssaultTroops, CommandPointsOdds, Fire,
    FireOdds, FireTarget, General, Losses, Position, Terrain, level_words,
};
use crate::rules::belle_epoque::rulings::{
    ASSAULT_RULING, COMMAND_RULING, FIRE_RULING, VISIBILITY_RULING,
};
use crate::rules::belle_epoque::{Doctrine, TroopType, UnitProfile};
use crate::rules::dice::{Dist, Roller};
use crate::rules::words::amount;
use crate::rules::{Card, RulesetId};
use crate::ui::model::Model;

/// Which Belle Epoque mechanic the form resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Kind {
    #[default]
    CommandPoints,
    Reactivity,
    Fire,
    Assault,
}

impl Kind {
    /// The mechanic's name after the ruleset's in the picker.
    pub fn label(self) -> &'static str {
        match self {
            Kind::CommandPoints => "command points",
            Kind::Reactivity => "reactivity",
            Kind::Fire => "fire",
            Kind::Assault => "assault",
        }
    }
}

fn general_label(general: General) -> &'static str {
    match general {
        General::Mediocre => "Mediocre",
        General::Average => "Average",
        General::Superior => "Superior",
    }
}

fn unit(name: Option<&str>) -> Option<&'static UnitProfile> {
    match library_card(RulesetId::BelleEpoque, name)? {
        Card::BelleEpoque(unit) => Some(unit),
        _ => None,
    }
}

/// The side's stands and general for the command points roll.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CommandSetup {
    pub stands: u32,
    pub general: General,
}

impl Default for CommandSetup {
    fn default() -> Self {
        // One full die's worth of stands with the book's ordinary general.
        CommandSetup {
            stands: 8,
            general: General::Average,
        }
    }
}

/// A reactivity test.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ReactivitySetup {
    pub unit: Option<String>,
    pub basic_score: u8,
    /// Command points spent on the test.
    pub cps: u32,
}

impl Default for ReactivitySetup {
    fn default() -> Self {
        // Trained troops in close order, the commonest line unit.
        ReactivitySetup {
            unit: None,
            basic_score: 3,
            cps: 0,
        }
    }
}

/// One unit's fire at a target.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FireSetup {
    pub firer: Option<String>,
    pub troop_type: TroopType,
    pub stands: u32,
    /// Range in UD, 1–4.
    pub range_uds: u32,
    pub moving: bool,
    pub uphill: bool,
    pub target: Option<String>,
    pub doctrine: Doctrine,
    pub cavalry: bool,
    pub terrain: Terrain,
    pub conspicuous: bool,
    /// The target has neither moved nor fired (house default "Visibility": seen 1 UD less).
    pub unrevealed: bool,
    /// Stands the target has; 0 for uncapped.
    pub target_stands: u32,
}

impl Default for FireSetup {
    fn default() -> Self {
        FireSetup {
            firer: None,
            troop_type: TroopType::B,
            stands: 4,
            range_uds: 1,
            moving: false,
            uphill: false,
            target: None,
            doctrine: Doctrine::Close,
            cavalry: false,
            terrain: Terrain::Open,
            conspicuous: false,
            unrevealed: false,
            target_stands: 0,
        }
    }
}

impl FireSetup {
    fn fire(&self) -> Fire {
        Fire {
            troop_type: self.troop_type,
            stands: self.stands,
            range_uds: self.range_uds,
            moving: self.moving,
            uphill: self.uphill,
            target: FireTarget {
                doctrine: self.doctrine,
                infantry: !self.cavalry,
                terrain: self.terrain,
                conspicuous: self.conspicuous,
                stands: (self.target_stands > 0).then_some(self.target_stands),
                unrevealed: self.unrevealed,
            },
        }
    }
}

/// One side of an assault.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SideSetup {
    pub unit: Option<String>,
    pub stands: u32,
    pub troops: AssaultTroops,
    pub dashing: bool,
    pub stubborn: bool,
    pub cavalry: bool,
    pub extra_assaults: u32,
    pub cannot_fall_back: bool,
}

impl Default for SideSetup {
    fn default() -> Self {
        SideSetup {
            unit: None,
            stands: 4,
            troops: AssaultTroops::CloseRegulars,
            dashing: false,
            stubborn: false,
            cavalry: false,
            extra_assaults: 0,
            cannot_fall_back: false,
        }
    }
}

impl SideSetup {
    fn side(&self) -> AssaultSide {
        AssaultSide {
            stands: self.stands,
            troops: self.troops,
            dashing: self.dashing,
            stubborn: self.stubborn,
            cavalry: self.cavalry,
            extra_assaults: self.extra_assaults,
            can_fall_back: !self.cannot_fall_back,
        }
    }

    /// Copies a library unit's card into the side.
    fn fill_from(&mut self, unit: &UnitProfile) {
        let side = AssaultSide::of(unit);
        self.stands = side.stands;
        self.troops = side.troops;
        self.dashing = side.dashing;
        self.stubborn = side.stubborn;
        self.cavalry = side.cavalry;
    }
}

/// An assault.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct AssaultSetup {
    pub attacker: SideSetup,
    pub defender: SideSetup,
    pub position: Position,
    pub cover_or_rough: bool,
}

impl AssaultSetup {
    fn assault(&self) -> Assault {
        Assault {
            attacker: self.attacker.side(),
            defender: self.defender.side(),
            position: self.position,
            cover_or_rough: self.cover_or_rough,
        }
    }
}

/// Everything the Belle Epoque forms hold.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Form {
    pub command: CommandSetup,
    pub reactivity: ReactivitySetup,
    pub fire: FireSetup,
    pub assault: AssaultSetup,
}

/// What one Belle Epoque roll resolves: enough to roll it again.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Subject {
    CommandPoints(CommandSetup),
    Reactivity(ReactivitySetup),
    Fire(FireSetup),
    Assault(AssaultSetup),
}

/// What the Roll button rolls for `kind` with this form.
pub fn subject(kind: Kind, form: &Form) -> Subject {
    match kind {
        Kind::CommandPoints => Subject::CommandPoints(form.command.clone()),
        Kind::Reactivity => Subject::Reactivity(form.reactivity.clone()),
        Kind::Fire => Subject::Fire(form.fire.clone()),
        Kind::Assault => Subject::Assault(form.assault.clone()),
    }
}

/// The odds shown for a subject.
#[derive(Debug, Clone, PartialEq)]
pub enum Odds {
    CommandPoints {
        stands: u32,
        odds: CommandPointsOdds,
    },
    Reactivity {
        basic_score: u8,
        cps: u32,
        p_pass: f64,
        /// P(pass) with 0–5 CPs spent, to weigh what spending buys.
        by_cps: Vec<(u32, f64)>,
    },
    Fire {
        fire: Fire,
        odds: FireOdds,
    },
    Assault {
        assault: Assault,
        odds: AssaultOdds,
    },
}

/// The exact odds of `subject`, or why it cannot be resolved.
pub fn odds(subject: &Subject) -> Result<Odds, String> {
    match subject {
        Subject::CommandPoints(c) => Ok(Odds::CommandPoints {
            stands: c.stands,
            odds: be::command_points_odds(c.stands, c.general).map_err(|e| e.to_string())?,
        }),
        Subject::Reactivity(r) => Ok(Odds::Reactivity {
            basic_score: r.basic_score,
            cps: r.cps,
            p_pass: be::reactivity_odds(r.basic_score, r.cps).probability(&true),
            by_cps: (0..=5)
                .map(|cp| {
                    (
                        cp,
                        be::reactivity_odds(r.basic_score, cp).probability(&true),
                    )
                })
                .collect(),
        }),
        Subject::Fire(f) => {
            let fire = f.fire();
            Ok(Odds::Fire {
                odds: be::fire_odds(&fire).map_err(|e| e.to_string())?,
                fire,
            })
        }
        Subject::Assault(a) => {
            let assault = a.assault();
            Ok(Odds::Assault {
                odds: be::assault_odds(&assault).map_err(|e| e.to_string())?,
                assault,
            })
        }
    }
}

// ---------------------------------------------------------------------------------------
// Forms

/// Draws the form of `kind`, editing `form` in place.
pub fn form(kind: Kind, form: &mut Form, model: &Model, ui: &mut egui::Ui) {
    let units = library_names(model, RulesetId::BelleEpoque, |_| true);
    match kind {
        Kind::CommandPoints => command_form(&mut form.command, ui),
        Kind::Reactivity => reactivity_form(&mut form.reactivity, &units, ui),
        Kind::Fire => fire_form(&mut form.fire, &units, ui),
        Kind::Assault => assault_form(&mut form.assault, &units, ui),
    }
}

fn command_form(command: &mut CommandSetup, ui: &mut egui::Ui) {
    count_field(ui, "Stands", &mut command.stands, 1..=200);
    ui.horizontal(|ui| {
        ui.label("General");
        for g in [General::Mediocre, General::Average, General::Superior] {
            ui.radio_value(&mut command.general, g, general_label(g));
        }
    });
}

fn reactivity_form(r: &mut ReactivitySetup, units: &(Vec<String>, Vec<String>), ui: &mut egui::Ui) {
    ui.heading("Reactivity test");
    let before = r.unit.clone();
    card_combo(ui, "Unit", &mut r.unit, units);
    if r.unit != before
        && let Some(bs) = unit(r.unit.as_deref()).and_then(UnitProfile::basic_score)
    {
        r.basic_score = bs;
    }
    ui.horizontal(|ui| {
        let label = ui.label("Basic score");
        ui.add(egui::DragValue::new(&mut r.basic_score).range(1..=6))
            .labelled_by(label.id);
    });
    count_field(ui, "Command points spent", &mut r.cps, 0..=10);
}

fn fire_form(f: &mut FireSetup, units: &(Vec<String>, Vec<String>), ui: &mut egui::Ui) {
    ui.heading("Fire");
    let before = f.firer.clone();
    card_combo(ui, "Firing unit", &mut f.firer, units);
    if f.firer != before
        && let Some(u) = unit(f.firer.as_deref())
    {
        f.troop_type = u.troop_type;
        f.stands = u.stands;
    }
    ui.horizontal(|ui| {
        ui.label("Troop type");
        for t in [
            TroopType::A,
            TroopType::B,
            TroopType::C,
            TroopType::D,
            TroopType::E,
            TroopType::F,
            TroopType::G,
        ] {
            ui.radio_value(&mut f.troop_type, t, t.letter());
        }
    });
    count_field(ui, "Firing stands", &mut f.stands, 1..=12);
    ui.horizontal(|ui| {
        ui.label("Range");
        for uds in 1..=4 {
            ui.radio_value(&mut f.range_uds, uds, format!("{uds} UD"));
        }
    });
    ui.checkbox(&mut f.moving, "Firer moved")
        .on_hover_text("A basic move this activation: the bracketed to-hit numbers");
    ui.checkbox(&mut f.uphill, "Firer uphill of the target")
        .on_hover_text("One extra die");
    ui.separator();
    let before = f.target.clone();
    card_combo(ui, "Target unit", &mut f.target, units);
    if f.target != before
        && let Some(u) = unit(f.target.as_deref())
    {
        let target = FireTarget::of(u, f.terrain);
        f.doctrine = target.doctrine;
        f.cavalry = !target.infantry;
        f.conspicuous = target.conspicuous;
        f.target_stands = target.stands.unwrap_or(0);
    }
    ui.horizontal(|ui| {
        ui.label("Target order");
        for d in [Doctrine::Close, Doctrine::Loose] {
            ui.radio_value(&mut f.doctrine, d, d.label());
        }
    });
    ui.checkbox(&mut f.cavalry, "Target is cavalry")
        .on_hover_text("Cavalry ignores the cover and fortification misses of infantry; cavalry fights in close order");
    ui.horizontal(|ui| {
        ui.label("Target terrain");
        for (t, text) in [
            (Terrain::Open, "Open"),
            (Terrain::Cover, "Cover"),
            (Terrain::Fortifications, "Fortifications"),
        ] {
            ui.radio_value(&mut f.terrain, t, text);
        }
    });
    ui.checkbox(&mut f.conspicuous, "Target conspicuous")
        .on_hover_text("+1 to hit (a 6 still misses); always seen at 4 UD");
    ui.checkbox(&mut f.unrevealed, "Target has neither moved nor fired")
        .on_hover_text(
            "Or has not moved and carries smokeless-powder rifles: seen 1 UD less (house default: Rulings, Visibility)",
        );
    count_field(
        ui,
        "Target stands (0 = uncapped)",
        &mut f.target_stands,
        0..=12,
    );
}

fn side_form(
    side: &mut SideSetup,
    name: &str,
    units: &(Vec<String>, Vec<String>),
    ui: &mut egui::Ui,
) {
    ui.push_id(name, |ui| {
        let before = side.unit.clone();
        card_combo(ui, name, &mut side.unit, units);
        if side.unit != before
            && let Some(u) = unit(side.unit.as_deref())
        {
            side.fill_from(u);
        }
        count_field(ui, &format!("{name} stands"), &mut side.stands, 1..=12);
        ui.horizontal(|ui| {
            ui.label(format!("{name} level"));
            for (t, text) in [
                (AssaultTroops::MilitiaOrLooseRegulars, "Militia/loose (1–2)"),
                (AssaultTroops::CloseRegulars, "Close regulars (1–3)"),
                (AssaultTroops::Choc, "Choc (1–4)"),
            ] {
                ui.radio_value(&mut side.troops, t, text);
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.checkbox(&mut side.dashing, format!("{name} dashing"))
                .on_hover_text("SS level +1 (attacker)");
            ui.checkbox(&mut side.stubborn, format!("{name} stubborn"))
                .on_hover_text("SS level +1 for a defender; no fall backs for even losses");
            ui.checkbox(&mut side.cavalry, format!("{name} cavalry"))
                .on_hover_text(
                    "SS 1 from or against cover or rough terrain; no hill or fortification bonus",
                );
            ui.checkbox(
                &mut side.cannot_fall_back,
                format!("{name} cannot fall back"),
            );
        });
        count_field(
            ui,
            &format!("{name} assaults already fought"),
            &mut side.extra_assaults,
            0..=5,
        );
    });
}

fn assault_form(a: &mut AssaultSetup, units: &(Vec<String>, Vec<String>), ui: &mut egui::Ui) {
    ui.heading("Assault");
    side_form(&mut a.attacker, "Attacker", units, ui);
    ui.separator();
    side_form(&mut a.defender, "Defender", units, ui);
    ui.separator();
    ui.horizontal(|ui| {
        ui.label("Defender position");
        for (p, text) in [
            (Position::Open, "Open"),
            (Position::Hill, "Hill"),
            (Position::Fortifications, "Fortified"),
        ] {
            ui.radio_value(&mut a.position, p, text);
        }
    });
    ui.checkbox(
        &mut a.cover_or_rough,
        "From or against cover or rough ground",
    );
}

// ---------------------------------------------------------------------------------------
// Odds

/// Shows `odds`: charts, "at least" figures and the house defaults they rest on.
pub fn show(ui: &mut egui::Ui, odds: &Odds) {
    match odds {
        Odds::CommandPoints { stands, odds } => show_command(ui, *stands, odds),
        Odds::Reactivity {
            basic_score,
            cps,
            p_pass,
            by_cps,
        } => {
            let target = u32::from(*basic_score) + cps;
            ui.label(format!(
                "d6 at or under {basic_score} + {cps} CP(s) = {target}"
            ));
            ui.label(format!("P(pass): {}", pct(*p_pass)));
            bar_chart(
                ui,
                "belle_reactivity",
                &by_cps
                    .iter()
                    .map(|(cp, p)| (format!("{cp} CP"), *p))
                    .collect::<Vec<_>>(),
            );
            for (cp, p) in by_cps {
                ui.label(RichText::new(format!("With {cp} CP(s): {}", pct(*p))).weak());
            }
        }
        Odds::Fire { fire, odds } => show_fire(ui, fire, odds),
        Odds::Assault { assault, odds } => show_assault(ui, assault, odds),
    }
}

fn show_command(ui: &mut egui::Ui, stands: u32, odds: &CommandPointsOdds) {
    label_with_default(
        ui,
        format!("Roll {}d{}", odds.dice, odds.sides),
        &COMMAND_RULING,
    );
    ui.label(RichText::new(format!("{stands} stands: one die per started 8")).weak());
    ui.label(format!(
        "Average {:.2} command points",
        odds.total.expectation(|&x| f64::from(x))
    ));
    count_chart(ui, "belle_command", "", &odds.total);
    rulings_footer(ui, &[COMMAND_RULING]);
}

fn show_fire(ui: &mut egui::Ui, fire: &Fire, odds: &FireOdds) {
    let n = odds.numbers;
    label_with_default(
        ui,
        format!(
            "Type {} at {} UD{}: hit on {} or less",
            fire.troop_type.letter(),
            fire.range_uds,
            if fire.moving { " after moving" } else { "" },
            n.to_hit
        ),
        &FIRE_RULING,
    );
    let mut notes = vec![format!("{} dice", n.dice)];
    if fire.uphill {
        notes.push("one extra for firing uphill".into());
    }
    if fire.target.conspicuous {
        notes.push("+1 for a conspicuous target".into());
    }
    if n.misses_up_to > 0 {
        notes.push(format!(
            "{} and below miss (cover or loose order)",
            n.misses_up_to
        ));
    }
    notes.push(format!("a {} always misses", n.always_miss));
    ui.label(RichText::new(notes.join("; ")).weak());
    ui.label(format!(
        "P(hit) per die: {}",
        pct(odds.per_die.probability(&true))
    ));
    ui.add_space(6.0);
    ui.strong("Stands lost");
    count_chart(ui, "belle_fire", "Stands lost ", &odds.stands_lost);
    ui.label(format!(
        "Average {:.2} stands lost",
        odds.stands_lost.expectation(|&x| f64::from(x))
    ));
    rulings_footer(ui, &[FIRE_RULING, VISIBILITY_RULING]);
}

fn losses_label(l: &Losses) -> String {
    l.label()
}

fn casualties(losses: &Dist<Losses>) -> Dist<Losses> {
    losses.map(Losses::as_casualties)
}

fn show_assault(ui: &mut egui::Ui, assault: &Assault, odds: &AssaultOdds) {
    ui.label(format!(
        "{} at {} against {} at {} (a 1 always scores, a 6 never)",
        amount(u64::from(assault.attacker.stands), "stands"),
        level_words(odds.attacker_level),
        amount(u64::from(assault.defender.stands), "stands"),
        level_words(odds.defender_level)
    ));
    bar_chart(
        ui,
        "belle_assault",
        &[
            ("Attacker wins".into(), odds.p_attacker_wins()),
            ("Tie".into(), odds.p_tie()),
            ("Defender wins".into(), odds.p_defender_wins()),
        ],
    );
    ui.label(format!("P(attacker wins): {}", pct(odds.p_attacker_wins())));
    ui.label(format!("P(tie: both lose a stand): {}", pct(odds.p_tie())));
    ui.label(format!("P(defender wins): {}", pct(odds.p_defender_wins())));
    for (id, side, dist) in [
        ("belle_attacker_losses", "Attacker", odds.attacker_losses()),
        ("belle_defender_losses", "Defender", odds.defender_losses()),
    ] {
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            ui.strong(format!("{side} loses"));
            house_default(ui, &ASSAULT_RULING);
        });
        let merged = casualties(&dist);
        bar_chart(ui, id, &dist_bars(&merged, losses_label));
        for (l, p) in merged.probabilities() {
            ui.label(RichText::new(format!("{side} loses {}: {}", losses_label(l), pct(p))).weak());
        }
    }
    rulings_footer(ui, &[ASSAULT_RULING]);
}

// ---------------------------------------------------------------------------------------
// Rolls

/// Rolls `subject` with a fresh roller on `seed`: the same seed gives the same dice.
pub fn roll(subject: &Subject, seed: u64) -> Result<Rolled, String> {
    let mut roller = Roller::new(seed);
    match subject {
        Subject::CommandPoints(c) => {
            let roll = be::roll_command_points(c.stands, c.general, &mut roller)
                .map_err(|e| e.to_string())?;
            Ok(Rolled {
                title: format!(
                    "Command points: {} stands, {} general",
                    c.stands,
                    general_label(c.general)
                ),
                dice: vec![(format!("d{}", roll.dice.sides), faces(&roll.dice))],
                result: format!("{} command points", roll.total),
            })
        }
        Subject::Reactivity(r) => {
            let roll = be::roll_reactivity(r.basic_score, r.cps, &mut roller)
                .map_err(|e| e.to_string())?;
            Ok(Rolled {
                title: format!(
                    "Reactivity test, basic score {} + {} CP(s)",
                    r.basic_score, r.cps
                ),
                dice: vec![(format!("d6 (≤ {})", roll.target), faces(&roll.die))],
                result: if roll.passed {
                    "activated".into()
                } else {
                    "failed (basic move only)".into()
                },
            })
        }
        Subject::Fire(f) => {
            let fire = f.fire();
            let roll = be::roll_fire(&fire, &mut roller).map_err(|e| e.to_string())?;
            Ok(Rolled {
                title: format!(
                    "Type {} fire, {} stand(s) at {} UD",
                    fire.troop_type.letter(),
                    fire.stands,
                    fire.range_uds
                ),
                dice: vec![(
                    format!("Fire (hit on ≤ {})", roll.numbers.to_hit),
                    faces(&roll.dice),
                )],
                result: format!(
                    "{} hit(s): the target loses {} stand(s)",
                    roll.hits, roll.stands_lost
                ),
            })
        }
        Subject::Assault(a) => {
            let assault = a.assault();
            let roll = be::roll_assault(&assault, &mut roller).map_err(|e| e.to_string())?;
            let r = &roll.result;
            Ok(Rolled {
                title: format!(
                    "Assault: {} stands against {}",
                    assault.attacker.stands, assault.defender.stands
                ),
                dice: vec![
                    (
                        format!("Attacker ({})", level_words(roll.attacker_level)),
                        faces(&roll.attacker_dice),
                    ),
                    (
                        format!("Defender ({})", level_words(roll.defender_level)),
                        faces(&roll.defender_dice),
                    ),
                ],
                result: format!(
                    "scores {} against {}: attacker loses {}; defender loses {}",
                    r.attacker_score,
                    r.defender_score,
                    losses_label(&r.outcome.attacker),
                    losses_label(&r.outcome.defender)
                ),
            })
        }
    }
}
