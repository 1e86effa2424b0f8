-- ?1 uid: whether an event with this id is stored
SELECT EXISTS (SELECT 1 FROM battle_events WHERE uid = ?1)
