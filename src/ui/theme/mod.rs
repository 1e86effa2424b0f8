//! The window's look as design tokens, in one place (the way Rerun's `re_ui` keeps its own):
//! a type scale, spacing steps, a status palette, the two players' colours, light and dark
//! palettes, a few icons, and the widgets views draw by meaning — a status pill, a headline
//! tile, a filled bar, a large action. Views ask for `tokens(ui).danger()`, never for RGB, so
//! the whole window changes together and every colour pair is checked for contrast once
//! (`contrast`).
//!
//! Table mode (View › Table mode, Ctrl+T) multiplies the type scale and the spacing steps, for
//! a laptop read from the end of the table.

#[cfg(test)]
mod contrast;
pub mod icons;
mod palette;
mod widgets;

pub use widgets::{
    Meter, big_action, empty_state, filled_bar, meter, pill, primary, progress, section_heading,
    tile, tile_size,
};

use egui::{Color32, FontId, TextStyle};

use super::action::Theme;

/// What a thing on screen means for the player, whatever its colour on this theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// Legal, healthy, within budget.
    Ok,
    /// Worth a look: morale falling, short of a minimum, a card changed since saving.
    Warning,
    /// Wrong or lost: over budget, illegal, morale nearly gone, a unit destroyed.
    Danger,
    /// Out of play or not chosen: drawn, but stepping back.
    Inactive,
    /// Neutral news: a chance, a count, a hint.
    Info,
}

impl Status {
    pub const ALL: [Status; 5] = [
        Status::Ok,
        Status::Warning,
        Status::Danger,
        Status::Inactive,
        Status::Info,
    ];

    /// How a stock that falls (Army Morale, strength) reads at `fraction` of its start:
    /// more than half left is fine, more than a quarter a warning, less is danger.
    pub fn of_remaining(fraction: f32) -> Status {
        if fraction > 0.5 {
            Status::Ok
        } else if fraction > 0.25 {
            Status::Warning
        } else {
            Status::Danger
        }
    }
}

/// The first or the second player, each with a colour of their own on both themes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Player {
    First,
    Second,
}

/// One meaning's colours: text drawn on the panel or on `fill`, a soft `fill` for pills and
/// tiles, and a stronger `bar` for bars and lines.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Swatch {
    pub text: Color32,
    pub fill: Color32,
    pub bar: Color32,
}

/// Every colour of one theme.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Palette {
    pub dark: bool,
    /// Behind panels and the central view.
    pub panel: Color32,
    /// Behind windows, menus and text fields.
    pub window: Color32,
    /// The empty part of a bar.
    pub track: Color32,
    pub text: Color32,
    /// Secondary words: still readable (4.5:1), never grey-on-grey.
    pub weak_text: Color32,
    /// Selection and the chosen tab.
    pub accent: Swatch,
    pub ok: Swatch,
    pub warning: Swatch,
    pub danger: Swatch,
    pub inactive: Swatch,
    pub info: Swatch,
    pub first: Swatch,
    pub second: Swatch,
}

impl Palette {
    pub const LIGHT: Palette = palette::LIGHT;
    pub const DARK: Palette = palette::DARK;

    pub fn status(&self, status: Status) -> Swatch {
        match status {
            Status::Ok => self.ok,
            Status::Warning => self.warning,
            Status::Danger => self.danger,
            Status::Inactive => self.inactive,
            Status::Info => self.info,
        }
    }

    pub fn player(&self, player: Player) -> Swatch {
        match player {
            Player::First => self.first,
            Player::Second => self.second,
        }
    }

    /// egui's own visuals for this palette, so stock widgets (selection, links, errors,
    /// weak text) speak the same colours as the views.
    fn visuals(&self) -> egui::Visuals {
        let mut v = if self.dark {
            egui::Visuals::dark()
        } else {
            egui::Visuals::light()
        };
        v.panel_fill = self.panel;
        v.window_fill = self.window;
        v.extreme_bg_color = self.window;
        v.faint_bg_color = self.track;
        v.override_text_color = None;
        v.weak_text_color = Some(self.weak_text);
        v.widgets.noninteractive.fg_stroke.color = self.text;
        v.hyperlink_color = self.info.text;
        v.warn_fg_color = self.warning.text;
        v.error_fg_color = self.danger.text;
        v.selection.bg_fill = self.accent.fill;
        v.selection.stroke.color = self.accent.text;
        v.text_cursor.blink = false;
        v
    }
}

/// The paper the print preview draws on: white on either theme, as it will print.
pub const PAPER: Color32 = Color32::WHITE;

/// A colour of the printed page (a card template's), drawn as the PDF prints it whatever the
/// window's theme: the preview shows the paper, not the window.
pub fn printed(r: u8, g: u8, b: u8) -> Color32 {
    Color32::from_rgb(r, g, b)
}

/// The type scale in points before table mode: body text, small print, headings, and the
/// figure a tile leads with.
pub const BODY: f32 = 13.0;
pub const SMALL: f32 = 10.5;
pub const HEADING: f32 = 19.0;
pub const HEADLINE: f32 = 28.0;
/// Table mode's factor on type and spacing: a 13-point body reads as 17 points.
pub const TABLE_SCALE: f32 = 1.3;

/// Spacing steps in points before table mode; views add space by step, not by number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gap {
    /// Between a figure and its caption.
    Xs,
    /// Inside a pill, between buttons of one row.
    S,
    /// Between rows of one group.
    M,
    /// Between groups.
    L,
    /// Around an empty state or a start card.
    Xl,
}

impl Gap {
    const fn points(self) -> f32 {
        match self {
            Gap::Xs => 2.0,
            Gap::S => 4.0,
            Gap::M => 8.0,
            Gap::L => 16.0,
            Gap::Xl => 32.0,
        }
    }
}

