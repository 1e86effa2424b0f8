//! A unit as an army list prices it: its own cost, the variant it is fielded as (Bolt Action's
//! quality), the options taken with their counts, and the limits the data sets. Ruleset-free:
//! a card carrying an [`ArmyEntry`] is priced, checked, written as text and re-priced here.

use serde::{Deserialize, Serialize};

/// Which imported file, at which revision, a card or a force organisation came from.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataRef {
    /// BattleScribe's id of the catalogue or game system: the same in every revision.
    pub id: String,
    /// "US Army".
    pub name: String,
    pub revision: u32,
}

impl DataRef {
    /// "US Army r3", as lists and change lists name a revision.
    pub fn label(&self) -> String {
        format!("{} r{}", self.name, self.revision)
    }
}

/// A force organisation's category (its slot) a unit fills.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CategoryRef {
    pub id: String,
    pub name: String,
}

/// One of the ways a unit is fielded, exactly one of which is taken (Inexperienced, Regular,
/// Veteran), with what it adds to the unit's cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    pub name: String,
    pub cost: u32,
}

/// An option a unit may take: an upgrade, a weapon, extra men.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyOption {
    /// Unique within the unit: the data's entry id, after the variant's name for an option
    /// offered under one variant only.
    pub key: String,
    pub name: String,
    /// Cost of one pick.
    pub cost: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub min: u32,
    pub max: u32,
    /// The choice it belongs to ("Squad weapons"), if the data groups it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// How many of the group's options may be taken together.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_max: Option<u32>,
    /// Offered only with this variant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// Models each pick adds (extra men).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub models: u32,
    /// What each pick gives the unit (a weapon's name as its ruleset knows it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adds: Vec<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// An option taken, and how many times.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chosen {
    pub key: String,
    pub count: u32,
}

/// A unit from imported army data, as priced and as fielded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyEntry {
    pub source: DataRef,
    /// The data's id of the unit: the same in every revision.
    pub entry_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<CategoryRef>,
    /// The unit's own cost, before its variant and options.
    pub cost: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<Variant>,
    /// The variant taken (one of `variants`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<ArmyOption>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chosen: Vec<Chosen>,
    /// Most of this unit a force may hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_in_force: Option<u32>,
    /// Models before options.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub models: u32,
    /// What the unit always carries (weapons), before options.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carries: Vec<String>,
}

impl ArmyEntry {
    /// The cost of one unit as fielded: its own, its variant's and each option taken.
    pub fn price(&self) -> u64 {
        let variant = self.variant().map_or(0, |v| u64::from(v.cost));
        let options: u64 = self
            .chosen
            .iter()
            .filter_map(|c| Some(u64::from(self.option(&c.key)?.cost) * u64::from(c.count)))
            .sum();
        u64::from(self.cost) + variant + options
    }

    /// The variant taken, if the data offers variants.
    pub fn variant(&self) -> Option<&Variant> {
        let name = self.variant.as_deref()?;
        self.variants.iter().find(|v| v.name == name)
    }

    pub fn option(&self, key: &str) -> Option<&ArmyOption> {
        self.options.iter().find(|o| o.key == key)
    }

    /// Options offered with the variant taken, in the data's order.
    pub fn offered(&self) -> impl Iterator<Item = &ArmyOption> {
        self.options
            .iter()
            .filter(|o| o.variant.is_none() || o.variant == self.variant)
    }

    /// How many times option `key` is taken.
    pub fn count_of(&self, key: &str) -> u32 {
        self.chosen
            .iter()
            .find(|c| c.key == key)
            .map_or(0, |c| c.count)
    }

    /// Models as fielded: the unit's own and those its options add.
    pub fn model_count(&self) -> u32 {
        self.chosen
            .iter()
            .filter_map(|c| Some(self.option(&c.key)?.models * c.count))
            .fold(self.models, u32::saturating_add)
    }

    /// What the unit carries as fielded: its own, then what each option taken adds.
    pub fn carried(&self) -> Vec<String> {
        let mut all = self.carries.clone();
        for chosen in &self.chosen {
            if let Some(option) = self.option(&chosen.key) {
                for item in &option.adds {
                    if !all.contains(item) {
                        all.push(item.clone());
                    }
                }
            }
        }
        all
    }

