//! The two palettes, light and dark: the only place in the window where a colour is written
//! as numbers. Every text colour here is checked against the backgrounds it is drawn on by
//! `contrast::tests` (4.5:1 for text, 3:1 for bars and large figures), so a change that makes
//! a warning unreadable fails a test rather than a game night.

use egui::Color32;

use super::{Palette, Swatch};

const fn rgb(hex: u32) -> Color32 {
    Color32::from_rgb((hex >> 16) as u8, (hex >> 8) as u8, hex as u8)
}

const fn swatch(text: u32, fill: u32, bar: u32) -> Swatch {
    Swatch {
        text: rgb(text),
        fill: rgb(fill),
        bar: rgb(bar),
    }
}

/// Light: egui's near-white panels with dark, saturated status words.
pub const LIGHT: Palette = Palette {
    dark: false,
    panel: rgb(0xF8F8F8),
    window: rgb(0xFFFFFF),
    track: rgb(0xE4E4E4),
    text: rgb(0x1C1C1C),
    weak_text: rgb(0x5E6167),
    accent: swatch(0x0B3D6E, 0xBFDBFA, 0x3775D0),
    ok: swatch(0x1C6B33, 0xDDF2E2, 0x2F8F4A),
    warning: swatch(0x7F4D00, 0xFBEBCB, 0xB07400),
    danger: swatch(0xA11F17, 0xFBE0DC, 0xCF3A2D),
    inactive: swatch(0x5E6167, 0xE9EAEC, 0x7A8087),
    info: swatch(0x1A5AA3, 0xDDEAFB, 0x3775D0),
    // Blue against orange: apart for every common colour blindness, on both themes.
    first: swatch(0x1A5AA3, 0xDDEAFB, 0x3775D0),
    second: swatch(0x8F4300, 0xFCE5D0, 0xC0641A),
};

/// Dark: egui's charcoal panels with light, softened status words.
pub const DARK: Palette = Palette {
    dark: true,
    panel: rgb(0x1B1B1B),
    window: rgb(0x222222),
    track: rgb(0x3A3A3A),
    text: rgb(0xE6E6E6),
    weak_text: rgb(0xA3A3A3),
    accent: swatch(0xFFFFFF, 0x245A99, 0x4C8DF0),
    ok: swatch(0x7DDA92, 0x1D3A25, 0x44A85E),
    warning: swatch(0xF2C14E, 0x3D2E0E, 0xD29A12),
    danger: swatch(0xFF8F85, 0x4A1E1A, 0xE04A3D),
    inactive: swatch(0xA3A7AD, 0x2C2F33, 0x8A8F95),
    info: swatch(0x8DBBFF, 0x1A2E4C, 0x4C8DF0),
    first: swatch(0x8DBBFF, 0x1A2E4C, 0x4C8DF0),
    second: swatch(0xFFB46E, 0x45290F, 0xE08A35),
};
