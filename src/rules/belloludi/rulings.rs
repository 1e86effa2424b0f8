//! The house defaults (RULINGS) BelloLudi Tanks! resolution rests on, in the words the app shows
//! beside the values they produce, and which mechanic uses which.

use crate::rules::HouseDefault;

/// RULINGS "Shooting": all dice hit throws the target into disorder.
pub const DISORDER_RULING: HouseDefault = HouseDefault {
    value: "p_disorder",
    ruling: "When every damage die of a hit shows 1 or more (no 0; a B destroys anyway), the target is disordered: it shoots at −1 until it rallies.",
};

/// RULINGS "Commander die": the d20 reading.
pub const COMMANDER_DIE_RULING: HouseDefault = HouseDefault {
    value: "commander_die",
    ruling: "The commander die is read from a d20: B 1/20, 0 4/20, 1 5/20, 2 5/20, 3 5/20.",
};

/// RULINGS "Shooting".
pub const SHOOTING_RULING: HouseDefault = HouseDefault {
    value: "need",
    ruling: "Hit on d6 ≥ 4 after modifiers (+1 within 8″; −1 shooter disordered or shaken; −1 target not clear / in cover; −1 target in open order); a natural 1 always misses, a natural 6 always hits. Damage = sum of the commander dice; any B is a bullseye and destroys the target.",
};

/// RULINGS "State".
pub const STATE_RULING: HouseDefault = HouseDefault {
    value: "state_after",
    ruling: "Shaken when remaining armour < half the original; broken when remaining armour ≤ 25% of the original; destroyed at 0.",
};

/// The house defaults the commander die's odds and rolls rest on (their `house_defaults`).
pub const COMMAND: &[HouseDefault] = &[COMMANDER_DIE_RULING];
/// … a shot's.
pub const SHOOTING: &[HouseDefault] = &[
    SHOOTING_RULING,
    COMMANDER_DIE_RULING,
    DISORDER_RULING,
    STATE_RULING,
];
/// … a crash's.
pub const CRASH: &[HouseDefault] = &[COMMANDER_DIE_RULING, STATE_RULING];
