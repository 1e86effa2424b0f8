//! Direct fire and opportunity fire: the situation, its modifiers, exact odds and a roll.
//!
//! The book's procedure (Direct Fire, Reaction Checks, Opportunity Fire, Special Rules) as
//! settled by RULINGS "Direct fire": the firing unit's AT dice at TN 4 + range − flank,
//! against the target's Reaction Dice at 4+ (5+ when suppressed). This module only turns a
//! situation into two pools and says which modifier did what; the result maths is shared
//! with artillery in [`outcome`](super::outcome), and the dice maths is the dice core's.
//!
//! Opportunity fire uses the same maths. Per the book it differs in two ways, both checked
//! here: the firer is not moving as part of the shot (no multiple-move penalty), and only
//! opportunity fire can catch a disengaging unit, which then gains +2D. Ambush fire may be
//! opportunity fire; Break-Off and Shoot and Scoot work against either.

use serde::Deserialize;

use super::cards::{FireKind, SpecialRule, UnitCard, UnitKind};
use super::error::ResolveError;
use super::outcome::{
    DIRECT_SUPPRESSION_RULING, FORCED_BACK_RULING, FireRoll, HouseDefault, ResultOdds, ResultRules,
    SuppressionRule, result_odds, roll_result,
};
use crate::rules::dice::{Pool, Roller};

/// RULINGS "Direct fire": the attacker's target number stays within 2+..6+.
pub const TN_CLAMP_RULING: HouseDefault = HouseDefault {
    value: "attacker_tn",
    ruling: "Attacker target numbers are clamped to 2+..6+.",
};

/// Range band of the shot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RangeBand {
    Short,
    #[default]
    Effective,
    Long,
}

impl RangeBand {
    pub fn label(self) -> &'static str {
        match self {
            RangeBand::Short => "short range",
            RangeBand::Effective => "effective range",
            RangeBand::Long => "long range",
        }
    }
}

/// How many move orders the unit uses in this activation (a single, double or triple move;
/// a unit that does not move counts as single).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MoveOrder {
    #[default]
    Single,
    Double,
    Triple,
}

impl MoveOrder {
    /// 1, 2 or 3.
    pub fn orders(self) -> u32 {
        match self {
            MoveOrder::Single => 1,
            MoveOrder::Double => 2,
            MoveOrder::Triple => 3,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            MoveOrder::Single => "single move",
            MoveOrder::Double => "double move",
            MoveOrder::Triple => "triple move",
        }
    }
}

/// Whether the shot is taken in the firer's own activation or as opportunity fire in the
/// enemy's Command Pulse.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum FireMode {
    #[default]
    Direct,
    Opportunity,
}

/// An evasive move that gives the target +2D reaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Evasion {
    /// Break-Off: needs the Break-Off rule (Shoot and Scoot units can always break off).
    BreakOff,
    /// Shooting and scooting: needs the Shoot and Scoot rule.
    ShootAndScoot,
    /// Disengage Group order: any unit, but only opportunity fire can hit it while it moves.
    Disengage,
}

impl Evasion {
    pub fn label(self) -> &'static str {
        match self {
            Evasion::BreakOff => "breaking off",
            Evasion::ShootAndScoot => "shooting and scooting",
            Evasion::Disengage => "disengaging",
        }
    }

    /// The evasive move a target makes when only "it is evading" is known: Break-Off if it
    /// can (Break-Off or Shoot and Scoot), otherwise a disengage.
    ///
    /// Break-Off is preferred because it needs no order and works against any fire; a unit
    /// without it can only gain the bonus by disengaging under opportunity fire.
    pub fn for_target(target: &UnitCard) -> Self {
        if target.has(SpecialRule::BreakOff) || target.has(SpecialRule::ShootAndScoot) {
            Evasion::BreakOff
        } else {
            Evasion::Disengage
        }
    }

    /// Whether `target` may make this move under `fire` (artillery: `None` mode).
    pub(crate) fn check(
        self,
        target: &UnitCard,
        mode: Option<FireMode>,
    ) -> Result<(), ResolveError> {
        let cannot = |action, reason| ResolveError::CannotEvade {
            name: target.name.clone(),
            action,
            reason,
        };
        match self {
            Evasion::BreakOff => {
                if target.has(SpecialRule::BreakOff) || target.has(SpecialRule::ShootAndScoot) {
                    Ok(())
                } else {
                    Err(cannot(
                        "break off",
                        "it has neither Break-Off nor Shoot and Scoot",
                    ))
                }
            }
            Evasion::ShootAndScoot => match mode {
                None => Err(cannot(
                    "shoot and scoot away from artillery",
                    "artillery fires in the Logistics Phase, not while a unit scoots (Break-Off works)",
                )),
                Some(_) if target.has(SpecialRule::ShootAndScoot) => Ok(()),
                Some(_) => Err(cannot("shoot and scoot", "it has no Shoot and Scoot")),
            },
            Evasion::Disengage => match mode {
                Some(FireMode::Opportunity) => Ok(()),
                Some(FireMode::Direct) => Err(cannot(
                    "gain +2D for disengaging",
                    "a disengaging unit is only fired at by opportunity fire",
                )),
                None => Err(cannot(
                    "gain +2D for disengaging from artillery",
                    "only opportunity fire catches a disengaging unit",
                )),
            },
        }
    }
}

