//! Bolt Action's reading of BattleScribe data: a catalogue's units as Bolt Action cards.
//!
//! Each unit maps onto the card fields the book's examples use, so a card from the data
//! prints, rolls and fights like theirs: its type (or, failing that, its damage value) gives
//! the category; quality entries ("Inexperienced", "Regular", "Veteran") become the
//! [`ArmyEntry`]'s variants with their prices, and options nested under one are offered with
//! it only; extra men and model entries add models; weapon profiles are matched to the
//! weapons chart by name, abbreviation ("LMG") or by range, shots and PEN. Whatever cannot be
//! mapped (a weapon the chart does not have, a unit with no type) is noted by entry, and the
//! unit keeps what is known.

use super::{Category, Quality, UnitProfile, VehicleMovement, Weapon, tables};
use crate::rules::army_data::{
    ArmyContext, ArmyEntry, ArmyOption, Chosen, Variant, category_of, group_max, limit_in_force,
    limit_in_parent, note, points_of,
};
use crate::rules::battlescribe::{Bound, Note, Profile, Resolved, ResolvedGroup};
use crate::rules::card::Card;

/// The game systems this ruleset reads: any whose name says Bolt Action.
pub fn reads_game_system(name: &str) -> bool {
    name.to_lowercase().contains("bolt action")
}

/// Every unit of a catalogue as a card.
pub fn army_cards(
    units: &[Resolved],
    context: &ArmyContext<'_>,
    notes: &mut Vec<Note>,
) -> Vec<Card> {
    units
        .iter()
        .map(|unit| Card::BoltAction(read_unit(unit, context, notes)))
        .collect()
}

/// A quality named by an entry ("Veteran", "Regular (base)").
pub fn quality_named(name: &str) -> Option<Quality> {
    let lower = name.to_lowercase();
    let word = lower
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("");
    match word {
        "inexperienced" | "green" => Some(Quality::Inexperienced),
        "regular" => Some(Quality::Regular),
        "veteran" => Some(Quality::Veteran),
        _ => None,
    }
}

