//! Who a campaign believes: which keys are admitted, under which names, decided from what the
//! campaign holds alone — never from when anything claims to have happened, nor from the order
//! it arrived in (`docs/trust.md`).
//!
//! A key is a **member** when it is the genesis's ([`super::genesis`]), or when a member signed an
//! [`Admission`] of it that no member's admission overrules (`replaces`): a least fixpoint from
//! the root. A (key, names) pair is in play when an admission in force admits that key under
//! those names (**admitted**), or when nobody is admitted under them and no other key claims
//! them (a **first claim**: a new player joins by recording). Every member's library admits the
//! first claims it sees — its own at once — so a claim becomes firm before anyone can dispute
//! it. Anything else is a conflict, shown and settled by an admission: a key claiming names
//! admitted to another is set aside; two keys claiming names nobody admitted are both set
//! aside; two keys admitted under one name (members who did not see each other's word) are
//! both in play, shown as disputed.
//!
//! What this decides is never whether an event is *taken* — a library keeps every valid event
//! it takes ([`super::merge`]) — only whether it is in play and under which name it is shown:
//! so a record that arrives later can change the standing of a key without any machine having
//! to take anything back, and every machine holding the same events and admissions agrees.
//!
//! A campaign begun before campaigns had a genesis has no root: there every key that is the only
//! one claiming each of its names stands as a root, and the rest follows.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::LoggedEvent;
use super::identity::{CampaignUid, EventUid, Recorder};
use super::seal::{self, MachineKey, PublicKey, Seal, SealError};

/// What an admission's digest starts with.
const DOMAIN: &str = "quartermaster-admission/1";

/// A member's signed word that a key records as a player and machine in this campaign: how a
/// claim is made firm, and how a conflict over a name is settled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Admission {
    /// Made from its content, as an event's is.
    pub id: EventUid,
    pub recorded_at: String,
    /// Who signs it.
    pub by: Recorder,
    /// The key admitted.
    pub admits: PublicKey,
    /// The names it is admitted under.
    pub names: Recorder,
    /// Admissions of the same names this one overrules (the ones its signer saw).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replaces: Vec<EventUid>,
    pub seal: Seal,
}

#[derive(Serialize)]
struct Content<'a> {
    domain: &'static str,
    campaign: CampaignUid,
    recorded_at: &'a str,
    by: &'a Recorder,
    admits: PublicKey,
    names: &'a Recorder,
    #[serde(skip_serializing_if = "<[EventUid]>::is_empty")]
    replaces: &'a [EventUid],
    key: PublicKey,
}

impl Admission {
    /// `signer`'s admission of `admits` under `names` in `campaign`, overruling `replaces`.
    pub fn new(
        signer: &MachineKey,
        campaign: CampaignUid,
        recorded_at: String,
        by: Recorder,
        admits: PublicKey,
        names: Recorder,
        replaces: Vec<EventUid>,
    ) -> Admission {
        let digest = seal::digest_of(&Content {
            domain: DOMAIN,
            campaign,
            recorded_at: &recorded_at,
            by: &by,
            admits,
            names: &names,
            replaces: &replaces,
            key: signer.public(),
        });
        Admission {
            id: seal::content_id(&digest),
            recorded_at,
            by,
            admits,
            names,
            replaces,
            seal: signer.sign(&digest),
        }
    }