/// Wild dice and Staff Orders spent on one roll: +1D each, at most one of each per action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bonus {
    pub wild_die: bool,
    pub staff_order: bool,
}

impl Bonus {
    /// `count` extra dice: 0, 1 (a wild die) or 2 (a wild die and a Staff Order); `None`
    /// above 2, which the book does not allow.
    pub fn from_count(count: u32) -> Option<Self> {
        match count {
            0 => Some(Self::default()),
            1 => Some(Self {
                wild_die: true,
                staff_order: false,
            }),
            2 => Some(Self {
                wild_die: true,
                staff_order: true,
            }),
            _ => None,
        }
    }

    /// How many of the two are spent.
    pub fn count(self) -> u32 {
        u32::from(self.wild_die) + u32::from(self.staff_order)
    }
}

/// Everything about one shot that changes the dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FireSituation {
    pub mode: FireMode,
    pub range: RangeBand,
    /// Firing at the flank or rear (also picks the sloped-armour second number).
    pub flank: bool,
    /// Target in light cover.
    pub cover: bool,
    /// Target uphill of the firer.
    pub uphill: bool,
    pub attacker_move: MoveOrder,
    /// Hidden unit using ambush fire.
    pub ambush: bool,
    pub evasion: Option<Evasion>,
    pub target_suppressed: bool,
    /// Disruption Points already on the target (0 up to its Cohesion − 1).
    pub target_disruption: u32,
    pub attacker_bonus: Bonus,
    pub target_bonus: Bonus,
}

/// Target number modifiers by range band.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeModifiers {
    pub short: i32,
    pub effective: i32,
    pub long: i32,
}

/// AT dice modifiers by move order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveModifiers {
    pub single: i32,
    pub double: i32,
    pub triple: i32,
}

/// The fire modifiers of RULINGS "Direct fire", as seed data a user may change.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireRules {
    pub base_tn: i32,
    pub range_tn: RangeModifiers,
    pub flank_tn: i32,
    /// Attacker TN is clamped to `min_tn..=max_tn` (a house default).
    pub min_tn: i32,
    pub max_tn: i32,
    pub move_dice: MoveModifiers,
    pub ambush_dice: i32,
    pub wild_die_dice: i32,
    pub staff_order_dice: i32,
    pub cover_dice: i32,
    pub uphill_dice: i32,
    pub evading_dice: i32,
    pub reaction_tn: i32,
    pub suppressed_reaction_tn: i32,
    pub result: ResultRules,
}

impl FireRules {
    /// Checks the seed values make sense (e.g. a TN range that is not empty).
    pub(crate) fn check(&self) -> Result<(), String> {
        if self.min_tn > self.max_tn {
            return Err(format!(
                "fire.min_tn {} is above fire.max_tn {}",
                self.min_tn, self.max_tn
            ));
        }
        if self.result.army_morale_loss_die == 0 || self.result.army_morale_loss_die > 255 {
            return Err(format!(
                "fire.result.army_morale_loss_die {}: a die has 1 to 255 sides",
                self.result.army_morale_loss_die
            ));
        }
        Ok(())
    }

