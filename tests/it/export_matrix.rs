//! Every kind of export in every size, read back from the PDF the way a printer sees it.
//!
//! Cards of all five rulesets on poker, bridge and tarot cards, A4 and Letter, as a grid with
//! and without backs, as fold-over sheets and one card per page, in full and low ink, with a
//! back offset; rosters and quick references of all five on both papers and in both inks;
//! the calibration sheet; an after-action report; and a force with one very wordy custom
//! card. Each PDF is parsed with lopdf: its text runs (font, size, position, direction,
//! decoded text), rectangles (with their fill) and lines (solid or dashed). Checked: no text
//! under 6 pt, no word split across two lines, no run cut short with "…", every run inside a
//! card (or, on a sheet, inside the page), nothing within 5 mm of the paper's edge, every
//! unit's name and statistics present, a crop mark of at least 3 mm outside the cards on
//! every cut line of both axes, every continued card with all its parts, no filled area
//! larger than a tick box in low ink, and a quick reference that states every situation the
//! ruleset's odds take. Issue 37 adds: the copy number on every card of a unit with copies,
//! no title under 10 pt, no body text under 8 pt on references and rosters, the 50 mm scale
//! bar on every sheet, viewer preferences asking for actual size and the right duplex turn,
//! print-shop pages of card + 6 mm trimmed at the card, and no text shortened anywhere
//! (every export of the matrix has no warning, so the command line would exit 0).

use crate::export_support;

use std::collections::{BTreeMap, BTreeSet};

use lopdf::{Document, Encoding, Object};
use quartermaster::campaign::{self, CampaignRecord, LorraineOptions, Sides};
use quartermaster::export::{
    self, BackOffset, CardMode, CardOptions, ExportDate, Flip, FontStyle, Ink, MIN_MARK_MM, Paper,
    SHOP_BLEED_MM, SHOP_SAFE_MM, SheetLayout, cards::face_for, reference, templates, text_width_mm,
};
use quartermaster::rules::validation::resolve_cards;
use quartermaster::rules::{Card, CardRef, Force, ForceUnit, RulesetId, ruleset};

const PT_PER_MM: f32 = 72.0 / 25.4;
/// Printers cannot print closer to the paper's edge than this.
const EDGE_MM: f32 = 5.0;
const MIN_PT: f32 = 6.0;

fn date() -> ExportDate {
    "2025-03-14".parse().unwrap()
}

fn none(_: export::Progress) {}

/// Which way a run's text goes on the page.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Direction {
    Right,
    Up,
    Down,
    Left,
}

/// One text run as the PDF draws it, in millimetres from the page's top-left corner.
#[derive(Debug, Clone)]
struct Run {
    x: f32,
    baseline: f32,
    size_pt: f32,
    width: f32,
    text: String,
    direction: Direction,
    /// Set in the condensed bold of card titles.
    condensed: bool,
}

impl Run {
    /// The box the run's glyphs take: (left, top, right, bottom).
    fn bounds(&self) -> (f32, f32, f32, f32) {
        let (ascent, descent) = (
            self.size_pt * 0.76 / PT_PER_MM,
            self.size_pt * 0.24 / PT_PER_MM,
        );
        let (x, b, w) = (self.x, self.baseline, self.width);
        match self.direction {
            Direction::Right => (x, b - ascent, x + w, b + descent),
            Direction::Up => (x - ascent, b - w, x + descent, b),
            Direction::Down => (x - descent, b, x + ascent, b + w),
            Direction::Left => (x - w, b - descent, x, b + ascent),
        }
    }
}

/// A rectangle or the bounding box of a line, in millimetres from the top-left corner.
#[derive(Debug, Clone, Copy)]
struct Shape {
    x: f32,
    y: f32,
    w: f32,
    h: f32,
    /// Stroked but not filled: a card's outline.
    outline: bool,
    /// Filled in this colour (0–1 per channel).
    fill: Option<[f32; 3]>,
    /// A straight line rather than a rectangle.
    line: bool,
    dashed: bool,
}

struct PdfPage {
    width: f32,
    height: f32,
    runs: Vec<Run>,
    shapes: Vec<Shape>,
    /// The TrimBox as (x, y, w, h) in mm from the top-left corner, when it is not the page.
    trim: Option<(f32, f32, f32, f32)>,
}

/// The catalog's viewer preferences: (PrintScaling, Duplex), as names.
fn viewer_preferences(bytes: &[u8]) -> (String, String) {
    let doc = Document::load_mem(bytes).expect("the PDF parses");
    let prefs = doc
        .catalog()
        .and_then(|c| c.get(b"ViewerPreferences"))
        .and_then(Object::as_dict)
        .expect("the catalog has ViewerPreferences");
    let name = |key: &[u8]| {
        prefs
            .get(key)
            .and_then(Object::as_name)
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .unwrap_or_default()
    };
    (name(b"PrintScaling"), name(b"Duplex"))
}

/// The duplex preference a layout asks for.
fn duplex_name(backs: bool, layout: SheetLayout, flip: Flip) -> &'static str {
    match (backs, layout, flip) {
        (false, ..) | (true, SheetLayout::Fold, _) => "Simplex",
        (true, _, Flip::LongEdge) => "DuplexFlipLongEdge",
        (true, _, Flip::ShortEdge) => "DuplexFlipShortEdge",
    }
}

/// True when the page carries the 50 mm scale bar and the words asking for actual size.
fn has_scale_bar(page: &PdfPage) -> bool {
    let bar = page
        .shapes
        .iter()
        .any(|s| s.line && s.h < 0.01 && (s.w - export::SCALE_BAR_MM).abs() < 0.05);
    let words = page.runs.iter().any(|r| r.text.contains("print at 100 %"));
    bar && words
}

/// Runs set in the condensed face: card titles.
fn titles(pages: &[PdfPage]) -> impl Iterator<Item = &Run> {
    pages
        .iter()
        .flat_map(|p| p.runs.iter())
        .filter(|r| r.condensed)
}

/// The copy badges every card of a unit with copies must carry ("1/3", "2/3", "3/3"), as
/// many as there are such cards.
fn expected_badges(force: &Force) -> BTreeMap<String, usize> {
    let mut wanted = BTreeMap::new();
    for unit in &force.units {
        if unit.count > 1 {
            for copy in 1..=unit.count {
                *wanted.entry(format!("{copy}/{}", unit.count)).or_insert(0) += 1;
            }
        }
    }
    wanted
}

/// Checks that every copy badge `force` needs is printed, in a run of its own.
fn check_badges(what: &str, force: &Force, pages: &[PdfPage]) {
    for (badge, count) in expected_badges(force) {
        let printed = pages
            .iter()
            .flat_map(|p| p.runs.iter())
            .filter(|r| r.text == badge && r.size_pt >= 8.0 - 0.01)
            .count();
        assert!(
            printed >= count,
            "{what}: copy badge {badge} printed {printed} times, wanted {count}"
        );
    }
}

