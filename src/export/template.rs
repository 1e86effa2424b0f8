//! Layouts as data: page and card sizes, card templates per ruleset, roster and reference
//! sheet styles — all JSON under `templates/`, embedded at build time (each ruleset embeds
//! its own card template: [`Ruleset::card_template`](crate::rules::Ruleset::card_template)).
//!
//! Changing a size, a colour, a font size or which statistic sits where is an edit to a
//! template file; the layout code reads these structs and nothing else.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Deserialize;

use super::ExportError;
use super::display::Rgb;
use super::fonts::FontStyle;
use crate::rules::{RulesetId, all_rulesets};

const PAGE_SIZES: (&str, &str) = (
    "templates/page-sizes.json",
    include_str!("../../templates/page-sizes.json"),
);
const CARD_SIZES: (&str, &str) = (
    "templates/card-sizes.json",
    include_str!("../../templates/card-sizes.json"),
);
const SHEETS: (&str, &str) = (
    "templates/sheets.json",
    include_str!("../../templates/sheets.json"),
);
/// A paper size.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageSize {
    /// Id used on the command line (`a4`, `letter`).
    pub id: String,
    pub label: String,
    pub width_mm: f32,
    pub height_mm: f32,
}

/// A playing-card size.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardSize {
    /// Id used on the command line (`poker`, `bridge`, `tarot`).
    pub id: String,
    pub label: String,
    pub width_mm: f32,
    pub height_mm: f32,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct PageSizesFile {
    default: String,
    sizes: Vec<PageSize>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct CardSizesFile {
    default: String,
    sizes: Vec<CardSize>,
    sheet: SheetStyle,
}

/// How cards are set out on a page.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SheetStyle {
    /// Least distance from the page edge to anything printed (printers cannot print to the
    /// edge, and many not within 5 mm of it).
    pub min_margin_mm: f32,
    /// Default space between neighbouring cards; 0 lets neighbours share a cut.
    pub gap_mm: f32,
    /// How far header bands and card backs run past the cut, so a cut or a duplex shift of
    /// a millimetre shows no sliver of white or of colour.
    pub bleed_mm: f32,
    /// Length of a crop mark.
    pub crop_mark_mm: f32,
    /// Gap between a card's corner and its crop marks.
    pub crop_mark_offset_mm: f32,
    pub crop_mark_width_pt: f32,
    pub crop_mark_color: Rgb,
}

/// The colours of a card.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardColors {
    /// Header band and frame.
    pub accent: Rgb,
    /// Text on the header band.
    pub on_accent: Rgb,
    pub text: Rgb,
    /// Statistic labels and small print.
    pub label: Rgb,
    /// Hairlines between rows.
    pub rule: Rgb,
    /// Background of the notes panel.
    pub panel: Rgb,
}

/// The unit's name across the header band.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TitleStyle {
    /// The face (card titles are set in DejaVu Sans Condensed Bold, as on bought cards).
    pub face: FontStyle,
    pub size_pt: f32,
    /// Long names shrink down to this size, whatever the card's scale, and then take more
    /// lines: a name is never set smaller, nor cut.
    pub min_size_pt: f32,
    /// Lines a name may take before it is set smaller than `size_pt`'s fitted size.
    pub max_lines: usize,
}

/// The row of boxed statistics under the header: the numbers a player looks up most, large,
/// each in a box under its label, as on a bought card.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxesStyle {
    /// Labels of the statistics boxed, left to right; a card without one leaves it out.
    pub stats: Vec<String>,
    /// Printed labels that differ from the statistic's own ("Type" → "Troop type").
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    pub label_size_pt: f32,
    pub value_size_pt: f32,
}

/// One side of a ruleset's battles (US, German; British, Zulu): the colour of its cards'
/// header band and backs, and its mark. A card belongs to the first side whose statistic
/// `stat` reads `value`, or that lists the card's name.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideStyle {
    pub name: String,
    #[serde(default)]
    pub stat: Option<String>,
    #[serde(default)]
    pub value: Option<String>,
    /// Cards of this side by name, for books whose cards carry no side.
    #[serde(default)]
    pub cards: Vec<String>,
    /// The header band, frame and back.
    pub band: Rgb,
    /// Text on the band; the template's `on_accent` when absent.
    #[serde(default)]
    pub on_band: Option<Rgb>,
    pub mark: Option<MarkStyle>,
}

impl SideStyle {
    /// True when the card `name` with statistics `stat` belongs to this side.
    pub fn holds(&self, name: &str, stat: impl Fn(&str) -> Option<String>) -> bool {
        let by_stat = match (&self.stat, &self.value) {
            (Some(label), Some(value)) => stat(label).is_some_and(|v| &v == value),
            _ => false,
        };
        by_stat || self.cards.iter().any(|c| c == name)
    }
}

