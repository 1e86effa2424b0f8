//! `quartermaster campaign next NAME`: the step between two battles of a campaign fought on a
//! board. The roster is carried by the ruleset's rules (and the experience house rule) in
//! `campaign::roster`; this prints what changes and, unless `--dry-run`, adds the battle.

use std::io::Write;
use std::path::Path;

use anyhow::{Result, anyhow, bail};
use serde_json::json;

use super::super::{EXIT_OK, print_json};
use super::{load, open};
use crate::campaign::roster::{Reinforcement, RosterChange, reinforcement};
use crate::campaign::{Sides, side_label};
use crate::rules::battle::Side;

/// What `campaign next` was given.
pub struct NextArgs<'a> {
    pub name: &'a str,
    pub battle: &'a str,
    pub promote_after: u32,
    pub reinforce: &'a [String],
    pub dry_run: bool,
    pub json: bool,
}

pub fn run(data_dir_arg: Option<&Path>, args: &NextArgs<'_>, out: &mut dyn Write) -> Result<u8> {
    let NextArgs {
        name,
        battle,
        promote_after,
        dry_run,
        json,
        ..
    } = *args;
    let mut store = open(data_dir_arg)?;
    // What the other machines wrote first, as `record` does: a battle another player set up a
    // moment ago is not set up twice (a fork at its start).
    let id = load(&store, name)?.id;
    if !dry_run {
        super::record::catch_up(&mut store, id, json, out)?;
    }
    let stored = store.load_campaign(id)?;
    let mut record = stored.record.clone();
    let own: Vec<crate::rules::Card> = store.custom_cards()?.into_iter().map(|(_, c)| c).collect();
    let mut bought: Sides<Vec<Reinforcement>> = Sides::default();
    for text in args.reinforce {
        let (side, card) = text
            .split_once('=')
            .ok_or_else(|| anyhow!("--reinforce {text}: write it SIDE=CARD (first=Rifle Squad)"))?;
        let side = match side.trim().to_lowercase().as_str() {
            "first" | "us" => Side::First,
            "second" | "german" => Side::Second,
            other => bail!("--reinforce {text}: '{other}' is not a side: first or second"),
        };
        let (card, points) = match card.rsplit_once('@') {
            Some((card, points)) => (
                card,
                Some(points.trim().parse::<u64>().map_err(|_| {
                    anyhow!("--reinforce {text}: '{points}' is not a number of points")
                })?),
            ),
            None => (card, None),
        };
        bought.get_mut(side).push(reinforcement(
            record.campaign.ruleset,
            card.trim(),
            points,
            &own,
        )?);
    }
    let last = record
        .campaign
        .battles
        .len()
        .checked_sub(1)
        .ok_or_else(|| anyhow!("{name} has no battle yet"))?;
    let (plan, changes) = record.next_table_plan(last, battle, promote_after, &bought)?;
    let number = if dry_run {
        plan.number
    } else {
        let number = record.add_table_battle(plan.clone())?;
        let (_, setup) = store.add_campaign_battle(stored.id, &record.campaign)?;
        let index = record.campaign.battles.len() - 1;
        record.add(index, setup)?;
        number
    };
    if json {
        return print_json(
            out,
            &json!({
                "battle": number,
                "name": plan.name,
                "added": !dry_run,
                "promote_after": promote_after,
                "changes": changes,
                "units": plan.units,
            }),
        )
        .map(|()| EXIT_OK);
    }
    let verb = if dry_run { "would be" } else { "is" };
    writeln!(
        out,
        "Battle {number}: {} {verb} set up from the roster",
        plan.name
    )?;
    // The house rule on experience is said only where the ruleset has a ladder to climb.
    let promotes = crate::rules::battle::table::engine(plan.ruleset).is_ok_and(|e| e.promotes);
    print_changes(
        &record.campaign,
        &changes,
        if promotes { promote_after } else { 0 },
        out,
    )?;
    for (_, line) in crate::campaign::roster::budget_lines(&plan, record.campaign.budgets.as_ref())
    {
        writeln!(out, "  Roster: {line}")?;
    }
    Ok(EXIT_OK)
}

/// The changes side by side, the house rule's marked.
fn print_changes(
    campaign: &crate::campaign::Campaign,
    changes: &[RosterChange],
    promote_after: u32,
    out: &mut dyn Write,
) -> Result<()> {
    if changes.is_empty() {
        writeln!(out, "  Every unit comes as it was.")?;
    }
    for c in changes {
        let mark = if c.house_rule { " (house rule)" } else { "" };
        writeln!(
            out,
            "  {}: {} — {}{mark}",
            side_label(campaign, c.side),
            c.unit,
            c.change
        )?;
    }
    if promote_after > 0 {
        writeln!(
            out,
            "  House rule: a unit steps up its quality after {} (--promote-after 0 turns it off).",
            crate::rules::words::plural(
                u64::from(promote_after),
                "battle survived",
                "battles survived"
            )
        )?;
    }
    Ok(())
}
