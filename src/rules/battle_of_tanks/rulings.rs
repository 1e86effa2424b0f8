//! The house defaults (RULINGS) Battle of Tanks resolution rests on, in the words the app shows
//! beside the values they produce, and which mechanic uses which.

use crate::rules::HouseDefault;

/// RULINGS "Penetration die faces".
pub const PENETRATION_RULING: HouseDefault = HouseDefault {
    value: "damage",
    ruling: "The penetration die (not given in the text): 2 blank, 1 K (tracks), 1 T (turret), 2 W (hull); hull-down targets and hull-to-hull shots count only T.",
};

/// RULINGS "To hit".
pub const TO_HIT_RULING: HouseDefault = HouseDefault {
    value: "need",
    ruling: "d6 ≥ accuracy + modifiers: +1 firing on the move, +1 light cover, +2 heavy cover, −1 ambush; a 1 always misses.",
};

/// RULINGS "Spotting".
pub const SPOTTING_RULING: HouseDefault = HouseDefault {
    value: "p_spotted",
    ruling: "As printed: open ground automatic; light cover adds +2, heavy cover +1 to the spotting value (the text probably swapped them).",
};

/// RULINGS "Moving target".
pub const MOVING_TARGET_RULING: HouseDefault = HouseDefault {
    value: "target_moving",
    ruling: "Each moving tank adds +1 to hit: the firer on the move (Angriff) and a target that moved this turn, so +2 when both did; ambush fire comes from a tank that is not moving.",
};

/// The house defaults fire's odds and rolls rest on (their JSON `house_defaults`).
pub const FIRE: &[HouseDefault] = &[PENETRATION_RULING, TO_HIT_RULING, MOVING_TARGET_RULING];
/// … track repair's (none).
pub const REPAIR: &[HouseDefault] = &[];
/// … spotting's.
pub const SPOTTING: &[HouseDefault] = &[SPOTTING_RULING];