/// A small vector mark: a national or regimental sign drawn in the card's corner.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarkStyle {
    pub shape: MarkShape,
    /// The shape's colours in its own order (see [`MarkShape`]).
    pub colors: Vec<Rgb>,
}

/// The marks a side may carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkShape {
    /// A five-pointed star: fill, then an optional outline.
    Star,
    /// A cross with broad arms: fill, then its edge.
    Cross,
    /// Three rings: outer, middle, centre.
    Roundel,
    /// The broad arrow of British government stores: one colour.
    BroadArrow,
    /// An oval hide shield on its stick: shield, then stick.
    Shield,
}

impl MarkShape {
    /// How many colours the shape takes: the least and the most.
    pub fn colors(self) -> (usize, usize) {
        match self {
            MarkShape::Star => (1, 2),
            MarkShape::Cross | MarkShape::Shield => (2, 2),
            MarkShape::Roundel => (3, 3),
            MarkShape::BroadArrow => (1, 1),
        }
    }
}

/// A line of statistic values under the title ("US · Medium AFV").
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubtitleStyle {
    /// Statistic labels whose values are shown; `$type` is the card's type.
    pub stats: Vec<String>,
    pub size_pt: f32,
}

/// The table of labelled statistics.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyStyle {
    /// Labels in display order; statistics the template does not name follow them, so a new
    /// statistic is never silently left off a card.
    pub stats: Vec<String>,
    /// Printed labels that differ from the statistic's own ("Range" → "Range S/E/L").
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    /// Values shown as a row of cells under small headers ("7/14/28″" under S, E, L).
    #[serde(default)]
    pub cells: BTreeMap<String, CellStyle>,
    /// Values that list several items separated by "; ", shown one item per line.
    #[serde(default)]
    pub lists: Vec<String>,
    pub label_size_pt: f32,
    pub value_size_pt: f32,
    /// Share of the card's inner width given to the label column.
    pub label_width: f32,
}

/// How a value splits into cells.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellStyle {
    pub separator: String,
    pub headers: Vec<String>,
    /// Put the label on its own line and spread the cells across the whole card.
    #[serde(default)]
    pub full_width: bool,
    /// Another statistic split the same way, set on a second line of the same cells under
    /// its own label (Armour Battles: the target number under each range band).
    #[serde(default)]
    pub under: Option<String>,
}

/// A row of tick boxes (or a write-in line) for tracking damage on the table.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrackerStyle {
    pub label: String,
    /// Number of boxes taken from the leading number of this statistic ("Cohesion" → 3).
    #[serde(default)]
    pub boxes_from: Option<String>,
    /// A fixed number of boxes.
    #[serde(default)]
    pub boxes: Option<u32>,
    /// Draw a line to write on instead of boxes (for large values such as hit points).
    #[serde(default)]
    pub write_in: bool,
}

/// Special rules or traits, each with its explanation.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotesStyle {
    /// The statistic these notes explain; it is shown here instead of as a table row.
    pub stat: String,
    pub size_pt: f32,
}

/// Small print along the bottom edge.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FooterStyle {
    pub stats: Vec<String>,
    pub size_pt: f32,
}

/// The back of a card, for duplex printing.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BackStyle {
    pub title: String,
    pub subtitle: String,
    pub size_pt: f32,
}

/// A unit's own odds table, printed on its card's back and, for a force, on its quick
/// reference: one of the ruleset's mechanics resolved with the unit in one of its inputs,
/// rows and columns varying two others, each cell a chance from the mechanic's own odds.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OddsStyle {
    /// What each cell is the chance of ("Chance of 1+ Disruption Points, front shot").
    pub title: String,
    /// The mechanic's key (`fire`).
    pub mechanic: String,
    /// The card input the unit fills (`attacker`).
    pub unit: String,
    /// Inputs held at a value other than their default (`{"damage_value": 4}`).
    #[serde(default)]
    pub set: BTreeMap<String, serde_json::Value>,
    pub rows: OddsAxis,
    /// One column of chances when absent.
    #[serde(default)]
    pub columns: Option<OddsAxis>,
    /// The headline values whose product is each cell; `key>=n` sums a row of chances from
    /// its `n`-th (Armour Battles' `disruption>=1`: at least one point).
    pub value: Vec<String>,
}