    /// Checks an admission of `campaign`: its id is its content's, its signature verifies, its
    /// names and time are well formed.
    ///
    /// # Errors
    /// What is wrong, in words.
    pub fn check(&self, campaign: CampaignUid) -> Result<(), String> {
        let digest = seal::digest_of(&Content {
            domain: DOMAIN,
            campaign,
            recorded_at: &self.recorded_at,
            by: &self.by,
            admits: self.admits,
            names: &self.names,
            replaces: &self.replaces,
            key: self.seal.key,
        });
        let content = seal::content_id(&digest);
        if content != self.id {
            return Err(SealError::IdMismatch {
                id: self.id,
                content,
            }
            .to_string());
        }
        if !self.seal.verifies(&digest) {
            return Err(SealError::BadSignature {
                key: self.seal.key.fingerprint(),
            }
            .to_string());
        }
        super::time::parse_millis(&self.recorded_at).map_err(|m| format!("recorded_at: {m}"))?;
        for (what, name) in [
            ("by.player", &self.by.player),
            ("by.machine", &self.by.machine),
            ("names.player", &self.names.player),
            ("names.machine", &self.names.machine),
        ] {
            super::text::name(name).map_err(|m| format!("{what}: {m}"))?;
        }
        if self.replaces.len() > MAX_REPLACES {
            return Err(format!(
                "replaces {} admissions; at most {MAX_REPLACES}",
                self.replaces.len()
            ));
        }
        Ok(())
    }
}

/// Most admissions one admission overrules (a conflict has a handful).
pub const MAX_REPLACES: usize = 64;

/// Everything membership is decided from: the root, every (key, names) pair that signed an
/// event, and every admission (each checked already).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Basis {
    pub root: Option<(PublicKey, Recorder)>,
    pub signed: BTreeSet<(PublicKey, Recorder)>,
    pub admissions: Vec<Admission>,
}

/// How a (key, names) pair stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    /// Admitted under these names by an admission in force, and no other key is.
    Member,
    /// Nobody is admitted under these names, and no other key claims them: a first claim. In
    /// play; every member's library admits it at its next sync.
    Claimant,
    /// Admitted under these names, and so is another key (two members admitted different keys
    /// without seeing each other's word). In play, shown as disputed until an admission that
    /// saw both overrules one.
    Disputed { others: Vec<PublicKey> },
    /// Not in play: names admitted to another key (`held`), or names another key claims too
    /// with nobody admitted under them.
    Withheld { others: Vec<PublicKey>, held: bool },
}

impl Standing {
    /// Whether events signed so are in play.
    pub fn in_play(&self) -> bool {
        !matches!(self, Standing::Withheld { .. })
    }
}

/// A name more than one key signs under, for the players to settle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    pub names: Recorder,
    /// Every key signing under it or admitted to it, members first.
    pub keys: Vec<PublicKey>,
    /// The members among them.
    pub members: Vec<PublicKey>,
}

impl Conflict {
    /// The conflict in a sentence a player can act on.
    pub fn describe(&self, campaign: &str) -> String {
        let keys: Vec<String> = self.keys.iter().map(PublicKey::fingerprint).collect();
        let who = quoted_names(&self.names);
        let settle = format!(
            "compare key fingerprints at the table, then a player already admitted settles it: `quartermaster campaign admit \"{campaign}\" {} --key FINGERPRINT`",
            admit_args(&self.names)
        );
        match self.members.as_slice() {
            [] => format!(
                "two keys claim {who} ({}) and no player has admitted either: neither is in play until it is settled; {settle}",
                keys.join(", ")
            ),
            [holder] => {
                let claimers: Vec<String> = self
                    .keys
                    .iter()
                    .filter(|k| *k != holder)
                    .map(PublicKey::fingerprint)
                    .collect();
                format!(
                    "key {} claims {who}, which key {} holds: its events are set aside, never shown as {who}; if it is the real one, {settle}",
                    claimers.join(" and key "),
                    holder.fingerprint(),
                )
            }
            _ => format!(
                "{} keys sign as {who} ({}), each admitted by a player: every event of theirs is shown as disputed; {settle}",
                self.members.len(),
                keys.join(", ")
            ),
        }
    }
}

fn quoted_names(names: &Recorder) -> String {
    let label = names.label();
    if label.is_empty() {
        "a player with no name".to_string()
    } else {
        format!("\"{label}\"")
    }
}

fn admit_args(names: &Recorder) -> String {
    if names.machine.is_empty() {
        format!("\"{}\"", names.player)
    } else {
        format!("\"{}\" --machine \"{}\"", names.player, names.machine)
    }
}

