//! Fonts for the window. egui's built-in font lacks the inch mark ″ (every range band uses it)
//! and symbols such as ✓ ✗, so the bundled DejaVu Sans (the same file the PDFs embed) is added
//! as a fallback behind the default face.

use std::sync::Arc;

const DEJAVU_SANS: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
const NAME: &str = "DejaVuSans";

/// Adds DejaVu Sans as the fallback of every font family.
pub fn install(ctx: &egui::Context) {
    let mut fonts = egui::FontDefinitions::default();
    fonts.font_data.insert(
        NAME.to_string(),
        Arc::new(egui::FontData::from_static(DEJAVU_SANS)),
    );
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        fonts
            .families
            .entry(family)
            .or_default()
            .push(NAME.to_string());
    }
    ctx.set_fonts(fonts);
}
