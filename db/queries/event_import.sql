-- ?1 battle id, ?2 seq, ?3 kind, ?4 payload JSON, ?5 recorded time: an imported event keeps its number and time
INSERT INTO battle_events (battle_id, seq, kind, payload, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
