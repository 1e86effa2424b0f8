//! The one text form of a [`Report`], for every ruleset and mechanic (the JSON form is the
//! serialised report itself).

use std::io::Write;

use anyhow::Result;

use crate::rules::resolution::{Distribution, Report, Source, Value};

/// Widest label column: longer labels push their value further right.
const MAX_LABEL: usize = 56;

/// Chances below this at the end of a distribution are summed into one line (the JSON keeps
/// every outcome): forty lines of "<0.1%" would hide the ones that matter.
const NEGLIGIBLE: f64 = 0.0005;

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// "  (1/6)" for small exact fractions, nothing when the numbers get unreadable.
fn fraction(weight: u128, total: u128) -> String {
    let g = gcd(weight, total).max(1);
    let (w, t) = (weight / g, total / g);
    if t <= 1_000_000 {
        format!("  ({w}/{t})")
    } else {
        String::new()
    }
}

const HOUSE: &str = "  (house default)";

fn write_distribution(out: &mut dyn Write, d: &Distribution) -> Result<()> {
    let house = if d.house_default { HOUSE } else { "" };
    writeln!(out, "{}:{house}", d.label)?;
    // The last outcome worth its own line: later ones together stay under NEGLIGIBLE.
    let last = (0..d.outcomes.len())
        .rev()
        .find(|&i| d.at_least(i) >= NEGLIGIBLE)
        .unwrap_or(d.outcomes.len().saturating_sub(1));
    for (i, o) in d.outcomes.iter().enumerate().take(last + 1) {
        // The first outcome's "at least" is always 100 %: said only from the second on.
        let at_least = match (d.counts, o.value) {
            (true, Some(n)) if i > 0 => format!("  at least {n}: {}", d.at_least_text(i)),
            _ => String::new(),
        };
        // Sampled counts are not exact fractions: an estimate shows none.
        let fraction = if d.estimate {
            String::new()
        } else {
            fraction(o.weight, d.total)
        };
        writeln!(
            out,
            "  {:<30} {:>8}{fraction}{at_least}",
            o.label,
            d.chance_text(i),
        )?;
    }
    let rest = d.outcomes.len() - (last + 1);
    if rest > 0 {
        writeln!(
            out,
            "  {:<30} {:>8}",
            format!(
                "{rest} more, {} to {}",
                d.outcomes[last + 1].label,
                d.outcomes[d.outcomes.len() - 1].label
            ),
            d.at_least_text(last + 1)
        )?;
    }
    Ok(())
}

/// Writes `report` as text.
pub fn write_text(out: &mut dyn Write, report: &Report) -> Result<()> {
    writeln!(out, "{}", report.title)?;
    if let Some(reason) = &report.no_result {
        writeln!(out, "{reason}")?;
        return Ok(());
    }
    // A row of chances (Armour Battles `disruption`) is for scripts: its distribution is
    // written below, as the window draws it.
    let values = || {
        report
            .values
            .iter()
            .filter(|v| !matches!(v.value, Value::Probabilities(_)))
    };
    let width = values()
        .filter(|v| !matches!(v.value, Value::Text(_)))
        .map(|v| v.label.chars().count())
        .max()
        .unwrap_or(0)
        .min(MAX_LABEL);
    for v in values() {
        let house = if v.house_default { HOUSE } else { "" };
        match &v.value {
            Value::Text(text) => writeln!(out, "  {}: {text}{house}", v.label)?,
            _ => writeln!(out, "  {:<width$} {:>8}{house}", v.label, v.text())?,
        }
    }
    for d in &report.distributions {
        write_distribution(out, d)?;
    }
    let header = match (report.source, report.seed) {
        (Some(Source::Table), _) if !report.dice.is_empty() => {
            Some("Dice (rolled at the table):".to_string())
        }
        (_, Some(seed)) => Some(format!("Dice (seed {seed}):")),
        _ => None,
    };
    if let Some(header) = header {
        writeln!(out, "{header}")?;
        for d in &report.dice {
            let faces: Vec<String> = d.dice.iter().map(u8::to_string).collect();
            // A seeded roll says its number within the seed, so it can be replayed alone.
            let number = match d.source {
                Source::Seed => format!("  (roll {})", d.index),
                Source::Table => String::new(),
            };
            writeln!(
                out,
                "  {:<36} {}×d{} [{}]{number}",
                d.purpose,
                d.dice.len(),
                d.sides,
                faces.join(", "),
            )?;
        }
    }
    if !report.result.is_empty() {
        writeln!(out, "Result:")?;
        for line in &report.result {
            writeln!(out, "  {line}")?;
        }
    }
    if !report.notes.is_empty() {
        writeln!(out, "Notes:")?;
        for note in &report.notes {
            writeln!(out, "  {note}")?;
        }
    }
    if !report.house_defaults.is_empty() {
        writeln!(out, "House defaults (RULINGS):")?;
        for h in &report.house_defaults {
            writeln!(out, "  • {}", h.ruling)?;
        }
    }
    Ok(())
}
