//! What a battle's log holds: the campaign's own events — notes, undo and redo, branch
//! choices, the players' result, a unit's fate in a simple battle —, every ruleset's battle
//! actions on the board (`act`), and the event kinds the first Lorraine tracker recorded
//! ([`super::legacy`]), read as they were written.
//!
//! Every event is stored as one JSON object tagged by `"kind"`, whichever of the two it is; a
//! ruleset's kinds never collide with the campaign's. Reading one picks the type by its kind
//! and hands the object on whole, so a mistake in a file is named by the same path and words
//! as if the two were one type.

use serde::de::{self, IntoDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use super::legacy::{self, LegacyEvent};
use crate::rules::battle::{Category, DiceFrom, Facts, Side};

/// Declares [`Event`] and `Own` from one list of the campaign's own kinds, so the type the log
/// is written from and the one it is read back by cannot drift apart.
macro_rules! campaign_events {
    ($(
        $(#[$doc:meta])*
        $variant:ident { $($(#[$field_attr:meta])* $field:ident: $ty:ty,)* }
    )*) => {
        /// Anything that happened in a battle.
        // The ruleset's events are most of any log and already the size of their largest (a
        // fire with its dice): boxing them would add an allocation to each without making a
        // log smaller.
        #[allow(clippy::large_enum_variant)]
        #[derive(Debug, Clone, PartialEq, Eq, Serialize)]
        #[serde(tag = "kind", rename_all = "snake_case")]
        pub enum Event {
            $($(#[$doc])* $variant { $($(#[$field_attr])* $field: $ty,)* },)*
            /// An action of a battle fought on a board: the request, its dice and what it
            /// changed.
            Act(crate::rules::battle::table::TableEvent),
            /// An event the first Lorraine tracker recorded, stored under its own kind.
            #[serde(untagged)]
            Armour(LegacyEvent),
        }

        /// The campaign's own events, read by their derived reader so their messages stay
        /// serde's.
        #[derive(Deserialize)]
        #[serde(tag = "kind", rename_all = "snake_case")]
        enum Own {
            $($variant { $($(#[$field_attr])* $field: $ty,)* },)*
            Act(crate::rules::battle::table::TableEvent),
        }

        impl From<Own> for Event {
            fn from(own: Own) -> Self {
                match own {
                    $(Own::$variant { $($field),* } => Event::$variant { $($field),* },)*
                    Own::Act(act) => Event::Act(act),
                }
            }
        }
    };
}

campaign_events! {
    /// The players end the battle: `winner` None for a draw.
    BattleConcluded {
        winner: Option<Side>,
        notes: String,
    }
    /// A simple battle: what became of a unit.
    UnitFate {
        side: Side,
        unit: String,
        fate: String,
    }
    Note {
        text: String,
    }
    /// Takes back the event numbered `seq` (and only that one: undo is last-first).
    Undo {
        seq: u32,
    }
    /// Puts back an event taken back by `Undo`.
    Redo {
        seq: u32,
    }
    /// A battle added after the campaign began (the "What next?" battle, a simple campaign's
    /// next battle): always the first event of its battle, so two machines that set up the
    /// same battle differently make a fork at its start, settled by a choice like any other.
    BattleAdded {
        plan: super::definition::BattlePlan,
    }
    /// The players settle a fork: the branch starting with `keep` is played on, the others are
    /// set aside (kept in the log; a later choice can take one back). Follows the fork point.
    BranchChosen {
        keep: super::identity::EventUid,
        /// The choice this one overrides (the one in force at that fork when it was made):
        /// a later choice wins over the one it saw, whatever the two machines' clocks say.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        replaces: Option<super::identity::EventUid>,
        /// The branches it sets aside (their first events): a branch that arrives later, from
        /// a machine not yet heard from, opens the fork again rather than being set aside
        /// unseen.
        #[serde(default)]
        set_aside: Vec<super::identity::EventUid>,
    }
}

/// The campaign's own kinds.
const OWN_KINDS: [&str; 8] = [
    "act",
    "battle_concluded",
    "unit_fate",
    "note",
    "undo",
    "redo",
    "battle_added",
    "branch_chosen",
];

/// Every kind a log may hold, for the message naming an unknown one.
fn all_kinds() -> &'static [&'static str] {
    static ALL: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
        legacy::KINDS
            .iter()
            .chain(OWN_KINDS.iter())
            .copied()
            .collect()
    });
    &ALL
}

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(EventVisitor)
    }
}

struct EventVisitor;

impl<'de> Visitor<'de> for EventVisitor {
    type Value = Event;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an event: an object with its \"kind\"")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Event, A::Error> {
        let first: Option<String> = map.next_key()?;
        if first.as_deref() != Some("kind") {
            // Every file this app writes puts the kind first; anything else (a hand-edited
            // file) is read the slow way, whole.
            let mut object = serde_json::Map::new();
            if let Some(key) = first {
                object.insert(key, map.next_value()?);
            }
            while let Some((key, value)) = map.next_entry::<String, serde_json::Value>()? {
                object.insert(key, value);
            }
            return Event::from_object(object).map_err(de::Error::custom);
        }
        let kind: String = map.next_value()?;
        let rest = WithKind {
            kind: Some(kind.clone()),
            map,
        };
        let whole = de::value::MapAccessDeserializer::new(rest);
        if OWN_KINDS.contains(&kind.as_str()) {
            Own::deserialize(whole).map(Event::from)
        } else if legacy::KINDS.contains(&kind.as_str()) {
            LegacyEvent::deserialize(whole).map(Event::Armour)
        } else {
            Err(de::Error::unknown_variant(&kind, all_kinds()))
        }
    }
}

impl Event {
    /// An event from a JSON object whose `kind` is not its first key.
    fn from_object(object: serde_json::Map<String, serde_json::Value>) -> Result<Self, String> {
        let kind = object
            .get("kind")
            .and_then(serde_json::Value::as_str)
            .ok_or("missing field `kind`")?
            .to_string();
        let value = serde_json::Value::Object(object);
        if OWN_KINDS.contains(&kind.as_str()) {
            serde_json::from_value::<Own>(value)
                .map(Event::from)
                .map_err(|e| e.to_string())
        } else if legacy::KINDS.contains(&kind.as_str()) {
            serde_json::from_value(value)
                .map(Event::Armour)
                .map_err(|e| e.to_string())
        } else {
            Err(format!(
                "unknown variant `{kind}`, expected one of {}",
                all_kinds().join(", ")
            ))
        }
    }
}

/// The rest of an event's object with its kind put back in front, for the reader of the type
/// the kind names.
struct WithKind<A> {
    kind: Option<String>,
    map: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for WithKind<A> {
    type Error = A::Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        if self.kind.is_some() {
            return seed.deserialize("kind".into_deserializer()).map(Some);
        }
        self.map.next_key_seed(seed)
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, A::Error> {
        match self.kind.take() {
            Some(kind) => seed.deserialize(kind.into_deserializer()),
            None => self.map.next_value_seed(seed),
        }
    }
}

impl Event {
    /// What the log needs to know about it.
    pub fn facts(&self) -> Facts<'_> {
        fn own<'a>(kind: &'static str, category: Category, units: Vec<&'a str>) -> Facts<'a> {
            Facts {
                kind,
                category,
                units,
                rolls: Vec::new(),
                dice_from: DiceFrom::Chosen,
            }
        }
        match self {
            Event::Armour(event) => legacy::facts(event),
            Event::Act(event) => {
                <crate::rules::battle::table::AnyTable as crate::rules::battle::BattleRules>::facts(
                    event,
                )
            }
            Event::BattleConcluded { .. } => own("battle_concluded", Category::Result, Vec::new()),
            Event::UnitFate { unit, .. } => own("unit_fate", Category::Units, vec![unit.as_str()]),
            Event::Note { .. } => own("note", Category::Result, Vec::new()),
            Event::Undo { .. } => own("undo", Category::Undo, Vec::new()),
            Event::Redo { .. } => own("redo", Category::Undo, Vec::new()),
            Event::BranchChosen { .. } => own("branch_chosen", Category::Fork, Vec::new()),
            Event::BattleAdded { .. } => own("battle_added", Category::Setup, Vec::new()),
        }
    }

    /// The stable name stored beside the payload (`command_rolled`, `fire`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Armour(event) => event.kind(),
            Event::Act(_) => "act",
            Event::BattleConcluded { .. } => "battle_concluded",
            Event::UnitFate { .. } => "unit_fate",
            Event::Note { .. } => "note",
            Event::Undo { .. } => "undo",
            Event::Redo { .. } => "redo",
            Event::BranchChosen { .. } => "branch_chosen",
            Event::BattleAdded { .. } => "battle_added",
        }
    }

    pub fn category(&self) -> Category {
        match self {
            Event::Armour(event) => event.category(),
            other => other.facts().category,
        }
    }

    /// True for undo, redo, branch choices and a battle's setup, which change which events
    /// count (or which battle is played) rather than the table.
    pub fn is_meta(&self) -> bool {
        matches!(
            self,
            Event::Undo { .. }
                | Event::Redo { .. }
                | Event::BranchChosen { .. }
                | Event::BattleAdded { .. }
        )
    }

    /// The plan of a battle this event sets up.
    pub fn setup(&self) -> Option<&super::definition::BattlePlan> {
        match self {
            Event::BattleAdded { plan } => Some(plan),
            _ => None,
        }
    }

    /// True for a branch choice, which follows a fork point rather than the line's end.
    pub fn is_meta_choice(&self) -> bool {
        matches!(self, Event::BranchChosen { .. })
    }

    /// The unit ids the event concerns (for the log filter and the units' histories).
    pub fn units(&self) -> Vec<&str> {
        self.facts().units
    }

    /// Every die the event records, in the order rolled.
    pub fn rolls(&self) -> Vec<&crate::rules::dice::RollRecord> {
        self.facts().rolls
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_reads_back_whether_its_kind_comes_first_or_not() {
        let events = [
            Event::Note {
                text: "hedges".into(),
            },
            Event::Armour(LegacyEvent::TurnEnded {}),
            Event::Armour(LegacyEvent::Revealed {
                unit: "german-3".into(),
            }),
        ];
        for event in events {
            let text = serde_json::to_string(&event).unwrap();
            assert!(text.starts_with("{\"kind\":"), "{text}");
            assert_eq!(serde_json::from_str::<Event>(&text).unwrap(), event);
            // The same object with its kind last: a hand-edited file.
            let mut value: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(&text).unwrap();
            let kind = value.remove("kind").unwrap();
            value.insert("kind".into(), kind);
            let reordered = serde_json::to_string(&value).unwrap();
            assert_eq!(serde_json::from_str::<Event>(&reordered).unwrap(), event);
        }
    }

    #[test]
    fn a_mistake_is_named_as_serde_names_it() {
        let unknown = serde_json::from_str::<Event>(r#"{"kind":"parley"}"#).unwrap_err();
        assert!(
            unknown.to_string().starts_with("unknown variant `parley`"),
            "{unknown}"
        );
        let wrong = serde_json::from_str::<Event>(r#"{"kind":"undo","seq":"two"}"#).unwrap_err();
        assert!(wrong.to_string().contains("invalid type"), "{wrong}");
        let fire = serde_json::from_str::<Event>(
            r#"{"kind":"rally","unit":"us-1","seed":1,"rally":{"seed":1,"index":0,"sides":6,"dice":[6]},"opponent":{"seed":1,"index":1,"sides":6,"dice":[]},"removed":1,"remaining":0,"shouted":true}"#,
        )
        .unwrap_err();
        assert!(
            fire.to_string().contains("unknown field `shouted`"),
            "{fire}"
        );
    }
}
