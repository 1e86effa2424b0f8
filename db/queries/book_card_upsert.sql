-- ?1 ruleset, ?2 name, ?3 data_revision, ?4 body: insert a book card or refresh it in place
INSERT INTO cards (ruleset, name, origin, data_revision, body, created_at, updated_at)
VALUES (?1, ?2, 'book', ?3, ?4, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
ON CONFLICT (ruleset, name) WHERE origin = 'book'
DO UPDATE SET data_revision = excluded.data_revision, body = excluded.body,
              updated_at = excluded.updated_at
WHERE body IS NOT excluded.body OR data_revision IS NOT excluded.data_revision
