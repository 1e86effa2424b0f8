//! The `quartermaster` binary: the window when run bare, the command line otherwise.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::Parser;
use quartermaster::cli::{self, Cli, EXIT_BAD_INPUT};

fn main() -> ExitCode {
    let started = std::time::Instant::now();
    let args = Cli::parse();
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
            started: Some(started),
        }) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("error: {error:#}");
                ExitCode::from(EXIT_BAD_INPUT)
            }
        },
    }
}