/// The tokens for the theme on screen now, at the current scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tokens {
    pub palette: Palette,
    pub scale: f32,
}

impl Tokens {
    pub fn status(&self, status: Status) -> Swatch {
        self.palette.status(status)
    }
    pub fn player(&self, player: Player) -> Swatch {
        self.palette.player(player)
    }
    pub fn ok(&self) -> Color32 {
        self.palette.ok.text
    }
    pub fn warning(&self) -> Color32 {
        self.palette.warning.text
    }
    pub fn danger(&self) -> Color32 {
        self.palette.danger.text
    }
    pub fn inactive(&self) -> Color32 {
        self.palette.inactive.text
    }
    pub fn info(&self) -> Color32 {
        self.palette.info.text
    }
    pub fn body(&self) -> f32 {
        BODY * self.scale
    }
    pub fn small(&self) -> f32 {
        SMALL * self.scale
    }
    pub fn heading(&self) -> f32 {
        HEADING * self.scale
    }
    pub fn headline(&self) -> f32 {
        HEADLINE * self.scale
    }
    pub fn gap(&self, gap: Gap) -> f32 {
        gap.points() * self.scale
    }
}

/// Where the current scale is kept in egui's memory, so any view can read the tokens from
/// its `Ui` alone.
fn scale_id() -> egui::Id {
    egui::Id::unique("quartermaster-theme-scale")
}

/// The tokens for the theme `ui` is drawn in.
pub fn tokens(ui: &egui::Ui) -> Tokens {
    tokens_of(ui.ctx())
}

/// The tokens for the theme the window is drawn in now.
pub fn tokens_of(ctx: &egui::Context) -> Tokens {
    let scale = ctx.data(|d| d.get_temp::<f32>(scale_id())).unwrap_or(1.0);
    let palette = if ctx.theme() == egui::Theme::Dark {
        Palette::DARK
    } else {
        Palette::LIGHT
    };
    Tokens { palette, scale }
}

/// Puts `choice` and table mode into effect: the palettes and the type scale once (again
/// when table mode changes), the light-or-dark choice whenever it changes. Cheap every frame.
pub fn apply(ctx: &egui::Context, choice: Theme, table_mode: bool) {
    let scale = if table_mode { TABLE_SCALE } else { 1.0 };
    if ctx.data(|d| d.get_temp::<f32>(scale_id())) != Some(scale) {
        for (theme, palette) in [
            (egui::Theme::Light, Palette::LIGHT),
            (egui::Theme::Dark, Palette::DARK),
        ] {
            // Changed in place: what else the style holds (a test harness's animations off)
            // stays as it was.
            ctx.style_mut_of(theme, |style| restyle(style, palette, scale));
        }
        ctx.data_mut(|d| d.insert_temp(scale_id(), scale));
    }
    let preference = match choice {
        Theme::System => egui::ThemePreference::System,
        Theme::Light => egui::ThemePreference::Light,
        Theme::Dark => egui::ThemePreference::Dark,
    };
    if ctx.options(|o| o.theme_preference) != preference {
        ctx.set_theme(preference);
    }
}

/// Puts `palette` and the type scale and spacing at `scale` into `style`. Sizes are set
/// from egui's defaults each time, so scaling never compounds.
fn restyle(style: &mut egui::Style, palette: Palette, scale: f32) {
    style.visuals = palette.visuals();
    let font = |size: f32| FontId::proportional(size * scale);
    style.text_styles = [
        (TextStyle::Small, font(SMALL)),
        (TextStyle::Body, font(BODY)),
        (TextStyle::Button, font(BODY)),
        (TextStyle::Heading, font(HEADING)),
        (TextStyle::Monospace, FontId::monospace(12.0 * scale)),
    ]
    .into();
    let base = egui::style::Spacing::default();
    let spacing = &mut style.spacing;
    spacing.item_spacing = base.item_spacing * scale;
    spacing.button_padding = base.button_padding * scale;
    spacing.interact_size = base.interact_size * scale;
    spacing.icon_width = base.icon_width * scale;
    spacing.icon_width_inner = base.icon_width_inner * scale;
    spacing.icon_spacing = base.icon_spacing * scale;
    spacing.indent = base.indent * scale;
    spacing.menu_margin = base.menu_margin * scale;
    spacing.window_margin = base.window_margin * scale;
    // A popup measures itself within this on the frame it opens: egui's 400 points cut the
    // Resolve picker's list of every mechanic short (the screen still bounds it).
    spacing.default_area_size.y = 1200.0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn army_morale_turns_amber_then_red_as_it_falls() {
        // Armour Battles sides start at 9 Army Morale Points (Lorraine Battle 1).
        let at = |left: f32| Status::of_remaining(left / 9.0);
        assert_eq!(at(9.0), Status::Ok);
        assert_eq!(at(5.0), Status::Ok);
        assert_eq!(at(4.0), Status::Warning);
        assert_eq!(at(3.0), Status::Warning);
        assert_eq!(at(2.0), Status::Danger);
        assert_eq!(at(0.0), Status::Danger);
    }

    #[test]
    fn table_mode_scales_the_type_and_the_steps_alike() {
        let t = Tokens {
            palette: Palette::LIGHT,
            scale: TABLE_SCALE,
        };
        assert!((t.body() - BODY * TABLE_SCALE).abs() < 1e-6);
        assert!((t.headline() - HEADLINE * TABLE_SCALE).abs() < 1e-6);
        assert!((t.gap(Gap::M) - 8.0 * TABLE_SCALE).abs() < 1e-6);
    }
}