fn number(object: &Object) -> f32 {
    object
        .as_float()
        .unwrap_or_else(|_| panic!("a number: {object:?}"))
}

/// Parses every page's content stream: text runs with their decoded text, and shapes.
fn read_pdf(bytes: &[u8]) -> Vec<PdfPage> {
    let doc = Document::load_mem(bytes).expect("the PDF parses");
    let mut pages = Vec::new();
    for (_, &page_id) in doc.get_pages().iter() {
        let page = doc.get_dictionary(page_id).unwrap();
        let media: Vec<f32> = page
            .get(b"MediaBox")
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(number)
            .collect();
        let (width, height) = (
            (media[2] - media[0]) / PT_PER_MM,
            (media[3] - media[1]) / PT_PER_MM,
        );
        let trim: Vec<f32> = page
            .get(b"TrimBox")
            .ok()
            .and_then(|b| b.as_array().ok())
            .map(|b| b.iter().map(number).collect())
            .unwrap_or_else(|| media.clone());
        let trim = (trim != media).then(|| {
            (
                trim[0] / PT_PER_MM,
                height - trim[3] / PT_PER_MM,
                (trim[2] - trim[0]) / PT_PER_MM,
                (trim[3] - trim[1]) / PT_PER_MM,
            )
        });
        let fonts = doc.get_page_fonts(page_id).unwrap();
        let encodings: BTreeMap<Vec<u8>, Encoding> = fonts
            .iter()
            .map(|(name, font)| (name.clone(), font.get_font_encoding(&doc).unwrap()))
            .collect();
        let content = doc.get_and_decode_page_content(page_id).unwrap();
        let (mut font, mut size, mut pos) = (Vec::new(), 0.0_f32, (0.0_f32, 0.0_f32));
        let mut direction = Direction::Right;
        let mut path_start = (0.0_f32, 0.0_f32);
        let mut fill = [0.0_f32; 3];
        let mut dashed = false;
        let mut runs = Vec::new();
        let mut shapes = Vec::new();
        let mut pending: Vec<Shape> = Vec::new();
        let to_mm = |x: f32, y: f32| (x / PT_PER_MM, height - y / PT_PER_MM);
        for op in &content.operations {
            let args = &op.operands;
            match op.operator.as_str() {
                "BT" => {
                    pos = (0.0, 0.0);
                    direction = Direction::Right;
                }
                "Tf" => {
                    font = args[0].as_name().unwrap().to_vec();
                    size = number(&args[1]);
                }
                "Td" => pos = (pos.0 + number(&args[0]), pos.1 + number(&args[1])),
                "Tm" => {
                    pos = (number(&args[4]), number(&args[5]));
                    let (a, b) = (number(&args[0]), number(&args[1]));
                    direction = if b > 0.5 {
                        Direction::Up
                    } else if b < -0.5 {
                        Direction::Down
                    } else if a < -0.5 {
                        Direction::Left
                    } else {
                        Direction::Right
                    };
                }
                "rg" => fill = [number(&args[0]), number(&args[1]), number(&args[2])],
                "d" => dashed = args[0].as_array().is_ok_and(|a| !a.is_empty()),
                "Tj" | "TJ" => {
                    let strings: Vec<&[u8]> = match &args[0] {
                        Object::String(s, _) => vec![s.as_slice()],
                        Object::Array(items) => {
                            items.iter().filter_map(|o| o.as_str().ok()).collect()
                        }
                        other => panic!("text operand {other:?}"),
                    };
                    let encoding = &encodings[&font];
                    let text: String = strings
                        .iter()
                        .map(|s| Document::decode_text(encoding, s).unwrap())
                        .collect();
                    let style = if font.ends_with(b"BOLD") {
                        FontStyle::Bold
                    } else if font.ends_with(b"COND") {
                        FontStyle::CondensedBold
                    } else {
                        FontStyle::Regular
                    };
                    let (x, baseline) = to_mm(pos.0, pos.1);
                    runs.push(Run {
                        x,
                        baseline,
                        size_pt: size,
                        width: text_width_mm(&text, style, size).unwrap(),
                        text,
                        direction,
                        condensed: style == FontStyle::CondensedBold,
                    });
                }
                "re" => {
                    let (x, y, w, h) = (
                        number(&args[0]),
                        number(&args[1]),
                        number(&args[2]),
                        number(&args[3]),
                    );
                    let (left, top) = to_mm(x, y + h);
                    pending.push(Shape {
                        x: left,
                        y: top,
                        w: w / PT_PER_MM,
                        h: h / PT_PER_MM,
                        outline: false,
                        fill: None,
                        line: false,
                        dashed,
                    });
                }
                "m" => path_start = (number(&args[0]), number(&args[1])),
                "l" => {
                    let (x1, y1) = to_mm(path_start.0, path_start.1);
                    let (x2, y2) = to_mm(number(&args[0]), number(&args[1]));
                    pending.push(Shape {
                        x: x1.min(x2),
                        y: y1.min(y2),
                        w: (x2 - x1).abs(),
                        h: (y2 - y1).abs(),
                        outline: false,
                        fill: None,
                        line: true,
                        dashed,
                    });
                }
                "S" | "s" | "f" | "F" | "f*" | "B" | "B*" | "b" | "b*" => {
                    let outline = matches!(op.operator.as_str(), "S" | "s");
                    let filled = !outline;
                    shapes.extend(pending.drain(..).map(|s| Shape {
                        outline,
                        fill: filled.then_some(fill),
                        ..s
                    }));
                }
                "n" => pending.clear(),
                _ => {}
            }
        }
        pages.push(PdfPage {
            width,
            height,
            runs,
            shapes,
            trim,
        });
    }
    pages
}

/// The whole file's text, runs joined by spaces, a word broken after its hyphen rejoined.
fn all_text(pages: &[PdfPage]) -> String {
    let text: Vec<&str> = pages
        .iter()
        .flat_map(|p| p.runs.iter().map(|r| r.text.as_str()))
        .collect();
    normalise(&text.join(" "))
}

fn normalise(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("- ", "-")
        .replace("/ ", "/")
}

/// Where an export may print: within `edge` mm of the paper's edge on every page (5 mm for a
/// home printer; less on a back shifted by a back offset; none on a page a card's size, for
/// a print shop that prints to the edge).
#[derive(Debug, Clone, Copy)]
struct Margins {
    front: f32,
    back: f32,
}

const HOME_PRINTER: Margins = Margins {
    front: EDGE_MM,
    back: EDGE_MM,
};

/// Checks every page of an export; `card` is the card size for card sheets. Returns the
/// pages read. On a card sheet with backs, every other page is a back.
fn check(
    what: &str,
    bytes: &[u8],
    card: Option<(f32, f32)>,
    vocabulary: &BTreeSet<String>,
) -> Vec<PdfPage> {
    check_within(what, bytes, card, vocabulary, HOME_PRINTER, false)
}

