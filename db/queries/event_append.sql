-- ?1 battle id, ?2 kind, ?3 payload JSON, ?4 uid: an event after the battle's latest one (the raw API)
INSERT INTO battle_events (battle_id, uid, follows, seq, kind, payload, created_at)
VALUES (?1, ?4,
        (SELECT uid FROM battle_events WHERE battle_id = ?1 ORDER BY seq DESC, id DESC LIMIT 1),
        (SELECT COALESCE(MAX(seq), 0) + 1 FROM battle_events WHERE battle_id = ?1),
        ?2, ?3, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
RETURNING id, seq, created_at
