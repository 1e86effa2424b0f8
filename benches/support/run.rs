//! How a benchmark binary was started: `cargo bench` measures at full size; `cargo test
//! --bench NAME` (or `cargo bench -- --test`) is criterion's test mode, each benchmark run
//! once to show it still runs (CI), at a size a debug build sets up in seconds.

/// Whether criterion runs in test mode, as criterion decides it: no `--bench`, or `--test`.
pub fn test_mode() -> bool {
    let args: Vec<String> = std::env::args().collect();
    !args.iter().any(|a| a == "--bench") || args.iter().any(|a| a == "--test")
}

/// `full` when measuring, `quick` in test mode.
// Each bench includes this file as its own module and uses what it needs of it.
#[allow(dead_code)]
pub fn size(full: usize, quick: usize) -> usize {
    if test_mode() { quick } else { full }
}
