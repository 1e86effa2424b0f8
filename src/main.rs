//! The `quartermaster` binary: the window when run bare, the command line otherwise.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};
use quartermaster::cli::{self, Cli, EXIT_BAD_INPUT};
use quartermaster::crash;

fn main() -> ExitCode {
    let started = std::time::Instant::now();
    let matches = Cli::command().get_matches();
    let args = match Cli::from_arg_matches(&matches) {
        Ok(args) => args,
        Err(error) => error.exit(),
    };
    // The hook goes in before anything else can fail, so any bug leaves a report behind.
    let data_dir = args
        .data_dir
        .clone()
        .or_else(|| quartermaster::store::default_data_dir().ok());
    let front = if args.command.is_some() {
        "command line"
    } else {
        "window"
    };
    crash::install(data_dir, front);
    let mut names = Vec::new();
    let mut level = &matches;
    while let Some((name, sub)) = level.subcommand() {
        names.push(name);
        level = sub;
    }
    if !names.is_empty() {
        crash::note(format!("command: {}", names.join(" ")));
    }
    if args.crash_test {
        panic!("a deliberate panic (--crash-test) to check the crash report");
    }
    match args.command {
        Some(command) => {
            let code = cli::run(
                command,
                args.data_dir.as_deref(),
                &mut std::io::stdout(),
                &mut std::io::stderr(),
            );
            ExitCode::from(code)
        }
        None => match quartermaster::ui::run(quartermaster::ui::Launch {
            frames: args.frames,
            data_dir: args.data_dir,
            frame_log: args.frame_log,
            widget_log: args.widget_log,
            started: Some(started),
        }) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("error: {}", cli::terminal::error_line(&error));
                ExitCode::from(EXIT_BAD_INPUT)
            }
        },
    }
}
