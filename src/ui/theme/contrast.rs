//! Contrast between a colour and the one behind it, as WCAG 2 measures it (relative
//! luminance of sRGB), and the list of every pair the theme draws, so a test holds each
//! palette to 4.5:1 for text and 3:1 for large figures and bars.

use egui::Color32;

use super::{Palette, Player, Status};

/// How a pair is read, and so the contrast it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Body and small text: 4.5:1.
    Text,
    /// Headline figures (18 points and up) and bars against their track: 3:1.
    Large,
}

impl Kind {
    pub fn minimum(self) -> f64 {
        match self {
            Kind::Text => 4.5,
            Kind::Large => 3.0,
        }
    }
}

/// One foreground drawn on one background, named for the report when it falls short.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    pub what: String,
    pub front: Color32,
    pub back: Color32,
    pub kind: Kind,
}

/// The relative luminance of an sRGB colour (alpha ignored: the palette is opaque).
pub fn luminance(colour: Color32) -> f64 {
    let linear = |channel: u8| {
        let c = f64::from(channel) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * linear(colour.r()) + 0.7152 * linear(colour.g()) + 0.0722 * linear(colour.b())
}

/// The contrast ratio of two colours, 1 (none) to 21 (black on white), in either order.
pub fn ratio(a: Color32, b: Color32) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// Every text-on-background and bar-on-background pair `palette` is drawn with.
pub fn pairs(palette: &Palette) -> Vec<Pair> {
    let mut pairs = Vec::new();
    let mut add = |what: String, front, back, kind| {
        pairs.push(Pair {
            what,
            front,
            back,
            kind,
        })
    };
    for (name, back) in [("panel", palette.panel), ("window", palette.window)] {
        add(format!("text on {name}"), palette.text, back, Kind::Text);
        add(
            format!("weak text on {name}"),
            palette.weak_text,
            back,
            Kind::Text,
        );
    }
    add(
        "accent text on accent".into(),
        palette.accent.text,
        palette.accent.fill,
        Kind::Text,
    );
    add(
        "accent icon on window".into(),
        palette.accent.bar,
        palette.window,
        Kind::Large,
    );
    let swatches = Status::ALL
        .iter()
        .map(|s| (format!("{s:?}"), palette.status(*s)))
        .chain(
            [Player::First, Player::Second].map(|p| (format!("{p:?} player"), palette.player(p))),
        );
    for (name, swatch) in swatches {
        add(
            format!("{name} text on panel"),
            swatch.text,
            palette.panel,
            Kind::Text,
        );
        add(
            format!("{name} text on window"),
            swatch.text,
            palette.window,
            Kind::Text,
        );
        add(
            format!("{name} text on its fill"),
            swatch.text,
            swatch.fill,
            Kind::Text,
        );
        add(
            format!("{name} bar on panel"),
            swatch.bar,
            palette.panel,
            Kind::Large,
        );
        add(
            format!("{name} bar on its fill"),
            swatch.bar,
            swatch.fill,
            Kind::Large,
        );
        add(
            format!("body text on {name} fill"),
            palette.text,
            swatch.fill,
            Kind::Text,
        );
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn black_on_white_is_21_and_a_colour_on_itself_is_1() {
        assert!((ratio(Color32::BLACK, Color32::WHITE) - 21.0).abs() < 1e-9);
        assert!((ratio(Color32::WHITE, Color32::BLACK) - 21.0).abs() < 1e-9);
        let grey = Color32::from_gray(119);
        assert!((ratio(grey, grey) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn the_wcag_example_grey_on_white_is_4_48() {
        // #777777 on white is the classic just-failing grey: (1.05) / (0.1845 + 0.05) ≈ 4.48.
        let r = ratio(Color32::from_gray(0x77), Color32::WHITE);
        assert!((r - 4.48).abs() < 0.01, "{r}");
    }

    #[test]
    fn every_pair_of_both_themes_is_readable() {
        let mut short = Vec::new();
        for (theme, palette) in [("light", Palette::LIGHT), ("dark", Palette::DARK)] {
            let pairs = pairs(&palette);
            assert!(pairs.len() > 40, "{theme}: every swatch is listed");
            for pair in pairs {
                let r = ratio(pair.front, pair.back);
                if r < pair.kind.minimum() {
                    short.push(format!("{theme}: {} is {r:.2}:1", pair.what));
                }
            }
        }
        assert!(short.is_empty(), "below the minimum:\n{}", short.join("\n"));
    }

    #[test]
    fn the_two_players_and_the_five_statuses_differ_on_each_theme() {
        for palette in [Palette::LIGHT, Palette::DARK] {
            assert_ne!(palette.first.text, palette.second.text);
            let mut bars: Vec<Color32> =
                Status::ALL.iter().map(|s| palette.status(*s).bar).collect();
            bars.sort_by_key(|c| c.to_array());
            bars.dedup();
            // Info and the first player may share blue; the five meanings may not.
            assert_eq!(bars.len(), Status::ALL.len());
        }
    }
}
