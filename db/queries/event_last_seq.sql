-- ?1 battle id: the number of its last event (0 when it has none)
SELECT COALESCE(MAX(seq), 0) FROM battle_events WHERE battle_id = ?1
