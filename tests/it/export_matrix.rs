//! Every kind of export in every size, read back from the PDF the way a printer sees it.
//!
//! Cards of all five rulesets on poker, bridge and tarot cards, A4 and Letter, with and
//! without backs; rosters and quick references of all five on both papers; an after-action
//! report; and a force with one very wordy custom card. Each PDF is parsed with lopdf: its
//! text runs (font, size, position, decoded text), rectangles and lines. Checked: no text
//! under 6 pt, no word split across two lines, every run inside a card (or, on a sheet,
//! inside the page), nothing within 5 mm of the paper's edge, and every unit's name and
//! statistics present.

use crate::export_support;

use std::collections::{BTreeMap, BTreeSet};

use lopdf::{Document, Encoding, Object};
use quartermaster::campaign::{self, CampaignRecord, LorraineOptions, Sides};
use quartermaster::export::{
    self, CardMode, CardOptions, ExportDate, FontStyle, cards::face_for, templates, text_width_mm,
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

/// One text run as the PDF draws it, in millimetres from the page's top-left corner.
#[derive(Debug, Clone)]
struct Run {
    x: f32,
    baseline: f32,
    size_pt: f32,
    width: f32,
    text: String,
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
}

struct PdfPage {
    width: f32,
    height: f32,
    runs: Vec<Run>,
    shapes: Vec<Shape>,
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
        let fonts = doc.get_page_fonts(page_id).unwrap();
        let encodings: BTreeMap<Vec<u8>, Encoding> = fonts
            .iter()
            .map(|(name, font)| (name.clone(), font.get_font_encoding(&doc).unwrap()))
            .collect();
        let content = doc.get_and_decode_page_content(page_id).unwrap();
        let (mut font, mut size, mut pos) = (Vec::new(), 0.0_f32, (0.0_f32, 0.0_f32));
        let mut path_start = (0.0_f32, 0.0_f32);
        let mut runs = Vec::new();
        let mut shapes = Vec::new();
        let mut pending: Vec<Shape> = Vec::new();
        let to_mm = |x: f32, y: f32| (x / PT_PER_MM, height - y / PT_PER_MM);
        for op in &content.operations {
            let args = &op.operands;
            match op.operator.as_str() {
                "BT" => pos = (0.0, 0.0),
                "Tf" => {
                    font = args[0].as_name().unwrap().to_vec();
                    size = number(&args[1]);
                }
                "Td" => pos = (pos.0 + number(&args[0]), pos.1 + number(&args[1])),
                "Tm" => pos = (number(&args[4]), number(&args[5])),
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
                    });
                }
                "S" | "s" | "f" | "F" | "f*" | "B" | "B*" | "b" | "b*" => {
                    let outline = matches!(op.operator.as_str(), "S" | "s");
                    shapes.extend(pending.drain(..).map(|s| Shape { outline, ..s }));
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

/// Checks every page of an export; `card` is the card size for card sheets. Returns the
/// pages read.
fn check(
    what: &str,
    bytes: &[u8],
    card: Option<(f32, f32)>,
    vocabulary: &BTreeSet<String>,
) -> Vec<PdfPage> {
    let pages = read_pdf(bytes);
    assert!(!pages.is_empty(), "{what}: no pages");
    for (n, page) in pages.iter().enumerate() {
        let at = format!("{what}, page {}", n + 1);
        let (left, top) = (EDGE_MM, EDGE_MM);
        let (right, bottom) = (page.width - EDGE_MM, page.height - EDGE_MM);
        for run in &page.runs {
            assert!(
                run.size_pt >= MIN_PT - 0.01,
                "{at}: '{}' at {:.2} pt",
                run.text,
                run.size_pt
            );
            let (ascent, descent) = (
                run.size_pt * 0.76 / PT_PER_MM,
                run.size_pt * 0.24 / PT_PER_MM,
            );
            let inside_page = run.x >= left - 0.01
                && run.x + run.width <= right + 0.01
                && run.baseline - ascent >= top - 0.01
                && run.baseline + descent <= bottom + 0.01;
            assert!(
                inside_page,
                "{at}: '{}' at {:.1},{:.1} mm ({:.1} mm wide) within 5 mm of the edge",
                run.text, run.x, run.baseline, run.width
            );
        }
        for shape in &page.shapes {
            assert!(
                shape.x >= left - 0.01
                    && shape.y >= top - 0.01
                    && shape.x + shape.w <= right + 0.01
                    && shape.y + shape.h <= bottom + 0.01,
                "{at}: a shape at {:.1},{:.1} ({:.1}×{:.1} mm) within 5 mm of the edge",
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

/// Every run on a card sheet lies inside one card, or wholly outside every card (a caption).
fn check_inside_cards(at: &str, page: &PdfPage, w: f32, h: f32) {
    let frames: Vec<(f32, f32)> = page
        .shapes
        .iter()
        .filter(|s| s.outline && (s.w - w).abs() < 0.5 && (s.h - h).abs() < 0.5)
        .map(|s| (s.x, s.y))
        .collect();
    for run in &page.runs {
        let inside = frames.iter().any(|(x, y)| {
            run.x >= x - 0.3
                && run.x + run.width <= x + w + 0.3
                && run.baseline >= *y
                && run.baseline <= y + h
        });
        let clear = frames.iter().all(|(x, y)| {
            run.baseline > y + h + 0.3
                || run.baseline < *y - 0.3
                || run.x > x + w
                || run.x + run.width < *x
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

/// No word of the content (the vocabulary) appears cut in two at the end of one line and
/// the start of the next, the way "Reactio" / "n" did on bridge cards.
fn check_no_split_words(at: &str, page: &PdfPage, vocabulary: &BTreeSet<String>) {
    for (i, first) in page.runs.iter().enumerate() {
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

#[test]
fn every_card_size_paper_and_ruleset_prints_legibly_inside_its_cards() {
    let t = templates().unwrap();
    let mut forces: Vec<Force> = RulesetId::ALL.iter().map(|&id| library_force(id)).collect();
    forces.push(stress_force());
    for force in &forces {
        let vocabulary = vocabulary_of(force);
        for size in ["poker", "bridge", "tarot"] {
            let card = t.card(size).unwrap();
            for page in ["a4", "letter"] {
                for backs in [false, true] {
                    let options = CardOptions {
                        size: size.into(),
                        page: page.into(),
                        backs,
                        mode: CardMode::PerUnit,
                        ..CardOptions::default()
                    };
                    let what = format!("{} {size} {page} backs {backs}", force.name);
                    let exported = export::export_cards(force, &options, date(), &mut none)
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert_eq!(exported.warnings, Vec::<String>::new(), "{what}");
                    let pages = check(
                        &what,
                        &exported.bytes,
                        Some((card.width_mm, card.height_mm)),
                        &vocabulary,
                    );
                    let text = all_text(&pages);
                    assert_units_present(&what, force, &text);
                }
            }
        }
    }
}

#[test]
fn rosters_and_references_of_every_ruleset_print_legibly_inside_the_page() {
    let mut forces: Vec<Force> = RulesetId::ALL.iter().map(|&id| library_force(id)).collect();
    forces.push(stress_force());
    for force in &forces {
        let vocabulary = vocabulary_of(force);
        for page in ["a4", "letter"] {
            let what = format!("roster of {} on {page}", force.name);
            let exported = export::export_roster(force, page, date(), &mut none).unwrap();
            assert_eq!(exported.warnings, Vec::<String>::new(), "{what}");
            let pages = check(&what, &exported.bytes, None, &vocabulary);
            let text = all_text(&pages);
            for (unit, card) in force.units.iter().zip(resolve_cards(force)) {
                let name = face_for(card.unwrap(), unit).name;
                assert!(
                    text.contains(&normalise(&name)),
                    "{what}: {name} is missing"
                );
            }
        }
    }
    for id in RulesetId::ALL {
        for page in ["a4", "letter"] {
            let what = format!("{} reference on {page}", id.title());
            let exported = export::export_reference(id, None, page, date(), &mut none).unwrap();
            assert_eq!(exported.warnings, Vec::<String>::new(), "{what}");
            check(&what, &exported.bytes, None, &BTreeSet::new());
        }
    }
}

#[test]
fn an_after_action_report_prints_legibly_inside_the_page() {
    let players = Sides {
        us: "Alice".to_string(),
        german: "Bruno".to_string(),
    };
    let created = campaign::new_lorraine("Lezey 1944", players, LorraineOptions::default())
        .expect("the briefings load");
    let record = CampaignRecord::new(quartermaster::store::new_campaign_uid(), created);
    for page in ["a4", "letter"] {
        let bytes = export::export_after_action(&record, page, date(), &mut none).unwrap();
        check(
            &format!("after-action report on {page}"),
            &bytes,
            None,
            &BTreeSet::new(),
        );
    }
}
