-- ?1 name: the campaign with that name, ignoring case
SELECT id FROM campaigns WHERE name = ?1 COLLATE NOCASE