/// Who a campaign believes, resolved from a [`Basis`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Membership {
    members: BTreeSet<PublicKey>,
    standing: BTreeMap<(PublicKey, Recorder), Standing>,
    conflicts: Vec<Conflict>,
    /// Admissions in force (by members, not overruled), by id.
    in_force: BTreeSet<EventUid>,
}

impl Membership {
    /// The (key, names) pairs whose events are in play under one of `self` and `before` but
    /// not the other.
    pub fn standing_changes(&self, before: &Membership) -> Vec<(PublicKey, Recorder)> {
        let in_play = |m: &Membership, pair: &(PublicKey, Recorder)| {
            m.standing.get(pair).is_none_or(Standing::in_play)
        };
        let mut moved: Vec<(PublicKey, Recorder)> = self
            .standing
            .keys()
            .chain(before.standing.keys())
            .filter(|pair| in_play(self, pair) != in_play(before, pair))
            .cloned()
            .collect();
        moved.sort();
        moved.dedup();
        moved
    }

    /// Resolves `basis`.
    pub fn resolve(basis: &Basis) -> Membership {
        // Every key signing under each name.
        let mut claiming: BTreeMap<&Recorder, BTreeSet<PublicKey>> = BTreeMap::new();
        for (key, names) in &basis.signed {
            claiming.entry(names).or_default().insert(*key);
        }
        let mut members: BTreeSet<PublicKey> = match &basis.root {
            Some((root, _)) => BTreeSet::from([*root]),
            // No root: every key that alone claims each of its names stands as one.
            None => basis
                .signed
                .iter()
                .map(|(key, _)| *key)
                .filter(|key| {
                    basis
                        .signed
                        .iter()
                        .filter(|(k, _)| k == key)
                        .all(|(_, names)| claiming.get(names).is_some_and(|c| c.len() == 1))
                })
                .collect(),
        };
        // Admissions by members, not overruled by a member's: a least fixpoint from the root.
        let in_force = loop {
            let valid: Vec<&Admission> = basis
                .admissions
                .iter()
                .filter(|a| members.contains(&a.seal.key))
                .collect();
            let overruled: BTreeSet<EventUid> = valid
                .iter()
                .flat_map(|a| a.replaces.iter().copied())
                .collect();
            let in_force: Vec<&Admission> = valid
                .into_iter()
                .filter(|a| !overruled.contains(&a.id))
                .collect();
            let before = members.len();
            members.extend(in_force.iter().map(|a| a.admits));
            if members.len() == before {
                break in_force;
            }
        };
        // Who holds each name: the keys admissions in force admit under it, and the root the
        // names its genesis gives when they name a player. The creator's names are then its own
        // before it records anything, so a claim on them that reaches another member first
        // is not taken for a first claim. (Without a player the names are a library's defaults
        // — the computer's name — often another's too: the root claims those as anyone does.)
        let mut held: BTreeMap<Recorder, BTreeSet<PublicKey>> = BTreeMap::new();
        if let Some((root, names)) = &basis.root
            && !names.player.trim().is_empty()
        {
            held.entry(names.clone()).or_default().insert(*root);
        }
        for a in &in_force {
            held.entry(a.names.clone()).or_default().insert(a.admits);
        }
        let mut standing = BTreeMap::new();
        let mut pairs: BTreeSet<(PublicKey, Recorder)> = basis.signed.clone();
        for (names, keys) in &held {
            for key in keys {
                pairs.insert((*key, names.clone()));
            }
        }
        for (key, names) in pairs {
            let others = |set: Option<&BTreeSet<PublicKey>>| -> Vec<PublicKey> {
                set.into_iter()
                    .flatten()
                    .filter(|k| **k != key)
                    .copied()
                    .collect()
            };
            let s = match held.get(&names) {
                // Admitted under it: alone, or beside keys other members admitted to it.
                Some(holders) if holders.contains(&key) => match others(Some(holders)) {
                    rivals if rivals.is_empty() => Standing::Member,
                    rivals => Standing::Disputed { others: rivals },
                },
                // Names admitted to another key: never in play as them, member or not.
                Some(holders) => Standing::Withheld {
                    others: others(Some(holders)),
                    held: true,
                },
                // Nobody admitted under them: a first claim, if nobody else claims them.
                None => match others(claiming.get(&names)) {
                    rivals if rivals.is_empty() => Standing::Claimant,
                    rivals => Standing::Withheld {
                        others: rivals,
                        held: false,
                    },
                },
            };
            standing.insert((key, names), s);
        }
        let conflicts = conflicts(&standing, &held);
        Membership {
            members,
            standing,
            conflicts,
            in_force: in_force.iter().map(|a| a.id).collect(),
        }
    }