/// A unit's card: its profile mapped onto the card's fields and its prices as an
/// [`ArmyEntry`].
fn read_unit(unit: &Resolved, context: &ArmyContext<'_>, notes: &mut Vec<Note>) -> UnitProfile {
    let path = unit.name.as_str();
    let stats = unit_profile(unit);
    let category = category(unit, stats, notes);
    let mut carries = Vec::new();
    let mut models = stats.and_then(model_count).unwrap_or(0);
    let mut cost = points_of(unit, context.points_type);
    let mut options = Vec::new();
    weapons_of(&unit.profiles, unit, path, &mut carries, notes);
    // Model entries: those the unit must have are part of it, more are options.
    for child in &unit.entries {
        if quality_named(&child.name).is_some() {
            continue;
        }
        let min = limit_in_parent(&child.constraints, Bound::Min).unwrap_or(0);
        if child.kind == "model" && min > 0 {
            weapons_of(
                &child.profiles,
                child,
                &format!("{path} › {}", child.name),
                &mut carries,
                notes,
            );
            if stats.and_then(model_count).is_none() {
                models += min;
            }
            cost += min * points_of(child, context.points_type);
            let max = limit_in_parent(&child.constraints, Bound::Max).unwrap_or(min);
            if max > min {
                options.push(option(
                    child,
                    context,
                    None,
                    None,
                    max - min,
                    0,
                    notes,
                    path,
                ));
            }
        } else {
            options.push(option(child, context, None, None, 1, 0, notes, path));
        }
    }
    let mut variants = Vec::new();
    for quality in quality_entries(unit) {
        variants.push(Variant {
            name: quality.name.clone(),
            cost: points_of(quality, context.points_type),
        });
        for child in &quality.entries {
            options.push(option(
                child,
                context,
                Some(&quality.name),
                None,
                1,
                0,
                notes,
                path,
            ));
        }
        for group in &quality.groups {
            group_options(
                group,
                context,
                Some(&quality.name),
                notes,
                path,
                &mut options,
            );
        }
    }
    for group in &unit.groups {
        if is_quality_group(group) {
            continue;
        }
        group_options(group, context, None, notes, path, &mut options);
    }
    if vehicle(category) && models == 0 {
        models = 1;
    }
    let variant = default_variant(unit, &variants);
    let quality = variant
        .as_deref()
        .and_then(quality_named)
        .or_else(|| {
            stats.and_then(|p| {
                p.value("Quality")
                    .or(p.value("Experience"))
                    .and_then(quality_named)
            })
        })
        .unwrap_or_else(|| {
            notes.push(note(
                unit,
                path,
                "the data gives no quality: Regular (house default)".into(),
            ));
            Quality::Regular
        });
    let chosen = options
        .iter()
        .filter(|o| o.min > 0 && (o.variant.is_none() || o.variant == variant))
        .map(|o| Chosen {
            key: o.key.clone(),
            count: o.min,
        })
        .collect();
    let rules: Vec<String> = unit.rules.iter().map(|r| r.name.to_lowercase()).collect();
    let type_text = stats
        .and_then(|p| p.value("Type").or(p.value("Unit Type")))
        .unwrap_or_default()
        .to_lowercase();
    let says = |word: &str| rules.iter().any(|r| r.contains(word)) || type_text.contains(word);
    let entry = ArmyEntry {
        source: context.source.clone(),
        entry_id: unit.id.clone(),
        category: category_of(unit, context),
        cost,
        variants,
        variant,
        options,
        chosen,
        max_in_force: limit_in_force(unit),
        models,
        carries: carries.clone(),
    };
    let mut profile = UnitProfile {
        name: unit.name.clone(),
        category,
        quality,
        weapons: carries,
        movement: vehicle(category).then(|| movement(&type_text, category)),
        open_topped: vehicle(category) && says("open-topped"),
        recce: vehicle(category) && says("recce"),
        example: false,
        army: None,
    };
    profile.apply_army(entry);
    profile
}

fn vehicle(category: Category) -> bool {
    category.is_vehicle()
}

/// The unit's own statistics profile: the one with a type, else one named like the profile
/// type "Unit".
fn unit_profile(unit: &Resolved) -> Option<&Profile> {
    unit.profiles
        .iter()
        .find(|p| p.value("Type").or(p.value("Unit Type")).is_some())
        .or_else(|| {
            unit.profiles
                .iter()
                .find(|p| p.type_name.eq_ignore_ascii_case("unit"))
        })
}

