//! The SQL the store runs, one statement per file under `db/queries/`, embedded at compile time.

/// `army_data_insert.sql`: one imported file's row (see the file for its 12 parameters)
pub(crate) const ARMY_DATA_INSERT: &str = include_str!("../../db/queries/army_data_insert.sql");
/// `army_data_digest.sql`: ?1 source_id, ?2 revision: the digest stored for that revision
pub(crate) const ARMY_DATA_DIGEST: &str = include_str!("../../db/queries/army_data_digest.sql");
/// `army_data_list.sql`: every stored file, newest revision of each first
pub(crate) const ARMY_DATA_LIST: &str = include_str!("../../db/queries/army_data_list.sql");
/// `army_data_systems.sql`: every stored game system's file name and XML
pub(crate) const ARMY_DATA_SYSTEMS: &str = include_str!("../../db/queries/army_data_systems.sql");
/// `battle_exists.sql`: ?1 battle id
pub(crate) const BATTLE_EXISTS: &str = include_str!("../../db/queries/battle_exists.sql");
/// `battle_insert.sql`: ?1 campaign id, ?2 number, ?3 title
pub(crate) const BATTLE_INSERT: &str = include_str!("../../db/queries/battle_insert.sql");
/// `book_card_upsert.sql`: ?1 ruleset, ?2 name, ?3 data_revision, ?4 body: insert a book card or refresh it in place
pub(crate) const BOOK_CARD_UPSERT: &str = include_str!("../../db/queries/book_card_upsert.sql");
/// `book_cards_prune.sql`: ?1 ruleset, ?2 data revision just seeded: book cards the new data no longer has
pub(crate) const BOOK_CARDS_PRUNE: &str = include_str!("../../db/queries/book_cards_prune.sql");
/// `book_revision.sql`: ?1 ruleset: the newest book data revision stored and how many book cards there are
pub(crate) const BOOK_REVISION: &str = include_str!("../../db/queries/book_revision.sql");
/// `campaign_insert.sql`: ?1 ruleset, ?2 name, ?3 scenario, ?4 uid
pub(crate) const CAMPAIGN_INSERT: &str = include_str!("../../db/queries/campaign_insert.sql");
/// `card_select.sql`: ?1 id
pub(crate) const CARD_SELECT: &str = include_str!("../../db/queries/card_select.sql");
/// `cards_select.sql`: ?1 origin ('book' or 'custom'): id and card JSON, by ruleset then name
pub(crate) const CARDS_SELECT: &str = include_str!("../../db/queries/cards_select.sql");
/// `cards_count.sql`: ?1 origin ('book' or 'custom'): how many cards
pub(crate) const CARDS_COUNT: &str = include_str!("../../db/queries/cards_count.sql");
/// `custom_card_delete.sql`: ?1 id; book cards are never deleted here
pub(crate) const CUSTOM_CARD_DELETE: &str = include_str!("../../db/queries/custom_card_delete.sql");
/// `custom_card_insert.sql`: ?1 ruleset, ?2 name, ?3 data_revision, ?4 body
pub(crate) const CUSTOM_CARD_INSERT: &str = include_str!("../../db/queries/custom_card_insert.sql");
/// `custom_card_update.sql`: ?1 id, ?2 ruleset, ?3 name, ?4 body; book cards are never updated here
pub(crate) const CUSTOM_CARD_UPDATE: &str = include_str!("../../db/queries/custom_card_update.sql");
/// `db_counts.sql`: what the database holds, for `db check`
pub(crate) const DB_COUNTS: &str = include_str!("../../db/queries/db_counts.sql");
/// `event_append.sql`: ?1 battle id, ?2 kind, ?3 payload JSON, ?4 uid; after the battle's latest event
pub(crate) const EVENT_APPEND: &str = include_str!("../../db/queries/event_append.sql");
/// `events_select.sql`: ?1 battle id: its events in the order stored
pub(crate) const EVENTS_SELECT: &str = include_str!("../../db/queries/events_select.sql");
/// `force_delete.sql`: ?1 id; the unit lines go with it (ON DELETE CASCADE)
pub(crate) const FORCE_DELETE: &str = include_str!("../../db/queries/force_delete.sql");
/// `force_insert.sql`: ?1 ruleset, ?2 name, ?3 budget_kind, ?4 budget_amount, ?5 budget_id, ?6 notes
pub(crate) const FORCE_INSERT: &str = include_str!("../../db/queries/force_insert.sql");
/// `force_select.sql`: ?1 id; columns as read by store::forces::row_to_force
pub(crate) const FORCE_SELECT: &str = include_str!("../../db/queries/force_select.sql");
/// `force_unit_insert.sql`: ?1 force_id, ?2 position, ?3 card_name, ?4 inline_card, ?5 pinned_card, ?6 data_revision,
pub(crate) const FORCE_UNIT_INSERT: &str = include_str!("../../db/queries/force_unit_insert.sql");
/// `force_units_delete.sql`: ?1 force id
pub(crate) const FORCE_UNITS_DELETE: &str = include_str!("../../db/queries/force_units_delete.sql");
/// `force_units_select.sql`: ?1 force id; columns as read by store::forces::row_to_unit
pub(crate) const FORCE_UNITS_SELECT: &str = include_str!("../../db/queries/force_units_select.sql");
/// `force_units_select_all.sql`: the unit lines of every force; columns as read by store::forces::row_to_unit
pub(crate) const FORCE_UNITS_SELECT_ALL: &str =
    include_str!("../../db/queries/force_units_select_all.sql");
