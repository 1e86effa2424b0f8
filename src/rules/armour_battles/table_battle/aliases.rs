//! The Lorraine tracker's `campaign record` subcommands, kept for the scripts written before
//! every action was an `act`: each stands for the action it always recorded, its flags the
//! ones it always had (the fire and rally situations spelt as `odds armour-battles` spells
//! them).

use super::super::battle::actions::{key, param};
use crate::rules::battle::alias::{ActAlias, AliasFlag, MechanicFlags};

const SIDE: (&str, AliasFlag) = ("side", AliasFlag::Side);

/// The fire mechanic's situation flags, its cards named by the alias's own unit flags.
const FIRE: MechanicFlags = MechanicFlags {
    key: "fire",
    without: &["attacker", "battery", "target"],
    situation: &[],
};

/// Every alias, in the order `campaign record --help` lists them.
pub const ALIASES: &[ActAlias] = &[
    ActAlias::new(
        "command",
        key::ROLL_COMMAND,
        "Roll both sides' command dice for the next turn (act roll_command).",
    )
    .rolls(),
    ActAlias::new(
        "chain",
        key::USE_CHAIN,
        "Use dice of a chain in the side's Command Pulse; face 6: its wild dice as a chain (act use_chain).",
    )
    .flags(&[
        SIDE,
        ("face", AliasFlag::Param(param::FACE)),
        ("dice", AliasFlag::Param(param::DICE)),
        ("on", AliasFlag::Param(param::ON)),
    ])
    .refusing(&[(
        "on",
        "commit-reserves",
        "commit the company with `commit --company NAME`, which spends the chain's die",
    )]),
    ActAlias::new(
        "wild",
        key::USE_WILD,
        "Spend wild dice outside a chain (act use_wild).",
    )
    .flags(&[
        SIDE,
        ("dice", AliasFlag::Param(param::DICE)),
        ("on", AliasFlag::Param(param::ON)),
    ]),
    ActAlias::new(
        "staff-order",
        key::USE_STAFF_ORDER,
        "Spend one Staff Order (act use_staff_order).",
    )
    .flags(&[SIDE, ("purpose", AliasFlag::Text)]),
    ActAlias::new(
        "fire",
        key::FIRE,
        "Direct (or, with --opportunity, opportunity) fire by one unit at another (act fire).",
    )
    .flags(&[("attacker", AliasFlag::Unit), ("target", AliasFlag::Target)])
    .mechanic(FIRE)
    .rolls(),
    ActAlias::new(
        "artillery",
        key::CALL_ARTILLERY,
        "Call a fire mission with a Staff Order, rolling its response check (act call_artillery).",
    )
    .flags(&[("battery", AliasFlag::Unit)])
    .rolls(),
    ActAlias::new(
        "artillery-fire",
        key::ARTILLERY_FIRE,
        "A battery's fire for effect on one unit under the burst (act artillery_fire).",
    )
    .flags(&[("battery", AliasFlag::Unit), ("target", AliasFlag::Target)])
    .mechanic(MechanicFlags {
        situation: &[("kind", "artillery")],
        ..FIRE
    })
    .rolls(),
    ActAlias::new(
        "rally",
        key::RALLY,
        "Rally a unit with its side's Rally Dice (act rally).",
    )
    .flags(&[("unit", AliasFlag::Unit)])
    .mechanic(MechanicFlags {
        key: "rally",
        without: &["unit"],
        situation: &[],
    })
    .rolls(),
    ActAlias::new(
        "commit",
        key::COMMIT_RESERVES,
        "Commit a reserve company with one die of a chain, from its briefing's turn (act commit_reserves).",
    )
    .flags(&[
        ("company", AliasFlag::Group),
        ("chain", AliasFlag::Param(param::FACE)),
    ]),
    ActAlias::new("reveal", key::REVEAL, "Place a hidden unit on the table (act reveal).")
        .flags(&[("unit", AliasFlag::Unit)]),
    ActAlias::new(
        "disperse",
        key::DISPERSE,
        "A unit removed by something the tracker did not resolve; its side rolls 1D3 Army Morale (act disperse).",
    )
    .flags(&[("unit", AliasFlag::Unit)])
    .rolls(),
    ActAlias::new(
        "reliability",
        key::CHECK_RELIABILITY,
        "A Poor Reliability check on a double or triple move (act check_reliability).",
    )
    .flags(&[
        ("unit", AliasFlag::Unit),
        ("move", AliasFlag::Param(param::MOVE)),
    ])
    .rolls(),
    ActAlias::new(
        "repair",
        key::REPAIR,
        "Repair a broken-down unit with a command die, or with --staff-order a Staff Order (act repair).",
    )
    .flags(&[
        ("unit", AliasFlag::Unit),
        ("staff-order", AliasFlag::Param(param::STAFF_ORDER)),
    ]),
    ActAlias::new(
        "maintain",
        key::MAINTAIN_MISSION,
        "Keep a mission a Command Failure cancelled, for a Staff Order (act maintain_mission).",
    )
    .flags(&[("battery", AliasFlag::Unit)]),
    ActAlias::new(
        "cancel-mission",
        key::CANCEL_MISSION,
        "Call off a battery's mission (act cancel_mission).",
    )
    .flags(&[("battery", AliasFlag::Unit)]),
    ActAlias::new(
        "mission-done",
        key::MISSION_DONE,
        "A battery's mission has fired for effect and is over (act mission_done).",
    )
    .flags(&[("battery", AliasFlag::Unit)]),
    ActAlias::new(
        "end-turn",
        key::END_TURN,
        "End the turn once its chains are spent, or before (act end_turn).",
    ),
];
