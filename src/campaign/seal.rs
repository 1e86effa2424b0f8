//! Who recorded an event, proven: every event this build records is sealed with the recording
//! machine's ed25519 key, and its id is made from its content.
//!
//! The **digest** of an event is SHA-256 over a canonical form of everything it says — the
//! campaign and battle it belongs to, the event it follows, its place, when and by whom it was
//! recorded, the rules revision, the signing key and the event with its dice — JSON with every
//! object's keys sorted, so the bytes do not depend on field order or on the version that
//! wrote them. A sealed event's **id** is the digest's first 16 bytes as a UUID (version 8):
//! two different events cannot share an id, a copy whose content was damaged or edited no
//! longer matches its id, and an event cannot be moved into another campaign or battle. Its
//! **signature** is the machine key's over the whole digest.
//!
//! A field added to an event later must be left out of its JSON while it has its default
//! value, or the digests of the events recorded before it change (`digests_are_pinned` below
//! holds one fixed event's digest).
//!
//! Pure but for one memory: keys are made at the edge (`store/`, where the random source is)
//! and handed in; signing with ed25519 draws no randomness; a signature that verified is
//! remembered for the process ([`super::verified`]), so reading an event again does not
//! verify it again.

use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::LoggedEvent;
use super::identity::{CampaignUid, EventUid, Recorder};

/// What the digest starts with, so an event's signature can never be taken for a signature of
/// anything else.
const DOMAIN: &str = "quartermaster-event/1";

/// A machine's public key (ed25519, 32 bytes), written as 43 characters of base64url.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PublicKey(pub [u8; 32]);

impl PublicKey {
    /// The short fingerprint players compare at the table: the first 4 bytes of the key's
    /// SHA-256 in hex, as two groups ("3F9A-C21E"). Enough to tell keys apart by eye; the whole
    /// key is what signatures are checked against.
    pub fn fingerprint(&self) -> String {
        let hash = Sha256::digest(self.0);
        format!(
            "{:02X}{:02X}-{:02X}{:02X}",
            hash[0], hash[1], hash[2], hash[3]
        )
    }

    fn text(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.0)
    }
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({})", self.fingerprint())
    }
}

impl fmt::Display for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fingerprint())
    }
}

fn decode<const N: usize>(text: &str) -> Result<[u8; N], String> {
    let bytes = URL_SAFE_NO_PAD
        .decode(text)
        .map_err(|e| format!("not base64url: {e}"))?;
    bytes
        .try_into()
        .map_err(|b: Vec<u8>| format!("{} bytes; expected {N}", b.len()))
}

impl Serialize for PublicKey {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text())
    }
}

impl<'de> Deserialize<'de> for PublicKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        decode(&text)
            .map(PublicKey)
            .map_err(serde::de::Error::custom)
    }
}

/// An ed25519 signature (64 bytes, 86 characters of base64url).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SignatureBytes(pub [u8; 64]);

impl fmt::Debug for SignatureBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Signature({}…)", &URL_SAFE_NO_PAD.encode(self.0)[..8])
    }
}

impl Serialize for SignatureBytes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&URL_SAFE_NO_PAD.encode(self.0))
    }
}

impl<'de> Deserialize<'de> for SignatureBytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        decode(&text)
            .map(SignatureBytes)
            .map_err(serde::de::Error::custom)
    }
}

/// A sealed event's key and signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seal {
    pub key: PublicKey,
    pub sig: SignatureBytes,
}

/// This machine's signing key. The secret stays in the library (the data folder); only the
/// public half travels, in each event's seal.
#[derive(Clone)]
pub struct MachineKey(SigningKey);

impl fmt::Debug for MachineKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MachineKey({})", self.public().fingerprint())
    }
}

impl MachineKey {
    /// The key made from 32 secret random bytes (drawn at the edge).
    pub fn from_secret(secret: [u8; 32]) -> Self {
        MachineKey(SigningKey::from_bytes(&secret))
    }

    /// The secret as text, for keeping in the library.
    pub fn secret_text(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.0.to_bytes())
    }

    /// The key kept as [`Self::secret_text`] wrote it.
    ///
    /// # Errors
    /// The text is not 32 bytes of base64url.
    pub fn from_secret_text(text: &str) -> Result<Self, String> {
        decode::<32>(text.trim()).map(Self::from_secret)
    }

    pub fn public(&self) -> PublicKey {
        PublicKey(self.0.verifying_key().to_bytes())
    }
}