/// What a table's rows or columns run through: values of one input.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OddsAxis {
    /// The input varied.
    pub input: String,
    /// The header over the labels of this axis ("Target", "Weapon").
    pub label: String,
    /// Cards taken from the book or the unit; else `values`.
    #[serde(default)]
    pub cards: Option<OddsCards>,
    #[serde(default)]
    pub values: Vec<OddsPoint>,
}

/// Which cards an axis runs through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OddsCards {
    /// The book's cards of another side than the unit's (every other card when the unit or
    /// the book has no sides).
    Enemies,
    /// The unit's own weapons, by name.
    Weapons,
}

/// One value of an axis and its label.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OddsPoint {
    pub value: serde_json::Value,
    pub label: String,
}

/// One ruleset's card layout.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardTemplate {
    pub ruleset: RulesetId,
    pub colors: CardColors,
    pub padding_mm: f32,
    pub border_width_pt: f32,
    /// Fonts grow together up to this share of their size when a force's cards have room.
    pub max_scale: f32,
    /// Fonts shrink together down to this share of their size before text is cut.
    pub min_scale: f32,
    pub title: TitleStyle,
    pub subtitle: SubtitleStyle,
    /// Statistics boxed under the header; they are not repeated in the body.
    #[serde(default)]
    pub boxes: Option<BoxesStyle>,
    /// The sides a card may belong to; a card of none takes the template's colours.
    #[serde(default)]
    pub sides: Vec<SideStyle>,
    pub body: BodyStyle,
    /// What is tracked on the table (damage, a track hit), one row each, repeated for each
    /// unit a card stands for.
    #[serde(default)]
    pub trackers: Vec<TrackerStyle>,
    #[serde(default)]
    pub notes: Option<NotesStyle>,
    pub footer: FooterStyle,
    pub back: BackStyle,
    /// The unit's odds tables, tried in order: the first whose mechanic takes the unit
    /// (fire for a tank, an artillery mission for a battery).
    #[serde(default)]
    pub odds: Vec<OddsStyle>,
}

impl CardTemplate {
    /// Every statistic label the template places somewhere.
    pub fn named_stats(&self) -> Vec<&str> {
        // Every label the template places or reads.
        let mut names: Vec<&str> = self
            .subtitle
            .stats
            .iter()
            .chain(&self.body.stats)
            .chain(&self.footer.stats)
            .chain(self.body.labels.keys())
            .chain(self.body.cells.keys())
            .chain(&self.body.lists)
            .map(String::as_str)
            .filter(|name| !name.starts_with('$'))
            .collect();
        names.extend(self.notes.as_ref().map(|n| n.stat.as_str()));
        if let Some(boxes) = &self.boxes {
            names.extend(boxes.stats.iter().map(String::as_str));
            names.extend(boxes.labels.keys().map(String::as_str));
        }
        names.extend(self.sides.iter().filter_map(|s| s.stat.as_deref()));
        names.extend(self.body.cells.values().filter_map(|c| c.under.as_deref()));
        names.extend(self.trackers.iter().filter_map(|t| t.boxes_from.as_deref()));
        names
    }
}

/// Colours shared by the roster and reference sheets.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SheetColors {
    pub text: Rgb,
    pub muted: Rgb,
    pub rule: Rgb,
    pub band: Rgb,
    pub violation: Rgb,
    pub legal: Rgb,
    pub house_default: Rgb,
}

/// The force roster's layout.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RosterStyle {
    pub margin_mm: f32,
    pub title_size_pt: f32,
    pub heading_size_pt: f32,
    pub body_size_pt: f32,
    pub small_size_pt: f32,
    /// Side of a tick box.
    pub box_mm: f32,
}

/// The quick-reference sheet's layout.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReferenceStyle {
    pub margin_mm: f32,
    pub columns: usize,
    pub gutter_mm: f32,
    pub title_size_pt: f32,
    pub heading_size_pt: f32,
    pub body_size_pt: f32,
    pub table_size_pt: f32,
    /// The mark placed on values that are the project's reading rather than the book's.
    pub house_default_mark: String,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct SheetsFile {
    colors: SheetColors,
    footer_size_pt: f32,
    roster: RosterStyle,
    reference: ReferenceStyle,
}

/// Every template, parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct Templates {
    pub default_page: String,
    pub pages: Vec<PageSize>,
    pub default_card: String,
    pub cards: Vec<CardSize>,
    pub sheet: SheetStyle,
    pub card_templates: Vec<CardTemplate>,
    pub colors: SheetColors,
    pub footer_size_pt: f32,
    pub roster: RosterStyle,
    pub reference: ReferenceStyle,
}

