-- ?1 ruleset, ?2 name, ?3 data_revision, ?4 body
INSERT INTO cards (ruleset, name, origin, data_revision, body, created_at, updated_at)
VALUES (?1, ?2, 'custom', ?3, ?4, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