fn check_within(
    what: &str,
    bytes: &[u8],
    card: Option<(f32, f32)>,
    vocabulary: &BTreeSet<String>,
    margins: Margins,
    backs_follow: bool,
) -> Vec<PdfPage> {
    let pages = read_pdf(bytes);
    assert!(!pages.is_empty(), "{what}: no pages");
    for (n, page) in pages.iter().enumerate() {
        let at = format!("{what}, page {}", n + 1);
        let back = backs_follow && n % 2 == 1;
        // A print shop's page: the card and 3 mm of bleed all round, trimmed at the card;
        // its fills may run to the page's edge, its text keeps 3 mm inside the cut.
        if let (Some((w, h)), Some(trim)) = (card, page.trim) {
            let bleed = SHOP_BLEED_MM;
            assert!(
                (page.width - w - 2.0 * bleed).abs() < 0.01
                    && (page.height - h - 2.0 * bleed).abs() < 0.01,
                "{at}: a print shop's page is {:.2}×{:.2} mm, not the card + 6 mm",
                page.width,
                page.height
            );
            let (tx, ty, tw, th) = trim;
            assert!(
                (tx - bleed).abs() < 0.01
                    && (ty - bleed).abs() < 0.01
                    && (tw - w).abs() < 0.01
                    && (th - h).abs() < 0.01,
                "{at}: TrimBox {trim:?} is not the card"
            );
        }
        let single = page.trim.is_some();
        let edge = match (single, back) {
            (true, _) => 0.0,
            (false, true) => margins.back,
            (false, false) => margins.front,
        };
        let text_edge = if single {
            SHOP_BLEED_MM + SHOP_SAFE_MM
        } else {
            edge
        };
        let (left, top) = (text_edge, text_edge);
        let (right, bottom) = (page.width - text_edge, page.height - text_edge);
        for run in &page.runs {
            assert!(
                run.size_pt >= MIN_PT - 0.01,
                "{at}: '{}' at {:.2} pt",
                run.text,
                run.size_pt
            );
            assert!(
                !run.text.ends_with('…'),
                "{at}: '{}' is cut short with an ellipsis",
                run.text
            );
            let (x0, y0, x1, y1) = run.bounds();
            let inside_page =
                x0 >= left - 0.01 && x1 <= right + 0.01 && y0 >= top - 0.01 && y1 <= bottom + 0.01;
            assert!(
                inside_page,
                "{at}: '{}' at {:.1},{:.1} mm ({:.1} mm wide) within {text_edge} mm of the edge",
                run.text, run.x, run.baseline, run.width
            );
        }
        let (left, top) = (edge, edge);
        let (right, bottom) = (page.width - edge, page.height - edge);
        for shape in &page.shapes {
            assert!(
                shape.x >= left - 0.01
                    && shape.y >= top - 0.01
                    && shape.x + shape.w <= right + 0.01
                    && shape.y + shape.h <= bottom + 0.01,
                "{at}: a shape at {:.1},{:.1} ({:.1}×{:.1} mm) within {edge} mm of the edge",
                shape.x,
                shape.y,
                shape.w,
                shape.h
            );
        }
        if let Some((w, h)) = card {
            check_inside_cards(&at, page, w, h);
        }
        check_no_split_words(&at, page, vocabulary);
    }
    pages
}

/// The cards on a page, upright or turned, found by their outlines: (x, y, w, h) of the
/// card itself (an outline is inset by half its stroke).
fn card_frames(page: &PdfPage, w: f32, h: f32) -> Vec<(f32, f32, f32, f32)> {
    page.shapes
        .iter()
        .filter(|s| s.outline && !s.line)
        .filter_map(|s| {
            let upright = (s.w - w).abs() < 0.5 && (s.h - h).abs() < 0.5;
            let turned = (s.w - h).abs() < 0.5 && (s.h - w).abs() < 0.5;
            let (cw, ch) = if upright { (w, h) } else { (h, w) };
            (upright || turned).then(|| (s.x - (cw - s.w) / 2.0, s.y - (ch - s.h) / 2.0, cw, ch))
        })
        .collect()
}

/// Every run on a card sheet lies inside one card, or wholly outside every card (a caption,
/// or a fold-over back beside its front).
fn check_inside_cards(at: &str, page: &PdfPage, w: f32, h: f32) {
    let frames = card_frames(page, w, h);
    for run in &page.runs {
        let (x0, y0, x1, y1) = run.bounds();
        let inside = frames.iter().any(|(x, y, fw, fh)| {
            x0 >= x - 0.3 && x1 <= x + fw + 0.3 && y0 >= y - 0.3 && y1 <= y + fh + 0.3
        });
        let clear = frames.iter().all(|(x, y, fw, fh)| {
            y0 > y + fh - 0.3 || y1 < *y + 0.3 || x0 > x + fw - 0.3 || x1 < x + 0.3
        });
        assert!(
            inside || clear,
            "{at}: '{}' at {:.1},{:.1} ({:.1} mm wide) crosses a card's edge",
            run.text,
            run.x,
            run.baseline,
            run.width
        );
    }
}

