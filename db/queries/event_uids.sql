-- ?1 battle id: the ids of its events (what a merge must not store twice)
SELECT uid FROM battle_events WHERE battle_id = ?1