    /// Whether `key` is a member (may admit others).
    pub fn is_member(&self, key: &PublicKey) -> bool {
        self.members.contains(key)
    }

    /// How `key` signing under `names` stands (`None`: it has not, and was not admitted so).
    pub fn standing(&self, key: PublicKey, names: &Recorder) -> Option<&Standing> {
        self.standing.get(&(key, names.clone()))
    }

    /// Whether `e` is in play: unsigned (from before signatures, taken only where that is
    /// allowed) or signed by a key in play under the names it claims.
    pub fn in_play(&self, e: &LoggedEvent) -> bool {
        match e.seal {
            None => true,
            Some(s) => self
                .standing
                .get(&(s.key, e.by.clone()))
                .is_none_or(Standing::in_play),
        }
    }

    /// Who recorded `e`, as the campaign believes it: its names while its key is admitted under
    /// them, else its key and what it claims.
    pub fn recorded_by(&self, e: &LoggedEvent) -> String {
        let names = if e.by.label().is_empty() {
            "a player with no name".to_string()
        } else {
            e.by.label()
        };
        let Some(s) = e.seal else {
            return format!("{names} (not signed)");
        };
        match self.standing.get(&(s.key, e.by.clone())) {
            None | Some(Standing::Member | Standing::Claimant) => names,
            Some(Standing::Disputed { .. }) => format!("{names} (disputed)"),
            Some(Standing::Withheld { .. }) => {
                format!(
                    "key {} (claims to be {names}; not admitted)",
                    s.key.fingerprint()
                )
            }
        }
    }

    /// Names the players must settle: claimed by keys nobody admitted, or admitted to two.
    pub fn conflicts(&self) -> Vec<&Conflict> {
        self.conflicts
            .iter()
            .filter(|c| c.members.len() != 1)
            .collect()
    }

    /// Names admitted to one key and claimed by another, whose events are set aside: settled
    /// already, said so the players know an impostor tried.
    pub fn claims_on_held_names(&self) -> Vec<&Conflict> {
        self.conflicts
            .iter()
            .filter(|c| c.members.len() == 1)
            .collect()
    }

    /// Every name more than one key signs under, settled or not.
    pub fn all_conflicts(&self) -> &[Conflict] {
        &self.conflicts
    }

    /// Pairs in play by first claim alone: what a member's library admits at its next sync.
    pub fn claimants(&self) -> Vec<(PublicKey, Recorder)> {
        self.standing
            .iter()
            .filter(|(_, s)| matches!(s, Standing::Claimant))
            .map(|(pair, _)| pair.clone())
            .collect()
    }

    /// The admissions in force (signed by members, overruled by none).
    pub fn in_force(&self) -> &BTreeSet<EventUid> {
        &self.in_force
    }
}

