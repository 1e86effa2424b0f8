//! A shared campaign's trust at the edge (`docs/trust.md`): the signed genesis a new campaign
//! begins with, the seal an imported campaign from before signatures takes, the admissions a
//! member signs — by hand to settle a conflict, or at each sync for the claims it sees — and the
//! clock and random source they are made with.

use super::campaign;
use super::error::StoreError;
use super::ids::CampaignId;
use super::{Clock, Entropy, Store, StoredCampaign};
use crate::campaign::genesis::Genesis;
use crate::campaign::membership::{Admission, Membership, Standing};
use crate::campaign::seal::PublicKey;
use crate::campaign::{Campaign, CampaignRecord, CampaignUid, Recorder, time};

/// Where a [`Store::repeatable`] library's clock stands: 2030-01-01 00:00 UTC, after the dates
/// test files are written with.
pub const REPEATABLE_AT: i64 = 1_893_456_000_000;

/// SplitMix64's step: one well-mixed 64-bit word from any other.
fn split_mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The setting listing the campaigns not synced since the library was restored from a backup.
const SETTING_RESTORED: &str = "machine.restored";

impl Store {
    /// Reads time from `clock` instead of the computer's (tests: fixed or skewed clocks).
    pub fn set_clock(&mut self, clock: Clock) {
        self.edge.clock = clock;
    }

    /// Draws nonces and new signing keys from `entropy` instead of the system's random source
    /// (tests).
    pub fn set_entropy(&mut self, entropy: Entropy) {
        self.edge.entropy = entropy;
    }

    /// Time and chance fixed by `seed` (tests): the clock stands at [`REPEATABLE_AT`] and the
    /// random source is a sequence drawn from `seed`, so this library's signing key, its
    /// campaigns' ids, its events' ids — and the app's dice, which follow them — are the same
    /// on every run. Each event is still stamped after the one it follows.
    pub fn repeatable(&mut self, seed: u64) {
        self.set_clock(std::sync::Arc::new(|| REPEATABLE_AT));
        let drawn = std::sync::atomic::AtomicU64::new(0);
        self.set_entropy(std::sync::Arc::new(move || {
            let n = drawn.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let mut bytes = [0u8; 16];
            bytes[..8].copy_from_slice(&split_mix(seed ^ n.wrapping_mul(2)).to_le_bytes());
            bytes[8..].copy_from_slice(
                &split_mix(seed ^ n.wrapping_mul(2).wrapping_add(1)).to_le_bytes(),
            );
            bytes
        }));
    }

    /// Waits until no other sync of this library runs (the window and a command at once), then
    /// holds it until the guard is dropped: an exclusive lock on `sync.lock` in the data folder,
    /// which the system releases when the process ends, however it ends. `None` in memory.
    ///
    /// # Errors
    /// The lock file cannot be opened.
    pub fn sync_lock(&self) -> Result<Option<std::fs::File>, StoreError> {
        let Some(dir) = self.data_dir() else {
            return Ok(None);
        };
        let path = dir.join("sync.lock");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .and_then(|f| f.lock().map(|()| f))
            .map_err(|source| StoreError::Io {
                path,
                message: "cannot take the sync lock",
                source,
            })?;
        Ok(Some(file))
    }

    /// The clock's reading, as is (what a tidy measures silence with).
    pub fn clock_reading(&self) -> i64 {
        (self.edge.clock)()
    }

    /// The clock's reading; a reading no event can carry (a computer whose clock was never set
    /// says 1970) is named as the computer's clock in a notice, and what is recorded is timed
    /// after what it follows instead ([`campaign::record_event`]).
    pub(crate) fn now(&mut self) -> i64 {
        let now = (self.edge.clock)();
        if !time::in_range(now) {
            let reading = time::format_millis(now);
            self.notices.push(format!(
                "this computer's clock says {} {}, not a date events can have ({} to {}): what it records is timed just after the event it follows. Set the computer's clock",
                reading.get(..10).unwrap_or(&reading),
                reading.get(11..16).unwrap_or(""),
                time::EARLIEST_YEAR,
                time::LATEST_YEAR
            ));
        }
        now
    }

