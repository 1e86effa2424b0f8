//! The Resolve view: exact odds and seeded, replayable dice rolls for every ruleset.
//!
//! This file is the hub: Armour Battles fire (direct, opportunity and off-table artillery),
//! the state, the dice log and the dispatch. Each other mechanic's forms, odds and rolls live
//! in `resolve/<ruleset>.rs` (Armour Battles command dice, rally and breakdown in
//! `resolve/armour_battles.rs`) so this file does not grow with every mechanic; all of them
//! call the rules API for the sums and hold no mechanics of their own.
//!
//! The chosen situation lives in [`ResolveState`]; the view edits it directly and the odds
//! are recomputed only when it changes. Rolls go through [`Action::Resolve`] so the session
//! dice log is only changed in [`super::App::apply`].

mod armour_battles;
mod battle_link;
mod battle_of_tanks;
mod belle_epoque;
mod belloludi;
mod bolt_action;
mod shared;

use egui::RichText;

use crate::rules::Ruleset;
use crate::rules::RulesetId;
use crate::rules::armour_battles::artillery::{self, ArtilleryOdds, ArtillerySituation};
use crate::rules::armour_battles::fire::{
    self, Bonus, Evasion, FireMode, FireOdds, FireSituation, MoveOrder, RangeBand,
};
use crate::rules::armour_battles::outcome::FireRoll;
use crate::rules::armour_battles::{self as ab, ArmourBattles, UnitCard, UnitKind};
use crate::rules::card::Card;
use crate::rules::dice::Roller;

use super::Action;
use super::model::Model;
use shared::{Rolled, card_combo, chart_with_lines, faces, house_mark};

pub use bolt_action::OrderSetup;
pub use shared::pct;

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
    /// Command dice, rally and breakdown; fire keeps its own variant (a campaign battle
    /// links to it).
    ArmourBattles(armour_battles::Kind),
    BelloLudi(belloludi::Kind),
    BattleOfTanks(battle_of_tanks::Kind),
    BoltAction(bolt_action::Kind),
    BelleEpoque(belle_epoque::Kind),
}

impl Mechanic {
    /// "Ruleset — mechanic", as the picker lists it.
    pub fn label(self) -> String {
        match self {
            Mechanic::ArmourBattlesFire => "Armour Battles — fire".into(),
            Mechanic::ArmourBattles(k) => format!("Armour Battles — {}", k.label()),
            Mechanic::BelloLudi(k) => format!("BelloLudi — {}", k.label()),
            Mechanic::BattleOfTanks(k) => format!("Battle of Tanks — {}", k.label()),
            Mechanic::BoltAction(k) => format!("Bolt Action — {}", k.label()),
            Mechanic::BelleEpoque(k) => format!("Belle Epoque — {}", k.label()),
        }
    }
}

const MECHANICS: [Mechanic; 16] = [
    Mechanic::ArmourBattlesFire,
    Mechanic::ArmourBattles(armour_battles::Kind::Command),
    Mechanic::ArmourBattles(armour_battles::Kind::Rally),
    Mechanic::ArmourBattles(armour_battles::Kind::Breakdown),
    Mechanic::BelloLudi(belloludi::Kind::Command),
    Mechanic::BelloLudi(belloludi::Kind::Shot),
    Mechanic::BelloLudi(belloludi::Kind::Crash),
    Mechanic::BattleOfTanks(battle_of_tanks::Kind::Fire),
    Mechanic::BattleOfTanks(battle_of_tanks::Kind::Repair),
    Mechanic::BattleOfTanks(battle_of_tanks::Kind::Spotting),
    Mechanic::BoltAction(bolt_action::Kind::OrderTest),
    Mechanic::BoltAction(bolt_action::Kind::Shooting),
    Mechanic::BelleEpoque(belle_epoque::Kind::CommandPoints),
    Mechanic::BelleEpoque(belle_epoque::Kind::Reactivity),
    Mechanic::BelleEpoque(belle_epoque::Kind::Fire),
    Mechanic::BelleEpoque(belle_epoque::Kind::Assault),
];

/// What one roll resolves: enough to roll it again.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Subject {
    ArmourBattles(Setup),
    /// Armour Battles command dice, rally or breakdown.
    ArmourBattlesOther(armour_battles::Subject),
    BelloLudi(belloludi::Subject),
    BattleOfTanks(battle_of_tanks::Subject),
    BoltAction(bolt_action::Subject),
    BelleEpoque(belle_epoque::Subject),
}

