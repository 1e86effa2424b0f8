//! The command line describes itself: every subcommand, option and argument in clap's whole
//! command tree says what it is in `--help`, and the top-level help says what running the
//! program bare does.

use clap::CommandFactory;
use quartermaster::cli::Cli;

/// Every argument (option, flag or positional) of `command` and its subcommands, by path,
/// that has no help text. Hidden arguments and clap's own `--help`/`--version` are skipped.
fn undescribed(command: &clap::Command, path: &str, found: &mut Vec<String>) {
    for arg in command.get_arguments() {
        let id = arg.get_id().as_str();
        if arg.is_hide_set() || id == "help" || id == "version" {
            continue;
        }
        let described = arg
            .get_help()
            .or(arg.get_long_help())
            .is_some_and(|h| !h.to_string().trim().is_empty());
        if !described {
            found.push(format!("{path} {id}"));
        }
    }
    for sub in command.get_subcommands() {
        if sub.is_hide_set() || sub.get_name() == "help" {
            continue;
        }
        let sub_path = format!("{path} {}", sub.get_name());
        if sub.get_about().is_none() {
            found.push(format!("{sub_path} (the command itself)"));
        }
        undescribed(sub, &sub_path, found);
    }
}

#[test]
fn every_command_option_and_argument_has_a_description() {
    let mut found = Vec::new();
    undescribed(&Cli::command(), "quartermaster", &mut found);
    assert!(
        found.is_empty(),
        "{} without a description:\n{}",
        found.len(),
        found.join("\n")
    );
}
