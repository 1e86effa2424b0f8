//! Signatures this process has already verified, so an event read again (the League refreshed
//! with a file changed, a shared folder synced again) is not verified again: an ed25519
//! verification is the costliest step of reading a sealed event.
//!
//! What is remembered is a SHA-256 over everything the verification takes (the signed digest,
//! the public key, the signature), so a hit answers exactly what verifying would: a change to
//! any byte of the three is a miss, and is verified. Only signatures that verified are kept,
//! at most [`REMEMBERED_AT_MOST`] of them (about 20 MB); past that the memory starts afresh
//! rather than growing with every campaign a long session reads.

use std::collections::HashSet;
use std::sync::{LazyLock, Mutex};

use sha2::{Digest, Sha256};

/// How many verified signatures are kept at most: a league of 200 campaigns of 1,000 events,
/// or a shared campaign of 500,000, fits.
pub const REMEMBERED_AT_MOST: usize = 1 << 19;

static VERIFIED: LazyLock<Mutex<HashSet<[u8; 32]>>> = LazyLock::new(|| Mutex::new(HashSet::new()));

/// Whether `signature` by `key` over `digest` verifies: remembered when it did before,
/// otherwise `verify` is asked and a success remembered.
pub fn verifies(
    digest: &[u8; 32],
    key: &[u8; 32],
    signature: &[u8; 64],
    verify: impl FnOnce() -> bool,
) -> bool {
    let mut hasher = Sha256::new();
    hasher.update(digest);
    hasher.update(key);
    hasher.update(signature);
    let seen: [u8; 32] = hasher.finalize().into();
    // A poisoned lock (a panic elsewhere while it was held) only costs the memory: verify.
    if VERIFIED.lock().is_ok_and(|set| set.contains(&seen)) {
        return true;
    }
    let verified = verify();
    if verified && let Ok(mut set) = VERIFIED.lock() {
        if set.len() >= REMEMBERED_AT_MOST {
            set.clear();
        }
        set.insert(seen);
    }
    verified
}

/// Forgets every signature remembered, so the next read verifies as a first read would (for
/// timing one; nothing else needs it).
pub fn forget() {
    if let Ok(mut set) = VERIFIED.lock() {
        set.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remembered_signature_answers_without_verifying_and_nothing_else_does() {
        // A digest no other test uses (tests share the process's memory).
        let digest = [0xA5; 32];
        let (key, signature) = ([1; 32], [2; 64]);
        assert!(verifies(&digest, &key, &signature, || true));
        assert!(verifies(&digest, &key, &signature, || {
            panic!("verified again")
        }));
        // Any byte changed is verified, and a failure is never remembered.
        let mut other = signature;
        other[63] ^= 1;
        assert!(!verifies(&digest, &key, &other, || false));
        assert!(!verifies(&digest, &[3; 32], &signature, || false));
        assert!(!verifies(&[0x5A; 32], &key, &signature, || false));
        assert!(!verifies(&[0x5B; 32], &key, &signature, || false));
        assert!(verifies(&[0x5B; 32], &key, &signature, || true));
    }
}
