-- Schema version 4: identity that travels between machines (issue 15).
--
-- Every campaign gets a stable id (`uid`, a UUID) and every event an id of its own, the id of
-- the event it follows in its battle (`follows`, NULL for a battle's first event), and who
-- recorded it (`player`, `machine`; empty for events from before this was kept). Events are
-- no longer numbered uniquely per battle: when two machines' logs meet, two events can follow
-- the same one (a fork), and each keeps its place (`seq`) on its own line.
--
-- Nothing recorded changes: kinds, payloads and times are copied as they are. Existing events
-- get ids derived from their campaign's id, battle number and seq — the rule
-- `campaign::identity::EventUid::legacy` applies to old campaign files, so the same event gets
-- the same id however it was upgraded; each follows the event numbered one before it.

ALTER TABLE campaigns ADD COLUMN uid TEXT CHECK (uid IS NULL OR length(uid) = 36);
-- One random value per campaign, drawn once per row (a temporary table), then written as a
-- version 4 (random) UUID: the version nibble, and a variant nibble from a random digit.
CREATE TEMP TABLE campaign_uids AS SELECT id, lower(hex(randomblob(16))) AS h FROM campaigns;
UPDATE campaigns SET uid = (
    SELECT substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3)
        || '-' || substr('89ab', 1 + (unicode(substr(h, 17, 1)) % 4), 1) || substr(h, 18, 3)
        || '-' || substr(h, 21, 12)
    FROM campaign_uids n WHERE n.id = campaigns.id
);
DROP TABLE campaign_uids;
CREATE UNIQUE INDEX campaigns_by_uid ON campaigns (uid);
CREATE TRIGGER campaigns_need_uid BEFORE INSERT ON campaigns WHEN NEW.uid IS NULL
BEGIN
    SELECT RAISE(ABORT, 'a campaign needs its uid');
END;

CREATE TABLE battle_events_v4 (
    id         INTEGER PRIMARY KEY,
    battle_id  INTEGER NOT NULL REFERENCES battles (id),
    uid        TEXT    NOT NULL UNIQUE CHECK (length(uid) = 36),
    follows    TEXT    CHECK (follows IS NULL OR length(follows) = 36),
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    kind       TEXT    NOT NULL,
    payload    TEXT    NOT NULL CHECK (json_valid(payload)),
    created_at TEXT    NOT NULL,
    player     TEXT    NOT NULL DEFAULT '',
    machine    TEXT    NOT NULL DEFAULT ''
);

INSERT INTO battle_events_v4 (id, battle_id, uid, follows, seq, kind, payload, created_at)
SELECT e.id, e.battle_id,
       substr(c.uid, 1, 8) || '-' || substr(c.uid, 10, 4) || '-8' || substr(c.uid, 16, 3)
           || '-' || printf('%04x', 32768 + b.number) || '-' || printf('%012x', e.seq),
       CASE WHEN e.seq = 1 THEN NULL ELSE
           substr(c.uid, 1, 8) || '-' || substr(c.uid, 10, 4) || '-8' || substr(c.uid, 16, 3)
           || '-' || printf('%04x', 32768 + b.number) || '-' || printf('%012x', e.seq - 1)
       END,
       e.seq, e.kind, e.payload, e.created_at
FROM battle_events e
JOIN battles b ON b.id = e.battle_id
JOIN campaigns c ON c.id = b.campaign_id;

DROP TABLE battle_events;
ALTER TABLE battle_events_v4 RENAME TO battle_events;

CREATE INDEX battle_events_by_battle ON battle_events (battle_id, seq);
CREATE INDEX battle_events_by_follows ON battle_events (battle_id, follows);

CREATE TRIGGER battle_events_no_update BEFORE UPDATE ON battle_events
BEGIN
    SELECT RAISE(ABORT, 'battle events are append-only: record a new event instead');
END;

CREATE TRIGGER battle_events_no_delete BEFORE DELETE ON battle_events
WHEN NOT EXISTS (
    SELECT 1 FROM battles b JOIN campaigns c ON c.id = b.campaign_id
    WHERE b.id = OLD.battle_id AND c.deleting = 1
)
BEGIN
    SELECT RAISE(ABORT, 'battle events are append-only: record a new event instead');
END;
