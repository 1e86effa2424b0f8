//! The force roster: one sheet with the force, its roster code, budget, units, totals and
//! problems, and where the ruleset plays the budget as a battle of its own (a Lorraine battle
//! group) the briefing with tick boxes to track the battle ([`Ruleset::briefing`]).
//!
//! Nothing on a roster is cut short: long names wrap within their column, a table continued
//! on a new page repeats its column headers, and a word that cannot fit its column even
//! alone on a line is reported as a warning (the command line then exits 1).
//!
//! [`Ruleset::briefing`]: crate::rules::Ruleset::briefing

mod briefing;
mod table;

use crate::rules::roster_code::roster_code;
use crate::rules::ruleset::{Briefing, line_cost};
use crate::rules::validation::{Validation, validate};
use crate::rules::words::capitalised;
use crate::rules::{Card, Force, ForceUnit, RulesetId};

use super::date::ExportDate;
use super::display::{Duplex, Item, Layout, Rgb};
use super::flow::{SheetFlow, footer_font};
use super::fonts::{FontStyle, faces};
use super::ink::{Ink, Paper};
use super::template::{RosterStyle, SheetColors, templates};
use super::text::{Font, Typesetter, cap_height};
use super::{ExportError, Progress};

/// The smallest size a roster's title shrinks to before it wraps.
const MIN_TITLE_PT: f32 = 10.0;

/// Lays out the roster of `force` on `paper` (a page id such as `a4`, or a page and an ink),
/// dated `date`.
pub fn layout_roster<'a>(
    force: &Force,
    paper: impl Into<Paper<'a>>,
    date: ExportDate,
    progress: &mut dyn FnMut(Progress),
) -> Result<Layout, ExportError> {
    let paper = paper.into();
    let page = templates()?.page(paper.page)?;
    let portrait = (page.width_mm, page.height_mm);
    let (layout, squeezed) = lay_out(force, paper.ink, portrait, date, progress)?;
    if !squeezed {
        return Ok(layout);
    }
    // A table too wide for the portrait page (Belle Epoque's fire and assault, Bolt Action's
    // moves and pins) is set across the landscape page instead of wrapping inside values.
    let landscape = (page.height_mm, page.width_mm);
    Ok(lay_out(force, paper.ink, landscape, date, &mut |_| {})?.0)
}

/// One layout of the roster on pages of `size` (width, height); true when its unit table
/// was squeezed.
fn lay_out(
    force: &Force,
    ink: Ink,
    size: (f32, f32),
    date: ExportDate,
    progress: &mut dyn FnMut(Progress),
) -> Result<(Layout, bool), ExportError> {
    let t = templates()?;
    let ts = Typesetter { faces: faces()? };
    let accent = t.card_template(force.ruleset)?.colors.accent;
    let validation = validate(force);
    let style = &t.roster;
    let code = roster_code(force).to_string();
    let mut sheet = Roster {
        flow: SheetFlow::single_column(ts, size, style.margin_mm),
        style,
        colors: &t.colors,
        accent,
        ink,
        warnings: super::glyphs::glyph_warnings(force),
        squeezed: false,
    };
    let briefing = crate::rules::ruleset(force.ruleset).briefing(&force.budget);
    sheet.title(force, date, &code, &validation);
    // A briefing tracks each unit in its own table (disruption with suppression).
    sheet.units(force, &validation, briefing.is_none(), progress)?;
    sheet.totals(&validation);
    sheet.victory_points(force);
    sheet.violations(&validation);
    sheet.notes(force, briefing.as_ref());
    if let Some(briefing) = briefing {
        sheet.briefing(force, &briefing);
    }
    let Roster {
        flow,
        warnings,
        squeezed,
        ..
    } = sheet;
    let pages = flow.finish_numbered(
        footer_font(t.footer_size_pt, t.colors.muted),
        &[
            format!(
                "Quartermaster · {} · roster printed {date} · code {code}",
                force.name
            ),
            format!("Roster printed {date} · code {code}"),
        ],
    );
    let layout = Layout {
        title: format!("{} — roster", force.name),
        pages,
        warnings,
        notes: Vec::new(),
        duplex: Duplex::Simplex,
    };
    Ok((layout, squeezed))
}

struct Roster<'a> {
    flow: SheetFlow,
    style: &'a RosterStyle,
    colors: &'a SheetColors,
    accent: Rgb,
    ink: Ink,
    /// What could not be printed as it should (a word too long for its column).
    warnings: Vec<String>,
    /// The unit table wanted more width than the page gives (cells wrapping within their
    /// values): the roster is better set landscape.
    squeezed: bool,
}

