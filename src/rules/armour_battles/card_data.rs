//! An Armour Battles unit card as the app asks of any card: its special rules (and an
//! off-table battery's fire mission) explained for the printed card, its quick-reference tags
//! and its editor fields.

use crate::rules::armour_battles::SideName;
use std::collections::BTreeSet;

use super::cards::{
    MoveClass, RangeBands, Reaction, Side, SpecialRule, UnitCard, UnitKind, Weight,
};
use super::fire::RangeBand;
use super::{artillery_rules, fire_rules};
use crate::rules::card::{CardData, RuleNote};
use crate::rules::card_field::{
    CardField, FieldOption, FieldValue, chosen, counted, on_of, toggle_in,
};
use crate::rules::reference::{name_of, tag};
use crate::rules::stat::Stat;

/// The printed card's line giving the target number of a frontal shot per range band.
const TO_HIT: &str = "To hit";

const SIDES: [(Side, &str); 2] = [(Side::First, "US"), (Side::Second, "German")];
const KINDS: [(UnitKind, &str); 2] = [
    (UnitKind::Afv, "AFV"),
    (UnitKind::OffTableArtillery, "Off-table artillery"),
];
const WEIGHTS: [(Weight, &str); 3] = [
    (Weight::Light, "Light"),
    (Weight::Medium, "Medium"),
    (Weight::Heavy, "Heavy"),
];
const MOVES: [(MoveClass, &str); 2] = [
    (MoveClass::Average, "Average 6+1D″"),
    (MoveClass::Fast, "Fast 6+1D×2″"),
];

/// What a new AFV starts with, and what an off-table unit gets when it becomes one.
const NEW_REACTION: Reaction = Reaction {
    dice: 5,
    sloped_other: None,
    low_profile_artillery: None,
    open_topped: false,
};
const NEW_RANGE: RangeBands = RangeBands {
    short: 8,
    effective: 16,
    long: 32,
};

impl UnitCard {
    /// "3+/4+/5+": the target number of a frontal shot at short, effective and long range,
    /// as the fire odds compute it (Rulings: Direct fire), for a unit that fires on the table.
    fn to_hit(&self) -> Option<Stat> {
        self.range?;
        let rules = fire_rules().ok()?;
        let bands = [RangeBand::Short, RangeBand::Effective, RangeBand::Long];
        let tns: Vec<String> = bands
            .iter()
            .map(|&band| format!("{}+", rules.frontal_tn(band)))
            .collect();
        Some(Stat::new(
            TO_HIT,
            tns.join("/"),
            "Target number of a frontal shot at short / effective / long range.",
        ))
    }

    /// An AFV has a weight, a move, reaction dice and range bands, an off-table battery none;
    /// the reaction's notation follows the special rules, so the card and its reaction never
    /// disagree.
    pub(super) fn keep_consistent(&mut self) {
        if self.kind == UnitKind::Afv {
            self.weight = Some(self.weight.unwrap_or(Weight::Medium));
            self.move_class = Some(self.move_class.unwrap_or(MoveClass::Average));
            self.reaction = Some(self.reaction.unwrap_or(NEW_REACTION));
            self.range = Some(self.range.unwrap_or(NEW_RANGE));
        } else {
            self.weight = None;
            self.move_class = None;
            self.reaction = None;
            self.range = None;
        }
        let rules = self.special_rules.clone();
        if let Some(reaction) = &mut self.reaction {
            reaction.sloped_other = rules
                .contains(&SpecialRule::SlopedArmour)
                .then(|| reaction.dice.saturating_sub(1));
            reaction.low_profile_artillery = rules
                .contains(&SpecialRule::LowProfile)
                .then(|| reaction.dice.saturating_sub(1));
            reaction.open_topped = rules.contains(&SpecialRule::OpenTopped);
        }
    }
}

impl CardData for UnitCard {
    fn name(&self) -> &str {
        &self.name
    }

    fn set_name(&mut self, name: String) {
        self.name = name;
    }

    fn short_names(&self) -> &[String] {
        &self.short_names
    }