/// `force_update.sql`: ?1 id, ?2 ruleset, ?3 name, ?4 budget_kind, ?5 budget_amount, ?6 budget_id, ?7 notes
pub(crate) const FORCE_UPDATE: &str = include_str!("../../db/queries/force_update.sql");
/// `forces_list.sql`: one summary row per force: id, name, ruleset, units (counts summed), updated_at
pub(crate) const FORCES_LIST: &str = include_str!("../../db/queries/forces_list.sql");
/// `force_summary.sql`: ?1 force id; columns as FORCES_LIST
pub(crate) const FORCE_SUMMARY: &str = include_str!("../../db/queries/force_summary.sql");
/// `forces_select_all.sql`: every force; columns as read by store::forces::row_to_force
pub(crate) const FORCES_SELECT_ALL: &str = include_str!("../../db/queries/forces_select_all.sql");
/// `force_names.sql`: every force's id and name
pub(crate) const FORCE_NAMES: &str = include_str!("../../db/queries/force_names.sql");
/// `campaign_names.sql`: every campaign's id and name
pub(crate) const CAMPAIGN_NAMES: &str = include_str!("../../db/queries/campaign_names.sql");
/// `card_ids.sql`: every card id, ascending
pub(crate) const CARD_IDS: &str = include_str!("../../db/queries/card_ids.sql");
/// `setting_select.sql`: ?1 key
pub(crate) const SETTING_SELECT: &str = include_str!("../../db/queries/setting_select.sql");
/// `setting_upsert.sql`: ?1 key, ?2 value
pub(crate) const SETTING_UPSERT: &str = include_str!("../../db/queries/setting_upsert.sql");
/// `campaign_record_insert.sql`: ?1 ruleset, ?2 name, ?3 scenario, ?4 body, ?5 uid
pub(crate) const CAMPAIGN_RECORD_INSERT: &str =
    include_str!("../../db/queries/campaign_record_insert.sql");
/// `campaign_body_update.sql`: ?1 campaign id, ?2 body
pub(crate) const CAMPAIGN_BODY_UPDATE: &str =
    include_str!("../../db/queries/campaign_body_update.sql");
/// `campaigns_list.sql`: every campaign with battle and event counts
pub(crate) const CAMPAIGNS_LIST: &str = include_str!("../../db/queries/campaigns_list.sql");
/// `campaign_identity.sql`: ?1 campaign id: name and uid, the definition left unread
pub(crate) const CAMPAIGN_IDENTITY: &str = include_str!("../../db/queries/campaign_identity.sql");
/// `campaign_select.sql`: ?1 campaign id: name, body and uid
pub(crate) const CAMPAIGN_SELECT: &str = include_str!("../../db/queries/campaign_select.sql");
/// `campaign_battles_select.sql`: ?1 campaign id: battle ids and numbers
pub(crate) const CAMPAIGN_BATTLES_SELECT: &str =
    include_str!("../../db/queries/campaign_battles_select.sql");
/// `event_last_seq.sql`: ?1 battle: its last event's seq, 0 when none
pub(crate) const EVENT_LAST_SEQ: &str = include_str!("../../db/queries/event_last_seq.sql");
/// `event_import.sql`: ?1 battle, ?2 uid, ?3 follows, ?4 seq, ?5 kind, ?6 payload, ?7 recorded time, ?8 player, ?9 machine, ?10 revision, ?11 signer, ?12 signature
pub(crate) const EVENT_IMPORT: &str = include_str!("../../db/queries/event_import.sql");
/// `campaign_mark_deleting.sql`: ?1 campaign id
pub(crate) const CAMPAIGN_MARK_DELETING: &str =
    include_str!("../../db/queries/campaign_mark_deleting.sql");
/// `campaign_events_delete.sql`: ?1 campaign id marked deleting
pub(crate) const CAMPAIGN_EVENTS_DELETE: &str =
    include_str!("../../db/queries/campaign_events_delete.sql");
