//! `quartermaster db torture` (hidden): the child process of the crash test.
//!
//! Saves random forces of every ruleset in a loop, new ones and replacements of earlier ones.
//! Before each save it appends an `intent` line holding the force file; after `save_force`
//! returns it appends an `ack` line. Each line is written in one call and synced, so after a
//! SIGKILL the log says exactly which saves were acknowledged.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use serde_json::json;

use super::EXIT_OK;
use crate::rules::ruleset::LineValue;
use crate::rules::{self, Budget, CardRef, Force, ForceUnit, RulesetId, force_file};
use crate::store::{ForceId, Store};

/// Campaign mode: plays Lorraine battles with the scripted player, one campaign after
/// another, logging an `ack` line (campaign, battle, seq and the event) after each event is
/// recorded. A campaign named `crash {seed}` is resumed where its log ends, so a later run
/// continues the battle a kill interrupted.
pub fn run_campaign(dir: &Path, log_path: &Path, seed: u64, count: Option<u64>) -> Result<u8> {
    use crate::campaign::{self, CampaignRecord, LorraineOptions, Sides};

    let (mut store, mut log) = open_both(dir, log_path)?;
    let name = format!("crash {seed}");
    let mut stored = match store.find_campaign(&name)? {
        Some(id) => store.load_campaign(id)?,
        None => {
            let created =
                campaign::new_lorraine(&name, Sides::default(), LorraineOptions::default())?;
            store.create_campaign_record(&CampaignRecord::new(
                crate::store::new_campaign_uid(),
                created,
            ))?
        }
    };
    let mut recorded = 0u64;
    // The dice come from each event's place in its battle (the campaign's id is new each run).
    let by = store.recorder()?;
    for index in 0..stored.record.campaign.battles.len() {
        if stored.record.campaign.battles[index]
            .board_setup()
            .is_none()
        {
            continue;
        }
        let battle = stored.battle_ids[index];
        loop {
            if count.is_some_and(|count| recorded >= count) {
                return Ok(EXIT_OK);
            }
            let Some(event) = stored.record.scripted(index, &by)? else {
                break;
            };
            let at = stored.record.next_position(index)?;
            let logged = store.record_event(battle, at, &event)?;
            append(
                &mut log,
                &json!({"op": "ack", "campaign": name, "battle": index, "seq": logged.seq, "event": logged.event}),
            )?;
            stored.record.add(index, logged)?;
            recorded += 1;
        }
    }
    Ok(EXIT_OK)
}

/// The database and the append-only acknowledgement log.
fn open_both(dir: &Path, log_path: &Path) -> Result<(Store, std::fs::File)> {
    let store = Store::open(dir)
        .with_context(|| format!("cannot open the database in {}", dir.display()))?;
    let log = OpenOptions::new()
        .create(true)
        .append(true)
        .open(log_path)
        .with_context(|| format!("cannot open {}", log_path.display()))?;
    Ok((store, log))
}

pub fn run(dir: &Path, log_path: &Path, seed: u64, count: Option<u64>) -> Result<u8> {
    let (mut store, mut log) = open_both(dir, log_path)?;
    let mut rng = SplitMix(seed);
    let mut saved: Vec<(ForceId, String)> = Vec::new();
    let mut seq = 0u64;
    while count.is_none_or(|count| seq < count) {
        let target =
            (!saved.is_empty() && rng.below(3) == 0).then(|| saved[rng.below(saved.len())].clone());
        let (id, name) = match &target {
            Some((id, name)) => (Some(*id), name.clone()),
            None => (None, format!("torture {seed}-{seq}")),
        };
        let force = random_force(&mut rng, &name);
        let text = force_file::to_json(&force);
        append(
            &mut log,
            &json!({"op": "intent", "seq": seq, "name": name, "force": text}),
        )?;
        let saved_id = store.save_force(id, &force)?;
        append(&mut log, &json!({"op": "ack", "seq": seq, "id": saved_id}))?;
        if target.is_none() {
            saved.push((saved_id, name));
        }
        seq += 1;
    }
    Ok(EXIT_OK)
}

/// Appends one line in one write and syncs it.
fn append(log: &mut std::fs::File, value: &serde_json::Value) -> Result<()> {
    let mut line = value.to_string();
    line.push('\n');
    log.write_all(line.as_bytes())?;
    log.sync_data()?;
    Ok(())
}

/// A force of a random ruleset: library cards (some by short or lower-case name), inline cards,
/// groups, points and stands, and a budget of the ruleset's kind.
fn random_force(rng: &mut SplitMix, name: &str) -> Force {
    let ruleset = RulesetId::ALL[rng.below(RulesetId::ALL.len())];
    let rules = rules::ruleset(ruleset);
    let library = rules.library();
    let budget = match rules.default_budget() {
        Budget::Points(_) => Budget::Points(rng.below(2000) as u32),
        Budget::TierPoints(_) => Budget::TierPoints(rng.below(60) as u32),
        Budget::BattleGroup(default) => {
            let groups = rules.named_budgets();
            groups
                .get(rng.below(groups.len().max(1)))
                .map_or(Budget::BattleGroup(default), |g| g.budget.clone())
        }
        other => other,
    };
    let lines = rng.below(12);
    let units = (0..lines)
        .filter_map(|i| {
            let card = library.get(rng.below(library.len().max(1)))?;
            let card_ref = match rng.below(5) {
                0 => CardRef::Inline(
                    renamed(card, &format!("{} Mk {i}", card.name()))
                        .unwrap_or_else(|| card.clone()),
                ),
                1 => CardRef::Library(card.name().to_lowercase()),
                _ => CardRef::Library(card.name().to_string()),
            };
            let count = 1 + rng.below(6) as u32;
            let group = (rng.below(2) == 0).then(|| format!("Group {}", rng.below(4)));
            let (points, stands) = match rules.line_field().map(|f| f.value) {
                Some(LineValue::Points) => (Some(20 + rng.below(300) as u32), None),
                Some(LineValue::Stands) => {
                    (None, (rng.below(2) == 0).then(|| 1 + rng.below(6) as u32))
                }
                None => (None, None),
            };
            Some(ForceUnit {
                card: card_ref,
                count,
                group,
                points,
                stands,
            })
        })
        .collect();
    Force {
        ruleset,
        name: name.to_string(),
        budget,
        units,
        notes: "x".repeat(rng.below(300)),
    }
}

fn renamed(card: &rules::Card, name: &str) -> Option<rules::Card> {
    let mut fields = card.to_inline_json();
    fields.as_object_mut()?.insert("name".into(), json!(name));
    rules::ruleset(card.ruleset())
        .parse_inline_card(&fields, "card")
        .ok()
}

/// SplitMix64: a tiny, good-enough generator for test data; not for dice.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        (self.next() % n as u64) as usize
    }
}