/// On a sheet of card fronts, nothing filled runs past a cell (a card, or a card and its
/// fold-over back), and every cut line (each edge of each cell) has a solid crop mark of at
/// least 3 mm in line with it, outside every cell. Returns how many cells the page has.
fn check_crop_marks(at: &str, page: &PdfPage, w: f32, h: f32) -> usize {
    let folds: Vec<&Shape> = page.shapes.iter().filter(|s| s.line && s.dashed).collect();
    // A fold cell is its front and, across the dashed fold line along one of the front's
    // edges, the back.
    let along = |sx: f32, sy: f32, sw: f32, sh: f32| {
        folds.iter().any(|f| {
            (f.x - sx).abs() < 0.3
                && (f.y - sy).abs() < 0.3
                && (f.w - sw).abs() < 0.3
                && (f.h - sh).abs() < 0.3
        })
    };
    let cells: Vec<(f32, f32, f32, f32)> = card_frames(page, w, h)
        .into_iter()
        .filter_map(|(x, y, fw, fh)| {
            if along(x + fw, y, 0.0, fh) {
                Some((x, y, 2.0 * fw, fh))
            } else if along(x, y, fw, 0.0) {
                Some((x, y - fh, fw, 2.0 * fh))
            } else if along(x, y, 0.0, fh) || along(x, y + fh, fw, 0.0) {
                // A back that continues its front's text, outlined like a front: part of
                // its front's cell.
                None
            } else {
                Some((x, y, fw, fh))
            }
        })
        .collect();
    let marks: Vec<&Shape> = page
        .shapes
        .iter()
        .filter(|s| s.line && !s.dashed && (s.w < 0.01 || s.h < 0.01))
        .collect();
    let outside = |s: &Shape| {
        cells.iter().all(|(x, y, cw, ch)| {
            s.x + s.w < x - 0.2 || s.x > x + cw + 0.2 || s.y + s.h < y - 0.2 || s.y > y + ch + 0.2
        })
    };
    // Finding 2: a header band bled 2 mm past the card's top, so cutting along the visible
    // edge gave a card 2 mm too long. Nothing filled on a front runs past its cell.
    for shape in page.shapes.iter().filter(|s| s.fill.is_some() && !s.line) {
        let within = cells.iter().any(|(x, y, cw, ch)| {
            shape.x >= x - 0.05
                && shape.y >= y - 0.05
                && shape.x + shape.w <= x + cw + 0.05
                && shape.y + shape.h <= y + ch + 0.05
        });
        assert!(
            within,
            "{at}: a filled area at {:.1},{:.1} ({:.1}×{:.1} mm) runs past the cards' edges",
            shape.x, shape.y, shape.w, shape.h
        );
    }
    for (x, y, cw, ch) in &cells {
        for cut in [*x, x + cw] {
            assert!(
                marks.iter().any(|m| m.w < 0.01
                    && (m.x - cut).abs() < 0.02
                    && m.h >= MIN_MARK_MM - 0.01
                    && outside(m)),
                "{at}: no crop mark of 3 mm outside the cards for the cut at x {cut:.1} mm"
            );
        }
        for cut in [*y, y + ch] {
            assert!(
                marks.iter().any(|m| m.h < 0.01
                    && (m.y - cut).abs() < 0.02
                    && m.w >= MIN_MARK_MM - 0.01
                    && outside(m)),
                "{at}: no crop mark of 3 mm outside the cards for the cut at y {cut:.1} mm"
            );
        }
    }
    cells.len()
}

/// Every card continued over several parts ("Tiger I · 1/2") has all of them: as many
/// "· 2/2" as "· 1/2" for each name.
fn check_continuations(what: &str, text: &str, names: &BTreeSet<String>) {
    for name in names {
        let name = normalise(name);
        for of in 2..=6 {
            let count = |part: usize| text.matches(&format!("{name} · {part}/{of}")).count();
            let first = count(1);
            for part in 2..=of {
                assert_eq!(
                    count(part),
                    first,
                    "{what}: {name} has {first} of part 1/{of} but {} of part {part}/{of}",
                    count(part)
                );
            }
        }
    }
}

/// No word of the content (the vocabulary) appears cut in two at the end of one line and
/// the start of the next, the way "Reactio" / "n" did on bridge cards.
fn check_no_split_words(at: &str, page: &PdfPage, vocabulary: &BTreeSet<String>) {
    // Turned cards hold the same lines as upright ones, which are checked on other sheets.
    for (i, first) in page.runs.iter().enumerate() {
        if first.direction != Direction::Right {
            continue;
        }
        let Some(tail) = first.text.split_whitespace().last() else {
            continue;
        };
        if tail.ends_with('-') || tail.ends_with('/') {
            continue;
        }
        // The run starting the next line in the same column and size.
        let next = page.runs[i + 1..].iter().find(|r| {
            (r.x - first.x).abs() < 3.0
                && (r.size_pt - first.size_pt).abs() < 0.01
                && r.baseline > first.baseline + 0.1
                && r.baseline < first.baseline + first.size_pt * 1.6 / PT_PER_MM
        });
        let Some(next) = next else { continue };
        let Some(head) = next.text.split_whitespace().next() else {
            continue;
        };
        let trim = |w: &str| w.trim_matches(|c: char| !c.is_alphanumeric()).to_string();
        let (tail, head) = (trim(tail), trim(head));
        if tail.is_empty() || head.is_empty() {
            continue;
        }
        let joined = format!("{tail}{head}");
        let known = |w: &str| vocabulary.contains(w);
        assert!(
            !known(&joined) || known(&tail) && known(&head),
            "{at}: '{joined}' is split into '{tail}' / '{head}'"
        );
    }
}

fn words_of(text: &str, into: &mut BTreeSet<String>) {
    for word in text.split_whitespace() {
        let word = word.trim_matches(|c: char| !c.is_alphanumeric());
        if word.chars().count() > 2 {
            into.insert(word.to_string());
        }
    }
}

/// What a card must show: the unit's name and each statistic's value.
fn expected(card: &Card, unit: &ForceUnit) -> Vec<String> {
    let face = face_for(card, unit);
    let mut expected = vec![face.name.clone()];
    for row in &face.weapons {
        expected.extend([row.name.clone(), row.range.clone(), row.pen.clone()]);
    }
    for stat in &face.stats {
        if stat.label == "Weapons" && !face.weapons.is_empty() {
            continue;
        }
        for part in stat.value.split(['/', ';', '·', ',']) {
            let part = part.trim();
            if !part.is_empty() {
                expected.push(part.to_string());
            }
        }
    }
    expected
}

fn vocabulary_of(force: &Force) -> BTreeSet<String> {
    let mut words = BTreeSet::new();
    for (unit, card) in force.units.iter().zip(resolve_cards(force)) {
        let Some(card) = card else { continue };
        let face = face_for(card, unit);
        words_of(&face.name, &mut words);
        for stat in &face.stats {
            words_of(&stat.label, &mut words);
            words_of(&stat.value, &mut words);
        }
        for note in &face.notes {
            words_of(&note.title, &mut words);
            words_of(&note.text, &mut words);
        }
        for row in &face.weapons {
            words_of(&row.name, &mut words);
            words_of(&row.special, &mut words);
        }
    }
    let t = templates().unwrap().card_template(force.ruleset).unwrap();
    for label in t.body.labels.values() {
        words_of(label, &mut words);
    }
    for cells in t.body.cells.values() {
        for header in &cells.headers {
            words_of(header, &mut words);
        }
    }
    words
}

/// One of every library card of `id`, two of the first (Bolt Action units priced at 50).
fn library_force(id: RulesetId) -> Force {
    let mut force = Force::new(id, format!("Every {} card", id.title()));
    for (i, card) in ruleset(id).library().iter().enumerate() {
        let mut unit = ForceUnit::library(card.name(), if i == 0 { 2 } else { 1 });
        if id == RulesetId::BoltAction {
            unit.points = Some(50);
        }
        force.units.push(unit);
    }
    force
}

/// A Bolt Action force whose custom card has a long name and every weapon on the chart.
fn stress_force() -> Force {
    let card = export_support::wordy_bolt_action_card();
    let mut force = library_force(RulesetId::BoltAction);
    force.name = "Stress test".to_string();
    force.units.insert(
        1,
        ForceUnit {
            card: CardRef::Inline(card),
            points: Some(999),
            ..ForceUnit::library("", 1)
        },
    );
    force
}