/// `campaign_battles_delete.sql`: ?1 campaign id
pub(crate) const CAMPAIGN_BATTLES_DELETE: &str =
    include_str!("../../db/queries/campaign_battles_delete.sql");
/// `campaign_delete.sql`: ?1 campaign id
pub(crate) const CAMPAIGN_DELETE: &str = include_str!("../../db/queries/campaign_delete.sql");
/// `event_after.sql`: ?1 battle, ?2 follows: who signed each event (not a choice) after it
pub(crate) const EVENT_AFTER: &str = include_str!("../../db/queries/event_after.sql");
/// `event_seq.sql`: ?1 battle, ?2 uid: that event's seq
pub(crate) const EVENT_SEQ: &str = include_str!("../../db/queries/event_seq.sql");
/// `campaign_by_uid.sql`: ?1 uid: the campaign's row id
pub(crate) const CAMPAIGN_BY_UID: &str = include_str!("../../db/queries/campaign_by_uid.sql");
/// `battle_campaign.sql`: ?1 battle: its campaign's id, uid and ruleset, and its number
pub(crate) const BATTLE_CAMPAIGN: &str = include_str!("../../db/queries/battle_campaign.sql");
/// `events_since.sql`: ?1 campaign, ?2 row id: the campaign's events stored after it, in order
pub(crate) const EVENTS_SINCE: &str = include_str!("../../db/queries/events_since.sql");
/// `campaign_events.sql`: ?1 campaign: all its events, in order
pub(crate) const CAMPAIGN_EVENTS: &str = include_str!("../../db/queries/campaign_events.sql");
/// `event_uid_exists.sql`: ?1 uid: whether it is stored
pub(crate) const EVENT_UID_EXISTS: &str = include_str!("../../db/queries/event_uid_exists.sql");
/// `campaign_signers.sql`: ?1 campaign: every (key, player, machine) that signed its events
pub(crate) const CAMPAIGN_SIGNERS: &str = include_str!("../../db/queries/campaign_signers.sql");
/// `campaign_genesis.sql`: ?1 campaign: its genesis JSON or NULL
pub(crate) const CAMPAIGN_GENESIS: &str = include_str!("../../db/queries/campaign_genesis.sql");
/// `campaign_genesis_update.sql`: ?1 campaign, ?2 genesis JSON (set once)
pub(crate) const CAMPAIGN_GENESIS_UPDATE: &str =
    include_str!("../../db/queries/campaign_genesis_update.sql");
/// `campaign_sealed_from.sql`: ?1 uid: the campaign sealed from it, if any
pub(crate) const CAMPAIGN_SEALED_FROM: &str =
    include_str!("../../db/queries/campaign_sealed_from.sql");
/// `admission_insert.sql`: ?1 campaign, ?2 uid, ?3 body (ignored when stored already)
pub(crate) const ADMISSION_INSERT: &str = include_str!("../../db/queries/admission_insert.sql");
/// `admissions_since.sql`: ?1 campaign, ?2 row id: its admissions stored after it, in order
pub(crate) const ADMISSIONS_SINCE: &str = include_str!("../../db/queries/admissions_since.sql");
/// `campaign_admissions_delete.sql`: ?1 campaign (marked deleting)
pub(crate) const CAMPAIGN_ADMISSIONS_DELETE: &str =
    include_str!("../../db/queries/campaign_admissions_delete.sql");
/// `campaign_signers_delete.sql`: ?1 campaign (marked deleting)
pub(crate) const CAMPAIGN_SIGNERS_DELETE: &str =
    include_str!("../../db/queries/campaign_signers_delete.sql");
/// `own_events_newest.sql`: ?1 campaign, ?2 signer: its events signed so, newest first
pub(crate) const OWN_EVENTS_NEWEST: &str = include_str!("../../db/queries/own_events_newest.sql");
/// `event_by_uid.sql`: ?1 uid: the event's row, if stored
pub(crate) const EVENT_BY_UID: &str = include_str!("../../db/queries/event_by_uid.sql");
/// `event_time.sql`: ?1 battle, ?2 uid: its recording time
pub(crate) const EVENT_TIME: &str = include_str!("../../db/queries/event_time.sql");
/// `event_line_notes.sql`: ?1 battle, ?2 uid: notes on the line up to that event
pub(crate) const EVENT_LINE_NOTES: &str = include_str!("../../db/queries/event_line_notes.sql");
/// `campaign_setups.sql`: ?1 campaign: numbers of the battles set up by an event
pub(crate) const CAMPAIGN_SETUPS: &str = include_str!("../../db/queries/campaign_setups.sql");
/// `campaign_last_event.sql`: ?1 campaign, ?2 a row id of it known before: its newest event's
/// row id, 0 when none
pub(crate) const CAMPAIGN_LAST_EVENT: &str =
    include_str!("../../db/queries/campaign_last_event.sql");