fn conflicts(
    standing: &BTreeMap<(PublicKey, Recorder), Standing>,
    held: &BTreeMap<Recorder, BTreeSet<PublicKey>>,
) -> Vec<Conflict> {
    let mut by_name: BTreeMap<&Recorder, Vec<(PublicKey, &Standing)>> = BTreeMap::new();
    for ((key, names), s) in standing {
        by_name.entry(names).or_default().push((*key, s));
    }
    by_name
        .into_iter()
        .filter(|(_, keys)| {
            keys.iter()
                .any(|(_, s)| matches!(s, Standing::Withheld { .. } | Standing::Disputed { .. }))
        })
        .map(|(names, keys)| {
            let holders = held.get(names);
            let holds = |k: &PublicKey| holders.is_some_and(|h| h.contains(k));
            let mut list: Vec<PublicKey> = keys.iter().map(|(k, _)| *k).collect();
            list.sort_by_key(|k| (!holds(k), *k));
            Conflict {
                names: names.clone(),
                members: list.iter().filter(|k| holds(k)).copied().collect(),
                keys: list,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u8) -> MachineKey {
        MachineKey::from_secret([n; 32])
    }

    fn names(player: &str) -> Recorder {
        Recorder {
            player: player.into(),
            machine: format!("{player}'s machine"),
        }
    }

    fn campaign() -> CampaignUid {
        CampaignUid(uuid::Uuid::from_u128(5))
    }

    fn admit(by: u8, who: u8, player: &str, replaces: Vec<EventUid>) -> Admission {
        Admission::new(
            &key(by),
            campaign(),
            "2026-11-25T10:00:00.000Z".into(),
            names("x"),
            key(who).public(),
            names(player),
            replaces,
        )
    }

    fn basis(signed: &[(u8, &str)], admissions: Vec<Admission>) -> Basis {
        Basis {
            root: Some((key(1).public(), names("Ann"))),
            signed: signed
                .iter()
                .map(|(k, p)| (key(*k).public(), names(p)))
                .collect(),
            admissions,
        }
    }

    fn stands(m: &Membership, k: u8, player: &str) -> Standing {
        m.standing(key(k).public(), &names(player)).unwrap().clone()
    }

    #[test]
    fn an_admitted_name_and_a_first_claim_are_in_play_and_a_claim_on_a_held_name_is_not() {
        // Ann's library admitted her own names when she first recorded.
        let admitted = vec![admit(1, 1, "Ann", vec![])];
        let m = Membership::resolve(&basis(&[(1, "Ann"), (2, "Bob"), (3, "Ann")], admitted));
        assert_eq!(stands(&m, 1, "Ann"), Standing::Member);
        assert_eq!(stands(&m, 2, "Bob"), Standing::Claimant);
        assert!(matches!(
            stands(&m, 3, "Ann"),
            Standing::Withheld { held: true, .. }
        ));
        assert_eq!(m.claimants(), vec![(key(2).public(), names("Bob"))]);
        assert!(m.conflicts().is_empty(), "nothing to settle");
        assert_eq!(m.claims_on_held_names().len(), 1);
        // A member signing as someone else's admitted names is set aside too.
        let admitted = vec![admit(1, 1, "Ann", vec![]), admit(1, 2, "Bob", vec![])];
        let m = Membership::resolve(&basis(&[(1, "Ann"), (2, "Bob"), (2, "Ann")], admitted));
        assert!(m.is_member(&key(2).public()));
        assert!(matches!(
            stands(&m, 2, "Ann"),
            Standing::Withheld { held: true, .. }
        ));
    }

    /// The creator's names are the root's from the genesis: an impostor claiming them before
    /// the creator records anything is set aside, not taken for a first claim that another
    /// member's library would admit (1,000 random folders found it: "Ann" locked out of her
    /// own campaign). A genesis without a player's name binds nothing.
    #[test]
    fn the_creators_names_are_the_roots_before_it_records_anything() {
        let m = Membership::resolve(&basis(&[(2, "Bob"), (3, "Ann")], vec![]));
        assert_eq!(stands(&m, 1, "Ann"), Standing::Member);
        assert!(matches!(
            stands(&m, 3, "Ann"),
            Standing::Withheld { held: true, .. }
        ));
        assert_eq!(m.claimants(), vec![(key(2).public(), names("Bob"))]);
        let mut nameless = basis(&[(3, "Ann")], vec![]);
        nameless.root = Some((key(1).public(), names(" ")));
        let m = Membership::resolve(&nameless);
        assert_eq!(stands(&m, 3, "Ann"), Standing::Claimant);
    }

    #[test]
    fn two_unadmitted_claims_to_one_name_are_both_withheld_until_a_member_settles_it() {
        let signed = [(1, "Ann"), (2, "Bob"), (3, "Bob")];
        let ann = admit(1, 1, "Ann", vec![]);
        let m = Membership::resolve(&basis(&signed, vec![ann.clone()]));
        assert!(matches!(
            stands(&m, 2, "Bob"),
            Standing::Withheld { held: false, .. }
        ));
        assert!(matches!(
            stands(&m, 3, "Bob"),
            Standing::Withheld { held: false, .. }
        ));
        assert!(
            m.conflicts()[0]
                .describe("Lorraine")
                .contains("two keys claim")
        );
        // Ann admits key 2 as Bob: Bob's events are in play, the impostor's set aside.
        let m = Membership::resolve(&basis(&signed, vec![ann, admit(1, 2, "Bob", vec![])]));
        assert_eq!(stands(&m, 2, "Bob"), Standing::Member);
        assert!(matches!(
            stands(&m, 3, "Bob"),
            Standing::Withheld { held: true, .. }
        ));
    }

    #[test]
    fn an_admission_by_a_non_member_counts_for_nothing_and_a_later_one_overrules() {
        let signed = [(1, "Ann"), (2, "Bob"), (3, "Eve")];
        // Eve (a claimant) admits a key as Ann: not a member's word.
        let m = Membership::resolve(&basis(&signed, vec![admit(3, 4, "Ann", vec![])]));
        assert!(!m.is_member(&key(4).public()));
        // Two members admitted different keys as Bob: both in play, disputed, until an
        // admission that saw both overrules one.
        let first = admit(1, 2, "Bob", vec![]);
        let second = admit(1, 5, "Bob", vec![]);
        let signed = [(1, "Ann"), (2, "Bob"), (5, "Bob")];
        let m = Membership::resolve(&basis(&signed, vec![first.clone(), second.clone()]));
        assert!(matches!(stands(&m, 2, "Bob"), Standing::Disputed { .. }));
        assert!(m.recorded_by_names_disputed());
        let settle = admit(1, 2, "Bob", vec![second.id]);
        let m = Membership::resolve(&basis(&signed, vec![first, second, settle]));
        assert_eq!(stands(&m, 2, "Bob"), Standing::Member);
        // Key 5 is no member any more: its Bob events are set aside.
        assert!(matches!(
            stands(&m, 5, "Bob"),
            Standing::Withheld { held: true, .. }
        ));
    }

    #[test]
    fn resolution_depends_on_the_set_not_its_order() {
        let mut admissions = vec![
            admit(1, 2, "Bob", vec![]),
            admit(2, 3, "Cat", vec![]),
            admit(3, 6, "Dan", vec![]),
        ];
        let signed = [(1, "Ann"), (2, "Bob"), (3, "Cat"), (6, "Dan"), (7, "Dan")];
        let one = Membership::resolve(&basis(&signed, admissions.clone()));
        admissions.reverse();
        let two = Membership::resolve(&basis(&signed, admissions));
        assert_eq!(one, two);
        // A chain of admissions from the root: each admitted key may admit the next.
        assert!(one.is_member(&key(6).public()));
        assert!(matches!(
            stands(&one, 7, "Dan"),
            Standing::Withheld { held: true, .. }
        ));
    }

    impl Membership {
        fn recorded_by_names_disputed(&self) -> bool {
            self.conflicts.iter().any(|c| c.members.len() == 2)
        }
    }
}
