-- ?1 campaign id, ?2 player, ?3 machine: the keys that signed events under these names
SELECT DISTINCT e.signer
FROM battle_events e JOIN battles b ON b.id = e.battle_id
WHERE e.player = ?2 AND e.machine = ?3 AND e.signer IS NOT NULL AND b.campaign_id = ?1
