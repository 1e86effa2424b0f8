//! The window's icons: glyphs of DejaVu Sans, the face the window and the PDFs already carry
//! (egui's own face has none of these), so no icon font is shipped and every icon scales with
//! the type. One meaning, one glyph: a view never picks a symbol of its own. The test below
//! holds every one to the fonts installed, since a missing glyph is a blank box.

/// Legal, done, passed.
pub const OK: &str = "✔";
/// Worth a look.
pub const WARNING: &str = "⚠";
/// Wrong, illegal, over.
pub const DANGER: &str = "✖";
/// A hint or a neutral fact.
pub const INFO: &str = "ℹ";
/// A force: its units, budget and legality.
pub const FORCE: &str = "⚔";
/// A campaign of battles.
pub const CAMPAIGN: &str = "⚑";
/// Working out a shot or a test: odds and dice.
pub const DICE: &str = "⚄";
/// A card of the library.
pub const CARD: &str = "▤";
/// A club's league table.
pub const LEAGUE: &str = "♛";
/// Light theme.
pub const LIGHT: &str = "☀";
/// Dark theme.
pub const DARK: &str = "☾";

/// A correction by hand.
pub const EDIT: &str = "✎";

/// Every icon, for the test that the fonts draw them.
pub const ALL: [&str; 12] = [
    OK, WARNING, DANGER, INFO, FORCE, CAMPAIGN, DICE, CARD, LEAGUE, LIGHT, DARK, EDIT,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_icon_has_a_glyph_in_the_windows_fonts() {
        let ctx = egui::Context::default();
        crate::ui::fonts::install(&ctx);
        // Fonts set now are loaded at the start of the next pass.
        let mut output = ctx.run_ui(egui::RawInput::default(), |_| {});
        // No renderer takes the font atlas here.
        output.textures_delta.clear();
        let font = egui::FontId::proportional(14.0);
        let missing: Vec<&str> = ALL
            .into_iter()
            .filter(|icon| !ctx.fonts_mut(|f| f.has_glyphs(&font, icon)))
            .collect();
        assert!(missing.is_empty(), "no glyph for {missing:?}");
    }
}