    /// The target number of a frontal shot at `band`, clamped like every shot's (a unit
    /// card prints these under its range bands).
    pub fn frontal_tn(&self, band: RangeBand) -> i32 {
        (self.base_tn + self.range(band)).clamp(self.min_tn, self.max_tn)
    }

    fn range(&self, band: RangeBand) -> i32 {
        match band {
            RangeBand::Short => self.range_tn.short,
            RangeBand::Effective => self.range_tn.effective,
            RangeBand::Long => self.range_tn.long,
        }
    }

    fn movement(&self, order: MoveOrder) -> i32 {
        match order {
            MoveOrder::Single => self.move_dice.single,
            MoveOrder::Double => self.move_dice.double,
            MoveOrder::Triple => self.move_dice.triple,
        }
    }
}

/// Which number a modifier changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Modified {
    AttackerDice,
    AttackerTn,
    ReactionDice,
    ReactionTn,
    /// A rally attempt's dice.
    RallyDice,
}

impl Modified {
    /// The JSON name of the value.
    pub fn key(self) -> &'static str {
        match self {
            Modified::AttackerDice => "attacker_dice",
            Modified::AttackerTn => "attacker_tn",
            Modified::ReactionDice => "reaction_dice",
            Modified::ReactionTn => "reaction_tn",
            Modified::RallyDice => "rally_dice",
        }
    }
}

/// One applied modifier, for showing how the pools were built ("double move −1D").
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Modifier {
    pub modifies: Modified,
    pub label: String,
    /// Dice added (or TN change), may be negative.
    pub change: i32,
}

/// The two pools of a shot and how they were built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirePools {
    pub fire_kind: FireKind,
    pub attack: Pool,
    pub reaction: Pool,
    /// The card values the modifiers start from.
    pub card_attacker_dice: u32,
    pub card_reaction_dice: u32,
    pub modifiers: Vec<Modifier>,
    pub evasion: Option<Evasion>,
    pub house_defaults: Vec<HouseDefault>,
}

/// Collects modifiers and sums them onto a starting value.
pub(crate) struct Builder {
    pub(crate) modifiers: Vec<Modifier>,
}

impl Builder {
    pub(crate) fn new() -> Self {
        Self {
            modifiers: Vec::new(),
        }
    }

    pub(crate) fn add(&mut self, modifies: Modified, label: impl Into<String>, change: i32) {
        if change != 0 {
            self.modifiers.push(Modifier {
                modifies,
                label: label.into(),
                change,
            });
        }
    }

    pub(crate) fn add_if(&mut self, when: bool, modifies: Modified, label: &str, change: i32) {
        if when {
            self.add(modifies, label, change);
        }
    }

    pub(crate) fn total(&self, modifies: Modified, start: i32) -> i32 {
        self.modifiers
            .iter()
            .filter(|m| m.modifies == modifies)
            .fold(start, |sum, m| sum.saturating_add(m.change))
    }

    /// Adds the wild die and Staff Order of `bonus` to `modifies`.
    pub(crate) fn bonus(&mut self, modifies: Modified, bonus: Bonus, wild: i32, staff: i32) {
        if bonus.wild_die {
            self.add(modifies, "wild die", wild);
        }
        if bonus.staff_order {
            self.add(modifies, "Staff Order", staff);
        }
    }
}

/// Dice from a possibly negative sum: never fewer than none.
pub(crate) fn dice(count: i32) -> u32 {
    u32::try_from(count).unwrap_or(0)
}

/// The target's reaction before modifiers, refusing off-table artillery.
pub(crate) fn card_reaction(target: &UnitCard, kind: FireKind) -> Result<u32, ResolveError> {
    if target.kind == UnitKind::OffTableArtillery {
        return Err(ResolveError::CannotBeTargeted {
            name: target.name.clone(),
        });
    }
    let reaction = target.reaction.ok_or_else(|| ResolveError::MissingStat {
        name: target.name.clone(),
        field: "reaction",
    })?;
    Ok(u32::from(reaction.dice_against(kind)))
}

/// Refuses existing Disruption Points that would already have dispersed the target.
pub(crate) fn check_disruption(target: &UnitCard, disruption: u32) -> Result<(), ResolveError> {
    let cohesion = u32::from(target.cohesion);
    if disruption >= cohesion {
        return Err(ResolveError::DisruptionTooHigh {
            name: target.name.clone(),
            disruption,
            cohesion,
            max: cohesion.saturating_sub(1),
        });
    }
    Ok(())
}