impl Templates {
    /// The page size with id `id` (any case).
    pub fn page(&self, id: &str) -> Result<&PageSize, ExportError> {
        self.pages
            .iter()
            .find(|p| p.id.eq_ignore_ascii_case(id.trim()))
            .ok_or_else(|| ExportError::UnknownPageSize {
                given: id.to_string(),
                known: ids(self.pages.iter().map(|p| p.id.as_str())),
            })
    }

    /// The card size with id `id` (any case).
    pub fn card(&self, id: &str) -> Result<&CardSize, ExportError> {
        self.cards
            .iter()
            .find(|c| c.id.eq_ignore_ascii_case(id.trim()))
            .ok_or_else(|| ExportError::UnknownCardSize {
                given: id.to_string(),
                known: ids(self.cards.iter().map(|c| c.id.as_str())),
            })
    }

    /// The card layout of `ruleset`.
    pub fn card_template(&self, ruleset: RulesetId) -> Result<&CardTemplate, ExportError> {
        self.card_templates
            .iter()
            .find(|t| t.ruleset == ruleset)
            .ok_or(ExportError::MissingTemplate {
                what: "card template",
                ruleset,
            })
    }
}

fn ids<'a>(ids: impl Iterator<Item = &'a str>) -> String {
    ids.collect::<Vec<_>>().join(", ")
}

/// Parses one embedded JSON file, naming it and the failing field in the error.
pub(crate) fn parse_json<T: serde::de::DeserializeOwned>(
    (file, text): (&str, &str),
) -> Result<T, ExportError> {
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| ExportError::Template {
        file: file.to_string(),
        message: e.to_string(),
    })
}

fn invalid(file: &str, message: impl Into<String>) -> ExportError {
    ExportError::Template {
        file: file.to_string(),
        message: message.into(),
    }
}

fn load() -> Result<Templates, ExportError> {
    let pages: PageSizesFile = parse_json(PAGE_SIZES)?;
    let cards: CardSizesFile = parse_json(CARD_SIZES)?;
    let sheets: SheetsFile = parse_json(SHEETS)?;
    let mut card_templates = Vec::new();
    for ruleset in all_rulesets() {
        let file = ruleset.card_template();
        let template: CardTemplate = parse_json((file.path, file.text))?;
        check_card_template(file.path, &template)?;
        card_templates.push(template);
    }
    let templates = Templates {
        default_page: pages.default,
        pages: pages.sizes,
        default_card: cards.default,
        cards: cards.sizes,
        sheet: cards.sheet,
        card_templates,
        colors: sheets.colors,
        footer_size_pt: sheets.footer_size_pt,
        roster: sheets.roster,
        reference: sheets.reference,
    };
    templates
        .page(&templates.default_page)
        .map_err(|e| invalid(PAGE_SIZES.0, format!("default: {e}")))?;
    templates
        .card(&templates.default_card)
        .map_err(|e| invalid(CARD_SIZES.0, format!("default: {e}")))?;
    for size in templates.pages.iter().map(|p| (p.width_mm, p.height_mm)) {
        check_positive(PAGE_SIZES.0, size)?;
    }
    for size in templates.cards.iter().map(|c| (c.width_mm, c.height_mm)) {
        check_positive(CARD_SIZES.0, size)?;
    }
    Ok(templates)
}

fn check_positive(file: &str, (w, h): (f32, f32)) -> Result<(), ExportError> {
    if w > 0.0 && h > 0.0 {
        Ok(())
    } else {
        Err(invalid(file, format!("size {w}×{h} mm must be positive")))
    }
}

fn check_card_template(file: &str, t: &CardTemplate) -> Result<(), ExportError> {
    if !(0.2..=1.0).contains(&t.min_scale) || !(1.0..=2.0).contains(&t.max_scale) {
        return Err(invalid(
            file,
            format!(
                "min_scale {} must be in 0.2–1 and max_scale {} in 1–2",
                t.min_scale, t.max_scale
            ),
        ));
    }
    if !(0.1..=0.7).contains(&t.body.label_width) {
        return Err(invalid(
            file,
            format!("body.label_width {} is not in 0.1–0.7", t.body.label_width),
        ));
    }
    if t.title.min_size_pt > t.title.size_pt || t.title.max_lines == 0 {
        return Err(invalid(
            file,
            "title.min_size_pt must not exceed size_pt and max_lines must be at least 1",
        ));
    }
    if t.title.min_size_pt < MIN_TITLE_PT {
        return Err(invalid(
            file,
            format!(
                "title.min_size_pt {} is under the {MIN_TITLE_PT} pt floor of a card's name",
                t.title.min_size_pt
            ),
        ));
    }
    for side in &t.sides {
        if let Some(mark) = &side.mark {
            let (least, most) = mark.shape.colors();
            if !(least..=most).contains(&mark.colors.len()) {
                return Err(invalid(
                    file,
                    format!(
                        "side {}: a {:?} mark takes {least}–{most} colours, not {}",
                        side.name,
                        mark.shape,
                        mark.colors.len()
                    ),
                ));
            }
        }
        if side.stat.is_some() != side.value.is_some() {
            return Err(invalid(
                file,
                format!("side {}: give both stat and value, or neither", side.name),
            ));
        }
    }
    for tracker in &t.trackers {
        if tracker.boxes_from.is_some() == tracker.boxes.is_some() && !tracker.write_in {
            return Err(invalid(
                file,
                format!(
                    "tracker '{}' needs exactly one of boxes_from, boxes or write_in",
                    tracker.label
                ),
            ));
        }
    }
    super::reference::check_odds(t).map_err(|message| invalid(file, message))?;
    let expected = file.rsplit('/').next().unwrap_or(file);
    if expected != format!("{}.json", t.ruleset.as_str()) {
        return Err(invalid(
            file,
            format!("ruleset {} does not match the file name", t.ruleset),
        ));
    }
    Ok(())
}