/// The odds of a mechanic other than Armour Battles fire.
#[derive(Debug, Clone, PartialEq)]
enum OtherOdds {
    ArmourBattles(armour_battles::Odds),
    BelloLudi(belloludi::Odds),
    BattleOfTanks(battle_of_tanks::Odds),
    BoltAction(bolt_action::Odds),
    BelleEpoque(belle_epoque::Odds),
}

/// The exact odds of a subject other than Armour Battles fire.
fn other_odds(subject: &Subject) -> Result<OtherOdds, String> {
    match subject {
        Subject::ArmourBattles(_) => Err("Armour Battles odds come from `odds`.".into()),
        Subject::ArmourBattlesOther(s) => armour_battles::odds(s).map(OtherOdds::ArmourBattles),
        Subject::BelloLudi(s) => belloludi::odds(s).map(OtherOdds::BelloLudi),
        Subject::BattleOfTanks(s) => battle_of_tanks::odds(s).map(OtherOdds::BattleOfTanks),
        Subject::BoltAction(s) => bolt_action::odds(s).map(OtherOdds::BoltAction),
        Subject::BelleEpoque(s) => belle_epoque::odds(s).map(OtherOdds::BelleEpoque),
    }
}

fn show_other_odds(ui: &mut egui::Ui, odds: &OtherOdds) {
    match odds {
        OtherOdds::ArmourBattles(o) => armour_battles::show(ui, o),
        OtherOdds::BelloLudi(o) => belloludi::show(ui, o),
        OtherOdds::BattleOfTanks(o) => battle_of_tanks::show(ui, o),
        OtherOdds::BoltAction(o) => bolt_action::show(ui, o),
        OtherOdds::BelleEpoque(o) => belle_epoque::show(ui, o),
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
    /// Rolled again from a seed already used (the Replay button, or a seed typed back in):
    /// the dice are an old roll's, so they are never recorded in a battle.
    pub replay: bool,
}

/// What the Resolve view asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum ResolveAction {
    /// Roll `subject` with `seed` and put it at the top of the log; then draw a fresh seed
    /// for the next press, so pressing Roll twice never reuses dice.
    Roll { subject: Subject, seed: u64 },
    /// Roll `subject` again with a logged `seed`: the same dice, marked as a replay.
    Replay { subject: Subject, seed: u64 },
    /// Pick a seed from the system clock.
    NewSeed,
}

/// The Resolve view's state: the forms, the cached odds and the session dice log.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolveState {
    pub mechanic: Mechanic,
    /// The Armour Battles fire form.
    pub setup: Setup,
    /// The Armour Battles command dice, rally and breakdown forms.
    pub armour_battles: armour_battles::Form,
    pub belloludi: belloludi::Form,
    pub battle_of_tanks: battle_of_tanks::Form,
    pub bolt_action: bolt_action::Form,
    pub belle_epoque: belle_epoque::Form,
    pub seed: u64,
    /// The open campaign battle's units picked for Armour Battles fire.
    pub battle_pick: battle_link::BattlePick,
    /// The latest roll (also at the top of the log).
    pub last: Option<RollEntry>,
    /// Newest first.
    pub log: Vec<RollEntry>,
    /// The last error of a roll, shown under the button while the form is unchanged.
    pub roll_error: Option<String>,
    /// What the form said when `roll_error` was raised: a changed form makes it stale.
    error_for: Option<Subject>,
    cache: Option<(Setup, Result<Odds, String>)>,
    other_cache: Option<(Subject, Result<OtherOdds, String>)>,
}

impl Default for ResolveState {
    /// A new session starts on a fresh seed: a fixed first seed would deal every session's
    /// first roll the same dice.
    fn default() -> Self {
        ResolveState {
            mechanic: Mechanic::default(),
            setup: Setup::default(),
            armour_battles: armour_battles::Form::default(),
            belloludi: belloludi::Form::default(),
            battle_of_tanks: battle_of_tanks::Form::default(),
            bolt_action: bolt_action::Form::default(),
            belle_epoque: belle_epoque::Form::default(),
            seed: clock_seed(0),
            battle_pick: battle_link::BattlePick::default(),
            last: None,
            log: Vec::new(),
            roll_error: None,
            error_for: None,
            cache: None,
            other_cache: None,
        }
    }
}

