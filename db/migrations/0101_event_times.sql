-- Schema step 0101: the campaign list finds each campaign's newest event time from an index
-- (issue 39). Without it the list read every event row of a campaign for the time alone: 46 ms
-- at 100,000 events, in every frame that took another machine's note in. With it, one index
-- step per battle.
--
-- Nothing recorded changes.

CREATE INDEX battle_events_by_time ON battle_events (battle_id, created_at);