    /// A time for a record that follows nothing in particular (a genesis, an admission): now,
    /// or when the computer's clock is wrong, just after `after`.
    fn stamp_after(&mut self, after: Option<&str>) -> String {
        let now = self.now();
        if time::in_range(now) {
            return time::format_millis(now);
        }
        let before = after.and_then(|t| time::parse_millis(t).ok());
        time::format_millis(before.map_or_else(time::earliest_millis, |t| t + 1))
    }

    /// Starts a campaign: signs its genesis with this library's key (its id is the genesis's
    /// digest, so the campaign's first member is this machine) and stores it.
    ///
    /// # Errors
    /// The library cannot be written, or the campaign's name is taken.
    pub fn start_campaign(&mut self, definition: Campaign) -> Result<StoredCampaign, StoreError> {
        let key = self.machine_key()?;
        let by = self.recorder()?;
        let created_at = self.stamp_after(None);
        let nonce = (self.edge.entropy)();
        let genesis = Genesis::new(&key, definition, by, created_at, nonce);
        self.create_campaign_record(&CampaignRecord::begun(genesis))
    }

    /// `record` (a campaign from before signatures, or a copy whose events took new ids) sealed
    /// by this library: a new campaign whose genesis lists every event it holds with its
    /// digest, so those events are taken because the genesis lists them, and nothing unsigned
    /// after. Its id is the genesis's.
    ///
    /// # Errors
    /// The library's key cannot be read or made; the events do not lay out.
    pub fn seal_campaign(&mut self, record: &CampaignRecord) -> Result<CampaignRecord, StoreError> {
        let key = self.machine_key()?;
        let by = self.recorder()?;
        let created_at = self.stamp_after(None);
        let nonce = (self.edge.entropy)();
        let genesis = Genesis::sealing(&key, record, by, created_at, nonce);
        let events = (0..record.logs.len())
            .map(|i| record.all_events(i).cloned().collect())
            .collect();
        CampaignRecord::from_parts(
            genesis.id(),
            Some(genesis),
            record.campaign.clone(),
            events,
            Vec::new(),
        )
        .map_err(|e| StoreError::invalid("campaign", e.to_string()))
    }

    /// The campaign a sealed import of campaign `uid` became here, if any.
    pub fn find_sealed_from(&self, uid: CampaignUid) -> Result<Option<CampaignId>, StoreError> {
        use rusqlite::OptionalExtension;
        self.conn
            .prepare_cached(super::queries::CAMPAIGN_SEALED_FROM)
            .and_then(|mut stmt| {
                stmt.query_row([uid.0.to_string()], |row| row.get(0))
                    .optional()
            })
            .map_err(self.ctx.err("finding a campaign"))
    }

    /// Who campaign `id` believes, resolved from its basis (no event read).
    pub fn membership(&self, id: CampaignId) -> Result<Membership, StoreError> {
        Ok(Membership::resolve(&self.membership_basis(id)?))
    }

