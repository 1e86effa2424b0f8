-- ?1 campaign id: the numbers of the battles set up by an event (added during the campaign)
SELECT DISTINCT b.number
FROM battle_events e JOIN battles b ON b.id = e.battle_id
WHERE b.campaign_id = ?1 AND e.kind = 'battle_added' AND e.seq = 1
