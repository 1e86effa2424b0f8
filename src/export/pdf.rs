//! Writing a [`Layout`] as PDF with printpdf — the only file that turns the display list into
//! PDF operations.
//!
//! The faces are embedded as subsets under fixed resource names and the document dates
//! are the caller's date, so the same layout gives the same file. What printpdf does not
//! write is set on its document model (lopdf) before saving: viewer preferences that ask a
//! print dialog for actual size (`/PrintScaling /None`, the commonest cause of cards printed
//! 3–6 % small) and the duplex turn, and a print shop's TrimBox and BleedBox.

use lopdf::Object;
use printpdf::{
    Color, FontId, Line, LineDashPattern, LinePoint, Mm, OffsetDateTime, Op, PaintMode,
    PdfDocument, PdfFontHandle, PdfPage, PdfSaveOptions, Point, Polygon, PolygonRing, Pt, Rect,
    TextItem, TextMatrix, WindingOrder,
};

use super::date::ExportDate;
use super::display::{Duplex, Frame, Item, Layout, Page, Rgb, Rotation, Stroke, TextRun};
use super::fonts::{FontStyle, MM_PER_PT, faces};
use super::{ExportError, Progress, Stage};

/// Document information written into the PDF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdfInfo {
    /// Creation and modification date (midnight UTC of this day).
    pub date: ExportDate,
    pub author: String,
    pub subject: String,
}

impl PdfInfo {
    pub fn new(date: ExportDate) -> Self {
        PdfInfo {
            date,
            author: String::new(),
            subject: String::new(),
        }
    }
}

/// Fixed resource names. printpdf prefixes the font name with the id, so six capitals make
/// the standard subset tag (`QMREGU+DejaVuSans`) that PDF tools recognise.
fn font_id(style: FontStyle) -> FontId {
    match style {
        FontStyle::Regular => FontId("QMREGU".to_string()),
        FontStyle::Bold => FontId("QMBOLD".to_string()),
        FontStyle::CondensedBold => FontId("QMCOND".to_string()),
    }
}

/// The PDF bytes of `layout`.
pub fn write_pdf(
    layout: &Layout,
    info: &PdfInfo,
    progress: &mut dyn FnMut(Progress),
) -> Result<Vec<u8>, ExportError> {
    let faces = faces()?;
    let mut doc = PdfDocument::new(&layout.title);
    set_info(&mut doc, info);
    for style in FontStyle::ALL {
        if uses(layout, style) {
            let font = printpdf::PdfFont::new(faces.get(style).parsed.clone());
            doc.resources.fonts.map.insert(font_id(style), font);
        }
    }
    let total = layout.pages.len();
    let mut pages = Vec::with_capacity(total);
    for (index, page) in layout.pages.iter().enumerate() {
        pages.push(PdfPage::new(
            Mm(page.width),
            Mm(page.height),
            page_ops(page),
        ));
        progress(Progress {
            stage: Stage::Pdf,
            done: index + 1,
            total,
        });
    }
    let options = PdfSaveOptions {
        optimize: true,
        subset_fonts: true,
        secure: true,
        image_optimization: None,
    };
    let mut warnings = Vec::new();
    let mut pdf = doc
        .with_pages(pages)
        .to_lopdf_document(&options, &mut warnings);
    finish_document(&mut pdf, layout, info)?;
    pdf.compress();
    let mut bytes = Vec::new();
    pdf.save_to(&mut bytes)
        .map_err(|e| ExportError::Pdf(e.to_string()))?;
    progress(Progress {
        stage: Stage::Saved,
        done: 1,
        total: 1,
    });
    Ok(bytes)
}