    /// Signs and stores an admission of the key whose fingerprint is `fingerprint` (a key that
    /// signed in this campaign) as `names`, overruling the admissions of those names in force
    /// that admit another key: how the players settle a conflict over a name. Only a member may.
    ///
    /// # Errors
    /// No such key, or several; this machine is not a member; the library cannot be written.
    pub fn admit(
        &mut self,
        id: CampaignId,
        names: Recorder,
        fingerprint: &str,
    ) -> Result<Admission, StoreError> {
        let key = self.machine_key()?;
        let basis = self.membership_basis(id)?;
        let membership = Membership::resolve(&basis);
        if !membership.is_member(&key.public()) {
            return Err(StoreError::invalid(
                "admit",
                format!(
                    "this machine's key ({}) is not admitted in this campaign yet, so its word admits nobody: a player already admitted runs it",
                    key.public().fingerprint()
                ),
            ));
        }
        let wanted = fingerprint.trim().to_uppercase();
        let mut found: Vec<PublicKey> = basis
            .signed
            .iter()
            .map(|(k, _)| *k)
            .chain(basis.admissions.iter().map(|a| a.admits))
            .chain(basis.root.as_ref().map(|(root, _)| *root))
            .filter(|k| k.fingerprint() == wanted)
            .collect();
        found.sort();
        found.dedup();
        let admitted = match found.as_slice() {
            [one] => *one,
            [] => {
                return Err(StoreError::invalid(
                    "--key",
                    format!(
                        "{fingerprint}: no key with this fingerprint has signed in this campaign (`campaign show` lists them)"
                    ),
                ));
            }
            _ => {
                return Err(StoreError::invalid(
                    "--key",
                    format!("{fingerprint}: several keys have this fingerprint"),
                ));
            }
        };
        let replaces = basis
            .admissions
            .iter()
            .filter(|a| {
                a.names == names && a.admits != admitted && membership.in_force().contains(&a.id)
            })
            .map(|a| a.id)
            .collect();
        let admission = self.sign_admission(id, admitted, names, replaces)?;
        self.share_now(id);
        Ok(admission)
    }

    /// Admits, as a member, every first claim campaign `id` holds (names nobody held, claimed
    /// by one key alone): what each member's library does at each sync, so a newcomer's claim
    /// is firm before anyone else can dispute it. Nothing when this machine is not a member.
    ///
    /// # Errors
    /// The library cannot be written.
    pub fn admit_claimants(&mut self, id: CampaignId) -> Result<Vec<Admission>, StoreError> {
        if self.read_only.is_some() {
            return Ok(Vec::new());
        }
        let key = self.machine_key()?;
        let membership = self.membership(id)?;
        if !membership.is_member(&key.public()) {
            return Ok(Vec::new());
        }
        let mut signed = Vec::new();
        for (claimant, names) in membership.claimants() {
            if matches!(
                membership.standing(claimant, &names),
                Some(Standing::Claimant)
            ) {
                signed.push(self.sign_admission(id, claimant, names, Vec::new())?);
            }
        }
        Ok(signed)
    }

    /// Campaign `id`'s genesis (`None`: begun before campaigns had one).
    ///
    /// # Errors
    /// The library cannot be read.
    pub fn campaign_genesis(&self, id: CampaignId) -> Result<Option<Genesis>, StoreError> {
        campaign::genesis_of(&self.conn, &self.ctx, id)
    }

    /// Remembers that this library was just restored from a backup: the events it recorded
    /// after the backup was made, found in a shared folder at each campaign's next sync, are
    /// its own — a restore is not a copy.
    ///
    /// # Errors
    /// The library cannot be written.
    pub fn mark_restored(&mut self) -> Result<(), StoreError> {
        let uids: Vec<String> = self
            .list_campaigns()?
            .into_iter()
            .filter_map(|c| c.uid)
            .collect();
        let text = serde_json::to_string(&uids).unwrap_or_default();
        self.set_setting(SETTING_RESTORED, &text)
    }

    /// Whether campaign `uid` has not been synced since this library was restored (and from now
    /// on, it has).
    ///
    /// # Errors
    /// The library cannot be read or written.
    pub fn take_restored(&mut self, uid: CampaignUid) -> Result<bool, StoreError> {
        let Some(text) = self.setting(SETTING_RESTORED)? else {
            return Ok(false);
        };
        let mut uids: Vec<String> = serde_json::from_str(&text).unwrap_or_default();
        let before = uids.len();
        uids.retain(|u| *u != uid.to_string());
        if uids.len() == before {
            return Ok(false);
        }
        self.set_setting(
            SETTING_RESTORED,
            &serde_json::to_string(&uids).unwrap_or_default(),
        )?;
        Ok(true)
    }