/// The leading number of the profile's size ("5", "5 men", "1-10").
fn model_count(profile: &Profile) -> Option<u32> {
    ["Men", "Models", "Size", "Crew"]
        .iter()
        .find_map(|name| profile.value(name))
        .and_then(|text| {
            let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
}

/// The category from the unit's type, else its damage value; Infantry, noted, with neither.
fn category(unit: &Resolved, stats: Option<&Profile>, notes: &mut Vec<Note>) -> Category {
    let type_text = stats
        .and_then(|p| p.value("Type").or(p.value("Unit Type")))
        .unwrap_or_default()
        .to_lowercase();
    let dv = stats
        .and_then(|p| p.value("Damage Value").or(p.value("DV")))
        .and_then(|t| {
            let digits: String = t.chars().filter(char::is_ascii_digit).collect();
            digits.parse::<u8>().ok()
        });
    let by_type = [
        ("super-heavy", Category::SuperHeavyTank),
        ("super heavy", Category::SuperHeavyTank),
        ("heavy tank", Category::HeavyTank),
        ("medium tank", Category::MediumTank),
        ("light tank", Category::LightTank),
        ("armoured car", Category::ArmouredCar),
        ("armored car", Category::ArmouredCar),
        ("carrier", Category::ArmouredCar),
        ("half-track", Category::ArmouredCar),
        ("soft", Category::SoftSkin),
        ("truck", Category::SoftSkin),
        ("artillery", Category::Artillery),
        ("gun", Category::Artillery),
        ("howitzer", Category::Artillery),
        ("infantry", Category::Infantry),
        ("team", Category::Infantry),
        ("headquarters", Category::Infantry),
    ];
    if let Some((_, category)) = by_type.iter().find(|(word, _)| type_text.contains(word)) {
        return *category;
    }
    let by_dv = match dv {
        Some(6) => Some(Category::SoftSkin),
        Some(7) => Some(Category::ArmouredCar),
        Some(8) => Some(Category::LightTank),
        Some(9) => Some(Category::MediumTank),
        Some(10) => Some(Category::HeavyTank),
        Some(11) => Some(Category::SuperHeavyTank),
        _ => None,
    };
    if let Some(category) = by_dv {
        return category;
    }
    notes.push(note(
        unit,
        &unit.name,
        if type_text.is_empty() {
            "the data gives no unit type or vehicle damage value: Infantry (house default)".into()
        } else {
            format!(
                "unit type \"{type_text}\" is not one the sheets know: Infantry (house default)"
            )
        },
    ));
    Category::Infantry
}

fn movement(type_text: &str, category: Category) -> VehicleMovement {
    if type_text.contains("half-track") || type_text.contains("halftrack") {
        VehicleMovement::HalfTracked
    } else if type_text.contains("wheeled")
        || matches!(category, Category::ArmouredCar | Category::SoftSkin)
            && !type_text.contains("tracked")
    {
        VehicleMovement::Wheeled
    } else {
        VehicleMovement::Tracked
    }
}

/// The unit's quality entries: a group of them, or entries of the unit itself.
fn quality_entries(unit: &Resolved) -> Vec<&Resolved> {
    let in_groups = unit
        .groups
        .iter()
        .filter(|g| is_quality_group(g))
        .flat_map(|g| g.entries.iter());
    let direct = unit
        .entries
        .iter()
        .filter(|e| quality_named(&e.name).is_some());
    in_groups.chain(direct).collect()
}

fn is_quality_group(group: &ResolvedGroup) -> bool {
    !group.entries.is_empty()
        && group
            .entries
            .iter()
            .all(|e| quality_named(&e.name).is_some())
}

/// The variant a new unit starts as: the data's default, else Regular, else the first.
fn default_variant(unit: &Resolved, variants: &[Variant]) -> Option<String> {
    let default = unit
        .groups
        .iter()
        .filter(|g| is_quality_group(g))
        .find_map(|g| {
            let id = g.default_entry.as_deref()?;
            g.entries.iter().find(|e| e.id == id)
        })
        .map(|e| e.name.clone());
    default
        .or_else(|| {
            variants
                .iter()
                .find(|v| quality_named(&v.name) == Some(Quality::Regular))
                .map(|v| v.name.clone())
        })
        .or_else(|| variants.first().map(|v| v.name.clone()))
}

/// One option from an entry. `max` is its limit when the data sets none.
#[allow(clippy::too_many_arguments)]
fn option(
    entry: &Resolved,
    context: &ArmyContext<'_>,
    variant: Option<&String>,
    group: Option<(&str, Option<u32>)>,
    max: u32,
    min: u32,
    notes: &mut Vec<Note>,
    unit: &str,
) -> ArmyOption {
    let path = format!("{unit} › {}", entry.name);
    let mut adds = Vec::new();
    weapons_of(&entry.profiles, entry, &path, &mut adds, notes);
    if !entry.entries.is_empty() || !entry.groups.is_empty() {
        notes.push(note(
            entry,
            &path,
            "options nested inside this option are not offered".into(),
        ));
    }
    let lower = entry.name.to_lowercase();
    let extra_men = entry.kind == "model"
        || (lower.contains("extra") || lower.contains("additional"))
            && ["man", "men", "soldier", "model", "crew"]
                .iter()
                .any(|w| lower.split(|c: char| !c.is_alphanumeric()).any(|x| x == *w));
    ArmyOption {
        key: match variant {
            Some(v) => format!("{v}/{}", entry.id),
            None => entry.id.clone(),
        },
        name: entry.name.clone(),
        cost: points_of(entry, context.points_type),
        min: limit_in_parent(&entry.constraints, Bound::Min).unwrap_or(min),
        max: limit_in_parent(&entry.constraints, Bound::Max).unwrap_or(max),
        group: group.map(|(name, _)| name.to_string()),
        group_max: group.and_then(|(_, max)| max),
        variant: variant.cloned(),
        models: u32::from(extra_men),
        adds,
    }
}

/// A group's entries as options of one choice (nested groups' entries join it).
fn group_options(
    group: &ResolvedGroup,
    context: &ArmyContext<'_>,
    variant: Option<&String>,
    notes: &mut Vec<Note>,
    unit: &str,
    out: &mut Vec<ArmyOption>,
) {
    let max = group_max(group);
    for entry in &group.entries {
        out.push(option(
            entry,
            context,
            variant,
            Some((&group.name, max)),
            1,
            0,
            notes,
            unit,
        ));
    }
    for inner in &group.groups {
        group_options(inner, context, variant, notes, unit, out);
    }
}

/// The chart names of the weapon profiles among `profiles`, noting those the chart lacks.
fn weapons_of(
    profiles: &[Profile],
    entry: &Resolved,
    path: &str,
    out: &mut Vec<String>,
    notes: &mut Vec<Note>,
) {
    for profile in profiles {
        if profile.value("Range").is_none() {
            continue;
        }
        match chart_weapon(profile) {
            Some(name) => {
                if !out.contains(&name) {
                    out.push(name);
                }
            }
            None => notes.push(note(
                entry,
                path,
                format!(
                    "weapon \"{}\" ({}) matches no line of the weapons chart: left off the card",
                    profile.name,
                    profile
                        .characteristics
                        .iter()
                        .filter(|(_, v)| !v.is_empty())
                        .map(|(n, v)| format!("{n} {v}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }
}

fn squash(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_lowercase()
}

/// The chart's short name in brackets ("LMG" of "Light Machine Gun (LMG)").
fn abbreviation(weapon: &Weapon) -> Option<String> {
    let open = weapon.name.rfind('(')?;
    let inner = weapon.name[open + 1..].trim_end_matches(')');
    inner
        .chars()
        .all(|c| c.is_ascii_uppercase())
        .then(|| inner.to_lowercase())
}

/// The weapons chart line a data weapon is: by name, by abbreviation as a word of its name or
/// a chart name inside its name when the ranges agree ("Coaxial MMG", but not "Sniper
/// rifle" as a Rifle), or by range, shots and PEN when one line alone fits.
fn chart_weapon(profile: &Profile) -> Option<String> {
    let chart = &tables()?.weapons;
    let name = squash(&profile.name);
    let range = profile.value("Range").map(squash).unwrap_or_default();
    let range_fits = |w: &Weapon| range.is_empty() || squash(&w.range) == range;
    let words: Vec<String> = profile
        .name
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .collect();
    if let Some(w) = chart
        .iter()
        .find(|w| squash(&w.name) == name || abbreviation(w).is_some_and(|a| a == name))
    {
        return Some(w.name.clone());
    }
    if let Some(w) = chart
        .iter()
        .filter(|w| {
            range_fits(w)
                && (abbreviation(w).is_some_and(|a| words.contains(&a))
                    || name.contains(&squash(w.name.split('(').next().unwrap_or_default())))
        })
        .max_by_key(|w| w.name.len())
    {
        return Some(w.name.clone());
    }
    let shots = profile.value("Shots").map(squash).unwrap_or_default();
    let pen = profile
        .value("Pen")
        .or(profile.value("Penetration"))
        .and_then(|p| p.trim_start_matches('+').parse::<u8>().ok());
    let fits: Vec<&Weapon> = chart
        .iter()
        .filter(|w| squash(&w.range) == range && squash(&w.shots) == shots && w.pen == pen)
        .collect();
    match fits.as_slice() {
        [one] => Some(one.name.clone()),
        _ => None,
    }
}