/// A seed from the system clock, short enough to type; `salt` separates draws within one
/// clock tick.
fn clock_seed(salt: u64) -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    // Fold the 128-bit count so both halves count.
    let folded = (nanos as u64) ^ ((nanos >> 64) as u64);
    folded.wrapping_add(salt.wrapping_mul(0x9E37_79B9_7F4A_7C15)) % 1_000_000_000
}

impl ResolveState {
    /// Applies one action.
    pub fn apply(&mut self, action: ResolveAction) {
        match action {
            ResolveAction::Roll { subject, seed } => {
                let used = self.seed_used(seed);
                if self.roll(&subject, seed, used) {
                    self.seed = self.fresh_seed();
                }
            }
            ResolveAction::Replay { subject, seed } => {
                self.roll(&subject, seed, true);
            }
            ResolveAction::NewSeed => self.seed = self.fresh_seed(),
        }
    }

    /// Rolls and logs `subject`; returns whether it rolled.
    fn roll(&mut self, subject: &Subject, seed: u64, replay: bool) -> bool {
        match roll_subject(subject, seed) {
            Ok(entry) => {
                let entry = RollEntry { replay, ..entry };
                self.roll_error = None;
                self.battle_pick.error = None;
                self.error_for = None;
                self.last = Some(entry.clone());
                self.log.insert(0, entry);
                true
            }
            Err(error) => {
                self.roll_error = Some(error);
                self.error_for = Some(self.subject());
                false
            }
        }
    }

    fn seed_used(&self, seed: u64) -> bool {
        self.log.iter().any(|entry| entry.seed == seed)
    }

    /// A seed from the clock that no roll in the log has used.
    fn fresh_seed(&self) -> u64 {
        (0..)
            .map(clock_seed)
            .find(|&seed| seed != self.seed && !self.seed_used(seed))
            .unwrap_or(0)
    }

    /// What the Roll button rolls now.
    pub fn subject(&self) -> Subject {
        match self.mechanic {
            Mechanic::ArmourBattlesFire => Subject::ArmourBattles(self.setup.clone()),
            Mechanic::ArmourBattles(k) => {
                Subject::ArmourBattlesOther(armour_battles::subject(k, &self.armour_battles))
            }
            Mechanic::BelloLudi(k) => Subject::BelloLudi(belloludi::subject(k, &self.belloludi)),
            Mechanic::BattleOfTanks(k) => {
                Subject::BattleOfTanks(battle_of_tanks::subject(k, &self.battle_of_tanks))
            }
            Mechanic::BoltAction(k) => {
                Subject::BoltAction(bolt_action::subject(k, &self.bolt_action))
            }
            Mechanic::BelleEpoque(k) => {
                Subject::BelleEpoque(belle_epoque::subject(k, &self.belle_epoque))
            }
        }
    }

