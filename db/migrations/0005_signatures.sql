-- Schema version 5: signed events and rules revisions (issue 21).
--
-- Every event recorded from now on says which revision of its ruleset's rulings it was resolved
-- under (`revision`; NULL for events from before, which verify under whichever revision their
-- dice fit), and carries its recording machine's public key and signature (`signer`,
-- `signature`, base64url; NULL for events recorded before events were signed). A signed
-- event's `uid` is made from its content, so the id binds what the event says.
--
-- Nothing recorded changes: the new columns are NULL on every existing row.

ALTER TABLE battle_events ADD COLUMN revision INTEGER CHECK (revision IS NULL OR revision >= 1);
ALTER TABLE battle_events ADD COLUMN signer TEXT CHECK (signer IS NULL OR length(signer) = 43);
ALTER TABLE battle_events ADD COLUMN signature TEXT
    CHECK (signature IS NULL OR length(signature) = 86);

-- Who has signed as a player and machine in a campaign: looked up for every signed event a
-- merge brings in.
CREATE INDEX battle_events_by_recorder ON battle_events (player, machine) WHERE signer IS NOT NULL;
