//! What a force "uses", as tags such as `special_rule:break_off` or `trait:stubborn`, so a
//! quick reference can leave out the sections its force never needs. The tags are the
//! ruleset's ([`known_tags`](crate::rules::Ruleset::known_tags),
//! [`reference_tags`](crate::rules::card::CardData::reference_tags),
//! [`budget_tags`](crate::rules::Ruleset::budget_tags)); this gathers a force's.

use std::collections::BTreeSet;

use crate::rules::validation::resolve_cards;
use crate::rules::{Card, Force, RulesetId};

/// Every tag a force of `ruleset` could have; a reference file may require only these.
pub fn known_tags(ruleset: RulesetId) -> BTreeSet<String> {
    crate::rules::ruleset(ruleset).known_tags()
}

/// The tags of the cards and the budget `force` uses.
pub fn force_tags(force: &Force) -> BTreeSet<String> {
    let mut tags = BTreeSet::new();
    for card in resolve_cards(force).into_iter().flatten() {
        card_tags(card, &mut tags);
    }
    crate::rules::ruleset(force.ruleset).budget_tags(&force.budget, &mut tags);
    tags
}

fn card_tags(card: &Card, tags: &mut BTreeSet<String>) {
    card.data().reference_tags(tags);
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
