//! What reaches the terminal: user text can hold anything (a force named with ESC sequences can
//! clear the screen or retitle the window, a CR can overwrite what was printed), so every byte
//! the command line prints goes through [`Escaping`], and error lines are cut to a readable
//! length.
//!
//! JSON output is unaffected in practice: serde_json already escapes control characters inside
//! strings, and its own layout uses only newlines and spaces.

use std::fmt;
use std::io::{self, Write};

/// Longest error line printed, in characters; the rest is cut with "…".
pub const MAX_ERROR_CHARS: usize = 600;

/// An error and its causes on one line, each cause said once: errors that already quote their
/// cause in their own message (an I/O error's "File exists") would otherwise print it twice
/// under `{:#}`.
pub fn error_line(error: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

/// A writer that shows control characters as escapes (`\x1b`, `\r`, `\u{9b}`), keeping
/// newlines and tabs. Works on bytes: C0 controls and DEL are single bytes in UTF-8, C1
/// controls are the two bytes `C2 80`–`C2 9F` (a `C2` split across writes is held back).
pub struct Escaping<'a> {
    inner: &'a mut dyn Write,
    /// A 0xC2 byte whose follower has not been written yet.
    pending_c2: bool,
}

impl<'a> Escaping<'a> {
    pub fn new(inner: &'a mut dyn Write) -> Self {
        Self {
            inner,
            pending_c2: false,
        }
    }
}

impl Write for Escaping<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut shown = Vec::with_capacity(buf.len());
        for &byte in buf {
            if std::mem::take(&mut self.pending_c2) {
                if (0x80..=0x9f).contains(&byte) {
                    shown.extend_from_slice(format!("\\u{{{byte:x}}}").as_bytes());
                    continue;
                }
                shown.push(0xc2);
            }
            match byte {
                0xc2 => self.pending_c2 = true,
                b'\n' | b'\t' => shown.push(byte),
                b'\r' => shown.extend_from_slice(b"\\r"),
                0x00..=0x1f | 0x7f => shown.extend_from_slice(format!("\\x{byte:02x}").as_bytes()),
                _ => shown.push(byte),
            }
        }
        self.inner.write_all(&shown)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if std::mem::take(&mut self.pending_c2) {
            self.inner.write_all(&[0xc2])?;
        }
        self.inner.flush()
    }
}

impl Drop for Escaping<'_> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

/// `text` cut to `max` characters with "…" at the end when longer.
pub struct Cut<'a>(pub &'a str, pub usize);

impl fmt::Display for Cut<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Cut(text, max) = *self;
        match text.char_indices().nth(max) {
            Some((end, _)) => {
                let keep = text[..end]
                    .char_indices()
                    .nth(max.saturating_sub(1))
                    .map_or(end, |(i, _)| i);
                write!(
                    f,
                    "{}… ({} characters cut)",
                    &text[..keep],
                    text[keep..].chars().count()
                )
            }
            None => f.write_str(text),
        }
    }
}

/// True when `error` comes from writing into a closed pipe (`quartermaster force list | head`):
/// the reader has all it wanted, which is not a failure.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        let io = cause.downcast_ref::<io::Error>().map(io::Error::kind);
        // serde_json wraps the write error without exposing it as a source.
        let json = cause
            .downcast_ref::<serde_json::Error>()
            .and_then(serde_json::Error::io_error_kind);
        io.or(json) == Some(io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &[u8]) -> String {
        let mut out = Vec::new();
        {
            let mut w = Escaping::new(&mut out);
            for chunk in text.chunks(3) {
                w.write_all(chunk).unwrap();
            }
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn escape_sequences_bell_and_carriage_return_are_shown_not_obeyed() {
        assert_eq!(
            shown("Kampf\u{1b}]0;pwned\u{7}gruppe\r\n".as_bytes()),
            "Kampf\\x1b]0;pwned\\x07gruppe\\r\n"
        );
        assert_eq!(shown(b"a\0b\x7f\tc"), "a\\x00b\\x7f\tc");
    }

    #[test]
    fn c1_controls_are_escaped_and_other_text_is_kept_across_write_boundaries() {
        assert_eq!(shown("ab\u{9b}2J".as_bytes()), "ab\\u{9b}2J");
        assert_eq!(
            shown("Sturmgeschütz Ä ½ 🙂".as_bytes()),
            "Sturmgeschütz Ä ½ 🙂"
        );
        assert_eq!(shown("xy\u{a0}".as_bytes()), "xy\u{a0}");
    }

    #[test]
    fn long_text_is_cut_with_an_ellipsis() {
        assert_eq!(Cut("short", 10).to_string(), "short");
        let long = "é".repeat(1000);
        let cut = Cut(&long, 10).to_string();
        assert!(cut.starts_with(&"é".repeat(9)), "{cut}");
        assert!(cut.contains("… (991 characters cut)"), "{cut}");
    }
}
