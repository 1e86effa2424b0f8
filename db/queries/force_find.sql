-- ?1 name; the force of that name, ignoring ASCII case
SELECT id FROM forces WHERE name = ?1 COLLATE NOCASE
