//! The window's icons: glyphs of the fonts it already carries (egui's emoji and icon faces,
//! DejaVu Sans behind them), so no icon font is shipped and every icon scales with the type.
//! One meaning, one glyph: a view never picks a symbol of its own.

/// Legal, done, passed.
pub const OK: &str = "✔";
/// Worth a look.
pub const WARNING: &str = "⚠";
/// Wrong, illegal, over.
pub const DANGER: &str = "✖";
/// A hint or a neutral fact.
pub const INFO: &str = "ℹ";
/// A force: its units, budget and legality.
pub const FORCE: &str = "⛭";
/// A campaign of battles.
pub const CAMPAIGN: &str = "⚑";
/// Working out a shot or a test: odds and dice.
pub const DICE: &str = "🎲";
/// Printing cards and rosters.
pub const PRINT: &str = "🖶";
/// A folder on disk.
pub const FOLDER: &str = "🗁";
/// Add something new.
pub const ADD: &str = "➕";
/// Light theme.
pub const LIGHT: &str = "☀";
/// Dark theme.
pub const DARK: &str = "🌙";
/// Table mode: large type for the end of the table.
pub const TABLE: &str = "🔍";
