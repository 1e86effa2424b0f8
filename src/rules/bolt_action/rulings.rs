//! The house defaults (RULINGS) Bolt Action resolution rests on, in the words the app shows
//! beside the values they produce, and which mechanic uses which.

use crate::rules::HouseDefault;

/// RULINGS "Bolt Action": the order test's numbers and the FUBAR chart.
pub const ORDER_RULING: HouseDefault = HouseDefault {
    value: "target",
    ruling: "2d6 ≤ morale (Inexperienced 8, Regular 9, Veteran 10) − 1 per pin + officer bonus (2nd Lt +1 … Major +4); double six is FUBAR (d6: 1–2 Friendly Fire, 3–6 Panic).",
};

/// RULINGS "Bolt Action": a modified need beyond 6.
pub const SEVEN_PLUS_RULING: HouseDefault = HouseDefault {
    value: "need",
    ruling: "A modified to-hit need of 7+ means a 6 followed by a 4+, 8+ a 6 then a 5+, 9+ a 6 then a 6; 10+ cannot hit; a natural 1 always misses.",
};

/// RULINGS "Bolt Action": the HE chart and how HE hits count.
pub const HE_RULING: HouseDefault = HouseDefault {
    value: "high_explosive",
    ruling: "HE chart: D2 +1 pen / 1 pin, D3 +1/1, D6 +2/D2, 2D6 +3/D3, 3D6 +4/D6; each hit on a non-armoured target becomes the HE value's number of hits, and a unit hit takes the chart's pins instead of one.",
};

/// RULINGS "Bolt Action": damage results on armoured targets.
pub const DAMAGE_RESULTS_RULING: HouseDefault = HouseDefault {
    value: "vehicle_result",
    ruling: "Weapons with no PEN roll Superficial Damage (d6−3), others Full Damage (d6); open-topped hit by indirect fire +1; Massive Damage (two results) is marked by the user.",
};

/// RULINGS "Damage results on vehicles": pins, the second Immobilised and the On Fire check.
pub const VEHICLE_RESULTS_RULING: HouseDefault = HouseDefault {
    value: "p_knocked_out",
    ruling: "Results apply in the order rolled: Crew Stunned, Immobilised and On Fire each add a pin beside the hit's own; a second Immobilised knocks the vehicle out; On Fire is a morale check, 2d6 ≤ morale − every pin now on it: failed, the crew abandon it (knocked out); passed, the fire is out (down).",
};

/// RULINGS "Close quarters": dice per model, the winner of a round, draws.
pub const CLOSE_QUARTERS_RULING: HouseDefault = HouseDefault {
    value: "result",
    ruling: "Each model rolls one die per round needing the other side's damage value; the attackers strike first, the defenders' survivors strike back; more casualties inflicted wins and the loser is destroyed; a side left with no model loses; equal casualties are a draw and the survivors fight another round, attackers first again.",
};

/// RULINGS "Infantry assaulting vehicles": the damage roll and its results.
pub const VEHICLE_ASSAULT_RULING: HouseDefault = HouseDefault {
    value: "result",
    ruling: "One damage roll, d6 + the number of hits, against the vehicle's damage value; a damaged soft-skin or open-topped vehicle is destroyed; an enclosed one rolls one result (full damage with anti-tank weapons, superficial without), its pin and On Fire check as for shooting; the assault itself puts no pin on it.",
};

/// RULINGS "Board battles": a unit fires as a whole under one Fire order; who carries which
/// weapon is the project's (the sheets print no units).
pub const UNIT_FIRE_RULING: HouseDefault = HouseDefault {
    value: "expected_hits",
    ruling: "A unit fires as a whole: every model its own weapon. The first weapon listed is the one most models carry; each further weapon is one model's, a Team weapon two (the loader fires nothing); casualties fall on the first weapon's models first. The unit's fire pins its target once (the HE chart's pins where more).",
};

/// RULINGS "Board battles": what pins an armoured target (the sheet is silent).
pub const ARMOUR_PINS_RULING: HouseDefault = HouseDefault {
    value: "pins",
    ruling: "A hit pins an armoured target only when its weapon could damage it (a PEN value, or HE); the damage results add their own pins.",
};

/// The house defaults an order test's odds and rolls rest on (their JSON `house_defaults`).
pub const ORDER_TEST: &[HouseDefault] = &[ORDER_RULING];
/// … a shooting attack's (each answer lists those it uses).
pub const SHOOTING: &[HouseDefault] = &[
    SEVEN_PLUS_RULING,
    HE_RULING,
    DAMAGE_RESULTS_RULING,
    VEHICLE_RESULTS_RULING,
    UNIT_FIRE_RULING,
    ARMOUR_PINS_RULING,
];
/// … close quarters between infantry.
pub const CLOSE_QUARTERS: &[HouseDefault] = &[CLOSE_QUARTERS_RULING];
/// … an assault on a vehicle.
pub const VEHICLE_ASSAULT: &[HouseDefault] =
    &[ORDER_RULING, VEHICLE_ASSAULT_RULING, VEHICLE_RESULTS_RULING];
