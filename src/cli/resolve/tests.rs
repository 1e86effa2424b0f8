//! The flags built from the input descriptions, checked over the whole registry: no two
//! mechanics read one flag differently, every flag says what it is, every mechanic can be
//! picked, and the flags scripts used before the command line was built from the specs
//! still work.

use std::collections::BTreeSet;

use clap::Command;

use super::*;
use crate::rules::resolution::mechanics;

fn rulesets() -> impl Iterator<Item = RulesetId> {
    all_rulesets().map(|r| r.id())
}

/// Parses `odds RULESET ARGS…` with the built command.
fn parse(id: RulesetId, args: &[&str]) -> Result<ArgMatches, clap::Error> {
    let argv = std::iter::once(id.as_str()).chain(args.iter().copied());
    ruleset_command(id, false).try_get_matches_from(argv)
}

#[test]
fn no_two_mechanics_spell_one_flag_differently_and_none_takes_a_reserved_name() {
    for id in rulesets() {
        let flags = ruleset_flags(id);
        assert_eq!(flags.conflicts(), &[] as &[String], "{id}");
        assert!(!flags.names().is_empty(), "{id}");
        for reserved in flags::RESERVED {
            assert!(!flags.names().contains(reserved), "{id}: --{reserved}");
        }
        // clap itself refuses duplicate or malformed arguments when asked.
        ruleset_command(id, true).debug_assert();
    }
}

/// Every argument of `command` and its subcommands, with the path to it.
fn walk(command: &Command, path: &str, out: &mut Vec<(String, String, bool)>) {
    for arg in command.get_arguments() {
        let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
        out.push((
            format!("{path} --{}", arg.get_id()),
            help,
            arg.is_hide_set(),
        ));
    }
    for sub in command.get_subcommands() {
        walk(sub, &format!("{path} {}", sub.get_name()), out);
    }
}

#[test]
fn every_flag_of_odds_and_roll_says_what_it_is() {
    let mut args = Vec::new();
    for roll in [false, true] {
        for id in rulesets() {
            let command = ruleset_command(id, roll);
            assert!(command.get_about().is_some(), "{id}");
            walk(&command, if roll { "roll" } else { "odds" }, &mut args);
        }
    }
    assert!(args.len() > 150, "{}", args.len());
    for (path, help, hidden) in args {
        assert!(
            hidden || help.trim().len() > 8,
            "{path} has no help: '{help}'"
        );
    }
}

#[test]
fn the_help_is_the_specs_own_words() {
    for m in mechanics() {
        let flags = ruleset_flags(m.ruleset);
        let command = ruleset_command(m.ruleset, false);
        for spec in (m.inputs)() {
            let name = spec.flag_name();
            let arg = command
                .get_arguments()
                .find(|a| a.get_id() == name.as_ref())
                .unwrap_or_else(|| panic!("{m:?}: no --{name} in {:?}", flags.names()));
            let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
            assert!(help.contains(spec.help), "{m:?} --{name}: '{help}'");
        }
    }
}