    /// Takes variant `name`; options taken under the old variant move to the new one's
    /// option of the same name, where it has one.
    ///
    /// # Errors
    /// The variants there are, when `name` is not one.
    pub fn set_variant(&mut self, name: &str) -> Result<(), String> {
        let Some(variant) = self
            .variants
            .iter()
            .find(|v| v.name.eq_ignore_ascii_case(name.trim()))
        else {
            return Err(format!(
                "this unit is not offered as \"{}\" in {} (only {})",
                name.trim(),
                self.source.label(),
                self.variants
                    .iter()
                    .map(|v| v.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        };
        let new = variant.name.clone();
        let old_chosen = std::mem::take(&mut self.chosen);
        self.variant = Some(new);
        for chosen in old_chosen {
            let Some(name) = self.option(&chosen.key).map(|o| o.name.clone()) else {
                continue;
            };
            if let Some(key) = self.offered_named(&name).map(|o| o.key.clone()) {
                self.chosen.push(Chosen {
                    key,
                    count: chosen.count,
                });
            }
        }
        Ok(())
    }

    fn offered_named(&self, name: &str) -> Option<&ArmyOption> {
        self.offered()
            .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
    }

    /// Takes option `key` `count` times (0 drops it). Counts past the option's limit are
    /// kept and reported by [`ArmyEntry::problems`], so a typed list is never silently changed.
    pub fn set_option(&mut self, key: &str, count: u32) {
        self.chosen.retain(|c| c.key != key);
        if count > 0 {
            let at = self
                .options
                .iter()
                .position(|o| o.key == key)
                .unwrap_or(usize::MAX);
            // Kept in the data's order, so the text and the card list options as the data does.
            let place = self.chosen.partition_point(|c| {
                self.options
                    .iter()
                    .position(|o| o.key == c.key)
                    .unwrap_or(usize::MAX)
                    < at
            });
            self.chosen.insert(
                place,
                Chosen {
                    key: key.to_string(),
                    count,
                },
            );
        }
    }

    /// What the data does not allow in the unit as fielded, in plain words with the fix.
    pub fn problems(&self, unit: &str) -> Vec<String> {
        let mut problems = Vec::new();
        let source = self.source.label();
        if !self.variants.is_empty() && self.variant().is_none() {
            problems.push(format!(
                "{unit}: choose one of {} ({source})",
                self.variants
                    .iter()
                    .map(|v| v.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        for chosen in &self.chosen {
            match self.option(&chosen.key) {
                None => problems.push(format!(
                    "{unit}: an option {source} does not have — remove it or re-price the force"
                )),
                Some(o) if o.variant.is_some() && o.variant != self.variant => {
                    problems.push(format!(
                        "{unit}: {} is offered only as {} ({source})",
                        o.name,
                        o.variant.as_deref().unwrap_or_default()
                    ))
                }
                Some(o) if chosen.count > o.max => problems.push(format!(
                    "{unit}: {} × {} — {source} allows {}",
                    chosen.count, o.name, o.max
                )),
                Some(_) => {}
            }
        }
        for option in self.offered() {
            let count = self.count_of(&option.key);
            if count < option.min {
                problems.push(format!(
                    "{unit}: needs at least {} × {} ({source})",
                    option.min, option.name
                ));
            }
        }
        let mut groups: Vec<(&str, u32, u32)> = Vec::new();
        for option in self.offered() {
            let (Some(group), Some(max)) = (option.group.as_deref(), option.group_max) else {
                continue;
            };
            let count = self.count_of(&option.key);
            match groups.iter_mut().find(|(g, _, _)| *g == group) {
                Some(entry) => entry.2 += count,
                None => groups.push((group, max, count)),
            }
        }
        for (group, max, count) in groups {
            if count > max {
                problems.push(format!(
                    "{unit}: {count} picks of {group} — {source} allows {max}"
                ));
            }
        }
        problems
    }

    /// The unit as fielded in words, as a list shows it: "Veteran; 3 × Extra man; LMG".
    pub fn words(&self) -> String {
        let mut parts: Vec<String> = self.variant.iter().cloned().collect();
        for chosen in &self.chosen {
            let name = self
                .option(&chosen.key)
                .map_or(chosen.key.as_str(), |o| o.name.as_str());
            parts.push(if chosen.count == 1 {
                name.to_string()
            } else {
                format!("{} × {name}", chosen.count)
            });
        }
        parts.join("; ")
    }

    /// Reads [`ArmyEntry::words`] back onto a copy of this entry: a variant's name, and
    /// options by name with an optional count ("3 × Extra man", "Extra man x3", "3 Extra man").
    ///
    /// # Errors
    /// The first part that names neither a variant nor an option, with what there is.
    pub fn with_words(&self, text: &str) -> Result<ArmyEntry, String> {
        let mut entry = self.clone();
        entry.chosen.clear();
        let parts: Vec<&str> = text
            .split([';', ','])
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect();
        // The variant first: options offered depend on it.
        for part in &parts {
            if entry
                .variants
                .iter()
                .any(|v| v.name.eq_ignore_ascii_case(part))
            {
                entry.set_variant(part)?;
            }
        }
        for part in parts {
            if entry
                .variants
                .iter()
                .any(|v| v.name.eq_ignore_ascii_case(part))
            {
                continue;
            }
            let (count, name) = split_count(part);
            let Some(key) = entry.offered_named(name).map(|o| o.key.clone()) else {
                let names: Vec<&str> = entry.offered().map(|o| o.name.as_str()).collect();
                return Err(format!(
                    "\"{name}\" is not an option of this unit in {} (options: {})",
                    entry.source.label(),
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                ));
            };
            let count = count + entry.count_of(&key);
            entry.set_option(&key, count);
        }
        Ok(entry)
    }

    /// This unit as priced by `newer` (the same unit in a later revision): the variant and
    /// options taken carried over by name, and what could not be, in words.
    pub fn repriced(&self, newer: &ArmyEntry) -> (ArmyEntry, Vec<String>) {
        let mut entry = newer.clone();
        entry.chosen.clear();
        entry.variant = newer.variant.clone();
        let mut lost = Vec::new();
        if let Some(variant) = &self.variant
            && entry.set_variant(variant).is_err()
        {
            lost.push(format!("{variant} is no longer offered"));
        }
        for chosen in &self.chosen {
            let Some(old) = self.option(&chosen.key) else {
                continue;
            };
            match entry
                .offered_named(&old.name)
                .map(|o| (o.key.clone(), o.max))
            {
                Some((key, max)) => {
                    if chosen.count > max {
                        lost.push(format!(
                            "{}: {} → {max} (the new limit)",
                            old.name, chosen.count
                        ));
                    }
                    entry.set_option(&key, chosen.count.min(max));
                }
                None => lost.push(format!("option removed: {}", old.name)),
            }
        }
        (entry, lost)
    }

    /// What a later revision changes for this unit as fielded, in words ("195 → 200 pts",
    /// "option removed: Pintle MG", "Pintle MG: 15 → 20 pts"); empty when nothing does.
    pub fn changes(&self, newer: &ArmyEntry) -> Vec<String> {
        let (repriced, lost) = self.repriced(newer);
        let mut changes = Vec::new();
        let (old, new) = (self.price(), repriced.price());
        if old != new {
            changes.push(format!("{old} → {new} pts"));
        }
        changes.extend(lost);
        for chosen in &self.chosen {
            let Some(old) = self.option(&chosen.key) else {
                continue;
            };
            if let Some(now) = repriced.offered_named(&old.name)
                && now.cost != old.cost
            {
                changes.push(format!(
                    "{}: {} → {} pts each",
                    old.name, old.cost, now.cost
                ));
            }
        }
        changes
    }
}

/// "3 × Extra man", "3x Extra man", "Extra man x3", "3 Extra man", "Extra man" → count, name.
fn split_count(part: &str) -> (u32, &str) {
    let digits = part.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0
        && let Ok(n) = part[..digits].parse::<u32>()
    {
        let rest = part[digits..].trim_start();
        let rest = rest
            .strip_prefix('×')
            .or_else(|| rest.strip_prefix("x "))
            .or_else(|| rest.strip_prefix("X "))
            .unwrap_or(rest);
        return (n, rest.trim());
    }
    for mark in [" ×", " x", " X"] {
        if let Some(at) = part.rfind(mark) {
            let tail = part[at + mark.len()..].trim();
            if let Ok(n) = tail.parse::<u32>() {
                return (n, part[..at].trim());
            }
        }
    }
    (1, part.trim())
}
