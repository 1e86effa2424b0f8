//! The house defaults (RULINGS) Belle Epoque resolution rests on, in the words the app shows
//! beside the values they produce, and which mechanic uses which.

use crate::rules::HouseDefault;

/// RULINGS "Command points".
pub const COMMAND_RULING: HouseDefault = HouseDefault {
    value: "command_dice",
    ruling: "One die per started 8 stands (ceil(stands / 8)); d4 mediocre, d6 average, d8 superior general.",
};

/// RULINGS "Fire table".
pub const FIRE_RULING: HouseDefault = HouseDefault {
    value: "to_hit",
    ruling: "To-hit at 1/2/3/4 UD, moving in brackets: A 5(3) 4(2) 3(1) 2 · B 5(3) 4(1) 2 1 · C 4(2) 3 1 – · D 3(1) 2 2 1 · E 3 2 1 – · F 2 1 1 – · G 1 – – –; a 6 never hits.",
};

/// RULINGS "Assault".
pub const ASSAULT_RULING: HouseDefault = HouseDefault {
    value: "attacker_losses",
    ruling: "Each side sums its successful dice; the loser loses the difference in stands, a tie costs both one; even losses become 1 UD fall backs unless stubborn, fortified or unable to fall back.",
};

/// RULINGS "Visibility".
pub const VISIBILITY_RULING: HouseDefault = HouseDefault {
    value: "range",
    ruling: "Line of sight is 4 UD, 1 UD less for each of: the target has neither moved nor fired (or has not moved and carries smokeless-powder rifles), is in cover, is in loose order; none for a conspicuous target. Beyond it the unit cannot fire.",
};

/// The house defaults command points' odds and rolls rest on (their JSON `house_defaults`).
pub const COMMAND_POINTS: &[HouseDefault] = &[COMMAND_RULING];
/// … a reactivity test's (none).
pub const REACTIVITY: &[HouseDefault] = &[];
/// … fire's.
pub const FIRE: &[HouseDefault] = &[FIRE_RULING, VISIBILITY_RULING];
/// … an assault's.
pub const ASSAULT: &[HouseDefault] = &[ASSAULT_RULING];