fn assert_units_present(what: &str, force: &Force, text: &str) {
    for (unit, card) in force.units.iter().zip(resolve_cards(force)) {
        let card = card.unwrap();
        for fragment in expected(card, unit) {
            assert!(
                text.contains(&normalise(&fragment)),
                "{what}: '{fragment}' of {} is missing",
                card.name()
            );
        }
    }
}

/// How a card export is set out, for the matrix.
#[derive(Debug, Clone, Copy)]
struct Variant {
    layout: SheetLayout,
    backs: bool,
    flip: Flip,
    offset: BackOffset,
    ink: Ink,
}

const fn variant(
    layout: SheetLayout,
    backs: bool,
    flip: Flip,
    (x_mm, y_mm): (f32, f32),
    ink: Ink,
) -> Variant {
    Variant {
        layout,
        backs,
        flip,
        offset: BackOffset { x_mm, y_mm },
        ink,
    }
}

/// Every layout in both inks, with and without backs, turned over either edge, with and
/// without a back offset (a printer measured 2 mm right and 1.5 mm up, turning over the
/// short edge): each ruleset × size × page prints all seven.
const VARIANTS: [Variant; 7] = [
    variant(
        SheetLayout::Grid,
        false,
        Flip::LongEdge,
        (0.0, 0.0),
        Ink::Full,
    ),
    variant(
        SheetLayout::Grid,
        true,
        Flip::LongEdge,
        (0.0, 0.0),
        Ink::Low,
    ),
    variant(
        SheetLayout::Grid,
        true,
        Flip::ShortEdge,
        (2.0, -1.5),
        Ink::Full,
    ),
    variant(
        SheetLayout::Fold,
        false,
        Flip::LongEdge,
        (0.0, 0.0),
        Ink::Full,
    ),
    variant(
        SheetLayout::Fold,
        false,
        Flip::LongEdge,
        (0.0, 0.0),
        Ink::Low,
    ),
    variant(
        SheetLayout::Single,
        true,
        Flip::LongEdge,
        (0.0, 0.0),
        Ink::Full,
    ),
    variant(
        SheetLayout::Single,
        false,
        Flip::LongEdge,
        (0.0, 0.0),
        Ink::Low,
    ),
];

/// The names whose continued parts ("· 2/3") must all be printed.
fn face_names(force: &Force) -> BTreeSet<String> {
    force
        .units
        .iter()
        .zip(resolve_cards(force))
        .filter_map(|(unit, card)| card.map(|c| face_for(c, unit).name))
        .collect()
}

#[test]
fn every_card_size_paper_layout_and_ruleset_prints_legibly_inside_its_cards() {
    let t = templates().unwrap();
    let mut forces: Vec<Force> = RulesetId::ALL.iter().map(|&id| library_force(id)).collect();
    forces.push(stress_force());
    for force in &forces {
        let vocabulary = vocabulary_of(force);
        let names = face_names(force);
        for size in ["poker", "bridge", "tarot"] {
            let card = t.card(size).unwrap();
            for page in ["a4", "letter"] {
                for variant in VARIANTS {
                    let options = CardOptions {
                        size: size.into(),
                        page: page.into(),
                        backs: variant.backs,
                        flip: variant.flip,
                        layout: variant.layout,
                        back_offset: variant.offset,
                        ink: variant.ink,
                        mode: CardMode::PerUnit,
                        ..CardOptions::default()
                    };
                    let what = format!("{} {size} {page} {variant:?}", force.name);
                    let exported = export::export_cards(force, &options, date(), &mut none)
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert_eq!(exported.warnings, Vec::<String>::new(), "{what}");
                    // A back shifted by the offset may come that much nearer the edge: the
                    // printer's own shift takes it back.
                    let shift = variant.offset.x_mm.abs().max(variant.offset.y_mm.abs());
                    let margins = Margins {
                        front: EDGE_MM,
                        back: EDGE_MM - shift,
                    };
                    let duplex = variant.backs && variant.layout != SheetLayout::Fold;
                    let size_mm = (card.width_mm, card.height_mm);
                    let pages = check_within(
                        &what,
                        &exported.bytes,
                        Some(size_mm),
                        &vocabulary,
                        margins,
                        duplex,
                    );
                    assert_eq!(
                        viewer_preferences(&exported.bytes),
                        (
                            "None".to_string(),
                            duplex_name(variant.backs, variant.layout, variant.flip).to_string()
                        ),
                        "{what}"
                    );
                    if variant.layout != SheetLayout::Single {
                        for (n, page) in pages.iter().enumerate() {
                            if duplex && n % 2 == 1 {
                                continue;
                            }
                            let at = format!("{what}, page {}", n + 1);
                            let cells = check_crop_marks(&at, page, size_mm.0, size_mm.1);
                            assert!(cells > 0, "{at}: no cards");
                            assert!(has_scale_bar(page), "{at}: no scale bar");
                        }
                    } else {
                        assert!(pages.iter().all(|p| p.trim.is_some()), "{what}: no TrimBox");
                    }
                    for title in titles(&pages) {
                        assert!(
                            title.size_pt >= 10.0 - 0.01,
                            "{what}: title '{}' at {:.2} pt",
                            title.text,
                            title.size_pt
                        );
                    }
                    check_badges(&what, force, &pages);
                    let text = all_text(&pages);
                    assert_units_present(&what, force, &text);
                    check_continuations(&what, &text, &names);
                }
            }
        }
    }
}

/// Finding 4: "Mounted Infantry · 1/2" printed on Belle Epoque bridge sheets with no 2/2. A
/// card planned as two parts that fits one after all prints as one card.
#[test]
fn a_continued_card_always_has_all_its_parts() {
    let force = library_force(RulesetId::BelleEpoque);
    for page in ["a4", "letter"] {
        for backs in [false, true] {
            let options = CardOptions {
                size: "bridge".into(),
                page: page.into(),
                backs,
                ..CardOptions::default()
            };
            let layout = export::layout_cards(&force, &options, &mut none).unwrap();
            let text = normalise(&layout.plain_text());
            check_continuations(&format!("bridge {page}"), &text, &face_names(&force));
            // What the notes announce is what is printed.
            for note in &layout.notes {
                let Some((name, rest)) = note.split_once(": too much text") else {
                    continue;
                };
                let parts: usize = rest
                    .rsplit('(')
                    .next()
                    .and_then(|p| p.split_whitespace().next())
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
                let name = name
                    .rsplit_once(' ')
                    .map_or(name, |(n, copy)| if copy.contains('/') { n } else { name });
                assert!(
                    text.contains(&format!("{name} · {parts}/{parts}")),
                    "{note}: no part {parts}/{parts}"
                );
            }
        }
    }
}

