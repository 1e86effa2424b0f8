//! What damage results do to a vehicle, in the order they are rolled (RULINGS "Damage results
//! on vehicles"): every Crew Stunned, Immobilised or On Fire result puts one more pin on it,
//! beside the pin (or HE pins) of the hit itself; a second Immobilised knocks it out; On Fire
//! calls for a morale check — 2d6 at or under its morale less the pins it now carries — that
//! puts the fire out when passed and has the crew abandon the vehicle (knocked out) when
//! failed. A knocked-out vehicle takes no more checks, though the attack's later results still
//! count their pins.
//!
//! Shooting and infantry assaults both end here, so a vehicle's fate is decided once: the
//! exact odds ([`after_results_odds`]) and a roll ([`VehicleAfter::apply`] with a check that
//! rolls dice) walk the same [`VehicleAfter::apply`].

use std::convert::Infallible;

use serde::Serialize;

use super::resolve::{DamageEffect, ResolveError, reduced};
use crate::rules::dice::{Dist, d6};

/// How a vehicle came to be knocked out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KnockOut {
    /// A Knocked Out result on the damage table.
    DamageResult,
    /// A second Immobilised result.
    SecondImmobilised,
    /// On Fire and a failed morale check: the crew abandoned it.
    Abandoned,
}

impl KnockOut {
    pub fn words(self) -> &'static str {
        match self {
            KnockOut::DamageResult => "knocked out",
            KnockOut::SecondImmobilised => "knocked out: immobilised twice",
            KnockOut::Abandoned => "knocked out: crew abandoned it",
        }
    }
}

/// The lasting effect of the results on a vehicle, worst last: what the odds count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum VehicleFate {
    NoDamage,
    /// Crew Stunned (and nothing worse): halted with a down order.
    CrewStunned,
    /// On Fire and the check passed: halted with a down order, the fire out.
    FirePutOut,
    /// It can never move again.
    Immobilised,
    KnockedOut {
        cause: KnockOut,
    },
}

impl VehicleFate {
    pub fn words(self) -> &'static str {
        match self {
            VehicleFate::NoDamage => "no damage result",
            VehicleFate::CrewStunned => "crew stunned (down)",
            VehicleFate::FirePutOut => "on fire, put out (down)",
            VehicleFate::Immobilised => "immobilised",
            VehicleFate::KnockedOut { cause } => cause.words(),
        }
    }

    pub fn is_knocked_out(self) -> bool {
        matches!(self, VehicleFate::KnockedOut { .. })
    }
}

/// One On Fire morale check as it was rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MoraleCheck {
    /// Pass at or under this: morale − pins.
    pub target: i32,
    pub total: u32,
    pub passed: bool,
}

/// A vehicle while damage results are applied to it, and after.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct VehicleAfter {
    /// Its morale, for On Fire checks.
    pub morale: u8,
    /// Every pin on it: those it had, the hit's, one per Crew Stunned, Immobilised or On Fire.
    pub pins: u32,
    pub immobilised: bool,
    /// Crew Stunned or a fire put out: it is halted with a down order this turn.
    pub down: bool,
    pub stunned: bool,
    pub fire_put_out: bool,
    pub knocked_out: Option<KnockOut>,
}

impl VehicleAfter {
    /// A vehicle of `morale` carrying `pins` (the hit's included), already immobilised or not.
    pub fn new(morale: u8, pins: u32, immobilised: bool) -> Self {
        VehicleAfter {
            morale,
            pins,
            immobilised,
            down: false,
            stunned: false,
            fire_put_out: false,
            knocked_out: None,
        }
    }

    /// The On Fire check's number: 2d6 at or under morale less every pin now on it.
    pub fn check_target(&self) -> i32 {
        i32::from(self.morale) - i32::try_from(self.pins).unwrap_or(i32::MAX)
    }

