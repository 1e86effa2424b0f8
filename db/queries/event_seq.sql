-- ?1 battle id, ?2 uid: the event's seq, if it is in this battle
SELECT seq FROM battle_events WHERE battle_id = ?1 AND uid = ?2