/// The side, in mm, of the largest tick box any export draws: the roster's, or a card's
/// at its largest scale.
fn stat_box_mm() -> f32 {
    let t = templates().unwrap();
    let scale = t
        .card_templates
        .iter()
        .map(|c| c.max_scale)
        .fold(1.0, f32::max);
    t.roster.box_mm * scale
}

/// The largest area, in mm², filled with anything but white.
fn largest_fill(page: &PdfPage) -> f32 {
    page.shapes
        .iter()
        .filter(|s| !s.line && s.fill.is_some_and(|c| c.iter().any(|v| *v < 0.99)))
        .map(|s| s.w * s.h)
        .fold(0.0, f32::max)
}

/// The side, in mm, of the largest square of ink on each page as poppler renders it at
/// 100 dpi; `None` when `pdftoppm` is not installed (`.ci/run` has it).
fn largest_inked_squares(bytes: &[u8]) -> Option<Vec<f32>> {
    let dir = tempfile::tempdir().ok()?;
    let pdf = dir.path().join("page.pdf");
    std::fs::write(&pdf, bytes).ok()?;
    let status = std::process::Command::new("pdftoppm")
        .args(["-gray", "-r", "100"])
        .arg(&pdf)
        .arg(dir.path().join("page"))
        .status()
        .ok()?;
    if !status.success() {
        return None;
    }
    let mut files: Vec<_> = std::fs::read_dir(dir.path())
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "pgm"))
        .collect();
    files.sort();
    Some(
        files
            .iter()
            .map(|file| {
                let bytes = std::fs::read(file).unwrap();
                largest_square_px(&bytes) as f32 * 25.4 / 100.0
            })
            .collect(),
    )
}

/// The side of the largest square of inked pixels (anything not white) in a binary PGM.
fn largest_square_px(pgm: &[u8]) -> usize {
    // "P5\n<w> <h>\n255\n" then one byte per pixel.
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while pgm[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !pgm[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&pgm[start..at]).to_string());
    }
    at += 1;
    let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    let pixels = &pgm[at..at + w * h];
    let mut run = vec![0usize; w + 1];
    let mut best = 0;
    for y in 0..h {
        let mut diagonal = 0;
        for x in 0..w {
            let above = run[x + 1];
            // Anything darker than the paper counts: a light tint is ink too.
            run[x + 1] = if pixels[y * w + x] < 245 {
                1 + diagonal.min(above).min(run[x])
            } else {
                0
            };
            diagonal = above;
            best = best.max(run[x + 1]);
        }
    }
    best
}

/// Issue 25: a low-ink page has no filled area larger than a stat box, measured on the
/// drawing operations and, where poppler is installed, on the rendered page; in full ink the
/// same measures find the coloured bands, so they would see one.
#[test]
fn low_ink_pages_fill_nothing_larger_than_a_tick_box() {
    let side = stat_box_mm();
    let mut exports: Vec<(String, Vec<u8>, Vec<u8>)> = Vec::new();
    for id in RulesetId::ALL {
        let force = library_force(id);
        for layout in [SheetLayout::Grid, SheetLayout::Fold] {
            let at = |ink| CardOptions {
                backs: true,
                layout,
                ink,
                ..CardOptions::default()
            };
            let cards = |ink| {
                export::export_cards(&force, &at(ink), date(), &mut none)
                    .unwrap()
                    .bytes
            };
            exports.push((
                format!("{id} cards {}", layout.key()),
                cards(Ink::Low),
                cards(Ink::Full),
            ));
        }
        let paper = |ink| Paper { page: "a4", ink };
        let roster = |ink| {
            export::export_roster(&force, paper(ink), date(), &mut none)
                .unwrap()
                .bytes
        };
        exports.push((format!("{id} roster"), roster(Ink::Low), roster(Ink::Full)));
        let reference = |ink| {
            export::export_reference(id, None, paper(ink), date(), &mut none)
                .unwrap()
                .bytes
        };
        exports.push((
            format!("{id} reference"),
            reference(Ink::Low),
            reference(Ink::Full),
        ));
    }
    for (what, low, full) in &exports {
        let vocabulary = BTreeSet::new();
        let low_pages = read_pdf(low);
        for (n, page) in low_pages.iter().enumerate() {
            let area = largest_fill(page);
            assert!(
                area <= side * side + 1e-3,
                "{what}, page {}: a filled area of {area:.1} mm² in low ink",
                n + 1
            );
        }
        // Cards and rosters have bands deeper than a tick box in full ink, which the
        // measures must see (a reference's bands are only a line deep).
        let teeth = !what.ends_with("reference");
        let full_pages = read_pdf(full);
        assert!(
            !teeth || full_pages.iter().map(largest_fill).fold(0.0, f32::max) > side * side,
            "{what}: full ink has no band to compare with"
        );
        if let (Some(low_squares), Some(full_squares)) =
            (largest_inked_squares(low), largest_inked_squares(full))
        {
            for (n, square) in low_squares.iter().enumerate() {
                assert!(
                    *square <= side + 0.3,
                    "{what}, page {}: a solid {square:.1} mm square of ink in low ink",
                    n + 1
                );
            }
            assert!(
                !teeth || full_squares.iter().any(|s| *s > side + 0.3),
                "{what}: the rendered full-ink pages show no band"
            );
        }
        let _ = check(&format!("{what} low ink"), low, None, &vocabulary);
    }
}

#[test]
fn rosters_and_references_of_every_ruleset_print_legibly_inside_the_page() {
    let mut forces: Vec<Force> = RulesetId::ALL.iter().map(|&id| library_force(id)).collect();
    forces.push(stress_force());
    for preset in ["lorraine-2-german", "lorraine-3-german"] {
        forces.push(quartermaster::rules::armour_battles::preset_force(preset).unwrap());
    }
    for force in &forces {
        let vocabulary = vocabulary_of(force);
        for page in ["a4", "letter"] {
            for ink in [Ink::Full, Ink::Low] {
                let what = format!("roster of {} on {page}, {} ink", force.name, ink.key());
                let paper = Paper { page, ink };
                let exported = export::export_roster(force, paper, date(), &mut none).unwrap();
                assert_eq!(exported.warnings, Vec::<String>::new(), "{what}");
                let pages = check(&what, &exported.bytes, None, &vocabulary);
                check_sheet(
                    &what,
                    &exported.bytes,
                    &pages,
                    templates().unwrap().roster.margin_mm,
                );
                let text = all_text(&pages);
                // Finding 1: the Lorraine German rosters read "SdKfz 234/2 Armoured Car
                // (Puma…" and lost the copy number; every row is there whole.
                for (unit, card) in force.units.iter().zip(resolve_cards(force)) {
                    let name = face_for(card.unwrap(), unit).name;
                    for copy in 1..=unit.count {
                        let row = match unit.count {
                            1 => name.clone(),
                            n => format!("{name} {copy}/{n}"),
                        };
                        assert!(text.contains(&normalise(&row)), "{what}: {row} is missing");
                    }
                }
            }
        }
    }
    for id in RulesetId::ALL {
        for page in ["a4", "letter"] {
            for ink in [Ink::Full, Ink::Low] {
                let what = format!("{} reference on {page}, {} ink", id.title(), ink.key());
                let paper = Paper { page, ink };
                let exported =
                    export::export_reference(id, None, paper, date(), &mut none).unwrap();
                assert_eq!(exported.warnings, Vec::<String>::new(), "{what}");
                let pages = check(&what, &exported.bytes, None, &BTreeSet::new());
                let margin = templates().unwrap().reference.margin_mm;
                check_sheet(&what, &exported.bytes, &pages, margin);
            }
        }
    }
    // A reference filtered to a force adds its units' odds tables: they too stay at 8 pt or
    // more (it once set a filtered Armour Battles sheet at 7.4 pt on Letter to save a page).
    for force in &forces {
        for page in ["a4", "letter"] {
            let what = format!("{} reference for {} on {page}", force.ruleset, force.name);
            let paper = Paper {
                page,
                ink: Ink::Full,
            };
            let exported =
                export::export_reference(force.ruleset, Some(force), paper, date(), &mut none)
                    .unwrap();
            assert_eq!(exported.warnings, Vec::<String>::new(), "{what}");
            let pages = check(&what, &exported.bytes, None, &BTreeSet::new());
            let margin = templates().unwrap().reference.margin_mm;
            check_sheet(&what, &exported.bytes, &pages, margin);
        }
    }
}