/// Why a sealed event is not what it claims.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    /// The content does not hash to the id: damaged or edited since it was sealed.
    #[error(
        "its content does not match its id (damaged or edited after it was recorded; id {id}, content {content})"
    )]
    IdMismatch { id: EventUid, content: EventUid },
    /// The signature does not verify for the key it names.
    #[error("its signature does not verify for the key it names ({key}): forged or damaged")]
    BadSignature { key: String },
}

/// The canonical JSON of `value`: objects with their keys sorted, no spaces.
fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                canonical(&map[key], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// What the digest covers: the event without its id and signature, placed in its campaign and
/// battle, with the key that signs it.
#[derive(Serialize)]
struct Content<'a> {
    domain: &'static str,
    campaign: CampaignUid,
    battle: u32,
    follows: Option<EventUid>,
    seq: u32,
    recorded_at: &'a str,
    by: &'a Recorder,
    #[serde(skip_serializing_if = "Option::is_none")]
    revision: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    key: Option<PublicKey>,
    event: &'a super::Event,
}

/// The SHA-256 digest of any signed record's content (an event's, an admission's, a genesis's):
/// its canonical JSON (keys sorted, no spaces) hashed. Each kind of record puts its own domain
/// first, so a signature over one can never be taken for another.
pub(crate) fn digest_of(content: &impl Serialize) -> [u8; 32] {
    // Serialising plain data to a Value cannot fail; an empty value would only make the id
    // refuse to match, never match wrongly.
    let value = serde_json::to_value(content).unwrap_or(Value::Null);
    let mut text = String::with_capacity(512);
    canonical(&value, &mut text);
    Sha256::digest(text.as_bytes()).into()
}