/// What printpdf leaves out or gets wrong, set on its document before saving: the viewer
/// preferences, each page's TrimBox and BleedBox, an identifier from the content (printpdf
/// writes a random one) and no empty `/GTS_PDFXVersion` (which makes readers announce a
/// PDF/X file).
fn finish_document(
    pdf: &mut lopdf::Document,
    layout: &Layout,
    info: &PdfInfo,
) -> Result<(), ExportError> {
    let broken = |e: lopdf::Error| ExportError::Pdf(e.to_string());
    pdf.catalog_mut()
        .map_err(broken)?
        .set("ViewerPreferences", viewer_preferences(layout.duplex));
    let page_ids: Vec<lopdf::ObjectId> = pdf.get_pages().into_values().collect();
    for (page, id) in layout.pages.iter().zip(page_ids) {
        let Some(trim) = page.trim else { continue };
        let dict = pdf.get_dictionary_mut(id).map_err(broken)?;
        dict.set("TrimBox", pdf_box(page, trim));
        let whole = Frame {
            x: 0.0,
            y: 0.0,
            w: page.width,
            h: page.height,
        };
        dict.set("BleedBox", pdf_box(page, whole));
    }
    if let Ok(Object::Reference(id)) = pdf.trailer.get(b"Info") {
        let id = *id;
        if let Ok(dict) = pdf.get_dictionary_mut(id) {
            dict.remove(b"GTS_PDFXVersion");
        }
    }
    let id = document_id(layout, info);
    let id = Object::String(id.into_bytes(), lopdf::StringFormat::Literal);
    pdf.trailer.set("ID", Object::Array(vec![id.clone(), id]));
    Ok(())
}

/// `/PrintScaling /None` (print at actual size, not fitted to the printable area) and the
/// duplex setting the layout was made for.
fn viewer_preferences(duplex: Duplex) -> Object {
    let duplex = match duplex {
        Duplex::Simplex => "Simplex",
        Duplex::FlipLongEdge => "DuplexFlipLongEdge",
        Duplex::FlipShortEdge => "DuplexFlipShortEdge",
    };
    let mut prefs = lopdf::Dictionary::new();
    prefs.set("PrintScaling", Object::Name(b"None".to_vec()));
    prefs.set("Duplex", Object::Name(duplex.as_bytes().to_vec()));
    Object::Dictionary(prefs)
}

/// A PDF rectangle `[llx lly urx ury]` in points for a box given from the page's top-left
/// corner in millimetres.
fn pdf_box(page: &Page, frame: Frame) -> Object {
    let Frame { x, y, w, h } = frame;
    let corners = [x, page.height - y - h, x + w, page.height - y];
    Object::Array(corners.iter().map(|mm| Object::Real(pt(*mm).0)).collect())
}

fn uses(layout: &Layout, style: FontStyle) -> bool {
    layout
        .pages
        .iter()
        .flat_map(Page::texts)
        .any(|t| t.style == style)
}

fn set_info(doc: &mut PdfDocument, info: &PdfInfo) {
    let date = pdf_date(info.date);
    let meta = &mut doc.metadata.info;
    meta.creation_date = date;
    meta.modification_date = date;
    meta.metadata_date = date;
    meta.creator = "Quartermaster".to_string();
    meta.producer = format!("Quartermaster {}", env!("CARGO_PKG_VERSION"));
    meta.author = info.author.clone();
    meta.subject = info.subject.clone();
}

fn pdf_date(date: ExportDate) -> OffsetDateTime {
    OffsetDateTime::new_in_offset(
        printpdf::date::Date {
            year: i32::from(date.year),
            month: date.month,
            day: date.day,
        },
        printpdf::date::Time {
            hour: 0,
            minute: 0,
            second: 0,
            millisecond: 0,
        },
        printpdf::date::Offset {
            hours: 0,
            minutes: 0,
            seconds: 0,
            milliseconds: 0,
        },
    )
}

/// A document identifier derived from the content (FNV-1a over the title, date and text),
/// so equal layouts give byte-equal files.
fn document_id(layout: &Layout, info: &PdfInfo) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let text = format!("{}|{}|{}", layout.title, info.date, layout.plain_text());
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!(
        "{hash:016x}{:016x}",
        hash.rotate_left(29) ^ layout.pages.len() as u64
    )
}

fn color(rgb: Rgb) -> Color {
    Color::Rgb(printpdf::Rgb {
        r: f32::from(rgb.r) / 255.0,
        g: f32::from(rgb.g) / 255.0,
        b: f32::from(rgb.b) / 255.0,
        icc_profile: None,
    })
}

fn pt(mm: f32) -> Pt {
    Pt(mm / MM_PER_PT)
}

