-- ?1 id; the unit lines go with it (ON DELETE CASCADE)
DELETE FROM forces WHERE id = ?1