/// The digest as hex, as a genesis lists the events it seals.
pub fn hex(digest: &[u8; 32]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

impl MachineKey {
    /// This key's signature over `digest`, sealed with its public half.
    pub fn sign(&self, digest: &[u8; 32]) -> Seal {
        Seal {
            key: self.public(),
            sig: SignatureBytes(self.0.sign(digest).to_bytes()),
        }
    }
}

impl Seal {
    /// Whether this seal's signature verifies for its key over `digest` (verified once per
    /// process: [`super::verified`]).
    pub fn verifies(&self, digest: &[u8; 32]) -> bool {
        super::verified::verifies(digest, &self.key.0, &self.sig.0, || {
            verifying_key(&self.key.0).is_some_and(|key| {
                key.verify_strict(digest, &Signature::from_bytes(&self.sig.0))
                    .is_ok()
            })
        })
    }
}

/// The key `bytes` encode, decompressed once per process: a campaign's events come from a
/// handful of keys, and decompressing one (a square root in the field) is about a sixth of
/// verifying a signature.
fn verifying_key(bytes: &[u8; 32]) -> Option<VerifyingKey> {
    // A club's keys, and a league folder's: far more than any campaign holds.
    const KEPT_AT_MOST: usize = 4096;
    static KEYS: std::sync::LazyLock<
        std::sync::Mutex<std::collections::HashMap<[u8; 32], VerifyingKey>>,
    > = std::sync::LazyLock::new(Default::default);
    if let Some(key) = KEYS.lock().ok().and_then(|keys| keys.get(bytes).copied()) {
        return Some(key);
    }
    let key = VerifyingKey::from_bytes(bytes).ok()?;
    // A poisoned lock (a panic elsewhere while it was held) only costs the memory.
    if let Ok(mut keys) = KEYS.lock() {
        if keys.len() >= KEPT_AT_MOST {
            keys.clear();
        }
        keys.insert(*bytes, key);
    }
    Some(key)
}

/// The SHA-256 digest of `event`'s content as battle `battle` of campaign `campaign` holds it,
/// signed by `key` (`None`: unsealed).
pub fn digest(
    campaign: CampaignUid,
    battle: u32,
    event: &LoggedEvent,
    key: Option<PublicKey>,
) -> [u8; 32] {
    let content = Content {
        domain: DOMAIN,
        campaign,
        battle,
        follows: event.follows,
        seq: event.seq,
        recorded_at: &event.recorded_at,
        by: &event.by,
        revision: event.revision,
        key,
        event: &event.event,
    };
    digest_of(&content)
}

/// The id a digest gives: its first 16 bytes as a version 8 UUID.
pub fn content_id(digest: &[u8; 32]) -> EventUid {
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    bytes[6] = 0x80 | (bytes[6] & 0x0f);
    bytes[8] = 0x80 | (bytes[8] & 0x3f);
    EventUid(Uuid::from_bytes(bytes))
}

/// Seals `event` (its id, follows, seq, time, recorder, revision and event already set) as
/// battle `battle` of `campaign`, recorded on the machine holding `key`: sets its id from its
/// content and signs it.
pub fn seal(key: &MachineKey, campaign: CampaignUid, battle: u32, event: &mut LoggedEvent) {
    let public = key.public();
    let hash = digest(campaign, battle, event, Some(public));
    event.id = content_id(&hash);
    event.seal = Some(key.sign(&hash));
}

/// Checks a sealed event: its id is its content's and its signature verifies for the key it
/// names. An unsealed event (recorded before events were signed) passes: it proves nothing,
/// and is shown as such.
///
/// # Errors
/// [`SealError`] saying which.
pub fn check(campaign: CampaignUid, battle: u32, event: &LoggedEvent) -> Result<(), SealError> {
    let Some(seal) = event.seal else {
        return Ok(());
    };
    let hash = digest(campaign, battle, event, Some(seal.key));
    let content = content_id(&hash);
    if content != event.id {
        return Err(SealError::IdMismatch {
            id: event.id,
            content,
        });
    }
    if seal.verifies(&hash) {
        Ok(())
    } else {
        Err(SealError::BadSignature {
            key: seal.key.fingerprint(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::Event;

    fn note(text: &str) -> LoggedEvent {
        LoggedEvent {
            id: EventUid(Uuid::nil()),
            follows: None,
            seq: 1,
            recorded_at: "2026-11-25T10:00:00.000Z".into(),
            by: Recorder {
                player: "Ann".into(),
                machine: "laptop".into(),
            },
            revision: Some(2),
            seal: None,
            event: Event::Note { text: text.into() },
        }
    }

    fn campaign() -> CampaignUid {
        CampaignUid(Uuid::from_u128(0x0192_0000_0000_7000_8000_0000_0000_0001))
    }

    #[test]
    fn a_sealed_event_checks_and_any_change_to_it_does_not() {
        let key = MachineKey::from_secret([7; 32]);
        let mut e = note("Smoke on the ridge");
        seal(&key, campaign(), 1, &mut e);
        assert_eq!(e.id.0.get_version_num(), 8);
        check(campaign(), 1, &e).unwrap();
        // Another battle or campaign: the id no longer matches (an event cannot be moved).
        assert!(matches!(
            check(campaign(), 2, &e),
            Err(SealError::IdMismatch { .. })
        ));
        let mut edited = e.clone();
        edited.recorded_at = "2026-11-25T10:00:01.000Z".into();
        assert!(matches!(
            check(campaign(), 1, &edited),
            Err(SealError::IdMismatch { .. })
        ));
        // Re-sealed under the same names by another key: a new id, and the old id's
        // signature does not carry over.
        let mut forged = e.clone();
        forged.event = Event::Note {
            text: "Ann concedes".into(),
        };
        let eve = MachineKey::from_secret([9; 32]);
        seal(&eve, campaign(), 1, &mut forged);
        assert_ne!(forged.id, e.id);
        check(campaign(), 1, &forged).unwrap();
        let mut stolen = forged.clone();
        stolen.seal = Some(Seal {
            key: key.public(),
            sig: forged.seal.unwrap().sig,
        });
        assert!(check(campaign(), 1, &stolen).is_err());
        let mut bad = e.clone();
        bad.seal.as_mut().unwrap().sig.0[0] ^= 1;
        assert!(matches!(
            check(campaign(), 1, &bad),
            Err(SealError::BadSignature { .. })
        ));
    }

    #[test]
    fn digests_are_pinned() {
        // A fixed event's digest: if this changes, every event recorded before the change
        // stops matching its id. Leave new fields out of the JSON at their default value.
        let hash = digest(campaign(), 1, &note("x"), None);
        let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, PINNED);
    }

    const PINNED: &str = "b1e8c0f380f72a4c7298239822a02b2512323d7336f10ac5415581d12d3e3da2";

    #[test]
    fn keys_round_trip_as_text_and_fingerprints_are_short() {
        let key = MachineKey::from_secret([3; 32]);
        let again = MachineKey::from_secret_text(&key.secret_text()).unwrap();
        assert_eq!(again.public(), key.public());
        let fp = key.public().fingerprint();
        assert_eq!(fp.len(), 9);
        assert_eq!(&fp[4..5], "-");
        let text = serde_json::to_string(&key.public()).unwrap();
        assert_eq!(text.len(), 45);
        let back: PublicKey = serde_json::from_str(&text).unwrap();
        assert_eq!(back, key.public());
    }
}