/// The page's items as PDF operations, y flipped to PDF's bottom-left origin.
fn page_ops(page: &Page) -> Vec<Op> {
    let mut ops = Vec::with_capacity(page.items.len() * 4);
    let flip = |y: f32| page.height - y;
    let point = |x: f32, y: f32| LinePoint {
        p: Point::new(Mm(x), Mm(flip(y))),
        bezier: false,
    };
    for item in &page.items {
        match item {
            Item::Rect {
                x,
                y,
                w,
                h,
                fill,
                stroke,
            } => {
                let Some(mode) = paint_mode(&mut ops, *fill, stroke.as_ref()) else {
                    continue;
                };
                if let Some(stroke) = stroke {
                    stroke_ops(&mut ops, stroke);
                }
                ops.push(Op::DrawRectangle {
                    rectangle: Rect {
                        x: pt(*x),
                        y: pt(flip(y + h)),
                        width: pt(*w),
                        height: pt(*h),
                        mode: Some(mode),
                        winding_order: None,
                    },
                });
            }
            Item::Line(segment) => {
                stroke_ops(&mut ops, &segment.stroke);
                ops.push(Op::DrawLine {
                    line: Line {
                        points: vec![point(segment.x1, segment.y1), point(segment.x2, segment.y2)],
                        is_closed: false,
                    },
                });
            }
            Item::Text(run) => text_ops(&mut ops, run, flip(run.baseline)),
            Item::Path {
                points,
                closed,
                fill,
                stroke,
            } => {
                let points: Vec<LinePoint> = points.iter().map(|&(x, y)| point(x, y)).collect();
                if let Some(stroke) = stroke {
                    stroke_ops(&mut ops, stroke);
                }
                if !*closed {
                    if stroke.is_some() {
                        ops.push(Op::DrawLine {
                            line: Line {
                                points,
                                is_closed: false,
                            },
                        });
                    }
                    continue;
                }
                let Some(mode) = paint_mode(&mut ops, *fill, stroke.as_ref()) else {
                    continue;
                };
                ops.push(Op::DrawPolygon {
                    polygon: Polygon {
                        rings: vec![PolygonRing { points }],
                        mode,
                        winding_order: WindingOrder::NonZero,
                    },
                });
            }
        }
    }
    ops
}

/// How a shape with `fill` and `stroke` is painted, its fill colour set; `None` when it
/// shows nothing.
fn paint_mode(ops: &mut Vec<Op>, fill: Option<Rgb>, stroke: Option<&Stroke>) -> Option<PaintMode> {
    let mode = match (fill, stroke) {
        (Some(_), Some(_)) => PaintMode::FillStroke,
        (Some(_), None) => PaintMode::Fill,
        (None, Some(_)) => PaintMode::Stroke,
        (None, None) => return None,
    };
    if let Some(fill) = fill {
        ops.push(Op::SetFillColor { col: color(fill) });
    }
    Some(mode)
}

fn stroke_ops(ops: &mut Vec<Op>, stroke: &Stroke) {
    ops.push(Op::SetOutlineColor {
        col: color(stroke.color),
    });
    ops.push(Op::SetOutlineThickness {
        pt: Pt(stroke.width_pt),
    });
    ops.push(Op::SetLineDashPattern {
        dash: match stroke.dash_pt {
            Some(dash) => LineDashPattern::new(0.0, &[dash, dash]),
            None => LineDashPattern::solid(),
        },
    });
}

fn text_ops(ops: &mut Vec<Op>, run: &TextRun, baseline: f32) {
    ops.push(Op::StartTextSection);
    ops.push(Op::SetFont {
        font: PdfFontHandle::External(font_id(run.style)),
        size: Pt(run.size_pt),
    });
    ops.push(Op::SetFillColor {
        col: color(run.color),
    });
    let (x, y) = (pt(run.x).0, pt(baseline).0);
    match run.rotation {
        Rotation::Upright => ops.push(Op::SetTextCursor {
            pos: Point::new(Mm(run.x), Mm(baseline)),
        }),
        // A quarter turn counter-clockwise (in PDF's y-up space): the text runs up the page.
        Rotation::Left => ops.push(Op::SetTextMatrix {
            matrix: TextMatrix::Raw([0.0, 1.0, -1.0, 0.0, x, y]),
        }),
        Rotation::Right => ops.push(Op::SetTextMatrix {
            matrix: TextMatrix::Raw([0.0, -1.0, 1.0, 0.0, x, y]),
        }),
        Rotation::Half => ops.push(Op::SetTextMatrix {
            matrix: TextMatrix::Raw([-1.0, 0.0, 0.0, -1.0, x, y]),
        }),
    }
    ops.push(Op::ShowText {
        items: vec![TextItem::Text(run.text.clone())],
    });
    ops.push(Op::EndTextSection);
}
