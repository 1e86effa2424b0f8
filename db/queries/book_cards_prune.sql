-- ?1 ruleset, ?2 data revision just seeded: book cards the new data no longer has
DELETE FROM cards WHERE origin = 'book' AND ruleset = ?1 AND data_revision IS NOT ?2
