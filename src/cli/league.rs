//! `quartermaster league FOLDER [--json]`: the league table of a club's folder of campaigns.
//!
//! Reads the folder only ([`crate::sync::league`]); needs no library, so it runs on any
//! machine the folder reaches.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

use super::{EXIT_OK, EXIT_PROBLEM, print_json};
use crate::campaign::league::{self, CampaignEntry, HOUSE_DEFAULTS, League, PlayerRow};
use crate::sync::league::{Skipped, read_league_folder};

/// The `--json` document (README: "league").
#[derive(Serialize)]
struct LeagueJson<'a> {
    players: &'a [PlayerRow],
    campaigns: &'a [CampaignEntry],
    skipped: &'a [Skipped],
    house_defaults: &'a [&'static str],
}

/// Spaces between columns: enough to tell them apart in a terminal without a border.
const GAP: usize = 2;

/// Prints the league of `folder`. Exit 0 when a campaign was read or the folder holds none;
/// [`EXIT_PROBLEM`] when it holds campaign files and none could be read.
///
/// # Errors
/// The folder cannot be read (the message names it).
pub fn run(folder: &Path, json: bool, out: &mut dyn Write) -> Result<u8> {
    let read = read_league_folder(folder)
        .with_context(|| format!("cannot draw the league of {}", folder.display()))?;
    let table = league::rank(&read.sources);
    if json {
        print_json(
            out,
            &LeagueJson {
                players: &table.players,
                campaigns: &table.campaigns,
                skipped: &read.skipped,
                house_defaults: &HOUSE_DEFAULTS,
            },
        )?;
    } else {
        print_text(&table, &read.skipped, out)?;
    }
    let nothing_read = read.sources.is_empty() && !read.skipped.is_empty();
    Ok(if nothing_read { EXIT_PROBLEM } else { EXIT_OK })
}

fn print_text(table: &League, skipped: &[Skipped], out: &mut dyn Write) -> Result<()> {
    let rows: Vec<[String; 9]> = table.players.iter().map(cells).collect();
    let widths: Vec<usize> = (0..league::COLUMNS.len())
        .map(|c| {
            rows.iter()
                .map(|r| r[c].chars().count())
                .chain([league::COLUMNS[c].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let header = league::COLUMNS.map(str::to_string);
    for row in std::iter::once(&header).chain(&rows) {
        let line: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, width)| format!("{cell:<width$}"))
            .collect();
        writeln!(out, "{}", line.join(&" ".repeat(GAP)).trim_end())?;
    }
    if rows.is_empty() {
        writeln!(out, "(no finished battles to rank)")?;
    }
    writeln!(
        out,
        "{} read.",
        crate::rules::words::amount(table.campaigns.len() as u64, "campaigns")
    )?;
    for s in skipped {
        writeln!(out, "Skipped: {}: {}", s.file, s.reason)?;
    }
    for note in HOUSE_DEFAULTS {
        writeln!(out, "Note: {note}")?;
    }
    Ok(())
}

fn cells(row: &PlayerRow) -> [String; 9] {
    [
        row.rank.to_string(),
        row.player.clone(),
        row.played.to_string(),
        row.won.to_string(),
        row.drawn.to_string(),
        row.lost.to_string(),
        row.points.to_string(),
        row.measure
            .map_or_else(|| "–".to_string(), |m| m.to_string()),
        row.campaigns.join(", "),
    ]
}
