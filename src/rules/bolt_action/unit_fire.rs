//! A unit's whole fire under one Fire order: every model fires its own weapon at the one
//! target (RULINGS "Board battles": the squad's rifles, its SMG, its LMG team's 3 shots, the
//! loader firing nothing), so a Regular squad of 10 rolls 8 rifle shots and the LMG's 3, not
//! 10 rifle shots.
//!
//! Who carries what is a house default (the sheets print no units): the unit's first weapon
//! is the one most models carry; each further weapon is carried by one model, a Team weapon
//! by two (a gunner and a loader who fires nothing). Casualties fall on the first weapon's
//! models first, then on the further weapons from the last listed back, a team losing its
//! loader before its gunner. A vehicle fires each of its weapons once; a gun's or a team
//! weapon's crew fires it once.
//!
//! The weapons fire one after the other in the card's order, each as the shooting mechanic
//! fires it, on the target as the earlier ones left it ([`Before`]): the unit's fire pins
//! its target once (the HE chart's pins where they are more), and an armoured target is
//! pinned only by a weapon that could damage it. Odds are exact, the outcome of each weapon
//! folded into the next; a fire too big for exact weights is estimated from seeded trials,
//! like a single attack.

use std::collections::BTreeMap;

use super::resolve::{
    Attack, AttackOutcome, AttackRoll, AttackTally, Before, ESTIMATE_TRIALS, ResolveError,
    Sampling, attack_outcomes, mixture, reduced, roll_attack_from,
};
use super::vehicle_damage::VehicleAfter;
use super::{UnitProfile, Weapon};
use crate::rules::dice::{DiceError, Dist, Roller, seed_from};

/// Models that carry one weapon of a squad: two for a Team weapon (its loader fires
/// nothing), else one.
fn crew(weapon: &Weapon) -> u32 {
    if weapon.special.iter().any(|s| s == "Team") {
        2
    } else {
        1
    }
}

/// Each weapon of `unit` and how many of its `models` fire it (see the module docs).
pub fn loadout(unit: &UnitProfile, models: u32) -> Vec<(&'static Weapon, u32)> {
    let weapons: Vec<&'static Weapon> = match super::tables() {
        Some(t) => unit.weapons.iter().filter_map(|w| t.weapon(w)).collect(),
        None => Vec::new(),
    };
    if models == 0 {
        return Vec::new();
    }
    let Some((&main, extras)) = weapons.split_first() else {
        return Vec::new();
    };
    let crewed =
        unit.category.is_vehicle() || unit.category == super::Category::Artillery || crew(main) > 1;
    if crewed {
        return weapons.into_iter().map(|w| (w, 1)).collect();
    }
    let mut left = models;
    let mut carried = Vec::new();
    for &weapon in extras {
        let given = left.min(crew(weapon));
        left -= given;
        carried.push((weapon, u32::from(given > 0)));
    }
    let specialists: u32 = extras.iter().map(|w| crew(w)).sum();
    let mut fire = vec![(main, models.saturating_sub(specialists))];
    fire.extend(carried);
    fire.retain(|(_, firers)| *firers > 0);
    fire
}

/// A unit's fire: one attack per weapon, in the card's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitFire<'a> {
    pub attacks: Vec<Attack<'a>>,
}

/// What the whole fire did, weapon after weapon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Fired {
    tally: AttackTally,
    /// Pins its hits have given so far (the largest any weapon's hits gave).
    pinned: u32,
    /// Every pin it added.
    pins: u32,
    vehicle: Option<VehicleAfter>,
}

impl Fired {
    fn then(self, outcome: &AttackOutcome) -> Fired {
        Fired {
            tally: self.tally.merge(&outcome.tally),
            pinned: self.pinned + outcome.hit_pins,
            pins: self.pins + outcome.pins,
            vehicle: outcome.vehicle.or(self.vehicle),
        }
    }

    /// Where the next weapon starts.
    fn before(&self, attack: &Attack<'_>) -> Before {
        Before {
            pinned: self.pinned,
            vehicle: self
                .vehicle
                .unwrap_or_else(|| Before::fresh(attack).vehicle),
            any_hit_pins_armour: false,
        }
    }
}

/// The odds of a unit's whole fire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitFireOdds {
    pub tally: Dist<AttackTally>,
    pub pins: Dist<u32>,
    /// An armoured target after the fire; `None` for other targets.
    pub vehicle: Option<Dist<VehicleAfter>>,
    /// Set when the fire had too many dice for exact weights: the odds are then counted from
    /// seeded trials.
    pub estimate: Option<Sampling>,
}

