-- ?1 campaign id: the row id of its newest event, 0 when none
SELECT COALESCE(MAX(e.id), 0)
FROM battle_events e JOIN battles b ON b.id = e.battle_id
WHERE b.campaign_id = ?1