/// A roster, a reference or a report: asks to print at actual size on one side, carries the
/// scale bar on every page, and sets its body (everything but the footer and the scale
/// bar's caption) at 8 pt or more.
fn check_sheet(what: &str, bytes: &[u8], pages: &[PdfPage], margin: f32) {
    assert_eq!(
        viewer_preferences(bytes),
        ("None".to_string(), "Simplex".to_string()),
        "{what}"
    );
    for (n, page) in pages.iter().enumerate() {
        let at = format!("{what}, page {}", n + 1);
        assert!(has_scale_bar(page), "{at}: no scale bar");
        let footer = page.height - margin;
        for run in &page.runs {
            if run.baseline > footer || run.text == export::PRINT_AT_ACTUAL_SIZE {
                continue;
            }
            assert!(
                run.size_pt >= 8.0 - 0.01,
                "{at}: '{}' at {:.2} pt",
                run.text,
                run.size_pt
            );
        }
    }
}

/// Finding 3: the Battle of Tanks reference left out "+1 if the target moved this turn",
/// which the odds apply. Every situation every mechanic's odds take is on its ruleset's
/// quick reference, in a table built from the mechanic's own inputs, or, for a quantity or
/// a table of its own, under the heading the reference names for it.
#[test]
fn every_quick_reference_states_every_situation_its_odds_take() {
    for id in RulesetId::ALL {
        let sheet = reference::reference_sheet(id).unwrap();
        let layout = export::layout_reference(id, None, "a4", &mut none).unwrap();
        let text = normalise(&layout.plain_text());
        let lines: BTreeSet<&str> = layout
            .pages
            .iter()
            .flat_map(|p| p.texts())
            .map(|r| r.text.as_str())
            .collect();
        let blocks: Vec<&reference::Block> =
            sheet.sections.iter().flat_map(|s| &s.blocks).collect();
        for mechanic in ruleset(id).mechanics() {
            let inputs = reference::situation_inputs(mechanic);
            if inputs.is_empty() {
                continue;
            }
            let source = format!("{}{}", reference::MODIFIERS, mechanic.key);
            let block = blocks
                .iter()
                .find(|b| b.source.as_deref() == Some(source.as_str()))
                .unwrap_or_else(|| panic!("{id}: the reference lists no {source}"));
            for input in inputs {
                let at = format!("{id} {}: {}", mechanic.key, input.key);
                match block.except.get(input.key) {
                    Some(heading) => assert!(
                        lines.contains(heading.as_str()),
                        "{at}: said to be under '{heading}', which is not printed"
                    ),
                    None => {
                        assert!(
                            text.contains(&normalise(input.label)),
                            "{at}: no '{}'",
                            input.label
                        );
                        assert!(
                            text.contains(&normalise(input.help)),
                            "{at}: no '{}'",
                            input.help
                        );
                    }
                }
            }
        }
    }
    let bot = export::layout_reference(RulesetId::BattleOfTanks, None, "a4", &mut none).unwrap();
    let text = normalise(&bot.plain_text());
    assert!(text.contains("Target moved this turn +1 to hit"), "{text}");
}

/// The duplex calibration sheet, on both papers, both flips, with and without an offset.
#[test]
fn the_calibration_sheet_prints_inside_the_page_front_and_back() {
    for page in ["a4", "letter"] {
        for flip in [Flip::LongEdge, Flip::ShortEdge] {
            for offset in [
                BackOffset::default(),
                BackOffset {
                    x_mm: 2.5,
                    y_mm: -1.0,
                },
            ] {
                let what = format!("calibration on {page} {flip:?} {offset:?}");
                let exported = export::export_calibration(page, flip, offset, date()).unwrap();
                assert_eq!(exported.warnings, Vec::<String>::new(), "{what}");
                let margins = Margins {
                    front: EDGE_MM,
                    back: EDGE_MM - 2.5,
                };
                let pages = check_within(
                    &what,
                    &exported.bytes,
                    None,
                    &BTreeSet::new(),
                    margins,
                    true,
                );
                assert_eq!(pages.len(), 2, "{what}");
                assert!(has_scale_bar(&pages[0]), "{what}: no scale bar");
                let duplex = duplex_name(true, SheetLayout::Grid, flip);
                assert_eq!(
                    viewer_preferences(&exported.bytes),
                    ("None".to_string(), duplex.to_string()),
                    "{what}"
                );
                let text = all_text(&pages);
                assert!(
                    text.contains("X, across (mm)") && text.contains("+10"),
                    "{what}"
                );
            }
        }
    }
}

#[test]
fn an_after_action_report_prints_legibly_inside_the_page() {
    let players = Sides {
        first: "Alice".to_string(),
        second: "Bruno".to_string(),
    };
    let created = campaign::new_lorraine("Lezey 1944", players, LorraineOptions::default())
        .expect("the briefings load");
    let record = CampaignRecord::new(quartermaster::store::new_campaign_uid(), created);
    for page in ["a4", "letter"] {
        for ink in [Ink::Full, Ink::Low] {
            let what = format!("after-action report on {page}, {} ink", ink.key());
            let paper = Paper { page, ink };
            let exported = export::export_after_action(&record, paper, date(), &mut none).unwrap();
            assert_eq!(exported.warnings, Vec::<String>::new(), "{what}");
            let pages = check(&what, &exported.bytes, None, &BTreeSet::new());
            let margin = templates().unwrap().roster.margin_mm;
            check_sheet(&what, &exported.bytes, &pages, margin);
            if ink == Ink::Low {
                for (n, page) in pages.iter().enumerate() {
                    let area = largest_fill(page);
                    assert!(
                        area <= stat_box_mm().powi(2) + 1e-3,
                        "{what}, page {}",
                        n + 1
                    );
                }
            }
        }
    }
}