impl UnitFire<'_> {
    fn start(&self) -> Fired {
        let vehicle = self
            .attacks
            .first()
            .filter(|a| a.target.armoured)
            .map(|a| Before::fresh(a).vehicle);
        Fired {
            tally: AttackTally::default(),
            pinned: 0,
            pins: 0,
            vehicle,
        }
    }

    /// Exact odds, or a seeded estimate when the fire is too big for exact weights.
    ///
    /// # Errors
    /// As [`Attack::numbers`] for any of its weapons.
    pub fn odds(&self) -> Result<UnitFireOdds, ResolveError> {
        match self.exact() {
            Err(ResolveError::Dice(DiceError::WeightOverflow | DiceError::TooManyDice { .. })) => {
                self.estimated()
            }
            odds => odds,
        }
    }

    fn exact(&self) -> Result<UnitFireOdds, ResolveError> {
        let mut fired = Dist::certain(self.start());
        for attack in &self.attacks {
            // Many outcomes of the earlier weapons leave the target alike: each start is
            // worked out once.
            let mut outcomes: BTreeMap<Before, Dist<AttackOutcome>> = BTreeMap::new();
            fired = mixture(&fired, |state| {
                let before = state.before(attack);
                let each = match outcomes.entry(before) {
                    std::collections::btree_map::Entry::Occupied(known) => known.into_mut(),
                    std::collections::btree_map::Entry::Vacant(new) => {
                        new.insert(attack_outcomes(attack, &before)?)
                    }
                };
                Ok(each.map(|outcome| state.then(outcome)))
            })?;
        }
        let fired = reduced(&fired)?;
        Ok(UnitFireOdds {
            tally: reduced(&fired.map(|f| f.tally))?,
            pins: reduced(&fired.map(|f| f.pins))?,
            vehicle: match self.start().vehicle {
                Some(_) => Some(reduced(&Dist::from_weights(
                    fired.iter().filter_map(|(f, w)| f.vehicle.map(|v| (v, w))),
                )?)?),
                None => None,
            },
            estimate: None,
        })
    }

    fn estimated(&self) -> Result<UnitFireOdds, ResolveError> {
        let seed = seed_from(&format!("unit fire {:?}", self.attacks));
        let mut roller = Roller::new(seed);
        let (mut tallies, mut pins, mut vehicles) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..ESTIMATE_TRIALS {
            let roll = self.roll(&mut roller)?;
            tallies.push((roll.tally, 1u128));
            pins.push((roll.pins, 1u128));
            vehicles.extend(roll.vehicle.map(|v| (v, 1u128)));
        }
        Ok(UnitFireOdds {
            tally: Dist::from_weights(tallies)?,
            pins: Dist::from_weights(pins)?,
            vehicle: if vehicles.is_empty() {
                None
            } else {
                Some(Dist::from_weights(vehicles)?)
            },
            estimate: Some(Sampling {
                trials: ESTIMATE_TRIALS,
                seed,
            }),
        })
    }

    /// Rolls the fire, weapon after weapon.
    ///
    /// # Errors
    /// As [`roll_attack_from`].
    pub fn roll(&self, roller: &mut Roller) -> Result<UnitFireRoll, ResolveError> {
        let mut state = self.start();
        let mut rolls = Vec::new();
        for attack in &self.attacks {
            let roll = roll_attack_from(attack, &state.before(attack), roller)?;
            state = state.then(&AttackOutcome {
                tally: roll.tally,
                hit_pins: roll.hit_pins,
                pins: roll.pins,
                vehicle: roll.vehicle,
            });
            rolls.push(roll);
        }
        Ok(UnitFireRoll {
            shots: rolls.iter().map(|r| r.shots).sum(),
            rolls,
            tally: state.tally,
            pins: state.pins,
            vehicle: state.vehicle,
        })
    }
}

/// A unit's fire as it happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitFireRoll {
    /// Each weapon's attack, in the card's order.
    pub rolls: Vec<AttackRoll>,
    pub shots: u32,
    pub tally: AttackTally,
    /// Every pin the target took.
    pub pins: u32,
    pub vehicle: Option<VehicleAfter>,
}

#[cfg(test)]
mod tests;
