-- ?1 battle id, ?2 uid, ?3 follows, ?4 seq, ?5 kind, ?6 payload JSON, ?7 recorded time, ?8 player, ?9 machine: an event from a file or another machine keeps its id, place, time and recorder
INSERT INTO battle_events (battle_id, uid, follows, seq, kind, payload, created_at, player, machine)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
