-- ?1 battle id: its events in order
SELECT id, battle_id, seq, kind, payload, created_at
FROM battle_events
WHERE battle_id = ?1
ORDER BY seq
