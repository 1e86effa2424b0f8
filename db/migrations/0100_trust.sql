-- Schema step 0100: who a shared campaign believes (issue 35, docs/trust.md). Numbered from 100
-- so it never clashes with a migration written at the same time on another branch; its schema
-- version is its place in the list.
--
-- A campaign begun from now on keeps its `genesis`: the signed record of how it began, whose
-- digest is its uid (NULL for campaigns begun before). Members' admissions of keys are kept as
-- they came, append-only like events. `campaign_signers` lists every (key, player, machine) that
-- signed an event of a campaign, kept by a trigger, so deciding who the campaign believes never
-- reads every event.
--
-- Nothing recorded changes.

ALTER TABLE campaigns ADD COLUMN genesis TEXT CHECK (genesis IS NULL OR json_valid(genesis));

CREATE TABLE campaign_admissions (
    id          INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    uid         TEXT    NOT NULL UNIQUE CHECK (length(uid) = 36),
    body        TEXT    NOT NULL CHECK (json_valid(body))
);
CREATE INDEX campaign_admissions_by_campaign ON campaign_admissions (campaign_id, id);

CREATE TRIGGER campaign_admissions_no_update BEFORE UPDATE ON campaign_admissions
BEGIN
    SELECT RAISE(ABORT, 'admissions are append-only: a later admission overrules an earlier one');
END;

CREATE TRIGGER campaign_admissions_no_delete BEFORE DELETE ON campaign_admissions
WHEN NOT EXISTS (SELECT 1 FROM campaigns c WHERE c.id = OLD.campaign_id AND c.deleting = 1)
BEGIN
    SELECT RAISE(ABORT, 'admissions are append-only: a later admission overrules an earlier one');
END;

CREATE TABLE campaign_signers (
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    signer      TEXT    NOT NULL CHECK (length(signer) = 43),
    player      TEXT    NOT NULL,
    machine     TEXT    NOT NULL,
    PRIMARY KEY (campaign_id, signer, player, machine)
) WITHOUT ROWID;

INSERT OR IGNORE INTO campaign_signers (campaign_id, signer, player, machine)
SELECT b.campaign_id, e.signer, e.player, e.machine
FROM battle_events e JOIN battles b ON b.id = e.battle_id
WHERE e.signer IS NOT NULL;

CREATE TRIGGER battle_events_signers AFTER INSERT ON battle_events WHEN NEW.signer IS NOT NULL
BEGIN
    INSERT OR IGNORE INTO campaign_signers (campaign_id, signer, player, machine)
    SELECT b.campaign_id, NEW.signer, NEW.player, NEW.machine FROM battles b
    WHERE b.id = NEW.battle_id;
END;
