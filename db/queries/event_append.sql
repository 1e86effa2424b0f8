-- ?1 battle id, ?2 kind, ?3 payload JSON; seq is one past the battle's last event
INSERT INTO battle_events (battle_id, seq, kind, payload, created_at)
VALUES (?1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM battle_events WHERE battle_id = ?1),
        ?2, ?3, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
RETURNING id, seq, created_at
