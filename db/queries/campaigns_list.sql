-- Every campaign with its battle and event counts, by name. The newest event time is taken
-- battle by battle, each from `battle_events_by_time`, so no event row is read.
SELECT c.id, c.ruleset, c.name, c.created_at, c.body IS NOT NULL,
       (SELECT COUNT(*) FROM battles b WHERE b.campaign_id = c.id),
       (SELECT COUNT(*) FROM battle_events e JOIN battles b ON b.id = e.battle_id
         WHERE b.campaign_id = c.id),
       (SELECT MAX((SELECT MAX(e.created_at) FROM battle_events e WHERE e.battle_id = b.id))
          FROM battles b WHERE b.campaign_id = c.id),
       c.uid
FROM campaigns c
ORDER BY c.name COLLATE NOCASE
