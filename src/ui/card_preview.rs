//! The card as it will print, for the Library's card panel: laid out by the same code as the
//! PDF (one poker card on an A4 sheet) and cut out of its sheet, so what is seen is what the
//! cutting mat gets.

use crate::export::{self, CardOptions, Frame, Page};
use crate::rules::{Force, ForceUnit};

/// The laid-out sheet and where on it the card sits.
#[derive(Debug, Clone)]
pub struct CardPreview {
    pub page: Page,
    pub frame: Frame,
    /// What the layout had to leave out, in words.
    pub warnings: Vec<String>,
}

/// Lays out `unit` alone as a poker card.
pub fn preview(ruleset: crate::rules::RulesetId, unit: ForceUnit) -> Result<CardPreview, String> {
    let mut force = Force::new(ruleset, "Preview");
    force.units.push(unit);
    let options = CardOptions::default();
    let layout = export::layout_cards(&force, &options, &mut export::no_progress)
        .map_err(|e| e.to_string())?;
    let grid = export::grid_for(&options).map_err(|e| e.to_string())?;
    let page = layout
        .pages
        .into_iter()
        .next()
        .ok_or_else(|| "nothing was laid out".to_string())?;
    Ok(CardPreview {
        page,
        frame: grid.frame(0),
        warnings: layout.warnings,
    })
}