    /// Drops a roll error once the form no longer says what failed: an old "Choose the
    /// target" must not sit under a situation that can be rolled.
    pub fn forget_stale_error(&mut self) {
        if self.roll_error.is_some() && self.error_for.as_ref() != Some(&self.subject()) {
            self.roll_error = None;
            self.error_for = None;
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

    /// The odds of another ruleset's `subject`, computed once per subject: a Bolt Action
    /// volley or a large assault is too slow to count again every frame.
    fn other_odds(&mut self, subject: Subject) -> &Result<OtherOdds, String> {
        let fresh = matches!(&self.other_cache, Some((cached, _)) if *cached == subject);
        if !fresh {
            let odds = other_odds(&subject);
            self.other_cache = Some((subject, odds));
        }
        &self.other_cache.as_ref().expect("just filled").1
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
    let rolled = match subject {
        Subject::ArmourBattles(setup) => return roll(setup, seed),
        Subject::ArmourBattlesOther(s) => armour_battles::roll(s, seed)?,
        Subject::BelloLudi(s) => belloludi::roll(s, seed)?,
        Subject::BattleOfTanks(s) => battle_of_tanks::roll(s, seed)?,
        Subject::BoltAction(s) => bolt_action::roll(s, seed)?,
        Subject::BelleEpoque(s) => belle_epoque::roll(s, seed)?,
    };
    let Rolled {
        title,
        dice,
        result,
    } = rolled;
    Ok(RollEntry {
        subject: subject.clone(),
        seed,
        title,
        dice,
        result,
        replay: false,
    })
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
        replay: false,
    })
}

// ---------------------------------------------------------------------------------------
// The view

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

/// Draws the whole Resolve view.
/// Share of the view's width each side column (form, rolls) may take at most.
const SIDE_SHARE: f32 = 0.3;
/// Narrowest a side column gets: a combo box and its label still fit.
const SIDE_MIN: f32 = 180.0;

pub fn ui(state: &mut ResolveState, model: &Model, ui: &mut egui::Ui) -> Vec<Action> {
    let mut actions = Vec::new();
    let battle = (state.mechanic == Mechanic::ArmourBattlesFire)
        .then(|| battle_link::open_battle(model))
        .flatten();
    // The side columns give way as the window narrows: the odds in the middle keep at least
    // 40 % of the width (720 px wide still shows the odds and their distributions).
    let side_max = (ui.available_width() * SIDE_SHARE).max(SIDE_MIN);
    egui::Panel::left("resolve_form")
        .resizable(true)
        .default_size(330.0_f32.min(side_max))
        .size_range(SIDE_MIN..=side_max)
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                let label = ui.label("Ruleset");
                egui::ComboBox::from_id_salt(label.id)
                    .selected_text(state.mechanic.label())
                    .width(220.0)
                    // Tall enough to list every mechanic without scrolling.
                    .height(480.0)
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
                Mechanic::ArmourBattlesFire => form(state, model, battle.as_ref(), ui),
                Mechanic::ArmourBattles(k) => {
                    armour_battles::form(k, &mut state.armour_battles, model, ui);
                }
                Mechanic::BelloLudi(k) => belloludi::form(k, &mut state.belloludi, model, ui),
                Mechanic::BattleOfTanks(k) => {
                    battle_of_tanks::form(k, &mut state.battle_of_tanks, model, ui);
                }
                Mechanic::BoltAction(k) => bolt_action::form(k, &mut state.bolt_action, model, ui),
                Mechanic::BelleEpoque(k) => {
                    belle_epoque::form(k, &mut state.belle_epoque, model, ui);
                }
            });
        });
    // After the form and before the roll panel, so an edit hides the old error this frame.
    state.forget_stale_error();
    // Rolls and the log get their own column so the Roll button stays in view however long
    // the odds run.
    egui::Panel::right("resolve_rolls")
        .resizable(true)
        .default_size(380.0_f32.min(side_max))
        .size_range(SIDE_MIN..=side_max)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                actions.extend(roll_panel(state, battle.as_ref(), ui))
            });
        });
    egui::CentralPanel::default().show(ui, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.heading(state.mechanic.label());
            if state.mechanic == Mechanic::ArmourBattlesFire {
                match state.odds().clone() {
                    Ok(odds) => show_odds(ui, &odds),
                    Err(error) => {
                        ui.label(error);
                    }
                }
            } else {
                let subject = state.subject();
                match state.other_odds(subject) {
                    Ok(odds) => show_other_odds(ui, odds),
                    Err(error) => {
                        ui.label(error.as_str());
                    }
                }
            }
        });
    });
    actions
}