/// The smallest size a card's name is set in: below it a name stops reading as a title.
pub const MIN_TITLE_PT: f32 = 10.0;

static TEMPLATES: LazyLock<Result<Templates, ExportError>> = LazyLock::new(load);

/// The embedded templates; an error names the broken file and field.
pub fn templates() -> Result<&'static Templates, ExportError> {
    TEMPLATES.as_ref().map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::registry;

    #[test]
    fn every_template_parses_and_every_ruleset_has_a_card_layout() {
        let t = templates().unwrap();
        for id in RulesetId::ALL {
            assert_eq!(t.card_template(id).unwrap().ruleset, id);
        }
    }

    #[test]
    fn the_issue_sizes_are_there_with_poker_and_a4_as_defaults() {
        let t = templates().unwrap();
        let size = |id: &str| {
            let c = t.card(id).unwrap();
            (c.width_mm, c.height_mm)
        };
        assert_eq!(size("poker"), (63.0, 88.0));
        assert_eq!(size("Bridge"), (57.0, 89.0));
        assert_eq!(size("tarot"), (70.0, 120.0));
        assert_eq!(t.default_card, "poker");
        assert_eq!(t.default_page, "a4");
        let a4 = t.page("a4").unwrap();
        assert_eq!((a4.width_mm, a4.height_mm), (210.0, 297.0));
        let letter = t.page("letter").unwrap();
        assert_eq!((letter.width_mm, letter.height_mm), (215.9, 279.4));
    }

    #[test]
    fn unknown_sizes_list_the_known_ones() {
        let t = templates().unwrap();
        assert_eq!(
            t.card("jumbo").unwrap_err().to_string(),
            "card size 'jumbo' is unknown — known: poker, bridge, tarot"
        );
        assert!(t.page("a5").unwrap_err().to_string().contains("a4, letter"));
    }

    /// A side that lists a card the book does not have would silently leave it uncoloured.
    #[test]
    fn every_card_a_side_names_is_in_its_book_and_no_card_has_two_sides() {
        let t = templates().unwrap();
        for id in RulesetId::ALL {
            let template = t.card_template(id).unwrap();
            let library = registry::ruleset(id).library();
            for side in &template.sides {
                for name in &side.cards {
                    assert!(
                        library.iter().any(|c| c.name() == name),
                        "{id}: side {} names '{name}', which is no card",
                        side.name
                    );
                }
            }
            for card in library {
                let stat = |label: &str| {
                    card.data()
                        .printed_stats()
                        .into_iter()
                        .find(|s| s.label == label)
                        .map(|s| s.value)
                };
                let sides: Vec<&str> = template
                    .sides
                    .iter()
                    .filter(|s| s.holds(card.name(), stat))
                    .map(|s| s.name.as_str())
                    .collect();
                assert!(sides.len() <= 1, "{id}: {} is {sides:?}", card.name());
            }
        }
    }

    /// A misspelt label in a template would silently move a statistic to the end of the card.
    #[test]
    fn every_label_a_template_names_is_one_its_cards_print() {
        let t = templates().unwrap();
        for id in RulesetId::ALL {
            let template = t.card_template(id).unwrap();
            let mut labels: Vec<&str> = registry::ruleset(id)
                .library()
                .iter()
                .flat_map(|card| card.data().printed_stats())
                .map(|s| s.label)
                .collect();
            labels.extend(crate::export::cards::extra_labels());
            for name in template.named_stats() {
                assert!(labels.contains(&name), "{id}: '{name}' is on no card");
            }
        }
    }
}
