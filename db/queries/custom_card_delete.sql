-- ?1 id; book cards are never deleted here
DELETE FROM cards WHERE id = ?1 AND origin = 'custom'
