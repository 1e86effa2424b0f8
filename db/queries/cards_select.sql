-- ?1 origin ('book' or 'custom'): id and card JSON, by ruleset then name
SELECT id, body FROM cards WHERE origin = ?1 ORDER BY ruleset, name COLLATE NOCASE, id
