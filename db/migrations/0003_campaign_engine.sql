-- Schema version 3: the campaign engine. A campaign keeps its definition (players, options,
-- battle plans) as JSON in `body`; each battle row carries its number and title as before and
-- its events stay append-only. Campaign names become unique (ignoring case), and a campaign
-- can be deleted whole: the only time events may go is when their campaign is marked
-- `deleting` inside the same transaction that removes it.

ALTER TABLE campaigns ADD COLUMN body TEXT CHECK (body IS NULL OR json_valid(body));
ALTER TABLE campaigns ADD COLUMN deleting INTEGER NOT NULL DEFAULT 0 CHECK (deleting IN (0, 1));

CREATE UNIQUE INDEX campaigns_by_name ON campaigns (name COLLATE NOCASE);
CREATE INDEX battles_by_campaign ON battles (campaign_id, number);

DROP TRIGGER battle_events_no_delete;
CREATE TRIGGER battle_events_no_delete BEFORE DELETE ON battle_events
WHEN NOT EXISTS (
    SELECT 1 FROM battles b JOIN campaigns c ON c.id = b.campaign_id
    WHERE b.id = OLD.battle_id AND c.deleting = 1
)
BEGIN
    SELECT RAISE(ABORT, 'battle events are append-only: record a new event instead');
END;
