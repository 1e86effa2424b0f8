-- ?1 battle id, ?2 uid, ?3 follows (NULL: first), ?4 seq, ?5 kind, ?6 payload JSON, ?7 player, ?8 machine
INSERT INTO battle_events (battle_id, uid, follows, seq, kind, payload, created_at, player, machine)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?7, ?8)
RETURNING created_at
