-- ?1 ruleset: the newest book data revision stored and how many book cards there are
SELECT MAX(data_revision), COUNT(*) FROM cards WHERE origin = 'book' AND ruleset = ?1