impl Roster<'_> {
    fn font(&self, style: FontStyle, size_pt: f32) -> Font {
        Font::new(style, size_pt, self.colors.text)
    }

    fn body(&self) -> Font {
        self.font(FontStyle::Regular, self.style.body_size_pt)
    }

    fn small(&self) -> Font {
        self.font(FontStyle::Regular, self.style.small_size_pt)
    }

    fn heading(&mut self, text: &str) {
        let font = Font::new(FontStyle::Bold, self.style.heading_size_pt, self.accent);
        self.flow.y += 2.5;
        self.flow.ensure(font.line_height() * 3.0);
        self.flow.line(0.0, font, text);
        self.flow.rule(self.accent, 0.6);
        self.flow.y += 1.2;
    }

    /// Sets `text` wrapped to `width` at the cursor, reporting a word that had to be cut
    /// between letters to fit (`what` names the field).
    fn wrapped(&mut self, dx: f32, width: f32, font: Font, text: &str, what: &str) {
        let (lines, cut) = self.flow.ts.wrap_checked(text, font, width);
        if cut {
            self.warnings.push(format!(
                "roster: {what} '{text}' has a word too long for its line"
            ));
        }
        for line in lines {
            self.flow.line(dx, font, &line);
        }
    }

    fn title(&mut self, force: &Force, date: ExportDate, code: &str, validation: &Validation) {
        let width = self.flow.text_width();
        let title = Font::new(FontStyle::Bold, self.style.title_size_pt, self.accent);
        // A long name shrinks a little, then takes a second line; it is never cut.
        let size = self
            .flow
            .ts
            .fit_size(&force.name, title, MIN_TITLE_PT, width, 1);
        self.wrapped(0.0, width, title.sized(size), &force.name, "force name");
        let sub = Font::new(
            FontStyle::Regular,
            self.style.body_size_pt,
            self.colors.muted,
        );
        self.flow.line(
            0.0,
            sub,
            &format!("{} · force roster · {date}", force.ruleset.title()),
        );
        let bold = Font::new(FontStyle::Bold, sub.size_pt, self.colors.text);
        let label = "Roster code ";
        let baseline = self.flow.y + cap_height(sub.size_pt);
        let x = self.flow.left();
        let label_w = self.flow.ts.width(label, sub);
        let code_w = self.flow.ts.width(code, bold);
        let item = self.flow.ts.run(x, baseline, sub, label);
        self.flow.push(item);
        let item = self.flow.ts.run(x + label_w, baseline, bold, code);
        self.flow.push(item);
        // How to use it, when it fits on the line; the README says it anyway.
        let how = " — quartermaster force verify FILE CODE checks a force file against it";
        if label_w + code_w + self.flow.ts.width(how, sub) <= width {
            let item = self.flow.ts.run(x + label_w + code_w, baseline, sub, how);
            self.flow.push(item);
        }
        self.flow.y += sub.line_height();
        self.flow.y += 2.0;
        self.status_band(force.ruleset, validation);
    }

    /// The budget and the verdict on a tinted band.
    fn status_band(&mut self, ruleset: RulesetId, validation: &Validation) {
        let body = self.font(FontStyle::Bold, self.style.body_size_pt);
        let height = body.line_height() + 3.0;
        let (x, y, w) = (self.flow.left(), self.flow.y, self.flow.text_width());
        let band = self.ink.panel(x, y, w, height, self.colors.band);
        self.flow.push(band);
        let baseline = y + 1.5 + cap_height(body.size_pt);
        let b = &validation.budget;
        let over = b.is_over() || b.min.is_some_and(|min| b.used < min);
        let limit = match (b.min, b.limit) {
            (Some(min), Some(max)) => format!("{min}–{max}"),
            (None, Some(max)) => max.to_string(),
            _ => "no limit".to_string(),
        };
        let of =
            b.id.as_deref()
                .map(|id| budget_name(ruleset, id))
                .map_or(String::new(), |id| format!(" · {id}"));
        let budget_text = format!("Budget used: {} / {limit} {}{of}", b.used, b.unit);
        let color = if over {
            self.colors.violation
        } else {
            self.colors.text
        };
        let item = self
            .flow
            .ts
            .run(x + 2.0, baseline, body.colored(color), &budget_text);
        self.flow.push(item);
        let (verdict, color) = match validation.violations.len() {
            0 => ("LEGAL".to_string(), self.colors.legal),
            1 => ("1 PROBLEM".to_string(), self.colors.violation),
            n => (format!("{n} PROBLEMS"), self.colors.violation),
        };
        let verdict_font = body.colored(color);
        let vw = self.flow.ts.width(&verdict, verdict_font);
        let item = self
            .flow
            .ts
            .run(x + w - 2.0 - vw, baseline, verdict_font, &verdict);
        self.flow.push(item);
        self.flow.y += height + 1.0;
    }

    fn units(
        &mut self,
        force: &Force,
        validation: &Validation,
        track: bool,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<(), ExportError> {
        self.heading("Units");
        let cost_head = match validation.budget.unit {
            "units" => String::new(),
            unit => capitalised(unit),
        };
        let template = templates()?.card_template(force.ruleset)?;
        self.unit_table(force, template, &cost_head, track, progress);
        Ok(())
    }

    /// A line to keep the victory points on, for rulesets that score them.
    fn victory_points(&mut self, force: &Force) {
        if !crate::rules::ruleset(force.ruleset).scores_victory_points() {
            return;
        }
        let font = self.font(FontStyle::Bold, self.style.body_size_pt);
        self.flow.y += 2.0;
        self.flow.ensure(self.style.box_mm + 2.0);
        let (x, y) = (self.flow.left(), self.flow.y);
        let label = "Victory points";
        let item = self.flow.ts.run(
            x,
            y + self.style.box_mm / 2.0 + cap_height(font.size_pt) / 2.0,
            font,
            label,
        );
        self.flow.push(item);
        let lx = x + self.flow.ts.width(label, font) + 3.0;
        self.flow.push(Item::Rect {
            x: lx,
            y,
            w: 30.0,
            h: self.style.box_mm + 1.0,
            fill: None,
            stroke: Some(super::display::Stroke::solid(self.colors.text, 0.5)),
        });
        self.flow.y += self.style.box_mm + 2.0;
    }

    fn totals(&mut self, validation: &Validation) {
        let t = &validation.totals;
        let mut parts = vec![format!("{} units", t.units)];
        let optional = [
            (t.points, "points"),
            (t.tier_points, "tier points"),
            (t.stands, "stands"),
            (t.command_dice, "command dice"),
        ];
        for (value, unit) in optional {
            if let Some(value) = value {
                parts.push(format!("{value} {unit}"));
            }
        }
        let font = self.font(FontStyle::Bold, self.style.body_size_pt);
        self.flow.y += 1.0;
        self.flow
            .line(0.0, font, &format!("Totals: {}", parts.join(" · ")));
    }

    fn violations(&mut self, validation: &Validation) {
        if validation.violations.is_empty() {
            return;
        }
        let red = self.colors.violation;
        let font = Font::new(FontStyle::Regular, self.style.body_size_pt, red);
        self.heading_colored("Problems", red);
        let (x, w) = (self.flow.left(), self.flow.text_width());
        let mark_w = self.flow.ts.width("✗ ", font);
        for violation in &validation.violations {
            let (lines, cut) = self
                .flow
                .ts
                .wrap_checked(&violation.message, font, w - mark_w);
            if cut {
                self.warnings.push(format!(
                    "roster: problem '{}' has a word too long for its line",
                    violation.message
                ));
            }
            self.flow.ensure(font.line_height());
            let baseline = self.flow.y + cap_height(font.size_pt);
            let bold = Font::new(FontStyle::Bold, font.size_pt, red);
            let item = self.flow.ts.run(x, baseline, bold, "✗");
            self.flow.push(item);
            for line in lines {
                self.flow.line(mark_w, font, &line);
            }
            self.flow.y += 0.6;
        }
    }

    fn heading_colored(&mut self, text: &str, color: Rgb) {
        let saved = self.accent;
        self.accent = color;
        self.heading(text);
        self.accent = saved;
    }

    /// The force's notes, unless they only repeat the briefing printed below them (a book
    /// preset's notes are its briefing line).
    fn notes(&mut self, force: &Force, briefing: Option<&Briefing>) {
        let notes = force.notes.trim();
        if notes.is_empty() || briefing.is_some_and(|b| b.notes_line == notes) {
            return;
        }
        self.heading("Notes");
        let w = self.flow.text_width();
        let body = self.body();
        self.wrapped(0.0, w, body, notes, "notes");
    }
}

/// The battle group or scenario a budget names, for people.
fn budget_name(ruleset: RulesetId, id: &str) -> String {
    crate::rules::ruleset(ruleset)
        .named_budgets()
        .into_iter()
        .find(|named| {
            named
                .budget
                .id()
                .is_some_and(|own| own.eq_ignore_ascii_case(id.trim()))
        })
        .map_or_else(|| id.to_string(), |named| named.title)
}

/// What one unit of a line costs against the budget, where the ruleset counts cost.
fn cost_of(card: &Card, unit: &ForceUnit) -> Option<u64> {
    line_cost(card, unit).map(|cost| cost.amount)
}
