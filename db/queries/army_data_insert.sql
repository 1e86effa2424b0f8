-- ?1 ruleset, ?2 kind, ?3 source_id, ?4 name, ?5 revision, ?6 digest, ?7 file_name,
-- ?8 game_system, ?9 source, ?10 cards JSON, ?11 force_orgs JSON, ?12 notes JSON
INSERT INTO army_data (ruleset, kind, source_id, name, revision, digest, file_name, game_system,
                       source, cards, force_orgs, notes, imported_at)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