    /// Applies one damage result. `check` is asked (with the target number) for the morale
    /// check of an On Fire result while the vehicle is still in the fight, and answers
    /// whether it passed.
    ///
    /// # Errors
    /// Whatever `check` returns.
    pub fn apply<E>(
        &mut self,
        effect: DamageEffect,
        check: impl FnOnce(i32) -> Result<bool, E>,
    ) -> Result<(), E> {
        if effect != DamageEffect::KnockedOut {
            self.pins = self.pins.saturating_add(1);
        }
        if self.knocked_out.is_some() {
            return Ok(());
        }
        match effect {
            DamageEffect::KnockedOut => self.knocked_out = Some(KnockOut::DamageResult),
            DamageEffect::Immobilised if self.immobilised => {
                self.knocked_out = Some(KnockOut::SecondImmobilised);
            }
            DamageEffect::Immobilised => self.immobilised = true,
            DamageEffect::CrewStunned => {
                self.stunned = true;
                self.down = true;
            }
            DamageEffect::OnFire => {
                if check(self.check_target())? {
                    self.fire_put_out = true;
                    self.down = true;
                } else {
                    self.knocked_out = Some(KnockOut::Abandoned);
                }
            }
        }
        Ok(())
    }

    /// The lasting effect, worst first.
    pub fn fate(&self) -> VehicleFate {
        match self.knocked_out {
            Some(cause) => VehicleFate::KnockedOut { cause },
            None if self.immobilised => VehicleFate::Immobilised,
            None if self.fire_put_out => VehicleFate::FirePutOut,
            None if self.stunned => VehicleFate::CrewStunned,
            None => VehicleFate::NoDamage,
        }
    }

    /// "immobilised, down, 3 pins" — the vehicle's state in words.
    pub fn words(&self) -> String {
        if let Some(cause) = self.knocked_out {
            return cause.words().to_string();
        }
        let mut parts = Vec::new();
        if self.immobilised {
            parts.push("immobilised".to_string());
        }
        if self.down {
            parts.push("halted (down)".to_string());
        }
        if parts.is_empty() {
            parts.push("still in the fight".to_string());
        }
        parts.push(crate::rules::words::amount(u64::from(self.pins), "pins"));
        parts.join(", ")
    }
}

/// How many of the 36 rolls of 2d6 come out at or under `target`.
pub fn check_passes(target: i32) -> u128 {
    match u32::try_from(target) {
        Ok(target) => d6().sum_of(2).map_or(0, |two| two.weight_at_most(&target)),
        Err(_) => 0,
    }
}

/// Exact odds of `start` after `results` damage results, each drawn from `per_result`.
///
/// A vehicle still in the fight at the k-th result has had k − 1 results that each added a
/// pin (any other would have knocked it out), so its k-th On Fire check is at a known number:
/// each step folds that check's pass and fail in, never the raw 2d6, which keeps the weights
/// small enough to count long attacks exactly.
///
/// # Errors
/// [`ResolveError::Dice`] when the weights outgrow exact counting.
pub fn after_results_odds(
    start: VehicleAfter,
    per_result: &Dist<DamageEffect>,
    results: u32,
) -> Result<Dist<VehicleAfter>, ResolveError> {
    let mut state = Dist::certain(start);
    for k in 1..=results {
        let pins = start.pins.saturating_add(k);
        let target = i32::from(start.morale) - i32::try_from(pins).unwrap_or(i32::MAX);
        let pass = check_passes(target);
        let step = Dist::from_weights(per_result.iter().flat_map(|(&effect, w)| {
            if effect == DamageEffect::OnFire {
                vec![
                    ((effect, true), w * pass),
                    ((effect, false), w * (36 - pass)),
                ]
            } else {
                vec![((effect, true), w * 36)]
            }
        }))?;
        let step = reduced(&step)?;
        state = reduced(&state.combine(&step, |vehicle, &(effect, passed)| {
            let mut next = *vehicle;
            let Ok(()) = next.apply::<Infallible>(effect, |t| {
                debug_assert_eq!(t, target, "the k-th check is at morale − (pins + k)");
                Ok(passed)
            });
            next
        })?)?;
    }
    Ok(state)
}

#[cfg(test)]
mod tests;