    fn side(&self) -> Option<&'static str> {
        Some(self.side.label())
    }

    fn type_label(&self) -> String {
        UnitCard::type_label(self)
    }

    fn stats(&self) -> Vec<Stat> {
        UnitCard::stats(self)
    }

    /// With the target number of a frontal shot per range band, for a unit that fires on the
    /// table.
    fn printed_stats(&self) -> Vec<Stat> {
        let mut stats = self.stats();
        stats.extend(self.to_hit());
        stats
    }

    /// An off-table battery takes no damage on the table.
    fn tracks_damage(&self) -> bool {
        self.kind != UnitKind::OffTableArtillery
    }

    /// The special rules explained; for an off-table battery, how a mission is called and
    /// fired.
    fn rule_notes(&self) -> Vec<RuleNote> {
        let mut notes: Vec<RuleNote> = self
            .special_rules
            .iter()
            .map(|rule| RuleNote {
                title: rule.title().to_string(),
                text: rule.explanation().to_string(),
            })
            .collect();
        if self.kind == UnitKind::OffTableArtillery {
            notes.extend(fire_mission_note(self.at_dice));
        }
        notes
    }

    fn reference_tags(&self, tags: &mut BTreeSet<String>) {
        tags.extend(
            self.special_rules
                .iter()
                .map(|r| tag("special_rule", name_of(r))),
        );
        tags.insert(tag("kind", name_of(self.kind)));
    }

    fn fields(&self) -> Vec<CardField> {
        let mut fields = vec![
            CardField::choice("side", "Side", &SIDES, &self.side),
            CardField::choice("kind", "Kind", &KINDS, &self.kind),
        ];
        if self.kind == UnitKind::Afv {
            let reaction = self.reaction.unwrap_or(NEW_REACTION);
            let range = self.range.unwrap_or(NEW_RANGE);
            fields.extend([
                CardField::choice(
                    "weight",
                    "Weight",
                    &WEIGHTS,
                    &self.weight.unwrap_or(Weight::Medium),
                ),
                CardField::choice(
                    "move",
                    "Move",
                    &MOVES,
                    &self.move_class.unwrap_or(MoveClass::Average),
                ),
                CardField::count(
                    "reaction",
                    "Reaction dice",
                    "Dice rolled when hit (frontal direct fire)",
                    (1, 12),
                    reaction.dice,
                ),
                CardField::count(
                    "short",
                    "Short range″",
                    "−1 TN within this range",
                    (1, 100),
                    range.short,
                ),
                CardField::count(
                    "effective",
                    "Effective range″",
                    "No modifier",
                    (1, 200),
                    range.effective,
                ),
                CardField::count(
                    "long",
                    "Long range″",
                    "+1 TN out to this range",
                    (1, 400),
                    range.long,
                ),
            ]);
        }
        let rules = SpecialRule::ALL.map(|r| FieldOption::new(r.title(), r.explanation()));
        fields.extend([
            CardField::text("weapon", "Weapon", "weapon", &self.weapon),
            CardField::count(
                "at_dice",
                "AT dice",
                "Anti-tank fire dice",
                (1, 15),
                self.at_dice,
            ),
            CardField::many(
                "special_rules",
                "Special rules",
                rules.to_vec(),
                on_of(&self.special_rules, &SpecialRule::ALL),
            ),
        ]);
        fields
    }

    fn set_field(&mut self, key: &str, value: FieldValue) {
        match (key, &value) {
            ("side", _) => self.side = chosen(&SIDES, &value).unwrap_or(self.side),
            ("kind", _) => self.kind = chosen(&KINDS, &value).unwrap_or(self.kind),
            ("weight", _) => self.weight = chosen(&WEIGHTS, &value).or(self.weight),
            ("move", _) => self.move_class = chosen(&MOVES, &value).or(self.move_class),
            ("reaction", _) => {
                let reaction = self.reaction.get_or_insert(NEW_REACTION);
                reaction.dice = counted(&value).unwrap_or(reaction.dice);
            }
            ("short" | "effective" | "long", _) => {
                let range = self.range.get_or_insert(NEW_RANGE);
                let band = match key {
                    "short" => &mut range.short,
                    "effective" => &mut range.effective,
                    _ => &mut range.long,
                };
                *band = counted(&value).unwrap_or(*band);
            }
            ("weapon", FieldValue::Text(text)) => self.weapon.clone_from(text),
            ("at_dice", _) => self.at_dice = counted(&value).unwrap_or(self.at_dice),
            ("special_rules", _) => toggle_in(&mut self.special_rules, &SpecialRule::ALL, &value),
            _ => {}
        }
        self.keep_consistent();
    }
}

/// How an off-table battery is called and fires, from the artillery rules the app resolves
/// missions with (Rulings: Artillery).
fn fire_mission_note(at_dice: u8) -> Option<RuleNote> {
    let r = artillery_rules().ok()?;
    Some(RuleNote {
        title: "Fire mission".to_string(),
        text: format!(
            "Call it by rolling the group's artillery response dice at {tn}+ against \
             {opp} dice at {opp_tn}+: more successes fire at once, otherwise in the next \
             Logistics Phase. A hit die of {hit}+ lands on the marker, anything else scatters \
             {scatter}D″. Every unit within the {burst}″ burst takes {at_dice} dice at \
             {attack}+; range never counts.",
            tn = r.response_tn,
            opp = r.opponent_response_dice,
            opp_tn = r.opponent_response_tn,
            hit = r.hit_die_on_target_from,
            scatter = r.scatter_dice,
            burst = r.burst_inches,
            attack = r.attack_tn,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_off_table_battery_has_no_move_reaction_or_range_and_sloped_armour_sets_the_flank_dice() {
        let mut card = UnitCard {
            kind: UnitKind::Afv,
            ..crate::rules::armour_battles::unit_card("M4 75mm")
                .expect("a book card")
                .clone()
        };
        card.set_field("kind", FieldValue::Choice(1));
        assert_eq!(card.kind, UnitKind::OffTableArtillery);
        assert_eq!(
            (card.weight, card.move_class, card.reaction, card.range),
            (None, None, None, None)
        );
        assert!(card.fields().iter().all(|f| f.key != "short"));
        card.set_field("kind", FieldValue::Choice(0));
        assert_eq!(card.range, Some(NEW_RANGE));
        card.set_field("reaction", FieldValue::Count(7));
        let sloped = SpecialRule::ALL
            .iter()
            .position(|r| *r == SpecialRule::SlopedArmour)
            .unwrap();
        card.set_field("special_rules", FieldValue::Toggled(sloped, true));
        assert_eq!(
            card.reaction.map(Reaction::notation).as_deref(),
            Some("7D/6D")
        );
        card.set_field("special_rules", FieldValue::Toggled(sloped, false));
        assert_eq!(card.reaction.map(Reaction::notation).as_deref(), Some("7D"));
    }
}