/// Builds both pools of a direct or opportunity shot, checking the situation is legal.
///
/// # Errors
/// Off-table artillery as attacker or target, an evasion the target cannot make, a moving
/// opportunity shot, or existing Disruption Points at or above the target's Cohesion.
pub fn fire_pools(
    attacker: &UnitCard,
    target: &UnitCard,
    situation: &FireSituation,
    rules: &FireRules,
) -> Result<FirePools, ResolveError> {
    if attacker.kind == UnitKind::OffTableArtillery {
        return Err(ResolveError::ArtilleryCannotFireDirectly {
            name: attacker.name.clone(),
        });
    }
    let fire_kind = if situation.flank {
        FireKind::DirectFlank
    } else {
        FireKind::DirectFrontal
    };
    let card_reaction_dice = card_reaction(target, fire_kind)?;
    check_disruption(target, situation.target_disruption)?;
    if situation.mode == FireMode::Opportunity && situation.attacker_move != MoveOrder::Single {
        return Err(ResolveError::Situation {
            field: "attacker_move",
            value: situation.attacker_move.label().to_string(),
            reason: "opportunity fire is not part of a move, so no multiple-move penalty applies",
        });
    }
    if let Some(evasion) = situation.evasion {
        evasion.check(target, Some(situation.mode))?;
    }

    let mut b = Builder::new();
    b.add(
        Modified::AttackerTn,
        situation.range.label(),
        rules.range(situation.range),
    );
    b.add_if(
        situation.flank,
        Modified::AttackerTn,
        "flank/rear shot",
        rules.flank_tn,
    );
    b.add(
        Modified::AttackerDice,
        situation.attacker_move.label(),
        rules.movement(situation.attacker_move),
    );
    b.add_if(
        situation.ambush,
        Modified::AttackerDice,
        "ambush fire",
        rules.ambush_dice,
    );
    b.bonus(
        Modified::AttackerDice,
        situation.attacker_bonus,
        rules.wild_die_dice,
        rules.staff_order_dice,
    );
    b.add_if(
        situation.cover,
        Modified::ReactionDice,
        "light cover",
        rules.cover_dice,
    );
    b.add_if(
        situation.uphill,
        Modified::ReactionDice,
        "target uphill",
        rules.uphill_dice,
    );
    if let Some(evasion) = situation.evasion {
        b.add(Modified::ReactionDice, evasion.label(), rules.evading_dice);
    }
    b.bonus(
        Modified::ReactionDice,
        situation.target_bonus,
        rules.wild_die_dice,
        rules.staff_order_dice,
    );
    if situation.target_suppressed {
        b.add(
            Modified::ReactionTn,
            "target suppressed",
            rules.suppressed_reaction_tn - rules.reaction_tn,
        );
    }

    let mut house_defaults = vec![DIRECT_SUPPRESSION_RULING, FORCED_BACK_RULING];
    let unclamped = b.total(Modified::AttackerTn, rules.base_tn);
    let attacker_tn = unclamped.clamp(rules.min_tn, rules.max_tn);
    if attacker_tn != unclamped {
        b.add(Modified::AttackerTn, "clamped", attacker_tn - unclamped);
        house_defaults.push(TN_CLAMP_RULING);
    }
    let card_attacker_dice = u32::from(attacker.at_dice);
    let attack_dice = dice(b.total(Modified::AttackerDice, i32::from(attacker.at_dice)));
    let reaction_dice = dice(b.total(
        Modified::ReactionDice,
        i32::try_from(card_reaction_dice).unwrap_or(i32::MAX),
    ));
    let reaction_tn = b.total(Modified::ReactionTn, rules.reaction_tn);
    Ok(FirePools {
        fire_kind,
        attack: Pool::new(attack_dice, attacker_tn),
        reaction: Pool::new(reaction_dice, reaction_tn),
        card_attacker_dice,
        card_reaction_dice,
        modifiers: b.modifiers,
        evasion: situation.evasion,
        house_defaults,
    })
}

