-- ?1 campaign id (marked deleting): its events
DELETE FROM battle_events WHERE battle_id IN (SELECT id FROM battles WHERE campaign_id = ?1)