    /// The newest (recording time, id) of campaign `uid`'s events signed with `key`, leaving out
    /// `except` (events just taken from the folder).
    ///
    /// # Errors
    /// The library cannot be read.
    pub fn newest_own_event(
        &self,
        uid: CampaignUid,
        key: &PublicKey,
        except: &std::collections::HashSet<crate::campaign::EventUid>,
    ) -> Result<Option<(String, crate::campaign::EventUid)>, StoreError> {
        let Some(id) = self.find_campaign_by_uid(uid)? else {
            return Ok(None);
        };
        let key_text = serde_json::to_value(key)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let rows: Vec<(String, String)> = self
            .conn
            .prepare_cached(super::queries::OWN_EVENTS_NEWEST)
            .and_then(|mut stmt| {
                stmt.query_map(rusqlite::params![id, key_text], |row| {
                    Ok((row.get(0)?, row.get(1)?))
                })?
                .collect()
            })
            .map_err(self.ctx.err("reading a battle's log"))?;
        Ok(rows.into_iter().find_map(|(at, uid)| {
            let uid = crate::campaign::EventUid(uuid::Uuid::parse_str(&uid).ok()?);
            (!except.contains(&uid)).then_some((at, uid))
        }))
    }

    /// After a refusal to record under names this key is not admitted to: puts this machine's
    /// key in the folder (its own admission request, which admits nobody: only a member's word
    /// does), so the player already admitted who settles it can find the key by its
    /// fingerprint. Quiet: the refusal already said what to do.
    pub(crate) fn ask_admission(&mut self, battle: super::ids::BattleId) {
        if let Ok(id) = campaign::campaign_of(&self.conn, &self.ctx, battle) {
            self.ask_admission_in(id);
        }
    }

    /// [`Self::ask_admission`] for campaign `id`.
    pub(crate) fn ask_admission_in(&mut self, id: CampaignId) {
        let asked = (|| -> Result<(), StoreError> {
            let key = self.machine_key()?;
            let names = self.recorder()?;
            let basis = self.membership_basis(id)?;
            let asked_before = basis
                .admissions
                .iter()
                .any(|a| a.admits == key.public() && a.names == names);
            // A member's key is known already (and its own word would count: not asked so).
            let member = Membership::resolve(&basis).is_member(&key.public());
            if !asked_before && !member {
                self.sign_admission(id, key.public(), names, Vec::new())?;
                self.share_now(id);
            }
            Ok(())
        })();
        drop(asked);
    }

    /// Signs an admission of `admits` as `names` in campaign `id` with this machine's key and
    /// stores it.
    fn sign_admission(
        &mut self,
        id: CampaignId,
        admits: PublicKey,
        names: Recorder,
        replaces: Vec<crate::campaign::EventUid>,
    ) -> Result<Admission, StoreError> {
        let key = self.machine_key()?;
        let by = self.recorder()?;
        let uid = self.campaign_uid(id)?;
        let began = campaign::genesis_of(&self.conn, &self.ctx, id)?.map(|g| g.created_at);
        let recorded_at = self.stamp_after(began.as_deref());
        let admission = Admission::new(&key, uid, recorded_at, by, admits, names, replaces);
        admission
            .check(uid)
            .map_err(|m| StoreError::invalid("admission", m))?;
        self.transact("admitting a key", |conn, ctx| {
            campaign::insert_admission(conn, ctx, id, &admission)
        })?;
        self.edge.admitted.push(admission.clone());
        Ok(admission)
    }

    /// The admissions this library signed since last asked — its own names admitted with the
    /// first event it recorded under them, a newcomer admitted by a sync, a conflict settled —
    /// for a caller keeping a copy of the campaign to add ([`CampaignRecord::add_admissions`]).
    pub fn take_admitted(&mut self) -> Vec<Admission> {
        std::mem::take(&mut self.edge.admitted)
    }
}