#[test]
fn every_mechanic_is_picked_by_the_flag_the_help_names_for_it() {
    for id in rulesets() {
        let flags = ruleset_flags(id);
        for m in ruleset(id).mechanics() {
            let flag = flags
                .picking_flag(m)
                .unwrap_or_else(|| panic!("{m:?}: no flag picks it"));
            let arg = ruleset_command(id, false)
                .get_arguments()
                .find(|a| a.get_id() == flag.as_str())
                .cloned()
                .unwrap_or_else(|| panic!("{m:?}: --{flag}"));
            let mut args = vec![format!("--{flag}")];
            if arg.get_action().takes_values() {
                let n = arg.get_num_args().map_or(1, |r| r.min_values().max(1));
                args.extend(std::iter::repeat_n("1".to_string(), n));
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let matches = parse(id, &args).unwrap_or_else(|e| panic!("{m:?} {args:?}: {e}"));
            let picked = flags
                .pick(&matches)
                .unwrap_or_else(|e| panic!("{m:?} {args:?}: {e}"));
            assert_eq!(picked, m, "{args:?}");
        }
    }
}

/// The flags each ruleset took before they were built from the specs (the README and
/// scripts use them), with their aliases.
const KEPT: [(RulesetId, &[&str]); 5] = [
    (
        RulesetId::ArmourBattles,
        &[
            "attacker",
            "artillery",
            "command-dice",
            "rally",
            "breakdown",
            "target",
            "range",
            "flank",
            "cover",
            "uphill",
            "move",
            "ambush",
            "evading",
            "opportunity",
            "target-suppressed",
            "target-disruption",
            "attacker-wild",
            "target-wild",
            "response-dice",
            "battle",
            "distance",
            "disruption",
            "no-los",
            "wild",
            "suppressed",
        ],
    ),
    (
        RulesetId::Belloludi,
        &[
            "command",
            "crash",
            "shooter",
            "target",
            "target-armour",
            "shooter-armour",
            "close",
            "shooter-shaken",
            "shooter-disordered",
            "target-cover",
            "target-open-order",
        ],
    ),
    (
        RulesetId::BattleOfTanks,
        &[
            "repair",
            "spotting",
            "attacker",
            "tank",
            "target",
            "shots",
            "range",
            "hit-points",
            "moving",
            "ambush",
            "target-moving",
            "light-cover",
            "heavy-cover",
            "hull-down",
            "hull-to-hull",
        ],
    ),
    (
        RulesetId::BoltAction,
        &[
            "order-test",
            "unit",
            "shooter",
            "quality",
            "officer",
            "pins",
            "weapon",
            "firers",
            "he",
            "point-blank",
            "long-range",
            "inexperienced",
            "moving",
            "target-down",
            "small-unit",
            "soft-cover",
            "hard-cover",
            "target",
            "damage-value",
            "armoured",
            "open-topped",
            "side",
            "top",
            "rear",
            "massive-damage",
            "indirect",
            "immobilised",
        ],
    ),
    (
        RulesetId::BelleEpoque,
        &[
            "command-points",
            "reactivity",
            "fire",
            "assault",
            "stands",
            "general",
            "unit",
            "basic-score",
            "cps",
            "troop-type",
            "range",
            "moving",
            "uphill",
            "target",
            "target-order",
            "target-cavalry",
            "target-terrain",
            "conspicuous",
            "target-unrevealed",
            "target-stands",
            "attacker",
            "attacker-stands",
            "attacker-level",
            "attacker-dashing",
            "attacker-stubborn",
            "attacker-cavalry",
            "attacker-extra-assaults",
            "attacker-cannot-fall-back",
            "defender",
            "defender-stands",
            "defender-level",
            "defender-stubborn",
            "defender-cavalry",
            "defender-extra-assaults",
            "defender-cannot-fall-back",
            "position",
            "cover-or-rough",
        ],
    ),
];

#[test]
fn the_flags_scripts_used_before_still_exist() {
    for (id, kept) in KEPT {
        let command = ruleset_command(id, false);
        let known: BTreeSet<String> = command
            .get_arguments()
            .flat_map(|a| {
                let mut names: Vec<String> = a.get_long().into_iter().map(str::to_string).collect();
                names.extend(
                    a.get_all_aliases()
                        .into_iter()
                        .flatten()
                        .map(str::to_string),
                );
                names
            })
            .collect();
        for flag in kept {
            assert!(known.contains(*flag), "{id}: --{flag} is gone");
        }
    }
}

#[test]
fn one_mechanics_flags_are_the_ones_it_has_in_its_rulesets_command() {
    // What a command that takes one mechanic's situation (campaign record … fire) offers.
    for m in mechanics() {
        let own = FlagSet::of([m]).names();
        let all = ruleset_flags(m.ruleset).names();
        assert!(own.is_subset(&all), "{m:?}: {:?}", own.difference(&all));
        let without = FlagSet::of([m]).without_inputs(&["target"]).names();
        assert!(
            !without.contains("target") || !own.contains("target"),
            "{m:?}"
        );
    }
}

#[test]
fn flags_that_do_not_fit_one_mechanic_say_where_they_belong() {
    let err = |id, args: &[&str]| {
        let matches = parse(id, args).unwrap();
        ruleset_flags(id).pick(&matches).unwrap_err().to_string()
    };
    let why = err(
        RulesetId::ArmourBattles,
        &["--attacker", "Tiger", "--distance", "5"],
    );
    assert_eq!(
        why,
        "--distance (it belongs to rally) does not apply to fire"
    );
    let why = err(
        RulesetId::Belloludi,
        &["--shooter", "A", "--shooter-armour", "2"],
    );
    assert!(why.contains("crash (--crash)"), "{why}");
    let why = err(RulesetId::BelleEpoque, &[]);
    assert!(
        why.starts_with("say what to resolve: --command-points"),
        "{why}"
    );
    let why = err(RulesetId::ArmourBattles, &["--move", "double"]);
    assert!(
        why.contains("--attacker (fire)") && why.contains("--breakdown (breakdown)"),
        "{why}"
    );
    let why = err(RulesetId::BattleOfTanks, &["--repair", "--spotting"]);
    assert_eq!(why, "--repair, --spotting: give one");
}
