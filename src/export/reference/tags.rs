//! What a force "uses", as tags such as `special_rule:break_off` or `trait:stubborn`, so a
//! quick reference can leave out the sections its force never needs.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::rules::armour_battles::SpecialRule;
use crate::rules::validation::resolve_cards;
use crate::rules::{Card, Force, RulesetId, belle_epoque, bolt_action};

/// Bolt Action unit categories, by their data names.
const BOLT_ACTION_CATEGORIES: [&str; 8] = [
    "infantry",
    "artillery",
    "soft_skin",
    "armoured_car",
    "light_tank",
    "medium_tank",
    "heavy_tank",
    "super_heavy_tank",
];

/// The snake_case name serde gives a value ("break_off").
fn name_of(value: impl Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name,
        _ => String::new(),
    }
}

fn tag(kind: &str, name: impl AsRef<str>) -> String {
    format!("{kind}:{}", name.as_ref().to_lowercase())
}

/// Every tag a force of `ruleset` could have; a reference file may require only these.
pub fn known_tags(ruleset: RulesetId) -> BTreeSet<String> {
    let mut tags = BTreeSet::new();
    match ruleset {
        RulesetId::ArmourBattles => {
            tags.extend(SpecialRule::ALL.map(|r| tag("special_rule", name_of(r))));
            tags.extend(["kind:afv".into(), "kind:off_table_artillery".into()]);
            tags.extend(["deployment:reserve".into(), "deployment:hidden".into()]);
        }
        RulesetId::BelleEpoque => {
            if let Some(t) = belle_epoque::tables() {
                tags.extend(t.traits.iter().map(|row| tag("trait", name_of(row.trait_))));
                tags.extend(
                    t.unit_kinds
                        .iter()
                        .map(|row| tag("kind", name_of(row.kind))),
                );
            }
            tags.extend(["doctrine:loose".into(), "doctrine:close".into()]);
        }
        RulesetId::BoltAction => {
            tags.extend(BOLT_ACTION_CATEGORIES.map(|c| tag("category", c)));
            tags.extend(
                ["armoured", "vehicle", "weapon:he", "open_topped", "recce"].map(String::from),
            );
            if let Some(t) = bolt_action::tables() {
                tags.extend(t.weapons.iter().map(|w| tag("weapon", &w.name)));
            }
        }
        RulesetId::Belloludi | RulesetId::BattleOfTanks => {}
    }
    tags
}

/// The tags of the cards and deployments `force` uses.
pub fn force_tags(force: &Force) -> BTreeSet<String> {
    let mut tags = BTreeSet::new();
    for card in resolve_cards(force).into_iter().flatten() {
        card_tags(card, &mut tags);
    }
    if let crate::rules::Budget::BattleGroup(id) = &force.budget
        && let Some(group) = crate::rules::armour_battles::battle_group(id)
    {
        use crate::rules::armour_battles::Deployment;
        for company in &group.companies {
            match company.deployment {
                Deployment::Reserve { .. } => tags.insert("deployment:reserve".into()),
                Deployment::Hidden {} => tags.insert("deployment:hidden".into()),
                _ => false,
            };
        }
    }
    tags
}

fn card_tags(card: &Card, tags: &mut BTreeSet<String>) {
    match card {
        Card::ArmourBattles(c) => {
            tags.extend(
                c.special_rules
                    .iter()
                    .map(|r| tag("special_rule", name_of(r))),
            );
            tags.insert(tag("kind", name_of(c.kind)));
        }
        Card::BelleEpoque(c) => {
            tags.extend(c.traits.iter().map(|t| tag("trait", name_of(t))));
            tags.insert(tag("kind", name_of(c.kind)));
            tags.insert(tag("doctrine", name_of(c.doctrine)));
        }
        Card::BoltAction(c) => {
            tags.insert(tag("category", name_of(c.category)));
            if c.category.is_armoured() {
                tags.insert("armoured".into());
            }
            if c.movement.is_some() {
                tags.insert("vehicle".into());
            }
            if c.open_topped {
                tags.insert("open_topped".into());
            }
            if c.recce {
                tags.insert("recce".into());
            }
            for name in &c.weapons {
                let weapon = bolt_action::tables().and_then(|t| t.weapon(name));
                if let Some(weapon) = weapon {
                    tags.insert(tag("weapon", &weapon.name));
                    if weapon.he.is_some() {
                        tags.insert("weapon:he".into());
                    }
                }
            }
        }
        Card::Belloludi(_) | Card::BattleOfTanks(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{ForceUnit, armour_battles, ruleset};

    #[test]
    fn every_library_card_has_only_known_tags() {
        for id in RulesetId::ALL {
            let known = known_tags(id);
            for card in ruleset(id).library() {
                let mut tags = BTreeSet::new();
                card_tags(card, &mut tags);
                for tag in tags {
                    assert!(
                        known.contains(&tag),
                        "{id}: {} has unknown tag {tag}",
                        card.name()
                    );
                }
            }
        }
    }

    #[test]
    fn a_battle_group_uses_its_special_rules_and_deployments() {
        let force = armour_battles::preset_force("lorraine-2-german").unwrap();
        let tags = force_tags(&force);
        assert!(tags.contains("special_rule:low_profile"), "{tags:?}");
        assert!(tags.contains("kind:off_table_artillery"));
        assert!(tags.contains("deployment:hidden"));
        assert!(!tags.contains("special_rule:shoot_and_scoot"));
    }

    #[test]
    fn bolt_action_weapons_are_tagged_by_name() {
        let mut force = Force::new(RulesetId::BoltAction, "Squad");
        let squad = ruleset(RulesetId::BoltAction).library()[0]
            .name()
            .to_string();
        force.units.push(ForceUnit::library(squad, 1));
        let tags = force_tags(&force);
        assert!(tags.contains("category:infantry"));
        assert!(tags.iter().any(|t| t.starts_with("weapon:")), "{tags:?}");
    }
}
