-- ?1 battle id, ?2 uid: when the event was recorded, if it is in this battle
SELECT created_at FROM battle_events WHERE battle_id = ?1 AND uid = ?2
