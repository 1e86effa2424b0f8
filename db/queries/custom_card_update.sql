-- ?1 id, ?2 ruleset, ?3 name, ?4 body; book cards are never updated here
UPDATE cards SET ruleset = ?2, name = ?3, body = ?4, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
WHERE id = ?1 AND origin = 'custom'
