//! Fonts for the window. egui's built-in font lacks the inch mark ″ (every range band uses it)
//! and symbols such as ✓ ✗, so DejaVu Sans — the face the PDFs embed — is added as a fallback
//! behind the default face, and registered under its own names for the print preview.

use std::sync::Arc;

use crate::export::{FontStyle, font_bytes};

/// Font family names the print preview draws with, so it measures like the PDF.
pub const PRINT_REGULAR: &str = "print-regular";
pub const PRINT_BOLD: &str = "print-bold";
pub const PRINT_CONDENSED_BOLD: &str = "print-condensed-bold";

/// Adds DejaVu Sans as the fallback of every family and as the print preview's faces.
pub fn install(ctx: &egui::Context) {
    let mut fonts = egui::FontDefinitions::default();
    for (name, style) in [
        (PRINT_REGULAR, FontStyle::Regular),
        (PRINT_BOLD, FontStyle::Bold),
        (PRINT_CONDENSED_BOLD, FontStyle::CondensedBold),
    ] {
        fonts.font_data.insert(
            name.to_string(),
            Arc::new(egui::FontData::from_static(font_bytes(style))),
        );
        fonts
            .families
            .insert(egui::FontFamily::Name(name.into()), vec![name.to_string()]);
    }
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        fonts
            .families
            .entry(family)
            .or_default()
            .push(PRINT_REGULAR.to_string());
    }
    ctx.set_fonts(fonts);
}