/// Exact odds of one shot.
#[derive(Debug, Clone, PartialEq)]
pub struct FireOdds {
    pub attacker: String,
    pub target: String,
    /// Direct or opportunity fire; `None` for artillery.
    pub mode: Option<FireMode>,
    pub fire_kind: FireKind,
    pub suppression: SuppressionRule,
    pub attacker_dice: u32,
    pub attacker_tn: i32,
    pub reaction_dice: u32,
    pub reaction_tn: i32,
    /// The card values before modifiers.
    pub card_attacker_dice: u32,
    pub card_reaction_dice: u32,
    pub modifiers: Vec<Modifier>,
    pub evasion: Option<Evasion>,
    /// The values computed with a RULINGS house default.
    pub house_defaults: Vec<HouseDefault>,
    pub result: ResultOdds,
}

impl FireOdds {
    pub(crate) fn new(
        attacker: &UnitCard,
        target: &UnitCard,
        mode: Option<FireMode>,
        pools: FirePools,
        suppression: SuppressionRule,
        existing: u32,
        rules: &ResultRules,
    ) -> Result<Self, ResolveError> {
        let result = result_odds(
            pools.attack,
            pools.reaction,
            suppression,
            existing,
            u32::from(target.cohesion),
            rules,
        )?;
        Ok(Self {
            attacker: attacker.name.clone(),
            target: target.name.clone(),
            mode,
            fire_kind: pools.fire_kind,
            suppression,
            attacker_dice: pools.attack.dice,
            attacker_tn: pools.attack.target,
            reaction_dice: pools.reaction.dice,
            reaction_tn: pools.reaction.target,
            card_attacker_dice: pools.card_attacker_dice,
            card_reaction_dice: pools.card_reaction_dice,
            modifiers: pools.modifiers,
            evasion: pools.evasion,
            house_defaults: pools.house_defaults,
            result,
        })
    }

    /// P(0, 1, 2, ≥3 new Disruption Points).
    pub fn disruption(&self) -> [f64; 4] {
        self.result.disruption
    }

    pub fn p_suppressed(&self) -> f64 {
        self.result.p_suppressed
    }

    pub fn p_forced_back(&self) -> f64 {
        self.result.p_forced_back
    }

    /// P(dispersed), counting the target's existing Disruption Points.
    pub fn p_dispersed(&self) -> f64 {
        self.result.p_dispersed
    }
}

/// Exact odds of `attacker` firing at `target` with the book's (seed data) modifiers.
///
/// # Errors
/// As [`fire_pools`]; [`ResolveError::Data`] if the seed data failed to load.
pub fn fire_odds(
    attacker: &UnitCard,
    target: &UnitCard,
    situation: &FireSituation,
) -> Result<FireOdds, ResolveError> {
    fire_odds_with(attacker, target, situation, super::fire_rules()?)
}

/// Exact odds of one shot under the given (possibly user-changed) modifiers.
///
/// # Errors
/// As [`fire_pools`].
pub fn fire_odds_with(
    attacker: &UnitCard,
    target: &UnitCard,
    situation: &FireSituation,
    rules: &FireRules,
) -> Result<FireOdds, ResolveError> {
    let pools = fire_pools(attacker, target, situation, rules)?;
    FireOdds::new(
        attacker,
        target,
        Some(situation.mode),
        pools,
        SuppressionRule::FewerSixes,
        situation.target_disruption,
        &rules.result,
    )
}

/// Rolls one shot with `roller`: every die, the seed and the result.
///
/// # Errors
/// As [`fire_pools`].
pub fn roll_fire(
    attacker: &UnitCard,
    target: &UnitCard,
    situation: &FireSituation,
    roller: &mut Roller,
) -> Result<FireRoll, ResolveError> {
    roll_fire_with(attacker, target, situation, super::fire_rules()?, roller)
}

/// [`roll_fire`] under the given modifiers.
///
/// # Errors
/// As [`fire_pools`].
pub fn roll_fire_with(
    attacker: &UnitCard,
    target: &UnitCard,
    situation: &FireSituation,
    rules: &FireRules,
    roller: &mut Roller,
) -> Result<FireRoll, ResolveError> {
    let pools = fire_pools(attacker, target, situation, rules)?;
    roll_result(
        pools.attack,
        pools.reaction,
        SuppressionRule::FewerSixes,
        situation.target_disruption,
        u32::from(target.cohesion),
        &rules.result,
        super::revision::CURRENT,
        roller,
    )
}

#[cfg(test)]
mod tests;