/// A book card renamed, as a player's custom card of the same statistics.
fn renamed(id: RulesetId, book_name: &str, name: &str) -> Card {
    let mut card = ruleset(id)
        .library()
        .iter()
        .find(|c| c.name() == book_name)
        .unwrap_or_else(|| panic!("{book_name}"))
        .clone();
    card.data_mut().set_name(name.to_string());
    card
}

fn custom_unit(card: Card, count: u32, group: &str) -> ForceUnit {
    ForceUnit {
        card: CardRef::Inline(card),
        count,
        group: (!group.is_empty()).then(|| group.to_string()),
        ..ForceUnit::library("", 1)
    }
}

fn grouped(name: &str, count: u32, group: &str) -> ForceUnit {
    ForceUnit {
        group: Some(group.to_string()),
        ..ForceUnit::library(name, count)
    }
}

/// The decks issue 37 measured, and twenty realistic long names: each prints, on every card
/// size, every copy number and every title at 10 pt or more, with nothing shortened; one
/// long name no longer sets every other title of its deck smaller.
#[test]
fn long_name_decks_print_their_copy_numbers_and_titles_of_10_pt_or_more() {
    use RulesetId::{ArmourBattles, BattleOfTanks, Belloludi};
    let mut decks: Vec<Force> = Vec::new();
    let mut puma = Force::new(ArmourBattles, "Lorraine Battle 3 German");
    puma.units.push(grouped(
        "SdKfz 234/2 Armoured Car (Puma)",
        3,
        "Kampfgruppe von Oppeln-Bronikowski",
    ));
    puma.units
        .push(grouped("Tiger I", 3, "Schwere Panzer-Abteilung 503"));
    puma.units.push(custom_unit(
        renamed(
            ArmourBattles,
            "Sturmgeschütz III",
            "Sturmgeschütz III Ausf. G (late production)",
        ),
        2,
        "",
    ));
    puma.units.push(ForceUnit::library("Panzer IV H", 2));
    decks.push(puma);
    let mut able = Force::new(ArmourBattles, "Able Company");
    able.units
        .push(grouped("M4 75mm", 3, "Able Company, 37th Tank Battalion"));
    decks.push(able);
    let mut jagdtiger = Force::new(BattleOfTanks, "Heavy hitters");
    jagdtiger.units.push(custom_unit(
        renamed(
            BattleOfTanks,
            "Tiger I",
            "Panzerjäger Tiger Ausf. B (Jagdtiger)",
        ),
        2,
        "",
    ));
    jagdtiger.units.push(ForceUnit::library("IS-2", 1));
    decks.push(jagdtiger);
    let long_names = [
        "Panzerkampfwagen VI Ausf. B (Königstiger, Henschel turret)",
        "M36 90mm Gun Motor Carriage 'Jackson'",
        "Sturmpanzer IV (Brummbär), late production",
        "Jagdpanzer 38(t) Hetzer, Škoda-built early model",
        "M4A3E8 Sherman (76mm) 'Easy Eight' with HVSS",
        "Panzerkampfwagen V Panther Ausf. A (late)",
        "M18 76mm Gun Motor Carriage 'Hellcat'",
        "Sd.Kfz. 251/9 Stummel, mittlerer Schützenpanzerwagen",
        "Cromwell Mk. IV, 2nd Armoured Reconnaissance Welsh Guards",
        "Sherman VC Firefly (17-pounder), Polish 1st Armoured",
        "T-34-85 obr. 1944, Gorky Factory No. 112",
        "IS-2 obr. 1944 heavy breakthrough tank",
        "SU-100 tank destroyer, Uralmashzavod",
        "Marder III Ausf. M (Sd.Kfz. 138), Panzerjäger-Abteilung",
        "Nashorn (Sd.Kfz. 164) schwere Panzerjäger-Abteilung 655",
        "Churchill Mk. VII Crocodile flamethrower",
        "M10 3-inch Gun Motor Carriage 'Wolverine' (Free French)",
        "Panzer IV Ausf. J, 12. SS-Panzer-Division",
        "Achilles IIc, 17-pounder on the M10 chassis",
        "Semovente da 75/46 (Italian Social Republic)",
    ];
    let mut twenty = Force::new(Belloludi, "Twenty long names");
    for (i, name) in long_names.iter().enumerate() {
        let book = ["Light Tank", "Medium Tank", "Heavy Tank"][i % 3];
        let company = format!(
            "{} Company, {}th Battalion, Combat Command B",
            ["Able", "Baker", "Charlie"][i % 3],
            37 + i
        );
        twenty
            .units
            .push(custom_unit(renamed(Belloludi, book, name), 2, &company));
    }
    decks.push(twenty);
    for force in &decks {
        for size in ["poker", "bridge", "tarot"] {
            for backs in [false, true] {
                let what = format!("{} on {size}, backs {backs}", force.name);
                let options = CardOptions {
                    size: size.into(),
                    backs,
                    ..CardOptions::default()
                };
                let exported = export::export_cards(force, &options, date(), &mut none)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(exported.warnings, Vec::<String>::new(), "{what}");
                let pages = read_pdf(&exported.bytes);
                for title in titles(&pages) {
                    assert!(
                        title.size_pt >= 10.0 - 0.01,
                        "{what}: '{}' at {:.2} pt",
                        title.text,
                        title.size_pt
                    );
                }
                check_badges(&what, force, &pages);
                let text = all_text(&pages);
                for unit in &force.units {
                    if let Some(group) = &unit.group {
                        assert!(text.contains(&normalise(group)), "{what}: {group} is cut");
                    }
                }
            }
        }
    }
    // The IS-2 and the Panzer IV H take the size their own names need, whatever their
    // deck: finding 2 set them at 7.7 and 11.85 pt beside a long name.
    let title_of = |force: &Force, name: &str| {
        let layout = export::layout_cards(force, &CardOptions::default(), &mut none).unwrap();
        layout
            .pages
            .iter()
            .flat_map(|p| p.texts())
            .find(|t| t.text == name && t.style == FontStyle::CondensedBold)
            .map(|t| t.size_pt)
            .unwrap_or_else(|| panic!("no title {name}"))
    };
    for (deck, name) in [(&decks[2], "IS-2"), (&decks[0], "Panzer IV H")] {
        let size = title_of(deck, name);
        assert!(size >= 12.0, "{name} beside a long name at {size} pt");
    }
}