fn form(
    state: &mut ResolveState,
    model: &Model,
    battle: Option<&battle_link::OpenBattle>,
    ui: &mut egui::Ui,
) {
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
    card_combo(
        ui,
        if artillery { "Battery" } else { "Attacker" },
        &mut setup.attacker,
        &unit_names(model, artillery),
    );
    card_combo(ui, "Target", &mut setup.target, &unit_names(model, false));
    if let Some(battle) = battle {
        ui.separator();
        battle_link::form(&mut state.battle_pick, setup, battle, ui);
    }
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
        ui.checkbox(&mut setup.flank, "Flank or rear shot")
            .on_hover_text("−1 TN; sloped armour uses its second number");
        ui.checkbox(&mut setup.uphill, "Target uphill")
            .on_hover_text("+1D reaction");
        ui.checkbox(&mut setup.ambush, "Ambush fire")
            .on_hover_text("A hidden unit firing from ambush: +1D attack");
    }
    ui.checkbox(&mut setup.cover, "Target in cover")
        .on_hover_text("Light cover: +1D reaction (nothing against artillery)");
    ui.checkbox(
        &mut setup.evading,
        if artillery {
            "Target breaks off"
        } else {
            "Target evading"
        },
    );
    ui.checkbox(&mut setup.target_suppressed, "Target suppressed")
        .on_hover_text("Reaction dice score on 5+ instead of 4+");
    ui.horizontal(|ui| {
        ui.label("Target disruption");
        for n in 0..=2 {
            ui.radio_value(&mut setup.target_disruption, n, n.to_string());
        }
    });
    ui.separator();
    ui.checkbox(&mut setup.attacker_wild, "Attacker wild die")
        .on_hover_text("+1D attack (at most one per action)");
    ui.checkbox(&mut setup.attacker_staff, "Attacker Staff Order")
        .on_hover_text("+1D attack (at most one per action)");
    ui.checkbox(&mut setup.target_wild, "Target wild die")
        .on_hover_text("+1D reaction (at most one per action)");
    ui.checkbox(&mut setup.target_staff, "Target Staff Order")
        .on_hover_text("+1D reaction (at most one per action)");
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
    let names = ["0", "1", "2", "3+"];
    let bars: Vec<(String, f64)> = names
        .iter()
        .zip(dist)
        .map(|(name, p)| (name.to_string(), p))
        .collect();
    chart_with_lines(ui, "resolve_disruption", &bars, |ui| {
        for (n, p) in dist.iter().enumerate() {
            let name = if n == 3 { "3+".into() } else { n.to_string() };
            ui.label(format!(
                "{name}: {} (at least {n}: {})",
                pct(*p),
                pct(f.result.p_disruption_at_least(n as u32))
            ));
        }
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
    shared::rulings_footer(ui, h);
}

/// The "Record in battle" button under an Armour Battles roll made with battle units.
fn record_in_battle(
    state: &mut ResolveState,
    battle: &battle_link::OpenBattle,
    setup: Setup,
    seed: u64,
    ui: &mut egui::Ui,
) -> Option<Action> {
    let pick = &mut state.battle_pick;
    let recorded = pick.recorded_roll == Some(state.log.len());
    let text = if recorded {
        format!("Recorded in {}", battle.name)
    } else {
        format!("Record in {}", battle.name)
    };
    let clicked = ui
        .add_enabled(!recorded, egui::Button::new(text))
        .on_hover_text("Apply this roll's result to the picked units of the campaign battle")
        .clicked();
    if let Some(error) = &pick.error {
        ui.colored_label(ui.visuals().error_fg_color, error);
    }
    if !clicked {
        return None;
    }
    match battle_link::fire_event(&setup, seed, pick, &battle.state) {
        Ok(event) => {
            pick.error = None;
            pick.recorded_roll = Some(state.log.len());
            Some(Action::Model(super::model::Command::Campaign(
                super::model::CampaignCommand::Record(Box::new(event)),
            )))
        }
        Err(error) => {
            pick.error = Some(error);
            None
        }
    }
}

fn entry_ui(ui: &mut egui::Ui, entry: &RollEntry) {
    let replay = if entry.replay { " (replay)" } else { "" };
    ui.label(format!("{} — seed {}{replay}", entry.title, entry.seed));
    for (what, dice) in &entry.dice {
        let faces: Vec<String> = dice.iter().map(u8::to_string).collect();
        ui.label(format!("{what}: {}", faces.join(" ")));
    }
    ui.label(RichText::new(&entry.result).strong());
}

fn roll_panel(
    state: &mut ResolveState,
    battle: Option<&battle_link::OpenBattle>,
    ui: &mut egui::Ui,
) -> Vec<Action> {
    let mut actions = Vec::new();
    ui.heading("Seeded roll");
    // Wrapped: in a narrow column the Roll button moves down rather than out of sight.
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Seed");
        ui.add(egui::DragValue::new(&mut state.seed).speed(1.0))
            .labelled_by(label.id)
            .on_hover_text(
                "The next roll's seed. Each Roll draws a fresh one afterwards; type a logged seed to replay its dice (a replay is never recorded in a battle).",
            );
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
    if let (Some(battle), Some(entry)) = (battle, &state.last)
        && !entry.replay
        && let Subject::ArmourBattles(setup) = &entry.subject
        && state.battle_pick.attacker.is_some()
        && state.battle_pick.target.is_some()
    {
        actions.extend(record_in_battle(
            state,
            battle,
            setup.clone(),
            entry.seed,
            ui,
        ));
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
                    actions.push(Action::Resolve(ResolveAction::Replay {
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
                // Wrapped, so a long volley cannot widen the panel past the window.
                ui.add(
                    egui::Label::new(format!(
                        "#{} seed {} — {} — {} — {}",
                        state.log.len() - index,
                        entry.seed,
                        entry.title,
                        dice.join(" | "),
                        entry.result
                    ))
                    .wrap(),
                );
            });
        });
    }
    actions
}
